/*
 * Phase 3's inode processing, shared by the inobt scan (phase3.c) and
 * the discovery of chunks the inobt does not list (discover.c).
 */
#ifndef XK_REPAIR_PHASE3_H
#define XK_REPAIR_PHASE3_H

#include "repair.h"

/* One AG's work state (one thread at a time). */
struct p3ag {
	struct repair		*r;
	xfs_agnumber_t		agno;
	struct rp_out		*out;		/* NULL: print directly */
	struct fs_findings	fl;
	struct im_edges		edges;		/* the directory being read */
	struct im_dir		dhdr;		/* its "..", or NULLFSINO, and
						   the types of "." and ".." */
	/* the inode being looked at */
	xfs_ino_t		ino;
	bool			attr;		/* fork being mapped */
	const struct fs_extents	*ael;		/* its attribute fork's map,
						   while its content is said */
	const struct fs_inode	*ip;		/* it, while its forks' map
						   findings are said */
	char			recs_said[128];	/* two records, as words */
	uint64_t		bmbt_blocks[2];	/* per fork */
	bool			count_bad[2];	/* btree fork's counter wrong */
	bool			unlinked_bad;	/* next_unlinked no inode: the
						   reference would clear it */
	bool			attr0_said;	/* "corrupt block 0" of the
						   attribute fork said */
	bool			unmapped;	/* phase 6 cannot load it (kept
						   for its magic number or
						   attribute fork): no rebuild
						   of it is said */
	bool			leaf_unread;	/* a leaf directory's leaf block
						   is not read to its entries
						   (dir_tree_words) */
	/* claims on their way to the space map, a batch at a time */
#define P3_CLAIMS	512
	struct sm_rec		claims[P3_CLAIMS];
	uint32_t		claim_ag[P3_CLAIMS];
	unsigned		nclaims;
	uint64_t		count_found[2];
	/*
	 * Where the reference's walk of the fork being mapped stopped: the
	 * findings of the walk begin at c->fl.v[walk_fl0]; once one of them
	 * is held against the fork, no later bmbt block and no later extent
	 * (walk_el->n at that point: walk_stop_n) is claimed.
	 */
	/*
	 * An extent count the data fork cannot hold: the reference walks
	 * the records all the same, so the finding waits for the walk.
	 */
	struct fs_finding	overrun;
	bool			has_overrun;
	size_t			walk_fl0;
	const struct fs_extents	*walk_el;
	bool			walk_stopped;
	size_t			walk_stop_n;
	/*
	 * The bmbt blocks the walk claimed, in its order, each with how
	 * many extents it had mapped before it (walk_claims() holds both
	 * to the block states in that order); the claim findings put first
	 * among the walk's; a data fork bmbt block found claimed already,
	 * for which the reference clears the inode on its second look.
	 */
	struct p3_bmbt {
		xfs_fsblock_t	fsb;
		size_t		at;
	}			*bmbt;
	size_t			nbmbt, capbmbt;
	size_t			nclaims_said;
	bool			bmbt_dup;
	/*
	 * The walk ended at a claim the reference's second look (phase
	 * 4) may not hold against the fork: another inode's block, or an
	 * AG btree block (extent_states()).
	 */
	bool			claim_second;
	/* the blocks this inode claims, marked kept if it is (bkept) */
	struct p3_mine {
		xfs_agnumber_t	agno;
		xfs_agblock_t	agbno;
		uint32_t	len;
	}			*mine;
	size_t			nmine, capmine;
	/*
	 * Chunks no inobt record lists that the reference reads all the
	 * same, in inobt order: the root inode's (r->root_chunk_made) and
	 * those only the finobt lists.  Sorted; taken as the walk of the
	 * inobt passes them.
	 */
	struct inobt_irec	*extra;
	size_t			nextra, next_extra;
};

void p3ag_init(struct p3ag *c, struct repair *r, xfs_agnumber_t agno,
	       struct rp_out *out);
void p3ag_fini(struct p3ag *c);	/* flushes the claims */

/*
 * Check one inode of chunk ch (its raw bytes), against what ch->ifree
 * says is free: the inobt's record or, for a chunk no record lists, the
 * reference's stand-in (only the inode that led to the chunk in use), so
 * that every other inode in use is "imap claims in-use inode N is free".
 */
void p3_process_inode(struct p3ag *c, struct im_chunk *ch, unsigned bit,
		      const uint8_t *raw);
/* Every inode of a chunk that holes does not leave out. */
void p3_process_chunk(struct p3ag *c, struct im_chunk *ch, uint64_t holes);

/*
 * sfdir.c: a short-form directory as the reference reads it.  The walk
 * of its phase 3 says what it finds, in its words, and returns the
 * parent the header names, or NULLFSINO if that is no valid inode
 * number (it forgets it).  Whether the kernel's
 * verifier of the fork refuses it, and if at an invalid inode number,
 * which (*badino, else NULLFSINO).
 */
xfs_ino_t rp_sf_walk(struct p3ag *c, const struct fs_inode *ip);
bool rp_sf_refused(const struct fs *fs, const struct fs_inode *ip,
		   xfs_ino_t *badino);

/*
 * attrwords.c: the reference's words on one attribute leaf block (at
 * fork block dablk, entries' hashes from last up) and on a short-form
 * fork, printed to o (NULL: only the verdict).  rmt_bad: libfs found a
 * remote value block damaged.
 */
enum { AW_UNSURE = -1, AW_KEEP = 0, AW_CLEAR = 1 };
int aw_leaf(struct rp_out *o, const struct fs_geom *g, xfs_ino_t ino,
	    xfs_agnumber_t agno, xfs_dablk_t dablk, const uint8_t *blk,
	    xfs_dahash_t last, const struct fs_extents *ael, bool rmt_bad);
int aw_sf(struct rp_out *o, xfs_ino_t ino, xfs_agnumber_t agno,
	  const uint8_t *fork, uint32_t forksize);

/* discover.c: chunks outside the inobt that entries point into. */
void rp_discover(struct repair *r);
/*
 * A chunk no inobt record lists is known (found, or taken from the
 * finobt): claim its inode blocks (OWN_INODES) in the space map, and
 * keep the rmapbt's word on them from being said as stale.
 */
void rp_chunk_known(struct repair *r, xfs_agnumber_t agno, xfs_agino_t start,
		    uint64_t holes);
/* An inobt chunk taken whole though its record has holes (rp_irec_holes):
 * what the rmapbt says of its blocks is borne out. */
void rp_chunk_whole(struct repair *r, xfs_agnumber_t agno, xfs_agino_t start);

#endif
