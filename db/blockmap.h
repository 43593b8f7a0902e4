/*
 * The block map that blockget builds and blockuse, blockfree and ncheck
 * read: the use of every AG block (and realtime block) and the inode
 * that owns it, plus the per-inode link bookkeeping of the checker
 * (check.c).
 */
#ifndef XK_DB_BLOCKMAP_H
#define XK_DB_BLOCKMAP_H

#include <stdbool.h>
#include <stdint.h>
#include "db.h"

/* Block uses, in the reference's order (its type names are printed). */
enum dbm {
	DBM_UNKNOWN, DBM_AGF, DBM_AGFL, DBM_AGI, DBM_ATTR, DBM_BTBMAPA,
	DBM_BTBMAPD, DBM_BTBNO, DBM_BTCNT, DBM_BTINO, DBM_DATA, DBM_DIR,
	DBM_FREE1, DBM_FREE2, DBM_FREELIST, DBM_INODE, DBM_LOG, DBM_MISSING,
	DBM_QUOTA, DBM_RTBITMAP, DBM_RTDATA, DBM_RTFREE, DBM_RTSUM, DBM_SB,
	DBM_SYMLINK, DBM_BTFINO, DBM_BTRMAP, DBM_BTREFC, DBM_RLDATA,
	DBM_COWDATA, DBM_NTYPES
};

extern const char *const dbm_names[DBM_NTYPES];

/* What the checker knows of one inode (found allocated or named). */
struct ckino {
	xfs_ino_t	ino;
	uint32_t	idx;		/* its own index + 1 */
	uint32_t	next;		/* hash chain: index + 1, 0 ends it */
	uint32_t	parent;		/* index + 1 of the parent, 0: none */
	uint32_t	link_set;	/* the inode's own link count */
	uint32_t	link_add;	/* directory entries naming it */
	bool		isdir, isreflink, security;
	bool		ilist;		/* blockget -i: traced */
	char		*name;		/* blockget -n: its entry name */
};

struct blockmap {
	uint8_t		**type;		/* [agno][agbno]; [agcount]: rt */
	uint32_t	**owner;	/* same shape: inode index + 1, 0 */
	uint32_t	mapblocks;	/* blocks per AG map (sb agblocks) */
	uint64_t	rtblocks;	/* blocks of the realtime map */
	struct ckino	**chunks;	/* CKINO_CHUNK records each: stable */
	uint32_t	ninos, nchunks;
	uint32_t	**hash;		/* [agno][agino % hsize]: chain heads */
	uint32_t	hsize;
	bool		names;		/* -n: ncheck may run */
};

#define CKINO_CHUNK_LOG	12
#define CKINO_CHUNK	(1u << CKINO_CHUNK_LOG)

/* The inode record of index i + 1 (0 is "none"). */
static inline struct ckino *ckino_at(const struct blockmap *m, uint32_t i)
{
	i--;
	return &m->chunks[i >> CKINO_CHUNK_LOG][i & (CKINO_CHUNK - 1)];
}

/* Run the checks of blockget/check over m (allocated by the caller). */
void check_run(struct blockmap *m, int argc, char **argv);
void check_free(struct blockmap *m);

/* The inode owning AG block agbno of agno, or NULLFSINO. */
static inline xfs_ino_t blockmap_owner(const struct blockmap *m,
				       uint32_t agno, uint32_t agbno)
{
	uint32_t i = m->owner[agno][agbno];

	return i ? ckino_at(m, i)->ino : (xfs_ino_t)-1;
}

#endif
