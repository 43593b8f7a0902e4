/*
 * Per-AG work on a pool of threads: rp_run_ags() calls fn once for each
 * AG, from r->nthreads workers that take AGs in increasing order, and
 * returns when all are done.  With one thread it runs in the caller.
 */
#ifndef XK_REPAIR_WORKERS_H
#define XK_REPAIR_WORKERS_H

#include "repair.h"

typedef void (*rp_ag_fn)(struct repair *r, xfs_agnumber_t agno, void *arg);

void rp_run_ags(struct repair *r, rp_ag_fn fn, void *arg);

/* The same over n items of any kind. */
typedef void (*rp_item_fn)(struct repair *r, uint64_t i, void *arg);
void rp_run_items(struct repair *r, uint64_t n, rp_item_fn fn, void *arg);

/* Threads to use by default: the CPUs we may run on. */
unsigned rp_default_threads(void);

#endif
