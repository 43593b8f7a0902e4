/*
 * Inode core decode and verification on synthetic inodes: bigtime and
 * legacy timestamps, nrext64 counters, fork placement, and one finding per
 * damaged field (magic, CRC, inode number, mode/format, forkoff, counters,
 * flags2 against features).
 */
#include "config.h"
#include "unit.h"
#include <stdlib.h>
#include <string.h>
#include "format/crc32c.h"
#include "inode.h"

static struct fs fs;

static void setup_fs(bool bigtime, bool nrext64)
{
	struct fs_sb sb;

	memset(&fs, 0, sizeof(fs));
	memset(&sb, 0, sizeof(sb));
	sb.magicnum = XFS_SB_MAGIC;
	sb.versionnum = 0xb4a5;
	sb.blocksize = 4096;
	sb.blocklog = 12;
	sb.sectsize = 512;
	sb.sectlog = 9;
	sb.inodesize = 512;
	sb.inodelog = 9;
	sb.inopblock = 8;
	sb.inopblog = 3;
	sb.agblocks = 65536;
	sb.agblklog = 16;
	sb.agcount = 4;
	sb.dblocks = 262144;
	sb.inoalignmt = 8;
	sb.features_incompat = XFS_SB_FEAT_INCOMPAT_FTYPE |
		(bigtime ? XFS_SB_FEAT_INCOMPAT_BIGTIME : 0) |
		(nrext64 ? XFS_SB_FEAT_INCOMPAT_NREXT64 : 0);
	sb.features_ro_compat = XFS_SB_FEAT_RO_COMPAT_REFLINK;
	memset(&sb.uuid, 0x5a, sizeof(sb.uuid));
	fs_set_sb(&fs, &sb);
}

/* A valid empty regular file at inode number ino. */
static void make_inode(uint8_t *raw, xfs_ino_t ino)
{
	struct xfs_dinode *d = (void *)raw;

	memset(raw, 0, 512);
	put_be16(&d->di_magic, XFS_DINODE_MAGIC);
	put_be16(&d->di_mode, XFS_S_IFREG | 0644);
	d->di_version = 3;
	d->di_format = XFS_DINODE_FMT_EXTENTS;
	d->di_aformat = XFS_DINODE_FMT_EXTENTS;
	put_be32(&d->di_nlink, 1);
	put_be32(&d->di_next_unlinked, NULLAGINO);
	put_be64(&d->di_ino, ino);
	d->di_uuid = fs.geo.meta_uuid;
}

static void seal(uint8_t *raw)
{
	xfs_cksum_update(raw, 512, XFS_DINODE_CRC_OFF);
}

static unsigned verify_count(uint8_t *raw, xfs_ino_t ino,
			     enum fs_problem want)
{
	struct fs_findings fl;
	unsigned errs;
	bool has;

	findings_init(&fl);
	errs = inode_verify(&fs, ino, raw, &fl);
	has = want == PR_NONE ? fl.n == 0 : findings_has(&fl, want);
	if (!has)
		findings_print(stderr, &fl);
	findings_free(&fl);
	ck_assert(has);
	return errs;
}

START_TEST(clean_inode)
{
	uint8_t raw[512];

	setup_fs(true, false);
	make_inode(raw, 131);
	seal(raw);
	ck_assert_uint_eq(verify_count(raw, 131, PR_NONE), 0);
}
END_TEST

START_TEST(bigtime_and_legacy_times)
{
	uint8_t raw[512];
	struct xfs_dinode *d = (void *)raw;
	struct fs_inode ip;

	setup_fs(true, false);
	make_inode(raw, 131);
	put_be64(&d->di_flags2, XFS_DIFLAG2_BIGTIME);
	/* 2100-01-01T00:00:00Z = 4102444800, plus 7 ns */
	put_be64(&d->di_mtime, (4102444800ull + (1ull << 31)) * 1000000000ull + 7);
	/* 1901-12-13T20:45:52Z is bigtime zero */
	put_be64(&d->di_atime, 0);
	ck_assert_int_eq(inode_decode(&fs.geo, 131, raw, &ip), 0);
	ck_assert_int_eq(ip.mtime.sec, 4102444800ll);
	ck_assert_uint_eq(ip.mtime.nsec, 7);
	ck_assert_int_eq(ip.atime.sec, -2147483648ll);
	inode_release(&ip);

	/* legacy: signed 32-bit seconds before 1970 */
	put_be64(&d->di_flags2, 0);
	put_be64(&d->di_mtime, ((uint64_t)(uint32_t)-86400 << 32) | 5);
	ck_assert_int_eq(inode_decode(&fs.geo, 131, raw, &ip), 0);
	ck_assert_int_eq(ip.mtime.sec, -86400);
	ck_assert_uint_eq(ip.mtime.nsec, 5);
	inode_release(&ip);
	/* a legacy nanosecond count of one second or more is bad */
	put_be64(&d->di_mtime, 1000000000ull);
	seal(raw);
	verify_count(raw, 131, PR_INODE_BAD_TIMESTAMP);
}
END_TEST

START_TEST(nrext64_counters)
{
	uint8_t raw[512];
	struct xfs_dinode *d = (void *)raw;
	struct fs_inode ip;

	setup_fs(true, true);
	make_inode(raw, 131);
	put_be64(&d->di_flags2, XFS_DIFLAG2_NREXT64 | XFS_DIFLAG2_BIGTIME);
	d->di_format = XFS_DINODE_FMT_BTREE;
	put_be64(&d->u24.di_big_nextents, 5000000000ull);
	put_be32(&d->u76.big.di_big_anextents, 70000);
	ck_assert_int_eq(inode_decode(&fs.geo, 131, raw, &ip), 0);
	ck_assert_uint_eq(ip.nextents, 5000000000ull);
	ck_assert_uint_eq(ip.anextents, 70000);
	inode_release(&ip);
	/* without the feature, the inode flag is refused */
	setup_fs(true, false);
	make_inode(raw, 131);
	put_be64(&d->di_flags2, XFS_DIFLAG2_NREXT64);
	seal(raw);
	verify_count(raw, 131, PR_INODE_FLAG_NO_FEATURE);
}
END_TEST

START_TEST(damaged_fields)
{
	uint8_t raw[512];
	struct xfs_dinode *d = (void *)raw;

	setup_fs(true, false);

	make_inode(raw, 131);
	put_be16(&d->di_magic, 0x1234);
	seal(raw);
	verify_count(raw, 131, PR_INODE_BAD_MAGIC);

	make_inode(raw, 131);
	seal(raw);
	raw[300] ^= 0xff;
	verify_count(raw, 131, PR_INODE_BAD_CRC);

	make_inode(raw, 131);
	seal(raw);
	verify_count(raw, 132, PR_INODE_BAD_INO);

	make_inode(raw, 131);
	put_be16(&d->di_mode, 0170644);		/* no such file type */
	seal(raw);
	verify_count(raw, 131, PR_INODE_BAD_MODE);

	make_inode(raw, 131);
	d->di_format = XFS_DINODE_FMT_LOCAL;	/* regular files are never local */
	seal(raw);
	verify_count(raw, 131, PR_INODE_BAD_FORMAT);

	make_inode(raw, 131);
	d->di_forkoff = 200;			/* 1600 bytes: past 336 */
	seal(raw);
	verify_count(raw, 131, PR_INODE_BAD_FORKOFF);

	make_inode(raw, 131);
	put_be32(&d->u76.small.di_nextents, 22);	/* 336 / 16 = 21 fit */
	put_be64(&d->di_nblocks, 22);
	seal(raw);
	verify_count(raw, 131, PR_INODE_BAD_NEXTENTS);

	make_inode(raw, 131);
	put_be32(&d->u76.small.di_nextents, 3);
	put_be64(&d->di_nblocks, 2);
	seal(raw);
	verify_count(raw, 131, PR_INODE_BAD_NBLOCKS);

	make_inode(raw, 131);
	put_be64(&d->di_flags2, XFS_DIFLAG2_REFLINK);
	put_be16(&d->di_mode, XFS_S_IFDIR | 0755);	/* reflink dirs: no */
	d->di_format = XFS_DINODE_FMT_EXTENTS;
	seal(raw);
	verify_count(raw, 131, PR_INODE_FLAG_WRONG_TYPE);

	make_inode(raw, 131);
	put_be32(&d->di_next_unlinked, 131 & 0xfffff);	/* points at itself */
	seal(raw);
	verify_count(raw, 131, PR_INODE_BAD_UNLINKED);

	make_inode(raw, 131);
	put_be32(&d->di_extsize, 16);		/* no EXTSIZE flag */
	seal(raw);
	verify_count(raw, 131, PR_INODE_BAD_EXTSIZE);
}
END_TEST

/* The flag rules one at a time, each with the finding it makes. */
START_TEST(flag_rules)
{
	uint8_t raw[512];
	struct xfs_dinode *d = (void *)raw;

	setup_fs(true, false);

	/* the rt bitmap flag belongs to the rt bitmap inode only */
	make_inode(raw, 131);
	put_be16(&d->di_flags, XFS_DIFLAG_NEWRTBM);
	seal(raw);
	verify_count(raw, 131, PR_INODE_NOT_RTBITMAP);

	/* a directory flag on a file */
	make_inode(raw, 131);
	put_be16(&d->di_flags, XFS_DIFLAG_PROJINHERIT);
	seal(raw);
	verify_count(raw, 131, PR_INODE_FLAG_WRONG_TYPE);

	/* a hint flag needs a hint */
	make_inode(raw, 131);
	put_be16(&d->di_flags, XFS_DIFLAG_EXTSIZE);
	seal(raw);
	verify_count(raw, 131, PR_INODE_BAD_EXTSIZE);
	make_inode(raw, 131);
	put_be64(&d->di_flags2, XFS_DIFLAG2_COWEXTSIZE);
	seal(raw);
	verify_count(raw, 131, PR_INODE_BAD_COWEXTSIZE);

	/* a hint of half an AG is the most a data file takes */
	make_inode(raw, 131);
	put_be16(&d->di_flags, XFS_DIFLAG_EXTSIZE);
	put_be32(&d->di_extsize, 65536 / 2);
	seal(raw);
	verify_count(raw, 131, PR_NONE);
	put_be32(&d->di_extsize, 65536 / 2 + 1);
	seal(raw);
	verify_count(raw, 131, PR_INODE_BAD_EXTSIZE);

	/* an inheritable hint on a file: both rules say so */
	make_inode(raw, 131);
	put_be16(&d->di_flags, XFS_DIFLAG_EXTSZINHERIT);
	put_be32(&d->di_extsize, 16);
	seal(raw);
	verify_count(raw, 131, PR_INODE_FLAG_WRONG_TYPE);
	verify_count(raw, 131, PR_INODE_BAD_EXTSIZE);

	/* a device's attribute fork starts right after the device number */
	make_inode(raw, 131);
	put_be16(&d->di_mode, XFS_S_IFCHR | 0644);
	d->di_format = XFS_DINODE_FMT_DEV;
	d->di_forkoff = 1;
	seal(raw);
	verify_count(raw, 131, PR_NONE);
	d->di_forkoff = 9;
	seal(raw);
	verify_count(raw, 131, PR_INODE_BAD_DEV_FORKOFF);
}
END_TEST

START_TEST(fork_layout)
{
	uint8_t raw[512];
	struct xfs_dinode *d = (void *)raw;
	struct fs_inode ip;

	setup_fs(true, false);
	make_inode(raw, 131);
	d->di_forkoff = 15;			/* attr fork at 120 bytes */
	ck_assert_int_eq(inode_decode(&fs.geo, 131, raw, &ip), 0);
	ck_assert_uint_eq(ip.dfork_size, 120);
	ck_assert_uint_eq(ip.afork_size, 512 - 176 - 120);
	ck_assert_ptr_eq(ip.afork, ip.dfork + 120);
	inode_release(&ip);
	d->di_forkoff = 0;
	ck_assert_int_eq(inode_decode(&fs.geo, 131, raw, &ip), 0);
	ck_assert_uint_eq(ip.dfork_size, 336);
	ck_assert_ptr_null(ip.afork);
	inode_release(&ip);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("inode");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, clean_inode);
	tcase_add_test(tc, bigtime_and_legacy_times);
	tcase_add_test(tc, nrext64_counters);
	tcase_add_test(tc, damaged_fields);
	tcase_add_test(tc, flag_rules);
	tcase_add_test(tc, fork_layout);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
