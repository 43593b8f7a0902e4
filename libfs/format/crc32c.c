/*
 * CRC32C: the SSE4.2 crc32 instruction when the CPU has it (checked once at
 * run time), otherwise slicing-by-8 tables built at first use.
 */
#include "config.h"
#include <pthread.h>
#include <string.h>
#include "crc32c.h"

/* slicing-by-8 folds little-endian word loads */
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
	       "crc32c.c assumes a little-endian host");

#define CRC32C_POLY_REV	0x82f63b78u	/* Castagnoli, bit-reversed */

static uint32_t crc_table[8][256];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;
static bool force_portable;

static void crc32c_build_tables(void)
{
	for (unsigned i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (CRC32C_POLY_REV & -(c & 1));
		crc_table[0][i] = c;
	}
	for (unsigned i = 0; i < 256; i++)
		for (int t = 1; t < 8; t++)
			crc_table[t][i] = (crc_table[t - 1][i] >> 8) ^
					  crc_table[0][crc_table[t - 1][i] & 0xff];
}

static uint32_t crc32c_portable(uint32_t crc, const uint8_t *p, size_t len)
{
	pthread_once(&table_once, crc32c_build_tables);
	while (len && ((uintptr_t)p & 7)) {
		crc = crc_table[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
		len--;
	}
	while (len >= 8) {
		uint64_t w;

		memcpy(&w, p, 8);
		w ^= crc;
		crc = crc_table[7][w & 0xff] ^
		      crc_table[6][(w >> 8) & 0xff] ^
		      crc_table[5][(w >> 16) & 0xff] ^
		      crc_table[4][(w >> 24) & 0xff] ^
		      crc_table[3][(w >> 32) & 0xff] ^
		      crc_table[2][(w >> 40) & 0xff] ^
		      crc_table[1][(w >> 48) & 0xff] ^
		      crc_table[0][w >> 56];
		p += 8;
		len -= 8;
	}
	while (len--)
		crc = crc_table[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2")))
static uint32_t crc32c_sse42(uint32_t crc, const uint8_t *p, size_t len)
{
	uint64_t c = crc;

	while (len && ((uintptr_t)p & 7)) {
		c = __builtin_ia32_crc32qi((uint32_t)c, *p++);
		len--;
	}
	/* three-way interleave would go faster; one stream is ~1 byte/cycle */
	while (len >= 8) {
		uint64_t w;

		memcpy(&w, p, 8);
		c = __builtin_ia32_crc32di(c, w);
		p += 8;
		len -= 8;
	}
	while (len--)
		c = __builtin_ia32_crc32qi((uint32_t)c, *p++);
	return (uint32_t)c;
}

bool crc32c_hw_available(void)
{
	static int have = -1;

	if (have < 0) {
		__builtin_cpu_init();
		have = __builtin_cpu_supports("sse4.2") ? 1 : 0;
	}
	return have;
}
#else
bool crc32c_hw_available(void)
{
	return false;
}
#endif

void crc32c_force_portable(bool portable)
{
	force_portable = portable;
}

uint32_t crc32c_update(uint32_t crc, const void *buf, size_t len)
{
#if defined(__x86_64__)
	if (!force_portable && crc32c_hw_available())
		return crc32c_sse42(crc, buf, len);
#endif
	return crc32c_portable(crc, buf, len);
}

uint32_t xfs_cksum_calc(const void *buf, size_t len, size_t crc_off)
{
	static const uint8_t zero[4];
	uint32_t c;

	c = crc32c_update(~0u, buf, crc_off);
	c = crc32c_update(c, zero, 4);
	c = crc32c_update(c, (const uint8_t *)buf + crc_off + 4,
			  len - crc_off - 4);
	return ~c;
}

uint32_t xfs_cksum_stored(const void *buf, size_t crc_off)
{
	const uint8_t *p = (const uint8_t *)buf + crc_off;

	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

bool xfs_cksum_verify(const void *buf, size_t len, size_t crc_off)
{
	return xfs_cksum_stored(buf, crc_off) == xfs_cksum_calc(buf, len, crc_off);
}

void xfs_cksum_update(void *buf, size_t len, size_t crc_off)
{
	uint32_t c = xfs_cksum_calc(buf, len, crc_off);
	uint8_t *p = (uint8_t *)buf + crc_off;

	p[0] = c;
	p[1] = c >> 8;
	p[2] = c >> 16;
	p[3] = c >> 24;
}
