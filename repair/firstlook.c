/*
 * Phase 3: the reference's first look at a chunk's inodes, and the
 * inodes the inobt calls free (part of phase 3, see phase3.c).
 *
 * A free inode is read all the same: its identity, then the kernel's
 * verifier ("free inode N contains errors") (check_free_inode).  On a
 * filesystem with sparse inode chunks, a cluster none of whose inodes
 * passes the first look is taken for a sparse hole (punched_clusters),
 * and what that look finds is said (say_first_look).
 *
 * What goes in: the chunk's raw inodes.  What comes out: findings only.
 * What stays true: nothing is written.
 */
#include "config.h"
#include "format/crc32c.h"
#include "inomap.h"
#include "phase3int.h"
#include "repair.h"

/* A finding about the inode being checked, its words chosen by field. */
static void say_ino_field(struct p3ag *c, enum fs_problem code,
			  const char *field, uint64_t found)
{
	say_ino_as(c, code, field, found, 0);
}

/*
 * Would the kernel's inode verifier, which the reference runs on a free
 * inode, refuse this one?  Of an inode with no mode only what is not
 * tied to a file type counts: identity, size, the fork offset and the
 * attribute fork's format, the hints and flags2.
 */
bool free_inode_refused(const struct fs *fs, xfs_ino_t ino,
			const struct xfs_dinode *d, bool crc_bad)
{
	const struct fs_geom *g = &fs->geo;
	uint32_t lit = g->inodesize - XFS_DINODE_CORE_SIZE;
	uint16_t flags = get_be16(d->di_flags);
	uint64_t flags2, naext;
	uint32_t extsize = get_be32(d->di_extsize);
	bool nrext64;

	if (get_be16(d->di_magic) != XFS_DINODE_MAGIC)
		return true;
	if (d->di_version >= 3 &&
	    (crc_bad || get_be64(d->di_ino) != ino ||
	     !fs_uuid_ok(fs, &d->di_uuid)))
		return true;
	if (get_be64(d->di_size) >> 63)
		return true;
	nrext64 = d->di_version >= 3 &&
		  (get_be64(d->di_flags2) & XFS_DIFLAG2_NREXT64);
	naext = nrext64 ? get_be32(d->u76.big.di_big_anextents) :
			  get_be16(d->u76.small.di_anextents);
	if (d->di_forkoff) {
		uint32_t asize;

		switch (d->di_format) {
		case XFS_DINODE_FMT_DEV:
			if (d->di_forkoff != 1)
				return true;
			break;
		case XFS_DINODE_FMT_LOCAL:
		case XFS_DINODE_FMT_EXTENTS:
		case XFS_DINODE_FMT_BTREE:
			if (d->di_forkoff >= lit >> 3)
				return true;
			break;
		default:
			return true;
		}
		asize = lit - ((uint32_t)d->di_forkoff << 3);
		switch (d->di_aformat) {
		case XFS_DINODE_FMT_LOCAL:
			if (naext)
				return true;
			break;
		case XFS_DINODE_FMT_EXTENTS:
			if (naext > asize / sizeof(struct xfs_bmbt_rec))
				return true;
			break;
		case XFS_DINODE_FMT_BTREE:
			if (naext > (nrext64 ? XFS_MAX_EXTCNT_ATTR_FORK_LARGE :
					       XFS_MAX_EXTCNT_ATTR_FORK_SMALL))
				return true;
			break;
		default:
			return true;
		}
	} else if ((d->di_aformat != 0 &&
		    d->di_aformat != XFS_DINODE_FMT_EXTENTS) || naext) {
		return true;
	}
	/* the extent size hint: no flag fits an inode of no type */
	if (flags & (XFS_DIFLAG_EXTSIZE | XFS_DIFLAG_EXTSZINHERIT))
		return true;
	if (extsize > XFS_MAX_BMBT_EXTLEN ||
	    (!(flags & XFS_DIFLAG_REALTIME) && extsize > fs->sb.agblocks / 2))
		return true;
	if (d->di_version < 3)
		return false;
	flags2 = get_be64(d->di_flags2);
	/* a reflink or CoW hint flag fits no inode without a type */
	if (flags2 & (XFS_DIFLAG2_REFLINK | XFS_DIFLAG2_COWEXTSIZE))
		return true;
	if (get_be32(d->di_cowextsize) > XFS_MAX_BMBT_EXTLEN ||
	    get_be32(d->di_cowextsize) > fs->sb.agblocks / 2)
		return true;
	if ((flags2 & XFS_DIFLAG2_BIGTIME) && !g->has_bigtime)
		return true;
	return nrext64 && !g->has_nrext64;
}

/*
 * An inode the inobt calls free, with no mode or not an inode at all.
 * The reference reads it all the same: a first look at every inode of
 * the chunk (its core's identity, then the flags, said and let be),
 * then its check of the inode, which clears one that is not this
 * filesystem's inode N and else runs the kernel's verifier on it ("free
 * inode N contains errors").  Of one with a mode but no magic number
 * (no inode) only the identity is said here.
 */
void check_free_inode(struct p3ag *c, const uint8_t *raw)
{
	struct fs *fs = c->r->fs;
	const struct fs_geom *g = &fs->geo;
	const struct xfs_dinode *d = (const void *)raw;
	bool crc_bad = !xfs_cksum_verify(raw, g->inodesize, XFS_DINODE_CRC_OFF);
	uint32_t next = get_be32(d->di_next_unlinked);
	uint16_t flags = get_be16(d->di_flags);
	uint64_t flags2 = get_be64(d->di_flags2);

	if (crc_bad)
		say_ino(c, PR_INODE_BAD_CRC, 0, 0);
	if (get_be16(d->di_magic) != XFS_DINODE_MAGIC)
		say_ino(c, PR_INODE_BAD_MAGIC, get_be16(d->di_magic), 0);
	if (d->di_version != 3)
		say_ino(c, PR_INODE_BAD_VERSION, d->di_version, 0);
	if (next != NULLAGINO && !agino_valid(g, c->agno, next))
		say_ino_field(c, PR_INODE_BAD_UNLINKED, "free next_unlinked",
			      next);
	if (d->di_version >= 3 && get_be64(d->di_ino) != c->ino) {
		say_ino(c, PR_INODE_BAD_INO, get_be64(d->di_ino), 0);
		say_ino(c, PR_RP_INODE_CLEARED, 0, 0);
		return;
	}
	if (d->di_version >= 3 && !fs_uuid_ok(fs, &d->di_uuid)) {
		say_ino(c, PR_INODE_BAD_UUID, 0, 0);
		say_ino(c, PR_RP_INODE_CLEARED, 0, 0);
		return;
	}
	if ((int64_t)get_be64(d->di_size) < 0) {
		say_ino_field(c, PR_INODE_BAD_SIZE, "negative size",
			      get_be64(d->di_size));
		say_ino(c, PR_RP_INODE_CLEARED, 0, 0);
		return;
	}
	if (get_be16(d->di_mode))
		return;
	/* the first look's flag lines, said and let be */
	if (flags & ~XFS_DIFLAG_ANY)
		say_ino(c, PR_INODE_BAD_FLAGS, 0, 0);
	if ((flags & XFS_DIFLAG_REALTIME) && !fs->sb.rextents)
		say_ino_field(c, PR_INODE_FLAG_NO_FEATURE, "core.realtime", 0);
	if ((flags & XFS_DIFLAG_NEWRTBM) && c->ino != fs->sb.rbmino)
		say_ino(c, PR_INODE_NOT_RTBITMAP, 0, 0);
	if (d->di_version >= 3) {
		if (flags2 & ~XFS_DIFLAG2_ANY)
			say_ino(c, PR_INODE_BAD_FLAGS2, 0, 0);
		if ((flags2 & XFS_DIFLAG2_REFLINK) && !g->has_reflink) {
			say_ino_field(c, PR_INODE_FLAG_NO_FEATURE,
				      "v3.reflink", 0);
			goto verdict;	/* its first look ends there */
		}
		if ((flags2 & XFS_DIFLAG2_REFLINK) &&
		    (flags & XFS_DIFLAG_REALTIME)) {
			say_ino_field(c, PR_INODE_FLAG_ON_REALTIME,
				      "v3.reflink", 0);
			goto verdict;
		}
		if ((flags2 & XFS_DIFLAG2_COWEXTSIZE) && !g->has_reflink)
			say_ino_field(c, PR_INODE_FLAG_NO_FEATURE,
				      "v3.cowextsz", 0);
		if ((flags2 & XFS_DIFLAG2_COWEXTSIZE) &&
		    (flags & XFS_DIFLAG_REALTIME))
			say_ino_field(c, PR_INODE_FLAG_ON_REALTIME,
				      "v3.cowextsz", 0);
		if ((flags2 & XFS_DIFLAG2_BIGTIME) && !g->has_bigtime)
			say_ino_field(c, PR_INODE_FLAG_NO_FEATURE,
				      "v3.bigtime", 0);
		if ((flags2 & XFS_DIFLAG2_NREXT64) && !g->has_nrext64)
			say_ino_field(c, PR_INODE_FLAG_NO_FEATURE,
				      "v3.nrext64", 0);
		if ((flags2 & XFS_DIFLAG2_NREXT64) ?
		    get_be16(d->u76.big.di_nrext64_pad) != 0 :
		    get_be64(d->u24.di_v3_pad) != 0)
			say_ino_field(c, PR_INODE_BAD_PAD,
				      (flags2 & XFS_DIFLAG2_NREXT64) ?
				      "core.nrext64_pad" : "v3.pad", 0);
	}
verdict:
	if (free_inode_refused(fs, c->ino, d, crc_bad))
		say_ino(c, PR_RP_FREE_INODE_ERRORS, 0, 0);
}

/*
 * Does an inode pass the reference's first look at its chunk (its
 * verify_dinode: the core's checksum and identity, its next_unlinked and
 * size)?  The root, realtime bitmap and summary inodes always do.
 */
static bool first_look_ok(struct p3ag *c, xfs_ino_t ino, const uint8_t *raw)
{
	const struct fs *fs = c->r->fs;
	const struct fs_geom *g = &fs->geo;
	const struct xfs_dinode *d = (const void *)raw;
	uint32_t next = get_be32(d->di_next_unlinked);

	if (ino == fs->sb.rootino || ino == fs->sb.rbmino ||
	    ino == fs->sb.rsumino)
		return true;
	return xfs_cksum_verify(raw, g->inodesize, XFS_DINODE_CRC_OFF) &&
	       get_be16(d->di_magic) == XFS_DINODE_MAGIC &&
	       d->di_version == 3 &&
	       (next == NULLAGINO || agino_valid(g, c->agno, next)) &&
	       get_be64(d->di_ino) == ino && fs_uuid_ok(fs, &d->di_uuid) &&
	       (int64_t)get_be64(d->di_size) >= 0;
}

/*
 * What the reference's first look says of an inode it then leaves
 * unread (its cluster taken for a sparse hole): the core's checksum,
 * magic number, version, next_unlinked, then its identity or size.
 */
static void say_first_look(struct p3ag *c, const uint8_t *raw)
{
	const struct fs *fs = c->r->fs;
	const struct fs_geom *g = &fs->geo;
	const struct xfs_dinode *d = (const void *)raw;
	uint32_t next = get_be32(d->di_next_unlinked);

	if (!xfs_cksum_verify(raw, g->inodesize, XFS_DINODE_CRC_OFF))
		say_ino_field(c, PR_INODE_BAD_CRC, "first look", 0);
	if (get_be16(d->di_magic) != XFS_DINODE_MAGIC)
		say_ino_field(c, PR_INODE_BAD_MAGIC, "first look",
			      get_be16(d->di_magic));
	if (d->di_version != 3)
		say_ino_field(c, PR_INODE_BAD_VERSION, "first look",
			      d->di_version);
	if (next != NULLAGINO && !agino_valid(g, c->agno, next))
		say_ino_field(c, PR_INODE_BAD_UNLINKED, "first look", next);
	if (d->di_version < 3)
		;
	else if (get_be64(d->di_ino) != c->ino)
		say_ino(c, PR_INODE_BAD_INO, get_be64(d->di_ino), 0);
	else if (!fs_uuid_ok(fs, &d->di_uuid))
		say_ino(c, PR_INODE_BAD_UUID, 0, 0);
	else if ((int64_t)get_be64(d->di_size) < 0)
		say_ino_field(c, PR_INODE_BAD_SIZE, "negative size",
			      get_be64(d->di_size));
}

/*
 * On a filesystem with sparse inode chunks, a cluster of which no inode
 * passes the first look, in a chunk where some other cluster's do, the
 * reference takes for a sparse hole: each of its inodes the inobt has is
 * "present, but inode cluster is sparse", and free, unread.  (A chunk
 * with no such inode at all it drops; that is not followed here.)
 * Returns the chunk's bits of such clusters.
 */
uint64_t punched_clusters(struct p3ag *c, struct im_chunk *ch,
				 uint64_t holes)
{
	const struct fs_geom *g = &c->r->fs->geo;
	unsigned per = g->inodes_per_cluster;
	uint64_t good = 0, seen = 0;

	if (!g->has_sparse || per < 4 || per >= XFS_INODES_PER_CHUNK)
		return 0;
	for (unsigned i = 0; i < XFS_INODES_PER_CHUNK; i += per) {
		uint64_t mask = (per == 64 ? ~0ull : (1ull << per) - 1) << i;
		xfs_ino_t ino = agino_to_ino(g, c->agno, ch->startino + i);
		struct fs_buf *bp;
		uint32_t off;

		if ((holes & mask) == mask)
			continue;
		if (inode_read_cluster(c->r->fs, ino, NULL, &bp, &off))
			return 0;
		seen |= mask;
		for (unsigned k = 0; k < per; k++)
			if (!(holes & (1ull << (i + k))) &&
			    first_look_ok(c, ino + k, bp->data + off +
					  ((size_t)k << g->inodelog))) {
				good |= mask;
				break;
			}
		buf_release(bp);
	}
	if (!good)
		return 0;
	seen &= ~good & ~holes;
	/* what the first look said of the inodes left unread */
	for (unsigned i = 0; i < XFS_INODES_PER_CHUNK; i += per) {
		xfs_ino_t ino = agino_to_ino(g, c->agno, ch->startino + i);
		struct fs_buf *bp;
		uint32_t off;

		if (!(seen & (1ull << i)) ||
		    inode_read_cluster(c->r->fs, ino, NULL, &bp, &off))
			continue;
		for (unsigned k = 0; k < per; k++) {
			c->ino = ino + k;
			say_first_look(c, bp->data + off +
				       ((size_t)k << g->inodelog));
		}
		buf_release(bp);
	}
	return seen;
}
