/*
 * CRC32C (Castagnoli), the checksum of all v5 metadata
 * (metadata_integrity.asciidoc).  A metadata checksum is the standard
 * CRC32C (seed ~0, result inverted) of the whole object with its CRC field
 * taken as zero, stored little-endian.
 */
#ifndef XK_FORMAT_CRC32C_H
#define XK_FORMAT_CRC32C_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

/* Raw update: no pre- or post-inversion.  crc32c("...") = ~crc32c_update(~0, ...). */
uint32_t crc32c_update(uint32_t crc, const void *buf, size_t len);

/* Standard CRC32C of a buffer. */
static inline uint32_t crc32c(const void *buf, size_t len)
{
	return ~crc32c_update(~0u, buf, len);
}

/* Force the portable implementation (tests and benchmarks compare both). */
void crc32c_force_portable(bool portable);
bool crc32c_hw_available(void);

/* Checksum of an object whose CRC field sits at crc_off. */
uint32_t xfs_cksum_calc(const void *buf, size_t len, size_t crc_off);
/* Does the stored CRC match?  Write one. */
bool xfs_cksum_verify(const void *buf, size_t len, size_t crc_off);
void xfs_cksum_update(void *buf, size_t len, size_t crc_off);
/* The stored value, as xfs_db shows it. */
uint32_t xfs_cksum_stored(const void *buf, size_t crc_off);

#endif
