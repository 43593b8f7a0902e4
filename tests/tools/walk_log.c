/*
 * walkfs: the journal.  Finds the head and tail through libfs/log.c,
 * verifies the records recovery would look at (log_check), and checks
 * that the primary superblock's LSN is not beyond the head (the kernel
 * warns about metadata "ahead of the log", and replay after a crash would
 * skip it).  An external log is only walked when the caller opened it
 * (fs->logdev); walkfs takes one image, so it says so and goes on.
 * With -v: one line with where the log is, its state, head and tail.
 */
#include "config.h"
#include <errno.h>
#include <string.h>
#include "walkfs.h"
#include "log.h"

void walk_log(struct walk_ctx *w)
{
	struct fs *fs = w->fs;
	struct fs_log log;
	struct log_pos pos;
	int err;

	if (!fs->sb_ok)
		return;
	err = log_init_fs(&log, fs, w->fl);
	if (err == -ENODEV) {
		if (w->verbose)
			fprintf(w->out, "log: external, no log device given: not checked\n");
		return;
	}
	if (err)
		return;		/* reported (LOG_OUTSIDE_DEV) */
	err = log_check(&log, &pos, w->fl);
	if (err) {
		struct fs_objref o = OBJREF_INIT(OBJ_LOG);

		o.daddr = log.daddr;
		fs_report_found(w->fl, PR_DEV_IO_ERROR, &o, "log", (uint64_t)-err);
		return;
	}
	if (pos.state != LOG_STATE_CORRUPT && fs->sb.lsn &&
	    log_lsn_cmp(fs->sb.lsn, log_head_lsn(&pos)) > 0) {
		struct fs_objref o = OBJREF_INIT(OBJ_SB);

		o.agno = 0;
		o.daddr = 0;
		fs_report_val(w->fl, PR_SB_BAD_LSN, &o, "lsn",
			      (uint64_t)log_head_lsn(&pos), (uint64_t)fs->sb.lsn);
	}
	if (w->verbose) {
		/* a clean log's tail is its head: nothing to replay */
		xfs_lsn_t tail = pos.state == LOG_STATE_CLEAN ?
				 log_head_lsn(&pos) : pos.tail_lsn;

		fprintf(w->out,
			"log: %s, daddr %llu, %u blocks: %s, head %u:%u, tail %u:%u%s\n",
			fs->geo.log_internal ? "internal" : "external",
			(unsigned long long)log.daddr, log.bbs,
			log_state_name(pos.state), pos.head_cycle,
			pos.head_blk, lsn_cycle(tail), lsn_block(tail),
			pos.trimmed ? " (torn write trimmed)" : "");
	}
}
