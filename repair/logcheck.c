/*
 * The log check of phase 2 ("zero log").  (Waiting for libfs's log head
 * and tail finder: for now the log is taken as clean.)
 */
#include "config.h"
#include "repair.h"

void rp_check_log(struct repair *r)
{
	(void)r;
}
