/*
 * A directory data block read whole, as the reference reads it when it
 * looks at a block again after its phase 3 (see rp_dblk_words in
 * repair.h).
 *
 * What goes in: the block, through the directory's extent list, read
 * with no verifier.  What comes out: whether its items parse to the end
 * of the entry region, and whether its bestfree table holds by the
 * reference's rule.  What stays true: nothing outside the block is read,
 * whatever its header and items say.
 *
 * The rule (format: xfs_dir3_data_hdr, xfs_dir2_data_unused, the data
 * entry): items are read from the end of the header to the end of the
 * entry region (the block's end, or for a block-form block the start of
 * its leaf array, which the tail's count places); a free region ends the
 * reading if it runs past the region, is empty or not 8-aligned, or its
 * tag is not its offset; an entry ends it if it runs past the region or
 * its tag is not its offset.  The bestfree table is wrong when an empty
 * slot has an offset, the lengths are not in decreasing order, two free
 * regions are adjacent, a slot names a region twice, a region as long as
 * the third slot's is in no slot, or a slot that is not empty names no
 * region.  A region is a slot's if it is at least as long as the third
 * slot and the slot (before the first with offset 0) has its offset.
 * On the way, the first entry named ".." is noted, whatever inode it
 * names (the reference takes a block's parent from it), and what the
 * first entry names, of those not marked cleared (a name starting with
 * '/'): its phase 6 knows "." by the inode it names.  The entries
 * met on the way can be handed out too (rp_dblk_entries), whatever they
 * name.
 */
#include "config.h"
#include <errno.h>
#include "dir.h"
#include "repair.h"

static unsigned be16_at(const uint8_t *p)
{
	return ((unsigned)p[0] << 8) | p[1];
}

static void dblk_walk(const struct fs_geom *g, const uint8_t *d,
		      bool block_form, struct rp_dblk_words *w,
		      rp_dblk_entry_fn fn, void *priv)
{
	const struct xfs_dir3_data_hdr *h = (const void *)d;
	const uint32_t hdr = sizeof(struct xfs_dir3_data_hdr);
	int64_t end = g->dirblksize;
	unsigned len[XFS_DIR2_DATA_FD_COUNT], off[XFS_DIR2_DATA_FD_COUNT];
	unsigned freeseen = 0;
	bool badbest = false, lastfree = false;
	int64_t p = hdr;

	w->dotdot = NULLFSINO;
	w->first = w->dot = NULLFSINO;
	w->first_ftype = 0;
	w->dotdot_ftype = 0;
	w->dotdot_off = 0;
	if (block_form) {
		const struct xfs_dir2_block_tail *t = (const void *)(d +
			g->dirblksize - sizeof(struct xfs_dir2_block_tail));
		int64_t tail = g->dirblksize - sizeof(*t);

		end = tail - (int64_t)get_be32(t->count) *
			     (int64_t)sizeof(struct xfs_dir2_leaf_entry);
		if (end > tail)
			end = tail;
	}
	for (unsigned i = 0; i < XFS_DIR2_DATA_FD_COUNT; i++) {
		len[i] = get_be16(h->best_free[i].length);
		off[i] = get_be16(h->best_free[i].offset);
		if (!len[i]) {
			badbest |= off[i] != 0;
			freeseen |= 1u << i;
		}
	}
	badbest |= len[0] < len[1] || len[1] < len[2];
	while (p < end) {
		if (p + 4 <= (int64_t)g->dirblksize &&
		    be16_at(d + p) == XFS_DIR2_DATA_FREE_TAG) {
			unsigned l = be16_at(d + p + 2);
			int found = -1;

			if (p + l > end || !l || (l & (XFS_DIR2_DATA_ALIGN - 1)))
				break;
			if (be16_at(d + p + l - 2) != (unsigned)p)
				break;
			badbest |= lastfree;
			if (l >= len[2])
				for (unsigned i = 0; i < XFS_DIR2_DATA_FD_COUNT;
				     i++) {
					if (!off[i])
						break;
					if (off[i] == (unsigned)p) {
						found = (int)i;
						break;
					}
				}
			if (found >= 0) {
				badbest |= (freeseen >> found) & 1;
				freeseen |= 1u << found;
			} else {
				badbest |= l > len[2];
			}
			p += l;
			lastfree = true;
			continue;
		}
		{
			unsigned sz;

			if (p + 9 > (int64_t)g->dirblksize)
				break;
			sz = dir2_data_entsize(g->has_ftype, d[p + 8]);
			if (p + sz > end)
				break;
			if (be16_at(d + p + sz - 2) != (unsigned)p)
				break;
			if (w->dotdot == NULLFSINO && d[p + 8] == 2 &&
			    d[p + 9] == '.' && d[p + 10] == '.') {
				w->dotdot = load_be64(d + p);
				w->dotdot_ftype = g->has_ftype ? d[p + 11] : 0;
				w->dotdot_off = (uint32_t)p;
			}
			if (w->first == NULLFSINO && d[p + 9] != '/') {
				unsigned ft = g->has_ftype ?
					      d[p + 9 + d[p + 8]] : 0;

				w->first = load_be64(d + p);
				w->first_ftype = ft < XFS_DIR3_FT_MAX ?
						 (uint8_t)ft :
						 XFS_DIR3_FT_UNKNOWN;
			}
			if (w->dot == NULLFSINO && d[p + 8] == 1 &&
			    d[p + 9] == '.')
				w->dot = load_be64(d + p);
			if (fn)
				fn(priv, d + p + 9, d[p + 8], load_be64(d + p),
				   (uint32_t)p);
			p += sz;
			lastfree = false;
		}
	}
	w->magic = get_be32(h->hdr.magic);
	w->junk = p != end;
	w->badbest = freeseen != 7 || badbest;
}

void rp_dblk_scan(const struct fs_geom *g, const uint8_t *data,
		  bool block_form, struct rp_dblk_words *w)
{
	dblk_walk(g, data, block_form, w, NULL, NULL);
}

/* Read the block at dablk through del and walk it (0 or a negative errno). */
static int dblk_read_walk(struct fs *fs, const struct fs_extents *del,
			  xfs_dablk_t dablk, bool block_form,
			  struct rp_dblk_words *w, rp_dblk_entry_fn fn,
			  void *priv)
{
	const struct fs_geom *g = &fs->geo;
	struct fs_buf *bp;
	int err;

	err = fork_read(fs, del, dablk, g->dirblkfsbs, NULL, NULL, &bp);
	if (err)
		return err;
	if (bp->len < g->dirblksize) {
		buf_release(bp);
		return -EIO;
	}
	dblk_walk(g, bp->data, block_form, w, fn, priv);
	buf_release(bp);
	return 0;
}

int rp_dblk_entries(struct fs *fs, const struct fs_extents *del,
		    xfs_dablk_t dablk, bool block_form, rp_dblk_entry_fn fn,
		    void *priv)
{
	struct rp_dblk_words w;

	return dblk_read_walk(fs, del, dablk, block_form, &w, fn, priv);
}

int rp_dblk_words(struct fs *fs, const struct fs_extents *del,
		  xfs_dablk_t dablk, bool block_form, struct rp_dblk_words *w)
{
	w->junk = w->badbest = false;
	w->dotdot = w->first = w->dot = NULLFSINO;
	return dblk_read_walk(fs, del, dablk, block_form, w, NULL, NULL);
}
