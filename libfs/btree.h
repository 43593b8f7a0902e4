/*
 * The generic btree engine (btrees.asciidoc).
 *
 * One engine reads every XFS btree; each tree type supplies a struct
 * btree_ops with its record and key layout, key comparison and record
 * checks.  Short-pointer trees (bno, cnt, ino, fino, rmap, refcount) live
 * in one AG and start from a root in the AGF/AGI; the long-pointer bmap
 * btree starts from a root embedded in an inode fork.
 *
 * btree_walk() visits every block once, depth first in key order, and
 * checks what no single block can tell by itself:
 *   - each block's level is its parent's level minus one, the root's is
 *     levels - 1, leaves are level 0;
 *   - numrecs is within [minrecs, maxrecs] (the root may hold fewer);
 *   - keys and records are in order inside a block and across blocks
 *     (strictly increasing, except overlapping trees where equal low keys
 *     are legal);
 *   - a node's key for a child equals the child's first key (a finding
 *     names the key field that differs); in overlapping trees (rmapbt)
 *     no record or key of the child is past the node's high key for it,
 *     and that high key is the child's highest (one above it, which
 *     hides nothing from a query, is only a warning);
 *   - sibling pointers chain the blocks of each level from left to right,
 *     NULL at both ends;
 *   - every pointer is inside the AG (or the filesystem), and no block is
 *     visited twice.
 * Block-level checks (magic, CRC, UUID, blkno, owner) are the buffer
 * verifier's; ops->check_rec checks a record on its own (ranges, flags).
 *
 * The walk reports findings and goes on where it safely can: a bad child
 * is skipped, its siblings are still read.
 */
#ifndef XK_BTREE_H
#define XK_BTREE_H

#include "fs.h"
#include "format/btree.h"

enum btree_type {
	BT_BNO,
	BT_CNT,
	BT_INO,
	BT_FINO,
	BT_RMAP,
	BT_REFC,
	BT_BMAP,
	BT_NTYPES
};

struct btree_walk;
struct ftype;

struct btree_ops {
	const char		*name;		/* "bnobt", for messages */
	enum btree_type		type;
	enum fs_objtype		objtype;	/* OBJ_BNOBT, ... */
	uint32_t		magic;		/* v5 magic */
	bool			long_ptrs;	/* 64-bit fsblock pointers */
	bool			overlapping;	/* nodes hold low+high keys */
	unsigned		rec_len;
	unsigned		key_len;	/* one key (low or high) */
	unsigned		maxlevels;
	const struct buf_ops	*buf_ops;	/* block verifier */
	/* the block's field table (fields.h): names key fields in findings */
	const struct ftype	*fields;
	/* <0, 0, >0 like memcmp, on on-disk keys */
	int	(*cmp_keys)(const void *k1, const void *k2);
	/* the low key (and, overlapping, the high key) of a record */
	void	(*rec_low_key)(const void *rec, void *key);
	void	(*rec_high_key)(const void *rec, void *key);
	/* check one record on its own; optional */
	void	(*check_rec)(struct btree_walk *w, const void *rec,
			     struct fs_findings *fl);
};

/* Where a tree starts. */
struct btree_root {
	const struct btree_ops	*ops;
	xfs_agnumber_t		agno;		/* AG trees */
	xfs_agblock_t		root;		/* AG trees: root AG block */
	unsigned		levels;		/* AG trees: from the header */
	/* bmbt: the root is the bmdr block in an inode fork */
	xfs_ino_t		ino;
	int			whichfork;
	const void		*iroot;
	size_t			iroot_size;	/* bytes of the fork */
};

/* What a walk saw, for cross-checks against header counters. */
struct btree_stats {
	uint64_t	nrecs;
	uint64_t	nblocks;		/* blocks, root included */
	unsigned	levels;			/* observed height */
	/*
	 * Blocks or subtrees not walked (bad pointer, loop, unreadable or
	 * damaged block, unusable root): non-zero means the records seen
	 * are not the whole tree, so totals must not be compared.
	 */
	uint64_t	skipped;
};

/* Called for each record in key order; non-zero stops the walk. */
typedef int (*btree_rec_fn)(struct btree_walk *w, const void *rec, void *priv);
/* Called for each block read (space accounting); may be NULL. */
typedef int (*btree_blk_fn)(struct btree_walk *w, unsigned level,
			    xfs_fsblock_t fsb, void *priv);

struct btree_walk {
	struct fs		*fs;
	const struct btree_root	*root;
	struct fs_objref	obj;		/* block being looked at */
	uint64_t		recno;		/* index of the current record */
	void			*priv;
	/* the record before this one in key order (check_rec), or NULL */
	const void		*prev_rec;
};

int btree_walk(struct fs *fs, const struct btree_root *root,
	       btree_rec_fn rec_fn, btree_blk_fn blk_fn, void *priv,
	       struct fs_findings *fl, struct btree_stats *st);

/*
 * Find the last record whose low key is <= key (the record that would
 * contain key).  Returns 1 and copies the record, 0 if there is none,
 * or a negative errno.  Findings of blocks read on the way go to fl.
 */
int btree_lookup_le(struct fs *fs, const struct btree_root *root,
		    const void *key, void *rec_out, struct fs_findings *fl);

/* Record and pointer capacity of one block of a tree. */
unsigned btree_maxrecs(const struct fs_geom *g, const struct btree_ops *ops,
		       bool leaf);
/* The same for a bmbt root of iroot_size bytes in an inode fork. */
unsigned bmdr_maxrecs(size_t iroot_size, bool leaf);
/* Fewest records a block other than the root may hold: maxrecs / 2. */
unsigned btree_minrecs(const struct fs_geom *g, const struct btree_ops *ops,
		       bool leaf);
/*
 * The tallest tree of this type the geometry allows: the height at which
 * a tree whose blocks are at least half full would need more records
 * (or blocks) than an AG can hold, capped by ops->maxlevels.
 */
unsigned btree_maxlevels(const struct fs_geom *g, const struct btree_ops *ops);

/* Header length of a v5 block of this tree. */
static inline unsigned btree_hdr_len(const struct btree_ops *ops)
{
	return ops->long_ptrs ? XFS_BTREE_LBLOCK_CRC_LEN :
				XFS_BTREE_SBLOCK_CRC_LEN;
}

/* The tree types (ag_btree.c, bmap.c). */
extern const struct btree_ops bnobt_ops, cntbt_ops, inobt_ops, finobt_ops,
	rmapbt_ops, refcountbt_ops, bmbt_ops;

/* Block verifiers shared by the per-tree buf_ops (btree.c). */
void btree_sblock_verify(void *ctx, struct fs_buf *bp, struct fs_findings *fl,
			 uint32_t magic, enum fs_objtype objtype);
void btree_lblock_verify(void *ctx, struct fs_buf *bp, struct fs_findings *fl,
			 uint32_t magic, enum fs_objtype objtype);

#endif
