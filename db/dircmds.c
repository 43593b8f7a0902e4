/*
 * Commands that walk directories: path (names from the root to an
 * inode), ls (the entries of a directory, with their cookies and hashes)
 * and ncheck (every inode's name, after "blockget -n").
 *
 * Name lookups and the name table use libfs's directory reader
 * (dir_lookup, dir_iterate).  ls shows each entry's directory cookie, its
 * byte address in the directory; for that it walks the data blocks with
 * the dir3 field tables, the same description print uses.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "db.h"
#include "bmap.h"
#include "dir.h"
#include "inode.h"
#include "format/ondisk.h"

/* Resolve a path from ino (or the root for an absolute path). */
static int resolve(const char *path, xfs_ino_t start, xfs_ino_t *out,
		   const char **why)
{
	xfs_ino_t ino = path[0] == '/' ? db.fs->sb.rootino : start;
	char *copy = strdup(path), *p, *tok, *save;
	int err = 0;

	*why = NULL;
	if (!copy)
		return -ENOMEM;
	for (p = copy; (tok = strtok_r(p, "/", &save)); p = NULL) {
		struct fs_inode ip;
		struct fs_findings fl;
		xfs_ino_t child;

		if (ino == NULLFSINO) {
			*why = "Not a directory";
			err = -ENOTDIR;
			break;
		}
		findings_init(&fl);
		err = inode_read(db.fs, ino, &ip, &fl);
		if (err) {
			findings_free(&fl);
			*why = "cannot read inode";
			break;
		}
		if (!inode_is_dir(&ip)) {
			inode_release(&ip);
			findings_free(&fl);
			*why = "Not a directory";
			err = -ENOTDIR;
			break;
		}
		err = dir_lookup(db.fs, &ip, NULL, (const uint8_t *)tok,
				 strlen(tok), &child, &fl);
		inode_release(&ip);
		findings_free(&fl);
		if (err) {
			*why = strerror(-err);
			break;
		}
		ino = child;
	}
	free(copy);
	*out = ino;
	return err;
}

/* ---- path ---- */

static int path_f(int argc, char **argv)
{
	xfs_ino_t ino;
	const char *why;

	(void)argc;
	if (resolve(argv[1], cur_top()->ino, &ino, &why)) {
		dbprintf("%s: %s\n", argv[1], why);
		return 0;
	}
	set_cur_inode(ino);
	return 0;
}

/* ---- ls ---- */

static const char *const ftype_names[] = {
	"unknown", "regular", "directory", "chardev", "blkdev", "fifo",
	"socket", "symlink", "whiteout",
};

struct ls_ctx {
	const struct fs_inode	*dir;
	bool			ino_only;
};

static void ls_entry(struct ls_ctx *lc, uint64_t cookie, const uint8_t *name,
		     unsigned namelen, xfs_ino_t ino, unsigned ftype)
{
	xfs_ino_t found = NULLFSINO;
	struct fs_findings fl;
	bool good;

	findings_init(&fl);
	good = !dir_lookup(db.fs, lc->dir, NULL, name, namelen, &found, &fl) &&
	       found == ino;
	findings_free(&fl);
	dbprintf("%-10llu %-18llu %-14s 0x%08x %3u %.*s (%s)\n",
		 (unsigned long long)cookie, (unsigned long long)ino,
		 ftype < sizeof(ftype_names) / sizeof(ftype_names[0]) ?
		 ftype_names[ftype] : "unknown",
		 da_hashname(name, namelen), namelen, namelen,
		 (const char *)name, good ? "good" : "bad");
}

/* A short-form directory: "." and ".." are implied, then the entries. */
static void ls_sf(struct ls_ctx *lc)
{
	const struct fs_inode *ip = lc->dir;
	const uint8_t *f = ip->dfork;
	uint32_t size = ip->dfork_size, off;
	bool i8;
	unsigned n, i;
	xfs_ino_t parent;

	if (size < XFS_DIR2_SF_HDR_SIZE(0))
		return;
	n = f[0];
	i8 = f[1] != 0;
	parent = i8 ? load_be64(f + 2) : load_be32(f + 2);
	ls_entry(lc, 0x40 >> 3, (const uint8_t *)".", 1, ip->ino,
		 XFS_DIR3_FT_DIR);
	ls_entry(lc, 0x50 >> 3, (const uint8_t *)"..", 2, parent,
		 XFS_DIR3_FT_DIR);
	off = XFS_DIR2_SF_HDR_SIZE(i8);
	for (i = 0; i < n; i++) {
		unsigned nl, ft = 0;
		uint32_t eoff, ilen = i8 ? 8 : 4;
		xfs_ino_t ino;

		if (off + 3 > size)
			break;
		nl = f[off];
		eoff = load_be16(f + off + 1);
		if (off + 3 + nl + (db.fs->geo.has_ftype ? 1 : 0) + ilen > size)
			break;
		if (db.fs->geo.has_ftype)
			ft = f[off + 3 + nl];
		ino = i8 ? load_be64(f + off + 3 + nl + (db.fs->geo.has_ftype ? 1 : 0)) :
			   load_be32(f + off + 3 + nl + (db.fs->geo.has_ftype ? 1 : 0));
		ls_entry(lc, eoff >> 3, f + off + 3, nl, ino, ft);
		off += 3 + nl + (db.fs->geo.has_ftype ? 1 : 0) + ilen;
	}
}

/* One data (or single-block) directory block, through the dir3 table. */
static void ls_block(struct ls_ctx *lc, const uint8_t *data, uint32_t len,
		     uint64_t base)
{
	struct cursor tmp = { .typ = typ_dir3, .buf = (uint8_t *)data,
			      .len = len };
	struct fld_ctx c;
	const struct fld *f;
	int i, n;

	cur_ctx(&tmp, &c);
	f = fld_find(typ_dir3->type->sub, fld_dir3_kind(&c) == FLD_DIR_BLOCK ?
		     "bu" : "du");
	if (!f)
		return;
	n = fld_count(&c, f, 0);
	for (i = 0; i < n; i++) {
		uint64_t off = fld_elem_bit(&c, f, 0, i) / 8, cookie;
		unsigned nl, ft;

		if (off + 11 > len || load_be16(data + off) == XFS_DIR2_DATA_FREE_TAG)
			continue;
		nl = data[off + 8];
		if (off + 9 + nl + 1 > len)
			break;
		ft = db.fs->geo.has_ftype ? data[off + 9 + nl] : 0;
		/*
		 * A single-block directory gives each entry's own address;
		 * the leaf and node forms give the address after it (as
		 * their readdir does).
		 */
		cookie = base + off;
		if (fld_dir3_kind(&c) != FLD_DIR_BLOCK)
			cookie += dir2_data_entsize(db.fs->geo.has_ftype, nl);
		ls_entry(lc, cookie >> 3, data + off + 9, nl,
			 load_be64(data + off), ft);
	}
}

static void ls_blocks(struct ls_ctx *lc)
{
	const struct fs_geom *g = &db.fs->geo;
	struct fs_extents el;
	struct fs_findings fl;
	xfs_fileoff_t leaf = XFS_DIR2_LEAF_OFFSET >> g->blocklog, off;
	size_t i;

	extents_init(&el);
	findings_init(&fl);
	if (fork_extents(db.fs, lc->dir, XFS_DATA_FORK, &el, NULL, NULL, &fl))
		goto out;
	for (i = 0; i < el.n; i++) {
		const struct xfs_bmbt_irec *r = &el.v[i];

		for (off = r->br_startoff & ~((xfs_fileoff_t)g->dirblkfsbs - 1);
		     off < r->br_startoff + r->br_blockcount && off < leaf;
		     off += g->dirblkfsbs) {
			struct fs_buf *bp;

			if (off < r->br_startoff)
				continue;
			if (fork_read(db.fs, &el, off, g->dirblkfsbs, NULL, &fl,
				      &bp))
				continue;
			ls_block(lc, bp->data, bp->len, off << g->blocklog);
			buf_release(bp);
		}
	}
out:
	findings_free(&fl);
	extents_free(&el);
}

static void ls_dir(xfs_ino_t ino, bool ino_only, const char *label)
{
	struct fs_inode ip;
	struct fs_findings fl;
	struct ls_ctx lc = { &ip, ino_only };

	findings_init(&fl);
	if (inode_read(db.fs, ino, &ip, &fl)) {
		findings_free(&fl);
		dbprintf("%s: cannot read inode\n", label);
		return;
	}
	findings_free(&fl);
	if (ino_only) {
		dbprintf("%llu\n", (unsigned long long)ino);
	} else if (!inode_is_dir(&ip)) {
		dbprintf("%s: Not a directory\n", label);
	} else {
		if (*label)
			dbprintf("%s:\n", label);
		if (ip.format == XFS_DINODE_FMT_LOCAL)
			ls_sf(&lc);
		else
			ls_blocks(&lc);
	}
	inode_release(&ip);
}

static int ls_f(int argc, char **argv)
{
	struct cursor *c = cur_top();
	bool ino_only = false;
	int ch, i;

	optind = 0;
	while ((ch = getopt(argc, argv, "i")) != -1) {
		if (ch != 'i') {
			dbprintf("bad option for ls command\n");
			return 0;
		}
		ino_only = true;
	}
	if (optind == argc) {
		if (c->ino == NULLFSINO || (c->mode & XFS_S_IFMT) != XFS_S_IFDIR) {
			dbprintf("Not a directory\n");
			return 0;
		}
		ls_dir(c->ino, ino_only, "");
		return 0;
	}
	for (i = optind; i < argc; i++) {
		xfs_ino_t ino;
		const char *why;

		/* the reference resolves only absolute names here */
		if (argv[i][0] != '/') {
			dbprintf("%s: Not a directory\n", argv[i]);
			continue;
		}
		if (resolve(argv[i], c->ino, &ino, &why)) {
			dbprintf("%s: %s\n", argv[i], why);
			continue;
		}
		ls_dir(ino, ino_only, argv[i]);
	}
	return 0;
}

/* ---- the name table (blockget -n) and ncheck ---- */

struct iname {
	xfs_ino_t	ino;
	xfs_ino_t	parent;		/* NULLFSINO: no name seen */
	char		*name;
	bool		isdir, security;
	struct iname	*next;		/* hash chain */
};

static struct iname **itab;	/* [agno * hsize + bucket] */
static unsigned hsize;

/* The reference's hash: chains per AG, bucket = AG inode number % size. */
static struct iname **ichain(xfs_ino_t ino)
{
	const struct fs_geom *g = &db.fs->geo;

	return &itab[(size_t)ino_to_agno(g, ino) * hsize +
		     ino_to_agino(g, ino) % hsize];
}

static struct iname *ifind(xfs_ino_t ino)
{
	struct iname *n;

	if (!itab || ino_to_agno(&db.fs->geo, ino) >= db.fs->geo.agcount)
		return NULL;
	for (n = *ichain(ino); n; n = n->next)
		if (n->ino == ino)
			return n;
	return NULL;
}

/* The entry of ino, added at the head of its chain if new. */
static struct iname *iadd(xfs_ino_t ino)
{
	struct iname *n = ifind(ino), **chain;

	if (n || ino_to_agno(&db.fs->geo, ino) >= db.fs->geo.agcount)
		return n;
	n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	n->ino = ino;
	n->parent = NULLFSINO;
	chain = ichain(ino);
	n->next = *chain;
	*chain = n;
	return n;
}

struct names_scan {
	xfs_ino_t	dir;
};

static int names_entry(void *priv, const uint8_t *name, unsigned namelen,
		       xfs_ino_t ino, unsigned ftype)
{
	struct names_scan *ns = priv;
	struct iname *n;

	(void)ftype;
	if ((namelen == 1 && name[0] == '.') ||
	    (namelen == 2 && name[0] == '.' && name[1] == '.'))
		return 0;
	n = iadd(ino);
	if (!n || n->name)
		return 0;
	n->name = malloc(namelen + 1);
	if (!n->name)
		return 0;
	memcpy(n->name, name, namelen);
	n->name[namelen] = 0;
	n->parent = ns->dir;
	return 0;
}

/*
 * Inodes join the table in the order the reference's checker meets
 * them: in inode order, and a directory's children as soon as the
 * directory is read (that order is the order ncheck prints in).
 */
static void names_inode(xfs_ino_t ino, const uint8_t *raw, void *priv)
{
	uint16_t mode = load_be16(raw + offsetof(struct xfs_dinode, di_mode));
	unsigned fmt = mode & XFS_S_IFMT;
	struct iname *n = iadd(ino);

	(void)priv;
	if (!n)
		return;
	n->isdir = fmt == XFS_S_IFDIR;
	n->security = (mode & 06000) || fmt == XFS_S_IFCHR ||
		      fmt == XFS_S_IFBLK || fmt == XFS_S_IFIFO ||
		      fmt == XFS_S_IFSOCK;
	if (n->isdir) {
		struct fs_inode ip;
		struct fs_findings fl;
		struct names_scan ns = { ino };

		if (inode_decode(&db.fs->geo, ino, raw, &ip))
			return;
		findings_init(&fl);
		dir_iterate(db.fs, &ip, NULL, names_entry, &ns, &fl);
		findings_free(&fl);
		inode_release(&ip);
	}
}

void names_free(void)
{
	size_t i;

	if (!itab)
		return;
	for (i = 0; i < (size_t)db.fs->geo.agcount * hsize; i++) {
		struct iname *n = itab[i], *next;

		for (; n; n = next) {
			next = n->next;
			free(n->name);
			free(n);
		}
	}
	free(itab);
	itab = NULL;
}

/* Called by blockget -n: every inode and every directory's names. */
void blockget_names(void)
{
	const struct fs_geom *g = &db.fs->geo;
	uint64_t per = db.fs->sb.icount / (8ull * g->agcount);

	names_free();
	hsize = per < 256 ? 256 : per > 65536 ? 65536 : (unsigned)per;
	itab = calloc((size_t)g->agcount * hsize, sizeof(*itab));
	if (!itab)
		return;
	scan_all_inodes(names_inode, NULL);
}

/* "a/b/c" for an inode that has a name, or NULL. */
char *inode_path(xfs_ino_t ino)
{
	struct iname *n = ifind(ino);
	char *path = NULL;
	unsigned depth = 0;

	if (!n || !n->name)
		return NULL;
	while (n && n->name && depth++ < 4096) {
		size_t len = strlen(n->name) + (path ? strlen(path) + 1 : 0) + 1;
		char *p = malloc(len);

		if (!p)
			break;
		if (path)
			snprintf(p, len, "%s/%s", n->name, path);
		else
			snprintf(p, len, "%s", n->name);
		free(path);
		path = p;
		n = ifind(n->parent);
	}
	return path;
}

static void ncheck_one(const struct iname *n)
{
	char *p = inode_path(n->ino);

	if (!p)
		return;
	dbprintf("%11llu %s%s\n", (unsigned long long)n->ino, p,
		 n->isdir ? "/." : "");
	free(p);
}

static int ncheck_f(int argc, char **argv)
{
	bool security = false;
	xfs_ino_t *list = NULL;
	size_t nlist = 0, i;
	int c;

	if (!itab || !blockmap_have_names()) {
		dbprintf("must run blockget -n first\n");
		return 0;
	}
	optind = 0;
	while ((c = getopt(argc, argv, "i:s")) != -1) {
		switch (c) {
		case 'i': {
			xfs_ino_t *l = realloc(list, (nlist + 1) * sizeof(*l));

			if (!l)
				break;
			list = l;
			list[nlist++] = strtoull(optarg, NULL, 10);
			break;
		}
		case 's':
			security = true;
			break;
		default:
			dbprintf("bad option -%c for ncheck command\n", optopt);
			free(list);
			return 0;
		}
	}
	if (list) {
		for (i = 0; i < nlist; i++) {
			struct iname *n = ifind(list[i]);

			if (n)
				ncheck_one(n);
		}
		free(list);
		return 0;
	}
	for (i = 0; i < (size_t)db.fs->geo.agcount * hsize; i++) {
		struct iname *n;

		for (n = itab[i]; n; n = n->next)
			if (!security || n->security)
				ncheck_one(n);
	}
	return 0;
}

static const struct db_cmd dir_cmds[] = {
	{ "ls", "l", ls_f, 0, -1, false, true, "[-i] [paths...]",
	  "list directory contents" },
	{ "ncheck", NULL, ncheck_f, 0, -1, false, true, "[-s] [-i ino] ...",
	  "print inode-name pairs" },
	{ "path", NULL, path_f, 1, 1, false, true, "",
	  "navigate to an inode by path" },
};

void dir_cmds_init(void)
{
	register_cmds(dir_cmds, sizeof(dir_cmds) / sizeof(dir_cmds[0]));
}
