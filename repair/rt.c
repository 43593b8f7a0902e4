/*
 * The realtime subvolume (after phase 4, as the reference does under -n).
 *
 * What goes in: the data fork extents of every realtime inode phase 3
 * kept (rp_rt_claim, from any thread), in realtime blocks.  What it
 * checks: no realtime extent is claimed by two inodes ("claims used rt
 * extent"); the realtime bitmap and summary files say what the claims
 * imply, block by block; and the superblock's count of free realtime
 * extents equals the extents nothing claims.  (The bitmap and summary
 * inodes themselves are ordinary inodes to phase 3.)
 *
 * What stays true: claims are kept as (start, length, owner) runs -- one
 * per extent of realtime files -- so memory follows the realtime
 * metadata, not the size of the realtime device.
 */
#include "config.h"
#include <stdlib.h>
#include "array.h"
#include "bmap.h"
#include "repair.h"

struct rt_rec {
	uint64_t	start;		/* realtime block */
	uint64_t	len;
	xfs_ino_t	owner;
};

struct rtmap {
	pthread_mutex_t	lock;
	struct rt_rec	*v;
	size_t		n, cap;
	bool		enomem;
};

static struct rtmap *rtmap_get(struct repair *r)
{
	static pthread_mutex_t once = PTHREAD_MUTEX_INITIALIZER;

	pthread_mutex_lock(&once);
	if (!r->rtmap) {
		r->rtmap = calloc(1, sizeof(*r->rtmap));
		if (r->rtmap)
			pthread_mutex_init(&r->rtmap->lock, NULL);
	}
	pthread_mutex_unlock(&once);
	return r->rtmap;
}

void rp_rt_claim(struct repair *r, xfs_ino_t ino, const struct fs_extents *el)
{
	struct rtmap *m;

	if (!el->n || !(m = rtmap_get(r)))
		return;
	pthread_mutex_lock(&m->lock);
	for (size_t i = 0; i < el->n; i++) {
		struct rt_rec *nv = fs_array_grow(m->v, &m->cap, m->n + 1,
						  sizeof(*nv), 64);

		if (!nv) {
			m->enomem = true;
			break;
		}
		m->v = nv;
		m->v[m->n++] = (struct rt_rec){ el->v[i].br_startblock,
						el->v[i].br_blockcount, ino };
	}
	pthread_mutex_unlock(&m->lock);
}

static int rec_cmp(const void *pa, const void *pb)
{
	const struct rt_rec *a = pa, *b = pb;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a->owner < b->owner ? -1 : a->owner > b->owner;
}

/* Merged runs of claimed realtime extents, [start, end). */
struct runs {
	uint64_t	(*v)[2];
	size_t		n, cap;
};

static int runs_add(struct runs *u, uint64_t s, uint64_t e)
{
	void *nv;

	if (u->n && s <= u->v[u->n - 1][1]) {
		if (e > u->v[u->n - 1][1])
			u->v[u->n - 1][1] = e;
		return 0;
	}
	nv = fs_array_grow(u->v, &u->cap, u->n + 1, sizeof(*u->v), 64);
	if (!nv)
		return -1;
	u->v = nv;
	u->v[u->n][0] = s;
	u->v[u->n][1] = e;
	u->n++;
	return 0;
}

static uint32_t le32_at(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* A fork's logical block, read whole; NULL if it cannot be. */
static struct fs_buf *rt_block(struct repair *r, const struct fs_extents *el,
			       uint64_t off)
{
	struct fs_buf *bp;

	if (fork_read(r->fs, el, off, 1, NULL, NULL, &bp))
		return NULL;
	return bp;
}

/*
 * The realtime bitmap: a bit per realtime extent, set when it is free, in
 * 32-bit words of the host's byte order (little-endian here, as every
 * image this tool meets); the summary: for each power of two and bitmap
 * block, how many free runs of that size class start in that block, as
 * 32-bit counters indexed [log][bitmap block].  Both are compared block
 * by block with what the claims imply.
 */
static void check_rt_files(struct repair *r, const struct runs *used)
{
	const struct fs_sb *sb = &r->fs->sb;
	uint32_t bs = sb->blocksize, bits = bs * 8;
	unsigned levels = sb->rextslog + 1u;
	uint64_t nsum = (uint64_t)levels * sb->rbmblocks;
	uint32_t *sum = NULL;
	struct fs_inode ip;
	struct fs_extents el;
	size_t j = 0;

	if (!sb->rbmblocks || nsum > (1ull << 28))
		return;
	sum = calloc(nsum, sizeof(*sum));
	if (!sum)
		return;
	/* the summary of the free runs (the gaps between used runs) */
	for (size_t i = 0; i <= used->n; i++) {
		uint64_t s = i ? used->v[i - 1][1] : 0;
		uint64_t e = i < used->n ? used->v[i][0] : sb->rextents;
		unsigned lg = 0;

		if (e > sb->rextents)
			e = sb->rextents;
		if (s >= e)
			continue;
		while (lg + 1 < levels && (e - s) >> (lg + 1))
			lg++;
		if (s / bits < sb->rbmblocks)
			sum[(uint64_t)lg * sb->rbmblocks + s / bits]++;
	}

	extents_init(&el);
	if (!inode_read(r->fs, sb->rbmino, &ip, NULL)) {
		if (!fork_extents(r->fs, &ip, XFS_DATA_FORK, &el, NULL, NULL,
				  NULL))
			for (uint64_t b = 0; b < sb->rbmblocks; b++) {
				struct fs_buf *bp = rt_block(r, &el, b);
				bool bad = false;

				if (!bp)
					continue;
				for (uint32_t w = 0; w < bs / 4 && !bad; w++) {
					uint64_t first = b * bits + (uint64_t)w * 32;
					uint32_t want = 0, have;

					for (unsigned k = 0; k < 32; k++) {
						uint64_t x = first + k;

						while (j < used->n && used->v[j][1] <= x)
							j++;
						if (x < sb->rextents &&
						    !(j < used->n && used->v[j][0] <= x))
							want |= 1u << k;
					}
					have = le32_at(bp->data + 4 * w);
					bad = have != want;
				}
				buf_release(bp);
				if (bad) {
					struct rp_args a = RP_ARGS_INIT(OBJ_RTBITMAP);

					a.obj.ino = sb->rbmino;
					a.found = b;
					rp_say(NULL, PR_RP_RT_BITMAP_BAD, &a);
				}
			}
		inode_release(&ip);
	}
	extents_free(&el);

	extents_init(&el);
	if (!inode_read(r->fs, sb->rsumino, &ip, NULL)) {
		if (!fork_extents(r->fs, &ip, XFS_DATA_FORK, &el, NULL, NULL,
				  NULL))
			for (uint64_t b = 0; b * (bs / 4) < nsum; b++) {
				struct fs_buf *bp = rt_block(r, &el, b);
				bool bad = false;

				if (!bp)
					continue;
				for (uint32_t w = 0; w < bs / 4 && !bad; w++) {
					uint64_t idx = b * (bs / 4) + w;

					if (idx < nsum)
						bad = le32_at(bp->data + 4 * w) !=
						      sum[idx];
				}
				buf_release(bp);
				if (bad) {
					struct rp_args a = RP_ARGS_INIT(OBJ_RTSUMMARY);

					a.obj.ino = sb->rsumino;
					a.found = b;
					rp_say(NULL, PR_RP_RT_SUMMARY_BAD, &a);
				}
			}
		inode_release(&ip);
	}
	extents_free(&el);
	free(sum);
}

void rp_rt_check(struct repair *r)
{
	const struct fs_sb *sb = &r->fs->sb;
	struct rtmap *m = r->rtmap;
	uint64_t rextsize = sb->rextsize ? sb->rextsize : 1;
	uint64_t used = 0, end = 0;
	struct rp_args a = RP_ARGS_INIT(OBJ_SB);
	struct runs u = { 0 };
	bool nomem = m && m->enomem;

	if (!sb->rblocks)
		return;
	if (m && m->n > 1)
		qsort(m->v, m->n, sizeof(*m->v), rec_cmp);
	for (size_t i = 0; m && i < m->n; i++) {
		const struct rt_rec *x = &m->v[i];

		if (x->start < end) {
			struct rp_args d = RP_ARGS_INIT(OBJ_INODE);

			/* the first extent of this run already claimed */
			d.obj.ino = x->owner;
			d.found = x->start / rextsize;
			rp_say(NULL, PR_RP_RT_CLAIMS_USED, &d);
		}
		if (x->start + x->len > end)
			end = x->start + x->len;
		if (runs_add(&u, x->start / rextsize,
			     (x->start + x->len + rextsize - 1) / rextsize))
			nomem = true;
	}
	if (nomem)
		goto out;	/* a partial map proves nothing */
	for (size_t i = 0; i < u.n; i++)
		used += u.v[i][1] - u.v[i][0];
	check_rt_files(r, &u);
	a.obj.agno = 0;
	a.field = "frextents";
	a.found = sb->frextents;
	a.expected = sb->rextents > used ? sb->rextents - used : 0;
	if (a.found != a.expected)
		rp_say(NULL, PR_RP_SB_FREXTENTS, &a);
out:
	free(u.v);
}

void rp_rt_free(struct repair *r)
{
	if (!r->rtmap)
		return;
	free(r->rtmap->v);
	pthread_mutex_destroy(&r->rtmap->lock);
	free(r->rtmap);
	r->rtmap = NULL;
}
