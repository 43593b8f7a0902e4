/*
 * Symbolic links (symbolic_links.asciidoc): the target lives in the data
 * fork (local format) or in remote blocks, each fs block starting with an
 * XSLM header that says which bytes of the target it holds.
 */
#ifndef XK_SYMLINK_H
#define XK_SYMLINK_H

#include "bmap.h"

/*
 * Read and check a symlink's target into buf (at least
 * XFS_SYMLINK_MAXLEN + 1 bytes; NUL-terminated on success).  Returns the
 * target length, or a negative errno; findings for a damaged link.
 */
int symlink_read(struct fs *fs, const struct fs_inode *ip,
		 const struct fs_extents *el, char *buf, struct fs_findings *fl);

extern const struct buf_ops symlink_buf_ops;

#endif
