/*
 * The realtime subvolume (after phase 4, as the reference does under -n).
 *
 * What goes in: the data fork extents of every realtime inode phase 3
 * kept (rp_rt_claim, from any thread), in realtime blocks.  What it
 * checks: no realtime extent is claimed by two inodes ("claims used rt
 * extent"), and the superblock's count of free realtime extents equals
 * the extents nothing claims.  The realtime bitmap and summary inodes are
 * ordinary inodes to phase 3; like the reference under -n, their contents
 * are not compared with the claims.
 *
 * What stays true: claims are kept as (start, length, owner) runs -- one
 * per extent of realtime files -- so memory follows the realtime
 * metadata, not the size of the realtime device.
 */
#include "config.h"
#include <stdlib.h>
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
		if (m->n == m->cap) {
			size_t ncap = m->cap ? m->cap * 2 : 64;
			struct rt_rec *nv = realloc(m->v, ncap * sizeof(*nv));

			if (!nv) {
				m->enomem = true;
				break;
			}
			m->v = nv;
			m->cap = ncap;
		}
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

void rp_rt_check(struct repair *r)
{
	const struct fs_sb *sb = &r->fs->sb;
	struct rtmap *m = r->rtmap;
	uint64_t rextsize = sb->rextsize ? sb->rextsize : 1;
	uint64_t used = 0, last_ext = 0, end = 0;
	bool any = false;
	struct rp_args a = RP_ARGS_INIT(OBJ_SB);

	if (!sb->rblocks)
		return;
	if (m && m->n > 1)
		qsort(m->v, m->n, sizeof(*m->v), rec_cmp);
	for (size_t i = 0; m && i < m->n; i++) {
		const struct rt_rec *x = &m->v[i];
		uint64_t first = x->start / rextsize;
		uint64_t last = (x->start + x->len - 1) / rextsize;

		if (x->start < end) {
			struct rp_args d = RP_ARGS_INIT(OBJ_INODE);

			/* the first extent of this run already claimed */
			d.obj.ino = x->owner;
			d.found = x->start / rextsize;
			rp_say(NULL, PR_RP_RT_CLAIMS_USED, &d);
		}
		if (x->start + x->len > end)
			end = x->start + x->len;
		/* count each realtime extent once */
		if (any && first <= last_ext)
			first = last_ext + 1;
		if (first <= last)
			used += last - first + 1;
		if (!any || last > last_ext)
			last_ext = last;
		any = true;
	}
	if (m && m->enomem)
		return;		/* a count from a partial map proves nothing */
	a.obj.agno = 0;
	a.field = "frextents";
	a.found = sb->frextents;
	a.expected = sb->rextents > used ? sb->rextents - used : 0;
	if (a.found != a.expected)
		rp_say(NULL, PR_RP_SB_FREXTENTS, &a);
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
