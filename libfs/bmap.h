/*
 * File block maps (data_extents.asciidoc): the extents of an inode fork,
 * whether listed in the inode (extents format) or in a bmap btree (btree
 * format), and reading a fork's logical blocks.
 *
 * fork_extents() decodes every extent of a fork into a sorted array and
 * checks the map: extents in order and not overlapping, start blocks on
 * the data device and inside one AG, lengths non-zero, offsets below the
 * maximum file offset, the count equal to the inode's counter, bmbt
 * blocks owned by the inode.  The bmbt blocks themselves are reported to
 * an optional callback (for space accounting).
 */
#ifndef XK_BMAP_H
#define XK_BMAP_H

#include "inode.h"
#include "btree.h"

struct fs_extents {
	struct xfs_bmbt_irec	*v;
	size_t			n;
	size_t			cap;
	uint64_t		bmbt_blocks;	/* btree format: blocks of the tree */
	/*
	 * Extents of v before the first record found bad: where a checker
	 * that stops at the first bad record (xfs_repair) ends the map.
	 */
	size_t			nbefore_bad;
	bool			bad_seen;
};

void extents_init(struct fs_extents *el);
void extents_free(struct fs_extents *el);

/* Called for every bmbt block of a btree-format fork. */
typedef int (*bmbt_blk_fn)(xfs_fsblock_t fsb, unsigned level, void *priv);

/*
 * Load and check the extents of a fork.  Local and dev forks have none.
 * Returns 0 (with findings for a damaged map, whose bad extents are
 * dropped) or a negative errno.
 */
int fork_extents(struct fs *fs, const struct fs_inode *ip, int whichfork,
		 struct fs_extents *el, bmbt_blk_fn blk_fn, void *priv,
		 struct fs_findings *fl);

/* The extent containing file block off, if any. */
bool extents_lookup(const struct fs_extents *el, xfs_fileoff_t off,
		    struct xfs_bmbt_irec *out);

/*
 * Read count logical blocks of a fork starting at off, as one buffer,
 * verified with ops.  The blocks may be discontiguous on disk (directory
 * blocks bigger than a filesystem block); such a buffer is assembled from
 * its pieces and is not cached.  A hole anywhere in the range gives
 * -ENODATA.
 */
int fork_read(struct fs *fs, const struct fs_extents *el, xfs_fileoff_t off,
	      uint32_t count, const struct buf_ops *ops, struct fs_findings *fl,
	      struct fs_buf **bpp);

/* The largest file offset (in blocks) a bmbt record can hold: 2^54 - 1. */
#define XFS_MAX_FILEOFF	((1ull << 54) - 1)

/*
 * The largest file block a mapping may reach: a byte offset into a file
 * is a signed 64-bit number (loff_t), so no file is longer than 2^63 - 1
 * bytes -- fewer blocks than a record's 54 bits of offset can name.
 */
static inline uint64_t bmap_max_fileoff(const struct fs_geom *g)
{
	return (uint64_t)INT64_MAX >> g->blocklog;
}

#endif
