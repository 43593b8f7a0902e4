/*
 * Inodes (ondisk_inode.asciidoc): reading, decoding and verifying the v3
 * inode core, and where its forks are.
 *
 * Inodes are read through their cluster buffer (geo.cluster_size bytes,
 * the unit the kernel reads and writes); the cluster verifier checks each
 * inode's magic, version and CRC.  inode_read() returns a private decoded
 * copy, so callers may keep it after the buffer is gone.
 *
 * inode_verify() checks the core fields against each other and against
 * the geometry: mode and fork formats, fork offset and sizes, extent
 * counters (nrext64), flags and flags2, timestamps (bigtime), the inode
 * number stamped in the inode, UUID, CRC.  It does not read the forks'
 * blocks; bmap.c, dir*.c and attr*.c do.
 */
#ifndef XK_INODE_H
#define XK_INODE_H

#include "fs.h"
#include "format/inode.h"

#define XFS_DATA_FORK	0
#define XFS_ATTR_FORK	1
#define XFS_COW_FORK	2	/* in memory only */

struct fs_timestamp {
	int64_t		sec;		/* seconds since the Unix epoch */
	uint32_t	nsec;
};

struct fs_inode {
	xfs_ino_t	ino;
	uint16_t	magic;
	uint16_t	mode;
	uint8_t		version;
	uint8_t		format;		/* data fork format */
	uint16_t	onlink;
	uint32_t	uid;
	uint32_t	gid;
	uint32_t	nlink;
	uint32_t	projid;		/* hi << 16 | lo */
	uint16_t	flushiter;
	struct fs_timestamp atime, mtime, ctime, crtime;
	uint64_t	size;
	uint64_t	nblocks;
	uint32_t	extsize;
	uint64_t	nextents;	/* data fork, either counter width */
	uint32_t	anextents;	/* attr fork, either counter width */
	uint8_t		forkoff;
	int8_t		aformat;
	uint32_t	dmevmask;
	uint16_t	dmstate;
	uint16_t	flags;
	uint32_t	gen;
	uint32_t	next_unlinked;
	uint32_t	crc;
	uint64_t	changecount;
	xfs_lsn_t	lsn;
	uint64_t	flags2;
	uint32_t	cowextsize;
	xfs_ino_t	di_ino;		/* inode number stamped in the inode */
	xfs_uuid_t	uuid;
	/* the literal area: data fork, then attr fork at forkoff * 8 */
	const uint8_t	*dfork;
	uint32_t	dfork_size;
	const uint8_t	*afork;		/* NULL if no attr fork */
	uint32_t	afork_size;
	uint8_t		*raw;		/* private copy of the whole inode */
	uint32_t	rawsize;
};

static inline bool inode_is_dir(const struct fs_inode *ip)
{
	return (ip->mode & XFS_S_IFMT) == XFS_S_IFDIR;
}

static inline bool inode_is_reg(const struct fs_inode *ip)
{
	return (ip->mode & XFS_S_IFMT) == XFS_S_IFREG;
}

static inline bool inode_is_symlink(const struct fs_inode *ip)
{
	return (ip->mode & XFS_S_IFMT) == XFS_S_IFLNK;
}

/*
 * The directory entry file type (XFS_DIR3_FT_*) of a mode;
 * XFS_DIR3_FT_UNKNOWN when the mode's type is none of the seven.
 */
uint8_t inode_mode_ftype(uint16_t mode);

static inline bool inode_has_attr_fork(const struct fs_inode *ip)
{
	return ip->forkoff != 0;
}

/* Format and size of a fork. */
static inline int inode_fork_format(const struct fs_inode *ip, int whichfork)
{
	return whichfork == XFS_DATA_FORK ? ip->format : ip->aformat;
}

static inline const uint8_t *inode_fork_ptr(const struct fs_inode *ip,
					    int whichfork, uint32_t *size)
{
	if (whichfork == XFS_DATA_FORK) {
		*size = ip->dfork_size;
		return ip->dfork;
	}
	*size = ip->afork_size;
	return ip->afork;
}

static inline uint64_t inode_fork_nextents(const struct fs_inode *ip,
					   int whichfork)
{
	return whichfork == XFS_DATA_FORK ? ip->nextents : ip->anextents;
}

/* Decode a raw on-disk inode into *ip (ip->raw points at a copy). */
int inode_decode(const struct fs_geom *g, xfs_ino_t ino, const void *raw,
		 struct fs_inode *ip);
void inode_release(struct fs_inode *ip);	/* frees ip->raw, not ip */

/* Check the core; returns the number of SEV_ERROR findings added. */
unsigned inode_verify(struct fs *fs, xfs_ino_t ino, const void *raw,
		      struct fs_findings *fl);

/*
 * The same, with INODE_VERIFY_ANY_VERSION: a version byte other than 3
 * is said, and the rest is checked all the same, the forks where a core
 * of that version ends (as xfs_repair reads such an inode; xfs_db's
 * check stops at the version, as inode_verify does).
 */
#define INODE_VERIFY_ANY_VERSION	0x1
unsigned inode_verify_flags(struct fs *fs, xfs_ino_t ino, const void *raw,
			    struct fs_findings *fl, unsigned flags);

/* Read, verify and decode one inode. */
int inode_read(struct fs *fs, xfs_ino_t ino, struct fs_inode *ip,
	       struct fs_findings *fl);

/* The cluster buffer holding inode ino, and ino's byte offset in it. */
int inode_read_cluster(struct fs *fs, xfs_ino_t ino, struct fs_findings *fl,
		       struct fs_buf **bpp, uint32_t *offset);

extern const struct buf_ops inode_cluster_buf_ops;

/* Timestamp decode (legacy and bigtime). */
void inode_decode_time(bool bigtime, xfs_timestamp_t t, struct fs_timestamp *ts);

/* Device number of a DEV-format data fork. */
uint32_t inode_rdev(const struct fs_inode *ip);

#endif
