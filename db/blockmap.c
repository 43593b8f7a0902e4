/*
 * Whole-filesystem scans: blockget/check (what every block is used for,
 * and which inode owns it), blockuse, blockfree, and frag.
 *
 * blockget walks each AG the way the reference's checker does: the
 * superblock and log, the free list, the free space btrees (records as
 * free space, blocks as btree blocks), the reverse mapping and reference
 * count btrees, then the inode btrees, whose records lead to the inode
 * chunks and, through every allocated inode, to each file's blocks (data,
 * directory, attribute, symlink and bmap btree blocks).  A block claimed
 * twice is reported, except data shared by reflinked files.  The map
 * stays until blockfree, for blockuse and ncheck.
 */
#include "config.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "db.h"
#include "ag.h"
#include "bmap.h"
#include "btree.h"
#include "inode.h"
#include "format/ondisk.h"

enum dbm {
	DBM_UNKNOWN, DBM_AGF, DBM_AGFL, DBM_AGI, DBM_ATTR, DBM_BTBMAPA,
	DBM_BTBMAPD, DBM_BTBNO, DBM_BTCNT, DBM_BTINO, DBM_DATA, DBM_DIR,
	DBM_FREE1, DBM_FREE2, DBM_FREELIST, DBM_INODE, DBM_LOG, DBM_MISSING,
	DBM_QUOTA, DBM_RTBITMAP, DBM_RTDATA, DBM_RTFREE, DBM_RTSUM, DBM_SB,
	DBM_SYMLINK, DBM_BTFINO, DBM_BTRMAP, DBM_BTREFC, DBM_RLDATA,
	DBM_COWDATA, DBM_NTYPES
};

static const char *const dbm_names[DBM_NTYPES] = {
	"unknown", "agf", "agfl", "agi", "attr", "btbmapa", "btbmapd", "btbno",
	"btcnt", "btino", "data", "dir", "free1", "free2", "freelist", "inode",
	"log", "missing", "quota", "rtbitmap", "rtdata", "rtfree", "rtsum",
	"sb", "symlink", "btfino", "btrmap", "btrefcnt", "rldata", "cowdata",
};

struct blockmap {
	uint8_t		**type;		/* [agno][agbno] */
	xfs_ino_t	**owner;	/* [agno][agbno], NULLFSINO: none */
	bool		names;		/* -n: ncheck may run */
	bool		silent;		/* -s */
	unsigned long	errors;
};

static struct blockmap *bmap_state;

bool blockmap_have_names(void)
{
	return bmap_state && bmap_state->names;
}

static void bm_error(struct blockmap *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void bm_error(struct blockmap *m, const char *fmt, ...)
{
	va_list ap;

	m->errors++;
	if (m->silent)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

/* Claim [agbno, agbno + len) of AG agno as type t, for inode ino. */
static void bm_set(struct blockmap *m, xfs_agnumber_t agno,
		   xfs_agblock_t agbno, uint64_t len, enum dbm t, xfs_ino_t ino)
{
	const struct fs_geom *g = &db.fs->geo;
	uint64_t i;

	if (agno >= g->agcount)
		return;
	for (i = 0; i < len; i++) {
		xfs_agblock_t b = agbno + (xfs_agblock_t)i;
		uint8_t *p;

		if (b >= geom_ag_blocks(g, agno))
			break;
		p = &m->type[agno][b];
		if (*p == DBM_UNKNOWN) {
			*p = t;
		} else if (t == DBM_FREE2 && *p == DBM_FREE1) {
			*p = DBM_FREE2;
		} else if (t == DBM_DATA && g->has_reflink &&
			   (*p == DBM_DATA || *p == DBM_RLDATA)) {
			*p = DBM_RLDATA;
		} else {
			bm_error(m, "block %u/%u expected type unknown got %s\n",
				 agno, b, dbm_names[*p]);
			*p = t;
		}
		if (ino != NULLFSINO)
			m->owner[agno][b] = ino;
	}
}

static void bm_set_fsb(struct blockmap *m, xfs_fsblock_t fsb, uint64_t len,
		       enum dbm t, xfs_ino_t ino)
{
	const struct fs_geom *g = &db.fs->geo;

	bm_set(m, fsb_to_agno(g, fsb), fsb_to_agbno(g, fsb), len, t, ino);
}

/* The extent counter of a fork, read from the raw inode. */
static uint64_t raw_nextents(const uint8_t *raw, int whichfork)
{
	bool big = load_be64(raw + offsetof(struct xfs_dinode, di_flags2)) &
		   XFS_DIFLAG2_NREXT64;

	if (whichfork == XFS_DATA_FORK)
		return big ? load_be64(raw + offsetof(struct xfs_dinode,
						      u24.di_big_nextents)) :
			     load_be32(raw + offsetof(struct xfs_dinode,
						      u76.small.di_nextents));
	if (!raw[offsetof(struct xfs_dinode, di_forkoff)])
		return 0;
	return big ? load_be32(raw + offsetof(struct xfs_dinode,
					      u76.big.di_big_anextents)) :
		     load_be16(raw + offsetof(struct xfs_dinode,
					      u76.small.di_anextents));
}

/* ---- AG metadata ---- */

struct bt_ctx {
	struct blockmap	*m;
	xfs_agnumber_t	agno;
	enum dbm	blktype;
	enum dbm	rectype;	/* free space records */
};

static int bt_blk_fn(struct btree_walk *w, unsigned level, xfs_fsblock_t fsb,
		     void *priv)
{
	struct bt_ctx *c = priv;

	(void)w;
	(void)level;
	bm_set_fsb(c->m, fsb, 1, c->blktype, NULLFSINO);
	return 0;
}

static int alloc_rec_fn(struct btree_walk *w, const void *rec, void *priv)
{
	const struct xfs_alloc_rec *r = rec;
	struct bt_ctx *c = priv;

	(void)w;
	bm_set(c->m, c->agno, get_be32(r->ar_startblock),
	       get_be32(r->ar_blockcount), c->rectype, NULLFSINO);
	return 0;
}

static int no_rec_fn(struct btree_walk *w, const void *rec, void *priv)
{
	(void)w;
	(void)rec;
	(void)priv;
	return 0;
}

static void walk_tree(struct blockmap *m, const struct btree_ops *ops,
		      xfs_agnumber_t agno, xfs_agblock_t root, unsigned levels,
		      enum dbm blktype, enum dbm rectype, btree_rec_fn rec_fn,
		      void *rec_priv)
{
	struct fs_findings fl;
	struct btree_root r;
	struct bt_ctx c = { m, agno, blktype, rectype };

	if (!root || !levels)
		return;
	memset(&r, 0, sizeof(r));
	r.ops = ops;
	r.agno = agno;
	r.root = root;
	r.levels = levels;
	findings_init(&fl);
	btree_walk(db.fs, &r, rec_fn ? rec_fn : alloc_rec_fn, bt_blk_fn,
		   rec_priv ? rec_priv : &c, &fl, NULL);
	findings_free(&fl);
}

static int bm_agfl_fn(xfs_agnumber_t agno, unsigned idx, xfs_agblock_t agbno,
		   void *priv)
{
	(void)idx;
	bm_set(priv, agno, agbno, 1, DBM_FREELIST, NULLFSINO);
	return 0;
}

/* ---- inodes ---- */


struct ino_walk {
	struct bt_ctx	bt;		/* first: the btree block callback's */
	struct blockmap	*m;		/* NULL: no chunk accounting */
	xfs_agnumber_t	agno;
	inode_fn	fn;
	void		*priv;
};

/* One inobt record: its chunk's blocks and each allocated inode. */
static int ino_rec_fn(struct btree_walk *w, const void *rec, void *priv)
{
	const struct fs_geom *g = &db.fs->geo;
	const struct xfs_inobt_rec *r = rec;
	struct ino_walk *iw = priv;
	xfs_agino_t start = get_be32(r->ir_startino);
	uint16_t holemask = g->has_sparse ? get_be16(r->ir_u.sp.ir_holemask) : 0;
	uint64_t freemask = get_be64(r->ir_free);
	struct fs_buf *bp = NULL;
	xfs_daddr_t bpd = 0;
	uint32_t bpc = g->blocks_per_cluster ? g->blocks_per_cluster : 1;
	unsigned i;

	(void)w;
	for (i = 0; i < XFS_INODES_PER_CHUNK; i++) {
		xfs_agino_t agino = start + i;
		xfs_agblock_t agbno = agino_to_agbno(g, agino), cagbno;
		xfs_daddr_t d;

		if (holemask & (1u << (i / XFS_INODES_PER_HOLEMASK_BIT)))
			continue;
		if (iw->m && agino_to_offset(g, agino) == 0)
			bm_set(iw->m, iw->agno, agbno, 1, DBM_INODE, NULLFSINO);
		if (freemask & (1ull << i))
			continue;
		if (!agbno_valid(g, iw->agno, agbno))
			continue;
		/* read whole inode clusters, as the kernel lays them out */
		if (g->inoalign > 1) {
			xfs_agblock_t o = agbno & (g->inoalign - 1);

			cagbno = agbno - o + (o / bpc) * bpc;
		} else {
			cagbno = agbno - agbno % bpc;
		}
		if (cagbno + bpc > geom_ag_blocks(g, iw->agno))
			continue;
		d = agb_to_daddr(g, iw->agno, cagbno);
		if (!bp || bpd != d) {
			struct fs_findings fl;

			if (bp)
				buf_release(bp);
			bp = NULL;
			findings_init(&fl);
			if (bcache_read(db.fs->bc, d, bpc << g->blocklog, NULL,
					&fl, &bp))
				bp = NULL;
			findings_free(&fl);
			bpd = d;
			if (!bp)
				continue;
		}
		iw->fn(agino_to_ino(g, iw->agno, agino),
		       bp->data + (((size_t)(agbno - cagbno) * g->inopblock +
				    agino_to_offset(g, agino)) << g->inodelog),
		       iw->priv);
	}
	if (bp)
		buf_release(bp);
	return 0;
}

/* Visit every allocated inode, AG by AG, in inode number order. */
static void scan_inodes_ag(struct blockmap *m, xfs_agnumber_t agno,
			   const struct fs_agi *agi, inode_fn fn, void *priv)
{
	struct ino_walk iw = { { m, agno, DBM_BTINO, DBM_UNKNOWN }, m, agno, fn,
			       priv };

	if (m)
		walk_tree(m, &inobt_ops, agno, agi->root, agi->level, DBM_BTINO,
			  DBM_UNKNOWN, ino_rec_fn, &iw);
	else if (agi->root && agi->level) {
		struct fs_findings fl;
		struct btree_root r;

		memset(&r, 0, sizeof(r));
		r.ops = &inobt_ops;
		r.agno = agno;
		r.root = agi->root;
		r.levels = agi->level;
		findings_init(&fl);
		btree_walk(db.fs, &r, ino_rec_fn, NULL, &iw, &fl, NULL);
		findings_free(&fl);
	}
}

void scan_all_inodes(inode_fn fn, void *priv)
{
	xfs_agnumber_t agno;

	for (agno = 0; agno < db.fs->geo.agcount; agno++) {
		struct fs_findings fl;
		struct fs_buf *bp;
		struct fs_agi agi;

		findings_init(&fl);
		if (!ag_read_agi(db.fs, agno, &fl, &bp, &agi)) {
			scan_inodes_ag(NULL, agno, &agi, fn, priv);
			buf_release(bp);
		}
		findings_free(&fl);
	}
}

/* The blocks of one inode. */
struct ino_blocks {
	struct blockmap	*m;
	xfs_ino_t	ino;
	enum dbm	bttype;
};

static int bm_bmbt_blk_fn(xfs_fsblock_t fsb, unsigned level, void *priv)
{
	struct ino_blocks *ib = priv;

	(void)level;
	bm_set_fsb(ib->m, fsb, 1, ib->bttype, ib->ino);
	return 0;
}

static void fork_blocks(struct blockmap *m, const struct fs_inode *ip,
			int whichfork, enum dbm t)
{
	/* the reference counts a fork's bmbt blocks as the fork's own type */
	struct ino_blocks ib = { m, ip->ino, t };
	struct fs_extents el;
	struct fs_findings fl;
	size_t i;
	int fmt = inode_fork_format(ip, whichfork);

	if (fmt != XFS_DINODE_FMT_EXTENTS && fmt != XFS_DINODE_FMT_BTREE)
		return;
	extents_init(&el);
	findings_init(&fl);
	if (!fork_extents(db.fs, ip, whichfork, &el, bm_bmbt_blk_fn, &ib, &fl))
		for (i = 0; i < el.n; i++)
			bm_set_fsb(m, el.v[i].br_startblock,
				   el.v[i].br_blockcount, t, ip->ino);
	findings_free(&fl);
	extents_free(&el);
}

static void blockget_inode(xfs_ino_t ino, const uint8_t *raw, void *priv)
{
	struct blockmap *m = priv;
	const struct fs_sb *sb = &db.fs->sb;
	struct fs_inode ip;
	enum dbm t;

	if (raw_nextents(raw, XFS_DATA_FORK) == 0 &&
	    raw_nextents(raw, XFS_ATTR_FORK) == 0 &&
	    raw[offsetof(struct xfs_dinode, di_format)] != XFS_DINODE_FMT_BTREE &&
	    raw[offsetof(struct xfs_dinode, di_aformat)] != XFS_DINODE_FMT_BTREE)
		return;
	if (inode_decode(&db.fs->geo, ino, raw, &ip))
		return;
	switch (ip.mode & XFS_S_IFMT) {
	case XFS_S_IFDIR:
		t = DBM_DIR;
		break;
	case XFS_S_IFLNK:
		t = DBM_SYMLINK;
		break;
	default:
		t = DBM_DATA;
		break;
	}
	if (ino == sb->uquotino || ino == sb->gquotino || ino == sb->pquotino)
		t = DBM_QUOTA;
	else if (ino == sb->rbmino)
		t = DBM_RTBITMAP;
	else if (ino == sb->rsumino)
		t = DBM_RTSUM;
	fork_blocks(m, &ip, XFS_DATA_FORK, t);
	if (inode_has_attr_fork(&ip))
		fork_blocks(m, &ip, XFS_ATTR_FORK, DBM_ATTR);
	inode_release(&ip);
}

static void blockget_ag(struct blockmap *m, xfs_agnumber_t agno)
{
	const struct fs_geom *g = &db.fs->geo;
	const struct fs_sb *sb = &db.fs->sb;
	struct fs_findings fl;
	struct fs_buf *agfbp = NULL, *agibp = NULL, *agflbp = NULL;
	struct fs_agf agf;
	struct fs_agi agi;
	xfs_agblock_t hdrblk[4];
	static const enum dbm hdrtype[4] = {
		DBM_SB, DBM_AGF, DBM_AGI, DBM_AGFL
	};
	unsigned i;

	/* the four header sectors, each once per block they share */
	for (i = 0; i < 4; i++) {
		hdrblk[i] = (xfs_agblock_t)(((uint64_t)i * g->sectsize) >>
					    g->blocklog);
		if (i == 0 || hdrblk[i] != hdrblk[i - 1])
			bm_set(m, agno, hdrblk[i], 1, hdrtype[i], NULLFSINO);
	}
	if (sb->logstart && fsb_to_agno(g, sb->logstart) == agno)
		bm_set(m, agno, fsb_to_agbno(g, sb->logstart), sb->logblocks,
		       DBM_LOG, NULLFSINO);
	findings_init(&fl);
	if (ag_read_agf(db.fs, agno, &fl, &agfbp, &agf))
		goto out;
	if (ag_read_agi(db.fs, agno, &fl, &agibp, &agi))
		goto out;
	if (agf.flcount && !ag_read_agfl(db.fs, agno, &fl, &agflbp))
		agfl_walk(g, agno, &agf, agflbp->data, bm_agfl_fn, m);
	walk_tree(m, &bnobt_ops, agno, agf.roots[XFS_AGF_BNO],
		  agf.levels[XFS_AGF_BNO], DBM_BTBNO, DBM_FREE1, NULL, NULL);
	walk_tree(m, &cntbt_ops, agno, agf.roots[XFS_AGF_CNT],
		  agf.levels[XFS_AGF_CNT], DBM_BTCNT, DBM_FREE2, NULL, NULL);
	if (g->has_rmapbt)
		walk_tree(m, &rmapbt_ops, agno, agf.roots[XFS_AGF_RMAP],
			  agf.levels[XFS_AGF_RMAP], DBM_BTRMAP, DBM_UNKNOWN,
			  no_rec_fn, NULL);
	if (g->has_reflink)
		walk_tree(m, &refcountbt_ops, agno, agf.refcount_root,
			  agf.refcount_level, DBM_BTREFC, DBM_UNKNOWN,
			  no_rec_fn, NULL);
	scan_inodes_ag(m, agno, &agi, blockget_inode, m);
	if (g->has_finobt)
		walk_tree(m, &finobt_ops, agno, agi.free_root, agi.free_level,
			  DBM_BTFINO, DBM_UNKNOWN, no_rec_fn, NULL);
out:
	if (agflbp)
		buf_release(agflbp);
	if (agibp)
		buf_release(agibp);
	if (agfbp)
		buf_release(agfbp);
	findings_free(&fl);
}

static void blockmap_free(void)
{
	xfs_agnumber_t agno;

	if (!bmap_state)
		return;
	for (agno = 0; agno < db.fs->geo.agcount; agno++) {
		free(bmap_state->type[agno]);
		free(bmap_state->owner[agno]);
	}
	free(bmap_state->type);
	free(bmap_state->owner);
	free(bmap_state);
	bmap_state = NULL;
	names_free();
}


static int blockget_f(int argc, char **argv)
{
	const struct fs_geom *g = &db.fs->geo;
	struct blockmap *m;
	xfs_agnumber_t agno;
	int c;
	bool names = false, silent = false;

	if (bmap_state) {
		dbprintf("already have block usage information\n");
		return 0;
	}
	optind = 0;
	while ((c = getopt(argc, argv, "b:i:npstv")) != -1) {
		switch (c) {
		case 'n':
			names = true;
			break;
		case 's':
			silent = true;
			break;
		case 'b':
		case 'i':
		case 'p':
		case 't':
		case 'v':
			break;
		default:
			dbprintf("bad option for blockget command\n");
			return 0;
		}
	}
	if (!db_log_placed("aborting")) {
		db.exitcode = 1;
		return 0;
	}
	m = calloc(1, sizeof(*m));
	if (!m)
		return 0;
	m->type = calloc(g->agcount, sizeof(*m->type));
	m->owner = calloc(g->agcount, sizeof(*m->owner));
	bmap_state = m;
	if (!m->type || !m->owner) {
		blockmap_free();
		return 0;
	}
	for (agno = 0; agno < g->agcount; agno++) {
		uint32_t n = geom_ag_blocks(g, agno), i;

		m->type[agno] = calloc(n, 1);
		m->owner[agno] = malloc((size_t)n * sizeof(xfs_ino_t));
		if (!m->type[agno] || !m->owner[agno]) {
			dbprintf("out of memory for the block map\n");
			blockmap_free();
			return 0;
		}
		for (i = 0; i < n; i++)
			m->owner[agno][i] = NULLFSINO;
	}
	m->silent = silent;
	for (agno = 0; agno < g->agcount; agno++)
		blockget_ag(m, agno);
	if (names) {
		blockget_names();
		m->names = true;
	}
	return 0;
}

static int blockfree_f(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	if (!bmap_state) {
		dbprintf("block usage information not allocated\n");
		return 0;
	}
	blockmap_free();
	return 0;
}

static int blockuse_f(int argc, char **argv)
{
	const struct fs_geom *g = &db.fs->geo;
	struct cursor *cur = cur_top();
	xfs_fsblock_t fsb;
	xfs_agnumber_t agno;
	xfs_agblock_t agbno, end;
	bool shownames = false;
	int c;

	if (!bmap_state) {
		dbprintf("must run blockget first\n");
		return 0;
	}
	fsb = daddr_to_fsb(g, cur->bb + cur->boff / BBSIZE);
	agno = fsb_to_agno(g, fsb);
	agbno = end = fsb_to_agbno(g, fsb);
	optind = 0;
	while ((c = getopt(argc, argv, "c:n")) != -1) {
		switch (c) {
		case 'c': {
			char *p;
			long count = strtol(optarg, &p, 0);

			end = agbno + (xfs_agblock_t)count - 1;
			if (*p || count <= 0 || end >= g->agblocks) {
				dbprintf("bad blockuse count %s\n", optarg);
				return 0;
			}
			break;
		}
		case 'n':
			if (!bmap_state->names) {
				dbprintf("must run blockget -n first\n");
				return 0;
			}
			shownames = true;
			break;
		default:
			dbprintf("bad option for blockuse command\n");
			return 0;
		}
	}
	if (agno >= g->agcount)
		return 0;
	for (; agbno <= end && agbno < geom_ag_blocks(g, agno); agbno++) {
		xfs_ino_t ino = bmap_state->owner[agno][agbno];

		dbprintf("block %llu (%u/%u) type %s",
			 (unsigned long long)agb_to_fsb(g, agno, agbno), agno,
			 agbno, dbm_names[bmap_state->type[agno][agbno]]);
		if (ino != NULLFSINO) {
			dbprintf(" inode %lld", (long long)ino);
			if (shownames) {
				char *p = inode_path(ino);

				if (p)
					dbprintf(" %s", p);
				free(p);
			}
		}
		dbprintf("\n");
	}
	return 0;
}

/* ---- frag ---- */

struct frag {
	bool		a, d, f, l, q, R, r, v;
	uint64_t	actual, ideal;
};

static void frag_fork(struct frag *fr, const struct fs_inode *ip, int whichfork)
{
	struct fs_extents el;
	struct fs_findings fl;
	size_t i;
	int fmt = inode_fork_format(ip, whichfork);

	if (!inode_fork_nextents(ip, whichfork))
		return;
	if (fmt != XFS_DINODE_FMT_EXTENTS && fmt != XFS_DINODE_FMT_BTREE)
		return;
	extents_init(&el);
	findings_init(&fl);
	if (!fork_extents(db.fs, ip, whichfork, &el, NULL, NULL, &fl)) {
		fr->actual += el.n;
		for (i = 0; i < el.n; i++)
			if (!i || el.v[i].br_startoff != el.v[i - 1].br_startoff +
						    el.v[i - 1].br_blockcount)
				fr->ideal++;
	}
	findings_free(&fl);
	extents_free(&el);
}

static void frag_inode(xfs_ino_t ino, const uint8_t *raw, void *priv)
{
	struct frag *fr = priv;
	const struct fs_sb *sb = &db.fs->sb;
	struct fs_inode ip;
	uint64_t actual = fr->actual, ideal = fr->ideal;
	bool skipd, skipa;

	/* most inodes map nothing: look before decoding */
	if (!fr->v && raw_nextents(raw, XFS_DATA_FORK) == 0 &&
	    raw_nextents(raw, XFS_ATTR_FORK) == 0)
		return;
	if (inode_decode(&db.fs->geo, ino, raw, &ip))
		return;
	switch (ip.mode & XFS_S_IFMT) {
	case XFS_S_IFDIR:
		skipd = !fr->d;
		break;
	case XFS_S_IFREG:
		if (!fr->r && (ip.flags & XFS_DIFLAG_REALTIME))
			skipd = true;
		else if (!fr->R && (ino == sb->rbmino || ino == sb->rsumino))
			skipd = true;
		else if (!fr->q && (ino == sb->uquotino || ino == sb->gquotino ||
				    ino == sb->pquotino))
			skipd = true;
		else
			skipd = !fr->f;
		break;
	case XFS_S_IFLNK:
		skipd = !fr->l;
		break;
	default:
		skipd = true;
		break;
	}
	if (!skipd)
		frag_fork(fr, &ip, XFS_DATA_FORK);
	skipa = !fr->a || !ip.forkoff;
	if (!skipa)
		frag_fork(fr, &ip, XFS_ATTR_FORK);
	if (fr->v && (!skipd || !skipa))
		dbprintf("inode %lld actual %lld ideal %lld\n", (long long)ino,
			 (long long)(fr->actual - actual),
			 (long long)(fr->ideal - ideal));
	inode_release(&ip);
}

static int frag_f(int argc, char **argv)
{
	struct frag fr;
	double answer;
	int c;

	memset(&fr, 0, sizeof(fr));
	optind = 0;
	while ((c = getopt(argc, argv, "adflqRrv")) != -1) {
		switch (c) {
		case 'a': fr.a = true; break;
		case 'd': fr.d = true; break;
		case 'f': fr.f = true; break;
		case 'l': fr.l = true; break;
		case 'q': fr.q = true; break;
		case 'R': fr.R = true; break;
		case 'r': fr.r = true; break;
		case 'v': fr.v = true; break;
		default:
			dbprintf("bad option for frag command\n");
			return 0;
		}
	}
	if (!fr.a && !fr.d && !fr.f && !fr.l && !fr.q && !fr.R && !fr.r)
		fr.a = fr.d = fr.f = fr.l = fr.q = fr.R = fr.r = true;
	scan_all_inodes(frag_inode, &fr);
	answer = fr.actual ? (double)(fr.actual - fr.ideal) * 100.0 /
			     (double)fr.actual : 0.0;
	dbprintf("actual %llu, ideal %llu, fragmentation factor %.2f%%\n",
		 (unsigned long long)fr.actual, (unsigned long long)fr.ideal,
		 answer);
	dbprintf("Note, this number is largely meaningless.\n");
	dbprintf("Files on this filesystem average %.2f extents per file\n",
		 (double)fr.actual / (double)fr.ideal);
	return 0;
}

static const struct db_cmd blockmap_cmds[] = {
	{ "blockfree", NULL, blockfree_f, 0, 0, false, true, NULL,
	  "free block usage information" },
	{ "blockget", "check", blockget_f, 0, -1, false, true,
	  "[-s|-v] [-n] [-t] [-b bno]... [-i ino] ...",
	  "get block usage and check consistency" },
	{ "blockuse", NULL, blockuse_f, 0, 3, false, true,
	  "[-n] [-c blockcount]", "print usage for current block(s)" },
	{ "frag", NULL, frag_f, 0, -1, false, true,
	  "[-a] [-d] [-f] [-l] [-q] [-R] [-r] [-v]",
	  "get file fragmentation data" },
};

void blockmap_cmds_init(void)
{
	register_cmds(blockmap_cmds,
		      sizeof(blockmap_cmds) / sizeof(blockmap_cmds[0]));
}
