/*
 * What every directory block type shares: the name hash (with the
 * ascii-ci variant), name rules, the identity checks of the two v3 block
 * headers (xfs_dir3_blk_hdr for block/data/free blocks, xfs_da3_blkinfo
 * for leaf blocks) and the buffer ops of each block type.
 */
#include "config.h"
#include "dabtree.h"
#include "dir2_priv.h"
#include "format/crc32c.h"

static inline uint8_t ascii_lower(uint8_t c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

xfs_dahash_t dir_hashname(bool ci, const uint8_t *name, unsigned len)
{
	uint8_t folded[256];

	if (!ci)
		return da_hashname(name, len);
	/* names are at most 255 bytes; a longer one is hashed as is */
	if (len > sizeof(folded))
		return da_hashname(name, len);
	for (unsigned i = 0; i < len; i++)
		folded[i] = ascii_lower(name[i]);
	return da_hashname(folded, len);
}

bool dir_names_match(bool ci, const uint8_t *a, unsigned alen,
		     const uint8_t *b, unsigned blen)
{
	if (alen != blen)
		return false;
	if (!ci)
		return !memcmp(a, b, alen);
	for (unsigned i = 0; i < alen; i++)
		if (ascii_lower(a[i]) != ascii_lower(b[i]))
			return false;
	return true;
}

bool dir_name_ok(const uint8_t *name, unsigned len, const struct fs_objref *o,
		 struct fs_findings *fl, unsigned *nerr)
{
	if (!len) {
		fs_report(fl, PR_DIR_BAD_NAMELEN, o, "namelen");
		(*nerr)++;
		return false;
	}
	for (unsigned i = 0; i < len; i++) {
		if (name[i] == '/' || name[i] == 0) {
			fs_report_found(fl, PR_DIR_BAD_NAME, o, "name", name[i]);
			(*nerr)++;
			return false;
		}
	}
	return true;
}

bool dir3_hdr_check(const struct dir_blk *b, uint32_t want,
		    struct fs_findings *fl, unsigned *nerr)
{
	const struct xfs_dir3_blk_hdr *h = (const void *)b->data;
	uint32_t len = b->g->dirblksize;
	struct fs_objref o = dir_blk_obj(b, -1);
	uint32_t magic = get_be32(h->magic);

	if (magic != want) {
		fs_report_val(fl, PR_DIR_BAD_MAGIC, &o, "magic", want, magic);
		(*nerr)++;
		return false;
	}
	if (!xfs_cksum_verify(b->data, len, XFS_DIR3_DATA_CRC_OFF)) {
		fs_report_val(fl, PR_DIR_BAD_CRC, &o, "crc",
			      xfs_cksum_calc(b->data, len, XFS_DIR3_DATA_CRC_OFF),
			      get_le32(h->crc));
		(*nerr)++;
	}
	if (get_be64(h->blkno) != b->daddr) {
		fs_report_val(fl, PR_DIR_BAD_BLKNO, &o, "blkno", b->daddr,
			      get_be64(h->blkno));
		(*nerr)++;
	}
	if (memcmp(&h->uuid, &b->g->meta_uuid, sizeof(h->uuid))) {
		fs_report(fl, PR_DIR_BAD_UUID, &o, "uuid");
		(*nerr)++;
	}
	if (b->ino != NULLFSINO && get_be64(h->owner) != b->ino) {
		fs_report_val(fl, PR_DIR_BAD_OWNER, &o, "owner", b->ino,
			      get_be64(h->owner));
		(*nerr)++;
	}
	if (!geom_lsn_plausible(b->g, (xfs_lsn_t)get_be64(h->lsn)))
		fs_report_found(fl, PR_DIR_BAD_LSN, &o, "lsn",
				get_be64(h->lsn));	/* a warning */
	return true;
}

static const struct da_hdr_codes dir_leaf_codes = {
	.crc = PR_DIR_BAD_CRC,
	.blkno = PR_DIR_BAD_BLKNO,
	.uuid = PR_DIR_BAD_UUID,
	.owner = PR_DIR_BAD_OWNER,
	.lsn = PR_DIR_BAD_LSN,
};

bool dir3_dahdr_check(const struct dir_blk *b, uint16_t want,
		      struct fs_findings *fl, unsigned *nerr)
{
	const struct xfs_da3_blkinfo *h = (const void *)b->data;
	struct fs_objref o = dir_blk_obj(b, -1);
	uint16_t magic = get_be16(h->magic);

	if (magic != want) {
		fs_report_val(fl, PR_DIR_BAD_MAGIC, &o, "info.magic", want,
			      magic);
		(*nerr)++;
		return false;
	}
	*nerr += da3_blkinfo_check(b->g, b->data, b->g->dirblksize, b->daddr,
				   b->ino, &dir_leaf_codes, &o, fl);
	return true;
}

/* Context-free verifiers for buffers read by type. */
static void dir_buf_blk(void *ctx, struct fs_buf *bp, struct dir_blk *b)
{
	struct fs *fs = ctx;

	b->g = &fs->geo;
	b->ci = sb_has_asciici(&fs->sb);
	b->ino = NULLFSINO;
	b->dablk = 0;
	b->daddr = bp->daddr;
	b->data = bp->data;
}

#define DIR_HDR_VERIFIER(fn, want) \
static void fn(void *ctx, struct fs_buf *bp, struct fs_findings *fl) \
{ \
	struct dir_blk b; \
	unsigned n = 0; \
	if (bp->len < ((struct fs *)ctx)->geo.dirblksize) \
		return; \
	dir_buf_blk(ctx, bp, &b); \
	if (dir3_hdr_check(&b, want, fl, &n)) \
		fs_saw_lsn(ctx, (xfs_lsn_t)get_be64( \
			((const struct xfs_dir3_blk_hdr *)bp->data)->lsn)); \
}
DIR_HDR_VERIFIER(dir3_block_verify, XFS_DIR3_BLOCK_MAGIC)
DIR_HDR_VERIFIER(dir3_data_verify, XFS_DIR3_DATA_MAGIC)
DIR_HDR_VERIFIER(dir3_free_verify, XFS_DIR3_FREE_MAGIC)
#undef DIR_HDR_VERIFIER

#define DIR_DAHDR_VERIFIER(fn, want) \
static void fn(void *ctx, struct fs_buf *bp, struct fs_findings *fl) \
{ \
	struct dir_blk b; \
	unsigned n = 0; \
	if (bp->len < ((struct fs *)ctx)->geo.dirblksize) \
		return; \
	dir_buf_blk(ctx, bp, &b); \
	if (dir3_dahdr_check(&b, want, fl, &n)) \
		fs_saw_lsn(ctx, (xfs_lsn_t)get_be64( \
			((const struct xfs_da3_blkinfo *)bp->data)->lsn)); \
}
DIR_DAHDR_VERIFIER(dir3_leaf1_verify, XFS_DIR3_LEAF1_MAGIC)
DIR_DAHDR_VERIFIER(dir3_leafn_verify, XFS_DIR3_LEAFN_MAGIC)
#undef DIR_DAHDR_VERIFIER

const struct buf_ops dir3_block_buf_ops = {
	.name = "dir3_block",
	.verify = dir3_block_verify,
	.crc_off = XFS_DIR3_DATA_CRC_OFF,
};

const struct buf_ops dir3_data_buf_ops = {
	.name = "dir3_data",
	.verify = dir3_data_verify,
	.crc_off = XFS_DIR3_DATA_CRC_OFF,
};

const struct buf_ops dir3_free_buf_ops = {
	.name = "dir3_free",
	.verify = dir3_free_verify,
	.crc_off = XFS_DIR3_DATA_CRC_OFF,
};

const struct buf_ops dir3_leaf1_buf_ops = {
	.name = "dir3_leaf1",
	.verify = dir3_leaf1_verify,
	.crc_off = XFS_DA3_BLKINFO_CRC_OFF,
};

const struct buf_ops dir3_leafn_buf_ops = {
	.name = "dir3_leafn",
	.verify = dir3_leafn_verify,
	.crc_off = XFS_DA3_BLKINFO_CRC_OFF,
};
