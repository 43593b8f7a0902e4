/*
 * CRC32C against known vectors (RFC 3720 appendix B.4 and the usual
 * "123456789" check value), hardware and portable paths agreeing on
 * every length and alignment, and the XFS metadata checksum convention
 * (CRC field taken as zero, stored little-endian).
 */
#include "config.h"
#include "unit.h"
#include <stdlib.h>
#include <string.h>
#include "format/crc32c.h"

START_TEST(known_vectors)
{
	uint8_t buf[32];

	ck_assert_uint_eq(crc32c("123456789", 9), 0xe3069283u);
	memset(buf, 0, sizeof(buf));
	ck_assert_uint_eq(crc32c(buf, 32), 0x8a9136aau);
	memset(buf, 0xff, sizeof(buf));
	ck_assert_uint_eq(crc32c(buf, 32), 0x62a8ab43u);
	for (int i = 0; i < 32; i++)
		buf[i] = i;
	ck_assert_uint_eq(crc32c(buf, 32), 0x46dd794eu);
	for (int i = 0; i < 32; i++)
		buf[i] = 31 - i;
	ck_assert_uint_eq(crc32c(buf, 32), 0x113fdb5cu);
	ck_assert_uint_eq(crc32c(buf, 0), 0);
}
END_TEST

START_TEST(portable_matches_hw)
{
	uint8_t *buf = malloc(4096 + 16);

	srand(7);
	for (int i = 0; i < 4096 + 16; i++)
		buf[i] = rand();
	for (size_t off = 0; off < 9; off++)
		for (size_t len = 0; len < 300; len += 7) {
			uint32_t a, b;

			crc32c_force_portable(false);
			a = crc32c(buf + off, len);
			crc32c_force_portable(true);
			b = crc32c(buf + off, len);
			ck_assert_uint_eq(a, b);
		}
	crc32c_force_portable(false);
	free(buf);
}
END_TEST

START_TEST(portable_known_vector)
{
	crc32c_force_portable(true);
	ck_assert_uint_eq(crc32c("123456789", 9), 0xe3069283u);
	crc32c_force_portable(false);
}
END_TEST

START_TEST(metadata_checksum)
{
	uint8_t blk[512];

	for (int i = 0; i < 512; i++)
		blk[i] = i * 13;
	xfs_cksum_update(blk, sizeof(blk), 100);
	ck_assert(xfs_cksum_verify(blk, sizeof(blk), 100));
	/* the stored value is the CRC of the block with the field zeroed */
	{
		uint8_t copy[512];
		uint32_t stored = xfs_cksum_stored(blk, 100);

		memcpy(copy, blk, sizeof(copy));
		memset(copy + 100, 0, 4);
		ck_assert_uint_eq(stored, crc32c(copy, sizeof(copy)));
		ck_assert_uint_eq(blk[100], stored & 0xff);	/* little-endian */
	}
	blk[7] ^= 1;
	ck_assert(!xfs_cksum_verify(blk, sizeof(blk), 100));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("crc32c");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, known_vectors);
	tcase_add_test(tc, portable_matches_hw);
	tcase_add_test(tc, portable_known_vector);
	tcase_add_test(tc, metadata_checksum);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
