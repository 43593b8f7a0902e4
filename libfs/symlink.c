/*
 * Symlink targets, local and remote.  A remote target of up to 1024 bytes
 * spans one or more fs blocks in the data fork, in order, in at most
 * XFS_SYMLINK_MAPS extents; each extent starts with a header giving the
 * byte offset and count it holds, the owner inode and its own address,
 * all of which must agree with where it is, and one CRC covers the whole
 * extent.
 */
#include "config.h"
#include <errno.h>
#include <string.h>
#include "format/crc32c.h"
#include "symlink.h"

static void symlink_verify(void *ctx, struct fs_buf *bp, struct fs_findings *fl)
{
	struct fs *fs = ctx;
	const struct xfs_dsymlink_hdr *h = (const void *)bp->data;
	struct fs_objref o = OBJREF_INIT(OBJ_SYMLINK);

	o.daddr = bp->daddr;
	o.ino = get_be64(h->sl_owner);
	if (bp->len < sizeof(*h)) {
		fs_report_found(fl, PR_SYMLINK_BAD_HEADER, &o, NULL, bp->len);
		return;
	}
	if (get_be32(h->sl_magic) != XFS_SYMLINK_MAGIC) {
		fs_report_val(fl, PR_SYMLINK_BAD_MAGIC, &o, "magic",
			      XFS_SYMLINK_MAGIC, get_be32(h->sl_magic));
		return;
	}
	if (!xfs_cksum_verify(bp->data, bp->len, XFS_SYMLINK_CRC_OFF))
		fs_report_val(fl, PR_SYMLINK_BAD_CRC, &o, "crc",
			      xfs_cksum_calc(bp->data, bp->len,
					     XFS_SYMLINK_CRC_OFF),
			      get_le32(h->sl_crc));
	if (!fs_uuid_ok(fs, &h->sl_uuid))
		fs_report(fl, PR_SYMLINK_BAD_UUID, &o, "uuid");
	if (get_be64(h->sl_blkno) != bp->daddr)
		fs_report_val(fl, PR_SYMLINK_BAD_BLKNO, &o, "bno", bp->daddr,
			      get_be64(h->sl_blkno));
	fs_saw_lsn(fs, (xfs_lsn_t)get_be64(h->sl_lsn));
	if (!fs_lsn_plausible(fs, (xfs_lsn_t)get_be64(h->sl_lsn)))
		fs_report_found(fl, PR_SYMLINK_BAD_LSN, &o, "lsn",
				get_be64(h->sl_lsn));
	if (get_be32(h->sl_bytes) > bp->len - sizeof(*h) ||
	    get_be32(h->sl_offset) >= XFS_SYMLINK_MAXLEN ||
	    get_be32(h->sl_offset) + (uint64_t)get_be32(h->sl_bytes) >
		    XFS_SYMLINK_MAXLEN)
		fs_report_found(fl, PR_SYMLINK_BAD_HEADER, &o, "bytes",
				get_be32(h->sl_bytes));
}

const struct buf_ops symlink_buf_ops = {
	.name = "symlink",
	.verify = symlink_verify,
	.crc_off = XFS_SYMLINK_CRC_OFF,
};

int symlink_read(struct fs *fs, const struct fs_inode *ip,
		 const struct fs_extents *el, char *buf, struct fs_findings *fl)
{
	struct fs_objref o = OBJREF_INIT(OBJ_SYMLINK);
	uint64_t len = ip->size;

	o.ino = ip->ino;
	o.agno = ino_to_agno(&fs->geo, ip->ino);
	if (len == 0 || len > XFS_SYMLINK_MAXLEN) {
		fs_report_found(fl, PR_SYMLINK_BAD_LENGTH, &o, "core.size", len);
		return -EFBIG;
	}
	if (ip->format == XFS_DINODE_FMT_LOCAL) {
		if (len > ip->dfork_size) {
			fs_report_val(fl, PR_SYMLINK_BAD_LENGTH, &o, "core.size",
				      ip->dfork_size, len);
			return -EFBIG;
		}
		memcpy(buf, ip->dfork, len);
	} else {
		/*
		 * One header per extent, not per block: the kernel writes a
		 * remote target as one buffer for each mapping it allocated.
		 */
		uint64_t done = 0;
		xfs_fileoff_t off = 0;

		for (size_t i = 0; done < len; i++) {
			const struct xfs_dsymlink_hdr *h;
			struct fs_buf *bp;
			uint64_t cap;
			uint32_t bytes, boff, n;
			int err;

			if (i >= el->n || el->v[i].br_startoff != off ||
			    el->v[i].br_blockcount > XFS_SYMLINK_MAPS * 64) {
				fs_report_found(fl, PR_BMAP_HOLE, &o, "u3.bmx", off);
				return -ENODATA;
			}
			n = (uint32_t)el->v[i].br_blockcount;
			err = fork_read(fs, el, off, n, &symlink_buf_ops, fl, &bp);
			if (err)
				return err;
			h = (const void *)bp->data;
			cap = bp->len - sizeof(*h);
			bytes = get_be32(h->sl_bytes);
			boff = get_be32(h->sl_offset);
			if (buf_corrupt(bp) || boff != done ||
			    get_be64(h->sl_owner) != ip->ino ||
			    bytes > cap || bytes == 0 || bytes > len - done) {
				if (!buf_corrupt(bp)) {
					o.daddr = bp->daddr;
					if (get_be64(h->sl_owner) != ip->ino)
						fs_report_val(fl, PR_SYMLINK_BAD_OWNER,
							      &o, "owner", ip->ino,
							      get_be64(h->sl_owner));
					else
						fs_report_val(fl, PR_SYMLINK_BAD_HEADER,
							      &o, "offset", done,
							      boff);
				}
				buf_release(bp);
				return -EUCLEAN;
			}
			memcpy(buf + done, bp->data + sizeof(*h), bytes);
			done += bytes;
			off += n;
			buf_release(bp);
		}
	}
	buf[len] = 0;
	if (memchr(buf, 0, len)) {
		fs_report(fl, PR_SYMLINK_BAD_TARGET, &o, NULL);
		return -EUCLEAN;
	}
	return (int)len;
}
