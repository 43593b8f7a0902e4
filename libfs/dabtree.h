/*
 * The directory/attribute btree, "dabtree" (dabtrees.asciidoc): node
 * blocks of (hashval, before) pairs over leaf blocks, indexing names by
 * da_hashname().  Directories keep theirs in the leaf space of the data
 * fork (from XFS_DIR2_LEAF_OFFSET, leaves are LEAFN blocks); attribute
 * forks keep theirs from block 0 (leaves are attr leaf blocks).  This
 * module knows only the node blocks and the shape of the tree; the
 * caller knows its leaves.
 *
 * What goes in: a struct dabtree naming the fork, its extents, where the
 * root is, which part of the fork pointers may reach, the leaf magic and
 * a leaf callback.  What comes out: each leaf block, once, in hash order,
 * handed to the callback; findings for everything a single leaf cannot
 * see on its own:
 *   - node blocks: magic 0x3ebe, CRC, blkno (the disk address), owner,
 *     UUID, count in [1, capacity], level in [1, XFS_DA_NODE_MAXDEPTH),
 *     hashes non-decreasing inside the block;
 *   - a node's level is its parent's minus one, level-1 nodes point at
 *     leaves and only they do;
 *   - a node's hashval for a child equals the child's last hash;
 *   - hashes never decrease from one leaf to the next;
 *   - forw/back chain the blocks of each level left to right, 0 at both
 *     ends;
 *   - every before pointer is aligned, inside [lo, hi) and mapped;
 *   - no block is reached twice, no path is deeper than the format allows.
 * A bad child is reported and skipped; its siblings are still read.
 *
 * Block numbers (xfs_dablk_t) are file block offsets in filesystem
 * blocks; one dabtree block spans blkfsbs of them (a directory block may
 * be several filesystem blocks, an attribute block is one).
 */
#ifndef XK_DABTREE_H
#define XK_DABTREE_H

#include "bmap.h"
#include "format/dir.h"

/* A decoded v5 xfs_da3_blkinfo. */
struct da_blkinfo {
	uint32_t	forw;
	uint32_t	back;
	uint16_t	magic;
	uint32_t	crc;
	uint64_t	blkno;
	uint64_t	owner;
	xfs_lsn_t	lsn;
	xfs_uuid_t	uuid;
};

/* A decoded v5 node header. */
struct da_node_hdr {
	struct da_blkinfo info;
	uint16_t	count;
	uint16_t	level;
};

void da3_blkinfo_decode(const void *buf, struct da_blkinfo *bi);
void da3_node_hdr_decode(const void *buf, struct da_node_hdr *h);

/* The node entries of a v5 node block. */
static inline const struct xfs_da_node_entry *da3_node_ents(const void *buf)
{
	return (const struct xfs_da_node_entry *)
		((const uint8_t *)buf + sizeof(struct xfs_da3_node_hdr));
}

/* Entries a node block of blksize bytes can hold. */
static inline unsigned da3_node_maxents(uint32_t blksize)
{
	return (blksize - sizeof(struct xfs_da3_node_hdr)) /
	       sizeof(struct xfs_da_node_entry);
}

/* The problem codes a header check reports (DA_* for nodes). */
struct da_hdr_codes {
	enum fs_problem	crc, blkno, uuid, owner, lsn;
};
extern const struct da_hdr_codes da_node_codes;

/*
 * Identity of any block starting with an xfs_da3_blkinfo (nodes, dir
 * LEAF1/LEAFN, attr leaves): CRC over len bytes, blkno == daddr, UUID,
 * owner unless it is NULLFSINO, and a plausible LSN.  The magic is the
 * caller's to check.  Reports with the given codes under obj; returns
 * the number of errors added (an impossible LSN is only a warning).
 */
unsigned da3_blkinfo_check(const struct fs_geom *g, const void *buf,
			   uint32_t len, xfs_daddr_t daddr, xfs_ino_t owner,
			   const struct da_hdr_codes *codes,
			   const struct fs_objref *obj, struct fs_findings *fl);

/*
 * A whole node block on its own: identity, magic, count, level range,
 * hash order.  Returns the number of findings added.
 */
unsigned da3_node_check(const struct fs_geom *g, const void *buf,
			uint32_t len, xfs_daddr_t daddr, xfs_ino_t owner,
			const struct fs_objref *obj, struct fs_findings *fl);

/*
 * Buffer ops of a node block: the checks that need no context (magic,
 * CRC, blkno, UUID; not the owner), and the CRC set before a write.
 */
extern const struct buf_ops da3_node_buf_ops;

/* What a leaf callback says about its leaf. */
struct da_leaf_info {
	uint32_t	count;		/* hashes in the leaf (0: empty) */
	xfs_dahash_t	first;		/* lowest hash, if count */
	xfs_dahash_t	last;		/* highest hash, if count */
	/*
	 * An empty leaf the callback read whole: its last hash is 0 (the
	 * kernel's rule), which the node's entry for it must have.
	 */
	bool		empty_known;
};

struct dabtree;

/*
 * Called for every leaf, in hash order, with the leaf's buffer (held for
 * the call only).  The walker has checked its magic and sibling links;
 * the callback checks the rest and fills *li.  Non-zero stops the walk
 * and is returned by dabtree_walk().
 */
typedef int (*da_leaf_fn)(struct dabtree *t, xfs_dablk_t blk,
			  struct fs_buf *bp, struct da_leaf_info *li,
			  void *priv);
/* Called for every node block read (space accounting); may be NULL. */
typedef int (*da_node_fn)(struct dabtree *t, xfs_dablk_t blk,
			  unsigned level, void *priv);

struct dabtree {
	struct fs		*fs;
	const struct fs_inode	*ip;
	const struct fs_extents	*el;		/* the fork's extents */
	enum fs_objtype		objtype;	/* OBJ_DIR or OBJ_ATTR */
	uint32_t		blkfsbs;	/* fs blocks per dabtree block */
	xfs_dablk_t		root;
	xfs_dablk_t		lo, hi;		/* pointers must be in [lo, hi) */
	uint16_t		leaf_magic;	/* XFS_DIR3_LEAFN_MAGIC, ... */
	const struct buf_ops	*leaf_ops;	/* ops to give leaf buffers */
};

struct da_walk_stats {
	uint64_t	nodes;		/* node blocks read */
	uint64_t	leaves;		/* leaf blocks handed out */
	unsigned	levels;		/* 1 + the root's level (1: root is a leaf) */
	uint64_t	skipped;	/* pointers not followed: bad, hole, loop */
};

/*
 * Walk the tree from t->root.  Returns 0, the leaf callback's non-zero
 * value, or a negative errno (out of memory); damage gives findings.
 * st may be NULL.
 */
int dabtree_walk(struct dabtree *t, da_leaf_fn leaf_fn, da_node_fn node_fn,
		 void *priv, struct fs_findings *fl, struct da_walk_stats *st);

/*
 * The leaf that holds the first occurrence of hash, by descending from
 * the root (the first entry whose hashval >= hash at each level).  Equal
 * hashes may continue in the next leaves (follow forw).  Returns 0 and
 * *leaf, -ENOENT when every hash in the tree is lower, or another
 * negative errno when the path is damaged (findings go to fl).
 */
int dabtree_lookup(struct dabtree *t, xfs_dahash_t hash, xfs_dablk_t *leaf,
		   struct fs_findings *fl);

/*
 * Read one dabtree block of the tree's fork (blkfsbs blocks at blk) with
 * the given ops.  -ENODATA for a hole; the buffer is the caller's to
 * release.
 */
int dabtree_read(struct dabtree *t, xfs_dablk_t blk, const struct buf_ops *ops,
		 struct fs_findings *fl, struct fs_buf **bpp);

#endif
