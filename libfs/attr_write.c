/*
 * Where an attribute fork goes in the inode (see attr_write.h).
 *
 * Facts (kernel's shortform "bytes fit" rule and attribute fork
 * creation):
 *   - a device inode's attribute fork starts 8 bytes in, always;
 *   - otherwise a fork offset must leave the data fork at least the
 *     room of a 3-record bmap btree root (and what the data fork uses
 *     now), and the attribute fork at least a 2-record root;
 *   - within those bounds the attribute fork is made as small as the
 *     bytes need, but never smaller than the 2-record root;
 *   - short form that already fits the current fork keeps its offset; a
 *     btree data fork never moves an existing offset;
 *   - with no size in mind the fork goes at a fixed offset: 196 bytes
 *     (a 12-record root) into the literal area, or for 256-byte inodes
 *     the literal area less a 2-record root.
 */
#include "config.h"
#include <string.h>
#include "attr_write.h"
#include "format/btree.h"
#include "format/endian.h"

#define DI_OFF(m)	offsetof(struct xfs_dinode, m)

/* a bmap btree root in the inode of n records: header, keys, pointers */
#define BMDR_SPACE(n)	(4u + (n) * 16u)
#define MIN_DATA_ROOT	3	/* records a data fork root must keep room for */
#define MIN_ATTR_ROOT	2
/* the long-format bmbt block header the kernel keeps an in-memory root in */
#define BMBT_CRC_BLOCK_LEN 72u

static uint64_t di_nextents(const struct fs_geom *g, const uint8_t *di)
{
	if (g->has_nrext64 &&
	    (load_be64(di + DI_OFF(di_flags2)) & XFS_DIFLAG2_NREXT64))
		return load_be64(di + DI_OFF(u24.di_big_nextents));
	return load_be32(di + DI_OFF(u76.small.di_nextents));
}

unsigned attr_default_forkoff(const struct fs_geom *g, const uint8_t *di)
{
	if (di[DI_OFF(di_format)] == XFS_DINODE_FMT_DEV)
		return 1;
	if (g->inodesize == 256)
		return (attr_litino(g) - BMDR_SPACE(MIN_ATTR_ROOT)) >> 3;
	return BMDR_SPACE(6 * MIN_ATTR_ROOT) >> 3;
}

uint32_t attr_dfork_bytes(const struct fs_geom *g, const uint8_t *di)
{
	const uint8_t *df = di + XFS_DINODE_CORE_SIZE;

	switch (di[DI_OFF(di_format)]) {
	case XFS_DINODE_FMT_LOCAL:
		return (uint32_t)load_be64(di + DI_OFF(di_size));
	case XFS_DINODE_FMT_EXTENTS:
		return (uint32_t)(di_nextents(g, di) * 16);
	case XFS_DINODE_FMT_BTREE:
		return BMDR_SPACE(load_be16(df + 2));
	default:
		return 0;
	}
}

unsigned attr_sf_bytesfit(const struct fs_geom *g, const uint8_t *di,
			  uint32_t bytes)
{
	unsigned forkoff = di[DI_OFF(di_forkoff)];
	uint32_t lit = attr_litino(g), dsize, minoff, maxoff;
	int64_t offset = ((int64_t)lit - bytes) >> 3;
	const uint8_t *df = di + XFS_DINODE_CORE_SIZE;

	if (bytes > lit)
		return 0;
	if (di[DI_OFF(di_format)] == XFS_DINODE_FMT_DEV)
		return offset >= 1 ? 1 : 0;
	if (forkoff && bytes <= lit - forkoff * 8)
		return forkoff;
	dsize = attr_dfork_bytes(g, di);
	switch (di[DI_OFF(di_format)]) {
	case XFS_DINODE_FMT_EXTENTS:
		/* a new default fork would push the extents into a btree */
		if (!forkoff && dsize > attr_default_forkoff(g, di) * 8)
			dsize = BMDR_SPACE(MIN_DATA_ROOT);
		break;
	case XFS_DINODE_FMT_BTREE:
		if (forkoff)
			return offset < forkoff ? 0 : forkoff;
		/* the kernel measures its in-memory root, long header and all */
		dsize = BMBT_CRC_BLOCK_LEN + load_be16(df + 2) * 16u;
		break;
	}
	minoff = dsize > BMDR_SPACE(MIN_DATA_ROOT) ? dsize :
		 BMDR_SPACE(MIN_DATA_ROOT);
	minoff = (minoff + 7) >> 3;
	maxoff = (lit - BMDR_SPACE(MIN_ATTR_ROOT)) >> 3;
	if (offset >= maxoff)
		return maxoff;
	if (offset >= minoff)
		return (unsigned)offset;
	return 0;
}

static uint32_t bmdr_maxrecs(uint32_t size)
{
	return (size - 4) / 16;
}

bool attr_dfork_fits(const struct fs_geom *g, const uint8_t *di,
		     unsigned forkoff, bool *relayout)
{
	uint32_t old = di[DI_OFF(di_forkoff)] ? di[DI_OFF(di_forkoff)] * 8u :
		       attr_litino(g);
	uint32_t size = forkoff * 8u;

	*relayout = false;
	switch (di[DI_OFF(di_format)]) {
	case XFS_DINODE_FMT_DEV:
		return size >= 4;
	case XFS_DINODE_FMT_BTREE:
		*relayout = bmdr_maxrecs(old) != bmdr_maxrecs(size);
		return attr_dfork_bytes(g, di) <= size;
	default:
		return attr_dfork_bytes(g, di) <= size;
	}
}

void attr_dfork_relayout(const struct fs_geom *g, uint8_t *di,
			 unsigned new_forkoff)
{
	uint8_t *df = di + XFS_DINODE_CORE_SIZE;
	uint32_t old = di[DI_OFF(di_forkoff)] ? di[DI_OFF(di_forkoff)] * 8u :
		       attr_litino(g);
	uint32_t omax = bmdr_maxrecs(old), nmax = bmdr_maxrecs(new_forkoff * 8u);
	uint32_t n = load_be16(df + 2);
	uint8_t ptrs[2048];

	if (n > nmax || n > omax || omax == nmax)
		return;
	memcpy(ptrs, df + 4 + omax * 8, n * 8);
	memset(df + 4 + n * 8, 0, old - 4 - n * 8);
	memcpy(df + 4 + nmax * 8, ptrs, n * 8);
}
