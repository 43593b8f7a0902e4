/*
 * The log on synthetic images in memory: what log_format_buf() writes
 * (field by field, for no stripe unit, a 64 KiB one, later cycles, the
 * 256 KiB filler layout, CRCs), and its refusals.
 */
#include "config.h"
#include <check.h>
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

START_TEST(format_refuses)
{
	uint8_t *log = malloc(LOG_BYTES);

	ck_assert_int_eq(log_format_buf(log, LOG_BYTES, &test_uuid, 0, 0, 0),
			 -EINVAL);
	ck_assert_int_eq(log_format_buf(log, LOG_BYTES, &test_uuid, 0,
					XLOG_HEADER_MAGIC_NUM, 0), -EINVAL);
	ck_assert_int_eq(log_format_buf(log, LOG_BYTES, &test_uuid, 0,
					XLOG_HEADER_MAGIC_NUM + 1, 0), -EINVAL);
	ck_assert_int_eq(log_format_buf(log, LOG_BYTES - 512, &test_uuid, 0,
					1, 0), -EINVAL);
	ck_assert_int_eq(log_format_buf(log, LOG_BYTES, &test_uuid, 512 * 1024,
					1, 0), -EINVAL);
	ck_assert_int_eq(log_format_buf(log, LOG_BYTES, &test_uuid, 1536,
					1, 0), -EINVAL);
	/* a log smaller than its first record */
	ck_assert_int_eq(log_format_buf(log, 64 * 1024, &test_uuid, 128 * 1024,
					1, 0), -EINVAL);
	ck_assert_int_eq(log_format_buf(log, 0, &test_uuid, 0, 1, 0), -EINVAL);
	free(log);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("log");
	TCase *tc = tcase_create("format");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, format_cycle1_plain);
	tcase_add_test(tc, format_sunit_64k);
	tcase_add_test(tc, format_later_cycle);
	tcase_add_test(tc, format_maxrec);
	tcase_add_test(tc, format_crc);
	tcase_add_test(tc, format_refuses);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
