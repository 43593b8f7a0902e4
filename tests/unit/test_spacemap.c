/*
 * The space map of xfs_repair (repair/spacemap.c): claims on a common
 * block are all found (pairs, three-way, the same claim twice, free
 * space against an owner), free space is the complement of what is
 * owned, canonical forms merge exactly the runs the rmapbt may merge
 * (and only those), diffs name missing, extra and wrong records, shared
 * extents get the right reference counts, lookups find every owner of a
 * block, concurrent adds lose nothing, and a rewind to a mark drops
 * what was added after it.
 */
#include "config.h"
#include <pthread.h>
#include <stdlib.h>
#include "spacemap.h"
#include "unit.h"

#define INO(n)	((uint64_t)(n))

struct pairs {
	unsigned	n;
	uint32_t	start[16], len[16];
	uint64_t	own_a[16], own_b[16];
};

static void collect(uint32_t agno, const struct sm_rec *a,
		    const struct sm_rec *b, uint32_t start, uint32_t len,
		    void *priv)
{
	struct pairs *p = priv;

	(void)agno;
	if (p->n < 16) {
		p->start[p->n] = start;
		p->len[p->n] = len;
		p->own_a[p->n] = a->owner;
		p->own_b[p->n] = b->owner;
	}
	p->n++;
}

START_TEST(overlaps_found)
{
	struct spacemap *sm = sm_create(2);
	struct pairs p = { 0 };

	ck_assert_ptr_nonnull(sm);
	/* disjoint, touching: no overlap */
	sm_add(sm, 0, 0, 4, XFS_RMAP_OWN_FS, 0);
	sm_add(sm, 0, 4, 2, XFS_RMAP_OWN_AG, 0);
	sm_add(sm, 0, 6, 10, SM_OWN_FREE, 0);
	sm_sort(sm, 0);
	sm_overlaps(sm, 0, collect, &p);
	ck_assert_uint_eq(p.n, 0);

	/* an inode claims part of the free extent: one pair, the common part */
	sm_add(sm, 0, 12, 8, INO(131), 0);
	sm_sort(sm, 0);
	sm_overlaps(sm, 0, collect, &p);
	ck_assert_uint_eq(p.n, 1);
	ck_assert_uint_eq(p.start[0], 12);
	ck_assert_uint_eq(p.len[0], 4);
	ck_assert(p.own_a[0] == SM_OWN_FREE && p.own_b[0] == INO(131));

	/* three claims on one block: three pairs, in AG 1 only */
	sm_add(sm, 1, 100, 1, INO(200), 0);
	sm_add(sm, 1, 100, 1, INO(201), 0);
	sm_add(sm, 1, 99, 5, INO(202), 0);
	sm_sort(sm, 1);
	memset(&p, 0, sizeof(p));
	sm_overlaps(sm, 1, collect, &p);
	ck_assert_uint_eq(p.n, 3);
	for (unsigned i = 0; i < 3; i++) {
		ck_assert_uint_eq(p.start[i], 100);
		ck_assert_uint_eq(p.len[i], 1);
	}

	/* the same claim added twice is a double claim too */
	sm_add(sm, 1, 500, 3, INO(300), 0);
	sm_add(sm, 1, 500, 3, INO(300), 0);
	sm_sort(sm, 1);
	memset(&p, 0, sizeof(p));
	sm_overlaps(sm, 1, collect, &p);
	ck_assert_uint_eq(p.n, 4);
	ck_assert_uint_eq(p.start[3], 500);
	ck_assert_uint_eq(p.len[3], 3);
	sm_destroy(sm);
}
END_TEST

START_TEST(free_is_complement)
{
	struct spacemap *sm = sm_create(1);
	struct sm_list l;

	sm_list_init(&l);
	sm_add(sm, 0, 10, 5, INO(131), 0);
	sm_add(sm, 0, 0, 4, XFS_RMAP_OWN_FS, 0);
	sm_add(sm, 0, 4, 2, XFS_RMAP_OWN_AG, 0);
	sm_add(sm, 0, 12, 2, INO(132), 0);	/* inside 131's: still owned */
	sm_add(sm, 0, 6, 4, SM_OWN_FREE, 0);	/* listed free: not an owner */
	sm_sort(sm, 0);
	ck_assert_int_eq(sm_derive_free(sm, 0, 100, &l), 0);
	ck_assert_uint_eq(l.n, 2);
	ck_assert_uint_eq(l.v[0].agbno, 6);
	ck_assert_uint_eq(l.v[0].len, 4);
	ck_assert_uint_eq(l.v[1].agbno, 15);
	ck_assert_uint_eq(l.v[1].len, 85);
	sm_list_free(&l);

	/* everything owned: no free space; owner past the AG end is clipped */
	sm = (sm_destroy(sm), sm_create(1));
	sm_add(sm, 0, 0, 120, XFS_RMAP_OWN_LOG, 0);
	sm_sort(sm, 0);
	ck_assert_int_eq(sm_derive_free(sm, 0, 100, &l), 0);
	ck_assert_uint_eq(l.n, 0);
	sm_list_free(&l);
	sm_destroy(sm);
}
END_TEST

START_TEST(listed_free_merges)
{
	struct spacemap *sm = sm_create(1);
	struct sm_list l;

	sm_list_init(&l);
	sm_add(sm, 0, 20, 5, SM_OWN_FREE, 0);
	sm_add(sm, 0, 25, 5, SM_OWN_FREE, 0);
	sm_add(sm, 0, 40, 1, SM_OWN_FREE, 0);
	sm_add(sm, 0, 30, 1, INO(140), 0);
	sm_sort(sm, 0);
	sm_listed_free(sm, 0, &l);
	ck_assert_uint_eq(l.n, 2);
	ck_assert_uint_eq(l.v[0].agbno, 20);
	ck_assert_uint_eq(l.v[0].len, 10);
	ck_assert_uint_eq(l.v[1].agbno, 40);
	sm_list_free(&l);
	sm_destroy(sm);
}
END_TEST

START_TEST(normalize_merges_right_runs)
{
	struct sm_list l;

	sm_list_init(&l);
	/* contiguous on disk and in the file: one run */
	sm_list_add(&l, 100, 4, INO(131), 0);
	sm_list_add(&l, 104, 4, INO(131), 4);
	/* contiguous on disk, not in the file: two */
	sm_list_add(&l, 108, 2, INO(131), 20);
	/* bmbt blocks merge whatever their offsets */
	sm_list_add(&l, 200, 1, INO(131), XFS_RMAP_OFF_BMBT_BLOCK);
	sm_list_add(&l, 201, 1, INO(131), XFS_RMAP_OFF_BMBT_BLOCK);
	/* other flags do not merge with data */
	sm_list_add(&l, 110, 2, INO(131), 22 | XFS_RMAP_OFF_UNWRITTEN);
	sm_list_add(&l, 112, 2, INO(131), 24 | XFS_RMAP_OFF_ATTR_FORK);
	/* metadata owners merge on adjacency */
	sm_list_add(&l, 10, 1, XFS_RMAP_OWN_AG, 0);
	sm_list_add(&l, 11, 1, XFS_RMAP_OWN_AG, 0);
	sm_list_add(&l, 12, 1, XFS_RMAP_OWN_INOBT, 0);
	/* shared extents interleave in block order; per owner they merge */
	sm_list_add(&l, 300, 2, INO(150), 0);
	sm_list_add(&l, 300, 5, INO(151), 0);
	sm_list_add(&l, 302, 3, INO(150), 2);
	ck_assert(!sm_normalize(&l));	/* merged and moved */
	ck_assert_uint_eq(l.n, 9);
	ck_assert(sm_normalize(&l));	/* canonical already: says so */
	ck_assert(l.v[0].agbno == 10 && l.v[0].len == 2);
	ck_assert(l.v[1].agbno == 12 && l.v[1].owner == XFS_RMAP_OWN_INOBT);
	ck_assert(l.v[2].agbno == 100 && l.v[2].len == 8);
	ck_assert(l.v[3].agbno == 108 && l.v[3].len == 2);
	ck_assert(l.v[4].agbno == 110 && l.v[4].len == 2);
	ck_assert(l.v[5].agbno == 112 && l.v[5].len == 2);
	ck_assert(l.v[6].agbno == 200 && l.v[6].len == 2);
	ck_assert(l.v[7].agbno == 300 && l.v[7].owner == INO(150) &&
		  l.v[7].len == 5);
	ck_assert(l.v[8].agbno == 300 && l.v[8].owner == INO(151) &&
		  l.v[8].len == 5);
	sm_list_free(&l);
}
END_TEST

struct diffs {
	unsigned	missing, extra, wrong;
	uint32_t	last_agbno;
};

static void count_diff(const struct sm_rec *obs, const struct sm_rec *disk,
		       void *priv)
{
	struct diffs *d = priv;

	if (obs && disk)
		d->wrong++;
	else if (obs)
		d->missing++;
	else
		d->extra++;
	d->last_agbno = obs ? obs->agbno : disk->agbno;
}

START_TEST(diff_names_differences)
{
	struct sm_list a, b;
	struct diffs d = { 0 };

	sm_list_init(&a);
	sm_list_init(&b);
	sm_list_add(&a, 0, 4, XFS_RMAP_OWN_FS, 0);
	sm_list_add(&a, 10, 8, INO(131), 0);
	sm_list_add(&a, 30, 1, INO(132), 0);
	sm_list_add(&b, 0, 4, XFS_RMAP_OWN_FS, 0);
	sm_list_add(&b, 10, 6, INO(131), 0);		/* wrong length */
	sm_list_add(&b, 50, 1, INO(133), 0);		/* extra */
	sm_normalize(&a);
	sm_normalize(&b);
	sm_diff(&a, &a, count_diff, &d);
	ck_assert_uint_eq(d.missing + d.extra + d.wrong, 0);
	sm_diff(&a, &b, count_diff, &d);
	ck_assert_uint_eq(d.wrong, 1);
	ck_assert_uint_eq(d.missing, 1);	/* 30 for 132 */
	ck_assert_uint_eq(d.extra, 1);
	ck_assert_uint_eq(d.last_agbno, 50);
	sm_list_free(&a);
	sm_list_free(&b);
}
END_TEST

START_TEST(refcounts_of_shared_extents)
{
	struct spacemap *sm = sm_create(1);
	struct sm_refc_list l, disk;

	sm_refc_init(&l);
	sm_refc_init(&disk);
	sm_add(sm, 0, 100, 10, INO(131), 0);
	sm_add(sm, 0, 105, 10, INO(132), 0);	/* 105-109 shared by 2 */
	sm_add(sm, 0, 108, 1, INO(133), 7);	/* 108 by 3 */
	sm_add(sm, 0, 200, 3, INO(131), 50 | XFS_RMAP_OFF_ATTR_FORK);
	sm_add(sm, 0, 200, 3, INO(134), 0);	/* attr vs data: not sharing */
	sm_add(sm, 0, 300, 4, XFS_RMAP_OWN_COW, 0);
	sm_sort(sm, 0);
	ck_assert_int_eq(sm_derive_refcounts(sm, 0, NULL, NULL, &l), 0);
	ck_assert_uint_eq(l.n, 4);
	ck_assert(l.v[0].agbno == 105 && l.v[0].len == 3 && l.v[0].refcount == 2);
	ck_assert(l.v[1].agbno == 108 && l.v[1].len == 1 && l.v[1].refcount == 3);
	ck_assert(l.v[2].agbno == 109 && l.v[2].len == 1 && l.v[2].refcount == 2);
	ck_assert(l.v[3].cow && l.v[3].agbno == 300 && l.v[3].refcount == 1);

	/* runs of one count on disk merge; the CoW domain sorts last */
	sm_refc_add(&disk, 300, 4, 1, true);
	sm_refc_add(&disk, 108, 1, 2, false);
	sm_refc_add(&disk, 105, 3, 2, false);
	sm_refc_normalize(&disk);	/* 105-108 merge: count 2 over 4 */
	ck_assert_uint_eq(disk.n, 2);
	ck_assert(disk.v[0].agbno == 105 && disk.v[0].len == 4);
	ck_assert(disk.v[1].cow);
	sm_refc_free(&l);
	sm_refc_free(&disk);
	sm_destroy(sm);
}
END_TEST

/* What sm_refc_find handed over, in order; a stop after `stop` records. */
struct refc_seen {
	uint32_t	start[8];
	unsigned	n, stop;
};

static int note_refc(const struct sm_refc *rc, void *p)
{
	struct refc_seen *s = p;

	if (s->n < 8)
		s->start[s->n] = rc->agbno;
	s->n++;
	return s->stop && s->n >= s->stop;
}

/*
 * The derived counts of shuffled claims (the sort puts them in block
 * order), then the records each range overlaps: none before the first or
 * between two, every one a range spans, never the CoW domain's.
 */
START_TEST(refc_find_visits_overlapping_records)
{
	static const struct { uint32_t b, len; uint64_t owner; } claims[] = {
		{ 520, 10, 7 }, { 10, 5, 3 }, { 500, 30, 8 }, { 12, 8, 4 },
		{ 300, 4, XFS_RMAP_OWN_COW }, { 100, 50, 5 }, { 140, 20, 6 },
		{ 14, 1, 9 },
	};
	struct spacemap *sm = sm_create(1);
	struct sm_refc_list l;
	struct refc_seen s;

	sm_refc_init(&l);
	for (size_t i = 0; i < sizeof(claims) / sizeof(claims[0]); i++)
		sm_add(sm, 0, claims[i].b, claims[i].len,
		       claims[i].owner < XFS_RMAP_OWN_MIN ?
		       INO(claims[i].owner) : claims[i].owner, 0);
	sm_sort(sm, 0);
	ck_assert_int_eq(sm_derive_refcounts(sm, 0, NULL, NULL, &l), 0);
	/* 12-13 x2, 14 x3, 140-149 x2, 520-529 x2, CoW 300-303 */
	ck_assert_uint_eq(l.n, 5);
	ck_assert(l.v[0].agbno == 12 && l.v[0].len == 2 && l.v[0].refcount == 2);
	ck_assert(l.v[1].agbno == 14 && l.v[1].len == 1 && l.v[1].refcount == 3);
	ck_assert(l.v[2].agbno == 140 && l.v[2].len == 10);
	ck_assert(l.v[3].agbno == 520 && l.v[3].len == 10);
	ck_assert(l.v[4].cow && l.v[4].agbno == 300);

	ck_assert_uint_eq(sm_refc_find(&l, 0, 12, NULL, NULL), 0);
	ck_assert_uint_eq(sm_refc_find(&l, 15, 125, NULL, NULL), 0);
	ck_assert_uint_eq(sm_refc_find(&l, 300, 4, NULL, NULL), 0);
	ck_assert_uint_eq(sm_refc_find(&l, 530, 100, NULL, NULL), 0);
	ck_assert_uint_eq(sm_refc_find(&l, 149, 1, NULL, NULL), 1);
	memset(&s, 0, sizeof(s));
	ck_assert_uint_eq(sm_refc_find(&l, 13, 600, note_refc, &s), 4);
	ck_assert_uint_eq(s.n, 4);
	ck_assert(s.start[0] == 12 && s.start[1] == 14 && s.start[2] == 140 &&
		  s.start[3] == 520);
	memset(&s, 0, sizeof(s));
	s.stop = 2;
	ck_assert_uint_eq(sm_refc_find(&l, 0, UINT32_MAX, note_refc, &s), 2);
	/* an empty list, and one of CoW records only */
	sm_refc_free(&l);
	ck_assert_uint_eq(sm_refc_find(&l, 0, UINT32_MAX, NULL, NULL), 0);
	sm_refc_add(&l, 5, 5, 1, true);
	ck_assert_uint_eq(sm_refc_find(&l, 0, UINT32_MAX, NULL, NULL), 0);
	sm_refc_free(&l);
	sm_destroy(sm);
}
END_TEST

/* sm_normalize says whether a list was canonical as it stood. */
START_TEST(normalize_says_whether_anything_changed)
{
	struct sm_list l;

	sm_list_init(&l);
	sm_list_add(&l, 10, 1, XFS_RMAP_OWN_AG, 0);
	sm_list_add(&l, 20, 4, INO(131), 0);
	ck_assert(sm_normalize(&l));		/* sorted, nothing to merge */
	sm_list_add(&l, 5, 1, INO(132), 0);
	ck_assert(!sm_normalize(&l));		/* out of order */
	ck_assert(sm_normalize(&l));
	sm_list_add(&l, 24, 2, INO(131), 4);	/* continues 20+4 at offset 4 */
	ck_assert(!sm_normalize(&l));		/* merged */
	ck_assert_uint_eq(l.n, 3);
	ck_assert_uint_eq(l.v[2].len, 6);
	sm_list_free(&l);
}
END_TEST

START_TEST(lookup_finds_every_owner)
{
	struct spacemap *sm = sm_create(1);
	const struct sm_rec *out[4];

	sm_add(sm, 0, 0, 1000, XFS_RMAP_OWN_LOG, 0);
	sm_add(sm, 0, 1000, 8, XFS_RMAP_OWN_INODES, 0);
	sm_add(sm, 0, 1003, 1, INO(140), 0);
	sm_add(sm, 0, 2000, 1, INO(141), 0);
	sm_sort(sm, 0);
	ck_assert_uint_eq(sm_lookup(sm, 0, 999, out, 4), 1);
	ck_assert(out[0]->owner == XFS_RMAP_OWN_LOG);
	ck_assert_uint_eq(sm_lookup(sm, 0, 1003, out, 4), 2);
	ck_assert_uint_eq(sm_lookup(sm, 0, 1500, out, 4), 0);
	ck_assert_uint_eq(sm_lookup(sm, 0, 2000, out, 4), 1);
	ck_assert(out[0]->owner == INO(141));
	ck_assert_uint_eq(sm_lookup(sm, 0, 5000, out, 4), 0);
	sm_destroy(sm);
}
END_TEST

START_TEST(rewind_drops_what_came_after_the_mark)
{
	struct spacemap *sm = sm_create(2);
	const struct sm_rec *out[4];
	struct sm_mark *m;
	size_t n;

	sm_add(sm, 0, 10, 4, INO(140), 0);
	sm_add(sm, 1, 20, 2, INO(141), 0);
	sm_sort(sm, 0);
	m = sm_mark(sm);
	ck_assert_ptr_nonnull(m);
	sm_add(sm, 0, 12, 100, INO(142), 0);
	sm_add(sm, 1, 30, 1, INO(143), 0);
	sm_add(sm, 1, 31, 1, INO(144), 0);
	sm_rewind(sm, m);
	sm_recs(sm, 0, &n);
	ck_assert_uint_eq(n, 1);
	sm_recs(sm, 1, &n);
	ck_assert_uint_eq(n, 1);
	/* the longest record is the one before the mark again */
	ck_assert_uint_eq(sm->ags[0].maxlen, 4);
	sm_sort(sm, 0);
	ck_assert_uint_eq(sm_lookup(sm, 0, 13, out, 4), 1);
	ck_assert(out[0]->owner == INO(140));
	ck_assert_uint_eq(sm_lookup(sm, 0, 50, out, 4), 0);
	free(m);
	sm_destroy(sm);
}
END_TEST

static struct spacemap *shared_sm;

static void *adder(void *arg)
{
	uintptr_t t = (uintptr_t)arg;

	for (uint32_t i = 0; i < 20000; i++)
		sm_add(shared_sm, (uint32_t)(i % 3),
		       (uint32_t)(t * 100000 + i), 1, INO(1000 + t), i);
	return NULL;
}

START_TEST(concurrent_adds)
{
	pthread_t th[4];
	size_t total = 0;

	shared_sm = sm_create(3);
	for (uintptr_t t = 0; t < 4; t++)
		pthread_create(&th[t], NULL, adder, (void *)t);
	for (int t = 0; t < 4; t++)
		pthread_join(th[t], NULL);
	for (uint32_t ag = 0; ag < 3; ag++) {
		size_t n;
		struct pairs p = { 0 };

		sm_recs(shared_sm, ag, &n);
		total += n;
		sm_sort(shared_sm, ag);
		sm_overlaps(shared_sm, ag, collect, &p);
		ck_assert_uint_eq(p.n, 0);
	}
	ck_assert_uint_eq(total, 4 * 20000);
	ck_assert_uint_gt(sm_bytes(shared_sm), total * sizeof(struct sm_rec) - 1);
	sm_destroy(shared_sm);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("spacemap");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, overlaps_found);
	tcase_add_test(tc, free_is_complement);
	tcase_add_test(tc, listed_free_merges);
	tcase_add_test(tc, normalize_merges_right_runs);
	tcase_add_test(tc, diff_names_differences);
	tcase_add_test(tc, refcounts_of_shared_extents);
	tcase_add_test(tc, normalize_says_whether_anything_changed);
	tcase_add_test(tc, refc_find_visits_overlapping_records);
	tcase_add_test(tc, lookup_finds_every_owner);
	tcase_add_test(tc, concurrent_adds);
	tcase_add_test(tc, rewind_drops_what_came_after_the_mark);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
