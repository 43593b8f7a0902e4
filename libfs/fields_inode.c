/*
 * Field tables, part 2: the inode.  The core (struct xfs_dinode) and its
 * v3 part, then the two forks in the literal area: the data fork "u3"
 * (extent list, bmbt root, short-form directory, inline symlink, device
 * number) and the attribute fork "a" (extent list, bmbt root, short-form
 * attributes).  The object is one inode: fld_ctx.data points at it and
 * fld_ctx.len is the inode size.
 */
#include "config.h"
#include "fields.h"
#include "fields_int.h"
#include "format/ondisk.h"

#define DI(m)	FLD_BO(struct xfs_dinode, di_##m)
#define CORE_BITS	((uint64_t)XFS_DINODE_CORE_SIZE * 8)

static unsigned di_forkoff(const struct fld_ctx *c)
{
	return fc_u8(c, offsetof(struct xfs_dinode, di_forkoff));
}

static unsigned di_format(const struct fld_ctx *c)
{
	return fc_u8(c, offsetof(struct xfs_dinode, di_format));
}

static unsigned di_aformat(const struct fld_ctx *c)
{
	return fc_u8(c, offsetof(struct xfs_dinode, di_aformat));
}

static unsigned di_mode(const struct fld_ctx *c)
{
	return fc_be16(c, offsetof(struct xfs_dinode, di_mode));
}

static uint64_t di_flags2(const struct fld_ctx *c)
{
	return fc_be64(c, offsetof(struct xfs_dinode, di_flags2));
}

static bool di_nrext64(const struct fld_ctx *c)
{
	return (di_flags2(c) & XFS_DIFLAG2_NREXT64) != 0;
}

/* Bytes of the data and attribute forks. */
static uint32_t dfork_bytes(const struct fld_ctx *c)
{
	uint32_t lit = c->len > XFS_DINODE_CORE_SIZE ?
		       c->len - XFS_DINODE_CORE_SIZE : 0;
	uint32_t fo = di_forkoff(c) * 8;

	return fo && fo < lit ? fo : lit;
}

static uint32_t afork_bytes(const struct fld_ctx *c)
{
	uint32_t lit = c->len > XFS_DINODE_CORE_SIZE ?
		       c->len - XFS_DINODE_CORE_SIZE : 0;
	uint32_t fo = di_forkoff(c) * 8;

	return fo && fo < lit ? lit - fo : 0;
}

/* Which fork a sub-structure at pbit belongs to. */
static bool is_afork(uint64_t pbit)
{
	return pbit != CORE_BITS;
}

static uint32_t fork_bytes(const struct fld_ctx *c, uint64_t pbit)
{
	return is_afork(pbit) ? afork_bytes(c) : dfork_bytes(c);
}

static uint64_t di_nextents(const struct fld_ctx *c)
{
	if (di_nrext64(c))
		return fc_be64(c, offsetof(struct xfs_dinode, u24.di_big_nextents));
	return fc_be32(c, offsetof(struct xfs_dinode, u76.small.di_nextents));
}

static uint64_t di_anextents(const struct fld_ctx *c)
{
	if (di_nrext64(c))
		return fc_be32(c, offsetof(struct xfs_dinode,
					   u76.big.di_big_anextents));
	return fc_be16(c, offsetof(struct xfs_dinode, u76.small.di_anextents));
}

/* ---- timestamps: legacy (sec, nsec) or bigtime (one count) ---- */

static const struct fld timestamp_flds[] = {
	{ "sec", &ft_time, 0, 1 },
	{ "nsec", &ft_nsec_t, 0, 1 },
	{ NULL }
};
static const struct ftype ft_timestamp = { .name = "timestamp",
	.print = FP_NONE, .bits = 64, .sub = timestamp_flds };

/* ---- core ---- */

static int small_counts(const struct fld_ctx *c, uint64_t p)
{
	(void)p;
	return !di_nrext64(c);
}

static int big_counts(const struct fld_ctx *c, uint64_t p)
{
	(void)p;
	return di_nrext64(c);
}

/*
 * Fields by inode version, as the reference shows them (a damaged
 * version byte included): the flush counter of pre-v3 inodes, and the
 * link count and project id fields v2 introduced.
 */
static int v2_only(const struct fld_ctx *c, uint64_t p)
{
	(void)p;
	return fc_u8(c, offsetof(struct xfs_dinode, di_version)) != 3;
}

static int v2_up(const struct fld_ctx *c, uint64_t p)
{
	(void)p;
	return fc_u8(c, offsetof(struct xfs_dinode, di_version)) >= 2;
}

/* A flag bit of be16 di_flags / be64 di_flags2, MSB-first numbering. */
#define DFLAG(bit)	(DI(flags) + 15 - (bit))
#define DFLAG2(bit)	(DI(flags2) + 63 - (bit))

static const struct fld inode_core_flds[] = {
	{ "magic", &ft_uint16x, DI(magic), 1 },
	{ "mode", &ft_uint16o, DI(mode), 1 },
	{ "version", &ft_int8d, DI(version), 1 },
	{ "format", &ft_dinode_fmt, DI(format), 1 },
	{ "onlink", &ft_uint16d, DI(onlink), 0, FLD_COUNT_FN, 0, v2_up },
	{ "uid", &ft_uint32d, DI(uid), 1 },
	{ "gid", &ft_uint32d, DI(gid), 1 },
	{ "nlinkv2", &ft_uint32d, DI(nlink), 0, FLD_COUNT_FN, 0, v2_up },
	{ "projid_lo", &ft_uint16d, DI(projid_lo), 0, FLD_COUNT_FN, 0, v2_up },
	{ "projid_hi", &ft_uint16d, DI(projid_hi), 0, FLD_COUNT_FN, 0, v2_up },
	{ "nextents", &ft_uint64d, FLD_BO(struct xfs_dinode, u24.di_big_nextents), 0,
	  FLD_COUNT_FN, 0, big_counts },
	{ "flushiter", &ft_uint16d, FLD_BO(struct xfs_dinode, u24.v2.di_flushiter), 0,
	  FLD_COUNT_FN, 0, v2_only },
	{ "atime", &ft_timestamp, DI(atime), 1 },
	{ "mtime", &ft_timestamp, DI(mtime), 1 },
	{ "ctime", &ft_timestamp, DI(ctime), 1 },
	{ "size", &ft_fsize, DI(size), 1 },
	{ "nblocks", &ft_drfsbno, DI(nblocks), 1 },
	{ "extsize", &ft_extlen, DI(extsize), 1 },
	{ "nextents", &ft_uint32d, FLD_BO(struct xfs_dinode, u76.small.di_nextents), 0,
	  FLD_COUNT_FN, 0, small_counts },
	{ "naextents", &ft_uint16d, FLD_BO(struct xfs_dinode, u76.small.di_anextents), 0,
	  FLD_COUNT_FN, 0, small_counts },
	{ "naextents", &ft_uint32d, FLD_BO(struct xfs_dinode, u76.big.di_big_anextents), 0,
	  FLD_COUNT_FN, 0, big_counts },
	{ "forkoff", &ft_uint8d, DI(forkoff), 1 },
	{ "aformat", &ft_dinode_fmt, DI(aformat), 1 },
	{ "dmevmask", &ft_uint32x, DI(dmevmask), 1 },
	{ "dmstate", &ft_uint16d, DI(dmstate), 1 },
	{ "newrtbm", &ft_uint1, DFLAG(2), 1 },
	{ "prealloc", &ft_uint1, DFLAG(1), 1 },
	{ "realtime", &ft_uint1, DFLAG(0), 1 },
	{ "immutable", &ft_uint1, DFLAG(3), 1 },
	{ "append", &ft_uint1, DFLAG(4), 1 },
	{ "sync", &ft_uint1, DFLAG(5), 1 },
	{ "noatime", &ft_uint1, DFLAG(6), 1 },
	{ "nodump", &ft_uint1, DFLAG(7), 1 },
	{ "rtinherit", &ft_uint1, DFLAG(8), 1 },
	{ "projinherit", &ft_uint1, DFLAG(9), 1 },
	{ "nosymlinks", &ft_uint1, DFLAG(10), 1 },
	{ "extsz", &ft_uint1, DFLAG(11), 1 },
	{ "extszinherit", &ft_uint1, DFLAG(12), 1 },
	{ "nodefrag", &ft_uint1, DFLAG(13), 1 },
	{ "filestream", &ft_uint1, DFLAG(14), 1 },
	{ "gen", &ft_uint32d, DI(gen), 1 },
	{ NULL }
};
static const struct ftype ft_dinode_core = { .name = "dinode_core",
	.print = FP_NONE, .bits = XFS_DINODE_CORE_SIZE * 8,
	.sub = inode_core_flds };

static const struct fld inode_v3_flds[] = {
	{ "crc", &ft_crc, DI(crc), 1 },
	{ "change_count", &ft_uint64d, DI(changecount), 1 },
	{ "lsn", &ft_uint64x, DI(lsn), 1 },
	{ "flags2", &ft_uint64x, DI(flags2), 1 },
	{ "cowextsize", &ft_extlen, DI(cowextsize), 1 },
	{ "crtime", &ft_timestamp, DI(crtime), 1 },
	{ "inumber", &ft_ino, DI(ino), 1 },
	{ "uuid", &ft_uuid, DI(uuid), 1 },
	{ "reflink", &ft_uint1, DFLAG2(1), 1 },
	{ "cowextsz", &ft_uint1, DFLAG2(2), 1 },
	{ "dax", &ft_uint1, DFLAG2(0), 1 },
	{ "bigtime", &ft_uint1, DFLAG2(3), 1 },
	{ "nrext64", &ft_uint1, DFLAG2(4), 1 },
	{ NULL }
};
static const struct ftype ft_dinode_v3 = { .name = "dinode_v3",
	.print = FP_NONE, .bits = XFS_DINODE_CORE_SIZE * 8,
	.sub = inode_v3_flds };

/* ---- bmbt root in a fork (struct xfs_bmdr_block, keys, pointers) ---- */

static unsigned bmdr_max(const struct fld_ctx *c, uint64_t pbit)
{
	uint32_t sz = fork_bytes(c, pbit);

	return sz > 4 ? (sz - 4) / 16 : 0;
}

static int bmdr_count(const struct fld_ctx *c, uint64_t pbit)
{
	unsigned n = fc_be16(c, pbit / 8 + 2), max = bmdr_max(c, pbit);

	return n > max ? max : n;
}

static uint64_t bmdr_ptr_off(const struct fld_ctx *c, uint64_t pbit, int idx)
{
	return (4 + (uint64_t)bmdr_max(c, pbit) * 8 + (uint64_t)idx * 8) * 8;
}

static uint64_t fork_size_bits(const struct fld_ctx *c, uint64_t bit)
{
	return (uint64_t)fork_bytes(c, bit) * 8;
}

static const struct fld bmroot_flds[] = {
	{ "level", &ft_uint16d, 0, 1 },
	{ "numrecs", &ft_uint16d, 16, 1 },
	{ "keys", &ft_bmbtkey, 32, 0, FLD_ARRAY | FLD_COUNT_FN, 1, bmdr_count },
	{ "ptrs", &ft_bmbtptr, 0, 0,
	  FLD_ARRAY | FLD_COUNT_FN | FLD_OFFSET_FN, 1, bmdr_count,
	  bmdr_ptr_off, "bmapbtd" },
	{ NULL }
};
static const struct fld bmroota_flds[] = {
	{ "level", &ft_uint16d, 0, 1 },
	{ "numrecs", &ft_uint16d, 16, 1 },
	{ "keys", &ft_bmbtkey, 32, 0, FLD_ARRAY | FLD_COUNT_FN, 1, bmdr_count },
	{ "ptrs", &ft_bmbtptr, 0, 0,
	  FLD_ARRAY | FLD_COUNT_FN | FLD_OFFSET_FN, 1, bmdr_count,
	  bmdr_ptr_off, "bmapbta" },
	{ NULL }
};
static const struct ftype ft_bmrootd = { .name = "bmrootd", .print = FP_NONE,
	.size_fn = fork_size_bits, .sub = bmroot_flds };
static const struct ftype ft_bmroota = { .name = "bmroota", .print = FP_NONE,
	.size_fn = fork_size_bits, .sub = bmroota_flds };

/* ---- short-form directory (struct xfs_dir2_sf_hdr and entries) ---- */

#define DFORK	((uint64_t)XFS_DINODE_CORE_SIZE)	/* byte offset */

static bool sf_i8(const struct fld_ctx *c)
{
	return fc_u8(c, DFORK + 1) != 0;
}

static int inou_i4(const struct fld_ctx *c, uint64_t p)
{
	(void)p;
	return !sf_i8(c);
}

static int inou_i8(const struct fld_ctx *c, uint64_t p)
{
	(void)p;
	return sf_i8(c);
}

static uint64_t inou_size(const struct fld_ctx *c, uint64_t bit)
{
	(void)bit;
	return sf_i8(c) ? 64 : 32;
}

static const struct fld inou_flds[] = {
	{ "i8", &ft_ino8, 0, 0, FLD_COUNT_FN, 0, inou_i8, .next = "inode" },
	{ "i4", &ft_ino4, 0, 0, FLD_COUNT_FN, 0, inou_i4, .next = "inode" },
	{ NULL }
};
static const struct ftype ft_inou = { .name = "dir2_inou", .print = FP_NONE,
	.size_fn = inou_size, .sub = inou_flds };

static uint64_t sfhdr_size(const struct fld_ctx *c, uint64_t bit)
{
	(void)bit;
	return XFS_DIR2_SF_HDR_SIZE(sf_i8(c)) * 8;
}

static const struct fld sfdir_hdr_flds[] = {
	{ "count", &ft_uint8d, 0, 1 },
	{ "i8count", &ft_uint8d, 8, 1 },
	{ "parent", &ft_inou, 16, 1 },
	{ NULL }
};
static const struct ftype ft_sfdir_hdr = { .name = "dir2_sf_hdr",
	.print = FP_NONE, .size_fn = sfhdr_size, .sub = sfdir_hdr_flds };

/* An entry: u8 namelen, be16 offset, name, u8 ftype, inumber. */
static int sfe_namelen(const struct fld_ctx *c, uint64_t p)
{
	return fc_u8(c, p / 8);
}

static int sfe_ftype(const struct fld_ctx *c, uint64_t p)
{
	(void)p;
	return c->has_ftype;
}

static uint64_t sfe_ftype_off(const struct fld_ctx *c, uint64_t p, int i)
{
	(void)i;
	return (3 + (uint64_t)fc_u8(c, p / 8)) * 8;
}

static uint64_t sfe_ino_off(const struct fld_ctx *c, uint64_t p, int i)
{
	(void)i;
	return (3 + (uint64_t)fc_u8(c, p / 8) + (c->has_ftype ? 1 : 0)) * 8;
}

static int one(const struct fld_ctx *c, uint64_t p)
{
	(void)c;
	(void)p;
	return 1;
}

static uint64_t sfe_size(const struct fld_ctx *c, uint64_t bit)
{
	return (3 + (uint64_t)fc_u8(c, bit / 8) + (c->has_ftype ? 1 : 0) +
		(sf_i8(c) ? 8 : 4)) * 8;
}

static const struct fld sfdir_entry_flds[] = {
	{ "namelen", &ft_uint8d, 0, 1 },
	{ "offset", &ft_sf_off, 8, 1 },
	{ "name", &ft_charns, 24, 0, FLD_COUNT_FN, 0, sfe_namelen },
	{ "inumber", &ft_inou, 0, 0, FLD_COUNT_FN | FLD_OFFSET_FN, 0, one,
	  sfe_ino_off },
	{ "filetype", &ft_uint8d, 0, 0, FLD_COUNT_FN | FLD_OFFSET_FN, 0,
	  sfe_ftype, sfe_ftype_off },
	{ NULL }
};
static const struct ftype ft_sfdir_entry = { .name = "dir3_sf_entry",
	.print = FP_NONE, .size_fn = sfe_size, .sub = sfdir_entry_flds };

static int sfdir_list_count(const struct fld_ctx *c, uint64_t p)
{
	return fc_u8(c, p / 8);
}

/* Entries follow each other; stop at the end of the fork. */
static uint64_t sfdir_list_off(const struct fld_ctx *c, uint64_t p, int idx)
{
	uint64_t off = sfhdr_size(c, p);
	uint64_t end = fork_size_bits(c, p);
	int i;

	for (i = 0; i < idx && off < end; i++)
		off += sfe_size(c, p + off);
	return off;
}

static uint64_t sfdir_size(const struct fld_ctx *c, uint64_t bit)
{
	return fork_size_bits(c, bit);
}

static const struct fld sfdir_flds[] = {
	{ "hdr", &ft_sfdir_hdr, 0, 1 },
	{ "list", &ft_sfdir_entry, 0, 0,
	  FLD_ARRAY | FLD_COUNT_FN | FLD_OFFSET_FN, 0, sfdir_list_count,
	  sfdir_list_off },
	{ NULL }
};
static const struct ftype ft_sfdir3 = { .name = "dir3sf", .print = FP_NONE,
	.size_fn = sfdir_size, .sub = sfdir_flds };

/* ---- short-form attributes (struct xfs_attr_sf_hdr and entries) ---- */

static const struct fld sfattr_hdr_flds[] = {
	{ "totsize", &ft_uint16d, FLD_BO(struct xfs_attr_sf_hdr, totsize), 1 },
	{ "count", &ft_uint8d, FLD_BO(struct xfs_attr_sf_hdr, count), 1 },
	{ NULL }
};
static const struct ftype ft_sfattr_hdr = { .name = "attr_sf_hdr",
	.print = FP_NONE, .bits = sizeof(struct xfs_attr_sf_hdr) * 8,
	.sub = sfattr_hdr_flds };

static int sfa_namelen(const struct fld_ctx *c, uint64_t p)
{
	return fc_u8(c, p / 8);
}

static int sfa_valuelen(const struct fld_ctx *c, uint64_t p)
{
	return fc_u8(c, p / 8 + 1);
}

static uint64_t sfa_value_off(const struct fld_ctx *c, uint64_t p, int i)
{
	(void)i;
	return (3 + (uint64_t)fc_u8(c, p / 8)) * 8;
}

static uint64_t sfa_size(const struct fld_ctx *c, uint64_t bit)
{
	return (uint64_t)XFS_ATTR_SF_ENTSIZE(fc_u8(c, bit / 8),
					     fc_u8(c, bit / 8 + 1)) * 8;
}

#define SFA(m)	FLD_BO(struct xfs_attr_sf_entry, m)
/* flag bits of the u8 flags, MSB-first numbering */
#define SFAFLAG(f)	(SFA(flags) + 7 - (__builtin_ctz(f)))
static const struct fld sfattr_entry_flds[] = {
	{ "namelen", &ft_uint8d, SFA(namelen), 1 },
	{ "valuelen", &ft_uint8d, SFA(valuelen), 1 },
	{ "root", &ft_uint1, SFAFLAG(XFS_ATTR_ROOT), 1 },
	{ "secure", &ft_uint1, SFAFLAG(XFS_ATTR_SECURE), 1 },
	{ "name", &ft_charns, SFA(nameval), 0, FLD_COUNT_FN, 0, sfa_namelen },
	{ "value", &ft_charns, 0, 0, FLD_COUNT_FN | FLD_OFFSET_FN, 0,
	  sfa_valuelen, sfa_value_off },
	{ NULL }
};
#undef SFA
static const struct ftype ft_sfattr_entry = { .name = "attr_sf_entry",
	.print = FP_NONE, .size_fn = sfa_size, .sub = sfattr_entry_flds };

static int sfattr_list_count(const struct fld_ctx *c, uint64_t p)
{
	return fc_u8(c, p / 8 + offsetof(struct xfs_attr_sf_hdr, count));
}

static uint64_t sfattr_list_off(const struct fld_ctx *c, uint64_t p, int idx)
{
	uint64_t off = sizeof(struct xfs_attr_sf_hdr) * 8;
	uint64_t end = fork_size_bits(c, p);
	int i;

	for (i = 0; i < idx && off < end; i++)
		off += sfa_size(c, p + off);
	return off;
}

static const struct fld sfattr_flds[] = {
	{ "hdr", &ft_sfattr_hdr, 0, 1 },
	{ "list", &ft_sfattr_entry, 0, 0,
	  FLD_ARRAY | FLD_COUNT_FN | FLD_OFFSET_FN, 0, sfattr_list_count,
	  sfattr_list_off },
	{ NULL }
};
static const struct ftype ft_sfattr = { .name = "attrshort", .print = FP_NONE,
	.size_fn = fork_size_bits, .sub = sfattr_flds };

/* ---- the forks ---- */

static int fmt_is(const struct fld_ctx *c, uint64_t pbit, unsigned fmt)
{
	if (is_afork(pbit))
		return afork_bytes(c) && di_aformat(c) == fmt;
	return di_format(c) == fmt;
}

static int fork_bmx_count(const struct fld_ctx *c, uint64_t pbit)
{
	uint64_t max = fork_bytes(c, pbit) / 16;
	int32_t n;

	if (!fmt_is(c, pbit, XFS_DINODE_FMT_EXTENTS))
		return 0;
	/* the reference holds the counter in an int: a 64-bit count keeps
	 * its low 32 bits, and those may read as negative */
	n = (int32_t)(uint32_t)(is_afork(pbit) ? di_anextents(c) :
				di_nextents(c));
	if (n < 0)
		return n;
	return (uint64_t)n > max ? (int)max : n;
}

static int fork_bmbt_count(const struct fld_ctx *c, uint64_t pbit)
{
	return fmt_is(c, pbit, XFS_DINODE_FMT_BTREE);
}

static int u_sfdir_count(const struct fld_ctx *c, uint64_t pbit)
{
	return fmt_is(c, pbit, XFS_DINODE_FMT_LOCAL) &&
	       (di_mode(c) & XFS_S_IFMT) == XFS_S_IFDIR;
}

static int u_symlink_count(const struct fld_ctx *c, uint64_t pbit)
{
	uint64_t size = fc_be64(c, offsetof(struct xfs_dinode, di_size));
	uint32_t max = dfork_bytes(c);

	if (!fmt_is(c, pbit, XFS_DINODE_FMT_LOCAL) ||
	    (di_mode(c) & XFS_S_IFMT) != XFS_S_IFLNK)
		return 0;
	return size > max ? (int)max : (int)size;
}

static int u_dev_count(const struct fld_ctx *c, uint64_t pbit)
{
	return fmt_is(c, pbit, XFS_DINODE_FMT_DEV);
}

static int a_sfattr_count(const struct fld_ctx *c, uint64_t pbit)
{
	return fmt_is(c, pbit, XFS_DINODE_FMT_LOCAL);
}

static const struct fld inode_u_flds[] = {
	{ "bmbt", &ft_bmrootd, 0, 0, FLD_COUNT_FN, 0, fork_bmbt_count },
	{ "bmx", &ft_bmbtrec, 0, 0, FLD_ARRAY | FLD_COUNT_FN, 0,
	  fork_bmx_count },
	{ "sfdir3", &ft_sfdir3, 0, 0, FLD_COUNT_FN, 0, u_sfdir_count },
	{ "symlink", &ft_charns, 0, 0, FLD_COUNT_FN, 0, u_symlink_count },
	{ "dev", &ft_dev, 0, 0, FLD_COUNT_FN, 0, u_dev_count },
	{ NULL }
};
static const struct fld inode_a_flds[] = {
	{ "bmbt", &ft_bmroota, 0, 0, FLD_COUNT_FN, 0, fork_bmbt_count },
	{ "bmx", &ft_bmbtrec, 0, 0, FLD_ARRAY | FLD_COUNT_FN, 0,
	  fork_bmx_count },
	{ "sfattr", &ft_sfattr, 0, 0, FLD_COUNT_FN, 0, a_sfattr_count },
	{ NULL }
};

static const struct ftype ft_dinode_u = { .name = "dinode_u",
	.print = FP_NONE, .arg = FTA_OKEMPTY, .size_fn = fork_size_bits,
	.sub = inode_u_flds };
static const struct ftype ft_dinode_a = { .name = "dinode_a",
	.print = FP_NONE, .arg = FTA_OKEMPTY, .size_fn = fork_size_bits,
	.sub = inode_a_flds };

static int has_afork(const struct fld_ctx *c, uint64_t p)
{
	(void)p;
	return di_forkoff(c) != 0;
}

static uint64_t afork_off(const struct fld_ctx *c, uint64_t p, int i)
{
	(void)p;
	(void)i;
	return CORE_BITS + (uint64_t)dfork_bytes(c) * 8;
}

static uint64_t inode_size(const struct fld_ctx *c, uint64_t bit)
{
	(void)bit;
	return (uint64_t)c->len * 8;
}

static const struct fld inode_flds[] = {
	{ "core", &ft_dinode_core, 0, 1 },
	{ "next_unlinked", &ft_agino, DI(next_unlinked), 1 },
	{ "v3", &ft_dinode_v3, 0, 1 },
	{ "u3", &ft_dinode_u, CORE_BITS, 1 },
	{ "a", &ft_dinode_a, 0, 0, FLD_OFFSET_FN | FLD_COUNT_FN, 0, has_afork,
	  afork_off },
	{ NULL }
};
#undef DI

const struct ftype ft_inode = { .name = "inode", .print = FP_NONE,
	.size_fn = inode_size, .sub = inode_flds };

/* inodata: the literal area as raw data */
const struct ftype ft_inodata = { .name = "inodata", .print = FP_HEXBLOB,
	.size_fn = inode_size };
