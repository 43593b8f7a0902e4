/*
 * An open filesystem: the devices, the buffer cache, the decoded primary
 * superblock and the geometry derived from it.  Every libfs object module
 * takes a struct fs.
 *
 * fs_open() reads and verifies the primary superblock; a non-XFS image or
 * a v4 filesystem is refused with FS_NOT_XFS / FS_V4 (and -EINVAL) so the
 * tools can say so plainly.  A damaged but recognisable primary is kept
 * when FS_OPEN_FORCE is given, for repair and db to work on.
 */
#ifndef XK_FS_H
#define XK_FS_H

#include <string.h>
#include "bcache.h"
#include "device.h"
#include "findings.h"
#include "geom.h"
#include "sb.h"

#define FS_OPEN_RDONLY	(1u << 0)
#define FS_OPEN_FORCE	(1u << 1)	/* open despite superblock errors */
#define FS_OPEN_NOSB	(1u << 2)	/* do not read the superblock at all */

struct fs {
	struct fs_dev	*dev;		/* data device */
	struct fs_dev	*logdev;	/* external log, or NULL */
	struct fs_dev	*rtdev;		/* realtime device, or NULL */
	struct bcache	*bc;
	struct fs_sb	sb;
	struct fs_geom	geo;
	unsigned	flags;
	bool		sb_ok;		/* primary passed sb_verify */
	/*
	 * If set, told the LSN of each block whose LSN counts toward
	 * xfs_repair's "metadata ahead of the log" rule, when a check has
	 * found its magic right: AG headers, AG and bmap btree blocks,
	 * directory and dabtree blocks, attribute leaves and remote symlink
	 * blocks -- not inodes, nor remote attribute values, which the
	 * reference leaves out.  Called from any thread.
	 */
	void		(*lsn_seen)(xfs_lsn_t lsn);
};

int fs_open(const char *path, unsigned flags, struct fs **fsp,
	    struct fs_findings *fl);
/* Open on an already opened device (mkfs, tests). Takes ownership of dev. */
int fs_open_dev(struct fs_dev *dev, unsigned flags, struct fs **fsp,
		struct fs_findings *fl);
void fs_close(struct fs *fs);

/* Set the superblock (mkfs) and derive geometry from it. */
void fs_set_sb(struct fs *fs, const struct fs_sb *sb);

/* Buffer helpers in filesystem units. */
int fs_read_blocks(struct fs *fs, xfs_fsblock_t fsb, uint32_t nblocks,
		   const struct buf_ops *ops, struct fs_findings *fl,
		   struct fs_buf **bpp);
int fs_read_agblocks(struct fs *fs, xfs_agnumber_t agno, xfs_agblock_t agbno,
		     uint32_t nblocks, const struct buf_ops *ops,
		     struct fs_findings *fl, struct fs_buf **bpp);

/* Does a metadata block carry this filesystem's UUID? */
static inline bool fs_uuid_ok(const struct fs *fs, const xfs_uuid_t *u)
{
	return !memcmp(u, &fs->geo.meta_uuid, sizeof(*u));
}

/* Tell fs->lsn_seen, if anyone listens, of a block's LSN. */
static inline void fs_saw_lsn(const struct fs *fs, xfs_lsn_t lsn)
{
	if (fs->lsn_seen)
		fs->lsn_seen(lsn);
}

/* geom_lsn_plausible() of the filesystem's geometry. */
static inline bool fs_lsn_plausible(const struct fs *fs, xfs_lsn_t lsn)
{
	return geom_lsn_plausible(&fs->geo, lsn);
}

/* Buffer ops of the superblock (primary and secondaries). */
extern const struct buf_ops sb_buf_ops;

/* Read the superblock copy of an AG (sector 0 of the AG). */
int fs_read_sb(struct fs *fs, xfs_agnumber_t agno, struct fs_findings *fl,
	       struct fs_buf **bpp);

#endif
