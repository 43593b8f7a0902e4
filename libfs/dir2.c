/*
 * The fork layer of directories: which form a directory is in, reading
 * its blocks through the extent list, and the checks that span blocks.
 *
 * In: a directory inode and its data fork extents.  First the mapping is
 * sorted into the three spaces (data, leaf, free) as whole directory
 * blocks, reporting pieces of blocks and mappings outside the spaces.
 * The form follows from the last mapped block, as the kernel decides it:
 * ending at one directory block is block form, ending at the first leaf
 * block is leaf form, anything further is node form.
 *
 * Out, for dir_check: every data block checked on its own and its
 * entries recorded (address, hash, name); then the leaf entries (of the
 * block, the LEAF1 block, or every LEAFN reached by the dabtree) matched
 * against those records, each entry needing exactly one; bests[] (LEAF1
 * tail or free index) against each block's bestfree[0]; duplicate names
 * by sorting the records by hash; the size against the last data block;
 * and every mapped block accounted for by the form.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "dabtree.h"
#include "dir2_priv.h"
#include "format/crc32c.h"

/* Insert x into a sorted vector (small: a few missing blocks). */
int u32vec_insert_sorted(struct u32vec *a, uint32_t x)
{
	size_t i;
	int err = u32vec_push(a, x);

	if (err)
		return err;
	for (i = a->n - 1; i > 0 && a->v[i - 1] > x; i--)
		a->v[i] = a->v[i - 1];
	a->v[i] = x;
	return 0;
}

int u32vec_push(struct u32vec *a, uint32_t x)
{
	if (a->n == a->cap) {
		size_t ncap = a->cap ? a->cap * 2 : 16;
		uint32_t *nv = realloc(a->v, ncap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		a->v = nv;
		a->cap = ncap;
	}
	a->v[a->n++] = x;
	return 0;
}

static struct fs_objref dir_obj(const struct dir_ctx *c, uint64_t index)
{
	struct fs_objref o = OBJREF_INIT(OBJ_DIR);

	o.ino = c->ip->ino;
	o.index = index;
	return o;
}

int dir_read_blk(struct dir_ctx *c, xfs_dablk_t dablk, const struct buf_ops *ops,
		 struct fs_buf **bpp, struct dir_blk *b)
{
	int err = fork_read(c->fs, c->el, dablk, c->g->dirblkfsbs, NULL, c->fl,
			    bpp);

	if (err) {
		if (err == -ENODATA) {
			struct fs_objref o =
				dir_obj(c, (uint64_t)dablk << c->g->blocklog);

			fs_report(c->fl, PR_DIR_MISSING_BLOCK, &o, NULL);
		}
		return err;
	}
	if ((*bpp)->len < c->g->dirblksize) {	/* cannot happen */
		buf_release(*bpp);
		*bpp = NULL;
		return -EIO;
	}
	if (ops)
		buf_verify(*bpp, ops, NULL);
	b->g = c->g;
	b->ci = c->ci;
	b->ino = c->ip->ino;
	b->dablk = dablk;
	b->daddr = (*bpp)->daddr;
	b->data = (*bpp)->data;
	return 0;
}

/* A directory block only partly mapped: reported, and remembered in the
 * data space so that what points into it is not reported again. */
static int dir_partial(struct dir_ctx *c, uint64_t sp, uint64_t dablk)
{
	struct fs_objref o = dir_obj(c, dablk << c->g->blocklog);

	fs_report(c->fl, PR_DIR_PARTIAL_BLOCK, &o, NULL);
	if (sp || (c->partial.n && c->partial.v[c->partial.n - 1] == dablk))
		return 0;
	return u32vec_push(&c->partial, (uint32_t)dablk);
}

static bool u32_sorted_has(const struct u32vec *a, uint32_t x)
{
	size_t lo = 0, hi = a->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a->v[mid] == x)
			return true;
		if (a->v[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

bool dir_db_damaged(const struct dir_ctx *c, uint32_t db)
{
	return u32_sorted_has(&c->partial, dir_db_to_dablk(c->g, db));
}

/*
 * Sort the mapping into whole directory blocks of each space.  Extents
 * that touch are merged first: a directory block may span two extents.
 */
static int dir_map(struct dir_ctx *c)
{
	const struct fs_geom *g = c->g;
	const uint64_t space = XFS_DIR2_SPACE_SIZE >> g->blocklog;
	const uint32_t bfs = g->dirblkfsbs;
	size_t i = 0;

	while (i < c->el->n) {
		uint64_t s = c->el->v[i].br_startoff;
		uint64_t e = s + c->el->v[i].br_blockcount;

		for (i++; i < c->el->n && c->el->v[i].br_startoff == e; i++)
			e += c->el->v[i].br_blockcount;
		while (s < e) {
			uint64_t sp = s / space, a = s, b, first, last;
			struct u32vec *vec;

			if (sp >= 3) {
				struct fs_objref o = dir_obj(c, s << g->blocklog);

				fs_report_found(c->fl, PR_DIR_BAD_OFFSET, &o,
						"startoff", s);
				break;
			}
			b = e < (sp + 1) * space ? e : (sp + 1) * space;
			vec = sp == 0 ? &c->data : sp == 1 ? &c->leaf : &c->free;
			first = (a + bfs - 1) / bfs * bfs;
			last = b / bfs * bfs;
			if (a % bfs) {
				int err = dir_partial(c, sp, a / bfs * bfs);

				if (err)
					return err;
			}
			if (b % bfs && last >= first) {
				int err = dir_partial(c, sp, last);

				if (err)
					return err;
			}
			for (uint64_t x = first; x + bfs <= b; x += bfs) {
				int err = u32vec_push(vec, (uint32_t)x);

				if (err)
					return err;
			}
			s = b;
		}
	}
	return 0;
}

enum dir_form dir_form_of(const struct fs_geom *g, const struct fs_extents *el)
{
	const uint64_t end3 = (3 * XFS_DIR2_SPACE_SIZE) >> g->blocklog;
	uint64_t last_end = 0;
	size_t n = el->n;

	/* mappings past the three spaces (reported by dir_map) do not count */
	while (n && el->v[n - 1].br_startoff >= end3)
		n--;
	if (!n)
		return DIR_FORM_NONE;
	last_end = el->v[n - 1].br_startoff + el->v[n - 1].br_blockcount;
	/* a last block only partly mapped still decides the form */
	if (last_end <= g->dirblkfsbs)
		return DIR_FORM_BLOCK;
	if (last_end > dir_leaf_dablk(g) &&
	    last_end <= (uint64_t)dir_leaf_dablk(g) + g->dirblkfsbs)
		return DIR_FORM_LEAF;
	return DIR_FORM_NODE;
}

uint32_t dir_leaf_lower_bound(const struct xfs_dir2_leaf_entry *ents,
			      uint32_t n, xfs_dahash_t hash)
{
	uint32_t lo = 0, hi = n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (get_be32(ents[mid].hashval) < hash)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* ---- collecting entries (dir_check) ---- */

static int rec_add(struct dir_ctx *c, const struct dir_blk *b,
		   const struct dir_dent *e)
{
	uint64_t byte = ((uint64_t)b->dablk << c->g->blocklog) + e->offset;
	struct dir_rec *r;

	if (c->nrecs == c->caprecs) {
		size_t ncap = c->caprecs ? c->caprecs * 2 : 64;
		struct dir_rec *nv = realloc(c->recs, ncap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		c->recs = nv;
		c->caprecs = ncap;
	}
	if (c->nnames + e->namelen > c->capnames) {
		size_t ncap = c->capnames ? c->capnames * 2 : 4096;
		uint8_t *nv;

		while (ncap < c->nnames + e->namelen)
			ncap *= 2;
		nv = realloc(c->names, ncap);
		if (!nv)
			return -ENOMEM;
		c->names = nv;
		c->capnames = ncap;
	}
	r = &c->recs[c->nrecs++];
	r->addr = (uint32_t)(byte >> XFS_DIR2_DATA_ALIGN_LOG);
	r->hash = e->hash;
	r->name_off = (uint32_t)c->nnames;
	r->namelen = (uint8_t)e->namelen;
	r->refs = 0;
	/* a damaged entry may have no name, and names no buffer yet */
	if (e->namelen)
		memcpy(c->names + c->nnames, e->name, e->namelen);
	c->nnames += e->namelen;
	return 0;
}

static int dent_cb(void *priv, const struct dir_blk *b,
		   const struct dir_dent *e)
{
	struct dir_ctx *c = priv;
	struct dir_dent ent = *e;
	int err;

	/* data_body knows the geometry, not which inodes are the fs's own */
	if (ent.usable && sb_internal_ino(&c->fs->sb, ent.ino)) {
		struct fs_objref o = dir_blk_obj(b, ent.offset);

		fs_report_found(c->fl, PR_DIR_BAD_INO, &o, "inumber", ent.ino);
		ent.usable = false;
	}
	e = &ent;
	if (c->full) {
		err = rec_add(c, b, e);
		if (err)
			return err;
	}
	if (e->usable && c->pfn)
		return c->pfn(c->priv, e->name, e->namelen, e->ino, e->ftype,
			      b->dablk, e->offset);
	if (e->usable && c->fn)
		return c->fn(c->priv, e->name, e->namelen, e->ino, e->ftype);
	return 0;
}

static struct dir_rec *rec_find(struct dir_ctx *c, uint32_t addr)
{
	size_t lo = 0, hi = c->nrecs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->recs[mid].addr == addr)
			return &c->recs[mid];
		if (c->recs[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const struct dir_dblk *dir_find_dblk(const struct dir_ctx *c, uint32_t db)
{
	size_t lo = 0, hi = c->ndblk;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->dblk[mid].db == db)
			return &c->dblk[mid];
		if (c->dblk[mid].db < db)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void dir_leaf_xref(struct dir_ctx *c, const struct dir_blk *b,
		   const struct dir_leaf_info *li)
{
	const struct fs_geom *g = c->g;

	for (uint32_t i = 0; i < li->count; i++) {
		struct fs_objref o = dir_blk_obj(b, sizeof(struct xfs_dir3_leaf_hdr) +
					       i * sizeof(*li->ents));
		uint32_t addr = get_be32(li->ents[i].address);
		xfs_dahash_t h = get_be32(li->ents[i].hashval);
		uint64_t byte = (uint64_t)addr << XFS_DIR2_DATA_ALIGN_LOG;
		const struct dir_dblk *d;
		struct dir_rec *r;

		if (addr == XFS_DIR2_NULL_DATAPTR)
			continue;
		d = dir_find_dblk(c, (uint32_t)(byte >> (g->blocklog +
							   g->dirblklog)));
		if (d && (!d->ok ||
			  (byte & (g->dirblksize - 1)) >= d->scanned))
			continue;	/* the block itself was reported */
		if (!d) {
			uint32_t db = (uint32_t)(byte >> (g->blocklog +
							  g->dirblklog));

			/* one finding per missing data block is enough */
			if (byte >= XFS_DIR2_LEAF_OFFSET) {
				fs_report_found(c->fl, PR_DIR_LEAF_BAD_ADDR, &o,
						"ents.address", addr);
				continue;
			}
			if (dir_db_damaged(c, db) || u32_sorted_has(&c->missing, db))
				continue;
			if (u32vec_insert_sorted(&c->missing, db))
				return;
			fs_report_found(c->fl, PR_DIR_LEAF_BAD_ADDR, &o,
					"ents.address", addr);
			continue;
		}
		r = rec_find(c, addr);
		if (!r) {
			fs_report_found(c->fl, PR_DIR_LEAF_BAD_ADDR, &o,
					"ents.address", addr);
			continue;
		}
		if (r->refs) {
			fs_report_found(c->fl, PR_DIR_LEAF_DUP_ADDR, &o,
					"ents.address", addr);
		}
		if (r->refs < 255)
			r->refs++;
		if (r->hash != h)
			fs_report_val(c->fl, PR_DIR_LEAF_BAD_HASH, &o,
				      "ents.hashval", r->hash, h);
	}
}

/* Sorting records by hash for the duplicate check. */
static int rec_cmp_hash(const void *a, const void *b)
{
	const struct dir_rec *x = *(const struct dir_rec *const *)a;
	const struct dir_rec *y = *(const struct dir_rec *const *)b;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int dir_dup_check(struct dir_ctx *c)
{
	struct dir_rec **v;
	size_t i, j;

	if (c->nrecs < 2)
		return 0;
	v = malloc(c->nrecs * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < c->nrecs; i++)
		v[i] = &c->recs[i];
	qsort(v, c->nrecs, sizeof(*v), rec_cmp_hash);
	for (i = 0; i < c->nrecs; i = j) {
		for (j = i + 1; j < c->nrecs && v[j]->hash == v[i]->hash; j++) {
			for (size_t k = i; k < j; k++) {
				if (!v[j]->namelen ||
				    !dir_names_match(c->ci,
						     c->names + v[k]->name_off,
						     v[k]->namelen,
						     c->names + v[j]->name_off,
						     v[j]->namelen))
					continue;
				struct fs_objref o = dir_obj(c, (uint64_t)v[j]->addr
							     << XFS_DIR2_DATA_ALIGN_LOG);

				fs_report(c->fl, PR_DIR_DUP_NAME, &o, "name");
				break;
			}
		}
	}
	free(v);
	return 0;
}

/* ---- the forms ---- */

static void dir_size_check(struct dir_ctx *c, uint64_t want)
{
	if (c->ip->size != want) {
		struct fs_objref o = dir_obj(c, (uint64_t)-1);

		fs_report_val(c->fl, PR_DIR_BAD_SIZE, &o, "core.size", want,
			      c->ip->size);
	}
}

static void report_extra(struct dir_ctx *c, xfs_dablk_t dablk)
{
	struct fs_objref o = dir_obj(c, (uint64_t)dablk << c->g->blocklog);

	fs_report(c->fl, PR_DIR_EXTRA_BLOCK, &o, NULL);
}

static int dir_block_form(struct dir_ctx *c)
{
	struct fs_buf *bp;
	struct dir_blk b;
	int err;

	if (c->full)
		dir_size_check(c, c->g->dirblksize);
	err = dir_read_blk(c, 0, &dir3_block_buf_ops, &bp, &b);
	if (err)
		return err == -ENODATA ? 0 : err;
	if (c->full)
		err = dir3_block_check(&b, dent_cb, c, c->fl, NULL);
	else
		err = dir3_data_check(&b, true, dent_cb, c, c->fl, NULL);
	buf_release(bp);
	return err;
}

/* Every data block, in order; the records and bests for the checks. */
static int dir_data_blocks(struct dir_ctx *c)
{
	const struct fs_geom *g = c->g;
	int err = 0;

	if (c->full && c->data.n) {
		c->dblk = calloc(c->data.n, sizeof(*c->dblk));
		if (!c->dblk)
			return -ENOMEM;
	}
	if (!c->data.n || c->data.v[0] != 0) {
		struct fs_objref o = dir_obj(c, 0);

		fs_report(c->fl, PR_DIR_MISSING_BLOCK, &o, NULL);
	}
	for (size_t i = 0; i < c->data.n && !err; i++) {
		xfs_dablk_t dablk = c->data.v[i];
		struct dir_data_info info = { 0 };
		struct fs_buf *bp;
		struct dir_blk b;

		if (c->full) {
			c->dblk[i].db = dablk >> g->dirblklog;
			c->ndblk = i + 1;
		}
		err = dir_read_blk(c, dablk, &dir3_data_buf_ops, &bp, &b);
		if (err) {
			if (err != -ENOMEM)
				err = 0;
			continue;
		}
		err = dir3_data_check(&b, false, dent_cb, c, c->fl, &info);
		buf_release(bp);
		if (c->full) {
			c->dblk[i].ok = info.magic_ok;
			c->dblk[i].scanned = info.scanned;
			/*
			 * The leaf's bests[] hold what each block's header
			 * says (a header wrong about its own free space is
			 * the block's finding, not the leaf's)
			 */
			c->dblk[i].best = info.best;
		}
	}
	if (c->full && !err) {
		uint64_t want = c->data.n ?
			((uint64_t)(c->data.v[c->data.n - 1] >> g->dirblklog) + 1) *
			g->dirblksize : 0;

		dir_size_check(c, want);
	}
	return err;
}

static int dir_leaf_form(struct dir_ctx *c)
{
	const struct fs_geom *g = c->g;
	xfs_dablk_t lblk = dir_leaf_dablk(g);
	struct dir_leaf_info li;
	struct fs_buf *bp;
	struct dir_blk b;
	uint32_t ndb;
	int err;

	for (size_t i = 0; i < c->leaf.n; i++)
		if (c->leaf.v[i] != lblk)
			report_extra(c, c->leaf.v[i]);
	err = dir_read_blk(c, lblk, &dir3_leaf1_buf_ops, &bp, &b);
	if (err) {
		c->leaf_incomplete = true;
		return err == -ENODATA ? 0 : err;
	}
	dir3_leaf_check(&b, XFS_DIR3_LEAF1_MAGIC, c->fl, &li);
	if (!li.magic_ok) {
		c->leaf_incomplete = true;
		goto out;
	}
	dir_leaf_xref(c, &b, &li);

	/* bests[]: one per data block up to the last, 0xffff for holes */
	ndb = c->data.n ? (c->data.v[c->data.n - 1] >> g->dirblklog) + 1 : 0;
	if (li.bestcount != ndb) {
		struct fs_objref o = dir_blk_obj(&b, g->dirblksize -
						 sizeof(struct xfs_dir2_leaf_tail));

		fs_report_val(c->fl, PR_DIR_LEAF_BAD_BESTS, &o, "tail.bestcount",
			      ndb, li.bestcount);
	}
	for (uint32_t db = 0; db < li.bestcount; db++) {
		const struct dir_dblk *d = dir_find_dblk(c, db);
		uint16_t have = get_be16(li.bests[db]);
		uint16_t want = d ? d->best : XFS_DIR2_NULL_BESTFREE;

		if ((d && !d->ok) || (!d && dir_db_damaged(c, db)))
			continue;
		if (have != want) {
			struct fs_objref o = dir_blk_obj(&b,
				(const uint8_t *)&li.bests[db] - b.data);

			fs_report_val(c->fl, PR_DIR_LEAF_BAD_BESTS, &o, "bests",
				      want, have);
		}
	}
out:
	buf_release(bp);
	return 0;
}

static void dir_ctx_free(struct dir_ctx *c)
{
	free(c->data.v);
	free(c->leaf.v);
	free(c->free.v);
	free(c->leaf_seen.v);
	free(c->partial.v);
	free(c->missing.v);
	free(c->dblk);
	free(c->recs);
	free(c->names);
	if (c->own)
		extents_free(&c->own_el);
}

/* Short-form entries for a dir_pos_fn: they have no block, offset 0. */
struct sf_pos {
	dir_pos_fn	fn;
	void		*priv;
};

static int sf_pos_cb(void *priv, const uint8_t *name, unsigned namelen,
		     xfs_ino_t ino, unsigned ftype)
{
	struct sf_pos *p = priv;

	return p->fn(p->priv, name, namelen, ino, ftype, 0, 0);
}

static int dir_walk(struct fs *fs, const struct fs_inode *ip,
		    const struct fs_extents *el, dir_iter_fn fn,
		    dir_pos_fn pfn, void *priv, struct fs_findings *fl,
		    bool full)
{
	struct dir_ctx c = {
		.fs = fs, .g = &fs->geo, .ip = ip, .el = el, .fl = fl,
		.fn = fn, .pfn = pfn, .priv = priv, .full = full,
		.ci = sb_has_asciici(&fs->sb),
	};
	struct sf_pos sfp = { pfn, priv };
	struct fs_objref o = dir_obj(&c, (uint64_t)-1);
	const struct fs_geom *g = c.g;
	enum dir_form form;
	int err = 0;

	switch (ip->format) {
	case XFS_DINODE_FMT_LOCAL:
		if (pfn)
			return dir2_sf_check(g, c.ci, ip->ino, ip->dfork,
					     ip->dfork_size, ip->size,
					     sf_pos_cb, &sfp, fl, NULL);
		return dir2_sf_check(g, c.ci, ip->ino, ip->dfork, ip->dfork_size,
				     ip->size, fn, priv, fl, NULL);
	case XFS_DINODE_FMT_EXTENTS:
	case XFS_DINODE_FMT_BTREE:
		break;
	default:
		fs_report_found(fl, PR_DIR_BAD_FORMAT, &o, "core.format",
				ip->format);
		return 0;
	}
	if (!el) {
		err = fork_extents(fs, ip, XFS_DATA_FORK, &c.own_el, NULL, NULL,
				   fl);
		if (err)
			return err;
		c.own = true;
		c.el = &c.own_el;
	}
	err = dir_map(&c);
	if (err)
		goto out;
	form = dir_form_of(g, c.el);
	if (form == DIR_FORM_NONE) {
		o.index = 0;
		fs_report(fl, PR_DIR_MISSING_BLOCK, &o, NULL);
		goto out;
	}
	if (form == DIR_FORM_BLOCK) {
		err = dir_block_form(&c);
		goto out;
	}
	err = dir_data_blocks(&c);
	if (err || !full)
		goto out;
	if (form == DIR_FORM_LEAF) {
		err = dir_leaf_form(&c);
	} else {
		err = dir_node_check(&c);
	}
	if (err)
		goto out;
	if (!c.leaf_incomplete) {
		for (size_t i = 0; i < c.nrecs; i++) {
			if (c.recs[i].refs)
				continue;
			o.index = (uint64_t)c.recs[i].addr << XFS_DIR2_DATA_ALIGN_LOG;
			fs_report(fl, PR_DIR_LEAF_MISSING, &o, NULL);
		}
	}
out:
	if (!err && full && c.nrecs)
		err = dir_dup_check(&c);
	dir_ctx_free(&c);
	return err;
}

struct salvage {
	dir_iter_fn	fn;
	void		*priv;
	uint32_t	n;
};

static int salvage_cb(void *priv, const struct dir_blk *b,
		      const struct dir_dent *e)
{
	struct salvage *s = priv;

	(void)b;
	if (!e->usable)
		return 0;
	s->n++;
	return s->fn ? s->fn(s->priv, e->name, e->namelen, e->ino, e->ftype) :
		       0;
}

int dir_salvage_block(struct fs *fs, const struct fs_inode *ip,
		      const struct fs_extents *el, xfs_dablk_t dablk,
		      bool block_form, dir_iter_fn fn, void *priv,
		      struct dir_salvage_info *info)
{
	struct dir_ctx c = {
		.fs = fs, .g = &fs->geo, .ip = ip, .el = el,
		.ci = sb_has_asciici(&fs->sb),
	};
	struct salvage s = { fn, priv, 0 };
	struct dir_data_info di;
	struct fs_findings fl;
	struct fs_buf *bp;
	struct dir_blk b;
	int err;

	memset(info, 0, sizeof(*info));
	err = dir_read_blk(&c, dablk, NULL, &bp, &b);
	if (err)
		return err;
	info->crc_ok = xfs_cksum_verify(b.data, c.g->dirblksize,
					XFS_DIR3_DATA_CRC_OFF);
	/*
	 * First whether the items parse to the end: a free region whose
	 * tag is not its offset ends the reading as a bad length does.
	 */
	findings_init(&fl);
	dir3_data_scan(&b, block_form, NULL, NULL, &fl, &di);
	info->whole = di.end && di.scanned == di.end;
	for (size_t i = 0; i < fl.n && info->whole; i++)
		if (fl.v[i].code == PR_DIR_BAD_FREE && fl.v[i].field &&
		    !strcmp(fl.v[i].field, "tag"))
			info->whole = false;
	findings_free(&fl);
	if (info->whole)
		err = dir3_data_scan(&b, block_form, salvage_cb, &s, NULL, &di);
	info->nents = s.n;
	buf_release(bp);
	return err;
}

int dir_iterate(struct fs *fs, const struct fs_inode *ip,
		const struct fs_extents *el, dir_iter_fn fn, void *priv,
		struct fs_findings *fl)
{
	return dir_walk(fs, ip, el, fn, NULL, priv, fl, false);
}

int dir_iterate_pos(struct fs *fs, const struct fs_inode *ip,
		    const struct fs_extents *el, dir_pos_fn fn, void *priv,
		    struct fs_findings *fl)
{
	return dir_walk(fs, ip, el, NULL, fn, priv, fl, false);
}

int dir_check(struct fs *fs, const struct fs_inode *ip,
	      const struct fs_extents *el, dir_iter_fn fn, void *priv,
	      struct fs_findings *fl)
{
	return dir_walk(fs, ip, el, fn, NULL, priv, fl, true);
}

int dir_check_pos(struct fs *fs, const struct fs_inode *ip,
		  const struct fs_extents *el, dir_pos_fn fn, void *priv,
		  struct fs_findings *fl)
{
	return dir_walk(fs, ip, el, NULL, fn, priv, fl, true);
}
