/* walkfs: attributes (to be filled in with libfs/attr*.c). */
#include "config.h"
#include "walkfs.h"

int walk_attrs(struct walk_ctx *w, const struct fs_inode *ip,
	       const struct fs_extents *ael, walk_attr_fn fn, void *priv)
{
	(void)w;
	(void)ip;
	(void)ael;
	(void)fn;
	(void)priv;
	return 0;
}
