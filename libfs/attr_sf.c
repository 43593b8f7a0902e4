/*
 * Short-form attributes (extended_attributes.asciidoc "Short Form
 * Attributes"): a struct xfs_attr_sf_hdr then count entries of
 * namelen, valuelen, flags, name, value, packed without alignment, in the
 * inode's attribute fork.
 *
 * In:  the fork's bytes (from the decoded inode) and their number.
 * Out: findings; each usable entry handed to the callback, in fork order.
 * The entries are parsed against the fork's size, not against totsize,
 * so that a wrong totsize is reported as exactly that; nothing past the
 * fork is ever read.
 */
#include "config.h"
#include <string.h>
#include "attr_int.h"

static const struct attr_fields sf_fields = {
	.namelen = "a.sfattr.list.namelen",
	.name = "a.sfattr.list.name",
	.flags = "a.sfattr.list.flags",
};

int attr_sf_check(const struct fs_geom *g, xfs_ino_t ino, const uint8_t *fork,
		  uint32_t forksize, attr_fn fn, void *priv,
		  struct fs_findings *fl, unsigned *nerr)
{
	const struct xfs_attr_sf_hdr *h = (const void *)fork;
	struct fs_objref o = attr_obj(ino, (xfs_daddr_t)-1, (uint64_t)-1);
	/* offsets of the usable entries seen so far, for duplicate names */
	uint16_t seen[256];
	unsigned nseen = 0, n = 0, count, totsize, i;
	uint32_t off;
	bool complete = true;
	int ret = 0;

	(void)g;
	if (forksize < sizeof(*h)) {
		fs_report_val(fl, PR_ATTR_SF_PAST_FORK, &o, "a.sfattr.hdr",
			      sizeof(*h), forksize);
		n++;
		goto out;
	}
	totsize = get_be16(h->totsize);
	count = h->count;
	if (totsize > forksize) {
		fs_report_val(fl, PR_ATTR_SF_TOTSIZE_PAST_FORK, &o,
			      "a.sfattr.hdr.totsize", forksize, totsize);
		n++;
	}

	off = sizeof(*h);
	for (i = 0; i < count; i++) {
		const uint8_t *e = fork + off;
		struct attr_rec r;
		bool usable;
		unsigned k;

		o.index = i;
		if (off + 3 > forksize) {
			/* not even the entry's header fits */
			fs_report_val(fl, PR_ATTR_SF_PAST_FORK, &o,
				      "a.sfattr.hdr.count", i, count);
			n++;
			complete = false;
			break;
		}
		if (off + 3 + e[0] + e[1] > forksize) {
			/* expected: the bytes left; found: the entry's size */
			fs_report_val(fl, PR_ATTR_SF_PAST_FORK, &o,
				      "a.sfattr.list.namelen", forksize - off,
				      3u + e[0] + e[1]);
			n++;
			complete = false;
			break;
		}
		memset(&r, 0, sizeof(r));
		r.namelen = e[0];
		r.valuelen = e[1];
		r.flags = e[2];
		r.name = e + 3;
		r.value = e + 3 + r.namelen;
		r.index = i;
		r.hash = da_hashname(r.name, r.namelen);
		off += 3 + r.namelen + r.valuelen;

		n += attr_check_entry(&o, r.flags, r.name, r.namelen,
				      &sf_fields, fl, &usable);
		if (!usable)
			continue;
		for (k = 0; k < nseen; k++) {
			const uint8_t *p = fork + seen[k];

			if (attr_same_name(p[2], p + 3, p[0],
					   r.flags, r.name, r.namelen)) {
				fs_report(fl, PR_ATTR_DUP_NAME, &o,
					  sf_fields.name);
				n++;
				usable = false;
				break;
			}
		}
		if (!usable)
			continue;
		n += attr_acl_check(&r, &o, fl);
		seen[nseen++] = (uint16_t)(e - fork);
		if (fn)
			ret = fn(priv, &r);
		if (ret)
			break;
	}
	/* A walk stopped by the callback says nothing about totsize. */
	if (complete && !ret && off != totsize) {
		o.index = (uint64_t)-1;
		fs_report_val(fl, PR_ATTR_SF_BAD_TOTSIZE, &o,
			      "a.sfattr.hdr.totsize", off, totsize);
		n++;
	}
out:
	if (nerr)
		*nerr = n;
	return ret;
}
