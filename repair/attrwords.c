/*
 * An attribute fork's content in the reference's words: what its phase 3
 * says about one attribute leaf block and about a short-form fork, and
 * whether it would throw the fork away for it.
 *
 * Why a second reading: libfs (attr_leaf_check, attr_sf_check) reports
 * every flaw it sees, each on its own.  The reference goes through the
 * entries in order and stops at the first flaw of a leaf block, saying
 * it in words that depend on which of its checks came first; of a
 * short-form fork it says what it would truncate or remove, and keeps
 * the fork.  Phase 3 asks here only when libfs found something.
 *
 * What goes in: the block's bytes (or the fork's), the fork's extent map
 * for remote values.  What comes out: the lines, printed to o (o NULL:
 * nothing is printed, only the verdict is worked out, so that phase 3
 * can decide before it says anything), and a verdict: AW_CLEAR (the
 * fork would be cleared), AW_KEEP, or AW_UNSURE when the reference
 * would read outside the block or look at what is not modelled here
 * (values of the trusted SGI_ names, remote value blocks libfs found
 * damaged, values longer than the format allows): then phase 3 keeps
 * libfs's findings as they are.  What stays true: no byte outside the
 * block or the fork is read.
 *
 * The rules, leaf block (format: xfs_attr3_leaf_hdr, xfs_attr_leaf_entry,
 * xfs_attr_leaf_name_local/remote): the count must be non-zero and its
 * entry table inside the block; then for each entry in turn, its name
 * offset at most the block size, no INCOMPLETE flag, its table slot not
 * over bytes already claimed (the header is claimed first); a local
 * entry's name non-empty without NUL bytes, its hash the name's and not
 * below the previous entry's; a remote entry the same, and its first
 * value block non-zero, in one verdict, then every value block mapped;
 * last the name and value bytes must lie inside the block over bytes not
 * yet claimed.  Short form (xfs_attr_sf_hdr, the entries after it): a
 * count of zero with more than the header is the fork junked; entries
 * are read while two more bytes fit the total size; a name of length
 * zero, or a name and value longer than what the total size leaves,
 * truncates the list there; a name with a NUL byte or an INCOMPLETE
 * entry would be removed; then the count and total size are held to
 * what was read.
 */
#include "config.h"
#include <stddef.h>
#include <string.h>
#include "attr.h"
#include "dir.h"
#include "phase3.h"

#define LEAF_HDR	((uint32_t)sizeof(struct xfs_attr3_leaf_hdr))
#define LEAF_ENT	((uint32_t)sizeof(struct xfs_attr_leaf_entry))

static unsigned be16_of(const uint8_t *p)
{
	return (unsigned)p[0] << 8 | p[1];
}

static uint32_t be32_of(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/*
 * A trusted name whose value the reference checks (POSIX ACLs and the
 * old IRIX labels): not modelled.  Its MAC and capability names are
 * compared as prefixes, whatever the name's length.
 */
static bool sgi_name(unsigned flags, const uint8_t *name, unsigned len)
{
	static const char *const full[] = { "SGI_ACL_FILE", "SGI_ACL_DEFAULT" };
	static const char *const prefix[] = { "SGI_MAC_FILE", "SGI_CAP_FILE" };

	if (!(flags & XFS_ATTR_ROOT))
		return false;
	for (unsigned i = 0; i < 2; i++) {
		if (len == strlen(full[i]) && !memcmp(name, full[i], len))
			return true;
		if (len >= strlen(prefix[i]) &&
		    !memcmp(name, prefix[i], strlen(prefix[i])))
			return true;
	}
	/* a shorter name is compared past its end: not modelled either */
	return len < 12 && !memcmp(name, "SGI_", len < 4 ? len : 4);
}

/* One byte-granular claim map of a block (the reference's). */
struct aw_map {
	uint8_t		bits[(1u << XFS_MAX_BLOCKSIZE_LOG) / 8];
};

/* Claim [start, stop); the first byte already claimed, or -1. */
static int64_t aw_claim(struct aw_map *m, uint32_t start, uint32_t stop)
{
	for (uint32_t b = start; b < stop; b++) {
		if (m->bits[b / 8] & (1u << (b % 8)))
			return b;
		m->bits[b / 8] |= (uint8_t)(1u << (b % 8));
	}
	return -1;
}

static void aw_say(struct rp_out *o, enum fs_problem code, xfs_ino_t ino,
		   xfs_agnumber_t agno, uint64_t entry, xfs_dablk_t dablk,
		   uint64_t found, uint64_t expected, uint64_t v3)
{
	struct rp_args a = RP_ARGS_INIT(OBJ_ATTR);

	if (!o)
		return;
	a.obj.ino = ino;
	a.obj.agno = agno;
	a.obj.index = entry;
	a.v2 = dablk;
	a.found = found;
	a.expected = expected;
	a.v3 = v3;
	rp_say(o, code, &a);
}

int aw_leaf(struct rp_out *o, const struct fs_geom *g, xfs_ino_t ino,
	    xfs_agnumber_t agno, xfs_dablk_t dablk, const uint8_t *blk,
	    xfs_dahash_t last, const struct fs_extents *ael, bool rmt_bad)
{
	static _Thread_local struct aw_map map;
	uint32_t bs = g->blocksize;
	unsigned count = be16_of(blk + offsetof(struct xfs_attr3_leaf_hdr,
						 count));
	int64_t clash;

#define SAY(code, i, f, e, v3) \
	aw_say(o, code, ino, agno, i, dablk, f, e, v3)

	if (!count || (uint64_t)count * LEAF_ENT + LEAF_HDR > bs) {
		SAY(PR_RP_ATTR_LEAF_COUNT, 0, count, 0, 0);
		return AW_CLEAR;
	}
	memset(map.bits, 0, (bs + 7) / 8);
	aw_claim(&map, 0, LEAF_HDR);
	for (unsigned i = 0; i < count; i++) {
		const uint8_t *e = blk + LEAF_HDR + i * LEAF_ENT;
		xfs_dahash_t hash = be32_of(e);
		uint32_t nameidx = be16_of(e + 4), size;
		unsigned flags = e[6], namelen;
		const uint8_t *name;

		if (nameidx > bs) {
			SAY(PR_RP_ATTR_LEAF_NAMEIDX, i, nameidx, 0, 0);
			return AW_CLEAR;
		}
		if (flags & XFS_ATTR_INCOMPLETE) {
			SAY(PR_RP_ATTR_ENTRY_INCOMPLETE, i, 0, 0, 0);
			return AW_CLEAR;
		}
		clash = aw_claim(&map, LEAF_HDR + i * LEAF_ENT,
				 LEAF_HDR + (i + 1) * LEAF_ENT);
		if (clash >= 0) {
			SAY(PR_RP_ATTR_ENTRY_TABLE_CLAIMED, i, clash, 0, 0);
			return AW_CLEAR;
		}
		if (flags & XFS_ATTR_LOCAL) {
			unsigned valuelen;

			if (nameidx + 3 > bs)
				return AW_UNSURE;
			valuelen = be16_of(blk + nameidx);
			namelen = blk[nameidx + 2];
			name = blk + nameidx + 3;
			if (nameidx + 3 + namelen > bs)
				return AW_UNSURE;
			if (!namelen || memchr(name, 0, namelen)) {
				SAY(PR_RP_ATTR_ENTRY_BAD_NAME, i, namelen,
				    0, 0);
				return AW_CLEAR;
			}
			if (hash != da_hashname(name, namelen) ||
			    hash < last) {
				SAY(PR_RP_ATTR_ENTRY_BAD_HASH, i, 0, 0, 0);
				return AW_CLEAR;
			}
			if (sgi_name(flags, name, namelen))
				return AW_UNSURE;
			size = XFS_ATTR_LEAF_NAME_LOCAL_SIZE(namelen,
							     valuelen);
		} else {
			uint32_t valueblk, valuelen, nblks;

			if (nameidx + 9 > bs)
				return AW_UNSURE;
			valueblk = be32_of(blk + nameidx);
			valuelen = be32_of(blk + nameidx + 4);
			namelen = blk[nameidx + 8];
			name = blk + nameidx + 9;
			if (nameidx + 9 + namelen > bs)
				return AW_UNSURE;
			if (!namelen || memchr(name, 0, namelen) ||
			    hash != da_hashname(name, namelen) ||
			    hash < last || !valueblk) {
				SAY(PR_RP_ATTR_RMT_INCONSISTENT, i, 0, 0, 0);
				return AW_CLEAR;
			}
			if (valuelen > XFS_XATTR_SIZE_MAX)
				return AW_UNSURE;
			nblks = attr_rmt_blocks(g, valuelen);
			for (uint32_t k = 0; k < nblks; k++) {
				struct xfs_bmbt_irec r;

				if (!ael || !extents_lookup(ael,
						(uint64_t)valueblk + k, &r)) {
					SAY(PR_RP_ATTR_RMT_MISSING, i, 0, 0, 0);
					return AW_CLEAR;
				}
			}
			if (rmt_bad || sgi_name(flags, name, namelen))
				return AW_UNSURE;
			size = XFS_ATTR_LEAF_NAME_REMOTE_SIZE(namelen);
		}
		last = hash;
		if (nameidx + size > bs) {
			SAY(PR_RP_ATTR_ENTRY_PAST_BLOCK, i, nameidx,
			    nameidx + size, bs);
			return AW_CLEAR;
		}
		clash = aw_claim(&map, nameidx, nameidx + size);
		if (clash >= 0) {
			SAY(PR_RP_ATTR_ENTRY_CLAIMED, i, clash, 0, 0);
			return AW_CLEAR;
		}
	}
	return AW_KEEP;
#undef SAY
}

int aw_sf(struct rp_out *o, xfs_ino_t ino, xfs_agnumber_t agno,
	  const uint8_t *fork, uint32_t forksize)
{
	unsigned totsize, count, cur, i;
	int remaining;

#define SAY(code, i, f, e) aw_say(o, code, ino, agno, i, 0, f, e, 0)

	if (forksize < sizeof(struct xfs_attr_sf_hdr))
		return AW_UNSURE;
	totsize = be16_of(fork);
	count = fork[2];
	/* the size against the fork is the inode check's (phase 3 core) */
	if (totsize > forksize || totsize < sizeof(struct xfs_attr_sf_hdr))
		return AW_UNSURE;
	if (!count) {
		if (totsize == sizeof(struct xfs_attr_sf_hdr))
			return AW_KEEP;
		SAY(PR_RP_ATTR_SF_COUNT_ZERO, 0, 0, 0);
		return AW_CLEAR;
	}
	cur = sizeof(struct xfs_attr_sf_hdr);
	remaining = (int)totsize - (int)cur;
	for (i = 0; i < count; i++) {
		const uint8_t *e = fork + cur;
		unsigned namelen, valuelen, flags;
		bool junk = false;

		/* an entry's three header bytes, less the name placeholder */
		if (cur + 2 > totsize)
			break;
		if (cur + 3 > forksize)
			return AW_UNSURE;
		namelen = e[0];
		valuelen = e[1];
		flags = e[2];
		if (!namelen) {
			SAY(PR_RP_ATTR_SF_ZERO_NAMELEN, i, 0, 0);
			break;
		}
		if (remaining < (int)namelen ||
		    remaining - (int)namelen < (int)valuelen) {
			SAY(PR_RP_ATTR_SF_TOO_LARGE, i, 0, 0);
			break;
		}
		if (cur + 3 + namelen > forksize)
			return AW_UNSURE;
		if (memchr(e + 3, 0, namelen)) {
			SAY(PR_RP_ATTR_SF_BAD_NAME, i, 0, 0);
			junk = true;
		}
		if (flags & XFS_ATTR_INCOMPLETE) {
			SAY(PR_RP_ATTR_SF_INCOMPLETE, i, 0, 0);
			junk = true;
		}
		if (sgi_name(flags, e + 3, namelen))
			return AW_UNSURE;
		remaining -= (int)(3 + namelen + valuelen);
		if (junk)
			SAY(PR_RP_ATTR_SF_REMOVE, i, 0, 0);
		cur += 3 + namelen + valuelen;
	}
	if (count != i)
		SAY(PR_RP_ATTR_SF_COUNT, 0, count, i);
	if (totsize != cur)
		SAY(PR_RP_ATTR_SF_TOTSIZE, 0, totsize, cur);
	return AW_KEEP;
#undef SAY
}
