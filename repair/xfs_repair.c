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
#include <limits.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/sysinfo.h>
#include <unistd.h>
#include "bcache.h"
#include "dir.h"
#include "inode.h"
#include "opts.h"
#include "progress.h"
#include "repair.h"
#include "sbcheck.h"
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
 * unit (sunit: the superblock's, or one tried) or the inode alignment.
 */
static xfs_ino_t calc_rootino(const struct fs *fs, uint32_t sunit)
{
	const struct fs_sb *sb = &fs->sb;
	const struct fs_geom *g = &fs->geo;
	uint32_t mask = 0;
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
	/*
	 * Chunks follow the stripe unit only where the superblock's unit is
	 * a multiple of an inode alignment of at least a cluster (the
	 * kernel's ialloc_align); then the unit tried rounds.
	 */
	if ((sb->versionnum & XFS_SB_VERSION_ALIGNBIT) &&
	    sb->inoalignmt >= g->blocks_per_cluster && sb->inoalignmt)
		mask = sb->inoalignmt - 1;
	if ((sb->versionnum & XFS_SB_VERSION_DALIGNBIT) && mask &&
	    sb->unit && !(sb->unit & mask)) {
		if (!sunit)
			return NULLFSINO;	/* no unit rounds to nothing */
		first = (first + sunit - 1) / sunit * sunit;
	} else if ((sb->versionnum & XFS_SB_VERSION_ALIGNBIT) &&
		 sb->inoalignmt > 1)
		first = (first + sb->inoalignmt - 1) / sb->inoalignmt *
			sb->inoalignmt;
	return agino_to_ino(g, 0, (xfs_agino_t)(first << g->inopblog));
}

/*
 * A superblock inode number other than mkfs's is said, and from then on
 * the computed one is used, as the reference uses it (it sets it in its
 * copy of the superblock, which under -n is never written): a root
 * directory elsewhere is no cascade of lost and garbage inodes.
 */
static void check_sb_ino(enum fs_problem code, xfs_ino_t *have,
			 xfs_ino_t want)
{
	struct rp_args a = RP_ARGS_INIT(OBJ_SB);

	if (*have == want)
		return;
	a.obj.agno = 0;
	a.found = *have;
	a.expected = want;
	a.s1 = *have == NULLFSINO ? "(NULLFSINO) " : "";
	rp_say(NULL, code, &a);
	*have = want;
}

/*
 * Is the root inode, where the superblock puts it, a plausible root
 * directory?  The reference asks before it holds the superblock to the
 * computed place: the inode loads (the kernel's verifier takes it), it
 * is a directory, and its ".." names itself.
 */
static bool root_plausible(struct repair *r)
{
	struct fs *fs = r->fs;
	struct fs_findings fl;
	struct fs_inode ip;
	xfs_ino_t parent;
	bool ok;

	findings_init(&fl);
	if (inode_read(fs, fs->sb.rootino, &ip, &fl)) {
		findings_free(&fl);
		return false;
	}
	ok = !fl.nerrors && inode_is_dir(&ip) &&
	     !dir_lookup(fs, &ip, NULL, (const uint8_t *)"..", 2, &parent,
			 NULL) &&
	     parent == fs->sb.rootino;
	inode_release(&ip);
	findings_free(&fl);
	return ok;
}

/*
 * A root directory elsewhere than computed, as after a change of stripe
 * unit: the stripe unit that would put it there, from a superblock copy
 * that is sound, else a power of two; said, not written (-n).
 */
static void guess_sunit(struct repair *r)
{
	struct fs *fs = r->fs;
	const struct fs_sb *sb = &fs->sb;
	struct rp_args a = RP_ARGS_INIT(OBJ_SB);
	uint64_t maxguess = (1ull << 40) >> sb->blocklog;
	uint32_t sunit = 0;
	bool found = false;

	a.obj.agno = 0;
	for (xfs_agnumber_t agno = 1; agno < sb->agcount && !found; agno++) {
		struct fs_buf *bp;
		struct fs_sb sec;

		if (fs_read_sb(fs, agno, NULL, &bp))
			continue;
		if (sbc_check(bp->data, bp->len, false, &sec, NULL) == SBC_OK &&
		    calc_rootino(fs, sec.unit) == sb->rootino) {
			sunit = sec.unit;
			found = true;
			a.obj.agno = agno;
			rp_say(NULL, PR_RP_SB_UNIT_FROM_AG, &a);
		}
		buf_release(bp);
	}
	for (uint64_t guess = 1; !found && guess <= maxguess; guess *= 2) {
		if (calc_rootino(fs, (uint32_t)guess) == sb->rootino) {
			sunit = (uint32_t)guess;
			found = true;
			rp_say(NULL, PR_RP_SB_UNIT_GUESSED, &a);
		}
	}
	if (!found) {
		rp_say(NULL, PR_RP_SB_UNIT_UNKNOWN, &a);
		return;
	}
	a.found = sunit;
	rp_say(NULL, PR_RP_SB_UNIT_RESET, &a);
	/* the width must stay a multiple of the unit */
	if (sunit && sb->width % sunit)
		rp_say(NULL, PR_RP_SB_WIDTH_RESET, &a);
}

static void check_mkfs_inodes(struct repair *r)
{
	xfs_ino_t root = calc_rootino(r->fs, r->fs->sb.unit);

	if (r->fs->sb.rootino != root && root_plausible(r)) {
		struct rp_args a = RP_ARGS_INIT(OBJ_SB);

		a.obj.agno = 0;
		a.found = r->fs->sb.rootino;
		a.expected = root;
		rp_say(NULL, PR_RP_SB_ROOT_UNALIGNED, &a);
		guess_sunit(r);
		root = r->fs->sb.rootino;
	}

	check_sb_ino(PR_RP_SB_ROOTINO, &r->fs->sb.rootino, root);
	check_sb_ino(PR_RP_SB_RBMINO, &r->fs->sb.rbmino, root + 1);
	check_sb_ino(PR_RP_SB_RSUMINO, &r->fs->sb.rsumino, root + 2);
}

/*
 * Feature bits this repair does not know, in the primary: the reference
 * names them (each word masked to the unknown bits) and stops before
 * phase 2, whatever else it would find.  (No compat bit is known.)
 */
static void check_sb_features(struct repair *r)
{
	const struct fs_sb *sb = &r->fs->sb;
	struct rp_args a = RP_ARGS_INIT(OBJ_SB);

	a.obj.agno = 0;
	a.found = sb->features_compat;
	a.expected = sb->features_ro_compat & ~XFS_SB_FEAT_RO_COMPAT_ALL;
	a.v2 = sb->features_incompat & ~XFS_SB_FEAT_INCOMPAT_ALL;
	if (!a.found && !a.expected && !a.v2)
		return;
	rp_say(NULL, PR_RP_SB_UNKNOWN_FEATURES, &a);
	exit(RP_EXIT_FOUND);
}

/*
 * The reference treats a filesystem of many AGs or with a stripe unit as
 * spread over several disks, and then strides over its AGs (which also
 * turns on the -t progress reports) unless prefetching is off or a stride
 * was given: a negative one (-o ag_stride=-1, or a number too large for
 * an int) strides over nothing.
 */
#define RP_MULTIDISK_AGCOUNT	32

static void setup_threads(struct repair *r)
{
	unsigned agcount = r->fs->geo.agcount;
	unsigned ncpu = rp_default_threads();

	if (r->o.ag_stride == 0 && r->o.prefetch &&
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

/* The machine's memory in KiB, as the reference reckons it. */
static unsigned long physmem_kib(void)
{
	struct sysinfo si;

	if (sysinfo(&si) < 0) {
		fprintf(stderr, "%s: can't determine memory size\n",
			rp_progname());
		exit(RP_EXIT_FOUND);
	}
	return (unsigned long)(si.totalram >> 10) * si.mem_unit;
}

/*
 * The reference's memory check and block cache size, in KiB.  About 4
 * bytes an inode, 1 byte for 2 blocks and 50 MB of overhead must fit in
 * -m (or in 3/4 of the machine's memory, and in 80% of the address space
 * limit, whose soft value is raised to the hard one); scripts rely on
 * its refusal of a -m that is too small.  What is left, at most 1 TiB,
 * is the block cache, in inode clusters: 8 entries to a hash bucket, at
 * least 512 buckets.  -o bhash gives the bucket count instead and skips
 * all of this.
 *
 * Our maps take less (they are per extent and per chunk), and our cache
 * is also bounded in bytes (set_cache_size), but the entry count is kept
 * as a real limit, so that what -v says of the cache is true of ours.
 */
#define RP_HASH_CACHE_RATIO	8
#define RP_BHASH_MIN		512
#define RP_BHASH_DEFAULT	1024	/* -o bhash=0 */

static void size_cache(struct repair *r)
{
	const struct fs_sb *sb = &r->fs->sb;
	unsigned long used = (unsigned long)(sb->icount >> 8) +
			     (unsigned long)(sb->dblocks >> 11) + 50000;
	unsigned long max_mem, clusters;
	struct rlimit rl;
	int bhash;

	if (r->o.bhash_given) {
		bhash = r->o.bhash > 0 ? r->o.bhash : RP_BHASH_DEFAULT;
		goto set;
	}
	if (r->o.max_mem_mb)
		max_mem = (unsigned long)r->o.max_mem_mb * 1024;
	else
		max_mem = physmem_kib() * 3 / 4;
	if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_AS, &rl);
		if (max_mem > rl.rlim_cur / 1280)
			max_mem = rl.rlim_cur / 1280;
	} else if (max_mem > (unsigned long)(LONG_MAX >> 10) + 1) {
		max_mem = (unsigned long)(LONG_MAX >> 10) + 1;
	}
	if (r->o.verbose > 1)
		rp_log(NULL, "        - max_mem = %lu, icount = %llu, imem = %llu, dblock = %llu, dmem = %llu\n",
		       max_mem, (unsigned long long)sb->icount,
		       (unsigned long long)(sb->icount >> 8),
		       (unsigned long long)sb->dblocks,
		       (unsigned long long)(sb->dblocks >> 11));
	if (max_mem <= used) {
		if (r->o.max_mem_mb) {
			fprintf(stderr, "Required memory for repair is greater that the maximum specified\n"
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
		max_mem = used;
	}
	max_mem -= used;
	if (max_mem >= 1ul << 30)
		max_mem = 1ul << 30;
	clusters = RP_HASH_CACHE_RATIO * (r->fs->geo.cluster_size >> 10);
	bhash = (int)(max_mem / (clusters ? clusters : 1));
	if (bhash < RP_BHASH_MIN)
		bhash = RP_BHASH_MIN;
	if (r->o.verbose)
		rp_log(NULL, "        - block cache size set to %d entries\n",
		       bhash * RP_HASH_CACHE_RATIO);
set:
	bcache_set_max_entries(r->fs->bc,
			       (uint64_t)bhash * RP_HASH_CACHE_RATIO);
}

/*
 * -vv, at the end of each phase that used the buffer cache: the
 * reference's cache report, line for line, so that what reads it keeps
 * working; the figures are our cache's (repair/DIFFERENCES.md says where
 * the two caches differ).  Our cache keeps one clock list, so every
 * evictable buffer is at "MRU 0".
 */
#define RP_CACHE_PRIORITIES	16

static void cache_report(struct repair *r)
{
	struct bcache_stats st;
	uint64_t total;

	if (r->o.verbose < 2 || !r->fs || !r->fs->bc)
		return;
	bcache_get_stats(r->fs->bc, &st);
	total = st.hits + st.misses;
	if (!total)
		return;
	rp_log(NULL, "libxfs_bcache: %p\n"
	       "Max supported entries = %llu\n"
	       "Max utilized entries = %llu\n"
	       "Active entries = %llu\n"
	       "Hash table size = %llu\n"
	       "Hits = %llu\n"
	       "Misses = %llu\n"
	       "Hit ratio = %5.2f\n",
	       (void *)r->fs->bc,
	       (unsigned long long)st.max_entries,
	       (unsigned long long)st.peak_entries,
	       (unsigned long long)st.entries,
	       (unsigned long long)(st.max_entries / RP_HASH_CACHE_RATIO),
	       (unsigned long long)st.hits, (unsigned long long)st.misses,
	       (double)st.hits * 100 / (double)total);
	for (int i = 0; i <= RP_CACHE_PRIORITIES; i++) {
		uint64_t n = i == 0 ? st.idle :
			     i == RP_CACHE_PRIORITIES ? st.idle_dirty : 0;

		rp_log(NULL, "%sMRU %d entries = %6llu (%3llu%%)\n",
		       i == RP_CACHE_PRIORITIES ? "Dirty " : "", i,
		       (unsigned long long)n,
		       (unsigned long long)(st.entries ? n * 100 / st.entries : 0));
	}
}

/* A phase ends: the -vv cache report, then the time (progress.c). */
static void phase_end(struct repair *r, int phase)
{
	cache_report(r);
	prog_phase_end(phase);
}

/*
 * XFSKIT_REPAIR_STATS=1: what the run held in memory, for tuning and
 * benchmarks (not a reference behaviour, so not part of -vv).
 */
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
	rp_log(NULL, "        - phase 3: %s\n",
	       r->p3_run == P3_AT_ONCE ? "AGs walked at once" :
	       r->p3_run == P3_UNDONE ? "AGs walked at once, undone, walked in turn" :
	       "AGs walked in turn");
}

/* Everything the phases built (the sanitizer build checks nothing leaks). */
static void free_state(struct repair *r)
{
	if (r->ags) {
		for (unsigned i = 0; i < r->fs->geo.agcount; i++) {
			sm_list_free(&r->ags[i].disk_rmaps);
			sm_list_free(&r->ags[i].free_bno);
			sm_list_free(&r->ags[i].free_cnt);
			sm_list_free(&r->ags[i].meta);
			free(r->ags[i].bstate);
			free(r->ags[i].bkept);
			sm_refc_free(&r->ags[i].disk_refcs);
			findings_free(&r->ags[i].deferred);
			findings_free(&r->ags[i].stale_rmaps);
			free(r->ags[i].fino_seeds);
			free(r->ags[i].ino_refused);
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
	phase_end(&r, 1);

	setup_threads(&r);
	prog_init(r.fs->geo.agcount, r.o.report_interval,
		  r.o.ag_stride > 0 && r.o.report_interval > 0);
	if (r.o.ag_stride > 0 && r.o.report_interval > 0) {
		char dur[128];

		rp_log(NULL, "        - reporting progress in intervals of %s\n",
		       prog_duration(r.o.report_interval, dur, sizeof(dur)));
	}
	size_cache(&r);
	check_mkfs_inodes(&r);
	check_sb_features(&r);

	phase2(&r);
	rp_upgrade(&r);
	phase_end(&r, 2);
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
	phase_end(&r, 3);
	phase4(&r);
	phase_end(&r, 4);
	phase5(&r);	/* compares what phase 5 would rebuild */
	printf("No modify flag set, skipping phase 5\n");
	rp_rt_check(&r);
	phase_end(&r, 5);
	if (!r.bad_ino_btree) {
		phase6(&r);
		phase_end(&r, 6);
		phase7(&r);
		phase_end(&r, 7);
	} else {
		struct rp_args a = RP_ARGS_INIT(OBJ_FS);

		rp_say(NULL, PR_RP_INO_BTREES_BAD, &a);
	}
	rp_quota_check(&r);
	prog_fini();

	if (getenv("XFSKIT_REPAIR_STATS"))
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
