/*
 * The log, for phase 2 ("zero log") and the end of the run.
 *
 * What it checks: that libfs's log_find_head() finds a head and a tail
 * (the search log recovery makes), that the last record names this
 * filesystem's UUID (a null one passes; the reference's words and its
 * "SB :" / "log:" lines), and that the log is clean.  Under -n a
 * dirty log is reported and the check goes on; without -n the run stops
 * with exit 2 and the reference's advice, before anything else happens.
 * At the end, the highest LSN seen in metadata must be behind the log
 * head (else the reference says it would reformat the log).  That is the
 * reference's only rule about metadata LSNs: it holds no block's LSN
 * against it otherwise, so libfs's *_BAD_LSN findings are only notes
 * (messages.def).
 *
 * What it leaves: r->log_head_cycle/_block (0:0 if no head was found)
 * for that last check.  rp_note_lsn() may be called from any thread.
 */
#include "config.h"
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <uuid/uuid.h>
#include "log.h"
#include "repair.h"

/*
 * LSNs order as (cycle, block), and the reference keeps both halves in C
 * ints: one with its top bit set is negative, below every real one (a
 * block LSN of 1:0xfffffff0 is not ahead of a log at 1:2209).  With both
 * top bits flipped, that order is the order of unsigned 64-bit numbers,
 * which an atomic maximum can keep.
 */
#define LSN_SIGN_BITS	0x8000000080000000ull

static _Atomic uint64_t max_key = LSN_SIGN_BITS;	/* 0:0 */

void rp_note_lsn(xfs_lsn_t lsn)
{
	uint64_t key = (uint64_t)lsn ^ LSN_SIGN_BITS;
	uint64_t cur = atomic_load(&max_key);

	if (lsn == NULLCOMMITLSN)
		return;		/* never logged: the reference skips it too */
	while (key > cur && !atomic_compare_exchange_weak(&max_key, &cur, key))
		;
}

void rp_check_log(struct repair *r)
{
	struct fs_findings fl;
	struct fs_log log;
	struct log_pos pos;
	struct rp_args a = RP_ARGS_INIT(OBJ_LOG);
	int err;

	findings_init(&fl);
	err = log_init_fs(&log, r->fs, &fl);
	if (!err && log_not_a_log(&log)) {
		rp_log(NULL, "Log inconsistent or not a log (last==0, first!=1)\n"
		       "empty log check failed\n");
		err = -EINVAL;
	}
	if (!err)
		err = log_find_head(&log, &pos, &fl);
	if (err || pos.state == LOG_STATE_CORRUPT) {
		a.found = 22;
		rp_say(NULL, PR_RP_LOG_NO_HEAD, &a);
		if (!r->o.no_modify && !r->o.zap_log) {
			rp_warn(NULL, "ERROR: The log head and/or tail cannot be discovered. Attempt to mount the\n"
				"filesystem to replay the log or use the -L option to destroy the log and\n"
				"attempt a repair.\n");
			exit(RP_EXIT_DIRTY_LOG);
		}
		goto out;
	}
	if (pos.state != LOG_STATE_ZEROED && !uuid_is_null(pos.rec_uuid.b) &&
	    memcmp(&pos.rec_uuid, &r->fs->sb.uuid, sizeof(pos.rec_uuid))) {
		struct rp_args u = RP_ARGS_INIT(OBJ_LOG);
		char sb[37], lg[37];

		uuid_unparse_lower(r->fs->sb.uuid.b, sb);
		uuid_unparse_lower(pos.rec_uuid.b, lg);
		u.flags = 0;
		u.s1 = sb;
		u.s2 = lg;
		rp_say(NULL, PR_RP_LOG_UUID_MISMATCH, &u);
	}
	if (pos.state == LOG_STATE_ZEROED) {
		rp_log(NULL, "totally zeroed log\n");
		pos.head_blk = pos.tail_blk = 0;
		pos.head_cycle = 0;
	}
	if (r->o.verbose)
		rp_log(NULL, "zero_log: head block %u tail block %u\n",
		       pos.head_blk, pos.tail_blk);
	r->log_head_cycle = pos.head_cycle;
	r->log_head_block = pos.head_blk;
	if (pos.state == LOG_STATE_DIRTY) {
		r->log_dirty = true;
		if (r->o.no_modify) {
			rp_say(NULL, PR_RP_LOG_DIRTY, &a);
		} else if (!r->o.zap_log) {
			rp_warn(NULL, "ERROR: The filesystem has valuable metadata changes in a log which needs to\n"
				"be replayed.  Mount the filesystem to replay the log, and unmount it before\n"
				"re-running xfs_repair.  If you are unable to mount the filesystem, then use\n"
				"the -L option to destroy the log and attempt a repair.\n"
				"Note that destroying the log may cause corruption -- please attempt a mount\n"
				"of the filesystem before doing this.\n");
			exit(RP_EXIT_DIRTY_LOG);
		}
	}
out:
	findings_free(&fl);
}

void rp_check_max_lsn(struct repair *r)
{
	xfs_lsn_t m = (xfs_lsn_t)(atomic_load(&max_key) ^ LSN_SIGN_BITS);
	int64_t mc = (int32_t)lsn_cycle(m), mb = (int32_t)lsn_block(m);
	struct rp_args a = RP_ARGS_INIT(OBJ_LOG);

	if (mc < (int64_t)r->log_head_cycle ||
	    (mc == (int64_t)r->log_head_cycle &&
	     mb < (int64_t)r->log_head_block))
		return;
	a.found = (uint64_t)mc;
	a.expected = (uint64_t)mb;
	a.v2 = r->log_head_cycle;
	a.v3 = r->log_head_block;
	/* the reference adds 3 in an int: the cycle it names may wrap */
	a.obj.index = (uint64_t)(int64_t)(int32_t)(lsn_cycle(m) + 3u);
	rp_say(NULL, PR_RP_LOG_LSN_AHEAD, &a);
}
