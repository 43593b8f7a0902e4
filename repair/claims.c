/*
 * Phase 3: the blocks an inode claims (part of phase 3, see phase3.c).
 *
 * Each bmbt block and extent of a fork, in the order the reference's
 * walk reads them, is held to the per-AG block states phase 2 left and
 * to the claims of the inodes read before (walk_claims): a free block
 * ("claims free block"), metadata or another inode's block ("claims
 * used block") ends the walk where the reference's ends.  What the
 * reference's second look (its phase 4) would take again of a file its
 * phase 3 clears is decided here too (second_look_takes), and the
 * bmbt blocks an extent read later claimed (p3_late_dups).
 *
 * What goes in: r->ags[].bstate and .meta (phase 2).  What comes out:
 * the claims of each kept inode as reverse mappings in r->smap (flushed
 * a batch at a time), and the block states updated under bstate_lock.
 * The AGs may be walked at once while no two of them look at one block
 * (p3_spec_begin); the states are put back if they do.
 * What stays true: nothing is written.
 */
#include "config.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "array.h"
#include "bmap.h"
#include "inomap.h"
#include "phase3int.h"
#include "repair.h"

/* Pass the batched claims to the space map, an AG's run at a time. */
void flush_claims(struct p3ag *c)
{
	unsigned i = 0;

	while (i < c->nclaims) {
		unsigned j = i + 1;

		while (j < c->nclaims && c->claim_ag[j] == c->claim_ag[i])
			j++;
		sm_add_batch(c->r->smap, c->claim_ag[i], &c->claims[i], j - i);
		i = j;
	}
	c->nclaims = 0;
}

void claim_as(struct p3ag *c, xfs_fsblock_t fsb, uint64_t len,
		     uint64_t owner, uint64_t offset)
{
	const struct fs_geom *g = &c->r->fs->geo;

	if (c->nclaims == P3_CLAIMS)
		flush_claims(c);
	c->claim_ag[c->nclaims] = fsb_to_agno(g, fsb);
	c->claims[c->nclaims++] = (struct sm_rec){ fsb_to_agbno(g, fsb),
						   (uint32_t)len, owner,
						   offset };
}

static void claim(struct p3ag *c, xfs_fsblock_t fsb, uint64_t len,
		  uint64_t offset)
{
	const struct fs_geom *g = &c->r->fs->geo;
	struct p3_mine *nv;

	claim_as(c, fsb, len, c->ino, offset);
	nv = fs_array_grow(c->mine, &c->capmine, c->nmine + 1, sizeof(*nv),
			   16);
	if (!nv)
		return;
	c->mine = nv;
	c->mine[c->nmine++] = (struct p3_mine){ fsb_to_agno(g, fsb),
						fsb_to_agbno(g, fsb),
						(uint32_t)len };
}

void claim_extent(struct p3ag *c, const struct xfs_bmbt_irec *e,
			 bool attr)
{
	uint64_t off = e->br_startoff;

	if (e->br_unwritten)
		off |= XFS_RMAP_OFF_UNWRITTEN;
	if (attr)
		off |= XFS_RMAP_OFF_ATTR_FORK;
	claim(c, e->br_startblock, e->br_blockcount, off);
}

/*
 * Does this finding of a fork's walk end the reference's walk there?  As
 * fork_first_only() holds them -- but the reference claims a bmbt block
 * before it counts the block's records, so a record count wrong in the
 * block at daddr blk does not keep that block from being claimed.
 */
static bool walk_held(const struct fs_finding *f, bool attr, xfs_daddr_t blk)
{
	if (f->obj.type == OBJ_BMBT &&
	    (f->code == PR_BTREE_RECS_OUT_OF_ORDER ||
	     (f->code == PR_BTREE_BAD_SIBLING && !(f->flags & FND_EXPECTED))))
		return false;
	if (f->code == PR_BTREE_BAD_NUMRECS && f->obj.daddr == blk)
		return false;
	return fork_verdict(f, attr) != V_NOTE;
}

/*
 * Has the reference's walk of the fork stopped before the bmbt block at
 * daddr blk?  It claims blocks and extents as it goes and stops at the
 * first thing it holds against the fork; what it claimed stays claimed
 * even when it then clears the inode.  Once stopped, the extents mapped
 * so far are the last it would claim.
 */
static bool walk_stopped(struct p3ag *c, xfs_daddr_t blk)
{
	if (c->walk_stopped || !c->walk_el)
		return c->walk_stopped;
	for (size_t i = c->walk_fl0; i < c->fl.n; i++) {
		if (walk_held(&c->fl.v[i], c->attr, blk)) {
			c->walk_stopped = true;
			c->walk_stop_n = c->walk_el->n;
			break;
		}
	}
	return c->walk_stopped;
}

/*
 * The reference's block states are shared by every AG's inodes: held and
 * updated under this lock (phase 3 reads one AG at a time unless it
 * strides, as the reference does, but discovery and a stride may not).
 */
static pthread_mutex_t bstate_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * Phase 3 run on several AGs at once, as if one after the other
 * (p3_spec_begin): every block an AG's inodes look at or claim is
 * tagged with that AG (agno + 1).  While no block is looked at by two
 * AGs, each AG saw only phase 2's states and its own claims -- what it
 * would have seen in turn -- and the run stands.  A block two AGs looked
 * at is a conflict: the run is undone (p3_spec_end) and made again one
 * AG at a time.  Guarded by bstate_lock.
 */
static struct {
	bool		on, conflict;
	uint8_t		**tag;		/* per AG: the AG that looked, + 1 */
	uint8_t		**saved;	/* per AG: bstate before phase 3 */
} spec;

/* AGs a tag can name (a tag is one byte, 0 for none). */
#define P3_SPEC_MAX_AGS	255

static void spec_touch(const struct p3ag *c, xfs_agnumber_t agno,
		       uint64_t start, uint64_t end)
{
	uint8_t *t, me = (uint8_t)(c->agno + 1);

	if (!spec.on || !(t = spec.tag[agno]))
		return;
	for (uint64_t b = start; b < end; b++) {
		if (!t[b])
			t[b] = me;
		else if (t[b] != me)
			spec.conflict = true;
	}
}

bool p3_spec_begin(struct repair *r)
{
	const struct fs_geom *g = &r->fs->geo;

	if (g->agcount > P3_SPEC_MAX_AGS)
		return false;
	spec.tag = calloc(g->agcount, sizeof(*spec.tag));
	spec.saved = calloc(g->agcount, sizeof(*spec.saved));
	if (!spec.tag || !spec.saved)
		goto fail;
	for (xfs_agnumber_t agno = 0; agno < g->agcount; agno++) {
		size_t len = geom_ag_blocks(g, agno);

		if (!r->ags[agno].bstate)
			continue;
		spec.tag[agno] = calloc(len, 1);
		spec.saved[agno] = malloc(len);
		if (!spec.tag[agno] || !spec.saved[agno])
			goto fail;
		memcpy(spec.saved[agno], r->ags[agno].bstate, len);
	}
	spec.conflict = false;
	spec.on = true;
	return true;
fail:
	p3_spec_end(r, false);
	return false;
}

bool p3_spec_end(struct repair *r, bool undo)
{
	const struct fs_geom *g = &r->fs->geo;
	bool conflict = spec.conflict;

	for (xfs_agnumber_t agno = 0; spec.tag && agno < g->agcount; agno++) {
		struct rp_ag *ag = &r->ags[agno];
		size_t len = geom_ag_blocks(g, agno);

		if (undo && spec.saved && spec.saved[agno] && ag->bstate) {
			memcpy(ag->bstate, spec.saved[agno], len);
			if (ag->bkept)
				memset(ag->bkept, 0, len / 8 + 1);
		}
		free(spec.tag[agno]);
		if (spec.saved)
			free(spec.saved[agno]);
	}
	free(spec.tag);
	free(spec.saved);
	memset(&spec, 0, sizeof(spec));
	return conflict;
}

bool p3_spec_conflict(void)
{
	bool ret;

	pthread_mutex_lock(&bstate_lock);
	ret = spec.conflict;
	pthread_mutex_unlock(&bstate_lock);
	return ret;
}

/*
 * A claim finding of the walk, put after the claim findings before it
 * and before the walk's other findings: the reference says it as it
 * walks, and what the walk found after a claim it holds against the
 * fork it never sees (fork_first_only()).
 */
static void claim_found(struct p3ag *c, enum fs_problem code, size_t index,
			xfs_fsblock_t fsb)
{
	struct fs_objref o = OBJREF_INIT(OBJ_INODE);
	size_t at = c->walk_fl0 + c->nclaims_said;
	struct fs_finding f;

	o.ino = c->ino;
	o.agno = c->agno;
	o.index = index;
	fs_report_found(&c->fl, code, &o, c->attr ? "attr" : "data", fsb);
	if (c->fl.n && at < c->fl.n - 1) {
		f = c->fl.v[c->fl.n - 1];
		memmove(&c->fl.v[at + 1], &c->fl.v[at],
			(c->fl.n - 1 - at) * sizeof(f));
		c->fl.v[at] = f;
	}
	c->nclaims_said++;
}

/*
 * One extent against the block states, run by run of one state, as the
 * reference holds it: a free block is said ("claims free block") and
 * taken; AG metadata ("claims metadata block") or another inode's block
 * ("claims used block" -- but a regular file's data fork and an attribute
 * fork may share blocks on a reflink filesystem) ends the walk there, and none of the extent is taken.
 * Otherwise its blocks become the inode's (or, shared, claimed twice).
 * Returns false where the walk ends.
 */
static bool extent_states(struct p3ag *c, const struct xfs_bmbt_irec *e,
			  size_t index)
{
	const struct fs_geom *g = &c->r->fs->geo;
	xfs_agnumber_t agno = fsb_to_agno(g, e->br_startblock);
	uint64_t start = fsb_to_agbno(g, e->br_startblock);
	uint64_t end = start + e->br_blockcount, b;
	uint8_t *st;
	/* a regular file's data and any attribute fork may share blocks */
	bool shared_ok = g->has_reflink &&
			 (c->attr || (c->ip && inode_is_reg(c->ip)));

	if (agno >= g->agcount)
		return true;
	st = c->r->ags[agno].bstate;
	if (!st) {
		/* no states: the AG metadata phase 2 found, on its own */
		b = sm_list_first_in(&c->r->ags[agno].meta, start, end);
		if (b == end)
			return true;
		claim_found(c, PR_RP_FORK_CLAIMS_METADATA, index,
			    agb_to_fsb(g, agno, (xfs_agblock_t)b));
		return false;
	}
	if (end > geom_ag_blocks(g, agno))
		end = geom_ag_blocks(g, agno);
	pthread_mutex_lock(&bstate_lock);
	if (start < end)
		spec_touch(c, agno, start, end);
	for (b = start; b < end;) {
		uint64_t r = b + 1;
		enum fs_problem code = PR_NONE;

		while (r < end && st[r] == st[b])
			r++;
		switch (st[b]) {
		case BS_UNKNOWN:
		case BS_INUSE1:
		case BS_COW:
			break;
		case BS_FREE:
		case BS_FREE1:
			claim_found(c, PR_RP_FORK_CLAIMS_FREE, index,
				    agb_to_fsb(g, agno, (xfs_agblock_t)b));
			break;
		case BS_INUSE:
		case BS_MULT:
			if (!shared_ok)
				code = PR_RP_FORK_CLAIMS_USED;
			break;
		default:
			code = PR_RP_FORK_CLAIMS_METADATA;
			break;
		}
		if (code != PR_NONE) {
			c->claim_second = code == PR_RP_FORK_CLAIMS_USED ||
					  st[b] == BS_FS_MAP;
			pthread_mutex_unlock(&bstate_lock);
			claim_found(c, code, index,
				    agb_to_fsb(g, agno, (xfs_agblock_t)b));
			return false;
		}
		b = r;
	}
	for (b = start; b < end; b++) {
		switch (st[b]) {
		case BS_UNKNOWN:
		case BS_INUSE1:
		case BS_FREE:
		case BS_FREE1:
			st[b] = BS_INUSE;
			break;
		case BS_INUSE:
			st[b] = BS_MULT;
			break;
		default:
			break;
		}
	}
	pthread_mutex_unlock(&bstate_lock);
	return true;
}

/*
 * A bmbt block against the block states, as the reference claims it
 * when it reads it: unclaimed or free, it becomes the inode's; an inode's
 * block or an AG btree's is said ("bmap block ... claimed, state is N")
 * and claimed twice, as is one claimed twice already or in the headers.
 * The walk goes on.  A data fork's block claimed twice clears the inode
 * when the reference looks at it again in phase 4 (c->bmbt_dup).
 */
static void bmbt_states(struct p3ag *c, xfs_fsblock_t fsb)
{
	const struct fs_geom *g = &c->r->fs->geo;
	xfs_agnumber_t agno = fsb_to_agno(g, fsb);
	xfs_agblock_t agbno = fsb_to_agbno(g, fsb);
	struct rp_args a = RP_ARGS_INIT(OBJ_INODE);
	uint8_t *st, was;

	if (!fsb_valid(g, fsb) || !(st = c->r->ags[agno].bstate) ||
	    agbno >= geom_ag_blocks(g, agno))
		return;
	pthread_mutex_lock(&bstate_lock);
	spec_touch(c, agno, agbno, (uint64_t)agbno + 1);
	was = st[agbno];
	switch (was) {
	case BS_UNKNOWN:
	case BS_FREE1:
	case BS_FREE:
	case BS_INUSE1:
		st[agbno] = BS_INUSE;
		break;
	case BS_INUSE:
	case BS_FS_MAP:
	case BS_MULT:
	case BS_INUSE_FS:
		st[agbno] = BS_MULT;
		break;
	default:
		break;
	}
	pthread_mutex_unlock(&bstate_lock);
	switch (was) {
	case BS_INUSE:
	case BS_FS_MAP:
		a.field = "bmbt";
		break;
	case BS_MULT:
	case BS_INUSE_FS:
		a.field = "bmbt twice";
		break;
	default:
		return;
	}
	a.obj.ino = c->ino;
	a.obj.agno = c->agno;
	a.found = fsb;
	a.v2 = was;
	rp_say(c->out, PR_RP_FORK_CLAIMS_USED, &a);
	if (!c->attr)
		c->bmbt_dup = true;
}

/* Is this block held against a fork by the reference's second look? */
static bool held_later(const struct repair *r, xfs_agnumber_t agno,
		       uint64_t agbno)
{
	const struct rp_ag *ag = &r->ags[agno];

	if ((ag->bkept[agbno >> 3] >> (agbno & 7)) & 1)
		return true;
	return ag->bstate[agbno] == BS_INUSE_FS || ag->bstate[agbno] == BS_INO;
}

/*
 * The reference looks again in its phase 4 at a file its phase 3
 * cleared, walking its map once more, and holds it then to the blocks of
 * the inodes it kept and to its headers, log and inode chunks only -- not
 * to the AG btree blocks, nor to the blocks of inodes it cleared.  Would
 * it take the first n extents of el, and the bmbt blocks?
 */
bool second_look_takes(struct p3ag *c, const struct fs_extents *el,
			      size_t n)
{
	const struct fs_geom *g = &c->r->fs->geo;
	bool ok = true;

	pthread_mutex_lock(&bstate_lock);
	for (size_t i = 0; ok && i < c->nbmbt; i++) {
		xfs_agnumber_t agno = fsb_to_agno(g, c->bmbt[i].fsb);

		if (agno >= g->agcount || !c->r->ags[agno].bstate ||
		    fsb_to_agbno(g, c->bmbt[i].fsb) >=
		    geom_ag_blocks(g, agno)) {
			ok = false;
		} else {
			uint64_t b = fsb_to_agbno(g, c->bmbt[i].fsb);

			spec_touch(c, agno, b, b + 1);
			ok = !held_later(c->r, agno, b);
		}
	}
	for (size_t i = 0; ok && i < n; i++) {
		const struct xfs_bmbt_irec *e = &el->v[i];
		xfs_agnumber_t agno = fsb_to_agno(g, e->br_startblock);
		uint64_t b = fsb_to_agbno(g, e->br_startblock);

		if (agno >= g->agcount || !c->r->ags[agno].bstate ||
		    b + e->br_blockcount > geom_ag_blocks(g, agno)) {
			ok = false;
			break;
		}
		spec_touch(c, agno, b, b + e->br_blockcount);
		for (uint64_t k = 0; ok && k < e->br_blockcount; k++)
			ok = !held_later(c->r, agno, b + k);
	}
	pthread_mutex_unlock(&bstate_lock);
	return ok;
}

/* The inode is kept: its blocks are held by the second looks after it. */
void mark_kept(struct p3ag *c)
{
	pthread_mutex_lock(&bstate_lock);
	for (size_t i = 0; i < c->nmine; i++) {
		const struct p3_mine *m = &c->mine[i];
		struct rp_ag *ag = &c->r->ags[m->agno];
		uint64_t end = (uint64_t)m->agbno + m->len;

		if (m->agno >= c->r->fs->geo.agcount || !ag->bkept)
			continue;
		if (end > geom_ag_blocks(&c->r->fs->geo, m->agno))
			end = geom_ag_blocks(&c->r->fs->geo, m->agno);
		if (m->agbno < end)
			spec_touch(c, m->agno, m->agbno, end);
		for (uint64_t b = m->agbno; b < end; b++)
			ag->bkept[b >> 3] |= (uint8_t)(1u << (b & 7));
	}
	pthread_mutex_unlock(&bstate_lock);
	c->nmine = 0;
}

/*
 * The first finding of the walk after its claims that the reference
 * holds against the fork (as fork_first_only() judges them), or NULL.
 */
const struct fs_finding *walk_next_held(const struct p3ag *c)
{
	for (size_t i = c->walk_fl0 + c->nclaims_said; i < c->fl.n; i++) {
		const struct fs_finding *f = &c->fl.v[i];

		if (f->obj.type == OBJ_BMBT &&
		    (f->code == PR_BTREE_RECS_OUT_OF_ORDER ||
		     (f->code == PR_BTREE_BAD_SIBLING &&
		      !(f->flags & FND_EXPECTED))))
			continue;
		if (fork_verdict(f, false) != V_NOTE)
			return f;
	}
	return NULL;
}

/*
 * The reference holds each bmbt block and each record it walks to its
 * block map, in the order it reads them -- a leaf's block, then its
 * records (walk_claims_bmbt: the blocks the walk claimed, with how many
 * extents came before each).  A claim it holds against the fork ends
 * the walk there, as a bad record does.  Returns how many records the
 * walk keeps of the first n, and puts its claim findings first among
 * the walk's.  A realtime file's extents are not in the AGs: only its
 * bmbt blocks are held (rt).
 */
size_t walk_claims(struct p3ag *c, const struct fs_extents *el,
			  size_t n, bool rt)
{
	size_t nb = 0;

	for (size_t i = 0; ; i++) {
		for (; nb < c->nbmbt && c->bmbt[nb].at <= i; nb++)
			bmbt_states(c, c->bmbt[nb].fsb);
		if (i >= n)
			break;
		if (!rt && !extent_states(c, &el->v[i], i))
			return i;
	}
	return n;
}

static int meta_cmp(const void *pa, const void *pb)
{
	const struct sm_rec *a = pa, *b = pb;

	return a->agbno < b->agbno ? -1 : a->agbno > b->agbno;
}

/*
 * The AG metadata phase 2 found, in the block states as the reference
 * has it when its phase 2 ends: it reads the inode btrees last and marks
 * their blocks and the inode chunks over what the free space and rmap
 * btrees said.
 */
static void meta_states(struct repair *r, xfs_agnumber_t agno)
{
	const struct sm_list *m = &r->ags[agno].meta;
	uint8_t *st = r->ags[agno].bstate;
	uint32_t aglen = geom_ag_blocks(&r->fs->geo, agno);

	for (size_t i = 0; st && i < m->n; i++) {
		uint8_t to = BS_FS_MAP;

		if (m->v[i].owner == XFS_RMAP_OWN_FS ||
		    m->v[i].owner == XFS_RMAP_OWN_LOG)
			to = BS_INUSE_FS;
		else if (m->v[i].owner == XFS_RMAP_OWN_INODES)
			to = BS_INO;
		for (uint64_t b = m->v[i].agbno;
		     b < (uint64_t)m->v[i].agbno + m->v[i].len && b < aglen;
		     b++) {
			switch (st[b]) {
			case BS_UNKNOWN:
			case BS_FREE1:
			case BS_FREE:
			case BS_INUSE1:
			case BS_INUSE_FS1:
			case BS_INO1:
			case BS_FS_MAP1:
			case BS_REFC:
				st[b] = to;
				break;
			default:
				break;
			}
		}
	}
}

/*
 * Each AG's metadata, in its block states and sorted and merged into
 * disjoint runs (extent_states).
 */
void p3_meta_prepare(struct repair *r)
{
	for (xfs_agnumber_t agno = 0; agno < r->fs->geo.agcount; agno++) {
		struct sm_list *m = &r->ags[agno].meta;
		struct rp_ag *ag = &r->ags[agno];
		size_t j = 0;

		if (ag->bstate) {
			ag->bkept = calloc(geom_ag_blocks(&r->fs->geo, agno) /
					   8 + 1, 1);
			if (!ag->bkept) {
				/* no states, then: meta alone */
				free(ag->bstate);
				ag->bstate = NULL;
			}
		}
		if (!m->n)
			continue;
		meta_states(r, agno);
		qsort(m->v, m->n, sizeof(m->v[0]), meta_cmp);
		for (size_t i = 1; i < m->n; i++) {
			uint64_t jend = (uint64_t)m->v[j].agbno + m->v[j].len;

			if (m->v[i].agbno <= jend) {
				uint64_t iend = (uint64_t)m->v[i].agbno +
						m->v[i].len;

				if (iend > jend)
					m->v[j].len = (uint32_t)(iend -
								 m->v[j].agbno);
			} else {
				m->v[++j] = m->v[i];
			}
		}
		m->n = j + 1;
	}
}

/* Start following the reference's walk of a fork mapped into el. */
void walk_begin(struct p3ag *c, const struct fs_extents *el)
{
	c->walk_fl0 = c->fl.n;
	c->nbmbt = 0;
	c->nclaims_said = 0;
	c->claim_second = false;
	c->walk_el = el;
	c->walk_stopped = false;
	c->walk_stop_n = 0;
}

/* The extents of el the reference's walk claimed: how many, from the start. */
size_t walk_end(struct p3ag *c, const struct fs_extents *el)
{
	size_t n = el->n;

	if (el->bad_seen && el->nbefore_bad < n)
		n = el->nbefore_bad;
	if (c->walk_stopped && c->walk_stop_n < n)
		n = c->walk_stop_n;
	c->walk_el = NULL;
	return n;
}

int claim_bmbt(xfs_fsblock_t fsb, unsigned level, void *priv)
{
	struct p3ag *c = priv;
	const struct fs_geom *g = &c->r->fs->geo;

	(void)level;
	c->bmbt_blocks[c->attr]++;
	if (fsb_valid(g, fsb) && !walk_stopped(c, fsb_to_daddr(g, fsb))) {
		struct p3_bmbt *nv;

		claim(c, fsb, 1, XFS_RMAP_OFF_BMBT_BLOCK |
		      (c->attr ? XFS_RMAP_OFF_ATTR_FORK : 0));
		nv = fs_array_grow(c->bmbt, &c->capbmbt, c->nbmbt + 1,
				   sizeof(*nv), 16);
		if (nv) {
			c->bmbt = nv;
			c->bmbt[c->nbmbt++] = (struct p3_bmbt){
				fsb, c->walk_el ? c->walk_el->n : 0 };
		}
	}
	return 0;
}

/*
 * The forks of an inode kept with a bad magic number: the reference,
 * which would reset the number, reads them on as a good inode's, so its
 * blocks are its own (no "unknown block state" where the rmapbt maps
 * them) and its data counts in the reference counts -- but it remembers
 * no reflink flag of it, so a file sharing blocks is one to set the flag
 * on ("setting reflink flag on inode N").  Only forks whose walk finds
 * nothing wrong are claimed (of others we cannot say what it reads);
 * nothing is said.  Returns whether the data fork's walk was clean (a
 * fork in the inode is), its extents then in *del for the caller to
 * free.
 */
bool claim_kept_forks(struct p3ag *c, const void *raw, struct fs_extents *del)
{
	struct fs *fs = c->r->fs;
	struct fs_inode ip;
	size_t fl0 = c->fl.n;
	bool data_clean = false;

	extents_init(del);
	if (inode_decode(&fs->geo, c->ino, raw, &ip))
		return false;
	if (ip.flags & XFS_DIFLAG_REALTIME) {
		inode_release(&ip);
		return false;
	}
	/* a data fork in the inode has nothing to walk */
	data_clean = ip.format == XFS_DINODE_FMT_LOCAL;
	c->ip = &ip;
	for (int fork = XFS_DATA_FORK; fork <= XFS_ATTR_FORK; fork++) {
		struct fs_extents el;
		size_t n;

		if ((fork == XFS_DATA_FORK ?
		     ip.format : ip.aformat) != XFS_DINODE_FMT_EXTENTS &&
		    (fork == XFS_DATA_FORK ?
		     ip.format : ip.aformat) != XFS_DINODE_FMT_BTREE)
			continue;
		if (fork == XFS_ATTR_FORK && !inode_has_attr_fork(&ip))
			continue;
		extents_init(&el);
		c->attr = fork == XFS_ATTR_FORK;
		walk_begin(c, &el);
		/* the bmbt blocks are claimed on the way, as in a clean walk */
		fork_extents(fs, &ip, fork, &el, claim_bmbt, c, &c->fl);
		n = walk_end(c, &el);
		n = walk_claims(c, &el, n, false);
		if (c->fl.n == fl0 && !el.bad_seen) {
			for (size_t i = 0; i < n; i++)
				claim_extent(c, &el.v[i], c->attr);
			if (fork == XFS_DATA_FORK) {
				el.n = n;
				*del = el;
				data_clean = true;
				extents_init(&el);
			}
		}
		findings_truncate(&c->fl, fl0);
		extents_free(&el);
	}
	c->attr = false;
	c->ip = NULL;
	inode_release(&ip);
	return data_clean;
}

/*
 * A regular file's bmbt block that an extent read after it claimed too
 * (a reflink filesystem's data may be shared) is one of the reference's
 * duplicate blocks in its phase 4, whose second look then clears the
 * file ("bad data fork in inode N"), as it does when the block was
 * claimed before (bmbt_states()).
 */
void p3_late_dups(struct repair *r)
{
	const struct fs_geom *g = &r->fs->geo;

	for (xfs_agnumber_t agno = 0; agno < g->agcount; agno++) {
		const uint8_t *st = r->ags[agno].bstate;
		const struct sm_ag *sa = &r->smap->ags[agno];

		for (size_t i = 0; st && i < sa->n; i++) {
			const struct sm_rec *x = &sa->v[i];
			struct rp_args a = RP_ARGS_INIT(OBJ_INODE);
			struct im_chunk *ch;
			uint64_t m;
			unsigned bit;

			if (!sm_inode_owner(x->owner) ||
			    (x->offset & XFS_RMAP_OFF_ATTR_FORK) ||
			    !(x->offset & XFS_RMAP_OFF_BMBT_BLOCK) ||
			    x->agbno >= geom_ag_blocks(g, agno) ||
			    st[x->agbno] != BS_MULT)
				continue;
			ch = im_find(r->imap, x->owner, &bit);
			if (!ch)
				continue;
			m = 1ull << bit;
			if (!(ch->used & m) || (ch->cleared & m) ||
			    (ch->revived & m) ||
			    ch->ftype[bit] != XFS_DIR3_FT_REG_FILE)
				continue;
			a.obj.ino = x->owner;
			a.obj.agno = ino_to_agno(g, x->owner);
			rp_say(NULL, PR_RP_DATA_FORK_BAD, &a);
			rp_say(NULL, PR_RP_INODE_CLEARED, &a);
			ch->used &= ~m;
			ch->late |= m;
			ch->cleared |= m;
			ch->suspect |= m;
		}
	}
}
