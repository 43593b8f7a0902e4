/*
 * Geometry arithmetic at the edges: the last block of the last (short) AG,
 * AG sizes that are not powers of two, 1 KiB and 64 KiB blocks, inodes of
 * 512 to 2048 bytes, and the validity checks on numbers read from disk.
 */
#include "config.h"
#include "unit.h"
#include <stdlib.h>
#include "geom.h"

static unsigned ilog2_up(uint64_t v)
{
	unsigned l = 0;

	while ((1ull << l) < v)
		l++;
	return l;
}

static void make_sb(struct fs_sb *sb, uint32_t blocksize, uint32_t inodesize,
		    uint32_t agblocks, uint32_t agcount, uint64_t dblocks)
{
	memset(sb, 0, sizeof(*sb));
	sb->magicnum = XFS_SB_MAGIC;
	sb->versionnum = 0xb4a5;
	sb->blocksize = blocksize;
	sb->blocklog = ilog2_up(blocksize);
	sb->sectsize = 512;
	sb->sectlog = 9;
	sb->inodesize = inodesize;
	sb->inodelog = ilog2_up(inodesize);
	sb->inopblock = blocksize / inodesize;
	sb->inopblog = ilog2_up(sb->inopblock);
	sb->agblocks = agblocks;
	sb->agblklog = ilog2_up(agblocks);
	sb->agcount = agcount;
	sb->dblocks = dblocks;
	sb->inoalignmt = (64 * inodesize) >> sb->blocklog;
	if (!sb->inoalignmt)
		sb->inoalignmt = 1;
}

/* Every (agno, agbno) -> fsb -> daddr -> fsb chain returns where it began. */
static void check_roundtrip(const struct fs_geom *g, xfs_agnumber_t agno,
			    xfs_agblock_t agbno)
{
	xfs_fsblock_t fsb = agb_to_fsb(g, agno, agbno);
	xfs_daddr_t d = fsb_to_daddr(g, fsb);

	ck_assert_uint_eq(fsb_to_agno(g, fsb), agno);
	ck_assert_uint_eq(fsb_to_agbno(g, fsb), agbno);
	ck_assert_uint_eq(d, ((uint64_t)agno * g->agblocks + agbno) *
			     (g->blocksize / 512));
	ck_assert_uint_eq(daddr_to_fsb(g, d), fsb);
	ck_assert_uint_eq(linear_to_fsb(g, fsb_to_linear(g, fsb)), fsb);
}

START_TEST(odd_ag_last_block)
{
	struct fs_sb sb;
	struct fs_geom g;
	/* 1000-block AGs (agblklog 10), last AG 437 blocks */
	make_sb(&sb, 4096, 512, 1000, 5, 4 * 1000 + 437);
	geom_init(&g, &sb);
	ck_assert_uint_eq(g.agblklog, 10);
	ck_assert_uint_eq(g.last_ag_blocks, 437);
	ck_assert_uint_eq(geom_ag_blocks(&g, 4), 437);
	ck_assert_uint_eq(geom_ag_blocks(&g, 3), 1000);
	check_roundtrip(&g, 0, 0);
	check_roundtrip(&g, 3, 999);
	check_roundtrip(&g, 4, 436);
	/* sparse fsblock numbering: AG 1 starts at 1024, not 1000 */
	ck_assert_uint_eq(agb_to_fsb(&g, 1, 0), 1024);
	ck_assert(fsb_valid(&g, agb_to_fsb(&g, 4, 436)));
	ck_assert(!fsb_valid(&g, agb_to_fsb(&g, 4, 437)));
	ck_assert(!fsb_valid(&g, agb_to_fsb(&g, 3, 1000)));
	ck_assert(!fsb_valid(&g, agb_to_fsb(&g, 5, 0)));
	ck_assert(fsb_extent_valid(&g, agb_to_fsb(&g, 4, 400), 37));
	ck_assert(!fsb_extent_valid(&g, agb_to_fsb(&g, 4, 400), 38));
	ck_assert(!fsb_extent_valid(&g, agb_to_fsb(&g, 4, 400), 0));
}
END_TEST

START_TEST(block_and_inode_sizes)
{
	static const uint32_t bs[] = { 1024, 4096, 65536 };
	static const uint32_t is[] = { 512, 1024, 2048 };

	for (int b = 0; b < 3; b++)
		for (int i = 0; i < 3; i++) {
			struct fs_sb sb;
			struct fs_geom g;
			uint32_t agb = 16411;	/* prime */
			xfs_agino_t agino;
			xfs_ino_t ino;

			if (is[i] > bs[b])
				continue;
			make_sb(&sb, bs[b], is[i], agb, 3, 2ull * agb + 100);
			geom_init(&g, &sb);
			ck_assert_uint_eq(g.inopblock, bs[b] / is[i]);
			ck_assert_uint_eq(g.agino_log, g.agblklog + g.inopblog);
			check_roundtrip(&g, 2, 99);
			check_roundtrip(&g, 1, agb - 1);
			/* last inode of the last block of the last AG */
			agino = agb_to_agino(&g, 99) + g.inopblock - 1;
			ino = agino_to_ino(&g, 2, agino);
			ck_assert_uint_eq(ino_to_agno(&g, ino), 2);
			ck_assert_uint_eq(ino_to_agino(&g, ino), agino);
			ck_assert_uint_eq(ino_to_agbno(&g, ino), 99);
			ck_assert_uint_eq(ino_to_offset(&g, ino), g.inopblock - 1);
			ck_assert_uint_eq(ino_to_boffset(&g, ino),
					  (g.inopblock - 1) * is[i]);
			ck_assert_uint_eq(ino_to_daddr(&g, ino),
					  agb_to_daddr(&g, 2, 99));
			ck_assert(ino_valid(&g, ino));
			ck_assert(!ino_valid(&g, agino_to_ino(&g, 2,
					     agb_to_agino(&g, 100))));
			ck_assert(!ino_valid(&g, agino_to_ino(&g, 3, 64)));
			ck_assert(!ino_valid(&g, 0));	/* block 0 holds the sb */
			ck_assert(ino_valid(&g, agino_to_ino(&g, 1,
					    agb_to_agino(&g, agb - 1))));
		}
}
END_TEST

START_TEST(inode_clusters)
{
	struct fs_sb sb;
	struct fs_geom g;

	/* v5, 512-byte inodes, 4k blocks: 16 KiB clusters of 32 inodes */
	make_sb(&sb, 4096, 512, 65536, 4, 262144);
	geom_init(&g, &sb);
	ck_assert_uint_eq(g.chunk_blocks, 8);
	ck_assert_uint_eq(g.blocks_per_cluster, 4);
	ck_assert_uint_eq(g.inodes_per_cluster, 32);
	/* 64 KiB blocks: a chunk is half a block, a cluster one block */
	make_sb(&sb, 65536, 512, 4096, 4, 16384);
	geom_init(&g, &sb);
	ck_assert_uint_eq(g.chunk_blocks, 1);
	ck_assert_uint_eq(g.blocks_per_cluster, 1);
	ck_assert_uint_eq(g.inodes_per_cluster, 128);
	/* 1 KiB blocks, 2048-byte inodes: 64 KiB clusters */
	make_sb(&sb, 1024, 1024, 65536, 4, 262144);
	geom_init(&g, &sb);
	ck_assert_uint_eq(g.chunk_blocks, 64);
	ck_assert_uint_eq(g.blocks_per_cluster, 32);
}
END_TEST

START_TEST(one_ag)
{
	struct fs_sb sb;
	struct fs_geom g;

	make_sb(&sb, 4096, 512, 76800, 1, 76800);
	geom_init(&g, &sb);
	ck_assert_uint_eq(g.last_ag_blocks, 76800);
	check_roundtrip(&g, 0, 76799);
	ck_assert(!fsb_valid(&g, 76800));
	ck_assert(fsb_valid(&g, 76799));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("geom");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, odd_ag_last_block);
	tcase_add_test(tc, block_and_inode_sizes);
	tcase_add_test(tc, inode_clusters);
	tcase_add_test(tc, one_ag);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
