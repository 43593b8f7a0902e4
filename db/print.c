/*
 * print: show the object under the cursor, or some of its fields, from
 * its field table.
 *
 * Output follows the reference exactly:
 *   - a struct that is not an array is flattened: "core.size = 6";
 *   - an array of structs without a compact form is flattened element by
 *     element: "bu[3].name = ...";
 *   - an array of numbers prints on one line: "ptrs[1-3] = 1:5 2:7 3:9";
 *   - an array of compact structs prints a header of sub-field names,
 *     then one element a line: "recs[1-2] = [startblock,blockcount]",
 *     "1:[8,32744]" ...;
 *   - a struct with nothing in it prints "(empty)".
 * Field expressions name a field, an element or a slice of an array, and
 * nested fields: "core.size", "recs[2].blockcount", "bno[2-5]".
 */
#include "config.h"
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "db.h"
#include "format/ondisk.h"

/* ---- one value ---- */

static bool num_isnull(const struct ftype *t, int64_t v, unsigned sz)
{
	if ((t->arg & FTA_SIGNED) || sz >= 64)
		return v == -1;
	return (uint64_t)v == (1ull << sz) - 1;
}

static int64_t num_get(const struct fld_ctx *c, const struct ftype *t,
		       uint64_t bit, unsigned sz)
{
	if (t->arg & FTA_SIGNED)
		return bits_get_signed(c->data, c->len, bit, sz);
	return (int64_t)bits_get(c->data, c->len, bit, sz);
}

static void print_num_val(const struct ftype *t, int64_t v, unsigned sz)
{
	if ((t->arg & FTA_DONULL) && num_isnull(t, v, sz))
		dbprintf("null");
	else if (sz > 32)
		dbprintf(t->fmt, (long long)v);
	else
		dbprintf(t->fmt, (int)(int32_t)v);
}

static void print_uuid_at(const struct fld_ctx *c, uint64_t bit)
{
	uint8_t u[16];
	int i;

	for (i = 0; i < 16; i++)
		u[i] = (uint8_t)bits_get(c->data, c->len, bit + i * 8, 8);
	dbprintf("%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
		 "%02x%02x%02x%02x%02x%02x",
		 u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9],
		 u[10], u[11], u[12], u[13], u[14], u[15]);
}

static void print_charns(const struct fld_ctx *c, uint64_t bit, int count)
{
	int i;

	dbprintf("\"");
	for (i = 0; i < count; i++) {
		unsigned ch = (unsigned)bits_get(c->data, c->len,
						 bit + (uint64_t)i * 8, 8);

		if (ch == '\\')
			dbprintf("\\\\");
		else if (ch == '"')
			dbprintf("\\\"");
		else if (isprint(ch))
			dbprintf("%c", ch);
		else
			dbprintf("\\%03o", ch);
	}
	dbprintf("\"");
}

/* Timestamps: is the inode in ctx a bigtime inode? */
static bool obj_bigtime(const struct fld_ctx *c)
{
	if (c->len < XFS_DINODE_CORE_SIZE)
		return false;
	return (load_be64(c->data + offsetof(struct xfs_dinode, di_flags2)) &
		XFS_DIFLAG2_BIGTIME) != 0;
}

static void ts_decode(const struct fld_ctx *c, uint64_t bit, int64_t *sec,
		      uint32_t *nsec)
{
	uint64_t v = bits_get(c->data, c->len, bit, 64);

	if (obj_bigtime(c)) {
		*sec = (int64_t)(v / XFS_NSEC_PER_SEC) - XFS_BIGTIME_EPOCH_OFFSET;
		*nsec = (uint32_t)(v % XFS_NSEC_PER_SEC);
	} else {
		*sec = (int32_t)(v >> 32);
		*nsec = (uint32_t)v;
	}
}

static void print_time(int64_t sec)
{
	time_t t = (time_t)sec;
	char buf[64];

	if (!ctime_r(&t, buf))
		snprintf(buf, sizeof(buf), "%lld", (long long)sec);
	dbprintf("%24.24s", buf);
}

/*
 * A quota timer: in the default quota (id 0) it is a grace period and
 * prints as a number; elsewhere a non-zero timer is an expiry date
 * (bigtime dquots count it in units of 4 seconds).
 */
static void print_qtimer(const struct fld_ctx *c, uint64_t bit)
{
	uint64_t v = bits_get(c->data, c->len, bit, 32);
	uint32_t id = (uint32_t)bits_get(c->data, c->len,
		FLD_BO(struct xfs_disk_dquot, d_id), 32);
	unsigned type = (unsigned)bits_get(c->data, c->len,
		FLD_BO(struct xfs_disk_dquot, d_type), 8);

	if (!id || !v) {
		dbprintf("%d", (int)(int32_t)v);
		return;
	}
	if (type & XFS_DQTYPE_BIGTIME)
		v <<= 2;
	print_time((int64_t)v);
}

/*
 * One element of a non-struct type, no index.  crc_obj tells whether the
 * object's CRC checks out (FP_CRC).
 */
static void print_elem(const struct fld_ctx *c, const struct ftype *t,
		       uint64_t bit, int count)
{
	unsigned sz = (unsigned)ftype_size(c, t, bit);
	int64_t v;
	int64_t sec;
	uint32_t nsec;
	const char *nm;

	switch (t->print) {
	case FP_NUM:
		print_num_val(t, num_get(c, t, bit, sz), sz);
		break;
	case FP_CRC:
		dbprintf("%#x (%s)", (unsigned)bits_get(c->data, c->len, bit, 32),
			 cur_crc_ok(cur_top()) ? "correct" : "bad");
		break;
	case FP_UUID:
		print_uuid_at(c, bit);
		break;
	case FP_CHARNS:
		print_charns(c, bit, count);
		break;
	case FP_DINODE_FMT:
		v = (int64_t)bits_get(c->data, c->len, bit, 8);
		nm = fld_dinode_fmt_name((unsigned)v);
		if (nm)
			dbprintf("%d (%s)", (int)v, nm);
		else
			dbprintf("%d", (int)v);
		break;
	case FP_TIME:
		ts_decode(c, bit, &sec, &nsec);
		print_time(sec);
		break;
	case FP_NSEC:
		ts_decode(c, bit, &sec, &nsec);
		dbprintf("%u", nsec);
		break;
	case FP_QTIMER:
		print_qtimer(c, bit);
		break;
	default:
		dbprintf("(empty)");
		break;
	}
}

/* ---- arrays of values ---- */

static void print_sarray_hdr(const struct fld_ctx *c, const struct ftype *t,
			     uint64_t bit)
{
	const struct fld *sf;
	bool first = true;

	dbprintf("[");
	for (sf = t->sub; sf->name; sf++) {
		if (!fld_count(c, sf, bit))
			continue;
		dbprintf("%s%s", first ? "" : ",", sf->name);
		first = false;
	}
	dbprintf("]");
}

static void print_sarray_elem(const struct fld_ctx *c, const struct ftype *t,
			      uint64_t bit)
{
	const struct fld *sf;
	bool first = true;

	dbprintf("[");
	for (sf = t->sub; sf->name; sf++) {
		int n = fld_count(c, sf, bit);

		if (!n)
			continue;
		if (!first)
			dbprintf(",");
		first = false;
		print_elem(c, sf->type, fld_elem_bit(c, sf, bit, 0), n);
	}
	dbprintf("]");
}

/*
 * Print elements [lo, hi] (element indexes) of a non-struct field; base is
 * the first display index.  array: the field is an array (indexes shown).
 */
static void print_values(const struct fld_ctx *c, const struct fld *f,
			 uint64_t pbit, int lo, int hi, bool array)
{
	const struct ftype *t = f->type;
	int i, count = hi - lo + 1;

	if (t->print == FP_CHARNS) {
		print_elem(c, t, fld_elem_bit(c, f, pbit, lo), count);
		return;
	}
	if (t->print == FP_SARRAY) {
		print_sarray_hdr(c, t, fld_elem_bit(c, f, pbit, lo));
		for (i = lo; i <= hi; i++) {
			dbprintf(" \n");
			if (array)
				dbprintf("%d:", i + f->base);
			print_sarray_elem(c, t, fld_elem_bit(c, f, pbit, i));
		}
		return;
	}
	for (i = lo; i <= hi; i++) {
		uint64_t bit = fld_elem_bit(c, f, pbit, i);

		if (t->print == FP_NUM && (t->arg & (FTA_SKIPZERO | FTA_SKIPNULL))) {
			unsigned sz = (unsigned)ftype_size(c, t, bit);
			int64_t v = num_get(c, t, bit, sz);

			if ((t->arg & FTA_SKIPZERO) && v == 0)
				continue;
			if ((t->arg & FTA_SKIPNULL) && num_isnull(t, v, sz))
				continue;
		}
		if (array && count > 1)
			dbprintf("%d:", i + f->base);
		print_elem(c, t, bit, 1);
		if (i < hi)
			dbprintf(" ");
	}
}

/* ---- fields and structs ---- */

static int print_struct(const struct fld_ctx *c, const char *prefix,
			const struct fld *sub, uint64_t bit);

/*
 * Print field f of a parent at pbit, elements [lo, hi] (element
 * indexes); name is the text shown for the field itself.
 */
static void print_field(const struct fld_ctx *c, const char *name,
			const struct fld *f, uint64_t pbit, int lo, int hi)
{
	const struct ftype *t = f->type;
	char pfx[512];
	int i;

	if (t->print == FP_NONE) {
		for (i = lo; i <= hi; i++) {
			char p2[520];

			if (f->flags & FLD_ARRAY)
				snprintf(pfx, sizeof(pfx), "%s[%d]", name,
					 i + f->base);
			else
				snprintf(pfx, sizeof(pfx), "%s", name);
			snprintf(p2, sizeof(p2), "%s.", pfx);
			if (!print_struct(c, p2, t->sub,
					  fld_elem_bit(c, f, pbit, i)))
				dbprintf("%s = (empty)\n", pfx);
			if (!(f->flags & FLD_ARRAY))
				break;
		}
		return;
	}
	dbprintf("%s", name);
	if (f->flags & FLD_ARRAY) {
		if (lo == hi)
			dbprintf("[%d]", lo + f->base);
		else
			dbprintf("[%d-%d]", lo + f->base, hi + f->base);
	}
	dbprintf(" = ");
	print_values(c, f, pbit, lo, hi, (f->flags & FLD_ARRAY) != 0);
	dbprintf("\n");
}

/*
 * An array whose count reads as a negative int.  The reference takes the
 * last index as count - 1: below 0 it shows the bare name (and said "no
 * elements" before printing), and for INT_MIN the subtraction wraps to
 * INT_MAX; either way no element follows.
 */
static void print_negative_array(const struct fld_ctx *c, const char *prefix,
				 const struct fld *f, uint64_t bit)
{
	int n = fld_count_raw(c, f, bit);

	dbprintf("%s%s", prefix, f->name);
	if (n == INT_MIN)
		dbprintf("[%d-%d]", f->base, f->base + INT_MAX);
	dbprintf(" = ");
	if (f->type->print == FP_SARRAY) {
		print_sarray_hdr(c, f->type, fld_elem_bit(c, f, bit, 0));
		dbprintf(" ");
	}
	dbprintf("\n");
}

/*
 * The first array at or below the fields of tab (at bit) whose count is
 * negative but not INT_MIN, i.e. whose last index count - 1 is below 0;
 * only under name when name is given (the first component of a field
 * expression).
 */
static const struct fld *find_no_elements(const struct fld_ctx *c,
					  const struct fld *tab, uint64_t bit,
					  const char *name, size_t nlen)
{
	const struct fld *f, *r;

	for (f = tab; f && f->name; f++) {
		int n;

		if (name && (strlen(f->name) != nlen ||
			     strncmp(f->name, name, nlen)))
			continue;
		n = fld_count_raw(c, f, bit);
		if ((f->flags & FLD_ARRAY) && n < 0 && n != INT_MIN)
			return f;
		if (n > 0 && !(f->flags & FLD_ARRAY) &&
		    f->type->print == FP_NONE && f->type->sub) {
			r = find_no_elements(c, f->type->sub,
					     fld_elem_bit(c, f, bit, 0),
					     NULL, 0);
			if (r)
				return r;
		}
	}
	return NULL;
}

static int print_struct(const struct fld_ctx *c, const char *prefix,
			const struct fld *sub, uint64_t bit)
{
	const struct fld *f;
	char name[600];
	int printed = 0;

	for (f = sub; f && f->name; f++) {
		int raw = fld_count_raw(c, f, bit);
		int n = raw < 0 ? 0 : raw;

		if (raw < 0 && (f->flags & FLD_ARRAY)) {
			print_negative_array(c, prefix, f, bit);
			printed++;
			continue;
		}
		if (!n)
			continue;
		snprintf(name, sizeof(name), "%s%s", prefix, f->name);
		if (f->type->print == FP_CHARNS && !(f->flags & FLD_ARRAY))
			print_field(c, name, f, bit, 0, n - 1);
		else if (!(f->flags & FLD_ARRAY))
			print_field(c, name, f, bit, 0, 0);
		else
			print_field(c, name, f, bit, 0, n - 1);
		printed++;
	}
	return printed;
}

/* ---- raw dumps (data, text) ---- */

static void print_hex(const uint8_t *p, uint32_t len)
{
	uint32_t off, i;

	for (off = 0; off < len; off += 32) {
		dbprintf("%03x:", off);
		for (i = 0; i < 32 && off + i < len; i += 4)
			dbprintf(" %02x%02x%02x%02x", p[off + i],
				 off + i + 1 < len ? p[off + i + 1] : 0,
				 off + i + 2 < len ? p[off + i + 2] : 0,
				 off + i + 3 < len ? p[off + i + 3] : 0);
		dbprintf("\n");
	}
}

static void print_text(const uint8_t *p, uint32_t len)
{
	uint32_t off, i;

	for (off = 0; off < len; off += 16) {
		dbprintf("%03x: ", off);
		for (i = 0; i < 16 && off + i < len; i++)
			dbprintf(" %02x", p[off + i]);
		dbprintf("  ");
		for (i = 0; i < 16 && off + i < len; i++)
			dbprintf("%c", isalnum(p[off + i]) ? p[off + i] : '.');
		dbprintf("\n");
	}
}

void print_all(void)
{
	struct cursor *cur = cur_top();
	struct fld_ctx c;

	if (!cur->typ) {
		dbprintf("no current type\n");
		return;
	}
	if (!cur->buf) {
		dbprintf("no current object\n");
		return;
	}
	cur_ctx(cur, &c);
	if (!strcmp(cur->typ->name, "data") || !strcmp(cur->typ->name, "rtsummary")) {
		print_hex(c.data, c.len);
		return;
	}
	if (!strcmp(cur->typ->name, "text") || !strcmp(cur->typ->name, "rtbitmap")) {
		print_text(c.data, c.len);
		return;
	}
	if (cur->typ->type->print != FP_NONE || !cur->typ->type->sub) {
		dbprintf("no print function for type %s\n", cur->typ->name);
		return;
	}
	{
		const struct fld *ne = find_no_elements(&c,
				cur->typ->type->sub, 0, NULL, 0);

		if (ne)
			dbprintf("no elements in %s\n", ne->name);
	}
	if (!print_struct(&c, "", cur->typ->type->sub, 0)) {
		/* a directory or attribute block of no known kind (reading
		 * it said "Unknown ... buffer type!") */
		if (cur->typ == typ_dir3 || cur->typ == typ_attr3)
			dbprintf(" = Unrecognized metadata or type mismatch\n");
	}
}

/* ---- field expressions ---- */

static bool parse_index(const char **sp, int *lo, int *hi)
{
	const char *s = *sp;
	char *end;
	long a, b;

	if (*s != '[')
		return false;
	s++;
	a = strtol(s, &end, 10);
	if (end == s)
		return false;
	b = a;
	s = end;
	if (*s == '-') {
		s++;
		b = strtol(s, &end, 10);
		if (end == s)
			return false;
		s = end;
	}
	if (*s != ']')
		return false;
	*lo = (int)a;
	*hi = (int)b;
	*sp = s + 1;
	return true;
}

/* The first field of this name present at pbit. */
static const struct fld *find_present(const struct fld_ctx *c,
				      const struct fld *tab, const char *name,
				      uint64_t pbit)
{
	const struct fld *f;

	for (f = tab; f && f->name; f++)
		if (!strcmp(f->name, name) && fld_count(c, f, pbit))
			return f;
	return NULL;
}

/*
 * Resolve a field expression against the current object.  Returns 0 and
 * fills *e, or -1 after printing why not (unless quiet).
 */
int fexpr_parse(const char *s, struct fexpr *e, bool quiet)
{
	struct cursor *cur = cur_top();
	struct fld_ctx c;
	const struct fld *tab;
	uint64_t pbit = 0;
	const char *p = s;

	memset(e, 0, sizeof(*e));
	cur_ctx(cur, &c);
	tab = cur->typ->type->sub;
	for (;;) {
		char comp[128];
		size_t n = 0;
		const struct fld *f;
		int lo = 0, hi = 0, count;
		bool idx = false;

		while (*p && (isalnum((unsigned char)*p) || *p == '_') &&
		       n < sizeof(comp) - 1)
			comp[n++] = *p++;
		comp[n] = 0;
		if (!n) {
			if (!quiet)
				dbprintf("bad character in field %s\n", p);
			return -1;
		}
		f = find_present(&c, tab, comp, pbit);
		if (!f) {
			if (!quiet)
				dbprintf("field %s not found\n", comp);
			return -1;
		}
		count = fld_count(&c, f, pbit);
		if (*p == '[') {
			if (!(f->flags & FLD_ARRAY)) {
				if (!quiet)
					dbprintf("field %s is not an array\n",
						 comp);
				return -1;
			}
			if (!parse_index(&p, &lo, &hi)) {
				if (!quiet)
					dbprintf("bad character in field %s\n", p);
				return -1;
			}
			idx = true;
			if (lo < f->base || hi < lo || hi - f->base >= count) {
				if (!quiet)
					dbprintf("index %d for field %s out of "
						 "range %d-%d\n",
						 lo < f->base || hi < lo ? lo : hi,
						 comp, f->base,
						 f->base + count - 1);
				return -1;
			}
			lo -= f->base;
			hi -= f->base;
		} else {
			lo = 0;
			hi = count - 1;
		}
		e->f = f;
		e->pbit = pbit;
		e->low = lo;
		e->high = hi;
		e->indexed = idx;
		if (!*p)
			break;
		if (*p != '.') {
			if (!quiet)
				dbprintf("bad character in field %s\n", p);
			return -1;
		}
		p++;
		if (!f->type->sub) {
			if (!quiet)
				dbprintf("field %s has no subfields\n", comp);
			return -1;
		}
		if ((f->flags & FLD_ARRAY) && lo != hi) {
			if (!quiet)
				dbprintf("field %s: array needs an index\n", comp);
			return -1;
		}
		pbit = fld_elem_bit(&c, f, pbit, lo);
		tab = f->type->sub;
	}
	snprintf(e->name, sizeof(e->name), "%s", s);
	/* the displayed name drops the index: print_field adds it back */
	{
		char *br = strrchr(e->name, '[');
		char *dot = strrchr(e->name, '.');

		if (br && (!dot || br > dot))
			*br = 0;
	}
	return 0;
}

static int print_expr(const char *s)
{
	struct cursor *cur = cur_top();
	struct fld_ctx c;
	struct fexpr e;

	if (fexpr_parse(s, &e, false))
		return -1;
	cur_ctx(cur, &c);
	if (e.f->type->print == FP_NONE && !(e.f->flags & FLD_ARRAY)) {
		char p2[300];

		snprintf(p2, sizeof(p2), "%s.", e.name);
		if (!print_struct(&c, p2, e.f->type->sub,
				  fld_elem_bit(&c, e.f, e.pbit, 0)))
			dbprintf("%s = (empty)\n", e.name);
		return 0;
	}
	if (e.high < e.low) {
		dbprintf("%s = (empty)\n", e.name);
		return 0;
	}
	print_field(&c, e.name, e.f, e.pbit, e.low, e.high);
	return 0;
}

/*
 * A btree type over a block whose magic is no btree's: the reference
 * warns on stdout when it lays out the records, keys or pointers.
 */
static void btree_magic_warning(int argc, char **argv)
{
	static const uint32_t magics[] = {
		XFS_ABTB_CRC_MAGIC, XFS_ABTC_CRC_MAGIC, XFS_IBT_CRC_MAGIC,
		XFS_FIBT_CRC_MAGIC, XFS_RMAP_CRC_MAGIC, XFS_REFC_CRC_MAGIC,
		XFS_BMAP_CRC_MAGIC, XFS_ABTB_MAGIC, XFS_ABTC_MAGIC,
		XFS_IBT_MAGIC, XFS_FIBT_MAGIC, XFS_BMAP_MAGIC,
	};
	static const char *const arrays[] = { "recs", "keys", "ptrs" };
	struct cursor *cur = cur_top();
	struct fld_ctx c;
	uint32_t magic;
	unsigned i;
	int a;
	bool laid_out = false;

	if (!cur->typ || !cur->buf || cur->len < 4)
		return;
	for (i = 0; i < 3; i++)
		if (!fld_find(cur->typ->type->sub, arrays[i]))
			return;
	magic = load_be32(cur_obj(cur));
	for (i = 0; i < sizeof(magics) / sizeof(magics[0]); i++)
		if (magic == magics[i])
			return;
	cur_ctx(cur, &c);
	for (i = 0; i < 3; i++) {
		const struct fld *f = fld_find(cur->typ->type->sub, arrays[i]);

		if (!fld_count(&c, f, 0))
			continue;
		if (argc == 1)
			laid_out = true;
		for (a = 1; a < argc; a++)
			if (!strncmp(argv[a], arrays[i], 4))
				laid_out = true;
	}
	if (laid_out)
		dbprintf("Bad btree magic 0x%x; coercing to %s.\n", magic,
			 cur->typ->name);
}

int print_cmd(int argc, char **argv)
{
	struct cursor *cur = cur_top();
	int i;

	if (!cur->typ) {
		dbprintf("no current type\n");
		return 0;
	}
	btree_magic_warning(argc, argv);
	if (argc == 1) {
		print_all();
		return 0;
	}
	if (!cur->typ->type->sub) {
		dbprintf("no print function for type %s\n", cur->typ->name);
		return 0;
	}
	/*
	 * As the reference, every expression is resolved before anything is
	 * printed: the first one that does not resolve, or that reaches an
	 * array with no elements, ends the command with nothing shown.
	 */
	for (i = 1; i < argc; i++) {
		struct fexpr e;
		struct fld_ctx c;
		const struct fld *ne;

		cur_ctx(cur, &c);
		ne = find_no_elements(&c, cur->typ->type->sub, 0, argv[i],
				      strcspn(argv[i], ".["));
		if (ne) {
			dbprintf("no elements in %s\n", ne->name);
			return 0;
		}
		if (fexpr_parse(argv[i], &e, false))
			return 0;
	}
	for (i = 1; i < argc; i++)
		print_expr(argv[i]);
	return 0;
}

static const struct db_cmd print_cmds[] = {
	{ "print", "p", print_cmd, 0, -1, false, true, "[value]...",
	  "print field values" },
};

void print_cmds_init(void)
{
	register_cmds(print_cmds, 1);
}
