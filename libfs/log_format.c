/*
 * Writing a clean log (log.h, log_format()).
 *
 * A clean log is one whose last record before the head is an unmount
 * record: a record of one operation, client XFS_LOG, flag
 * XLOG_UNMOUNT_TRANS, whose 8-byte payload starts with XLOG_UNMOUNT_TYPE
 * in host order.  Every record written here is such a record; they differ
 * only in cycle, position and size.  The layout, the constant transaction
 * id and the zero CRC are what xfsprogs 6.1 writes, so that images we make
 * are byte-identical to the reference's.
 *
 * In: a byte range of a device (or memory), the UUID, the stripe unit and
 * the cycle.  Out: the range rewritten.  Nothing outside the range is
 * touched.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "log.h"
#include "fs.h"
#include "format/crc32c.h"

/* Transaction id of userspace-written unmount records (xfsprogs' value). */
#define LOG_FORMAT_TID		0xb0c0d0d0u
#define LOG_UNMOUNT_LEN		8	/* payload: type, pad, pad */
#define LOG_STAGE_BYTES		(1u << 20)

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define LOG_HOST_FMT		XLOG_FMT_LINUX_LE
#else
#define LOG_HOST_FMT		XLOG_FMT_LINUX_BE
#endif

uint32_t log_record_crc(const void *hdr, const void *data, uint32_t h_len,
			size_t hdr_bytes)
{
	static const uint8_t zero[4];
	const uint8_t *h = hdr;
	uint32_t xheads, c;

	c = crc32c_update(~0u, h, offsetof(struct xlog_rec_header, h_crc));
	c = crc32c_update(c, zero, 4);
	c = crc32c_update(c, h + offsetof(struct xlog_rec_header, h_crc) + 4,
			  hdr_bytes - offsetof(struct xlog_rec_header, h_crc) - 4);
	/* extended headers: one per 32 KiB of data beyond the first */
	xheads = (h_len + XLOG_HEADER_CYCLE_SIZE - 1) / XLOG_HEADER_CYCLE_SIZE;
	for (uint32_t i = 1; i < xheads; i++)
		c = crc32c_update(c, h + (size_t)i * BBSIZE, LOG_EXT_CRC_SIZE);
	c = crc32c_update(c, data, h_len);
	return ~c;
}

/* sb_logsunit 0 and 1 both mean "no log stripe unit". */
static uint32_t norm_sunit(unsigned sunit_bytes)
{
	return sunit_bytes <= 1 ? 0 : sunit_bytes;
}

/* Header sectors of a record padded to rec_bytes. */
static uint32_t rec_hdrs(uint32_t rec_bytes)
{
	if (rec_bytes <= XLOG_HEADER_CYCLE_SIZE)
		return 1;
	return (rec_bytes + XLOG_HEADER_CYCLE_SIZE - 1) /
	       XLOG_HEADER_CYCLE_SIZE;
}

/* Blocks of a record padded to rec_bytes (0: no padding). */
static uint32_t rec_bbs(uint32_t rec_bytes)
{
	uint32_t n = (rec_bytes + BBSIZE - 1) / BBSIZE;
	uint32_t h = rec_hdrs(rec_bytes);

	if (n < 2)
		n = 2;
	if (n < h + 1)
		n = h + 1;
	return n;
}

uint32_t log_format_rec_bbs(unsigned sunit_bytes)
{
	return rec_bbs(norm_sunit(sunit_bytes));
}

struct fmt_params {
	const xfs_uuid_t	*uuid;
	bool			crc;
};

/*
 * Build one unmount record at p, padded to rec_bytes (0: the 2-block
 * minimum), and return its length in blocks.  p must have room for
 * rec_bbs(rec_bytes) blocks.
 */
static uint32_t build_record(uint8_t *p, const struct fmt_params *fp,
			     uint32_t cycle, uint32_t block, xfs_lsn_t tail,
			     uint32_t rec_bytes)
{
	struct xlog_rec_header *h = (struct xlog_rec_header *)p;
	uint32_t hdrs = rec_hdrs(rec_bytes);
	uint32_t nbb = rec_bbs(rec_bytes);
	uint32_t span = rec_bytes > 2 * BBSIZE ? rec_bytes : 2 * BBSIZE;
	uint32_t h_len = span - hdrs * BBSIZE;
	uint32_t h_size = rec_bytes > XLOG_HEADER_CYCLE_SIZE ?
			  rec_bytes : XLOG_HEADER_CYCLE_SIZE;
	uint8_t *d = p + (size_t)hdrs * BBSIZE;
	uint16_t type = XLOG_UNMOUNT_TYPE;	/* payload is host-endian */
	struct xlog_op_header *op = (struct xlog_op_header *)d;

	memset(p, 0, (size_t)nbb * BBSIZE);
	put_be32(&h->h_magicno, XLOG_HEADER_MAGIC_NUM);
	put_be32(&h->h_cycle, cycle);
	put_be32(&h->h_version, XLOG_VERSION_2);
	put_be32(&h->h_len, h_len);
	put_be64(&h->h_lsn, (uint64_t)lsn_make(cycle, block));
	put_be64(&h->h_tail_lsn, (uint64_t)tail);
	put_be32(&h->h_prev_block, 0xffffffffu);
	put_be32(&h->h_num_logops, 1);
	put_be32(&h->h_fmt, LOG_HOST_FMT);
	h->h_fs_uuid = *fp->uuid;
	put_be32(&h->h_size, h_size);
	/* extended headers only carry the cycle: the data they cover is 0 */
	for (uint32_t i = 1; i < hdrs; i++)
		store_be32(p + (size_t)i * BBSIZE, cycle);

	put_be32(&op->oh_tid, LOG_FORMAT_TID);
	put_be32(&op->oh_len, LOG_UNMOUNT_LEN);
	op->oh_clientid = XFS_LOG;
	op->oh_flags = XLOG_UNMOUNT_TRANS;
	memcpy(d + sizeof(*op), &type, sizeof(type));

	/* pack: the first word of each data sector moves to cycle_data */
	memcpy(&h->h_cycle_data[0], d, 4);
	for (uint32_t i = hdrs; i < nbb; i++)
		store_be32(p + (size_t)i * BBSIZE, cycle);

	if (fp->crc)
		put_le32(&h->h_crc, log_record_crc(p, d, h_len,
						   LOG_REC_CRC_SIZE));
	return nbb;
}

/* Where the bytes go: a device or a memory buffer. */
struct log_sink {
	int	(*write)(void *priv, uint64_t off, const void *buf, size_t len);
	int	(*zero)(void *priv, uint64_t off, uint64_t len);
	void	*priv;
};

/* Accumulates consecutive log bytes and writes them in large pieces. */
struct stage {
	const struct log_sink	*sink;
	uint8_t			*buf;
	uint64_t		off;	/* log offset of buf[0] */
	size_t			fill;
};

static int stage_flush(struct stage *st)
{
	int err = 0;

	if (st->fill)
		err = st->sink->write(st->sink->priv, st->off, st->buf,
				      st->fill);
	st->off += st->fill;
	st->fill = 0;
	return err;
}

/* Room for n more blocks, flushing first if needed (n <= 512). */
static int stage_room(struct stage *st, uint32_t n)
{
	if (st->fill + (size_t)n * BBSIZE > LOG_STAGE_BYTES +
	    XLOG_MAX_RECORD_BSIZE)
		return stage_flush(st);
	return 0;
}

static int check_args(uint64_t len_bytes, unsigned sunit_bytes,
		      uint32_t cycle, uint32_t *bbsp)
{
	uint32_t sunit = norm_sunit(sunit_bytes);

	if (!len_bytes || len_bytes % BBSIZE || len_bytes / BBSIZE > UINT32_MAX)
		return -EINVAL;
	if (sunit % BBSIZE || sunit > XLOG_MAX_RECORD_BSIZE)
		return -EINVAL;
	/* a cycle can never look like a record header */
	if (!cycle || cycle == XLOG_HEADER_MAGIC_NUM ||
	    cycle - 1 == XLOG_HEADER_MAGIC_NUM)
		return -EINVAL;
	*bbsp = (uint32_t)(len_bytes / BBSIZE);
	if (*bbsp < rec_bbs(sunit))
		return -EINVAL;
	return 0;
}

static int format_to(const struct log_sink *sink, uint64_t len_bytes,
		     const xfs_uuid_t *uuid, unsigned sunit_bytes,
		     uint32_t cycle, unsigned flags)
{
	struct fmt_params fp = { .uuid = uuid,
				 .crc = (flags & LOG_FORMAT_CRC) != 0 };
	uint32_t sunit = norm_sunit(sunit_bytes);
	struct stage st = { .sink = sink };
	uint32_t bbs, first, fill_bbs, blk, n;
	xfs_lsn_t tail;
	int err;

	err = check_args(len_bytes, sunit_bytes, cycle, &bbs);
	if (err)
		return err;
	first = rec_bbs(sunit);
	st.buf = malloc(LOG_STAGE_BYTES + XLOG_MAX_RECORD_BSIZE);
	if (!st.buf)
		return -ENOMEM;

	if (cycle == 1) {
		/* a fresh log: the tail is the record itself, zeroes after */
		if (!(flags & LOG_FORMAT_NOZERO)) {
			err = sink->zero(sink->priv, 0, len_bytes);
			if (err)
				goto out;
		}
		build_record(st.buf, &fp, cycle, 0, lsn_make(cycle, 0), sunit);
		st.fill = (size_t)first * BBSIZE;
		err = stage_flush(&st);
		goto out;
	}

	/*
	 * A later cycle: block 0 holds cycle N and points its tail at the
	 * last record of cycle N - 1, which fill the rest of the ring.
	 */
	tail = lsn_make(cycle - 1, bbs - first);
	build_record(st.buf, &fp, cycle, 0, tail, sunit);
	st.fill = (size_t)first * BBSIZE;

	fill_bbs = (flags & LOG_FORMAT_MAXREC) ? LOG_REC_SCAN_BBS : first;
	if (fill_bbs < first)
		fill_bbs = first;
	/* MAXREC: blocks between the first record and the first filler stay 0 */
	for (blk = first; blk < fill_bbs && blk < bbs; blk++) {
		err = stage_room(&st, 1);
		if (err)
			goto out;
		memset(st.buf + st.fill, 0, BBSIZE);
		st.fill += BBSIZE;
	}
	for (blk = fill_bbs; blk < bbs; blk += n) {
		n = bbs - blk < fill_bbs ? bbs - blk : fill_bbs;
		/*
		 * A record needs two blocks: never leave one alone at the
		 * end (only odd sizes can; xfsprogs would overrun there).
		 */
		if (bbs - blk - n == 1)
			n++;
		err = stage_room(&st, n);
		if (err)
			goto out;
		n = build_record(st.buf + st.fill, &fp, cycle - 1, blk,
				 lsn_make(cycle - 1, blk - n), n * BBSIZE);
		st.fill += (size_t)n * BBSIZE;
	}
	err = stage_flush(&st);
out:
	free(st.buf);
	return err;
}

/* ---- sinks ---- */

struct dev_sink {
	struct fs_dev	*dev;
	uint64_t	base;
};

static int dev_sink_write(void *priv, uint64_t off, const void *buf,
			  size_t len)
{
	struct dev_sink *ds = priv;

	return dev_pwrite(ds->dev, buf, len, ds->base + off);
}

/*
 * Zero a range: punching holes in an image file keeps it sparse and reads
 * back as zeroes; a block device (where discard need not zero) gets
 * zeroes written.
 */
static int dev_sink_zero(void *priv, uint64_t off, uint64_t len)
{
	struct dev_sink *ds = priv;
	uint8_t *z;
	int err = 0;

	if (ds->dev->is_file && !dev_discard(ds->dev, ds->base + off, len))
		return 0;
	z = calloc(1, LOG_STAGE_BYTES);
	if (!z)
		return -ENOMEM;
	while (len && !err) {
		size_t n = len < LOG_STAGE_BYTES ? (size_t)len : LOG_STAGE_BYTES;

		err = dev_pwrite(ds->dev, z, n, ds->base + off);
		off += n;
		len -= n;
	}
	free(z);
	return err;
}

int log_format(struct fs_dev *dev, uint64_t start_byte, uint64_t len_bytes,
	       const xfs_uuid_t *uuid, unsigned sunit_bytes, uint32_t cycle,
	       unsigned flags)
{
	struct dev_sink ds = { .dev = dev, .base = start_byte };
	struct log_sink sink = { dev_sink_write, dev_sink_zero, &ds };

	if (!dev || !uuid || start_byte % BBSIZE)
		return -EINVAL;
	if (start_byte > dev->size || len_bytes > dev->size - start_byte)
		return -ENOSPC;
	return format_to(&sink, len_bytes, uuid, sunit_bytes, cycle, flags);
}

struct mem_sink {
	uint8_t		*buf;
};

static int mem_sink_write(void *priv, uint64_t off, const void *buf,
			  size_t len)
{
	struct mem_sink *ms = priv;

	memcpy(ms->buf + off, buf, len);
	return 0;
}

static int mem_sink_zero(void *priv, uint64_t off, uint64_t len)
{
	struct mem_sink *ms = priv;

	memset(ms->buf + off, 0, len);
	return 0;
}

int log_format_buf(void *buf, uint64_t len_bytes, const xfs_uuid_t *uuid,
		   unsigned sunit_bytes, uint32_t cycle, unsigned flags)
{
	struct mem_sink ms = { .buf = buf };
	struct log_sink sink = { mem_sink_write, mem_sink_zero, &ms };

	if (!buf || !uuid)
		return -EINVAL;
	return format_to(&sink, len_bytes, uuid, sunit_bytes, cycle, flags);
}

int log_format_fs(struct fs *fs, uint32_t cycle, unsigned flags)
{
	uint64_t start, len;
	struct fs_dev *dev;
	int err = log_region(fs, &dev, &start, &len);

	if (err)
		return err;
	return log_format(dev, start, len, &fs->sb.uuid, fs->sb.logsunit,
			  cycle, flags);
}
