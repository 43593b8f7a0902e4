/*
 * Whole-filesystem identity commands: version, uuid, label, info, and
 * hash.  uuid and label change every superblock copy (expert mode).
 */
#include "config.h"
#include <getopt.h>
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

static char *version_string(const struct fs_sb *sb, char *s, size_t n)
{
	static const struct {
		uint32_t	bit;
		const char	*name;
	} vbits[] = {
		{ XFS_SB_VERSION_NLINKBIT, ",NLINK" },
		{ XFS_SB_VERSION_SHAREDBIT, ",SHARED" },
		{ XFS_SB_VERSION_DIRV2BIT, ",DIRV2" },
		{ XFS_SB_VERSION_ATTRBIT, ",ATTR" },
		{ XFS_SB_VERSION_QUOTABIT, ",QUOTA" },
		{ XFS_SB_VERSION_ALIGNBIT, ",ALIGN" },
		{ XFS_SB_VERSION_DALIGNBIT, ",DALIGN" },
		{ XFS_SB_VERSION_LOGV2BIT, ",LOGV2" },
		{ XFS_SB_VERSION_EXTFLGBIT, ",EXTFLG" },
		{ XFS_SB_VERSION_SECTORBIT, ",SECTOR" },
		{ XFS_SB_VERSION_BORGBIT, ",ASCII_CI" },
		{ XFS_SB_VERSION_MOREBITSBIT, ",MOREBITS" },
	};
	bool more = sb->versionnum & XFS_SB_VERSION_MOREBITSBIT;
	unsigned i;

	snprintf(s, n, "V%u", sb->versionnum & XFS_SB_VERSION_NUMBITS);
	for (i = 0; i < sizeof(vbits) / sizeof(vbits[0]); i++)
		if (sb->versionnum & vbits[i].bit)
			strncat(s, vbits[i].name, n - strlen(s) - 1);
#define ADD(cond, nm) do { if (cond) strncat(s, nm, n - strlen(s) - 1); } while (0)
	ADD(more && (sb->features2 & XFS_SB_VERSION2_ATTR2BIT), ",ATTR2");
	ADD(more && (sb->features2 & XFS_SB_VERSION2_LAZYSBCOUNTBIT),
	    ",LAZYSBCOUNT");
	ADD(more && (sb->features2 & XFS_SB_VERSION2_PROJID32BIT),
	    ",PROJID32BIT");
	ADD(sb_is_v5(sb), ",CRC");
	ADD(sb_has_ftype(sb), ",FTYPE");
	ADD(sb_has_finobt(sb), ",FINOBT");
	ADD(sb_has_sparseinodes(sb), ",SPARSE_INODES");
	ADD(sb_has_metauuid(sb), ",META_UUID");
	ADD(sb_has_rmapbt(sb), ",RMAPBT");
	ADD(sb_has_reflink(sb), ",REFLINK");
	ADD(sb_has_inobtcount(sb), ",INOBTCNT");
	ADD(sb_has_bigtime(sb), ",BIGTIME");
	ADD(sb_has_needsrepair(sb), ",NEEDSREPAIR");
	ADD(sb_has_nrext64(sb), ",NREXT64");
#undef ADD
	return s;
}

static int version_f(int argc, char **argv)
{
	char s[1024];

	if (argc > 1) {
		dbprintf("%s: changing feature bits is not supported\n",
			 argv[0]);
		return 0;
	}
	dbprintf("versionnum [0x%x+0x%x] = %s\n", db.fs->sb.versionnum,
		 db.fs->sb.features2, version_string(&db.fs->sb, s, sizeof(s)));
	return 0;
}

/* Rewrite one field range of every superblock copy. */
static int write_all_sbs(size_t off, const void *val, size_t len)
{
	const struct fs_geom *g = &db.fs->geo;
	xfs_agnumber_t agno;
	int err = 0;

	for (agno = 0; agno < g->agcount; agno++) {
		struct fs_buf *bp;
		struct fs_findings fl;

		findings_init(&fl);
		err = bcache_read(db.fs->bc, ag_sector_daddr(g, agno, 0),
				  g->sectsize, NULL, &fl, &bp);
		findings_free(&fl);
		if (err)
			return err;
		memcpy(bp->data + off, val, len);
		xfs_cksum_update(bp->data, g->sectsize, XFS_SB_CRC_OFF);
		err = buf_mark_dirty(bp);
		if (!err)
			err = buf_write(bp);
		buf_release(bp);
		if (err)
			return err;
	}
	/* the cached copy of the primary */
	if (off == offsetof(struct xfs_dsb, sb_fname))
		memcpy(db.fs->sb.fname, val, len);
	else if (off == offsetof(struct xfs_dsb, sb_uuid))
		memcpy(&db.fs->sb.uuid, val, len);
	return 0;
}

static int label_f(int argc, char **argv)
{
	char lbl[13];

	if (argc > 1) {
		char nl[12];

		if (!db.expert || db.readonly) {
			dbprintf("%s: not in expert mode, writing disabled\n",
				 db.progname);
			return 0;
		}
		memset(nl, 0, sizeof(nl));
		memcpy(nl, argv[1], strlen(argv[1]) < sizeof(nl) ?
		       strlen(argv[1]) : sizeof(nl));
		if (strlen(argv[1]) > sizeof(nl))
			dbprintf("%s: truncating label length from %d to %d\n",
				 db.progname, (int)strlen(argv[1]),
				 (int)sizeof(nl));
		dbprintf("writing all SBs\n");
		if (write_all_sbs(offsetof(struct xfs_dsb, sb_fname), nl,
				  sizeof(nl)))
			dbprintf("failed to set label\n");
	}
	memcpy(lbl, db.fs->sb.fname, 12);
	lbl[12] = 0;
	dbprintf("%slabel = \"%s\"\n", argc > 1 ? "new " : "", lbl);
	return 0;
}

static int uuid_f(int argc, char **argv)
{
	char s[37];

	if (argc > 1) {
		uuid_t u;

		if (!db.expert || db.readonly) {
			dbprintf("%s: not in expert mode, writing disabled\n",
				 db.progname);
			return 0;
		}
		if (!strcasecmp(argv[1], "generate")) {
			uuid_generate(u);
		} else if (!strcasecmp(argv[1], "nil")) {
			uuid_clear(u);
		} else if (uuid_parse(argv[1], u)) {
			dbprintf("invalid UUID\n");
			return 0;
		}
		if (sb_has_metauuid(&db.fs->sb) || !sb_is_v5(&db.fs->sb)) {
			/* the metadata UUID stays: just the user-visible one */
		} else {
			dbprintf("%s: changing the UUID of a v5 filesystem needs "
				 "the meta_uuid feature\n", db.progname);
			return 0;
		}
		dbprintf("writing all SBs\n");
		if (write_all_sbs(offsetof(struct xfs_dsb, sb_uuid), u, 16))
			dbprintf("failed to set UUID\n");
		uuid_unparse(u, s);
		dbprintf("new UUID = %s\n", s);
		return 0;
	}
	uuid_unparse(db.fs->sb.uuid.b, s);
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
		 sb->logstart ? "internal log" : "external", sb->blocksize,
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
 * and stripe unit (libfs's log_format; cycle N, no MAXREC, as the
 * reference's xfs_db does).
 */
static int logformat_f(int argc, char **argv)
{
	const struct fs_sb *sb = &db.fs->sb;
	const struct fs_geom *g = &db.fs->geo;
	long cycle = 1, sunit = sb->logsunit;
	int c, err;

	optind = 0;
	opterr = 0;
	while ((c = getopt(argc, argv, "c:s:")) != -1) {
		switch (c) {
		case 'c':
			cycle = strtol(optarg, NULL, 0);
			if (cycle <= 0) {
				dbprintf("invalid cycle\n");
				return 0;
			}
			break;
		case 's':
			sunit = strtol(optarg, NULL, 0);
			if (sunit < 0 || (sunit > 1 && sunit % g->blocksize)) {
				dbprintf("invalid log stripe unit\n");
				return 0;
			}
			break;
		default:
			fprintf(stderr, "%s: invalid option -- '%c'\n", argv[0],
				optopt);
			dbprintf("invalid option\n");
			return 0;
		}
	}
	opterr = 1;
	if (!sb->logstart) {
		dbprintf("external logs are not supported\n");
		return 0;
	}
	dbprintf("Formatting the log to cycle %ld, stripe unit %ld bytes.\n",
		 cycle, sunit);
	err = log_format(db.fs->dev,
			 (uint64_t)fsb_to_daddr(g, sb->logstart) << BBSHIFT,
			 (uint64_t)sb->logblocks << g->blocklog, &sb->uuid,
			 (unsigned)sunit, (uint32_t)cycle, 0);
	if (!err)
		err = dev_sync(db.fs->dev);
	if (err)
		fprintf(stderr, "%s: log format failed: %s\n", db.progname,
			strerror(-err));
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
