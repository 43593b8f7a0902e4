/*
 * Private helpers shared by the dir2_*.c files: finding objects, the
 * identity check of a v3 directory block header, and name rules.
 */
#ifndef XK_DIR2_PRIV_H
#define XK_DIR2_PRIV_H

#include "dir.h"

/* A finding about the block b, at byte off inside it (-1: the block). */
static inline struct fs_objref dir_blk_obj(const struct dir_blk *b, int64_t off)
{
	struct fs_objref o = OBJREF_INIT(OBJ_DIR);

	o.ino = b->ino;
	o.daddr = b->daddr;
	o.index = ((uint64_t)b->dablk << b->g->blocklog) +
		  (off > 0 ? (uint64_t)off : 0);
	return o;
}

/*
 * Identity of a block starting with xfs_dir3_blk_hdr (block, data and
 * free blocks): magic (returns false and reports DIR_BAD_MAGIC if it is
 * not want), then CRC, blkno, UUID, owner (skipped when b->ino is
 * NULLFSINO).  *nerr counts the findings added.
 */
bool dir3_hdr_check(const struct dir_blk *b, uint32_t want,
		    struct fs_findings *fl, unsigned *nerr);

/* The same for blocks starting with xfs_da3_blkinfo (LEAF1, LEAFN). */
bool dir3_dahdr_check(const struct dir_blk *b, uint16_t want,
		      struct fs_findings *fl, unsigned *nerr);

/*
 * The entries and free regions of a data or block-form block after its
 * header, the half of dir3_data_check that does not look at the header
 * (so it also reads a block whose header is damaged): info is filled
 * from zero, with magic_ok false.
 */
int dir3_data_scan(const struct dir_blk *b, bool block_form, dir_dent_fn fn,
		   void *priv, struct fs_findings *fl,
		   struct dir_data_info *info);

/* Name rules: non-empty, no '/', no NUL.  Reports and returns false. */
bool dir_name_ok(const uint8_t *name, unsigned len, const struct fs_objref *o,
		 struct fs_findings *fl, unsigned *nerr);

static inline bool dir_is_dot(const uint8_t *name, unsigned len)
{
	return len == 1 && name[0] == '.';
}

static inline bool dir_is_dotdot(const uint8_t *name, unsigned len)
{
	return len == 2 && name[0] == '.' && name[1] == '.';
}

/* The first entry offset of data block 0 after "." and "..". */
static inline uint32_t dir_first_offset(const struct fs_geom *g)
{
	return sizeof(struct xfs_dir3_data_hdr) +
	       dir2_data_entsize(g->has_ftype, 1) +
	       dir2_data_entsize(g->has_ftype, 2);
}

#endif

/* ---- the fork layer's shared state (dir2.c, dir2_node.c, dir2_lookup.c) ---- */

struct u32vec {
	uint32_t	*v;
	size_t		n, cap;
};

int u32vec_push(struct u32vec *a, uint32_t x);
int u32vec_insert_sorted(struct u32vec *a, uint32_t x);

/* One data entry seen by dir_check, for the leaf and duplicate checks. */
struct dir_rec {
	uint32_t	addr;		/* dataptr: byte offset in the data space / 8 */
	xfs_dahash_t	hash;
	uint32_t	name_off;	/* into dir_ctx.names */
	uint8_t		namelen;
	uint8_t		refs;		/* leaf entries pointing here (saturating) */
};

/* What dir_check knows about one mapped data block. */
struct dir_dblk {
	uint32_t	db;
	uint16_t	best;		/* the largest free region (as stored if
					   the block could not be read whole) */
	bool		ok;		/* read and magic right: best is meaningful */
	uint32_t	scanned;	/* entries before this offset were read */
};

struct dir_ctx {
	struct fs		*fs;
	const struct fs_geom	*g;
	const struct fs_inode	*ip;
	const struct fs_extents	*el;
	struct fs_extents	own_el;
	bool			own;		/* own_el loaded here */
	struct fs_findings	*fl;
	dir_iter_fn		fn;
	dir_pos_fn		pfn;		/* instead of fn: with places */
	void			*priv;
	bool			full;		/* dir_check, not dir_iterate */
	bool			ci;
	int			ret;		/* fn's value or an errno */
	/* fully mapped directory blocks of each space, as file blocks */
	struct u32vec		data, leaf, free;
	/* data blocks only partly mapped, and unmapped ones leaves point
	   into (both sorted; reported once each) */
	struct u32vec		partial, missing;
	/* dir_check: the data blocks read, in order, and their entries */
	struct dir_dblk		*dblk;
	size_t			ndblk;
	struct dir_rec		*recs;
	size_t			nrecs, caprecs;
	uint8_t			*names;
	size_t			nnames, capnames;
	bool			leaf_incomplete;	/* some leaf unusable */
	struct u32vec		leaf_seen;	/* node form: blocks the walk reached */
};

/* A directory block at file block dablk of the directory, as struct dir_blk. */
int dir_read_blk(struct dir_ctx *c, xfs_dablk_t dablk, const struct buf_ops *ops,
		 struct fs_buf **bpp, struct dir_blk *b);
/* Leaf entries of one leaf block against the data entries seen. */
void dir_leaf_xref(struct dir_ctx *c, const struct dir_blk *b,
		   const struct dir_leaf_info *li);
/* Is data block db only partly mapped (reported by the mapping scan)? */
bool dir_db_damaged(const struct dir_ctx *c, uint32_t db);
/* The data block db as seen, or NULL if it is not mapped. */
const struct dir_dblk *dir_find_dblk(const struct dir_ctx *c, uint32_t db);
/* Node form: the dabtree and the free index (dir2_node.c). */
int dir_node_check(struct dir_ctx *c);


/* The first of n leaf entries whose hash is >= hash (n if none). */
uint32_t dir_leaf_lower_bound(const struct xfs_dir2_leaf_entry *ents,
			      uint32_t n, xfs_dahash_t hash);
