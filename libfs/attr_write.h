/*
 * Writing extended attributes (extended_attributes.asciidoc): the rules
 * the kernel follows when it places an attribute fork in the inode, and
 * the in-memory construction of attr3 leaf and remote value blocks.
 *
 * Everything here works on buffers the caller owns (a raw v3 inode, one
 * fs block); nothing reads or writes the device, and nothing allocates
 * blocks.  xfs_db's attr_set / attr_remove drive it.
 *
 * The leaf functions keep a block byte for byte as the kernel's would be
 * after the same sequence of adds and removes: entries sorted by hash,
 * names and values packed from the end of the block in the order they
 * came, the three-slot free map, holes and compaction as the kernel
 * keeps them.
 */
#ifndef XK_ATTR_WRITE_H
#define XK_ATTR_WRITE_H

#include "geom.h"
#include "format/attr.h"
#include "format/inode.h"

/* Bytes of an inode's literal area (both forks). */
static inline uint32_t attr_litino(const struct fs_geom *g)
{
	return g->inodesize - XFS_DINODE_CORE_SIZE;
}

/*
 * The fork offset (8-byte units) an attribute fork gets when the kernel
 * creates one without a size in mind: 8 bytes after a device number, a
 * fixed offset otherwise (it depends only on the inode size).
 */
unsigned attr_default_forkoff(const struct fs_geom *g, const uint8_t *di);

/*
 * The fork offset (8-byte units) that lets the attribute fork of the raw
 * inode di hold bytes bytes of short form, moving the current offset if
 * the data fork leaves room, as the kernel's shortform "bytes fit" rule;
 * 0 if they do not fit.  With no attribute fork yet (di_forkoff 0), the
 * offset a new fork would get.
 */
unsigned attr_sf_bytesfit(const struct fs_geom *g, const uint8_t *di,
			  uint32_t bytes);

/* Bytes the data fork of di uses now (the kernel's in-memory size). */
uint32_t attr_dfork_bytes(const struct fs_geom *g, const uint8_t *di);

/*
 * Can the data fork of di stay as it is in a literal area cut at
 * forkoff (8-byte units)?  For a btree root, *relayout is set when its
 * pointers must move (the root's record capacity changes).
 */
bool attr_dfork_fits(const struct fs_geom *g, const uint8_t *di,
		     unsigned forkoff, bool *relayout);

/*
 * Move the pointers of di's data-fork btree root to where a literal
 * area cut at new_forkoff puts them (keys stay, the root's capacity
 * changes).  Call before di_forkoff is changed.
 */
void attr_dfork_relayout(const struct fs_geom *g, uint8_t *di,
			 unsigned new_forkoff);

#endif
