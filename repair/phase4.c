/*
 * Phase 4: blocks claimed twice.
 *
 * What it checks: with every claim on AG space now in r->smap -- AG
 * metadata and free extents from phase 2, inode forks and bmbt blocks
 * from phase 3 -- each AG's claims are sorted and swept once, and every
 * block claimed by an inode and by something else is reported: an inode
 * fork on free space, on AG metadata, or on another inode's blocks --
 * but for an AG with block states (rp_ag.bstate), whose claims phase 3
 * held to them as the reference does and said there.  Data fork extents
 * of two inodes may share blocks on a reflink filesystem where the later
 * inode of the two is a regular file (shared()); phase 5 checks those
 * against the refcountbt.  Where it is not, that inode is the one said,
 * and its blocks count in no reference count (im_chunk.uncounted).
 * Claims between pieces of AG metadata are ag_check()'s, reported in
 * phase 2.
 *
 * First, as the reference says them while it sets up its duplicate
 * extent list, the free blocks only one of the two free space btrees
 * lists (from the records phase 2 took of each, where it took them as
 * the reference does).
 *
 * And, as the reference looks at every directory again here, in inode
 * order: the entries that name an inode not in use now that discovery is
 * over; the data blocks its phase 3 verifier refused, which it now reads
 * whole from its cache (struct im_dblk: their entries do not parse, or
 * their bestfree table is wrong -- or, item by item, what each entry
 * names, "." and ".." included: raw_block); and a block-form directory
 * its phase 3 would clear but this look keeps (im_chunk.revived), free
 * until it is reached -- its own "." names a free inode -- and then in
 * use ("imap claims in-use inode N is free").
 *
 * What it leaves for phase 5: every AG of r->smap sorted.
 */
#include "config.h"
#include "format/dir.h"
#include <stdlib.h>
#include <string.h>
#include "array.h"
#include "dir.h"
#include "progress.h"
#include "repair.h"
#include "workers.h"

struct p4 {
	struct rp_seq	seq;
};

struct p4ag {
	struct repair	*r;
	struct rp_out	*out;
	/* owners already named in this AG: each is named once */
	uint64_t	*named;
	size_t		nnamed, capnamed;
};

/* Has this owner been named already (and remember it if not)? */
static bool named_before(struct p4ag *c, uint64_t owner)
{
	uint64_t *nv;

	for (size_t i = 0; i < c->nnamed; i++)
		if (c->named[i] == owner)
			return true;
	nv = fs_array_grow(c->named, &c->capnamed, c->nnamed + 1, sizeof(*nv),
			   16);
	if (!nv)
		return false;
	c->named = nv;
	c->named[c->nnamed++] = owner;
	return false;
}

static const char *fork_name(const struct sm_rec *x)
{
	return (x->offset & XFS_RMAP_OFF_ATTR_FORK) ? "attr" : "data";
}

static const char *type_name(const struct repair *r, xfs_ino_t ino)
{
	(void)r;
	(void)ino;
	/* the reference's word for any file but a realtime one */
	return "regular";
}

static void report_as(struct p4ag *c, uint32_t agno, const struct sm_rec *x,
		      enum fs_problem code, uint32_t start, const char *type)
{
	struct rp_args a = RP_ARGS_INIT(OBJ_INODE);

	{
		struct im_chunk *ch;
		unsigned bit;

		/*
		 * its map will be rewritten: phase 5 does not hold it to it
		 * -- but for a claim on free space, which the reference
		 * takes, keeping the map and counting its blocks
		 */
		ch = im_find(c->r->imap, x->owner, &bit);
		if (ch && code != PR_RP_FORK_CLAIMS_FREE)
			__atomic_fetch_or(&ch->suspect, 1ull << bit,
					  __ATOMIC_RELAXED);
	}
	/* phase 3 held the AG's claims to its block states, and said them */
	if (c->r->ags[agno].bstate || named_before(c, x->owner))
		return;
	a.obj.ino = x->owner;
	a.obj.agno = agno;
	a.field = fork_name(x);
	a.found = agb_to_fsb(&c->r->fs->geo, agno, start);
	a.s1 = type ? type : type_name(c->r, x->owner);
	rp_say(c->out, code, &a);
}

static void report(struct p4ag *c, uint32_t agno, const struct sm_rec *x,
		   enum fs_problem code, uint32_t start)
{
	report_as(c, agno, x, code, start, NULL);
}

static bool is_regular(const struct repair *r, xfs_ino_t ino)
{
	const struct im_chunk *ch;
	unsigned bit;

	ch = im_find(r->imap, ino, &bit);
	return ch && ch->ftype[bit] == XFS_DIR3_FT_REG_FILE;
}

/*
 * May two inodes' claims on a block of a reflink filesystem be sharing?
 * The reference, walking the inodes in order, holds each data fork
 * extent to the blocks the inodes before it claimed: a block in use is
 * shared where the inode walking it now is a regular file, and its
 * "claims used block" otherwise -- whatever the earlier claim's inode
 * is.  So two data fork claims share where the later inode of the two
 * is a regular file (a directory's block that a later file maps as well
 * is counted, not claimed twice).
 */
static bool shared(const struct repair *r, const struct sm_rec *a,
		   const struct sm_rec *b)
{
	if (!sm_is_data(a) || !sm_is_data(b))
		return false;
	return is_regular(r, a->owner > b->owner ? a->owner : b->owner);
}

static void uncount(struct repair *r, xfs_ino_t ino)
{
	struct im_chunk *ch;
	unsigned bit;

	ch = im_find(r->imap, ino, &bit);
	if (ch)
		__atomic_fetch_or(&ch->uncounted, 1ull << bit,
				  __ATOMIC_RELAXED);
}

static void conflict(uint32_t agno, const struct sm_rec *a,
		     const struct sm_rec *b, uint32_t start, uint32_t len,
		     void *priv)
{
	struct p4ag *c = priv;
	bool ai = sm_inode_owner(a->owner), bi = sm_inode_owner(b->owner);

	(void)len;
	if (!ai && !bi)
		return;		/* AG metadata: ag_check's */
	if (a->owner == SM_OWN_CLEARED || b->owner == SM_OWN_CLEARED)
		return;		/* a cleared inode's: no one's to claim */
	if (ai && bi) {
		if (c->r->fs->geo.has_reflink && shared(c->r, a, b))
			return;	/* shared data: the refcountbt's business */
		if (c->r->fs->geo.has_reflink && sm_is_data(a) &&
		    sm_is_data(b)) {
			/*
			 * The later of the two, no regular file: the one the
			 * reference says and clears (no count of its blocks).
			 * It says so while it walks the fork, before it
			 * knows the inode's type: "regular" for a
			 * directory or a symlink as well.
			 */
			const struct sm_rec *later = a->owner > b->owner ?
						     a : b;

			uncount(c->r, later->owner);
			report_as(c, agno, later, PR_RP_FORK_CLAIMS_USED,
				  start, "regular");
			return;
		}
		report(c, agno, b, PR_RP_FORK_CLAIMS_USED, start);
		report(c, agno, a, PR_RP_FORK_CLAIMS_USED, start);
		return;
	}
	/*
	 * one inode against free space or metadata -- where an AGFL block
	 * (the AG's own, but no tree's: not in rp_ag.meta) is free space
	 * to the reference
	 */
	{
		const struct sm_rec *ino = ai ? a : b, *other = ai ? b : a;
		bool agfl = other->owner == XFS_RMAP_OWN_AG &&
			    sm_list_first_in(&c->r->ags[agno].meta, start,
					     (uint64_t)start + 1) != start;

		report(c, agno, ino, other->owner == SM_OWN_FREE || agfl ?
		       PR_RP_FORK_CLAIMS_FREE : PR_RP_FORK_CLAIMS_METADATA,
		       start);
	}
}

/*
 * Directory entries naming inodes that are not in use.  The reference
 * looks at every directory again in its phase 4, with inode discovery
 * over, in inode order: an entry naming an inode of no known chunk
 * ("non-existent"), or one free or cleared in phase 3 ("free"), would be
 * junked.  An inode it clears only on this second look (im_chunk.late)
 * is free for the directories it looks at after it; one its phase 3
 * cleared and this look keeps (im_chunk.revived) is free for those it
 * looks at before it, and for itself: its own "." names a free inode.
 */
enum ref_kind { REF_OK, REF_FREE, REF_NONE };

static bool revived(const struct repair *r, xfs_ino_t ino)
{
	const struct im_chunk *ch;
	unsigned bit;

	ch = im_find(r->imap, ino, &bit);
	return ch && ((ch->revived >> bit) & 1);
}

static enum ref_kind ref_kind(const struct repair *r, xfs_ino_t dir,
			      xfs_ino_t child)
{
	const struct im_chunk *ch;
	unsigned bit;

	ch = im_find(r->imap, child, &bit);
	if (!ch)
		return REF_NONE;
	if (((ch->used >> bit) & 1) && !((ch->cleared >> bit) & 1))
		return ((ch->revived >> bit) & 1) && child >= dir ?
		       REF_FREE : REF_OK;
	if (((ch->late >> bit) & 1) && child > dir)
		return REF_OK;
	return REF_FREE;
}

struct refs {
	struct p4ag		*c;
	const struct im_dir	*d;
	bool			shortform;
	size_t			pos;	/* entries seen: not ".." or the
					   "." that names the directory */
	/* the blocks read whole below (raw_block), in file order */
	const struct im_dblk	*raw;
	size_t			nraw, next_raw;
	struct fs_extents	el;	/* the data fork, to read them */
	bool			el_ok;
	bool			dot, dotdot;	/* seen in those blocks */
};

static void say_entry(struct refs *x, enum fs_problem code, const char *field,
		      xfs_ino_t ino, const uint8_t *name, unsigned namelen,
		      xfs_dablk_t dablk, uint32_t off)
{
	struct rp_args a = RP_ARGS_INIT(OBJ_DIR);
	size_t len = strnlen((const char *)name, namelen);
	char nm[256];

	/* printed as the reference does ("%*.*s"): up to a NUL, padded */
	memset(nm, ' ', namelen - len);
	memcpy(nm + namelen - len, name, len);
	nm[namelen] = '\0';
	a.obj.ino = ino;
	a.found = x->d->dir;
	a.s1 = nm;
	a.v2 = dablk;
	a.v3 = off;
	a.field = field;
	rp_say(x->c->out, code, &a);
}

static void say_dir(struct refs *x, enum fs_problem code, const char *field,
		    uint64_t found)
{
	struct rp_args a = RP_ARGS_INIT(OBJ_INODE);

	a.obj.ino = x->d->dir;
	a.found = found;
	a.field = field;
	rp_say(x->c->out, code, &a);
}

/*
 * One entry of a block read whole, by the reference's rules for a data
 * entry once inode discovery is over: what its inode number names (a
 * number no directory may hold -- out of range, or one of the
 * filesystem's own inodes -- is "invalid"), an empty name, and "." and
 * ".." (their inode numbers are not cleared: "." is set right and ".."
 * is a parent, corrected when it is no inode number at all), a second
 * of either, and any other entry naming the directory itself.  A name
 * starting with '/' is one already cleared.
 */
static void raw_entry(struct refs *x, xfs_dablk_t dablk, uint32_t off,
		      const uint8_t *e, unsigned namelen)
{
	const struct repair *r = x->c->r;
	xfs_ino_t dir = x->d->dir, ino = load_be64(e);
	const uint8_t *name = e + 9;
	bool dot = namelen == 1 && name[0] == '.';
	bool dotdot = namelen == 2 && name[0] == '.' && name[1] == '.';
	bool junk = name[0] == '/', clear;
	enum fs_problem code = PR_NONE;

	if (name[0] == '/') {
		code = PR_NONE;
	} else if (!ino_valid(&r->fs->geo, ino) ||
		   sb_internal_ino(&r->fs->sb, ino)) {
		code = PR_RP_DIR_REFS_BAD_INO;
	} else {
		enum ref_kind k = ref_kind(r, dir, ino);

		if (k != REF_OK)
			code = k == REF_FREE ? PR_RP_DIR_REFS_FREE_INO :
			       PR_RP_DIR_REFS_NO_INO;
	}
	if (code != PR_NONE)
		say_entry(x, code, "bare", ino, name, namelen, dablk, off);
	clear = code != PR_NONE && !dot && !dotdot;
	if (!namelen)
		say_entry(x, PR_RP_DIR_ZERO_NAMELEN, NULL, ino, name, 0, dablk,
			  off);
	else if (clear)
		say_entry(x, PR_RP_DIR_CLEAR_INUM, NULL, ino, name, namelen,
			  dablk, off);
	if (dotdot) {
		xfs_ino_t root = r->fs->sb.rootino;

		if (x->dotdot) {
			say_dir(x, PR_RP_DIR_MULTI_DOTDOT, NULL, 0);
			return;
		}
		x->dotdot = true;
		if (ino == dir && dir != root) {
			say_dir(x, PR_RP_DOTDOT_SELF, NULL, 0);
			return;
		}
		if (ino != dir && dir == root) {
			say_dir(x, PR_RP_ROOT_DOTDOT, NULL, ino);
			ino = dir;
		}
		if (!junk && !ino_valid(&r->fs->geo, ino))
			say_dir(x, PR_RP_DOTDOT_BAD_INO, NULL, ino);
	} else if (dot) {
		if (x->dot) {
			say_dir(x, PR_RP_DIR_MULTI_DOT, NULL, 0);
			return;
		}
		x->dot = true;
		if (ino != dir)
			say_dir(x, PR_DIR_BAD_DOT, "inumber", ino);
	} else if (ino == dir) {
		say_entry(x, PR_RP_DIR_ENTRY_SELF, NULL, dir, name, namelen,
			  dablk, off);
		return;
	}
	if (junk)
		say_dir(x, PR_RP_DIR_CLEAR_ENTRY, NULL, 0);
}

/*
 * A data block the verifier refused in phase 3, which the reference
 * reads whole from its cache here and walks item by item (only when the
 * items parse to the end: else it says "would junk block", dblk_words).
 */
static void raw_block(struct refs *x, const struct im_dblk *b)
{
	const struct fs_geom *g = &x->c->r->fs->geo;
	struct fs_buf *bp;
	int64_t p = sizeof(struct xfs_dir3_data_hdr), end = g->dirblksize;
	const uint8_t *d;

	if (!x->el_ok || fork_read(x->c->r->fs, &x->el, b->dablk,
				   g->dirblkfsbs, NULL, NULL, &bp))
		return;
	if (bp->len < g->dirblksize) {
		buf_release(bp);
		return;
	}
	d = bp->data;
	if (b->flags & IM_DBLK_BLOCK) {
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

			if (!l)
				break;
			p += l;
			continue;
		}
		if (p + 9 > end)
			break;
		sz = dir2_data_entsize(g->has_ftype, d[p + 8]);
		if (p + sz > end)
			break;
		raw_entry(x, b->dablk, (uint32_t)p, d + p, d[p + 8]);
		p += sz;
	}
	buf_release(bp);
}

/* A block phase 4 reads whole: refused by the verifier, its items whole. */
static bool dblk_raw(const struct im_dblk *b)
{
	return (b->flags & IM_DBLK_REREAD) && !(b->flags & IM_DBLK_JUNK);
}

/* The blocks read whole that come before file block dablk, said now. */
static void raw_before(struct refs *x, uint64_t dablk)
{
	for (; x->next_raw < x->nraw && x->raw[x->next_raw].dablk < dablk;
	     x->next_raw++)
		if (dblk_raw(&x->raw[x->next_raw]))
			raw_block(x, &x->raw[x->next_raw]);
}

static bool is_raw(const struct refs *x, xfs_dablk_t dablk)
{
	for (size_t i = 0; i < x->nraw; i++)
		if (x->raw[i].dablk == dablk && dblk_raw(&x->raw[i]))
			return true;
	return false;
}

static int refs_cb(void *priv, const uint8_t *name, unsigned namelen,
		   xfs_ino_t ino, unsigned ftype, xfs_dablk_t dablk,
		   uint32_t offset)
{
	struct refs *x = priv;
	const struct repair *r = x->c->r;
	const struct im_edge *e;
	struct rp_args a = RP_ARGS_INIT(OBJ_DIR);
	enum ref_kind k;
	char nm[256];

	(void)ftype;
	raw_before(x, dablk);
	if (rp_entry_marked(x->shortform, name, namelen)) {
		/* no edge of phase 3's; raw_block has its own words */
		if (!is_raw(x, dablk))
			say_dir(x, PR_RP_DIR_CLEAR_ENTRY, NULL, 0);
		return 0;
	}
	if (is_raw(x, dablk)) {
		/* said by raw_block: only its place among the entries */
		if (!rp_entry_edge(x->shortform, x->d->dir, name, namelen,
				   ino, dablk, offset))
			return 0;
		if (x->pos < x->d->n)
			x->pos++;
		return 0;
	}
	if (namelen == 2 && name[0] == '.' && name[1] == '.') {
		/* a block's ".." is checked as any entry, a header's is not */
		if (!dotdot_in_block(x->d) || ino != x->d->dotdot)
			return 0;
		a.field = "dotdot";
	} else if (rp_dot_entry(x->shortform, x->d->dir, name, namelen, ino,
				dablk, offset)) {
		/* a "." naming another inode is an entry */
		if (x->shortform || !revived(r, ino))
			return 0;
		a.field = "dot";
	} else {
		if (x->pos >= x->d->n)
			return 1;
		/* phase 3 kept the entries in this order: one edge each */
		e = &r->imap->edges.v[x->d->first + x->pos++];
		if (e->child != ino)
			return 0;
		a.field = x->shortform ? "shortform" : NULL;
	}
	k = ref_kind(r, x->d->dir, ino);
	if (k == REF_OK)
		return 0;
	memcpy(nm, name, namelen);
	nm[namelen] = '\0';
	a.obj.ino = ino;
	a.found = x->d->dir;
	a.s1 = nm;
	a.v2 = dablk;
	a.v3 = offset;
	rp_say(x->c->out, k == REF_FREE ? PR_RP_DIR_REFS_FREE_INO :
	       PR_RP_DIR_REFS_NO_INO, &a);
	return 0;
}

/* One directory's entries, read again if one names an inode not in use. */
static void dir_refs(struct p4ag *c, const struct im_dir *d)
{
	struct repair *r = c->r;
	const struct inomap *im = r->imap;
	struct refs x = { .c = c, .d = d };
	struct fs_inode ip;
	bool bad, any_raw = false, raw0 = false;

	/* the directory's blocks read again (sorted by file block) */
	x.raw = im->dblks + im_dblk_first(im, d->dir);
	while (x.raw + x.nraw < im->dblks + im->ndblks &&
	       x.raw[x.nraw].dir == d->dir) {
		if (dblk_raw(&x.raw[x.nraw])) {
			any_raw = true;
			raw0 |= x.raw[x.nraw].dablk == 0;
		}
		x.nraw++;
	}
	bad = revived(r, d->dir) || any_raw || d->marked ||
	      (dotdot_in_block(d) && ref_kind(r, d->dir, d->dotdot) != REF_OK);
	for (size_t k = 0; k < d->n && !bad; k++)
		bad = ref_kind(r, d->dir,
			       im->edges.v[d->first + k].child) != REF_OK;
	/* names and places: the directory is read again if need be */
	if (!bad || inode_read(r->fs, d->dir, &ip, NULL))
		return;
	x.shortform = ip.format == XFS_DINODE_FMT_LOCAL;
	extents_init(&x.el);
	x.el_ok = any_raw && !x.shortform &&
		  !fork_extents(r->fs, &ip, XFS_DATA_FORK, &x.el, NULL, NULL,
				NULL);
	/* "." and ".." are in the first block: seen unless it is read here */
	x.dot = x.dotdot = !raw0;
	dir_iterate_pos(r->fs, &ip, NULL, refs_cb, &x, NULL);
	raw_before(&x, UINT64_MAX);
	extents_free(&x.el);
	inode_release(&ip);
}

/*
 * A data block its phase 3 could not use (the verifier refused it), as
 * the reference reads it now from its cache, unverified: its entries do
 * not parse ("would junk block"), or they do and its bestfree table is
 * wrong.
 */
static void dblk_words(struct p4ag *c, const struct im_dblk *b)
{
	struct rp_args a = RP_ARGS_INIT(OBJ_DIR);

	if (!(b->flags & IM_DBLK_REREAD))
		return;
	a.obj.ino = b->dir;
	a.obj.index = b->dablk;
	if (b->flags & IM_DBLK_JUNK)
		rp_say(c->out, PR_RP_DIR_BLOCK_JUNK, &a);
	else if (b->flags & IM_DBLK_BADBEST)
		rp_say(c->out, PR_RP_DIR_BESTFREE, &a);
}

/*
 * The AG's directories and the directory blocks read again, in inode
 * order (both lists are sorted by it): per directory, its entries, its
 * blocks, and last, if its phase 3 cleared it, the map corrected.
 */
static void check_dir_refs(struct p4ag *c, xfs_agnumber_t agno)
{
	struct repair *r = c->r;
	const struct inomap *im = r->imap;
	xfs_ino_t lo = agino_to_ino(&r->fs->geo, agno, 0);
	size_t i = 0, hi = im->ndirs, j = im_dblk_first(im, lo);

	/* the AG's first directory (they are sorted by inode number) */
	while (i < hi) {
		size_t mid = i + (hi - i) / 2;

		if (im->dirs[mid].dir < lo)
			i = mid + 1;
		else
			hi = mid;
	}
	for (;;) {
		xfs_ino_t di = NULLFSINO, bj = NULLFSINO, cur;

		if (i < im->ndirs &&
		    ino_to_agno(&r->fs->geo, im->dirs[i].dir) == agno)
			di = im->dirs[i].dir;
		if (j < im->ndblks &&
		    ino_to_agno(&r->fs->geo, im->dblks[j].dir) == agno)
			bj = im->dblks[j].dir;
		cur = di < bj ? di : bj;
		if (cur == NULLFSINO)
			break;
		if (di == cur)
			dir_refs(c, &im->dirs[i]);
		for (; j < im->ndblks && im->dblks[j].dir == cur; j++)
			dblk_words(c, &im->dblks[j]);
		if (di == cur) {
			if (revived(r, cur)) {
				struct rp_args a = RP_ARGS_INIT(OBJ_INODE);

				a.obj.ino = cur;
				a.obj.agno = agno;
				rp_say(c->out, PR_RP_INODE_REVIVED, &a);
			}
			i++;
		}
	}
}

/*
 * The other inodes its phase 3 cleared and this look keeps (a file whose
 * walk ended at an AG btree block or at a block of an inode cleared
 * before it: claims.c second_look_takes()): in use from here on.
 */
static void revived_files(struct p4ag *c, xfs_agnumber_t agno)
{
	const struct im_ag *ag = &c->r->imap->ags[agno];

	for (size_t i = 0; i < ag->n; i++) {
		const struct im_chunk *ch = &ag->v[i];
		uint64_t m = ch->revived & ~ch->isdir & ch->used;

		for (unsigned b = 0; m; b++, m >>= 1) {
			struct rp_args a = RP_ARGS_INIT(OBJ_INODE);

			if (!(m & 1))
				continue;
			a.obj.ino = agino_to_ino(&c->r->fs->geo, agno,
						 ch->startino + b);
			a.obj.agno = agno;
			rp_say(c->out, PR_RP_INODE_REVIVED, &a);
		}
	}
}

static void check_ag(struct repair *r, xfs_agnumber_t agno, void *arg)
{
	struct p4 *p = arg;
	struct p4ag c = { .r = r, .out = &p->seq.outs[agno] };

	rp_log(c.out, "        - agno = %u\n", agno);
	check_dir_refs(&c, agno);
	revived_files(&c, agno);
	sm_sort(r->smap, agno);
	sm_overlaps(r->smap, agno, conflict, &c);
	free(c.named);
	prog_add(agno, r->ags[agno].sum.icount);
	rp_seq_done(&p->seq, agno);
}

struct fsrun {
	uint64_t	pos;
	int		delta;		/* +-1 */
	int		side;		/* 0: bnobt, 1: cntbt */
};

static int fsrun_cmp(const void *pa, const void *pb)
{
	const struct fsrun *a = pa, *b = pb;

	if (a->pos != b->pos)
		return a->pos < b->pos ? -1 : 1;
	return a->delta - b->delta;	/* ends before starts */
}

static size_t add_events(struct fsrun *ev, size_t n, const struct sm_list *l,
			 int side)
{
	for (size_t i = 0; i < l->n; i++) {
		ev[n++] = (struct fsrun){ l->v[i].agbno, 1, side };
		ev[n++] = (struct fsrun){ (uint64_t)l->v[i].agbno + l->v[i].len,
					  -1, side };
	}
	return n;
}

/*
 * The free blocks one of the free space btrees lists and the other does
 * not, as the reference says them: in maximal runs, in block order.  (A
 * block listed twice by one tree and not by the other is still free to
 * it once only; an extent the two trees split differently shares its
 * blocks and is not said.)
 */
static void report_free_runs(struct repair *r, xfs_agnumber_t agno)
{
	const struct rp_ag *ag = &r->ags[agno];
	size_t n = 2 * (ag->free_bno.n + ag->free_cnt.n);
	struct fsrun *ev;
	int count[2] = { 0, 0 };
	uint64_t start = 0;
	bool open = false;
	int side = 0;

	if (!n || !(ev = malloc(n * sizeof(*ev))))
		return;
	n = add_events(ev, 0, &ag->free_bno, 0);
	n = add_events(ev, n, &ag->free_cnt, 1);
	qsort(ev, n, sizeof(*ev), fsrun_cmp);
	for (size_t i = 0; i < n;) {
		uint64_t pos = ev[i].pos;
		bool now;
		int nside;

		for (; i < n && ev[i].pos == pos; i++)
			count[ev[i].side] += ev[i].delta;
		now = (count[0] > 0) != (count[1] > 0);
		nside = count[1] > 0;
		if (open && (!now || nside != side) && pos > start) {
			struct rp_args a = RP_ARGS_INIT(OBJ_CNTBT);

			a.obj.agno = agno;
			a.expected = start;
			a.found = pos - 1;
			rp_say(NULL, side ? PR_CNTBT_EXTRA_EXTENT :
			       PR_CNTBT_MISSING_EXTENT, &a);
		}
		if (now && (!open || nside != side)) {
			start = pos;
			side = nside;
		}
		open = now;
	}
	free(ev);
}

/*
 * The reference looks for the root directory here, after phase 3: one
 * missing, free or not a directory would be lost.
 */
static void check_root(struct repair *r)
{
	xfs_ino_t root = r->fs->sb.rootino;
	const struct im_chunk *ch;
	unsigned bit;

	ch = im_find(r->imap, root, &bit);
	if (!ch || !((ch->used >> bit) & 1) || ((ch->cleared >> bit) & 1) ||
	    !((ch->isdir >> bit) & 1)) {
		struct rp_args a = RP_ARGS_INIT(OBJ_INODE);

		a.obj.ino = root;
		rp_say(NULL, PR_RP_NO_ROOT, &a);
		r->need_root = true;	/* phase 6: "would reinitialize" */
	}
}

void phase4(struct repair *r)
{
	struct p4 p;
	uint64_t total = 0;

	rp_log(NULL, "Phase 4 - check for duplicate blocks...\n");
	rp_log(NULL, "        - setting up duplicate extent list...\n");
	prog_set(PROG_SETUP_DUPS, r->fs->geo.agcount);
	prog_end();
	check_root(r);
	for (xfs_agnumber_t agno = 0; agno < r->fs->geo.agcount; agno++)
		if (r->ags[agno].free_compare)
			report_free_runs(r, agno);
	rp_log(NULL, "        - check for inodes claiming duplicate blocks...\n");
	if (rp_seq_init(&p.seq, r->fs->geo.agcount))
		rp_fatal(r, "out of memory\n");
	for (xfs_agnumber_t agno = 0; agno < r->fs->geo.agcount; agno++)
		total += r->ags[agno].sum.icount;
	prog_set(PROG_DUP_INODES, total);
	im_dirs_sort(r->imap);
	rp_run_ags(r, check_ag, &p);
	rp_seq_fini(&p.seq);
	prog_end();
}
