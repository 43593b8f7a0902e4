/*
 * Changing an AG's short-pointer btrees (bnobt, cntbt, rmapbt) the way
 * the kernel's generic btree code does (btrees.asciidoc for the block
 * layout; the algorithm of Linux 6.1 fs/xfs/libxfs/xfs_btree.c).
 *
 * In: an AG opened by alloc_ag_open() (verified headers and trees).
 * Out: changed private block copies in the AG, the AGF's roots, levels,
 * longest, btreeblks and rmap_blocks, and AGFL entries taken or given
 * back for tree blocks.  Nothing reaches the cache until the commit.
 *
 * A cursor keeps, per level, the block and the 1-based entry index the
 * path goes through.  Inserting into a full block first tries to move
 * one entry to the right sibling, then to the left one, and only then
 * splits the block in two (a new root when the root splits); deleting
 * below half full borrows one entry from the right sibling, else from
 * the left, else joins with the left (or right) sibling and removes
 * the emptied block from the parent, up to removing a one-child root.
 * In the rmapbt every node entry carries a low and a high key, kept in
 * step with the children after every change.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "alloc_int.h"

#define NULLAGBLK	((xfs_agblock_t)-1)
#define KEY_MAX		(2 * sizeof(struct xfs_rmap_key))

/* ---- blocks held by the AG ---- */

static struct xfs_btree_sblock *hdr(const struct alloc_blk *b)
{
	return (struct xfs_btree_sblock *)b->data;
}

static struct alloc_blk *blk_find(struct alloc_ag *ag, xfs_agblock_t agbno)
{
	for (unsigned i = 0; i < ag->nblks; i++)
		if (ag->blks[i]->agbno == agbno)
			return ag->blks[i];
	return NULL;
}

static int blk_add(struct alloc_ag *ag, struct alloc_blk *b)
{
	if (ag->nblks == ag->blks_cap) {
		unsigned cap = ag->blks_cap ? 2 * ag->blks_cap : 16;
		struct alloc_blk **v = realloc(ag->blks, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		ag->blks = v;
		ag->blks_cap = cap;
	}
	ag->blks[ag->nblks++] = b;
	return 0;
}

static int blk_read(struct alloc_ag *ag, const struct btree_ops *ops,
		    xfs_agblock_t agbno, struct alloc_blk **out)
{
	struct fs *fs = ag->fs;
	struct alloc_blk *b = blk_find(ag, agbno);
	struct fs_findings fl;
	struct fs_buf *bp;
	int err;

	if (b) {
		if (b->ops != ops)
			return -EFSCORRUPTED;
		*out = b;
		return 0;
	}
	if (!agbno_valid(&fs->geo, ag->agno, agbno))
		return -EFSCORRUPTED;
	findings_init(&fl);
	err = fs_read_agblocks(fs, ag->agno, agbno, 1, ops->buf_ops, &fl, &bp);
	findings_free(&fl);
	if (err)
		return err;
	if (buf_corrupt(bp)) {
		buf_release(bp);
		return -EFSCORRUPTED;
	}
	b = calloc(1, sizeof(*b));
	if (b)
		b->data = malloc(bp->len);
	if (!b || !b->data) {
		if (b)
			free(b);
		buf_release(bp);
		return -ENOMEM;
	}
	memcpy(b->data, bp->data, bp->len);
	b->agbno = agbno;
	b->ops = ops;
	b->bp = bp;
	if ((err = blk_add(ag, b))) {
		free(b->data);
		free(b);
		buf_release(bp);
		return err;
	}
	*out = b;
	return 0;
}

/*
 * A fresh block of a tree (xfs_btree_init_block): only the header is
 * written.  Like the kernel's and libxfs's buffer for it, the rest keeps
 * what the buffer held: this operation's copy if the block was freed
 * in it, else the cache's contents (zeroes for a block not cached).
 */
static int blk_new(struct alloc_ag *ag, const struct btree_ops *ops,
		   xfs_agblock_t agbno, unsigned level, unsigned numrecs,
		   struct alloc_blk **out)
{
	const struct fs_geom *g = &ag->fs->geo;
	struct alloc_blk *b = blk_find(ag, agbno);
	struct xfs_btree_sblock *h;
	int err;

	if (!b) {
		b = calloc(1, sizeof(*b));
		if (!b || !(b->data = malloc(g->blocksize))) {
			free(b);
			return -ENOMEM;
		}
		b->agbno = agbno;
		err = bcache_get(ag->fs->bc, agb_to_daddr(g, ag->agno, agbno),
				 g->blocksize, NULL, &b->bp);
		if (!err) {
			memcpy(b->data, b->bp->data, g->blocksize);
			b->fresh = true;
			err = blk_add(ag, b);
		}
		if (err) {
			buf_release(b->bp);
			free(b->data);
			free(b);
			return err;
		}
	}
	b->ops = ops;
	h = hdr(b);
	memset(h, 0, sizeof(*h));
	put_be32(&h->bb_magic, ops->magic);
	put_be16(&h->bb_level, level);
	put_be16(&h->bb_numrecs, numrecs);
	put_be32(&h->bb_leftsib, NULLAGBLK);
	put_be32(&h->bb_rightsib, NULLAGBLK);
	put_be64(&h->bb_blkno, agb_to_daddr(g, ag->agno, agbno));
	memcpy(&h->bb_uuid, &g->meta_uuid, sizeof(h->bb_uuid));
	put_be32(&h->bb_owner, ag->agno);
	b->dirty = true;
	*out = b;
	return 0;
}

/*
 * A block given back to the free list: the kernel invalidates its
 * buffer, so whatever was changed in it is not written.
 */
static void blk_stale(struct alloc_blk *b)
{
	b->dirty = false;
	b->ops = NULL;
}

/* ---- block layout ---- */

static unsigned numrecs(const struct alloc_blk *b)
{
	return get_be16(hdr(b)->bb_numrecs);
}

static void set_numrecs(struct alloc_blk *b, unsigned n)
{
	put_be16(&hdr(b)->bb_numrecs, n);
	b->dirty = true;
}

static unsigned blk_level(const struct alloc_blk *b)
{
	return get_be16(hdr(b)->bb_level);
}

static xfs_agblock_t leftsib(const struct alloc_blk *b)
{
	return get_be32(hdr(b)->bb_leftsib);
}

static xfs_agblock_t rightsib(const struct alloc_blk *b)
{
	return get_be32(hdr(b)->bb_rightsib);
}

static void set_leftsib(struct alloc_blk *b, xfs_agblock_t v)
{
	put_be32(&hdr(b)->bb_leftsib, v);
	b->dirty = true;
}

static void set_rightsib(struct alloc_blk *b, xfs_agblock_t v)
{
	put_be32(&hdr(b)->bb_rightsib, v);
	b->dirty = true;
}

static unsigned maxrecs(const struct alloc_cur *cur, unsigned level)
{
	return btree_maxrecs(&cur->ag->fs->geo, cur->ops, level == 0);
}

static unsigned minrecs(const struct alloc_cur *cur, unsigned level)
{
	return btree_minrecs(&cur->ag->fs->geo, cur->ops, level == 0);
}

/* One node entry's keys: the low key, then (overlapping) the high key. */
static size_t keysz(const struct alloc_cur *cur)
{
	return cur->ops->key_len * (cur->ops->overlapping ? 2 : 1);
}

static uint8_t *rec_addr(const struct alloc_cur *cur, struct alloc_blk *b,
			 unsigned i)
{
	return b->data + XFS_BTREE_SBLOCK_CRC_LEN + (i - 1) * cur->ops->rec_len;
}

static uint8_t *key_addr(const struct alloc_cur *cur, struct alloc_blk *b,
			 unsigned i)
{
	return b->data + XFS_BTREE_SBLOCK_CRC_LEN + (i - 1) * keysz(cur);
}

static uint8_t *ptr_addr(const struct alloc_cur *cur, struct alloc_blk *b,
			 unsigned i)
{
	return b->data + XFS_BTREE_SBLOCK_CRC_LEN +
	       maxrecs(cur, 1) * keysz(cur) + (i - 1) * sizeof(be32);
}

static xfs_agblock_t get_ptr(const struct alloc_cur *cur, struct alloc_blk *b,
			     unsigned i)
{
	be32 v;

	memcpy(&v, ptr_addr(cur, b, i), sizeof(v));
	return get_be32(v);
}

static void set_ptr(const struct alloc_cur *cur, struct alloc_blk *b,
		    unsigned i, xfs_agblock_t p)
{
	be32 v;

	put_be32(&v, p);
	memcpy(ptr_addr(cur, b, i), &v, sizeof(v));
	b->dirty = true;
}

/*
 * Move n entries starting at entry `from` by delta places inside one
 * block (records at a leaf, keys and pointers at a node).
 */
static void shift_entries(const struct alloc_cur *cur, struct alloc_blk *b,
			  unsigned from, int delta, unsigned n)
{
	if (!n)
		return;
	if (blk_level(b) == 0) {
		memmove(rec_addr(cur, b, from + delta), rec_addr(cur, b, from),
			n * cur->ops->rec_len);
	} else {
		memmove(key_addr(cur, b, from + delta), key_addr(cur, b, from),
			n * keysz(cur));
		memmove(ptr_addr(cur, b, from + delta), ptr_addr(cur, b, from),
			n * sizeof(be32));
	}
	b->dirty = true;
}

/* Copy n entries from one block to another of the same level. */
static void copy_entries(const struct alloc_cur *cur, struct alloc_blk *dst,
			 unsigned di, struct alloc_blk *src, unsigned si,
			 unsigned n)
{
	if (!n)
		return;
	if (blk_level(src) == 0) {
		memcpy(rec_addr(cur, dst, di), rec_addr(cur, src, si),
		       n * cur->ops->rec_len);
	} else {
		memcpy(key_addr(cur, dst, di), key_addr(cur, src, si),
		       n * keysz(cur));
		memcpy(ptr_addr(cur, dst, di), ptr_addr(cur, src, si),
		       n * sizeof(be32));
	}
	dst->dirty = true;
}

/* ---- keys ---- */

static int cmp_keys(const struct alloc_cur *cur, const void *a, const void *b)
{
	return cur->ops->cmp_keys(a, b);
}

/*
 * The keys that describe a block to its parent: the first low key and,
 * for overlapping trees, the largest high key of the block.
 */
static void block_keys(const struct alloc_cur *cur, struct alloc_blk *b,
		       uint8_t *key)
{
	const struct btree_ops *ops = cur->ops;
	unsigned n = numrecs(b);
	uint8_t hk[KEY_MAX / 2], *high = key + ops->key_len;

	if (blk_level(b) == 0) {
		ops->rec_low_key(rec_addr(cur, b, 1), key);
		if (!ops->overlapping)
			return;
		ops->rec_high_key(rec_addr(cur, b, 1), high);
		for (unsigned i = 2; i <= n; i++) {
			ops->rec_high_key(rec_addr(cur, b, i), hk);
			if (cmp_keys(cur, hk, high) > 0)
				memcpy(high, hk, ops->key_len);
		}
		return;
	}
	memcpy(key, key_addr(cur, b, 1), ops->key_len);
	if (!ops->overlapping)
		return;
	memcpy(high, key_addr(cur, b, 1) + ops->key_len, ops->key_len);
	for (unsigned i = 2; i <= n; i++) {
		const uint8_t *h = key_addr(cur, b, i) + ops->key_len;

		if (cmp_keys(cur, h, high) > 0)
			memcpy(high, h, ops->key_len);
	}
}

/*
 * Overlapping trees: carry a block's keys up the path until a parent
 * already holds them (always to the root when forced).
 */
static void updkeys_overlapping(struct alloc_cur *cur, unsigned level,
				bool force)
{
	const struct btree_ops *ops = cur->ops;
	uint8_t key[KEY_MAX];

	if (level + 1 >= cur->nlevels)
		return;
	block_keys(cur, cur->blk[level], key);
	for (level++; level < cur->nlevels; level++) {
		struct alloc_blk *b = cur->blk[level];
		uint8_t *k = key_addr(cur, b, cur->ptr[level]);

		if (!force && !cmp_keys(cur, k, key) &&
		    !cmp_keys(cur, k + ops->key_len, key + ops->key_len))
			break;
		memcpy(k, key, 2 * ops->key_len);
		b->dirty = true;
		if (level + 1 >= cur->nlevels)
			break;
		block_keys(cur, b, key);
	}
}

/* The block at this level changed its keys: tell the ancestors. */
static void update_keys(struct alloc_cur *cur, unsigned level)
{
	uint8_t key[KEY_MAX];
	unsigned ptr = 1;

	if (cur->ops->overlapping) {
		updkeys_overlapping(cur, level, false);
		return;
	}
	block_keys(cur, cur->blk[level], key);
	for (level++; ptr == 1 && level < cur->nlevels; level++) {
		struct alloc_blk *b = cur->blk[level];

		ptr = cur->ptr[level];
		memcpy(key_addr(cur, b, ptr), key, cur->ops->key_len);
		b->dirty = true;
	}
}

static bool needs_key_update(const struct alloc_cur *cur, int ptr)
{
	return cur->ops->overlapping || ptr == 1;
}

/* ---- the AGF's view of the tree ---- */

static bool is_last_leaf(const struct alloc_cur *cur, struct alloc_blk *b,
			 unsigned level)
{
	return cur->idx == XFS_AGF_CNT && level == 0 &&
	       rightsib(b) == NULLAGBLK;
}

enum lastrec_why { LASTREC_UPDATE, LASTREC_INSREC, LASTREC_DELREC };

/* agf_longest follows the last record of the cntbt's last leaf. */
static void update_lastrec(struct alloc_cur *cur, struct alloc_blk *b,
			   const void *rec, int ptr, enum lastrec_why why)
{
	struct fs_agf *agf = &cur->ag->agf;
	const struct xfs_alloc_rec *r = rec;
	uint32_t len;

	switch (why) {
	case LASTREC_UPDATE:
		if (ptr != (int)numrecs(b))
			return;
		len = get_be32(r->ar_blockcount);
		break;
	case LASTREC_INSREC:
		len = get_be32(r->ar_blockcount);
		if (len <= agf->longest)
			return;
		break;
	default:
		if (ptr <= (int)numrecs(b))
			return;
		if (numrecs(b)) {
			r = (const void *)rec_addr(cur, b, numrecs(b));
			len = get_be32(r->ar_blockcount);
		} else {
			len = 0;
		}
		break;
	}
	agf->longest = len;
}

static void set_root(struct alloc_cur *cur, xfs_agblock_t root, int inc)
{
	cur->ag->agf.roots[cur->idx] = root;
	cur->ag->agf.levels[cur->idx] += inc;
}

static int alloc_block(struct alloc_cur *cur, xfs_agblock_t *bno, int *stat)
{
	int err = alloc_get_freelist(cur->ag, bno, true);

	if (err)
		return err;
	if (*bno == NULLAGBLK) {
		*stat = 0;
		return 0;
	}
	if (cur->idx == XFS_AGF_RMAP)
		cur->ag->agf.rmap_blocks++;
	*stat = 1;
	return 0;
}

static int free_block(struct alloc_cur *cur, struct alloc_blk *b)
{
	if (cur->idx == XFS_AGF_RMAP)
		cur->ag->agf.rmap_blocks--;
	blk_stale(b);
	return alloc_put_freelist(cur->ag, b->agbno, true);
}

/* ---- cursor ---- */

void acur_init(struct alloc_cur *cur, struct alloc_ag *ag, unsigned idx)
{
	memset(cur, 0, sizeof(*cur));
	cur->ag = ag;
	cur->idx = idx;
	cur->ops = idx == XFS_AGF_BNO ? &bnobt_ops :
		   idx == XFS_AGF_CNT ? &cntbt_ops : &rmapbt_ops;
	cur->nlevels = ag->agf.levels[idx];
}

static int read_child(struct alloc_cur *cur, xfs_agblock_t agbno,
		      unsigned level, struct alloc_blk **out)
{
	int err = blk_read(cur->ag, cur->ops, agbno, out);

	if (err)
		return err;
	if (blk_level(*out) != level)
		return -EFSCORRUPTED;
	return 0;
}

const void *acur_rec(const struct alloc_cur *cur)
{
	struct alloc_blk *b = cur->blk[0];
	int p = cur->ptr[0];

	if (!b || p < 1 || p > (int)numrecs(b))
		return NULL;
	return rec_addr(cur, b, p);
}

bool acur_in_last_leaf(const struct alloc_cur *cur)
{
	return cur->blk[0] && rightsib(cur->blk[0]) == NULLAGBLK;
}

int acur_lookup(struct alloc_cur *cur, enum alloc_lookup dir, int *stat)
{
	uint8_t want[KEY_MAX], k[KEY_MAX];
	xfs_agblock_t p = cur->ag->agf.roots[cur->idx];
	struct alloc_blk *b = NULL;
	int diff = 1, keyno = 0, err;

	if (!cur->nlevels || cur->nlevels > ALLOC_CUR_MAXLEVELS)
		return -EFSCORRUPTED;
	cur->ops->rec_low_key(cur->rec, want);
	for (int level = cur->nlevels - 1; level >= 0; level--) {
		if ((err = read_child(cur, p, level, &b)))
			return err;
		cur->blk[level] = b;
		if (diff == 0) {
			keyno = 1;
		} else {
			int low = 1, high = numrecs(b);

			if (!high) {
				if (level != 0 || cur->nlevels != 1)
					return -EFSCORRUPTED;
				cur->ptr[0] = dir != LOOKUP_LE;
				*stat = 0;
				return 0;
			}
			while (low <= high) {
				const uint8_t *kp;

				keyno = (low + high) >> 1;
				if (level == 0) {
					cur->ops->rec_low_key(
						rec_addr(cur, b, keyno), k);
					kp = k;
				} else {
					kp = key_addr(cur, b, keyno);
				}
				diff = cmp_keys(cur, kp, want);
				if (diff < 0)
					low = keyno + 1;
				else if (diff > 0)
					high = keyno - 1;
				else
					break;
			}
		}
		if (level > 0) {
			if (diff > 0 && --keyno < 1)
				keyno = 1;
			cur->ptr[level] = keyno;
			p = get_ptr(cur, b, keyno);
		}
	}
	if (dir != LOOKUP_LE && diff < 0) {
		keyno++;
		if (dir == LOOKUP_GE && keyno > (int)numrecs(b) &&
		    rightsib(b) != NULLAGBLK) {
			int i;

			cur->ptr[0] = keyno;
			if ((err = acur_increment(cur, 0, &i)))
				return err;
			if (i != 1)
				return -EFSCORRUPTED;
			*stat = 1;
			return 0;
		}
	} else if (dir == LOOKUP_LE && diff > 0) {
		keyno--;
	}
	cur->ptr[0] = keyno;
	if (keyno == 0 || keyno > (int)numrecs(b))
		*stat = 0;
	else
		*stat = dir != LOOKUP_EQ || diff == 0;
	return 0;
}

int acur_increment(struct alloc_cur *cur, unsigned level, int *stat)
{
	struct alloc_blk *b = cur->blk[level];
	unsigned lev;
	int err;

	*stat = 0;
	if (++cur->ptr[level] <= (int)numrecs(b)) {
		*stat = 1;
		return 0;
	}
	if (rightsib(b) == NULLAGBLK)
		return 0;
	for (lev = level + 1; lev < cur->nlevels; lev++)
		if (++cur->ptr[lev] <= (int)numrecs(cur->blk[lev]))
			break;
	if (lev == cur->nlevels)
		return -EFSCORRUPTED;
	while (lev > level) {
		xfs_agblock_t p = get_ptr(cur, cur->blk[lev], cur->ptr[lev]);

		lev--;
		if ((err = read_child(cur, p, lev, &cur->blk[lev])))
			return err;
		cur->ptr[lev] = 1;
	}
	*stat = 1;
	return 0;
}

int acur_decrement(struct alloc_cur *cur, unsigned level, int *stat)
{
	struct alloc_blk *b = cur->blk[level];
	unsigned lev;
	int err;

	*stat = 0;
	if (--cur->ptr[level] > 0) {
		*stat = 1;
		return 0;
	}
	if (leftsib(b) == NULLAGBLK)
		return 0;
	for (lev = level + 1; lev < cur->nlevels; lev++)
		if (--cur->ptr[lev] > 0)
			break;
	if (lev == cur->nlevels)
		return -EFSCORRUPTED;
	while (lev > level) {
		xfs_agblock_t p = get_ptr(cur, cur->blk[lev], cur->ptr[lev]);

		lev--;
		if ((err = read_child(cur, p, lev, &cur->blk[lev])))
			return err;
		cur->ptr[lev] = numrecs(cur->blk[lev]);
	}
	*stat = 1;
	return 0;
}

int acur_update(struct alloc_cur *cur, const void *rec)
{
	struct alloc_blk *b = cur->blk[0];
	int ptr = cur->ptr[0];

	if (!acur_rec(cur))
		return -EFSCORRUPTED;
	memcpy(rec_addr(cur, b, ptr), rec, cur->ops->rec_len);
	b->dirty = true;
	if (is_last_leaf(cur, b, 0))
		update_lastrec(cur, b, rec, ptr, LASTREC_UPDATE);
	if (needs_key_update(cur, ptr))
		update_keys(cur, 0);
	return 0;
}

/* ---- shifting, splitting, new root ---- */

/* Move the last entry of this level's block to the start of its right sibling. */
static int rshift(struct alloc_cur *cur, unsigned level, int *stat)
{
	struct alloc_blk *left = cur->blk[level], *right;
	struct alloc_cur tcur;
	unsigned lrecs, rrecs;
	int err, i;

	*stat = 0;
	if (rightsib(left) == NULLAGBLK)
		return 0;
	lrecs = numrecs(left);
	if (cur->ptr[level] >= (int)lrecs)
		return 0;
	if ((err = read_child(cur, rightsib(left), level, &right)))
		return err;
	rrecs = numrecs(right);
	if (rrecs == maxrecs(cur, level))
		return 0;
	shift_entries(cur, right, 1, 1, rrecs);
	copy_entries(cur, right, 1, left, lrecs, 1);
	set_numrecs(left, --lrecs);
	set_numrecs(right, ++rrecs);

	tcur = *cur;
	tcur.ptr[level] = numrecs(tcur.blk[level]);
	if ((err = acur_increment(&tcur, level, &i)))
		return err;
	if (cur->ops->overlapping)
		update_keys(cur, level);
	update_keys(&tcur, level);
	*stat = 1;
	return 0;
}

/* Move the first entry of this level's block to the end of its left sibling. */
static int lshift(struct alloc_cur *cur, unsigned level, int *stat)
{
	struct alloc_blk *right = cur->blk[level], *left;
	unsigned lrecs, rrecs;
	int err, i;

	*stat = 0;
	if (leftsib(right) == NULLAGBLK)
		return 0;
	if (cur->ptr[level] <= 1)
		return 0;
	if ((err = read_child(cur, leftsib(right), level, &left)))
		return err;
	lrecs = numrecs(left);
	if (lrecs == maxrecs(cur, level))
		return 0;
	rrecs = numrecs(right);
	lrecs++;
	rrecs--;
	copy_entries(cur, left, lrecs, right, 1, 1);
	set_numrecs(left, lrecs);
	set_numrecs(right, rrecs);
	shift_entries(cur, right, 2, -1, rrecs);

	if (cur->ops->overlapping) {
		struct alloc_cur tcur = *cur;

		tcur.ptr[level] = 1;
		if ((err = acur_decrement(&tcur, level, &i)))
			return err;
		update_keys(&tcur, level);
	}
	update_keys(cur, level);
	cur->ptr[level]--;
	*stat = 1;
	return 0;
}

/*
 * Split this level's block, moving its upper half to a new right
 * sibling.  *nptr and key get the new block and its keys for the
 * parent; ncur (when there is a parent) a cursor pointing after the
 * entry of the old block in the parent.
 */
static int split(struct alloc_cur *cur, unsigned level, xfs_agblock_t *nptr,
		 uint8_t *key, struct alloc_cur *ncur, bool *have_ncur,
		 int *stat)
{
	struct alloc_blk *left = cur->blk[level], *right, *rr;
	xfs_agblock_t rbno, rrbno;
	unsigned lrecs, rrecs, src;
	int err;

	if ((err = alloc_block(cur, &rbno, stat)) || !*stat)
		return err;
	if ((err = blk_new(cur->ag, cur->ops, rbno, blk_level(left), 0,
			   &right)))
		return err;
	lrecs = numrecs(left);
	rrecs = lrecs / 2;
	if ((lrecs & 1) && cur->ptr[level] <= (int)rrecs + 1)
		rrecs++;
	src = lrecs - rrecs + 1;
	lrecs -= rrecs;
	set_numrecs(left, lrecs);
	set_numrecs(right, rrecs);
	copy_entries(cur, right, 1, left, src, rrecs);
	block_keys(cur, right, key);

	rrbno = rightsib(left);
	set_rightsib(right, rrbno);
	set_leftsib(right, left->agbno);
	set_rightsib(left, rbno);
	if (rrbno != NULLAGBLK) {
		if ((err = read_child(cur, rrbno, level, &rr)))
			return err;
		set_leftsib(rr, rbno);
	}
	if (cur->ops->overlapping)
		update_keys(cur, level);
	if (cur->ptr[level] > (int)lrecs + 1) {
		cur->blk[level] = right;
		cur->ptr[level] -= lrecs;
	}
	*have_ncur = false;
	if (level + 1 < cur->nlevels) {
		*ncur = *cur;
		ncur->ptr[level + 1]++;
		*have_ncur = true;
	}
	*nptr = rbno;
	*stat = 1;
	return 0;
}

/* The root split: a new root above the two halves. */
static int new_root(struct alloc_cur *cur, int *stat)
{
	unsigned top = cur->nlevels - 1;
	struct alloc_blk *b = cur->blk[top], *left, *right, *nb;
	xfs_agblock_t nbno;
	int err, nptr;

	if (cur->nlevels >= ALLOC_CUR_MAXLEVELS)
		return -EFSCORRUPTED;
	if ((err = alloc_block(cur, &nbno, stat)) || !*stat)
		return err;
	if ((err = blk_new(cur->ag, cur->ops, nbno, cur->nlevels, 2, &nb)))
		return err;
	set_root(cur, nbno, 1);
	if (rightsib(b) != NULLAGBLK) {
		left = b;
		if ((err = read_child(cur, rightsib(b), top, &right)))
			return err;
		nptr = 1;
	} else {
		right = b;
		if ((err = read_child(cur, leftsib(b), top, &left)))
			return err;
		nptr = 2;
	}
	block_keys(cur, left, key_addr(cur, nb, 1));
	block_keys(cur, right, key_addr(cur, nb, 2));
	set_ptr(cur, nb, 1, left->agbno);
	set_ptr(cur, nb, 2, right->agbno);
	cur->blk[cur->nlevels] = nb;
	cur->ptr[cur->nlevels] = nptr;
	cur->nlevels++;
	*stat = 1;
	return 0;
}

static int make_block_unfull(struct alloc_cur *cur, unsigned level,
			     int *oindex, int *index, xfs_agblock_t *nptr,
			     struct alloc_cur *ncur, bool *have_ncur,
			     uint8_t *key, int *stat)
{
	int err;

	if ((err = rshift(cur, level, stat)) || *stat)
		return err;
	if ((err = lshift(cur, level, stat)))
		return err;
	if (*stat) {
		*oindex = *index = cur->ptr[level];
		return 0;
	}
	if ((err = split(cur, level, nptr, key, ncur, have_ncur, stat)) ||
	    !*stat)
		return err;
	*index = cur->ptr[level];
	return 0;
}

/*
 * Insert one entry at this level.  rec is the record (leaf) and key its
 * keys; *ptrp the child (nodes).  On return *ptrp is a new block to be
 * inserted one level up (NULLAGBLK if none), with its keys in key.
 */
static int insrec(struct alloc_cur *cur, unsigned level, xfs_agblock_t *ptrp,
		  const void *rec, uint8_t *key, struct alloc_cur *ncur,
		  bool *have_ncur, int *stat)
{
	struct alloc_blk *b;
	xfs_agblock_t nptr = NULLAGBLK, old_bn;
	uint8_t nkey[KEY_MAX], lkey[KEY_MAX];
	int ptr, optr, err;
	unsigned n;

	*have_ncur = false;
	if (level >= cur->nlevels) {
		err = new_root(cur, stat);
		*ptrp = NULLAGBLK;
		return err;
	}
	ptr = cur->ptr[level];
	if (ptr == 0) {
		*stat = 0;
		return 0;
	}
	optr = ptr;
	memcpy(nkey, key, keysz(cur));
	b = cur->blk[level];
	old_bn = b->agbno;
	n = numrecs(b);
	if (n == maxrecs(cur, level)) {
		err = make_block_unfull(cur, level, &optr, &ptr, &nptr, ncur,
					have_ncur, lkey, stat);
		if (err || !*stat)
			return err;
	}
	b = cur->blk[level];
	n = numrecs(b);
	shift_entries(cur, b, ptr, 1, n - ptr + 1);
	if (level > 0) {
		memcpy(key_addr(cur, b, ptr), nkey, keysz(cur));
		set_ptr(cur, b, ptr, *ptrp);
	} else {
		memcpy(rec_addr(cur, b, ptr), rec, cur->ops->rec_len);
	}
	set_numrecs(b, ++n);
	if (b->agbno != old_bn)
		block_keys(cur, b, lkey);
	else if (needs_key_update(cur, optr))
		update_keys(cur, level);
	if (is_last_leaf(cur, b, level))
		update_lastrec(cur, b, rec, ptr, LASTREC_INSREC);
	*ptrp = nptr;
	if (nptr != NULLAGBLK)
		memcpy(key, lkey, keysz(cur));
	*stat = 1;
	return 0;
}

int acur_insert(struct alloc_cur *cur, int *stat)
{
	struct alloc_cur *pcur = cur, ncur_store, pcur_store;
	uint8_t rec[sizeof(cur->rec)], key[KEY_MAX];
	xfs_agblock_t nbno = NULLAGBLK;
	unsigned level = 0;
	bool have_ncur;
	int err, i;

	memcpy(rec, cur->rec, cur->ops->rec_len);
	cur->ops->rec_low_key(rec, key);
	if (cur->ops->overlapping)
		cur->ops->rec_high_key(rec, key + cur->ops->key_len);
	do {
		err = insrec(pcur, level, &nbno, rec, key, &ncur_store,
			     &have_ncur, &i);
		if (err)
			return err;
		if (!i) {
			*stat = 0;
			return 0;
		}
		/*
		 * A split left a cursor for the next level; the original
		 * cursor keeps its leaf position (and learns of a new
		 * root through the AGF and its own levels).
		 */
		if (pcur != cur && pcur->nlevels > cur->nlevels) {
			cur->blk[pcur->nlevels - 1] = pcur->blk[pcur->nlevels - 1];
			cur->ptr[pcur->nlevels - 1] = pcur->ptr[pcur->nlevels - 1];
			cur->nlevels = pcur->nlevels;
		}
		if (have_ncur) {
			pcur_store = ncur_store;
			pcur = &pcur_store;
		}
		level++;
	} while (nbno != NULLAGBLK);
	if (cur->nlevels < cur->ag->agf.levels[cur->idx])
		cur->nlevels = cur->ag->agf.levels[cur->idx];
	*stat = 1;
	return 0;
}

/* ---- deleting ---- */

static int dec_cursor(struct alloc_cur *cur, unsigned level, int *stat)
{
	int err, i;

	if (level > 0 && (err = acur_decrement(cur, level, &i)))
		return err;
	*stat = 1;
	return 0;
}

static int kill_root(struct alloc_cur *cur, struct alloc_blk *b,
		     unsigned level, xfs_agblock_t newroot)
{
	int err;

	set_root(cur, newroot, -1);
	if ((err = free_block(cur, b)))
		return err;
	cur->blk[level] = NULL;
	cur->nlevels--;
	return 0;
}

/* Delete the entry under the cursor at this level; 2: go on one level up. */
static int delrec(struct alloc_cur *cur, unsigned level, int *stat)
{
	struct alloc_blk *b = cur->blk[level], *left = NULL, *right = NULL;
	xfs_agblock_t lptr, rptr, cptr = NULLAGBLK;
	struct alloc_cur tcur;
	unsigned n, lrecs = 0, rrecs = 0;
	int ptr = cur->ptr[level], err, i;

	*stat = 0;
	if (ptr == 0)
		return 0;
	n = numrecs(b);
	if (ptr > (int)n)
		return 0;
	shift_entries(cur, b, ptr + 1, -1, n - ptr);
	set_numrecs(b, --n);
	if (is_last_leaf(cur, b, level))
		update_lastrec(cur, b, NULL, ptr, LASTREC_DELREC);

	if (level == cur->nlevels - 1) {
		if (n == 1 && level > 0) {
			if ((err = kill_root(cur, b, level, get_ptr(cur, b, 1))))
				return err;
		} else if (level > 0) {
			if ((err = dec_cursor(cur, level, stat)))
				return err;
		}
		*stat = 1;
		return 0;
	}
	/* an emptied block still shows its old first entry, as the kernel's */
	if (needs_key_update(cur, ptr))
		update_keys(cur, level);
	if (n >= minrecs(cur, level))
		return dec_cursor(cur, level, stat);

	rptr = rightsib(b);
	lptr = leftsib(b);
	if (rptr == NULLAGBLK && lptr == NULLAGBLK)
		return -EFSCORRUPTED;
	tcur = *cur;
	if (rptr != NULLAGBLK) {
		tcur.ptr[level] = numrecs(tcur.blk[level]);
		if ((err = acur_increment(&tcur, level, &i)))
			return err;
		if (!i)
			return -EFSCORRUPTED;
		tcur.ptr[level] = numrecs(tcur.blk[level]);
		right = tcur.blk[level];
		cptr = leftsib(right);
		if (numrecs(right) - 1 >= minrecs(cur, level)) {
			if ((err = lshift(&tcur, level, &i)))
				return err;
			if (i)
				return dec_cursor(cur, level, stat);
		}
		rrecs = numrecs(right);
		if (lptr != NULLAGBLK) {
			tcur.ptr[level] = 1;
			if ((err = acur_decrement(&tcur, level, &i)))
				return err;
		}
	}
	if (lptr != NULLAGBLK) {
		tcur.ptr[level] = 1;
		if ((err = acur_decrement(&tcur, level, &i)))
			return err;
		if (!i)
			return -EFSCORRUPTED;
		tcur.ptr[level] = 1;
		left = tcur.blk[level];
		cptr = rightsib(left);
		if (numrecs(left) - 1 >= minrecs(cur, level)) {
			if ((err = rshift(&tcur, level, &i)))
				return err;
			if (i) {
				if (level == 0)
					cur->ptr[0]++;
				*stat = 1;
				return 0;
			}
		}
		lrecs = numrecs(left);
	}
	if (cptr == NULLAGBLK)
		return -EFSCORRUPTED;

	if (lptr != NULLAGBLK && lrecs + numrecs(b) <= maxrecs(cur, level)) {
		right = b;
		if ((err = read_child(cur, lptr, level, &left)))
			return err;
	} else if (rptr != NULLAGBLK &&
		   rrecs + numrecs(b) <= maxrecs(cur, level)) {
		left = b;
		if ((err = read_child(cur, rptr, level, &right)))
			return err;
	} else {
		return dec_cursor(cur, level, stat);
	}
	rrecs = numrecs(right);
	lrecs = numrecs(left);
	copy_entries(cur, left, lrecs + 1, right, 1, rrecs);
	set_numrecs(left, lrecs + rrecs);
	set_rightsib(left, rightsib(right));
	if (rightsib(left) != NULLAGBLK) {
		struct alloc_blk *rr;

		if ((err = read_child(cur, rightsib(left), level, &rr)))
			return err;
		set_leftsib(rr, left->agbno);
	}
	if ((err = free_block(cur, right)))
		return err;
	if (b != left) {
		cur->blk[level] = left;
		cur->ptr[level] += lrecs;
	} else if (level + 1 < cur->nlevels) {
		if ((err = acur_increment(cur, level + 1, &i)))
			return err;
	}
	if (level > 0)
		cur->ptr[level]--;
	*stat = 2;
	return 0;
}

int acur_delete(struct alloc_cur *cur, int *stat)
{
	bool joined = false;
	unsigned level;
	int err, i = 2;

	for (level = 0; i == 2; level++) {
		if ((err = delrec(cur, level, &i)))
			return err;
		if (i == 2)
			joined = true;
	}
	if (joined && cur->ops->overlapping)
		updkeys_overlapping(cur, 0, true);
	if (i == 0) {
		for (level = 1; level < cur->nlevels; level++) {
			if (cur->ptr[level] == 0) {
				if ((err = acur_decrement(cur, level, &i)))
					return err;
				break;
			}
		}
	}
	*stat = i;
	return 0;
}
