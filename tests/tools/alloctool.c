/*
 * alloctool: the libfs allocator (alloc.h) alone, for the shell tests.
 *
 *   alloctool IMAGE alloc TARGET_FSB LEN OWNER [OFFSET] [attr|bmbt]
 *   alloctool IMAGE free FSB LEN OWNER [OFFSET] [attr|bmbt]
 *   alloctool IMAGE -        the same commands (without IMAGE), one a
 *                            line from stdin, on one open filesystem
 * OWNER is an inode number or a negative XFS_RMAP_OWN_* value (-5 is
 * the AG's own blocks); -1 asks for no reverse mapping.  alloc prints
 * the first block allocated (a filesystem block number).
 * Exit: 0 done, 1 an operation failed (message on stderr), 2 bad usage
 * or the image could not be opened.
 */
#include "config.h"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "alloc.h"

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	if (*s == '-')
		*v = (uint64_t)strtoll(s, &end, 0);
	else
		*v = strtoull(s, &end, 0);
	return errno || !*s || *end ? -1 : 0;
}

/* One command in argv form; returns the exit status. */
static int run(struct fs *fs, int argc, char **argv)
{
	struct alloc_owner o = { 0 };
	uint64_t a, len;
	xfs_fsblock_t fsb;
	int i = 4, err;

	if (argc < 4 || (strcmp(argv[0], "alloc") && strcmp(argv[0], "free")) ||
	    parse_u64(argv[1], &a) || parse_u64(argv[2], &len) ||
	    len > UINT32_MAX || parse_u64(argv[3], &o.owner))
		goto usage;
	if (i < argc && !parse_u64(argv[i], &o.offset))
		i++;
	for (; i < argc; i++) {
		if (!strcmp(argv[i], "attr"))
			o.attr_fork = true;
		else if (!strcmp(argv[i], "bmbt"))
			o.bmbt_block = true;
		else
			goto usage;
	}
	if (!strcmp(argv[0], "alloc")) {
		err = fs_alloc_extent(fs, a, (uint32_t)len, &o, &fsb);
		if (!err)
			printf("%" PRIu64 "\n", (uint64_t)fsb);
	} else {
		err = fs_free_extent(fs, a, (uint32_t)len, &o);
	}
	if (err) {
		fprintf(stderr, "alloctool: %s %s %s: %s\n", argv[0], argv[1],
			argv[2], strerror(-err));
		return 1;
	}
	return 0;
usage:
	fprintf(stderr, "usage: alloctool IMAGE alloc|free FSB LEN OWNER "
		"[OFFSET] [attr|bmbt]\n       alloctool IMAGE - < commands\n");
	return 2;
}

static int run_stdin(struct fs *fs)
{
	char line[512];
	int rc = 0;

	while (!rc && fgets(line, sizeof(line), stdin)) {
		char *av[16], *save = NULL, *t;
		int ac = 0;

		for (t = strtok_r(line, " \t\n", &save); t && ac < 16;
		     t = strtok_r(NULL, " \t\n", &save))
			av[ac++] = t;
		if (ac)
			rc = run(fs, ac, av);
	}
	return rc;
}

int main(int argc, char **argv)
{
	struct fs_findings fl;
	struct fs *fs;
	int err, rc;

	if (argc < 3) {
		run(NULL, 0, NULL);
		return 2;
	}
	findings_init(&fl);
	err = fs_open(argv[1], 0, &fs, &fl);
	if (err) {
		findings_print(stderr, &fl);
		fprintf(stderr, "alloctool: %s: %s\n", argv[1], strerror(-err));
		findings_free(&fl);
		return 2;
	}
	findings_free(&fl);
	if (!strcmp(argv[2], "-"))
		rc = run_stdin(fs);
	else
		rc = run(fs, argc - 2, argv + 2);
	err = bcache_flush(fs->bc);
	fs_close(fs);
	if (err && !rc) {
		fprintf(stderr, "alloctool: flush: %s\n", strerror(-err));
		rc = 1;
	}
	return rc;
}
