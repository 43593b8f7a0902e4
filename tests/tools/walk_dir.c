/* walkfs: directory contents (to be filled in with libfs/dir*.c). */
#include "config.h"
#include "walkfs.h"

int walk_dir(struct walk_ctx *w, const struct fs_inode *ip,
	     const struct fs_extents *el, walk_dirent_fn fn, void *priv)
{
	(void)w;
	(void)ip;
	(void)el;
	(void)fn;
	(void)priv;
	return 0;
}
