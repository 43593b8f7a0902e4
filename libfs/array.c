/* Growable arrays: see array.h. */
#include "config.h"
#include <stdint.h>
#include <stdlib.h>
#include "array.h"

void *fs_array_grow(void *v, size_t *cap, size_t need, size_t size,
		    size_t first)
{
	size_t ncap = *cap ? *cap : (first ? first : 1);
	void *nv;

	if (need <= *cap && v)
		return v;
	if (!size || need > SIZE_MAX / size)
		return NULL;
	while (ncap < need)
		ncap = ncap > SIZE_MAX / 2 ? need : ncap * 2;
	if (ncap > SIZE_MAX / size)
		ncap = need;
	nv = realloc(v, ncap * size);
	if (!nv)
		return NULL;
	*cap = ncap;
	return nv;
}
