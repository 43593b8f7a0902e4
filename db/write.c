/*
 * Expert mode: write, fuzz and crc.
 *
 * write and fuzz change one field of the object under the cursor (struct
 * mode), located through the same field table print uses; on untyped
 * data, write edits the whole buffer (data mode: fill, shifts, rotations,
 * sequences, random bytes).  The buffer then goes back to the device.
 *
 * What reaches the disk follows the reference's three ways of writing:
 *   default  the object's CRC is recomputed and the type's verifier must
 *            accept the result, else nothing is written ("write error:
 *            Structure needs cleaning") and the cursor shows the disk again;
 *   -d       CRC recomputed, verifier skipped (damage with a good CRC);
 *   -c       neither (damage with a stale CRC, so it reads back "(bad)").
 */
#include "config.h"
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "db.h"
#include "ag.h"
#include "attr.h"
#include "btree.h"
#include "dabtree.h"
#include "dir.h"
#include "inode.h"
#include "symlink.h"
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

/* ---- verifiers ---- */

static bool is_text(const struct cursor *c)
{
	return c->typ && c->typ->type == &ft_text;
}

static bool is_data(const struct cursor *c)
{
	return c->typ && !c->typ->type->sub && !is_text(c);
}

/*
 * The verifier the reference would attach to the buffer under the
 * cursor, chosen (for directory and attribute blocks) from the magic
 * the block had when it was read.  NULL: none (data, text, quota and
 * realtime blocks, directory blocks of no known kind).
 */
static const struct buf_ops *write_ops(const struct cursor *c)
{
	const char *n;

	if (!c->typ || !c->buf || !c->typ->type->sub)
		return NULL;
	n = c->typ->name;
	if (!strcmp(n, "sb"))
		return &sb_buf_ops;
	if (!strcmp(n, "agf"))
		return &agf_buf_ops;
	if (!strcmp(n, "agi"))
		return &agi_buf_ops;
	if (!strcmp(n, "agfl"))
		return &agfl_buf_ops;
	if (!strcmp(n, "bnobt"))
		return bnobt_ops.buf_ops;
	if (!strcmp(n, "cntbt"))
		return cntbt_ops.buf_ops;
	if (!strcmp(n, "inobt"))
		return inobt_ops.buf_ops;
	if (!strcmp(n, "finobt"))
		return finobt_ops.buf_ops;
	if (!strcmp(n, "rmapbt"))
		return rmapbt_ops.buf_ops;
	if (!strcmp(n, "refcntbt"))
		return refcountbt_ops.buf_ops;
	if (!strcmp(n, "bmapbta") || !strcmp(n, "bmapbtd"))
		return bmbt_ops.buf_ops;
	if (!strcmp(n, "symlink"))
		return &symlink_buf_ops;
	if (!strcmp(n, "dir3")) {
		struct fld_ctx ctx;

		cur_ctx(c, &ctx);
		switch (fld_dir3_kind(&ctx)) {
		case FLD_DIR_BLOCK:
			return &dir3_block_buf_ops;
		case FLD_DIR_DATA:
			return &dir3_data_buf_ops;
		case FLD_DIR_LEAF1:
			return &dir3_leaf1_buf_ops;
		case FLD_DIR_LEAFN:
			return &dir3_leafn_buf_ops;
		case FLD_DIR_NODE:
			return &da3_node_buf_ops;
		case FLD_DIR_FREE:
			return &dir3_free_buf_ops;
		default:
			return NULL;
		}
	}
	if (!strcmp(n, "attr3") && c->len >= 16) {
		const uint8_t *p = cur_obj(c);

		if (load_be32(p) == XFS_ATTR3_RMT_MAGIC)
			return &attr3_rmt_buf_ops;
		switch (load_be16(p + 8)) {
		case XFS_ATTR3_LEAF_MAGIC:
			return &attr3_leaf_buf_ops;
		case XFS_DA3_NODE_MAGIC:
			return &da3_node_buf_ops;
		}
	}
	return NULL;
}

/* Types whose buffers carry a verifier in the reference. */
static bool has_verifier(const struct cursor *c)
{
	return c->typ == typ_inode || c->typ == typ_dir3 ||
	       c->typ == typ_attr3 || write_ops(c) != NULL ||
	       (c->typ && c->typ->type == &ft_dqblk);
}

/*
 * The inode buffer check the reference runs on a write: every inode of
 * the cluster has the magic, version 3 and an unlinked pointer that is
 * null or an inode number inside the AG.  (The full inode checks happen
 * when an inode is loaded, not when its buffer is written.)
 */
static int inode_buf_check(const struct cursor *c)
{
	const struct fs_geom *g = &db.fs->geo;
	uint32_t n = (c->blen * BBSIZE) >> g->inodelog, i;
	xfs_agnumber_t agno = (xfs_agnumber_t)daddr_to_agno(g, c->bb);
	uint64_t maxagino = (uint64_t)geom_ag_blocks(g, agno) << g->inopblog;

	for (i = 0; i < n; i++) {
		const uint8_t *p = c->buf + ((size_t)i << g->inodelog);
		uint32_t un = load_be32(p + offsetof(struct xfs_dinode,
						      di_next_unlinked));

		if (load_be16(p) != XFS_DINODE_MAGIC ||
		    p[offsetof(struct xfs_dinode, di_version)] != 3)
			return -EUCLEAN;
		if (un != NULLAGINO && (un >= maxagino || un < g->inopblock))
			return -EUCLEAN;
	}
	return 0;
}

/*
 * The reference's directory block verifier also checks the entries (and,
 * in a single-block directory, the leaf array that indexes them).  Which
 * data block this is we do not know; the first one starts with ".".
 */
static void dir_entries_check(const struct cursor *c, bool block_form,
			      struct fs_findings *fl)
{
	struct dir_blk b;
	struct dir_data_info info;
	struct fs_findings local;
	size_t i, bad = 0;
	const uint8_t *first = cur_obj(c) + sizeof(struct xfs_dir3_data_hdr);

	memset(&b, 0, sizeof(b));
	b.g = &db.fs->geo;
	b.ci = sb_has_asciici(&db.fs->sb);
	b.ino = NULLFSINO;
	b.daddr = c->bb;
	b.data = cur_obj(c);
	b.dablk = block_form || (load_be16(first) != XFS_DIR2_DATA_FREE_TAG &&
				 first[8] == 1 && first[9] == '.') ? 0 : 1;
	memset(&info, 0, sizeof(info));
	findings_init(&local);
	if (block_form)
		dir3_block_check(&b, NULL, NULL, &local, &info);
	else
		dir3_data_check(&b, false, NULL, NULL, &local, &info);
	/* what the reference does not look at: the names themselves */
	for (i = 0; i < local.n; i++) {
		enum fs_problem p = local.v[i].code;

		if (p != PR_DIR_BAD_NAME && p != PR_DIR_DUP_NAME &&
		    p != PR_DIR_BAD_DOT && p != PR_DIR_BAD_DOTDOT)
			bad++;
	}
	findings_free(&local);
	if (bad)
		fs_report(fl, PR_DIR_BAD_FREE, NULL, NULL);
}

/* Would the reference's write verifier accept the top buffer? */
static int verify_top(const struct buf_ops *ops)
{
	struct cursor *c = cur_top();
	struct fs_findings fl;
	struct fs_buf tmp;
	int err = 0;

	if (c->typ == typ_inode)
		return inode_buf_check(c);
	if (!ops || !ops->verify)
		return 0;
	if (ops == &sb_buf_ops && c->len >= 4 &&
	    load_be32(c->buf) != XFS_SB_MAGIC)
		return -EINVAL;		/* "wrong filesystem" */
	memset(&tmp, 0, sizeof(tmp));
	tmp.daddr = c->bb;
	tmp.len = c->blen * BBSIZE;
	tmp.data = c->buf;
	findings_init(&fl);
	ops->verify(db.fs, &tmp, &fl);
	if (!fl.nerrors && (ops == &dir3_block_buf_ops ||
			    ops == &dir3_data_buf_ops) &&
	    c->len >= db.fs->geo.dirblksize)
		dir_entries_check(c, ops == &dir3_block_buf_ops, &fl);
	if (fl.nerrors)
		err = -EUCLEAN;
	findings_free(&fl);
	return err;
}

enum wmode { W_VERIFY, W_NOVERIFY, W_NOCRC };

/*
 * Put the changed top buffer on disk as mode says; on a refusal, say so
 * and show the disk's contents again.
 */
static void write_back(enum wmode mode, const struct buf_ops *ops)
{
	int err;

	if (mode == W_VERIFY) {
		cur_recalc_crc(cur_top());
		err = verify_top(ops);
		if (err) {
			dbprintf("write error: %s\n", strerror(-err));
			cur_reread();
			return;
		}
	}
	err = cur_write(mode != W_NOCRC);
	if (err)
		dbprintf("write error: %s\n", strerror(-err));
}

/* ---- struct mode ---- */

/* The next hex digit of *s, skipping dashes (UUID style); -1 if none. */
static int hex_digit(const char **s)
{
	int c;

	while (**s == '-')
		(*s)++;
	c = tolower((unsigned char)**s);
	if (!isxdigit(c))
		return -1;
	(*s)++;
	return isdigit(c) ? c - '0' : c - 'a' + 10;
}

/* Where a field's selected elements start (bit), and their total bits. */
static uint64_t field_span(const struct fexpr *e, uint64_t *bit)
{
	uint64_t nbits = 0, b;
	unsigned s;

	elem_pos(e, e->low, bit, &s);
	for (int i = e->low; i <= e->high; i++) {
		elem_pos(e, i, &b, &s);
		nbits += s;
	}
	return nbits;
}

/*
 * A value for a region of nbits bits, as the reference reads it:
 *   "text     the bytes of the text (\ooo: an octal byte), zero-filled;
 *             the closing quote may be left out;
 *   #hex, or anything with a '-' not at the start (UUIDs): hex digit
 *             pairs, hyphens anywhere, at most the region's bytes;
 *   a number  (strtoll, base prefixes) that must fit in nbits.
 * Bytes go to out (cap bytes, zeroed first) and are written from the
 * region's first bit; a number is returned in *num with *isnum set.
 */
static bool convert_value(const char *arg, uint64_t nbits, uint8_t *out,
			  size_t cap, bool *isnum, uint64_t *num)
{
	size_t n = 0;

	memset(out, 0, cap);
	*isnum = false;
	if (arg[0] == '"') {
		const char *s = arg + 1, *end = strrchr(s, '"');

		if (!end)
			end = s + strlen(s);
		while (s < end && n < cap) {
			if (s[0] == '\\' && s[1] >= '0' && s[1] <= '7') {
				unsigned v = 0, k;

				for (k = 1; k <= 3 && s + k < end &&
				     s[k] >= '0' && s[k] <= '7'; k++)
					v = v * 8 + (unsigned)(s[k] - '0');
				out[n++] = (uint8_t)v;
				s += k;
			} else {
				out[n++] = (uint8_t)*s++;
			}
		}
		return true;
	}
	if (arg[0] == '#' || (arg[0] != '-' && strchr(arg, '-'))) {
		const char *s = arg + (arg[0] == '#');
		long bytes;

		if (nbits % 8)
			return false;
		bytes = (long)(nbits / 8);
		while (*s && bytes--) {
			int hi = hex_digit(&s), lo = hi < 0 ? -1 : hex_digit(&s);

			if (lo < 0)
				return false;
			if (n < cap)
				out[n++] = (uint8_t)(hi << 4 | lo);
		}
		if (bytes < 0 && *s)
			return false;
		return true;
	}
	{
		char *end;
		uint64_t v = (uint64_t)strtoll(arg, &end, 0);

		if (*end)
			return false;
		if (nbits < 64 && (v >> nbits))
			return false;
		*isnum = true;
		*num = v;
	}
	return true;
}

/* Write the value text over elements [low, high] of the field. */
static int set_field(const struct fexpr *e, const char *val)
{
	uint64_t bit, nbits = 0, num, k;
	uint8_t *buf;
	size_t cap;
	bool isnum;

	nbits = field_span(e, &bit);
	if (nbits > (uint64_t)objlen() * 8)
		nbits = (uint64_t)objlen() * 8;
	cap = nbits <= 64 ? 8 : (size_t)((nbits + 7) / 8);
	buf = malloc(cap);
	if (!buf)
		return -1;
	if (!convert_value(val, nbits, buf, cap, &isnum, &num)) {
		dbprintf("unable to convert value '%s'.\n", val);
		free(buf);
		return -1;
	}
	if (isnum && nbits <= 64) {
		bits_set(obj(), objlen(), bit, (unsigned)nbits, num);
	} else if (isnum) {
		/* a number into a longer region: right-aligned (see DIFFERENCES.md) */
		for (k = 0; k + 64 < nbits; k += 8)
			bits_set(obj(), objlen(), bit + k, 8, 0);
		bits_set(obj(), objlen(), bit + nbits - 64, 64, num);
	} else {
		for (k = 0; k < nbits; k += 8) {
			unsigned w = nbits - k < 8 ? (unsigned)(nbits - k) : 8;

			bits_set(obj(), objlen(), bit + k, w,
				 buf[k / 8] >> (8 - w));
		}
	}
	free(buf);
	return 0;
}

/* ---- data mode ---- */

/*
 * The reference's data-mode subcommands: a name matches when it equals
 * the command, is a prefix of at least sig characters, or starts with
 * the whole command name.
 */
enum bw_op { BW_LSHIFT, BW_RSHIFT, BW_LROT, BW_RROT, BW_SEQ, BW_RANDOM,
	     BW_FILL };

static const struct bw_cmd {
	const char	*name;
	enum bw_op	op;
	int		sig, argmin, argmax;
	int		shift_arg, from_arg, to_arg, start_arg, len_arg;
	const char	*usage;
} bw_cmds[] = {
	{ "lshift", BW_LSHIFT, 2, 0, 3, 1, 0, 0, 2, 3,
	  "[shiftcount] [start] [len]" },
	{ "rshift", BW_RSHIFT, 2, 0, 3, 1, 0, 0, 2, 3,
	  "[shiftcount] [start] [len]" },
	{ "lrot", BW_LROT, 2, 0, 3, 1, 0, 0, 2, 3,
	  "[shiftcount] [start] [len]" },
	{ "rrot", BW_RROT, 2, 0, 3, 1, 0, 0, 2, 3,
	  "[shiftcount] [start] [len]" },
	{ "sequence", BW_SEQ, 3, 0, 4, 0, 1, 2, 3, 4,
	  "[from] [to] [start] [len]" },
	{ "random", BW_RANDOM, 3, 0, 2, 0, 0, 0, 1, 2, "[start] [len]" },
	{ "fill", BW_FILL, 1, 1, 3, 1, 0, 0, 2, 3, "num [start] [len]" },
};
#define NBW_CMDS	(sizeof(bw_cmds) / sizeof(bw_cmds[0]))

static bool bw_match(const char *arg, const char *name, int sig)
{
	int same = 0;

	while (*arg == *name) {
		if (!*arg)
			return true;
		arg++;
		name++;
		same++;
	}
	if (*arg && *name)
		return false;
	return same >= sig;
}

static void bw_usage(void)
{
	unsigned i;

	dbprintf("usage: write (in data mode)\n");
	for (i = 0; i < NBW_CMDS; i++)
		dbprintf("              %-9.9s %s\n", bw_cmds[i].name,
			 bw_cmds[i].usage);
	dbprintf("\n");
}

static unsigned long bw_rand(void)
{
	static bool seeded;

	if (!seeded) {
		srand48((long)time(NULL) ^ (long)getpid());
		seeded = true;
	}
	return (unsigned long)lrand48();
}

/*
 * Apply one subcommand to bytes [start, start + len) of the buffer.  The
 * reference warns (without a newline) when the range runs past the end
 * and then writes past it; we warn the same way and stay inside.
 */
static void bw_apply(const struct bw_cmd *cmd, long start, long len,
		     long shift, long from, long to)
{
	uint8_t *data = obj();
	long size = (long)objlen(), i;
	uint8_t *base, *hold;

	if (start == -1)
		start = 0;
	if (len == -1)
		len = size - start;
	if (len + start > size)
		dbprintf("length (%d) too large for data block size (%d)",
			 (int)len, (int)size);
	if (start < 0 || start >= size || len <= 0)
		return;
	if (len > size - start)
		len = size - start;
	base = data + start;
	switch (cmd->op) {
	case BW_LSHIFT:
	case BW_RSHIFT:
	case BW_LROT:
	case BW_RROT:
		if (shift == -1)
			shift = 1;
		if (shift < 0 || shift > len)
			shift = len;
		hold = malloc((size_t)shift + 1);
		if (!hold)
			return;
		if (cmd->op == BW_LSHIFT || cmd->op == BW_LROT) {
			memcpy(hold, base, (size_t)shift);
			memmove(base, base + shift, (size_t)(len - shift));
			if (cmd->op == BW_LSHIFT)
				memset(base + len - shift, 0, (size_t)shift);
			else
				memcpy(base + len - shift, hold, (size_t)shift);
		} else {
			memcpy(hold, base + len - shift, (size_t)shift);
			memmove(base + shift, base, (size_t)(len - shift));
			if (cmd->op == BW_RSHIFT)
				memset(base, 0, (size_t)shift);
			else
				memcpy(base, hold, (size_t)shift);
		}
		free(hold);
		break;
	case BW_SEQ: {
		long lo, hi, range, step = shift, t = 0;

		if (from == -1 || from > 255)
			from = 0;
		if (to == -1 || to > 255)
			to = 255;
		if (step == -1)
			step = 1;
		lo = from;
		hi = to;
		if (from > to) {
			lo = to;
			hi = from;
			if (step > 0)
				step = -step;
		}
		range = hi - lo;
		for (i = 0; i < len; i++) {
			base[i] = (uint8_t)(t + lo);
			t = (t + step) % (range + 1);
		}
		break;
	}
	case BW_RANDOM:
		for (i = 0; i < len; i++)
			base[i] = (uint8_t)bw_rand();
		break;
	case BW_FILL:
		memset(base, shift == -1 ? 0 : (int)(shift & 0xff),
		       (size_t)len);
		break;
	}
}

static void write_data(int argc, char **argv, enum wmode mode)
{
	const struct bw_cmd *cmd = NULL;
	long shift = -1, start = -1, len = -1, from = -1, to = -1;
	unsigned i;

	if (argc <= 1 || argc > 5) {
		bw_usage();
		return;
	}
	for (i = 0; i < NBW_CMDS; i++)
		if (bw_match(argv[0], bw_cmds[i].name, bw_cmds[i].sig)) {
			cmd = &bw_cmds[i];
			break;
		}
	if (!cmd) {
		dbprintf("write: invalid subcommand\n");
		bw_usage();
		return;
	}
	if (argc < cmd->argmin + 1 || argc > cmd->argmax + 1) {
		dbprintf("write %s: invalid number of arguments\n", cmd->name);
		bw_usage();
		return;
	}
#define ARG(n)	((long)(int)strtoul(argv[n], NULL, 0))
	if (cmd->shift_arg && cmd->shift_arg < argc)
		shift = ARG(cmd->shift_arg);
	if (cmd->start_arg && cmd->start_arg < argc)
		start = ARG(cmd->start_arg);
	if (cmd->len_arg && cmd->len_arg < argc)
		len = ARG(cmd->len_arg);
	/* from and to count only when every argument is given, as there */
	if (cmd->from_arg && cmd->len_arg < argc)
		from = ARG(cmd->from_arg);
	if (cmd->to_arg && cmd->len_arg < argc)
		to = ARG(cmd->to_arg);
#undef ARG
	bw_apply(cmd, start, len, shift, from, to);
	write_back(mode, NULL);
}

/* ---- write and fuzz: the common front ---- */

/*
 * Options and the checks both commands make before touching anything.
 * Returns the mode, or -1 when a message has been printed and there is
 * nothing to do.
 */
static int write_front(int *argc, char ***argv, const char *verb)
{
	const struct cursor *c = cur_top();
	bool nocrc = false, corrupt = false;
	int ch;

	if (!c->typ) {
		dbprintf("no current type\n");
		return -1;
	}
	optind = 0;
	while ((ch = getopt(*argc, *argv, "cd")) != -1) {
		switch (ch) {
		case 'c':
			nocrc = true;
			break;
		case 'd':
			corrupt = true;
			break;
		default:
			dbprintf("bad option for %s command\n", verb);
			return -1;
		}
	}
	if (nocrc && corrupt) {
		dbprintf("Cannot specify both -c and -d options\n");
		return -1;
	}
	if (corrupt && c->typ->crc_off == FLD_NO_CRC && c->typ != typ_dir3 &&
	    c->typ != typ_attr3) {
		dbprintf("Cannot recalculate CRCs on this type of object\n");
		return -1;
	}
	*argc -= optind;
	*argv += optind;
	if (!(nocrc || corrupt))
		return W_VERIFY;
	if (!has_verifier(c))
		return W_VERIFY;	/* no verifier to step around */
	if (nocrc)
		dbprintf("Allowing %s of corrupted data and bad CRC\n", verb);
	else
		dbprintf("Allowing %s of corrupted data with good CRC\n", verb);
	return nocrc ? W_NOCRC : W_NOVERIFY;
}

static int write_f(int argc, char **argv)
{
	const struct buf_ops *ops;
	struct fexpr e;
	int mode;

	if (!writable("writing"))
		return 0;
	mode = write_front(&argc, &argv, "write");
	if (mode < 0)
		return 0;
	if (is_text(cur_top())) {
		dbprintf("text writing/fuzzing not supported.\n");
		return 0;
	}
	if (!cur_top()->buf)
		return 0;
	if (is_data(cur_top())) {
		write_data(argc, argv, (enum wmode)mode);
		return 0;
	}
	if (argc != 2) {
		dbprintf("usage: write fieldname value\n");
		return 0;
	}
	if (fexpr_parse(argv[0], &e, false)) {
		dbprintf("parsing error\n");
		return 0;
	}
	ops = write_ops(cur_top());
	if (set_field(&e, argv[1]))
		return 0;
	write_back((enum wmode)mode, ops);
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

	/* the whole field, all elements, as one bit string */
	nbits = field_span(e, &bit);
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
	const struct buf_ops *ops;
	struct fexpr e;
	int mode;

	if (!writable("fuzzing"))
		return 0;
	mode = write_front(&argc, &argv, "fuzz");
	if (mode < 0)
		return 0;
	if (is_text(cur_top())) {
		dbprintf("text writing/fuzzing not supported.\n");
		return 0;
	}
	if (!cur_top()->buf)
		return 0;
	if (is_data(cur_top())) {
		dbprintf("use 'blocktrash' or 'write' to fuzz a block.\n");
		return 0;
	}
	if (argc != 2) {
		fuzz_usage();
		return 0;
	}
	if (fexpr_parse(argv[0], &e, false)) {
		dbprintf("parsing error\n");
		return 0;
	}
	ops = write_ops(cur_top());
	if (fuzz_field(&e, argv[1]))
		return 0;
	write_back((enum wmode)mode, ops);
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
