/*
 * Phase 3: a directory's content (part of phase 3, see phase3.c).
 *
 * A block, leaf or node directory's size (dir_size_bad), then its
 * content (check_dir): libfs dir_check's findings, said in the
 * reference's words block by block (a data block junked, one the
 * verifier refuses, bad names, hashes and bestfree tables), its
 * entries and ".." collected, and the reference's verdict: kept or
 * cleared.  The leaf and free space of a leaf or node directory are
 * dirtree.c's.
 *
 * What goes in: the inode and its data fork's map.  What comes out: the
 * directory's entries and ".." in c->edges and c->dhdr, the data blocks
 * the reference reads again later (r->imap), the verdict.  What stays
 * true: nothing is written.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "array.h"
#include "dir.h"
#include "inomap.h"
#include "phase3int.h"
#include "repair.h"

#define P3_DIR_SELF_MAX	8	/* entries naming their directory, kept */

struct dir_ctx {
	struct p3ag	*c;
	xfs_ino_t	dir;
	bool		shortform;
	/* the file blocks of the first entries named "." and ".." */
	xfs_dablk_t	dot_db, dotdot_db;
	bool		dot_seen, dotdot_seen;
	/* entries but "." and ".." that name the directory itself */
	struct {
		char		name[256];
		unsigned	namelen;
		xfs_dablk_t	dablk;
	}		self[P3_DIR_SELF_MAX];
	unsigned	nself;
	/*
	 * The name hashes of entries marked junked ('/' first), whose leaf
	 * entries the reference finds no data entry for (some, if many).
	 */
	xfs_dahash_t	marked[8];
	unsigned	nmarked;
	/* dir_salvage_block's entries: the block, how many so far */
	xfs_dablk_t	salv_dablk;
	unsigned	salv_n;
};

/*
 * An entry as phase 6 needs it.  The file types of "." and ".." are kept
 * for phase 6 to hold them to the inodes they name, as the reference
 * does (it checks them only where no entry before them was junked, so
 * the number of entries before ".." is kept too).  The reference's
 * phase 6 knows "." by the inode it names and where it is (rp_dot_entry):
 * a "." naming another inode is an entry like any other, and so is one
 * naming the directory further on (phase 6 junks it there).  Its phase 3
 * knows "." and ".." by their names: which blocks they were read in is
 * noted for its "no . entry" words, as is every other entry naming the
 * directory ("points to self").
 */
static int dir_entry_at(void *priv, const uint8_t *name, unsigned namelen,
			xfs_ino_t ino, unsigned ftype, xfs_dablk_t dablk,
			uint32_t off)
{
	struct dir_ctx *d = priv;
	struct im_dir *h = &d->c->dhdr;
	bool dot = namelen == 1 && name[0] == '.';
	bool dotdot = namelen == 2 && name[0] == '.' && name[1] == '.';

	if (ftype >= XFS_DIR3_FT_MAX)
		ftype = XFS_DIR3_FT_UNKNOWN;	/* see ftype_out_of_range */
	if (dot && !d->dot_seen) {
		d->dot_seen = true;
		d->dot_db = dablk;
	}
	if (dotdot && !d->dotdot_seen) {
		d->dotdot_seen = true;
		d->dotdot_db = dablk;
	}
	if (ino == d->dir && !dot && !dotdot && !d->shortform &&
	    d->nself < P3_DIR_SELF_MAX) {
		memcpy(d->self[d->nself].name, name, namelen);
		d->self[d->nself].namelen = namelen;
		d->self[d->nself++].dablk = dablk;
	}
	if (rp_dot_entry(d->shortform, d->dir, name, namelen, ino, dablk,
			 off)) {
		h->dot_ftype = (uint8_t)ftype;
		return 0;
	}
	if (dotdot) {
		h->dotdot = ino;
		h->dotdot_ftype = (uint8_t)ftype;
		h->dotdot_pos = (uint32_t)d->c->edges.n;
		return 0;
	}
	if (rp_entry_marked(d->shortform, name, namelen)) {
		h->marked = true;
		if (d->nmarked < sizeof(d->marked) / sizeof(d->marked[0]))
			d->marked[d->nmarked++] = dir_hashname(
				sb_has_asciici(&d->c->r->fs->sb), name,
				namelen);
		return 0;
	}
	im_edges_add(&d->c->edges, ino, (uint8_t)ftype);
	return 0;
}

/*
 * Entries of a directory of blocks whose name an entry before them has
 * (DIR_DUP_NAME, at the entry's byte in the data space): the edges
 * dir_entry_at made of them are flagged, found by walking the entries
 * again in the same order with the same choice of which make edges.
 * (Only done when there are such entries.)
 */
struct dup_walk {
	const struct p3ag	*c;
	xfs_ino_t		dir;
	uint64_t		*at;		/* then their names' hashes */
	size_t			nat;
	size_t			k;		/* edges so far */
	struct im_edges		*edges;
};

static int dup_walk_cb(void *priv, const uint8_t *name, unsigned namelen,
		       xfs_ino_t ino, unsigned ftype, xfs_dablk_t dablk,
		       uint32_t off)
{
	struct dup_walk *w = priv;
	uint64_t byte = ((uint64_t)dablk << w->c->r->fs->geo.blocklog) + off;

	(void)ftype;
	if (!rp_entry_edge(false, w->dir, name, namelen, ino, dablk, off))
		return 0;
	for (size_t i = 0; i < w->nat; i++)
		if (w->at[i] == byte && w->k < w->edges->n) {
			w->edges->v[w->k].flags |= IM_EDGE_DUP;
			w->at[i] = dir_hashname(sb_has_asciici(&w->c->r->fs->sb),
						name, namelen);
		}
	w->k++;
	return 0;
}

/*
 * Flags the duplicates' edges; returns how many there are, and in *hashes
 * (to free) the hashes of their names.
 */
static size_t dir_flag_dups(struct p3ag *c, const struct fs_inode *ip,
			    const struct fs_extents *del, uint64_t **hashes)
{
	struct dup_walk w = { .c = c, .dir = ip->ino, .edges = &c->edges };
	uint64_t *at = NULL;
	size_t n = 0, cap = 0;

	for (size_t i = 0; i < c->fl.n; i++) {
		const struct fs_finding *f = &c->fl.v[i];
		uint64_t *nv;

		if (f->code != PR_DIR_DUP_NAME || f->obj.type != OBJ_DIR)
			continue;
		nv = fs_array_grow(at, &cap, n + 1, sizeof(*nv), 8);
		if (!nv)
			break;
		at = nv;
		at[n++] = f->obj.index;
	}
	*hashes = at;
	if (!n)
		return 0;
	w.at = at;
	w.nat = n;
	dir_iterate_pos(c->r->fs, ip, del, dup_walk_cb, &w, NULL);
	return n;
}

/*
 * A short-form directory's duplicates, which libfs does not hand out:
 * an edge each, flagged, after the others (phase 6 names it from where
 * it is in the fork).
 */
static void sf_add_dups(struct p3ag *c, const struct fs_inode *ip)
{
	const struct fs_geom *g = &c->r->fs->geo;

	for (size_t i = 0; i < c->fl.n; i++) {
		const struct fs_finding *f = &c->fl.v[i];
		char name[256];
		xfs_ino_t ino;
		uint8_t ftype;

		if (f->code != PR_DIR_DUP_NAME || f->obj.type != OBJ_DIR ||
		    f->obj.index > UINT32_MAX ||
		    !rp_sf_entry_at(g, ip, (uint32_t)f->obj.index, name, &ino,
				    &ftype) ||
		    im_edges_add(&c->edges, ino, ftype))
			continue;
		c->edges.v[c->edges.n - 1].flags |= IM_EDGE_DUP;
		c->edges.v[c->edges.n - 1].sfoff = (uint32_t)f->obj.index;
	}
}

/* Phase 6 says a duplicate name in its words ("is a duplicate name"). */
static bool dup_name_code(const struct fs_finding *f, void *priv)
{
	(void)priv;
	return f->code == PR_DIR_DUP_NAME && f->obj.type == OBJ_DIR;
}

/*
 * A block read whole for its entries (dir_salvage_block): where each
 * entry is, it does not say; the first of block 0 is taken to be first.
 */
static int dir_entry_salvaged(void *priv, const uint8_t *name,
			      unsigned namelen, xfs_ino_t ino, unsigned ftype)
{
	struct dir_ctx *d = priv;
	uint32_t off = d->salv_n++ ? UINT32_MAX :
		       (uint32_t)sizeof(struct xfs_dir3_data_hdr);

	return dir_entry_at(priv, name, namelen, ino, ftype, d->salv_dablk,
			    off);
}

/*
 * Whether the ".." read names the directory itself, which only the
 * root's may: the reference clears it, and phase 6 finds the directory
 * without one and sets it from the entry naming it.
 */
static bool dotdot_self(const struct p3ag *c, const struct fs_inode *ip)
{
	return c->dhdr.dotdot == ip->ino && ip->ino != c->r->fs->sb.rootino;
}

/* Forget the "." and ".." phase 3 read (and the ".." found, if parent). */
static void dir_forget_dots(struct p3ag *c, xfs_ino_t parent)
{
	c->dhdr.dotdot = parent;
	c->dhdr.dot_ftype = IM_FT_NONE;
	c->dhdr.dotdot_ftype = IM_FT_NONE;
	c->dhdr.dotdot_pos = 0;
	c->dhdr.sf_reset = false;
}

/*
 * The size of a directory of blocks, as the reference checks it before
 * it reads the data fork: a size that would fit in the inode belongs to
 * a short-form directory, and nothing lies past the data space.  Either
 * costs the inode.  (A leaf or node directory's size is held to nothing
 * else: the kernel only uses it to size its readahead.)
 */
bool dir_size_bad(struct p3ag *c, const struct fs_inode *ip)
{
	int64_t size = (int64_t)ip->size;

	if (size <= (int64_t)ip->dfork_size) {
		say_ino(c, PR_RP_DIR_FORMAT_SIZE, ip->format, ip->size);
		return true;
	}
	if (ip->size > XFS_DIR2_LEAF_OFFSET) {
		say_ino(c, PR_RP_DIR_SIZE_BAD, ip->size, 0);
		return true;
	}
	return false;
}

/*
 * What the kernel's read verifier of a data or block-form directory
 * block rejects the block for (the read fails with "structure needs
 * cleaning" unless the CRC is wrong, which is a different failure): the
 * header's identity, every entry and free region, the bestfree table,
 * and for a block-form block its tail and leaf array.  The owner, "."
 * and "..", names with a '/' and duplicate names are not its business,
 * nor a file type out of range (it reads one as unknown).
 */
static bool dir_verifier_code(enum fs_problem code, bool block_form)
{
	switch (code) {
	case PR_DIR_BAD_MAGIC:
	case PR_DIR_BAD_BLKNO:
	case PR_DIR_BAD_UUID:
	case PR_DIR_ENTRY_OVERRUN:
	case PR_DIR_BAD_TAG:
	case PR_DIR_BAD_NAMELEN:
	case PR_DIR_BAD_INO:
	case PR_DIR_BAD_FREE:
	case PR_DIR_BAD_BESTFREE:
		return true;
	case PR_DIR_LEAF_BAD_COUNT:
	case PR_DIR_LEAF_BAD_STALE:
	case PR_DIR_LEAF_HASH_ORDER:
	case PR_DIR_LEAF_BAD_HASH:
	case PR_DIR_LEAF_BAD_ADDR:
	case PR_DIR_LEAF_DUP_ADDR:
	case PR_DIR_LEAF_MISSING:
		return block_form;
	default:
		return false;
	}
}

/* Findings after which the entries cannot be read to the region's end. */
static bool dir_scan_breaks(const struct fs_finding *f)
{
	switch (f->code) {
	case PR_DIR_ENTRY_OVERRUN:
	case PR_DIR_BAD_TAG:
	case PR_DIR_LEAF_BAD_COUNT:
		return true;
	case PR_DIR_BAD_FREE:
		/* a bad length or tag; two free regions in a row are not */
		return !f->field || strcmp(f->field, "freetag");
	default:
		return false;
	}
}

/* What the findings say about one data block (dir_blocks). */
struct dir_dblk_state {
	uint32_t	db;
	bool		crc_bad;
	bool		magic_bad;
	bool		verifier;	/* a finding the verifier fails on */
	bool		breaks;		/* entries unreadable past a point */
	bool		unusable;	/* to phase 3 of the reference */
	uint8_t		hdr;		/* IM_DBLK_HDR_*: owner, blkno, UUID */
	uint64_t	hdr_owner, hdr_blkno;
	xfs_daddr_t	daddr;
	bool		read;		/* words below are known */
	struct rp_dblk_words w;		/* the block read whole, the
					   reference's way */
};

struct dir_blocks {
	struct dir_dblk_state	v[P3_DIR_MAXBLK];
	unsigned		n;
};

static struct dir_dblk_state *dir_blocks_get(struct dir_blocks *bl,
					     uint32_t db)
{
	for (unsigned i = 0; i < bl->n; i++)
		if (bl->v[i].db == db)
			return &bl->v[i];
	if (bl->n == P3_DIR_MAXBLK)
		return NULL;
	bl->v[bl->n] = (struct dir_dblk_state){ .db = db };
	return &bl->v[bl->n++];
}

/*
 * Keep as notes (not printed, not counted) the findings keep() picks,
 * and drop them from the list: what the reference says of them, if
 * anything, is said in its own words elsewhere.
 */
void keep_notes(struct p3ag *c,
		       bool (*keep)(const struct fs_finding *, void *),
		       void *priv)
{
	size_t j = 0;

	for (size_t i = 0; i < c->fl.n; i++) {
		const struct fs_finding *f = &c->fl.v[i];

		if (!keep(f, priv)) {
			c->fl.v[j++] = *f;
			continue;
		}
		rp_note_finding(f);
	}
	findings_truncate(&c->fl, j);
}

/*
 * An entry's file type past the last the format knows: the kernel and the
 * reference read it as unknown (0), which phase 6 holds against the inode
 * it names ("would fix ftype mismatch (0/N)"); the block is not damaged.
 */
static bool ftype_out_of_range(const struct fs_finding *f, void *priv)
{
	(void)priv;
	return f->code == PR_DIR_BAD_FTYPE;
}

/*
 * The findings of a short-form directory that the reference's own walk
 * of it (rp_sf_walk) says in its words, or by "couldn't map" later.
 */
static bool sf_walk_says(const struct fs_finding *f, void *priv)
{
	(void)priv;
	switch (f->code) {
	case PR_DIR_SF_BAD_SIZE:
	case PR_DIR_SF_BAD_COUNT:
	case PR_DIR_SF_BAD_I8COUNT:
	case PR_DIR_SF_BAD_OFFSET:
	case PR_DIR_BAD_INO:
	case PR_DIR_ENTRY_OVERRUN:
	case PR_DIR_BAD_NAMELEN:
	case PR_DIR_BAD_NAME:
		return true;
	default:
		return false;
	}
}

/*
 * The leaf entries of a block or leaf directory against its data
 * entries, as the reference's phase 6 matches them: leaf entry by leaf
 * entry (in leaf order, the findings' order by offset), the first that
 * names no data entry, one already named, or another hash decides; then
 * the stale count; then a data entry no leaf entry names.  An entry
 * whose name is an earlier one's (its hash among dups) it holds to no
 * hash: it is to be junked.  One marked junked already ('/' first) it
 * does not know at all: its leaf entry has no data entry.
 */
static uint8_t dir_hash_verdict(const struct p3ag *c, const uint64_t *dups,
				size_t ndups, const struct dir_ctx *d)
{
	uint64_t lowest = UINT64_MAX;
	uint8_t v = IM_HASH_OK;
	bool stale = false, missing = false;

	for (size_t i = 0; i < c->fl.n; i++) {
		const struct fs_finding *f = &c->fl.v[i];
		uint8_t k;

		if (f->obj.type != OBJ_DIR)
			continue;
		switch (f->code) {
		case PR_DIR_LEAF_BAD_ADDR:	k = IM_HASH_NODATA; break;
		case PR_DIR_LEAF_DUP_ADDR:	k = IM_HASH_DUPLEAF; break;
		case PR_DIR_LEAF_BAD_HASH:
			k = IM_HASH_BADHASH;
			for (size_t j = 0; j < ndups; j++)
				if (f->expected == dups[j])
					k = IM_HASH_OK;
			for (unsigned j = 0; j < d->nmarked; j++)
				if (f->expected == d->marked[j])
					k = IM_HASH_NODATA;
			if (k == IM_HASH_OK)
				continue;
			break;
		case PR_DIR_LEAF_BAD_STALE:	stale = true; continue;
		case PR_DIR_LEAF_MISSING:	missing = true; continue;
		default:			continue;
		}
		if (f->obj.index < lowest) {
			lowest = f->obj.index;
			v = k;
		}
	}
	if (v == IM_HASH_OK && stale)
		v = IM_HASH_BADSTALE;
	if (v == IM_HASH_OK && missing)
		v = IM_HASH_NOLEAF;
	return v;
}

/*
 * A node directory whose leaves the reference's phase 6 finds right, one
 * by one, but a data entry no leaf entry names: its "no leaf entry".
 */
static bool node_noleaf(const struct p3ag *c)
{
	bool missing = false;

	for (size_t i = 0; i < c->fl.n; i++) {
		const struct fs_finding *f = &c->fl.v[i];

		if (f->obj.type != OBJ_DIR)
			continue;
		switch (f->code) {
		case PR_DIR_LEAF_MISSING:
			missing = true;
			break;
		case PR_DIR_LEAF_BAD_ADDR:
		case PR_DIR_LEAF_DUP_ADDR:
		case PR_DIR_LEAF_BAD_HASH:
		case PR_DIR_LEAF_BAD_STALE:
			return false;
		default:
			break;
		}
	}
	return missing;
}

/* A leaf entry matched against the data entries: phase 6's words. */
static bool dir_hash_code(const struct fs_finding *f, void *priv)
{
	(void)priv;
	if (f->obj.type != OBJ_DIR)
		return false;
	switch (f->code) {
	case PR_DIR_LEAF_BAD_ADDR:
	case PR_DIR_LEAF_DUP_ADDR:
	case PR_DIR_LEAF_BAD_HASH:
	case PR_DIR_LEAF_BAD_STALE:
	case PR_DIR_LEAF_MISSING:
		return true;
	default:
		return false;
	}
}

struct dblk_ctx {
	const struct fs_geom	*g;
	struct dir_blocks	*bl;
};

/*
 * A bestfree finding about a block the reference reads whole (in phase 3
 * when only its CRC is wrong, in phase 4 when the verifier refused it)
 * and finds the table wrong too: its words say it (dir_dblk_later).
 */
static bool dir_bestfree_said(const struct fs_finding *f, void *priv)
{
	const struct dblk_ctx *x = priv;

	if (f->code != PR_DIR_BAD_BESTFREE || f->obj.type != OBJ_DIR ||
	    f->obj.index >= XFS_DIR2_LEAF_OFFSET)
		return false;
	for (unsigned i = 0; i < x->bl->n; i++) {
		const struct dir_dblk_state *st = &x->bl->v[i];

		if (st->db == (uint32_t)(f->obj.index >>
					 (x->g->blocklog + x->g->dirblklog)))
			return st->read && !st->magic_bad && !st->w.junk &&
			       st->w.badbest;
	}
	return false;
}

/* Whether f is in a data block the verifier refuses, its CRC right. */
static bool in_refused_block(const struct dblk_ctx *x,
			     const struct fs_finding *f)
{
	for (unsigned i = 0; i < x->bl->n; i++) {
		const struct dir_dblk_state *st = &x->bl->v[i];

		if (st->db == (uint32_t)(f->obj.index >>
					 (x->g->blocklog + x->g->dirblklog)))
			return st->verifier && !st->crc_bad;
	}
	return false;
}

/*
 * A "." naming another inode, in a block the verifier refuses: the
 * reference's phase 3 does not read the block, its phase 4 says it
 * (raw_block in phase4.c).
 */
static bool dot_in_refused(const struct fs_finding *f, void *priv)
{
	if (f->code != PR_DIR_BAD_DOT || !f->field ||
	    strcmp(f->field, "inumber") || f->obj.type != OBJ_DIR ||
	    f->obj.index >= XFS_DIR2_LEAF_OFFSET)
		return false;
	return in_refused_block(priv, f);
}

/*
 * An entry the verifier fails a data block for (its inode number, name
 * length or tag, or one running past the block) or a free region or
 * bestfree table it fails it for, in a block whose checksum is right
 * (what dir_bestfree_said left): the reference says only that the block
 * is corrupt ("corrupt directory block N"), and what it then finds when
 * it reads the block again, in its phases 4 and 6.  Libfs's own words
 * for the entry it has none of.
 */
static bool entry_in_refused(const struct fs_finding *f, void *priv)
{
	if (f->obj.type != OBJ_DIR || f->obj.index >= XFS_DIR2_LEAF_OFFSET ||
	    (f->code != PR_DIR_BAD_INO && f->code != PR_DIR_BAD_TAG &&
	     f->code != PR_DIR_BAD_NAMELEN && f->code != PR_DIR_BAD_FREE &&
	     f->code != PR_DIR_BAD_BESTFREE &&
	     f->code != PR_DIR_ENTRY_OVERRUN))
		return false;
	return in_refused_block(priv, f);
}

/*
 * Findings the reference says in its own words elsewhere, and libfs's
 * words for them never: a "." or ".." missing or misplaced ("no .
 * entry", "would create"), a name with '/' or NUL (junked in phase 6), a
 * data block of another owner, block or filesystem (phase 6 skips it),
 * a block-form directory's leaf out of order, miscounted or hashed
 * wrong ("corrupt directory block", "bad hash table" in phase 6), and a
 * directory whose blocks are all past its data space ("no . entry",
 * "problem with directory contents").
 */
static bool dir_said_otherwise(const struct fs_finding *f, void *priv)
{
	const bool *any_data = priv;

	if (f->obj.type != OBJ_DIR)
		return false;
	switch (f->code) {
	case PR_DIR_MISSING_BLOCK:
	case PR_DIR_BAD_OFFSET:
		/* no data block at all: "problem with directory contents" */
		return !*any_data;
	case PR_DIR_BAD_DOT:
		return f->field && !strcmp(f->field, "name");
	case PR_DIR_BAD_OWNER:
	case PR_DIR_BAD_BLKNO:
	case PR_DIR_BAD_UUID:
		return f->obj.index < XFS_DIR2_LEAF_OFFSET;
	case PR_DIR_BAD_DOTDOT:
	case PR_DIR_BAD_NAME:
	case PR_DIR_LEAF_BAD_COUNT:
	case PR_DIR_LEAF_HASH_ORDER:
	case PR_DIR_LEAF_BAD_HASH:
		return true;
	default:
		return false;
	}
}

/*
 * What the reference says of a data block with findings when it reads
 * it again after its phase 3, kept for phases 4 and 6 (struct im_dblk):
 * one its verifier refused (CRC right) is read whole in phase 4, and a
 * leaf or node directory's block whose entries do not parse is junked in
 * phase 6.  A block phase 3 reads whole (only its CRC is wrong) gets its
 * bestfree words now.
 */
static void dir_dblk_later(struct p3ag *c, const struct fs_inode *ip,
			   const struct dir_dblk_state *st, bool block_form)
{
	const struct fs_geom *g = &c->r->fs->geo;
	xfs_dablk_t dablk = dir_db_to_dablk(g, st->db);
	bool reread = !st->crc_bad && st->verifier;
	uint8_t flags = block_form ? IM_DBLK_BLOCK : 0;

	if (!st->read)
		return;
	if (st->crc_bad && !st->w.junk && st->w.badbest) {
		struct rp_args a = RP_ARGS_INIT(OBJ_DIR);

		a.obj.ino = ip->ino;
		a.obj.index = dablk;
		rp_say(c->out, PR_RP_DIR_BESTFREE, &a);
	}
	if (reread)
		flags |= IM_DBLK_REREAD;
	if (st->w.junk)
		flags |= IM_DBLK_JUNK;
	else if (st->w.badbest)
		flags |= IM_DBLK_BADBEST;
	/* one phase 3 reads whole though its magic number is wrong */
	if (st->magic_bad && !reread && !st->w.junk)
		flags |= IM_DBLK_MAGIC;
	if (reread || (st->w.junk && !block_form) || (flags & IM_DBLK_MAGIC) ||
	    st->hdr) {
		struct im_dblk b = {
			.dir = ip->ino, .dablk = dablk, .flags = flags,
			.hdr = st->hdr, .magic = st->w.magic,
			.found = st->hdr == IM_DBLK_HDR_OWNER ? st->hdr_owner :
				 st->hdr_blkno,
			.daddr = st->daddr,
		};

		im_dblk_add(c->r->imap, &b);
	}
}

/* Whether the block at dablk had findings (is in bl). */
static bool dablk_listed(const struct fs_geom *g,
			 const struct dir_blocks *bl, xfs_dablk_t dablk)
{
	for (unsigned i = 0; i < bl->n; i++)
		if (bl->v[i].db == (uint32_t)(dablk >> g->dirblklog))
			return true;
	return false;
}

/* Whether phase 3 of the reference could not use the block at dablk. */
static bool dablk_unusable(const struct fs_geom *g,
			   const struct dir_blocks *bl, xfs_dablk_t dablk)
{
	for (unsigned i = 0; i < bl->n; i++)
		if (bl->v[i].db == (uint32_t)(dablk >> g->dirblklog))
			return bl->v[i].unusable;
	return false;
}

/* A name as the reference prints it ("%*.*s"): up to a NUL, padded. */
static void padded_name(char *nm, const char *name, unsigned n)
{
	size_t len = strnlen(name, n);

	memset(nm, ' ', n - len);
	memcpy(nm + n - len, name, len);
	nm[n] = '\0';
}

struct name_words {
	struct p3ag	*c;
	xfs_ino_t	dir;
	bool		dot, dotdot;	/* entries so named, read */
};

/*
 * One entry's name as the reference's phase 3 looks at it: a '/' or NUL
 * in it is illegal (and if it names the directory, that is said on the
 * same line, and again on its own by the reference's second look), and
 * an entry other than "." and ".." naming the directory "points to
 * self".
 */
static void name_words(struct name_words *w, const uint8_t *name,
		       unsigned namelen, xfs_ino_t ino, xfs_dablk_t dablk,
		       uint32_t off)
{
	bool dot = namelen == 1 && name[0] == '.';
	bool dotdot = namelen == 2 && name[0] == '.' && name[1] == '.';
	bool self = ino == w->dir && !dot && !dotdot;
	bool bad = namelen && (memchr(name, '/', namelen) ||
			       memchr(name, 0, namelen));
	struct rp_args a = RP_ARGS_INIT(OBJ_DIR);
	char nm[256];

	w->dot |= dot;
	w->dotdot |= dotdot;
	if (!bad && !self)
		return;
	padded_name(nm, (const char *)name, namelen);
	a.obj.ino = w->dir;
	a.obj.index = (uint64_t)-1;
	a.s1 = nm;
	a.v2 = dablk;
	a.v3 = off;
	if (bad) {
		a.field = self ? "self" : NULL;
		rp_say(w->c->out, PR_RP_DIR_ILLEGAL_NAME, &a);
		a.field = NULL;
	}
	if (self)
		rp_say(w->c->out, PR_RP_DIR_ENTRY_SELF, &a);
}

/*
 * A data block with findings that phase 3 of the reference used, read
 * whole item by item up to the first that does not parse (libfs hands
 * out no entry whose name it refuses): each entry's name words.
 */
static void name_words_block(struct name_words *w,
			     const struct fs_extents *del, xfs_dablk_t dablk,
			     bool block_form)
{
	const struct fs_geom *g = &w->c->r->fs->geo;
	int64_t p = sizeof(struct xfs_dir3_data_hdr), end = g->dirblksize;
	struct fs_buf *bp;
	const uint8_t *d;

	if (fork_read(w->c->r->fs, del, dablk, g->dirblkfsbs, NULL, NULL, &bp))
		return;
	if (bp->len < g->dirblksize) {
		buf_release(bp);
		return;
	}
	d = bp->data;
	if (block_form) {
		const struct xfs_dir2_block_tail *t = (const void *)(d +
			g->dirblksize - sizeof(*t));
		int64_t tail = g->dirblksize - sizeof(*t);

		end = tail - (int64_t)get_be32(t->count) *
			     (int64_t)sizeof(struct xfs_dir2_leaf_entry);
		if (end > tail)
			end = tail;
	}
	while (p + 4 <= end) {
		unsigned sz;

		if (load_be16(d + p) == XFS_DIR2_DATA_FREE_TAG) {
			unsigned l = load_be16(d + p + 2);

			if (!l || (l & (XFS_DIR2_DATA_ALIGN - 1)))
				break;
			p += l;
			continue;
		}
		if (p + 9 > end)
			break;
		sz = dir2_data_entsize(g->has_ftype, d[p + 8]);
		if (p + sz > end || load_be16(d + p + sz - 2) != (unsigned)p)
			break;
		name_words(w, d + p + 9, d[p + 8], load_be64(d + p), dablk,
			   (uint32_t)p);
		/*
		 * The first entry, if it names the directory, is its "." to
		 * phase 6 even when libfs refused its name.
		 */
		if (rp_dot_entry(false, w->dir, d + p + 9, d[p + 8],
				 load_be64(d + p), dablk, (uint32_t)p) &&
		    w->c->dhdr.dot_ftype == IM_FT_NONE) {
			unsigned ft = g->has_ftype ? d[p + 9 + d[p + 8]] : 0;

			w->c->dhdr.dot_ftype = ft < XFS_DIR3_FT_MAX ?
					       (uint8_t)ft :
					       XFS_DIR3_FT_UNKNOWN;
		}
		p += sz;
	}
	buf_release(bp);
}

/*
 * What the reference's phase 3 says of the names in the data blocks it
 * used: see name_words, and then no entry named "." or ".." (wherever it
 * is and whatever it names).  The blocks without findings gave their
 * entries to dir_entry_at, which noted what matters here; those with
 * findings are read again whole.  A first block it could not use has had
 * its words already.
 */
static void dir_name_words(struct p3ag *c, const struct fs_inode *ip,
			   const struct fs_extents *del,
			   const struct dir_ctx *d,
			   const struct dir_blocks *bl, bool block_form)
{
	const struct fs_geom *g = &c->r->fs->geo;
	struct name_words w = { .c = c, .dir = ip->ino };
	struct rp_args a = RP_ARGS_INIT(OBJ_DIR);

	for (unsigned i = 0; i < d->nself; i++) {
		const uint8_t *nm = (const uint8_t *)d->self[i].name;

		if (!dablk_listed(g, bl, d->self[i].dablk))
			name_words(&w, nm, d->self[i].namelen, ip->ino,
				   d->self[i].dablk, 0);
	}
	w.dot = d->dot_seen && !dablk_listed(g, bl, d->dot_db);
	w.dotdot = d->dotdot_seen && !dablk_listed(g, bl, d->dotdot_db);
	for (unsigned i = 0; i < bl->n; i++)
		if (!bl->v[i].unusable)
			name_words_block(&w, del,
					 dir_db_to_dablk(g, bl->v[i].db),
					 block_form);
	a.obj.ino = ip->ino;
	a.obj.index = (uint64_t)-1;
	if (dablk_unusable(g, bl, 0))
		return;
	if (!w.dot)
		rp_say(c->out, PR_RP_NO_DOT, &a);
	if (!w.dotdot) {
		if (ip->ino == c->r->fs->sb.rootino)
			a.field = "root";
		rp_say(c->out, PR_RP_NO_DOTDOT, &a);
	}
}

/*
 * The directory's content: dir_check's findings (a leaf or node
 * directory's size is not one of them, see dir_size_bad) and its
 * entries, then the reference's verdict.
 *
 * How the reference's phase 3 reads each block decides what it says and
 * keeps.  A block whose CRC is wrong is read anyway, header and all, and
 * junked if its entries do not parse to the end ("corrupt block ...
 * would junk block"); a block the verifier rejects (CRC right, content
 * wrong) is not read ("corrupt directory block").  With no data block
 * left, the directory's content is a problem:
 *   - a block-form directory then has nothing: no "." and "..", the
 *     inode would be cleared.  Under -n
 *     phase 4 reads the block again without the verifier and, if its
 *     entries parse, keeps the inode after all -- without the ".." phase
 *     3 never saw, so phase 6 finds its parent unknown, junks the entry
 *     naming it and moves it to lost+found with its entries (dotdot 0
 *     says so).  If they do not parse, it stays cleared.
 *   - a data block of a leaf or node directory is skipped: if it is
 *     block 0, "." and ".." are missing and the parent is unknown until
 *     phase 6 finds an entry naming the directory; the entries of a
 *     block the verifier rejected are read by phase 6, so they are
 *     kept.  (Those of a block junked, or whose header names another
 *     owner, are lost to phase 6: we keep what parses, and phase 6
 *     skips them.)  If no data
 *     block is usable, as for block form.
 * A data block whose magic number is wrong is read whole if its entries
 * parse (the reference fixes the magic number in phase 6), so its
 * entries are kept: dir_check hands out none from it, dir_salvage_block
 * reads them.
 */
enum dir_verdict check_dir(struct p3ag *c, struct im_chunk *ch,
				  unsigned bit, const struct fs_inode *ip,
				  const struct fs_extents *del)
{
	struct fs *fs = c->r->fs;
	const struct fs_geom *g = &fs->geo;
	struct dir_ctx d = {
		.c = c, .dir = ip->ino,
		.shortform = ip->format == XFS_DINODE_FMT_LOCAL,
	};
	struct dir_blocks bl;
	enum dir_form form;
	bool block_form, damaged = false, all_bad = true, tree_failed = false;
	bool any_data = false;
	uint64_t last = 0;
	size_t j = 0, ndups = 0;
	uint64_t *dups = NULL;

	c->dhdr.dir = ip->ino;
	c->dhdr.hashck = IM_HASH_OK;
	c->dhdr.sf_badino = NULLFSINO;
	c->dhdr.late_dotdot = NULLFSINO;
	c->dhdr.late_read = c->dhdr.late_dot = false;
	c->dhdr.sf = ip->format == XFS_DINODE_FMT_LOCAL;
	c->dhdr.marked = false;
	c->dhdr.late_dotent = NULLFSINO;
	dir_forget_dots(c, NULLFSINO);
	c->edges.n = 0;
	c->leaf_unread = false;
	if (ip->format != XFS_DINODE_FMT_LOCAL && del->n)
		last = del->v[del->n - 1].br_startoff +
		       del->v[del->n - 1].br_blockcount;
	/*
	 * The reference knows a directory of blocks by where its mapping
	 * ends: at the end of the first directory block (block form) or
	 * past the first leaf block (leaf or node form).  Anything else is
	 * no directory it can read -- but for a mapping of no extents at
	 * all, whose end it takes to be past everything: a node directory
	 * without a single data block, so without "." and "..".
	 */
	if (ip->format != XFS_DINODE_FMT_LOCAL && !del->n) {
		struct rp_args a = RP_ARGS_INIT(OBJ_DIR);

		a.obj.ino = ip->ino;
		rp_say(c->out, PR_RP_NO_DOT, &a);
		if (ip->ino == fs->sb.rootino)
			a.field = "root";
		rp_say(c->out, PR_RP_NO_DOTDOT, &a);
		say_ino(c, PR_RP_DIR_CONTENT_BAD, 0, 0);
		return DV_CLEAR;
	}
	if (ip->format != XFS_DINODE_FMT_LOCAL && last != g->dirblkfsbs &&
	    last < (uint64_t)dir_leaf_dablk(g) + g->dirblkfsbs) {
		say_ino(c, PR_RP_DIR_FORM_BAD, 0, 0);
		say_ino(c, PR_RP_DIR_CONTENT_BAD, 0, 0);
		return DV_CLEAR;
	}
	dir_check_pos(fs, ip, del, dir_entry_at, &d, &c->fl);
	keep_notes(c, ftype_out_of_range, NULL);
	if (ip->format != XFS_DINODE_FMT_LOCAL)
		ndups = dir_flag_dups(c, ip, del, &dups);
	else
		sf_add_dups(c, ip);
	keep_notes(c, dup_name_code, NULL);
	if (ip->format == XFS_DINODE_FMT_LOCAL) {
		xfs_ino_t badino;

		/* its parent is in the header: no "." and no type of ".." */
		c->dhdr.dot_ftype = IM_FT_NONE;
		c->dhdr.dotdot_ftype = IM_FT_NONE;
		/* what the reference's walk says in its words, it says */
		keep_notes(c, sf_walk_says, NULL);
		p3_flush(c, ip->mode, NULL, false);
		/* the parent is the header's, whatever the entries are */
		c->dhdr.dotdot = rp_sf_walk(c, ip);
		/* kept, but its library cannot load it in phases 6 and 7 */
		if (rp_sf_refused(fs, ip, &badino)) {
			ch->unreadable |= 1ull << bit;
			c->dhdr.sf_badino = badino;
		}
		if (dotdot_self(c, ip)) {
			struct rp_args a = RP_ARGS_INIT(OBJ_INODE);

			a.obj.ino = ip->ino;
			a.field = "shortform";
			rp_say(c->out, PR_RP_DOTDOT_SELF, &a);
			c->dhdr.dotdot = NULLFSINO;
			c->dhdr.sf_reset = true;
		}
		return DV_KEEP;
	}
	form = dir_form_of(g, del);
	block_form = form == DIR_FORM_BLOCK;
	if (!block_form)
		damaged = tree_failed = dir_tree_words(c, del, form,
				dir_hash_verdict(c, dups, ndups, &d) !=
				IM_HASH_OK);

	bl.n = 0;
	for (size_t i = 0; i < c->fl.n; i++) {
		const struct fs_finding *f = &c->fl.v[i];
		struct dir_dblk_state *st;

		if (f->code == PR_DIR_BAD_SIZE && !block_form)
			continue;
		c->fl.v[j++] = *f;
		if (problem_info(f->code)->sev == SEV_ERROR)
			damaged = true;
		if (f->obj.type != OBJ_DIR || f->obj.index >= XFS_DIR2_LEAF_OFFSET)
			continue;
		st = dir_blocks_get(&bl, (uint32_t)(f->obj.index >>
						    (g->blocklog + g->dirblklog)));
		if (!st)
			continue;
		st->crc_bad |= f->code == PR_DIR_BAD_CRC;
		st->magic_bad |= f->code == PR_DIR_BAD_MAGIC;
		if (f->obj.daddr != (xfs_daddr_t)-1)
			st->daddr = f->obj.daddr;
		/* the reference checks the owner, then blkno, then UUID */
		if (f->code == PR_DIR_BAD_OWNER) {
			st->hdr = IM_DBLK_HDR_OWNER;
			st->hdr_owner = f->found;
		} else if (f->code == PR_DIR_BAD_BLKNO &&
			   st->hdr != IM_DBLK_HDR_OWNER) {
			st->hdr = IM_DBLK_HDR_BLKNO;
			st->hdr_blkno = f->found;
		} else if (f->code == PR_DIR_BAD_UUID && !st->hdr) {
			st->hdr = IM_DBLK_HDR_UUID;
		}
		st->verifier |= dir_verifier_code(f->code, block_form);
		st->breaks |= dir_scan_breaks(f);
	}
	findings_truncate(&c->fl, j);
	/* each block with findings, read whole as the reference reads it */
	for (unsigned i = 0; i < bl.n; i++)
		bl.v[i].read = !rp_dblk_words(fs, del,
					      dir_db_to_dablk(g, bl.v[i].db),
					      block_form, &bl.v[i].w);
	{
		struct dblk_ctx x = { g, &bl };

		keep_notes(c, dir_bestfree_said, &x);
		keep_notes(c, dot_in_refused, &x);
		keep_notes(c, entry_in_refused, &x);
	}
	/* the leaf matched with the data: the reference's phase 6 says it */
	if (form == DIR_FORM_BLOCK ||
	    (form == DIR_FORM_LEAF && !c->leaf_unread)) {
		c->dhdr.hashck = dir_hash_verdict(c, dups, ndups, &d);
		if (c->dhdr.hashck != IM_HASH_OK)
			keep_notes(c, dir_hash_code, NULL);
	} else {
		/*
		 * A node directory's: "would rebuild" is all the reference
		 * says -- but when every leaf entry is right and a data
		 * entry has none.
		 */
		if (form == DIR_FORM_NODE && !tree_failed &&
		    node_noleaf(c))
			c->dhdr.hashck = IM_HASH_NOLEAF;
		keep_notes(c, dir_hash_code, NULL);
	}
	free(dups);
	for (size_t i = 0; i < del->n && !any_data; i++)
		any_data = del->v[i].br_startoff < dir_leaf_dablk(g);
	keep_notes(c, dir_said_otherwise, &any_data);
	p3_flush(c, ip->mode, NULL, false);

	for (unsigned i = 0; i < bl.n; i++) {
		struct dir_dblk_state *st = &bl.v[i];
		struct dir_salvage_info si;

		if (!st->magic_bad)
			continue;
		d.salv_dablk = dir_db_to_dablk(g, st->db);
		d.salv_n = 0;
		if (dir_salvage_block(fs, ip, del, d.salv_dablk,
				      block_form, dir_entry_salvaged, &d,
				      &si)) {
			st->breaks = true;
			continue;
		}
		st->crc_bad = !si.crc_ok;
		st->breaks |= !si.whole;
	}

	/* the blocks phase 3 of the reference cannot use, as it says them */
	for (unsigned i = 0; i < bl.n; i++) {
		struct dir_dblk_state *st = &bl.v[i];
		struct rp_args a = RP_ARGS_INIT(OBJ_DIR);

		a.obj.ino = ip->ino;
		a.obj.index = dir_db_to_dablk(g, st->db);
		if (!st->crc_bad && st->verifier)
			rp_say(c->out, block_form ? PR_RP_DIR_BLOCK_CORRUPT :
			       PR_RP_DIR_DATA_CORRUPT, &a);
		else if (st->crc_bad && st->breaks)
			rp_say(c->out, PR_RP_DIR_BLOCK_JUNK, &a);
		else
			continue;
		st->unusable = true;
		if (st->db == 0) {
			a.obj.index = (uint64_t)-1;
			rp_say(c->out, PR_RP_NO_DOT, &a);
			if (ip->ino == fs->sb.rootino)
				a.field = "root";
			rp_say(c->out, PR_RP_NO_DOTDOT, &a);
			dir_forget_dots(c, NULLFSINO);
		}
	}
	dir_name_words(c, ip, del, &d, &bl, block_form);
	for (unsigned i = 0; i < bl.n; i++) {
		const struct dir_dblk_state *st = &bl.v[i];

		dir_dblk_later(c, ip, st, block_form);
		/*
		 * A first block the verifier refused, read again whole in
		 * phase 4 and 6: the ".." they find in it, for their words.
		 */
		if (!st->db && st->unusable && st->read && !st->crc_bad &&
		    st->verifier && !st->w.junk) {
			c->dhdr.late_dotdot = st->w.dotdot;
			c->dhdr.late_dotdot_ftype = st->w.dotdot_ftype;
			c->dhdr.late_dotdot_off = st->w.dotdot_off;
			c->dhdr.late_read = true;
			c->dhdr.late_dot = st->w.first == ip->ino;
			c->dhdr.late_dot_ftype = st->w.first_ftype;
			/*
			 * (one with bits above a 32-bit AG number the
			 * reference cuts to one it may find in use)
			 */
			if (st->w.dot != NULLFSINO &&
			    (st->w.dot >> g->agino_log) <= UINT32_MAX &&
			    (!ino_valid(g, st->w.dot) ||
			     sb_internal_ino(&fs->sb, st->w.dot)))
				c->dhdr.late_dotent = st->w.dot;
		}
	}
	for (size_t i = 0; i < del->n && all_bad; i++) {
		const struct xfs_bmbt_irec *e = &del->v[i];

		if (e->br_startoff >= dir_leaf_dablk(g))
			continue;
		for (uint64_t o = e->br_startoff; o < e->br_startoff +
		     e->br_blockcount && all_bad; o++) {
			struct dir_dblk_state *st = NULL;

			for (unsigned k = 0; k < bl.n; k++)
				if (bl.v[k].db == (o >> g->dirblklog))
					st = &bl.v[k];
			if (!st || !st->unusable)
				all_bad = false;
		}
	}
	if (all_bad && del->n) {
		/* (no data block at all: phase 4 finds no entry either) */
		bool breaks = !any_data;

		/* nothing phase 3 could read: the inode would be cleared */
		for (unsigned i = 0; i < bl.n; i++)
			breaks |= bl.v[i].breaks;
		say_ino(c, PR_RP_DIR_CONTENT_BAD, 0, 0);
		if (breaks)
			return DV_CLEAR;
		/* ... and phase 4 keeps it, parent unknown (see above) */
		say_ino(c, PR_RP_INODE_CLEARED, 0, 0);
		dir_forget_dots(c, 0);
		ch->revived |= 1ull << bit;
	}
	if (dotdot_self(c, ip)) {
		say_ino(c, PR_RP_DOTDOT_SELF, 0, 0);
		c->dhdr.dotdot = NULLFSINO;
		c->dhdr.dotdot_ftype = IM_FT_NONE;
		damaged = true;
	}
	/*
	 * The reference rebuilds a damaged directory of blocks -- in its
	 * phase 6, which does not get to one it cannot load.
	 */
	if (damaged) {
		if (!c->unmapped)
			say_ino(c, PR_RP_DIR_REBUILD, 0, 0);
		ch->rebuild |= 1ull << bit;
	}
	return DV_KEEP;
}
