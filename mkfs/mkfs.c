/*
 * mkfs.xfs: make an XFS v5 filesystem on an image file or a block device.
 *
 * The steps, in the order of xfsprogs 6.1 (so scripts see the same
 * messages and exit codes): parse the command line and the config file,
 * decide and validate every piece of geometry (geometry.c), print the
 * summary (report.c), stop there for -N, else discard the old contents
 * and write the filesystem (write.c).  Nothing is written before every
 * check has passed.
 */
#include "config.h"
#include <getopt.h>
#include <libgen.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mkfs.h"

const char *progname = "mkfs.xfs";
extern bool mkfs_is_supported;

/* The version of the xfsprogs command line this one is a drop-in for. */
#define MKFS_COMPAT_VERSION	"6.1.0"

static void cli_free(struct cli_params *cli)
{
	char *strs[] = {
		cli->cfgfile, cli->protofile, cli->dsize, cli->agsize,
		cli->dsu, cli->dirblocksize, cli->logsize, cli->lsu,
		cli->rtextsize, cli->rtsize, cli->data.name, cli->log.name,
		cli->rt.name,
	};

	for (size_t i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		free(strs[i]);
}

int main(int argc, char **argv)
{
	struct cli_params cli = {
		.loginternal = 1,
		.sb_feat = {
			.log_version = 2, .attr_version = 2, .dir_version = 2,
			.inode_align = true, .lazy_sb_counters = true,
			.projid32bit = true, .crcs_enabled = true,
			.dirftype = true, .finobt = true, .spinodes = true,
			/* unlike the reference: rmapbt on by default */
			.rmapbt = true, .reflink = true, .inobtcnt = true,
			.bigtime = true, .nrext64 = false,
		},
	};
	struct mkfs_cfg cfg = { 0 };
	bool dry_run = false, discard = true, force = false, quiet = false;
	int unsupported = 0;
	struct option longopts[] = {
		{ "unsupported", no_argument, &unsupported, 1 },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	progname = basename(argv[0]);
	setlocale(LC_ALL, "");
	uuid_generate(cfg.uuid);

	while ((c = getopt_long(argc, argv, "b:c:d:i:l:L:m:n:KNp:qr:s:CfV",
				longopts, NULL)) != EOF) {
		switch (c) {
		case 0:
			break;
		case 'C':
		case 'f':
			force = true;
			break;
		case 'b': case 'c': case 'd': case 'i': case 'l':
		case 'm': case 'n': case 'p': case 'r': case 's':
			parse_subopts(c, optarg, &cli);
			break;
		case 'L':
			if (strlen(optarg) > 12)
				illegal(optarg, "L");
			cfg.label = optarg;
			break;
		case 'N':
			dry_run = true;
			break;
		case 'K':
			discard = false;
			break;
		case 'q':
			quiet = true;
			break;
		case 'V':
			printf("%s version %s\n", progname,
			       MKFS_COMPAT_VERSION);
			exit(0);
		default:
			fprintf(stderr, "unknown option -%c %s\n", optopt, "");
			usage();
		}
	}
	mkfs_is_supported = !unsupported;
	if (argc - optind > 1) {
		fprintf(stderr, "extra arguments\n");
		usage();
	} else if (argc - optind == 1) {
		char *name = argv[optind];

		if (opt_seen(D_NAME)) {
			fprintf(stderr, "-d name option respecified\n");
			usage();
		}
		cli.data.name = strdup(name);
	}

	cfgfile_parse(&cli);
	if (cli.protofile) {
		fprintf(stderr,
			"%s: populating from a prototype file (-p) is not supported yet\n",
			progname);
		exit(1);
	}

	mkfs_decide(&cfg, &cli, dry_run, force);

	if (!quiet || dry_run) {
		mkfs_report(&cfg, &cli);
		if (dry_run)
			exit(0);
	}
	c = mkfs_write(&cfg, &cli, discard, quiet, force) ? 1 : 0;
	cli_free(&cli);
	return c;
}
