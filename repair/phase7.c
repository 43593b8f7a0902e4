/*
 * Phase 7: link counts.
 *
 * What it checks: every inode in use that phase 6 reached (from the root
 * or as a disconnected inode) has the link count phase 6 counted.
 * Metadata inodes and inodes waiting on an unlinked list are not in the
 * namespace and are left alone.
 *
 * What it reads: r->imap, complete after phase 6.  Nothing is left.
 */
#include "config.h"
#include "progress.h"
#include "repair.h"

void phase7(struct repair *r)
{
	rp_log(NULL, "Phase 7 - verify link counts...\n");
	prog_set(PROG_FIX_NLINKS, r->fs->geo.agcount);
	for (xfs_agnumber_t agno = 0; agno < r->imap->agcount; agno++) {
		const struct im_ag *ag = &r->imap->ags[agno];

		for (size_t k = 0; k < ag->n; k++) {
			const struct im_chunk *ch = &ag->v[k];
			uint64_t todo = ch->used & ~ch->cleared & ch->reached &
					~ch->unlinked;

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
				rp_say(NULL, PR_RP_NLINK, &a);
			}
		}
		prog_add(agno, 1);
	}
	prog_end();
}
