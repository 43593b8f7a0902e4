/*
 * Phase timing, the -t progress reports and the -v summary, in the
 * reference's formats.  Progress reports run (as in the reference) only
 * when AGs are processed in parallel strides (-o ag_stride, or the
 * stride chosen for a multi-disk filesystem) and an interval is set; the
 * phases count their work with prog_add(), and each piece of work ends
 * with prog_end(), which reports it done.
 */
#ifndef XK_REPAIR_PROGRESS_H
#define XK_REPAIR_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

/* What a phase is counting (the reference's report kinds). */
enum prog_kind {
	PROG_ZERO_LOG,
	PROG_SCAN_FREESPACE,
	PROG_SCAN_UNLINKED,
	PROG_CHECK_UNCERTAIN,
	PROG_PROCESS_INODES,
	PROG_NEW_INODES,
	PROG_SETUP_DUPS,
	PROG_INIT_RTBITMAP,
	PROG_RESET_RTBITMAP,
	PROG_DUP_INODES,
	PROG_REBUILD_AG,
	PROG_TRAVERSE,
	PROG_TRAVERSE_UNATTACHED,
	PROG_MOVE_DISCONNECTED,
	PROG_FIX_NLINKS,
	PROG_NKINDS
};

void prog_init(unsigned nags, long interval, bool enabled);
void prog_fini(void);
/* Start counting a kind of work of the given total. */
void prog_set(enum prog_kind kind, uint64_t total);
void prog_add(unsigned agno, uint64_t n);
/* The kind of work counted is finished: with -t, its final report. */
void prog_end(void);

void prog_phase_start(int phase);
void prog_phase_end(int phase);
/* "1 minute, 5 seconds" */
char *prog_duration(time_t secs, char *buf, size_t len);
/* The -v summary table. */
void prog_summary(bool no_modify, bool skipped67);

#endif
