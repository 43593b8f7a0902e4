/*
 * The metadata buffer cache.
 *
 * Buffers are keyed by (disk address, length).  Reading a buffer reads it
 * from the device once and runs its type's verifier once; the verifier's
 * findings go to the caller that caused the read, and the buffer keeps a
 * "corrupt" flag that later readers see.  A corrupt buffer is still
 * returned, because checkers and repair need to look at damaged metadata.
 *
 * Lookups are lock-free (a liburcu hash table), so threads working on
 * different AGs share one cache.  The cache holds a reference to every
 * buffer in it; when its size passes the limit, buffers nobody else holds
 * are evicted (dirty ones written back first) in clock order.
 *
 * A cache over a read-only device refuses to dirty a buffer.
 */
#ifndef XK_BCACHE_H
#define XK_BCACHE_H

#include <stdatomic.h>
#include <pthread.h>
#include "device.h"
#include "findings.h"

struct fs_buf;
struct bcache;

#define BUF_NO_CRC	((size_t)-1)

/*
 * One per buffer type: its name, how to verify what it says about itself,
 * and where its CRC lives.  verify() gets the cache's context pointer
 * (the struct fs that owns the cache).
 */
struct buf_ops {
	const char	*name;
	void		(*verify)(void *ctx, struct fs_buf *bp,
				  struct fs_findings *fl);
	/* Before a write: set CRCs.  NULL: one CRC at crc_off over the buffer. */
	void		(*write_prep)(void *ctx, struct fs_buf *bp);
	size_t		crc_off;
};

#define BUF_LOADED	(1u << 0)	/* data is valid (read or new) */
#define BUF_VERIFIED	(1u << 1)	/* ops->verify has run */
#define BUF_CORRUPT	(1u << 2)	/* the verifier found errors */
#define BUF_DIRTY	(1u << 3)
#define BUF_EIO		(1u << 4)

/* One piece of a buffer assembled from discontiguous disk ranges. */
struct buf_seg {
	xfs_daddr_t		daddr;
	uint32_t		len;		/* bytes */
};

struct fs_buf {
	xfs_daddr_t		daddr;		/* of the first piece */
	uint32_t		len;		/* bytes, all pieces */
	uint8_t			*data;
	/* discontiguous (uncached) buffers: the pieces, in order */
	struct buf_seg		*segs;
	unsigned		nsegs;
	const struct buf_ops	*ops;
	_Atomic unsigned	flags;
	/* private to bcache.c */
	atomic_int		ref;
	atomic_bool		referenced;	/* clock bit */
	pthread_mutex_t		lock;
	struct bcache		*bc;
	struct fs_buf		*lru_prev, *lru_next;
	bool			in_lru;
	void			*priv;		/* hash node and rcu head */
};

struct bcache_stats {
	uint64_t	hits, misses, evictions, writes;
	uint64_t	bytes;		/* currently cached */
	uint64_t	entries;	/* buffers currently cached */
	uint64_t	peak_entries;	/* the most there have been */
	uint64_t	max_entries;	/* the limit on entries; 0: none */
	uint64_t	max_bytes;	/* the limit on bytes */
	/* of the cached buffers, those only the cache holds (evictable) */
	uint64_t	idle, idle_dirty;
	uint64_t	buckets;	/* the hash table's size */
};

int bcache_create(struct fs_dev *dev, uint64_t max_bytes, void *ctx,
		  struct bcache **bcp);
/*
 * Limit the number of cached buffers as well as their bytes (0: no
 * limit).  Like the byte limit, it is soft: buffers somebody holds are
 * never evicted, so the count can pass it while they are held.
 */
void bcache_set_max_entries(struct bcache *bc, uint64_t n);
/* Frees every buffer; dirty ones are lost (call bcache_flush first). */
void bcache_destroy(struct bcache *bc);
struct fs_dev *bcache_dev(struct bcache *bc);

/*
 * Read and verify a buffer.  Returns 0 and a held buffer (check
 * BUF_CORRUPT), or a negative errno (I/O error, past the device end) with
 * a DEV_* finding added.  ops may be NULL for untyped data.
 */
int bcache_read(struct bcache *bc, xfs_daddr_t daddr, uint32_t len,
		const struct buf_ops *ops, struct fs_findings *fl,
		struct fs_buf **bpp);
/* A buffer to write: cached contents if present, else zeroes. */
int bcache_get(struct bcache *bc, xfs_daddr_t daddr, uint32_t len,
	       const struct buf_ops *ops, struct fs_buf **bpp);
/*
 * An uncached buffer of the given pieces (a directory block spread over
 * several extents, say): read from disk, then verified with ops.  It is
 * freed by its last buf_release(); writing it writes every piece.
 */
int bcache_read_segs(struct bcache *bc, const struct buf_seg *segs,
		     unsigned nsegs, const struct buf_ops *ops,
		     struct fs_findings *fl, struct fs_buf **bpp);
/* Run a buffer's verifier again (after changing it, or with other ops). */
void buf_verify(struct fs_buf *bp, const struct buf_ops *ops,
		struct fs_findings *fl);
void buf_hold(struct fs_buf *bp);
void buf_release(struct fs_buf *bp);
/* Mark modified; -EROFS on a read-only device. */
int buf_mark_dirty(struct fs_buf *bp);
/* Write one buffer now (CRC set via its ops). */
int buf_write(struct fs_buf *bp);
/* Write every dirty buffer, in disk order, then sync the device. */
int bcache_flush(struct bcache *bc);
/* Drop every buffer nobody holds (dirty ones are written first). */
int bcache_purge(struct bcache *bc);
void bcache_get_stats(struct bcache *bc, struct bcache_stats *st);

static inline bool buf_corrupt(const struct fs_buf *bp)
{
	return (bp->flags & BUF_CORRUPT) != 0;
}

#endif
