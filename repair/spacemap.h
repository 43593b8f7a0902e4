/*
 * The space map: what owns every block, as observed.
 *
 * Each AG keeps an array of reverse-mapping records -- (agbno, length,
 * owner, offset) in the rmapbt's own terms: the owner is an inode number
 * or one of the XFS_RMAP_OWN_* metadata owners, the offset is the file
 * offset with the XFS_RMAP_OFF_* flags (attr fork, bmbt block, unwritten)
 * in its top bits.  Free extents as the bnobt lists them are kept in the
 * same array with owner SM_OWN_FREE, so one sweep sees every claim on a
 * block.
 *
 * Phases 2 and 3 add records (from any thread: each AG has its own lock);
 * sm_sort() orders an AG once the adding is over; then:
 *   - sm_overlaps() finds every pair of claims on the same blocks
 *     (phase 4), whether or not sharing is legal (the caller decides:
 *     reflinked data may be shared, nothing else);
 *   - sm_derive_rmaps(), sm_derive_free() and sm_derive_refcounts() make
 *     what the rmapbt, bnobt and refcountbt should hold, in a canonical
 *     form; sm_diff() compares the first two with what is on disk, and
 *     sm_refc_find() finds the shared extents over a range (phase 5);
 *   - sm_lookup() answers "who owns this block?".
 *
 * A record is 24 bytes; an AG's array grows by doubling.  The map holds
 * one record per extent of metadata and data, so its size follows the
 * amount of metadata, not the size of the device.
 */
#ifndef XK_REPAIR_SPACEMAP_H
#define XK_REPAIR_SPACEMAP_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include "format/btree.h"

/* A free extent (the bnobt's claim); XFS_RMAP_OWN_NULL is never stored. */
#define SM_OWN_FREE	XFS_RMAP_OWN_NULL
/*
 * Blocks an inode's fork walk claimed before the inode was cleared: the
 * reference's block map keeps them in use, but no owner has them (they
 * are no reverse mapping, no shared extent, and no one's to conflict
 * with); they are only not free.  Below every XFS_RMAP_OWN_* value, so
 * never an on-disk owner this map would be compared with.
 */
#define SM_OWN_CLEARED	XFS_RMAP_OWN_MIN

struct sm_rec {
	uint32_t	agbno;
	uint32_t	len;
	uint64_t	owner;
	uint64_t	offset;		/* file offset | XFS_RMAP_OFF_* flags */
};

/* Does this owner name an inode (rather than metadata or free space)? */
static inline bool sm_inode_owner(uint64_t owner)
{
	return owner < XFS_RMAP_OWN_MIN;
}

static inline uint64_t sm_flags(const struct sm_rec *r)
{
	return r->offset & XFS_RMAP_OFF_FLAGS;
}

static inline uint64_t sm_fileoff(const struct sm_rec *r)
{
	return r->offset & XFS_RMAP_OFF_MASK;
}

/* A data fork extent of an inode: the only claim that may be shared. */
static inline bool sm_is_data(const struct sm_rec *r)
{
	return sm_inode_owner(r->owner) &&
	       !(r->offset & (XFS_RMAP_OFF_ATTR_FORK | XFS_RMAP_OFF_BMBT_BLOCK));
}

struct sm_ag {
	pthread_mutex_t	lock;
	struct sm_rec	*v;
	size_t		n, cap;
	uint32_t	maxlen;		/* longest record (for lookups) */
	bool		sorted;
	bool		enomem;		/* a record could not be stored */
};

struct spacemap {
	unsigned	agcount;
	struct sm_ag	*ags;
};

struct spacemap *sm_create(unsigned agcount);
void sm_destroy(struct spacemap *sm);

/* Record a claim; 0 or -ENOMEM (the AG remembers it lost a record). */
int sm_add(struct spacemap *sm, uint32_t agno, uint32_t agbno, uint32_t len,
	   uint64_t owner, uint64_t offset);
/* Record n claims on one AG at once (one lock); 0 or -ENOMEM. */
int sm_add_batch(struct spacemap *sm, uint32_t agno, const struct sm_rec *v,
		 size_t n);
/* Order an AG's records by (agbno, owner, offset, len). */
void sm_sort(struct spacemap *sm, uint32_t agno);

/* Where each AG's records end: sm_rewind() drops what was added since. */
struct sm_mark {
	size_t		n;
	uint32_t	maxlen;
	bool		sorted, enomem;
};

struct sm_mark *sm_mark(const struct spacemap *sm);	/* NULL: no memory */
void sm_rewind(struct spacemap *sm, const struct sm_mark *m);
const struct sm_rec *sm_recs(const struct spacemap *sm, uint32_t agno,
			     size_t *n);
/* Bytes held by the map. */
size_t sm_bytes(const struct spacemap *sm);

/*
 * Every pair of records of a sorted AG that claim a common block: fn gets
 * the earlier and the later record and the common range.  Pairs of the
 * same record added twice are reported too (a block claimed twice by one
 * owner is as wrong as by two).
 */
typedef void (*sm_overlap_fn)(uint32_t agno, const struct sm_rec *a,
			      const struct sm_rec *b, uint32_t start,
			      uint32_t len, void *priv);
void sm_overlaps(const struct spacemap *sm, uint32_t agno, sm_overlap_fn fn,
		 void *priv);

/* The records of a sorted AG that cover agbno (up to max); their count. */
size_t sm_lookup(const struct spacemap *sm, uint32_t agno, uint32_t agbno,
		 const struct sm_rec **out, size_t max);

/* A growable list of records (derived or read from disk). */
struct sm_list {
	struct sm_rec	*v;
	size_t		n, cap;
};

void sm_list_init(struct sm_list *l);
void sm_list_free(struct sm_list *l);
int sm_list_add(struct sm_list *l, uint32_t agbno, uint32_t len,
		uint64_t owner, uint64_t offset);
/* Of a sorted, disjoint list: its first block in [start, end), or end. */
uint64_t sm_list_first_in(const struct sm_list *l, uint64_t start,
			  uint64_t end);

/*
 * Canonical form of a set of reverse mappings: every run of blocks with
 * the same owner and flags, contiguous on disk and (for inode data and
 * attr extents) contiguous in the file, becomes one record; the result
 * is sorted by (agbno, owner, offset, len).  Two sets cover the same
 * blocks in the same way if and only if their canonical forms are equal.
 * True when the list was in canonical form already (nothing moved or
 * merged).
 */
bool sm_normalize(struct sm_list *l);

/* The canonical rmapbt contents of a sorted AG: every owned record. */
int sm_derive_rmaps(const struct spacemap *sm, uint32_t agno,
		    struct sm_list *out);
/* Free space: [0, aglen) less every owned block, as maximal extents. */
int sm_derive_free(const struct spacemap *sm, uint32_t agno, uint32_t aglen,
		   struct sm_list *out);
/* The free extents the bnobt listed (owner SM_OWN_FREE), merged. */
int sm_listed_free(const struct spacemap *sm, uint32_t agno,
		   struct sm_list *out);

/*
 * Compare two canonical lists.  fn gets (obs, disk): both set when a
 * record at the same place and owner differs, one of them NULL when a
 * record has no counterpart.
 */
typedef void (*sm_diff_fn)(const struct sm_rec *obs, const struct sm_rec *disk,
			   void *priv);
void sm_diff(const struct sm_list *obs, const struct sm_list *disk,
	     sm_diff_fn fn, void *priv);

/* Reference counts: shared data extents and CoW staging extents. */
struct sm_refc {
	uint32_t	agbno;
	uint32_t	len;
	uint32_t	refcount;
	bool		cow;		/* a CoW staging extent */
	bool		cowflag;	/* on disk with the CoW domain's bit */
};

struct sm_refc_list {
	struct sm_refc	*v;
	size_t		n, cap;
};

void sm_refc_init(struct sm_refc_list *l);
void sm_refc_free(struct sm_refc_list *l);
int sm_refc_add(struct sm_refc_list *l, uint32_t agbno, uint32_t len,
		uint32_t refcount, bool cow);
/* Sort (CoW domain after the shared one, as on disk) and merge equal runs. */
void sm_refc_normalize(struct sm_refc_list *l);
/*
 * What the refcountbt of a sorted AG should hold: every block claimed by
 * two or more data fork extents, with the number of claims, and every
 * OWN_COW extent with count 1 in the CoW domain.  Canonical form.
 * skip (if any) leaves out the data extents of the owners it names.
 */
int sm_derive_refcounts(const struct spacemap *sm, uint32_t agno,
			bool (*skip)(uint64_t owner, void *priv), void *priv,
			struct sm_refc_list *out);
/*
 * The shared-domain records of a normalized list (sm_refc_normalize; its
 * shared records disjoint, as sm_derive_refcounts() makes them) that
 * overlap [agbno, agbno + len), in block order: fn (if any) gets each
 * and stops the visit by returning non-zero.  How many were visited.
 */
typedef int (*sm_refc_visit_fn)(const struct sm_refc *rc, void *priv);
size_t sm_refc_find(const struct sm_refc_list *l, uint32_t agbno,
		    uint32_t len, sm_refc_visit_fn fn, void *priv);

#endif
