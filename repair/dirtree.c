/*
 * Phase 3: the leaf and free space of a leaf or node directory (part of
 * phase 3's directory check, see dircheck.c).
 *
 * The findings libfs dir_check made of the dabtree's root and nodes, the
 * leaf blocks and the free blocks are said as the reference says them:
 * one line for the lowest damaged block its phase 3 or 6 stops at
 * (dir_tree_words), the findings themselves kept as notes.
 *
 * What goes in: the directory's findings and data fork's map.  What
 * comes out: whether the directory would be rebuilt.  What stays true:
 * nothing is written.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "dir.h"
#include "phase3int.h"
#include "repair.h"

/* What the findings say of one block of the leaf or free space. */
struct dir_tblk {
	xfs_dablk_t	dablk;
	xfs_daddr_t	daddr;
	bool		magic, crc, blkno, uuid, owner;
	bool		verifier;	/* another rule of the kernel's verifier */
	bool		header;		/* leaf: siblings; free: firstdb */
	bool		tail, nused;
	uint64_t	magic_found, blkno_found, owner_found;
	uint32_t	bad_entry;	/* free: lowest entry that is wrong */
	uint32_t	bad_ptr;	/* node: lowest entry pointing nowhere */
	bool		hash_interior, hash_last;
	bool		hash_order;	/* leafn: hashes out of order, which
					   only repair's own walk checks */
	bool		forw;		/* node root: a right sibling */
	uint64_t	forw_found;
	uint32_t	nbad_ptr;	/* node: entries pointing nowhere */
	bool		ptr_hole;	/* bad_ptr names a hole ... */
	uint64_t	ptr_found;	/* ... this block */
};

struct dir_tree {
	struct dir_tblk	v[P3_DIR_MAXBLK];
	unsigned	n;
	bool		free_said;	/* a free block has findings */
	bool		leaf_bad;	/* the leaf space is not read whole */
	bool		leaf_order;	/* a leafn's hashes out of order: the
					   walk stops there too */
};

static struct dir_tblk *dir_tree_get(struct dir_tree *t, xfs_dablk_t dablk,
				     xfs_daddr_t daddr)
{
	for (unsigned i = 0; i < t->n; i++)
		if (t->v[i].dablk == dablk)
			return &t->v[i];
	if (t->n == P3_DIR_MAXBLK)
		return NULL;
	t->v[t->n] = (struct dir_tblk){ .dablk = dablk, .daddr = daddr,
					.bad_entry = UINT32_MAX,
					.bad_ptr = UINT32_MAX };
	return &t->v[t->n++];
}

static int dir_tblk_cmp(const void *pa, const void *pb)
{
	const struct dir_tblk *a = pa, *b = pb;

	return a->dablk < b->dablk ? -1 : a->dablk > b->dablk;
}

/*
 * Is f about the leaf or free space, and one the reference reads in its
 * own words (dir_tree_words)?  The leaf entries matched against the data
 * entries (DIR_LEAF_BAD_ADDR and the like) are not: they stay as they are.
 */
static bool dir_tree_code(const struct fs_finding *f)
{
	if (f->obj.type != OBJ_DIR)
		return false;
	if (f->code == PR_DIR_FREE_MISSING)
		return true;	/* of the free space, by its data block */
	if (f->obj.index == (uint64_t)-1 || f->obj.index < XFS_DIR2_LEAF_OFFSET)
		return false;
	switch (f->code) {
	case PR_DIR_BAD_MAGIC:
	case PR_DIR_BAD_CRC:
	case PR_DIR_BAD_BLKNO:
	case PR_DIR_BAD_UUID:
	case PR_DIR_BAD_OWNER:
	case PR_DIR_LEAF_BAD_COUNT:
	case PR_DIR_LEAF_BAD_STALE:
	case PR_DIR_LEAF_HASH_ORDER:
	case PR_DIR_LEAF_BAD_BESTS:
	case PR_DIR_LEAF_BAD_SIBLING:
	case PR_DIR_FREE_BAD_FIRSTDB:
	case PR_DIR_FREE_BAD_NVALID:
	case PR_DIR_FREE_BAD_NUSED:
	case PR_DIR_FREE_BAD_BEST:
	case PR_DA_BAD_MAGIC:
	case PR_DA_BAD_CRC:
	case PR_DA_BAD_BLKNO:
	case PR_DA_BAD_OWNER:
	case PR_DA_BAD_UUID:
	case PR_DA_BAD_COUNT:
	case PR_DA_BAD_LEVEL:
	case PR_DA_HASH_ORDER:
	case PR_DA_BAD_HASHVAL:
	case PR_DA_BAD_PTR:
	case PR_DA_HOLE:
	case PR_DA_LOOP:
		return true;
	case PR_DA_BAD_SIBLING:
		/*
		 * The root's right sibling, which the reference checks at
		 * the end of its walk (its left one it does not check: see
		 * repair/DIFFERENCES.md, ours is said in our words).
		 */
		return f->obj.index == XFS_DIR2_LEAF_OFFSET && f->field &&
		       !strcmp(f->field, "info.forw");
	default:
		return false;
	}
}

static bool dir_tree_keep(const struct fs_finding *f, void *priv)
{
	const struct dir_tree *t = priv;

	/* a data block no free block covers: the free block said it */
	if (f->code == PR_DIR_FREE_MISSING)
		return t->free_said;
	/*
	 * The leaf entries are matched against the data entries only once
	 * every leaf block has been read: the reference stops before.
	 */
	if ((t->leaf_bad || t->leaf_order) && f->obj.type == OBJ_DIR) {
		switch (f->code) {
		case PR_DIR_LEAF_MISSING:
		case PR_DIR_LEAF_BAD_ADDR:
		case PR_DIR_LEAF_DUP_ADDR:
		case PR_DIR_LEAF_BAD_HASH:
			return true;
		default:
			break;
		}
	}
	return dir_tree_code(f);
}

/* Read one directory block of the leaf or free space (NULL if none). */
static struct fs_buf *dir_tree_read(struct p3ag *c,
				    const struct fs_extents *del,
				    xfs_dablk_t dablk)
{
	const struct fs_geom *g = &c->r->fs->geo;
	struct fs_buf *bp;

	if (fork_read(c->r->fs, del, dablk, g->dirblkfsbs, NULL, NULL, &bp))
		return NULL;
	if (bp->len < g->dirblksize) {
		buf_release(bp);
		return NULL;
	}
	return bp;
}

static void dir_tree_say(struct p3ag *c, enum fs_problem code,
			 const struct dir_tblk *b, uint64_t found,
			 uint64_t expected, const char *field)
{
	struct rp_args a = RP_ARGS_INIT(OBJ_DIR);

	a.obj.ino = c->ino;
	a.obj.index = b->dablk;
	a.obj.daddr = b->daddr;
	a.found = found;
	a.expected = expected;
	a.field = field;
	rp_say(c->out, code, &a);
}

/* The reference's check of a v5 header it reads whole: first failure. */
static bool dir_tree_hdr_words(struct p3ag *c, const struct dir_tblk *b)
{
	if (b->owner)
		dir_tree_say(c, PR_RP_DIR_HDR_OWNER, b, b->owner_found, 0, NULL);
	else if (b->blkno)
		dir_tree_say(c, PR_RP_DIR_HDR_BLKNO, b, b->blkno_found, 0, NULL);
	else if (b->uuid)
		dir_tree_say(c, PR_RP_DIR_HDR_UUID, b, 0, 0, NULL);
	else
		return false;
	return true;
}

/* A dabtree sibling finding: see dir_tree_words. */
static bool da_sibling(const struct fs_finding *f, void *priv)
{
	(void)priv;
	return f->code == PR_DA_BAD_SIBLING;
}

/*
 * The root node of a node directory, as the reference's phase 3 walks
 * it: a node hash that is not its child's last is corrected (the
 * directory is not rebuilt for it); a root whose last hash is not above
 * its first fails the walk's last check of the path; a count past the
 * children its leaves lead to fails it too.  Returns whether the walk
 * fails (the directory would be rebuilt).
 */
static bool dir_root_words(struct p3ag *c, const struct fs_extents *del,
			   const struct dir_tblk *b)
{
	const struct xfs_da3_node_hdr *h;
	const struct xfs_da_node_entry *e;
	uint32_t count, level, first, last, max;
	struct fs_buf *bp = dir_tree_read(c, del, b->dablk);
	bool failed = false;

	if (!bp)
		return false;
	h = (const void *)bp->data;
	e = (const void *)(bp->data + sizeof(*h));
	max = (c->r->fs->geo.dirblksize - sizeof(*h)) / sizeof(*e);
	count = get_be16(h->count);
	level = get_be16(h->level);
	if (count > max)
		count = max;
	/*
	 * A count past the children: the entries past them are no entries
	 * (their hashes do not go up).  One pointer gone astray it does not
	 * notice: it goes from leaf to leaf by their sibling pointers.
	 */
	if (b->bad_ptr != UINT32_MAX && b->bad_ptr > 0 && b->bad_ptr < count &&
	    b->bad_ptr + b->nbad_ptr >= count &&
	    get_be32(e[b->bad_ptr].hashval) <=
	    get_be32(e[b->bad_ptr - 1].hashval)) {
		dir_tree_say(c, PR_RP_DIR_NODE_COUNT, b, b->bad_ptr - 1, count,
			     NULL);
		failed = true;
	} else if (b->bad_ptr != UINT32_MAX && b->bad_ptr > 0) {
		/*
		 * The last pointer: its last check of the path fails; another
		 * it passes by without a word (its phase 6 rebuilds the
		 * directory all the same).  What our walk down the pointers
		 * finds of the leaves' siblings, it never sees.
		 */
		if (b->bad_ptr == count - 1)
			dir_tree_say(c, PR_RP_DIR_HASH_PATH, b, 0, 0, NULL);
		keep_notes(c, da_sibling, NULL);
		failed = true;
	} else if (count > 1) {
		first = get_be32(e[0].hashval);
		last = get_be32(e[count - 1].hashval);
		if (b->hash_interior)
			dir_tree_say(c, PR_RP_DIR_NODE_HASHVAL, b, level, 0,
				     NULL);
		if (last <= first) {
			dir_tree_say(c, PR_RP_DIR_NODE_HASH_PATH, b, first,
				     last, NULL);
			failed = true;
		} else if (b->hash_last) {
			dir_tree_say(c, PR_RP_DIR_NODE_HASHVAL, b, level, 0,
				     "last");
		}
	}
	buf_release(bp);
	return failed;
}

/*
 * A leafn's sibling pointer that is not its neighbour's in hash order
 * (DA_BAD_SIBLING of a block other than the root's).
 */
static bool leaf_sibling(const struct fs_finding *f, void *priv)
{
	(void)priv;
	return f->code == PR_DA_BAD_SIBLING && !dir_tree_code(f);
}

/*
 * The reference's phase 3 walk of a node directory's leaves (where it
 * applies: chain_walkable).  From the root's first child it goes leaf
 * to leaf by the forward pointers, and stops at the first leaf it
 * cannot map ("can't map block N"), that is no leaf ("bad directory
 * leaf magic # M ... block N"), whose hashes go below the highest seen
 * ("bad hash ordering in block N") or whose back pointer is not the
 * leaf it came from ("bad sibling back pointer for block N"); a forward
 * pointer of 0 ends the walk, which is short if the root has children
 * left ("directory block used/count inconsistency - I/COUNT").  Only a
 * root of leaves (level 1) is walked so.  Returns whether the walk
 * stops short, *at the leaf (counted from 0) where it does, and says
 * where only if say.
 */
static bool leaf_chain_words(struct p3ag *c, const struct fs_extents *del,
			     xfs_dablk_t root, bool say, uint32_t *at)
{
	const struct fs_geom *g = &c->r->fs->geo;
	const struct xfs_da3_node_hdr *nh;
	const struct xfs_da_node_entry *ne;
	uint32_t count, prev = 0, cur, greatest = 0, i = 0;
	uint32_t max = (g->dirblksize - sizeof(*nh)) / sizeof(*ne);
	uint32_t lmax = (g->dirblksize - sizeof(struct xfs_dir3_leaf_hdr)) /
			sizeof(struct xfs_dir2_leaf_entry);
	struct dir_tblk b = { .dablk = root, .daddr = (xfs_daddr_t)-1 };
	struct fs_buf *bp = dir_tree_read(c, del, root);

	if (!bp)
		return false;
	nh = (const void *)bp->data;
	ne = (const void *)(bp->data + sizeof(*nh));
	count = get_be16(nh->count);
	if (count > max)
		count = max;
	if (get_be16(nh->level) != 1 || !count) {
		buf_release(bp);
		return false;
	}
	cur = get_be32(ne[0].before);
	buf_release(bp);
	for (uint32_t steps = 0; steps <= count; steps++) {
		const struct xfs_dir3_leaf_hdr *lh;
		const struct xfs_dir2_leaf_entry *le;
		struct xfs_bmbt_irec m;
		uint32_t n;

		b.dablk = cur;
		if (!extents_lookup(del, cur, &m)) {
			if (say)
				dir_tree_say(c, PR_RP_DIR_NODE_NOMAP, &b, cur, 0,
					     NULL);
			*at = i;
			return true;
		}
		bp = dir_tree_read(c, del, cur);
		if (!bp)
			return false;
		lh = (const void *)bp->data;
		le = (const void *)(bp->data + sizeof(*lh));
		if (get_be16(lh->info.magic) != XFS_DIR3_LEAFN_MAGIC) {
			if (say)
				dir_tree_say(c, PR_RP_DIR_LEAFN_MAGIC, &b,
					     get_be16(lh->info.magic), 0, NULL);
			buf_release(bp);
			*at = i;
			return true;
		}
		n = get_be16(lh->count);
		if (n > lmax)
			n = lmax;
		for (uint32_t k = 0; k < n; k++) {
			uint32_t h = get_be32(le[k].hashval);

			if (get_be32(le[k].address) == XFS_DIR2_NULL_DATAPTR)
				continue;
			if (h < greatest) {
				if (say)
					dir_tree_say(c,
						     PR_RP_DIR_LEAFN_HASH_ORDER,
						     &b, 0, 0, NULL);
				buf_release(bp);
				*at = i;
				return true;
			}
			greatest = h;
		}
		if (get_be32(lh->info.back) != prev) {
			if (say)
				dir_tree_say(c, PR_RP_DIR_LEAFN_BACK, &b, 0, 0,
					     NULL);
			buf_release(bp);
			*at = i;
			return true;
		}
		prev = cur;
		cur = get_be32(lh->info.forw);
		buf_release(bp);
		if (!cur)
			break;
		i++;
	}
	if (i + 1 != count) {
		b.dablk = root;
		if (say)
			dir_tree_say(c, PR_RP_DIR_NODE_COUNT, &b, i, count,
				     NULL);
		*at = i;
		return true;
	}
	return false;
}

/*
 * Whether the reference's walk of the leaves (leaf_chain_words) is the
 * one to make: every block of the leaf space read whole, with no header
 * or tail finding, the root with no right sibling and a first pointer
 * its descent takes, and any leaf with no finding but its hashes'
 * order.
 */
static bool chain_walkable(const struct dir_tree *t, xfs_dablk_t root,
			   xfs_dablk_t freeblk)
{
	for (unsigned i = 0; i < t->n; i++) {
		const struct dir_tblk *b = &t->v[i];

		if (b->dablk >= freeblk)
			continue;
		if (b->magic || b->crc || b->blkno || b->uuid || b->owner ||
		    b->verifier || b->header || b->tail || b->nused ||
		    b->bad_entry != UINT32_MAX)
			return false;
		if (b->dablk == root ? b->forw || b->bad_ptr == 0 :
		    b->bad_ptr != UINT32_MAX)
			return false;
	}
	return true;
}

/* Whether the root has a node hash to correct (dir_root_words says it). */
static bool root_hash_words(const struct dir_tree *t, xfs_dablk_t root)
{
	for (unsigned i = 0; i < t->n; i++)
		if (t->v[i].dablk == root)
			return t->v[i].hash_interior || t->v[i].hash_last;
	return false;
}

/* A free block's header words the reference holds to each other. */
static bool dir_free_hdr_bad(struct p3ag *c, const struct fs_extents *del,
			     const struct dir_tblk *b)
{
	const struct xfs_dir3_free_hdr *h;
	struct fs_buf *bp;
	bool bad;

	if (b->magic || b->header)
		return true;
	bp = dir_tree_read(c, del, b->dablk);
	if (!bp)
		return false;
	h = (const void *)bp->data;
	bad = get_be32(h->nvalid) < get_be32(h->nused);
	buf_release(bp);
	return bad;
}

/* A LEAFN block's counts as the reference holds them to each other. */
static bool dir_leafn_hdr_bad(struct p3ag *c, const struct fs_extents *del,
			      const struct dir_tblk *b)
{
	const struct fs_geom *g = &c->r->fs->geo;
	const struct xfs_dir3_leaf_hdr *h;
	struct fs_buf *bp;
	uint32_t max = (g->dirblksize - sizeof(*h)) /
		       sizeof(struct xfs_dir2_leaf_entry);
	bool bad;

	bp = dir_tree_read(c, del, b->dablk);
	if (!bp)
		return false;
	h = (const void *)bp->data;
	bad = get_be16(h->count) > max || get_be16(h->count) < get_be16(h->stale);
	buf_release(bp);
	return bad;
}

/*
 * Whether a leaf directory's leaf block has an entry whose address is in
 * a data block its bests[] does not cover (the kernel's LEAF1 verifier
 * holds each address to the best count, not to the data blocks mapped).
 */
static bool leaf1_addr_past_bests(struct p3ag *c, const struct fs_extents *del,
				  xfs_dablk_t leaf)
{
	const struct fs_geom *g = &c->r->fs->geo;
	const struct xfs_dir3_leaf_hdr *h;
	const struct xfs_dir2_leaf_entry *e;
	struct fs_buf *bp = dir_tree_read(c, del, leaf);
	uint32_t count, bestcount, max;
	bool past = false;

	if (!bp)
		return false;
	h = (const void *)bp->data;
	e = (const void *)(bp->data + sizeof(*h));
	bestcount = get_be32(((const struct xfs_dir2_leaf_tail *)
			      (bp->data + g->dirblksize -
			       sizeof(struct xfs_dir2_leaf_tail)))->bestcount);
	max = (g->dirblksize - sizeof(*h) -
	       sizeof(struct xfs_dir2_leaf_tail)) / sizeof(*e);
	count = get_be16(h->count);
	if (count > max)
		count = max;
	for (uint32_t i = 0; i < count && !past; i++) {
		uint64_t addr = get_be32(e[i].address);

		past = addr != XFS_DIR2_NULL_DATAPTR &&
		       ((addr << XFS_DIR2_DATA_ALIGN_LOG) >>
			(g->blocklog + g->dirblklog)) >= bestcount;
	}
	buf_release(bp);
	return past;
}

/*
 * A leaf directory's leaf entry whose address is past the data blocks
 * its bests[] covers: the kernel's LEAF1 verifier refuses the block for
 * it (the address is not only matched with the data entries).
 */
static void dir_leaf1_addr_words(struct p3ag *c, const struct fs_extents *del,
				 struct dir_tree *t)
{
	const struct fs_geom *g = &c->r->fs->geo;
	xfs_dablk_t leaf = dir_leaf_dablk(g);
	uint64_t bestcount = UINT64_MAX;

	for (size_t i = 0; i < c->fl.n; i++) {
		const struct fs_finding *f = &c->fl.v[i];
		struct dir_tblk *b;

		if (f->code != PR_DIR_LEAF_BAD_ADDR || f->obj.type != OBJ_DIR ||
		    f->obj.index == (uint64_t)-1 ||
		    f->obj.index < XFS_DIR2_LEAF_OFFSET)
			continue;
		if (bestcount == UINT64_MAX) {
			struct fs_buf *bp = dir_tree_read(c, del, leaf);

			if (!bp)
				return;
			bestcount = get_be32(((const struct xfs_dir2_leaf_tail *)
					      (bp->data + g->dirblksize -
					       sizeof(struct xfs_dir2_leaf_tail)))->bestcount);
			buf_release(bp);
		}
		if (((f->found << XFS_DIR2_DATA_ALIGN_LOG) >>
		     (g->blocklog + g->dirblklog)) < bestcount)
			continue;
		b = dir_tree_get(t, leaf, f->obj.daddr);
		if (b)
			b->verifier = true;
	}
}

/*
 * The leaf and free space of a leaf or node directory, in the reference's
 * words.  Its phase 3 walks the dabtree of a node directory: a root node
 * the verifier refuses is a "corrupt directory tree block", a leaf whose
 * magic number is wrong or that the verifier refuses (but for its CRC
 * alone) is said once, and the walk stops there.  Its phase 6 then reads
 * the single leaf block, or the leaf space and the free blocks in the
 * order of their file offsets, and stops at the first block it finds
 * wrong, with one line -- so of several damaged blocks, the lowest is
 * named (a leaf directory's tail only if its leaf entries matched the
 * data entries: hash_bad says they did not).  The findings themselves
 * are kept as notes: one damaged field can break every entry after it,
 * and the reference's line is the one to print.  Returns whether the
 * directory would be rebuilt.
 */
bool dir_tree_words(struct p3ag *c, const struct fs_extents *del,
			   enum dir_form form, bool hash_bad)
{
	const struct fs_geom *g = &c->r->fs->geo;
	xfs_dablk_t root = dir_leaf_dablk(g), freeblk = dir_free_dablk(g);
	struct dir_tree t = { .n = 0 };
	bool rebuild = false, said = false, leafn_said = false;
	bool chain_said = false;

	for (size_t i = 0; i < c->fl.n; i++) {
		const struct fs_finding *f = &c->fl.v[i];
		struct dir_tblk *b;
		uint32_t off;

		if (!dir_tree_code(f) || f->code == PR_DIR_FREE_MISSING)
			continue;
		b = dir_tree_get(&t, (xfs_dablk_t)((f->obj.index >>
					 g->blocklog) & ~(uint64_t)
					 (g->dirblkfsbs - 1)), f->obj.daddr);
		if (!b)
			continue;
		off = (uint32_t)(f->obj.index - ((uint64_t)b->dablk <<
						 g->blocklog));
		switch (f->code) {
		case PR_DIR_BAD_MAGIC:
		case PR_DA_BAD_MAGIC:
			b->magic = true;
			b->magic_found = f->found;
			break;
		case PR_DIR_BAD_CRC:
		case PR_DA_BAD_CRC:
			b->crc = true;
			break;
		case PR_DIR_BAD_BLKNO:
		case PR_DA_BAD_BLKNO:
			b->blkno = true;
			b->blkno_found = f->found;
			break;
		case PR_DIR_BAD_UUID:
		case PR_DA_BAD_UUID:
			b->uuid = true;
			break;
		case PR_DIR_BAD_OWNER:
		case PR_DA_BAD_OWNER:
			b->owner = true;
			b->owner_found = f->found;
			break;
		case PR_DIR_LEAF_BAD_SIBLING:
		case PR_DIR_FREE_BAD_FIRSTDB:
			b->header = true;
			break;
		case PR_DIR_LEAF_BAD_BESTS:
			/*
			 * Fewer bests than data blocks: the verifier refuses
			 * the block if an entry's address is in a block the
			 * bests do not cover; else, as for more or wrong ones,
			 * the tail is bad.
			 */
			if (f->field && !strcmp(f->field, "tail.bestcount") &&
			    f->found < f->expected &&
			    leaf1_addr_past_bests(c, del, b->dablk))
				b->verifier = true;
			else
				b->tail = true;
			break;
		case PR_DIR_FREE_BAD_NUSED:
			b->nused = true;
			break;
		case PR_DIR_FREE_BAD_BEST:
		case PR_DIR_FREE_BAD_NVALID:
			if (off >= sizeof(struct xfs_dir3_free_hdr)) {
				uint32_t e = (off - sizeof(struct
						  xfs_dir3_free_hdr)) / 2;

				if (e < b->bad_entry)
					b->bad_entry = e;
			} else if (b->bad_entry == UINT32_MAX) {
				b->bad_entry = 0;
			}
			break;
		case PR_DA_BAD_SIBLING:
			b->forw = true;
			b->forw_found = f->found;
			break;
		case PR_DA_HASH_ORDER: {
			/*
			 * The root's: dir_root_words says what is wrong.  A
			 * leafn's the kernel's verifier does not check (only
			 * its debug checks do): the reference's walk says it.
			 */
			struct fs_buf *bp;
			bool leafn = false;

			if (b->dablk == root)
				break;
			bp = dir_tree_read(c, del, b->dablk);
			if (bp) {
				leafn = get_be16(((const struct xfs_da3_blkinfo *)
						  bp->data)->magic) ==
					XFS_DIR3_LEAFN_MAGIC;
				buf_release(bp);
			}
			if (leafn)
				b->hash_order = true;
			else
				b->verifier = true;
			break;
		}
		case PR_DA_BAD_HASHVAL: {
			uint32_t e = (off - sizeof(struct xfs_da3_node_hdr)) /
				     sizeof(struct xfs_da_node_entry);
			struct fs_buf *bp = dir_tree_read(c, del, b->dablk);
			uint32_t count = bp ? get_be16(((const struct
					xfs_da3_node_hdr *)bp->data)->count) : 0;

			if (bp)
				buf_release(bp);
			if (count && e + 1 == count)
				b->hash_last = true;
			else
				b->hash_interior = true;
			break;
		}
		case PR_DA_BAD_PTR:
		case PR_DA_HOLE:
		case PR_DA_LOOP: {
			uint32_t e = off >= sizeof(struct xfs_da3_node_hdr) ?
				     (off - sizeof(struct xfs_da3_node_hdr)) /
				     sizeof(struct xfs_da_node_entry) : 0;

			b->nbad_ptr++;
			if (e < b->bad_ptr) {
				struct xfs_bmbt_irec m;

				b->bad_ptr = e;
				/* one out of range the fork maps nowhere either */
				b->ptr_hole = f->code == PR_DA_HOLE ||
					      !extents_lookup(del, f->found, &m);
				b->ptr_found = f->found;
			}
			break;
		}
		default:
			b->verifier = true;
			break;
		}
		if (b->dablk >= freeblk)
			t.free_said = true;
	}
	if (form == DIR_FORM_LEAF)
		dir_leaf1_addr_words(c, del, &t);
	/* a hash corrected is no reason to rebuild; the rest are */
	for (unsigned i = 0; i < t.n; i++) {
		const struct dir_tblk *b = &t.v[i];

		bool unread = b->magic || b->crc || b->blkno || b->uuid ||
			      b->owner || b->verifier || b->header;

		rebuild |= unread || b->tail || b->nused || b->forw ||
			   b->hash_order ||
			   b->bad_entry != UINT32_MAX ||
			   (b->dablk != root && b->bad_ptr != UINT32_MAX);
		if (b->dablk < freeblk && unread)
			t.leaf_bad = true;
		if (b->dablk < freeblk && b->hash_order)
			t.leaf_order = true;
	}
	if (t.n)
		qsort(t.v, t.n, sizeof(t.v[0]), dir_tblk_cmp);
	/* the leaf block's own words come before its entries are matched */
	c->leaf_unread = t.leaf_bad || t.leaf_order;
	for (unsigned i = 0; form == DIR_FORM_LEAF && i < t.n; i++)
		if (t.v[i].dablk == root && t.v[i].header)
			c->leaf_unread = true;

	/*
	 * The reference's phase 3: the dabtree walk.  Where the tree's
	 * blocks are whole and only their pointers or a leaf's hashes are
	 * wrong, its walk of the leaves is made as it makes it, and says
	 * where it stops; else the lowest damaged block is named.
	 */
	if (form == DIR_FORM_NODE && chain_walkable(&t, root, freeblk)) {
		uint32_t at;

		/*
		 * (a node hash to correct is said when the walk passes the
		 * leaf: of a walk stopped at the first, never)
		 */
		if (leaf_chain_words(c, del, root, false, &at) &&
		    (at == 0 || !root_hash_words(&t, root)) &&
		    leaf_chain_words(c, del, root, true, &at)) {
			chain_said = rebuild = true;
			keep_notes(c, leaf_sibling, NULL);
		}
	}
	for (unsigned i = 0; form == DIR_FORM_NODE && i < t.n && !chain_said;
	     i++) {
		const struct dir_tblk *b = &t.v[i];

		if (b->dablk >= freeblk)
			break;
		if (b->dablk == root) {
			if (b->magic || b->crc || b->blkno || b->uuid ||
			    b->verifier)
				dir_tree_say(c, PR_RP_DIR_NODE_CORRUPT, b, 0, 0,
					     NULL);
			else if (!t.leaf_bad && b->bad_ptr == 0 && b->ptr_hole) {
				/*
				 * Its walk down the left side finds no block
				 * there, and goes no further.
				 */
				dir_tree_say(c, PR_RP_DIR_NODE_NOMAP, b,
					     b->ptr_found, 0, NULL);
				keep_notes(c, da_sibling, NULL);
				rebuild = true;
			} else if (!t.leaf_bad && dir_root_words(c, del, b))
				rebuild = true;
			else if (!t.leaf_bad && b->forw)
				/* the walk's last check of the path */
				dir_tree_say(c, PR_RP_DIR_NODE_FORW, b,
					     b->forw_found, 0, NULL);
			continue;
		}
		if (leafn_said)
			continue;
		if (b->magic) {
			dir_tree_say(c, PR_RP_DIR_LEAFN_MAGIC, b,
				     b->magic_found, 0, NULL);
			leafn_said = true;
		} else if (b->blkno || b->uuid || b->verifier) {
			dir_tree_say(c, PR_RP_DIR_LEAFN_CORRUPT, b, 0, 0, NULL);
			leafn_said = true;
		} else if (b->hash_order) {
			dir_tree_say(c, PR_RP_DIR_LEAFN_HASH_ORDER, b, 0, 0,
				     NULL);
			leafn_said = true;
		}
	}

	/* the reference's phase 6: each block in turn, to the first bad */
	for (unsigned i = 0; i < t.n && !said; i++) {
		const struct dir_tblk *b = &t.v[i];

		said = true;
		if (form == DIR_FORM_LEAF) {
			if (b->magic || b->crc || b->blkno || b->uuid ||
			    b->verifier)
				dir_tree_say(c, PR_RP_DIR_LEAF_VERIFIER, b, 0, 0,
					     NULL);
			else if (b->header)
				dir_tree_say(c, PR_RP_DIR_LEAF_BAD_HEADER, b, 0,
					     0, NULL);
			else if (dir_tree_hdr_words(c, b))
				;
			else if (b->tail && !hash_bad)
				/* (after its leaf matched the data entries) */
				dir_tree_say(c, PR_RP_DIR_LEAF_BAD_TAIL, b, 0, 0,
					     NULL);
			else
				said = false;
		} else if (b->dablk < freeblk) {
			if (b->magic)
				dir_tree_say(c, PR_RP_DIR_UNKNOWN_MAGIC, b,
					     b->magic_found, 0, NULL);
			else if (dir_tree_hdr_words(c, b))
				;
			else if (b->dablk != root &&
				 dir_leafn_hdr_bad(c, del, b))
				dir_tree_say(c, PR_RP_DIR_LEAF_BAD_HEADER, b, 0,
					     0, NULL);
			else
				said = false;
		} else {
			if (dir_free_hdr_bad(c, del, b))
				dir_tree_say(c, PR_RP_DIR_FREE_BAD_HEADER, b, 0,
					     0, NULL);
			else if (dir_tree_hdr_words(c, b))
				;
			else if (b->bad_entry != UINT32_MAX)
				dir_tree_say(c, PR_RP_DIR_FREE_BAD_ENTRY, b,
					     b->bad_entry, 0, NULL);
			else if (b->nused)
				dir_tree_say(c, PR_RP_DIR_FREE_BAD_NUSED, b, 0,
					     0, NULL);
			else
				said = false;
		}
	}
	/* a leaf's sibling pointer: the walk's words above, else none */
	for (size_t i = 0; form == DIR_FORM_NODE && i < c->fl.n; i++) {
		if (!leaf_sibling(&c->fl.v[i], NULL))
			continue;
		keep_notes(c, leaf_sibling, NULL);
		rebuild = true;
		break;
	}
	keep_notes(c, dir_tree_keep, &t);
	return rebuild;
}
