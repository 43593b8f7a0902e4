/*
 * mkfs's clean-log writer (a stub until libfs/log.h provides
 * log_format(); see logfmt.c) and the zeroing helper it shares with
 * write.c.
 */
#ifndef XK_MKFS_LOG_H
#define XK_MKFS_LOG_H

#include "device.h"
#include "format/types.h"

/* Make [off, off+len) of dev read as zeroes (punch, zeroout or write). */
int mkfs_zero_range(struct fs_dev *dev, uint64_t off, uint64_t len);

/*
 * A clean log of len bytes at byte off: zeroed, then one unmount record
 * of cycle 1 at its start, padded to lsunit_bytes (0: no stripe unit).
 */
int mkfs_log_write(struct fs_dev *dev, uint64_t off, uint64_t len,
		   const xfs_uuid_t *uuid, uint32_t lsunit_bytes);

#endif
