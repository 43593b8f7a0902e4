/*
 * The log on synthetic images in memory: what log_format_buf() writes
 * (field by field, for no stripe unit, a 64 KiB one, later cycles, the
 * 256 KiB filler layout, CRCs), and its refusals; then the reader on
 * logs built record by record: zeroed, freshly formatted, one record,
 * records with extended headers, a ring that has wrapped (with a record
 * split across the end), torn writes at the head, damage elsewhere, and
 * random damage that must never crash or read outside the log.
 */
#include "config.h"
#include "unit.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "log.h"
#include "format/crc32c.h"

#define LOG_BBS		4096		/* a 2 MiB log */
#define LOG_BYTES	((uint64_t)LOG_BBS * BBSIZE)

static const xfs_uuid_t test_uuid = { { 0x10, 0x32, 0x54, 0x76, 0x98, 0xba,
					0xdc, 0xfe, 0x01, 0x23, 0x45, 0x67,
					0x89, 0xab, 0xcd, 0xef } };

struct tlog;
static uint8_t *blk_ptr(struct tlog *t, uint32_t b);

static uint8_t *blk(uint8_t *log, uint32_t b)
{
	return log + (size_t)b * BBSIZE;
}

static const struct xlog_rec_header *hdr(uint8_t *log, uint32_t b)
{
	return (const struct xlog_rec_header *)blk(log, b);
}

static bool all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/* The unmount op as xfsprogs lays it out in the first data sector. */
static void check_unmount_block(uint8_t *log, uint32_t b, uint32_t cycle)
{
	const uint8_t *d = blk(log, b);
	uint16_t type;

	ck_assert_uint_eq(load_be32(d), cycle);		/* stamped */
	ck_assert_uint_eq(load_be32(d + 4), 8);		/* oh_len */
	ck_assert_uint_eq(d[8], XFS_LOG);
	ck_assert_uint_eq(d[9], XLOG_UNMOUNT_TRANS);
	memcpy(&type, d + 12, 2);
	ck_assert_uint_eq(type, XLOG_UNMOUNT_TYPE);
	ck_assert(all_zero(d + 14, BBSIZE - 14));
}

static void check_header(uint8_t *log, uint32_t b, uint32_t cycle,
			 uint32_t h_len, xfs_lsn_t tail, uint32_t h_size)
{
	const struct xlog_rec_header *h = hdr(log, b);

	ck_assert_uint_eq(get_be32(h->h_magicno), XLOG_HEADER_MAGIC_NUM);
	ck_assert_uint_eq(get_be32(h->h_cycle), cycle);
	ck_assert_uint_eq(get_be32(h->h_version), 2);
	ck_assert_uint_eq(get_be32(h->h_len), h_len);
	ck_assert_uint_eq(get_be64(h->h_lsn), (uint64_t)lsn_make(cycle, b));
	ck_assert_uint_eq(get_be64(h->h_tail_lsn), (uint64_t)tail);
	ck_assert_uint_eq(get_be32(h->h_prev_block), 0xffffffffu);
	ck_assert_uint_eq(get_be32(h->h_num_logops), 1);
	ck_assert_uint_eq(get_be32(h->h_cycle_data[0]), 0xb0c0d0d0u);
	ck_assert_uint_eq(get_be32(h->h_fmt), XLOG_FMT_LINUX_LE);
	ck_assert(!memcmp(&h->h_fs_uuid, &test_uuid, 16));
	ck_assert_uint_eq(get_be32(h->h_size), h_size);
}

START_TEST(format_cycle1_plain)
{
	uint8_t *log = malloc(LOG_BYTES);

	memset(log, 0xa5, LOG_BYTES);
	ck_assert_int_eq(log_format_buf(log, LOG_BYTES, &test_uuid, 1, 1, 0), 0);
	check_header(log, 0, 1, 512, lsn_make(1, 0), 32768);
	ck_assert_uint_eq(get_le32(hdr(log, 0)->h_crc), 0);
	ck_assert(all_zero(blk(log, 0) + sizeof(struct xlog_rec_header),
			   BBSIZE - sizeof(struct xlog_rec_header)));
	check_unmount_block(log, 1, 1);
	ck_assert(all_zero(blk(log, 2), LOG_BYTES - 2 * BBSIZE));
	ck_assert_uint_eq(log_format_rec_bbs(1), 2);
	ck_assert_uint_eq(log_format_rec_bbs(0), 2);
	free(log);
}
END_TEST

START_TEST(format_sunit_64k)
{
	uint8_t *log = malloc(LOG_BYTES);

	memset(log, 0xa5, LOG_BYTES);
	ck_assert_int_eq(log_format_buf(log, LOG_BYTES, &test_uuid, 65536, 1,
					0), 0);
	/* 128 blocks: header, one extended header, 126 data sectors */
	check_header(log, 0, 1, 65536 - 2 * 512, lsn_make(1, 0), 65536);
	ck_assert_uint_eq(load_be32(blk(log, 1)), 1);	/* xh_cycle */
	ck_assert(all_zero(blk(log, 1) + 4, BBSIZE - 4));
	check_unmount_block(log, 2, 1);
	for (uint32_t b = 3; b < 128; b++) {
		ck_assert_uint_eq(load_be32(blk(log, b)), 1);
		ck_assert(all_zero(blk(log, b) + 4, BBSIZE - 4));
	}
	ck_assert(all_zero(blk(log, 128), LOG_BYTES - 128 * BBSIZE));
	ck_assert_uint_eq(log_format_rec_bbs(65536), 128);
	free(log);
}
END_TEST

/* xfs_db "logformat -c 5": every record 2 blocks, cycle 4 after block 0 */
START_TEST(format_later_cycle)
{
	uint8_t *log = malloc(LOG_BYTES);

	ck_assert_int_eq(log_format_buf(log, LOG_BYTES, &test_uuid, 0, 5, 0), 0);
	check_header(log, 0, 5, 512, lsn_make(4, LOG_BBS - 2), 32768);
	check_unmount_block(log, 1, 5);
	for (uint32_t b = 2; b < LOG_BBS; b += 2) {
		check_header(log, b, 4, 512, lsn_make(4, b - 2), 32768);
		check_unmount_block(log, b + 1, 4);
	}
	free(log);
}
END_TEST

/* xfs_repair's reformat: 256 KiB fillers from block 512, a zero gap */
START_TEST(format_maxrec)
{
	uint32_t bbs = LOG_BBS - 64;	/* the last filler is short */
	uint64_t bytes = (uint64_t)bbs * BBSIZE;
	uint8_t *log = malloc(bytes);
	uint32_t b;

	memset(log, 0xa5, bytes);
	ck_assert_int_eq(log_format_buf(log, bytes, &test_uuid, 0, 4,
					LOG_FORMAT_MAXREC), 0);
	check_header(log, 0, 4, 512, lsn_make(3, bbs - 2), 32768);
	check_unmount_block(log, 1, 4);
	ck_assert(all_zero(blk(log, 2), 510 * BBSIZE));
	for (b = 512; b + 512 <= bbs; b += 512) {
		check_header(log, b, 3, 262144 - 8 * 512, lsn_make(3, b - 512),
			     262144);
		for (uint32_t x = 1; x < 8; x++)
			ck_assert_uint_eq(load_be32(blk(log, b + x)), 3);
		check_unmount_block(log, b + 8, 3);
	}
	/* the short last record: 448 blocks, 7 headers */
	ck_assert_uint_eq(bbs - b, 448);
	check_header(log, b, 3, 448 * 512 - 7 * 512, lsn_make(3, b - 448),
		     448 * 512);
	check_unmount_block(log, b + 7, 3);
	free(log);
}
END_TEST

START_TEST(format_crc)
{
	uint8_t *log = malloc(LOG_BYTES);
	const struct xlog_rec_header *h = hdr(log, 0);

	ck_assert_int_eq(log_format_buf(log, LOG_BYTES, &test_uuid, 65536, 3,
					LOG_FORMAT_CRC), 0);
	ck_assert_uint_ne(get_le32(h->h_crc), 0);
	ck_assert_uint_eq(get_le32(h->h_crc),
			  log_record_crc(log, blk(log, 2), get_be32(h->h_len),
					 LOG_REC_CRC_SIZE));
	/* the i386 size gives another sum over the same bytes */
	ck_assert_uint_ne(get_le32(h->h_crc),
			  log_record_crc(log, blk(log, 2), get_be32(h->h_len),
					 LOG_REC_CRC_SIZE_I386));
	h = hdr(log, 128);
	ck_assert_uint_eq(get_le32(h->h_crc),
			  log_record_crc(blk(log, 128), blk(log, 130),
					 get_be32(h->h_len), LOG_REC_CRC_SIZE));
	free(log);
}
END_TEST

/* 3-block records leave one block at the end: the last record takes it */
START_TEST(format_odd_sunit)
{
	uint8_t *log = malloc(LOG_BYTES);
	const struct xlog_rec_header *h;
	struct fs_log l;
	struct log_pos pos;
	struct fs_findings fl;
	uint32_t last = 3 + 3 * ((LOG_BBS - 3 - 4) / 3);

	ck_assert_int_eq(log_format_buf(log, LOG_BYTES, &test_uuid, 1536, 6,
					LOG_FORMAT_CRC), 0);
	check_header(log, 0, 6, 1536 - 512, lsn_make(5, LOG_BBS - 3), 32768);
	h = hdr(log, last);
	ck_assert_uint_eq(last + 4, LOG_BBS);
	ck_assert_uint_eq(get_be32(h->h_magicno), XLOG_HEADER_MAGIC_NUM);
	ck_assert_uint_eq(get_be32(h->h_len), 3 * 512);
	findings_init(&fl);
	ck_assert_int_eq(log_init_mem(&l, log, LOG_BYTES, &test_uuid, 1536), 0);
	ck_assert_int_eq(log_check(&l, &pos, &fl), 0);
	ck_assert_uint_eq(fl.n, 0);
	ck_assert_uint_eq(pos.state, LOG_STATE_CLEAN);
	ck_assert_uint_eq(pos.head_blk, 3);
	ck_assert_uint_eq(pos.head_cycle, 6);
	findings_free(&fl);
	free(log);
}
END_TEST

START_TEST(format_refuses)
{
	uint8_t *log = malloc(LOG_BYTES);

	ck_assert_int_eq(log_format_buf(log, LOG_BYTES, &test_uuid, 0, 0, 0),
			 -EINVAL);
	ck_assert_int_eq(log_format_buf(log, LOG_BYTES, &test_uuid, 0,
					XLOG_HEADER_MAGIC_NUM, 0), -EINVAL);
	ck_assert_int_eq(log_format_buf(log, LOG_BYTES, &test_uuid, 0,
					XLOG_HEADER_MAGIC_NUM + 1, 0), -EINVAL);
	ck_assert_int_eq(log_format_buf(log, LOG_BYTES, &test_uuid, 512 * 1024,
					1, 0), -EINVAL);
	ck_assert_int_eq(log_format_buf(log, LOG_BYTES, &test_uuid, 1000,
					1, 0), -EINVAL);
	ck_assert_int_eq(log_format_buf(log, LOG_BYTES - 100, &test_uuid, 0,
					1, 0), -EINVAL);
	/* a log smaller than its first record */
	ck_assert_int_eq(log_format_buf(log, 64 * 1024, &test_uuid, 128 * 1024,
					1, 0), -EINVAL);
	ck_assert_int_eq(log_format_buf(log, 0, &test_uuid, 0, 1, 0), -EINVAL);
	free(log);
}
END_TEST


/* ------------------------------------------------------------------ */
/* A small log writer for the reader tests                             */
/* ------------------------------------------------------------------ */

struct tlog {
	uint8_t		*buf;
	uint32_t	bbs;
	struct fs_log	log;
};

/* Block b of the ring, wrapping. */
static uint8_t *blk_ptr(struct tlog *t, uint32_t b)
{
	return t->buf + (size_t)(b % t->bbs) * BBSIZE;
}

static void tlog_init(struct tlog *t, uint32_t bbs)
{
	t->bbs = bbs;
	t->buf = calloc(bbs, BBSIZE);
	ck_assert_ptr_nonnull(t->buf);
	ck_assert_int_eq(log_init_mem(&t->log, t->buf, (uint64_t)bbs * BBSIZE,
				      &test_uuid, 0), 0);
}

static void tlog_free(struct tlog *t)
{
	free(t->buf);
}

static uint32_t put_op(uint8_t *p, uint32_t tid, uint32_t len, uint8_t client,
		       uint8_t flags, uint8_t fill)
{
	store_be32(p, tid);
	store_be32(p + 4, len);
	p[8] = client;
	p[9] = flags;
	p[10] = p[11] = 0;
	for (uint32_t i = 0; i < len; i++)
		p[12 + i] = (uint8_t)(fill + i * 7);
	return 12 + len;
}

/* A transaction: start, header, nitems items of itemlen bytes, commit. */
static uint32_t make_txn(uint8_t *p, uint32_t tid, unsigned nitems,
			 uint32_t itemlen, unsigned *nops)
{
	uint32_t off = 0;

	off += put_op(p + off, tid, 0, XFS_TRANSACTION, XLOG_START_TRANS, 0);
	off += put_op(p + off, tid, 16, XFS_TRANSACTION, 0, 0x54);
	for (unsigned i = 0; i < nitems; i++)
		off += put_op(p + off, tid, itemlen, XFS_TRANSACTION, 0,
			      (uint8_t)(tid + i));
	off += put_op(p + off, tid, 0, XFS_TRANSACTION, XLOG_COMMIT_TRANS, 0);
	*nops = nitems + 3;
	return off;
}

static uint32_t make_unmount(uint8_t *p, unsigned *nops)
{
	*nops = 1;
	return put_op(p, 0x1234, 0, XFS_LOG, XLOG_UNMOUNT_TRANS, 0);
}

/*
 * Write a record as the kernel would: pack the first word of each data
 * sector into the cycle data, stamp the cycle, stamp cycle + 1 on the
 * part that wraps past the end of the ring, then sum it.
 */
static uint32_t put_rec(struct tlog *t, uint32_t blk, uint32_t cycle,
			xfs_lsn_t tail, uint32_t h_size, const uint8_t *payload,
			uint32_t len, unsigned nops)
{
	uint32_t hblks = h_size > 32768 ? (h_size + 32767) / 32768 : 1;
	uint32_t bblks = (len + 511) / 512, n = hblks + bblks;
	uint8_t *lin = calloc(n, BBSIZE);
	struct xlog_rec_header *h = (struct xlog_rec_header *)lin;

	memcpy(lin + hblks * BBSIZE, payload, len);
	put_be32(&h->h_magicno, XLOG_HEADER_MAGIC_NUM);
	put_be32(&h->h_cycle, cycle);
	put_be32(&h->h_version, 2);
	put_be32(&h->h_len, len);
	put_be64(&h->h_lsn, (uint64_t)lsn_make(cycle, blk));
	put_be64(&h->h_tail_lsn, (uint64_t)tail);
	put_be32(&h->h_prev_block, 0);
	put_be32(&h->h_num_logops, nops);
	put_be32(&h->h_fmt, XLOG_FMT_LINUX_LE);
	h->h_fs_uuid = test_uuid;
	put_be32(&h->h_size, h_size);
	for (uint32_t i = 0; i < bblks; i++) {
		uint8_t *sec = lin + (size_t)(hblks + i) * BBSIZE;
		uint32_t j = i / 64, k = i % 64;
		uint8_t *slot = j ? lin + (size_t)j * BBSIZE + 4 + 4 * k :
				    (uint8_t *)&h->h_cycle_data[k];

		memcpy(slot, sec, 4);
		store_be32(sec, cycle);
	}
	for (uint32_t j = 1; j < hblks; j++)
		store_be32(lin + (size_t)j * BBSIZE, cycle);
	for (uint32_t i = 1; i < n; i++)
		if (blk + i >= t->bbs)
			store_be32(lin + (size_t)i * BBSIZE, cycle + 1);
	put_le32(&h->h_crc, log_record_crc(lin, lin + hblks * BBSIZE, len,
					   LOG_REC_CRC_SIZE));
	for (uint32_t i = 0; i < n; i++)
		memcpy(blk_ptr(t, blk + i), lin + (size_t)i * BBSIZE, BBSIZE);
	free(lin);
	return n;
}

static uint32_t put_txn(struct tlog *t, uint32_t blk, uint32_t cycle,
			xfs_lsn_t tail, unsigned nitems, uint32_t itemlen)
{
	uint8_t *p = calloc(1, 300 * 1024);
	unsigned nops;
	uint32_t len = make_txn(p, blk + 77, nitems, itemlen, &nops);
	uint32_t size = len > 32768 ? 262144 : 32768;
	uint32_t n = put_rec(t, blk, cycle, tail, size, p, len, nops);

	free(p);
	return n;
}

static uint32_t put_unmount(struct tlog *t, uint32_t blk, uint32_t cycle,
			    xfs_lsn_t tail)
{
	uint8_t p[64];
	unsigned nops;
	uint32_t len = make_unmount(p, &nops);

	memset(p + len, 0, sizeof(p) - len);
	return put_rec(t, blk, cycle, tail, 32768, p, 16, nops);
}

static size_t count_code(const struct fs_findings *fl, const char *name)
{
	enum fs_problem c = problem_by_name(name);
	size_t n = 0;

	for (size_t i = 0; i < fl->n; i++)
		n += fl->v[i].code == c;
	return n;
}

/* log_check() and the state, head and findings it must give. */
static void expect(struct tlog *t, enum log_state state, uint32_t head,
		   uint32_t head_cycle, const char *only_finding)
{
	struct fs_findings fl;
	struct log_pos pos;
	char line[256];

	findings_init(&fl);
	ck_assert_int_eq(log_check(&t->log, &pos, &fl), 0);
	for (size_t i = 0; i < fl.n; i++) {
		finding_format(&fl.v[i], line, sizeof(line));
		if (!only_finding || strcmp(problem_info(fl.v[i].code)->name,
					    only_finding))
			ck_abort_msg("unexpected finding: %s", line);
	}
	if (only_finding)
		ck_assert_msg(count_code(&fl, only_finding) == 1,
			      "expected one %s", only_finding);
	ck_assert_str_eq(log_state_name(pos.state), log_state_name(state));
	if (state != LOG_STATE_CORRUPT) {
		ck_assert_uint_eq(pos.head_blk, head);
		ck_assert_uint_eq(pos.head_cycle, head_cycle);
	}
	findings_free(&fl);
}

START_TEST(read_zeroed)
{
	struct tlog t;

	tlog_init(&t, LOG_BBS);
	expect(&t, LOG_STATE_ZEROED, 0, 1, "LOG_ZEROED");
	/* written once, then block 0 wiped: not a log that was never used */
	store_be32(blk_ptr(&t, LOG_BBS - 1), 1);
	expect(&t, LOG_STATE_ZEROED, 0, 1, "LOG_PARTLY_ZEROED");
	tlog_free(&t);
}
END_TEST

START_TEST(read_formatted)
{
	struct tlog t;

	tlog_init(&t, LOG_BBS);
	log_format_buf(t.buf, LOG_BYTES, &test_uuid, 0, 1, 0);
	expect(&t, LOG_STATE_CLEAN, 2, 1, NULL);
	log_format_buf(t.buf, LOG_BYTES, &test_uuid, 65536, 1, LOG_FORMAT_CRC);
	expect(&t, LOG_STATE_CLEAN, 128, 1, NULL);
	log_format_buf(t.buf, LOG_BYTES, &test_uuid, 0, 5, 0);
	expect(&t, LOG_STATE_CLEAN, 2, 5, NULL);
	/* xfs_repair's layout: the kernel puts the head at 0 of cycle 4 */
	log_format_buf(t.buf, LOG_BYTES, &test_uuid, 0, 4, LOG_FORMAT_MAXREC);
	expect(&t, LOG_STATE_CLEAN, 0, 4, NULL);
	log_format_buf(t.buf, LOG_BYTES, &test_uuid, 262144, 9,
		       LOG_FORMAT_MAXREC | LOG_FORMAT_CRC);
	expect(&t, LOG_STATE_CLEAN, 512, 9, NULL);
	tlog_free(&t);
}
END_TEST

START_TEST(read_one_record)
{
	struct fs_findings fl;
	struct log_iter it;
	const struct log_rec *rec;
	struct log_op_iter oi;
	struct log_op op;
	struct tlog t;
	uint32_t n;
	unsigned nrec = 0, nop = 0;

	tlog_init(&t, LOG_BBS);
	log_format_buf(t.buf, LOG_BYTES, &test_uuid, 0, 1, 0);
	n = put_txn(&t, 2, 1, lsn_make(1, 2), 5, 700);
	expect(&t, LOG_STATE_DIRTY, 2 + n, 1, "LOG_DIRTY");

	/* the records and operations, as logprint would walk them */
	findings_init(&fl);
	log_iter_init(&it, &t.log, 2, 2 + n);
	while (log_iter_next(&it, &rec, &fl) == 1) {
		nrec++;
		ck_assert_uint_eq(rec->num_logops, 8);
		log_op_iter_init(&oi, rec);
		while (log_op_next(&oi, &t.log, &op, &fl) == 1) {
			ck_assert_uint_eq(op.tid, 2 + 77);
			ck_assert_uint_eq(op.clientid, XFS_TRANSACTION);
			if (nop == 0)
				ck_assert_uint_eq(op.flags, XLOG_START_TRANS);
			if (nop == 7)
				ck_assert_uint_eq(op.flags, XLOG_COMMIT_TRANS);
			if (nop >= 2 && nop < 7) {
				ck_assert_uint_eq(op.len, 700);
				for (uint32_t i = 0; i < op.len; i++)
					ck_assert_uint_eq(op.data[i],
						(uint8_t)(79 + nop - 2 + i * 7));
			}
			nop++;
		}
	}
	log_iter_release(&it);
	ck_assert_uint_eq(nrec, 1);
	ck_assert_uint_eq(nop, 8);
	ck_assert_uint_eq(fl.n, 0);
	findings_free(&fl);

	/* an unmount record after it makes the log clean again */
	n += put_unmount(&t, 2 + n, 1, lsn_make(1, 2 + n));
	expect(&t, LOG_STATE_CLEAN, 2 + n, 1, NULL);
	tlog_free(&t);
}
END_TEST

/* 200 KiB of data: cycle data in 7 extended headers must be put back */
START_TEST(read_extended_headers)
{
	struct fs_findings fl;
	struct log_rec rec = { 0 };
	struct log_op_iter oi;
	struct log_op op;
	struct tlog t;
	uint32_t n;
	unsigned nop = 0;

	tlog_init(&t, LOG_BBS);
	log_format_buf(t.buf, LOG_BYTES, &test_uuid, 0, 1, 0);
	n = put_txn(&t, 2, 1, lsn_make(1, 2), 50, 4000);
	expect(&t, LOG_STATE_DIRTY, 2 + n, 1, "LOG_DIRTY");
	findings_init(&fl);
	ck_assert_int_eq(log_rec_read(&t.log, 2, &rec, &fl), 0);
	ck_assert_uint_eq(rec.hblks, 8);
	ck_assert_uint_gt(rec.bblks, 64 * 6);
	ck_assert_uint_eq(log_rec_verify(&t.log, &rec, &fl), 0);
	log_op_iter_init(&oi, &rec);
	while (log_op_next(&oi, &t.log, &op, &fl) == 1) {
		if (nop >= 2 && nop < 52)
			for (uint32_t i = 0; i < op.len; i++)
				ck_assert_uint_eq(op.data[i],
					(uint8_t)(79 + nop - 2 + i * 7));
		nop++;
	}
	ck_assert_uint_eq(nop, 53);
	ck_assert_uint_eq(fl.n, 0);
	log_rec_release(&rec);
	findings_free(&fl);
	tlog_free(&t);
}
END_TEST

/*
 * A ring that has gone round: cycle 2 from block 0 to the head, cycle 1
 * after it, and one record split across the physical end.
 */
static uint32_t fill_lap(struct tlog *t, uint32_t *split_at)
{
	uint32_t b = 0, n;

	/* lap 1: 3-block records until one crosses the end */
	for (;;) {
		n = put_txn(t, b, 1, lsn_make(1, b), 1, 600);
		if (b + n >= t->bbs) {
			*split_at = b;
			return b + n - t->bbs;
		}
		b += n;
	}
}

START_TEST(read_wrapped)
{
	struct tlog t;
	uint32_t b, split, n;

	tlog_init(&t, 1001);	/* odd size: records do not divide it */
	b = fill_lap(&t, &split);
	ck_assert_uint_gt(b, 0);
	/* the split record is the last one: dirty, head in cycle 2 */
	expect(&t, LOG_STATE_DIRTY, b, 2, "LOG_DIRTY");
	/* lap 2 goes on a little and ends with an unmount record */
	for (int i = 0; i < 20; i++)
		b += put_txn(&t, b, 2, lsn_make(1, split), 1, 600);
	n = put_unmount(&t, b, 2, lsn_make(2, b));
	expect(&t, LOG_STATE_CLEAN, b + n, 2, NULL);
	/* dirty again: the head is still found between the two laps */
	memset(blk_ptr(&t, b), 0, BBSIZE);
	store_be32(blk_ptr(&t, b), 1);
	store_be32(blk_ptr(&t, b + 1), 1);
	expect(&t, LOG_STATE_DIRTY, b, 2, "LOG_DIRTY");
	tlog_free(&t);
}
END_TEST

/* A ring whose last record ends exactly at the physical end. */
START_TEST(read_head_at_zero)
{
	struct tlog t;
	uint32_t b = 0;

	tlog_init(&t, 1202);
	while (b < 1202 - 2)
		b += put_txn(&t, b, 3, lsn_make(3, b), 1, 600);
	ck_assert_uint_eq(b, 1202 - 2);
	put_unmount(&t, b, 3, lsn_make(3, b));
	expect(&t, LOG_STATE_CLEAN, 0, 4, NULL);
	tlog_free(&t);
}
END_TEST

/* A tail that names no header: the walk starts at the next one. */
START_TEST(read_tail_not_header)
{
	struct fs_findings fl;
	struct log_pos pos;
	struct tlog t;
	uint32_t n;

	tlog_init(&t, LOG_BBS);
	log_format_buf(t.buf, LOG_BYTES, &test_uuid, 0, 1, 0);
	n = put_txn(&t, 2, 1, lsn_make(1, 1), 2, 300);
	expect(&t, LOG_STATE_DIRTY, 2 + n, 1, "LOG_DIRTY");
	/* a tail ahead of its own record is impossible */
	put_txn(&t, 2, 1, lsn_make(1, 2 + n + 5), 2, 300);
	findings_init(&fl);
	ck_assert_int_eq(log_check(&t.log, &pos, &fl), 0);
	ck_assert_uint_eq(count_code(&fl, "LOG_BAD_TAIL"), 1);
	findings_free(&fl);
	tlog_free(&t);
}
END_TEST

static void three_records(struct tlog *t, uint32_t at[4], bool unmount_mid)
{
	log_format_buf(t->buf, LOG_BYTES, &test_uuid, 0, 1, 0);
	at[0] = 2;
	at[1] = at[0] + put_txn(t, at[0], 1, lsn_make(1, 2), 3, 900);
	if (unmount_mid)
		at[2] = at[1] + put_unmount(t, at[1], 1, lsn_make(1, at[1]));
	else
		at[2] = at[1] + put_txn(t, at[1], 1, lsn_make(1, 2), 3, 900);
	at[3] = at[2] + put_txn(t, at[2], 1, lsn_make(1, 2), 3, 900);
}

START_TEST(read_torn_crc)
{
	struct fs_findings fl;
	struct log_pos pos;
	struct tlog t;
	uint32_t at[4];

	tlog_init(&t, LOG_BBS);
	three_records(&t, at, false);
	expect(&t, LOG_STATE_DIRTY, at[3], 1, "LOG_DIRTY");
	/* the last record's data was not all written: CRC fails */
	blk_ptr(&t, at[2] + 2)[100] ^= 0xff;
	findings_init(&fl);
	ck_assert_int_eq(log_check(&t.log, &pos, &fl), 0);
	ck_assert_uint_eq(count_code(&fl, "LOG_TORN_WRITE"), 1);
	ck_assert_uint_eq(count_code(&fl, "LOG_BAD_CRC"), 0);
	ck_assert_uint_eq(count_code(&fl, "LOG_DIRTY"), 1);
	ck_assert_uint_eq(fl.nerrors, 0);
	ck_assert(pos.trimmed);
	ck_assert_uint_eq(pos.head_blk, at[2]);
	ck_assert_uint_eq(pos.rec_blk, at[1]);
	findings_free(&fl);

	/* if the record before it was an unmount record, the log is clean */
	three_records(&t, at, true);
	blk_ptr(&t, at[2] + 2)[100] ^= 0xff;
	findings_init(&fl);
	ck_assert_int_eq(log_check(&t.log, &pos, &fl), 0);
	ck_assert_uint_eq(count_code(&fl, "LOG_TORN_WRITE"), 1);
	ck_assert_uint_eq(fl.n, 1);
	ck_assert_str_eq(log_state_name(pos.state), "clean");
	ck_assert_uint_eq(pos.head_blk, at[2]);
	findings_free(&fl);
	tlog_free(&t);
}
END_TEST

/* A sector of the last record never written: it still has cycle 0. */
START_TEST(read_torn_sector)
{
	struct fs_findings fl;
	struct log_pos pos;
	struct tlog t;
	uint32_t at[4];

	tlog_init(&t, LOG_BBS);
	three_records(&t, at, false);
	memset(blk_ptr(&t, at[2] + 3), 0, BBSIZE);
	findings_init(&fl);
	ck_assert_int_eq(log_check(&t.log, &pos, &fl), 0);
	ck_assert_uint_eq(count_code(&fl, "LOG_TORN_WRITE"), 1);
	ck_assert_uint_eq(fl.nerrors, 0);
	ck_assert_uint_eq(pos.head_blk, at[2]);
	ck_assert_str_eq(log_state_name(pos.state), "dirty");
	findings_free(&fl);
	tlog_free(&t);
}
END_TEST

/* Damage far behind the head is corruption, not a torn write. */
START_TEST(read_damage_behind_head)
{
	struct fs_findings fl;
	struct log_pos pos;
	struct tlog t;
	uint32_t b = 2, first;

	tlog_init(&t, LOG_BBS);
	log_format_buf(t.buf, LOG_BYTES, &test_uuid, 0, 1, 0);
	first = b;
	for (int i = 0; i < 12; i++)
		b += put_txn(&t, b, 1, lsn_make(1, 2), 2, 800);
	blk_ptr(&t, first + 2)[40] ^= 0x01;
	findings_init(&fl);
	ck_assert_int_eq(log_check(&t.log, &pos, &fl), 0);
	ck_assert_uint_eq(count_code(&fl, "LOG_BAD_CRC"), 1);
	ck_assert_uint_eq(count_code(&fl, "LOG_TORN_WRITE"), 0);
	ck_assert(!pos.trimmed);
	ck_assert_uint_eq(pos.head_blk, b);
	findings_free(&fl);
	tlog_free(&t);
}
END_TEST

START_TEST(read_clean_damaged)
{
	struct tlog t;
	struct xlog_rec_header *h;

	tlog_init(&t, LOG_BBS);
	h = (struct xlog_rec_header *)t.buf;
	/* a CRC that is not zero and not right */
	log_format_buf(t.buf, LOG_BYTES, &test_uuid, 0, 1, 0);
	put_le32(&h->h_crc, 0x12345678);
	expect(&t, LOG_STATE_CLEAN, 2, 1, "LOG_BAD_CRC");
	/* a CRC over the i386 header size is accepted */
	log_format_buf(t.buf, LOG_BYTES, &test_uuid, 0, 1, 0);
	put_le32(&h->h_crc, log_record_crc(t.buf, t.buf + 512, 512,
					   LOG_REC_CRC_SIZE_I386));
	expect(&t, LOG_STATE_CLEAN, 2, 1, NULL);
	/* another filesystem's log */
	log_format_buf(t.buf, LOG_BYTES, &test_uuid, 0, 1, 0);
	h->h_fs_uuid.b[3] ^= 1;
	expect(&t, LOG_STATE_CLEAN, 2, 1, "LOG_BAD_UUID");
	/* no header magic: no record before the head */
	log_format_buf(t.buf, LOG_BYTES, &test_uuid, 0, 1, 0);
	t.buf[3] ^= 1;
	expect(&t, LOG_STATE_CORRUPT, 2, 1, "LOG_NO_RECORD");
	/* the wrong LSN block */
	log_format_buf(t.buf, LOG_BYTES, &test_uuid, 0, 1, 0);
	put_be64(&h->h_lsn, (uint64_t)lsn_make(1, 7));
	expect(&t, LOG_STATE_CLEAN, 2, 1, "LOG_BAD_LSN");
	/* an operation that is longer than its record */
	log_format_buf(t.buf, LOG_BYTES, &test_uuid, 0, 1, 0);
	store_be32(t.buf + 512 + 4, 9999);
	expect(&t, LOG_STATE_CLEAN, 2, 1, "LOG_BAD_OP");
	tlog_free(&t);
}
END_TEST

/* A record whose header was lost behind a complete one: a hole. */
START_TEST(read_head_gap)
{
	struct tlog t;
	uint32_t at[4];

	tlog_init(&t, LOG_BBS);
	three_records(&t, at, true);
	/* lose the last record's header: its sectors still say cycle 1 */
	memset(blk_ptr(&t, at[2]), 0x5a, BBSIZE);
	store_be32(blk_ptr(&t, at[2]), 1);
	{
		struct fs_findings fl;
		struct log_pos pos;

		findings_init(&fl);
		ck_assert_int_eq(log_check(&t.log, &pos, &fl), 0);
		ck_assert_uint_eq(count_code(&fl, "LOG_HEAD_GAP"), 1);
		/* as the kernel: the head goes back to the unmount record */
		ck_assert_uint_eq(pos.head_blk, at[1]);
		findings_free(&fl);
	}
	tlog_free(&t);
}
END_TEST

static uint32_t rnd_state = 12345;

static uint32_t rnd(void)
{
	rnd_state = rnd_state * 1103515245u + 12345u;
	return rnd_state >> 8;
}

/* Walk everything the way a logprint would, to exercise every path. */
static void walk_all(struct tlog *t)
{
	struct fs_findings fl;
	struct log_pos pos;
	struct log_iter it;
	const struct log_rec *rec;

	findings_init(&fl);
	ck_assert_int_eq(log_check(&t->log, &pos, &fl), 0);
	ck_assert_uint_lt(pos.head_blk, t->bbs);
	log_iter_init(&it, &t->log, pos.tail_blk, pos.head_blk);
	while (log_iter_next(&it, &rec, &fl) == 1) {
		struct log_op_iter oi;
		struct log_op op;

		log_rec_verify(&t->log, rec, &fl);
		log_op_iter_init(&oi, rec);
		while (log_op_next(&oi, &t->log, &op, &fl) == 1)
			ck_assert(op.data + op.len <= rec->data + rec->len);
	}
	log_iter_release(&it);
	for (size_t i = 0; i < fl.n; i++)
		ck_assert(!strncmp(problem_info(fl.v[i].code)->name, "LOG_", 4));
	findings_free(&fl);
}

START_TEST(read_hostile)
{
	struct tlog t;
	uint8_t *good;
	uint32_t b, split;

	tlog_init(&t, 1001);
	b = fill_lap(&t, &split);
	for (int i = 0; i < 10; i++)
		b += put_txn(&t, b, 2, lsn_make(1, split), 2, 300);
	good = malloc((size_t)t.bbs * BBSIZE);
	memcpy(good, t.buf, (size_t)t.bbs * BBSIZE);
	walk_all(&t);
	for (int round = 0; round < 3000; round++) {
		int nflips = 1 + (int)(rnd() % 12);

		memcpy(t.buf, good, (size_t)t.bbs * BBSIZE);
		for (int k = 0; k < nflips; k++) {
			uint32_t blk = rnd() % t.bbs;
			/* mostly the header fields, sometimes anywhere */
			uint32_t off = rnd() % 4 ? rnd() % 48 : rnd() % BBSIZE;

			if (rnd() % 3 == 0)
				store_be32(blk_ptr(&t, blk) + (off & ~3u), rnd());
			else
				blk_ptr(&t, blk)[off] ^= (uint8_t)(1 + rnd() % 255);
		}
		walk_all(&t);
	}
	free(good);
	tlog_free(&t);
}
END_TEST

/* Logs far too small for a record, and pure noise. */
START_TEST(read_tiny_and_noise)
{
	for (uint32_t bbs = 1; bbs < 40; bbs++) {
		for (int round = 0; round < 30; round++) {
			struct tlog t;

			tlog_init(&t, bbs);
			for (size_t i = 0; i < (size_t)bbs * BBSIZE; i++)
				t.buf[i] = (uint8_t)rnd();
			/* some blocks look like headers */
			for (uint32_t b = 0; b < bbs; b++)
				if (rnd() % 3 == 0)
					store_be32(blk_ptr(&t, b),
						   XLOG_HEADER_MAGIC_NUM);
			walk_all(&t);
			tlog_free(&t);
		}
	}
}
END_TEST

START_TEST(init_refuses)
{
	struct fs_log log;
	uint8_t b[1024] = { 0 };

	ck_assert_int_eq(log_init_mem(&log, b, 0, &test_uuid, 0), -EINVAL);
	ck_assert_int_eq(log_init_mem(&log, b, 1000, &test_uuid, 0), -EINVAL);
	ck_assert_int_eq(log_init_mem(&log, NULL, 1024, &test_uuid, 0),
			 -EINVAL);
	ck_assert_int_eq(log_init_mem(&log, b, 1024, &test_uuid, 1), 0);
	ck_assert_uint_eq(log.sunit, 0);
	ck_assert_uint_eq(log.bbs, 2);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("log");
	TCase *tc = tcase_create("format");

	tcase_add_test(tc, format_cycle1_plain);
	tcase_add_test(tc, format_sunit_64k);
	tcase_add_test(tc, format_later_cycle);
	tcase_add_test(tc, format_maxrec);
	tcase_add_test(tc, format_crc);
	tcase_add_test(tc, format_odd_sunit);
	tcase_add_test(tc, format_refuses);
	suite_add_tcase(s, tc);
	tc = tcase_create("read");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, init_refuses);
	tcase_add_test(tc, read_zeroed);
	tcase_add_test(tc, read_formatted);
	tcase_add_test(tc, read_one_record);
	tcase_add_test(tc, read_extended_headers);
	tcase_add_test(tc, read_wrapped);
	tcase_add_test(tc, read_head_at_zero);
	tcase_add_test(tc, read_tail_not_header);
	tcase_add_test(tc, read_torn_crc);
	tcase_add_test(tc, read_torn_sector);
	tcase_add_test(tc, read_damage_behind_head);
	tcase_add_test(tc, read_clean_damaged);
	tcase_add_test(tc, read_head_gap);
	tcase_add_test(tc, read_hostile);
	tcase_add_test(tc, read_tiny_and_noise);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
