/*
 * Whole-AG checks and iteration over an AG's inodes.
 *
 * ag_check() reads an AG's headers and walks every tree they root, then
 * checks what no single structure can tell by itself:
 *   - AGF freeblks and longest against the bnobt; bnobt and cntbt hold
 *     the same extents; btreeblks, rmap_blocks and refcount_blocks
 *     against the blocks of their trees;
 *   - AGI count and freecount against the inobt; the finobt holds
 *     exactly the inobt chunks with free inodes; iblocks and fblocks
 *     (inobtcount) against the two trees;
 *   - the active AGFL entries are inside the AG, distinct, and not free;
 *   - no block is claimed twice by headers, log, btree blocks, AGFL,
 *     inode chunks, CoW staging extents and free space;
 *   - with the rmapbt: every piece of AG metadata above has a reverse
 *     mapping with the matching owner and no such mapping is left over;
 *     no mapping covers free space; every block is free or mapped.
 * It is safe to run for different AGs on several threads at once.
 *
 * ag_iter_chunks()/ag_iter_inodes() give an AG's inode chunks or its
 * inodes from the inobt, in inode number order, for the inode walkers.
 */
#ifndef XK_AG_CHECK_H
#define XK_AG_CHECK_H

#include "ag.h"
#include "btree.h"

/* What one AG holds, for checks of the superblock's summary counters. */
struct ag_summary {
	bool			agf_ok;		/* AGF usable (magic, seqno) */
	bool			agi_ok;
	uint64_t		freeblks;	/* sum of the bnobt's extents */
	uint64_t		longest;
	uint64_t		flcount;	/* AGFL entries, flfirst to fllast */
	uint64_t		btreeblks;	/* bno+cnt+rmap beyond the roots */
	uint64_t		icount;		/* the inobt records' counts */
	uint64_t		ifree;		/* and their free counts */
	uint64_t		fino_freecount;	/* the finobt records' counts */
	unsigned		chunk_conflicts; /* inode chunk blocks claimed
						    by something else too */
	unsigned		chunk_overlaps;	/* inobt records overlapping */
	/* the inobt root was read and is of another kind, or its verifier
	   refuses its level: nothing of the tree was read */
	bool			ino_root_refused;
	bool			fino_root_refused;	/* the same of the finobt */
	uint64_t		btree_blocks;	/* every AG btree block */
	struct btree_stats	bno, cnt, rmap, refc, ino, fino;
};

int ag_check(struct fs *fs, xfs_agnumber_t agno, struct fs_findings *fl,
	     struct ag_summary *sum);

/* The root of one of an AG's trees, from its header. */
void agf_btree_root(const struct fs_agf *agf, xfs_agnumber_t agno,
		    enum btree_type type, struct btree_root *root);
void agi_btree_root(const struct fs_agi *agi, xfs_agnumber_t agno,
		    enum btree_type type, struct btree_root *root);

/* An inode btree record in host form. */
struct inobt_irec {
	xfs_agino_t	startino;
	uint64_t	holes;		/* 1 bit per inode absent (sparse) */
	uint64_t	free;		/* 1 bit per free inode (holes too) */
	unsigned	count;		/* as stored */
	unsigned	freecount;	/* as stored */
	/* the btree block the record was read from (ag_iter_chunks), or -1,
	   and its index there */
	xfs_daddr_t	daddr;
	unsigned	index;
};

void inobt_rec_decode(const struct fs_geom *g, const struct xfs_inobt_rec *r,
		      struct inobt_irec *irec);

/*
 * Each chunk of the inobt whose start is a valid, aligned inode number
 * of the AG (other records are skipped; ag_check reports them).
 * Non-zero from fn stops and is returned.  Findings of the walk go to fl
 * (NULL: dropped, for callers that ran ag_check already).
 */
typedef int (*ag_chunk_fn)(void *priv, xfs_agnumber_t agno,
			   const struct inobt_irec *irec);
int ag_iter_chunks(struct fs *fs, xfs_agnumber_t agno, ag_chunk_fn fn,
		   void *priv, struct fs_findings *fl);
/* The same for the finobt's records (none without a finobt). */
int ag_iter_fino_chunks(struct fs *fs, xfs_agnumber_t agno, ag_chunk_fn fn,
			void *priv, struct fs_findings *fl);

/* Each allocated inode (holes and free inodes skipped, unless flags). */
#define AG_INODES_FREE	(1u << 0)	/* free inodes too (not holes) */
typedef int (*ag_inode_fn)(void *priv, xfs_ino_t ino, bool free);
int ag_iter_inodes(struct fs *fs, xfs_agnumber_t agno, unsigned flags,
		   ag_inode_fn fn, void *priv, struct fs_findings *fl);

#endif
