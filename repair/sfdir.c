/*
 * A short-form directory as the reference reads it: its phase 3 walk of
 * the entries (the words it says), and whether the kernel's verifier of
 * the fork, which its library runs when phases 6 and 7 load the inode,
 * takes it (see rp_sf_walk and rp_sf_refused in phase3.h).
 *
 * Format (directories.asciidoc "Short Form Directories"): a header of
 * count, i8count and the parent (4 bytes, or 8 when i8count is not 0),
 * then count entries of namelen, a be16 offset, the name, a file type
 * byte when the filesystem has the ftype feature, and the inode number
 * (4 or 8 bytes, as the parent).
 *
 * The walk goes on while entries are left by the count and the size
 * says there is more (a count of 0, or one whose entries could not fit
 * in the fork, is read as 255): an entry naming the directory or an
 * invalid inode is said; one of no name or past the size ends the walk;
 * a name with '/' or NUL, an offset below the end of the previous entry
 * are said.  Then the count, the i8count and the size are held to what
 * was read, the offsets to the room a block would need, and the parent
 * to a valid inode number.  The verifier instead wants the whole fork
 * right: the size holds the header, the parent and every entry's inode
 * number are valid, every entry has a name and fits, the offsets
 * increase, the i8count counts the 8-byte numbers, the entries end at
 * the size and the offsets leave room for a block's leaf and tail.  (It
 * reads a file type past the last as unknown, and does not look at
 * names.)
 *
 * What stays true: nothing past the inode is read; a byte the walk
 * would read there reads as 0.
 */
#include "config.h"
#include <string.h>
#include "dir.h"
#include "phase3.h"
#include "repair.h"

/* The fork as the walk sees it: its bytes to the inode's end. */
struct sf_view {
	const uint8_t	*p;
	uint32_t	avail;		/* bytes from the fork to the inode's end */
	unsigned	isize;		/* 4 or 8: the header's i8count */
	bool		ftype;
};

static uint8_t sf_byte(const struct sf_view *v, uint64_t off)
{
	return off < v->avail ? v->p[off] : 0;
}

static uint64_t sf_num(const struct sf_view *v, uint64_t off, unsigned n)
{
	uint64_t x = 0;

	for (unsigned i = 0; i < n; i++)
		x = x << 8 | sf_byte(v, off + i);
	return x;
}

static void sf_view_init(struct sf_view *v, const struct fs_geom *g,
			 const struct fs_inode *ip)
{
	v->p = ip->dfork;
	v->avail = (uint32_t)(ip->raw + ip->rawsize - ip->dfork);
	v->isize = sf_byte(v, 1) ? 8 : 4;
	v->ftype = g->has_ftype;
}

static uint32_t sf_hdrsize(const struct sf_view *v)
{
	return XFS_DIR2_SF_HDR_SIZE(v->isize == 8);
}

/* Bytes of an entry of namelen. */
static uint32_t sf_entsize(const struct sf_view *v, unsigned namelen)
{
	return 3 + namelen + (v->ftype ? 1 : 0) + v->isize;
}

/* An inode number of the fork: an 8-byte one keeps its low 56 bits. */
static uint64_t sf_ino_at(const struct sf_view *v, uint64_t off)
{
	uint64_t ino = sf_num(v, off, v->isize);

	return v->isize == 8 ? ino & ((1ull << 56) - 1) : ino;
}

static uint64_t sf_entry_ino(const struct sf_view *v, uint32_t e)
{
	return sf_ino_at(v, e + 3 + sf_byte(v, e) + (v->ftype ? 1 : 0));
}

bool rp_sf_entry_at(const struct fs_geom *g, const struct fs_inode *ip,
		    uint32_t off, char name[256], xfs_ino_t *ino,
		    uint8_t *ftype)
{
	struct sf_view v;
	unsigned namelen;

	sf_view_init(&v, g, ip);
	if (off < sf_hdrsize(&v) || off >= v.avail)
		return false;
	namelen = sf_byte(&v, off);
	if ((uint64_t)off + sf_entsize(&v, namelen) > v.avail)
		return false;
	memcpy(name, v.p + off + 3, namelen);
	name[namelen] = '\0';
	*ftype = v.ftype ? sf_byte(&v, off + 3 + namelen) : 0;
	*ino = sf_entry_ino(&v, off);
	return true;
}

/* The offset after "." and ".." in a data block (xfs_dir3_data_hdr). */
static uint64_t sf_first_offset(const struct fs_geom *g)
{
	return sizeof(struct xfs_dir3_data_hdr) +
	       dir2_data_entsize(g->has_ftype, 1) +
	       dir2_data_entsize(g->has_ftype, 2);
}

/*
 * An inode number a directory may name: one inside the filesystem that
 * is not one of its own metadata inodes (the kernel's rule).
 */
static bool dir_ino_ok(const struct fs *fs, xfs_ino_t ino)
{
	const struct fs_sb *sb = &fs->sb;
	const xfs_ino_t meta[5] = { sb->rbmino, sb->rsumino, sb->uquotino,
				    sb->gquotino, sb->pquotino };

	if (!ino_valid(&fs->geo, ino))
		return false;
	for (unsigned i = 0; i < 5; i++)
		if (meta[i] != 0 && meta[i] != NULLFSINO && meta[i] == ino)
			return false;
	return true;
}

bool rp_sf_refused(const struct fs *fs, const struct fs_inode *ip,
		   xfs_ino_t *badino)
{
	const struct fs_geom *g = &fs->geo;
	struct sf_view v;
	uint64_t size = ip->size, offset = sf_first_offset(g);
	uint32_t e;
	unsigned count, i8 = 0;
	xfs_ino_t ino;

	*badino = NULLFSINO;
	sf_view_init(&v, g, ip);
	if (size <= 2 || size < sf_hdrsize(&v) || size > ip->dfork_size)
		return true;
	ino = sf_ino_at(&v, 2);
	i8 += ino > XFS_DIR2_MAX_SHORT_INUM;
	if (!dir_ino_ok(fs, ino)) {
		*badino = ino;
		return true;
	}
	count = sf_byte(&v, 0);
	e = sf_hdrsize(&v);
	for (unsigned i = 0; i < count; i++) {
		unsigned namelen = sf_byte(&v, e);

		if (e + 3 >= size || !namelen ||
		    e + sf_entsize(&v, namelen) > size ||
		    sf_num(&v, e + 1, 2) < offset)
			return true;
		ino = sf_entry_ino(&v, e);
		i8 += ino > XFS_DIR2_MAX_SHORT_INUM;
		if (!dir_ino_ok(fs, ino)) {
			*badino = ino;
			return true;
		}
		offset = sf_num(&v, e + 1, 2) +
			 dir2_data_entsize(g->has_ftype, namelen);
		e += sf_entsize(&v, namelen);
	}
	if (i8 != sf_byte(&v, 1) || e != size)
		return true;
	/* a block's leaf entries for each entry, "." and "..", and its tail */
	return offset + (count + 2) * 8u + 8u > g->dirblksize;
}

/*
 * An entry's name as the reference prints it: to namelen or a NUL, and
 * with pad, right-aligned in namelen columns (its "%*.*s").
 */
static void sf_name(const struct sf_view *v, uint32_t e, unsigned namelen,
		    bool pad, char *buf)
{
	unsigned k, len = 0;

	while (len < namelen && sf_byte(v, e + 3 + len))
		len++;
	k = pad ? namelen - len : 0;
	memset(buf, ' ', k);
	for (unsigned j = 0; j < len; j++)
		buf[k + j] = (char)sf_byte(v, e + 3 + j);
	buf[k + len] = 0;
}

/* A name with '/' or NUL in it (the reference's namecheck). */
static bool sf_name_bad(const struct sf_view *v, uint32_t e, unsigned namelen)
{
	for (unsigned k = 0; k < namelen; k++) {
		uint8_t ch = sf_byte(v, e + 3 + k);

		if (ch == '/' || ch == 0)
			return true;
	}
	return false;
}


static void sf_say(struct p3ag *c, enum fs_problem code, uint64_t found,
		   uint64_t expected, const char *field, const char *s1)
{
	struct rp_args a = RP_ARGS_INIT(OBJ_INODE);

	a.obj.ino = c->ino;
	a.obj.agno = c->agno;
	a.found = found;
	a.expected = expected;
	a.field = field;
	a.s1 = s1;
	rp_say(c->out, code, &a);
}

xfs_ino_t rp_sf_walk(struct p3ag *c, const struct fs_inode *ip)
{
	struct fs *fs = c->r->fs;
	const struct fs_geom *g = &fs->geo;
	struct sf_view v;
	int64_t size = (int64_t)ip->size;
	uint64_t offset = sf_first_offset(g);
	unsigned count, n, i, i8;
	bool bad_offset = false;
	uint32_t e;
	xfs_ino_t parent;
	char name[256];

	sf_view_init(&v, g, ip);
	count = sf_byte(&v, 0);
	parent = sf_ino_at(&v, 2);
	i8 = parent > XFS_DIR2_MAX_SHORT_INUM;
	n = count;
	if (!n || (uint64_t)n * sf_entsize(&v, 1) + XFS_DIR2_SF_HDR_SIZE(0) >
		  ip->dfork_size)
		n = 0xff;
	e = sf_hdrsize(&v);
	for (i = 0; i < n && size > (int64_t)e; i++) {
		unsigned namelen = sf_byte(&v, e);
		xfs_ino_t ino = sf_entry_ino(&v, e);
		const char *why = NULL, *cut = NULL;
		bool junk;

		if (ino == ip->ino)
			why = "current";
		else if (!dir_ino_ok(fs, ino))
			why = "invalid";
		junk = why != NULL;
		if (junk) {
			sf_name(&v, e, namelen, true, name);
			sf_say(c, PR_RP_SF_ENTRY_BAD_INO, ino, 0, why, name);
		}
		if (!namelen)
			cut = "is zero length";
		else if ((int64_t)(e + sf_entsize(&v, namelen)) > size)
			cut = "extends past end of dir";
		if (cut) {
			struct rp_args a = RP_ARGS_INIT(OBJ_INODE);

			a.obj.ino = c->ino;
			a.obj.agno = c->agno;
			a.found = n - i;
			a.v2 = i;
			a.field = cut;
			rp_say(c->out, PR_RP_SF_ENTRY_BAD_LEN, &a);
			break;
		}
		if (sf_name_bad(&v, e, namelen)) {
			sf_say(c, PR_RP_SF_ENTRY_BAD_NAME, 0, 0, NULL, NULL);
			junk = true;
		}
		if (sf_num(&v, e + 1, 2) < offset) {
			sf_say(c, PR_RP_SF_OFFSET_ORDER, 0, 0, NULL, NULL);
			bad_offset = true;
		}
		offset = sf_num(&v, e + 1, 2) +
			 dir2_data_entsize(g->has_ftype, namelen);
		if (junk) {
			sf_name(&v, e, namelen, false, name);
			sf_say(c, PR_RP_SF_ENTRY_JUNK, 0, 0, NULL, name);
		}
		else if (ino > XFS_DIR2_MAX_SHORT_INUM)
			i8++;
		e += sf_entsize(&v, namelen);
	}
	if (count != i)
		sf_say(c, PR_RP_SF_COUNT, count, i, NULL, NULL);
	if (sf_byte(&v, 1) != i8)
		sf_say(c, PR_RP_SF_I8COUNT, sf_byte(&v, 1), i8, NULL, NULL);
	if ((int64_t)e != size)
		sf_say(c, PR_RP_SF_SIZE, (uint64_t)size, e, NULL, NULL);
	if (offset + (count + 2) * 8u + 8u > g->dirblksize) {
		sf_say(c, PR_RP_SF_OFFSETS_HIGH, 0, 0, NULL, NULL);
		bad_offset = true;
	}
	if (bad_offset)
		sf_say(c, PR_RP_SF_OFFSETS_FIX, 0, 0, NULL, NULL);
	if (!dir_ino_ok(fs, parent)) {
		sf_say(c, PR_RP_SF_BAD_PARENT, parent, 0, NULL, NULL);
		return NULLFSINO;
	}
	if (ip->ino == fs->sb.rootino && parent != ip->ino)
		sf_say(c, PR_RP_SF_ROOT_PARENT, parent, ip->ino, NULL, NULL);
	return parent;
}
