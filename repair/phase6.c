/*
 * Phase 6: connectivity.
 *
 * What it checks: from the root directory, every directory entry phase 3
 * collected is followed once -- each must name an inode in use (else the
 * entry would be junked: a free inode, or one that does not exist), a
 * directory must be entered in one directory only and its ".." must name
 * that directory (else the entry would be junked too, and the directory
 * reached through its ".." or moved to lost+found), and the entry's file
 * type must be the inode's.  A directory of blocks' "." and ".." are
 * entries too (a short-form directory stores neither): their types are
 * held to the directory and its parent, a ".." naming an inode not in
 * use is junked, a "." naming another inode is an entry like any other
 * (the reference knows "." by the inode it names) and the directory
 * would get a new ".".  (A first block phase 3 could not use is read
 * again here: the ".." in it is such an entry too.)
 * A directory of blocks that loses an entry
 * would be rebuilt, and one whose block or leaf index names an entry
 * junked for its inode has a bad hash table.  The data blocks phase 3
 * found damaged are read again as the reference reads them (struct
 * im_dblk): one whose header names another owner, block or filesystem is
 * skipped, its entries unread (their inodes not reached, a "." to be
 * made); one whose entries do not parse is junked, its entries unread
 * too; a wrong magic number is fixed.  "." is the entry first in block 0
 * naming the directory (rp_dot_entry); one naming it further on is junked.  A block or leaf directory's leaf entries are matched with
 * its data entries as phase 3 found them (im_dir.hashck), or else with
 * those left after the junking.  Every
 * inode in use that no path from the root reaches is disconnected (the
 * reference would move it to lost+found): first the tops of disconnected
 * directory trees, whose subtrees are then walked as well, then whatever
 * is left.  Inodes on an AGI unlinked list are treated like any other
 * (as the reference does): an orphan is disconnected.
 *
 * What it builds for phase 7: im_chunk.counted[], the links each inode
 * would have -- one per entry naming it, plus, for a directory, its "."
 * and the ".." of each subdirectory; an inode that would be moved to
 * lost+found gets the link lost+found would give it.
 *
 * What stays true: the walk is iterative (a queue), so a deep or cyclic
 * tree cannot exhaust the stack, and each directory is expanded once.
 * Entry names are only needed for messages: a directory with something
 * to report is read once more, and its entries are matched with the
 * problems by position (phase 3 kept them in the order its blocks give
 * them) -- so a directory of a million bad entries costs one read, not a
 * million.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "array.h"
#include "dir.h"
#include "progress.h"
#include "repair.h"

/* A problem with one entry of the directory being expanded. */
struct p6_prob {
	size_t		pos;		/* entry index in the directory */
	xfs_ino_t	child;
	enum fs_problem	code;
	uint64_t	expected;	/* the ".." a subdirectory has */
	uint64_t	ftype_found, ftype_want;
	bool		dotdot;		/* the problem is the ".." entry */
	bool		dot;		/* ... or a "." naming no inode */
	char		*name;		/* its name, if not found by pos */
	uint32_t	sfoff;		/* a short-form duplicate's place */
};

struct p6 {
	struct repair		*r;
	xfs_ino_t		*queue;
	size_t			qhead, qtail, qcap;
	struct p6_prob		*probs;
	size_t			nprobs, capprobs;
};

/*
 * The ".." a directory's blocks say, NULLFSINO if they say none, or 0 if
 * phase 3 could not read them and kept the directory all the same (its
 * parent is unknown).
 */
static xfs_ino_t dotdot_of(const struct p6 *p, xfs_ino_t dir)
{
	const struct im_dir *d = im_dir_find(p->r->imap, dir);

	return d ? d->dotdot : NULLFSINO;
}

static void push(struct p6 *p, xfs_ino_t ino)
{
	xfs_ino_t *nq = fs_array_grow(p->queue, &p->qcap, p->qtail + 1,
				      sizeof(*nq), 1024);

	if (!nq)
		rp_fatal(p->r, "out of memory walking the namespace\n");
	p->queue = nq;
	p->queue[p->qtail++] = ino;
}

static void add_prob(struct p6 *p, size_t pos, xfs_ino_t child,
		     enum fs_problem code, uint64_t expected)
{
	struct p6_prob *x, *nv;

	nv = fs_array_grow(p->probs, &p->capprobs, p->nprobs + 1, sizeof(*nv),
			   16);
	if (!nv)
		return;
	p->probs = nv;
	x = &p->probs[p->nprobs++];
	memset(x, 0, sizeof(*x));
	x->pos = pos;
	x->child = child;
	x->code = code;
	x->expected = expected;
}

static bool in_use(const struct im_chunk *ch, unsigned bit)
{
	return ch && ((ch->used >> bit) & 1) && !((ch->cleared >> bit) & 1);
}

/* Whether a problem junks the entry (the reference's "nbad"). */
static bool junks(enum fs_problem code)
{
	return code != PR_RP_BAD_FTYPE && code != PR_RP_DOTDOT_MISSING &&
	       code != PR_RP_UNKNOWN_PARENT && code != PR_RP_DOT_CREATE &&
	       code != PR_RP_SF_DOTDOT_SET;
}

/*
 * The file type a "." or ".." entry says (IM_FT_NONE: none to check)
 * against the inode it names, as the reference checks them when it
 * reads the directory's first block: "." always (it comes first), ".."
 * only if no entry before it was junked.
 */
static void check_dot_ftype(struct p6 *p, size_t pos, xfs_ino_t target,
			    uint8_t said)
{
	struct im_chunk *ch;
	unsigned bit;

	if (said == IM_FT_NONE || !p->r->fs->geo.has_ftype)
		return;
	for (size_t i = 0; i < p->nprobs; i++)
		if (junks(p->probs[i].code))
			return;
	ch = im_find(p->r->imap, target, &bit);
	if (!in_use(ch, bit) || ch->ftype[bit] == said)
		return;
	add_prob(p, pos, target, PR_RP_BAD_FTYPE, 0);
	p->probs[p->nprobs - 1].ftype_found = said;
	p->probs[p->nprobs - 1].ftype_want = ch->ftype[bit];
}

/*
 * A directory block's ".." entry, where the reference reads it: one
 * naming an inode not in use is junked like any other entry (the type
 * of a junked entry is not looked at).
 */
static void check_dotdot(struct p6 *p, const struct im_dir *d, size_t pos)
{
	xfs_ino_t dd = d->dotdot;
	uint8_t ft = d->dotdot_ftype;
	struct im_chunk *ch;
	unsigned bit;

	/* a first block phase 3 could not use: the ".." read again in it */
	if ((dd == 0 || dd == NULLFSINO) && d->late_dotdot != NULLFSINO) {
		dd = d->late_dotdot;
		ft = d->late_dotdot_ftype;
	} else if (!dotdot_in_block(d)) {
		return;
	}
	ch = im_find(p->r->imap, dd, &bit);
	if (!in_use(ch, bit)) {
		add_prob(p, pos, dd, ch ? PR_RP_DIR_ENTRY_BAD_INO :
			 PR_RP_DIR_ENTRY_NO_INO, 0);
		p->probs[p->nprobs - 1].dotdot = true;
		return;
	}
	check_dot_ftype(p, pos, dd, ft);
}

/* An inode the reference's libxfs cannot read (phase3.c says which). */
static bool unreadable(const struct im_chunk *ch, unsigned bit)
{
	return ch && ((ch->unreadable >> bit) & 1);
}

/*
 * "couldn't map inode N": the reference's library refused to load it --
 * after naming the inode number at which the short-form directory
 * verifier refused it, if that was why.
 */
void rp_say_unmapped(const struct inomap *im, xfs_ino_t ino,
		     enum fs_problem code, struct rp_args *a)
{
	const struct im_dir *d = im_dir_find(im, ino);
	struct im_chunk *ch;
	unsigned bit;

	ch = im_find(im, ino, &bit);
	if (ch && ((ch->btree_refused >> bit) & 1)) {
		struct rp_args b = RP_ARGS_INIT(OBJ_INODE);

		b.obj.ino = ino;
		rp_say(NULL, PR_RP_BMBT_ROOT_REFUSED, &b);
	}
	if (d && d->sf_badino != NULLFSINO) {
		struct rp_args b = RP_ARGS_INIT(OBJ_INODE);

		b.obj.ino = ino;
		b.found = d->sf_badino;
		rp_say(NULL, PR_RP_INO_NUMBER_INVALID, &b);
	}
	rp_say(NULL, code, a);
}

/* Names of the problem entries, read in one pass over the directory. */
struct names {
	struct p6	*p;
	xfs_ino_t	dir;
	size_t		pos;		/* entries seen so far, not ".." or
					   the "." that names dir */
	size_t		next;		/* next problem to name */
	bool		shortform;
	char		(*name)[256];
};

static int names_cb(void *priv, const uint8_t *name, unsigned namelen,
		    xfs_ino_t ino, unsigned ftype, xfs_dablk_t dablk,
		    uint32_t offset)
{
	struct names *n = priv;
	struct p6 *p = n->p;

	(void)ftype;
	if (!rp_entry_edge(n->shortform, n->dir, name, namelen, ino, dablk,
			   offset))
		return 0;
	/* problems are in position order; several may share a position */
	while (n->next < p->nprobs && p->probs[n->next].pos == n->pos) {
		if (p->probs[n->next].child == ino) {
			memcpy(n->name[n->next], name, namelen);
			n->name[n->next][namelen] = '\0';
		}
		n->next++;
	}
	n->pos++;
	return n->next < p->nprobs ? 0 : 1;
}

/*
 * The data blocks phase 3 found the reference reads again here (struct
 * im_dblk): one whose header is another's is skipped, one whose entries
 * do not parse is junked, one whose magic number is wrong but whose
 * entries parse gets the right one.  Returns whether a block was skipped
 * or junked: its entries are then missing from those the leaf entries
 * are matched with.
 */
static bool dblks_words(struct p6 *p, xfs_ino_t dir)
{
	const struct inomap *im = p->r->imap;
	bool junked = false;

	for (size_t j = im_dblk_first(im, dir);
	     j < im->ndblks && im->dblks[j].dir == dir; j++) {
		const struct im_dblk *b = &im->dblks[j];
		struct rp_args a = RP_ARGS_INIT(OBJ_DIR);

		a.obj.ino = dir;
		a.obj.index = b->dablk;
		if (b->hdr) {
			static const enum fs_problem code[] = {
				[IM_DBLK_HDR_OWNER] = PR_RP_DIR_HDR_OWNER,
				[IM_DBLK_HDR_BLKNO] = PR_RP_DIR_HDR_BLKNO,
				[IM_DBLK_HDR_UUID] = PR_RP_DIR_HDR_UUID,
			};

			/* none of its entries is read */
			a.obj.daddr = b->daddr;
			a.found = b->found;
			rp_say(NULL, code[b->hdr], &a);
			junked = true;
		} else if ((b->flags & IM_DBLK_JUNK) &&
			   !(b->flags & IM_DBLK_BLOCK)) {
			rp_say(NULL, PR_RP_DIR_DATA_JUNK, &a);
			junked = true;
		} else if (b->flags & IM_DBLK_MAGIC) {
			a.found = b->magic;
			a.expected = (b->flags & IM_DBLK_BLOCK) ?
				     XFS_DIR3_BLOCK_MAGIC : XFS_DIR3_DATA_MAGIC;
			rp_say(NULL, PR_RP_DIR_MAGIC_FIX, &a);
		}
	}
	return junked;
}

/* Whether phase 6 has words for a directory's blocks or leaf. */
static bool dir_has_words(const struct p6 *p, const struct im_dir *d)
{
	const struct inomap *im = p->r->imap;
	size_t j = im_dblk_first(im, d->dir);

	return d->hashck != IM_HASH_OK ||
	       (j < im->ndblks && im->dblks[j].dir == d->dir);
}

static const char *const hash_words[] = {
	[IM_HASH_DUPLEAF]	= "duplicate leaf",
	[IM_HASH_BADHASH]	= "hash value mismatch",
	[IM_HASH_NODATA]	= "no data entry",
	[IM_HASH_NOLEAF]	= "no leaf entry",
	[IM_HASH_BADSTALE]	= "bad stale count",
};

static void report_dir(struct p6 *p, xfs_ino_t dir)
{
	struct repair *r = p->r;
	struct names n = { .p = p, .dir = dir };
	const struct im_dir *d = im_dir_find(r->imap, dir);
	struct fs_inode ip;
	struct im_chunk *ch;
	unsigned bit;
	bool shortform = false, junked = false, nodata = false, node = false;
	bool block_form = false;
	uint8_t hashck = d ? d->hashck : IM_HASH_OK;

	n.name = calloc(p->nprobs ? p->nprobs : 1, sizeof(*n.name));
	if (!n.name)
		goto out;
	for (size_t i = 0; i < p->nprobs; i++)
		strcpy(n.name[i], "?");
	if (!inode_read(r->fs, dir, &ip, NULL)) {
		struct fs_extents el;

		shortform = ip.format == XFS_DINODE_FMT_LOCAL;
		extents_init(&el);
		if (!shortform &&
		    !fork_extents(r->fs, &ip, XFS_DATA_FORK, &el, NULL, NULL,
				  NULL))
		{
			enum dir_form form = dir_form_of(&r->fs->geo, &el);

			node = form == DIR_FORM_NODE;
			block_form = form == DIR_FORM_BLOCK;
		}
		extents_free(&el);
		n.shortform = shortform;
		if (p->nprobs)
			dir_iterate_pos(r->fs, &ip, NULL, names_cb, &n, NULL);
		/* short-form duplicates, which the walk does not give */
		for (size_t i = 0; shortform && i < p->nprobs; i++) {
			xfs_ino_t ino;
			uint8_t ft;

			if (p->probs[i].code == PR_RP_DIR_DUP_NAME &&
			    p->probs[i].sfoff &&
			    (!rp_sf_entry_at(&r->fs->geo, &ip,
					     p->probs[i].sfoff, n.name[i], &ino,
					     &ft) || ino != p->probs[i].child))
				strcpy(n.name[i], "?");
		}
		inode_release(&ip);
	}
	/*
	 * A leaf directory's block junked or skipped: the leaf names its
	 * entries.  (A block-form directory's block skipped is not matched
	 * with its leaf at all.)
	 */
	if (dblks_words(p, dir)) {
		if (!node)
			hashck = block_form ? IM_HASH_OK : IM_HASH_NODATA;
		else
			nodata = true;
	}
	for (size_t i = 0; i < p->nprobs; i++) {
		const struct p6_prob *x = &p->probs[i];
		struct rp_args a = RP_ARGS_INIT(OBJ_DIR);

		if (junks(x->code))
			junked = true;
		if (x->code == PR_RP_DIR_ENTRY_BAD_INO ||
		    x->code == PR_RP_DIR_ENTRY_NO_INO)
			nodata = true;

		a.obj.ino = x->child;
		if (x->code == PR_RP_BAD_FTYPE) {
			a.found = x->ftype_found;
			a.expected = x->ftype_want;
			a.v2 = dir;
		} else {
			a.found = dir;
			a.expected = x->expected;
			a.s1 = x->dotdot ? ".." : x->dot ? "." :
			       x->name ? x->name : n.name[i];
			if (x->code == PR_RP_DOT_NOT_FIRST)
				a.obj.ino = dir;
			if (shortform)
				a.field = "shortform";
		}
		rp_say(NULL, x->code, &a);
	}
	/*
	 * An entry junked for the inode it names is left out of the names
	 * the reference matches the leaf entries with, so a block or leaf
	 * directory's leaf has an entry with no data entry.  A node
	 * directory's leaves it checks without a word, but for a data entry
	 * no leaf entry names when every leaf entry is right (phase 3 says
	 * which: IM_HASH_NOLEAF).
	 */
	if (node && (nodata || hashck != IM_HASH_NOLEAF))
		hashck = IM_HASH_OK;
	else if (hashck == IM_HASH_OK && nodata)
		hashck = IM_HASH_NODATA;
	if (hashck != IM_HASH_OK && !shortform) {
		struct rp_args a = RP_ARGS_INIT(OBJ_INODE);

		a.obj.ino = dir;
		if (hashck == IM_HASH_NODATA) {
			rp_say(NULL, PR_RP_DIR_HASH_NODATA, &a);
		} else {
			a.s1 = hash_words[hashck];
			rp_say(NULL, PR_RP_DIR_HASH_BAD, &a);
		}
	}
	/*
	 * An entry junked from a directory of blocks means a rebuild (a
	 * short-form one is edited in place), said once.
	 */
	ch = im_find(r->imap, dir, &bit);
	if (junked && !shortform && ch && !((ch->rebuild >> bit) & 1)) {
		struct rp_args a = RP_ARGS_INIT(OBJ_INODE);

		a.obj.ino = dir;
		rp_say(NULL, PR_RP_DIR_REBUILD, &a);
		ch->rebuild |= 1ull << bit;
	}
	free(n.name);
out:
	for (size_t i = 0; i < p->nprobs; i++)
		free(p->probs[i].name);
	p->nprobs = 0;
}

/*
 * The entries phase 6 of the reference does not read: those of a data
 * block whose header is another's (IM_DBLK_HDR_*), and those of a leaf or
 * node directory's data block it junks (its entries do not parse to the
 * end: none of them is kept, the inodes only they name are disconnected).
 * Phase 3 kept them in the order the blocks give them; reading the
 * directory again with positions tells which block each is in.
 */
struct unread {
	const struct inomap	*im;
	xfs_ino_t		dir;
	size_t			pos, n;
	bool			*skip;		/* per entry (edge) */
	bool			dot, dotdot;	/* "." and ".." unread */
	bool			sf;
};

/* Whether phase 6 of the reference leaves a data block's entries unread. */
static bool dblk_unread(const struct im_dblk *b)
{
	return b->hdr != IM_DBLK_HDR_OK ||
	       ((b->flags & IM_DBLK_JUNK) && !(b->flags & IM_DBLK_BLOCK));
}

static bool block_unread(const struct inomap *im, xfs_ino_t dir,
			 xfs_dablk_t dablk)
{
	for (size_t j = im_dblk_first(im, dir);
	     j < im->ndblks && im->dblks[j].dir == dir; j++)
		if (im->dblks[j].dablk == dablk && dblk_unread(&im->dblks[j]))
			return true;
	return false;
}

static int unread_cb(void *priv, const uint8_t *name, unsigned namelen,
		     xfs_ino_t ino, unsigned ftype, xfs_dablk_t dablk,
		     uint32_t offset)
{
	struct unread *u = priv;
	bool s = block_unread(u->im, u->dir, dablk);

	(void)ftype;
	if (namelen == 2 && name[0] == '.' && name[1] == '.') {
		u->dotdot |= s;
		return 0;
	}
	if (rp_dot_entry(u->sf, u->dir, name, namelen, ino, dablk, offset)) {
		u->dot |= s;
		return 0;
	}
	if (rp_entry_marked(u->sf, name, namelen))
		return 0;
	if (u->pos < u->n)
		u->skip[u->pos] = s;
	u->pos++;
	return 0;
}

/* Fill u for directory d if a block of it is unread (else u->skip NULL). */
static void find_unread(struct p6 *p, const struct im_dir *d,
			struct unread *u)
{
	const struct inomap *im = p->r->imap;
	bool any = false;
	struct fs_inode ip;

	memset(u, 0, sizeof(*u));
	u->im = im;
	u->dir = d->dir;
	u->sf = d->sf;
	for (size_t j = im_dblk_first(im, d->dir);
	     j < im->ndblks && im->dblks[j].dir == d->dir; j++)
		any |= dblk_unread(&im->dblks[j]);
	if (!any)
		return;
	u->n = d->n;
	u->skip = calloc(d->n ? d->n : 1, sizeof(*u->skip));
	if (!u->skip || inode_read(p->r->fs, d->dir, &ip, NULL)) {
		free(u->skip);
		u->skip = NULL;
		return;
	}
	dir_iterate_pos(p->r->fs, &ip, NULL, unread_cb, u, NULL);
	inode_release(&ip);
}

/*
 * The entries of a data block the verifier refused in phase 3 (its
 * checksum right) whose inode number is no inode's at all: phase 3 kept
 * none of them, and the reference's phase 6, reading the block whole
 * again, junks each ("points to non-existent inode N").  "." and ".."
 * are looked at elsewhere (late_dotent, check_dotdot), a name marked
 * cleared ('/' first) is skipped as the reference skips it, and so is a
 * number with bits above a 32-bit AG number (the reference cuts them
 * off, and may find an inode there).
 */
struct late {
	struct p6	*p;
	size_t		pos;
};

static void late_entry(void *priv, const uint8_t *name, unsigned namelen,
		       xfs_ino_t ino, uint32_t off)
{
	struct late *l = priv;
	const struct fs_geom *g = &l->p->r->fs->geo;
	struct p6_prob *x;
	size_t n0;

	(void)off;
	if (!namelen || name[0] == '/' || (name[0] == '.' &&
	    (namelen == 1 || (namelen == 2 && name[1] == '.'))) ||
	    ino_valid(g, ino) || (ino >> g->agino_log) > UINT32_MAX)
		return;
	n0 = l->p->nprobs;
	add_prob(l->p, l->pos, ino, PR_RP_DIR_ENTRY_NO_INO, 0);
	if (l->p->nprobs == n0)
		return;		/* no memory for it */
	x = &l->p->probs[n0];
	x->name = malloc(namelen + 1);
	if (x->name) {
		memcpy(x->name, name, namelen);
		x->name[namelen] = '\0';
	}
}

static void late_entries(struct p6 *p, const struct im_dir *d)
{
	const struct inomap *im = p->r->imap;
	struct late l = { .p = p, .pos = d->n };
	struct fs_extents el;
	struct fs_inode ip;
	bool any = false;

	for (size_t j = im_dblk_first(im, d->dir);
	     j < im->ndblks && im->dblks[j].dir == d->dir; j++)
		any |= (im->dblks[j].flags & IM_DBLK_REREAD) &&
		       !dblk_unread(&im->dblks[j]);
	if (!any || inode_read(p->r->fs, d->dir, &ip, NULL))
		return;
	extents_init(&el);
	if (!fork_extents(p->r->fs, &ip, XFS_DATA_FORK, &el, NULL, NULL,
			  NULL))
		for (size_t j = im_dblk_first(im, d->dir);
		     j < im->ndblks && im->dblks[j].dir == d->dir; j++) {
			const struct im_dblk *b = &im->dblks[j];

			if ((b->flags & IM_DBLK_REREAD) && !dblk_unread(b))
				rp_dblk_entries(p->r->fs, &el, b->dablk,
						b->flags & IM_DBLK_BLOCK,
						late_entry, &l);
		}
	extents_free(&el);
	inode_release(&ip);
}

/* Walk every directory reachable from the queue. */
static void walk(struct p6 *p)
{
	struct repair *r = p->r;
	bool ftype = r->fs->geo.has_ftype;

	while (p->qhead < p->qtail) {
		xfs_ino_t dir = p->queue[p->qhead++];
		const struct im_dir *d = im_dir_find(r->imap, dir);
		struct im_chunk *dch;
		unsigned dbit;
		struct unread u;
		bool first_dot, seen_self;

		dch = im_find(r->imap, dir, &dbit);
		if (unreadable(dch, dbit)) {
			struct rp_args a = RP_ARGS_INIT(OBJ_INODE);

			/* its entries stay unread: what they name is not reached */
			a.obj.ino = dir;
			rp_say_unmapped(r->imap, dir, PR_RP_DIR_UNREADABLE, &a);
			continue;
		}
		/*
		 * Its blocks the kernel cannot map: the reference would
		 * rebuild it and reads no entry, not even its "." (it would
		 * create one, and counts it as the parent did).
		 */
		if (dch && ((dch->ext_refused >> dbit) & 1)) {
			struct rp_args a = RP_ARGS_INIT(OBJ_INODE);

			a.obj.ino = dir;
			if ((dch->ext_short >> dbit) & 1)
				rp_say(NULL, PR_RP_BMBT_EXTENTS_REFUSED, &a);
			if (!((dch->rebuild >> dbit) & 1)) {
				rp_say(NULL, PR_RP_DIR_REBUILD, &a);
				dch->rebuild |= 1ull << dbit;
			}
			rp_say(NULL, PR_RP_DOT_CREATE, &a);
			continue;
		}
		if (!d)
			continue;
		find_unread(p, d, &u);
		first_dot = d->dot_ftype != IM_FT_NONE || d->late_dot;
		seen_self = false;
		if (!u.dot)
			check_dot_ftype(p, 0, dir, d->dot_ftype);
		/* a first block read again whose first entry names it */
		if (d->dot_ftype == IM_FT_NONE && d->late_dot)
			check_dot_ftype(p, 0, dir, d->late_dot_ftype);
		/* a "." read again that names no inode: junked as an entry */
		if (d->late_dotent != NULLFSINO) {
			struct im_chunk *lch;
			unsigned lbit;

			lch = im_find(r->imap, d->late_dotent, &lbit);
			add_prob(p, 0, d->late_dotent, lch ?
				 PR_RP_DIR_ENTRY_BAD_INO :
				 PR_RP_DIR_ENTRY_NO_INO, 0);
			p->probs[p->nprobs - 1].dot = true;
		}
		for (size_t k = 0; k < d->n; k++) {
			const struct im_edge *e = &r->imap->edges.v[d->first + k];
			struct im_chunk *ch;
			unsigned bit;

			if (k == d->dotdot_pos && !u.dotdot)
				check_dotdot(p, d, k);
			if (u.skip && u.skip[k])
				continue;

			ch = im_find(r->imap, e->child, &bit);
			if (!in_use(ch, bit)) {
				add_prob(p, k, e->child, ch ?
					 PR_RP_DIR_ENTRY_BAD_INO :
					 PR_RP_DIR_ENTRY_NO_INO, 0);
				continue;
			}
			/* a name an entry before it has: junked, not followed */
			if (e->flags & IM_EDGE_DUP) {
				size_t n0 = p->nprobs;

				add_prob(p, k, e->child, PR_RP_DIR_DUP_NAME, 0);
				if (p->nprobs > n0)
					p->probs[n0].sfoff = e->sfoff;
				continue;
			}
			/*
			 * Another entry naming the directory itself, not
			 * first in block 0: a "." to the reference, which
			 * counts it and junks it there, its type unlooked at,
			 * and then creates no other "." (the first such
			 * counts as the "." counted when the directory was
			 * reached, if none came first).
			 */
			if (e->child == dir && !d->sf) {
				if (first_dot || seen_self)
					ch->counted[bit]++;
				seen_self = true;
				add_prob(p, k, dir, PR_RP_DOT_NOT_FIRST, 0);
				continue;
			}
			if (ftype && e->ftype != ch->ftype[bit]) {
				add_prob(p, k, e->child, PR_RP_BAD_FTYPE, 0);
				p->probs[p->nprobs - 1].ftype_found = e->ftype;
				p->probs[p->nprobs - 1].ftype_want =
					ch->ftype[bit];
			}
			if (e->child == dir)
				continue;
			if (!((ch->isdir >> bit) & 1)) {
				ch->counted[bit]++;
				ch->reached |= 1ull << bit;
				continue;
			}
			if ((ch->reached >> bit) & 1) {
				add_prob(p, k, e->child,
					 PR_RP_MULTIPLY_LINKED_DIR, 0);
				continue;
			}
			{
				xfs_ino_t dd = dotdot_of(p, e->child);

				if (dd == NULLFSINO) {
					const struct im_dir *cd =
						im_dir_find(r->imap, e->child);

					add_prob(p, k, e->child,
						 PR_RP_DOTDOT_MISSING, 0);
					/* a short-form one is set in place */
					if (cd && cd->sf_reset)
						add_prob(p, k, e->child,
							 PR_RP_SF_DOTDOT_SET,
							 0);
					/*
					 * The reference then reads a directory
					 * of blocks (one phase 3 found damaged)
					 * once more to set its "..", and under
					 * -n that pass skips the "." it has:
					 * it would create one, and counts it.
					 */
					if ((ch->rebuild >> bit) & 1) {
						add_prob(p, k, e->child,
							 PR_RP_DOT_CREATE, 0);
						ch->counted[bit]++;
					}
				} else if (dd != dir) {
					/*
					 * The entry is junked: the directory
					 * is reached through its ".." or
					 * else moved to lost+found.
					 */
					if (dd == 0)
						add_prob(p, k, e->child,
							 PR_RP_UNKNOWN_PARENT, 0);
					add_prob(p, k, e->child,
						 PR_RP_BAD_DOTDOT, dd);
					continue;
				}
				/*
				 * The entry, the subdir's ".", its ".." here
				 * (the reference counts the "." as it reads
				 * the subdir, and reads none it cannot map).
				 */
				ch->counted[bit] += unreadable(ch, bit) ? 1 : 2;
				if (dch)
					dch->counted[dbit]++;
			}
			ch->reached |= 1ull << bit;
			push(p, e->child);
		}
		if (d->dotdot_pos >= d->n && !u.dotdot)
			check_dotdot(p, d, d->n);
		late_entries(p, d);
		/*
		 * A first block read with a ".." but no "." naming the
		 * directory, or one whose "." is not read: the reference
		 * would create one (and counts the link it gives, as we did
		 * above).
		 */
		if ((d->dotdot_ftype != IM_FT_NONE &&
		     d->dot_ftype == IM_FT_NONE && !seen_self) || u.dot ||
		    (d->dotdot == 0 && d->late_read && !d->late_dot &&
		     !seen_self))
			add_prob(p, d->n, dir, PR_RP_DOT_CREATE, 0);
		free(u.skip);
		if (p->nprobs || dir_has_words(p, d))
			report_dir(p, dir);
	}
}

/* Metadata inodes: not in the namespace, never disconnected. */
static void mark_metadata(struct repair *r)
{
	const struct fs_sb *sb = &r->fs->sb;
	const xfs_ino_t meta[5] = { sb->rbmino, sb->rsumino, sb->uquotino,
				    sb->gquotino, sb->pquotino };

	for (unsigned i = 0; i < 5; i++) {
		struct im_chunk *ch;
		unsigned bit;

		if (meta[i] == 0 || meta[i] == NULLFSINO)
			continue;
		ch = im_find(r->imap, meta[i], &bit);
		if (ch) {
			ch->reached |= 1ull << bit;
			ch->counted[bit] = ch->nlink[bit];
		}
	}
}

/*
 * Disconnected inodes, in inode order: directory trees first (those
 * whose ".." does not lead to an unreached directory), then the rest.
 */
static void find_disconnected(struct p6 *p)
{
	struct repair *r = p->r;

	for (int pass = 0; pass < 3; pass++) {
		for (xfs_agnumber_t agno = 0; agno < r->imap->agcount; agno++) {
			struct im_ag *ag = &r->imap->ags[agno];

			for (size_t k = 0; k < ag->n; k++) {
				struct im_chunk *ch = &ag->v[k];
				uint64_t todo = ch->used & ~ch->cleared &
						~ch->reached;

				if (pass < 2)
					todo &= ch->isdir;
				for (unsigned bit = 0; todo; bit++) {
					xfs_ino_t ino;
					struct rp_args a = RP_ARGS_INIT(OBJ_INODE);
					bool dir;

					if (!((todo >> bit) & 1))
						continue;
					todo &= ~(1ull << bit);
					if ((ch->reached >> bit) & 1)
						continue;
					ino = agino_to_ino(&r->fs->geo, agno,
							   ch->startino + bit);
					dir = (ch->isdir >> bit) & 1;
					if (dir && pass == 0) {
						/* wait if its parent is an unreached dir */
						xfs_ino_t dd = dotdot_of(p, ino);
						struct im_chunk *pc;
						unsigned pb;

						pc = im_find(r->imap, dd, &pb);
						if (dd != ino && in_use(pc, pb) &&
						    ((pc->isdir >> pb) & 1) &&
						    !((pc->reached >> pb) & 1))
							continue;
					}
					a.obj.ino = ino;
					a.obj.agno = agno;
					rp_say(NULL, dir ? PR_RP_DISCONNECTED_DIR :
					       PR_RP_DISCONNECTED_INODE, &a);
					ch->reached |= 1ull << bit;
					/*
					 * the entry lost+found would give it,
					 * and a directory's "." if it is read
					 */
					ch->counted[bit] += dir &&
						!unreadable(ch, bit) ? 2 : 1;
					if (dir) {
						push(p, ino);
						walk(p);
					}
				}
			}
		}
	}
}

/* What phase 3 would clear and this phase would make again. */
static void say_reinit(struct repair *r)
{
	struct rp_args a = RP_ARGS_INIT(OBJ_INODE);

	a.obj.ino = r->fs->sb.rootino;
	if (r->need_root)
		rp_say(NULL, PR_RP_ROOT_REINIT, &a);
	a.obj.ino = r->fs->sb.rbmino;
	if (r->need_rbm)
		rp_say(NULL, PR_RP_RBM_REINIT, &a);
	a.obj.ino = r->fs->sb.rsumino;
	if (r->need_rsum)
		rp_say(NULL, PR_RP_RSUM_REINIT, &a);
}

void phase6(struct repair *r)
{
	struct p6 p = { .r = r };
	xfs_ino_t root = r->fs->sb.rootino;
	struct im_chunk *ch;
	unsigned bit;

	rp_log(NULL, "Phase 6 - check inode connectivity...\n");
	say_reinit(r);
	rp_log(NULL, "        - traversing filesystem ...\n");
	im_dirs_sort(r->imap);
	mark_metadata(r);

	ch = im_find(r->imap, root, &bit);
	/* (no root directory: phase 4 said so; everything is disconnected) */
	if (in_use(ch, bit) && ((ch->isdir >> bit) & 1)) {
		xfs_ino_t dd = unreadable(ch, bit) ? root : dotdot_of(&p, root);

		if (dd != root) {
			struct rp_args a = RP_ARGS_INIT(OBJ_DIR);

			a.obj.ino = root;
			a.found = dd;
			rp_say(NULL, dd == NULLFSINO ? PR_RP_NO_DOTDOT :
			       PR_RP_ROOT_DOTDOT, &a);
		}
		/*
		 * The root's "." and its own ".." -- or, if the reference
		 * cannot read it, the one link it gives the root so that it
		 * is not disconnected.
		 */
		ch->counted[bit] += unreadable(ch, bit) ? 1 : 2;
		ch->reached |= 1ull << bit;
		push(&p, root);
		walk(&p);
	}
	if (r->o.verbose)
		for (xfs_agnumber_t agno = 0; agno < r->fs->geo.agcount; agno++)
			rp_log(NULL, "        - agno = %u\n", agno);
	rp_log(NULL, "        - traversal finished ...\n");
	rp_log(NULL, "        - moving disconnected inodes to lost+found ...\n");
	find_disconnected(&p);
	free(p.queue);
	free(p.probs);
}
