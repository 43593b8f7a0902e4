/*
 * Expert mode: attr_set and attr_remove on the current inode.
 *
 * Attributes are added to and removed from a short-form attribute fork
 * (struct xfs_attr_sf_hdr and entries) in place, the way the kernel does
 * it: a new entry goes at the end, a removed one closes its gap, and the
 * fork goes away (forkoff 0) with the last entry unless the data fork is
 * a btree.  An inode without a fork gets one first, at the offset the
 * kernel picks (attr_write.h); a fork that outgrows its room moves its
 * offset down as far as the data fork allows.  The inode's ctime and
 * change count move on, its LSN is cleared and its CRC recomputed.  An
 * attribute that would not fit the short form (the reference would turn
 * the fork into a leaf block) is refused; see DIFFERENCES.md.
 */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "db.h"
#include "format/ondisk.h"
#include "attr_write.h"

#define DI_OFF(m)	offsetof(struct xfs_dinode, m)

struct attr_args {
	const char	*name;
	unsigned	namelen;
	unsigned	ns;		/* XFS_ATTR_ROOT / XFS_ATTR_SECURE / 0 */
	unsigned	valuelen;
	bool		create, replace;
};

static int attr_parse(int argc, char **argv, bool set, struct attr_args *a)
{
	int c;

	memset(a, 0, sizeof(*a));
	optind = 0;
	while ((c = getopt(argc, argv, set ? "rsunRCv:" : "rsun")) != -1) {
		switch (c) {
		case 'r':
			a->ns = XFS_ATTR_ROOT;
			break;
		case 's':
			a->ns = XFS_ATTR_SECURE;
			break;
		case 'u':
			a->ns = 0;
			break;
		case 'n':
			break;
		case 'R':
			a->replace = true;
			break;
		case 'C':
			a->create = true;
			break;
		case 'v':
			a->valuelen = (unsigned)strtoul(optarg, NULL, 0);
			break;
		default:
			dbprintf("bad option for %s command\n", argv[0]);
			return -1;
		}
	}
	if (optind != argc - 1) {
		dbprintf("%s: bad usage\n", argv[0]);
		return -1;
	}
	a->name = argv[optind];
	a->namelen = strlen(a->name);
	return 0;
}

/* The inode under the cursor, its attribute fork and that fork's size. */
static uint8_t *inode_afork(uint8_t *di, uint32_t isize, uint32_t *size)
{
	uint32_t fo = di[DI_OFF(di_forkoff)] * 8;
	uint32_t lit = isize - XFS_DINODE_CORE_SIZE;

	if (!fo || fo >= lit) {
		*size = 0;
		return NULL;
	}
	*size = lit - fo;
	return di + XFS_DINODE_CORE_SIZE + fo;
}

/* Find an entry: its offset in the fork, or 0. */
static uint32_t sf_find(const uint8_t *f, uint32_t size,
			const struct attr_args *a)
{
	uint32_t off = sizeof(struct xfs_attr_sf_hdr);
	unsigned i, n = f[offsetof(struct xfs_attr_sf_hdr, count)];

	for (i = 0; i < n && off + 3 <= size; i++) {
		unsigned nl = f[off], vl = f[off + 1], fl = f[off + 2];

		if (nl == a->namelen && off + 3 + nl <= size &&
		    (fl & XFS_ATTR_NSP_ONDISK_MASK) == a->ns &&
		    !memcmp(f + off + 3, a->name, nl))
			return off;
		off += XFS_ATTR_SF_ENTSIZE(nl, vl);
	}
	return 0;
}

static void inode_touch(uint8_t *di)
{
	struct timespec now;
	uint64_t v;

	clock_gettime(CLOCK_REALTIME, &now);
	if (load_be64(di + DI_OFF(di_flags2)) & XFS_DIFLAG2_BIGTIME)
		v = (uint64_t)(now.tv_sec + XFS_BIGTIME_EPOCH_OFFSET) *
		    XFS_NSEC_PER_SEC + (uint64_t)now.tv_nsec;
	else
		v = ((uint64_t)(uint32_t)now.tv_sec << 32) | (uint32_t)now.tv_nsec;
	store_be64(di + DI_OFF(di_ctime), v);
	store_be64(di + DI_OFF(di_changecount),
		   load_be64(di + DI_OFF(di_changecount)) + 1);
	store_be64(di + DI_OFF(di_lsn), 0);
}

static bool attr_ready(const char *cmd)
{
	struct cursor *c = cur_top();

	if (db.readonly) {
		dbprintf("%s started in read only mode, writing disabled\n",
			 db.progname);
		return false;
	}
	if (c->ino == NULLFSINO) {
		dbprintf("no current inode\n");
		return false;
	}
	(void)cmd;
	return true;
}

/* The attribute extent count, either counter width. */
static uint32_t di_anextents(const uint8_t *di)
{
	if (load_be64(di + DI_OFF(di_flags2)) & XFS_DIFLAG2_NREXT64)
		return load_be32(di + DI_OFF(u76.big.di_big_anextents));
	return load_be16(di + DI_OFF(u76.small.di_anextents));
}

/*
 * Give an inode without an attribute fork one, sized for an attribute
 * of sf_bytes bytes of short form (the kernel adds the fork in a
 * transaction of its own: the change count moves on once for it).
 */
static int afork_create(uint8_t *di, uint32_t sf_bytes)
{
	const struct fs_geom *g = &db.fs->geo;
	unsigned fo = attr_sf_bytesfit(g, di, sf_bytes);
	bool relayout;

	if (!fo)
		fo = attr_default_forkoff(g, di);
	if (!attr_dfork_fits(g, di, fo, &relayout))
		return -1;	/* the data fork would have to change form */
	if (relayout)
		attr_dfork_relayout(g, di, fo);
	di[DI_OFF(di_forkoff)] = (uint8_t)fo;
	di[DI_OFF(di_aformat)] = XFS_DINODE_FMT_EXTENTS;
	memset(di + XFS_DINODE_CORE_SIZE + fo * 8, 0, attr_litino(g) - fo * 8);
	store_be64(di + DI_OFF(di_changecount),
		   load_be64(di + DI_OFF(di_changecount)) + 1);
	return 0;
}

static int do_attr_set(const struct attr_args *a)
{
	struct cursor *c = cur_top();
	const struct fs_geom *g = &db.fs->geo;
	uint8_t *di = cur_obj(c), *f;
	uint32_t size, used, off, need;
	unsigned fo;
	bool created = false;

	if (!di || a->namelen > 255 || !a->namelen)
		return -1;
	if (!di[DI_OFF(di_forkoff)]) {
		/* forms beyond short form are not written yet */
		if (a->valuelen >= 255 || a->namelen >= 255 ||
		    !attr_sf_bytesfit(g, di, sizeof(struct xfs_attr_sf_hdr) +
				      XFS_ATTR_SF_ENTSIZE(a->namelen,
							  a->valuelen)))
			return -1;
		if (afork_create(di, sizeof(struct xfs_attr_sf_hdr) +
				 XFS_ATTR_SF_ENTSIZE(a->namelen, a->valuelen)))
			return -1;
		created = true;
	}
	f = inode_afork(di, c->len, &size);
	if (!f)
		return -1;
	if (di[DI_OFF(di_aformat)] == XFS_DINODE_FMT_EXTENTS &&
	    !di_anextents(di)) {
		if (a->replace)
			goto fail;	/* nothing to replace */
		/* an empty fork becomes an empty short-form fork */
		memset(f, 0, size);
		store_be16(f, sizeof(struct xfs_attr_sf_hdr));
		f[offsetof(struct xfs_attr_sf_hdr, count)] = 0;
		di[DI_OFF(di_aformat)] = XFS_DINODE_FMT_LOCAL;
	} else if (di[DI_OFF(di_aformat)] != XFS_DINODE_FMT_LOCAL) {
		goto fail;
	}
	used = load_be16(f);
	if (used < sizeof(struct xfs_attr_sf_hdr) || used > size)
		goto fail;
	off = sf_find(f, used, a);
	if ((off && a->create) || (!off && a->replace))
		goto fail;
	need = XFS_ATTR_SF_ENTSIZE(a->namelen, a->valuelen);
	fo = 0;
	if (a->valuelen < 255 && a->namelen < 255)
		fo = attr_sf_bytesfit(g, di, used + need -
				      (off ? XFS_ATTR_SF_ENTSIZE(f[off],
								 f[off + 1]) : 0));
	if (!fo)
		goto fail;	/* would need a leaf block */
	if (off) {
		/* replace: remove the old entry first */
		uint32_t esz = XFS_ATTR_SF_ENTSIZE(f[off], f[off + 1]);

		memmove(f + off, f + off + esz, used - off - esz);
		used -= esz;
		f[offsetof(struct xfs_attr_sf_hdr, count)]--;
	}
	if (fo != di[DI_OFF(di_forkoff)]) {
		/* the fork grows into what the data fork leaves */
		uint8_t *nf = di + XFS_DINODE_CORE_SIZE + fo * 8;

		memmove(nf, f, used);
		di[DI_OFF(di_forkoff)] = (uint8_t)fo;
		f = nf;
	}
	f[used] = (uint8_t)a->namelen;
	f[used + 1] = (uint8_t)a->valuelen;
	f[used + 2] = (uint8_t)a->ns;
	memcpy(f + used + 3, a->name, a->namelen);
	memset(f + used + 3 + a->namelen, 'v', a->valuelen);
	used += need;
	store_be16(f, (uint16_t)used);
	f[offsetof(struct xfs_attr_sf_hdr, count)]++;
	inode_touch(di);
	return cur_write(true);
fail:
	/* a fork made for the attribute stays, as the kernel's does */
	if (created)
		cur_write(true);
	return -1;
}

static int do_attr_remove(const struct attr_args *a)
{
	struct cursor *c = cur_top();
	uint8_t *di = cur_obj(c), *f;
	uint32_t size, used, off, esz;

	if (!di)
		return -1;
	f = inode_afork(di, c->len, &size);
	if (!f || di[DI_OFF(di_aformat)] != XFS_DINODE_FMT_LOCAL)
		return -1;
	used = load_be16(f);
	if (used < sizeof(struct xfs_attr_sf_hdr) || used > size)
		return -1;
	off = sf_find(f, used, a);
	if (!off)
		return -1;
	if (f[offsetof(struct xfs_attr_sf_hdr, count)] == 1 &&
	    di[DI_OFF(di_format)] != XFS_DINODE_FMT_BTREE) {
		/* the last one: the fork goes away, its bytes as they are */
		di[DI_OFF(di_forkoff)] = 0;
		di[DI_OFF(di_aformat)] = XFS_DINODE_FMT_EXTENTS;
	} else {
		esz = XFS_ATTR_SF_ENTSIZE(f[off], f[off + 1]);
		memmove(f + off, f + off + esz, used - off - esz);
		used -= esz;
		store_be16(f, (uint16_t)used);
		f[offsetof(struct xfs_attr_sf_hdr, count)]--;
	}
	inode_touch(di);
	return cur_write(true);
}

static int attr_set_f(int argc, char **argv)
{
	struct attr_args a;
	xfs_ino_t ino;
	int err;

	if (argc < 2) {
		dbprintf("bad argument count %d to attr_set, expected at least 1 "
			 "arguments\n", argc - 1);
		return 0;
	}
	if (!attr_ready(argv[0]) || attr_parse(argc, argv, true, &a))
		return 0;
	ino = cur_top()->ino;
	cur_push();
	set_cur_inode(ino);
	err = do_attr_set(&a);
	cur_pop();
	if (err)
		dbprintf("failed to set attr %s on inode %llu\n", a.name,
			 (unsigned long long)ino);
	return 0;
}

static int attr_remove_f(int argc, char **argv)
{
	struct attr_args a;
	xfs_ino_t ino;
	int err;

	if (argc < 2) {
		dbprintf("bad argument count %d to attr_remove, expected at least "
			 "1 arguments\n", argc - 1);
		return 0;
	}
	if (!attr_ready(argv[0]) || attr_parse(argc, argv, false, &a))
		return 0;
	ino = cur_top()->ino;
	cur_push();
	set_cur_inode(ino);
	err = do_attr_remove(&a);
	cur_pop();
	if (err)
		dbprintf("failed to remove attr %s from inode %llu\n", a.name,
			 (unsigned long long)ino);
	return 0;
}

static const struct db_cmd attr_cmds[] = {
	{ "attr_remove", NULL, attr_remove_f, 0, -1, true, true,
	  "[-r|-s|-u] [-n] name",
	  "remove the named attribute from the current inode" },
	{ "attr_set", NULL, attr_set_f, 0, -1, true, true,
	  "[-r|-s|-u] [-n] [-R|-C] [-v n] name",
	  "set the named attribute on the current inode" },
};

void attr_cmds_init(void)
{
	register_cmds(attr_cmds, sizeof(attr_cmds) / sizeof(attr_cmds[0]));
}
