/*
 * xfs_repair: shared state of the phases.
 *
 * The checker runs the reference's seven phases over one struct repair.
 * Phase 1 finds a usable superblock and opens the filesystem; phase 2
 * checks the log, the AG headers and the AG btrees and starts the space
 * map (struct spacemap, spacemap.h); phase 3 checks every inode and adds
 * what each one owns; phase 4 finds blocks claimed twice; phase 5 derives
 * the AG btrees from the space map and compares them with what is on
 * disk; phase 6 walks the namespace; phase 7 checks link counts and the
 * superblock summary counters.  Each phase file says what it reads from
 * this structure and what it leaves in it.
 *
 * Nothing here writes to the filesystem: the device is opened read-only
 * under -n (the only mode this tool implements so far).
 */
#ifndef XK_REPAIR_H
#define XK_REPAIR_H

#include <stdatomic.h>
#include "fs.h"
#include "report.h"

struct spacemap;
struct inomap;

/* Exit codes of the reference. */
#define RP_EXIT_CLEAN		0
#define RP_EXIT_FOUND		1	/* -n found problems, or a fatal error */
#define RP_EXIT_DIRTY_LOG	2	/* the log must be replayed first */
#define RP_EXIT_CORRECTED	4	/* -e: something was repaired */

/* The reference's default progress interval: 15 minutes. */
#define RP_REPORT_INTERVAL_DEFAULT	(15 * 60)

struct repair_opts {
	const char	*device;
	const char	*logdev;	/* -l */
	const char	*rtdev;		/* -r */
	bool		no_modify;	/* -n */
	bool		isa_file;	/* -f, or detected */
	bool		zap_log;	/* -L */
	bool		dangerously;	/* -d */
	bool		report_corrected; /* -e */
	bool		dumpcore;	/* -D */
	bool		prefetch;	/* not -P */
	int		verbose;	/* -v, repeatable */
	long		max_mem_mb;	/* -m, 0: not given */
	long		report_interval; /* -t, seconds */
	bool		interval_given;
	/* -o */
	bool		assume_xfs;
	bool		force_geo;
	long		ag_stride;
	long		phase2_threads;
	long		bhash;
	bool		noquota;
	/* -c: conversions belong to the fixing half; recorded only */
	long		lazy_count;	/* -1: not asked */
	unsigned	conversions;	/* RP_CONV_* bits asked for */
};

#define RP_CONV_INOBTCOUNT	(1u << 0)
#define RP_CONV_BIGTIME		(1u << 1)
#define RP_CONV_NREXT64		(1u << 2)

/* What phase 2 read from one AG's headers, for the later phases. */
struct rp_ag {
	bool		agf_ok;		/* AGF usable (magic, seqno, geometry) */
	bool		agi_ok;
	uint32_t	length;		/* blocks in this AG */
	/* AGF */
	uint32_t	bno_root, bno_level;
	uint32_t	cnt_root, cnt_level;
	uint32_t	rmap_root, rmap_level;
	uint32_t	refc_root, refc_level;
	uint32_t	flfirst, fllast, flcount;
	uint32_t	freeblks, longest, btreeblks;
	uint32_t	rmap_blocks, refcount_blocks;
	/* AGI */
	uint32_t	icount, ifree;
	uint32_t	ino_root, ino_level;
	uint32_t	fino_root, fino_level;
	uint32_t	iblocks, fblocks;
	uint32_t	unlinked[64];
	/* counted while walking the trees */
	uint64_t	cnt_free_bno;	/* free blocks in the bnobt */
	uint64_t	cnt_inodes, cnt_ifree;
};

struct repair {
	struct repair_opts	o;
	struct fs		*fs;
	struct rp_report	rep;
	unsigned		nthreads;	/* per-AG workers */
	struct rp_ag		*ags;		/* agcount of them */
	struct spacemap		*smap;		/* observed owners, per AG */
	struct inomap		*imap;		/* every inode seen */
	/* set by the phases */
	bool			bad_ino_btree;	/* phases 6 and 7 skipped */
	bool			log_dirty;
	/* summary counters counted from the AG headers (phase 2) */
	uint64_t		cnt_icount, cnt_ifree, cnt_fdblocks;
};

/* Phases (phase1.c ... phase7.c). */
int phase1(struct repair *r);
void phase2(struct repair *r);
void phase3(struct repair *r);
void phase4(struct repair *r);
void phase5(struct repair *r);
void phase6(struct repair *r);
void phase7(struct repair *r);

/* Fatal: print and exit 1 (the reference's do_error / do_abort). */
_Noreturn void rp_fatal(struct repair *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
