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

/* ---- attr3 leaf blocks ---- */

/* The leaf header as the functions below keep it (firstused unfolded). */
struct attr_leaf_hdr {
	uint16_t	count;
	uint16_t	usedbytes;
	uint32_t	firstused;	/* g->blocksize when the block is empty */
	uint8_t		holes;
	struct {
		uint16_t base, size;
	} freemap[XFS_ATTR_LEAF_MAPSIZE];
};

void attr_leaf_hdr_get(const struct fs_geom *g, const uint8_t *blk,
		       struct attr_leaf_hdr *h);
void attr_leaf_hdr_put(const struct fs_geom *g, uint8_t *blk,
		       const struct attr_leaf_hdr *h);

/* An empty leaf of inode owner at disk address daddr. */
void attr_leaf_init(const struct fs_geom *g, uint8_t *blk, xfs_ino_t owner,
		    xfs_daddr_t daddr);

/*
 * Bytes a new entry takes in a leaf, and whether its value stays in the
 * leaf (local) or goes to value blocks of its own.
 */
uint32_t attr_leaf_newentsize(const struct fs_geom *g, unsigned namelen,
			      uint32_t valuelen, bool *local);

/* Bytes entry index takes in the name area. */
uint32_t attr_leaf_entsize(const uint8_t *blk, unsigned index);

/*
 * Find (ns, name) among the complete entries: true and its index, or
 * false and the index a new entry of that hash goes at.
 */
bool attr_leaf_lookup(const struct fs_geom *g, const uint8_t *blk,
		      unsigned ns, const uint8_t *name, unsigned namelen,
		      unsigned *index);

/*
 * Add an entry at index (from attr_leaf_lookup): flags are the
 * namespace bits and INCOMPLETE; a local value is valuelen bytes of
 * value, a remote one gets its name only (valueblk and valuelen 0, and
 * INCOMPLETE, until attr_leaf_set_remote).  The block is compacted first
 * if its free space is there but scattered.  -ENOSPC if it does not fit.
 */
int attr_leaf_add(const struct fs_geom *g, uint8_t *blk, unsigned index,
		  unsigned flags, const uint8_t *name, unsigned namelen,
		  const uint8_t *value, uint32_t valuelen);

/* Point remote entry index at its value and clear INCOMPLETE. */
void attr_leaf_set_remote(uint8_t *blk, unsigned index, xfs_dablk_t valueblk,
			  uint32_t valuelen);

/* Remove entry index. */
void attr_leaf_remove(const struct fs_geom *g, uint8_t *blk, unsigned index);

/*
 * Short-form bytes the leaf's complete entries would take, or 0 if one
 * of them cannot be short form (a remote value, a name or value of 255
 * bytes or more).
 */
uint32_t attr_leaf_sf_bytes(const struct fs_geom *g, const uint8_t *blk);

/* Set the leaf's CRC (call after every change, before writing). */
void attr_leaf_crc(const struct fs_geom *g, uint8_t *blk);

/* ---- remote value blocks ---- */

/*
 * Value block b (0-based) of a valuelen-byte value of inode owner,
 * written at disk address daddr: header, that block's piece of value
 * (value may be NULL: every byte 'fill'), zeros after it, CRC.
 */
void attr_rmt_build(const struct fs_geom *g, uint8_t *blk, xfs_ino_t owner,
		    xfs_daddr_t daddr, uint32_t b, uint32_t valuelen,
		    const uint8_t *value, uint8_t fill);

/*
 * Split the full leaf old for a new entry of newsize bytes (from
 * attr_leaf_newentsize) that goes at index: the upper entries move into
 * nw, an empty leaf from attr_leaf_init, as the kernel balances the
 * two; *in_old and *newidx say where the new entry now goes.
 */
void attr_leaf_split(const struct fs_geom *g, uint8_t *old, uint8_t *nw,
		     unsigned index, uint32_t newsize, bool *in_old,
		     unsigned *newidx);

/*
 * Move every entry of leaf drop into leaf save, as the kernel joins two
 * sibling leaves.  0, -ENOSPC if they do not fit one block (nothing
 * moved), or -ENOMEM.
 */
int attr_leaf_join(const struct fs_geom *g, uint8_t *save, uint8_t *drop);

/* Hash of the last entry of a leaf (0 if it is empty). */
uint32_t attr_leaf_lasthash(const struct fs_geom *g, const uint8_t *blk);
