/*
 * The checks every attribute entry gets, short form or leaf: a name of at
 * least one byte with no NUL in it (the kernel refuses such names, and no
 * interface could ask for one), flags the format knows, at most one
 * namespace bit, and no INCOMPLETE flag.  An INCOMPLETE entry is the
 * trace of an interrupted set or remove; the kernel never shows it, so
 * neither do we.
 */
#include "config.h"
#include <string.h>
#include "attr_int.h"

const char *attr_ns_name(unsigned ns)
{
	switch (ns & XFS_ATTR_NSP_ONDISK_MASK) {
	case 0:
		return "user";
	case XFS_ATTR_ROOT:
		return "trusted";
	case XFS_ATTR_SECURE:
		return "security";
	default:
		return "unknown";
	}
}

unsigned attr_check_entry(const struct fs_objref *o, uint8_t flags,
			  const uint8_t *name, unsigned namelen,
			  const struct attr_fields *fld,
			  struct fs_findings *fl, bool *usable)
{
	unsigned n = 0;

	*usable = true;
	if (namelen == 0) {
		fs_report_found(fl, PR_ATTR_BAD_NAMELEN, o, fld->namelen, 0);
		*usable = false;
		n++;
	} else if (memchr(name, 0, namelen)) {
		fs_report(fl, PR_ATTR_BAD_NAME, o, fld->name);
		n++;
	}
	if (flags & ~ATTR_KNOWN_FLAGS) {
		fs_report_found(fl, PR_ATTR_BAD_FLAGS, o, fld->flags, flags);
		n++;
	}
	if ((flags & XFS_ATTR_NSP_ONDISK_MASK) == XFS_ATTR_NSP_ONDISK_MASK) {
		fs_report_found(fl, PR_ATTR_BAD_NAMESPACE, o, fld->flags,
				flags);
		n++;
	}
	if (flags & XFS_ATTR_INCOMPLETE) {
		fs_report_found(fl, PR_ATTR_INCOMPLETE, o, fld->flags, flags);
		*usable = false;
		n++;
	}
	return n;
}
