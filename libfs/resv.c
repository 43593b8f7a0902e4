/*
 * Log reservations and the minimum log size (see resv.h).
 *
 * The model: every transaction type reserves room for the buffers and
 * inodes it may log.  A logged buffer costs its size plus 128 bytes of
 * log-item overhead (op header and buf log format, rounded up to 128 as
 * the historical figure); a logged inode costs four op headers, the
 * inode log format, the inode and two long-form btree block headers.
 * Btree changes are priced at the trees' worst-case heights, which
 * depend on the block size and the AG size.  The minimum log holds
 * three times the largest (unit size x operation count), in basic
 * blocks, plus padding.
 *
 * Every constant below is a size of an on-disk or in-log structure
 * (xfs_log_format.h, xfs_format.h) or a count the kernel uses; each is
 * named where it is used.
 */
#include "config.h"
#include "format/log.h"
#include "resv.h"

/* Sizes of log structures (xfs_log_format.h, xfs_format.h). */
#define OP_HDR		12	/* struct xlog_op_header */
#define TRANS_HDR	16	/* struct xfs_trans_header */
#define INODE_LOG_FMT	56	/* struct xfs_inode_log_format */
#define BUF_OVERHEAD	128	/* op header + buf log format, rounded */
#define DQUOT_LOGRES	((24 + 104) * 6) /* 6 x (dq_logformat + dquot) */
#define DISK_DQUOT	104	/* struct xfs_disk_dquot */
#define SBLOCK_HDR	56	/* short btree block header, v5 */
#define LBLOCK_HDR	72	/* long btree block header, v5 */
#define BMDR_HDR	4	/* struct xfs_bmdr_block */
#define DA_NODE_MAXDEPTH 5	/* XFS_DA_NODE_MAXDEPTH */
#define SYMLINK_MAXLEN	1024
#define MAXNAMELEN	256
#define MAX_BMBT_EXTLEN	((1u << 21) - 1)
#define MIN_LOG_FACTOR	3
/* rmapbt height the first reflink filesystems always assumed */
#define OLD_REFLINK_RMAP_LEVELS	9
/* operation counts the first reflink filesystems reserved */
#define REFLINK_WRITE_COUNT	8
#define REFLINK_TRUNC_COUNT	8

struct ctx {
	const struct resv_geom *g;
	uint32_t	bs, ss;
	struct resv_levels lv;
	unsigned	alloc_contig;	/* leaf maxrecs - minrecs, bnobt */
	unsigned	dir_fsbs;	/* fs blocks per directory block */
	uint32_t	ialloc_blks;	/* blocks of an inode chunk */
	uint32_t	cluster_bytes;	/* inode cluster buffer */
};

static inline uint32_t max2(uint32_t a, uint32_t b)
{
	return a > b ? a : b;
}

static inline uint32_t max3(uint32_t a, uint32_t b, uint32_t c)
{
	return max2(max2(a, b), c);
}

static inline uint64_t div_up(uint64_t a, uint64_t b)
{
	return (a + b - 1) / b;
}

static unsigned log2_of(uint32_t v)
{
	unsigned l = 0;

	while ((1u << (l + 1)) <= v)
		l++;
	return l;
}

/* Height of a tree holding recs records at minimum fill. */
static unsigned height_for_records(unsigned leaf_min, unsigned node_min,
				   uint64_t recs)
{
	uint64_t blocks = div_up(recs, leaf_min);
	unsigned h = 1;

	while (blocks > 1) {
		blocks = div_up(blocks, node_min);
		h++;
	}
	return h;
}

/* Height of a tree that could fill leaf_blocks blocks with nodes. */
static unsigned height_for_space(unsigned node_min, uint64_t leaf_blocks)
{
	uint64_t nodes = node_min, left = leaf_blocks - 1;
	unsigned h = 1;

	if (!leaf_blocks)
		return 0;
	while (nodes < left) {
		left -= nodes;
		nodes *= node_min;
		h++;
	}
	return h;
}

/* Height of an inode fork's bmap btree (root in the inode). */
static unsigned bmap_height(uint32_t bs, uint64_t max_extents,
			    unsigned root_ptrs)
{
	unsigned leaf_min = (bs - LBLOCK_HDR) / 16 / 2;
	unsigned node_min = (bs - LBLOCK_HDR) / 16 / 2;
	unsigned root_recs = root_ptrs;		/* 16-byte key + ptr each */
	uint64_t blocks = div_up(max_extents, leaf_min);
	unsigned level;

	for (level = 1; blocks > 1; level++)
		blocks = blocks <= root_recs ? 1 : div_up(blocks, node_min);
	return level;
}

void resv_levels(const struct resv_geom *g, struct resv_levels *lv)
{
	uint32_t bs = g->blocksize;
	unsigned sblk = bs - SBLOCK_HDR;
	unsigned inopblog = log2_of(bs / g->inodesize);
	uint64_t inode_chunks;

	/* free space: 8-byte records, 8-byte keys + 4-byte pointers */
	lv->alloc = height_for_records(sblk / 8 / 2, sblk / 12 / 2,
				       (g->agblocks + 1) / 2);
	/* inodes: 16-byte records, 4-byte keys + 4-byte pointers */
	inode_chunks = (1ull << (inopblog + g->agblklog)) >> 6;
	lv->inobt = height_for_records(sblk / 16 / 2, sblk / 8 / 2,
				       inode_chunks);
	/* reverse map: 24-byte records, two 20-byte keys + pointer */
	lv->rmap = 0;
	if (g->rmapbt) {
		if (g->reflink)
			lv->rmap = height_for_space(sblk / 44 / 2, g->agblocks);
		else
			lv->rmap = height_for_records(sblk / 24 / 2,
						      sblk / 44 / 2,
						      g->agblocks);
	}
	/* refcounts: 12-byte records, 4-byte keys + 4-byte pointers */
	lv->refc = g->reflink ? height_for_records(sblk / 12 / 2, sblk / 8 / 2,
						   g->agblocks) : 0;
	/* data fork root holds 3 pointers at least, attr fork 2 */
	lv->bmap_data = bmap_height(bs, g->nrext64 ? (1ull << 48) - 1 :
				    (1ull << 31) - 1, 3);
	lv->bmap_attr = bmap_height(bs, g->nrext64 ? (1ull << 32) - 1 :
				    (1ull << 15) - 1, 2);
}

unsigned resv_min_freelist(const struct resv_geom *g)
{
	struct resv_levels lv;
	unsigned n;

	resv_levels(g, &lv);
	n = 2 * (lv.alloc < 2 ? lv.alloc : 2);
	if (g->rmapbt)
		n += lv.rmap < 2 ? lv.rmap : 2;
	return n;
}

static void ctx_init(struct ctx *c, const struct resv_geom *g)
{
	uint32_t inopblock = g->blocksize / g->inodesize;
	uint32_t raw = 8192, scaled;
	unsigned sblk = g->blocksize - SBLOCK_HDR;

	c->g = g;
	c->bs = g->blocksize;
	c->ss = g->sectsize;
	resv_levels(g, &c->lv);
	c->alloc_contig = sblk / 8 - sblk / 8 / 2;
	c->dir_fsbs = g->dirblocksize / g->blocksize;
	c->ialloc_blks = (inopblock > 64 ? inopblock : 64) / inopblock;
	/* the inode cluster grows with the inode size if aligned for it */
	scaled = raw * (g->inodesize / 256);
	if (g->inoalignmt >= scaled / g->blocksize)
		raw = scaled;
	c->cluster_bytes = raw > g->blocksize ?
		raw / g->blocksize * g->blocksize : g->blocksize;
}

static uint32_t bufs(uint32_t n, uint32_t size)
{
	return n * (size + BUF_OVERHEAD);
}

static uint32_t inodes(const struct ctx *c, uint32_t n)
{
	return n * (4 * OP_HDR + INODE_LOG_FMT + c->g->inodesize +
		    2 * LBLOCK_HDR);
}

/* Blocks the free-space (and reverse-map) trees touch for n extents. */
static uint32_t allocfree_blocks(const struct ctx *c, uint32_t n)
{
	uint32_t b = n * 2 * (2 * c->lv.alloc - 1);

	if (c->g->rmapbt)
		b += n * (2 * c->lv.rmap - 1);
	return b;
}

static uint32_t refc_blocks(const struct ctx *c, uint32_t n)
{
	return n * (2 * c->lv.refc - 1);
}

/* Bmap blocks to add b mappings to a fork. */
static uint32_t nextent_add(const struct ctx *c, uint32_t b, bool attr)
{
	unsigned h = attr ? c->lv.bmap_attr : c->lv.bmap_data;

	return (uint32_t)div_up(b, c->alloc_contig) * (h - 1);
}

/* Directory/attr btree entry: blocks and bmap blocks (XFS_DAENTER_*). */
static uint32_t daenter_1b(const struct ctx *c, bool attr)
{
	return attr ? 1 : c->dir_fsbs;
}

static uint32_t daenter_dbs(bool attr)
{
	return DA_NODE_MAXDEPTH + (attr ? 0 : 2);
}

static uint32_t daenter_bmap1b(const struct ctx *c, bool attr)
{
	return nextent_add(c, daenter_1b(c, attr), attr);
}

static uint32_t daenter_blocks(const struct ctx *c, bool attr)
{
	return daenter_1b(c, attr) * daenter_dbs(attr);
}

static uint32_t daenter_bmaps(const struct ctx *c, bool attr)
{
	return daenter_dbs(attr) * daenter_bmap1b(c, attr);
}

static uint32_t dirop_count(const struct ctx *c)
{
	return daenter_blocks(c, false) + daenter_bmaps(c, false) + 1;
}

static uint32_t inobt_res(const struct ctx *c)
{
	return bufs(c->lv.inobt, c->bs) + bufs(allocfree_blocks(c, 1), c->bs);
}

static uint32_t finobt_res(const struct ctx *c)
{
	return c->g->finobt ? inobt_res(c) : 0;
}

/* v5 inode chunk allocation logs no chunk buffers (ordered buffers). */
static uint32_t chunk_res(const struct ctx *c, bool alloc)
{
	uint32_t r = bufs(allocfree_blocks(c, 1), c->bs);

	return alloc ? r : r + bufs(c->ialloc_blks, 0);
}

static uint32_t rtalloc_blocks(const struct ctx *c, uint32_t n)
{
	uint32_t bytes = (MAX_BMBT_EXTLEN / c->g->rextsize) / 8;

	return ((uint32_t)div_up(bytes, c->bs) + 1) * n;
}

static bool realtime(const struct ctx *c)
{
	return c->g->rblocks > 0;
}

/* Write (extent allocation), in its minimum-log-size form. */
static uint32_t write_res(const struct ctx *c)
{
	uint32_t t1, t2 = 0, t3, adj = 0;

	t1 = inodes(c, 1) + bufs(c->lv.bmap_data, c->bs) + bufs(3, c->ss) +
	     bufs(allocfree_blocks(c, 2), c->bs);
	if (realtime(c))
		t2 = inodes(c, 1) + bufs(c->lv.bmap_data, c->bs) +
		     bufs(3, c->ss) + bufs(rtalloc_blocks(c, 1), c->bs) +
		     bufs(allocfree_blocks(c, 1), c->bs);
	t3 = bufs(5, c->ss) + bufs(allocfree_blocks(c, 2), c->bs);
	/* early reflink logged two refcount splits in the same transaction */
	if (c->g->reflink)
		adj = bufs(refc_blocks(c, 2), c->bs);
	return DQUOT_LOGRES + max3(t1 + adj, t2, t3 + adj);
}

/* Truncate, in its minimum-log-size form. */
static uint32_t itruncate_res(const struct ctx *c)
{
	uint32_t t1, t2, t3 = 0;

	t1 = inodes(c, 1) + bufs(c->lv.bmap_data + 1, c->bs);
	t2 = bufs(9, c->ss) + bufs(allocfree_blocks(c, 4), c->bs);
	if (realtime(c))
		t3 = bufs(5, c->ss) + bufs(rtalloc_blocks(c, 2), c->bs) +
		     bufs(allocfree_blocks(c, 2), c->bs);
	if (c->g->reflink)
		t2 += bufs(refc_blocks(c, 4), c->bs);
	return DQUOT_LOGRES + max3(t1, t2, t3);
}

static uint32_t rename_res(const struct ctx *c)
{
	return DQUOT_LOGRES +
	       max2(inodes(c, 5) + bufs(2 * dirop_count(c), c->bs),
		    bufs(7, c->ss) + bufs(allocfree_blocks(c, 3), c->bs));
}

static uint32_t iunlink_remove_res(const struct ctx *c)
{
	return bufs(1, c->ss) + 2 * c->cluster_bytes;
}

static uint32_t iunlink_add_res(const struct ctx *c)
{
	return bufs(1, c->ss) + c->cluster_bytes;
}

static uint32_t link_res(const struct ctx *c)
{
	return DQUOT_LOGRES + iunlink_remove_res(c) +
	       max2(inodes(c, 2) + bufs(dirop_count(c), c->bs),
		    bufs(3, c->ss) + bufs(allocfree_blocks(c, 1), c->bs));
}

static uint32_t remove_res(const struct ctx *c)
{
	return DQUOT_LOGRES + iunlink_add_res(c) +
	       max2(inodes(c, 2) + bufs(dirop_count(c), c->bs),
		    bufs(4, c->ss) + bufs(allocfree_blocks(c, 2), c->bs));
}

static uint32_t create_modify(const struct ctx *c)
{
	return inodes(c, 2) + bufs(1, c->ss) + c->bs +
	       bufs(dirop_count(c), c->bs) + finobt_res(c);
}

static uint32_t create_alloc(const struct ctx *c)
{
	return bufs(2, c->ss) + c->ss + chunk_res(c, true) + inobt_res(c) +
	       finobt_res(c);
}

static uint32_t create_res(const struct ctx *c)
{
	return DQUOT_LOGRES + max2(create_alloc(c), create_modify(c));
}

static uint32_t ifree_res(const struct ctx *c)
{
	return DQUOT_LOGRES + inodes(c, 1) + bufs(3, c->ss) +
	       iunlink_remove_res(c) + chunk_res(c, false) + inobt_res(c) +
	       finobt_res(c);
}

static uint32_t addafork_res(const struct ctx *c)
{
	return DQUOT_LOGRES + inodes(c, 1) + bufs(2, c->ss) +
	       bufs(1, c->g->dirblocksize) +
	       bufs(daenter_bmap1b(c, false) + 1, c->bs) +
	       bufs(allocfree_blocks(c, 1), c->bs);
}

static uint32_t attrinval_res(const struct ctx *c)
{
	return max2(inodes(c, 1) + bufs(c->lv.bmap_attr, c->bs),
		    bufs(9, c->ss) + bufs(allocfree_blocks(c, 4), c->bs));
}

static uint32_t attrsetm_res(const struct ctx *c)
{
	return DQUOT_LOGRES + inodes(c, 1) + bufs(1, c->ss) +
	       bufs(DA_NODE_MAXDEPTH, c->bs);
}

static uint32_t attrsetrt_res(const struct ctx *c)
{
	return bufs(1, c->ss) + bufs(c->lv.bmap_attr, c->bs);
}

static uint32_t attrrm_res(const struct ctx *c)
{
	return DQUOT_LOGRES +
	       max2(inodes(c, 1) + bufs(DA_NODE_MAXDEPTH, c->bs) +
		    c->bs * c->lv.bmap_attr + bufs(c->lv.bmap_data, 0),
		    bufs(5, c->ss) + bufs(allocfree_blocks(c, 2), c->bs));
}

/*
 * The largest attribute set (a local value as large as a leaf allows):
 * the mount-time part plus the per-block runtime part for every block it
 * may touch.  The extent term is computed from the value's byte count,
 * as the kernel does.
 */
static uint32_t attr_space(const struct ctx *c)
{
	uint32_t size = (c->bs / 2 + c->bs / 4) - MAXNAMELEN - 1;
	uint32_t nblks;

	nblks = daenter_blocks(c, true) + daenter_bmaps(c, true);
	nblks += (uint32_t)div_up(size, c->bs);
	nblks += nextent_add(c, size, true);
	return attrsetm_res(c) + attrsetrt_res(c) * nblks;
}

void resv_max_trans(const struct resv_geom *g, struct resv_trans *max)
{
	struct ctx c;
	int wcount, tcount;
	uint32_t space = 0, attr;

	ctx_init(&c, g);
	if (g->rmapbt && g->reflink)
		c.lv.rmap = OLD_REFLINK_RMAP_LEVELS;
	/*
	 * Operation counts of write, truncate and quota allocation: early
	 * reflink overestimated them; early rmap did not count its intents.
	 */
	wcount = g->reflink ? REFLINK_WRITE_COUNT : 2;
	tcount = g->reflink ? REFLINK_TRUNC_COUNT : 2;

	/* In the kernel's table order: the first of equal maxima wins. */
	const struct resv_trans tab[] = {
		{ write_res(&c), wcount },		/* write */
		{ itruncate_res(&c), tcount },		/* itruncate */
		{ rename_res(&c), 2 },
		{ link_res(&c), 2 },
		{ remove_res(&c), 2 },
		{ create_res(&c) + bufs(1, SYMLINK_MAXLEN), 3 }, /* symlink */
		{ create_res(&c), 2 },			/* create */
		{ DQUOT_LOGRES + create_alloc(&c) + iunlink_add_res(&c), 2 },
		{ create_res(&c), 3 },			/* mkdir */
		{ ifree_res(&c), 2 },
		{ DQUOT_LOGRES + inodes(&c, 1) + bufs(1, c.ss), 0 }, /* ichange */
		{ bufs(3, c.ss) + bufs(allocfree_blocks(&c, 1), c.bs), 2 },
		{ addafork_res(&c), 2 },
		{ inodes(&c, 1), 0 },			/* writeid */
		{ attrinval_res(&c), 1 },
		{ attrsetm_res(&c), 3 },
		{ attrsetrt_res(&c), 0 },
		{ attrrm_res(&c), 3 },
		{ bufs(1, c.ss), 0 },			/* clearagi */
		{ bufs(2, c.ss) + bufs(c.lv.bmap_data, c.bs) + inodes(&c, 1) +
		  bufs(allocfree_blocks(&c, 1), c.bs), 2 }, /* growrtalloc */
		{ bufs(1, c.bs), 0 },			/* growrtzero */
		/* growrtfree: mkfs knows no summary size yet (0 bytes) */
		{ bufs(1, c.ss) + inodes(&c, 2) + bufs(1, c.bs) + bufs(1, 0),
		  0 },
		{ bufs(1, DISK_DQUOT), 1 },		/* qm_setqlim */
		{ write_res(&c) + bufs(1, c.bs - 1), wcount }, /* qm_dqalloc */
		{ bufs(1, c.ss), 1 },			/* sb */
		{ inodes(&c, 1), 0 },			/* fsyncts */
	};

	*max = (struct resv_trans){ 0, 0 };
	for (unsigned i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		uint32_t s = tab[i].logcount > 1 ?
			tab[i].logres * tab[i].logcount : tab[i].logres;

		if (s > space) {
			space = s;
			*max = tab[i];
		}
	}
	attr = attr_space(&c);
	if (attr > space)
		*max = (struct resv_trans){ attr, 3 };	/* attrsetm's count */
}

uint32_t resv_unit_bytes(const struct resv_geom *g, uint32_t logres)
{
	uint32_t hdr = (XLOG_MAX_RECORD_BSIZE / XLOG_HEADER_CYCLE_SIZE) * 512;
	uint32_t space = XLOG_MAX_RECORD_BSIZE - hdr;
	uint32_t unit = logres + OP_HDR + TRANS_HDR + OP_HDR;
	uint32_t nhdr = (uint32_t)div_up(unit, space);

	/* an op header for every record the transaction is split over */
	unit += OP_HDR * nhdr;
	while (!nhdr || div_up(unit, space) > nhdr) {
		unit += OP_HDR;
		nhdr++;
	}
	unit += hdr * nhdr;
	unit += hdr;			/* the commit record's own header */
	if (g->logsunit > 1)
		unit += 2 * g->logsunit;
	else
		unit += 2 * 512;
	return unit;
}

uint32_t resv_min_log_blocks(const struct resv_geom *g)
{
	struct resv_trans t;
	uint64_t bytes, bb;
	uint32_t lsunit_bb = g->logsunit > 1 ? g->logsunit / 512 : 0;
	uint32_t bb_per_fsb = g->blocksize / 512;

	resv_max_trans(g, &t);
	bytes = resv_unit_bytes(g, t.logres);
	if (t.logcount > 1)
		bytes *= (uint64_t)t.logcount;
	bb = div_up(bytes, 512);
	if (lsunit_bb)
		bb = div_up(bb, lsunit_bb) * lsunit_bb + 2 * lsunit_bb;
	else
		bb += 2 * 512;	/* the kernel adds 2 * BBSIZE basic blocks */
	bb *= MIN_LOG_FACTOR;
	return (uint32_t)div_up(bb, bb_per_fsb);
}
