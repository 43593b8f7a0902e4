/*
 * Node-form directories (directories.asciidoc "Node Directories",
 * "B+tree Directories"): the leaf space holds a dabtree whose root is at
 * XFS_DIR2_LEAF_OFFSET (a node block, or a single LEAFN block while the
 * tree is one leaf), the free space holds the free index.
 *
 * In: the data blocks already read by dir2.c (records and bests).  The
 * dabtree walk hands every LEAFN block over, in hash order; each is
 * checked on its own and its entries matched against the records.  Then
 * every free index block is checked on its own, its bests against the
 * data blocks, and every data block must be covered by a free block.
 * Leaf-space blocks the walk did not reach are reported.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include "dabtree.h"
#include "dir2_priv.h"

static int leafn_cb(struct dabtree *t, xfs_dablk_t blk, struct fs_buf *bp,
		    struct da_leaf_info *li, void *priv)
{
	struct dir_ctx *c = priv;
	struct dir_leaf_info info;
	struct dir_blk b = {
		.g = c->g, .ci = c->ci, .ino = c->ip->ino, .dablk = blk,
		.daddr = bp->daddr, .data = bp->data,
	};
	int err;

	(void)t;
	err = u32vec_push(&c->leaf_seen, blk);
	if (err)
		return err;
	if (bp->len < c->g->dirblksize) {
		c->leaf_incomplete = true;
		return 0;
	}
	dir3_leaf_check(&b, XFS_DIR3_LEAFN_MAGIC, c->fl, &info);
	if (!info.magic_ok) {
		c->leaf_incomplete = true;
		return 0;
	}
	dir_leaf_xref(c, &b, &info);
	li->count = info.count;
	li->first = info.first;
	li->last = info.last;
	li->empty_known = !info.count;
	return 0;
}

static int node_cb(struct dabtree *t, xfs_dablk_t blk, unsigned level,
		   void *priv)
{
	struct dir_ctx *c = priv;

	(void)t;
	(void)level;
	return u32vec_push(&c->leaf_seen, blk);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static bool u32_in(const struct u32vec *a, uint32_t x)
{
	return a->n && bsearch(&x, a->v, a->n, sizeof(*a->v), cmp_u32);
}

/* What each free block said, for the coverage check. */
struct free_seen {
	uint32_t	idx;		/* index in the free space */
	uint32_t	nvalid;
	bool		ok;
};

static int dir_free_index(struct dir_ctx *c)
{
	const struct fs_geom *g = c->g;
	uint32_t maxbests = dir3_free_maxbests(g);
	struct free_seen *fs;
	size_t nfs = 0;
	int err = 0;

	fs = calloc(c->free.n ? c->free.n : 1, sizeof(*fs));
	if (!fs)
		return -ENOMEM;
	for (size_t i = 0; i < c->free.n; i++) {
		xfs_dablk_t dablk = c->free.v[i];
		struct dir_free_info fi;
		struct fs_buf *bp;
		struct dir_blk b;
		uint32_t base;

		err = dir_read_blk(c, dablk, &dir3_free_buf_ops, &bp, &b);
		if (err) {
			if (err == -ENOMEM)
				break;
			err = 0;
			continue;
		}
		fs[nfs].idx = (dablk - dir_free_dablk(g)) >> g->dirblklog;
		dir3_free_check(&b, c->fl, &fi);
		fs[nfs].ok = fi.magic_ok;
		fs[nfs].nvalid = fi.nvalid;
		nfs++;
		if (!fi.magic_ok) {
			buf_release(bp);
			continue;
		}
		base = fs[nfs - 1].idx * maxbests;
		for (uint32_t j = 0; j < fi.nvalid; j++) {
			const struct dir_dblk *d = dir_find_dblk(c, base + j);
			uint16_t have = get_be16(fi.bests[j]);
			uint16_t want = d ? d->best : XFS_DIR2_NULL_BESTFREE;

			if ((d && !d->ok) || (!d && dir_db_damaged(c, base + j)) ||
			    have == want)
				continue;
			struct fs_objref o = dir_blk_obj(&b,
				sizeof(struct xfs_dir3_free_hdr) + j * sizeof(be16));

			fs_report_val(c->fl, PR_DIR_FREE_BAD_BEST, &o, "bests",
				      want, have);
		}
		buf_release(bp);
	}
	for (size_t i = 0; i < c->ndblk && !err; i++) {
		uint32_t db = c->dblk[i].db, idx = db / maxbests;
		size_t k;

		for (k = 0; k < nfs && fs[k].idx != idx; k++)
			;
		if (k < nfs && (!fs[k].ok || db - idx * maxbests < fs[k].nvalid))
			continue;
		struct fs_objref o = OBJREF_INIT(OBJ_DIR);

		o.ino = c->ip->ino;
		o.index = (uint64_t)dir_db_to_dablk(g, db) << g->blocklog;
		fs_report(c->fl, PR_DIR_FREE_MISSING, &o, NULL);
	}
	free(fs);
	return err;
}

int dir_node_check(struct dir_ctx *c)
{
	const struct fs_geom *g = c->g;
	struct dabtree t = {
		.fs = c->fs,
		.ip = c->ip,
		.el = c->el,
		.objtype = OBJ_DIR,
		.blkfsbs = g->dirblkfsbs,
		.root = dir_leaf_dablk(g),
		.lo = dir_leaf_dablk(g),
		.hi = dir_free_dablk(g),
		.leaf_magic = XFS_DIR3_LEAFN_MAGIC,
		.leaf_ops = &dir3_leafn_buf_ops,
	};
	struct da_walk_stats st;
	int err;

	err = dabtree_walk(&t, leafn_cb, node_cb, c, c->fl, &st);
	if (err)
		return err;
	if (st.skipped)
		c->leaf_incomplete = true;
	if (c->leaf_seen.n)
		qsort(c->leaf_seen.v, c->leaf_seen.n, sizeof(uint32_t),
		      cmp_u32);
	/* with parts of the tree unreadable, unreached blocks prove nothing */
	for (size_t i = 0; i < c->leaf.n && !st.skipped; i++) {
		if (u32_in(&c->leaf_seen, c->leaf.v[i]))
			continue;
		struct fs_objref o = OBJREF_INIT(OBJ_DIR);

		o.ino = c->ip->ino;
		o.index = (uint64_t)c->leaf.v[i] << g->blocklog;
		fs_report(c->fl, PR_DIR_EXTRA_BLOCK, &o, NULL);
	}
	return dir_free_index(c);
}
