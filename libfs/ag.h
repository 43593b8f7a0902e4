/*
 * AG headers (allocation_groups.asciidoc): the free space header (AGF),
 * the inode header (AGI) and the free list (AGFL) of each AG, in host
 * form, with their buffer ops and verifiers.
 *
 * The verifiers check what one header says about itself and against the
 * geometry: identity (magic, version, seqno, CRC, UUID, LSN), sizes,
 * btree roots and heights, free list indexes, counters in range.  What a
 * header says about the trees it roots (free block totals, inode counts,
 * block counts) is checked by ag_check() (ag_check.h), which walks them.
 */
#ifndef XK_AG_H
#define XK_AG_H

#include "fs.h"
#include "format/ag.h"

struct fs_agf {
	uint32_t	magicnum;
	uint32_t	versionnum;
	uint32_t	seqno;
	uint32_t	length;
	uint32_t	roots[XFS_AGF_NROOTS];	/* bno, cnt, rmap */
	uint32_t	levels[XFS_AGF_NROOTS];
	uint32_t	flfirst;
	uint32_t	fllast;
	uint32_t	flcount;
	uint32_t	freeblks;
	uint32_t	longest;
	uint32_t	btreeblks;
	xfs_uuid_t	uuid;
	uint32_t	rmap_blocks;
	uint32_t	refcount_blocks;
	uint32_t	refcount_root;
	uint32_t	refcount_level;
	xfs_lsn_t	lsn;
	uint32_t	crc;
};

struct fs_agi {
	uint32_t	magicnum;
	uint32_t	versionnum;
	uint32_t	seqno;
	uint32_t	length;
	uint32_t	count;
	uint32_t	root;
	uint32_t	level;
	uint32_t	freecount;
	uint32_t	newino;
	uint32_t	dirino;
	uint32_t	unlinked[XFS_AGI_UNLINKED_BUCKETS];
	xfs_uuid_t	uuid;
	uint32_t	crc;
	xfs_lsn_t	lsn;
	uint32_t	free_root;
	uint32_t	free_level;
	uint32_t	iblocks;
	uint32_t	fblocks;
};

/* The AGFL header; the entries follow it (agfl_entries()). */
struct fs_agfl {
	uint32_t	magicnum;
	uint32_t	seqno;
	xfs_uuid_t	uuid;
	xfs_lsn_t	lsn;
	uint32_t	crc;
};

void agf_decode(const struct xfs_agf *d, struct fs_agf *a);
void agf_encode(const struct fs_agf *a, struct xfs_agf *d);
void agi_decode(const struct xfs_agi *d, struct fs_agi *a);
void agi_encode(const struct fs_agi *a, struct xfs_agi *d);
void agfl_decode(const struct xfs_agfl *d, struct fs_agfl *a);

/* Number of entries of the AGFL: (sector - header) / 4. */
static inline unsigned agfl_size(const struct fs_geom *g)
{
	return (g->sectsize - XFS_AGFL_HDR_SIZE) / sizeof(be32);
}

/* The AGFL's entry array inside its sector. */
static inline const be32 *agfl_entries(const void *agfl_sector)
{
	return (const be32 *)((const uint8_t *)agfl_sector + XFS_AGFL_HDR_SIZE);
}

/*
 * The first AG block after the four header sectors: no btree block,
 * free extent or inode chunk may start below it.
 */
static inline xfs_agblock_t ag_first_block(const struct fs_geom *g)
{
	return (xfs_agblock_t)(((uint64_t)XFS_AGFL_SECTOR * g->sectsize) >>
			       g->blocklog) + 1;
}

/* Is [agbno, agbno + len) inside the AG and clear of its headers? */
static inline bool ag_extent_ok(const struct fs_geom *g, xfs_agnumber_t agno,
				xfs_agblock_t agbno, uint64_t len)
{
	uint32_t size = geom_ag_blocks(g, agno);

	return len && agbno >= ag_first_block(g) && agbno < size &&
	       len <= size - agbno;
}

/*
 * Verify one header on its own.  raw/len is the header's sector.
 * Return the number of SEV_ERROR findings added.
 */
unsigned agf_verify(struct fs *fs, xfs_agnumber_t agno, const void *raw,
		    size_t len, struct fs_findings *fl);
unsigned agi_verify(struct fs *fs, xfs_agnumber_t agno, const void *raw,
		    size_t len, struct fs_findings *fl);
unsigned agfl_verify(struct fs *fs, xfs_agnumber_t agno, const void *raw,
		     size_t len, struct fs_findings *fl);

extern const struct buf_ops agf_buf_ops, agi_buf_ops, agfl_buf_ops;

/*
 * Read (through the cache, verified) and decode a header.  Returns 0
 * and a held buffer, which may be corrupt (check buf_corrupt()), or a
 * negative errno.  agf/agi may be NULL.
 */
int ag_read_agf(struct fs *fs, xfs_agnumber_t agno, struct fs_findings *fl,
		struct fs_buf **bpp, struct fs_agf *agf);
int ag_read_agi(struct fs *fs, xfs_agnumber_t agno, struct fs_findings *fl,
		struct fs_buf **bpp, struct fs_agi *agi);
int ag_read_agfl(struct fs *fs, xfs_agnumber_t agno, struct fs_findings *fl,
		 struct fs_buf **bpp);

/*
 * Are the AGF's free list indexes usable: flfirst and fllast inside the
 * AGFL, and flcount the number of slots from flfirst to fllast
 * (wrapping)?  *active gets that number.
 */
bool agf_freelist_ok(const struct fs_geom *g, const struct fs_agf *agf,
		     unsigned *active);

/*
 * The slots from flfirst to fllast (wrapping at the end of the array):
 * the list the kernel takes blocks from and xfs_repair and xfs_db check
 * walk, whatever flcount says (a count that disagrees is reported by
 * agf_verify).  0 when flcount is 0 or an index is outside the AGFL.
 */
unsigned agfl_span(const struct fs_geom *g, const struct fs_agf *agf);

/*
 * Each AGFL entry of agfl_span() in list order from flfirst, wrapping at
 * the end of the array.  idx is the slot.  Non-zero from fn stops and is
 * returned.
 */
typedef int (*agfl_fn)(xfs_agnumber_t agno, unsigned idx, xfs_agblock_t agbno,
		       void *priv);
int agfl_walk(const struct fs_geom *g, xfs_agnumber_t agno,
	      const struct fs_agf *agf, const void *agfl_sector,
	      agfl_fn fn, void *priv);

#endif
