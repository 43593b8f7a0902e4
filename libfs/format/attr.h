/*
 * Extended attributes, version 3 (extended_attributes.asciidoc).
 *
 * Short form lives in the attribute fork of the inode.  Otherwise the
 * attribute fork maps leaf blocks (entries sorted by name hash, names and
 * small values packed at the end of the block), a dabtree of node blocks
 * over them when there is more than one leaf, and remote value blocks for
 * values that do not fit a leaf.
 */
#ifndef XK_FORMAT_ATTR_H
#define XK_FORMAT_ATTR_H

#include "types.h"
#include "dir.h"

#define XFS_ATTR3_LEAF_MAGIC	0x3bee
#define XFS_ATTR_LEAF_MAGIC	0xfbee		/* v4, refused */
#define XFS_ATTR3_RMT_MAGIC	0x5841524d	/* "XARM" */

/* Entry flags (both short form and leaf). */
#define XFS_ATTR_LOCAL		(1u << 0)	/* value stored in the leaf */
#define XFS_ATTR_ROOT		(1u << 1)	/* trusted.* namespace */
#define XFS_ATTR_SECURE		(1u << 2)	/* security.* namespace */
#define XFS_ATTR_INCOMPLETE	(1u << 7)	/* being created or removed */
#define XFS_ATTR_NSP_ONDISK_MASK (XFS_ATTR_ROOT | XFS_ATTR_SECURE)

/* Short form: header then entries, no alignment. */
struct xfs_attr_sf_hdr {
	be16		totsize;	/* bytes in use, header included */
	uint8_t		count;
	uint8_t		padding;
};

struct xfs_attr_sf_entry {
	uint8_t		namelen;
	uint8_t		valuelen;
	uint8_t		flags;
	uint8_t		nameval[];	/* name then value */
};

#define XFS_ATTR_SF_ENTSIZE(nl, vl)	(3 + (nl) + (vl))

struct xfs_attr_leaf_map {
	be16		base;
	be16		size;
};

#define XFS_ATTR_LEAF_MAPSIZE	3

struct xfs_attr3_leaf_hdr {
	struct xfs_da3_blkinfo	info;
	be16			count;
	be16			usedbytes;
	be16			firstused;	/* 0 means "block size" (64k) */
	uint8_t			holes;
	uint8_t			pad1;
	struct xfs_attr_leaf_map freemap[XFS_ATTR_LEAF_MAPSIZE];
	be32			pad2;
};
_Static_assert(sizeof(struct xfs_attr3_leaf_hdr) == 80, "attr3 leaf hdr");

#define XFS_ATTR3_LEAF_NULLOFF	0

struct xfs_attr_leaf_entry {
	be32		hashval;
	be16		nameidx;	/* offset of the name/value in block */
	uint8_t		flags;
	uint8_t		pad2;
};

/* Name/value of a local entry: be16 valuelen, u8 namelen, name, value. */
struct xfs_attr_leaf_name_local {
	be16		valuelen;
	uint8_t		namelen;
	uint8_t		nameval[];
};

/* Name of a remote entry: where the value lives. */
struct xfs_attr_leaf_name_remote {
	be32		valueblk;	/* dablk of the first value block */
	be32		valuelen;
	uint8_t		namelen;
	uint8_t		name[];
};

#define XFS_ATTR_LEAF_NAME_LOCAL_SIZE(nl, vl) \
	((3 + (nl) + (vl) + 3) & ~3u)		/* rounded to 4 */
/*
 * A remote entry is sized as if its header were 11 bytes (the 9 real
 * ones plus the structure's tail padding, less the one-byte name
 * placeholder of the original layout): a 1-byte name takes 12 bytes, a
 * 2-byte name 16.  Measured on kernel-made leaves.
 */
#define XFS_ATTR_LEAF_NAME_REMOTE_SIZE(nl) \
	((11 + (nl) + 3) & ~3u)

/* Remote value block header; every block of a remote value has one. */
struct xfs_attr3_rmt_hdr {
	be32		rm_magic;
	be32		rm_offset;	/* byte offset of this piece in value */
	be32		rm_bytes;	/* value bytes in this block */
	le32		rm_crc;
	xfs_uuid_t	rm_uuid;
	be64		rm_owner;
	be64		rm_blkno;
	be64		rm_lsn;
};

#define XFS_ATTR3_RMT_CRC_OFF	offsetof(struct xfs_attr3_rmt_hdr, rm_crc)
_Static_assert(sizeof(struct xfs_attr3_rmt_hdr) == 56, "attr3 rmt hdr");

#define XFS_XATTR_SIZE_MAX	(1u << 16)
#define XFS_XATTR_NAME_MAX	255

/*
 * POSIX ACLs are attributes of the trusted (XFS_ATTR_ROOT) namespace
 * named SGI_ACL_FILE (access) and SGI_ACL_DEFAULT (directories' default),
 * whose value is a be32 entry count and that many 12-byte entries.
 */
#define XFS_ACL_FILE_NAME	"SGI_ACL_FILE"
#define XFS_ACL_DEFAULT_NAME	"SGI_ACL_DEFAULT"

struct xfs_acl_entry {
	be32		ae_tag;		/* XFS_ACL_USER_OBJ, ... */
	be32		ae_id;		/* uid or gid for USER and GROUP */
	be16		ae_perm;	/* rwx bits: 4, 2, 1 */
	be16		ae_pad;
};
_Static_assert(sizeof(struct xfs_acl_entry) == 12, "xfs acl entry");

struct xfs_acl {
	be32			acl_cnt;
	struct xfs_acl_entry	acl_entry[];
};

#define XFS_ACL_USER_OBJ	0x01
#define XFS_ACL_USER		0x02
#define XFS_ACL_GROUP_OBJ	0x04
#define XFS_ACL_GROUP		0x08
#define XFS_ACL_MASK		0x10
#define XFS_ACL_OTHER		0x20
#define XFS_ACL_PERM_MASK	0x7
/* v5: as many entries as a value can hold */
#define XFS_ACL_MAX_ENTRIES \
	((XFS_XATTR_SIZE_MAX - sizeof(struct xfs_acl)) / \
	 sizeof(struct xfs_acl_entry))

#endif
