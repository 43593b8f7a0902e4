/*
 * The builders of libfs/build.c on their own: the fixed AG layout for
 * every block and sector size combination, the AGFL slots (including the
 * wrap at the end of the array), short-form root directories with 4- and
 * 8-byte parents, inode cores with bigtime and legacy timestamps, and
 * btree leaves in disk byte order.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "build.h"
#include "unit.h"

START_TEST(ag_static_layouts)
{
	struct ag_static st;

	/* 4 KiB blocks, 512-byte sectors: the headers share block 0 */
	build_ag_static(4096, 512, true, true, true, &st);
	ck_assert_uint_eq(st.hdr_blocks, 1);
	ck_assert_uint_eq(st.bno, 1);
	ck_assert_uint_eq(st.cnt, 2);
	ck_assert_uint_eq(st.ino, 3);
	ck_assert_uint_eq(st.fino, 4);
	ck_assert_uint_eq(st.rmap, 5);
	ck_assert_uint_eq(st.refc, 6);
	ck_assert_uint_eq(st.prealloc, 7);
	/* without the optional trees, later roots move down */
	build_ag_static(4096, 512, false, false, true, &st);
	ck_assert_uint_eq(st.fino, NULLAGBLOCK);
	ck_assert_uint_eq(st.rmap, NULLAGBLOCK);
	ck_assert_uint_eq(st.refc, 4);
	ck_assert_uint_eq(st.prealloc, 5);
	/* 1 KiB blocks: the AGFL sector is in block 1 */
	build_ag_static(1024, 512, true, true, true, &st);
	ck_assert_uint_eq(st.hdr_blocks, 2);
	ck_assert_uint_eq(st.bno, 2);
	ck_assert_uint_eq(st.prealloc, 8);
	/* 4 KiB sectors: one block per header */
	build_ag_static(4096, 4096, true, true, true, &st);
	ck_assert_uint_eq(st.hdr_blocks, 4);
	ck_assert_uint_eq(st.bno, 4);
	ck_assert_uint_eq(st.prealloc, 10);
}
END_TEST

START_TEST(agfl_slots_and_wrap)
{
	uint8_t sect[512];
	uint32_t blocks[3] = { 7, 8, 9 };
	xfs_uuid_t u;
	unsigned size = build_agfl_size(512);

	memset(&u, 0xab, sizeof(u));
	ck_assert_uint_eq(size, 119);
	build_agfl(sect, 512, 5, &u, blocks, 3, 1);
	ck_assert_uint_eq(load_be32(sect), XFS_AGFL_MAGIC);
	ck_assert_uint_eq(load_be32(sect + 4), 5);
	ck_assert_uint_eq(load_be32(sect + 36), NULLAGBLOCK);
	ck_assert_uint_eq(load_be32(sect + 36 + 4), 7);
	ck_assert_uint_eq(load_be32(sect + 36 + 12), 9);
	ck_assert_uint_eq(load_be32(sect + 36 + 16), NULLAGBLOCK);
	/* starting at the last slot wraps to slot 0 */
	build_agfl(sect, 512, 0, &u, blocks, 3, size - 1);
	ck_assert_uint_eq(load_be32(sect + 36 + 4 * (size - 1)), 7);
	ck_assert_uint_eq(load_be32(sect + 36), 8);
	ck_assert_uint_eq(load_be32(sect + 40), 9);
}
END_TEST

START_TEST(sf_dir_parent_width)
{
	uint8_t fork[16];

	ck_assert_uint_eq(build_sf_dir_empty(fork, 128), 6);
	ck_assert_uint_eq(fork[0], 0);
	ck_assert_uint_eq(fork[1], 0);
	ck_assert_uint_eq(load_be32(fork + 2), 128);
	ck_assert_uint_eq(build_sf_dir_empty(fork, 1ull << 33), 10);
	ck_assert_uint_eq(fork[1], 1);
	ck_assert_uint_eq(load_be64(fork + 2), 1ull << 33);
}
END_TEST

START_TEST(dinode_times)
{
	uint8_t ip[512];
	struct xfs_dinode *d = (void *)ip;
	struct build_inode bi = {
		.ino = 131, .mode = XFS_S_IFDIR | 0755, .nlink = 2,
		.format = XFS_DINODE_FMT_LOCAL, .flags2 = XFS_DIFLAG2_BIGTIME,
		.mtime_sec = 1, .mtime_nsec = 5, .projid = 0x10002,
	};
	xfs_uuid_t u;

	memset(&u, 0x11, sizeof(u));
	build_dinode(ip, sizeof(ip), &bi, &u);
	ck_assert_uint_eq(get_be16(d->di_magic), XFS_DINODE_MAGIC);
	ck_assert_uint_eq(d->di_version, 3);
	ck_assert_uint_eq(get_be16(d->di_projid_lo), 2);
	ck_assert_uint_eq(get_be16(d->di_projid_hi), 1);
	ck_assert_uint_eq(get_be64(d->di_ino), 131);
	ck_assert_uint_eq(get_be32(d->di_next_unlinked), NULLAGINO);
	/* bigtime: nanoseconds since 1901-12-13 */
	ck_assert_uint_eq(get_be64(d->di_mtime),
			  (1ull + 2147483648ull) * 1000000000ull + 5);
	ck_assert_uint_eq(get_be64(d->di_atime),
			  2147483648ull * 1000000000ull);
	/* legacy: seconds then nanoseconds */
	bi.flags2 = 0;
	build_dinode(ip, sizeof(ip), &bi, &u);
	ck_assert_uint_eq(load_be32(&d->di_mtime), 1);
	ck_assert_uint_eq(load_be32((uint8_t *)&d->di_mtime + 4), 5);
	ck_assert_uint_eq(get_be64(d->di_atime), 0);
	ck_assert_int_eq(memcmp(&d->di_uuid, &u, 16), 0);
}
END_TEST

START_TEST(leaves_in_disk_order)
{
	uint8_t blk[4096];
	struct build_ext e[2] = { { 13, 3 }, { 24, 131048 } };
	struct build_rmap r = { 16, 8, XFS_RMAP_OWN_INODES, 0 };
	xfs_uuid_t u;

	memset(&u, 0, sizeof(u));
	build_sblock(blk, 4096, XFS_ABTB_CRC_MAGIC, 0, 2, 8, 0, &u);
	build_alloc_leaf(blk, e, 2);
	ck_assert_uint_eq(load_be32(blk), XFS_ABTB_CRC_MAGIC);
	ck_assert_uint_eq(load_be16(blk + 6), 2);
	ck_assert_uint_eq(load_be32(blk + 8), NULLAGBLOCK);
	ck_assert_uint_eq(load_be64(blk + 16), 8);
	ck_assert_uint_eq(load_be32(blk + 56), 13);
	ck_assert_uint_eq(load_be32(blk + 68), 131048);
	build_rmap_leaf(blk, &r, 1);
	ck_assert_uint_eq(load_be64(blk + 56 + 8), XFS_RMAP_OWN_INODES);
	ck_assert_uint_eq(build_alloc_maxrecs(4096), 505);
	ck_assert_uint_eq(build_rmap_maxrecs(4096), 168);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("build");
	TCase *tc = tcase_create("builders");

	tcase_add_test(tc, ag_static_layouts);
	tcase_add_test(tc, agfl_slots_and_wrap);
	tcase_add_test(tc, sf_dir_parent_width);
	tcase_add_test(tc, dinode_times);
	tcase_add_test(tc, leaves_in_disk_order);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
