/*
 * Every geometry decision of mkfs.xfs, in the order xfsprogs 6.1 makes
 * them (so the first problem found is the one reported, with the same
 * message): block and sector sizes, features, directory and inode sizes,
 * device sizes, stripe geometry, AG count and size, log size and place.
 * In: the parsed command line.  Out: a complete struct mkfs_cfg, or an
 * exit with the reference's message and status.  Nothing is written here.
 */
#include "config.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "build.h"
#include "mkfs.h"
#include "resv.h"

#define DTOBT(d, bl)	((uint64_t)(d) >> ((bl) - 9))
#define BTOBBT(b)	((uint64_t)(b) >> 9)
#define BBTOB(bb)	((uint64_t)(bb) << 9)

static int highbit32(uint32_t v)
{
	return v ? 31 - __builtin_clz(v) : -1;
}

static unsigned log2_roundup(uint64_t v)
{
	unsigned l = 0;

	while ((1ull << l) < v)
		l++;
	return l;
}

uint32_t mkfs_prealloc_blocks(const struct mkfs_cfg *cfg)
{
	struct ag_static st;

	build_ag_static(cfg->blocksize, cfg->sectorsize,
			cfg->sb_feat.finobt, cfg->sb_feat.rmapbt,
			cfg->sb_feat.reflink, &st);
	return st.prealloc;
}

/* The superblock facts the log reservations depend on (libfs/resv.h). */
void mkfs_resv_geom(const struct mkfs_cfg *cfg, struct resv_geom *rg)
{
	const struct sb_feat *f = &cfg->sb_feat;

	*rg = (struct resv_geom){
		.blocksize = cfg->blocksize,
		.sectsize = cfg->sectorsize,
		.inodesize = cfg->inodesize,
		.agblocks = (uint32_t)cfg->agsize,
		.agblklog = cfg->agblklog,
		.dirblocksize = cfg->dirblocksize,
		.inoalignmt = cfg->inoalignmt,
		.logsunit = cfg->logsunit_bytes,
		.rblocks = cfg->rtblocks,
		.rextsize = (uint32_t)cfg->rtextblocks,
		.finobt = f->finobt, .rmapbt = f->rmapbt,
		.reflink = f->reflink, .nrext64 = f->nrext64,
	};
}

/*
 * The smallest log the kernel accepts for this geometry: three of the
 * largest transactions, from the log reservations of the kernel's
 * libxfs (libfs/resv.c).
 */
uint32_t mkfs_min_logblocks(const struct mkfs_cfg *cfg)
{
	struct resv_geom rg;

	mkfs_resv_geom(cfg, &rg);
	return resv_min_log_blocks(&rg);
}

static void validate_blocksize(struct mkfs_cfg *cfg, struct cli_params *cli)
{
	cfg->blocksize = cli->blocksize ? cli->blocksize : 4096;
	cfg->blocklog = highbit32(cfg->blocksize);
	if (cfg->blocksize < XFS_MIN_BLOCKSIZE ||
	    cfg->blocksize > XFS_MAX_BLOCKSIZE) {
		fprintf(stderr, "illegal block size %d\n", cfg->blocksize);
		usage();
	}
	if (cli->sb_feat.crcs_enabled &&
	    cfg->blocksize < XFS_MIN_CRC_BLOCKSIZE) {
		fprintf(stderr,
			"Minimum block size for CRC enabled filesystems is %d bytes.\n",
			XFS_MIN_CRC_BLOCKSIZE);
		usage();
	}
}

static void validate_sectorsize(struct mkfs_cfg *cfg, struct cli_params *cli,
				bool dry_run)
{
	dev_check_type(&cli->data, !cli->dsize, dry_run, "d");
	if (!cli->loginternal)
		dev_check_type(&cli->log, !cli->logsize, dry_run, "l");
	if (cli->rt.name)
		dev_check_type(&cli->rt, !cli->rtsize, dry_run, "r");

	dev_get_topology(&cli->data);
	if (!cli->loginternal && cli->log.name)
		dev_get_topology(&cli->log);
	if (cli->rt.name)
		dev_get_topology(&cli->rt);

	if (!cli->sectorsize) {
		struct dev_arg *d = &cli->data;

		if (d->psectsize > XFS_MAX_SECTORSIZE)
			d->psectsize = d->lsectsize;
		cfg->sectorsize = d->psectsize;
		if (cli->rt.name) {
			if (cli->rt.psectsize > XFS_MAX_SECTORSIZE)
				cli->rt.psectsize = cli->rt.lsectsize;
			if (cfg->sectorsize < (int)cli->rt.psectsize)
				cfg->sectorsize = cli->rt.psectsize;
		}
		if (cfg->blocksize < cfg->sectorsize &&
		    cfg->blocksize >= (int)d->lsectsize) {
			fprintf(stderr,
				"specified blocksize %d is less than device physical sector size %d\n"
				"switching to logical sector size %d\n",
				cfg->blocksize, d->psectsize, d->lsectsize);
			cfg->sectorsize = d->lsectsize;
		}
	} else {
		cfg->sectorsize = cli->sectorsize;
	}
	cfg->sectorlog = highbit32(cfg->sectorsize);
	if (cfg->sectorsize < XFS_MIN_SECTORSIZE ||
	    cfg->sectorsize > XFS_MAX_SECTORSIZE) {
		fprintf(stderr, "illegal sector size %d\n", cfg->sectorsize);
		usage();
	}
	if (cfg->blocksize < cfg->sectorsize) {
		fprintf(stderr,
			"block size %d cannot be smaller than sector size %d\n",
			cfg->blocksize, cfg->sectorsize);
		usage();
	}
	if (cfg->sectorsize < (int)cli->data.lsectsize) {
		fprintf(stderr, "illegal sector size %d; hw sector is %d\n",
			cfg->sectorsize, cli->data.lsectsize);
		usage();
	}
}

static void validate_log_sectorsize(struct mkfs_cfg *cfg,
				    struct cli_params *cli)
{
	if (cli->loginternal && cli->lsectorsize &&
	    cli->lsectorsize != cfg->sectorsize) {
		fprintf(stderr, "Can't change sector size on internal log!\n");
		usage();
	}
	if (cli->lsectorsize)
		cfg->lsectorsize = cli->lsectorsize;
	else if (cli->loginternal)
		cfg->lsectorsize = cfg->sectorsize;
	else
		cfg->lsectorsize = cli->log.lsectsize ? cli->log.lsectsize : 512;
	cfg->lsectorlog = highbit32(cfg->lsectorsize);
	if (cfg->lsectorsize < XFS_MIN_SECTORSIZE ||
	    cfg->lsectorsize > XFS_MAX_SECTORSIZE ||
	    cfg->lsectorsize > cfg->blocksize) {
		fprintf(stderr, "illegal log sector size %d\n",
			cfg->lsectorsize);
		usage();
	}
	if (cfg->lsectorsize > XFS_MIN_SECTORSIZE &&
	    cli->sb_feat.log_version < 2) {
		fprintf(stderr, "Version 1 logs do not support sector size %d\n",
			cfg->lsectorsize);
		usage();
	}
	if ((opt_seen(L_SU) || opt_seen(L_SUNIT)) &&
	    cli->sb_feat.log_version == 1) {
		fprintf(stderr, "log stripe unit specified, using v2 logs\n");
		cli->sb_feat.log_version = 2;
	}
}

static void validate_sb_features(struct mkfs_cfg *cfg, struct cli_params *cli)
{
	struct sb_feat *f = &cli->sb_feat;

	if (!f->crcs_enabled) {
		/*
		 * The V4 format is deprecated; xfskit's format library speaks
		 * v5 only, so this is refused rather than half-supported.
		 */
		fprintf(stderr,
			"%s: V4 filesystems (-m crc=0) are not supported by this mkfs.xfs\n",
			progname);
		usage();
	}
	if (cli->inodesize && cli->inodesize < (1 << XFS_DINODE_DFL_CRC_LOG)) {
		fprintf(stderr, "Minimum inode size for CRCs is %d bytes\n",
			1 << XFS_DINODE_DFL_CRC_LOG);
		usage();
	}
	if (!f->inode_align) {
		fprintf(stderr,
			"Inodes always aligned for CRC enabled filesystems\n");
		usage();
	}
	if (!f->lazy_sb_counters) {
		fprintf(stderr,
			"Lazy superblock counters always enabled for CRC enabled filesystems\n");
		usage();
	}
	if (f->log_version != 2) {
		fprintf(stderr,
			"V2 logs always enabled for CRC enabled filesystems\n");
		usage();
	}
	if (f->attr_version != 2) {
		fprintf(stderr,
			"V2 attribute format always enabled on CRC enabled filesystems\n");
		usage();
	}
	if (!f->projid32bit) {
		fprintf(stderr,
			"32 bit Project IDs always enabled on CRC enabled filesystems\n");
		usage();
	}
	if (!f->dirftype) {
		fprintf(stderr,
			"Directory ftype field always enabled on CRC enabled filesystems\n");
		usage();
	}
	if (!f->finobt) {
		if (f->inobtcnt && opt_seen(M_INOBTCNT)) {
			fprintf(stderr,
				"inode btree counters not supported without finobt support\n");
			usage();
		}
		f->inobtcnt = false;
	}
	if (cli->rt.name) {
		if (f->reflink && opt_seen(M_REFLINK)) {
			fprintf(stderr,
				"reflink not supported with realtime devices\n");
			usage();
		}
		f->reflink = false;
		if (f->rmapbt && opt_seen(M_RMAPBT)) {
			fprintf(stderr,
				"rmapbt not supported with realtime devices\n");
			usage();
		}
		f->rmapbt = false;
	}
	if ((cli->fsx_xflags & XFS_XFLAG_COWEXTSIZE_) && !f->reflink) {
		fprintf(stderr,
			"cowextsize not supported without reflink support\n");
		usage();
	}
	cfg->sb_feat = *f;
	if (cli->uuid_set)
		uuid_copy(cfg->uuid, cli->uuid);
}

static void validate_dirblocksize(struct mkfs_cfg *cfg, struct cli_params *cli)
{
	if (cli->dirblocksize)
		cfg->dirblocksize = getnum(cli->dirblocksize, N_SIZE);
	if (cfg->dirblocksize) {
		if (cfg->dirblocksize < cfg->blocksize ||
		    cfg->dirblocksize > XFS_MAX_BLOCKSIZE) {
			fprintf(stderr, "illegal directory block size %d\n",
				cfg->dirblocksize);
			usage();
		}
		cfg->dirblocklog = highbit32(cfg->dirblocksize);
		return;
	}
	if (cfg->blocksize < (1 << XFS_MIN_REC_DIRSIZE))
		cfg->dirblocklog = XFS_MIN_REC_DIRSIZE;
	else
		cfg->dirblocklog = cfg->blocklog;
	cfg->dirblocksize = 1 << cfg->dirblocklog;
}

static void validate_inodesize(struct mkfs_cfg *cfg, struct cli_params *cli)
{
	if (cli->inopblock)
		cfg->inodelog = cfg->blocklog - highbit32(cli->inopblock);
	else if (cli->inodesize)
		cfg->inodelog = highbit32(cli->inodesize);
	else
		cfg->inodelog = XFS_DINODE_DFL_CRC_LOG;
	cfg->inodesize = 1 << cfg->inodelog;
	cfg->inopblock = cfg->blocksize / cfg->inodesize;
	if (cfg->inodelog < XFS_DINODE_DFL_CRC_LOG) {
		fprintf(stderr, "Minimum inode size for CRCs is %d bytes\n",
			1 << XFS_DINODE_DFL_CRC_LOG);
		usage();
	}
	if (cfg->inodesize > cfg->blocksize / XFS_MIN_INODE_PERBLOCK ||
	    cfg->inopblock < XFS_MIN_INODE_PERBLOCK ||
	    cfg->inodesize < XFS_DINODE_MIN_SIZE ||
	    cfg->inodesize > XFS_DINODE_MAX_SIZE) {
		int maxsz = cfg->blocksize / XFS_MIN_INODE_PERBLOCK;

		if (maxsz > XFS_DINODE_MAX_SIZE)
			maxsz = XFS_DINODE_MAX_SIZE;
		fprintf(stderr, "illegal inode size %d\n", cfg->inodesize);
		if (maxsz == XFS_DINODE_MIN_SIZE)
			fprintf(stderr,
				"allowable inode size with %d byte blocks is %d\n",
				cfg->blocksize, XFS_DINODE_MIN_SIZE);
		else
			fprintf(stderr,
				"allowable inode size with %d byte blocks is between %d and %d\n",
				cfg->blocksize, XFS_DINODE_MIN_SIZE, maxsz);
		exit(1);
	}
}

static uint64_t calc_dev_size(const char *size, struct mkfs_cfg *cfg,
			      enum opt_id id, const char *type)
{
	uint64_t bytes, blocks;

	if (!size)
		return 0;
	bytes = getnum(size, id);
	if (bytes % XFS_MIN_BLOCKSIZE) {
		fprintf(stderr, "illegal %s length %lld, not a multiple of %d\n",
			type, (long long)bytes, XFS_MIN_BLOCKSIZE);
		usage();
	}
	blocks = bytes >> cfg->blocklog;
	if (bytes % cfg->blocksize)
		fprintf(stderr,
			"warning: %s length %lld not a multiple of %d, truncated to %lld\n",
			type, (long long)bytes, cfg->blocksize,
			(long long)(blocks << cfg->blocklog));
	return blocks;
}

static void validate_rtextsize(struct mkfs_cfg *cfg, struct cli_params *cli)
{
	if (cli->rtextsize) {
		uint64_t bytes = getnum(cli->rtextsize, R_EXTSIZE);

		if (bytes % cfg->blocksize) {
			fprintf(stderr,
				"illegal rt extent size %lld, not a multiple of %d\n",
				(long long)bytes, cfg->blocksize);
			usage();
		}
		cfg->rtextblocks = bytes >> cfg->blocklog;
		return;
	}
	{
		uint64_t rswidth = 0;

		if (!cfg->sb_feat.nortalign && cli->rt.name &&
		    !cli->rt.isfile && !(!cli->rtsize && cli->data.isfile))
			rswidth = cli->rt.swidth;
		if (!cfg->sb_feat.nortalign && rswidth &&
		    !(BBTOB(rswidth) % cfg->blocksize)) {
			uint64_t b;

			rswidth = DTOBT(rswidth, cfg->blocklog);
			b = rswidth << cfg->blocklog;
			if (b > XFS_MIN_RTEXTSIZE && b <= XFS_MAX_RTEXTSIZE)
				cfg->rtextblocks = rswidth;
		}
		if (!cfg->rtextblocks)
			cfg->rtextblocks = cfg->blocksize < XFS_MIN_RTEXTSIZE ?
				XFS_MIN_RTEXTSIZE >> cfg->blocklog : 1;
	}
}

static void validate_datadev(struct mkfs_cfg *cfg, struct cli_params *cli)
{
	struct dev_arg *d = &cli->data;

	if (!d->size) {
		if (!d->isfile) {
			fprintf(stderr, "can't get size of data subvolume\n");
			usage();
		}
	} else if (cfg->dblocks) {
		if (cfg->dblocks > DTOBT(d->size, cfg->blocklog)) {
			fprintf(stderr,
				"size %s specified for data subvolume is too large, maximum is %lld blocks\n",
				cli->dsize,
				(long long)DTOBT(d->size, cfg->blocklog));
			usage();
		}
	} else {
		cfg->dblocks = DTOBT(d->size, cfg->blocklog);
	}
	if (cfg->dblocks < XFS_AG_MIN_BLOCKS(cfg->blocklog)) {
		fprintf(stderr,
			"size %lld of data subvolume is too small, minimum %lld blocks\n",
			(long long)cfg->dblocks,
			(long long)XFS_AG_MIN_BLOCKS(cfg->blocklog));
		usage();
	}
}

static void validate_logdev(struct mkfs_cfg *cfg, struct cli_params *cli)
{
	struct dev_arg *l = &cli->log;

	cfg->loginternal = cli->loginternal;
	if (cfg->loginternal) {
		if (!cli->lsectorsize) {
			cfg->lsectorsize = cfg->sectorsize;
			cfg->lsectorlog = cfg->sectorlog;
		}
		if (cfg->sectorsize != cfg->lsectorsize) {
			fprintf(stderr,
				"data and log sector sizes must be equal for internal logs\n");
			usage();
		}
		if (cli->logsize && cfg->logblocks >= cfg->dblocks) {
			fprintf(stderr, "log size %lld too large for internal log\n",
				(long long)cfg->logblocks);
			usage();
		}
		return;
	}
	if (!l->name || !*l->name) {
		fprintf(stderr, "no log subvolume or external log.\n");
		usage();
	}
	if (!cfg->logblocks) {
		if (!l->size) {
			fprintf(stderr,
				"unable to get size of the log subvolume.\n");
			usage();
		}
		cfg->logblocks = DTOBT(l->size, cfg->blocklog);
	} else if (cfg->logblocks > DTOBT(l->size, cfg->blocklog)) {
		fprintf(stderr,
			"size %s specified for log subvolume is too large, maximum is %lld blocks\n",
			cli->logsize, (long long)DTOBT(l->size, cfg->blocklog));
		usage();
	}
}

static void validate_rtdev(struct mkfs_cfg *cfg, struct cli_params *cli)
{
	struct dev_arg *r = &cli->rt;

	if (!r->name) {
		if (cli->rtsize) {
			fprintf(stderr,
				"size specified for non-existent rt subvolume\n");
			usage();
		}
		cfg->rtblocks = cfg->rtextents = cfg->rtbmblocks = 0;
		return;
	}
	if (!r->size) {
		fprintf(stderr, "Invalid zero length rt subvolume found\n");
		usage();
	}
	if (cli->rtsize) {
		if (cfg->rtblocks > DTOBT(r->size, cfg->blocklog)) {
			fprintf(stderr,
				"size %s specified for rt subvolume is too large, maximum is %lld blocks\n",
				cli->rtsize, (long long)DTOBT(r->size, cfg->blocklog));
			usage();
		}
	} else {
		cfg->rtblocks = DTOBT(r->size, cfg->blocklog);
	}
	cfg->rtextents = cfg->rtblocks / cfg->rtextblocks;
	if (!cfg->rtextents) {
		fprintf(stderr, "cannot have an rt subvolume with zero extents\n");
		usage();
	}
	cfg->rtbmblocks = (cfg->rtextents + 8ull * cfg->blocksize - 1) /
			  (8ull * cfg->blocksize);
}

/* Stripe geometry in bytes; prints why it is refused unless silent. */
static bool stripe_ok(long long sunit, long long swidth, int sectsize,
		      bool silent)
{
	const char *msg = NULL;
	char buf[160];

	if (swidth > INT_MAX) {
		snprintf(buf, sizeof(buf), "stripe width (%lld) is too large",
			 swidth);
		msg = buf;
	} else if (sunit > swidth) {
		snprintf(buf, sizeof(buf),
			 "stripe unit (%lld) is larger than the stripe width (%lld)",
			 sunit, swidth);
		msg = buf;
	} else if (sectsize && (int)sunit % sectsize) {
		snprintf(buf, sizeof(buf),
			 "stripe unit (%lld) must be a multiple of the sector size (%d)",
			 sunit, sectsize);
		msg = buf;
	} else if (sunit && !swidth) {
		snprintf(buf, sizeof(buf),
			 "invalid stripe unit (%lld) and stripe width of 0",
			 sunit);
		msg = buf;
	} else if (!sunit && swidth) {
		snprintf(buf, sizeof(buf),
			 "invalid stripe width (%lld) and stripe unit of 0",
			 swidth);
		msg = buf;
	} else if (sunit && (int)swidth % (int)sunit) {
		snprintf(buf, sizeof(buf),
			 "stripe width (%lld) must be a multiple of the stripe unit (%lld)",
			 swidth, sunit);
		msg = buf;
	}
	if (msg && !silent)
		fprintf(stderr, "%s\n", msg);
	return !msg;
}

static void calc_stripe_factors(struct mkfs_cfg *cfg, struct cli_params *cli)
{
	long long dsunit = 0, dswidth = 0, lsunit = 0, dsu = 0, dsw = 0, lsu = 0;
	bool use_dev = false;
	struct dev_arg *d = &cli->data;

	if (opt_seen(D_SUNIT))
		dsunit = cli->dsunit;
	if (opt_seen(D_SWIDTH))
		dswidth = cli->dswidth;
	if (opt_seen(D_SU))
		dsu = getnum(cli->dsu, D_SU);
	if (opt_seen(D_SW))
		dsw = cli->dsw;

	if (opt_seen(D_SUNIT) != opt_seen(D_SWIDTH)) {
		fprintf(stderr,
			"both data sunit and data swidth options must be specified\n");
		usage();
	}
	if (dsu || dsw) {
		long long big;

		if (opt_seen(D_SU) != opt_seen(D_SW)) {
			fprintf(stderr,
				"both data su and data sw options must be specified\n");
			usage();
		}
		big = dsu * dsw;
		if (BTOBBT(big) > INT_MAX) {
			fprintf(stderr,
				"data stripe width (%lld) is too large of a multiple of the data stripe unit (%d)\n",
				big, (int)dsu);
			usage();
		}
		if (!stripe_ok(dsu, big, cfg->sectorsize, false))
			usage();
		dsunit = BTOBBT(dsu);
		dswidth = BTOBBT(big);
	} else if (!stripe_ok(BBTOB(dsunit), BBTOB(dswidth), cfg->sectorsize,
			      false)) {
		usage();
	}

	if ((opt_seen(D_SUNIT) || opt_seen(D_SU)) && !dsunit && !dswidth)
		cfg->sb_feat.nodalign = true;
	if (cfg->sb_feat.nodalign) {
		cfg->dsunit = cfg->dswidth = 0;
		goto check_lsunit;
	}
	if (!dsunit) {
		if (!stripe_ok(BBTOB(d->sunit), BBTOB(d->swidth), 0, true)) {
			fprintf(stderr,
				"%s: Volume reports invalid stripe unit (%d) and stripe width (%d), ignoring.\n",
				progname, (int)BBTOB(d->sunit),
				(int)BBTOB(d->swidth));
			d->sunit = d->swidth = 0;
		} else if (cfg->dblocks < GIGABYTES(1, cfg->blocklog)) {
			if (d->sunit || d->swidth)
				fprintf(stderr,
					"%s: small data volume, ignoring data volume stripe unit %d and stripe width %d\n",
					progname, d->sunit, d->swidth);
			d->sunit = d->swidth = 0;
		} else {
			dsunit = d->sunit;
			dswidth = d->swidth;
			use_dev = true;
		}
	} else {
		if (d->sunit && d->sunit != dsunit)
			fprintf(stderr,
				"%s: Specified data stripe unit %d is not the same as the volume stripe unit %d\n",
				progname, (int)dsunit, d->sunit);
		if (d->swidth && d->swidth != dswidth)
			fprintf(stderr,
				"%s: Specified data stripe width %d is not the same as the volume stripe width %d\n",
				progname, (int)dswidth, d->swidth);
	}
	if ((BBTOB(dsunit) % cfg->blocksize) ||
	    (BBTOB(dswidth) % cfg->blocksize)) {
		if (!use_dev) {
			fprintf(stderr,
				"%s: Stripe unit(%d) or stripe width(%d) is not a multiple of the block size(%d)\n",
				progname, (int)BBTOB(dsunit),
				(int)BBTOB(dswidth), cfg->blocksize);
			exit(1);
		}
		dsunit = dswidth = 0;
		cfg->sb_feat.nodalign = true;
	}
	cfg->dsunit = DTOBT(dsunit, cfg->blocklog);
	cfg->dswidth = DTOBT(dswidth, cfg->blocklog);

check_lsunit:
	if (opt_seen(L_SUNIT))
		lsunit = cli->lsunit;
	else if (opt_seen(L_SU))
		lsu = getnum(cli->lsu, L_SU);
	else if (cfg->lsectorsize > 512)
		lsu = cfg->blocksize;
	if (lsu) {
		if (lsu % cfg->blocksize) {
			fprintf(stderr,
				"log stripe unit (%d) must be a multiple of the block size (%d)\n",
				(int)lsu, cfg->blocksize);
			usage();
		}
		lsunit = BTOBBT(lsu);
	}
	if (BBTOB(lsunit) % cfg->blocksize) {
		fprintf(stderr,
			"log stripe unit (%d) must be a multiple of the block size (%d)\n",
			(int)BBTOB(lsunit), cfg->blocksize);
		usage();
	}
	if (lsunit)
		cfg->lsunit = DTOBT(lsunit, cfg->blocklog);
	else if (cfg->sb_feat.log_version == 2 && cfg->loginternal &&
		 cfg->dsunit)
		cfg->lsunit = cfg->dsunit;
	if (cfg->sb_feat.log_version == 2 &&
	    (uint64_t)cfg->lsunit * cfg->blocksize > 256 * 1024) {
		/* said even when the unit came from the data stripe, and
		 * under -q, as the reference does */
		fprintf(stderr,
			"log stripe unit (%d bytes) is too large (maximum is 256KiB)\n"
			"log stripe unit adjusted to 32KiB\n",
			cfg->lsunit * cfg->blocksize);
		cfg->lsunit = (32 * 1024) / cfg->blocksize;
	}
}

static void calc_default_ag_geometry(int blocklog, uint64_t dblocks,
				     bool multidisk, uint64_t *agsize,
				     uint64_t *agcount)
{
	uint64_t blocks = 0;
	int shift = 0;

	if (dblocks >= TERABYTES(32, blocklog)) {
		blocks = XFS_AG_MAX_BLOCKS(blocklog);
		goto done;
	}
	if (!multidisk) {
		if (dblocks >= TERABYTES(4, blocklog)) {
			blocks = XFS_AG_MAX_BLOCKS(blocklog);
			goto done;
		} else if (dblocks >= MEGABYTES(128, blocklog)) {
			shift = XFS_NOMULTIDISK_AGLOG;
			goto calc;
		}
	}
	shift = XFS_MULTIDISK_AGLOG;
	if (dblocks <= GIGABYTES(512, blocklog))
		shift--;
	if (dblocks <= GIGABYTES(8, blocklog))
		shift--;
	if (dblocks < MEGABYTES(128, blocklog))
		shift--;
	if (dblocks < MEGABYTES(64, blocklog))
		shift--;
	if (dblocks < MEGABYTES(32, blocklog))
		shift--;
calc:
	blocks = dblocks >> shift;
	if ((dblocks & ((1ull << shift) - 1)) &&
	    blocks < XFS_AG_MAX_BLOCKS(blocklog))
		blocks++;
done:
	*agsize = blocks;
	*agcount = dblocks / blocks + (dblocks % blocks != 0);
}

static void validate_ag_geometry(int blocklog, uint64_t dblocks,
				 uint64_t agsize, uint64_t agcount)
{
	if (agsize < XFS_AG_MIN_BLOCKS(blocklog)) {
		fprintf(stderr,
			"agsize (%lld blocks) too small, need at least %lld blocks\n",
			(long long)agsize, (long long)XFS_AG_MIN_BLOCKS(blocklog));
		usage();
	}
	if (agsize > XFS_AG_MAX_BLOCKS(blocklog)) {
		fprintf(stderr,
			"agsize (%lld blocks) too big, maximum is %lld blocks\n",
			(long long)agsize, (long long)XFS_AG_MAX_BLOCKS(blocklog));
		usage();
	}
	if (agsize > dblocks) {
		fprintf(stderr,
			"agsize (%lld blocks) too big, data area is %lld blocks\n",
			(long long)agsize, (long long)dblocks);
		usage();
	}
	if (dblocks % agsize != 0 &&
	    dblocks % agsize < XFS_AG_MIN_BLOCKS(blocklog)) {
		fprintf(stderr,
			"last AG size %lld blocks too small, minimum size is %lld blocks\n",
			(long long)(dblocks % agsize),
			(long long)XFS_AG_MIN_BLOCKS(blocklog));
		usage();
	}
	if (agcount > (uint64_t)UINT_MAX) {
		fprintf(stderr,
			"%lld allocation groups is too many, maximum is %lld\n",
			(long long)agcount, (long long)UINT_MAX);
		usage();
	}
}

static void calculate_ag_geometry(struct mkfs_cfg *cfg, struct cli_params *cli)
{
	uint64_t tmp;
	int dsunit;

	if (cli->agsize) {
		cfg->agsize = getnum(cli->agsize, D_AGSIZE);
		if (cfg->agsize % cfg->blocksize) {
			fprintf(stderr,
				"agsize (%s) not a multiple of fs blk size (%d)\n",
				cli->agsize, cfg->blocksize);
			usage();
		}
		cfg->agsize /= cfg->blocksize;
		cfg->agcount = cfg->dblocks / cfg->agsize +
			       (cfg->dblocks % cfg->agsize != 0);
	} else if (cli->agcount) {
		cfg->agcount = cli->agcount;
		cfg->agsize = cfg->dblocks / cfg->agcount +
			      (cfg->dblocks % cfg->agcount != 0);
	} else {
		calc_default_ag_geometry(cfg->blocklog, cfg->dblocks,
					 cfg->dsunit, &cfg->agsize,
					 &cfg->agcount);
	}

	/* Align the AG size to the stripe unit (align_ag_geometry). */
	dsunit = cfg->dsunit;
	if (!dsunit)
		goto validate;
	if (cfg->agsize % dsunit) {
		tmp = (cfg->agsize + dsunit - 1) / dsunit * dsunit;
		if (tmp > XFS_AG_MAX_BLOCKS(cfg->blocklog))
			tmp = cfg->agsize / dsunit * dsunit;
		if (tmp < XFS_AG_MIN_BLOCKS(cfg->blocklog) &&
		    tmp > XFS_AG_MAX_BLOCKS(cfg->blocklog)) {
			if (!opt_seen(D_SUNIT) && !opt_seen(D_SU)) {
				cfg->dsunit = cfg->dswidth = 0;
				goto validate;
			}
			cfg->agsize = tmp;
			goto validate;
		}
		cfg->agsize = tmp;
		if (!opt_seen(D_AGCOUNT))
			cfg->agcount = cfg->dblocks / cfg->agsize +
				       (cfg->dblocks % cfg->agsize != 0);
		if (opt_seen(D_AGSIZE))
			fprintf(stderr, "agsize rounded to %lld, sunit = %d\n",
				(long long)cfg->agsize, dsunit);
	}
	if (cfg->agsize % cfg->dswidth == 0 && cfg->dswidth != cfg->dsunit &&
	    cfg->agcount > 1) {
		if (opt_seen(D_AGCOUNT) || opt_seen(D_AGSIZE)) {
			printf("Warning: AG size is a multiple of stripe width.  This can cause performance\n"
			       "problems by aligning all AGs on the same disk.  To avoid this, run mkfs with\n"
			       "an AG size that is one stripe unit smaller or larger, for example %llu.\n",
			       (unsigned long long)cfg->agsize - dsunit);
			fflush(stdout);
			goto validate;
		}
		tmp = cfg->agsize - dsunit;
		if (tmp < XFS_AG_MIN_BLOCKS(cfg->blocklog)) {
			tmp = cfg->agsize + dsunit;
			if (cfg->dblocks < cfg->agsize)
				tmp = cfg->agsize;
		}
		cfg->agsize = tmp;
		cfg->agcount = cfg->dblocks / cfg->agsize +
			       (cfg->dblocks % cfg->agsize != 0);
	}
validate:
	if (cfg->dblocks % cfg->agsize != 0 &&
	    cfg->dblocks % cfg->agsize < XFS_AG_MIN_BLOCKS(cfg->blocklog)) {
		cfg->dblocks = (cfg->agcount - 1) * cfg->agsize;
		cfg->agcount--;
	}
	validate_ag_geometry(cfg->blocklog, cfg->dblocks, cfg->agsize,
			     cfg->agcount);
}

static void calculate_imaxpct(struct mkfs_cfg *cfg, struct cli_params *cli)
{
	cfg->imaxpct = cli->imaxpct;
	if (cfg->imaxpct)
		return;
	if (cfg->dblocks < TERABYTES(1, cfg->blocklog))
		cfg->imaxpct = XFS_DFL_IMAXIMUM_PCT;
	else if (cfg->dblocks < TERABYTES(50, cfg->blocklog))
		cfg->imaxpct = 5;
	else
		cfg->imaxpct = 1;
}

/*
 * The root directory's extent size hints must be what the kernel accepts
 * on an inode: at most half an AG and one extent's length, and for a
 * realtime-inheriting directory a whole number of realtime extents.
 */
static void validate_extsize_hints(const struct mkfs_cfg *cfg,
				   const struct cli_params *cli)
{
	uint32_t limit = (uint32_t)(cfg->agsize / 2);

	if (limit > XFS_MAX_BMBT_EXTLEN)
		limit = XFS_MAX_BMBT_EXTLEN;
	if (cli->fsx_extsize > limit) {
		fprintf(stderr, "illegal extent size hint %u, must be "
			"less than %u.\n", cli->fsx_extsize, limit);
		usage();
	}
	if ((cli->fsx_xflags & XFS_XFLAG_RTINHERIT_) && cfg->rtextblocks &&
	    cli->fsx_extsize % cfg->rtextblocks) {
		fprintf(stderr, "illegal extent size hint %u, must be "
			"less than %u and a multiple of %u.\n",
			cli->fsx_extsize, limit, (unsigned)cfg->rtextblocks);
		usage();
	}
	if (cli->fsx_cowextsize > limit) {
		fprintf(stderr, "illegal CoW extent size hint %u, must be "
			"less than %u.\n", cli->fsx_cowextsize, limit);
		usage();
	}
}

/* The superblock version and feature words (sb_set_features). */
static void set_features(struct mkfs_cfg *cfg)
{
	struct sb_feat *f = &cfg->sb_feat;
	uint32_t cluster = XFS_INODE_BIG_CLUSTER_SIZE;

	cfg->versionnum = XFS_SB_VERSION_NLINKBIT | XFS_SB_VERSION_DIRV2BIT |
			  XFS_SB_VERSION_EXTFLGBIT | XFS_SB_VERSION_5 |
			  XFS_SB_VERSION_ALIGNBIT;
	cluster *= cfg->inodesize / XFS_DINODE_MIN_SIZE;
	cfg->inoalignmt = cluster >> cfg->blocklog;
	cfg->spino_align = 0;
	if (cfg->dsunit)
		cfg->versionnum |= XFS_SB_VERSION_DALIGNBIT;
	if (f->log_version == 2)
		cfg->versionnum |= XFS_SB_VERSION_LOGV2BIT;
	if (f->nci)
		cfg->versionnum |= XFS_SB_VERSION_BORGBIT;
	if (cfg->sectorsize > 512 || cfg->lsectorsize > 512)
		cfg->versionnum |= XFS_SB_VERSION_SECTORBIT;
	cfg->features2 = XFS_SB_VERSION2_LAZYSBCOUNTBIT |
			 XFS_SB_VERSION2_PROJID32BIT | XFS_SB_VERSION2_CRCBIT |
			 XFS_SB_VERSION2_ATTR2BIT;
	cfg->versionnum |= XFS_SB_VERSION_MOREBITSBIT;

	cfg->ro_compat = 0;
	cfg->incompat = XFS_SB_FEAT_INCOMPAT_FTYPE;
	if (f->finobt)
		cfg->ro_compat |= XFS_SB_FEAT_RO_COMPAT_FINOBT;
	if (f->rmapbt)
		cfg->ro_compat |= XFS_SB_FEAT_RO_COMPAT_RMAPBT;
	if (f->reflink)
		cfg->ro_compat |= XFS_SB_FEAT_RO_COMPAT_REFLINK;
	if (f->inobtcnt)
		cfg->ro_compat |= XFS_SB_FEAT_RO_COMPAT_INOBTCNT;
	if (f->bigtime)
		cfg->incompat |= XFS_SB_FEAT_INCOMPAT_BIGTIME;
	if (f->spinodes) {
		cfg->spino_align = cfg->inoalignmt;
		cfg->inoalignmt = XFS_INODES_PER_CHUNK * cfg->inodesize >>
				  cfg->blocklog;
		cfg->incompat |= XFS_SB_FEAT_INCOMPAT_SPINODES;
	}
	if (f->nrext64)
		cfg->incompat |= XFS_SB_FEAT_INCOMPAT_NREXT64;
	if (f->log_version == 2)
		cfg->logsunit_bytes = cfg->lsunit ?
			(uint32_t)cfg->lsunit * cfg->blocksize : 1;
	else
		cfg->logsunit_bytes = 0;
	cfg->agblklog = log2_roundup(cfg->agsize);
}

/* Is fsblock fsb a block of the data device? */
static bool fsb_ok(const struct mkfs_cfg *cfg, uint64_t fsb)
{
	uint64_t agno = fsb >> cfg->agblklog;
	uint64_t agbno = fsb & ((1ull << cfg->agblklog) - 1);
	uint64_t len;

	if (agno >= cfg->agcount)
		return false;
	len = agno == cfg->agcount - 1 ?
		cfg->dblocks - agno * cfg->agsize : cfg->agsize;
	return agbno < len;
}

static bool fsbext_ok(const struct mkfs_cfg *cfg, uint64_t fsb, uint64_t len)
{
	if (!fsb_ok(cfg, fsb) || !fsb_ok(cfg, fsb + len - 1))
		return false;
	return (fsb >> cfg->agblklog) == ((fsb + len - 1) >> cfg->agblklog);
}

static void align_log_size(struct mkfs_cfg *cfg, int sunit,
			   uint64_t max_logblocks)
{
	uint64_t tmp;

	if (cfg->logblocks % sunit == 0)
		return;
	if (opt_seen(L_SIZE)) {
		fprintf(stderr,
			"log size %lld is not a multiple of the log stripe unit %d\n",
			(long long)cfg->logblocks, sunit);
		usage();
	}
	tmp = (cfg->logblocks + sunit - 1) / sunit * sunit;
	if (tmp > XFS_MAX_LOG_BLOCKS ||
	    (tmp << cfg->blocklog) > XFS_MAX_LOG_BYTES || tmp > max_logblocks)
		tmp = cfg->logblocks / sunit * sunit;
	cfg->logblocks = tmp;
}

static void align_internal_log(struct mkfs_cfg *cfg, int sunit,
			       uint64_t max_logblocks)
{
	if (cfg->logstart % sunit)
		cfg->logstart = (cfg->logstart + sunit - 1) / sunit * sunit;
	if (!fsb_ok(cfg, cfg->logstart)) {
		fprintf(stderr,
			"Due to stripe alignment, the internal log start (%lld) cannot be aligned\n"
			"within an allocation group.\n",
			(long long)cfg->logstart);
		usage();
	}
	align_log_size(cfg, sunit, max_logblocks);
	if (!fsbext_ok(cfg, cfg->logstart, cfg->logblocks) &&
	    cfg->logblocks > (uint64_t)sunit)
		cfg->logblocks -= sunit;
	if (!fsbext_ok(cfg, cfg->logstart, cfg->logblocks)) {
		fprintf(stderr,
			"Due to stripe alignment, the internal log size (%lld) is too large.\n"
			"Must fit within an allocation group.\n",
			(long long)cfg->logblocks);
		usage();
	}
}

static void validate_log_size(uint64_t logblocks, int blocklog,
			      int min_logblocks)
{
	if (logblocks < (uint64_t)min_logblocks) {
		fprintf(stderr,
			"log size %lld blocks too small, minimum size is %d blocks\n",
			(long long)logblocks, min_logblocks);
		usage();
	}
	if (logblocks > XFS_MAX_LOG_BLOCKS) {
		fprintf(stderr,
			"log size %lld blocks too large, maximum size is %lld blocks\n",
			(long long)logblocks, (long long)XFS_MAX_LOG_BLOCKS);
		usage();
	}
	if ((logblocks << blocklog) > XFS_MAX_LOG_BYTES) {
		fprintf(stderr,
			"log size %lld bytes too large, maximum size is %lld bytes\n",
			(long long)(logblocks << blocklog),
			(long long)XFS_MAX_LOG_BYTES);
		usage();
	}
}

static void calculate_log_size(struct mkfs_cfg *cfg, struct cli_params *cli)
{
	int min_logblocks = mkfs_min_logblocks(cfg);
	int max_logblocks;
	uint32_t prealloc = mkfs_prealloc_blocks(cfg);
	struct ag_static st;

	if (min_logblocks < XFS_MIN_LOG_BLOCKS)
		min_logblocks = XFS_MIN_LOG_BLOCKS;
	if (!cli->logsize && cfg->dblocks >= (1024ull * 1024 * 1024) >> cfg->blocklog &&
	    (uint64_t)min_logblocks < XFS_MIN_LOG_BYTES >> cfg->blocklog)
		min_logblocks = XFS_MIN_LOG_BYTES >> cfg->blocklog;

	if (!cfg->loginternal) {
		if ((uint64_t)min_logblocks > cfg->logblocks) {
			fprintf(stderr,
				"external log device size %lld blocks too small, must be at least %lld blocks\n",
				(long long)cfg->logblocks,
				(long long)min_logblocks);
			usage();
		}
		cfg->logstart = 0;
		cfg->logagno = 0;
		if (cfg->lsunit) {
			uint64_t maxl = DTOBT(cli->log.size, cfg->blocklog);

			if (maxl > XFS_MAX_LOG_BLOCKS)
				maxl = XFS_MAX_LOG_BLOCKS;
			align_log_size(cfg, cfg->lsunit, maxl);
		}
		validate_log_size(cfg->logblocks, cfg->blocklog, min_logblocks);
		return;
	}

	/* The largest free extent a fresh AG can give (alloc_ag_max_usable). */
	build_ag_static(cfg->blocksize, cfg->sectorsize, cfg->sb_feat.finobt,
			cfg->sb_feat.rmapbt, cfg->sb_feat.reflink, &st);
	max_logblocks = (int)(cfg->agsize - (st.hdr_blocks + 4 + 3 +
			cfg->sb_feat.finobt + cfg->sb_feat.rmapbt +
			cfg->sb_feat.reflink)) - 1;
	if (max_logblocks < min_logblocks) {
		fprintf(stderr,
			"max log size %d smaller than min log size %d, filesystem is too small\n",
			max_logblocks, min_logblocks);
		usage();
	}
	if (!cfg->logblocks) {
		cfg->logblocks = (cfg->dblocks << cfg->blocklog) / 2048;
		cfg->logblocks >>= cfg->blocklog;
		if (cfg->logblocks < MEGABYTES(64, cfg->blocklog))
			cfg->logblocks = MEGABYTES(64, cfg->blocklog);
		if (cfg->dblocks < MEGABYTES(300, cfg->blocklog))
			cfg->logblocks = min_logblocks;
		if (cfg->logblocks < (uint64_t)min_logblocks)
			cfg->logblocks = min_logblocks;
		if (cfg->logblocks > (uint64_t)max_logblocks)
			cfg->logblocks = max_logblocks;
		if (cfg->logblocks > XFS_MAX_LOG_BLOCKS)
			cfg->logblocks = XFS_MAX_LOG_BLOCKS;
		if ((cfg->logblocks << cfg->blocklog) > XFS_MAX_LOG_BYTES)
			cfg->logblocks = XFS_MAX_LOG_BYTES >> cfg->blocklog;
		validate_log_size(cfg->logblocks, cfg->blocklog, min_logblocks);
	} else if (cfg->logblocks > (uint64_t)max_logblocks) {
		fprintf(stderr,
			"internal log size %lld too large, must be less than %d\n",
			(long long)cfg->logblocks, max_logblocks);
		usage();
	}
	if (cfg->logblocks > cfg->agsize - prealloc) {
		fprintf(stderr,
			"internal log size %lld too large, must fit in allocation group\n",
			(long long)cfg->logblocks);
		usage();
	}
	if (opt_seen(L_AGNUM)) {
		if ((uint64_t)cli->logagno >= cfg->agcount) {
			fprintf(stderr,
				"log ag number %lld too large, must be less than %lld\n",
				(long long)cli->logagno,
				(long long)cfg->agcount);
			usage();
		}
		cfg->logagno = cli->logagno;
	} else {
		cfg->logagno = cfg->agcount / 2;
	}
	if (cfg->logagno == 0) {
		/*
		 * Leave room in AG 0 for the root inode chunk and a refill
		 * of the free list with aligned blocks.
		 */
		int backoff = (XFS_INODES_PER_CHUNK * cfg->inodesize >>
			       cfg->blocklog) * 4;

		if (backoff < cfg->dsunit * 2)
			backoff = cfg->dsunit * 2;
		max_logblocks -= backoff;
		if (opt_seen(L_SIZE) && cfg->logblocks > (uint64_t)max_logblocks) {
			fprintf(stderr,
				"internal log size %lld too large, must be less than %d\n",
				(long long)cfg->logblocks, max_logblocks);
			usage();
		}
		if (cfg->logblocks > (uint64_t)max_logblocks)
			cfg->logblocks = max_logblocks;
	}
	cfg->logstart = (cfg->logagno << cfg->agblklog) | prealloc;
	if (cfg->lsunit)
		align_internal_log(cfg, cfg->lsunit, max_logblocks);
	else if (cfg->dsunit)
		align_internal_log(cfg, cfg->dsunit, max_logblocks);
	validate_log_size(cfg->logblocks, cfg->blocklog, min_logblocks);
}

static void validate_supported(struct mkfs_cfg *cfg, bool is_supported)
{
	if (!is_supported) {
		printf("Filesystems formatted with --unsupported are not supported!!\n");
		return;
	}
	/* The escape the reference leaves for fstests' tiny filesystems. */
	if (getenv("TEST_DIR") && getenv("TEST_DEV") && getenv("QA_CHECK_FS"))
		return;
	if (cfg->dblocks < MEGABYTES(300, cfg->blocklog)) {
		fprintf(stderr, "Filesystem must be larger than 300MB.\n");
		usage();
	}
	if (cfg->logblocks < MEGABYTES(64, cfg->blocklog)) {
		fprintf(stderr, "Log size must be at least 64MB.\n");
		usage();
	}
	if (cfg->agcount < 2) {
		fprintf(stderr,
			"Filesystem must have at least 2 superblocks for redundancy!\n");
		usage();
	}
}

bool mkfs_is_supported = true;

void mkfs_decide(struct mkfs_cfg *cfg, struct cli_params *cli, bool dry_run,
		 bool force)
{
	validate_blocksize(cfg, cli);
	validate_sectorsize(cfg, cli, dry_run);
	opt_blocksize = cfg->blocksize;
	opt_sectorsize = cfg->sectorsize;
	validate_log_sectorsize(cfg, cli);
	validate_sb_features(cfg, cli);
	validate_dirblocksize(cfg, cli);
	validate_inodesize(cfg, cli);

	cfg->dblocks = calc_dev_size(cli->dsize, cfg, D_SIZE, "data");
	cfg->logblocks = calc_dev_size(cli->logsize, cfg, L_SIZE, "log");
	cfg->rtblocks = calc_dev_size(cli->rtsize, cfg, R_SIZE, "rt");
	validate_rtextsize(cfg, cli);

	dev_open_all(cfg, cli);
	if (!cli->data.create)
		dev_check_overwrite(cli->data.name, force);
	validate_datadev(cfg, cli);
	validate_logdev(cfg, cli);
	validate_rtdev(cfg, cli);
	calc_stripe_factors(cfg, cli);

	calculate_ag_geometry(cfg, cli);
	calculate_imaxpct(cfg, cli);
	validate_extsize_hints(cfg, cli);
	set_features(cfg);
	calculate_log_size(cfg, cli);

	cfg->rextslog = cfg->rtextents ? (unsigned)(63 -
			__builtin_clzll(cfg->rtextents)) : 0;
	cfg->rsumsize = 4 * (cfg->rextslog + 1) * (uint32_t)cfg->rtbmblocks;
	cfg->rsumsize = (cfg->rsumsize + cfg->blocksize - 1) /
			cfg->blocksize * cfg->blocksize;
	validate_supported(cfg, mkfs_is_supported);
}
