/*
 * xfs_repair: check (and, in the fixing half still to come, repair) an
 * XFS v5 filesystem.  main() parses the command line, runs the phases in
 * the reference's order and turns what they found into the exit code:
 *
 *   0  nothing found;
 *   1  -n found something, or a fatal error;
 *   2  the log is dirty and must be replayed first (without -n);
 *   4  -e and something was repaired (fixing half).
 *
 * Without -n this tool does not modify anything yet: it checks the log
 * (exit 2 with the reference's advice when dirty) and otherwise says that
 * repairing is not implemented, exit 1.
 */
#include "config.h"
#include <errno.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "opts.h"
#include "progress.h"
#include "repair.h"
#include "workers.h"

_Noreturn void rp_fatal(struct repair *r, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "\nfatal error -- ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (r && r->o.dumpcore)
		abort();
	exit(RP_EXIT_FOUND);
}

/*
 * The inode numbers mkfs gives the root directory and the realtime
 * inodes: the first inode after what mkfs puts in AG 0 -- four header
 * sectors, the bno/cnt/ino roots, the initial free list, the optional
 * btree roots and an internal log in AG 0 -- rounded up to the stripe
 * unit or the inode alignment.
 */
static xfs_ino_t calc_rootino(const struct fs *fs)
{
	const struct fs_sb *sb = &fs->sb;
	const struct fs_geom *g = &fs->geo;
	uint64_t first;

	first = (4ull * sb->sectsize + sb->blocksize - 1) / sb->blocksize;
	first += 2 + 1;				/* bno, cnt, ino roots */
	first += sb_has_rmapbt(sb) ? 6 : 4;	/* initial AGFL */
	if (sb_has_finobt(sb))
		first++;
	if (sb_has_rmapbt(sb))
		first++;
	if (sb_has_reflink(sb))
		first++;
	if (sb->logstart && fsb_to_agno(g, sb->logstart) == 0)
		first += sb->logblocks;
	if ((sb->versionnum & XFS_SB_VERSION_DALIGNBIT) && sb->unit &&
	    sb->inoalignmt >= g->blocks_per_cluster)
		first = (first + sb->unit - 1) / sb->unit * sb->unit;
	else if ((sb->versionnum & XFS_SB_VERSION_ALIGNBIT) &&
		 sb->inoalignmt > 1)
		first = (first + sb->inoalignmt - 1) / sb->inoalignmt *
			sb->inoalignmt;
	return agino_to_ino(g, 0, (xfs_agino_t)(first << g->inopblog));
}

static void check_sb_ino(enum fs_problem code, xfs_ino_t have,
			 xfs_ino_t want)
{
	struct rp_args a = RP_ARGS_INIT(OBJ_SB);

	if (have == want)
		return;
	a.obj.agno = 0;
	a.found = have;
	a.expected = want;
	a.s1 = have == NULLFSINO ? "(NULLFSINO) " : "";
	rp_say(NULL, code, &a);
}

static void check_mkfs_inodes(struct repair *r)
{
	xfs_ino_t root = calc_rootino(r->fs);

	check_sb_ino(PR_RP_SB_ROOTINO, r->fs->sb.rootino, root);
	check_sb_ino(PR_RP_SB_RBMINO, r->fs->sb.rbmino, root + 1);
	check_sb_ino(PR_RP_SB_RSUMINO, r->fs->sb.rsumino, root + 2);
}

static void setup_threads(struct repair *r)
{
	unsigned agcount = r->fs->geo.agcount;
	unsigned ncpu = rp_default_threads();

	if (r->o.ag_stride > 0) {
		unsigned long stride = (unsigned long)r->o.ag_stride;

		r->nthreads = (unsigned)((agcount + stride - 1) / stride);
		while (r->nthreads > ncpu * 8) {
			stride *= 2;
			r->nthreads = (unsigned)((agcount + stride - 1) / stride);
		}
	} else {
		r->nthreads = ncpu;
	}
	if (r->nthreads > agcount)
		r->nthreads = agcount;
	if (!r->nthreads)
		r->nthreads = 1;
}

static void set_cache_size(struct repair *r)
{
	char val[32];

	/*
	 * -m bounds the buffer cache; libfs sizes its cache from the
	 * environment when the filesystem is opened.
	 */
	if (r->o.max_mem_mb > 0) {
		long mb = r->o.max_mem_mb / 2;

		snprintf(val, sizeof(val), "%ld", mb > 16 ? mb : 16);
		setenv("XFSKIT_CACHE_MB", val, 1);
	}
}

/* -vv: what the run held in memory, for tuning and benchmarks. */
static void print_stats(struct repair *r)
{
	uint64_t inodes = 0, chunks = 0, recs = 0;

	for (unsigned agno = 0; agno < r->imap->agcount; agno++) {
		const struct im_ag *ag = &r->imap->ags[agno];
		size_t n;

		chunks += ag->n;
		for (size_t k = 0; k < ag->n; k++)
			inodes += (uint64_t)__builtin_popcountll(ag->v[k].used);
		sm_recs(r->smap, agno, &n);
		recs += n;
	}
	rp_log(NULL, "        - %llu inodes in use in %llu chunks, %llu directory entries\n",
	       (unsigned long long)inodes, (unsigned long long)chunks,
	       (unsigned long long)r->imap->edges.n);
	rp_log(NULL, "        - space map: %llu records, %zu KiB; inode map %zu KiB\n",
	       (unsigned long long)recs, sm_bytes(r->smap) >> 10,
	       im_bytes(r->imap) >> 10);
}

/* Everything the phases built (the sanitizer build checks nothing leaks). */
static void free_state(struct repair *r)
{
	if (r->ags) {
		for (unsigned i = 0; i < r->fs->geo.agcount; i++) {
			sm_list_free(&r->ags[i].disk_rmaps);
			sm_refc_free(&r->ags[i].disk_refcs);
			findings_free(&r->ags[i].deferred);
			free(r->ags[i].fino_seeds);
			free(r->ags[i].found);
		}
		free(r->ags);
	}
	sm_destroy(r->smap);
	im_destroy(r->imap);
	rp_rt_free(r);
	r->ags = NULL;
	r->smap = NULL;
	r->imap = NULL;
}

int main(int argc, char **argv)
{
	struct repair r;
	bool warned;

	setlocale(LC_ALL, "");
	setbuf(stdout, NULL);
	memset(&r, 0, sizeof(r));
	rp_parse_args(argc, argv, &r.o, &warned);
	rp_report_init(r.o.no_modify);
	if (warned)
		atomic_store(&rp.dirty, true);
	set_cache_size(&r);

	prog_phase_start(0);
	prog_phase_end(0);

	phase1(&r);
	prog_phase_end(1);

	setup_threads(&r);
	prog_init(r.fs->geo.agcount, r.o.report_interval,
		  r.o.ag_stride > 0 && r.o.report_interval > 0);
	if (r.o.ag_stride > 0 && r.o.report_interval > 0) {
		char dur[128];

		rp_log(NULL, "        - reporting progress in intervals of %s\n",
		       prog_duration(r.o.report_interval, dur, sizeof(dur)));
	}
	check_mkfs_inodes(&r);

	phase2(&r);
	prog_phase_end(2);
	if (!r.o.no_modify) {
		/*
		 * The fixing half is not here yet: stop before anything
		 * could be written, having checked the log.
		 */
		rp_log(NULL, "%s: repairing is not implemented yet; run with -n to check the filesystem.\n",
		       rp_progname());
		free_state(&r);
		fs_close(r.fs);
		return RP_EXIT_FOUND;
	}

	phase3(&r);
	prog_phase_end(3);
	phase4(&r);
	prog_phase_end(4);
	phase5(&r);	/* compares what phase 5 would rebuild */
	printf("No modify flag set, skipping phase 5\n");
	rp_rt_check(&r);
	prog_phase_end(5);
	if (!r.bad_ino_btree) {
		phase6(&r);
		prog_phase_end(6);
		phase7(&r);
		prog_phase_end(7);
	} else {
		rp_warn(NULL, "Inode allocation btrees are too corrupted, skipping phases 6 and 7\n");
	}
	prog_fini();

	if (r.o.verbose > 1)
		print_stats(&r);
	rp_check_max_lsn(&r);
	rp_log(NULL, "No modify flag set, skipping filesystem flush and exiting.\n");
	if (r.o.verbose)
		prog_summary(true, r.bad_ino_btree);
	free_state(&r);
	fs_close(r.fs);
	rp_report_fini();
	return atomic_load(&rp.dirty) ? RP_EXIT_FOUND : RP_EXIT_CLEAN;
}
