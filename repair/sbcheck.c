/*
 * Superblock usability (sbcheck.h): libfs's sb_verify() findings sorted
 * into the reference's verdicts.
 */
#include "config.h"
#include <string.h>
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
		*rank = 9;
		return SBC_BAD_LOG_GEOMETRY;
	case PR_SB_BAD_LOGSECT:
		*rank = 10;
		return SBC_BAD_SECT_SIZE_DATA;
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
		*rank = 14;
		return SBC_BAD_SB_UNIT;	/* or width: see sbc_check */
	case PR_SB_BAD_DIRBLKLOG:
		*rank = 15;
		return SBC_BAD_DIR_SIZE_DATA;
	default:
		return 0;
	}
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

enum sbc_err sbc_check(const void *raw, size_t len, bool primary,
		       struct fs_sb *sb, struct fs_findings *fl)
{
	struct fs_findings tmp;
	int best = SBC_OK, best_rank = 1000;

	memset(sb, 0, sizeof(*sb));
	if (len < sizeof(struct xfs_dsb))
		return SBC_EOF;
	sb_decode(raw, sb);
	if (sb->magicnum != XFS_SB_MAGIC)
		return SBC_BAD_MAGIC;
	if ((sb->versionnum & XFS_SB_VERSION_NUMBITS) == XFS_SB_VERSION_4)
		return SBC_V4;

	findings_init(&tmp);
	sb_verify(raw, len, primary ? 0 : 1, 0, &tmp);
	for (size_t i = 0; i < tmp.n; i++) {
		int rank = 0;
		int e = classify(&tmp.v[i], primary, &rank);

		if (e && rank < best_rank) {
			best = e;
			best_rank = rank;
		}
	}
	if (best_rank > 12 && !ino_align_ok(sb)) {
		best = SBC_BAD_INO_ALIGN;
		best_rank = 12;
	}
	if (best == SBC_BAD_SB_UNIT &&
	    ((sb->unit && !sb->width) ||
	     (sb->unit && sb->width && sb->width % sb->unit)))
		best = SBC_BAD_SB_WIDTH;
	if (fl)
		findings_splice(fl, &tmp);
	findings_free(&tmp);
	return best;
}
