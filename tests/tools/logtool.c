/*
 * logtool: drive libfs/log.c and log_format.c from the shell tests.
 *
 * Usage: logtool format [-c CYCLE] [-M] [-C] [-N] [-l LOGDEV] IMAGE
 *   Rewrite the filesystem's log with log_format_fs(): cycle CYCLE
 *   (default 1), -M 256 KiB filler records (xfs_repair's layout), -C real
 *   record CRCs, -N do not zero first.  -l names the external log device.
 * Exit: 0 done, 1 failed, 2 usage or could not open.
 */
#include "config.h"
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fs.h"
#include "log.h"

static void usage(void)
{
	fprintf(stderr,
		"usage: logtool format [-c CYCLE] [-M] [-C] [-N] [-l LOGDEV] IMAGE\n");
	exit(2);
}

static int open_fs(const char *path, const char *logpath, bool rdonly,
		   struct fs **fsp, struct fs_findings *fl)
{
	int err;

	err = fs_open(path, rdonly ? FS_OPEN_RDONLY : 0, fsp, fl);
	if (err) {
		findings_print(stderr, fl);
		fprintf(stderr, "logtool: %s: %s\n", path, strerror(-err));
		return err;
	}
	if (logpath) {
		err = dev_open(logpath, rdonly ? DEV_RDONLY : 0, &(*fsp)->logdev);
		if (err) {
			fprintf(stderr, "logtool: %s: %s\n", logpath,
				strerror(-err));
			fs_close(*fsp);
			return err;
		}
	}
	return 0;
}

static int cmd_format(int argc, char **argv)
{
	const char *logpath = NULL;
	unsigned long cycle = 1;
	unsigned flags = 0;
	struct fs_findings fl;
	struct fs *fs;
	int c, err;

	while ((c = getopt(argc, argv, "c:MCNl:")) != -1) {
		switch (c) {
		case 'c':
			cycle = strtoul(optarg, NULL, 0);
			break;
		case 'M':
			flags |= LOG_FORMAT_MAXREC;
			break;
		case 'C':
			flags |= LOG_FORMAT_CRC;
			break;
		case 'N':
			flags |= LOG_FORMAT_NOZERO;
			break;
		case 'l':
			logpath = optarg;
			break;
		default:
			usage();
		}
	}
	if (optind != argc - 1)
		usage();
	findings_init(&fl);
	if (open_fs(argv[optind], logpath, false, &fs, &fl)) {
		findings_free(&fl);
		return 2;
	}
	err = log_format_fs(fs, (uint32_t)cycle, flags);
	if (!err)
		err = dev_sync(fs->logdev ? fs->logdev : fs->dev);
	if (err)
		fprintf(stderr, "logtool: format: %s\n", strerror(-err));
	fs_close(fs);
	findings_free(&fl);
	return err ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		usage();
	optind = 2;
	if (!strcmp(argv[1], "format"))
		return cmd_format(argc, argv);
	usage();
	return 2;
}
