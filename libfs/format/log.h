/*
 * The journal (journaling_log.asciidoc).  The log is a ring of 512-byte
 * basic blocks.  Each log record starts with a header sector; the first
 * 4 bytes of every following sector are overwritten with the record's cycle
 * number, and the bytes they replaced are kept in h_cycle_data[] (and in
 * extended headers for large records, v2 logs).
 */
#ifndef XK_FORMAT_LOG_H
#define XK_FORMAT_LOG_H

#include "types.h"

#define XLOG_HEADER_MAGIC_NUM	0xFEEDbabeu
#define XLOG_VERSION_1		1
#define XLOG_VERSION_2		2
#define XLOG_HEADER_CYCLE_SIZE	(32 * 1024)	/* cycle_data covers 32k */
#define XLOG_HEADER_SIZE	512
#define XLOG_MAX_RECORD_BSIZE	(256 * 1024)
#define XLOG_FMT_LINUX_LE	1
#define XLOG_FMT_LINUX_BE	2
#define XLOG_FMT_IRIX_BE	3

/* Operation header flags and client ids. */
#define XLOG_START_TRANS	0x01
#define XLOG_COMMIT_TRANS	0x02
#define XLOG_CONTINUE_TRANS	0x04
#define XLOG_WAS_CONT_TRANS	0x08
#define XLOG_END_TRANS		0x10
#define XLOG_UNMOUNT_TRANS	0x20
#define XFS_TRANSACTION		0x69
#define XFS_LOG			0xaa

#define XLOG_UNMOUNT_TYPE	0x556e		/* "Un" */

struct xlog_rec_header {
	be32		h_magicno;
	be32		h_cycle;
	be32		h_version;
	be32		h_len;		/* bytes of log data after header */
	be64		h_lsn;		/* cycle << 32 | block of this record */
	be64		h_tail_lsn;
	le32		h_crc;
	be32		h_prev_block;
	be32		h_num_logops;
	be32		h_cycle_data[XLOG_HEADER_CYCLE_SIZE / BBSIZE];
	/* v2 */
	be32		h_fmt;
	xfs_uuid_t	h_fs_uuid;
	be32		h_size;		/* iclog size */
};

_Static_assert(offsetof(struct xlog_rec_header, h_crc) == 32, "h_crc");
_Static_assert(sizeof(struct xlog_rec_header) == 324, "log rec header");

/* Extended header for records larger than 32 KiB (v2 logs). */
struct xlog_rec_ext_header {
	be32		xh_cycle;
	be32		xh_cycle_data[XLOG_HEADER_CYCLE_SIZE / BBSIZE];
};

struct xlog_op_header {
	be32		oh_tid;
	be32		oh_len;
	uint8_t		oh_clientid;
	uint8_t		oh_flags;
	be16		oh_res2;
};
_Static_assert(sizeof(struct xlog_op_header) == 12, "op header");

static inline uint32_t lsn_cycle(xfs_lsn_t lsn)
{
	return (uint32_t)((uint64_t)lsn >> 32);
}

static inline uint32_t lsn_block(xfs_lsn_t lsn)
{
	return (uint32_t)lsn;
}

static inline xfs_lsn_t lsn_make(uint32_t cycle, uint32_t block)
{
	return (xfs_lsn_t)(((uint64_t)cycle << 32) | block);
}

#endif
