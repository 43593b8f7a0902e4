/*
 * Builders: fresh on-disk objects from host-side descriptions.
 *
 * mkfs formats every AG with these, and xfs_repair will rebuild AG
 * headers, empty btree roots and core inodes with the same calls, so the
 * two tools cannot disagree on what a new header looks like.  Each builder
 * fills a caller-supplied buffer (a sector or a block, already zeroed or
 * not: every byte of the object is written); none of them does I/O.  CRCs
 * are left to the buffer layer: give the buffer the matching build_*_ops
 * and bcache sets the CRC on write.
 *
 * What stays true: the objects built here pass the reference xfs_repair
 * and the kernel's verifiers when the descriptions are consistent; the
 * builders do not check the descriptions (the callers own the policy).
 */
#ifndef XK_BUILD_H
#define XK_BUILD_H

#include "bcache.h"
#include "format/ag.h"
#include "format/btree.h"
#include "format/inode.h"
#include "format/sb.h"
#include "sb.h"

/*
 * The fixed blocks at the start of every AG (allocation_groups.asciidoc):
 * the four header sectors rounded up to blocks, then one root block per
 * btree in the order bno, cnt, ino, [fino], [rmap], [refcount].  prealloc
 * is the first block after them.
 */
struct ag_static {
	uint32_t	hdr_blocks;	/* blocks holding sb, AGF, AGI, AGFL */
	uint32_t	bno, cnt, ino;
	uint32_t	fino;		/* NULLAGBLOCK without finobt */
	uint32_t	rmap;		/* NULLAGBLOCK without rmapbt */
	uint32_t	refc;		/* NULLAGBLOCK without reflink */
	uint32_t	prealloc;
};

void build_ag_static(uint32_t blocksize, uint32_t sectsize, bool finobt,
		     bool rmapbt, bool reflink, struct ag_static *st);

/* Number of block numbers an AGFL sector holds. */
static inline unsigned build_agfl_size(uint32_t sectsize)
{
	return (sectsize - XFS_AGFL_HDR_SIZE) / sizeof(be32);
}

/* Host description of one AG's headers. */
struct build_ag {
	xfs_agnumber_t	agno;
	uint32_t	length;
	/* AGF */
	uint32_t	bnoroot, cntroot, rmaproot;	/* rmaproot 0 if none */
	uint32_t	refcroot;			/* 0 if none */
	uint32_t	flfirst, fllast, flcount;
	uint32_t	freeblks, longest, btreeblks;
	uint32_t	rmapblocks, refcblocks;
	/* AGI */
	uint32_t	inoroot, finoroot;		/* finoroot 0 if none */
	uint32_t	icount, ifree;
	xfs_agino_t	newino;
	uint32_t	iblocks, fblocks;		/* inobtcount, else 0 */
};

/* sector: one sector, sectsize bytes. */
void build_agf(void *sector, uint32_t sectsize, const struct build_ag *a,
	       const xfs_uuid_t *uuid);
void build_agi(void *sector, uint32_t sectsize, const struct build_ag *a,
	       const xfs_uuid_t *uuid);
/* AGFL with bno[first .. first+n-1] = blocks[], the rest NULLAGBLOCK. */
void build_agfl(void *sector, uint32_t sectsize, xfs_agnumber_t agno,
		const xfs_uuid_t *uuid, const uint32_t *blocks, unsigned n,
		unsigned first);
/* Superblock sector: encoded sb, rest of the sector zero. */
void build_sb(void *sector, uint32_t sectsize, const struct fs_sb *sb);

/*
 * A short-form btree block header: no siblings, lsn 0, owner = agno.
 * Records follow at XFS_BTREE_SBLOCK_CRC_LEN; the block's remaining bytes
 * are zeroed.
 */
void build_sblock(void *blk, uint32_t blocksize, uint32_t magic,
		  uint16_t level, uint16_t numrecs, xfs_daddr_t daddr,
		  xfs_agnumber_t agno, const xfs_uuid_t *uuid);

/* Leaf records of the AG btrees (host form in, disk form out). */
struct build_ext {
	uint32_t	start, len;
};

struct build_rmap {
	uint32_t	start, len;
	uint64_t	owner;
	uint64_t	offset;		/* with XFS_RMAP_OFF_* flags */
};

struct build_inobt {
	xfs_agino_t	startino;
	uint16_t	holemask;
	uint8_t		count, freecount;
	uint64_t	free;
};

void build_alloc_leaf(void *blk, const struct build_ext *recs, unsigned n);
void build_rmap_leaf(void *blk, const struct build_rmap *recs, unsigned n);
/* sparse: use the holemask/count layout of the record. */
void build_inobt_leaf(void *blk, const struct build_inobt *recs, unsigned n,
		      bool sparse);

/* Largest number of records a leaf of each tree holds. */
static inline unsigned build_alloc_maxrecs(uint32_t blocksize)
{
	return (blocksize - XFS_BTREE_SBLOCK_CRC_LEN) /
	       sizeof(struct xfs_alloc_rec);
}

static inline unsigned build_rmap_maxrecs(uint32_t blocksize)
{
	return (blocksize - XFS_BTREE_SBLOCK_CRC_LEN) /
	       sizeof(struct xfs_rmap_rec);
}

/* Host description of an inode core (v3). */
struct build_inode {
	xfs_ino_t	ino;
	uint16_t	mode;		/* 0: a free inode */
	uint8_t		format;		/* XFS_DINODE_FMT_* */
	uint8_t		aformat;
	uint32_t	uid, gid, nlink;
	uint32_t	projid;
	uint64_t	size, nblocks;
	uint32_t	nextents;
	uint32_t	extsize, cowextsize;
	uint16_t	flags;
	uint64_t	flags2;
	uint64_t	changecount;
	/* unix seconds and nanoseconds; encoded per flags2 BIGTIME */
	int64_t		atime_sec, mtime_sec, ctime_sec, crtime_sec;
	uint32_t	atime_nsec, mtime_nsec, ctime_nsec, crtime_nsec;
};

/*
 * Write an inode of inodesize bytes at p: the core, then a literal area
 * of zeroes (the caller fills the data fork afterwards).
 */
void build_dinode(void *p, uint32_t inodesize, const struct build_inode *bi,
		  const xfs_uuid_t *uuid);

/* Pointer to an inode's data fork (literal area). */
static inline void *build_dinode_dfork(void *p)
{
	return (uint8_t *)p + XFS_DINODE_CORE_SIZE;
}

/*
 * An empty short-form directory (only . and .., which are implicit):
 * header with count 0 and the parent.  Returns the fork size in bytes,
 * which is the directory's di_size.
 */
unsigned build_sf_dir_empty(void *fork, xfs_ino_t parent);

/* Buffer ops that set each object's CRC on write. */
extern const struct buf_ops build_sb_ops;
extern const struct buf_ops build_agf_ops;
extern const struct buf_ops build_agi_ops;
extern const struct buf_ops build_agfl_ops;
extern const struct buf_ops build_sblock_ops;
/*
 * A buffer of whole inodes: one CRC per inode.  The cache's context must
 * be the struct fs whose geometry gives the inode size.
 */
extern const struct buf_ops build_inodes_ops;

#endif
