/*
 * -c inobtcount=1, -c bigtime=1, -c nrext64=1: feature upgrades.
 *
 * What it checks, at the end of phase 2 as the reference does (after the
 * superblocks, the log, the AG headers and the root inode chunk have been
 * looked at): for each upgrade asked for, in the reference's order, that
 * the filesystem can take it -- a filesystem that already has it, or
 * (inode btree counts) has no free inode btree to count, ends the run
 * there with exit 0 and the reference's words on stdout -- and that the
 * log is still large enough for the transactions of the upgraded
 * geometry (exit 1 otherwise).
 *
 * What it leaves: nothing.  Under -n the upgrades are only announced;
 * writing them belongs to the fixing half.  The reference's check that
 * the root inode stays where mkfs would put it cannot fail here: none of
 * these features moves it, and a root inode elsewhere has already been
 * reported (and, in the reference, reset in memory) before phase 2.
 *
 * Phase 1 accepts only v5 filesystems, so the reference's refusals of
 * these upgrades on v4 do not arise.
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include "repair.h"
#include "resv.h"

/* The superblock facts the log reservations depend on (libfs/resv.h). */
static void resv_geom_of(const struct fs_sb *sb, bool nrext64,
			 struct resv_geom *g)
{
	*g = (struct resv_geom){
		.blocksize = sb->blocksize,
		.sectsize = sb->sectsize,
		.inodesize = sb->inodesize,
		.agblocks = sb->agblocks,
		.agblklog = sb->agblklog,
		.dirblocksize = sb->blocksize << sb->dirblklog,
		.inoalignmt = sb->inoalignmt,
		.logsunit = sb->logsunit,
		.rblocks = sb->rblocks,
		.rextsize = sb->rextsize,
		.finobt = sb_has_finobt(sb),
		.rmapbt = sb_has_rmapbt(sb),
		.reflink = sb_has_reflink(sb),
		.nrext64 = nrext64,
	};
}

/* The run ends here, as the reference's does, with its message. */
_Noreturn static void stop(const char *msg)
{
	printf("%s", msg);
	exit(RP_EXIT_CLEAN);
}

void rp_upgrade(struct repair *r)
{
	const struct fs_sb *sb = &r->fs->sb;
	bool nrext64 = sb_has_nrext64(sb), any = false;
	struct resv_geom g;
	uint32_t min_log;

	if (r->o.conversions & RP_CONV_INOBTCOUNT) {
		if (!sb_has_finobt(sb))
			stop("Inode btree count feature requires free inode btree.\n");
		if (sb_has_inobtcount(sb))
			stop("Filesystem already has inode btree counts.\n");
		printf("Adding inode btree counts to filesystem.\n");
		any = true;
	}
	if (r->o.conversions & RP_CONV_BIGTIME) {
		if (sb_has_bigtime(sb))
			stop("Filesystem already supports large timestamps.\n");
		printf("Adding large timestamp support to filesystem.\n");
		any = true;
	}
	if (r->o.conversions & RP_CONV_NREXT64) {
		if (nrext64)
			stop("Filesystem already supports nrext64.\n");
		printf("Adding nrext64 to filesystem.\n");
		nrext64 = any = true;
	}
	if (!any)
		return;

	/* larger extent counts mean taller bmap btrees, larger transactions */
	resv_geom_of(sb, nrext64, &g);
	min_log = resv_min_log_blocks(&g);
	if (sb->logblocks < min_log) {
		printf("Filesystem log too small to upgrade filesystem; need %u blocks, have %u.\n",
		       min_log, sb->logblocks);
		exit(RP_EXIT_FOUND);
	}
}
