/*
 * Quota records (internal_inodes.asciidoc "Quota Inodes").  Each block of a
 * quota inode holds an array of 136-byte dquot records, each covered by its
 * own CRC.
 */
#ifndef XK_FORMAT_DQUOT_H
#define XK_FORMAT_DQUOT_H

#include "types.h"

#define XFS_DQUOT_MAGIC		0x4451		/* "DQ" */
#define XFS_DQUOT_VERSION	0x01

#define XFS_DQTYPE_USER		0x01
#define XFS_DQTYPE_PROJ		0x02
#define XFS_DQTYPE_GROUP	0x04
#define XFS_DQTYPE_BIGTIME	0x80

struct xfs_disk_dquot {
	be16		d_magic;
	uint8_t		d_version;
	uint8_t		d_type;
	be32		d_id;
	be64		d_blk_hardlimit;
	be64		d_blk_softlimit;
	be64		d_ino_hardlimit;
	be64		d_ino_softlimit;
	be64		d_bcount;
	be64		d_icount;
	be32		d_itimer;
	be32		d_btimer;
	be16		d_iwarns;
	be16		d_bwarns;
	be32		d_pad0;
	be64		d_rtb_hardlimit;
	be64		d_rtb_softlimit;
	be64		d_rtbcount;
	be32		d_rtbtimer;
	be16		d_rtbwarns;
	be16		d_pad;
};
_Static_assert(sizeof(struct xfs_disk_dquot) == 104, "disk dquot");

struct xfs_dqblk {
	struct xfs_disk_dquot	dd_diskdq;
	char			dd_fill[4];
	le32			dd_crc;
	be64			dd_lsn;
	xfs_uuid_t		dd_uuid;
};
_Static_assert(sizeof(struct xfs_dqblk) == 136, "dqblk");

#endif
