/*
 * Superblock decode, encode and verification (allocation_groups.asciidoc
 * "Superblocks").  sb_verify() checks what one copy says about itself,
 * in the order the fields depend on each other: identity (magic, version,
 * CRC), sizes and their log2 fields, AG geometry against dblocks, then
 * everything placed by that geometry (log, root inode, alignment).
 */
#include "config.h"
#include <string.h>
#include "format/crc32c.h"
#include "format/log.h"
#include "geom.h"
#include "sb.h"

void sb_decode(const struct xfs_dsb *d, struct fs_sb *s)
{
	s->magicnum = get_be32(d->sb_magicnum);
	s->blocksize = get_be32(d->sb_blocksize);
	s->dblocks = get_be64(d->sb_dblocks);
	s->rblocks = get_be64(d->sb_rblocks);
	s->rextents = get_be64(d->sb_rextents);
	s->uuid = d->sb_uuid;
	s->logstart = get_be64(d->sb_logstart);
	s->rootino = get_be64(d->sb_rootino);
	s->rbmino = get_be64(d->sb_rbmino);
	s->rsumino = get_be64(d->sb_rsumino);
	s->rextsize = get_be32(d->sb_rextsize);
	s->agblocks = get_be32(d->sb_agblocks);
	s->agcount = get_be32(d->sb_agcount);
	s->rbmblocks = get_be32(d->sb_rbmblocks);
	s->logblocks = get_be32(d->sb_logblocks);
	s->versionnum = get_be16(d->sb_versionnum);
	s->sectsize = get_be16(d->sb_sectsize);
	s->inodesize = get_be16(d->sb_inodesize);
	s->inopblock = get_be16(d->sb_inopblock);
	memcpy(s->fname, d->sb_fname, sizeof(s->fname));
	s->blocklog = d->sb_blocklog;
	s->sectlog = d->sb_sectlog;
	s->inodelog = d->sb_inodelog;
	s->inopblog = d->sb_inopblog;
	s->agblklog = d->sb_agblklog;
	s->rextslog = d->sb_rextslog;
	s->inprogress = d->sb_inprogress;
	s->imax_pct = d->sb_imax_pct;
	s->icount = get_be64(d->sb_icount);
	s->ifree = get_be64(d->sb_ifree);
	s->fdblocks = get_be64(d->sb_fdblocks);
	s->frextents = get_be64(d->sb_frextents);
	s->uquotino = get_be64(d->sb_uquotino);
	s->gquotino = get_be64(d->sb_gquotino);
	s->qflags = get_be16(d->sb_qflags);
	s->flags = d->sb_flags;
	s->shared_vn = d->sb_shared_vn;
	s->inoalignmt = get_be32(d->sb_inoalignmt);
	s->unit = get_be32(d->sb_unit);
	s->width = get_be32(d->sb_width);
	s->dirblklog = d->sb_dirblklog;
	s->logsectlog = d->sb_logsectlog;
	s->logsectsize = get_be16(d->sb_logsectsize);
	s->logsunit = get_be32(d->sb_logsunit);
	s->features2 = get_be32(d->sb_features2);
	s->bad_features2 = get_be32(d->sb_bad_features2);
	s->features_compat = get_be32(d->sb_features_compat);
	s->features_ro_compat = get_be32(d->sb_features_ro_compat);
	s->features_incompat = get_be32(d->sb_features_incompat);
	s->features_log_incompat = get_be32(d->sb_features_log_incompat);
	s->crc = get_le32(d->sb_crc);
	s->spino_align = get_be32(d->sb_spino_align);
	s->pquotino = get_be64(d->sb_pquotino);
	s->lsn = (xfs_lsn_t)get_be64(d->sb_lsn);
	s->meta_uuid = d->sb_meta_uuid;
}

void sb_encode(const struct fs_sb *s, struct xfs_dsb *d)
{
	put_be32(&d->sb_magicnum, s->magicnum);
	put_be32(&d->sb_blocksize, s->blocksize);
	put_be64(&d->sb_dblocks, s->dblocks);
	put_be64(&d->sb_rblocks, s->rblocks);
	put_be64(&d->sb_rextents, s->rextents);
	d->sb_uuid = s->uuid;
	put_be64(&d->sb_logstart, s->logstart);
	put_be64(&d->sb_rootino, s->rootino);
	put_be64(&d->sb_rbmino, s->rbmino);
	put_be64(&d->sb_rsumino, s->rsumino);
	put_be32(&d->sb_rextsize, s->rextsize);
	put_be32(&d->sb_agblocks, s->agblocks);
	put_be32(&d->sb_agcount, s->agcount);
	put_be32(&d->sb_rbmblocks, s->rbmblocks);
	put_be32(&d->sb_logblocks, s->logblocks);
	put_be16(&d->sb_versionnum, s->versionnum);
	put_be16(&d->sb_sectsize, s->sectsize);
	put_be16(&d->sb_inodesize, s->inodesize);
	put_be16(&d->sb_inopblock, s->inopblock);
	memcpy(d->sb_fname, s->fname, sizeof(d->sb_fname));
	d->sb_blocklog = s->blocklog;
	d->sb_sectlog = s->sectlog;
	d->sb_inodelog = s->inodelog;
	d->sb_inopblog = s->inopblog;
	d->sb_agblklog = s->agblklog;
	d->sb_rextslog = s->rextslog;
	d->sb_inprogress = s->inprogress;
	d->sb_imax_pct = s->imax_pct;
	put_be64(&d->sb_icount, s->icount);
	put_be64(&d->sb_ifree, s->ifree);
	put_be64(&d->sb_fdblocks, s->fdblocks);
	put_be64(&d->sb_frextents, s->frextents);
	put_be64(&d->sb_uquotino, s->uquotino);
	put_be64(&d->sb_gquotino, s->gquotino);
	put_be16(&d->sb_qflags, s->qflags);
	d->sb_flags = s->flags;
	d->sb_shared_vn = s->shared_vn;
	put_be32(&d->sb_inoalignmt, s->inoalignmt);
	put_be32(&d->sb_unit, s->unit);
	put_be32(&d->sb_width, s->width);
	d->sb_dirblklog = s->dirblklog;
	d->sb_logsectlog = s->logsectlog;
	put_be16(&d->sb_logsectsize, s->logsectsize);
	put_be32(&d->sb_logsunit, s->logsunit);
	put_be32(&d->sb_features2, s->features2);
	put_be32(&d->sb_bad_features2, s->bad_features2);
	put_be32(&d->sb_features_compat, s->features_compat);
	put_be32(&d->sb_features_ro_compat, s->features_ro_compat);
	put_be32(&d->sb_features_incompat, s->features_incompat);
	put_be32(&d->sb_features_log_incompat, s->features_log_incompat);
	put_le32(&d->sb_crc, s->crc);
	put_be32(&d->sb_spino_align, s->spino_align);
	put_be64(&d->sb_pquotino, s->pquotino);
	put_be64(&d->sb_lsn, (uint64_t)s->lsn);
	d->sb_meta_uuid = s->meta_uuid;
}

static bool is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

static unsigned log2_roundup(uint64_t v)
{
	unsigned l = 0;

	while ((1ull << l) < v)
		l++;
	return l;
}

/* The highest bit set in v (0 for 0 and 1). */
static unsigned log2_rounddown(uint64_t v)
{
	unsigned l = 0;

	while (v >>= 1)
		l++;
	return l;
}

/* Inode number check that needs only the superblock, not struct fs_geom. */
static bool sb_ino_ok(const struct fs_sb *s, xfs_ino_t ino)
{
	unsigned agino_log = s->agblklog + s->inopblog;
	uint64_t agno = ino >> agino_log;
	uint64_t agbno = (ino & ((1ull << agino_log) - 1)) >> s->inopblog;
	uint64_t agsize = agno == s->agcount - 1 ?
		s->dblocks - (uint64_t)(s->agcount - 1) * s->agblocks :
		s->agblocks;

	return ino && agno < s->agcount && agbno && agbno < agsize;
}

#define XFS_MAX_AG_BYTES	(1ull << 40)
#define XFS_MIN_LOG_BLOCKS	512
#define XFS_MAX_LOG_BLOCKS	(1024 * 1024)
#define XFS_MAX_LOG_BYTES	(2ull << 30)
#define XFS_MIN_RTEXT_BYTES	4096
#define XFS_MAX_RTEXT_BYTES	(1ull << 30)

#define XFS_ALL_QFLAGS	0x07ffu

bool sb_good_version(const struct fs_sb *s)
{
	unsigned num = s->versionnum & XFS_SB_VERSION_NUMBITS;
	uint32_t f2_ok = SB_V5_FEATURES2_ALLOWED & ~XFS_SB_VERSION2_CRCBIT;

	if (num == XFS_SB_VERSION_5)
		return !(s->versionnum & ~SB_V5_VERSION_ALLOWED) &&
		       !(s->features2 & ~SB_V5_FEATURES2_ALLOWED) &&
		       (s->versionnum & SB_V5_VERSION_REQUIRED) ==
		       SB_V5_VERSION_REQUIRED &&
		       (s->features2 & SB_V5_FEATURES2_REQUIRED) ==
		       SB_V5_FEATURES2_REQUIRED;
	if (num != XFS_SB_VERSION_4)
		return false;
	/* a v4 one has v2 directories and unwritten extents, and no CRCs */
	return (s->versionnum & XFS_SB_VERSION_DIRV2BIT) &&
	       (s->versionnum & XFS_SB_VERSION_EXTFLGBIT) &&
	       !(s->versionnum & ~SB_V5_VERSION_ALLOWED) &&
	       !((s->versionnum & XFS_SB_VERSION_MOREBITSBIT) &&
		 (s->features2 & ~f2_ok));
}

unsigned sb_verify(const void *raw, size_t len, xfs_agnumber_t agno,
		   uint64_t devsize, struct fs_findings *fl)
{
	struct fs_objref o = OBJREF_INIT(OBJ_SB);
	struct fs_sb sb, *s = &sb;
	unsigned errs = 0;
	bool geom_ok = true;

#define BAD(code, field, exp, found) do { \
		fs_report_val(fl, PR_##code, &o, field, exp, found); \
		errs++; \
	} while (0)
#define BADF(code, field, found) do { \
		fs_report_found(fl, PR_##code, &o, field, found); \
		errs++; \
	} while (0)

	o.agno = agno;
	o.daddr = 0;
	if (len < sizeof(struct xfs_dsb)) {
		BAD(DEV_SHORT_READ, NULL, sizeof(struct xfs_dsb), len);
		return errs;
	}
	sb_decode(raw, s);
	/* A secondary sits at the start of its AG (by its own geometry). */
	if (agno)
		o.daddr = (uint64_t)agno * s->agblocks * (s->blocksize >> 9);
	if (s->magicnum != XFS_SB_MAGIC) {
		o.type = OBJ_SB;
		BAD(SB_BAD_MAGIC, "magicnum", XFS_SB_MAGIC, s->magicnum);
		return errs;
	}
	if (!sb_is_v5(s)) {
		BAD(SB_NOT_V5, "versionnum", XFS_SB_VERSION_5,
		    s->versionnum & XFS_SB_VERSION_NUMBITS);
		return errs;
	}
	/* The CRC covers the whole sector; only checkable if we have it. */
	if (s->sectsize >= sizeof(struct xfs_dsb) && s->sectsize <= len &&
	    !xfs_cksum_verify(raw, s->sectsize, XFS_SB_CRC_OFF))
		BAD(SB_BAD_CRC, "crc",
		    xfs_cksum_calc(raw, s->sectsize, XFS_SB_CRC_OFF), s->crc);

	if ((s->versionnum & SB_V5_VERSION_REQUIRED) != SB_V5_VERSION_REQUIRED)
		BAD(SB_MISSING_FEATURE, "versionnum",
		    s->versionnum | SB_V5_VERSION_REQUIRED, s->versionnum);
	if (s->versionnum & ~SB_V5_VERSION_ALLOWED)
		BADF(SB_UNKNOWN_FEATURE, "versionnum",
		     s->versionnum & ~SB_V5_VERSION_ALLOWED);
	if (s->features2 != s->bad_features2)
		BAD(SB_BAD_FEATURES2, "bad_features2", s->features2,
		    s->bad_features2);
	if (s->features2 & ~SB_V5_FEATURES2_ALLOWED)
		BADF(SB_UNKNOWN_FEATURE, "features2",
		     s->features2 & ~SB_V5_FEATURES2_ALLOWED);
	if ((s->features2 & SB_V5_FEATURES2_REQUIRED) != SB_V5_FEATURES2_REQUIRED)
		BADF(SB_MISSING_FEATURE, "features2", s->features2);
	if (s->features_ro_compat & ~XFS_SB_FEAT_RO_COMPAT_ALL)
		BADF(SB_UNKNOWN_FEATURE, "features_ro_compat",
		     s->features_ro_compat & ~XFS_SB_FEAT_RO_COMPAT_ALL);
	if (s->features_incompat & ~XFS_SB_FEAT_INCOMPAT_ALL)
		BADF(SB_UNKNOWN_FEATURE, "features_incompat",
		     s->features_incompat & ~XFS_SB_FEAT_INCOMPAT_ALL);
	if (s->features_log_incompat & ~XFS_SB_FEAT_INCOMPAT_LOG_ALL)
		BADF(SB_UNKNOWN_FEATURE, "features_log_incompat",
		     s->features_log_incompat & ~XFS_SB_FEAT_INCOMPAT_LOG_ALL);
	if (sb_has_needsrepair(s)) {
		fs_report(fl, PR_SB_NEEDSREPAIR, &o, "features_incompat");
		errs++;
	}
	/* block, sector and inode sizes and their log2 fields */
	if (s->blocksize < (1u << XFS_MIN_BLOCKSIZE_LOG) ||
	    s->blocksize > (1u << XFS_MAX_BLOCKSIZE_LOG) ||
	    !is_pow2(s->blocksize)) {
		BADF(SB_BAD_BLOCKSIZE, "blocksize", s->blocksize);
		geom_ok = false;
	} else if (s->blocklog != log2_roundup(s->blocksize)) {
		BAD(SB_BAD_LOG2, "blocklog", log2_roundup(s->blocksize),
		    s->blocklog);
		geom_ok = false;
	}
	if (s->sectsize < (1u << XFS_MIN_SECTORSIZE_LOG) ||
	    s->sectsize > (1u << XFS_MAX_SECTORSIZE_LOG) ||
	    !is_pow2(s->sectsize) ||
	    (geom_ok && s->sectsize > s->blocksize)) {
		BADF(SB_BAD_SECTSIZE, "sectsize", s->sectsize);
		geom_ok = false;
	} else if (s->sectlog != log2_roundup(s->sectsize)) {
		BAD(SB_BAD_LOG2, "sectlog", log2_roundup(s->sectsize),
		    s->sectlog);
		geom_ok = false;
	}
	if (s->inodesize < 512 || s->inodesize > (1u << XFS_DINODE_MAX_LOG) ||
	    !is_pow2(s->inodesize) || (geom_ok && s->inodesize > s->blocksize)) {
		BADF(SB_BAD_INODESIZE, "inodesize", s->inodesize);
		geom_ok = false;
	} else if (s->inodelog != log2_roundup(s->inodesize)) {
		BAD(SB_BAD_LOG2, "inodelog", log2_roundup(s->inodesize),
		    s->inodelog);
		geom_ok = false;
	}
	if (geom_ok) {
		uint32_t ipb = s->blocksize / s->inodesize;

		if (s->inopblock != ipb) {
			BAD(SB_BAD_INOPBLOCK, "inopblock", ipb, s->inopblock);
			geom_ok = false;
		} else if (s->inopblog != log2_roundup(ipb)) {
			BAD(SB_BAD_LOG2, "inopblog", log2_roundup(ipb),
			    s->inopblog);
			geom_ok = false;
		}
	}

	/* AG geometry */
	if (geom_ok) {
		uint64_t maxag = XFS_MAX_AG_BYTES >> s->blocklog;

		if (s->agblocks < XFS_MIN_AG_BLOCKS || s->agblocks > maxag) {
			BADF(SB_BAD_AGBLOCKS, "agblocks", s->agblocks);
			geom_ok = false;
		} else if (s->agblklog != log2_roundup(s->agblocks)) {
			BAD(SB_BAD_LOG2, "agblklog", log2_roundup(s->agblocks),
			    s->agblklog);
			geom_ok = false;
		}
	}
	if (s->agcount == 0 || s->agcount > XFS_MAX_AGNUMBER) {
		BADF(SB_BAD_AGCOUNT, "agcount", s->agcount);
		geom_ok = false;
	}
	if (geom_ok) {
		uint64_t lo = (uint64_t)(s->agcount - 1) * s->agblocks +
			      XFS_MIN_AG_BLOCKS;
		uint64_t hi = (uint64_t)s->agcount * s->agblocks;

		if (s->dblocks < lo || s->dblocks > hi ||
		    s->dblocks > (1ull << XFS_MAX_DBLOCKS_LOG)) {
			BADF(SB_BAD_DBLOCKS, "dblocks", s->dblocks);
			geom_ok = false;
		} else if (agno == 0 && devsize &&
			   s->dblocks > (devsize >> s->blocklog)) {
			fs_report_val(fl, PR_FS_TOO_SMALL, &o, "dblocks",
				      devsize >> s->blocklog, s->dblocks);
			errs++;
		}
	}

	if (s->imax_pct > 100)
		BADF(SB_BAD_IMAXPCT, "imax_pct", s->imax_pct);
	if (geom_ok && s->blocklog + s->dirblklog > XFS_MAX_DIR_BLOCK_LOG)
		BADF(SB_BAD_DIRBLKLOG, "dirblklog", s->dirblklog);

	/* log */
	if (s->logblocks < XFS_MIN_LOG_BLOCKS ||
	    s->logblocks > XFS_MAX_LOG_BLOCKS ||
	    (geom_ok && ((uint64_t)s->logblocks << s->blocklog) > XFS_MAX_LOG_BYTES))
		BADF(SB_BAD_LOG_GEOMETRY, "logblocks", s->logblocks);
	if (geom_ok && s->logstart) {
		/* an internal log lies inside one AG */
		uint64_t agb = s->logstart & ((1ull << s->agblklog) - 1);
		uint64_t lag = s->logstart >> s->agblklog;

		if (lag >= s->agcount || agb + s->logblocks > s->agblocks ||
		    agb == 0)
			BADF(SB_BAD_LOG_GEOMETRY, "logstart", s->logstart);
	}
	if (s->logsectlog || s->logsectsize) {
		if (!is_pow2(s->logsectsize) || s->logsectsize < 512 ||
		    s->logsectsize > (1u << XFS_MAX_SECTORSIZE_LOG) ||
		    s->logsectlog != log2_roundup(s->logsectsize))
			BADF(SB_BAD_LOGSECT, "logsectsize", s->logsectsize);
	}
	if (s->logsunit > 1 && (s->logsunit > XLOG_MAX_RECORD_BSIZE ||
				(geom_ok && s->logsunit % s->blocksize)))
		BADF(SB_BAD_LOGSUNIT, "logsunit", s->logsunit);

	/*
	 * Inodes placed by the geometry.  Secondary copies are written by
	 * mkfs before the root directory exists and are never updated after
	 * (the reference leaves rootino null in some and inprogress set in
	 * all of them), so those fields only count in the primary.
	 */
	if (geom_ok && !(agno && s->rootino == NULLFSINO) &&
	    !sb_ino_ok(s, s->rootino))
		BADF(SB_BAD_ROOTINO, "rootino", s->rootino);
	if (geom_ok && s->rbmino != NULLFSINO && s->rbmino != 0 &&
	    !sb_ino_ok(s, s->rbmino))
		BADF(SB_BAD_RTINO, "rbmino", s->rbmino);
	if (geom_ok && s->rsumino != NULLFSINO && s->rsumino != 0 &&
	    !sb_ino_ok(s, s->rsumino))
		BADF(SB_BAD_RTINO, "rsumino", s->rsumino);
	if (geom_ok) {
		const xfs_ino_t q[3] = { s->uquotino, s->gquotino, s->pquotino };
		static const char *const qn[3] = {
			"uquotino", "gquotino", "pquotino"
		};

		for (int i = 0; i < 3; i++)
			if (q[i] != NULLFSINO && q[i] != 0 && !sb_ino_ok(s, q[i]))
				BADF(SB_BAD_QUOTAINO, qn[i], q[i]);
	}
	if (s->qflags & ~XFS_ALL_QFLAGS)
		BADF(SB_BAD_QFLAGS, "qflags", s->qflags);

	/*
	 * Realtime geometry, by the rules the kernel and the reference
	 * share.  The extent size in bytes is their 32-bit product (one
	 * that wraps back into range passes with them, and so here).
	 * Without a realtime section every other realtime field, the free
	 * extent count included, is zero; with one, the extent count, its
	 * log (of its low 32 bits: none for a count of zero) and the bitmap
	 * size follow from rblocks and rextsize.
	 */
	if (geom_ok) {
		uint32_t rtx = s->rextsize * s->blocksize;
		uint64_t bits = (uint64_t)s->blocksize * 8;

		if (rtx < XFS_MIN_RTEXT_BYTES || rtx > XFS_MAX_RTEXT_BYTES)
			BADF(SB_BAD_RTGEOM, "rextsize", s->rextsize);
		else if (s->rblocks == 0 && s->rextents)
			BAD(SB_BAD_RTGEOM, "rextents", 0, s->rextents);
		else if (s->rblocks == 0 && s->rbmblocks)
			BAD(SB_BAD_RTGEOM, "rbmblocks", 0, s->rbmblocks);
		else if (s->rblocks == 0 && s->rextslog)
			BAD(SB_BAD_RTGEOM, "rextslog", 0, s->rextslog);
		else if (s->rblocks == 0 && s->frextents)
			BAD(SB_BAD_RTGEOM, "frextents", 0, s->frextents);
		else if (s->rblocks && s->rextents != s->rblocks / s->rextsize)
			BAD(SB_BAD_RTGEOM, "rextents", s->rblocks / s->rextsize,
			    s->rextents);
		else if (s->rblocks && ((uint32_t)s->rextents == 0 ||
					s->rextslog !=
					log2_rounddown((uint32_t)s->rextents)))
			BAD(SB_BAD_RTGEOM, "rextslog",
			    log2_rounddown((uint32_t)s->rextents), s->rextslog);
		else if (s->rblocks &&
			 s->rbmblocks != (s->rextents + bits - 1) / bits)
			BAD(SB_BAD_RTGEOM, "rbmblocks",
			    (s->rextents + bits - 1) / bits, s->rbmblocks);
	}

	/*
	 * Inode chunk alignment: with sparse inodes, exactly one chunk (the
	 * sparse rules depend on it); without, mkfs uses the inode cluster
	 * size, so any power of two will do.
	 */
	if (geom_ok && (s->versionnum & XFS_SB_VERSION_ALIGNBIT)) {
		uint32_t chunk = (XFS_INODES_PER_CHUNK * s->inodesize) >> s->blocklog;

		if (!chunk)
			chunk = 1;
		if (sb_has_sparseinodes(s) ? s->inoalignmt != chunk :
		    !is_pow2(s->inoalignmt))
			BAD(SB_BAD_INOALIGN, "inoalignmt", chunk, s->inoalignmt);
	}
	if (geom_ok && sb_has_sparseinodes(s)) {
		uint32_t cl = (8192 * (s->inodesize / 256)) >> s->blocklog;

		if (s->spino_align != cl || !cl)
			BAD(SB_BAD_SPINO_ALIGN, "spino_align", cl, s->spino_align);
	} else if (s->spino_align) {
		BAD(SB_BAD_SPINO_ALIGN, "spino_align", 0, s->spino_align);
	}
	if (s->unit || s->width) {
		if (!s->unit || !s->width || s->width % s->unit ||
		    (geom_ok && s->unit > s->agblocks))
			BADF(SB_BAD_STRIPE, "unit", s->unit);
		else if (!(s->versionnum & XFS_SB_VERSION_DALIGNBIT))
			BADF(SB_BAD_STRIPE, "versionnum", s->versionnum);
	}

	if (s->inprogress && agno == 0)
		BADF(SB_INPROGRESS, "inprogress", s->inprogress);
	if (s->flags & ~0x01u)
		BADF(SB_BAD_FLAGS, "flags", s->flags);
	if (geom_ok && (s->fdblocks > s->dblocks || s->ifree > s->icount))
		BADF(SB_BAD_COUNTERS, s->fdblocks > s->dblocks ? "fdblocks" : "ifree",
		     s->fdblocks > s->dblocks ? s->fdblocks : s->ifree);

	/* The rest of the sector must be zero (what follows the struct). */
	if (s->sectsize <= len && s->sectsize > sizeof(struct xfs_dsb)) {
		const uint8_t *p = raw;

		for (size_t i = sizeof(struct xfs_dsb); i < s->sectsize; i++)
			if (p[i]) {
				fs_report_found(fl, PR_SB_NONZERO_TAIL, &o, NULL, i);
				break;
			}
	}
#undef BAD
#undef BADF
	return errs;
}

unsigned sb_compare(const struct fs_sb *p, const struct fs_sb *s,
		    xfs_agnumber_t agno, struct fs_findings *fl)
{
	struct fs_objref o = OBJREF_INIT(OBJ_SB);
	unsigned errs = 0;

	o.agno = agno;
	o.daddr = (uint64_t)agno * p->agblocks * (p->blocksize >> 9);
#define CMP(f) do { \
		if (p->f != s->f) { \
			fs_report_val(fl, PR_SB_SECONDARY_MISMATCH, &o, #f, \
				      p->f, s->f); \
			errs++; \
		} \
	} while (0)
	CMP(blocksize);
	CMP(dblocks);
	CMP(rblocks);
	CMP(rextents);
	CMP(logstart);
	/* rootino, rbmino, rsumino: stale by design in secondaries */
	CMP(rextsize);
	CMP(agblocks);
	CMP(agcount);
	CMP(rbmblocks);
	CMP(logblocks);
	/*
	 * The kernel turns on the attr and quota bits in the primary only,
	 * the first time it uses them; secondaries keep what mkfs wrote.
	 */
	{
		uint16_t mask = ~(XFS_SB_VERSION_ATTRBIT | XFS_SB_VERSION_QUOTABIT);

		if ((p->versionnum & mask) != (s->versionnum & mask)) {
			fs_report_val(fl, PR_SB_SECONDARY_MISMATCH, &o,
				      "versionnum", p->versionnum, s->versionnum);
			errs++;
		}
	}
	CMP(sectsize);
	CMP(inodesize);
	CMP(inopblock);
	CMP(blocklog);
	CMP(sectlog);
	CMP(inodelog);
	CMP(inopblog);
	CMP(agblklog);
	CMP(rextslog);
	CMP(imax_pct);
	CMP(inoalignmt);
	CMP(unit);
	CMP(width);
	CMP(dirblklog);
	CMP(logsectlog);
	CMP(logsectsize);
	CMP(logsunit);
	CMP(features2);
	CMP(features_compat);
	CMP(features_ro_compat);
	CMP(features_incompat);
	CMP(spino_align);
#undef CMP
	if (memcmp(&p->uuid, &s->uuid, sizeof(p->uuid))) {
		fs_report(fl, PR_SB_BAD_UUID, &o, "uuid");
		errs++;
	}
	return errs;
}
