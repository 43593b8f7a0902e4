/*
 * Extended attributes (extended_attributes.asciidoc): reading and checking
 * an inode's attribute fork in each of its v5 forms.
 *
 *   short form  entries packed in the fork itself (di_aformat LOCAL);
 *   leaf        one attr3 leaf block at fork block 0 (magic 0x3bee);
 *   node        a dabtree of da3 node blocks from block 0 over leaves;
 *   remote      a value too big for its leaf lives in value blocks of its
 *               own, each fs block starting with an xfs_attr3_rmt_hdr.
 *
 * Two layers.  The block layer (attr_sf_check, attr_leaf_check,
 * attr_rmt_check) takes a buffer and the geometry, needs no device, and
 * both verifies (findings) and decodes (a callback per usable entry); it
 * never reads outside the buffer it is given, whatever the buffer holds.
 * The fork layer (attr_iterate, attr_get) reads the fork's blocks through
 * the extent list, walks node forms with dabtree.c, assembles remote
 * values and checks what spans blocks: remote values mapped and read
 * back whole, every mapped block of the fork used exactly once, names
 * unique per namespace.
 *
 * Entries flagged INCOMPLETE (an interrupted set or remove) are reported
 * and never handed to callers, as the kernel hides them.  The number of
 * attribute extents and blocks against the inode's counters is bmap.c's
 * business, not this module's.
 */
#ifndef XK_ATTR_H
#define XK_ATTR_H

#include "bmap.h"
#include "format/attr.h"

/* One attribute as the decoders hand it out. */
struct attr_rec {
	uint8_t		flags;		/* on-disk flags (XFS_ATTR_*) */
	uint8_t		namelen;
	xfs_dahash_t	hash;		/* as stored (leaf), or computed (sf) */
	const uint8_t	*name;
	/*
	 * The value: for a leaf's remote entry the block layer leaves it
	 * NULL and sets valueblk; attr_iterate() hands out the assembled
	 * value.  A zero-length value may have a NULL pointer.
	 */
	const uint8_t	*value;
	uint32_t	valuelen;
	xfs_dablk_t	valueblk;	/* remote: first value block, else 0 */
	unsigned	index;		/* entry index in its block or fork */
	xfs_dablk_t	dablk;		/* leaf block holding it (0 for sf) */
};

/* The namespace bits of an entry: 0 (user), XFS_ATTR_ROOT, XFS_ATTR_SECURE. */
static inline unsigned attr_rec_ns(const struct attr_rec *r)
{
	return r->flags & XFS_ATTR_NSP_ONDISK_MASK;
}

/* "user", "trusted", "security" (or "unknown" for both bits). */
const char *attr_ns_name(unsigned ns);

/* Is this a POSIX ACL (trusted SGI_ACL_FILE or SGI_ACL_DEFAULT)? */
bool attr_is_acl(unsigned flags, const uint8_t *name, unsigned namelen);

/*
 * The value of a POSIX ACL attribute (others are ignored): size and
 * count, known tags, rwx permissions, one owner, owning group and other
 * entry, no named user or group twice, a mask if there are named
 * entries.  Returns the number of findings added (0 or 1).  The block
 * checkers run it on local values, attr_iterate() on remote ones.
 */
unsigned attr_acl_check(const struct attr_rec *r, const struct fs_objref *o,
			struct fs_findings *fl);

/* One attribute; non-zero stops the walk and is returned. */
typedef int (*attr_fn)(void *priv, const struct attr_rec *r);

/* Bytes of value a remote block carries, and blocks a value needs. */
static inline uint32_t attr_rmt_space(const struct fs_geom *g)
{
	return g->blocksize - (uint32_t)sizeof(struct xfs_attr3_rmt_hdr);
}

static inline uint32_t attr_rmt_blocks(const struct fs_geom *g,
				       uint32_t valuelen)
{
	uint32_t space = attr_rmt_space(g);

	return (uint32_t)(((uint64_t)valuelen + space - 1) / space);
}

/* ---- block layer ---- */

/*
 * A short-form fork of forksize bytes: totsize equals the bytes the
 * entries use and fits the fork, count entries are there, each entry
 * lies inside the fork, has a name of 1..255 bytes without NUL, known
 * flags and one namespace, no INCOMPLETE flag, and no name repeats in
 * its namespace.  fn (may be NULL) gets each usable entry.  Returns 0 or
 * fn's non-zero value; *nerr (may be NULL) gets the number of findings
 * added.
 */
int attr_sf_check(const struct fs_geom *g, xfs_ino_t ino, const uint8_t *fork,
		  uint32_t forksize, attr_fn fn, void *priv,
		  struct fs_findings *fl, unsigned *nerr);

/* What attr_leaf_check learnt about a leaf block. */
struct attr_leaf_info {
	bool		magic_ok;	/* false: nothing else was looked at */
	uint16_t	count;		/* as stored */
	uint32_t	forw, back;
	uint32_t	nhashes;	/* entries whose hash was looked at */
	xfs_dahash_t	first, last;	/* lowest and highest hash */
	unsigned	nerr;		/* findings added */
};

/*
 * One attr3 leaf block of g->blocksize bytes read from daddr, at fork
 * block dablk of inode ino: magic, CRC, blkno, UUID, owner; count,
 * usedbytes (the bytes the names and values use), firstused (no name
 * below it, and the lowest name offset unless the block has holes; 0
 * stands for 65536 on 64 KiB blocks), holes, the freemap
 * (aligned, inside the block, over free space only); entries sorted by
 * hash, each hash equal to da_hashname(name), names and local values
 * inside the block at or above firstused and overlapping nothing, remote
 * value lengths at most XFS_XATTR_SIZE_MAX and value blocks not 0,
 * INCOMPLETE entries.  fn (may be NULL) gets each usable entry, remote
 * ones with value NULL.  Returns 0 or fn's non-zero value.
 */
int attr_leaf_check(const struct fs_geom *g, xfs_ino_t ino, xfs_dablk_t dablk,
		    xfs_daddr_t daddr, const uint8_t *blk, attr_fn fn,
		    void *priv, struct fs_findings *fl,
		    struct attr_leaf_info *info);

/*
 * One remote value block of g->blocksize bytes read from daddr, fork
 * block dablk: magic, CRC, UUID, owner == ino, blkno == daddr, and the
 * piece it says it holds (rm_offset, rm_bytes) equal to the piece this
 * block must hold of its value (offset, bytes).  Returns the number of
 * findings added; with none, the bytes are at blk + sizeof(hdr).
 */
unsigned attr_rmt_check(const struct fs_geom *g, xfs_ino_t ino,
			xfs_dablk_t dablk, xfs_daddr_t daddr,
			const uint8_t *blk, uint32_t offset, uint32_t bytes,
			struct fs_findings *fl);

/* ---- fork layer ---- */

/*
 * Buffer ops: attribute leaf blocks and remote value buffers (which may
 * be several fs blocks, each with its own header and CRC).  Their
 * verifiers are empty: the checks need the owning inode and the block's
 * place in the fork, which only the walk knows, so attr_iterate() makes
 * them with full context every time.
 */
extern const struct buf_ops attr3_leaf_buf_ops;
extern const struct buf_ops attr3_rmt_buf_ops;

/*
 * Every attribute of ip, verified on the way (findings in fl, which may
 * be NULL), in on-disk order: short-form order, or hash order for leaf
 * and node forms.  Remote values are read and assembled; an attribute
 * whose value cannot be read whole and intact is reported and skipped.
 * ael is the attribute fork's extent list from fork_extents(); NULL
 * makes attr_iterate load it (with its findings) itself.  fn may be NULL
 * (verify only).  Returns 0, fn's non-zero value, or a negative errno
 * (out of memory, I/O).
 */
int attr_iterate(struct fs *fs, const struct fs_inode *ip,
		 const struct fs_extents *ael, attr_fn fn, void *priv,
		 struct fs_findings *fl);

/*
 * The value of attribute (ns, name) of ip, in a malloc'd buffer the
 * caller frees (NULL for an empty value).  Returns 0, -ENODATA if there
 * is no such attribute, -EUCLEAN if it exists but its value cannot be
 * read intact, or another negative errno.  Findings met on the way go
 * to fl (may be NULL).
 */
int attr_get(struct fs *fs, const struct fs_inode *ip,
	     const struct fs_extents *ael, unsigned ns, const uint8_t *name,
	     unsigned namelen, uint8_t **valuep, uint32_t *vlenp,
	     struct fs_findings *fl);

#endif
