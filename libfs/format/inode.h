/*
 * On-disk inodes (ondisk_inode.asciidoc), v3 only, with the later bigtime
 * and nrext64 extensions.  The 176-byte core is followed by the data fork
 * and, at di_forkoff * 8 bytes into the literal area, the attribute fork.
 */
#ifndef XK_FORMAT_INODE_H
#define XK_FORMAT_INODE_H

#include "types.h"

#define XFS_DINODE_MAGIC	0x494e		/* "IN" */
#define XFS_DINODE_VERSION_3	3

/* di_format / di_aformat */
enum xfs_dinode_fmt {
	XFS_DINODE_FMT_DEV = 0,
	XFS_DINODE_FMT_LOCAL = 1,
	XFS_DINODE_FMT_EXTENTS = 2,
	XFS_DINODE_FMT_BTREE = 3,
	XFS_DINODE_FMT_UUID = 4,
};

/* di_flags */
#define XFS_DIFLAG_REALTIME	(1u << 0)
#define XFS_DIFLAG_PREALLOC	(1u << 1)
#define XFS_DIFLAG_NEWRTBM	(1u << 2)
#define XFS_DIFLAG_IMMUTABLE	(1u << 3)
#define XFS_DIFLAG_APPEND	(1u << 4)
#define XFS_DIFLAG_SYNC		(1u << 5)
#define XFS_DIFLAG_NOATIME	(1u << 6)
#define XFS_DIFLAG_NODUMP	(1u << 7)
#define XFS_DIFLAG_RTINHERIT	(1u << 8)
#define XFS_DIFLAG_PROJINHERIT	(1u << 9)
#define XFS_DIFLAG_NOSYMLINKS	(1u << 10)
#define XFS_DIFLAG_EXTSIZE	(1u << 11)
#define XFS_DIFLAG_EXTSZINHERIT	(1u << 12)
#define XFS_DIFLAG_NODEFRAG	(1u << 13)
#define XFS_DIFLAG_FILESTREAM	(1u << 14)
#define XFS_DIFLAG_ANY		0x7fffu

/* di_flags2 */
#define XFS_DIFLAG2_DAX		(1ull << 0)
#define XFS_DIFLAG2_REFLINK	(1ull << 1)
#define XFS_DIFLAG2_COWEXTSIZE	(1ull << 2)
#define XFS_DIFLAG2_BIGTIME	(1ull << 3)
#define XFS_DIFLAG2_NREXT64	(1ull << 4)
#define XFS_DIFLAG2_ANY		0x1full

/* A timestamp: seconds and nanoseconds, or (bigtime) one 64-bit count. */
struct xfs_legacy_timestamp {
	be32		t_sec;
	be32		t_nsec;
};

typedef be64 xfs_timestamp_t;

/*
 * bigtime: nanoseconds since 1901-12-13 20:45:52 UTC, i.e. the value is
 * (unix_seconds + XFS_BIGTIME_EPOCH_OFFSET) * 1e9 + nsec.
 */
#define XFS_BIGTIME_EPOCH_OFFSET	(-(int64_t)INT32_MIN)
#define XFS_NSEC_PER_SEC		1000000000ll

struct xfs_dinode {
	be16		di_magic;
	be16		di_mode;
	uint8_t		di_version;
	uint8_t		di_format;
	be16		di_onlink;	/* v1 link count; zero in v3 */
	be32		di_uid;
	be32		di_gid;
	be32		di_nlink;
	be16		di_projid_lo;
	be16		di_projid_hi;
	union {
		be64	di_big_nextents;	/* nrext64: data extents */
		be64	di_v3_pad;		/* otherwise zero */
		struct {
			uint8_t	di_v2_pad[6];
			be16	di_flushiter;	/* v2 only */
		} v2;
	} u24;
	xfs_timestamp_t	di_atime;
	xfs_timestamp_t	di_mtime;
	xfs_timestamp_t	di_ctime;
	be64		di_size;
	be64		di_nblocks;	/* blocks of both forks + bmbt blocks */
	be32		di_extsize;
	union {
		struct {
			be32	di_nextents;	/* data extents */
			be16	di_anextents;	/* attr extents */
		} small;
		struct {
			be32	di_big_anextents; /* nrext64 */
			be16	di_nrext64_pad;
		} big;
	} u76;
	uint8_t		di_forkoff;	/* attr fork offset, 8-byte units */
	int8_t		di_aformat;
	be32		di_dmevmask;
	be16		di_dmstate;
	be16		di_flags;
	be32		di_gen;
	/* v3 */
	be32		di_next_unlinked;
	le32		di_crc;
	be64		di_changecount;
	be64		di_lsn;
	be64		di_flags2;
	be32		di_cowextsize;
	uint8_t		di_pad2[12];
	xfs_timestamp_t	di_crtime;
	be64		di_ino;
	xfs_uuid_t	di_uuid;
};

#define XFS_DINODE_CORE_SIZE	176	/* v3 */
#define XFS_DINODE_CRC_OFF	offsetof(struct xfs_dinode, di_crc)
_Static_assert(sizeof(struct xfs_dinode) == 176, "xfs_dinode size");
_Static_assert(offsetof(struct xfs_dinode, di_crc) == 100, "di_crc offset");
_Static_assert(offsetof(struct xfs_dinode, di_next_unlinked) == 96,
	       "di_next_unlinked offset");

/* Maximum extent counts. */
#define XFS_MAX_EXTCNT_DATA_FORK_SMALL	((1ull << 31) - 1)
#define XFS_MAX_EXTCNT_ATTR_FORK_SMALL	((1ull << 15) - 1)
#define XFS_MAX_EXTCNT_DATA_FORK_LARGE	((1ull << 48) - 1)
#define XFS_MAX_EXTCNT_ATTR_FORK_LARGE	((1ull << 32) - 1)

/* Device number in a DEV-format fork: one be32, (major << 18) | minor. */
#define XFS_DEV_MAJOR(d)	((uint32_t)(d) >> 18)
#define XFS_DEV_MINOR(d)	((uint32_t)(d) & 0x3ffff)

/* Mode bits (POSIX values, as stored in di_mode). */
#define XFS_S_IFMT	0170000
#define XFS_S_IFSOCK	0140000
#define XFS_S_IFLNK	0120000
#define XFS_S_IFREG	0100000
#define XFS_S_IFBLK	0060000
#define XFS_S_IFDIR	0040000
#define XFS_S_IFCHR	0020000
#define XFS_S_IFIFO	0010000

/* Remote symlink block header (symbolic_links.asciidoc). */
#define XFS_SYMLINK_MAGIC	0x58534c4d	/* "XSLM" */
#define XFS_SYMLINK_MAXLEN	1024
#define XFS_SYMLINK_MAPS	3

struct xfs_dsymlink_hdr {
	be32		sl_magic;
	be32		sl_offset;	/* byte offset of this piece */
	be32		sl_bytes;	/* bytes of target in this block */
	le32		sl_crc;
	xfs_uuid_t	sl_uuid;
	be64		sl_owner;
	be64		sl_blkno;
	be64		sl_lsn;
};

#define XFS_SYMLINK_CRC_OFF	offsetof(struct xfs_dsymlink_hdr, sl_crc)
_Static_assert(sizeof(struct xfs_dsymlink_hdr) == 56, "symlink hdr size");

#endif
