/*
 * Block-form directories (directories.asciidoc "Block Directories"): one
 * directory block holding the data entries, then the leaf array, then
 * the tail (count, stale) in the last 8 bytes.  The data part is checked
 * by dir3_data_check; here the tail and the leaf array, and the match
 * between the leaf entries and the entries, all within the one block.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include "dir2_priv.h"

struct blk_ent {
	uint32_t	offset;
	xfs_dahash_t	hash;
	unsigned	refs;
};

struct blk_scan {
	struct blk_ent	*v;
	size_t		n, cap;
	dir_dent_fn	fn;
	void		*priv;
};

static int blk_collect(void *priv, const struct dir_blk *b,
		       const struct dir_dent *e)
{
	struct blk_scan *s = priv;

	if (s->n < s->cap)
		s->v[s->n++] = (struct blk_ent){ e->offset, e->hash, 0 };
	return s->fn ? s->fn(s->priv, b, e) : 0;
}

static struct blk_ent *blk_find(struct blk_scan *s, uint32_t off)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->v[mid].offset == off)
			return &s->v[mid];
		if (s->v[mid].offset < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int dir3_block_check(const struct dir_blk *b, dir_dent_fn fn, void *priv,
		     struct fs_findings *fl, struct dir_data_info *info)
{
	uint32_t len = b->g->dirblksize;
	const struct xfs_dir2_block_tail *bt =
		(const void *)(b->data + len - sizeof(*bt));
	const struct xfs_dir2_leaf_entry *ents;
	struct dir_data_info local;
	struct blk_scan s = { .fn = fn, .priv = priv };
	uint32_t count, stale, nstale = 0;
	int ret;

	if (!info)
		info = &local;
	/* every entry takes at least 16 bytes */
	s.cap = len / 16;
	s.v = malloc(s.cap * sizeof(*s.v));
	if (!s.v)
		return -ENOMEM;
	ret = dir3_data_check(b, true, blk_collect, &s, fl, info);
	if (ret || !info->magic_ok)
		goto out;
	count = get_be32(bt->count);
	stale = get_be32(bt->stale);
	if (!info->end)
		goto out;	/* count already reported; no leaf to look at */
	ents = (const void *)(b->data + info->end);
	for (uint32_t i = 0; i < count; i++) {
		struct fs_objref o = dir_blk_obj(b, info->end + i * sizeof(*ents));
		xfs_dahash_t h = get_be32(ents[i].hashval);
		uint32_t addr = get_be32(ents[i].address);
		uint64_t byte = (uint64_t)addr << XFS_DIR2_DATA_ALIGN_LOG;
		struct blk_ent *e;

		if (i && h < get_be32(ents[i - 1].hashval)) {
			fs_report_val(fl, PR_DIR_LEAF_HASH_ORDER, &o, "hashval",
				      get_be32(ents[i - 1].hashval), h);
			info->nerr++;
		}
		if (addr == XFS_DIR2_NULL_DATAPTR) {
			nstale++;
			continue;
		}
		if (byte >= info->scanned && byte < info->end)
			continue;	/* past where the scan was lost */
		e = byte < len ? blk_find(&s, (uint32_t)byte) : NULL;
		if (!e) {
			fs_report_found(fl, PR_DIR_LEAF_BAD_ADDR, &o, "address",
					addr);
			info->nerr++;
			continue;
		}
		if (e->refs++) {
			fs_report_found(fl, PR_DIR_LEAF_DUP_ADDR, &o, "address",
					addr);
			info->nerr++;
		}
		if (e->hash != h) {
			fs_report_val(fl, PR_DIR_LEAF_BAD_HASH, &o, "hashval",
				      e->hash, h);
			info->nerr++;
		}
	}
	if (stale != nstale) {
		struct fs_objref o = dir_blk_obj(b, len - sizeof(*bt));

		fs_report_val(fl, PR_DIR_LEAF_BAD_STALE, &o, "tail.stale",
			      nstale, stale);
		info->nerr++;
	}
	for (size_t i = 0; i < s.n; i++) {
		if (!s.v[i].refs) {
			struct fs_objref o = dir_blk_obj(b, s.v[i].offset);

			fs_report(fl, PR_DIR_LEAF_MISSING, &o, NULL);
			info->nerr++;
		}
	}
out:
	free(s.v);
	return ret;
}
