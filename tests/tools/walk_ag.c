/* walkfs: AG headers and AG btrees (to be filled in with libfs/ag.c). */
#include "config.h"
#include "walkfs.h"

void walk_ag_all(struct walk_ctx *w)
{
	struct fs *fs = w->fs;

	/* secondary superblocks against the primary */
	for (xfs_agnumber_t agno = 1; agno < fs->geo.agcount; agno++) {
		struct fs_buf *bp;
		struct fs_sb sec;

		if (fs_read_sb(fs, agno, w->fl, &bp))
			continue;
		sb_decode((const void *)bp->data, &sec);
		if (!buf_corrupt(bp))
			sb_compare(&fs->sb, &sec, agno, w->fl);
		buf_release(bp);
	}
}

int walk_ag_inodes(struct walk_ctx *w, xfs_agnumber_t agno,
		   walk_inode_fn fn, void *priv)
{
	(void)w;
	(void)agno;
	(void)fn;
	(void)priv;
	return 0;
}
