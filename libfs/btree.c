/*
 * The generic btree engine (btrees.asciidoc): block verifiers, capacity
 * arithmetic, the checking walk and lookups, for every tree type.
 *
 * In:  a root (an AG block and a height from an AG header, or a bmdr
 *      block inside an inode fork) and the tree's btree_ops.
 * Out: every record, in key order, to a callback; findings for whatever
 *      in the tree's shape is wrong (see btree.h for the list).
 *
 * Everything read from disk is bounded before it is used: the height by
 * btree_maxlevels(), numrecs by the block's capacity, each pointer by the
 * AG or filesystem size before the block is read, and a set of visited
 * blocks stops loops and children shared between parents.  Recursion is
 * one level per tree level, so its depth is bounded by the height.
 */
#include "config.h"
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "format/crc32c.h"
#include "ag.h"
#include "btree.h"
#include "fields.h"

/* Large enough for every tree's key and record (rmapbt: 20 and 24). */
#define BT_KEY_MAX	32
#define BT_REC_MAX	32
/* No tree of any type may be taller than this, whatever its ops say. */
#define BT_HEIGHT_CAP	20

/* Offsets inside both block header forms. */
#define BB_LEVEL_OFF	4
#define BB_NUMRECS_OFF	6
#define BB_SIB_OFF	8
/* The bmdr root in an inode fork: be16 level, be16 numrecs, keys, ptrs. */
#define BMDR_HDR_LEN	4

static unsigned key_slot(const struct btree_ops *ops)
{
	return ops->overlapping ? 2 * ops->key_len : ops->key_len;
}

static unsigned ptr_len(const struct btree_ops *ops)
{
	return ops->long_ptrs ? 8 : 4;
}

unsigned btree_maxrecs(const struct fs_geom *g, const struct btree_ops *ops,
		       bool leaf)
{
	unsigned space = g->blocksize - btree_hdr_len(ops);

	return space / (leaf ? ops->rec_len : key_slot(ops) + ptr_len(ops));
}

unsigned btree_minrecs(const struct fs_geom *g, const struct btree_ops *ops,
		       bool leaf)
{
	return btree_maxrecs(g, ops, leaf) / 2;
}

unsigned bmdr_maxrecs(size_t iroot_size, bool leaf)
{
	if (iroot_size < BMDR_HDR_LEN)
		return 0;
	iroot_size -= BMDR_HDR_LEN;
	return iroot_size / (leaf ? sizeof(struct xfs_bmbt_rec) :
			     sizeof(struct xfs_bmbt_key) + sizeof(be64));
}

/* Capacity of an inode-rooted block of any long-pointer tree. */
static unsigned iroot_maxrecs(const struct btree_ops *ops, size_t size,
			      bool leaf)
{
	if (size < BMDR_HDR_LEN)
		return 0;
	size -= BMDR_HDR_LEN;
	return size / (leaf ? ops->rec_len : key_slot(ops) + ptr_len(ops));
}

/* Height of the tallest tree holding nrecs records in half-full blocks. */
static unsigned levels_for_records(uint64_t nrecs, unsigned leaf_min,
				   unsigned node_min)
{
	uint64_t blocks;
	unsigned levels = 1;

	if (leaf_min < 1)
		leaf_min = 1;
	if (node_min < 2)
		node_min = 2;
	blocks = (nrecs + leaf_min - 1) / leaf_min;
	while (blocks > 1 && levels < BT_HEIGHT_CAP) {
		blocks = (blocks + node_min - 1) / node_min;
		levels++;
	}
	return levels;
}

/*
 * Height of the tallest tree that fits in nblocks blocks: a root with two
 * children and every other node half full needs 1 + 2 + 2m + 2m^2 + ...
 * blocks.  For trees whose record count is not bounded by the AG size
 * (the rmapbt with reflink, where one block has many owners).
 */
static unsigned levels_for_space(uint64_t nblocks, unsigned node_min)
{
	uint64_t used = 1, width = 2;
	unsigned levels = 1;

	if (node_min < 2)
		node_min = 2;
	while (levels < BT_HEIGHT_CAP && used + width <= nblocks) {
		used += width;
		width *= node_min;
		levels++;
	}
	return levels;
}

unsigned btree_maxlevels(const struct fs_geom *g, const struct btree_ops *ops)
{
	unsigned lmin = btree_minrecs(g, ops, true);
	unsigned nmin = btree_minrecs(g, ops, false);
	uint64_t agblocks = g->agblocks;
	unsigned n;

	switch (ops->type) {
	case BT_BNO:
	case BT_CNT:
		/* free extents are separated by at least one used block */
		n = levels_for_records((agblocks + 1) / 2, lmin, nmin);
		break;
	case BT_INO:
	case BT_FINO:
		/* every chunk the AG's inode numbers could name */
		n = levels_for_records((1ull << g->agino_log) /
				       XFS_INODES_PER_CHUNK, lmin, nmin);
		break;
	case BT_REFC:
		n = levels_for_records(agblocks, lmin, nmin);
		break;
	case BT_RMAP:
		if (g->has_reflink)
			n = levels_for_space(agblocks, nmin);
		else
			n = levels_for_records(agblocks, lmin, nmin);
		break;
	default:
		n = ops->maxlevels;
		break;
	}
	if (n > ops->maxlevels)
		n = ops->maxlevels;
	if (n > BT_HEIGHT_CAP)
		n = BT_HEIGHT_CAP;
	return n;
}

/*
 * Block verifiers.  They know a block only by its magic number, so the
 * record layout comes from the AG tree whose magic it is; the bmbt's is
 * fixed by the format (16-byte records, 8-byte keys and pointers).
 */
static const struct btree_ops *const ag_trees[] = {
	&bnobt_ops, &cntbt_ops, &inobt_ops, &finobt_ops, &rmapbt_ops,
	&refcountbt_ops,
};

static const struct btree_ops *ag_tree_by_magic(uint32_t magic)
{
	for (size_t i = 0; i < sizeof(ag_trees) / sizeof(ag_trees[0]); i++)
		if (ag_trees[i]->magic == magic)
			return ag_trees[i];
	return NULL;
}

void btree_sblock_verify(void *ctx, struct fs_buf *bp, struct fs_findings *fl,
			 uint32_t magic, enum fs_objtype objtype)
{
	struct fs *fs = ctx;
	const struct fs_geom *g = &fs->geo;
	const struct xfs_btree_sblock *b = (const void *)bp->data;
	const struct btree_ops *ops = ag_tree_by_magic(magic);
	struct fs_objref o = OBJREF_INIT(objtype);
	xfs_agnumber_t agno = (xfs_agnumber_t)daddr_to_agno(g, bp->daddr);
	xfs_agblock_t self = (xfs_agblock_t)((bp->daddr >> g->blkbb_log) -
					     (uint64_t)agno * g->agblocks);
	uint32_t found;
	unsigned level, numrecs;

	o.agno = agno;
	o.daddr = bp->daddr;
	if (bp->len < XFS_BTREE_SBLOCK_CRC_LEN) {
		fs_report_val(fl, PR_BTREE_BAD_NUMRECS, &o, NULL,
			      XFS_BTREE_SBLOCK_CRC_LEN, bp->len);
		return;
	}
	found = get_be32(b->bb_magic);
	if (found != magic) {
		/* not this kind of block: its other fields mean nothing */
		fs_report_val(fl, PR_BTREE_BAD_MAGIC, &o, "magic", magic, found);
		return;
	}
	if (!xfs_cksum_verify(bp->data, bp->len, XFS_BTREE_SBLOCK_CRC_OFF))
		fs_report_val(fl, PR_BTREE_BAD_CRC, &o, "crc",
			      xfs_cksum_calc(bp->data, bp->len,
					     XFS_BTREE_SBLOCK_CRC_OFF),
			      get_le32(b->bb_crc));
	if (!fs_uuid_ok(fs, &b->bb_uuid))
		fs_report(fl, PR_BTREE_BAD_UUID, &o, "uuid");
	if (get_be64(b->bb_blkno) != bp->daddr)
		fs_report_val(fl, PR_BTREE_BAD_BLKNO, &o, "bno", bp->daddr,
			      get_be64(b->bb_blkno));
	if (get_be32(b->bb_owner) != agno)
		fs_report_val(fl, PR_BTREE_BAD_OWNER, &o, "owner", agno,
			      get_be32(b->bb_owner));
	fs_saw_lsn(fs, (xfs_lsn_t)get_be64(b->bb_lsn));
	if (!fs_lsn_plausible(fs, (xfs_lsn_t)get_be64(b->bb_lsn)))
		fs_report_found(fl, PR_BTREE_BAD_LSN, &o, "lsn",
				get_be64(b->bb_lsn));
	level = get_be16(b->bb_level);
	numrecs = get_be16(b->bb_numrecs);
	if (ops) {
		unsigned maxl = btree_maxlevels(g, ops);

		if (level >= maxl)
			fs_report_val(fl, PR_BTREE_BAD_LEVEL, &o, "level",
				      maxl - 1, level);
		else if (numrecs > btree_maxrecs(g, ops, level == 0))
			fs_report_val(fl, PR_BTREE_BAD_NUMRECS, &o, "numrecs",
				      btree_maxrecs(g, ops, level == 0),
				      numrecs);
	}
	for (int i = 0; i < 2; i++) {
		uint32_t sib = get_be32(i ? b->bb_rightsib : b->bb_leftsib);

		if (sib == NULLAGBLOCK)
			continue;
		if (sib == self || !ag_extent_ok(g, agno, sib, 1))
			fs_report_found(fl, PR_BTREE_BAD_SIBLING, &o,
					i ? "rightsib" : "leftsib", sib);
	}
}

void btree_lblock_verify(void *ctx, struct fs_buf *bp, struct fs_findings *fl,
			 uint32_t magic, enum fs_objtype objtype)
{
	struct fs *fs = ctx;
	const struct fs_geom *g = &fs->geo;
	const struct xfs_btree_lblock *b = (const void *)bp->data;
	struct fs_objref o = OBJREF_INIT(objtype);
	xfs_fsblock_t self = daddr_to_fsb(g, bp->daddr);
	uint32_t found;
	unsigned level, numrecs;

	o.agno = (xfs_agnumber_t)daddr_to_agno(g, bp->daddr);
	o.daddr = bp->daddr;
	if (bp->len < XFS_BTREE_LBLOCK_CRC_LEN) {
		fs_report_val(fl, PR_BTREE_BAD_NUMRECS, &o, NULL,
			      XFS_BTREE_LBLOCK_CRC_LEN, bp->len);
		return;
	}
	found = get_be32(b->bb_magic);
	if (found != magic) {
		fs_report_val(fl, PR_BTREE_BAD_MAGIC, &o, "magic", magic, found);
		return;
	}
	if (!xfs_cksum_verify(bp->data, bp->len, XFS_BTREE_LBLOCK_CRC_OFF))
		fs_report_val(fl, PR_BTREE_BAD_CRC, &o, "crc",
			      xfs_cksum_calc(bp->data, bp->len,
					     XFS_BTREE_LBLOCK_CRC_OFF),
			      get_le32(b->bb_crc));
	if (!fs_uuid_ok(fs, &b->bb_uuid))
		fs_report(fl, PR_BTREE_BAD_UUID, &o, "uuid");
	if (get_be64(b->bb_blkno) != bp->daddr)
		fs_report_val(fl, PR_BTREE_BAD_BLKNO, &o, "bno", bp->daddr,
			      get_be64(b->bb_blkno));
	fs_saw_lsn(fs, (xfs_lsn_t)get_be64(b->bb_lsn));
	if (!fs_lsn_plausible(fs, (xfs_lsn_t)get_be64(b->bb_lsn)))
		fs_report_found(fl, PR_BTREE_BAD_LSN, &o, "lsn",
				get_be64(b->bb_lsn));
	/* the owner is checked by the walk, which knows the inode */
	level = get_be16(b->bb_level);
	numrecs = get_be16(b->bb_numrecs);
	if (magic == XFS_BMAP_CRC_MAGIC) {
		unsigned space = g->blocksize - XFS_BTREE_LBLOCK_CRC_LEN;
		unsigned maxr = space / (level ? sizeof(struct xfs_bmbt_key) +
					 sizeof(be64) :
					 sizeof(struct xfs_bmbt_rec));

		if (level >= XFS_BMBT_MAXLEVELS)
			fs_report_val(fl, PR_BTREE_BAD_LEVEL, &o, "level",
				      XFS_BMBT_MAXLEVELS - 1, level);
		else if (numrecs > maxr)
			fs_report_val(fl, PR_BTREE_BAD_NUMRECS, &o, "numrecs",
				      maxr, numrecs);
	}
	for (int i = 0; i < 2; i++) {
		uint64_t sib = get_be64(i ? b->bb_rightsib : b->bb_leftsib);

		if (sib == NULLFSBLOCK)
			continue;
		if (sib == self || !fsb_valid(g, sib) ||
		    fsb_to_agbno(g, sib) < ag_first_block(g))
			fs_report_found(fl, PR_BTREE_BAD_SIBLING, &o,
					i ? "rightsib" : "leftsib", sib);
	}
}

/*
 * A set of block pointers (open addressing, linear probing), to see a
 * block reached twice.  Values are stored plus one so zero means empty.
 */
struct blkset {
	uint64_t	*v;
	size_t		cap;		/* a power of two, or 0 */
	size_t		n;
};

static size_t blkset_hash(uint64_t x, size_t mask)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return (size_t)x & mask;
}

/* Add x; 1 if it was new, 0 if already there, -ENOMEM. */
static int blkset_add(struct blkset *s, uint64_t x)
{
	size_t i;

	if (2 * (s->n + 1) > s->cap) {
		size_t ncap = s->cap ? s->cap * 2 : 64;
		uint64_t *nv = calloc(ncap, sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		for (size_t j = 0; j < s->cap; j++) {
			if (!s->v[j])
				continue;
			i = blkset_hash(s->v[j] - 1, ncap - 1);
			while (nv[i])
				i = (i + 1) & (ncap - 1);
			nv[i] = s->v[j];
		}
		free(s->v);
		s->v = nv;
		s->cap = ncap;
	}
	i = blkset_hash(x, s->cap - 1);
	while (s->v[i]) {
		if (s->v[i] == x + 1)
			return 0;
		i = (i + 1) & (s->cap - 1);
	}
	s->v[i] = x + 1;
	s->n++;
	return 1;
}

/* What the walk remembers about the blocks of one level, left to right. */
struct level_state {
	bool		seen;		/* a block of this level was visited */
	bool		broken;		/* a block was skipped since then */
	uint64_t	last;		/* the last block visited */
	uint64_t	last_right;	/* and its right sibling pointer */
	xfs_daddr_t	last_daddr;
};

struct walker {
	struct fs		*fs;
	const struct btree_root	*root;
	const struct btree_ops	*ops;
	btree_rec_fn		rec_fn;
	btree_blk_fn		blk_fn;
	void			*priv;
	struct fs_findings	*fl;
	struct btree_stats	*st;
	struct btree_walk	w;
	unsigned		levels;
	/* an inode root with one pointer: its child may be under minrecs */
	bool			single_child_iroot;
	struct level_state	lv[BT_HEIGHT_CAP];
	uint8_t			prev_key[BT_KEY_MAX];
	uint8_t			prev_rec[BT_REC_MAX];
	bool			have_prev;
	struct blkset		seen;
	int			stop;		/* non-zero: stop, return this */
};

static uint64_t null_ptr(const struct btree_ops *ops)
{
	return ops->long_ptrs ? NULLFSBLOCK : NULLAGBLOCK;
}

static uint64_t load_ptr(const struct btree_ops *ops, const uint8_t *p)
{
	return ops->long_ptrs ? load_be64(p) : load_be32(p);
}

/* May this pointer name a block of the tree? */
static bool ptr_ok(const struct walker *wk, uint64_t ptr)
{
	const struct fs_geom *g = &wk->fs->geo;

	if (wk->ops->long_ptrs)
		return fsb_valid(g, ptr) &&
		       fsb_to_agbno(g, ptr) >= ag_first_block(g);
	return ptr <= UINT32_MAX &&
	       ag_extent_ok(g, wk->root->agno, (xfs_agblock_t)ptr, 1);
}

static xfs_daddr_t ptr_daddr(const struct walker *wk, uint64_t ptr)
{
	const struct fs_geom *g = &wk->fs->geo;

	if (wk->ops->long_ptrs)
		return fsb_to_daddr(g, ptr);
	return agb_to_daddr(g, wk->root->agno, (xfs_agblock_t)ptr);
}

static xfs_fsblock_t ptr_fsb(const struct walker *wk, uint64_t ptr)
{
	if (wk->ops->long_ptrs)
		return ptr;
	return agb_to_fsb(&wk->fs->geo, wk->root->agno, (xfs_agblock_t)ptr);
}

static void set_obj_block(struct walker *wk, uint64_t ptr)
{
	struct fs_objref *o = &wk->w.obj;

	*o = OBJREF_INIT(wk->ops->objtype);
	o->ino = wk->root->ino;
	o->daddr = ptr_daddr(wk, ptr);
	o->agno = wk->ops->long_ptrs ? fsb_to_agno(&wk->fs->geo, ptr) :
				       wk->root->agno;
}

static void set_obj_iroot(struct walker *wk)
{
	struct fs_objref *o = &wk->w.obj;

	*o = OBJREF_INIT(wk->ops->objtype);
	o->ino = wk->root->ino;
	if (wk->root->ino != NULLFSINO)
		o->agno = ino_to_agno(&wk->fs->geo, wk->root->ino);
}

/* Mark levels 0..level as having lost a block: siblings can't be checked. */
/*
 * A block (and its subtree) passed over: the next block of each level
 * below it cannot be held to its neighbours, nor to being the first of
 * its level (the skipped one may have been).
 */
static void chain_break(struct walker *wk, unsigned level)
{
	for (unsigned l = 0; l <= level && l < BT_HEIGHT_CAP; l++) {
		wk->lv[l].broken = true;
		wk->lv[l].seen = true;
	}
}

static bool keys_in_order(const struct walker *wk, const void *prev,
			  const void *next)
{
	int c = wk->ops->cmp_keys(prev, next);

	return wk->ops->overlapping ? c <= 0 : c < 0;
}

/* *hk = max(*hk, k) in key order */
static void key_max(const struct walker *wk, uint8_t *hk, bool *have,
		    const void *k)
{
	if (!*have || wk->ops->cmp_keys(hk, k) < 0)
		memcpy(hk, k, wk->ops->key_len);
	*have = true;
}

static void visit(struct walker *wk, unsigned level, uint64_t ptr,
		  const uint8_t *bound, uint8_t *lowkey, uint8_t *highkey,
		  bool *got);

/*
 * A node's key that is not its child's: the finding names the first key
 * field (by the block's field table, as xfs_db names it) whose value
 * differs, with the child's value as expected and the node's as found.
 * high: the high key of an overlapping tree (its fields follow the low
 * key's in the table: "startblock_hi", ...).  node and child hold one
 * key each, in on-disk form.
 */
static void report_key(struct walker *wk, enum fs_problem code,
		       const uint8_t *node, const uint8_t *child, bool high)
{
	const struct btree_ops *ops = wk->ops;
	const struct fld *keys = ops->fields ?
				 fld_find(ops->fields->sub, "keys") : NULL;
	uint64_t kbits = (uint64_t)ops->key_len * 8;

	for (const struct fld *f = keys && keys->type ? keys->type->sub : NULL;
	     f && f->name; f++) {
		uint64_t off = f->off;
		unsigned bits = f->type ? f->type->bits : 0;
		uint64_t want, have;

		if (!bits || bits > 64 || (off >= kbits) != high)
			continue;
		if (high)
			off -= kbits;
		if (off + bits > kbits)
			continue;
		want = bits_get(child, ops->key_len, off, bits);
		have = bits_get(node, ops->key_len, off, bits);
		if (want != have) {
			fs_report_val(wk->fl, code, &wk->w.obj, f->name, want,
				      have);
			return;
		}
	}
	/* a difference no field names (bits the table does not cover) */
	fs_report(wk->fl, code, &wk->w.obj, "keys");
}

/*
 * In an overlapping tree, a record or node entry whose high key is past
 * the high key its parent gives the block (bound): a range query that
 * trusts the parent does not see it.
 */
static void check_bound(struct walker *wk, const uint8_t *bound,
			const uint8_t *hk, const char *field)
{
	if (bound && wk->ops->cmp_keys(hk, bound) > 0)
		fs_report(wk->fl, PR_BTREE_PAST_HIGH_KEY, &wk->w.obj, field);
}

/*
 * The records or entries of one block (or of the inode root), at base.
 * lowkey/highkey get the block's first key and its highest key; *got
 * says whether there were any.  bound: the high key the parent has for
 * this block (overlapping trees; NULL for the root).  wk->w.obj names the
 * block on entry.
 */
static void walk_contents(struct walker *wk, unsigned level,
			  const uint8_t *base, unsigned numrecs,
			  unsigned maxrecs, const uint8_t *bound,
			  uint8_t *lowkey, uint8_t *highkey, bool *got)
{
	const struct btree_ops *ops = wk->ops;
	struct fs_objref blk = wk->w.obj;
	bool have_high = false;

	*got = false;
	if (level == 0) {
		for (unsigned i = 0; i < numrecs && !wk->stop; i++) {
			const uint8_t *rec = base + (size_t)i * ops->rec_len;
			uint8_t k[BT_KEY_MAX];

			wk->w.obj = blk;
			wk->w.obj.index = i;
			ops->rec_low_key(rec, k);
			if (wk->have_prev && !keys_in_order(wk, wk->prev_key, k))
				fs_report(wk->fl, PR_BTREE_RECS_OUT_OF_ORDER,
					  &wk->w.obj, "recs");
			if (i == 0) {
				memcpy(lowkey, k, ops->key_len);
				*got = true;
			}
			if (ops->overlapping) {
				uint8_t hk[BT_KEY_MAX];

				ops->rec_high_key(rec, hk);
				key_max(wk, highkey, &have_high, hk);
				check_bound(wk, bound, hk, "recs");
			}
			wk->w.recno = wk->st->nrecs;
			wk->w.prev_rec = wk->have_prev ? wk->prev_rec : NULL;
			if (ops->check_rec)
				ops->check_rec(&wk->w, rec, wk->fl);
			if (wk->rec_fn) {
				int r = wk->rec_fn(&wk->w, rec, wk->priv);

				if (r)
					wk->stop = r;
			}
			memcpy(wk->prev_key, k, ops->key_len);
			memcpy(wk->prev_rec, rec, ops->rec_len);
			wk->have_prev = true;
			wk->st->nrecs++;
		}
		return;
	}

	for (unsigned i = 0; i < numrecs && !wk->stop; i++) {
		const uint8_t *k = base + (size_t)i * key_slot(ops);
		const uint8_t *hk = k + ops->key_len;
		const uint8_t *pp = base + (size_t)maxrecs * key_slot(ops) +
				    (size_t)i * ptr_len(ops);
		uint64_t ptr = load_ptr(ops, pp);
		uint8_t clow[BT_KEY_MAX], chigh[BT_KEY_MAX];
		bool cgot;

		if (i == 0) {
			memcpy(lowkey, k, ops->key_len);
			*got = true;
		} else if (!keys_in_order(wk, k - key_slot(ops), k)) {
			wk->w.obj = blk;
			wk->w.obj.index = i;
			fs_report(wk->fl, PR_BTREE_KEYS_OUT_OF_ORDER,
				  &wk->w.obj, "keys");
		}
		if (ops->overlapping) {
			key_max(wk, highkey, &have_high, hk);
			wk->w.obj = blk;
			wk->w.obj.index = i;
			check_bound(wk, bound, hk, "keys");
		}
		if (!ptr_ok(wk, ptr)) {
			wk->w.obj = blk;
			wk->w.obj.index = i;
			fs_report_found(wk->fl, PR_BTREE_BAD_PTR, &wk->w.obj,
					"ptrs", ptr);
			chain_break(wk, level - 1);
			wk->st->skipped++;
			continue;
		}
		visit(wk, level - 1, ptr, ops->overlapping ? hk : NULL, clow,
		      chigh, &cgot);
		if (!cgot)
			continue;
		wk->w.obj = blk;
		wk->w.obj.index = i;
		if (ops->cmp_keys(k, clow) != 0)
			report_key(wk, PR_BTREE_BAD_KEY, k, clow, false);
		/*
		 * A high key below the child's hides the child's higher
		 * records from range queries (each is a BTREE_PAST_HIGH_KEY
		 * too); one above it only sends queries down for nothing.
		 */
		if (ops->overlapping && ops->cmp_keys(hk, chigh) < 0)
			report_key(wk, PR_BTREE_BAD_HIGH_KEY, hk, chigh, true);
		else if (ops->overlapping && ops->cmp_keys(hk, chigh) > 0)
			report_key(wk, PR_BTREE_LOOSE_HIGH_KEY, hk, chigh,
				   true);
	}
}

/* Check a block's sibling pointers against the blocks seen at its level. */
static void check_siblings(struct walker *wk, unsigned level, uint64_t ptr,
			   uint64_t left, uint64_t right)
{
	struct level_state *lv = &wk->lv[level];
	uint64_t nullp = null_ptr(wk->ops);

	if (!lv->seen) {
		if (left != nullp)
			fs_report_val(wk->fl, PR_BTREE_BAD_SIBLING, &wk->w.obj,
				      "leftsib", nullp, left);
	} else if (!lv->broken) {
		if (left != lv->last)
			fs_report_val(wk->fl, PR_BTREE_BAD_SIBLING, &wk->w.obj,
				      "leftsib", lv->last, left);
		if (lv->last_right != ptr) {
			struct fs_objref o = wk->w.obj;

			o.daddr = lv->last_daddr;
			fs_report_val(wk->fl, PR_BTREE_BAD_SIBLING, &o,
				      "rightsib", ptr, lv->last_right);
		}
	}
	lv->seen = true;
	lv->broken = false;
	lv->last = ptr;
	lv->last_right = right;
	lv->last_daddr = wk->w.obj.daddr;
}

static void visit(struct walker *wk, unsigned level, uint64_t ptr,
		  const uint8_t *bound, uint8_t *lowkey, uint8_t *highkey,
		  bool *got)
{
	const struct btree_ops *ops = wk->ops;
	const struct fs_geom *g = &wk->fs->geo;
	struct fs_buf *bp;
	const uint8_t *d;
	unsigned blevel, numrecs, maxrecs, minrecs;
	bool is_root = level == wk->levels - 1;
	int r;

	*got = false;
	set_obj_block(wk, ptr);
	r = blkset_add(&wk->seen, ptr);
	if (r < 0) {
		wk->stop = r;
		return;
	}
	if (r == 0) {
		fs_report_found(wk->fl, PR_BTREE_BLOCK_REVISITED, &wk->w.obj,
				NULL, ptr);
		chain_break(wk, level);
		wk->st->skipped++;
		return;
	}
	if (ops->long_ptrs)
		r = fs_read_blocks(wk->fs, ptr, 1, ops->buf_ops, wk->fl, &bp);
	else
		r = fs_read_agblocks(wk->fs, wk->root->agno, (xfs_agblock_t)ptr,
				     1, ops->buf_ops, wk->fl, &bp);
	if (r) {
		if (r == -ENOMEM) {
			wk->stop = r;
			return;
		}
		/* an I/O error was reported by the cache */
		fs_report(wk->fl, PR_BTREE_UNREADABLE, &wk->w.obj, NULL);
		chain_break(wk, level);
		wk->st->skipped++;
		return;
	}
	d = bp->data;
	blevel = load_be16(d + BB_LEVEL_OFF);
	numrecs = load_be16(d + BB_NUMRECS_OFF);
	maxrecs = btree_maxrecs(g, ops, level == 0);
	if (load_be32(d) != ops->magic) {
		/* the verifier has said so, unless it ran with other ops */
		if (!buf_corrupt(bp))
			fs_report_val(wk->fl, PR_BTREE_BAD_MAGIC, &wk->w.obj,
				      "magic", ops->magic, load_be32(d));
		goto skip;
	}
	if (blevel != level) {
		fs_report_val(wk->fl, PR_BTREE_BAD_LEVEL, &wk->w.obj, "level",
			      level, blevel);
		goto skip;
	}
	if (numrecs > maxrecs) {
		if (!buf_corrupt(bp))
			fs_report_val(wk->fl, PR_BTREE_BAD_NUMRECS, &wk->w.obj,
				      "numrecs", maxrecs, numrecs);
		/*
		 * Its magic and level make it the tree's block all the
		 * same, for the space it takes; its records are not read.
		 */
		if (wk->blk_fn) {
			r = wk->blk_fn(&wk->w, level, ptr_fsb(wk, ptr),
				       wk->priv);
			if (r) {
				wk->stop = r;
				buf_release(bp);
				return;
			}
		}
		goto skip;
	}
	if (ops->long_ptrs && load_be64(d + offsetof(struct xfs_btree_lblock,
						     bb_owner)) != wk->root->ino)
		fs_report_val(wk->fl, PR_BTREE_BAD_OWNER, &wk->w.obj, "owner",
			      wk->root->ino,
			      load_be64(d + offsetof(struct xfs_btree_lblock,
						     bb_owner)));
	if (ops->long_ptrs)
		check_siblings(wk, level, ptr, load_be64(d + BB_SIB_OFF),
			       load_be64(d + BB_SIB_OFF + 8));
	else
		check_siblings(wk, level, ptr, load_be32(d + BB_SIB_OFF),
			       load_be32(d + BB_SIB_OFF + 4));
	minrecs = btree_minrecs(g, ops, level == 0);
	if (!is_root && numrecs < minrecs &&
	    !(wk->single_child_iroot && level == wk->levels - 2))
		fs_report_val(wk->fl, PR_BTREE_BAD_NUMRECS, &wk->w.obj,
			      "numrecs", minrecs, numrecs);
	else if (is_root && level > 0 && numrecs == 0)
		fs_report_val(wk->fl, PR_BTREE_BAD_NUMRECS, &wk->w.obj,
			      "numrecs", 1, 0);
	wk->st->nblocks++;
	if (wk->blk_fn) {
		r = wk->blk_fn(&wk->w, level, ptr_fsb(wk, ptr), wk->priv);
		if (r) {
			wk->stop = r;
			buf_release(bp);
			return;
		}
	}
	walk_contents(wk, level, d + btree_hdr_len(ops), numrecs, maxrecs,
		      bound, lowkey, highkey, got);
	buf_release(bp);
	return;
skip:
	chain_break(wk, level);
	wk->st->skipped++;
	buf_release(bp);
}

/* After the walk: the last block of each level has no right sibling. */
static void check_level_ends(struct walker *wk, unsigned top)
{
	uint64_t nullp = null_ptr(wk->ops);

	for (unsigned l = 0; l < top; l++) {
		struct level_state *lv = &wk->lv[l];

		if (lv->seen && !lv->broken && lv->last_right != nullp) {
			struct fs_objref o = OBJREF_INIT(wk->ops->objtype);

			o.agno = wk->ops->long_ptrs ?
				 fsb_to_agno(&wk->fs->geo, lv->last) :
				 wk->root->agno;
			o.ino = wk->root->ino;
			o.daddr = lv->last_daddr;
			fs_report_val(wk->fl, PR_BTREE_BAD_SIBLING, &o,
				      "rightsib", nullp, lv->last_right);
		}
	}
}

/* The root of an inode-rooted tree; returns false if it is unusable. */
static bool iroot_header(struct walker *wk, unsigned *level,
			 unsigned *numrecs, unsigned *maxrecs)
{
	const struct btree_root *root = wk->root;
	const uint8_t *p = root->iroot;
	unsigned maxl = btree_maxlevels(&wk->fs->geo, wk->ops);

	set_obj_iroot(wk);
	if (!p || root->iroot_size < BMDR_HDR_LEN) {
		fs_report_found(wk->fl, PR_BTREE_BAD_ROOT, &wk->w.obj, NULL,
				root->iroot_size);
		return false;
	}
	*level = load_be16(p);
	*numrecs = load_be16(p + 2);
	*maxrecs = iroot_maxrecs(wk->ops, root->iroot_size, *level == 0);
	if (*level + 1 > maxl) {
		fs_report_val(wk->fl, PR_BTREE_TOO_DEEP, &wk->w.obj, "level",
			      maxl - 1, *level);
		return false;
	}
	if (*numrecs > *maxrecs || (*level > 0 && *numrecs == 0)) {
		fs_report_val(wk->fl, PR_BTREE_BAD_NUMRECS, &wk->w.obj,
			      "numrecs", *maxrecs, *numrecs);
		return false;
	}
	return true;
}

/* Is a short-pointer root (block and height) usable?  Reports if not. */
static bool aroot_ok(struct walker *wk)
{
	const struct btree_root *root = wk->root;
	unsigned maxl = btree_maxlevels(&wk->fs->geo, wk->ops);

	wk->w.obj = OBJREF_INIT(wk->ops->objtype);
	wk->w.obj.agno = root->agno;
	if (root->agno >= wk->fs->geo.agcount) {
		fs_report_found(wk->fl, PR_BTREE_BAD_ROOT, &wk->w.obj, "agno",
				root->agno);
		return false;
	}
	if (root->levels > maxl) {
		fs_report_val(wk->fl, PR_BTREE_TOO_DEEP, &wk->w.obj, "level",
			      maxl, root->levels);
		return false;
	}
	if (root->levels == 0) {
		fs_report_val(wk->fl, PR_BTREE_BAD_ROOT, &wk->w.obj, "level",
			      1, 0);
		return false;
	}
	if (!ptr_ok(wk, root->root)) {
		fs_report_found(wk->fl, PR_BTREE_BAD_ROOT, &wk->w.obj, "root",
				root->root);
		return false;
	}
	return true;
}

int btree_walk(struct fs *fs, const struct btree_root *root,
	       btree_rec_fn rec_fn, btree_blk_fn blk_fn, void *priv,
	       struct fs_findings *fl, struct btree_stats *st)
{
	const struct btree_ops *ops = root->ops;
	struct btree_stats local;
	struct walker *wk;
	uint8_t lowkey[BT_KEY_MAX], highkey[BT_KEY_MAX];
	bool got;
	int ret;

	if (!st)
		st = &local;
	memset(st, 0, sizeof(*st));
	if (!ops || ops->key_len > BT_KEY_MAX || ops->rec_len > BT_REC_MAX ||
	    !ops->rec_len || !ops->key_len || !ops->cmp_keys ||
	    !ops->rec_low_key || (ops->overlapping && !ops->rec_high_key))
		return -EINVAL;
	/* a long-pointer tree starts in an inode: a 32-bit root cannot name it */
	if (ops->long_ptrs && !root->iroot)
		return -EINVAL;
	wk = calloc(1, sizeof(*wk));
	if (!wk)
		return -ENOMEM;
	wk->fs = fs;
	wk->root = root;
	wk->ops = ops;
	wk->rec_fn = rec_fn;
	wk->blk_fn = blk_fn;
	wk->priv = priv;
	wk->fl = fl;
	wk->st = st;
	wk->w.fs = fs;
	wk->w.root = root;
	wk->w.priv = priv;

	if (root->iroot) {
		unsigned level, numrecs, maxrecs;

		if (iroot_header(wk, &level, &numrecs, &maxrecs)) {
			wk->levels = level + 1;
			st->levels = wk->levels;
			wk->single_child_iroot = numrecs == 1;
			walk_contents(wk, level,
				      (const uint8_t *)root->iroot + BMDR_HDR_LEN,
				      numrecs, maxrecs, NULL, lowkey, highkey,
				      &got);
			check_level_ends(wk, level);
		} else {
			st->skipped++;
		}
	} else if (aroot_ok(wk)) {
		wk->levels = root->levels;
		st->levels = wk->levels;
		visit(wk, wk->levels - 1, root->root, NULL, lowkey, highkey,
		      &got);
		check_level_ends(wk, wk->levels);
	} else {
		st->skipped++;
	}
	ret = wk->stop;
	free(wk->seen.v);
	free(wk);
	return ret;
}

/*
 * Lookups descend one path: at each node the last entry whose key is not
 * above the search key.  Every level is checked for magic, level and
 * capacity before it is indexed, so a damaged tree gives -EUCLEAN rather
 * than a wild read; the level strictly decreases, so a loop is impossible.
 */
int btree_lookup_le(struct fs *fs, const struct btree_root *root,
		    const void *key, void *rec_out, struct fs_findings *fl)
{
	const struct btree_ops *ops = root->ops;
	const struct fs_geom *g = &fs->geo;
	struct walker wk = { .fs = fs, .root = root, .ops = ops, .fl = fl };
	struct fs_buf *bp = NULL;
	const uint8_t *base;
	unsigned level, numrecs, maxrecs;
	uint64_t ptr;
	int ret = 0;

	if (!ops->cmp_keys || !ops->rec_low_key || ops->key_len > BT_KEY_MAX ||
	    (ops->long_ptrs && !root->iroot))
		return -EINVAL;
	if (root->iroot) {
		if (!iroot_header(&wk, &level, &numrecs, &maxrecs))
			return -EUCLEAN;
		base = (const uint8_t *)root->iroot + BMDR_HDR_LEN;
		ptr = NULLFSBLOCK;
	} else {
		if (!aroot_ok(&wk))
			return -EUCLEAN;
		level = root->levels;	/* the block read below is level - 1 */
		ptr = root->root;
		base = NULL;
		numrecs = maxrecs = 0;
	}

	for (;;) {
		if (!base) {
			const uint8_t *d;
			int r;

			if (level == 0 || !ptr_ok(&wk, ptr)) {
				ret = -EUCLEAN;
				break;
			}
			level--;
			if (ops->long_ptrs)
				r = fs_read_blocks(fs, ptr, 1, ops->buf_ops, fl,
						   &bp);
			else
				r = fs_read_agblocks(fs, root->agno,
						     (xfs_agblock_t)ptr, 1,
						     ops->buf_ops, fl, &bp);
			if (r) {
				ret = r;
				break;
			}
			d = bp->data;
			numrecs = load_be16(d + BB_NUMRECS_OFF);
			maxrecs = btree_maxrecs(g, ops, level == 0);
			if (load_be32(d) != ops->magic ||
			    load_be16(d + BB_LEVEL_OFF) != level ||
			    numrecs > maxrecs) {
				ret = -EUCLEAN;
				break;
			}
			base = d + btree_hdr_len(ops);
		}
		if (level == 0) {
			uint8_t k[BT_KEY_MAX];
			int found = -1;

			for (unsigned i = 0; i < numrecs; i++) {
				ops->rec_low_key(base + (size_t)i * ops->rec_len,
						 k);
				if (ops->cmp_keys(k, key) > 0)
					break;
				found = (int)i;
			}
			if (found >= 0) {
				memcpy(rec_out, base + (size_t)found *
				       ops->rec_len, ops->rec_len);
				ret = 1;
			}
			break;
		}
		{
			int found = -1;

			for (unsigned i = 0; i < numrecs; i++) {
				if (ops->cmp_keys(base + (size_t)i *
						  key_slot(ops), key) > 0)
					break;
				found = (int)i;
			}
			if (found < 0)
				break;	/* every key is above: no record */
			ptr = load_ptr(ops, base + (size_t)maxrecs *
				       key_slot(ops) +
				       (size_t)found * ptr_len(ops));
		}
		if (bp) {
			buf_release(bp);
			bp = NULL;
		}
		base = NULL;
	}
	if (bp)
		buf_release(bp);
	return ret;
}
