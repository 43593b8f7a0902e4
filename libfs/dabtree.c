/*
 * Walking a dabtree (see dabtree.h for what is checked).
 *
 * The walk is depth first in hash order.  For each level it remembers
 * the last block it saw there and that block's forw pointer, so the
 * sibling chain is checked as the blocks arrive: a block's back must name
 * the previous block of its level (0 for the first), the previous block's
 * forw must name this one, and the last block's forw must be 0.  Blocks
 * already seen are kept in a small hash set; a second arrival is a loop
 * (or a shared child) and is not followed again.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include "dabtree.h"

/* An open-addressing set of block numbers. */
struct blkset {
	uint32_t	*v;	/* slots; EMPTY marks a free one */
	size_t		cap;	/* power of two */
	size_t		n;
};

#define BLKSET_EMPTY	((uint32_t)-1)

static size_t blkset_slot(uint32_t k, size_t cap)
{
	return (size_t)((k * 0x9e3779b1u) & (cap - 1));
}

static int blkset_grow(struct blkset *s)
{
	size_t ncap = s->cap ? s->cap * 2 : 64;
	uint32_t *nv = malloc(ncap * sizeof(*nv));

	if (!nv)
		return -ENOMEM;
	for (size_t i = 0; i < ncap; i++)
		nv[i] = BLKSET_EMPTY;
	for (size_t i = 0; i < s->cap; i++) {
		size_t j;

		if (s->v[i] == BLKSET_EMPTY)
			continue;
		for (j = blkset_slot(s->v[i], ncap); nv[j] != BLKSET_EMPTY;
		     j = (j + 1) & (ncap - 1))
			;
		nv[j] = s->v[i];
	}
	free(s->v);
	s->v = nv;
	s->cap = ncap;
	return 0;
}

/* 1 if k was added, 0 if it was there already, or -ENOMEM. */
static int blkset_add(struct blkset *s, uint32_t k)
{
	size_t j;

	if ((s->n + 1) * 2 > s->cap) {
		int err = blkset_grow(s);

		if (err)
			return err;
	}
	for (j = blkset_slot(k, s->cap); s->v[j] != BLKSET_EMPTY;
	     j = (j + 1) & (s->cap - 1))
		if (s->v[j] == k)
			return 0;
	s->v[j] = k;
	s->n++;
	return 1;
}

/* What the walk remembers of the last block seen at one level. */
struct level_state {
	bool		any;
	bool		forw_known;	/* false: the block was unreadable */
	xfs_dablk_t	blk;
	uint32_t	forw;
	xfs_daddr_t	daddr;
};

struct walk_state {
	struct dabtree		*t;
	da_leaf_fn		leaf_fn;
	da_node_fn		node_fn;
	void			*priv;
	struct fs_findings	*fl;
	struct blkset		seen;
	struct level_state	lvl[XFS_DA_NODE_MAXDEPTH];
	bool			have_hash;
	xfs_dahash_t		last_hash;	/* highest hash of the leaves so far */
	struct da_walk_stats	st;
	int			err;		/* errno or the callback's value */
};

static struct fs_objref blk_obj(const struct dabtree *t, xfs_dablk_t blk,
				xfs_daddr_t daddr)
{
	struct fs_objref o = OBJREF_INIT(t->objtype);

	o.ino = t->ip->ino;
	o.daddr = daddr;
	o.index = (uint64_t)blk << t->fs->geo.blocklog;
	return o;
}

int dabtree_read(struct dabtree *t, xfs_dablk_t blk, const struct buf_ops *ops,
		 struct fs_findings *fl, struct fs_buf **bpp)
{
	return fork_read(t->fs, t->el, blk, t->blkfsbs, ops, fl, bpp);
}

/* Is a pointer one the tree may hold? Reports under the parent's obj. */
static bool ptr_ok(struct walk_state *s, xfs_dablk_t blk,
		   const struct fs_objref *from)
{
	struct dabtree *t = s->t;

	if (blk < t->lo || blk >= t->hi || (blk - t->lo) % t->blkfsbs ||
	    t->hi - blk < t->blkfsbs) {
		fs_report_found(s->fl, PR_DA_BAD_PTR, from, "before", blk);
		return false;
	}
	return true;
}

/*
 * The sibling rule for a block arriving at a level.  An unreadable
 * block still takes its place in the chain (forw unknown), so one bad
 * block does not make its neighbours look wrong too.
 */
static void sibling_arrive(struct walk_state *s, unsigned level,
			   xfs_dablk_t blk, xfs_daddr_t daddr, bool known,
			   uint32_t forw, uint32_t back)
{
	struct level_state *l = &s->lvl[level];
	struct fs_objref o;

	if (known) {
		uint32_t want = l->any ? l->blk : 0;

		if (back != want) {
			o = blk_obj(s->t, blk, daddr);
			fs_report_val(s->fl, PR_DA_BAD_SIBLING, &o, "info.back",
				      want, back);
		}
	}
	if (l->any && l->forw_known && l->forw != blk) {
		o = blk_obj(s->t, l->blk, l->daddr);
		fs_report_val(s->fl, PR_DA_BAD_SIBLING, &o, "info.forw", blk,
			      l->forw);
	}
	l->any = true;
	l->forw_known = known;
	l->blk = blk;
	l->forw = forw;
	l->daddr = daddr;
}

static void sibling_finish(struct walk_state *s)
{
	for (unsigned i = 0; i < XFS_DA_NODE_MAXDEPTH; i++) {
		struct level_state *l = &s->lvl[i];

		if (l->any && l->forw_known && l->forw != 0) {
			struct fs_objref o = blk_obj(s->t, l->blk, l->daddr);

			fs_report_val(s->fl, PR_DA_BAD_SIBLING, &o, "info.forw",
				      0, l->forw);
		}
	}
}

/*
 * Visit the block blk, expected at level want (-1: the root, either a
 * node or a leaf).  On return *sub holds the hash range under it (count
 * 0 if nothing usable).  from is where the pointer came from.
 */
static void visit(struct walk_state *s, xfs_dablk_t blk, int want,
		  unsigned depth, const struct fs_objref *from,
		  struct da_leaf_info *sub)
{
	struct dabtree *t = s->t;
	const struct fs_geom *g = &t->fs->geo;
	struct fs_buf *bp;
	struct fs_objref o;
	struct da_node_hdr h;
	int r;

	sub->count = 0;
	sub->empty_known = false;
	if (s->err)
		return;
	if (depth >= XFS_DA_NODE_MAXDEPTH) {
		fs_report_found(s->fl, PR_DA_TOO_DEEP, from, "before", blk);
		s->st.skipped++;
		return;
	}
	if (!ptr_ok(s, blk, from)) {
		s->st.skipped++;
		return;
	}
	r = blkset_add(&s->seen, blk);
	if (r < 0) {
		s->err = r;
		return;
	}
	if (r == 0) {
		fs_report_found(s->fl, PR_DA_LOOP, from, "before", blk);
		s->st.skipped++;
		return;
	}
	r = dabtree_read(t, blk, NULL, s->fl, &bp);
	if (r) {
		s->st.skipped++;
		if (r == -ENODATA)
			fs_report_found(s->fl, PR_DA_HOLE, from, "before", blk);
		else if (r == -ENOMEM)
			s->err = r;
		if (want >= 0)
			sibling_arrive(s, want, blk, (xfs_daddr_t)-1, false,
				       0, 0);
		return;
	}
	o = blk_obj(t, blk, bp->daddr);
	if (bp->len < sizeof(struct xfs_da3_node_hdr)) {
		fs_report_found(s->fl, PR_DA_BAD_MAGIC, &o, "info.magic", 0);
		s->st.skipped++;
		goto out;
	}
	da3_node_hdr_decode(bp->data, &h);

	if (h.info.magic == t->leaf_magic) {
		if (want > 0) {
			fs_report_val(s->fl, PR_DA_BAD_LEVEL, &o, "level",
				      want, 0);
			s->st.skipped++;
			goto out;
		}
		sibling_arrive(s, 0, blk, bp->daddr, true, h.info.forw,
			       h.info.back);
		if (t->leaf_ops)
			buf_verify(bp, t->leaf_ops, NULL);
		s->st.leaves++;
		r = s->leaf_fn ? s->leaf_fn(t, blk, bp, sub, s->priv) : 0;
		if (r) {
			s->err = r;
			goto out;
		}
		if (sub->count) {
			if (s->have_hash && sub->first < s->last_hash)
				fs_report_val(s->fl, PR_DA_HASH_ORDER, &o,
					      "hashval", s->last_hash,
					      sub->first);
			s->have_hash = true;
			s->last_hash = sub->last;
		}
		goto out;
	}
	if (h.info.magic != XFS_DA3_NODE_MAGIC) {
		fs_report_found(s->fl, PR_DA_BAD_MAGIC, &o, "info.magic",
				h.info.magic);
		s->st.skipped++;
		if (want >= 0)
			sibling_arrive(s, want, blk, bp->daddr, false, 0, 0);
		goto out;
	}
	if (want == 0) {
		fs_report_val(s->fl, PR_DA_BAD_LEVEL, &o, "level", 0, h.level);
		s->st.skipped++;
		goto out;
	}
	buf_verify(bp, &da3_node_buf_ops, NULL);
	da3_node_check(g, bp->data, bp->len, bp->daddr, t->ip->ino, &o, s->fl);
	if (h.level == 0 || h.level >= XFS_DA_NODE_MAXDEPTH) {
		s->st.skipped++;
		goto out;
	}
	if (want > 0 && h.level != want) {
		fs_report_val(s->fl, PR_DA_BAD_LEVEL, &o, "level", want,
			      h.level);
		s->st.skipped++;
		goto out;
	}
	if (want < 0)
		s->st.levels = h.level + 1;
	sibling_arrive(s, h.level, blk, bp->daddr, true, h.info.forw,
		       h.info.back);
	s->st.nodes++;
	if (s->node_fn) {
		r = s->node_fn(t, blk, h.level, s->priv);
		if (r) {
			s->err = r;
			goto out;
		}
	}
	{
		const struct xfs_da_node_entry *ents = da3_node_ents(bp->data);
		unsigned count = h.count, max = da3_node_maxents(bp->len);

		if (count == 0 || count > max)
			s->st.skipped++;	/* reported; the tree is not whole */
		if (count > max)
			count = max;
		for (unsigned i = 0; i < count && !s->err; i++) {
			xfs_dahash_t hv = get_be32(ents[i].hashval);
			struct da_leaf_info c;
			struct fs_objref eo = o;

			eo.index = o.index + sizeof(struct xfs_da3_node_hdr) +
				   i * sizeof(*ents);
			visit(s, get_be32(ents[i].before), h.level - 1,
			      depth + 1, &eo, &c);
			if (!c.count && !c.empty_known)
				continue;
			if ((c.count ? c.last : 0) != hv)
				fs_report_val(s->fl, PR_DA_BAD_HASHVAL, &eo,
					      "btree.hashval",
					      c.count ? c.last : 0, hv);
			if (!c.count)
				continue;
			if (!sub->count)
				sub->first = c.first;
			sub->last = c.last;
			sub->count += c.count;
		}
	}
out:
	buf_release(bp);
}

int dabtree_walk(struct dabtree *t, da_leaf_fn leaf_fn, da_node_fn node_fn,
		 void *priv, struct fs_findings *fl, struct da_walk_stats *st)
{
	struct walk_state s = {
		.t = t,
		.leaf_fn = leaf_fn,
		.node_fn = node_fn,
		.priv = priv,
		.fl = fl,
	};
	struct fs_objref from = OBJREF_INIT(t->objtype);
	struct da_leaf_info sub;

	from.ino = t->ip->ino;
	s.st.levels = 1;
	visit(&s, t->root, -1, 0, &from, &sub);
	if (s.err >= 0)
		sibling_finish(&s);
	free(s.seen.v);
	if (st)
		*st = s.st;
	return s.err;
}

int dabtree_lookup(struct dabtree *t, xfs_dahash_t hash, xfs_dablk_t *leaf,
		   struct fs_findings *fl)
{
	xfs_dablk_t blk = t->root;
	int want = -1;

	for (unsigned depth = 0; depth < XFS_DA_NODE_MAXDEPTH; depth++) {
		const struct xfs_da_node_entry *ents;
		struct da_node_hdr h;
		struct fs_buf *bp;
		unsigned count, i;
		int err;

		if (blk < t->lo || blk >= t->hi)
			return -EUCLEAN;
		err = dabtree_read(t, blk, NULL, fl, &bp);
		if (err)
			return err;
		if (bp->len < sizeof(struct xfs_da3_node_hdr)) {
			buf_release(bp);
			return -EUCLEAN;
		}
		da3_node_hdr_decode(bp->data, &h);
		if (h.info.magic == t->leaf_magic && want <= 0) {
			buf_release(bp);
			*leaf = blk;
			return 0;
		}
		if (h.info.magic != XFS_DA3_NODE_MAGIC || want == 0 ||
		    (want > 0 && h.level != want) || h.level == 0 ||
		    h.level >= XFS_DA_NODE_MAXDEPTH) {
			buf_release(bp);
			return -EUCLEAN;
		}
		ents = da3_node_ents(bp->data);
		count = h.count;
		if (count > da3_node_maxents(bp->len))
			count = da3_node_maxents(bp->len);
		for (i = 0; i < count; i++)
			if (get_be32(ents[i].hashval) >= hash)
				break;
		if (i == count) {
			buf_release(bp);
			return -ENOENT;
		}
		blk = get_be32(ents[i].before);
		want = h.level - 1;
		buf_release(bp);
	}
	return -EUCLEAN;
}
