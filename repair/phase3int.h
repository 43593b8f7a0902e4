/*
 * Phase 3's insides, shared by the files it is split into: phase3.c
 * (the driver and the walk of one inode), claims.c (the blocks an inode
 * claims, against the block states), dircheck.c and dirtree.c (a
 * directory's content) and firstlook.c (free inodes, the first look at
 * a chunk).  No other phase includes it; see phase3.h for what they use.
 */
#ifndef XK_REPAIR_PHASE3INT_H
#define XK_REPAIR_PHASE3INT_H

#include "dir.h"
#include "phase3.h"

/* What a finding costs the inode, in the reference's measure. */
enum verdict {
	V_NOTE,		/* reported; the inode and its forks stay */
	V_ATTR,		/* the attribute fork would be cleared */
	V_INODE,	/* the inode would be cleared */
};

#define P3_DIR_MAXBLK	64	/* data blocks with findings, tracked */

enum dir_verdict {
	DV_KEEP,	/* kept (rebuilt if damaged) */
	DV_CLEAR,	/* cleared: "would have cleared inode" */
};

/* phase3.c */

/* Say a finding about the inode being checked, in field's words. */
void say_ino_as(struct p3ag *c, enum fs_problem code,
		const char *field, uint64_t found, uint64_t expected);
/* Say a finding about the inode being checked. */
void say_ino(struct p3ag *c, enum fs_problem code, uint64_t found,
	     uint64_t expected);
/* What a finding of fork_extents (the map, its bmbt) costs the inode. */
enum verdict fork_verdict(const struct fs_finding *f, bool attr);
/* Say and drop the findings gathered, judged by judge: worst verdict. */
enum verdict p3_flush(struct p3ag *c, uint16_t mode,
		   enum verdict (*judge)(const struct fs_finding *, bool),
		   bool attr);

/* claims.c */

/* Pass the batched claims to the space map. */
void flush_claims(struct p3ag *c);
/* Batch a claim of len blocks at fsb for owner, offset (rmap flags). */
void claim_as(struct p3ag *c, xfs_fsblock_t fsb, uint64_t len,
	      uint64_t owner, uint64_t offset);
/* Claim an extent for the inode being checked, of its data or attr fork. */
void claim_extent(struct p3ag *c, const struct xfs_bmbt_irec *e, bool attr);
/* Would the reference's second look take the first n extents of el? */
bool second_look_takes(struct p3ag *c, const struct fs_extents *el, size_t n);
/* The inode is kept: its blocks are held by the second looks after it. */
void mark_kept(struct p3ag *c);
/* The first finding after the walk's claims held against the fork. */
const struct fs_finding *walk_next_held(const struct p3ag *c);
/* Hold the walk's bmbt blocks and records to the block states: kept. */
size_t walk_claims(struct p3ag *c, const struct fs_extents *el,
		   size_t n, bool rt);
/* Each AG's metadata into its block states, as sorted disjoint runs. */
void p3_meta_prepare(struct repair *r);
/* Start following the reference's walk of a fork mapped into el. */
void walk_begin(struct p3ag *c, const struct fs_extents *el);
/* The extents of el the walk claimed: how many, from the start. */
size_t walk_end(struct p3ag *c, const struct fs_extents *el);
/* Claim a bmbt block of the fork being mapped (fork_extents callback). */
int claim_bmbt(xfs_fsblock_t fsb, unsigned level, void *priv);
/* Claim the forks of an inode kept with a bad magic number. */
bool claim_kept_forks(struct p3ag *c, const void *raw, struct fs_extents *del);
/* Clear regular files whose bmbt block an extent read later claimed. */
void p3_late_dups(struct repair *r);
/*
 * Run the AGs' walks at once as if in turn: start tagging the blocks
 * each AG looks at (false: cannot, run them in turn).  p3_spec_end()
 * stops, undoes the block states' changes if undo, and says whether two
 * AGs looked at one block (then the run is not what a run in turn
 * gives).
 */
bool p3_spec_begin(struct repair *r);
bool p3_spec_end(struct repair *r, bool undo);
bool p3_spec_conflict(void);

/* dircheck.c */

/* A directory of blocks whose size costs the inode (said if so). */
bool dir_size_bad(struct p3ag *c, const struct fs_inode *ip);
/* Keep the findings keep() picks as notes, dropped from the list. */
void keep_notes(struct p3ag *c,
		bool (*keep)(const struct fs_finding *, void *),
		void *priv);
/* A directory's content, said in the reference's words; its verdict. */
enum dir_verdict check_dir(struct p3ag *c, struct im_chunk *ch,
			   unsigned bit, const struct fs_inode *ip,
			   const struct fs_extents *del);

/* dirtree.c */

/* Say a leaf or node directory's leaf and free space: rebuilt? */
bool dir_tree_words(struct p3ag *c, const struct fs_extents *del,
		    enum dir_form form, bool hash_bad);

/* firstlook.c */

/* An inode the inobt calls free, checked as the reference does. */
void check_free_inode(struct p3ag *c, const uint8_t *raw);
/* Would the kernel's inode verifier refuse this inode of no mode? */
bool free_inode_refused(const struct fs *fs, xfs_ino_t ino,
			const struct xfs_dinode *d, bool crc_bad);
/* A sparse chunk's clusters the reference takes for holes (their bits). */
uint64_t punched_clusters(struct p3ag *c, struct im_chunk *ch,
			  uint64_t holes);

#endif
