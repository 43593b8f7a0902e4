/*
 * walkfs: every inode and the namespace.
 *
 * Pass 1 reads every inode the inode btrees call allocated (walk_ag.c),
 * verifies its core, maps both forks (bmap.c), reads symlink targets and
 * attributes, and keeps a summary per inode.
 * Pass 2 walks the directory tree from the root (walk_dir.c), recording
 * each path, checking "." and "..", entry file types, and then link counts
 * and connectivity against pass 1.
 * The listing (tests/tools/LISTING.md) is printed from the paths of pass 2
 * and the summaries of pass 1.
 */
#include "config.h"
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "format/attr.h"
#include "format/dir.h"
#include "symlink.h"
#include "walkfs.h"

struct winode {
	xfs_ino_t	ino;
	bool		read;		/* summary filled */
	bool		bad;		/* could not be read */
	bool		in_inobt;	/* allocated per the inode btrees */
	bool		reached;	/* found in the namespace */
	uint16_t	mode;
	uint32_t	nlink;
	uint32_t	uid, gid;
	uint64_t	size;
	struct fs_timestamp mtime, ctime;
	uint32_t	rdev;
	uint32_t	refs;		/* directory entries naming it */
	uint32_t	subdirs;	/* for directories */
	xfs_ino_t	dotdot;		/* for directories: ".." */
	xfs_ino_t	parent;		/* for directories: who names it */
	char		*ext;		/* listing strings */
	char		*target;
	char		*xattr;
};

struct itable {
	struct winode	**slots;
	size_t		cap;
	size_t		n;
};

static size_t ihash(xfs_ino_t ino, size_t cap)
{
	uint64_t h = ino * 0x9e3779b97f4a7c15ull;

	return (size_t)(h >> 17) & (cap - 1);
}

static struct winode *itable_get(struct itable *t, xfs_ino_t ino, bool create)
{
	size_t i;

	if (create && (t->n + 1) * 2 > t->cap) {
		size_t ncap = t->cap ? t->cap * 2 : 1024;
		struct winode **ns = calloc(ncap, sizeof(*ns));

		if (!ns)
			return NULL;
		for (size_t k = 0; k < t->cap; k++) {
			struct winode *w = t->slots[k];

			if (!w)
				continue;
			for (i = ihash(w->ino, ncap); ns[i]; i = (i + 1) & (ncap - 1))
				;
			ns[i] = w;
		}
		free(t->slots);
		t->slots = ns;
		t->cap = ncap;
	}
	if (!t->cap)
		return NULL;
	for (i = ihash(ino, t->cap); t->slots[i]; i = (i + 1) & (t->cap - 1))
		if (t->slots[i]->ino == ino)
			return t->slots[i];
	if (!create)
		return NULL;
	t->slots[i] = calloc(1, sizeof(struct winode));
	if (!t->slots[i])
		return NULL;
	t->slots[i]->ino = ino;
	t->slots[i]->dotdot = NULLFSINO;
	t->slots[i]->parent = NULLFSINO;
	t->n++;
	return t->slots[i];
}

/* A growable string. */
struct sbuf {
	char	*s;
	size_t	n, cap;
};

static void sb_putn(struct sbuf *b, const char *p, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		size_t ncap = b->cap ? b->cap : 64;
		char *ns;

		while (ncap < b->n + n + 1)
			ncap *= 2;
		ns = realloc(b->s, ncap);
		if (!ns)
			abort();
		b->s = ns;
		b->cap = ncap;
	}
	memcpy(b->s + b->n, p, n);
	b->n += n;
	b->s[b->n] = 0;
}

static void sb_puts(struct sbuf *b, const char *p)
{
	sb_putn(b, p, strlen(p));
}

static void sb_printf(struct sbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	char tmp[128];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n > 0)
		sb_putn(b, tmp, (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

/* Escape as LISTING.md says: bytes outside 0x21..0x7e and \ = , as \xHH. */
static void sb_escape(struct sbuf *b, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint8_t c = p[i];

		if (c < 0x21 || c > 0x7e || c == '\\' || c == '=' || c == ',')
			sb_printf(b, "\\x%02x", c);
		else
			sb_putn(b, (const char *)&c, 1);
	}
}

struct walk_state {
	struct walk_ctx	*w;
	struct itable	it;
	bool		inobt_seen;	/* walk_ag_inodes reported inodes */
	/* pass 2 */
	struct path_ent {
		char		*path;
		xfs_ino_t	ino;
	}		*paths;
	size_t		npaths, cappaths;
};

static bool is_metadata_ino(const struct fs *fs, xfs_ino_t ino)
{
	const struct fs_sb *sb = &fs->sb;

	return ino == sb->rbmino || ino == sb->rsumino ||
	       ino == sb->uquotino || ino == sb->gquotino ||
	       ino == sb->pquotino;
}

struct attr_collect {
	char	**items;
	size_t	n, cap;
};

static int collect_attr(void *priv, unsigned flags, const uint8_t *name,
			unsigned namelen, const uint8_t *value,
			uint32_t valuelen)
{
	struct attr_collect *ac = priv;
	struct sbuf b = { 0 };

	if (flags & XFS_ATTR_ROOT)
		sb_puts(&b, "trusted.");
	else if (flags & XFS_ATTR_SECURE)
		sb_puts(&b, "security.");
	else
		sb_puts(&b, "user.");
	sb_escape(&b, name, namelen);
	sb_puts(&b, "=");
	if (!valuelen)
		sb_puts(&b, "-");
	for (uint32_t i = 0; i < valuelen; i++)
		sb_printf(&b, "%02x", value[i]);
	if (ac->n == ac->cap) {
		size_t ncap = ac->cap ? ac->cap * 2 : 16;
		char **ni = realloc(ac->items, ncap * sizeof(*ni));

		if (!ni)
			abort();
		ac->items = ni;
		ac->cap = ncap;
	}
	ac->items[ac->n++] = b.s;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Extents as L:P:N[u], merged where both sides are adjacent. */
static char *extents_string(const struct fs_geom *g, const struct fs_extents *el)
{
	struct sbuf b = { 0 };
	size_t i = 0;

	if (!el->n)
		return strdup("-");
	while (i < el->n) {
		uint64_t lo = el->v[i].br_startoff;
		uint64_t ph = fsb_to_linear(g, el->v[i].br_startblock);
		uint64_t len = el->v[i].br_blockcount;
		bool unw = el->v[i].br_unwritten;

		for (i++; i < el->n; i++) {
			const struct xfs_bmbt_irec *r = &el->v[i];

			if (r->br_startoff != lo + len ||
			    fsb_to_linear(g, r->br_startblock) != ph + len ||
			    r->br_unwritten != unw)
				break;
			len += r->br_blockcount;
		}
		sb_printf(&b, "%s%" PRIu64 ":%" PRIu64 ":%" PRIu64 "%s",
			  b.n ? "," : "", lo, ph, len, unw ? "u" : "");
	}
	return b.s;
}

/* Pass 1 for one inode: verify, map, summarise. */
static struct winode *summarise(struct walk_state *st, xfs_ino_t ino)
{
	struct walk_ctx *w = st->w;
	struct fs *fs = w->fs;
	struct winode *wi = itable_get(&st->it, ino, true);
	struct fs_inode in;
	struct fs_extents del, ael;
	uint64_t blocks = 0;

	if (!wi || wi->read)
		return wi;
	wi->read = true;
	if (inode_read(fs, ino, &in, w->fl)) {
		wi->bad = true;
		return wi;
	}
	w->ninodes++;
	wi->mode = in.mode;
	wi->nlink = in.nlink;
	wi->uid = in.uid;
	wi->gid = in.gid;
	wi->size = in.size;
	wi->mtime = in.mtime;
	wi->ctime = in.ctime;
	if (in.magic != XFS_DINODE_MAGIC || in.version != 3 || !in.mode) {
		wi->bad = true;
		goto out;
	}

	fork_extents(fs, &in, XFS_DATA_FORK, &del, NULL, NULL, w->fl);
	for (size_t i = 0; i < del.n; i++)
		blocks += del.v[i].br_blockcount;
	blocks += del.bmbt_blocks;
	if (inode_is_reg(&in)) {
		wi->ext = extents_string(&fs->geo, &del);
		w->nfiles++;
	} else if (inode_is_dir(&in)) {
		w->ndirs++;
	} else if (inode_is_symlink(&in)) {
		char target[XFS_SYMLINK_MAXLEN + 1];
		int n = symlink_read(fs, &in, &del, target, w->fl);

		if (n > 0) {
			struct sbuf b = { 0 };

			sb_escape(&b, (const uint8_t *)target, n);
			wi->target = b.s ? b.s : strdup("");
		}
	} else if (in.format == XFS_DINODE_FMT_DEV) {
		wi->rdev = inode_rdev(&in);
	}
	extents_free(&del);

	extents_init(&ael);
	if (inode_has_attr_fork(&in) && in.afork) {
		struct attr_collect ac = { 0 };

		fork_extents(fs, &in, XFS_ATTR_FORK, &ael, NULL, NULL, w->fl);
		for (size_t i = 0; i < ael.n; i++)
			blocks += ael.v[i].br_blockcount;
		blocks += ael.bmbt_blocks;
		walk_attrs(w, &in, &ael, collect_attr, &ac);
		if (ac.n) {
			struct sbuf b = { 0 };

			qsort(ac.items, ac.n, sizeof(*ac.items), cmp_str);
			for (size_t i = 0; i < ac.n; i++) {
				sb_printf(&b, "%s", i ? "," : "");
				sb_puts(&b, ac.items[i]);
				free(ac.items[i]);
			}
			wi->xattr = b.s;
		}
		free(ac.items);
	}
	extents_free(&ael);

	/* every block a fork maps, plus its bmbt blocks, is in nblocks */
	if (!(in.flags & XFS_DIFLAG_REALTIME) && blocks != in.nblocks) {
		struct fs_objref o = OBJREF_INIT(OBJ_INODE);

		o.ino = ino;
		o.agno = ino_to_agno(&fs->geo, ino);
		fs_report_val(w->fl, PR_INODE_BAD_NBLOCKS, &o, "core.nblocks",
			      blocks, in.nblocks);
	}
out:
	inode_release(&in);
	return wi;
}

static int pass1_inode(void *priv, xfs_ino_t ino)
{
	struct walk_state *st = priv;
	struct winode *wi;

	st->inobt_seen = true;
	wi = summarise(st, ino);
	if (wi)
		wi->in_inobt = true;
	return 0;
}

static void add_path(struct walk_state *st, const char *path, xfs_ino_t ino)
{
	if (st->npaths == st->cappaths) {
		size_t ncap = st->cappaths ? st->cappaths * 2 : 1024;
		struct path_ent *np = realloc(st->paths, ncap * sizeof(*np));

		if (!np)
			abort();
		st->paths = np;
		st->cappaths = ncap;
	}
	st->paths[st->npaths].path = strdup(path);
	st->paths[st->npaths].ino = ino;
	st->npaths++;
}

/* The directory queue of pass 2. */
struct dq_ent {
	xfs_ino_t	ino;
	char		*path;
};

struct dir_visit {
	struct walk_state	*st;
	struct winode		*dir;
	const char		*path;
	struct dq_ent		**queue;
	size_t			*qn, *qcap;
};

static int visit_entry(void *priv, const uint8_t *name, unsigned namelen,
		       xfs_ino_t ino, unsigned ftype)
{
	struct dir_visit *dv = priv;
	struct walk_state *st = dv->st;
	struct fs *fs = st->w->fs;
	struct fs_objref o = OBJREF_INIT(OBJ_DIR);
	struct winode *child;
	struct sbuf p = { 0 };

	o.ino = dv->dir->ino;
	if (namelen == 1 && name[0] == '.')
		return 0;	/* walk_dir checks "." points at itself */
	if (namelen == 2 && name[0] == '.' && name[1] == '.') {
		dv->dir->dotdot = ino;
		return 0;
	}
	if (!ino_valid(&fs->geo, ino))
		return 0;	/* walk_dir reported it */
	child = summarise(st, ino);
	if (!child)
		return -1;
	if (st->inobt_seen && !child->in_inobt) {
		fs_report_found(st->w->fl, PR_INODE_ENTRY_TO_FREE, &o, NULL, ino);
		return 0;
	}
	if (child->bad)
		return 0;
	child->refs++;
	if (fs->geo.has_ftype && ftype != inode_mode_ftype(child->mode))
		fs_report_val(st->w->fl, PR_INODE_BAD_FTYPE, &o, NULL,
			      inode_mode_ftype(child->mode), ftype);
	if (strcmp(dv->path, "/"))
		sb_puts(&p, dv->path);
	sb_puts(&p, "/");
	sb_escape(&p, name, namelen);
	add_path(st, p.s, ino);
	if ((child->mode & XFS_S_IFMT) == XFS_S_IFDIR) {
		dv->dir->subdirs++;
		if (child->parent != NULLFSINO) {
			o.ino = ino;
			fs_report_found(st->w->fl, PR_INODE_DIR_MULTIPLY_LINKED,
					&o, NULL, dv->dir->ino);
		} else {
			child->parent = dv->dir->ino;
			if (*dv->qn == *dv->qcap) {
				size_t ncap = *dv->qcap ? *dv->qcap * 2 : 256;
				struct dq_ent *nq = realloc(*dv->queue,
							    ncap * sizeof(*nq));

				if (!nq)
					abort();
				*dv->queue = nq;
				*dv->qcap = ncap;
			}
			(*dv->queue)[*dv->qn].ino = ino;
			(*dv->queue)[*dv->qn].path = p.s;
			(*dv->qn)++;
			return 0;
		}
	}
	free(p.s);
	return 0;
}

static void pass2_namespace(struct walk_state *st)
{
	struct walk_ctx *w = st->w;
	struct fs *fs = w->fs;
	struct dq_ent *queue = NULL;
	size_t qn = 0, qcap = 0, qi = 0;
	struct winode *root = summarise(st, fs->sb.rootino);
	struct fs_objref o = OBJREF_INIT(OBJ_INODE);

	if (!root || root->bad)
		return;
	if ((root->mode & XFS_S_IFMT) != XFS_S_IFDIR) {
		o.ino = root->ino;
		fs_report_found(w->fl, PR_INODE_BAD_ROOT, &o, "core.mode",
				root->mode);
		return;
	}
	root->parent = root->ino;
	root->refs++;		/* the root is its own parent */
	add_path(st, "/", root->ino);
	queue = malloc(sizeof(*queue));
	queue[0].ino = root->ino;
	queue[0].path = strdup("/");
	qn = qcap = 1;
	while (qi < qn) {
		struct dq_ent de = queue[qi++];
		struct winode *dir = itable_get(&st->it, de.ino, false);
		struct fs_inode in;
		struct fs_extents el;

		if (dir && !inode_read(w->fs, de.ino, &in, NULL)) {
			struct dir_visit dv = {
				.st = st, .dir = dir, .path = de.path,
				.queue = &queue, .qn = &qn, .qcap = &qcap,
			};

			fork_extents(w->fs, &in, XFS_DATA_FORK, &el, NULL, NULL,
				     NULL);
			walk_dir(w, &in, &el, visit_entry, &dv);
			extents_free(&el);
			inode_release(&in);
			if (dir->dotdot != NULLFSINO && dir->dotdot != dir->parent) {
				o.ino = dir->ino;
				fs_report_val(w->fl, PR_INODE_BAD_PARENT, &o, "..",
					      dir->parent, dir->dotdot);
			}
		}
		free(de.path);
	}
	free(queue);
}

static int cmp_winode(const void *a, const void *b)
{
	const struct winode *x = *(struct winode *const *)a;
	const struct winode *y = *(struct winode *const *)b;

	return x->ino < y->ino ? -1 : x->ino > y->ino;
}

/* Link counts and connectivity, in inode number order. */
static void check_links(struct walk_state *st)
{
	struct walk_ctx *w = st->w;
	struct fs *fs = w->fs;
	struct winode **v = malloc((st->it.n + 1) * sizeof(*v));
	size_t n = 0;

	if (!v)
		return;
	for (size_t i = 0; i < st->it.cap; i++)
		if (st->it.slots[i])
			v[n++] = st->it.slots[i];
	qsort(v, n, sizeof(*v), cmp_winode);
	for (size_t i = 0; i < n; i++) {
		struct winode *wi = v[i];
		struct fs_objref o = OBJREF_INIT(OBJ_INODE);
		uint32_t want;

		if (wi->bad || !wi->read)
			continue;
		o.ino = wi->ino;
		o.agno = ino_to_agno(&fs->geo, wi->ino);
		if (!wi->refs) {
			if (!is_metadata_ino(fs, wi->ino) && wi->in_inobt)
				fs_report(w->fl, PR_INODE_DISCONNECTED, &o, NULL);
			continue;
		}
		if ((wi->mode & XFS_S_IFMT) == XFS_S_IFDIR)
			want = 2 + wi->subdirs;
		else
			want = wi->refs;
		if (wi->nlink != want)
			fs_report_val(w->fl, PR_INODE_BAD_NLINK, &o, "core.nlinkv2",
				      want, wi->nlink);
	}
	free(v);
}

static const char *type_name(uint16_t mode)
{
	switch (mode & XFS_S_IFMT) {
	case XFS_S_IFREG: return "reg";
	case XFS_S_IFDIR: return "dir";
	case XFS_S_IFLNK: return "lnk";
	case XFS_S_IFCHR: return "chr";
	case XFS_S_IFBLK: return "blk";
	case XFS_S_IFIFO: return "fifo";
	case XFS_S_IFSOCK: return "sock";
	default: return "unknown";
	}
}

static int cmp_path(const void *a, const void *b)
{
	const struct path_ent *x = a, *y = b;

	return strcmp(x->path, y->path);
}

static void print_listing(struct walk_state *st)
{
	FILE *out = st->w->out;

	qsort(st->paths, st->npaths, sizeof(*st->paths), cmp_path);
	for (size_t i = 0; i < st->npaths; i++) {
		struct winode *wi = itable_get(&st->it, st->paths[i].ino, false);

		if (!wi || wi->bad)
			continue;
		fprintf(out, "%s ino=%" PRIu64 " type=%s mode=%04o nlink=%u uid=%u gid=%u size=%" PRIu64
			" mtime=%" PRId64 ".%09u ctime=%" PRId64 ".%09u",
			st->paths[i].path, wi->ino, type_name(wi->mode),
			wi->mode & 07777, wi->nlink, wi->uid, wi->gid, wi->size,
			wi->mtime.sec, wi->mtime.nsec, wi->ctime.sec,
			wi->ctime.nsec);
		if (wi->ext)
			fprintf(out, " ext=%s", wi->ext);
		if (wi->target)
			fprintf(out, " target=%s", wi->target);
		if ((wi->mode & XFS_S_IFMT) == XFS_S_IFCHR ||
		    (wi->mode & XFS_S_IFMT) == XFS_S_IFBLK)
			fprintf(out, " rdev=%u:%u", XFS_DEV_MAJOR(wi->rdev),
				XFS_DEV_MINOR(wi->rdev));
		if (wi->xattr)
			fprintf(out, " xattr=%s", wi->xattr);
		fputc('\n', out);
	}
}

void walk_inodes(struct walk_ctx *w)
{
	struct walk_state st = { .w = w };

	for (xfs_agnumber_t agno = 0; agno < w->fs->geo.agcount; agno++)
		walk_ag_inodes(w, agno, pass1_inode, &st);
	pass2_namespace(&st);
	check_links(&st);
	if (w->listing)
		print_listing(&st);
	for (size_t i = 0; i < st.npaths; i++)
		free(st.paths[i].path);
	free(st.paths);
	for (size_t i = 0; i < st.it.cap; i++) {
		struct winode *wi = st.it.slots[i];

		if (!wi)
			continue;
		free(wi->ext);
		free(wi->target);
		free(wi->xattr);
		free(wi);
	}
	free(st.it.slots);
}
