/*
 * AG headers: decode, encode and verify the AGF, AGI and AGFL of one AG
 * (allocation_groups.asciidoc; inobtcount from the kernel's
 * xfs_format.h).  Each verifier stops after a bad magic number, since
 * the rest of a sector that is not the header means nothing; otherwise
 * it checks every field it can judge on its own and goes on.
 */
#include "config.h"
#include <errno.h>
#include <string.h>
#include "format/crc32c.h"
#include "ag.h"
#include "btree.h"

void agf_decode(const struct xfs_agf *d, struct fs_agf *a)
{
	a->magicnum = get_be32(d->agf_magicnum);
	a->versionnum = get_be32(d->agf_versionnum);
	a->seqno = get_be32(d->agf_seqno);
	a->length = get_be32(d->agf_length);
	for (int i = 0; i < XFS_AGF_NROOTS; i++) {
		a->roots[i] = get_be32(d->agf_roots[i]);
		a->levels[i] = get_be32(d->agf_levels[i]);
	}
	a->flfirst = get_be32(d->agf_flfirst);
	a->fllast = get_be32(d->agf_fllast);
	a->flcount = get_be32(d->agf_flcount);
	a->freeblks = get_be32(d->agf_freeblks);
	a->longest = get_be32(d->agf_longest);
	a->btreeblks = get_be32(d->agf_btreeblks);
	a->uuid = d->agf_uuid;
	a->rmap_blocks = get_be32(d->agf_rmap_blocks);
	a->refcount_blocks = get_be32(d->agf_refcount_blocks);
	a->refcount_root = get_be32(d->agf_refcount_root);
	a->refcount_level = get_be32(d->agf_refcount_level);
	a->lsn = (xfs_lsn_t)get_be64(d->agf_lsn);
	a->crc = get_le32(d->agf_crc);
}

void agf_encode(const struct fs_agf *a, struct xfs_agf *d)
{
	put_be32(&d->agf_magicnum, a->magicnum);
	put_be32(&d->agf_versionnum, a->versionnum);
	put_be32(&d->agf_seqno, a->seqno);
	put_be32(&d->agf_length, a->length);
	for (int i = 0; i < XFS_AGF_NROOTS; i++) {
		put_be32(&d->agf_roots[i], a->roots[i]);
		put_be32(&d->agf_levels[i], a->levels[i]);
	}
	put_be32(&d->agf_flfirst, a->flfirst);
	put_be32(&d->agf_fllast, a->fllast);
	put_be32(&d->agf_flcount, a->flcount);
	put_be32(&d->agf_freeblks, a->freeblks);
	put_be32(&d->agf_longest, a->longest);
	put_be32(&d->agf_btreeblks, a->btreeblks);
	d->agf_uuid = a->uuid;
	put_be32(&d->agf_rmap_blocks, a->rmap_blocks);
	put_be32(&d->agf_refcount_blocks, a->refcount_blocks);
	put_be32(&d->agf_refcount_root, a->refcount_root);
	put_be32(&d->agf_refcount_level, a->refcount_level);
	put_be64(&d->agf_lsn, (uint64_t)a->lsn);
	put_le32(&d->agf_crc, a->crc);
}

void agi_decode(const struct xfs_agi *d, struct fs_agi *a)
{
	a->magicnum = get_be32(d->agi_magicnum);
	a->versionnum = get_be32(d->agi_versionnum);
	a->seqno = get_be32(d->agi_seqno);
	a->length = get_be32(d->agi_length);
	a->count = get_be32(d->agi_count);
	a->root = get_be32(d->agi_root);
	a->level = get_be32(d->agi_level);
	a->freecount = get_be32(d->agi_freecount);
	a->newino = get_be32(d->agi_newino);
	a->dirino = get_be32(d->agi_dirino);
	for (int i = 0; i < XFS_AGI_UNLINKED_BUCKETS; i++)
		a->unlinked[i] = get_be32(d->agi_unlinked[i]);
	a->uuid = d->agi_uuid;
	a->crc = get_le32(d->agi_crc);
	a->lsn = (xfs_lsn_t)get_be64(d->agi_lsn);
	a->free_root = get_be32(d->agi_free_root);
	a->free_level = get_be32(d->agi_free_level);
	a->iblocks = get_be32(d->agi_iblocks);
	a->fblocks = get_be32(d->agi_fblocks);
}

void agi_encode(const struct fs_agi *a, struct xfs_agi *d)
{
	put_be32(&d->agi_magicnum, a->magicnum);
	put_be32(&d->agi_versionnum, a->versionnum);
	put_be32(&d->agi_seqno, a->seqno);
	put_be32(&d->agi_length, a->length);
	put_be32(&d->agi_count, a->count);
	put_be32(&d->agi_root, a->root);
	put_be32(&d->agi_level, a->level);
	put_be32(&d->agi_freecount, a->freecount);
	put_be32(&d->agi_newino, a->newino);
	put_be32(&d->agi_dirino, a->dirino);
	for (int i = 0; i < XFS_AGI_UNLINKED_BUCKETS; i++)
		put_be32(&d->agi_unlinked[i], a->unlinked[i]);
	d->agi_uuid = a->uuid;
	put_le32(&d->agi_crc, a->crc);
	put_be64(&d->agi_lsn, (uint64_t)a->lsn);
	put_be32(&d->agi_free_root, a->free_root);
	put_be32(&d->agi_free_level, a->free_level);
	put_be32(&d->agi_iblocks, a->iblocks);
	put_be32(&d->agi_fblocks, a->fblocks);
}

void agfl_decode(const struct xfs_agfl *d, struct fs_agfl *a)
{
	a->magicnum = get_be32(d->agfl_magicnum);
	a->seqno = get_be32(d->agfl_seqno);
	a->uuid = d->agfl_uuid;
	a->lsn = (xfs_lsn_t)get_be64(d->agfl_lsn);
	a->crc = get_le32(d->agfl_crc);
}

bool agf_freelist_ok(const struct fs_geom *g, const struct fs_agf *agf,
		     unsigned *active)
{
	unsigned size = agfl_size(g);

	*active = 0;
	if (agf->flfirst >= size || agf->fllast >= size || agf->flcount > size)
		return false;
	if (!agf->flcount)
		return true;
	if (agf->fllast >= agf->flfirst)
		*active = agf->fllast - agf->flfirst + 1;
	else
		*active = size - agf->flfirst + agf->fllast + 1;
	return *active == agf->flcount;
}

unsigned agfl_span(const struct fs_geom *g, const struct fs_agf *agf)
{
	unsigned size = agfl_size(g);

	if (!agf->flcount || agf->flfirst >= size || agf->fllast >= size)
		return 0;
	if (agf->fllast >= agf->flfirst)
		return agf->fllast - agf->flfirst + 1;
	return size - agf->flfirst + agf->fllast + 1;
}

int agfl_walk(const struct fs_geom *g, xfs_agnumber_t agno,
	      const struct fs_agf *agf, const void *agfl_sector,
	      agfl_fn fn, void *priv)
{
	const be32 *ent = agfl_entries(agfl_sector);
	unsigned size = agfl_size(g), span = agfl_span(g, agf);

	for (unsigned i = 0; i < span; i++) {
		unsigned idx = (agf->flfirst + i) % size;
		int r = fn(agno, idx, get_be32(ent[idx]), priv);

		if (r)
			return r;
	}
	return 0;
}

/* A root and height from a header: inside the AG, past the headers. */
static unsigned check_root(struct fs *fs, xfs_agnumber_t agno,
			   const struct fs_objref *o, struct fs_findings *fl,
			   enum fs_problem bad_root, enum fs_problem bad_level,
			   const struct btree_ops *ops, const char *rootname,
			   uint32_t root, const char *levelname, uint32_t level)
{
	const struct fs_geom *g = &fs->geo;
	unsigned maxl = btree_maxlevels(g, ops), errs = 0;

	if (!ag_extent_ok(g, agno, root, 1)) {
		fs_report_found(fl, bad_root, o, rootname, root);
		errs++;
	}
	if (level < 1 || level > maxl) {
		fs_report_val(fl, bad_level, o, levelname, maxl, level);
		errs++;
	}
	return errs;
}

unsigned agf_verify(struct fs *fs, xfs_agnumber_t agno, const void *raw,
		    size_t len, struct fs_findings *fl)
{
	const struct fs_geom *g = &fs->geo;
	struct fs_objref o = OBJREF_INIT(OBJ_AGF);
	struct fs_agf agf, *a = &agf;
	uint32_t size = geom_ag_blocks(g, agno);
	unsigned errs = 0, active;

#define BAD(code, field, exp, found) do { \
		fs_report_val(fl, PR_##code, &o, field, exp, found); \
		errs++; \
	} while (0)
#define BADF(code, field, found) do { \
		fs_report_found(fl, PR_##code, &o, field, found); \
		errs++; \
	} while (0)

	o.agno = agno;
	o.daddr = ag_sector_daddr(g, agno, XFS_AGF_SECTOR);
	if (len < sizeof(struct xfs_agf)) {
		BAD(DEV_SHORT_READ, NULL, sizeof(struct xfs_agf), len);
		return errs;
	}
	agf_decode(raw, a);
	if (a->magicnum != XFS_AGF_MAGIC) {
		BAD(AGF_BAD_MAGIC, "magicnum", XFS_AGF_MAGIC, a->magicnum);
		return errs;
	}
	if (!xfs_cksum_verify(raw, len, XFS_AGF_CRC_OFF))
		BAD(AGF_BAD_CRC, "crc", xfs_cksum_calc(raw, len, XFS_AGF_CRC_OFF),
		    a->crc);
	if (a->versionnum != XFS_AGF_VERSION)
		BAD(AGF_BAD_VERSION, "versionnum", XFS_AGF_VERSION,
		    a->versionnum);
	if (a->seqno != agno)
		BAD(AGF_BAD_SEQNO, "seqno", agno, a->seqno);
	if (a->length != size)
		BAD(AGF_BAD_LENGTH, "length", size, a->length);
	if (!fs_uuid_ok(fs, &a->uuid)) {
		fs_report(fl, PR_AGF_BAD_UUID, &o, "uuid");
		errs++;
	}
	fs_saw_lsn(fs, a->lsn);
	if (!fs_lsn_plausible(fs, a->lsn))	/* a warning: not counted */
		fs_report_found(fl, PR_AGF_BAD_LSN, &o, "lsn",
				(uint64_t)a->lsn);

	errs += check_root(fs, agno, &o, fl, PR_AGF_BAD_ROOT, PR_AGF_BAD_LEVEL,
			   &bnobt_ops, "bnoroot", a->roots[XFS_AGF_BNO],
			   "bnolevel", a->levels[XFS_AGF_BNO]);
	errs += check_root(fs, agno, &o, fl, PR_AGF_BAD_ROOT, PR_AGF_BAD_LEVEL,
			   &cntbt_ops, "cntroot", a->roots[XFS_AGF_CNT],
			   "cntlevel", a->levels[XFS_AGF_CNT]);
	if (g->has_rmapbt) {
		errs += check_root(fs, agno, &o, fl, PR_AGF_BAD_ROOT,
				   PR_AGF_BAD_LEVEL, &rmapbt_ops, "rmaproot",
				   a->roots[XFS_AGF_RMAP], "rmaplevel",
				   a->levels[XFS_AGF_RMAP]);
		/* the count includes the root */
		if (a->rmap_blocks < 1 || a->rmap_blocks > size)
			BADF(AGF_BAD_COUNTERS, "rmapblocks", a->rmap_blocks);
	}
	if (g->has_reflink) {
		errs += check_root(fs, agno, &o, fl, PR_AGF_BAD_ROOT,
				   PR_AGF_BAD_LEVEL, &refcountbt_ops,
				   "refcntroot", a->refcount_root,
				   "refcntlevel", a->refcount_level);
		if (a->refcount_blocks < 1 || a->refcount_blocks > size)
			BADF(AGF_BAD_COUNTERS, "refcntblocks",
			     a->refcount_blocks);
	}

	if (!agf_freelist_ok(g, a, &active)) {
		unsigned n = agfl_size(g);

		if (a->flfirst >= n)
			BAD(AGF_BAD_FREELIST, "flfirst", n - 1, a->flfirst);
		else if (a->fllast >= n)
			BAD(AGF_BAD_FREELIST, "fllast", n - 1, a->fllast);
		else	/* the list is flfirst..fllast, whatever the count */
			BAD(AGF_BAD_FREELIST, "flcount", agfl_span(g, a),
			    a->flcount);
	}
	if (a->freeblks > size)
		BAD(AGF_BAD_FREEBLKS, "freeblks", size, a->freeblks);
	if (a->longest > a->freeblks || (a->freeblks && !a->longest))
		BAD(AGF_BAD_LONGEST, "longest", a->freeblks, a->longest);
	if (a->btreeblks > size)
		BADF(AGF_BAD_COUNTERS, "btreeblks", a->btreeblks);
#undef BAD
#undef BADF
	return errs;
}

unsigned agi_verify(struct fs *fs, xfs_agnumber_t agno, const void *raw,
		    size_t len, struct fs_findings *fl)
{
	const struct fs_geom *g = &fs->geo;
	struct fs_objref o = OBJREF_INIT(OBJ_AGI);
	struct fs_agi agi, *a = &agi;
	uint32_t size = geom_ag_blocks(g, agno);
	uint64_t maxinodes = (uint64_t)size << g->inopblog;
	unsigned errs = 0;

#define BAD(code, field, exp, found) do { \
		fs_report_val(fl, PR_##code, &o, field, exp, found); \
		errs++; \
	} while (0)
#define BADF(code, field, found) do { \
		fs_report_found(fl, PR_##code, &o, field, found); \
		errs++; \
	} while (0)

	o.agno = agno;
	o.daddr = ag_sector_daddr(g, agno, XFS_AGI_SECTOR);
	if (len < sizeof(struct xfs_agi)) {
		BAD(DEV_SHORT_READ, NULL, sizeof(struct xfs_agi), len);
		return errs;
	}
	agi_decode(raw, a);
	if (a->magicnum != XFS_AGI_MAGIC) {
		BAD(AGI_BAD_MAGIC, "magicnum", XFS_AGI_MAGIC, a->magicnum);
		return errs;
	}
	if (!xfs_cksum_verify(raw, len, XFS_AGI_CRC_OFF))
		BAD(AGI_BAD_CRC, "crc", xfs_cksum_calc(raw, len, XFS_AGI_CRC_OFF),
		    a->crc);
	if (a->versionnum != XFS_AGI_VERSION)
		BAD(AGI_BAD_VERSION, "versionnum", XFS_AGI_VERSION,
		    a->versionnum);
	if (a->seqno != agno)
		BAD(AGI_BAD_SEQNO, "seqno", agno, a->seqno);
	if (a->length != size)
		BAD(AGI_BAD_LENGTH, "length", size, a->length);
	if (!fs_uuid_ok(fs, &a->uuid)) {
		fs_report(fl, PR_AGI_BAD_UUID, &o, "uuid");
		errs++;
	}
	fs_saw_lsn(fs, a->lsn);
	if (!fs_lsn_plausible(fs, a->lsn))	/* a warning: not counted */
		fs_report_found(fl, PR_AGI_BAD_LSN, &o, "lsn",
				(uint64_t)a->lsn);

	errs += check_root(fs, agno, &o, fl, PR_AGI_BAD_ROOT, PR_AGI_BAD_LEVEL,
			   &inobt_ops, "root", a->root, "level", a->level);
	if (g->has_finobt)
		errs += check_root(fs, agno, &o, fl, PR_AGI_BAD_ROOT,
				   PR_AGI_BAD_LEVEL, &finobt_ops, "free_root",
				   a->free_root, "free_level", a->free_level);
	if (a->count > maxinodes)
		BAD(AGI_BAD_COUNT, "count", maxinodes, a->count);
	if (a->freecount > a->count)
		BAD(AGI_BAD_COUNT, "freecount", a->count, a->freecount);
	if (a->newino != NULLAGINO && !agino_valid(g, agno, a->newino))
		BADF(AGI_BAD_NEWINO, "newino", a->newino);
	if (a->dirino != NULLAGINO)
		fs_report_val(fl, PR_AGI_BAD_DIRINO, &o, "dirino", NULLAGINO,
			      a->dirino);
	/* an unlinked inode hangs off the bucket of its number mod 64 */
	for (unsigned i = 0; i < XFS_AGI_UNLINKED_BUCKETS; i++) {
		xfs_agino_t ino = a->unlinked[i];

		if (ino == NULLAGINO)
			continue;
		if (!agino_valid(g, agno, ino) ||
		    ino % XFS_AGI_UNLINKED_BUCKETS != i) {
			struct fs_objref oi = o;

			oi.index = i;
			fs_report_found(fl, PR_AGI_BAD_UNLINKED, &oi,
					"unlinked", ino);
			errs++;
		}
	}
	if (g->has_inobtcount) {
		if (a->iblocks < 1 || a->iblocks > size)
			BADF(AGI_BAD_BTREE_BLOCKS, "ino_blocks", a->iblocks);
		if (g->has_finobt && (a->fblocks < 1 || a->fblocks > size))
			BADF(AGI_BAD_BTREE_BLOCKS, "fino_blocks", a->fblocks);
	}
#undef BAD
#undef BADF
	return errs;
}

unsigned agfl_verify(struct fs *fs, xfs_agnumber_t agno, const void *raw,
		     size_t len, struct fs_findings *fl)
{
	const struct fs_geom *g = &fs->geo;
	struct fs_objref o = OBJREF_INIT(OBJ_AGFL);
	struct fs_agfl agfl;
	uint32_t size = geom_ag_blocks(g, agno);
	const be32 *ent = agfl_entries(raw);
	unsigned errs = 0, n = agfl_size(g);

	o.agno = agno;
	o.daddr = ag_sector_daddr(g, agno, XFS_AGFL_SECTOR);
	if (len < XFS_AGFL_HDR_SIZE + (size_t)n * sizeof(be32)) {
		fs_report_val(fl, PR_DEV_SHORT_READ, &o, NULL,
			      XFS_AGFL_HDR_SIZE + (size_t)n * sizeof(be32), len);
		return 1;
	}
	agfl_decode(raw, &agfl);
	/*
	 * The checksum first, as the kernel's verifier and xfs_repair check
	 * it: a sector of zeroes is a bad checksum as well as a bad magic.
	 */
	if (!xfs_cksum_verify(raw, len, XFS_AGFL_CRC_OFF)) {
		fs_report_val(fl, PR_AGFL_BAD_CRC, &o, "crc",
			      xfs_cksum_calc(raw, len, XFS_AGFL_CRC_OFF),
			      agfl.crc);
		errs++;
	}
	if (agfl.magicnum != XFS_AGFL_MAGIC) {
		fs_report_val(fl, PR_AGFL_BAD_MAGIC, &o, "magicnum",
			      XFS_AGFL_MAGIC, agfl.magicnum);
		return errs + 1;
	}
	if (agfl.seqno != agno) {
		fs_report_val(fl, PR_AGFL_BAD_SEQNO, &o, "seqno", agno,
			      agfl.seqno);
		errs++;
	}
	if (!fs_uuid_ok(fs, &agfl.uuid)) {
		fs_report(fl, PR_AGFL_BAD_UUID, &o, "uuid");
		errs++;
	}
	fs_saw_lsn(fs, agfl.lsn);
	if (!fs_lsn_plausible(fs, agfl.lsn))	/* a warning: not counted */
		fs_report_found(fl, PR_AGFL_BAD_LSN, &o, "lsn",
				(uint64_t)agfl.lsn);
	/* unused slots keep old block numbers or NULLAGBLOCK */
	for (unsigned i = 0; i < n; i++) {
		uint32_t bno = get_be32(ent[i]);

		if (bno != NULLAGBLOCK && bno >= size) {
			struct fs_objref oi = o;

			oi.index = i;
			fs_report_found(fl, PR_AGFL_BAD_ENTRY, &oi, "bno", bno);
			errs++;
		}
	}
	return errs;
}

static xfs_agnumber_t buf_agno(struct fs *fs, const struct fs_buf *bp)
{
	return (xfs_agnumber_t)daddr_to_agno(&fs->geo, bp->daddr);
}

static void agf_buf_verify(void *ctx, struct fs_buf *bp, struct fs_findings *fl)
{
	struct fs *fs = ctx;

	agf_verify(fs, buf_agno(fs, bp), bp->data, bp->len, fl);
}

static void agi_buf_verify(void *ctx, struct fs_buf *bp, struct fs_findings *fl)
{
	struct fs *fs = ctx;

	agi_verify(fs, buf_agno(fs, bp), bp->data, bp->len, fl);
}

static void agfl_buf_verify(void *ctx, struct fs_buf *bp,
			    struct fs_findings *fl)
{
	struct fs *fs = ctx;

	agfl_verify(fs, buf_agno(fs, bp), bp->data, bp->len, fl);
}

const struct buf_ops agf_buf_ops = {
	.name = "agf",
	.verify = agf_buf_verify,
	.crc_off = XFS_AGF_CRC_OFF,
};

const struct buf_ops agi_buf_ops = {
	.name = "agi",
	.verify = agi_buf_verify,
	.crc_off = XFS_AGI_CRC_OFF,
};

const struct buf_ops agfl_buf_ops = {
	.name = "agfl",
	.verify = agfl_buf_verify,
	.crc_off = XFS_AGFL_CRC_OFF,
};

static int read_header(struct fs *fs, xfs_agnumber_t agno, unsigned sector,
		       const struct buf_ops *ops, struct fs_findings *fl,
		       struct fs_buf **bpp)
{
	*bpp = NULL;
	if (agno >= fs->geo.agcount)
		return -ERANGE;
	return bcache_read(fs->bc, ag_sector_daddr(&fs->geo, agno, sector),
			   fs->geo.sectsize, ops, fl, bpp);
}

int ag_read_agf(struct fs *fs, xfs_agnumber_t agno, struct fs_findings *fl,
		struct fs_buf **bpp, struct fs_agf *agf)
{
	int err = read_header(fs, agno, XFS_AGF_SECTOR, &agf_buf_ops, fl, bpp);

	if (!err && agf)
		agf_decode((const void *)(*bpp)->data, agf);
	return err;
}

int ag_read_agi(struct fs *fs, xfs_agnumber_t agno, struct fs_findings *fl,
		struct fs_buf **bpp, struct fs_agi *agi)
{
	int err = read_header(fs, agno, XFS_AGI_SECTOR, &agi_buf_ops, fl, bpp);

	if (!err && agi)
		agi_decode((const void *)(*bpp)->data, agi);
	return err;
}

int ag_read_agfl(struct fs *fs, xfs_agnumber_t agno, struct fs_findings *fl,
		 struct fs_buf **bpp)
{
	return read_header(fs, agno, XFS_AGFL_SECTOR, &agfl_buf_ops, fl, bpp);
}
