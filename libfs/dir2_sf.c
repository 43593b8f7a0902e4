/*
 * Short-form directories (directories.asciidoc "Short Form Directories"):
 * the whole directory in the inode's data fork.  Header: count, i8count,
 * parent (4 bytes, or 8 when i8count is non-zero); then count entries of
 * namelen, be16 offset, name, [ftype], inumber (4 or 8 bytes), packed.
 * "." is not stored and ".." is the parent field.
 *
 * i8count counts the inode numbers that need 8 bytes, the parent's
 * included.  The offsets are the entries' places in the block they would
 * have after conversion to block form, so each is at least the previous
 * one plus the size that entry would take there, and the first is at
 * least the offset after "." and "..".
 */
#include "config.h"
#include "dir2_priv.h"

static uint64_t sf_get_ino(const uint8_t *p, unsigned size)
{
	return size == 8 ? load_be64(p) : load_be32(p);
}

xfs_ino_t dir2_sf_parent(const uint8_t *fork, uint32_t forksize)
{
	unsigned isize;

	if (forksize < XFS_DIR2_SF_HDR_SIZE(0))
		return NULLFSINO;
	isize = fork[1] ? 8 : 4;
	if (forksize < XFS_DIR2_SF_HDR_SIZE(fork[1]))
		return NULLFSINO;
	return sf_get_ino(fork + 2, isize);
}

static struct fs_objref sf_obj(xfs_ino_t ino, uint32_t off)
{
	struct fs_objref o = OBJREF_INIT(OBJ_DIR);

	o.ino = ino;
	o.index = off;
	return o;
}

/* Bytes of one entry at p (3 + name + [ftype] + inumber). */
static uint32_t sf_entsize(const struct fs_geom *g, unsigned namelen,
			   unsigned isize)
{
	return 3 + namelen + (g->has_ftype ? 1 : 0) + isize;
}

int dir2_sf_check(const struct fs_geom *g, bool ci, xfs_ino_t ino,
		  const uint8_t *fork, uint32_t forksize, uint64_t di_size,
		  dir_iter_fn fn, void *priv, struct fs_findings *fl,
		  unsigned *nerr)
{
	unsigned local_nerr, count, i8count, isize, hdrsize, i8seen = 0;
	uint32_t limit, p, expect_off = dir_first_offset(g);
	struct fs_objref o = sf_obj(ino, 0);
	xfs_ino_t parent;
	uint32_t seen[256];	/* offsets of the usable entries, for dups */
	unsigned i, nseen = 0;
	int ret;

	if (!nerr)
		nerr = &local_nerr;
	*nerr = 0;
	if (forksize < XFS_DIR2_SF_HDR_SIZE(0) ||
	    di_size < XFS_DIR2_SF_HDR_SIZE(0)) {
		fs_report_val(fl, PR_DIR_SF_BAD_SIZE, &o, "core.size",
			      XFS_DIR2_SF_HDR_SIZE(0), di_size);
		(*nerr)++;
		return 0;
	}
	count = fork[0];
	i8count = fork[1];
	isize = i8count ? 8 : 4;
	hdrsize = XFS_DIR2_SF_HDR_SIZE(i8count);
	limit = forksize;
	if (di_size > forksize) {
		fs_report_val(fl, PR_DIR_SF_BAD_SIZE, &o, "core.size", forksize,
			      di_size);
		(*nerr)++;
	} else {
		limit = (uint32_t)di_size;
	}
	if (limit < hdrsize) {
		fs_report_val(fl, PR_DIR_SF_BAD_SIZE, &o, "core.size", hdrsize,
			      di_size);
		(*nerr)++;
		return 0;
	}
	parent = sf_get_ino(fork + 2, isize);
	if (parent > XFS_DIR2_MAX_SHORT_INUM)
		i8seen++;
	if (!ino_valid(g, parent)) {
		o = sf_obj(ino, 2);
		fs_report_found(fl, PR_DIR_BAD_INO, &o, "hdr.parent", parent);
		(*nerr)++;
	}
	if (fn) {
		ret = fn(priv, (const uint8_t *)".", 1, ino,
			 g->has_ftype ? XFS_DIR3_FT_DIR : 0);
		if (ret)
			return ret;
		if (ino_valid(g, parent)) {
			ret = fn(priv, (const uint8_t *)"..", 2, parent,
				 g->has_ftype ? XFS_DIR3_FT_DIR : 0);
			if (ret)
				return ret;
		}
	}

	p = hdrsize;
	for (i = 0; i < count; i++) {
		unsigned namelen;
		uint32_t esize, off;
		const uint8_t *name;
		xfs_ino_t eino;
		unsigned ftype;
		bool usable = true;

		o = sf_obj(ino, p);
		if (p >= limit) {
			fs_report_val(fl, PR_DIR_SF_BAD_COUNT, &o, "hdr.count",
				      i, count);
			(*nerr)++;
			break;
		}
		namelen = fork[p];
		esize = sf_entsize(g, namelen, isize);
		if (esize > limit - p) {
			fs_report_val(fl, PR_DIR_ENTRY_OVERRUN, &o, "namelen",
				      limit - p, esize);
			(*nerr)++;
			break;
		}
		off = load_be16(fork + p + 1);
		name = fork + p + 3;
		ftype = g->has_ftype ? fork[p + 3 + namelen] : 0;
		eino = sf_get_ino(fork + p + 3 + namelen +
				  (g->has_ftype ? 1 : 0), isize);
		if (!dir_name_ok(name, namelen, &o, fl, nerr))
			/*
			 * A name with '/' or NUL still names its inode: the
			 * kernel's verifier of the fork does not look at
			 * names, and lists the entry.
			 */
			usable = namelen != 0;
		else if (dir_is_dot(name, namelen) ||
			 dir_is_dotdot(name, namelen)) {
			fs_report(fl, dir_is_dot(name, namelen) ?
				  PR_DIR_BAD_DOT : PR_DIR_BAD_DOTDOT, &o, "name");
			(*nerr)++;
			usable = false;
		}
		if (off < expect_off) {
			fs_report_val(fl, PR_DIR_SF_BAD_OFFSET, &o, "offset",
				      expect_off, off);
			(*nerr)++;
		}
		expect_off = off + dir2_data_entsize(g->has_ftype, namelen);
		if (expect_off > g->dirblksize) {
			fs_report_found(fl, PR_DIR_SF_BAD_OFFSET, &o, "offset",
					off);
			(*nerr)++;
		}
		if (eino > XFS_DIR2_MAX_SHORT_INUM)
			i8seen++;
		if (!ino_valid(g, eino)) {
			fs_report_found(fl, PR_DIR_BAD_INO, &o, "inumber", eino);
			(*nerr)++;
			usable = false;
		}
		if (ftype >= XFS_DIR3_FT_MAX) {
			fs_report_found(fl, PR_DIR_BAD_FTYPE, &o, "filetype",
					ftype);
			(*nerr)++;
		}
		for (unsigned j = 0; usable && j < nseen; j++) {
			if (dir_names_match(ci, fork + seen[j] + 3, fork[seen[j]],
					    name, namelen)) {
				fs_report(fl, PR_DIR_DUP_NAME, &o, "name");
				(*nerr)++;
				usable = false;
			}
		}
		if (usable)
			seen[nseen++] = p;
		if (usable && fn) {
			ret = fn(priv, name, namelen, eino, ftype);
			if (ret)
				return ret;
		}
		p += esize;
	}
	if (i < count)
		return 0;	/* the rest cannot be trusted */
	o = sf_obj(ino, 1);
	if (i8seen != i8count) {
		fs_report_val(fl, PR_DIR_SF_BAD_I8COUNT, &o, "hdr.i8count",
			      i8seen, i8count);
		(*nerr)++;
	}
	if (p != di_size && di_size <= forksize) {
		/*
		 * Bytes left over: if they hold whole entries, the count is
		 * what is wrong; otherwise the size is.
		 */
		uint32_t q = p;
		unsigned extra = 0;

		while (q < limit && sf_entsize(g, fork[q], isize) <= limit - q) {
			q += sf_entsize(g, fork[q], isize);
			extra++;
		}
		if (extra && q == limit) {
			o = sf_obj(ino, 0);
			fs_report_val(fl, PR_DIR_SF_BAD_COUNT, &o, "hdr.count",
				      count + extra, count);
		} else {
			o = sf_obj(ino, p);
			fs_report_val(fl, PR_DIR_SF_BAD_SIZE, &o, "core.size",
				      p, di_size);
		}
		(*nerr)++;
	}
	return 0;
}
