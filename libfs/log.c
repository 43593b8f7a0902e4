/*
 * Reading the log: head and tail, record verification, record and
 * operation walking (log.h).
 *
 * In: a struct fs_log (where the ring is, the UUID its records must name,
 * the log stripe unit).  Out: struct log_pos and findings.  What stays
 * true: every block number is reduced into [0, bbs) before it is read, and
 * every length read from disk is bounded by the log, by the record's own
 * header and by the cycle data that must cover it, before it sizes a read
 * or a loop.  Walks are bounded by the size of the ring.
 *
 * The head search follows the kernel's recovery (xfs_log_recover.c:
 * find_zeroed, find_head, verify_log_record, find_tail, check_unmount_rec)
 * step for step, because "where would a mount put the head" is the
 * question; verification beyond it is ours.
 */
#include "config.h"
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "log.h"
#include "fs.h"

#define SCAN_CHUNK	128		/* blocks read at a time when scanning */
#define OP_HDR_SIZE	sizeof(struct xlog_op_header)

/* ---- where the log is ---- */

static int read_dev(struct fs_log *log, uint64_t off, void *buf, size_t len)
{
	return dev_pread(log->dev, buf, len, log->start + off);
}

static int read_mem(struct fs_log *log, uint64_t off, void *buf, size_t len)
{
	memcpy(buf, log->mem + off, len);
	return 0;
}

static int init_common(struct fs_log *log, uint64_t len_bytes,
		       const xfs_uuid_t *uuid, unsigned sunit_bytes)
{
	if (!uuid || !len_bytes || len_bytes % BBSIZE ||
	    len_bytes / BBSIZE > UINT32_MAX)
		return -EINVAL;
	log->bbs = (uint32_t)(len_bytes / BBSIZE);
	log->uuid = *uuid;
	log->sunit = sunit_bytes <= 1 ? 0 : sunit_bytes;
	return 0;
}

int log_init_dev(struct fs_log *log, struct fs_dev *dev, uint64_t start_byte,
		 uint64_t len_bytes, const xfs_uuid_t *uuid,
		 unsigned sunit_bytes)
{
	int err;

	memset(log, 0, sizeof(*log));
	if (!dev || start_byte % BBSIZE)
		return -EINVAL;
	err = init_common(log, len_bytes, uuid, sunit_bytes);
	if (err)
		return err;
	if (start_byte > dev->size || len_bytes > dev->size - start_byte)
		return -ENOSPC;
	log->read = read_dev;
	log->dev = dev;
	log->start = start_byte;
	log->daddr = start_byte >> BBSHIFT;
	return 0;
}

int log_init_mem(struct fs_log *log, const void *buf, uint64_t len_bytes,
		 const xfs_uuid_t *uuid, unsigned sunit_bytes)
{
	int err;

	memset(log, 0, sizeof(*log));
	if (!buf)
		return -EINVAL;
	err = init_common(log, len_bytes, uuid, sunit_bytes);
	if (err)
		return err;
	log->read = read_mem;
	log->mem = buf;
	return 0;
}

int log_region(struct fs *fs, struct fs_dev **devp, uint64_t *startp,
	       uint64_t *lenp)
{
	if (!fs->sb_ok)
		return -EUCLEAN;
	*lenp = (uint64_t)fs->sb.logblocks << fs->geo.blocklog;
	if (fs->geo.log_internal) {
		*devp = fs->dev;
		*startp = (uint64_t)fsb_to_daddr(&fs->geo, fs->sb.logstart)
			  << BBSHIFT;
		return 0;
	}
	*devp = fs->logdev;
	*startp = 0;
	return *devp ? 0 : -ENODEV;
}

int log_init_fs(struct fs_log *log, struct fs *fs, struct fs_findings *fl)
{
	uint64_t start, len;
	struct fs_dev *dev;
	int err;

	memset(log, 0, sizeof(*log));
	err = log_region(fs, &dev, &start, &len);
	if (err)
		return err;
	err = log_init_dev(log, dev, start, len, &fs->sb.uuid,
			   fs->sb.logsunit);
	if (err == -ENOSPC) {
		struct fs_objref o = OBJREF_INIT(OBJ_LOG);

		o.daddr = start >> BBSHIFT;
		fs_report_val(fl, PR_LOG_OUTSIDE_DEV, &o, "logblocks",
			      dev->size, start + len);
		return -EUCLEAN;
	}
	return err;
}

const char *log_state_name(enum log_state s)
{
	switch (s) {
	case LOG_STATE_ZEROED:	return "zeroed";
	case LOG_STATE_CLEAN:	return "clean";
	case LOG_STATE_DIRTY:	return "dirty";
	case LOG_STATE_CORRUPT:	return "corrupt";
	}
	return "?";
}

static struct fs_objref log_obj(const struct fs_log *log, uint32_t blk)
{
	struct fs_objref o = OBJREF_INIT(OBJ_LOG);

	o.daddr = log->daddr + blk;
	o.index = blk;
	return o;
}

/* ---- block access ---- */

static uint32_t wrap(const struct fs_log *log, uint64_t blk)
{
	return (uint32_t)(blk % log->bbs);
}

/* Read n blocks from block b, wrapping at the end of the ring. */
static int read_bbs(struct fs_log *log, uint32_t b, uint32_t n, void *buf)
{
	uint8_t *p = buf;
	uint32_t first;
	int err;

	assert(b < log->bbs && n <= log->bbs);
	first = log->bbs - b < n ? log->bbs - b : n;
	err = log->read(log, (uint64_t)b << BBSHIFT, p,
			(size_t)first << BBSHIFT);
	if (!err && n > first)
		err = log->read(log, 0, p + ((size_t)first << BBSHIFT),
				(size_t)(n - first) << BBSHIFT);
	return err;
}

/* A block's cycle: its first word, or h_cycle after a header's magic. */
static uint32_t word_cycle(const uint8_t *p)
{
	uint32_t w = load_be32(p);

	return w == XLOG_HEADER_MAGIC_NUM ? load_be32(p + 4) : w;
}

static int blk_cycle(struct fs_log *log, uint32_t b, uint32_t *cycle)
{
	uint8_t w[8];
	int err;

	assert(b < log->bbs);
	err = log->read(log, (uint64_t)b << BBSHIFT, w, sizeof(w));
	if (!err)
		*cycle = word_cycle(w);
	return err;
}

bool log_not_a_log(struct fs_log *log)
{
	uint32_t first, last;

	if (log->bbs < 2 || blk_cycle(log, 0, &first) ||
	    blk_cycle(log, log->bbs - 1, &last))
		return false;
	return first != 0 && last == 0 && first != 1;
}

static bool is_header(const uint8_t *p)
{
	return load_be32(p) == XLOG_HEADER_MAGIC_NUM;
}

/* First block of [start, start + n) (no wrap) with this cycle, or -1. */
static int scan_cycle(struct fs_log *log, uint32_t start, uint32_t n,
		      uint32_t cycle, int64_t *found)
{
	uint8_t *buf = malloc(SCAN_CHUNK * BBSIZE);
	int err = 0;

	*found = -1;
	if (!buf)
		return -ENOMEM;
	assert((uint64_t)start + n <= log->bbs);
	for (uint32_t i = 0; i < n && *found < 0; ) {
		uint32_t k = n - i < SCAN_CHUNK ? n - i : SCAN_CHUNK;

		err = read_bbs(log, start + i, k, buf);
		if (err)
			break;
		for (uint32_t j = 0; j < k; j++) {
			if (word_cycle(buf + (size_t)j * BBSIZE) == cycle) {
				*found = (int64_t)start + i + j;
				break;
			}
		}
		i += k;
	}
	free(buf);
	return err;
}

/* Last record header in [lo, hi) (no wrap), or -1. */
static int rscan_header(struct fs_log *log, uint32_t lo, uint32_t hi,
			int64_t *found)
{
	uint8_t *buf;
	int err = 0;

	*found = -1;
	if (hi <= lo)
		return 0;
	buf = malloc(SCAN_CHUNK * BBSIZE);
	if (!buf)
		return -ENOMEM;
	assert(hi <= log->bbs);
	while (hi > lo && *found < 0) {
		uint32_t k = hi - lo < SCAN_CHUNK ? hi - lo : SCAN_CHUNK;

		err = read_bbs(log, hi - k, k, buf);
		if (err)
			break;
		for (uint32_t j = k; j-- > 0; ) {
			if (is_header(buf + (size_t)j * BBSIZE)) {
				*found = (int64_t)hi - k + j;
				break;
			}
		}
		hi -= k;
	}
	free(buf);
	return err;
}

/* First record header in the n blocks from b (wrapping), or -1. */
static int fscan_header(struct fs_log *log, uint32_t b, uint64_t n,
			int64_t *found)
{
	uint8_t *buf = malloc(SCAN_CHUNK * BBSIZE);
	int err = 0;

	*found = -1;
	if (!buf)
		return -ENOMEM;
	while (n && *found < 0) {
		uint32_t k = n < SCAN_CHUNK ? (uint32_t)n : SCAN_CHUNK;

		if (k > log->bbs - b)
			k = log->bbs - b;
		err = read_bbs(log, b, k, buf);
		if (err)
			break;
		for (uint32_t j = 0; j < k; j++) {
			if (is_header(buf + (size_t)j * BBSIZE)) {
				*found = b + j;
				break;
			}
		}
		b = wrap(log, (uint64_t)b + k);
		n -= k;
	}
	free(buf);
	return err;
}

/* Record headers in the n blocks from b (wrapping), counting up to max. */
static int count_headers(struct fs_log *log, uint32_t b, uint64_t n,
			 unsigned max, unsigned *count)
{
	uint8_t *buf = malloc(SCAN_CHUNK * BBSIZE);
	int err = 0;

	*count = 0;
	if (!buf)
		return -ENOMEM;
	while (n && *count < max) {
		uint32_t k = n < SCAN_CHUNK ? (uint32_t)n : SCAN_CHUNK;

		if (k > log->bbs - b)
			k = log->bbs - b;
		err = read_bbs(log, b, k, buf);
		if (err)
			break;
		for (uint32_t j = 0; j < k; j++)
			if (is_header(buf + (size_t)j * BBSIZE))
				(*count)++;
		b = wrap(log, (uint64_t)b + k);
		n -= k;
	}
	free(buf);
	return err;
}

/*
 * Header sectors of the record whose first header is h: the kernel's
 * rule (v2 and h_size over 32 KiB: one per 32 KiB), on raw fields.
 */
static uint32_t hdr_hblks(const struct xlog_rec_header *h)
{
	uint32_t size = get_be32(h->h_size);

	if ((get_be32(h->h_version) & XLOG_VERSION_2) &&
	    size > XLOG_HEADER_CYCLE_SIZE)
		return (uint32_t)(((uint64_t)size + XLOG_HEADER_CYCLE_SIZE - 1) /
				  XLOG_HEADER_CYCLE_SIZE);
	return 1;
}

static uint64_t hdr_rec_bbs(const struct xlog_rec_header *h)
{
	return hdr_hblks(h) +
	       (((uint64_t)get_be32(h->h_len) + BBSIZE - 1) >> BBSHIFT);
}

/* ---- the head: the kernel's search ---- */

/* Narrow [first, *last] to the first block of cycle (kernel's search). */
static int cycle_start(struct fs_log *log, uint32_t first, uint32_t *last,
		       uint32_t cycle)
{
	uint32_t end = *last, mid, c;
	int err;

	mid = first + (end - first) / 2;
	while (mid != first && mid != end) {
		err = blk_cycle(log, mid, &c);
		if (err)
			return err;
		if (c == cycle)
			end = mid;
		else
			first = mid;
		mid = first + (end - first) / 2;
	}
	*last = end;
	return 0;
}

/* Does any of the n blocks from block b (wrapping) carry this cycle? */
static int gap_has_cycle(struct fs_log *log, uint64_t b, uint64_t n,
			 uint32_t cycle, bool *found)
{
	uint32_t c;
	int err;

	*found = false;
	if (n > log->bbs)
		n = log->bbs;
	for (uint64_t k = 0; k < n && !*found; k++) {
		err = blk_cycle(log, wrap(log, b + k), &c);
		if (err)
			return err;
		*found = c == cycle;
	}
	return 0;
}

/*
 * Back up over a partly written record: the last header in [start, *last)
 * starts the record that should end at *last (extra: blocks of it already
 * seen past the physical end).  If it does not end there, the head moves
 * to that header.  Returns 0, or 1 if there is no header in the range.
 */
static int back_up(struct fs_log *log, uint32_t start, uint32_t *last,
		   uint32_t extra, struct fs_findings *fl)
{
	uint8_t h[BBSIZE];
	uint64_t have, want;
	int64_t i;
	int err;

	err = rscan_header(log, start, *last, &i);
	if (err)
		return err;
	if (i < 0)
		return 1;
	err = read_bbs(log, (uint32_t)i, 1, h);
	if (err)
		return err;
	have = (uint64_t)*last - (uint64_t)i + extra;
	want = hdr_rec_bbs((const struct xlog_rec_header *)h);
	if (have != want) {
		struct fs_objref o = log_obj(log, (uint32_t)i);
		bool lost;

		/*
		 * Fewer blocks than the record needs: its write was cut
		 * short, as in a crash.  More: if blocks after the record
		 * were written in its cycle, something lost its header, and
		 * the head goes back over a complete record.  (Blocks of
		 * another cycle there are what xfs_repair's log layout
		 * leaves; the kernel takes that in its stride too.)
		 */
		if (have < want) {
			fs_report_val(fl, PR_LOG_TORN_WRITE, &o, "h_len", want,
				      have);
		} else {
			err = gap_has_cycle(log, (uint64_t)i + want, have - want,
					    get_be32(((const struct xlog_rec_header *)
						      h)->h_cycle), &lost);
			if (err)
				return err;
			if (lost)
				fs_report_val(fl, PR_LOG_HEAD_GAP, &o, "h_len",
					      want, have);
		}
		*last = (uint32_t)i;
	}
	return 0;
}

/*
 * A log not yet written all the way round: is block 0 or the last block
 * still zero?  1 and *head if so (the first block of cycle 0, backed up
 * to a complete record), 0 if every block has been written, -EUCLEAN if
 * no record precedes the zeroes.
 */
static int find_zeroed(struct fs_log *log, uint32_t *head,
		       struct fs_findings *fl)
{
	uint32_t c, last, num, start;
	int64_t found;
	int err;

	*head = 0;
	err = blk_cycle(log, 0, &c);
	if (err)
		return err;
	if (c == 0)
		return 1;
	err = blk_cycle(log, log->bbs - 1, &c);
	if (err)
		return err;
	if (c != 0)
		return 0;
	last = log->bbs - 1;
	err = cycle_start(log, 0, &last, 0);
	if (err)
		return err;
	/* cycle-0 holes left by writes that were in flight */
	num = last < LOG_TOTAL_SCAN_BBS ? last : LOG_TOTAL_SCAN_BBS;
	start = last - num;
	err = scan_cycle(log, start, num, 0, &found);
	if (err)
		return err;
	if (found >= 0)
		last = (uint32_t)found;
	err = back_up(log, start, &last, 0, fl);
	if (err < 0)
		return err;
	if (err == 1) {
		struct fs_objref o = log_obj(log, last);

		fs_report(fl, PR_LOG_NO_RECORD, &o, NULL);
		return -EUCLEAN;
	}
	*head = last;
	return 1;
}

static int find_head_blk(struct fs_log *log, uint32_t *headp,
			 struct fs_findings *fl)
{
	uint32_t first_c, last_c, stop, head, start, num, bbs = log->bbs;
	struct fs_objref o;
	int64_t found;
	int err;

	err = find_zeroed(log, headp, fl);
	if (err)
		return err < 0 ? err : 0;

	err = blk_cycle(log, 0, &first_c);
	if (!err)
		err = blk_cycle(log, bbs - 1, &last_c);
	if (err)
		return err;
	if (first_c == last_c) {
		/* all one cycle, unless a hole of the previous one is found */
		head = bbs;
		stop = last_c - 1;
	} else {
		head = bbs - 1;
		stop = last_c;
		err = cycle_start(log, 0, &head, last_c);
		if (err)
			return err;
	}

	/* writes in flight may have left older blocks before the head */
	num = bbs < LOG_TOTAL_SCAN_BBS ? bbs : LOG_TOTAL_SCAN_BBS;
	if (head >= num) {
		err = scan_cycle(log, head - num, num, stop, &found);
		if (err)
			return err;
		if (found >= 0)
			head = (uint32_t)found;
	} else {
		start = bbs - (num - head);
		err = scan_cycle(log, start, num - head, stop - 1, &found);
		if (err)
			return err;
		if (found >= 0) {
			head = (uint32_t)found;
			goto validate;
		}
		err = scan_cycle(log, 0, head, stop, &found);
		if (err)
			return err;
		if (found >= 0)
			head = (uint32_t)found;
	}

validate:
	/* the head must not be in the middle of a record */
	num = bbs < LOG_REC_SCAN_BBS ? bbs : LOG_REC_SCAN_BBS;
	if (head >= num) {
		err = back_up(log, head - num, &head, 0, fl);
	} else {
		err = back_up(log, 0, &head, 0, fl);
		if (err == 1) {
			uint32_t nb = bbs;

			err = back_up(log, bbs - (num - head), &nb, head, fl);
			if (!err && nb != bbs)
				head = nb;
		}
	}
	if (err < 0)
		return err;
	if (err == 1) {
		o = log_obj(log, head % bbs);
		fs_report(fl, PR_LOG_NO_RECORD, &o, NULL);
		return -EUCLEAN;
	}
	*headp = head == bbs ? 0 : head;
	return 0;
}

/*
 * From the head, the last record before it: its LSN and tail, the cycle
 * the next write gets, and whether it is an unmount record ending right
 * at the head (clean).
 */
static int tail_from_head(struct fs_log *log, struct log_pos *pos,
			  struct fs_findings *fl)
{
	uint8_t h[BBSIZE], d[BBSIZE];
	const struct xlog_rec_header *rh = (const void *)h;
	uint32_t head = pos->head_blk, after;
	bool wrapped = false;
	int64_t r;
	int err;

	err = rscan_header(log, 0, head, &r);
	if (!err && r < 0) {
		err = rscan_header(log, head, log->bbs, &r);
		wrapped = true;
	}
	if (err)
		return err;
	if (r < 0) {
		struct fs_objref o = log_obj(log, head);

		fs_report(fl, PR_LOG_NO_RECORD, &o, NULL);
		pos->state = LOG_STATE_CORRUPT;
		return 0;
	}
	err = read_bbs(log, (uint32_t)r, 1, h);
	if (err)
		return err;
	pos->rec_blk = (uint32_t)r;
	pos->rec_lsn = (xfs_lsn_t)get_be64(rh->h_lsn);
	memcpy(&pos->rec_uuid, &rh->h_fs_uuid, sizeof(pos->rec_uuid));
	pos->tail_lsn = (xfs_lsn_t)get_be64(rh->h_tail_lsn);
	pos->tail_blk = lsn_block(pos->tail_lsn);
	pos->head_cycle = get_be32(rh->h_cycle) + (wrapped ? 1 : 0);
	pos->state = LOG_STATE_DIRTY;

	after = wrap(log, (uint64_t)r + hdr_rec_bbs(rh));
	if (head == after && get_be32(rh->h_num_logops) == 1) {
		err = read_bbs(log, wrap(log, (uint64_t)r + hdr_hblks(rh)), 1, d);
		if (err)
			return err;
		if (d[offsetof(struct xlog_op_header, oh_flags)] &
		    XLOG_UNMOUNT_TRANS) {
			pos->state = LOG_STATE_CLEAN;
			pos->tail_blk = head;
		}
	}
	return 0;
}

int log_find_head(struct fs_log *log, struct log_pos *pos,
		  struct fs_findings *fl)
{
	uint32_t c;
	int err;

	memset(pos, 0, sizeof(*pos));
	pos->head_cycle = 1;
	err = find_head_blk(log, &pos->head_blk, fl);
	if (err == -EUCLEAN) {
		pos->state = LOG_STATE_CORRUPT;
		return 0;
	}
	if (err)
		return err;
	if (pos->head_blk == 0) {
		err = blk_cycle(log, 0, &c);
		if (err)
			return err;
		if (c == 0) {
			/* never written: the kernel starts at cycle 1 */
			pos->state = LOG_STATE_ZEROED;
			pos->tail_lsn = lsn_make(1, 0);
			return 0;
		}
	}
	return tail_from_head(log, pos, fl);
}

/* ---- records ---- */

static bool hsize_ok(uint32_t size)
{
	return size >= LOG_MIN_ICLOG_SIZE && size <= XLOG_MAX_RECORD_BSIZE &&
	       size % BBSIZE == 0;
}

int log_rec_read(struct fs_log *log, uint32_t blk, struct log_rec *rec,
		 struct fs_findings *fl)
{
	struct fs_objref o = log_obj(log, blk % log->bbs);
	const struct xlog_rec_header *h;
	uint32_t bufsize, slots;
	int err;

	if (!rec->hdr) {
		rec->cap = XLOG_MAX_RECORD_BSIZE;
		rec->hdr = malloc(XLOG_MAX_RECORD_BSIZE / XLOG_HEADER_CYCLE_SIZE *
				  BBSIZE);
		rec->raw = malloc(rec->cap);
		rec->data = malloc(rec->cap);
		if (!rec->hdr || !rec->raw || !rec->data) {
			log_rec_release(rec);
			return -ENOMEM;
		}
	}
	if (blk >= log->bbs)
		return -EINVAL;
	err = read_bbs(log, blk, 1, rec->hdr);
	if (err)
		return err;
	h = (const struct xlog_rec_header *)rec->hdr;
	rec->blk = blk;
	if (get_be32(h->h_magicno) != XLOG_HEADER_MAGIC_NUM) {
		fs_report_val(fl, PR_LOG_BAD_MAGIC, &o, "magicno",
			      XLOG_HEADER_MAGIC_NUM, get_be32(h->h_magicno));
		return -EUCLEAN;
	}
	rec->cycle = get_be32(h->h_cycle);
	rec->version = get_be32(h->h_version);
	rec->len = get_be32(h->h_len);
	rec->lsn = (xfs_lsn_t)get_be64(h->h_lsn);
	rec->tail_lsn = (xfs_lsn_t)get_be64(h->h_tail_lsn);
	rec->crc = get_le32(h->h_crc);
	rec->prev_block = get_be32(h->h_prev_block);
	rec->num_logops = get_be32(h->h_num_logops);
	rec->fmt = get_be32(h->h_fmt);
	rec->uuid = h->h_fs_uuid;
	rec->size = get_be32(h->h_size);

	/* sizes first: they decide how much is read */
	if (rec->version & XLOG_VERSION_2) {
		if (!hsize_ok(rec->size)) {
			fs_report_found(fl, PR_LOG_BAD_HSIZE, &o, "size",
					rec->size);
			return -EUCLEAN;
		}
		bufsize = rec->size;
		/*
		 * Older xfsprogs padded the unmount record to the log stripe
		 * unit but wrote h_size 32 KiB; the kernel then sizes the
		 * record by the stripe unit, and so do we.
		 */
		if (rec->len > bufsize && rec->num_logops == 1 && log->sunit &&
		    rec->len <= log->sunit)
			bufsize = log->sunit;
	} else {
		bufsize = XLOG_HEADER_CYCLE_SIZE;
	}
	rec->hblks = bufsize > XLOG_HEADER_CYCLE_SIZE && (rec->version &
		     XLOG_VERSION_2) ? (bufsize + XLOG_HEADER_CYCLE_SIZE - 1) /
		     XLOG_HEADER_CYCLE_SIZE : 1;
	rec->bblks = (uint32_t)(((uint64_t)rec->len + BBSIZE - 1) >> BBSHIFT);
	slots = rec->hblks * LOG_CYCLE_SLOTS;
	if (!rec->len || rec->len > bufsize || rec->bblks > slots ||
	    (uint64_t)rec->hblks + rec->bblks > log->bbs) {
		fs_report_val(fl, PR_LOG_BAD_LEN, &o, "len", bufsize, rec->len);
		return -EUCLEAN;
	}
	assert((size_t)rec->bblks * BBSIZE <= rec->cap);

	if (rec->hblks > 1) {
		err = read_bbs(log, wrap(log, (uint64_t)blk + 1),
			       rec->hblks - 1, rec->hdr + BBSIZE);
		if (err)
			return err;
	}
	err = read_bbs(log, wrap(log, (uint64_t)blk + rec->hblks), rec->bblks,
		       rec->raw);
	if (err)
		return err;
	/* unpack: put back the first word of every data sector */
	memcpy(rec->data, rec->raw, (size_t)rec->bblks * BBSIZE);
	for (uint32_t i = 0; i < rec->bblks; i++) {
		uint32_t j = i / LOG_CYCLE_SLOTS, k = i % LOG_CYCLE_SLOTS;
		const uint8_t *slot;

		if (j == 0)
			slot = (const uint8_t *)&h->h_cycle_data[k];
		else
			slot = rec->hdr + (size_t)j * BBSIZE + 4 + 4 * k;
		memcpy(rec->data + (size_t)i * BBSIZE, slot, 4);
	}
	return 0;
}

void log_rec_release(struct log_rec *rec)
{
	free(rec->hdr);
	free(rec->raw);
	free(rec->data);
	rec->hdr = rec->raw = rec->data = NULL;
	rec->cap = 0;
}

bool log_rec_is_unmount(const struct log_rec *rec)
{
	return rec->num_logops == 1 && rec->len >= OP_HDR_SIZE &&
	       (rec->data[offsetof(struct xlog_op_header, oh_flags)] &
		XLOG_UNMOUNT_TRANS);
}

void log_op_iter_init(struct log_op_iter *it, const struct log_rec *rec)
{
	it->rec = rec;
	it->off = 0;
	it->index = 0;
}

int log_op_next(struct log_op_iter *it, struct fs_log *log,
		struct log_op *op, struct fs_findings *fl)
{
	const struct log_rec *rec = it->rec;
	struct fs_objref o = OBJREF_INIT(OBJ_LOG);
	const uint8_t *p;

	if (log) {
		o.daddr = log->daddr + rec->blk;
		o.index = it->index;
	}
	if (it->index >= rec->num_logops || it->off >= rec->len)
		return 0;
	if (rec->len - it->off < OP_HDR_SIZE) {
		fs_report_val(fl, PR_LOG_BAD_OP, &o, "oh_len", OP_HDR_SIZE,
			      rec->len - it->off);
		return -EUCLEAN;
	}
	p = rec->data + it->off;
	op->index = it->index;
	op->offset = it->off;
	op->tid = load_be32(p);
	op->len = load_be32(p + 4);
	op->clientid = p[8];
	op->flags = p[9];
	op->data = p + OP_HDR_SIZE;
	if (op->clientid != XFS_TRANSACTION && op->clientid != XFS_LOG) {
		fs_report_found(fl, PR_LOG_BAD_OP, &o, "oh_clientid",
				op->clientid);
		return -EUCLEAN;
	}
	if (op->len > rec->len - it->off - OP_HDR_SIZE) {
		fs_report_val(fl, PR_LOG_BAD_OP, &o, "oh_len",
			      rec->len - it->off - OP_HDR_SIZE, op->len);
		return -EUCLEAN;
	}
	it->off += OP_HDR_SIZE + op->len;
	it->index++;
	return 1;
}

#define BAD(code, field, exp, fnd) do { \
		fs_report_val(fl, PR_##code, &o, field, exp, fnd); \
		nerr++; \
	} while (0)
#define BADF(code, field, fnd) do { \
		fs_report_found(fl, PR_##code, &o, field, fnd); \
		nerr++; \
	} while (0)

unsigned log_rec_verify(struct fs_log *log, const struct log_rec *rec,
			struct fs_findings *fl)
{
	struct fs_objref o = log_obj(log, rec->blk);
	uint32_t tc = lsn_cycle(rec->tail_lsn), tb = lsn_block(rec->tail_lsn);
	struct log_op_iter it;
	struct log_op op;
	unsigned nerr = 0;
	int r;

	if (rec->version != XLOG_VERSION_2)
		BAD(LOG_BAD_VERSION, "version", XLOG_VERSION_2, rec->version);
	if (!rec->cycle || rec->cycle != lsn_cycle(rec->lsn))
		BAD(LOG_BAD_LSN, "cycle", lsn_cycle(rec->lsn), rec->cycle);
	if (lsn_block(rec->lsn) != rec->blk)
		BAD(LOG_BAD_LSN, "lsn", rec->blk, lsn_block(rec->lsn));
	/* the tail is behind the record, and at most one lap behind */
	if (tb >= log->bbs ||
	    !((tc == rec->cycle && tb <= rec->blk) ||
	      (tc + 1 == rec->cycle && tb > rec->blk)))
		BADF(LOG_BAD_TAIL, "tail_lsn", (uint64_t)rec->tail_lsn);
	if (rec->prev_block != 0xffffffffu && rec->prev_block >= log->bbs)
		BADF(LOG_BAD_PREV, "prev_block", rec->prev_block);
	if (!rec->num_logops || rec->num_logops > rec->len / OP_HDR_SIZE)
		BADF(LOG_BAD_NUMOPS, "num_logops", rec->num_logops);
	if (rec->fmt != XLOG_FMT_LINUX_LE && rec->fmt != XLOG_FMT_LINUX_BE)
		BADF(LOG_BAD_FMT, "fmt", rec->fmt);
	if (memcmp(&rec->uuid, &log->uuid, sizeof(rec->uuid)))
		BADF(LOG_BAD_UUID, "uuid", load_be64(rec->uuid.b));

	/*
	 * Every sector after the header carries the record's cycle; the
	 * part of a record that wrapped past the end of the ring carries
	 * the next one (never the magic number).
	 */
	for (uint32_t j = 1; j < rec->hblks + rec->bblks; j++) {
		const uint8_t *p = j < rec->hblks ?
			rec->hdr + (size_t)j * BBSIZE :
			rec->raw + (size_t)(j - rec->hblks) * BBSIZE;
		uint64_t at = (uint64_t)rec->blk + j;
		uint32_t want = rec->cycle, c = load_be32(p);

		if (at >= log->bbs && ++want == XLOG_HEADER_MAGIC_NUM)
			want++;
		if (c != want) {
			o.index = wrap(log, at);
			o.daddr = log->daddr + o.index;
			BAD(LOG_BAD_CYCLE_STAMP,
			    j < rec->hblks ? "xh_cycle" : "cycle", want, c);
			o = log_obj(log, rec->blk);
			break;
		}
	}

	/* a zero CRC is what xfsprogs writes: "not checksummed" */
	if (rec->crc) {
		uint32_t c = log_record_crc(rec->hdr, rec->raw, rec->len,
					    LOG_REC_CRC_SIZE);

		if (c != rec->crc &&
		    log_record_crc(rec->hdr, rec->raw, rec->len,
				   LOG_REC_CRC_SIZE_I386) != rec->crc)
			BAD(LOG_BAD_CRC, "crc", c, rec->crc);
	}

	log_op_iter_init(&it, rec);
	while ((r = log_op_next(&it, log, &op, fl)) == 1)
		;
	if (r < 0)
		nerr++;
	else if (it.index != rec->num_logops && rec->num_logops &&
		 rec->num_logops <= rec->len / OP_HDR_SIZE)
		BAD(LOG_BAD_NUMOPS, "num_logops", it.index, rec->num_logops);
	return nerr;
}

#undef BAD
#undef BADF

/* ---- walking records ---- */

void log_iter_init(struct log_iter *it, struct fs_log *log, uint32_t from,
		   uint32_t to)
{
	memset(it, 0, sizeof(*it));
	it->log = log;
	it->next = from % log->bbs;
	it->to = to % log->bbs;
	it->done = it->next == it->to;
}

int log_iter_next(struct log_iter *it, const struct log_rec **recp,
		  struct fs_findings *fl)
{
	struct fs_log *log = it->log;
	uint32_t n, dist;
	int err;

	if (it->done)
		return 0;
	dist = it->to >= it->next ? it->to - it->next :
	       log->bbs - it->next + it->to;
	if (it->walked >= log->bbs) {
		struct fs_objref o = log_obj(log, it->next);

		fs_report(fl, PR_LOG_CHAIN_BROKEN, &o, NULL);
		it->done = true;
		return -EUCLEAN;
	}
	err = log_rec_read(log, it->next, &it->rec, fl);
	if (err) {
		it->done = true;
		return err;
	}
	n = it->rec.hblks + it->rec.bblks;
	if (n > dist) {
		struct fs_objref o = log_obj(log, it->next);

		fs_report_val(fl, PR_LOG_CHAIN_BROKEN, &o, "len", dist, n);
		it->done = true;
		return -EUCLEAN;
	}
	it->walked += n;
	it->next = wrap(log, (uint64_t)it->next + n);
	it->done = it->next == it->to;
	*recp = &it->rec;
	return 1;
}

void log_iter_release(struct log_iter *it)
{
	log_rec_release(&it->rec);
}

/* ---- checking ---- */

/* Failures a write cut short by a crash leaves behind. */
static bool torn_like(const struct fs_findings *fl, size_t from)
{
	for (size_t i = from; i < fl->n; i++) {
		switch (fl->v[i].code) {
		case PR_LOG_BAD_MAGIC:
		case PR_LOG_BAD_LEN:
		case PR_LOG_BAD_HSIZE:
		case PR_LOG_BAD_CRC:
		case PR_LOG_BAD_CYCLE_STAMP:
		case PR_LOG_CHAIN_BROKEN:
			return true;
		default:
			break;
		}
	}
	return false;
}

static int check_one(struct fs_log *log, uint32_t blk, struct fs_findings *fl)
{
	struct log_rec rec = { 0 };
	int err;

	err = log_rec_read(log, blk, &rec, fl);
	if (!err)
		log_rec_verify(log, &rec, fl);
	log_rec_release(&rec);
	return err == -EUCLEAN ? 0 : err;
}

struct walked {
	uint32_t	blk;
	size_t		fstart;		/* its first finding in the scratch list */
	bool		torn;
};

/*
 * A dirty log: every record from the tail to the head.  Findings go to a
 * scratch list first, because the records a torn write damaged are only
 * known once the walk has reached the head.
 */
static int check_dirty(struct fs_log *log, struct log_pos *pos,
		       struct fs_findings *fl)
{
	struct fs_findings tmp;
	struct walked *w = NULL;
	size_t nw = 0, capw = 0, bad;
	struct log_iter it;
	const struct log_rec *rec;
	uint32_t start = pos->tail_blk;
	unsigned nheaders;
	int r, err = 0;

	if (start >= log->bbs) {
		struct fs_objref o = log_obj(log, pos->rec_blk);

		fs_report_found(fl, PR_LOG_BAD_TAIL, &o, "tail_lsn",
				(uint64_t)pos->tail_lsn);
		return check_one(log, pos->rec_blk, fl);
	}
	if (start == pos->head_blk)
		return check_one(log, pos->rec_blk, fl);

	/* like the kernel, start at the first header at or after the tail */
	{
		uint32_t dist = pos->head_blk > start ?
			pos->head_blk - start :
			log->bbs - start + pos->head_blk;
		int64_t first;

		err = fscan_header(log, start, dist, &first);
		if (err)
			return err;
		if (first < 0) {
			struct fs_objref o = log_obj(log, pos->rec_blk);

			fs_report_found(fl, PR_LOG_BAD_TAIL, &o, "tail_lsn",
					(uint64_t)pos->tail_lsn);
			return check_one(log, pos->rec_blk, fl);
		}
		start = (uint32_t)first;
	}

	findings_init(&tmp);
	tmp.limit = fl->limit;
	log_iter_init(&it, log, start, pos->head_blk);
	for (;;) {
		uint32_t at = it.next;
		size_t f0 = tmp.n;

		r = log_iter_next(&it, &rec, &tmp);
		if (r == 0)
			break;
		if (r != 1 && r != -EUCLEAN) {
			err = r;
			break;
		}
		if (nw == capw) {
			struct walked *nv;

			capw = capw ? capw * 2 : 64;
			nv = realloc(w, capw * sizeof(*w));
			if (!nv) {
				err = -ENOMEM;
				break;
			}
			w = nv;
		}
		if (r == 1)
			log_rec_verify(log, rec, &tmp);
		w[nw].blk = at;
		w[nw].fstart = f0;
		w[nw].torn = torn_like(&tmp, f0);
		nw++;
		if (r < 0)
			break;
	}
	log_iter_release(&it);
	if (err)
		goto out;

	for (bad = 0; bad < nw && !w[bad].torn; bad++)
		;
	if (bad < nw) {
		uint32_t d = pos->head_blk >= w[bad].blk ?
			pos->head_blk - w[bad].blk :
			log->bbs - w[bad].blk + pos->head_blk;

		err = count_headers(log, w[bad].blk, d, LOG_MAX_ICLOGS + 1,
				    &nheaders);
		if (err)
			goto out;
		if (nheaders <= LOG_MAX_ICLOGS) {
			/*
			 * Within the records that can be in flight at once:
			 * a torn write.  The kernel trims the head back to it;
			 * what the torn records say is not a finding.
			 */
			struct fs_objref o = log_obj(log, w[bad].blk);

			fs_report_val(fl, PR_LOG_TORN_WRITE, &o, "head",
				      pos->head_blk, w[bad].blk);
			tmp.n = w[bad].fstart;
			tmp.dropped = 0;
			pos->head_blk = w[bad].blk;
			pos->trimmed = true;
			/* the record before it is now the last one */
			err = tail_from_head(log, pos, &tmp);
			if (err)
				goto out;
		}
	}
	findings_splice(fl, &tmp);
out:
	findings_free(&tmp);
	free(w);
	return err;
}

int log_check(struct fs_log *log, struct log_pos *pos,
	      struct fs_findings *fl)
{
	struct fs_objref o = log_obj(log, 0);
	uint32_t c;
	int err;

	err = log_find_head(log, pos, fl);
	if (err)
		return err;
	switch (pos->state) {
	case LOG_STATE_ZEROED:
		err = blk_cycle(log, log->bbs - 1, &c);
		if (err)
			return err;
		if (c)
			fs_report_found(fl, PR_LOG_PARTLY_ZEROED, &o, "cycle", c);
		else
			fs_report(fl, PR_LOG_ZEROED, &o, NULL);
		return 0;
	case LOG_STATE_CORRUPT:
		return 0;
	case LOG_STATE_CLEAN:
		return check_one(log, pos->rec_blk, fl);
	case LOG_STATE_DIRTY:
		err = check_dirty(log, pos, fl);
		if (err || pos->state != LOG_STATE_DIRTY)
			return err;
		/* what recovery would replay: from the tail to the head */
		o = log_obj(log, pos->head_blk);
		fs_report_val(fl, PR_LOG_DIRTY, &o, "tail_lsn",
			      (uint64_t)log_head_lsn(pos),
			      (uint64_t)pos->tail_lsn);
		return 0;
	}
	return 0;
}
