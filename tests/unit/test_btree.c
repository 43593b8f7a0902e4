/*
 * The btree engine on synthetic trees: blocks are built in memory (a
 * small builder below lays out leaves and nodes with correct headers,
 * keys, pointers and CRCs), written to a scratch image, and walked
 * through a real struct fs.  Each corruption test damages one thing and
 * expects the walk to name it, to go on where it can, and never to read
 * out of bounds (the sanitizer build runs these too).
 *
 * Short pointers (bnobt, rmapbt with its low/high keys, a made-up tree
 * with large records for a three-level tree) and long pointers with an
 * inode root are covered, as are lookups, the per-record checks of the
 * AG trees and the AG header verifiers.
 */
#include "config.h"
#include "unit.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "format/crc32c.h"
#include "ag.h"
#include "btree.h"

#define BS		1024
#define AGBLOCKS	1024
#define AGCOUNT		2
#define LOGBLOCKS	512
#define IMG_BYTES	((size_t)BS * AGBLOCKS * AGCOUNT)
#define TEST_INO	300		/* owner of the long-pointer tree */

static uint8_t *img;
static struct fs_sb tsb;
static struct fs_geom tg;
static char path[] = "/tmp/xfskit-btree-XXXXXX";
static struct fs *tfs;
static struct fs_findings fl;
static const xfs_uuid_t tuuid = { { 0x11, 0x22, 0x33, 0x44, 0x55, 0x66,
				    0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc,
				    0xdd, 0xee, 0xff, 0x01 } };

static void setup_geom(uint32_t ro_compat, uint32_t incompat)
{
	memset(&tsb, 0, sizeof(tsb));
	tsb.magicnum = XFS_SB_MAGIC;
	tsb.versionnum = 0xb4a5;
	tsb.blocksize = BS;
	tsb.blocklog = 10;
	tsb.sectsize = 512;
	tsb.sectlog = 9;
	tsb.inodesize = 512;
	tsb.inodelog = 9;
	tsb.inopblock = 2;
	tsb.inopblog = 1;
	tsb.agblocks = AGBLOCKS;
	tsb.agblklog = 10;
	tsb.agcount = AGCOUNT;
	tsb.dblocks = (uint64_t)AGBLOCKS * AGCOUNT;
	tsb.inoalignmt = 32;
	tsb.spino_align = 16;
	tsb.logstart = 512;
	tsb.logblocks = LOGBLOCKS;
	tsb.uuid = tuuid;
	tsb.features_ro_compat = ro_compat;
	tsb.features_incompat = incompat;
	geom_init(&tg, &tsb);
}

static void setup(void)
{
	img = calloc(1, IMG_BYTES);
	ck_assert_ptr_nonnull(img);
	setup_geom(XFS_SB_FEAT_RO_COMPAT_FINOBT | XFS_SB_FEAT_RO_COMPAT_RMAPBT,
		   0);
	findings_init(&fl);
	tfs = NULL;
}

static void teardown(void)
{
	if (tfs)
		fs_close(tfs);
	findings_free(&fl);
	free(img);
}

static uint8_t *blk(xfs_agnumber_t agno, xfs_agblock_t agbno)
{
	return img + ((uint64_t)agno * AGBLOCKS + agbno) * BS;
}

static xfs_daddr_t blk_daddr(xfs_agnumber_t agno, xfs_agblock_t agbno)
{
	return ((uint64_t)agno * AGBLOCKS + agbno) * (BS / 512);
}

/* Write the image and open it as a filesystem with the test geometry. */
static struct fs *open_img(void)
{
	struct fs_dev *dev;
	int fd;

	if (tfs) {
		fs_close(tfs);
		tfs = NULL;
	}
	strcpy(path, "/tmp/xfskit-btree-XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(pwrite(fd, img, IMG_BYTES, 0), (ssize_t)IMG_BYTES);
	close(fd);
	ck_assert_int_eq(dev_open(path, DEV_RDONLY, &dev), 0);
	/*
	 * A test may open several images; the open device keeps the bytes,
	 * so the name can go now rather than leak one file per open.
	 */
	unlink(path);
	ck_assert_int_eq(fs_open_dev(dev, FS_OPEN_RDONLY | FS_OPEN_NOSB, &tfs,
				     &fl), 0);
	fs_set_sb(tfs, &tsb);
	return tfs;
}

static void dump(void)
{
	findings_print(stderr, &fl);
}

#define HAS(code)	findings_has(&fl, PR_##code)
#define ASSERT_HAS(code) do { \
		if (!HAS(code)) \
			dump(); \
		ck_assert_msg(HAS(code), "expected " #code); \
	} while (0)
/* The first finding with this code, or NULL. */
static const struct fs_finding *first_of(enum fs_problem code)
{
	for (size_t i = 0; i < fl.n; i++)
		if (fl.v[i].code == code)
			return &fl.v[i];
	return NULL;
}

#define ASSERT_CLEAN() do { \
		if (fl.n) \
			dump(); \
		ck_assert_uint_eq(fl.n, 0); \
	} while (0)

/* ---- a made-up tree with large records: few per block, tall trees ---- */

#define TEST_MAGIC	0x54535442	/* "TSTB" */
#define TREC_LEN	32

static int t_cmp(const void *a, const void *b)
{
	uint32_t x = load_be32(a), y = load_be32(b);

	return x < y ? -1 : x > y;
}

static void t_key(const void *rec, void *key)
{
	memcpy(key, rec, TREC_LEN);
}

static void t_verify(void *ctx, struct fs_buf *bp, struct fs_findings *f)
{
	btree_sblock_verify(ctx, bp, f, TEST_MAGIC, OBJ_BNOBT);
}

static const struct buf_ops t_buf_ops = {
	.name = "testbt", .verify = t_verify,
	.crc_off = XFS_BTREE_SBLOCK_CRC_OFF,
};

static const struct btree_ops test_ops = {
	.name = "testbt", .type = BT_NTYPES, .objtype = OBJ_BNOBT,
	.magic = TEST_MAGIC, .rec_len = TREC_LEN, .key_len = TREC_LEN,
	.maxlevels = 5, .buf_ops = &t_buf_ops, .cmp_keys = t_cmp,
	.rec_low_key = t_key,
};

/* A long-pointer tree shaped like the bmbt: 16-byte records, be64 keys. */
static int l_cmp(const void *a, const void *b)
{
	uint64_t x = load_be64(a), y = load_be64(b);

	return x < y ? -1 : x > y;
}

static void l_key(const void *rec, void *key)
{
	memcpy(key, rec, 8);
}

static void l_verify(void *ctx, struct fs_buf *bp, struct fs_findings *f)
{
	btree_lblock_verify(ctx, bp, f, XFS_BMAP_CRC_MAGIC, OBJ_BMBT);
}

static const struct buf_ops l_buf_ops = {
	.name = "testlbt", .verify = l_verify,
	.crc_off = XFS_BTREE_LBLOCK_CRC_OFF,
};

static const struct btree_ops ltest_ops = {
	.name = "testlbt", .type = BT_BMAP, .objtype = OBJ_BMBT,
	.magic = XFS_BMAP_CRC_MAGIC, .long_ptrs = true, .rec_len = 16,
	.key_len = 8, .maxlevels = XFS_BMBT_MAXLEVELS, .buf_ops = &l_buf_ops,
	.cmp_keys = l_cmp, .rec_low_key = l_key,
};

/* ---- the builder ---- */

#define MAXLV	6
#define MAXBLK	128

struct built {
	const struct btree_ops	*ops;
	xfs_agnumber_t		agno;
	unsigned		levels;		/* on disk (plus iroot) */
	unsigned		n[MAXLV];	/* blocks per level */
	xfs_agblock_t		b[MAXLV][MAXBLK];
	xfs_agblock_t		root;
	uint8_t			iroot[256];	/* long trees */
	size_t			iroot_size;
};

static unsigned slot(const struct btree_ops *ops)
{
	return ops->overlapping ? 2 * ops->key_len : ops->key_len;
}

static unsigned ptrsz(const struct btree_ops *ops)
{
	return ops->long_ptrs ? 8 : 4;
}

static void hdr_init(const struct btree_ops *ops, uint8_t *b,
		     xfs_agnumber_t agno, xfs_agblock_t agbno, unsigned level,
		     unsigned numrecs, uint64_t left, uint64_t right)
{
	memset(b, 0, BS);
	store_be32(b, ops->magic);
	store_be16(b + 4, level);
	store_be16(b + 6, numrecs);
	if (ops->long_ptrs) {
		struct xfs_btree_lblock *h = (void *)b;

		put_be64(&h->bb_leftsib, left);
		put_be64(&h->bb_rightsib, right);
		put_be64(&h->bb_blkno, blk_daddr(agno, agbno));
		h->bb_uuid = tuuid;
		put_be64(&h->bb_owner, TEST_INO);
	} else {
		struct xfs_btree_sblock *h = (void *)b;

		put_be32(&h->bb_leftsib, (uint32_t)left);
		put_be32(&h->bb_rightsib, (uint32_t)right);
		put_be64(&h->bb_blkno, blk_daddr(agno, agbno));
		h->bb_uuid = tuuid;
		put_be32(&h->bb_owner, agno);
	}
}

static void fix_crc(const struct btree_ops *ops, xfs_agnumber_t agno,
		    xfs_agblock_t agbno)
{
	xfs_cksum_update(blk(agno, agbno), BS, ops->long_ptrs ?
			 XFS_BTREE_LBLOCK_CRC_OFF : XFS_BTREE_SBLOCK_CRC_OFF);
}

static uint64_t ptr_of(const struct btree_ops *ops, xfs_agnumber_t agno,
		       xfs_agblock_t agbno)
{
	return ops->long_ptrs ? agb_to_fsb(&tg, agno, agbno) : agbno;
}

static void store_ptr(const struct btree_ops *ops, uint8_t *p, uint64_t v)
{
	if (ops->long_ptrs)
		store_be64(p, v);
	else
		store_be32(p, (uint32_t)v);
}

static uint8_t *node_key(struct built *t, unsigned level, unsigned blkidx,
			 unsigned i)
{
	return blk(t->agno, t->b[level][blkidx]) + btree_hdr_len(t->ops) +
	       i * slot(t->ops);
}

static uint8_t *node_ptr(struct built *t, unsigned level, unsigned blkidx,
			 unsigned i)
{
	return blk(t->agno, t->b[level][blkidx]) + btree_hdr_len(t->ops) +
	       btree_maxrecs(&tg, t->ops, false) * slot(t->ops) +
	       i * ptrsz(t->ops);
}

static uint8_t *leaf_rec(struct built *t, unsigned blkidx, unsigned i)
{
	return blk(t->agno, t->b[0][blkidx]) + btree_hdr_len(t->ops) +
	       i * t->ops->rec_len;
}

static void max_key(const struct btree_ops *ops, uint8_t *hk, const void *k,
		    bool *have)
{
	if (!*have || ops->cmp_keys(hk, k) < 0)
		memcpy(hk, k, ops->key_len);
	*have = true;
}

/*
 * Lay out a tree of nrecs records, per_leaf to a leaf and per_node to a
 * node, in consecutive blocks from first.  Short trees end in a root
 * block; long trees in an inode root of iroot_size bytes once a level
 * fits in it.
 */
static void build(struct built *t, const struct btree_ops *ops,
		  xfs_agnumber_t agno, const uint8_t *recs, unsigned nrecs,
		  unsigned per_leaf, unsigned per_node, xfs_agblock_t first,
		  size_t iroot_size)
{
	static uint8_t lo[MAXLV][MAXBLK][32], hi[MAXLV][MAXBLK][32];
	xfs_agblock_t next = first;
	uint64_t nullp = ops->long_ptrs ? NULLFSBLOCK : NULLAGBLOCK;
	unsigned level = 0, count;

	memset(t, 0, sizeof(*t));
	t->ops = ops;
	t->agno = agno;
	t->iroot_size = iroot_size;
	count = nrecs ? (nrecs + per_leaf - 1) / per_leaf : 1;
	ck_assert_uint_le(count, MAXBLK);
	for (unsigned j = 0; j < count; j++) {
		unsigned n = nrecs - j * per_leaf;
		bool have = false;

		if (n > per_leaf)
			n = per_leaf;
		if (!nrecs)
			n = 0;
		t->b[0][j] = next++;
		hdr_init(ops, blk(agno, t->b[0][j]), agno, t->b[0][j], 0, n,
			 j ? ptr_of(ops, agno, t->b[0][j] - 1) : nullp,
			 j + 1 < count ? ptr_of(ops, agno, t->b[0][j] + 1) :
					 nullp);
		for (unsigned i = 0; i < n; i++) {
			const uint8_t *r = recs + (size_t)(j * per_leaf + i) *
						  ops->rec_len;
			uint8_t hk[32];

			memcpy(leaf_rec(t, j, i), r, ops->rec_len);
			if (i == 0)
				ops->rec_low_key(r, lo[0][j]);
			if (ops->overlapping) {
				ops->rec_high_key(r, hk);
				max_key(ops, hi[0][j], hk, &have);
			}
		}
	}
	t->n[0] = count;
	for (;;) {
		unsigned cap = btree_maxrecs(&tg, ops, false);
		unsigned up;

		if (ops->long_ptrs) {
			unsigned icap = (iroot_size - 4) /
					(slot(ops) + ptrsz(ops));

			if (count <= icap) {
				/* the inode root: bmdr header, keys, ptrs */
				uint8_t *p = t->iroot;

				store_be16(p, level + 1);
				store_be16(p + 2, count);
				for (unsigned i = 0; i < count; i++) {
					memcpy(p + 4 + i * slot(ops),
					       lo[level][i], ops->key_len);
					store_be64(p + 4 + icap * slot(ops) +
						   i * 8,
						   ptr_of(ops, agno,
							  t->b[level][i]));
				}
				t->levels = level + 2;
				break;
			}
		} else if (count == 1) {
			t->levels = level + 1;
			t->root = t->b[level][0];
			break;
		}
		up = (count + per_node - 1) / per_node;
		for (unsigned j = 0; j < up; j++) {
			unsigned n = count - j * per_node;
			bool have = false;

			if (n > per_node)
				n = per_node;
			t->b[level + 1][j] = next++;
			hdr_init(ops, blk(agno, t->b[level + 1][j]), agno,
				 t->b[level + 1][j], level + 1, n,
				 j ? ptr_of(ops, agno, t->b[level + 1][j] - 1) :
				     nullp,
				 j + 1 < up ? ptr_of(ops, agno,
						     t->b[level + 1][j] + 1) :
					      nullp);
			for (unsigned i = 0; i < n; i++) {
				unsigned c = j * per_node + i;
				uint8_t *b = blk(agno, t->b[level + 1][j]) +
					     btree_hdr_len(ops);

				memcpy(b + i * slot(ops), lo[level][c],
				       ops->key_len);
				if (ops->overlapping) {
					memcpy(b + i * slot(ops) + ops->key_len,
					       hi[level][c], ops->key_len);
					max_key(ops, hi[level + 1][j],
						hi[level][c], &have);
				}
				store_ptr(ops, b + cap * slot(ops) +
					  i * ptrsz(ops),
					  ptr_of(ops, agno, t->b[level][c]));
			}
			memcpy(lo[level + 1][j], lo[level][j * per_node],
			       ops->key_len);
		}
		level++;
		count = up;
		t->n[level] = count;
	}
	for (unsigned l = 0; l < MAXLV; l++)
		for (unsigned j = 0; j < t->n[l]; j++)
			fix_crc(ops, agno, t->b[l][j]);
}

static void rehash(struct built *t)
{
	for (unsigned l = 0; l < MAXLV; l++)
		for (unsigned j = 0; j < t->n[l]; j++)
			fix_crc(t->ops, t->agno, t->b[l][j]);
}

static struct btree_root root_of(const struct built *t)
{
	struct btree_root r = {
		.ops = t->ops, .agno = t->agno, .root = t->root,
		.levels = t->levels, .ino = NULLFSINO,
	};

	if (t->ops->long_ptrs) {
		r.agno = NULLAGNUMBER;
		r.ino = TEST_INO;
		r.iroot = t->iroot;
		r.iroot_size = t->iroot_size;
		r.whichfork = 0;
	}
	return r;
}

/* ---- records ---- */

static uint8_t bno_recs[400 * 8];
static uint8_t t_recs[400 * TREC_LEN];
static uint8_t rmap_recs[120 * 24];
static uint8_t l_recs[200 * 16];

static void make_bno_recs(unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		store_be32(bno_recs + i * 8, 20 + 2 * i);
		store_be32(bno_recs + i * 8 + 4, 1);
	}
}

static void make_t_recs(unsigned n)
{
	memset(t_recs, 0xa5, sizeof(t_recs));
	for (unsigned i = 0; i < n; i++)
		store_be32(t_recs + i * TREC_LEN, 2 * i + 1);
}

static void make_rmap_recs(unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		uint8_t *r = rmap_recs + i * 24;

		store_be32(r, 10 + 3 * i);
		store_be32(r + 4, 2);
		store_be64(r + 8, 256 + 2 * (i % 50));
		store_be64(r + 16, 4 * i);
	}
}

static void make_l_recs(unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		store_be64(l_recs + i * 16, 10 * i);
		store_be64(l_recs + i * 16 + 8, i);
	}
}

struct collect {
	const struct btree_ops	*ops;
	uint64_t		n;
	uint8_t			last[32];
	bool			sorted;
	uint64_t		stop_at;	/* 0: never */
	unsigned		blocks;
};

static int collect_rec(struct btree_walk *w, const void *rec, void *priv)
{
	struct collect *c = priv;
	uint8_t k[32];

	(void)w;
	c->ops->rec_low_key(rec, k);
	if (c->n && c->ops->cmp_keys(c->last, k) >= 0)
		c->sorted = false;
	memcpy(c->last, k, c->ops->key_len);
	c->n++;
	if (c->stop_at && c->n == c->stop_at)
		return 7;
	return 0;
}

static int collect_blk(struct btree_walk *w, unsigned level, xfs_fsblock_t fsb,
		       void *priv)
{
	struct collect *c = priv;

	(void)w;
	(void)level;
	(void)fsb;
	c->blocks++;
	return 0;
}

static int walk_built(struct built *t, struct collect *c,
		      struct btree_stats *st)
{
	struct btree_root r = root_of(t);

	memset(c, 0, sizeof(*c));
	c->ops = t->ops;
	c->sorted = true;
	open_img();
	findings_clear(&fl);
	return btree_walk(tfs, &r, collect_rec, collect_blk, c, &fl, st);
}

/* A 2-level bnobt: 300 records, leaves of 100, a root of 3 pointers. */
static void bno_2level(struct built *t)
{
	make_bno_recs(300);
	build(t, &bnobt_ops, 0, bno_recs, 300, 100, 80, 900, 0);
	ck_assert_uint_eq(t->levels, 2);
	ck_assert_uint_eq(t->n[0], 3);
}

/* ---- capacity ---- */

START_TEST(capacities)
{
	struct fs_sb sb = tsb;
	struct fs_geom g;

	sb.blocksize = 4096;
	sb.blocklog = 12;
	sb.inopblock = 8;
	sb.inopblog = 3;
	geom_init(&g, &sb);
	/* (4096 - 56) / record, / (key + 4 byte pointer) */
	ck_assert_uint_eq(btree_maxrecs(&g, &bnobt_ops, true), 505);
	ck_assert_uint_eq(btree_maxrecs(&g, &bnobt_ops, false), 336);
	ck_assert_uint_eq(btree_maxrecs(&g, &inobt_ops, true), 252);
	ck_assert_uint_eq(btree_maxrecs(&g, &inobt_ops, false), 505);
	ck_assert_uint_eq(btree_maxrecs(&g, &refcountbt_ops, true), 336);
	/* rmapbt nodes hold a low and a high key per pointer */
	ck_assert_uint_eq(btree_maxrecs(&g, &rmapbt_ops, true), 168);
	ck_assert_uint_eq(btree_maxrecs(&g, &rmapbt_ops, false), 91);
	ck_assert_uint_eq(btree_minrecs(&g, &rmapbt_ops, false), 45);
	/* long blocks: 72-byte header */
	ck_assert_uint_eq(btree_maxrecs(&g, &ltest_ops, true), 251);
	ck_assert_uint_eq(btree_maxrecs(&g, &ltest_ops, false), 251);
	/* an inode root: 4-byte header, then 16 bytes a record or key+ptr */
	ck_assert_uint_eq(bmdr_maxrecs(336, true), 20);
	ck_assert_uint_eq(bmdr_maxrecs(336, false), 20);
	ck_assert_uint_eq(bmdr_maxrecs(3, false), 0);
}
END_TEST

START_TEST(maxlevels_follow_geometry)
{
	/* 1024 blocks of 1 KiB: 512 free extents fit in two levels */
	ck_assert_uint_eq(btree_maxlevels(&tg, &bnobt_ops), 2);
	ck_assert_uint_le(btree_maxlevels(&tg, &inobt_ops), XFS_BTREE_MAXLEVELS);
	ck_assert_uint_ge(btree_maxlevels(&tg, &rmapbt_ops), 2);
	ck_assert_uint_eq(btree_maxlevels(&tg, &test_ops), 5);
	{
		struct fs_sb sb = tsb;
		struct fs_geom g;

		/* the largest AG of 1 KiB blocks, rmapbt with reflink */
		sb.agblocks = 1u << 30;
		sb.agblklog = 30;
		sb.dblocks = 2ull << 30;
		sb.features_ro_compat |= XFS_SB_FEAT_RO_COMPAT_REFLINK;
		geom_init(&g, &sb);
		ck_assert_uint_gt(btree_maxlevels(&g, &rmapbt_ops), 9);
		ck_assert_uint_le(btree_maxlevels(&g, &rmapbt_ops), 16);
		ck_assert_uint_le(btree_maxlevels(&g, &bnobt_ops), 9);
	}
}
END_TEST

/* ---- clean trees ---- */

START_TEST(single_leaf)
{
	struct built t;
	struct collect c;
	struct btree_stats st;

	make_bno_recs(50);
	build(&t, &bnobt_ops, 1, bno_recs, 50, 100, 80, 900, 0);
	ck_assert_int_eq(walk_built(&t, &c, &st), 0);
	ASSERT_CLEAN();
	ck_assert_uint_eq(c.n, 50);
	ck_assert(c.sorted);
	ck_assert_uint_eq(st.nrecs, 50);
	ck_assert_uint_eq(st.nblocks, 1);
	ck_assert_uint_eq(st.levels, 1);
	ck_assert_uint_eq(c.blocks, 1);
}
END_TEST

START_TEST(empty_root_leaf)
{
	struct built t;
	struct collect c;
	struct btree_stats st;

	build(&t, &bnobt_ops, 0, bno_recs, 0, 100, 80, 900, 0);
	ck_assert_int_eq(walk_built(&t, &c, &st), 0);
	ASSERT_CLEAN();
	ck_assert_uint_eq(st.nrecs, 0);
	ck_assert_uint_eq(st.nblocks, 1);
}
END_TEST

START_TEST(two_levels)
{
	struct built t;
	struct collect c;
	struct btree_stats st;

	bno_2level(&t);
	ck_assert_int_eq(walk_built(&t, &c, &st), 0);
	ASSERT_CLEAN();
	ck_assert_uint_eq(c.n, 300);
	ck_assert(c.sorted);
	ck_assert_uint_eq(st.nblocks, 4);
	ck_assert_uint_eq(st.levels, 2);
	ck_assert_uint_eq(st.skipped, 0);
}
END_TEST

START_TEST(three_levels)
{
	struct built t;
	struct collect c;
	struct btree_stats st;

	/* 30 records a leaf at most, 26 pointers a node: 15 and 13 each */
	make_t_recs(390);
	build(&t, &test_ops, 0, t_recs, 390, 15, 13, 100, 0);
	ck_assert_uint_eq(t.levels, 3);
	ck_assert_int_eq(walk_built(&t, &c, &st), 0);
	ASSERT_CLEAN();
	ck_assert_uint_eq(c.n, 390);
	ck_assert(c.sorted);
	ck_assert_uint_eq(st.nblocks, 26 + 2 + 1);
	ck_assert_uint_eq(st.levels, 3);
}
END_TEST

START_TEST(overlapping_clean)
{
	struct built t;
	struct collect c;
	struct btree_stats st;

	make_rmap_recs(90);
	build(&t, &rmapbt_ops, 0, rmap_recs, 90, 30, 20, 900, 0);
	ck_assert_uint_eq(t.levels, 2);
	ck_assert_int_eq(walk_built(&t, &c, &st), 0);
	ASSERT_CLEAN();
	ck_assert_uint_eq(c.n, 90);
	ck_assert_uint_eq(st.nblocks, 4);
}
END_TEST

START_TEST(long_ptrs_inode_root)
{
	struct built t;
	struct collect c;
	struct btree_stats st;

	/* 3 leaves of 40; a 64-byte fork root holds 3 pointers */
	make_l_recs(120);
	build(&t, &ltest_ops, 0, l_recs, 120, 40, 40, 700, 64);
	ck_assert_uint_eq(t.levels, 2);
	ck_assert_int_eq(walk_built(&t, &c, &st), 0);
	ASSERT_CLEAN();
	ck_assert_uint_eq(c.n, 120);
	ck_assert(c.sorted);
	/* blocks on disk; the root in the inode is not one */
	ck_assert_uint_eq(st.nblocks, 3);
	ck_assert_uint_eq(c.blocks, 3);
	ck_assert_uint_eq(st.levels, 2);
}
END_TEST

START_TEST(callback_stops_walk)
{
	struct built t;
	struct collect c;
	struct btree_root r;

	bno_2level(&t);
	r = root_of(&t);
	open_img();
	memset(&c, 0, sizeof(c));
	c.ops = &bnobt_ops;
	c.stop_at = 150;
	ck_assert_int_eq(btree_walk(tfs, &r, collect_rec, NULL, &c, &fl, NULL),
			 7);
	ck_assert_uint_eq(c.n, 150);
}
END_TEST

/* ---- order and keys ---- */

START_TEST(records_out_of_order_in_leaf)
{
	struct built t;
	struct collect c;

	bno_2level(&t);
	/* swap records 10 and 11 of the middle leaf */
	store_be32(leaf_rec(&t, 1, 10), 20 + 2 * 111);
	store_be32(leaf_rec(&t, 1, 11), 20 + 2 * 110);
	rehash(&t);
	walk_built(&t, &c, NULL);
	ASSERT_HAS(BTREE_RECS_OUT_OF_ORDER);
	ck_assert_uint_eq(c.n, 300);
}
END_TEST

START_TEST(records_out_of_order_across_leaves)
{
	struct built t;
	struct collect c;

	bno_2level(&t);
	/* the last record of leaf 0 above the first of leaf 1 */
	store_be32(leaf_rec(&t, 0, 99), 20 + 2 * 150);
	rehash(&t);
	walk_built(&t, &c, NULL);
	ASSERT_HAS(BTREE_RECS_OUT_OF_ORDER);
	ck_assert(!HAS(BTREE_BAD_KEY));
}
END_TEST

START_TEST(equal_keys)
{
	struct built t;
	struct collect c;

	/* equal start blocks in a bnobt are out of order ... */
	make_bno_recs(50);
	store_be32(bno_recs + 8, 20);
	build(&t, &bnobt_ops, 0, bno_recs, 50, 100, 80, 900, 0);
	walk_built(&t, &c, NULL);
	ASSERT_HAS(BTREE_RECS_OUT_OF_ORDER);

	/* ... but equal low keys are legal in the overlapping rmapbt */
	setup_geom(XFS_SB_FEAT_RO_COMPAT_RMAPBT | XFS_SB_FEAT_RO_COMPAT_REFLINK,
		   0);
	make_rmap_recs(40);
	memcpy(rmap_recs + 24, rmap_recs, 24);
	store_be64(rmap_recs + 24 + 16, XFS_RMAP_OFF_ATTR_FORK);
	build(&t, &rmapbt_ops, 0, rmap_recs, 40, 40, 20, 900, 0);
	walk_built(&t, &c, NULL);
	ASSERT_CLEAN();
}
END_TEST

START_TEST(node_key_differs_from_child)
{
	struct built t;
	struct collect c;
	const struct fs_finding *f;
	uint32_t was;

	bno_2level(&t);
	was = load_be32(node_key(&t, 1, 0, 1));
	store_be32(node_key(&t, 1, 0, 1), was + 1);
	rehash(&t);
	walk_built(&t, &c, NULL);
	ASSERT_HAS(BTREE_BAD_KEY);
	ck_assert(!HAS(BTREE_KEYS_OUT_OF_ORDER));
	/* the finding names the key field and both values */
	f = first_of(PR_BTREE_BAD_KEY);
	ck_assert_str_eq(f->field, "startblock");
	ck_assert_uint_eq(f->flags, FND_EXPECTED | FND_FOUND);
	ck_assert_uint_eq(f->expected, was);
	ck_assert_uint_eq(f->found, was + 1);
}
END_TEST

START_TEST(node_keys_out_of_order)
{
	struct built t;
	struct collect c;
	uint8_t k[8];

	bno_2level(&t);
	memcpy(k, node_key(&t, 1, 0, 1), 8);
	memcpy(node_key(&t, 1, 0, 1), node_key(&t, 1, 0, 2), 8);
	memcpy(node_key(&t, 1, 0, 2), k, 8);
	rehash(&t);
	walk_built(&t, &c, NULL);
	ASSERT_HAS(BTREE_KEYS_OUT_OF_ORDER);
}
END_TEST

START_TEST(high_key_wrong)
{
	struct built t;
	struct collect c;
	uint8_t *hk;
	const struct fs_finding *f;
	uint32_t was;
	size_t npast = 0;

	/* above the child's highest: loose, nothing hidden */
	make_rmap_recs(90);
	build(&t, &rmapbt_ops, 0, rmap_recs, 90, 30, 20, 900, 0);
	hk = node_key(&t, 1, 0, 1) + sizeof(struct xfs_rmap_key);
	was = load_be32(hk);
	store_be32(hk, was + 1);
	rehash(&t);
	walk_built(&t, &c, NULL);
	ASSERT_HAS(BTREE_LOOSE_HIGH_KEY);
	ck_assert(!HAS(BTREE_BAD_HIGH_KEY));
	ck_assert(!HAS(BTREE_PAST_HIGH_KEY));
	ck_assert(!HAS(BTREE_BAD_KEY));
	f = first_of(PR_BTREE_LOOSE_HIGH_KEY);
	ck_assert_str_eq(f->field, "startblock_hi");
	ck_assert_uint_eq(f->expected, was);
	ck_assert_uint_eq(f->found, was + 1);

	/* below it: bad, and each record past it is named */
	store_be32(hk, was - 1);
	rehash(&t);
	walk_built(&t, &c, NULL);
	ASSERT_HAS(BTREE_BAD_HIGH_KEY);
	ck_assert(!HAS(BTREE_LOOSE_HIGH_KEY));
	f = first_of(PR_BTREE_BAD_HIGH_KEY);
	ck_assert_uint_eq(f->expected, was);
	ck_assert_uint_eq(f->found, was - 1);
	for (size_t i = 0; i < fl.n; i++)
		if (fl.v[i].code == PR_BTREE_PAST_HIGH_KEY) {
			ck_assert_str_eq(fl.v[i].field, "recs");
			npast++;
		}
	ck_assert_uint_ge(npast, 1);
}
END_TEST

/* ---- pointers, loops, levels, counts ---- */

START_TEST(pointer_past_ag)
{
	struct built t;
	struct collect c;
	struct btree_stats st;

	bno_2level(&t);
	store_be32(node_ptr(&t, 1, 0, 1), AGBLOCKS + 5);
	rehash(&t);
	walk_built(&t, &c, &st);
	ASSERT_HAS(BTREE_BAD_PTR);
	/* the walk says it did not see the whole tree */
	ck_assert_uint_eq(st.skipped, 1);
	ck_assert_uint_eq(st.nblocks, 3);
	/* the other two leaves are still walked; no sibling noise */
	ck_assert_uint_eq(c.n, 200);
	ck_assert(!HAS(BTREE_BAD_SIBLING));
}
END_TEST

START_TEST(pointer_into_headers)
{
	struct built t;
	struct collect c;

	bno_2level(&t);
	store_be32(node_ptr(&t, 1, 0, 0), 0);
	rehash(&t);
	walk_built(&t, &c, NULL);
	ASSERT_HAS(BTREE_BAD_PTR);
	ck_assert_uint_eq(c.n, 200);
}
END_TEST

START_TEST(pointer_to_root_is_a_loop)
{
	struct built t;
	struct collect c;

	bno_2level(&t);
	store_be32(node_ptr(&t, 1, 0, 2), t.root);
	rehash(&t);
	walk_built(&t, &c, NULL);
	ASSERT_HAS(BTREE_BLOCK_REVISITED);
	ck_assert_uint_eq(c.n, 200);
}
END_TEST

START_TEST(shared_child)
{
	struct built t;
	struct collect c;

	bno_2level(&t);
	store_be32(node_ptr(&t, 1, 0, 2), t.b[0][1]);
	rehash(&t);
	walk_built(&t, &c, NULL);
	ASSERT_HAS(BTREE_BLOCK_REVISITED);
	ck_assert_uint_eq(c.n, 200);
}
END_TEST

START_TEST(self_loop_deep_tree)
{
	struct built t;
	struct collect c;

	/* every node of a three-level tree points at the root */
	make_t_recs(390);
	build(&t, &test_ops, 0, t_recs, 390, 15, 13, 100, 0);
	for (unsigned j = 0; j < t.n[1]; j++)
		for (unsigned i = 0; i < 13; i++)
			store_be32(node_ptr(&t, 1, j, i), t.root);
	rehash(&t);
	walk_built(&t, &c, NULL);
	ASSERT_HAS(BTREE_BLOCK_REVISITED);
	ck_assert_uint_eq(c.n, 0);
}
END_TEST

START_TEST(child_level_wrong)
{
	struct built t;
	struct collect c;
	struct btree_stats st;

	bno_2level(&t);
	store_be16(blk(0, t.b[0][1]) + 4, 1);
	rehash(&t);
	walk_built(&t, &c, &st);
	ASSERT_HAS(BTREE_BAD_LEVEL);
	ck_assert_uint_eq(st.skipped, 1);
	ck_assert_uint_eq(c.n, 200);
}
END_TEST

START_TEST(numrecs_past_capacity)
{
	struct built t;
	struct collect c;

	/* known tree: the verifier says so; either way nothing is indexed */
	bno_2level(&t);
	store_be16(blk(0, t.b[0][1]) + 6, 60000);
	rehash(&t);
	walk_built(&t, &c, NULL);
	ASSERT_HAS(BTREE_BAD_NUMRECS);
	ck_assert_uint_eq(c.n, 200);

	/* a tree the verifier does not know: the walk says so */
	findings_clear(&fl);
	make_t_recs(60);
	build(&t, &test_ops, 0, t_recs, 60, 20, 13, 100, 0);
	store_be16(blk(0, t.b[0][0]) + 6, 31);
	rehash(&t);
	walk_built(&t, &c, NULL);
	ASSERT_HAS(BTREE_BAD_NUMRECS);
	ck_assert_uint_eq(c.n, 40);
	/* its records unread, the block is the tree's all the same */
	ck_assert_uint_eq(c.blocks, 4);

	/* a root node with no entries */
	findings_clear(&fl);
	bno_2level(&t);
	store_be16(blk(0, t.root) + 6, 0);
	rehash(&t);
	walk_built(&t, &c, NULL);
	ASSERT_HAS(BTREE_BAD_NUMRECS);
}
END_TEST

START_TEST(numrecs_below_minimum)
{
	struct built t;
	struct collect c;

	/* leaves of 100, 100 and 10; a bnobt leaf needs 60 */
	make_bno_recs(210);
	build(&t, &bnobt_ops, 0, bno_recs, 210, 100, 80, 900, 0);
	walk_built(&t, &c, NULL);
	ASSERT_HAS(BTREE_BAD_NUMRECS);
	ck_assert_uint_eq(c.n, 210);
}
END_TEST

START_TEST(siblings_wrong)
{
	struct built t;
	struct collect c;

	bno_2level(&t);
	store_be32(blk(0, t.b[0][0]) + 12, t.b[0][2]);	/* rightsib */
	rehash(&t);
	walk_built(&t, &c, NULL);
	ASSERT_HAS(BTREE_BAD_SIBLING);

	/* a root with a sibling */
	findings_clear(&fl);
	bno_2level(&t);
	store_be32(blk(0, t.root) + 8, t.b[0][0]);	/* leftsib */
	rehash(&t);
	walk_built(&t, &c, NULL);
	ASSERT_HAS(BTREE_BAD_SIBLING);

	/* the last leaf pointing on past the end */
	findings_clear(&fl);
	bno_2level(&t);
	store_be32(blk(0, t.b[0][2]) + 12, 500);
	rehash(&t);
	walk_built(&t, &c, NULL);
	ASSERT_HAS(BTREE_BAD_SIBLING);
}
END_TEST

START_TEST(bad_roots)
{
	struct built t;
	struct btree_root r;

	bno_2level(&t);
	open_img();
	r = root_of(&t);
	r.levels = 30;
	ck_assert_int_eq(btree_walk(tfs, &r, NULL, NULL, NULL, &fl, NULL), 0);
	ASSERT_HAS(BTREE_TOO_DEEP);
	findings_clear(&fl);
	r.levels = 3;	/* more than 1 KiB blocks x 1024 allow */
	btree_walk(tfs, &r, NULL, NULL, NULL, &fl, NULL);
	ASSERT_HAS(BTREE_TOO_DEEP);
	findings_clear(&fl);
	r.levels = 0;
	btree_walk(tfs, &r, NULL, NULL, NULL, &fl, NULL);
	ASSERT_HAS(BTREE_BAD_ROOT);
	findings_clear(&fl);
	r = root_of(&t);
	r.root = AGBLOCKS;
	btree_walk(tfs, &r, NULL, NULL, NULL, &fl, NULL);
	ASSERT_HAS(BTREE_BAD_ROOT);
	findings_clear(&fl);
	r.root = 1;	/* the AGFL's block with 1 KiB blocks */
	btree_walk(tfs, &r, NULL, NULL, NULL, &fl, NULL);
	ASSERT_HAS(BTREE_BAD_ROOT);
	findings_clear(&fl);
	/* a root that says it is a leaf under a 2-level header */
	r = root_of(&t);
	r.root = t.b[0][0];
	btree_walk(tfs, &r, NULL, NULL, NULL, &fl, NULL);
	ASSERT_HAS(BTREE_BAD_LEVEL);
}
END_TEST

/* ---- the block verifier ---- */

static void verify_leaf_after(void (*damage)(uint8_t *b), bool recrc,
			      enum fs_problem code)
{
	struct built t;
	struct collect c;

	make_bno_recs(50);
	build(&t, &bnobt_ops, 1, bno_recs, 50, 100, 80, 900, 0);
	damage(blk(1, t.root));
	if (recrc)
		rehash(&t);
	findings_clear(&fl);
	walk_built(&t, &c, NULL);
	if (!findings_has(&fl, code))
		dump();
	ck_assert_msg(findings_has(&fl, code), "expected %s",
		      problem_info(code)->name);
}

static void d_magic(uint8_t *b) { store_be32(b, XFS_ABTC_CRC_MAGIC); }
static void d_crc(uint8_t *b) { b[100] ^= 1; }
static void d_uuid(uint8_t *b) { b[32] ^= 1; }
static void d_blkno(uint8_t *b) { store_be64(b + 16, 12345); }
static void d_owner(uint8_t *b) { store_be32(b + 48, 0); }
static void d_lsn(uint8_t *b) { store_be64(b + 24, (1ull << 32) | 5000); }
static void d_level(uint8_t *b) { store_be16(b + 4, 9); }
static void d_sib(uint8_t *b) { store_be32(b + 8, 900); }	/* itself */

START_TEST(block_verifier)
{
	verify_leaf_after(d_magic, true, PR_BTREE_BAD_MAGIC);
	verify_leaf_after(d_crc, false, PR_BTREE_BAD_CRC);
	verify_leaf_after(d_uuid, true, PR_BTREE_BAD_UUID);
	verify_leaf_after(d_blkno, true, PR_BTREE_BAD_BLKNO);
	verify_leaf_after(d_owner, true, PR_BTREE_BAD_OWNER);
	verify_leaf_after(d_lsn, true, PR_BTREE_BAD_LSN);
	verify_leaf_after(d_level, true, PR_BTREE_BAD_LEVEL);
	verify_leaf_after(d_sib, true, PR_BTREE_BAD_SIBLING);
}
END_TEST

START_TEST(lsn_plausible)
{
	open_img();
	ck_assert(fs_lsn_plausible(tfs, 0));
	ck_assert(fs_lsn_plausible(tfs, (1ll << 32) | 100));
	ck_assert(!fs_lsn_plausible(tfs, 100));		/* cycle 0 */
	ck_assert(!fs_lsn_plausible(tfs, (3ll << 32) | (LOGBLOCKS * 2)));
	/* never logged: all ones, as the kernel and xfs_repair write it */
	ck_assert(fs_lsn_plausible(tfs, NULLCOMMITLSN));
	ck_assert(!fs_lsn_plausible(tfs, NULLCOMMITLSN - 1));
	ck_assert(!fs_lsn_plausible(tfs, 0xffffffff));	/* cycle 0 */
}
END_TEST

/* ---- long pointers ---- */

START_TEST(long_ptrs_damage)
{
	struct built t;
	struct collect c;
	unsigned icap;

	make_l_recs(120);
	build(&t, &ltest_ops, 0, l_recs, 120, 40, 40, 700, 64);
	icap = (64 - 4) / 16;
	/* a block owned by another inode */
	store_be64(blk(0, t.b[0][1]) + 56, TEST_INO + 1);
	rehash(&t);
	walk_built(&t, &c, NULL);
	ASSERT_HAS(BTREE_BAD_OWNER);

	/* a pointer outside the filesystem */
	findings_clear(&fl);
	build(&t, &ltest_ops, 0, l_recs, 120, 40, 40, 700, 64);
	store_be64(t.iroot + 4 + icap * 8 + 8, 1ull << 40);
	walk_built(&t, &c, NULL);
	ASSERT_HAS(BTREE_BAD_PTR);
	ck_assert_uint_eq(c.n, 80);

	/* more entries in the inode root than it can hold */
	findings_clear(&fl);
	build(&t, &ltest_ops, 0, l_recs, 120, 40, 40, 700, 64);
	store_be16(t.iroot + 2, icap + 1);
	walk_built(&t, &c, NULL);
	ASSERT_HAS(BTREE_BAD_NUMRECS);
	ck_assert_uint_eq(c.n, 0);

	/* an inode root taller than the format allows */
	findings_clear(&fl);
	build(&t, &ltest_ops, 0, l_recs, 120, 40, 40, 700, 64);
	store_be16(t.iroot, 40);
	walk_built(&t, &c, NULL);
	ASSERT_HAS(BTREE_TOO_DEEP);

	/* the block verifier on a long block */
	findings_clear(&fl);
	build(&t, &ltest_ops, 0, l_recs, 120, 40, 40, 700, 64);
	blk(0, t.b[0][0])[200] ^= 0xff;
	walk_built(&t, &c, NULL);
	ASSERT_HAS(BTREE_BAD_CRC);
}
END_TEST

START_TEST(long_ptrs_single_child_root)
{
	struct built t;
	struct collect c;

	/* one leaf of 10 under the inode root: legal below minrecs */
	make_l_recs(10);
	build(&t, &ltest_ops, 0, l_recs, 10, 40, 40, 700, 20);
	ck_assert_uint_eq(t.levels, 2);
	walk_built(&t, &c, NULL);
	ASSERT_CLEAN();
	ck_assert_uint_eq(c.n, 10);
}
END_TEST

/* ---- lookups ---- */

START_TEST(lookup_le)
{
	struct built t;
	struct btree_root r;
	uint8_t key[32], rec[32];

	bno_2level(&t);
	open_img();
	r = root_of(&t);
	memset(key, 0, sizeof(key));
	store_be32(key, 20 + 2 * 150);		/* exact */
	ck_assert_int_eq(btree_lookup_le(tfs, &r, key, rec, &fl), 1);
	ck_assert_uint_eq(load_be32(rec), 20 + 2 * 150);
	store_be32(key, 20 + 2 * 150 + 1);	/* between */
	ck_assert_int_eq(btree_lookup_le(tfs, &r, key, rec, &fl), 1);
	ck_assert_uint_eq(load_be32(rec), 20 + 2 * 150);
	store_be32(key, 20 + 2 * 99 + 1);	/* last of the first leaf */
	ck_assert_int_eq(btree_lookup_le(tfs, &r, key, rec, &fl), 1);
	ck_assert_uint_eq(load_be32(rec), 20 + 2 * 99);
	store_be32(key, 5);			/* below every record */
	ck_assert_int_eq(btree_lookup_le(tfs, &r, key, rec, &fl), 0);
	store_be32(key, 100000);		/* above every record */
	ck_assert_int_eq(btree_lookup_le(tfs, &r, key, rec, &fl), 1);
	ck_assert_uint_eq(load_be32(rec), 20 + 2 * 299);

	/* three levels */
	make_t_recs(390);
	build(&t, &test_ops, 0, t_recs, 390, 15, 13, 100, 0);
	open_img();
	r = root_of(&t);
	store_be32(key, 2 * 200 + 2);
	ck_assert_int_eq(btree_lookup_le(tfs, &r, key, rec, &fl), 1);
	ck_assert_uint_eq(load_be32(rec), 2 * 200 + 1);

	/* inode root */
	make_l_recs(120);
	build(&t, &ltest_ops, 0, l_recs, 120, 40, 40, 700, 64);
	open_img();
	r = root_of(&t);
	store_be64(key, 555);
	ck_assert_int_eq(btree_lookup_le(tfs, &r, key, rec, &fl), 1);
	ck_assert_uint_eq(load_be64(rec), 550);

	/* a damaged path gives an error, not a wild read */
	bno_2level(&t);
	store_be32(node_ptr(&t, 1, 0, 2), 60000);
	rehash(&t);
	open_img();
	r = root_of(&t);
	store_be32(key, 100000);
	ck_assert_int_lt(btree_lookup_le(tfs, &r, key, rec, &fl), 0);
}
END_TEST

/* ---- per-record checks of the AG trees ---- */

static void check_rec(const struct btree_ops *ops, const void *rec,
		      const void *prev)
{
	struct btree_root root = { .ops = ops, .agno = 0, .ino = NULLFSINO };
	struct btree_walk w = {
		.fs = tfs, .root = &root, .obj = OBJREF_INIT(ops->objtype),
		.prev_rec = prev,
	};

	findings_clear(&fl);
	ops->check_rec(&w, rec, &fl);
}

static void alloc_rec(uint8_t *r, uint32_t start, uint32_t len)
{
	store_be32(r, start);
	store_be32(r + 4, len);
}

START_TEST(alloc_records)
{
	uint8_t r[8], p[8];

	open_img();
	alloc_rec(r, 100, 10);
	check_rec(&bnobt_ops, r, NULL);
	ASSERT_CLEAN();
	check_rec(&cntbt_ops, r, NULL);
	ASSERT_CLEAN();
	alloc_rec(r, 1, 5);			/* in the headers */
	check_rec(&bnobt_ops, r, NULL);
	ASSERT_HAS(ALLOC_BAD_EXTENT);
	alloc_rec(r, AGBLOCKS - 4, 5);		/* past the end */
	check_rec(&cntbt_ops, r, NULL);
	ASSERT_HAS(ALLOC_BAD_EXTENT);
	alloc_rec(r, 100, 0);
	check_rec(&bnobt_ops, r, NULL);
	ASSERT_HAS(ALLOC_BAD_EXTENT);
	alloc_rec(p, 95, 10);
	alloc_rec(r, 100, 10);
	check_rec(&bnobt_ops, r, p);
	ASSERT_HAS(ALLOC_OVERLAP);
	alloc_rec(p, 90, 10);			/* adjacent is not overlap */
	check_rec(&bnobt_ops, r, p);
	ASSERT_CLEAN();
}
END_TEST

static void ino_rec(uint8_t *r, xfs_agino_t start, uint16_t holemask,
		    uint8_t count, uint8_t freecount, uint64_t free)
{
	memset(r, 0, 16);
	store_be32(r, start);
	if (tg.has_sparse) {
		store_be16(r + 4, holemask);
		r[6] = count;
		r[7] = freecount;
	} else {
		store_be32(r + 4, freecount);
	}
	store_be64(r + 8, free);
}

START_TEST(inobt_records)
{
	uint8_t r[16];

	/* 2 inodes a block, chunks of 32 blocks aligned to 32 */
	open_img();
	ino_rec(r, 128, 0, 0, 2, 0x3);
	check_rec(&inobt_ops, r, NULL);
	ASSERT_CLEAN();
	ino_rec(r, 128, 0, 0, 3, 0x3);
	check_rec(&inobt_ops, r, NULL);
	ASSERT_HAS(INOBT_BAD_FREECOUNT);
	ino_rec(r, 160, 0, 0, 0, 0);		/* agbno 80: not aligned */
	check_rec(&inobt_ops, r, NULL);
	ASSERT_HAS(INOBT_BAD_STARTINO);
	ino_rec(r, 0, 0, 0, 0, 0);		/* in the headers */
	check_rec(&inobt_ops, r, NULL);
	ASSERT_HAS(INOBT_BAD_STARTINO);
	ino_rec(r, 2 * AGBLOCKS - 32, 0, 0, 0, 0);	/* runs off the AG */
	check_rec(&inobt_ops, r, NULL);
	ASSERT_HAS(INOBT_BAD_STARTINO);
	ino_rec(r, 128, 0, 0, 0, 0);		/* finobt: nothing free */
	check_rec(&finobt_ops, r, NULL);
	ASSERT_HAS(FINOBT_NO_FREE);
}
END_TEST

START_TEST(inobt_sparse_records)
{
	uint8_t r[16];
	const uint64_t top = 0xffffffff00000000ull;

	/* clusters of 32 inodes: holes come in 8 holemask bits */
	setup_geom(XFS_SB_FEAT_RO_COMPAT_FINOBT, XFS_SB_FEAT_INCOMPAT_SPINODES);
	ck_assert_uint_eq(tg.inodes_per_cluster, 32);
	open_img();
	ino_rec(r, 128, 0xff00, 32, 1, top | 1);
	check_rec(&inobt_ops, r, NULL);
	ASSERT_CLEAN();
	check_rec(&finobt_ops, r, NULL);
	ASSERT_CLEAN();
	ino_rec(r, 128, 0xff00, 33, 1, top | 1);
	check_rec(&inobt_ops, r, NULL);
	ASSERT_HAS(INOBT_BAD_COUNT);
	ino_rec(r, 128, 0xff00, 32, 1, 1);	/* holes not marked free */
	check_rec(&inobt_ops, r, NULL);
	ASSERT_HAS(INOBT_HOLE_NOT_FREE);
	ino_rec(r, 128, 0xff00, 32, 2, top | 1);
	check_rec(&inobt_ops, r, NULL);
	ASSERT_HAS(INOBT_BAD_FREECOUNT);
	ino_rec(r, 128, 0x0f00, 48, 0, 0xffff0000ull << 16);	/* half a cluster */
	check_rec(&inobt_ops, r, NULL);
	ASSERT_HAS(INOBT_BAD_HOLEMASK);
	ino_rec(r, 128, 0xffff, 0, 0, ~0ull);	/* no inode at all */
	check_rec(&inobt_ops, r, NULL);
	ASSERT_HAS(INOBT_BAD_HOLEMASK);
	ino_rec(r, 128, 0xff00, 32, 0, top);	/* finobt: only holes free */
	check_rec(&finobt_ops, r, NULL);
	ASSERT_HAS(FINOBT_NO_FREE);
}
END_TEST

static void rmap_rec(uint8_t *r, uint32_t start, uint32_t len, uint64_t owner,
		     uint64_t off)
{
	store_be32(r, start);
	store_be32(r + 4, len);
	store_be64(r + 8, owner);
	store_be64(r + 16, off);
}

#define RMAP_EXPECT(start, len, owner, off, code) do { \
		rmap_rec(r, start, len, owner, off); \
		check_rec(&rmapbt_ops, r, NULL); \
		ASSERT_HAS(code); \
	} while (0)

START_TEST(rmap_records)
{
	uint8_t r[24], p[24];

	open_img();
	rmap_rec(r, 100, 5, 256, 10);
	check_rec(&rmapbt_ops, r, NULL);
	ASSERT_CLEAN();
	rmap_rec(r, 0, 2, XFS_RMAP_OWN_FS, 0);
	check_rec(&rmapbt_ops, r, NULL);
	ASSERT_CLEAN();
	rmap_rec(r, 100, 1, 256, XFS_RMAP_OFF_BMBT_BLOCK);
	check_rec(&rmapbt_ops, r, NULL);
	ASSERT_CLEAN();
	rmap_rec(r, 100, 1, 256, XFS_RMAP_OFF_ATTR_FORK | 7);
	check_rec(&rmapbt_ops, r, NULL);
	ASSERT_CLEAN();
	RMAP_EXPECT(5, 3, XFS_RMAP_OWN_FS, 0, RMAP_BAD_EXTENT);
	RMAP_EXPECT(1, 3, 256, 0, RMAP_BAD_EXTENT);
	RMAP_EXPECT(AGBLOCKS - 1, 3, 256, 0, RMAP_BAD_EXTENT);
	RMAP_EXPECT(100, 0, 256, 0, RMAP_BAD_EXTENT);
	RMAP_EXPECT(100, 1, 5ull << 11, 0, RMAP_BAD_OWNER);
	RMAP_EXPECT(100, 1, XFS_RMAP_OWN_UNKNOWN, 0, RMAP_BAD_OWNER);
	RMAP_EXPECT(100, 1, XFS_RMAP_OWN_NULL, 0, RMAP_BAD_OWNER);
	RMAP_EXPECT(100, 1, XFS_RMAP_OWN_COW, 0, RMAP_BAD_OWNER);
	RMAP_EXPECT(100, 1, XFS_RMAP_OWN_AG, 5, RMAP_BAD_OFFSET);
	RMAP_EXPECT(100, 1, XFS_RMAP_OWN_AG, XFS_RMAP_OFF_ATTR_FORK,
		    RMAP_BAD_FLAGS);
	RMAP_EXPECT(100, 1, XFS_RMAP_OWN_INOBT, XFS_RMAP_OFF_UNWRITTEN,
		    RMAP_BAD_FLAGS);
	RMAP_EXPECT(100, 1, 256, XFS_RMAP_OFF_BMBT_BLOCK | 3, RMAP_BAD_OFFSET);
	RMAP_EXPECT(100, 1, 256, XFS_RMAP_OFF_BMBT_BLOCK |
		    XFS_RMAP_OFF_UNWRITTEN, RMAP_BAD_FLAGS);
	RMAP_EXPECT(100, 1, 256, XFS_RMAP_OFF_ATTR_FORK |
		    XFS_RMAP_OFF_UNWRITTEN, RMAP_BAD_FLAGS);
	RMAP_EXPECT(100, 1, 256, 1ull << 58, RMAP_BAD_FLAGS);
	RMAP_EXPECT(100, 5, 256, XFS_RMAP_OFF_MASK - 2, RMAP_BAD_OFFSET);
	/* overlap: an error without reflink only */
	rmap_rec(p, 98, 5, 258, 0);
	rmap_rec(r, 100, 5, 256, 0);
	check_rec(&rmapbt_ops, r, p);
	ASSERT_HAS(RMAP_OVERLAP);
	setup_geom(XFS_SB_FEAT_RO_COMPAT_RMAPBT | XFS_SB_FEAT_RO_COMPAT_REFLINK,
		   0);
	open_img();
	check_rec(&rmapbt_ops, r, p);
	ASSERT_CLEAN();
	rmap_rec(r, 100, 1, XFS_RMAP_OWN_COW, 0);
	check_rec(&rmapbt_ops, r, NULL);
	ASSERT_CLEAN();
}
END_TEST

static void refc_rec(uint8_t *r, uint32_t start, uint32_t len, uint32_t refc)
{
	store_be32(r, start);
	store_be32(r + 4, len);
	store_be32(r + 8, refc);
}

START_TEST(refcount_records)
{
	uint8_t r[12], p[12];

	setup_geom(XFS_SB_FEAT_RO_COMPAT_RMAPBT | XFS_SB_FEAT_RO_COMPAT_REFLINK,
		   0);
	open_img();
	refc_rec(r, 100, 5, 2);
	check_rec(&refcountbt_ops, r, NULL);
	ASSERT_CLEAN();
	refc_rec(r, XFS_REFC_COWFLAG | 100, 5, 1);
	check_rec(&refcountbt_ops, r, NULL);
	ASSERT_CLEAN();
	refc_rec(r, 100, 5, 1);			/* shared needs two */
	check_rec(&refcountbt_ops, r, NULL);
	ASSERT_HAS(REFC_BAD_REFCOUNT);
	refc_rec(r, XFS_REFC_COWFLAG | 100, 5, 2);	/* staging has one */
	check_rec(&refcountbt_ops, r, NULL);
	ASSERT_HAS(REFC_BAD_REFCOUNT);
	refc_rec(r, 100, 0, 2);
	check_rec(&refcountbt_ops, r, NULL);
	ASSERT_HAS(REFC_BAD_EXTENT);
	refc_rec(r, AGBLOCKS - 2, 5, 2);
	check_rec(&refcountbt_ops, r, NULL);
	ASSERT_HAS(REFC_BAD_EXTENT);
	refc_rec(p, 98, 5, 2);
	refc_rec(r, 100, 5, 3);
	check_rec(&refcountbt_ops, r, p);
	ASSERT_HAS(REFC_OVERLAP);
	/* different domains never overlap */
	refc_rec(r, XFS_REFC_COWFLAG | 100, 5, 1);
	check_rec(&refcountbt_ops, r, p);
	ASSERT_CLEAN();
}
END_TEST

/* ---- AG headers ---- */

static void good_agf(uint8_t *s, xfs_agnumber_t agno)
{
	struct fs_agf a = {
		.magicnum = XFS_AGF_MAGIC, .versionnum = 1, .seqno = agno,
		.length = AGBLOCKS, .roots = { 3, 4, 5 }, .levels = { 1, 1, 1 },
		.flfirst = 0, .fllast = 3, .flcount = 4, .freeblks = 1000,
		.longest = 900, .uuid = tuuid, .rmap_blocks = 1,
	};

	memset(s, 0, 512);
	agf_encode(&a, (void *)s);
	xfs_cksum_update(s, 512, XFS_AGF_CRC_OFF);
}

#define AGF_FIELD(off, val, code) do { \
		good_agf(s, 1); \
		store_be32(s + (off), (val)); \
		xfs_cksum_update(s, 512, XFS_AGF_CRC_OFF); \
		findings_clear(&fl); \
		ck_assert_uint_gt(agf_verify(tfs, 1, s, 512, &fl), 0); \
		ASSERT_HAS(code); \
	} while (0)

START_TEST(agf_verifier)
{
	uint8_t s[512];
	unsigned n;

	open_img();
	n = agfl_size(&tg);
	ck_assert_uint_eq(n, (512 - 36) / 4);
	good_agf(s, 1);
	ck_assert_uint_eq(agf_verify(tfs, 1, s, 512, &fl), 0);
	ASSERT_CLEAN();
	AGF_FIELD(0, 0, AGF_BAD_MAGIC);
	ck_assert_uint_eq(fl.n, 1);		/* and nothing else */
	AGF_FIELD(4, 2, AGF_BAD_VERSION);
	AGF_FIELD(8, 0, AGF_BAD_SEQNO);
	AGF_FIELD(12, AGBLOCKS - 1, AGF_BAD_LENGTH);
	AGF_FIELD(16, 0, AGF_BAD_ROOT);			/* bnoroot */
	AGF_FIELD(20, AGBLOCKS, AGF_BAD_ROOT);		/* cntroot */
	AGF_FIELD(24, 1, AGF_BAD_ROOT);			/* rmaproot */
	AGF_FIELD(28, 0, AGF_BAD_LEVEL);		/* bnolevel */
	AGF_FIELD(32, 9, AGF_BAD_LEVEL);
	AGF_FIELD(40, n, AGF_BAD_FREELIST);		/* flfirst */
	AGF_FIELD(44, n + 7, AGF_BAD_FREELIST);		/* fllast */
	AGF_FIELD(48, 3, AGF_BAD_FREELIST);		/* flcount */
	AGF_FIELD(52, AGBLOCKS + 1, AGF_BAD_FREEBLKS);
	AGF_FIELD(56, 1001, AGF_BAD_LONGEST);
	AGF_FIELD(64, 5, AGF_BAD_UUID);
	AGF_FIELD(80, 0, AGF_BAD_COUNTERS);		/* rmap_blocks */
	/* the CRC, and an LSN past the log */
	good_agf(s, 1);
	s[300] ^= 1;
	findings_clear(&fl);
	agf_verify(tfs, 1, s, 512, &fl);
	ASSERT_HAS(AGF_BAD_CRC);
	good_agf(s, 1);
	store_be64(s + offsetof(struct xfs_agf, agf_lsn),
		   (1ull << 32) | (LOGBLOCKS * 4));
	xfs_cksum_update(s, 512, XFS_AGF_CRC_OFF);
	findings_clear(&fl);
	/* a warning, not an error: the header stays usable */
	ck_assert_uint_eq(agf_verify(tfs, 1, s, 512, &fl), 0);
	ASSERT_HAS(AGF_BAD_LSN);
	ck_assert_uint_eq(fl.nerrors, 0);
	/* a free list that wraps round the end of the AGFL is fine */
	good_agf(s, 1);
	store_be32(s + 40, n - 2);
	store_be32(s + 44, 1);
	xfs_cksum_update(s, 512, XFS_AGF_CRC_OFF);
	findings_clear(&fl);
	ck_assert_uint_eq(agf_verify(tfs, 1, s, 512, &fl), 0);
}
END_TEST

static int agfl_order(xfs_agnumber_t agno, unsigned idx, xfs_agblock_t agbno,
		      void *priv)
{
	unsigned *seen = priv;

	(void)agno;
	ck_assert_uint_eq(agbno, 1000 + idx);
	seen[seen[0]++ + 1] = idx;
	return 0;
}

START_TEST(agfl_wraps)
{
	uint8_t sect[512];
	struct fs_agf a = { .flcount = 4 };
	unsigned n = agfl_size(&tg), seen[8] = { 0 }, active;
	be32 *ent = (be32 *)(sect + XFS_AGFL_HDR_SIZE);

	for (unsigned i = 0; i < n; i++)
		put_be32(&ent[i], 1000 + i);
	a.flfirst = n - 2;
	a.fllast = 1;
	ck_assert(agf_freelist_ok(&tg, &a, &active));
	ck_assert_uint_eq(active, 4);
	agfl_walk(&tg, 0, &a, sect, agfl_order, seen);
	ck_assert_uint_eq(seen[0], 4);
	ck_assert_uint_eq(seen[1], n - 2);
	ck_assert_uint_eq(seen[2], n - 1);
	ck_assert_uint_eq(seen[3], 0);
	ck_assert_uint_eq(seen[4], 1);
	a.flcount = 3;
	ck_assert(!agf_freelist_ok(&tg, &a, &active));
	/* a wrong count: the list is still flfirst..fllast */
	ck_assert_uint_eq(agfl_span(&tg, &a), 4);
	seen[0] = 0;
	agfl_walk(&tg, 0, &a, sect, agfl_order, seen);
	ck_assert_uint_eq(seen[0], 4);
	ck_assert_uint_eq(seen[4], 1);
	a.flcount = 0;		/* an empty list: the indexes do not matter */
	ck_assert(agf_freelist_ok(&tg, &a, &active));
	ck_assert_uint_eq(agfl_span(&tg, &a), 0);
	a.flcount = 4;
	a.fllast = n;		/* an index outside the AGFL: nothing */
	ck_assert_uint_eq(agfl_span(&tg, &a), 0);
}
END_TEST

static void good_agi(uint8_t *s, xfs_agnumber_t agno)
{
	struct fs_agi a = {
		.magicnum = XFS_AGI_MAGIC, .versionnum = 1, .seqno = agno,
		.length = AGBLOCKS, .count = 64, .root = 6, .level = 1,
		.freecount = 60, .newino = 128, .dirino = NULLAGINO,
		.uuid = tuuid, .free_root = 7, .free_level = 1,
	};

	for (int i = 0; i < XFS_AGI_UNLINKED_BUCKETS; i++)
		a.unlinked[i] = NULLAGINO;
	memset(s, 0, 512);
	agi_encode(&a, (void *)s);
	xfs_cksum_update(s, 512, XFS_AGI_CRC_OFF);
}

#define AGI_FIELD(off, val, code) do { \
		good_agi(s, 1); \
		store_be32(s + (off), (val)); \
		xfs_cksum_update(s, 512, XFS_AGI_CRC_OFF); \
		findings_clear(&fl); \
		agi_verify(tfs, 1, s, 512, &fl); \
		ASSERT_HAS(code); \
	} while (0)

START_TEST(agi_verifier)
{
	uint8_t s[512];

	open_img();
	good_agi(s, 1);
	ck_assert_uint_eq(agi_verify(tfs, 1, s, 512, &fl), 0);
	ASSERT_CLEAN();
	AGI_FIELD(0, 0, AGI_BAD_MAGIC);
	AGI_FIELD(4, 0, AGI_BAD_VERSION);
	AGI_FIELD(8, 0, AGI_BAD_SEQNO);
	AGI_FIELD(12, 5, AGI_BAD_LENGTH);
	AGI_FIELD(16, AGBLOCKS * 2 + 64, AGI_BAD_COUNT);	/* count */
	AGI_FIELD(20, 1, AGI_BAD_ROOT);
	AGI_FIELD(24, 10, AGI_BAD_LEVEL);
	AGI_FIELD(28, 65, AGI_BAD_COUNT);			/* freecount */
	AGI_FIELD(32, 1u << 20, AGI_BAD_NEWINO);
	AGI_FIELD(36, 128, AGI_BAD_DIRINO);
	AGI_FIELD(40 + 4 * 3, (1u << 20) + 3, AGI_BAD_UNLINKED);
	/* the inode in bucket 3 must be 3 mod 64 */
	good_agi(s, 1);
	store_be32(s + 40 + 4 * 3, 128 + 4);
	xfs_cksum_update(s, 512, XFS_AGI_CRC_OFF);
	findings_clear(&fl);
	agi_verify(tfs, 1, s, 512, &fl);
	ASSERT_HAS(AGI_BAD_UNLINKED);
	AGI_FIELD(offsetof(struct xfs_agi, agi_free_root), AGBLOCKS + 1,
		  AGI_BAD_ROOT);
	/* inobtcount: the block counters include the roots */
	setup_geom(XFS_SB_FEAT_RO_COMPAT_FINOBT | XFS_SB_FEAT_RO_COMPAT_INOBTCNT,
		   0);
	open_img();
	AGI_FIELD(offsetof(struct xfs_agi, agi_iblocks), 0,
		  AGI_BAD_BTREE_BLOCKS);
}
END_TEST

START_TEST(agfl_verifier)
{
	uint8_t s[512];
	struct xfs_agfl *h = (void *)s;
	be32 *ent = (be32 *)(s + XFS_AGFL_HDR_SIZE);

	open_img();
	memset(s, 0xff, sizeof(s));
	put_be32(&h->agfl_magicnum, XFS_AGFL_MAGIC);
	put_be32(&h->agfl_seqno, 1);
	h->agfl_uuid = tuuid;
	put_be64(&h->agfl_lsn, 0);
	put_be32(&ent[0], 10);
	xfs_cksum_update(s, 512, XFS_AGFL_CRC_OFF);
	ck_assert_uint_eq(agfl_verify(tfs, 1, s, 512, &fl), 0);
	ASSERT_CLEAN();
	put_be32(&ent[5], AGBLOCKS);
	xfs_cksum_update(s, 512, XFS_AGFL_CRC_OFF);
	agfl_verify(tfs, 1, s, 512, &fl);
	ASSERT_HAS(AGFL_BAD_ENTRY);
	findings_clear(&fl);
	agfl_verify(tfs, 0, s, 512, &fl);
	ASSERT_HAS(AGFL_BAD_SEQNO);
	findings_clear(&fl);
	s[100] ^= 1;
	agfl_verify(tfs, 1, s, 512, &fl);
	ASSERT_HAS(AGFL_BAD_CRC);
	findings_clear(&fl);
	put_be32(&h->agfl_magicnum, 0);
	agfl_verify(tfs, 1, s, 512, &fl);
	ASSERT_HAS(AGFL_BAD_MAGIC);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("btree");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, capacities);
	tcase_add_test(tc, maxlevels_follow_geometry);
	tcase_add_test(tc, single_leaf);
	tcase_add_test(tc, empty_root_leaf);
	tcase_add_test(tc, two_levels);
	tcase_add_test(tc, three_levels);
	tcase_add_test(tc, overlapping_clean);
	tcase_add_test(tc, long_ptrs_inode_root);
	tcase_add_test(tc, callback_stops_walk);
	tcase_add_test(tc, records_out_of_order_in_leaf);
	tcase_add_test(tc, records_out_of_order_across_leaves);
	tcase_add_test(tc, equal_keys);
	tcase_add_test(tc, node_key_differs_from_child);
	tcase_add_test(tc, node_keys_out_of_order);
	tcase_add_test(tc, high_key_wrong);
	tcase_add_test(tc, pointer_past_ag);
	tcase_add_test(tc, pointer_into_headers);
	tcase_add_test(tc, pointer_to_root_is_a_loop);
	tcase_add_test(tc, shared_child);
	tcase_add_test(tc, self_loop_deep_tree);
	tcase_add_test(tc, child_level_wrong);
	tcase_add_test(tc, numrecs_past_capacity);
	tcase_add_test(tc, numrecs_below_minimum);
	tcase_add_test(tc, siblings_wrong);
	tcase_add_test(tc, bad_roots);
	tcase_add_test(tc, block_verifier);
	tcase_add_test(tc, lsn_plausible);
	tcase_add_test(tc, long_ptrs_damage);
	tcase_add_test(tc, long_ptrs_single_child_root);
	tcase_add_test(tc, lookup_le);
	tcase_add_test(tc, alloc_records);
	tcase_add_test(tc, inobt_records);
	tcase_add_test(tc, inobt_sparse_records);
	tcase_add_test(tc, rmap_records);
	tcase_add_test(tc, refcount_records);
	tcase_add_test(tc, agf_verifier);
	tcase_add_test(tc, agfl_wraps);
	tcase_add_test(tc, agi_verifier);
	tcase_add_test(tc, agfl_verifier);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
