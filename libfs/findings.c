/*
 * Findings lists and the problem catalogue table.  A list grows until its
 * limit (a hostile image can produce millions of findings); past the limit
 * findings are counted, not stored.
 */
#include "config.h"
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "findings.h"

#define FINDINGS_DEFAULT_LIMIT	(1u << 20)

static const struct fs_problem_info problem_table[PR_NCODES] = {
	[PR_NONE] = { "NONE", SEV_INFO, "no problem" },
#define PROBLEM(code, sev, msg) [PR_##code] = { #code, sev, msg },
#include "problems/all.def"
#undef PROBLEM
};

const struct fs_problem_info *problem_info(enum fs_problem code)
{
	if ((unsigned)code >= PR_NCODES)
		code = PR_NONE;
	return &problem_table[code];
}

enum fs_problem problem_by_name(const char *name)
{
	for (unsigned i = 1; i < PR_NCODES; i++)
		if (!strcmp(problem_table[i].name, name))
			return i;
	return PR_NONE;
}

static const char *const objtype_names[OBJ_NTYPES] = {
	[OBJ_NONE] = "object",
	[OBJ_FS] = "filesystem",
	[OBJ_DEV] = "device",
	[OBJ_SB] = "superblock",
	[OBJ_AGF] = "agf",
	[OBJ_AGI] = "agi",
	[OBJ_AGFL] = "agfl",
	[OBJ_BNOBT] = "bnobt",
	[OBJ_CNTBT] = "cntbt",
	[OBJ_INOBT] = "inobt",
	[OBJ_FINOBT] = "finobt",
	[OBJ_RMAPBT] = "rmapbt",
	[OBJ_REFCBT] = "refcountbt",
	[OBJ_BMBT] = "bmbt",
	[OBJ_INODE] = "inode",
	[OBJ_DIR] = "directory",
	[OBJ_ATTR] = "attr",
	[OBJ_SYMLINK] = "symlink",
	[OBJ_RTBITMAP] = "rtbitmap",
	[OBJ_RTSUMMARY] = "rtsummary",
	[OBJ_DQUOT] = "dquot",
	[OBJ_LOG] = "log",
};

const char *objtype_name(enum fs_objtype t)
{
	if ((unsigned)t >= OBJ_NTYPES)
		t = OBJ_NONE;
	return objtype_names[t];
}

void findings_init(struct fs_findings *fl)
{
	memset(fl, 0, sizeof(*fl));
	pthread_mutex_init(&fl->lock, NULL);
}

void findings_free(struct fs_findings *fl)
{
	free(fl->v);
	pthread_mutex_destroy(&fl->lock);
	memset(fl, 0, sizeof(*fl));
}

void findings_clear(struct fs_findings *fl)
{
	pthread_mutex_lock(&fl->lock);
	fl->n = 0;
	fl->dropped = 0;
	fl->nerrors = 0;
	pthread_mutex_unlock(&fl->lock);
}

void findings_truncate(struct fs_findings *fl, size_t n)
{
	pthread_mutex_lock(&fl->lock);
	if (n < fl->n)
		fl->n = n;
	fl->nerrors = 0;
	for (size_t i = 0; i < fl->n; i++)
		if (problem_info(fl->v[i].code)->sev == SEV_ERROR)
			fl->nerrors++;
	pthread_mutex_unlock(&fl->lock);
}

static void findings_push(struct fs_findings *fl, const struct fs_finding *f)
{
	size_t limit = fl->limit ? fl->limit : FINDINGS_DEFAULT_LIMIT;

	pthread_mutex_lock(&fl->lock);
	if (problem_info(f->code)->sev == SEV_ERROR)
		fl->nerrors++;
	if (fl->n == fl->cap && fl->cap < limit) {
		size_t ncap = fl->cap ? fl->cap * 2 : 16;
		struct fs_finding *nv;

		if (ncap > limit)
			ncap = limit;
		nv = realloc(fl->v, ncap * sizeof(*nv));
		if (nv) {
			fl->v = nv;
			fl->cap = ncap;
		}
	}
	if (fl->n < fl->cap)
		fl->v[fl->n++] = *f;
	else
		fl->dropped++;
	pthread_mutex_unlock(&fl->lock);
}

void findings_add(struct fs_findings *fl, const struct fs_finding *f)
{
	findings_push(fl, f);
}

void findings_splice(struct fs_findings *dst, struct fs_findings *src)
{
	pthread_mutex_lock(&src->lock);
	for (size_t i = 0; i < src->n; i++)
		findings_push(dst, &src->v[i]);
	pthread_mutex_lock(&dst->lock);
	dst->dropped += src->dropped;
	pthread_mutex_unlock(&dst->lock);
	src->n = 0;
	src->dropped = 0;
	src->nerrors = 0;
	pthread_mutex_unlock(&src->lock);
}

static void report(struct fs_findings *fl, enum fs_problem code,
		   const struct fs_objref *obj, const char *field,
		   unsigned flags, uint64_t expected, uint64_t found,
		   uint64_t extra)
{
	struct fs_finding f = {
		.code = code,
		.flags = flags,
		.obj = obj ? *obj : OBJREF_INIT(OBJ_NONE),
		.field = field,
		.expected = expected,
		.found = found,
		.extra = extra,
	};

	if (fl)
		findings_push(fl, &f);
}

void fs_report(struct fs_findings *fl, enum fs_problem code,
	       const struct fs_objref *obj, const char *field)
{
	report(fl, code, obj, field, 0, 0, 0, 0);
}

void fs_report_found(struct fs_findings *fl, enum fs_problem code,
		     const struct fs_objref *obj, const char *field,
		     uint64_t found)
{
	report(fl, code, obj, field, FND_FOUND, 0, found, 0);
}

void fs_report_val(struct fs_findings *fl, enum fs_problem code,
		   const struct fs_objref *obj, const char *field,
		   uint64_t expected, uint64_t found)
{
	report(fl, code, obj, field, FND_EXPECTED | FND_FOUND, expected, found,
	       0);
}

void fs_report_found2(struct fs_findings *fl, enum fs_problem code,
		      const struct fs_objref *obj, const char *field,
		      uint64_t found, uint64_t extra)
{
	report(fl, code, obj, field, FND_FOUND | FND_EXTRA, 0, found, extra);
}

bool findings_has(const struct fs_findings *fl, enum fs_problem code)
{
	for (size_t i = 0; i < fl->n; i++)
		if (fl->v[i].code == code)
			return true;
	return false;
}

int finding_format(const struct fs_finding *f, char *buf, size_t len)
{
	const struct fs_objref *o = &f->obj;
	size_t n = 0;

#define OUT(...) do { \
		int r_ = snprintf(buf + n, n < len ? len - n : 0, __VA_ARGS__); \
		if (r_ > 0) \
			n += r_; \
	} while (0)

	OUT("%s", objtype_name(o->type));
	if (o->ino != NULLFSINO)
		OUT(" ino %" PRIu64, o->ino);
	if (o->agno != NULLAGNUMBER)
		OUT(" ag %u", o->agno);
	if (o->daddr != (xfs_daddr_t)-1)
		OUT(" daddr %" PRIu64, o->daddr);
	if (o->index != (uint64_t)-1)
		OUT(" [%" PRIu64 "]", o->index);
	OUT(": %s", problem_info(f->code)->msg);
	if (f->field)
		OUT(" (%s", f->field);
	if (f->flags & FND_EXPECTED)
		OUT("%sexpected %#" PRIx64, f->field ? ": " : " (",
		    f->expected);
	if (f->flags & FND_FOUND)
		OUT("%sfound %#" PRIx64,
		    (f->flags & FND_EXPECTED) ? ", " : (f->field ? ": " : " ("),
		    f->found);
	if (f->flags & FND_EXTRA)
		OUT(", with %#" PRIx64, f->extra);
	if (f->field || (f->flags & (FND_EXPECTED | FND_FOUND)))
		OUT(")");
	OUT(" [%s]", problem_info(f->code)->name);
#undef OUT
	return (int)n;
}

void findings_print(FILE *out, const struct fs_findings *fl)
{
	char line[512];

	for (size_t i = 0; i < fl->n; i++) {
		finding_format(&fl->v[i], line, sizeof(line));
		fprintf(out, "%s\n", line);
	}
	if (fl->dropped)
		fprintf(out, "... and %zu more findings not kept\n", fl->dropped);
}
