/*
 * The field tables: bit access in the format's MSB-first numbering, the
 * places of fields against the format structs, variable layouts bounded
 * by the object (btree arrays by numrecs, directory entries by their
 * lengths), and lookups by name.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "fields.h"
#include "format/ondisk.h"
#include "unit.h"

static void ctx_init(struct fld_ctx *c, const uint8_t *data, uint32_t len)
{
	memset(c, 0, sizeof(*c));
	c->data = data;
	c->len = len;
	c->blocksize = 4096;
	c->dirblksize = 4096;
	c->inodesize = 512;
	c->has_ftype = true;
	c->has_sparse = true;
}

START_TEST(bits_roundtrip)
{
	uint8_t b[16];
	unsigned off, w;

	for (off = 0; off < 64; off += 7)
		for (w = 1; w <= 64; w += 9) {
			uint64_t v = 0x0123456789abcdefull & (w == 64 ? ~0ull :
							      (1ull << w) - 1);

			memset(b, 0xa5, sizeof(b));
			bits_set(b, sizeof(b), off, w, v);
			ck_assert_uint_eq(bits_get(b, sizeof(b), off, w), v);
		}
	/* bit 0 is the top bit of byte 0 */
	memset(b, 0, sizeof(b));
	bits_set(b, sizeof(b), 0, 1, 1);
	ck_assert_uint_eq(b[0], 0x80);
	/* big-endian whole bytes */
	store_be32(b + 4, 0xdeadbeef);
	ck_assert_uint_eq(bits_get(b, sizeof(b), 32, 32), 0xdeadbeef);
	/* sign extension */
	bits_set(b, sizeof(b), 8, 8, 0xfe);
	ck_assert_int_eq(bits_get_signed(b, sizeof(b), 8, 8), -2);
	/* nothing is read or written past the end */
	ck_assert_uint_eq(bits_get(b, 4, 24, 16), (uint64_t)b[3] << 8);
	bits_set(b, 4, 32, 32, 0);
	ck_assert_uint_eq(load_be32(b + 4), 0xdeadbeef);
}
END_TEST

static const struct fld *field(const struct fld_objtype *t, const char *n)
{
	const struct fld *f = fld_find(t->type->sub, n);

	ck_assert_ptr_nonnull(f);
	return f;
}

START_TEST(offsets_follow_structs)
{
	const struct fld_objtype *sb = fld_objtype_find("sb");
	const struct fld_objtype *agf = fld_objtype_find("agf");
	const struct fld_objtype *ino = fld_objtype_find("inode");
	struct fld_ctx c;
	uint8_t buf[512] = { 0 };
	const struct fld *core, *f;

	ck_assert_ptr_nonnull(sb);
	ck_assert_uint_eq(field(sb, "crc")->off, XFS_SB_CRC_OFF * 8);
	ck_assert_uint_eq(field(sb, "meta_uuid")->off,
			  offsetof(struct xfs_dsb, sb_meta_uuid) * 8);
	ck_assert_uint_eq(field(agf, "refcntroot")->off,
			  offsetof(struct xfs_agf, agf_refcount_root) * 8);
	ck_assert_uint_eq(sb->crc_off, XFS_SB_CRC_OFF);
	/* inode flag bits: core.realtime is bit 0 of be16 di_flags */
	core = field(ino, "core");
	f = fld_find(core->type->sub, "realtime");
	ck_assert_ptr_nonnull(f);
	ctx_init(&c, buf, sizeof(buf));
	store_be16(buf + offsetof(struct xfs_dinode, di_flags),
		   XFS_DIFLAG_REALTIME);
	ck_assert_uint_eq(bits_get(buf, sizeof(buf), f->off, 1), 1);
	f = fld_find(core->type->sub, "prealloc");
	ck_assert_uint_eq(bits_get(buf, sizeof(buf), f->off, 1), 0);
}
END_TEST

START_TEST(btree_records_bounded)
{
	const struct fld_objtype *t = fld_objtype_find("bnobt");
	uint8_t blk[4096] = { 0 };
	struct fld_ctx c;
	const struct fld *recs = field(t, "recs"), *ptrs = field(t, "ptrs");

	ctx_init(&c, blk, sizeof(blk));
	store_be32(blk, XFS_ABTB_CRC_MAGIC);
	store_be16(blk + 6, 3);			/* numrecs */
	ck_assert_int_eq(fld_count(&c, recs, 0), 3);
	ck_assert_int_eq(fld_count(&c, ptrs, 0), 0);	/* a leaf */
	ck_assert_uint_eq(fld_elem_bit(&c, recs, 0, 1),
			  (XFS_BTREE_SBLOCK_CRC_LEN + 8) * 8);
	store_be16(blk + 6, 0xffff);		/* damaged */
	ck_assert_int_eq(fld_count(&c, recs, 0),
			 (4096 - XFS_BTREE_SBLOCK_CRC_LEN) / 8);
	store_be16(blk + 4, 1);			/* a node */
	store_be16(blk + 6, 2);
	ck_assert_int_eq(fld_count(&c, recs, 0), 0);
	ck_assert_int_eq(fld_count(&c, ptrs, 0), 2);
	/* pointers follow maxrecs keys */
	ck_assert_uint_eq(fld_elem_bit(&c, ptrs, 0, 0),
			  (XFS_BTREE_SBLOCK_CRC_LEN +
			   (4096 - XFS_BTREE_SBLOCK_CRC_LEN) / 12 * 8) * 8);
}
END_TEST

START_TEST(dir_entries_walk)
{
	const struct fld_objtype *t = fld_objtype_find("dir3");
	uint8_t blk[4096] = { 0 };
	struct fld_ctx c;
	const struct fld *du = field(t, "du");
	unsigned off = sizeof(struct xfs_dir3_data_hdr);

	ctx_init(&c, blk, sizeof(blk));
	store_be32(blk, XFS_DIR3_DATA_MAGIC);
	ck_assert_int_eq(fld_dir3_kind(&c), FLD_DIR_DATA);
	/* one entry "abc", then one free region to the end */
	store_be64(blk + off, 1234);
	blk[off + 8] = 3;
	memcpy(blk + off + 9, "abc", 3);
	off += dir2_data_entsize(true, 3);
	store_be16(blk + off, XFS_DIR2_DATA_FREE_TAG);
	store_be16(blk + off + 2, 4096 - off);
	ck_assert_int_eq(fld_count(&c, du, 0), 2);
	ck_assert_uint_eq(fld_elem_bit(&c, du, 0, 1), off * 8);
	/* a zero-length free region stops the walk, never loops */
	store_be16(blk + off + 2, 0);
	ck_assert_int_eq(fld_count(&c, du, 0), 2);
	/* other kinds have no du */
	store_be32(blk, 0);
	ck_assert_int_eq(fld_dir3_kind(&c), FLD_DIR_UNKNOWN);
	ck_assert_int_eq(fld_count(&c, du, 0), 0);
}
END_TEST

START_TEST(types_listed)
{
	unsigned i;

	ck_assert_uint_eq(fld_nobjtypes, 23);
	for (i = 0; i < fld_nobjtypes; i++)
		ck_assert_ptr_eq(fld_objtype_find(fld_objtypes[i].name),
				 &fld_objtypes[i]);
	ck_assert_ptr_null(fld_objtype_find("nosuch"));
	ck_assert_str_eq(fld_dinode_fmt_name(XFS_DINODE_FMT_BTREE), "btree");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("fields");
	TCase *tc = tcase_create("fields");

	tcase_add_test(tc, bits_roundtrip);
	tcase_add_test(tc, offsets_follow_structs);
	tcase_add_test(tc, btree_records_bounded);
	tcase_add_test(tc, dir_entries_walk);
	tcase_add_test(tc, types_listed);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
