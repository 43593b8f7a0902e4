/*
 * walkfs: directory contents.  walk_inodes.c calls walk_dir() for every
 * directory it reaches; this verifies the whole directory through
 * libfs/dir.h (every block of its form and the checks across them, see
 * dir_check) and hands each entry, "." and ".." included, to the caller
 * in on-disk order.  Findings go to the walk's list.
 */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "dir.h"
#include "walkfs.h"

int walk_dir(struct walk_ctx *w, const struct fs_inode *ip,
	     const struct fs_extents *el, walk_dirent_fn fn, void *priv)
{
	int err;

	if (w->verbose)
		fprintf(stderr, "walkfs: directory %llu\n",
			(unsigned long long)ip->ino);
	err = dir_check(w->fs, ip, el, fn, priv, w->fl);
	if (err < 0)
		fprintf(stderr, "walkfs: directory %llu: %s\n",
			(unsigned long long)ip->ino, strerror(-err));
	return err;
}
