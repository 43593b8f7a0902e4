/*
 * xfs_repair: shared state of the phases.
 *
 * The checker runs the reference's seven phases over one struct repair.
 * Phase 1 finds a usable superblock and opens the filesystem; phase 2
 * checks the log, the AG headers and the AG btrees and starts the space
 * map (struct spacemap, spacemap.h); phase 3 checks every inode and adds
 * what each one owns; phase 4 finds blocks claimed twice; phase 5 derives
 * the AG btrees from the space map and compares them with what is on
 * disk; phase 6 walks the namespace; phase 7 checks link counts and the
 * superblock summary counters.  Each phase file says what it reads from
 * this structure and what it leaves in it.
 *
 * Nothing here writes to the filesystem: the device is opened read-only
 * under -n (the only mode this tool implements so far).
 */
#ifndef XK_REPAIR_H
#define XK_REPAIR_H

#include <stdatomic.h>
#include "ag_check.h"
#include "format/dir.h"
#include "fs.h"
#include "inomap.h"
#include "report.h"
#include "spacemap.h"


/* Exit codes of the reference. */
#define RP_EXIT_CLEAN		0
#define RP_EXIT_FOUND		1	/* -n found problems, or a fatal error */
#define RP_EXIT_DIRTY_LOG	2	/* the log must be replayed first */
#define RP_EXIT_CORRECTED	4	/* -e: something was repaired */

/* The reference's default progress interval: 15 minutes. */
#define RP_REPORT_INTERVAL_DEFAULT	(15 * 60)

struct repair_opts {
	const char	*device;
	const char	*logdev;	/* -l */
	const char	*rtdev;		/* -r */
	bool		no_modify;	/* -n */
	bool		isa_file;	/* -f, or detected */
	bool		zap_log;	/* -L */
	bool		dangerously;	/* -d */
	bool		report_corrected; /* -e */
	bool		dumpcore;	/* -D */
	bool		prefetch;	/* not -P */
	int		verbose;	/* -v, repeatable */
	long		max_mem_mb;	/* -m, 0: not given */
	long		report_interval; /* -t, seconds */
	bool		interval_given;
	/* -o */
	bool		assume_xfs;
	bool		force_geo;
	long		ag_stride;
	long		phase2_threads;
	int		bhash;		/* hash buckets; 8 entries each */
	bool		bhash_given;	/* even as 0: skips the sizing */
	bool		noquota;
	/* -c: checked (upgrade.c); writing them is the fixing half's */
	bool		convert_lazy_count;
	int		lazy_count;
	unsigned	conversions;	/* RP_CONV_* bits asked for */
};

#define RP_CONV_INOBTCOUNT	(1u << 0)
#define RP_CONV_BIGTIME		(1u << 1)
#define RP_CONV_NREXT64		(1u << 2)

/*
 * The reference's block states, one per AG block (the numbers it
 * prints).  Phase 2 (freescan.c) sets them as it reads the free space,
 * rmap and refcount btrees, phase 3 adds the AG's metadata it found
 * (p3_meta_prepare) and then each inode's claims, in the order it reads
 * the inodes: an extent or bmbt block on free space, AG metadata or
 * another inode's blocks is said there (claims.c).
 */
enum rp_bstate {
	BS_UNKNOWN	= 0,
	BS_FREE1	= 1,	/* free by one free space tree */
	BS_FREE		= 2,	/* free by both, or on the AGFL */
	BS_INUSE	= 3,	/* claimed by an inode (phase 3) */
	BS_INUSE_FS	= 4,	/* AG headers, internal log */
	BS_MULT		= 5,	/* claimed twice */
	BS_INO		= 6,	/* inode chunks */
	BS_FS_MAP	= 7,	/* an AG btree block */
	BS_INUSE1	= 8,	/* the rmapbt's: file blocks */
	BS_INUSE_FS1	= 9,	/* headers, log */
	BS_INO1		= 10,	/* inode chunks */
	BS_FS_MAP1	= 11,	/* AG btree blocks, AGFL */
	BS_REFC		= 12,	/* refcountbt blocks */
	BS_COW		= 13,	/* CoW staging extents */
};

/* What phase 2 learnt about one AG, for the later phases. */
struct rp_ag {
	struct ag_summary	sum;		/* ag_check()'s counts */
	bool			hdr_bad;	/* AGF/AGI/sb unusable: AG skipped */
	bool			bno_walked, rmap_walked, refc_walked;
	bool			ino_walked, cnt_walked;
	uint64_t		cnt_free;	/* free blocks the cntbt lists */
	uint32_t		cnt_longest;
	/*
	 * The free space trees as the reference counts them (agscan.c):
	 * the records it takes of each, their blocks other than the roots
	 * (bno, cnt and rmap trees), and the AGF's totals to hold them
	 * against.  *_as_ref: our walk of that tree took the records the
	 * reference's takes (phase 2 decides from ag_check's findings);
	 * free_compare: both did, so phase 4 says the blocks only one of
	 * them lists.
	 */
	struct sm_list		free_bno, free_cnt;
	/*
	 * The AG's metadata as phase 2 found it (headers, log, btree
	 * blocks, inode chunks; not the AGFL, which the reference counts
	 * as free), sorted by block for phase 3, which holds each inode's
	 * extents to it as the reference holds them to its block map.
	 */
	struct sm_list		meta;
	/*
	 * The block states (enum rp_bstate) of the reference's replay of
	 * the free space trees (freescan.c), kept where it was made (the
	 * trees were read as the reference reads them), else NULL: then
	 * phase 3 holds extents only to meta, and phase 4 says the rest.
	 * Phase 3 updates it under rp_bstate_lock.
	 */
	uint8_t			*bstate;
	/* with it: a bit per block an inode phase 3 kept claims */
	uint8_t			*bkept;
	uint64_t		nonroot_blocks;
	uint64_t		rmap_nonroot;	/* of them, our rmapbt walk's */
	/*
	 * The rmapbt's blocks as the reference counts them where our walk
	 * passed some over (phase2.c, rmap_count_as_reference): all it
	 * reads, and those not the root; rmap_ref_known if they could be
	 * told.
	 */
	uint64_t		rmap_ref_blocks, rmap_ref_nonroot;
	bool			rmap_ref_known;
	uint32_t		agf_freeblks, agf_longest, agf_btreeblks;
	bool			agf_read;
	bool			bno_as_ref, cnt_as_ref, rmap_as_ref;
	/*
	 * The rmapbt (refcountbt) is one the reference would not compare
	 * with what it observed (phase2.c tree_suspect()): phase 5 says it
	 * would rebuild it instead, for every AG.
	 */
	bool			rmap_suspect, refc_suspect;
	/*
	 * rmap_clean: phase 2 found nothing at all wrong with the rmapbt;
	 * rmap_canonical: its records, in tree order, were already in
	 * sm_normalize()'s canonical form.  Both, and equal to what was
	 * observed: every lookup phase 5 would make finds its record.
	 */
	bool			rmap_clean, rmap_canonical;
	/* the bnobt and cntbt roots the reference takes as the trees'
	   blocks (phase2.c root_taken()), or NULLAGBLOCK */
	xfs_agblock_t		taken_root[2];
	/*
	 * The refcountbt root the reference reads (NULLAGBLOCK: it refuses
	 * it -- magic, a level its verifier refuses -- and reads no block
	 * of the tree, counts none and marks none in use).
	 */
	xfs_agblock_t		taken_refc_root;
	bool			free_compare;
	struct sm_list		disk_rmaps;	/* the rmapbt's records */
	struct sm_refc_list	disk_refcs;	/* the refcountbt's records */
	uint32_t		unlinked[XFS_AGI_UNLINKED_BUCKETS];
	/* for inode discovery (discover.c) */
	xfs_agino_t		*fino_seeds;	/* finobt chunks the inobt lacks */
	size_t			nfino_seeds;
	/*
	 * inobt leaves the reference's read verifier refuses (phase 2): it
	 * takes their records as uncertain inodes, not as chunks, and
	 * phase 3 says so ("found inodes not in the inode allocation
	 * tree"); ino_uncertain: such a leaf held a usable record
	 */
	xfs_daddr_t		*ino_refused;
	size_t			nino_refused;
	bool			ino_uncertain;
	struct fs_findings	deferred;	/* rmapbt inode chunks unexplained */
	/* other AG metadata rmaps no structure explains: said in phase 5 */
	struct fs_findings	stale_rmaps;
	xfs_agino_t		*found;		/* chunks discovery found */
	size_t			nfound, capfound;
};

struct rtmap;

struct repair {
	struct repair_opts	o;
	struct fs		*fs;
	unsigned		nthreads;	/* per-AG workers */
	struct rp_ag		*ags;		/* agcount of them */
	struct spacemap		*smap;		/* observed owners, per AG */
	struct inomap		*imap;		/* every inode seen */
	struct rtmap		*rtmap;		/* realtime claims (rt.c) */
	/* set by the phases */
	bool			bad_ino_btree;	/* phases 6 and 7 skipped (phase2.c
						   sets it from any AG) */
	bool			log_dirty;
	/* phase 3 would clear the root, rt bitmap or summary inode: phase 6
	   would make it again (set from any AG's worker) */
	bool			need_root, need_rbm, need_rsum;
	/* how phase 3 walked the AGs (XFSKIT_REPAIR_STATS says) */
	enum { P3_IN_TURN, P3_AT_ONCE, P3_UNDONE } p3_run;
	bool			root_chunk_made;/* not in AG 0's inobt: phase 3
						   takes the root inode's chunk
						   as the reference does (root,
						   rbm, rsum used, rest free) */
	uint32_t		log_head_cycle, log_head_block;
};

/* phase2.c: does the btree block at daddr fail its checksum (the CRC at
 * crc_off: XFS_BTREE_SBLOCK_CRC_OFF or XFS_BTREE_LBLOCK_CRC_OFF)? */
bool rp_block_crc_bad(struct fs *fs, xfs_daddr_t daddr, size_t crc_off);

/* phase2.c: is an inobt record one the reference takes as uncertain
 * inodes, not a chunk: read from a leaf phase 2 found refused, or one it
 * says is "badly aligned" but does not skip? */
bool rp_ino_rec_refused(const struct repair *r, xfs_agnumber_t agno,
			const struct inobt_irec *irec);

/*
 * The holes of an inode btree record as the reference takes them: one
 * that calls an inode in use a hole ("ir_holemask/ir_free mismatch") it
 * takes whole, every inode there and every block of it an inode block.
 */
static inline uint64_t rp_irec_holes(const struct inobt_irec *irec)
{
	return (irec->holes & ~irec->free) ? 0 : irec->holes;
}

/* logcheck.c: the log is clean, or what to say and do when it is not. */
void rp_check_log(struct repair *r);
/* Remember the LSN of a piece of metadata (libfs tells it through
 * fs->lsn_seen); the highest must be behind the log head
 * (rp_check_max_lsn, at the end of the run). */
void rp_note_lsn(xfs_lsn_t lsn);
void rp_check_max_lsn(struct repair *r);

/* agscan.c: what each AG's headers and trees claim, into the space map. */
void rp_scan_ag_space(struct repair *r, xfs_agnumber_t agno);

/*
 * freescan.c: the records of the free space btrees and of the rmapbt in
 * the reference's words, to o, where they can be read as it reads them
 * (ag_check()'s findings stand for the others).  Returns RP_REPLAY_*
 * bits for the trees said.  said gets the blocks it spoke for in the
 * free space trees (records not taken, runs claimed twice:
 * rp_free_replay_said()).
 */
#define RP_REPLAY_FREE	(1u << 0)
#define RP_REPLAY_RMAP	(1u << 1)
unsigned rp_ag_replay(struct repair *r, xfs_agnumber_t agno, struct rp_out *o,
		      struct sm_list *said);
bool rp_free_replay_said(const struct sm_list *said, uint64_t agbno);

/* rt.c: realtime claims, checked after phase 4. */
struct fs_extents;
void rp_rt_claim(struct repair *r, xfs_ino_t ino, const struct fs_extents *el);
void rp_rt_check(struct repair *r);
void rp_rt_free(struct repair *r);

/*
 * dirdata.c: a directory data block as the reference reads it whole when
 * it looks at it again after its phase 3 -- in phase 4 (a block its
 * verifier refused there) and in phase 6: whether its items parse to the
 * end of the entry region (else the block "would junk block"), and
 * whether its bestfree table holds by the reference's rule (else "bad
 * bestfree table ... would repair table").
 */
struct rp_dblk_words {
	bool		junk;
	bool		badbest;	/* only meaningful when !junk */
	uint32_t	magic;		/* as the block has it */
	/* the first ".." entry met, whatever it names (NULLFSINO: none) */
	xfs_ino_t	dotdot;
	uint8_t		dotdot_ftype;	/* 0 without the ftype feature */
	uint32_t	dotdot_off;	/* its offset in the block */
	xfs_ino_t	first;		/* the first entry's (or NULLFSINO) */
	uint8_t		first_ftype;	/* its file type (0 without the
					   feature, or out of range) */
	xfs_ino_t	dot;		/* the first "." entry's (or NULLFSINO) */
};
void rp_dblk_scan(const struct fs_geom *g, const uint8_t *data,
		  bool block_form, struct rp_dblk_words *w);
/* The same, read through the data fork's extents (0 or a negative errno). */
int rp_dblk_words(struct fs *fs, const struct fs_extents *del,
		  xfs_dablk_t dablk, bool block_form, struct rp_dblk_words *w);
/*
 * Each entry of such a block read whole, up to where its items stop
 * parsing, to fn with its name, the inode number it has (valid or not)
 * and its offset in the block (0 or a negative errno).
 */
typedef void (*rp_dblk_entry_fn)(void *priv, const uint8_t *name,
				 unsigned namelen, xfs_ino_t ino,
				 uint32_t off);
int rp_dblk_entries(struct fs *fs, const struct fs_extents *del,
		    xfs_dablk_t dablk, bool block_form, rp_dblk_entry_fn fn,
		    void *priv);

/*
 * upgrade.c: -c inobtcount/bigtime/nrext64, after phase 2.  May end the
 * run (exit 0: nothing to do; exit 1: the log is too small).
 */
void rp_upgrade(struct repair *r);

/*
 * Whether an entry is a directory's "." to the reference's phases 3 and
 * 6, which know it by the inode it names and where it is, not by its
 * name: in a directory of blocks, the entry first in block 0 if it names
 * the directory (an entry naming it anywhere else is no "."); in short
 * form, the "." that dir_iterate makes up.  A ".." is never one.
 */
static inline bool rp_dot_entry(bool shortform, xfs_ino_t dir,
				const uint8_t *name, unsigned namelen,
				xfs_ino_t ino, xfs_dablk_t dablk, uint32_t off)
{
	if (ino != dir || (namelen == 2 && name[0] == '.' && name[1] == '.'))
		return false;
	if (shortform)
		return namelen == 1 && name[0] == '.';
	return dablk == 0 && off == sizeof(struct xfs_dir3_data_hdr);
}

/*
 * sfdir.c: the entry at byte off of a short-form directory's fork, as its
 * bytes say: its name (NUL-terminated), inode number and file type (0
 * without the feature).  False if it does not fit in the inode.
 */
struct fs_inode;
bool rp_sf_entry_at(const struct fs_geom *g, const struct fs_inode *ip,
		    uint32_t off, char name[256], xfs_ino_t *ino,
		    uint8_t *ftype);

/*
 * An entry of a directory of blocks whose name starts with '/': the
 * reference's mark of an entry it junked (or would have), which its
 * phases 4 and 6 pass over.  Short-form directories have no such mark.
 */
static inline bool rp_entry_marked(bool shortform, const uint8_t *name,
				   unsigned namelen)
{
	return !shortform && namelen && name[0] == '/';
}

/*
 * Whether an entry is one phase 3 keeps an edge of (struct im_edge), in
 * the order the directory's walk gives them: not its "..", not its "."
 * (rp_dot_entry), not one marked junked.  A walk that finds an entry's
 * edge by its place among the entries counts only these.
 */
static inline bool rp_entry_edge(bool shortform, xfs_ino_t dir,
				 const uint8_t *name, unsigned namelen,
				 xfs_ino_t ino, xfs_dablk_t dablk, uint32_t off)
{
	return !(namelen == 2 && name[0] == '.' && name[1] == '.') &&
	       !rp_dot_entry(shortform, dir, name, namelen, ino, dablk, off) &&
	       !rp_entry_marked(shortform, name, namelen);
}

/* Phases (phase1.c ... phase7.c). */
int phase1(struct repair *r);
void phase2(struct repair *r);
void phase3(struct repair *r);
void phase4(struct repair *r);
void phase5(struct repair *r);
void phase6(struct repair *r);
/*
 * phase6.c: "couldn't map inode N" (code: in phase 6 or 7), after the
 * kernel's refusal of a btree root ("corrupt inode N (btree).") and the
 * reason the short-form verifier gave, if it named an inode number.
 */
void rp_say_unmapped(const struct inomap *im, xfs_ino_t ino,
		     enum fs_problem code, struct rp_args *a);
void phase7(struct repair *r);
/* After phase 7: the superblock's quota inodes are inodes in use. */
void rp_quota_check(struct repair *r);

/* Fatal: print and exit 1 (the reference's do_error / do_abort). */
_Noreturn void rp_fatal(struct repair *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
