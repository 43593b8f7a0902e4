/*
 * Is this sector a usable superblock?  The reference's rule, on top of
 * libfs's sb_verify(): a copy is usable when its version is one the
 * reference supports (sb_good_version) and the fields the geometry is
 * derived from hold together (identity, CRC, sizes, AG geometry, log,
 * realtime, alignment, stripe, directory block size).  Other findings of
 * sb_verify (counters, feature mismatches, stale inode pointers, garbage
 * after the fields) do not make a copy unusable; later phases report
 * them.  The verdict is the first failure in the reference's order, with
 * the reference's words for it.
 */
#ifndef XK_REPAIR_SBCHECK_H
#define XK_REPAIR_SBCHECK_H

#include "sb.h"

enum sbc_err {
	SBC_OK = 0,
	SBC_BAD_MAGIC,
	SBC_BAD_BLOCKSIZE,
	SBC_BAD_BLOCKLOG,
	SBC_BAD_VERSION,
	SBC_BAD_INPROGRESS,
	SBC_BAD_FS_SIZE_DATA,
	SBC_BAD_INO_SIZE_DATA,
	SBC_BAD_SECT_SIZE_DATA,
	SBC_BAD_RT_GEO_DATA,
	SBC_BAD_INO_MAX_PCT,
	SBC_BAD_INO_ALIGN,
	SBC_INSUFF_SEC_SB,
	SBC_BAD_SB_UNIT,
	SBC_BAD_SB_WIDTH,
	SBC_BAD_CRC,
	SBC_BAD_DIR_SIZE_DATA,
	SBC_BAD_LOG_GEOMETRY,
	SBC_SB_GEO_MISMATCH,
	SBC_EOF,
	SBC_V4,			/* a good v4 superblock: not supported */
	SBC_NERR
};

/*
 * Check the superblock at raw (len bytes read, at least 512).  primary
 * applies the primary-only rules (mkfs finished).  *sb gets the decoded
 * copy whatever the verdict; fl (may be NULL) gets sb_verify's findings.
 */
enum sbc_err sbc_check(const void *raw, size_t len, bool primary,
		       struct fs_sb *sb, struct fs_findings *fl);

/*
 * sbc_check(), and in *why (may be NULL) the field behind the verdict,
 * with what it should be where one value would do and what it is: the
 * finding's code and object are left for the caller to set.
 */
enum sbc_err sbc_check_why(const void *raw, size_t len, bool primary,
			   struct fs_sb *sb, struct fs_findings *fl,
			   struct fs_finding *why);

/* The reference's words for a verdict ("bad magic number", ...). */
const char *sbc_strerror(int err);

#endif
