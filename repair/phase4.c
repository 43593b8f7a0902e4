/*
 * Phase 4: blocks claimed twice.  (Being filled in.)
 */
#include "config.h"
#include "repair.h"

void phase4(struct repair *r)
{
	rp_log(NULL, "Phase 4 - check for duplicate blocks...\n");
	rp_log(NULL, "        - setting up duplicate extent list...\n");
	rp_log(NULL, "        - check for inodes claiming duplicate blocks...\n");
	for (xfs_agnumber_t agno = 0; agno < r->fs->geo.agcount; agno++)
		rp_log(NULL, "        - agno = %u\n", agno);
}
