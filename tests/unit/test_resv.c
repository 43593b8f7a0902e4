/*
 * The log reservation model of libfs/resv.c against figures the
 * reference mkfs.xfs 6.1 prints: the minimum log (the size it gives a
 * tiny filesystem) for 4 x 16 MiB AGs under each feature combination,
 * block size, log stripe unit and directory block size that moves it;
 * the btree heights behind them; and the free-list length of a fresh AG
 * (flcount of the reference's AG 0).
 */
#include "config.h"
#include <stdlib.h>
#include "resv.h"
#include "unit.h"

/* 4 AGs of 16 MiB, 512-byte inodes with sparse chunks, no stripes. */
static struct resv_geom small(uint32_t bs)
{
	uint32_t agblocks = (16u << 20) / bs;
	unsigned agblklog = 0;

	while ((1u << agblklog) < agblocks)
		agblklog++;
	return (struct resv_geom){
		.blocksize = bs, .sectsize = 512, .inodesize = 512,
		.agblocks = agblocks, .agblklog = agblklog,
		.dirblocksize = bs, .inoalignmt = 64 * 512 / bs,
		.logsunit = 1, .finobt = true, .rmapbt = false,
		.reflink = true, .nrext64 = false,
	};
}

START_TEST(min_log_by_feature)
{
	struct resv_geom g = small(4096);

	/* the reference's defaults (reflink, no rmapbt) */
	ck_assert_uint_eq(resv_min_log_blocks(&g), 1368);
	g.rmapbt = true;			/* ours */
	ck_assert_uint_eq(resv_min_log_blocks(&g), 3075);
	g.reflink = false;
	ck_assert_uint_eq(resv_min_log_blocks(&g), 878);
	g.rmapbt = false;
	ck_assert_uint_eq(resv_min_log_blocks(&g), 857);
	g.finobt = false;
	ck_assert_uint_eq(resv_min_log_blocks(&g), 857);
}
END_TEST

START_TEST(min_log_by_geometry)
{
	struct resv_geom g = small(1024);

	g.rmapbt = true;
	ck_assert_uint_eq(resv_min_log_blocks(&g), 5363);
	g = small(4096);
	g.rmapbt = true;
	g.logsunit = 32768;			/* -l su=32k */
	ck_assert_uint_eq(resv_min_log_blocks(&g), 3120);
	g = small(4096);
	g.dirblocksize = 65536;			/* -n size=64k */
	ck_assert_uint_eq(resv_min_log_blocks(&g), 2174);
	/* large extent counts leave the reflink+rmap figure alone */
	g = small(4096);
	g.rmapbt = g.nrext64 = true;
	ck_assert_uint_eq(resv_min_log_blocks(&g), 3075);
}
END_TEST

START_TEST(levels_and_freelist)
{
	struct resv_geom g = small(4096);
	struct resv_levels lv;

	g.rmapbt = true;
	resv_levels(&g, &lv);
	ck_assert_uint_eq(lv.alloc, 2);
	ck_assert_uint_eq(lv.refc, 2);
	ck_assert_uint_eq(lv.bmap_data, 5);
	ck_assert_uint_eq(resv_min_freelist(&g), 6);
	g.rmapbt = false;
	ck_assert_uint_eq(resv_min_freelist(&g), 4);
	/*
	 * 64 KiB blocks: AGs of 2400 blocks (600 MiB) keep one-level free
	 * space trees and a 4-block free list; AGs of 8192 blocks (2 GiB)
	 * need two levels and 6 blocks, as the reference fills them.
	 */
	g = small(65536);
	g.rmapbt = true;
	g.agblocks = 2400;
	g.agblklog = 12;
	resv_levels(&g, &lv);
	ck_assert_uint_eq(lv.alloc, 1);
	ck_assert_uint_eq(lv.rmap, 2);
	ck_assert_uint_eq(resv_min_freelist(&g), 4);
	g.agblocks = 8192;
	g.agblklog = 13;
	ck_assert_uint_eq(resv_min_freelist(&g), 6);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("resv");
	TCase *tc = tcase_create("reservations");

	tcase_add_test(tc, min_log_by_feature);
	tcase_add_test(tc, min_log_by_geometry);
	tcase_add_test(tc, levels_and_freelist);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
