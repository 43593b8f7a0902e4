/*
 * The directory block layer and dabtree node checks on synthetic blocks:
 * a well-formed block of each type gives no finding and the right
 * entries, and each single damage gives its own problem code.  Block
 * sizes 1 KiB (fs blocks) x4, 4 KiB and 64 KiB; ftype on and off.  Then
 * blocks of every form dumped from reference-made filesystems
 * (tests/data/dir, made by make-fixtures.sh) must check clean.  A
 * fuzz loop mutates good blocks at random: the checks must never read
 * outside the block (run under ASan) whatever they find.
 */
#include "config.h"
#include "unit.h"
#include <stdlib.h>
#include "dabtree.h"
#include "dir.h"
#include "format/crc32c.h"
#include "format/inode.h"
#include "sb.h"

#define OWNER	131ull
#define DADDR	4242ull

static struct fs_geom G;

static void geo_setup(uint32_t blocksize, unsigned dirblklog, bool ftype)
{
	struct fs_sb sb;
	unsigned bl = 0;

	while ((1u << bl) < blocksize)
		bl++;
	memset(&sb, 0, sizeof(sb));
	sb.magicnum = XFS_SB_MAGIC;
	sb.versionnum = 0xb4a5;
	sb.blocksize = blocksize;
	sb.blocklog = bl;
	sb.sectsize = 512;
	sb.sectlog = 9;
	sb.inodesize = 512;
	sb.inodelog = 9;
	sb.inopblock = blocksize / 512;
	sb.inopblog = bl - 9;
	sb.agblocks = 16384;
	sb.agblklog = 14;
	sb.agcount = 4;
	sb.dblocks = 4 * 16384;
	sb.dirblklog = dirblklog;
	sb.features_incompat = ftype ? XFS_SB_FEAT_INCOMPAT_FTYPE : 0;
	for (unsigned i = 0; i < 16; i++)
		sb.uuid.b[i] = (uint8_t)(0x11 * i + 3);
	geom_init(&G, &sb);
}

static void geo_default(void)
{
	geo_setup(4096, 0, true);
}

/* ---- a builder of data and block-form blocks ---- */

struct tent {
	uint32_t	off;
	xfs_dahash_t	hash;
};

struct tblk {
	uint8_t		*d;
	uint32_t	len;
	uint32_t	p;		/* next free byte of the entry region */
	bool		block;
	xfs_dablk_t	dablk;
	struct tent	ents[4096];
	unsigned	n;
	unsigned	nleaf_extra;	/* extra stale leaf entries */
};

static struct tblk TB;

static void tb_init(struct tblk *t, bool block, xfs_dablk_t dablk)
{
	struct xfs_dir3_blk_hdr *h;

	free(t->d);
	memset(t, 0, sizeof(*t));
	t->len = G.dirblksize;
	t->d = calloc(1, t->len);
	t->block = block;
	t->dablk = dablk;
	t->p = sizeof(struct xfs_dir3_data_hdr);
	h = (void *)t->d;
	put_be32(&h->magic, block ? XFS_DIR3_BLOCK_MAGIC : XFS_DIR3_DATA_MAGIC);
	put_be64(&h->blkno, DADDR);
	put_be64(&h->owner, OWNER);
	h->uuid = G.meta_uuid;
}

static uint32_t tb_ent(struct tblk *t, const char *name, unsigned namelen,
		       xfs_ino_t ino, unsigned ftype)
{
	uint32_t off = t->p;
	unsigned es = dir2_data_entsize(G.has_ftype, namelen);

	store_be64(t->d + off, ino);
	t->d[off + 8] = (uint8_t)namelen;
	memcpy(t->d + off + 9, name, namelen);
	if (G.has_ftype)
		t->d[off + 9 + namelen] = (uint8_t)ftype;
	store_be16(t->d + off + es - 2, (uint16_t)off);
	t->ents[t->n].off = off;
	t->ents[t->n].hash = da_hashname((const uint8_t *)name, namelen);
	t->n++;
	t->p += es;
	return off;
}

static uint32_t tb_name(struct tblk *t, const char *name, xfs_ino_t ino)
{
	return tb_ent(t, name, (unsigned)strlen(name), ino, XFS_DIR3_FT_REG_FILE);
}

static void tb_free(struct tblk *t, uint32_t len)
{
	store_be16(t->d + t->p, XFS_DIR2_DATA_FREE_TAG);
	store_be16(t->d + t->p + 2, (uint16_t)len);
	store_be16(t->d + t->p + len - 2, (uint16_t)t->p);
	t->p += len;
}

static void tb_dots(struct tblk *t)
{
	tb_ent(t, ".", 1, OWNER, XFS_DIR3_FT_DIR);
	tb_ent(t, "..", 2, 128, XFS_DIR3_FT_DIR);
}

static int cmp_tent(const void *a, const void *b)
{
	const struct tent *x = a, *y = b;

	return x->hash < y->hash ? -1 : x->hash > y->hash;
}

static void tb_crc(struct tblk *t)
{
	xfs_cksum_update(t->d, t->len, XFS_DIR3_DATA_CRC_OFF);
}

/* Free space to the end, bestfree, leaf array and tail, CRC. */
static void tb_finish(struct tblk *t)
{
	struct xfs_dir3_data_hdr *h = (void *)t->d;
	uint32_t end = t->len;
	struct { uint16_t off, len; } fr[3] = { { 0, 0 } };
	uint32_t p;

	if (t->block)
		end -= sizeof(struct xfs_dir2_block_tail) +
		       (t->n + t->nleaf_extra) * sizeof(struct xfs_dir2_leaf_entry);
	if (t->p < end)
		tb_free(t, end - t->p);
	/* bestfree from the free regions actually there */
	for (p = sizeof(*h); p < end;) {
		if (load_be16(t->d + p) == XFS_DIR2_DATA_FREE_TAG) {
			uint16_t l = load_be16(t->d + p + 2);

			for (unsigned i = 0; i < 3; i++) {
				if (l > fr[i].len) {
					for (unsigned j = 2; j > i; j--)
						fr[j] = fr[j - 1];
					fr[i].off = (uint16_t)p;
					fr[i].len = l;
					break;
				}
			}
			p += l;
		} else {
			p += dir2_data_entsize(G.has_ftype, t->d[p + 8]);
		}
	}
	for (unsigned i = 0; i < 3; i++) {
		put_be16(&h->best_free[i].offset, fr[i].off);
		put_be16(&h->best_free[i].length, fr[i].len);
	}
	if (t->block) {
		struct xfs_dir2_leaf_entry *le = (void *)(t->d + end);
		struct tent *s = malloc((t->n + t->nleaf_extra) * sizeof(*s));
		unsigned n = 0;

		for (unsigned i = 0; i < t->n; i++)
			s[n++] = t->ents[i];
		for (unsigned i = 0; i < t->nleaf_extra; i++)
			s[n++] = (struct tent){ 0, 0x7fffffff };
		qsort(s, n, sizeof(*s), cmp_tent);
		for (unsigned i = 0; i < n; i++) {
			put_be32(&le[i].hashval, s[i].hash);
			put_be32(&le[i].address, s[i].off / 8);
		}
		store_be32(t->d + t->len - 8, n);
		store_be32(t->d + t->len - 4, t->nleaf_extra);
		free(s);
	}
	tb_crc(t);
}

static struct dir_blk tb_blk(const struct tblk *t)
{
	return (struct dir_blk){ .g = &G, .ino = OWNER, .dablk = t->dablk,
				 .daddr = DADDR, .data = t->d };
}

/* ---- collecting what the checks say ---- */

static struct fs_findings FL;

struct seen {
	char		names[64][256];
	xfs_ino_t	inos[64];
	unsigned	ftypes[64];
	unsigned	n;
};

static struct seen SEEN;

static int seen_dent(void *priv, const struct dir_blk *b,
		     const struct dir_dent *e)
{
	struct seen *s = priv;

	(void)b;
	if (e->usable && s->n < 64) {
		memcpy(s->names[s->n], e->name, e->namelen);
		s->names[s->n][e->namelen] = 0;
		s->inos[s->n] = e->ino;
		s->ftypes[s->n] = e->ftype;
		s->n++;
	}
	return 0;
}

static int seen_iter(void *priv, const uint8_t *name, unsigned namelen,
		     xfs_ino_t ino, unsigned ftype)
{
	struct seen *s = priv;

	if (s->n < 64) {
		memcpy(s->names[s->n], name, namelen);
		s->names[s->n][namelen] = 0;
		s->inos[s->n] = ino;
		s->ftypes[s->n] = ftype;
		s->n++;
	}
	return 0;
}

static void reset(void)
{
	findings_clear(&FL);
	memset(&SEEN, 0, sizeof(SEEN));
}

static unsigned check_block(void)
{
	struct dir_blk b = tb_blk(&TB);
	struct dir_data_info info;

	reset();
	ck_assert_int_eq(dir3_block_check(&b, seen_dent, &SEEN, &FL, &info), 0);
	return info.nerr;
}

static unsigned check_data(void)
{
	struct dir_blk b = tb_blk(&TB);
	struct dir_data_info info;

	reset();
	ck_assert_int_eq(dir3_data_check(&b, false, seen_dent, &SEEN, &FL,
					 &info), 0);
	return info.nerr;
}

static void dump_findings(void)
{
	char line[512];

	for (size_t i = 0; i < FL.n; i++) {
		finding_format(&FL.v[i], line, sizeof(line));
		fprintf(stderr, "  %s\n", line);
	}
}

#define ASSERT_CLEAN() do { \
		if (FL.n) \
			dump_findings(); \
		ck_assert_uint_eq(FL.n, 0); \
	} while (0)

#define ASSERT_HAS(code) do { \
		if (!findings_has(&FL, PR_##code)) \
			dump_findings(); \
		ck_assert_msg(findings_has(&FL, PR_##code), "expected " #code); \
	} while (0)

static void setup(void)
{
	geo_default();
	findings_init(&FL);
}

static void teardown(void)
{
	findings_free(&FL);
	free(TB.d);
	TB.d = NULL;
}

/* ---- hashes ---- */

START_TEST(hash_known_values)
{
	/* leaf entries of "." and ".." in directories.asciidoc */
	ck_assert_uint_eq(da_hashname((const uint8_t *)".", 1), 0x2e);
	ck_assert_uint_eq(da_hashname((const uint8_t *)"..", 2), 0x172e);
	ck_assert_uint_eq(dir_hashname(false, (const uint8_t *)"ABC", 3),
			  da_hashname((const uint8_t *)"ABC", 3));
	ck_assert_uint_eq(dir_hashname(true, (const uint8_t *)"ABC", 3),
			  da_hashname((const uint8_t *)"abc", 3));
	ck_assert(dir_names_match(true, (const uint8_t *)"aBc", 3,
				  (const uint8_t *)"AbC", 3));
	ck_assert(!dir_names_match(false, (const uint8_t *)"aBc", 3,
				   (const uint8_t *)"AbC", 3));
}
END_TEST

/* ---- block form ---- */

static void make_good_block(void)
{
	tb_init(&TB, true, 0);
	tb_dots(&TB);
	tb_name(&TB, "alpha", 132);
	tb_name(&TB, "beta", 133);
	tb_name(&TB, "a-much-longer-name-for-padding", 134);
	tb_finish(&TB);
}

START_TEST(block_good)
{
	make_good_block();
	ck_assert_uint_eq(check_block(), 0);
	ASSERT_CLEAN();
	ck_assert_uint_eq(SEEN.n, 5);
	ck_assert_str_eq(SEEN.names[0], ".");
	ck_assert_str_eq(SEEN.names[1], "..");
	ck_assert_str_eq(SEEN.names[2], "alpha");
	ck_assert_uint_eq(SEEN.inos[3], 133);
	ck_assert_uint_eq(SEEN.ftypes[1], XFS_DIR3_FT_DIR);
	ck_assert_uint_eq(SEEN.ftypes[4], XFS_DIR3_FT_REG_FILE);
}
END_TEST

START_TEST(block_bad_magic)
{
	make_good_block();
	store_be32(TB.d, XFS_DIR3_DATA_MAGIC);
	tb_crc(&TB);
	check_block();
	ASSERT_HAS(DIR_BAD_MAGIC);
	ck_assert_uint_eq(SEEN.n, 0);
}
END_TEST

START_TEST(block_bad_header)
{
	struct xfs_dir3_blk_hdr *h;

	make_good_block();
	TB.d[100] ^= 1;			/* CRC only */
	check_block();
	ASSERT_HAS(DIR_BAD_CRC);
	make_good_block();
	h = (void *)TB.d;
	put_be64(&h->blkno, DADDR + 8);
	put_be64(&h->owner, OWNER + 1);
	h->uuid.b[3] ^= 0xff;
	tb_crc(&TB);
	check_block();
	ASSERT_HAS(DIR_BAD_BLKNO);
	ASSERT_HAS(DIR_BAD_OWNER);
	ASSERT_HAS(DIR_BAD_UUID);
	ck_assert(!findings_has(&FL, PR_DIR_BAD_CRC));
}
END_TEST

START_TEST(block_entry_overrun)
{
	uint32_t off = 0;

	/* a full data block: the last name's length runs past its end */
	tb_init(&TB, false, 2);
	while (TB.p < TB.len)
		off = tb_name(&TB, "abcdef", 150);
	tb_finish(&TB);
	TB.d[off + 8] = 255;
	tb_crc(&TB);
	check_data();
	ASSERT_HAS(DIR_ENTRY_OVERRUN);

	/* in a block with room after it, the tag no longer matches */
	tb_init(&TB, true, 0);
	tb_dots(&TB);
	off = tb_name(&TB, "victim", 140);
	tb_finish(&TB);
	TB.d[off + 8] = 255;
	tb_crc(&TB);
	check_block();
	ASSERT_HAS(DIR_BAD_TAG);
	ck_assert_uint_lt(FL.n, 6);	/* no cascade through the free space */
}
END_TEST

START_TEST(block_bad_entry_fields)
{
	uint32_t off;

	make_good_block();
	/* inode number past the end of the filesystem */
	store_be64(TB.d + TB.ents[2].off, 4ull << (G.agino_log + 1));
	tb_crc(&TB);
	check_block();
	ASSERT_HAS(DIR_BAD_INO);
	ck_assert_uint_eq(SEEN.n, 4);	/* the bad one is not handed out */

	make_good_block();
	off = TB.ents[3].off;		/* "beta": tag */
	store_be16(TB.d + off + dir2_data_entsize(true, 4) - 2, 0x1230);
	tb_crc(&TB);
	check_block();
	ASSERT_HAS(DIR_BAD_TAG);

	make_good_block();
	TB.d[TB.ents[3].off + 9 + 1] = '/';
	tb_crc(&TB);
	check_block();
	ASSERT_HAS(DIR_BAD_NAME);
	ASSERT_HAS(DIR_LEAF_BAD_HASH);	/* the leaf has the old name's hash */

	make_good_block();
	TB.d[TB.ents[3].off + 9 + 4] = XFS_DIR3_FT_MAX;	/* ftype */
	tb_crc(&TB);
	check_block();
	ASSERT_HAS(DIR_BAD_FTYPE);
}
END_TEST

START_TEST(block_zero_namelen)
{
	tb_init(&TB, true, 0);
	tb_dots(&TB);
	tb_ent(&TB, "", 0, 140, 1);
	tb_finish(&TB);
	check_block();
	ASSERT_HAS(DIR_BAD_NAMELEN);
}
END_TEST

START_TEST(block_bad_bestfree)
{
	struct xfs_dir3_data_hdr *h;

	make_good_block();
	h = (void *)TB.d;
	put_be16(&h->best_free[0].length,
		 get_be16(h->best_free[0].length) - 8);
	tb_crc(&TB);
	check_block();
	ASSERT_HAS(DIR_BAD_BESTFREE);

	/* the right length, but pointing at an entry */
	make_good_block();
	h = (void *)TB.d;
	put_be16(&h->best_free[0].offset, (uint16_t)TB.ents[2].off);
	tb_crc(&TB);
	check_block();
	ASSERT_HAS(DIR_BAD_BESTFREE);

	/* a second free region the table leaves out */
	tb_init(&TB, true, 0);
	tb_dots(&TB);
	tb_free(&TB, 64);
	tb_name(&TB, "x", 140);
	tb_finish(&TB);
	ck_assert_uint_eq(check_block(), 0);
	h = (void *)TB.d;
	put_be16(&h->best_free[1].offset, 0);
	put_be16(&h->best_free[1].length, 0);
	tb_crc(&TB);
	check_block();
	ASSERT_HAS(DIR_BAD_BESTFREE);
}
END_TEST

START_TEST(block_bestfree_ties)
{
	struct xfs_dir3_data_hdr *h;
	uint32_t fr[4];

	/* four free regions of one length: any two of them will do */
	tb_init(&TB, true, 0);
	tb_dots(&TB);
	for (unsigned i = 0; i < 4; i++) {
		char nm[8];

		snprintf(nm, sizeof(nm), "f%u", i);
		fr[i] = TB.p;
		tb_free(&TB, 32);
		tb_name(&TB, nm, 140 + i);
	}
	tb_finish(&TB);
	ck_assert_uint_eq(check_block(), 0);
	ASSERT_CLEAN();
	h = (void *)TB.d;
	ck_assert_uint_eq(get_be16(h->best_free[1].offset), fr[0]);
	put_be16(&h->best_free[1].offset, (uint16_t)fr[3]);
	put_be16(&h->best_free[2].offset, (uint16_t)fr[2]);
	tb_crc(&TB);
	ck_assert_uint_eq(check_block(), 0);
	ASSERT_CLEAN();
	/* but not the same region twice */
	put_be16(&h->best_free[2].offset, (uint16_t)fr[3]);
	tb_crc(&TB);
	check_block();
	ASSERT_HAS(DIR_BAD_BESTFREE);
}
END_TEST

START_TEST(block_bad_free_regions)
{
	uint32_t at;

	/* two adjacent free regions */
	tb_init(&TB, true, 0);
	tb_dots(&TB);
	tb_free(&TB, 32);
	tb_free(&TB, 32);
	tb_name(&TB, "x", 140);
	tb_finish(&TB);
	check_block();
	ASSERT_HAS(DIR_BAD_FREE);

	/* a free length that is not a multiple of 8 */
	tb_init(&TB, true, 0);
	tb_dots(&TB);
	at = TB.p;
	tb_free(&TB, 32);
	tb_name(&TB, "x", 140);
	tb_finish(&TB);
	store_be16(TB.d + at + 2, 36);
	tb_crc(&TB);
	check_block();
	ASSERT_HAS(DIR_BAD_FREE);

	/* a free region whose tag is not its offset */
	tb_init(&TB, true, 0);
	tb_dots(&TB);
	at = TB.p;
	tb_free(&TB, 32);
	tb_name(&TB, "x", 140);
	tb_finish(&TB);
	store_be16(TB.d + at + 30, 8);
	tb_crc(&TB);
	check_block();
	ASSERT_HAS(DIR_BAD_FREE);
}
END_TEST

START_TEST(block_dots)
{
	/* "." missing: the first entry is something else */
	tb_init(&TB, true, 0);
	tb_name(&TB, "x", 140);
	tb_ent(&TB, "..", 2, 128, XFS_DIR3_FT_DIR);
	tb_finish(&TB);
	check_block();
	ASSERT_HAS(DIR_BAD_DOT);

	/* ".." second is missing, and "." again later */
	tb_init(&TB, true, 0);
	tb_ent(&TB, ".", 1, OWNER, XFS_DIR3_FT_DIR);
	tb_name(&TB, "x", 140);
	tb_ent(&TB, ".", 1, OWNER, XFS_DIR3_FT_DIR);
	tb_finish(&TB);
	check_block();
	ASSERT_HAS(DIR_BAD_DOTDOT);
	ASSERT_HAS(DIR_BAD_DOT);

	/* "." naming another inode */
	tb_init(&TB, true, 0);
	tb_ent(&TB, ".", 1, OWNER + 1, XFS_DIR3_FT_DIR);
	tb_ent(&TB, "..", 2, 128, XFS_DIR3_FT_DIR);
	tb_finish(&TB);
	check_block();
	ASSERT_HAS(DIR_BAD_DOT);
}
END_TEST

START_TEST(block_leaf_problems)
{
	struct xfs_dir2_leaf_entry *le;
	uint32_t count;

	make_good_block();
	count = load_be32(TB.d + TB.len - 8);
	le = (void *)(TB.d + TB.len - 8 - count * 8);
	/* swap two leaf entries: hashes out of order */
	{
		struct xfs_dir2_leaf_entry t = le[1];

		le[1] = le[2];
		le[2] = t;
	}
	tb_crc(&TB);
	check_block();
	ASSERT_HAS(DIR_LEAF_HASH_ORDER);

	/* an address pointing into the middle of an entry */
	make_good_block();
	le = (void *)(TB.d + TB.len - 8 - 5 * 8);
	put_be32(&le[4].address, get_be32(le[4].address) + 1);
	tb_crc(&TB);
	check_block();
	ASSERT_HAS(DIR_LEAF_BAD_ADDR);
	ASSERT_HAS(DIR_LEAF_MISSING);

	/* two leaf entries for one entry */
	make_good_block();
	le = (void *)(TB.d + TB.len - 8 - 5 * 8);
	put_be32(&le[4].address, get_be32(le[3].address));
	put_be32(&le[4].hashval, get_be32(le[3].hashval));
	tb_crc(&TB);
	check_block();
	ASSERT_HAS(DIR_LEAF_DUP_ADDR);

	/* stale count wrong */
	make_good_block();
	store_be32(TB.d + TB.len - 4, 1);
	tb_crc(&TB);
	check_block();
	ASSERT_HAS(DIR_LEAF_BAD_STALE);

	/* stale entries counted right are fine */
	tb_init(&TB, true, 0);
	TB.nleaf_extra = 2;
	tb_dots(&TB);
	tb_name(&TB, "x", 140);
	tb_finish(&TB);
	ck_assert_uint_eq(check_block(), 0);
	ASSERT_CLEAN();

	/* a count that cannot fit */
	make_good_block();
	store_be32(TB.d + TB.len - 8, TB.len);
	tb_crc(&TB);
	check_block();
	ASSERT_HAS(DIR_LEAF_BAD_COUNT);
}
END_TEST

/* ---- data blocks ---- */

START_TEST(data_good_and_dot_rules)
{
	/* data block 1: no dots needed; data block 0 needs them */
	tb_init(&TB, false, 1);
	tb_name(&TB, "one", 140);
	tb_name(&TB, "two", 141);
	tb_finish(&TB);
	ck_assert_uint_eq(check_data(), 0);
	ASSERT_CLEAN();
	ck_assert_uint_eq(SEEN.n, 2);

	TB.dablk = 0;
	check_data();
	ASSERT_HAS(DIR_BAD_DOT);

	/* "." in a later block */
	tb_init(&TB, false, 1);
	tb_ent(&TB, ".", 1, OWNER, XFS_DIR3_FT_DIR);
	tb_finish(&TB);
	check_data();
	ASSERT_HAS(DIR_BAD_DOT);

	/* block-form magic where a data block belongs */
	tb_init(&TB, true, 1);
	tb_name(&TB, "one", 140);
	tb_finish(&TB);
	check_data();
	ASSERT_HAS(DIR_BAD_MAGIC);
}
END_TEST

START_TEST(data_full_block_no_free)
{
	/* entries exactly filling the block: empty bestfree is right */
	tb_init(&TB, false, 2);
	while (TB.p < TB.len)
		tb_name(&TB, "abcdef", 150);	/* 24 bytes with ftype */
	ck_assert_uint_eq(TB.p, TB.len);
	tb_finish(&TB);
	ck_assert_uint_eq(check_data(), 0);
	ASSERT_CLEAN();
}
END_TEST

START_TEST(data_names_255_and_odd_bytes)
{
	char nm[255];

	for (unsigned i = 0; i < sizeof(nm); i++)
		nm[i] = (char)(1 + i % 254);	/* every byte but NUL and / */
	for (unsigned i = 0; i < sizeof(nm); i++)
		if (nm[i] == '/')
			nm[i] = (char)0xff;
	tb_init(&TB, false, 1);
	tb_ent(&TB, nm, 255, 140, 1);
	tb_ent(&TB, "\xe2\x82\xac\x01\x7f", 5, 141, 1);
	tb_finish(&TB);
	ck_assert_uint_eq(check_data(), 0);
	ASSERT_CLEAN();
	ck_assert_uint_eq(SEEN.n, 2);
	ck_assert_uint_eq(strlen(SEEN.names[0]), 255);
}
END_TEST

START_TEST(data_no_ftype)
{
	geo_setup(4096, 0, false);
	tb_init(&TB, false, 1);
	tb_name(&TB, "seven77", 140);	/* 8+1+7+2 = 18 -> 24 */
	tb_name(&TB, "x", 141);
	tb_finish(&TB);
	ck_assert_uint_eq(check_data(), 0);
	ASSERT_CLEAN();
	ck_assert_uint_eq(SEEN.n, 2);
	ck_assert_uint_eq(SEEN.ftypes[0], 0);
	ck_assert_uint_eq(TB.ents[1].off, 64 + 24);
}
END_TEST

START_TEST(data_sizes)
{
	/* 1 KiB fs blocks with 4 KiB directory blocks, and 64 KiB blocks */
	static const struct { uint32_t bs; unsigned dbl; } sz[] = {
		{ 1024, 2 }, { 1024, 0 }, { 4096, 2 }, { 65536, 0 }, { 4096, 4 },
	};

	for (unsigned k = 0; k < sizeof(sz) / sizeof(sz[0]); k++) {
		geo_setup(sz[k].bs, sz[k].dbl, true);
		tb_init(&TB, true, 0);
		tb_dots(&TB);
		for (unsigned i = 0; i < 20; i++) {
			char nm[16];

			snprintf(nm, sizeof(nm), "file%u", i);
			tb_name(&TB, nm, 140 + i);
		}
		tb_finish(&TB);
		ck_assert_uint_eq(check_block(), 0);
		ASSERT_CLEAN();
		ck_assert_uint_eq(SEEN.n, 22);
	}
}
END_TEST

/* ---- leaf blocks ---- */

static uint8_t *LB;

/* A LEAF1 or LEAFN block with n entries (hash i*16, address a0 + 2i). */
static void make_leaf(uint16_t magic, unsigned n, unsigned bestcount)
{
	struct xfs_dir3_leaf_hdr *h;
	struct xfs_dir2_leaf_entry *le;

	free(LB);
	LB = calloc(1, G.dirblksize);
	h = (void *)LB;
	put_be16(&h->info.magic, magic);
	put_be64(&h->info.blkno, DADDR);
	put_be64(&h->info.owner, OWNER);
	h->info.uuid = G.meta_uuid;
	put_be16(&h->count, (uint16_t)n);
	le = (void *)(LB + sizeof(*h));
	for (unsigned i = 0; i < n; i++) {
		put_be32(&le[i].hashval, i * 16);
		put_be32(&le[i].address, 8 + 2 * i);
	}
	if (magic == XFS_DIR3_LEAF1_MAGIC) {
		store_be32(LB + G.dirblksize - 4, bestcount);
		for (unsigned i = 0; i < bestcount &&
		     4 + 2 * bestcount <= G.dirblksize - 64; i++)
			store_be16(LB + G.dirblksize - 4 - 2 * (bestcount - i),
				   (uint16_t)(0x100 + i));
	}
	xfs_cksum_update(LB, G.dirblksize, XFS_DA3_BLKINFO_CRC_OFF);
}

static void leaf_recrc(void)
{
	xfs_cksum_update(LB, G.dirblksize, XFS_DA3_BLKINFO_CRC_OFF);
}

static unsigned check_leaf(uint16_t magic, struct dir_leaf_info *li)
{
	struct dir_blk b = { .g = &G, .ino = OWNER,
			     .dablk = dir_leaf_dablk(&G), .daddr = DADDR,
			     .data = LB };

	reset();
	return dir3_leaf_check(&b, magic, &FL, li);
}

START_TEST(leaf1_good_and_bad)
{
	struct dir_leaf_info li;
	struct xfs_dir3_leaf_hdr *h;

	make_leaf(XFS_DIR3_LEAF1_MAGIC, 100, 3);
	ck_assert_uint_eq(check_leaf(XFS_DIR3_LEAF1_MAGIC, &li), 0);
	ASSERT_CLEAN();
	ck_assert_uint_eq(li.count, 100);
	ck_assert_uint_eq(li.bestcount, 3);
	ck_assert_uint_eq(get_be16(li.bests[0]), 0x100);
	ck_assert_uint_eq(get_be16(li.bests[2]), 0x102);
	ck_assert_uint_eq(li.first, 0);
	ck_assert_uint_eq(li.last, 99 * 16);

	/* LEAFN magic where LEAF1 is wanted */
	check_leaf(XFS_DIR3_LEAFN_MAGIC, &li);
	ASSERT_HAS(DIR_BAD_MAGIC);
	ck_assert(!li.magic_ok);

	/* entries running into bests[] */
	make_leaf(XFS_DIR3_LEAF1_MAGIC, (4096 - 64 - 4) / 8, 3);
	check_leaf(XFS_DIR3_LEAF1_MAGIC, &li);
	ASSERT_HAS(DIR_LEAF_BAD_COUNT);

	make_leaf(XFS_DIR3_LEAF1_MAGIC, 10, 4000);
	check_leaf(XFS_DIR3_LEAF1_MAGIC, &li);
	ASSERT_HAS(DIR_LEAF_BAD_BESTS);

	/* hash order, stale, siblings, CRC */
	make_leaf(XFS_DIR3_LEAF1_MAGIC, 10, 1);
	store_be32(LB + 64 + 5 * 8, 1);
	leaf_recrc();
	check_leaf(XFS_DIR3_LEAF1_MAGIC, &li);
	ASSERT_HAS(DIR_LEAF_HASH_ORDER);

	make_leaf(XFS_DIR3_LEAF1_MAGIC, 10, 1);
	store_be32(LB + 64 + 5 * 8 + 4, 0);	/* stale, not counted */
	leaf_recrc();
	check_leaf(XFS_DIR3_LEAF1_MAGIC, &li);
	ASSERT_HAS(DIR_LEAF_BAD_STALE);
	h = (void *)LB;
	put_be16(&h->stale, 1);
	leaf_recrc();
	check_leaf(XFS_DIR3_LEAF1_MAGIC, &li);
	ASSERT_CLEAN();

	put_be32(&h->info.forw, 8388620);
	leaf_recrc();
	check_leaf(XFS_DIR3_LEAF1_MAGIC, &li);
	ASSERT_HAS(DIR_LEAF_BAD_SIBLING);

	LB[200] ^= 4;
	check_leaf(XFS_DIR3_LEAF1_MAGIC, &li);
	ASSERT_HAS(DIR_BAD_CRC);
}
END_TEST

START_TEST(leafn_good_and_bad)
{
	struct dir_leaf_info li;
	struct xfs_dir3_leaf_hdr *h;

	make_leaf(XFS_DIR3_LEAFN_MAGIC, (4096 - 64) / 8, 0);
	ck_assert_uint_eq(check_leaf(XFS_DIR3_LEAFN_MAGIC, &li), 0);
	ASSERT_CLEAN();
	h = (void *)LB;
	put_be32(&h->info.forw, 8388620);	/* siblings are the tree's */
	put_be16(&h->count, (4096 - 64) / 8 + 1);
	leaf_recrc();
	check_leaf(XFS_DIR3_LEAFN_MAGIC, &li);
	ASSERT_HAS(DIR_LEAF_BAD_COUNT);
	ck_assert(!findings_has(&FL, PR_DIR_LEAF_BAD_SIBLING));
	ck_assert_uint_eq(li.count, (4096 - 64) / 8);
	ck_assert_uint_eq(li.forw, 8388620);
}
END_TEST

/* ---- free index blocks ---- */

static void make_free(xfs_dablk_t dablk, uint32_t firstdb, uint32_t nvalid,
		      uint32_t nused_hdr, unsigned nnull)
{
	struct xfs_dir3_free_hdr *h;

	free(LB);
	LB = calloc(1, G.dirblksize);
	h = (void *)LB;
	put_be32(&h->hdr.magic, XFS_DIR3_FREE_MAGIC);
	put_be64(&h->hdr.blkno, DADDR);
	put_be64(&h->hdr.owner, OWNER);
	h->hdr.uuid = G.meta_uuid;
	put_be32(&h->firstdb, firstdb);
	put_be32(&h->nvalid, nvalid);
	put_be32(&h->nused, nused_hdr);
	for (uint32_t i = 0; i < nvalid && 64 + 2 * i < G.dirblksize; i++)
		store_be16(LB + 64 + 2 * i, i < nnull ? XFS_DIR2_NULL_BESTFREE :
					     (uint16_t)(0x10 + i));
	xfs_cksum_update(LB, G.dirblksize, XFS_DIR3_DATA_CRC_OFF);
	(void)dablk;
}

static unsigned check_free(xfs_dablk_t dablk, struct dir_free_info *fi)
{
	struct dir_blk b = { .g = &G, .ino = OWNER, .dablk = dablk,
			     .daddr = DADDR, .data = LB };

	reset();
	return dir3_free_check(&b, &FL, fi);
}

START_TEST(free_good_and_bad)
{
	struct dir_free_info fi;
	xfs_dablk_t f0 = dir_free_dablk(&G);
	unsigned max = dir3_free_maxbests(&G);

	ck_assert_uint_eq(max, (4096 - 64) / 2);
	make_free(f0, 0, 5, 4, 1);
	ck_assert_uint_eq(check_free(f0, &fi), 0);
	ASSERT_CLEAN();
	ck_assert_uint_eq(fi.nvalid, 5);
	ck_assert_uint_eq(get_be16(fi.bests[4]), 0x14);

	/* the second free block covers from max on */
	make_free(f0 + 1, max, 5, 5, 0);
	ck_assert_uint_eq(check_free(f0 + 1, &fi), 0);
	check_free(f0, &fi);
	ASSERT_HAS(DIR_FREE_BAD_FIRSTDB);

	make_free(f0, 0, max + 1, max + 1, 0);
	check_free(f0, &fi);
	ASSERT_HAS(DIR_FREE_BAD_NVALID);

	make_free(f0, 0, 5, 5, 1);
	check_free(f0, &fi);
	ASSERT_HAS(DIR_FREE_BAD_NUSED);

	make_free(f0, 0, 5, 4, 1);
	store_be32(LB, XFS_DIR3_DATA_MAGIC);
	check_free(f0, &fi);
	ASSERT_HAS(DIR_BAD_MAGIC);
}
END_TEST

/* ---- short form ---- */

static uint8_t SF[512];
static uint32_t SFLEN;

/* Build a short-form fork: parent, then entries with increasing offsets. */
static void sf_begin(xfs_ino_t parent, bool i8)
{
	memset(SF, 0, sizeof(SF));
	SF[1] = i8 ? 1 : 0;
	if (i8)
		store_be64(SF + 2, parent);
	else
		store_be32(SF + 2, (uint32_t)parent);
	SFLEN = XFS_DIR2_SF_HDR_SIZE(i8);
}

static uint32_t SFOFF;

static uint32_t sf_add(const char *name, xfs_ino_t ino)
{
	unsigned nl = (unsigned)strlen(name), isz = SF[1] ? 8 : 4;
	uint32_t at = SFLEN;

	if (!SF[0])
		SFOFF = 96;
	SF[SFLEN] = (uint8_t)nl;
	store_be16(SF + SFLEN + 1, (uint16_t)SFOFF);
	memcpy(SF + SFLEN + 3, name, nl);
	SF[SFLEN + 3 + nl] = XFS_DIR3_FT_REG_FILE;
	if (isz == 8)
		store_be64(SF + SFLEN + 4 + nl, ino);
	else
		store_be32(SF + SFLEN + 4 + nl, (uint32_t)ino);
	SFLEN += 4 + nl + isz;
	SFOFF += dir2_data_entsize(true, nl);
	SF[0]++;
	return at;
}

static unsigned check_sf(uint64_t size)
{
	unsigned nerr;

	reset();
	ck_assert_int_eq(dir2_sf_check(&G, false, OWNER, SF, 336, size,
				       seen_iter, &SEEN, &FL, &nerr), 0);
	return nerr;
}

START_TEST(sf_good)
{
	sf_begin(128, false);
	sf_add("a", 140);
	sf_add("bb", 141);
	sf_add("ccc", 142);
	ck_assert_uint_eq(check_sf(SFLEN), 0);
	ASSERT_CLEAN();
	ck_assert_uint_eq(SEEN.n, 5);
	ck_assert_str_eq(SEEN.names[0], ".");
	ck_assert_uint_eq(SEEN.inos[0], OWNER);
	ck_assert_str_eq(SEEN.names[1], "..");
	ck_assert_uint_eq(SEEN.inos[1], 128);
	ck_assert_str_eq(SEEN.names[4], "ccc");
	ck_assert_uint_eq(SEEN.inos[4], 142);
	ck_assert_uint_eq(dir2_sf_parent(SF, SFLEN), 128);
	/* empty directory: just the header */
	sf_begin(128, false);
	ck_assert_uint_eq(check_sf(SFLEN), 0);
	ck_assert_uint_eq(SEEN.n, 2);
}
END_TEST

START_TEST(sf_i8)
{
	/* a 64-bit inode number (AG 3) needs 8-byte numbers */
	xfs_ino_t big = agino_to_ino(&G, 3, 4096);

	ck_assert(big > XFS_DIR2_MAX_SHORT_INUM || G.agino_log + 2 < 32);
	sf_begin(128, true);
	sf_add("far", big);
	sf_add("near", 140);
	SF[1] = big > XFS_DIR2_MAX_SHORT_INUM ? 1 : 0;
	if (!SF[1])
		return;	/* this geometry has no 64-bit inode numbers */
	ck_assert_uint_eq(check_sf(SFLEN), 0);
	ASSERT_CLEAN();
	ck_assert_uint_eq(SEEN.inos[2], big);
	SF[1] = 2;
	check_sf(SFLEN);
	ASSERT_HAS(DIR_SF_BAD_I8COUNT);
}
END_TEST

START_TEST(sf_bad_counts_and_sizes)
{
	sf_begin(128, false);
	sf_add("a", 140);
	sf_add("bb", 141);
	sf_add("ccc", 142);
	/* count too big: the entries end first */
	SF[0] = 4;
	check_sf(SFLEN);
	ASSERT_HAS(DIR_SF_BAD_COUNT);
	/* count too small: the bytes left are whole entries */
	SF[0] = 2;
	check_sf(SFLEN);
	ASSERT_HAS(DIR_SF_BAD_COUNT);
	ck_assert(!findings_has(&FL, PR_DIR_SF_BAD_SIZE));
	SF[0] = 3;
	/* size larger than the entries, with garbage after them */
	SF[SFLEN] = 200;
	check_sf(SFLEN + 3);
	ASSERT_HAS(DIR_SF_BAD_SIZE);
	/* size past the fork */
	check_sf(400);
	ASSERT_HAS(DIR_SF_BAD_SIZE);
	/* size too small for the header */
	check_sf(3);
	ASSERT_HAS(DIR_SF_BAD_SIZE);
	/* a name running past the size */
	SF[6 + 9] = 60;			/* namelen of "bb" */
	check_sf(SFLEN);
	ASSERT_HAS(DIR_ENTRY_OVERRUN);
}
END_TEST

START_TEST(sf_bad_entries)
{
	uint32_t at;

	sf_begin(128, false);
	sf_add("a", 140);
	at = sf_add("bb", 141);
	sf_add("ccc", 142);
	store_be16(SF + at + 1, 0x40);	/* offset going backwards */
	check_sf(SFLEN);
	ASSERT_HAS(DIR_SF_BAD_OFFSET);

	sf_begin(128, false);
	sf_add("a", 140);
	at = sf_add("bb", 141);
	SF[at + 4] = '/';
	check_sf(SFLEN);
	ASSERT_HAS(DIR_BAD_NAME);
	/* ".", "..", "a" and "b/": the kernel lists it all the same */
	ck_assert_uint_eq(SEEN.n, 4);

	sf_begin(128, false);
	sf_add("a", 140);
	sf_add("a", 141);
	check_sf(SFLEN);
	ASSERT_HAS(DIR_DUP_NAME);

	sf_begin(0, false);		/* parent 0 is no inode */
	sf_add("a", 140);
	check_sf(SFLEN);
	ASSERT_HAS(DIR_BAD_INO);
	ck_assert_uint_eq(SEEN.n, 2);	/* ".", "a" */

	sf_begin(128, false);
	at = sf_add("a", 0xfffffff0u);	/* past the last AG */
	check_sf(SFLEN);
	ASSERT_HAS(DIR_BAD_INO);

	sf_begin(128, false);
	sf_add("..", 140);
	check_sf(SFLEN);
	ASSERT_HAS(DIR_BAD_DOTDOT);

	sf_begin(128, false);
	at = sf_add("a", 140);
	SF[at + 4] = 9;			/* ftype */
	check_sf(SFLEN);
	ASSERT_HAS(DIR_BAD_FTYPE);
}
END_TEST

/* ---- dabtree node blocks ---- */

static void make_node(unsigned count, unsigned level)
{
	struct xfs_da3_node_hdr *h;
	struct xfs_da_node_entry *e;

	free(LB);
	LB = calloc(1, G.dirblksize);
	h = (void *)LB;
	put_be16(&h->info.magic, XFS_DA3_NODE_MAGIC);
	put_be64(&h->info.blkno, DADDR);
	put_be64(&h->info.owner, OWNER);
	h->info.uuid = G.meta_uuid;
	put_be16(&h->count, (uint16_t)count);
	put_be16(&h->level, (uint16_t)level);
	e = (void *)(LB + sizeof(*h));
	for (unsigned i = 0; i < count && i < da3_node_maxents(G.dirblksize); i++) {
		put_be32(&e[i].hashval, 0x1000 * (i + 1));
		put_be32(&e[i].before, 8388609 + i);
	}
	leaf_recrc();
}

static unsigned check_node(void)
{
	struct fs_objref o = OBJREF_INIT(OBJ_DIR);

	reset();
	return da3_node_check(&G, LB, G.dirblksize, DADDR, OWNER, &o, &FL);
}

START_TEST(node_good_and_bad)
{
	struct da_node_hdr h;

	make_node(10, 1);
	ck_assert_uint_eq(check_node(), 0);
	da3_node_hdr_decode(LB, &h);
	ck_assert_uint_eq(h.count, 10);
	ck_assert_uint_eq(h.level, 1);
	ck_assert_uint_eq(get_be32(da3_node_ents(LB)[9].before), 8388618);

	make_node(0, 1);
	check_node();
	ASSERT_HAS(DA_BAD_COUNT);
	make_node(da3_node_maxents(G.dirblksize) + 1, 1);
	check_node();
	ASSERT_HAS(DA_BAD_COUNT);
	make_node(3, 0);
	check_node();
	ASSERT_HAS(DA_BAD_LEVEL);
	make_node(3, XFS_DA_NODE_MAXDEPTH);
	check_node();
	ASSERT_HAS(DA_BAD_LEVEL);

	make_node(5, 2);
	store_be32(LB + 64 + 3 * 8, 1);
	leaf_recrc();
	check_node();
	ASSERT_HAS(DA_HASH_ORDER);

	make_node(5, 2);
	store_be16(LB + 8, XFS_DIR3_LEAFN_MAGIC);
	leaf_recrc();
	check_node();
	ASSERT_HAS(DA_BAD_MAGIC);

	make_node(5, 2);
	LB[70] ^= 1;
	check_node();
	ASSERT_HAS(DA_BAD_CRC);
	make_node(5, 2);
	store_be64(LB + 48, OWNER + 5);		/* info.owner */
	leaf_recrc();
	check_node();
	ASSERT_HAS(DA_BAD_OWNER);
}
END_TEST


/* ---- blocks dumped from reference-made filesystems (tests/data/dir) ---- */

struct fixture {
	char		name[64];
	xfs_ino_t	ino;
	xfs_dablk_t	dablk;
	xfs_daddr_t	daddr;
	uint8_t		*data;
	size_t		len;
};

static uint8_t *slurp(const char *file, size_t *len)
{
	return unit_fixture("dir", file, len);
}

/* The geometry of a fixture image, from its superblock. */
static void fixture_geo(const char *sbfile)
{
	struct fs_sb sb;
	size_t len;
	uint8_t *raw = slurp(sbfile, &len);

	sb_decode((const struct xfs_dsb *)raw, &sb);
	geom_init(&G, &sb);
	free(raw);
}

static void fixture_load(const char *name, struct fixture *fx)
{
	FILE *f = fopen(unit_fixture_path("dir", "MANIFEST"), "r");
	char line[256], file[80];
	unsigned long long ino, dablk, daddr;
	char img[64];

	ck_assert(f != NULL);
	memset(fx, 0, sizeof(*fx));
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63s %63s %llu %llu %llu", fx->name, img, &ino,
			   &dablk, &daddr) != 5 || strcmp(fx->name, name))
			continue;
		fx->ino = ino;
		fx->dablk = (xfs_dablk_t)dablk;
		fx->daddr = daddr;
		snprintf(file, sizeof(file), "%s.bin", name);
		fx->data = slurp(file, &fx->len);
		break;
	}
	fclose(f);
	ck_assert_msg(fx->data != NULL, "fixture %s not in MANIFEST", name);
}

static struct dir_blk fx_blk(const struct fixture *fx)
{
	ck_assert_uint_eq(fx->len, G.dirblksize);
	return (struct dir_blk){ .g = &G, .ino = fx->ino, .dablk = fx->dablk,
				 .daddr = fx->daddr, .data = fx->data };
}

START_TEST(ref_block_form)
{
	static const char *const img[] = { "d4k", "d16k" };
	static const unsigned nfiles[] = { 40, 200 };

	for (unsigned k = 0; k < 2; k++) {
		struct fixture fx;
		struct dir_blk b;
		struct dir_data_info info;
		char nm[64];

		snprintf(nm, sizeof(nm), "%s-sb.bin", img[k]);
		fixture_geo(nm);
		snprintf(nm, sizeof(nm), "%s-block", img[k]);
		fixture_load(nm, &fx);
		b = fx_blk(&fx);
		reset();
		ck_assert_int_eq(dir3_block_check(&b, seen_dent, &SEEN, &FL,
						  &info), 0);
		ASSERT_CLEAN();
		ck_assert_uint_eq(info.nents, nfiles[k] + 2);
		ck_assert_str_eq(SEEN.names[0], ".");
		ck_assert_uint_eq(SEEN.inos[0], fx.ino);
		ck_assert_str_eq(SEEN.names[1], "..");
		ck_assert_uint_eq(SEEN.ftypes[2], XFS_DIR3_FT_REG_FILE);
		/* one flipped bit anywhere is caught by the CRC at least */
		fx.data[fx.len / 2] ^= 0x10;
		reset();
		dir3_block_check(&b, NULL, NULL, &FL, NULL);
		ASSERT_HAS(DIR_BAD_CRC);
		/* someone else's block */
		b.ino = fx.ino + 1;
		reset();
		dir3_block_check(&b, NULL, NULL, &FL, NULL);
		ASSERT_HAS(DIR_BAD_OWNER);
		free(fx.data);
	}
}
END_TEST

START_TEST(ref_leaf_form)
{
	struct fixture d0, l1;
	struct dir_blk b;
	struct dir_data_info info;
	struct dir_leaf_info li;

	fixture_geo("d4k-sb.bin");
	fixture_load("d4k-leaf-data0", &d0);
	fixture_load("d4k-leaf-leaf1", &l1);
	b = fx_blk(&d0);
	reset();
	ck_assert_int_eq(dir3_data_check(&b, false, seen_dent, &SEEN, &FL,
					 &info), 0);
	ASSERT_CLEAN();
	ck_assert(info.nents > 100);
	ck_assert_str_eq(SEEN.names[0], ".");
	ck_assert_str_eq(SEEN.names[2], "file_1");
	b = fx_blk(&l1);
	reset();
	ck_assert_uint_eq(dir3_leaf_check(&b, XFS_DIR3_LEAF1_MAGIC, &FL, &li), 0);
	ASSERT_CLEAN();
	ck_assert_uint_eq(li.count - li.stale, 302);
	ck_assert_uint_eq(li.bestcount, 2);
	ck_assert_uint_eq(get_be16(li.bests[0]), info.best);
	free(d0.data);
	free(l1.data);
}
END_TEST

START_TEST(ref_node_form)
{
	struct fixture d0, root, leafn, fr;
	struct dir_blk b;
	struct dir_data_info info;
	struct dir_leaf_info li;
	struct dir_free_info fi;
	struct fs_objref o = OBJREF_INIT(OBJ_DIR);
	struct da_node_hdr h;

	fixture_geo("d4k-sb.bin");
	fixture_load("d4k-node-data0", &d0);
	fixture_load("d4k-node-root", &root);
	fixture_load("d4k-node-leafn", &leafn);
	fixture_load("d4k-node-free", &fr);
	b = fx_blk(&d0);
	reset();
	ck_assert_int_eq(dir3_data_check(&b, false, NULL, NULL, &FL, &info), 0);
	ASSERT_CLEAN();
	reset();
	ck_assert_uint_eq(da3_node_check(&G, root.data, root.len, root.daddr,
					 root.ino, &o, &FL), 0);
	da3_node_hdr_decode(root.data, &h);
	ck_assert_uint_eq(h.level, 1);
	ck_assert(h.count > 1);
	b = fx_blk(&leafn);
	reset();
	ck_assert_uint_eq(dir3_leaf_check(&b, XFS_DIR3_LEAFN_MAGIC, &FL, &li), 0);
	ASSERT_CLEAN();
	ck_assert(li.count > 100);
	b = fx_blk(&fr);
	reset();
	ck_assert_uint_eq(dir3_free_check(&b, &FL, &fi), 0);
	ASSERT_CLEAN();
	ck_assert_uint_eq(fi.firstdb, 0);
	ck_assert_uint_eq(get_be16(fi.bests[0]), info.best);
	/* the free block is not a data block, nor at another place */
	b.dablk += 1;
	reset();
	dir3_free_check(&b, &FL, &fi);
	ASSERT_HAS(DIR_FREE_BAD_FIRSTDB);
	free(d0.data);
	free(root.data);
	free(leafn.data);
	free(fr.data);
}
END_TEST

START_TEST(ref_short_form)
{
	struct fixture fx;
	const struct xfs_dinode *di;
	uint32_t lit, forksize;

	fixture_geo("d4k-sb.bin");
	fixture_load("d4k-sf-inode", &fx);
	di = (const void *)fx.data;
	lit = G.inodesize - (uint32_t)sizeof(struct xfs_dinode);
	forksize = di->di_forkoff ? di->di_forkoff * 8u : lit;
	reset();
	ck_assert_int_eq(dir2_sf_check(&G, false, fx.ino,
				       fx.data + sizeof(struct xfs_dinode),
				       forksize, get_be64(di->di_size),
				       seen_iter, &SEEN, &FL, NULL), 0);
	ASSERT_CLEAN();
	ck_assert_uint_eq(SEEN.n, 5);
	ck_assert_str_eq(SEEN.names[2], "f1");
	ck_assert_str_eq(SEEN.names[4], "f3");
	ck_assert_uint_eq(SEEN.inos[1], 128);	/* parent: the root */
	free(fx.data);
}
END_TEST

/* ---- fuzzing: never outside the block, whatever it holds ---- */

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)rng;
}

/* Each check gets a copy in an exactly sized allocation. */
static void fuzz_one(const uint8_t *good, uint32_t len, unsigned kind)
{
	uint8_t *d = malloc(len);
	unsigned nflip = 1 + rnd() % 8;

	memcpy(d, good, len);
	for (unsigned i = 0; i < nflip; i++) {
		uint32_t at = rnd() % len;

		if (rnd() & 1)
			d[at] = (uint8_t)rnd();
		else
			d[at] ^= (uint8_t)(1u << (rnd() % 8));
	}
	if (rnd() & 1) {
		if (kind <= 1)
			xfs_cksum_update(d, len, XFS_DIR3_DATA_CRC_OFF);
		else
			xfs_cksum_update(d, len, XFS_DA3_BLKINFO_CRC_OFF);
	}
	struct dir_blk b = { .g = &G, .ino = OWNER, .dablk = 0, .daddr = DADDR,
			     .data = d };
	struct dir_leaf_info li;
	struct dir_free_info fi;
	struct fs_objref o = OBJREF_INIT(OBJ_DIR);

	findings_clear(&FL);
	switch (kind) {
	case 0:
		dir3_block_check(&b, NULL, NULL, &FL, NULL);
		break;
	case 1:
		b.dablk = dir_free_dablk(&G);
		dir3_free_check(&b, &FL, &fi);
		break;
	case 2:
		dir3_leaf_check(&b, XFS_DIR3_LEAF1_MAGIC, &FL, &li);
		break;
	case 3:
		da3_node_check(&G, d, len, DADDR, OWNER, &o, &FL);
		break;
	}
	free(d);
}

START_TEST(fuzz_blocks)
{
	uint8_t *blk, *leaf, *fr, *node;
	uint32_t len;

	geo_setup(1024, 0, true);
	len = G.dirblksize;
	tb_init(&TB, true, 0);
	tb_dots(&TB);
	for (unsigned i = 0; i < 12; i++) {
		char nm[16];

		snprintf(nm, sizeof(nm), "n%u", i);
		tb_name(&TB, nm, 140 + i);
		if (i % 4 == 0)
			tb_free(&TB, 16);
	}
	tb_finish(&TB);
	blk = TB.d;
	make_leaf(XFS_DIR3_LEAF1_MAGIC, 40, 3);
	leaf = LB;
	LB = NULL;
	make_free(dir_free_dablk(&G), 0, 30, 30, 0);
	fr = LB;
	LB = NULL;
	make_node(20, 1);
	node = LB;
	LB = NULL;
	for (unsigned i = 0; i < 20000; i++) {
		fuzz_one(blk, len, 0);
		fuzz_one(fr, len, 1);
		fuzz_one(leaf, len, 2);
		fuzz_one(node, len, 3);
	}
	free(leaf);
	free(fr);
	free(node);
}
END_TEST

START_TEST(fuzz_sf)
{
	uint8_t good[336];
	uint32_t n;

	sf_begin(128, false);
	for (unsigned i = 0; i < 12; i++) {
		char nm[16];

		snprintf(nm, sizeof(nm), "entry%u", i);
		sf_add(nm, 140 + i);
	}
	memcpy(good, SF, sizeof(good));
	n = SFLEN;
	for (unsigned i = 0; i < 50000; i++) {
		uint8_t *d;
		uint32_t forksize = 6 + rnd() % 330;
		uint64_t size = rnd() % 3 ? n : rnd() % 400;

		d = malloc(forksize);
		memcpy(d, good, forksize);
		for (unsigned k = 1 + rnd() % 4; k; k--)
			d[rnd() % forksize] = (uint8_t)rnd();
		findings_clear(&FL);
		dir2_sf_check(&G, rnd() & 1, OWNER, d, forksize, size, seen_iter,
			      &SEEN, &FL, NULL);
		SEEN.n = 0;
		free(d);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("dir");
	TCase *tc = tcase_create("blocks");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, hash_known_values);
	tcase_add_test(tc, block_good);
	tcase_add_test(tc, block_bad_magic);
	tcase_add_test(tc, block_bad_header);
	tcase_add_test(tc, block_entry_overrun);
	tcase_add_test(tc, block_bad_entry_fields);
	tcase_add_test(tc, block_zero_namelen);
	tcase_add_test(tc, block_bad_bestfree);
	tcase_add_test(tc, block_bestfree_ties);
	tcase_add_test(tc, block_bad_free_regions);
	tcase_add_test(tc, block_dots);
	tcase_add_test(tc, block_leaf_problems);
	tcase_add_test(tc, data_good_and_dot_rules);
	tcase_add_test(tc, data_full_block_no_free);
	tcase_add_test(tc, data_names_255_and_odd_bytes);
	tcase_add_test(tc, data_no_ftype);
	tcase_add_test(tc, data_sizes);
	tcase_add_test(tc, leaf1_good_and_bad);
	tcase_add_test(tc, leafn_good_and_bad);
	tcase_add_test(tc, free_good_and_bad);
	tcase_add_test(tc, sf_good);
	tcase_add_test(tc, sf_i8);
	tcase_add_test(tc, sf_bad_counts_and_sizes);
	tcase_add_test(tc, sf_bad_entries);
	tcase_add_test(tc, node_good_and_bad);
	tcase_add_test(tc, ref_block_form);
	tcase_add_test(tc, ref_leaf_form);
	tcase_add_test(tc, ref_node_form);
	tcase_add_test(tc, ref_short_form);
	tcase_add_test(tc, fuzz_blocks);
	tcase_add_test(tc, fuzz_sf);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
