/*
 * Phase 6: connectivity.
 *
 * What it checks: from the root directory, every directory entry phase 3
 * collected is followed once -- each must name an inode in use (else the
 * entry would be junked), a directory must be entered in one directory
 * only and its ".." must name that directory, and the entry's file type
 * must be the inode's.  Every inode in use that no path from the root
 * reaches is disconnected (the reference would move it to lost+found):
 * first the tops of disconnected directory trees, whose subtrees are then
 * walked as well, then whatever is left.
 *
 * What it builds for phase 7: im_chunk.counted[], the links each inode
 * would have -- one per entry naming it, plus, for a directory, its "."
 * and the ".." of each subdirectory; an inode that would be moved to
 * lost+found gets the link lost+found would give it.
 *
 * What stays true: the walk is iterative (a queue), so a deep or cyclic
 * tree cannot exhaust the stack, and each directory is expanded once.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "dir.h"
#include "repair.h"

struct p6 {
	struct repair		*r;
	const struct im_edge	*e;
	size_t			ne;
	xfs_ino_t		*queue;
	size_t			qhead, qtail, qcap;
};

/* The first edge of a parent in the sorted edges, or ne. */
static size_t first_edge(const struct p6 *p, xfs_ino_t parent)
{
	size_t lo = 0, hi = p->ne;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->e[mid].parent < parent)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The ".." a directory's entries say, or NULLFSINO. */
static xfs_ino_t dotdot_of(const struct p6 *p, xfs_ino_t dir)
{
	size_t i = first_edge(p, dir);

	if (i < p->ne && p->e[i].parent == dir && p->e[i].is_dotdot)
		return p->e[i].child;
	return NULLFSINO;
}

struct name_find {
	xfs_ino_t	child;
	unsigned	skip;		/* matches to pass over first */
	char		name[256];
	bool		found;
	bool		shortform;	/* the directory is short form */
};

static int name_cb(void *priv, const uint8_t *name, unsigned namelen,
		   xfs_ino_t ino, unsigned ftype)
{
	struct name_find *f = priv;

	(void)ftype;
	if (ino != f->child || (namelen <= 2 && name[0] == '.' &&
				(namelen == 1 || name[1] == '.')))
		return 0;
	if (f->skip) {
		f->skip--;
		return 0;
	}
	memcpy(f->name, name, namelen);
	f->name[namelen] = '\0';
	f->found = true;
	return 1;
}

/*
 * The name under which dir lists child for the nth time (from 0), for
 * messages (read again: this is only done for entries that are
 * reported).  Entries come in the order dir_iterate gives them in phase
 * 3 as well, so the nth edge from dir to child is the nth such entry.
 */
static void entry_name(struct repair *r, xfs_ino_t dir, xfs_ino_t child,
		       unsigned nth, struct name_find *f)
{
	struct fs_inode ip;

	memset(f, 0, sizeof(*f));
	f->child = child;
	f->skip = nth;
	if (inode_read(r->fs, dir, &ip, NULL))
		return;
	f->shortform = ip.format == XFS_DINODE_FMT_LOCAL;
	dir_iterate(r->fs, &ip, NULL, name_cb, f, NULL);
	inode_release(&ip);
	if (!f->found)
		strcpy(f->name, "?");
}

static void say_entry(struct repair *r, enum fs_problem code, xfs_ino_t dir,
		      xfs_ino_t child, unsigned nth, uint64_t expected)
{
	struct rp_args a = RP_ARGS_INIT(OBJ_DIR);
	struct name_find f;

	entry_name(r, dir, child, nth, &f);
	if (f.shortform)
		a.field = "shortform";
	a.obj.ino = child;
	a.found = dir;
	a.expected = expected;
	a.s1 = f.name;
	rp_say(NULL, code, &a);
}

static void push(struct p6 *p, xfs_ino_t ino)
{
	if (p->qtail == p->qcap) {
		size_t ncap = p->qcap ? p->qcap * 2 : 1024;
		xfs_ino_t *nq = realloc(p->queue, ncap * sizeof(*nq));

		if (!nq)
			rp_fatal(p->r, "out of memory walking the namespace\n");
		p->queue = nq;
		p->qcap = ncap;
	}
	p->queue[p->qtail++] = ino;
}

static bool in_use(const struct im_chunk *ch, unsigned bit)
{
	return ch && ((ch->used >> bit) & 1) && !((ch->cleared >> bit) & 1);
}

/* Walk every directory reachable from the queue. */
static void walk(struct p6 *p)
{
	struct repair *r = p->r;
	bool ftype = r->fs->geo.has_ftype;

	while (p->qhead < p->qtail) {
		xfs_ino_t dir = p->queue[p->qhead++];

		for (size_t i = first_edge(p, dir);
		     i < p->ne && p->e[i].parent == dir; i++) {
			const struct im_edge *e = &p->e[i];
			struct im_chunk *ch;
			unsigned bit, nth = 0;

			if (e->is_dotdot)
				continue;
			/* the how-manieth entry of dir naming this child */
			while (nth < i - first_edge(p, dir) &&
			       p->e[i - nth - 1].child == e->child &&
			       !p->e[i - nth - 1].is_dotdot)
				nth++;
			ch = im_find(r->imap, e->child, &bit);
			if (!in_use(ch, bit)) {
				say_entry(r, ch ? PR_RP_DIR_ENTRY_BAD_INO :
					  PR_RP_DIR_ENTRY_NO_INO, dir,
					  e->child, nth, 0);
				continue;
			}
			if (ftype && e->ftype != ch->ftype[bit]) {
				struct rp_args a = RP_ARGS_INIT(OBJ_DIR);

				a.obj.ino = e->child;
				a.found = e->ftype;
				a.expected = ch->ftype[bit];
				a.v2 = dir;
				rp_say(NULL, PR_RP_BAD_FTYPE, &a);
			}
			if (!((ch->isdir >> bit) & 1)) {
				ch->counted[bit]++;
				ch->reached |= 1ull << bit;
				continue;
			}
			if ((ch->reached >> bit) & 1) {
				say_entry(r, PR_RP_MULTIPLY_LINKED_DIR, dir,
					  e->child, nth, 0);
				continue;
			}
			{
				xfs_ino_t dd = dotdot_of(p, e->child);
				struct im_chunk *pch;
				unsigned pbit;

				if (dd == NULLFSINO) {
					/* a rebuilt directory gets one anyway */
					if (!((ch->rebuild >> bit) & 1))
						say_entry(r, PR_RP_DOTDOT_MISSING,
							  dir, e->child, nth, 0);
				} else if (dd != dir) {
					say_entry(r, PR_RP_BAD_DOTDOT, dir,
						  e->child, nth, dd);
				}
				/* the entry, the subdir's ".", its ".." here */
				ch->counted[bit] += 2;
				pch = im_find(r->imap, dir, &pbit);
				if (pch)
					pch->counted[pbit]++;
			}
			ch->reached |= 1ull << bit;
			push(p, e->child);
		}
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
						~ch->reached & ~ch->unlinked;

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
					/* the entry lost+found would give it */
					ch->counted[bit] += dir ? 2 : 1;
					if (dir) {
						push(p, ino);
						walk(p);
					}
				}
			}
		}
	}
}

void phase6(struct repair *r)
{
	struct p6 p = { .r = r };
	xfs_ino_t root = r->fs->sb.rootino;
	struct im_chunk *ch;
	unsigned bit;

	rp_log(NULL, "Phase 6 - check inode connectivity...\n");
	rp_log(NULL, "        - traversing filesystem ...\n");
	im_edges_sort(r->imap);
	p.e = r->imap->edges.v;
	p.ne = r->imap->edges.n;
	mark_metadata(r);

	ch = im_find(r->imap, root, &bit);
	if (!in_use(ch, bit) || !((ch->isdir >> bit) & 1)) {
		struct rp_args a = RP_ARGS_INIT(OBJ_INODE);

		a.obj.ino = root;
		rp_say(NULL, PR_RP_NO_ROOT, &a);
	} else {
		xfs_ino_t dd = dotdot_of(&p, root);

		if (dd != root) {
			struct rp_args a = RP_ARGS_INIT(OBJ_DIR);

			a.obj.ino = root;
			a.found = dd;
			rp_say(NULL, dd == NULLFSINO ? PR_RP_NO_DOTDOT :
			       PR_RP_ROOT_DOTDOT, &a);
		}
		/* the root's "." and its own ".." */
		ch->counted[bit] += 2;
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
}
