/*
 * xfs_db: options, opening the filesystem, and the command loop.
 *
 *   xfs_db [-ifFrxV] [-p prog] [-l logdev] [-R rtdev] [-c cmd]... device
 *
 * With -c, the commands run in order and the tool exits.  Otherwise it
 * reads commands from the terminal with libedit (history, line editing)
 * and the prompt "xfs_db> ", or from a pipe without a prompt.
 */
#include "config.h"
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <editline/readline.h>
#include "db.h"
#include "format/ondisk.h"

struct db db;

const struct fld_objtype *typ_sb, *typ_agf, *typ_agi, *typ_agfl, *typ_inode,
	*typ_data, *typ_dir3, *typ_attr3, *typ_symlink, *typ_bmapbtd,
	*typ_bmapbta, *typ_text, *typ_log;

void loop_cmds_init(void);


static void usage(void)
{
	fprintf(stderr, "Usage: %s [-ifFrxV] [-p prog] [-l logdev] [-c cmd]... "
		"device\n", db.progname);
	exit(1);
}

static void types_init(void)
{
	typ_sb = fld_objtype_find("sb");
	typ_agf = fld_objtype_find("agf");
	typ_agi = fld_objtype_find("agi");
	typ_agfl = fld_objtype_find("agfl");
	typ_inode = fld_objtype_find("inode");
	typ_data = fld_objtype_find("data");
	typ_dir3 = fld_objtype_find("dir3");
	typ_attr3 = fld_objtype_find("attr3");
	typ_symlink = fld_objtype_find("symlink");
	typ_bmapbtd = fld_objtype_find("bmapbtd");
	typ_bmapbta = fld_objtype_find("bmapbta");
	typ_text = fld_objtype_find("text");
	typ_log = fld_objtype_find("log");
}

static int open_fs(const char *path)
{
	struct fs_findings fl;
	uint8_t first[BBSIZE];
	struct fs_dev *dev;
	int err;

	err = dev_open(path, db.readonly ? DEV_RDONLY : 0, &dev);
	if (err) {
		fprintf(stderr, "%s: %s\n", path, strerror(-err));
		fprintf(stderr, "\nfatal error -- couldn't initialize XFS "
			"library\n");
		return -1;
	}
	/* the reference reads the largest possible sector first */
	if (dev->size < 32768 || dev_pread(dev, first, sizeof(first), 0)) {
		if (dev->size < 32768)
			fprintf(stderr, "%s: error - read only %llu of 32768 "
				"bytes\n", db.progname,
				(unsigned long long)dev->size);
		fprintf(stderr, "%s: %s is invalid (cannot read first 512 "
			"bytes)\n", db.progname, path);
		dev_close(dev);
		return -1;
	}
	if (load_be32(first) != XFS_SB_MAGIC) {
		fprintf(stderr, "%s: %s is not a valid XFS filesystem "
			"(unexpected SB magic number 0x%08x)\n", db.progname,
			path, load_be32(first));
		if (!db.force)
			fprintf(stderr, "Use -F to force a read attempt.\n");
		else if ((load_be16(first + 4) & XFS_SB_VERSION_NUMBITS) <
			 XFS_SB_VERSION_4)
			fprintf(stderr, "%s: V1 inodes unsupported. Please try "
				"an older xfsprogs.\n", db.progname);
		else
			fprintf(stderr, "%s: %s is not a valid V5 XFS "
				"filesystem\n", db.progname, path);
		dev_close(dev);
		return -1;
	}
	/*
	 * A v5 version number with bits v5 requires missing or bits it does
	 * not know: the reference will not open it, even with -F.
	 */
	{
		struct fs_sb sb;

		sb_decode((const struct xfs_dsb *)first, &sb);
		if (sb_is_v5(&sb) && !sb_good_version(&sb)) {
			fprintf(stderr, "%s: Unsupported features detected. "
				"Please try a newer xfsprogs.\n", db.progname);
			dev_close(dev);
			return -1;
		}
	}
	findings_init(&fl);
	err = fs_open_dev(dev, FS_OPEN_FORCE |
			  (db.readonly ? FS_OPEN_RDONLY : 0), &db.fs, &fl);
	findings_free(&fl);
	if (err) {
		fprintf(stderr, "%s: %s is not a valid V5 XFS filesystem\n",
			db.progname, path);
		return -1;
	}
	if (!db.fs->sb_ok) {
		/* a damaged primary: use its geometry anyway, as -F does */
		geom_init(&db.fs->geo, &db.fs->sb);
		db.fs->sb_ok = true;
	}
	if (db.logname) {
		err = dev_open(db.logname, db.readonly ? DEV_RDONLY : 0,
			       &db.fs->logdev);
		if (err) {
			fprintf(stderr, "%s: %s\n", db.logname, strerror(-err));
			fprintf(stderr, "\nfatal error -- couldn't initialize "
				"XFS library\n");
			fs_close(db.fs);
			db.fs = NULL;
			return -1;
		}
	}
	return 0;
}

static void interactive_loop(void)
{
	char prompt[64];
	char line[8192];

	snprintf(prompt, sizeof(prompt), "%s> ", db.progname);
	if (isatty(0)) {
		char *l;

		using_history();
		while (!db.quit && (l = readline(prompt))) {
			if (*l)
				add_history(l);
			run_command_line(l);
			free(l);
		}
		return;
	}
	while (!db.quit && fgets(line, sizeof(line), stdin))
		run_command_line(line);
}

int main(int argc, char **argv)
{
	char **cmds = NULL;
	int ncmds = 0, c, i;
	const char *base = strrchr(argv[0], '/');

	db.progname = base ? base + 1 : argv[0];
	/* getopt's own messages name argv[0], as the reference's do */
	while ((c = getopt(argc, argv, "c:fFip:rxVl:R:")) != EOF) {
		switch (c) {
		case 'c':
			cmds = realloc(cmds, (ncmds + 1) * sizeof(*cmds));
			if (!cmds)
				return 1;
			cmds[ncmds++] = optarg;
			break;
		case 'f':
		case 'i':
			break;
		case 'F':
			db.force = true;
			break;
		case 'p':
			db.progname = optarg;
			break;
		case 'r':
			db.readonly = true;
			break;
		case 'x':
			db.expert = true;
			break;
		case 'V':
			printf("%s version 6.1.0\n", db.progname);
			return 0;
		case 'l':
			db.logname = optarg;
			break;
		case 'R':
			/* the realtime device: accepted (no command reads it) */
			break;
		default:
			usage();
		}
	}
	if (optind + 1 != argc)
		usage();
	db.fsdevice = argv[optind];
	types_init();
	loop_cmds_init();
	cursor_cmds_init();
	nav_cmds_init();
	print_cmds_init();
	misc_cmds_init();
	write_cmds_init();
	fs_cmds_init();
	bt_cmds_init();
	blockmap_cmds_init();
	dir_cmds_init();
	attr_cmds_init();
	/*
	 * xfs_db reads a block or a few at a time: a small buffer cache keeps
	 * whole-filesystem scans lean (XFSKIT_CACHE_MB still overrides).
	 */
	setenv("XFSKIT_CACHE_MB", "32", 0);
	if (open_fs(db.fsdevice)) {
		free(cmds);
		return 1;
	}
	for (i = 0; i < ncmds && !db.quit; i++)
		run_command_line(cmds[i]);
	if (!ncmds)
		interactive_loop();
	fflush(stdout);
	while (db.nstack)
		cur_pop();
	free(db.stack);
	free(cmds);
	fs_close(db.fs);
	return db.exitcode;
}
