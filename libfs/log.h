/*
 * The journal (log): finding its head and tail, verifying its records,
 * walking records and their operations, and writing a clean log.
 *
 * The log is a ring of 512-byte basic blocks (journaling_log.asciidoc).
 * Every block starts with the cycle number it was last written in (record
 * headers carry it in h_cycle, after the magic), so the ring reads like
 *
 *     cycle c c c c c | c-1 c-1 c-1 ...        (or zeroes, never written)
 *                     ^ head: where the next record would go
 *
 * What goes in: a struct fs_log describing where the log lives (a device
 * and a byte range, or a memory buffer for tests), the filesystem UUID and
 * the log stripe unit.  What comes out: struct log_pos (head, tail, clean
 * or dirty or zeroed) and findings (LOG_* problem codes) for whatever
 * breaks the format.  What stays true: nothing outside [0, bbs) of the log
 * is ever read or written, whatever the blocks say.
 *
 * The head and tail are found the way the kernel's log recovery finds them
 * (a binary search for the cycle change, a bounded scan for holes left by
 * writes in flight, then backing up to the last complete record header),
 * so that our answer is the one a mount would act on.
 */
#ifndef XK_LOG_H
#define XK_LOG_H

#include "format/log.h"
#include "device.h"
#include "findings.h"

struct fs;

/* Log geometry the kernel's recovery assumes (xfs_log_priv.h facts). */
#define LOG_MAX_ICLOGS		8	/* records in flight at once */
#define LOG_MIN_ICLOG_SIZE	(16 * 1024)
#define LOG_REC_SCAN_BBS	(XLOG_MAX_RECORD_BSIZE / BBSIZE)	/* 512 */
#define LOG_TOTAL_SCAN_BBS	(LOG_MAX_ICLOGS * LOG_REC_SCAN_BBS)	/* 4096 */
/*
 * Bytes of the first header sector covered by the record CRC.  The kernel
 * sums sizeof(struct xlog_rec_header), which is 328 on every architecture
 * but i386 (324, no tail padding); a CRC matching either is accepted.
 */
#define LOG_REC_CRC_SIZE	328
#define LOG_REC_CRC_SIZE_I386	324
#define LOG_EXT_CRC_SIZE	260	/* struct xlog_rec_ext_header */

/* Cycle data slots per header sector: one per 512 bytes of 32 KiB. */
#define LOG_CYCLE_SLOTS		(XLOG_HEADER_CYCLE_SIZE / BBSIZE)	/* 64 */

/* ------------------------------------------------------------------ */
/* Where the log is                                                    */
/* ------------------------------------------------------------------ */

struct fs_log {
	/* read len bytes at byte offset off of the log (always in range) */
	int		(*read)(struct fs_log *log, uint64_t off, void *buf,
				size_t len);
	struct fs_dev	*dev;		/* device log, or NULL */
	uint64_t	start;		/* byte offset of block 0 on dev */
	const uint8_t	*mem;		/* memory log, or NULL */
	uint32_t	bbs;		/* size in basic blocks */
	xfs_daddr_t	daddr;		/* daddr of block 0, for findings */
	xfs_uuid_t	uuid;		/* sb_uuid: what records must name */
	uint32_t	sunit;		/* sb_logsunit in bytes, 0: none */
};

/*
 * Describe a log on a device or in memory.  -EINVAL for a range that is
 * not whole basic blocks, empty, or over 2^32 blocks; -ENOSPC if it runs
 * past the device.
 */
int log_init_dev(struct fs_log *log, struct fs_dev *dev, uint64_t start_byte,
		 uint64_t len_bytes, const xfs_uuid_t *uuid,
		 unsigned sunit_bytes);
int log_init_mem(struct fs_log *log, const void *buf, uint64_t len_bytes,
		 const xfs_uuid_t *uuid, unsigned sunit_bytes);
/*
 * The log of an open filesystem, from its superblock: internal (sb
 * logstart != 0, on fs->dev) or external (fs->logdev; -ENODEV if the
 * caller opened none).  A log past the end of its device is reported as
 * LOG_OUTSIDE_DEV and refused with -EUCLEAN.
 */
int log_init_fs(struct fs_log *log, struct fs *fs, struct fs_findings *fl);

/*
 * Where a filesystem's log is: the data device at sb_logstart for an
 * internal log, else fs->logdev from byte 0.  -EUCLEAN without a verified
 * superblock, -ENODEV for an external log nobody opened.
 */
int log_region(struct fs *fs, struct fs_dev **devp, uint64_t *startp,
	       uint64_t *lenp);

/* ------------------------------------------------------------------ */
/* Head, tail, state                                                   */
/* ------------------------------------------------------------------ */

enum log_state {
	LOG_STATE_ZEROED,	/* block 0 was never written */
	LOG_STATE_CLEAN,	/* an unmount record ends at the head */
	LOG_STATE_DIRTY,	/* there is something to replay */
	LOG_STATE_CORRUPT,	/* no head or tail could be found */
};

struct log_pos {
	enum log_state	state;
	uint32_t	head_blk;	/* where the next record goes */
	uint32_t	head_cycle;	/* and the cycle it gets */
	uint32_t	rec_blk;	/* header block of the last record */
	xfs_lsn_t	rec_lsn;	/* its LSN */
	xfs_uuid_t	rec_uuid;	/* the filesystem UUID it names */
	xfs_lsn_t	tail_lsn;	/* the tail LSN it records */
	uint32_t	tail_blk;	/* first block to replay (head if clean) */
	bool		trimmed;	/* head moved back over a torn write */
};

const char *log_state_name(enum log_state s);

/* LSN order: cycle, then block. */
static inline int log_lsn_cmp(xfs_lsn_t a, xfs_lsn_t b)
{
	if (lsn_cycle(a) != lsn_cycle(b))
		return lsn_cycle(a) < lsn_cycle(b) ? -1 : 1;
	if (lsn_block(a) != lsn_block(b))
		return lsn_block(a) < lsn_block(b) ? -1 : 1;
	return 0;
}

/* The LSN the next record would get: metadata must not be beyond it. */
static inline xfs_lsn_t log_head_lsn(const struct log_pos *p)
{
	return lsn_make(p->head_cycle, p->head_blk);
}

/*
 * Find the head and tail as log recovery does, and say whether the log is
 * clean.  Only what the search itself trips over is reported (no header
 * before the head, a hole of blocks owned by no record); records are not
 * checked.  Returns 0 (see pos->state) or a negative errno for I/O.
 */
int log_find_head(struct fs_log *log, struct log_pos *pos,
		  struct fs_findings *fl);

/*
 * Log recovery refuses a log whose last block was never written (cycle
 * 0) while its first block was written in a cycle other than 1: that is
 * not a log that filled from the start.  Says whether this one is such.
 */
bool log_not_a_log(struct fs_log *log);

/*
 * log_find_head() and then verify: the unmount record of a clean log, and
 * every record from the tail to the head of a dirty one.  A bad record
 * among the last LOG_MAX_ICLOGS before the head is a torn write: it is
 * reported as LOG_TORN_WRITE, and the head moves back over it (pos->
 * trimmed), as the kernel does.  A zeroed or dirty log is reported too
 * (LOG_ZEROED, LOG_DIRTY: warnings).
 */
int log_check(struct fs_log *log, struct log_pos *pos,
	      struct fs_findings *fl);

/* ------------------------------------------------------------------ */
/* Records and operations                                              */
/* ------------------------------------------------------------------ */

struct log_rec {
	uint32_t	blk;		/* header block in the log */
	uint32_t	hblks;		/* header sectors (1 + extended) */
	uint32_t	bblks;		/* data sectors */
	/* the header, decoded */
	uint32_t	cycle;
	uint32_t	version;
	uint32_t	len;		/* data bytes */
	xfs_lsn_t	lsn;
	xfs_lsn_t	tail_lsn;
	uint32_t	crc;
	uint32_t	prev_block;
	uint32_t	num_logops;
	uint32_t	fmt;
	xfs_uuid_t	uuid;
	uint32_t	size;		/* h_size */
	/* buffers, owned by the record (log_rec_release frees them) */
	uint8_t		*hdr;		/* hblks sectors as on disk */
	uint8_t		*raw;		/* data sectors as on disk */
	uint8_t		*data;		/* the same, unpacked: len bytes */
	size_t		cap;		/* bytes allocated in each of the above */
};

/*
 * Read the record whose header is at block blk.  A header that cannot be
 * used (bad magic, sizes that would run past the log or its own cycle
 * data) is reported and refused with -EUCLEAN; anything else wrong is for
 * log_rec_verify().  rec's buffers are reused across calls.
 */
int log_rec_read(struct fs_log *log, uint32_t blk, struct log_rec *rec,
		 struct fs_findings *fl);
/* Check everything about a record read; returns the number of errors. */
unsigned log_rec_verify(struct fs_log *log, const struct log_rec *rec,
			struct fs_findings *fl);
void log_rec_release(struct log_rec *rec);
/* Is this a record of one unmount operation (what ends a clean log)? */
bool log_rec_is_unmount(const struct log_rec *rec);

struct log_op {
	unsigned	index;		/* 0.. in the record */
	uint32_t	offset;		/* of the op header in the data */
	uint32_t	tid;
	uint32_t	len;
	uint8_t		clientid;
	uint8_t		flags;
	const uint8_t	*data;		/* len bytes of payload */
};

struct log_op_iter {
	const struct log_rec	*rec;
	uint32_t		off;
	unsigned		index;
};

void log_op_iter_init(struct log_op_iter *it, const struct log_rec *rec);
/*
 * Next operation: 1 and *op, 0 after num_logops operations or at the end
 * of the data, -EUCLEAN (LOG_BAD_OP) for a header that does not fit or
 * names no known client.  fl may be NULL; log gives the finding's place.
 */
int log_op_next(struct log_op_iter *it, struct fs_log *log,
		struct log_op *op, struct fs_findings *fl);

/*
 * Records from block from up to block to (exclusive; from == to: none),
 * following each record's length around the ring.  log_iter_next()
 * returns 1 and a record, 0 when to is reached exactly, or -EUCLEAN
 * (LOG_CHAIN_BROKEN or the record's own finding) when a record cannot be
 * read or runs past to.
 */
struct log_iter {
	struct fs_log	*log;
	uint32_t	next;
	uint32_t	to;
	uint64_t	walked;		/* blocks so far, bounded by the log */
	bool		done;
	struct log_rec	rec;
};

void log_iter_init(struct log_iter *it, struct fs_log *log, uint32_t from,
		   uint32_t to);
int log_iter_next(struct log_iter *it, const struct log_rec **recp,
		  struct fs_findings *fl);
void log_iter_release(struct log_iter *it);

/* ------------------------------------------------------------------ */
/* Writing a clean log                                                 */
/* ------------------------------------------------------------------ */

#define LOG_FORMAT_NOZERO	(1u << 0)	/* range already reads as zeroes */
#define LOG_FORMAT_MAXREC	(1u << 1)	/* 256 KiB filler records */
#define LOG_FORMAT_CRC		(1u << 2)	/* stamp real record CRCs */

/*
 * log_format(): write a clean, empty log over [start_byte, start_byte +
 * len_bytes) of dev, as mkfs.xfs does (and xfs_repair -L, and repair when
 * metadata LSNs are ahead of the log).  Returns 0 or a negative errno;
 * -EINVAL for a range that is not whole 512-byte blocks or is too small
 * for one record, a sunit that is not whole blocks or is over 256 KiB, or
 * a cycle of 0 or one that would look like the header magic.
 *
 *   uuid        the superblock's sb_uuid (not meta_uuid): log records name
 *               the filesystem by it.
 *   sunit_bytes sb_logsunit: 0 or 1 mean none; otherwise every record is
 *               padded to that many bytes (a multiple of 512; mkfs.xfs
 *               uses the log sector size when there is no stripe unit,
 *               and sb_logsunit says so), and records over 32 KiB get
 *               extended headers.
 *   cycle       1 for a fresh log: one unmount record at block 0 and
 *               zeroes after it; the kernel then mounts at cycle 1,
 *               block 2 (or after the padded record).
 *               N > 1: the unmount record at block 0 has cycle N and the
 *               rest of the log is filled with unmount records of cycle
 *               N - 1, so the head is found right after block 0's record
 *               and every LSN below (N, 0) is in the past.  Use this when
 *               metadata carries LSNs that a cycle-1 log would be behind.
 *   flags       LOG_FORMAT_NOZERO: skip zeroing (the caller zeroed or
 *                 discarded the range; only matters for cycle 1).
 *               LOG_FORMAT_MAXREC: filler records of 256 KiB instead of
 *                 the first record's size, leaving blocks between the
 *                 first record and block 512 zero -- xfs_repair's layout.
 *               LOG_FORMAT_CRC: compute record CRCs.  Without it h_crc is
 *                 0, exactly as xfsprogs writes it; the kernel accepts a
 *                 zero CRC as "not checksummed".
 *
 * The bytes written match xfsprogs 6.1 (libxfs_log_clear) for the same
 * geometry: mkfs is cycle 1; xfs_db "logformat -c N" is cycle N without
 * MAXREC; xfs_repair's reformat to a later cycle is cycle N with MAXREC.
 * Recipes:
 *   mkfs.xfs              log_format(dev, start, len, &sb.uuid,
 *                                    sb.logsunit, 1, 0)
 *   xfs_repair -L         log_format_fs(fs, 1, 0)
 *   repair, when the highest metadata LSN seen is (c, b) and not below
 *   the head (log_head_lsn): log_format_fs(fs, c + 3, LOG_FORMAT_MAXREC)
 *   ("Format log to cycle c+3", as xfsprogs does).
 * Writes go straight to the device, not through the buffer cache (no
 * metadata buffer lives in the log).  The device is not synced; the
 * caller does that once at the end.
 */
int log_format(struct fs_dev *dev, uint64_t start_byte, uint64_t len_bytes,
	       const xfs_uuid_t *uuid, unsigned sunit_bytes, uint32_t cycle,
	       unsigned flags);

/* The same into a memory buffer of len_bytes (tests, images in memory). */
int log_format_buf(void *buf, uint64_t len_bytes, const xfs_uuid_t *uuid,
		   unsigned sunit_bytes, uint32_t cycle, unsigned flags);

/* The log of an open filesystem (internal or fs->logdev), from its sb. */
int log_format_fs(struct fs *fs, uint32_t cycle, unsigned flags);

/*
 * Blocks of the first record log_format() writes (the head block after
 * formatting): max(2, sunit rounded up to 512-byte blocks, headers + 1).
 */
uint32_t log_format_rec_bbs(unsigned sunit_bytes);

/*
 * CRC of one record as on disk: hdr points at its header sectors (hblks
 * of them), data at its h_len bytes of data sectors (cycle-stamped, as
 * written).  hdr_bytes is LOG_REC_CRC_SIZE or LOG_REC_CRC_SIZE_I386.
 * The caller guarantees hblks covers ceil(h_len / 32 KiB) headers.
 */
uint32_t log_record_crc(const void *hdr, const void *data, uint32_t h_len,
			size_t hdr_bytes);

#endif
