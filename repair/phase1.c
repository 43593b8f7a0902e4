/*
 * Phase 1: find and verify the superblock.
 *
 * What it checks: that the primary superblock is usable on its own (the
 * fields the geometry depends on, the CRC, mkfs having finished) and that
 * it agrees with the secondary copies: the geometry most copies share
 * must be the primary's.  When the primary is unusable or outvoted, it
 * looks for a secondary the way the reference does -- first at the AG
 * size the primary claims, then at the AG size mkfs would have chosen for
 * this device, then every megabyte -- and takes the first candidate the
 * other copies agree with.
 *
 * Before all that it opens the data device and the -l and -r devices,
 * with the reference's words (and exit 1) for one that cannot be used;
 * after it, it checks as the reference does that each section's last
 * block can be read from its device (a log device is checked even for a
 * filesystem with an internal log, which the reference then refuses when
 * the device is shorter than that log).
 *
 * What it builds for later phases: r->fs, open read-only on the chosen
 * superblock (its geometry in r->fs->geo), with its log and realtime
 * devices.  Under -n, a primary that would have to be rewritten stops the
 * run here, as in the reference.
 *
 * What stays true: nothing is written; every read is bounded by the
 * device size.
 */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "opts.h"
#include "repair.h"
#include "sbcheck.h"

#define SB_READ_BYTES	(1u << XFS_MAX_SECTORSIZE_LOG)	/* 32 KiB */
#define SCAN_CHUNK	(1024 * 1024)
#define AG_MIN_BYTES	(1ull << 24)
#define AG_MAX_BYTES	(1ull << 40)

/*
 * Read the superblock sector at byte off.  Returns the number of bytes
 * read (at least BBSIZE), 0 past the end of the device.
 */
static size_t read_sb_at(struct fs_dev *dev, uint64_t off, uint8_t *buf)
{
	size_t len = SB_READ_BYTES;

	if (off >= dev->size || dev->size - off < BBSIZE)
		return 0;
	if (dev->size - off < len)
		len = (size_t)(dev->size - off);
	memset(buf, 0, SB_READ_BYTES);
	if (dev_pread(dev, buf, len, off))
		return 0;
	return len;
}

/* The fields that must agree between copies (the reference's list). */
struct sb_geo_key {
	uint32_t	blocksize;
	uint64_t	dblocks, rblocks, rextents, logstart;
	uint32_t	rextsize, agblocks, agcount, rbmblocks, logblocks;
	uint16_t	sectsize, inodesize;
	bool		ialign, salign;
};

static void geo_key(const struct fs_sb *s, struct sb_geo_key *k)
{
	memset(k, 0, sizeof(*k));
	k->blocksize = s->blocksize;
	k->dblocks = s->dblocks;
	k->rblocks = s->rblocks;
	k->rextents = s->rextents;
	k->logstart = s->logstart;
	k->rextsize = s->rextsize;
	k->agblocks = s->agblocks;
	k->agcount = s->agcount;
	k->rbmblocks = s->rbmblocks;
	k->logblocks = s->logblocks;
	k->sectsize = s->sectsize;
	k->inodesize = s->inodesize;
	k->ialign = (s->versionnum & XFS_SB_VERSION_ALIGNBIT) != 0;
	k->salign = (s->versionnum & XFS_SB_VERSION_DALIGNBIT) != 0;
}

static bool geo_key_eq(const struct sb_geo_key *a, const struct sb_geo_key *b)
{
	return a->blocksize == b->blocksize && a->dblocks == b->dblocks &&
	       a->rblocks == b->rblocks && a->rextents == b->rextents &&
	       a->logstart == b->logstart && a->rextsize == b->rextsize &&
	       a->agblocks == b->agblocks && a->agcount == b->agcount &&
	       a->rbmblocks == b->rbmblocks && a->logblocks == b->logblocks &&
	       a->sectsize == b->sectsize && a->inodesize == b->inodesize &&
	       a->ialign == b->ialign && a->salign == b->salign;
}

struct geo_vote {
	struct sb_geo_key	key;
	unsigned		refs;
	xfs_agnumber_t		index;	/* first copy with this geometry */
};

/*
 * Check a candidate primary against its secondaries.  Returns 0 (with
 * *modified set when another copy's geometry won), or an sbc_err.  The
 * 1- and 2-AG and "not enough matching" cases end the run, as in the
 * reference.
 */
static int verify_against_secondaries(struct repair *r, struct fs_dev *dev,
				      struct fs_sb *sb, bool *modified)
{
	uint8_t *buf = malloc(SB_READ_BYTES);
	struct geo_vote *votes = NULL;
	unsigned nvotes = 0, num_ok = 0;
	struct sb_geo_key k;
	struct geo_vote *best = NULL;
	int ret = SBC_OK;

	*modified = false;
	if (!buf)
		rp_fatal(r, "out of memory\n");
	votes = calloc((size_t)sb->agcount + 1, sizeof(*votes));
	if (!votes)
		rp_fatal(r, "out of memory\n");
	geo_key(sb, &k);
	votes[nvotes++] = (struct geo_vote){ .key = k, .refs = 1, .index = 0 };

	for (xfs_agnumber_t agno = 1; agno < sb->agcount; agno++) {
		uint64_t off = ((uint64_t)agno * sb->agblocks) << sb->blocklog;
		struct fs_sb sec;
		size_t len = read_sb_at(dev, off, buf);
		unsigned i;

		if (!len) {
			rp_fatal(r, "superblock read failed, offset %llu, size %u, ag %u, rval 0\n",
				 (unsigned long long)off, 4 * SB_READ_BYTES,
				 agno);
		}
		if (sbc_check(buf, len, false, &sec, NULL) != SBC_OK)
			continue;
		num_ok++;
		geo_key(&sec, &k);
		for (i = 0; i < nvotes; i++)
			if (geo_key_eq(&votes[i].key, &k))
				break;
		if (i < nvotes)
			votes[i].refs++;
		else
			votes[nvotes++] = (struct geo_vote){
				.key = k, .refs = 1, .index = agno };
	}

	if (num_ok < sb->agcount / 2) {
		ret = SBC_INSUFF_SEC_SB;
		goto out;
	}
	/* ties go to the geometry seen last, as in the reference */
	for (unsigned i = nvotes; i-- > 0;)
		if (!best || votes[i].refs > best->refs)
			best = &votes[i];

	switch (sb->agcount) {
	case 1:
		if (!r->o.force_geo) {
			struct rp_args a = RP_ARGS_INIT(OBJ_SB);

			rp_say(NULL, PR_RP_SB_ONE_AG, &a);
			exit(RP_EXIT_FOUND);
		}
		goto out;
	case 2:
		if (best->refs != 2 && !r->o.force_geo) {
			struct rp_args a = RP_ARGS_INIT(OBJ_SB);

			rp_say(NULL, PR_RP_SB_TWO_AG_MISMATCH, &a);
			exit(RP_EXIT_FOUND);
		}
		goto out;
	default:
		if (best->refs < sb->agcount / 2) {
			struct rp_args a = RP_ARGS_INIT(OBJ_SB);

			rp_say(NULL, PR_RP_SB_TOO_FEW_MATCH, &a);
			exit(RP_EXIT_FOUND);
		}
	}

	if (best->index != 0) {
		/*
		 * Another geometry won: take that copy, keeping the primary's
		 * inode pointers and version bits, as the reference does.
		 */
		uint64_t off = ((uint64_t)best->index * best->key.agblocks) *
			       best->key.blocksize;
		struct fs_sb src, keep = *sb;
		size_t len = read_sb_at(dev, off, buf);

		*modified = true;
		if (!len || sbc_check(buf, len, false, &src, NULL) != SBC_OK)
			rp_fatal(r, "could not read superblock\n");
		*sb = src;
		sb->rootino = keep.rootino;
		sb->rbmino = keep.rbmino;
		sb->rsumino = keep.rsumino;
		sb->uquotino = keep.uquotino;
		sb->gquotino = keep.gquotino;
		sb->pquotino = keep.pquotino;
		sb->versionnum = keep.versionnum | XFS_SB_VERSION_EXTFLGBIT;
		if (src.versionnum & XFS_SB_VERSION_DALIGNBIT)
			sb->versionnum |= XFS_SB_VERSION_DALIGNBIT;
		sb->icount = sb->ifree = sb->fdblocks = sb->frextents = 0;
		sb->inprogress = 0;
	}
out:
	free(votes);
	free(buf);
	return ret;
}

/*
 * The AG size mkfs would choose for a device of dblocks 4 KiB blocks on
 * a single disk (the reference's second guess at where secondaries are).
 */
static uint64_t default_agsize(uint64_t dblocks, unsigned blocklog)
{
	uint64_t maxblocks = AG_MAX_BYTES >> blocklog;
	uint64_t mb128 = (128ull << 20) >> blocklog;
	int shift;
	uint64_t blocks;

	if (!dblocks)
		return 0;
	if (dblocks >= ((32ull << 40) >> blocklog) ||
	    dblocks >= ((4ull << 40) >> blocklog))
		return maxblocks;
	if (dblocks >= mb128) {
		shift = 2;
	} else {
		shift = 5;
		if (dblocks <= ((512ull << 30) >> blocklog))
			shift--;
		if (dblocks <= ((8ull << 30) >> blocklog))
			shift--;
		if (dblocks < mb128)
			shift--;
		if (dblocks < ((64ull << 20) >> blocklog))
			shift--;
		if (dblocks < ((32ull << 20) >> blocklog))
			shift--;
	}
	blocks = dblocks >> shift;
	if ((dblocks & ((1ull << shift) - 1)) && blocks < maxblocks)
		blocks++;
	return blocks;
}

/*
 * Scan from start in steps of skip, 1 MiB at a time, for a sector that
 * looks like a superblock and that the other copies agree with.
 */
static bool scan_for_secondary(struct repair *r, struct fs_dev *dev,
			       uint64_t start, uint64_t skip, struct fs_sb *out)
{
	uint8_t *chunk = malloc(SCAN_CHUNK + SB_READ_BYTES);
	bool found = false;

	if (!chunk)
		rp_fatal(r, "out of memory\n");
	for (uint64_t off = start; !found; off += skip) {
		size_t len = 0;

		if (off < dev->size) {
			len = SCAN_CHUNK;
			if (dev->size - off < len)
				len = (size_t)(dev->size - off);
			if (dev_pread(dev, chunk, len, off))
				len = 0;
		}
		rp_warn(NULL, ".");
		if (!len)
			break;
		for (size_t i = 0; !found && i + BBSIZE <= len; i += BBSIZE) {
			struct fs_sb cand;
			size_t avail = len - i;
			bool modified;
			struct rp_args a = RP_ARGS_INIT(OBJ_SB);

			if (avail < SB_READ_BYTES) {
				/* the CRC may need bytes past this chunk */
				size_t extra = SB_READ_BYTES - avail;

				memset(chunk + len, 0, extra);
				if (off + len < dev->size) {
					uint64_t more = dev->size - (off + len);

					if (more > extra)
						more = extra;
					dev_pread(dev, chunk + len, (size_t)more,
						  off + len);
				}
				avail = SB_READ_BYTES;
			}
			if (sbc_check(chunk + i, avail, false, &cand, NULL) !=
			    SBC_OK)
				continue;
			rp_say(NULL, PR_RP_SB_CANDIDATE, &a);
			cand.inprogress = 0;
			if (verify_against_secondaries(r, dev, &cand,
						       &modified) == SBC_OK) {
				rp_say(NULL, PR_RP_SB_CANDIDATE_OK, &a);
				*out = cand;
				found = true;
			} else {
				rp_say(NULL, PR_RP_SB_CANDIDATE_BAD, &a);
			}
		}
		if (!skip)
			break;
	}
	free(chunk);
	return found;
}

static bool find_secondary(struct repair *r, struct fs_dev *dev,
			   const struct fs_sb *bad, struct fs_sb *out)
{
	struct rp_args a = RP_ARGS_INIT(OBJ_SB);
	uint64_t skip;

	rp_say(NULL, PR_RP_SB_SEARCHING, &a);
	if (bad->blocksize && bad->blocklog >= XFS_MIN_BLOCKSIZE_LOG &&
	    bad->blocklog <= XFS_MAX_BLOCKSIZE_LOG &&
	    bad->blocksize == (1u << bad->blocklog)) {
		skip = (uint64_t)bad->agblocks * bad->blocksize;
		if (skip >= AG_MIN_BYTES && skip <= AG_MAX_BYTES &&
		    scan_for_secondary(r, dev, skip, skip, out))
			return true;
	}
	skip = default_agsize(dev->size >> 12, 12) << 12;
	if (skip && scan_for_secondary(r, dev, skip, skip, out))
		return true;
	return scan_for_secondary(r, dev, AG_MIN_BYTES, SCAN_CHUNK, out);
}

/*
 * Open a device the way the reference's library does, with its words
 * when that fails: a path that is not there (looked up first, unless -f
 * says it is a file), one that cannot be opened, and one that is neither
 * a file nor a block device, whose size it cannot tell.
 */
static struct fs_dev *open_device(struct repair *r, const char *path)
{
	struct fs_dev *dev;
	struct stat st;
	int err;

	if (!r->o.isa_file && stat(path, &st) < 0) {
		rp_log(NULL, "%s: %s\n", path, strerror(errno));
		rp_fatal(r, "couldn't initialize XFS library\n");
	}
	err = dev_open(path, DEV_RDONLY, &dev);
	if (err == -ENODEV) {
		fprintf(stderr, "%s: can't determine device size\n",
			rp_progname());
		exit(RP_EXIT_FOUND);
	}
	if (err) {
		fprintf(stderr, "%s: cannot open %s: %s\n", rp_progname(), path,
			strerror(-err));
		exit(RP_EXIT_FOUND);
	}
	return dev;
}

/* The data device, then the -l and -r ones, as the reference opens them. */
static void open_devices(struct repair *r, struct fs_dev **devp,
			 struct fs_dev **logp, struct fs_dev **rtp)
{
	*devp = open_device(r, r->o.device);
	*logp = r->o.logdev ? open_device(r, r->o.logdev) : NULL;
	*rtp = r->o.rtdev ? open_device(r, r->o.rtdev) : NULL;
	if ((*devp)->is_file)
		r->o.isa_file = true;
}

/*
 * Can the len bytes at off be read?  If not, the reference's words for a
 * short read (a device shorter than the filesystem says) or a failed one.
 */
static bool can_read(struct fs_dev *dev, uint64_t off, uint32_t len)
{
	uint64_t have = off < dev->size ? dev->size - off : 0;
	void *buf;
	int err;

	if (have < len) {
		fprintf(stderr, "%s: error - read only %llu of %u bytes\n",
			rp_progname(), (unsigned long long)have, len);
		return false;
	}
	buf = malloc(len);
	if (!buf)
		rp_fatal(NULL, "out of memory\n");
	err = dev_pread(dev, buf, len, off);
	free(buf);
	if (err) {
		fprintf(stderr, "%s: read failed: %s\n", rp_progname(),
			strerror(-err));
		return false;
	}
	return true;
}

_Noreturn static void cannot_repair(const char *why1, const char *why2)
{
	fprintf(stderr, "%s: %s\n", rp_progname(), why1);
	if (why2)
		fprintf(stderr, "%s: %s\n", rp_progname(), why2);
	fprintf(stderr, "%s: cannot repair this filesystem.  Sorry.\n",
		rp_progname());
	exit(RP_EXIT_FOUND);
}

/*
 * The reference's checks before it trusts the sections' sizes: the last
 * sector of the data section, the last block of the log when a log
 * device is given (for an internal log too: it checks the device it was
 * given), and the realtime section, which needs its device and its last
 * block.  Each failure ends the run with exit 1.
 */
static void check_sizes(const struct fs_sb *sb, struct fs_dev *dev,
			struct fs_dev *logdev, struct fs_dev *rtdev)
{
	uint64_t bs = sb->blocksize;

	if (!sb->dblocks || !can_read(dev, sb->dblocks * bs - sb->sectsize,
				      sb->sectsize))
		cannot_repair("data size check failed", NULL);
	if (logdev && (!sb->logblocks ||
		       !can_read(logdev, (sb->logblocks - 1) * bs, (uint32_t)bs)))
		cannot_repair("log size checks failed", NULL);
	if (!sb->rblocks)
		return;
	if (!rtdev)
		cannot_repair("filesystem has a realtime subvolume",
			      "realtime device init failed");
	if (!can_read(rtdev, (sb->rblocks - 1) * bs, (uint32_t)bs))
		cannot_repair("realtime size check failed",
			      "realtime device init failed");
}

int phase1(struct repair *r)
{
	struct fs_dev *dev, *logdev, *rtdev;
	uint8_t *buf;
	struct fs_sb sb;
	struct fs_finding why;
	size_t len;
	bool modified = false;
	int err, rval;

	open_devices(r, &dev, &logdev, &rtdev);
	rp_log(NULL, "Phase 1 - find and verify superblock...\n");
	buf = malloc(SB_READ_BYTES);
	if (!buf)
		rp_fatal(r, "out of memory\n");
	len = read_sb_at(dev, 0, buf);
	if (!len)
		rp_fatal(r, "error reading primary superblock\n");
	if (len < SB_READ_BYTES && len < sizeof(struct xfs_dsb))
		rp_fatal(r, "superblock read failed, offset 0, size %u, ag 0, rval %zu\n",
			 SB_READ_BYTES, len);

	rval = sbc_check_why(buf, len, true, &sb, NULL, &why);
	if (rval == SBC_V4) {
		/* a good v4 superblock: a format we do not check */
		struct rp_args a = RP_ARGS_INIT(OBJ_SB);

		a.obj.agno = 0;
		a.s1 = r->o.device;
		a.field = "versionnum";
		a.expected = XFS_SB_VERSION_5;
		a.found = sb.versionnum & XFS_SB_VERSION_NUMBITS;
		rp_say(NULL, PR_FS_V4, &a);
		exit(RP_EXIT_FOUND);
	}
	if (rval != SBC_OK) {
		struct rp_args a = RP_ARGS_INIT(OBJ_SB);

		a.obj.agno = 0;
		a.s1 = sbc_strerror(rval);
		a.field = why.field;
		a.expected = why.expected;
		a.found = why.found;
		rp_say(NULL, PR_RP_SB_PRIMARY_BAD, &a);
		a.field = NULL;
		a.expected = a.found = 0;
		if (!find_secondary(r, dev, &sb, &sb)) {
			a.s1 = NULL;
			rp_say(NULL, PR_RP_SB_NONE_FOUND, &a);
			exit(RP_EXIT_FOUND);
		}
		modified = true;
	} else if ((rval = verify_against_secondaries(r, dev, &sb,
						      &modified)) != SBC_OK) {
		struct rp_args a = RP_ARGS_INIT(OBJ_SB);

		a.obj.agno = 0;
		a.s1 = sbc_strerror(rval);
		rp_say(NULL, PR_RP_SB_PRIMARY_UNVERIFIED, &a);
		if (!find_secondary(r, dev, &sb, &sb)) {
			a.s1 = NULL;
			rp_say(NULL, PR_RP_SB_NONE_FOUND, &a);
			exit(RP_EXIT_FOUND);
		}
		modified = true;
	}

	if (sb.bad_features2 != 0 && sb.bad_features2 != sb.features2) {
		struct rp_args a = RP_ARGS_INIT(OBJ_SB);

		a.obj.agno = 0;
		a.field = "bad_features2";
		a.found = sb.bad_features2;
		a.expected = sb.features2;
		sb.features2 |= sb.bad_features2;
		sb.bad_features2 = sb.features2;
		modified = true;
		rp_say(NULL, PR_RP_SB_FEATURES2, &a);
	}
	if (r->o.convert_lazy_count) {
		/* -c lazycount: v5 filesystems always have lazy counters */
		if (r->o.lazy_count) {
			printf("Lazy-counters are already enabled\n");
			exit(RP_EXIT_CLEAN);
		}
		printf("Cannot disable lazy-counters on V5 fs\n");
		exit(RP_EXIT_FOUND);
	}
	if (sb.shared_vn) {
		struct rp_args a = RP_ARGS_INIT(OBJ_SB);

		a.obj.agno = 0;
		a.found = sb.shared_vn;
		sb.shared_vn = 0;
		modified = true;
		rp_say(NULL, PR_RP_SB_SHARED_VN, &a);
	}
	if (modified) {
		struct rp_args a = RP_ARGS_INIT(OBJ_SB);

		a.obj.agno = 0;
		rp_say(NULL, PR_RP_SB_WOULD_WRITE, &a);
		if (r->o.no_modify) {
			rp_warn(NULL, "Primary superblock would have been modified.\n"
				"Cannot proceed further in no_modify mode.\n"
				"Exiting now.\n");
			exit(RP_EXIT_FOUND);
		}
	}
	free(buf);

	err = fs_open_dev(dev, FS_OPEN_NOSB | FS_OPEN_RDONLY, &r->fs, NULL);
	if (err)
		rp_fatal(r, "cannot open %s: %s\n", r->o.device, strerror(-err));
	fs_set_sb(r->fs, &sb);
	r->fs->sb_ok = true;
	/* every block LSN libfs's checks meet, for rp_check_max_lsn() */
	r->fs->lsn_seen = rp_note_lsn;
	/* the superblock's LSN is the log's to set: not held against it */
	r->fs->logdev = logdev;
	r->fs->rtdev = rtdev;
	check_sizes(&sb, dev, logdev, rtdev);
	rp_report_set_geom(&r->fs->geo);
	return 0;
}
