/*
 * Command line: one table of the options (letter, argument, help text)
 * from which the getopt string and the usage text are made, and the -o
 * and -c suboption tables.  Messages and exit codes for bad options are
 * the reference's.
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "opts.h"

struct optdef {
	char		c;
	const char	*arg;		/* NULL: no argument */
	const char	*help;		/* NULL: hidden; '\n' continues */
};

/* In the order the usage text lists them; hidden ones last. */
static const struct optdef options[] = {
	{ 'f', NULL, "The device is a file" },
	{ 'L', NULL, "Force log zeroing. Do this as a last resort." },
	{ 'l', "logdev", "Specifies the device where the external log resides." },
	{ 'm', "maxmem", "Maximum amount of memory to be used in megabytes." },
	{ 'n', NULL, "No modify mode, just checks the filesystem for damage.\n"
		     "(Cannot be used together with -e.)" },
	{ 'P', NULL, "Disables prefetching." },
	{ 'r', "rtdev", "Specifies the device where the realtime section resides." },
	{ 'v', NULL, "Verbose output." },
	{ 'c', "subopts", "Change filesystem parameters - use xfs_admin." },
	{ 'o', "subopts", "Override default behaviour, refer to man page." },
	{ 't', "interval", "Reporting interval in seconds." },
	{ 'd', NULL, "Repair dangerously." },
	{ 'e', NULL, "Exit with a non-zero code if any errors were repaired.\n"
		     "(Cannot be used together with -n.)" },
	{ 'V', NULL, "Reports version and exits." },
	{ 'D', NULL, NULL },	/* dump core on fatal errors */
};

#define NOPTS (sizeof(options) / sizeof(options[0]))

static const char *progname = "xfs_repair";

_Noreturn void rp_usage(void)
{
	fprintf(stderr, "Usage: %s [options] device\n\nOptions:\n", progname);
	for (size_t i = 0; i < NOPTS; i++) {
		const char *h = options[i].help, *nl;

		if (!h)
			continue;
		nl = strchr(h, '\n');
		fprintf(stderr, "  -%c %-10s%.*s\n", options[i].c,
			options[i].arg ? options[i].arg : "",
			nl ? (int)(nl - h) : (int)strlen(h), h);
		while (nl) {
			h = nl + 1;
			nl = strchr(h, '\n');
			fprintf(stderr, "%15s%.*s\n", "",
				nl ? (int)(nl - h) : (int)strlen(h), h);
		}
	}
	exit(1);
}

static void make_optstring(char *s)
{
	for (size_t i = 0; i < NOPTS; i++) {
		*s++ = options[i].c;
		if (options[i].arg)
			*s++ = ':';
	}
	*s = '\0';
}

/*
 * Numbers as the reference 6.1 reads them: strtol in base 0, nothing
 * refused -- no digits read as 0, out of range as LONG_MIN or LONG_MAX,
 * and the suboptions it keeps in an int are cut to one.
 */
static long parse_num(const char *s)
{
	return strtol(s, NULL, 0);
}

_Noreturn static void abort_msg(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, fmt, a, b);
	exit(1);
}

enum { O_ASSUME_XFS, O_IHASH, O_BHASH, O_AG_STRIDE, O_FORCE_GEO,
       O_PHASE2_THREADS, O_LEAF_SLACK, O_NODE_SLACK, O_NOQUOTA, O_NOPTS };

static char *o_names[] = {
	[O_ASSUME_XFS] = "assume_xfs",
	[O_IHASH] = "ihash",
	[O_BHASH] = "bhash",
	[O_AG_STRIDE] = "ag_stride",
	[O_FORCE_GEO] = "force_geometry",
	[O_PHASE2_THREADS] = "phase2_threads",
	[O_LEAF_SLACK] = "debug_bload_leaf_slack",
	[O_NODE_SLACK] = "debug_bload_node_slack",
	[O_NOQUOTA] = "noquota",
	[O_NOPTS] = NULL,
};

enum { C_LAZY_COUNT, C_INOBTCOUNT, C_BIGTIME, C_NREXT64, C_NOPTS };

static char *c_names[] = {
	[C_LAZY_COUNT] = "lazycount",
	[C_INOBTCOUNT] = "inobtcount",
	[C_BIGTIME] = "bigtime",
	[C_NREXT64] = "nrext64",
	[C_NOPTS] = NULL,
};

_Noreturn static void noval(char opt, const char *name)
{
	fprintf(stderr, "-%c %s option cannot have a value\n", opt, name);
	rp_usage();
}

_Noreturn static void respec(char opt, const char *name)
{
	fprintf(stderr, "-%c %s option respecified\n", opt, name);
	rp_usage();
}

/* A numeric suboption: "requires a parameter", else its value as an int. */
static int subopt_num(char opt, const char *name, const char *val)
{
	char msg[128];

	if (!val) {
		snprintf(msg, sizeof(msg), "-%c %s requires a parameter\n",
			 opt, name);
		abort_msg("%s%s", msg, "");
	}
	return (int)parse_num(val);
}

static void parse_o(struct repair_opts *o, char *p, bool *warned,
		    bool max_mem_given)
{
	while (*p) {
		char *val;
		int idx = getsubopt(&p, o_names, &val);

		switch (idx) {
		case O_ASSUME_XFS:
			if (val)
				noval('o', o_names[idx]);
			if (o->assume_xfs)
				respec('o', o_names[idx]);
			o->assume_xfs = true;
			break;
		case O_IHASH:
			fprintf(stderr, "-o ihash option has been removed and will be ignored\n");
			*warned = true;
			break;
		case O_BHASH:
			if (max_mem_given)
				abort_msg("%s%s", "-o bhash option cannot be used with -m option\n", "");
			o->bhash = subopt_num('o', o_names[idx], val);
			o->bhash_given = true;
			break;
		case O_AG_STRIDE:
			o->ag_stride = subopt_num('o', o_names[idx], val);
			break;
		case O_FORCE_GEO:
			if (val)
				noval('o', o_names[idx]);
			if (o->force_geo)
				respec('o', o_names[idx]);
			o->force_geo = true;
			break;
		case O_PHASE2_THREADS:
			o->phase2_threads = subopt_num('o', o_names[idx], val);
			break;
		case O_LEAF_SLACK:
		case O_NODE_SLACK:
			/* bulk loader tuning: only matters when rebuilding */
			subopt_num('o', o_names[idx], val);
			break;
		case O_NOQUOTA:
			o->noquota = true;
			break;
		default:
			fprintf(stderr, "unknown option -o %s\n", val ? val : "");
			rp_usage();
		}
	}
}

static void parse_c(struct repair_opts *o, char *p)
{
	while (*p) {
		char *val;
		int idx = getsubopt(&p, c_names, &val);
		char msg[96];

		switch (idx) {
		case C_LAZY_COUNT:
			o->lazy_count = subopt_num('c', c_names[idx], val);
			o->convert_lazy_count = true;
			break;
		case C_INOBTCOUNT:
		case C_BIGTIME:
		case C_NREXT64:
			if (!val) {
				snprintf(msg, sizeof(msg),
					 "-c %s requires a parameter\n",
					 c_names[idx]);
				abort_msg("%s%s", msg, "");
			}
			if (strtol(val, NULL, 0) != 1) {
				snprintf(msg, sizeof(msg),
					 "-c %s only supports upgrades\n",
					 c_names[idx]);
				abort_msg("%s%s", msg, "");
			}
			o->conversions |= idx == C_INOBTCOUNT ? RP_CONV_INOBTCOUNT :
					  idx == C_BIGTIME ? RP_CONV_BIGTIME :
					  RP_CONV_NREXT64;
			break;
		default:
			fprintf(stderr, "unknown option -c %s\n", val ? val : "");
			rp_usage();
		}
	}
}

void rp_parse_args(int argc, char **argv, struct repair_opts *o,
		   bool *warned)
{
	char optstring[2 * NOPTS + 1];
	int c;

	if (argv[0]) {
		const char *slash = strrchr(argv[0], '/');

		progname = slash ? slash + 1 : argv[0];
	}
	memset(o, 0, sizeof(*o));
	o->prefetch = true;
	o->report_interval = RP_REPORT_INTERVAL_DEFAULT;
	o->phase2_threads = 32;
	*warned = false;
	make_optstring(optstring);
	while ((c = getopt(argc, argv, optstring)) != -1) {
		switch (c) {
		case 'D':
			o->dumpcore = true;
			break;
		case 'o':
			parse_o(o, optarg, warned, o->max_mem_mb != 0);
			break;
		case 'c':
			parse_c(o, optarg);
			break;
		case 'l':
			o->logdev = optarg;
			break;
		case 'r':
			o->rtdev = optarg;
			break;
		case 'f':
			o->isa_file = true;
			break;
		case 'm':
			if (o->bhash_given)
				abort_msg("%s%s", "-m option cannot be used with -o bhash option\n", "");
			o->max_mem_mb = parse_num(optarg);
			break;
		case 'L':
			o->zap_log = true;
			break;
		case 'n':
			o->no_modify = true;
			break;
		case 'd':
			o->dangerously = true;
			break;
		case 'v':
			o->verbose++;
			break;
		case 'V':
			printf("%s version %s\n", progname, RP_COMPAT_VERSION);
			exit(0);
		case 'P':
			o->prefetch = false;
			break;
		case 't':
			o->report_interval = parse_num(optarg);
			o->interval_given = true;
			break;
		case 'e':
			o->report_corrected = true;
			break;
		default:
			rp_usage();
		}
	}
	if (argc - optind != 1)
		rp_usage();
	o->device = argv[optind];
	if (o->report_corrected && o->no_modify)
		rp_usage();
}

const char *rp_progname(void)
{
	return progname;
}
