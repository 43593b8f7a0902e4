/*
 * Builders for fresh AG headers, empty btree roots and inode cores
 * (allocation_groups.asciidoc, btrees.asciidoc, ondisk_inode.asciidoc,
 * directories.asciidoc "Short Form Directories").  See build.h.
 */
#include "config.h"
#include <string.h>
#include "build.h"
#include "format/crc32c.h"
#include "format/dir.h"
#include "fs.h"

void build_ag_static(uint32_t blocksize, uint32_t sectsize, bool finobt,
		     bool rmapbt, bool reflink, struct ag_static *st)
{
	uint32_t next;

	/* The AGFL is sector 3; the first btree root follows its block. */
	st->hdr_blocks = (4 * sectsize + blocksize - 1) / blocksize;
	next = (3 * sectsize) / blocksize + 1;
	st->bno = next++;
	st->cnt = next++;
	st->ino = next++;
	st->fino = finobt ? next++ : NULLAGBLOCK;
	st->rmap = rmapbt ? next++ : NULLAGBLOCK;
	st->refc = reflink ? next++ : NULLAGBLOCK;
	st->prealloc = next;
}

void build_sb(void *sector, uint32_t sectsize, const struct fs_sb *sb)
{
	memset(sector, 0, sectsize);
	sb_encode(sb, sector);
}

void build_agf(void *sector, uint32_t sectsize, const struct build_ag *a,
	       const xfs_uuid_t *uuid)
{
	struct xfs_agf *agf = sector;

	memset(sector, 0, sectsize);
	put_be32(&agf->agf_magicnum, XFS_AGF_MAGIC);
	put_be32(&agf->agf_versionnum, XFS_AGF_VERSION);
	put_be32(&agf->agf_seqno, a->agno);
	put_be32(&agf->agf_length, a->length);
	put_be32(&agf->agf_roots[XFS_AGF_BNO], a->bnoroot);
	put_be32(&agf->agf_roots[XFS_AGF_CNT], a->cntroot);
	put_be32(&agf->agf_levels[XFS_AGF_BNO], 1);
	put_be32(&agf->agf_levels[XFS_AGF_CNT], 1);
	if (a->rmaproot) {
		put_be32(&agf->agf_roots[XFS_AGF_RMAP], a->rmaproot);
		put_be32(&agf->agf_levels[XFS_AGF_RMAP], 1);
	}
	put_be32(&agf->agf_flfirst, a->flfirst);
	put_be32(&agf->agf_fllast, a->fllast);
	put_be32(&agf->agf_flcount, a->flcount);
	put_be32(&agf->agf_freeblks, a->freeblks);
	put_be32(&agf->agf_longest, a->longest);
	put_be32(&agf->agf_btreeblks, a->btreeblks);
	agf->agf_uuid = *uuid;
	put_be32(&agf->agf_rmap_blocks, a->rmapblocks);
	put_be32(&agf->agf_refcount_blocks, a->refcblocks);
	if (a->refcroot) {
		put_be32(&agf->agf_refcount_root, a->refcroot);
		put_be32(&agf->agf_refcount_level, 1);
	}
}

void build_agi(void *sector, uint32_t sectsize, const struct build_ag *a,
	       const xfs_uuid_t *uuid)
{
	struct xfs_agi *agi = sector;

	memset(sector, 0, sectsize);
	put_be32(&agi->agi_magicnum, XFS_AGI_MAGIC);
	put_be32(&agi->agi_versionnum, XFS_AGI_VERSION);
	put_be32(&agi->agi_seqno, a->agno);
	put_be32(&agi->agi_length, a->length);
	put_be32(&agi->agi_count, a->icount);
	put_be32(&agi->agi_root, a->inoroot);
	put_be32(&agi->agi_level, 1);
	put_be32(&agi->agi_freecount, a->ifree);
	put_be32(&agi->agi_newino, a->newino);
	put_be32(&agi->agi_dirino, NULLAGINO);
	for (unsigned i = 0; i < XFS_AGI_UNLINKED_BUCKETS; i++)
		put_be32(&agi->agi_unlinked[i], NULLAGINO);
	agi->agi_uuid = *uuid;
	if (a->finoroot) {
		put_be32(&agi->agi_free_root, a->finoroot);
		put_be32(&agi->agi_free_level, 1);
	}
	put_be32(&agi->agi_iblocks, a->iblocks);
	put_be32(&agi->agi_fblocks, a->fblocks);
}

void build_agfl(void *sector, uint32_t sectsize, xfs_agnumber_t agno,
		const xfs_uuid_t *uuid, const uint32_t *blocks, unsigned n,
		unsigned first)
{
	struct xfs_agfl *agfl = sector;
	uint8_t *slots = (uint8_t *)sector + XFS_AGFL_HDR_SIZE;
	unsigned size = build_agfl_size(sectsize);

	memset(sector, 0, sectsize);
	put_be32(&agfl->agfl_magicnum, XFS_AGFL_MAGIC);
	put_be32(&agfl->agfl_seqno, agno);
	agfl->agfl_uuid = *uuid;
	for (unsigned i = 0; i < size; i++)
		store_be32(slots + 4 * i, NULLAGBLOCK);
	for (unsigned i = 0; i < n; i++)
		store_be32(slots + 4 * ((first + i) % size), blocks[i]);
}

void build_sblock(void *blk, uint32_t blocksize, uint32_t magic,
		  uint16_t level, uint16_t numrecs, xfs_daddr_t daddr,
		  xfs_agnumber_t agno, const xfs_uuid_t *uuid)
{
	struct xfs_btree_sblock *b = blk;

	memset(blk, 0, blocksize);
	put_be32(&b->bb_magic, magic);
	put_be16(&b->bb_level, level);
	put_be16(&b->bb_numrecs, numrecs);
	put_be32(&b->bb_leftsib, NULLAGBLOCK);
	put_be32(&b->bb_rightsib, NULLAGBLOCK);
	put_be64(&b->bb_blkno, daddr);
	b->bb_uuid = *uuid;
	put_be32(&b->bb_owner, agno);
}

void build_alloc_leaf(void *blk, const struct build_ext *recs, unsigned n)
{
	struct xfs_alloc_rec *r = (void *)((uint8_t *)blk +
					   XFS_BTREE_SBLOCK_CRC_LEN);

	for (unsigned i = 0; i < n; i++) {
		put_be32(&r[i].ar_startblock, recs[i].start);
		put_be32(&r[i].ar_blockcount, recs[i].len);
	}
}

void build_rmap_leaf(void *blk, const struct build_rmap *recs, unsigned n)
{
	struct xfs_rmap_rec *r = (void *)((uint8_t *)blk +
					  XFS_BTREE_SBLOCK_CRC_LEN);

	for (unsigned i = 0; i < n; i++) {
		put_be32(&r[i].rm_startblock, recs[i].start);
		put_be32(&r[i].rm_blockcount, recs[i].len);
		put_be64(&r[i].rm_owner, recs[i].owner);
		put_be64(&r[i].rm_offset, recs[i].offset);
	}
}

void build_inobt_leaf(void *blk, const struct build_inobt *recs, unsigned n,
		      bool sparse)
{
	struct xfs_inobt_rec *r = (void *)((uint8_t *)blk +
					   XFS_BTREE_SBLOCK_CRC_LEN);

	for (unsigned i = 0; i < n; i++) {
		put_be32(&r[i].ir_startino, recs[i].startino);
		if (sparse) {
			put_be16(&r[i].ir_u.sp.ir_holemask, recs[i].holemask);
			r[i].ir_u.sp.ir_count = recs[i].count;
			r[i].ir_u.sp.ir_freecount = recs[i].freecount;
		} else {
			put_be32(&r[i].ir_u.f.ir_freecount, recs[i].freecount);
		}
		put_be64(&r[i].ir_free, recs[i].free);
	}
}

static void put_time(xfs_timestamp_t *t, bool bigtime, int64_t sec,
		     uint32_t nsec)
{
	if (bigtime) {
		put_be64(t, (uint64_t)(sec + XFS_BIGTIME_EPOCH_OFFSET) *
			    XFS_NSEC_PER_SEC + nsec);
	} else {
		struct xfs_legacy_timestamp *l = (void *)t;

		put_be32(&l->t_sec, (uint32_t)(int32_t)sec);
		put_be32(&l->t_nsec, nsec);
	}
}

void build_dinode(void *p, uint32_t inodesize, const struct build_inode *bi,
		  const xfs_uuid_t *uuid)
{
	struct xfs_dinode *d = p;
	bool big = (bi->flags2 & XFS_DIFLAG2_BIGTIME) != 0;

	memset(p, 0, inodesize);
	put_be16(&d->di_magic, XFS_DINODE_MAGIC);
	put_be16(&d->di_mode, bi->mode);
	d->di_version = XFS_DINODE_VERSION_3;
	d->di_format = bi->format;
	put_be32(&d->di_uid, bi->uid);
	put_be32(&d->di_gid, bi->gid);
	put_be32(&d->di_nlink, bi->nlink);
	put_be16(&d->di_projid_lo, bi->projid & 0xffff);
	put_be16(&d->di_projid_hi, bi->projid >> 16);
	put_time(&d->di_atime, big, bi->atime_sec, bi->atime_nsec);
	put_time(&d->di_mtime, big, bi->mtime_sec, bi->mtime_nsec);
	put_time(&d->di_ctime, big, bi->ctime_sec, bi->ctime_nsec);
	put_be64(&d->di_size, bi->size);
	put_be64(&d->di_nblocks, bi->nblocks);
	put_be32(&d->di_extsize, bi->extsize);
	if (bi->flags2 & XFS_DIFLAG2_NREXT64)
		put_be64(&d->u24.di_big_nextents, bi->nextents);
	else
		put_be32(&d->u76.small.di_nextents, bi->nextents);
	d->di_aformat = bi->aformat;
	put_be16(&d->di_flags, bi->flags);
	put_be32(&d->di_next_unlinked, NULLAGINO);
	put_be64(&d->di_changecount, bi->changecount);
	put_be64(&d->di_flags2, bi->flags2);
	put_be32(&d->di_cowextsize, bi->cowextsize);
	put_time(&d->di_crtime, big, bi->crtime_sec, bi->crtime_nsec);
	put_be64(&d->di_ino, bi->ino);
	d->di_uuid = *uuid;
}

unsigned build_sf_dir_empty(void *fork, xfs_ino_t parent)
{
	uint8_t *h = fork;

	/* count, i8count, then the parent as 4 bytes (8 if it needs it) */
	h[0] = 0;
	if (parent > 0xffffffffull) {
		h[1] = 1;
		store_be64(h + 2, parent);
		return 10;
	}
	h[1] = 0;
	store_be32(h + 2, (uint32_t)parent);
	return 6;
}

static void inodes_write_prep(void *ctx, struct fs_buf *bp)
{
	struct fs *fs = ctx;
	uint32_t isize = fs->geo.inodesize;

	for (uint32_t off = 0; off + isize <= bp->len; off += isize)
		xfs_cksum_update(bp->data + off, isize, XFS_DINODE_CRC_OFF);
}

const struct buf_ops build_sb_ops = {
	.name = "sb", .crc_off = XFS_SB_CRC_OFF,
};
const struct buf_ops build_agf_ops = {
	.name = "agf", .crc_off = XFS_AGF_CRC_OFF,
};
const struct buf_ops build_agi_ops = {
	.name = "agi", .crc_off = XFS_AGI_CRC_OFF,
};
const struct buf_ops build_agfl_ops = {
	.name = "agfl", .crc_off = XFS_AGFL_CRC_OFF,
};
const struct buf_ops build_sblock_ops = {
	.name = "btree", .crc_off = XFS_BTREE_SBLOCK_CRC_OFF,
};
const struct buf_ops build_inodes_ops = {
	.name = "inodes", .write_prep = inodes_write_prep,
	.crc_off = BUF_NO_CRC,
};
