/*
 * Inode discovery (the end of phase 3): inode chunks the inobt does not
 * list, found through what points into them.
 *
 * What goes in: every directory entry and ".." phase 3 collected and the
 * AGI unlinked list heads.  (A record only the finobt has is no
 * candidate: phase 3 reads its chunk as the finobt says, as the
 * reference does.)  Each of those that names a valid inode outside every
 * known chunk is a candidate.  A candidate's
 * chunk is looked for on disk: the aligned places a chunk holding it
 * could start (first the place that tiles the run of inode blocks around
 * it into whole chunks, for filesystems whose chunks are aligned more
 * finely than their size), each accepted only if none of its blocks is
 * claimed by anything else and every inode of each of its clusters is an
 * initialised inode carrying its own number (v3 di_ino) -- or, with
 * sparse inodes, no inode of a cluster does (a hole).
 *
 * What comes out: each chunk found is added to r->imap with only the
 * candidate in use (the reference's stand-in record, so that the other
 * inodes in use are said, "imap claims in-use inode N is free"), its
 * blocks are claimed (OWN_INODES) in r->smap, it is reported, and its
 * inodes are processed as phase 3 processes the others -- which may add
 * entries pointing at further chunks.  The order is the reference's: AG
 * by AG, lowest candidate first, "found inodes not in the inode
 * allocation tree" after an AG where a chunk was found, and passes over
 * the AGs until no candidate is left.  The AG's deferred reverse-mapping
 * findings about inode chunks (AG_RMAP_STALE for OWN_INODES, which a
 * discovered chunk explains) are then printed, less those that a
 * discovered chunk, or one phase 3 took from the finobt or stood in for
 * the root's, accounts for (rp_chunk_known).
 *
 * What stays true: the work is bounded by the number of candidates (each
 * costs a few cluster reads, through the cache); nothing is written.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "array.h"
#include "heap.h"
#include "inode.h"
#include "phase3.h"

/*
 * This pass's candidates (now) and the next pass's (later): one in an AG
 * the pass has left behind waits for the next pass, as in the reference.
 */
struct pending {
	struct u64heap	now, later;	/* lowest inode (and so AG) first */
	xfs_agnumber_t	agno;		/* the AG being looked at */
};

static void cand_add(struct repair *r, struct pending *p, xfs_ino_t ino)
{
	unsigned bit;

	if (!ino_valid(&r->fs->geo, ino) || im_find(r->imap, ino, &bit))
		return;
	/* (no memory: the candidate is not looked for) */
	(void)u64heap_push(ino_to_agno(&r->fs->geo, ino) < p->agno ?
			   &p->later : &p->now, ino);
}

/* Is the inode at ino initialised and stamped with its own number? */
static int stamped(struct repair *r, xfs_ino_t ino)
{
	struct fs_buf *bp;
	uint32_t off;
	const struct xfs_dinode *d;
	int ok;

	if (inode_read_cluster(r->fs, ino, NULL, &bp, &off))
		return 0;
	d = (const void *)(bp->data + off);
	ok = get_be16(d->di_magic) == XFS_DINODE_MAGIC &&
	     d->di_version == 3 && get_be64(d->di_ino) == ino;
	buf_release(bp);
	return ok;
}

/* Is an AG block free of claims and of known chunks? */
static bool block_unclaimed(struct repair *r, xfs_agnumber_t agno,
			    xfs_agblock_t agbno)
{
	const struct fs_geom *g = &r->fs->geo;
	const struct sm_rec *out[1];
	unsigned bit;

	if (agbno >= geom_ag_blocks(g, agno) || agbno < ag_first_block(g))
		return false;
	if (im_find(r->imap, agino_to_ino(g, agno,
					  (xfs_agino_t)agbno << g->inopblog),
		    &bit))
		return false;
	return sm_lookup(r->smap, agno, agbno, out, 1) == 0;
}

/*
 * Would a chunk starting at AG inode start hold inode target?  If so,
 * fill *holes with its absent inodes.
 */
static bool chunk_at(struct repair *r, xfs_agnumber_t agno,
		     xfs_agino_t start, xfs_agino_t target, uint64_t *holes)
{
	const struct fs_geom *g = &r->fs->geo;
	unsigned per = g->inodes_per_cluster ? g->inodes_per_cluster : 1;
	bool target_seen = false;

	if (target < start || target - start >= XFS_INODES_PER_CHUNK ||
	    !agino_chunk_aligned(g, start))
		return false;
	if (per > XFS_INODES_PER_CHUNK)
		per = XFS_INODES_PER_CHUNK;
	for (unsigned b = 0; b < g->chunk_blocks; b++)
		if (!block_unclaimed(r, agno,
				     agino_to_agbno(g, start) + b))
			return false;
	*holes = 0;
	for (unsigned i = 0; i < XFS_INODES_PER_CHUNK; i += per) {
		unsigned good = 0;

		for (unsigned k = 0; k < per; k++)
			good += stamped(r, agino_to_ino(g, agno,
							start + i + k));
		if (good == per) {
			if (target >= start + i && target < start + i + per)
				target_seen = true;
			continue;
		}
		if (good || !g->has_sparse)
			return false;
		*holes |= (per == 64 ? ~0ull : ((1ull << per) - 1)) << i;
	}
	return target_seen;
}

/* Where the chunk holding target starts, if it can be found. */
static bool find_chunk(struct repair *r, xfs_agnumber_t agno,
		       xfs_agino_t target, xfs_agino_t *startp, uint64_t *holes)
{
	const struct fs_geom *g = &r->fs->geo;
	xfs_agblock_t tb = agino_to_agbno(g, target);
	uint32_t cb = g->chunk_blocks, align = g->inoalign > 1 ? g->inoalign : 1;
	xfs_agblock_t run = tb;

	if (g->inopblock >= XFS_INODES_PER_CHUNK) {
		*startp = target & ~(xfs_agino_t)(XFS_INODES_PER_CHUNK - 1);
		return chunk_at(r, agno, *startp, target, holes);
	}
	/*
	 * The run of initialised inode blocks before the target, not in a
	 * known chunk: chunks tile it from its start.  (Bounded: a few
	 * chunks' worth.)
	 */
	while (!g->has_sparse && run > 0 && tb - run < 16 * cb &&
	       block_unclaimed(r, agno, run - 1) &&
	       stamped(r, agino_to_ino(g, agno,
				       (xfs_agino_t)(run - 1) << g->inopblog)))
		run--;
	if (!g->has_sparse) {
		xfs_agblock_t s = run + (tb - run) / cb * cb;

		*startp = (xfs_agino_t)s << g->inopblog;
		if (chunk_at(r, agno, *startp, target, holes))
			return true;
	}
	/* every aligned start that would cover the target, nearest first */
	for (int64_t s = (int64_t)(tb - tb % align);
	     s >= 0 && s + cb > tb; s -= align) {
		*startp = (xfs_agino_t)s << g->inopblog;
		if (chunk_at(r, agno, *startp, target, holes))
			return true;
	}
	return false;
}

static void claim_chunk(struct repair *r, xfs_agnumber_t agno,
			xfs_agino_t start, uint64_t holes)
{
	const struct fs_geom *g = &r->fs->geo;
	unsigned ipb = g->inopblock < XFS_INODES_PER_CHUNK ? g->inopblock :
		       XFS_INODES_PER_CHUNK;

	for (unsigned i = 0; i < XFS_INODES_PER_CHUNK; i += ipb) {
		uint64_t mask = (ipb == 64 ? ~0ull : ((1ull << ipb) - 1)) << i;

		if ((holes & mask) == mask)
			continue;
		sm_add(r->smap, agno, agino_to_agbno(g, start + i), 1,
		       XFS_RMAP_OWN_INODES, 0);
	}
}

static int found_add(struct rp_ag *ag, xfs_agino_t start)
{
	xfs_agino_t *nv = fs_array_grow(ag->found, &ag->capfound,
					ag->nfound + 1, sizeof(*nv), 16);

	if (!nv)
		return -1;
	ag->found = nv;
	ag->found[ag->nfound++] = start;
	return 0;
}

void rp_chunk_known(struct repair *r, xfs_agnumber_t agno, xfs_agino_t start,
		    uint64_t holes)
{
	claim_chunk(r, agno, start, holes);
	found_add(&r->ags[agno], start);
}

void rp_chunk_whole(struct repair *r, xfs_agnumber_t agno, xfs_agino_t start)
{
	found_add(&r->ags[agno], start);
}

/*
 * Look for the chunk of one candidate; process it if found (true).  As
 * the reference, only the candidate is taken to be in use: every other
 * inode of the chunk in use is "imap claims in-use inode N is free".
 */
static bool discover_one(struct repair *r, xfs_ino_t ino)
{
	const struct fs_geom *g = &r->fs->geo;
	xfs_agnumber_t agno = ino_to_agno(g, ino);
	xfs_agino_t agino = ino_to_agino(g, ino);
	struct rp_args a = RP_ARGS_INIT(OBJ_INOBT);
	struct im_chunk *ch;
	struct p3ag c;
	xfs_agino_t start;
	uint64_t holes;
	unsigned bit;

	if (im_find(r->imap, ino, &bit))
		return false;	/* an earlier candidate's chunk */
	sm_sort(r->smap, agno);
	if (!find_chunk(r, agno, agino, &start, &holes))
		return false;
	if (!im_add_chunk(r->imap, agno, start, holes,
			  ~(1ull << (agino - start))))
		return false;
	im_sort(r->imap, agno);
	ch = im_find(r->imap, agino_to_ino(g, agno, start), &bit);
	if (!ch)
		return false;
	rp_chunk_known(r, agno, start, holes);
	a.obj.agno = agno;
	a.obj.ino = agino_to_ino(g, agno, start);
	a.found = start;
	rp_say(NULL, PR_RP_INO_MISSING, &a);
	p3ag_init(&c, r, agno, NULL);
	p3_process_chunk(&c, ch, holes);
	p3ag_fini(&c);
	return true;
}

/* Is an AG block inside a chunk discovery found? */
static bool in_found(const struct repair *r, xfs_agnumber_t agno,
		     uint64_t agbno)
{
	const struct fs_geom *g = &r->fs->geo;
	const struct rp_ag *ag = &r->ags[agno];

	for (size_t i = 0; i < ag->nfound; i++) {
		uint64_t s = agino_to_agbno(g, ag->found[i]);

		if (agbno >= s && agbno < s + g->chunk_blocks)
			return true;
	}
	return false;
}

/* Candidates from the entries and ".." phase 3 collected since last time. */
static void collect(struct repair *r, struct pending *p, size_t *scanned,
		    size_t *dscanned)
{
	const struct im_edge *e = r->imap->edges.v;
	const struct im_dir *dv = r->imap->dirs;

	for (size_t i = *scanned; i < r->imap->edges.n; i++)
		cand_add(r, p, e[i].child);
	for (size_t i = *dscanned; i < r->imap->ndirs; i++)
		if (dv[i].dotdot != NULLFSINO)
			cand_add(r, p, dv[i].dotdot);
	*scanned = r->imap->edges.n;
	*dscanned = r->imap->ndirs;
}

/*
 * As the reference: AG by AG, the AG's candidates lowest first (with
 * those its new chunks add to it), then "found inodes not in the inode
 * allocation tree" if a chunk was found there; passes over every AG
 * while new chunks bring candidates in AGs already passed.
 */
void rp_discover(struct repair *r)
{
	const struct fs_geom *g = &r->fs->geo;
	struct pending p = { .agno = 0 };
	size_t scanned = 0, dscanned = 0;

	collect(r, &p, &scanned, &dscanned);
	for (xfs_agnumber_t agno = 0; agno < g->agcount; agno++) {
		const struct rp_ag *ag = &r->ags[agno];

		for (unsigned b = 0; b < XFS_AGI_UNLINKED_BUCKETS; b++)
			if (agino_valid(g, agno, ag->unlinked[b]))
				cand_add(r, &p, agino_to_ino(g, agno,
							     ag->unlinked[b]));
	}
	while (p.now.n) {
		for (p.agno = 0; p.agno < g->agcount; p.agno++) {
			bool got = false;

			while (p.now.n && ino_to_agno(g, p.now.v[0]) == p.agno)
				if (discover_one(r, u64heap_pop(&p.now))) {
					got = true;
					collect(r, &p, &scanned, &dscanned);
				}
			if (got) {
				struct rp_args a = RP_ARGS_INIT(OBJ_INOBT);

				a.obj.agno = p.agno;
				rp_say(NULL, PR_RP_INO_OUTSIDE, &a);
			}
		}
		/* the next pass */
		u64heap_free(&p.now);
		p.now = p.later;
		memset(&p.later, 0, sizeof(p.later));
	}
	u64heap_free(&p.now);
	u64heap_free(&p.later);

	/* what the rmapbt said about inode chunks, less what was found */
	for (xfs_agnumber_t agno = 0; agno < g->agcount; agno++) {
		struct rp_ag *ag = &r->ags[agno];

		for (size_t i = 0; i < ag->deferred.n; i++) {
			const struct fs_finding *f = &ag->deferred.v[i];

			if (!in_found(r, agno, f->found))
				rp_finding(NULL, f);
		}
		findings_clear(&ag->deferred);
	}
}
