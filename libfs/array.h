/*
 * Growable arrays: the one place that decides how a vector of records
 * grows.  Callers keep their own (pointer, count, capacity) triple and ask
 * for room before they append:
 *
 *	nv = fs_array_grow(l->v, &l->cap, l->n + 1, sizeof(*l->v), 16);
 *	if (!nv)
 *		return -ENOMEM;
 *	l->v = nv;
 *
 * The capacity doubles from `first` until it holds `need` elements, so n
 * appends cost O(n) copies in all.
 */
#ifndef XK_ARRAY_H
#define XK_ARRAY_H

#include <stddef.h>

/*
 * Room for at least `need` elements of `size` bytes in the array v of
 * capacity *cap (v may be NULL when *cap is 0).  Returns the array, moved
 * or not, with *cap updated; or NULL when the memory is not there or
 * need * size does not fit a size_t, with v and *cap untouched (v stays
 * the caller's to free).
 */
void *fs_array_grow(void *v, size_t *cap, size_t need, size_t size,
		    size_t first);

#endif
