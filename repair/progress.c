/*
 * Phase times, -t progress reports and the -v summary (progress.h).
 *
 * What goes in: phase start/end events and per-AG work counts from the
 * phases.  What comes out: the reference's report lines on stderr, every
 * interval seconds from a reporter thread, and the summary table.  What
 * stays true: the counters are only added to (atomics), so the phases
 * never wait for the reporter.
 */
#include "config.h"
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "progress.h"
#include "report.h"

struct prog_desc {
	bool		with_total;	/* "N of M" */
	const char	*msg;
	const char	*unit;
};

static const struct prog_desc descs[PROG_NKINDS] = {
	[PROG_ZERO_LOG] = { true, "zeroing log", "blocks" },
	[PROG_SCAN_FREESPACE] = { true, "scanning filesystem freespace", "allocation groups" },
	[PROG_SCAN_UNLINKED] = { true, "scanning agi unlinked lists", "allocation groups" },
	[PROG_CHECK_UNCERTAIN] = { false, "check uncertain AG inodes", "AGI unlinked buckets" },
	[PROG_PROCESS_INODES] = { true, "process known inodes and inode discovery", "inodes" },
	[PROG_NEW_INODES] = { true, "process newly discovered inodes", "allocation groups" },
	[PROG_SETUP_DUPS] = { true, "setting up duplicate extent list", "allocation groups" },
	[PROG_INIT_RTBITMAP] = { true, "initialize realtime bitmap", "blocks" },
	[PROG_RESET_RTBITMAP] = { true, "reset realtime bitmaps", "allocation groups" },
	[PROG_DUP_INODES] = { true, "check for inodes claiming duplicate blocks", "inodes" },
	[PROG_REBUILD_AG] = { true, "rebuild AG headers and trees", "allocation groups" },
	[PROG_TRAVERSE] = { true, "traversing filesystem", "allocation groups" },
	[PROG_TRAVERSE_UNATTACHED] = { false, "traversing all unattached subtrees", "directories" },
	[PROG_MOVE_DISCONNECTED] = { false, "moving disconnected inodes to lost+found", "inodes" },
	[PROG_FIX_NLINKS] = { true, "verify and correct link counts", "allocation groups" },
};

static struct {
	pthread_mutex_t		lock;
	pthread_cond_t		cond;
	pthread_t		thread;
	bool			running;
	bool			enabled;	/* reports asked for */
	bool			active;		/* a kind is being counted */
	bool			stop;
	long			interval;
	unsigned		nags;
	_Atomic uint64_t	*done;		/* per AG */
	uint64_t		total;
	enum prog_kind		kind;
	int			phase;
	time_t			start[8], end[8];
} P = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.cond = PTHREAD_COND_INITIALIZER,
};

char *prog_duration(time_t secs, char *buf, size_t len)
{
	static const struct { long len; const char *name; } units[] = {
		{ 7 * 24 * 3600, "week" }, { 24 * 3600, "day" },
		{ 3600, "hour" }, { 60, "minute" }, { 1, "second" },
	};
	size_t n = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		long v = secs / units[i].len;

		secs -= v * units[i].len;
		if (!v)
			continue;
		n += snprintf(buf + n, n < len ? len - n : 0, "%s%ld %s%s",
			      n ? ", " : "", v, units[i].name, v > 1 ? "s" : "");
	}
	return buf;
}

static uint64_t sum_done(void)
{
	uint64_t sum = 0;

	for (unsigned i = 0; i < P.nags; i++)
		sum += atomic_load(&P.done[i]);
	return sum;
}

static void report_now(void)
{
	const struct prog_desc *d = &descs[P.kind];
	time_t now = time(NULL), elapsed;
	struct tm tm;
	uint64_t sum = sum_done();
	char dur[128];

	localtime_r(&now, &tm);
	if (d->with_total)
		rp_log(NULL, "        - %02d:%02d:%02d: %s - %llu of %llu %s done\n",
		       tm.tm_hour, tm.tm_min, tm.tm_sec, d->msg,
		       (unsigned long long)sum, (unsigned long long)P.total,
		       d->unit);
	else
		rp_log(NULL, "        - %02d:%02d:%02d: %s - %llu %s done\n",
		       tm.tm_hour, tm.tm_min, tm.tm_sec, d->msg,
		       (unsigned long long)sum, d->unit);
	elapsed = now - P.start[P.phase];
	if (d->with_total && sum && elapsed > 0 &&
	    (P.phase == 3 || P.phase == 4 || P.phase == 7)) {
		uint64_t pct = P.total ? sum * 100 / P.total : 0;
		uint64_t left = P.total > sum ? P.total - sum : 0;

		rp_log(NULL, "\t- %02d:%02d:%02d: Phase %d: elapsed time %s - processed %llu %s per minute\n",
		       tm.tm_hour, tm.tm_min, tm.tm_sec, P.phase,
		       prog_duration(elapsed, dur, sizeof(dur)),
		       (unsigned long long)(60 * sum / (uint64_t)elapsed),
		       d->unit);
		rp_log(NULL, "\t- %02d:%02d:%02d: Phase %d: %llu%% done - estimated remaining time %s\n",
		       tm.tm_hour, tm.tm_min, tm.tm_sec, P.phase,
		       (unsigned long long)pct,
		       prog_duration((time_t)(left * (uint64_t)elapsed / sum),
				     dur, sizeof(dur)));
	}
}

static void *reporter(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&P.lock);
	while (!P.stop) {
		struct timespec ts;
		int err = 0;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += P.interval;
		while (!P.stop && err != ETIMEDOUT)
			err = pthread_cond_timedwait(&P.cond, &P.lock, &ts);
		if (P.stop)
			break;
		if (P.active)
			report_now();
	}
	pthread_mutex_unlock(&P.lock);
	return NULL;
}

void prog_init(unsigned nags, long interval, bool enabled)
{
	P.nags = nags;
	P.interval = interval;
	P.done = calloc(nags ? nags : 1, sizeof(*P.done));
	if (!enabled || interval <= 0 || !P.done)
		return;
	P.enabled = true;
	P.stop = false;
	if (pthread_create(&P.thread, NULL, reporter, NULL) == 0)
		P.running = true;
}

void prog_fini(void)
{
	if (P.running) {
		pthread_mutex_lock(&P.lock);
		P.stop = true;
		pthread_cond_broadcast(&P.cond);
		pthread_mutex_unlock(&P.lock);
		pthread_join(P.thread, NULL);
		P.running = false;
	}
	free(P.done);
	P.done = NULL;
}

void prog_end(void)
{
	const struct prog_desc *d;
	time_t now = time(NULL);
	struct tm tm;

	pthread_mutex_lock(&P.lock);
	if (P.enabled && P.active) {
		/* a finished piece of work is all done: "N of N" */
		d = &descs[P.kind];
		localtime_r(&now, &tm);
		rp_log(NULL, "        - %02d:%02d:%02d: %s - %llu of %llu %s done\n",
		       tm.tm_hour, tm.tm_min, tm.tm_sec, d->msg,
		       (unsigned long long)P.total,
		       (unsigned long long)P.total, d->unit);
	}
	P.active = false;
	pthread_mutex_unlock(&P.lock);
}

void prog_set(enum prog_kind kind, uint64_t total)
{
	pthread_mutex_lock(&P.lock);
	P.active = descs[kind].with_total;
	P.kind = kind;
	P.total = total;
	for (unsigned i = 0; P.done && i < P.nags; i++)
		atomic_store(&P.done[i], 0);
	pthread_mutex_unlock(&P.lock);
}

void prog_add(unsigned agno, uint64_t n)
{
	if (P.done && agno < P.nags)
		atomic_fetch_add(&P.done[agno], n);
}

void prog_phase_start(int phase)
{
	if (phase < 0 || phase > 7)
		return;
	pthread_mutex_lock(&P.lock);
	P.start[phase] = time(NULL);
	P.phase = phase;
	pthread_mutex_unlock(&P.lock);
}

/*
 * XFSKIT_REPAIR_TIMING=1: each phase's wall time in milliseconds on
 * stderr, for benchmarks and profiling (not a reference behaviour).
 */
static void timing(int phase)
{
	static struct timespec last;
	static int inited, on = -1;
	struct timespec now;

	if (on < 0)
		on = getenv("XFSKIT_REPAIR_TIMING") != NULL;
	if (!on)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (inited)
		fprintf(stderr, "[timing] phase %d: %.1f ms\n", phase,
			(double)(now.tv_sec - last.tv_sec) * 1e3 +
			(double)(now.tv_nsec - last.tv_nsec) / 1e6);
	last = now;
	inited = 1;
}

void prog_phase_end(int phase)
{
	time_t now = time(NULL);

	if (phase < 0 || phase > 7)
		return;
	timing(phase);
	pthread_mutex_lock(&P.lock);
	P.end[phase] = now;
	P.end[0] = now;
	if (phase < 7) {
		P.start[phase + 1] = now;
		P.phase = phase + 1;
	}
	pthread_mutex_unlock(&P.lock);
}

void prog_summary(bool no_modify, bool skipped67)
{
	time_t now = time(NULL);
	char when[64], dur[128];

	ctime_r(&now, when);
	rp_log(NULL, "\n        XFS_REPAIR Summary    %s\n", when);
	rp_log(NULL, "Phase\t\tStart\t\tEnd\t\tDuration\n");
	for (int i = 1; i < 8; i++) {
		struct tm s, e;

		if ((no_modify && i == 5) || (skipped67 && (i == 6 || i == 7))) {
			rp_log(NULL, "Phase %d:\tSkipped\n", i);
			continue;
		}
		localtime_r(&P.start[i], &s);
		localtime_r(&P.end[i], &e);
		rp_log(NULL, "Phase %d:\t%02d/%02d %02d:%02d:%02d\t%02d/%02d %02d:%02d:%02d\t%s\n",
		       i, s.tm_mon + 1, s.tm_mday, s.tm_hour, s.tm_min,
		       s.tm_sec, e.tm_mon + 1, e.tm_mday, e.tm_hour, e.tm_min,
		       e.tm_sec,
		       prog_duration(P.end[i] - P.start[i], dur, sizeof(dur)));
	}
	rp_log(NULL, "\nTotal run time: %s\n",
	       prog_duration(P.end[0] - P.start[0], dur, sizeof(dur)));
}
