/*
 * Phase 7: link counts.
 *
 * What it checks: every inode in use that phase 6 reached (from the root
 * or as a disconnected inode) has the link count phase 6 counted.
 * Metadata inodes are not in the namespace: phase 6 counts them as they
 * are.  An inode on an AGI unlinked list is no exception to the rule:
 * the reference counts it like any other, so an entry still naming an
 * inode whose link count is 0 means a count to reset ("would have reset
 * inode ... nlinks from 0 to 1"), and an orphan nothing names is
 * disconnected (phase 6) and gets the link lost+found would give it.
 * A count that differs on an inode the kernel's verifier refuses cannot
 * be compared by the reference, and it says so instead.
 *
 * What it reads: r->imap, complete after phase 6 (and the link count
 * of an inode of a version 0 core again, as the reference's library
 * has it).  Nothing is left.
 */
#include "config.h"
#include "inode.h"
#include "progress.h"
#include "repair.h"

/*
 * The link count the reference's library reads from an inode of a
 * version 0 core (di_nlink; phase 3 took di_onlink): it compares that
 * one.  Returns false if the inode cannot be read.
 */
static bool lib_nlink(struct repair *r, xfs_ino_t ino, uint32_t *nlink)
{
	struct fs_buf *bp;
	uint32_t off;

	if (inode_read_cluster(r->fs, ino, NULL, &bp, &off))
		return false;
	*nlink = get_be32(((const struct xfs_dinode *)
			   (bp->data + off))->di_nlink);
	buf_release(bp);
	return true;
}

void phase7(struct repair *r)
{
	rp_log(NULL, "Phase 7 - verify link counts...\n");
	prog_set(PROG_FIX_NLINKS, r->fs->geo.agcount);
	for (xfs_agnumber_t agno = 0; agno < r->imap->agcount; agno++) {
		const struct im_ag *ag = &r->imap->ags[agno];

		for (size_t k = 0; k < ag->n; k++) {
			const struct im_chunk *ch = &ag->v[k];
			uint64_t todo = ch->used & ~ch->cleared & ch->reached;

			for (unsigned bit = 0; bit < 64; bit++) {
				struct rp_args a = RP_ARGS_INIT(OBJ_INODE);

				if (!((todo >> bit) & 1) ||
				    ch->counted[bit] == ch->nlink[bit])
					continue;
				a.obj.ino = agino_to_ino(&r->fs->geo, agno,
							 ch->startino + bit);
				a.obj.agno = agno;
				a.found = ch->nlink[bit];
				a.expected = ch->counted[bit];
				a.field = "nlink";
				if (((ch->v0core & ~ch->unreadable) >> bit) & 1) {
					uint32_t n;

					if (lib_nlink(r, a.obj.ino, &n)) {
						if (n == ch->counted[bit])
							continue;
						a.found = n;
					}
				}
				/*
				 * The reference reads the inode through
				 * libxfs to compare: it cannot, if the
				 * kernel's verifier refuses it.
				 */
				if ((ch->unreadable >> bit) & 1)
					rp_say_unmapped(r->imap, a.obj.ino,
							PR_RP_NLINK_UNREADABLE,
							&a);
				else
					rp_say(NULL, PR_RP_NLINK, &a);
			}
		}
		prog_add(agno, 1);
	}
	prog_end();
}

/*
 * The quota inodes the primary superblock names (0 and NULLFSINO name
 * none) must be inodes in use that phase 3 keeps; a quota inode that is
 * not would be dropped, and with it the limits, as the reference warns
 * after phase 7.
 */
void rp_quota_check(struct repair *r)
{
	const struct fs_sb *sb = &r->fs->sb;
	const struct {
		xfs_ino_t		ino;
		enum fs_problem		code;
	} q[] = {
		{ sb->uquotino, PR_RP_QUOTA_LOST_USER },
		{ sb->gquotino, PR_RP_QUOTA_LOST_GROUP },
		{ sb->pquotino, PR_RP_QUOTA_LOST_PROJECT },
	};

	for (unsigned i = 0; i < sizeof(q) / sizeof(q[0]); i++) {
		struct rp_args a = RP_ARGS_INIT(OBJ_SB);
		const struct im_chunk *ch;
		unsigned bit;

		if (q[i].ino == 0 || q[i].ino == NULLFSINO)
			continue;
		ch = im_find(r->imap, q[i].ino, &bit);
		if (ch && ((ch->used & ~ch->cleared) >> bit & 1))
			continue;
		a.obj.agno = 0;
		a.found = q[i].ino;
		rp_say(NULL, q[i].code, &a);
	}
}
