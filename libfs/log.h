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
/* Writing a clean log                                                 */
/* ------------------------------------------------------------------ */

#define LOG_FORMAT_NOZERO	(1u << 0)	/* range already reads as zeroes */
#define LOG_FORMAT_MAXREC	(1u << 1)	/* 256 KiB filler records */
#define LOG_FORMAT_CRC		(1u << 2)	/* stamp real record CRCs */

/*
 * log_format(): write a clean, empty log over [start_byte, start_byte +
 * len_bytes) of dev, as mkfs.xfs does (and xfs_repair -L, and repair when
 * metadata LSNs are ahead of the log).  Returns 0 or a negative errno;
 * -EINVAL for a range that is not a whole number of KiB (v5 logs always
 * are), too small for one record, a sunit over 256 KiB or a bad cycle.
 *
 *   uuid        the superblock's sb_uuid (not meta_uuid): log records name
 *               the filesystem by it.
 *   sunit_bytes sb_logsunit: 0 or 1 mean none; otherwise every record is
 *               padded to that many bytes (rounded up to 512), and
 *               records over 32 KiB get extended headers.
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
 * The device is not synced; the caller does that once at the end.
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
