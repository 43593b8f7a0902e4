/*
 * xfs_repair's command line (opts.c): the reference's options, usage
 * text and error messages.
 */
#ifndef XK_REPAIR_OPTS_H
#define XK_REPAIR_OPTS_H

#include "repair.h"

/* The xfsprogs release whose command line and output we follow. */
#define RP_COMPAT_VERSION	"6.1.0"

/*
 * Fill *o from argv, or print the reference's message and exit 1.  -V
 * prints the version and exits 0.  *warned says a suboption was warned
 * about (which, as in the reference, makes the exit code 1).
 */
void rp_parse_args(int argc, char **argv, struct repair_opts *o,
		   bool *warned);
_Noreturn void rp_usage(void);
const char *rp_progname(void);

#endif
