/*
 * The checks every attribute entry gets, short form or leaf: a name of at
 * least one byte with no NUL in it (the kernel refuses such names, and no
 * interface could ask for one), flags the format knows, at most one
 * namespace bit, and no INCOMPLETE flag.  An INCOMPLETE entry is the
 * trace of an interrupted set or remove; the kernel never shows it, so
 * neither do we.
 *
 * POSIX ACLs (trusted SGI_ACL_FILE / SGI_ACL_DEFAULT) also get their
 * value checked, as repair must: the length matches the entry count, the
 * count is within what a value holds, every tag is known and every
 * permission is rwx bits, the owner, owning group and other entries
 * appear exactly once, a named user or group appears once, and a mask
 * exists when named entries do.  The kernel refuses to load an ACL with
 * a bad length, count or tag.
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

bool attr_is_acl(unsigned flags, const uint8_t *name, unsigned namelen)
{
	if ((flags & XFS_ATTR_NSP_ONDISK_MASK) != XFS_ATTR_ROOT)
		return false;
	return (namelen == sizeof(XFS_ACL_FILE_NAME) - 1 &&
		!memcmp(name, XFS_ACL_FILE_NAME, namelen)) ||
	       (namelen == sizeof(XFS_ACL_DEFAULT_NAME) - 1 &&
		!memcmp(name, XFS_ACL_DEFAULT_NAME, namelen));
}

unsigned attr_acl_check(const struct attr_rec *r, const struct fs_objref *o,
			struct fs_findings *fl)
{
	const struct xfs_acl_entry *e;
	unsigned user_obj = 0, group_obj = 0, other = 0, mask = 0, named = 0;
	uint32_t cnt;

	if (!attr_is_acl(r->flags, r->name, r->namelen) || !r->value)
		return 0;
	if (r->valuelen < sizeof(struct xfs_acl)) {
		fs_report_found(fl, PR_ATTR_BAD_ACL, o, "acl.size",
				r->valuelen);
		return 1;
	}
	cnt = load_be32(r->value);
	if (cnt > XFS_ACL_MAX_ENTRIES ||
	    r->valuelen != sizeof(struct xfs_acl) +
			   cnt * sizeof(struct xfs_acl_entry)) {
		fs_report_val(fl, PR_ATTR_BAD_ACL, o, "acl.acl_cnt",
			      (r->valuelen - sizeof(struct xfs_acl)) /
			      sizeof(struct xfs_acl_entry), cnt);
		return 1;
	}
	e = (const struct xfs_acl_entry *)(r->value + sizeof(struct xfs_acl));
	for (uint32_t i = 0; i < cnt; i++) {
		uint32_t tag = get_be32(e[i].ae_tag);
		unsigned *seen = NULL;

		if (get_be16(e[i].ae_perm) & ~XFS_ACL_PERM_MASK) {
			fs_report_found(fl, PR_ATTR_BAD_ACL, o, "acl.ae_perm",
					get_be16(e[i].ae_perm));
			return 1;
		}
		switch (tag) {
		case XFS_ACL_USER_OBJ:
			seen = &user_obj;
			break;
		case XFS_ACL_GROUP_OBJ:
			seen = &group_obj;
			break;
		case XFS_ACL_OTHER:
			seen = &other;
			break;
		case XFS_ACL_MASK:
			seen = &mask;
			break;
		case XFS_ACL_USER:
		case XFS_ACL_GROUP:
			named++;
			for (uint32_t j = i + 1; j < cnt; j++)
				if (get_be32(e[j].ae_tag) == tag &&
				    get_be32(e[j].ae_id) == get_be32(e[i].ae_id)) {
					fs_report_found(fl, PR_ATTR_BAD_ACL, o,
							"acl.ae_id",
							get_be32(e[i].ae_id));
					return 1;
				}
			break;
		default:
			fs_report_found(fl, PR_ATTR_BAD_ACL, o, "acl.ae_tag",
					tag);
			return 1;
		}
		if (seen && (*seen)++) {
			fs_report_found(fl, PR_ATTR_BAD_ACL, o, "acl.ae_tag",
					tag);
			return 1;
		}
	}
	if (!user_obj || !group_obj || !other || (named && !mask)) {
		fs_report(fl, PR_ATTR_BAD_ACL, o, "acl.ae_tag");
		return 1;
	}
	return 0;
}
