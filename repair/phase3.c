/*
 * Phase 3: every inode the inode btrees know.
 *
 * What it checks, for each AG in parallel, chunk by chunk from the inobt:
 *   - a free inode (by the inobt) is free on disk, an in-use one is not;
 *   - the inode core (libfs inode_verify: magic, version, CRC, inode
 *     number, UUID, mode, fork formats and offsets, extent counters,
 *     flags and flags2, timestamps, next_unlinked);
 *   - both forks' extent maps and bmap btrees (libfs fork_extents);
 *   - the block and extent counters against the forks;
 *   - symlink targets, attribute forks and directories (libfs
 *     symlink_read, attr_iterate, dir_check).
 * An inode whose core or fork is too damaged to use is one the
 * reference "would have cleared": it is reported and left out of the
 * later phases, as if free.
 *
 * What it builds for later phases: r->imap (every inode's state, link
 * count and type; every directory entry and ".."), and in r->smap every
 * block each kept inode claims -- data and attr extents, bmbt blocks --
 * as reverse mappings (owner = inode, offset and fork flags).
 *
 * What stays true: nothing is written; an inode is read once, from its
 * cluster buffer.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "attr.h"
#include "dir.h"
#include "inomap.h"
#include "progress.h"
#include "repair.h"
#include "symlink.h"
#include "workers.h"

struct p3 {
	struct rp_seq	seq;
};

/* Per-AG work state. */
struct p3ag {
	struct repair		*r;
	xfs_agnumber_t		agno;
	struct rp_out		*out;
	struct fs_findings	fl;
	struct im_edges		edges;
	/* the inode being looked at */
	xfs_ino_t		ino;
	bool			attr;		/* fork being mapped */
	uint64_t		bmbt_blocks;
};

static uint8_t mode_ftype(uint16_t mode)
{
	switch (mode & XFS_S_IFMT) {
	case XFS_S_IFREG:	return XFS_DIR3_FT_REG_FILE;
	case XFS_S_IFDIR:	return XFS_DIR3_FT_DIR;
	case XFS_S_IFCHR:	return XFS_DIR3_FT_CHRDEV;
	case XFS_S_IFBLK:	return XFS_DIR3_FT_BLKDEV;
	case XFS_S_IFIFO:	return XFS_DIR3_FT_FIFO;
	case XFS_S_IFSOCK:	return XFS_DIR3_FT_SOCK;
	case XFS_S_IFLNK:	return XFS_DIR3_FT_SYMLINK;
	default:		return XFS_DIR3_FT_UNKNOWN;
	}
}

static void say_ino(struct p3ag *c, enum fs_problem code, uint64_t found,
		    uint64_t expected)
{
	struct rp_args a = RP_ARGS_INIT(OBJ_INODE);

	a.obj.ino = c->ino;
	a.obj.agno = c->agno;
	a.found = found;
	a.expected = expected;
	rp_say(c->out, code, &a);
}

/*
 * Findings after which the reference gives up on the inode: it cannot
 * be trusted to say what it is or what it owns.
 */
static bool clears_inode(enum fs_problem code)
{
	switch (code) {
	case PR_INODE_BAD_MAGIC:
	case PR_INODE_BAD_VERSION:
	case PR_INODE_BAD_CRC:
	case PR_INODE_BAD_INO:
	case PR_INODE_BAD_UUID:
	case PR_INODE_BAD_MODE:
	case PR_INODE_BAD_FORMAT:
	case PR_INODE_BAD_AFORMAT:
	case PR_INODE_BAD_FORKOFF:
	case PR_INODE_BAD_NEXTENTS:
	case PR_INODE_BAD_SIZE:
	case PR_INODE_BAD_RDEV:
	case PR_BMAP_BAD_STARTBLOCK:
	case PR_BMAP_BAD_LENGTH:
	case PR_BMAP_BAD_STARTOFF:
	case PR_BMAP_OUT_OF_ORDER:
	case PR_BMAP_UNWRITTEN_ATTR:
	case PR_BMAP_BAD_ROOT:
	case PR_BMAP_BAD_OWNER:
	case PR_BTREE_BAD_MAGIC:
	case PR_BTREE_BAD_CRC:
	case PR_BTREE_BAD_UUID:
	case PR_BTREE_BAD_BLKNO:
	case PR_BTREE_BAD_OWNER:
	case PR_BTREE_BAD_LEVEL:
	case PR_BTREE_BAD_NUMRECS:
	case PR_BTREE_BAD_SIBLING:
	case PR_BTREE_BAD_ROOT:
	case PR_BTREE_TOO_DEEP:
	case PR_BTREE_BAD_PTR:
	case PR_BTREE_BLOCK_REVISITED:
	case PR_BTREE_KEYS_OUT_OF_ORDER:
	case PR_BTREE_RECS_OUT_OF_ORDER:
	case PR_BTREE_BAD_KEY:
	case PR_BTREE_UNREADABLE:
	case PR_DEV_SHORT_READ:
	case PR_DEV_IO_ERROR:
		return true;
	default:
		return false;
	}
}

/* Print and drop the findings gathered so far; did one clear the inode? */
static bool flush_findings(struct p3ag *c)
{
	bool clear = false;

	for (size_t i = 0; i < c->fl.n; i++) {
		if (c->fl.v[i].obj.ino == NULLFSINO)
			c->fl.v[i].obj.ino = c->ino;
		clear |= clears_inode(c->fl.v[i].code);
	}
	rp_findings(c->out, &c->fl);
	return clear;
}

static void claim_extent(struct p3ag *c, const struct xfs_bmbt_irec *e)
{
	const struct fs_geom *g = &c->r->fs->geo;
	uint64_t off = e->br_startoff;

	if (e->br_unwritten)
		off |= XFS_RMAP_OFF_UNWRITTEN;
	if (c->attr)
		off |= XFS_RMAP_OFF_ATTR_FORK;
	sm_add(c->r->smap, fsb_to_agno(g, e->br_startblock),
	       fsb_to_agbno(g, e->br_startblock), (uint32_t)e->br_blockcount,
	       c->ino, off);
}

static int claim_bmbt(xfs_fsblock_t fsb, unsigned level, void *priv)
{
	struct p3ag *c = priv;
	const struct fs_geom *g = &c->r->fs->geo;

	(void)level;
	c->bmbt_blocks++;
	if (fsb_valid(g, fsb))
		sm_add(c->r->smap, fsb_to_agno(g, fsb), fsb_to_agbno(g, fsb), 1,
		       c->ino, XFS_RMAP_OFF_BMBT_BLOCK |
		       (c->attr ? XFS_RMAP_OFF_ATTR_FORK : 0));
	return 0;
}

static uint64_t extents_blocks(const struct fs_extents *el)
{
	uint64_t n = 0;

	for (size_t i = 0; i < el->n; i++)
		n += el->v[i].br_blockcount;
	return n;
}

struct dir_ctx {
	struct p3ag	*c;
	xfs_ino_t	dir;
};

static int dir_entry(void *priv, const uint8_t *name, unsigned namelen,
		     xfs_ino_t ino, unsigned ftype)
{
	struct dir_ctx *d = priv;

	if (namelen == 1 && name[0] == '.')
		return 0;
	if (namelen == 2 && name[0] == '.' && name[1] == '.') {
		im_edges_add(&d->c->edges, d->dir, ino, 0, true);
		return 0;
	}
	im_edges_add(&d->c->edges, d->dir, ino, (uint8_t)ftype, false);
	return 0;
}

/* What the inode's type says about its content. */
static void check_content(struct p3ag *c, const struct fs_inode *ip,
			  const struct fs_extents *del,
			  const struct fs_extents *ael)
{
	struct fs *fs = c->r->fs;

	if (inode_is_dir(ip)) {
		struct dir_ctx d = { c, ip->ino };

		dir_check(fs, ip, del, dir_entry, &d, &c->fl);
	} else if (inode_is_symlink(ip)) {
		char target[XFS_SYMLINK_MAXLEN + 1];

		symlink_read(fs, ip, del, target, &c->fl);
	}
	if (inode_has_attr_fork(ip))
		attr_iterate(fs, ip, ael, NULL, NULL, &c->fl);
	flush_findings(c);
}

static void process_inode(struct p3ag *c, struct im_chunk *ch, unsigned bit,
			  const uint8_t *raw)
{
	struct repair *r = c->r;
	struct fs *fs = r->fs;
	const struct xfs_dinode *d = (const void *)raw;
	bool inobt_free = (ch->ifree >> bit) & 1;
	uint16_t mode = get_be16(d->di_mode);
	struct fs_inode ip;
	struct fs_extents del, ael;
	uint64_t counted;
	bool clear;

	rp_note_lsn((xfs_lsn_t)get_be64(d->di_lsn));
	if (inobt_free && (get_be16(d->di_magic) != XFS_DINODE_MAGIC || !mode))
		return;		/* free, as the inobt says */
	if (!inobt_free && get_be16(d->di_magic) == XFS_DINODE_MAGIC && !mode) {
		say_ino(c, PR_RP_INOBT_USED_INODE_FREE, 0, 0);
		return;
	}
	inode_verify(fs, c->ino, raw, &c->fl);
	clear = flush_findings(c);
	if (clear || inode_decode(&fs->geo, c->ino, raw, &ip)) {
		say_ino(c, PR_RP_INODE_CLEARED, 0, 0);
		ch->cleared |= 1ull << bit;
		return;
	}
	if (inobt_free)
		say_ino(c, PR_RP_INOBT_FREE_INODE_USED, mode, 0);
	/* a linked inode is on no unlinked list */
	if (ip.nlink && ip.next_unlinked != NULLAGINO &&
	    agino_valid(&fs->geo, c->agno, ip.next_unlinked)) {
		struct rp_args a = RP_ARGS_INIT(OBJ_INODE);

		a.obj.ino = c->ino;
		a.field = "next_unlinked";
		a.found = ip.next_unlinked;
		rp_say(c->out, PR_INODE_BAD_UNLINKED, &a);
	}

	/* the forks, and what they claim */
	extents_init(&del);
	extents_init(&ael);
	c->bmbt_blocks = 0;
	c->attr = false;
	fork_extents(fs, &ip, XFS_DATA_FORK, &del, claim_bmbt, c, &c->fl);
	c->attr = true;
	if (inode_has_attr_fork(&ip))
		fork_extents(fs, &ip, XFS_ATTR_FORK, &ael, claim_bmbt, c,
			     &c->fl);
	if (flush_findings(c)) {
		say_ino(c, PR_RP_INODE_CLEARED, 0, 0);
		ch->cleared |= 1ull << bit;
		goto out;
	}
	c->attr = false;
	if (!(ip.flags & XFS_DIFLAG_REALTIME))
		for (size_t i = 0; i < del.n; i++)
			claim_extent(c, &del.v[i]);
	c->attr = true;
	for (size_t i = 0; i < ael.n; i++)
		claim_extent(c, &ael.v[i]);

	counted = extents_blocks(&del) + extents_blocks(&ael) + c->bmbt_blocks;
	if (counted != ip.nblocks)
		say_ino(c, PR_RP_NBLOCKS, ip.nblocks, counted);

	ch->used |= 1ull << bit;
	ch->nlink[bit] = ip.nlink;
	ch->ftype[bit] = mode_ftype(ip.mode);
	if (inode_is_dir(&ip))
		ch->isdir |= 1ull << bit;
	if (ip.flags2 & XFS_DIFLAG2_REFLINK)
		ch->reflink |= 1ull << bit;
	check_content(c, &ip, &del, &ael);
	if (c->edges.n)
		im_edges_splice(r->imap, &c->edges);
out:
	extents_free(&del);
	extents_free(&ael);
	inode_release(&ip);
}

static int chunk_fn(void *priv, xfs_agnumber_t agno,
		    const struct inobt_irec *irec)
{
	struct p3ag *c = priv;
	struct repair *r = c->r;
	const struct fs_geom *g = &r->fs->geo;
	struct im_chunk *ch;

	ch = im_add_chunk(r->imap, agno, irec->startino, irec->holes,
			  irec->free);
	if (!ch)
		return -1;
	for (unsigned i = 0; i < XFS_INODES_PER_CHUNK;) {
		struct fs_buf *bp;
		uint32_t off;
		xfs_ino_t ino = agino_to_ino(g, agno, irec->startino + i);
		unsigned n;

		if (irec->holes & (1ull << i)) {
			i++;
			continue;
		}
		/* the rest of this inode's cluster, in one buffer */
		if (inode_read_cluster(r->fs, ino, NULL, &bp, &off)) {
			c->ino = ino;
			say_ino(c, PR_RP_INODE_CLEARED, 0, 0);
			i++;
			continue;
		}
		n = (bp->len - off) >> g->inodelog;
		for (unsigned k = 0; k < n && i < XFS_INODES_PER_CHUNK;
		     k++, i++) {
			if (irec->holes & (1ull << i))
				continue;
			c->ino = agino_to_ino(g, agno, irec->startino + i);
			process_inode(c, ch, i,
				      bp->data + off + ((size_t)k << g->inodelog));
		}
		buf_release(bp);
		prog_add(agno, n);
	}
	return 0;
}

/* The inodes on the AGI's unlinked lists: in use, and marked as such. */
static void walk_unlinked(struct p3ag *c)
{
	struct repair *r = c->r;
	const struct fs_geom *g = &r->fs->geo;
	uint64_t limit = (uint64_t)geom_ag_blocks(g, c->agno) << g->inopblog;

	for (unsigned b = 0; b < XFS_AGI_UNLINKED_BUCKETS; b++) {
		xfs_agino_t agino = r->ags[c->agno].unlinked[b];
		uint64_t steps = 0;

		while (agino != NULLAGINO && agino_valid(g, c->agno, agino) &&
		       steps++ < limit) {
			xfs_ino_t ino = agino_to_ino(g, c->agno, agino);
			struct im_chunk *ch;
			struct fs_inode ip;
			unsigned bit;

			ch = im_find(r->imap, ino, &bit);
			if (ch)
				ch->unlinked |= 1ull << bit;
			if (inode_read(r->fs, ino, &ip, NULL))
				break;
			agino = ip.next_unlinked;
			inode_release(&ip);
		}
	}
}

static void scan_ag(struct repair *r, xfs_agnumber_t agno, void *arg)
{
	struct p3 *p = arg;
	struct p3ag c = { .r = r, .agno = agno, .out = &p->seq.outs[agno] };

	findings_init(&c.fl);
	rp_log(c.out, "        - agno = %u\n", agno);
	if (r->ags[agno].sum.agi_ok)
		ag_iter_chunks(r->fs, agno, chunk_fn, &c, NULL);
	im_sort(r->imap, agno);
	walk_unlinked(&c);
	im_edges_splice(r->imap, &c.edges);
	im_edges_free(&c.edges);
	findings_free(&c.fl);
	rp_seq_done(&p->seq, agno);
}

void phase3(struct repair *r)
{
	struct p3 p;
	uint64_t total = 0;

	rp_log(NULL, "Phase 3 - for each AG...\n");
	rp_log(NULL, "        - scan (but don't clear) agi unlinked lists...\n");
	rp_log(NULL, "        - process known inodes and perform inode discovery...\n");
	r->imap = im_create(&r->fs->geo);
	if (!r->imap || rp_seq_init(&p.seq, r->fs->geo.agcount))
		rp_fatal(r, "no memory for the inode map\n");
	for (xfs_agnumber_t agno = 0; agno < r->fs->geo.agcount; agno++)
		total += r->ags[agno].sum.icount;
	prog_set(PROG_PROCESS_INODES, total);
	rp_run_ags(r, scan_ag, &p);
	rp_seq_fini(&p.seq);
	rp_log(NULL, "        - process newly discovered inodes...\n");
}
