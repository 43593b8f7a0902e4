/*
 * dabtree node blocks on their own (dabtrees.asciidoc "Internal Nodes"):
 * decoding the v5 blkinfo and node header, and the checks one block can
 * answer without the rest of the tree.  Pure functions over a buffer, so
 * unit tests feed them synthetic blocks; the tree walk is in dabtree.c.
 */
#include "config.h"
#include "dabtree.h"
#include "format/crc32c.h"

const struct da_hdr_codes da_node_codes = {
	.crc = PR_DA_BAD_CRC,
	.blkno = PR_DA_BAD_BLKNO,
	.uuid = PR_DA_BAD_UUID,
	.owner = PR_DA_BAD_OWNER,
	.lsn = PR_DA_BAD_LSN,
};

void da3_blkinfo_decode(const void *buf, struct da_blkinfo *bi)
{
	const struct xfs_da3_blkinfo *d = buf;

	bi->forw = get_be32(d->forw);
	bi->back = get_be32(d->back);
	bi->magic = get_be16(d->magic);
	bi->crc = get_le32(d->crc);
	bi->blkno = get_be64(d->blkno);
	bi->owner = get_be64(d->owner);
	bi->lsn = (xfs_lsn_t)get_be64(d->lsn);
	bi->uuid = d->uuid;
}

void da3_node_hdr_decode(const void *buf, struct da_node_hdr *h)
{
	const struct xfs_da3_node_hdr *d = buf;

	da3_blkinfo_decode(buf, &h->info);
	h->count = get_be16(d->count);
	h->level = get_be16(d->level);
}

unsigned da3_blkinfo_check(const struct fs_geom *g, const void *buf,
			   uint32_t len, xfs_daddr_t daddr, xfs_ino_t owner,
			   const struct da_hdr_codes *codes,
			   const struct fs_objref *obj, struct fs_findings *fl)
{
	struct da_blkinfo bi;
	unsigned n = 0;

	if (len < sizeof(struct xfs_da3_blkinfo))
		return 0;
	da3_blkinfo_decode(buf, &bi);
	if (!xfs_cksum_verify(buf, len, XFS_DA3_BLKINFO_CRC_OFF)) {
		fs_report_val(fl, codes->crc, obj, "crc",
			      xfs_cksum_calc(buf, len, XFS_DA3_BLKINFO_CRC_OFF),
			      bi.crc);
		n++;
	}
	if (bi.blkno != daddr) {
		fs_report_val(fl, codes->blkno, obj, "blkno", daddr, bi.blkno);
		n++;
	}
	if (memcmp(&bi.uuid, &g->meta_uuid, sizeof(bi.uuid))) {
		fs_report(fl, codes->uuid, obj, "uuid");
		n++;
	}
	if (owner != NULLFSINO && bi.owner != owner) {
		fs_report_val(fl, codes->owner, obj, "owner", owner, bi.owner);
		n++;
	}
	if (!geom_lsn_plausible(g, bi.lsn))
		fs_report_found(fl, codes->lsn, obj, "lsn", (uint64_t)bi.lsn);
	return n;
}

unsigned da3_node_check(const struct fs_geom *g, const void *buf,
			uint32_t len, xfs_daddr_t daddr, xfs_ino_t owner,
			const struct fs_objref *obj, struct fs_findings *fl)
{
	const struct xfs_da_node_entry *ents = da3_node_ents(buf);
	struct da_node_hdr h;
	unsigned n, count, max;

	if (len < sizeof(struct xfs_da3_node_hdr)) {
		fs_report_found(fl, PR_DA_BAD_MAGIC, obj, "magic", 0);
		return 1;
	}
	da3_node_hdr_decode(buf, &h);
	if (h.info.magic != XFS_DA3_NODE_MAGIC) {
		fs_report_val(fl, PR_DA_BAD_MAGIC, obj, "magic",
			      XFS_DA3_NODE_MAGIC, h.info.magic);
		return 1;
	}
	n = da3_blkinfo_check(g, buf, len, daddr, owner, &da_node_codes, obj,
			      fl);
	max = da3_node_maxents(len);
	count = h.count;
	if (count == 0 || count > max) {
		fs_report_found(fl, PR_DA_BAD_COUNT, obj, "count", count);
		n++;
		if (count > max)
			count = max;
	}
	if (h.level == 0 || h.level >= XFS_DA_NODE_MAXDEPTH) {
		fs_report_found(fl, PR_DA_BAD_LEVEL, obj, "level", h.level);
		n++;
	}
	for (unsigned i = 1; i < count; i++) {
		if (get_be32(ents[i].hashval) < get_be32(ents[i - 1].hashval)) {
			struct fs_objref o = *obj;

			o.index = obj->index + sizeof(struct xfs_da3_node_hdr) +
				  i * sizeof(*ents);
			fs_report_val(fl, PR_DA_HASH_ORDER, &o, "btree.hashval",
				      get_be32(ents[i - 1].hashval),
				      get_be32(ents[i].hashval));
			n++;
		}
	}
	return n;
}

/* Context-free part, for buffers read by type (no owner to compare). */
static void da3_node_buf_verify(void *ctx, struct fs_buf *bp,
				struct fs_findings *fl)
{
	struct fs *fs = ctx;
	struct fs_objref o = OBJREF_INIT(OBJ_NONE);

	o.daddr = bp->daddr;
	da3_node_check(&fs->geo, bp->data, bp->len, bp->daddr, NULLFSINO, &o,
		       fl);
	if (bp->len >= sizeof(struct xfs_da3_node_hdr) &&
	    get_be16(((const struct xfs_da3_blkinfo *)bp->data)->magic) ==
	    XFS_DA3_NODE_MAGIC)
		fs_saw_lsn(fs, (xfs_lsn_t)get_be64(
			((const struct xfs_da3_blkinfo *)bp->data)->lsn));
}

const struct buf_ops da3_node_buf_ops = {
	.name = "da3_node",
	.verify = da3_node_buf_verify,
	.crc_off = XFS_DA3_BLKINFO_CRC_OFF,
};
