/*
 * The inode map: what phase 3 learnt about every inode, for phases 6
 * and 7.
 *
 * Per AG, one record per inode chunk the inobt lists (in startino
 * order), with 64-bit masks of its inodes -- absent (sparse holes), free
 * by the inobt, in use on disk, directories, reached from the root -- and per inode its on-disk link count, the
 * links counted in the namespace and its file type.  About 10 bytes an
 * inode.  Directory entries are kept as (child, type), 16 bytes each, a
 * directory's together, and per directory its ".." and where its entries
 * are, for the namespace walk.
 *
 * Phase 3 fills it from one thread per AG (a chunk record belongs to its
 * AG's thread; a directory's entries are appended at once under a lock);
 * phases 6 and 7 read it from one thread.
 */
#ifndef XK_REPAIR_INOMAP_H
#define XK_REPAIR_INOMAP_H

#include <pthread.h>
#include "geom.h"

struct im_chunk {
	xfs_agino_t	startino;
	uint64_t	holes;		/* absent (sparse) */
	uint64_t	ifree;		/* free by the inobt (holes too) */
	uint64_t	used;		/* in use on disk and kept */
	uint64_t	isdir;
	uint64_t	reached;	/* reached from the root (phase 6) */
	uint64_t	cleared;	/* too damaged: would be cleared */
	uint64_t	late;		/* cleared by the reference only on its
					   second look, in phase 4 */
	uint64_t	revived;	/* the reverse: cleared by its phase 3,
					   kept on its second look (phase 4
					   finds it free, and in use after) */
	uint64_t	reflink;	/* has the reflink flag */
	uint64_t	uncounted;	/* its data fork maps a block in use
					   and it is no regular file (phase
					   4): the reference clears it, and
					   counts none of its blocks */
	uint64_t	rebuild;	/* directory the reference would rebuild */
	uint64_t	suspect;	/* fork claims others' blocks (phase 4) */
	uint64_t	unreadable;	/* kept, but the kernel's inode verifier
					   refuses it: phases 6 and 7 of the
					   reference cannot read it */
	uint64_t	btree_refused;	/* unreadable, because the kernel
					   refuses a fork's btree root (the
					   reference says so first) */
	uint64_t	ext_refused;	/* a directory whose bmbt holds
					   other than its extent counter
					   says: the kernel cannot read its
					   blocks (phase 6) */
	uint64_t	ext_short;	/* ... more than it says */
	uint64_t	said;		/* reported once (atomic OR) */
	uint64_t	v0core;		/* version 0: nlink is di_onlink, as
					   the reference's phase 3 takes it;
					   its library reads di_nlink */
	uint32_t	nlink[64];	/* on disk */
	uint32_t	counted[64];	/* links found (phase 6) */
	uint8_t		ftype[64];	/* XFS_DIR3_FT_* of the mode */
};

struct im_ag {
	struct im_chunk	*v;
	size_t		n, cap;
};

/* A directory entry: the inode it names and the type it says. */
struct im_edge {
	xfs_ino_t	child;
	uint8_t		ftype;		/* as the entry says (0: unknown) */
	uint8_t		flags;		/* IM_EDGE_* */
	uint32_t	sfoff;		/* a short-form duplicate: where it
					   is in the fork (else 0) */
};

/*
 * The entry's name is an earlier entry's: phase 6 junks it.  (In short
 * form, libfs hands out no such entry: phase 3 adds its edge last.)
 */
#define IM_EDGE_DUP	0x01

struct im_edges {
	struct im_edge	*v;
	size_t		n, cap;
};

/*
 * A directory: its ".." and where its entries are in the edge array, and
 * the file types its "." and ".." entries say (a directory of blocks
 * stores one in each; a short-form one stores neither).
 */
#define IM_FT_NONE	0xff	/* no such entry, or it has no file type */

struct im_dir {
	xfs_ino_t	dir;
	xfs_ino_t	dotdot;		/* NULLFSINO: none was read */
	size_t		first;		/* index in inomap.edges */
	size_t		n;
	uint8_t		dot_ftype;	/* IM_FT_NONE or XFS_DIR3_FT_* (0
					   without the ftype feature) */
	uint8_t		dotdot_ftype;	/* the same: IM_FT_NONE for none */
	uint32_t	dotdot_pos;	/* entries that come before ".." */
	bool		sf_reset;	/* short form, its parent to be set
					   (it named the directory itself) */
	xfs_ino_t	sf_badino;	/* short form, refused by the kernel's
					   verifier at this inode number (it
					   says "Invalid inode number"), or
					   NULLFSINO */
	uint8_t		hashck;		/* IM_HASH_*: the reference's phase 6
					   match of its leaf with its data */
	/*
	 * A first data block phase 3 could not use (the verifier refused
	 * it) and phases 4 and 6 read again whole: the ".." entry they
	 * find in it, whatever it names (NULLFSINO: none), its file type
	 * and offset.  The parent stays what phase 3 found (none, or
	 * unknown for a directory phase 4 keeps after all); the entry is
	 * only looked at.
	 */
	xfs_ino_t	late_dotdot;
	uint8_t		late_dotdot_ftype;
	uint32_t	late_dotdot_off;
	bool		late_read;	/* such a block was read */
	/* its "." when that names no inode number a directory may hold
	   (phase 3 kept no entry of it), else NULLFSINO */
	xfs_ino_t	late_dotent;
	bool		late_dot;	/* whose first entry names the
					   directory (a "." to phase 6) */
	uint8_t		late_dot_ftype;	/* and that entry's file type */
	bool		sf;		/* short form */
	bool		marked;		/* an entry's name starts with '/'
					   (rp_entry_marked): phase 4 says
					   it would clear it */
};

/*
 * What the reference's phase 6 finds matching a block or leaf
 * directory's leaf entries with its data entries (the first leaf entry
 * that fails, in leaf order; then the stale count; then a data entry no
 * leaf entry names).  Its words name the failure.
 */
enum {
	IM_HASH_OK,
	IM_HASH_DUPLEAF,	/* "duplicate leaf" */
	IM_HASH_BADHASH,	/* "hash value mismatch" */
	IM_HASH_NODATA,		/* "no data entry" */
	IM_HASH_NOLEAF,		/* "no leaf entry" */
	IM_HASH_BADSTALE,	/* "bad stale count" */
};

/*
 * A directory data block the reference reads again after phase 3: one
 * its phase 3 could not use because the verifier refused it (phase 4
 * reads it from its cache, unverified), or one whose entries do not
 * parse to the end (its phase 6 junks it).
 */
struct im_dblk {
	xfs_ino_t	dir;
	xfs_dablk_t	dablk;
	uint8_t		flags;		/* IM_DBLK_* */
	uint8_t		hdr;		/* IM_DBLK_HDR_*: the first header
					   field phase 6 finds wrong */
	uint32_t	magic;		/* IM_DBLK_MAGIC: the one it has */
	uint64_t	found;		/* the owner or blkno it has */
	xfs_daddr_t	daddr;		/* where the block starts */
};

/*
 * A data block whose v3 header names another owner, another block or
 * another filesystem: phase 6 of the reference says so and reads none of
 * its entries.
 */
enum {
	IM_DBLK_HDR_OK,
	IM_DBLK_HDR_OWNER,
	IM_DBLK_HDR_BLKNO,
	IM_DBLK_HDR_UUID,
};

#define IM_DBLK_REREAD	0x01	/* the verifier refused it (CRC right):
				   phase 4 reads it whole */
#define IM_DBLK_JUNK	0x02	/* its entries do not parse to the end */
#define IM_DBLK_BADBEST	0x04	/* its bestfree table is wrong, by the
				   reference's rule */
#define IM_DBLK_BLOCK	0x08	/* a block-form directory's block */
#define IM_DBLK_MAGIC	0x10	/* a wrong magic number: phase 6 would
				   fix it */

struct inomap {
	const struct fs_geom	*g;
	unsigned		agcount;
	struct im_ag		*ags;
	pthread_mutex_t		lock;	/* for edges and dirs */
	struct im_edges		edges;	/* every entry, a directory's together */
	struct im_dir		*dirs;
	size_t			ndirs, capdirs;
	bool			dirs_sorted;
	struct im_dblk		*dblks;	/* sorted with dirs */
	size_t			ndblks, capdblks;
};

struct inomap *im_create(const struct fs_geom *g);
void im_destroy(struct inomap *im);
size_t im_bytes(const struct inomap *im);

/* Add a chunk to an AG (only that AG's thread may call). */
struct im_chunk *im_add_chunk(struct inomap *im, xfs_agnumber_t agno,
			      xfs_agino_t startino, uint64_t holes,
			      uint64_t ifree);
/* Sort an AG's chunks by startino (after damaged inobts). */
void im_sort(struct inomap *im, xfs_agnumber_t agno);
/* The chunk holding ino and the inode's bit in it, or NULL. */
struct im_chunk *im_find(const struct inomap *im, xfs_ino_t ino,
			 unsigned *bit);

/* One entry, into a thread's own list (for im_dir_add). */
int im_edges_add(struct im_edges *e, xfs_ino_t child, uint8_t ftype);
void im_edges_free(struct im_edges *e);
/*
 * A directory's entries (in the order its blocks give them, which is the
 * order dir_iterate gives) and what hdr says of it (all but first and n),
 * appended under the lock; local is emptied.  Each directory is added
 * once.
 */
int im_dir_add(struct inomap *im, const struct im_dir *hdr,
	       struct im_edges *local);

/*
 * Whether a directory's ".." is an entry of its first block (one that
 * names an inode not in use is junked like any other) rather than the
 * parent in a short-form header.
 */
static inline bool dotdot_in_block(const struct im_dir *d)
{
	return d->dotdot_ftype != IM_FT_NONE && d->dotdot != NULLFSINO &&
	       d->dotdot != 0;
}
/* Sort the directories (and dblks) by inode number (once all added). */
void im_dirs_sort(struct inomap *im);
/* Add a block read again (under the lock). */
int im_dblk_add(struct inomap *im, const struct im_dblk *b);
/* The index of the first dblk of dir or after it (after im_dirs_sort). */
size_t im_dblk_first(const struct inomap *im, xfs_ino_t dir);
/* A directory's record, or NULL (after im_dirs_sort). */
const struct im_dir *im_dir_find(const struct inomap *im, xfs_ino_t dir);

#endif
