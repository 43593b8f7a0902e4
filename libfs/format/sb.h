/*
 * The superblock (allocation_groups.asciidoc "Superblocks", plus the
 * post-2018 feature bits listed in the reference README).  One copy sits in
 * the first sector of every AG; the copy in AG 0 is the primary.
 */
#ifndef XK_FORMAT_SB_H
#define XK_FORMAT_SB_H

#include "types.h"

#define XFS_SB_MAGIC		0x58465342	/* "XFSB" */

/* sb_versionnum */
#define XFS_SB_VERSION_NUMBITS		0x000f
#define XFS_SB_VERSION_4		4
#define XFS_SB_VERSION_5		5
#define XFS_SB_VERSION_ATTRBIT		0x0010
#define XFS_SB_VERSION_NLINKBIT		0x0020
#define XFS_SB_VERSION_QUOTABIT		0x0040
#define XFS_SB_VERSION_ALIGNBIT		0x0080
#define XFS_SB_VERSION_DALIGNBIT	0x0100
#define XFS_SB_VERSION_SHAREDBIT	0x0200
#define XFS_SB_VERSION_LOGV2BIT		0x0400
#define XFS_SB_VERSION_SECTORBIT	0x0800
#define XFS_SB_VERSION_EXTFLGBIT	0x1000
#define XFS_SB_VERSION_DIRV2BIT		0x2000
#define XFS_SB_VERSION_BORGBIT		0x4000	/* ascii-ci */
#define XFS_SB_VERSION_MOREBITSBIT	0x8000

/* sb_features2 */
#define XFS_SB_VERSION2_LAZYSBCOUNTBIT	0x00000002
#define XFS_SB_VERSION2_ATTR2BIT	0x00000008
#define XFS_SB_VERSION2_PARENTBIT	0x00000010
#define XFS_SB_VERSION2_PROJID32BIT	0x00000080
#define XFS_SB_VERSION2_CRCBIT		0x00000100
#define XFS_SB_VERSION2_FTYPE		0x00000200

/* sb_features_ro_compat */
#define XFS_SB_FEAT_RO_COMPAT_FINOBT	(1u << 0)
#define XFS_SB_FEAT_RO_COMPAT_RMAPBT	(1u << 1)
#define XFS_SB_FEAT_RO_COMPAT_REFLINK	(1u << 2)
#define XFS_SB_FEAT_RO_COMPAT_INOBTCNT	(1u << 3)
#define XFS_SB_FEAT_RO_COMPAT_ALL	0x0000000fu

/* sb_features_incompat */
#define XFS_SB_FEAT_INCOMPAT_FTYPE	(1u << 0)
#define XFS_SB_FEAT_INCOMPAT_SPINODES	(1u << 1)
#define XFS_SB_FEAT_INCOMPAT_META_UUID	(1u << 2)
#define XFS_SB_FEAT_INCOMPAT_BIGTIME	(1u << 3)
#define XFS_SB_FEAT_INCOMPAT_NEEDSREPAIR (1u << 4)
#define XFS_SB_FEAT_INCOMPAT_NREXT64	(1u << 5)
#define XFS_SB_FEAT_INCOMPAT_ALL	0x0000003fu

/* sb_features_log_incompat */
#define XFS_SB_FEAT_INCOMPAT_LOG_XATTRS	(1u << 0)
#define XFS_SB_FEAT_INCOMPAT_LOG_ALL	0x00000001u

/* sb_qflags */
#define XFS_UQUOTA_ACCT		0x0001
#define XFS_UQUOTA_ENFD		0x0002
#define XFS_UQUOTA_CHKD		0x0004
#define XFS_PQUOTA_ACCT		0x0008
#define XFS_OQUOTA_ENFD		0x0010
#define XFS_OQUOTA_CHKD		0x0020
#define XFS_GQUOTA_ACCT		0x0040
#define XFS_GQUOTA_ENFD		0x0080
#define XFS_GQUOTA_CHKD		0x0100
#define XFS_PQUOTA_ENFD		0x0200
#define XFS_PQUOTA_CHKD		0x0400

/* On-disk superblock, 264 bytes; the rest of the sector is zero. */
struct xfs_dsb {
	be32		sb_magicnum;
	be32		sb_blocksize;
	be64		sb_dblocks;
	be64		sb_rblocks;
	be64		sb_rextents;
	xfs_uuid_t	sb_uuid;
	be64		sb_logstart;
	be64		sb_rootino;
	be64		sb_rbmino;
	be64		sb_rsumino;
	be32		sb_rextsize;
	be32		sb_agblocks;
	be32		sb_agcount;
	be32		sb_rbmblocks;
	be32		sb_logblocks;
	be16		sb_versionnum;
	be16		sb_sectsize;
	be16		sb_inodesize;
	be16		sb_inopblock;
	char		sb_fname[12];
	uint8_t		sb_blocklog;
	uint8_t		sb_sectlog;
	uint8_t		sb_inodelog;
	uint8_t		sb_inopblog;
	uint8_t		sb_agblklog;
	uint8_t		sb_rextslog;
	uint8_t		sb_inprogress;
	uint8_t		sb_imax_pct;
	be64		sb_icount;
	be64		sb_ifree;
	be64		sb_fdblocks;
	be64		sb_frextents;
	be64		sb_uquotino;
	be64		sb_gquotino;
	be16		sb_qflags;
	uint8_t		sb_flags;
	uint8_t		sb_shared_vn;
	be32		sb_inoalignmt;
	be32		sb_unit;
	be32		sb_width;
	uint8_t		sb_dirblklog;
	uint8_t		sb_logsectlog;
	be16		sb_logsectsize;
	be32		sb_logsunit;
	be32		sb_features2;
	be32		sb_bad_features2;
	/* version 5 fields */
	be32		sb_features_compat;
	be32		sb_features_ro_compat;
	be32		sb_features_incompat;
	be32		sb_features_log_incompat;
	le32		sb_crc;
	be32		sb_spino_align;
	be64		sb_pquotino;
	be64		sb_lsn;
	xfs_uuid_t	sb_meta_uuid;
};

#define XFS_SB_CRC_OFF		offsetof(struct xfs_dsb, sb_crc)
#define XFS_SB_DSIZE		sizeof(struct xfs_dsb)

_Static_assert(sizeof(struct xfs_dsb) == 264, "xfs_dsb size");
_Static_assert(offsetof(struct xfs_dsb, sb_crc) == 224, "sb_crc offset");

#endif
