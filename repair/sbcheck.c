/*
 * Superblock usability (sbcheck.h): libfs's sb_verify() findings sorted
 * into the reference's verdicts.
 */
#include "config.h"
#include <string.h>
#include "format/log.h"
#include "sbcheck.h"

static const char *const sbc_words[SBC_NERR] = {
	[SBC_OK] = "no error",
	[SBC_BAD_MAGIC] = "bad magic number",
	[SBC_BAD_BLOCKSIZE] = "bad blocksize field",
	[SBC_BAD_BLOCKLOG] = "bad blocksize log field",
	[SBC_BAD_VERSION] = "bad or unsupported version",
	[SBC_BAD_INPROGRESS] = "filesystem mkfs-in-progress bit set",
	[SBC_BAD_FS_SIZE_DATA] = "inconsistent filesystem geometry information",
	[SBC_BAD_INO_SIZE_DATA] =
		"bad inode size or inconsistent with number of inodes/block",
	[SBC_BAD_SECT_SIZE_DATA] = "bad sector size",
	[SBC_BAD_RT_GEO_DATA] =
		"inconsistent filesystem geometry in realtime filesystem component",
	[SBC_BAD_INO_MAX_PCT] = "maximum indicated percentage of inodes > 100%",
	[SBC_BAD_INO_ALIGN] = "inconsistent inode alignment value",
	[SBC_INSUFF_SEC_SB] =
		"not enough secondary superblocks with matching geometry",
	[SBC_BAD_SB_UNIT] = "bad stripe unit in superblock",
	[SBC_BAD_SB_WIDTH] = "bad stripe width in superblock",
	[SBC_BAD_CRC] = "bad CRC in superblock",
	[SBC_BAD_DIR_SIZE_DATA] = "inconsistent directory geometry information",
	[SBC_BAD_LOG_GEOMETRY] = "inconsistent log geometry information",
	[SBC_SB_GEO_MISMATCH] =
		"AG superblock geometry info conflicts with filesystem geometry",
	[SBC_EOF] = "attempted to perform I/O beyond EOF",
	[SBC_V4] = "bad or unsupported version",
};

const char *sbc_strerror(int err)
{
	if (err < 0 || err >= SBC_NERR)
		return "unknown error";
	return sbc_words[err];
}

/*
 * The verdict a finding stands for, and its place in the reference's
 * order of checks (lower is checked first).  0: not a usability problem.
 */
static int classify(const struct fs_finding *f, bool primary, int *rank)
{
	const char *fld = f->field ? f->field : "";

	switch (f->code) {
	case PR_SB_BAD_MAGIC:
		*rank = 1;
		return SBC_BAD_MAGIC;
	case PR_SB_NOT_V5:
		*rank = 2;
		return SBC_BAD_VERSION;
	case PR_SB_INPROGRESS:
		if (!primary)
			return 0;
		*rank = 3;
		return SBC_BAD_INPROGRESS;
	case PR_SB_BAD_SECTSIZE:
		*rank = 4;
		return SBC_BAD_SECT_SIZE_DATA;
	case PR_SB_BAD_CRC:
		*rank = 5;
		return SBC_BAD_CRC;
	case PR_SB_BAD_BLOCKSIZE:
		*rank = 6;
		return f->found ? SBC_BAD_BLOCKLOG : SBC_BAD_BLOCKSIZE;
	case PR_SB_BAD_LOG2:
		if (!strcmp(fld, "sectlog")) {
			*rank = 4;
			return SBC_BAD_SECT_SIZE_DATA;
		}
		if (!strcmp(fld, "blocklog")) {
			*rank = 6;
			return SBC_BAD_BLOCKLOG;
		}
		if (!strcmp(fld, "agblklog")) {
			*rank = 7;
			return SBC_BAD_FS_SIZE_DATA;
		}
		*rank = 8;
		return SBC_BAD_INO_SIZE_DATA;
	case PR_SB_BAD_DBLOCKS:
	case PR_SB_BAD_AGBLOCKS:
	case PR_SB_BAD_AGCOUNT:
		*rank = 7;
		return SBC_BAD_FS_SIZE_DATA;
	case PR_SB_BAD_INODESIZE:
	case PR_SB_BAD_INOPBLOCK:
		*rank = 8;
		return SBC_BAD_INO_SIZE_DATA;
	case PR_SB_BAD_LOG_GEOMETRY:
		/* the reference checks the log's size here, not its place */
		if (strcmp(fld, "logblocks"))
			return 0;
		*rank = 9;
		return SBC_BAD_LOG_GEOMETRY;
	case PR_SB_BAD_LOGSUNIT:
		/* too large is an inode geometry fault to the reference */
		if (f->found > XLOG_MAX_RECORD_BSIZE) {
			*rank = 8;
			return SBC_BAD_INO_SIZE_DATA;
		}
		*rank = 9;
		return SBC_BAD_LOG_GEOMETRY;
	case PR_SB_BAD_LOGSECT:
		/* the reference's own rule: see logsect_ok() */
		return 0;
	case PR_SB_BAD_RTGEOM:
		*rank = 11;
		return SBC_BAD_RT_GEO_DATA;
	case PR_SB_BAD_INOALIGN:
	case PR_SB_BAD_SPINO_ALIGN:
		/* the reference's rule is looser: see ino_align_ok() */
		return 0;
	case PR_SB_BAD_IMAXPCT:
		*rank = 13;
		return SBC_BAD_INO_MAX_PCT;
	case PR_SB_BAD_STRIPE:
		/* the reference's own rule: see stripe_verdict() */
		return 0;
	case PR_SB_BAD_DIRBLKLOG:
		*rank = 15;
		return SBC_BAD_DIR_SIZE_DATA;
	default:
		return 0;
	}
}

/*
 * The log's sector size, which the reference checks only when the
 * version says there is one (the sector bit): set, a power of two from
 * 512 bytes to 32 KiB, with its log2 beside it.
 */
static bool logsect_ok(const struct fs_sb *sb)
{
	unsigned l = 0;

	if (!(sb->versionnum & XFS_SB_VERSION_SECTORBIT))
		return true;
	if (!sb->logsectsize)
		return false;
	while ((1u << l) < sb->logsectsize && l < 16)
		l++;
	return l >= XFS_MIN_SECTORSIZE_LOG && l <= XFS_MAX_SECTORSIZE_LOG &&
	       l == sb->logsectlog;
}

/*
 * The stripe fields as the reference judges them: with the stripe bit,
 * a width needs a unit that divides the AG size, a unit needs a width it
 * divides; without it, neither may be set (a width fault).
 */
static enum sbc_err stripe_verdict(const struct fs_sb *sb)
{
	if (!(sb->versionnum & XFS_SB_VERSION_DALIGNBIT))
		return sb->unit || sb->width ? SBC_BAD_SB_WIDTH : SBC_OK;
	if ((!sb->unit && sb->width) ||
	    (sb->unit && sb->agblocks % sb->unit))
		return SBC_BAD_SB_UNIT;
	if ((sb->unit && !sb->width) ||
	    (sb->unit && sb->width && sb->width % sb->unit))
		return SBC_BAD_SB_WIDTH;
	return SBC_OK;
}

/*
 * Inode chunk alignment as the reference accepts it: the old 8 KiB
 * cluster size, or that scaled by the inode size, or -- with sparse
 * inodes -- the whole chunk with spino_align at the scaled cluster size.
 */
static bool ino_align_ok(const struct fs_sb *sb)
{
	uint64_t align;

	if (!(sb->versionnum & XFS_SB_VERSION_ALIGNBIT))
		return true;
	if (sb->blocklog < XFS_MIN_BLOCKSIZE_LOG ||
	    sb->blocklog > XFS_MAX_BLOCKSIZE_LOG)
		return true;	/* reported as a block size problem */
	align = 8192u >> sb->blocklog;
	if (align == sb->inoalignmt)
		return true;
	align = (8192ull * sb->inodesize / 256) >> sb->blocklog;
	if (align == sb->inoalignmt)
		return true;
	if (sb_has_sparseinodes(sb)) {
		if (align != sb->spino_align)
			return false;
		align = ((uint64_t)sb->inodesize * XFS_INODES_PER_CHUNK) >>
			sb->blocklog;
		if (align == sb->inoalignmt)
			return true;
	}
	return false;
}

/* The finding behind a verdict that no sb_verify finding stands for. */
static void set_why(struct fs_finding *why, const char *field,
		    uint64_t expected, uint64_t found)
{
	if (!why)
		return;
	why->field = field;
	why->expected = expected;
	why->found = found;
}

/*
 * Which word says the version is bad, and the nearest good value of it:
 * the version number (a v4 number, bits v5 requires or does not know),
 * else features2.
 */
static void version_why(const struct fs_sb *sb, struct fs_finding *why)
{
	uint16_t vn = (sb->versionnum & SB_V5_VERSION_ALLOWED &
		       ~XFS_SB_VERSION_NUMBITS) | SB_V5_VERSION_REQUIRED |
		      XFS_SB_VERSION_5;
	uint32_t f2 = (sb->features2 & SB_V5_FEATURES2_ALLOWED) |
		      SB_V5_FEATURES2_REQUIRED;

	if (sb->versionnum != vn)
		set_why(why, "versionnum", vn, sb->versionnum);
	else
		set_why(why, "features2", f2, sb->features2);
}

enum sbc_err sbc_check_why(const void *raw, size_t len, bool primary,
			   struct fs_sb *sb, struct fs_findings *fl,
			   struct fs_finding *why)
{
	struct fs_findings tmp;
	int best = SBC_OK, best_rank = 1000;
	const struct fs_finding *bestf = NULL;

	memset(sb, 0, sizeof(*sb));
	if (why)
		memset(why, 0, sizeof(*why));
	if (len < sizeof(struct xfs_dsb))
		return SBC_EOF;
	sb_decode(raw, sb);
	if (sb->magicnum != XFS_SB_MAGIC) {
		set_why(why, "magicnum", XFS_SB_MAGIC, sb->magicnum);
		return SBC_BAD_MAGIC;
	}
	/*
	 * A version number the reference does not support is its second
	 * check, after the magic number.  A v4 superblock that is good as
	 * v4 is a v4 filesystem, which we do not handle; one with bits v4
	 * never had (CRCs) is a damaged v5 superblock.
	 */
	if ((sb->versionnum & XFS_SB_VERSION_NUMBITS) == XFS_SB_VERSION_4) {
		version_why(sb, why);
		return sb_good_version(sb) ? SBC_V4 : SBC_BAD_VERSION;
	}

	findings_init(&tmp);
	sb_verify(raw, len, primary ? 0 : 1, 0, &tmp);
	if (!sb_good_version(sb)) {
		best = SBC_BAD_VERSION;
		best_rank = 2;
		version_why(sb, why);
	}
	for (size_t i = 0; i < tmp.n; i++) {
		int rank = 0;
		int e = classify(&tmp.v[i], primary, &rank);

		if (e && rank < best_rank) {
			best = e;
			best_rank = rank;
			bestf = &tmp.v[i];
		}
	}
	/* the reference's own rules, in its order (ranks 10, 12, 14) */
	if (best_rank > 10 && !logsect_ok(sb)) {
		best = SBC_BAD_SECT_SIZE_DATA;
		best_rank = 10;
		bestf = NULL;
		set_why(why, "logsectsize", 0, sb->logsectsize);
	}
	if (best_rank > 12 && !ino_align_ok(sb)) {
		best = SBC_BAD_INO_ALIGN;
		best_rank = 12;
		bestf = NULL;
		set_why(why, "inoalignmt", 0, sb->inoalignmt);
	}
	if (best_rank > 14 && stripe_verdict(sb) != SBC_OK) {
		best = stripe_verdict(sb);
		best_rank = 14;
		bestf = NULL;
		if (best == SBC_BAD_SB_UNIT)
			set_why(why, "unit", 0, sb->unit);
		else
			set_why(why, "width", 0, sb->width);
	}
	if (why && bestf)
		set_why(why, bestf->field, bestf->expected, bestf->found);
	if (fl)
		findings_splice(fl, &tmp);
	findings_free(&tmp);
	return best;
}

enum sbc_err sbc_check(const void *raw, size_t len, bool primary,
		       struct fs_sb *sb, struct fs_findings *fl)
{
	return sbc_check_why(raw, len, primary, sb, fl, NULL);
}
