/*
 * The device layer and the buffer cache: a read-only device cannot be
 * written through any path; reads past the end fail with a finding;
 * cached reads see the device's bytes; verifiers run once per buffer and
 * flag corruption; dirty buffers reach the disk on flush with their CRC
 * set; discontiguous buffers assemble their pieces; many threads
 * reading and evicting through a small cache all see correct, verified
 * data, each buffer verified exactly once per read from the disk however
 * many threads race to read it; and a limit on the number of buffers
 * holds like the limit on bytes; the hash table grows with the buffers,
 * and destroying a cache just emptied of thousands of them is safe.
 */
#include "config.h"
#include "unit.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bcache.h"
#include "format/crc32c.h"

#define NBLK	256
#define BLK	4096

static char path[64];

/* An image whose block i starts with the 32-bit value i. */
static void make_image(void)
{
	uint8_t buf[BLK];
	int fd;

	strcpy(path, "/tmp/test_bcache.XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	for (uint32_t i = 0; i < NBLK; i++) {
		memset(buf, (int)(i & 0xff), sizeof(buf));
		store_be32(buf, i);
		ck_assert_int_eq(pwrite(fd, buf, BLK, (off_t)i * BLK), BLK);
	}
	close(fd);
}

static int verify_calls;

/* A toy verifier: the block must start with its own block number. */
static void toy_verify(void *ctx, struct fs_buf *bp, struct fs_findings *fl)
{
	struct fs_objref o = OBJREF_INIT(OBJ_NONE);

	(void)ctx;
	__atomic_add_fetch(&verify_calls, 1, __ATOMIC_RELAXED);
	o.daddr = bp->daddr;
	if (load_be32(bp->data) != bp->daddr / (BLK / 512))
		fs_report_val(fl, PR_DEV_IO_ERROR, &o, "self",
			      bp->daddr / (BLK / 512), load_be32(bp->data));
}

static const struct buf_ops toy_ops = {
	.name = "toy",
	.verify = toy_verify,
	.crc_off = 8,
};

/*
 * For the thread tests: toy_verify, also counted per block, and watched
 * for two verifications of one block at once.  It dawdles (yields) in the
 * middle, so that a cache that let a second reader verify, or use, a
 * buffer before the first verification was done would be caught at it.
 */
static unsigned block_verifies[NBLK];
static int verifying[NBLK];
static int overlaps;

static void count_verify(void *ctx, struct fs_buf *bp, struct fs_findings *fl)
{
	uint64_t blk = (uint64_t)bp->daddr / (BLK / 512);

	ck_assert_uint_lt(blk, NBLK);
	if (__atomic_fetch_add(&verifying[blk], 1, __ATOMIC_ACQ_REL))
		__atomic_add_fetch(&overlaps, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&block_verifies[blk], 1, __ATOMIC_RELAXED);
	for (int i = 0; i < 20; i++)
		sched_yield();
	toy_verify(ctx, bp, fl);
	__atomic_sub_fetch(&verifying[blk], 1, __ATOMIC_ACQ_REL);
}

static const struct buf_ops count_ops = {
	.name = "count",
	.verify = count_verify,
	.crc_off = 8,
};

static void reset_verify_counts(void)
{
	verify_calls = 0;
	overlaps = 0;
	memset(block_verifies, 0, sizeof(block_verifies));
	memset(verifying, 0, sizeof(verifying));
}

START_TEST(readonly_cannot_write)
{
	struct fs_dev *dev;
	struct bcache *bc;
	struct fs_buf *bp;
	uint8_t blk[BLK];

	make_image();
	ck_assert_int_eq(dev_open(path, DEV_RDONLY, &dev), 0);
	ck_assert_uint_eq(dev->size, (uint64_t)NBLK * BLK);
	ck_assert_int_eq(dev_pwrite(dev, blk, BLK, 0), -EROFS);
	ck_assert_int_eq(dev_discard(dev, 0, BLK), -EROFS);
	ck_assert_int_eq(dev_set_file_size(dev, 1), -EROFS);
	ck_assert_int_eq(bcache_create(dev, 0, NULL, &bc), 0);
	ck_assert_int_eq(bcache_read(bc, 8, BLK, NULL, NULL, &bp), 0);
	ck_assert_uint_eq(load_be32(bp->data), 1);
	ck_assert_int_eq(buf_mark_dirty(bp), -EROFS);
	ck_assert_int_eq(buf_write(bp), -EROFS);
	buf_release(bp);
	ck_assert_int_eq(bcache_flush(bc), 0);
	bcache_destroy(bc);
	ck_assert_uint_eq(dev->nwrites, 0);
	dev_close(dev);
	unlink(path);
}
END_TEST

START_TEST(read_past_end)
{
	struct fs_dev *dev;
	struct bcache *bc;
	struct fs_buf *bp;
	struct fs_findings fl;

	make_image();
	findings_init(&fl);
	ck_assert_int_eq(dev_open(path, DEV_RDONLY, &dev), 0);
	ck_assert_int_eq(bcache_create(dev, 0, NULL, &bc), 0);
	/* the last block reads; one sector further does not */
	ck_assert_int_eq(bcache_read(bc, (NBLK - 1) * 8, BLK, NULL, &fl, &bp), 0);
	buf_release(bp);
	ck_assert_int_eq(bcache_read(bc, (NBLK - 1) * 8 + 1, BLK, NULL, &fl, &bp),
			 -EIO);
	ck_assert_ptr_null(bp);
	ck_assert(findings_has(&fl, PR_DEV_SHORT_READ));
	/* a huge address must not wrap around */
	ck_assert_int_lt(bcache_read(bc, (xfs_daddr_t)1 << 60, BLK, NULL, &fl,
				     &bp), 0);
	findings_free(&fl);
	bcache_destroy(bc);
	dev_close(dev);
	unlink(path);
}
END_TEST

START_TEST(verify_once_and_flag)
{
	struct fs_dev *dev;
	struct bcache *bc;
	struct fs_buf *bp;
	struct fs_findings fl;
	int fd;

	make_image();
	/* damage block 5's self number */
	fd = open(path, O_WRONLY);
	ck_assert_int_eq(pwrite(fd, "\0\0\0\x63", 4, 5 * BLK), 4);
	close(fd);
	findings_init(&fl);
	verify_calls = 0;
	ck_assert_int_eq(dev_open(path, DEV_RDONLY, &dev), 0);
	ck_assert_int_eq(bcache_create(dev, 0, NULL, &bc), 0);
	ck_assert_int_eq(bcache_read(bc, 4 * 8, BLK, &toy_ops, &fl, &bp), 0);
	ck_assert(!buf_corrupt(bp));
	buf_release(bp);
	ck_assert_int_eq(bcache_read(bc, 4 * 8, BLK, &toy_ops, &fl, &bp), 0);
	buf_release(bp);
	ck_assert_int_eq(verify_calls, 1);
	ck_assert_uint_eq(fl.n, 0);
	ck_assert_int_eq(bcache_read(bc, 5 * 8, BLK, &toy_ops, &fl, &bp), 0);
	ck_assert(buf_corrupt(bp));	/* returned anyway, flagged */
	ck_assert_uint_eq(fl.n, 1);
	buf_release(bp);
	findings_free(&fl);
	bcache_destroy(bc);
	dev_close(dev);
	unlink(path);
}
END_TEST

START_TEST(flush_writes_with_crc)
{
	struct fs_dev *dev;
	struct bcache *bc;
	struct fs_buf *bp;
	uint8_t blk[BLK];
	int fd;

	make_image();
	ck_assert_int_eq(dev_open(path, 0, &dev), 0);
	ck_assert_int_eq(bcache_create(dev, 0, NULL, &bc), 0);
	ck_assert_int_eq(bcache_get(bc, 3 * 8, BLK, &toy_ops, &bp), 0);
	store_be32(bp->data + 100, 0xfeedface);
	ck_assert_int_eq(buf_mark_dirty(bp), 0);
	buf_release(bp);
	ck_assert_int_eq(bcache_flush(bc), 0);
	bcache_destroy(bc);
	dev_close(dev);
	fd = open(path, O_RDONLY);
	ck_assert_int_eq(pread(fd, blk, BLK, 3 * BLK), BLK);
	close(fd);
	ck_assert_uint_eq(load_be32(blk + 100), 0xfeedface);
	ck_assert(xfs_cksum_verify(blk, BLK, 8));
	unlink(path);
}
END_TEST

START_TEST(discontiguous_pieces)
{
	struct fs_dev *dev;
	struct bcache *bc;
	struct fs_buf *bp;
	struct buf_seg segs[3] = {
		{ 9 * 8, BLK }, { 2 * 8, BLK }, { 100 * 8, 2 * BLK },
	};

	make_image();
	ck_assert_int_eq(dev_open(path, DEV_RDONLY, &dev), 0);
	ck_assert_int_eq(bcache_create(dev, 0, NULL, &bc), 0);
	ck_assert_int_eq(bcache_read_segs(bc, segs, 3, NULL, NULL, &bp), 0);
	ck_assert_uint_eq(bp->len, 4 * BLK);
	ck_assert_uint_eq(load_be32(bp->data), 9);
	ck_assert_uint_eq(load_be32(bp->data + BLK), 2);
	ck_assert_uint_eq(load_be32(bp->data + 2 * BLK), 100);
	ck_assert_uint_eq(load_be32(bp->data + 3 * BLK), 101);
	buf_release(bp);
	bcache_destroy(bc);
	dev_close(dev);
	unlink(path);
}
END_TEST

/*
 * In the race test every DAMAGE_EVERYth block has a wrong self number, so
 * that a reader can tell the verifier's verdict reached it: such a block
 * must come back flagged corrupt, any other not.
 */
#define DAMAGE_EVERY	16
#define DAMAGED(blk)	((blk) % DAMAGE_EVERY == 5)
#define DAMAGE_BIT	0x80000000u

static void damage_image(void)
{
	int fd = open(path, O_WRONLY);

	ck_assert_int_ge(fd, 0);
	for (uint32_t blk = 0; blk < NBLK; blk++) {
		uint8_t self[4];

		if (!DAMAGED(blk))
			continue;
		store_be32(self, blk | DAMAGE_BIT);
		ck_assert_int_eq(pwrite(fd, self, 4, (off_t)blk * BLK), 4);
	}
	close(fd);
}

struct worker {
	struct bcache		*bc;
	unsigned		seed;
	bool			damaged;	/* the image is damage_image()d */
	int			errors;
	int			unverified;	/* no or another verdict */
	pthread_barrier_t	*start;		/* or NULL */
};

/* Read one block as a worker; count what was wrong with what came back. */
static void read_block(struct worker *w, uint32_t blk)
{
	bool bad = w->damaged && DAMAGED(blk);
	struct fs_buf *bp;

	if (bcache_read(w->bc, (xfs_daddr_t)blk * 8, BLK, &count_ops, NULL,
			&bp)) {
		w->errors++;
		return;
	}
	if (load_be32(bp->data) != (bad ? blk | DAMAGE_BIT : blk) ||
	    bp->data[BLK - 1] != (blk & 0xff))
		w->errors++;
	if (!(bp->flags & BUF_VERIFIED) || bp->ops != &count_ops ||
	    buf_corrupt(bp) != bad)
		w->unverified++;
	buf_release(bp);
}

static void *reader(void *arg)
{
	struct worker *w = arg;

	for (int i = 0; i < 20000; i++)
		read_block(w, rand_r(&w->seed) % NBLK);
	return NULL;
}

/* Every block in order, all workers starting together: each read races. */
static void *sweeper(void *arg)
{
	struct worker *w = arg;

	pthread_barrier_wait(w->start);
	for (uint32_t blk = 0; blk < NBLK; blk++)
		read_block(w, blk);
	return NULL;
}

START_TEST(threads_share_a_small_cache)
{
	struct fs_dev *dev;
	struct bcache *bc;
	struct bcache_stats st;
	pthread_t t[4];
	struct worker w[4];

	make_image();
	reset_verify_counts();
	ck_assert_int_eq(dev_open(path, DEV_RDONLY, &dev), 0);
	/* room for 16 of 256 blocks: constant eviction */
	ck_assert_int_eq(bcache_create(dev, 16 * BLK, NULL, &bc), 0);
	for (int i = 0; i < 4; i++) {
		w[i] = (struct worker){ .bc = bc, .seed = 1234u + i };
		pthread_create(&t[i], NULL, reader, &w[i]);
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		ck_assert_int_eq(w[i].errors, 0);
		ck_assert_int_eq(w[i].unverified, 0);
	}
	bcache_get_stats(bc, &st);
	ck_assert_uint_gt(st.evictions, 0);
	ck_assert_uint_eq(st.hits + st.misses, 4 * 20000);
	/* a block read again after its eviction is verified again, no more */
	ck_assert_uint_eq(__atomic_load_n(&verify_calls, __ATOMIC_SEQ_CST),
			  st.misses);
	ck_assert_int_eq(overlaps, 0);
	/* within the limit plus what the four threads held at the end */
	ck_assert_uint_le(st.bytes, 20 * BLK);
	ck_assert_int_eq(bcache_purge(bc), 0);
	bcache_get_stats(bc, &st);
	ck_assert_uint_eq(st.bytes, 0);
	bcache_destroy(bc);
	dev_close(dev);
	unlink(path);
}
END_TEST

START_TEST(threads_race_to_verify)
{
	enum { NT = 8, ROUNDS = 3 };
	struct fs_dev *dev;
	struct bcache *bc;
	struct bcache_stats st;
	pthread_barrier_t start;
	pthread_t t[NT];
	struct worker w[NT];

	make_image();
	damage_image();
	reset_verify_counts();
	ck_assert_int_eq(dev_open(path, DEV_RDONLY, &dev), 0);
	/* room for every block: a miss only on the first read of each */
	ck_assert_int_eq(bcache_create(dev, 0, NULL, &bc), 0);
	for (int r = 0; r < ROUNDS; r++) {
		pthread_barrier_init(&start, NULL, NT);
		for (int i = 0; i < NT; i++) {
			w[i] = (struct worker){ .bc = bc, .damaged = true,
						.start = &start };
			pthread_create(&t[i], NULL, sweeper, &w[i]);
		}
		for (int i = 0; i < NT; i++) {
			pthread_join(t[i], NULL);
			ck_assert_int_eq(w[i].errors, 0);
			ck_assert_int_eq(w[i].unverified, 0);
		}
		pthread_barrier_destroy(&start);
		bcache_get_stats(bc, &st);
		ck_assert_uint_eq(st.evictions, (uint64_t)r * NBLK); /* purges */
		ck_assert_uint_eq(st.misses, (uint64_t)(r + 1) * NBLK);
		ck_assert_uint_eq(st.hits + st.misses,
				  (uint64_t)(r + 1) * NT * NBLK);
		ck_assert_uint_eq(__atomic_load_n(&verify_calls,
						  __ATOMIC_SEQ_CST),
				  st.misses);
		for (int b = 0; b < NBLK; b++)
			ck_assert_uint_eq(block_verifies[b], (unsigned)r + 1);
		ck_assert_int_eq(overlaps, 0);
		/* empty the cache: the next round reads and verifies anew */
		ck_assert_int_eq(bcache_purge(bc), 0);
	}
	bcache_destroy(bc);
	dev_close(dev);
	unlink(path);
}
END_TEST

/*
 * An entry limit bounds the count of cached buffers the way the byte
 * limit bounds their bytes: unheld buffers are evicted past it, held
 * ones stay (the limit is soft), and the counts the stats give are the
 * cache's own.
 */
START_TEST(entry_limit_and_counts)
{
	struct fs_dev *dev;
	struct bcache *bc;
	struct bcache_stats st;
	struct fs_buf *held[12], *bp;

	make_image();
	ck_assert_int_eq(dev_open(path, DEV_RDONLY, &dev), 0);
	/* room for every block by bytes: only the count limits */
	ck_assert_int_eq(bcache_create(dev, NBLK * BLK, NULL, &bc), 0);
	bcache_set_max_entries(bc, 8);
	for (uint32_t i = 0; i < 100; i++) {
		ck_assert_int_eq(bcache_read(bc, (xfs_daddr_t)i * (BLK / 512),
					     BLK, NULL, NULL, &bp), 0);
		ck_assert_uint_eq(load_be32(bp->data), i);
		buf_release(bp);
	}
	bcache_get_stats(bc, &st);
	ck_assert_uint_eq(st.max_entries, 8);
	ck_assert_uint_le(st.entries, 8);
	ck_assert_uint_le(st.peak_entries, 9);
	ck_assert_uint_eq(st.misses, 100);
	ck_assert_uint_eq(st.entries + st.evictions, 100);
	ck_assert_uint_eq(st.idle, st.entries);
	ck_assert_uint_eq(st.bytes, st.entries * BLK);

	/* held buffers are never evicted: the count passes the limit */
	for (uint32_t i = 0; i < 12; i++)
		ck_assert_int_eq(bcache_read(bc, (xfs_daddr_t)(200 + i) *
					     (BLK / 512), BLK, NULL, NULL,
					     &held[i]), 0);
	bcache_get_stats(bc, &st);
	ck_assert_uint_eq(st.entries, 12);
	ck_assert_uint_eq(st.idle, 0);
	ck_assert_uint_ge(st.peak_entries, 12);
	/* a hit is counted as one, and takes no new entry */
	ck_assert_int_eq(bcache_read(bc, (xfs_daddr_t)200 * (BLK / 512), BLK,
				     NULL, NULL, &bp), 0);
	ck_assert_ptr_eq(bp, held[0]);
	buf_release(bp);
	bcache_get_stats(bc, &st);
	ck_assert_uint_eq(st.hits, 1);
	for (uint32_t i = 0; i < 12; i++)
		buf_release(held[i]);
	bcache_get_stats(bc, &st);
	ck_assert_uint_eq(st.idle, 12);

	/* lowering the limit evicts down to it at once */
	bcache_set_max_entries(bc, 4);
	bcache_get_stats(bc, &st);
	ck_assert_uint_le(st.entries, 4);
	ck_assert_int_eq(bcache_purge(bc), 0);
	bcache_get_stats(bc, &st);
	ck_assert_uint_eq(st.entries, 0);
	ck_assert_uint_eq(st.bytes, 0);
	bcache_destroy(bc);
	dev_close(dev);
	unlink(path);
}
END_TEST

/*
 * liburcu's automatic resize shrank the table in its own thread after a
 * burst of deletes, and bcache_destroy() freed nodes that shrink was
 * still walking: a crash at exit, a few times in a thousand.  Fill a
 * cache with more buffers than the table's first size, destroy it (full,
 * or just emptied), and do it again: the table must have grown, and nothing may crash (ASan
 * sees a use after free here if the destroy is wrong).
 */
START_TEST(destroy_while_the_table_shrinks)
{
	struct fs_dev *dev;
	struct bcache_stats st;

	make_image();
	ck_assert_int_eq(dev_open(path, DEV_RDONLY, &dev), 0);
	for (int round = 0; round < 40; round++) {
		struct bcache *bc;
		struct fs_buf *bp;
		uint32_t n = 0;

		ck_assert_int_eq(bcache_create(dev, 256ull << 20, NULL, &bc),
				 0);
		/* every sector, as buffers of one to twelve sectors */
		for (uint32_t len = 1; len <= 12; len++)
			for (uint32_t s = 0; s + len <= NBLK * (BLK / 512);
			     s++, n++) {
				ck_assert_int_eq(bcache_read(bc, s, len * 512,
							     NULL, NULL, &bp),
						 0);
				buf_release(bp);
			}
		bcache_get_stats(bc, &st);
		ck_assert_uint_eq(st.entries, n);
		ck_assert_uint_ge(st.buckets * 2, n);
		ck_assert_uint_gt(st.buckets, 1024);
		/* half the rounds empty it first, half destroy it full */
		if (round & 1) {
			ck_assert_int_eq(bcache_purge(bc), 0);
			bcache_get_stats(bc, &st);
			ck_assert_uint_eq(st.entries, 0);
		}
		bcache_destroy(bc);
	}
	dev_close(dev);
	unlink(path);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bcache");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, readonly_cannot_write);
	tcase_add_test(tc, read_past_end);
	tcase_add_test(tc, verify_once_and_flag);
	tcase_add_test(tc, flush_writes_with_crc);
	tcase_add_test(tc, discontiguous_pieces);
	tcase_add_test(tc, threads_share_a_small_cache);
	tcase_add_test(tc, threads_race_to_verify);
	tcase_add_test(tc, entry_limit_and_counts);
	tcase_add_test(tc, destroy_while_the_table_shrinks);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
