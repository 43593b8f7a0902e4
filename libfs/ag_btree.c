/*
 * The AG btrees (allocation_groups.asciidoc, rmapbt.asciidoc,
 * refcountbt.asciidoc): record and key layout, key order, block
 * verifiers and the checks each record must pass on its own.
 *
 *   bnobt, cntbt   free extents (startblock, blockcount); the bnobt keyed
 *                  by startblock, the cntbt by (blockcount, startblock)
 *   inobt, finobt  inode chunks by startino; the finobt holds only the
 *                  chunks with a free inode
 *   rmapbt         (startblock, blockcount, owner, offset+flags), keyed
 *                  by (startblock, owner, offset); overlapping, so nodes
 *                  carry low and high keys
 *   refcountbt     (startblock, blockcount, refcount); startblock's top
 *                  bit marks the copy-on-write staging domain
 *
 * Checks that need two records (overlap) use the previous record the
 * walk keeps in w->prev_rec; checks that need other trees are in
 * ag_check.c.
 */
#include "config.h"
#include "ag.h"
#include "btree.h"
#include "fields.h"

/* Deeper than any rmapbt the largest AG can hold; bounds hostile input. */
#define RMAPBT_MAXLEVELS_CAP	16

static int cmp_u32(uint32_t a, uint32_t b)
{
	return a < b ? -1 : a > b;
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static struct fs_objref rec_obj(const struct btree_walk *w)
{
	return w->obj;
}

/* ---- free space ---- */

static int bno_cmp_keys(const void *k1, const void *k2)
{
	const struct xfs_alloc_rec *a = k1, *b = k2;

	return cmp_u32(get_be32(a->ar_startblock), get_be32(b->ar_startblock));
}

static int cnt_cmp_keys(const void *k1, const void *k2)
{
	const struct xfs_alloc_rec *a = k1, *b = k2;
	int c = cmp_u32(get_be32(a->ar_blockcount), get_be32(b->ar_blockcount));

	return c ? c : cmp_u32(get_be32(a->ar_startblock),
			       get_be32(b->ar_startblock));
}

static void alloc_rec_key(const void *rec, void *key)
{
	memcpy(key, rec, sizeof(struct xfs_alloc_rec));
}

static void alloc_check_extent(struct btree_walk *w, const void *rec,
			       struct fs_findings *fl)
{
	const struct xfs_alloc_rec *r = rec;
	const struct fs_geom *g = &w->fs->geo;
	struct fs_objref o = rec_obj(w);
	uint32_t start = get_be32(r->ar_startblock);
	uint32_t len = get_be32(r->ar_blockcount);

	if (!ag_extent_ok(g, w->root->agno, start, len))
		fs_report_val(fl, PR_ALLOC_BAD_EXTENT, &o, "recs", start, len);
}

static void bno_check_rec(struct btree_walk *w, const void *rec,
			  struct fs_findings *fl)
{
	const struct xfs_alloc_rec *r = rec, *p = w->prev_rec;

	alloc_check_extent(w, rec, fl);
	if (p) {
		uint64_t pend = (uint64_t)get_be32(p->ar_startblock) +
				get_be32(p->ar_blockcount);
		uint32_t start = get_be32(r->ar_startblock);

		if (get_be32(p->ar_startblock) < start && pend > start) {
			struct fs_objref o = rec_obj(w);

			fs_report_val(fl, PR_ALLOC_OVERLAP, &o, "recs", pend,
				      start);
		}
	}
}

static void bnobt_verify(void *ctx, struct fs_buf *bp, struct fs_findings *fl)
{
	btree_sblock_verify(ctx, bp, fl, XFS_ABTB_CRC_MAGIC, OBJ_BNOBT);
}

static void cntbt_verify(void *ctx, struct fs_buf *bp, struct fs_findings *fl)
{
	btree_sblock_verify(ctx, bp, fl, XFS_ABTC_CRC_MAGIC, OBJ_CNTBT);
}

static const struct buf_ops bnobt_buf_ops = {
	.name = "bnobt",
	.verify = bnobt_verify,
	.crc_off = XFS_BTREE_SBLOCK_CRC_OFF,
};

static const struct buf_ops cntbt_buf_ops = {
	.name = "cntbt",
	.verify = cntbt_verify,
	.crc_off = XFS_BTREE_SBLOCK_CRC_OFF,
};

const struct btree_ops bnobt_ops = {
	.name = "bnobt",
	.type = BT_BNO,
	.objtype = OBJ_BNOBT,
	.magic = XFS_ABTB_CRC_MAGIC,
	.rec_len = sizeof(struct xfs_alloc_rec),
	.key_len = sizeof(struct xfs_alloc_rec),
	.maxlevels = XFS_BTREE_MAXLEVELS,
	.buf_ops = &bnobt_buf_ops,
	.fields = &ft_bnobt,
	.cmp_keys = bno_cmp_keys,
	.rec_low_key = alloc_rec_key,
	.check_rec = bno_check_rec,
};

const struct btree_ops cntbt_ops = {
	.name = "cntbt",
	.type = BT_CNT,
	.objtype = OBJ_CNTBT,
	.magic = XFS_ABTC_CRC_MAGIC,
	.rec_len = sizeof(struct xfs_alloc_rec),
	.key_len = sizeof(struct xfs_alloc_rec),
	.maxlevels = XFS_BTREE_MAXLEVELS,
	.buf_ops = &cntbt_buf_ops,
	.fields = &ft_cntbt,
	.cmp_keys = cnt_cmp_keys,
	.rec_low_key = alloc_rec_key,
	.check_rec = alloc_check_extent,
};

/* ---- inodes ---- */

static int ino_cmp_keys(const void *k1, const void *k2)
{
	return cmp_u32(load_be32(k1), load_be32(k2));
}

static void ino_rec_key(const void *rec, void *key)
{
	memcpy(key, rec, sizeof(struct xfs_inobt_key));
}

/* The 64-bit mask of the inodes a sparse hole mask leaves out. */
static uint64_t holemask_inodes(uint16_t holemask)
{
	uint64_t m = 0;

	for (unsigned i = 0; i < 16; i++)
		if (holemask & (1u << i))
			m |= 0xfull << (i * XFS_INODES_PER_HOLEMASK_BIT);
	return m;
}

static void inobt_check_rec(struct btree_walk *w, const void *rec,
			    struct fs_findings *fl)
{
	const struct xfs_inobt_rec *r = rec;
	const struct fs_geom *g = &w->fs->geo;
	struct fs_objref o = rec_obj(w);
	xfs_agino_t start = get_be32(r->ir_startino);
	uint64_t freemask = get_be64(r->ir_free);
	xfs_agblock_t agbno = agino_to_agbno(g, start);
	unsigned freecount;

	if (!agino_chunk_aligned(g, start) ||
	    !agino_valid(g, w->root->agno, start) ||
	    !agino_valid(g, w->root->agno, start + XFS_INODES_PER_CHUNK - 1) ||
	    agbno < ag_first_block(g))
		fs_report_found(fl, PR_INOBT_BAD_STARTINO, &o, "startino",
				start);
	if (g->has_sparse) {
		uint16_t holemask = get_be16(r->ir_u.sp.ir_holemask);
		uint64_t holes = holemask_inodes(holemask);
		unsigned count = r->ir_u.sp.ir_count;
		unsigned want = XFS_INODES_PER_CHUNK -
			(unsigned)__builtin_popcountll(holes);
		unsigned ipc = g->inodes_per_cluster;

		freecount = r->ir_u.sp.ir_freecount;
		if (holemask == 0xffff)
			fs_report_found(fl, PR_INOBT_BAD_HOLEMASK, &o,
					"holemask", holemask);
		/* a cluster is read and written whole: all hole or none */
		if (ipc >= XFS_INODES_PER_HOLEMASK_BIT &&
		    ipc < XFS_INODES_PER_CHUNK) {
			uint64_t cmask = (1ull << ipc) - 1;

			for (unsigned c = 0; c < XFS_INODES_PER_CHUNK; c += ipc) {
				uint64_t h = (holes >> c) & cmask;

				if (h && h != cmask) {
					fs_report_found(fl,
							PR_INOBT_BAD_HOLEMASK,
							&o, "holemask",
							holemask);
					break;
				}
			}
		}
		/* (in the order xfs_repair says them) */
		if ((freemask & holes) != holes)
			fs_report_val(fl, PR_INOBT_HOLE_NOT_FREE, &o, "free",
				      freemask | holes, freemask);
		if ((unsigned)__builtin_popcountll(freemask & ~holes) !=
		    freecount)
			fs_report_val(fl, PR_INOBT_BAD_FREECOUNT, &o,
				      "freecount",
				      __builtin_popcountll(freemask & ~holes),
				      freecount);
		if (count != want)
			fs_report_val(fl, PR_INOBT_BAD_COUNT, &o, "count", want,
				      count);
	} else {
		freecount = get_be32(r->ir_u.f.ir_freecount);
		if ((unsigned)__builtin_popcountll(freemask) != freecount)
			fs_report_val(fl, PR_INOBT_BAD_FREECOUNT, &o,
				      "freecount",
				      __builtin_popcountll(freemask),
				      freecount);
	}
}

static void finobt_check_rec(struct btree_walk *w, const void *rec,
			     struct fs_findings *fl)
{
	const struct xfs_inobt_rec *r = rec;
	const struct fs_geom *g = &w->fs->geo;
	uint64_t freemask = get_be64(r->ir_free);

	inobt_check_rec(w, rec, fl);
	if (g->has_sparse)
		freemask &= ~holemask_inodes(get_be16(r->ir_u.sp.ir_holemask));
	if (!freemask) {
		struct fs_objref o = rec_obj(w);

		fs_report(fl, PR_FINOBT_NO_FREE, &o, "free");
	}
}

static void inobt_verify(void *ctx, struct fs_buf *bp, struct fs_findings *fl)
{
	btree_sblock_verify(ctx, bp, fl, XFS_IBT_CRC_MAGIC, OBJ_INOBT);
}

static void finobt_verify(void *ctx, struct fs_buf *bp, struct fs_findings *fl)
{
	btree_sblock_verify(ctx, bp, fl, XFS_FIBT_CRC_MAGIC, OBJ_FINOBT);
}

static const struct buf_ops inobt_buf_ops = {
	.name = "inobt",
	.verify = inobt_verify,
	.crc_off = XFS_BTREE_SBLOCK_CRC_OFF,
};

static const struct buf_ops finobt_buf_ops = {
	.name = "finobt",
	.verify = finobt_verify,
	.crc_off = XFS_BTREE_SBLOCK_CRC_OFF,
};

const struct btree_ops inobt_ops = {
	.name = "inobt",
	.type = BT_INO,
	.objtype = OBJ_INOBT,
	.magic = XFS_IBT_CRC_MAGIC,
	.rec_len = sizeof(struct xfs_inobt_rec),
	.key_len = sizeof(struct xfs_inobt_key),
	.maxlevels = XFS_BTREE_MAXLEVELS,
	.buf_ops = &inobt_buf_ops,
	.fields = &ft_inobt,
	.cmp_keys = ino_cmp_keys,
	.rec_low_key = ino_rec_key,
	.check_rec = inobt_check_rec,
};

const struct btree_ops finobt_ops = {
	.name = "finobt",
	.type = BT_FINO,
	.objtype = OBJ_FINOBT,
	.magic = XFS_FIBT_CRC_MAGIC,
	.rec_len = sizeof(struct xfs_inobt_rec),
	.key_len = sizeof(struct xfs_inobt_key),
	.maxlevels = XFS_BTREE_MAXLEVELS,
	.buf_ops = &finobt_buf_ops,
	.fields = &ft_finobt,
	.cmp_keys = ino_cmp_keys,
	.rec_low_key = ino_rec_key,
	.check_rec = finobt_check_rec,
};

/* ---- reverse mappings ---- */

/* Owners that are not inodes: the negative numbers the format reserves. */
static bool rmap_special_owner(uint64_t owner)
{
	return owner >= XFS_RMAP_OWN_MIN;
}

/*
 * Keys ignore the unwritten flag (a conversion does not move a record)
 * but keep the fork and bmbt flags; comparison looks at the offset only.
 */
static int rmap_cmp_keys(const void *k1, const void *k2)
{
	const struct xfs_rmap_key *a = k1, *b = k2;
	int c = cmp_u32(get_be32(a->rm_startblock), get_be32(b->rm_startblock));

	if (c)
		return c;
	c = cmp_u64(get_be64(a->rm_owner), get_be64(b->rm_owner));
	if (c)
		return c;
	return cmp_u64(get_be64(a->rm_offset) & XFS_RMAP_OFF_MASK,
		       get_be64(b->rm_offset) & XFS_RMAP_OFF_MASK);
}

static void rmap_rec_low_key(const void *rec, void *key)
{
	const struct xfs_rmap_rec *r = rec;
	struct xfs_rmap_key *k = key;

	k->rm_startblock = r->rm_startblock;
	k->rm_owner = r->rm_owner;
	put_be64(&k->rm_offset, get_be64(r->rm_offset) & ~XFS_RMAP_OFF_UNWRITTEN);
}

/*
 * The high key: the last block of the extent, and for file data the last
 * file offset it maps (metadata owners and bmbt blocks have no offset).
 */
static void rmap_rec_high_key(const void *rec, void *key)
{
	const struct xfs_rmap_rec *r = rec;
	struct xfs_rmap_key *k = key;
	uint32_t adj = get_be32(r->rm_blockcount) - 1;
	uint64_t owner = get_be64(r->rm_owner);
	uint64_t off = get_be64(r->rm_offset) & ~XFS_RMAP_OFF_UNWRITTEN;

	put_be32(&k->rm_startblock, get_be32(r->rm_startblock) + adj);
	k->rm_owner = r->rm_owner;
	if (!rmap_special_owner(owner) && !(off & XFS_RMAP_OFF_BMBT_BLOCK))
		off = (((off & XFS_RMAP_OFF_MASK) + adj) & XFS_RMAP_OFF_MASK) |
		      (off & ~XFS_RMAP_OFF_MASK);
	put_be64(&k->rm_offset, off);
}

static void rmap_check_rec(struct btree_walk *w, const void *rec,
			   struct fs_findings *fl)
{
	const struct xfs_rmap_rec *r = rec, *p = w->prev_rec;
	const struct fs_geom *g = &w->fs->geo;
	struct fs_objref o = rec_obj(w);
	uint32_t start = get_be32(r->rm_startblock);
	uint32_t len = get_be32(r->rm_blockcount);
	uint64_t owner = get_be64(r->rm_owner);
	uint64_t raw = get_be64(r->rm_offset);
	uint64_t off = raw & XFS_RMAP_OFF_MASK;
	bool special = rmap_special_owner(owner);
	bool attr = raw & XFS_RMAP_OFF_ATTR_FORK;
	bool bmbt = raw & XFS_RMAP_OFF_BMBT_BLOCK;
	bool unwritten = raw & XFS_RMAP_OFF_UNWRITTEN;
	uint32_t agsize = geom_ag_blocks(g, w->root->agno);

	/* only the headers' record may start in the header blocks */
	if (owner == XFS_RMAP_OWN_FS ?
	    (start != 0 || !len || len > agsize) :
	    !ag_extent_ok(g, w->root->agno, start, len))
		fs_report_val(fl, PR_RMAP_BAD_EXTENT, &o, "recs", start, len);
	if (special ? (owner < XFS_RMAP_OWN_COW || owner > XFS_RMAP_OWN_FS ||
		       (owner == XFS_RMAP_OWN_COW && !g->has_reflink)) :
		      !ino_valid(g, owner))
		fs_report_found(fl, PR_RMAP_BAD_OWNER, &o, "owner", owner);
	if (raw & ~(XFS_RMAP_OFF_MASK | XFS_RMAP_OFF_FLAGS))
		fs_report_found(fl, PR_RMAP_BAD_FLAGS, &o, "offset", raw);
	if (special) {
		if (attr || bmbt || unwritten)
			fs_report_found(fl, PR_RMAP_BAD_FLAGS, &o, "offset", raw);
		if (off)
			fs_report_val(fl, PR_RMAP_BAD_OFFSET, &o, "offset", 0,
				      off);
	} else if (bmbt) {
		/* bmbt blocks belong to a fork, not to a file offset */
		if (off)
			fs_report_val(fl, PR_RMAP_BAD_OFFSET, &o, "offset", 0,
				      off);
		if (unwritten)
			fs_report_found(fl, PR_RMAP_BAD_FLAGS, &o, "offset", raw);
	} else {
		if (attr && unwritten)
			fs_report_found(fl, PR_RMAP_BAD_FLAGS, &o, "offset", raw);
		if (off + len > XFS_RMAP_OFF_MASK + 1)
			fs_report_found(fl, PR_RMAP_BAD_OFFSET, &o, "offset",
					off);
	}
	if (p && !g->has_reflink) {
		uint32_t pstart = get_be32(p->rm_startblock);
		uint64_t pend = (uint64_t)pstart + get_be32(p->rm_blockcount);

		if (pstart <= start && pend > start)
			fs_report_val(fl, PR_RMAP_OVERLAP, &o, "recs", pend,
				      start);
	}
}

static void rmapbt_verify(void *ctx, struct fs_buf *bp, struct fs_findings *fl)
{
	btree_sblock_verify(ctx, bp, fl, XFS_RMAP_CRC_MAGIC, OBJ_RMAPBT);
}

static const struct buf_ops rmapbt_buf_ops = {
	.name = "rmapbt",
	.verify = rmapbt_verify,
	.crc_off = XFS_BTREE_SBLOCK_CRC_OFF,
};

const struct btree_ops rmapbt_ops = {
	.name = "rmapbt",
	.type = BT_RMAP,
	.objtype = OBJ_RMAPBT,
	.magic = XFS_RMAP_CRC_MAGIC,
	.overlapping = true,
	.rec_len = sizeof(struct xfs_rmap_rec),
	.key_len = sizeof(struct xfs_rmap_key),
	.maxlevels = RMAPBT_MAXLEVELS_CAP,
	.buf_ops = &rmapbt_buf_ops,
	.fields = &ft_rmapbt,
	.cmp_keys = rmap_cmp_keys,
	.rec_low_key = rmap_rec_low_key,
	.rec_high_key = rmap_rec_high_key,
	.check_rec = rmap_check_rec,
};

/* ---- reference counts ---- */

static int refc_cmp_keys(const void *k1, const void *k2)
{
	return cmp_u32(load_be32(k1), load_be32(k2));
}

static void refc_rec_key(const void *rec, void *key)
{
	memcpy(key, rec, sizeof(struct xfs_refcount_key));
}

static void refc_check_rec(struct btree_walk *w, const void *rec,
			   struct fs_findings *fl)
{
	const struct xfs_refcount_rec *r = rec, *p = w->prev_rec;
	const struct fs_geom *g = &w->fs->geo;
	struct fs_objref o = rec_obj(w);
	uint32_t raw = get_be32(r->rc_startblock);
	bool cow = raw & XFS_REFC_COWFLAG;
	uint32_t start = raw & ~XFS_REFC_COWFLAG;
	uint32_t len = get_be32(r->rc_blockcount);
	uint32_t refcount = get_be32(r->rc_refcount);

	if (len > XFS_REFC_LEN_MAX ||
	    !ag_extent_ok(g, w->root->agno, start, len))
		fs_report_val(fl, PR_REFC_BAD_EXTENT, &o, "recs", start, len);
	/* staging extents have one owner; shared extents at least two */
	if (cow ? refcount != 1 : refcount < 2)
		fs_report_val(fl, PR_REFC_BAD_REFCOUNT, &o, "refcount",
			      cow ? 1 : 2, refcount);
	if (p) {
		uint32_t praw = get_be32(p->rc_startblock);
		uint64_t pend = (uint64_t)(praw & ~XFS_REFC_COWFLAG) +
				get_be32(p->rc_blockcount);

		if ((praw & XFS_REFC_COWFLAG) == (raw & XFS_REFC_COWFLAG) &&
		    (praw & ~XFS_REFC_COWFLAG) < start && pend > start)
			fs_report_val(fl, PR_REFC_OVERLAP, &o, "recs", pend,
				      start);
	}
}

static void refcountbt_verify(void *ctx, struct fs_buf *bp,
			      struct fs_findings *fl)
{
	btree_sblock_verify(ctx, bp, fl, XFS_REFC_CRC_MAGIC, OBJ_REFCBT);
}

static const struct buf_ops refcountbt_buf_ops = {
	.name = "refcountbt",
	.verify = refcountbt_verify,
	.crc_off = XFS_BTREE_SBLOCK_CRC_OFF,
};

const struct btree_ops refcountbt_ops = {
	.name = "refcountbt",
	.type = BT_REFC,
	.objtype = OBJ_REFCBT,
	.magic = XFS_REFC_CRC_MAGIC,
	.rec_len = sizeof(struct xfs_refcount_rec),
	.key_len = sizeof(struct xfs_refcount_key),
	.maxlevels = XFS_BTREE_MAXLEVELS,
	.buf_ops = &refcountbt_buf_ops,
	.fields = &ft_refcbt,
	.cmp_keys = refc_cmp_keys,
	.rec_low_key = refc_rec_key,
	.check_rec = refc_check_rec,
};
