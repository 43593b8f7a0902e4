/*
 * Whole-filesystem identity commands: version, uuid, label, info, and
 * hash.  uuid and label change every superblock copy (expert mode).
 */
#include "config.h"
#include <getopt.h>
#include <errno.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <unistd.h>
#include <uuid/uuid.h>
#include "db.h"
#include "dir.h"
#include "log.h"
#include "format/ondisk.h"
#include "format/crc32c.h"

/*
 * The feature list of "version", from the features the superblock
 * implies: on v5 the old optional bits ALIGN, LOGV2, EXTFLG, ATTR2,
 * LAZYSBCOUNT and PROJID32BIT are always on whatever versionnum says.
 */
static char *version_string(uint16_t vn, uint32_t f2, const struct fs_sb *sb,
			    char *s, size_t n)
{
	bool v5 = (vn & XFS_SB_VERSION_NUMBITS) == XFS_SB_VERSION_5;
	bool more = vn & XFS_SB_VERSION_MOREBITSBIT;
	unsigned num = vn & XFS_SB_VERSION_NUMBITS;

	s[0] = 0;
	if (num >= 1 && num <= 5)
		snprintf(s, n, "V%u", num);
#define ADD(cond, nm) do { if (cond) strncat(s, nm, n - strlen(s) - 1); } while (0)
	ADD(vn & XFS_SB_VERSION_NLINKBIT, ",NLINK");
	ADD(vn & XFS_SB_VERSION_SHAREDBIT, ",SHARED");
	ADD(vn & XFS_SB_VERSION_DIRV2BIT, ",DIRV2");
	ADD(vn & XFS_SB_VERSION_ATTRBIT, ",ATTR");
	ADD(vn & XFS_SB_VERSION_QUOTABIT, ",QUOTA");
	ADD(v5 || (vn & XFS_SB_VERSION_ALIGNBIT), ",ALIGN");
	ADD(vn & XFS_SB_VERSION_DALIGNBIT, ",DALIGN");
	ADD(v5 || (vn & XFS_SB_VERSION_LOGV2BIT), ",LOGV2");
	ADD(v5 || (vn & XFS_SB_VERSION_EXTFLGBIT), ",EXTFLG");
	ADD(vn & XFS_SB_VERSION_SECTORBIT, ",SECTOR");
	ADD(vn & XFS_SB_VERSION_BORGBIT, ",ASCII_CI");
	ADD(more, ",MOREBITS");
	ADD(v5 || (more && (f2 & XFS_SB_VERSION2_ATTR2BIT)), ",ATTR2");
	ADD(v5 || (more && (f2 & XFS_SB_VERSION2_LAZYSBCOUNTBIT)),
	    ",LAZYSBCOUNT");
	ADD(v5 || (more && (f2 & XFS_SB_VERSION2_PROJID32BIT)),
	    ",PROJID32BIT");
	ADD(v5, ",CRC");
	ADD((more && (f2 & XFS_SB_VERSION2_FTYPE)) ||
	    (v5 && sb_has_ftype(sb)), ",FTYPE");
	if (v5) {
		ADD(sb_has_finobt(sb), ",FINOBT");
		ADD(sb_has_sparseinodes(sb), ",SPARSE_INODES");
		ADD(sb_has_metauuid(sb), ",META_UUID");
		ADD(sb_has_rmapbt(sb), ",RMAPBT");
		ADD(sb_has_reflink(sb), ",REFLINK");
		ADD(sb_has_inobtcount(sb), ",INOBTCNT");
		ADD(sb_has_bigtime(sb), ",BIGTIME");
		ADD(sb_has_needsrepair(sb), ",NEEDSREPAIR");
		ADD(sb_has_nrext64(sb), ",NREXT64");
	}
#undef ADD
	return s;
}

/*
 * The incompat features as the reference keeps them in memory: a uuid
 * change sets or clears META_UUID there, which "version VNUM F2" shows
 * and plain "version" (features decoded once, at startup) does not.
 */
static uint32_t mem_incompat;
static bool mem_incompat_set;

/*
 * version FEATURE changes the old (v4) feature bits; on v5 every one of
 * them is either always on or not to be changed, so only the messages
 * remain.  version VNUM F2 shows what those two numbers would mean.
 */
static int version_f(int argc, char **argv)
{
	const struct fs_sb *sb = &db.fs->sb;
	uint16_t vn = sb->versionnum;
	uint32_t f2 = sb->features2;
	char s[1024];

	if (argc == 2) {
		if (db.readonly || !db.expert) {
			dbprintf("%s: not in expert mode, writing disabled\n",
				 db.progname);
			return 0;
		}
		if (!strcasecmp(argv[1], "extflg"))
			dbprintf("unwritten extents always enabled for v5 "
				 "superblocks.\n");
		else if (!strcasecmp(argv[1], "log2"))
			dbprintf("Version 2 logs always enabled for v5 "
				 "superblocks.\n");
		else {
			dbprintf("%s: Cannot change %s on v5 superblocks.\n",
				 db.progname, argv[1]);
			return 0;
		}
	} else if (argc == 3) {
		struct fs_sb now = *sb;

		if (mem_incompat_set)
			now.features_incompat = mem_incompat;
		vn = (uint16_t)strtoul(argv[1], NULL, 0);
		f2 = (uint32_t)strtoul(argv[2], NULL, 0);
		dbprintf("versionnum [0x%x+0x%x] = %s\n", vn, f2,
			 version_string(vn, f2, &now, s, sizeof(s)));
		return 0;
	}
	dbprintf("versionnum [0x%x+0x%x] = %s\n", vn, f2,
		 version_string(vn, f2, sb, s, sizeof(s)));
	return 0;
}

/*
 * One superblock copy for uuid and label: read, with the reference's
 * complaints about one that is not a superblock.  NULL if unusable.
 */
static struct fs_buf *get_sb(xfs_agnumber_t agno)
{
	const struct fs_geom *g = &db.fs->geo;
	struct fs_findings fl;
	struct fs_buf *bp;
	int err;

	findings_init(&fl);
	err = bcache_read(db.fs->bc, ag_sector_daddr(g, agno, 0), g->sectsize,
			  NULL, &fl, &bp);
	findings_free(&fl);
	if (err)
		return NULL;
	if (load_be32(bp->data) != XFS_SB_MAGIC) {
		dbprintf("bad sb magic # %#x in AG %u\n", load_be32(bp->data),
			 agno);
		buf_release(bp);
		return NULL;
	}
	if ((load_be16(bp->data + offsetof(struct xfs_dsb, sb_versionnum)) &
	     XFS_SB_VERSION_NUMBITS) != XFS_SB_VERSION_5) {
		dbprintf("bad sb version # %#x in AG %u\n",
			 load_be16(bp->data + offsetof(struct xfs_dsb,
						       sb_versionnum)), agno);
		buf_release(bp);
		return NULL;
	}
	if (agno == 0 && bp->data[offsetof(struct xfs_dsb, sb_inprogress)]) {
		dbprintf("mkfs not completed successfully\n");
		buf_release(bp);
		return NULL;
	}
	return bp;
}

/*
 * Write a superblock copy back.  The reference re-encodes the whole
 * superblock on the way, which turns quota inode numbers of 0 (as mkfs
 * leaves them) into null ones; so do we.
 */
static int put_sb(struct fs_buf *bp)
{
	static const size_t qoff[] = {
		offsetof(struct xfs_dsb, sb_uquotino),
		offsetof(struct xfs_dsb, sb_gquotino),
		offsetof(struct xfs_dsb, sb_pquotino),
	};
	unsigned i;
	int err;

	for (i = 0; i < 3; i++)
		if (!load_be64(bp->data + qoff[i]))
			store_be64(bp->data + qoff[i], NULLFSINO);

	xfs_cksum_update(bp->data, db.fs->geo.sectsize, XFS_SB_CRC_OFF);
	err = buf_mark_dirty(bp);
	if (!err)
		err = buf_write(bp);
	buf_release(bp);
	return err;
}

static bool may_change_sb(void)
{
	if (db.readonly || !db.expert) {
		dbprintf("%s: not in expert mode, writing disabled\n",
			 db.progname);
		return false;
	}
	if (sb_has_needsrepair(&db.fs->sb)) {
		dbprintf("%s: filesystem needs xfs_repair\n", db.progname);
		return false;
	}
	return true;
}

static int label_f(int argc, char **argv)
{
	const size_t flen = sizeof(((struct xfs_dsb *)0)->sb_fname);
	const size_t foff = offsetof(struct xfs_dsb, sb_fname);
	char lbl[sizeof(((struct xfs_dsb *)0)->sb_fname) + 1], first[16];
	xfs_agnumber_t agno;
	struct fs_buf *bp;

	memset(lbl, 0, sizeof(lbl));
	if (argc == 2) {
		const char *v = argv[1];
		size_t len = strlen(v);

		if (!may_change_sb())
			return 0;
		if (!strcmp(v, "\"\"") || !strcmp(v, "''") || !strcmp(v, "--"))
			v = "";
		dbprintf("writing all SBs\n");
		for (agno = 0; agno < db.fs->geo.agcount; agno++) {
			if (!(bp = get_sb(agno))) {
				dbprintf("failed to set label in AG %d\n", agno);
				break;
			}
			if (len > flen && agno == 0)
				dbprintf("%s: truncating label length from %d "
					 "to %d\n", db.progname, (int)len,
					 (int)flen);
			memset(bp->data + foff, 0, flen);
			memcpy(bp->data + foff, v, strlen(v) < flen ?
			       strlen(v) : flen);
			memcpy(lbl, bp->data + foff, flen);
			put_sb(bp);
		}
		memcpy(db.fs->sb.fname, lbl, flen);
		dbprintf("new label = \"%s\"\n", lbl);
		return 0;
	}
	for (agno = 0; agno < db.fs->geo.agcount; agno++) {
		if (!(bp = get_sb(agno))) {
			dbprintf("failed to read label in AG %d\n", agno);
			return 0;
		}
		memcpy(lbl, bp->data + foff, flen);
		buf_release(bp);
		if (!agno)
			memcpy(first, lbl, flen);
		else if (memcmp(first, lbl, flen))
			dbprintf("warning: AG %d label differs\n", agno);
	}
	dbprintf("label = \"%s\"\n", lbl);
	return 0;
}

/*
 * Find the log's head as the reference does before it rewrites the log:
 * 0 and *pos, or -1 if it cannot be found.  On the way the reference
 * compares the last record's UUID with the one it read at startup,
 * complains once, and goes on with the log's (its in-memory copy is not
 * updated by a uuid write, and logformat stamps that copy).
 */
static int log_probe(struct fs_log *log, struct log_pos *pos)
{
	struct fs_findings fl;
	int err;

	findings_init(&fl);
	err = log_init_fs(log, db.fs, &fl);
	if (!err && log_not_a_log(log)) {
		/* the reference's log recovery says so first */
		fprintf(stderr, "Log inconsistent or not a log (last==0, "
			"first!=1)\nempty log check failed\n");
		err = -EINVAL;
	}
	if (!err)
		err = log_find_head(log, pos, &fl);
	findings_free(&fl);
	if (err || pos->state == LOG_STATE_CORRUPT)
		return -1;
	if (pos->state != LOG_STATE_ZEROED) {
		uint8_t hdr[BBSIZE];
		const struct xlog_rec_header *h = (const void *)hdr;
		static const xfs_uuid_t nil;

		if (!log->read(log, (uint64_t)pos->rec_blk * BBSIZE, hdr,
			       sizeof(hdr)) &&
		    memcmp(&h->h_fs_uuid, &nil, sizeof(nil)) &&
		    memcmp(&h->h_fs_uuid, &db.fs->sb.uuid, sizeof(nil))) {
			char a[37], b[37];

			uuid_unparse(db.fs->sb.uuid.b, a);
			uuid_unparse(h->h_fs_uuid.b, b);
			dbprintf("* ERROR: mismatched uuid in log\n"
				 "*            SB : %s\n*            log: %s\n",
				 a, b);
			memcpy(&db.fs->sb.uuid, &h->h_fs_uuid, sizeof(nil));
		}
	}
	return 0;
}

/* The cycle the log is in now (the reference's l_curr_cycle). */
static uint32_t log_cur_cycle(const struct log_pos *pos)
{
	return pos->state == LOG_STATE_ZEROED ? 1 : pos->head_cycle;
}

bool db_log_placed(const char *what)
{
	if (db.fs->sb.logstart && db.fs->logdev) {
		dbprintf("%s - external log specified for FS with an "
			 "internal log\n", what);
		return false;
	}
	if (!db.fs->sb.logstart && !db.fs->logdev) {
		dbprintf("%s - no external log specified for FS with an "
			 "external log\n", what);
		return false;
	}
	return true;
}

/* Is the log where the superblock says, and clean?  As the reference. */
static bool uuid_log_clean(struct fs_log *log, struct log_pos *pos)
{
	if (!db_log_placed("aborting"))
		return false;
	if (log_probe(log, pos)) {
		dbprintf("ERROR: cannot find log head/tail, run xfs_repair\n");
		return false;
	}
	if (pos->state == LOG_STATE_DIRTY) {
		dbprintf("ERROR: The filesystem has valuable metadata changes in "
			 "a log which needs to\nbe replayed.  Mount the "
			 "filesystem to replay the log, and unmount it before\n"
			 "re-running %s.  If you are unable to mount the "
			 "filesystem, then use\nthe xfs_repair -L option to "
			 "destroy the log and attempt a repair.\nNote that "
			 "destroying the log may cause corruption -- please "
			 "attempt a mount\nof the filesystem before doing "
			 "this.\n", db.progname);
		return false;
	}
	return true;
}

bool db_log_clean(void)
{
	struct fs_log log;
	struct log_pos pos;

	return uuid_log_clean(&log, &pos);
}

/* Clear the log with the new UUID, one cycle on (the log moves forward). */
static bool uuid_log_zero(const xfs_uuid_t *u)
{
	const struct fs_sb *sb = &db.fs->sb;
	struct fs_log log;
	struct log_pos pos;
	struct fs_dev *dev;
	uint64_t start, len;
	int err;

	if (!uuid_log_clean(&log, &pos))
		return false;
	dbprintf("Clearing log and setting UUID\n");
	err = log_region(db.fs, &dev, &start, &len);
	if (!err)
		err = log_format(dev, start, len, u, sb->logsunit,
				 log_cur_cycle(&pos) + 1, LOG_FORMAT_MAXREC);
	if (!err)
		err = dev_sync(dev);
	if (err) {
		dbprintf("ERROR: cannot clear the log\n");
		return false;
	}
	return true;
}

static int uuid_f(int argc, char **argv)
{
	const size_t uoff = offsetof(struct xfs_dsb, sb_uuid);
	const size_t moff = offsetof(struct xfs_dsb, sb_meta_uuid);
	const size_t ioff = offsetof(struct xfs_dsb, sb_features_incompat);
	struct fs_sb *msb = &db.fs->sb;
	xfs_agnumber_t agno;
	struct fs_buf *bp;
	uuid_t u, first;
	char s[37];

	if (!mem_incompat_set) {
		mem_incompat = msb->features_incompat;
		mem_incompat_set = true;
	}
	if (argc == 2) {
		if (!may_change_sb())
			return 0;
		if (!strcasecmp(argv[1], "generate")) {
			uuid_generate(u);
		} else if (!strcasecmp(argv[1], "nil")) {
			uuid_clear(u);
		} else if (!strcasecmp(argv[1], "rewrite")) {
			if (!(bp = get_sb(0))) {
				dbprintf("failed to read UUID from AG 0\n");
				return 0;
			}
			memcpy(u, bp->data + uoff, 16);
			buf_release(bp);
			uuid_unparse(u, s);
			dbprintf("old UUID = %s\n", s);
		} else if (!strcasecmp(argv[1], "restore")) {
			bool has;

			if (!(bp = get_sb(0)))
				return 0;
			has = load_be32(bp->data + ioff) &
			      XFS_SB_FEAT_INCOMPAT_META_UUID;
			buf_release(bp);
			if (!has)
				return 0;	/* nothing to restore */
			memcpy(u, db.fs->geo.meta_uuid.b, 16);
		} else if (uuid_parse(argv[1], u)) {
			dbprintf("invalid UUID\n");
			return 0;
		}
		if (!uuid_log_zero((const xfs_uuid_t *)u))
			return 0;
		dbprintf("writing all SBs\n");
		for (agno = 0; agno < db.fs->geo.agcount; agno++) {
			uint32_t inc;

			if (!(bp = get_sb(agno))) {
				dbprintf("failed to set UUID in AG %d\n", agno);
				break;
			}
			/*
			 * A UUID other than the one in the metadata moves the
			 * old one to meta_uuid (the META_UUID feature); going
			 * back to the metadata's UUID ends that.
			 */
			inc = load_be32(bp->data + ioff);
			if (!(inc & XFS_SB_FEAT_INCOMPAT_META_UUID) &&
			    memcmp(u, db.fs->geo.meta_uuid.b, 16)) {
				inc |= XFS_SB_FEAT_INCOMPAT_META_UUID;
				mem_incompat |= XFS_SB_FEAT_INCOMPAT_META_UUID;
				memcpy(bp->data + moff, bp->data + uoff, 16);
			} else if ((inc & XFS_SB_FEAT_INCOMPAT_META_UUID) &&
				   !memcmp(u, db.fs->geo.meta_uuid.b, 16)) {
				inc &= ~XFS_SB_FEAT_INCOMPAT_META_UUID;
				mem_incompat &= ~XFS_SB_FEAT_INCOMPAT_META_UUID;
				memset(bp->data + moff, 0, 16);
			}
			store_be32(bp->data + ioff, inc);
			memcpy(bp->data + uoff, u, 16);
			put_sb(bp);
		}
		uuid_unparse(u, s);
		dbprintf("new UUID = %s\n", s);
		return 0;
	}
	for (agno = 0; agno < db.fs->geo.agcount; agno++) {
		if (!(bp = get_sb(agno))) {
			dbprintf("failed to read UUID from AG %d\n", agno);
			return 0;
		}
		memcpy(u, bp->data + uoff, 16);
		buf_release(bp);
		if (!agno) {
			memcpy(first, u, 16);
		} else if (memcmp(first, u, 16)) {
			dbprintf("warning: UUID in AG %d differs to the primary "
				 "SB\n", agno);
			break;
		}
	}
	if (msb->logstart && db.fs->logdev)
		dbprintf("warning - external log specified for FS with an "
			 "internal log\n");
	else if (!msb->logstart && !db.fs->logdev)
		dbprintf("warning - no external log specified for FS with an "
			 "external log\n");
	uuid_unparse(first, s);
	dbprintf("UUID = %s\n", s);
	return 0;
}

static int info_f(int argc, char **argv)
{
	const struct fs_sb *sb = &db.fs->sb;
	const struct fs_geom *g = &db.fs->geo;
	unsigned logsunit = sb->logsunit > 1 ? sb->logsunit >> sb->blocklog : 0;

	(void)argc;
	(void)argv;
	dbprintf("meta-data=%-22s isize=%-6d agcount=%u, agsize=%u blks\n",
		 db.fsdevice, sb->inodesize, sb->agcount, sb->agblocks);
	dbprintf("         =%-22s sectsz=%-5u attr=%u, projid32bit=%u\n", "",
		 sb->sectsize,
		 (sb->features2 & XFS_SB_VERSION2_ATTR2BIT) ? 2 :
		 (sb->versionnum & XFS_SB_VERSION_ATTRBIT) ? 1 : 0,
		 sb_has_projid32(sb) ? 1 : 0);
	dbprintf("         =%-22s crc=%-8u finobt=%u, sparse=%u, rmapbt=%u\n",
		 "", sb_is_v5(sb), sb_has_finobt(sb), sb_has_sparseinodes(sb),
		 sb_has_rmapbt(sb));
	dbprintf("         =%-22s reflink=%-4u bigtime=%u inobtcount=%u "
		 "nrext64=%u\n", "", sb_has_reflink(sb), sb_has_bigtime(sb),
		 sb_has_inobtcount(sb), sb_has_nrext64(sb));
	dbprintf("data     =%-22s bsize=%-6u blocks=%llu, imaxpct=%u\n", "",
		 sb->blocksize, (unsigned long long)sb->dblocks, sb->imax_pct);
	dbprintf("         =%-22s sunit=%-6u swidth=%u blks\n", "", sb->unit,
		 sb->width);
	dbprintf("naming   =version %-14u bsize=%-6u ascii-ci=%d, ftype=%d\n",
		 2, g->dirblksize, sb_has_asciici(sb), sb_has_ftype(sb));
	dbprintf("log      =%-22s bsize=%-6d blocks=%u, version=%d\n",
		 sb->logstart ? "internal log" :
		 db.logname ? db.logname : "external", sb->blocksize,
		 sb->logblocks,
		 (sb->versionnum & XFS_SB_VERSION_LOGV2BIT) ? 2 : 1);
	dbprintf("         =%-22s sectsz=%-5u sunit=%u blks, lazy-count=%d\n",
		 "", sb->logsectsize ? sb->logsectsize : sb->sectsize, logsunit,
		 (sb->features2 & XFS_SB_VERSION2_LAZYSBCOUNTBIT) ? 1 : 0);
	dbprintf("realtime =%-22s extsz=%-6d blocks=%lld, rtextents=%lld\n",
		 sb->rblocks ? "external" : "none",
		 sb->rextsize * sb->blocksize, (long long)sb->rblocks,
		 (long long)sb->rextents);
	return 0;
}

static int hash_f(int argc, char **argv)
{
	(void)argc;
	dbprintf("0x%x\n", da_hashname((const uint8_t *)argv[1],
				       strlen(argv[1])));
	return 0;
}

/*
 * logformat: write a clean, empty log, as mkfs does, at a chosen cycle
 * (default: the one the log is in now) and stripe unit (default: the
 * superblock's); cycle N without MAXREC, as the reference's xfs_db does.
 * A dirty log is left alone.
 */
/*
 * The reference's logformat returns non-zero on every failure, which its
 * command loop takes as "quit": the commands after it do not run.
 */
static int logformat_fail(void)
{
	opterr = 1;
	db.quit = true;
	return 0;
}

static int logformat_f(int argc, char **argv)
{
	const struct fs_sb *sb = &db.fs->sb;
	const struct fs_geom *g = &db.fs->geo;
	long cycle = -1, sunit = -1;
	struct fs_log log;
	struct log_pos pos;
	struct fs_dev *dev;
	uint64_t start, len;
	int c, err;

	optind = 0;
	opterr = 0;
	while ((c = getopt(argc, argv, "c:s:")) != -1) {
		switch (c) {
		case 'c':
			cycle = strtol(optarg, NULL, 0);
			if (cycle == 0) {
				dbprintf("invalid cycle\n");
				return logformat_fail();
			}
			break;
		case 's':
			sunit = strtol(optarg, NULL, 0);
			if (sunit > 1 && (sunit % g->blocksize ||
					  sunit > 256 * 1024)) {
				dbprintf("invalid log stripe unit\n");
				return logformat_fail();
			}
			break;
		default:
			fprintf(stderr, "%s: invalid option -- '%c'\n", argv[0],
				optopt);
			dbprintf("invalid option\n");
			return logformat_fail();
		}
	}
	opterr = 1;
	if (log_probe(&log, &pos)) {
		dbprintf("could not find log head/tail\n");
		return logformat_fail();
	}
	if (pos.state == LOG_STATE_DIRTY) {
		dbprintf("The log is dirty. Please mount to replay the log.\n");
		return logformat_fail();
	}
	if (cycle < 0)
		cycle = log_cur_cycle(&pos);
	if (sunit < 0)
		sunit = sb->logsunit;
	dbprintf("Formatting the log to cycle %d, stripe unit %d bytes.\n",
		 (int)cycle, (int)sunit);
	err = log_region(db.fs, &dev, &start, &len);
	if (!err)
		err = log_format(dev, start, len, &sb->uuid, (unsigned)sunit,
				 (uint32_t)cycle, 0);
	if (!err)
		err = dev_sync(dev);
	if (err) {
		dbprintf("error formatting log - %d\n", err);
		return logformat_fail();
	}
	return 0;
}

/* timelimit: the range of timestamps and quota timers the format allows */
static void tl_time(const char *what, int64_t v, bool pretty)
{
	if (pretty) {
		time_t t = (time_t)v;
		char buf[64];

		if (ctime_r(&t, buf)) {
			dbprintf("%s = %24.24s\n", what, buf);
			return;
		}
	}
	dbprintf("%s = %lld\n", what, (long long)v);
}

static int timelimit_f(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "classic", no_argument, NULL, 'c' },
		{ "bigtime", no_argument, NULL, 'b' },
		{ "pretty", no_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 },
	};
	bool big = db.fs->geo.has_bigtime, pretty = false;
	/*
	 * bigtime: nanoseconds in 64 bits from the 1901 epoch; the last
	 * whole second whose every nanosecond fits
	 */
	int64_t bigmax = (int64_t)(UINT64_MAX / XFS_NSEC_PER_SEC) - 1 -
			 XFS_BIGTIME_EPOCH_OFFSET;
	int c;

	optind = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			big = false;
			break;
		case 'b':
			big = true;
			break;
		case 'p':
			pretty = true;
			break;
		default:
			dbprintf("%s: bad option for timelimit command\n",
				 argv[optind - 1]);
			return 0;
		}
	}
	tl_time("time.min", INT32_MIN, pretty);
	tl_time("time.max", big ? bigmax : INT32_MAX, pretty);
	tl_time("dqtimer.min", big ? 4 : 1, pretty);
	tl_time("dqtimer.max", big ? bigmax : UINT32_MAX, pretty);
	dbprintf("dqgrace.min = 0\n");
	dbprintf("dqgrace.min = %u\n", UINT32_MAX);
	return 0;
}

static unsigned debug_flags;

static int debug_f(int argc, char **argv)
{
	if (argc > 1)
		debug_flags = (unsigned)strtoul(argv[1], NULL, 0);
	dbprintf("debug = %u\n", debug_flags);
	return 0;
}

static const struct db_cmd misc_cmds[] = {
	{ "debug", NULL, debug_f, 0, 1, false, false, "[flagbits]",
	  "set debug option bits" },
	{ "timelimit", NULL, timelimit_f, 0, -1, false, true,
	  "[--classic|--bigtime] [--pretty]", "display timestamp limits" },
	{ "logformat", NULL, logformat_f, 0, -1, true, true,
	  "[-c cycle] [-s sunit]", "reformat the log" },
	{ "hash", NULL, hash_f, 1, 1, false, false, "string",
	  "calculate hash value" },
	{ "info", "i", info_f, 0, 0, false, true, NULL,
	  "pretty-print superblock info" },
	{ "label", NULL, label_f, 0, 1, false, true, "[label]",
	  "write/print FS label" },
	{ "uuid", NULL, uuid_f, 0, 1, false, true, "[uuid]",
	  "write/print FS uuid" },
	{ "version", NULL, version_f, 0, -1, false, true,
	  "[feature | [vnum fnum]]",
	  "set feature bit(s) in the sb version field" },
};

void misc_cmds_init(void)
{
	register_cmds(misc_cmds, sizeof(misc_cmds) / sizeof(misc_cmds[0]));
}
