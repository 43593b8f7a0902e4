/*
 * Devices and writing: what mkfs.xfs does once the geometry is decided.
 *
 * In: the decided struct mkfs_cfg.  Out: on the data device, every AG's
 * superblock copy, AGF, AGI, AGFL and btree roots, the first inode chunk
 * (root directory, realtime bitmap and summary inodes) in AG 0, and a
 * clean log.  The layout inside each AG is the one the reference mkfs's
 * allocator produces on a fresh filesystem:
 *
 *   [headers][bno][cnt][ino][fino][rmap][refc] ... free ...
 *
 * the internal log at the first block after the roots (or the next
 * stripe unit) of its AG; the free list filled from the start of the
 * smallest free extent that holds it; the root inode chunk at the first
 * suitably aligned free place in AG 0.  Every block is accounted for in
 * the free-space btrees or the reverse map, so the reference xfs_repair
 * finds nothing to say.
 */
#include "config.h"
#include <blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>
#include <linux/falloc.h>
#include "build.h"
#include "fs.h"
#include "mkfs.h"
#include "log.h"
#include "resv.h"

#define WHACK_SIZE	(128 * 1024)

static struct fs_dev *ddev, *ldev, *rdev;

/* ---- devices ---- */

void dev_check_type(struct dev_arg *dev, bool no_size, bool dry_run,
		    const char *optname)
{
	struct stat st;

	if (dev->isfile && (no_size || !dev->name)) {
		fprintf(stderr,
			"if -%s file then -%s name and -%s size are required\n",
			optname, optname, optname);
		usage();
	}
	if (!dev->name) {
		fprintf(stderr, "No device name specified\n");
		usage();
	}
	if (stat(dev->name, &st)) {
		if (errno == ENOENT && dev->isfile) {
			if (!dry_run)
				dev->create = true;
			return;
		}
		fprintf(stderr, "Error accessing specified device %s: %s\n",
			dev->name, strerror(errno));
		usage();
	}
	if (S_ISREG(st.st_mode)) {
		if (!dev->isfile)
			dev->isfile = true;
		else if (!dry_run)
			dev->create = true;
		return;
	}
	if (S_ISBLK(st.st_mode)) {
		if (dev->isfile) {
			fprintf(stderr,
				"specified \"-%s file\" on a block device %s\n",
				optname, dev->name);
			usage();
		}
		return;
	}
	fprintf(stderr, "specified device %s not a file or block device\n",
		dev->name);
	usage();
}

void dev_get_topology(struct dev_arg *dev)
{
	blkid_probe pr;
	blkid_topology tp;

	dev->lsectsize = dev->psectsize = 512;
	dev->sunit = dev->swidth = 0;
	if (dev->isfile || !dev->name)
		return;
	pr = blkid_new_probe_from_filename(dev->name);
	if (!pr)
		return;
	tp = blkid_probe_get_topology(pr);
	if (tp) {
		unsigned long mn = blkid_topology_get_minimum_io_size(tp);
		unsigned long op = blkid_topology_get_optimal_io_size(tp);

		dev->lsectsize = blkid_topology_get_logical_sector_size(tp);
		dev->psectsize = blkid_topology_get_physical_sector_size(tp);
		if (dev->lsectsize < 512)
			dev->lsectsize = 512;
		if (dev->psectsize < dev->lsectsize)
			dev->psectsize = dev->lsectsize;
		/* io hints equal to the sector size say nothing */
		if (mn == dev->psectsize || op == dev->psectsize)
			mn = op = 0;
		dev->sunit = mn >> 9;
		dev->swidth = op >> 9;
	}
	blkid_free_probe(pr);
}

/* Is this block device (or one sharing its number) mounted? */
static bool dev_is_mounted(const char *name)
{
	struct stat st, mst;
	struct mntent *m;
	FILE *f;
	bool found = false;

	if (stat(name, &st) || !S_ISBLK(st.st_mode))
		return false;
	f = setmntent("/proc/mounts", "r");
	if (!f)
		return false;
	while ((m = getmntent(f))) {
		if (!stat(m->mnt_fsname, &mst) && S_ISBLK(mst.st_mode) &&
		    mst.st_rdev == st.st_rdev) {
			found = true;
			break;
		}
	}
	endmntent(f);
	return found;
}

static struct fs_dev *open_one(struct dev_arg *d, int sectorlog)
{
	struct fs_dev *dev;
	unsigned flags = DEV_EXCL;
	int err;
	uint64_t mask;

	if (!d->name)
		return NULL;
	if (dev_is_mounted(d->name)) {
		fprintf(stderr, "%s: %s contains a mounted filesystem\n",
			progname, d->name);
		usage();
	}
	if (d->create)
		flags |= DEV_CREATE;
	err = dev_open(d->name, flags, &dev);
	if (err == -ENOENT && !d->create) {
		/* a dry run over an image file that does not exist yet */
		d->size = 0;
		return NULL;
	}
	if (err) {
		fprintf(stderr, "%s: cannot open %s: %s\n", progname, d->name,
			strerror(-err));
		exit(1);
	}
	if (d->create && dev->is_file && dev->size) {
		err = dev_set_file_size(dev, 0);
		if (err) {
			fprintf(stderr, "%s: cannot truncate %s: %s\n",
				progname, d->name, strerror(-err));
			exit(1);
		}
	}
	/* Only whole sectors (and 1 KiB on Linux) can be written. */
	mask = ~0ull << ((sectorlog > 10 ? sectorlog : 10) - 9);
	d->size = (dev->size >> 9) & mask;
	return dev;
}

void dev_open_all(struct mkfs_cfg *cfg, struct cli_params *cli)
{
	ddev = open_one(&cli->data, cfg->sectorlog);
	if (!cli->loginternal)
		ldev = open_one(&cli->log, cfg->lsectorlog);
	if (cli->rt.name)
		rdev = open_one(&cli->rt, cfg->sectorlog);
}

void dev_check_overwrite(const char *name, bool force)
{
	blkid_probe pr;
	const char *type;
	int r;

	if (force || !ddev || !ddev->size)
		return;
	pr = blkid_new_probe_from_filename(name);
	if (!pr)
		return;
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_enable_superblocks(pr, 1);
	r = blkid_do_fullprobe(pr);
	if (r == 0) {
		if (!blkid_probe_lookup_value(pr, "TYPE", &type, NULL))
			fprintf(stderr,
				"%s: %s appears to contain an existing filesystem (%s).\n",
				progname, name, type);
		else if (!blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL))
			fprintf(stderr,
				"%s: %s appears to contain a partition table (%s).\n",
				progname, name, type);
		else
			fprintf(stderr,
				"%s: %s appears to contain something weird according to blkid\n",
				progname, name);
		blkid_free_probe(pr);
		fprintf(stderr, "%s: Use the -f option to force overwrite.\n",
			progname);
		exit(1);
	}
	blkid_free_probe(pr);
}

/* Make [off, off+len) read as zeroes: punch, zeroout, or write them. */
static int zero_range(struct fs_dev *dev, uint64_t off, uint64_t len)
{
	static uint8_t zero[1 << 20];

	if (dev->is_file) {
		if (!fallocate(dev->fd, FALLOC_FL_PUNCH_HOLE |
			       FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)len))
			return 0;
	} else {
		uint64_t range[2] = { off, len };

		if (!ioctl(dev->fd, BLKZEROOUT, range))
			return 0;
	}
	while (len) {
		size_t n = len < sizeof(zero) ? len : sizeof(zero);
		int err = dev_pwrite(dev, zero, n, off);

		if (err)
			return err;
		off += n;
		len -= n;
	}
	return 0;
}

/* Drop the old contents: discard a device, punch an image file. */
static void discard_dev(struct fs_dev *dev, bool quiet)
{
	const uint64_t step = 2ull << 30;
	uint64_t off = 0;

	if (!dev)
		return;
	if (dev->is_file) {
		/*
		 * Stale blocks of an image file would only waste space: punch
		 * the ranges that hold data (walking holes costs nothing, and
		 * a punch of an already sparse range is not free).
		 */
		off_t pos = 0, data, hole;

		while (pos < (off_t)dev->size) {
			data = lseek(dev->fd, pos, SEEK_DATA);
			if (data < 0)
				break;
			hole = lseek(dev->fd, data, SEEK_HOLE);
			if (hole <= data)
				break;
			if (dev_discard(dev, data, hole - data))
				break;
			pos = hole;
		}
		return;
	}
	while (off < dev->size) {
		uint64_t n = dev->size - off < step ? dev->size - off : step;

		if (dev_discard(dev, off, n)) {
			if (off > 0 && !quiet)
				printf("\n");
			return;
		}
		if (off == 0 && !quiet) {
			printf("Discarding blocks...");
			fflush(stdout);
		}
		off += n;
	}
	if (off > 0 && !quiet)
		printf("Done.\n");
}

/*
 * An old XFS whose secondary superblocks survive would mislead a later
 * xfs_repair: zero every secondary superblock of a plausible old one.
 */
static void zero_old_xfs(struct fs_dev *dev, uint32_t sectsize)
{
	uint8_t buf[32768];
	struct fs_sb old;

	if (sectsize > sizeof(buf) || dev_pread(dev, buf, sectsize, 0))
		return;
	sb_decode((const void *)buf, &old);
	if (old.magicnum != XFS_SB_MAGIC || old.blocksize == 0 ||
	    old.blocklog < 9 || old.blocklog > 16 ||
	    old.blocksize != 1u << old.blocklog || !old.agcount)
		return;
	if (old.dblocks > (uint64_t)old.agcount * old.agblocks ||
	    old.dblocks < (uint64_t)(old.agcount - 1) * old.agblocks + 64)
		return;
	memset(buf, 0, sectsize);
	for (uint32_t i = 1; i < old.agcount; i++) {
		uint64_t off = ((uint64_t)i * old.agblocks) << old.blocklog;

		if (off + sectsize > dev->size ||
		    dev_pwrite(dev, buf, sectsize, off))
			break;
	}
}

/* ---- the layout of one AG ---- */

/*
 * Inodes of the first allocation: a 64-inode chunk, or a whole block
 * when a block holds more (64 KiB blocks), as the inode allocator does
 * (ialloc_inos); each 64 of them is one inobt record.
 */
static uint32_t first_inodes(const struct mkfs_cfg *cfg)
{
	return cfg->inopblock > XFS_INODES_PER_CHUNK ?
	       (uint32_t)cfg->inopblock : XFS_INODES_PER_CHUNK;
}

static uint32_t first_chunk_blocks(const struct mkfs_cfg *cfg)
{
	return first_inodes(cfg) * cfg->inodesize / cfg->blocksize;
}

#define MAX_EXT		8
#define MAX_RMAP	16

struct ag_plan {
	struct build_ag	 hdr;
	struct build_ext free[MAX_EXT];
	unsigned	 nfree;
	struct build_rmap rmap[MAX_RMAP];
	unsigned	 nrmap;
	uint32_t	 agfl[16];
	unsigned	 nagfl;
	uint32_t	 chunk;		/* first block of the inode chunk */
	uint32_t	 rbm, rsum;	/* realtime bitmap and summary blocks */
};


static void plan_take(struct ag_plan *p, uint32_t start, uint32_t len)
{
	for (unsigned i = 0; i < p->nfree; i++) {
		struct build_ext *e = &p->free[i];
		uint32_t end = e->start + e->len;

		if (start < e->start || start + len > end)
			continue;
		if (start == e->start) {
			e->start += len;
			e->len -= len;
		} else if (start + len == end) {
			e->len -= len;
		} else {
			memmove(e + 2, e + 1,
				(p->nfree - i - 1) * sizeof(*e));
			e[1].start = start + len;
			e[1].len = end - start - len;
			e->len = start - e->start;
			p->nfree++;
		}
		if (!p->free[i].len) {
			memmove(&p->free[i], &p->free[i + 1],
				(p->nfree - i - 1) * sizeof(*e));
			p->nfree--;
		}
		return;
	}
}

/* First fit by block number; NULLAGBLOCK if nothing holds len blocks. */
static uint32_t plan_first_fit(struct ag_plan *p, uint32_t len)
{
	for (unsigned i = 0; i < p->nfree; i++) {
		if (p->free[i].len >= len) {
			uint32_t s = p->free[i].start;

			plan_take(p, s, len);
			return s;
		}
	}
	return NULLAGBLOCK;
}

/* Add an rmap record, merged with neighbours of the same owner. */
static void plan_rmap(struct ag_plan *p, uint32_t start, uint32_t len,
		      uint64_t owner, bool merge)
{
	unsigned i = 0;

	while (i < p->nrmap && p->rmap[i].start < start)
		i++;
	if (merge && i > 0 && p->rmap[i - 1].owner == owner &&
	    p->rmap[i - 1].start + p->rmap[i - 1].len == start) {
		p->rmap[i - 1].len += len;
		if (i < p->nrmap && p->rmap[i].owner == owner &&
		    start + len == p->rmap[i].start) {
			p->rmap[i - 1].len += p->rmap[i].len;
			memmove(&p->rmap[i], &p->rmap[i + 1],
				(p->nrmap - i - 1) * sizeof(p->rmap[0]));
			p->nrmap--;
		}
		return;
	}
	if (merge && i < p->nrmap && p->rmap[i].owner == owner &&
	    start + len == p->rmap[i].start) {
		p->rmap[i].start = start;
		p->rmap[i].len += len;
		return;
	}
	memmove(&p->rmap[i + 1], &p->rmap[i],
		(p->nrmap - i) * sizeof(p->rmap[0]));
	p->rmap[i] = (struct build_rmap){ start, len, owner, 0 };
	p->nrmap++;
}

static void plan_ag(const struct mkfs_cfg *cfg, const struct ag_static *st,
		    xfs_agnumber_t agno, struct ag_plan *p)
{
	const struct sb_feat *f = &cfg->sb_feat;
	uint32_t len = agno == cfg->agcount - 1 ?
		(uint32_t)(cfg->dblocks - (uint64_t)agno * cfg->agsize) :
		(uint32_t)cfg->agsize;
	struct resv_geom rg;
	unsigned need;
	int best = -1;

	mkfs_resv_geom(cfg, &rg);
	need = resv_min_freelist(&rg);
	memset(p, 0, sizeof(*p));
	p->chunk = p->rbm = p->rsum = NULLAGBLOCK;
	p->free[0] = (struct build_ext){ st->prealloc, len - st->prealloc };
	p->nfree = 1;

	plan_rmap(p, 0, st->bno, XFS_RMAP_OWN_FS, false);
	plan_rmap(p, st->bno, 2, XFS_RMAP_OWN_AG, false);
	plan_rmap(p, st->ino, f->finobt ? 2 : 1, XFS_RMAP_OWN_INOBT, false);
	if (f->rmapbt)
		plan_rmap(p, st->rmap, 1, XFS_RMAP_OWN_AG, false);
	if (f->reflink)
		plan_rmap(p, st->refc, 1, XFS_RMAP_OWN_REFC, false);

	if (cfg->loginternal && (cfg->logstart >> cfg->agblklog) == agno) {
		uint32_t lb = cfg->logstart & ((1ull << cfg->agblklog) - 1);

		plan_take(p, lb, (uint32_t)cfg->logblocks);
		plan_rmap(p, lb, (uint32_t)cfg->logblocks, XFS_RMAP_OWN_LOG,
			  false);
	}

	/* The free list: the start of the smallest extent that holds it. */
	for (unsigned i = 0; i < p->nfree; i++)
		if (p->free[i].len >= need &&
		    (best < 0 || p->free[i].len < p->free[best].len))
			best = i;
	if (best >= 0) {
		uint32_t s = p->free[best].start;

		for (unsigned i = 0; i < need; i++)
			p->agfl[i] = s + i;
		p->nagfl = need;
		plan_take(p, s, need);
		plan_rmap(p, s, need, XFS_RMAP_OWN_AG, true);
	}

	if (agno == 0) {
		uint32_t cblocks = first_chunk_blocks(cfg);
		uint32_t align = cfg->inoalignmt > 1 ? cfg->inoalignmt : 1;

		/* stripe-aligned inode chunks when the unit allows it */
		if (cfg->dsunit && align > 1 && !(cfg->dsunit & (align - 1)))
			align = cfg->dsunit;
		for (unsigned i = 0; i < p->nfree; i++) {
			struct build_ext *e = &p->free[i];
			uint32_t s = (e->start + align - 1) / align * align;

			if (s + cblocks <= e->start + e->len) {
				p->chunk = s;
				break;
			}
		}
		if (p->chunk != NULLAGBLOCK) {
			plan_take(p, p->chunk, cblocks);
			plan_rmap(p, p->chunk, cblocks, XFS_RMAP_OWN_INODES,
				  true);
		}
		/*
		 * The realtime bitmap, then the summary, at the first free
		 * place each fits (realtime excludes rmapbt and reflink, so
		 * they need no reverse-map records).
		 */
		if (cfg->rtbmblocks)
			p->rbm = plan_first_fit(p, (uint32_t)cfg->rtbmblocks);
		if (cfg->rsumsize)
			p->rsum = plan_first_fit(p, cfg->rsumsize /
						 cfg->blocksize);
	}

	p->hdr.agno = agno;
	p->hdr.length = len;
	p->hdr.bnoroot = st->bno;
	p->hdr.cntroot = st->cnt;
	p->hdr.rmaproot = f->rmapbt ? st->rmap : 0;
	p->hdr.refcroot = f->reflink ? st->refc : 0;
	p->hdr.flfirst = p->nagfl ? 1 : 0;
	p->hdr.fllast = p->nagfl;
	p->hdr.flcount = p->nagfl;
	for (unsigned i = 0; i < p->nfree; i++) {
		p->hdr.freeblks += p->free[i].len;
		if (p->free[i].len > p->hdr.longest)
			p->hdr.longest = p->free[i].len;
	}
	p->hdr.rmapblocks = f->rmapbt ? 1 : 0;
	p->hdr.refcblocks = f->reflink ? 1 : 0;
	p->hdr.inoroot = st->ino;
	p->hdr.finoroot = f->finobt ? st->fino : 0;
	p->hdr.newino = NULLAGINO;
	p->hdr.iblocks = f->inobtcnt ? 1 : 0;
	p->hdr.fblocks = f->inobtcnt ? 1 : 0;
}

/* ---- writing ---- */

static int get_blk(struct fs *fs, xfs_agnumber_t agno, uint32_t agbno,
		   uint32_t nblocks, const struct buf_ops *ops,
		   struct fs_buf **bpp)
{
	return bcache_get(fs->bc, agb_to_daddr(&fs->geo, agno, agbno),
			  nblocks << fs->geo.blocklog, ops, bpp);
}

static int put_buf(struct fs_buf *bp)
{
	int err = buf_mark_dirty(bp);

	buf_release(bp);
	return err;
}

static int cmp_cnt(const void *a, const void *b)
{
	const struct build_ext *x = a, *y = b;

	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

static void fill_sb(const struct mkfs_cfg *cfg, struct fs_sb *sb)
{
	memset(sb, 0, sizeof(*sb));
	sb->magicnum = XFS_SB_MAGIC;
	sb->blocksize = cfg->blocksize;
	sb->dblocks = cfg->dblocks;
	sb->rblocks = cfg->rtblocks;
	sb->rextents = cfg->rtextents;
	memcpy(sb->uuid.b, cfg->uuid, 16);
	sb->logstart = cfg->loginternal ? cfg->logstart : 0;
	sb->rootino = sb->rbmino = sb->rsumino = NULLFSINO;
	sb->rextsize = (uint32_t)cfg->rtextblocks;
	sb->agblocks = (uint32_t)cfg->agsize;
	sb->agcount = (uint32_t)cfg->agcount;
	sb->rbmblocks = (uint32_t)cfg->rtbmblocks;
	sb->logblocks = (uint32_t)cfg->logblocks;
	sb->versionnum = cfg->versionnum;
	sb->sectsize = cfg->sectorsize;
	sb->inodesize = cfg->inodesize;
	sb->inopblock = cfg->inopblock;
	if (cfg->label) {
		size_t n = strlen(cfg->label);

		memcpy(sb->fname, cfg->label,
		       n < sizeof(sb->fname) ? n : sizeof(sb->fname));
	}
	sb->blocklog = cfg->blocklog;
	sb->sectlog = cfg->sectorlog;
	sb->inodelog = cfg->inodelog;
	sb->inopblog = cfg->blocklog - cfg->inodelog;
	sb->agblklog = cfg->agblklog;
	sb->rextslog = cfg->rextslog;
	sb->inprogress = 1;
	sb->imax_pct = cfg->imaxpct;
	sb->fdblocks = cfg->dblocks -
		       cfg->agcount * mkfs_prealloc_blocks(cfg) -
		       (cfg->loginternal ? cfg->logblocks : 0);
	sb->inoalignmt = cfg->inoalignmt;
	sb->unit = cfg->dsunit;
	sb->width = cfg->dswidth;
	sb->dirblklog = cfg->dirblocklog - cfg->blocklog;
	if (cfg->versionnum & XFS_SB_VERSION_SECTORBIT) {
		sb->logsectlog = cfg->lsectorlog;
		sb->logsectsize = cfg->lsectorsize;
	}
	sb->logsunit = cfg->logsunit_bytes;
	sb->features2 = cfg->features2;
	sb->bad_features2 = cfg->features2;
	sb->features_ro_compat = cfg->ro_compat;
	sb->features_incompat = cfg->incompat;
	sb->spino_align = cfg->spino_align;
}

static void set_time(struct build_inode *bi, const struct timespec *now)
{
	bi->mtime_sec = bi->ctime_sec = bi->crtime_sec = now->tv_sec;
	bi->mtime_nsec = bi->ctime_nsec = bi->crtime_nsec = now->tv_nsec;
}

static int write_inode_chunk(struct fs *fs, const struct mkfs_cfg *cfg,
			     const struct cli_params *cli,
			     const struct ag_plan *p, xfs_ino_t *rootino)
{
	const struct fs_geom *g = &fs->geo;
	uint32_t cblocks = first_chunk_blocks(cfg);
	struct fs_buf *bp;
	struct timespec now;
	uint32_t chunk = p->chunk;
	xfs_ino_t first = agino_to_ino(g, 0, agb_to_agino(g, chunk));
	uint64_t flags2 = 0;
	int err;

	err = get_blk(fs, 0, chunk, cblocks, &build_inodes_ops, &bp);
	if (err)
		return err;
	clock_gettime(CLOCK_REALTIME, &now);
	if (cfg->sb_feat.bigtime)
		flags2 |= XFS_DIFLAG2_BIGTIME;
	if (cfg->sb_feat.nrext64)
		flags2 |= XFS_DIFLAG2_NREXT64;

	for (unsigned i = 0; i < first_inodes(cfg); i++) {
		struct build_inode bi = { .ino = first + i };

		build_dinode(bp->data + i * cfg->inodesize, cfg->inodesize,
			     &bi, &fs->geo.meta_uuid);
	}
	/* the root directory */
	{
		struct build_inode bi = {
			.ino = first, .mode = XFS_S_IFDIR | 0755,
			.format = XFS_DINODE_FMT_LOCAL,
			.aformat = XFS_DINODE_FMT_EXTENTS, .nlink = 2,
			.flags2 = flags2, .changecount = 2,
		};
		uint8_t *ip = bp->data;

		if (cli->fsx_xflags & XFS_XFLAG_RTINHERIT_)
			bi.flags |= XFS_DIFLAG_RTINHERIT;
		if (cli->fsx_xflags & XFS_XFLAG_PROJINHERIT_) {
			bi.flags |= XFS_DIFLAG_PROJINHERIT;
			bi.projid = cli->fsx_projid;
		}
		if (cli->fsx_xflags & XFS_XFLAG_EXTSZINHERIT_) {
			bi.flags |= XFS_DIFLAG_EXTSZINHERIT;
			bi.extsize = cli->fsx_extsize;
		}
		if (cli->fsx_xflags & XFS_XFLAG_COWEXTSIZE_) {
			bi.flags2 |= XFS_DIFLAG2_COWEXTSIZE;
			bi.cowextsize = cli->fsx_cowextsize;
		}
		if (cli->fsx_xflags & XFS_XFLAG_DAX_)
			bi.flags2 |= XFS_DIFLAG2_DAX;
		set_time(&bi, &now);
		build_dinode(ip, cfg->inodesize, &bi, &fs->geo.meta_uuid);
		bi.size = build_sf_dir_empty(build_dinode_dfork(ip), first);
		store_be64(ip + offsetof(struct xfs_dinode, di_size), bi.size);
	}
	/* the realtime bitmap and summary inodes */
	for (unsigned i = 1; i <= 2; i++) {
		struct build_inode bi = {
			.ino = first + i, .mode = XFS_S_IFREG,
			.format = XFS_DINODE_FMT_EXTENTS,
			.aformat = XFS_DINODE_FMT_EXTENTS, .nlink = 1,
			.flags2 = flags2, .changecount = 2,
		};

		uint32_t start = i == 1 ? p->rbm : p->rsum;
		uint8_t *ip = bp->data + i * cfg->inodesize;

		/* filling the bitmap and summary bumps their change counts */
		if (cfg->rtblocks)
			bi.changecount = i == 1 ? 4 : 3;
		if (i == 1) {
			bi.flags = XFS_DIFLAG_NEWRTBM;
			bi.size = cfg->rtbmblocks * cfg->blocksize;
		} else {
			bi.size = cfg->rsumsize;
		}
		bi.nblocks = bi.size / cfg->blocksize;
		bi.nextents = bi.nblocks ? 1 : 0;
		set_time(&bi, &now);
		build_dinode(ip, cfg->inodesize, &bi, &fs->geo.meta_uuid);
		if (bi.nblocks) {
			struct xfs_bmbt_irec ir = {
				.br_startoff = 0,
				.br_startblock = agb_to_fsb(g, 0, start),
				.br_blockcount = bi.nblocks,
			};

			bmbt_rec_encode(build_dinode_dfork(ip), &ir);
		}
	}
	*rootino = first;
	return put_buf(bp);
}

static int write_ag(struct fs *fs, const struct mkfs_cfg *cfg,
		    const struct ag_static *st, struct ag_plan *p,
		    const struct fs_sb *sb)
{
	const xfs_uuid_t *uuid = &fs->geo.meta_uuid;
	xfs_agnumber_t agno = p->hdr.agno;
	uint32_t ss = cfg->sectorsize, bs = cfg->blocksize;
	const struct sb_feat *f = &cfg->sb_feat;
	struct build_ext cnt[MAX_EXT];
	struct fs_buf *bp;
	int err;

	/* superblock copy, AGF, AGI, AGFL */
	err = bcache_get(fs->bc, ag_sector_daddr(&fs->geo, agno, 0), ss,
			 &build_sb_ops, &bp);
	if (err)
		return err;
	build_sb(bp->data, ss, sb);
	if ((err = put_buf(bp)))
		return err;
	err = bcache_get(fs->bc, ag_sector_daddr(&fs->geo, agno, 1), ss,
			 &build_agf_ops, &bp);
	if (err)
		return err;
	build_agf(bp->data, ss, &p->hdr, uuid);
	if ((err = put_buf(bp)))
		return err;
	err = bcache_get(fs->bc, ag_sector_daddr(&fs->geo, agno, 2), ss,
			 &build_agi_ops, &bp);
	if (err)
		return err;
	build_agi(bp->data, ss, &p->hdr, uuid);
	if ((err = put_buf(bp)))
		return err;
	err = bcache_get(fs->bc, ag_sector_daddr(&fs->geo, agno, 3), ss,
			 &build_agfl_ops, &bp);
	if (err)
		return err;
	build_agfl(bp->data, ss, agno, uuid, p->agfl, p->nagfl, 1);
	if ((err = put_buf(bp)))
		return err;

	/* free space by block, then by size */
	memcpy(cnt, p->free, p->nfree * sizeof(cnt[0]));
	qsort(cnt, p->nfree, sizeof(cnt[0]), cmp_cnt);
	for (int t = 0; t < 2; t++) {
		uint32_t blk = t ? st->cnt : st->bno;

		if ((err = get_blk(fs, agno, blk, 1, &build_sblock_ops, &bp)))
			return err;
		build_sblock(bp->data, bs, t ? XFS_ABTC_CRC_MAGIC :
			     XFS_ABTB_CRC_MAGIC, 0, p->nfree,
			     agb_to_daddr(&fs->geo, agno, blk), agno, uuid);
		build_alloc_leaf(bp->data, t ? cnt : p->free, p->nfree);
		if ((err = put_buf(bp)))
			return err;
	}

	/* inode btrees: the root chunk in AG 0, empty elsewhere */
	for (int t = 0; t < 2; t++) {
		uint32_t blk = t ? st->fino : st->ino;
		struct build_inobt rec[XFS_MAX_BLOCKSIZE / XFS_DINODE_MIN_SIZE /
				       XFS_INODES_PER_CHUNK] = { { 0 } };
		unsigned n = 0;

		if (t && !f->finobt)
			break;
		/* the root chunk: three inodes used in its first record */
		for (; p->chunk != NULLAGBLOCK &&
		       n < first_inodes(cfg) / XFS_INODES_PER_CHUNK; n++) {
			rec[n].startino = agb_to_agino(&fs->geo, p->chunk) +
					  n * XFS_INODES_PER_CHUNK;
			rec[n].count = XFS_INODES_PER_CHUNK;
			rec[n].freecount = XFS_INODES_PER_CHUNK - (n ? 0 : 3);
			rec[n].free = n ? ~0ull : ~0ull << 3;
		}
		if ((err = get_blk(fs, agno, blk, 1, &build_sblock_ops, &bp)))
			return err;
		build_sblock(bp->data, bs, t ? XFS_FIBT_CRC_MAGIC :
			     XFS_IBT_CRC_MAGIC, 0, n,
			     agb_to_daddr(&fs->geo, agno, blk), agno, uuid);
		build_inobt_leaf(bp->data, rec, n, f->spinodes);
		if ((err = put_buf(bp)))
			return err;
	}

	if (f->rmapbt) {
		if ((err = get_blk(fs, agno, st->rmap, 1, &build_sblock_ops,
				   &bp)))
			return err;
		build_sblock(bp->data, bs, XFS_RMAP_CRC_MAGIC, 0, p->nrmap,
			     agb_to_daddr(&fs->geo, agno, st->rmap), agno,
			     uuid);
		build_rmap_leaf(bp->data, p->rmap, p->nrmap);
		if ((err = put_buf(bp)))
			return err;
	}
	if (f->reflink) {
		if ((err = get_blk(fs, agno, st->refc, 1, &build_sblock_ops,
				   &bp)))
			return err;
		build_sblock(bp->data, bs, XFS_REFC_CRC_MAGIC, 0, 0,
			     agb_to_daddr(&fs->geo, agno, st->refc), agno,
			     uuid);
		if ((err = put_buf(bp)))
			return err;
	}
	return 0;
}

/*
 * The realtime bitmap with every extent free (one bit per extent, in
 * 32-bit words of host byte order, lowest bit first) and the summary
 * counting that one free extent: level log2(rtextents), bitmap block 0.
 */
static int write_rt(struct fs *fs, const struct mkfs_cfg *cfg,
		    const struct ag_plan *p)
{
	uint32_t bs = cfg->blocksize;
	uint64_t bits = cfg->rtextents;
	struct fs_buf *bp;
	int err;

	if (p->rbm == NULLAGBLOCK || p->rsum == NULLAGBLOCK)
		return -ENOSPC;
	for (uint64_t b = 0; b < cfg->rtbmblocks; b++) {
		uint64_t first = b * 8ull * bs;
		uint64_t n = bits - first < 8ull * bs ? bits - first : 8ull * bs;

		if ((err = get_blk(fs, 0, p->rbm + b, 1, NULL, &bp)))
			return err;
		memset(bp->data, 0, bs);
		memset(bp->data, 0xff, n / 8);
		for (uint64_t i = n / 8 * 8; i < n; i++)
			bp->data[i / 8] |= 1u << (i % 8);
		if ((err = put_buf(bp)))
			return err;
	}
	for (uint32_t b = 0; b < cfg->rsumsize / bs; b++) {
		uint64_t idx = (uint64_t)cfg->rextslog * cfg->rtbmblocks;

		if ((err = get_blk(fs, 0, p->rsum + b, 1, NULL, &bp)))
			return err;
		memset(bp->data, 0, bs);
		if (idx / (bs / 4) == b) {
			uint32_t one = 1;	/* host byte order */

			memcpy(bp->data + (idx % (bs / 4)) * 4, &one, 4);
		}
		if ((err = put_buf(bp)))
			return err;
	}
	/* the reference writes the last realtime block: prove it exists */
	if (rdev) {
		uint8_t *z = calloc(1, bs);

		if (!z)
			return -ENOMEM;
		err = dev_pwrite(rdev, z, bs, (cfg->rtblocks - 1) * bs);
		free(z);
		if (!err)
			err = dev_sync(rdev);
		if (err)
			return err;
	}
	return 0;
}

static void fail(const char *what, int err)
{
	fprintf(stderr, "%s: %s: %s\n", progname, what, strerror(-err));
	exit(1);
}

int mkfs_write(struct mkfs_cfg *cfg, struct cli_params *cli, bool discard,
	       bool quiet, bool force)
{
	struct fs *fs;
	struct fs_sb sb;
	struct ag_static st;
	struct ag_plan *plans;
	uint64_t total_free = 0, bytes = cfg->dblocks * cfg->blocksize;
	xfs_ino_t rootino = NULLFSINO;
	uint32_t lsunit;
	int err;

	(void)cli;
	if (force && !cli->data.create)
		zero_old_xfs(ddev, cfg->sectorsize);
	if (discard) {
		discard_dev(ddev, quiet);
		discard_dev(rdev, quiet);
		discard_dev(ldev, quiet);
	}
	if (ddev->is_file && ddev->size < bytes) {
		err = dev_set_file_size(ddev, bytes);
		if (err) {
			fprintf(stderr, "%s: Growing the data section failed\n",
				progname);
			exit(1);
		}
	}
	/* Old signatures at either end of the device (MD, swap, ext*). */
	err = zero_range(ddev, ddev->size - WHACK_SIZE, WHACK_SIZE);
	if (!err)
		err = zero_range(ddev, 0, WHACK_SIZE);
	if (err)
		fail("zeroing old signatures", err);

	fill_sb(cfg, &sb);
	build_ag_static(cfg->blocksize, cfg->sectorsize, cfg->sb_feat.finobt,
			cfg->sb_feat.rmapbt, cfg->sb_feat.reflink, &st);

	err = fs_open_dev(ddev, FS_OPEN_NOSB, &fs, NULL);
	if (err)
		fail("opening the data device", err);
	ddev = NULL;
	fs_set_sb(fs, &sb);
	memcpy(fs->geo.meta_uuid.b, cfg->uuid, 16);

	/* the clean log */
	lsunit = cfg->logsunit_bytes > 1 ? cfg->logsunit_bytes :
		 (cfg->versionnum & XFS_SB_VERSION_SECTORBIT ?
		  (uint32_t)cfg->lsectorsize : 0);
	{
		struct fs_dev *dev = cfg->loginternal ? fs->dev : ldev;
		uint64_t off = cfg->loginternal ?
			fsb_to_daddr(&fs->geo, cfg->logstart) << BBSHIFT : 0;
		uint64_t len = cfg->logblocks * cfg->blocksize;

		/* zero cheaply (punch or zeroout), then write the record */
		err = zero_range(dev, off, len);
		if (!err)
			err = log_format(dev, off, len, &sb.uuid, lsunit, 1,
					 LOG_FORMAT_NOZERO);
	}
	if (err)
		fail("writing the log", err);

	plans = calloc(cfg->agcount, sizeof(*plans));
	if (!plans)
		fail("planning AGs", -ENOMEM);
	for (xfs_agnumber_t a = 0; a < cfg->agcount; a++) {
		plan_ag(cfg, &st, a, &plans[a]);
		total_free += plans[a].hdr.freeblks + plans[a].hdr.flcount;
	}
	if (plans[0].chunk == NULLAGBLOCK) {
		fprintf(stderr, "%s: no space for the root inode chunk\n",
			progname);
		exit(1);
	}
	plans[0].hdr.icount = first_inodes(cfg);
	plans[0].hdr.ifree = first_inodes(cfg) - 3;
	plans[0].hdr.newino = agb_to_agino(&fs->geo, plans[0].chunk);

	err = write_inode_chunk(fs, cfg, cli, &plans[0], &rootino);
	if (err)
		fail("writing the root inode", err);
	if (cfg->rtblocks && (err = write_rt(fs, cfg, &plans[0])))
		fail("writing the realtime bitmap", err);

	/* secondaries: as first set up; root inode in the middle and last */
	for (xfs_agnumber_t a = cfg->agcount; a-- > 0;) {
		struct fs_sb s = sb;

		if (a == 0) {
			s.rootino = rootino;
			s.rbmino = rootino + 1;
			s.rsumino = rootino + 2;
			s.inprogress = 0;
			s.icount = first_inodes(cfg);
			s.ifree = first_inodes(cfg) - 3;
			s.fdblocks = total_free;
			s.frextents = cfg->rtextents;
		} else if (a == cfg->agcount - 1 ||
			   (cfg->agcount > 2 && a == (cfg->agcount - 1) / 2)) {
			s.rootino = rootino;
		}
		err = write_ag(fs, cfg, &st, &plans[a], &s);
		if (err)
			fail("writing AG headers", err);
		/* keep the cache small on filesystems with many AGs */
		if (a && a % 64 == 0 && (err = bcache_flush(fs->bc)))
			fail("writing AG headers", err);
	}
	free(plans);
	err = bcache_flush(fs->bc);
	if (err)
		fail("writing the filesystem", err);
	if (ldev && (err = dev_sync(ldev)))
		fail("writing the log", err);
	fs_close(fs);
	dev_close(ldev);
	dev_close(rdev);
	return 0;
}
