/*
 * Whole-AG cross-checks (see ag_check.h for the list) and iteration over
 * an AG's inode chunks.
 *
 * In:  one AG number.
 * Out: findings; an ag_summary of what the AG's trees hold.
 *
 * One pass walks each tree once and keeps what later checks need: the
 * free extents of both free space trees, the inobt and finobt records,
 * every btree block (as a claim on AG space), the reverse mappings and
 * the CoW staging extents.  Then the claims on AG space are sorted and
 * swept for overlaps, and, with the rmapbt, compared owner by owner with
 * the reverse mappings.  Memory is proportional to the number of records
 * of the AG; nothing is kept after the call.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "ag_check.h"

/* Who claims a piece of AG space. */
enum claim {
	CL_HDR, CL_LOG, CL_BNO, CL_CNT, CL_RMAP, CL_AGFL, CL_INO, CL_FINO,
	CL_REFC, CL_INODES, CL_COW, CL_FREE, CL_N
};

static const char *const claim_name[CL_N] = {
	[CL_HDR] = "headers", [CL_LOG] = "log", [CL_BNO] = "bnobt",
	[CL_CNT] = "cntbt", [CL_RMAP] = "rmapbt", [CL_AGFL] = "agfl",
	[CL_INO] = "inobt", [CL_FINO] = "finobt", [CL_REFC] = "refcountbt",
	[CL_INODES] = "inode chunk", [CL_COW] = "cow staging",
	[CL_FREE] = "free space",
};

static const enum fs_objtype claim_obj[CL_N] = {
	[CL_HDR] = OBJ_AGF, [CL_LOG] = OBJ_LOG, [CL_BNO] = OBJ_BNOBT,
	[CL_CNT] = OBJ_CNTBT, [CL_RMAP] = OBJ_RMAPBT, [CL_AGFL] = OBJ_AGFL,
	[CL_INO] = OBJ_INOBT, [CL_FINO] = OBJ_FINOBT, [CL_REFC] = OBJ_REFCBT,
	[CL_INODES] = OBJ_INOBT, [CL_COW] = OBJ_REFCBT, [CL_FREE] = OBJ_BNOBT,
};

/* The rmapbt owner of each claim (free space has none). */
static const uint64_t claim_owner[CL_N] = {
	[CL_HDR] = XFS_RMAP_OWN_FS, [CL_LOG] = XFS_RMAP_OWN_LOG,
	[CL_BNO] = XFS_RMAP_OWN_AG, [CL_CNT] = XFS_RMAP_OWN_AG,
	[CL_RMAP] = XFS_RMAP_OWN_AG, [CL_AGFL] = XFS_RMAP_OWN_AG,
	[CL_INO] = XFS_RMAP_OWN_INOBT, [CL_FINO] = XFS_RMAP_OWN_INOBT,
	[CL_REFC] = XFS_RMAP_OWN_REFC, [CL_INODES] = XFS_RMAP_OWN_INODES,
	[CL_COW] = XFS_RMAP_OWN_COW, [CL_FREE] = 0,
};

/* The special owners compared with the structures that should exist. */
static const struct {
	uint64_t	owner;
	const char	*name;
} special_owners[] = {
	{ XFS_RMAP_OWN_FS, "owner fs" },
	{ XFS_RMAP_OWN_LOG, "owner log" },
	{ XFS_RMAP_OWN_AG, "owner ag" },
	{ XFS_RMAP_OWN_INOBT, "owner inobt" },
	{ XFS_RMAP_OWN_INODES, "owner inodes" },
	{ XFS_RMAP_OWN_REFC, "owner refc" },
	{ XFS_RMAP_OWN_COW, "owner cow" },
};

/* An extent of AG blocks, with who claims it (tag) or owns it (rmap). */
struct ext {
	uint32_t	start;
	uint32_t	len;
	uint64_t	tag;
};

struct extv {
	struct ext	*v;
	size_t		n, cap;
};

struct inov {
	struct inobt_irec *v;
	size_t		n, cap;
};

struct agc {
	struct fs		*fs;
	xfs_agnumber_t		agno;
	uint32_t		size;		/* blocks in this AG */
	struct fs_findings	*fl;
	struct ag_summary	*sum;
	struct extv		bno, cnt, claims, rmaps;
	struct inov		ino, fino;
	int			err;
};

/* What one tree walk adds to, through the walk's priv pointer. */
struct tree_ctx {
	struct agc	*c;
	enum claim	claim;
};

static int grow(void **v, size_t *cap, size_t n, size_t elem)
{
	size_t ncap;
	void *nv;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 64;
	nv = realloc(*v, ncap * elem);
	if (!nv)
		return -ENOMEM;
	*v = nv;
	*cap = ncap;
	return 0;
}

static int extv_push(struct extv *e, uint32_t start, uint32_t len,
		     uint64_t tag)
{
	int err = grow((void **)&e->v, &e->cap, e->n, sizeof(*e->v));

	if (err)
		return err;
	e->v[e->n++] = (struct ext){ start, len, tag };
	return 0;
}

static int inov_push(struct inov *e, const struct inobt_irec *r)
{
	int err = grow((void **)&e->v, &e->cap, e->n, sizeof(*e->v));

	if (err)
		return err;
	e->v[e->n++] = *r;
	return 0;
}

static int ext_cmp(const void *a, const void *b)
{
	const struct ext *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return x->tag < y->tag ? -1 : x->tag > y->tag;
}

/* qsort must not see a NULL array, even an empty one */
static void extv_sort(struct extv *e)
{
	if (e->n > 1)
		qsort(e->v, e->n, sizeof(*e->v), ext_cmp);
}

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static struct fs_objref ag_obj(const struct agc *c, enum fs_objtype t)
{
	struct fs_objref o = OBJREF_INIT(t);

	o.agno = c->agno;
	return o;
}

static struct fs_objref block_obj(const struct agc *c, enum fs_objtype t,
				  xfs_agblock_t agbno)
{
	struct fs_objref o = ag_obj(c, t);

	o.daddr = agb_to_daddr(&c->fs->geo, c->agno, agbno);
	return o;
}

/* ---- roots ---- */

void agf_btree_root(const struct fs_agf *agf, xfs_agnumber_t agno,
		    enum btree_type type, struct btree_root *root)
{
	memset(root, 0, sizeof(*root));
	root->agno = agno;
	root->ino = NULLFSINO;
	switch (type) {
	case BT_BNO:
		root->ops = &bnobt_ops;
		root->root = agf->roots[XFS_AGF_BNO];
		root->levels = agf->levels[XFS_AGF_BNO];
		break;
	case BT_CNT:
		root->ops = &cntbt_ops;
		root->root = agf->roots[XFS_AGF_CNT];
		root->levels = agf->levels[XFS_AGF_CNT];
		break;
	case BT_RMAP:
		root->ops = &rmapbt_ops;
		root->root = agf->roots[XFS_AGF_RMAP];
		root->levels = agf->levels[XFS_AGF_RMAP];
		break;
	case BT_REFC:
		root->ops = &refcountbt_ops;
		root->root = agf->refcount_root;
		root->levels = agf->refcount_level;
		break;
	default:
		break;
	}
}

void agi_btree_root(const struct fs_agi *agi, xfs_agnumber_t agno,
		    enum btree_type type, struct btree_root *root)
{
	memset(root, 0, sizeof(*root));
	root->agno = agno;
	root->ino = NULLFSINO;
	if (type == BT_FINO) {
		root->ops = &finobt_ops;
		root->root = agi->free_root;
		root->levels = agi->free_level;
	} else {
		root->ops = &inobt_ops;
		root->root = agi->root;
		root->levels = agi->level;
	}
}

/* The header verifier has reported a root it does not like; skip those. */
static bool root_usable(struct fs *fs, const struct btree_root *r)
{
	return ag_extent_ok(&fs->geo, r->agno, r->root, 1) && r->levels >= 1 &&
	       r->levels <= btree_maxlevels(&fs->geo, r->ops);
}

/* ---- inode records ---- */

static uint64_t holes_of(uint16_t holemask)
{
	uint64_t m = 0;

	for (unsigned i = 0; i < 16; i++)
		if (holemask & (1u << i))
			m |= 0xfull << (i * XFS_INODES_PER_HOLEMASK_BIT);
	return m;
}

void inobt_rec_decode(const struct fs_geom *g, const struct xfs_inobt_rec *r,
		      struct inobt_irec *irec)
{
	irec->startino = get_be32(r->ir_startino);
	irec->free = get_be64(r->ir_free);
	irec->daddr = (xfs_daddr_t)-1;
	irec->index = 0;
	if (g->has_sparse) {
		irec->holes = holes_of(get_be16(r->ir_u.sp.ir_holemask));
		irec->count = r->ir_u.sp.ir_count;
		irec->freecount = r->ir_u.sp.ir_freecount;
	} else {
		irec->holes = 0;
		irec->count = XFS_INODES_PER_CHUNK;
		irec->freecount = get_be32(r->ir_u.f.ir_freecount);
	}
}

/*
 * Is agbno a block of the free space, rmap or refcount trees (walked
 * before the inode btrees)?  The reference reads such a block from its
 * cache as it was verified there, whatever tree it is then read as.
 */
static bool tree_block(const struct agc *c, xfs_agblock_t agbno)
{
	for (size_t i = 0; i < c->claims.n; i++) {
		const struct ext *e = &c->claims.v[i];

		if ((e->tag == CL_BNO || e->tag == CL_CNT ||
		     e->tag == CL_RMAP || e->tag == CL_REFC) &&
		    agbno >= e->start && agbno - e->start < e->len)
			return true;
	}
	return false;
}

/*
 * A root the walk read but could not use, of another kind (magic), or
 * of a level other than the header's that its verifier refuses: nothing
 * of the tree is read, as when the root is unusable.  (A root whose
 * level merely differs, or with too many records, is read all the same
 * by the reference: as the level expected, as many records as fit.)
 */
static bool root_refused(struct fs *fs, const struct btree_root *r)
{
	struct fs_buf *bp;
	bool ret;

	if (fs_read_agblocks(fs, r->agno, r->root, 1, r->ops->buf_ops, NULL,
			     &bp))
		return false;
	ret = load_be32(bp->data) != r->ops->magic ||
	      (buf_corrupt(bp) &&
	       load_be16((const uint8_t *)bp->data +
			 offsetof(struct xfs_btree_sblock, bb_level)) !=
	       r->levels - 1);
	buf_release(bp);
	return ret;
}

/* Is the chunk's inode range one of this AG's, aligned as chunks are? */
static bool chunk_usable(const struct fs_geom *g, xfs_agnumber_t agno,
			 xfs_agino_t start)
{
	return agino_chunk_aligned(g, start) &&
	       agino_valid(g, agno, start) &&
	       agino_valid(g, agno, start + XFS_INODES_PER_CHUNK - 1) &&
	       agino_to_agbno(g, start) >= ag_first_block(g);
}

/* ---- walk callbacks ---- */

static int tree_blk(struct btree_walk *w, unsigned level, xfs_fsblock_t fsb,
		    void *priv)
{
	struct tree_ctx *t = priv;

	(void)level;
	return extv_push(&t->c->claims, fsb_to_agbno(&w->fs->geo, fsb), 1,
			 t->claim);
}

static int alloc_rec(struct btree_walk *w, const void *rec, void *priv)
{
	struct tree_ctx *t = priv;
	const struct xfs_alloc_rec *r = rec;

	(void)w;
	return extv_push(t->claim == CL_BNO ? &t->c->bno : &t->c->cnt,
			 get_be32(r->ar_startblock), get_be32(r->ar_blockcount),
			 0);
}

static int inobt_rec(struct btree_walk *w, const void *rec, void *priv)
{
	struct tree_ctx *t = priv;
	struct inobt_irec irec;

	inobt_rec_decode(&w->fs->geo, rec, &irec);
	return inov_push(t->claim == CL_INO ? &t->c->ino : &t->c->fino, &irec);
}

static int rmap_rec(struct btree_walk *w, const void *rec, void *priv)
{
	struct tree_ctx *t = priv;
	const struct xfs_rmap_rec *r = rec;
	uint32_t start = get_be32(r->rm_startblock);
	uint32_t len = get_be32(r->rm_blockcount);

	(void)w;
	/* check_rec reported a bad extent; keep only what fits the AG */
	if (!len || start >= t->c->size || len > t->c->size - start)
		return 0;
	return extv_push(&t->c->rmaps, start, len, get_be64(r->rm_owner));
}

static int refc_rec(struct btree_walk *w, const void *rec, void *priv)
{
	struct tree_ctx *t = priv;
	const struct xfs_refcount_rec *r = rec;
	uint32_t raw = get_be32(r->rc_startblock);
	uint32_t start = raw & ~XFS_REFC_COWFLAG;
	uint32_t len = get_be32(r->rc_blockcount);

	/*
	 * A staging extent is the CoW domain's single owner.  A CoW record
	 * counting more owners (REFC_BAD_REFCOUNT) is taken for the shared
	 * extent it describes, as xfs_repair does: it claims no space.
	 */
	if (!(raw & XFS_REFC_COWFLAG) || get_be32(r->rc_refcount) != 1 ||
	    !ag_extent_ok(&w->fs->geo, t->c->agno, start, len))
		return 0;
	return extv_push(&t->c->claims, start, len, CL_COW);
}

static int walk_tree(struct agc *c, const struct btree_root *root,
		     enum claim claim, btree_rec_fn fn, struct btree_stats *st)
{
	struct tree_ctx t = { c, claim };
	int err;

	if (!root_usable(c->fs, root))
		return 0;
	err = btree_walk(c->fs, root, fn, tree_blk, &t, c->fl, st);
	c->sum->btree_blocks += st->nblocks;
	return err < 0 ? err : 0;
}

/* ---- free space ---- */

/*
 * The free extents: totals against the AGF, the two trees against each
 * other, and the extents as claims on AG space.  A tree that was not
 * walked whole (bno_full, cnt_full false) has had its damage reported;
 * comparing what is left of it would only repeat that at length.
 */
static void check_free_space(struct agc *c, const struct fs_agf *agf,
			     bool bno_full, bool cnt_full)
{
	struct extv *b = &c->bno, *n = &c->cnt;
	uint64_t total = 0, longest = 0;
	size_t i = 0, j = 0;
	struct fs_objref oa = ag_obj(c, OBJ_AGF);

	oa.daddr = ag_sector_daddr(&c->fs->geo, c->agno, XFS_AGF_SECTOR);
	for (size_t k = 0; k < b->n; k++) {
		total += b->v[k].len;
		if (b->v[k].len > longest)
			longest = b->v[k].len;
	}
	c->sum->freeblks = total;
	c->sum->longest = longest;
	if (bno_full && agf->freeblks != total)
		fs_report_val(c->fl, PR_AGF_FREEBLKS_MISMATCH, &oa, "freeblks",
			      total, agf->freeblks);
	if (bno_full && agf->longest != longest)
		fs_report_val(c->fl, PR_AGF_LONGEST_MISMATCH, &oa, "longest",
			      longest, agf->longest);

	/* the two trees index one set of extents (bno is sorted already) */
	extv_sort(n);
	while (bno_full && cnt_full && (i < b->n || j < n->n)) {
		int d = i == b->n ? 1 : j == n->n ? -1 :
			ext_cmp(&b->v[i], &n->v[j]);
		struct fs_objref o = ag_obj(c, OBJ_CNTBT);

		if (d == 0) {
			i++;
			j++;
		} else if (d < 0) {
			fs_report_val(c->fl, PR_CNTBT_MISSING_EXTENT, &o, "recs",
				      b->v[i].start, b->v[i].len);
			i++;
		} else {
			fs_report_val(c->fl, PR_CNTBT_EXTRA_EXTENT, &o, "recs",
				      n->v[j].start, n->v[j].len);
			j++;
		}
	}
	for (size_t k = 0; k < b->n; k++)
		if (ag_extent_ok(&c->fs->geo, c->agno, b->v[k].start,
				 b->v[k].len)) {
			c->err = extv_push(&c->claims, b->v[k].start,
					   b->v[k].len, CL_FREE);
			if (c->err)
				return;
		}
}

/* Is agbno inside one of the (sorted) free extents? */
static bool is_free(const struct extv *b, uint32_t agbno)
{
	size_t lo = 0, hi = b->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (b->v[mid].start > agbno)
			hi = mid;
		else if ((uint64_t)b->v[mid].start + b->v[mid].len <= agbno)
			lo = mid + 1;
		else
			return true;
	}
	return false;
}

struct agfl_ctx {
	struct agc	*c;
	uint32_t	*blocks;
	unsigned	n;
	bool		verified;	/* the verifier checked the entries */
};

static int agfl_entry(xfs_agnumber_t agno, unsigned idx, xfs_agblock_t agbno,
		      void *priv)
{
	struct agfl_ctx *a = priv;
	struct agc *c = a->c;
	struct fs_objref o = ag_obj(c, OBJ_AGFL);

	(void)agno;
	o.daddr = ag_sector_daddr(&c->fs->geo, c->agno, XFS_AGFL_SECTOR);
	o.index = idx;
	/*
	 * Numbers past the AG were reported by the AGFL verifier, unless a
	 * bad magic number stopped it before the entries.
	 */
	if (agbno == NULLAGBLOCK || agbno < ag_first_block(&c->fs->geo) ||
	    (agbno >= c->size && !a->verified)) {
		fs_report_found(c->fl, PR_AGFL_BAD_ENTRY, &o, "bno", agbno);
		return 0;
	}
	if (agbno >= c->size)
		return 0;
	if (is_free(&c->bno, agbno))
		fs_report_found(c->fl, PR_AGFL_ENTRY_FREE, &o, "bno", agbno);
	a->blocks[a->n++] = agbno;
	return 0;
}

static void check_agfl(struct agc *c, const struct fs_agf *agf)
{
	struct fs_buf *bp;
	struct agfl_ctx a = { .c = c };
	unsigned span = agfl_span(&c->fs->geo, agf);

	/*
	 * The list runs from flfirst to fllast whatever flcount says (the
	 * AGF verifier reports a count that disagrees): those are the
	 * blocks the kernel would take, and the ones xfs_repair counts.
	 */
	if (!span)
		return;
	c->sum->flcount = span;
	if (ag_read_agfl(c->fs, c->agno, c->fl, &bp))
		return;
	/*
	 * A header the verifier refuses (reported) still lists the blocks
	 * the AGF counts as free: xfs_repair walks them all the same, and
	 * so do we, so that they are not taken for blocks nothing owns.
	 */
	a.verified = get_be32(((const struct xfs_agfl *)bp->data)->
			      agfl_magicnum) == XFS_AGFL_MAGIC;
	a.blocks = malloc((span + 1) * sizeof(*a.blocks));
	if (!a.blocks) {
		c->err = -ENOMEM;
		buf_release(bp);
		return;
	}
	agfl_walk(&c->fs->geo, c->agno, agf, bp->data, agfl_entry, &a);
	buf_release(bp);
	if (a.n)
		qsort(a.blocks, a.n, sizeof(*a.blocks), u32_cmp);
	for (unsigned i = 0; i < a.n && !c->err; i++) {
		if (i && a.blocks[i] == a.blocks[i - 1]) {
			struct fs_objref o = block_obj(c, OBJ_AGFL, a.blocks[i]);

			fs_report_found(c->fl, PR_AGFL_DUP_ENTRY, &o, "bno",
					a.blocks[i]);
			continue;
		}
		c->err = extv_push(&c->claims, a.blocks[i], 1, CL_AGFL);
	}
	free(a.blocks);
}

static void check_agf_counters(struct agc *c, const struct fs_agf *agf,
			       bool bno_ok, bool cnt_ok, bool rmap_ok,
			       bool refc_ok)
{
	const struct fs_geom *g = &c->fs->geo;
	struct ag_summary *s = c->sum;
	struct fs_objref o = ag_obj(c, OBJ_AGF);

	o.daddr = ag_sector_daddr(g, c->agno, XFS_AGF_SECTOR);
	/* the roots are not counted in btreeblks */
	if (bno_ok && cnt_ok && (!g->has_rmapbt || rmap_ok)) {
		uint64_t want = s->bno.nblocks - 1 + s->cnt.nblocks - 1;

		if (g->has_rmapbt)
			want += s->rmap.nblocks - 1;
		s->btreeblks = want;
		if (agf->btreeblks != want)
			fs_report_val(c->fl, PR_AGF_BTREEBLKS_MISMATCH, &o,
				      "btreeblks", want, agf->btreeblks);
	}
	if (rmap_ok && agf->rmap_blocks != s->rmap.nblocks)
		fs_report_val(c->fl, PR_AGF_RMAP_BLOCKS_MISMATCH, &o,
			      "rmapblocks", s->rmap.nblocks, agf->rmap_blocks);
	if (refc_ok && agf->refcount_blocks != s->refc.nblocks)
		fs_report_val(c->fl, PR_AGF_REFC_BLOCKS_MISMATCH, &o,
			      "refcntblocks", s->refc.nblocks,
			      agf->refcount_blocks);
}

/* ---- inodes ---- */

static bool irec_has_free(const struct inobt_irec *r)
{
	return (r->free & ~r->holes) != 0;
}

static int agino_cmp(const void *a, const void *b)
{
	xfs_agino_t x = *(const xfs_agino_t *)a, y = *(const xfs_agino_t *)b;

	return x < y ? -1 : x > y;
}

/* inobt records whose 64 inodes overlap another record's (same start too) */
static unsigned chunk_overlaps(const struct inov *v)
{
	xfs_agino_t *s;
	unsigned n = 0;

	if (v->n < 2)
		return 0;
	s = malloc(v->n * sizeof(*s));
	if (!s)
		return 0;
	for (size_t k = 0; k < v->n; k++)
		s[k] = v->v[k].startino;
	qsort(s, v->n, sizeof(*s), agino_cmp);
	for (size_t k = 1; k < v->n; k++)
		if ((uint64_t)s[k - 1] + XFS_INODES_PER_CHUNK > s[k])
			n++;
	free(s);
	return n;
}

/* Each inobt record with free inodes against the finobt's. */
static void compare_fino(struct agc *c)
{
	size_t i = 0, j = 0;

	/* both trees are in startino order; the walk reported any disorder */
	while (i < c->ino.n || j < c->fino.n) {
		const struct inobt_irec *a = i < c->ino.n ? &c->ino.v[i] : NULL;
		const struct inobt_irec *f = j < c->fino.n ? &c->fino.v[j] : NULL;
		struct fs_objref of = ag_obj(c, OBJ_FINOBT);

		if (a && !irec_has_free(a) && (!f || a->startino < f->startino)) {
			i++;
		} else if (a && f && a->startino == f->startino) {
			/* the finding names the first field that differs */
			const char *fld = a->free != f->free ? "free" :
					  a->holes != f->holes ? "holemask" :
					  a->count != f->count ? "count" :
					  a->freecount != f->freecount ?
					  "freecount" : NULL;

			/*
			 * A full chunk has no finobt record; one that is
			 * there differs in its free mask, or has no free
			 * inode either (FINOBT_NO_FREE, from the walk).
			 */
			if (fld && (irec_has_free(a) || irec_has_free(f)))
				fs_report_found(c->fl, PR_FINOBT_REC_MISMATCH,
						&of, fld, f->startino);
			i++;
			j++;
		} else if (a && (!f || a->startino < f->startino)) {
			fs_report_found(c->fl, PR_FINOBT_MISSING_REC, &of,
					"startino", a->startino);
			i++;
		} else {
			fs_report_found(c->fl, PR_FINOBT_EXTRA_REC, &of,
					"startino", f->startino);
			j++;
		}
	}
}

/*
 * ino_ok: the inobt was walked whole; ino_unread: its root is unusable,
 * so nothing of it was read and the AGI's totals are compared with none
 * (as the reference compares them), and every finobt record is one the
 * inobt lacks.  fino_ok, fino_unread: the same of the finobt (its block
 * count is held against none).
 */
static void check_inodes(struct agc *c, const struct fs_agi *agi,
			 bool ino_ok, bool ino_unread, bool fino_ok,
			 bool fino_unread)
{
	const struct fs_geom *g = &c->fs->geo;
	struct ag_summary *s = c->sum;
	struct fs_objref o = ag_obj(c, OBJ_AGI);

	o.daddr = ag_sector_daddr(g, c->agno, XFS_AGI_SECTOR);
	for (size_t k = 0; k < c->ino.n; k++) {
		const struct inobt_irec *r = &c->ino.v[k];

		/* the records' own counts, as the AGI's are kept */
		s->icount += r->count;
		s->ifree += r->freecount;
	}
	for (size_t k = 0; k < c->fino.n; k++)
		s->fino_freecount += c->fino.v[k].freecount;
	s->chunk_overlaps = chunk_overlaps(&c->ino);
	/*
	 * The finobt's records against the inobt's first: the reference
	 * reads both trees before it holds the AGI's totals against them.
	 */
	if (g->has_finobt && fino_ok && (ino_ok || ino_unread))
		compare_fino(c);
	/* totals of a tree walked in part would only repeat its damage */
	if ((ino_ok || ino_unread) && agi->count != s->icount)
		fs_report_val(c->fl, PR_AGI_COUNT_MISMATCH, &o, "count",
			      s->icount, agi->count);
	if ((ino_ok || ino_unread) && agi->freecount != s->ifree)
		fs_report_val(c->fl, PR_AGI_FREECOUNT_MISMATCH, &o, "freecount",
			      s->ifree, agi->freecount);
	/* (a root read and refused is a block seen all the same) */
	if ((ino_ok || ino_unread) && g->has_inobtcount &&
	    agi->iblocks != s->ino.nblocks + s->ino_root_refused)
		fs_report_val(c->fl, PR_AGI_IBLOCKS_MISMATCH, &o, "ino_blocks",
			      s->ino.nblocks + s->ino_root_refused,
			      agi->iblocks);
	if (g->has_finobt && (fino_ok || fino_unread) && g->has_inobtcount &&
	    agi->fblocks != s->fino.nblocks)
		fs_report_val(c->fl, PR_AGI_FBLOCKS_MISMATCH, &o, "fino_blocks",
			      s->fino.nblocks, agi->fblocks);
}

/* The blocks holding a chunk's present inodes, as CL_INODES claims. */
static int claim_chunk(struct agc *c, const struct inobt_irec *r)
{
	const struct fs_geom *g = &c->fs->geo;
	struct extv *e = &c->claims;

	if (!chunk_usable(g, c->agno, r->startino))
		return 0;
	for (unsigned i = 0; i < XFS_INODES_PER_CHUNK; i++) {
		uint32_t b;
		struct ext *last;

		if (r->holes & (1ull << i))
			continue;
		b = agino_to_agbno(g, r->startino + i);
		last = e->n ? &e->v[e->n - 1] : NULL;
		/* several chunks share a block when it holds > 64 inodes */
		if (last && last->tag == CL_INODES &&
		    b >= last->start && b <= (uint64_t)last->start + last->len) {
			if (b == (uint64_t)last->start + last->len)
				last->len++;
			continue;
		}
		if (extv_push(e, b, 1, CL_INODES))
			return -ENOMEM;
	}
	return 0;
}

/* ---- AG space ---- */

static bool conflict_expected(enum claim a, enum claim b)
{
	/* reported as AGFL_ENTRY_FREE and AGFL_DUP_ENTRY */
	if ((a == CL_AGFL && b == CL_FREE) || (a == CL_FREE && b == CL_AGFL))
		return true;
	return false;
}

static void check_claims(struct agc *c)
{
	struct extv *e = &c->claims;
	size_t cur = 0;
	uint64_t cur_end;

	if (!e->n)
		return;
	extv_sort(e);
	cur_end = (uint64_t)e->v[0].start + e->v[0].len;
	for (size_t k = 1; k < e->n; k++) {
		const struct ext *x = &e->v[k];
		uint64_t end = (uint64_t)x->start + x->len;

		if (x->start < cur_end &&
		    !conflict_expected(x->tag, e->v[cur].tag)) {
			struct fs_objref o = block_obj(c, claim_obj[x->tag],
						       x->start);

			fs_report_found(c->fl, PR_AG_BLOCK_CONFLICT, &o,
					claim_name[e->v[cur].tag], x->start);
			if (x->tag == CL_INODES || e->v[cur].tag == CL_INODES)
				c->sum->chunk_conflicts++;
		}
		if (end > cur_end) {
			cur_end = end;
			cur = k;
		}
	}
}

/* Sorted, merged intervals of the extents of e whose tag passes keep(). */
static int merge_extents(const struct extv *e, bool (*keep)(uint64_t, uint64_t),
			 uint64_t arg, struct extv *out)
{
	out->n = 0;
	for (size_t k = 0; k < e->n; k++) {
		const struct ext *x = &e->v[k];
		struct ext *last;

		if (keep && !keep(x->tag, arg))
			continue;
		last = out->n ? &out->v[out->n - 1] : NULL;
		if (last && x->start <= (uint64_t)last->start + last->len) {
			uint64_t end = (uint64_t)x->start + x->len;

			if (end > (uint64_t)last->start + last->len)
				last->len = (uint32_t)(end - last->start);
			continue;
		}
		if (extv_push(out, x->start, x->len, 0))
			return -ENOMEM;
	}
	return 0;
}

static bool claim_has_owner(uint64_t tag, uint64_t owner)
{
	return tag < CL_N && claim_owner[tag] == owner && tag != CL_FREE;
}

static bool rmap_has_owner(uint64_t tag, uint64_t owner)
{
	return tag == owner;
}

static bool claim_is_free(uint64_t tag, uint64_t unused)
{
	(void)unused;
	return tag == CL_FREE;
}

/*
 * Report each run of blocks of a (merged, sorted) that b does not cover;
 * with want_overlap, each run that b does cover instead.
 */
static void report_runs(struct agc *c, const struct extv *a,
			const struct extv *b, bool want_overlap,
			enum fs_problem code, const char *field)
{
	size_t j = 0;

	for (size_t i = 0; i < a->n; i++) {
		uint64_t pos = a->v[i].start;
		uint64_t end = pos + a->v[i].len;

		while (pos < end) {
			uint64_t bs, be;

			while (j < b->n &&
			       (uint64_t)b->v[j].start + b->v[j].len <= pos)
				j++;
			bs = j < b->n ? b->v[j].start : end;
			be = j < b->n ? bs + b->v[j].len : end;
			if (bs > end)
				bs = end;
			if (pos < bs) {
				/* [pos, bs) is not covered by b */
				if (!want_overlap) {
					struct fs_objref o = block_obj(c,
							OBJ_RMAPBT, pos);

					fs_report_found(c->fl, code, &o, field,
							pos);
				}
				pos = bs;
				continue;
			}
			/* [pos, min(be, end)) is covered by b */
			if (want_overlap) {
				struct fs_objref o = block_obj(c, OBJ_RMAPBT,
							       pos);

				fs_report_found(c->fl, code, &o, field, pos);
			}
			pos = be < end ? be : end;
		}
	}
}

static void check_rmaps(struct agc *c)
{
	struct extv mc = { 0 }, mr = { 0 }, mf = { 0 }, all = { 0 }, whole = { 0 };

	extv_sort(&c->rmaps);
	for (size_t k = 0; k < sizeof(special_owners) / sizeof(special_owners[0]);
	     k++) {
		uint64_t owner = special_owners[k].owner;

		if (merge_extents(&c->claims, claim_has_owner, owner, &mc) ||
		    merge_extents(&c->rmaps, rmap_has_owner, owner, &mr))
			goto nomem;
		report_runs(c, &mc, &mr, false, PR_AG_RMAP_MISSING,
			    special_owners[k].name);
		report_runs(c, &mr, &mc, false, PR_AG_RMAP_STALE,
			    special_owners[k].name);
	}
	if (merge_extents(&c->claims, claim_is_free, 0, &mf) ||
	    merge_extents(&c->rmaps, NULL, 0, &all))
		goto nomem;
	report_runs(c, &all, &mf, true, PR_AG_RMAP_FREE, "recs");
	/* every block is free or mapped */
	if (extv_push(&whole, 0, c->size, 0))
		goto nomem;
	for (size_t k = 0; k < mf.n; k++)
		if (extv_push(&all, mf.v[k].start, mf.v[k].len, 0))
			goto nomem;
	extv_sort(&all);
	if (merge_extents(&all, NULL, 0, &mr))
		goto nomem;
	report_runs(c, &whole, &mr, false, PR_AG_SPACE_UNACCOUNTED, NULL);
	goto out;
nomem:
	c->err = -ENOMEM;
out:
	free(mc.v);
	free(mr.v);
	free(mf.v);
	free(all.v);
	free(whole.v);
}

int ag_check(struct fs *fs, xfs_agnumber_t agno, struct fs_findings *fl,
	     struct ag_summary *sum)
{
	const struct fs_geom *g = &fs->geo;
	struct ag_summary local;
	struct agc c = { .fs = fs, .agno = agno, .fl = fl };
	struct fs_agf agf;
	struct fs_agi agi;
	struct fs_buf *bp;
	struct btree_root r, r_ino;
	bool bno_ok = false, cnt_ok = false, rmap_ok = false, refc_ok = false;
	bool ino_ok = false, ino_unread = false, fino_ok = false;
	bool fino_unread = false;
	int err;

	if (!sum)
		sum = &local;
	memset(sum, 0, sizeof(*sum));
	c.sum = sum;
	if (agno >= g->agcount)
		return -ERANGE;
	c.size = geom_ag_blocks(g, agno);

	/* AG space that is not in any tree */
	err = extv_push(&c.claims, 0, ag_first_block(g), CL_HDR);
	if (!err && g->log_internal && fsb_to_agno(g, g->logstart) == agno)
		err = extv_push(&c.claims, fsb_to_agbno(g, g->logstart),
				g->logblocks, CL_LOG);
	if (err)
		goto out;

	if (!ag_read_agf(fs, agno, fl, &bp, &agf)) {
		sum->agf_ok = agf.magicnum == XFS_AGF_MAGIC && agf.seqno == agno;
		buf_release(bp);
	}
	if (sum->agf_ok) {
		agf_btree_root(&agf, agno, BT_BNO, &r);
		bno_ok = root_usable(fs, &r);
		if ((err = walk_tree(&c, &r, CL_BNO, alloc_rec, &sum->bno)))
			goto out;
		/* in tree order already, unless the tree is damaged */
		extv_sort(&c.bno);
		agf_btree_root(&agf, agno, BT_CNT, &r);
		cnt_ok = root_usable(fs, &r);
		if ((err = walk_tree(&c, &r, CL_CNT, alloc_rec, &sum->cnt)))
			goto out;
		if (g->has_rmapbt) {
			agf_btree_root(&agf, agno, BT_RMAP, &r);
			rmap_ok = root_usable(fs, &r);
			if ((err = walk_tree(&c, &r, CL_RMAP, rmap_rec,
					     &sum->rmap)))
				goto out;
		}
		if (g->has_reflink) {
			agf_btree_root(&agf, agno, BT_REFC, &r);
			refc_ok = root_usable(fs, &r);
			if ((err = walk_tree(&c, &r, CL_REFC, refc_rec,
					     &sum->refc)))
				goto out;
		}
		/* from here on, "ok" means the whole tree was walked */
		bno_ok = bno_ok && !sum->bno.skipped;
		cnt_ok = cnt_ok && !sum->cnt.skipped;
		rmap_ok = rmap_ok && !sum->rmap.skipped;
		refc_ok = refc_ok && !sum->refc.skipped;
		check_free_space(&c, &agf, bno_ok, cnt_ok);
		if (!c.err)
			check_agfl(&c, &agf);
		check_agf_counters(&c, &agf, bno_ok, cnt_ok, rmap_ok, refc_ok);
		if ((err = c.err))
			goto out;
	}

	if (!ag_read_agi(fs, agno, fl, &bp, &agi)) {
		sum->agi_ok = agi.magicnum == XFS_AGI_MAGIC && agi.seqno == agno;
		buf_release(bp);
	}
	if (sum->agi_ok) {
		agi_btree_root(&agi, agno, BT_INO, &r);
		r_ino = r;
		ino_ok = root_usable(fs, &r);
		ino_unread = !ino_ok;
		if ((err = walk_tree(&c, &r, CL_INO, inobt_rec, &sum->ino)))
			goto out;
		if (g->has_finobt) {
			agi_btree_root(&agi, agno, BT_FINO, &r);
			fino_ok = root_usable(fs, &r);
			fino_unread = !fino_ok;
			if ((err = walk_tree(&c, &r, CL_FINO, inobt_rec,
					     &sum->fino)))
				goto out;
			sum->fino_root_refused = fino_ok &&
						 !sum->fino.nblocks &&
						 root_refused(fs, &r) &&
						 !tree_block(&c, r.root);
		}
		if (ino_ok && !sum->ino.nblocks && root_refused(fs, &r_ino) &&
		    !tree_block(&c, r_ino.root)) {
			ino_unread = true;
			sum->ino_root_refused = true;
		}
		ino_ok = ino_ok && !sum->ino.skipped;
		fino_ok = fino_ok && !sum->fino.skipped;
		check_inodes(&c, &agi, ino_ok, ino_unread, fino_ok,
			     fino_unread);
		for (size_t k = 0; k < c.ino.n && !err; k++)
			err = claim_chunk(&c, &c.ino.v[k]);
		if (err)
			goto out;
	}

	check_claims(&c);
	/* mappings can only be compared with a complete picture */
	if (g->has_rmapbt && rmap_ok && bno_ok && sum->agi_ok && ino_ok &&
	    (!g->has_finobt || fino_ok) && (!g->has_reflink || refc_ok))
		check_rmaps(&c);
	err = c.err;
out:
	free(c.bno.v);
	free(c.cnt.v);
	free(c.claims.v);
	free(c.rmaps.v);
	free(c.ino.v);
	free(c.fino.v);
	return err;
}

/* ---- iteration ---- */

struct chunk_iter {
	ag_chunk_fn	fn;
	void		*priv;
	xfs_agnumber_t	agno;
};

static int chunk_rec(struct btree_walk *w, const void *rec, void *priv)
{
	struct chunk_iter *it = priv;
	struct inobt_irec irec;

	inobt_rec_decode(&w->fs->geo, rec, &irec);
	if (!chunk_usable(&w->fs->geo, it->agno, irec.startino))
		return 0;
	irec.daddr = w->obj.daddr;
	irec.index = (unsigned)w->obj.index;
	return it->fn(it->priv, it->agno, &irec);
}

static int iter_tree_chunks(struct fs *fs, xfs_agnumber_t agno,
			    enum btree_type btnum,
			    ag_chunk_fn fn, void *priv, struct fs_findings *fl)
{
	struct chunk_iter it = { fn, priv, agno };
	struct fs_agi agi;
	struct fs_buf *bp;
	struct btree_root r;
	int err;

	if (agno >= fs->geo.agcount)
		return -ERANGE;
	err = ag_read_agi(fs, agno, fl, &bp, &agi);
	if (err)
		return err;
	buf_release(bp);
	if (agi.magicnum != XFS_AGI_MAGIC || agi.seqno != agno)
		return -EUCLEAN;
	agi_btree_root(&agi, agno, btnum, &r);
	if (!root_usable(fs, &r))
		return -EUCLEAN;
	return btree_walk(fs, &r, chunk_rec, NULL, &it, fl, NULL);
}

int ag_iter_chunks(struct fs *fs, xfs_agnumber_t agno, ag_chunk_fn fn,
		   void *priv, struct fs_findings *fl)
{
	return iter_tree_chunks(fs, agno, BT_INO, fn, priv, fl);
}

int ag_iter_fino_chunks(struct fs *fs, xfs_agnumber_t agno, ag_chunk_fn fn,
			void *priv, struct fs_findings *fl)
{
	if (!fs->geo.has_finobt)
		return 0;
	return iter_tree_chunks(fs, agno, BT_FINO, fn, priv, fl);
}

struct inode_iter {
	struct fs	*fs;
	unsigned	flags;
	ag_inode_fn	fn;
	void		*priv;
};

static int inode_chunk(void *priv, xfs_agnumber_t agno,
		       const struct inobt_irec *irec)
{
	struct inode_iter *it = priv;

	for (unsigned i = 0; i < XFS_INODES_PER_CHUNK; i++) {
		bool isfree = irec->free & (1ull << i);
		int r;

		if (irec->holes & (1ull << i))
			continue;
		if (isfree && !(it->flags & AG_INODES_FREE))
			continue;
		r = it->fn(it->priv, agino_to_ino(&it->fs->geo, agno,
						  irec->startino + i), isfree);
		if (r)
			return r;
	}
	return 0;
}

int ag_iter_inodes(struct fs *fs, xfs_agnumber_t agno, unsigned flags,
		   ag_inode_fn fn, void *priv, struct fs_findings *fl)
{
	struct inode_iter it = { fs, flags, fn, priv };

	return ag_iter_chunks(fs, agno, inode_chunk, &it, fl);
}
