/*
 * blockget/check: walk the whole filesystem the way the reference's
 * checker does and report every inconsistency it reports, in its words
 * and its order.
 *
 * Per AG, in order: the superblock copy and the log, the AGF, AGI and
 * AGFL (the free list), the free space btrees (bnobt records mark blocks
 * "free1", cntbt records turn them "free2"), the reverse-mapping and
 * reference count trees, the inode btree (each record's chunk, and each
 * inode in it: its forks' blocks, its link count, its directory entries),
 * the free inode btree, then the AG's counters.  Afterwards: the root
 * directory, blocks nobody claimed, link counts, the realtime bitmap and
 * summary, and the superblock counters.  Every block carries one use;
 * a second claim is reported ("block 1/24 expected type free1 got
 * unknown"), as is a second owner inode.  Messages go to stdout, the exit
 * code becomes 3 when anything was found (2 when a tree could not be
 * walked at all, 1 when the log is dirty), as the reference.
 *
 * Everything is read raw: a block with a bad CRC is still examined, and
 * every length and count read from disk is checked against the buffer
 * before it is followed.
 */
#include "config.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "blockmap.h"
#include "ag.h"
#include "btree.h"
#include "dir.h"
#include "format/ondisk.h"

#define NULLAGINO_	0xffffffffu
#define NULLDATAOFF	0xffffu
#define DIR_HASH_SIZE	1024
#define DA_NODE_MAXDEPTH 5

/* One name-hash/address pair of a directory's data blocks. */
struct dhash {
	struct dhash	*next;
	uint32_t	hashval, address;
	bool		seen;
};

/* An extent of a file, by file offset (directories, rt bitmap/summary). */
struct fext {
	uint64_t	off, blk, len;
};

struct fmap {
	struct fext	*v;
	size_t		n, cap;
};

struct ck {
	struct blockmap	*m;
	const struct fs_geom *g;
	const struct fs_sb *sb;
	bool		sflag, verbose, nflag;
	uint64_t	*blist;		/* -b: blocks to trace */
	unsigned	nblist;
	unsigned long	error;
	unsigned	serious;
	bool		lazycount;
	unsigned	sbversion;
	/* counted over the whole filesystem */
	uint64_t	fdblocks, frextents, icount, ifree, agf_aggr;
	/* the superblock's counters, as the mount recomputes them */
	uint64_t	sb_icount, sb_ifree, sb_fdblocks;
	/* counted in the AG being walked */
	uint32_t	agffreeblks, agflongest, agfbtreeblks;
	uint32_t	agicount, agifreecount;
	xfs_agnumber_t	agno;
	/* the directory being walked */
	struct dhash	*dh[DIR_HASH_SIZE];
	uint16_t	*freetab;
	uint32_t	nfree, capfree;
	/* realtime summary, computed and as on disk */
	uint32_t	*sumcompute, *sumfile;
	unsigned	rsumlevels;
	struct fmap	rbm, rsum;
	bool		have_rbm, have_rsum;
};

static void finding(struct ck *c, bool show, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A finding: counted always, printed when show. */
static void finding(struct ck *c, bool show, const char *fmt, ...)
{
	va_list ap;

	c->error++;
	if (!show)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

/* The usual finding: printed unless -s. */
#define ckprint(c, ...)	finding((c), !(c)->sflag, __VA_ARGS__)

/* Is this filesystem block one of -b's? */
static bool blisted(const struct ck *c, uint64_t fsb)
{
	unsigned i;

	for (i = 0; i < c->nblist; i++)
		if (c->blist[i] == fsb)
			return true;
	return false;
}

static bool blisted_ag(const struct ck *c, xfs_agnumber_t agno,
		       xfs_agblock_t agbno)
{
	return c->nblist &&
	       blisted(c, ((uint64_t)agno << c->g->agblklog) | agbno);
}

/* A message printed even with -s (the reference prints these always). */
static void ckalways(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static void ckalways(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

/* ---- reading ---- */

static struct fs_buf *rd(xfs_daddr_t d, uint32_t bytes)
{
	struct fs_findings fl;
	struct fs_buf *bp = NULL;

	findings_init(&fl);
	if (bcache_read(db.fs->bc, d, bytes, NULL, &fl, &bp))
		bp = NULL;
	findings_free(&fl);
	return bp;
}

/* An AG block, computed as the reference does even past the AG's end. */
static xfs_daddr_t agb_daddr(const struct fs_geom *g, xfs_agnumber_t agno,
			     xfs_agblock_t agbno)
{
	return (xfs_daddr_t)(((uint64_t)agno * g->agblocks + agbno)
			     << g->blkbb_log);
}

static const uint8_t *at(const struct fs_buf *bp, size_t off, size_t len)
{
	return off + len <= bp->len ? bp->data + off : NULL;
}

static uint8_t get8(const uint8_t *base, size_t size, size_t off)
{
	return off < size ? base[off] : 0;
}

/* ---- the inode table ---- */

static struct ckino *find_inode(struct ck *c, xfs_ino_t ino, bool add)
{
	struct blockmap *m = c->m;
	const struct fs_geom *g = c->g;
	xfs_agnumber_t agno = ino_to_agno(g, ino);
	xfs_agino_t agino = ino_to_agino(g, ino);
	uint32_t *head, i;
	struct ckino *e;

	if (agno >= g->agcount || agino_to_ino(g, agno, agino) != ino)
		return NULL;
	head = &m->hash[agno][agino % m->hsize];
	for (i = *head; i; i = ckino_at(m, i)->next)
		if (ckino_at(m, i)->ino == ino)
			return ckino_at(m, i);
	if (!add)
		return NULL;
	if ((m->ninos >> CKINO_CHUNK_LOG) == m->nchunks) {
		struct ckino **v = realloc(m->chunks, (m->nchunks + 1) *
					   sizeof(*v));

		if (!v)
			return NULL;
		m->chunks = v;
		v[m->nchunks] = malloc(CKINO_CHUNK * sizeof(**v));
		if (!v[m->nchunks])
			return NULL;
		m->nchunks++;
	}
	e = ckino_at(m, ++m->ninos);
	memset(e, 0, sizeof(*e));
	e->ino = ino;
	e->idx = m->ninos;
	e->next = *head;
	*head = m->ninos;
	return e;
}

static uint32_t ino_index(const struct ckino *e)
{
	return e ? e->idx : 0;
}

static void addlink(struct ck *c, struct ckino *e)
{
	e->link_add++;
	if (c->verbose || e->ilist)
		printf("inode %lld add link, now %u\n", (long long)e->ino,
		       e->link_add);
}

static void addname_inode(struct ck *c, struct ckino *e, const uint8_t *name,
			  unsigned len)
{
	if (!c->nflag || e->name)
		return;
	e->name = malloc(len + 1);
	if (!e->name)
		return;
	memcpy(e->name, name, len);
	e->name[len] = '\0';
}

/* "a/b/c" from the names and parents seen, or NULL. */
static char *inode_name(struct ck *c, struct ckino *e)
{
	char *path, *np;
	uint32_t depth = 0;

	if (!e || !e->name)
		return NULL;
	path = strdup(e->name);
	while (path && e->parent && depth++ < c->m->ninos) {
		e = ckino_at(c->m, e->parent);
		if (!e->name)
			break;
		np = malloc(strlen(path) + strlen(e->name) + 2);
		if (np)
			sprintf(np, "%s/%s", e->name, path);
		free(path);
		path = np;
	}
	return path;
}

/* ---- the block map ---- */

/*
 * Say which of the blocks [first, first + len) are out of range: all of
 * them, as one range, unless -s, when only the -b blocks among them are.
 */
static void report_ranges(struct ck *c, bool rt, xfs_agnumber_t agno,
			  uint64_t first, uint64_t len)
{
	uint64_t i, low = 0, high = 0;
	bool prev = false, open = false;

	for (i = 0; i <= len; i++) {
		bool cur = i < len &&
			   (!c->sflag || (rt ? blisted(c, first + i) :
					  blisted_ag(c, agno,
						     (xfs_agblock_t)(first + i))));

		if (cur && !prev) {
			low = high = first + i;
			open = true;
		} else if (cur) {
			high = first + i;
		} else if (prev && open) {
			if (rt && low == high)
				printf("rtblock %llu out of range\n",
				       (unsigned long long)low);
			else if (rt)
				printf("rtblocks %llu..%llu out of range\n",
				       (unsigned long long)low,
				       (unsigned long long)high);
			else if (low == high)
				printf("block %u/%u out of range\n", agno,
				       (xfs_agblock_t)low);
			else
				printf("blocks %u/%u..%u out of range\n", agno,
				       (xfs_agblock_t)low, (xfs_agblock_t)high);
			open = false;
		}
		prev = cur;
	}
}

/* Is [agbno, agbno + len) inside the filesystem?  Says where not. */
static bool check_range(struct ck *c, xfs_agnumber_t agno, xfs_agblock_t agbno,
			uint32_t len)
{
	xfs_agblock_t last = agbno + len - 1;

	if (agno < c->g->agcount && last < c->sb->agblocks)
		return true;
	report_ranges(c, false, agno, agbno, len);
	c->error++;
	return false;
}

static bool is_reflink_type(const struct ck *c, enum dbm t)
{
	return c->g->has_reflink && (t == DBM_DATA || t == DBM_RLDATA);
}

static bool beyond_end(struct ck *c, xfs_agnumber_t agno, xfs_agblock_t agbno)
{
	if (agbno < c->sb->agblocks)
		return false;
	ckalways("block %u/%u beyond end of expected area\n", agno, agbno);
	c->error++;
	return true;
}

static void check_dbmap(struct ck *c, xfs_agnumber_t agno, xfs_agblock_t agbno,
			uint32_t len, enum dbm want, bool ignore_reflink)
{
	uint8_t *p = &c->m->type[agno][agbno];
	uint32_t i;

	for (i = 0; i < len; i++, p++) {
		if (beyond_end(c, agno, agbno + i))
			break;
		if (ignore_reflink && (*p == DBM_UNKNOWN || *p == DBM_DATA ||
				       *p == DBM_RLDATA))
			continue;
		if (*p != want)
			finding(c, !c->sflag || blisted_ag(c, agno, agbno + i),
				"block %u/%u expected type %s got %s\n", agno,
				agbno + i, dbm_names[want], dbm_names[*p]);
	}
}

static void check_set_dbmap(struct ck *c, xfs_agnumber_t agno,
			    xfs_agblock_t agbno, uint32_t len, enum dbm want,
			    enum dbm t, xfs_agnumber_t cagno,
			    xfs_agblock_t cagbno)
{
	uint8_t *p;
	uint32_t i;

	if (!check_range(c, agno, agbno, len)) {
		ckalways("blocks %u/%u..%u claimed by block %u/%u\n", agno,
			 agbno, agbno + len - 1, cagno, cagbno);
		return;
	}
	check_dbmap(c, agno, agbno, len, want, is_reflink_type(c, t));
	for (i = 0, p = &c->m->type[agno][agbno]; i < len; i++, p++) {
		if (beyond_end(c, agno, agbno + i))
			break;
		if (!(*p == DBM_RLDATA && t == DBM_DATA))	/* stays shared */
			*p = (*p == DBM_DATA && t == DBM_DATA) ? DBM_RLDATA : t;
		if (c->verbose || blisted_ag(c, agno, agbno + i))
			printf("setting block %u/%u to %s\n", agno, agbno + i,
			       dbm_names[t]);
	}
}

static void set_dbmap(struct ck *c, xfs_agnumber_t agno, xfs_agblock_t agbno,
		      uint32_t len, enum dbm t, xfs_agnumber_t cagno,
		      xfs_agblock_t cagbno)
{
	check_set_dbmap(c, agno, agbno, len, DBM_UNKNOWN, t, cagno, cagbno);
}

static void set_inomap(struct ck *c, xfs_agnumber_t agno, xfs_agblock_t agbno,
		       uint32_t len, struct ckino *e)
{
	uint32_t *o, i;
	bool ok = true;

	if (!check_range(c, agno, agbno, len)) {
		ckalways("blocks %u/%u..%u claimed by inode %lld\n", agno, agbno,
			 agbno + len - 1, (long long)e->ino);
		return;
	}
	/* a length that wrapped past check_range stops at the AG's end */
	if (len > c->sb->agblocks - agbno)
		len = c->sb->agblocks - agbno;
	for (i = 0, o = &c->m->owner[agno][agbno]; i < len; i++, o++) {
		struct ckino *prev = *o ? ckino_at(c->m, *o) : NULL;

		if (prev && !prev->isreflink) {
			finding(c, !c->sflag || prev->ilist ||
				blisted_ag(c, agno, agbno + i),
				"block %u/%u claimed by inode %lld, previous "
				"inum %lld\n", agno, agbno + i,
				(long long)e->ino, (long long)prev->ino);
			ok = false;
		}
	}
	if (!ok)
		return;
	for (i = 0, o = &c->m->owner[agno][agbno]; i < len; i++, o++) {
		*o = ino_index(e);
		if (c->verbose || e->ilist || blisted_ag(c, agno, agbno + i))
			printf("setting inode to %lld for block %u/%u\n",
			       (long long)e->ino, agno, agbno + i);
	}
}

static void checknot_dbmap(struct ck *c, xfs_agnumber_t agno, unsigned mask)
{
	uint8_t *p = c->m->type[agno];
	uint32_t i;

	/*
	 * Under -s the reference says none of these, even for a block of
	 * -b (it counts them all the same).
	 */
	for (i = 0; i < c->m->mapblocks; i++)
		if ((1u << p[i]) & mask)
			finding(c, !c->sflag,
				"block %u/%u type %s not expected\n", agno, i,
				dbm_names[p[i]]);
}

/* ---- the realtime map ---- */

static bool check_rrange(struct ck *c, uint64_t bno, uint64_t len)
{
	if (bno + len - 1 < c->m->rtblocks)
		return true;
	report_ranges(c, true, 0, bno, len);
	c->error++;
	return false;
}

static bool rt_beyond_end(struct ck *c, uint64_t bno)
{
	if (bno < c->m->rtblocks)
		return false;
	ckalways("rtblock %llu beyond end of expected area\n",
		 (unsigned long long)bno);
	c->error++;
	return true;
}

static void set_rdbmap(struct ck *c, uint64_t bno, uint64_t len, enum dbm t)
{
	uint8_t *p;
	uint64_t i;

	if (!check_rrange(c, bno, len))
		return;
	p = &c->m->type[c->g->agcount][bno];
	for (i = 0; i < len; i++) {
		if (rt_beyond_end(c, bno + i))
			break;
		if (p[i] != DBM_UNKNOWN)
			finding(c, !c->sflag || blisted(c, bno + i),
				"rtblock %llu expected type %s got %s\n",
				(unsigned long long)(bno + i),
				dbm_names[DBM_UNKNOWN], dbm_names[p[i]]);
	}
	for (i = 0; i < len; i++) {
		if (rt_beyond_end(c, bno + i))
			break;
		p[i] = t;
		if (c->verbose || blisted(c, bno + i))
			printf("setting rtblock %llu to %s\n",
			       (unsigned long long)(bno + i), dbm_names[t]);
	}
}

static void set_rinomap(struct ck *c, uint64_t bno, uint64_t len,
			struct ckino *e)
{
	uint32_t *o;
	uint64_t i;
	bool ok = true;

	if (!check_rrange(c, bno, len)) {
		ckalways("rtblocks %llu..%llu claimed by inode %lld\n",
			 (unsigned long long)bno,
			 (unsigned long long)(bno + len - 1), (long long)e->ino);
		return;
	}
	o = &c->m->owner[c->g->agcount][bno];
	for (i = 0; i < len; i++) {
		struct ckino *prev = o[i] ? ckino_at(c->m, o[i]) : NULL;

		if (prev) {
			finding(c, !c->sflag || prev->ilist ||
				blisted(c, bno + i),
				"rtblock %llu claimed by inode %lld, previous "
				"inum %lld\n", (unsigned long long)(bno + i),
				(long long)e->ino, (long long)prev->ino);
			ok = false;
		}
	}
	if (!ok)
		return;
	for (i = 0; i < len; i++) {
		o[i] = ino_index(e);
		if (c->verbose || e->ilist || blisted(c, bno + i))
			printf("setting inode to %lld for rtblock %llu\n",
			       (long long)e->ino, (unsigned long long)(bno + i));
	}
}

/* ---- file maps ---- */

static void fmap_add(struct fmap *f, uint64_t off, uint64_t blk, uint64_t len)
{
	size_t i;

	if (f->n == f->cap) {
		size_t n = f->cap ? f->cap * 2 : 16;
		struct fext *v = realloc(f->v, n * sizeof(*v));

		if (!v)
			return;
		f->v = v;
		f->cap = n;
	}
	/* keep them ordered by offset */
	for (i = f->n; i > 0 && f->v[i - 1].off > off; i--)
		f->v[i] = f->v[i - 1];
	f->v[i].off = off;
	f->v[i].blk = blk;
	f->v[i].len = len;
	f->n++;
}

static void fmap_free(struct fmap *f)
{
	free(f->v);
	memset(f, 0, sizeof(*f));
}

static uint64_t fmap_last(const struct fmap *f)
{
	return f->n ? f->v[f->n - 1].off + f->v[f->n - 1].len : 0;
}

/* The disk block of file block off, or -1. */
static int64_t fmap_get(const struct fmap *f, uint64_t off)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (off >= f->v[i].off && off < f->v[i].off + f->v[i].len)
			return (int64_t)(f->v[i].blk + off - f->v[i].off);
	return -1;
}

/* The first mapped file block at or after off, or -1. */
static int64_t fmap_next(const struct fmap *f, uint64_t off)
{
	size_t i;

	for (i = 0; i < f->n; i++) {
		if (off < f->v[i].off)
			return (int64_t)f->v[i].off;
		if (off < f->v[i].off + f->v[i].len)
			return (int64_t)off;
	}
	return -1;
}

/*
 * Read a directory block of n file blocks at off, as pieces of its
 * mapping; NULL when any piece is unmapped or unreadable.
 */
static struct fs_buf *fmap_read(const struct ck *c, const struct fmap *f,
				uint64_t off, uint32_t n, bool *mapped)
{
	struct buf_seg segs[64];
	unsigned nseg = 0;
	uint32_t i;
	struct fs_findings fl;
	struct fs_buf *bp = NULL;

	*mapped = false;
	for (i = 0; i < n; i++) {
		int64_t b = fmap_get(f, off + i);

		if (b < 0)
			continue;
		*mapped = true;
		if (nseg && segs[nseg - 1].daddr +
			    segs[nseg - 1].len / BBSIZE ==
			    fsb_to_daddr(c->g, (xfs_fsblock_t)b)) {
			segs[nseg - 1].len += c->g->blocksize;
			continue;
		}
		if (nseg == 64)
			return NULL;
		segs[nseg].daddr = fsb_to_daddr(c->g, (xfs_fsblock_t)b);
		segs[nseg].len = c->g->blocksize;
		nseg++;
	}
	if (!nseg)
		return NULL;
	findings_init(&fl);
	if (nseg == 1) {
		if (bcache_read(db.fs->bc, segs[0].daddr, segs[0].len, NULL, &fl,
				&bp))
			bp = NULL;
	} else if (bcache_read_segs(db.fs->bc, segs, nseg, NULL, &fl, &bp)) {
		bp = NULL;
	}
	findings_free(&fl);
	if (bp && bp->len < (size_t)n * c->g->blocksize) {
		buf_release(bp);
		bp = NULL;
	}
	return bp;
}

/* ---- directories ---- */

static void dir_hash_add(struct ck *c, uint32_t hash, uint32_t addr)
{
	struct dhash *p = malloc(sizeof(*p));
	unsigned i = (hash ^ addr) % DIR_HASH_SIZE;

	if (!p)
		return;
	p->hashval = hash;
	p->address = addr;
	p->seen = false;
	p->next = c->dh[i];
	c->dh[i] = p;
}

/* 0: first sighting, 1: seen before, -1: no such entry. */
static int dir_hash_see(struct ck *c, uint32_t hash, uint32_t addr)
{
	struct dhash *p;

	for (p = c->dh[(hash ^ addr) % DIR_HASH_SIZE]; p; p = p->next) {
		if (p->hashval == hash && p->address == addr) {
			if (p->seen)
				return 1;
			p->seen = true;
			return 0;
		}
	}
	return -1;
}

static void dir_hash_check_done(struct ck *c, const struct ckino *id, bool v)
{
	unsigned i;
	struct dhash *p, *n;

	for (i = 0; i < DIR_HASH_SIZE; i++) {
		for (p = c->dh[i]; p; p = n) {
			n = p->next;
			if (!p->seen)
				finding(c, !c->sflag || id->ilist || v,
					"dir ino %lld missing leaf entry for "
					"%x/%x\n", (long long)id->ino,
					p->hashval, p->address);
			free(p);
		}
		c->dh[i] = NULL;
	}
}

static bool dir_magic_known(const uint8_t *d, size_t len)
{
	uint32_t m32 = len >= 4 ? load_be32(d) : 0;
	uint16_t m16 = len >= 10 ? load_be16(d + 8) : 0;

	return m32 == XFS_DIR3_BLOCK_MAGIC || m32 == XFS_DIR3_DATA_MAGIC ||
	       m32 == XFS_DIR3_FREE_MAGIC || m16 == XFS_DIR3_LEAF1_MAGIC ||
	       m16 == XFS_DIR3_LEAFN_MAGIC || m16 == XFS_DA3_NODE_MAGIC;
}

static void freetab_set(struct ck *c, uint32_t db_, uint16_t v)
{
	if (db_ >= c->capfree) {
		uint32_t n = db_ + 1 > c->capfree * 2 ? db_ + 1 : c->capfree * 2;
		uint16_t *t = realloc(c->freetab, n * sizeof(*t));
		uint32_t i;

		if (!t)
			return;
		for (i = c->capfree; i < n; i++)
			t[i] = NULLDATAOFF;
		c->freetab = t;
		c->capfree = n;
	}
	if (c->nfree < db_ + 1)
		c->nfree = db_ + 1;
	c->freetab[db_] = v;
}

/* Is there a bestfree slot for the free region at off of length len? */
static int bestfree_find(const uint8_t *bf, uint32_t off, uint16_t len)
{
	int i;

	if (len < load_be16(bf + 4 * (XFS_DIR2_DATA_FD_COUNT - 1) + 2))
		return -1;
	for (i = 0; i < XFS_DIR2_DATA_FD_COUNT; i++) {
		uint16_t o = load_be16(bf + 4 * i);

		if (o == 0)
			return -1;
		if (o == off)
			return i;
	}
	return -1;
}

/*
 * One data (or single-block) directory block: every entry adds a link
 * to the inode it names.  Returns the ".." inode, NULLFSINO when the
 * block is not a data block, 0 when it has no "..".
 */
static xfs_ino_t process_data_dir(struct ck *c, const uint8_t *d,
				  struct ckino *id, uint32_t dabno, bool leafdir,
				  bool v, int *dot, int *dotdot)
{
	const bool show = !c->sflag || v;
	const struct fs_geom *g = c->g;
	uint32_t bsize = g->dirblksize, magic = load_be32(d);
	uint32_t db_ = dabno / g->dirblkfsbs;
	const uint8_t *bf = d + offsetof(struct xfs_dir3_data_hdr, best_free);
	bool block = magic == XFS_DIR2_BLOCK_MAGIC ||
		     magic == XFS_DIR3_BLOCK_MAGIC;
	uint64_t ptr = sizeof(struct xfs_dir3_data_hdr), endptr = bsize;
	int64_t lep = -1;
	uint32_t count = 0, tcount = 0, tstale = 0, stale = 0;
	int bf_err = 0, lastfree_err = 0, tag_err = 0, lastfree = 0, i;
	unsigned freeseen = 0;
	xfs_ino_t parent = 0;

	if (magic != XFS_DIR2_BLOCK_MAGIC && magic != XFS_DIR2_DATA_MAGIC &&
	    magic != XFS_DIR3_BLOCK_MAGIC && magic != XFS_DIR3_DATA_MAGIC) {
		finding(c, show, "bad directory data magic # %#x for dir ino %lld "
			"block %u\n", magic, (long long)id->ino, dabno);
		return NULLFSINO;
	}
	if (block) {
		int64_t l;

		tcount = load_be32(d + bsize - 8);
		tstale = load_be32(d + bsize - 4);
		l = (int64_t)bsize - 8 - (int64_t)tcount * 8;
		if (l <= (int64_t)ptr || l > (int64_t)bsize - 8) {
			finding(c, show, "bad block directory tail for dir ino %lld\n",
				(long long)id->ino);
		} else {
			lep = l;
			endptr = (uint64_t)l;
		}
	}
	for (i = 0; i < 3; i++) {
		if (load_be16(bf + 4 * i + 2) == 0) {
			bf_err += load_be16(bf + 4 * i) != 0;
			freeseen |= 1u << i;
		}
	}
	bf_err += load_be16(bf + 2) < load_be16(bf + 6);
	bf_err += load_be16(bf + 6) < load_be16(bf + 10);
	if (leafdir)
		freetab_set(c, db_, load_be16(bf + 2));
	while (ptr < endptr) {
		if (ptr + 4 <= bsize && load_be16(d + ptr) == XFS_DIR2_DATA_FREE_TAG) {
			uint16_t len = load_be16(d + ptr + 2);
			uint64_t tagp = ptr + len - 2;
			int slot;

			lastfree_err += lastfree != 0;
			if ((len & (XFS_DIR2_DATA_ALIGN - 1)) || len == 0 ||
			    tagp >= endptr) {
				finding(c, show, "dir %lld block %u bad free entry at "
					"%d\n", (long long)id->ino, dabno,
					(int)ptr);
				break;
			}
			tag_err += load_be16(d + tagp) != ptr;
			slot = bestfree_find(bf, (uint32_t)ptr, len);
			if (slot >= 0) {
				bf_err += (freeseen & (1u << slot)) != 0;
				freeseen |= 1u << slot;
			} else {
				bf_err += len > load_be16(bf + 10);
			}
			ptr += len;
			lastfree = 1;
			continue;
		}
		{
			uint8_t namelen = get8(d, bsize, ptr + 8);
			unsigned esize = dir2_data_entsize(g->has_ftype, namelen);
			uint64_t tagp = ptr + esize - 2;
			xfs_ino_t lino;
			struct ckino *cid;
			const uint8_t *name = d + ptr + 9;

			if (namelen == 0)
				finding(c, show, "dir %lld block %u zero length entry "
					"at %d\n", (long long)id->ino, dabno,
					(int)ptr);
			if (tagp >= endptr) {
				finding(c, show, "dir %lld block %u bad entry at %d\n",
					(long long)id->ino, dabno, (int)ptr);
				break;
			}
			tag_err += load_be16(d + tagp) != ptr;
			dir_hash_add(c, dir_hashname(false, name, namelen),
				     (uint32_t)((((uint64_t)db_ << (g->blocklog +
						g->dirblklog)) + ptr) >>
						XFS_DIR2_DATA_ALIGN_LOG));
			ptr += esize;
			count++;
			lastfree = 0;
			lino = load_be64(name - 9);
			cid = find_inode(c, lino, true);
			if (v)
				printf("dir %lld block %u entry %*.*s %lld\n",
				       (long long)id->ino, dabno, namelen,
				       namelen, name, (long long)lino);
			if (cid)
				addlink(c, cid);
			else
				finding(c, show, "dir %lld block %u entry %*.*s bad "
					"inode number %lld\n", (long long)id->ino,
					dabno, namelen, namelen, name,
					(long long)lino);
			if (namelen == 2 && name[0] == '.' && name[1] == '.') {
				if (parent)
					finding(c, show, "multiple .. entries in dir "
						"%lld (%lld, %lld)\n",
						(long long)id->ino,
						(long long)parent,
						(long long)lino);
				else
					parent = cid ? lino : NULLFSINO;
				(*dotdot)++;
			} else if (namelen != 1 || name[0] != '.') {
				if (cid) {
					if (!cid->parent)
						cid->parent = ino_index(id);
					addname_inode(c, cid, name, namelen);
				}
			} else {
				if (lino != id->ino)
					finding(c, show, "dir %lld entry . inode "
						"number mismatch (%lld)\n",
						(long long)id->ino,
						(long long)lino);
				(*dot)++;
			}
		}
	}
	if (block && lep >= 0) {
		uint32_t k;

		for (k = 0; k < tcount; k++) {
			uint64_t e = (uint64_t)lep + (uint64_t)k * 8;
			uint32_t h, a;

			if (e + 8 > bsize) {
				finding(c, show, "dir %lld block %u bad count %u\n",
					(long long)id->ino, dabno, tcount);
				break;
			}
			h = load_be32(d + e);
			a = load_be32(d + e + 4);
			if (a == XFS_DIR2_NULL_DATAPTR)
				stale++;
			else if (dir_hash_see(c, h, a))
				finding(c, show, "dir %lld block %u extra leaf entry "
					"%x %x\n", (long long)id->ino, dabno, h, a);
		}
	}
	bf_err += freeseen != 7;
	if (bf_err)
		finding(c, show, "dir %lld block %u bad bestfree data\n",
			(long long)id->ino, dabno);
	if (block && count != tcount - tstale)
		finding(c, show, "dir %lld block %u bad block tail count %d (stale "
			"%d)\n", (long long)id->ino, dabno, (int)tcount,
			(int)tstale);
	if (block && stale != tstale)
		finding(c, show, "dir %lld block %u bad stale tail count %d\n",
			(long long)id->ino, dabno, (int)tstale);
	if (lastfree_err)
		finding(c, show, "dir %lld block %u consecutive free entries\n",
			(long long)id->ino, dabno);
	if (tag_err)
		finding(c, show, "dir %lld block %u entry/unused tag mismatch\n",
			(long long)id->ino, dabno);
	return parent;
}

static void process_leaf_dir_int(struct ck *c, const uint8_t *d,
				  struct ckino *id, uint32_t dabno, bool v)
{
	const bool show = !c->sflag || v;
	const struct fs_geom *g = c->g;
	uint32_t bsize = g->dirblksize;
	uint16_t magic = load_be16(d + 8);
	uint32_t i, count, stale = 0, hdr;

	switch (magic) {
	case XFS_DIR3_LEAF1_MAGIC: {
		uint32_t forw = load_be32(d), back = load_be32(d + 4);
		uint32_t bestcount = load_be32(d + bsize - 4);
		uint64_t lbp;

		if (forw || back)
			finding(c, show, "bad leaf block forw/back pointers %d/%d for "
				"dir ino %lld block %u\n", (int)forw, (int)back,
				(long long)id->ino, dabno);
		if (dabno != dir_leaf_dablk(g))
			finding(c, show, "single leaf block for dir ino %lld block %u "
				"should be at block %u\n", (long long)id->ino,
				dabno, dir_leaf_dablk(g));
		lbp = (uint64_t)bsize - 4 - (uint64_t)bestcount * 2;
		for (i = 0; i < bestcount && lbp + 2 * (uint64_t)i + 2 <= bsize;
		     i++) {
			uint16_t b = load_be16(d + lbp + 2 * i);

			if (c->nfree <= i || c->freetab[i] != b)
				/* printed, not counted, as the reference */
				if (!c->sflag || v)
					printf("bestfree %d for dir ino %lld "
					       "block %u doesn't match table "
					       "value %d\n",
					       c->nfree <= i ? NULLDATAOFF :
					       c->freetab[i], (long long)id->ino,
					       dir_db_to_dablk(g, i), b);
			if (c->nfree > i)
				c->freetab[i] = NULLDATAOFF;
		}
		break;
	}
	case XFS_DIR3_LEAFN_MAGIC:
		break;
	case XFS_DA3_NODE_MAGIC: {
		uint16_t level = load_be16(d + 58);

		if (level < 1 || level > DA_NODE_MAXDEPTH)
			finding(c, show, "bad node block level %d for dir ino %lld "
				"block %u\n", level, (long long)id->ino, dabno);
		return;
	}
	default:
		finding(c, show, "bad directory data magic # %#x for dir ino %lld "
			"block %u\n", magic, (long long)id->ino, dabno);
		return;
	}
	hdr = sizeof(struct xfs_dir3_leaf_hdr);
	count = load_be16(d + offsetof(struct xfs_dir3_leaf_hdr, count));
	for (i = 0; i < count && hdr + 8 * (uint64_t)i + 8 <= bsize; i++) {
		uint32_t h = load_be32(d + hdr + 8 * i);
		uint32_t a = load_be32(d + hdr + 8 * i + 4);

		if (a == XFS_DIR2_NULL_DATAPTR)
			stale++;
		else if (dir_hash_see(c, h, a))
			finding(c, show, "dir %lld block %u extra leaf entry %x %x\n",
				(long long)id->ino, dabno, h, a);
	}
	if (stale != load_be16(d + offsetof(struct xfs_dir3_leaf_hdr, stale)))
		finding(c, show, "dir3 %lld block %u stale mismatch %d/%d\n",
			(long long)id->ino, dabno, (int)stale,
			load_be16(d + offsetof(struct xfs_dir3_leaf_hdr, stale)));
}

static void process_leaf_dir_free(struct ck *c, const uint8_t *d,
				  struct ckino *id, uint32_t dabno, bool v)
{
	const bool show = !c->sflag || v;
	const struct fs_geom *g = c->g;
	uint32_t magic = load_be32(d), maxent = dir3_free_maxbests(g);
	uint32_t firstdb, nvalid, nused, i, used = 0;
	const uint32_t hdr = sizeof(struct xfs_dir3_free_hdr);

	if (magic != XFS_DIR2_FREE_MAGIC && magic != XFS_DIR3_FREE_MAGIC) {
		finding(c, show, "bad free block magic # %#x for dir ino %lld block "
			"%u\n", magic, (long long)id->ino, dabno);
		return;
	}
	firstdb = load_be32(d + offsetof(struct xfs_dir3_free_hdr, firstdb));
	nvalid = load_be32(d + offsetof(struct xfs_dir3_free_hdr, nvalid));
	nused = load_be32(d + offsetof(struct xfs_dir3_free_hdr, nused));
	if (firstdb != (dabno - dir_free_dablk(g)) / g->dirblkfsbs * maxent) {
		finding(c, show, "bad free block firstdb %d for dir ino %lld block "
			"%u\n", (int)firstdb, (long long)id->ino, dabno);
		return;
	}
	if (nvalid > maxent || nused > maxent || nused > nvalid) {
		finding(c, show, "bad free block nvalid/nused %d/%d for dir ino %lld "
			"block %u\n", (int)nvalid, (int)nused,
			(long long)id->ino, dabno);
		return;
	}
	for (i = 0; i < nvalid; i++) {
		uint64_t k = (uint64_t)firstdb + i;
		uint16_t ent = c->nfree <= k ? NULLDATAOFF : c->freetab[k];
		uint16_t b = load_be16(d + hdr + 2 * i);

		if (ent != b)
			finding(c, show, "bad free block ent %d is %d should be %d for "
				"dir ino %lld block %u\n", (int)i, b, ent,
				(long long)id->ino, dabno);
		if (b != NULLDATAOFF)
			used++;
		if (ent != NULLDATAOFF)
			c->freetab[k] = NULLDATAOFF;
	}
	if (used != nused)
		finding(c, show, "bad free block nused %d should be %d for dir ino %lld "
			"block %u\n", (int)nused, (int)used, (long long)id->ino,
			dabno);
}

/* Is any filesystem block of the dir block at off one of -b's? */
static bool fmap_blisted(const struct ck *c, const struct fmap *f,
			 uint64_t off, uint32_t n)
{
	uint32_t i;

	for (i = 0; c->nblist && i < n; i++) {
		int64_t b = fmap_get(f, off + i);

		if (b >= 0 && blisted(c, (uint64_t)b))
			return true;
	}
	return false;
}

static xfs_ino_t process_block_dir(struct ck *c, const struct fmap *f,
				   struct ckino *id, int *dot, int *dotdot)
{
	struct fs_buf *bp;
	bool mapped;
	xfs_ino_t parent;

	bool v = c->verbose || id->ilist;

	bp = fmap_read(c, f, 0, c->g->dirblkfsbs, &mapped);
	if (!mapped) {
		finding(c, !c->sflag || v, "block 0 for directory inode %lld is "
			"missing\n", (long long)id->ino);
		return 0;
	}
	v = v || fmap_blisted(c, f, 0, c->g->dirblkfsbs);
	if (!bp) {
		finding(c, !c->sflag || v, "can't read block 0 for directory "
			"inode %lld\n", (long long)id->ino);
		return 0;
	}
	if (!dir_magic_known(bp->data, bp->len))
		ckalways("Unknown directory buffer type!\n");
	parent = process_data_dir(c, bp->data, id, 0, false, v, dot, dotdot);
	buf_release(bp);
	dir_hash_check_done(c, id, v);
	return parent;
}

static xfs_ino_t process_leaf_node_dir(struct ck *c, const struct fmap *f,
				       struct ckino *id, int *dot, int *dotdot)
{
	const struct fs_geom *g = c->g;
	uint32_t leafblk = dir_leaf_dablk(g), freeblk = dir_free_dablk(g);
	bool v2 = c->verbose || id->ilist, v = false;
	xfs_ino_t parent = 0;
	int64_t dbno = -1;
	uint32_t i;

	c->nfree = 0;
	for (i = 0; i < c->capfree; i++)
		c->freetab[i] = NULLDATAOFF;
	while ((dbno = fmap_next(f, (uint64_t)(dbno + 1))) >= 0) {
		bool mapped;
		struct fs_buf *bp = fmap_read(c, f, (uint64_t)dbno,
					      g->dirblkfsbs, &mapped);

		v = v2 || fmap_blisted(c, f, (uint64_t)dbno, g->dirblkfsbs);
		if (v)
			printf("dir inode %lld block %u=%llu\n",
			       (long long)id->ino, (uint32_t)dbno,
			       (unsigned long long)fmap_get(f, (uint64_t)dbno));
		if (!bp) {
			finding(c, !c->sflag || v, "can't read block %u for "
				"directory inode %lld\n", (uint32_t)dbno,
				(long long)id->ino);
			dbno += g->dirblkfsbs - 1;
			continue;
		}
		if (!dir_magic_known(bp->data, bp->len))
			ckalways("Unknown directory buffer type!\n");
		if ((uint64_t)dbno < leafblk) {
			xfs_ino_t lino = process_data_dir(c, bp->data, id,
							  (uint32_t)dbno, true,
							  v, dot, dotdot);

			if (lino) {
				if (parent)
					finding(c, !c->sflag || v, "multiple .. "
						"entries in dir %lld\n",
						(long long)id->ino);
				else
					parent = lino;
			}
		} else if ((uint64_t)dbno < freeblk) {
			process_leaf_dir_int(c, bp->data, id, (uint32_t)dbno, v);
		} else {
			process_leaf_dir_free(c, bp->data, id, (uint32_t)dbno, v);
		}
		buf_release(bp);
		dbno += g->dirblkfsbs - 1;
	}
	dir_hash_check_done(c, id, v);
	for (i = 0; i < c->nfree; i++)
		if (c->freetab[i] != NULLDATAOFF)
			finding(c, !c->sflag || v, "missing free index for data "
				"block %u in dir ino %lld\n",
				dir_db_to_dablk(g, i), (long long)id->ino);
	return parent;
}

static xfs_ino_t process_sf_dir(struct ck *c, const uint8_t *di,
				uint32_t dsize, struct ckino *id, int *dot,
				int *dotdot)
{
	const struct fs_geom *g = c->g;
	const uint8_t *sf = di + XFS_DINODE_CORE_SIZE;
	uint64_t size = load_be64(di + offsetof(struct xfs_dinode, di_size));
	uint8_t count = sf[0], i8count = sf[1];
	unsigned inosz = i8count ? 8 : 4, i8 = 0;
	uint64_t pos = XFS_DIR2_SF_HDR_SIZE(i8count);
	uint32_t offset = sizeof(struct xfs_dir3_data_hdr) +
			  dir2_data_entsize(g->has_ftype, 1) +
			  dir2_data_entsize(g->has_ftype, 2);
	int i;
	xfs_ino_t lino;
	struct ckino *cid;
	bool v = c->verbose || id->ilist;

	addlink(c, id);
	if (v)
		printf("dir %lld entry . %lld\n", (long long)id->ino,
		       (long long)id->ino);
	(*dot)++;
	for (i = count - 1; i >= 0; i--) {
		uint8_t namelen = get8(sf, dsize, pos);
		uint64_t esize = 3 + namelen + (g->has_ftype ? 1 : 0) + inosz;
		const uint8_t *name = sf + pos + 3;
		uint32_t eoff;
		uint64_t io;

		if (pos + esize > size) {
			ckprint(c, "dir %llu bad size in entry at %d\n",
				(unsigned long long)id->ino, (int)pos);
			break;
		}
		io = pos + 3 + namelen + (g->has_ftype ? 1 : 0);
		lino = inosz == 8 ? load_be64(sf + io) & 0x00ffffffffffffffull :
				    load_be32(sf + io);
		if (lino > XFS_DIR2_MAX_SHORT_INUM)
			i8++;
		cid = find_inode(c, lino, true);
		if (!cid) {
			ckprint(c, "dir %lld entry %*.*s bad inode number %lld\n",
				(long long)id->ino, namelen, namelen, name,
				(long long)lino);
		} else {
			addlink(c, cid);
			if (!cid->parent)
				cid->parent = ino_index(id);
			addname_inode(c, cid, name, namelen);
		}
		eoff = load_be16(sf + pos + 1);
		if (v)
			printf("dir %lld entry %*.*s offset %d %lld\n",
			       (long long)id->ino, namelen, namelen, name,
			       (int)eoff, (long long)lino);
		if (eoff < offset)
			ckprint(c, "dir %lld entry %*.*s bad offset %d\n",
				(long long)id->ino, namelen, namelen, name,
				(int)eoff);
		offset = eoff + (uint32_t)esize;
		pos += esize;
	}
	if (i < 0 && pos != size)
		ckprint(c, "dir %llu size is %lld, should be %u\n",
			(unsigned long long)id->ino, (long long)size,
			(unsigned)pos);
	if ((uint64_t)offset + (count + 2ull) * 8 + 8 > g->dirblksize)
		ckprint(c, "dir %llu offsets too high\n",
			(unsigned long long)id->ino);
	lino = i8count ? load_be64(sf + 2) & 0x00ffffffffffffffull :
			 load_be32(sf + 2);
	if (lino > XFS_DIR2_MAX_SHORT_INUM)
		i8++;
	cid = find_inode(c, lino, true);
	if (cid)
		addlink(c, cid);
	else
		ckprint(c, "dir %lld entry .. bad inode number %lld\n",
			(long long)id->ino, (long long)lino);
	if (v)
		printf("dir %lld entry .. %lld\n", (long long)id->ino,
		       (long long)lino);
	if (i8 != i8count)
		ckprint(c, "dir %lld i8count mismatch is %d should be %d\n",
			(long long)id->ino, i8count, i8);
	(*dotdot)++;
	return cid ? lino : NULLFSINO;
}

static void process_dir(struct ck *c, const uint8_t *di, uint32_t dsize,
			const struct fmap *f, struct ckino *id)
{
	const struct fs_geom *g = c->g;
	uint64_t size = load_be64(di + offsetof(struct xfs_dinode, di_size));
	uint8_t fmt = di[offsetof(struct xfs_dinode, di_format)];
	/* a map every extent of which was refused is read as a leaf or node
	 * directory with no blocks: no "." and no "..", as the reference
	 * says, rather than a bad size */
	uint64_t last = !f ? 0 : f->n ? fmap_last(f) : UINT64_MAX;
	int dot = 0, dotdot = 0;
	xfs_ino_t parent;
	bool ext = fmt == XFS_DINODE_FMT_EXTENTS || fmt == XFS_DINODE_FMT_BTREE;
	bool show;

	if (size <= dsize && fmt == XFS_DINODE_FMT_LOCAL)
		parent = process_sf_dir(c, di, dsize, id, &dot, &dotdot);
	else if (f && last == g->dirblkfsbs && ext)
		parent = process_block_dir(c, f, id, &dot, &dotdot);
	else if (f && last >= dir_leaf_dablk(g) + g->dirblkfsbs && ext)
		parent = process_leaf_node_dir(c, f, id, &dot, &dotdot);
	else {
		finding(c, true, "bad size (%lld) or format (%d) for directory "
			"inode "
			"%lld\n", (long long)size, fmt, (long long)id->ino);
		return;
	}
	show = !c->sflag || id->ilist || blisted(c, ino_to_fsb(g, id->ino));
	if (!dot)
		finding(c, show, "no . entry for directory %lld\n", (long long)id->ino);
	if (!dotdot)
		finding(c, show, "no .. entry for directory %lld\n",
			(long long)id->ino);
	else if (parent == id->ino && id->ino != c->sb->rootino)
		finding(c, show, ". and .. same for non-root directory %lld\n",
			(long long)id->ino);
	else if (id->ino == c->sb->rootino && id->ino != parent)
		finding(c, show, "root directory %lld has .. %lld\n",
			(long long)id->ino, (long long)parent);
	else if (parent != NULLFSINO && id->ino != parent) {
		struct ckino *p = find_inode(c, parent, true);

		id->parent = ino_index(p);
		if (c->verbose || id->ilist || (p && p->ilist))
			printf("inode %lld parent %lld\n", (long long)id->ino,
			       (long long)parent);
	}
}

/* ---- the realtime bitmap and summary files ---- */

static void process_rtbitmap(struct ck *c, const struct fmap *f)
{
	const struct fs_geom *g = c->g;
	uint64_t bitsper = (uint64_t)g->blocksize * 8, extno = 0;
	uint64_t start_bmbno = 0, start_bit = 0, bit = 0;
	int64_t bmbno = -1;
	bool prev = false;

	while (extno < c->sb->rextents &&
	       (bmbno = fmap_next(f, (uint64_t)(bmbno + 1))) >= 0) {
		int64_t b = fmap_get(f, (uint64_t)bmbno);
		struct fs_buf *bp = rd(fsb_to_daddr(g, (xfs_fsblock_t)b),
				       g->blocksize);

		if (!bp) {
			ckprint(c, "can't read block %lld for rtbitmap inode\n",
				(long long)bmbno);
			continue;
		}
		for (bit = 0; bit < bitsper && extno < c->sb->rextents;
		     bit++, extno++) {
			/* 32-bit words in the host's (little-endian) order */
			if (bp->data[bit / 8] & (1u << (bit % 8))) {
				set_rdbmap(c, extno * c->sb->rextsize,
					   c->sb->rextsize, DBM_RTFREE);
				c->frextents++;
				if (!prev) {
					start_bmbno = (uint64_t)bmbno;
					start_bit = bit;
					prev = true;
				}
			} else if (prev) {
				uint64_t len = ((uint64_t)bmbno - start_bmbno) *
					       bitsper + bit - start_bit;
				unsigned log = 0;

				while ((len >> (log + 1)) != 0)
					log++;
				if (c->sumcompute && log < c->rsumlevels)
					c->sumcompute[log * c->sb->rbmblocks +
						      start_bmbno]++;
				prev = false;
			}
		}
		buf_release(bp);
	}
	if (prev && bmbno >= 0) {
		uint64_t len = ((uint64_t)bmbno - start_bmbno) * bitsper + bit -
			       start_bit;
		unsigned log = 0;

		while ((len >> (log + 1)) != 0)
			log++;
		if (c->sumcompute && log < c->rsumlevels)
			c->sumcompute[log * c->sb->rbmblocks + start_bmbno]++;
	}
}

static void process_rtsummary(struct ck *c, const struct fmap *f)
{
	const struct fs_geom *g = c->g;
	uint64_t words = (uint64_t)c->rsumlevels * c->sb->rbmblocks;
	int64_t sbno = -1;

	while ((sbno = fmap_next(f, (uint64_t)(sbno + 1))) >= 0) {
		int64_t b = fmap_get(f, (uint64_t)sbno);
		struct fs_buf *bp = rd(fsb_to_daddr(g, (xfs_fsblock_t)b),
				       g->blocksize);
		uint64_t i, first = (uint64_t)sbno * (g->blocksize / 4);

		if (!bp) {
			ckprint(c, "can't read block %lld for rtsummary inode\n",
				(long long)sbno);
			continue;
		}
		for (i = 0; i < g->blocksize / 4 && first + i < words; i++)
			c->sumfile[first + i] = get_le32(*(const le32 *)(bp->data + 4 * i));
		buf_release(bp);
	}
}

/* ---- inodes ---- */

struct forkcount {
	uint64_t	totd, toti, nex;
};

static void process_bmbt_reclist(struct ck *c, const uint8_t *recs,
				 uint64_t n, enum dbm t, struct ckino *id,
				 struct forkcount *fc, struct fmap *f)
{
	const struct fs_geom *g = c->g;
	xfs_agnumber_t iagno = ino_to_agno(g, id->ino);
	xfs_agblock_t iagbno = ino_to_agbno(g, id->ino);
	uint64_t op = 0, cp = 0, i;

	for (i = 0; i < n; i++) {
		struct xfs_bmbt_irec r;
		xfs_agnumber_t agno;
		xfs_agblock_t agbno;

		bmbt_rec_decode((const struct xfs_bmbt_rec *)(recs + 16 * i), &r);
		if (c->verbose || id->ilist)
			printf("inode %lld extent [%lld,%lld,%lld,%d]\n",
			       (long long)id->ino, (long long)r.br_startoff,
			       (long long)r.br_startblock,
			       (long long)r.br_blockcount, r.br_unwritten);
		if (!c->sflag && i > 0 && op + cp > r.br_startoff)
			printf("bmap rec out of order, inode %lld entry %d\n",
			       (long long)id->ino, (int)i);
		op = r.br_startoff;
		cp = r.br_blockcount;
		if (t == DBM_RTDATA) {
			if (!c->sflag && r.br_startblock >= c->sb->rblocks) {
				printf("inode %lld bad rt block number %lld, "
				       "offset %lld\n", (long long)id->ino,
				       (long long)r.br_startblock,
				       (long long)r.br_startoff);
				continue;
			}
		} else if (!c->sflag) {
			agno = fsb_to_agno(g, r.br_startblock);
			agbno = fsb_to_agbno(g, r.br_startblock);
			if (agno >= g->agcount || agbno >= c->sb->agblocks) {
				printf("inode %lld bad block number %lld [%d,%d], "
				       "offset %lld\n", (long long)id->ino,
				       (long long)r.br_startblock, (int)agno,
				       (int)agbno, (long long)r.br_startoff);
				continue;
			}
			if (agbno + (xfs_agblock_t)r.br_blockcount - 1 >=
			    c->sb->agblocks) {
				printf("inode %lld bad block number %lld [%d,%d], "
				       "offset %lld\n", (long long)id->ino,
				       (long long)(r.br_startblock +
						   r.br_blockcount - 1),
				       (int)agno,
				       (int)(agbno + (xfs_agblock_t)
					     r.br_blockcount - 1),
				       (long long)r.br_startoff);
				continue;
			}
		}
		if (f)
			fmap_add(f, r.br_startoff, r.br_startblock,
				 r.br_blockcount);
		if (t == DBM_RTDATA) {
			set_rdbmap(c, r.br_startblock, r.br_blockcount,
				   DBM_RTDATA);
			set_rinomap(c, r.br_startblock, r.br_blockcount, id);
		} else {
			agno = fsb_to_agno(g, r.br_startblock);
			agbno = fsb_to_agbno(g, r.br_startblock);
			set_dbmap(c, agno, agbno, (uint32_t)r.br_blockcount, t,
				  iagno, iagbno);
			set_inomap(c, agno, agbno, (uint32_t)r.br_blockcount, id);
		}
		for (uint64_t k = 0; c->nblist && k < r.br_blockcount; k++)
			if (blisted(c, r.br_startblock + k))
				printf("inode %lld block %lld at offset %lld\n",
				       (long long)id->ino,
				       (long long)(r.br_startblock + k),
				       (long long)(r.br_startoff + k));
		fc->totd += r.br_blockcount;
	}
}

static void scan_bmbt(struct ck *c, xfs_fsblock_t bno, unsigned level,
		      enum dbm t, struct ckino *id, struct forkcount *fc,
		      struct fmap *f, bool isroot, unsigned depth)
{
	const struct fs_geom *g = c->g;
	xfs_agnumber_t agno = fsb_to_agno(g, bno);
	xfs_agblock_t agbno = fsb_to_agbno(g, bno);
	struct fs_buf *bp = rd(fsb_to_daddr(g, bno), g->blocksize);
	const uint8_t *b;
	unsigned maxl = btree_maxrecs(g, &bmbt_ops, true);
	unsigned maxn = btree_maxrecs(g, &bmbt_ops, false);
	uint16_t nrecs, blevel;
	uint32_t magic;
	unsigned i;
	bool show = !c->sflag || id->ilist || blisted(c, bno);

	if (!bp) {
		ckprint(c, "can't read btree block %u/%u\n", agno, agbno);
		return;
	}
	b = bp->data;
	magic = load_be32(b);
	blevel = load_be16(b + 4);
	nrecs = load_be16(b + 6);
	if (magic != XFS_BMAP_MAGIC && magic != XFS_BMAP_CRC_MAGIC)
		finding(c, show, "bad magic # %#x in inode %lld bmbt block %u/%u\n",
			magic, (long long)id->ino, agno, agbno);
	if (blevel != level)
		finding(c, show, "expected level %d got %d in inode %lld bmbt block "
			"%u/%u\n", (int)level, blevel, (long long)id->ino, agno,
			agbno);
	set_dbmap(c, agno, agbno, 1, t, agno, agbno);
	set_inomap(c, agno, agbno, 1, id);
	fc->toti++;
	if (level == 0) {
		if (nrecs > maxl || (!isroot && nrecs < maxl / 2)) {
			finding(c, show, "bad btree nrecs (%u, min=%u, max=%u) in inode "
				"%lld bmap block %lld\n", nrecs, maxl / 2, maxl,
				(long long)id->ino, (long long)bno);
			buf_release(bp);
			return;
		}
		fc->nex += nrecs;
		process_bmbt_reclist(c, b + XFS_BTREE_LBLOCK_CRC_LEN, nrecs, t,
				     id, fc, f);
		buf_release(bp);
		return;
	}
	if (nrecs > maxn || (!isroot && nrecs < maxn / 2)) {
		finding(c, show, "bad btree nrecs (%u, min=%u, max=%u) in inode %lld "
			"bmap block %lld\n", nrecs, maxn / 2, maxn,
			(long long)id->ino, (long long)bno);
		buf_release(bp);
		return;
	}
	if (depth < XFS_BMBT_MAXLEVELS)
		for (i = 0; i < nrecs; i++)
			scan_bmbt(c, load_be64(b + XFS_BTREE_LBLOCK_CRC_LEN +
					       8 * maxn + 8 * i),
				  level - 1, t, id, fc, f, false, depth + 1);
	buf_release(bp);
}

static uint64_t dfork_nextents(const struct fs_geom *g, const uint8_t *di,
			       int whichfork)
{
	bool big = g->has_nrext64 &&
		   (load_be64(di + offsetof(struct xfs_dinode, di_flags2)) &
		    XFS_DIFLAG2_NREXT64);

	if (whichfork == XFS_DATA_FORK)
		return big ? load_be64(di + offsetof(struct xfs_dinode,
						     u24.di_big_nextents)) :
			     load_be32(di + offsetof(struct xfs_dinode,
						     u76.small.di_nextents));
	return big ? load_be32(di + offsetof(struct xfs_dinode,
					     u76.big.di_big_anextents)) :
		     load_be16(di + offsetof(struct xfs_dinode,
					     u76.small.di_anextents));
}

static void process_fork(struct ck *c, const uint8_t *di, struct ckino *id,
			 int whichfork, uint8_t fmt, enum dbm t,
			 struct forkcount *fc, struct fmap *f)
{
	const struct fs_geom *g = c->g;
	uint32_t litino = g->inodesize - XFS_DINODE_CORE_SIZE;
	uint32_t fo = di[offsetof(struct xfs_dinode, di_forkoff)] * 8u;
	uint32_t dsize = fo ? fo : litino;
	uint32_t asize = fo ? litino - fo : 0;
	uint32_t size = whichfork == XFS_DATA_FORK ? dsize : asize;
	const uint8_t *p = di + XFS_DINODE_CORE_SIZE +
			   (whichfork == XFS_DATA_FORK ? 0 : dsize);
	bool show = !c->sflag || id->ilist;

	switch (fmt) {
	case XFS_DINODE_FMT_LOCAL:
		if (whichfork == XFS_DATA_FORK) {
			uint64_t sz = load_be64(di + offsetof(struct xfs_dinode,
							      di_size));

			if (sz > dsize)
				finding(c, !c->sflag || id->ilist ||
					blisted(c, ino_to_fsb(g, id->ino)),
					"local inode %lld data is too large "
					"(size %lld)\n", (long long)id->ino,
					(long long)sz);
		} else if (load_be16(p) > asize) {
			finding(c, !c->sflag || id->ilist ||
				blisted(c, ino_to_fsb(g, id->ino)),
				"local inode %lld attr is too large (size "
				"%d)\n", (long long)id->ino, load_be16(p));
		}
		break;
	case XFS_DINODE_FMT_EXTENTS: {
		uint64_t n = dfork_nextents(g, di, whichfork);

		fc->nex = n;
		if (n > size / sizeof(struct xfs_bmbt_rec)) {
			finding(c, show, "bad number of extents %llu for inode %lld\n",
				(unsigned long long)n, (long long)id->ino);
			return;
		}
		process_bmbt_reclist(c, p, n, t, id, fc, f);
		break;
	}
	case XFS_DINODE_FMT_BTREE: {
		uint16_t level = load_be16(p), nrecs = load_be16(p + 2);
		const char *fname = whichfork == XFS_DATA_FORK ? "data" : "attr";
		unsigned i, pmax = bmdr_maxrecs(size, false);

		if (level >= XFS_BMBT_MAXLEVELS) {
			finding(c, show, "level for ino %lld %s fork bmap root too "
				"large (%u)\n", (long long)id->ino, fname, level);
			return;
		}
		if (nrecs > bmdr_maxrecs(size, level == 0)) {
			finding(c, show, "numrecs for ino %lld %s fork bmap root too "
				"large (%u)\n", (long long)id->ino, fname, nrecs);
			return;
		}
		if (level == 0) {
			process_bmbt_reclist(c, p + 4, nrecs, t, id, fc, f);
			fc->nex += nrecs;
			return;
		}
		for (i = 0; i < nrecs; i++)
			scan_bmbt(c, load_be64(p + 4 + 8 * pmax + 8 * i),
				  level - 1, t, id, fc, f, true, 1);
		if (fc->nex <= size / sizeof(struct xfs_bmbt_rec))
			finding(c, show, "extent count for ino %lld %s fork too low "
				"(%d) for file format\n", (long long)id->ino,
				fname, (int)fc->nex);
		break;
	}
	}
}

/* Which formats each file type may have (by S_IFMT >> 12). */
static const uint8_t okfmts[16] = {
	[1] = 1 << XFS_DINODE_FMT_DEV,
	[2] = 1 << XFS_DINODE_FMT_DEV,
	[4] = (1 << XFS_DINODE_FMT_LOCAL) | (1 << XFS_DINODE_FMT_EXTENTS) |
	      (1 << XFS_DINODE_FMT_BTREE),
	[6] = 1 << XFS_DINODE_FMT_DEV,
	[8] = (1 << XFS_DINODE_FMT_EXTENTS) | (1 << XFS_DINODE_FMT_BTREE),
	[10] = (1 << XFS_DINODE_FMT_LOCAL) | (1 << XFS_DINODE_FMT_EXTENTS),
	[12] = 1 << XFS_DINODE_FMT_DEV,
	[14] = 1 << XFS_DINODE_FMT_UUID,
};

static void process_inode(struct ck *c, xfs_ino_t ino, const uint8_t *di,
			  bool isfree)
{
	const struct fs_geom *g = c->g;
	const struct fs_sb *sb = c->sb;
	uint32_t litino = g->inodesize - XFS_DINODE_CORE_SIZE;
	uint16_t mode = load_be16(di + offsetof(struct xfs_dinode, di_mode));
	uint8_t fmt = di[offsetof(struct xfs_dinode, di_format)];
	uint8_t afmt = di[offsetof(struct xfs_dinode, di_aformat)];
	uint8_t fo = di[offsetof(struct xfs_dinode, di_forkoff)];
	uint8_t version = di[offsetof(struct xfs_dinode, di_version)];
	uint32_t nlink = load_be32(di + offsetof(struct xfs_dinode, di_nlink));
	uint64_t nblocks = load_be64(di + offsetof(struct xfs_dinode,
						   di_nblocks));
	uint16_t flags = load_be16(di + offsetof(struct xfs_dinode, di_flags));
	uint64_t flags2 = load_be64(di + offsetof(struct xfs_dinode, di_flags2));
	uint32_t dsize = fo ? fo * 8u : litino;
	struct forkcount dfc = { 0, 0, 0 }, afc = { 0, 0, 0 };
	struct fmap fm = { NULL, 0, 0 };
	bool want_map = false;
	struct ckino *id;
	enum dbm t;
	uint64_t tot, bno;
	bool v;
	static const char *const fmtnames[] = {
		"dev", "local", "extents", "btree", "uuid"
	};

	/* an allocated inode is known (and its links counted) even if bad */
	id = isfree ? NULL : find_inode(c, ino, true);
	/* -b of the inode's block (block 0 for a free inode, as the reference) */
	bno = isfree ? 0 : ino_to_fsb(g, ino);
	v = !c->sflag || (id && id->ilist) || blisted(c, bno);
	if (load_be16(di) != XFS_DINODE_MAGIC) {
		finding(c, isfree || v, "bad magic number %#x for inode %lld\n",
			load_be16(di), (long long)ino);
		return;
	}
	if (version != 3) {
		finding(c, isfree || v, "bad version number %#x for inode %lld\n", version,
			(long long)ino);
		return;
	}
	if (isfree) {
		if (nblocks)
			finding(c, v, "bad nblocks %lld for free inode %lld\n",
				(long long)nblocks, (long long)ino);
		if (nlink)
			finding(c, v, "bad nlink %d for free inode %lld\n",
				(int)nlink, (long long)ino);
		if (mode)
			finding(c, v, "bad mode %#o for free inode %lld\n", mode,
				(long long)ino);
		return;
	}
	if (!id)
		return;
	if (load_be32(di + offsetof(struct xfs_dinode, di_next_unlinked)) !=
	    NULLAGINO_)
		finding(c, v, "bad next unlinked %#x for inode %lld\n",
			load_be32(di + offsetof(struct xfs_dinode,
						di_next_unlinked)),
			(long long)ino);
	/* the reference shifts by the raw format: the shift wraps at 32 */
	if (!(okfmts[(mode & XFS_S_IFMT) >> 12] & (1u << (fmt & 31)))) {
		finding(c, v, "bad format %d for inode %lld type %#o\n", fmt,
			(long long)ino, mode & XFS_S_IFMT);
		return;
	}
	if (fo && (uint32_t)fo * 8 > litino) {
		finding(c, v, "bad fork offset %d for inode %lld\n", fo,
			(long long)ino);
		return;
	}
	if (afmt > XFS_DINODE_FMT_BTREE) {
		/* (printed as the signed byte it is on disk) */
		finding(c, v, "bad attribute format %d for inode %lld\n",
			(int8_t)afmt, (long long)ino);
		return;
	}
	if (c->verbose || id->ilist || blisted(c, bno))
		printf("inode %lld mode %#o fmt %s afmt %s nex %d anex %d nblk "
		       "%lld sz %lld%s%s%s%s%s%s%s\n", (long long)ino, mode,
		       fmt < 5 ? fmtnames[fmt] : "?",
		       afmt < 5 ? fmtnames[afmt] : "?",
		       (int)dfork_nextents(g, di, XFS_DATA_FORK),
		       (int)dfork_nextents(g, di, XFS_ATTR_FORK),
		       (long long)nblocks,
		       (long long)load_be64(di + offsetof(struct xfs_dinode,
							  di_size)),
		       flags & XFS_DIFLAG_REALTIME ? " rt" : "",
		       flags & XFS_DIFLAG_PREALLOC ? " pre" : "",
		       flags & XFS_DIFLAG_IMMUTABLE ? " imm" : "",
		       flags & XFS_DIFLAG_APPEND ? " app" : "",
		       flags & XFS_DIFLAG_SYNC ? " syn" : "",
		       flags & XFS_DIFLAG_NOATIME ? " noa" : "",
		       flags & XFS_DIFLAG_NODUMP ? " nod" : "");
	id->security = false;
	switch (mode & XFS_S_IFMT) {
	case XFS_S_IFDIR:
		t = DBM_DIR;
		want_map = fmt != XFS_DINODE_FMT_LOCAL;
		break;
	case XFS_S_IFREG:
		if (flags & XFS_DIFLAG_REALTIME) {
			t = DBM_RTDATA;
		} else if (ino == sb->rbmino) {
			t = DBM_RTBITMAP;
			want_map = true;
			addlink(c, id);
		} else if (ino == sb->rsumino) {
			t = DBM_RTSUM;
			want_map = true;
			addlink(c, id);
		} else if (ino == sb->uquotino || ino == sb->gquotino ||
			   ino == sb->pquotino) {
			t = DBM_QUOTA;
			want_map = true;
			addlink(c, id);
		} else {
			t = DBM_DATA;
		}
		if (mode & (S_ISUID | S_ISGID))
			id->security = true;
		break;
	case XFS_S_IFLNK:
		t = DBM_SYMLINK;
		break;
	default:
		id->security = true;
		t = DBM_UNKNOWN;
		break;
	}
	id->isreflink = (flags2 & XFS_DIFLAG2_REFLINK) != 0;
	id->link_set = nlink;
	id->isdir = t == DBM_DIR;
	if (c->verbose || id->ilist)
		printf("inode %lld nlink %u %s dir\n", (long long)ino, nlink,
		       id->isdir ? "is" : "not");
	process_fork(c, di, id, XFS_DATA_FORK, fmt, t, &dfc,
		     want_map ? &fm : NULL);
	if (fo) {
		c->sbversion |= XFS_SB_VERSION_ATTRBIT;
		process_fork(c, di, id, XFS_ATTR_FORK, (uint8_t)afmt, DBM_ATTR,
			     &afc, NULL);
	}
	tot = dfc.totd + dfc.toti + afc.totd + afc.toti;
	if (tot != nblocks)
		finding(c, v, "bad nblocks %lld for inode %lld, counted %lld\n",
			(long long)nblocks, (long long)ino, (long long)tot);
	if (dfc.nex != dfork_nextents(g, di, XFS_DATA_FORK))
		finding(c, v, "bad nextents %d for inode %lld, counted %d\n",
			(int)dfork_nextents(g, di, XFS_DATA_FORK), (long long)ino,
			(int)dfc.nex);
	if (afc.nex != dfork_nextents(g, di, XFS_ATTR_FORK))
		finding(c, v, "bad anextents %d for inode %lld, counted %d\n",
			(int)dfork_nextents(g, di, XFS_ATTR_FORK),
			(long long)ino, (int)afc.nex);
	if (t == DBM_DIR)
		process_dir(c, di, dsize, want_map ? &fm : NULL, id);
	else if (t == DBM_RTBITMAP)
		process_rtbitmap(c, &fm);
	else if (t == DBM_RTSUM && c->sumfile)
		process_rtsummary(c, &fm);
	fmap_free(&fm);
}

/* ---- AG btrees ---- */

typedef void (*sb_scan_fn)(struct ck *c, const uint8_t *b, unsigned level,
			   xfs_agblock_t bno, bool isroot, unsigned depth);

static void scan_sbtree(struct ck *c, xfs_agblock_t root, unsigned nlevels,
			bool isroot, sb_scan_fn fn, unsigned depth)
{
	struct fs_buf *bp = rd(agb_daddr(c->g, c->agno, root), c->g->blocksize);

	if (!bp) {
		ckprint(c, "can't read btree block %u/%u\n", c->agno, root);
		return;
	}
	if (depth <= 10)
		fn(c, bp->data, nlevels - 1, root, isroot, depth);
	buf_release(bp);
}

/* What differs between the AG btree scans. */
struct sbtree_desc {
	const struct btree_ops	*ops;
	uint32_t		magic;
	const char		*name;		/* "btbno", in messages */
	const char		*nrecs_name;	/* the reference's, there */
	enum dbm		type;		/* the use of its blocks */
	bool			count_root;	/* blocks counted as free ... */
	bool			count_nonroot;	/* ... (bno, cnt; rmap) */
	sb_scan_fn		self;
};

/*
 * The common part of the AG btree scans, as the reference orders it:
 * magic, the free block count, level, the block's use, the record count,
 * then the children of a node.  True at a sound leaf, whose records the
 * caller walks.
 */
static bool sb_enter(struct ck *c, const struct sbtree_desc *d,
		     const uint8_t *b, unsigned level, xfs_agblock_t bno,
		     bool isroot, unsigned depth)
{
	uint16_t blevel = load_be16(b + 4), nrecs = load_be16(b + 6);
	unsigned maxr = btree_maxrecs(c->g, d->ops, level == 0), i;

	if (load_be32(b) != d->magic) {
		ckalways("bad magic # %#x in %s block %u/%u\n", load_be32(b),
			 d->name, c->agno, bno);
		c->serious++;
		return false;
	}
	if (isroot ? d->count_root : d->count_nonroot) {
		c->fdblocks++;
		c->agfbtreeblks++;
	}
	if (blevel != level)
		ckprint(c, "expected level %d got %d in %s block %u/%u\n",
			(int)level, blevel, d->name, c->agno, bno);
	set_dbmap(c, c->agno, bno, 1, d->type, c->agno, bno);
	if (nrecs > maxr || (!isroot && nrecs < maxr / 2)) {
		ckalways("bad btree nrecs (%u, min=%u, max=%u) in %s block "
			 "%u/%u\n", nrecs, maxr / 2, maxr, d->nrecs_name,
			 c->agno, bno);
		c->serious++;
		return false;
	}
	if (!level)
		return true;
	{
		size_t kl = d->ops->key_len * (d->ops->overlapping ? 2 : 1);
		const uint8_t *pp = b + XFS_BTREE_SBLOCK_CRC_LEN + kl * maxr;

		for (i = 0; i < nrecs; i++)
			scan_sbtree(c, load_be32(pp + 4 * i), level, false,
				    d->self, depth + 1);
	}
	return false;
}

static void scanfunc_bno(struct ck *c, const uint8_t *b, unsigned level,
			 xfs_agblock_t bno, bool isroot, unsigned depth);
static void scanfunc_cnt(struct ck *c, const uint8_t *b, unsigned level,
			 xfs_agblock_t bno, bool isroot, unsigned depth);
static void scanfunc_rmap(struct ck *c, const uint8_t *b, unsigned level,
			  xfs_agblock_t bno, bool isroot, unsigned depth);
static void scanfunc_refcnt(struct ck *c, const uint8_t *b, unsigned level,
			    xfs_agblock_t bno, bool isroot, unsigned depth);
static void scanfunc_ino(struct ck *c, const uint8_t *b, unsigned level,
			 xfs_agblock_t bno, bool isroot, unsigned depth);
static void scanfunc_fino(struct ck *c, const uint8_t *b, unsigned level,
			  xfs_agblock_t bno, bool isroot, unsigned depth);

static const struct sbtree_desc bno_desc = {
	&bnobt_ops, XFS_ABTB_CRC_MAGIC, "btbno", "btbno", DBM_BTBNO, true, true,
	scanfunc_bno
};
static const struct sbtree_desc cnt_desc = {
	&cntbt_ops, XFS_ABTC_CRC_MAGIC, "btcnt", "btbno", DBM_BTCNT, true, true,
	scanfunc_cnt
};
static const struct sbtree_desc rmap_desc = {
	&rmapbt_ops, XFS_RMAP_CRC_MAGIC, "rmapbt", "rmapbt", DBM_BTRMAP, false,
	true, scanfunc_rmap
};
static const struct sbtree_desc refc_desc = {
	&refcountbt_ops, XFS_REFC_CRC_MAGIC, "refcntbt", "refcntbt", DBM_BTREFC,
	false, false, scanfunc_refcnt
};
static const struct sbtree_desc ino_desc = {
	&inobt_ops, XFS_IBT_CRC_MAGIC, "inobt", "inobt", DBM_BTINO, false,
	false, scanfunc_ino
};
static const struct sbtree_desc fino_desc = {
	&finobt_ops, XFS_FIBT_CRC_MAGIC, "finobt", "finobt", DBM_BTFINO, false,
	false, scanfunc_fino
};

static void scanfunc_bno(struct ck *c, const uint8_t *b, unsigned level,
			 xfs_agblock_t bno, bool isroot, unsigned depth)
{
	const uint8_t *rp = b + XFS_BTREE_SBLOCK_CRC_LEN;
	uint32_t last = 0;
	unsigned i;

	if (!sb_enter(c, &bno_desc, b, level, bno, isroot, depth))
		return;
	for (i = 0; i < load_be16(b + 6); i++) {
		uint32_t s = load_be32(rp + 8 * i), n = load_be32(rp + 8 * i + 4);

		set_dbmap(c, c->agno, s, n, DBM_FREE1, c->agno, bno);
		if (s <= last) {
			ckalways("out-of-order bno btree record %d (%u %u) block "
				 "%u/%u\n", (int)i, s, n, c->agno, bno);
			c->serious++;
		} else {
			last = s;
		}
	}
}

static void scanfunc_cnt(struct ck *c, const uint8_t *b, unsigned level,
			 xfs_agblock_t bno, bool isroot, unsigned depth)
{
	const uint8_t *rp = b + XFS_BTREE_SBLOCK_CRC_LEN;
	uint32_t last = 0;
	unsigned i;

	if (!sb_enter(c, &cnt_desc, b, level, bno, isroot, depth))
		return;
	for (i = 0; i < load_be16(b + 6); i++) {
		uint32_t s = load_be32(rp + 8 * i), n = load_be32(rp + 8 * i + 4);

		check_set_dbmap(c, c->agno, s, n, DBM_FREE1, DBM_FREE2, c->agno,
				bno);
		c->fdblocks += n;
		c->agffreeblks += n;
		if (n > c->agflongest)
			c->agflongest = n;
		if (n < last)
			ckalways("out-of-order cnt btree record %d (%u %u) block "
				 "%u/%u\n", (int)i, s, n, c->agno, bno);
		else
			last = n;
	}
}

static void scanfunc_rmap(struct ck *c, const uint8_t *b, unsigned level,
			  xfs_agblock_t bno, bool isroot, unsigned depth)
{
	const uint8_t *rp = b + XFS_BTREE_SBLOCK_CRC_LEN;
	uint32_t last = 0;
	unsigned i;

	if (!sb_enter(c, &rmap_desc, b, level, bno, isroot, depth))
		return;
	for (i = 0; i < load_be16(b + 6); i++) {
		uint32_t s = load_be32(rp + 24 * i);

		if (s < last)
			ckalways("out-of-order rmap btree record %d (%u %u) "
				 "block %u/%u\n", (int)i, s, s, c->agno, bno);
		else
			last = s;
	}
}

static void scanfunc_refcnt(struct ck *c, const uint8_t *b, unsigned level,
			    xfs_agblock_t bno, bool isroot, unsigned depth)
{
	const uint8_t *rp = b + XFS_BTREE_SBLOCK_CRC_LEN;
	uint32_t last = 0;
	unsigned i;

	if (!sb_enter(c, &refc_desc, b, level, bno, isroot, depth))
		return;
	for (i = 0; i < load_be16(b + 6); i++) {
		uint32_t s = load_be32(rp + 12 * i);
		uint32_t n = load_be32(rp + 12 * i + 4);
		uint32_t r = load_be32(rp + 12 * i + 8);

		if (r == 1) {
			/* Staging extents carry the CoW bit in their start;
			 * a count of one without it is out of place. */
			uint32_t a = s & ~XFS_REFC_COWFLAG;

			if (s & XFS_REFC_COWFLAG)
				ckalways("leftover CoW extent (%u/%u) len %u\n",
					 c->agno, a, n);
			else
				ckalways("leftover CoW extent at unexpected "
					 "address (%u/%u) len %u\n", c->agno,
					 a, n);
			set_dbmap(c, c->agno, a, n, DBM_COWDATA, c->agno, bno);
		} else {
			set_dbmap(c, c->agno, s, n, DBM_RLDATA, c->agno, bno);
		}
		if (s < last)
			ckalways("out-of-order refcnt btree record %d (%u %u) "
				 "block %u/%u\n", (int)i, s, s, c->agno, bno);
		else
			last = s + n;
	}
}

/* Inode buffers of a chunk: one cluster with sparse inodes, else all. */
static void inode_bufs(const struct ck *c, uint32_t *blks, uint32_t *inos)
{
	const struct fs_geom *g = c->g;

	*blks = g->has_sparse ? g->blocks_per_cluster : g->chunk_blocks;
	if (!*blks)
		*blks = 1;
	*inos = *blks << g->inopblog;
	if (*inos > XFS_INODES_PER_CHUNK)
		*inos = XFS_INODES_PER_CHUNK;
}

static bool rec_sparse(const struct ck *c, const uint8_t *r, unsigned ioff)
{
	return c->g->has_sparse &&
	       (load_be16(r + offsetof(struct xfs_inobt_rec,
				       ir_u.sp.ir_holemask)) &
		(1u << (ioff / XFS_INODES_PER_HOLEMASK_BIT)));
}

/* What an inode slot past the end of its cluster reads as. */
static const uint8_t zero_inode[1u << XFS_DINODE_MAX_LOG];

static void scanfunc_ino(struct ck *c, const uint8_t *b, unsigned level,
			 xfs_agblock_t bno, bool isroot, unsigned depth)
{
	const struct fs_geom *g = c->g;
	const uint8_t *rp = b + XFS_BTREE_SBLOCK_CRC_LEN;
	uint32_t bpb, ipb;
	unsigned i, j;

	if (!sb_enter(c, &ino_desc, b, level, bno, isroot, depth))
		return;
	inode_bufs(c, &bpb, &ipb);
	for (i = 0; i < load_be16(b + 6); i++) {
		const uint8_t *r = rp + 16 * i;
		xfs_agino_t agino = load_be32(r);
		xfs_agblock_t agbno = agino_to_agbno(g, agino);
		xfs_agblock_t end = agbno + g->chunk_blocks;
		unsigned off = agino_to_offset(g, agino), ioff = 0, nfree = 0;
		uint64_t freemask = load_be64(r + offsetof(struct xfs_inobt_rec,
							   ir_free));
		unsigned freecount;

		if (off == 0 && (c->sbversion & XFS_SB_VERSION_ALIGNBIT) &&
		    c->sb->inoalignmt && agbno % c->sb->inoalignmt)
			c->sbversion &= ~XFS_SB_VERSION_ALIGNBIT;
		for (; agbno < end && ioff < XFS_INODES_PER_CHUNK;
		     agbno += bpb, ioff += ipb) {
			struct fs_buf *bp;

			if (rec_sparse(c, r, ioff))
				continue;
			if (off < XFS_INODES_PER_CHUNK)
				set_dbmap(c, c->agno, agbno, bpb, DBM_INODE,
					  c->agno, bno);
			c->icount += ipb;
			c->agicount += ipb;
			bp = rd(agb_daddr(g, c->agno, agbno),
				bpb << g->blocklog);
			if (!bp) {
				ckprint(c, "can't read inode block %u/%u\n",
					c->agno, agbno);
				continue;
			}
			for (j = 0; j < ipb; j++) {
				bool isfree = (freemask >> (ioff + j)) & 1;
				const uint8_t *di = at(bp, (size_t)(off + j) <<
							   g->inodelog,
						       g->inodesize);

				if (isfree)
					nfree++;
				/*
				 * A misaligned record puts its last inodes
				 * past the cluster: the reference reads on
				 * past its buffer and finds zeroes there
				 * ("bad magic number 0"); so do we, without
				 * the overrun.
				 */
				if (!di)
					di = zero_inode;
				process_inode(c, agino_to_ino(g, c->agno,
							      agino + ioff + j),
					      di, isfree);
			}
			buf_release(bp);
		}
		freecount = g->has_sparse ?
			r[offsetof(struct xfs_inobt_rec, ir_u.sp.ir_freecount)] :
			load_be32(r + offsetof(struct xfs_inobt_rec,
					       ir_u.f.ir_freecount));
		c->ifree += freecount;
		c->agifreecount += freecount;
		if (nfree != freecount)
			ckprint(c, "ir_freecount/free mismatch, inode chunk "
				"%u/%u, freecount %d nfree %d\n", c->agno, agino,
				(int)freecount, (int)nfree);
	}
}

static void scanfunc_fino(struct ck *c, const uint8_t *b, unsigned level,
			  xfs_agblock_t bno, bool isroot, unsigned depth)
{
	const struct fs_geom *g = c->g;
	const uint8_t *rp = b + XFS_BTREE_SBLOCK_CRC_LEN;
	uint32_t bpb, ipb, n;
	unsigned i;

	if (!sb_enter(c, &fino_desc, b, level, bno, isroot, depth))
		return;
	inode_bufs(c, &bpb, &ipb);
	n = ipb >> g->inopblog;
	if (n < 1)
		n = 1;
	for (i = 0; i < load_be16(b + 6); i++) {
		const uint8_t *r = rp + 16 * i;
		xfs_agino_t agino = load_be32(r);
		xfs_agblock_t agbno = agino_to_agbno(g, agino);
		xfs_agblock_t end = agbno + g->chunk_blocks;
		unsigned off = agino_to_offset(g, agino), ioff = 0;

		if (off == 0 && (c->sbversion & XFS_SB_VERSION_ALIGNBIT) &&
		    c->sb->inoalignmt && agbno % c->sb->inoalignmt)
			c->sbversion &= ~XFS_SB_VERSION_ALIGNBIT;
		for (; agbno < end && ioff < XFS_INODES_PER_CHUNK;
		     agbno += bpb, ioff += ipb)
			if (!rec_sparse(c, r, ioff))
				check_set_dbmap(c, c->agno, agbno, n, DBM_INODE,
						DBM_INODE, c->agno, bno);
	}
}

/* ---- one AG ---- */

static void scan_freelist(struct ck *c, const struct fs_agf *agf)
{
	const struct fs_geom *g = c->g;
	xfs_agblock_t sbblk = 0;
	xfs_agblock_t agflblk = (3 * g->sectsize) >> g->blocklog;
	struct fs_buf *bp;
	const be32 *fl;
	unsigned i, count = 0, size = agfl_size(g);

	if (agflblk != sbblk && agflblk != (g->sectsize >> g->blocklog) &&
	    agflblk != ((2 * g->sectsize) >> g->blocklog))
		set_dbmap(c, c->agno, agflblk, 1, DBM_AGFL, c->agno, sbblk);
	if (!agf->flcount)
		return;
	bp = rd(agb_daddr(g, c->agno, 0) + 3 * (g->sectsize >> BBSHIFT),
		g->sectsize);
	if (!bp) {
		ckalways("can't read agfl block for ag %u\n", c->agno);
		c->serious++;
		return;
	}
	if (agf->flfirst >= size || agf->fllast >= size) {
		ckalways("agf %d freelist blocks bad, skipping freelist scan\n",
			 (int)c->agno);
		buf_release(bp);
		return;
	}
	fl = agfl_entries(bp->data);
	for (i = agf->flfirst;;) {
		set_dbmap(c, c->agno, get_be32(fl[i]), 1, DBM_FREELIST, c->agno,
			  agflblk);
		count++;
		if (i == agf->fllast)
			break;
		if (++i == size)
			i = 0;
	}
	if (count != agf->flcount)
		ckprint(c, "freeblk count %u != flcount %u in ag %u\n", count,
			agf->flcount, c->agno);
	c->fdblocks += count;
	c->agf_aggr += count;
	buf_release(bp);
}

static void scan_ag(struct ck *c, xfs_agnumber_t agno)
{
	const struct fs_geom *g = c->g;
	xfs_daddr_t base = agb_daddr(g, agno, 0);
	uint32_t secbb = g->sectsize >> BBSHIFT;
	xfs_agblock_t agfblk = g->sectsize >> g->blocklog;
	xfs_agblock_t agiblk = (2 * g->sectsize) >> g->blocklog;
	struct fs_buf *sbp, *agfbp = NULL, *agibp = NULL;
	struct fs_sb sb;
	struct fs_agf agf;
	struct fs_agi agi;
	unsigned i;

	c->agno = agno;
	c->agffreeblks = c->agflongest = 0;
	c->agfbtreeblks = (uint32_t)-2;
	c->agicount = c->agifreecount = 0;
	sbp = rd(base, g->sectsize);
	if (!sbp) {
		ckalways("can't read superblock for ag %u\n", agno);
		c->serious++;
		return;
	}
	sb_decode((const struct xfs_dsb *)sbp->data, &sb);
	buf_release(sbp);
	if (sb.magicnum != XFS_SB_MAGIC)
		ckprint(c, "bad sb magic # %#x in ag %u\n", sb.magicnum, agno);
	if (!sb_good_version(&sb))
		ckprint(c, "bad sb version # %#x in ag %u\n", sb.versionnum,
			agno);
	if (sb_is_v5(&sb))
		c->lazycount = true;
	if (agno == 0 && sb.inprogress)
		ckprint(c, "mkfs not completed successfully\n");
	if (sb_is_v5(&sb) &&
	    (sb.features_incompat & XFS_SB_FEAT_INCOMPAT_NEEDSREPAIR))
		ckprint(c, "filesystem needs xfs_repair\n");
	set_dbmap(c, agno, 0, 1, DBM_SB, agno, 0);
	if (sb.logstart && fsb_to_agno(g, sb.logstart) == agno)
		set_dbmap(c, agno, fsb_to_agbno(g, sb.logstart), sb.logblocks,
			  DBM_LOG, agno, 0);
	agfbp = rd(base + secbb, g->sectsize);
	if (!agfbp) {
		ckalways("can't read agf block for ag %u\n", agno);
		c->serious++;
		return;
	}
	agf_decode((const struct xfs_agf *)agfbp->data, &agf);
	buf_release(agfbp);
	if (agf.magicnum != XFS_AGF_MAGIC)
		ckprint(c, "bad agf magic # %#x in ag %u\n", agf.magicnum, agno);
	if (agf.versionnum != XFS_AGF_VERSION)
		ckprint(c, "bad agf version # %#x in ag %u\n", agf.versionnum,
			agno);
	if (agfblk != 0)
		set_dbmap(c, agno, agfblk, 1, DBM_AGF, agno, 0);
	if (sb.agblocks > agf.length)
		set_dbmap(c, agno, agf.length, sb.agblocks - agf.length,
			  DBM_MISSING, agno, 0);
	agibp = rd(base + 2 * secbb, g->sectsize);
	if (!agibp) {
		ckalways("can't read agi block for ag %u\n", agno);
		c->serious++;
		return;
	}
	agi_decode((const struct xfs_agi *)agibp->data, &agi);
	buf_release(agibp);
	if (agi.magicnum != XFS_AGI_MAGIC)
		ckprint(c, "bad agi magic # %#x in ag %u\n", agi.magicnum, agno);
	if (agi.versionnum != XFS_AGI_VERSION)
		ckprint(c, "bad agi version # %#x in ag %u\n", agi.versionnum,
			agno);
	if (agiblk != 0 && agiblk != agfblk)
		set_dbmap(c, agno, agiblk, 1, DBM_AGI, agno, 0);
	/*
	 * The free list and trees are read in the AG the AGF says it is, as
	 * the reference does (a damaged seqno sends it elsewhere; every map
	 * update checks the AG number first).
	 */
	c->agno = agf.seqno;
	scan_freelist(c, &agf);
	c->fdblocks--;
	scan_sbtree(c, agf.roots[XFS_AGF_BNO], agf.levels[XFS_AGF_BNO], true,
		    scanfunc_bno, 0);
	c->fdblocks--;
	scan_sbtree(c, agf.roots[XFS_AGF_CNT], agf.levels[XFS_AGF_CNT], true,
		    scanfunc_cnt, 0);
	if (agf.roots[XFS_AGF_RMAP])
		scan_sbtree(c, agf.roots[XFS_AGF_RMAP],
			    agf.levels[XFS_AGF_RMAP], true, scanfunc_rmap, 0);
	if (agf.refcount_root)
		scan_sbtree(c, agf.refcount_root, agf.refcount_level, true,
			    scanfunc_refcnt, 0);
	scan_sbtree(c, agi.root, agi.level, true, scanfunc_ino, 0);
	if (agi.free_root)
		scan_sbtree(c, agi.free_root, agi.free_level, true,
			    scanfunc_fino, 0);
	if (agf.freeblks != c->agffreeblks)
		ckprint(c, "agf_freeblks %u, counted %u in ag %u\n",
			agf.freeblks, c->agffreeblks, agno);
	if (agf.longest != c->agflongest)
		ckprint(c, "agf_longest %u, counted %u in ag %u\n", agf.longest,
			c->agflongest, agno);
	if (c->lazycount && agf.btreeblks != c->agfbtreeblks)
		ckprint(c, "agf_btreeblks %u, counted %u in ag %u\n",
			agf.btreeblks, c->agfbtreeblks, agno);
	c->agf_aggr += c->agffreeblks + (uint64_t)(int32_t)c->agfbtreeblks;
	if (agi.count != c->agicount)
		ckprint(c, "agi_count %u, counted %u in ag %u\n", agi.count,
			c->agicount, agno);
	if (agi.freecount != c->agifreecount)
		ckprint(c, "agi_freecount %u, counted %u in ag %u\n",
			agi.freecount, c->agifreecount, agno);
	for (i = 0; i < XFS_AGI_UNLINKED_BUCKETS; i++)
		if (agi.unlinked[i] != NULLAGINO_)
			ckprint(c, "agi unlinked bucket %d is %u in ag %u "
				"(inode=%lld)\n", (int)i, agi.unlinked[i], agno,
				(long long)agino_to_ino(g, agno,
							agi.unlinked[i]));
}

/* ---- after the AGs ---- */

static void check_linkcounts(struct ck *c, xfs_agnumber_t agno)
{
	struct blockmap *m = c->m;
	uint32_t h, i;

	for (h = 0; h < m->hsize; h++) {
		for (i = m->hash[agno][h]; i; i = ckino_at(m, i)->next) {
			struct ckino *e = ckino_at(m, i);
			char *path;

			if (e->link_set == e->link_add && e->link_set) {
				if (!c->verbose && !e->ilist)
					continue;
				path = inode_name(c, e);
				if (path)
					printf("inode %lld name %s\n",
					       (long long)e->ino, path);
				free(path);
				continue;
			}
			path = inode_name(c, e);
			if (e->link_add)
				finding(c, !c->sflag || e->ilist, "link count mismatch for inode %lld "
					"(name %s), nlink %d, counted %d\n",
					(long long)e->ino, path ? path : "?",
					(int)e->link_set, (int)e->link_add);
			else if (e->link_set)
				finding(c, !c->sflag || e->ilist, "disconnected inode %lld, nlink %d\n",
					(long long)e->ino, (int)e->link_set);
			else
				finding(c, !c->sflag || e->ilist, "allocated inode %lld has 0 link "
					"count\n", (long long)e->ino);
			free(path);
		}
	}
}

static void check_summary(struct ck *c)
{
	uint64_t i, n = (uint64_t)c->rsumlevels * c->sb->rbmblocks;

	for (i = 0; i < n; i++)
		if (c->sumcompute[i] != c->sumfile[i])
			ckprint(c, "rt summary mismatch, size %d block %llu, file: "
				"%d, computed: %d\n",
				(int)(i / c->sb->rbmblocks),
				(unsigned long long)(i % c->sb->rbmblocks),
				(int)c->sumfile[i], (int)c->sumcompute[i]);
}

typedef unsigned (*hdr_verify_fn)(struct fs *fs, xfs_agnumber_t agno,
				  const void *raw, size_t len,
				  struct fs_findings *fl);

/*
 * Would the kernel's verifier pass this AG header?  Ours also checks what
 * the kernel's does not: the AGI's free count against its count, the
 * AGF's free list count against flfirst..fllast, and a zero longest
 * extent with free space.  (An impossible LSN is only a warning, which
 * header_sound() does not count.)
 */
static bool kernel_ignores(const struct fs_finding *f)
{
	switch (f->code) {
	case PR_AGI_BAD_COUNT:
		return true;
	case PR_AGF_BAD_FREELIST:
		return f->field && !strcmp(f->field, "flcount") &&
		       f->found <= agfl_size(&db.fs->geo);
	case PR_AGF_BAD_LONGEST:
		return f->found <= f->expected;
	default:
		return false;
	}
}

static bool header_sound(hdr_verify_fn verify, xfs_agnumber_t agno,
			 const struct fs_buf *bp)
{
	struct fs_findings fl;
	bool ok = true;
	size_t i;

	findings_init(&fl);
	verify(db.fs, agno, bp->data, bp->len, &fl);
	for (i = 0; i < fl.n; i++)
		if (!kernel_ignores(&fl.v[i]) &&
		    problem_info(fl.v[i].code)->sev == SEV_ERROR)
			ok = false;
	findings_free(&fl);
	return ok;
}

/*
 * With lazy counters the mount replaces the superblock's inode and free
 * block counts by the sums of the AG headers, when every AGF and AGI
 * reads back sound; the checker compares with those, as the reference.
 */
static void perag_counters(struct ck *c)
{
	const struct fs_geom *g = c->g;
	uint64_t icount = 0, ifree = 0, fdblocks = 0;
	xfs_agnumber_t agno;

	c->sb_icount = c->sb->icount;
	c->sb_ifree = c->sb->ifree;
	c->sb_fdblocks = c->sb->fdblocks;
	if (!sb_is_v5(c->sb))
		return;
	for (agno = 0; agno < g->agcount; agno++) {
		xfs_daddr_t base = agb_daddr(g, agno, 0);
		uint32_t secbb = g->sectsize >> BBSHIFT;
		struct fs_buf *fbp = rd(base + secbb, g->sectsize);
		struct fs_buf *ibp = rd(base + 2 * secbb, g->sectsize);
		struct fs_agf agf;
		struct fs_agi agi;
		bool ok = fbp && ibp && header_sound(agf_verify, agno, fbp) &&
			  header_sound(agi_verify, agno, ibp);

		if (ok) {
			agf_decode((const struct xfs_agf *)fbp->data, &agf);
			agi_decode((const struct xfs_agi *)ibp->data, &agi);
		}
		if (fbp)
			buf_release(fbp);
		if (ibp)
			buf_release(ibp);
		if (!ok)
			return;
		icount += agi.count;
		ifree += agi.freecount;
		fdblocks += (uint64_t)agf.freeblks + agf.flcount + agf.btreeblks;
	}
	if (fdblocks > c->sb->dblocks || ifree > icount)
		return;
	c->sb_icount = icount;
	c->sb_ifree = ifree;
	c->sb_fdblocks = fdblocks;
}

static void check_sb_counters(struct ck *c)
{
	const struct fs_sb *sb = c->sb;

	if (c->sb_icount != c->icount)
		ckprint(c, "sb_icount %lld, counted %lld\n",
			(long long)c->sb_icount, (long long)c->icount);
	if (c->sb_ifree != c->ifree)
		ckprint(c, "sb_ifree %lld, counted %lld\n",
			(long long)c->sb_ifree, (long long)c->ifree);
	if (c->sb_fdblocks != c->fdblocks)
		ckprint(c, "sb_fdblocks %lld, counted %lld\n",
			(long long)c->sb_fdblocks, (long long)c->fdblocks);
	if (c->lazycount && c->sb_fdblocks != c->agf_aggr)
		ckprint(c, "sb_fdblocks %lld, aggregate AGF count %lld\n",
			(long long)c->sb_fdblocks, (long long)c->agf_aggr);
	if (sb->frextents != c->frextents)
		ckprint(c, "sb_frextents %lld, counted %lld\n",
			(long long)sb->frextents, (long long)c->frextents);
	if (sb->bad_features2 && sb->bad_features2 != sb->features2)
		ckprint(c, "sb_features2 (0x%x) not same as sb_bad_features2 "
			"(0x%x)\n", sb->features2, sb->bad_features2);
	if ((c->sbversion & XFS_SB_VERSION_ATTRBIT) &&
	    !(sb->versionnum & XFS_SB_VERSION_ATTRBIT))
		ckprint(c, "sb versionnum missing attr bit %x\n",
			XFS_SB_VERSION_ATTRBIT);
	if ((c->sbversion & XFS_SB_VERSION_QUOTABIT) &&
	    !(sb->versionnum & XFS_SB_VERSION_QUOTABIT))
		ckprint(c, "sb versionnum missing quota bit %x\n",
			XFS_SB_VERSION_QUOTABIT);
	if (!(c->sbversion & XFS_SB_VERSION_ALIGNBIT) &&
	    (sb->versionnum & XFS_SB_VERSION_ALIGNBIT))
		ckprint(c, "sb versionnum extra align bit %x\n",
			XFS_SB_VERSION_ALIGNBIT);
}

static bool quota_ino_set(xfs_ino_t ino)
{
	return ino && ino != NULLFSINO;
}

void check_free(struct blockmap *m)
{
	uint32_t i;

	for (i = 1; i <= m->ninos; i++)
		free(ckino_at(m, i)->name);
	for (i = 0; i < m->nchunks; i++)
		free(m->chunks[i]);
	free(m->chunks);
	m->chunks = NULL;
	m->ninos = m->nchunks = 0;
}

void check_run(struct blockmap *m, int argc, char **argv)
{
	const struct fs_geom *g = &db.fs->geo;
	const struct fs_sb *sb = &db.fs->sb;
	struct ck *c = calloc(1, sizeof(*c));
	xfs_agnumber_t agno;
	int opt;

	if (!c)
		return;
	c->m = m;
	c->g = g;
	c->sb = sb;
	optind = 0;
	while ((opt = getopt(argc, argv, "b:i:npstv")) != -1) {
		switch (opt) {
		case 'n':
			c->nflag = true;
			break;
		case 's':
			c->sflag = true;
			break;
		case 'v':
			c->verbose = true;
			break;
		case 'b': {
			uint64_t *v = realloc(c->blist, (c->nblist + 1) *
					      sizeof(*v));

			if (v) {
				c->blist = v;
				v[c->nblist++] = strtoull(optarg, NULL, 10);
			}
			break;
		}
		case 'i': {
			xfs_ino_t ino = strtoull(optarg, NULL, 10);
			struct ckino *e = find_inode(c, ino, true);

			if (e)
				e->ilist = true;
			else
				printf("-i %lld bad inode number\n",
				       (long long)ino);
			break;
		}
		default:
			break;
		}
	}
	c->sbversion = XFS_SB_VERSION_4;
	if (sb->inoalignmt || ((sb->versionnum & XFS_SB_VERSION_ALIGNBIT) &&
			       g->inopblock >= XFS_INODES_PER_CHUNK))
		c->sbversion |= XFS_SB_VERSION_ALIGNBIT;
	if (quota_ino_set(sb->uquotino) || quota_ino_set(sb->gquotino) ||
	    quota_ino_set(sb->pquotino))
		c->sbversion |= XFS_SB_VERSION_QUOTABIT;
	if (sb->rextents) {
		uint64_t n;

		c->rsumlevels = 1;
		while ((sb->rextents >> c->rsumlevels) != 0)
			c->rsumlevels++;
		n = (uint64_t)c->rsumlevels * sb->rbmblocks;
		c->sumcompute = calloc(n ? n : 1, sizeof(uint32_t));
		c->sumfile = calloc(n ? n : 1, sizeof(uint32_t));
	}
	perag_counters(c);
	for (agno = 0; agno < g->agcount; agno++)
		scan_ag(c, agno);
	if (c->serious) {
		db.exitcode = 2;
		goto out;
	}
	{
		struct ckino *r = find_inode(c, sb->rootino, false);

		if (!r)
			ckprint(c, "root inode %lld is missing\n",
				(long long)sb->rootino);
		else if (!r->isdir)
			finding(c, !c->sflag || r->ilist,
				"root inode %lld is not a directory\n",
				(long long)sb->rootino);
	}
	for (agno = 0; agno < g->agcount; agno++)
		checknot_dbmap(c, agno, (1u << DBM_UNKNOWN) | (1u << DBM_FREE1));
	for (agno = 0; agno < g->agcount; agno++)
		check_linkcounts(c, agno);
	if (sb->rblocks && m->rtblocks) {
		uint64_t i, n = sb->rextents * sb->rextsize;
		const uint8_t *p = m->type[g->agcount];

		for (i = 0; i < n && i < m->rtblocks; i++)
			if (p[i] == DBM_UNKNOWN)
				ckprint(c, "rtblock %llu type %s not expected\n",
					(unsigned long long)i,
					dbm_names[DBM_UNKNOWN]);
		if (c->sumcompute && c->sumfile)
			check_summary(c);
	}
	check_sb_counters(c);
	if (c->error)
		db.exitcode = 3;
out:
	free(c->freetab);
	free(c->blist);
	free(c->sumcompute);
	free(c->sumfile);
	free(c);
}
