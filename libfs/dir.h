/*
 * Directories, version 3 (directories.asciidoc): reading and checking a
 * directory in each of its forms.
 *
 *   short form  entries packed in the inode's data fork (LOCAL); "." is
 *               implied and ".." is the header's parent field;
 *   block       one directory block at offset 0 (XDB3) holding entries,
 *               a leaf array and a tail;
 *   leaf        data blocks (XDD3) from offset 0 and one LEAF1 block at
 *               XFS_DIR2_LEAF_OFFSET holding the leaf entries and bests[];
 *   node        data blocks, a dabtree of node blocks over LEAFN blocks in
 *               the leaf space, and free index blocks (XDF3) from
 *               XFS_DIR2_FREE_OFFSET.
 * A directory block is g->dirblksize bytes, g->dirblkfsbs fs blocks that
 * may be discontiguous on disk.
 *
 * Two layers, as in attr.h.  The block layer (dir3_data_check,
 * dir3_block_check, dir3_leaf_check, dir3_free_check, dir2_sf_check)
 * takes a buffer and the geometry, needs no device, verifies (findings)
 * and decodes (a callback per usable entry), and never reads outside the
 * buffer whatever it holds.  The fork layer (dir_iterate, dir_check,
 * dir_lookup) reads blocks through the extent list and checks what spans
 * blocks: leaf entries against the data entries they point at, bests[]
 * against each data block's bestfree[0], the dabtree (dabtree.c),
 * duplicate names, the directory size against the blocks present, and
 * every mapped block used by its form.
 *
 * Findings are OBJ_DIR with the directory's inode number; their index is
 * the byte offset in the directory of the block or entry concerned (for
 * short form, the byte offset in the fork).
 */
#ifndef XK_DIR_H
#define XK_DIR_H

#include "bmap.h"
#include "format/dir.h"

/* One entry; non-zero stops the walk and is returned.  (= walk_dirent_fn) */
typedef int (*dir_iter_fn)(void *priv, const uint8_t *name, unsigned namelen,
			   xfs_ino_t ino, unsigned ftype);

/* The name hash of a directory (ascii-ci folds A-Z before hashing). */
xfs_dahash_t dir_hashname(bool ci, const uint8_t *name, unsigned len);
/* Do two names name the same entry (ascii-ci: ignoring ASCII case)? */
bool dir_names_match(bool ci, const uint8_t *a, unsigned alen,
		     const uint8_t *b, unsigned blen);

/* Directory address space (directories.asciidoc), in fs blocks. */
static inline xfs_dablk_t dir_leaf_dablk(const struct fs_geom *g)
{
	return (xfs_dablk_t)(XFS_DIR2_LEAF_OFFSET >> g->blocklog);
}

static inline xfs_dablk_t dir_free_dablk(const struct fs_geom *g)
{
	return (xfs_dablk_t)(XFS_DIR2_FREE_OFFSET >> g->blocklog);
}

/* Data block number -> file block, and bests a free block holds. */
static inline xfs_dablk_t dir_db_to_dablk(const struct fs_geom *g, uint32_t db)
{
	return db << g->dirblklog;
}

static inline unsigned dir3_free_maxbests(const struct fs_geom *g)
{
	return (g->dirblksize - sizeof(struct xfs_dir3_free_hdr)) /
	       sizeof(be16);
}

/* ---- block layer ---- */

/* One directory block to check: where it is and whose it is. */
struct dir_blk {
	const struct fs_geom	*g;
	bool			ci;	/* ascii-ci filesystem */
	xfs_ino_t		ino;	/* owner */
	xfs_dablk_t		dablk;	/* file block offset */
	xfs_daddr_t		daddr;	/* where it was read */
	const uint8_t		*data;	/* g->dirblksize bytes */
};

/* One entry of a data or block-form block. */
struct dir_dent {
	uint32_t	offset;		/* in the block */
	const uint8_t	*name;
	unsigned	namelen;
	xfs_ino_t	ino;
	unsigned	ftype;		/* 0 without the ftype feature */
	xfs_dahash_t	hash;		/* of the name */
	bool		usable;		/* name and inode number passed */
};

typedef int (*dir_dent_fn)(void *priv, const struct dir_blk *b,
			   const struct dir_dent *e);

/* What dir3_data_check learnt about a data (or block-form) block. */
struct dir_data_info {
	bool		magic_ok;	/* false: nothing else was looked at */
	uint16_t	best;		/* bestfree[0].length as stored */
	uint32_t	nents;		/* entries handed out */
	uint32_t	end;		/* end of the entry region (0: unknown) */
	uint32_t	scanned;	/* entries before this offset were read */
	uint16_t	true_best;	/* the largest free region, when
					   scanned == end */
	unsigned	nerr;		/* findings added */
};

/*
 * A data block (XDD3), or with block_form the data part of a block-form
 * block (XDB3, entries ending where the leaf array starts): magic, CRC,
 * blkno, UUID, owner; each entry inside the region, 8-aligned, tag ==
 * offset, name non-empty without '/' or NUL, inode number valid, ftype
 * in range; free regions well formed and never adjacent; bestfree[] the
 * three largest free regions, sorted, zero-padded.  In data block 0, "."
 * (naming the directory) comes first and ".." second; neither appears
 * anywhere else.  fn (may be NULL) gets each entry that parses, with
 * e->usable false when its name or inode number is bad (the fork layer
 * still needs it to match leaf entries).  Returns 0 or fn's non-zero
 * value.
 */
int dir3_data_check(const struct dir_blk *b, bool block_form, dir_dent_fn fn,
		    void *priv, struct fs_findings *fl,
		    struct dir_data_info *info);

/*
 * A whole block-form block: the data part as above, the tail (count and
 * stale fit the block, stale equals the null addresses) and the leaf
 * array (sorted by hash; every address points at an entry of this block
 * whose name has that hash; every entry has exactly one leaf entry).
 */
int dir3_block_check(const struct dir_blk *b, dir_dent_fn fn, void *priv,
		     struct fs_findings *fl, struct dir_data_info *info);

/* What dir3_leaf_check learnt about a LEAF1 or LEAFN block. */
struct dir_leaf_info {
	bool		magic_ok;
	uint16_t	magic;
	uint32_t	forw, back;
	uint32_t	count;		/* usable entries (clamped to the block) */
	uint32_t	stale;
	const struct xfs_dir2_leaf_entry *ents;	/* into the block */
	/* LEAF1 only: bests[] and its count (clamped) */
	uint32_t	bestcount;
	const be16	*bests;
	xfs_dahash_t	first, last;	/* lowest and highest hash, if count */
	unsigned	nerr;
};

/*
 * A LEAF1 (magic XFS_DIR3_LEAF1_MAGIC) or LEAFN block: magic as asked,
 * CRC, blkno, UUID, owner; count (and for LEAF1 bestcount) fit the block,
 * stale equals the null addresses, hashes sorted; a LEAF1 block has no
 * siblings.  Which entries the addresses reach is the fork layer's.
 */
unsigned dir3_leaf_check(const struct dir_blk *b, uint16_t magic,
			 struct fs_findings *fl, struct dir_leaf_info *info);

/* What dir3_free_check learnt about a free index block. */
struct dir_free_info {
	bool		magic_ok;
	uint32_t	firstdb;
	uint32_t	nvalid;		/* clamped to the block */
	uint32_t	nused;
	const be16	*bests;
	unsigned	nerr;
};

/*
 * A free index block (XDF3) at its place in the free space: magic, CRC,
 * blkno, UUID, owner; firstdb is the first data block this block covers
 * (its index in the free space times the bests per block), nvalid at most
 * that many, nused equal to the bests[] that are not null.
 */
unsigned dir3_free_check(const struct dir_blk *b, struct fs_findings *fl,
			 struct dir_free_info *info);

/*
 * A short-form data fork of forksize bytes of directory ino whose inode
 * says its size is di_size: count and i8count agree with the entries,
 * each entry lies inside the size, names non-empty without '/' or NUL,
 * inode numbers (and the parent) valid, ftype in range, offsets
 * increasing and leaving room for the entries they stand for, no name
 * twice, the size equal to the bytes used and inside the fork.  fn (may be NULL) gets
 * ".", "..", then each usable entry.  Returns 0 or fn's non-zero value;
 * *nerr (may be NULL) gets the number of findings added.
 */
int dir2_sf_check(const struct fs_geom *g, bool ci, xfs_ino_t ino,
		  const uint8_t *fork, uint32_t forksize, uint64_t di_size,
		  dir_iter_fn fn, void *priv, struct fs_findings *fl,
		  unsigned *nerr);

/* The parent inode number of a short-form fork (NULLFSINO if too short). */
xfs_ino_t dir2_sf_parent(const uint8_t *fork, uint32_t forksize);

/*
 * Buffer ops of the block types: the checks that need no context (magic,
 * CRC, blkno, UUID) and the CRC set before a write.  The fork layer
 * checks every block with full context itself.
 */
extern const struct buf_ops dir3_block_buf_ops, dir3_data_buf_ops,
	dir3_leaf1_buf_ops, dir3_leafn_buf_ops, dir3_free_buf_ops;

/* ---- fork layer ---- */

/*
 * The form of an extents/btree directory, as the kernel decides it from
 * the last mapped block (mappings past the three spaces do not count):
 * ending within the first directory block is block form, within the
 * first leaf block leaf form, anything further node form.
 */
enum dir_form {
	DIR_FORM_NONE,		/* nothing mapped */
	DIR_FORM_BLOCK,
	DIR_FORM_LEAF,
	DIR_FORM_NODE,
};

enum dir_form dir_form_of(const struct fs_geom *g, const struct fs_extents *el);

/*
 * Every entry of directory ip, "." and ".." included (synthesised for
 * short form), in on-disk order (the order readdir gives).  Each data
 * block is checked on its own on the way; findings go to fl (may be
 * NULL).  el is the data fork's extents from fork_extents(); NULL makes
 * dir_iterate load them itself.  Returns 0, fn's non-zero value, or a
 * negative errno.
 */
int dir_iterate(struct fs *fs, const struct fs_inode *ip,
		const struct fs_extents *el, dir_iter_fn fn, void *priv,
		struct fs_findings *fl);

/*
 * The same, each entry with where it is: the file block of its directory
 * block (dablk) and its byte offset in that block.  Short-form entries
 * have neither (0, 0).
 */
typedef int (*dir_pos_fn)(void *priv, const uint8_t *name, unsigned namelen,
			  xfs_ino_t ino, unsigned ftype, xfs_dablk_t dablk,
			  uint32_t offset);
int dir_iterate_pos(struct fs *fs, const struct fs_inode *ip,
		    const struct fs_extents *el, dir_pos_fn fn, void *priv,
		    struct fs_findings *fl);

/*
 * Everything: each block of the form as above, every leaf entry against
 * the entry it points at, every entry indexed exactly once, bests[]
 * against each data block's bestfree[0], the dabtree, the free index,
 * duplicate names, the size against the blocks, and no block the form
 * does not use.  fn (may be NULL) gets the entries as dir_iterate would.
 * Returns 0, fn's non-zero value, or a negative errno.
 */
int dir_check(struct fs *fs, const struct fs_inode *ip,
	      const struct fs_extents *el, dir_iter_fn fn, void *priv,
	      struct fs_findings *fl);
/* The same, each entry with where it is (as dir_iterate_pos gives it). */
int dir_check_pos(struct fs *fs, const struct fs_inode *ip,
		  const struct fs_extents *el, dir_pos_fn fn, void *priv,
		  struct fs_findings *fl);

/* What dir_salvage_block learnt about the block. */
struct dir_salvage_info {
	bool		crc_ok;		/* the v3 header's CRC matches */
	bool		whole;		/* every item parsed to the region's end */
	uint32_t	nents;		/* entries handed to fn */
};

/*
 * The entries of the data block (block_form: the block-form block) at
 * file block dablk of directory ip, read whatever its header says -- as
 * xfs_repair reads a block whose magic number is wrong to keep what it
 * names.  All or nothing: unless every entry and free region parses to
 * the end of the entry region, no entry is handed out.  fn gets each
 * entry whose name and inode number are usable ("." and ".." included).
 * No findings.  Returns 0, fn's non-zero value, -ENODATA if the block is
 * not mapped, or another negative errno.
 */
int dir_salvage_block(struct fs *fs, const struct fs_inode *ip,
		      const struct fs_extents *el, xfs_dablk_t dablk,
		      bool block_form, dir_iter_fn fn, void *priv,
		      struct dir_salvage_info *info);

/*
 * Find name in directory ip by its hash.  Returns 0 and *ino, -ENOENT, or another negative errno (-EUCLEAN when the
 * blocks on the way are too damaged to answer).  Findings met on the way
 * go to fl (may be NULL).
 */
int dir_lookup(struct fs *fs, const struct fs_inode *ip,
	       const struct fs_extents *el, const uint8_t *name, unsigned len,
	       xfs_ino_t *ino, struct fs_findings *fl);

#endif
