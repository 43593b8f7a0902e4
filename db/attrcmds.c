/*
 * Expert mode: attr_set and attr_remove on the current inode, writing
 * each form the way the kernel's attribute code leaves it.
 *
 *   short form  entries in the inode's fork (a new one at the end, a
 *               removed one closes its gap); an inode without a fork
 *               gets one at the offset the kernel picks, and a fork that
 *               outgrows its room moves its offset down as far as the
 *               data fork allows (attr_write.h);
 *   leaf        short form that overflows becomes one attr3 leaf at
 *               fork block 0, built entry by entry in short-form order;
 *               a leaf whose entries fit the short form again goes back
 *               into the inode, or the fork goes if it is empty;
 *   remote      a value too big for the leaf gets value blocks at the
 *               first hole of the fork big enough, aimed after the
 *               extent before it;
 *   node        a full leaf moves under a da3 node at block 0 and
 *               splits; adds and removes under a one-level node, leaves
 *               joined, the last one back at block 0 and then, if its
 *               entries fit, back into the inode.
 *
 * Blocks come from libfs/alloc.h (owner: the inode's attribute fork at
 * that file block).  The inode's ctime moves on, its change count by the
 * number of transactions the kernel's steps take, its LSN is cleared
 * and CRCs are recomputed.  What the kernel does beyond these (data
 * fork conversion, node splits, deeper trees, attribute fork btrees) is
 * refused before anything is written; see DIFFERENCES.md.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "db.h"
#include "format/ondisk.h"
#include "alloc.h"
#include "attr.h"
#include "attr_write.h"
#include "format/btree.h"
#include "format/ag.h"
#include "format/crc32c.h"
#include "dabtree.h"

#define DI_OFF(m)	offsetof(struct xfs_dinode, m)

struct attr_args {
	const char	*name;
	unsigned	namelen;
	unsigned	ns;		/* XFS_ATTR_ROOT / XFS_ATTR_SECURE / 0 */
	unsigned	valuelen;
	bool		create, replace;
};

static int attr_parse(int argc, char **argv, bool set, struct attr_args *a)
{
	int c;

	memset(a, 0, sizeof(*a));
	optind = 0;
	while ((c = getopt(argc, argv, set ? "rsunRCv:" : "rsun")) != -1) {
		switch (c) {
		case 'r':
			a->ns = XFS_ATTR_ROOT;
			break;
		case 's':
			a->ns = XFS_ATTR_SECURE;
			break;
		case 'u':
			a->ns = 0;
			break;
		case 'n':
			break;
		case 'R':
			a->replace = true;
			break;
		case 'C':
			a->create = true;
			break;
		case 'v':
			a->valuelen = (unsigned)strtoul(optarg, NULL, 0);
			break;
		default:
			dbprintf("bad option for %s command\n", argv[0]);
			return -1;
		}
	}
	if (optind != argc - 1) {
		dbprintf("%s: bad usage\n", argv[0]);
		return -1;
	}
	a->name = argv[optind];
	a->namelen = strlen(a->name);
	return 0;
}

/* The inode under the cursor, its attribute fork and that fork's size. */
static uint8_t *inode_afork(uint8_t *di, uint32_t isize, uint32_t *size)
{
	uint32_t fo = di[DI_OFF(di_forkoff)] * 8;
	uint32_t lit = isize - XFS_DINODE_CORE_SIZE;

	if (!fo || fo >= lit) {
		*size = 0;
		return NULL;
	}
	*size = lit - fo;
	return di + XFS_DINODE_CORE_SIZE + fo;
}

/* Is the short-form fork f of size bytes sound (attr_sf_check)? */
static bool sf_sound(const uint8_t *f, uint32_t size, xfs_ino_t ino)
{
	struct fs_findings fl;
	unsigned nerr = 0;

	findings_init(&fl);
	attr_sf_check(&db.fs->geo, ino, f, size, NULL, NULL, &fl, &nerr);
	nerr += (unsigned)fl.n;
	findings_free(&fl);
	return !nerr;
}

/* Find an entry: its offset in the fork, or 0. */
static uint32_t sf_find(const uint8_t *f, uint32_t size,
			const struct attr_args *a)
{
	uint32_t off = sizeof(struct xfs_attr_sf_hdr);
	unsigned i, n = f[offsetof(struct xfs_attr_sf_hdr, count)];

	for (i = 0; i < n && off + 3 <= size; i++) {
		unsigned nl = f[off], vl = f[off + 1], fl = f[off + 2];

		if (nl == a->namelen && off + 3 + nl <= size &&
		    (fl & XFS_ATTR_NSP_ONDISK_MASK) == a->ns &&
		    !memcmp(f + off + 3, a->name, nl))
			return off;
		off += XFS_ATTR_SF_ENTSIZE(nl, vl);
	}
	return 0;
}

static void inode_touch(uint8_t *di)
{
	struct timespec now;
	uint64_t v;

	clock_gettime(CLOCK_REALTIME, &now);
	if (load_be64(di + DI_OFF(di_flags2)) & XFS_DIFLAG2_BIGTIME)
		v = (uint64_t)(now.tv_sec + XFS_BIGTIME_EPOCH_OFFSET) *
		    XFS_NSEC_PER_SEC + (uint64_t)now.tv_nsec;
	else
		v = ((uint64_t)(uint32_t)now.tv_sec << 32) | (uint32_t)now.tv_nsec;
	store_be64(di + DI_OFF(di_ctime), v);
	store_be64(di + DI_OFF(di_changecount),
		   load_be64(di + DI_OFF(di_changecount)) + 1);
	store_be64(di + DI_OFF(di_lsn), 0);
}

static bool attr_ready(const char *cmd)
{
	struct cursor *c = cur_top();

	if (db.readonly) {
		dbprintf("%s started in read only mode, writing disabled\n",
			 db.progname);
		return false;
	}
	if (c->ino == NULLFSINO) {
		dbprintf("no current inode\n");
		return false;
	}
	(void)cmd;
	return true;
}

/* The attribute extent count, either counter width. */
static uint32_t di_anextents(const uint8_t *di)
{
	if (load_be64(di + DI_OFF(di_flags2)) & XFS_DIFLAG2_NREXT64)
		return load_be32(di + DI_OFF(u76.big.di_big_anextents));
	return load_be16(di + DI_OFF(u76.small.di_anextents));
}

/*
 * Give an inode without an attribute fork one, sized for an attribute
 * of sf_bytes bytes of short form (the kernel adds the fork in a
 * transaction of its own: the change count moves on once for it).
 */
static int symlink_to_remote(xfs_ino_t ino, uint8_t *di, unsigned forkoff);

static int afork_create(xfs_ino_t ino, uint8_t *di, uint32_t sf_bytes)
{
	const struct fs_geom *g = &db.fs->geo;
	unsigned fo = attr_sf_bytesfit(g, di, sf_bytes);
	bool relayout;

	if (!fo)
		fo = attr_default_forkoff(g, di);
	if (!attr_dfork_fits(g, di, fo, &relayout)) {
		/* an inline symlink target moves to a block of its own */
		if ((load_be16(di + DI_OFF(di_mode)) & XFS_S_IFMT) != XFS_S_IFLNK ||
		    di[DI_OFF(di_format)] != XFS_DINODE_FMT_LOCAL ||
		    symlink_to_remote(ino, di, fo))
			return -1;	/* a directory would change form */
		relayout = false;
	}
	if (relayout)
		attr_dfork_relayout(g, di, fo);
	di[DI_OFF(di_forkoff)] = (uint8_t)fo;
	di[DI_OFF(di_aformat)] = XFS_DINODE_FMT_EXTENTS;
	memset(di + XFS_DINODE_CORE_SIZE + fo * 8, 0, attr_litino(g) - fo * 8);
	store_be64(di + DI_OFF(di_changecount),
		   load_be64(di + DI_OFF(di_changecount)) + 1);
	return 0;
}

/* ---- leaf form: the fork maps a leaf at block 0 and remote values ---- */

#define AFX_MAX	128	/* more extents than the largest attr fork holds */

struct afx {
	struct xfs_bmbt_irec	r[AFX_MAX];
	unsigned		n;
};

static void set_anextents(uint8_t *di, uint32_t n)
{
	if (load_be64(di + DI_OFF(di_flags2)) & XFS_DIFLAG2_NREXT64)
		store_be32(di + DI_OFF(u76.big.di_big_anextents), n);
	else
		store_be16(di + DI_OFF(u76.small.di_anextents), (uint16_t)n);
}

static void add_nblocks(uint8_t *di, int64_t d)
{
	store_be64(di + DI_OFF(di_nblocks),
		   (uint64_t)((int64_t)load_be64(di + DI_OFF(di_nblocks)) + d));
}

static int afx_load(const uint8_t *di, uint32_t isize, struct afx *x)
{
	uint32_t size, i;
	const uint8_t *f = inode_afork((uint8_t *)di, isize, &size);

	x->n = di_anextents(di);
	if (!f || x->n > size / 16 || x->n > AFX_MAX)
		return -1;
	for (i = 0; i < x->n; i++)
		bmbt_rec_decode((const struct xfs_bmbt_rec *)(f + i * 16), &x->r[i]);
	return 0;
}

/*
 * The AGF counters of all AGs that tell when an allocation or a free did
 * more than its own blocks: free blocks changing by more than them (the
 * AG's free list gave blocks back) or free-space btrees growing or
 * shrinking.  The kernel takes a transaction more for such a call,
 * which the change count shows.
 */
struct agf_sums {
	uint64_t	freeblks, btreeblks;
};

static struct agf_sums agf_sums(void)
{
	const struct fs_geom *g = &db.fs->geo;
	struct agf_sums t = { 0, 0 };
	struct fs_findings fl;
	struct fs_buf *bp;
	xfs_agnumber_t ag;

	for (ag = 0; ag < g->agcount; ag++) {
		xfs_daddr_t d = fsb_to_daddr(g, agb_to_fsb(g, ag, 0)) +
				(g->sectsize >> 9);

		findings_init(&fl);
		if (!bcache_read(db.fs->bc, d, g->sectsize, NULL, &fl, &bp)) {
			t.freeblks += load_be32(bp->data +
					offsetof(struct xfs_agf, agf_freeblks));
			t.btreeblks += load_be32(bp->data +
					offsetof(struct xfs_agf, agf_btreeblks));
			buf_release(bp);
		}
		findings_free(&fl);
	}
	return t;
}

static unsigned agf_extra;	/* such calls in this command */

static int alloc_blocks(xfs_fsblock_t target, uint32_t len,
			const struct alloc_owner *o, xfs_fsblock_t *fsb)
{
	struct agf_sums b = agf_sums(), a;
	int err = fs_alloc_extent(db.fs, target, len, o, fsb);

	a = agf_sums();
	if (!err && (a.freeblks + len > b.freeblks ||
		     a.btreeblks != b.btreeblks))
		agf_extra++;
	return err;
}

static int free_blocks(xfs_fsblock_t fsb, uint32_t len,
		       const struct alloc_owner *o)
{
	struct agf_sums b = agf_sums(), a;
	int err = fs_free_extent(db.fs, fsb, len, o);

	a = agf_sums();
	if (!err && (a.freeblks > b.freeblks + len ||
		     a.btreeblks != b.btreeblks))
		agf_extra++;
	return err;
}

/* Write the list back into the fork; -1 if it no longer fits there. */
static int afx_store(uint8_t *di, uint32_t isize, const struct afx *x)
{
	uint32_t size, i;
	uint8_t *f = inode_afork(di, isize, &size);

	if (!f || x->n > size / 16)
		return -1;
	memset(f, 0, size);
	for (i = 0; i < x->n; i++)
		bmbt_rec_encode((struct xfs_bmbt_rec *)(f + i * 16), &x->r[i]);
	set_anextents(di, x->n);
	return 0;
}

/* Will extra more extents still fit the fork in the inode? */
static bool afx_room(uint8_t *di, uint32_t isize, const struct afx *x,
		     unsigned extra)
{
	uint32_t size;

	return inode_afork(di, isize, &size) && x->n + extra <= size / 16 &&
	       x->n + extra <= AFX_MAX;
}

static xfs_fsblock_t afx_map(const struct afx *x, xfs_fileoff_t off)
{
	unsigned i;

	for (i = 0; i < x->n; i++)
		if (off >= x->r[i].br_startoff &&
		    off < x->r[i].br_startoff + x->r[i].br_blockcount)
			return x->r[i].br_startblock + (off - x->r[i].br_startoff);
	return NULLFSBLOCK;
}

/* The kernel's first hole of len blocks at or after offset 0. */
static xfs_fileoff_t afx_first_unused(const struct afx *x, uint32_t len)
{
	xfs_fileoff_t max = 0;
	unsigned i;

	for (i = 0; i < x->n; i++) {
		if (x->r[i].br_startoff >= len && x->r[i].br_startoff - max >= len)
			break;
		if (x->r[i].br_startoff + x->r[i].br_blockcount > max)
			max = x->r[i].br_startoff + x->r[i].br_blockcount;
	}
	return max;
}

/* Where the kernel aims a new extent at off: after the one before it. */
static xfs_fsblock_t afx_target(const struct afx *x, xfs_ino_t ino,
				xfs_fileoff_t off)
{
	const struct xfs_bmbt_irec *prev = NULL;
	unsigned i;

	for (i = 0; i < x->n; i++)
		if (x->r[i].br_startoff + x->r[i].br_blockcount <= off)
			prev = &x->r[i];
	if (!prev)
		return ino_to_fsb(&db.fs->geo, ino);
	return prev->br_startblock + prev->br_blockcount +
	       (off - prev->br_startoff - prev->br_blockcount);
}

/* Map [off, off + len) at fsb, merging with neighbours as bmap does. */
static void afx_insert(struct afx *x, xfs_fileoff_t off, xfs_fsblock_t fsb,
		       uint32_t len)
{
	unsigned i, j;

	for (i = 0; i < x->n && x->r[i].br_startoff < off; i++)
		;
	memmove(&x->r[i + 1], &x->r[i], (x->n - i) * sizeof(x->r[0]));
	x->r[i].br_startoff = off;
	x->r[i].br_startblock = fsb;
	x->r[i].br_blockcount = len;
	x->r[i].br_unwritten = false;
	x->n++;
	/* merge runs that touch in both the file and the disk */
	for (j = 0; j + 1 < x->n;) {
		struct xfs_bmbt_irec *a = &x->r[j], *b = &x->r[j + 1];

		if (!a->br_unwritten && !b->br_unwritten &&
		    a->br_startoff + a->br_blockcount == b->br_startoff &&
		    a->br_startblock + a->br_blockcount == b->br_startblock &&
		    a->br_blockcount + b->br_blockcount <= XFS_MAX_BMBT_EXTLEN) {
			a->br_blockcount += b->br_blockcount;
			memmove(b, b + 1, (x->n - j - 2) * sizeof(x->r[0]));
			x->n--;
		} else {
			j++;
		}
	}
}

/* Unmap [off, off + len) and give its blocks back. */
static int afx_punch(struct afx *x, xfs_ino_t ino, uint8_t *di,
		     xfs_fileoff_t off, uint32_t len)
{
	xfs_fileoff_t end = off + len;
	unsigned i;
	int err = 0;

	for (i = 0; i < x->n; i++) {
		struct xfs_bmbt_irec *r = &x->r[i];
		xfs_fileoff_t rs = r->br_startoff, re = rs + r->br_blockcount;
		xfs_fileoff_t s = off > rs ? off : rs, e = end < re ? end : re;
		struct alloc_owner o = { .owner = ino, .offset = s,
					 .attr_fork = true };

		if (s >= e)
			continue;
		err = free_blocks(r->br_startblock + (s - rs),
				     (uint32_t)(e - s), &o);
		if (err)
			return err;
		add_nblocks(di, -(int64_t)(e - s));
		if (s == rs && e == re) {
			memmove(r, r + 1, (x->n - i - 1) * sizeof(*r));
			x->n--;
			i--;
		} else if (s == rs) {
			r->br_startblock += e - rs;
			r->br_startoff = e;
			r->br_blockcount = re - e;
		} else if (e == re) {
			r->br_blockcount = s - rs;
		} else {
			if (x->n >= AFX_MAX)
				return -ENOSPC;
			memmove(r + 1, r, (x->n - i) * sizeof(*r));
			x->n++;
			r->br_blockcount = s - rs;
			r[1].br_startoff = e;
			r[1].br_startblock += e - rs;
			r[1].br_blockcount = re - e;
			i++;
		}
	}
	return 0;
}

static int blk_read(xfs_daddr_t daddr, uint8_t *out)
{
	struct fs_buf *bp;
	struct fs_findings fl;
	int err;

	findings_init(&fl);
	err = bcache_read(db.fs->bc, daddr, db.fs->geo.blocksize, NULL, &fl, &bp);
	findings_free(&fl);
	if (err)
		return err;
	memcpy(out, bp->data, db.fs->geo.blocksize);
	buf_release(bp);
	return 0;
}

/*
 * Read fork block b of inode ino and check it whole before anything is
 * built on it: an attr3 leaf (attr_leaf_check: no error; a warning such
 * as an implausible LSN leaves the block usable, as the kernel takes it)
 * or a da3 node.  Returns the magic, or 0 if the block is not sound.
 */
static unsigned fork_blk_read(const struct afx *x, xfs_ino_t ino,
			      xfs_dablk_t b, uint8_t *buf)
{
	const struct fs_geom *g = &db.fs->geo;
	xfs_fsblock_t fsb = afx_map(x, b);
	struct fs_objref o = OBJREF_INIT(OBJ_ATTR);
	struct attr_leaf_info info;
	struct fs_findings fl;
	xfs_daddr_t d;
	unsigned magic, bad = 1;

	if (fsb == NULLFSBLOCK)
		return 0;
	d = fsb_to_daddr(g, fsb);
	if (blk_read(d, buf))
		return 0;
	magic = load_be16(buf + offsetof(struct xfs_da3_blkinfo, magic));
	findings_init(&fl);
	if (magic == XFS_ATTR3_LEAF_MAGIC) {
		attr_leaf_check(g, ino, b, d, buf, NULL, NULL, &fl, &info);
		bad = !info.magic_ok || info.nerr || fl.nerrors;
	} else if (magic == XFS_DA3_NODE_MAGIC) {
		o.ino = ino;
		o.daddr = d;
		bad = da3_node_check(g, buf, g->blocksize, d, ino, &o, &fl) != 0;
	}
	findings_free(&fl);
	return bad ? 0 : magic;
}

static int blk_write(xfs_daddr_t daddr, const uint8_t *data)
{
	struct fs_buf *bp;
	int err = bcache_get(db.fs->bc, daddr, db.fs->geo.blocksize, NULL, &bp);

	if (err)
		return err;
	memcpy(bp->data, data, db.fs->geo.blocksize);
	bp->flags |= BUF_LOADED;
	err = buf_mark_dirty(bp);
	if (!err)
		err = buf_write(bp);
	buf_release(bp);
	return err;
}

/*
 * An inline symlink target that would not fit the data fork cut at
 * forkoff goes to a remote symlink block, as the kernel does when it
 * adds an attribute fork: one block near the inode, its XSLM header and
 * the target, the data fork one extent.  The allocation belongs to the
 * fork's own transaction: no change count of its own.
 */
static int symlink_to_remote(xfs_ino_t ino, uint8_t *di, unsigned forkoff)
{
	const struct fs_geom *g = &db.fs->geo;
	uint32_t len = (uint32_t)load_be64(di + DI_OFF(di_size));
	struct alloc_owner o = { .owner = ino, .offset = 0 };
	struct xfs_bmbt_irec r = { .br_startoff = 0, .br_blockcount = 1 };
	uint8_t *df = di + XFS_DINODE_CORE_SIZE, *blk;
	xfs_fsblock_t fsb;
	xfs_daddr_t d;
	int err;

	if (len + sizeof(struct xfs_dsymlink_hdr) > g->blocksize ||
	    len > attr_litino(g) || forkoff * 8u < 16)
		return -1;
	blk = calloc(1, g->blocksize);
	if (!blk)
		return -ENOMEM;
	err = fs_alloc_extent(db.fs, ino_to_fsb(g, ino), 1, &o, &fsb);
	if (err)
		goto out;
	d = fsb_to_daddr(g, fsb);
	store_be32(blk + offsetof(struct xfs_dsymlink_hdr, sl_magic),
		   XFS_SYMLINK_MAGIC);
	store_be32(blk + offsetof(struct xfs_dsymlink_hdr, sl_bytes), len);
	memcpy(blk + offsetof(struct xfs_dsymlink_hdr, sl_uuid), &g->meta_uuid,
	       sizeof(xfs_uuid_t));
	store_be64(blk + offsetof(struct xfs_dsymlink_hdr, sl_owner), ino);
	store_be64(blk + offsetof(struct xfs_dsymlink_hdr, sl_blkno),
		   (uint64_t)d);
	memcpy(blk + sizeof(struct xfs_dsymlink_hdr), df, len);
	xfs_cksum_update(blk, g->blocksize, XFS_SYMLINK_CRC_OFF);
	err = blk_write(d, blk);
	if (err)
		goto out;
	memset(df, 0, attr_litino(g));
	r.br_startblock = fsb;
	bmbt_rec_encode((struct xfs_bmbt_rec *)df, &r);
	di[DI_OFF(di_format)] = XFS_DINODE_FMT_EXTENTS;
	if (load_be64(di + DI_OFF(di_flags2)) & XFS_DIFLAG2_NREXT64)
		store_be64(di + DI_OFF(u24.di_big_nextents), 1);
	else
		store_be32(di + DI_OFF(u76.small.di_nextents), 1);
	add_nblocks(di, 1);
out:
	free(blk);
	return err;
}

static void bump_changecount(uint8_t *di, unsigned n)
{
	store_be64(di + DI_OFF(di_changecount),
		   load_be64(di + DI_OFF(di_changecount)) + n + agf_extra);
	agf_extra = 0;
}

/*
 * Give the remote entry at index of leaf its value blocks: the first
 * hole of the fork big enough, blocks aimed after the extent before it,
 * each block with its header.
 */
static int rmt_alloc(xfs_ino_t ino, uint8_t *di, struct afx *x, uint8_t *leaf,
		     unsigned index, uint32_t valuelen)
{
	const struct fs_geom *g = &db.fs->geo;
	uint32_t nb = attr_rmt_blocks(g, valuelen), b;
	xfs_fileoff_t off = afx_first_unused(x, nb);
	struct alloc_owner o = { .owner = ino, .offset = off, .attr_fork = true };
	xfs_fsblock_t fsb;
	uint8_t *blk;
	int err;

	if (x->n >= AFX_MAX)
		return -ENOSPC;
	err = alloc_blocks(afx_target(x, ino, off), nb, &o, &fsb);
	if (err)
		return err;
	blk = malloc(g->blocksize);
	if (!blk)
		return -ENOMEM;
	for (b = 0; b < nb && !err; b++) {
		xfs_daddr_t d = fsb_to_daddr(g, fsb + b);

		attr_rmt_build(g, blk, ino, d, b, valuelen, NULL, 'v');
		err = blk_write(d, blk);
	}
	free(blk);
	afx_insert(x, off, fsb, nb);
	add_nblocks(di, nb);
	attr_leaf_set_remote(leaf, index, (xfs_dablk_t)off, valuelen);
	return err;
}

/* The value blocks of a remote entry (valueblk, blocks), or 0 blocks. */
static uint32_t leaf_rmt(const uint8_t *leaf, unsigned index,
			 xfs_dablk_t *valueblk)
{
	const uint8_t *e = leaf + sizeof(struct xfs_attr3_leaf_hdr) + index * 8;
	const uint8_t *n = leaf + load_be16(e + 4);

	if (e[6] & XFS_ATTR_LOCAL)
		return 0;
	*valueblk = load_be32(n);
	return attr_rmt_blocks(&db.fs->geo, load_be32(n + 4));
}

/*
 * After a removal: a leaf whose entries all fit the short form goes
 * back into the inode (or the fork goes, if it is empty and the data
 * fork is not a btree), as the kernel does.  Returns 1 if it did.
 */
static int leaf_shrink(xfs_ino_t ino, uint8_t *di, uint32_t isize,
		       struct afx *x, const uint8_t *leaf)
{
	const struct fs_geom *g = &db.fs->geo;
	uint32_t bytes = attr_leaf_sf_bytes(g, leaf), size, used;
	struct attr_leaf_hdr h;
	unsigned fo = 0, i;
	uint8_t *f;
	int err;

	if (!bytes)
		return 0;
	if (bytes > sizeof(struct xfs_attr_sf_hdr) ||
	    di[DI_OFF(di_format)] == XFS_DINODE_FMT_BTREE) {
		fo = attr_sf_bytesfit(g, di, bytes);
		if (!fo)
			return 0;
	}
	err = afx_punch(x, ino, di, 0, 1);
	if (err)
		return err;
	if (afx_store(di, isize, x))
		return -EFSCORRUPTED;
	if (!fo) {
		di[DI_OFF(di_forkoff)] = 0;
		di[DI_OFF(di_aformat)] = XFS_DINODE_FMT_EXTENTS;
		set_anextents(di, 0);
		return 1;
	}
	di[DI_OFF(di_forkoff)] = (uint8_t)fo;
	di[DI_OFF(di_aformat)] = XFS_DINODE_FMT_LOCAL;
	f = inode_afork(di, isize, &size);
	memset(f, 0, size);
	used = sizeof(struct xfs_attr_sf_hdr);
	attr_leaf_hdr_get(g, leaf, &h);
	for (i = 0; i < h.count; i++) {
		const uint8_t *e = leaf + sizeof(struct xfs_attr3_leaf_hdr) + i * 8;
		const uint8_t *n = leaf + load_be16(e + 4);
		unsigned nl = n[2], vl = load_be16(n);

		if (e[6] & XFS_ATTR_INCOMPLETE)
			continue;
		f[used] = (uint8_t)nl;
		f[used + 1] = (uint8_t)vl;
		f[used + 2] = e[6] & XFS_ATTR_NSP_ONDISK_MASK;
		memcpy(f + used + 3, n + 3, nl + vl);
		used += XFS_ATTR_SF_ENTSIZE(nl, vl);
		f[offsetof(struct xfs_attr_sf_hdr, count)]++;
	}
	store_be16(f, (uint16_t)used);
	return 1;
}

/*
 * The change count moves on once per transaction of the kernel's chain
 * that logs the inode; how many a step takes was measured against the
 * reference, without and with rmapbt (whose deferred updates add some).
 */
#define CC(base, rmap)	((base) + (db.fs->geo.has_rmapbt ? (rmap) : 0))

/* ---- node form: a da3 node at block 0 over leaves ---- */

#define NODE_HDR	((uint32_t)sizeof(struct xfs_da3_node_hdr))
#define NOFF(m)		offsetof(struct xfs_da3_node_hdr, m)
#define BOFF(m)		offsetof(struct xfs_da3_blkinfo, m)

static unsigned node_count(const uint8_t *n)
{
	return load_be16(n + NOFF(count));
}

static uint8_t *node_ent(uint8_t *n, unsigned i)
{
	return n + NODE_HDR + i * 8;
}

static void node_init(uint8_t *n, xfs_ino_t ino, unsigned level)
{
	const struct fs_geom *g = &db.fs->geo;

	memset(n, 0, g->blocksize);
	store_be16(n + BOFF(magic), XFS_DA3_NODE_MAGIC);
	memcpy(n + BOFF(uuid), &g->meta_uuid, sizeof(xfs_uuid_t));
	store_be64(n + BOFF(owner), ino);
	store_be16(n + NOFF(level), (uint16_t)level);
}

/* The entry to descend: the first whose hash is not below ours. */
static unsigned node_lookup(uint8_t *n, uint32_t hash)
{
	unsigned cnt = node_count(n), p;

	for (p = 0; p < cnt && load_be32(node_ent(n, p)) < hash; p++)
		;
	return p == cnt ? cnt - 1 : p;
}

static void node_insert(uint8_t *n, unsigned at, uint32_t hash,
			xfs_dablk_t before)
{
	unsigned cnt = node_count(n);

	memmove(node_ent(n, at + 1), node_ent(n, at), (cnt - at) * 8);
	store_be32(node_ent(n, at), hash);
	store_be32(node_ent(n, at) + 4, before);
	store_be16(n + NOFF(count), (uint16_t)(cnt + 1));
}

/* Allocate the fork's block at file offset off where the kernel would. */
static int fork_block_alloc(xfs_ino_t ino, uint8_t *di, struct afx *x,
			    xfs_fileoff_t off, xfs_fsblock_t *fsb)
{
	struct alloc_owner o = { .owner = ino, .offset = off, .attr_fork = true };
	int err;

	if (x->n >= AFX_MAX)
		return -ENOSPC;
	err = alloc_blocks(afx_target(x, ino, off), 1, &o, fsb);
	if (err)
		return err;
	afx_insert(x, off, *fsb, 1);
	add_nblocks(di, 1);
	return 0;
}

static void set_blkno(uint8_t *blk, xfs_fsblock_t fsb)
{
	store_be64(blk + BOFF(blkno), (uint64_t)fsb_to_daddr(&db.fs->geo, fsb));
}

static int blk_put(uint8_t *blk)
{
	xfs_cksum_update(blk, db.fs->geo.blocksize, XFS_DA3_BLKINFO_CRC_OFF);
	return blk_write((xfs_daddr_t)load_be64(blk + BOFF(blkno)), blk);
}

/*
 * Add the new attribute a to the dabtree whose root node n is at block
 * 0: in leaf l (file block lblk, under entry nidx of n) at index idx,
 * splitting l into a new leaf when it is full.  With convert, n and l
 * are the node and the leaf copy a full single leaf turns into (l's
 * block is still to be allocated); with from_sf, block 0 itself is.
 * Everything that can refuse is decided before the first allocation.
 */
static int node_add_new(struct cursor *c, uint8_t *di, struct afx *x,
			uint8_t *n, unsigned nidx, uint8_t *l, xfs_dablk_t lblk,
			unsigned idx, const struct attr_args *a, bool convert,
			bool from_sf)
{
	const struct fs_geom *g = &db.fs->geo;
	xfs_ino_t ino = c->ino;
	uint8_t *l2 = NULL, *l3 = NULL, *tl;
	struct afx sim = *x;
	xfs_dablk_t blk2 = 0, fwd;
	xfs_fsblock_t fsb;
	unsigned tidx;
	bool local, split = false, in_old = true;
	uint32_t newsz = attr_leaf_newentsize(g, a->namelen, a->valuelen, &local);
	int err = -ENOMEM;

	/* the file blocks the new blocks will take */
	if (from_sf) {
		sim.n = 0;
		afx_insert(&sim, 0, 0, 1);
	}
	if (convert) {
		lblk = (xfs_dablk_t)afx_first_unused(&sim, 1);
		afx_insert(&sim, lblk, 0, 1);
		store_be32(node_ent(n, 0) + 4, lblk);
	}
	tl = l;
	tidx = idx;
	if (attr_leaf_add(g, l, idx, a->ns, (const uint8_t *)a->name,
			  a->namelen, NULL, a->valuelen)) {
		if (node_count(n) + 1 > da3_node_maxents(g->blocksize))
			return -1;	/* the node would split: not written */
		l2 = malloc(g->blocksize);
		if (!l2)
			return -ENOMEM;
		blk2 = (xfs_dablk_t)afx_first_unused(&sim, 1);
		attr_leaf_init(g, l2, ino, 0);
		attr_leaf_split(g, l, l2, idx, newsz, &in_old, &tidx);
		tl = in_old ? l : l2;
		if (attr_leaf_add(g, tl, tidx, a->ns, (const uint8_t *)a->name,
				  a->namelen, NULL, a->valuelen)) {
			err = -1;	/* a double split: not written */
			goto out;
		}
		split = true;
		/* the new leaf follows the old one in the sibling chain */
		fwd = load_be32(l + BOFF(forw));
		store_be32(l2 + BOFF(forw), fwd);
		store_be32(l2 + BOFF(back), lblk);
		store_be32(l + BOFF(forw), blk2);
		if (fwd) {
			l3 = malloc(g->blocksize);
			if (!l3)
				goto out;
			if (fork_blk_read(x, ino, fwd, l3) !=
			    XFS_ATTR3_LEAF_MAGIC) {
				err = -1;
				goto out;
			}
			store_be32(l3 + BOFF(back), blk2);
		}
	}
	/* a bmap btree for the attribute fork is not written */
	if (!afx_room(di, c->len, from_sf ? &sim : x,
		      (from_sf ? 0 : convert) + split + !local)) {
		err = -1;
		goto out;
	}
	/* the allocations, in the kernel's order */
	if (from_sf) {
		struct alloc_owner o = { .owner = ino, .offset = 0,
					 .attr_fork = true };

		err = alloc_blocks(ino_to_fsb(g, ino), 1, &o, &fsb);
		if (err)
			goto out;
		di[DI_OFF(di_aformat)] = XFS_DINODE_FMT_EXTENTS;
		x->n = 0;
		afx_insert(x, 0, fsb, 1);
		add_nblocks(di, 1);
	}
	set_blkno(n, afx_map(x, 0));
	if (convert) {
		err = fork_block_alloc(ino, di, x, lblk, &fsb);
		if (err)
			goto out;
		set_blkno(l, fsb);
	}
	if (split) {
		err = fork_block_alloc(ino, di, x, blk2, &fsb);
		if (err)
			goto out;
		set_blkno(l2, fsb);
	}
	/* the node's hashes: the old leaf's last, then the new leaf's */
	store_be32(node_ent(n, nidx), attr_leaf_lasthash(g, l));
	if (split)
		node_insert(n, nidx + 1, attr_leaf_lasthash(g, l2), blk2);
	if (!local) {
		err = rmt_alloc(ino, di, x, tl, tidx, a->valuelen);
		if (err)
			goto out;
	}
	err = afx_store(di, c->len, x);
	if (err) {
		err = -EFSCORRUPTED;	/* the fork would need a btree */
		goto out;
	}
	err = blk_put(l);
	if (!err && l2)
		err = blk_put(l2);
	if (!err && l3)
		err = blk_put(l3);
	if (!err)
		err = blk_put(n);
	if (err)
		goto out;
	if (convert)
		bump_changecount(di, (from_sf ? CC(3, 2) : CC(2, 1)) +
				 (local ? 0 : CC(1, 0)) - 1);
	else
		bump_changecount(di, CC(1, 0) +
				 (local ? 0 : CC(1, 0)) - 1);
	inode_touch(di);
	err = cur_write(true);
out:
	free(l2);
	free(l3);
	return err;
}

/* Block 0 is a node: find the leaf for (ns, name). */
static int node_find(const struct afx *x, xfs_ino_t ino, uint8_t *n,
		     uint8_t *l, const struct attr_args *a, unsigned *nidx,
		     xfs_dablk_t *lblk, bool *found, unsigned *idx)
{
	const struct fs_geom *g = &db.fs->geo;

	if (load_be16(n + NOFF(level)) != 1 || !node_count(n))
		return -1;	/* deeper trees are not written */
	*nidx = node_lookup(n, da_hashname((const uint8_t *)a->name,
					   a->namelen));
	*lblk = load_be32(node_ent(n, *nidx) + 4);
	if (fork_blk_read(x, ino, *lblk, l) != XFS_ATTR3_LEAF_MAGIC)
		return -1;
	*found = attr_leaf_lookup(g, l, a->ns, (const uint8_t *)a->name,
				  a->namelen, idx);
	return 0;
}

/* Read the leaf at fork block b, checked. */
static int leaf_at(const struct afx *x, xfs_ino_t ino, xfs_dablk_t b,
		   uint8_t *buf)
{
	return fork_blk_read(x, ino, b, buf) == XFS_ATTR3_LEAF_MAGIC ? 0 : -1;
}

static void node_del(uint8_t *n, unsigned at)
{
	unsigned cnt = node_count(n);

	memmove(node_ent(n, at), node_ent(n, at + 1), (cnt - at - 1) * 8);
	memset(node_ent(n, cnt - 1), 0, 8);
	store_be16(n + NOFF(count), (uint16_t)(cnt - 1));
}

/*
 * Remove from node form.  A leaf left at most half full is joined with
 * a sibling when the two fit in three quarters of a block (the emptied one
 * goes), a node left with one leaf gives way to it at block 0, and a
 * lone leaf whose entries fit the short form goes back into the inode:
 * the kernel's join, root join and shrink.
 */
/*
 * Take entry idx out of leaf l (file block lblk, under entry nidx of the
 * node n at block 0), with what follows (see node_remove), and write it
 * all.  cc_local / cc_rmt: the change count of the command so far, for
 * an entry with a local or a remote value.
 */
static int node_remove_at(struct cursor *c, uint8_t *di, struct afx *x,
			  uint8_t *n, uint8_t *l, unsigned nidx,
			  xfs_dablk_t lblk, unsigned idx, unsigned cc_local,
			  unsigned cc_rmt)
{
	const struct fs_geom *g = &db.fs->geo;
	const uint32_t bs = g->blocksize, hsz = sizeof(struct xfs_attr3_leaf_hdr);
	uint8_t *sib = malloc(bs), *l3 = malloc(bs);
	uint8_t *save = NULL, *drop = NULL;
	struct attr_leaf_hdr h, hs;
	unsigned sidx = 0, save_idx = 0, drop_idx = 0, cc;
	xfs_dablk_t vblk = 0, sblk = 0, save_blk = 0, drop_blk = 0;
	uint32_t nb;
	bool join = false, rootjoin = false, have_l3 = false;
	int err = -1, i;

	if (!sib || !l3) {
		err = -ENOMEM;
		goto out;
	}
	nb = leaf_rmt(l, idx, &vblk);
	attr_leaf_remove(g, l, idx);
	attr_leaf_hdr_get(g, l, &h);
	if (h.count)
		store_be32(node_ent(n, nidx), attr_leaf_lasthash(g, l));
	/*
	 * Is the leaf small enough to join, and with whom?  (The kernel
	 * tries after every removal, whatever the leaf's fill: its 37 %
	 * verdict does not reach the join.)
	 */
	if (h.usedbytes + hsz + h.count * 8u <= bs / 2) {
		xfs_dablk_t fw = load_be32(l + BOFF(forw));
		xfs_dablk_t bk = load_be32(l + BOFF(back));

		if (!h.count) {
			sblk = fw ? fw : bk;
			if (sblk && !leaf_at(x, c->ino, sblk, sib)) {
				join = true;
				sidx = fw ? nidx + 1 : nidx - 1;
				save = sib, save_blk = sblk, save_idx = sidx;
				drop = l, drop_blk = lblk, drop_idx = nidx;
			}
		} else {
			bool fwd = fw < bk;

			for (i = 0; i < 2 && !join; i++, fwd = !fwd) {
				sblk = fwd ? fw : bk;
				if (!sblk || leaf_at(x, c->ino, sblk, sib))
					continue;
				attr_leaf_hdr_get(g, sib, &hs);
				if ((int64_t)bs - bs / 4 - h.usedbytes - hs.usedbytes -
				    (h.count + hs.count) * 8 - hsz >= 0) {
					join = true;
					sidx = fwd ? nidx + 1 : nidx - 1;
				}
			}
			if (join && sblk < lblk) {
				save = sib, save_blk = sblk, save_idx = sidx;
				drop = l, drop_blk = lblk, drop_idx = nidx;
			} else if (join) {
				save = l, save_blk = lblk, save_idx = nidx;
				drop = sib, drop_blk = sblk, drop_idx = sidx;
			}
		}
		if (join && (sidx >= node_count(n) ||
			     load_be32(node_ent(n, sidx) + 4) != sblk))
			goto out;	/* not the sibling under this node */
	}
	if (join) {
		xfs_dablk_t other;

		err = attr_leaf_join(g, save, drop);
		if (err)
			goto out;
		err = -1;
		store_be32(node_ent(n, save_idx), attr_leaf_lasthash(g, save));
		/* take the dropped leaf out of the sibling chain */
		if (load_be32(save + BOFF(back)) == drop_blk) {
			other = load_be32(drop + BOFF(back));
			store_be32(save + BOFF(back), other);
			if (other) {
				if (leaf_at(x, c->ino, other, l3))
					goto out;
				store_be32(l3 + BOFF(forw), save_blk);
				have_l3 = true;
			}
		} else {
			other = load_be32(drop + BOFF(forw));
			store_be32(save + BOFF(forw), other);
			if (other) {
				if (leaf_at(x, c->ino, other, l3))
					goto out;
				store_be32(l3 + BOFF(back), save_blk);
				have_l3 = true;
			}
		}
		node_del(n, drop_idx);
		rootjoin = node_count(n) == 1;
	}
	if (!afx_room(di, c->len, x, (nb ? 1 : 0) + (join ? 1 : 0) +
		      (rootjoin ? 1 : 0)))
		goto out;	/* an extent split the fork cannot hold */
	/* the frees, in the kernel's order */
	if (nb) {
		err = afx_punch(x, c->ino, di, vblk, nb);
		if (err)
			goto out;
	}
	cc = nb ? cc_rmt : cc_local;
	if (join) {
		err = afx_punch(x, c->ino, di, drop_blk, 1);
		if (err)
			goto out;
		cc += CC(1, 1);
	}
	if (rootjoin) {
		/* the last leaf becomes block 0 */
		xfs_fsblock_t b0 = afx_map(x, 0);

		memcpy(n, save, bs);
		set_blkno(n, b0);
		err = afx_punch(x, c->ino, di, save_blk, 1);
		if (err)
			goto out;
		cc += CC(0, 2);
		if (x->n == 1 && !x->r[0].br_startoff &&
		    x->r[0].br_blockcount == 1) {
			err = leaf_shrink(c->ino, di, c->len, x, n);
			if (err < 0)
				goto out;
			if (err > 0) {
				cc += CC(0, 0);
				goto inode;
			}
		}
	}
	err = afx_store(di, c->len, x);
	if (err)
		goto out;
	if (join && !rootjoin)
		err = blk_put(save);
	else if (!join)
		err = blk_put(l);
	if (!err && have_l3)
		err = blk_put(l3);
	if (!err)
		err = blk_put(n);
	if (err)
		goto out;
inode:
	bump_changecount(di, cc - 1);
	inode_touch(di);
	err = cur_write(true);
out:
	free(sib);
	free(l3);
	return err;
}

static int node_remove(struct cursor *c, uint8_t *di, struct afx *x,
		       uint8_t *n, const struct attr_args *a)
{
	uint8_t *l = malloc(db.fs->geo.blocksize);
	unsigned nidx, idx;
	xfs_dablk_t lblk;
	bool found;
	int err = -1;

	if (!l)
		return -ENOMEM;
	if (!node_find(x, c->ino, n, l, a, &nidx, &lblk, &found, &idx) && found)
		err = node_remove_at(c, di, x, n, l, nidx, lblk, idx, CC(1, 0),
				     CC(3, 1));
	free(l);
	return err;
}

static int node_set(struct cursor *c, uint8_t *di, struct afx *x, uint8_t *n,
		    const struct attr_args *a)
{
	const struct fs_geom *g = &db.fs->geo;
	uint8_t *l = malloc(g->blocksize);
	unsigned nidx, idx;
	xfs_dablk_t lblk, ovblk = 0;
	bool found, local;
	uint32_t onb;
	int err = -1;

	if (!l)
		return -ENOMEM;
	if (node_find(x, c->ino, n, l, a, &nidx, &lblk, &found, &idx))
		goto out;
	if ((found && a->create) || (!found && a->replace))
		goto out;
	if (!found) {
		err = node_add_new(c, di, x, n, nidx, l, lblk, idx, a, false,
				   false);
		goto out;
	}
	/*
	 * Replace: the new entry goes in before the old one, incomplete
	 * until its value is in place; then the old one is removed as by
	 * attr_remove.  A leaf that would split is not written.
	 */
	onb = leaf_rmt(l, idx, &ovblk);
	attr_leaf_newentsize(g, a->namelen, a->valuelen, &local);
	if (attr_leaf_add(g, l, idx, a->ns | XFS_ATTR_INCOMPLETE,
			  (const uint8_t *)a->name, a->namelen, NULL,
			  a->valuelen) ||
	    !afx_room(di, c->len, x, !local + (onb ? 1 : 0) + 2))
		goto out;
	if (!local) {
		err = rmt_alloc(c->ino, di, x, l, idx, a->valuelen);
		if (err)
			goto out;
	} else {
		l[sizeof(struct xfs_attr3_leaf_hdr) + idx * 8 + 6] &=
			(uint8_t)~XFS_ATTR_INCOMPLETE;
	}
	err = node_remove_at(c, di, x, n, l, nidx, lblk, idx + 1,
			     local ? CC(2, 0) : CC(2, 1),
			     local ? CC(4, 1) : CC(4, 2));
out:
	free(l);
	return err;
}

/*
 * Set an attribute in leaf form.  leaf holds the fork's block 0 (or, with
 * from_sf, a leaf just built from the short form, not yet placed).
 * Returns 0 or -1 (refused, nothing written) or a negative errno.
 */
static int leaf_set(struct cursor *c, uint8_t *di, struct afx *x,
		    uint8_t *leaf, const struct attr_args *a, bool from_sf)
{
	const struct fs_geom *g = &db.fs->geo;
	xfs_ino_t ino = c->ino;
	unsigned idx, oidx = 0, cc;
	bool found, local;
	xfs_dablk_t ovblk = 0;
	uint32_t onb = 0;
	int err;

	found = attr_leaf_lookup(g, leaf, a->ns, (const uint8_t *)a->name,
				 a->namelen, &idx);
	if ((found && a->create) || (!found && a->replace))
		return -1;
	if (found) {
		oidx = idx + 1;
		onb = leaf_rmt(leaf, idx, &ovblk);
	}
	attr_leaf_newentsize(g, a->namelen, a->valuelen, &local);
	if (attr_leaf_add(g, leaf, idx, a->ns | (found ? XFS_ATTR_INCOMPLETE : 0),
			  (const uint8_t *)a->name, a->namelen, NULL,
			  a->valuelen)) {
		uint8_t *n;

		if (found)
			return -1;	/* replace into a full leaf: not written */
		/* the leaf moves to a new block under a node at block 0 */
		n = malloc(g->blocksize);
		if (!n)
			return -ENOMEM;
		node_init(n, ino, 1);
		store_be16(n + NOFF(count), 1);
		err = node_add_new(c, di, x, n, 0, leaf, 0, idx, a, true,
				   from_sf);
		free(n);
		return err;
	}
	if (from_sf)
		x->n = 0;
	if (!afx_room(di, c->len, x, from_sf + !local + (onb ? 1 : 0)))
		return -1;	/* the fork would need a bmap btree */
	if (from_sf) {
		struct alloc_owner o = { .owner = ino, .offset = 0,
					 .attr_fork = true };
		xfs_fsblock_t fsb;

		err = alloc_blocks(ino_to_fsb(g, ino), 1, &o, &fsb);
		if (err)
			return err;
		store_be64(leaf + offsetof(struct xfs_da3_blkinfo, blkno),
			   (uint64_t)fsb_to_daddr(g, fsb));
		di[DI_OFF(di_aformat)] = XFS_DINODE_FMT_EXTENTS;
		x->n = 0;
		afx_insert(x, 0, fsb, 1);
		add_nblocks(di, 1);
	}
	if (!local) {
		err = rmt_alloc(ino, di, x, leaf, idx, a->valuelen);
		if (err)
			return err;
	}
	if (from_sf)
		cc = local ? CC(1, 1) : CC(3, 1);
	else if (!found)
		cc = local ? CC(1, 0) : CC(2, 0);
	else if (local)
		cc = onb ? CC(4, 1) : CC(2, 0);
	else
		cc = onb ? CC(4, 2) : CC(2, 1);
	if (found) {
		/* the new entry is complete; the old one goes */
		leaf[sizeof(struct xfs_attr3_leaf_hdr) + idx * 8 + 6] &=
			(uint8_t)~XFS_ATTR_INCOMPLETE;
		if (onb) {
			err = afx_punch(x, ino, di, ovblk, onb);
			if (err)
				return err;
		}
		attr_leaf_remove(g, leaf, oidx);
		err = leaf_shrink(ino, di, c->len, x, leaf);
		if (err < 0)
			return err;
		if (err > 0) {
			bump_changecount(di, cc + CC(1, 1) - 1);
			inode_touch(di);
			return cur_write(true);
		}
	}
	if (afx_store(di, c->len, x))
		return -EFSCORRUPTED;	/* the fork would need a btree */
	attr_leaf_crc(g, leaf);
	err = blk_write((xfs_daddr_t)load_be64(leaf +
			offsetof(struct xfs_da3_blkinfo, blkno)), leaf);
	if (err)
		return err;
	bump_changecount(di, cc - 1);
	inode_touch(di);
	return cur_write(true);
}

/* Turn the short-form fork f (used bytes) into an unplaced leaf. */
static void sf_to_leaf(const uint8_t *f, uint32_t used, xfs_ino_t ino,
		       uint8_t *leaf)
{
	const struct fs_geom *g = &db.fs->geo;
	uint32_t off = sizeof(struct xfs_attr_sf_hdr);
	unsigned i, n = f[offsetof(struct xfs_attr_sf_hdr, count)], idx;

	attr_leaf_init(g, leaf, ino, 0);
	for (i = 0; i < n && off + 3 <= used; i++) {
		unsigned nl = f[off], vl = f[off + 1], fl = f[off + 2];

		attr_leaf_lookup(g, leaf, fl & XFS_ATTR_NSP_ONDISK_MASK,
				 f + off + 3, nl, &idx);
		attr_leaf_add(g, leaf, idx, fl & XFS_ATTR_NSP_ONDISK_MASK,
			      f + off + 3, nl, f + off + 3 + nl, vl);
		off += XFS_ATTR_SF_ENTSIZE(nl, vl);
	}
}

/*
 * Read block 0 of a fork of extents into leaf: 0 for a leaf, 1 for a
 * node, -1 otherwise.
 */
static int leaf_load(const uint8_t *di, uint32_t isize, xfs_ino_t ino,
		     struct afx *x, uint8_t *leaf)
{
	if (di[DI_OFF(di_aformat)] != XFS_DINODE_FMT_EXTENTS ||
	    afx_load(di, isize, x))
		return -1;
	switch (fork_blk_read(x, ino, 0, leaf)) {
	case XFS_ATTR3_LEAF_MAGIC:
		return 0;
	case XFS_DA3_NODE_MAGIC:
		return 1;
	default:
		return -1;	/* not sound: nothing is built on it */
	}
}

static int leaf_remove(struct cursor *c, uint8_t *di, const struct attr_args *a)
{
	const struct fs_geom *g = &db.fs->geo;
	struct afx x;
	uint8_t *leaf = malloc(g->blocksize);
	xfs_dablk_t vblk = 0;
	unsigned idx, cc = CC(1, 0);
	uint32_t nb;
	int err = -1;

	if (!leaf)
		return -ENOMEM;
	err = leaf_load(di, c->len, c->ino, &x, leaf);
	if (err == 1) {
		err = node_remove(c, di, &x, leaf, a);
		goto out;
	}
	if (err) {
		err = -1;
		goto out;
	}
	err = -1;
	if (!attr_leaf_lookup(g, leaf, a->ns, (const uint8_t *)a->name,
			      a->namelen, &idx))
		goto out;
	nb = leaf_rmt(leaf, idx, &vblk);
	if (!afx_room(di, c->len, &x, nb ? 1 : 0))
		goto out;	/* an extent split the fork cannot hold */
	if (nb) {
		err = afx_punch(&x, c->ino, di, vblk, nb);
		if (err)
			goto out;
		cc = CC(3, 1);
	}
	attr_leaf_remove(g, leaf, idx);
	err = leaf_shrink(c->ino, di, c->len, &x, leaf);
	if (err < 0)
		goto out;
	if (err > 0) {
		cc += nb ? CC(1, 1) : CC(0, 1);
	} else {
		err = afx_store(di, c->len, &x);
		if (err)
			goto out;
		attr_leaf_crc(g, leaf);
		err = blk_write(fsb_to_daddr(g, afx_map(&x, 0)), leaf);
		if (err)
			goto out;
	}
	bump_changecount(di, cc - 1);
	inode_touch(di);
	err = cur_write(true);
out:
	free(leaf);
	return err;
}

static int do_attr_set(const struct attr_args *a)
{
	struct cursor *c = cur_top();
	const struct fs_geom *g = &db.fs->geo;
	uint8_t *di = cur_obj(c), *f, *saved = NULL, *leaf = NULL;
	uint32_t size, used, off, need;
	unsigned fo;
	struct afx x = { .n = 0 };
	int err = -1;

	if (!di || a->namelen > 255 || !a->namelen ||
	    a->valuelen > XFS_XATTR_SIZE_MAX)
		return -1;
	leaf = malloc(g->blocksize);
	if (!leaf)
		return -ENOMEM;
	if (!di[DI_OFF(di_forkoff)]) {
		/* the kernel sizes the new fork with 8-bit lengths */
		if (afork_create(c->ino, di, sizeof(struct xfs_attr_sf_hdr) +
				 XFS_ATTR_SF_ENTSIZE(a->namelen & 0xff,
						     a->valuelen & 0xff)))
			goto out;
		/* what a failure from here on leaves, as the kernel does */
		saved = malloc(c->len);
		if (!saved)
			goto out;
		memcpy(saved, di, c->len);
	}
	f = inode_afork(di, c->len, &size);
	if (!f)
		goto fail;
	if (di[DI_OFF(di_aformat)] == XFS_DINODE_FMT_EXTENTS &&
	    di_anextents(di)) {
		switch (leaf_load(di, c->len, c->ino, &x, leaf)) {
		case 0:
			err = leaf_set(c, di, &x, leaf, a, false);
			break;
		case 1:
			err = node_set(c, di, &x, leaf, a);
			break;
		default:
			goto fail;
		}
		goto fail_if;
	}
	if (di[DI_OFF(di_aformat)] == XFS_DINODE_FMT_EXTENTS) {
		if (a->replace)
			goto fail;	/* nothing to replace */
		/* an empty fork becomes an empty short-form fork */
		memset(f, 0, size);
		store_be16(f, sizeof(struct xfs_attr_sf_hdr));
		di[DI_OFF(di_aformat)] = XFS_DINODE_FMT_LOCAL;
	} else if (di[DI_OFF(di_aformat)] != XFS_DINODE_FMT_LOCAL) {
		goto fail;
	}
	used = load_be16(f);
	if (used < sizeof(struct xfs_attr_sf_hdr) || used > size ||
	    !sf_sound(f, size, c->ino))
		goto fail;
	off = sf_find(f, used, a);
	if ((off && a->create) || (!off && a->replace))
		goto fail;
	if (off) {
		/* replace: the old entry goes first */
		uint32_t esz = XFS_ATTR_SF_ENTSIZE(f[off], f[off + 1]);

		memmove(f + off, f + off + esz, used - off - esz);
		used -= esz;
		memset(f + used, 0, esz);
		store_be16(f, (uint16_t)used);
		f[offsetof(struct xfs_attr_sf_hdr, count)]--;
	}
	need = XFS_ATTR_SF_ENTSIZE(a->namelen, a->valuelen);
	fo = 0;
	if (a->valuelen < 255 && a->namelen < 255)
		fo = attr_sf_bytesfit(g, di, used + need);
	if (!fo) {
		/* the short form overflows: a leaf block takes it all */
		struct attr_args na = *a;

		na.replace = na.create = false;
		sf_to_leaf(f, used, c->ino, leaf);
		err = leaf_set(c, di, &x, leaf, &na, true);
		goto fail_if;
	}
	if (fo != di[DI_OFF(di_forkoff)]) {
		/* the fork grows into what the data fork leaves */
		uint8_t *nf = di + XFS_DINODE_CORE_SIZE + fo * 8;

		memmove(nf, f, used);
		di[DI_OFF(di_forkoff)] = (uint8_t)fo;
		f = nf;
	}
	f[used] = (uint8_t)a->namelen;
	f[used + 1] = (uint8_t)a->valuelen;
	f[used + 2] = (uint8_t)a->ns;
	memcpy(f + used + 3, a->name, a->namelen);
	memset(f + used + 3 + a->namelen, 'v', a->valuelen);
	used += need;
	store_be16(f, (uint16_t)used);
	f[offsetof(struct xfs_attr_sf_hdr, count)]++;
	inode_touch(di);
	err = cur_write(true);
	goto out;
fail_if:
	if (err != -1)
		goto out;
fail:
	/* a fork made for the attribute stays, as the kernel's does */
	if (saved) {
		memcpy(di, saved, c->len);
		cur_write(true);
	}
	err = -1;
out:
	free(saved);
	free(leaf);
	return err;
}

static int do_attr_remove(const struct attr_args *a)
{
	struct cursor *c = cur_top();
	uint8_t *di = cur_obj(c), *f;
	uint32_t size, used, off, esz;

	if (!di)
		return -1;
	f = inode_afork(di, c->len, &size);
	if (f && di[DI_OFF(di_aformat)] == XFS_DINODE_FMT_EXTENTS &&
	    di_anextents(di))
		return leaf_remove(c, di, a);
	if (!f || di[DI_OFF(di_aformat)] != XFS_DINODE_FMT_LOCAL)
		return -1;
	used = load_be16(f);
	if (used < sizeof(struct xfs_attr_sf_hdr) || used > size ||
	    !sf_sound(f, size, c->ino))
		return -1;
	off = sf_find(f, used, a);
	if (!off)
		return -1;
	if (f[offsetof(struct xfs_attr_sf_hdr, count)] == 1 &&
	    di[DI_OFF(di_format)] != XFS_DINODE_FMT_BTREE) {
		/* the last one: the fork goes away, its bytes as they are */
		di[DI_OFF(di_forkoff)] = 0;
		di[DI_OFF(di_aformat)] = XFS_DINODE_FMT_EXTENTS;
	} else {
		esz = XFS_ATTR_SF_ENTSIZE(f[off], f[off + 1]);
		memmove(f + off, f + off + esz, used - off - esz);
		used -= esz;
		store_be16(f, (uint16_t)used);
		f[offsetof(struct xfs_attr_sf_hdr, count)]--;
	}
	inode_touch(di);
	return cur_write(true);
}

static int attr_set_f(int argc, char **argv)
{
	struct attr_args a;
	xfs_ino_t ino;
	int err;

	if (argc < 2) {
		dbprintf("bad argument count %d to attr_set, expected at least 1 "
			 "arguments\n", argc - 1);
		return 0;
	}
	if (!attr_ready(argv[0]) || attr_parse(argc, argv, true, &a))
		return 0;
	agf_extra = 0;
	ino = cur_top()->ino;
	cur_push();
	set_cur_inode(ino);
	err = do_attr_set(&a);
	cur_pop();
	if (err)
		dbprintf("failed to set attr %s on inode %llu\n", a.name,
			 (unsigned long long)ino);
	return 0;
}

static int attr_remove_f(int argc, char **argv)
{
	struct attr_args a;
	xfs_ino_t ino;
	int err;

	if (argc < 2) {
		dbprintf("bad argument count %d to attr_remove, expected at least "
			 "1 arguments\n", argc - 1);
		return 0;
	}
	if (!attr_ready(argv[0]) || attr_parse(argc, argv, false, &a))
		return 0;
	agf_extra = 0;
	ino = cur_top()->ino;
	cur_push();
	set_cur_inode(ino);
	err = do_attr_remove(&a);
	cur_pop();
	if (err)
		dbprintf("failed to remove attr %s from inode %llu\n", a.name,
			 (unsigned long long)ino);
	return 0;
}

static const struct db_cmd attr_cmds[] = {
	{ "attr_remove", NULL, attr_remove_f, 0, -1, true, true,
	  "[-r|-s|-u] [-n] name",
	  "remove the named attribute from the current inode" },
	{ "attr_set", NULL, attr_set_f, 0, -1, true, true,
	  "[-r|-s|-u] [-n] [-R|-C] [-v n] name",
	  "set the named attribute on the current inode" },
};

void attr_cmds_init(void)
{
	register_cmds(attr_cmds, sizeof(attr_cmds) / sizeof(attr_cmds[0]));
}
