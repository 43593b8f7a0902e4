/*
 * Btree commands: freesp (free space histogram from the free space
 * btrees and the AGFL), fsmap (reverse mappings), btdump (every block of
 * the btree under the cursor, level by level) and btheight (heights of a
 * tree of N records, from the block layouts alone).
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "db.h"
#include "ag.h"
#include "btree.h"
#include "inode.h"
#include "format/ondisk.h"

/* ---- freesp ---- */

struct hbin {
	uint32_t	low, high;
	long long	count, blocks;
};

struct freesp {
	struct hbin	*bins;
	int		nbins;
	bool		dump, summary, cnt;
	uint32_t	alignment;
	long long	totexts, totblocks;
	xfs_agnumber_t	*ags;
	int		nags;
};

static void fs_addbin(struct freesp *s, uint32_t low)
{
	struct hbin *b = realloc(s->bins, (s->nbins + 1) * sizeof(*b));

	if (!b)
		return;
	s->bins = b;
	if (!low)
		low = 1;
	memset(&b[s->nbins], 0, sizeof(b[0]));
	b[s->nbins++].low = low;
}

static int hbin_cmp(const void *a, const void *b)
{
	const struct hbin *x = a, *y = b;

	return (x->low > y->low) - (x->low < y->low);
}

static void fs_addext(struct freesp *s, xfs_agnumber_t agno,
		      xfs_agblock_t agbno, uint32_t len)
{
	const struct fs_geom *g = &db.fs->geo;
	int i;

	if (s->alignment && agb_to_fsb(g, agno, agbno) % s->alignment)
		return;
	if (s->dump)
		dbprintf("%8d %8d %8d\n", agno, agbno, len);
	s->totexts++;
	s->totblocks += len;
	for (i = 0; i < s->nbins; i++)
		if (s->bins[i].high >= len) {
			s->bins[i].count++;
			s->bins[i].blocks += len;
			break;
		}
}

static int freesp_agfl_fn(xfs_agnumber_t agno, unsigned idx,
			  xfs_agblock_t agbno, void *priv)
{
	(void)idx;
	fs_addext(priv, agno, agbno, 1);
	return 0;
}

struct freesp_walk {
	struct freesp	*s;
	xfs_agnumber_t	agno;
};

static int freesp_rec_fn(struct btree_walk *w, const void *rec, void *priv)
{
	const struct xfs_alloc_rec *r = rec;
	struct freesp_walk *fw = priv;

	(void)w;
	fs_addext(fw->s, fw->agno, get_be32(r->ar_startblock),
		  get_be32(r->ar_blockcount));
	return 0;
}

static void freesp_ag(struct freesp *s, xfs_agnumber_t agno)
{
	const struct fs_geom *g = &db.fs->geo;
	struct fs_findings fl;
	struct fs_buf *agfbp = NULL, *agflbp = NULL;
	struct fs_agf agf;
	struct btree_root root;
	struct freesp_walk fw = { s, agno };
	int which;

	findings_init(&fl);
	if (ag_read_agf(db.fs, agno, &fl, &agfbp, &agf))
		goto out;
	if (agf.flcount) {
		if (agf.flfirst >= agfl_size(g) || agf.fllast >= agfl_size(g)) {
			dbprintf("agf %d freelist blocks bad, skipping freelist "
				 "scan\n", agno);
		} else if (!ag_read_agfl(db.fs, agno, &fl, &agflbp)) {
			agfl_walk(g, agno, &agf, agflbp->data, freesp_agfl_fn, s);
		}
	}
	which = s->cnt ? XFS_AGF_CNT : XFS_AGF_BNO;
	memset(&root, 0, sizeof(root));
	root.ops = s->cnt ? &cntbt_ops : &bnobt_ops;
	root.agno = agno;
	root.root = agf.roots[which];
	root.levels = agf.levels[which];
	btree_walk(db.fs, &root, freesp_rec_fn, NULL, &fw, &fl, NULL);
out:
	if (agflbp)
		buf_release(agflbp);
	if (agfbp)
		buf_release(agfbp);
	findings_free(&fl);
}

static int freesp_usage(void)
{
	dbprintf("freesp arguments: [-bcds] [-a agno] [-e binsize] [-h h1]... "
		 "[-m binmult]\n");
	return 0;
}

static int freesp_f(int argc, char **argv)
{
	const struct fs_geom *g = &db.fs->geo;
	struct freesp s;
	int c, i, equal = 0, mult = 0;
	bool speced = false;
	xfs_agnumber_t agno;

	memset(&s, 0, sizeof(s));
	optind = 0;
	while ((c = getopt(argc, argv, "A:a:bcde:h:m:s")) != -1) {
		switch (c) {
		case 'A':
			s.alignment = atoi(optarg);
			break;
		case 'a': {
			xfs_agnumber_t *a = realloc(s.ags, (s.nags + 1) *
						    sizeof(*a));

			if (!a)
				break;
			s.ags = a;
			s.ags[s.nags++] = (xfs_agnumber_t)atoi(optarg);
			break;
		}
		case 'b':
			if (speced)
				goto usage;
			mult = 2;
			speced = true;
			break;
		case 'c':
			s.cnt = true;
			break;
		case 'd':
			s.dump = true;
			break;
		case 'e':
			if (speced)
				goto usage;
			equal = atoi(optarg);
			speced = true;
			break;
		case 'h':
			if (speced && !s.nbins)
				goto usage;
			fs_addbin(&s, atoi(optarg));
			speced = true;
			break;
		case 'm':
			if (speced)
				goto usage;
			mult = atoi(optarg);
			speced = true;
			break;
		case 's':
			s.summary = true;
			break;
		default:
			goto usage;
		}
	}
	if (optind != argc)
		goto usage;
	if (!speced)
		mult = 2;
	/* the bins: equal widths, powers of mult, or the -h list */
	if (equal > 0) {
		for (i = 1; i < (int)g->agblocks; i += equal)
			fs_addbin(&s, i);
	} else if (mult > 1) {
		for (i = 1; i < (int)g->agblocks; i *= mult)
			fs_addbin(&s, i);
	} else {
		bool seen1 = false;

		for (i = 0; i < s.nbins; i++)
			seen1 |= s.bins[i].low == 1;
		if (!seen1)
			fs_addbin(&s, 1);
		qsort(s.bins, s.nbins, sizeof(s.bins[0]), hbin_cmp);
	}
	for (i = 0; i < s.nbins; i++)
		s.bins[i].high = i < s.nbins - 1 ? s.bins[i + 1].low - 1 :
						   g->agblocks;
	if (s.dump)
		dbprintf("%8s %8s %8s\n", "agno", "agbno", "len");
	for (agno = 0; agno < g->agcount; agno++) {
		bool in = !s.nags;

		for (i = 0; i < s.nags; i++)
			in |= s.ags[i] == agno;
		if (in)
			freesp_ag(&s, agno);
	}
	if (s.nbins) {
		dbprintf("%7s %7s %7s %7s %6s\n", "from", "to", "extents",
			 "blocks", "pct");
		for (i = 0; i < s.nbins; i++)
			if (s.bins[i].count)
				dbprintf("%7d %7d %7lld %7lld %6.2f\n",
					 s.bins[i].low, s.bins[i].high,
					 s.bins[i].count, s.bins[i].blocks,
					 s.bins[i].blocks * 100.0 / s.totblocks);
	}
	if (s.summary) {
		dbprintf("total free extents %lld\n", s.totexts);
		dbprintf("total free blocks %lld\n", s.totblocks);
		dbprintf("average free extent size %g\n",
			 (double)s.totblocks / (double)s.totexts);
	}
	free(s.bins);
	free(s.ags);
	return 0;
usage:
	free(s.bins);
	free(s.ags);
	return freesp_usage();
}

/* ---- fsmap ---- */

struct fsmap_walk {
	xfs_agnumber_t	agno;
	xfs_fsblock_t	start, end;
	unsigned long long n;
};

static int fsmap_rec_fn(struct btree_walk *w, const void *rec, void *priv)
{
	const struct fs_geom *g = &db.fs->geo;
	const struct xfs_rmap_rec *r = rec;
	struct fsmap_walk *fw = priv;
	uint32_t sb = get_be32(r->rm_startblock), len = get_be32(r->rm_blockcount);
	uint64_t off = get_be64(r->rm_offset);
	xfs_fsblock_t first = agb_to_fsb(g, fw->agno, sb);

	(void)w;
	if (first + len <= fw->start || first > fw->end)
		return 0;
	dbprintf("%llu: %u/%u len %u owner %lld offset %llu bmbt %d attrfork %d "
		 "extflag %d\n", fw->n++, fw->agno, sb, len,
		 (long long)get_be64(r->rm_owner),
		 (unsigned long long)(off & XFS_RMAP_OFF_MASK),
		 (off & XFS_RMAP_OFF_BMBT_BLOCK) ? 1 : 0,
		 (off & XFS_RMAP_OFF_ATTR_FORK) ? 1 : 0,
		 (off & XFS_RMAP_OFF_UNWRITTEN) ? 1 : 0);
	return 0;
}

static int fsmap_f(int argc, char **argv)
{
	const struct fs_geom *g = &db.fs->geo;
	struct fsmap_walk fw = { 0, 0, (xfs_fsblock_t)-1, 0 };
	xfs_agnumber_t agno;
	uint64_t v;

	if (!g->has_rmapbt) {
		dbprintf("Filesystem does not support reverse mapping btree.\n");
		return 0;
	}
	if (argc > 1) {
		if (!parse_u64(argv[1], &v)) {
			dbprintf("Bad fsmap start_fsb %s.\n", argv[1]);
			return 0;
		}
		fw.start = v;
	}
	if (argc > 2) {
		if (!parse_u64(argv[2], &v)) {
			dbprintf("Bad fsmap end_fsb %s.\n", argv[2]);
			return 0;
		}
		fw.end = v;
	}
	for (agno = 0; agno < g->agcount; agno++) {
		struct fs_findings fl;
		struct fs_buf *bp;
		struct fs_agf agf;
		struct btree_root root;

		if (agb_to_fsb(g, agno, 0) > fw.end)
			break;
		findings_init(&fl);
		if (!ag_read_agf(db.fs, agno, &fl, &bp, &agf)) {
			memset(&root, 0, sizeof(root));
			root.ops = &rmapbt_ops;
			root.agno = agno;
			root.root = agf.roots[XFS_AGF_RMAP];
			root.levels = agf.levels[XFS_AGF_RMAP];
			fw.agno = agno;
			btree_walk(db.fs, &root, fsmap_rec_fn, NULL, &fw, &fl, NULL);
			buf_release(bp);
		}
		findings_free(&fl);
	}
	return 0;
}

/* ---- btdump ---- */

static bool is_btree_type(const struct fld_objtype *t)
{
	static const char *const names[] = {
		"bnobt", "cntbt", "inobt", "finobt", "rmapbt", "refcntbt",
		"bmapbta", "bmapbtd",
	};
	unsigned i;

	for (i = 0; t && i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(t->name, names[i]))
			return true;
	return false;
}

/* Dump one level, from its leftmost block along the right siblings. */
static void btdump_level(const struct fld_objtype *t, xfs_daddr_t bb,
			 bool long_ptrs, xfs_agnumber_t agno, unsigned level,
			 bool show_nodes)
{
	const struct fs_geom *g = &db.fs->geo;
	unsigned blk = 1, guard = 0;

	for (;;) {
		struct cursor *c;
		uint8_t *o;
		uint64_t right;

		cur_push();
		set_cur(t, bb, fsb_to_bb(g, 1), cur_top()->ino);
		c = cur_top();
		o = cur_obj(c);
		if (!o || !c->valid) {
			cur_pop();
			return;
		}
		if (level == 0 || show_nodes) {
			char *pargv[3] = { (char *)"print", NULL, NULL };

			dbprintf("%s level %u block %u daddr %llu\n", t->name, level,
				 blk, (unsigned long long)bb);
			if (level == 0) {
				pargv[1] = (char *)"recs";
				print_cmd(2, pargv);
			} else {
				pargv[1] = (char *)"keys";
				pargv[2] = (char *)"ptrs";
				print_cmd(3, pargv);
			}
		}
		right = long_ptrs ? load_be64(o + 16) : load_be32(o + 12);
		cur_pop();
		if ((long_ptrs && right == NULLFSBLOCK) ||
		    (!long_ptrs && right == NULLAGBLOCK) || ++guard > 1000000)
			return;
		if (long_ptrs) {
			if (!fsb_valid(g, right))
				return;
			bb = fsb_to_daddr(g, right);
		} else {
			if (!agbno_valid(g, agno, (xfs_agblock_t)right))
				return;
			bb = agb_to_daddr(g, agno, (xfs_agblock_t)right);
		}
		blk++;
	}
}

/* Dump a btree whose root block is at bb (the current block). */
static void btdump_tree(const struct fld_objtype *t, xfs_daddr_t bb,
			bool show_nodes)
{
	const struct fs_geom *g = &db.fs->geo;
	bool lp = !strncmp(t->name, "bmapbt", 6);
	xfs_agnumber_t agno = (xfs_agnumber_t)daddr_to_agno(g, bb);
	unsigned guard = 0;

	for (;;) {
		struct cursor *c;
		const uint8_t *o;
		unsigned level, n, hdr, keylen, ptrlen, max;
		uint64_t child;
		struct fld_ctx ctx;

		cur_push();
		set_cur(t, bb, fsb_to_bb(g, 1), cur_top()->ino);
		c = cur_top();
		o = cur_obj(c);
		if (!o || !c->valid) {
			cur_pop();
			return;
		}
		cur_ctx(c, &ctx);
		level = load_be16(o + 4);
		n = load_be16(o + 6);
		/* the leftmost child, read before the block goes away */
		hdr = lp ? XFS_BTREE_LBLOCK_CRC_LEN : XFS_BTREE_SBLOCK_CRC_LEN;
		keylen = lp ? 8 : !strcmp(t->name, "rmapbt") ? 40 :
			 (!strcmp(t->name, "bnobt") || !strcmp(t->name, "cntbt")) ?
			 8 : 4;
		ptrlen = lp ? 8 : 4;
		max = ctx.len > hdr ? (ctx.len - hdr) / (keylen + ptrlen) : 0;
		child = NULLFSBLOCK;
		if (hdr + max * keylen + ptrlen <= ctx.len)
			child = lp ? load_be64(o + hdr + max * keylen) :
				     load_be32(o + hdr + max * keylen);
		cur_pop();
		btdump_level(t, bb, lp, agno, level, show_nodes);
		if (level == 0 || !n || ++guard > XFS_BTREE_MAXLEVELS + 2)
			return;
		if (lp) {
			if (!fsb_valid(g, child))
				return;
			bb = fsb_to_daddr(g, child);
		} else {
			if (!agbno_valid(g, agno, (xfs_agblock_t)child))
				return;
			bb = agb_to_daddr(g, agno, (xfs_agblock_t)child);
		}
	}
}

/* The bmbt of a btree-format inode fork: dump from the root's children. */
static void btdump_inode(int whichfork, bool show_nodes)
{
	const struct fs_geom *g = &db.fs->geo;
	struct cursor *c = cur_top();
	const uint8_t *o = cur_obj(c);
	uint32_t fo = o[offsetof(struct xfs_dinode, di_forkoff)] * 8;
	uint32_t lit = c->len - XFS_DINODE_CORE_SIZE;
	uint32_t dsize = fo ? fo : lit;
	const uint8_t *fork = o + XFS_DINODE_CORE_SIZE +
			      (whichfork == XFS_ATTR_FORK ? dsize : 0);
	uint32_t fsize = whichfork == XFS_ATTR_FORK ? lit - dsize : dsize;
	unsigned fmt = whichfork == XFS_ATTR_FORK ?
		o[offsetof(struct xfs_dinode, di_aformat)] :
		o[offsetof(struct xfs_dinode, di_format)];
	unsigned max, n;
	uint64_t child;
	const struct fld_objtype *t = fld_objtype_find(
		whichfork == XFS_ATTR_FORK ? "bmapbta" : "bmapbtd");

	if ((whichfork == XFS_ATTR_FORK && !fo) || fmt != XFS_DINODE_FMT_BTREE) {
		dbprintf("%s fork not in btree format\n",
			 whichfork == XFS_ATTR_FORK ? "attr" : "data");
		return;
	}
	if (show_nodes) {
		char name[32];
		char *pargv[3] = { (char *)"print", NULL, NULL };
		char k[40], p[40];

		snprintf(name, sizeof(name), "%s",
			 whichfork == XFS_ATTR_FORK ? "a.bmbt" : "u3.bmbt");
		snprintf(k, sizeof(k), "%s.keys", name);
		snprintf(p, sizeof(p), "%s.ptrs", name);
		pargv[1] = k;
		pargv[2] = p;
		print_cmd(3, pargv);
	}
	n = load_be16(fork + 2);
	max = fsize > 4 ? (fsize - 4) / 16 : 0;
	if (!n || !max)
		return;
	child = load_be64(fork + 4 + max * 8);
	if (!fsb_valid(g, child))
		return;
	btdump_tree(t, fsb_to_daddr(g, child), show_nodes);
}

static int btdump_f(int argc, char **argv)
{
	struct cursor *c = cur_top();
	bool attr = false, nodes = false;
	int ch;

	optind = 0;
	while ((ch = getopt(argc, argv, "ai")) != -1) {
		switch (ch) {
		case 'a':
			attr = true;
			break;
		case 'i':
			nodes = true;
			break;
		default:
			dbprintf("bad option for btdump command\n");
			return 0;
		}
	}
	if (c->typ == typ_inode) {
		btdump_inode(attr ? XFS_ATTR_FORK : XFS_DATA_FORK, nodes);
		return 0;
	}
	if (!is_btree_type(c->typ)) {
		dbprintf("type \"%s\" is not a btree type or inode\n",
			 c->typ ? c->typ->name : "none");
		return 0;
	}
	btdump_tree(c->typ, c->bb, nodes);
	return 0;
}

/* ---- btheight ---- */

static const struct {
	const char	*name;
	unsigned	hdr, rec, key, ptr;
} bt_geoms[] = {
	{ "bnobt", XFS_BTREE_SBLOCK_CRC_LEN, 8, 8, 4 },
	{ "cntbt", XFS_BTREE_SBLOCK_CRC_LEN, 8, 8, 4 },
	{ "inobt", XFS_BTREE_SBLOCK_CRC_LEN, 16, 4, 4 },
	{ "finobt", XFS_BTREE_SBLOCK_CRC_LEN, 16, 4, 4 },
	{ "bmapbt", XFS_BTREE_LBLOCK_CRC_LEN, 16, 8, 8 },
	{ "refcountbt", XFS_BTREE_SBLOCK_CRC_LEN, 12, 4, 4 },
	{ "rmapbt", XFS_BTREE_SBLOCK_CRC_LEN, 24, 40, 4 },
};

static void btheight_one(const char *name, unsigned leafrecs,
			 unsigned noderecs, unsigned blocksize,
			 unsigned long long nrecs, const char *which)
{
	unsigned long long recs = nrecs, blocks, total = 0;
	unsigned level = 0;

	dbprintf("%s: %s case per %u-byte block: %u records (leaf) / %u "
		 "keyptrs (node)\n", name, which, blocksize, leafrecs, noderecs);
	for (;;) {
		unsigned per = level ? noderecs : leafrecs;

		blocks = (recs + per - 1) / per;
		dbprintf("level %u: %llu record%s, %llu block%s\n", level, recs,
			 recs == 1 ? "" : "s", blocks, blocks == 1 ? "" : "s");
		total += blocks;
		level++;
		if (blocks <= 1)
			break;
		recs = blocks;
	}
	dbprintf("%u level%s, %llu block%s total\n", level,
		 level == 1 ? "" : "s", total, total == 1 ? "" : "s");
}

static int btheight_f(int argc, char **argv)
{
	unsigned blocksize = db.fs->geo.blocksize;
	unsigned long long nrecs = 0;
	bool best = true, worst = true;
	int ch, i;

	optind = 0;
	while ((ch = getopt(argc, argv, "b:n:w:")) != -1) {
		switch (ch) {
		case 'b':
			blocksize = (unsigned)strtoul(optarg, NULL, 0);
			break;
		case 'n':
			nrecs = strtoull(optarg, NULL, 0);
			break;
		case 'w':
			if (!strcmp(optarg, "min")) {
				best = false;
				worst = true;
			} else if (!strcmp(optarg, "max")) {
				best = true;
				worst = false;
			} else {
				dbprintf("%s: unsupported -w value\n", optarg);
				return 0;
			}
			break;
		default:
			dbprintf("bad option for btheight command\n");
			return 0;
		}
	}
	for (i = optind; i < argc; i++) {
		unsigned k, leaf, node;

		if (!nrecs) {
			fprintf(stderr, "Number of records must be greater than "
				"zero.\n");
			continue;
		}
		for (k = 0; k < sizeof(bt_geoms) / sizeof(bt_geoms[0]); k++)
			if (!strcmp(bt_geoms[k].name, argv[i]))
				break;
		if (k == sizeof(bt_geoms) / sizeof(bt_geoms[0]) ||
		    blocksize <= bt_geoms[k].hdr) {
			fprintf(stderr, "%s: Numerical result out of range\n",
				argv[i]);
			continue;
		}
		leaf = (blocksize - bt_geoms[k].hdr) / bt_geoms[k].rec;
		node = (blocksize - bt_geoms[k].hdr) /
		       (bt_geoms[k].key + bt_geoms[k].ptr);
		if (best)
			btheight_one(argv[i], leaf, node, blocksize, nrecs, "best");
		if (worst)
			btheight_one(argv[i], leaf / 2, node / 2, blocksize, nrecs,
				     "worst");
	}
	return 0;
}

static const struct db_cmd bt_cmds[] = {
	{ "btdump", NULL, btdump_f, 0, -1, false, true, "[-a] [-i]",
	  "dump btree" },
	{ "btheight", NULL, btheight_f, 1, -1, false, true,
	  "[-b blksz] [-n recs] [-w max|-w min] btree types...",
	  "compute btree heights" },
	{ "freesp", NULL, freesp_f, 0, -1, false, true,
	  "[-bcdfs] [-A alignment] [-a agno]... [-e binsize] [-h h1]... "
	  "[-m binmult]", "summarize free space for filesystem" },
	{ "fsmap", NULL, fsmap_f, 0, 2, false, true, "[start_fsb] [end_fsb]",
	  "display reverse mapping(s)" },
};

void bt_cmds_init(void)
{
	register_cmds(bt_cmds, sizeof(bt_cmds) / sizeof(bt_cmds[0]));
}
