/*
 * The inode map (inomap.h).
 *
 * What goes in: the inobt's chunks, what phase 3 saw of each inode, and
 * the directory entries.  What comes out: lookups by inode number and the
 * entries sorted by parent.  What stays true: a chunk record never moves
 * once its AG is sorted, so callers may keep pointers to it.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "array.h"
#include "inomap.h"

struct inomap *im_create(const struct fs_geom *g)
{
	struct inomap *im = calloc(1, sizeof(*im));

	if (!im)
		return NULL;
	im->g = g;
	im->agcount = g->agcount;
	im->ags = calloc(g->agcount ? g->agcount : 1, sizeof(*im->ags));
	if (!im->ags) {
		free(im);
		return NULL;
	}
	pthread_mutex_init(&im->lock, NULL);
	return im;
}

void im_destroy(struct inomap *im)
{
	if (!im)
		return;
	for (unsigned i = 0; i < im->agcount; i++)
		free(im->ags[i].v);
	free(im->ags);
	im_edges_free(&im->edges);
	free(im->dirs);
	free(im->dblks);
	pthread_mutex_destroy(&im->lock);
	free(im);
}

size_t im_bytes(const struct inomap *im)
{
	size_t b = sizeof(*im) + im->agcount * sizeof(*im->ags) +
		   im->edges.cap * sizeof(struct im_edge) +
		   im->capdirs * sizeof(struct im_dir) +
		   im->capdblks * sizeof(struct im_dblk);

	for (unsigned i = 0; i < im->agcount; i++)
		b += im->ags[i].cap * sizeof(struct im_chunk);
	return b;
}

struct im_chunk *im_add_chunk(struct inomap *im, xfs_agnumber_t agno,
			      xfs_agino_t startino, uint64_t holes,
			      uint64_t ifree)
{
	struct im_ag *ag = &im->ags[agno];
	struct im_chunk *c, *nv;

	nv = fs_array_grow(ag->v, &ag->cap, ag->n + 1, sizeof(*nv), 16);
	if (!nv)
		return NULL;
	ag->v = nv;
	c = &ag->v[ag->n++];
	memset(c, 0, sizeof(*c));
	c->startino = startino;
	c->holes = holes;
	c->ifree = ifree | holes;
	return c;
}

static int chunk_cmp(const void *pa, const void *pb)
{
	const struct im_chunk *a = pa, *b = pb;

	return a->startino < b->startino ? -1 : a->startino > b->startino;
}

void im_sort(struct inomap *im, xfs_agnumber_t agno)
{
	struct im_ag *ag = &im->ags[agno];

	for (size_t i = 1; i < ag->n; i++)
		if (ag->v[i - 1].startino > ag->v[i].startino) {
			qsort(ag->v, ag->n, sizeof(*ag->v), chunk_cmp);
			return;
		}
}

struct im_chunk *im_find(const struct inomap *im, xfs_ino_t ino,
			 unsigned *bit)
{
	xfs_agnumber_t agno = ino_to_agno(im->g, ino);
	xfs_agino_t agino = ino_to_agino(im->g, ino);
	const struct im_ag *ag;
	size_t lo = 0, hi;

	if (agno >= im->agcount)
		return NULL;
	ag = &im->ags[agno];
	hi = ag->n;
	/* last chunk starting at or before agino */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ag->v[mid].startino <= agino)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	if (agino - ag->v[lo - 1].startino >= 64)
		return NULL;
	*bit = agino - ag->v[lo - 1].startino;
	return &ag->v[lo - 1];
}

int im_edges_add(struct im_edges *e, xfs_ino_t child, uint8_t ftype)
{
	struct im_edge *nv;

	nv = fs_array_grow(e->v, &e->cap, e->n + 1, sizeof(*nv), 64);
	if (!nv)
		return -ENOMEM;
	e->v = nv;
	e->v[e->n++] = (struct im_edge){ child, ftype, 0, 0 };
	return 0;
}

void im_edges_free(struct im_edges *e)
{
	free(e->v);
	memset(e, 0, sizeof(*e));
}

int im_dir_add(struct inomap *im, const struct im_dir *hdr,
	       struct im_edges *local)
{
	struct im_edges *e = &im->edges;
	struct im_dir *ndirs;
	struct im_edge *nedges;
	int err = 0;

	pthread_mutex_lock(&im->lock);
	ndirs = fs_array_grow(im->dirs, &im->capdirs, im->ndirs + 1,
			      sizeof(*ndirs), 64);
	if (!ndirs) {
		err = -ENOMEM;
		goto out;
	}
	im->dirs = ndirs;
	nedges = fs_array_grow(e->v, &e->cap, e->n + local->n, sizeof(*nedges),
			       1024);
	if (!nedges) {
		err = -ENOMEM;
		goto out;
	}
	e->v = nedges;
	if (local->n)
		memcpy(e->v + e->n, local->v, local->n * sizeof(*e->v));
	im->dirs[im->ndirs] = *hdr;
	im->dirs[im->ndirs].first = e->n;
	im->dirs[im->ndirs++].n = local->n;
	e->n += local->n;
	im->dirs_sorted = false;
out:
	pthread_mutex_unlock(&im->lock);
	local->n = 0;
	return err;
}

static int dir_cmp(const void *pa, const void *pb)
{
	const struct im_dir *a = pa, *b = pb;

	return a->dir < b->dir ? -1 : a->dir > b->dir;
}

static int dblk_cmp(const void *pa, const void *pb)
{
	const struct im_dblk *a = pa, *b = pb;

	if (a->dir != b->dir)
		return a->dir < b->dir ? -1 : 1;
	return a->dablk < b->dablk ? -1 : a->dablk > b->dablk;
}

void im_dirs_sort(struct inomap *im)
{
	if (im->dirs_sorted)
		return;
	if (im->ndirs > 1)
		qsort(im->dirs, im->ndirs, sizeof(*im->dirs), dir_cmp);
	if (im->ndblks > 1)
		qsort(im->dblks, im->ndblks, sizeof(*im->dblks), dblk_cmp);
	im->dirs_sorted = true;
}

int im_dblk_add(struct inomap *im, const struct im_dblk *b)
{
	struct im_dblk *nv;
	int err = 0;

	pthread_mutex_lock(&im->lock);
	nv = fs_array_grow(im->dblks, &im->capdblks, im->ndblks + 1,
			   sizeof(*nv), 16);
	if (!nv) {
		err = -ENOMEM;
		goto out;
	}
	im->dblks = nv;
	im->dblks[im->ndblks++] = *b;
	im->dirs_sorted = false;
out:
	pthread_mutex_unlock(&im->lock);
	return err;
}

size_t im_dblk_first(const struct inomap *im, xfs_ino_t dir)
{
	size_t lo = 0, hi = im->ndblks;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (im->dblks[mid].dir < dir)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct im_dir *im_dir_find(const struct inomap *im, xfs_ino_t dir)
{
	size_t lo = 0, hi = im->ndirs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (im->dirs[mid].dir < dir)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < im->ndirs && im->dirs[lo].dir == dir ? &im->dirs[lo] : NULL;
}
