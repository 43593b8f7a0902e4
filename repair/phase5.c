/*
 * Phase 5: the AG btrees derived from the space map, compared with the
 * ones on disk.  (Being filled in.)
 */
#include "config.h"
#include "repair.h"

void phase5(struct repair *r)
{
	(void)r;
}
