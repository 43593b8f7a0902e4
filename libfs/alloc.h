/*
 * Block allocation on an existing filesystem: take an extent out of an
 * AG's free space, or give one back, keeping every structure that
 * accounts for it in step the way the kernel's allocator does —
 * bnobt and cntbt records (with leaf and node splits, new roots, blocks
 * for the trees taken from and returned to the AGFL), the rmapbt record
 * of the owner (merged with its neighbours where the kernel merges),
 * the AGF (freeblks, longest, btreeblks, levels, roots, rmapblocks,
 * flfirst/fllast/flcount), the AGFL itself and the superblock's
 * fdblocks.  Used by xfs_db's expert commands (attr_set) and, later, by
 * repair's fixing half.
 *
 * Every changed block is written through fs->bc with its CRC
 * recomputed.  The AG's headers and trees are read and verified before
 * anything is changed: damaged metadata gives -EFSCORRUPTED and nothing
 * is written.
 */
#ifndef XFSKIT_ALLOC_H
#define XFSKIT_ALLOC_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include "fs.h"

#ifndef EFSCORRUPTED
#define EFSCORRUPTED	EUCLEAN
#endif

/*
 * Who the extent belongs to, as its rmapbt record says it.  An owner of
 * XFS_RMAP_OWN_NULL asks for no rmapbt change (the caller maps it).
 */
struct alloc_owner {
	uint64_t	owner;		/* inode number or XFS_RMAP_OWN_* */
	uint64_t	offset;		/* first file block (inode owners) */
	bool		attr_fork;	/* XFS_RMAP_OFF_ATTR_FORK */
	bool		bmbt_block;	/* XFS_RMAP_OFF_BMBT_BLOCK */
};

/*
 * Allocate len contiguous blocks, choosing the extent the kernel's
 * "near" allocation would choose for this target (a filesystem block
 * number; its AG is tried first, then the following AGs, wrapping).
 * On success *fsb is the first block.  -ENOSPC when no AG has len free
 * contiguous blocks.
 */
int fs_alloc_extent(struct fs *fs, xfs_fsblock_t target, uint32_t len,
		    const struct alloc_owner *o, xfs_fsblock_t *fsb);

/* Return len blocks at fsb, which o owns, to the free space. */
int fs_free_extent(struct fs *fs, xfs_fsblock_t fsb, uint32_t len,
		   const struct alloc_owner *o);

#endif
