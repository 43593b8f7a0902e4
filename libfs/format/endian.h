/*
 * Big-endian on-disk integers.
 *
 * Every multi-byte integer in XFS metadata is big-endian except the CRC
 * fields (stored little-endian, see metadata_integrity.asciidoc).  The on-disk
 * types below are byte arrays wrapped in structs, so the compiler refuses
 * arithmetic on a raw disk value: the only way in or out is get_*()/put_*().
 * They have alignment 1, so on-disk structures built from them need no
 * packing attribute and can be overlaid on any buffer offset.
 */
#ifndef XK_FORMAT_ENDIAN_H
#define XK_FORMAT_ENDIAN_H

#include <stdint.h>
#include <string.h>

typedef struct { uint8_t b[2]; } be16;
typedef struct { uint8_t b[4]; } be32;
typedef struct { uint8_t b[8]; } be64;
typedef struct { uint8_t b[4]; } le32;

static inline uint16_t get_be16(be16 v)
{
	return (uint16_t)(v.b[0] << 8 | v.b[1]);
}

static inline uint32_t get_be32(be32 v)
{
	uint32_t x;

	memcpy(&x, v.b, 4);
	return __builtin_bswap32(x);
}

static inline uint64_t get_be64(be64 v)
{
	uint64_t x;

	memcpy(&x, v.b, 8);
	return __builtin_bswap64(x);
}

static inline uint32_t get_le32(le32 v)
{
	return (uint32_t)v.b[0] | (uint32_t)v.b[1] << 8 |
	       (uint32_t)v.b[2] << 16 | (uint32_t)v.b[3] << 24;
}

static inline void put_be16(be16 *d, uint16_t v)
{
	d->b[0] = v >> 8;
	d->b[1] = v & 0xff;
}

static inline void put_be32(be32 *d, uint32_t v)
{
	v = __builtin_bswap32(v);
	memcpy(d->b, &v, 4);
}

static inline void put_be64(be64 *d, uint64_t v)
{
	v = __builtin_bswap64(v);
	memcpy(d->b, &v, 8);
}

static inline void put_le32(le32 *d, uint32_t v)
{
	d->b[0] = v;
	d->b[1] = v >> 8;
	d->b[2] = v >> 16;
	d->b[3] = v >> 24;
}

/* Raw big-endian loads from an arbitrary byte pointer (unaligned is fine). */
static inline uint16_t load_be16(const void *p)
{
	const uint8_t *b = p;

	return (uint16_t)(b[0] << 8 | b[1]);
}

static inline uint32_t load_be32(const void *p)
{
	uint32_t x;

	memcpy(&x, p, 4);
	return __builtin_bswap32(x);
}

static inline uint64_t load_be64(const void *p)
{
	uint64_t x;

	memcpy(&x, p, 8);
	return __builtin_bswap64(x);
}

static inline void store_be16(void *p, uint16_t v)
{
	uint8_t *b = p;

	b[0] = v >> 8;
	b[1] = v & 0xff;
}

static inline void store_be32(void *p, uint32_t v)
{
	v = __builtin_bswap32(v);
	memcpy(p, &v, 4);
}

static inline void store_be64(void *p, uint64_t v)
{
	v = __builtin_bswap64(v);
	memcpy(p, &v, 8);
}

#endif
