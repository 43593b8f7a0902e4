/*
 * Basic XFS number types and their "null" values (overview.asciidoc,
 * common_types.asciidoc).  These are in-memory (host-endian) types.
 */
#ifndef XK_FORMAT_TYPES_H
#define XK_FORMAT_TYPES_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include "endian.h"

typedef uint64_t xfs_ino_t;	/* absolute inode number */
typedef uint32_t xfs_agino_t;	/* inode number within an AG */
typedef uint32_t xfs_agnumber_t;
typedef uint32_t xfs_agblock_t;	/* block number within an AG */
typedef uint32_t xfs_extlen_t;
typedef uint64_t xfs_fsblock_t;	/* (agno << agblklog) | agbno */
typedef uint64_t xfs_rfsblock_t;	/* linear block number */
typedef uint64_t xfs_rtblock_t;
typedef uint64_t xfs_fileoff_t;	/* block offset within a file */
typedef uint64_t xfs_filblks_t;
typedef uint64_t xfs_daddr_t;	/* 512-byte basic block address */
typedef int64_t xfs_lsn_t;	/* cycle << 32 | block */
typedef uint32_t xfs_dablk_t;	/* directory/attr block number */
typedef uint32_t xfs_dahash_t;

#define NULLFSINO	((xfs_ino_t)-1)
#define NULLAGINO	((xfs_agino_t)-1)
#define NULLAGBLOCK	((xfs_agblock_t)-1)
#define NULLAGNUMBER	((xfs_agnumber_t)-1)
#define NULLFSBLOCK	((xfs_fsblock_t)-1)
#define NULLFILEOFF	((xfs_fileoff_t)-1)
#define NULLDAHASH	((xfs_dahash_t)0)
/* the LSN of a block no log record wrote: all ones */
#define NULLCOMMITLSN	((xfs_lsn_t)-1)

#define BBSHIFT		9
#define BBSIZE		(1 << BBSHIFT)

/* A UUID as stored on disk: 16 raw bytes. */
typedef struct { uint8_t b[16]; } xfs_uuid_t;

/* Minimum and maximum geometry the format allows (sb_verify enforces them). */
#define XFS_MIN_BLOCKSIZE_LOG	9
#define XFS_MAX_BLOCKSIZE_LOG	16
#define XFS_MIN_SECTORSIZE_LOG	9
#define XFS_MAX_SECTORSIZE_LOG	15
#define XFS_DINODE_MIN_LOG	8
#define XFS_DINODE_MAX_LOG	11
#define XFS_MIN_AG_BLOCKS	64
#define XFS_MAX_AGNUMBER	((xfs_agnumber_t)(NULLAGNUMBER - 1))
#define XFS_MAX_DBLOCKS_LOG	54	/* fsblock numbers fit 54 bits */
#define XFS_INODES_PER_CHUNK	64
#define XFS_INODES_PER_CHUNK_LOG 6
#define XFS_INODES_PER_HOLEMASK_BIT 4	/* 64 inodes / 16 holemask bits */
#define XFS_MAX_DIR_BLOCK_LOG	16	/* 64 KiB directory blocks at most */

#endif
