/*
 * Fork mappings: the extent list of a data or attribute fork, from the
 * inode (extents format) or from its bmap btree (btree format), and
 * reading logical fork blocks through it.
 *
 * In:  a decoded inode.
 * Out: a sorted array of valid extents; findings for every extent that
 *      is out of range, out of order, overlapping, or in the wrong state,
 *      and for a count that disagrees with the inode.  Bad extents are
 *      left out of the array so callers never follow them, and the
 *      array remembers how many of its extents came before the first
 *      bad record (a checker that stops there, as xfs_repair does, cuts
 *      the map at that point).
 *
 * Order is judged per list of records -- the inode's extent list, or
 * one bmbt leaf -- against the record before it in the same list, and
 * first, before anything else about the record: a record whose start
 * is not past the previous start is out of order, one that starts
 * inside the previous extent overlaps it.  Between leaves the first
 * record of a leaf must start past the last record of the leaf before
 * (the leaf's key), and past the end of the last good extent.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "ag.h"
#include "bmap.h"
#include "fields.h"

/* bmbt: keys are be64 start offsets; pointers be64 fsblocks. */
static int bmbt_cmp_keys(const void *k1, const void *k2)
{
	uint64_t a = load_be64(k1), b = load_be64(k2);

	return a < b ? -1 : a > b;
}

static void bmbt_rec_low_key(const void *rec, void *key)
{
	struct xfs_bmbt_irec irec;

	bmbt_rec_decode(rec, &irec);
	store_be64(key, irec.br_startoff);
}

static void bmbt_buf_verify(void *ctx, struct fs_buf *bp,
			    struct fs_findings *fl)
{
	btree_lblock_verify(ctx, bp, fl, XFS_BMAP_CRC_MAGIC, OBJ_BMBT);
}

static const struct buf_ops bmbt_buf_ops = {
	.name = "bmbt",
	.verify = bmbt_buf_verify,
	.crc_off = XFS_BTREE_LBLOCK_CRC_OFF,
};

const struct btree_ops bmbt_ops = {
	.name = "bmbt",
	.type = BT_BMAP,
	.objtype = OBJ_BMBT,
	.magic = XFS_BMAP_CRC_MAGIC,
	.long_ptrs = true,
	.overlapping = false,
	.rec_len = sizeof(struct xfs_bmbt_rec),
	.key_len = sizeof(struct xfs_bmbt_key),
	.maxlevels = XFS_BMBT_MAXLEVELS,
	.buf_ops = &bmbt_buf_ops,
	.fields = &ft_bmapbtd,
	.cmp_keys = bmbt_cmp_keys,
	.rec_low_key = bmbt_rec_low_key,
	/* records are checked with their inode's context in fork_extents */
	.check_rec = NULL,
};

void extents_init(struct fs_extents *el)
{
	memset(el, 0, sizeof(*el));
}

void extents_free(struct fs_extents *el)
{
	free(el->v);
	memset(el, 0, sizeof(*el));
}

static int extents_push(struct fs_extents *el, const struct xfs_bmbt_irec *r)
{
	if (el->n == el->cap) {
		size_t ncap = el->cap ? el->cap * 2 : 16;
		struct xfs_bmbt_irec *nv = realloc(el->v, ncap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		el->v = nv;
		el->cap = ncap;
	}
	el->v[el->n++] = *r;
	return 0;
}

struct fork_scan {
	struct fs		*fs;
	const struct fs_inode	*ip;
	int			whichfork;
	bool			rt;		/* realtime data fork */
	struct fs_extents	*el;
	struct fs_findings	*fl;
	bmbt_blk_fn		blk_fn;
	void			*priv;
	uint64_t		nrecs;		/* records seen, good or bad */
	xfs_fileoff_t		next_off;	/* end of the last good extent */
	/* the list being read: the inode's, or one leaf's */
	struct xfs_bmbt_irec	prev;		/* its record before this one */
	uint64_t		list_idx;	/* this record's index in it */
	xfs_daddr_t		leaf_daddr;	/* the leaf, or -1 */
	bool			leaf_start;	/* a leaf begins: its key */
	bool			any_leaf;	/* a leaf came before */
	int			err;
};

/*
 * May this fork hold unwritten extents?  Only a regular file's data
 * fork: preallocated space is a file's, and the realtime bitmap, summary
 * and quota files (regular files the filesystem keeps) are written
 * whole.
 */
static bool fork_may_be_unwritten(const struct fork_scan *sc)
{
	const struct fs_inode *ip = sc->ip;
	const struct fs_sb *sb = &sc->fs->sb;

	if (sc->whichfork != XFS_DATA_FORK ||
	    (ip->mode & XFS_S_IFMT) != XFS_S_IFREG)
		return false;
	if (ip->flags & XFS_DIFLAG_REALTIME)
		return true;
	return ip->ino != sb->rbmino && ip->ino != sb->rsumino &&
	       ip->ino != sb->uquotino && ip->ino != sb->gquotino &&
	       ip->ino != sb->pquotino;
}

/*
 * Is this record in order?  Against the record before it in its list
 * (inode or leaf), then, for a leaf's first record, against the leaf
 * before.  An order finding names the list (the leaf's daddr, or -1
 * for the inode's list) and the record's index in it, which is how the
 * reference counts its entries; found is the record's start, expected
 * the start it had to pass.
 */
static bool scan_order(struct fork_scan *sc, const struct xfs_bmbt_irec *r,
		       struct fs_objref *o, const char *fld)
{
	const struct xfs_bmbt_irec *p = &sc->prev;
	bool ok = true;

	o->daddr = sc->leaf_daddr;
	o->index = sc->list_idx;
	if (sc->list_idx > 0) {
		if (r->br_startoff <= p->br_startoff) {
			fs_report_val(sc->fl, PR_BMAP_LEAF_OUT_OF_ORDER, o,
				      fld, p->br_startoff + 1, r->br_startoff);
			ok = false;
		} else if (r->br_startoff < p->br_startoff + p->br_blockcount) {
			fs_report_val(sc->fl, PR_BMAP_OUT_OF_ORDER, o, fld,
				      p->br_startoff + p->br_blockcount,
				      r->br_startoff);
			ok = false;
		}
	} else if (sc->leaf_start && sc->any_leaf &&
		   r->br_startoff <= p->br_startoff) {
		fs_report_val(sc->fl, PR_BMAP_KEY_OUT_OF_ORDER, o, fld,
			      p->br_startoff + 1, r->br_startoff);
		ok = false;
	}
	if (ok && r->br_startoff < sc->next_off) {
		/* inside an extent of an earlier list */
		fs_report_val(sc->fl, PR_BMAP_OUT_OF_ORDER, o, fld,
			      sc->next_off, r->br_startoff);
		ok = false;
	}
	if (sc->leaf_start)
		sc->any_leaf = true;
	sc->leaf_start = false;
	sc->prev = *r;
	sc->list_idx++;
	return ok;
}

/*
 * Check one mapping in its inode's context; add it if it is usable.
 * Findings about one extent name it by its file offset (the objref's
 * index) and its start block (found), but an order problem names the
 * record (index: the record's number).
 */
static int scan_irec(struct fork_scan *sc, const struct xfs_bmbt_irec *r,
		     uint64_t index)
{
	const struct fs_geom *g = &sc->fs->geo;
	struct fs_objref o = OBJREF_INIT(OBJ_INODE);
	const char *fld = sc->whichfork == XFS_DATA_FORK ? "u3.bmx" : "a.bmx";
	bool ok = true;

	o.ino = sc->ip->ino;
	o.agno = ino_to_agno(g, sc->ip->ino);
	sc->nrecs++;
	ok = scan_order(sc, r, &o, fld);
	o.daddr = (xfs_daddr_t)-1;
	o.index = r->br_startoff;
	/*
	 * The rest in xfs_repair's order, which says only the first thing
	 * wrong with a record: its state, its length, where it starts on
	 * disk, and last how far into the file it reaches.
	 */
	if (ok && r->br_unwritten && !fork_may_be_unwritten(sc)) {
		fs_report_found(sc->fl, sc->whichfork == XFS_ATTR_FORK ?
				PR_BMAP_UNWRITTEN_ATTR :
				PR_BMAP_UNWRITTEN_NONREG, &o, fld,
				r->br_startblock);
		ok = false;
	}
	if (ok && r->br_blockcount == 0) {
		fs_report_found(sc->fl, PR_BMAP_BAD_LENGTH, &o, fld,
				r->br_startblock);
		ok = false;
	}
	if (!ok) {
		/* said, and nothing more about it */
	} else if (sc->rt) {
		if (r->br_startblock >= sc->fs->sb.rblocks ||
		    r->br_blockcount > sc->fs->sb.rblocks - r->br_startblock) {
			fs_report_found(sc->fl, PR_BMAP_BAD_STARTBLOCK, &o, fld,
					r->br_startblock);
			ok = false;
		}
	} else if (!fsb_extent_valid(g, r->br_startblock, r->br_blockcount) ||
		   fsb_to_agbno(g, r->br_startblock) < ag_first_block(g)) {
		/*
		 * No extent starts among the AG headers (superblock, AGF,
		 * AGI, AGFL): the kernel's block check, xfs_verify_fsbno,
		 * refuses such a start as it refuses one past the AG.
		 * (The length goes with it: a start inside an AG whose
		 * extent runs past it is told apart by that.)
		 */
		fs_report_found2(sc->fl, PR_BMAP_BAD_STARTBLOCK, &o, fld,
				 r->br_startblock, r->br_blockcount);
		ok = false;
	}
	if (ok && r->br_startoff + r->br_blockcount >
		  bmap_max_fileoff(g) + 1) {
		fs_report_found2(sc->fl, PR_BMAP_BAD_STARTOFF, &o, fld,
				 r->br_blockcount, r->br_startblock);
		ok = false;
	}
	(void)index;
	if (!ok) {
		if (!sc->el->bad_seen) {
			sc->el->bad_seen = true;
			sc->el->nbefore_bad = sc->el->n;
		}
		return 0;
	}
	sc->next_off = r->br_startoff + r->br_blockcount;
	return extents_push(sc->el, r);
}

static int scan_btree_rec(struct btree_walk *w, const void *rec, void *priv)
{
	struct fork_scan *sc = priv;
	struct xfs_bmbt_irec r;
	int err;

	bmbt_rec_decode(rec, &r);
	err = scan_irec(sc, &r, sc->nrecs);
	if (err)
		sc->err = err;
	(void)w;
	return err;
}

static int scan_btree_blk(struct btree_walk *w, unsigned level,
			  xfs_fsblock_t fsb, void *priv)
{
	struct fork_scan *sc = priv;

	sc->el->bmbt_blocks++;
	if (level == 0) {
		/* a new list of records begins */
		sc->leaf_daddr = w->obj.daddr;
		sc->leaf_start = true;
		sc->list_idx = 0;
	}
	return sc->blk_fn ? sc->blk_fn(fsb, level, sc->priv) : 0;
}

int fork_extents(struct fs *fs, const struct fs_inode *ip, int whichfork,
		 struct fs_extents *el, bmbt_blk_fn blk_fn, void *priv,
		 struct fs_findings *fl)
{
	struct fork_scan sc = {
		.fs = fs, .ip = ip, .whichfork = whichfork, .el = el,
		.fl = fl, .blk_fn = blk_fn, .priv = priv,
		.leaf_daddr = (xfs_daddr_t)-1,
	};
	uint64_t want = inode_fork_nextents(ip, whichfork);
	uint32_t size;
	const uint8_t *p = inode_fork_ptr(ip, whichfork, &size);
	struct fs_objref o = OBJREF_INIT(OBJ_INODE);
	int err = 0;

	extents_init(el);
	o.ino = ip->ino;
	o.agno = ino_to_agno(&fs->geo, ip->ino);
	sc.rt = whichfork == XFS_DATA_FORK &&
		(ip->flags & XFS_DIFLAG_REALTIME);
	if (!p)
		return 0;

	switch (inode_fork_format(ip, whichfork)) {
	case XFS_DINODE_FMT_EXTENTS: {
		/* inode_verify reports a count that cannot fit; clamp to it */
		uint64_t n = want;

		if (n > size / sizeof(struct xfs_bmbt_rec))
			n = size / sizeof(struct xfs_bmbt_rec);
		for (uint64_t i = 0; i < n && !err; i++) {
			struct xfs_bmbt_irec r;

			bmbt_rec_decode((const struct xfs_bmbt_rec *)p + i, &r);
			err = scan_irec(&sc, &r, i);
		}
		return err;
	}
	case XFS_DINODE_FMT_BTREE: {
		struct btree_root root = {
			.ops = &bmbt_ops,
			.agno = NULLAGNUMBER,
			.ino = ip->ino,
			.whichfork = whichfork,
			.iroot = p,
			.iroot_size = size,
		};
		struct btree_stats st;

		if (size < sizeof(struct xfs_bmdr_block))
			return 0;	/* inode_verify said so */
		root.levels = load_be16(p) + 1;
		if (root.levels < 2 || root.levels > XFS_BMBT_MAXLEVELS)
			return 0;	/* inode_verify said so */
		err = btree_walk(fs, &root, scan_btree_rec, scan_btree_blk,
				 &sc, fl, &st);
		if (sc.err)
			err = sc.err;
		if (!err && sc.nrecs != want)
			fs_report_val(fl, PR_BMAP_COUNT_MISMATCH, &o,
				      whichfork == XFS_DATA_FORK ?
				      "core.nextents" : "core.naextents",
				      sc.nrecs, want);
		return err;
	}
	default:
		return 0;	/* local, dev: no mappings */
	}
}

bool extents_lookup(const struct fs_extents *el, xfs_fileoff_t off,
		    struct xfs_bmbt_irec *out)
{
	size_t lo = 0, hi = el->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct xfs_bmbt_irec *r = &el->v[mid];

		if (off < r->br_startoff)
			hi = mid;
		else if (off >= r->br_startoff + r->br_blockcount)
			lo = mid + 1;
		else {
			*out = *r;
			return true;
		}
	}
	return false;
}

int fork_read(struct fs *fs, const struct fs_extents *el, xfs_fileoff_t off,
	      uint32_t count, const struct buf_ops *ops, struct fs_findings *fl,
	      struct fs_buf **bpp)
{
	const struct fs_geom *g = &fs->geo;
	struct buf_seg stack_segs[16], *segs = stack_segs;
	unsigned nsegs = 0, maxsegs = 16;
	xfs_fileoff_t o = off;
	uint32_t left = count;
	int err;

	*bpp = NULL;
	if (!count)
		return -EINVAL;
	if (count > 16) {
		segs = malloc(count * sizeof(*segs));
		if (!segs)
			return -ENOMEM;
		maxsegs = count;
	}
	while (left) {
		struct xfs_bmbt_irec r;
		uint64_t n;
		xfs_daddr_t d;

		if (!extents_lookup(el, o, &r)) {
			err = -ENODATA;
			goto out;
		}
		n = r.br_startoff + r.br_blockcount - o;
		if (n > left)
			n = left;
		d = fsb_to_daddr(g, r.br_startblock + (o - r.br_startoff));
		if (nsegs && segs[nsegs - 1].daddr +
			     (segs[nsegs - 1].len >> BBSHIFT) == d) {
			segs[nsegs - 1].len += (uint32_t)n << g->blocklog;
		} else {
			if (nsegs == maxsegs) {	/* cannot happen: n >= 1 */
				err = -EIO;
				goto out;
			}
			segs[nsegs].daddr = d;
			segs[nsegs].len = (uint32_t)n << g->blocklog;
			nsegs++;
		}
		o += n;
		left -= (uint32_t)n;
	}
	if (nsegs == 1)
		err = bcache_read(fs->bc, segs[0].daddr, segs[0].len, ops, fl,
				  bpp);
	else
		err = bcache_read_segs(fs->bc, segs, nsegs, ops, fl, bpp);
out:
	if (segs != stack_segs)
		free(segs);
	return err;
}
