/*
 * Inodes: cluster buffers, decode, and verification of the v3 core
 * (ondisk_inode.asciidoc; nrext64 and bigtime from the kernel's format).
 *
 * In:  an inode number, the geometry.
 * Out: a decoded struct fs_inode with a private copy of the raw inode;
 *      findings for everything the core says that cannot be true.
 * The forks' contents are checked by bmap.c (mappings), dir*.c, attr*.c
 * and symlink.c; only their formats, sizes and counters are checked here.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "format/btree.h"
#include "format/crc32c.h"
#include "format/attr.h"
#include "format/dir.h"
#include "inode.h"

/*
 * Where the literal area starts: after the 176-byte core of a version 3
 * inode, and after the 100-byte core (up to di_crc) of any other version
 * byte, which is how xfs_repair reads an inode whose version it refuses.
 */
static uint32_t literal_off(const struct xfs_dinode *d)
{
	return d->di_version == XFS_DINODE_VERSION_3 ? XFS_DINODE_CORE_SIZE :
	       XFS_DINODE_CRC_OFF;
}

void inode_decode_time(bool bigtime, xfs_timestamp_t t, struct fs_timestamp *ts)
{
	uint64_t v = get_be64(t);

	if (bigtime) {
		ts->sec = (int64_t)(v / XFS_NSEC_PER_SEC) - XFS_BIGTIME_EPOCH_OFFSET;
		ts->nsec = (uint32_t)(v % XFS_NSEC_PER_SEC);
	} else {
		ts->sec = (int32_t)(uint32_t)(v >> 32);
		ts->nsec = (uint32_t)v;
	}
}

static bool dinode_has_nrext64(const struct xfs_dinode *d)
{
	return d->di_version >= XFS_DINODE_VERSION_3 &&
	       (get_be64(d->di_flags2) & XFS_DIFLAG2_NREXT64) != 0;
}

int inode_decode(const struct fs_geom *g, xfs_ino_t ino, const void *raw,
		 struct fs_inode *ip)
{
	const struct xfs_dinode *d = raw;
	uint32_t lit = g->inodesize - literal_off(d);
	bool bigtime, nrext64;

	memset(ip, 0, sizeof(*ip));
	ip->raw = malloc(g->inodesize);
	if (!ip->raw)
		return -ENOMEM;
	memcpy(ip->raw, raw, g->inodesize);
	ip->rawsize = g->inodesize;
	d = (const struct xfs_dinode *)ip->raw;

	ip->ino = ino;
	ip->magic = get_be16(d->di_magic);
	ip->mode = get_be16(d->di_mode);
	ip->version = d->di_version;
	ip->format = d->di_format;
	ip->onlink = get_be16(d->di_onlink);
	ip->uid = get_be32(d->di_uid);
	ip->gid = get_be32(d->di_gid);
	ip->nlink = get_be32(d->di_nlink);
	ip->projid = (uint32_t)get_be16(d->di_projid_hi) << 16 |
		     get_be16(d->di_projid_lo);
	/* flags2 and the rest of a v3 core are in the fork below version 3 */
	if (d->di_version >= XFS_DINODE_VERSION_3)
		ip->flags2 = get_be64(d->di_flags2);
	/* version 1 kept the link count in its 16-bit field */
	if (d->di_version == 1)
		ip->nlink = ip->onlink;
	bigtime = (ip->flags2 & XFS_DIFLAG2_BIGTIME) != 0;
	nrext64 = dinode_has_nrext64(d);
	inode_decode_time(bigtime, d->di_atime, &ip->atime);
	inode_decode_time(bigtime, d->di_mtime, &ip->mtime);
	inode_decode_time(bigtime, d->di_ctime, &ip->ctime);
	if (d->di_version >= XFS_DINODE_VERSION_3)
		inode_decode_time(bigtime, d->di_crtime, &ip->crtime);
	ip->size = get_be64(d->di_size);
	ip->nblocks = get_be64(d->di_nblocks);
	ip->extsize = get_be32(d->di_extsize);
	if (nrext64) {
		ip->nextents = get_be64(d->u24.di_big_nextents);
		ip->anextents = get_be32(d->u76.big.di_big_anextents);
	} else {
		ip->nextents = get_be32(d->u76.small.di_nextents);
		ip->anextents = get_be16(d->u76.small.di_anextents);
		ip->flushiter = get_be16(d->u24.v2.di_flushiter);
	}
	ip->forkoff = d->di_forkoff;
	ip->aformat = d->di_aformat;
	ip->dmevmask = get_be32(d->di_dmevmask);
	ip->dmstate = get_be16(d->di_dmstate);
	ip->flags = get_be16(d->di_flags);
	ip->gen = get_be32(d->di_gen);
	ip->next_unlinked = get_be32(d->di_next_unlinked);
	ip->crc = get_le32(d->di_crc);
	ip->changecount = get_be64(d->di_changecount);
	ip->lsn = (xfs_lsn_t)get_be64(d->di_lsn);
	if (d->di_version >= XFS_DINODE_VERSION_3)
		ip->cowextsize = get_be32(d->di_cowextsize);
	ip->di_ino = get_be64(d->di_ino);
	ip->uuid = d->di_uuid;

	/* a forkoff past the literal area is reported by inode_verify */
	ip->dfork = ip->raw + literal_off(d);
	if (ip->forkoff && (uint32_t)ip->forkoff * 8 < lit) {
		ip->dfork_size = ip->forkoff * 8;
		ip->afork = ip->dfork + ip->dfork_size;
		ip->afork_size = lit - ip->dfork_size;
	} else {
		ip->dfork_size = lit;
		ip->afork = NULL;
		ip->afork_size = 0;
	}
	return 0;
}

void inode_release(struct fs_inode *ip)
{
	free(ip->raw);
	ip->raw = NULL;
	ip->dfork = ip->afork = NULL;
}

uint32_t inode_rdev(const struct fs_inode *ip)
{
	if (ip->format != XFS_DINODE_FMT_DEV || ip->dfork_size < 4)
		return 0;
	return load_be32(ip->dfork);
}

uint8_t inode_mode_ftype(uint16_t mode)
{
	switch (mode & XFS_S_IFMT) {
	case XFS_S_IFREG:	return XFS_DIR3_FT_REG_FILE;
	case XFS_S_IFDIR:	return XFS_DIR3_FT_DIR;
	case XFS_S_IFCHR:	return XFS_DIR3_FT_CHRDEV;
	case XFS_S_IFBLK:	return XFS_DIR3_FT_BLKDEV;
	case XFS_S_IFIFO:	return XFS_DIR3_FT_FIFO;
	case XFS_S_IFSOCK:	return XFS_DIR3_FT_SOCK;
	case XFS_S_IFLNK:	return XFS_DIR3_FT_SYMLINK;
	default:		return XFS_DIR3_FT_UNKNOWN;
	}
}

static bool mode_type_valid(uint16_t mode)
{
	return inode_mode_ftype(mode) != XFS_DIR3_FT_UNKNOWN;
}

/* Largest number of extent records the extents format can hold. */
static uint64_t fork_maxext(uint32_t fork_size)
{
	return fork_size / sizeof(struct xfs_bmbt_rec);
}

/* Check one fork's format, counter and size against its room. */
static unsigned verify_fork(struct fs *fs, const struct fs_inode *ip,
			    int whichfork, struct fs_objref *o,
			    struct fs_findings *fl)
{
	uint32_t size;
	const uint8_t *p = inode_fork_ptr(ip, whichfork, &size);
	int fmt = inode_fork_format(ip, whichfork);
	uint64_t n = inode_fork_nextents(ip, whichfork);
	const char *fmtname = whichfork == XFS_DATA_FORK ? "core.format" :
							   "core.aformat";
	const char *cntname = whichfork == XFS_DATA_FORK ? "core.nextents" :
							   "core.naextents";
	uint64_t maxcnt;
	unsigned errs = 0;

	if (whichfork == XFS_DATA_FORK)
		maxcnt = fs->geo.has_nrext64 ? XFS_MAX_EXTCNT_DATA_FORK_LARGE :
					       XFS_MAX_EXTCNT_DATA_FORK_SMALL;
	else
		maxcnt = fs->geo.has_nrext64 ? XFS_MAX_EXTCNT_ATTR_FORK_LARGE :
					       XFS_MAX_EXTCNT_ATTR_FORK_SMALL;
	if (n > maxcnt) {
		fs_report_val(fl, PR_INODE_BAD_NEXTENTS, o, cntname, maxcnt, n);
		errs++;
	}
	switch (fmt) {
	case XFS_DINODE_FMT_LOCAL:
		if (n) {
			fs_report_val(fl, PR_INODE_BAD_NEXTENTS, o, cntname, 0, n);
			errs++;
		}
		if (whichfork == XFS_DATA_FORK && ip->size > size) {
			fs_report_val(fl, PR_INODE_BAD_SIZE, o, "core.size",
				      size, ip->size);
			errs++;
		}
		if (whichfork == XFS_ATTR_FORK && size >= 2 &&
		    load_be16(p) > size) {
			fs_report_val(fl, PR_INODE_BAD_SIZE, o,
				      "a.sfattr.hdr.totsize", size, load_be16(p));
			errs++;
		} else if (whichfork == XFS_ATTR_FORK && size >= 2 &&
			   load_be16(p) < sizeof(struct xfs_attr_sf_hdr)) {
			/* not even its header: the kernel refuses the fork */
			fs_report_val(fl, PR_INODE_BAD_SIZE, o,
				      "a.sfattr.hdr.totsize",
				      sizeof(struct xfs_attr_sf_hdr),
				      load_be16(p));
			errs++;
		}
		break;
	case XFS_DINODE_FMT_EXTENTS:
		if (n > fork_maxext(size)) {
			fs_report_val(fl, PR_INODE_BAD_NEXTENTS, o, cntname,
				      fork_maxext(size), n);
			errs++;
		}
		break;
	case XFS_DINODE_FMT_BTREE: {
		unsigned level, numrecs;

		/* fewer extents than the extents format holds: no btree */
		if (n <= fork_maxext(size)) {
			fs_report_val(fl, PR_INODE_BAD_NEXTENTS, o, cntname,
				      fork_maxext(size) + 1, n);
			errs++;
		}
		if (size < sizeof(struct xfs_bmdr_block) + 16) {
			fs_report_found(fl, PR_BMAP_BAD_ROOT, o, fmtname, size);
			errs++;
			break;
		}
		level = load_be16(p);
		numrecs = load_be16(p + 2);
		if (level == 0 || level >= XFS_BMBT_MAXLEVELS) {
			fs_report_found(fl, PR_BMAP_BAD_ROOT, o,
					whichfork == XFS_DATA_FORK ?
					"u3.bmbt.level" : "a.bmbt.level", level);
			errs++;
		}
		if (numrecs == 0 || numrecs > (size - 4) / 16) {
			fs_report_found(fl, PR_BMAP_BAD_ROOT, o,
					whichfork == XFS_DATA_FORK ?
					"u3.bmbt.numrecs" : "a.bmbt.numrecs",
					numrecs);
			errs++;
		}
		break;
	}
	case XFS_DINODE_FMT_DEV:
		if (whichfork == XFS_ATTR_FORK) {
			fs_report_found(fl, PR_INODE_BAD_AFORMAT, o, fmtname, fmt);
			errs++;
		}
		break;
	default:
		fs_report_found(fl, whichfork == XFS_DATA_FORK ?
				PR_INODE_BAD_FORMAT : PR_INODE_BAD_AFORMAT,
				o, fmtname, fmt);
		errs++;
		break;
	}
	return errs;
}

/* The xfs_db name of the lowest of a set of di_flags bits. */
static const char *diflag_name(uint16_t bits)
{
	static const char *const names[15] = {
		"core.realtime", "core.prealloc", "core.newrtbm",
		"core.immutable", "core.append", "core.sync", "core.noatime",
		"core.nodump", "core.rtinherit", "core.projinherit",
		"core.nosymlinks", "core.extsz", "core.extszinherit",
		"core.nodefrag", "core.filestream",
	};

	for (unsigned i = 0; i < 15; i++)
		if (bits & (1u << i))
			return names[i];
	return "core.flags";
}

/*
 * A file block count in bytes, cut to 32 bits: the kernel's hint checks
 * hold their byte counts in 32-bit variables, and so agree with the
 * kernel (and the reference) only when cut the same way.
 */
static uint32_t fsb_bytes32(const struct fs_geom *g, uint64_t fsbs)
{
	return (uint32_t)(fsbs << g->blocklog);
}

/*
 * Is the extent size hint one the kernel's inode verifier takes?  Either
 * flag needs a hint of the file's own kind (a file's, a directory's) and
 * a hint needs a flag; it is whole realtime extents for a realtime file
 * (whole blocks otherwise), a bmbt extent at most, and for a data device
 * file half an AG at most.  The flags are the inode's own (on disk),
 * whatever other rules say of them.  Returns 0 (good), 1 (the verifier
 * refuses it) or 2 (the verifier takes it, but it is no good: see
 * below).
 */
static int extsize_hint_bad(const struct fs *fs, const struct fs_inode *ip)
{
	const struct fs_geom *g = &fs->geo;
	uint16_t type = ip->mode & XFS_S_IFMT;
	bool rt = ip->flags & XFS_DIFLAG_REALTIME;
	bool hint = ip->flags & XFS_DIFLAG_EXTSIZE;
	bool inherit = ip->flags & XFS_DIFLAG_EXTSZINHERIT;
	uint32_t unit = rt ? fsb_bytes32(g, fs->sb.rextsize) :
			     fsb_bytes32(g, 1);

	if (hint && type != XFS_S_IFREG)
		return 1;
	if (inherit && type != XFS_S_IFDIR)
		return 1;
	if ((hint || inherit) ? ip->extsize == 0 : ip->extsize != 0)
		return 1;
	if (unit && fsb_bytes32(g, ip->extsize) % unit)
		return 1;
	if (ip->extsize > XFS_MAX_BMBT_EXTLEN)
		return 1;
	if (!rt && ip->extsize > fs->sb.agblocks / 2)
		return 1;
	/*
	 * A directory whose new files inherit both the realtime flag and
	 * its hint hands them a hint that must be whole realtime extents;
	 * the kernel's verifier lets it pass, the reference does not.
	 */
	if (inherit && (ip->flags & XFS_DIFLAG_RTINHERIT) &&
	    fs->sb.rextsize && ip->extsize % fs->sb.rextsize)
		return 2;
	return 0;
}

/* The same for the copy-on-write extent size hint (flags2 COWEXTSIZE). */
static bool cowextsize_hint_bad(const struct fs *fs, const struct fs_inode *ip)
{
	const struct fs_geom *g = &fs->geo;
	uint16_t type = ip->mode & XFS_S_IFMT;
	bool hint = ip->flags2 & XFS_DIFLAG2_COWEXTSIZE;

	if (hint && (!g->has_reflink ||
		     (type != XFS_S_IFREG && type != XFS_S_IFDIR) ||
		     (ip->flags & XFS_DIFLAG_REALTIME)))
		return true;
	if (hint ? ip->cowextsize == 0 : ip->cowextsize != 0)
		return true;
	if (fsb_bytes32(g, ip->cowextsize) % fsb_bytes32(g, 1))
		return true;
	return ip->cowextsize > XFS_MAX_BMBT_EXTLEN ||
	       ip->cowextsize > fs->sb.agblocks / 2;
}

unsigned inode_verify_flags(struct fs *fs, xfs_ino_t ino, const void *raw,
			    struct fs_findings *fl, unsigned flags)
{
	const struct fs_geom *g = &fs->geo;
	const struct xfs_dinode *d = raw;
	struct fs_objref o = OBJREF_INIT(OBJ_INODE);
	struct fs_inode in, *ip = &in;
	uint16_t type;
	unsigned errs = 0;
	uint32_t lit = g->inodesize - literal_off(d);
	bool reflink_bad = false;

#define BAD(code, field, exp, found) do { \
		fs_report_val(fl, PR_##code, &o, field, exp, found); \
		errs++; \
	} while (0)
#define BADF(code, field, found) do { \
		fs_report_found(fl, PR_##code, &o, field, found); \
		errs++; \
	} while (0)

	o.ino = ino;
	o.agno = ino_to_agno(g, ino);
	o.daddr = ino_to_daddr(g, ino);
	if (get_be16(d->di_magic) != XFS_DINODE_MAGIC) {
		BAD(INODE_BAD_MAGIC, "core.magic", XFS_DINODE_MAGIC,
		    get_be16(d->di_magic));
		return errs;
	}
	/*
	 * The CRC before the version: a version the reference's xfs_db does
	 * not know leaves the CRC stale when it writes the inode, and the
	 * reference says both.
	 */
	if (!xfs_cksum_verify(raw, g->inodesize, XFS_DINODE_CRC_OFF))
		BAD(INODE_BAD_CRC, "v3.crc",
		    xfs_cksum_calc(raw, g->inodesize, XFS_DINODE_CRC_OFF),
		    get_le32(d->di_crc));
	if (d->di_version != XFS_DINODE_VERSION_3) {
		BAD(INODE_BAD_VERSION, "core.version", 3, d->di_version);
		if (!(flags & INODE_VERIFY_ANY_VERSION))
			return errs;
	}
	if (get_be64(d->di_ino) != ino)
		BAD(INODE_BAD_INO, "v3.inumber", ino, get_be64(d->di_ino));
	if (!fs_uuid_ok(fs, &d->di_uuid))
		BADF(INODE_BAD_UUID, "v3.uuid", 0);
	if (!fs_lsn_plausible(fs, (xfs_lsn_t)get_be64(d->di_lsn)))
		fs_report_found(fl, PR_INODE_BAD_LSN, &o, "v3.lsn",
				get_be64(d->di_lsn));	/* a warning */

	if (inode_decode(g, ino, raw, ip))
		return errs;
	type = ip->mode & XFS_S_IFMT;
	if (ip->mode == 0) {
		/* a free inode: only its identity above matters */
		goto out;
	}
	if (!mode_type_valid(ip->mode)) {
		BADF(INODE_BAD_MODE, "core.mode", ip->mode);
		goto out;
	}
	if (ip->onlink && ip->version != 1)
		BAD(INODE_BAD_ONLINK, "core.onlink", 0, ip->onlink);

	/* the data fork's format must suit the file type */
	switch (type) {
	case XFS_S_IFREG:
		if (ip->format != XFS_DINODE_FMT_EXTENTS &&
		    ip->format != XFS_DINODE_FMT_BTREE)
			BADF(INODE_BAD_FORMAT, "core.format", ip->format);
		break;
	case XFS_S_IFDIR:
	case XFS_S_IFLNK:
		if (ip->format != XFS_DINODE_FMT_LOCAL &&
		    ip->format != XFS_DINODE_FMT_EXTENTS &&
		    ip->format != XFS_DINODE_FMT_BTREE)
			BADF(INODE_BAD_FORMAT, "core.format", ip->format);
		break;
	default:	/* devices, fifos, sockets */
		if (ip->format != XFS_DINODE_FMT_DEV) {
			BADF(INODE_BAD_FORMAT, "core.format", ip->format);
			break;
		}
		if (ip->size)
			BADF(INODE_BAD_RDEV, "core.size", ip->size);
		/* a device has no extents: a counter that says so is wrong */
		if (ip->nextents)
			BAD(BMAP_COUNT_MISMATCH, "core.nextents", 0,
			    ip->nextents);
		break;
	}
	/* a negative size says nothing more about the type's rules */
	if ((int64_t)ip->size < 0)
		BADF(INODE_BAD_SIZE, "core.size", ip->size);
	else if (type == XFS_S_IFDIR && ip->format == XFS_DINODE_FMT_LOCAL &&
		 ip->size < XFS_DIR2_SF_HDR_SIZE(0))
		BADF(INODE_BAD_SIZE, "core.size", ip->size);
	else if (type == XFS_S_IFLNK &&
		 (ip->size == 0 || ip->size > XFS_SYMLINK_MAXLEN))
		BADF(INODE_BAD_SIZE, "core.size", ip->size);

	/* attribute fork placement */
	if (ip->forkoff) {
		/* a device number takes the first 8 bytes of the literal area */
		if (ip->format == XFS_DINODE_FMT_DEV) {
			if (ip->forkoff != 1)
				BAD(INODE_BAD_DEV_FORKOFF, "core.forkoff", 1,
				    ip->forkoff);
		} else if ((uint32_t)ip->forkoff * 8 >= lit) {
			BAD(INODE_BAD_FORKOFF, "core.forkoff", (lit - 1) / 8,
			    ip->forkoff);
		}
	} else {
		if (ip->aformat != XFS_DINODE_FMT_EXTENTS)
			BAD(INODE_BAD_AFORMAT, "core.aformat",
			    XFS_DINODE_FMT_EXTENTS, ip->aformat);
		if (ip->anextents)
			BAD(INODE_BAD_NEXTENTS, "core.naextents", 0,
			    ip->anextents);
	}
	if (type != XFS_S_IFCHR && type != XFS_S_IFBLK &&
	    type != XFS_S_IFIFO && type != XFS_S_IFSOCK)
		errs += verify_fork(fs, ip, XFS_DATA_FORK, &o, fl);
	if (ip->forkoff && ip->afork)
		errs += verify_fork(fs, ip, XFS_ATTR_FORK, &o, fl);

	/* block counts cover at least one block per extent */
	if (!(ip->flags & XFS_DIFLAG_REALTIME) &&
	    ip->nextents + ip->anextents > ip->nblocks)
		BAD(INODE_BAD_NBLOCKS, "core.nblocks",
		    ip->nextents + ip->anextents, ip->nblocks);

	/*
	 * flags, then flags2, each rule as the kernel and the reference
	 * have it; the hints last, as they depend on both.
	 */
	if (ip->flags & ~XFS_DIFLAG_ANY)
		BADF(INODE_BAD_FLAGS, "core.flags", ip->flags);
	if ((ip->flags & XFS_DIFLAG_REALTIME) && !fs->sb.rblocks)
		BADF(INODE_FLAG_NO_FEATURE, "core.realtime", 1);
	if ((ip->flags & XFS_DIFLAG_NEWRTBM) && ino != fs->sb.rbmino)
		BADF(INODE_NOT_RTBITMAP, "core.newrtbm", 1);
	{
		uint16_t dir_only = ip->flags & (XFS_DIFLAG_RTINHERIT |
						 XFS_DIFLAG_EXTSZINHERIT |
						 XFS_DIFLAG_PROJINHERIT |
						 XFS_DIFLAG_NOSYMLINKS);
		uint16_t file_only = ip->flags & (XFS_DIFLAG_REALTIME |
						  XFS_DIFLAG_EXTSIZE);

		/* a realtime flag without a realtime section said so above */
		if (!fs->sb.rblocks)
			file_only &= ~XFS_DIFLAG_REALTIME;
		if (dir_only && type != XFS_S_IFDIR)
			BADF(INODE_FLAG_WRONG_TYPE, diflag_name(dir_only),
			     ip->flags);
		if (file_only && type != XFS_S_IFREG)
			BADF(INODE_FLAG_WRONG_TYPE, diflag_name(file_only),
			     ip->flags);
	}

	if (ip->flags2 & ~XFS_DIFLAG2_ANY)
		BADF(INODE_BAD_FLAGS2, "v3.flags2", ip->flags2);
	if ((ip->flags2 & XFS_DIFLAG2_DAX) &&
	    type != XFS_S_IFREG && type != XFS_S_IFDIR)
		BADF(INODE_FLAG_WRONG_TYPE, "v3.dax", 1);
	/*
	 * A reflink flag that cannot be is the end of the inode: nothing
	 * after it is worth saying but where its unlinked list goes.
	 */
	if (ip->flags2 & XFS_DIFLAG2_REFLINK) {
		unsigned before = errs;

		if (!g->has_reflink)
			BADF(INODE_FLAG_NO_FEATURE, "v3.reflink", 1);
		else if (type != XFS_S_IFREG)
			BADF(INODE_FLAG_WRONG_TYPE, "v3.reflink", 1);
		else if (ip->flags & (XFS_DIFLAG_REALTIME |
				      XFS_DIFLAG_RTINHERIT))
			BADF(INODE_FLAG_ON_REALTIME, "v3.reflink", 1);
		reflink_bad = errs != before;
	}
	if (reflink_bad)
		goto unlinked;
	if (ip->flags2 & XFS_DIFLAG2_COWEXTSIZE) {
		if (!g->has_reflink)
			BADF(INODE_FLAG_NO_FEATURE, "v3.cowextsz", 1);
		else if (type != XFS_S_IFREG && type != XFS_S_IFDIR)
			BADF(INODE_FLAG_WRONG_TYPE, "v3.cowextsz", 1);
		else if (ip->flags & (XFS_DIFLAG_REALTIME |
				      XFS_DIFLAG_RTINHERIT))
			BADF(INODE_FLAG_ON_REALTIME, "v3.cowextsz", 1);
	}
	if ((ip->flags2 & XFS_DIFLAG2_BIGTIME) && !g->has_bigtime)
		BADF(INODE_FLAG_NO_FEATURE, "v3.bigtime", 1);
	if ((ip->flags2 & XFS_DIFLAG2_NREXT64) && !g->has_nrext64)
		BADF(INODE_FLAG_NO_FEATURE, "v3.nrext64", 1);

	/*
	 * A hint the kernel's verifier takes, but that is not whole rt
	 * extents, says which multiple it should be (expected); one the
	 * verifier refuses does not.
	 */
	switch (extsize_hint_bad(fs, ip)) {
	case 1:
		BADF(INODE_BAD_EXTSIZE, "core.extsize", ip->extsize);
		break;
	case 2:
		BAD(INODE_BAD_EXTSIZE, "core.extsize", fs->sb.rextsize,
		    ip->extsize);
		break;
	}
	if (cowextsize_hint_bad(fs, ip))
		BADF(INODE_BAD_COWEXTSIZE, "v3.cowextsize", ip->cowextsize);

	/* timestamps: legacy nanoseconds are below one second */
	if (!(ip->flags2 & XFS_DIFLAG2_BIGTIME)) {
		static const char *const tn[4] = {
			"core.atime.nsec", "core.mtime.nsec", "core.ctime.nsec",
			"v3.crtime.nsec"
		};
		const struct fs_timestamp *ts[4] = {
			&ip->atime, &ip->mtime, &ip->ctime, &ip->crtime
		};

		/* below version 3 the creation time is in the fork */
		int n = ip->version >= XFS_DINODE_VERSION_3 ? 4 : 3;

		for (int i = 0; i < n; i++)
			if (ts[i]->nsec >= XFS_NSEC_PER_SEC)
				BADF(INODE_BAD_TIMESTAMP, tn[i], ts[i]->nsec);
	}

unlinked:
	/* the unlinked list stays inside the AG */
	if (ip->next_unlinked != NULLAGINO &&
	    (!agino_valid(g, o.agno, ip->next_unlinked) ||
	     ip->next_unlinked == ino_to_agino(g, ino)))
		BADF(INODE_BAD_UNLINKED, "next_unlinked", ip->next_unlinked);

	/* reserved bytes (v2's are its flush counter's) */
	if (reflink_bad || ip->version < XFS_DINODE_VERSION_3)
		goto out;
	if (!(ip->flags2 & XFS_DIFLAG2_NREXT64)) {
		if (get_be64(d->u24.di_v3_pad))
			fs_report_found(fl, PR_INODE_BAD_PAD, &o, "v3.pad",
					get_be64(d->u24.di_v3_pad));
	} else if (get_be16(d->u76.big.di_nrext64_pad)) {
		fs_report_found(fl, PR_INODE_BAD_PAD, &o, "core.nrext64_pad",
				get_be16(d->u76.big.di_nrext64_pad));
	}
out:
	inode_release(ip);
#undef BAD
#undef BADF
	return errs;
}

unsigned inode_verify(struct fs *fs, xfs_ino_t ino, const void *raw,
		      struct fs_findings *fl)
{
	return inode_verify_flags(fs, ino, raw, fl, 0);
}

/*
 * Cluster buffers: every inode in a cluster has been initialised when its
 * chunk was allocated, so each must carry the magic and a good CRC.  The
 * per-inode core checks are inode_verify's, which knows the inode number.
 */
static void inode_cluster_verify(void *ctx, struct fs_buf *bp,
				 struct fs_findings *fl)
{
	struct fs *fs = ctx;
	const struct fs_geom *g = &fs->geo;
	unsigned n = bp->len >> g->inodelog;

	for (unsigned i = 0; i < n; i++) {
		const uint8_t *p = bp->data + ((size_t)i << g->inodelog);
		const struct xfs_dinode *d = (const void *)p;
		struct fs_objref o = OBJREF_INIT(OBJ_INODE);
		xfs_fsblock_t fsb = daddr_to_fsb(g, bp->daddr +
				((xfs_daddr_t)(i >> g->inopblog) << g->blkbb_log));

		o.agno = fsb_to_agno(g, fsb);
		o.ino = agino_to_ino(g, o.agno,
				     agb_to_agino(g, fsb_to_agbno(g, fsb)) +
				     (i & (g->inopblock - 1)));
		o.daddr = bp->daddr;
		if (get_be16(d->di_magic) != XFS_DINODE_MAGIC) {
			fs_report_val(fl, PR_INODE_BAD_MAGIC, &o, "core.magic",
				      XFS_DINODE_MAGIC, get_be16(d->di_magic));
			continue;
		}
		/* the CRC first, as in inode_verify() */
		if (!xfs_cksum_verify(p, g->inodesize, XFS_DINODE_CRC_OFF))
			fs_report_val(fl, PR_INODE_BAD_CRC, &o, "v3.crc",
				      xfs_cksum_calc(p, g->inodesize,
						     XFS_DINODE_CRC_OFF),
				      get_le32(d->di_crc));
		if (d->di_version != XFS_DINODE_VERSION_3)
			fs_report_val(fl, PR_INODE_BAD_VERSION, &o,
				      "core.version", 3, d->di_version);
	}
}

/* Writing a cluster recomputes every inode's CRC. */
static void inode_cluster_write_prep(void *ctx, struct fs_buf *bp)
{
	struct fs *fs = ctx;
	unsigned n = bp->len >> fs->geo.inodelog;

	for (unsigned i = 0; i < n; i++) {
		uint8_t *p = bp->data + ((size_t)i << fs->geo.inodelog);

		if (get_be16(((struct xfs_dinode *)p)->di_magic) ==
		    XFS_DINODE_MAGIC)
			xfs_cksum_update(p, fs->geo.inodesize,
					 XFS_DINODE_CRC_OFF);
	}
}

const struct buf_ops inode_cluster_buf_ops = {
	.name = "inode",
	.verify = inode_cluster_verify,
	.write_prep = inode_cluster_write_prep,
	.crc_off = BUF_NO_CRC,
};

int inode_read_cluster(struct fs *fs, xfs_ino_t ino, struct fs_findings *fl,
		       struct fs_buf **bpp, uint32_t *offset)
{
	const struct fs_geom *g = &fs->geo;
	xfs_agnumber_t agno = ino_to_agno(g, ino);
	xfs_agblock_t agbno = ino_to_agbno(g, ino);
	xfs_agblock_t cl_agbno;
	uint32_t nblocks = g->blocks_per_cluster;
	int err;

	*bpp = NULL;
	if (!ino_valid(g, ino))
		return -EINVAL;
	/*
	 * Clusters start at multiples of the cluster size inside aligned
	 * chunks.  Should alignment and cluster size disagree (a damaged
	 * superblock), read the single block instead.
	 */
	if (nblocks > 1 && g->inoalign && g->inoalign % nblocks == 0)
		cl_agbno = agbno - agbno % nblocks;
	else {
		cl_agbno = agbno;
		nblocks = 1;
	}
	if ((uint64_t)cl_agbno + nblocks > geom_ag_blocks(g, agno))
		nblocks = geom_ag_blocks(g, agno) - cl_agbno;
	err = fs_read_agblocks(fs, agno, cl_agbno, nblocks,
			       &inode_cluster_buf_ops, fl, bpp);
	if (err)
		return err;
	*offset = ((agbno - cl_agbno) << g->blocklog) + ino_to_boffset(g, ino);
	return 0;
}

int inode_read(struct fs *fs, xfs_ino_t ino, struct fs_inode *ip,
	       struct fs_findings *fl)
{
	struct fs_buf *bp;
	uint32_t off;
	int err;

	memset(ip, 0, sizeof(*ip));
	/* cluster-level findings are the same as inode_verify's: drop them */
	err = inode_read_cluster(fs, ino, NULL, &bp, &off);
	if (err) {
		if (err != -EINVAL) {
			struct fs_objref o = OBJREF_INIT(OBJ_INODE);

			o.ino = ino;
			fs_report(fl, PR_DEV_IO_ERROR, &o, NULL);
		}
		return err;
	}
	inode_verify(fs, ino, bp->data + off, fl);
	err = inode_decode(&fs->geo, ino, bp->data + off, ip);
	buf_release(bp);
	return err;
}
