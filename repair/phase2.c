/*
 * Phase 2: the log, the superblock copies, the AG headers and the AG
 * btrees.
 *
 * What it checks: that the log is clean; each AG's superblock copy
 * (usable, same geometry and features as the primary, nothing after its
 * last field, no quota fields mkfs never sets); each AG with libfs's
 * ag_check() -- the AGF, AGI and AGFL on their own and against the trees
 * they root, the free space, inode, rmap and refcount btrees, and every
 * claim on AG space by AG metadata; then the superblock's summary
 * counters against what the trees hold; and that the inobt (or, failing
 * it, the finobt) knows the root inode's chunk.  An AG whose headers
 * would be reset is skipped as the reference skips it: its trees claim
 * nothing in the space map.  An inobt or finobt the reference would not
 * trust (inobt_suspect()) sets r->bad_ino_btree: phases 6 and 7 are
 * skipped.  Records of an inobt leaf the reference's verifier refuses
 * are its uncertain inodes, not chunks (note_refused_leaves(); phase 3
 * says so), and an inode btree root it reads at a height other than its
 * own is said its way (say_ino_root_at_agi_level()).
 *
 * What it builds for later phases: r->ags[] (what each AG's headers and
 * trees said, the on-disk rmapbt and refcountbt records) and r->smap
 * with every claim of AG metadata and the free extents (agscan.c).  AGs
 * are checked in parallel; their messages are printed in AG order.
 *
 * What stays true: nothing is written; a damaged header or tree yields
 * findings and the walks go on where they safely can.
 */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uuid/uuid.h>
#include "format/crc32c.h"
#include "progress.h"
#include "repair.h"
#include "sbcheck.h"
#include "workers.h"

struct p2 {
	struct rp_seq	seq;
};

static void say_ag(struct rp_out *o, enum fs_problem code,
		   xfs_agnumber_t agno)
{
	struct rp_args a = RP_ARGS_INIT(OBJ_SB);

	a.obj.agno = agno;
	rp_say(o, code, &a);
}

/*
 * The reference's rule for where a copy's fields end, by the version
 * that copy itself claims: the later the version and features, the more
 * fields (a copy whose version number was damaged to something older
 * than v5 has bytes past its end that are not zero).
 */
static size_t sb_valid_bytes(const struct fs_sb *sb)
{
	if (sb_is_v5(sb) && sb_has_metauuid(sb))
		return offsetof(struct xfs_dsb, sb_meta_uuid) + sizeof(xfs_uuid_t);
	if (sb_is_v5(sb))
		return offsetof(struct xfs_dsb, sb_lsn) + sizeof(be64);
	if (sb->versionnum & XFS_SB_VERSION_MOREBITSBIT)
		return offsetof(struct xfs_dsb, sb_bad_features2) + sizeof(be32);
	if (sb->versionnum & XFS_SB_VERSION_LOGV2BIT)
		return offsetof(struct xfs_dsb, sb_logsunit) + sizeof(be32);
	if (sb->versionnum & XFS_SB_VERSION_SECTORBIT)
		return offsetof(struct xfs_dsb, sb_logsectsize) + sizeof(be16);
	return offsetof(struct xfs_dsb, sb_dirblklog) + 1;
}

static bool same_geometry(const struct fs_sb *a, const struct fs_sb *b)
{
	return a->blocksize == b->blocksize && a->dblocks == b->dblocks &&
	       a->rblocks == b->rblocks && a->rextents == b->rextents &&
	       a->logstart == b->logstart && a->rextsize == b->rextsize &&
	       a->agblocks == b->agblocks && a->agcount == b->agcount &&
	       a->rbmblocks == b->rbmblocks && a->logblocks == b->logblocks &&
	       a->sectsize == b->sectsize && a->inodesize == b->inodesize;
}

/* A quota inode field mkfs leaves at zero (NULLFSINO in memory). */
static bool quota_ino_set(xfs_ino_t ino)
{
	return ino != 0 && ino != NULLFSINO;
}

static void feature_mismatch(struct rp_out *o, enum fs_problem code,
			     xfs_agnumber_t agno, uint32_t prim, uint32_t sec)
{
	struct rp_args a = RP_ARGS_INIT(OBJ_SB);

	a.obj.agno = agno;
	a.expected = prim;
	a.found = sec;
	rp_say(o, code, &a);
}

/*
 * One AG's superblock copy, the reference's way (and its words).
 * Returns true when the copy is bad enough that the reference would
 * rewrite it before using the AG.
 */
static bool check_sb_copy(struct repair *r, xfs_agnumber_t agno,
			  struct rp_out *o)
{
	const struct fs_sb *p = &r->fs->sb;
	struct fs_buf *bp;
	struct fs_sb sb;
	struct fs_finding why;
	enum sbc_err e;
	bool bad = false, garbage = false;
	struct rp_args a = RP_ARGS_INIT(OBJ_SB);

	a.obj.agno = agno;
	if (fs_read_sb(r->fs, agno, NULL, &bp))
		rp_fatal(r, "can't get %s for ag %u\n", "root superblock", agno);
	e = sbc_check_why(bp->data, bp->len, agno == 0, &sb, NULL, &why);
	if (e == SBC_BAD_MAGIC) {
		const struct xfs_dsb *d = (const void *)bp->data;

		/* the reference's superblock verifier speaks first */
		a.found = get_be32(d->sb_magicnum);
		rp_say(o, PR_RP_SB_COPY_NOT_XFS, &a);
	}
	if (e != SBC_OK) {
		a.s1 = sbc_strerror(e);
		a.field = why.field;
		a.expected = why.expected;
		a.found = why.found;
		rp_say(o, PR_RP_SB_SECONDARY_BAD, &a);
		a.field = NULL;
		a.expected = a.found = 0;
		bad = true;
	}
	if (!same_geometry(p, &sb)) {
		a.s1 = sbc_strerror(SBC_SB_GEO_MISMATCH);
		rp_say(o, PR_RP_SB_SECONDARY_CONFLICT, &a);
		bad = true;
	}
	if (sb.magicnum == XFS_SB_MAGIC) {
		const uint8_t *raw = bp->data;

		for (size_t i = sb_valid_bytes(&sb); i < bp->len; i++)
			if (raw[i]) {
				garbage = true;
				break;
			}
		if (garbage) {
			a.s1 = agno ? "secondary" : "primary";
			rp_say(o, PR_RP_SB_GARBAGE_TAIL, &a);
		}
		if (sb.flags && !garbage) {
			rp_say(o, PR_RP_SB_BAD_FLAGS, &a);
			bad = true;
		}
		if (sb.inprogress == 1 && !garbage) {
			if (quota_ino_set(sb.uquotino)) {
				rp_say(o, PR_RP_SB_UQUOTINO, &a);
				bad = true;
			}
			if (quota_ino_set(sb.gquotino)) {
				rp_say(o, PR_RP_SB_GQUOTINO, &a);
				bad = true;
			}
			if (quota_ino_set(sb.pquotino)) {
				rp_say(o, PR_RP_SB_PQUOTINO, &a);
				bad = true;
			}
			if (sb.qflags) {
				rp_say(o, PR_RP_SB_QFLAGS, &a);
				bad = true;
			}
		}
		if (!(sb.versionnum & XFS_SB_VERSION_DALIGNBIT) &&
		    (sb.unit || sb.width) && !garbage) {
			rp_say(o, PR_RP_SB_BAD_STRIPE, &a);
			bad = true;
		}
		/* without the sector bit, every sector is 512 bytes */
		if (!(sb.versionnum & XFS_SB_VERSION_SECTORBIT) &&
		    (sb.sectsize != BBSIZE || sb.sectlog != BBSHIFT ||
		     sb.logsectsize || sb.logsectlog) && !garbage) {
			rp_say(o, PR_RP_SB_BAD_SECTOR_FIELDS, &a);
			bad = true;
		}
		if (agno) {
			if (p->features_compat != sb.features_compat)
				feature_mismatch(o, PR_RP_SB_COMPAT_MISMATCH,
						 agno, p->features_compat,
						 sb.features_compat);
			if ((p->features_incompat ^ sb.features_incompat) &
			    ~XFS_SB_FEAT_INCOMPAT_NEEDSREPAIR)
				feature_mismatch(o, PR_RP_SB_INCOMPAT_MISMATCH,
						 agno, p->features_incompat,
						 sb.features_incompat);
			if (p->features_ro_compat != sb.features_ro_compat)
				feature_mismatch(o, PR_RP_SB_ROCOMPAT_MISMATCH,
						 agno, p->features_ro_compat,
						 sb.features_ro_compat);
			if (p->features_log_incompat != sb.features_log_incompat)
				feature_mismatch(o, PR_RP_SB_LOGINCOMPAT_MISMATCH,
						 agno, p->features_log_incompat,
						 sb.features_log_incompat);
		} else if (sb_has_needsrepair(&sb)) {
			rp_say(o, PR_RP_SB_NEEDSREPAIR, &a);
		}
	}
	buf_release(bp);
	return bad;
}

/* Did a finding say the header itself is not usable as it stands? */
static bool agf_header_code(enum fs_problem c)
{
	return c == PR_AGF_BAD_MAGIC || c == PR_AGF_BAD_VERSION ||
	       c == PR_AGF_BAD_SEQNO || c == PR_AGF_BAD_LENGTH ||
	       c == PR_AGF_BAD_UUID;
}

static bool agi_header_code(enum fs_problem c)
{
	return c == PR_AGI_BAD_MAGIC || c == PR_AGI_BAD_VERSION ||
	       c == PR_AGI_BAD_SEQNO || c == PR_AGI_BAD_LENGTH ||
	       c == PR_AGI_BAD_UUID;
}

/* Is the inode btree block at daddr a leaf (its own header says)? */
static bool inobt_leaf(struct repair *r, xfs_daddr_t daddr)
{
	const struct fs_geom *g = &r->fs->geo;
	struct fs_buf *bp;
	bool leaf;

	if (daddr == (xfs_daddr_t)-1 ||
	    fs_read_blocks(r->fs, daddr_to_fsb(g, daddr), 1, NULL, NULL, &bp))
		return false;
	leaf = bp->len >= 8 && load_be16((const uint8_t *)bp->data + 4) == 0;
	buf_release(bp);
	return leaf;
}

/*
 * Would the reference call this AG's inode btrees too corrupted to trust
 * for the namespace walk (its bad_ino_btree, which skips phases 6 and 7)?
 * It does for an inobt or finobt block with a bad header (magic, level,
 * record count), for a leaf its read verifier rejects (the whole block
 * is then suspect), and for a record it cannot take as it stands: a
 * start out of line, a chunk overlapping another or blocks already
 * claimed, a sparse hole not marked free, a finobt record whose inodes
 * are not free in the inobt.  Counts that disagree, records out of order
 * and a finobt record the inobt lacks are not enough.
 */
static int block_read_error(struct repair *r, const struct fs_findings *fl,
			    size_t i);

static bool inobt_suspect(struct repair *r, const struct fs_findings *fl,
			  const struct ag_summary *s)
{
	if (s->chunk_conflicts || s->chunk_overlaps)
		return true;
	for (size_t i = 0; i < fl->n; i++) {
		const struct fs_finding *f = &fl->v[i];

		if (f->obj.type != OBJ_INOBT && f->obj.type != OBJ_FINOBT)
			continue;
		switch (f->code) {
		case PR_BTREE_BAD_MAGIC:
		case PR_BTREE_BAD_LEVEL:
		case PR_BTREE_BAD_NUMRECS:
		case PR_INOBT_BAD_STARTINO:
		case PR_INOBT_HOLE_NOT_FREE:
			return true;
		case PR_FINOBT_REC_MISMATCH:
			if (f->field && (!strcmp(f->field, "free") ||
					 !strcmp(f->field, "holemask")))
				return true;
			break;
		case PR_BTREE_BAD_CRC:
		case PR_BTREE_BAD_UUID:
		case PR_BTREE_BAD_BLKNO:
		case PR_BTREE_BAD_OWNER:
		case PR_BTREE_BAD_SIBLING:
			if (block_read_error(r, fl, i) &&
			    inobt_leaf(r, f->obj.daddr))
				return true;
			break;
		default:
			break;
		}
	}
	return false;
}

/*
 * Does the reference skip an inode btree record that starts at start
 * ("bad starting inode #", "bad ending inode #"): its chunk does not lie
 * inside the AG's inodes?
 */
static bool irec_start_skipped(const struct fs_geom *g, xfs_agnumber_t agno,
			       xfs_agino_t start)
{
	xfs_agino_t end = start + XFS_INODES_PER_CHUNK - 1;

	return !agino_valid(g, agno, start) ||
	       agino_to_agbno(g, start) < ag_first_block(g) ||
	       end < start || !agino_valid(g, agno, end);
}

/*
 * Does the reference take an inode btree record that starts at start as
 * uncertain inodes: one it says is "badly aligned" but does not skip?
 */
static bool irec_start_uncertain(const struct fs_geom *g, xfs_agnumber_t agno,
				 xfs_agino_t start)
{
	return !irec_start_skipped(g, agno, start) &&
	       !agino_chunk_aligned(g, start);
}

/*
 * An inode btree record whose start the reference will not take, in its
 * words: "badly aligned" for a start off the chunk alignment (or 0), then
 * "bad starting inode #" or "bad ending inode #" for a chunk that does
 * not lie inside the AG, which skips the record.
 */
static void say_bad_startino(struct repair *r, xfs_agnumber_t agno,
			     struct rp_out *o, const struct fs_finding *f)
{
	const struct fs_geom *g = &r->fs->geo;
	xfs_agino_t start = (xfs_agino_t)f->found;
	xfs_agino_t end = start + XFS_INODES_PER_CHUNK - 1;
	struct rp_args a = RP_ARGS_INIT(OBJ_INOBT);
	bool said = false;

	a.obj = f->obj;
	a.obj.agno = agno;
	a.s1 = f->obj.type == OBJ_FINOBT ? "finobt" : "inobt";
	a.found = start;
	a.obj.ino = agino_to_ino(g, agno, start);
	if (start == 0 || !agino_chunk_aligned(g, start)) {
		a.field = "aligned";
		rp_say(o, PR_INOBT_BAD_STARTINO, &a);
		said = true;
	}
	if (!agino_valid(g, agno, start) ||
	    agino_to_agbno(g, start) < ag_first_block(g)) {
		a.field = "start";
	} else if (end < start || !agino_valid(g, agno, end)) {
		a.field = "end";
		a.found = end;
		a.obj.ino += XFS_INODES_PER_CHUNK - 1;
	} else if (said) {
		return;
	} else {
		a.field = f->field;	/* libfs's words */
	}
	rp_say(o, PR_INOBT_BAD_STARTINO, &a);
}

/* How the reference names an AG btree in its block messages. */
static const char *bt_name(enum fs_objtype t, const struct btree_ops **ops)
{
	switch (t) {
	case OBJ_BNOBT:
		*ops = &bnobt_ops;
		return "btbno";
	case OBJ_CNTBT:
		*ops = &cntbt_ops;
		return "btcnt";
	case OBJ_INOBT:
		*ops = &inobt_ops;
		return "inobt";
	case OBJ_FINOBT:
		*ops = &finobt_ops;
		return "finobt";
	case OBJ_RMAPBT:
		*ops = &rmapbt_ops;
		return "btrmap";
	case OBJ_REFCBT:
		*ops = &refcountbt_ops;
		return "refcount btree";
	default:
		*ops = NULL;
		return NULL;
	}
}

/*
 * Is the checksum of the btree block at daddr wrong?  The kernel's read
 * verifiers check it before anything else, a block of another kind
 * included (a bad magic number is then a bad checksum first).  crc_off:
 * where the checksum lies, XFS_BTREE_SBLOCK_CRC_OFF for the AG btrees,
 * XFS_BTREE_LBLOCK_CRC_OFF for the bmbt.
 */
bool rp_block_crc_bad(struct fs *fs, xfs_daddr_t daddr, size_t crc_off)
{
	struct fs_buf *bp;
	bool bad;

	if (daddr == (xfs_daddr_t)-1 ||
	    fs_read_blocks(fs, daddr_to_fsb(&fs->geo, daddr), 1, NULL, NULL,
			   &bp))
		return false;
	bad = !xfs_cksum_verify(bp->data, bp->len, crc_off);
	buf_release(bp);
	return bad;
}

/* Would the reference's read verifier refuse the block of finding i? */
static int block_read_error(struct repair *r, const struct fs_findings *fl,
			    size_t i)
{
	const struct fs_geom *g = &r->fs->geo;
	const struct btree_ops *ops;
	int err = 0;

	bt_name(fl->v[i].obj.type, &ops);
	for (size_t k = 0; k < fl->n; k++) {
		const struct fs_finding *f = &fl->v[k];

		if (f->obj.daddr != fl->v[i].obj.daddr ||
		    f->obj.type != fl->v[i].obj.type)
			continue;
		switch (f->code) {
		case PR_BTREE_BAD_CRC:
			return -EBADMSG;	/* the kernel's EFSBADCRC */
		case PR_BTREE_BAD_MAGIC:
			if (rp_block_crc_bad(r->fs, f->obj.daddr,
					     XFS_BTREE_SBLOCK_CRC_OFF))
				return -EBADMSG;
			err = -EUCLEAN;	/* EFSCORRUPTED */
			break;
		case PR_BTREE_BAD_UUID:
		case PR_BTREE_BAD_BLKNO:
		case PR_BTREE_BAD_OWNER:
			err = -EUCLEAN;	/* EFSCORRUPTED */
			break;
		case PR_BTREE_BAD_LEVEL:
			/* the verifier's bound, not the parent's word */
			if (ops && f->found >= btree_maxlevels(g, ops))
				err = -EUCLEAN;	/* EFSCORRUPTED */
			break;
		case PR_BTREE_BAD_NUMRECS:
			/* more than fit (the walk's other finding: too few) */
			if (f->found > f->expected)
				err = -EUCLEAN;	/* EFSCORRUPTED */
			break;
		case PR_BTREE_BAD_SIBLING:
			if (!(f->flags & FND_EXPECTED))
				err = -EUCLEAN;	/* EFSCORRUPTED */
			break;
		default:
			break;
		}
	}
	return err;
}

/* Is there a later finding of the same code on the same block? */
static bool said_again(const struct fs_findings *fl, size_t i)
{
	for (size_t k = i + 1; k < fl->n; k++)
		if (fl->v[k].code == fl->v[i].code &&
		    fl->v[k].obj.daddr == fl->v[i].obj.daddr &&
		    fl->v[k].obj.type == fl->v[i].obj.type)
			return true;
	return false;
}

/*
 * An rmapbt or refcountbt block its verifier passes at a level other
 * than expected: the reference goes on to read it as a block of the
 * level it expected, and having found the header wrong, says its record
 * count against that level's bounds whatever it is ("bad btree nrecs").
 * Unless a finding on the count itself says it.
 */
static void level_nrecs(struct repair *r, struct rp_out *o,
			const struct fs_findings *fl, size_t i,
			const struct rp_args *level)
{
	const struct fs_finding *f = &fl->v[i];
	const struct fs_geom *g = &r->fs->geo;
	const struct btree_ops *ops;
	struct rp_args a = *level;
	struct fs_buf *bp;
	bool leaf = f->expected == 0;

	for (size_t k = 0; k < fl->n; k++)
		if (fl->v[k].code == PR_BTREE_BAD_NUMRECS &&
		    fl->v[k].obj.daddr == f->obj.daddr &&
		    fl->v[k].obj.type == f->obj.type)
			return;
	bt_name(f->obj.type, &ops);
	if (!ops || fs_read_blocks(r->fs, daddr_to_fsb(g, f->obj.daddr), 1,
				   NULL, NULL, &bp))
		return;
	a.field = "ag numrecs";
	a.found = load_be16((const uint8_t *)bp->data +
			    offsetof(struct xfs_btree_sblock, bb_numrecs));
	a.v2 = btree_minrecs(g, ops, leaf);
	a.v3 = btree_maxrecs(g, ops, leaf);
	a.expected = a.v3;
	buf_release(bp);
	rp_say(o, PR_BTREE_BAD_NUMRECS, &a);
}

/*
 * An rmapbt block's record count the reference does not hold against
 * it: where its verifier refused the block and the level is wrong too
 * (the reference stops at the level), and the root's count below the
 * minimum (it holds only other blocks to that).
 */
static bool rmap_nrecs_unsaid(struct repair *r, xfs_agnumber_t agno,
			      const struct fs_findings *fl, size_t i, int err)
{
	const struct fs_finding *f = &fl->v[i];
	struct btree_root root;
	struct fs_buf *bp;
	struct fs_agf agf;

	for (size_t k = 0; err && k < fl->n; k++)
		if (fl->v[k].code == PR_BTREE_BAD_LEVEL &&
		    fl->v[k].obj.daddr == f->obj.daddr &&
		    fl->v[k].obj.type == f->obj.type)
			return true;
	if (f->found >= f->expected ||
	    ag_read_agf(r->fs, agno, NULL, &bp, &agf))
		return false;
	buf_release(bp);
	agf_btree_root(&agf, agno, BT_RMAP, &root);
	return agb_to_daddr(&r->fs->geo, agno, root.root) == f->obj.daddr;
}

/*
 * An AG btree block's header, in the reference's words: "btree block
 * A/B is suspect, error -N" first when its read verifier refuses the
 * block, then a bad magic number, a level other than its parent gives
 * ("expected level"), and a record count out of bounds ("bad btree
 * nrecs", or for the inode btrees "dubious ... btree block header").
 * Returns false for a finding it does not word.
 */
static bool say_bt_header(struct repair *r, xfs_agnumber_t agno,
			  struct rp_out *o, const struct fs_findings *fl,
			  size_t i)
{
	const struct fs_finding *f = &fl->v[i];
	const struct fs_geom *g = &r->fs->geo;
	const struct btree_ops *ops;
	const char *name = bt_name(f->obj.type, &ops);
	struct rp_args a = RP_ARGS_INIT(OBJ_NONE);
	bool first = true;
	int err;

	if (!name || f->obj.daddr == (xfs_daddr_t)-1)
		return false;
	a.obj = f->obj;
	a.obj.agno = agno;
	a.s1 = name;
	for (size_t k = 0; k < i; k++)
		if (fl->v[k].obj.daddr == f->obj.daddr &&
		    fl->v[k].obj.type == f->obj.type)
			first = false;
	err = block_read_error(r, fl, i);
	if (first && err) {
		a.field = "suspect";
		a.found = (uint64_t)(int64_t)err;
		rp_say(o, PR_RP_BT_SUSPECT, &a);
	}
	a.found = f->found;
	a.expected = f->expected;
	a.flags = f->flags;
	switch (f->code) {
	case PR_BTREE_BAD_MAGIC:
		a.field = "ag magic";
		break;
	case PR_BTREE_BAD_LEVEL:
		if (said_again(fl, i))
			return true;	/* the verifier's; the walk's follows */
		a.field = "ag level";
		if ((f->obj.type == OBJ_RMAPBT ||
		     f->obj.type == OBJ_REFCBT) && !err) {
			rp_say(o, f->code, &a);
			level_nrecs(r, o, fl, i, &a);
			return true;
		}
		break;
	case PR_BTREE_BAD_NUMRECS: {
		bool leaf = btree_maxrecs(g, ops, true) == f->expected ||
			    btree_minrecs(g, ops, true) == f->expected;

		if (said_again(fl, i))
			return true;
		if (f->obj.type == OBJ_RMAPBT &&
		    rmap_nrecs_unsaid(r, agno, fl, i, err)) {
			a.field = "ag numrecs";
			a.found = f->found;
			a.expected = f->expected;
			rp_note(f->code, &a);
			return true;
		}
		a.field = f->obj.type == OBJ_INOBT ||
			  f->obj.type == OBJ_FINOBT ? "ag dubious" :
			  "ag numrecs";
		a.v2 = btree_minrecs(g, ops, leaf);
		a.v3 = btree_maxrecs(g, ops, leaf);
		break;
	}
	case PR_BTREE_BAD_PTR:
		/*
		 * The reference reads an rmapbt or refcountbt node's
		 * children up to the first pointer outside the AG.
		 */
		if (f->obj.type != OBJ_RMAPBT && f->obj.type != OBJ_REFCBT)
			return false;
		for (size_t k = 0; k < i; k++)
			if (fl->v[k].code == f->code &&
			    fl->v[k].obj.daddr == f->obj.daddr &&
			    fl->v[k].obj.type == f->obj.type)
				return true;
		a.s1 = f->obj.type == OBJ_RMAPBT ? "rmap" : "refcount";
		a.field = NULL;
		a.flags = FND_FOUND;
		rp_say(o, PR_RP_BT_BAD_PTR, &a);
		return true;
	case PR_BTREE_BAD_CRC:
	case PR_BTREE_BAD_UUID:
	case PR_BTREE_BAD_BLKNO:
	case PR_BTREE_BAD_OWNER:
	case PR_BTREE_BAD_SIBLING:
		if (!err)
			return false;
		/* said as the block's fault (the suspect line) */
		a.field = f->field;
		rp_note(f->code, &a);
		return true;
	default:
		return false;
	}
	rp_say(o, f->code, &a);
	return true;
}

/*
 * An AG btree's root read as the reference reads it at the height its AG
 * header gives: as a block of level levels - 1 (a signed number: levels
 * 0 gives -1).  NULL when the root lies outside the AG, cannot be read,
 * is of another kind or sits at that height already; else the buffer,
 * with *want, *level and *numrecs from the block, and a->obj naming it.
 */
static struct fs_buf *root_at_hdr_level(struct repair *r,
					xfs_agnumber_t agno,
					const struct btree_root *root,
					struct rp_args *a, int64_t *want,
					unsigned *level, unsigned *numrecs)
{
	const struct fs_geom *g = &r->fs->geo;
	const struct btree_ops *ops = root->ops;
	struct fs_buf *bp;
	const uint8_t *d;

	if (!ag_extent_ok(g, agno, root->root, 1) ||
	    fs_read_agblocks(r->fs, agno, root->root, 1, ops->buf_ops, NULL,
			     &bp))
		return NULL;
	d = bp->data;
	*want = (int64_t)(int32_t)root->levels - 1;
	*level = load_be16(d + offsetof(struct xfs_btree_sblock, bb_level));
	*numrecs = load_be16(d + offsetof(struct xfs_btree_sblock,
					  bb_numrecs));
	if (load_be32(d) != ops->magic || (int64_t)*level == *want) {
		buf_release(bp);
		return NULL;
	}
	a->obj = OBJREF_INIT(ops->objtype);
	a->obj.agno = agno;
	a->obj.daddr = agb_to_daddr(g, agno, root->root);
	return bp;
}

/*
 * A root read as a node at the wrong height: its first pointer, when the
 * AG does not hold it, ends the walk ("bad btree pointer", the tree
 * named by what).  A pointer the AG holds would lead on; the reference's
 * walk is not followed there.  Only whether the block has records
 * matters: the first pointer sits at the same place whatever the count.
 */
static void say_first_ptr_outside(struct repair *r, xfs_agnumber_t agno,
				  struct rp_out *o, const struct btree_ops *ops,
				  const struct fs_buf *bp, unsigned numrecs,
				  struct rp_args *a, const char *what)
{
	const struct fs_geom *g = &r->fs->geo;
	unsigned maxr = btree_maxrecs(g, ops, false);
	uint32_t ptr;

	if (!numrecs)
		return;
	ptr = load_be32((const uint8_t *)bp->data + btree_hdr_len(ops) +
			(size_t)maxr * ops->key_len);
	if (ag_extent_ok(g, agno, ptr, 1))
		return;
	a->field = NULL;
	a->s1 = what;
	a->flags = FND_FOUND;
	a->found = ptr;
	rp_say(o, PR_RP_BT_BAD_PTR, a);
}

/*
 * An inode btree root read at the height an out-of-range AGI level gives
 * (levels 0, or more than the tree can have; root_at_hdr_level()): the
 * reference says "expected level"; a root its verifier passes it then
 * reads as a node (say_first_ptr_outside()).  Either way the inode
 * btrees are not trusted.
 */
static void say_ino_root_at_agi_level(struct repair *r, xfs_agnumber_t agno,
				      struct rp_out *o, enum btree_type type)
{
	const struct fs_geom *g = &r->fs->geo;
	struct btree_root root;
	struct rp_args a = RP_ARGS_INIT(OBJ_NONE);
	struct fs_buf *bp;
	struct fs_agi agi;
	int64_t want;
	unsigned level, numrecs;

	if (r->ags[agno].hdr_bad || ag_read_agi(r->fs, agno, NULL, &bp, &agi))
		return;
	buf_release(bp);
	agi_btree_root(&agi, agno, type, &root);
	if (root.levels >= 1 && root.levels <= btree_maxlevels(g, root.ops))
		return;
	bp = root_at_hdr_level(r, agno, &root, &a, &want, &level, &numrecs);
	if (!bp)
		return;
	a.s1 = type == BT_FINO ? "finobt" : "inobt";
	a.field = "ag level";
	a.expected = (uint64_t)want;
	a.found = level;
	rp_say(o, PR_BTREE_BAD_LEVEL, &a);
	__atomic_store_n(&r->bad_ino_btree, true, __ATOMIC_RELAXED);
	if (!buf_corrupt(bp) && want != 0)
		say_first_ptr_outside(r, agno, o, root.ops, bp, numrecs, &a,
				      type == BT_FINO ? "fino" : "ino");
	buf_release(bp);
}

/*
 * Does the reference read the inode btree root at an out-of-range AGI
 * height (say_ino_root_at_agi_level)?  It then counts that one block.
 */
static bool ino_root_off_level(struct repair *r, xfs_agnumber_t agno,
			       enum btree_type type)
{
	const struct fs_geom *g = &r->fs->geo;
	struct btree_root root;
	struct fs_buf *bp;
	struct fs_agi agi;
	bool ret;

	if (ag_read_agi(r->fs, agno, NULL, &bp, &agi))
		return false;
	buf_release(bp);
	agi_btree_root(&agi, agno, type, &root);
	if ((root.levels >= 1 && root.levels <= btree_maxlevels(g, root.ops)) ||
	    !ag_extent_ok(g, agno, root.root, 1) ||
	    fs_read_agblocks(r->fs, agno, root.root, 1, root.ops->buf_ops,
			     NULL, &bp))
		return false;
	ret = load_be32(bp->data) == root.ops->magic;
	buf_release(bp);
	return ret;
}

/* What the inobt holds of a chunk that starts at start. */
struct chunk_probe {
	xfs_agino_t	start;
	bool		twin;		/* a record that starts there too */
	bool		overlap;	/* one that starts elsewhere, inodes
					   shared */
};

static int chunk_probe_fn(void *priv, xfs_agnumber_t agno,
			  const struct inobt_irec *irec)
{
	struct chunk_probe *p = priv;

	(void)agno;
	if (irec->startino == p->start)
		p->twin = true;
	else if ((uint64_t)irec->startino + XFS_INODES_PER_CHUNK > p->start &&
		 (uint64_t)p->start + XFS_INODES_PER_CHUNK > irec->startino)
		p->overlap = true;
	return 0;
}

static struct chunk_probe probe_chunks(struct repair *r, xfs_agnumber_t agno,
				       xfs_agino_t start)
{
	struct chunk_probe p = { .start = start };

	ag_iter_chunks(r->fs, agno, chunk_probe_fn, &p, NULL);
	return p;
}

/*
 * An inode btree record's own counts against its masks, in the
 * reference's words, which name the chunk by its first inode (read back
 * from the record the finding points at) and, for a hole not marked
 * free, the hole mask.
 */
static void say_irec_counts(struct repair *r, xfs_agnumber_t agno,
			    struct rp_out *o, const struct fs_finding *f)
{
	const struct fs_geom *g = &r->fs->geo;
	const struct btree_ops *ops;
	struct rp_args a = rp_args_of(f);
	struct fs_buf *bp;

	bt_name(f->obj.type, &ops);
	if (!ops || f->obj.daddr == (xfs_daddr_t)-1 ||
	    fs_read_blocks(r->fs, daddr_to_fsb(g, f->obj.daddr), 1, NULL,
			   NULL, &bp)) {
		rp_finding(o, f);
		return;
	}
	if (btree_hdr_len(ops) + ((size_t)f->obj.index + 1) * ops->rec_len <=
	    bp->len) {
		const struct xfs_inobt_rec *rec = (const void *)
			(bp->data + btree_hdr_len(ops) +
			 (size_t)f->obj.index * ops->rec_len);

		a.v2 = get_be32(rec->ir_startino);
		a.v3 = g->has_sparse ? get_be16(rec->ir_u.sp.ir_holemask) : 0;
	}
	buf_release(bp);
	/*
	 * A finobt record's holes the reference holds to their free bits
	 * only when the inobt has no record of the chunk: else it holds
	 * them to that record's, and says nothing of a difference.
	 */
	if (f->code == PR_INOBT_HOLE_NOT_FREE && f->obj.type == OBJ_FINOBT &&
	    probe_chunks(r, agno, (xfs_agino_t)a.v2).twin) {
		rp_note_finding(f);
		return;
	}
	a.obj.agno = agno;
	a.s1 = f->obj.type == OBJ_FINOBT ? "finobt" : "inobt";
	if (f->code == PR_INOBT_BAD_FREECOUNT && f->obj.type == OBJ_FINOBT)
		a.field = "finobt freecount";
	rp_say(o, f->code, &a);
}

/* A UUID as the reference prints one (libuuid's lower-case form). */
static void uuid_text(const xfs_uuid_t *u, char out[37])
{
	uuid_unparse_lower(u->b, out);
}

/*
 * An AGF or AGI whose UUID is not the filesystem's: the reference names
 * the header's own UUID ("bad uuid U for agf N").
 */
static void say_hdr_uuid(struct repair *r, xfs_agnumber_t agno,
			 struct rp_out *o, const struct fs_finding *f)
{
	struct rp_args a = rp_args_of(f);
	struct fs_buf *bp;
	char text[37] = "";

	if (f->code == PR_AGF_BAD_UUID) {
		struct fs_agf agf;

		if (!ag_read_agf(r->fs, agno, NULL, &bp, &agf)) {
			uuid_text(&agf.uuid, text);
			buf_release(bp);
		}
	} else {
		struct fs_agi agi;

		if (!ag_read_agi(r->fs, agno, NULL, &bp, &agi)) {
			uuid_text(&agi.uuid, text);
			buf_release(bp);
		}
	}
	a.s1 = text;
	rp_say(o, f->code, &a);
}

static void say_ag_finding(struct repair *r, xfs_agnumber_t agno,
			   struct rp_out *o, const struct fs_findings *fl,
			   size_t i)
{
	const struct fs_finding *f = &fl->v[i];

	if (f->code == PR_AGF_BAD_UUID || f->code == PR_AGI_BAD_UUID) {
		say_hdr_uuid(r, agno, o, f);
	} else if (f->code == PR_AGI_BAD_LEVEL) {
		rp_finding(o, f);
		say_ino_root_at_agi_level(r, agno, o,
					  f->field &&
					  !strcmp(f->field, "free_level") ?
					  BT_FINO : BT_INO);
	} else if ((f->code == PR_AGI_IBLOCKS_MISMATCH &&
		    ino_root_off_level(r, agno, BT_INO)) ||
		   (f->code == PR_AGI_FBLOCKS_MISMATCH &&
		    ino_root_off_level(r, agno, BT_FINO))) {
		struct rp_args a = rp_args_of(f);

		a.expected = 1;
		if (a.found != a.expected)
			rp_say(o, f->code, &a);
	} else if (f->code == PR_INOBT_BAD_COUNT ||
		   f->code == PR_FINOBT_NO_FREE ||
		   f->code == PR_INOBT_BAD_FREECOUNT ||
		   f->code == PR_INOBT_HOLE_NOT_FREE) {
		say_irec_counts(r, agno, o, f);
	} else if (f->code == PR_INOBT_BAD_STARTINO) {
		say_bad_startino(r, agno, o, f);
	} else if (f->code == PR_AGF_BAD_FREEBLKS ||
		   f->code == PR_AGF_BAD_LONGEST ||
		   f->code == PR_AGF_BAD_COUNTERS ||
		   f->code == PR_AGI_BAD_COUNT) {
		/*
		 * A counter its verifier holds to the AG's size (or to
		 * another counter): the reference counts the trees and
		 * says the counter that disagrees in its words ("agf_freeblks
		 * N, counted M", "bad rmapbt block count", "agi_count ..."),
		 * and so do we.
		 */
		rp_note_finding(f);
	} else if (f->code == PR_AGI_BAD_UNLINKED) {
		/*
		 * The reference names every bucket in use in its phase 3
		 * ("agi unlinked bucket N is I in ag A"), ours too: a bucket
		 * of an impossible inode, or of the wrong one, says no more.
		 */
		rp_note_finding(f);
	} else if (!say_bt_header(r, agno, o, fl, i)) {
		rp_finding(o, f);
	}
}

/* The AGI's free count against the finobt records' (the reference's). */
static void check_fino_freecount(struct repair *r, xfs_agnumber_t agno,
				 struct rp_out *o)
{
	const struct ag_summary *s = &r->ags[agno].sum;
	struct rp_args a = RP_ARGS_INIT(OBJ_AGI);
	struct fs_buf *bp;
	struct fs_agi agi;

	if (!r->fs->geo.has_finobt || !s->agi_ok ||
	    ag_read_agi(r->fs, agno, NULL, &bp, &agi))
		return;
	buf_release(bp);
	if (agi.freecount == s->fino_freecount)
		return;
	a.obj.agno = agno;
	a.field = "freecount";
	a.found = agi.freecount;
	a.expected = s->fino_freecount;
	rp_say(o, PR_RP_AGI_FREECOUNT_FINO, &a);
}

/*
 * The reference words a refcount record's count three ways, by what the
 * count says of the record (messages.def keys them by these fields): a
 * CoW staging extent has one owner, a record with one owner should be
 * one (its start lacks the CoW bit), a shared extent has two or more.
 */
static const char *refc_count_field(const struct fs_finding *f)
{
	if (f->expected == 1)
		return "cow refcount";
	if (f->found == 1)
		return "cow startblock";
	return "refcount";
}

/*
 * A refcountbt record outside the AG: the reference says its start ("invalid
 * start block": before the first block past the headers, or past the AG's
 * end, CoW bit aside) or else its length (empty, too long, or leaving the
 * AG), and takes nothing else of the record -- no count, no order against
 * its neighbours.  ag_check() reports the extent (expected: the start,
 * found: the length); the other findings on the same record go.
 */
static void refc_extent_words(const struct fs_geom *g, xfs_agnumber_t agno,
			      struct fs_finding *f)
{
	uint64_t start = f->expected;

	if (start < ag_first_block(g) || start >= geom_ag_blocks(g, agno)) {
		f->field = "bad start";
		f->found = start;
	} else {
		f->field = "bad length";
	}
}

static bool refc_rec_refused(const struct fs_findings *fl,
			     const struct fs_finding *f)
{
	if (f->obj.type != OBJ_REFCBT || f->code == PR_REFC_BAD_EXTENT)
		return false;
	for (size_t i = 0; i < fl->n; i++) {
		const struct fs_finding *x = &fl->v[i];

		if (x->code == PR_REFC_BAD_EXTENT &&
		    x->obj.type == OBJ_REFCBT && x->obj.daddr == f->obj.daddr &&
		    x->obj.index == f->obj.index)
			return true;
	}
	return false;
}

/*
 * Did our walk of one AG btree take the records the reference's takes,
 * no more, no fewer?  It did where every block it passed over is one the
 * reference reads no records from either: a root the AGF puts outside
 * the AG or at a height no tree has, a block of another kind (magic), a
 * block whose level its read verifier refuses, a leaf where the AGF or
 * the parent promised a node (the reference takes its records for
 * pointers and gives up at the first bad one).  Not where a block holds
 * more records than fit (the reference reads as many as fit), where a
 * level is merely other than expected (it reads the block as the level
 * it expected), or a pointer is bad or a block unreadable (it stops
 * where we go on).  ag_check() walked the same tree; its findings say.
 */
static bool walk_as_reference(const struct fs_geom *g, enum fs_objtype t,
			      const struct fs_findings *fl)
{
	const struct btree_ops *ops;
	unsigned maxl;

	bt_name(t, &ops);
	maxl = btree_maxlevels(g, ops);
	for (size_t i = 0; i < fl->n; i++) {
		const struct fs_finding *f = &fl->v[i];

		if (f->obj.type != t)
			continue;
		switch (f->code) {
		case PR_BTREE_BAD_NUMRECS:
			if (f->found > f->expected)
				return false;
			break;
		case PR_BTREE_BAD_LEVEL:
			if (f->found < maxl &&
			    !(f->found == 0 && f->expected != 0))
				return false;
			break;
		case PR_BTREE_BAD_PTR:
		case PR_BTREE_UNREADABLE:
			return false;
		default:
			break;
		}
	}
	return true;
}

/*
 * A free space btree root read at the height the AGF gives, where that
 * is not the root's own, in the reference's words: it reads the root as
 * a block of level AGF levels - 1 (a signed number: levels 0 gives -1).
 * ag_check() has said "expected level" where the AGF's levels are
 * plausible (its walk visited the root); where they are not, it is said
 * here.  A root its verifier refuses ends there; a leaf read as a node
 * has its record count held against a node's bounds ("bad btree nrecs"),
 * then its first pointer the AG does not hold ends it ("bad btree
 * pointer").  A node read as a leaf, or a leaf whose pointers lead on,
 * is not followed (walk_as_reference() holds back the counts there).
 */
static void say_root_at_agf_level(struct repair *r, xfs_agnumber_t agno,
				  struct rp_out *o, enum btree_type type)
{
	const struct fs_geom *g = &r->fs->geo;
	struct btree_root root;
	struct rp_args a = RP_ARGS_INIT(OBJ_NONE);
	struct fs_buf *bp;
	struct fs_agf agf;
	int64_t want;
	unsigned level, numrecs, maxr;

	if (ag_read_agf(r->fs, agno, NULL, &bp, &agf))
		return;
	buf_release(bp);
	agf_btree_root(&agf, agno, type, &root);
	bp = root_at_hdr_level(r, agno, &root, &a, &want, &level, &numrecs);
	if (!bp)
		return;
	a.s1 = type == BT_BNO ? "btbno" : "btcnt";
	if (root.levels < 1 || root.levels > btree_maxlevels(g, root.ops)) {
		a.field = "ag level";
		a.expected = (uint64_t)want;
		a.found = level;
		rp_say(o, PR_BTREE_BAD_LEVEL, &a);
	}
	if (!buf_corrupt(bp) && want != 0 && level == 0) {
		maxr = btree_maxrecs(g, root.ops, false);
		a.field = "ag numrecs";
		a.expected = maxr;
		a.found = numrecs;
		a.v2 = btree_minrecs(g, root.ops, false);
		a.v3 = maxr;
		rp_say(o, PR_BTREE_BAD_NUMRECS, &a);
		say_first_ptr_outside(r, agno, o, root.ops, bp, numrecs, &a,
				      type == BT_BNO ? "bno" : "cnt");
	}
	buf_release(bp);
}

/*
 * One block of an rmapbt or refcountbt read at the height the AGF gives
 * (read_at_agf_level()), as the reference reads it: a level other than
 * the one expected is said (and ends a block whose parent was already in
 * doubt), then, the block taken for a node, its record count against a
 * node's bounds if anything was wrong ("bad btree nrecs"), then for the
 * root each child in turn: an rmapbt high key with flags no record can
 * have is said and skipped, the first pointer outside the AG is said and
 * ends the node.  Blocks it would read as leaves, blocks its verifier
 * refuses or of another kind are not followed (they are left unsaid).
 */
static void read_at_level(struct repair *r, xfs_agnumber_t agno,
			  struct rp_out *o, const struct btree_ops *ops,
			  xfs_agblock_t bno, int64_t want, bool suspect,
			  bool isroot)
{
	const struct fs_geom *g = &r->fs->geo;
	const struct btree_ops *dummy;
	bool rmap = ops->objtype == OBJ_RMAPBT;
	struct rp_args a = RP_ARGS_INIT(ops->objtype);
	unsigned level, numrecs, n, maxr, minr, errors = 0;
	const uint8_t *d;
	struct fs_buf *bp;

	if (fs_read_agblocks(r->fs, agno, bno, 1, ops->buf_ops, NULL, &bp))
		return;
	d = bp->data;
	if (buf_corrupt(bp) || load_be32(d) != ops->magic)
		goto out;
	level = load_be16(d + offsetof(struct xfs_btree_sblock, bb_level));
	numrecs = load_be16(d + offsetof(struct xfs_btree_sblock, bb_numrecs));
	a.obj.agno = agno;
	a.obj.daddr = agb_to_daddr(g, agno, bno);
	a.s1 = bt_name(ops->objtype, &dummy);
	if (level != want) {
		a.field = "ag level";
		a.expected = (uint64_t)want;
		a.found = level;
		rp_say(o, PR_BTREE_BAD_LEVEL, &a);
		errors++;
		if (suspect)
			goto out;
	}
	if (want == 0)
		goto out;
	maxr = btree_maxrecs(g, ops, false);
	minr = btree_minrecs(g, ops, false);
	n = numrecs;
	if (n > maxr) {
		n = maxr;
		errors++;
	}
	if (!isroot && n < minr) {
		n = minr;
		errors++;
	}
	if (errors) {
		a.field = "ag numrecs";
		a.found = numrecs;
		a.v2 = minr;
		a.v3 = maxr;
		rp_say(o, PR_BTREE_BAD_NUMRECS, &a);
		if (suspect)
			goto out;
		suspect = true;
	}
	if (!isroot)
		goto out;
	for (unsigned i = 0; i < n; i++) {
		size_t slot = rmap ? 2 * ops->key_len : ops->key_len;
		const uint8_t *pp = d + btree_hdr_len(ops) + (size_t)maxr * slot +
				    (size_t)i * 4;
		uint32_t ptr = load_be32(pp);

		if (rmap) {
			const uint8_t *hk = d + btree_hdr_len(ops) + i * slot +
					    ops->key_len;
			uint64_t off = load_be64(hk + offsetof(struct xfs_rmap_key,
							       rm_offset));

			if (off & ~(XFS_RMAP_OFF_MASK | XFS_RMAP_OFF_FLAGS)) {
				struct rp_args k = a;

				k.field = "high key";
				k.obj.index = i;
				k.agbno = ptr;
				k.flags = FND_FOUND;
				k.found = off;
				rp_say(o, PR_RMAP_BAD_FLAGS, &k);
				continue;
			}
		}
		if (ptr == 0 || ptr >= geom_ag_blocks(g, agno)) {
			a.field = NULL;
			a.s1 = rmap ? "rmap" : "refcount";
			a.flags = FND_FOUND;
			a.found = ptr;
			rp_say(o, PR_RP_BT_BAD_PTR, &a);
			break;
		}
		read_at_level(r, agno, o, ops, ptr, want - 1, suspect, false);
	}
out:
	buf_release(bp);
}

/*
 * An rmapbt or refcountbt whose height in the AGF no tree can have: the
 * reference says so ("bad levels"), then reads the tree all the same,
 * starting from that height (levels - 1, a signed number).  ag_check()
 * does not walk such a tree; read_at_level() says what the reference
 * says of it.
 */
static void say_tree_at_bad_agf_level(struct repair *r, xfs_agnumber_t agno,
				      struct rp_out *o, enum btree_type type)
{
	const struct fs_geom *g = &r->fs->geo;
	struct btree_root root;
	struct fs_buf *bp;
	struct fs_agf agf;

	if (ag_read_agf(r->fs, agno, NULL, &bp, &agf))
		return;
	buf_release(bp);
	agf_btree_root(&agf, agno, type, &root);
	if ((root.levels >= 1 && root.levels <= btree_maxlevels(g, root.ops)) ||
	    root.root == 0 || root.root >= geom_ag_blocks(g, agno))
		return;
	read_at_level(r, agno, o, root.ops, root.root,
		      (int64_t)(int32_t)(root.levels - 1), false, true);
}

/*
 * Does the reference take the free space root the AGF names as the
 * tree's block, where our walk may not have (a root at a height other
 * than the AGF's)?  It does for a block of the right kind, unless its
 * verifier refuses the block and its level is not the one expected.
 * Returns the root's block, or NULLAGBLOCK; *level is the root's own.
 */
static xfs_agblock_t root_taken(struct repair *r, xfs_agnumber_t agno,
				enum btree_type type, unsigned *level)
{
	const struct fs_geom *g = &r->fs->geo;
	struct btree_root root;
	struct fs_buf *bp;
	struct fs_agf agf;
	xfs_agblock_t ret = NULLAGBLOCK;
	int64_t want;

	*level = 0;
	if (ag_read_agf(r->fs, agno, NULL, &bp, &agf))
		return NULLAGBLOCK;
	buf_release(bp);
	agf_btree_root(&agf, agno, type, &root);
	if (!ag_extent_ok(g, agno, root.root, 1) ||
	    fs_read_agblocks(r->fs, agno, root.root, 1, root.ops->buf_ops,
			     NULL, &bp))
		return NULLAGBLOCK;
	want = (int64_t)(int32_t)root.levels - 1;
	*level = load_be16((const uint8_t *)bp->data +
			   offsetof(struct xfs_btree_sblock, bb_level));
	if (load_be32(bp->data) == root.ops->magic &&
	    (!buf_corrupt(bp) || *level == want))
		ret = root.root;
	buf_release(bp);
	return ret;
}

/* Is the AG btree block at daddr a leaf (its own header says)? */
static bool bt_leaf(struct repair *r, xfs_daddr_t daddr)
{
	return inobt_leaf(r, daddr);
}

/*
 * Would the reference stop trusting this AG's rmapbt (t OBJ_RMAPBT) or
 * refcountbt (OBJ_REFCBT) for its phase 4 comparisons?  It does for a
 * root the AGF puts out of reach or a height it cannot have, for any
 * block of the tree with a bad magic number, a level other than the one
 * expected or a record count out of bounds, for a node's key past the
 * high key its parent gives it, and for a leaf its read verifier refuses
 * (a node it refuses, whose header is otherwise good, does not count: it
 * takes the node's word again).  Not for a child pointer outside the AG:
 * it stops reading the node there, before it would decide.
 */
/* Did ag_check() say anything (of any severity) about that tree? */
static bool tree_has_findings(const struct fs_findings *fl, enum fs_objtype t)
{
	for (size_t i = 0; i < fl->n; i++)
		if (fl->v[i].obj.type == t)
			return true;
	return false;
}

static bool tree_suspect(struct repair *r, const struct fs_findings *fl,
			 enum fs_objtype t)
{
	const char *root = t == OBJ_RMAPBT ? "rmaproot" : "refcntroot";
	const char *level = t == OBJ_RMAPBT ? "rmaplevel" : "refcntlevel";

	for (size_t i = 0; i < fl->n; i++) {
		const struct fs_finding *f = &fl->v[i];

		if ((f->code == PR_AGF_BAD_ROOT || f->code == PR_AGF_BAD_LEVEL) &&
		    f->field && (!strcmp(f->field, root) ||
				 !strcmp(f->field, level)))
			return true;
		if (f->obj.type != t)
			continue;
		switch (f->code) {
		case PR_BTREE_BAD_NUMRECS:
			/* (a root's count too low is nothing to it) */
			if (t == OBJ_RMAPBT &&
			    rmap_nrecs_unsaid(r, f->obj.agno, fl, i, 0))
				break;
			return true;
		case PR_BTREE_BAD_MAGIC:
		case PR_BTREE_BAD_LEVEL:
		case PR_BTREE_UNREADABLE:
			return true;
		case PR_BTREE_PAST_HIGH_KEY:
			if (f->field && !strcmp(f->field, "keys"))
				return true;
			break;
		case PR_BTREE_BAD_CRC:
		case PR_BTREE_BAD_UUID:
		case PR_BTREE_BAD_BLKNO:
		case PR_BTREE_BAD_OWNER:
			if (bt_leaf(r, f->obj.daddr))
				return true;
			break;
		case PR_BTREE_BAD_SIBLING:
			if (!(f->flags & FND_EXPECTED) &&
			    bt_leaf(r, f->obj.daddr))
				return true;
			break;
		default:
			break;
		}
	}
	return false;
}

/*
 * walk_as_reference(), and where our walk did not take the tree's root:
 * that the reference takes nothing of the tree either.  It takes no
 * record of a root it reads at another height, but a node's children
 * it reads (and counts as btree blocks) before it finds their level
 * wrong.
 */
static bool tree_as_reference(struct repair *r, xfs_agnumber_t agno,
			      enum btree_type type, enum fs_objtype t,
			      const struct btree_stats *st,
			      const struct fs_findings *fl)
{
	unsigned level;

	if (!walk_as_reference(&r->fs->geo, t, fl))
		return false;
	if (st->nblocks)
		return true;
	return root_taken(r, agno, type, &level) == NULLAGBLOCK || level == 0;
}

/* Can the AGF's btreeblks be counted as the reference counts it? */
static bool btreeblks_as_reference(const struct repair *r,
				   const struct rp_ag *ag)
{
	return ag->bno_as_ref && ag->cnt_as_ref &&
	       (!r->fs->geo.has_rmapbt || ag->rmap_as_ref ||
		ag->rmap_ref_known);
}

/* The blocks other than roots the reference counts in btreeblks. */
static uint64_t nonroot_as_reference(const struct rp_ag *ag)
{
	if (!ag->rmap_ref_known)
		return ag->nonroot_blocks;
	return ag->nonroot_blocks - ag->rmap_nonroot + ag->rmap_ref_nonroot;
}

/*
 * The AGF's free space totals against what the reference counts: the
 * free blocks and longest extent of the cntbt records it takes, the
 * blocks other than the roots of the bno, cnt and rmap btrees.  Said
 * only for trees walked as it walks them (walk_as_reference); for the
 * others ag_check()'s findings stand.
 */
static void check_free_counts(struct repair *r, xfs_agnumber_t agno,
			      struct rp_out *o)
{
	struct rp_ag *ag = &r->ags[agno];
	struct rp_args a = RP_ARGS_INIT(OBJ_AGF);

	if (ag->hdr_bad || !ag->agf_read)
		return;
	a.obj.agno = agno;
	a.obj.daddr = ag_sector_daddr(&r->fs->geo, agno, XFS_AGF_SECTOR);
	if (ag->cnt_as_ref && ag->agf_freeblks != ag->cnt_free) {
		a.field = "freeblks";
		a.found = ag->agf_freeblks;
		a.expected = ag->cnt_free;
		rp_say(o, PR_AGF_FREEBLKS_MISMATCH, &a);
	}
	if (ag->cnt_as_ref && ag->agf_longest != ag->cnt_longest) {
		a.field = "longest";
		a.found = ag->agf_longest;
		a.expected = ag->cnt_longest;
		rp_say(o, PR_AGF_LONGEST_MISMATCH, &a);
	}
	if (btreeblks_as_reference(r, ag) &&
	    ag->agf_btreeblks != nonroot_as_reference(ag)) {
		a.field = "btreeblks";
		a.found = ag->agf_btreeblks;
		a.expected = nonroot_as_reference(ag);
		rp_say(o, PR_AGF_BTREEBLKS_MISMATCH, &a);
	}
	ag->free_compare = ag->bno_as_ref && ag->cnt_as_ref;
}

/*
 * Is a finding of ag_check()'s one that rp_free_replay() has said in the
 * reference's words?  Its findings on the free space records are, and a
 * claim on blocks it said were claimed twice or a record it did not
 * take.
 */
static bool free_replay_says(const struct fs_finding *f,
			     const struct sm_list *said)
{
	bool free_tree = f->obj.type == OBJ_BNOBT ||
			 f->obj.type == OBJ_CNTBT;

	switch (f->code) {
	case PR_ALLOC_BAD_EXTENT:
	case PR_ALLOC_OVERLAP:
	case PR_BTREE_RECS_OUT_OF_ORDER:
		return free_tree;
	case PR_AGFL_ENTRY_FREE:
		return rp_free_replay_said(said, f->found);
	case PR_AG_BLOCK_CONFLICT:
		return (free_tree || f->obj.type == OBJ_REFCBT ||
			(f->field && (!strcmp(f->field, "free space") ||
				      !strcmp(f->field, "refcountbt")))) &&
		       rp_free_replay_said(said, f->found);
	default:
		return false;
	}
}

/*
 * Is a finding of ag_check()'s on an rmapbt record one that
 * rp_ag_replay() has said in the reference's words?  All the checks of a
 * record on its own, of its order and against its parent's high key are.
 */
static bool rmap_replay_says(const struct fs_finding *f)
{
	if (f->obj.type != OBJ_RMAPBT)
		return false;
	switch (f->code) {
	case PR_RMAP_BAD_EXTENT:
	case PR_RMAP_BAD_OWNER:
	case PR_RMAP_BAD_OFFSET:
	case PR_RMAP_BAD_FLAGS:
	case PR_RMAP_OVERLAP:
		return true;
	case PR_BTREE_RECS_OUT_OF_ORDER:
		return f->field && !strcmp(f->field, "recs");
	case PR_BTREE_PAST_HIGH_KEY:
		/* the replay holds the records it takes to the parents'
		   high keys as the reference does, flags and all */
		return f->field && !strcmp(f->field, "recs");
	default:
		return false;
	}
}

/* Is agbno in the free space the bnobt lists (sorted, disjoint)? */
struct rmap_count {
	struct repair	*r;
	xfs_agnumber_t	agno;
	uint64_t	n, nonroot;
	uint8_t		*seen;		/* a bit per block read */
	uint8_t		*open;		/* a bit per block on the AGFL or
					   in the bnobt's free space */
	bool		unsure;
};

static bool bit_test(const uint8_t *map, xfs_agblock_t b)
{
	return (map[b >> 3] >> (b & 7)) & 1;
}

static void bit_set(uint8_t *map, xfs_agblock_t b)
{
	map[b >> 3] |= (uint8_t)(1u << (b & 7));
}

static int agfl_bit(xfs_agnumber_t agno, unsigned idx, xfs_agblock_t agbno,
		    void *priv)
{
	struct rmap_count *rc = priv;

	(void)agno;
	(void)idx;
	if (agbno < geom_ag_blocks(&rc->r->fs->geo, rc->agno))
		bit_set(rc->open, agbno);
	return 0;
}

/* Mark the bnobt's free extents, as read, in rc->open (any order). */
static void free_bits(struct rmap_count *rc)
{
	const struct sm_list *l = &rc->r->ags[rc->agno].free_bno;
	xfs_agblock_t aglen = geom_ag_blocks(&rc->r->fs->geo, rc->agno);

	for (size_t i = 0; i < l->n; i++) {
		uint64_t b = l->v[i].agbno;
		uint64_t e = b + l->v[i].len;

		if (e > aglen)
			e = aglen;
		for (; b < e && (b & 7); b++)
			bit_set(rc->open, (xfs_agblock_t)b);
		if (b < e && e - b >= 8) {
			memset(rc->open + (b >> 3), 0xff, (e - b) >> 3);
			b += (e - b) & ~(uint64_t)7;
		}
		for (; b < e; b++)
			bit_set(rc->open, (xfs_agblock_t)b);
	}
}

/*
 * One rmapbt block as the reference counts it (its scan_rmapbt): read
 * with the verifier (a refusal makes the block suspect), not counted if
 * of another kind and suspect, counted, then left if its level is wrong
 * and it is suspect; a leaf ends there.  A node's record count out of
 * bounds ends it if it is suspect, else makes its children suspect;
 * each child is read in turn, a high key with flags no record has
 * passed over, up to the first pointer the AG does not hold.  A block
 * counted, its level checked, is then held to the reference's block
 * map: one read before is counted again and left; one the free space
 * trees or the AGFL hold would be left too, but that map's state there
 * is not ours to know (its trees may be read otherwise), so the count
 * is not known then (unsure).
 */
static void rmap_count_block(struct rmap_count *rc, const struct btree_ops *ops,
			     xfs_agblock_t bno, int64_t level, bool suspect,
			     bool isroot, unsigned depth)
{
	const struct fs_geom *g = &rc->r->fs->geo;
	unsigned numrecs, n, maxr, minr, agfl;
	const uint8_t *d;
	struct fs_buf *bp;

	if (depth > XFS_BTREE_MAXLEVELS || rc->unsure) {
		rc->unsure = true;
		return;
	}
	if (fs_read_agblocks(rc->r->fs, rc->agno, bno, 1, ops->buf_ops, NULL,
			     &bp)) {
		rc->unsure = true;
		return;
	}
	d = bp->data;
	if (buf_corrupt(bp))
		suspect = true;
	if (load_be32(d) != ops->magic && suspect)
		goto out;
	rc->n++;
	if (!isroot)
		rc->nonroot++;
	if ((int64_t)load_be16(d + offsetof(struct xfs_btree_sblock,
					    bb_level)) != level && suspect)
		goto out;
	if (bit_test(rc->seen, bno))
		goto out;
	if (bit_test(rc->open, bno)) {
		rc->unsure = true;
		goto out;
	}
	bit_set(rc->seen, bno);
	if (level <= 0)
		goto out;
	numrecs = load_be16(d + offsetof(struct xfs_btree_sblock, bb_numrecs));
	maxr = btree_maxrecs(g, ops, false);
	minr = btree_minrecs(g, ops, false);
	n = numrecs > maxr ? maxr : numrecs;
	if (!isroot && n < minr)
		n = minr;
	if (n != numrecs) {
		if (suspect)
			goto out;
		suspect = true;
	}
	/* the AGFL's block and those before it are no btree's */
	agfl = (unsigned)((XFS_AGFL_SECTOR * g->sectsize) >> g->blocklog);
	for (unsigned i = 0; i < n && !rc->unsure; i++) {
		const uint8_t *hk = d + btree_hdr_len(ops) +
				    (size_t)i * 2 * ops->key_len + ops->key_len;
		uint32_t ptr = load_be32(d + btree_hdr_len(ops) +
					 (size_t)maxr * 2 * ops->key_len +
					 (size_t)i * 4);
		uint64_t off = load_be64(hk + offsetof(struct xfs_rmap_key,
						       rm_offset));

		if (off & ~(XFS_RMAP_OFF_MASK | XFS_RMAP_OFF_FLAGS))
			continue;
		if (ptr <= agfl || ptr >= geom_ag_blocks(g, rc->agno))
			break;
		rmap_count_block(rc, ops, ptr, level - 1, suspect, false,
				 depth + 1);
	}
out:
	buf_release(bp);
}

/*
 * The rmapbt's blocks as the reference counts them, where ag_check()
 * found something wrong with the tree (a bad pointer, a block refused,
 * of another kind or at another level: the reference stops at some of
 * these and not at others, and counts some of the blocks it stops at).  Not where the AGF's root or height
 * is unusable (the reference does not read the tree then, or reads it
 * from another height: say_tree_at_bad_agf_level).
 */
static void rmap_count_as_reference(struct repair *r, xfs_agnumber_t agno,
				    const struct fs_findings *fl)
{
	const struct fs_geom *g = &r->fs->geo;
	struct rp_ag *ag = &r->ags[agno];
	struct rmap_count rc = { .r = r, .agno = agno };
	struct btree_root root;
	struct fs_buf *bp;
	struct fs_agf agf;

	ag->rmap_ref_known = false;
	if (!g->has_rmapbt || ag->hdr_bad || !ag->agf_read ||
	    (!ag->sum.rmap.skipped && !tree_has_findings(fl, OBJ_RMAPBT)))
		return;
	for (size_t i = 0; i < fl->n; i++) {
		const struct fs_finding *f = &fl->v[i];

		if ((f->code == PR_AGF_BAD_ROOT || f->code == PR_AGF_BAD_LEVEL) &&
		    f->field && (!strcmp(f->field, "rmaproot") ||
				 !strcmp(f->field, "rmaplevel")))
			return;
	}
	if (ag_read_agf(r->fs, agno, NULL, &bp, &agf))
		return;
	buf_release(bp);
	agf_btree_root(&agf, agno, BT_RMAP, &root);
	if (root.levels < 1 || root.levels > btree_maxlevels(g, root.ops) ||
	    root.root == 0 || root.root >= geom_ag_blocks(g, agno))
		return;
	rc.seen = calloc(geom_ag_blocks(g, agno) / 8 + 1, 1);
	rc.open = calloc(geom_ag_blocks(g, agno) / 8 + 1, 1);
	if (rc.seen && rc.open && !ag_read_agfl(r->fs, agno, NULL, &bp)) {
		agfl_walk(g, agno, &agf, bp->data, agfl_bit, &rc);
		buf_release(bp);
		free_bits(&rc);
		rmap_count_block(&rc, root.ops, root.root,
				 (int64_t)root.levels - 1, false, true, 0);
	} else {
		rc.unsure = true;
	}
	free(rc.seen);
	free(rc.open);
	if (rc.unsure)
		return;
	ag->rmap_ref_known = true;
	ag->rmap_ref_blocks = rc.n;
	ag->rmap_ref_nonroot = rc.nonroot;
}

/*
 * The AGF's rmapbt block count against the reference's count of the
 * tree's blocks, where ag_check()'s walk of the tree may not be the
 * reference's (rmap_count_as_reference; ag_check()'s own comparison is
 * dropped then).
 */
static void check_rmap_blocks(struct repair *r, xfs_agnumber_t agno,
			      struct rp_out *o)
{
	struct rp_ag *ag = &r->ags[agno];
	struct rp_args a = RP_ARGS_INIT(OBJ_AGF);
	struct fs_buf *bp;
	struct fs_agf agf;

	if (!ag->rmap_ref_known || ag_read_agf(r->fs, agno, NULL, &bp, &agf))
		return;
	buf_release(bp);
	if (agf.rmap_blocks == ag->rmap_ref_blocks)
		return;
	a.obj.agno = agno;
	a.obj.daddr = ag_sector_daddr(&r->fs->geo, agno, XFS_AGF_SECTOR);
	a.field = "rmapblocks";
	a.expected = ag->rmap_ref_blocks;
	a.found = agf.rmap_blocks;
	rp_say(o, PR_AGF_RMAP_BLOCKS_MISMATCH, &a);
}

/*
 * A refcountbt leaf holding more records than fit: our walk read none of
 * its records, the reference reads as many as fit and says of each what
 * it says of a record it walks -- a start outside the AG ("invalid start
 * block"), else a length that leaves it ("invalid length"), else its
 * count ("invalid reference count", or the CoW domain's words) -- and
 * nothing else of them.  (Stale records past a count, zeroed, are each
 * "invalid start block 0".)
 */
static void refc_overfull_leaf(struct repair *r, xfs_agnumber_t agno,
			       struct rp_out *o, const struct fs_finding *f)
{
	const struct fs_geom *g = &r->fs->geo;
	const struct btree_ops *ops = &refcountbt_ops;
	unsigned maxr = btree_maxrecs(g, ops, true);
	uint32_t aglen = geom_ag_blocks(g, agno);
	const uint8_t *d;
	struct fs_buf *bp;

	if (f->obj.daddr == (xfs_daddr_t)-1 ||
	    fs_read_blocks(r->fs, daddr_to_fsb(g, f->obj.daddr), 1, NULL, NULL,
			   &bp))
		return;
	d = bp->data;
	if (load_be32(d) != ops->magic ||
	    load_be16(d + offsetof(struct xfs_btree_sblock, bb_level))) {
		buf_release(bp);
		return;
	}
	for (unsigned i = 0; i < maxr; i++) {
		const struct xfs_refcount_rec *c = (const void *)
			(d + btree_hdr_len(ops) + (size_t)i * sizeof(*c));
		uint32_t raw = get_be32(c->rc_startblock);
		uint32_t start = raw & ~XFS_REFC_COWFLAG;
		uint32_t len = get_be32(c->rc_blockcount);
		uint32_t count = get_be32(c->rc_refcount);
		bool cow = raw & XFS_REFC_COWFLAG;
		struct rp_args a = RP_ARGS_INIT(OBJ_REFCBT);

		a.obj.agno = agno;
		a.obj.daddr = f->obj.daddr;
		a.obj.index = i;
		if (start < ag_first_block(g) || start >= aglen) {
			a.field = "bad start";
			a.found = start;
			rp_say(o, PR_REFC_BAD_EXTENT, &a);
			continue;
		}
		if (!len || len > XFS_REFC_LEN_MAX || len > aglen - start) {
			a.field = "bad length";
			a.found = len;
			rp_say(o, PR_REFC_BAD_EXTENT, &a);
			continue;
		}
		if (cow ? count != 1 : count < 2) {
			a.field = cow ? "cow refcount" :
				  count == 1 ? "cow startblock" : "refcount";
			a.found = count;
			rp_say(o, PR_REFC_BAD_REFCOUNT, &a);
		}
	}
	buf_release(bp);
}

/*
 * The AGF's refcountbt block count where the reference reads no block of
 * the tree: a root inside the AG that it refuses (taken_refc_root) --
 * of another kind, or at a level its verifier refuses.  It counts no
 * block then ("bad refcountbt block count 0, saw N"); ag_check(), whose
 * walk passed the root over, held no count against the AGF.
 */
static void check_refc_blocks(struct repair *r, xfs_agnumber_t agno,
			      struct rp_out *o, const struct fs_findings *fl)
{
	struct rp_ag *ag = &r->ags[agno];
	struct rp_args a = RP_ARGS_INIT(OBJ_AGF);
	struct btree_root root;
	struct fs_buf *bp;
	struct fs_agf agf;

	if (!r->fs->geo.has_reflink || ag->hdr_bad || !ag->agf_read ||
	    ag->taken_refc_root != NULLAGBLOCK || !ag->sum.refc.skipped)
		return;
	for (size_t i = 0; i < fl->n; i++) {
		const struct fs_finding *f = &fl->v[i];

		if ((f->code == PR_AGF_BAD_ROOT || f->code == PR_AGF_BAD_LEVEL ||
		     f->code == PR_AGF_BAD_COUNTERS) && f->field &&
		    (!strcmp(f->field, "refcntroot") ||
		     !strcmp(f->field, "refcntlevel") ||
		     !strcmp(f->field, "refcntblocks")))
			return;
	}
	if (ag_read_agf(r->fs, agno, NULL, &bp, &agf))
		return;
	buf_release(bp);
	agf_btree_root(&agf, agno, BT_REFC, &root);
	if (!ag_extent_ok(&r->fs->geo, agno, root.root, 1) ||
	    !agf.refcount_blocks)
		return;
	a.obj.agno = agno;
	a.obj.daddr = ag_sector_daddr(&r->fs->geo, agno, XFS_AGF_SECTOR);
	a.field = "refcntblocks";
	a.expected = 0;
	a.found = agf.refcount_blocks;
	rp_say(o, PR_AGF_REFC_BLOCKS_MISMATCH, &a);
}

/*
 * finobt records whose holes cover blocks the inobt's chunks hold
 * inodes in: the reference says each such block ("sparse inode chunk
 * claims inode block, finobt block") and checks nothing else of the
 * record.  It looks at the first inode of each block of the chunk.
 */
struct fino_claim {
	xfs_daddr_t	daddr;		/* the record: its block and index */
	unsigned	index;
	xfs_agino_t	startino;
	xfs_agblock_t	agbno;		/* the block it claims */
	bool		said;
};

struct fino_claims {
	const struct fs_geom	*g;
	xfs_agblock_t		*ino_blocks;	/* the inobt's, unsorted */
	size_t			nino_blocks;
	struct fino_claim	*v;
	size_t			n;
	struct repair		*r;
};

static int inode_blocks(void *priv, xfs_agnumber_t agno,
			const struct inobt_irec *irec)
{
	struct fino_claims *fc = priv;
	const struct fs_geom *g = fc->g;

	if (rp_ino_rec_refused(fc->r, agno, irec))
		return 0;
	for (unsigned i = 0; i < XFS_INODES_PER_CHUNK; i += g->inopblock) {
		xfs_agblock_t *nv;

		if (irec->holes & (1ull << i))
			continue;
		nv = realloc(fc->ino_blocks,
			     (fc->nino_blocks + 1) * sizeof(*nv));
		if (!nv)
			return -1;
		fc->ino_blocks = nv;
		fc->ino_blocks[fc->nino_blocks++] =
			agino_to_agbno(g, irec->startino + i);
	}
	return 0;
}

static int fino_claim_rec(void *priv, xfs_agnumber_t agno,
			  const struct inobt_irec *irec)
{
	struct fino_claims *fc = priv;
	const struct fs_geom *g = fc->g;

	(void)agno;
	for (unsigned i = 0; i < XFS_INODES_PER_CHUNK; i += g->inopblock) {
		xfs_agblock_t b = agino_to_agbno(g, irec->startino + i);
		struct fino_claim *nv;
		bool held = false;

		if (!(irec->holes & (1ull << i)))
			continue;
		for (size_t k = 0; k < fc->nino_blocks && !held; k++)
			held = fc->ino_blocks[k] == b;
		if (!held)
			continue;
		nv = realloc(fc->v, (fc->n + 1) * sizeof(*nv));
		if (!nv)
			return -1;
		fc->v = nv;
		fc->v[fc->n++] = (struct fino_claim){
			.daddr = irec->daddr, .index = irec->index,
			.startino = irec->startino, .agbno = b,
		};
	}
	return 0;
}

static void find_fino_claims(struct repair *r, xfs_agnumber_t agno,
			     struct fino_claims *fc)
{
	const struct fs_geom *g = &r->fs->geo;

	memset(fc, 0, sizeof(*fc));
	fc->g = g;
	fc->r = r;
	if (!g->has_finobt || !g->has_sparse || !g->inopblock ||
	    g->inopblock > XFS_INODES_PER_CHUNK || r->ags[agno].hdr_bad ||
	    !r->ags[agno].sum.agi_ok)
		return;
	ag_iter_chunks(r->fs, agno, inode_blocks, fc, NULL);
	if (fc->nino_blocks)
		ag_iter_fino_chunks(r->fs, agno, fino_claim_rec, fc, NULL);
	free(fc->ino_blocks);
	fc->ino_blocks = NULL;
}

/*
 * Is finding f about a finobt record with claims?  Says them the first
 * time; true if the finding itself is one the reference does not make
 * of such a record.
 */
static bool fino_claims_say(struct fino_claims *fc, xfs_agnumber_t agno,
			    struct rp_out *o, const struct fs_finding *f)
{
	bool hit = false;

	if (f->obj.type != OBJ_FINOBT)
		return false;
	for (size_t k = 0; k < fc->n; k++) {
		struct fino_claim *c = &fc->v[k];
		struct rp_args a = RP_ARGS_INIT(OBJ_FINOBT);

		if (f->code == PR_FINOBT_REC_MISMATCH ?
		    f->found != c->startino :
		    f->obj.daddr != c->daddr || f->obj.index != c->index)
			continue;
		hit = true;
		if (c->said)
			continue;
		c->said = true;
		a.obj.agno = agno;
		a.agbno = c->agbno;
		a.found = c->agbno;
		a.expected = fc->g->inopblock;
		rp_say(o, PR_RP_FINO_CLAIMS_INO_BLOCK, &a);
	}
	return hit && (f->code == PR_INOBT_HOLE_NOT_FREE ||
		       f->code == PR_INOBT_BAD_FREECOUNT ||
		       f->code == PR_INOBT_BAD_COUNT ||
		       f->code == PR_INOBT_BAD_HOLEMASK ||
		       f->code == PR_FINOBT_NO_FREE);
}

/*
 * A sparse inode record's hole mask the reference does not hold to the
 * inode clusters: where it says something else of the same record (the
 * holes' free bits, its free or inode count), that is what is wrong
 * with it in its words, and libfs's finding is a note.
 */
static bool holemask_said_otherwise(const struct fs_findings *fl,
				    const struct fs_finding *f)
{
	if (f->code != PR_INOBT_BAD_HOLEMASK)
		return false;
	for (size_t i = 0; i < fl->n; i++) {
		const struct fs_finding *g = &fl->v[i];

		if ((g->code == PR_INOBT_HOLE_NOT_FREE ||
		     g->code == PR_INOBT_BAD_COUNT ||
		     g->code == PR_INOBT_BAD_FREECOUNT) &&
		    g->obj.type == f->obj.type &&
		    g->obj.daddr == f->obj.daddr &&
		    g->obj.index == f->obj.index)
			return true;
	}
	return false;
}

/*
 * What the reference makes of a finobt record no inobt record matches.
 * One whose chunk does not lie inside the AG it skips ("bad starting
 * inode #"), one whose inodes another chunk of the inobt's holds it
 * stops at ("badly aligned"): nothing said of it as undiscovered.  Of
 * one that is only misaligned it says it is undiscovered and takes its
 * inodes as uncertain ("found inodes not in the inode allocation
 * tree"), not as a chunk; any other is a chunk found (a record whose
 * twin is in a refused inobt leaf too).
 */
enum fino_extra { FINO_PASSED_OVER, FINO_UNCERTAIN, FINO_CHUNK };

static enum fino_extra fino_extra_kind(struct repair *r, xfs_agnumber_t agno,
				       xfs_agino_t start)
{
	const struct fs_geom *g = &r->fs->geo;

	if (irec_start_skipped(g, agno, start) ||
	    probe_chunks(r, agno, start).overlap)
		return FINO_PASSED_OVER;
	return irec_start_uncertain(g, agno, start) ? FINO_UNCERTAIN :
						      FINO_CHUNK;
}

/* What an AG whose headers would be reset has, unread by the reference. */
static bool skipped_ag_obj(enum fs_objtype t)
{
	switch (t) {
	case OBJ_AGFL:
	case OBJ_BNOBT:
	case OBJ_CNTBT:
	case OBJ_INOBT:
	case OBJ_FINOBT:
	case OBJ_RMAPBT:
	case OBJ_REFCBT:
		return true;
	default:
		return false;
	}
}

/*
 * ag_check()'s findings, less what phase 2 says its own way or holds
 * back for later: finobt records no inobt record matches are the seeds
 * of inode discovery (and said with their inode number); the rmapbt's
 * inode chunks that no inobt record explains wait for discovery; its
 * other AG metadata that no structure explains waits for phase 5, which
 * says blocks nothing owns as the reference does ("unknown block
 * state"); the AGF's free space totals are counted the reference's way
 * (check_free_counts) where the trees allow; free extents seen by one
 * btree only are said in phase 4, as runs of blocks.
 */
static void sort_findings(struct repair *r, xfs_agnumber_t agno,
			  struct rp_out *o, struct fs_findings *fl,
			  struct fino_claims *fc)
{
	struct rp_ag *ag = &r->ags[agno];
	const xfs_agblock_t *roots = ag->taken_root;
	struct rp_out fo;
	struct sm_list said;
	unsigned replayed;
	bool fo_said = false;
	size_t j = 0;

	rp_out_init(&fo);
	sm_list_init(&said);
	replayed = rp_ag_replay(r, agno, &fo, &said);
	for (size_t i = 0; i < fl->n; i++) {
		struct fs_finding *f = &fl->v[i];

		if (ag->hdr_bad && skipped_ag_obj(f->obj.type)) {
			/* the reference reads none of a skipped AG's
			   trees, nor its AGFL */
			rp_note_finding(f);
			continue;
		}

		if ((replayed & RP_REPLAY_FREE) && free_replay_says(f, &said))
			continue;
		if ((replayed & RP_REPLAY_RMAP) &&
		    rmap_replay_says(f))
			continue;
		if (f->code == PR_INOBT_BAD_STARTINO &&
		    f->obj.type == OBJ_INOBT &&
		    irec_start_uncertain(&r->fs->geo, agno,
					 (xfs_agino_t)f->found))
			ag->ino_uncertain = true;	/* rp_ino_rec_refused */
		if (holemask_said_otherwise(fl, f)) {
			rp_note_finding(f);
			continue;
		}
		if (f->code == PR_FINOBT_EXTRA_REC) {
			enum fino_extra kind;
			xfs_agino_t *nv;

			kind = fino_extra_kind(r, agno, (xfs_agino_t)f->found);
			if (kind == FINO_PASSED_OVER) {
				rp_note_finding(f);
				continue;
			}
			f->obj.ino = agino_to_ino(&r->fs->geo, agno,
						  (xfs_agino_t)f->found);
			if (kind == FINO_UNCERTAIN) {
				ag->ino_uncertain = true;
				goto keep;
			}
			nv = realloc(ag->fino_seeds,
				     (ag->nfino_seeds + 1) * sizeof(*nv));
			if (nv) {
				ag->fino_seeds = nv;
				ag->fino_seeds[ag->nfino_seeds++] =
					(xfs_agino_t)f->found;
			}
		} else if ((f->code == PR_AG_RMAP_MISSING ||
			    f->code == PR_AG_SPACE_UNACCOUNTED) &&
			   ag->rmap_walked && !ag->sum.rmap.nrecs) {
			/* an rmapbt of no records at all: one fact, which
			   its lookups say ("Could not read ...") */
			rp_note_finding(f);
			continue;
		} else if (f->code == PR_AG_RMAP_STALE && f->field &&
			   !strcmp(f->field, "owner inodes")) {
			findings_add(&ag->deferred, f);
			continue;
		} else if (f->code == PR_AG_RMAP_MISSING && f->field &&
			   (!strcmp(f->field, "owner inodes") ||
			    !strcmp(f->field, "owner fs") ||
			    !strcmp(f->field, "owner log"))) {
			/*
			 * Inode chunks, headers and the log are in the
			 * reference's own comparison with the rmapbt,
			 * and ours ("Missing reverse-mapping record").
			 */
			rp_note_finding(f);
			continue;
		} else if (f->code == PR_AG_SPACE_UNACCOUNTED &&
			   ag->rmap_walked) {
			/* said in phase 5 unless an owner turns up */
			findings_add(&ag->stale_rmaps, f);
			continue;
		} else if (f->code == PR_AG_RMAP_STALE) {
			/* a root the reference takes though we did not */
			if (f->found == roots[0] || f->found == roots[1])
				continue;
			findings_add(&ag->stale_rmaps, f);
			continue;
		} else if ((f->code == PR_AGF_FREEBLKS_MISMATCH ||
			    f->code == PR_AGF_LONGEST_MISMATCH) &&
			   ag->cnt_as_ref) {
			continue;	/* check_free_counts() counts these */
		} else if ((f->code == PR_AGF_FREEBLKS_MISMATCH &&
			    ag->cnt_walked && f->found == ag->cnt_free) ||
			   (f->code == PR_AGF_LONGEST_MISMATCH &&
			    ag->cnt_walked && f->found == ag->cnt_longest)) {
			continue;	/* the cntbt agrees: counted as the reference */
		} else if (f->code == PR_AGF_BTREEBLKS_MISMATCH &&
			   btreeblks_as_reference(r, ag)) {
			continue;	/* check_free_counts() counts it */
		} else if (f->code == PR_AGF_RMAP_BLOCKS_MISMATCH &&
			   ag->rmap_ref_known) {
			continue;	/* check_rmap_blocks() counts it */
		} else if (refc_rec_refused(fl, f)) {
			continue;
		} else if (f->code == PR_REFC_BAD_EXTENT) {
			refc_extent_words(&r->fs->geo, agno, f);
		} else if (f->code == PR_REFC_BAD_REFCOUNT) {
			f->field = refc_count_field(f);
		} else if (f->code == PR_CNTBT_MISSING_EXTENT ||
			   f->code == PR_CNTBT_EXTRA_EXTENT) {
			continue;	/* phase 4's, from the records taken */
		}
keep:
		fl->v[j++] = *f;
	}
	findings_truncate(fl, j);
	check_rmap_blocks(r, agno, o);
	check_refc_blocks(r, agno, o, fl);
	for (size_t i = 0; i < fl->n; i++)
		if (fl->v[i].obj.type == OBJ_REFCBT &&
		    fl->v[i].code == PR_BTREE_BAD_NUMRECS &&
		    fl->v[i].found > fl->v[i].expected)
			refc_overfull_leaf(r, agno, o, &fl->v[i]);
	for (size_t i = 0; i < fl->n; i++) {
		enum fs_objtype t = fl->v[i].obj.type;

		/* the trees' records come after the AGF's and AGFL's */
		if (!fo_said && t != OBJ_AGF && t != OBJ_AGFL &&
		    t != OBJ_BNOBT && t != OBJ_CNTBT && t != OBJ_RMAPBT) {
			if (fo.len)
				rp_log(o, "%s", fo.buf);
			fo_said = true;
		}
		if (fino_claims_say(fc, agno, o, &fl->v[i]))
			rp_note_finding(&fl->v[i]);
		else
			say_ag_finding(r, agno, o, fl, i);
	}
	if (!fo_said && fo.len)
		rp_log(o, "%s", fo.buf);
	rp_out_free(&fo);
	sm_list_free(&said);
	findings_clear(fl);
	if (!ag->hdr_bad && ag->agf_read) {
		say_root_at_agf_level(r, agno, o, BT_BNO);
		say_root_at_agf_level(r, agno, o, BT_CNT);
		if (r->fs->geo.has_rmapbt)
			say_tree_at_bad_agf_level(r, agno, o, BT_RMAP);
		if (r->fs->geo.has_reflink)
			say_tree_at_bad_agf_level(r, agno, o, BT_REFC);
	}
	check_free_counts(r, agno, o);
}

bool rp_ino_rec_refused(const struct repair *r, xfs_agnumber_t agno,
			const struct inobt_irec *irec)
{
	const struct rp_ag *ag = &r->ags[agno];

	/* (a probe of a leaf, startino 0, is none: that start is skipped) */
	if (irec_start_uncertain(&r->fs->geo, agno, irec->startino))
		return true;

	for (size_t i = 0; i < ag->nino_refused; i++)
		if (ag->ino_refused[i] == irec->daddr)
			return true;
	return false;
}

/*
 * The inobt leaves whose records the reference takes as uncertain
 * inodes rather than as chunks: those its read verifier refuses (the
 * "suspect" blocks), and a leaf other than the root with fewer records
 * than a leaf must hold (its "dubious" header).
 */
static void note_refused_leaves(struct repair *r, xfs_agnumber_t agno,
				const struct fs_findings *fl)
{
	struct rp_ag *ag = &r->ags[agno];

	for (size_t i = 0; i < fl->n; i++) {
		const struct fs_finding *f = &fl->v[i];
		struct inobt_irec probe = { .daddr = f->obj.daddr };
		xfs_daddr_t *nv;

		if (f->obj.type != OBJ_INOBT ||
		    f->obj.daddr == (xfs_daddr_t)-1 ||
		    rp_ino_rec_refused(r, agno, &probe))
			continue;
		if (!block_read_error(r, fl, i) &&
		    !(f->code == PR_BTREE_BAD_NUMRECS &&
		      f->found < f->expected))
			continue;
		nv = realloc(ag->ino_refused,
			     (ag->nino_refused + 1) * sizeof(*nv));
		if (!nv)
			return;
		ag->ino_refused = nv;
		ag->ino_refused[ag->nino_refused++] = f->obj.daddr;
	}
}

struct ino_split {
	struct repair	*r;
	xfs_agino_t	*trusted, *refused;
	size_t		ntrusted, nrefused;
	struct fs_findings *fl;
};

static int split_rec(void *priv, xfs_agnumber_t agno,
		     const struct inobt_irec *irec)
{
	struct ino_split *sp = priv;
	bool bad = rp_ino_rec_refused(sp->r, agno, irec);
	xfs_agino_t **v = bad ? &sp->refused : &sp->trusted;
	size_t *n = bad ? &sp->nrefused : &sp->ntrusted;
	xfs_agino_t *nv = realloc(*v, (*n + 1) * sizeof(*nv));

	if (!nv)
		return -1;
	*v = nv;
	(*v)[(*n)++] = irec->startino;
	return 0;
}

static bool agino_listed(const xfs_agino_t *v, size_t n, xfs_agino_t x)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

/*
 * A finobt record whose inobt twin sits in a refused leaf: the reference
 * has no chunk for it when it reads the finobt, and takes the finobt's
 * ("undiscovered finobt record").
 */
static int fino_vs_refused(void *priv, xfs_agnumber_t agno,
			   const struct inobt_irec *irec)
{
	struct ino_split *sp = priv;
	struct fs_objref of = OBJREF_INIT(OBJ_FINOBT);

	if (!agino_listed(sp->refused, sp->nrefused, irec->startino) ||
	    agino_listed(sp->trusted, sp->ntrusted, irec->startino))
		return 0;
	of.agno = agno;
	fs_report_found(sp->fl, PR_FINOBT_EXTRA_REC, &of, "startino",
			irec->startino);
	return 0;
}

/* What the refused leaves mean for the AG's chunks (see rp_ag). */
static void split_refused(struct repair *r, xfs_agnumber_t agno,
			  struct fs_findings *fl)
{
	struct rp_ag *ag = &r->ags[agno];
	struct ino_split sp = { .r = r, .fl = fl };

	if (!ag->nino_refused || ag->hdr_bad || !ag->sum.agi_ok)
		return;
	ag_iter_chunks(r->fs, agno, split_rec, &sp, NULL);
	ag->ino_uncertain |= sp.nrefused > 0;
	if (sp.nrefused)
		ag_iter_fino_chunks(r->fs, agno, fino_vs_refused, &sp, NULL);
	free(sp.trusted);
	free(sp.refused);
}

static void scan_ag(struct repair *r, xfs_agnumber_t agno, void *arg)
{
	struct p2 *p = arg;
	struct rp_out *o = &p->seq.outs[agno];
	struct rp_ag *ag = &r->ags[agno];
	struct fs_findings fl;
	struct fino_claims fc;
	bool sb_bad, agf_bad = false, agi_bad = false, ino_suspect;

	findings_init(&fl);
	sb_bad = check_sb_copy(r, agno, o);
	ag_check(r->fs, agno, &fl, &ag->sum);
	for (size_t i = 0; i < fl.n; i++) {
		agf_bad |= agf_header_code(fl.v[i].code);
		agi_bad |= agi_header_code(fl.v[i].code);
	}
	ino_suspect = inobt_suspect(r, &fl, &ag->sum);
	note_refused_leaves(r, agno, &fl);
	ag->taken_root[0] = ag->taken_root[1] = NULLAGBLOCK;
	ag->taken_refc_root = NULLAGBLOCK;
	if (ag->sum.agf_ok) {
		unsigned level;

		ag->taken_root[0] = root_taken(r, agno, BT_BNO, &level);
		ag->taken_root[1] = root_taken(r, agno, BT_CNT, &level);
		if (r->fs->geo.has_reflink)
			ag->taken_refc_root = root_taken(r, agno, BT_REFC,
							 &level);
		ag->bno_as_ref = tree_as_reference(r, agno, BT_BNO, OBJ_BNOBT,
						   &ag->sum.bno, &fl);
		ag->cnt_as_ref = tree_as_reference(r, agno, BT_CNT, OBJ_CNTBT,
						   &ag->sum.cnt, &fl);
		ag->rmap_as_ref = r->fs->geo.has_rmapbt &&
				  tree_as_reference(r, agno, BT_RMAP,
						    OBJ_RMAPBT, &ag->sum.rmap,
						    &fl);
	}
	ag->rmap_suspect = r->fs->geo.has_rmapbt &&
			   tree_suspect(r, &fl, OBJ_RMAPBT);
	ag->rmap_clean = r->fs->geo.has_rmapbt && ag->sum.agf_ok &&
			 !agf_bad && !ag->rmap_suspect &&
			 !tree_has_findings(&fl, OBJ_RMAPBT);
	ag->refc_suspect = r->fs->geo.has_reflink &&
			   tree_suspect(r, &fl, OBJ_REFCBT);
	/* a skipped AG's trees are not read (rp_scan_ag_space) */
	ag->hdr_bad = sb_bad || agf_bad || agi_bad;
	rp_scan_ag_space(r, agno);
	rmap_count_as_reference(r, agno, &fl);
	split_refused(r, agno, &fl);
	find_fino_claims(r, agno, &fc);
	sort_findings(r, agno, o, &fl, &fc);
	free(fc.v);
	if (sb_bad)
		say_ag(o, PR_RP_SB_RESET, agno);
	if (agf_bad)
		say_ag(o, PR_RP_AGF_RESET, agno);
	if (agi_bad)
		say_ag(o, PR_RP_AGI_RESET, agno);
	if (ag->hdr_bad) {
		say_ag(o, PR_RP_AG_SKIPPED, agno);
	} else {
		check_fino_freecount(r, agno, o);
		if (ino_suspect)
			__atomic_store_n(&r->bad_ino_btree, true,
					 __ATOMIC_RELAXED);
	}
	for (unsigned b = 0; b < XFS_AGI_UNLINKED_BUCKETS; b++) {
		struct rp_args a = RP_ARGS_INIT(OBJ_AGI);

		if (ag->unlinked[b] == NULLAGINO)
			continue;
		a.obj.agno = agno;
		a.obj.index = b;
		a.found = ag->unlinked[b];
		a.obj.ino = agino_to_ino(&r->fs->geo, agno, ag->unlinked[b]);
		rp_say(o, PR_RP_UNLINKED_NONEMPTY, &a);
	}
	findings_free(&fl);
	prog_add(agno, 1);
	rp_seq_done(&p->seq, agno);
}

static void check_counters(struct repair *r)
{
	const struct fs_sb *sb = &r->fs->sb;
	uint64_t icount = 0, ifree = 0, fdblocks = 0;
	struct rp_args a = RP_ARGS_INIT(OBJ_SB);
	bool free_counted = true;

	for (xfs_agnumber_t agno = 0; agno < r->fs->geo.agcount; agno++) {
		const struct ag_summary *s = &r->ags[agno].sum;

		if (r->ags[agno].hdr_bad)
			continue;
		if (s->agi_ok) {
			icount += s->icount;
			ifree += s->ifree;
		}
		/* the reference's: free extents, AGFL, btree blocks that
		   are not roots (check_free_counts) */
		if (s->agf_ok)
			fdblocks += (r->ags[agno].cnt_walked ?
				     r->ags[agno].cnt_free : s->freeblks) +
				    s->flcount + nonroot_as_reference(&r->ags[agno]);
		/* a tree not read as the reference reads it: its total is
		   not the reference's, and a line with other numbers than
		   its would only mislead */
		if (s->agf_ok && !(r->ags[agno].cnt_as_ref &&
				   btreeblks_as_reference(r, &r->ags[agno])))
			free_counted = false;
	}
	a.obj.agno = 0;
	if (sb->icount != icount) {
		a.field = "icount";
		a.found = sb->icount;
		a.expected = icount;
		rp_say(NULL, PR_RP_SB_ICOUNT, &a);
	}
	if (sb->ifree != ifree) {
		a.field = "ifree";
		a.found = sb->ifree;
		a.expected = ifree;
		rp_say(NULL, PR_RP_SB_IFREE, &a);
	}
	if (free_counted && sb->fdblocks != fdblocks) {
		a.field = "fdblocks";
		a.found = sb->fdblocks;
		a.expected = fdblocks;
		rp_say(NULL, PR_RP_SB_FDBLOCKS, &a);
	}
}

struct root_find {
	const struct repair	*r;
	xfs_agino_t		agino;
	bool			found;
	struct inobt_irec	rec;
};

static int root_chunk(void *priv, xfs_agnumber_t agno,
		      const struct inobt_irec *irec)
{
	struct root_find *f = priv;

	if (rp_ino_rec_refused(f->r, agno, irec))
		return 0;	/* the reference's uncertain inodes */
	if (f->agino >= irec->startino &&
	    f->agino < irec->startino + XFS_INODES_PER_CHUNK) {
		f->found = true;
		f->rec = *irec;
		return 1;
	}
	return 0;
}

/* The root and realtime inodes' chunk must be in the inobt, in use. */
static void check_root_chunk(struct repair *r)
{
	const struct fs_geom *g = &r->fs->geo;
	xfs_ino_t root = r->fs->sb.rootino;
	struct root_find f = { .r = r, .agino = ino_to_agino(g, root) };
	struct rp_args a = RP_ARGS_INIT(OBJ_INOBT);
	static const enum fs_problem codes[3] = {
		PR_RP_ROOT_INODE_FREE, PR_RP_RBM_INODE_FREE,
		PR_RP_RSUM_INODE_FREE
	};

	a.obj.agno = 0;
	a.obj.ino = root;
	/* (an AG whose headers would be reset is not scanned at all) */
	if (ino_valid(g, root) && ino_to_agno(g, root) == 0 &&
	    r->ags[0].sum.agi_ok && !r->ags[0].hdr_bad) {
		ag_iter_chunks(r->fs, 0, root_chunk, &f, NULL);
		/* a record only the finobt has is taken (phase 3) */
		if (!f.found)
			ag_iter_fino_chunks(r->fs, 0, root_chunk, &f, NULL);
	}
	if (!f.found) {
		rp_say(NULL, PR_RP_ROOT_CHUNK_MISSING, &a);
		/* phase 3 reads the chunk all the same (the reference's
		   stand-in record: the first three inodes used) */
		r->root_chunk_made = ino_valid(g, root) &&
				     ino_to_agno(g, root) == 0;
		return;
	}
	rp_log(NULL, "        - found root inode chunk\n");
	for (unsigned i = 0; i < 3; i++) {
		unsigned bit = f.agino - f.rec.startino + i;

		if (bit < XFS_INODES_PER_CHUNK &&
		    (f.rec.free & (1ull << bit))) {
			a.obj.ino = root + i;
			rp_say(NULL, codes[i], &a);
		}
	}
}

void phase2(struct repair *r)
{
	unsigned agcount = r->fs->geo.agcount;
	struct p2 p;

	if (r->fs->sb.logstart == 0) {
		if (!r->o.logdev)
			rp_fatal(r, "This filesystem has an external log.  Specify log device with the -l option.\n");
		rp_log(NULL, "Phase 2 - using external log on %s\n", r->o.logdev);
	} else {
		rp_log(NULL, "Phase 2 - using internal log\n");
	}
	/*
	 * The reference reads the primary again here, through the library's
	 * superblock decoder, whose notice about the old project quota bits
	 * (the v5 format keeps separate ones) it prints; it goes on all the
	 * same.
	 */
	if (r->fs->sb.qflags & (XFS_OQUOTA_ENFD | XFS_OQUOTA_CHKD))
		rp_log(NULL, "Version 5 of Super block has XFS_OQUOTA bits.\n");
	rp_log(NULL, "        - zero log...\n");
	prog_set(PROG_ZERO_LOG, r->fs->sb.logblocks);
	rp_check_log(r);
	prog_end();
	if (!r->o.no_modify)
		return;

	rp_log(NULL, "        - scan filesystem freespace and inode maps...\n");
	prog_set(PROG_SCAN_FREESPACE, agcount);
	r->ags = calloc(agcount, sizeof(*r->ags));
	r->smap = sm_create(agcount);
	if (!r->ags || !r->smap || rp_seq_init(&p.seq, agcount))
		rp_fatal(r, "no memory for ag header counts\n");
	for (unsigned i = 0; i < agcount; i++) {
		memset(r->ags[i].unlinked, 0xff, sizeof(r->ags[i].unlinked));
		findings_init(&r->ags[i].deferred);
		findings_init(&r->ags[i].stale_rmaps);
		sm_list_init(&r->ags[i].free_bno);
		sm_list_init(&r->ags[i].free_cnt);
		sm_list_init(&r->ags[i].meta);
		sm_list_init(&r->ags[i].disk_rmaps);
		sm_refc_init(&r->ags[i].disk_refcs);
	}
	rp_run_ags(r, scan_ag, &p);
	rp_seq_fini(&p.seq);
	prog_end();
	check_counters(r);
	check_root_chunk(r);
}
