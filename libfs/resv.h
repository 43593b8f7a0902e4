/*
 * Transaction log reservations and the smallest log a geometry allows.
 *
 * The kernel refuses to mount a filesystem whose log cannot hold two of
 * its largest transactions (plus padding); mkfs sizes small logs, and
 * refuses too-small ones, from the same figure.  The figure comes from
 * the per-transaction log reservations of the kernel's libxfs as of
 * Linux/xfsprogs 6.1 (xfs_trans_resv.c, xfs_log_rlimit.c), including its
 * deliberate "minimum log size" variants that keep the historical
 * figures of early reflink and rmap filesystems.  Everything here is
 * arithmetic on a description of the superblock; nothing reads a disk.
 *
 * In: struct resv_geom (v5 superblock, version 2 log).  Out: btree
 * heights and reservation sizes in bytes, and the minimum log size in
 * filesystem blocks.
 */
#ifndef XK_RESV_H
#define XK_RESV_H

#include <stdbool.h>
#include <stdint.h>

struct resv_geom {
	uint32_t	blocksize;
	uint32_t	sectsize;
	uint32_t	inodesize;
	uint32_t	agblocks;	/* sb_agblocks */
	unsigned	agblklog;	/* sb_agblklog */
	uint32_t	dirblocksize;	/* bytes */
	uint32_t	inoalignmt;	/* sb_inoalignmt, blocks */
	uint32_t	logsunit;	/* sb_logsunit, bytes (0 or 1: none) */
	uint64_t	rblocks;	/* realtime blocks (0: no realtime) */
	uint32_t	rextsize;	/* realtime extent, blocks */
	bool		finobt, rmapbt, reflink, nrext64;
};

/* Heights of the per-AG and per-inode btrees for this geometry. */
struct resv_levels {
	unsigned	alloc;		/* bnobt, cntbt */
	unsigned	inobt;		/* inobt, finobt */
	unsigned	rmap;		/* 0 without rmapbt */
	unsigned	refc;		/* 0 without reflink */
	unsigned	bmap_data, bmap_attr;
};

void resv_levels(const struct resv_geom *g, struct resv_levels *lv);

/*
 * Blocks a fresh AG keeps on its free list: one more than each free-space
 * tree's (and the reverse map's) current height of one, capped at the
 * trees' largest possible height (xfs_alloc_min_freelist).
 */
unsigned resv_min_freelist(const struct resv_geom *g);

/* One transaction type: bytes per log operation, and operation count. */
struct resv_trans {
	uint32_t	logres;
	int		logcount;
};

/*
 * The largest reservation the minimum log size is computed from (with
 * the minimum-log-size variants applied), as the kernel picks it.
 */
void resv_max_trans(const struct resv_geom *g, struct resv_trans *max);

/* Bytes the log needs for one operation of logres bytes (headers, padding). */
uint32_t resv_unit_bytes(const struct resv_geom *g, uint32_t logres);

/* The smallest valid log for this geometry, in filesystem blocks. */
uint32_t resv_min_log_blocks(const struct resv_geom *g);

#endif
