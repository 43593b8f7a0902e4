/*
 * Findings: what a verifier or checker saw that is wrong.
 *
 * A finding names the object (its type, AG, block, inode, and an offset or
 * record index where that helps), the field by its xfs_db name, the
 * expected and the found value where they are numbers, and a stable problem
 * code from the catalogue (problems/ *.def).  Checkers append to a findings
 * list and go on; the return value of a function stays 0 or a negative
 * errno.  A list is safe to append to from several threads.
 */
#ifndef XK_FINDINGS_H
#define XK_FINDINGS_H

#include <pthread.h>
#include <stdio.h>
#include "format/types.h"

enum fs_objtype {
	OBJ_NONE = 0,
	OBJ_FS,		/* the filesystem as a whole */
	OBJ_DEV,	/* the device or image */
	OBJ_SB,
	OBJ_AGF,
	OBJ_AGI,
	OBJ_AGFL,
	OBJ_BNOBT,
	OBJ_CNTBT,
	OBJ_INOBT,
	OBJ_FINOBT,
	OBJ_RMAPBT,
	OBJ_REFCBT,
	OBJ_BMBT,
	OBJ_INODE,
	OBJ_DIR,
	OBJ_ATTR,
	OBJ_SYMLINK,
	OBJ_RTBITMAP,
	OBJ_RTSUMMARY,
	OBJ_DQUOT,
	OBJ_LOG,
	OBJ_NTYPES
};

/* Where a finding is.  Unused members hold the NULL* values. */
struct fs_objref {
	enum fs_objtype	type;
	xfs_agnumber_t	agno;
	xfs_daddr_t	daddr;	/* the block, or (xfs_daddr_t)-1 */
	xfs_ino_t	ino;	/* owning inode, or NULLFSINO */
	uint64_t	index;	/* record/entry index or file offset, or -1 */
};

#define OBJREF_INIT(t) \
	((struct fs_objref){ .type = (t), .agno = NULLAGNUMBER, \
			     .daddr = (xfs_daddr_t)-1, .ino = NULLFSINO, \
			     .index = (uint64_t)-1 })

enum fs_severity {
	SEV_ERROR,	/* the filesystem is inconsistent */
	SEV_WARN,	/* legal but suspicious, or fixable without loss */
	SEV_INFO,	/* worth saying; not a problem */
};

enum fs_problem {
	PR_NONE = 0,
#define PROBLEM(code, sev, msg) PR_##code,
#include "problems/all.def"
#undef PROBLEM
	PR_NCODES
};

struct fs_problem_info {
	const char		*name;	/* "SB_BAD_MAGIC" */
	enum fs_severity	sev;
	const char		*msg;	/* untranslated message */
};

const struct fs_problem_info *problem_info(enum fs_problem code);
/* Look a code up by name (tests name what they expect); PR_NONE if none. */
enum fs_problem problem_by_name(const char *name);

#define FND_EXPECTED	(1u << 0)	/* expected is meaningful */
#define FND_FOUND	(1u << 1)	/* found is meaningful */
#define FND_EXTRA	(1u << 2)	/* extra is meaningful */

struct fs_finding {
	enum fs_problem		code;
	unsigned		flags;
	struct fs_objref	obj;
	const char		*field;	/* static string, or NULL */
	uint64_t		expected;
	uint64_t		found;
	uint64_t		extra;	/* a third number some problems carry */
};

struct fs_findings {
	pthread_mutex_t		lock;
	struct fs_finding	*v;
	size_t			n;
	size_t			cap;
	size_t			dropped;	/* past the cap, counted only */
	size_t			limit;		/* 0: default */
	unsigned		nerrors;	/* SEV_ERROR findings */
};

void findings_init(struct fs_findings *fl);
void findings_free(struct fs_findings *fl);
void findings_clear(struct fs_findings *fl);
/*
 * Keep only the first n findings (a caller that compacts the list in
 * place says how many it kept); the error count follows.
 */
void findings_truncate(struct fs_findings *fl, size_t n);
/* Append a copy of a finding (as made, with its flags). */
void findings_add(struct fs_findings *fl, const struct fs_finding *f);
/* Move every finding of src to the end of dst. */
void findings_splice(struct fs_findings *dst, struct fs_findings *src);

/* Record a problem: with no values, with found only, or both. */
void fs_report(struct fs_findings *fl, enum fs_problem code,
	       const struct fs_objref *obj, const char *field);
void fs_report_found(struct fs_findings *fl, enum fs_problem code,
		     const struct fs_objref *obj, const char *field,
		     uint64_t found);
void fs_report_val(struct fs_findings *fl, enum fs_problem code,
		   const struct fs_objref *obj, const char *field,
		   uint64_t expected, uint64_t found);

/*
 * A found value and one more number that places it (an extent: found
 * is its length, extra its start block).
 */
void fs_report_found2(struct fs_findings *fl, enum fs_problem code,
		      const struct fs_objref *obj, const char *field,
		      uint64_t found, uint64_t extra);

/* Does the list hold this code (for tests and callers that branch)? */
bool findings_has(const struct fs_findings *fl, enum fs_problem code);

/* "inode 131 (dir): field core.mode: bad file type: expected 0x4000, found 0" */
int finding_format(const struct fs_finding *f, char *buf, size_t len);
const char *objtype_name(enum fs_objtype t);
void findings_print(FILE *out, const struct fs_findings *fl);

#endif
