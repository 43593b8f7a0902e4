/*
 * Looking a name up by its hash, as the kernel does: short form by a
 * scan; block form through the block's own leaf array; leaf form through
 * the LEAF1 block; node form down the dabtree to a LEAFN block, then
 * along forw while the hash continues.  Each leaf entry with the name's
 * hash points at a candidate entry, whose name decides.  On an ascii-ci
 * filesystem an exact match wins over a case-insensitive one.
 *
 * Only the blocks on the way are read and checked; nothing here trusts a
 * count or an address without bounding it by its block.
 */
#include "config.h"
#include <errno.h>
#include "dabtree.h"
#include "dir2_priv.h"

struct lookup {
	const uint8_t	*name;
	unsigned	len;
	bool		ci;
	xfs_ino_t	ino;
	int		match;		/* 0 none, 1 case-insensitive, 2 exact */
};

/* Compare one candidate; returns true when the search may stop. */
static bool lookup_try(struct lookup *l, const uint8_t *name, unsigned len,
		       xfs_ino_t ino)
{
	if (len == l->len && !memcmp(name, l->name, len)) {
		l->ino = ino;
		l->match = 2;
		return true;
	}
	if (l->ci && !l->match && dir_names_match(true, name, len, l->name,
						  l->len)) {
		l->ino = ino;
		l->match = 1;
	}
	return false;
}

static int sf_cb(void *priv, const uint8_t *name, unsigned namelen,
		 xfs_ino_t ino, unsigned ftype)
{
	(void)ftype;
	return lookup_try(priv, name, namelen, ino) ? 1 : 0;
}

/* The entry at off of a data (or block-form) block, if one is there. */
static bool lookup_entry(struct lookup *l, const struct dir_blk *b,
			 uint32_t off, uint32_t end)
{
	const uint8_t *d = b->data;
	unsigned namelen;

	if (off < sizeof(struct xfs_dir3_data_hdr) || off % 8 || off >= end ||
	    end - off < 9)
		return false;
	if (load_be16(d + off) == XFS_DIR2_DATA_FREE_TAG)
		return false;
	namelen = d[off + 8];
	if (dir2_data_entsize(b->g->has_ftype, namelen) > end - off)
		return false;
	return lookup_try(l, d + off + 9, namelen, load_be64(d + off));
}

static int lookup_block(struct dir_ctx *c, struct lookup *l, xfs_dahash_t hash)
{
	uint32_t len = c->g->dirblksize;
	const struct xfs_dir2_block_tail *bt;
	const struct xfs_dir2_leaf_entry *ents;
	struct fs_buf *bp;
	struct dir_blk b;
	uint32_t count, end, i;
	unsigned nerr = 0;
	int err;

	err = dir_read_blk(c, 0, &dir3_block_buf_ops, &bp, &b);
	if (err)
		return err == -ENODATA ? -EUCLEAN : err;
	if (!dir3_hdr_check(&b, XFS_DIR3_BLOCK_MAGIC, c->fl, &nerr)) {
		buf_release(bp);
		return -EUCLEAN;
	}
	bt = (const void *)(b.data + len - sizeof(*bt));
	count = get_be32(bt->count);
	if (count > (len - sizeof(struct xfs_dir3_data_hdr) - sizeof(*bt)) /
		    sizeof(*ents)) {
		buf_release(bp);
		return -EUCLEAN;
	}
	end = len - sizeof(*bt) - count * sizeof(*ents);
	ents = (const void *)(b.data + end);
	for (i = dir_leaf_lower_bound(ents, count, hash);
	     i < count && get_be32(ents[i].hashval) == hash; i++) {
		uint64_t byte = (uint64_t)get_be32(ents[i].address) <<
				XFS_DIR2_DATA_ALIGN_LOG;

		if (byte && byte < end && lookup_entry(l, &b, (uint32_t)byte, end))
			break;
	}
	buf_release(bp);
	return 0;
}

/*
 * Candidates from the leaf entries [i, n) with this hash: each address
 * names a data block and an offset in it.  The data block last read is
 * kept, as equal hashes usually point into few blocks.
 */
static int lookup_addrs(struct dir_ctx *c, struct lookup *l,
			const struct xfs_dir2_leaf_entry *ents, uint32_t n,
			xfs_dahash_t hash, bool *done)
{
	const struct fs_geom *g = c->g;
	struct fs_buf *bp = NULL;
	struct dir_blk b;
	uint32_t have_db = UINT32_MAX;
	bool have_ok = false;
	int err = 0;

	*done = false;
	for (uint32_t i = dir_leaf_lower_bound(ents, n, hash);
	     i < n && get_be32(ents[i].hashval) == hash; i++) {
		uint64_t byte = (uint64_t)get_be32(ents[i].address) <<
				XFS_DIR2_DATA_ALIGN_LOG;
		uint32_t db = (uint32_t)(byte >> (g->blocklog + g->dirblklog));
		uint32_t off = (uint32_t)(byte & (g->dirblksize - 1));

		if (!byte || byte >= XFS_DIR2_LEAF_OFFSET)
			continue;
		if (db != have_db) {
			unsigned nerr = 0;

			if (bp)
				buf_release(bp);
			bp = NULL;
			have_db = db;
			err = dir_read_blk(c, dir_db_to_dablk(g, db),
					   &dir3_data_buf_ops, &bp, &b);
			if (err == -ENOMEM)
				break;
			err = 0;
			have_ok = bp && dir3_hdr_check(&b, XFS_DIR3_DATA_MAGIC,
						       c->fl, &nerr);
		}
		if (have_ok && lookup_entry(l, &b, off, g->dirblksize)) {
			*done = true;
			break;
		}
	}
	if (bp)
		buf_release(bp);
	return err;
}

static int lookup_leaf(struct dir_ctx *c, struct lookup *l, xfs_dahash_t hash)
{
	struct dir_leaf_info li;
	struct fs_buf *bp;
	struct dir_blk b;
	bool done;
	int err;

	err = dir_read_blk(c, dir_leaf_dablk(c->g), &dir3_leaf1_buf_ops, &bp,
			   &b);
	if (err)
		return err == -ENODATA ? -EUCLEAN : err;
	dir3_leaf_check(&b, XFS_DIR3_LEAF1_MAGIC, c->fl, &li);
	err = li.magic_ok ? lookup_addrs(c, l, li.ents, li.count, hash, &done)
			  : -EUCLEAN;
	buf_release(bp);
	return err;
}

static int lookup_node(struct dir_ctx *c, struct lookup *l, xfs_dahash_t hash)
{
	const struct fs_geom *g = c->g;
	struct dabtree t = {
		.fs = c->fs, .ip = c->ip, .el = c->el, .objtype = OBJ_DIR,
		.blkfsbs = g->dirblkfsbs, .root = dir_leaf_dablk(g),
		.lo = dir_leaf_dablk(g), .hi = dir_free_dablk(g),
		.leaf_magic = XFS_DIR3_LEAFN_MAGIC,
		.leaf_ops = &dir3_leafn_buf_ops,
	};
	xfs_dablk_t blk;
	int err;

	err = dabtree_lookup(&t, hash, &blk, c->fl);
	if (err)
		return err == -ENOENT ? 0 : err;
	/* equal hashes may run on into the next leaves; bound the walk */
	for (unsigned step = 0; step < 1u << 16; step++) {
		struct dir_leaf_info li;
		struct fs_buf *bp;
		struct dir_blk b;
		bool done = false, more;

		if (blk < t.lo || blk >= t.hi)
			return -EUCLEAN;
		err = dir_read_blk(c, blk, &dir3_leafn_buf_ops, &bp, &b);
		if (err)
			return err == -ENODATA ? -EUCLEAN : err;
		dir3_leaf_check(&b, XFS_DIR3_LEAFN_MAGIC, c->fl, &li);
		if (!li.magic_ok) {
			buf_release(bp);
			return -EUCLEAN;
		}
		err = lookup_addrs(c, l, li.ents, li.count, hash, &done);
		more = !err && !done && li.count && li.last == hash && li.forw;
		blk = li.forw;
		buf_release(bp);
		if (!more)
			return err;
	}
	return -EUCLEAN;
}

int dir_lookup(struct fs *fs, const struct fs_inode *ip,
	       const struct fs_extents *el, const uint8_t *name, unsigned len,
	       xfs_ino_t *ino, struct fs_findings *fl)
{
	struct dir_ctx c = {
		.fs = fs, .g = &fs->geo, .ip = ip, .el = el, .fl = fl,
		.ci = sb_has_asciici(&fs->sb),
	};
	struct lookup l = { .name = name, .len = len, .ci = c.ci };
	xfs_dahash_t hash = dir_hashname(c.ci, name, len);
	int err = 0;

	if (!len || len > 255)
		return -ENOENT;
	if (ip->format == XFS_DINODE_FMT_LOCAL) {
		dir2_sf_check(c.g, c.ci, ip->ino, ip->dfork, ip->dfork_size,
			      ip->size, sf_cb, &l, fl, NULL);
		goto out;
	}
	if (ip->format != XFS_DINODE_FMT_EXTENTS &&
	    ip->format != XFS_DINODE_FMT_BTREE)
		return -EUCLEAN;
	if (!el) {
		err = fork_extents(fs, ip, XFS_DATA_FORK, &c.own_el, NULL, NULL,
				   fl);
		if (err)
			return err;
		c.own = true;
		c.el = &c.own_el;
	}
	switch (dir_form_of(c.g, c.el)) {
	case DIR_FORM_NONE:
		err = -EUCLEAN;
		break;
	case DIR_FORM_BLOCK:
		err = lookup_block(&c, &l, hash);
		break;
	case DIR_FORM_LEAF:
		err = lookup_leaf(&c, &l, hash);
		break;
	case DIR_FORM_NODE:
		err = lookup_node(&c, &l, hash);
		break;
	}
	if (c.own)
		extents_free(&c.own_el);
out:
	if (err)
		return err;
	if (!l.match)
		return -ENOENT;
	*ino = l.ino;
	return 0;
}
