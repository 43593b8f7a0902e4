/*
 * Directories, version 3 (directories.asciidoc, dabtrees.asciidoc).
 *
 * A directory's data fork is divided by byte offset into three spaces of
 * 32 GiB each: data blocks (entries), from XFS_DIR2_LEAF_OFFSET the leaf
 * blocks (hash -> entry address), from XFS_DIR2_FREE_OFFSET the free-index
 * blocks (best free space per data block).  Small directories live in the
 * inode (short form) or in one block holding data and leaf together.
 * Large ones add a dabtree of node blocks over the leaves.
 */
#ifndef XK_FORMAT_DIR_H
#define XK_FORMAT_DIR_H

#include "types.h"

#define XFS_DIR3_BLOCK_MAGIC	0x58444233	/* "XDB3" single block */
#define XFS_DIR3_DATA_MAGIC	0x58444433	/* "XDD3" data block */
#define XFS_DIR3_FREE_MAGIC	0x58444633	/* "XDF3" free index */
#define XFS_DIR3_LEAF1_MAGIC	0x3df1		/* leaf of a leaf dir */
#define XFS_DIR3_LEAFN_MAGIC	0x3dff		/* leaf of a node dir */
#define XFS_DA3_NODE_MAGIC	0x3ebe		/* dabtree node */
/* v4 magics, to recognise and refuse */
#define XFS_DIR2_BLOCK_MAGIC	0x58443242
#define XFS_DIR2_DATA_MAGIC	0x58443244
#define XFS_DIR2_FREE_MAGIC	0x58443246
#define XFS_DIR2_LEAF1_MAGIC	0xd2f1
#define XFS_DIR2_LEAFN_MAGIC	0xd2ff
#define XFS_DA_NODE_MAGIC	0xfebe

#define XFS_DIR2_SPACE_SIZE	(1ull << 35)	/* bytes per space */
#define XFS_DIR2_DATA_OFFSET	0ull
#define XFS_DIR2_LEAF_OFFSET	(1ull * XFS_DIR2_SPACE_SIZE)
#define XFS_DIR2_FREE_OFFSET	(2ull * XFS_DIR2_SPACE_SIZE)
#define XFS_DIR2_DATA_ALIGN_LOG	3		/* entries are 8-aligned */
#define XFS_DIR2_DATA_ALIGN	(1 << XFS_DIR2_DATA_ALIGN_LOG)
#define XFS_DIR2_DATA_FREE_TAG	0xffff
#define XFS_DIR2_DATA_FD_COUNT	3		/* bestfree entries */
#define XFS_DIR2_NULL_DATAPTR	((uint32_t)0)
#define XFS_DA_NODE_MAXDEPTH	5

/* Directory entry file types (ftype feature). */
enum xfs_dir3_ft {
	XFS_DIR3_FT_UNKNOWN = 0,
	XFS_DIR3_FT_REG_FILE = 1,
	XFS_DIR3_FT_DIR = 2,
	XFS_DIR3_FT_CHRDEV = 3,
	XFS_DIR3_FT_BLKDEV = 4,
	XFS_DIR3_FT_FIFO = 5,
	XFS_DIR3_FT_SOCK = 6,
	XFS_DIR3_FT_SYMLINK = 7,
	XFS_DIR3_FT_WHT = 8,
	XFS_DIR3_FT_MAX = 9,
};

/* Common header of v3 data, block and free blocks. */
struct xfs_dir3_blk_hdr {
	be32		magic;
	le32		crc;
	be64		blkno;		/* daddr of the first sector */
	be64		lsn;
	xfs_uuid_t	uuid;
	be64		owner;		/* directory inode */
};

struct xfs_dir2_data_free {
	be16		offset;
	be16		length;
};

struct xfs_dir3_data_hdr {
	struct xfs_dir3_blk_hdr		hdr;
	struct xfs_dir2_data_free	best_free[XFS_DIR2_DATA_FD_COUNT];
	be32				pad;
};

#define XFS_DIR3_DATA_CRC_OFF	offsetof(struct xfs_dir3_blk_hdr, crc)
_Static_assert(sizeof(struct xfs_dir3_blk_hdr) == 48, "dir3 blk hdr");
_Static_assert(sizeof(struct xfs_dir3_data_hdr) == 64, "dir3 data hdr");

/*
 * A data entry: be64 inumber, u8 namelen, name[namelen], u8 ftype (with
 * the ftype feature), be16 tag (offset of the entry in its block), padded
 * to 8 bytes.  An unused region: be16 freetag (0xffff), be16 length, ...,
 * be16 tag in its last two bytes.
 */
struct xfs_dir2_data_unused {
	be16		freetag;
	be16		length;
	/* ... be16 tag at offset length - 2 */
};

static inline unsigned dir2_data_entsize(bool has_ftype, unsigned namelen)
{
	unsigned len = 8 + 1 + namelen + 2 + (has_ftype ? 1 : 0);

	return (len + XFS_DIR2_DATA_ALIGN - 1) & ~(XFS_DIR2_DATA_ALIGN - 1);
}

/* Leaf entry: hash of the name, data pointer (byte address >> 3). */
struct xfs_dir2_leaf_entry {
	be32		hashval;
	be32		address;
};

/* Tail of a single-block directory. */
struct xfs_dir2_block_tail {
	be32		count;		/* leaf entries */
	be32		stale;		/* stale leaf entries */
};

/* dabtree block info (leaf, node and attr leaf blocks). */
struct xfs_da3_blkinfo {
	be32		forw;
	be32		back;
	be16		magic;
	be16		pad;
	le32		crc;
	be64		blkno;
	be64		lsn;
	xfs_uuid_t	uuid;
	be64		owner;
};

#define XFS_DA3_BLKINFO_CRC_OFF	offsetof(struct xfs_da3_blkinfo, crc)
_Static_assert(sizeof(struct xfs_da3_blkinfo) == 56, "da3 blkinfo");

struct xfs_dir3_leaf_hdr {
	struct xfs_da3_blkinfo	info;
	be16			count;
	be16			stale;
	be32			pad;
};
_Static_assert(sizeof(struct xfs_dir3_leaf_hdr) == 64, "dir3 leaf hdr");

/* Tail of a LEAF1 block: number of be16 bests[] just before it. */
struct xfs_dir2_leaf_tail {
	be32		bestcount;
};

struct xfs_da3_node_hdr {
	struct xfs_da3_blkinfo	info;
	be16			count;
	be16			level;
	be32			pad32;
};
_Static_assert(sizeof(struct xfs_da3_node_hdr) == 64, "da3 node hdr");

struct xfs_da_node_entry {
	be32		hashval;	/* highest hash in the subtree */
	be32		before;		/* dablk of the subtree */
};

struct xfs_dir3_free_hdr {
	struct xfs_dir3_blk_hdr	hdr;
	be32			firstdb;	/* first data block covered */
	be32			nvalid;		/* bests[] entries */
	be32			nused;		/* bests[] entries != NULLDATAOFF */
	be32			pad;
};
_Static_assert(sizeof(struct xfs_dir3_free_hdr) == 64, "dir3 free hdr");
#define XFS_DIR2_NULL_BESTFREE	0xffff

/*
 * Short-form directory in the inode literal area: u8 count, u8 i8count,
 * parent (4 bytes, or 8 when i8count != 0), then entries of
 * u8 namelen, be16 offset, name[namelen], u8 ftype (ftype feature),
 * inumber (4 or 8 bytes).  Nothing is aligned.
 */
struct xfs_dir2_sf_hdr {
	uint8_t		count;
	uint8_t		i8count;
	uint8_t		parent[8];	/* 4 bytes used unless i8count */
};

#define XFS_DIR2_SF_HDR_SIZE(i8)	((i8) ? 10 : 6)
#define XFS_DIR2_MAX_SHORT_INUM		0xffffffffull

/*
 * The dabtree name hash (directories.asciidoc "Hash function"): consume the
 * name four bytes at a time, rotating the running hash by 28 bits each
 * round; the remaining one to three bytes are folded in at the end.
 */
static inline xfs_dahash_t da_hashname(const uint8_t *name, unsigned len)
{
	xfs_dahash_t h = 0;

	for (; len >= 4; len -= 4, name += 4)
		h = (name[0] << 21) ^ (name[1] << 14) ^ (name[2] << 7) ^
		    (name[3] << 0) ^ ((h << 28) | (h >> 4));
	switch (len) {
	case 3:
		return (name[0] << 14) ^ (name[1] << 7) ^ (name[2] << 0) ^
		       ((h << 21) | (h >> 11));
	case 2:
		return (name[0] << 7) ^ (name[1] << 0) ^ ((h << 14) | (h >> 18));
	case 1:
		return (name[0] << 0) ^ ((h << 7) | (h >> 25));
	default:
		return h;
	}
}

#endif
