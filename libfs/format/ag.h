/*
 * Allocation group headers (allocation_groups.asciidoc): the AG free space
 * header (AGF), the AG inode header (AGI) and the AG free list (AGFL).  They
 * occupy sectors 1, 2 and 3 of every AG, after the superblock copy in
 * sector 0.
 */
#ifndef XK_FORMAT_AG_H
#define XK_FORMAT_AG_H

#include "types.h"

#define XFS_AGF_MAGIC		0x58414746	/* "XAGF" */
#define XFS_AGI_MAGIC		0x58414749	/* "XAGI" */
#define XFS_AGFL_MAGIC		0x5841464c	/* "XAFL" */
#define XFS_AGF_VERSION		1
#define XFS_AGI_VERSION		1

/* Sector index of each header inside the AG (in sectors of sb_sectsize). */
#define XFS_SB_SECTOR		0
#define XFS_AGF_SECTOR		1
#define XFS_AGI_SECTOR		2
#define XFS_AGFL_SECTOR		3

/* Index of the free-space btree roots inside agf_roots/agf_levels. */
#define XFS_AGF_BNO		0
#define XFS_AGF_CNT		1
#define XFS_AGF_RMAP		2
#define XFS_AGF_NROOTS		3

#define XFS_BTREE_MAXLEVELS	9	/* AG btrees (bno, cnt, ino, fino) */
#define XFS_RMAP_MAXLEVELS	9

/* agf_flags (not in 6.1 kernels' disk format, but reserved) */

struct xfs_agf {
	be32		agf_magicnum;
	be32		agf_versionnum;
	be32		agf_seqno;
	be32		agf_length;
	be32		agf_roots[XFS_AGF_NROOTS];
	be32		agf_levels[XFS_AGF_NROOTS];
	be32		agf_flfirst;
	be32		agf_fllast;
	be32		agf_flcount;
	be32		agf_freeblks;
	be32		agf_longest;
	be32		agf_btreeblks;	/* bno+cnt(+rmap) blocks beyond roots */
	xfs_uuid_t	agf_uuid;
	be32		agf_rmap_blocks;
	be32		agf_refcount_blocks;
	be32		agf_refcount_root;
	be32		agf_refcount_level;
	be64		agf_spare64[14];
	be64		agf_lsn;
	le32		agf_crc;
	be32		agf_spare2;
};

#define XFS_AGF_CRC_OFF		offsetof(struct xfs_agf, agf_crc)
_Static_assert(sizeof(struct xfs_agf) == 224, "xfs_agf size");
_Static_assert(offsetof(struct xfs_agf, agf_crc) == 216, "agf_crc offset");

#define XFS_AGI_UNLINKED_BUCKETS 64

struct xfs_agi {
	be32		agi_magicnum;
	be32		agi_versionnum;
	be32		agi_seqno;
	be32		agi_length;
	be32		agi_count;	/* allocated inodes */
	be32		agi_root;	/* inobt root */
	be32		agi_level;
	be32		agi_freecount;
	be32		agi_newino;	/* most recently allocated chunk */
	be32		agi_dirino;	/* unused, NULLAGINO */
	be32		agi_unlinked[XFS_AGI_UNLINKED_BUCKETS];
	xfs_uuid_t	agi_uuid;
	le32		agi_crc;
	be32		agi_pad32;
	be64		agi_lsn;
	be32		agi_free_root;	/* finobt root */
	be32		agi_free_level;
	be32		agi_iblocks;	/* inobtcount: inobt blocks */
	be32		agi_fblocks;	/* inobtcount: finobt blocks */
};

#define XFS_AGI_CRC_OFF		offsetof(struct xfs_agi, agi_crc)
_Static_assert(sizeof(struct xfs_agi) == 344, "xfs_agi size");
_Static_assert(offsetof(struct xfs_agi, agi_crc) == 312, "agi_crc offset");

/* The v5 AGFL: a header, then an array of be32 AG block numbers. */
struct xfs_agfl {
	be32		agfl_magicnum;
	be32		agfl_seqno;
	xfs_uuid_t	agfl_uuid;
	be64		agfl_lsn;
	le32		agfl_crc;
	/* be32 agfl_bno[] follows */
};

#define XFS_AGFL_CRC_OFF	offsetof(struct xfs_agfl, agfl_crc)
#define XFS_AGFL_HDR_SIZE	36
_Static_assert(sizeof(struct xfs_agfl) == XFS_AGFL_HDR_SIZE, "xfs_agfl size");

#endif
