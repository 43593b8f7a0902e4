/*
 * Whole-filesystem scans: blockget/check (check.c does the checking and
 * fills the block map), blockuse and blockfree on that map, and frag.
 * scan_all_inodes visits every allocated inode for frag and ncheck.
 */
#include "config.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "blockmap.h"
#include "ag.h"
#include "bmap.h"
#include "btree.h"
#include "inode.h"
#include "format/ondisk.h"

const char *const dbm_names[DBM_NTYPES] = {
	"unknown", "agf", "agfl", "agi", "attr", "btbmapa", "btbmapd", "btbno",
	"btcnt", "btino", "data", "dir", "free1", "free2", "freelist", "inode",
	"log", "missing", "quota", "rtbitmap", "rtdata", "rtfree", "rtsum",
	"sb", "symlink", "btfino", "btrmap", "btrefcnt", "rldata", "cowdata",
};

static struct blockmap *bmap_state;

bool blockmap_have_names(void)
{
	return bmap_state && bmap_state->names;
}

/* The extent counter of a fork, read from the raw inode. */
static uint64_t raw_nextents(const uint8_t *raw, int whichfork)
{
	bool big = load_be64(raw + offsetof(struct xfs_dinode, di_flags2)) &
		   XFS_DIFLAG2_NREXT64;

	if (whichfork == XFS_DATA_FORK)
		return big ? load_be64(raw + offsetof(struct xfs_dinode,
						      u24.di_big_nextents)) :
			     load_be32(raw + offsetof(struct xfs_dinode,
						      u76.small.di_nextents));
	if (!raw[offsetof(struct xfs_dinode, di_forkoff)])
		return 0;
	return big ? load_be32(raw + offsetof(struct xfs_dinode,
					      u76.big.di_big_anextents)) :
		     load_be16(raw + offsetof(struct xfs_dinode,
					      u76.small.di_anextents));
}

/* ---- inodes ---- */

struct ino_walk {
	xfs_agnumber_t	agno;
	inode_fn	fn;
	void		*priv;
};

/* One inobt record: each allocated inode of its chunk. */
static int ino_rec_fn(struct btree_walk *w, const void *rec, void *priv)
{
	const struct fs_geom *g = &db.fs->geo;
	const struct xfs_inobt_rec *r = rec;
	struct ino_walk *iw = priv;
	xfs_agino_t start = get_be32(r->ir_startino);
	uint16_t holemask = g->has_sparse ? get_be16(r->ir_u.sp.ir_holemask) : 0;
	uint64_t freemask = get_be64(r->ir_free);
	struct fs_buf *bp = NULL;
	xfs_daddr_t bpd = 0;
	uint32_t bpc = g->blocks_per_cluster ? g->blocks_per_cluster : 1;
	unsigned i;

	(void)w;
	for (i = 0; i < XFS_INODES_PER_CHUNK; i++) {
		xfs_agino_t agino = start + i;
		xfs_agblock_t agbno = agino_to_agbno(g, agino), cagbno;
		xfs_daddr_t d;

		if (holemask & (1u << (i / XFS_INODES_PER_HOLEMASK_BIT)))
			continue;
		if (freemask & (1ull << i))
			continue;
		if (!agbno_valid(g, iw->agno, agbno))
			continue;
		/* read whole inode clusters, as the kernel lays them out */
		if (g->inoalign > 1) {
			xfs_agblock_t o = agbno & (g->inoalign - 1);

			cagbno = agbno - o + (o / bpc) * bpc;
		} else {
			cagbno = agbno - agbno % bpc;
		}
		if (cagbno + bpc > geom_ag_blocks(g, iw->agno))
			continue;
		d = agb_to_daddr(g, iw->agno, cagbno);
		if (!bp || bpd != d) {
			struct fs_findings fl;

			if (bp)
				buf_release(bp);
			bp = NULL;
			findings_init(&fl);
			if (bcache_read(db.fs->bc, d, bpc << g->blocklog, NULL,
					&fl, &bp))
				bp = NULL;
			findings_free(&fl);
			bpd = d;
			if (!bp)
				continue;
		}
		iw->fn(agino_to_ino(g, iw->agno, agino),
		       bp->data + (((size_t)(agbno - cagbno) * g->inopblock +
				    agino_to_offset(g, agino)) << g->inodelog),
		       iw->priv);
	}
	if (bp)
		buf_release(bp);
	return 0;
}

/* Visit every allocated inode, AG by AG, in inode number order. */
void scan_all_inodes(inode_fn fn, void *priv)
{
	xfs_agnumber_t agno;

	for (agno = 0; agno < db.fs->geo.agcount; agno++) {
		struct ino_walk iw = { agno, fn, priv };
		struct fs_findings fl;
		struct fs_buf *bp;
		struct fs_agi agi;

		findings_init(&fl);
		if (!ag_read_agi(db.fs, agno, &fl, &bp, &agi)) {
			if (agi.root && agi.level) {
				struct btree_root r;

				memset(&r, 0, sizeof(r));
				r.ops = &inobt_ops;
				r.agno = agno;
				r.root = agi.root;
				r.levels = agi.level;
				btree_walk(db.fs, &r, ino_rec_fn, NULL, &iw, &fl,
					   NULL);
			}
			buf_release(bp);
		}
		findings_free(&fl);
	}
}

static void blockmap_free(void)
{
	struct blockmap *m = bmap_state;
	xfs_agnumber_t agno;

	if (!m)
		return;
	for (agno = 0; agno <= db.fs->geo.agcount; agno++) {
		if (m->type)
			free(m->type[agno]);
		if (m->owner)
			free(m->owner[agno]);
		if (m->hash && agno < db.fs->geo.agcount)
			free(m->hash[agno]);
	}
	free(m->type);
	free(m->owner);
	free(m->hash);
	check_free(m);
	free(m);
	bmap_state = NULL;
	names_free();
}

/* The maps blockget fills: sb agblocks per AG, and the realtime blocks. */
static struct blockmap *blockmap_alloc(void)
{
	const struct fs_geom *g = &db.fs->geo;
	const struct fs_sb *sb = &db.fs->sb;
	struct blockmap *m = calloc(1, sizeof(*m));
	uint64_t per = sb->icount / (8ull * g->agcount);
	xfs_agnumber_t agno;

	if (!m)
		return NULL;
	bmap_state = m;
	m->mapblocks = sb->agblocks;
	m->rtblocks = sb->rextents ? sb->rblocks : 0;
	m->hsize = per < 256 ? 256 : per > 65536 ? 65536 : (uint32_t)per;
	m->type = calloc(g->agcount + 1, sizeof(*m->type));
	m->owner = calloc(g->agcount + 1, sizeof(*m->owner));
	m->hash = calloc(g->agcount, sizeof(*m->hash));
	if (!m->type || !m->owner || !m->hash)
		goto fail;
	for (agno = 0; agno <= g->agcount; agno++) {
		uint64_t n = agno < g->agcount ? m->mapblocks : m->rtblocks;

		if (agno == g->agcount && !n)
			break;
		m->type[agno] = calloc(n, 1);
		m->owner[agno] = calloc(n, sizeof(uint32_t));
		if (!m->type[agno] || !m->owner[agno])
			goto fail;
		if (agno < g->agcount) {
			m->hash[agno] = calloc(m->hsize, sizeof(uint32_t));
			if (!m->hash[agno])
				goto fail;
		}
	}
	return m;
fail:
	dbprintf("out of memory for the block map\n");
	blockmap_free();
	return NULL;
}

static int blockget_f(int argc, char **argv)
{
	struct blockmap *m;
	bool names = false;
	int c;

	if (bmap_state) {
		dbprintf("already have block usage information\n");
		return 0;
	}
	optind = 0;
	while ((c = getopt(argc, argv, "b:i:npstv")) != -1) {
		switch (c) {
		case 'n':
			names = true;
			break;
		case 'b':
		case 'i':
		case 'p':
		case 's':
		case 't':
		case 'v':
			break;
		default:
			dbprintf("bad option for blockget command\n");
			return 0;
		}
	}
	if (!db_log_clean()) {
		db.exitcode = 1;
		return 0;
	}
	m = blockmap_alloc();
	if (!m)
		return 0;
	check_run(m, argc, argv);
	if (names) {
		blockget_names();
		m->names = true;
	}
	return 0;
}

static int blockfree_f(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	if (!bmap_state) {
		dbprintf("block usage information not allocated\n");
		return 0;
	}
	blockmap_free();
	return 0;
}

static int blockuse_f(int argc, char **argv)
{
	const struct fs_geom *g = &db.fs->geo;
	struct cursor *cur = cur_top();
	xfs_fsblock_t fsb;
	xfs_agnumber_t agno;
	xfs_agblock_t agbno, end;
	bool shownames = false;
	int c;

	if (!bmap_state) {
		dbprintf("must run blockget first\n");
		return 0;
	}
	fsb = daddr_to_fsb(g, cur->bb + cur->boff / BBSIZE);
	agno = fsb_to_agno(g, fsb);
	agbno = end = fsb_to_agbno(g, fsb);
	optind = 0;
	while ((c = getopt(argc, argv, "c:n")) != -1) {
		switch (c) {
		case 'c': {
			char *p;
			long count = strtol(optarg, &p, 0);

			end = agbno + (xfs_agblock_t)count - 1;
			if (*p || count <= 0 || end >= g->agblocks) {
				dbprintf("bad blockuse count %s\n", optarg);
				return 0;
			}
			break;
		}
		case 'n':
			if (!bmap_state->names) {
				dbprintf("must run blockget -n first\n");
				return 0;
			}
			shownames = true;
			break;
		default:
			dbprintf("bad option for blockuse command\n");
			return 0;
		}
	}
	if (agno >= g->agcount)
		return 0;
	for (; agbno <= end && agbno < geom_ag_blocks(g, agno); agbno++) {
		xfs_ino_t ino = blockmap_owner(bmap_state, agno, agbno);

		dbprintf("block %llu (%u/%u) type %s",
			 (unsigned long long)agb_to_fsb(g, agno, agbno), agno,
			 agbno, dbm_names[bmap_state->type[agno][agbno]]);
		if (ino != NULLFSINO) {
			dbprintf(" inode %lld", (long long)ino);
			if (shownames) {
				char *p = inode_path(ino);

				if (p)
					dbprintf(" %s", p);
				free(p);
			}
		}
		dbprintf("\n");
	}
	return 0;
}

/* ---- frag ---- */

struct frag {
	bool		a, d, f, l, q, R, r, v;
	uint64_t	actual, ideal;
};

static void frag_fork(struct frag *fr, const struct fs_inode *ip, int whichfork)
{
	struct fs_extents el;
	struct fs_findings fl;
	size_t i;
	int fmt = inode_fork_format(ip, whichfork);

	if (!inode_fork_nextents(ip, whichfork))
		return;
	if (fmt != XFS_DINODE_FMT_EXTENTS && fmt != XFS_DINODE_FMT_BTREE)
		return;
	extents_init(&el);
	findings_init(&fl);
	if (!fork_extents(db.fs, ip, whichfork, &el, NULL, NULL, &fl)) {
		fr->actual += el.n;
		for (i = 0; i < el.n; i++)
			if (!i || el.v[i].br_startoff != el.v[i - 1].br_startoff +
						    el.v[i - 1].br_blockcount)
				fr->ideal++;
	}
	findings_free(&fl);
	extents_free(&el);
}

static void frag_inode(xfs_ino_t ino, const uint8_t *raw, void *priv)
{
	struct frag *fr = priv;
	const struct fs_sb *sb = &db.fs->sb;
	struct fs_inode ip;
	uint64_t actual = fr->actual, ideal = fr->ideal;
	bool skipd, skipa;

	/* most inodes map nothing: look before decoding */
	if (!fr->v && raw_nextents(raw, XFS_DATA_FORK) == 0 &&
	    raw_nextents(raw, XFS_ATTR_FORK) == 0)
		return;
	if (inode_decode(&db.fs->geo, ino, raw, &ip))
		return;
	switch (ip.mode & XFS_S_IFMT) {
	case XFS_S_IFDIR:
		skipd = !fr->d;
		break;
	case XFS_S_IFREG:
		if (!fr->r && (ip.flags & XFS_DIFLAG_REALTIME))
			skipd = true;
		else if (!fr->R && (ino == sb->rbmino || ino == sb->rsumino))
			skipd = true;
		else if (!fr->q && (ino == sb->uquotino || ino == sb->gquotino ||
				    ino == sb->pquotino))
			skipd = true;
		else
			skipd = !fr->f;
		break;
	case XFS_S_IFLNK:
		skipd = !fr->l;
		break;
	default:
		skipd = true;
		break;
	}
	if (!skipd)
		frag_fork(fr, &ip, XFS_DATA_FORK);
	skipa = !fr->a || !ip.forkoff;
	if (!skipa)
		frag_fork(fr, &ip, XFS_ATTR_FORK);
	if (fr->v && (!skipd || !skipa))
		dbprintf("inode %lld actual %lld ideal %lld\n", (long long)ino,
			 (long long)(fr->actual - actual),
			 (long long)(fr->ideal - ideal));
	inode_release(&ip);
}

static int frag_f(int argc, char **argv)
{
	struct frag fr;
	double answer;
	int c;

	memset(&fr, 0, sizeof(fr));
	optind = 0;
	while ((c = getopt(argc, argv, "adflqRrv")) != -1) {
		switch (c) {
		case 'a': fr.a = true; break;
		case 'd': fr.d = true; break;
		case 'f': fr.f = true; break;
		case 'l': fr.l = true; break;
		case 'q': fr.q = true; break;
		case 'R': fr.R = true; break;
		case 'r': fr.r = true; break;
		case 'v': fr.v = true; break;
		default:
			dbprintf("bad option for frag command\n");
			return 0;
		}
	}
	if (!fr.a && !fr.d && !fr.f && !fr.l && !fr.q && !fr.R && !fr.r)
		fr.a = fr.d = fr.f = fr.l = fr.q = fr.R = fr.r = true;
	scan_all_inodes(frag_inode, &fr);
	answer = fr.actual ? (double)(fr.actual - fr.ideal) * 100.0 /
			     (double)fr.actual : 0.0;
	dbprintf("actual %llu, ideal %llu, fragmentation factor %.2f%%\n",
		 (unsigned long long)fr.actual, (unsigned long long)fr.ideal,
		 answer);
	dbprintf("Note, this number is largely meaningless.\n");
	dbprintf("Files on this filesystem average %.2f extents per file\n",
		 (double)fr.actual / (double)fr.ideal);
	return 0;
}

static const struct db_cmd blockmap_cmds[] = {
	{ "blockfree", NULL, blockfree_f, 0, 0, false, true, NULL,
	  "free block usage information" },
	{ "blockget", "check", blockget_f, 0, -1, false, true,
	  "[-s|-v] [-n] [-t] [-b bno]... [-i ino] ...",
	  "get block usage and check consistency" },
	{ "blockuse", NULL, blockuse_f, 0, 3, false, true,
	  "[-n] [-c blockcount]", "print usage for current block(s)" },
	{ "frag", NULL, frag_f, 0, -1, false, true,
	  "[-a] [-d] [-f] [-l] [-q] [-R] [-r] [-v]",
	  "get file fragmentation data" },
};

void blockmap_cmds_init(void)
{
	register_cmds(blockmap_cmds,
		      sizeof(blockmap_cmds) / sizeof(blockmap_cmds[0]));
}
