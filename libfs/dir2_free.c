/*
 * Free index blocks of node-form directories (directories.asciidoc "Node
 * Directories"): after the 64-byte xfs_dir3_free_hdr, nvalid be16 bests,
 * one per data block from firstdb on, each the data block's
 * bestfree[0].length or 0xffff for a data block that is not there.  Free
 * block i of the free space covers data blocks [i * maxbests,
 * (i + 1) * maxbests).  Whether the bests match the data blocks is for
 * the fork layer.
 */
#include "config.h"
#include "dir2_priv.h"

unsigned dir3_free_check(const struct dir_blk *b, struct fs_findings *fl,
			 struct dir_free_info *info)
{
	const struct fs_geom *g = b->g;
	const struct xfs_dir3_free_hdr *hdr = (const void *)b->data;
	struct dir_free_info local;
	struct fs_objref o = dir_blk_obj(b, -1);
	uint32_t maxbests = dir3_free_maxbests(g), want_first, nused = 0;

	if (!info)
		info = &local;
	memset(info, 0, sizeof(*info));
	if (!dir3_hdr_check(b, XFS_DIR3_FREE_MAGIC, fl, &info->nerr))
		return info->nerr;
	info->magic_ok = true;
	info->firstdb = get_be32(hdr->firstdb);
	info->nvalid = get_be32(hdr->nvalid);
	info->nused = get_be32(hdr->nused);
	info->bests = (const be16 *)(b->data + sizeof(*hdr));

	want_first = b->dablk >= dir_free_dablk(g) ?
		     ((b->dablk - dir_free_dablk(g)) >> g->dirblklog) * maxbests :
		     0;
	if (info->firstdb != want_first) {
		fs_report_val(fl, PR_DIR_FREE_BAD_FIRSTDB, &o, "firstdb",
			      want_first, info->firstdb);
		info->nerr++;
	}
	if (info->nvalid > maxbests) {
		fs_report_val(fl, PR_DIR_FREE_BAD_NVALID, &o, "nvalid",
			      maxbests, info->nvalid);
		info->nerr++;
		info->nvalid = maxbests;
	}
	for (uint32_t i = 0; i < info->nvalid; i++)
		if (get_be16(info->bests[i]) != XFS_DIR2_NULL_BESTFREE)
			nused++;
	if (nused != info->nused) {
		fs_report_val(fl, PR_DIR_FREE_BAD_NUSED, &o, "nused", nused,
			      info->nused);
		info->nerr++;
	}
	return info->nerr;
}
