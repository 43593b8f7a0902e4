/*
 * walkfs: walk a whole filesystem through libfs, run every verifier, and
 * print what was found plus a canonical listing of the namespace.
 *
 * Usage: walkfs [-q] [-l] [-v] IMAGE
 *   -l  print the listing (one line per object, sorted by path)
 *   -q  print findings only
 *   -v  say what is being walked
 * Exit: 0 no finding, 1 findings, 2 could not open (not XFS, v4, I/O).
 */
#include "config.h"
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "walkfs.h"

int main(int argc, char **argv)
{
	struct walk_ctx w = { .out = stdout };
	struct fs_findings fl;
	struct fs *fs;
	int c, err, quiet = 0;

	while ((c = getopt(argc, argv, "qlv")) != -1) {
		switch (c) {
		case 'q':
			quiet = 1;
			break;
		case 'l':
			w.listing = true;
			break;
		case 'v':
			w.verbose = true;
			break;
		default:
			fprintf(stderr, "usage: walkfs [-q] [-l] [-v] IMAGE\n");
			return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: walkfs [-q] [-l] [-v] IMAGE\n");
		return 2;
	}
	findings_init(&fl);
	err = fs_open(argv[optind], FS_OPEN_RDONLY, &fs, &fl);
	if (err) {
		findings_print(stderr, &fl);
		if (findings_has(&fl, PR_FS_NOT_XFS))
			fprintf(stderr, "walkfs: %s: not an XFS filesystem\n",
				argv[optind]);
		else if (findings_has(&fl, PR_FS_V4))
			fprintf(stderr, "walkfs: %s: version 4 filesystems are not supported\n",
				argv[optind]);
		else
			fprintf(stderr, "walkfs: %s: %s\n", argv[optind],
				strerror(-err));
		findings_free(&fl);
		return 2;
	}
	w.fs = fs;
	w.fl = &fl;
	walk_ag_all(&w);
	walk_log(&w);
	walk_inodes(&w);
	findings_print(stdout, &fl);
	if (!quiet)
		printf("walkfs: %u AGs of %u blocks, %zu findings\n",
		       fs->geo.agcount, fs->geo.agblocks, fl.n + fl.dropped);
	err = fl.n || fl.dropped ? 1 : 0;
	fs_close(fs);
	findings_free(&fl);
	return err;
}
