/*
 * What an AG's own metadata claims, for the space map (part of phase 2).
 *
 * What it reads: the AG headers and every AG btree, through libfs's
 * btree_walk() (ag_check() has already verified them and reported what
 * is wrong, so this walk drops its findings).  What it builds: claims in
 * r->smap for the header sectors (OWN_FS), an internal log (OWN_LOG), the
 * bno/cnt/rmap btree blocks and the AGFL blocks (OWN_AG), inobt and finobt
 * blocks (OWN_INOBT), refcountbt blocks (OWN_REFC), the inode chunks the
 * inobt lists (OWN_INODES), CoW staging extents (OWN_COW) and the free
 * extents of the bnobt (SM_OWN_FREE); and, for phase 5, copies of the
 * rmapbt and refcountbt records in r->ags[agno]; and what the reference
 * counts of the free space trees (the records of each it takes, the cntbt's
 * free blocks and longest extent, the bno, cnt and rmap btrees' blocks
 * other than their roots, the AGF's totals), for phase 2's comparisons
 * and phase 4's runs seen by one tree only.  What stays true: only
 * records inside the AG are kept; a record that is not is a finding of
 * ag_check's.
 */
#include "config.h"
#include <string.h>
#include "ag.h"
#include "repair.h"

struct scan {
	struct repair	*r;
	xfs_agnumber_t	agno;
	uint32_t	aglen;
	uint64_t	owner;		/* of the blocks of the tree walked */
	uint32_t	chunk_end;	/* last inode block claimed, + 1 */
	bool		agfl;		/* claiming the AGFL's blocks */
};

static bool inside(const struct scan *s, uint64_t agbno, uint64_t len)
{
	return len && agbno < s->aglen && len <= s->aglen - agbno;
}

static void claim(struct scan *s, uint64_t agbno, uint64_t len,
		  uint64_t owner, uint64_t offset)
{
	if (!inside(s, agbno, len))
		return;
	sm_add(s->r->smap, s->agno, (uint32_t)agbno, (uint32_t)len, owner,
	       offset);
	if (owner != SM_OWN_FREE && owner != XFS_RMAP_OWN_COW && !s->agfl)
		sm_list_add(&s->r->ags[s->agno].meta, (uint32_t)agbno,
			    (uint32_t)len, owner, offset);
}

static int tree_block(struct btree_walk *w, unsigned level, xfs_fsblock_t fsb,
		      void *priv)
{
	struct scan *s = priv;

	(void)level;
	if (fsb_to_agno(&w->fs->geo, fsb) == s->agno)
		claim(s, fsb_to_agbno(&w->fs->geo, fsb), 1, s->owner, 0);
	return 0;
}

/* A block a record may name: past the AG headers, inside the AG. */
static bool agbno_ok(const struct scan *s, uint32_t agbno)
{
	return agbno >= ag_first_block(&s->r->fs->geo) && agbno < s->aglen;
}

/*
 * Does the reference take this free space record?  Not when its first
 * or last block is outside the AG or in its headers, or it is empty or
 * wraps (its end computed in 32 bits, as struct xfs_alloc_rec's fields).
 */
static bool free_rec_taken(const struct scan *s, uint32_t start, uint32_t len)
{
	uint32_t end = start + len;

	return len && end > start && agbno_ok(s, start) && agbno_ok(s, end - 1);
}

static int free_rec(struct btree_walk *w, const void *rec, void *priv)
{
	const struct xfs_alloc_rec *a = rec;
	struct scan *s = priv;
	uint32_t start = get_be32(a->ar_startblock);
	uint32_t len = get_be32(a->ar_blockcount);

	(void)w;
	claim(s, start, len, SM_OWN_FREE, 0);
	if (free_rec_taken(s, start, len))
		sm_list_add(&s->r->ags[s->agno].free_bno, start, len, 0, 0);
	return 0;
}

/*
 * The cntbt's records are free space too (a block either tree lists is
 * not "unknown"; the trees' disagreement is said in phase 4), and it is
 * from the records of it the reference takes that it counts the AG's
 * free blocks and longest extent.
 */
static int cnt_rec(struct btree_walk *w, const void *rec, void *priv)
{
	const struct xfs_alloc_rec *a = rec;
	struct scan *s = priv;
	struct rp_ag *ag = &s->r->ags[s->agno];
	uint32_t start = get_be32(a->ar_startblock);
	uint32_t len = get_be32(a->ar_blockcount);

	(void)w;
	claim(s, start, len, SM_OWN_FREE, 0);
	if (!free_rec_taken(s, start, len))
		return 0;
	sm_list_add(&ag->free_cnt, start, len, 0, 0);
	ag->cnt_free += len;
	if (len > ag->cnt_longest)
		ag->cnt_longest = len;
	return 0;
}

static int rmap_rec(struct btree_walk *w, const void *rec, void *priv)
{
	const struct xfs_rmap_rec *m = rec;
	struct scan *s = priv;
	uint64_t start = get_be32(m->rm_startblock);
	uint64_t len = get_be32(m->rm_blockcount);

	(void)w;
	if (inside(s, start, len))
		sm_list_add(&s->r->ags[s->agno].disk_rmaps, (uint32_t)start,
			    (uint32_t)len, get_be64(m->rm_owner),
			    get_be64(m->rm_offset));
	return 0;
}

static int refc_rec(struct btree_walk *w, const void *rec, void *priv)
{
	const struct xfs_refcount_rec *c = rec;
	struct scan *s = priv;
	uint32_t start = get_be32(c->rc_startblock);
	uint32_t refcount = get_be32(c->rc_refcount);
	bool flag = (start & XFS_REFC_COWFLAG) != 0;
	uint64_t len = get_be32(c->rc_blockcount);
	struct sm_refc_list *l = &s->r->ags[s->agno].disk_refcs;
	size_t n;

	(void)w;
	start &= ~XFS_REFC_COWFLAG;
	if (!inside(s, start, len))
		return 0;
	/*
	 * The reference takes a record for a CoW staging extent by its
	 * single owner; a CoW-flagged record that counts more owners is
	 * the shared extent it describes (and REFC_BAD_REFCOUNT).
	 */
	n = l->n;
	sm_refc_add(l, start, (uint32_t)len, refcount, flag && refcount == 1);
	if (l->n > n)
		l->v[n].cowflag = flag;
	if (flag && refcount == 1)
		claim(s, start, len, XFS_RMAP_OWN_COW, 0);
	return 0;
}

static void flush_run(struct scan *s, uint32_t start, uint32_t len)
{
	if (!len)
		return;
	claim(s, start, len, XFS_RMAP_OWN_INODES, 0);
	s->chunk_end = start + len;
}

/* The blocks holding the present inodes of an inobt chunk. */
static int inobt_rec(struct btree_walk *w, const void *rec, void *priv)
{
	const struct fs_geom *g = &w->fs->geo;
	struct scan *s = priv;
	struct inobt_irec ir;
	uint32_t run_start = 0, run_len = 0;

	inobt_rec_decode(g, rec, &ir);
	ir.daddr = w->obj.daddr;
	if (!agino_valid(g, s->agno, ir.startino))
		return 0;
	/* the reference's uncertain inodes claim no blocks */
	if (rp_ino_rec_refused(s->r, s->agno, &ir))
		return 0;
	for (unsigned i = 0; i < XFS_INODES_PER_CHUNK; i++) {
		uint32_t b;

		if (rp_irec_holes(&ir) & (1ull << i))
			continue;
		b = agino_to_agbno(g, ir.startino + i);
		/*
		 * A block holding more than 64 inodes is shared with the
		 * chunk before; a record out of order claims its blocks all
		 * the same (the reference takes it).
		 */
		if (b + 1 == s->chunk_end)
			continue;
		if (run_len && b < run_start + run_len)
			continue;	/* the block of the previous inode */
		if (run_len && b == run_start + run_len) {
			run_len++;
			continue;
		}
		flush_run(s, run_start, run_len);
		run_start = b;
		run_len = 1;
	}
	flush_run(s, run_start, run_len);
	return 0;
}

static int agfl_block(xfs_agnumber_t agno, unsigned idx, xfs_agblock_t agbno,
		      void *priv)
{
	(void)agno;
	(void)idx;
	claim(priv, agbno, 1, XFS_RMAP_OWN_AG, 0);
	return 0;
}

/*
 * Returns the blocks of the tree walked other than its root.  A root the
 * walk could not use is still the tree's block (claim_root), but for
 * the free space trees only where the reference takes it: one it refuses
 * it leaves unclaimed, and the rmapbt's record of it names a block of
 * unknown state (phase 5).
 */
static uint64_t walk(struct scan *s, const struct btree_root *root,
		     uint64_t owner, btree_rec_fn rec_fn, bool *walked,
		     bool claim_root)
{
	struct btree_stats st;

	s->owner = owner;
	if (btree_walk(s->r->fs, root, rec_fn, tree_block, s, NULL, &st) == 0)
		*walked = true;
	if (!st.nblocks && claim_root)
		claim(s, root->root, 1, owner, 0);
	return st.nblocks ? st.nblocks - 1 : 0;
}

void rp_scan_ag_space(struct repair *r, xfs_agnumber_t agno)
{
	struct fs *fs = r->fs;
	const struct fs_geom *g = &fs->geo;
	struct rp_ag *ag = &r->ags[agno];
	struct scan s = { .r = r, .agno = agno,
			  .aglen = geom_ag_blocks(g, agno) };
	struct btree_root root;
	struct fs_buf *bp;
	struct fs_agf agf;
	struct fs_agi agi;
	bool dummy;

	claim(&s, 0, ag_first_block(g), XFS_RMAP_OWN_FS, 0);
	if (g->log_internal && fsb_to_agno(g, g->logstart) == agno)
		claim(&s, fsb_to_agbno(g, g->logstart), g->logblocks,
		      XFS_RMAP_OWN_LOG, 0);
	/*
	 * An AG whose headers would be reset is skipped, as the reference
	 * skips it: none of its trees is taken, its inode chunks are found
	 * only through what points into them (discover.c).
	 */
	if (ag->hdr_bad)
		return;

	if (ag->sum.agf_ok && !ag_read_agf(fs, agno, NULL, &bp, &agf)) {
		buf_release(bp);
		ag->agf_read = true;
		ag->agf_freeblks = agf.freeblks;
		ag->agf_longest = agf.longest;
		ag->agf_btreeblks = agf.btreeblks;
		/*
		 * The blocks other than the roots of these three trees are
		 * free space to the reference (a full filesystem frees them)
		 * and its count of the AGF's btreeblks.
		 */
		agf_btree_root(&agf, agno, BT_BNO, &root);
		ag->nonroot_blocks += walk(&s, &root, XFS_RMAP_OWN_AG, free_rec,
					   &ag->bno_walked,
					   ag->taken_root[0] == root.root);
		agf_btree_root(&agf, agno, BT_CNT, &root);
		ag->nonroot_blocks += walk(&s, &root, XFS_RMAP_OWN_AG, cnt_rec,
					   &ag->cnt_walked,
					   ag->taken_root[1] == root.root);
		if (g->has_rmapbt) {
			agf_btree_root(&agf, agno, BT_RMAP, &root);
			ag->rmap_nonroot = walk(&s, &root, XFS_RMAP_OWN_AG,
						rmap_rec, &ag->rmap_walked,
						true);
			ag->nonroot_blocks += ag->rmap_nonroot;
		}
		if (g->has_reflink) {
			agf_btree_root(&agf, agno, BT_REFC, &root);
			walk(&s, &root, XFS_RMAP_OWN_REFC, refc_rec,
			     &ag->refc_walked,
			     ag->taken_refc_root == root.root);
		}
		if (!ag_read_agfl(fs, agno, NULL, &bp)) {
			s.agfl = true;
			agfl_walk(g, agno, &agf, bp->data, agfl_block, &s);
			s.agfl = false;
			buf_release(bp);
		}
	}
	if (ag->sum.agi_ok && !ag_read_agi(fs, agno, NULL, &bp, &agi)) {
		buf_release(bp);
		memcpy(ag->unlinked, agi.unlinked, sizeof(ag->unlinked));
		agi_btree_root(&agi, agno, BT_INO, &root);
		/* a root of another kind the reference does not take
		   (nor one its verifier refuses for its level) */
		walk(&s, &root, XFS_RMAP_OWN_INOBT, inobt_rec, &ag->ino_walked,
		     !ag->sum.ino_root_refused);
		if (g->has_finobt) {
			agi_btree_root(&agi, agno, BT_FINO, &root);
			walk(&s, &root, XFS_RMAP_OWN_INOBT, NULL, &dummy,
			     !ag->sum.fino_root_refused);
		}
	}
}
