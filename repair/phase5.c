/*
 * Phase 5 under -n: what a rebuild would write, compared with what is on
 * disk.  (The reference skips phase 5 under -n; these comparisons are
 * the ones it makes at the end of phase 4, extended to every record.)
 *
 * What it checks, per AG in parallel, from the sorted space map:
 *   - free space: every block is free or owned; blocks neither (leaked
 *     space) are reported where the rmapbt maps them (as the reference,
 *     which knows of no others); then phase 2's reverse mappings of AG
 *     metadata that no structure explains, less those over blocks just
 *     said to be leaked;
 *   - the rmapbt: the canonical reverse mappings of every observed owner
 *     against the on-disk records: those of inode owners missing or
 *     wrong, each looked up in the
 *     tree as the reference looks it up (check_rmaps_by_lookup; AG
 *     metadata owners are ag_check()'s, in phase 2);
 *   - neither tree where phase 2 found one the reference would rebuild
 *     rather than compare ("would rebuild corrupt rmap btrees.");
 *   - the reflink flag of every file whose data shares blocks;
 *   - the refcountbt: each reference count the shared data extents imply
 *     looked up in the tree as the reference looks it up
 *     (check_refcounts_by_lookup), and CoW staging extents (which a clean
 *     filesystem has none of) said as leftovers.
 * As the reference, every AG's free space and rmaps come first, then
 * every AG's reflink flags, then every AG's reference counts.
 * A comparison is only made when everything it depends on was read
 * (headers usable, trees walked).
 *
 * What it leaves: nothing; the space map is freed after phase 7.
 */
#include "config.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include "array.h"
#include "repair.h"
#include "workers.h"

enum p5_stage { P5_SPACE, P5_FLAGS, P5_COUNTS };

struct p5 {
	struct rp_seq		seq;
	enum p5_stage		stage;
	/* per AG: the reference counts the data forks imply (P5_FLAGS on) */
	struct sm_refc_list	*obs;
	bool			*obs_ok;
};

struct run {
	uint64_t	start, end;
};

struct p5ag {
	struct repair	*r;
	xfs_agnumber_t	agno;
	struct rp_out	*out;
	uint32_t	disk_maxlen;	/* longest on-disk rmap record */
	/* the runs said as "unknown block state", in block order */
	struct run	*said;
	size_t		nsaid, capsaid;
};

static void rmap_words(const struct sm_rec *x, char *buf, size_t len)
{
	snprintf(buf, len, "%slen %u owner %" PRId64 " %s%soff %" PRIu64,
		 (x->offset & XFS_RMAP_OFF_UNWRITTEN) ? "unwritten " : "",
		 x->len, (int64_t)x->owner,
		 (x->offset & XFS_RMAP_OFF_ATTR_FORK) ? "attr " : "",
		 (x->offset & XFS_RMAP_OFF_BMBT_BLOCK) ? "bmbt " : "",
		 sm_fileoff(x));
}

/*
 * Is this owner an inode whose map phase 3 or 4 gave up on or found
 * wrong -- cleared, its forks damaged, its counters or claims wrong?  The
 * rmapbt's records of such an inode are not held against it: the repair
 * rewrites the map, and the reference checks only the other way round
 * (observed records missing from the tree).
 */
static bool owner_suspect(const struct repair *r, uint64_t owner)
{
	const struct im_chunk *ch;
	unsigned bit;

	ch = im_find(r->imap, owner, &bit);
	return !ch || ((ch->cleared >> bit) & 1) || !((ch->used >> bit) & 1) ||
	       ((__atomic_load_n(&ch->suspect, __ATOMIC_RELAXED) >> bit) & 1);
}

/* An inode the reference clears before it counts its blocks (phase 4). */
static bool uncounted(uint64_t owner, void *priv)
{
	const struct repair *r = priv;
	const struct im_chunk *ch;
	unsigned bit;

	ch = im_find(r->imap, owner, &bit);
	return ch && ((__atomic_load_n(&ch->uncounted, __ATOMIC_RELAXED) >>
		       bit) & 1);
}

/* Does an on-disk reverse mapping of a suspect inode cover part of this? */
static bool touches_suspect(struct p5ag *c, uint32_t agbno, uint32_t len)
{
	const struct sm_list *l = &c->r->ags[c->agno].disk_rmaps;
	uint64_t end = (uint64_t)agbno + len;
	size_t lo = 0, hi = l->n;

	/* the first record starting at or after end */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (l->v[mid].agbno < end)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo-- > 0) {
		const struct sm_rec *x = &l->v[lo];

		if ((uint64_t)x->agbno + c->disk_maxlen <= agbno)
			break;
		if ((uint64_t)x->agbno + x->len > agbno &&
		    sm_inode_owner(x->owner) && owner_suspect(c->r, x->owner))
			return true;
	}
	return false;
}

static void rmap_diff(const struct sm_rec *obs, const struct sm_rec *disk,
		      void *priv)
{
	struct p5ag *c = priv;
	struct rp_args a = RP_ARGS_INIT(OBJ_RMAPBT);
	char saw[160], want[160], both[400];

	a.obj.agno = c->agno;
	if (obs && disk) {
		rmap_words(disk, saw, sizeof(saw));
		rmap_words(obs, want, sizeof(want));
		snprintf(both, sizeof(both), "saw (%u/%u) %s; should be (%u/%u) %s",
			 c->agno, disk->agbno, saw, c->agno, obs->agbno, want);
		if (sm_inode_owner(obs->owner))
			a.obj.ino = obs->owner;
		a.found = obs->agbno;
		a.s1 = both;
		rp_say(c->out, PR_RP_RMAP_WRONG, &a);
	} else if (obs) {
		if (sm_inode_owner(obs->owner))
			a.obj.ino = obs->owner;
		a.found = obs->agbno;
		a.expected = obs->len;
		a.v2 = obs->owner;
		a.v3 = sm_fileoff(obs);
		a.s1 = (obs->offset & XFS_RMAP_OFF_UNWRITTEN) ? "unwritten " : "";
		a.field = (obs->offset & XFS_RMAP_OFF_BMBT_BLOCK) ?
			  ((obs->offset & XFS_RMAP_OFF_ATTR_FORK) ? "attr bmbt " :
			   "bmbt ") :
			  (obs->offset & XFS_RMAP_OFF_ATTR_FORK) ? "attr " : NULL;
		rp_say(c->out, PR_RP_RMAP_MISSING, &a);
	} else {
		if (!sm_inode_owner(disk->owner) ||
		    owner_suspect(c->r, disk->owner))
			return;
		a.obj.ino = disk->owner;
		a.found = disk->agbno;
		a.expected = disk->len;
		a.v2 = disk->owner;
		rp_say(c->out, PR_RP_RMAP_EXTRA, &a);
	}
}

static int run_cmp(const void *pa, const void *pb)
{
	const struct run *a = pa, *b = pb;

	return a->start < b->start ? -1 : a->start > b->start;
}

/* The blocks the on-disk rmapbt maps, as sorted disjoint runs. */
static size_t rmapped_runs(const struct rp_ag *ag, struct run **out)
{
	const struct sm_list *l = &ag->disk_rmaps;
	struct run *v;
	size_t n = 0;

	*out = NULL;
	if (!l->n || !(v = malloc(l->n * sizeof(*v))))
		return 0;
	for (size_t i = 0; i < l->n; i++)
		v[i] = (struct run){ l->v[i].agbno,
				     (uint64_t)l->v[i].agbno + l->v[i].len };
	qsort(v, l->n, sizeof(*v), run_cmp);
	for (size_t i = 1; i < l->n; i++) {
		if (v[i].start <= v[n].end) {
			if (v[i].end > v[n].end)
				v[n].end = v[i].end;
		} else {
			v[++n] = v[i];
		}
	}
	*out = v;
	return n + 1;
}

/*
 * Blocks neither free nor owned, as the reference sees them: its block
 * map knows only what some structure claims, so such a block is "unknown
 * block state" only where the rmapbt alone maps it; elsewhere (and on a
 * filesystem without an rmapbt) it says nothing.
 */
static void say_unaccounted(struct p5ag *c, const struct run *rm, size_t nrm,
			    size_t *k, uint64_t pos, uint64_t end)
{
	while (*k < nrm && rm[*k].end <= pos)
		(*k)++;
	for (size_t i = *k; i < nrm && rm[i].start < end; i++) {
		uint64_t s = rm[i].start > pos ? rm[i].start : pos;
		uint64_t e = rm[i].end < end ? rm[i].end : end;
		struct rp_args a = RP_ARGS_INIT(OBJ_BNOBT);
		struct run *nv;

		a.obj.agno = c->agno;
		a.found = s;
		a.expected = e - 1;
		rp_say(c->out, PR_RP_SPACE_UNACCOUNTED, &a);
		nv = fs_array_grow(c->said, &c->capsaid, c->nsaid + 1,
				   sizeof(*nv), 16);
		if (!nv)
			continue;	/* the stale mapping is said too */
		c->said = nv;
		c->said[c->nsaid++] = (struct run){ s, e };
	}
}

/* Was agbno in a run said as "unknown block state"? */
static bool said_unaccounted(const struct p5ag *c, uint64_t agbno)
{
	size_t lo = 0, hi = c->nsaid;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->said[mid].end <= agbno)
			lo = mid + 1;
		else if (c->said[mid].start > agbno)
			hi = mid;
		else
			return true;
	}
	return false;
}

/*
 * Phase 2's reverse mappings of AG metadata that no structure explains
 * (AG_RMAP_STALE), and its blocks neither free nor reverse-mapped
 * (AG_SPACE_UNACCOUNTED).  Where nothing at all owns the blocks,
 * check_free() has said them already, in the reference's words, as
 * blocks of unknown state; the mapping is that same fact, not another
 * problem.  The rest (blocks some other structure owns) are said here.
 */
static void say_stale_rmaps(struct p5ag *c)
{
	struct fs_findings *fl = &c->r->ags[c->agno].stale_rmaps;

	for (size_t i = 0; i < fl->n; i++) {
		const struct fs_finding *f = &fl->v[i];
		const struct sm_rec *rec;

		if (said_unaccounted(c, f->found))
			continue;
		/*
		 * Blocks neither free nor reverse-mapped that a file or
		 * other structure owns after all: what the rmapbt lacks
		 * for them is said as the reference says it (a record
		 * missing, or one it could not read), not as this.
		 */
		if (f->code == PR_AG_SPACE_UNACCOUNTED &&
		    sm_lookup(c->r->smap, c->agno, (uint32_t)f->found,
			      &rec, 1)) {
			rp_note_finding(f);
			continue;
		}
		rp_finding(c->out, f);
	}
	findings_clear(fl);
}

static void check_free(struct p5ag *c)
{
	struct repair *r = c->r;
	struct rp_ag *ag = &r->ags[c->agno];
	uint32_t aglen = geom_ag_blocks(&r->fs->geo, c->agno);
	struct sm_list derived, listed;
	struct run *rm = NULL;
	size_t j = 0, k = 0, nrm;

	if (!r->fs->geo.has_rmapbt || !ag->rmap_walked)
		return;
	nrm = rmapped_runs(ag, &rm);
	sm_list_init(&derived);
	sm_list_init(&listed);
	if (sm_derive_free(r->smap, c->agno, aglen, &derived) ||
	    sm_listed_free(r->smap, c->agno, &listed))
		goto out;
	/* each run of derived free space the bnobt does not list */
	for (size_t i = 0; i < derived.n; i++) {
		uint64_t pos = derived.v[i].agbno;
		uint64_t end = pos + derived.v[i].len;

		while (pos < end) {
			uint64_t ls, le;

			while (j < listed.n &&
			       (uint64_t)listed.v[j].agbno + listed.v[j].len <= pos)
				j++;
			ls = j < listed.n ? listed.v[j].agbno : end;
			le = j < listed.n ? ls + listed.v[j].len : end;
			if (ls > end)
				ls = end;
			if (pos < ls) {
				say_unaccounted(c, rm, nrm, &k, pos, ls);
				pos = ls;
				continue;
			}
			pos = le < end ? le : end;
		}
	}
out:
	free(rm);
	sm_list_free(&derived);
	sm_list_free(&listed);
}

/*
 * Each observed reverse mapping of a file looked up in the on-disk rmapbt
 * the way the reference looks it up (not matched against the records in
 * order: damaged keys or records make the two differ).  Its lookup
 * (libxfs's rmap_lookup_le_range) first descends by the nodes' low keys
 * to the last record at or before the key (start, owner, offset) and
 * takes it if it has the owner and, for file data, holds the offset;
 * failing that it queries the tree for records overlapping the key,
 * descending into a child only where the node's low and high keys for it
 * bracket the key, and takes the first such record with the owner and
 * offset.  None: "Missing reverse-mapping record"; one that does not
 * cover the mapping with its flags: "Incorrect reverse-mapping".  A
 * record it lands on that cannot be (its start, length or owner) ends
 * the checks of the AG ("Could not read reverse-mapping record").  The
 * reference looks up no record the tree has and nothing observed lacks
 * ("Extra" is ours, for what the sorted comparison alone finds).
 */
struct rlookup {
	struct p5ag		*c;
	const struct btree_ops	*ops;
	uint32_t		aglen;
	uint32_t		q_start;
	uint64_t		q_owner, q_off;
	bool			found, bad;
	struct xfs_rmap_rec	hit;
};

static int rkey_cmp(uint32_t s1, uint64_t o1, uint64_t f1, uint32_t s2,
		    uint64_t o2, uint64_t f2)
{
	if (s1 != s2)
		return s1 < s2 ? -1 : 1;
	if (o1 != o2)
		return o1 < o2 ? -1 : 1;
	f1 &= XFS_RMAP_OFF_MASK;
	f2 &= XFS_RMAP_OFF_MASK;
	return f1 < f2 ? -1 : f1 > f2;
}

static int key_vs_q(const struct rlookup *l, const uint8_t *k)
{
	return rkey_cmp(load_be32(k), load_be64(k + 4), load_be64(k + 12),
			l->q_start, l->q_owner, l->q_off);
}

/* The record takes the lookup: its owner, and its offsets hold the key's. */
static bool rl_helper(struct rlookup *l, const struct xfs_rmap_rec *m)
{
	uint64_t owner = get_be64(m->rm_owner);
	uint64_t raw = get_be64(m->rm_offset);
	uint64_t off = raw & XFS_RMAP_OFF_MASK;

	if (owner != l->q_owner)
		return false;
	if (sm_inode_owner(owner) && !(raw & XFS_RMAP_OFF_BMBT_BLOCK) &&
	    (off > l->q_off ||
	     off + get_be32(m->rm_blockcount) <= l->q_off))
		return false;
	l->hit = *m;
	l->found = true;
	return true;
}

/* libxfs's checks of a record read by a lookup; false: corruption said. */
static bool rl_rec_ok(struct rlookup *l, const struct xfs_rmap_rec *m)
{
	const struct fs_geom *g = &l->c->r->fs->geo;
	uint32_t b = get_be32(m->rm_startblock);
	uint32_t len = get_be32(m->rm_blockcount);
	uint64_t owner = get_be64(m->rm_owner);
	uint64_t raw = get_be64(m->rm_offset);
	uint32_t first = ag_first_block(g);
	bool ok;

	if (raw & ~(XFS_RMAP_OFF_MASK | XFS_RMAP_OFF_FLAGS) || !len)
		ok = false;
	else if (b < first)
		ok = owner == XFS_RMAP_OWN_FS && len == first;
	else
		ok = b < l->aglen && (uint32_t)(b + len) > b &&
		     b + len - 1 < l->aglen;
	if (ok)
		ok = ino_valid(g, owner) ||
		     (owner <= XFS_RMAP_OWN_FS && owner >= XFS_RMAP_OWN_MIN);
	if (!ok) {
		struct rp_args a = RP_ARGS_INIT(OBJ_RMAPBT);

		a.obj.agno = l->c->agno;
		a.found = owner;
		/* libxfs's in-memory flags: attr 1, bmbt 2, unwritten 4 */
		a.expected = ((raw & XFS_RMAP_OFF_ATTR_FORK) ? 1 : 0) |
			     ((raw & XFS_RMAP_OFF_BMBT_BLOCK) ? 2 : 0) |
			     ((raw & XFS_RMAP_OFF_UNWRITTEN) ? 4 : 0);
		a.v2 = b;
		a.v3 = len;
		rp_say(l->c->out, PR_RP_RMAP_LOOKUP_BAD, &a);
		l->bad = true;
	}
	return ok;
}

/*
 * Read an rmapbt block for a lookup.  A pointer outside the AG fails it;
 * libxfs says so as it turns the pointer into an address, naming the
 * rmapbt by its number (2) and the level as 1 whatever it is.  Where
 * the lookup's own check of a node's pointer comes first (a debug
 * build's, naming the node's real level) the words may differ: said
 * only where both name level 1 (say).
 */
static int rl_read(struct rlookup *l, uint32_t agbno, bool say,
		   struct fs_buf **bpp)
{
	if (!agbno || agbno >= l->aglen) {
		if (say) {
			struct rp_args a = RP_ARGS_INIT(OBJ_RMAPBT);

			a.obj.agno = l->c->agno;
			a.found = agbno;
			a.flags = FND_FOUND;
			a.v2 = 2;	/* libxfs's XFS_BTNUM_RMAPi */
			a.v3 = 1;
			rp_say(l->c->out, PR_RP_RMAP_LOOKUP_BAD_PTR, &a);
		}
		return -EUCLEAN;
	}
	return fs_read_agblocks(l->c->r->fs, l->c->agno, agbno, 1,
				l->ops->buf_ops, NULL, bpp);
}

/*
 * The last record at or before the key, by the low keys (xfs_btree_lookup
 * LE): in each node the last key at or before it, and once a node's key
 * equals it, the first entry of each block below.
 */
static int rl_lookup_le(struct rlookup *l, uint32_t root, unsigned levels)
{
	const struct fs_geom *g = &l->c->r->fs->geo;
	uint32_t agbno = root;
	int diff = 1;

	for (unsigned depth = 0; depth < levels && depth < 16; depth++) {
		struct fs_buf *bp;
		const uint8_t *d, *base;
		unsigned level, n, keyno = 0, low = 1, high, maxr;
		int r;
		bool leaf;

		if ((r = rl_read(l, agbno, depth == 0 || depth + 1 == levels,
				 &bp)))
			return r;
		d = bp->data;
		level = load_be16(d + offsetof(struct xfs_btree_sblock, bb_level));
		n = load_be16(d + offsetof(struct xfs_btree_sblock, bb_numrecs));
		leaf = level == 0;
		maxr = btree_maxrecs(g, l->ops, leaf);
		base = d + btree_hdr_len(l->ops);
		if (n > maxr)
			n = maxr;
		if (!leaf && !n) {
			/* a node with nothing to follow: libxfs's lookup
			   calls the tree corrupt */
			buf_release(bp);
			return -EUCLEAN;
		}
		/*
		 * A key equal to the searched one above: the block's first
		 * entry, whatever it holds, is taken without a look.
		 */
		high = diff ? n : 0;
		if (!diff)
			keyno = 1;
		while (low <= high) {
			const uint8_t *k;

			keyno = (low + high) >> 1;
			if (leaf) {
				const struct xfs_rmap_rec *m = (const void *)
					(base + (keyno - 1) * sizeof(*m));

				diff = rkey_cmp(get_be32(m->rm_startblock),
						get_be64(m->rm_owner),
						get_be64(m->rm_offset), l->q_start,
						l->q_owner, l->q_off);
			} else {
				k = base + (keyno - 1) * 2 * l->ops->key_len;
				diff = key_vs_q(l, k);
			}
			if (diff < 0)
				low = keyno + 1;
			else if (diff > 0)
				high = keyno - 1;
			else
				break;
		}
		if (!leaf) {
			if (diff > 0 && keyno > 0)
				keyno--;
			if (keyno < 1)
				keyno = 1;
			agbno = load_be32(base + (size_t)maxr * 2 * l->ops->key_len +
					  (keyno - 1) * 4);
			buf_release(bp);
			continue;
		}
		if (diff > 0 && keyno > 0)
			keyno--;
		if (keyno >= 1 && keyno <= n) {
			struct xfs_rmap_rec m;

			memcpy(&m, base + (keyno - 1) * sizeof(m), sizeof(m));
			if (rl_rec_ok(l, &m))
				rl_helper(l, &m);
		}
		buf_release(bp);
		return 0;
	}
	return 0;
}

/* The records overlapping the key (xfs_btree_overlapped_query_range). */
static int rl_query(struct rlookup *l, uint32_t agbno, unsigned depth)
{
	const struct fs_geom *g = &l->c->r->fs->geo;
	struct fs_buf *bp;
	const uint8_t *d, *base;
	unsigned level, n, maxr;
	int r = 0;

	if (depth > 16)
		return 0;
	if ((r = rl_read(l, agbno, true, &bp)))
		return r;
	d = bp->data;
	level = load_be16(d + offsetof(struct xfs_btree_sblock, bb_level));
	n = load_be16(d + offsetof(struct xfs_btree_sblock, bb_numrecs));
	maxr = btree_maxrecs(g, l->ops, level == 0);
	base = d + btree_hdr_len(l->ops);
	if (n > maxr)
		n = maxr;
	for (unsigned i = 0; i < n && !l->found && !r; i++) {
		if (level == 0) {
			struct xfs_rmap_rec m;
			uint32_t b, len;
			uint64_t owner, raw, hoff;

			memcpy(&m, base + i * sizeof(m), sizeof(m));
			b = get_be32(m.rm_startblock);
			len = get_be32(m.rm_blockcount);
			owner = get_be64(m.rm_owner);
			raw = get_be64(m.rm_offset);
			hoff = raw;
			if (sm_inode_owner(owner) && !(raw & XFS_RMAP_OFF_BMBT_BLOCK))
				hoff += len - 1;
			if (rkey_cmp(l->q_start, l->q_owner, l->q_off, b, owner,
				     raw) < 0)
				break;
			if (rkey_cmp(b + len - 1, owner, hoff, l->q_start,
				     l->q_owner, l->q_off) >= 0)
				rl_helper(l, &m);
			continue;
		}
		{
			const uint8_t *lk = base + (size_t)i * 2 * l->ops->key_len;
			const uint8_t *hk = lk + l->ops->key_len;
			uint32_t ptr = load_be32(base + (size_t)maxr * 2 *
						 l->ops->key_len + i * 4);

			if (key_vs_q(l, lk) > 0)
				break;
			if (key_vs_q(l, hk) >= 0)
				r = rl_query(l, ptr, depth + 1);
		}
	}
	buf_release(bp);
	return r;
}

static bool rmap_is_good(const struct sm_rec *obs, const struct xfs_rmap_rec *m)
{
	uint32_t b = get_be32(m->rm_startblock), len = get_be32(m->rm_blockcount);
	uint64_t raw = get_be64(m->rm_offset);

	if ((raw & XFS_RMAP_OFF_FLAGS) != sm_flags(obs) ||
	    get_be64(m->rm_owner) != obs->owner)
		return false;
	if (b > obs->agbno || (uint64_t)b + len < (uint64_t)obs->agbno + obs->len)
		return false;
	if (!sm_inode_owner(obs->owner) ||
	    (obs->offset & XFS_RMAP_OFF_BMBT_BLOCK))
		return true;
	return (raw & XFS_RMAP_OFF_MASK) <= sm_fileoff(obs) &&
	       (raw & XFS_RMAP_OFF_MASK) + len >= sm_fileoff(obs) + obs->len;
}

/*
 * The reverse mappings the reference looks up: those of files, and of
 * the AG metadata it notes before its phase 5 -- the headers, the log and
 * the inode chunks.  The blocks of the AG's btrees and of the AGFL it
 * only notes when it rebuilds them (never under -n): it looks none up.
 */
static bool rl_looked_up(uint64_t owner)
{
	return sm_inode_owner(owner) || owner == XFS_RMAP_OWN_FS ||
	       owner == XFS_RMAP_OWN_LOG || owner == XFS_RMAP_OWN_INODES;
}

static void check_rmaps_by_lookup(struct p5ag *c, const struct sm_list *obs)
{
	struct rlookup l = { .c = c, .ops = &rmapbt_ops,
			     .aglen = geom_ag_blocks(&c->r->fs->geo, c->agno) };
	struct btree_root root;
	struct fs_buf *bp;
	struct fs_agf agf;

	if (ag_read_agf(c->r->fs, c->agno, NULL, &bp, &agf))
		return;
	buf_release(bp);
	agf_btree_root(&agf, c->agno, BT_RMAP, &root);
	for (size_t i = 0; i < obs->n; i++) {
		const struct sm_rec *x = &obs->v[i];
		int r;

		if (!rl_looked_up(x->owner))
			continue;
		if (uncounted(x->owner, c->r))
			continue;	/* cleared: it has no mappings */
		l.q_start = x->agbno;
		l.q_owner = x->owner;
		l.q_off = sm_inode_owner(x->owner) ? sm_fileoff(x) : 0;
		l.found = l.bad = false;
		r = rl_lookup_le(&l, root.root, root.levels);
		if (!r && !l.bad && !l.found)
			r = rl_query(&l, root.root, 0);
		if (r || l.bad) {
			struct rp_args a = RP_ARGS_INIT(OBJ_RMAPBT);

			a.obj.agno = c->agno;
			a.found = x->agbno;
			rp_say(c->out, PR_RP_RMAP_LOOKUP_FAILED, &a);
			return;
		}
		if (!l.found) {
			rmap_diff(x, NULL, c);
		} else if (!rmap_is_good(x, &l.hit)) {
			struct sm_rec disk = {
				get_be32(l.hit.rm_startblock),
				get_be32(l.hit.rm_blockcount),
				get_be64(l.hit.rm_owner),
				get_be64(l.hit.rm_offset) };

			rmap_diff(x, &disk, c);
		}
	}
}

/*
 * Would every lookup find its record?  A tree phase 2 found nothing
 * wrong with (keys and records in order) whose records, as read, are
 * the observed ones: each lookup lands on its own record.
 */
static bool rmaps_as_observed(const struct rp_ag *ag, const struct sm_list *obs)
{
	const struct sm_list *d = &ag->disk_rmaps;

	if (!ag->rmap_clean || !ag->rmap_canonical || d->n != obs->n)
		return false;
	for (size_t i = 0; i < obs->n; i++)
		if (d->v[i].agbno != obs->v[i].agbno ||
		    d->v[i].len != obs->v[i].len ||
		    d->v[i].owner != obs->v[i].owner ||
		    d->v[i].offset != obs->v[i].offset)
			return false;
	return true;
}

static void check_rmaps(struct p5ag *c)
{
	struct sm_list obs;

	sm_list_init(&obs);
	if (!sm_derive_rmaps(c->r->smap, c->agno, &obs) &&
	    !rmaps_as_observed(&c->r->ags[c->agno], &obs))
		check_rmaps_by_lookup(c, &obs);
	sm_list_free(&obs);
}

/*
 * Every inode whose data shares blocks with another must carry the
 * reflink flag (the kernel skips refcount work for files without it).
 */
static void check_reflink_flags(struct p5ag *c, const struct sm_refc_list *rl)
{
	struct repair *r = c->r;
	size_t n;
	const struct sm_rec *v = sm_recs(r->smap, c->agno, &n);

	for (size_t i = 0; i < n; i++) {
		const struct sm_rec *x = &v[i];
		struct rp_args a = RP_ARGS_INIT(OBJ_INODE);
		struct im_chunk *ch;
		unsigned bit;

		if (!sm_is_data(x) || uncounted(x->owner, r) ||
		    !sm_refc_find(rl, x->agbno, x->len, NULL, NULL))
			continue;
		ch = im_find(r->imap, x->owner, &bit);
		if (!ch || ((ch->reflink >> bit) & 1) ||
		    (__atomic_fetch_or(&ch->said, 1ull << bit,
				       __ATOMIC_RELAXED) >> bit) & 1)
			continue;
		a.obj.ino = x->owner;
		rp_say(c->out, PR_RP_REFLINK_FLAG_MISSING, &a);
	}
}

static void say_rebuild(struct p5ag *c, enum fs_problem code)
{
	struct rp_args a = RP_ARGS_INIT(code == PR_RP_RMAPBT_REBUILD ?
					OBJ_RMAPBT : OBJ_REFCBT);

	a.obj.agno = c->agno;
	rp_say(c->out, code, &a);
}

/*
 * Each shared extent the data forks imply, looked up in the on-disk
 * refcountbt the way the reference looks it up: the last record whose
 * key (its start, with the CoW bit for the CoW domain, so after every
 * shared record) is at or before the extent's start, found by descending
 * the nodes' keys (xfs_btree_lookup LE).  No such record: "Missing
 * reference count record"; one that differs in start, length or count:
 * "Incorrect reference count".  A record that cannot be (libxfs's checks
 * of a record it reads: a length of 0 or past XFS_REFC_LEN_MAX, no
 * owner, one owner outside the CoW domain or more inside it, an extent
 * outside the AG) ends the checks of the AG ("Could not read reference
 * count record"), as does a block that cannot be read.  Nothing looks up
 * the tree's own records: one for no shared extent goes unsaid.
 */
struct clookup {
	struct p5ag		*c;
	uint32_t		aglen;
	bool			found;
	struct xfs_refcount_rec	hit;
};

static int cl_lookup_le(struct clookup *l, const struct btree_root *root,
			uint32_t key)
{
	const struct fs_geom *g = &l->c->r->fs->geo;
	const struct btree_ops *ops = &refcountbt_ops;
	uint32_t agbno = root->root;

	l->found = false;
	for (unsigned depth = 0; depth < root->levels && depth < 16; depth++) {
		struct fs_buf *bp;
		const uint8_t *d, *base;
		unsigned n, maxr, last = 0;
		bool leaf;
		int r;

		if (!agbno || agbno >= l->aglen)
			return -EUCLEAN;
		r = fs_read_agblocks(l->c->r->fs, l->c->agno, agbno, 1,
				     ops->buf_ops, NULL, &bp);
		if (r)
			return r;
		d = bp->data;
		leaf = !load_be16(d + offsetof(struct xfs_btree_sblock,
					       bb_level));
		n = load_be16(d + offsetof(struct xfs_btree_sblock, bb_numrecs));
		maxr = btree_maxrecs(g, ops, leaf);
		base = d + btree_hdr_len(ops);
		if (n > maxr)
			n = maxr;
		/* the last entry (1-based) whose key is at or before the key */
		{
			unsigned lo = 1, hi = n;

			while (lo <= hi) {
				unsigned mid = (lo + hi) >> 1;
				size_t sz = leaf ? ops->rec_len : ops->key_len;
				uint32_t k = load_be32(base + (mid - 1) * sz);

				if (k <= key) {
					last = mid;
					lo = mid + 1;
				} else {
					hi = mid - 1;
				}
			}
		}
		if (!leaf) {
			/* a key past every child's: the first child still */
			agbno = load_be32(base + (size_t)maxr * ops->key_len +
					  ((last ? last : 1) - 1) * 4);
			buf_release(bp);
			if (!n)
				return -EUCLEAN;
			continue;
		}
		if (last) {
			memcpy(&l->hit, base + (last - 1) * sizeof(l->hit),
			       sizeof(l->hit));
			l->found = true;
		}
		buf_release(bp);
		return 0;
	}
	return -EUCLEAN;
}

/* libxfs's checks of a record a lookup read; false: corruption said. */
static bool cl_rec_ok(struct clookup *l)
{
	const struct fs_geom *g = &l->c->r->fs->geo;
	uint32_t raw = get_be32(l->hit.rc_startblock);
	uint32_t start = raw & ~XFS_REFC_COWFLAG;
	uint32_t len = get_be32(l->hit.rc_blockcount);
	uint32_t refcount = get_be32(l->hit.rc_refcount);
	bool cow = raw & XFS_REFC_COWFLAG;
	struct rp_args a = RP_ARGS_INIT(OBJ_REFCBT);

	if (len && len <= XFS_REFC_LEN_MAX && refcount &&
	    (cow ? refcount == 1 : refcount >= 2) &&
	    ag_extent_ok(g, l->c->agno, start, len))
		return true;
	a.obj.agno = l->c->agno;
	a.found = start;
	a.expected = len;
	a.v2 = refcount;
	rp_say(l->c->out, PR_RP_REFC_LOOKUP_BAD, &a);
	return false;
}

static void check_refcounts_by_lookup(struct p5ag *c,
				      const struct sm_refc_list *obs)
{
	struct clookup l = { .c = c,
			     .aglen = geom_ag_blocks(&c->r->fs->geo, c->agno) };
	struct btree_root root;
	struct fs_buf *bp;
	struct fs_agf agf;

	if (ag_read_agf(c->r->fs, c->agno, NULL, &bp, &agf))
		return;
	buf_release(bp);
	agf_btree_root(&agf, c->agno, BT_REFC, &root);
	for (size_t i = 0; i < obs->n; i++) {
		const struct sm_refc *x = &obs->v[i];
		struct rp_args a = RP_ARGS_INIT(OBJ_REFCBT);
		uint32_t start, len, count;

		if (x->cow)
			continue;	/* staging extents: said as leftovers */
		a.obj.agno = c->agno;
		a.found = x->agbno;
		if (cl_lookup_le(&l, &root, x->agbno) ||
		    (l.found && !cl_rec_ok(&l))) {
			rp_say(c->out, PR_RP_REFC_LOOKUP_FAILED, &a);
			return;
		}
		if (!l.found) {
			a.expected = x->len;
			a.v2 = x->refcount;
			rp_say(c->out, PR_RP_REFC_MISSING, &a);
			continue;
		}
		start = get_be32(l.hit.rc_startblock) & ~XFS_REFC_COWFLAG;
		len = get_be32(l.hit.rc_blockcount);
		count = get_be32(l.hit.rc_refcount);
		if (start == x->agbno && len == x->len && count == x->refcount)
			continue;
		if (touches_suspect(c, start, len))
			continue;	/* its count follows from a map being
					   rewritten */
		{
			char both[200];

			snprintf(both, sizeof(both),
				 "saw (%u/%u) len %u nlinks %u; should be (%u/%u) len %u nlinks %u",
				 c->agno, start, len, count,
				 c->agno, x->agbno, x->len, x->refcount);
			a.s1 = both;
			rp_say(c->out, PR_RP_REFC_WRONG, &a);
		}
	}
}

/* The CoW staging extents the refcountbt lists: leftovers of a crash. */
static void say_cow_leftovers(struct p5ag *c)
{
	const struct rp_ag *ag = &c->r->ags[c->agno];

	for (size_t i = 0; i < ag->disk_refcs.n; i++) {
		const struct sm_refc *x = &ag->disk_refcs.v[i];
		struct rp_args a = RP_ARGS_INIT(OBJ_REFCBT);

		if (!x->cow)
			continue;
		a.obj.agno = c->agno;
		a.found = x->agbno;
		a.expected = x->len;
		rp_say(c->out, PR_RP_REFC_COW_LEFTOVER, &a);
	}
}

/*
 * Does any AG's rmapbt (refcountbt) lose the reference's trust (phase 2's
 * rmap_suspect, refc_suspect)?  Then it compares that tree in no AG, and
 * says once that it would rebuild them.
 */
static bool any_suspect(const struct repair *r, bool refc)
{
	for (xfs_agnumber_t i = 0; i < r->fs->geo.agcount; i++)
		if (!r->ags[i].hdr_bad &&
		    (refc ? r->ags[i].refc_suspect : r->ags[i].rmap_suspect))
			return true;
	return false;
}

/* Is the AG's space map whole?  One with holes would make up differences. */
static bool map_complete(const struct repair *r, xfs_agnumber_t agno)
{
	const struct rp_ag *ag = &r->ags[agno];

	return !ag->hdr_bad && ag->sum.agf_ok && ag->sum.agi_ok &&
	       ag->bno_walked && ag->ino_walked && !r->smap->ags[agno].enomem;
}

/*
 * An AG the reference skips (its headers would be reset) it still looks
 * up in its rmapbt, from the AGF as read, starting with the headers' own
 * mapping at block 0.  A root block its verifier refuses fails that first
 * lookup ("Could not read reverse-mapping record for (N/0)": the primary
 * superblock's UUID damaged, say, which no AG's trees then share).  What
 * it finds past a root it can read depends on the AG it would rebuild,
 * which we do not emulate: nothing is said then.
 */
static void skipped_ag_lookup(struct p5ag *c)
{
	const struct fs_geom *g = &c->r->fs->geo;
	struct rp_args a = RP_ARGS_INIT(OBJ_RMAPBT);
	struct btree_root root;
	struct fs_buf *bp;
	struct fs_agf agf;
	bool refused;

	if (ag_read_agf(c->r->fs, c->agno, NULL, &bp, &agf))
		return;
	buf_release(bp);
	if (agf.magicnum != XFS_AGF_MAGIC || agf.versionnum != XFS_AGF_VERSION)
		return;
	agf_btree_root(&agf, c->agno, BT_RMAP, &root);
	if (root.levels < 1 || root.levels > btree_maxlevels(g, root.ops) ||
	    !root.root || root.root >= geom_ag_blocks(g, c->agno) ||
	    fs_read_agblocks(c->r->fs, c->agno, root.root, 1,
			     rmapbt_ops.buf_ops, NULL, &bp))
		return;
	refused = buf_corrupt(bp);
	buf_release(bp);
	if (!refused)
		return;
	a.obj.agno = c->agno;
	a.found = 0;
	rp_say(c->out, PR_RP_RMAP_LOOKUP_FAILED, &a);
}

/* The first stage: free space and the rmapbt. */
static void compare_space(struct p5ag *c)
{
	struct repair *r = c->r;
	struct rp_ag *ag = &r->ags[c->agno];
	const struct fs_geom *g = &r->fs->geo;
	bool complete = map_complete(r, c->agno);
	bool rmap_suspect;

	if (complete)
		check_free(c);
	say_stale_rmaps(c);
	free(c->said);
	c->said = NULL;
	if (complete && g->has_rmapbt && ag->rmap_walked)
		/* both checks use it */
		ag->rmap_canonical = sm_normalize(&ag->disk_rmaps);
	rmap_suspect = g->has_rmapbt && any_suspect(r, false);
	if (c->agno == 0 && rmap_suspect)
		say_rebuild(c, PR_RP_RMAPBT_REBUILD);
	if (complete && g->has_rmapbt && ag->rmap_walked && !rmap_suspect)
		check_rmaps(c);
	else if (ag->hdr_bad && g->has_rmapbt && !rmap_suspect)
		skipped_ag_lookup(c);
	if (c->agno == 0 && g->has_reflink && any_suspect(r, true))
		say_rebuild(c, PR_RP_REFCBT_REBUILD);
}

static void compare_ag(struct repair *r, xfs_agnumber_t agno, void *arg)
{
	struct p5 *p = arg;
	struct p5ag c = { .r = r, .agno = agno, .out = &p->seq.outs[agno] };
	struct rp_ag *ag = &r->ags[agno];
	bool refc = r->fs->geo.has_reflink && ag->refc_walked &&
		    map_complete(r, agno);

	switch (p->stage) {
	case P5_SPACE:
		compare_space(&c);
		break;
	case P5_FLAGS:
		if (refc && !sm_derive_refcounts(r->smap, agno, uncounted, r,
						 &p->obs[agno]))
			p->obs_ok[agno] = true;
		if (p->obs_ok[agno])
			check_reflink_flags(&c, &p->obs[agno]);
		break;
	case P5_COUNTS:
		if (!refc)
			break;
		say_cow_leftovers(&c);
		if (!p->obs_ok[agno] || any_suspect(r, true))
			break;
		for (size_t i = 0; i < ag->disk_rmaps.n; i++)
			if (ag->disk_rmaps.v[i].len > c.disk_maxlen)
				c.disk_maxlen = ag->disk_rmaps.v[i].len;
		check_refcounts_by_lookup(&c, &p->obs[agno]);
		break;
	}
	rp_seq_done(&p->seq, agno);
}

/*
 * Three passes over the AGs, as the reference orders what it says at the
 * end of its phase 4: every AG's free space and reverse mappings, then
 * every AG's inodes whose reflink flag is wrong, then every AG's
 * reference counts.
 */
void phase5(struct repair *r)
{
	unsigned n = r->fs->geo.agcount;
	struct p5 p = { 0 };

	p.obs = calloc(n ? n : 1, sizeof(*p.obs));
	p.obs_ok = calloc(n ? n : 1, sizeof(*p.obs_ok));
	if (!p.obs || !p.obs_ok)
		rp_fatal(r, "out of memory\n");
	for (p.stage = P5_SPACE; p.stage <= P5_COUNTS; p.stage++) {
		if (rp_seq_init(&p.seq, n))
			rp_fatal(r, "out of memory\n");
		rp_run_ags(r, compare_ag, &p);
		rp_seq_fini(&p.seq);
	}
	for (unsigned i = 0; i < n; i++)
		sm_refc_free(&p.obs[i]);
	free(p.obs);
	free(p.obs_ok);
}
