/*
 * logtool: drive libfs/log.c and log_format.c from the shell tests.
 *
 * Usage: logtool format [-c CYCLE] [-M] [-C] [-N] [-l LOGDEV] IMAGE
 *   Rewrite the filesystem's log with log_format_fs(): cycle CYCLE
 *   (default 1), -M 256 KiB filler records (xfs_repair's layout), -C real
 *   record CRCs, -N do not zero first.
 *        logtool check [-l LOGDEV] IMAGE
 *   log_check(): print "STATE head C:B tail C:B last C:B replay B" (replay:
 *   the block recovery starts at, the head when clean) and findings.
 *        logtool print [-l LOGDEV] IMAGE
 *   Every record from the tail to the head (the last record of a clean
 *   log) and its operations, one line each.
 * -l names the external log device.
 * Exit: 0 done (check: no finding), 1 failed (check: findings), 2 usage
 * or could not open.
 */
#include "config.h"
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fs.h"
#include "log.h"

static void usage(void)
{
	fprintf(stderr,
		"usage: logtool format [-c CYCLE] [-M] [-C] [-N] [-l LOGDEV] IMAGE\n"
		"       logtool check [-l LOGDEV] IMAGE\n"
		"       logtool print [-l LOGDEV] IMAGE\n");
	exit(2);
}

static int open_fs(const char *path, const char *logpath, bool rdonly,
		   struct fs **fsp, struct fs_findings *fl)
{
	int err;

	err = fs_open(path, rdonly ? FS_OPEN_RDONLY : 0, fsp, fl);
	if (err) {
		findings_print(stderr, fl);
		fprintf(stderr, "logtool: %s: %s\n", path, strerror(-err));
		return err;
	}
	if (logpath) {
		err = dev_open(logpath, rdonly ? DEV_RDONLY : 0, &(*fsp)->logdev);
		if (err) {
			fprintf(stderr, "logtool: %s: %s\n", logpath,
				strerror(-err));
			fs_close(*fsp);
			return err;
		}
	}
	return 0;
}

static int cmd_format(int argc, char **argv)
{
	const char *logpath = NULL;
	unsigned long cycle = 1;
	unsigned flags = 0;
	struct fs_findings fl;
	struct fs *fs;
	int c, err;

	while ((c = getopt(argc, argv, "c:MCNl:")) != -1) {
		switch (c) {
		case 'c':
			cycle = strtoul(optarg, NULL, 0);
			break;
		case 'M':
			flags |= LOG_FORMAT_MAXREC;
			break;
		case 'C':
			flags |= LOG_FORMAT_CRC;
			break;
		case 'N':
			flags |= LOG_FORMAT_NOZERO;
			break;
		case 'l':
			logpath = optarg;
			break;
		default:
			usage();
		}
	}
	if (optind != argc - 1)
		usage();
	findings_init(&fl);
	if (open_fs(argv[optind], logpath, false, &fs, &fl)) {
		findings_free(&fl);
		return 2;
	}
	err = log_format_fs(fs, (uint32_t)cycle, flags);
	if (!err)
		err = dev_sync(fs->logdev ? fs->logdev : fs->dev);
	if (err)
		fprintf(stderr, "logtool: format: %s\n", strerror(-err));
	fs_close(fs);
	findings_free(&fl);
	return err ? 1 : 0;
}

static void print_lsn(const char *what, xfs_lsn_t lsn)
{
	printf(" %s %u:%u", what, lsn_cycle(lsn), lsn_block(lsn));
}

/* Open the log of IMAGE read-only and find its head (check and print). */
static int open_log(int argc, char **argv, struct fs **fsp,
		    struct fs_log *log, struct log_pos *pos, bool check,
		    struct fs_findings *fl)
{
	const char *logpath = NULL;
	int c, err;

	while ((c = getopt(argc, argv, "l:")) != -1) {
		if (c != 'l')
			usage();
		logpath = optarg;
	}
	if (optind != argc - 1)
		usage();
	if (open_fs(argv[optind], logpath, true, fsp, fl))
		return 2;
	err = log_init_fs(log, *fsp, fl);
	if (!err)
		err = check ? log_check(log, pos, fl) :
			      log_find_head(log, pos, fl);
	if (err) {
		findings_print(stdout, fl);
		fprintf(stderr, "logtool: log: %s\n", strerror(-err));
		fs_close(*fsp);
		return 1;
	}
	return 0;
}

static int cmd_check(int argc, char **argv)
{
	struct fs_findings fl;
	struct log_pos pos;
	struct fs_log log;
	struct fs *fs;
	int rc;

	findings_init(&fl);
	rc = open_log(argc, argv, &fs, &log, &pos, true, &fl);
	if (rc) {
		findings_free(&fl);
		return rc;
	}
	printf("%s", log_state_name(pos.state));
	print_lsn("head", log_head_lsn(&pos));
	print_lsn("tail", pos.tail_lsn);
	print_lsn("last", pos.rec_lsn);
	printf(" replay %u%s\n", pos.tail_blk, pos.trimmed ? " trimmed" : "");
	findings_print(stdout, &fl);
	rc = fl.n || fl.dropped ? 1 : 0;
	fs_close(fs);
	findings_free(&fl);
	return rc;
}

static int cmd_print(int argc, char **argv)
{
	struct fs_findings fl;
	struct log_pos pos;
	struct fs_log log;
	struct log_iter it;
	const struct log_rec *rec;
	struct fs *fs;
	uint32_t from;
	int rc, r;

	findings_init(&fl);
	rc = open_log(argc, argv, &fs, &log, &pos, false, &fl);
	if (rc) {
		findings_free(&fl);
		return rc;
	}
	from = pos.state == LOG_STATE_DIRTY ? pos.tail_blk : pos.rec_blk;
	if (pos.state == LOG_STATE_ZEROED || pos.state == LOG_STATE_CORRUPT)
		from = pos.head_blk;
	log_iter_init(&it, &log, from, pos.head_blk);
	while ((r = log_iter_next(&it, &rec, &fl)) == 1) {
		struct log_op_iter oi;
		struct log_op op;

		printf("rec %u:", rec->blk);
		print_lsn("lsn", rec->lsn);
		print_lsn("tail", rec->tail_lsn);
		printf(" len %u hblks %u ops %u size %u crc %#x\n", rec->len,
		       rec->hblks, rec->num_logops, rec->size, rec->crc);
		log_op_iter_init(&oi, rec);
		while (log_op_next(&oi, &log, &op, &fl) == 1)
			printf("  op %u: tid %#x len %u client %#x flags %#x\n",
			       op.index, op.tid, op.len, op.clientid,
			       op.flags);
	}
	log_iter_release(&it);
	findings_print(stdout, &fl);
	rc = r < 0 ? 1 : 0;
	fs_close(fs);
	findings_free(&fl);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		usage();
	optind = 2;
	if (!strcmp(argv[1], "format"))
		return cmd_format(argc, argv);
	if (!strcmp(argv[1], "check"))
		return cmd_check(argc, argv);
	if (!strcmp(argv[1], "print"))
		return cmd_print(argc, argv);
	usage();
	return 2;
}
