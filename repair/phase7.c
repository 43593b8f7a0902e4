/*
 * Phase 7: link counts.  (Being filled in.)
 */
#include "config.h"
#include "repair.h"

void phase7(struct repair *r)
{
	(void)r;
	rp_log(NULL, "Phase 7 - verify link counts...\n");
}
