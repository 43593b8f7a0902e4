/*
 * Field tables, part 1: the generic machinery (bit access, counts and
 * offsets), the basic field types, and the tables of the superblock, the
 * AG headers and the btree blocks.
 */
#include "config.h"
#include <string.h>
#include "fields.h"
#include "fields_int.h"
#include "format/ondisk.h"

/* ---- bits ---- */

uint64_t bits_get(const uint8_t *data, uint32_t len, uint64_t bit,
		  unsigned nbits)
{
	uint64_t v = 0;
	unsigned i;

	if (nbits > 64)
		nbits = 64;
	/* Byte-aligned whole bytes: the common case. */
	if (!(bit & 7) && !(nbits & 7)) {
		uint64_t byte = bit >> 3;

		for (i = 0; i < nbits / 8; i++) {
			v <<= 8;
			if (byte + i < len)
				v |= data[byte + i];
		}
		return v;
	}
	for (i = 0; i < nbits; i++) {
		uint64_t b = bit + i;
		unsigned x = 0;

		if ((b >> 3) < len)
			x = (data[b >> 3] >> (7 - (b & 7))) & 1;
		v = (v << 1) | x;
	}
	return v;
}

int64_t bits_get_signed(const uint8_t *data, uint32_t len, uint64_t bit,
			unsigned nbits)
{
	uint64_t v = bits_get(data, len, bit, nbits);

	if (nbits && nbits < 64 && (v >> (nbits - 1)) & 1)
		v |= ~0ull << nbits;
	return (int64_t)v;
}

void bits_set(uint8_t *data, uint32_t len, uint64_t bit, unsigned nbits,
	      uint64_t val)
{
	unsigned i;

	if (nbits > 64)
		nbits = 64;
	for (i = 0; i < nbits; i++) {
		uint64_t b = bit + i;
		unsigned x = (val >> (nbits - 1 - i)) & 1;

		if ((b >> 3) >= len)
			continue;
		if (x)
			data[b >> 3] |= 1u << (7 - (b & 7));
		else
			data[b >> 3] &= ~(1u << (7 - (b & 7)));
	}
}

/* ---- counts, offsets, sizes ---- */

int fld_count(const struct fld_ctx *c, const struct fld *f, uint64_t pbit)
{
	int n;

	if (!(f->flags & FLD_COUNT_FN))
		return f->count;
	n = f->count_fn(c, pbit);
	return n < 0 ? 0 : n;
}

int fld_count_raw(const struct fld_ctx *c, const struct fld *f,
		  uint64_t pbit)
{
	if (!(f->flags & FLD_COUNT_FN))
		return f->count;
	return f->count_fn(c, pbit);
}

uint64_t ftype_size(const struct fld_ctx *c, const struct ftype *t,
		    uint64_t bit)
{
	if (t->bits)
		return t->bits;
	if (t->size_fn)
		return t->size_fn(c, bit);
	return 0;
}

uint64_t fld_elem_bit(const struct fld_ctx *c, const struct fld *f,
		      uint64_t pbit, int idx)
{
	if (f->flags & FLD_OFFSET_FN)
		return pbit + f->off_fn(c, pbit, idx);
	if (!idx)
		return pbit + f->off;
	/* fixed-size elements follow each other */
	return pbit + f->off + (uint64_t)idx * ftype_size(c, f->type, pbit + f->off);
}

uint64_t fld_elem_size(const struct fld_ctx *c, const struct fld *f,
		       uint64_t pbit, int idx)
{
	return ftype_size(c, f->type, fld_elem_bit(c, f, pbit, idx));
}

const struct fld *fld_find(const struct fld *tab, const char *name)
{
	for (; tab && tab->name; tab++)
		if (!strcmp(tab->name, name))
			return tab;
	return NULL;
}

/* Read helpers for the layout functions: bounded by the object length. */
uint32_t fc_be16(const struct fld_ctx *c, uint64_t byte)
{
	return byte + 2 <= c->len ? load_be16(c->data + byte) : 0;
}

uint32_t fc_be32(const struct fld_ctx *c, uint64_t byte)
{
	return byte + 4 <= c->len ? load_be32(c->data + byte) : 0;
}

uint64_t fc_be64(const struct fld_ctx *c, uint64_t byte)
{
	return byte + 8 <= c->len ? load_be64(c->data + byte) : 0;
}

uint32_t fc_u8(const struct fld_ctx *c, uint64_t byte)
{
	return byte < c->len ? c->data[byte] : 0;
}

/* ---- basic field types ---- */

#define NUMTYPE(id, nm, f, b, a) \
	const struct ftype id = { .name = nm, .print = FP_NUM, .fmt = f, \
				  .bits = b, .arg = a }

NUMTYPE(ft_uint1, "uint1", "%u", 1, 0);
NUMTYPE(ft_uint8d, "uint8d", "%u", 8, 0);
NUMTYPE(ft_uint8x, "uint8x", "%#x", 8, 0);
NUMTYPE(ft_uint8o, "uint8o", "%#o", 8, 0);
NUMTYPE(ft_int8d, "int8d", "%d", 8, FTA_SIGNED);
NUMTYPE(ft_uint16d, "uint16d", "%u", 16, 0);
NUMTYPE(ft_uint16x, "uint16x", "%#x", 16, 0);
NUMTYPE(ft_uint16o, "uint16o", "%#o", 16, 0);
NUMTYPE(ft_int16d, "int16d", "%d", 16, FTA_SIGNED);
NUMTYPE(ft_uint32d, "uint32d", "%u", 32, 0);
NUMTYPE(ft_uint32x, "uint32x", "%#x", 32, 0);
NUMTYPE(ft_uint32o, "uint32o", "%#o", 32, 0);
NUMTYPE(ft_int32d, "int32d", "%d", 32, FTA_SIGNED);
NUMTYPE(ft_uint64d, "uint64d", "%llu", 64, 0);
NUMTYPE(ft_uint64x, "uint64x", "%#llx", 64, 0);
NUMTYPE(ft_uint64o, "uint64o", "%#llo", 64, 0);
NUMTYPE(ft_int64d, "int64d", "%lld", 64, FTA_SIGNED);
NUMTYPE(ft_agnumber, "agnumber", "%u", 32, FTA_DONULL);
NUMTYPE(ft_agino, "agino", "%u", 32, FTA_DONULL | FTA_AGREL);
NUMTYPE(ft_aginonn, "aginonn", "%u", 32, FTA_SKIPNULL | FTA_AGREL);
NUMTYPE(ft_extlen, "extlen", "%u", 32, 0);
NUMTYPE(ft_drfsbno, "drfsbno", "%llu", 64, FTA_DONULL);
NUMTYPE(ft_drtbno, "drtbno", "%llu", 64, FTA_DONULL);
NUMTYPE(ft_fsize, "fsize", "%lld", 64, FTA_SIGNED);
NUMTYPE(ft_dev, "dev", "%#x", 32, 0);
NUMTYPE(ft_dirblock, "dirblock", "%u", 32, 0);
NUMTYPE(ft_dqid, "dqid", "%d", 32, 0);
NUMTYPE(ft_cextflg, "cextflag", "%u", 1, 0);
NUMTYPE(ft_cextlen, "cextlen", "%u", XFS_BMBT_BLOCKCOUNT_BITS, 0);
NUMTYPE(ft_cfileoff, "cfileoff", "%llu", XFS_BMBT_STARTOFF_BITS, 0);
NUMTYPE(ft_cfsblock, "cfsblock", "%llu", XFS_BMBT_STARTBLOCK_BITS, 0);
NUMTYPE(ft_rfileoff, "rfileoffd", "%llu", 54, 0);
NUMTYPE(ft_cagblock, "cagblock", "%u", 31, FTA_DONULL | FTA_AGREL);
NUMTYPE(ft_data_off, "dir2_data_off", "%#x", 16, 0);
NUMTYPE(ft_data_offnz, "dir2_data_offnz", "%#x", 16, FTA_SKIPZERO);
NUMTYPE(ft_sf_off, "dir2_sf_off", "%#x", 16, 0);
NUMTYPE(ft_ino4, "dir2_ino4", "%u", 32, 0);
NUMTYPE(ft_ino8, "dir2_ino8", "%llu", 64, 0);
NUMTYPE(ft_attrblock, "attrblock", "%u", 32, 0);
NUMTYPE(ft_nsec, "nsec", "%u", 32, 0);
const struct ftype ft_qtimer = { .name = "qtimer", .print = FP_QTIMER,
	.bits = 32 };

const struct ftype ft_agblock = { .name = "agblock", .print = FP_NUM,
	.fmt = "%u", .bits = 32, .arg = FTA_DONULL | FTA_AGREL };
static const struct ftype ft_agblocknz = { .name = "agblocknz",
	.print = FP_NUM, .fmt = "%u", .bits = 32,
	.arg = FTA_DONULL | FTA_SKIPZERO | FTA_AGREL };
const struct ftype ft_dfsbno = { .name = "dfsbno", .print = FP_NUM,
	.fmt = "%llu", .bits = 64, .arg = FTA_DONULL };
const struct ftype ft_ino = { .name = "ino", .print = FP_NUM,
	.fmt = "%llu", .bits = 64, .arg = FTA_DONULL, .next = "inode" };
const struct ftype ft_crc = { .name = "crc", .print = FP_CRC, .bits = 32 };
const struct ftype ft_uuid = { .name = "uuid", .print = FP_UUID,
	.bits = 128 };
const struct ftype ft_charns = { .name = "charns", .print = FP_CHARNS,
	.bits = 8 };
const struct ftype ft_dinode_fmt = { .name = "dinode_fmt",
	.print = FP_DINODE_FMT, .bits = 8, .arg = FTA_SIGNED };
const struct ftype ft_time = { .name = "time", .print = FP_TIME, .bits = 64 };
const struct ftype ft_nsec_t = { .name = "nsec", .print = FP_NSEC,
	.bits = 64 };

/* ---- superblock ---- */

#define SB(m)	FLD_BO(struct xfs_dsb, sb_##m)
static const struct fld sb_flds[] = {
	{ "magicnum", &ft_uint32x, SB(magicnum), 1 },
	{ "blocksize", &ft_uint32d, SB(blocksize), 1 },
	{ "dblocks", &ft_drfsbno, SB(dblocks), 1 },
	{ "rblocks", &ft_drfsbno, SB(rblocks), 1 },
	{ "rextents", &ft_drtbno, SB(rextents), 1 },
	{ "uuid", &ft_uuid, SB(uuid), 1 },
	{ "logstart", &ft_dfsbno, SB(logstart), 1, .next = "log" },
	{ "rootino", &ft_ino, SB(rootino), 1 },
	{ "rbmino", &ft_ino, SB(rbmino), 1 },
	{ "rsumino", &ft_ino, SB(rsumino), 1 },
	{ "rextsize", &ft_agblock, SB(rextsize), 1 },
	{ "agblocks", &ft_agblock, SB(agblocks), 1 },
	{ "agcount", &ft_agnumber, SB(agcount), 1 },
	{ "rbmblocks", &ft_extlen, SB(rbmblocks), 1 },
	{ "logblocks", &ft_extlen, SB(logblocks), 1 },
	{ "versionnum", &ft_uint16x, SB(versionnum), 1 },
	{ "sectsize", &ft_uint16d, SB(sectsize), 1 },
	{ "inodesize", &ft_uint16d, SB(inodesize), 1 },
	{ "inopblock", &ft_uint16d, SB(inopblock), 1 },
	{ "fname", &ft_charns, SB(fname), 12 },
	{ "blocklog", &ft_uint8d, SB(blocklog), 1 },
	{ "sectlog", &ft_uint8d, SB(sectlog), 1 },
	{ "inodelog", &ft_uint8d, SB(inodelog), 1 },
	{ "inopblog", &ft_uint8d, SB(inopblog), 1 },
	{ "agblklog", &ft_uint8d, SB(agblklog), 1 },
	{ "rextslog", &ft_uint8d, SB(rextslog), 1 },
	{ "inprogress", &ft_uint8d, SB(inprogress), 1 },
	{ "imax_pct", &ft_uint8d, SB(imax_pct), 1 },
	{ "icount", &ft_uint64d, SB(icount), 1 },
	{ "ifree", &ft_uint64d, SB(ifree), 1 },
	{ "fdblocks", &ft_uint64d, SB(fdblocks), 1 },
	{ "frextents", &ft_uint64d, SB(frextents), 1 },
	{ "uquotino", &ft_ino, SB(uquotino), 1 },
	{ "gquotino", &ft_ino, SB(gquotino), 1 },
	{ "qflags", &ft_uint16x, SB(qflags), 1 },
	{ "flags", &ft_uint8x, SB(flags), 1 },
	{ "shared_vn", &ft_uint8d, SB(shared_vn), 1 },
	{ "inoalignmt", &ft_extlen, SB(inoalignmt), 1 },
	{ "unit", &ft_uint32d, SB(unit), 1 },
	{ "width", &ft_uint32d, SB(width), 1 },
	{ "dirblklog", &ft_uint8d, SB(dirblklog), 1 },
	{ "logsectlog", &ft_uint8d, SB(logsectlog), 1 },
	{ "logsectsize", &ft_uint16d, SB(logsectsize), 1 },
	{ "logsunit", &ft_uint32d, SB(logsunit), 1 },
	{ "features2", &ft_uint32x, SB(features2), 1 },
	{ "bad_features2", &ft_uint32x, SB(bad_features2), 1 },
	{ "features_compat", &ft_uint32x, SB(features_compat), 1 },
	{ "features_ro_compat", &ft_uint32x, SB(features_ro_compat), 1 },
	{ "features_incompat", &ft_uint32x, SB(features_incompat), 1 },
	{ "features_log_incompat", &ft_uint32x, SB(features_log_incompat), 1 },
	{ "crc", &ft_crc, SB(crc), 1 },
	{ "spino_align", &ft_extlen, SB(spino_align), 1 },
	{ "pquotino", &ft_ino, SB(pquotino), 1 },
	{ "lsn", &ft_uint64x, SB(lsn), 1 },
	{ "meta_uuid", &ft_uuid, SB(meta_uuid), 1 },
	{ NULL }
};
#undef SB

static uint64_t sector_size_fn(const struct fld_ctx *c, uint64_t bit)
{
	(void)bit;
	return (uint64_t)c->len * 8;
}

const struct ftype ft_sb = { .name = "sb", .print = FP_NONE,
	.size_fn = sector_size_fn, .sub = sb_flds };

/* ---- AGF ---- */

#define AGF(m)	FLD_BO(struct xfs_agf, agf_##m)
static const struct fld agf_flds[] = {
	{ "magicnum", &ft_uint32x, AGF(magicnum), 1 },
	{ "versionnum", &ft_uint32d, AGF(versionnum), 1 },
	{ "seqno", &ft_agnumber, AGF(seqno), 1 },
	{ "length", &ft_agblock, AGF(length), 1 },
	{ "bnoroot", &ft_agblock, AGF(roots) + 32 * XFS_AGF_BNO, 1,
	  .next = "bnobt" },
	{ "cntroot", &ft_agblock, AGF(roots) + 32 * XFS_AGF_CNT, 1,
	  .next = "cntbt" },
	{ "rmaproot", &ft_agblocknz, AGF(roots) + 32 * XFS_AGF_RMAP, 1,
	  .next = "rmapbt" },
	{ "refcntroot", &ft_agblocknz, AGF(refcount_root), 1,
	  .next = "refcntbt" },
	{ "bnolevel", &ft_uint32d, AGF(levels) + 32 * XFS_AGF_BNO, 1 },
	{ "cntlevel", &ft_uint32d, AGF(levels) + 32 * XFS_AGF_CNT, 1 },
	{ "rmaplevel", &ft_uint32d, AGF(levels) + 32 * XFS_AGF_RMAP, 1 },
	{ "refcntlevel", &ft_uint32d, AGF(refcount_level), 1 },
	{ "rmapblocks", &ft_uint32d, AGF(rmap_blocks), 1 },
	{ "refcntblocks", &ft_uint32d, AGF(refcount_blocks), 1 },
	{ "flfirst", &ft_uint32d, AGF(flfirst), 1 },
	{ "fllast", &ft_uint32d, AGF(fllast), 1 },
	{ "flcount", &ft_uint32d, AGF(flcount), 1 },
	{ "freeblks", &ft_extlen, AGF(freeblks), 1 },
	{ "longest", &ft_extlen, AGF(longest), 1 },
	{ "btreeblks", &ft_uint32d, AGF(btreeblks), 1 },
	{ "uuid", &ft_uuid, AGF(uuid), 1 },
	{ "lsn", &ft_uint64x, AGF(lsn), 1 },
	{ "crc", &ft_crc, AGF(crc), 1 },
	{ NULL }
};
#undef AGF

const struct ftype ft_agf = { .name = "agf", .print = FP_NONE,
	.size_fn = sector_size_fn, .sub = agf_flds };

/* ---- AGI ---- */

#define AGI(m)	FLD_BO(struct xfs_agi, agi_##m)
static const struct fld agi_flds[] = {
	{ "magicnum", &ft_uint32x, AGI(magicnum), 1 },
	{ "versionnum", &ft_uint32d, AGI(versionnum), 1 },
	{ "seqno", &ft_agnumber, AGI(seqno), 1 },
	{ "length", &ft_agblock, AGI(length), 1 },
	{ "count", &ft_agino, AGI(count), 1 },
	{ "root", &ft_agblock, AGI(root), 1, .next = "inobt" },
	{ "level", &ft_uint32d, AGI(level), 1 },
	{ "freecount", &ft_agino, AGI(freecount), 1 },
	{ "newino", &ft_agino, AGI(newino), 1, .next = "inode" },
	{ "dirino", &ft_agino, AGI(dirino), 1, .next = "inode" },
	{ "unlinked", &ft_aginonn, AGI(unlinked), XFS_AGI_UNLINKED_BUCKETS,
	  FLD_ARRAY },
	{ "uuid", &ft_uuid, AGI(uuid), 1 },
	{ "crc", &ft_crc, AGI(crc), 1 },
	{ "lsn", &ft_uint64x, AGI(lsn), 1 },
	{ "free_root", &ft_agblock, AGI(free_root), 1, .next = "finobt" },
	{ "free_level", &ft_uint32d, AGI(free_level), 1 },
	{ "ino_blocks", &ft_uint32d, AGI(iblocks), 1 },
	{ "fino_blocks", &ft_uint32d, AGI(fblocks), 1 },
	{ NULL }
};
#undef AGI

const struct ftype ft_agi = { .name = "agi", .print = FP_NONE,
	.size_fn = sector_size_fn, .sub = agi_flds };

/* ---- AGFL ---- */

static int agfl_bno_count(const struct fld_ctx *c, uint64_t pbit)
{
	(void)pbit;
	if (c->len < XFS_AGFL_HDR_SIZE)
		return 0;
	return (c->len - XFS_AGFL_HDR_SIZE) / 4;
}

#define AGFL(m)	FLD_BO(struct xfs_agfl, agfl_##m)
static const struct fld agfl_flds[] = {
	{ "magicnum", &ft_uint32x, AGFL(magicnum), 1 },
	{ "seqno", &ft_agnumber, AGFL(seqno), 1 },
	{ "uuid", &ft_uuid, AGFL(uuid), 1 },
	{ "lsn", &ft_uint64x, AGFL(lsn), 1 },
	{ "crc", &ft_crc, AGFL(crc), 1 },
	{ "bno", &ft_agblocknz, XFS_AGFL_HDR_SIZE * 8, 0,
	  FLD_ARRAY | FLD_COUNT_FN, .count_fn = agfl_bno_count },
	{ NULL }
};
#undef AGFL

const struct ftype ft_agfl = { .name = "agfl", .print = FP_NONE,
	.size_fn = sector_size_fn, .sub = agfl_flds };

/* ---- btree blocks ---- */

static uint64_t block_size_fn(const struct fld_ctx *c, uint64_t bit)
{
	(void)bit;
	return (uint64_t)c->len * 8;
}

#define SBT(m)	FLD_BO(struct xfs_btree_sblock, bb_##m)
#define LBT(m)	FLD_BO(struct xfs_btree_lblock, bb_##m)

static unsigned bt_level(const struct fld_ctx *c)
{
	return fc_be16(c, 4);
}

static unsigned bt_numrecs(const struct fld_ctx *c)
{
	return fc_be16(c, 6);
}

/*
 * Records, keys and pointers of a btree block.  Keys and pointers are
 * laid out by the node capacity: maxrecs = (block - header) /
 * (key + pointer); the pointer array starts after maxrecs keys.
 */
struct bt_layout {
	unsigned	hdr, rec, key, ptr;
};

static const struct bt_layout alloc_layout, ino_layout, rmap_layout,
	refc_layout, bmbt_layout;

/*
 * Where records, keys and pointers start follows the block's own magic
 * when it is a btree magic (the reference shows a block of one tree
 * "as" another that way); the element sizes stay those of the type.
 */
static const struct bt_layout *bt_layout_of(const struct fld_ctx *c,
					    const struct bt_layout *l)
{
	switch (fc_be32(c, 0)) {
	case XFS_ABTB_CRC_MAGIC:
	case XFS_ABTC_CRC_MAGIC:
		return &alloc_layout;
	case XFS_IBT_CRC_MAGIC:
	case XFS_FIBT_CRC_MAGIC:
		return &ino_layout;
	case XFS_RMAP_CRC_MAGIC:
		return &rmap_layout;
	case XFS_REFC_CRC_MAGIC:
		return &refc_layout;
	case XFS_BMAP_CRC_MAGIC:
		return &bmbt_layout;
	}
	return l;
}

static uint64_t bt_hdr_off(const struct fld_ctx *c, const struct bt_layout *l)
{
	return (uint64_t)bt_layout_of(c, l)->hdr * 8;
}

static int bt_count(const struct fld_ctx *c, const struct bt_layout *l,
		    bool leaf)
{
	unsigned n = bt_numrecs(c), max;

	if ((bt_level(c) == 0) != leaf)
		return 0;
	if (c->len <= l->hdr)
		return 0;
	max = leaf ? (c->len - l->hdr) / l->rec :
		     (c->len - l->hdr) / (l->key + l->ptr);
	return n > max ? max : n;
}

static uint64_t bt_ptr_off(const struct fld_ctx *c, const struct bt_layout *t,
			   int idx)
{
	const struct bt_layout *l = bt_layout_of(c, t);
	unsigned max = c->len > l->hdr ? (c->len - l->hdr) / (l->key + l->ptr) : 0;

	return ((uint64_t)l->hdr + (uint64_t)max * l->key +
		(uint64_t)idx * t->ptr) * 8;
}

#define BT_FUNCS(nm, hdrlen, reclen, keylen, ptrlen) \
static const struct bt_layout nm##_layout = { hdrlen, reclen, keylen, ptrlen }; \
static uint64_t nm##_arr_off(const struct fld_ctx *c, uint64_t p, int i) \
{ (void)p; return bt_hdr_off(c, &nm##_layout) + \
	(uint64_t)i * (bt_level(c) ? keylen : reclen) * 8; } \
static int nm##_rec_count(const struct fld_ctx *c, uint64_t p) \
{ (void)p; return bt_count(c, &nm##_layout, true); } \
static int nm##_key_count(const struct fld_ctx *c, uint64_t p) \
{ (void)p; return bt_count(c, &nm##_layout, false); } \
static uint64_t nm##_ptr_off(const struct fld_ctx *c, uint64_t p, int i) \
{ (void)p; return bt_ptr_off(c, &nm##_layout, i); }

BT_FUNCS(alloc, XFS_BTREE_SBLOCK_CRC_LEN, 8, 8, 4)
BT_FUNCS(ino, XFS_BTREE_SBLOCK_CRC_LEN, 16, 4, 4)
BT_FUNCS(rmap, XFS_BTREE_SBLOCK_CRC_LEN, 24, 40, 4)
BT_FUNCS(refc, XFS_BTREE_SBLOCK_CRC_LEN, 12, 4, 4)
BT_FUNCS(bmbt, XFS_BTREE_LBLOCK_CRC_LEN, 16, 8, 8)

#define SBT_HDR(nm) \
	{ "magic", &ft_uint32x, SBT(magic), 1 }, \
	{ "level", &ft_uint16d, SBT(level), 1 }, \
	{ "numrecs", &ft_uint16d, SBT(numrecs), 1 }, \
	{ "leftsib", &ft_agblock, SBT(leftsib), 1, .next = nm }, \
	{ "rightsib", &ft_agblock, SBT(rightsib), 1, .next = nm }, \
	{ "bno", &ft_dfsbno, SBT(blkno), 1 }, \
	{ "lsn", &ft_uint64x, SBT(lsn), 1 }, \
	{ "uuid", &ft_uuid, SBT(uuid), 1 }, \
	{ "owner", &ft_agnumber, SBT(owner), 1 }, \
	{ "crc", &ft_crc, SBT(crc), 1 }

#define BT_ARRAYS(lay, rect, keyt, ptrt, nm) \
	{ "recs", rect, 0, 0, FLD_ARRAY | FLD_COUNT_FN | FLD_OFFSET_FN, 1, \
	  lay##_rec_count, lay##_arr_off }, \
	{ "keys", keyt, 0, 0, FLD_ARRAY | FLD_COUNT_FN | FLD_OFFSET_FN, 1, \
	  lay##_key_count, lay##_arr_off }, \
	{ "ptrs", ptrt, 0, 0, FLD_ARRAY | FLD_COUNT_FN | FLD_OFFSET_FN, 1, \
	  lay##_key_count, lay##_ptr_off, nm }

/* Free space btrees. */
#define AR(m)	FLD_BO(struct xfs_alloc_rec, ar_##m)
static const struct fld alloc_rec_flds[] = {
	{ "startblock", &ft_agblock, AR(startblock), 1 },
	{ "blockcount", &ft_extlen, AR(blockcount), 1 },
	{ NULL }
};
#undef AR
static const struct ftype ft_allocrec = { .name = "bnobtrec",
	.print = FP_SARRAY, .bits = 64, .sub = alloc_rec_flds };
static const struct ftype ft_agptr = { .name = "bnobtptr",
	.print = FP_NUM, .fmt = "%u", .bits = 32, .arg = FTA_AGREL };

static const struct fld bnobt_flds[] = {
	SBT_HDR("bnobt"),
	BT_ARRAYS(alloc, &ft_allocrec, &ft_allocrec, &ft_agptr, "bnobt"),
	{ NULL }
};
static const struct fld cntbt_flds[] = {
	SBT_HDR("cntbt"),
	BT_ARRAYS(alloc, &ft_allocrec, &ft_allocrec, &ft_agptr, "cntbt"),
	{ NULL }
};
const struct ftype ft_bnobt = { .name = "bnobt", .print = FP_NONE,
	.size_fn = block_size_fn, .sub = bnobt_flds };
const struct ftype ft_cntbt = { .name = "cntbt", .print = FP_NONE,
	.size_fn = block_size_fn, .sub = cntbt_flds };

/* Inode btrees: the record layout depends on the sparse inode feature. */
static int ino_sparse(const struct fld_ctx *c, uint64_t p)
{
	(void)p;
	return c->has_sparse;
}

static int ino_full(const struct fld_ctx *c, uint64_t p)
{
	(void)p;
	return !c->has_sparse;
}

#define IR(m)	FLD_BO(struct xfs_inobt_rec, ir_##m)
static const struct fld inobt_rec_flds[] = {
	{ "startino", &ft_agino, IR(startino), 1 },
	{ "holemask", &ft_uint16x, IR(u.sp.ir_holemask), 0, FLD_COUNT_FN, 0,
	  ino_sparse },
	{ "count", &ft_uint8d, IR(u.sp.ir_count), 0, FLD_COUNT_FN, 0,
	  ino_sparse },
	{ "freecount", &ft_uint8d, IR(u.sp.ir_freecount), 0, FLD_COUNT_FN, 0,
	  ino_sparse },
	{ "freecount", &ft_int32d, IR(u.f.ir_freecount), 0, FLD_COUNT_FN, 0,
	  ino_full },
	{ "free", &ft_uint64x, IR(free), 1 },
	{ NULL }
};
#undef IR
static const struct fld inobt_key_flds[] = {
	{ "startino", &ft_agino, 0, 1 },
	{ NULL }
};
static const struct ftype ft_inorec = { .name = "inobtrec",
	.print = FP_SARRAY, .bits = 128, .sub = inobt_rec_flds };
static const struct ftype ft_inokey = { .name = "inobtkey",
	.print = FP_SARRAY, .bits = 32, .sub = inobt_key_flds };

static const struct fld inobt_flds[] = {
	SBT_HDR("inobt"),
	BT_ARRAYS(ino, &ft_inorec, &ft_inokey, &ft_agptr, "inobt"),
	{ NULL }
};
static const struct fld finobt_flds[] = {
	SBT_HDR("finobt"),
	BT_ARRAYS(ino, &ft_inorec, &ft_inokey, &ft_agptr, "finobt"),
	{ NULL }
};
const struct ftype ft_inobt = { .name = "inobt", .print = FP_NONE,
	.size_fn = block_size_fn, .sub = inobt_flds };
const struct ftype ft_finobt = { .name = "finobt", .print = FP_NONE,
	.size_fn = block_size_fn, .sub = finobt_flds };

/*
 * Reverse mapping btree.  rm_offset holds the attr-fork, bmbt-block and
 * unwritten flags in its top three bits, the file offset in the low 54.
 */
#define RR(m)	FLD_BO(struct xfs_rmap_rec, rm_##m)
#define RK(m)	FLD_BO(struct xfs_rmap_key, rm_##m)
#define RKHI	((uint64_t)sizeof(struct xfs_rmap_key) * 8)
static const struct fld rmap_rec_flds[] = {
	{ "startblock", &ft_agblock, RR(startblock), 1 },
	{ "blockcount", &ft_extlen, RR(blockcount), 1 },
	{ "owner", &ft_int64d, RR(owner), 1 },
	{ "offset", &ft_rfileoff, RR(offset) + 10, 1 },
	{ "extentflag", &ft_uint1, RR(offset) + 2, 1 },
	{ "attrfork", &ft_uint1, RR(offset) + 0, 1 },
	{ "bmbtblock", &ft_uint1, RR(offset) + 1, 1 },
	{ NULL }
};
static const struct fld rmap_key_flds[] = {
	{ "startblock", &ft_agblock, RK(startblock), 1 },
	{ "owner", &ft_int64d, RK(owner), 1 },
	{ "offset", &ft_rfileoff, RK(offset) + 10, 1 },
	{ "attrfork", &ft_uint1, RK(offset) + 0, 1 },
	{ "bmbtblock", &ft_uint1, RK(offset) + 1, 1 },
	{ "startblock_hi", &ft_agblock, RKHI + RK(startblock), 1 },
	{ "owner_hi", &ft_int64d, RKHI + RK(owner), 1 },
	{ "offset_hi", &ft_rfileoff, RKHI + RK(offset) + 10, 1 },
	{ "attrfork_hi", &ft_uint1, RKHI + RK(offset) + 0, 1 },
	{ "bmbtblock_hi", &ft_uint1, RKHI + RK(offset) + 1, 1 },
	{ NULL }
};
#undef RR
#undef RK
static const struct ftype ft_rmaprec = { .name = "rmapbtrec",
	.print = FP_SARRAY, .bits = 192, .sub = rmap_rec_flds };
static const struct ftype ft_rmapkey = { .name = "rmapbtkey",
	.print = FP_SARRAY, .bits = 320, .sub = rmap_key_flds };
static const struct fld rmapbt_flds[] = {
	SBT_HDR("rmapbt"),
	BT_ARRAYS(rmap, &ft_rmaprec, &ft_rmapkey, &ft_agptr, "rmapbt"),
	{ NULL }
};
const struct ftype ft_rmapbt = { .name = "rmapbt", .print = FP_NONE,
	.size_fn = block_size_fn, .sub = rmapbt_flds };

/* Reference count btree: bit 31 of the start block is the CoW domain. */
#define RC(m)	FLD_BO(struct xfs_refcount_rec, rc_##m)
static const struct fld refc_rec_flds[] = {
	{ "startblock", &ft_cagblock, RC(startblock) + 1, 1 },
	{ "blockcount", &ft_extlen, RC(blockcount), 1 },
	{ "refcount", &ft_uint32d, RC(refcount), 1 },
	{ "cowflag", &ft_uint1, RC(startblock), 1 },
	{ NULL }
};
static const struct fld refc_key_flds[] = {
	{ "startblock", &ft_cagblock, 1, 1 },
	{ "cowflag", &ft_uint1, 0, 1 },
	{ NULL }
};
#undef RC
static const struct ftype ft_refcrec = { .name = "refcntbtrec",
	.print = FP_SARRAY, .bits = 96, .sub = refc_rec_flds };
static const struct ftype ft_refckey = { .name = "refcntbtkey",
	.print = FP_SARRAY, .bits = 32, .sub = refc_key_flds };
static const struct fld refcbt_flds[] = {
	SBT_HDR("refcntbt"),
	BT_ARRAYS(refc, &ft_refcrec, &ft_refckey, &ft_agptr, "refcntbt"),
	{ NULL }
};
const struct ftype ft_refcbt = { .name = "refcntbt", .print = FP_NONE,
	.size_fn = block_size_fn, .sub = refcbt_flds };

/*
 * Bmap btree records: 128 bits, the extent flag first, then the 54-bit
 * start offset, the 52-bit start block and the 21-bit count (see
 * struct xfs_bmbt_rec).
 */
static const struct fld bmbt_rec_flds[] = {
	{ "startoff", &ft_cfileoff, 1, 1 },
	{ "startblock", &ft_cfsblock, 1 + XFS_BMBT_STARTOFF_BITS, 1 },
	{ "blockcount", &ft_cextlen,
	  1 + XFS_BMBT_STARTOFF_BITS + XFS_BMBT_STARTBLOCK_BITS, 1 },
	{ "extentflag", &ft_cextflg, 0, 1 },
	{ NULL }
};
static const struct fld bmbt_key_flds[] = {
	{ "startoff", &ft_uint64d, 0, 1 },
	{ NULL }
};
const struct ftype ft_bmbtrec = { .name = "bmapbtdrec",
	.print = FP_SARRAY, .bits = 128, .sub = bmbt_rec_flds };
const struct ftype ft_bmbtkey = { .name = "bmapbtdkey",
	.print = FP_SARRAY, .bits = 64, .sub = bmbt_key_flds };
const struct ftype ft_bmbtptr = { .name = "bmapbtdptr",
	.print = FP_NUM, .fmt = "%llu", .bits = 64 };

#define LBT_HDR(nm) \
	{ "magic", &ft_uint32x, LBT(magic), 1 }, \
	{ "level", &ft_uint16d, LBT(level), 1 }, \
	{ "numrecs", &ft_uint16d, LBT(numrecs), 1 }, \
	{ "leftsib", &ft_dfsbno, LBT(leftsib), 1, .next = nm }, \
	{ "rightsib", &ft_dfsbno, LBT(rightsib), 1, .next = nm }, \
	{ "bno", &ft_dfsbno, LBT(blkno), 1 }, \
	{ "lsn", &ft_uint64x, LBT(lsn), 1 }, \
	{ "uuid", &ft_uuid, LBT(uuid), 1 }, \
	{ "owner", &ft_ino, LBT(owner), 1 }, \
	{ "crc", &ft_crc, LBT(crc), 1 }

static const struct fld bmapbta_flds[] = {
	LBT_HDR("bmapbta"),
	BT_ARRAYS(bmbt, &ft_bmbtrec, &ft_bmbtkey, &ft_bmbtptr, "bmapbta"),
	{ NULL }
};
static const struct fld bmapbtd_flds[] = {
	LBT_HDR("bmapbtd"),
	BT_ARRAYS(bmbt, &ft_bmbtrec, &ft_bmbtkey, &ft_bmbtptr, "bmapbtd"),
	{ NULL }
};
const struct ftype ft_bmapbta = { .name = "bmapbta", .print = FP_NONE,
	.size_fn = block_size_fn, .sub = bmapbta_flds };
const struct ftype ft_bmapbtd = { .name = "bmapbtd", .print = FP_NONE,
	.size_fn = block_size_fn, .sub = bmapbtd_flds };

/* ---- plain data ---- */

const struct ftype ft_data = { .name = "data", .print = FP_HEXBLOB,
	.size_fn = block_size_fn };
const struct ftype ft_text = { .name = "text", .print = FP_HEXBLOB,
	.size_fn = block_size_fn };

/* ---- the object types, in xfs_db's order ---- */

const struct fld_objtype fld_objtypes[] = {
	{ "agf", &ft_agf, XFS_AGF_CRC_OFF, .size = FLD_SZ_SECTOR },
	{ "agfl", &ft_agfl, XFS_AGFL_CRC_OFF, .size = FLD_SZ_SECTOR },
	{ "agi", &ft_agi, XFS_AGI_CRC_OFF, .size = FLD_SZ_SECTOR },
	{ "attr3", &ft_attr3, FLD_NO_CRC, .size = FLD_SZ_BLOCK },
	{ "bmapbta", &ft_bmapbta, XFS_BTREE_LBLOCK_CRC_OFF, .size = FLD_SZ_BLOCK },
	{ "bmapbtd", &ft_bmapbtd, XFS_BTREE_LBLOCK_CRC_OFF, .size = FLD_SZ_BLOCK },
	{ "bnobt", &ft_bnobt, XFS_BTREE_SBLOCK_CRC_OFF, .size = FLD_SZ_BLOCK },
	{ "cntbt", &ft_cntbt, XFS_BTREE_SBLOCK_CRC_OFF, .size = FLD_SZ_BLOCK },
	{ "rmapbt", &ft_rmapbt, XFS_BTREE_SBLOCK_CRC_OFF, .size = FLD_SZ_BLOCK },
	{ "refcntbt", &ft_refcbt, XFS_BTREE_SBLOCK_CRC_OFF, .size = FLD_SZ_BLOCK },
	{ "data", &ft_data, FLD_NO_CRC, .size = FLD_SZ_BB },
	{ "dir3", &ft_dir3, FLD_NO_CRC, .size = FLD_SZ_DIRBLK },
	{ "dqblk", &ft_dqblk, offsetof(struct xfs_dqblk, dd_crc),
	  sizeof(struct xfs_dqblk), sizeof(struct xfs_dqblk), FLD_SZ_BB },
	{ "inobt", &ft_inobt, XFS_BTREE_SBLOCK_CRC_OFF, .size = FLD_SZ_BLOCK },
	{ "inodata", &ft_inodata, FLD_NO_CRC, .size = FLD_SZ_BB },
	{ "inode", &ft_inode, XFS_DINODE_CRC_OFF, .size = FLD_SZ_INODE },
	{ "log", &ft_data, FLD_NO_CRC, .size = FLD_SZ_BB },
	{ "rtbitmap", &ft_data, FLD_NO_CRC, .size = FLD_SZ_BB },
	{ "rtsummary", &ft_data, FLD_NO_CRC, .size = FLD_SZ_BB },
	{ "sb", &ft_sb, XFS_SB_CRC_OFF, .size = FLD_SZ_SECTOR },
	{ "symlink", &ft_symlink, XFS_SYMLINK_CRC_OFF, .size = FLD_SZ_BLOCK },
	{ "text", &ft_text, FLD_NO_CRC, .size = FLD_SZ_BB },
	{ "finobt", &ft_finobt, XFS_BTREE_SBLOCK_CRC_OFF, .size = FLD_SZ_BLOCK },
};
const unsigned fld_nobjtypes = sizeof(fld_objtypes) / sizeof(fld_objtypes[0]);

const struct fld_objtype *fld_objtype_find(const char *name)
{
	unsigned i;

	for (i = 0; i < fld_nobjtypes; i++)
		if (!strcmp(fld_objtypes[i].name, name))
			return &fld_objtypes[i];
	return NULL;
}

const char *fld_dinode_fmt_name(unsigned fmt)
{
	static const char *const names[] = {
		"dev", "local", "extents", "btree", "uuid", "rmap"
	};

	return fmt < sizeof(names) / sizeof(names[0]) ? names[fmt] : NULL;
}
