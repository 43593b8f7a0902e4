/*
 * Geometry: every conversion between filesystem block numbers, (AG, AG
 * block) pairs, disk addresses and inode numbers, derived once from the
 * superblock (overview.asciidoc "Addressing", common_types.asciidoc).
 *
 *   fsblock  = agno << agblklog | agbno        (sparse: AG sizes rounded up)
 *   linear   = agno * agblocks + agbno         (dense: real block offset)
 *   daddr    = linear << (blocklog - 9)        (512-byte basic blocks)
 *   ino      = agno << (agblklog + inopblog) | agbno << inopblog | offset
 *
 * Every function here is arithmetic only; the *_valid() functions say
 * whether a number read from disk names something that exists.
 */
#ifndef XK_GEOM_H
#define XK_GEOM_H

#include "format/types.h"
#include "sb.h"

struct fs_geom {
	uint32_t	blocksize;
	unsigned	blocklog;
	unsigned	blkbb_log;	/* blocklog - BBSHIFT */
	uint32_t	sectsize;
	unsigned	sectlog;
	uint32_t	agblocks;
	unsigned	agblklog;
	uint32_t	agcount;
	uint64_t	dblocks;
	uint32_t	last_ag_blocks;	/* size of the last AG */
	uint32_t	inodesize;
	unsigned	inodelog;
	uint32_t	inopblock;
	unsigned	inopblog;
	unsigned	agino_log;	/* agblklog + inopblog */
	uint32_t	dirblksize;	/* directory block, bytes */
	unsigned	dirblklog;	/* log2 of fs blocks per dir block */
	uint32_t	dirblkfsbs;	/* fs blocks per dir block */
	/* inode chunks and clusters */
	uint32_t	inoalign;	/* chunk alignment in blocks (0/1: none) */
	uint32_t	chunk_blocks;	/* blocks of a 64-inode chunk (>=1) */
	uint32_t	cluster_size;	/* bytes read per inode cluster */
	uint32_t	blocks_per_cluster;
	uint32_t	inodes_per_cluster;
	uint32_t	spino_align;	/* sparse chunk alignment, blocks */
	/* log */
	bool		log_internal;
	uint64_t	logstart;	/* fsblock, internal log */
	uint32_t	logblocks;
	/* features used in hot paths */
	bool		has_ftype;
	bool		has_sparse;
	bool		has_finobt;
	bool		has_rmapbt;
	bool		has_reflink;
	bool		has_bigtime;
	bool		has_nrext64;
	bool		has_inobtcount;
	xfs_uuid_t	meta_uuid;	/* stamped in metadata blocks */
};

/* Derive geometry; the sb must have passed sb_verify(). */
void geom_init(struct fs_geom *g, const struct fs_sb *sb);

/*
 * Can a v5 metadata block carry this LSN (the log record that last wrote
 * it)?  0 and NULLCOMMITLSN both mean "never logged": mkfs writes the
 * first, the kernel writes the second on remote attribute value blocks
 * and xfs_repair on every AGFL it rebuilds.  Otherwise the cycle is not
 * zero and the block lies inside the log.  Whether the LSN is also
 * behind the log head is the caller's to ask: that needs the log.
 */
bool geom_lsn_plausible(const struct fs_geom *g, xfs_lsn_t lsn);

static inline uint32_t geom_ag_blocks(const struct fs_geom *g,
				      xfs_agnumber_t agno)
{
	return agno == g->agcount - 1 ? g->last_ag_blocks : g->agblocks;
}

/* fsblock <-> (agno, agbno) */
static inline xfs_agnumber_t fsb_to_agno(const struct fs_geom *g,
					 xfs_fsblock_t fsb)
{
	return (xfs_agnumber_t)(fsb >> g->agblklog);
}

static inline xfs_agblock_t fsb_to_agbno(const struct fs_geom *g,
					 xfs_fsblock_t fsb)
{
	return (xfs_agblock_t)(fsb & ((1ull << g->agblklog) - 1));
}

static inline xfs_fsblock_t agb_to_fsb(const struct fs_geom *g,
				       xfs_agnumber_t agno, xfs_agblock_t agbno)
{
	return ((xfs_fsblock_t)agno << g->agblklog) | agbno;
}

/* (agno, agbno) -> linear block -> daddr */
static inline uint64_t agb_to_linear(const struct fs_geom *g,
				     xfs_agnumber_t agno, xfs_agblock_t agbno)
{
	return (uint64_t)agno * g->agblocks + agbno;
}

static inline xfs_daddr_t agb_to_daddr(const struct fs_geom *g,
				       xfs_agnumber_t agno, xfs_agblock_t agbno)
{
	return agb_to_linear(g, agno, agbno) << g->blkbb_log;
}

static inline xfs_daddr_t fsb_to_daddr(const struct fs_geom *g,
				       xfs_fsblock_t fsb)
{
	return agb_to_daddr(g, fsb_to_agno(g, fsb), fsb_to_agbno(g, fsb));
}

static inline uint64_t fsb_to_linear(const struct fs_geom *g,
				     xfs_fsblock_t fsb)
{
	return agb_to_linear(g, fsb_to_agno(g, fsb), fsb_to_agbno(g, fsb));
}

static inline xfs_fsblock_t linear_to_fsb(const struct fs_geom *g,
					  uint64_t lblock)
{
	return agb_to_fsb(g, (xfs_agnumber_t)(lblock / g->agblocks),
			  (xfs_agblock_t)(lblock % g->agblocks));
}

/* daddr of a block -> fsblock (rounds down inside a block) */
static inline xfs_fsblock_t daddr_to_fsb(const struct fs_geom *g,
					 xfs_daddr_t daddr)
{
	return linear_to_fsb(g, daddr >> g->blkbb_log);
}

static inline xfs_daddr_t daddr_to_agno(const struct fs_geom *g,
					xfs_daddr_t daddr)
{
	return (daddr >> g->blkbb_log) / g->agblocks;
}

/* daddr of sector n (0 sb, 1 agf, 2 agi, 3 agfl) of an AG */
static inline xfs_daddr_t ag_sector_daddr(const struct fs_geom *g,
					  xfs_agnumber_t agno, unsigned n)
{
	return agb_to_daddr(g, agno, 0) + ((xfs_daddr_t)n << (g->sectlog - BBSHIFT));
}

/* bytes <-> basic blocks / fs blocks */
static inline uint32_t fsb_to_bb(const struct fs_geom *g, uint32_t nblocks)
{
	return nblocks << g->blkbb_log;
}

/* Inode numbers. */
static inline xfs_agnumber_t ino_to_agno(const struct fs_geom *g, xfs_ino_t ino)
{
	return (xfs_agnumber_t)(ino >> g->agino_log);
}

static inline xfs_agino_t ino_to_agino(const struct fs_geom *g, xfs_ino_t ino)
{
	return (xfs_agino_t)(ino & ((1ull << g->agino_log) - 1));
}

static inline xfs_agblock_t agino_to_agbno(const struct fs_geom *g,
					   xfs_agino_t agino)
{
	return agino >> g->inopblog;
}

static inline unsigned agino_to_offset(const struct fs_geom *g,
				       xfs_agino_t agino)
{
	return agino & ((1u << g->inopblog) - 1);
}

static inline xfs_agblock_t ino_to_agbno(const struct fs_geom *g, xfs_ino_t ino)
{
	return agino_to_agbno(g, ino_to_agino(g, ino));
}

static inline unsigned ino_to_offset(const struct fs_geom *g, xfs_ino_t ino)
{
	return agino_to_offset(g, ino_to_agino(g, ino));
}

static inline xfs_ino_t agino_to_ino(const struct fs_geom *g,
				     xfs_agnumber_t agno, xfs_agino_t agino)
{
	return ((xfs_ino_t)agno << g->agino_log) | agino;
}

static inline xfs_agino_t agb_to_agino(const struct fs_geom *g,
				       xfs_agblock_t agbno)
{
	return agbno << g->inopblog;
}

static inline xfs_fsblock_t ino_to_fsb(const struct fs_geom *g, xfs_ino_t ino)
{
	return agb_to_fsb(g, ino_to_agno(g, ino), ino_to_agbno(g, ino));
}

/* daddr of the block holding an inode, and the inode's byte offset in it */
static inline xfs_daddr_t ino_to_daddr(const struct fs_geom *g, xfs_ino_t ino)
{
	return agb_to_daddr(g, ino_to_agno(g, ino), ino_to_agbno(g, ino));
}

static inline uint32_t ino_to_boffset(const struct fs_geom *g, xfs_ino_t ino)
{
	return ino_to_offset(g, ino) << g->inodelog;
}

/* Validity of numbers read from disk. */
static inline bool agbno_valid(const struct fs_geom *g, xfs_agnumber_t agno,
			       xfs_agblock_t agbno)
{
	return agno < g->agcount && agbno < geom_ag_blocks(g, agno);
}

static inline bool fsb_valid(const struct fs_geom *g, xfs_fsblock_t fsb)
{
	xfs_agnumber_t agno = fsb_to_agno(g, fsb);

	if ((fsb >> g->agblklog) >= g->agcount)
		return false;
	return agbno_valid(g, agno, fsb_to_agbno(g, fsb));
}

/* Does [fsb, fsb + len) lie inside one AG of the data device? */
static inline bool fsb_extent_valid(const struct fs_geom *g, xfs_fsblock_t fsb,
				    uint64_t len)
{
	xfs_agnumber_t agno;
	xfs_agblock_t agbno;

	if (!len || !fsb_valid(g, fsb))
		return false;
	agno = fsb_to_agno(g, fsb);
	agbno = fsb_to_agbno(g, fsb);
	return len <= geom_ag_blocks(g, agno) - agbno;
}

static inline bool agino_valid(const struct fs_geom *g, xfs_agnumber_t agno,
			       xfs_agino_t agino)
{
	if (agino >> g->agino_log)
		return false;
	return agbno_valid(g, agno, agino_to_agbno(g, agino)) &&
	       agino_to_agbno(g, agino) > 0;
}

/*
 * Can an inode chunk (an inobt record) start at this AG inode?  A chunk
 * starts on a block boundary aligned to sb_inoalignmt blocks, which is the
 * chunk size with sparse inodes but may be less without (mkfs then uses the
 * cluster size): so startino need not be a multiple of 64.  When a block
 * holds more than 64 inodes, chunks start at multiples of 64 inside it.
 */
static inline bool agino_chunk_aligned(const struct fs_geom *g,
				       xfs_agino_t agino)
{
	if (g->inopblock >= XFS_INODES_PER_CHUNK)
		return !(agino & (XFS_INODES_PER_CHUNK - 1));
	if (agino & (g->inopblock - 1))
		return false;
	return g->inoalign <= 1 || agino_to_agbno(g, agino) % g->inoalign == 0;
}

static inline bool ino_valid(const struct fs_geom *g, xfs_ino_t ino)
{
	if ((ino >> g->agino_log) >= g->agcount)
		return false;
	return agino_valid(g, ino_to_agno(g, ino), ino_to_agino(g, ino));
}

#endif
