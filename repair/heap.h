/*
 * A binary min-heap of 64-bit values, for the sweeps that want the
 * lowest of a growing set: the ends of the extents open at a point
 * (spacemap.c) and the inode numbers still to look for (discover.c).
 *
 * What stays true: v[0] is the lowest of the n values; push costs
 * O(log n) and may fail only for memory (the heap is then unchanged);
 * pop of an empty heap is the caller's error.
 */
#ifndef XK_REPAIR_HEAP_H
#define XK_REPAIR_HEAP_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

struct u64heap {
	uint64_t	*v;
	size_t		n, cap;
};

static inline int u64heap_push(struct u64heap *h, uint64_t x)
{
	size_t i;

	if (h->n == h->cap) {
		size_t ncap = h->cap ? h->cap * 2 : 64;
		uint64_t *nv = realloc(h->v, ncap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		h->v = nv;
		h->cap = ncap;
	}
	for (i = h->n++; i > 0 && h->v[(i - 1) / 2] > x; i = (i - 1) / 2)
		h->v[i] = h->v[(i - 1) / 2];
	h->v[i] = x;
	return 0;
}

static inline uint64_t u64heap_pop(struct u64heap *h)
{
	uint64_t top = h->v[0], last = h->v[--h->n];
	size_t i = 0;

	for (;;) {
		size_t k = 2 * i + 1;

		if (k >= h->n)
			break;
		if (k + 1 < h->n && h->v[k + 1] < h->v[k])
			k++;
		if (h->v[k] >= last)
			break;
		h->v[i] = h->v[k];
		i = k;
	}
	if (h->n)
		h->v[i] = last;
	return top;
}

static inline void u64heap_free(struct u64heap *h)
{
	free(h->v);
	h->v = NULL;
	h->n = h->cap = 0;
}

#endif
