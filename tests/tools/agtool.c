/*
 * agtool: the AG layer of libfs alone, for tests that must not depend on
 * the other walkers.
 *
 *   agtool check IMAGE    ag_check() on every AG; print the findings
 *   agtool inodes IMAGE   every allocated inode, from the inobts, one a line
 *   agtool summary IMAGE  per AG: free blocks, longest, inodes, free
 *                         inodes, and the height of each tree
 * Exit: 0 no finding, 1 findings, 2 could not open or bad usage.
 */
#include "config.h"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "ag_check.h"

static int print_inode(void *priv, xfs_ino_t ino, bool free)
{
	(void)priv;
	(void)free;
	printf("%" PRIu64 "\n", ino);
	return 0;
}

int main(int argc, char **argv)
{
	struct fs_findings fl;
	struct fs *fs;
	const char *cmd;
	int err, rc = 0;

	if (argc != 3 || (strcmp(argv[1], "check") &&
			  strcmp(argv[1], "inodes") &&
			  strcmp(argv[1], "summary"))) {
		fprintf(stderr, "usage: agtool check|inodes|summary IMAGE\n");
		return 2;
	}
	cmd = argv[1];
	findings_init(&fl);
	err = fs_open(argv[2], FS_OPEN_RDONLY, &fs, &fl);
	if (err) {
		findings_print(stderr, &fl);
		fprintf(stderr, "agtool: %s: %s\n", argv[2], strerror(-err));
		findings_free(&fl);
		return 2;
	}
	for (xfs_agnumber_t agno = 0; agno < fs->geo.agcount; agno++) {
		struct ag_summary s;

		if (!strcmp(cmd, "inodes")) {
			err = ag_iter_inodes(fs, agno, 0, print_inode, NULL,
					     NULL);
			if (err && err != -EUCLEAN)
				rc = 2;
			continue;
		}
		err = ag_check(fs, agno, &fl, &s);
		if (err) {
			fprintf(stderr, "agtool: AG %u: %s\n", agno,
				strerror(-err));
			rc = 2;
		}
		if (!strcmp(cmd, "summary"))
			printf("ag %u freeblks %" PRIu64 " longest %" PRIu64
			       " icount %" PRIu64 " ifree %" PRIu64
			       " levels bno %u cnt %u ino %u fino %u rmap %u"
			       " refc %u\n", agno, s.freeblks, s.longest,
			       s.icount, s.ifree, s.bno.levels, s.cnt.levels,
			       s.ino.levels, s.fino.levels, s.rmap.levels,
			       s.refc.levels);
	}
	if (!strcmp(cmd, "check")) {
		findings_print(stdout, &fl);
		if (!rc && (fl.n || fl.dropped))
			rc = 1;
	}
	fs_close(fs);
	findings_free(&fl);
	return rc;
}
