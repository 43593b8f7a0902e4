/*
 * walkfs: the secondary superblocks, then every AG's headers and btrees
 * through ag_check() (libfs/ag_check.h), and the allocated inodes of an
 * AG from its inobt for walk_inodes.c.
 */
#include "config.h"
#include <inttypes.h>
#include <string.h>
#include "walkfs.h"
#include "ag_check.h"

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

	for (xfs_agnumber_t agno = 0; agno < fs->geo.agcount; agno++) {
		struct ag_summary s;
		int err = ag_check(fs, agno, w->fl, &s);

		if (err) {
			fprintf(stderr, "walkfs: AG %u: %s\n", agno,
				strerror(-err));
			continue;
		}
		w->nblocks_btree += s.btree_blocks;
		if (w->verbose)
			fprintf(w->out, "ag %u: %" PRIu64 " free blocks, "
				"longest %" PRIu64 ", %" PRIu64 " inodes "
				"(%" PRIu64 " free), btree blocks %" PRIu64
				" (bno %u cnt %u ino %u fino %u rmap %u "
				"refc %u levels)\n",
				agno, s.freeblks, s.longest, s.icount, s.ifree,
				s.btree_blocks, s.bno.levels, s.cnt.levels,
				s.ino.levels, s.fino.levels, s.rmap.levels,
				s.refc.levels);
	}
}

struct inode_cb {
	walk_inode_fn	fn;
	void		*priv;
};

static int inode_cb(void *priv, xfs_ino_t ino, bool free)
{
	struct inode_cb *cb = priv;

	(void)free;
	return cb->fn(cb->priv, ino);
}

/*
 * walk_ag_all() has checked the trees and reported their problems, so
 * the walk here drops its findings rather than repeat them.
 */
int walk_ag_inodes(struct walk_ctx *w, xfs_agnumber_t agno,
		   walk_inode_fn fn, void *priv)
{
	struct inode_cb cb = { fn, priv };

	return ag_iter_inodes(w->fs, agno, 0, inode_cb, &cb, NULL);
}
