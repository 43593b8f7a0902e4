/*
 * Commands over a file or the whole filesystem that read through the
 * libfs object readers: bmap (the extent map of the current inode).
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "db.h"
#include "bmap.h"
#include "inode.h"
#include "format/ondisk.h"

/* ---- file blocks ---- */

/*
 * Position on count file blocks at offset off of a fork of the current
 * inode, assembling discontiguous pieces.
 */
static int set_cur_fileblocks(int whichfork, xfs_fileoff_t off, uint32_t count,
			      const struct fld_objtype *typ)
{
	struct cursor *c = cur_top();
	const struct fs_geom *g = &db.fs->geo;
	struct fs_inode ip;
	struct fs_extents el;
	struct fs_findings fl;
	struct buf_seg segs[64];
	unsigned nsegs = 0;
	xfs_ino_t ino = c->ino, dirino = c->dirino;
	uint32_t i;
	int err;

	findings_init(&fl);
	extents_init(&el);
	err = inode_read(db.fs, ino, &ip, &fl);
	if (err) {
		findings_free(&fl);
		dbprintf("can't read inode %lld\n", (long long)ino);
		return err;
	}
	err = fork_extents(db.fs, &ip, whichfork, &el, NULL, NULL, &fl);
	findings_free(&fl);
	inode_release(&ip);
	if (err)
		goto unmapped;
	/*
	 * The mapped pieces of the range; as the reference does, one piece
	 * is read for the whole range from its start, several are read
	 * piece by piece, none is an error.
	 */
	for (i = 0; i < count; i++) {
		struct xfs_bmbt_irec r;
		xfs_daddr_t d;

		if (!extents_lookup(&el, off + i, &r))
			continue;
		d = fsb_to_daddr(g, r.br_startblock + (off + i - r.br_startoff));
		if (nsegs && segs[nsegs - 1].daddr +
			     segs[nsegs - 1].len / BBSIZE == d) {
			segs[nsegs - 1].len += g->blocksize;
		} else if (nsegs < 64) {
			segs[nsegs].daddr = d;
			segs[nsegs].len = g->blocksize;
			nsegs++;
		}
	}
	extents_free(&el);
	if (!nsegs)
		goto unmapped_freed;
	if (nsegs == 1)
		segs[0].len = count * g->blocksize;
	set_cur_segs(typ, segs, nsegs, ino);
	c = cur_top();
	c->ino = ino;
	c->dirino = dirino;
	return 0;
unmapped:
	extents_free(&el);
unmapped_freed:
	dbprintf("file %s block is unmapped\n",
		 whichfork == XFS_DATA_FORK ? "data" : "attr");
	return -ENOENT;
}

/*
 * The reference re-reads the inode on its way to a file block, and each
 * such read is a position in the ring; so do we, to list the same ring.
 */
static void ring_inode_visits(xfs_ino_t ino, int n)
{
	int i;

	cur_push();
	for (i = 0; i < n; i++)
		set_cur_inode(ino);
	cur_pop();
}

static int fileblock_visit(int argc, char **argv, int whichfork, int visits)
{
	struct cursor *c = cur_top();
	const struct fs_geom *g = &db.fs->geo;
	const struct fld_objtype *typ;
	uint64_t off;
	uint32_t count = 1;

	(void)argc;
	if (c->ino == NULLFSINO) {
		dbprintf("no current inode\n");
		return 0;
	}
	if (!parse_u64(argv[1], &off)) {
		dbprintf("bad %s block number %s\n",
			 whichfork == XFS_DATA_FORK ? "data" : "attr", argv[1]);
		return 0;
	}
	if (whichfork == XFS_ATTR_FORK) {
		typ = typ_attr3;
	} else if ((c->mode & XFS_S_IFMT) == XFS_S_IFDIR) {
		typ = typ_dir3;
		count = g->dirblkfsbs;
	} else if ((c->mode & XFS_S_IFMT) == XFS_S_IFLNK) {
		typ = typ_symlink;
	} else {
		typ = typ_data;
	}
	ring_inode_visits(c->ino, visits);
	set_cur_fileblocks(whichfork, off, count, typ);
	return 0;
}

static int fileblock_cmd(int argc, char **argv, int whichfork)
{
	return fileblock_visit(argc, argv, whichfork, 2);
}

static int fileblock_addr(int argc, char **argv, int whichfork)
{
	return fileblock_visit(argc, argv, whichfork, 1);
}

static int dblock_f(int argc, char **argv)
{
	return fileblock_cmd(argc, argv, XFS_DATA_FORK);
}

static int ablock_f(int argc, char **argv)
{
	return fileblock_cmd(argc, argv, XFS_ATTR_FORK);
}

static void ring_inode_visits(xfs_ino_t ino, int n);

static void bmap_fork(const struct fs_inode *ip, int whichfork,
		      uint64_t first, uint64_t len, bool ranged)
{
	const struct fs_geom *g = &db.fs->geo;
	struct fs_extents el;
	struct fs_findings fl;
	size_t i;

	extents_init(&el);
	findings_init(&fl);
	if (fork_extents(db.fs, ip, whichfork, &el, NULL, NULL, &fl) == 0) {
		size_t shown = 0;

		for (i = 0; i < el.n; i++) {
			const struct xfs_bmbt_irec *r = &el.v[i];

			shown += !ranged ||
				 (r->br_startoff + r->br_blockcount > first &&
				  r->br_startoff < first + len);
		}
		/* one inode read to count, one more to list (see above) */
		ring_inode_visits(ip->ino, shown ? 2 : 1);
		for (i = 0; i < el.n; i++) {
			const struct xfs_bmbt_irec *r = &el.v[i];

			if (ranged && (r->br_startoff + r->br_blockcount <= first ||
				       r->br_startoff >= first + len))
				continue;
			dbprintf("%s offset %llu startblock %llu (%u/%u) count "
				 "%llu flag %u\n",
				 whichfork == XFS_DATA_FORK ? "data" : "attr",
				 (unsigned long long)r->br_startoff,
				 (unsigned long long)r->br_startblock,
				 fsb_to_agno(g, r->br_startblock),
				 fsb_to_agbno(g, r->br_startblock),
				 (unsigned long long)r->br_blockcount,
				 r->br_unwritten ? 1 : 0);
		}
	}
	findings_free(&fl);
	extents_free(&el);
}

static int bmap_f(int argc, char **argv)
{
	struct cursor *c = cur_top();
	bool afork = false, dfork = false, ranged = false;
	uint64_t first = 0, len = 1;
	struct fs_inode ip;
	struct fs_findings fl;
	int ch;

	optind = 0;
	while ((ch = getopt(argc, argv, "ad")) != -1) {
		switch (ch) {
		case 'a':
			afork = true;
			break;
		case 'd':
			dfork = true;
			break;
		default:
			dbprintf("bad option for bmap command\n");
			return 0;
		}
	}
	if (c->ino == NULLFSINO) {
		dbprintf("no current inode\n");
		return 0;
	}
	if (optind < argc) {
		if (!parse_u64(argv[optind], &first)) {
			dbprintf("bad block number for bmap %s\n", argv[optind]);
			return 0;
		}
		ranged = true;
		if (optind + 1 < argc && !parse_u64(argv[optind + 1], &len)) {
			dbprintf("bad len for bmap %s\n", argv[optind + 1]);
			return 0;
		}
	}
	findings_init(&fl);
	if (inode_read(db.fs, c->ino, &ip, &fl)) {
		findings_free(&fl);
		dbprintf("can't read inode %lld\n", (long long)c->ino);
		return 0;
	}
	findings_free(&fl);
	if (!afork && !dfork) {
		/* the forks that have extents */
		ring_inode_visits(c->ino, 1);
		dfork = ip.nextents != 0;
		afork = ip.anextents != 0;
	}
	if (dfork)
		bmap_fork(&ip, XFS_DATA_FORK, first, len, ranged);
	if (afork)
		bmap_fork(&ip, XFS_ATTR_FORK, first, len, ranged);
	inode_release(&ip);
	return 0;
}

/*
 * dquot [-g|-p|-u] id: the quota record of an id, in the block of the
 * quota inode that holds it.
 */
static int dquot_f(int argc, char **argv)
{
	const struct fs_geom *g = &db.fs->geo;
	const struct fs_sb *sb = &db.fs->sb;
	const char *what = "user";
	xfs_ino_t qino = sb->uquotino;
	uint32_t perblk = g->blocksize / sizeof(struct xfs_dqblk);
	uint64_t id;
	int c;

	optind = 0;
	while ((c = getopt(argc, argv, "gpu")) != -1) {
		switch (c) {
		case 'g':
			what = "group";
			qino = sb->gquotino;
			break;
		case 'p':
			what = "project";
			qino = sb->pquotino;
			break;
		case 'u':
			what = "user";
			qino = sb->uquotino;
			break;
		default:
			dbprintf("bad option for dquot command\n");
			return 0;
		}
	}
	if (optind != argc - 1) {
		dbprintf("dquot command requires one %s id argument\n", what);
		return 0;
	}
	if (qino == 0 || qino == NULLFSINO) {
		dbprintf("no %s quota inode present\n", what);
		return 0;
	}
	if (!parse_u64(argv[optind], &id)) {
		dbprintf("bad %s id for dquot %s\n", what, argv[optind]);
		return 0;
	}
	set_cur_inode(qino);
	if (!set_cur_fileblocks(XFS_DATA_FORK, id / perblk, 1,
				fld_objtype_find("dqblk"))) {
		struct cursor *cur = cur_top();

		cur->boff = (uint32_t)(id % perblk) * sizeof(struct xfs_dqblk);
		cur->len = sizeof(struct xfs_dqblk);
	}
	return 0;
}

static const struct db_cmd fs_cmds[] = {
	{ "dquot", NULL, dquot_f, 1, 2, false, true, "[-g|-p|-u] id",
	  "set current address to a group, project or user quota block for "
	  "given ID" },
	{ "ablock", NULL, ablock_f, 1, 1, false, true, "filoff",
	  "set address to file offset (attr fork)" },
	{ "dblock", NULL, dblock_f, 1, 1, false, true, "filoff",
	  "set address to file offset (data fork)" },
	{ "bmap", NULL, bmap_f, 0, 3, false, true, "[-ad] [block [len]]",
	  "show block map for current file" },
};

void fs_cmds_init(void)
{
	fileblock_hook = fileblock_addr;
	register_cmds(fs_cmds, sizeof(fs_cmds) / sizeof(fs_cmds[0]));
}
