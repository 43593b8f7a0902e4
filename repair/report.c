/*
 * Message output and the message catalogue (see report.h).
 *
 * What goes in: problem codes with their arguments, libfs findings, plain
 * text.  What comes out: text on stderr in the reference's wording, the
 * "dirty" flag that decides the exit code, and optionally one
 * machine-readable line per problem in XFSKIT_REPAIR_FINDINGS.  What stays
 * true: a message is printed whole (never interleaved with another
 * thread's), and buffered AG output appears in AG order.
 */
#include "config.h"
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"

struct rp_report rp;

static const char *const templates[PR_NCODES] = {
#define MSG(code, tmpl) [PR_##code] = tmpl,
#define MSGF(code, field, tmpl)
#define QUIET(code)
#include "messages.def"
#undef MSG
#undef MSGF
#undef QUIET
};

/* Codes repair notes but does not hold against the filesystem. */
static const bool quiet[PR_NCODES] = {
#define MSG(code, tmpl)
#define MSGF(code, field, tmpl)
#define QUIET(code) [PR_##code] = true,
#include "messages.def"
#undef MSG
#undef MSGF
#undef QUIET
};

/* Templates that depend on the finding's field as well as its code. */
static const struct {
	enum fs_problem	code;
	const char	*field;
	const char	*tmpl;
} field_templates[] = {
#define MSG(code, tmpl)
#define MSGF(code, field, tmpl) { PR_##code, field, tmpl },
#define QUIET(code)
#include "messages.def"
#undef MSG
#undef MSGF
#undef QUIET
};

const char *rp_template(enum fs_problem code, const char *field)
{
	if ((unsigned)code >= PR_NCODES)
		return NULL;
	if (field)
		for (size_t i = 0; i < sizeof(field_templates) /
				       sizeof(field_templates[0]); i++)
			if (field_templates[i].code == code &&
			    !strcmp(field_templates[i].field, field))
				return field_templates[i].tmpl;
	return templates[code];
}

void rp_report_init(bool no_modify)
{
	const char *path = getenv("XFSKIT_REPAIR_FINDINGS");

	memset(&rp, 0, sizeof(rp));
	pthread_mutex_init(&rp.lock, NULL);
	rp.no_modify = no_modify;
	if (path && *path) {
		rp.codes = fopen(path, "w");
		if (!rp.codes)
			fprintf(stderr, "cannot open %s: %s\n", path,
				strerror(errno));
	}
}

void rp_report_set_geom(const struct fs_geom *geo)
{
	rp.geo = geo;
}

void rp_report_fini(void)
{
	if (rp.codes)
		fclose(rp.codes);
	rp.codes = NULL;
}

void rp_out_init(struct rp_out *o)
{
	memset(o, 0, sizeof(*o));
}

void rp_out_free(struct rp_out *o)
{
	free(o->buf);
	memset(o, 0, sizeof(*o));
}

static void out_append(struct rp_out *o, const char *s, size_t n)
{
	if (o->len + n + 1 > o->cap) {
		size_t ncap = o->cap ? o->cap * 2 : 1024;
		char *nb;

		while (ncap < o->len + n + 1)
			ncap *= 2;
		nb = realloc(o->buf, ncap);
		if (!nb)
			return;		/* drop the message, keep going */
		o->buf = nb;
		o->cap = ncap;
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
	o->buf[o->len] = '\0';
}

/* Write text to o, or straight to stderr when o is NULL. */
static void emit(struct rp_out *o, const char *s, size_t n)
{
	if (o) {
		out_append(o, s, n);
		return;
	}
	pthread_mutex_lock(&rp.lock);
	fwrite(s, 1, n, stderr);
	fflush(stderr);
	pthread_mutex_unlock(&rp.lock);
}

void rp_out_flush(struct rp_out *o)
{
	if (!o->len)
		return;
	emit(NULL, o->buf, o->len);
	o->len = 0;
}

/* This thread's capture, if any (rp_capture_begin). */
static __thread struct rp_capture *capture;

void rp_capture_begin(struct rp_capture *c)
{
	capture = c;
}

void rp_capture_end(void)
{
	capture = NULL;
}

void rp_capture_commit(struct rp_capture *c)
{
	if (c->dirty)
		atomic_store(&rp.dirty, true);
	atomic_fetch_add(&rp.nproblems, c->nproblems);
	if (rp.codes && c->codes.len) {
		pthread_mutex_lock(&rp.lock);
		fwrite(c->codes.buf, 1, c->codes.len, rp.codes);
		fflush(rp.codes);
		pthread_mutex_unlock(&rp.lock);
	}
	rp_capture_free(c);
}

void rp_capture_free(struct rp_capture *c)
{
	rp_out_free(&c->codes);
	c->dirty = false;
	c->nproblems = 0;
}

/* A problem was said: the filesystem is damaged. */
static void mark_dirty(bool count)
{
	if (capture) {
		capture->dirty = true;
		capture->nproblems += count;
		return;
	}
	atomic_store(&rp.dirty, true);
	if (count)
		atomic_fetch_add(&rp.nproblems, 1);
}

static void vsay(struct rp_out *o, const char *fmt, va_list ap)
{
	char small[512], *p = small;
	va_list ap2;
	int n;

	va_copy(ap2, ap);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	if (n < 0) {
		va_end(ap2);
		return;
	}
	if ((size_t)n >= sizeof(small)) {
		p = malloc((size_t)n + 1);
		if (!p) {
			va_end(ap2);
			return;
		}
		vsnprintf(p, (size_t)n + 1, fmt, ap2);
	}
	va_end(ap2);
	emit(o, p, (size_t)n);
	if (p != small)
		free(p);
}

void rp_log(struct rp_out *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(o, fmt, ap);
	va_end(ap);
}

void rp_warn(struct rp_out *o, const char *fmt, ...)
{
	va_list ap;

	mark_dirty(false);
	va_start(ap, fmt);
	vsay(o, fmt, ap);
	va_end(ap);
}

/* ---- templates ---- */

struct sbuf {
	char	*p;
	size_t	len, n;
};

static void sb_put(struct sbuf *b, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (b->n + 1 < b->len)
			b->p[b->n] = s[i];
		b->n++;
	}
	if (b->len)
		b->p[b->n < b->len ? b->n : b->len - 1] = '\0';
}

static void sb_num(struct sbuf *b, uint64_t v, char conv)
{
	char tmp[32];
	int n;

	switch (conv) {
	case 'x':
		n = snprintf(tmp, sizeof(tmp), "%" PRIx64, v);
		break;
	case 'b':	/* a byte the reference prints as a signed char: %x */
		n = snprintf(tmp, sizeof(tmp), "%" PRIx32,
			     (uint32_t)(int32_t)(int8_t)(uint8_t)v);
		break;
	case '#':	/* C's %#x: 0, or hex with 0x */
		n = snprintf(tmp, sizeof(tmp), "%#" PRIx64, v);
		break;
	case 't':	/* a mode's file type bits, as C's %#o */
		n = snprintf(tmp, sizeof(tmp), "%#" PRIo64, v & 0170000);
		break;
	case 'd':
		n = snprintf(tmp, sizeof(tmp), "%" PRId64, (int64_t)v);
		break;
	case 'i':	/* a 32-bit field the reference prints as C's %d */
		n = snprintf(tmp, sizeof(tmp), "%" PRId32,
			     (int32_t)(uint32_t)v);
		break;
	default:
		n = snprintf(tmp, sizeof(tmp), "%" PRIu64, v);
		break;
	}
	sb_put(b, tmp, (size_t)n);
}

static uint64_t arg_agbno(const struct rp_args *a, const struct fs_geom *geo)
{
	if (a->agbno != (uint64_t)-1)
		return a->agbno;
	if (geo && a->obj.daddr != (xfs_daddr_t)-1 && geo->agblocks)
		return (a->obj.daddr >> geo->blkbb_log) % geo->agblocks;
	return (uint64_t)-1;
}

static uint64_t arg_agno(const struct rp_args *a, const struct fs_geom *geo)
{
	if (a->obj.agno != NULLAGNUMBER)
		return a->obj.agno;
	if (geo && a->obj.daddr != (xfs_daddr_t)-1 && geo->agblocks)
		return (a->obj.daddr >> geo->blkbb_log) / geo->agblocks;
	if (geo && a->obj.ino != NULLFSINO && geo->agino_log)
		return a->obj.ino >> geo->agino_log;
	return (uint64_t)-1;
}

size_t rp_expand(const char *tmpl, const struct rp_args *a,
		 const struct fs_geom *geo, char *buf, size_t len)
{
	struct sbuf b = { buf, len, 0 };

	if (len)
		buf[0] = '\0';
	while (*tmpl) {
		const char *open = strstr(tmpl, "%{");
		const char *close;
		char name[16];
		char conv = 0;
		size_t nl;

		if (!open) {
			sb_put(&b, tmpl, strlen(tmpl));
			break;
		}
		sb_put(&b, tmpl, (size_t)(open - tmpl));
		close = strchr(open, '}');
		if (!close) {
			sb_put(&b, open, strlen(open));
			break;
		}
		nl = (size_t)(close - open - 2);
		if (nl >= sizeof(name))
			nl = sizeof(name) - 1;
		memcpy(name, open + 2, nl);
		name[nl] = '\0';
		{
			char *colon = strchr(name, ':');

			if (colon) {
				conv = colon[1];
				*colon = '\0';
			}
		}
		if (!strcmp(name, "ino"))
			sb_num(&b, a->obj.ino, conv);
		else if (!strcmp(name, "agno"))
			sb_num(&b, arg_agno(a, geo), conv);
		else if (!strcmp(name, "agbno"))
			sb_num(&b, arg_agbno(a, geo), conv);
		else if (!strcmp(name, "daddr"))
			sb_num(&b, a->obj.daddr, conv);
		else if (!strcmp(name, "index"))
			sb_num(&b, a->obj.index, conv);
		else if (!strcmp(name, "found"))
			sb_num(&b, a->found, conv);
		else if (!strcmp(name, "expected"))
			sb_num(&b, a->expected, conv);
		else if (!strcmp(name, "v2"))
			sb_num(&b, a->v2, conv);
		else if (!strcmp(name, "v3"))
			sb_num(&b, a->v3, conv);
		else if (!strcmp(name, "field"))
			sb_put(&b, a->field ? a->field : "",
			       a->field ? strlen(a->field) : 0);
		else if (!strcmp(name, "s1"))
			sb_put(&b, a->s1 ? a->s1 : "", a->s1 ? strlen(a->s1) : 0);
		else if (!strcmp(name, "s2"))
			sb_put(&b, a->s2 ? a->s2 : "", a->s2 ? strlen(a->s2) : 0);
		else
			sb_put(&b, open, (size_t)(close - open + 1));
		tmpl = close + 1;
	}
	return b.n;
}

/* The machine-readable line of one problem. */
static void log_code(enum fs_problem code, const struct rp_args *a)
{
	struct fs_finding f = {
		.code = code,
		.flags = a->flags,
		.obj = a->obj,
		.field = a->field,
		.expected = a->expected,
		.found = a->found,
	};
	char line[512];

	if (!rp.codes)
		return;
	finding_format(&f, line, sizeof(line));
	if (capture) {
		out_append(&capture->codes, line, strlen(line));
		out_append(&capture->codes, "\n", 1);
		return;
	}
	pthread_mutex_lock(&rp.lock);
	fprintf(rp.codes, "%s\n", line);
	fflush(rp.codes);
	pthread_mutex_unlock(&rp.lock);
}

void rp_say(struct rp_out *o, enum fs_problem code, const struct rp_args *a)
{
	const char *tmpl = rp_template(code, a->field);
	char small[512], *p = small;
	size_t n;

	if ((unsigned)code < PR_NCODES && quiet[code]) {
		log_code(code, a);
		return;
	}
	if (problem_info(code)->sev != SEV_INFO)
		mark_dirty(true);
	log_code(code, a);
	if (!tmpl) {
		/* libfs's own words, with the object named */
		struct fs_finding f = {
			.code = code,
			.obj = a->obj,
			.field = a->field,
			.expected = a->expected,
			.found = a->found,
			.flags = a->flags,
		};

		n = (size_t)finding_format(&f, small, sizeof(small) - 1);
		if (n > sizeof(small) - 2)
			n = sizeof(small) - 2;
		small[n++] = '\n';
		emit(o, small, n);
		return;
	}
	n = rp_expand(tmpl, a, rp.geo, small, sizeof(small));
	if (n >= sizeof(small)) {
		p = malloc(n + 1);
		if (!p)
			return;
		rp_expand(tmpl, a, rp.geo, p, n + 1);
	}
	emit(o, p, n);
	if (p != small)
		free(p);
}

void rp_note(enum fs_problem code, const struct rp_args *a)
{
	log_code(code, a);
}

struct rp_args rp_args_of(const struct fs_finding *f)
{
	struct rp_args a = RP_ARGS_INIT(OBJ_NONE);

	a.obj = f->obj;
	a.found = f->found;
	a.expected = f->expected;
	a.v2 = f->extra;
	a.field = f->field;
	a.flags = f->flags;
	return a;
}

void rp_finding(struct rp_out *o, const struct fs_finding *f)
{
	struct rp_args a = rp_args_of(f);

	rp_say(o, f->code, &a);
}

void rp_note_finding(const struct fs_finding *f)
{
	struct rp_args a = rp_args_of(f);

	rp_note(f->code, &a);
}

void rp_findings(struct rp_out *o, struct fs_findings *fl)
{
	pthread_mutex_lock(&fl->lock);
	for (size_t i = 0; i < fl->n; i++)
		rp_finding(o, &fl->v[i]);
	fl->n = 0;
	fl->nerrors = 0;
	fl->dropped = 0;
	pthread_mutex_unlock(&fl->lock);
}

/* ---- ordered per-AG output ---- */

int rp_seq_init(struct rp_seq *s, unsigned n)
{
	memset(s, 0, sizeof(*s));
	pthread_mutex_init(&s->lock, NULL);
	s->n = n;
	s->outs = calloc(n ? n : 1, sizeof(*s->outs));
	s->done = calloc(n ? n : 1, sizeof(*s->done));
	if (!s->outs || !s->done) {
		free(s->outs);
		free(s->done);
		return -ENOMEM;
	}
	return 0;
}

void rp_seq_done(struct rp_seq *s, unsigned i)
{
	pthread_mutex_lock(&s->lock);
	if (i < s->n)
		s->done[i] = true;
	while (s->next < s->n && s->done[s->next]) {
		rp_out_flush(&s->outs[s->next]);
		rp_out_free(&s->outs[s->next]);
		s->next++;
	}
	pthread_mutex_unlock(&s->lock);
}

void rp_seq_fini(struct rp_seq *s)
{
	for (unsigned i = 0; i < s->n; i++) {
		rp_out_flush(&s->outs[i]);
		rp_out_free(&s->outs[i]);
	}
	free(s->outs);
	free(s->done);
	pthread_mutex_destroy(&s->lock);
	memset(s, 0, sizeof(*s));
}
