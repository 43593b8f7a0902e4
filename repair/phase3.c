/*
 * Phase 3: every inode.  (Being filled in.)
 */
#include "config.h"
#include "repair.h"

void phase3(struct repair *r)
{
	rp_log(NULL, "Phase 3 - for each AG...\n");
	rp_log(NULL, "        - scan (but don't clear) agi unlinked lists...\n");
	rp_log(NULL, "        - process known inodes and perform inode discovery...\n");
	for (xfs_agnumber_t agno = 0; agno < r->fs->geo.agcount; agno++)
		rp_log(NULL, "        - agno = %u\n", agno);
	rp_log(NULL, "        - process newly discovered inodes...\n");
}
