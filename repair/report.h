/*
 * What xfs_repair prints, and how a finding becomes a message.
 *
 * Every problem the checker reports has a problem code (libfs/problems/
 * *.def; repair's own in repair.def).  The message catalogue
 * (repair/messages.def) gives, per code (or per code and field), the
 * reference's wording as a
 * template whose %{name} fields are filled from the finding:
 *
 *   %{ino} %{agno} %{agbno} %{daddr} %{index} %{found} %{expected}
 *   %{v2} %{v3}        numbers, decimal; %{found:x} hex, %{found:d} signed,
 *                      %{found:i} its low 32 bits signed (C's %d of an int),
 *                      %{found:#} as C's %#x, %{found:b} a signed char
 *                      in hex, %{found:t} a mode's file type as C's %#o
 *   %{field} %{s1}     strings (the finding's field, a name)
 *   %{fork}            "data" or "attr" from the finding's field
 *
 * A code without a template prints libfs's own wording.  Whether a
 * message marks the filesystem as damaged follows the code's severity
 * (SEV_INFO does not), which is what decides the exit code under -n.
 *
 * All messages go to stderr, as the reference's do_warn/do_log do.  The
 * phases that work on AGs in parallel write each AG's messages to its own
 * struct rp_out, and rp_seq prints the buffers in AG order, so the output
 * does not depend on thread timing.
 *
 * If the environment names a file in XFSKIT_REPAIR_FINDINGS, every
 * finding is also written there, one line each, in libfs's format ending
 * with the code ("... [INODE_BAD_NLINK]"), for tests to name what was
 * found.
 */
#ifndef XK_REPAIR_REPORT_H
#define XK_REPAIR_REPORT_H

#include <stdarg.h>
#include <stdatomic.h>
#include <pthread.h>
#include "findings.h"
#include "geom.h"

/* A message buffer: one AG's output in a parallel phase. */
struct rp_out {
	char		*buf;
	size_t		len, cap;
};

struct rp_report {
	pthread_mutex_t		lock;
	atomic_bool		dirty;		/* a problem was reported */
	atomic_ulong		nproblems;
	FILE			*codes;		/* XFSKIT_REPAIR_FINDINGS */
	const struct fs_geom	*geo;		/* once the sb is known */
	bool			no_modify;
};

extern struct rp_report rp;

void rp_report_init(bool no_modify);
void rp_report_set_geom(const struct fs_geom *geo);
void rp_report_fini(void);

/* Arguments of a catalogue message. */
struct rp_args {
	struct fs_objref	obj;
	uint64_t		agbno;		/* if obj.daddr is -1 */
	uint64_t		found, expected, v2, v3;
	const char		*field;
	const char		*s1, *s2;
	/*
	 * FND_* bits: which of found and expected mean something where a
	 * finding is printed in libfs's words (and in the findings file).
	 * A libfs finding brings its own; repair's messages set both.
	 */
	unsigned		flags;
};

#define RP_ARGS_INIT(t) \
	((struct rp_args){ .obj = OBJREF_INIT(t), .agbno = (uint64_t)-1, \
			   .flags = FND_EXPECTED | FND_FOUND })

/* Plain text: the reference's do_log (no damage implied). */
void rp_log(struct rp_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Text that says the filesystem is damaged: the reference's do_warn. */
void rp_warn(struct rp_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A problem from the catalogue. */
void rp_say(struct rp_out *o, enum fs_problem code, const struct rp_args *a);
/*
 * A finding the reference does not hold against the filesystem where it
 * was made: written to XFSKIT_REPAIR_FINDINGS only, not printed, and the
 * exit code does not count it.
 */
void rp_note(enum fs_problem code, const struct rp_args *a);
/* A finding of a libfs verifier, through the catalogue. */
void rp_finding(struct rp_out *o, const struct fs_finding *f);
/* The same finding kept as a note only (see rp_note). */
void rp_note_finding(const struct fs_finding *f);
/* A libfs finding's object, values and field as message arguments. */
struct rp_args rp_args_of(const struct fs_finding *f);
/* Every finding of a list (in order), then empty the list. */
void rp_findings(struct rp_out *o, struct fs_findings *fl);

/* Expand a template into buf (exposed for the unit test). */
size_t rp_expand(const char *tmpl, const struct rp_args *a,
		 const struct fs_geom *geo, char *buf, size_t len);
/* The template of a code (and field, when one is specific), or NULL. */
const char *rp_template(enum fs_problem code, const char *field);

/* Buffers. */
void rp_out_init(struct rp_out *o);
void rp_out_free(struct rp_out *o);
/* Print and empty the buffer. */
void rp_out_flush(struct rp_out *o);

/*
 * Ordered printing of per-AG buffers: rp_seq_done(s, i) says AG i is
 * finished; every finished buffer from the lowest unprinted one on is
 * printed then.  Thread-safe.
 */
struct rp_seq {
	pthread_mutex_t	lock;
	struct rp_out	*outs;
	bool		*done;
	unsigned	n, next;
};

/*
 * What a thread says, held back: between rp_capture_begin(c) and
 * rp_capture_end(), the calling thread's findings-file lines and its
 * mark on the exit code go to c instead; rp_capture_commit(c) passes
 * them on (and frees c), rp_capture_free(c) drops them.  For work that
 * may be thrown away and done again (phase 3's run of AGs at once).
 */
struct rp_capture {
	struct rp_out	codes;
	bool		dirty;
	unsigned long	nproblems;
};

void rp_capture_begin(struct rp_capture *c);
void rp_capture_end(void);
void rp_capture_commit(struct rp_capture *c);
void rp_capture_free(struct rp_capture *c);

int rp_seq_init(struct rp_seq *s, unsigned n);
void rp_seq_done(struct rp_seq *s, unsigned i);
void rp_seq_fini(struct rp_seq *s);	/* prints whatever is left */

#endif
