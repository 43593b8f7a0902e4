/*
 * Phase 3: every inode the inode btrees know, then the inodes found
 * outside them.
 *
 * What it checks, for each AG in parallel, chunk by chunk from the inobt:
 *   - a free inode (by the inobt) is free on disk, an in-use one is not;
 *   - the inode core (libfs inode_verify: magic, version, CRC, inode
 *     number, UUID, mode, fork formats and offsets, extent counters,
 *     flags and flags2, timestamps, next_unlinked);
 *   - both forks' extent maps and bmap btrees (libfs fork_extents), and
 *     each bmbt block and extent, in the reference's order, against the
 *     block states phase 2 left and the claims of the inodes read
 *     before (walk_claims: free, metadata or another inode's block);
 *   - symlink targets, attribute forks and directories (libfs
 *     symlink_read, attr_iterate, dir_check);
 *   - the block and extent counters against what the forks hold.
 * What the reference gives up on, so do we, and in the same measure: a
 * damaged core, data fork or symlink means the inode "would have been
 * cleared" -- it is reported and left out of the later phases, as if
 * free; a damaged attribute fork is only the attribute fork ("would clear
 * attr fork"), and the inode stays; a wrong counter is a counter.  Under
 * -n the reference keeps some inodes it says it would clear: one with a
 * bad magic number or an attribute map it cannot use stays in use for
 * phases 6 and 7, unreadable there (keep_cleared()), one whose version
 * byte is not 3 (its forks read where a v1/v2 core ends, 100 bytes in)
 * stays in use too if nothing else is wrong with it, and one whose
 * next_unlinked names no inode is only said to be cleared.  A short-form
 * directory is read by the reference's own walk (sfdir.c), which keeps
 * it whatever it finds; the inode stays unreadable in phases 6 and 7
 * when the kernel's verifiers refuse its fork, its size or its extent
 * count (local_fork()), as for a realtime file whose extents are not on
 * the realtime device.
 *
 * Chunks no inobt record lists are read in their place among the inobt's,
 * as the reference reads them: a record only the finobt has, as the
 * finobt has it; and in AG 0, when no record holds the root inode, its
 * chunk with the root, realtime bitmap and summary inodes used and the
 * rest free (so each other inode in use is "imap claims in-use inode N is
 * free").  An AG whose headers would be reset is skipped: its inobt is
 * not read.
 *
 * Then (discover.c) the chunks that directory entries and the unlinked
 * lists point into but no tree lists are looked for on disk, and their
 * inodes processed the same way.
 *
 * This file holds the driver and the walk of one inode; the rest is in
 * claims.c (the blocks a fork claims, held to the block states),
 * firstlook.c (free inodes, the first look at a chunk), dircheck.c (a
 * directory's content) and dirtree.c (a leaf or node directory's leaf
 * and free space), sharing what they need through phase3int.h.
 *
 * What it builds for later phases: r->imap (every inode's state, link
 * count and type, and whether the kernel's inode verifier would refuse
 * an inode kept all the same; every directory entry and ".."; what the
 * reference's second look at a directory finds: the data blocks it reads
 * again, how its leaf matches its data, a directory it keeps after
 * all), and in
 * r->smap every block each kept inode claims -- data and attr extents,
 * bmbt blocks -- as reverse mappings (owner = inode, offset and fork
 * flags); realtime extents go to r->rtmap.
 *
 * What stays true: nothing is written; an inode is read once, from its
 * cluster buffer.
 */
#include "config.h"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "attr.h"
#include "format/crc32c.h"
#include "dir.h"
#include "inomap.h"
#include "phase3int.h"
#include "progress.h"
#include "repair.h"
#include "symlink.h"
#include "workers.h"

static const char *dev_type_name(uint16_t mode)
{
	switch (mode & XFS_S_IFMT) {
	case XFS_S_IFCHR:	return "character device";
	case XFS_S_IFBLK:	return "block device";
	case XFS_S_IFSOCK:	return "socket";
	default:		return "fifo";
	}
}

/* A finding about the inode being checked (field: which words, or NULL). */
void say_ino_as(struct p3ag *c, enum fs_problem code,
		       const char *field, uint64_t found, uint64_t expected)
{
	struct rp_args a = RP_ARGS_INIT(OBJ_INODE);

	a.obj.ino = c->ino;
	a.obj.agno = c->agno;
	a.field = field;
	a.found = found;
	a.expected = expected;
	rp_say(c->out, code, &a);
}

void say_ino(struct p3ag *c, enum fs_problem code, uint64_t found,
		    uint64_t expected)
{
	say_ino_as(c, code, NULL, found, expected);
}

static bool field_is(const struct fs_finding *f, const char *prefix)
{
	return f->field && !strncmp(f->field, prefix, strlen(prefix));
}

/* A finding of inode_verify (the core and the fork roots). */
static enum verdict core_verdict(const struct fs_finding *f)
{
	switch (f->code) {
	case PR_INODE_BAD_AFORMAT:
		return V_ATTR;
	case PR_INODE_BAD_NEXTENTS:
		/*
		 * A btree fork with fewer extents than the inode could hold
		 * is a wrong counter (the tree says how many); a count the
		 * fork cannot hold makes the map unreadable.
		 */
		if (f->found < f->expected)
			return V_NOTE;
		return field_is(f, "core.naextents") ? V_ATTR : V_INODE;
	case PR_BMAP_BAD_ROOT:
		return field_is(f, "a.") ? V_ATTR : V_INODE;
	case PR_INODE_BAD_SIZE:
		/* a short-form attribute fork larger than the fork */
		return field_is(f, "a.") ? V_ATTR : V_INODE;
	case PR_INODE_FLAG_NO_FEATURE:
	case PR_INODE_FLAG_WRONG_TYPE:
	case PR_INODE_FLAG_ON_REALTIME:
		/*
		 * A flag the reference drops, but for a reflink flag that
		 * cannot be: the kernel refuses the inode, and the reference
		 * clears it.
		 */
		return field_is(f, "v3.reflink") ? V_INODE : V_NOTE;
	case PR_RP_LOCAL_TOO_LARGE:
	case PR_RP_SYMLINK_ZERO_SIZE:
	case PR_INODE_BAD_DEV_FORKOFF:
	case PR_INODE_BAD_MAGIC:
	case PR_INODE_BAD_INO:
	case PR_INODE_BAD_UUID:
	case PR_INODE_BAD_MODE:
	case PR_INODE_BAD_FORMAT:
	case PR_INODE_BAD_FORKOFF:
	case PR_INODE_BAD_RDEV:
		return V_INODE;
	default:
		return V_NOTE;
	}
}

/*
 * Does a finding of inode_verify that the inode survives make the
 * kernel's inode verifier (xfs_dinode_verify, which libxfs runs too)
 * refuse the inode?  Then the reference, which reads directories and
 * link counts through libxfs in its phases 6 and 7, "couldn't map" it
 * there.  The flags of a feature the filesystem lacks, and the hint
 * flags of the wrong file type, are refused through the hint rules.
 * (The realtime flag is not: libxfs always has a realtime device.)
 */
static bool kernel_refuses(const struct fs_finding *f)
{
	switch (f->code) {
	case PR_INODE_BAD_EXTSIZE:
		/* one the verifier takes says the multiple it should be */
		return !(f->flags & FND_EXPECTED);
	case PR_INODE_BAD_COWEXTSIZE:
	case PR_INODE_BAD_NBLOCKS:
		return true;
	case PR_RP_AFORMAT_NO_FORK:	/* only 0 or extents without a fork */
		return f->found != 0;
	case PR_INODE_FLAG_NO_FEATURE:
		return field_is(f, "v3.bigtime") || field_is(f, "v3.nrext64");
	default:
		return false;
	}
}

/*
 * The keys of a bmap btree root in the inode out of order: the reference
 * holds them only to their children's first keys ("bad key in bmbt root
 * ... would reset"), never to each other.
 */
static bool bmbt_root_key_order(const struct fs_finding *f)
{
	return f->code == PR_BTREE_KEYS_OUT_OF_ORDER &&
	       f->obj.type == OBJ_BMBT && f->obj.daddr == (xfs_daddr_t)-1;
}

/* A finding of fork_extents: the map or its bmap btree. */
enum verdict fork_verdict(const struct fs_finding *f, bool attr)
{
	enum verdict bad = attr ? V_ATTR : V_INODE;

	switch (f->code) {
	case PR_BMAP_COUNT_MISMATCH:
	case PR_BTREE_BAD_KEY:
		return V_NOTE;		/* a counter, a key: the map is whole */
	case PR_BTREE_KEYS_OUT_OF_ORDER:
		return bmbt_root_key_order(f) ? V_NOTE : bad;
	case PR_BTREE_BAD_NUMRECS:
		/* fewer records than a block should hold are still records */
		return f->found <= f->expected ? V_NOTE : bad;
	case PR_BTREE_BAD_CRC:
		/* a bmbt block whose checksum alone is wrong is read all
		   the same, "suspect" (say_finding) */
		return f->obj.type == OBJ_BMBT ? V_NOTE : bad;
	case PR_RP_BMBT_BAD_NUMRECS:
	case PR_RP_FORK_CLAIMS_METADATA:
	case PR_RP_FORK_CLAIMS_USED:
	case PR_BMAP_BAD_STARTBLOCK:
	case PR_BMAP_BAD_LENGTH:
	case PR_BMAP_BAD_STARTOFF:
	case PR_BMAP_OUT_OF_ORDER:
	case PR_BMAP_LEAF_OUT_OF_ORDER:
	case PR_BMAP_KEY_OUT_OF_ORDER:
	case PR_BMAP_UNWRITTEN_ATTR:
	case PR_BMAP_UNWRITTEN_NONREG:
	case PR_BMAP_BAD_ROOT:
	case PR_BMAP_BAD_OWNER:
	case PR_BMAP_HOLE:
	case PR_BTREE_BAD_MAGIC:
	case PR_BTREE_BAD_UUID:
	case PR_BTREE_BAD_BLKNO:
	case PR_BTREE_BAD_OWNER:
	case PR_BTREE_BAD_LEVEL:
	case PR_BTREE_BAD_SIBLING:
	case PR_BTREE_BAD_ROOT:
	case PR_BTREE_TOO_DEEP:
	case PR_BTREE_BAD_PTR:
	case PR_BTREE_BLOCK_REVISITED:
	case PR_BTREE_RECS_OUT_OF_ORDER:
	case PR_BTREE_UNREADABLE:
	case PR_DEV_SHORT_READ:
	case PR_DEV_IO_ERROR:
		return bad;
	default:
		return V_NOTE;
	}
}

/*
 * Does a finding of fork_extents end the reference's walk of a list of
 * extent records (the inode's, or a bmbt leaf's)?  It stops at the first
 * record it cannot take and says it would cut the list there ("correcting
 * nextents") -- but a realtime file's bad start block ends its walk
 * without a word.
 */
static bool map_cut(const struct p3ag *c, const struct fs_inode *ip,
		    int whichfork)
{
	bool rt = whichfork == XFS_DATA_FORK &&
		  (ip->flags & XFS_DIFLAG_REALTIME) && inode_is_reg(ip);

	for (size_t i = 0; i < c->fl.n; i++) {
		switch (c->fl.v[i].code) {
		case PR_BMAP_BAD_STARTBLOCK:
			if (rt)
				break;
			return true;
		case PR_BMAP_BAD_LENGTH:
		case PR_BMAP_BAD_STARTOFF:
		case PR_RP_FORK_CLAIMS_METADATA:
		case PR_RP_FORK_CLAIMS_USED:
		case PR_BMAP_OUT_OF_ORDER:
		case PR_BMAP_LEAF_OUT_OF_ORDER:
		case PR_BMAP_UNWRITTEN_ATTR:
		case PR_BMAP_UNWRITTEN_NONREG:
			return true;
		default:
			break;
		}
	}
	return false;
}

/* Attribute content the reference throws away with the whole fork. */
static bool attr_content_fatal(enum fs_problem code)
{
	switch (code) {
	case PR_ATTR_INCOMPLETE:
	case PR_ATTR_LEAF_BAD_MAGIC:
	case PR_ATTR_LEAF_BAD_HASH:
	case PR_ATTR_LEAF_BAD_NAMEIDX:
	case PR_ATTR_LEAF_BAD_COUNT:
	case PR_ATTR_LEAF_BAD_OWNER:
	case PR_ATTR_LEAF_BAD_BLKNO:
	case PR_ATTR_LEAF_BAD_UUID:
	case PR_ATTR_LEAF_PAST_END:
	case PR_ATTR_LEAF_OVERLAP:
	case PR_ATTR_LEAF_HASH_ORDER:
	case PR_ATTR_LEAF_BAD_FREEMAP:	/* the verifier's; not an overlap */
	case PR_ATTR_LEAF_BAD_FIRSTUSED: /* the verifier's; not one too low */
	case PR_ATTR_RMT_BAD_MAGIC:
	case PR_ATTR_RMT_BAD_OWNER:
	case PR_ATTR_RMT_BAD_BLKNO:
	case PR_ATTR_RMT_BAD_UUID:
	case PR_ATTR_RMT_BAD_VALUEBLK:
	case PR_DA_BAD_MAGIC:
	case PR_DA_BAD_OWNER:
	case PR_DA_BAD_BLKNO:
	case PR_DA_BAD_UUID:
	case PR_DA_BAD_LEVEL:
	case PR_DA_BAD_COUNT:
	case PR_DA_HOLE:
	case PR_DA_LOOP:
	case PR_DA_TOO_DEEP:
	case PR_DA_BAD_PTR:
		return true;
	default:
		return false;
	}
}

/* The attribute fork block at daddr (0 if the fork does not map it). */
static uint64_t attr_dablk(const struct p3ag *c, xfs_daddr_t daddr)
{
	const struct fs_geom *g = &c->r->fs->geo;

	for (size_t i = 0; c->ael && i < c->ael->n; i++) {
		const struct xfs_bmbt_irec *e = &c->ael->v[i];
		xfs_daddr_t start = fsb_to_daddr(g, e->br_startblock);
		uint64_t bb = (uint64_t)e->br_blockcount << (g->blocklog - 9);

		if (daddr >= start && (uint64_t)(daddr - start) < bb)
			return e->br_startoff +
			       ((uint64_t)(daddr - start) >> (g->blocklog - 9));
	}
	return 0;
}

/* Is daddr the attribute fork's first block (the one the reference reads
   first, with the verifier of a node or a leaf)? */
static bool attr_block0(const struct p3ag *c, xfs_daddr_t daddr)
{
	const struct fs_geom *g = &c->r->fs->geo;

	for (size_t i = 0; c->ael && i < c->ael->n; i++)
		if (c->ael->v[i].br_startoff == 0)
			return fsb_to_daddr(g, c->ael->v[i].br_startblock) ==
			       daddr;
	return false;
}

/* Would the kernel's attribute leaf verifier refuse the block for it? */
static bool attr_leaf_verifier_code(const struct fs_finding *f)
{
	switch (f->code) {
	case PR_ATTR_BAD_NAMELEN:	/* a leaf entry's name of length 0 */
		return field_is(f, "nvlist.namelen");
	case PR_ATTR_RMT_BAD_VALUEBLK:	/* a remote entry's first block 0 */
		return field_is(f, "nvlist.valueblk") && f->found == 0;
	case PR_DA_BAD_MAGIC:		/* neither a leaf nor a node */
	case PR_ATTR_LEAF_BAD_MAGIC:
	case PR_ATTR_LEAF_BAD_BLKNO:
	case PR_ATTR_LEAF_BAD_UUID:
	case PR_ATTR_LEAF_BAD_COUNT:
	case PR_ATTR_LEAF_BAD_FIRSTUSED:
	case PR_ATTR_LEAF_BAD_FREEMAP:
	case PR_ATTR_LEAF_BAD_PAD:
	case PR_ATTR_LEAF_HASH_ORDER:
	case PR_ATTR_LEAF_BAD_NAMEIDX:
	case PR_ATTR_LEAF_PAST_END:
		return true;
	default:
		return false;
	}
}

/*
 * Record idx of a list of extent records: the inode's (daddr -1) or the
 * bmbt leaf at daddr.  An order finding names only where the record is;
 * the reference's words quote it and the record before it.
 */
static bool bmap_rec_at(struct p3ag *c, xfs_daddr_t daddr, uint64_t idx,
			struct xfs_bmbt_irec *out)
{
	struct fs *fs = c->r->fs;
	const uint8_t *p;
	struct fs_buf *bp;
	uint32_t size;
	size_t off;

	if (daddr == (xfs_daddr_t)-1) {
		if (!c->ip)
			return false;
		p = inode_fork_ptr(c->ip, c->attr ? XFS_ATTR_FORK :
				   XFS_DATA_FORK, &size);
		off = idx * sizeof(struct xfs_bmbt_rec);
		if (!p || off + sizeof(struct xfs_bmbt_rec) > size)
			return false;
		bmbt_rec_decode((const struct xfs_bmbt_rec *)(p + off), out);
		return true;
	}
	if (bcache_read(fs->bc, daddr, fs->geo.blocksize, NULL, NULL, &bp))
		return false;
	off = btree_hdr_len(&bmbt_ops) + idx * sizeof(struct xfs_bmbt_rec);
	if (off + sizeof(struct xfs_bmbt_rec) > bp->len) {
		buf_release(bp);
		return false;
	}
	bmbt_rec_decode((const struct xfs_bmbt_rec *)(bp->data + off), out);
	buf_release(bp);
	return true;
}

/* "[o s c] [1 1577 1], 1 [2 1575 1]": record idx and the one before. */
static const char *say_recs(struct p3ag *c, const struct fs_finding *f)
{
	struct xfs_bmbt_irec r, p;

	if (f->obj.index == 0 || f->obj.index == (uint64_t)-1 ||
	    !bmap_rec_at(c, f->obj.daddr, f->obj.index, &r) ||
	    !bmap_rec_at(c, f->obj.daddr, f->obj.index - 1, &p))
		return "";
	snprintf(c->recs_said, sizeof(c->recs_said),
		 "[%" PRIu64 " %" PRIu64 " %" PRIu64 "], %" PRIu64
		 " [%" PRIu64 " %" PRIu64 " %" PRIu64 "]",
		 (uint64_t)r.br_startoff, (uint64_t)r.br_startblock,
		 (uint64_t)r.br_blockcount, f->obj.index - 1,
		 (uint64_t)p.br_startoff, (uint64_t)p.br_startblock,
		 (uint64_t)p.br_blockcount);
	return c->recs_said;
}

/*
 * The field key of the reference's words for a bmbt block header it
 * refuses (it names the block and stops), or NULL.
 */
static const char *bmbt_header_key(enum fs_problem code)
{
	switch (code) {
	case PR_BTREE_BAD_MAGIC:	return "bmbt magic";
	case PR_BTREE_BAD_LEVEL:	return "bmbt level";
	case PR_BTREE_BAD_OWNER:	return "bmbt owner";
	case PR_BTREE_BAD_BLKNO:	return "bmbt blkno";
	case PR_BTREE_BAD_UUID:		return "bmbt uuid";
	default:			return NULL;
	}
}

static int iroot_child(const struct fs_geom *g, const struct fs_inode *ip,
		       int whichfork, xfs_daddr_t daddr, unsigned *level);

/*
 * The reference's word for a bmbt block its read verifier refuses for
 * the checksum (EFSBADCRC): it reads the block all the same.
 */
static void say_bmbt_suspect(struct p3ag *c, xfs_daddr_t daddr)
{
	const struct fs_geom *g = &c->r->fs->geo;
	xfs_fsblock_t fsb = daddr_to_fsb(g, daddr);
	struct rp_args a = RP_ARGS_INIT(OBJ_BMBT);

	a.obj.ino = c->ino;
	a.obj.agno = fsb_to_agno(g, fsb);
	a.agbno = fsb_to_agbno(g, fsb);
	a.field = "suspect";
	a.found = (uint64_t)(int64_t)-EBADMSG;	/* EFSBADCRC */
	a.flags = FND_FOUND;
	rp_say(c->out, PR_RP_BT_SUSPECT, &a);
}

/* Print one finding of this inode, in the reference's terms. */
static void say_finding(struct p3ag *c, const struct fs_finding *f,
			uint16_t mode, bool attr)
{
	struct rp_args a = RP_ARGS_INIT(OBJ_NONE);

	a.obj = f->obj;
	if (a.obj.ino == NULLFSINO)
		a.obj.ino = c->ino;
	a.found = f->found;
	a.expected = f->expected;
	a.v2 = f->extra;
	a.field = f->field;
	/*
	 * A root's record count: none at all, or more than the fork holds,
	 * which the reference says as the bytes the root would need
	 * (xfs_bmdr_block: a 4-byte header, then a key and a pointer per
	 * record).
	 */
	if (f->code == PR_BMAP_BAD_ROOT && f->field &&
	    (!strcmp(f->field, "u3.bmbt.numrecs") ||
	     !strcmp(f->field, "a.bmbt.numrecs"))) {
		a.s1 = f->field[0] == 'a' ? "attr" : "data";
		a.field = f->found ? "bmbt root size" : "bmbt root numrecs 0";
		a.found = 4 + 16 * f->found;
	}
	/*
	 * The first block of the attribute fork, refused by the verifier
	 * the reference reads it with: it says "corrupt block 0" once and
	 * reads no further (the finding is kept as a note).
	 */
	if (attr && f->obj.type == OBJ_ATTR &&
	    attr_leaf_verifier_code(f) &&
	    attr_block0(c, f->obj.daddr)) {
		if (!c->attr0_said) {
			struct rp_args b = RP_ARGS_INIT(OBJ_ATTR);

			b.obj.ino = a.obj.ino;
			b.obj.agno = c->agno;
			rp_say(c->out, PR_RP_ATTR_BLOCK0_CORRUPT, &b);
			c->attr0_said = true;
		}
		a.flags = f->flags;
		rp_note(f->code, &a);
		return;
	}
	/*
	 * An extent whose first block is good and whose last block's number
	 * names another AG (or none): the reference says it "overflows".
	 */
	if (f->code == PR_BMAP_BAD_STARTBLOCK && (f->flags & FND_EXTRA) &&
	    f->extra) {
		const struct fs_geom *g = &c->r->fs->geo;
		xfs_fsblock_t s = f->found, e = f->found + f->extra - 1;

		if (e > s && fsb_extent_valid(g, s, 1) &&
		    fsb_to_agbno(g, s) >= ag_first_block(g) &&
		    fsb_to_agno(g, s) != fsb_to_agno(g, e)) {
			a.v2 = e;
			rp_say(c->out, PR_RP_BMAP_OVERFLOWS, &a);
			return;
		}
		a.v2 = 0;
	}
	if (f->code == PR_BTREE_BAD_CRC && f->obj.type == OBJ_BMBT &&
	    f->obj.daddr != (xfs_daddr_t)-1) {
		say_bmbt_suspect(c, f->obj.daddr);
		return;
	}
	/* a block of another kind: its checksum fails the verifier first */
	if (f->code == PR_BTREE_BAD_MAGIC && f->obj.type == OBJ_BMBT &&
	    rp_block_crc_bad(c->r->fs, f->obj.daddr, XFS_BTREE_LBLOCK_CRC_OFF))
		say_bmbt_suspect(c, f->obj.daddr);
	switch (f->code) {
	case PR_INODE_BAD_FORKOFF:
		/* the reference gives the first offset that is too big */
		a.expected++;
		break;
	case PR_INODE_BAD_RDEV:
		a.s1 = dev_type_name(mode);
		break;
	case PR_DIR_BAD_MAGIC:
		/*
		 * A data or block-form block: the reference names it by its
		 * file block (the finding's field says which header).
		 */
		if (f->field && !strcmp(f->field, "magic") &&
		    f->obj.index < XFS_DIR2_LEAF_OFFSET) {
			a.field = f->expected == XFS_DIR3_BLOCK_MAGIC ?
				  "bhdr.hdr.magic" : "dhdr.hdr.magic";
			a.v2 = f->obj.index >> c->r->fs->geo.blocklog;
		}
		break;
	case PR_RP_BMBT_BAD_NUMRECS:
		a.v2 = btree_maxrecs(&c->r->fs->geo, &bmbt_ops, true);
		break;
	case PR_RP_FORK_CLAIMS_USED:
		/* the reference's word for every file but a realtime one
		   (whose claims rt.c holds), directories too */
		a.s1 = "regular";
		break;
	case PR_BMAP_OUT_OF_ORDER:
	case PR_BMAP_LEAF_OUT_OF_ORDER:
		a.s1 = say_recs(c, f);
		break;
	case PR_BMAP_KEY_OUT_OF_ORDER:
		a.field = attr ? "attr" : "data";
		a.found = daddr_to_fsb(&c->r->fs->geo, f->obj.daddr);
		break;
	case PR_BTREE_BAD_PTR:
		if (f->obj.type == OBJ_BMBT)
			a.field = "bmbt ptr";
		break;
	case PR_BTREE_BAD_KEY:
		/* in the inode's root (no block): the reference's words */
		if (f->obj.type == OBJ_BMBT &&
		    f->obj.daddr == (xfs_daddr_t)-1) {
			a.field = "bmbt root";
			a.s1 = attr ? "attr" : "data";
		}
		break;
	case PR_BTREE_BAD_MAGIC:
	case PR_BTREE_BAD_LEVEL:
	case PR_BTREE_BAD_OWNER:
	case PR_BTREE_BAD_BLKNO:
	case PR_BTREE_BAD_UUID:
		if (f->obj.type != OBJ_BMBT)
			break;
		a.field = bmbt_header_key(f->code);
		a.s1 = attr ? "attr" : "data";
		a.v2 = daddr_to_fsb(&c->r->fs->geo, f->obj.daddr);
		/*
		 * A level no bmbt has, which the verifier holds against the
		 * tallest tree: the reference expects the level below the
		 * root's, for a child of the root in the inode.
		 */
		if (f->code == PR_BTREE_BAD_LEVEL && c->ip &&
		    f->found >= XFS_BMBT_MAXLEVELS) {
			unsigned lvl;

			if (iroot_child(&c->r->fs->geo, c->ip,
					attr ? XFS_ATTR_FORK : XFS_DATA_FORK,
					f->obj.daddr, &lvl) >= 0)
				a.expected = lvl - 1;
		}
		break;
	case PR_INODE_BAD_SIZE:
		/* the reference's own line for a size below zero */
		if (field_is(f, "core.size") && (int64_t)f->found < 0)
			a.field = "negative size";
		if (field_is(f, "a.sfattr.hdr.totsize"))
			a.field = f->found > f->expected ?
				  "attr fork too large" : "attr too small";
		break;
	case PR_DA_HOLE:
		/* the attribute fork's root: the reference's words */
		if (attr && f->obj.type == OBJ_ATTR && f->found == 0)
			a.field = "attr block 0 missing";
		break;
	case PR_INODE_BAD_UNLINKED:
		/* no inode at all: the reference would clear the inode */
		a.field = "bad next_unlinked";
		c->unlinked_bad = true;
		break;
	case PR_BTREE_BAD_SIBLING:
		if (f->obj.type != OBJ_BMBT || !f->field)
			break;
		/*
		 * The walk's finding (against the blocks beside it) is the
		 * reference's; the verifier's, of a pointer bad in itself,
		 * says the same block again.
		 */
		if (!(f->flags & FND_EXPECTED))
			return;
		a.s1 = attr ? "attr" : "data";
		a.v2 = daddr_to_fsb(&c->r->fs->geo, f->obj.daddr);
		if (!strcmp(f->field, "leftsib"))
			a.field = f->expected == NULLFSBLOCK ?
				  "bmbt leftsib null" : "bmbt leftsib";
		else
			a.field = f->expected == NULLFSBLOCK ?
				  "bmbt rightsib null" : "bmbt rightsib";
		break;
	case PR_ATTR_LEAF_BAD_USEDBYTES:
	case PR_ATTR_LEAF_FIRSTUSED_LOW:
		/* the reference names the leaf by its attribute fork block */
		a.obj.index = attr_dablk(c, f->obj.daddr);
		break;
	default:
		break;
	}
	rp_say(c->out, f->code, &a);
}

/*
 * Which of the inode's flag words a finding is about: 1 di_flags, 2
 * di_flags2, 0 neither.  The reference says what is wrong with a word,
 * rule by rule, and then once that it would fix the word.
 */
static int flags_word(const struct fs_finding *f)
{
	switch (f->code) {
	case PR_INODE_BAD_FLAGS:
	case PR_INODE_NOT_RTBITMAP:
		return 1;
	case PR_INODE_BAD_FLAGS2:
		return 2;
	case PR_INODE_FLAG_NO_FEATURE:
	case PR_INODE_FLAG_WRONG_TYPE:
	case PR_INODE_FLAG_ON_REALTIME:
		return field_is(f, "core.") ? 1 : 2;
	default:
		return 0;
	}
}

/*
 * Print and drop the findings gathered so far, judging each with judge
 * (NULL: all are notes).  Returns the worst verdict.  Counter findings
 * that phase 3 reports itself, in the reference's words, are dropped.
 */
enum verdict p3_flush(struct p3ag *c, uint16_t mode,
			  enum verdict (*judge)(const struct fs_finding *,
						bool),
			  bool attr)
{
	enum verdict worst = V_NOTE;
	bool word_fatal = false;

	if (!c->fl.n)
		return V_NOTE;
	for (size_t i = 0; i < c->fl.n; i++) {
		const struct fs_finding *f = &c->fl.v[i];
		enum verdict v = judge ? judge(f, attr) : V_NOTE;
		int word = flags_word(f);

		if (v > worst)
			worst = v;
		if (f->code == PR_BMAP_COUNT_MISMATCH) {
			/* said as RP_NEXTENTS, counted */
			c->count_bad[attr] = true;
			c->count_found[attr] = f->found;
			rp_note_finding(f);
			continue;
		}
		if (f->code == PR_INODE_BAD_NBLOCKS)
			continue;	/* said as RP_NBLOCKS, counted */
		if (f->code == PR_INODE_BAD_NEXTENTS && v == V_NOTE)
			continue;	/* said as RP_NEXTENTS, counted */
		/*
		 * The large extent counts flag on a filesystem without them
		 * the reference says twice in its phase 3 (once more than
		 * when it looks at the inode again in phase 4).
		 */
		if (f->code == PR_INODE_FLAG_NO_FEATURE &&
		    field_is(f, "v3.nrext64"))
			say_finding(c, f, mode, attr);
		say_finding(c, f, mode, attr);
		if (!word)
			continue;
		/*
		 * inode_verify reports a word's rules together: after the
		 * last, the word would be fixed -- unless the inode would
		 * be cleared for it.
		 */
		word_fatal |= v == V_INODE;
		if (i + 1 == c->fl.n || flags_word(&c->fl.v[i + 1]) != word) {
			if (!word_fatal)
				say_ino(c, word == 1 ? PR_RP_FLAGS_FIX :
					PR_RP_FLAGS2_FIX, 0, 0);
			word_fatal = false;
		}
	}
	findings_clear(&c->fl);
	return worst;
}

static enum verdict judge_core(const struct fs_finding *f, bool attr)
{
	(void)attr;
	return core_verdict(f);
}

static enum verdict judge_content(const struct fs_finding *f, bool attr)
{
	if (f->obj.type == OBJ_ATTR || attr)
		return attr_content_fatal(f->code) ? V_ATTR : V_NOTE;
	return V_NOTE;
}

/* A remote value block libfs found damaged (not its leaf's entry). */
static bool rmt_block_code(enum fs_problem code)
{
	switch (code) {
	case PR_ATTR_RMT_BAD_MAGIC:
	case PR_ATTR_RMT_BAD_CRC:
	case PR_ATTR_RMT_BAD_UUID:
	case PR_ATTR_RMT_BAD_OWNER:
	case PR_ATTR_RMT_BAD_BLKNO:
	case PR_ATTR_RMT_BAD_OFFSET:
	case PR_ATTR_RMT_BAD_BYTES:
	case PR_ATTR_RMT_BAD_VALUEBLK:
	case PR_ATTR_BLOCK_SHARED:
		return true;
	default:
		return false;
	}
}

/* Keep finding i as a note only, and drop it from the list. */
static void note_drop(struct p3ag *c, size_t i)
{
	rp_note_finding(&c->fl.v[i]);
	c->fl.v[i].code = PR_NONE;
}

static void drop_noted(struct p3ag *c)
{
	size_t j = 0;

	for (size_t i = 0; i < c->fl.n; i++)
		if (c->fl.v[i].code != PR_NONE)
			c->fl.v[j++] = c->fl.v[i];
	findings_truncate(&c->fl, j);
}

/*
 * The highest hash of the leaf before the one at daddr (its back
 * pointer), which the reference holds the next leaf's first hash to; 0
 * for none or an unreadable one.
 */
static xfs_dahash_t prev_leaf_hash(struct p3ag *c, const uint8_t *blk)
{
	const struct xfs_attr3_leaf_hdr *h = (const void *)blk;
	const struct fs_geom *g = &c->r->fs->geo;
	uint32_t back = get_be32(h->info.back);
	struct xfs_bmbt_irec r;
	xfs_dahash_t hash = 0;
	struct fs_buf *bp;
	unsigned count;

	if (!back || !extents_lookup(c->ael, back, &r))
		return 0;
	if (bcache_read(c->r->fs->bc, fsb_to_daddr(g, r.br_startblock +
						   (back - r.br_startoff)),
			g->blocksize, NULL, NULL, &bp))
		return 0;
	h = (const void *)bp->data;
	count = get_be16(h->count);
	if (get_be16(h->info.magic) == XFS_ATTR3_LEAF_MAGIC && count &&
	    sizeof(*h) + count * sizeof(struct xfs_attr_leaf_entry) <=
	    g->blocksize)
		hash = get_be32(((const struct xfs_attr_leaf_entry *)
				 (bp->data + sizeof(*h)))[count - 1].hashval);
	buf_release(bp);
	return hash;
}

/*
 * The reference's words on what libfs found in an attribute fork's
 * content (attrwords.c), before the findings are said: the root's
 * sibling pointers, then the first leaf block the reference would stop
 * at, or a short-form fork.  What it says replaces libfs's findings on
 * what it read; returns true if it would clear the fork.
 */
static bool attr_words(struct p3ag *c, const struct fs_inode *ip)
{
	struct fs *fs = c->r->fs;
	bool rmt_bad = false, root_said = false, block0_bad = false;
	xfs_daddr_t seen[8];
	size_t nseen = 0;

	if (!c->fl.n)
		return false;
	if (ip->aformat == XFS_DINODE_FMT_LOCAL) {
		if (!ip->afork || aw_sf(NULL, c->ino, c->agno, ip->afork,
					ip->afork_size) == AW_UNSURE)
			return false;
		/* the flaws its reading covers, said its way */
		for (size_t i = 0; i < c->fl.n; i++) {
			switch (c->fl.v[i].code) {
			case PR_ATTR_BAD_NAME:
			case PR_ATTR_BAD_NAMELEN:
			case PR_ATTR_INCOMPLETE:
			case PR_ATTR_SF_BAD_TOTSIZE:
			case PR_ATTR_SF_PAST_FORK:
				note_drop(c, i);
				break;
			default:
				break;
			}
		}
		drop_noted(c);
		return aw_sf(c->out, c->ino, c->agno, ip->afork,
			     ip->afork_size) == AW_CLEAR;
	}
	for (size_t i = 0; i < c->fl.n; i++) {
		const struct fs_finding *f = &c->fl.v[i];

		if (f->obj.type != OBJ_ATTR)
			continue;
		rmt_bad |= rmt_block_code(f->code);
		if (attr_leaf_verifier_code(f) &&
		    attr_block0(c, f->obj.daddr))
			block0_bad = true;
	}
	if (block0_bad) {
		/*
		 * Refused by the verifier it is read with: "corrupt block 0"
		 * (say_finding), and the reference reads no further.
		 */
		for (size_t i = 0; i < c->fl.n; i++) {
			const struct fs_finding *f = &c->fl.v[i];

			if (f->obj.type == OBJ_ATTR &&
			    !(attr_leaf_verifier_code(f) &&
			      attr_block0(c, f->obj.daddr)))
				note_drop(c, i);
		}
		drop_noted(c);
		return true;
	}
	/* the root's sibling pointers, said before its entries */
	for (size_t i = 0; i < c->fl.n; i++) {
		const struct fs_finding *f = &c->fl.v[i];

		if (f->obj.type != OBJ_ATTR || f->code != PR_DA_BAD_SIBLING ||
		    !attr_block0(c, f->obj.daddr))
			continue;
		if (!root_said)
			say_ino(c, PR_RP_ATTR_ROOT_SIBLINGS, 0, 0);
		root_said = true;
		note_drop(c, i);
	}
	drop_noted(c);
	for (size_t i = 0; i < c->fl.n; i++) {
		const struct fs_finding *f = &c->fl.v[i];
		xfs_daddr_t daddr = f->obj.daddr;
		struct fs_buf *bp;
		size_t k;
		int v;

		if (f->obj.type != OBJ_ATTR || daddr == (xfs_daddr_t)-1)
			continue;
		for (k = 0; k < nseen && seen[k] != daddr; k++)
			;
		if (k < nseen)
			continue;
		if (nseen == sizeof(seen) / sizeof(seen[0]))
			break;
		seen[nseen++] = daddr;
		if (bcache_read(fs->bc, daddr, fs->geo.blocksize, NULL, NULL,
				&bp))
			continue;
		if (get_be16(((const struct xfs_attr3_leaf_hdr *)
			      bp->data)->info.magic) != XFS_ATTR3_LEAF_MAGIC) {
			buf_release(bp);
			continue;
		}
		{
			xfs_dablk_t dablk = attr_dablk(c, daddr);
			xfs_dahash_t last = dablk ?
					    prev_leaf_hash(c, bp->data) : 0;

			v = aw_leaf(NULL, &fs->geo, c->ino, c->agno, dablk,
				    bp->data, last, c->ael, rmt_bad);
			if (v == AW_CLEAR)
				aw_leaf(c->out, &fs->geo, c->ino, c->agno,
					dablk, bp->data, last, c->ael,
					rmt_bad);
		}
		buf_release(bp);
		if (v != AW_CLEAR)
			continue;
		/* the reference reads no further: the rest is unsaid */
		for (k = i; k < c->fl.n; k++) {
			const struct fs_finding *g = &c->fl.v[k];
			size_t s;

			for (s = 0; s + 1 < nseen && seen[s] != g->obj.daddr;
			     s++)
				;
			if (g->obj.type == OBJ_ATTR &&
			    (s + 1 == nseen || g->obj.daddr == (xfs_daddr_t)-1))
				note_drop(c, k);
		}
		drop_noted(c);
		return true;
	}
	return false;
}

/*
 * An attribute fork in blocks whose map has no block 0 holds nothing the
 * reference can read: it clears the fork -- but for a fork in extents
 * whose counter is 0, which the kernel leaves behind when the last
 * attribute goes.
 */
static bool attr_no_block0(const struct fs_inode *ip,
			   const struct fs_extents *ael, uint64_t disk_count)
{
	struct xfs_bmbt_irec r;

	if (ip->aformat == XFS_DINODE_FMT_EXTENTS && !disk_count)
		return false;
	return !extents_lookup(ael, 0, &r);
}

/*
 * Is the attribute fork's block 0 a leaf without entries?  The kernel
 * leaves none behind, but the reference lets it pass under -n with a
 * note ("would clear empty leaf attr block 0"), checking no further, and
 * its exit code does not count it.
 */
static bool attr_root_leaf_empty(struct fs *fs, const struct fs_extents *ael)
{
	const struct xfs_attr3_leaf_hdr *h;
	struct fs_buf *bp;
	bool empty;

	if (!ael->n || fork_read(fs, ael, 0, 1, NULL, NULL, &bp))
		return false;
	h = (const struct xfs_attr3_leaf_hdr *)bp->data;
	empty = bp->len >= sizeof(*h) &&
		get_be16(h->info.magic) == XFS_ATTR3_LEAF_MAGIC &&
		get_be16(h->count) == 0;
	buf_release(bp);
	return empty;
}

/*
 * The index of the pointer of a fork's root in the inode that names the
 * bmbt block at daddr, or -1; *level gets the root's level.
 */
static int iroot_child(const struct fs_geom *g, const struct fs_inode *ip,
		       int whichfork, xfs_daddr_t daddr, unsigned *level)
{
	uint32_t size;
	const uint8_t *p = inode_fork_ptr(ip, whichfork, &size);
	unsigned n, max;

	*level = 0;
	if (!p || size < sizeof(struct xfs_bmdr_block))
		return -1;
	*level = load_be16(p);
	n = load_be16(p + 2);
	max = bmdr_maxrecs(size, false);
	if (*level == 0 || n > max)
		return -1;
	for (unsigned i = 0; i < n; i++) {
		uint64_t ptr = load_be64(p + sizeof(struct xfs_bmdr_block) +
					 (size_t)max * sizeof(struct xfs_bmbt_key) +
					 (size_t)i * sizeof(be64));

		if (fsb_valid(g, ptr) && fsb_to_daddr(g, ptr) == daddr)
			return (int)i;
	}
	return -1;
}

/*
 * A bmbt block with fewer records than the kernel keeps, the reference's
 * way (its scan takes the inode root's children as roots themselves):
 *   - below those children, the fork is unusable (RP_BMBT_BAD_NUMRECS);
 *   - a child of the root is not checked, with one exception: an empty
 *     leaf after the first leaves the reference's key order check to
 *     whatever its stack held, and on its second look at the inode (its
 *     phase 4) the check fails and the inode would be cleared.
 * The findings the reference does not make are kept as notes.  Returns
 * the empty leaf's block, or NULLFSBLOCK.
 */
static xfs_fsblock_t bmbt_underfull(struct p3ag *c, const struct fs_inode *ip,
				    int whichfork)
{
	const struct fs_geom *g = &c->r->fs->geo;
	xfs_fsblock_t empty = NULLFSBLOCK;
	size_t j = 0;

	for (size_t i = 0; i < c->fl.n; i++) {
		struct fs_finding *f = &c->fl.v[i];
		unsigned level;
		int idx;

		if (f->code == PR_BTREE_BAD_NUMRECS &&
		    f->obj.type == OBJ_BMBT && f->found > f->expected &&
		    f->expected == btree_maxrecs(g, &bmbt_ops, true)) {
			/* a leaf with more records than fit: the same words */
			f->code = PR_RP_BMBT_BAD_NUMRECS;
			f->expected /= 2;
			c->fl.v[j++] = *f;
			continue;
		}
		if (f->code != PR_BTREE_BAD_NUMRECS ||
		    f->obj.type != OBJ_BMBT || f->found >= f->expected) {
			c->fl.v[j++] = *f;
			continue;
		}
		idx = iroot_child(g, ip, whichfork, f->obj.daddr, &level);
		if (idx < 0) {
			f->code = PR_RP_BMBT_BAD_NUMRECS;
			c->fl.v[j++] = *f;
			continue;
		}
		if (f->found == 0 && idx > 0 && level == 1 &&
		    empty == NULLFSBLOCK)
			empty = daddr_to_fsb(g, f->obj.daddr);
		rp_note_finding(f);
	}
	findings_truncate(&c->fl, j);
	return empty;
}

/*
 * The reference walks a fork's records and bmbt blocks in order and
 * stops at the first thing it holds against the fork: what we found
 * after that it never sees, and is kept as a note.  The btree engine's
 * own order finding about a bmbt leaf's records is a note too: bmap.c
 * says the same in the reference's terms (which record, which list).
 */
static void fork_first_only(struct p3ag *c, bool attr)
{
	bool held = false;
	size_t j = 0;

	/*
	 * Of a node's entry, the reference checks the pointer before it
	 * reads the child and then holds the key against the last one:
	 * a bad pointer is its first finding there, not the key's order.
	 */
	for (size_t i = 0; i + 1 < c->fl.n; i++) {
		struct fs_finding *k = &c->fl.v[i], *p = k + 1, t;

		if (k->code == PR_BTREE_KEYS_OUT_OF_ORDER &&
		    p->code == PR_BTREE_BAD_PTR && k->obj.type == OBJ_BMBT &&
		    p->obj.type == OBJ_BMBT && k->obj.daddr == p->obj.daddr &&
		    k->obj.index == p->obj.index) {
			t = *k;
			*k = *p;
			*p = t;
		}
	}
	for (size_t i = 0; i < c->fl.n; i++) {
		struct fs_finding *f = &c->fl.v[i];

		if (held || (f->code == PR_BTREE_RECS_OUT_OF_ORDER &&
			     f->obj.type == OBJ_BMBT) ||
		    bmbt_root_key_order(f)) {
			rp_note_finding(f);
			continue;
		}
		c->fl.v[j++] = *f;
		/* the verifier's sibling finding: the walk's says it */
		if (f->code == PR_BTREE_BAD_SIBLING &&
		    f->obj.type == OBJ_BMBT && !(f->flags & FND_EXPECTED))
			continue;
		held = fork_verdict(f, attr) != V_NOTE;
	}
	findings_truncate(&c->fl, j);
}

static uint64_t extents_blocks(const struct fs_extents *el)
{
	uint64_t n = 0;

	for (size_t i = 0; i < el->n; i++)
		n += el->v[i].br_blockcount;
	return n;
}

/*
 * "would have cleared inode N" -- or, for the root, realtime bitmap and
 * summary inodes, "would clear root inode N" and the like, which phase 6
 * follows with "would reinitialize ...".
 */
static void say_cleared(struct p3ag *c)
{
	const struct fs_sb *sb = &c->r->fs->sb;
	struct rp_args a = RP_ARGS_INIT(OBJ_INODE);

	a.obj.ino = c->ino;
	a.obj.agno = c->agno;
	if (c->ino == sb->rootino) {
		a.field = "root";
		__atomic_store_n(&c->r->need_root, true, __ATOMIC_RELAXED);
	} else if (c->ino == sb->rbmino) {
		a.field = "rbm";
		__atomic_store_n(&c->r->need_rbm, true, __ATOMIC_RELAXED);
	} else if (c->ino == sb->rsumino) {
		a.field = "rsum";
		__atomic_store_n(&c->r->need_rsum, true, __ATOMIC_RELAXED);
	}
	rp_say(c->out, PR_RP_INODE_CLEARED, &a);
}

static void mark_cleared(struct p3ag *c, struct im_chunk *ch, unsigned bit)
{
	say_cleared(c);
	ch->cleared |= 1ull << bit;
	ch->suspect |= 1ull << bit;
}

/*
 * An inode the reference "would have cleared" but keeps in use: as it
 * behaves (xfsprogs 6.1, a bad magic number, next_unlinked, attribute
 * fork format or count), it holds no reflink flag of it afterwards while
 * its data fork's blocks still count as shared -- so where they are, it
 * would set the flag ("setting reflink flag on inode N", phase 5's
 * check).
 */
static void forget_reflink(struct im_chunk *ch, unsigned bit)
{
	ch->reflink &= ~(1ull << bit);
}

/*
 * An inode the reference "would have cleared" but, under -n, keeps in
 * use for phases 6 and 7 -- one whose magic number or attribute fork is
 * bad: its type and link count stay, and as the kernel's verifier
 * refuses it, the reference cannot read it there ("couldn't map inode").
 * Its entries, if a directory, are not read.
 */
static void keep_cleared(struct p3ag *c, struct im_chunk *ch, unsigned bit,
			 uint16_t mode, uint32_t nlink)
{
	say_cleared(c);
	forget_reflink(ch, bit);
	ch->used |= 1ull << bit;
	ch->unreadable |= 1ull << bit;
	ch->suspect |= 1ull << bit;
	ch->nlink[bit] = nlink;
	ch->ftype[bit] = inode_mode_ftype(mode);
	if (S_ISDIR(mode))
		ch->isdir |= 1ull << bit;
	c->edges.n = 0;
}

/*
 * A symlink's target, read as the reference reads it.  A remote one it
 * reads a file block at a time, with the blocks after it that are next
 * on disk too, as one buffer with one header.  A buffer whose checksum
 * is wrong it says it would correct and reads all the same, unverified;
 * one its verifier refuses ends the read, as does a header that does
 * not say the inode, the offset and exactly the bytes the buffer holds
 * of what is left (as the kernel requires too).  Says what stops it and
 * returns false; the target has no NUL byte when it returns true.
 */
static bool symlink_target_ok(struct p3ag *c, const struct fs_inode *ip,
			      const struct fs_extents *del)
{
	struct fs *fs = c->r->fs;
	const struct fs_geom *g = &fs->geo;
	uint32_t per = g->blocksize - sizeof(struct xfs_dsymlink_hdr);
	uint32_t maxblocks = (XFS_SYMLINK_MAXLEN + per - 1) / per;
	char target[XFS_SYMLINK_MAXLEN];
	uint64_t left = ip->size, done = 0, i = 0;

	if (ip->format == XFS_DINODE_FMT_LOCAL) {
		/* (symlink_core_rules held the size to the fork) */
		if (!ip->dfork || ip->size > ip->dfork_size)
			return false;
		memcpy(target, ip->dfork, ip->size);
		done = ip->size;
		left = 0;
	}
	while (left) {
		struct xfs_bmbt_irec e;
		const struct xfs_dsymlink_hdr *h;
		struct fs_findings vf;
		struct fs_buf *bp;
		xfs_fsblock_t fsb;
		uint32_t n = 1;
		uint64_t bytes;
		bool refused = false;

		if (!extents_lookup(del, i, &e)) {
			say_ino(c, PR_RP_SYMLINK_HOLE, i, 0);
			return false;
		}
		fsb = e.br_startblock + (i - e.br_startoff);
		while (n <= maxblocks && extents_lookup(del, i + 1, &e) &&
		       e.br_startblock + (i + 1 - e.br_startoff) == fsb + n) {
			n++;
			i++;
		}
		if (bcache_read(fs->bc, fsb_to_daddr(g, fsb), n * g->blocksize,
				NULL, NULL, &bp)) {
			say_ino_as(c, PR_RP_SYMLINK_READ_ERR, NULL, fsb, i);
			return false;
		}
		h = (const void *)bp->data;
		findings_init(&vf);
		if (!xfs_cksum_verify(bp->data, bp->len, XFS_SYMLINK_CRC_OFF)) {
			say_ino(c, PR_RP_SYMLINK_BAD_CRC, fsb, 0);
		} else {
			symlink_buf_ops.verify(fs, bp, &vf);
			for (size_t k = 0; k < vf.n; k++) {
				refused |= vf.v[k].code != PR_SYMLINK_BAD_LSN;
				rp_note_finding(&vf.v[k]);
			}
		}
		findings_free(&vf);
		bytes = bp->len - sizeof(*h);
		if (bytes > left)
			bytes = left;
		if (refused) {
			say_ino(c, PR_RP_SYMLINK_BLOCK_CORRUPT, fsb, 0);
		} else if (get_be32(h->sl_offset) != done ||
			   get_be32(h->sl_bytes) != bytes ||
			   get_be64(h->sl_owner) != ip->ino) {
			struct rp_args a = RP_ARGS_INIT(OBJ_INODE);

			a.obj.ino = c->ino;
			a.obj.agno = c->agno;
			a.found = fsb;
			a.v2 = i;
			rp_say(c->out, PR_RP_SYMLINK_HDR_BAD, &a);
			refused = true;
		} else {
			memcpy(target + done, bp->data + sizeof(*h), bytes);
		}
		buf_release(bp);
		if (refused)
			return false;
		done += bytes;
		left -= bytes;
		i++;
	}
	if (memchr(target, 0, done)) {
		say_ino(c, PR_SYMLINK_BAD_TARGET, 0, 0);
		return false;
	}
	return true;
}

/* A directory, a symlink: their content.  Returns false to clear. */
static bool check_content(struct p3ag *c, struct im_chunk *ch, unsigned bit,
			  const struct fs_inode *ip,
			  const struct fs_extents *del)
{
	if (inode_is_dir(ip)) {
		if (check_dir(c, ch, bit, ip, del) == DV_CLEAR)
			return false;
	} else if (inode_is_symlink(ip)) {
		if (ip->size >= XFS_SYMLINK_MAXLEN) {
			say_ino(c, PR_RP_SYMLINK_TOO_LONG, ip->size, 0);
			return false;
		}
		if (ip->size && !symlink_target_ok(c, ip, del)) {
			say_ino(c, PR_RP_SYMLINK_BAD, 0, 0);
			return false;
		}
	}
	return true;
}

/*
 * An inode with a bad magic number, which the reference would reset: it
 * reads the inode on as a good one's, forks and content, and only then
 * says it would have cleared it -- kept (keep_cleared()).  A directory's
 * content it checks as any directory's: content it gives up on costs the
 * inode as it would have otherwise, and content it reads tells it the
 * parent, which phase 6 then knows (the entries stay unread, the inode
 * being unreadable there).
 */
static void kept_bad_magic(struct p3ag *c, struct im_chunk *ch, unsigned bit,
			   const void *raw, uint16_t mode, uint32_t nlink)
{
	struct fs *fs = c->r->fs;
	struct fs_extents del;
	struct fs_inode ip;
	bool walked = claim_kept_forks(c, raw, &del);

	c->dhdr.dir = NULLFSINO;
	if (walked && S_ISDIR(mode) &&
	    !inode_decode(&fs->geo, c->ino, raw, &ip)) {
		bool readable;

		c->unmapped = true;
		readable = check_content(c, ch, bit, &ip, &del);
		c->unmapped = false;

		inode_release(&ip);
		if (!readable) {
			extents_free(&del);
			ch->used &= ~(1ull << bit);
			ch->unreadable |= 1ull << bit;
			mark_cleared(c, ch, bit);
			return;
		}
	}
	extents_free(&del);
	keep_cleared(c, ch, bit, mode, nlink);
	if (c->dhdr.dir == c->ino)
		im_dir_add(c->r->imap, &c->dhdr, &c->edges);
}

/*
 * inode_verify's findings about a bmap btree root in the inode, as the
 * reference meets them: it reads a fork's root only once the core has
 * passed, checks its level first and stops at the first thing wrong.  A
 * record count after a bad level, or a data fork root when something
 * else clears the inode first (an attribute fork root, when the data
 * fork's does), is kept as a note (PR_NONE here).
 * Returns whether the data fork's root alone clears the inode -- the
 * reference's "bad data fork".
 */
static bool root_findings(struct p3ag *c)
{
	bool level_bad[2] = { false, false }, data_root = false;
	bool other_fatal = false;

	for (size_t i = 0; i < c->fl.n; i++) {
		const struct fs_finding *f = &c->fl.v[i];

		if (f->code != PR_BMAP_BAD_ROOT) {
			other_fatal |= core_verdict(f) == V_INODE;
			continue;
		}
		if (field_is(f, "u3.bmbt.level"))
			level_bad[0] = true;
		else if (field_is(f, "a.bmbt.level"))
			level_bad[1] = true;
		if (field_is(f, "a."))
			continue;
		data_root = true;
		if (!field_is(f, "u3.bmbt."))
			other_fatal = true;	/* no root at all */
	}
	for (size_t i = 0; i < c->fl.n; i++) {
		struct fs_finding *f = &c->fl.v[i];
		bool attr = field_is(f, "a.");

		if (f->code != PR_BMAP_BAD_ROOT || !field_is(f, attr ?
		    "a.bmbt." : "u3.bmbt."))
			continue;
		if ((level_bad[attr] && field_is(f, attr ? "a.bmbt.numrecs" :
						 "u3.bmbt.numrecs")) ||
		    other_fatal || (attr && data_root)) {
			rp_note_finding(f);
			f->code = PR_NONE;
		}
	}
	return data_root && !other_fatal;
}

/*
 * A data fork extent count larger than the fork holds: the reference
 * does not check the count against the fork, it walks that many records
 * and stops at the first bad one -- in the fork, where the space past
 * the last record is zeros, at the first of those ("zero length extent",
 * "bmap rec out of order ... [0 0 0]").  The finding is put aside for the
 * walk to decide (c->overrun); when nothing else clears the inode first.
 */
static void defer_overrun(struct p3ag *c, const struct xfs_dinode *d)
{
	struct fs_finding *over = NULL;

	c->has_overrun = false;
	if (d->di_format != XFS_DINODE_FMT_EXTENTS)
		return;
	for (size_t i = 0; i < c->fl.n; i++) {
		struct fs_finding *f = &c->fl.v[i];

		if (f->code == PR_INODE_BAD_NEXTENTS &&
		    field_is(f, "core.nextents") && f->found > f->expected)
			over = f;
		else if (core_verdict(f) == V_INODE)
			return;
	}
	if (!over)
		return;
	c->overrun = *over;
	c->has_overrun = true;
	over->code = PR_NONE;
}

/*
 * A realtime file's extent list, as the kernel checks it when it loads
 * the inode (and libxfs, in the reference's phases 6 and 7): each extent
 * must lie inside the realtime device -- which a filesystem without one
 * (sb_rblocks 0) makes true of none.  A btree's records are checked only
 * as they are read, not then.
 */
static bool rt_extents_refused(const struct fs *fs, const struct fs_inode *ip,
			       const struct fs_extents *del)
{
	if (!(ip->flags & XFS_DIFLAG_REALTIME) ||
	    ip->format != XFS_DINODE_FMT_EXTENTS)
		return false;
	for (size_t i = 0; i < del->n; i++) {
		const struct xfs_bmbt_irec *e = &del->v[i];

		if (e->br_startblock + e->br_blockcount < e->br_startblock ||
		    e->br_startblock + e->br_blockcount > fs->sb.rblocks)
			return true;
	}
	return false;
}

/*
 * A data fork in the inode (local format), as the reference checks it:
 * an extent count there is a counter it would reset ("bad nextents N for
 * inode N, would reset to 0", with the other counters) and a directory
 * too short for its header one its walk of the entries sizes anew
 * (rp_sf_walk): it keeps the inode, though the kernel's inode verifier
 * refuses it.  A size past the fork clears it: "local inode N data fork
 * is too large", then "bad data fork" (what the inode's type says of the
 * size it does not get to; a size below zero is said as such, and
 * clears it).  Returns whether the inode is kept so.
 */
static bool local_fork(struct p3ag *c, const struct xfs_dinode *d,
		       bool *too_large)
{
	bool refused = false;

	*too_large = false;
	if (d->di_format != XFS_DINODE_FMT_LOCAL)
		return false;
	for (size_t i = 0; i < c->fl.n; i++) {
		struct fs_finding *f = &c->fl.v[i];

		if (f->code != PR_INODE_BAD_SIZE || !field_is(f, "core.size") ||
		    !(f->flags & FND_EXPECTED))
			continue;
		if ((int64_t)f->found >= 0) {
			f->code = PR_RP_LOCAL_TOO_LARGE;
			*too_large = true;
		} else {
			/* "bad (negative) size" says it */
			rp_note_finding(f);
			f->code = PR_NONE;
		}
	}
	for (size_t i = 0; i < c->fl.n; i++) {
		struct fs_finding *f = &c->fl.v[i];

		if (f->code == PR_INODE_BAD_NEXTENTS &&
		    field_is(f, "core.nextents")) {
			c->count_bad[0] = true;
			refused = true;
		} else if (f->code == PR_INODE_BAD_SIZE &&
			   field_is(f, "core.size") &&
			   (*too_large || (S_ISDIR(get_be16(d->di_mode)) &&
					   (int64_t)f->found >= 0))) {
			refused = true;
		} else {
			continue;
		}
		rp_note_finding(f);
		f->code = PR_NONE;
	}
	return refused && !*too_large;
}

/*
 * Extent counters the reference does not walk by.  It bounds each counter
 * by the largest its inode's own format allows (the inode's nrext64 flag,
 * not the filesystem's): an extents-format fork whose counter is above
 * that is walked as no records at all, and the counter is then wrong
 * against the none found (a data fork of nothing, an attribute fork with
 * no block 0).  A counter with no attribute fork to count is only a
 * wrong counter.  An attribute counter above what the fork holds, but
 * within the bound, is walked as the data fork's is (defer_overrun): the
 * walk stops at the first bad record past the real ones.
 */
struct p3_counts {
	uint64_t	disk[2];	/* the counters, as the inode has them */
	bool		zero[2];	/* walked as no records */
	bool		attr_over;	/* attr counter past the fork's room */
	bool		said_early;	/* a data counter past its bound in a
					   fork of no records: said twice */
};

/*
 * The kernel loads a fork in btree format with the inode, and refuses
 * one whose extent counter (as the inode has it) the fork could hold as
 * a plain list of extents.  The reference only says the counter is wrong
 * and keeps the inode; its phases 6 and 7 then cannot read it ("corrupt
 * inode N (btree)." before "couldn't map inode N").  The kernel's other
 * refusals of a root (no records, more than fit, a bad level) cost the
 * inode in phase 3 already.  The data fork is loaded first: a refused
 * one is the only one said.
 */
static bool btree_root_refused(const struct fs_inode *ip,
			       const struct p3_counts *k)
{
	for (int w = 0; w < 2; w++) {
		int fork = w ? XFS_ATTR_FORK : XFS_DATA_FORK;
		uint32_t size;

		if (w && !inode_has_attr_fork(ip))
			break;
		if (inode_fork_format(ip, fork) != XFS_DINODE_FMT_BTREE ||
		    !inode_fork_ptr(ip, fork, &size))
			continue;
		if (k->disk[w] <= size / sizeof(struct xfs_bmbt_rec))
			return true;
	}
	return false;
}

static void count_limits(struct p3ag *c, const struct xfs_dinode *d,
			 struct p3_counts *k)
{
	bool big = d->di_version >= 3 &&
		   (get_be64(d->di_flags2) & XFS_DIFLAG2_NREXT64);
	uint64_t max[2] = {
		big ? XFS_MAX_EXTCNT_DATA_FORK_LARGE :
		      XFS_MAX_EXTCNT_DATA_FORK_SMALL,
		big ? XFS_MAX_EXTCNT_ATTR_FORK_LARGE :
		      XFS_MAX_EXTCNT_ATTR_FORK_SMALL,
	};
	bool no_attr = !d->di_forkoff;

	memset(k, 0, sizeof(*k));
	k->disk[0] = big ? get_be64(d->u24.di_big_nextents) :
			   get_be32(d->u76.small.di_nextents);
	k->disk[1] = big ? get_be32(d->u76.big.di_big_anextents) :
			   get_be16(d->u76.small.di_anextents);
	k->zero[0] = d->di_format == XFS_DINODE_FMT_EXTENTS &&
		     k->disk[0] > max[0];
	k->zero[1] = !no_attr && d->di_aformat == XFS_DINODE_FMT_EXTENTS &&
		     k->disk[1] > max[1];
	/*
	 * Of a btree or local data fork the counter is only a counter, but
	 * one the reference also says in its first look at the inode.
	 */
	k->said_early = (d->di_format == XFS_DINODE_FMT_BTREE ||
			 d->di_format == XFS_DINODE_FMT_LOCAL) &&
			k->disk[0] > max[0];
	for (size_t i = 0; i < c->fl.n; i++) {
		struct fs_finding *f = &c->fl.v[i];
		bool attr;

		if (f->code != PR_INODE_BAD_NEXTENTS)
			continue;
		attr = field_is(f, "core.naextents");
		if (!attr && !field_is(f, "core.nextents"))
			continue;
		if (k->zero[attr] || (!attr && k->said_early)) {
			rp_note_finding(f);
			f->code = PR_NONE;
			if (!attr && k->said_early)
				c->count_bad[0] = true;
		} else if (attr && no_attr) {
			/* said as RP_ANEXTENTS, against none */
			rp_note_finding(f);
			f->code = PR_NONE;
			c->count_bad[1] = true;
		} else if (attr && d->di_aformat == XFS_DINODE_FMT_EXTENTS &&
			   f->found > f->expected && f->found <= max[1]) {
			rp_note_finding(f);
			f->code = PR_NONE;
			k->attr_over = true;
		}
	}
}

/*
 * A short-form attribute fork maps nothing: the reference holds its
 * extent count to 0 with the other counters ("bad anextents"), the fork
 * and the inode kept; libfs's finding on the count is only a note.
 */
static void attr_sf_count(struct p3ag *c, const struct xfs_dinode *d)
{
	if (d->di_aformat != XFS_DINODE_FMT_LOCAL || !d->di_forkoff)
		return;
	for (size_t i = 0; i < c->fl.n; i++) {
		struct fs_finding *f = &c->fl.v[i];

		if (f->code == PR_INODE_BAD_NEXTENTS &&
		    field_is(f, "core.naextents")) {
			rp_note_finding(f);
			f->code = PR_NONE;
		}
	}
}

/*
 * The link count the reference takes from an inode in its phase 3: the
 * 16-bit one of a version 1 core, and of a version 0 one too (phase 7
 * compares against it; the library it reads the inode with there takes
 * di_nlink but for version 1).
 */
static uint32_t p3_disk_nlink(const struct xfs_dinode *d)
{
	return d->di_version < 2 ? get_be16(d->di_onlink) :
	       get_be32(d->di_nlink);
}

/*
 * Would the reference have stopped reading an inode's core before f?  It
 * checks the core in an order of its own and clears the inode at the
 * first rule broken; what it would have checked after that is not said.
 * The data fork's format against the file type comes right after the
 * identity fields (magic, version, number, UUID, a size below zero, the
 * unlinked pointer); a symlink's size against the format after the
 * flags and hints, and before the fork offset, the forks and the
 * counters.
 */
static bool core_said_later(const struct fs_finding *f, bool format)
{
	switch (f->code) {
	case PR_INODE_BAD_MAGIC:
	case PR_INODE_BAD_VERSION:
	case PR_INODE_BAD_CRC:
	case PR_INODE_BAD_INO:
	case PR_INODE_BAD_UUID:
	case PR_INODE_BAD_UNLINKED:
	case PR_INODE_BAD_MODE:
	case PR_INODE_BAD_FORMAT:
		return false;
	case PR_INODE_BAD_SIZE:
		return field_is(f, "core.size") ? (int64_t)f->found >= 0 : true;
	case PR_INODE_BAD_NEXTENTS:
	case PR_BMAP_COUNT_MISMATCH:
	case PR_INODE_BAD_NBLOCKS:
	case PR_INODE_BAD_FORKOFF:
	case PR_INODE_BAD_DEV_FORKOFF:
	case PR_INODE_BAD_AFORMAT:
	case PR_RP_AFORMAT_NO_FORK:
	case PR_BMAP_BAD_ROOT:
		return true;
	default:
		return format || field_is(f, "u3.") || field_is(f, "a.");
	}
}

/* The findings of what the reference checks after the rule broken. */
static void notes_past(struct p3ag *c, bool format)
{
	size_t j = 0;

	for (size_t i = 0; i < c->fl.n; i++) {
		if (c->fl.v[i].code == PR_NONE)
			continue;	/* noted already */
		if (core_said_later(&c->fl.v[i], format))
			rp_note_finding(&c->fl.v[i]);
		else
			c->fl.v[j++] = c->fl.v[i];
	}
	findings_truncate(&c->fl, j);
}

/*
 * The rules the reference holds a symlink's core to before it walks
 * either fork: a data fork of local or extents format ("bad inode
 * format"); a size that fits in the fork for local format and does not
 * for extents ("mismatch between format and size"); no more extents
 * than the longest target needs, each right after the one before it and
 * none empty.  Returns the words for the first rule broken, with a set
 * up for them (PR_INODE_BAD_FORMAT: added to the findings instead), or
 * PR_NONE.  The findings of what it would have checked later are then
 * only notes.
 */
static enum fs_problem symlink_core_rules(struct p3ag *c,
					  const struct xfs_dinode *d,
					  const struct p3_counts *k,
					  struct rp_args *a)
{
	const struct fs_geom *g = &c->r->fs->geo;
	uint32_t per = g->blocksize - sizeof(struct xfs_dsymlink_hdr);
	/* a core of another version: the forks where a v2 core ends */
	uint32_t off = d->di_version == XFS_DINODE_VERSION_3 ?
		       XFS_DINODE_CORE_SIZE : XFS_DINODE_CRC_OFF;
	uint32_t lit = g->inodesize - off;
	uint64_t dsize = d->di_forkoff ? d->di_forkoff * 8u : lit;
	uint64_t size = get_be64(d->di_size);
	uint64_t left = (XFS_SYMLINK_MAXLEN + per - 1) / per, next = 0;
	enum fs_problem code = PR_NONE;
	bool format = false;

	if ((get_be16(d->di_mode) & XFS_S_IFMT) != XFS_S_IFLNK ||
	    (int64_t)size < 0 || findings_has(&c->fl, PR_INODE_BAD_MAGIC))
		return PR_NONE;
	a->obj.ino = c->ino;
	a->obj.agno = c->agno;
	if (d->di_format != XFS_DINODE_FMT_LOCAL &&
	    d->di_format != XFS_DINODE_FMT_EXTENTS) {
		format = true;
		code = PR_INODE_BAD_FORMAT;
	} else if (size <= dsize) {
		if (d->di_format != XFS_DINODE_FMT_LOCAL)
			code = PR_RP_SYMLINK_SIZE_EXTENTS;
	} else if (d->di_format == XFS_DINODE_FMT_LOCAL) {
		code = PR_RP_SYMLINK_SIZE_LOCAL;
	} else if (k->disk[0] > left) {
		code = PR_RP_SYMLINK_NEXTENTS;
		a->found = k->disk[0];
	} else {
		const uint8_t *p = (const uint8_t *)d + off;

		/* at most 3 records of 16 bytes: in any inode's literal area */
		for (uint64_t i = 0; i < k->disk[0]; i++) {
			struct xfs_bmbt_irec r;

			bmbt_rec_decode((const struct xfs_bmbt_rec *)p + i, &r);
			a->v2 = i;
			if (r.br_startoff != next) {
				a->found = r.br_startoff;
				code = PR_RP_SYMLINK_EXT_OFFSET;
				break;
			}
			if (!r.br_blockcount || r.br_blockcount > left) {
				a->found = r.br_blockcount;
				code = PR_RP_SYMLINK_EXT_COUNT;
				break;
			}
			left -= r.br_blockcount;
			next += r.br_blockcount;
		}
	}
	if (code == PR_RP_SYMLINK_SIZE_EXTENTS ||
	    code == PR_RP_SYMLINK_SIZE_LOCAL) {
		a->found = d->di_format;
		a->expected = size;
	}
	if (code == PR_NONE) {
		/* a remote target too long: said with the content */
		for (size_t i = 0; i < c->fl.n; i++) {
			struct fs_finding *f = &c->fl.v[i];

			if (f->code == PR_INODE_BAD_SIZE &&
			    field_is(f, "core.size") &&
			    d->di_format == XFS_DINODE_FMT_EXTENTS) {
				rp_note_finding(f);
				f->code = PR_NONE;
			}
		}
		return PR_NONE;
	}
	notes_past(c, format);
	if (format && !findings_has(&c->fl, PR_INODE_BAD_FORMAT)) {
		struct fs_objref o = OBJREF_INIT(OBJ_INODE);

		o.ino = c->ino;
		o.agno = c->agno;
		fs_report_found(&c->fl, PR_INODE_BAD_FORMAT, &o, "core.format",
				d->di_format);
	}
	return code;
}

void p3_process_inode(struct p3ag *c, struct im_chunk *ch, unsigned bit,
		      const uint8_t *raw)
{
	struct repair *r = c->r;
	struct fs *fs = r->fs;
	const struct xfs_dinode *d = (const void *)raw;
	bool inobt_free = (ch->ifree >> bit) & 1;
	uint16_t mode = get_be16(d->di_mode);
	struct fs_inode ip;
	struct fs_extents del, ael;
	uint64_t counted;
	enum verdict v;
	bool attr_bad = false, attr_said = false, attr_map_bad = false;
	bool suspect = false, unreadable = false, cut, magic_bad = false;
	bool version_bad = false, crc_bad = false;
	xfs_fsblock_t empty_leaf;
	size_t nkeep, nwalk;
	bool revive, has_later = false;
	const struct fs_finding *later;
	struct fs_finding later_f;
	bool data_root_bad, local_too_large;
	struct p3_counts k;
	struct rp_args sym_a = RP_ARGS_INIT(OBJ_INODE);
	enum fs_problem sym;

	/* no rp_note_lsn(di_lsn): the reference's maximum leaves inodes out */
	if (inobt_free && (get_be16(d->di_magic) != XFS_DINODE_MAGIC || !mode)) {
		check_free_inode(c, raw);	/* free, as the inobt says */
		return;
	}
	if (!inobt_free && get_be16(d->di_magic) == XFS_DINODE_MAGIC && !mode) {
		/* the checksum it checks first: "would have cleared" */
		bool crc = d->di_version >= 3 &&
			   !xfs_cksum_verify(raw, fs->geo.inodesize,
					     XFS_DINODE_CRC_OFF);

		if (crc)
			say_ino(c, PR_INODE_BAD_CRC, 0, 0);
		say_ino(c, PR_RP_INOBT_USED_INODE_FREE, 0, 0);
		if (crc)
			say_cleared(c);
		/* its second look (phase 4) finds it free, and verifies it */
		if (free_inode_refused(fs, c->ino, d,
				       d->di_version >= 3 &&
				       !xfs_cksum_verify(raw, fs->geo.inodesize,
							 XFS_DINODE_CRC_OFF)))
			say_ino(c, PR_RP_FREE_INODE_ERRORS, 0, 0);
		return;
	}
	memset(c->count_bad, 0, sizeof(c->count_bad));
	/*
	 * An inode of another version than 3 the reference reads all the
	 * same, its forks where a core of that version ends (100 bytes in);
	 * the version alone costs the inode only once all else is read.
	 */
	inode_verify_flags(fs, c->ino, raw, &c->fl, INODE_VERIFY_ANY_VERSION);
	/*
	 * libfs stops at a bad magic number; the reference checks the
	 * checksum after it all the same (and would rewrite it).
	 */
	if (findings_has(&c->fl, PR_INODE_BAD_MAGIC) &&
	    !findings_has(&c->fl, PR_INODE_BAD_CRC) &&
	    !xfs_cksum_verify(raw, fs->geo.inodesize, XFS_DINODE_CRC_OFF)) {
		struct fs_objref o = c->fl.v[0].obj;

		fs_report_val(&c->fl, PR_INODE_BAD_CRC, &o, "v3.crc",
			      xfs_cksum_calc(raw, fs->geo.inodesize,
					     XFS_DINODE_CRC_OFF),
			      get_le32(d->di_crc));
	}
	/*
	 * An inode with no attribute fork: any format but extents is a
	 * value the reference would reset, no fork to clear -- 0 too,
	 * which the kernel takes.
	 */
	if (!d->di_forkoff)
		for (size_t i = 0; i < c->fl.n; i++)
			if (c->fl.v[i].code == PR_INODE_BAD_AFORMAT)
				c->fl.v[i].code = PR_RP_AFORMAT_NO_FORK;
	count_limits(c, d, &k);
	/*
	 * A size below zero, a format the file type cannot have: nothing
	 * the reference checks after them is said (a device's size, say).
	 */
	if ((findings_has(&c->fl, PR_INODE_BAD_FORMAT) ||
	     (int64_t)get_be64(d->di_size) < 0) &&
	    !findings_has(&c->fl, PR_INODE_BAD_MAGIC))
		notes_past(c, true);
	sym = symlink_core_rules(c, d, &k, &sym_a);
	if (sym != PR_NONE) {
		v = p3_flush(c, mode, judge_core, false);
		if (v != V_INODE) {
			rp_say(c->out, sym, &sym_a);
			say_ino(c, PR_RP_SYMLINK_FORK_BAD, 0, 0);
		}
		mark_cleared(c, ch, bit);
		return;
	}
	/*
	 * A file type that is none: the reference checks the flags2 word
	 * before the type, and a reflink flag on what is no regular file
	 * clears the inode there ("reflink flag set on non-file inode N",
	 * or the filesystem's lack of the feature) -- the type unsaid.
	 */
	if (d->di_version >= 3 &&
	    (get_be64(d->di_flags2) & XFS_DIFLAG2_REFLINK))
		for (size_t i = 0; i < c->fl.n; i++) {
			struct fs_finding *f = &c->fl.v[i];

			if (f->code != PR_INODE_BAD_MODE)
				continue;
			f->code = fs->geo.has_reflink ?
				  PR_INODE_FLAG_WRONG_TYPE :
				  PR_INODE_FLAG_NO_FEATURE;
			f->field = "v3.reflink";
			f->expected = 0;
			f->found = 1;
		}
	/* a short-form symlink of no target: the reference's own words */
	if ((mode & XFS_S_IFMT) == XFS_S_IFLNK &&
	    d->di_format == XFS_DINODE_FMT_LOCAL && !get_be64(d->di_size))
		for (size_t i = 0; i < c->fl.n; i++)
			if (c->fl.v[i].code == PR_INODE_BAD_SIZE &&
			    field_is(&c->fl.v[i], "core.size"))
				c->fl.v[i].code = PR_RP_SYMLINK_ZERO_SIZE;
	data_root_bad = root_findings(c);
	defer_overrun(c, d);
	unreadable = local_fork(c, d, &local_too_large);
	attr_sf_count(c, d);
	{
		size_t j = 0;

		for (size_t i = 0; i < c->fl.n; i++)
			if (c->fl.v[i].code != PR_NONE)
				c->fl.v[j++] = c->fl.v[i];
		findings_truncate(&c->fl, j);
	}
	for (size_t i = 0; i < c->fl.n; i++) {
		if (c->fl.v[i].code == PR_INODE_BAD_AFORMAT ||
		    (c->fl.v[i].code == PR_INODE_BAD_SIZE &&
		     field_is(&c->fl.v[i], "a.sfattr.hdr.totsize")))
			attr_said = true;	/* its words say it */
		magic_bad |= c->fl.v[i].code == PR_INODE_BAD_MAGIC;
		unreadable |= kernel_refuses(&c->fl.v[i]);
		version_bad |= c->fl.v[i].code == PR_INODE_BAD_VERSION;
		crc_bad |= c->fl.v[i].code == PR_INODE_BAD_CRC;
	}
	c->unlinked_bad = false;
	c->attr0_said = false;
	/*
	 * A checksum the reference would rewrite costs the inode as the
	 * version does (neither is a verdict of core_verdict's): "would
	 * have cleared", kept in use under -n.  Its library refuses such an
	 * inode of version 3 or more in phases 6 and 7 (of an older
	 * version it has no checksum to check).
	 */
	v = p3_flush(c, mode, judge_core, false);
	if (v == V_INODE && magic_bad) {
		kept_bad_magic(c, ch, bit, raw, mode, get_be32(d->di_nlink));
		return;
	}
	if (v == V_INODE && (data_root_bad || local_too_large))
		say_ino(c, PR_RP_DATA_FORK_BAD, 0, 0);
	if (v == V_INODE || inode_decode(&fs->geo, c->ino, raw, &ip)) {
		if (c->has_overrun)
			say_finding(c, &c->overrun, mode, false);
		mark_cleared(c, ch, bit);
		return;
	}
	attr_bad = v == V_ATTR;
	attr_map_bad = attr_bad;
	/*
	 * The realtime flag without a realtime device: a regular file's
	 * blocks would be realtime extents of no device, so the reference
	 * clears it; any other inode's it maps as ordinary blocks, the
	 * flag being only a flag it would fix.  The kernel reads them as
	 * realtime extents past the device's end and refuses the inode.
	 */
	if ((ip.flags & XFS_DIFLAG_REALTIME) && !fs->sb.rblocks) {
		if (inode_is_reg(&ip)) {
			say_ino(c, PR_RP_RT_FILE_NO_RTDEV, 0, 0);
			mark_cleared(c, ch, bit);
			inode_release(&ip);
			return;
		}
		ip.flags &= ~XFS_DIFLAG_REALTIME;
		if (ip.format == XFS_DINODE_FMT_EXTENTS && ip.nextents)
			unreadable = true;
		/*
		 * A bmbt fork the kernel reads only when it maps a block:
		 * the inode loads, a directory's blocks do not (phase 6).
		 */
		if (ip.format == XFS_DINODE_FMT_BTREE && inode_is_dir(&ip))
			ch->ext_refused |= 1ull << bit;
	}
	if (k.zero[0]) {
		ip.nextents = 0;
		c->count_bad[0] = true;
	}
	if (k.zero[1])
		ip.anextents = 0;
	if (inobt_free)
		say_ino(c, PR_RP_INOBT_FREE_INODE_USED, mode, 0);
	/* a linked inode is on no unlinked list */
	if (ip.nlink && ip.next_unlinked != NULLAGINO &&
	    agino_valid(&fs->geo, c->agno, ip.next_unlinked)) {
		struct rp_args a = RP_ARGS_INIT(OBJ_INODE);

		a.obj.ino = c->ino;
		a.field = "next_unlinked";
		a.found = ip.next_unlinked;
		rp_say(c->out, PR_INODE_BAD_UNLINKED, &a);
	}

	if (inode_is_dir(&ip) && (ip.format == XFS_DINODE_FMT_EXTENTS ||
				  ip.format == XFS_DINODE_FMT_BTREE) &&
	    dir_size_bad(c, &ip)) {
		if (c->has_overrun)
			say_finding(c, &c->overrun, mode, false);
		mark_cleared(c, ch, bit);
		inode_release(&ip);
		return;
	}

	/* the forks, and what they claim */
	extents_init(&del);
	extents_init(&ael);
	memset(c->bmbt_blocks, 0, sizeof(c->bmbt_blocks));
	c->bmbt_dup = false;
	c->nmine = 0;
	c->attr = false;
	c->ip = &ip;
	walk_begin(c, &del);
	fork_extents(fs, &ip, XFS_DATA_FORK, &del, claim_bmbt, c, &c->fl);
	nwalk = walk_end(c, &del);
	nkeep = walk_claims(c, &del, nwalk,
			    (ip.flags & XFS_DIFLAG_REALTIME) != 0);
	/*
	 * A regular file whose walk ended at a claim, and at nothing before
	 * it: the reference clears it here, and looks at it again in phase
	 * 4 (second_look_takes()).  If it takes the map then, the walk goes
	 * on to the first bad record, which it says ("bmap rec out of
	 * order", ...) -- or there is none, and it keeps the file, all its
	 * extents with it (im_chunk.revived).
	 */
	revive = c->claim_second && c->walk_fl0 == 0 && inode_is_reg(&ip) &&
		 !(ip.flags & XFS_DIFLAG_REALTIME) &&
		 second_look_takes(c, &del, nwalk);
	if (revive && (later = walk_next_held(c)) != NULL) {
		later_f = *later;
		has_later = true;
		revive = false;
	}
	empty_leaf = bmbt_underfull(c, &ip, XFS_DATA_FORK);
	/* a claim on free space the reference takes, map and all */
	for (size_t i = 0; i < c->fl.n; i++)
		if (c->fl.v[i].code != PR_RP_FORK_CLAIMS_FREE)
			suspect = true;
	fork_first_only(c, false);
	cut = map_cut(c, &ip, XFS_DATA_FORK);
	v = p3_flush(c, mode, fork_verdict, false);
	if (cut)
		say_ino(c, PR_RP_NEXTENTS_CUT, 0, 0);
	if (has_later)
		say_finding(c, &later_f, mode, false);	/* its phase 4 */
	if (c->has_overrun && !del.bad_seen && v != V_INODE) {
		/* the walk would go on past the fork: the count clears it */
		say_finding(c, &c->overrun, mode, false);
		mark_cleared(c, ch, bit);
		goto out;
	}
	if (c->has_overrun)
		rp_note_finding(&c->overrun);	/* the walk said it */
	/* the reference's walk, and its claims, end at the first bad record */
	del.n = nkeep;
	if (v == V_INODE && revive) {
		say_ino(c, PR_RP_DATA_FORK_BAD, 0, 0);
		say_cleared(c);
		ch->revived |= 1ull << bit;
		del.n = nwalk;
		v = V_NOTE;
	}
	if (v == V_INODE) {
		say_ino(c, PR_RP_DATA_FORK_BAD, 0, 0);
		mark_cleared(c, ch, bit);
		/* what its walk claimed before it gave up stays claimed */
		if (!(ip.flags & XFS_DIFLAG_REALTIME))
			for (size_t i = 0; i < del.n; i++)
				claim_as(c, del.v[i].br_startblock,
					 del.v[i].br_blockcount,
					 SM_OWN_CLEARED, 0);
		goto out;
	}
	if (inode_has_attr_fork(&ip) && !attr_bad) {
		c->attr = true;
		walk_begin(c, &ael);
		fork_extents(fs, &ip, XFS_ATTR_FORK, &ael, claim_bmbt, c,
			     &c->fl);
		nkeep = walk_end(c, &ael);
		nkeep = walk_claims(c, &ael, nkeep, false);
		bmbt_underfull(c, &ip, XFS_ATTR_FORK);
		fork_first_only(c, true);
		cut = map_cut(c, &ip, XFS_ATTR_FORK);
		v = p3_flush(c, mode, fork_verdict, true);
		c->attr = false;
		if (cut)
			say_ino(c, PR_RP_NEXTENTS_CUT, 0, 0);
		ael.n = nkeep;
		/* a counter past the fork: its walk reads past the fork */
		if (v == V_ATTR || k.attr_over)
			attr_bad = attr_map_bad = true;
	}
	if (attr_bad && !attr_said) {
		say_ino(c, PR_RP_ATTR_FORK_BAD, 0, 0);
		attr_said = true;
	}
	if (ip.flags & XFS_DIFLAG_REALTIME)
		rp_rt_claim(r, c->ino, &del);
	else
		for (size_t i = 0; i < del.n; i++)
			claim_extent(c, &del.v[i], false);
	for (size_t i = 0; i < ael.n; i++)
		claim_extent(c, &ael.v[i], true);

	ch->used |= 1ull << bit;
	if (!unreadable && btree_root_refused(&ip, &k)) {
		struct rp_args a = RP_ARGS_INIT(OBJ_INODE);

		a.obj.ino = c->ino;
		a.obj.agno = c->agno;
		rp_note(PR_RP_BMBT_ROOT_REFUSED, &a);
		ch->btree_refused |= 1ull << bit;
		unreadable = true;
	}
	if (unreadable || rt_extents_refused(fs, &ip, &del))
		ch->unreadable |= 1ull << bit;
	ch->nlink[bit] = p3_disk_nlink(d);
	if (d->di_version == 0)
		ch->v0core |= 1ull << bit;
	ch->ftype[bit] = inode_mode_ftype(ip.mode);
	if (inode_is_dir(&ip))
		ch->isdir |= 1ull << bit;
	if (ip.flags2 & XFS_DIFLAG2_REFLINK)
		ch->reflink |= 1ull << bit;

	if (inode_has_attr_fork(&ip) && !attr_bad &&
	    ip.aformat != XFS_DINODE_FMT_LOCAL && attr_no_block0(&ip, &ael,
								  k.disk[1])) {
		say_ino(c, PR_RP_ATTR_NO_BLOCK0, 0, 0);
		attr_bad = true;
		say_ino(c, PR_RP_ATTR_CONTENT_BAD, 0, 0);
	} else if (inode_has_attr_fork(&ip) && !attr_bad &&
	    ip.aformat != XFS_DINODE_FMT_LOCAL && attr_root_leaf_empty(fs, &ael)) {
		/* the reference's one exception: noted, not a problem */
		say_ino(c, PR_RP_ATTR_EMPTY_LEAF, 0, 0);
	} else if (inode_has_attr_fork(&ip) && !attr_bad) {
		bool words_clear;

		attr_iterate(fs, &ip, &ael, NULL, NULL, &c->fl);
		c->ael = &ael;
		words_clear = attr_words(c, &ip);
		v = p3_flush(c, mode, judge_content, true);
		c->ael = NULL;
		if (v == V_ATTR || words_clear) {
			attr_bad = true;
			say_ino(c, PR_RP_ATTR_CONTENT_BAD, 0, 0);
		}
	}

	/* the counters, as a repair would leave them */
	counted = extents_blocks(&del) + c->bmbt_blocks[0];
	if (!attr_bad)
		counted += extents_blocks(&ael) + c->bmbt_blocks[1];
	if (counted != ip.nblocks) {
		say_ino(c, PR_RP_NBLOCKS, ip.nblocks, counted);
		suspect = true;
	}
	if (c->count_bad[0] || (ip.format == XFS_DINODE_FMT_BTREE &&
				del.n != ip.nextents)) {
		if (k.said_early)
			say_ino(c, PR_RP_NEXTENTS, k.disk[0], del.n);
		say_ino(c, PR_RP_NEXTENTS, k.disk[0], del.n);
		suspect = true;
	}
	/*
	 * A directory's bmbt read whole by the kernel must hold as many
	 * extents as the counter says, which the reference only resets:
	 * its phase 6 cannot read the blocks (and says why when the tree
	 * holds more).  A counter the fork could hold as a list was
	 * refused with the root already.
	 */
	if (inode_is_dir(&ip) && ip.format == XFS_DINODE_FMT_BTREE &&
	    del.n != k.disk[0] &&
	    !((ch->unreadable >> bit) & 1)) {
		struct rp_args a = RP_ARGS_INIT(OBJ_INODE);

		a.obj.ino = c->ino;
		a.obj.agno = c->agno;
		a.found = k.disk[0];
		a.expected = del.n;
		ch->ext_refused |= 1ull << bit;
		if (k.disk[0] < del.n) {
			ch->ext_short |= 1ull << bit;
			rp_note(PR_RP_BMBT_EXTENTS_REFUSED, &a);
		}
	}
	if (attr_bad ? k.disk[1] != 0 :
	    c->count_bad[1] || (ip.aformat == XFS_DINODE_FMT_BTREE &&
				ael.n != ip.anextents) ||
	    (ip.aformat == XFS_DINODE_FMT_LOCAL && k.disk[1] != 0)) {
		say_ino(c, PR_RP_ANEXTENTS, k.disk[1],
			attr_bad ? 0 : ael.n);
		suspect = true;
	}
	if (attr_bad)
		suspect = true;
	if (suspect)
		ch->suspect |= 1ull << bit;
	if (attr_map_bad || version_bad || crc_bad) {
		/*
		 * An unusable attribute map, a core of another version or a
		 * bad checksum: the reference's "would have cleared", the
		 * inode kept (and unreadable) all the same -- but it reads
		 * the content first, and content it gives up on costs the
		 * inode as it would have otherwise.
		 */
		/* the library checks a checksum from version 3 on */
		bool crc_refused = crc_bad && d->di_version >= 3;
		bool content_ok;

		c->unmapped = attr_map_bad;
		content_ok = check_content(c, ch, bit, &ip, &del);
		c->unmapped = false;
		if (!content_ok) {
			ch->used &= ~(1ull << bit);
			mark_cleared(c, ch, bit);
			goto out;
		}
		uint64_t readable = ~ch->unreadable & (1ull << bit);

		ch->rebuild &= ~(1ull << bit);
		/*
		 * A directory phase 3 could read nothing of but kept is one
		 * the reference's phase 4 finds in use all the same ("imap
		 * claims in-use inode N is free") -- when it cannot load it
		 * for its attribute fork, too.
		 */
		if (!attr_map_bad)
			ch->revived &= ~(1ull << bit);
		keep_cleared(c, ch, bit, ip.mode, p3_disk_nlink(d));
		if (d->di_version == 0)
			ch->v0core |= 1ull << bit;
		/*
		 * The version alone does not stop the reference's library
		 * from loading the inode in phases 6 and 7: only what stops
		 * it for any inode (a fork its verifiers refuse) does.
		 */
		if (crc_refused) {
			/* refused for the checksum, before any fork */
			ch->unreadable |= 1ull << bit;
			ch->btree_refused &= ~(1ull << bit);
			c->dhdr.sf_badino = NULLFSINO;
		} else if (!attr_map_bad) {
			ch->unreadable &= ~readable;
		}
		/*
		 * A directory whose attribute fork or checksum is refused:
		 * the reference reads its content before its verdict, and so
		 * knows its parent when phase 6 reaches it from there (its
		 * entries stay unread: keep_cleared dropped them).  But a
		 * short-form directory the kernel's verifier refuses for an
		 * inode number, which the reference's library names each
		 * time it fails to load it, has its entries and parent
		 * unread.
		 */
		if (inode_is_dir(&ip) && c->dhdr.dir == c->ino &&
		    (attr_map_bad || crc_refused ||
		     c->dhdr.sf_badino != NULLFSINO)) {
			if (c->dhdr.sf_badino != NULLFSINO)
				c->dhdr.dotdot = NULLFSINO;
			im_dir_add(r->imap, &c->dhdr, &c->edges);
		}
		goto out;
	}
	/* the content last, as the reference: the counters are said first */
	if (!check_content(c, ch, bit, &ip, &del)) {
		ch->used &= ~(1ull << bit);
		mark_cleared(c, ch, bit);
		goto out;
	}
	if (empty_leaf != NULLFSBLOCK || c->bmbt_dup) {
		/*
		 * The reference clears it on its second look (phase 4): the
		 * blocks stay claimed and the counters were said as above.
		 * A bmbt block claimed twice is one of its duplicate blocks
		 * then, and the data fork bad.
		 */
		struct rp_args a = RP_ARGS_INIT(OBJ_INODE);

		a.obj.ino = c->ino;
		a.obj.agno = c->agno;
		a.field = "data";
		a.found = empty_leaf;
		if (empty_leaf != NULLFSBLOCK)
			rp_say(c->out, PR_RP_BMBT_EMPTY_LEAF, &a);
		else
			say_ino(c, PR_RP_DATA_FORK_BAD, 0, 0);
		ch->used &= ~(1ull << bit);
		ch->late |= 1ull << bit;
		mark_cleared(c, ch, bit);
		c->edges.n = 0;
		goto out;
	}
	if (inode_is_dir(&ip))
		im_dir_add(r->imap, &c->dhdr, &c->edges);
	if (c->unlinked_bad) {
		say_cleared(c);		/* said, and kept */
		forget_reflink(ch, bit);
	}
out:
	if (((ch->used >> bit) & 1) && !((ch->cleared >> bit) & 1) &&
	    !((ch->revived >> bit) & 1))
		mark_kept(c);
	c->ip = NULL;
	extents_free(&del);
	extents_free(&ael);
	inode_release(&ip);
}

/* Every inode of one chunk, cluster by cluster. */
void p3_process_chunk(struct p3ag *c, struct im_chunk *ch, uint64_t holes)
{
	struct repair *r = c->r;
	const struct fs_geom *g = &r->fs->geo;
	xfs_agino_t startino = ch->startino;
	uint64_t punched = punched_clusters(c, ch, holes);

	for (unsigned i = 0; i < XFS_INODES_PER_CHUNK; i++) {
		if (!(punched & (1ull << i)))
			continue;
		c->ino = agino_to_ino(g, c->agno, startino + i);
		say_ino(c, PR_RP_CLUSTER_SPARSE, 0, 0);
		ch->used &= ~(1ull << i);
		ch->ifree |= 1ull << i;
	}
	holes |= punched;

	for (unsigned i = 0; i < XFS_INODES_PER_CHUNK;) {
		struct fs_buf *bp;
		uint32_t off;
		xfs_ino_t ino = agino_to_ino(g, c->agno, startino + i);
		unsigned n;

		if (holes & (1ull << i)) {
			i++;
			continue;
		}
		/* the rest of this inode's cluster, in one buffer */
		if (inode_read_cluster(r->fs, ino, NULL, &bp, &off)) {
			c->ino = ino;
			say_ino(c, PR_RP_INODE_CLEARED, 0, 0);
			i++;
			continue;
		}
		n = (bp->len - off) >> g->inodelog;
		for (unsigned k = 0; k < n && i < XFS_INODES_PER_CHUNK;
		     k++, i++) {
			if (holes & (1ull << i))
				continue;
			c->ino = agino_to_ino(g, c->agno, startino + i);
			p3_process_inode(c, ch, i, bp->data + off +
					 ((size_t)k << g->inodelog));
		}
		buf_release(bp);
		prog_add(c->agno, n);
	}
}

/* Add one record to the extra chunks. */
static int extra_add(struct p3ag *c, const struct inobt_irec *irec)
{
	struct inobt_irec *nv = realloc(c->extra,
					(c->nextra + 1) * sizeof(*nv));

	if (!nv)
		return -1;
	c->extra = nv;
	c->extra[c->nextra++] = *irec;
	return 0;
}

static int fino_only(void *priv, xfs_agnumber_t agno,
		     const struct inobt_irec *irec)
{
	struct p3ag *c = priv;
	const struct rp_ag *ag = &c->r->ags[agno];

	for (size_t i = 0; i < ag->nfino_seeds; i++)
		if (ag->fino_seeds[i] == irec->startino)
			return extra_add(c, irec);
	return 0;
}

static int irec_cmp(const void *pa, const void *pb)
{
	const struct inobt_irec *a = pa, *b = pb;

	return a->startino < b->startino ? -1 : a->startino > b->startino;
}

/*
 * The extra chunks of one AG: for AG 0, the root inode's chunk when no
 * inobt record lists it -- the reference stands in a record with the
 * root, realtime bitmap and summary inodes used and the rest free -- and
 * the records only the finobt has, as the finobt has them.
 */
static void extras_init(struct p3ag *c)
{
	struct repair *r = c->r;
	const struct fs_geom *g = &r->fs->geo;

	if (c->agno == 0 && r->root_chunk_made) {
		xfs_agino_t root = ino_to_agino(g, r->fs->sb.rootino);
		struct inobt_irec irec = {
			.startino = root & ~(xfs_agino_t)
				    (XFS_INODES_PER_CHUNK - 1),
		};
		uint64_t used = 0;

		for (unsigned i = 0; i < 3; i++)
			if (root - irec.startino + i < XFS_INODES_PER_CHUNK)
				used |= 1ull << (root - irec.startino + i);
		irec.free = ~used;
		extra_add(c, &irec);
	}
	if (r->ags[c->agno].nfino_seeds && !r->ags[c->agno].hdr_bad)
		ag_iter_fino_chunks(r->fs, c->agno, fino_only, c, NULL);
	if (c->nextra)
		qsort(c->extra, c->nextra, sizeof(*c->extra), irec_cmp);
}

static int take_chunk(struct p3ag *c, const struct inobt_irec *irec,
		      bool extra);

/* The extra chunks that come before an inobt record at startino. */
static int take_extras(struct p3ag *c, uint64_t before)
{
	while (c->next_extra < c->nextra &&
	       c->extra[c->next_extra].startino < before)
		if (take_chunk(c, &c->extra[c->next_extra++], true))
			return -1;
	return 0;
}

static int take_chunk(struct p3ag *c, const struct inobt_irec *irec,
		      bool extra)
{
	xfs_agnumber_t agno = c->agno;
	const struct im_ag *ag = &c->r->imap->ags[agno];
	uint64_t holes = rp_irec_holes(irec);
	struct im_chunk *ch;

	/*
	 * A record overlapping the one before (a copy, most often) is not
	 * taken, as the reference does not: its inodes are the other
	 * record's, and processing them twice would claim their blocks
	 * twice.  (Phase 2 said the inode btrees cannot be trusted.)
	 */
	if (ag->n && irec->startino >= ag->v[ag->n - 1].startino &&
	    irec->startino < (uint64_t)ag->v[ag->n - 1].startino +
			     XFS_INODES_PER_CHUNK)
		return 0;
	ch = im_add_chunk(c->r->imap, agno, irec->startino, holes,
			  irec->free);
	if (!ch)
		return -1;
	if (extra)
		rp_chunk_known(c->r, agno, irec->startino, holes);
	else if (holes != irec->holes)
		rp_chunk_whole(c->r, agno, irec->startino);
	p3_process_chunk(c, ch, holes);
	return 0;
}

static int chunk_fn(void *priv, xfs_agnumber_t agno,
		    const struct inobt_irec *irec)
{
	struct p3ag *c = priv;

	if (rp_ino_rec_refused(c->r, agno, irec))
		return 0;	/* uncertain inodes: only discovery finds them */
	if (take_extras(c, (uint64_t)irec->startino + XFS_INODES_PER_CHUNK))
		return -1;
	return take_chunk(c, irec, false);
}

void p3ag_init(struct p3ag *c, struct repair *r, xfs_agnumber_t agno,
	       struct rp_out *out)
{
	memset(c, 0, sizeof(*c));
	c->r = r;
	c->agno = agno;
	c->out = out;
	findings_init(&c->fl);
}

void p3ag_fini(struct p3ag *c)
{
	flush_claims(c);
	free(c->bmbt);
	free(c->mine);
	im_edges_free(&c->edges);
	findings_free(&c->fl);
	free(c->extra);
}

struct p3 {
	struct rp_seq		seq;
	struct rp_capture	*caps;	/* at once: each AG's, held back */
};

static void scan_ag(struct repair *r, xfs_agnumber_t agno, void *arg)
{
	struct p3 *p = arg;
	struct p3ag c;

	if (p->caps) {
		/* a run that will be undone need not go on */
		if (p3_spec_conflict())
			return;
		rp_capture_begin(&p->caps[agno]);
	}
	p3ag_init(&c, r, agno, &p->seq.outs[agno]);
	rp_log(c.out, "        - agno = %u\n", agno);
	extras_init(&c);
	/* (a skipped AG's chunks are found only by discovery) */
	if (r->ags[agno].sum.agi_ok && !r->ags[agno].hdr_bad)
		ag_iter_chunks(r->fs, agno, chunk_fn, &c, NULL);
	take_extras(&c, UINT64_MAX);
	im_sort(r->imap, agno);
	p3ag_fini(&c);
	if (p->caps)
		rp_capture_end();
	else
		rp_seq_done(&p->seq, agno);
}

/*
 * The AGs walked at once, as if one after the other (p3_spec_begin):
 * each AG's messages and findings held back until all are done.  True
 * if the run stands (then they are passed on, in AG order); false if it
 * was undone -- block states, claims, the inode map and what was held
 * back -- for a run in turn.
 */
static bool scan_at_once(struct repair *r, struct p3 *p)
{
	xfs_agnumber_t agcount = r->fs->geo.agcount;
	bool need_root = r->need_root, need_rbm = r->need_rbm,
	     need_rsum = r->need_rsum;
	struct sm_mark *mark;
	size_t *nfound;
	bool undo;

	if (agcount < 2 || r->nthreads < 2 || r->fs->sb.rblocks)
		return false;
	mark = sm_mark(r->smap);
	nfound = calloc(agcount, sizeof(*nfound));
	p->caps = calloc(agcount, sizeof(*p->caps));
	if (!mark || !nfound || !p->caps || !p3_spec_begin(r)) {
		free(mark);
		free(nfound);
		free(p->caps);
		p->caps = NULL;
		return false;
	}
	for (xfs_agnumber_t agno = 0; agno < agcount; agno++)
		nfound[agno] = r->ags[agno].nfound;
	rp_run_ags(r, scan_ag, p);
	undo = p3_spec_end(r, p3_spec_conflict());
	for (xfs_agnumber_t agno = 0; agno < agcount; agno++) {
		if (undo) {
			rp_capture_free(&p->caps[agno]);
			rp_out_free(&p->seq.outs[agno]);
			r->ags[agno].nfound = nfound[agno];
		} else {
			rp_capture_commit(&p->caps[agno]);
			rp_seq_done(&p->seq, agno);
		}
	}
	if (undo) {
		sm_rewind(r->smap, mark);
		im_destroy(r->imap);
		r->imap = im_create(&r->fs->geo);
		if (!r->imap)
			rp_fatal(r, "no memory for the inode map\n");
		r->need_root = need_root;
		r->need_rbm = need_rbm;
		r->need_rsum = need_rsum;
	}
	free(mark);
	free(nfound);
	free(p->caps);
	p->caps = NULL;
	r->p3_run = undo ? P3_UNDONE : P3_AT_ONCE;
	return !undo;
}

void phase3(struct repair *r)
{
	struct p3 p;
	uint64_t total = 0;
	unsigned nthreads;

	rp_log(NULL, "Phase 3 - for each AG...\n");
	rp_log(NULL, "        - scan (but don't clear) agi unlinked lists...\n");
	prog_set(PROG_SCAN_UNLINKED, r->fs->geo.agcount);
	prog_end();
	/*
	 * The records of inobt leaves the reference's verifier refused are
	 * its uncertain inodes: it says so for each AG that has some, then
	 * looks for their chunks -- in vain, as each chunk starts where the
	 * uncertain record it is checking does and so seems already taken.
	 */
	for (xfs_agnumber_t agno = 0; agno < r->fs->geo.agcount; agno++)
		if (r->ags[agno].ino_uncertain) {
			struct rp_args a = RP_ARGS_INIT(OBJ_INOBT);

			a.obj.agno = agno;
			rp_say(NULL, PR_RP_INO_OUTSIDE, &a);
		}
	rp_log(NULL, "        - process known inodes and perform inode discovery...\n");
	r->imap = im_create(&r->fs->geo);
	if (!r->imap || rp_seq_init(&p.seq, r->fs->geo.agcount))
		rp_fatal(r, "no memory for the inode map\n");
	p3_meta_prepare(r);
	for (xfs_agnumber_t agno = 0; agno < r->fs->geo.agcount; agno++)
		total += r->ags[agno].sum.icount;
	prog_set(PROG_PROCESS_INODES, total);
	/*
	 * An inode's claims are held to those of the inodes read before
	 * it: the reference reads the AGs one after the other unless it
	 * strides over them (then in parallel, and so shall we).  One after
	 * the other is what the AGs give when walked at once while none
	 * looks at a block another looked at -- the common case, and the
	 * run that is tried first; else they are walked again in turn.
	 */
	p.caps = NULL;
	if (r->o.ag_stride > 0 || !scan_at_once(r, &p)) {
		nthreads = r->nthreads;
		if (r->o.ag_stride <= 0)
			r->nthreads = 1;
		rp_run_ags(r, scan_ag, &p);
		r->nthreads = nthreads;
	}
	rp_seq_fini(&p.seq);
	prog_end();
	rp_log(NULL, "        - process newly discovered inodes...\n");
	prog_set(PROG_NEW_INODES, r->fs->geo.agcount);
	rp_discover(r);
	prog_end();
	p3_late_dups(r);
}
