/*
 * attr*.c internals: the entry checks every form shares, and where
 * findings point.
 */
#ifndef XK_ATTR_INT_H
#define XK_ATTR_INT_H

#include "attr.h"

#define ATTR_KNOWN_FLAGS	(XFS_ATTR_LOCAL | XFS_ATTR_ROOT | \
				 XFS_ATTR_SECURE | XFS_ATTR_INCOMPLETE)

/* Where a finding about an entry or a block of inode ino is. */
static inline struct fs_objref attr_obj(xfs_ino_t ino, xfs_daddr_t daddr,
					uint64_t index)
{
	struct fs_objref o = OBJREF_INIT(OBJ_ATTR);

	o.ino = ino;
	o.daddr = daddr;
	o.index = index;
	return o;
}

/* The xfs_db names of an entry's fields, for findings. */
struct attr_fields {
	const char	*namelen;
	const char	*name;
	const char	*flags;
};

/*
 * The checks of one entry that do not depend on its form: name length,
 * NUL bytes in the name, flags, namespace, INCOMPLETE.  Returns the
 * number of findings added; *usable is false when the entry must not be
 * handed out.
 */
unsigned attr_check_entry(const struct fs_objref *o, uint8_t flags,
			  const uint8_t *name, unsigned namelen,
			  const struct attr_fields *fld,
			  struct fs_findings *fl, bool *usable);

/* Do two entries name the same attribute (namespace and name)? */
static inline bool attr_same_name(uint8_t f1, const uint8_t *n1, unsigned l1,
				  uint8_t f2, const uint8_t *n2, unsigned l2)
{
	return (f1 & XFS_ATTR_NSP_ONDISK_MASK) ==
	       (f2 & XFS_ATTR_NSP_ONDISK_MASK) &&
	       l1 == l2 && !memcmp(n1, n2, l1);
}

#endif
