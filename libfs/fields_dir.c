/*
 * Field tables, part 3: directory blocks (dir3: block, data, leaf, node,
 * free), attribute blocks (attr3: leaf, node, remote value), remote symlink
 * blocks and quota records.  A dir3 or attr3 object is one directory or
 * attribute block; which fields it has follows from its magic number.
 */
#include "config.h"
#include "fields.h"
#include "fields_int.h"
#include "format/ondisk.h"

static uint64_t obj_size(const struct fld_ctx *c, uint64_t bit)
{
	(void)bit;
	return (uint64_t)c->len * 8;
}

enum fld_dirblk fld_dir3_kind(const struct fld_ctx *c)
{
	switch (fc_be32(c, 0)) {
	case XFS_DIR3_BLOCK_MAGIC:
		return FLD_DIR_BLOCK;
	case XFS_DIR3_DATA_MAGIC:
		return FLD_DIR_DATA;
	case XFS_DIR3_FREE_MAGIC:
		return FLD_DIR_FREE;
	}
	switch (fc_be16(c, offsetof(struct xfs_da3_blkinfo, magic))) {
	case XFS_DIR3_LEAF1_MAGIC:
		return FLD_DIR_LEAF1;
	case XFS_DIR3_LEAFN_MAGIC:
		return FLD_DIR_LEAFN;
	case XFS_DA3_NODE_MAGIC:
		return FLD_DIR_NODE;
	}
	return FLD_DIR_UNKNOWN;
}

/* ---- headers shared by dir3 and attr3 ---- */

#define BH(m)	FLD_BO(struct xfs_dir3_blk_hdr, m)
static const struct fld blkhdr_flds[] = {
	{ "magic", &ft_uint32x, BH(magic), 1 },
	{ "crc", &ft_crc, BH(crc), 1 },
	{ "bno", &ft_dfsbno, BH(blkno), 1 },
	{ "lsn", &ft_uint64x, BH(lsn), 1 },
	{ "uuid", &ft_uuid, BH(uuid), 1 },
	{ "owner", &ft_ino, BH(owner), 1 },
	{ NULL }
};
#undef BH
static const struct ftype ft_blkhdr = { .name = "dir3_blk_hdr",
	.print = FP_NONE, .bits = sizeof(struct xfs_dir3_blk_hdr) * 8,
	.sub = blkhdr_flds };

#define DF(m)	FLD_BO(struct xfs_dir2_data_free, m)
static const struct fld data_free_flds[] = {
	{ "offset", &ft_data_off, DF(offset), 1 },
	{ "length", &ft_data_off, DF(length), 1 },
	{ NULL }
};
#undef DF
static const struct ftype ft_data_free = { .name = "dir2_data_free",
	.print = FP_NONE, .bits = sizeof(struct xfs_dir2_data_free) * 8,
	.sub = data_free_flds };

#define DH(m)	FLD_BO(struct xfs_dir3_data_hdr, m)
static const struct fld data_hdr_flds[] = {
	{ "hdr", &ft_blkhdr, DH(hdr), 1 },
	{ "bestfree", &ft_data_free, DH(best_free), XFS_DIR2_DATA_FD_COUNT,
	  FLD_ARRAY },
	{ NULL }
};
#undef DH
static const struct ftype ft_data_hdr = { .name = "dir3_data_hdr",
	.print = FP_NONE, .bits = sizeof(struct xfs_dir3_data_hdr) * 8,
	.sub = data_hdr_flds };

/* struct xfs_da_blkinfo's first part (forw, back, magic) */
#define BI(m)	FLD_BO(struct xfs_da3_blkinfo, m)
static const struct fld da_blkinfo_flds[] = {
	{ "forw", &ft_dirblock, BI(forw), 1 },
	{ "back", &ft_dirblock, BI(back), 1 },
	{ "magic", &ft_uint16x, BI(magic), 1 },
	{ NULL }
};
static const struct ftype ft_da_blkinfo = { .name = "dir_blkinfo",
	.print = FP_NONE, .bits = 96, .sub = da_blkinfo_flds };
static const struct fld da3_blkinfo_flds[] = {
	{ "hdr", &ft_da_blkinfo, 0, 1 },
	{ "crc", &ft_crc, BI(crc), 1 },
	{ "bno", &ft_dfsbno, BI(blkno), 1 },
	{ "lsn", &ft_uint64x, BI(lsn), 1 },
	{ "uuid", &ft_uuid, BI(uuid), 1 },
	{ "owner", &ft_ino, BI(owner), 1 },
	{ NULL }
};
#undef BI
static const struct ftype ft_da3_blkinfo = { .name = "dir_blkinfo",
	.print = FP_NONE, .bits = sizeof(struct xfs_da3_blkinfo) * 8,
	.sub = da3_blkinfo_flds };

#define NH(m)	FLD_BO(struct xfs_da3_node_hdr, m)
static const struct fld da3_node_hdr_flds[] = {
	{ "info", &ft_da3_blkinfo, NH(info), 1 },
	{ "count", &ft_uint16d, NH(count), 1 },
	{ "level", &ft_uint16d, NH(level), 1 },
	{ NULL }
};
#undef NH
static const struct ftype ft_da3_node_hdr = { .name = "dir_node_hdr",
	.print = FP_NONE, .bits = sizeof(struct xfs_da3_node_hdr) * 8,
	.sub = da3_node_hdr_flds };

#define NE(m)	FLD_BO(struct xfs_da_node_entry, m)
static const struct fld dir_node_entry_flds[] = {
	{ "hashval", &ft_uint32x, NE(hashval), 1 },
	{ "before", &ft_dirblock, NE(before), 1, .next = "dir3" },
	{ NULL }
};
static const struct fld attr_node_entry_flds[] = {
	{ "hashval", &ft_uint32x, NE(hashval), 1 },
	{ "before", &ft_attrblock, NE(before), 1, .next = "attr3" },
	{ NULL }
};
#undef NE
static const struct ftype ft_dir_node_entry = { .name = "dir_node_entry",
	.print = FP_SARRAY, .bits = sizeof(struct xfs_da_node_entry) * 8,
	.sub = dir_node_entry_flds };
static const struct ftype ft_attr_node_entry = { .name = "attr_node_entry",
	.print = FP_SARRAY, .bits = sizeof(struct xfs_da_node_entry) * 8,
	.sub = attr_node_entry_flds };

static int node_count(const struct fld_ctx *c, uint64_t p)
{
	unsigned n = fc_be16(c, offsetof(struct xfs_da3_node_hdr, count));
	unsigned max = c->len > sizeof(struct xfs_da3_node_hdr) ?
		(c->len - sizeof(struct xfs_da3_node_hdr)) /
		sizeof(struct xfs_da_node_entry) : 0;

	(void)p;
	return n > max ? max : n;
}

/* ---- dir3 data entries ---- */

static bool de_is_free(const struct fld_ctx *c, uint64_t bit)
{
	return fc_be16(c, bit / 8) == XFS_DIR2_DATA_FREE_TAG;
}

static uint64_t de_bytes(const struct fld_ctx *c, uint64_t bit)
{
	if (de_is_free(c, bit))
		return fc_be16(c, bit / 8 + 2);
	return dir2_data_entsize(c->has_ftype, fc_u8(c, bit / 8 + 8));
}

static uint64_t de_size(const struct fld_ctx *c, uint64_t bit)
{
	return de_bytes(c, bit) * 8;
}

static int de_used(const struct fld_ctx *c, uint64_t p)
{
	return !de_is_free(c, p);
}

static int de_free(const struct fld_ctx *c, uint64_t p)
{
	return de_is_free(c, p);
}

static int de_namelen(const struct fld_ctx *c, uint64_t p)
{
	return de_is_free(c, p) ? 0 : (int)fc_u8(c, p / 8 + 8);
}

static int de_ftype(const struct fld_ctx *c, uint64_t p)
{
	(void)p;
	return c->has_ftype;
}

/*
 * The file type byte follows the name.  An unused region has none; the
 * reference then shows the byte where the tag starts, and so do we.
 */
static uint64_t de_ftype_off(const struct fld_ctx *c, uint64_t p, int i)
{
	uint64_t n = de_bytes(c, p);

	(void)i;
	if (de_is_free(c, p))
		return n >= 2 ? (n - 2) * 8 : 0;
	return (9 + (uint64_t)fc_u8(c, p / 8 + 8)) * 8;
}

static uint64_t de_tag_off(const struct fld_ctx *c, uint64_t p, int i)
{
	uint64_t n = de_bytes(c, p);

	(void)i;
	return n >= 2 ? (n - 2) * 8 : 0;
}

static const struct fld data_union_flds[] = {
	{ "inumber", &ft_ino, 0, 0, FLD_COUNT_FN, 0, de_used },
	{ "namelen", &ft_uint8d, 64, 0, FLD_COUNT_FN, 0, de_used },
	{ "name", &ft_charns, 72, 0, FLD_COUNT_FN, 0, de_namelen },
	{ "freetag", &ft_uint16x, 0, 0, FLD_COUNT_FN, 0, de_free },
	{ "length", &ft_data_off, 16, 0, FLD_COUNT_FN, 0, de_free },
	{ "filetype", &ft_uint8d, 0, 0, FLD_COUNT_FN | FLD_OFFSET_FN, 0,
	  de_ftype, de_ftype_off },
	{ "tag", &ft_data_off, 0, 1, FLD_OFFSET_FN, 0, NULL, de_tag_off },
	{ NULL }
};
static const struct ftype ft_data_union = { .name = "dir3_data_union",
	.print = FP_NONE, .size_fn = de_size, .sub = data_union_flds };

#define DATA_HDR_BYTES	sizeof(struct xfs_dir3_data_hdr)

/* Where the entries of a data or block directory block end. */
static uint64_t de_end(const struct fld_ctx *c)
{
	uint64_t end = c->len;

	if (fld_dir3_kind(c) == FLD_DIR_BLOCK && c->len >= 8) {
		uint64_t leaf = (uint64_t)fc_be32(c, c->len - 8) * 8;

		end = c->len - 8;
		end = leaf <= end ? end - leaf : 0;
	}
	return end;
}

/* Walk the entries: idx < 0 counts them, else returns idx's offset. */
static uint64_t de_walk(const struct fld_ctx *c, int idx, int *count)
{
	uint64_t off = DATA_HDR_BYTES, end = de_end(c);
	int i = 0;

	while (off < end && (idx < 0 || i < idx)) {
		uint64_t n = de_bytes(c, off * 8);

		i++;
		if (!n)
			break;
		off += n;
	}
	if (count)
		*count = i;
	return off;
}

static int du_count(const struct fld_ctx *c, uint64_t p)
{
	int n;

	(void)p;
	de_walk(c, -1, &n);
	return n;
}

static uint64_t du_off(const struct fld_ctx *c, uint64_t p, int idx)
{
	(void)p;
	return de_walk(c, idx, NULL) * 8;
}

/* ---- dir3 leaf entries, block tail, leaf tail ---- */

#define LE(m)	FLD_BO(struct xfs_dir2_leaf_entry, m)
static const struct fld leaf_entry_flds[] = {
	{ "hashval", &ft_uint32x, LE(hashval), 1 },
	{ "address", &ft_uint32x, LE(address), 1 },
	{ NULL }
};
#undef LE
static const struct ftype ft_leaf_entry = { .name = "dir2_leaf_entry",
	.print = FP_NONE, .bits = sizeof(struct xfs_dir2_leaf_entry) * 8,
	.sub = leaf_entry_flds };

static const struct fld block_tail_flds[] = {
	{ "count", &ft_uint32d, FLD_BO(struct xfs_dir2_block_tail, count), 1 },
	{ "stale", &ft_uint32d, FLD_BO(struct xfs_dir2_block_tail, stale), 1 },
	{ NULL }
};
static const struct ftype ft_block_tail = { .name = "dir2_block_tail",
	.print = FP_NONE, .bits = sizeof(struct xfs_dir2_block_tail) * 8,
	.sub = block_tail_flds };

static const struct fld leaf_tail_flds[] = {
	{ "bestcount", &ft_uint32d,
	  FLD_BO(struct xfs_dir2_leaf_tail, bestcount), 1 },
	{ NULL }
};
static const struct ftype ft_leaf_tail = { .name = "dir2_leaf_tail",
	.print = FP_NONE, .bits = sizeof(struct xfs_dir2_leaf_tail) * 8,
	.sub = leaf_tail_flds };

#define LH(m)	FLD_BO(struct xfs_dir3_leaf_hdr, m)
static const struct fld leaf_hdr_flds[] = {
	{ "info", &ft_da3_blkinfo, LH(info), 1 },
	{ "count", &ft_uint16d, LH(count), 1 },
	{ "stale", &ft_uint16d, LH(stale), 1 },
	{ NULL }
};
#undef LH
static const struct ftype ft_leaf_hdr = { .name = "dir3_leaf_hdr",
	.print = FP_NONE, .bits = sizeof(struct xfs_dir3_leaf_hdr) * 8,
	.sub = leaf_hdr_flds };

#define FH(m)	FLD_BO(struct xfs_dir3_free_hdr, m)
static const struct fld free_hdr_flds[] = {
	{ "hdr", &ft_blkhdr, FH(hdr), 1 },
	{ "firstdb", &ft_int32d, FH(firstdb), 1 },
	{ "nvalid", &ft_int32d, FH(nvalid), 1 },
	{ "nused", &ft_int32d, FH(nused), 1 },
	{ NULL }
};
#undef FH
static const struct ftype ft_free_hdr = { .name = "dir3_free_hdr",
	.print = FP_NONE, .bits = sizeof(struct xfs_dir3_free_hdr) * 8,
	.sub = free_hdr_flds };

/* counts and places of the per-kind parts */
#define KIND_IS(fn, k) \
static int fn(const struct fld_ctx *c, uint64_t p) \
{ (void)p; return fld_dir3_kind(c) == (k); }
KIND_IS(is_block, FLD_DIR_BLOCK)
KIND_IS(is_data, FLD_DIR_DATA)
KIND_IS(is_leaf1, FLD_DIR_LEAF1)
KIND_IS(is_node, FLD_DIR_NODE)
KIND_IS(is_free, FLD_DIR_FREE)

static int is_leaf(const struct fld_ctx *c, uint64_t p)
{
	(void)p;
	return fld_dir3_kind(c) == FLD_DIR_LEAF1 ||
	       fld_dir3_kind(c) == FLD_DIR_LEAFN;
}

static int bu_count(const struct fld_ctx *c, uint64_t p)
{
	return is_block(c, p) ? du_count(c, p) : 0;
}

static int du_count_data(const struct fld_ctx *c, uint64_t p)
{
	return is_data(c, p) ? du_count(c, p) : 0;
}

static int bleaf_count(const struct fld_ctx *c, uint64_t p)
{
	uint64_t n, max;

	if (!is_block(c, p) || c->len < 8 + DATA_HDR_BYTES)
		return 0;
	n = fc_be32(c, c->len - 8);
	max = (c->len - 8 - DATA_HDR_BYTES) / 8;
	return n > max ? (int)max : (int)n;
}

static uint64_t bleaf_off(const struct fld_ctx *c, uint64_t p, int idx)
{
	(void)p;
	return ((uint64_t)c->len - 8 - (uint64_t)bleaf_count(c, 0) * 8 +
		(uint64_t)idx * 8) * 8;
}

static uint64_t btail_off(const struct fld_ctx *c, uint64_t p, int idx)
{
	(void)p;
	(void)idx;
	return c->len >= 8 ? ((uint64_t)c->len - 8) * 8 : 0;
}

static int lents_count(const struct fld_ctx *c, uint64_t p)
{
	unsigned n = fc_be16(c, offsetof(struct xfs_dir3_leaf_hdr, count));
	unsigned max = c->len > sizeof(struct xfs_dir3_leaf_hdr) ?
		(c->len - sizeof(struct xfs_dir3_leaf_hdr)) / 8 : 0;

	if (!is_leaf(c, p))
		return 0;
	return n > max ? max : n;
}

static int lbests_count(const struct fld_ctx *c, uint64_t p)
{
	uint64_t n, max;

	if (!is_leaf1(c, p) || c->len < 4 + sizeof(struct xfs_dir3_leaf_hdr))
		return 0;
	n = fc_be32(c, c->len - 4);
	max = (c->len - 4 - sizeof(struct xfs_dir3_leaf_hdr)) / 2;
	return n > max ? (int)max : (int)n;
}

static uint64_t lbests_off(const struct fld_ctx *c, uint64_t p, int idx)
{
	(void)p;
	return ((uint64_t)c->len - 4 - (uint64_t)lbests_count(c, 0) * 2 +
		(uint64_t)idx * 2) * 8;
}

static uint64_t ltail_off(const struct fld_ctx *c, uint64_t p, int idx)
{
	(void)p;
	(void)idx;
	return c->len >= 4 ? ((uint64_t)c->len - 4) * 8 : 0;
}

static int nbtree_count(const struct fld_ctx *c, uint64_t p)
{
	return is_node(c, p) ? node_count(c, p) : 0;
}

static int fbests_count(const struct fld_ctx *c, uint64_t p)
{
	int32_t n = (int32_t)fc_be32(c, offsetof(struct xfs_dir3_free_hdr,
						 nvalid));
	int max = c->len > sizeof(struct xfs_dir3_free_hdr) ?
		(c->len - sizeof(struct xfs_dir3_free_hdr)) / 2 : 0;

	if (!is_free(c, p) || n < 0)
		return 0;
	return n > max ? max : n;
}

#define HDRBITS(t)	((uint64_t)sizeof(t) * 8)
static const struct fld dir3_flds[] = {
	{ "bhdr", &ft_data_hdr, 0, 0, FLD_COUNT_FN, 0, is_block },
	{ "bu", &ft_data_union, 0, 0,
	  FLD_ARRAY | FLD_COUNT_FN | FLD_OFFSET_FN, 0, bu_count, du_off },
	{ "bleaf", &ft_leaf_entry, 0, 0,
	  FLD_ARRAY | FLD_COUNT_FN | FLD_OFFSET_FN, 0, bleaf_count, bleaf_off },
	{ "btail", &ft_block_tail, 0, 0, FLD_COUNT_FN | FLD_OFFSET_FN, 0,
	  is_block, btail_off },
	{ "dhdr", &ft_data_hdr, 0, 0, FLD_COUNT_FN, 0, is_data },
	{ "du", &ft_data_union, 0, 0,
	  FLD_ARRAY | FLD_COUNT_FN | FLD_OFFSET_FN, 0, du_count_data, du_off },
	{ "lhdr", &ft_leaf_hdr, 0, 0, FLD_COUNT_FN, 0, is_leaf },
	{ "lbests", &ft_data_off, 0, 0,
	  FLD_ARRAY | FLD_COUNT_FN | FLD_OFFSET_FN, 0, lbests_count,
	  lbests_off },
	{ "lents", &ft_leaf_entry, HDRBITS(struct xfs_dir3_leaf_hdr), 0,
	  FLD_ARRAY | FLD_COUNT_FN, 0, lents_count },
	{ "ltail", &ft_leaf_tail, 0, 0, FLD_COUNT_FN | FLD_OFFSET_FN, 0,
	  is_leaf1, ltail_off },
	{ "nhdr", &ft_da3_node_hdr, 0, 0, FLD_COUNT_FN, 0, is_node },
	{ "nbtree", &ft_dir_node_entry, HDRBITS(struct xfs_da3_node_hdr), 0,
	  FLD_ARRAY | FLD_COUNT_FN, 0, nbtree_count },
	{ "fhdr", &ft_free_hdr, 0, 0, FLD_COUNT_FN, 0, is_free },
	{ "fbests", &ft_data_offnz, HDRBITS(struct xfs_dir3_free_hdr), 0,
	  FLD_ARRAY | FLD_COUNT_FN, 0, fbests_count },
	{ NULL }
};

const struct ftype ft_dir3 = { .name = "dir3", .print = FP_NONE,
	.size_fn = obj_size, .sub = dir3_flds };

/* ---- attr3 ---- */

enum { ATTR_UNKNOWN, ATTR_LEAF, ATTR_NODE, ATTR_REMOTE };

static int attr_kind(const struct fld_ctx *c)
{
	if (fc_be32(c, 0) == XFS_ATTR3_RMT_MAGIC)
		return ATTR_REMOTE;
	switch (fc_be16(c, offsetof(struct xfs_da3_blkinfo, magic))) {
	case XFS_ATTR3_LEAF_MAGIC:
		return ATTR_LEAF;
	case XFS_DA3_NODE_MAGIC:
		return ATTR_NODE;
	}
	return ATTR_UNKNOWN;
}

#define AKIND_IS(fn, k) \
static int fn(const struct fld_ctx *c, uint64_t p) \
{ (void)p; return attr_kind(c) == (k); }
AKIND_IS(a_is_leaf, ATTR_LEAF)
AKIND_IS(a_is_node, ATTR_NODE)
AKIND_IS(a_is_remote, ATTR_REMOTE)

#define FM(m)	FLD_BO(struct xfs_attr_leaf_map, m)
static const struct fld leaf_map_flds[] = {
	{ "base", &ft_uint16d, FM(base), 1 },
	{ "size", &ft_uint16d, FM(size), 1 },
	{ NULL }
};
#undef FM
static const struct ftype ft_leaf_map = { .name = "attr_leaf_map",
	.print = FP_SARRAY, .bits = sizeof(struct xfs_attr_leaf_map) * 8,
	.sub = leaf_map_flds };

#define AH(m)	FLD_BO(struct xfs_attr3_leaf_hdr, m)
static const struct fld attr_leaf_hdr_flds[] = {
	{ "info", &ft_da3_blkinfo, AH(info), 1 },
	{ "count", &ft_uint16d, AH(count), 1 },
	{ "usedbytes", &ft_uint16d, AH(usedbytes), 1 },
	{ "firstused", &ft_uint16d, AH(firstused), 1 },
	{ "holes", &ft_uint8d, AH(holes), 1 },
	{ "freemap", &ft_leaf_map, AH(freemap), XFS_ATTR_LEAF_MAPSIZE,
	  FLD_ARRAY },
	{ NULL }
};
#undef AH
static const struct ftype ft_attr_leaf_hdr = { .name = "attr3_leaf_hdr",
	.print = FP_NONE, .bits = sizeof(struct xfs_attr3_leaf_hdr) * 8,
	.sub = attr_leaf_hdr_flds };

#define AE(m)	FLD_BO(struct xfs_attr_leaf_entry, m)
#define AEFLAG(f)	(AE(flags) + 7 - (__builtin_ctz(f)))
static const struct fld attr_entry_flds[] = {
	{ "hashval", &ft_uint32x, AE(hashval), 1 },
	{ "nameidx", &ft_uint16d, AE(nameidx), 1 },
	{ "incomplete", &ft_uint1, AEFLAG(XFS_ATTR_INCOMPLETE), 1 },
	{ "root", &ft_uint1, AEFLAG(XFS_ATTR_ROOT), 1 },
	{ "secure", &ft_uint1, AEFLAG(XFS_ATTR_SECURE), 1 },
	{ "local", &ft_uint1, AEFLAG(XFS_ATTR_LOCAL), 1 },
	{ NULL }
};
#undef AE
static const struct ftype ft_attr_entry = { .name = "attr_leaf_entry",
	.print = FP_SARRAY, .bits = sizeof(struct xfs_attr_leaf_entry) * 8,
	.sub = attr_entry_flds };

#define ALH	sizeof(struct xfs_attr3_leaf_hdr)
#define ALE	sizeof(struct xfs_attr_leaf_entry)

static int aentries_count(const struct fld_ctx *c, uint64_t p)
{
	unsigned n = fc_be16(c, offsetof(struct xfs_attr3_leaf_hdr, count));
	unsigned max = c->len > ALH ? (c->len - ALH) / ALE : 0;

	if (!a_is_leaf(c, p))
		return 0;
	return n > max ? max : n;
}

/* Is the name at byte offset nameidx that of a local entry? */
static bool aname_local(const struct fld_ctx *c, uint64_t byte)
{
	int i, n = aentries_count(c, 0);

	for (i = 0; i < n; i++)
		if (fc_be16(c, ALH + i * ALE + 4) == byte)
			return fc_u8(c, ALH + i * ALE + 6) & XFS_ATTR_LOCAL;
	return true;
}

static int an_local(const struct fld_ctx *c, uint64_t p)
{
	return aname_local(c, p / 8);
}

static int an_remote(const struct fld_ctx *c, uint64_t p)
{
	return !aname_local(c, p / 8);
}

static int an_local_namelen(const struct fld_ctx *c, uint64_t p)
{
	return an_local(c, p) ? (int)fc_u8(c, p / 8 + 2) : 0;
}

static int an_local_valuelen(const struct fld_ctx *c, uint64_t p)
{
	return an_local(c, p) ? (int)fc_be16(c, p / 8) : 0;
}

static uint64_t an_local_value_off(const struct fld_ctx *c, uint64_t p, int i)
{
	(void)i;
	return (3 + (uint64_t)fc_u8(c, p / 8 + 2)) * 8;
}

static int an_remote_namelen(const struct fld_ctx *c, uint64_t p)
{
	return an_remote(c, p) ? (int)fc_u8(c, p / 8 + 8) : 0;
}

#define NL(m)	FLD_BO(struct xfs_attr_leaf_name_local, m)
#define NR(m)	FLD_BO(struct xfs_attr_leaf_name_remote, m)
static const struct fld attr_name_flds[] = {
	{ "valuelen", &ft_uint16d, NL(valuelen), 0, FLD_COUNT_FN, 0, an_local },
	{ "namelen", &ft_uint8d, NL(namelen), 0, FLD_COUNT_FN, 0, an_local },
	{ "name", &ft_charns, NL(nameval), 0, FLD_COUNT_FN, 0,
	  an_local_namelen },
	{ "value", &ft_charns, 0, 0, FLD_COUNT_FN | FLD_OFFSET_FN, 0,
	  an_local_valuelen, an_local_value_off },
	{ "valueblk", &ft_uint32x, NR(valueblk), 0, FLD_COUNT_FN, 0,
	  an_remote },
	{ "valuelen", &ft_uint32d, NR(valuelen), 0, FLD_COUNT_FN, 0,
	  an_remote },
	{ "namelen", &ft_uint8d, NR(namelen), 0, FLD_COUNT_FN, 0, an_remote },
	{ "name", &ft_charns, NR(name), 0, FLD_COUNT_FN, 0,
	  an_remote_namelen },
	{ NULL }
};
#undef NL
#undef NR

static uint64_t aname_size(const struct fld_ctx *c, uint64_t bit)
{
	uint64_t b = bit / 8;

	if (aname_local(c, b))
		return (uint64_t)XFS_ATTR_LEAF_NAME_LOCAL_SIZE(fc_u8(c, b + 2),
							      fc_be16(c, b)) * 8;
	return (uint64_t)XFS_ATTR_LEAF_NAME_REMOTE_SIZE(fc_u8(c, b + 8)) * 8;
}

static const struct ftype ft_attr_name = { .name = "attr_leaf_name",
	.print = FP_NONE, .size_fn = aname_size, .sub = attr_name_flds };

static uint64_t nvlist_off(const struct fld_ctx *c, uint64_t p, int idx)
{
	(void)p;
	return (uint64_t)fc_be16(c, ALH + idx * ALE + 4) * 8;
}

static int anode_count(const struct fld_ctx *c, uint64_t p)
{
	return a_is_node(c, p) ? node_count(c, p) : 0;
}

#define RH(m)	FLD_BO(struct xfs_attr3_rmt_hdr, rm_##m)
static const struct fld attr_rmt_hdr_flds[] = {
	{ "magic", &ft_uint32x, RH(magic), 1 },
	{ "offset", &ft_uint32d, RH(offset), 1 },
	{ "bytes", &ft_uint32d, RH(bytes), 1 },
	{ "crc", &ft_crc, RH(crc), 1 },
	{ "uuid", &ft_uuid, RH(uuid), 1 },
	{ "owner", &ft_ino, RH(owner), 1 },
	{ "bno", &ft_dfsbno, RH(blkno), 1 },
	{ "lsn", &ft_uint64x, RH(lsn), 1 },
	{ NULL }
};
#undef RH
static const struct ftype ft_attr_rmt_hdr = { .name = "attr3_remote_hdr",
	.print = FP_NONE, .bits = sizeof(struct xfs_attr3_rmt_hdr) * 8,
	.sub = attr_rmt_hdr_flds };

static int armt_data_count(const struct fld_ctx *c, uint64_t p)
{
	uint32_t n = fc_be32(c, offsetof(struct xfs_attr3_rmt_hdr, rm_bytes));
	uint32_t max = c->len > sizeof(struct xfs_attr3_rmt_hdr) ?
		       c->len - sizeof(struct xfs_attr3_rmt_hdr) : 0;

	if (!a_is_remote(c, p))
		return 0;
	return n > max ? (int)max : (int)n;
}

static const struct fld attr3_flds[] = {
	{ "hdr", &ft_attr_leaf_hdr, 0, 0, FLD_COUNT_FN, 0, a_is_leaf },
	{ "hdr", &ft_da3_node_hdr, 0, 0, FLD_COUNT_FN, 0, a_is_node },
	{ "hdr", &ft_attr_rmt_hdr, 0, 0, FLD_COUNT_FN, 0, a_is_remote },
	{ "data", &ft_charns, HDRBITS(struct xfs_attr3_rmt_hdr), 0,
	  FLD_COUNT_FN, 0, armt_data_count },
	{ "entries", &ft_attr_entry, ALH * 8, 0, FLD_ARRAY | FLD_COUNT_FN, 0,
	  aentries_count },
	{ "btree", &ft_attr_node_entry, HDRBITS(struct xfs_da3_node_hdr), 0,
	  FLD_ARRAY | FLD_COUNT_FN, 0, anode_count },
	{ "nvlist", &ft_attr_name, 0, 0,
	  FLD_ARRAY | FLD_COUNT_FN | FLD_OFFSET_FN, 0, aentries_count,
	  nvlist_off },
	{ NULL }
};

const struct ftype ft_attr3 = { .name = "attr3", .print = FP_NONE,
	.size_fn = obj_size, .sub = attr3_flds };

/* ---- remote symlink block ---- */

#define SL(m)	FLD_BO(struct xfs_dsymlink_hdr, sl_##m)
static int sl_is(const struct fld_ctx *c, uint64_t p)
{
	(void)p;
	return fc_be32(c, 0) == XFS_SYMLINK_MAGIC;
}

static int sl_data_count(const struct fld_ctx *c, uint64_t p)
{
	uint32_t n = fc_be32(c, offsetof(struct xfs_dsymlink_hdr, sl_bytes));
	uint32_t max = c->len > sizeof(struct xfs_dsymlink_hdr) ?
		       c->len - sizeof(struct xfs_dsymlink_hdr) : 0;

	if (!sl_is(c, p))
		return 0;
	return n > max ? (int)max : (int)n;
}

static const struct fld symlink_flds[] = {
	{ "magic", &ft_uint32x, SL(magic), 0, FLD_COUNT_FN, 0, sl_is },
	{ "offset", &ft_uint32d, SL(offset), 0, FLD_COUNT_FN, 0, sl_is },
	{ "bytes", &ft_uint32d, SL(bytes), 0, FLD_COUNT_FN, 0, sl_is },
	{ "crc", &ft_crc, SL(crc), 0, FLD_COUNT_FN, 0, sl_is },
	{ "uuid", &ft_uuid, SL(uuid), 0, FLD_COUNT_FN, 0, sl_is },
	{ "owner", &ft_ino, SL(owner), 0, FLD_COUNT_FN, 0, sl_is },
	{ "bno", &ft_dfsbno, SL(blkno), 0, FLD_COUNT_FN, 0, sl_is },
	{ "lsn", &ft_uint64x, SL(lsn), 0, FLD_COUNT_FN, 0, sl_is },
	{ "data", &ft_charns, HDRBITS(struct xfs_dsymlink_hdr), 0,
	  FLD_COUNT_FN, 0, sl_data_count },
	{ NULL }
};
#undef SL

const struct ftype ft_symlink = { .name = "symlink", .print = FP_NONE,
	.size_fn = obj_size, .sub = symlink_flds };

/* ---- quota record ---- */

#define DQ(m)	FLD_BO(struct xfs_disk_dquot, d_##m)
static const struct fld disk_dquot_flds[] = {
	{ "magic", &ft_uint16x, DQ(magic), 1 },
	{ "version", &ft_uint8x, DQ(version), 1 },
	{ "type", &ft_uint8x, DQ(type), 1 },
	{ "id", &ft_dqid, DQ(id), 1 },
	{ "blk_hardlimit", &ft_uint64d, DQ(blk_hardlimit), 1 },
	{ "blk_softlimit", &ft_uint64d, DQ(blk_softlimit), 1 },
	{ "ino_hardlimit", &ft_uint64d, DQ(ino_hardlimit), 1 },
	{ "ino_softlimit", &ft_uint64d, DQ(ino_softlimit), 1 },
	{ "bcount", &ft_uint64d, DQ(bcount), 1 },
	{ "icount", &ft_uint64d, DQ(icount), 1 },
	{ "itimer", &ft_qtimer, DQ(itimer), 1 },
	{ "btimer", &ft_qtimer, DQ(btimer), 1 },
	{ "iwarns", &ft_uint16d, DQ(iwarns), 1 },
	{ "bwarns", &ft_uint16d, DQ(bwarns), 1 },
	{ "rtb_hardlimit", &ft_uint64d, DQ(rtb_hardlimit), 1 },
	{ "rtb_softlimit", &ft_uint64d, DQ(rtb_softlimit), 1 },
	{ "rtbcount", &ft_uint64d, DQ(rtbcount), 1 },
	{ "rtbtimer", &ft_qtimer, DQ(rtbtimer), 1 },
	{ "rtbwarns", &ft_uint16d, DQ(rtbwarns), 1 },
	{ NULL }
};
#undef DQ
static const struct ftype ft_disk_dquot = { .name = "disk_dquot",
	.print = FP_NONE, .bits = sizeof(struct xfs_disk_dquot) * 8,
	.sub = disk_dquot_flds };

#define DB(m)	FLD_BO(struct xfs_dqblk, dd_##m)
static const struct fld dqblk_flds[] = {
	{ "diskdq", &ft_disk_dquot, DB(diskdq), 1 },
	{ "crc", &ft_crc, DB(crc), 1 },
	{ "lsn", &ft_uint64x, DB(lsn), 1 },
	{ "uuid", &ft_uuid, DB(uuid), 1 },
	{ NULL }
};
#undef DB

const struct ftype ft_dqblk = { .name = "dqblk", .print = FP_NONE,
	.bits = sizeof(struct xfs_dqblk) * 8, .sub = dqblk_flds };

/* Where the CRC of a dir3 / attr3 block is depends on its kind. */
uint32_t fld_obj_crc_off(const struct fld_objtype *t, const struct fld_ctx *c)
{
	if (t->type == &ft_dir3) {
		switch (fld_dir3_kind(c)) {
		case FLD_DIR_BLOCK:
		case FLD_DIR_DATA:
		case FLD_DIR_FREE:
			return offsetof(struct xfs_dir3_blk_hdr, crc);
		case FLD_DIR_LEAF1:
		case FLD_DIR_LEAFN:
		case FLD_DIR_NODE:
			return offsetof(struct xfs_da3_blkinfo, crc);
		default:
			return FLD_NO_CRC;
		}
	}
	if (t->type == &ft_attr3) {
		switch (attr_kind(c)) {
		case ATTR_LEAF:
		case ATTR_NODE:
			return offsetof(struct xfs_da3_blkinfo, crc);
		case ATTR_REMOTE:
			return offsetof(struct xfs_attr3_rmt_hdr, rm_crc);
		default:
			return FLD_NO_CRC;
		}
	}
	return t->crc_off;
}
