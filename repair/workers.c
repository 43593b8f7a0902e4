/*
 * A minimal thread pool for per-AG work (workers.h).  Work items are
 * handed out by an atomic counter, so workers never wait on each other;
 * each item's results go to per-item state the caller owns.
 */
#include "config.h"
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>
#include "workers.h"

struct pool {
	struct repair		*r;
	rp_item_fn		fn;
	void			*arg;
	uint64_t		n;
	_Atomic uint64_t	next;
};

static void *worker(void *p)
{
	struct pool *pl = p;
	uint64_t i;

	while ((i = atomic_fetch_add(&pl->next, 1)) < pl->n)
		pl->fn(pl->r, i, pl->arg);
	return NULL;
}

void rp_run_items(struct repair *r, uint64_t n, rp_item_fn fn, void *arg)
{
	struct pool pl = { .r = r, .fn = fn, .arg = arg, .n = n };
	unsigned nt = r->nthreads ? r->nthreads : 1;
	pthread_t *tids;
	unsigned started = 0;

	if (nt > n)
		nt = (unsigned)n;
	if (nt <= 1) {
		worker(&pl);
		return;
	}
	tids = calloc(nt, sizeof(*tids));
	if (tids)
		for (; started < nt - 1; started++)
			if (pthread_create(&tids[started], NULL, worker, &pl))
				break;
	worker(&pl);	/* the caller works too */
	for (unsigned i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	free(tids);
}

struct ag_shim {
	rp_ag_fn	fn;
	void		*arg;
};

static void ag_item(struct repair *r, uint64_t i, void *arg)
{
	struct ag_shim *s = arg;

	s->fn(r, (xfs_agnumber_t)i, s->arg);
}

void rp_run_ags(struct repair *r, rp_ag_fn fn, void *arg)
{
	struct ag_shim s = { fn, arg };

	rp_run_items(r, r->fs->geo.agcount, ag_item, &s);
}

unsigned rp_default_threads(void)
{
	cpu_set_t set;
	long n;

	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		return (unsigned)CPU_COUNT(&set);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1;
}
