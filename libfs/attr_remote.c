/*
 * Remote attribute values (extended_attributes.asciidoc "Remote Attribute
 * Values"): a value too big for its leaf is kept in attr_rmt_blocks()
 * consecutive fork blocks from the entry's valueblk.  On v5 every fs
 * block of the value starts with a struct xfs_attr3_rmt_hdr and carries
 * the next min(left, blocksize - 56) bytes; each block has its own CRC,
 * over the whole block, and says which piece of the value it holds
 * (rm_offset, rm_bytes), where it is (rm_blkno) and whose it is.
 *
 * In:  one block, and the piece of the value it must hold.
 * Out: findings.  The fork-level reading (mapping, assembling) is in
 *      attr.c.
 */
#include "config.h"
#include <string.h>
#include "attr_int.h"
#include "fs.h"
#include "format/crc32c.h"

unsigned attr_rmt_check(const struct fs_geom *g, xfs_ino_t ino,
			xfs_dablk_t dablk, xfs_daddr_t daddr,
			const uint8_t *blk, uint32_t offset, uint32_t bytes,
			struct fs_findings *fl)
{
	const struct xfs_attr3_rmt_hdr *h = (const void *)blk;
	struct fs_objref o = attr_obj(ino, daddr, dablk);
	uint32_t bs = g->blocksize;
	unsigned n = 0;

	if (get_be32(h->rm_magic) != XFS_ATTR3_RMT_MAGIC) {
		fs_report_val(fl, PR_ATTR_RMT_BAD_MAGIC, &o, "magic",
			      XFS_ATTR3_RMT_MAGIC, get_be32(h->rm_magic));
		return 1;
	}
	if (!xfs_cksum_verify(blk, bs, XFS_ATTR3_RMT_CRC_OFF)) {
		fs_report_val(fl, PR_ATTR_RMT_BAD_CRC, &o, "crc",
			      xfs_cksum_calc(blk, bs, XFS_ATTR3_RMT_CRC_OFF),
			      xfs_cksum_stored(blk, XFS_ATTR3_RMT_CRC_OFF));
		n++;
	}
	if (memcmp(&h->rm_uuid, &g->meta_uuid, sizeof(h->rm_uuid))) {
		fs_report(fl, PR_ATTR_RMT_BAD_UUID, &o, "uuid");
		n++;
	}
	if (ino != NULLFSINO && get_be64(h->rm_owner) != ino) {
		fs_report_val(fl, PR_ATTR_RMT_BAD_OWNER, &o, "owner", ino,
			      get_be64(h->rm_owner));
		n++;
	}
	if (get_be64(h->rm_blkno) != daddr) {
		fs_report_val(fl, PR_ATTR_RMT_BAD_BLKNO, &o, "bno", daddr,
			      get_be64(h->rm_blkno));
		n++;
	}
	/* the kernel writes these never logged: NULLCOMMITLSN */
	if (!geom_lsn_plausible(g, (xfs_lsn_t)get_be64(h->rm_lsn)))
		fs_report_found(fl, PR_ATTR_RMT_BAD_LSN, &o, "lsn",
				get_be64(h->rm_lsn));	/* a warning */
	if (get_be32(h->rm_offset) != offset) {
		fs_report_val(fl, PR_ATTR_RMT_BAD_OFFSET, &o, "offset", offset,
			      get_be32(h->rm_offset));
		n++;
	}
	if (get_be32(h->rm_bytes) != bytes) {
		fs_report_val(fl, PR_ATTR_RMT_BAD_BYTES, &o, "bytes", bytes,
			      get_be32(h->rm_bytes));
		n++;
	}
	return n;
}

/* A value buffer may hold several fs blocks; each has its own CRC. */
static void rmt_write_prep(void *ctx, struct fs_buf *bp)
{
	const struct fs *fs = ctx;
	uint32_t bs = fs->geo.blocksize;

	for (uint32_t off = 0; off + bs <= bp->len; off += bs)
		xfs_cksum_update(bp->data + off, bs, XFS_ATTR3_RMT_CRC_OFF);
}

const struct buf_ops attr3_rmt_buf_ops = {
	.name = "attr3_rmt",
	.verify = NULL,
	.write_prep = rmt_write_prep,
	.crc_off = XFS_ATTR3_RMT_CRC_OFF,
};

const struct buf_ops attr3_leaf_buf_ops = {
	.name = "attr3_leaf",
	.verify = NULL,
	.write_prep = NULL,
	.crc_off = XFS_DA3_BLKINFO_CRC_OFF,
};
