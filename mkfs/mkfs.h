/*
 * mkfs.xfs: shared declarations of the tool's parts.
 *
 *   opts.c     the option table, command line and config file parsing
 *   geometry.c validation and every geometry decision (AGs, log, stripes)
 *   report.c   the geometry summary printout
 *   write.c    devices, signatures, discard, and writing the filesystem
 *   mkfs.c     main: the order of the steps
 */
#ifndef XK_MKFS_H
#define XK_MKFS_H

#include <stdbool.h>
#include <stdint.h>
#include <uuid/uuid.h>
#include "format/types.h"

extern const char *progname;

/* Every suboption of every option letter, in one table (opts.c). */
enum opt_id {
	B_SIZE,
	C_OPTFILE,
	D_AGCOUNT, D_FILE, D_NAME, D_SIZE, D_SUNIT, D_SWIDTH, D_AGSIZE,
	D_SU, D_SW, D_SECTSIZE, D_NOALIGN, D_RTINHERIT, D_PROJINHERIT,
	D_EXTSZINHERIT, D_COWEXTSIZE, D_DAXINHERIT,
	I_ALIGN, I_MAXPCT, I_PERBLOCK, I_SIZE, I_ATTR, I_PROJID32BIT,
	I_SPINODES, I_NREXT64,
	L_AGNUM, L_INTERNAL, L_SIZE, L_VERSION, L_SUNIT, L_SU, L_DEV,
	L_SECTSIZE, L_FILE, L_NAME, L_LAZYSBCNTR,
	M_CRC, M_FINOBT, M_UUID, M_RMAPBT, M_REFLINK, M_INOBTCNT, M_BIGTIME,
	N_SIZE, N_VERSION, N_FTYPE,
	P_FILE,
	R_EXTSIZE, R_SIZE, R_DEV, R_FILE, R_NAME, R_NOALIGN,
	S_SIZE, S_SECTSIZE,
	OPT_COUNT
};

struct sb_feat {
	int	log_version, attr_version, dir_version;
	bool	inode_align, nci, lazy_sb_counters, projid32bit, crcs_enabled;
	bool	dirftype, finobt, spinodes, rmapbt, reflink, inobtcnt, bigtime;
	bool	nodalign, nortalign, nrext64;
};

/* One device as given on the command line. */
struct dev_arg {
	char		*name;
	bool		isfile;		/* -x file, or a regular file */
	bool		create;		/* create or truncate the image */
	uint64_t	size;		/* basic blocks, after open */
	uint32_t	lsectsize, psectsize;
	uint32_t	sunit, swidth;	/* topology, basic blocks */
};

/* What the command line (and config file) asked for. */
struct cli_params {
	int		sectorsize, blocksize, lsectorsize;
	char		*cfgfile, *protofile;
	/* strings parsed once block and sector sizes are known */
	char		*dsize, *agsize, *dsu, *dirblocksize, *logsize, *lsu;
	char		*rtextsize, *rtsize;
	int		dsunit, dswidth, dsw;
	int64_t		logagno;
	int		loginternal, lsunit;
	int64_t		agcount;
	int		inodesize, inopblock, imaxpct;
	uuid_t		uuid;
	bool		uuid_set;
	struct sb_feat	sb_feat;
	/* root directory attributes (-d *inherit, cowextsize) */
	uint32_t	fsx_xflags, fsx_projid, fsx_extsize, fsx_cowextsize;
	struct dev_arg	data, log, rt;
};

/* The decided geometry. */
struct mkfs_cfg {
	int		blocksize, blocklog;
	int		sectorsize, sectorlog;
	int		lsectorsize, lsectorlog;
	int		dirblocksize, dirblocklog;
	int		inodesize, inodelog, inopblock;
	uint64_t	dblocks, logblocks, rtblocks, rtextblocks, rtextents;
	uint64_t	rtbmblocks;
	int		dsunit, dswidth, lsunit;	/* fs blocks */
	uint64_t	agsize, agcount;
	int		imaxpct;
	bool		loginternal;
	uint64_t	logstart, logagno;
	uuid_t		uuid;
	char		*label;
	struct sb_feat	sb_feat;
	/* derived superblock pieces */
	uint32_t	inoalignmt, spino_align;
	uint16_t	versionnum;
	uint32_t	features2;
	uint32_t	ro_compat, incompat;
	uint32_t	logsunit_bytes;
	unsigned	agblklog;
	unsigned	rextslog;
	uint32_t	rsumsize;		/* bytes */
};

/* Option table state and parsing (opts.c). */
extern long long opt_blocksize, opt_sectorsize;	/* for cvtnum's b and s */
bool opt_seen(enum opt_id id);
void parse_subopts(char opt, char *arg, struct cli_params *cli);
long long getnum(const char *str, enum opt_id id);
void cfgfile_parse(struct cli_params *cli);
void __attribute__((noreturn)) usage(void);
void __attribute__((noreturn)) illegal(const char *value, const char *opt);
long long cvtnum(long long blksize, long long sectsize, const char *s);

/* Geometry (geometry.c): everything before the summary is printed. */
void mkfs_decide(struct mkfs_cfg *cfg, struct cli_params *cli, bool dry_run,
		 bool force);

/* Summary (report.c). */
void mkfs_report(const struct mkfs_cfg *cfg, const struct cli_params *cli);

/* Devices (write.c). */
void dev_check_type(struct dev_arg *dev, bool no_size, bool dry_run,
		    const char *optname);
void dev_get_topology(struct dev_arg *dev);
void dev_open_all(struct mkfs_cfg *cfg, struct cli_params *cli);
void dev_check_overwrite(const char *name, bool force);
int mkfs_write(struct mkfs_cfg *cfg, struct cli_params *cli, bool discard,
	       bool quiet, bool force);

/* Geometry helpers used by both geometry.c and write.c. */
uint32_t mkfs_prealloc_blocks(const struct mkfs_cfg *cfg);
uint32_t mkfs_min_logblocks(const struct mkfs_cfg *cfg);
struct resv_geom;
void mkfs_resv_geom(const struct mkfs_cfg *cfg, struct resv_geom *rg);

/* Root directory attribute flags (the FS_XFLAG_* values of fsxattr). */
#define XFS_XFLAG_RTINHERIT_	0x00000100
#define XFS_XFLAG_PROJINHERIT_	0x00000200
#define XFS_XFLAG_EXTSZINHERIT_	0x00001000
#define XFS_XFLAG_DAX_		0x00008000
#define XFS_XFLAG_COWEXTSIZE_	0x00010000

#define TERABYTES(c, blog)	((uint64_t)(c) << (40 - (blog)))
#define GIGABYTES(c, blog)	((uint64_t)(c) << (30 - (blog)))
#define MEGABYTES(c, blog)	((uint64_t)(c) << (20 - (blog)))

#define XFS_AG_MIN_BYTES	(1ull << 24)		/* 16 MiB */
#define XFS_AG_MAX_BYTES	(1ull << 40)		/* 1 TiB */
#define XFS_AG_MIN_BLOCKS(bl)	(XFS_AG_MIN_BYTES >> (bl))
#define XFS_AG_MAX_BLOCKS(bl)	((XFS_AG_MAX_BYTES - 1) >> (bl))
#define XFS_MIN_LOG_BYTES	(10ull << 20)
#define XFS_MAX_LOG_BYTES	((2ull << 30) - XFS_MIN_LOG_BYTES)
#define XFS_MAX_LOG_BLOCKS	(1024 * 1024ull)
#define XFS_MIN_LOG_BLOCKS	512
#define XFS_MIN_RTEXTSIZE	(4 * 1024)
#define XFS_MAX_RTEXTSIZE	(1024 * 1024 * 1024)
#define XFS_DFL_RTEXTSIZE	(64 * 1024)
#define XFS_MIN_BLOCKSIZE	512
#define XFS_MAX_BLOCKSIZE	65536
#define XFS_MIN_CRC_BLOCKSIZE	1024
#define XFS_MIN_SECTORSIZE	512
#define XFS_MAX_SECTORSIZE	32768
#define XFS_DINODE_MIN_SIZE	256
#define XFS_DINODE_MAX_SIZE	2048
#define XFS_DINODE_DFL_CRC_LOG	9
#define XFS_MIN_INODE_PERBLOCK	2
#define XFS_MIN_REC_DIRSIZE	12
#define XFS_DFL_IMAXIMUM_PCT	25
#define XFS_INODE_BIG_CLUSTER_SIZE 8192
#define XLOG_MAX_RECORD_BSIZE_B	(256 * 1024)
#define XFS_MULTIDISK_AGLOG	5
#define XFS_NOMULTIDISK_AGLOG	2

#endif
