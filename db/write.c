/*
 * Expert mode: write, fuzz and crc.
 *
 * All three work on one field of the object under the cursor, located
 * through the same field table print uses, and then write the buffer
 * back.  The object's CRC is recomputed after the change unless -c is
 * given (which leaves it stale, so the change reads back as "(bad)").
 * -d asks to allow corrupt data but keep the CRC good; since this tool
 * does not refuse a write whose result fails the structure's verifier,
 * the default and -d behave alike here (see DIFFERENCES.md).
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <uuid/uuid.h>
#include "db.h"
#include "format/ondisk.h"

static void print_one_field(const char *expr)
{
	char *argv[2] = { (char *)"print", (char *)expr };

	print_cmd(2, argv);
}

static bool writable(const char *what)
{
	if (db.readonly) {
		dbprintf("%s started in read only mode, %s disabled\n",
			 db.progname, what);
		return false;
	}
	return true;
}

/* A field element's bit position and width in the current object. */
static void elem_pos(const struct fexpr *e, int i, uint64_t *bit,
		     unsigned *sz)
{
	struct fld_ctx c;

	cur_ctx(cur_top(), &c);
	*bit = fld_elem_bit(&c, e->f, e->pbit, i);
	*sz = (unsigned)ftype_size(&c, e->f->type, *bit);
}

static uint8_t *obj(void)
{
	return cur_obj(cur_top());
}

static uint32_t objlen(void)
{
	return cur_top()->len;
}

/* Bytes of a string value: "#hex" or the text with \ooo escapes. */
static int string_bytes(const char *s, uint8_t *out, int max)
{
	int n = 0;

	if (s[0] == '#') {
		s++;
		while (s[0] && s[1] && n < max) {
			char h[3] = { s[0], s[1], 0 };
			char *end;

			out[n++] = (uint8_t)strtoul(h, &end, 16);
			if (*end)
				return -1;
			s += 2;
		}
		return *s ? -1 : n;
	}
	while (*s && n < max) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '7') {
			int v = 0, k;

			for (k = 1; k <= 3 && s[k] >= '0' && s[k] <= '7'; k++)
				v = v * 8 + (s[k] - '0');
			out[n++] = (uint8_t)v;
			s += k;
		} else if (s[0] == '\\' && s[1]) {
			out[n++] = (uint8_t)s[1];
			s += 2;
		} else {
			out[n++] = (uint8_t)*s++;
		}
	}
	return n;
}

/* Set elements [lo, hi] of the field to the value text; 0 or -1. */
static int set_field(const struct fexpr *e, const char *val)
{
	const struct ftype *t = e->f->type;
	uint64_t bit;
	unsigned sz;
	int i;

	if (t->print == FP_UUID) {
		uuid_t u;

		if (uuid_parse(val, u)) {
			dbprintf("invalid UUID\n");
			return -1;
		}
		elem_pos(e, e->low, &bit, &sz);
		for (i = 0; i < 16; i++)
			bits_set(obj(), objlen(), bit + i * 8, 8, u[i]);
		return 0;
	}
	if (t->print == FP_CHARNS) {
		uint8_t buf[4096];
		int n = string_bytes(val, buf, e->high - e->low + 1);

		if (n < 0) {
			dbprintf("unable to convert value '%s'.\n", val);
			return -1;
		}
		/* the string, then zeroes to the end of the field */
		elem_pos(e, e->low, &bit, &sz);
		for (i = 0; i <= e->high - e->low; i++)
			bits_set(obj(), objlen(), bit + (uint64_t)i * 8, 8,
				 i < n ? buf[i] : 0);
		return 0;
	}
	if (t->print == FP_NONE || t->print == FP_SARRAY) {
		dbprintf("usage: write fieldname value\n");
		return -1;
	}
	{
		char *end;
		long long v = strtoll(val, &end, 0);

		if (*val == '-' || *val == '+')
			v = strtoll(val, &end, 0);
		else
			v = (long long)strtoull(val, &end, 0);
		if (end == val || *end) {
			dbprintf("unable to convert value '%s'.\n", val);
			return -1;
		}
		for (i = e->low; i <= e->high; i++) {
			elem_pos(e, i, &bit, &sz);
			/* a timestamp's sec and nsec both write the raw stamp */
			bits_set(obj(), objlen(), bit, sz, (uint64_t)v);
		}
	}
	return 0;
}

static int parse_crc_opts(int *argc, char ***argv, bool *nocrc, bool *corrupt)
{
	int c;

	optind = 0;
	while ((c = getopt(*argc, *argv, "cd")) != -1) {
		switch (c) {
		case 'c':
			*nocrc = true;
			break;
		case 'd':
			*corrupt = true;
			break;
		default:
			return -1;
		}
	}
	*argc -= optind;
	*argv += optind;
	return 0;
}

static bool struct_type(void)
{
	const struct cursor *c = cur_top();

	return c->typ && c->typ->type->sub && c->buf;
}

static int write_f(int argc, char **argv)
{
	bool nocrc = false, corrupt = false;
	struct fexpr e;
	int err;

	if (!writable("writing"))
		return 0;
	if (parse_crc_opts(&argc, &argv, &nocrc, &corrupt)) {
		dbprintf("bad option for write command\n");
		return 0;
	}
	if (!cur_top()->typ) {
		dbprintf("no current type\n");
		return 0;
	}
	if (!struct_type()) {
		dbprintf("write: data mode is not supported for type %s\n",
			 cur_top()->typ->name);
		return 0;
	}
	if (nocrc)
		dbprintf("Allowing write of corrupted data and bad CRC\n");
	else if (corrupt)
		dbprintf("Allowing write of corrupted data with good CRC\n");
	if (argc != 2) {
		dbprintf("usage: write fieldname value\n");
		return 0;
	}
	if (fexpr_parse(argv[0], &e, false)) {
		dbprintf("parsing error\n");
		return 0;
	}
	if (set_field(&e, argv[1])) {
		return 0;
	}
	err = cur_write(!nocrc);
	if (err)
		dbprintf("write error: %s\n", strerror(-err));
	print_one_field(argv[0]);
	return 0;
}

/* ---- fuzz ---- */

static void fuzz_usage(void)
{
	dbprintf("Usage: fuzz fieldname fuzzcmd\n");
	dbprintf("Fuzz commands: zeroes, ones, firstbit, middlebit, lastbit, "
		 "add, sub, random.\n");
}

#define FUZZ_DELTA	2017	/* what add and sub move a field by */

static int fuzz_field(const struct fexpr *e, const char *cmd)
{
	uint64_t bit, nbits = 0;
	unsigned sz;
	int i;

	/* the whole field, all elements, as one bit string */
	elem_pos(e, e->low, &bit, &sz);
	for (i = e->low; i <= e->high; i++) {
		uint64_t b;
		unsigned s;

		elem_pos(e, i, &b, &s);
		nbits += s;
	}
	if (e->f->type->print == FP_CHARNS)
		nbits = (uint64_t)(e->high - e->low + 1) * 8;
	if (!nbits)
		return -1;
	if (!strcmp(cmd, "zeroes") || !strcmp(cmd, "ones")) {
		uint64_t k;

		for (k = 0; k < nbits; k++)
			bits_set(obj(), objlen(), bit + k, 1, cmd[0] == 'o');
	} else if (!strcmp(cmd, "firstbit") || !strcmp(cmd, "middlebit") ||
		   !strcmp(cmd, "lastbit")) {
		uint64_t k = cmd[0] == 'f' ? 0 : cmd[0] == 'm' ? nbits / 2 :
			     nbits - 1;

		bits_set(obj(), objlen(), bit + k, 1,
			 !bits_get(obj(), objlen(), bit + k, 1));
	} else if (!strcmp(cmd, "add") || !strcmp(cmd, "sub")) {
		unsigned w = nbits > 64 ? 64 : (unsigned)nbits;
		uint64_t v = bits_get(obj(), objlen(), bit, w);

		v = cmd[0] == 'a' ? v + FUZZ_DELTA : v - FUZZ_DELTA;
		bits_set(obj(), objlen(), bit, w, v);
	} else if (!strcmp(cmd, "random")) {
		static bool seeded;
		uint64_t k;

		if (!seeded) {
			srandom((unsigned)time(NULL));
			seeded = true;
		}
		for (k = 0; k < nbits; k++)
			bits_set(obj(), objlen(), bit + k, 1, random() & 1);
	} else {
		dbprintf("Unknown fuzz command '%s'.\n", cmd);
		return -1;
	}
	return 0;
}

static int fuzz_f(int argc, char **argv)
{
	bool nocrc = false, corrupt = false;
	struct fexpr e;
	int err;

	if (!writable("fuzzing"))
		return 0;
	if (parse_crc_opts(&argc, &argv, &nocrc, &corrupt)) {
		fuzz_usage();
		return 0;
	}
	if (!struct_type()) {
		dbprintf("fuzz: type has no fields\n");
		return 0;
	}
	if (nocrc)
		dbprintf("Allowing fuzz of corrupted data and bad CRC\n");
	else if (corrupt)
		dbprintf("Allowing fuzz of corrupted data with good CRC\n");
	if (argc != 2) {
		fuzz_usage();
		return 0;
	}
	if (fexpr_parse(argv[0], &e, false)) {
		dbprintf("parsing error\n");
		return 0;
	}
	if (fuzz_field(&e, argv[1]))
		return 0;
	err = cur_write(!nocrc);
	if (err)
		dbprintf("write error: %s\n", strerror(-err));
	print_one_field(argv[0]);
	return 0;
}

/* ---- crc ---- */

/* The name of the CRC field of the current object, for printing. */
static const char *crc_field_name(char *buf, size_t len)
{
	const struct cursor *c = cur_top();
	const struct fld *f, *sf;
	struct fld_ctx ctx;

	cur_ctx(c, &ctx);
	for (f = c->typ->type->sub; f->name; f++) {
		if (!fld_count(&ctx, f, 0))
			continue;
		if (f->type->print == FP_CRC) {
			snprintf(buf, len, "%s", f->name);
			return buf;
		}
		if (f->type->print != FP_NONE || (f->flags & FLD_ARRAY))
			continue;
		for (sf = f->type->sub; sf && sf->name; sf++) {
			if (sf->type->print == FP_CRC) {
				snprintf(buf, len, "%s.%s", f->name, sf->name);
				return buf;
			}
			/* one more level: hdr.info.crc */
			if (sf->type->print == FP_NONE && sf->type->sub &&
			    !(sf->flags & FLD_ARRAY)) {
				const struct fld *ssf;

				for (ssf = sf->type->sub; ssf->name; ssf++)
					if (ssf->type->print == FP_CRC) {
						snprintf(buf, len, "%s.%s.%s",
							 f->name, sf->name,
							 ssf->name);
						return buf;
					}
			}
		}
	}
	return NULL;
}

static int crc_f(int argc, char **argv)
{
	struct cursor *c = cur_top();
	bool recalc = false, invalidate = false;
	char name[128];
	int ch, err;

	optind = 0;
	while ((ch = getopt(argc, argv, "irv")) != -1) {
		switch (ch) {
		case 'i':
			invalidate = true;
			break;
		case 'r':
			recalc = true;
			break;
		case 'v':
			break;
		default:
			dbprintf("bad option for crc command\n");
			return 0;
		}
	}
	if (!c->typ) {
		dbprintf("no current type\n");
		return 0;
	}
	if (!c->typ->type->sub) {
		dbprintf("current type (%s) is not a structure\n", c->typ->name);
		return 0;
	}
	if (!crc_field_name(name, sizeof(name))) {
		dbprintf("No CRC field found for type %s\n", c->typ->name);
		return 0;
	}
	if ((invalidate || recalc) && (!db.expert || db.readonly)) {
		dbprintf("%s not in expert mode, writing disabled\n",
			 db.progname);
		return 0;
	}
	if (invalidate) {
		struct fld_ctx ctx;
		uint32_t off;

		cur_ctx(c, &ctx);
		off = fld_obj_crc_off(c->typ, &ctx);
		if (off != FLD_NO_CRC && off + 4 <= c->len) {
			/*
			 * One more than the value shown, stored in host
			 * (little-endian) order, as the reference does.
			 */
			uint32_t v = load_be32(cur_obj(c) + off) + 1;
			uint8_t *p = cur_obj(c) + off;

			p[0] = v;
			p[1] = v >> 8;
			p[2] = v >> 16;
			p[3] = v >> 24;
		}
		dbprintf("Invalidating CRC:\n");
		err = cur_write(false);
	} else if (recalc) {
		dbprintf("Recalculating CRC:\n");
		err = cur_write(true);
	} else {
		dbprintf("Verifying CRC:\n");
		err = 0;
	}
	if (err)
		dbprintf("write error: %s\n", strerror(-err));
	if (invalidate || recalc)
		cur_crc_recheck();
	print_one_field(name);
	return 0;
}

static const struct db_cmd write_cmds[] = {
	{ "write", "w", write_f, 0, -1, true, true, "[-c|-d] [field or value]...",
	  "write value to disk" },
	{ "fuzz", NULL, fuzz_f, 0, -1, true, true,
	  "[-c] [-d] field fuzzcmd...", "fuzz values on disk" },
	{ "crc", NULL, crc_f, 0, 1, false, true, "[-i|-r|-v]",
	  "manipulate crc values for V5 filesystem structures" },
};

void write_cmds_init(void)
{
	register_cmds(write_cmds, sizeof(write_cmds) / sizeof(write_cmds[0]));
}
