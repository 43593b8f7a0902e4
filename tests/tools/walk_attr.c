/*
 * walkfs: attributes.  walk_attrs() verifies an inode's attribute fork
 * through attr_iterate() (every form: short form, leaf, node, remote
 * values) with its findings going to the walk's list, and hands each
 * usable attribute, value assembled, to the caller: namespace flags
 * (0 for user, XFS_ATTR_ROOT, XFS_ATTR_SECURE), name and value.
 */
#include "config.h"
#include "attr.h"
#include "walkfs.h"

struct walk_attr_cb {
	walk_attr_fn	fn;
	void		*priv;
};

static int one_attr(void *priv, const struct attr_rec *r)
{
	struct walk_attr_cb *cb = priv;

	if (!cb->fn)
		return 0;
	return cb->fn(cb->priv, attr_rec_ns(r), r->name, r->namelen,
		      r->value, r->valuelen);
}

int walk_attrs(struct walk_ctx *w, const struct fs_inode *ip,
	       const struct fs_extents *ael, walk_attr_fn fn, void *priv)
{
	struct walk_attr_cb cb = { .fn = fn, .priv = priv };

	if (!inode_has_attr_fork(ip))
		return 0;
	return attr_iterate(w->fs, ip, ael, one_attr, &cb, w->fl);
}
