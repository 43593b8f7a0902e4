/*
 * libfs/attr_write.c on its own: the fork offsets the kernel gives (the
 * cases xfs_db's attr_set was compared on with the reference), a leaf
 * built through a sequence of adds and removes equal, header and entry
 * table, to the block the reference xfs_db made from the same sequence
 * (including a compaction), a full leaf split as the reference split
 * it and joined back, and remote value blocks our own checker finds
 * sound.
 */
#include "config.h"
#include "unit.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "attr.h"
#include "attr_write.h"
#include "format/endian.h"

#define INO	135ull
#define DADDR	6520ull
#define DI_OFF(m)	offsetof(struct xfs_dinode, m)

static struct fs_geom geo(uint32_t bs, uint32_t isize)
{
	struct fs_geom g;

	memset(&g, 0, sizeof(g));
	g.blocksize = bs;
	for (g.blocklog = 0; (1u << g.blocklog) < bs; g.blocklog++)
		;
	g.inodesize = isize;
	for (int i = 0; i < 16; i++)
		g.meta_uuid.b[i] = (uint8_t)(0x30 + i);
	return g;
}

static void mkinode(uint8_t *di, uint8_t format, uint64_t size,
		    uint32_t nextents, uint8_t forkoff)
{
	memset(di, 0, 2048);
	di[DI_OFF(di_format)] = format;
	store_be64(di + DI_OFF(di_size), size);
	store_be32(di + DI_OFF(u76.small.di_nextents), nextents);
	di[DI_OFF(di_forkoff)] = forkoff;
}

START_TEST(test_bytesfit)
{
	struct fs_geom g = geo(4096, 512), b = geo(4096, 2048);
	uint8_t di[2048];
	bool relayout;

	/* no fork: as small as the bytes allow, down to a 2-record root */
	mkinode(di, XFS_DINODE_FMT_LOCAL, 6, 0, 0);
	ck_assert_uint_eq(attr_sf_bytesfit(&g, di, 12), 37);
	ck_assert_uint_eq(attr_sf_bytesfit(&b, di, 12), 229);
	/* a 600-byte value sizes the new fork by its low 8 bits: 98 bytes */
	mkinode(di, XFS_DINODE_FMT_LOCAL, 206, 0, 0);
	ck_assert_uint_eq(attr_sf_bytesfit(&g, di, 98), 29);
	ck_assert_uint_eq(attr_sf_bytesfit(&b, di, 98), 221);
	/* too big for short form: 0, and the default offset */
	mkinode(di, XFS_DINODE_FMT_EXTENTS, 0, 1, 0);
	ck_assert_uint_eq(attr_sf_bytesfit(&g, di, 3010), 0);
	ck_assert_uint_eq(attr_default_forkoff(&g, di), 24);
	/* an existing fork keeps its offset while the bytes fit it ... */
	mkinode(di, XFS_DINODE_FMT_LOCAL, 6, 0, 24);
	ck_assert_uint_eq(attr_sf_bytesfit(&g, di, 109), 24);
	/* ... and grows down toward the data fork when they do not */
	ck_assert_uint_eq(attr_sf_bytesfit(&g, di, 214), 15);
	ck_assert_uint_eq(attr_sf_bytesfit(&g, di, 274), 7);
	ck_assert_uint_eq(attr_sf_bytesfit(&g, di, 300), 0);
	/* a device inode: 8 bytes in, always */
	mkinode(di, XFS_DINODE_FMT_DEV, 0, 0, 0);
	ck_assert_uint_eq(attr_sf_bytesfit(&g, di, 40), 1);
	/* a long inline symlink does not fit under the offset given */
	mkinode(di, XFS_DINODE_FMT_LOCAL, 312, 0, 0);
	ck_assert_uint_eq(attr_sf_bytesfit(&g, di, 12), 37);
	ck_assert(!attr_dfork_fits(&g, di, 37, &relayout));
}
END_TEST

static void add(const struct fs_geom *g, uint8_t *blk, unsigned ns,
		const char *name, uint32_t vlen)
{
	unsigned idx;

	ck_assert(!attr_leaf_lookup(g, blk, ns, (const uint8_t *)name,
				    strlen(name), &idx));
	ck_assert_int_eq(attr_leaf_add(g, blk, idx, ns, (const uint8_t *)name,
				       strlen(name), NULL, vlen), 0);
}

static void del(const struct fs_geom *g, uint8_t *blk, const char *name)
{
	unsigned idx;

	ck_assert(attr_leaf_lookup(g, blk, 0, (const uint8_t *)name,
				   strlen(name), &idx));
	attr_leaf_remove(g, blk, idx);
}

/*
 * The reference's leaf after: short form "one" (1 byte), trusted "two"
 * (2 bytes) turned into a leaf by "big" (300), a1..a20 (150), then
 * removes of a3 a7 a10 big, b1 (100), b2 (400), b3 (200), remove a1, b4
 * (500) — b4 only fits after a compaction.
 */
static const struct { uint32_t hash; uint16_t nameidx; } ref_ents[] = {
	{ 0x30b2, 3940 }, { 0x30b4, 3784 }, { 0x30b5, 3628 },
	{ 0x30b6, 3472 }, { 0x30b8, 3316 }, { 0x30b9, 3160 },
	{ 0x3131, 3052 }, { 0x3132, 2644 }, { 0x3133, 2436 },
	{ 0x3134, 352 }, { 0x1858b1, 2280 }, { 0x1858b2, 2124 },
	{ 0x1858b3, 1968 }, { 0x1858b4, 1812 }, { 0x1858b5, 1656 },
	{ 0x1858b6, 1500 }, { 0x1858b7, 1344 }, { 0x1858b8, 1188 },
	{ 0x1858b9, 1032 }, { 0x185930, 876 }, { 0x1bf765, 868 },
	{ 0x1d3bef, 860 },
};

START_TEST(test_leaf_as_reference)
{
	struct fs_geom g = geo(4096, 512);
	uint8_t *blk = malloc(g.blocksize);
	struct attr_leaf_hdr h;
	struct attr_leaf_info info;
	struct fs_findings fl;
	char name[8];
	unsigned i;

	ck_assert_ptr_nonnull(blk);
	attr_leaf_init(&g, blk, INO, DADDR);
	add(&g, blk, 0, "one", 1);
	add(&g, blk, XFS_ATTR_ROOT, "two", 2);
	add(&g, blk, 0, "big", 300);
	for (i = 1; i <= 20; i++) {
		snprintf(name, sizeof(name), "a%u", i);
		add(&g, blk, 0, name, 150);
	}
	del(&g, blk, "a3");
	del(&g, blk, "a7");
	del(&g, blk, "a10");
	del(&g, blk, "big");
	add(&g, blk, 0, "b1", 100);
	add(&g, blk, 0, "b2", 400);
	add(&g, blk, 0, "b3", 200);
	del(&g, blk, "a1");
	add(&g, blk, 0, "b4", 500);

	attr_leaf_hdr_get(&g, blk, &h);
	ck_assert_uint_eq(h.count, 22);
	ck_assert_uint_eq(h.usedbytes, 3744);
	ck_assert_uint_eq(h.firstused, 352);
	ck_assert_uint_eq(h.holes, 0);
	ck_assert_uint_eq(h.freemap[0].base, 256);
	ck_assert_uint_eq(h.freemap[0].size, 96);
	ck_assert_uint_eq(h.freemap[1].base + h.freemap[1].size +
			  h.freemap[2].base + h.freemap[2].size, 0);
	for (i = 0; i < 22; i++) {
		const uint8_t *e = blk + sizeof(struct xfs_attr3_leaf_hdr) + i * 8;

		ck_assert_uint_eq(load_be32(e), ref_ents[i].hash);
		ck_assert_uint_eq(load_be16(e + 4), ref_ents[i].nameidx);
		ck_assert_uint_eq(e[6] & XFS_ATTR_LOCAL, XFS_ATTR_LOCAL);
	}
	/* values of 400 and 500 bytes cannot go back to short form */
	ck_assert_uint_eq(attr_leaf_sf_bytes(&g, blk), 0);
	attr_leaf_crc(&g, blk);
	findings_init(&fl);
	attr_leaf_check(&g, INO, 0, DADDR, blk, NULL, NULL, &fl, &info);
	ck_assert_uint_eq(info.nerr, 0);
	findings_free(&fl);
	free(blk);
}
END_TEST

START_TEST(test_leaf_remote_and_back)
{
	struct fs_geom g = geo(1024, 512);
	uint8_t *blk = malloc(g.blocksize);
	struct attr_leaf_info info;
	struct fs_findings fl;
	unsigned idx, i;
	bool local;

	ck_assert_ptr_nonnull(blk);
	/* 3/4 of the block is where values stop being local */
	ck_assert_uint_eq(attr_leaf_newentsize(&g, 3, 600, &local), 608);
	ck_assert(local);
	ck_assert_uint_eq(attr_leaf_newentsize(&g, 3, 9000, &local), 16);
	ck_assert(!local);
	attr_leaf_init(&g, blk, INO, DADDR);
	add(&g, blk, 0, "x", 30);
	ck_assert(!attr_leaf_lookup(&g, blk, 0, (const uint8_t *)"rem", 3, &idx));
	ck_assert_int_eq(attr_leaf_add(&g, blk, idx, 0, (const uint8_t *)"rem",
				       3, NULL, 9000), 0);
	ck_assert_uint_eq(blk[sizeof(struct xfs_attr3_leaf_hdr) + idx * 8 + 6],
			  XFS_ATTR_INCOMPLETE);
	/* an incomplete entry is not found */
	ck_assert(!attr_leaf_lookup(&g, blk, 0, (const uint8_t *)"rem", 3, &i));
	attr_leaf_set_remote(blk, idx, 1, 9000);
	ck_assert(attr_leaf_lookup(&g, blk, 0, (const uint8_t *)"rem", 3, &idx));
	ck_assert_uint_eq(attr_leaf_sf_bytes(&g, blk), 0);
	attr_leaf_crc(&g, blk);
	findings_init(&fl);
	attr_leaf_check(&g, INO, 0, DADDR, blk, NULL, NULL, &fl, &info);
	ck_assert_uint_eq(info.nerr, 0);
	findings_free(&fl);
	/* without the remote entry, everything fits short form again */
	attr_leaf_remove(&g, blk, idx);
	ck_assert_uint_eq(attr_leaf_sf_bytes(&g, blk),
			  sizeof(struct xfs_attr_sf_hdr) + XFS_ATTR_SF_ENTSIZE(1, 30));
	free(blk);
}
END_TEST

START_TEST(test_rmt_blocks)
{
	struct fs_geom g = geo(4096, 512);
	uint8_t *blk = malloc(g.blocksize);
	uint32_t space = attr_rmt_space(&g), b, n = attr_rmt_blocks(&g, 9000);
	struct fs_findings fl;

	ck_assert_ptr_nonnull(blk);
	ck_assert_uint_eq(n, 3);
	for (b = 0; b < n; b++) {
		uint32_t off = b * space;
		uint32_t bytes = 9000 - off < space ? 9000 - off : space;

		attr_rmt_build(&g, blk, INO, DADDR + b * 8, b, 9000, NULL, 'v');
		findings_init(&fl);
		ck_assert_uint_eq(attr_rmt_check(&g, INO, 1 + b, DADDR + b * 8, blk,
						 off, bytes, &fl), 0);
		findings_free(&fl);
		ck_assert_uint_eq(blk[sizeof(struct xfs_attr3_rmt_hdr)], 'v');
		ck_assert_uint_eq(blk[sizeof(struct xfs_attr3_rmt_hdr) + bytes - 1],
				  'v');
		if (bytes < space)
			ck_assert_uint_eq(blk[sizeof(struct xfs_attr3_rmt_hdr) +
					      bytes], 0);
	}
	free(blk);
}
END_TEST

/*
 * The reference's 30 adds that fill a leaf: it splits once, the later
 * adds go to the leaf the node points them to, and the two leaves are the
 * reference's; joined again they give every entry back.
 */
START_TEST(test_split_join)
{
	struct fs_geom g = geo(4096, 512);
	uint8_t *a = malloc(g.blocksize), *b = malloc(g.blocksize);
	struct attr_leaf_hdr ha, hb;
	struct attr_leaf_info info;
	struct fs_findings fl;
	char name[8];
	unsigned i, idx, nidx;
	bool local, in_old, split = false;

	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	attr_leaf_init(&g, a, INO, DADDR);
	add(&g, a, 0, "one", 1);
	add(&g, a, XFS_ATTR_ROOT, "two", 2);
	add(&g, a, 0, "big", 300);
	for (i = 1; i <= 30; i++) {
		uint8_t *l = a;

		snprintf(name, sizeof(name), "a%u", i);
		if (split) {
			/* under the node: the first leaf whose last hash is not lower */
			l = da_hashname((const uint8_t *)name, strlen(name)) <=
			    attr_leaf_lasthash(&g, a) ? a : b;
		}
		ck_assert(!attr_leaf_lookup(&g, l, 0, (const uint8_t *)name,
					    strlen(name), &idx));
		if (!attr_leaf_add(&g, l, idx, 0, (const uint8_t *)name,
				   strlen(name), NULL, 150))
			continue;
		/* full: split once, as the reference did */
		ck_assert(!split);
		split = true;
		attr_leaf_init(&g, b, INO, DADDR + 8);
		attr_leaf_split(&g, a, b, idx,
				attr_leaf_newentsize(&g, strlen(name), 150, &local),
				&in_old, &nidx);
		ck_assert_int_eq(attr_leaf_add(&g, in_old ? a : b, nidx, 0,
					       (const uint8_t *)name,
					       strlen(name), NULL, 150), 0);
	}
	ck_assert(split);
	attr_leaf_hdr_get(&g, a, &ha);
	attr_leaf_hdr_get(&g, b, &hb);
	/* the reference's two leaves: 13 and 20 entries, 2028 and 2976 bytes */
	ck_assert_uint_eq(ha.count, 13);
	ck_assert_uint_eq(ha.usedbytes, 2028);
	ck_assert_uint_eq(ha.firstused, 340);
	ck_assert_uint_eq(ha.holes, 1);
	ck_assert_uint_eq(hb.count, 20);
	ck_assert_uint_eq(hb.usedbytes, 2976);
	ck_assert_uint_eq(hb.firstused, 1120);
	ck_assert_uint_eq(hb.freemap[0].base, 240);
	ck_assert_uint_eq(hb.freemap[0].size, 880);
	ck_assert_uint_le(attr_leaf_lasthash(&g, a), load_be32(b +
			  sizeof(struct xfs_attr3_leaf_hdr)));
	for (i = 0; i < 2; i++) {
		attr_leaf_crc(&g, i ? b : a);
		findings_init(&fl);
		attr_leaf_check(&g, INO, 0, i ? DADDR + 8 : DADDR, i ? b : a,
				NULL, NULL, &fl, &info);
		ck_assert_uint_eq(info.nerr, 0);
		findings_free(&fl);
	}
	/* too much for one block: refused, nothing moved */
	ck_assert_int_eq(attr_leaf_join(&g, a, b), -ENOSPC);
	attr_leaf_hdr_get(&g, b, &hb);
	ck_assert_uint_eq(hb.count, 20);
	/* with every other aN gone, joined: the rest in one leaf, in order */
	for (i = 2; i <= 30; i += 2) {
		snprintf(name, sizeof(name), "a%u", i);
		if (attr_leaf_lookup(&g, a, 0, (const uint8_t *)name,
				     strlen(name), &idx))
			attr_leaf_remove(&g, a, idx);
		else
			del(&g, b, name);
	}
	ck_assert_int_eq(attr_leaf_join(&g, a, b), 0);
	attr_leaf_hdr_get(&g, a, &ha);
	ck_assert_uint_eq(ha.count, 18);
	ck_assert_uint_eq(ha.holes, 0);	/* rebuilt: a had holes */
	for (i = 1; i < ha.count; i++)
		ck_assert_uint_le(load_be32(a + sizeof(struct xfs_attr3_leaf_hdr) +
					    (i - 1) * 8),
				  load_be32(a + sizeof(struct xfs_attr3_leaf_hdr) +
					    i * 8));
	attr_leaf_crc(&g, a);
	findings_init(&fl);
	attr_leaf_check(&g, INO, 0, DADDR, a, NULL, NULL, &fl, &info);
	ck_assert_uint_eq(info.nerr, 0);
	findings_free(&fl);
	free(a);
	free(b);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("attr_write");
	TCase *tc = tcase_create("attr_write");

	tcase_add_test(tc, test_bytesfit);
	tcase_add_test(tc, test_leaf_as_reference);
	tcase_add_test(tc, test_leaf_remote_and_back);
	tcase_add_test(tc, test_rmt_blocks);
	tcase_add_test(tc, test_split_join);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
