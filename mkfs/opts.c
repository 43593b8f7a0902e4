/*
 * The mkfs.xfs option table and its parsing.
 *
 * Every suboption of every option letter is one row of opt_tab: its
 * letter, name, config-file section, whether the value takes unit
 * suffixes, whether it must be a power of two, its range, its value when
 * given bare, and the suboptions it conflicts with.  The command line
 * (-b size=4k,...) and the config file ([block] size=4k) both go through
 * the same rows, so the checks and messages are the same for both.
 * Messages and exit codes follow xfsprogs 6.1's mkfs.xfs.
 */
#include "config.h"
#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mkfs.h"

#define NEEDS_VAL	(-1LL)
#define NOCONF		(-1)
#define MAXCONF		5

struct opt_def {
	char		cls;		/* option letter */
	const char	*name;
	bool		convert;	/* unit suffixes allowed */
	bool		pow2;
	long long	minval, maxval;
	long long	defval;		/* value when given without one */
	int		conflicts[MAXCONF];	/* terminated by NOCONF */
};

#define C(...)	{ __VA_ARGS__, NOCONF }

static const struct opt_def opt_tab[OPT_COUNT] = {
	[B_SIZE] = { 'b', "size", true, true, XFS_MIN_BLOCKSIZE,
		XFS_MAX_BLOCKSIZE, NEEDS_VAL, C(NOCONF) },
	[C_OPTFILE] = { 'c', "options", false, false, 0, 0, NEEDS_VAL,
		C(NOCONF) },

	[D_AGCOUNT] = { 'd', "agcount", false, false, 1, UINT_MAX - 1,
		NEEDS_VAL, C(D_AGSIZE) },
	[D_FILE] = { 'd', "file", false, false, 0, 1, 1, C(NOCONF) },
	[D_NAME] = { 'd', "name", false, false, 0, 0, NEEDS_VAL, C(NOCONF) },
	[D_SIZE] = { 'd', "size", true, false, XFS_AG_MIN_BYTES, LLONG_MAX,
		NEEDS_VAL, C(NOCONF) },
	[D_SUNIT] = { 'd', "sunit", false, false, 0, UINT_MAX, NEEDS_VAL,
		C(D_NOALIGN, D_SU, D_SW) },
	[D_SWIDTH] = { 'd', "swidth", false, false, 0, UINT_MAX, NEEDS_VAL,
		C(D_NOALIGN, D_SU, D_SW) },
	[D_AGSIZE] = { 'd', "agsize", true, false, XFS_AG_MIN_BYTES,
		XFS_AG_MAX_BYTES, NEEDS_VAL, C(D_AGCOUNT) },
	[D_SU] = { 'd', "su", true, false, 0, UINT_MAX, NEEDS_VAL,
		C(D_NOALIGN, D_SUNIT, D_SWIDTH) },
	[D_SW] = { 'd', "sw", false, false, 0, UINT_MAX, NEEDS_VAL,
		C(D_NOALIGN, D_SUNIT, D_SWIDTH) },
	[D_SECTSIZE] = { 'd', "sectsize", true, true, XFS_MIN_SECTORSIZE,
		XFS_MAX_SECTORSIZE, NEEDS_VAL, C(S_SIZE, S_SECTSIZE) },
	[D_NOALIGN] = { 'd', "noalign", false, false, 0, 1, 1,
		C(D_SU, D_SW, D_SUNIT, D_SWIDTH) },
	[D_RTINHERIT] = { 'd', "rtinherit", false, false, 0, 1, 1, C(NOCONF) },
	[D_PROJINHERIT] = { 'd', "projinherit", false, false, 0, UINT_MAX,
		NEEDS_VAL, C(NOCONF) },
	[D_EXTSZINHERIT] = { 'd', "extszinherit", false, false, 0, UINT_MAX,
		NEEDS_VAL, C(NOCONF) },
	[D_COWEXTSIZE] = { 'd', "cowextsize", false, false, 0, UINT_MAX,
		NEEDS_VAL, C(NOCONF) },
	[D_DAXINHERIT] = { 'd', "daxinherit", false, false, 0, 1, 1, C(NOCONF) },

	[I_ALIGN] = { 'i', "align", false, false, 0, 1, 1, C(NOCONF) },
	[I_MAXPCT] = { 'i', "maxpct", false, false, 0, 100, NEEDS_VAL,
		C(NOCONF) },
	[I_PERBLOCK] = { 'i', "perblock", false, true, XFS_MIN_INODE_PERBLOCK,
		XFS_MAX_BLOCKSIZE / XFS_DINODE_MIN_SIZE, NEEDS_VAL, C(I_SIZE) },
	[I_SIZE] = { 'i', "size", false, true, XFS_DINODE_MIN_SIZE,
		XFS_DINODE_MAX_SIZE, NEEDS_VAL, C(I_PERBLOCK) },
	[I_ATTR] = { 'i', "attr", false, false, 0, 2, NEEDS_VAL, C(NOCONF) },
	[I_PROJID32BIT] = { 'i', "projid32bit", false, false, 0, 1, 1,
		C(NOCONF) },
	[I_SPINODES] = { 'i', "sparse", false, false, 0, 1, 1, C(NOCONF) },
	[I_NREXT64] = { 'i', "nrext64", false, false, 0, 1, 1, C(NOCONF) },

	[L_AGNUM] = { 'l', "agnum", false, false, 0, UINT_MAX, NEEDS_VAL,
		C(L_DEV) },
	[L_INTERNAL] = { 'l', "internal", false, false, 0, 1, 1,
		C(L_FILE, L_DEV, L_SECTSIZE) },
	[L_SIZE] = { 'l', "size", true, false, 2 * 1024 * 1024LL,
		XFS_MAX_LOG_BYTES, NEEDS_VAL, C(NOCONF) },
	[L_VERSION] = { 'l', "version", false, false, 1, 2, NEEDS_VAL,
		C(NOCONF) },
	[L_SUNIT] = { 'l', "sunit", false, false, 1,
		XLOG_MAX_RECORD_BSIZE_B / 512, NEEDS_VAL, C(L_SU) },
	[L_SU] = { 'l', "su", true, false, 512, XLOG_MAX_RECORD_BSIZE_B,
		NEEDS_VAL, C(L_SUNIT) },
	[L_DEV] = { 'l', "logdev", false, false, 0, 0, NEEDS_VAL,
		C(L_AGNUM, L_NAME, L_INTERNAL) },
	[L_SECTSIZE] = { 'l', "sectsize", true, true, XFS_MIN_SECTORSIZE,
		XFS_MAX_SECTORSIZE, NEEDS_VAL, C(L_INTERNAL) },
	[L_FILE] = { 'l', "file", false, false, 0, 1, 1, C(L_INTERNAL) },
	[L_NAME] = { 'l', "name", false, false, 0, 0, NEEDS_VAL,
		C(L_AGNUM, L_DEV, L_INTERNAL) },
	[L_LAZYSBCNTR] = { 'l', "lazy-count", false, false, 0, 1, 1,
		C(NOCONF) },

	[M_CRC] = { 'm', "crc", false, false, 0, 1, 1, C(NOCONF) },
	[M_FINOBT] = { 'm', "finobt", false, false, 0, 1, 1, C(NOCONF) },
	[M_UUID] = { 'm', "uuid", false, false, 0, 0, NEEDS_VAL, C(NOCONF) },
	[M_RMAPBT] = { 'm', "rmapbt", false, false, 0, 1, 1, C(NOCONF) },
	[M_REFLINK] = { 'm', "reflink", false, false, 0, 1, 1, C(NOCONF) },
	[M_INOBTCNT] = { 'm', "inobtcount", false, false, 0, 1, 1, C(NOCONF) },
	[M_BIGTIME] = { 'm', "bigtime", false, false, 0, 1, 1, C(NOCONF) },

	[N_SIZE] = { 'n', "size", true, true, 1 << XFS_MIN_REC_DIRSIZE,
		XFS_MAX_BLOCKSIZE, NEEDS_VAL, C(NOCONF) },
	[N_VERSION] = { 'n', "version", false, false, 2, 2, NEEDS_VAL,
		C(NOCONF) },
	[N_FTYPE] = { 'n', "ftype", false, false, 0, 1, 1, C(NOCONF) },

	[P_FILE] = { 'p', "file", false, false, 0, 0, NEEDS_VAL, C(NOCONF) },

	[R_EXTSIZE] = { 'r', "extsize", true, false, XFS_MIN_RTEXTSIZE,
		XFS_MAX_RTEXTSIZE, NEEDS_VAL, C(NOCONF) },
	[R_SIZE] = { 'r', "size", true, false, 0, LLONG_MAX, NEEDS_VAL,
		C(NOCONF) },
	[R_DEV] = { 'r', "rtdev", false, false, 0, 0, NEEDS_VAL, C(R_NAME) },
	[R_FILE] = { 'r', "file", false, false, 0, 1, 1, C(NOCONF) },
	[R_NAME] = { 'r', "name", false, false, 0, 0, NEEDS_VAL, C(R_DEV) },
	[R_NOALIGN] = { 'r', "noalign", false, false, 0, 1, 1, C(NOCONF) },

	[S_SIZE] = { 's', "size", true, true, XFS_MIN_SECTORSIZE,
		XFS_MAX_SECTORSIZE, NEEDS_VAL, C(S_SECTSIZE, D_SECTSIZE) },
	[S_SECTSIZE] = { 's', "sectsize", true, true, XFS_MIN_SECTORSIZE,
		XFS_MAX_SECTORSIZE, NEEDS_VAL, C(S_SIZE, D_SECTSIZE) },
};

/* Config file section of each option letter. */
static const struct {
	char		cls;
	const char	*section;
} sections[] = {
	{ 'b', "block" }, { 'd', "data" }, { 'i', "inode" }, { 'l', "log" },
	{ 'm', "metadata" }, { 'n', "naming" }, { 'r', "realtime" },
	{ 's', "sector" },
};

/* seen: parsed as a number; str_seen: kept as a string for later. */
static bool seen[OPT_COUNT], str_seen[OPT_COUNT];

long long opt_blocksize, opt_sectorsize;

bool opt_seen(enum opt_id id)
{
	return seen[id] || str_seen[id];
}

void usage(void)
{
	fprintf(stderr, "Usage: %s\n\
/* blocksize */\t\t[-b size=num]\n\
/* config file */\t[-c options=xxx]\n\
/* metadata */\t\t[-m crc=0|1,finobt=0|1,uuid=xxx,rmapbt=0|1,reflink=0|1,\n\
\t\t\t    inobtcount=0|1,bigtime=0|1]\n\
/* data subvol */\t[-d agcount=n,agsize=n,file,name=xxx,size=num,\n\
\t\t\t    (sunit=value,swidth=value|su=num,sw=num|noalign),\n\
\t\t\t    sectsize=num\n\
/* force overwrite */\t[-f]\n\
/* inode size */\t[-i perblock=n|size=num,maxpct=n,attr=0|1|2,\n\
\t\t\t    projid32bit=0|1,sparse=0|1,nrext64=0|1]\n\
/* no discard */\t[-K]\n\
/* log subvol */\t[-l agnum=n,internal,size=num,logdev=xxx,version=n\n\
\t\t\t    sunit=value|su=num,sectsize=num,lazy-count=0|1]\n\
/* label */\t\t[-L label (maximum 12 characters)]\n\
/* naming */\t\t[-n size=num,version=2|ci,ftype=0|1]\n\
/* no-op info only */\t[-N]\n\
/* prototype file */\t[-p fname]\n\
/* quiet */\t\t[-q]\n\
/* realtime subvol */\t[-r extsize=num,size=num,rtdev=xxx]\n\
/* sectorsize */\t[-s size=num]\n\
/* version */\t\t[-V]\n\
\t\t\tdevicename\n\
<devicename> is required unless -d name=xxx is given.\n\
<num> is xxx (bytes), xxxs (sectors), xxxb (fs blocks), xxxk (xxx KiB),\n\
      xxxm (xxx MiB), xxxg (xxx GiB), xxxt (xxx TiB) or xxxp (xxx PiB).\n\
<value> is xxx (512 byte blocks).\n", progname);
	exit(1);
}

void illegal(const char *value, const char *opt)
{
	fprintf(stderr, "Invalid value %s for -%s option\n", value, opt);
	usage();
}

static void __attribute__((noreturn)) reqval(enum opt_id id)
{
	fprintf(stderr, "-%c %s option requires a value\n", opt_tab[id].cls,
		opt_tab[id].name);
	usage();
}

static void __attribute__((noreturn)) illegal_option(const char *value,
						     enum opt_id id,
						     const char *reason)
{
	fprintf(stderr, "Invalid value %s for -%c %s option. %s\n", value,
		opt_tab[id].cls, opt_tab[id].name, reason);
	usage();
}

/* Respecification and conflicts, as the row says. */
static void check_opt(enum opt_id id, bool as_str)
{
	const struct opt_def *o = &opt_tab[id];
	bool *flag = as_str ? &str_seen[id] : &seen[id];

	if (*flag) {
		fprintf(stderr, "-%c %s option respecified\n", o->cls,
			o->name);
		usage();
	}
	*flag = true;
	for (int i = 0; i < MAXCONF && o->conflicts[i] != NOCONF; i++) {
		int c = o->conflicts[i];

		if (seen[c] || str_seen[c]) {
			fprintf(stderr, "Cannot specify both -%c %s and -%c %s\n",
				opt_tab[c].cls, opt_tab[c].name, o->cls,
				o->name);
			usage();
		}
	}
}

/*
 * A number with an optional unit: s (sectors), b (filesystem blocks),
 * k m g t p e (powers of 1024).  -1 for anything else.
 */
long long cvtnum(long long blksize, long long sectsize, const char *s)
{
	char *sp;
	long long i;
	int shift = 0;

	errno = 0;
	i = strtoll(s, &sp, 0);
	if (i == 0 && sp == s)
		return -1LL;
	if (*sp == '\0')
		return i;
	if (sp[1] != '\0')
		return -1LL;
	if (*sp == 'b')
		return blksize ? i * blksize : -1LL;
	if (*sp == 's')
		return sectsize ? i * sectsize : -1LL;
	switch (tolower((unsigned char)*sp)) {
	case 'e': shift = 60; break;
	case 'p': shift = 50; break;
	case 't': shift = 40; break;
	case 'g': shift = 30; break;
	case 'm': shift = 20; break;
	case 'k': shift = 10; break;
	default:
		return -1LL;
	}
	return i << shift;
}

long long getnum(const char *str, enum opt_id id)
{
	const struct opt_def *o = &opt_tab[id];
	long long c;

	check_opt(id, false);
	if (!str || !*str) {
		if (o->defval == NEEDS_VAL)
			reqval(id);
		return o->defval;
	}
	if (o->convert) {
		c = cvtnum(opt_blocksize, opt_sectorsize, str);
		if (c == -1LL)
			illegal_option(str, id,
				       "Not a valid value or illegal suffix");
	} else {
		char *end;

		c = strtoll(str, &end, 0);
		if (c == 0 && end == str)
			illegal_option(str, id,
				       "Value not recognized as number.");
		if (*end)
			illegal_option(str, id,
				       "Unit suffixes are not allowed.");
	}
	if (c < o->minval)
		illegal_option(str, id, "Value is too small.");
	else if (c > o->maxval)
		illegal_option(str, id, "Value is too large.");
	if (o->pow2 && (c & (c - 1)))
		illegal_option(str, id, "Value must be a power of 2.");
	return c;
}

static char *getstr(const char *str, enum opt_id id)
{
	char *r;

	check_opt(id, true);
	if (!str || !*str)
		reqval(id);
	r = strdup(str);
	if (!r) {
		fprintf(stderr, "Out of memory while saving suboptions.\n");
		exit(1);
	}
	return r;
}

/* Apply one suboption; -EINVAL if the row is not one of this letter's. */
static int apply(enum opt_id id, const char *value, struct cli_params *cli)
{
	struct sb_feat *f = &cli->sb_feat;

	switch (id) {
	case B_SIZE: cli->blocksize = getnum(value, id); break;
	case C_OPTFILE: cli->cfgfile = getstr(value, id); break;
	case D_AGCOUNT: cli->agcount = getnum(value, id); break;
	case D_AGSIZE: cli->agsize = getstr(value, id); break;
	case D_FILE: cli->data.isfile = getnum(value, id); break;
	case D_NAME: cli->data.name = getstr(value, id); break;
	case D_SIZE: cli->dsize = getstr(value, id); break;
	case D_SUNIT: cli->dsunit = getnum(value, id); break;
	case D_SWIDTH: cli->dswidth = getnum(value, id); break;
	case D_SU: cli->dsu = getstr(value, id); break;
	case D_SW: cli->dsw = getnum(value, id); break;
	case D_NOALIGN: f->nodalign = getnum(value, id); break;
	case D_SECTSIZE: cli->sectorsize = getnum(value, id); break;
	case D_RTINHERIT:
		if (getnum(value, id))
			cli->fsx_xflags |= XFS_XFLAG_RTINHERIT_;
		else
			cli->fsx_xflags &= ~XFS_XFLAG_RTINHERIT_;
		break;
	case D_PROJINHERIT:
		cli->fsx_projid = getnum(value, id);
		cli->fsx_xflags |= XFS_XFLAG_PROJINHERIT_;
		break;
	case D_EXTSZINHERIT:
		cli->fsx_extsize = getnum(value, id);
		if (cli->fsx_extsize)
			cli->fsx_xflags |= XFS_XFLAG_EXTSZINHERIT_;
		else
			cli->fsx_xflags &= ~XFS_XFLAG_EXTSZINHERIT_;
		break;
	case D_COWEXTSIZE:
		cli->fsx_cowextsize = getnum(value, id);
		if (cli->fsx_cowextsize)
			cli->fsx_xflags |= XFS_XFLAG_COWEXTSIZE_;
		else
			cli->fsx_xflags &= ~XFS_XFLAG_COWEXTSIZE_;
		break;
	case D_DAXINHERIT:
		if (getnum(value, id))
			cli->fsx_xflags |= XFS_XFLAG_DAX_;
		else
			cli->fsx_xflags &= ~XFS_XFLAG_DAX_;
		break;
	case I_ALIGN: f->inode_align = getnum(value, id); break;
	case I_MAXPCT: cli->imaxpct = getnum(value, id); break;
	case I_PERBLOCK: cli->inopblock = getnum(value, id); break;
	case I_SIZE: cli->inodesize = getnum(value, id); break;
	case I_ATTR: f->attr_version = getnum(value, id); break;
	case I_PROJID32BIT: f->projid32bit = getnum(value, id); break;
	case I_SPINODES: f->spinodes = getnum(value, id); break;
	case I_NREXT64: f->nrext64 = getnum(value, id); break;
	case L_AGNUM: cli->logagno = getnum(value, id); break;
	case L_FILE: cli->log.isfile = getnum(value, id); break;
	case L_INTERNAL: cli->loginternal = getnum(value, id); break;
	case L_SU: cli->lsu = getstr(value, id); break;
	case L_SUNIT: cli->lsunit = getnum(value, id); break;
	case L_NAME:
	case L_DEV:
		cli->log.name = getstr(value, id);
		cli->loginternal = 0;
		break;
	case L_VERSION: f->log_version = getnum(value, id); break;
	case L_SIZE: cli->logsize = getstr(value, id); break;
	case L_SECTSIZE: cli->lsectorsize = getnum(value, id); break;
	case L_LAZYSBCNTR: f->lazy_sb_counters = getnum(value, id); break;
	case M_CRC:
		f->crcs_enabled = getnum(value, id);
		if (f->crcs_enabled)
			f->dirftype = true;
		break;
	case M_FINOBT: f->finobt = getnum(value, id); break;
	case M_UUID:
		if (!value || !*value)
			reqval(id);
		if (uuid_parse(value, cli->uuid))
			illegal(value, "m uuid");
		cli->uuid_set = true;
		break;
	case M_RMAPBT: f->rmapbt = getnum(value, id); break;
	case M_REFLINK: f->reflink = getnum(value, id); break;
	case M_INOBTCNT: f->inobtcnt = getnum(value, id); break;
	case M_BIGTIME: f->bigtime = getnum(value, id); break;
	case N_SIZE: cli->dirblocksize = getstr(value, id); break;
	case N_VERSION: {
		char *v = getstr(value, id);

		if (!strcasecmp(v, "ci"))
			f->nci = true;
		else
			f->dir_version = getnum(v, id);
		free(v);
		break;
	}
	case N_FTYPE: f->dirftype = getnum(value, id); break;
	case P_FILE:
		if (cli->protofile) {
			fprintf(stderr, "-p file option respecified\n");
			usage();
		}
		cli->protofile = strdup(value ? value : "");
		break;
	case R_EXTSIZE: cli->rtextsize = getstr(value, id); break;
	case R_FILE: cli->rt.isfile = getnum(value, id); break;
	case R_NAME:
	case R_DEV: cli->rt.name = getstr(value, id); break;
	case R_SIZE: cli->rtsize = getstr(value, id); break;
	case R_NOALIGN: f->nortalign = getnum(value, id); break;
	case S_SIZE:
	case S_SECTSIZE:
		cli->sectorsize = getnum(value, id);
		cli->lsectorsize = cli->sectorsize;
		break;
	default:
		return -EINVAL;
	}
	return 0;
}

/* Find the row of letter cls named name (len bytes). */
static int lookup(char cls, const char *name, size_t len)
{
	for (int i = 0; i < OPT_COUNT; i++)
		if (opt_tab[i].cls == cls && strlen(opt_tab[i].name) == len &&
		    !strncmp(opt_tab[i].name, name, len))
			return i;
	return -1;
}

static void __attribute__((noreturn)) unknown(char opt, const char *s)
{
	fprintf(stderr, "unknown option -%c %s\n", opt, s);
	usage();
}

/*
 * "name=value,name,..." of one option letter.  -p takes a bare file name
 * (its only suboption is implicit).
 */
void parse_subopts(char opt, char *arg, struct cli_params *cli)
{
	char *p = arg;

	if (opt == 'p') {
		apply(P_FILE, arg, cli);
		return;
	}
	while (*p) {
		char *item = p, *end = strchr(p, ','), *eq;
		char *value = NULL;
		int id;

		if (end) {
			*end = '\0';
			p = end + 1;
		} else {
			p += strlen(p);
		}
		eq = strchr(item, '=');
		if (eq)
			value = eq + 1;
		id = lookup(opt, item, eq ? (size_t)(eq - item) : strlen(item));
		if (id < 0 || apply(id, value, cli))
			unknown(opt, item);
	}
}

static int cfg_handler(void *user, const char *section, const char *name,
		       const char *value)
{
	struct cli_params *cli = user;
	char cls = 0;

	for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++)
		if (!strcasecmp(section, sections[i].section))
			cls = sections[i].cls;
	if (cls) {
		for (int i = 0; i < OPT_COUNT; i++) {
			if (opt_tab[i].cls != cls ||
			    strcasecmp(name, opt_tab[i].name))
				continue;
			if (apply(i, value, cli))
				break;
			return 1;
		}
	}
	fprintf(stderr, "%s: invalid config file option: [%s]: %s=%s\n",
		cli->cfgfile, section, name, value);
	return 0;
}

void cfgfile_parse(struct cli_params *cli)
{
	int err;

	if (!cli->cfgfile)
		return;
	err = ini_parse(cli->cfgfile, cfg_handler, cli);
	if (err) {
		if (err > 0)
			fprintf(stderr,
				"%s: Unrecognised input on line %d. Aborting.\n",
				cli->cfgfile, err);
		else if (err == -1)
			fprintf(stderr,
				"Unable to open config file %s. Aborting.\n",
				cli->cfgfile);
		else if (err == -2)
			fprintf(stderr,
				"Memory allocation failure parsing %s. Aborting.\n",
				cli->cfgfile);
		else
			fprintf(stderr,
				"Unknown error %d opening config file %s. Aborting.\n",
				err, cli->cfgfile);
		exit(1);
	}
	printf("Parameters parsed from config file %s successfully\n",
	       cli->cfgfile);
}
