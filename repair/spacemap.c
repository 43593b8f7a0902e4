/*
 * The space map (spacemap.h).
 *
 * What goes in: claims on AG blocks from every owner, in any order, from
 * any thread.  What comes out, per AG once sorted: the pairs of claims on
 * a common block, the canonical reverse mappings, free space and
 * reference counts those claims imply, and diffs of canonical lists.
 * What stays true: an AG's array is only reordered by sm_sort(), and the
 * derived lists are built from it without changing it.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "array.h"
#include "heap.h"
#include "spacemap.h"

struct spacemap *sm_create(unsigned agcount)
{
	struct spacemap *sm = calloc(1, sizeof(*sm));

	if (!sm)
		return NULL;
	sm->agcount = agcount;
	sm->ags = calloc(agcount ? agcount : 1, sizeof(*sm->ags));
	if (!sm->ags) {
		free(sm);
		return NULL;
	}
	for (unsigned i = 0; i < agcount; i++)
		pthread_mutex_init(&sm->ags[i].lock, NULL);
	return sm;
}

void sm_destroy(struct spacemap *sm)
{
	if (!sm)
		return;
	for (unsigned i = 0; i < sm->agcount; i++) {
		free(sm->ags[i].v);
		pthread_mutex_destroy(&sm->ags[i].lock);
	}
	free(sm->ags);
	free(sm);
}

int sm_add(struct spacemap *sm, uint32_t agno, uint32_t agbno, uint32_t len,
	   uint64_t owner, uint64_t offset)
{
	struct sm_ag *ag;
	struct sm_rec *nv;
	int err = 0;

	if (agno >= sm->agcount || !len)
		return -EINVAL;
	ag = &sm->ags[agno];
	pthread_mutex_lock(&ag->lock);
	nv = fs_array_grow(ag->v, &ag->cap, ag->n + 1, sizeof(*ag->v), 64);
	if (!nv) {
		ag->enomem = true;
		err = -ENOMEM;
	} else {
		ag->v = nv;
		ag->v[ag->n++] = (struct sm_rec){ agbno, len, owner, offset };
		if (len > ag->maxlen)
			ag->maxlen = len;
		ag->sorted = false;
	}
	pthread_mutex_unlock(&ag->lock);
	return err;
}

int sm_add_batch(struct spacemap *sm, uint32_t agno, const struct sm_rec *v,
		 size_t n)
{
	struct sm_ag *ag;
	struct sm_rec *nv;
	int err = 0;

	if (agno >= sm->agcount)
		return -EINVAL;
	ag = &sm->ags[agno];
	pthread_mutex_lock(&ag->lock);
	nv = fs_array_grow(ag->v, &ag->cap, ag->n + n, sizeof(*ag->v), 64);
	if (!nv) {
		ag->enomem = true;
		err = -ENOMEM;
	} else {
		ag->v = nv;
		for (size_t i = 0; i < n; i++) {
			if (!v[i].len)
				continue;
			ag->v[ag->n++] = v[i];
			if (v[i].len > ag->maxlen)
				ag->maxlen = v[i].len;
		}
		ag->sorted = false;
	}
	pthread_mutex_unlock(&ag->lock);
	return err;
}

struct sm_mark *sm_mark(const struct spacemap *sm)
{
	struct sm_mark *m = calloc(sm->agcount ? sm->agcount : 1, sizeof(*m));

	for (unsigned a = 0; m && a < sm->agcount; a++)
		m[a] = (struct sm_mark){ sm->ags[a].n, sm->ags[a].maxlen,
					 sm->ags[a].sorted,
					 sm->ags[a].enomem };
	return m;
}

void sm_rewind(struct spacemap *sm, const struct sm_mark *m)
{
	for (unsigned a = 0; a < sm->agcount; a++) {
		struct sm_ag *ag = &sm->ags[a];

		pthread_mutex_lock(&ag->lock);
		if (ag->n >= m[a].n)
			ag->n = m[a].n;
		ag->maxlen = m[a].maxlen;
		ag->sorted = m[a].sorted;
		ag->enomem = m[a].enomem;
		pthread_mutex_unlock(&ag->lock);
	}
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

/* (agbno, owner, offset, len) */
static int rec_cmp(const void *pa, const void *pb)
{
	const struct sm_rec *a = pa, *b = pb;
	int c;

	if ((c = cmp_u64(a->agbno, b->agbno)))
		return c;
	if ((c = cmp_u64(a->owner, b->owner)))
		return c;
	if ((c = cmp_u64(a->offset, b->offset)))
		return c;
	return cmp_u64(a->len, b->len);
}

/* (owner, flags, agbno): the order in which mergeable runs are adjacent */
static int rec_owner_cmp(const void *pa, const void *pb)
{
	const struct sm_rec *a = pa, *b = pb;
	int c;

	if ((c = cmp_u64(a->owner, b->owner)))
		return c;
	if ((c = cmp_u64(sm_flags(a), sm_flags(b))))
		return c;
	if ((c = cmp_u64(a->agbno, b->agbno)))
		return c;
	if ((c = cmp_u64(a->offset, b->offset)))
		return c;
	return cmp_u64(a->len, b->len);
}

void sm_sort(struct spacemap *sm, uint32_t agno)
{
	struct sm_ag *ag = &sm->ags[agno];

	pthread_mutex_lock(&ag->lock);
	if (!ag->sorted && ag->n > 1)
		qsort(ag->v, ag->n, sizeof(*ag->v), rec_cmp);
	ag->sorted = true;
	pthread_mutex_unlock(&ag->lock);
}

const struct sm_rec *sm_recs(const struct spacemap *sm, uint32_t agno,
			     size_t *n)
{
	*n = sm->ags[agno].n;
	return sm->ags[agno].v;
}

size_t sm_bytes(const struct spacemap *sm)
{
	size_t b = sizeof(*sm) + sm->agcount * sizeof(*sm->ags);

	for (unsigned i = 0; i < sm->agcount; i++)
		b += sm->ags[i].cap * sizeof(struct sm_rec);
	return b;
}

static uint64_t rec_end(const struct sm_rec *r)
{
	return (uint64_t)r->agbno + r->len;
}

void sm_overlaps(const struct spacemap *sm, uint32_t agno, sm_overlap_fn fn,
		 void *priv)
{
	const struct sm_ag *ag = &sm->ags[agno];
	size_t *active = NULL, nactive = 0, capactive = 0, *nv;

	for (size_t i = 0; i < ag->n; i++) {
		const struct sm_rec *r = &ag->v[i];
		size_t k = 0;

		/* drop claims that end before this one starts */
		for (size_t j = 0; j < nactive; j++)
			if (rec_end(&ag->v[active[j]]) > r->agbno)
				active[k++] = active[j];
		nactive = k;
		for (size_t j = 0; j < nactive; j++) {
			const struct sm_rec *a = &ag->v[active[j]];
			uint64_t end = rec_end(a) < rec_end(r) ? rec_end(a) :
							       rec_end(r);

			fn(agno, a, r, r->agbno, (uint32_t)(end - r->agbno),
			   priv);
		}
		nv = fs_array_grow(active, &capactive, nactive + 1,
				   sizeof(*active), 64);
		if (!nv)
			break;
		active = nv;
		active[nactive++] = i;
	}
	free(active);
}

size_t sm_lookup(const struct spacemap *sm, uint32_t agno, uint32_t agbno,
		 const struct sm_rec **out, size_t max)
{
	const struct sm_ag *ag = &sm->ags[agno];
	size_t lo = 0, hi = ag->n, found = 0;

	/* first record starting after agbno */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ag->v[mid].agbno <= agbno)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* records starting at most maxlen blocks before may cover it */
	while (lo-- > 0) {
		const struct sm_rec *r = &ag->v[lo];

		if ((uint64_t)r->agbno + ag->maxlen <= agbno)
			break;
		if (rec_end(r) > agbno) {
			if (found < max)
				out[found] = r;
			found++;
		}
	}
	return found;
}

void sm_list_init(struct sm_list *l)
{
	memset(l, 0, sizeof(*l));
}

void sm_list_free(struct sm_list *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}

int sm_list_add(struct sm_list *l, uint32_t agbno, uint32_t len,
		uint64_t owner, uint64_t offset)
{
	struct sm_rec *nv;

	if (!len)
		return 0;
	nv = fs_array_grow(l->v, &l->cap, l->n + 1, sizeof(*l->v), 64);
	if (!nv)
		return -ENOMEM;
	l->v = nv;
	l->v[l->n++] = (struct sm_rec){ agbno, len, owner, offset };
	return 0;
}

/* May b continue a (a sorted before b by owner, flags, agbno)? */
static bool mergeable(const struct sm_rec *a, const struct sm_rec *b)
{
	if (a->owner != b->owner || sm_flags(a) != sm_flags(b))
		return false;
	if (rec_end(a) != b->agbno)
		return false;
	if (!sm_inode_owner(a->owner) || (a->offset & XFS_RMAP_OFF_BMBT_BLOCK))
		return true;
	return sm_fileoff(a) + a->len == sm_fileoff(b);
}

/* Is the list in (agbno, owner, offset, len) order already? */
static bool rec_sorted(const struct sm_list *l)
{
	for (size_t i = 1; i < l->n; i++)
		if (rec_cmp(&l->v[i - 1], &l->v[i]) > 0)
			return false;
	return true;
}

static uint64_t run_hash(uint64_t owner, uint64_t flags)
{
	uint64_t h = (owner ^ (flags >> 59)) * 0x9e3779b97f4a7c15ull;

	return h ^ (h >> 29);
}

uint64_t sm_list_first_in(const struct sm_list *l, uint64_t start,
			  uint64_t end)
{
	size_t lo = 0, hi = l->n;

	/* the first record ending past start */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if ((uint64_t)l->v[mid].agbno + l->v[mid].len <= start)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < l->n && l->v[lo].agbno < end)
		return l->v[lo].agbno > start ? l->v[lo].agbno : start;
	return end;
}

/*
 * In (agbno, owner, offset) order, the records of one owner and set of
 * flags come in that owner's own block order, so each can only continue
 * the latest run of its (owner, flags): a hash of those runs merges the
 * list in one pass, in place, and the result stays in order.  (The same
 * canonical form as sorting by owner, merging neighbours and sorting
 * back, without the two sorts.)
 */
bool sm_normalize(struct sm_list *l)
{
	struct run { uint64_t owner, flags; size_t idx; } *tab;
	size_t cap = 16, k = 0, n0 = l->n;
	bool sorted;

	if (l->n < 2)
		return true;
	sorted = rec_sorted(l);
	if (!sorted)
		qsort(l->v, l->n, sizeof(*l->v), rec_cmp);
	while (cap < 2 * l->n)
		cap *= 2;
	tab = malloc(cap * sizeof(*tab));
	if (!tab) {
		/* the slow way needs no table */
		qsort(l->v, l->n, sizeof(*l->v), rec_owner_cmp);
		for (size_t i = 1; i < l->n; i++) {
			struct sm_rec *a = &l->v[k];
			const struct sm_rec *b = &l->v[i];

			if (mergeable(a, b) &&
			    (uint64_t)a->len + b->len <= UINT32_MAX)
				a->len += b->len;
			else
				l->v[++k] = *b;
		}
		l->n = k + 1;
		qsort(l->v, l->n, sizeof(*l->v), rec_cmp);
		return sorted && l->n == n0;
	}
	for (size_t i = 0; i < cap; i++)
		tab[i].idx = SIZE_MAX;
	for (size_t i = 0; i < l->n; i++) {
		const struct sm_rec b = l->v[i];
		uint64_t flags = sm_flags(&b);
		size_t h = run_hash(b.owner, flags) & (cap - 1);

		while (tab[h].idx != SIZE_MAX &&
		       (tab[h].owner != b.owner || tab[h].flags != flags))
			h = (h + 1) & (cap - 1);
		if (tab[h].idx != SIZE_MAX) {
			struct sm_rec *a = &l->v[tab[h].idx];

			if (mergeable(a, &b) &&
			    (uint64_t)a->len + b.len <= UINT32_MAX) {
				a->len += b.len;
				continue;
			}
		}
		tab[h] = (struct run){ b.owner, flags, k };
		l->v[k++] = b;
	}
	l->n = k;
	free(tab);
	return sorted && l->n == n0;
}

int sm_derive_rmaps(const struct spacemap *sm, uint32_t agno,
		    struct sm_list *out)
{
	const struct sm_ag *ag = &sm->ags[agno];

	for (size_t i = 0; i < ag->n; i++) {
		const struct sm_rec *r = &ag->v[i];

		if (r->owner == SM_OWN_FREE || r->owner == SM_OWN_CLEARED)
			continue;
		if (sm_list_add(out, r->agbno, r->len, r->owner, r->offset))
			return -ENOMEM;
	}
	sm_normalize(out);
	return 0;
}

int sm_derive_free(const struct spacemap *sm, uint32_t agno, uint32_t aglen,
		   struct sm_list *out)
{
	const struct sm_ag *ag = &sm->ags[agno];
	uint64_t next = 0;	/* first block not known to be owned */

	for (size_t i = 0; i < ag->n; i++) {
		const struct sm_rec *r = &ag->v[i];

		if (r->owner == SM_OWN_FREE)
			continue;
		if (r->agbno > next && next < aglen) {
			uint64_t end = r->agbno < aglen ? r->agbno : aglen;

			if (sm_list_add(out, (uint32_t)next,
					(uint32_t)(end - next), SM_OWN_FREE, 0))
				return -ENOMEM;
		}
		if (rec_end(r) > next)
			next = rec_end(r);
	}
	if (next < aglen &&
	    sm_list_add(out, (uint32_t)next, (uint32_t)(aglen - next),
			SM_OWN_FREE, 0))
		return -ENOMEM;
	return 0;
}

int sm_listed_free(const struct spacemap *sm, uint32_t agno,
		   struct sm_list *out)
{
	const struct sm_ag *ag = &sm->ags[agno];

	for (size_t i = 0; i < ag->n; i++) {
		const struct sm_rec *r = &ag->v[i];

		if (r->owner != SM_OWN_FREE)
			continue;
		if (out->n && rec_end(&out->v[out->n - 1]) >= r->agbno) {
			struct sm_rec *last = &out->v[out->n - 1];

			if (rec_end(r) > rec_end(last))
				last->len = (uint32_t)(rec_end(r) - last->agbno);
			continue;
		}
		if (sm_list_add(out, r->agbno, r->len, SM_OWN_FREE, 0))
			return -ENOMEM;
	}
	return 0;
}

/*
 * Walk two sorted arrays of `size`-byte elements together.  key() orders
 * them (<0, 0, >0); for two elements with the same key, pair(a, b) is
 * called when same() says they differ; an element with no counterpart
 * gets pair(a, NULL) or pair(NULL, b).
 */
struct merge_ops {
	int	(*key)(const void *a, const void *b);
	bool	(*same)(const void *a, const void *b);
	void	(*pair)(const void *a, const void *b, void *priv);
};

static void merge_walk(const void *av, size_t an, const void *bv, size_t bn,
		       size_t size, const struct merge_ops *ops, void *priv)
{
	const char *a = av, *b = bv;
	size_t i = 0, j = 0;

	while (i < an || j < bn) {
		int c = i == an ? 1 : j == bn ? -1 :
			ops->key(a + i * size, b + j * size);

		if (c < 0) {
			ops->pair(a + i++ * size, NULL, priv);
		} else if (c > 0) {
			ops->pair(NULL, b + j++ * size, priv);
		} else {
			if (!ops->same(a + i * size, b + j * size))
				ops->pair(a + i * size, b + j * size, priv);
			i++;
			j++;
		}
	}
}

/* sm_diff: records meet by (agbno, owner) and must agree in the rest. */
struct rec_diff {
	sm_diff_fn	fn;
	void		*priv;
};

static int rec_key(const void *x, const void *y)
{
	const struct sm_rec *a = x, *b = y;
	int c = cmp_u64(a->agbno, b->agbno);

	return c ? c : cmp_u64(a->owner, b->owner);
}

static bool rec_same(const void *x, const void *y)
{
	const struct sm_rec *a = x, *b = y;

	return a->len == b->len && a->offset == b->offset;
}

static void rec_pair(const void *a, const void *b, void *priv)
{
	const struct rec_diff *d = priv;

	d->fn(a, b, d->priv);
}

void sm_diff(const struct sm_list *obs, const struct sm_list *disk,
	     sm_diff_fn fn, void *priv)
{
	static const struct merge_ops ops = { rec_key, rec_same, rec_pair };
	struct rec_diff d = { fn, priv };

	merge_walk(obs->v, obs->n, disk->v, disk->n, sizeof(*obs->v), &ops,
		   &d);
}

void sm_refc_init(struct sm_refc_list *l)
{
	memset(l, 0, sizeof(*l));
}

void sm_refc_free(struct sm_refc_list *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}

int sm_refc_add(struct sm_refc_list *l, uint32_t agbno, uint32_t len,
		uint32_t refcount, bool cow)
{
	struct sm_refc *nv;

	if (!len)
		return 0;
	nv = fs_array_grow(l->v, &l->cap, l->n + 1, sizeof(*l->v), 64);
	if (!nv)
		return -ENOMEM;
	l->v = nv;
	l->v[l->n++] = (struct sm_refc){ agbno, len, refcount, cow };
	return 0;
}

static int refc_cmp(const void *pa, const void *pb)
{
	const struct sm_refc *a = pa, *b = pb;
	int c;

	if ((c = cmp_u64(a->cow, b->cow)))
		return c;
	if ((c = cmp_u64(a->agbno, b->agbno)))
		return c;
	if ((c = cmp_u64(a->len, b->len)))
		return c;
	return cmp_u64(a->refcount, b->refcount);
}

void sm_refc_normalize(struct sm_refc_list *l)
{
	size_t k = 0;

	if (l->n < 2)
		return;
	qsort(l->v, l->n, sizeof(*l->v), refc_cmp);
	for (size_t i = 1; i < l->n; i++) {
		struct sm_refc *a = &l->v[k];
		const struct sm_refc *b = &l->v[i];

		if (a->cow == b->cow && a->cowflag == b->cowflag &&
		    a->refcount == b->refcount &&
		    (uint64_t)a->agbno + a->len == b->agbno)
			a->len += b->len;
		else
			l->v[++k] = *b;
	}
	l->n = k + 1;
}

/*
 * Emit the runs of [*pos, to) as the number of covering extents changes
 * (h: a min-heap of the ends of the data extents covering the sweep
 * point; its ends inside the range close extents on the way).
 */
static int sweep_to(struct u64heap *h, uint32_t *pos, uint64_t to,
		    struct sm_refc_list *out)
{
	while (*pos < to) {
		uint64_t next = h->n && h->v[0] < to ? h->v[0] : to;

		if (h->n >= 2 && next > *pos &&
		    sm_refc_add(out, *pos, (uint32_t)(next - *pos),
				(uint32_t)h->n, false))
			return -ENOMEM;
		*pos = (uint32_t)next;
		while (h->n && h->v[0] <= *pos)
			u64heap_pop(h);
		if (!h->n)
			break;
	}
	if (*pos < to)
		*pos = (uint32_t)to;
	return 0;
}

int sm_derive_refcounts(const struct spacemap *sm, uint32_t agno,
			bool (*skip)(uint64_t owner, void *priv), void *priv,
			struct sm_refc_list *out)
{
	const struct sm_ag *ag = &sm->ags[agno];
	struct u64heap h = { 0 };
	uint32_t pos = 0;
	int err = 0;

	/* the AG is sorted by agbno: a sweep with the open extents' ends */
	for (size_t i = 0; i < ag->n && !err; i++) {
		const struct sm_rec *r = &ag->v[i];

		if (r->owner == XFS_RMAP_OWN_COW) {
			err = sm_refc_add(out, r->agbno, r->len, 1, true);
			continue;
		}
		if (!sm_is_data(r) || (skip && skip(r->owner, priv)))
			continue;
		err = sweep_to(&h, &pos, r->agbno, out);
		if (!err)
			err = u64heap_push(&h, rec_end(r));
	}
	if (!err)
		err = sweep_to(&h, &pos, UINT32_MAX, out);
	u64heap_free(&h);
	if (err)
		return -ENOMEM;
	sm_refc_normalize(out);
	return 0;
}

/*
 * The shared-domain records of a normalized list are disjoint and in
 * block order (the CoW domain's follow them), so their ends grow with
 * their starts: the first record ending past agbno is found by halving,
 * and the ones overlapping the range follow it.
 */
size_t sm_refc_find(const struct sm_refc_list *l, uint32_t agbno,
		    uint32_t len, sm_refc_visit_fn fn, void *priv)
{
	uint64_t end = (uint64_t)agbno + len;
	size_t lo = 0, hi = l->n, seen = 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct sm_refc *x = &l->v[mid];

		if (!x->cow && (uint64_t)x->agbno + x->len <= agbno)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < l->n && !l->v[lo].cow && l->v[lo].agbno < end; lo++) {
		seen++;
		if (fn && fn(&l->v[lo], priv))
			break;
	}
	return seen;
}
