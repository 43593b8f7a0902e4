/*
 * Navigation: commands that set the position (sb, agf, agi, agfl, inode,
 * addr, fsblock, daddr, dblock, ablock, type, path) and convert, which
 * only computes one.  Inode positions read the inode's whole cluster, as
 * the reference does, so offsets and "buffer block" lines match.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "db.h"
#include "inode.h"
#include "format/ondisk.h"
#include "format/crc32c.h"

xfs_agnumber_t cur_agno = NULLAGNUMBER;

/* Set by fsops.c, which reads file blocks through the inode's map. */
int (*fileblock_hook)(int argc, char **argv, int whichfork);

bool parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!*s)
		return false;
	*v = strtoull(s, &end, 0);
	return !*end;
}

bool parse_s64(const char *s, int64_t *v)
{
	char *end;

	if (!*s)
		return false;
	*v = strtoll(s, &end, 0);
	return !*end;
}

/* ---- AG headers ---- */

static int ag_header(int argc, char **argv, const struct fld_objtype *typ,
		     unsigned sector)
{
	const struct fs_geom *g = &db.fs->geo;
	uint64_t agno = cur_agno == NULLAGNUMBER ? 0 : cur_agno;

	if (argc > 1 && (!parse_u64(argv[1], &agno) || agno >= g->agcount)) {
		dbprintf("bad allocation group number %s\n", argv[1]);
		return 0;
	}
	cur_agno = (xfs_agnumber_t)agno;
	set_cur(typ, ag_sector_daddr(g, cur_agno, sector), g->sectsize / BBSIZE,
		NULLFSINO);
	return 0;
}

static int sb_f(int argc, char **argv)
{
	return ag_header(argc, argv, typ_sb, XFS_SB_SECTOR);
}

static int agf_f(int argc, char **argv)
{
	return ag_header(argc, argv, typ_agf, XFS_AGF_SECTOR);
}

static int agi_f(int argc, char **argv)
{
	return ag_header(argc, argv, typ_agi, XFS_AGI_SECTOR);
}

static int agfl_f(int argc, char **argv)
{
	return ag_header(argc, argv, typ_agfl, XFS_AGFL_SECTOR);
}

/* ---- inodes ---- */

static bool ino_in_fs(xfs_ino_t ino)
{
	const struct fs_geom *g = &db.fs->geo;
	xfs_agnumber_t agno = ino_to_agno(g, ino);

	if ((ino >> g->agino_log) >= g->agcount)
		return false;
	return ino_to_agbno(g, ino) < geom_ag_blocks(g, agno);
}

void set_cur_inode(xfs_ino_t ino)
{
	const struct fs_geom *g = &db.fs->geo;
	xfs_agnumber_t agno = ino_to_agno(g, ino);
	xfs_agblock_t agbno = ino_to_agbno(g, ino), cluster_agbno;
	uint32_t bpc = g->blocks_per_cluster ? g->blocks_per_cluster : 1;
	uint32_t offset;
	struct cursor *c;
	uint8_t *raw;

	/* the cluster holding the inode, as the chunk alignment lays them */
	if (g->inoalign > 1) {
		xfs_agblock_t off_agbno = agbno & (g->inoalign - 1);

		cluster_agbno = agbno - off_agbno + (off_agbno / bpc) * bpc;
	} else {
		cluster_agbno = agbno - agbno % bpc;
	}
	offset = ((agbno - cluster_agbno) * g->inopblock + ino_to_offset(g, ino)) *
		 g->inodesize;
	set_cur(typ_inode, agb_to_daddr(g, agno, cluster_agbno),
		fsb_to_bb(g, bpc), ino);
	c = cur_top();
	c->boff = offset;
	c->len = g->inodesize;
	c->ino = ino;
	c->mode = 0;
	raw = cur_obj(c);
	if (raw && offset + g->inodesize <= c->blen * BBSIZE) {
		/* the directory we are in stays unless this is one */
		c->mode = load_be16(raw + offsetof(struct xfs_dinode, di_mode));
		if ((c->mode & XFS_S_IFMT) == XFS_S_IFDIR)
			c->dirino = ino;
		if (!xfs_cksum_verify(raw, g->inodesize, XFS_DINODE_CRC_OFF))
			dbprintf("Metadata CRC error detected for ino %lld\n",
				 (long long)ino);
	}
	cur_agno = agno;
}

static int inode_f(int argc, char **argv)
{
	struct cursor *c = cur_top();
	uint64_t ino;

	if (argc < 2) {
		if (c->ino == NULLFSINO)
			dbprintf("no current inode\n");
		else
			dbprintf("current inode number is %lld\n",
				 (long long)c->ino);
		return 0;
	}
	if (!parse_u64(argv[1], &ino)) {
		dbprintf("bad value for inode number %s\n", argv[1]);
		return 0;
	}
	if (!ino_in_fs(ino)) {
		dbprintf("bad inode number %lld\n", (long long)ino);
		return 0;
	}
	set_cur_inode(ino);
	return 0;
}

/* ---- raw addresses ---- */

static int fsblock_f(int argc, char **argv)
{
	const struct fs_geom *g = &db.fs->geo;
	struct cursor *c = cur_top();
	uint64_t fsb;

	if (argc < 2) {
		dbprintf("current fsblock is %lld\n",
			 (long long)daddr_to_fsb(g, c->bb));
		return 0;
	}
	if (!parse_u64(argv[1], &fsb) || !fsb_valid(g, fsb)) {
		dbprintf("bad fsblock %s\n", argv[1]);
		return 0;
	}
	cur_agno = fsb_to_agno(g, fsb);
	set_cur(typ_data, fsb_to_daddr(g, fsb), fsb_to_bb(g, 1), NULLFSINO);
	return 0;
}

static int daddr_f(int argc, char **argv)
{
	const struct fs_geom *g = &db.fs->geo;
	struct cursor *c = cur_top();
	uint64_t d;

	if (argc < 2) {
		dbprintf("current daddr is %lld\n", (long long)c->bb);
		return 0;
	}
	if (!parse_u64(argv[1], &d) || d >= (g->dblocks << g->blkbb_log)) {
		dbprintf("bad daddr %s\n", argv[1]);
		return 0;
	}
	set_cur(typ_data, d, 1, NULLFSINO);
	return 0;
}

/* ---- addr: follow a field to what it points at ---- */

static int addr_f(int argc, char **argv)
{
	struct cursor *c = cur_top();
	const struct fs_geom *g = &db.fs->geo;
	struct fld_ctx ctx;
	struct fexpr e;
	const char *next;
	const struct fld_objtype *nt;
	uint64_t v;
	unsigned sz;
	bool agrel;
	xfs_agnumber_t agno;

	if (argc < 2) {
		print_cursor("current", c);
		return 0;
	}
	if (!c->typ) {
		dbprintf("no current type\n");
		return 0;
	}
	if (!c->typ->type->sub) {
		dbprintf("no fields for type %s\n", c->typ->name);
		return 0;
	}
	if (fexpr_parse(argv[1], &e, false))
		return 0;
	next = e.f->next ? e.f->next : e.f->type->next;
	if (!next) {
		dbprintf("no next type for field %s\n", argv[1]);
		return 0;
	}
	if (e.f->type->print != FP_NUM) {
		dbprintf("no next type for field %s\n", argv[1]);
		return 0;
	}
	cur_ctx(c, &ctx);
	{
		uint64_t bit = fld_elem_bit(&ctx, e.f, e.pbit, e.low);

		sz = (unsigned)ftype_size(&ctx, e.f->type, bit);
		v = bits_get(ctx.data, ctx.len, bit, sz);
	}
	agrel = (e.f->type->arg & FTA_AGREL) != 0;
	agno = (xfs_agnumber_t)daddr_to_agno(g, c->bb);
	nt = fld_objtype_find(next);
	if (!strcmp(next, "inode")) {
		xfs_ino_t ino = agrel ? agino_to_ino(g, agno, (xfs_agino_t)v) : v;

		if ((sz < 64 && v == (1ull << sz) - 1) || v == NULLFSINO ||
		    !ino_in_fs(ino)) {
			dbprintf("null inode number, cannot set new addr\n");
			return 0;
		}
		set_cur_inode(ino);
		return 0;
	}
	if (!strcmp(next, "dir3") || !strcmp(next, "attr3")) {
		const char *av[2] = { argv[0], NULL };
		char buf[32];

		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
		av[1] = buf;
		if (!fileblock_hook) {
			dbprintf("no next type for field %s\n", argv[1]);
			return 0;
		}
		return fileblock_hook(2, (char **)av, !strcmp(next, "dir3") ?
				      XFS_DATA_FORK : XFS_ATTR_FORK);
	}
	if ((sz < 64 && v == (1ull << sz) - 1) || v == (uint64_t)-1) {
		dbprintf("null block number, cannot set new addr\n");
		return 0;
	}
	if (agrel) {
		if (v >= geom_ag_blocks(g, agno)) {
			dbprintf("invalid block number %llu\n",
				 (unsigned long long)v);
			return 0;
		}
		set_cur(nt, agb_to_daddr(g, agno, (xfs_agblock_t)v),
			fsb_to_bb(g, 1), NULLFSINO);
	} else {
		uint32_t nb = 1;

		if (!fsb_valid(g, v)) {
			dbprintf("invalid block number %llu\n",
				 (unsigned long long)v);
			return 0;
		}
		if (nt == typ_log)
			nb = 1;
		set_cur(nt, fsb_to_daddr(g, v), fsb_to_bb(g, nb), NULLFSINO);
	}
	if (nt && (nt == typ_bmapbtd || nt == typ_bmapbta)) {
		/* bmbt blocks keep the inode they belong to */
	}
	return 0;
}

/* ---- type ---- */

/*
 * Look at the current position as another type: the buffer is read
 * again at the same address with the size that type has (an inode is
 * found in its cluster, as "inode" would).
 */
static void type_switch(const struct fld_objtype *t)
{
	const struct fs_geom *g = &db.fs->geo;
	struct cursor *c = cur_top();
	xfs_daddr_t bb = c->bb;
	uint32_t bytes = BBSIZE;

	if (t == c->typ)
		return;

	switch (t->size) {
	case FLD_SZ_INODE: {
		xfs_agnumber_t agno = (xfs_agnumber_t)daddr_to_agno(g, bb);
		xfs_agino_t agino = (xfs_agino_t)(((bb << BBSHIFT) >> g->inodelog) %
			((uint64_t)g->agblocks << g->inopblog));

		set_cur_inode(agino_to_ino(g, agno, agino));
		return;
	}
	case FLD_SZ_SECTOR:
		bytes = g->sectsize;
		break;
	case FLD_SZ_BLOCK:
		bytes = g->blocksize;
		break;
	case FLD_SZ_DIRBLK:
		bytes = g->dirblksize;
		break;
	case FLD_SZ_BB:
		break;
	}
	if (c->segs && (t->size == FLD_SZ_DIRBLK || t->size == FLD_SZ_BLOCK) &&
	    c->blen * BBSIZE == bytes) {
		/* keep a discontiguous directory block as it is */
		c->typ = t;
		return;
	}
	{
		xfs_ino_t ino = c->ino, dirino = c->dirino;

		ring_suspend(true);
		set_cur(t, bb, bytes / BBSIZE, NULLFSINO);
		ring_suspend(false);
		c = cur_top();
		c->ino = ino;
		c->dirino = dirino;
	}
}

static void list_types(void)
{
	unsigned i;

	dbprintf("\n supported types are:\n ");
	for (i = 0; i < fld_nobjtypes; i++) {
		dbprintf("%s", fld_objtypes[i].name);
		if (i < fld_nobjtypes - 1)
			dbprintf(", ");
		if ((i + 1) % 8 == 0 && i < fld_nobjtypes - 1)
			dbprintf("\n ");
	}
	dbprintf("\n");
}

static int type_f(int argc, char **argv)
{
	struct cursor *c = cur_top();
	const struct fld_objtype *t;

	if (argc < 2) {
		if (c->typ)
			dbprintf("current type is \"%s\"\n", c->typ->name);
		else
			dbprintf("no current type\n");
		list_types();
		return 0;
	}
	t = fld_objtype_find(argv[1]);
	if (!t) {
		dbprintf("no such type %s\n", argv[1]);
		return 0;
	}
	type_switch(t);
	return 0;
}

/* ---- convert ---- */

enum ct {
	CT_AGBLOCK, CT_AGINO, CT_AGNUMBER, CT_BBOFF, CT_BLKOFF, CT_BYTE,
	CT_DADDR, CT_FSBLOCK, CT_INO, CT_INOIDX, CT_INOOFF, CT_N
};

#define CM(x)	(1u << CT_##x)

static const struct {
	const char	*names[4];
	unsigned	allowed;	/* may be combined with */
} ctypes[CT_N] = {
	[CT_AGBLOCK] = { { "agblock", "agbno" },
		CM(AGNUMBER) | CM(BBOFF) | CM(BLKOFF) | CM(INOIDX) | CM(INOOFF) },
	[CT_AGINO] = { { "agino", "aginode" }, CM(AGNUMBER) | CM(INOOFF) },
	[CT_AGNUMBER] = { { "agnumber", "agno" },
		CM(AGBLOCK) | CM(AGINO) | CM(BBOFF) | CM(BLKOFF) | CM(INOIDX) |
		CM(INOOFF) },
	[CT_BBOFF] = { { "bboff", "daddroff" },
		CM(AGBLOCK) | CM(AGNUMBER) | CM(DADDR) | CM(FSBLOCK) },
	[CT_BLKOFF] = { { "blkoff", "fsboff", "agboff" },
		CM(AGBLOCK) | CM(AGNUMBER) | CM(FSBLOCK) },
	[CT_BYTE] = { { "byte", "fsbyte" }, 0 },
	[CT_DADDR] = { { "daddr", "bb" }, CM(BBOFF) },
	[CT_FSBLOCK] = { { "fsblock", "fsb", "fsbno" },
		CM(BBOFF) | CM(BLKOFF) | CM(INOIDX) },
	[CT_INO] = { { "ino", "inode" }, CM(INOOFF) },
	[CT_INOIDX] = { { "inoidx", "offset" },
		CM(AGBLOCK) | CM(AGNUMBER) | CM(FSBLOCK) | CM(INOOFF) },
	[CT_INOOFF] = { { "inooff", "inodeoff" },
		CM(AGBLOCK) | CM(AGINO) | CM(AGNUMBER) | CM(FSBLOCK) | CM(INO) |
		CM(INOIDX) },
};

static int ct_lookup(const char *s)
{
	int i, j;

	for (i = 0; i < CT_N; i++)
		for (j = 0; j < 4 && ctypes[i].names[j]; j++)
			if (!strcmp(ctypes[i].names[j], s))
				return i;
	return -1;
}

/* A value of a conversion type, as a byte address. */
static uint64_t ct_bytes(int t, uint64_t v)
{
	const struct fs_geom *g = &db.fs->geo;
	uint64_t agbytes = (uint64_t)g->agblocks << g->blocklog;

	switch (t) {
	case CT_AGBLOCK:
		return (uint64_t)(uint32_t)v << g->blocklog;
	case CT_AGINO:
		return (uint64_t)(uint32_t)v << g->inodelog;
	case CT_AGNUMBER:
		return (uint64_t)(uint32_t)v * agbytes;
	case CT_BBOFF:
	case CT_BLKOFF:
	case CT_INOOFF:
		return (uint64_t)(int64_t)(int)v;
	case CT_BYTE:
		return v;
	case CT_DADDR:
		return v << BBSHIFT;
	case CT_FSBLOCK:
		return fsb_to_agno(g, v) * agbytes +
		       ((uint64_t)fsb_to_agbno(g, v) << g->blocklog);
	case CT_INO:
		return ino_to_agno(g, v) * agbytes +
		       ((uint64_t)ino_to_agino(g, v) << g->inodelog);
	case CT_INOIDX:
		return (uint64_t)(int64_t)(int)v << g->inodelog;
	}
	return 0;
}

static int convert_f(int argc, char **argv)
{
	const struct fs_geom *g = &db.fs->geo;
	uint64_t vals[CT_N] = { 0 }, v = 0;
	unsigned mask = 0, conmask = 0;
	int i, wt, n = argc - 1;

	if (n % 2 != 1) {
		dbprintf("bad argument count %d to convert, expected 3,5,7,9 "
			 "arguments\n", n);
		return 0;
	}
	wt = ct_lookup(argv[argc - 1]);
	if (wt < 0) {
		dbprintf("unknown conversion type %s\n", argv[argc - 1]);
		return 0;
	}
	for (i = 0; i < (n - 1) / 2; i++) {
		int t = ct_lookup(argv[1 + i * 2]);

		if (t < 0) {
			dbprintf("unknown conversion type %s\n", argv[1 + i * 2]);
			return 0;
		}
		if (t == wt) {
			dbprintf("result type same as argument\n");
			return 0;
		}
		if (conmask & (1u << t)) {
			dbprintf("conflicting conversion type %s\n",
				 argv[1 + i * 2]);
			return 0;
		}
		if (!parse_u64(argv[2 + i * 2], &vals[t])) {
			dbprintf("%s is not a number\n", argv[2 + i * 2]);
			return 0;
		}
		mask |= 1u << t;
		conmask |= ~ctypes[t].allowed;
	}
	if (cur_agno != NULLAGNUMBER && !(conmask & CM(AGNUMBER))) {
		vals[CT_AGNUMBER] = cur_agno;
		mask |= CM(AGNUMBER);
	}
	for (i = 0; i < CT_N; i++)
		if (mask & (1u << i))
			v += ct_bytes(i, vals[i]);
	switch (wt) {
	case CT_AGBLOCK:
		v = ((v >> BBSHIFT) >> g->blkbb_log) % g->agblocks;
		break;
	case CT_AGINO:
		v = (v >> g->inodelog) % ((uint64_t)g->agblocks << g->inopblog);
		break;
	case CT_AGNUMBER:
		v = ((v >> BBSHIFT) >> g->blkbb_log) / g->agblocks;
		break;
	case CT_BBOFF:
		v &= BBSIZE - 1;
		break;
	case CT_BLKOFF:
		v &= g->blocksize - 1;
		break;
	case CT_BYTE:
		break;
	case CT_DADDR:
		v >>= BBSHIFT;
		break;
	case CT_FSBLOCK:
		v = daddr_to_fsb(g, v >> BBSHIFT);
		break;
	case CT_INO:
		v = agino_to_ino(g, (xfs_agnumber_t)(((v >> BBSHIFT) >>
						       g->blkbb_log) / g->agblocks),
				 (xfs_agino_t)((v >> g->inodelog) %
				 ((uint64_t)g->agblocks << g->inopblog)));
		break;
	case CT_INOIDX:
		v = (v >> g->inodelog) & (g->inopblock - 1);
		break;
	case CT_INOOFF:
		v &= g->inodesize - 1;
		break;
	}
	dbprintf("0x%llx (%llu)\n", (unsigned long long)v,
		 (unsigned long long)v);
	return 0;
}

static const struct db_cmd nav_cmds[] = {
	{ "addr", "a", addr_f, 0, 1, false, true, "[field-expression]",
	  "set current address" },
	{ "agf", NULL, agf_f, 0, 1, false, true, "[agno]",
	  "set address to agf header" },
	{ "agfl", NULL, agfl_f, 0, 1, false, true, "[agno]",
	  "set address to agfl block" },
	{ "agi", NULL, agi_f, 0, 1, false, true, "[agno]",
	  "set address to agi header" },
	{ "convert", NULL, convert_f, 3, 9, false, true,
	  "type num [type num]... type",
	  "convert from one address form to another" },
	{ "daddr", NULL, daddr_f, 0, 1, false, true, "[d]",
	  "set address to daddr value" },
	{ "fsblock", "fsb", fsblock_f, 0, 1, false, true, "[fsb]",
	  "set address to fsblock value" },
	{ "inode", NULL, inode_f, 0, 1, false, true, "[inode#]",
	  "set current inode" },
	{ "sb", NULL, sb_f, 0, 1, false, true, "[agno]",
	  "set current address to sb header" },
	{ "type", NULL, type_f, 0, 1, false, true, "[newtype]",
	  "set/show current data type" },
};

void nav_cmds_init(void)
{
	register_cmds(nav_cmds, sizeof(nav_cmds) / sizeof(nav_cmds[0]));
}
