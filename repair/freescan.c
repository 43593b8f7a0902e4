/*
 * The free space btrees' and the rmapbt's records as the reference reads
 * them (part of phase 2).
 *
 * The reference keeps a state for every block of the AG and reads the
 * AG in a fixed order: the header sectors and an internal log are in use
 * (state 4) before any AG is read; the AGFL's blocks are free (2); then
 * the bnobt and the cntbt, depth first, each block of a tree taking the
 * state 7 unless it already has a state other than 0 (unknown) or 1
 * (free by one tree), and each record of a leaf making its blocks free:
 * from 0 to 1 in either tree, from 1 to 2 in the cntbt.  Anything else
 * is a block "multiply claimed by bno (cnt) space tree, state - S", said
 * per run of one state.  Before that, a record whose start is not a
 * block a record may name (inside the AG, past the AGFL sector's block)
 * has an "invalid start block", one that is empty, wraps or ends outside
 * the AG an "invalid length", and is not taken.  A bnobt record that
 * starts at or before the last block of the last record taken in the
 * same block is "out-of-order"; a cntbt record shorter than the one
 * before it in the same block is.  Out of order, it is taken all the
 * same.
 *
 * Then the rmapbt: a record with flags no record has, a start outside
 * the AG (block 0 is the headers' own) or a length that is empty, wraps
 * or leaves the AG is said and not taken; then its owner, a non-inode
 * owner's flags and offset, its order against the record before it in
 * the same block, whether it could be one with the record taken before
 * it anywhere in the tree ("should be merged"), and the blocks it maps
 * against their states (its owner's states 8 to 13 where there was
 * none; "Static meta block", "AG meta block" or "unknown block ...
 * mismatch" where another claim was there).  Then the refcountbt's
 * blocks, which must be unknown or the rmapbt's refcountbt blocks
 * ("refcount btree block claimed (state S)").
 *
 * rp_ag_replay() does the same, from the same records, where our walk
 * of the trees took the records the reference takes (phase 2's
 * *_as_ref); its messages then stand for ag_check()'s findings on those
 * records and on the blocks it says are claimed twice.  The inode btrees
 * the reference reads after these say their own conflicts.
 *
 * What it leaves: the state map, in r->ags[agno].bstate, for phase 3
 * (enum rp_bstate, repair.h).  The reference reads the inode btrees
 * after these and marks the inode chunks and inobt blocks; phase 3 adds
 * them from what phase 2 found (rp_ag.meta) before it reads an inode.
 *
 * What stays true: nothing is written; an AG larger than the state map
 * allows is left to ag_check()'s words (its rmapbt records are still
 * said, without the block states).
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "ag.h"
#include "array.h"
#include "repair.h"

/* One state byte per block: AGs up to this many blocks are modelled. */
#define FREE_REPLAY_MAX_BLOCKS	(1u << 26)

struct replay {
	struct repair	*r;
	xfs_agnumber_t	agno;
	uint32_t	aglen;
	uint8_t		*state;
	struct rp_out	*o;
	bool		cnt;		/* reading the cntbt */
	bool		fino;		/* reading the finobt */
	xfs_daddr_t	block;		/* leaf whose records are read */
	bool		skip;		/* that block was claimed twice */
	uint32_t	lastblock, lastcount;
	struct sm_list	*said;
	/* the rmapbt: the last record taken in this block, and in the tree */
	uint64_t	lastowner, lastoffset;
	struct sm_rec	lastrec;
	uint32_t	lastrec_flags;
	bool		states;		/* the state map is the reference's */
	/* the rmapbt: each leaf's high key in its parent (rmap_bounds) */
	struct rmap_bound {
		uint32_t		agbno;
		uint32_t		order;	/* in the tree */
		struct xfs_rmap_key	key;
	}		*bounds;
	size_t		nbounds, capbounds;
	const struct xfs_rmap_key *bound;	/* the leaf being read's */
};

static bool agbno_ok(const struct replay *p, uint32_t agbno)
{
	return agbno >= ag_first_block(&p->r->fs->geo) && agbno < p->aglen;
}

static void set_run(struct replay *p, uint32_t start, uint64_t len,
		    uint8_t st)
{
	if (start >= p->aglen)
		return;
	if (len > p->aglen - start)
		len = p->aglen - start;
	memset(p->state + start, st, len);
}

static int agfl_entry(xfs_agnumber_t agno, unsigned idx, xfs_agblock_t agbno,
		      void *priv)
{
	struct replay *p = priv;

	(void)agno;
	(void)idx;
	if (agbno_ok(p, agbno))
		p->state[agbno] = BS_FREE;
	return 0;
}

static int tree_block(struct btree_walk *w, unsigned level, xfs_fsblock_t fsb,
		      void *priv)
{
	struct replay *p = priv;
	const struct fs_geom *g = &w->fs->geo;
	uint32_t agbno = fsb_to_agbno(g, fsb);
	uint8_t st;

	(void)level;
	p->block = w->obj.daddr;
	p->skip = false;
	p->lastblock = 0;
	p->lastcount = 0;
	if (fsb_to_agno(g, fsb) != p->agno || agbno >= p->aglen)
		return 0;
	st = p->state[agbno];
	if (st == BS_UNKNOWN || st == BS_FREE1) {
		p->state[agbno] = BS_FS_MAP;
	} else {
		/* ag_check() says this one; the block is not read on */
		p->state[agbno] = BS_MULT;
		p->skip = true;
	}
	return 0;
}

static struct rp_args rec_args(const struct replay *p,
			       const struct btree_walk *w)
{
	struct rp_args a = RP_ARGS_INIT(OBJ_NONE);

	a.obj = w->obj;
	a.obj.agno = p->agno;
	a.s1 = p->cnt ? "cnt" : "bno";
	return a;
}

static void claim_free(struct replay *p, const struct btree_walk *w,
		       uint32_t b, uint32_t end)
{
	while (b < end) {
		uint8_t st = p->state[b];
		uint32_t e = b + 1;

		while (e < end && p->state[e] == st)
			e++;
		if (st == BS_UNKNOWN) {
			set_run(p, b, e - b, BS_FREE1);
		} else if (st == BS_FREE1 && p->cnt) {
			set_run(p, b, e - b, BS_FREE);
		} else {
			struct rp_args a = rec_args(p, w);

			a.field = "free claim";
			a.found = b;
			a.expected = e - 1;
			a.v2 = st;
			rp_say(p->o, PR_AG_BLOCK_CONFLICT, &a);
			sm_list_add(p->said, b, e - b, 0, 0);
		}
		b = e;
	}
}

static int free_rec(struct btree_walk *w, const void *rec, void *priv)
{
	const struct xfs_alloc_rec *ar = rec;
	struct replay *p = priv;
	uint32_t b = get_be32(ar->ar_startblock);
	uint32_t len = get_be32(ar->ar_blockcount);
	uint32_t end = b + len;
	struct rp_args a = rec_args(p, w);

	if (p->skip || w->obj.daddr != p->block)
		return 0;
	if (!agbno_ok(p, b)) {
		a.field = "bad start";
		a.found = b;
		rp_say(p->o, PR_ALLOC_BAD_EXTENT, &a);
		sm_list_add(p->said, b, 1, 0, 0);
		return 0;
	}
	if (!len || end <= b || !agbno_ok(p, end - 1)) {
		a.field = "bad length";
		a.found = len;
		rp_say(p->o, PR_ALLOC_BAD_EXTENT, &a);
		sm_list_add(p->said, b, 1, 0, 0);
		return 0;
	}
	a.field = "free order";
	a.found = b;
	a.expected = len;
	if (!p->cnt) {
		if (b <= p->lastblock)
			rp_say(p->o, PR_BTREE_RECS_OUT_OF_ORDER, &a);
		else
			p->lastblock = end - 1;
	} else {
		if (len < p->lastcount)
			rp_say(p->o, PR_BTREE_RECS_OUT_OF_ORDER, &a);
		else
			p->lastcount = len;
	}
	claim_free(p, w, b, end);
	return 0;
}

/* ---- the rmapbt ---- */

static int bound_cmp(const void *pa, const void *pb)
{
	const struct rmap_bound *a = pa, *b = pb;

	if (a->agbno != b->agbno)
		return a->agbno < b->agbno ? -1 : 1;
	return a->order < b->order ? -1 : a->order > b->order;
}

static int bound_find(const void *pa, const void *pb)
{
	const struct rmap_bound *a = pa, *b = pb;

	return a->agbno < b->agbno ? -1 : a->agbno > b->agbno;
}

/* The high key a node gives the leaf at agbno (rmap_bounds), or NULL. */
static const struct xfs_rmap_key *rmap_bound_of(const struct replay *p,
						uint32_t agbno)
{
	struct rmap_bound want = { .agbno = agbno };
	const struct rmap_bound *b;

	if (!p->nbounds)
		return NULL;
	b = bsearch(&want, p->bounds, p->nbounds, sizeof(want), bound_find);
	if (!b)
		return NULL;
	while (b > p->bounds && b[-1].agbno == agbno)
		b--;		/* the first the tree names */
	return &b->key;
}

static int rmap_block(struct btree_walk *w, unsigned level, xfs_fsblock_t fsb,
		      void *priv)
{
	struct replay *p = priv;
	const struct fs_geom *g = &w->fs->geo;
	uint32_t agbno = fsb_to_agbno(g, fsb);
	uint8_t st;

	p->block = w->obj.daddr;
	p->skip = false;
	p->bound = level ? NULL : rmap_bound_of(p, agbno);
	if (!p->states || fsb_to_agno(g, fsb) != p->agno || agbno >= p->aglen)
		return 0;
	st = p->state[agbno];
	if (st == BS_UNKNOWN || st == BS_FS_MAP1) {
		p->state[agbno] = BS_FS_MAP;
	} else {
		p->state[agbno] = BS_MULT;
		p->skip = true;
	}
	return 0;
}

/* The rmapbt's owner on its own: a metadata owner it knows, or an inode
   whose AG and block lie inside the filesystem's bounds. */
static bool rmap_owner_ok(const struct fs_geom *g, uint64_t owner)
{
	uint64_t agino = owner & ((1ull << g->agino_log) - 1);

	if (owner > XFS_RMAP_OWN_MIN && owner <= XFS_RMAP_OWN_FS)
		return true;
	return (owner >> g->agino_log) < g->agcount &&
	       (agino >> g->inopblog) < g->agblocks;
}

static bool rmap_in_order(const struct replay *p, uint32_t b, uint64_t owner,
			  uint64_t offset)
{
	if (!p->r->fs->geo.has_reflink)
		return b > p->lastblock;
	if (b != p->lastblock)
		return b > p->lastblock;
	if (owner != p->lastowner)
		return owner > p->lastowner;
	return offset > p->lastoffset;
}

/* Could the record have been one with the last record taken? */
static bool rmap_mergeable(const struct replay *p, uint32_t b, uint32_t len,
			   uint64_t owner, uint64_t off, uint32_t flags)
{
	const struct sm_rec *l = &p->lastrec;

	if (l->owner != owner || (uint64_t)l->agbno + l->len != b ||
	    (uint64_t)l->len + len > UINT32_MAX)
		return false;
	if (owner & (1ull << 63))
		return true;
	if (p->lastrec_flags != flags)
		return false;
	if (flags & XFS_RMAP_OFF_BMBT_BLOCK)
		return true;
	return l->offset + l->len == off;
}

/* A run of blocks of one state against the record's owner. */
static void rmap_claim_run(struct replay *p, const struct btree_walk *w,
			   uint32_t b, uint32_t e, uint64_t owner)
{
	uint8_t st = p->state[b];
	const char *field = NULL;

	switch (st) {
	case BS_UNKNOWN:
		switch (owner) {
		case XFS_RMAP_OWN_FS:
		case XFS_RMAP_OWN_LOG:
			set_run(p, b, e - b, BS_INUSE_FS1);
			break;
		case XFS_RMAP_OWN_AG:
		case XFS_RMAP_OWN_INOBT:
			set_run(p, b, e - b, BS_FS_MAP1);
			break;
		case XFS_RMAP_OWN_INODES:
			set_run(p, b, e - b, BS_INO1);
			break;
		case XFS_RMAP_OWN_REFC:
			set_run(p, b, e - b, BS_REFC);
			break;
		case XFS_RMAP_OWN_COW:
			set_run(p, b, e - b, BS_COW);
			break;
		case XFS_RMAP_OWN_NULL:
			break;
		default:
			set_run(p, b, e - b, BS_INUSE1);
			break;
		}
		return;
	case BS_INUSE_FS:
		if (owner == XFS_RMAP_OWN_FS || owner == XFS_RMAP_OWN_LOG)
			return;
		field = "static";
		break;
	case BS_FS_MAP:
		if (owner == XFS_RMAP_OWN_AG || owner == XFS_RMAP_OWN_INOBT)
			return;
		field = "ag meta";
		break;
	case BS_FREE1:
	case BS_FREE:
		return;		/* the AGFL's, or said later */
	case BS_INUSE1:
		if (p->r->fs->geo.has_reflink && !(owner & (1ull << 63)))
			return;
		field = "unknown";
		break;
	default:
		field = "unknown";
		break;
	}
	{
		struct rp_args a = RP_ARGS_INIT(OBJ_RMAPBT);

		a.obj = w->obj;
		a.obj.agno = p->agno;
		a.field = field;
		a.found = b;
		a.expected = e - 1;
		a.v2 = st;
		a.v3 = owner;
		rp_say(p->o, PR_RP_RMAP_STATE, &a);
	}
}

/*
 * The high keys the nodes above the leaves give their children, as the
 * reference keeps them while it reads each child (a key whose flags no
 * record has leaves its child unread, and so unbound here).
 */
static void rmap_bounds(struct replay *p, uint32_t agbno, unsigned level,
			unsigned depth)
{
	const struct fs_geom *g = &p->r->fs->geo;
	const struct btree_ops *ops = &rmapbt_ops;
	unsigned n, maxr = btree_maxrecs(g, ops, false);
	const uint8_t *d;
	struct fs_buf *bp;

	if (!level || depth > XFS_BTREE_MAXLEVELS || agbno >= p->aglen ||
	    fs_read_agblocks(p->r->fs, p->agno, agbno, 1, ops->buf_ops, NULL,
			     &bp))
		return;
	d = bp->data;
	n = load_be16(d + offsetof(struct xfs_btree_sblock, bb_numrecs));
	if (buf_corrupt(bp) || load_be32(d) != ops->magic)
		n = 0;
	if (n > maxr)
		n = maxr;
	for (unsigned i = 0; i < n; i++) {
		const uint8_t *hk = d + btree_hdr_len(ops) +
				    (size_t)i * 2 * ops->key_len + ops->key_len;
		uint32_t ptr = load_be32(d + btree_hdr_len(ops) +
					 (size_t)maxr * 2 * ops->key_len +
					 (size_t)i * 4);
		struct rmap_bound *nv;

		if (level > 1) {
			rmap_bounds(p, ptr, level - 1, depth + 1);
			continue;
		}
		nv = fs_array_grow(p->bounds, &p->capbounds, p->nbounds + 1,
				   sizeof(*nv), 16);
		if (!nv)
			break;
		p->bounds = nv;
		p->bounds[p->nbounds].agbno = ptr;
		p->bounds[p->nbounds].order = (uint32_t)p->nbounds;
		memcpy(&p->bounds[p->nbounds].key, hk, sizeof(nv->key));
		p->nbounds++;
	}
	buf_release(bp);
}

/*
 * A record taken past the high key its parent gives its block, as the
 * reference compares them: the record's last block, its owner, and its
 * last offset with the fork and bmbt flags (not the unwritten flag) on
 * both sides -- so a record whose flags a key lacks is past it.
 */
static void rmap_past_bound(struct replay *p, const struct btree_walk *w,
			    uint32_t b, uint32_t len, uint64_t owner,
			    uint64_t raw)
{
	const uint64_t kept = XFS_RMAP_OFF_ATTR_FORK | XFS_RMAP_OFF_BMBT_BLOCK;
	const struct xfs_rmap_key *k = p->bound;
	struct rp_args a = RP_ARGS_INIT(OBJ_RMAPBT);
	uint64_t off = raw & XFS_RMAP_OFF_MASK, koff;
	uint32_t last = b + len - 1, kb;
	uint64_t kowner;

	if (!k)
		return;
	if (!(owner & (1ull << 63)) && !(raw & XFS_RMAP_OFF_BMBT_BLOCK))
		off += len - 1;
	off = (off & XFS_RMAP_OFF_MASK) | (raw & kept);
	kb = get_be32(k->rm_startblock);
	kowner = get_be64(k->rm_owner);
	koff = get_be64(k->rm_offset) & (XFS_RMAP_OFF_MASK | kept);
	if (last < kb || (last == kb && (owner < kowner ||
					  (owner == kowner && off <= koff))))
		return;
	a.obj = w->obj;
	a.obj.agno = p->agno;
	a.field = "recs";
	a.found = off;
	a.expected = koff;
	rp_say(p->o, PR_BTREE_PAST_HIGH_KEY, &a);
}

static int rmap_rec(struct btree_walk *w, const void *rec, void *priv)
{
	const struct xfs_rmap_rec *m = rec;
	struct replay *p = priv;
	uint32_t b = get_be32(m->rm_startblock);
	uint32_t len = get_be32(m->rm_blockcount);
	uint32_t end = b + len;
	uint64_t owner = get_be64(m->rm_owner);
	uint64_t raw = get_be64(m->rm_offset);
	uint64_t off = raw & XFS_RMAP_OFF_MASK;
	uint32_t flags = (uint32_t)((raw & XFS_RMAP_OFF_FLAGS) >> 32);
	struct rp_args a = RP_ARGS_INIT(OBJ_RMAPBT);
	bool first = w->obj.index == 0;

	if (p->skip || w->obj.daddr != p->block)
		return 0;
	a.obj = w->obj;
	a.obj.agno = p->agno;
	a.s1 = "rmap";
	if (raw & ~(XFS_RMAP_OFF_MASK | XFS_RMAP_OFF_FLAGS)) {
		a.field = "record";
		a.found = raw;
		rp_say(p->o, PR_RMAP_BAD_FLAGS, &a);
		return 0;
	}
	/* the reference's own bound: inside the AG (the headers' record
	   starts at block 0) */
	if (b >= p->aglen) {
		a.field = "bad start";
		a.found = b;
		rp_say(p->o, PR_RMAP_BAD_EXTENT, &a);
		return 0;
	}
	if (!len || end <= b || end - 1 >= p->aglen) {
		a.field = "bad length";
		a.found = len;
		rp_say(p->o, PR_RMAP_BAD_EXTENT, &a);
		return 0;
	}
	if (!rmap_owner_ok(&w->fs->geo, owner)) {
		a.field = "owner";
		a.found = owner;
		a.expected = len;
		rp_say(p->o, PR_RMAP_BAD_OWNER, &a);
	}
	if (owner & (1ull << 63)) {
		if (flags) {
			a.field = "non-inode flags";
			rp_say(p->o, PR_RMAP_BAD_FLAGS, &a);
		}
		if (off) {
			a.field = "non-inode offset";
			rp_say(p->o, PR_RMAP_BAD_OFFSET, &a);
		}
	}
	if (first || rmap_in_order(p, b, owner, raw)) {
		p->lastblock = b;
		p->lastowner = owner;
		p->lastoffset = raw;
	} else {
		a.field = "rmap order";
		a.found = b;
		a.expected = len;
		a.v2 = owner;
		a.v3 = raw;
		rp_say(p->o, PR_BTREE_RECS_OUT_OF_ORDER, &a);
	}
	if (rmap_mergeable(p, b, len, owner, off, flags)) {
		a.field = "merge";
		rp_say(p->o, PR_RP_RMAP_MERGEABLE, &a);
		p->lastrec.len += len;
	} else {
		p->lastrec = (struct sm_rec){ b, len, owner, off };
		p->lastrec_flags = flags;
	}
	rmap_past_bound(p, w, b, len, owner, raw);
	if (!p->states)
		return 0;
	while (b < end) {
		uint32_t e = b + 1;

		while (e < end && p->state[e] == p->state[b])
			e++;
		rmap_claim_run(p, w, b, e, owner);
		b = e;
	}
	return 0;
}

static void replay_rmapbt(struct replay *p, const struct fs_agf *agf)
{
	struct btree_root root;

	p->block = (xfs_daddr_t)-1;
	p->lastrec.owner = XFS_RMAP_OWN_UNKNOWN;
	agf_btree_root(agf, p->agno, BT_RMAP, &root);
	if (root.levels > 1 && root.levels <= XFS_BTREE_MAXLEVELS)
		rmap_bounds(p, root.root, root.levels - 1, 0);
	/* (a leaf two entries name is read, and bound, by the first) */
	if (p->nbounds > 1)
		qsort(p->bounds, p->nbounds, sizeof(*p->bounds), bound_cmp);
	btree_walk(p->r->fs, &root, rmap_rec, rmap_block, p, NULL, NULL);
	free(p->bounds);
	p->bounds = NULL;
	p->nbounds = p->capbounds = 0;
}

/*
 * The refcountbt's blocks: each must be unknown or mapped to the
 * refcountbt by the rmapbt; another state is said ("refcount btree block
 * claimed") and the block is not read on.  Its records claim nothing the
 * free space and rmap replay would hold against anything.
 */
static int refc_block(struct btree_walk *w, unsigned level, xfs_fsblock_t fsb,
		      void *priv)
{
	struct replay *p = priv;
	const struct fs_geom *g = &w->fs->geo;
	uint32_t agbno = fsb_to_agbno(g, fsb);
	struct rp_args a = RP_ARGS_INIT(OBJ_REFCBT);
	uint8_t st;

	(void)level;
	if (fsb_to_agno(g, fsb) != p->agno || agbno >= p->aglen)
		return 0;
	st = p->state[agbno];
	if (st == BS_UNKNOWN || st == BS_REFC) {
		p->state[agbno] = BS_FS_MAP;
		return 0;
	}
	p->state[agbno] = BS_MULT;
	a.obj = w->obj;
	a.obj.agno = p->agno;
	a.field = "refc claim";
	a.found = agbno;
	a.v2 = st;
	a.v3 = 0;
	rp_say(p->o, PR_AG_BLOCK_CONFLICT, &a);
	sm_list_add(p->said, agbno, 1, 0, 0);
	return 0;
}

/*
 * A refcountbt record of one owner names a CoW staging extent (with the
 * CoW bit or not: the reference says the missing bit, and takes the
 * extent all the same): its blocks must be unknown or the rmapbt's CoW
 * blocks, else "extent (A/B) len L claimed, state is S" (the state of
 * its first block), and they become CoW blocks.
 */
static int refc_rec(struct btree_walk *w, const void *rec, void *priv)
{
	const struct xfs_refcount_rec *c = rec;
	struct replay *p = priv;
	uint32_t start = get_be32(c->rc_startblock) & ~XFS_REFC_COWFLAG;
	uint32_t len = get_be32(c->rc_blockcount);
	struct rp_args a = RP_ARGS_INIT(OBJ_REFCBT);
	uint8_t st;

	if (get_be32(c->rc_refcount) != 1 ||
	    !ag_extent_ok(&w->fs->geo, p->agno, start, len))
		return 0;
	st = p->state[start];
	if (st != BS_UNKNOWN && st != BS_COW) {
		a.obj = w->obj;
		a.obj.agno = p->agno;
		a.field = "cow claim";
		a.found = start;
		a.expected = len;
		a.v2 = st;
		rp_say(p->o, PR_AG_BLOCK_CONFLICT, &a);
	}
	set_run(p, start, len, BS_COW);
	return 0;
}

/*
 * Then the inode btrees (after the AGF's trees): each block must be
 * unknown, free by the free space trees, or mapped to an AG btree by the
 * rmapbt; another state is said ("inobt btree block claimed (state S)")
 * and the block read on all the same.
 */
static int ino_block(struct btree_walk *w, unsigned level, xfs_fsblock_t fsb,
		     void *priv)
{
	struct replay *p = priv;
	const struct fs_geom *g = &w->fs->geo;
	uint32_t agbno = fsb_to_agbno(g, fsb);
	struct rp_args a = RP_ARGS_INIT(OBJ_INOBT);
	uint8_t st;

	(void)level;
	if (fsb_to_agno(g, fsb) != p->agno || agbno >= p->aglen)
		return 0;
	st = p->state[agbno];
	switch (st) {
	case BS_UNKNOWN:
	case BS_FREE1:
	case BS_FREE:
	case BS_FS_MAP1:
		p->state[agbno] = BS_FS_MAP;
		return 0;
	}
	a.obj = w->obj;
	a.obj.agno = p->agno;
	a.field = "ino claim";
	a.s1 = p->fino ? "fino" : "ino";
	a.found = agbno;
	a.v2 = st;
	a.v3 = 0;
	rp_say(p->o, PR_AG_BLOCK_CONFLICT, &a);
	sm_list_add(p->said, agbno, 1, 0, 0);
	return 0;
}

unsigned rp_ag_replay(struct repair *r, xfs_agnumber_t agno, struct rp_out *o,
		      struct sm_list *said)
{
	struct fs *fs = r->fs;
	const struct fs_geom *g = &fs->geo;
	struct rp_ag *ag = &r->ags[agno];
	struct replay p = { .r = r, .agno = agno, .o = o, .said = said,
			    .block = (xfs_daddr_t)-1 };
	struct btree_root root;
	struct fs_buf *bp;
	struct fs_agf agf;
	struct fs_agi agi;
	unsigned done = 0;

	p.aglen = geom_ag_blocks(g, agno);
	if (ag->hdr_bad || !ag->agf_read ||
	    ag_read_agf(fs, agno, NULL, &bp, &agf))
		return 0;
	buf_release(bp);
	if (ag->bno_as_ref && ag->cnt_as_ref &&
	    p.aglen <= FREE_REPLAY_MAX_BLOCKS &&
	    (p.state = calloc(p.aglen, 1)) != NULL) {
		set_run(&p, 0, ag_first_block(g), BS_INUSE_FS);
		if (g->log_internal && fsb_to_agno(g, g->logstart) == agno)
			set_run(&p, fsb_to_agbno(g, g->logstart),
				g->logblocks, BS_INUSE_FS);
		if (!ag_read_agfl(fs, agno, NULL, &bp)) {
			agfl_walk(g, agno, &agf, bp->data, agfl_entry, &p);
			buf_release(bp);
		}
		agf_btree_root(&agf, agno, BT_BNO, &root);
		if (ag->taken_root[0] == root.root)
			btree_walk(fs, &root, free_rec, tree_block, &p, NULL,
				   NULL);
		p.cnt = true;
		p.block = (xfs_daddr_t)-1;
		agf_btree_root(&agf, agno, BT_CNT, &root);
		if (ag->taken_root[1] == root.root)
			btree_walk(fs, &root, free_rec, tree_block, &p, NULL,
				   NULL);
		p.states = true;
		done |= RP_REPLAY_FREE;
	}
	if (g->has_rmapbt && ag->rmap_as_ref) {
		replay_rmapbt(&p, &agf);
		done |= RP_REPLAY_RMAP;
	}
	if (p.states && g->has_reflink && (!g->has_rmapbt || ag->rmap_as_ref)) {
		agf_btree_root(&agf, agno, BT_REFC, &root);
		btree_walk(fs, &root, refc_rec, refc_block, &p, NULL, NULL);
	}
	if (p.states && ag->sum.agi_ok &&
	    !ag_read_agi(fs, agno, NULL, &bp, &agi)) {
		buf_release(bp);
		agi_btree_root(&agi, agno, BT_INO, &root);
		btree_walk(fs, &root, NULL, ino_block, &p, NULL, NULL);
		if (g->has_finobt) {
			p.fino = true;
			agi_btree_root(&agi, agno, BT_FINO, &root);
			btree_walk(fs, &root, NULL, ino_block, &p, NULL, NULL);
		}
	}
	/* kept for phase 3, which holds each inode's claims to it */
	free(ag->bstate);
	ag->bstate = p.states ? p.state : NULL;
	if (!p.states)
		free(p.state);
	return done;
}

bool rp_free_replay_said(const struct sm_list *said, uint64_t agbno)
{
	for (size_t i = 0; i < said->n; i++)
		if (agbno >= said->v[i].agbno &&
		    agbno < (uint64_t)said->v[i].agbno + said->v[i].len)
			return true;
	return false;
}
