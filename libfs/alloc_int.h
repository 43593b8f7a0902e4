/*
 * The allocator's inside (alloc.c, alloc_btree.c): one AG opened for
 * change, and a cursor over one of its short-pointer btrees.
 *
 * Nothing is changed in the buffer cache while an operation runs: every
 * block the operation reads or creates gets a private copy here, and
 * only alloc_ag_commit() puts the dirty copies back into the cache and
 * writes them (their CRCs set by the buffer ops).  An operation that
 * fails half way is dropped with alloc_ag_close() and leaves the disk
 * and the cache as they were.
 *
 * The cursor follows the kernel's btree code (xfs_btree.c) closely on
 * purpose: where records go when a block fills (shift right, shift
 * left, then split), how underfull blocks borrow or join, which
 * cursor positions the callers see afterwards.  Those choices decide
 * the on-disk result, and the result must be the kernel's.
 */
#ifndef XK_ALLOC_INT_H
#define XK_ALLOC_INT_H

#include "alloc.h"
#include "ag.h"
#include "btree.h"

#define ALLOC_CUR_MAXLEVELS	16

/* One block of the AG held for change. */
struct alloc_blk {
	xfs_agblock_t		agbno;
	const struct btree_ops	*ops;
	struct fs_buf		*bp;	/* cache buffer; NULL for a new block */
	uint8_t			*data;	/* private copy */
	bool			dirty;
	bool			fresh;	/* bp from bcache_get, not read */
};

struct alloc_ag {
	struct fs		*fs;
	xfs_agnumber_t		agno;
	struct fs_agf		agf;
	struct fs_buf		*agf_bp;
	struct fs_buf		*agfl_bp;
	uint8_t			*agfl;		/* private copy of the sector */
	struct alloc_blk	**blks;
	unsigned		nblks, blks_cap;
	/* AGFL blocks taken off the list, to be freed after the operation */
	xfs_agblock_t		*deferred;
	unsigned		ndeferred, deferred_cap;
	int64_t			fdblocks_delta;	/* for the superblock */
	bool			committed;
};

struct alloc_cur {
	struct alloc_ag		*ag;
	const struct btree_ops	*ops;
	unsigned		idx;		/* XFS_AGF_BNO, _CNT or _RMAP */
	unsigned		nlevels;
	struct alloc_blk	*blk[ALLOC_CUR_MAXLEVELS];
	int			ptr[ALLOC_CUR_MAXLEVELS];
	/* the record searched for, or inserted (on-disk form) */
	uint8_t			rec[sizeof(struct xfs_rmap_rec)];
	bool			active;		/* for the allocation search */
};

enum alloc_lookup { LOOKUP_LE, LOOKUP_EQ, LOOKUP_GE };

/* AG open/commit/close (alloc.c). */
int alloc_ag_open(struct fs *fs, xfs_agnumber_t agno, struct alloc_ag *ag);
int alloc_ag_commit(struct alloc_ag *ag);
void alloc_ag_close(struct alloc_ag *ag);

/* The free list (alloc.c); btreeblk: the block goes to or comes from a tree. */
int alloc_get_freelist(struct alloc_ag *ag, xfs_agblock_t *bno, bool btreeblk);
int alloc_put_freelist(struct alloc_ag *ag, xfs_agblock_t bno, bool btreeblk);

/* Cursor (alloc_btree.c).  stat is 1 for success, 0 for "none there". */
void acur_init(struct alloc_cur *cur, struct alloc_ag *ag, unsigned idx);
int acur_lookup(struct alloc_cur *cur, enum alloc_lookup dir, int *stat);
int acur_increment(struct alloc_cur *cur, unsigned level, int *stat);
int acur_decrement(struct alloc_cur *cur, unsigned level, int *stat);
/* The record under the cursor (points into the block copy), or NULL. */
const void *acur_rec(const struct alloc_cur *cur);
int acur_update(struct alloc_cur *cur, const void *rec);
int acur_insert(struct alloc_cur *cur, int *stat);
int acur_delete(struct alloc_cur *cur, int *stat);
/* Is the cursor's leaf the last one of its level? */
bool acur_in_last_leaf(const struct alloc_cur *cur);

#endif
