/*
 * STUB, to be replaced by log_format() from libfs/log.h when it lands
 * (another engineer owns the log module).  Until then mkfs writes the
 * clean log itself, exactly as the reference mkfs.xfs does
 * (journaling_log.asciidoc): one log record at block 0 of cycle 1 holding
 * a single unmount operation, padded to the log stripe unit, and zeroes
 * (cycle 0) in the rest of the log, so the head is found right after the
 * record and the log is clean.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "format/log.h"
#include "mkfs_log.h"

int mkfs_log_write(struct fs_dev *dev, uint64_t off, uint64_t len,
		   const xfs_uuid_t *uuid, uint32_t lsunit_bytes)
{
	uint32_t rec_bb = lsunit_bytes ? lsunit_bytes / BBSIZE : 2;
	uint32_t hsize = lsunit_bytes > XLOG_HEADER_CYCLE_SIZE ?
			 lsunit_bytes : XLOG_HEADER_CYCLE_SIZE;
	uint32_t hdr_bb = hsize / XLOG_HEADER_CYCLE_SIZE;
	uint32_t data_bb;
	struct xlog_rec_header *h;
	struct xlog_op_header *op;
	uint8_t *buf, *data;
	const uint32_t cycle = 1;
	int err;

	if (rec_bb < hdr_bb + 1)
		rec_bb = hdr_bb + 1;
	data_bb = rec_bb - hdr_bb;
	if ((uint64_t)rec_bb * BBSIZE > len)
		return -ENOSPC;

	/* Everything but the record reads as zeroes (cycle 0). */
	err = mkfs_zero_range(dev, off, len);
	if (err)
		return err;

	buf = calloc(rec_bb, BBSIZE);
	if (!buf)
		return -ENOMEM;
	h = (void *)buf;
	data = buf + hdr_bb * BBSIZE;

	/* The unmount operation: an op header and an 8-byte payload. */
	op = (void *)data;
	put_be32(&op->oh_tid, 0xb0c0d0d0);
	put_be32(&op->oh_len, 8);
	op->oh_clientid = XFS_LOG;
	op->oh_flags = XLOG_UNMOUNT_TRANS;
	data[sizeof(*op)] = XLOG_UNMOUNT_TYPE & 0xff;	/* host (LE) order */
	data[sizeof(*op) + 1] = XLOG_UNMOUNT_TYPE >> 8;

	put_be32(&h->h_magicno, XLOG_HEADER_MAGIC_NUM);
	put_be32(&h->h_cycle, cycle);
	put_be32(&h->h_version, XLOG_VERSION_2);
	put_be32(&h->h_len, data_bb * BBSIZE);
	put_be64(&h->h_lsn, lsn_make(cycle, 0));
	put_be64(&h->h_tail_lsn, lsn_make(cycle, 0));
	put_be32(&h->h_prev_block, 0xffffffffu);
	put_be32(&h->h_num_logops, 1);
	put_be32(&h->h_fmt, XLOG_FMT_LINUX_LE);
	h->h_fs_uuid = *uuid;
	put_be32(&h->h_size, hsize);

	/*
	 * Stamp the cycle into the first word of every data sector; the
	 * words it replaces go to the header (first 64 sectors) and the
	 * extended headers (64 each after that).
	 */
	for (uint32_t i = 1; i < hdr_bb; i++)
		store_be32(buf + i * BBSIZE, cycle);
	for (uint32_t i = 0; i < data_bb; i++) {
		uint8_t *sect = data + i * BBSIZE;
		uint32_t slot = i % (XLOG_HEADER_CYCLE_SIZE / BBSIZE);
		uint32_t hdr = i / (XLOG_HEADER_CYCLE_SIZE / BBSIZE);
		uint8_t *save;

		if (hdr == 0)
			save = (uint8_t *)&h->h_cycle_data[slot];
		else
			save = buf + hdr * BBSIZE + 4 + 4 * slot;
		memcpy(save, sect, 4);
		store_be32(sect, cycle);
	}
	err = dev_pwrite(dev, buf, (size_t)rec_bb * BBSIZE, off);
	free(buf);
	return err;
}
