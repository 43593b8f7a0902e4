/*
 * Allocating and freeing one extent as the kernel does (Linux 6.1
 * fs/xfs/libxfs/xfs_alloc.c and xfs_rmap.c; allocation_groups.asciidoc,
 * rmapbt.asciidoc for the structures).
 *
 * In: an open, writable filesystem.  Out: the AG's bnobt, cntbt and
 * rmapbt, AGF, AGFL and the primary superblock's fdblocks changed as
 * one transaction of the kernel would change them; every changed block
 * written with a fresh CRC.  The AG is checked whole (ag_check) before
 * anything changes: damage gives -EFSCORRUPTED and no write.
 *
 * The order of the steps is the kernel's, because it decides which
 * blocks move where:
 *   allocation: fix the free list (shorten it by taking the surplus
 *     blocks off, to be freed later, or refill it from the AG's best
 *     fitting free extent); choose and cut out the extent; free the
 *     surplus free list blocks; fix the free list again; map the
 *     owner in the rmapbt (the kernel defers a file's reverse mapping
 *     until after the allocation);
 *   free: fix the free list; unmap the owner; fix the free list again;
 *     give the extent back to the bnobt and cntbt, merging with free
 *     neighbours; free any surplus free list blocks.
 * Blocks moving between the free list and the trees stay owned by
 * XFS_RMAP_OWN_AG; only blocks entering or leaving the free list from
 * free space change the rmapbt.
 *
 * What the kernel knows and this interface does not: the transaction's
 * total block reservation (taken as the extent length), per-AG
 * reservations (none, as in xfs_db), and whether a data extent of a
 * reflink inode is shared (mapped as not shared).  An AG whose cntbt is
 * empty cannot hand a single block out of its free list here.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "alloc_int.h"
#include "ag_check.h"
#include "format/sb.h"

#define NULLAGBLK	((xfs_agblock_t)-1)

static bool has_rmap(const struct alloc_ag *ag)
{
	return ag->fs->geo.has_rmapbt;
}

/* ---- one AG held for change ---- */

int alloc_ag_open(struct fs *fs, xfs_agnumber_t agno, struct alloc_ag *ag)
{
	struct fs_findings fl;
	struct ag_summary sum;
	unsigned active;
	int err;

	memset(ag, 0, sizeof(*ag));
	ag->fs = fs;
	ag->agno = agno;
	findings_init(&fl);
	err = ag_check(fs, agno, &fl, &sum);
	if (!err && fl.nerrors)
		err = -EFSCORRUPTED;
	if (!err)
		err = ag_read_agf(fs, agno, &fl, &ag->agf_bp, &ag->agf);
	if (!err && buf_corrupt(ag->agf_bp))
		err = -EFSCORRUPTED;
	if (!err)
		err = ag_read_agfl(fs, agno, &fl, &ag->agfl_bp);
	if (!err && buf_corrupt(ag->agfl_bp))
		err = -EFSCORRUPTED;
	if (!err && !agf_freelist_ok(&fs->geo, &ag->agf, &active))
		err = -EFSCORRUPTED;
	if (!err && !(ag->agfl = malloc(ag->agfl_bp->len)))
		err = -ENOMEM;
	if (!err)
		memcpy(ag->agfl, ag->agfl_bp->data, ag->agfl_bp->len);
	findings_free(&fl);
	if (err)
		alloc_ag_close(ag);
	return err;
}

/*
 * A fresh block's buffer came from bcache_get(), which fills a block the
 * cache did not hold with zeroes and keeps it as loaded.  If it was not
 * written, give the buffer its disk contents back.
 */
static void unload_fresh(struct alloc_ag *ag, struct alloc_blk *b)
{
	struct fs_buf *bp = b->bp;

	if (!b->fresh || (bp->flags & BUF_DIRTY))
		return;
	if (dev_pread(bcache_dev(ag->fs->bc), bp->data, bp->len,
		      (uint64_t)bp->daddr << BBSHIFT))
		memset(bp->data, 0, bp->len);
}

void alloc_ag_close(struct alloc_ag *ag)
{
	for (unsigned i = 0; i < ag->nblks; i++) {
		if (ag->blks[i]->bp && !ag->committed)
			unload_fresh(ag, ag->blks[i]);
		buf_release(ag->blks[i]->bp);
		free(ag->blks[i]->data);
		free(ag->blks[i]);
	}
	free(ag->blks);
	free(ag->deferred);
	free(ag->agfl);
	buf_release(ag->agf_bp);
	buf_release(ag->agfl_bp);
	memset(ag, 0, sizeof(*ag));
}

static int put_back(struct fs_buf *bp, const void *data)
{
	int err;

	memcpy(bp->data, data, bp->len);
	atomic_fetch_or(&bp->flags, BUF_LOADED);
	if ((err = buf_mark_dirty(bp)))
		return err;
	return buf_write(bp);
}

static int commit_sb(struct alloc_ag *ag)
{
	struct fs *fs = ag->fs;
	struct fs_findings fl;
	struct xfs_dsb *d;
	struct fs_buf *bp;
	int err;

	if (!ag->fdblocks_delta)
		return 0;
	findings_init(&fl);
	err = fs_read_sb(fs, 0, &fl, &bp);
	findings_free(&fl);
	if (err)
		return err;
	d = (struct xfs_dsb *)bp->data;
	put_be64(&d->sb_fdblocks,
		 get_be64(d->sb_fdblocks) + (uint64_t)ag->fdblocks_delta);
	fs->sb.fdblocks = get_be64(d->sb_fdblocks);
	if (!(err = buf_mark_dirty(bp)))
		err = buf_write(bp);
	buf_release(bp);
	return err;
}

int alloc_ag_commit(struct alloc_ag *ag)
{
	struct fs *fs = ag->fs;
	const struct fs_geom *g = &fs->geo;
	uint8_t *agf;
	int err = 0;

	for (unsigned i = 0; i < ag->nblks && !err; i++) {
		struct alloc_blk *b = ag->blks[i];

		if (!b->dirty || !b->ops)
			continue;
		/* a fresh or reused block: its buffer takes the tree's ops */
		if (b->bp->ops != b->ops->buf_ops) {
			struct fs_buf *bp;

			err = bcache_get(fs->bc, agb_to_daddr(g, ag->agno, b->agbno),
					 g->blocksize, b->ops->buf_ops, &bp);
			buf_release(bp);
		}
		if (!err)
			err = put_back(b->bp, b->data);
	}
	if (err)
		return err;
	if (memcmp(ag->agfl, ag->agfl_bp->data, ag->agfl_bp->len) &&
	    (err = put_back(ag->agfl_bp, ag->agfl)))
		return err;
	if (!(agf = malloc(ag->agf_bp->len)))
		return -ENOMEM;
	memcpy(agf, ag->agf_bp->data, ag->agf_bp->len);
	agf_encode(&ag->agf, (struct xfs_agf *)agf);
	if (memcmp(agf, ag->agf_bp->data, ag->agf_bp->len))
		err = put_back(ag->agf_bp, agf);
	free(agf);
	if (!err)
		err = commit_sb(ag);
	ag->committed = true;
	return err;
}

/* ---- the free list (a circular array in the AGFL sector) ---- */

static be32 *agfl_slot(struct alloc_ag *ag, unsigned i)
{
	return (be32 *)(ag->agfl + XFS_AGFL_HDR_SIZE) + i;
}

int alloc_get_freelist(struct alloc_ag *ag, xfs_agblock_t *bno, bool btreeblk)
{
	struct fs_agf *agf = &ag->agf;
	unsigned size = agfl_size(&ag->fs->geo);

	*bno = NULLAGBLK;
	if (!agf->flcount)
		return 0;
	*bno = get_be32(*agfl_slot(ag, agf->flfirst));
	if (!ag_extent_ok(&ag->fs->geo, ag->agno, *bno, 1))
		return -EFSCORRUPTED;
	if (++agf->flfirst == size)
		agf->flfirst = 0;
	agf->flcount--;
	if (btreeblk)
		agf->btreeblks++;
	return 0;
}

int alloc_put_freelist(struct alloc_ag *ag, xfs_agblock_t bno, bool btreeblk)
{
	struct fs_agf *agf = &ag->agf;
	unsigned size = agfl_size(&ag->fs->geo);

	if (agf->flcount >= size)
		return -EFSCORRUPTED;
	if (++agf->fllast == size)
		agf->fllast = 0;
	agf->flcount++;
	if (btreeblk)
		agf->btreeblks--;
	put_be32(agfl_slot(ag, agf->fllast), bno);
	return 0;
}

static int defer_agfl_free(struct alloc_ag *ag, xfs_agblock_t bno)
{
	if (ag->ndeferred == ag->deferred_cap) {
		unsigned cap = ag->deferred_cap ? 2 * ag->deferred_cap : 8;
		xfs_agblock_t *v = realloc(ag->deferred, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		ag->deferred = v;
		ag->deferred_cap = cap;
	}
	ag->deferred[ag->ndeferred++] = bno;
	return 0;
}

/* ---- bnobt / cntbt records ---- */

static void set_alloc_rec(struct alloc_cur *cur, uint32_t bno, uint32_t len)
{
	struct xfs_alloc_rec *r = (struct xfs_alloc_rec *)cur->rec;

	put_be32(&r->ar_startblock, bno);
	put_be32(&r->ar_blockcount, len);
}

static int alloc_lookup(struct alloc_cur *cur, enum alloc_lookup dir,
			uint32_t bno, uint32_t len, int *stat)
{
	int err;

	set_alloc_rec(cur, bno, len);
	err = acur_lookup(cur, dir, stat);
	cur->active = !err && *stat == 1;
	return err;
}

static int alloc_get_rec(const struct alloc_cur *cur, uint32_t *bno,
			 uint32_t *len)
{
	const struct xfs_alloc_rec *r = acur_rec(cur);

	if (!r)
		return -EFSCORRUPTED;
	*bno = get_be32(r->ar_startblock);
	*len = get_be32(r->ar_blockcount);
	return 0;
}

static int alloc_update(struct alloc_cur *cur, uint32_t bno, uint32_t len)
{
	struct xfs_alloc_rec r;

	put_be32(&r.ar_startblock, bno);
	put_be32(&r.ar_blockcount, len);
	return acur_update(cur, &r);
}

/* Both trees' records must be there (1) or not (0), as expected. */
static int want(int stat, int expect)
{
	return stat == expect ? 0 : -EFSCORRUPTED;
}

/*
 * Cut [rbno, rbno + rlen) out of the free extent [fbno, fbno + flen):
 * the cntbt record goes and what is left of either end comes back; the
 * bnobt record is deleted, shortened, or shortened plus one inserted.
 */
static int fixup_trees(struct alloc_ag *ag, uint32_t fbno, uint32_t flen,
		       uint32_t rbno, uint32_t rlen)
{
	struct alloc_cur cnt, bno;
	uint32_t nb1 = NULLAGBLK, nl1 = 0, nb2 = NULLAGBLK, nl2 = 0;
	int err, i;

	acur_init(&cnt, ag, XFS_AGF_CNT);
	acur_init(&bno, ag, XFS_AGF_BNO);
	if ((err = alloc_lookup(&cnt, LOOKUP_EQ, fbno, flen, &i)) ||
	    (err = want(i, 1)))
		return err;
	if ((err = alloc_lookup(&bno, LOOKUP_EQ, fbno, flen, &i)) ||
	    (err = want(i, 1)))
		return err;
	if (rbno < fbno || (uint64_t)rbno + rlen > (uint64_t)fbno + flen)
		return -EFSCORRUPTED;
	if (rbno == fbno && rlen == flen) {
		/* the whole extent */
	} else if (rbno == fbno) {
		nb1 = rbno + rlen;
		nl1 = flen - rlen;
	} else if (rbno + rlen == fbno + flen) {
		nb1 = fbno;
		nl1 = flen - rlen;
	} else {
		nb1 = fbno;
		nl1 = rbno - fbno;
		nb2 = rbno + rlen;
		nl2 = fbno + flen - nb2;
	}
	if ((err = acur_delete(&cnt, &i)) || (err = want(i, 1)))
		return err;
	if (nb1 != NULLAGBLK) {
		if ((err = alloc_lookup(&cnt, LOOKUP_EQ, nb1, nl1, &i)) ||
		    (err = want(i, 0)))
			return err;
		if ((err = acur_insert(&cnt, &i)) || (err = want(i, 1)))
			return err;
	}
	if (nb2 != NULLAGBLK) {
		if ((err = alloc_lookup(&cnt, LOOKUP_EQ, nb2, nl2, &i)) ||
		    (err = want(i, 0)))
			return err;
		if ((err = acur_insert(&cnt, &i)) || (err = want(i, 1)))
			return err;
	}
	if (nb1 == NULLAGBLK) {
		if ((err = acur_delete(&bno, &i)) || (err = want(i, 1)))
			return err;
	} else if ((err = alloc_update(&bno, nb1, nl1))) {
		return err;
	}
	if (nb2 != NULLAGBLK) {
		if ((err = alloc_lookup(&bno, LOOKUP_EQ, nb2, nl2, &i)) ||
		    (err = want(i, 0)))
			return err;
		if ((err = acur_insert(&bno, &i)) || (err = want(i, 1)))
			return err;
	}
	return 0;
}

/* ---- reverse mappings (xfs_rmap_map / xfs_rmap_unmap) ---- */

struct rmap_irec {
	uint32_t	start, len;
	uint64_t	owner;
	uint64_t	offset;		/* without flags */
	uint64_t	flags;		/* XFS_RMAP_OFF_* bits */
};

static const struct alloc_owner own_ag = { .owner = XFS_RMAP_OWN_AG };

static bool non_inode_owner(uint64_t owner)
{
	return owner & (1ull << 63);
}

static void rmap_encode(const struct rmap_irec *ir, void *rec)
{
	struct xfs_rmap_rec *r = rec;

	put_be32(&r->rm_startblock, ir->start);
	put_be32(&r->rm_blockcount, ir->len);
	put_be64(&r->rm_owner, ir->owner);
	put_be64(&r->rm_offset, (ir->offset & XFS_RMAP_OFF_MASK) | ir->flags);
}

static int rmap_get_rec(const struct alloc_cur *cur, struct rmap_irec *ir)
{
	const struct xfs_rmap_rec *r = acur_rec(cur);
	uint64_t off;

	if (!r)
		return -EFSCORRUPTED;
	off = get_be64(r->rm_offset);
	ir->start = get_be32(r->rm_startblock);
	ir->len = get_be32(r->rm_blockcount);
	ir->owner = get_be64(r->rm_owner);
	ir->offset = off & XFS_RMAP_OFF_MASK;
	ir->flags = off & XFS_RMAP_OFF_FLAGS;
	return 0;
}

static int rmap_update(struct alloc_cur *cur, const struct rmap_irec *ir)
{
	struct xfs_rmap_rec r;

	rmap_encode(ir, &r);
	return acur_update(cur, &r);
}

static void owner_irec(const struct alloc_owner *o, uint32_t bno, uint32_t len,
		       struct rmap_irec *ir)
{
	ir->start = bno;
	ir->len = len;
	ir->owner = o->owner;
	ir->offset = non_inode_owner(o->owner) || o->bmbt_block ? 0 : o->offset;
	ir->flags = (o->attr_fork ? XFS_RMAP_OFF_ATTR_FORK : 0) |
		    (o->bmbt_block ? XFS_RMAP_OFF_BMBT_BLOCK : 0);
}

static int rmap_lookup_le(struct alloc_cur *cur, const struct rmap_irec *key,
			  int *stat)
{
	struct rmap_irec k = *key;

	k.len = 0;
	rmap_encode(&k, cur->rec);
	return acur_lookup(cur, LOOKUP_LE, stat);
}

static bool rmap_mergeable(const struct rmap_irec *r, const struct rmap_irec *n)
{
	return r->owner != XFS_RMAP_OWN_NULL && r->owner == n->owner &&
	       r->flags == n->flags;
}

#define RMAP_LEN_MAX	((uint32_t)~0u)

static int rmap_map(struct alloc_ag *ag, uint32_t bno, uint32_t len,
		    const struct alloc_owner *o)
{
	struct rmap_irec n, lt = { 0 }, gt = { 0 };
	struct alloc_cur cur;
	bool ignore_off = non_inode_owner(o->owner) || o->bmbt_block;
	int have_lt, have_gt, err, i;

	owner_irec(o, bno, len, &n);
	acur_init(&cur, ag, XFS_AGF_RMAP);
	if ((err = rmap_lookup_le(&cur, &n, &have_lt)))
		return err;
	if (have_lt) {
		if ((err = rmap_get_rec(&cur, &lt)))
			return err;
		if ((uint64_t)lt.start + lt.len > bno)
			return -EFSCORRUPTED;
		if (!rmap_mergeable(&lt, &n))
			have_lt = 0;
	}
	if ((err = acur_increment(&cur, 0, &have_gt)))
		return err;
	if (have_gt) {
		if ((err = rmap_get_rec(&cur, &gt)))
			return err;
		if ((uint64_t)bno + len > gt.start)
			return -EFSCORRUPTED;
		if (!rmap_mergeable(&gt, &n))
			have_gt = 0;
	}
	if (have_lt && lt.start + lt.len == bno &&
	    (ignore_off || lt.offset + lt.len == n.offset)) {
		lt.len += len;
		if (have_gt && bno + len == gt.start &&
		    (ignore_off || n.offset + len == gt.offset) &&
		    (uint64_t)lt.len + len + gt.len <= RMAP_LEN_MAX) {
			lt.len += gt.len;
			if ((err = acur_delete(&cur, &i)) || (err = want(i, 1)))
				return err;
		}
		if ((err = acur_decrement(&cur, 0, &i)))
			return err;
		return rmap_update(&cur, &lt);
	}
	if (have_gt && bno + len == gt.start &&
	    (ignore_off || n.offset + len == gt.offset)) {
		gt.start = bno;
		gt.len += len;
		if (!ignore_off)
			gt.offset = n.offset;
		return rmap_update(&cur, &gt);
	}
	rmap_encode(&n, cur.rec);
	if ((err = acur_insert(&cur, &i)))
		return err;
	return want(i, 1);
}

static int rmap_unmap(struct alloc_ag *ag, uint32_t bno, uint32_t len,
		      const struct alloc_owner *o)
{
	struct rmap_irec n, lt;
	struct alloc_cur cur;
	bool ignore_off = non_inode_owner(o->owner) || o->bmbt_block;
	uint64_t ltoff;
	int err, i;

	owner_irec(o, bno, len, &n);
	acur_init(&cur, ag, XFS_AGF_RMAP);
	if ((err = rmap_lookup_le(&cur, &n, &i)) || (err = want(i, 1)))
		return err;
	if ((err = rmap_get_rec(&cur, &lt)))
		return err;
	ltoff = lt.offset;
	/* the record must cover the range and belong to the owner */
	if (lt.start > bno || (uint64_t)lt.start + lt.len < (uint64_t)bno + len)
		return -EFSCORRUPTED;
	if (lt.owner != n.owner || (lt.flags & XFS_RMAP_OFF_UNWRITTEN))
		return -EFSCORRUPTED;
	if (!non_inode_owner(n.owner)) {
		if (o->bmbt_block) {
			if (!(lt.flags & XFS_RMAP_OFF_BMBT_BLOCK))
				return -EFSCORRUPTED;
		} else if (lt.offset > n.offset ||
			   ltoff + lt.len < n.offset + len) {
			return -EFSCORRUPTED;
		}
	}
	if (lt.start == bno && lt.len == len) {
		if ((err = acur_delete(&cur, &i)))
			return err;
		return want(i, 1);
	}
	if (lt.start == bno) {
		lt.start += len;
		lt.len -= len;
		if (!ignore_off)
			lt.offset += len;
		return rmap_update(&cur, &lt);
	}
	if (lt.start + lt.len == bno + len) {
		lt.len -= len;
		return rmap_update(&cur, &lt);
	}
	{
		uint32_t orig_len = lt.len;
		struct rmap_irec r;

		lt.len = bno - lt.start;
		if ((err = rmap_update(&cur, &lt)))
			return err;
		if ((err = acur_increment(&cur, 0, &i)))
			return err;
		r.start = bno + len;
		r.len = orig_len - len - lt.len;
		r.owner = lt.owner;
		r.offset = ignore_off ? 0 : n.offset + len;
		r.flags = n.flags;
		rmap_encode(&r, cur.rec);
		if ((err = acur_insert(&cur, &i)))
			return err;
		return want(i, 1);
	}
}

/* ---- freeing (xfs_free_ag_extent) ---- */

static int free_ag_extent(struct alloc_ag *ag, uint32_t bno, uint32_t len,
			  const struct alloc_owner *o)
{
	struct alloc_cur bcur, ccur;
	uint32_t ltbno = 0, ltlen = 0, gtbno = 0, gtlen = 0, nbno, nlen;
	int haveleft, haveright, err, i;

	if (!ag_extent_ok(&ag->fs->geo, ag->agno, bno, len))
		return -EINVAL;
	if (o && has_rmap(ag) && (err = rmap_unmap(ag, bno, len, o)))
		return err;
	acur_init(&bcur, ag, XFS_AGF_BNO);
	acur_init(&ccur, ag, XFS_AGF_CNT);
	if ((err = alloc_lookup(&bcur, LOOKUP_LE, bno, len, &haveleft)))
		return err;
	if (haveleft) {
		if ((err = alloc_get_rec(&bcur, &ltbno, &ltlen)))
			return err;
		if ((uint64_t)ltbno + ltlen < bno)
			haveleft = 0;
		else if ((uint64_t)ltbno + ltlen > bno)
			return -EFSCORRUPTED;	/* partly free already */
	}
	if ((err = acur_increment(&bcur, 0, &haveright)))
		return err;
	if (haveright) {
		if ((err = alloc_get_rec(&bcur, &gtbno, &gtlen)))
			return err;
		if ((uint64_t)bno + len < gtbno)
			haveright = 0;
		else if ((uint64_t)bno + len > gtbno)
			return -EFSCORRUPTED;
	}
	if (haveleft && haveright) {
		if ((err = alloc_lookup(&ccur, LOOKUP_EQ, ltbno, ltlen, &i)) ||
		    (err = want(i, 1)) || (err = acur_delete(&ccur, &i)) ||
		    (err = want(i, 1)))
			return err;
		if ((err = alloc_lookup(&ccur, LOOKUP_EQ, gtbno, gtlen, &i)) ||
		    (err = want(i, 1)) || (err = acur_delete(&ccur, &i)) ||
		    (err = want(i, 1)))
			return err;
		if ((err = acur_delete(&bcur, &i)) || (err = want(i, 1)))
			return err;
		if ((err = acur_decrement(&bcur, 0, &i)) || (err = want(i, 1)))
			return err;
		nbno = ltbno;
		nlen = len + ltlen + gtlen;
		if ((err = alloc_update(&bcur, nbno, nlen)))
			return err;
	} else if (haveleft) {
		if ((err = alloc_lookup(&ccur, LOOKUP_EQ, ltbno, ltlen, &i)) ||
		    (err = want(i, 1)) || (err = acur_delete(&ccur, &i)) ||
		    (err = want(i, 1)))
			return err;
		if ((err = acur_decrement(&bcur, 0, &i)) || (err = want(i, 1)))
			return err;
		nbno = ltbno;
		nlen = len + ltlen;
		if ((err = alloc_update(&bcur, nbno, nlen)))
			return err;
	} else if (haveright) {
		if ((err = alloc_lookup(&ccur, LOOKUP_EQ, gtbno, gtlen, &i)) ||
		    (err = want(i, 1)) || (err = acur_delete(&ccur, &i)) ||
		    (err = want(i, 1)))
			return err;
		nbno = bno;
		nlen = len + gtlen;
		if ((err = alloc_update(&bcur, nbno, nlen)))
			return err;
	} else {
		nbno = bno;
		nlen = len;
		set_alloc_rec(&bcur, nbno, nlen);
		if ((err = acur_insert(&bcur, &i)) || (err = want(i, 1)))
			return err;
	}
	if ((err = alloc_lookup(&ccur, LOOKUP_EQ, nbno, nlen, &i)) ||
	    (err = want(i, 0)))
		return err;
	if ((err = acur_insert(&ccur, &i)) || (err = want(i, 1)))
		return err;
	ag->agf.freeblks += len;
	return 0;
}

/* The surplus free list blocks, in the order they were taken off. */
static int finish_deferred(struct alloc_ag *ag)
{
	int err;

	for (unsigned i = 0; i < ag->ndeferred; i++)
		if ((err = free_ag_extent(ag, ag->deferred[i], 1, &own_ag)))
			return err;
	ag->ndeferred = 0;
	return 0;
}

/* ---- choosing free space ---- */

/*
 * By size (xfs_alloc_ag_vextent_size): the first cntbt record of at
 * least maxlen blocks, from its start; failing that the largest extent
 * if it has minlen.  *rlen 0: nothing fits.
 */
static int alloc_by_size(struct alloc_ag *ag, uint32_t minlen, uint32_t maxlen,
			 uint32_t *rbno, uint32_t *rlen)
{
	struct alloc_cur cnt;
	uint32_t fbno, flen, take;
	int err, i;

	*rlen = 0;
	acur_init(&cnt, ag, XFS_AGF_CNT);
	if ((err = alloc_lookup(&cnt, LOOKUP_GE, 0, maxlen, &i)))
		return err;
	if (!i) {
		if ((err = acur_decrement(&cnt, 0, &i)))
			return err;
		if (!i)
			return 0;
	}
	if ((err = alloc_get_rec(&cnt, &fbno, &flen)))
		return err;
	take = flen < maxlen ? flen : maxlen;
	if (take < minlen)
		return 0;
	if ((err = fixup_trees(ag, fbno, flen, fbno, take)))
		return err;
	*rbno = fbno;
	*rlen = take;
	return 0;
}

struct near {
	struct alloc_ag		*ag;
	xfs_agblock_t		target, max_agbno;
	uint32_t		minlen, maxlen;
	struct alloc_cur	cnt, bnolt, bnogt;
	uint32_t		cur_len;	/* cntbt search key */
	uint32_t		rec_bno, rec_len;	/* best free extent */
	uint32_t		bno, len, diff;	/* best choice inside it */
};

/*
 * Where in a free extent the allocation would go (xfs_alloc_compute_diff
 * for metadata, unaligned): at its start if it lies after the target, at
 * the target if it covers it, else at its end.
 */
static uint32_t compute_diff(uint32_t want, uint32_t wantlen, uint32_t fbno,
			     uint32_t flen, uint32_t *newbno)
{
	uint64_t fend = (uint64_t)fbno + flen, wend = (uint64_t)want + wantlen;

	if (fbno >= want)
		*newbno = fbno;
	else if (fend >= wend)
		*newbno = want;
	else
		*newbno = (uint32_t)(fend - wantlen);
	return *newbno > want ? *newbno - want : want - *newbno;
}

/* xfs_alloc_cur_check: is the record under cur a better candidate? */
static int near_check(struct near *n, struct alloc_cur *cur, int *isnew)
{
	bool isbno = cur->idx == XFS_AGF_BNO, deactivate = false;
	uint32_t bno, len, alen, diff, bnew;
	int err;

	*isnew = 0;
	if ((err = alloc_get_rec(cur, &bno, &len)))
		return err;
	if (len < n->minlen) {
		deactivate = !isbno;
		goto out;
	}
	if (bno > n->max_agbno) {
		deactivate = isbno;
		goto out;
	}
	alen = len < n->maxlen ? len : n->maxlen;
	if (alen < n->len)
		goto out;
	diff = compute_diff(n->target, alen, bno, len, &bnew);
	if (diff > n->diff) {
		deactivate = isbno;
		goto out;
	}
	n->rec_bno = bno;
	n->rec_len = len;
	n->bno = bnew;
	n->len = alen;
	n->diff = diff;
	*isnew = 1;
	if (n->diff == 0 && n->len == n->maxlen)
		deactivate = true;
out:
	if (deactivate)
		cur->active = false;
	return 0;
}

/* xfs_alloc_walk_iter: check records while the cursor stays active. */
static int near_walk(struct near *n, struct alloc_cur *cur, bool increment,
		     bool find_one, int count, int *stat)
{
	int err, i;

	*stat = 0;
	while (cur->active && count) {
		if ((err = near_check(n, cur, &i)))
			return err;
		if (i == 1) {
			*stat = 1;
			if (find_one)
				break;
		}
		if (!cur->active)
			break;
		err = increment ? acur_increment(cur, 0, &i) :
				  acur_decrement(cur, 0, &i);
		if (err)
			return err;
		if (!i)
			cur->active = false;
		if (count > 0)
			count--;
	}
	return 0;
}

/* xfs_alloc_cntbt_iter: the extent of the current size nearest the target. */
static int near_cntbt_iter(struct near *n)
{
	struct alloc_cur *cur = &n->cnt;
	uint32_t bno, len, cur_len;
	int err, i;

	if (!cur->active)
		return 0;
	cur_len = n->cur_len;
	if ((err = alloc_lookup(cur, LOOKUP_GE, n->target, cur_len, &i)))
		return err;
	if (!i)
		return 0;
	if ((err = alloc_get_rec(cur, &bno, &len)))
		return err;
	if ((err = near_check(n, cur, &i)))
		return err;
	n->cur_len = len;
	if (bno > n->target) {
		if ((err = acur_decrement(cur, 0, &i)))
			return err;
		if (i) {
			if ((err = alloc_get_rec(cur, &bno, &len)))
				return err;
			if (len == n->cur_len &&
			    (err = near_check(n, cur, &i)))
				return err;
		}
	}
	cur_len <<= 1;
	if (!n->len || n->cur_len >= cur_len)
		n->cur_len++;
	else
		n->cur_len = cur_len;
	return 0;
}

/* xfs_alloc_ag_vextent_locality: bnobt both ways and cntbt in step. */
static int near_locality(struct near *n)
{
	struct alloc_cur *fb = NULL;
	bool fbinc = false;
	int err, i;

	if ((err = alloc_lookup(&n->cnt, LOOKUP_GE, n->target, n->cur_len, &i)))
		return err;
	if ((err = alloc_lookup(&n->bnolt, LOOKUP_LE, n->target, 0, &i)))
		return err;
	if ((err = alloc_lookup(&n->bnogt, LOOKUP_GE, n->target, 0, &i)))
		return err;
	while (n->bnolt.active || n->bnogt.active || n->cnt.active) {
		if ((err = near_walk(n, &n->bnolt, false, true, 1, &i)))
			return err;
		if (i == 1) {
			fb = &n->bnogt;
			fbinc = true;
			break;
		}
		if ((err = near_walk(n, &n->bnogt, true, true, 1, &i)))
			return err;
		if (i == 1) {
			fb = &n->bnolt;
			fbinc = false;
			break;
		}
		if ((err = near_cntbt_iter(n)))
			return err;
		if (!n->cnt.active)
			break;
	}
	if (!n->cnt.active && !n->len) {
		if ((err = acur_decrement(&n->cnt, 0, &i)))
			return err;
		if (i) {
			n->cnt.active = true;
			fb = &n->cnt;
			fbinc = false;
		}
	}
	if (fb && (err = near_walk(n, fb, fbinc, true, -1, &i)))
		return err;
	return 0;
}

/*
 * Near the target (xfs_alloc_ag_vextent_near): if the first cntbt
 * record of len blocks is in the cntbt's last leaf, the best of that
 * leaf from there on; otherwise the locality search.
 */
static int alloc_near(struct alloc_ag *ag, xfs_agblock_t target, uint32_t len,
		      uint32_t *rbno)
{
	struct near *n = calloc(1, sizeof(*n));
	int err, i;

	if (!n)
		return -ENOMEM;
	*rbno = NULLAGBLK;
	n->ag = ag;
	n->max_agbno = ag->fs->geo.agblocks - 1;
	n->target = target > n->max_agbno ? n->max_agbno : target;
	n->minlen = n->maxlen = len;
	n->cur_len = len;
	n->diff = (uint32_t)-1;
	acur_init(&n->cnt, ag, XFS_AGF_CNT);
	acur_init(&n->bnolt, ag, XFS_AGF_BNO);
	acur_init(&n->bnogt, ag, XFS_AGF_BNO);
	if ((err = alloc_lookup(&n->cnt, LOOKUP_GE, 0, len, &i)))
		goto out;
	if (!i)
		goto out;		/* no extent of len blocks */
	if (acur_in_last_leaf(&n->cnt)) {
		if ((err = near_walk(n, &n->cnt, true, false, -1, &i)))
			goto out;
	}
	if (!n->len && (err = near_locality(n)))
		goto out;
	if (!n->len)
		goto out;
	if ((err = fixup_trees(ag, n->rec_bno, n->rec_len, n->bno, n->len)))
		goto out;
	*rbno = n->bno;
out:
	free(n);
	return err;
}

/* ---- the free list's length (xfs_alloc_fix_freelist) ---- */

static unsigned min_freelist(const struct alloc_ag *ag)
{
	const struct fs_geom *g = &ag->fs->geo;
	unsigned amax = btree_maxlevels(g, &bnobt_ops), n, l;

	l = ag->agf.levels[XFS_AGF_BNO] + 1;
	n = l < amax ? l : amax;
	l = ag->agf.levels[XFS_AGF_CNT] + 1;
	n += l < amax ? l : amax;
	if (g->has_rmapbt) {
		unsigned rmax = btree_maxlevels(g, &rmapbt_ops);

		l = ag->agf.levels[XFS_AGF_RMAP] + 1;
		n += l < rmax ? l : rmax;
	}
	return n;
}

/* xfs_alloc_space_available, with no per-AG reservation. */
static bool space_available(const struct alloc_ag *ag, unsigned need,
			    uint32_t len)
{
	const struct fs_agf *agf = &ag->agf;
	uint32_t delta = need > agf->flcount ? need - agf->flcount : 0;
	uint32_t longest, agflcount;
	int64_t avail;

	if (agf->longest > delta)
		longest = agf->longest - delta;
	else
		longest = agf->flcount > 0 || agf->longest > 0;
	if (longest < len)
		return false;
	agflcount = agf->flcount < need ? agf->flcount : need;
	avail = (int64_t)agf->freeblks + agflcount - need;
	return avail >= (int64_t)len;
}

/*
 * Bring the free list to its needed length: the surplus is taken off
 * now and freed after the operation; a shortage is filled from the
 * free extent that fits it best.  *ok false: the AG has no room for
 * len blocks (nothing changed).
 */
static int fix_freelist(struct alloc_ag *ag, uint32_t len, bool freeing,
			bool *ok)
{
	unsigned need = min_freelist(ag);
	xfs_agblock_t bno;
	int err;

	*ok = true;
	if (!freeing && !space_available(ag, need, len)) {
		*ok = false;
		return 0;
	}
	while (ag->agf.flcount > need) {
		if ((err = alloc_get_freelist(ag, &bno, false)))
			return err;
		if ((err = defer_agfl_free(ag, bno)))
			return err;
	}
	while (ag->agf.flcount < need) {
		uint32_t rbno, rlen;

		if ((err = alloc_by_size(ag, 1, need - ag->agf.flcount, &rbno,
					 &rlen)))
			return err;
		if (!rlen) {
			if (freeing)
				break;
			return -ENOSPC;
		}
		if (has_rmap(ag) && (err = rmap_map(ag, rbno, rlen, &own_ag)))
			return err;
		ag->agf.freeblks -= rlen;
		for (uint32_t b = rbno; b < rbno + rlen; b++)
			if ((err = alloc_put_freelist(ag, b, false)))
				return err;
	}
	return 0;
}

/* ---- the interface ---- */

static bool owner_ok(const struct fs *fs, const struct alloc_owner *o)
{
	if (!o)
		return false;
	if (non_inode_owner(o->owner))
		return o->owner >= XFS_RMAP_OWN_MIN && !o->attr_fork &&
		       !o->bmbt_block && !o->offset;
	if (!ino_valid(&fs->geo, o->owner))
		return false;
	return o->bmbt_block ? !o->offset : o->offset <= XFS_RMAP_OFF_MASK;
}

/* The reverse mapping, after the allocation (the kernel defers it). */
static int map_owner(struct alloc_ag *ag, uint32_t bno, uint32_t len,
		     const struct alloc_owner *o)
{
	bool ok;
	int err;

	if (!has_rmap(ag))
		return 0;
	if ((err = fix_freelist(ag, 0, true, &ok)))
		return err;
	if ((err = rmap_map(ag, bno, len, o)))
		return err;
	return finish_deferred(ag);
}

static int alloc_in_ag(struct fs *fs, xfs_agnumber_t agno, xfs_agblock_t target,
		       bool near, uint32_t len, const struct alloc_owner *o,
		       xfs_fsblock_t *fsb)
{
	struct alloc_ag ag;
	uint32_t bno = NULLAGBLK, rlen = 0;
	bool ok;
	int err;

	if ((err = alloc_ag_open(fs, agno, &ag)))
		return err;
	if ((err = fix_freelist(&ag, len, false, &ok)))
		goto out;
	if (!ok) {
		err = -ENOSPC;
		goto out;
	}
	if (near) {
		err = alloc_near(&ag, target, len, &bno);
		rlen = bno == NULLAGBLK ? 0 : len;
	} else {
		err = alloc_by_size(&ag, len, len, &bno, &rlen);
	}
	if (err)
		goto out;
	if (!rlen) {
		err = -ENOSPC;
		goto out;
	}
	ag.agf.freeblks -= len;
	ag.fdblocks_delta -= len;
	if ((err = finish_deferred(&ag)))
		goto out;
	if (o->owner != XFS_RMAP_OWN_NULL &&
	    (err = map_owner(&ag, bno, len, o)))
		goto out;
	if ((err = alloc_ag_commit(&ag)))
		goto out;
	*fsb = agb_to_fsb(&fs->geo, agno, bno);
out:
	alloc_ag_close(&ag);
	return err;
}

int fs_alloc_extent(struct fs *fs, xfs_fsblock_t target, uint32_t len,
		    const struct alloc_owner *o, xfs_fsblock_t *fsb)
{
	const struct fs_geom *g = &fs->geo;
	xfs_agnumber_t agno0;
	xfs_agblock_t agbno;
	int err = -ENOSPC;

	if (!len || !owner_ok(fs, o) || !fsb_valid(g, target))
		return -EINVAL;
	agno0 = fsb_to_agno(g, target);
	agbno = fsb_to_agbno(g, target);
	for (xfs_agnumber_t i = 0; i < g->agcount; i++) {
		xfs_agnumber_t agno = (agno0 + i) % g->agcount;

		err = alloc_in_ag(fs, agno, agbno, i == 0, len, o, fsb);
		if (err != -ENOSPC)
			return err;
	}
	return err;
}

int fs_free_extent(struct fs *fs, xfs_fsblock_t fsb, uint32_t len,
		   const struct alloc_owner *o)
{
	const struct fs_geom *g = &fs->geo;
	struct alloc_ag ag;
	xfs_agnumber_t agno;
	uint32_t bno;
	bool ok;
	int err;

	if (!len || !owner_ok(fs, o) || !fsb_extent_valid(g, fsb, len))
		return -EINVAL;
	agno = fsb_to_agno(g, fsb);
	bno = fsb_to_agbno(g, fsb);
	if (!ag_extent_ok(g, agno, bno, len))
		return -EINVAL;
	if ((err = alloc_ag_open(fs, agno, &ag)))
		return err;
	if (has_rmap(&ag) && o->owner != XFS_RMAP_OWN_NULL) {
		if ((err = fix_freelist(&ag, 0, true, &ok)) ||
		    (err = rmap_unmap(&ag, bno, len, o)) ||
		    (err = finish_deferred(&ag)))
			goto out;
	}
	if ((err = fix_freelist(&ag, 0, true, &ok)) ||
	    (err = free_ag_extent(&ag, bno, len, NULL)))
		goto out;
	ag.fdblocks_delta += len;
	if ((err = finish_deferred(&ag)) || (err = alloc_ag_commit(&ag)))
		goto out;
out:
	alloc_ag_close(&ag);
	return err;
}
