/*
 * Directory data blocks (directories.asciidoc "Block Directories", "Leaf
 * Directories"): the entries and free regions between the 64-byte
 * xfs_dir3_data_hdr and the end of the entry region (the block's end, or
 * in a block-form block the start of the leaf array), and the bestfree
 * table that summarises the free regions.
 *
 * The scan goes item by item: a free region starts with freetag 0xffff
 * and its length, an entry with its inode number (whose top byte can
 * never be 0xff for a valid inode, so the two cannot be confused).  A
 * length that is not a multiple of 8, or an item running past the
 * region, ends the scan of the block: nothing after it can be trusted.
 */
#include "config.h"
#include "dir2_priv.h"

/* The true three largest free regions, for comparing lengths. */
struct top3 {
	uint16_t	len[XFS_DIR2_DATA_FD_COUNT];
};

static void top3_add(struct top3 *t, uint16_t len)
{
	for (unsigned i = 0; i < XFS_DIR2_DATA_FD_COUNT; i++) {
		if (len > t->len[i]) {
			for (unsigned j = XFS_DIR2_DATA_FD_COUNT - 1; j > i; j--)
				t->len[j] = t->len[j - 1];
			t->len[i] = len;
			return;
		}
	}
}

static const char *const bf_len_field[XFS_DIR2_DATA_FD_COUNT] = {
	"bestfree[0].length", "bestfree[1].length", "bestfree[2].length",
};
static const char *const bf_off_field[XFS_DIR2_DATA_FD_COUNT] = {
	"bestfree[0].offset", "bestfree[1].offset", "bestfree[2].offset",
};

/*
 * The region holding entries: the whole block, or for a block-form block
 * up to the leaf array; 0 (after reporting it) when the tail's count
 * cannot fit, so that nothing is scanned.
 */
static uint32_t data_region_end(const struct dir_blk *b, bool block_form,
				struct fs_findings *fl, unsigned *nerr)
{
	uint32_t len = b->g->dirblksize;
	const struct xfs_dir2_block_tail *bt;
	uint32_t count, room;

	if (!block_form)
		return len;
	bt = (const void *)(b->data + len - sizeof(*bt));
	count = get_be32(bt->count);
	room = (len - sizeof(struct xfs_dir3_data_hdr) - sizeof(*bt)) /
	       sizeof(struct xfs_dir2_leaf_entry);
	if (count > room) {
		struct fs_objref o = dir_blk_obj(b, len - sizeof(*bt));

		fs_report_found(fl, PR_DIR_LEAF_BAD_COUNT, &o, "tail.count",
				count);
		(*nerr)++;
		return 0;	/* where the entries end is unknown */
	}
	return len - sizeof(*bt) - count * sizeof(struct xfs_dir2_leaf_entry);
}

static int data_body(const struct dir_blk *b, bool block_form, dir_dent_fn fn,
		     void *priv, struct fs_findings *fl,
		     struct dir_data_info *info);

int dir3_data_check(const struct dir_blk *b, bool block_form, dir_dent_fn fn,
		    void *priv, struct fs_findings *fl,
		    struct dir_data_info *info)
{
	struct dir_data_info local;

	if (!info)
		info = &local;
	memset(info, 0, sizeof(*info));
	if (!dir3_hdr_check(b, block_form ? XFS_DIR3_BLOCK_MAGIC :
					    XFS_DIR3_DATA_MAGIC, fl,
			    &info->nerr))
		return 0;
	info->magic_ok = true;
	return data_body(b, block_form, fn, priv, fl, info);
}

int dir3_data_scan(const struct dir_blk *b, bool block_form, dir_dent_fn fn,
		   void *priv, struct fs_findings *fl,
		   struct dir_data_info *info)
{
	memset(info, 0, sizeof(*info));
	return data_body(b, block_form, fn, priv, fl, info);
}

/* Everything after the header; info->nerr and magic_ok as the caller set. */
static int data_body(const struct dir_blk *b, bool block_form, dir_dent_fn fn,
		     void *priv, struct fs_findings *fl,
		     struct dir_data_info *info)
{
	const struct fs_geom *g = b->g;
	const struct xfs_dir3_data_hdr *hdr = (const void *)b->data;
	const uint8_t *d = b->data;
	uint16_t bf_off[XFS_DIR2_DATA_FD_COUNT], bf_len[XFS_DIR2_DATA_FD_COUNT];
	uint16_t bf_seen[XFS_DIR2_DATA_FD_COUNT] = { 0 };
	struct top3 top = { { 0 } };
	bool prev_free = false, have_dot = false, have_dotdot = false;
	uint32_t p, end, nused = 0;
	int ret = 0;

	for (unsigned i = 0; i < XFS_DIR2_DATA_FD_COUNT; i++) {
		bf_off[i] = get_be16(hdr->best_free[i].offset);
		bf_len[i] = get_be16(hdr->best_free[i].length);
	}
	info->best = bf_len[0];
	end = data_region_end(b, block_form, fl, &info->nerr);
	info->end = end;
	info->scanned = sizeof(*hdr);
	if (!end)
		return 0;

	for (p = sizeof(*hdr); p < end;) {
		struct fs_objref o = dir_blk_obj(b, p);

		if (end - p < 8) {
			fs_report_found(fl, PR_DIR_ENTRY_OVERRUN, &o, NULL,
					end - p);
			info->nerr++;
			break;
		}
		if (load_be16(d + p) == XFS_DIR2_DATA_FREE_TAG) {
			uint16_t flen = load_be16(d + p + 2);

			if (!flen || flen % XFS_DIR2_DATA_ALIGN ||
			    flen > end - p) {
				fs_report_found(fl, PR_DIR_BAD_FREE, &o,
						"length", flen);
				info->nerr++;
				break;
			}
			if (load_be16(d + p + flen - 2) != p) {
				fs_report_val(fl, PR_DIR_BAD_FREE, &o, "tag", p,
					      load_be16(d + p + flen - 2));
				info->nerr++;
			}
			if (prev_free) {
				fs_report(fl, PR_DIR_BAD_FREE, &o, "freetag");
				info->nerr++;
			}
			for (unsigned i = 0; i < XFS_DIR2_DATA_FD_COUNT; i++)
				if (bf_len[i] && bf_off[i] == p)
					bf_seen[i] = flen;
			top3_add(&top, flen);
			prev_free = true;
			p += flen;
			continue;
		}
		prev_free = false;

		/*
		 * An entry: inumber, namelen, name, [ftype], tag.  The 8
		 * bytes checked above are the inumber; namelen may be past
		 * the end.
		 */
		struct dir_dent e;
		unsigned namelen;
		uint32_t esize;
		bool usable = true;

		if (end - p < 9) {
			fs_report_found(fl, PR_DIR_ENTRY_OVERRUN, &o, NULL,
					end - p);
			info->nerr++;
			break;
		}
		namelen = d[p + 8];
		esize = dir2_data_entsize(g->has_ftype, namelen);
		if (esize > end - p) {
			fs_report_val(fl, PR_DIR_ENTRY_OVERRUN, &o, "namelen",
				      end - p, esize);
			info->nerr++;
			break;
		}
		e.offset = p;
		e.name = d + p + 9;
		e.namelen = namelen;
		e.ino = load_be64(d + p);
		e.ftype = g->has_ftype ? d[p + 9 + namelen] : 0;
		if (load_be16(d + p + esize - 2) != p) {
			/* most likely a bad namelen: the scan is lost */
			fs_report_val(fl, PR_DIR_BAD_TAG, &o, "tag", p,
				      load_be16(d + p + esize - 2));
			info->nerr++;
			break;
		}
		if (!dir_name_ok(e.name, namelen, &o, fl, &info->nerr))
			/*
			 * A name with '/' or NUL still names its inode: the
			 * kernel's verifier does not look at names, and lists
			 * the entry (as in short form).
			 */
			usable = namelen != 0;
		if (!ino_valid(g, e.ino)) {
			fs_report_found(fl, PR_DIR_BAD_INO, &o, "inumber", e.ino);
			info->nerr++;
			usable = false;
		}
		if (e.ftype >= XFS_DIR3_FT_MAX) {
			fs_report_found(fl, PR_DIR_BAD_FTYPE, &o, "filetype",
					e.ftype);
			info->nerr++;
		}

		/* "." first and ".." second in data block 0, nowhere else */
		if (b->dablk == 0 && nused == 0) {
			if (!dir_is_dot(e.name, namelen)) {
				fs_report(fl, PR_DIR_BAD_DOT, &o, "name");
				info->nerr++;
			}
		} else if (b->dablk == 0 && nused == 1) {
			if (!dir_is_dotdot(e.name, namelen)) {
				fs_report(fl, PR_DIR_BAD_DOTDOT, &o, "name");
				info->nerr++;
			}
		}
		if (dir_is_dot(e.name, namelen)) {
			if (have_dot || b->dablk != 0 || nused != 0) {
				fs_report(fl, PR_DIR_BAD_DOT, &o, "name");
				info->nerr++;
				usable = false;
			} else if (b->ino != NULLFSINO && e.ino != b->ino) {
				fs_report_val(fl, PR_DIR_BAD_DOT, &o, "inumber",
					      b->ino, e.ino);
				info->nerr++;
			}
			have_dot = true;
		} else if (dir_is_dotdot(e.name, namelen)) {
			if (have_dotdot || b->dablk != 0 || nused != 1) {
				fs_report(fl, PR_DIR_BAD_DOTDOT, &o, "name");
				info->nerr++;
				usable = false;
			}
			have_dotdot = true;
		}
		nused++;
		e.usable = usable;
		e.hash = dir_hashname(b->ci, e.name, namelen);
		if (fn) {
			ret = fn(priv, b, &e);
			if (ret)
				return ret;
		}
		if (usable)
			info->nents++;
		p += esize;
	}
	info->scanned = p;
	if (p >= end)
		info->true_best = top.len[0];
	if (b->dablk == 0 && nused < 2 && p >= end) {
		struct fs_objref o = dir_blk_obj(b, -1);

		fs_report(fl, nused ? PR_DIR_BAD_DOTDOT : PR_DIR_BAD_DOT, &o,
			  "name");
		info->nerr++;
	}

	/*
	 * bestfree: lengths equal to the true three largest (ties make the
	 * choice of region free, the lengths are not), zero-padded, each
	 * naming a distinct free region of its length.  Only trusted when
	 * the whole region was scanned.
	 */
	if (p < end)
		return 0;
	for (unsigned i = 0; i < XFS_DIR2_DATA_FD_COUNT; i++) {
		struct fs_objref o = dir_blk_obj(b, -1);

		if (bf_len[i] != top.len[i]) {
			fs_report_val(fl, PR_DIR_BAD_BESTFREE, &o,
				      bf_len_field[i], top.len[i], bf_len[i]);
			info->nerr++;
			break;
		}
		if (!bf_len[i] && bf_off[i]) {
			fs_report_val(fl, PR_DIR_BAD_BESTFREE, &o,
				      bf_off_field[i], 0, bf_off[i]);
			info->nerr++;
			break;
		}
		if (bf_len[i] && bf_seen[i] != bf_len[i]) {
			fs_report_found(fl, PR_DIR_BAD_BESTFREE, &o,
					bf_off_field[i], bf_off[i]);
			info->nerr++;
			break;
		}
		for (unsigned j = 0; bf_len[i] && j < i; j++) {
			if (bf_off[j] == bf_off[i]) {
				fs_report_found(fl, PR_DIR_BAD_BESTFREE, &o,
						bf_off_field[i], bf_off[i]);
				info->nerr++;
				return 0;
			}
		}
	}
	return 0;
}
