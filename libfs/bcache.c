/*
 * Buffer cache: a liburcu lock-free hash table for lookups, a clock list
 * (under one mutex) for eviction, a mutex per buffer for the first read and
 * for writes.
 *
 * Reference counting: a buffer in the table holds one reference of its
 * own.  Eviction claims a buffer by moving its count from 1 to 0 with a
 * compare-and-swap; a lookup only takes a reference from a count above 0,
 * so a buffer being evicted is never handed out.  Freed memory is
 * reclaimed after an RCU grace period, since lock-free readers may still
 * be looking at the node.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <urcu-bp.h>		/* bulletproof flavour: no thread registration */
#include <urcu/rculfhash.h>
#include "format/crc32c.h"
#include "bcache.h"

struct buf_node {
	struct cds_lfht_node	hnode;
	struct rcu_head		rcu;
	struct fs_buf		*bp;
};

struct bcache {
	struct fs_dev		*dev;
	void			*ctx;
	struct cds_lfht		*ht;
	atomic_uint_fast64_t	buckets;	/* the table's size, grown by us */
	uint64_t		max_bytes;
	uint64_t		max_entries;	/* 0: no limit on the count */
	atomic_uint_fast64_t	bytes, entries, peak_entries;
	atomic_uint_fast64_t	hits, misses, evictions, writes;
	pthread_mutex_t		lru_lock;
	struct fs_buf		*lru_head, *lru_tail;	/* clock order */
};

/*
 * Is [daddr, daddr + len) on the device?  Checked before any shift: a
 * hostile daddr of 2^55 or more would wrap to the start of the device.
 */
static bool dev_range_ok(const struct fs_dev *dev, xfs_daddr_t daddr,
			 uint64_t len)
{
	if (daddr > (dev->size >> BBSHIFT))
		return false;
	return len <= dev->size - ((uint64_t)daddr << BBSHIFT);
}

static uint64_t key_hash(xfs_daddr_t daddr, uint32_t len)
{
	uint64_t h = daddr * 0x9e3779b97f4a7c15ull ^ (uint64_t)len << 17;

	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9ull;
	return h ^ (h >> 29);
}

struct key {
	xfs_daddr_t	daddr;
	uint32_t	len;
};

static int key_match(struct cds_lfht_node *node, const void *k)
{
	const struct buf_node *bn = caa_container_of(node, struct buf_node, hnode);
	const struct key *key = k;

	return bn->bp->daddr == key->daddr && bn->bp->len == key->len;
}

int bcache_create(struct fs_dev *dev, uint64_t max_bytes, void *ctx,
		  struct bcache **bcp)
{
	struct bcache *bc = calloc(1, sizeof(*bc));

	*bcp = NULL;
	if (!bc)
		return -ENOMEM;
	/*
	 * No CDS_LFHT_AUTO_RESIZE: liburcu's resize runs in its call_rcu
	 * thread, and a shrink still walking the buckets while
	 * bcache_destroy() frees the nodes crashed at exit.  grow_table()
	 * resizes here, in the caller's thread, and never shrinks.
	 */
	bc->ht = cds_lfht_new(1024, 1024, 0, 0, NULL);
	if (!bc->ht) {
		free(bc);
		return -ENOMEM;
	}
	atomic_init(&bc->buckets, 1024);
	bc->dev = dev;
	bc->ctx = ctx;
	bc->max_bytes = max_bytes ? max_bytes : (256ull << 20);
	pthread_mutex_init(&bc->lru_lock, NULL);
	*bcp = bc;
	return 0;
}

struct fs_dev *bcache_dev(struct bcache *bc)
{
	return bc->dev;
}

static void buf_free(struct fs_buf *bp)
{
	pthread_mutex_destroy(&bp->lock);
	free(bp->segs);
	free(bp->data);
	free(bp->priv);
	free(bp);
}

static void buf_free_rcu(struct rcu_head *head)
{
	struct buf_node *bn = caa_container_of(head, struct buf_node, rcu);

	buf_free(bn->bp);
}

static void lru_unlink(struct bcache *bc, struct fs_buf *bp)
{
	if (!bp->in_lru)
		return;
	if (bp->lru_prev)
		bp->lru_prev->lru_next = bp->lru_next;
	else
		bc->lru_head = bp->lru_next;
	if (bp->lru_next)
		bp->lru_next->lru_prev = bp->lru_prev;
	else
		bc->lru_tail = bp->lru_prev;
	bp->lru_prev = bp->lru_next = NULL;
	bp->in_lru = false;
}

static void lru_append(struct bcache *bc, struct fs_buf *bp)
{
	bp->lru_prev = bc->lru_tail;
	bp->lru_next = NULL;
	if (bc->lru_tail)
		bc->lru_tail->lru_next = bp;
	else
		bc->lru_head = bp;
	bc->lru_tail = bp;
	bp->in_lru = true;
}

static void buf_prep_write(struct bcache *bc, struct fs_buf *bp)
{
	if (bp->ops && bp->ops->write_prep)
		bp->ops->write_prep(bc->ctx, bp);
	else if (bp->ops && bp->ops->crc_off != BUF_NO_CRC &&
		 bp->ops->crc_off + 4 <= bp->len)
		xfs_cksum_update(bp->data, bp->len, bp->ops->crc_off);
}

/* Caller holds bp->lock. */
static int buf_write_locked(struct bcache *bc, struct fs_buf *bp)
{
	int err = 0;

	buf_prep_write(bc, bp);
	if (bp->nsegs) {
		uint32_t off = 0;

		for (unsigned i = 0; i < bp->nsegs && !err; i++) {
			err = dev_pwrite(bc->dev, bp->data + off, bp->segs[i].len,
					 (uint64_t)bp->segs[i].daddr << BBSHIFT);
			off += bp->segs[i].len;
		}
	} else {
		err = dev_pwrite(bc->dev, bp->data, bp->len,
				 (uint64_t)bp->daddr << BBSHIFT);
	}
	if (!err) {
		atomic_fetch_and(&bp->flags, ~BUF_DIRTY);
		atomic_fetch_add(&bc->writes, 1);
	}
	return err;
}

/* Try to take a reference on a buffer found in the table. */
static bool buf_tryget(struct fs_buf *bp)
{
	int r = atomic_load(&bp->ref);

	while (r > 0)
		if (atomic_compare_exchange_weak(&bp->ref, &r, r + 1))
			return true;
	return false;
}

/* Does the cache hold more than bytes, or more than entries buffers? */
static bool over(struct bcache *bc, uint64_t bytes, uint64_t entries)
{
	return atomic_load(&bc->bytes) > bytes ||
	       atomic_load(&bc->entries) > entries;
}

/*
 * Evict unheld buffers until the cache is under 7/8 of its limits (bytes,
 * and entries when they are limited); when force is set, every unheld
 * buffer goes.  Shrinkers queue on the LRU lock rather than skip when
 * another is at work: a skipped shrink is an overshoot that nothing
 * corrects once the working set is cached.
 */
static int bcache_shrink(struct bcache *bc, bool force)
{
	uint64_t elimit = bc->max_entries ? bc->max_entries : UINT64_MAX;
	uint64_t target = force ? 0 : bc->max_bytes - bc->max_bytes / 8;
	uint64_t etarget = force ? 0 : bc->max_entries ?
			   elimit - elimit / 8 : UINT64_MAX;
	struct fs_buf *bp, *next;
	size_t budget;
	int err = 0;

	pthread_mutex_lock(&bc->lru_lock);
	if (!over(bc, force ? 0 : bc->max_bytes, force ? 0 : elimit)) {
		/* someone else shrank it while we waited */
		pthread_mutex_unlock(&bc->lru_lock);
		return 0;
	}
	/*
	 * First one clock sweep, giving recently used buffers a second
	 * chance; then, if that freed too little (other threads keep
	 * touching everything), a sweep that ignores the clock bits, so the
	 * cache always gets back under its limit when it can.
	 */
	for (int sweep = force ? 1 : 0; sweep < 2 && !err; sweep++) {
		budget = 0;
		for (bp = bc->lru_head; bp; bp = bp->lru_next)
			budget++;
		bp = bc->lru_head;
		while (bp && budget-- && over(bc, target, etarget)) {
			struct buf_node *bn = bp->priv;
			int one = 1;

			next = bp->lru_next;
			if (sweep == 0 &&
			    atomic_exchange(&bp->referenced, false)) {
				/* recently used: give it another round */
				lru_unlink(bc, bp);
				lru_append(bc, bp);
				bp = next ? next : bc->lru_head;
				continue;
			}
			if (atomic_load(&bp->ref) != 1) {
				bp = next;
				continue;
			}
			if (atomic_load(&bp->flags) & BUF_DIRTY) {
				int e;

				pthread_mutex_lock(&bp->lock);
				e = buf_write_locked(bc, bp);
				pthread_mutex_unlock(&bp->lock);
				if (e) {
					err = e;
					bp = next;
					continue;
				}
			}
			if (atomic_compare_exchange_strong(&bp->ref, &one, 0)) {
				lru_unlink(bc, bp);
				rcu_read_lock();
				cds_lfht_del(bc->ht, &bn->hnode);
				rcu_read_unlock();
				atomic_fetch_sub(&bc->bytes, bp->len);
				atomic_fetch_sub(&bc->entries, 1);
				atomic_fetch_add(&bc->evictions, 1);
				call_rcu(&bn->rcu, buf_free_rcu);
			}
			bp = next;
		}
		if (!over(bc, target, etarget))
			break;
	}
	pthread_mutex_unlock(&bc->lru_lock);
	return err;
}

/*
 * Keep chains short: when the table holds more than two buffers a bucket,
 * make it four times larger.  Only one thread resizes; the others go on
 * with the table as it is.  Called without the RCU read lock, as
 * cds_lfht_resize() requires.
 */
static void grow_table(struct bcache *bc, uint_fast64_t n)
{
	uint_fast64_t b = atomic_load(&bc->buckets);

	if (n <= 2 * b || b >= (1ull << 40))
		return;
	if (!atomic_compare_exchange_strong(&bc->buckets, &b, 4 * b))
		return;
	cds_lfht_resize(bc->ht, 4 * b);
}

/*
 * Find or create the buffer for (daddr, len).  A new buffer is not yet
 * loaded; the caller loads it under bp->lock.
 */
static int bcache_lookup(struct bcache *bc, xfs_daddr_t daddr, uint32_t len,
			 struct fs_buf **bpp)
{
	struct key k = { daddr, len };
	uint64_t h = key_hash(daddr, len);
	struct cds_lfht_iter it;
	struct cds_lfht_node *node;
	struct fs_buf *bp = NULL, *nbp;
	struct buf_node *bn;
	uint_fast64_t n, peak;

	for (;;) {
		rcu_read_lock();
		cds_lfht_lookup(bc->ht, h, key_match, &k, &it);
		node = cds_lfht_iter_get_node(&it);
		if (node) {
			bn = caa_container_of(node, struct buf_node, hnode);
			if (buf_tryget(bn->bp))
				bp = bn->bp;
		}
		rcu_read_unlock();
		if (bp) {
			atomic_store(&bp->referenced, true);
			atomic_fetch_add(&bc->hits, 1);
			*bpp = bp;
			return 0;
		}
		if (!node)
			break;
		/* found one being evicted: wait for it to leave the table */
		synchronize_rcu();
	}

	nbp = calloc(1, sizeof(*nbp));
	bn = calloc(1, sizeof(*bn));
	if (!nbp || !bn || !(nbp->data = malloc(len ? len : 1))) {
		if (nbp)
			free(nbp->data);
		free(nbp);
		free(bn);
		return -ENOMEM;
	}
	nbp->daddr = daddr;
	nbp->len = len;
	nbp->bc = bc;
	nbp->priv = bn;
	atomic_init(&nbp->ref, 2);	/* the cache's and the caller's */
	atomic_init(&nbp->flags, 0);
	atomic_init(&nbp->referenced, true);
	pthread_mutex_init(&nbp->lock, NULL);
	bn->bp = nbp;
	cds_lfht_node_init(&bn->hnode);

	for (;;) {
		rcu_read_lock();
		node = cds_lfht_add_unique(bc->ht, h, key_match, &k, &bn->hnode);
		if (node != &bn->hnode) {
			struct buf_node *other =
				caa_container_of(node, struct buf_node, hnode);

			if (buf_tryget(other->bp)) {
				rcu_read_unlock();
				buf_free(nbp);
				atomic_store(&other->bp->referenced, true);
				atomic_fetch_add(&bc->hits, 1);
				*bpp = other->bp;
				return 0;
			}
			rcu_read_unlock();
			synchronize_rcu();
			continue;
		}
		rcu_read_unlock();
		break;
	}
	pthread_mutex_lock(&bc->lru_lock);
	lru_append(bc, nbp);
	pthread_mutex_unlock(&bc->lru_lock);
	atomic_fetch_add(&bc->misses, 1);
	n = atomic_fetch_add(&bc->entries, 1) + 1;
	peak = atomic_load(&bc->peak_entries);
	while (n > peak &&
	       !atomic_compare_exchange_weak(&bc->peak_entries, &peak, n))
		;
	grow_table(bc, n);
	if (atomic_fetch_add(&bc->bytes, len) + len > bc->max_bytes ||
	    (bc->max_entries && n > bc->max_entries))
		bcache_shrink(bc, false);
	*bpp = nbp;
	return 0;
}

static void buf_verify_locked(struct fs_buf *bp, const struct buf_ops *ops,
			      struct fs_findings *fl)
{
	struct fs_findings local;

	findings_init(&local);
	bp->ops = ops;
	if (ops->verify)
		ops->verify(bp->bc->ctx, bp, &local);
	if (local.nerrors)
		atomic_fetch_or(&bp->flags, BUF_CORRUPT);
	else
		atomic_fetch_and(&bp->flags, ~BUF_CORRUPT);
	atomic_fetch_or(&bp->flags, BUF_VERIFIED);
	if (fl)
		findings_splice(fl, &local);
	findings_free(&local);
}

void buf_verify(struct fs_buf *bp, const struct buf_ops *ops,
		struct fs_findings *fl)
{
	if (!ops)
		return;
	pthread_mutex_lock(&bp->lock);
	buf_verify_locked(bp, ops, fl);
	pthread_mutex_unlock(&bp->lock);
}

static void report_read_error(struct fs_findings *fl, int err,
			      xfs_daddr_t daddr, uint32_t len, uint64_t devsize)
{
	struct fs_objref o = OBJREF_INIT(OBJ_DEV);

	o.daddr = daddr;
	fs_report_val(fl, err == -EIO ? PR_DEV_SHORT_READ : PR_DEV_IO_ERROR,
		      &o, NULL, ((uint64_t)daddr << BBSHIFT) + len, devsize);
}

int bcache_read_segs(struct bcache *bc, const struct buf_seg *segs,
		     unsigned nsegs, const struct buf_ops *ops,
		     struct fs_findings *fl, struct fs_buf **bpp)
{
	struct fs_buf *bp;
	uint64_t total = 0;
	uint32_t off = 0;
	int err = 0;

	*bpp = NULL;
	if (!nsegs)
		return -EINVAL;
	for (unsigned i = 0; i < nsegs; i++) {
		if (!dev_range_ok(bc->dev, segs[i].daddr, segs[i].len)) {
			report_read_error(fl, -EIO, segs[i].daddr, segs[i].len,
					  bc->dev->size);
			return -EIO;
		}
		total += segs[i].len;
	}
	if (total > (1u << 30))
		return -EFBIG;
	bp = calloc(1, sizeof(*bp));
	if (!bp)
		return -ENOMEM;
	bp->data = malloc(total ? total : 1);
	bp->segs = malloc(nsegs * sizeof(*segs));
	if (!bp->data || !bp->segs) {
		free(bp->data);
		free(bp->segs);
		free(bp);
		return -ENOMEM;
	}
	memcpy(bp->segs, segs, nsegs * sizeof(*segs));
	bp->nsegs = nsegs;
	bp->daddr = segs[0].daddr;
	bp->len = (uint32_t)total;
	bp->bc = bc;
	atomic_init(&bp->ref, 1);	/* the caller's only */
	atomic_init(&bp->flags, 0);
	pthread_mutex_init(&bp->lock, NULL);
	for (unsigned i = 0; i < nsegs && !err; i++) {
		err = dev_pread(bc->dev, bp->data + off, segs[i].len,
				(uint64_t)segs[i].daddr << BBSHIFT);
		if (err)
			report_read_error(fl, err, segs[i].daddr, segs[i].len,
					  bc->dev->size);
		off += segs[i].len;
	}
	if (err) {
		buf_free(bp);
		return err;
	}
	atomic_fetch_or(&bp->flags, BUF_LOADED);
	if (ops)
		buf_verify_locked(bp, ops, fl);
	*bpp = bp;
	return 0;
}

int bcache_read(struct bcache *bc, xfs_daddr_t daddr, uint32_t len,
		const struct buf_ops *ops, struct fs_findings *fl,
		struct fs_buf **bpp)
{
	struct fs_buf *bp;
	int err;

	*bpp = NULL;
	if (!dev_range_ok(bc->dev, daddr, len)) {
		report_read_error(fl, -EIO, daddr, len, bc->dev->size);
		return -EIO;
	}
	err = bcache_lookup(bc, daddr, len, &bp);
	if (err)
		return err;
	pthread_mutex_lock(&bp->lock);
	if (!(bp->flags & BUF_LOADED)) {
		err = dev_pread(bc->dev, bp->data, len, (uint64_t)daddr << BBSHIFT);
		if (err) {
			report_read_error(fl, err, daddr, len, bc->dev->size);
			pthread_mutex_unlock(&bp->lock);
			buf_release(bp);
			return err;
		}
		atomic_fetch_or(&bp->flags, BUF_LOADED);
	}
	if (ops && (!(bp->flags & BUF_VERIFIED) || bp->ops != ops))
		buf_verify_locked(bp, ops, fl);
	pthread_mutex_unlock(&bp->lock);
	*bpp = bp;
	return 0;
}

int bcache_get(struct bcache *bc, xfs_daddr_t daddr, uint32_t len,
	       const struct buf_ops *ops, struct fs_buf **bpp)
{
	struct fs_buf *bp;
	int err;

	*bpp = NULL;
	if (!dev_range_ok(bc->dev, daddr, len))
		return -ENOSPC;
	err = bcache_lookup(bc, daddr, len, &bp);
	if (err)
		return err;
	pthread_mutex_lock(&bp->lock);
	if (!(bp->flags & BUF_LOADED)) {
		memset(bp->data, 0, len);
		atomic_fetch_or(&bp->flags, BUF_LOADED);
	}
	if (ops)
		bp->ops = ops;
	pthread_mutex_unlock(&bp->lock);
	*bpp = bp;
	return 0;
}

void buf_hold(struct fs_buf *bp)
{
	atomic_fetch_add(&bp->ref, 1);
}

void buf_release(struct fs_buf *bp)
{
	if (!bp)
		return;
	/*
	 * The table's own reference keeps a cached buffer above zero; only
	 * uncached (assembled) buffers end here, and are not on the flush
	 * list, so a dirty one is written as it goes.
	 */
	if (atomic_fetch_sub(&bp->ref, 1) == 1) {
		if (atomic_load(&bp->flags) & BUF_DIRTY)
			buf_write_locked(bp->bc, bp);
		buf_free(bp);
	}
}

int buf_mark_dirty(struct fs_buf *bp)
{
	if (bp->bc->dev->readonly)
		return -EROFS;
	atomic_fetch_or(&bp->flags, BUF_DIRTY);
	return 0;
}

int buf_write(struct fs_buf *bp)
{
	int err;

	if (bp->bc->dev->readonly)
		return -EROFS;
	pthread_mutex_lock(&bp->lock);
	err = buf_write_locked(bp->bc, bp);
	pthread_mutex_unlock(&bp->lock);
	return err;
}

static int cmp_daddr(const void *a, const void *b)
{
	const struct fs_buf *x = *(struct fs_buf *const *)a;
	const struct fs_buf *y = *(struct fs_buf *const *)b;

	return x->daddr < y->daddr ? -1 : x->daddr > y->daddr;
}

int bcache_flush(struct bcache *bc)
{
	struct fs_buf **dirty = NULL, *bp;
	size_t n = 0, cap = 0;
	int err = 0;

	pthread_mutex_lock(&bc->lru_lock);
	for (bp = bc->lru_head; bp; bp = bp->lru_next) {
		if (!(atomic_load(&bp->flags) & BUF_DIRTY))
			continue;
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 256;
			struct fs_buf **nd = realloc(dirty, ncap * sizeof(*nd));

			if (!nd) {
				err = -ENOMEM;
				break;
			}
			dirty = nd;
			cap = ncap;
		}
		buf_hold(bp);
		dirty[n++] = bp;
	}
	pthread_mutex_unlock(&bc->lru_lock);
	if (n)
		qsort(dirty, n, sizeof(*dirty), cmp_daddr);
	for (size_t i = 0; i < n; i++) {
		bp = dirty[i];
		pthread_mutex_lock(&bp->lock);
		if (atomic_load(&bp->flags) & BUF_DIRTY) {
			int e = buf_write_locked(bc, bp);

			if (e && !err)
				err = e;
		}
		pthread_mutex_unlock(&bp->lock);
		buf_release(bp);
	}
	free(dirty);
	if (!err && n)
		err = dev_sync(bc->dev);
	return err;
}

int bcache_purge(struct bcache *bc)
{
	return bcache_shrink(bc, true);
}

void bcache_set_max_entries(struct bcache *bc, uint64_t n)
{
	bc->max_entries = n;
	if (n && atomic_load(&bc->entries) > n)
		bcache_shrink(bc, false);
}

void bcache_get_stats(struct bcache *bc, struct bcache_stats *st)
{
	st->hits = atomic_load(&bc->hits);
	st->misses = atomic_load(&bc->misses);
	st->evictions = atomic_load(&bc->evictions);
	st->writes = atomic_load(&bc->writes);
	st->bytes = atomic_load(&bc->bytes);
	st->entries = atomic_load(&bc->entries);
	st->peak_entries = atomic_load(&bc->peak_entries);
	st->max_entries = bc->max_entries;
	st->max_bytes = bc->max_bytes;
	st->buckets = atomic_load(&bc->buckets);
	st->idle = st->idle_dirty = 0;
	pthread_mutex_lock(&bc->lru_lock);
	for (struct fs_buf *bp = bc->lru_head; bp; bp = bp->lru_next) {
		if (atomic_load(&bp->ref) != 1)
			continue;
		st->idle++;
		if (atomic_load(&bp->flags) & BUF_DIRTY)
			st->idle_dirty++;
	}
	pthread_mutex_unlock(&bc->lru_lock);
}

void bcache_destroy(struct bcache *bc)
{
	struct fs_buf *bp, *next;

	if (!bc)
		return;
	/* let pending call_rcu frees of evicted buffers finish */
	rcu_barrier();
	/*
	 * Empty the table before destroying it (cds_lfht_destroy refuses a
	 * table with nodes), and free the buffers only after it is gone, so
	 * nothing in liburcu can still be looking at a freed node.
	 */
	rcu_read_lock();
	for (bp = bc->lru_head; bp; bp = bp->lru_next) {
		struct buf_node *bn = bp->priv;

		cds_lfht_del(bc->ht, &bn->hnode);
	}
	rcu_read_unlock();
	cds_lfht_destroy(bc->ht, NULL);
	for (bp = bc->lru_head; bp; bp = next) {
		next = bp->lru_next;
		buf_free(bp);
	}
	pthread_mutex_destroy(&bc->lru_lock);
	free(bc);
}
