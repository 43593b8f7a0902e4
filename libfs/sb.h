/*
 * The superblock in host form, and its verifier.
 *
 * sb_decode() turns the on-disk struct xfs_dsb into struct fs_sb;
 * sb_encode() is the inverse (the CRC is set by the buffer layer on
 * write).  sb_verify() checks one copy on its own: magic, CRC, version,
 * every geometry field against the others, feature bits.  Comparing a
 * secondary with the primary is sb_compare().
 */
#ifndef XK_SB_H
#define XK_SB_H

#include "format/sb.h"
#include "findings.h"

struct fs_sb {
	uint32_t	magicnum;
	uint32_t	blocksize;
	uint64_t	dblocks;
	uint64_t	rblocks;
	uint64_t	rextents;
	xfs_uuid_t	uuid;
	uint64_t	logstart;
	xfs_ino_t	rootino;
	xfs_ino_t	rbmino;
	xfs_ino_t	rsumino;
	uint32_t	rextsize;
	uint32_t	agblocks;
	uint32_t	agcount;
	uint32_t	rbmblocks;
	uint32_t	logblocks;
	uint16_t	versionnum;
	uint16_t	sectsize;
	uint16_t	inodesize;
	uint16_t	inopblock;
	char		fname[12];
	uint8_t		blocklog;
	uint8_t		sectlog;
	uint8_t		inodelog;
	uint8_t		inopblog;
	uint8_t		agblklog;
	uint8_t		rextslog;
	uint8_t		inprogress;
	uint8_t		imax_pct;
	uint64_t	icount;
	uint64_t	ifree;
	uint64_t	fdblocks;
	uint64_t	frextents;
	xfs_ino_t	uquotino;
	xfs_ino_t	gquotino;
	uint16_t	qflags;
	uint8_t		flags;
	uint8_t		shared_vn;
	uint32_t	inoalignmt;
	uint32_t	unit;
	uint32_t	width;
	uint8_t		dirblklog;
	uint8_t		logsectlog;
	uint16_t	logsectsize;
	uint32_t	logsunit;
	uint32_t	features2;
	uint32_t	bad_features2;
	uint32_t	features_compat;
	uint32_t	features_ro_compat;
	uint32_t	features_incompat;
	uint32_t	features_log_incompat;
	uint32_t	crc;
	uint32_t	spino_align;
	xfs_ino_t	pquotino;
	xfs_lsn_t	lsn;
	xfs_uuid_t	meta_uuid;
};

void sb_decode(const struct xfs_dsb *d, struct fs_sb *s);
void sb_encode(const struct fs_sb *s, struct xfs_dsb *d);

/*
 * The version bits of a v5 superblock: those it must have, and all it
 * may have (every one but the shared bit, which nothing supports); the
 * same of features2, where mkfs sets the four required ones always and
 * the kernel refuses to mount without any of them.
 */
#define SB_V5_VERSION_REQUIRED \
	(XFS_SB_VERSION_NLINKBIT | XFS_SB_VERSION_ALIGNBIT | \
	 XFS_SB_VERSION_LOGV2BIT | XFS_SB_VERSION_EXTFLGBIT | \
	 XFS_SB_VERSION_DIRV2BIT | XFS_SB_VERSION_MOREBITSBIT)
#define SB_V5_VERSION_ALLOWED \
	(SB_V5_VERSION_REQUIRED | XFS_SB_VERSION_NUMBITS | \
	 XFS_SB_VERSION_ATTRBIT | XFS_SB_VERSION_QUOTABIT | \
	 XFS_SB_VERSION_DALIGNBIT | XFS_SB_VERSION_SECTORBIT | \
	 XFS_SB_VERSION_BORGBIT)
#define SB_V5_FEATURES2_REQUIRED \
	(XFS_SB_VERSION2_LAZYSBCOUNTBIT | XFS_SB_VERSION2_ATTR2BIT | \
	 XFS_SB_VERSION2_PROJID32BIT | XFS_SB_VERSION2_CRCBIT)
#define SB_V5_FEATURES2_ALLOWED \
	(SB_V5_FEATURES2_REQUIRED | XFS_SB_VERSION2_FTYPE)

static inline bool sb_is_v5(const struct fs_sb *s)
{
	return (s->versionnum & XFS_SB_VERSION_NUMBITS) == XFS_SB_VERSION_5;
}

#define SB_RO_FEATURE(fn, bit) \
static inline bool fn(const struct fs_sb *s) \
{ return (s->features_ro_compat & (bit)) != 0; }
#define SB_IN_FEATURE(fn, bit) \
static inline bool fn(const struct fs_sb *s) \
{ return (s->features_incompat & (bit)) != 0; }

SB_RO_FEATURE(sb_has_finobt, XFS_SB_FEAT_RO_COMPAT_FINOBT)
SB_RO_FEATURE(sb_has_rmapbt, XFS_SB_FEAT_RO_COMPAT_RMAPBT)
SB_RO_FEATURE(sb_has_reflink, XFS_SB_FEAT_RO_COMPAT_REFLINK)
SB_RO_FEATURE(sb_has_inobtcount, XFS_SB_FEAT_RO_COMPAT_INOBTCNT)
SB_IN_FEATURE(sb_has_ftype, XFS_SB_FEAT_INCOMPAT_FTYPE)
SB_IN_FEATURE(sb_has_sparseinodes, XFS_SB_FEAT_INCOMPAT_SPINODES)
SB_IN_FEATURE(sb_has_metauuid, XFS_SB_FEAT_INCOMPAT_META_UUID)
SB_IN_FEATURE(sb_has_bigtime, XFS_SB_FEAT_INCOMPAT_BIGTIME)
SB_IN_FEATURE(sb_has_needsrepair, XFS_SB_FEAT_INCOMPAT_NEEDSREPAIR)
SB_IN_FEATURE(sb_has_nrext64, XFS_SB_FEAT_INCOMPAT_NREXT64)
#undef SB_RO_FEATURE
#undef SB_IN_FEATURE

static inline bool sb_has_quota(const struct fs_sb *s)
{
	return (s->versionnum & XFS_SB_VERSION_QUOTABIT) != 0;
}

/*
 * The inodes of the filesystem's own metadata (realtime bitmap and
 * summary, and the quota inodes when quotas are on): no directory entry
 * may name one, and the kernel's directory block verifiers refuse a
 * block whose entry does.
 */
static inline bool sb_internal_ino(const struct fs_sb *s, xfs_ino_t ino)
{
	if (ino == s->rbmino || ino == s->rsumino)
		return true;
	return sb_has_quota(s) && (ino == s->uquotino ||
				   ino == s->gquotino || ino == s->pquotino);
}

static inline bool sb_has_asciici(const struct fs_sb *s)
{
	return (s->versionnum & XFS_SB_VERSION_BORGBIT) != 0;
}

static inline bool sb_has_projid32(const struct fs_sb *s)
{
	return (s->features2 & XFS_SB_VERSION2_PROJID32BIT) != 0;
}

/* The UUID stamped into metadata blocks (meta_uuid if set, else uuid). */
static inline const xfs_uuid_t *sb_meta_uuid(const struct fs_sb *s)
{
	return sb_has_metauuid(s) ? &s->meta_uuid : &s->uuid;
}

/*
 * Does the version number, with features2, name a format the reference
 * and the kernel support?  A v5 one has every bit v5 requires and none
 * they do not know; a v4 one has v2 directories and unwritten extents
 * and no bit beyond the v4 ones (no CRCs: a v5 superblock whose version
 * number says 4 is damaged, not v4).  Nothing else is supported.
 */
bool sb_good_version(const struct fs_sb *s);

/*
 * Verify one superblock copy.  raw/len is the whole sector (the CRC covers
 * it); agno says which copy, for the findings.  Returns the number of
 * SEV_ERROR findings added; "not XFS" and "v4" are reported as
 * FS_NOT_XFS / FS_V4 and stop further checks.
 */
unsigned sb_verify(const void *raw, size_t len, xfs_agnumber_t agno,
		   uint64_t devsize, struct fs_findings *fl);

/* Compare a secondary with the primary: geometry and feature fields. */
unsigned sb_compare(const struct fs_sb *primary, const struct fs_sb *sec,
		    xfs_agnumber_t agno, struct fs_findings *fl);

#endif
