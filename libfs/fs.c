/*
 * Opening a filesystem: device, first superblock sector, verification,
 * geometry, buffer cache.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "fs.h"

static void sb_buf_verify(void *ctx, struct fs_buf *bp, struct fs_findings *fl)
{
	struct fs *fs = ctx;
	xfs_agnumber_t agno = fs->sb_ok ? (xfs_agnumber_t)daddr_to_agno(&fs->geo, bp->daddr) : 0;

	sb_verify(bp->data, bp->len, agno, fs->dev->size, fl);
}

const struct buf_ops sb_buf_ops = {
	.name = "sb",
	.verify = sb_buf_verify,
	.crc_off = XFS_SB_CRC_OFF,
};

void fs_set_sb(struct fs *fs, const struct fs_sb *sb)
{
	fs->sb = *sb;
	geom_init(&fs->geo, sb);
}

static uint64_t default_cache_bytes(void)
{
	const char *env = getenv("XFSKIT_CACHE_MB");

	if (env && *env)
		return strtoull(env, NULL, 10) << 20;
	return 512ull << 20;
}

int fs_open_dev(struct fs_dev *dev, unsigned flags, struct fs **fsp,
		struct fs_findings *fl)
{
	struct fs *fs;
	uint8_t first[BBSIZE];
	int err;

	*fsp = NULL;
	fs = calloc(1, sizeof(*fs));
	if (!fs) {
		dev_close(dev);
		return -ENOMEM;
	}
	fs->dev = dev;
	fs->flags = flags;
	err = bcache_create(dev, default_cache_bytes(), fs, &fs->bc);
	if (err)
		goto fail;
	if (flags & FS_OPEN_NOSB) {
		*fsp = fs;
		return 0;
	}

	/*
	 * The sector size is in the superblock itself: look at the first
	 * 512 bytes for identity and size, then read the whole sector through
	 * the cache (the CRC covers all of it).
	 */
	err = dev_pread(dev, first, sizeof(first), 0);
	if (err) {
		struct fs_objref o = OBJREF_INIT(OBJ_DEV);

		fs_report_val(fl, PR_DEV_SHORT_READ, &o, NULL, BBSIZE, dev->size);
		goto fail;
	}
	{
		const struct xfs_dsb *d = (const void *)first;
		struct fs_objref o = OBJREF_INIT(OBJ_SB);
		uint16_t sect;
		struct fs_buf *bp;

		o.agno = 0;
		o.daddr = 0;
		if (get_be32(d->sb_magicnum) != XFS_SB_MAGIC) {
			fs_report_val(fl, PR_FS_NOT_XFS, &o, "magicnum",
				      XFS_SB_MAGIC, get_be32(d->sb_magicnum));
			err = -EINVAL;
			goto fail;
		}
		if ((get_be16(d->sb_versionnum) & XFS_SB_VERSION_NUMBITS) !=
		    XFS_SB_VERSION_5) {
			fs_report_val(fl, PR_FS_V4, &o, "versionnum",
				      XFS_SB_VERSION_5,
				      get_be16(d->sb_versionnum) &
				      XFS_SB_VERSION_NUMBITS);
			err = -EINVAL;
			goto fail;
		}
		sect = get_be16(d->sb_sectsize);
		if (sect < BBSIZE || sect > 32768 || (sect & (sect - 1)))
			sect = BBSIZE;
		err = bcache_read(fs->bc, 0, sect, &sb_buf_ops, fl, &bp);
		if (err)
			goto fail;
		sb_decode((const void *)bp->data, &fs->sb);
		fs->sb_ok = !buf_corrupt(bp);
		buf_release(bp);
		if (!fs->sb_ok && !(flags & FS_OPEN_FORCE)) {
			err = -EUCLEAN;
			goto fail;
		}
	}
	/*
	 * Geometry is derived only from a superblock that passed; with
	 * FS_OPEN_FORCE and a damaged one, the caller must find a usable copy
	 * (repair's phase 1) before using fs->geo.
	 */
	if (fs->sb_ok)
		geom_init(&fs->geo, &fs->sb);
	*fsp = fs;
	return 0;
fail:
	bcache_destroy(fs->bc);
	dev_close(fs->dev);
	free(fs);
	return err;
}

int fs_open(const char *path, unsigned flags, struct fs **fsp,
	    struct fs_findings *fl)
{
	struct fs_dev *dev;
	int err;

	*fsp = NULL;
	err = dev_open(path, (flags & FS_OPEN_RDONLY) ? DEV_RDONLY : 0, &dev);
	if (err)
		return err;
	return fs_open_dev(dev, flags, fsp, fl);
}

void fs_close(struct fs *fs)
{
	if (!fs)
		return;
	bcache_destroy(fs->bc);
	dev_close(fs->dev);
	dev_close(fs->logdev);
	dev_close(fs->rtdev);
	free(fs);
}

int fs_read_agblocks(struct fs *fs, xfs_agnumber_t agno, xfs_agblock_t agbno,
		     uint32_t nblocks, const struct buf_ops *ops,
		     struct fs_findings *fl, struct fs_buf **bpp)
{
	*bpp = NULL;
	if (!agbno_valid(&fs->geo, agno, agbno) ||
	    nblocks > geom_ag_blocks(&fs->geo, agno) - agbno)
		return -ERANGE;
	return bcache_read(fs->bc, agb_to_daddr(&fs->geo, agno, agbno),
			   nblocks << fs->geo.blocklog, ops, fl, bpp);
}

int fs_read_blocks(struct fs *fs, xfs_fsblock_t fsb, uint32_t nblocks,
		   const struct buf_ops *ops, struct fs_findings *fl,
		   struct fs_buf **bpp)
{
	return fs_read_agblocks(fs, fsb_to_agno(&fs->geo, fsb),
				fsb_to_agbno(&fs->geo, fsb), nblocks, ops, fl,
				bpp);
}

int fs_read_sb(struct fs *fs, xfs_agnumber_t agno, struct fs_findings *fl,
	       struct fs_buf **bpp)
{
	*bpp = NULL;
	if (agno >= fs->geo.agcount)
		return -ERANGE;
	return bcache_read(fs->bc, ag_sector_daddr(&fs->geo, agno, 0),
			   fs->geo.sectsize, &sb_buf_ops, fl, bpp);
}
