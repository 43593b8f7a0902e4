/*
 * Phase 6: directories and connectivity.  (Being filled in.)
 */
#include "config.h"
#include "repair.h"

void phase6(struct repair *r)
{
	rp_log(NULL, "Phase 6 - check inode connectivity...\n");
	rp_log(NULL, "        - traversing filesystem ...\n");
	if (r->o.verbose)
		for (xfs_agnumber_t agno = 0; agno < r->fs->geo.agcount; agno++)
			rp_log(NULL, "        - agno = %u\n", agno);
	rp_log(NULL, "        - traversal finished ...\n");
	rp_log(NULL, "        - moving disconnected inodes to lost+found ...\n");
}
