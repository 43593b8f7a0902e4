/*
 * Positions: the cursor stack (push, pop, stack), the position ring (ring,
 * back, forward) and reading/writing the buffer under the top cursor.
 *
 * A cursor owns a private copy of its buffer, read through the libfs
 * buffer cache; write commands change the copy, then cur_write() puts it
 * back through the cache (recomputing the object's CRC unless asked not
 * to) and writes it to the device at once.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "db.h"
#include "format/ondisk.h"
#include "format/crc32c.h"

/* ---- the stack ---- */

static struct cursor empty_cursor = {
	.ino = NULLFSINO, .dirino = NULLFSINO,
};

struct cursor *cur_top(void)
{
	if (!db.nstack)
		return &empty_cursor;
	return &db.stack[db.nstack - 1];
}

void cur_free(struct cursor *c)
{
	free(c->buf);
	free(c->segs);
	c->buf = NULL;
	c->segs = NULL;
	c->nsegs = 0;
}

void cur_copy(struct cursor *dst, const struct cursor *src)
{
	*dst = *src;
	dst->buf = NULL;
	dst->segs = NULL;
	if (src->buf) {
		dst->buf = malloc((size_t)src->blen * BBSIZE);
		if (dst->buf)
			memcpy(dst->buf, src->buf, (size_t)src->blen * BBSIZE);
	}
	if (src->segs) {
		dst->segs = malloc(src->nsegs * sizeof(*src->segs));
		if (dst->segs)
			memcpy(dst->segs, src->segs,
			       src->nsegs * sizeof(*src->segs));
	}
}

static struct cursor *stack_grow(void)
{
	if (db.nstack == db.capstack) {
		int cap = db.capstack ? db.capstack * 2 : 8;
		struct cursor *s = realloc(db.stack, cap * sizeof(*s));

		if (!s) {
			fprintf(stderr, "%s: out of memory\n", db.progname);
			exit(1);
		}
		db.stack = s;
		db.capstack = cap;
	}
	return &db.stack[db.nstack++];
}

/* The top cursor, created if the stack is empty. */
static struct cursor *cur_top_make(void)
{
	if (!db.nstack) {
		struct cursor *c = stack_grow();

		*c = empty_cursor;
	}
	return cur_top();
}

void cur_push(void)
{
	struct cursor tmp;

	cur_copy(&tmp, cur_top());
	*stack_grow() = tmp;
}

int cur_pop(void)
{
	if (!db.nstack)
		return -1;
	cur_free(&db.stack[--db.nstack]);
	return 0;
}

/* ---- the object under a cursor ---- */

uint8_t *cur_obj(const struct cursor *c)
{
	return c->buf ? c->buf + c->boff : NULL;
}

void cur_ctx(const struct cursor *c, struct fld_ctx *ctx)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->data = cur_obj(c);
	ctx->len = c->buf ? c->len : 0;
	if (db.fs && db.fs->sb_ok) {
		const struct fs_geom *g = &db.fs->geo;

		ctx->blocksize = g->blocksize;
		ctx->dirblksize = g->dirblksize;
		ctx->inodesize = g->inodesize;
		ctx->has_ftype = g->has_ftype;
		ctx->has_sparse = g->has_sparse;
		ctx->has_nrext64 = g->has_nrext64;
		ctx->bigtime_fs = g->has_bigtime;
	}
}

/*
 * "(correct)" and "(bad)".  The reference reports the result of the
 * buffer verifier that ran when a buffer (address, length) was first read
 * with a verifying type in the session; looking at the same buffer as
 * another type of the same size reuses it.  A write with a recomputed CRC
 * makes it good, a write that leaves the CRC alone (-c) does not change
 * what is reported, crc -r/-i check again.  Inodes are checked one by
 * one, every time.  We keep the same bookkeeping.
 */
struct bufstat {
	xfs_daddr_t			bb;
	uint32_t			blen;
	const struct fld_objtype	*typ;	/* first verifying type */
	bool				crc_ok;
};

static struct bufstat *bufstats;
static size_t nbufstats, capbufstats;

static bool typ_verifies(const struct fld_objtype *t)
{
	return t && t->type->sub && t != typ_inode;
}

/* Does the object of type t at the start of buf pass its CRC check? */
static bool crc_check_as(const struct fld_objtype *t, const uint8_t *buf,
			 uint32_t len)
{
	struct fld_ctx ctx;
	struct cursor tmp = { .typ = t, .buf = (uint8_t *)buf, .len = len };
	uint32_t off;

	cur_ctx(&tmp, &ctx);
	off = fld_obj_crc_off(t, &ctx);
	if (off == FLD_NO_CRC)
		return true;	/* no CRC, nothing to report as bad */
	if (t->crc_stride) {
		uint32_t i;

		for (i = 0; i + t->crc_stride <= len; i += t->crc_stride)
			if (!xfs_cksum_verify(buf + i, t->crc_len, off))
				return false;
		return true;
	}
	if (off + 4 > len)
		return false;
	return xfs_cksum_verify(buf, len, off);
}

static struct bufstat *bufstat_find(xfs_daddr_t bb, uint32_t blen)
{
	size_t i;

	for (i = 0; i < nbufstats; i++)
		if (bufstats[i].bb == bb && bufstats[i].blen == blen)
			return &bufstats[i];
	return NULL;
}

/* A buffer was read for cursor c: remember how it verified. */
static void bufstat_note_read(const struct cursor *c)
{
	struct bufstat *st;

	/* the reference's verifier dispatch says so as it reads */
	if (c->buf && (c->typ == typ_dir3 || c->typ == typ_attr3)) {
		struct fld_ctx ctx;

		cur_ctx(c, &ctx);
		if (fld_obj_crc_off(c->typ, &ctx) == FLD_NO_CRC)
			dbprintf("Unknown %s buffer type!\n",
				 c->typ == typ_dir3 ? "directory" : "attribute");
	}
	if (!typ_verifies(c->typ) || !c->buf || c->segs)
		return;
	st = bufstat_find(c->bb, c->blen);
	if (st)
		return;
	if (nbufstats == capbufstats) {
		size_t cap = capbufstats ? capbufstats * 2 : 64;
		struct bufstat *n = realloc(bufstats, cap * sizeof(*n));

		if (!n)
			return;
		bufstats = n;
		capbufstats = cap;
	}
	st = &bufstats[nbufstats++];
	st->bb = c->bb;
	st->blen = c->blen;
	st->typ = c->typ;
	st->crc_ok = crc_check_as(c->typ, c->buf, c->blen * BBSIZE);
}

/* After a write (recrc) or a crc command (recheck): update the status. */
static void bufstat_update(const struct cursor *c, bool recrc, bool recheck)
{
	struct bufstat *st = bufstat_find(c->bb, c->blen);

	if (!st)
		return;
	if (recheck)
		st->crc_ok = crc_check_as(st->typ, c->buf, c->blen * BBSIZE);
	else if (recrc)
		st->crc_ok = true;
}

void cur_crc_recheck(void)
{
	bufstat_update(cur_top(), false, true);
}

bool cur_crc_ok(const struct cursor *c)
{
	const struct bufstat *st;

	if (!c->buf || !c->typ)
		return false;
	if (c->typ == typ_inode)
		return c->boff + c->len <= c->blen * BBSIZE &&
		       xfs_cksum_verify(cur_obj(c), c->len, XFS_DINODE_CRC_OFF);
	st = c->segs ? NULL : bufstat_find(c->bb, c->blen);
	if (st)
		return st->crc_ok;
	return crc_check_as(c->typ, cur_obj(c), c->len);
}

void cur_recalc_crc(struct cursor *c)
{
	struct fld_ctx ctx;
	uint32_t off;

	if (!c->typ || !c->buf)
		return;
	cur_ctx(c, &ctx);
	off = fld_obj_crc_off(c->typ, &ctx);
	if (off == FLD_NO_CRC)
		return;
	if (c->typ->crc_stride) {
		uint32_t i;

		for (i = 0; i + c->typ->crc_stride <= c->len;
		     i += c->typ->crc_stride)
			xfs_cksum_update(cur_obj(c) + i, c->typ->crc_len, off);
		return;
	}
	if (off + 4 > c->len)
		return;
	xfs_cksum_update(cur_obj(c), c->len, off);
}

/* ---- reading ---- */

static int read_buf(struct cursor *c)
{
	struct fs_findings fl;
	struct fs_buf *bp;
	size_t bytes = (size_t)c->blen * BBSIZE;
	int err;

	free(c->buf);
	c->buf = calloc(1, bytes ? bytes : 1);
	c->valid = false;
	if (!c->buf)
		return -ENOMEM;
	findings_init(&fl);
	if (c->segs)
		err = bcache_read_segs(db.fs->bc, c->segs, c->nsegs, NULL,
				       &fl, &bp);
	else
		err = bcache_read(db.fs->bc, c->bb, bytes, NULL, &fl, &bp);
	findings_free(&fl);
	if (err)
		return err;
	memcpy(c->buf, bp->data, bytes < bp->len ? bytes : bp->len);
	buf_release(bp);
	c->valid = true;
	return 0;
}

/* Drop changes to the top buffer: read it again from the disk. */
int cur_reread(void)
{
	struct cursor *c = cur_top();

	if (!c->buf)
		return 0;
	return read_buf(c);
}

static void cursor_set_common(struct cursor *c, const struct fld_objtype *typ,
			      xfs_ino_t ino)
{
	c->typ = typ;
	c->boff = 0;
	c->len = c->blen * BBSIZE;
	if (ino != NULLFSINO)
		c->ino = ino;
}

int set_cur(const struct fld_objtype *typ, xfs_daddr_t bb, uint32_t blen,
	    xfs_ino_t ino)
{
	struct cursor *c = cur_top_make();
	int err;

	free(c->segs);
	c->segs = NULL;
	c->nsegs = 0;
	c->bb = bb;
	c->blen = blen;
	cursor_set_common(c, typ, ino);
	if (ino == NULLFSINO) {
		c->ino = NULLFSINO;
		c->dirino = NULLFSINO;
	}
	err = read_buf(c);
	bufstat_note_read(c);
	ring_add();
	return err;
}

int set_cur_segs(const struct fld_objtype *typ, const struct buf_seg *segs,
		 unsigned nsegs, xfs_ino_t ino)
{
	struct cursor *c = cur_top_make();
	uint32_t total = 0;
	unsigned i;
	int err;

	if (nsegs == 1)
		return set_cur(typ, segs[0].daddr, segs[0].len / BBSIZE, ino);
	free(c->segs);
	c->segs = malloc(nsegs * sizeof(*segs));
	if (!c->segs)
		return -ENOMEM;
	memcpy(c->segs, segs, nsegs * sizeof(*segs));
	c->nsegs = nsegs;
	for (i = 0; i < nsegs; i++)
		total += segs[i].len;
	c->bb = segs[0].daddr;
	c->blen = total / BBSIZE;
	cursor_set_common(c, typ, ino);
	err = read_buf(c);
	bufstat_note_read(c);
	ring_add();
	return err;
}

void set_cur_type(const struct fld_objtype *typ)
{
	struct cursor *c = cur_top_make();

	c->typ = typ;
}

/*
 * Write the top buffer back to the device.  With recrc, the CRC of the
 * object is computed first (the default of write and fuzz).
 */
int cur_write(bool recrc)
{
	struct cursor *c = cur_top();
	struct fs_buf *bp;
	size_t bytes = (size_t)c->blen * BBSIZE;
	int err;

	if (!c->buf)
		return -EINVAL;
	if (db.readonly)
		return -EROFS;
	if (recrc)
		cur_recalc_crc(c);
	if (c->segs) {
		struct fs_findings fl;

		findings_init(&fl);
		err = bcache_read_segs(db.fs->bc, c->segs, c->nsegs, NULL, &fl,
				       &bp);
		findings_free(&fl);
	} else {
		err = bcache_get(db.fs->bc, c->bb, bytes, NULL, &bp);
	}
	if (err)
		return err;
	memcpy(bp->data, c->buf, bytes < bp->len ? bytes : bp->len);
	bp->flags |= BUF_LOADED;
	err = buf_mark_dirty(bp);
	if (!err)
		err = buf_write(bp);
	buf_release(bp);
	if (!err) {
		int i;

		bufstat_update(c, recrc, false);
		/* other positions on the same buffer see the change */
		for (i = 0; i < db.nstack; i++) {
			struct cursor *o = &db.stack[i];

			if (o != c && o->buf && o->bb == c->bb &&
			    o->blen == c->blen && !o->segs == !c->segs)
				memcpy(o->buf, c->buf, bytes);
		}
	}
	return err;
}

/* ---- printing positions ---- */

void print_cursor(const char *tag, const struct cursor *c)
{
	long long fsbno = 0;

	if (db.fs && db.fs->sb_ok)
		fsbno = (long long)daddr_to_fsb(&db.fs->geo, c->bb);
	dbprintf("%s\n", tag);
	dbprintf("\tbyte offset %lld, length %d\n",
		 (long long)c->bb * BBSIZE + c->boff, c->typ || c->buf ? (int)c->len : 0);
	dbprintf("\tbuffer block %lld (fsbno %lld), %d bb%s\n",
		 (long long)c->bb, fsbno, (int)c->blen, c->blen == 1 ? "" : "s");
	dbprintf("\tinode %lld, dir inode %lld, type %s\n",
		 (long long)(int64_t)c->ino, (long long)(int64_t)c->dirino,
		 c->typ ? c->typ->name : "none");
}

/* ---- the ring ---- */

#define RING_SIZE	20

/*
 * The ring: the last RING_SIZE positions, in slots filled one after the
 * other and wrapping; "ring" lists them from the newest down, "*" marks
 * where back/forward stand.
 */
struct ring_ent {
	const struct fld_objtype *typ;
	xfs_daddr_t	bb;
	uint32_t	blen;
	uint32_t	boff, len;
	xfs_ino_t	ino;
	struct buf_seg	*segs;
	unsigned	nsegs;
};

static struct ring_ent ring[RING_SIZE];
static int ring_head = -1;	/* newest slot */
static int ring_cur = -1;	/* where back/forward are */
static int ring_n;		/* slots in use */
static bool ring_restoring;

void ring_suspend(bool on)
{
	ring_restoring = on;
}

void ring_add(void)
{
	struct cursor *c = cur_top();
	struct ring_ent *e;

	if (ring_restoring || !c->typ)
		return;
	ring_head = (ring_head + 1) % RING_SIZE;
	e = &ring[ring_head];
	free(e->segs);
	e->segs = NULL;
	e->typ = c->typ;
	e->bb = c->bb;
	e->blen = c->blen;
	e->boff = c->boff;
	e->len = c->len;
	e->ino = c->ino;
	e->nsegs = 0;
	if (c->segs) {
		e->segs = malloc(c->nsegs * sizeof(*c->segs));
		if (e->segs) {
			memcpy(e->segs, c->segs, c->nsegs * sizeof(*c->segs));
			e->nsegs = c->nsegs;
		}
	}
	if (ring_n < RING_SIZE)
		ring_n++;
	ring_cur = ring_head;
}

static void ring_goto(int slot)
{
	struct ring_ent *e = &ring[slot];
	struct cursor *c;

	ring_restoring = true;
	if (e->segs)
		set_cur_segs(e->typ, e->segs, e->nsegs, NULLFSINO);
	else
		set_cur(e->typ, e->bb, e->blen, NULLFSINO);
	ring_restoring = false;
	c = cur_top();
	c->boff = e->boff;
	c->len = e->len;
	c->ino = e->ino;
	ring_cur = slot;
}

static int ring_f(int argc, char **argv)
{
	int i;

	if (argc > 1) {
		char *end;
		long idx = strtol(argv[1], &end, 0);

		if (*end || idx < 0 || idx >= ring_n) {
			dbprintf("invalid entry: %s\n", argv[1]);
			return 0;
		}
		ring_goto((int)idx);
		return 0;
	}
	if (!ring_n) {
		dbprintf("no entries in location ring.\n");
		return 0;
	}
	dbprintf("      type    bblock  bblen    fsbno     inode\n");
	for (i = 0; i < ring_n; i++) {
		int slot = (ring_head - i + RING_SIZE) % RING_SIZE;
		struct ring_ent *e = &ring[slot];
		long long fsbno = db.fs && db.fs->sb_ok ?
			(long long)daddr_to_fsb(&db.fs->geo, e->bb) : 0;

		dbprintf("%c%2d: %-8s%8lld %5d %8lld %9lld\n",
			 slot == ring_cur ? '*' : ' ', slot, e->typ->name,
			 (long long)e->bb, (int)e->blen, fsbno,
			 (long long)(int64_t)e->ino);
	}
	return 0;
}

/* The slot before / after the current one, or -1 at either end. */
static int ring_step(int dir)
{
	int oldest = (ring_head - ring_n + 1 + RING_SIZE) % RING_SIZE;

	if (dir > 0)
		return ring_cur == ring_head ? -1 : (ring_cur + 1) % RING_SIZE;
	return ring_cur == oldest ? -1 : (ring_cur - 1 + RING_SIZE) % RING_SIZE;
}

static int back_f(int argc, char **argv)
{
	int slot;

	(void)argc;
	(void)argv;
	if (!ring_n) {
		dbprintf("ring is empty\n");
		return 0;
	}
	slot = ring_step(-1);
	if (slot >= 0)
		ring_goto(slot);
	return 0;
}

static int forward_f(int argc, char **argv)
{
	int slot;

	(void)argc;
	(void)argv;
	if (!ring_n) {
		dbprintf("ring is empty\n");
		return 0;
	}
	slot = ring_step(1);
	if (slot >= 0)
		ring_goto(slot);
	return 0;
}

static int push_f(int argc, char **argv)
{
	cur_push();
	if (argc > 1)
		return run_argv(argc - 1, argv + 1);
	return 0;
}

static int pop_f(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cur_pop();
	return 0;
}

static int stack_f(int argc, char **argv)
{
	int i;
	char tag[16];

	(void)argc;
	(void)argv;
	for (i = db.nstack - 1; i >= 0; i--) {
		snprintf(tag, sizeof(tag), "%d: ", i + 1);
		print_cursor(tag, &db.stack[i]);
	}
	return 0;
}

static const struct db_cmd cursor_cmds[] = {
	{ "back", "b", back_f, 0, 0, false, true, NULL,
	  "move to the previous location in the position ring" },
	{ "forward", "f", forward_f, 0, 0, false, true, NULL,
	  "move forward to next entry in the position ring" },
	{ "pop", NULL, pop_f, 0, 0, false, true, NULL,
	  "pop location from the stack" },
	{ "push", NULL, push_f, 0, 100, false, true, "[command]",
	  "push location to the stack" },
	{ "ring", NULL, ring_f, 0, 1, false, true, NULL,
	  "show position ring or move to a specific entry" },
	{ "stack", NULL, stack_f, 0, 0, false, true, NULL,
	  "view the location stack" },
};

void cursor_cmds_init(void)
{
	register_cmds(cursor_cmds, sizeof(cursor_cmds) / sizeof(cursor_cmds[0]));
}
