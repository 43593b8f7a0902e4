/*
 * dirtool: one directory of an image through libfs/dir.h, for the shell
 * tests of the directory code.
 *
 *   dirtool [-i] [-v] IMAGE INO      print each entry's name, one a line,
 *                                    raw bytes, in on-disk order
 *                                    (-i: dir_iterate, else dir_check;
 *                                    -v: "INO FTYPE NAME" lines)
 *   dirtool -l NAME IMAGE INO        look NAME up: print its inode number
 *
 * Findings go to stderr.  Exit: 0 no finding, 1 findings (or NAME not
 * found), 2 could not open or read the inode.
 */
#include "config.h"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "dir.h"
#include "inode.h"

static bool verbose;

static int print_ent(void *priv, const uint8_t *name, unsigned namelen,
		     xfs_ino_t ino, unsigned ftype)
{
	(void)priv;
	if (verbose)
		printf("%" PRIu64 " %u ", ino, ftype);
	fwrite(name, 1, namelen, stdout);
	putchar('\n');
	return 0;
}

int main(int argc, char **argv)
{
	const char *lookup = NULL;
	bool iterate = false;
	struct fs_findings fl;
	struct fs_inode ip;
	struct fs *fs;
	xfs_ino_t ino, found;
	int c, err;

	while ((c = getopt(argc, argv, "il:v")) != -1) {
		switch (c) {
		case 'i':
			iterate = true;
			break;
		case 'l':
			lookup = optarg;
			break;
		case 'v':
			verbose = true;
			break;
		default:
			goto usage;
		}
	}
	if (optind != argc - 2)
		goto usage;
	ino = strtoull(argv[optind + 1], NULL, 0);
	findings_init(&fl);
	err = fs_open(argv[optind], FS_OPEN_RDONLY, &fs, &fl);
	if (err) {
		findings_print(stderr, &fl);
		fprintf(stderr, "dirtool: %s: %s\n", argv[optind], strerror(-err));
		return 2;
	}
	err = inode_read(fs, ino, &ip, &fl);
	if (err) {
		findings_print(stderr, &fl);
		fprintf(stderr, "dirtool: inode %" PRIu64 ": %s\n", ino,
			strerror(-err));
		fs_close(fs);
		return 2;
	}
	if (lookup) {
		err = dir_lookup(fs, &ip, NULL, (const uint8_t *)lookup,
				 (unsigned)strlen(lookup), &found, &fl);
		if (!err)
			printf("%" PRIu64 "\n", found);
		else
			printf("%s\n", err == -ENOENT ? "ENOENT" : strerror(-err));
	} else if (iterate) {
		err = dir_iterate(fs, &ip, NULL, print_ent, NULL, &fl);
	} else {
		err = dir_check(fs, &ip, NULL, print_ent, NULL, &fl);
	}
	fflush(stdout);
	findings_print(stderr, &fl);
	if (err && err != -ENOENT)
		fprintf(stderr, "dirtool: %s\n", strerror(-err));
	c = fl.n || fl.dropped || err ? 1 : 0;
	inode_release(&ip);
	fs_close(fs);
	findings_free(&fl);
	return c;
usage:
	fprintf(stderr, "usage: dirtool [-i] [-v] [-l NAME] IMAGE INO\n");
	return 2;
}
