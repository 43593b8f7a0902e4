/*
 * Btree blocks (btrees.asciidoc, rmapbt.asciidoc, refcountbt.asciidoc).
 * AG btrees (bno, cnt, ino, fino, rmap, refcount) use the short form with
 * 32-bit AG block pointers; the inode's bmap btree uses the long form with
 * 64-bit filesystem block pointers.  v5 headers add blkno, lsn, uuid, owner
 * and crc.  After the header come records (leaves) or keys then pointers
 * (nodes), each array sized by the block's maximum record count.
 */
#ifndef XK_FORMAT_BTREE_H
#define XK_FORMAT_BTREE_H

#include "types.h"

#define XFS_ABTB_CRC_MAGIC	0x41423342	/* "AB3B" bnobt */
#define XFS_ABTC_CRC_MAGIC	0x41423343	/* "AB3C" cntbt */
#define XFS_IBT_CRC_MAGIC	0x49414233	/* "IAB3" inobt */
#define XFS_FIBT_CRC_MAGIC	0x46494233	/* "FIB3" finobt */
#define XFS_RMAP_CRC_MAGIC	0x524d4233	/* "RMB3" rmapbt */
#define XFS_REFC_CRC_MAGIC	0x52334643	/* "R3FC" refcountbt */
#define XFS_BMAP_CRC_MAGIC	0x424d4133	/* "BMA3" bmbt */
/* v4 magics, recognised only to say "this is a v4 filesystem" */
#define XFS_ABTB_MAGIC		0x41425442
#define XFS_ABTC_MAGIC		0x41425443
#define XFS_IBT_MAGIC		0x49414254
#define XFS_FIBT_MAGIC		0x46494254
#define XFS_BMAP_MAGIC		0x424d4150

struct xfs_btree_sblock {
	be32		bb_magic;
	be16		bb_level;
	be16		bb_numrecs;
	be32		bb_leftsib;
	be32		bb_rightsib;
	be64		bb_blkno;	/* daddr of this block */
	be64		bb_lsn;
	xfs_uuid_t	bb_uuid;
	be32		bb_owner;	/* AG number */
	le32		bb_crc;
};

struct xfs_btree_lblock {
	be32		bb_magic;
	be16		bb_level;
	be16		bb_numrecs;
	be64		bb_leftsib;
	be64		bb_rightsib;
	be64		bb_blkno;
	be64		bb_lsn;
	xfs_uuid_t	bb_uuid;
	be64		bb_owner;	/* inode number */
	le32		bb_crc;
	be32		bb_pad;
};

#define XFS_BTREE_SBLOCK_CRC_LEN	56
#define XFS_BTREE_LBLOCK_CRC_LEN	72
#define XFS_BTREE_SBLOCK_CRC_OFF	offsetof(struct xfs_btree_sblock, bb_crc)
#define XFS_BTREE_LBLOCK_CRC_OFF	offsetof(struct xfs_btree_lblock, bb_crc)
_Static_assert(sizeof(struct xfs_btree_sblock) == 56, "sblock size");
_Static_assert(sizeof(struct xfs_btree_lblock) == 72, "lblock size");

/* Free space btrees: records and keys are (startblock, blockcount). */
struct xfs_alloc_rec {
	be32		ar_startblock;
	be32		ar_blockcount;
};

/* Inode btrees. */
struct xfs_inobt_rec {
	be32		ir_startino;
	union {
		struct {
			be32	ir_freecount;
		} f;			/* without sparse inodes */
		struct {
			be16	ir_holemask;	/* 1 bit = 4 inodes absent */
			uint8_t	ir_count;	/* inodes present */
			uint8_t	ir_freecount;
		} sp;			/* with sparse inodes */
	} ir_u;
	be64		ir_free;	/* 1 bit per free inode */
};

struct xfs_inobt_key {
	be32		ir_startino;
};

/* Reverse mapping btree. */
struct xfs_rmap_rec {
	be32		rm_startblock;
	be32		rm_blockcount;
	be64		rm_owner;
	be64		rm_offset;	/* flags in the top bits */
};

struct xfs_rmap_key {
	be32		rm_startblock;
	be64		rm_owner;
	be64		rm_offset;
};

#define XFS_RMAP_OFF_ATTR_FORK	(1ull << 63)
#define XFS_RMAP_OFF_BMBT_BLOCK	(1ull << 62)
#define XFS_RMAP_OFF_UNWRITTEN	(1ull << 61)
#define XFS_RMAP_OFF_MASK	((1ull << 54) - 1)
#define XFS_RMAP_OFF_FLAGS	(XFS_RMAP_OFF_ATTR_FORK | \
				 XFS_RMAP_OFF_BMBT_BLOCK | \
				 XFS_RMAP_OFF_UNWRITTEN)

/* Special owners of metadata in the rmapbt (negative numbers). */
#define XFS_RMAP_OWN_NULL	((uint64_t)-1)	/* no owner, for keys */
#define XFS_RMAP_OWN_UNKNOWN	((uint64_t)-2)
#define XFS_RMAP_OWN_FS		((uint64_t)-3)	/* sb and AG headers */
#define XFS_RMAP_OWN_LOG	((uint64_t)-4)
#define XFS_RMAP_OWN_AG		((uint64_t)-5)	/* bno/cnt/rmap + AGFL */
#define XFS_RMAP_OWN_INOBT	((uint64_t)-6)
#define XFS_RMAP_OWN_INODES	((uint64_t)-7)
#define XFS_RMAP_OWN_REFC	((uint64_t)-8)
#define XFS_RMAP_OWN_COW	((uint64_t)-9)
#define XFS_RMAP_OWN_MIN	((uint64_t)-10)

/* Reference count btree. */
struct xfs_refcount_rec {
	be32		rc_startblock;	/* bit 31: CoW staging domain */
	be32		rc_blockcount;
	be32		rc_refcount;
};

struct xfs_refcount_key {
	be32		rc_startblock;
};

#define XFS_REFC_COWFLAG	(1u << 31)
#define XFS_REFC_LEN_MAX	((1u << 31) - 1)

/*
 * Bmap btree records: 128 bits, packed as
 *   bit 127       extent flag (unwritten)
 *   bits 126..73  startoff   (54 bits)
 *   bits 72..21   startblock (52 bits)
 *   bits 20..0    blockcount (21 bits)
 */
struct xfs_bmbt_rec {
	be64		l0;
	be64		l1;
};

struct xfs_bmbt_key {
	be64		br_startoff;
};

/* Root of a bmap btree inside an inode fork (no block header). */
struct xfs_bmdr_block {
	be16		bb_level;
	be16		bb_numrecs;
};

#define XFS_BMBT_STARTOFF_BITS	54
#define XFS_BMBT_STARTBLOCK_BITS 52
#define XFS_BMBT_BLOCKCOUNT_BITS 21
#define XFS_MAX_BMBT_EXTLEN	((1u << XFS_BMBT_BLOCKCOUNT_BITS) - 1)
#define XFS_BMBT_MAXLEVELS	9

/* Decoded bmap extent (in-memory form). */
struct xfs_bmbt_irec {
	xfs_fileoff_t	br_startoff;
	xfs_fsblock_t	br_startblock;
	xfs_filblks_t	br_blockcount;
	bool		br_unwritten;
};

static inline void bmbt_rec_decode(const struct xfs_bmbt_rec *r,
				   struct xfs_bmbt_irec *irec)
{
	uint64_t l0 = get_be64(r->l0), l1 = get_be64(r->l1);

	irec->br_unwritten = l0 >> 63;
	irec->br_startoff = (l0 >> 9) & ((1ull << 54) - 1);
	irec->br_startblock = ((l0 & 0x1ff) << 43) | (l1 >> 21);
	irec->br_blockcount = l1 & ((1ull << 21) - 1);
}

static inline void bmbt_rec_encode(struct xfs_bmbt_rec *r,
				   const struct xfs_bmbt_irec *irec)
{
	uint64_t l0, l1;

	l0 = ((uint64_t)irec->br_unwritten << 63) |
	     ((irec->br_startoff & ((1ull << 54) - 1)) << 9) |
	     ((irec->br_startblock >> 43) & 0x1ff);
	l1 = (irec->br_startblock << 21) |
	     (irec->br_blockcount & ((1ull << 21) - 1));
	put_be64(&r->l0, l0);
	put_be64(&r->l1, l1);
}

#endif
