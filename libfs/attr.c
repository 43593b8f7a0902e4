/*
 * The attribute fork as a whole: attr_iterate() and attr_get().
 *
 * In:  a decoded inode and its attribute fork's extent list.
 * Out: each usable attribute, values assembled; findings for damage.
 *
 * A short-form fork goes to attr_sf_check().  Otherwise block 0 is the
 * root of a dabtree (a lone leaf in leaf form), which dabtree_walk()
 * walks, handing each leaf, in hash order, to attr_leaf_check().  Remote
 * values are read block by block through the extent map and checked
 * with attr_rmt_check() against the piece of the value each block must
 * hold.  Along the way every fork block is claimed by what uses it (tree
 * block or value block); at the end a block claimed twice is reported,
 * and, when nothing else was wrong with the fork, a mapped block nobody
 * claimed.  Names are compared within each run of equal hashes to find
 * one attribute stored twice.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "attr_int.h"
#include "dabtree.h"

/* A range of fork blocks and what uses it. */
struct claim {
	xfs_dablk_t	start;
	uint32_t	len;
};

/* Names seen with the current hash, for duplicates; bounded for safety. */
#define RUN_MAX	64

struct run_name {
	uint8_t		flags;
	uint8_t		namelen;
	uint8_t		name[XFS_XATTR_NAME_MAX];
};

struct attr_walk {
	struct fs		*fs;
	const struct fs_inode	*ip;
	const struct fs_extents	*el;
	struct fs_findings	*fl;
	attr_fn			fn;
	void			*priv;
	int			err;		/* negative errno met inside */
	struct claim		*claims;
	size_t			nclaims, cap;
	bool			have_run;
	xfs_dahash_t		run_hash;
	unsigned		nrun;
	struct run_name		*run;
	uint8_t			*value;		/* XFS_XATTR_SIZE_MAX bytes */
	/* attr_get: only this attribute is wanted */
	bool			filter;
	unsigned		want_ns;
	const uint8_t		*want_name;
	unsigned		want_len;
	bool			found;
	bool			found_bad;	/* found, but its value is damaged */
	uint8_t			*got;
	uint32_t		gotlen;
};

static int claim_add(struct attr_walk *w, xfs_dablk_t start, uint32_t len)
{
	if (w->nclaims == w->cap) {
		size_t ncap = w->cap ? w->cap * 2 : 64;
		struct claim *nv = realloc(w->claims, ncap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		w->claims = nv;
		w->cap = ncap;
	}
	w->claims[w->nclaims].start = start;
	w->claims[w->nclaims].len = len;
	w->nclaims++;
	return 0;
}

static int claim_cmp(const void *a, const void *b)
{
	const struct claim *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* The disk address of fork block blk, or -1 if it is a hole. */
static xfs_daddr_t blk_daddr(const struct attr_walk *w, xfs_dablk_t blk)
{
	struct xfs_bmbt_irec r;

	if (!extents_lookup(w->el, blk, &r))
		return (xfs_daddr_t)-1;
	return fsb_to_daddr(&w->fs->geo,
			    r.br_startblock + (blk - r.br_startoff));
}

/*
 * After the walk: blocks claimed twice always; blocks mapped but never
 * claimed only if the fork was otherwise sound (a damaged tree leaves
 * blocks unclaimed for reasons already reported).
 */
static void claims_finish(struct attr_walk *w, bool sound)
{
	uint64_t end = 0;
	size_t e = 0;

	if (w->nclaims)
		qsort(w->claims, w->nclaims, sizeof(*w->claims), claim_cmp);
	for (size_t i = 0; i < w->nclaims; i++) {
		const struct claim *c = &w->claims[i];

		if (i && c->start < end) {
			struct fs_objref o = attr_obj(w->ip->ino,
						      blk_daddr(w, c->start),
						      c->start);

			fs_report_found(w->fl, PR_ATTR_BLOCK_SHARED, &o, NULL,
					c->start);
		}
		if ((uint64_t)c->start + c->len > end)
			end = (uint64_t)c->start + c->len;
	}
	if (!sound)
		return;
	/* walk the extents and the sorted claims side by side */
	for (size_t x = 0; x < w->el->n; x++) {
		const struct xfs_bmbt_irec *r = &w->el->v[x];
		uint64_t b = r->br_startoff, stop = b + r->br_blockcount;

		while (b < stop) {
			while (e < w->nclaims &&
			       (uint64_t)w->claims[e].start +
			       w->claims[e].len <= b)
				e++;
			if (e < w->nclaims && w->claims[e].start <= b) {
				b = (uint64_t)w->claims[e].start +
				    w->claims[e].len;
				continue;
			}
			{
				struct fs_objref o = attr_obj(w->ip->ino,
					fsb_to_daddr(&w->fs->geo,
						r->br_startblock +
						(b - r->br_startoff)), b);

				fs_report_found(w->fl, PR_ATTR_BLOCK_UNUSED,
						&o, NULL, b);
			}
			/* one finding per unused run */
			b = e < w->nclaims && w->claims[e].start < stop ?
			    w->claims[e].start : stop;
		}
	}
}

/*
 * Read the remote value of r into w->value, checking every block.
 * Returns 0 when the value is whole and intact, 1 when it is damaged
 * (reported), or a negative errno.
 */
static int read_remote(struct attr_walk *w, const struct attr_rec *r,
		       const struct fs_objref *eo)
{
	const struct fs_geom *g = &w->fs->geo;
	uint32_t nblks = attr_rmt_blocks(g, r->valuelen);
	uint32_t space = attr_rmt_space(g), off = 0;
	bool bad = false;
	int err;

	if ((uint64_t)r->valueblk + nblks > UINT32_MAX) {
		fs_report_found(w->fl, PR_ATTR_RMT_BAD_VALUEBLK, eo,
				"nvlist.valueblk", r->valueblk);
		return 1;
	}
	for (uint32_t b = 0; b < nblks; b++) {
		struct xfs_bmbt_irec m;

		if (!extents_lookup(w->el, r->valueblk + b, &m)) {
			fs_report_found(w->fl, PR_ATTR_RMT_BAD_VALUEBLK, eo,
					"nvlist.valueblk", r->valueblk);
			return 1;
		}
	}
	err = claim_add(w, r->valueblk, nblks);
	if (err)
		return err;
	for (uint32_t b = 0; b < nblks; b++) {
		uint32_t bytes = r->valuelen - off < space ?
				 r->valuelen - off : space;
		struct fs_buf *bp;

		err = fork_read(w->fs, w->el, r->valueblk + b, 1,
				&attr3_rmt_buf_ops, w->fl, &bp);
		if (err == -ENOMEM)
			return err;
		if (err) {
			/* an I/O error has its DEV_* finding already */
			bad = true;
		} else {
			if (attr_rmt_check(g, w->ip->ino, r->valueblk + b,
					   bp->daddr, bp->data, off, bytes,
					   w->fl))
				bad = true;
			else
				memcpy(w->value + off, bp->data +
				       sizeof(struct xfs_attr3_rmt_hdr), bytes);
			buf_release(bp);
		}
		off += bytes;
	}
	return bad ? 1 : 0;
}

/* Has this attribute been seen already (in the current hash run)? */
static bool seen_before(struct attr_walk *w, const struct attr_rec *r)
{
	struct run_name *rn;

	if (!w->have_run || r->hash != w->run_hash) {
		w->have_run = true;
		w->run_hash = r->hash;
		w->nrun = 0;
	}
	for (unsigned i = 0; i < w->nrun; i++)
		if (attr_same_name(w->run[i].flags, w->run[i].name,
				   w->run[i].namelen, r->flags, r->name,
				   r->namelen))
			return true;
	if (w->nrun < RUN_MAX) {
		rn = &w->run[w->nrun++];
		rn->flags = r->flags;
		rn->namelen = r->namelen;
		memcpy(rn->name, r->name, r->namelen);
	}
	return false;
}

static bool wanted(const struct attr_walk *w, const struct attr_rec *r)
{
	return attr_same_name((uint8_t)w->want_ns, w->want_name, w->want_len,
			      r->flags, r->name, r->namelen);
}

/* A usable leaf entry: dedupe, assemble, hand out (or keep, for get). */
static int leaf_entry(void *priv, const struct attr_rec *r)
{
	struct attr_walk *w = priv;
	struct attr_rec rec = *r;
	struct fs_objref eo;
	int err;

	eo = attr_obj(w->ip->ino, blk_daddr(w, r->dablk), r->index);
	if (w->filter) {
		if (!wanted(w, r))
			return 0;
	} else if (seen_before(w, r)) {
		fs_report(w->fl, PR_ATTR_DUP_NAME, &eo, "nvlist.name");
		return 0;
	}
	if (!(r->flags & XFS_ATTR_LOCAL)) {
		err = read_remote(w, r, &eo);
		if (err < 0) {
			w->err = err;
			return err;
		}
		if (err) {
			if (w->filter) {
				w->found = w->found_bad = true;
				return 1;
			}
			return 0;
		}
		rec.value = w->value;
		if (!w->filter)
			attr_acl_check(&rec, &eo, w->fl);
	}
	if (w->filter) {
		w->found = true;
		w->gotlen = rec.valuelen;
		if (rec.valuelen) {
			w->got = malloc(rec.valuelen);
			if (!w->got) {
				w->err = -ENOMEM;
				return -ENOMEM;
			}
			memcpy(w->got, rec.value, rec.valuelen);
		}
		return 1;
	}
	return w->fn ? w->fn(w->priv, &rec) : 0;
}

static void set_tree(struct attr_walk *w, struct dabtree *t)
{
	memset(t, 0, sizeof(*t));
	t->fs = w->fs;
	t->ip = w->ip;
	t->el = w->el;
	t->objtype = OBJ_ATTR;
	t->blkfsbs = 1;		/* attribute blocks are one fs block */
	t->root = 0;
	t->lo = 0;
	t->hi = UINT32_MAX;
	t->leaf_magic = XFS_ATTR3_LEAF_MAGIC;
	t->leaf_ops = &attr3_leaf_buf_ops;
}

static int tree_leaf(struct dabtree *t, xfs_dablk_t blk, struct fs_buf *bp,
		     struct da_leaf_info *li, void *priv)
{
	struct attr_walk *w = priv;
	struct attr_leaf_info info;
	int ret;

	ret = claim_add(w, blk, 1);
	if (ret)
		return ret;
	if (bp->len != t->fs->geo.blocksize)
		return 0;
	ret = attr_leaf_check(&t->fs->geo, t->ip->ino, blk, bp->daddr,
			      bp->data, leaf_entry, w, w->fl, &info);
	if (info.magic_ok)
		fs_saw_lsn(t->fs, (xfs_lsn_t)get_be64(
			((const struct xfs_da3_blkinfo *)bp->data)->lsn));
	li->count = info.nhashes;
	li->first = info.first;
	li->last = info.last;
	if (w->err)
		return w->err;
	return ret;
}

static int tree_node(struct dabtree *t, xfs_dablk_t blk, unsigned level,
		     void *priv)
{
	(void)t;
	(void)level;
	return claim_add(priv, blk, 1);
}

static int walk_init(struct attr_walk *w, struct fs *fs,
		     const struct fs_inode *ip, const struct fs_extents *el,
		     struct fs_findings *fl)
{
	memset(w, 0, sizeof(*w));
	w->fs = fs;
	w->ip = ip;
	w->el = el;
	w->fl = fl;
	w->value = malloc(XFS_XATTR_SIZE_MAX);
	w->run = malloc(RUN_MAX * sizeof(*w->run));
	if (!w->value || !w->run) {
		free(w->value);
		free(w->run);
		return -ENOMEM;
	}
	return 0;
}

static void walk_done(struct attr_walk *w)
{
	free(w->value);
	free(w->run);
	free(w->claims);
}

static size_t nfindings(const struct fs_findings *fl)
{
	return fl ? fl->n + fl->dropped : 0;
}

/* Short-form entries, for attr_get. */
static int sf_get(void *priv, const struct attr_rec *r)
{
	struct attr_walk *w = priv;

	if (!wanted(w, r))
		return 0;
	w->found = true;
	w->gotlen = r->valuelen;
	if (r->valuelen) {
		w->got = malloc(r->valuelen);
		if (!w->got) {
			w->err = -ENOMEM;
			return 1;
		}
		memcpy(w->got, r->value, r->valuelen);
	}
	return 1;
}

static uint64_t fork_blocks(const struct fs_extents *el)
{
	uint64_t n = 0;

	for (size_t i = 0; i < el->n; i++)
		n += el->v[i].br_blockcount;
	return n;
}

/* The attribute fork's extents: the caller's, or loaded here. */
static int get_extents(struct fs *fs, const struct fs_inode *ip,
		       const struct fs_extents *ael, struct fs_extents *own,
		       const struct fs_extents **elp, struct fs_findings *fl)
{
	extents_init(own);
	*elp = ael;
	if (ael)
		return 0;
	*elp = own;
	return fork_extents(fs, ip, XFS_ATTR_FORK, own, NULL, NULL, fl);
}

int attr_iterate(struct fs *fs, const struct fs_inode *ip,
		 const struct fs_extents *ael, attr_fn fn, void *priv,
		 struct fs_findings *fl)
{
	const struct fs_extents *el;
	struct fs_extents own;
	struct attr_walk w;
	struct dabtree t;
	size_t before;
	int ret;

	if (!inode_has_attr_fork(ip) || !ip->afork)
		return 0;
	if (ip->aformat == XFS_DINODE_FMT_LOCAL)
		return attr_sf_check(&fs->geo, ip->ino, ip->afork,
				     ip->afork_size, fn, priv, fl, NULL);
	if (ip->aformat != XFS_DINODE_FMT_EXTENTS &&
	    ip->aformat != XFS_DINODE_FMT_BTREE)
		return 0;	/* the inode check reports the format */

	ret = get_extents(fs, ip, ael, &own, &el, fl);
	if (ret)
		goto out_ext;
	/* an extents fork with no extents holds no attributes */
	if (!el->n)
		goto out_ext;
	ret = walk_init(&w, fs, ip, el, fl);
	if (ret)
		goto out_ext;
	w.fn = fn;
	w.priv = priv;
	set_tree(&w, &t);
	before = nfindings(fl);
	ret = dabtree_walk(&t, tree_leaf, tree_node, &w, fl, NULL);
	if (!ret && !w.err)
		claims_finish(&w, fl && nfindings(fl) == before);
	if (!ret)
		ret = w.err;
	walk_done(&w);
out_ext:
	extents_free(&own);
	return ret;
}

int attr_get(struct fs *fs, const struct fs_inode *ip,
	     const struct fs_extents *ael, unsigned ns, const uint8_t *name,
	     unsigned namelen, uint8_t **valuep, uint32_t *vlenp,
	     struct fs_findings *fl)
{
	const struct fs_extents *el;
	struct fs_extents own;
	struct attr_walk w;
	struct dabtree t;
	xfs_dahash_t hash = da_hashname(name, namelen);
	xfs_dablk_t blk;
	int ret;

	*valuep = NULL;
	*vlenp = 0;
	if (!inode_has_attr_fork(ip) || !ip->afork)
		return -ENODATA;
	extents_init(&own);
	el = NULL;
	if (ip->aformat != XFS_DINODE_FMT_LOCAL) {
		if (ip->aformat != XFS_DINODE_FMT_EXTENTS &&
		    ip->aformat != XFS_DINODE_FMT_BTREE)
			return -ENODATA;
		ret = get_extents(fs, ip, ael, &own, &el, fl);
		if (ret)
			goto out_ext;
	}
	ret = walk_init(&w, fs, ip, el, fl);
	if (ret)
		goto out_ext;
	w.filter = true;
	w.want_ns = ns & XFS_ATTR_NSP_ONDISK_MASK;
	w.want_name = name;
	w.want_len = namelen;

	if (ip->aformat == XFS_DINODE_FMT_LOCAL) {
		attr_sf_check(&fs->geo, ip->ino, ip->afork, ip->afork_size,
			      sf_get, &w, fl, NULL);
		goto done;
	}
	if (!el->n)
		goto done;
	set_tree(&w, &t);
	ret = dabtree_lookup(&t, hash, &blk, fl);
	if (ret == -ENOENT) {
		ret = 0;
		goto done;
	}
	if (ret)
		goto out;
	/*
	 * Equal hashes may run on into the next leaves; the hop count is
	 * bounded by the blocks the fork maps, so a forw loop ends.
	 */
	for (uint64_t hops = 0, max = fork_blocks(el);
	     hops <= max && !w.found && !w.err; hops++) {
		struct attr_leaf_info info;
		struct fs_buf *bp;

		ret = dabtree_read(&t, blk, &attr3_leaf_buf_ops, fl, &bp);
		if (ret)
			goto out;
		attr_leaf_check(&fs->geo, ip->ino, blk, bp->daddr, bp->data,
				leaf_entry, &w, fl, &info);
		buf_release(bp);
		if (!info.magic_ok) {
			ret = -EUCLEAN;
			goto out;
		}
		if (w.found || !info.forw || (info.nhashes && info.last > hash))
			break;
		blk = info.forw;
	}
done:
	ret = w.err;
	if (!ret && !w.found)
		ret = -ENODATA;
	else if (!ret && w.found_bad)
		ret = -EUCLEAN;
	if (!ret) {
		*valuep = w.got;
		*vlenp = w.gotlen;
		w.got = NULL;
	}
out:
	free(w.got);
	walk_done(&w);
out_ext:
	extents_free(&own);
	return ret;
}
