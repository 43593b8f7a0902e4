/*
 * Derive struct fs_geom from a verified superblock.  The inode cluster
 * size follows the kernel's rule for v5 filesystems: 8 KiB scaled by
 * inodesize / 256, provided the chunk alignment is at least that many
 * blocks; a cluster is never less than one block.
 */
#include "config.h"
#include <string.h>
#include "geom.h"

#define XFS_INODE_BIG_CLUSTER_SIZE	8192

void geom_init(struct fs_geom *g, const struct fs_sb *sb)
{
	uint32_t cluster;

	memset(g, 0, sizeof(*g));
	g->blocksize = sb->blocksize;
	g->blocklog = sb->blocklog;
	g->blkbb_log = sb->blocklog - BBSHIFT;
	g->sectsize = sb->sectsize;
	g->sectlog = sb->sectlog;
	g->agblocks = sb->agblocks;
	g->agblklog = sb->agblklog;
	g->agcount = sb->agcount;
	g->dblocks = sb->dblocks;
	g->last_ag_blocks = (uint32_t)(sb->dblocks -
				       (uint64_t)(sb->agcount - 1) * sb->agblocks);
	g->inodesize = sb->inodesize;
	g->inodelog = sb->inodelog;
	g->inopblock = sb->inopblock;
	g->inopblog = sb->inopblog;
	g->agino_log = sb->agblklog + sb->inopblog;
	g->dirblklog = sb->dirblklog;
	g->dirblkfsbs = 1u << sb->dirblklog;
	g->dirblksize = sb->blocksize << sb->dirblklog;

	g->inoalign = sb->inoalignmt;
	g->chunk_blocks = (XFS_INODES_PER_CHUNK * sb->inodesize) >> sb->blocklog;
	if (!g->chunk_blocks)
		g->chunk_blocks = 1;
	cluster = XFS_INODE_BIG_CLUSTER_SIZE;
	if (sb_is_v5(sb)) {
		uint32_t scaled = cluster * (sb->inodesize / 256);

		if (sb->inoalignmt >= (scaled >> sb->blocklog))
			cluster = scaled;
	}
	g->blocks_per_cluster = cluster >> sb->blocklog;
	if (!g->blocks_per_cluster)
		g->blocks_per_cluster = 1;
	g->cluster_size = g->blocks_per_cluster << sb->blocklog;
	g->inodes_per_cluster = g->blocks_per_cluster << sb->inopblog;
	g->spino_align = sb->spino_align;

	g->log_internal = sb->logstart != 0;
	g->logstart = sb->logstart;
	g->logblocks = sb->logblocks;

	g->has_ftype = sb_has_ftype(sb);
	g->has_sparse = sb_has_sparseinodes(sb);
	g->has_finobt = sb_has_finobt(sb);
	g->has_rmapbt = sb_has_rmapbt(sb);
	g->has_reflink = sb_has_reflink(sb);
	g->has_bigtime = sb_has_bigtime(sb);
	g->has_nrext64 = sb_has_nrext64(sb);
	g->has_inobtcount = sb_has_inobtcount(sb);
	g->meta_uuid = *sb_meta_uuid(sb);
}

bool geom_lsn_plausible(const struct fs_geom *g, xfs_lsn_t lsn)
{
	uint64_t v = (uint64_t)lsn;
	uint64_t logbb = (uint64_t)g->logblocks << g->blkbb_log;

	if (lsn == 0 || lsn == NULLCOMMITLSN)
		return true;
	return (v >> 32) != 0 && (v & 0xffffffffu) < logbb;
}
