/*
 * Leaf blocks (directories.asciidoc "Leaf Directories", "Node
 * Directories"): after the 64-byte xfs_dir3_leaf_hdr, count leaf entries
 * (hash, address) sorted by hash; stale entries have address 0.  A LEAF1
 * block (the one leaf of a leaf-form directory) also ends with bests[]
 * (one be16 per data block) and a be32 bestcount.  A LEAFN block is a
 * dabtree leaf of a node-form directory and holds only entries.
 *
 * This file checks one leaf block on its own; what the addresses reach
 * and whether bests[] are right is for the fork layer, which has read the
 * data blocks.
 */
#include "config.h"
#include "dabtree.h"
#include "dir2_priv.h"

unsigned dir3_leaf_check(const struct dir_blk *b, uint16_t magic,
			 struct fs_findings *fl, struct dir_leaf_info *info)
{
	uint32_t len = b->g->dirblksize;
	const struct xfs_dir3_leaf_hdr *hdr = (const void *)b->data;
	const struct xfs_dir2_leaf_entry *ents =
		(const void *)(b->data + sizeof(*hdr));
	struct dir_leaf_info local;
	struct da_blkinfo bi;
	uint32_t room, count, stale, nstale = 0;

	if (!info)
		info = &local;
	memset(info, 0, sizeof(*info));
	info->magic = get_be16(hdr->info.magic);
	if (!dir3_dahdr_check(b, magic, fl, &info->nerr))
		return info->nerr;
	info->magic_ok = true;
	da3_blkinfo_decode(b->data, &bi);
	info->forw = bi.forw;
	info->back = bi.back;
	count = get_be16(hdr->count);
	stale = get_be16(hdr->stale);
	room = len - sizeof(*hdr);

	if (magic == XFS_DIR3_LEAF1_MAGIC) {
		const struct xfs_dir2_leaf_tail *lt =
			(const void *)(b->data + len - sizeof(*lt));
		uint32_t bestcount = get_be32(lt->bestcount);
		uint32_t maxbests = (room - sizeof(*lt)) / sizeof(be16);
		struct fs_objref o = dir_blk_obj(b, len - sizeof(*lt));

		if (bestcount > maxbests) {
			fs_report_found(fl, PR_DIR_LEAF_BAD_BESTS, &o,
					"tail.bestcount", bestcount);
			info->nerr++;
			bestcount = maxbests;
		}
		info->bestcount = bestcount;
		info->bests = (const be16 *)(b->data + len - sizeof(*lt)) -
			      bestcount;
		room -= sizeof(*lt) + bestcount * sizeof(be16);
		if (bi.forw || bi.back) {
			o = dir_blk_obj(b, -1);
			fs_report_val(fl, PR_DIR_LEAF_BAD_SIBLING, &o,
				      bi.forw ? "info.forw" : "info.back", 0,
				      bi.forw ? bi.forw : bi.back);
			info->nerr++;
		}
	}
	if (count > room / sizeof(*ents)) {
		struct fs_objref o = dir_blk_obj(b, -1);

		fs_report_found(fl, PR_DIR_LEAF_BAD_COUNT, &o, "count", count);
		info->nerr++;
		count = room / sizeof(*ents);
	}
	info->ents = ents;
	info->count = count;
	for (uint32_t i = 0; i < count; i++) {
		xfs_dahash_t h = get_be32(ents[i].hashval);

		if (i && h < get_be32(ents[i - 1].hashval)) {
			struct fs_objref o =
				dir_blk_obj(b, sizeof(*hdr) + i * sizeof(*ents));

			fs_report_val(fl, PR_DIR_LEAF_HASH_ORDER, &o,
				      "ents.hashval",
				      get_be32(ents[i - 1].hashval), h);
			info->nerr++;
		}
		if (get_be32(ents[i].address) == XFS_DIR2_NULL_DATAPTR)
			nstale++;
	}
	if (count) {
		info->first = get_be32(ents[0].hashval);
		info->last = get_be32(ents[count - 1].hashval);
	}
	info->stale = stale;
	if (stale != nstale) {
		struct fs_objref o = dir_blk_obj(b, -1);

		fs_report_val(fl, PR_DIR_LEAF_BAD_STALE, &o, "stale", nstale,
			      stale);
		info->nerr++;
	}
	return info->nerr;
}
