/*
 * Phase 2: the log, the AG headers and the AG btrees.  (Being filled in.)
 */
#include "config.h"
#include "repair.h"

void phase2(struct repair *r)
{
	if (r->fs->sb.logstart == 0) {
		if (!r->o.logdev)
			rp_fatal(r, "This filesystem has an external log.  Specify log device with the -l option.\n");
		rp_log(NULL, "Phase 2 - using external log on %s\n", r->o.logdev);
	} else {
		rp_log(NULL, "Phase 2 - using internal log\n");
	}
	rp_log(NULL, "        - zero log...\n");
	rp_log(NULL, "        - scan filesystem freespace and inode maps...\n");
	rp_log(NULL, "        - found root inode chunk\n");
}
