/*
 * Field tables: the xfs_db-facing description of every on-disk structure.
 *
 * The C structs in format/ (one header per area) are the one declaration of each layout; the
 * tables here name their fields the way xfs_db does and place them by
 * offsetof() on those structs, never by hand-typed numbers.  One table
 * serves printing, writing and fuzzing (db/), and field-level checks.
 *
 * Model.  An object (a block, a sector, an inode) is a bit string; bit 0 is
 * the most significant bit of byte 0, so a big-endian integer, a bitfield
 * inside one (bmbt records, inode flag bits) and a single flag bit are all
 * "width bits starting at bit off".  A field is
 *   - a name,
 *   - a field type (struct ftype): how one element prints and how big it
 *     is; a struct type has a sub-table of fields instead,
 *   - where it is (a bit offset from its parent's start, or a function for
 *     variable layouts such as directory entries),
 *   - how many elements it has (fixed, or a function: btree records sized
 *     by numrecs, names sized by namelen, ...), and whether it is an array.
 * Variable-length parts are described by per-type functions that read the
 * object through struct fld_ctx; every such function bounds what it reads
 * by the object's length, so damaged objects still describe safely.
 */
#ifndef XK_FIELDS_H
#define XK_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What the field functions may know about the object and the filesystem. */
struct fld_ctx {
	const uint8_t	*data;
	uint32_t	len;		/* bytes of data */
	uint32_t	blocksize;	/* filesystem block size */
	uint32_t	dirblksize;	/* directory block size */
	uint32_t	inodesize;
	bool		has_ftype;
	bool		has_sparse;	/* sparse inode records */
	bool		has_nrext64;
	bool		bigtime_fs;
};

/* How one element of a field type prints. */
enum fld_print {
	FP_NONE,	/* a struct: expanded into its sub-fields */
	FP_NUM,		/* a number, with fmt */
	FP_SARRAY,	/* a struct printed compactly: [a,b] i:[1,2] */
	FP_CRC,		/* a checksum: 0x... (correct)/(bad) */
	FP_UUID,
	FP_CHARNS,	/* a byte string, quoted, octal escapes */
	FP_DINODE_FMT,	/* fork format number and name */
	FP_TIME,	/* seconds of a timestamp, as a date */
	FP_NSEC,	/* nanoseconds of a timestamp */
	FP_QTIMER,	/* quota timer: a date, a grace period for id 0 */
	FP_EMPTY,	/* nothing to print: "(empty)" */
	FP_HEXBLOB,	/* raw bytes as hex words (data, text) */
};

/* Print and value flags of a field type (xfs_db's conventions). */
#define FTA_DONULL	(1u << 0)	/* all-ones prints as "null" */
#define FTA_SKIPZERO	(1u << 1)	/* array elements equal to 0 are skipped */
#define FTA_SKIPNULL	(1u << 2)	/* array elements all-ones are skipped */
#define FTA_SIGNED	(1u << 3)
#define FTA_OKEMPTY	(1u << 4)	/* may have no sub-fields at all */
#define FTA_AGREL	(1u << 5)	/* an AG-relative block or inode number */

struct fld;
struct ftype;

/* Element count of a field, given the bit offset of its parent. */
typedef int (*fld_count_fn)(const struct fld_ctx *c, uint64_t pbit);
/* Bit offset (from the parent start) of element idx. */
typedef uint64_t (*fld_offset_fn)(const struct fld_ctx *c, uint64_t pbit,
				  int idx);
/* Size in bits of the element starting at bit. */
typedef uint64_t (*fld_size_fn)(const struct fld_ctx *c, uint64_t bit);

struct ftype {
	const char		*name;
	enum fld_print		print;
	const char		*fmt;		/* printf format, FP_NUM */
	uint32_t		bits;		/* size of one element; 0: size_fn */
	unsigned		arg;		/* FTA_* */
	fld_size_fn		size_fn;
	const struct fld	*sub;		/* struct types: NULL-terminated */
	const char		*next;		/* type "addr" moves to, or NULL */
};

#define FLD_ARRAY	(1u << 0)	/* print with [low-high] */
#define FLD_OFFSET_FN	(1u << 1)	/* offset comes from off_fn */
#define FLD_COUNT_FN	(1u << 2)	/* count comes from count_fn */

struct fld {
	const char		*name;
	const struct ftype	*type;
	uint64_t		off;		/* bits, from the parent start */
	int			count;		/* fixed element count */
	unsigned		flags;
	int			base;		/* first array index (0 or 1) */
	fld_count_fn		count_fn;
	fld_offset_fn		off_fn;
	const char		*next;		/* overrides type->next */
};

/* Bit offset of a struct member. */
#define FLD_BO(type, member)	((uint64_t)offsetof(type, member) * 8)
#define FLD_BSZ(type, member)	((uint64_t)sizeof(((type *)0)->member) * 8)

/* Number of elements a field has in this object (0: absent). */
int fld_count(const struct fld_ctx *c, const struct fld *f, uint64_t pbit);
/*
 * The count as the count function gave it: negative for an on-disk
 * counter that reads as a negative int (the reference's print then says
 * "no elements"); fld_count() makes that 0.
 */
int fld_count_raw(const struct fld_ctx *c, const struct fld *f,
		  uint64_t pbit);
/* Bit offset (absolute) of element idx of a field whose parent starts at pbit. */
uint64_t fld_elem_bit(const struct fld_ctx *c, const struct fld *f,
		      uint64_t pbit, int idx);
/* Size in bits of element idx. */
uint64_t fld_elem_size(const struct fld_ctx *c, const struct fld *f,
		       uint64_t pbit, int idx);
uint64_t ftype_size(const struct fld_ctx *c, const struct ftype *t,
		    uint64_t bit);

/* Find a sub-field by name in a NULL-terminated table. */
const struct fld *fld_find(const struct fld *tab, const char *name);

/*
 * Bits as numbers.  Reads past the end of the object read zeroes; writes
 * past it are dropped (a damaged count must not write outside the buffer).
 */
uint64_t bits_get(const uint8_t *data, uint32_t len, uint64_t bit,
		  unsigned nbits);
int64_t bits_get_signed(const uint8_t *data, uint32_t len, uint64_t bit,
			unsigned nbits);
void bits_set(uint8_t *data, uint32_t len, uint64_t bit, unsigned nbits,
	      uint64_t val);

/*
 * The object types xfs_db knows, with their top-level tables.  crc_off is
 * the byte offset of the one CRC of the object (or FLD_NO_CRC); objects
 * whose CRC covers a part (dquot records) say so with crc_len.
 */
#define FLD_NO_CRC	((uint32_t)-1)

/* The size an object of a type has when "type" switches to it. */
enum fld_objsize {
	FLD_SZ_BB,		/* one 512-byte sector (raw data types) */
	FLD_SZ_SECTOR,		/* one filesystem sector (sb, AG headers) */
	FLD_SZ_BLOCK,		/* one filesystem block */
	FLD_SZ_DIRBLK,		/* one directory block */
	FLD_SZ_INODE,		/* one inode, in its cluster */
};

struct fld_objtype {
	const char		*name;		/* "sb", "bnobt", ... */
	const struct ftype	*type;		/* top-level struct type */
	uint32_t		crc_off;
	uint32_t		crc_len;	/* 0: the whole object */
	uint32_t		crc_stride;	/* dquot: one CRC per record */
	enum fld_objsize	size;
};

const struct fld_objtype *fld_objtype_find(const char *name);
/* Byte offset of an object's CRC (dir3/attr3: by the block's magic). */
uint32_t fld_obj_crc_off(const struct fld_objtype *t, const struct fld_ctx *c);
/* In the order xfs_db lists them. */
extern const struct fld_objtype fld_objtypes[];
extern const unsigned fld_nobjtypes;

/* Field types used by db for special objects. */
extern const struct ftype ft_sb, ft_agf, ft_agi, ft_agfl, ft_inode,
	ft_bnobt, ft_cntbt, ft_inobt, ft_finobt, ft_rmapbt, ft_refcbt,
	ft_bmapbta, ft_bmapbtd, ft_dir3, ft_attr3, ft_symlink, ft_dqblk,
	ft_text, ft_data, ft_inodata;

/*
 * Which directory / attribute block a dir3 or attr3 buffer holds, read
 * from its magic: the tables choose their fields from it.
 */
enum fld_dirblk {
	FLD_DIR_UNKNOWN, FLD_DIR_BLOCK, FLD_DIR_DATA, FLD_DIR_LEAF1,
	FLD_DIR_LEAFN, FLD_DIR_NODE, FLD_DIR_FREE,
};
enum fld_dirblk fld_dir3_kind(const struct fld_ctx *c);

/* The file type names xfs_db prints in sf dirs are numbers; dinode formats: */
const char *fld_dinode_fmt_name(unsigned fmt);

#endif
