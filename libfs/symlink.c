/*
 * Symlink targets, local and remote.  A remote target of up to 1024 bytes
 * spans one or more fs blocks in the data fork, in order; each block's
 * header gives the byte offset and count it holds, the owner inode and
 * the block's own address, all of which must agree with where it is.
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
		uint32_t per = fs->geo.blocksize - sizeof(struct xfs_dsymlink_hdr);
		uint64_t done = 0;
		xfs_fileoff_t off = 0;

		while (done < len) {
			struct fs_buf *bp;
			const struct xfs_dsymlink_hdr *h;
			uint32_t bytes, boff;
			int err;

			err = fork_read(fs, el, off, 1, &symlink_buf_ops, fl, &bp);
			if (err) {
				if (err == -ENODATA)
					fs_report_found(fl, PR_BMAP_HOLE, &o,
							"u3.bmx", off);
				return err;
			}
			h = (const void *)bp->data;
			bytes = get_be32(h->sl_bytes);
			boff = get_be32(h->sl_offset);
			if (buf_corrupt(bp) || boff != done ||
			    get_be64(h->sl_owner) != ip->ino ||
			    bytes > per || bytes == 0 || bytes > len - done) {
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
			off++;
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
