/*
 * walkfs internals: the walker is split by area so each part has one
 * owner (walk_ag.c: AG headers and btrees, walk_inodes.c: inodes and the
 * namespace, walk_dir.c: directory contents, walk_attr.c: attributes,
 * walk_log.c: the journal).  Every part verifies through libfs and adds
 * findings to w->fl; the listing is assembled by walk_inodes.c.
 */
#ifndef WALKFS_H
#define WALKFS_H

#include "fs.h"
#include "inode.h"
#include "bmap.h"

struct walk_ctx {
	struct fs		*fs;
	struct fs_findings	*fl;
	bool			listing;	/* -l */
	bool			verbose;	/* -v */
	FILE			*out;
	/* counts for the summary line */
	uint64_t		ninodes, ndirs, nfiles, nblocks_btree;
};

/* One directory entry; return non-zero to stop. */
typedef int (*walk_dirent_fn)(void *priv, const uint8_t *name,
			      unsigned namelen, xfs_ino_t ino, unsigned ftype);
/* One attribute; flags are XFS_ATTR_ROOT / XFS_ATTR_SECURE (0: user). */
typedef int (*walk_attr_fn)(void *priv, unsigned flags, const uint8_t *name,
			    unsigned namelen, const uint8_t *value,
			    uint32_t valuelen);
/* One allocated inode found in the inode btrees. */
typedef int (*walk_inode_fn)(void *priv, xfs_ino_t ino);

/* walk_ag.c: superblocks, AGF/AGI/AGFL and every AG btree, all AGs. */
void walk_ag_all(struct walk_ctx *w);
/* walk_ag.c: each allocated inode of an AG, from its inobt. */
int walk_ag_inodes(struct walk_ctx *w, xfs_agnumber_t agno,
		   walk_inode_fn fn, void *priv);
/* walk_log.c: the journal's head, tail and state. */
void walk_log(struct walk_ctx *w);
/* walk_inodes.c: every inode, the namespace from the root, the listing. */
void walk_inodes(struct walk_ctx *w);
/* walk_dir.c: verify a directory and report its entries ("." and ".." too). */
int walk_dir(struct walk_ctx *w, const struct fs_inode *ip,
	     const struct fs_extents *el, walk_dirent_fn fn, void *priv);
/* walk_attr.c: verify an attribute fork and report its attributes. */
int walk_attrs(struct walk_ctx *w, const struct fs_inode *ip,
	       const struct fs_extents *ael, walk_attr_fn fn, void *priv);

#endif
