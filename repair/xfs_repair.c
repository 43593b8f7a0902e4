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
#include <unistd.h>
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

/*
 * The reference treats a filesystem of many AGs or with a stripe unit as
 * spread over several disks, and then strides over its AGs (which also
 * turns on the -t progress reports) unless prefetching is off.
 */
#define RP_MULTIDISK_AGCOUNT	32

static void setup_threads(struct repair *r)
{
	unsigned agcount = r->fs->geo.agcount;
	unsigned ncpu = rp_default_threads();

	if (r->o.ag_stride <= 0 && r->o.prefetch &&
	    (agcount >= RP_MULTIDISK_AGCOUNT || r->fs->sb.unit))
		r->o.ag_stride = (agcount < RP_MULTIDISK_AGCOUNT / 2 ?
				  agcount : RP_MULTIDISK_AGCOUNT / 2) - 1;
	if (r->o.ag_stride > 0) {
		unsigned long stride = (unsigned long)r->o.ag_stride;

		r->nthreads = (unsigned)((agcount + stride - 1) / stride);
		while (r->nthreads > ncpu * 8) {
			stride *= 2;
			r->nthreads = (unsigned)((agcount + stride - 1) / stride);
		}
	}
	/* a stride asks for parallel I/O; the machine's CPUs work anyway */
	if (r->nthreads < ncpu)
		r->nthreads = ncpu;
	if (r->nthreads > agcount)
		r->nthreads = agcount;
	if (!r->nthreads)
		r->nthreads = 1;
}

/*
 * The buffer cache.  Every block of metadata is read once, in order, and
 * what is reused (AG headers, btree roots, directory blocks a message
 * names) is small: a cache larger than a few tens of MiB only costs
 * memory, and page faults.  -m bounds it further.
 */
#define RP_CACHE_MB_DEFAULT	64

static void set_cache_size(struct repair *r)
{
	long mb = RP_CACHE_MB_DEFAULT;
	char val[32];

	if (getenv("XFSKIT_CACHE_MB"))
		return;		/* set by hand (benchmarks, tests) */
	if (r->o.max_mem_mb > 0 && r->o.max_mem_mb / 4 < mb)
		mb = r->o.max_mem_mb / 4 > 16 ? r->o.max_mem_mb / 4 : 16;
	snprintf(val, sizeof(val), "%ld", mb);
	setenv("XFSKIT_CACHE_MB", val, 1);
}

/*
 * The reference's memory check, in KiB: about 4 bytes an inode, 1 byte
 * for 2 blocks and 50 MB of overhead must fit in -m (or in 3/4 of the
 * machine's memory), and scripts rely on its refusal of a -m that is too
 * small.  Our own use is less (the maps are per extent and per chunk),
 * but the promise of the option is the same.
 */
static void check_memory(struct repair *r)
{
	const struct fs_sb *sb = &r->fs->sb;
	unsigned long used = (unsigned long)(sb->icount >> 8) +
			     (unsigned long)(sb->dblocks >> 11) + 50000;
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
	unsigned long max_mem;

	if (r->o.max_mem_mb > 0)
		max_mem = (unsigned long)r->o.max_mem_mb * 1024;
	else
		max_mem = pages > 0 && psize > 0 ?
			  (unsigned long)pages / 1024 * (unsigned long)psize / 4 * 3 :
			  used * 2;
	if (r->o.verbose > 1)
		rp_log(NULL, "        - max_mem = %lu, icount = %llu, imem = %llu, dblock = %llu, dmem = %llu\n",
		       max_mem, (unsigned long long)sb->icount,
		       (unsigned long long)(sb->icount >> 8),
		       (unsigned long long)sb->dblocks,
		       (unsigned long long)(sb->dblocks >> 11));
	if (max_mem <= used) {
		if (r->o.max_mem_mb > 0) {
			rp_warn(NULL, "Required memory for repair is greater that the maximum specified\n"
				"with the -m option. Please increase it to at least %lu.\n",
				used / 1024);
			exit(RP_EXIT_FOUND);
		}
		rp_log(NULL, "Memory available for repair (%luMB) may not be sufficient.\n"
		       "At least %luMB is needed to repair this filesystem efficiently\n"
		       "If repair fails due to lack of memory, please\n",
		       max_mem / 1024, used / 1024);
		if (r->o.prefetch)
			rp_log(NULL, "turn prefetching off (-P) to reduce the memory footprint.\n");
		else
			rp_log(NULL, "increase system RAM and/or swap space to at least %luMB.\n",
			       used * 2 / 1024);
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
	rp_log(NULL, "        - %llu inodes in use in %llu chunks, %llu directories, %llu directory entries\n",
	       (unsigned long long)inodes, (unsigned long long)chunks,
	       (unsigned long long)r->imap->ndirs,
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
	check_memory(&r);
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
	rp_quota_check(&r);
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
