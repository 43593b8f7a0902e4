/*
 * The attribute block layer on synthetic blocks: a sound short-form fork,
 * leaf block (1 KiB, 4 KiB and 64 KiB blocks) and remote value block give
 * no finding and decode to exactly what was put in; each single damage
 * gives its own problem code; random damage never makes the decoders read
 * outside the buffer or hand out a name or value that lies outside it.
 * Blocks the kernel wrote on filesystems made by the reference mkfs
 * (tests/data/attr, made by make-fixtures.sh) check clean and decode to
 * what was set.
 */
#include "config.h"
#include "unit.h"
#include <stdlib.h>
#include <string.h>
#include "attr.h"
#include "dabtree.h"
#include "format/crc32c.h"

#define INO	1234567ull
#define DADDR	4242ull

static struct fs_geom geo(uint32_t bs)
{
	struct fs_geom g;

	memset(&g, 0, sizeof(g));
	g.blocksize = bs;
	for (g.blocklog = 0; (1u << g.blocklog) < bs; g.blocklog++)
		;
	for (int i = 0; i < 16; i++)
		g.meta_uuid.b[i] = (uint8_t)(0xa0 + i);
	return g;
}

/* ---- what a callback saw ---- */

struct seen_rec {
	uint8_t		flags;
	char		name[256];
	unsigned	namelen;
	uint8_t		value[256];
	uint32_t	valuelen;
	xfs_dablk_t	valueblk;
	bool		has_value;
};

struct seen {
	struct seen_rec	v[600];
	unsigned	n;
	const uint8_t	*lo, *hi;	/* the buffer: pointers must stay in */
	bool		outside;
	int		stop_after;	/* 0: never stop */
};

static int collect(void *priv, const struct attr_rec *r)
{
	struct seen *s = priv;
	struct seen_rec *x;

	if (r->name < s->lo || r->name + r->namelen > s->hi)
		s->outside = true;
	if (r->value && (r->value < s->lo || r->value + r->valuelen > s->hi))
		s->outside = true;
	if (s->n < 600) {
		x = &s->v[s->n];
		x->flags = r->flags;
		x->namelen = r->namelen;
		memcpy(x->name, r->name, r->namelen);
		x->valuelen = r->valuelen;
		x->valueblk = r->valueblk;
		x->has_value = r->value != NULL;
		if (r->value && r->valuelen <= 256)
			memcpy(x->value, r->value, r->valuelen);
	}
	s->n++;
	if (s->stop_after && (int)s->n == s->stop_after)
		return 7;
	return 0;
}

static void seen_init(struct seen *s, const void *buf, size_t len)
{
	memset(s, 0, sizeof(*s));
	s->lo = buf;
	s->hi = (const uint8_t *)buf + len;
}

/* Exactly the given problem codes (each at least once), nothing else. */
static void assert_codes(const struct fs_findings *fl, const char *const *want)
{
	for (size_t i = 0; i < fl->n; i++) {
		const char *name = problem_info(fl->v[i].code)->name;
		bool ok = false;

		for (const char *const *w = want; *w; w++)
			if (!strcmp(*w, name))
				ok = true;
		if (!ok) {
			char line[512];

			finding_format(&fl->v[i], line, sizeof(line));
			ck_abort_msg("unexpected finding: %s", line);
		}
	}
	for (const char *const *w = want; *w; w++)
		ck_assert_msg(findings_has(fl, problem_by_name(*w)),
			      "missing finding %s", *w);
}

#define CODES(...) ((const char *const[]){ __VA_ARGS__, NULL })
static const char *const no_codes[] = { NULL };

/* ---- short form ---- */

static char name255[256];

struct tent {
	uint8_t		flags;
	const char	*name;
	unsigned	namelen;	/* 0: strlen(name) */
	const char	*value;		/* local value, or NULL */
	uint32_t	valuelen;	/* 0 and value: strlen(value) */
	xfs_dablk_t	valueblk;	/* remote if != 0 */
};

static unsigned tent_nl(const struct tent *t)
{
	return t->namelen ? t->namelen : (unsigned)strlen(t->name);
}

static uint32_t tent_vl(const struct tent *t)
{
	if (t->valueblk)
		return t->valuelen;
	if (!t->value)
		return 0;
	return t->valuelen ? t->valuelen : (uint32_t)strlen(t->value);
}

static uint32_t build_sf(uint8_t *fork, const struct tent *t, unsigned n)
{
	uint32_t off = 4;

	for (unsigned i = 0; i < n; i++) {
		unsigned nl = tent_nl(&t[i]);
		uint32_t vl = tent_vl(&t[i]);

		fork[off] = (uint8_t)nl;
		fork[off + 1] = (uint8_t)vl;
		fork[off + 2] = t[i].flags;
		memcpy(fork + off + 3, t[i].name, nl);
		if (vl)
			memcpy(fork + off + 3 + nl, t[i].value, vl);
		off += 3 + nl + vl;
	}
	store_be16(fork, (uint16_t)off);
	fork[2] = (uint8_t)n;
	fork[3] = 0;
	return off;
}

static const struct tent sf_good[] = {
	{ 0, "a", 0, "1", 0, 0 },
	{ XFS_ATTR_ROOT, "t", 0, "hello", 0, 0 },
	{ XFS_ATTR_SECURE, "s", 0, "xyz", 0, 0 },
	{ 0, "empty", 0, NULL, 0, 0 },
	/* the same name in another namespace is not a duplicate */
	{ XFS_ATTR_ROOT, "a", 0, "2", 0, 0 },
};

START_TEST(sf_sound)
{
	struct fs_geom g = geo(4096);
	uint8_t fork[300];
	struct fs_findings fl;
	struct seen s;
	unsigned nerr = 99;

	memset(fork, 0, sizeof(fork));
	build_sf(fork, sf_good, 5);
	findings_init(&fl);
	seen_init(&s, fork, sizeof(fork));
	ck_assert_int_eq(attr_sf_check(&g, INO, fork, sizeof(fork), collect,
				       &s, &fl, &nerr), 0);
	assert_codes(&fl, no_codes);
	ck_assert_uint_eq(nerr, 0);
	ck_assert_uint_eq(s.n, 5);
	ck_assert(!s.outside);
	ck_assert_uint_eq(s.v[1].flags, XFS_ATTR_ROOT);
	ck_assert_mem_eq(s.v[1].name, "t", 1);
	ck_assert_uint_eq(s.v[1].valuelen, 5);
	ck_assert_mem_eq(s.v[1].value, "hello", 5);
	ck_assert_uint_eq(s.v[2].flags, XFS_ATTR_SECURE);
	ck_assert_uint_eq(s.v[3].valuelen, 0);
	ck_assert_uint_eq(s.v[3].namelen, 5);

	/* a callback's non-zero value stops the walk and comes back */
	seen_init(&s, fork, sizeof(fork));
	s.stop_after = 2;
	ck_assert_int_eq(attr_sf_check(&g, INO, fork, sizeof(fork), collect,
				       &s, &fl, NULL), 7);
	ck_assert_uint_eq(s.n, 2);
	assert_codes(&fl, no_codes);

	/* an empty short form (count 0) is legal */
	memset(fork, 0, sizeof(fork));
	build_sf(fork, sf_good, 0);
	ck_assert_int_eq(attr_sf_check(&g, INO, fork, sizeof(fork), NULL,
				       NULL, &fl, NULL), 0);
	assert_codes(&fl, no_codes);
	findings_free(&fl);
}
END_TEST

/* Run attr_sf_check on a damaged copy and expect exactly these codes. */
static unsigned sf_damaged(void (*damage)(uint8_t *fork), uint32_t forksize,
			   const char *const *want)
{
	struct fs_geom g = geo(4096);
	uint8_t fork[300];
	struct fs_findings fl;
	struct seen s;

	memset(fork, 0, sizeof(fork));
	build_sf(fork, sf_good, 5);
	damage(fork);
	findings_init(&fl);
	seen_init(&s, fork, forksize);
	attr_sf_check(&g, INO, fork, forksize, collect, &s, &fl, NULL);
	assert_codes(&fl, want);
	ck_assert(!s.outside);
	for (size_t i = 0; i < fl.n; i++)
		ck_assert_uint_eq(fl.v[i].obj.ino, INO);
	findings_free(&fl);
	return s.n;
}

static void sf_totsize_plus(uint8_t *f) { store_be16(f, load_be16(f) + 1); }
static void sf_totsize_huge(uint8_t *f) { store_be16(f, 1000); }
static void sf_namelen_huge(uint8_t *f) { f[4 + 3 + 1 + 1] = 250; }
static void sf_count_plus(uint8_t *f) { f[2] = 6; }
static void sf_dup(uint8_t *f) { f[33 + 2] = 0; }	/* trusted.a -> user.a */
static void sf_incomplete(uint8_t *f) { f[4 + 2] |= XFS_ATTR_INCOMPLETE; }
static void sf_nul_name(uint8_t *f) { f[4 + 3 + 1 + 1 + 3] = 0; }
static void sf_both_ns(uint8_t *f) { f[4 + 2] = XFS_ATTR_ROOT | XFS_ATTR_SECURE; }
static void sf_unknown_flag(uint8_t *f) { f[4 + 2] = 1u << 4; }
static void sf_zero_namelen(uint8_t *f)
{
	/* "empty" (5 bytes, no value) becomes a nameless 5-byte value */
	uint8_t *e = f + 4 + 5 + 9 + 7;

	e[0] = 0;
	e[1] = 5;
}

START_TEST(sf_damage)
{
	ck_assert_uint_eq(sf_damaged(sf_totsize_plus, 300,
				     CODES("ATTR_SF_BAD_TOTSIZE")), 5);
	sf_damaged(sf_totsize_huge, 300,
		   CODES("ATTR_SF_TOTSIZE_PAST_FORK", "ATTR_SF_BAD_TOTSIZE"));
	/* the second entry's name runs past the fork: only the first is out */
	ck_assert_uint_eq(sf_damaged(sf_namelen_huge, 60,
				     CODES("ATTR_SF_PAST_FORK")), 1);
	/* one entry more than there is: a nameless entry of zeroes */
	sf_damaged(sf_count_plus, 300,
		   CODES("ATTR_BAD_NAMELEN", "ATTR_SF_BAD_TOTSIZE"));
	ck_assert_uint_eq(sf_damaged(sf_dup, 300, CODES("ATTR_DUP_NAME")), 4);
	ck_assert_uint_eq(sf_damaged(sf_incomplete, 300,
				     CODES("ATTR_INCOMPLETE")), 4);
	sf_damaged(sf_nul_name, 300, CODES("ATTR_BAD_NAME"));
	sf_damaged(sf_both_ns, 300, CODES("ATTR_BAD_NAMESPACE"));
	sf_damaged(sf_unknown_flag, 300, CODES("ATTR_BAD_FLAGS"));
	ck_assert_uint_eq(sf_damaged(sf_zero_namelen, 300,
				     CODES("ATTR_BAD_NAMELEN")), 4);
}
END_TEST

START_TEST(sf_tiny_fork)
{
	struct fs_geom g = geo(4096);
	uint8_t fork[4] = { 0, 4, 0, 0 };
	struct fs_findings fl;

	findings_init(&fl);
	attr_sf_check(&g, INO, fork, 3, NULL, NULL, &fl, NULL);
	assert_codes(&fl, CODES("ATTR_SF_PAST_FORK"));
	findings_clear(&fl);
	/* count says 1 but nothing follows the header */
	fork[2] = 1;
	attr_sf_check(&g, INO, fork, 4, NULL, NULL, &fl, NULL);
	assert_codes(&fl, CODES("ATTR_SF_PAST_FORK"));
	findings_free(&fl);
}
END_TEST

/* ---- leaf blocks ---- */

static int tent_cmp(const void *a, const void *b)
{
	const struct tent *x = a, *y = b;
	xfs_dahash_t hx = da_hashname((const uint8_t *)x->name, tent_nl(x));
	xfs_dahash_t hy = da_hashname((const uint8_t *)y->name, tent_nl(y));

	return hx < hy ? -1 : hx > hy;
}

static void leaf_crc(uint8_t *blk, uint32_t bs)
{
	xfs_cksum_update(blk, bs, XFS_DA3_BLKINFO_CRC_OFF);
}

/*
 * A leaf as the kernel lays one out without holes: entries sorted by
 * hash, names packed down from the end of the block, one free region
 * between the entry table and the names.
 */
static void build_leaf(const struct fs_geom *g, uint8_t *blk,
		       const struct tent *in, unsigned n)
{
	struct xfs_attr3_leaf_hdr *h = (void *)blk;
	struct xfs_attr_leaf_entry *ents = (void *)(blk + sizeof(*h));
	struct tent *t = malloc((n ? n : 1) * sizeof(*t));
	uint32_t bs = g->blocksize, off = bs, end;

	memset(name255, 'n', 255);
	memcpy(t, in, n * sizeof(*t));
	qsort(t, n, sizeof(*t), tent_cmp);
	memset(blk, 0, bs);
	put_be16(&h->info.magic, XFS_ATTR3_LEAF_MAGIC);
	put_be64(&h->info.blkno, DADDR);
	put_be64(&h->info.owner, INO);
	memcpy(&h->info.uuid, &g->meta_uuid, 16);
	for (unsigned i = 0; i < n; i++) {
		unsigned nl = tent_nl(&t[i]);
		uint32_t vl = tent_vl(&t[i]);
		uint8_t *p;

		if (t[i].valueblk) {
			off -= XFS_ATTR_LEAF_NAME_REMOTE_SIZE(nl);
			p = blk + off;
			store_be32(p, t[i].valueblk);
			store_be32(p + 4, vl);
			p[8] = (uint8_t)nl;
			memcpy(p + 9, t[i].name, nl);
			ents[i].flags = t[i].flags;
		} else {
			off -= XFS_ATTR_LEAF_NAME_LOCAL_SIZE(nl, vl);
			p = blk + off;
			store_be16(p, (uint16_t)vl);
			p[2] = (uint8_t)nl;
			memcpy(p + 3, t[i].name, nl);
			if (vl)
				memcpy(p + 3 + nl, t[i].value, vl);
			ents[i].flags = t[i].flags | XFS_ATTR_LOCAL;
		}
		put_be32(&ents[i].hashval,
			 da_hashname((const uint8_t *)t[i].name, nl));
		put_be16(&ents[i].nameidx, (uint16_t)off);
	}
	end = sizeof(*h) + n * sizeof(*ents);
	put_be16(&h->count, (uint16_t)n);
	put_be16(&h->usedbytes, (uint16_t)(bs - off));
	put_be16(&h->firstused, (uint16_t)off);	/* 65536 -> 0 */
	put_be16(&h->freemap[0].base, (uint16_t)end);
	put_be16(&h->freemap[0].size, (uint16_t)(off - end));
	leaf_crc(blk, bs);
	free(t);
}


static const struct tent leaf_good[] = {
	{ 0, "a", 0, "1", 0, 0 },
	{ XFS_ATTR_ROOT, "trusted_one", 0, "hello", 0, 0 },
	{ XFS_ATTR_SECURE, "selinux", 0, "system_u:object_r:etc_t:s0", 0, 0 },
	{ 0, "empty", 0, NULL, 0, 0 },
	{ 0, "big", 0, NULL, 65536, 1 },
	{ XFS_ATTR_ROOT, "big2", 0, NULL, 5000, 18 },
	{ 0, name255, 0, "v", 0, 0 },
};
#define NLEAF_GOOD (sizeof(leaf_good) / sizeof(leaf_good[0]))

static int leaf_run(const struct fs_geom *g, const uint8_t *blk,
		    struct seen *s, struct fs_findings *fl,
		    struct attr_leaf_info *li)
{
	seen_init(s, blk, g->blocksize);
	return attr_leaf_check(g, INO, 0, DADDR, blk, collect, s, fl, li);
}

START_TEST(leaf_sound)
{
	static const uint32_t sizes[] = { 1024, 4096, 65536 };

	memset(name255, 'n', 255);
	for (unsigned k = 0; k < 3; k++) {
		struct fs_geom g = geo(sizes[k]);
		uint8_t *blk = malloc(g.blocksize);
		struct fs_findings fl;
		struct attr_leaf_info li;
		struct seen s;
		bool found_big = false, found_empty = false;

		build_leaf(&g, blk, leaf_good, NLEAF_GOOD);
		findings_init(&fl);
		ck_assert_int_eq(leaf_run(&g, blk, &s, &fl, &li), 0);
		assert_codes(&fl, no_codes);
		ck_assert(li.magic_ok);
		ck_assert_uint_eq(li.nerr, 0);
		ck_assert_uint_eq(li.count, NLEAF_GOOD);
		ck_assert_uint_eq(s.n, NLEAF_GOOD);
		ck_assert(!s.outside);
		for (unsigned i = 0; i < s.n; i++) {
			if (s.v[i].namelen == 3 && !memcmp(s.v[i].name, "big", 3)) {
				ck_assert(!s.v[i].has_value);
				ck_assert_uint_eq(s.v[i].valueblk, 1);
				ck_assert_uint_eq(s.v[i].valuelen, 65536);
				ck_assert_uint_eq(s.v[i].flags, 0);
				found_big = true;
			}
			if (s.v[i].namelen == 5 && !memcmp(s.v[i].name, "empty", 5)) {
				ck_assert_uint_eq(s.v[i].valuelen, 0);
				ck_assert_uint_eq(s.v[i].flags, XFS_ATTR_LOCAL);
				found_empty = true;
			}
			if (i)
				ck_assert_uint_le(
					da_hashname((uint8_t *)s.v[i - 1].name,
						    s.v[i - 1].namelen),
					da_hashname((uint8_t *)s.v[i].name,
						    s.v[i].namelen));
		}
		ck_assert(found_big && found_empty);
		ck_assert_uint_le(li.first, li.last);
		findings_free(&fl);
		free(blk);
	}
}
END_TEST

/* firstused 0 is 65536 on 64 KiB blocks only. */
START_TEST(leaf_firstused_64k)
{
	struct fs_geom g = geo(65536);
	uint8_t *blk = malloc(65536);
	struct fs_findings fl;
	struct seen s;

	/* an empty 64 KiB leaf: count is wrong, firstused 0 is not */
	build_leaf(&g, blk, leaf_good, 0);
	ck_assert_uint_eq(load_be16(blk + 60), 0);
	findings_init(&fl);
	leaf_run(&g, blk, &s, &fl, NULL);
	assert_codes(&fl, CODES("ATTR_LEAF_BAD_COUNT"));
	findings_clear(&fl);

	/* names reaching the last byte of a 64 KiB block */
	build_leaf(&g, blk, leaf_good, NLEAF_GOOD);
	leaf_run(&g, blk, &s, &fl, NULL);
	assert_codes(&fl, no_codes);
	findings_free(&fl);
	free(blk);

	/* on a 4 KiB block, 0 is simply below the entry table */
	g = geo(4096);
	blk = malloc(4096);
	build_leaf(&g, blk, leaf_good, 0);
	store_be16(blk + 60, 0);
	leaf_crc(blk, 4096);
	findings_init(&fl);
	leaf_run(&g, blk, &s, &fl, NULL);
	assert_codes(&fl, CODES("ATTR_LEAF_BAD_COUNT", "ATTR_LEAF_BAD_FIRSTUSED"));
	findings_free(&fl);
	free(blk);
}
END_TEST

/* Damage a sound 4 KiB leaf (CRC recomputed unless told) and expect codes. */
static unsigned leaf_damaged_x(void (*damage)(uint8_t *blk), bool fix_crc,
			       const char *const *want, bool exact)
{
	struct fs_geom g = geo(4096);
	uint8_t blk[4096];
	struct fs_findings fl;
	struct seen s;

	memset(name255, 'n', 255);
	build_leaf(&g, blk, leaf_good, NLEAF_GOOD);
	damage(blk);
	if (fix_crc)
		leaf_crc(blk, 4096);
	findings_init(&fl);
	leaf_run(&g, blk, &s, &fl, NULL);
	if (exact)
		assert_codes(&fl, want);
	else
		for (const char *const *w = want; *w; w++)
			ck_assert_msg(findings_has(&fl, problem_by_name(*w)),
				      "missing finding %s", *w);
	ck_assert(!s.outside);
	for (size_t i = 0; i < fl.n; i++) {
		ck_assert_uint_eq(fl.v[i].obj.ino, INO);
		ck_assert_uint_eq(fl.v[i].obj.daddr, DADDR);
		ck_assert_uint_eq(fl.v[i].obj.type, OBJ_ATTR);
	}
	findings_free(&fl);
	return s.n;
}

static unsigned leaf_damaged(void (*damage)(uint8_t *blk), bool fix_crc,
			     const char *const *want)
{
	return leaf_damaged_x(damage, fix_crc, want, true);
}

#define ENT(b, i)	((b) + 80 + 8 * (i))
static unsigned ent_nameidx(const uint8_t *b, unsigned i)
{
	return load_be16(ENT(b, i) + 4);
}

/* the index of the entry with the given name */
static unsigned find_ent(const uint8_t *b, const char *name)
{
	for (unsigned i = 0; i < load_be16(b + 56); i++) {
		const uint8_t *e = ENT(b, i);
		const uint8_t *p = b + load_be16(e + 4);
		unsigned nl = (e[6] & XFS_ATTR_LOCAL) ? p[2] : p[8];
		const uint8_t *nm = p + ((e[6] & XFS_ATTR_LOCAL) ? 3 : 9);

		if (nl == strlen(name) && !memcmp(nm, name, nl))
			return i;
	}
	ck_abort_msg("no entry %s", name);
	return 0;
}

/* the bytes entry i's name (and local value) take */
static unsigned ent_size(const uint8_t *b, unsigned i)
{
	const uint8_t *e = ENT(b, i), *p = b + load_be16(e + 4);

	if (e[6] & XFS_ATTR_LOCAL)
		return XFS_ATTR_LEAF_NAME_LOCAL_SIZE(p[2], load_be16(p));
	return XFS_ATTR_LEAF_NAME_REMOTE_SIZE(p[8]);
}

/* the entry whose name is lowest in the block (at firstused) */
static unsigned lowest_ent(const uint8_t *b)
{
	for (unsigned i = 0; i < load_be16(b + 56); i++)
		if (ent_nameidx(b, i) == load_be16(b + 60))
			return i;
	ck_abort_msg("no entry at firstused");
	return 0;
}

static void d_magic(uint8_t *b) { b[8] = 0xfb; }
static void d_crc(uint8_t *b) { b[2000] ^= 0x55; }	/* free space */
static void d_blkno(uint8_t *b) { store_be64(b + 16, DADDR + 8); }
static void d_owner(uint8_t *b) { store_be64(b + 48, INO + 1); }
static void d_uuid(uint8_t *b) { b[32] ^= 1; }
static void d_count0(uint8_t *b) { store_be16(b + 56, 0); }
static void d_count_huge(uint8_t *b) { store_be16(b + 56, 9000); }
static void d_count_20(uint8_t *b) { store_be16(b + 56, 20); }
static void d_usedbytes(uint8_t *b) { store_be16(b + 58, load_be16(b + 58) + 4); }
static void d_firstused(uint8_t *b) { store_be16(b + 60, load_be16(b + 60) - 4); }
/* a name below firstused is wrong even in a block with holes */
static void d_firstused_up(uint8_t *b)
{
	store_be16(b + 60, load_be16(b + 60) + 4);
	b[62] = 1;
}
/* firstused below the names is what a split leaves, with holes set */
static void d_firstused_holes(uint8_t *b)
{
	store_be16(b + 60, load_be16(b + 60) - 40);
	store_be16(b + 66, load_be16(b + 66) - 40);
	b[62] = 1;
}
static void d_swap(uint8_t *b)
{
	uint8_t t[8];

	memcpy(t, ENT(b, 1), 8);
	memcpy(ENT(b, 1), ENT(b, 2), 8);
	memcpy(ENT(b, 2), t, 8);
}
static void d_hash(uint8_t *b)
{
	unsigned i = find_ent(b, "a");

	ENT(b, i)[3] ^= 1;
}
static void d_nameidx_out(uint8_t *b)
{
	store_be16(ENT(b, find_ent(b, "empty")) + 4, 4096);
}
static void d_nameidx_low(uint8_t *b)
{
	store_be16(ENT(b, find_ent(b, "empty")) + 4, 100);
}
static void d_namelen_past(uint8_t *b)
{
	/* a name near the end of the block gets a long name and value */
	unsigned i = find_ent(b, "a");

	b[ent_nameidx(b, i) + 2] = 255;
	b[ent_nameidx(b, i) + 1] = 0xff;
}
static void d_overlap(uint8_t *b)
{
	unsigned i = find_ent(b, "a"), j = find_ent(b, "empty");

	/* "empty" points at "a": same name offset twice */
	store_be16(ENT(b, j) + 4, (uint16_t)ent_nameidx(b, i));
}
static void d_pad(uint8_t *b) { ENT(b, 0)[7] = 1; }
static void d_flags(uint8_t *b) { ENT(b, 0)[6] |= 1u << 4; }
static void d_incomplete(uint8_t *b)
{
	ENT(b, find_ent(b, "a"))[6] |= XFS_ATTR_INCOMPLETE;
}
static void d_rmt_len(uint8_t *b)
{
	store_be32(b + ent_nameidx(b, find_ent(b, "big")) + 4, 65537);
}
static void d_rmt_blk0(uint8_t *b)
{
	store_be32(b + ent_nameidx(b, find_ent(b, "big")), 0);
}
static void d_freemap_align(uint8_t *b) { store_be16(b + 64, load_be16(b + 64) + 2); }
static void d_freemap_past(uint8_t *b) { store_be16(b + 66, 4000); }
static void d_freemap_used(uint8_t *b) { store_be16(b + 66, load_be16(b + 66) + 8); }
static void d_freemap_table(uint8_t *b)
{
	store_be16(b + 68, 80);
	store_be16(b + 70, 8);
}
/* a gap in the name area: usedbytes stays right, holes is not set */
static void d_hole(uint8_t *b)
{
	unsigned i = lowest_ent(b);
	unsigned idx = ent_nameidx(b, i);

	/* move the lowest name down by 8 bytes, leaving 8 unused above it */
	memmove(b + idx - 8, b + idx, ent_size(b, i));
	store_be16(ENT(b, i) + 4, (uint16_t)(idx - 8));
	store_be16(b + 60, (uint16_t)(idx - 8));
	store_be16(b + 66, load_be16(b + 66) - 8);
}
static void d_hole_flagged(uint8_t *b)
{
	d_hole(b);
	b[62] = 1;
}

START_TEST(leaf_damage)
{
	ck_assert_uint_eq(leaf_damaged(d_magic, true,
				       CODES("ATTR_LEAF_BAD_MAGIC")), 0);
	ck_assert_uint_eq(leaf_damaged(d_crc, false,
				       CODES("ATTR_LEAF_BAD_CRC")), NLEAF_GOOD);
	leaf_damaged(d_blkno, true, CODES("ATTR_LEAF_BAD_BLKNO"));
	leaf_damaged(d_owner, true, CODES("ATTR_LEAF_BAD_OWNER"));
	leaf_damaged(d_uuid, true, CODES("ATTR_LEAF_BAD_UUID"));
	leaf_damaged(d_count0, true,
		     CODES("ATTR_LEAF_BAD_COUNT", "ATTR_LEAF_BAD_USEDBYTES",
			   "ATTR_LEAF_FIRSTUSED_LOW"));
	/* a count past the block: the names are read as entries */
	leaf_damaged_x(d_count_huge, true,
		       CODES("ATTR_LEAF_BAD_COUNT", "ATTR_LEAF_BAD_NAMEIDX"),
		       false);
	/* entries 7..19 are the zeroes of the free space */
	leaf_damaged(d_count_20, true,
		     CODES("ATTR_LEAF_BAD_NAMEIDX", "ATTR_LEAF_HASH_ORDER",
			   "ATTR_LEAF_FREEMAP_OVERLAP"));
	leaf_damaged(d_usedbytes, true, CODES("ATTR_LEAF_BAD_USEDBYTES"));
	leaf_damaged(d_firstused, true, CODES("ATTR_LEAF_FIRSTUSED_LOW"));
	leaf_damaged(d_firstused_up, true, CODES("ATTR_LEAF_BAD_FIRSTUSED"));
	leaf_damaged(d_firstused_holes, true, no_codes);
	ck_assert_uint_eq(leaf_damaged(d_swap, true,
				       CODES("ATTR_LEAF_HASH_ORDER")),
			  NLEAF_GOOD);
	leaf_damaged(d_hash, true, CODES("ATTR_LEAF_BAD_HASH"));
	ck_assert_uint_eq(leaf_damaged(d_nameidx_out, true,
				       CODES("ATTR_LEAF_BAD_NAMEIDX")),
			  NLEAF_GOOD - 1);
	/* inside the entry table */
	leaf_damaged(d_nameidx_low, true, CODES("ATTR_LEAF_BAD_NAMEIDX"));
	ck_assert_uint_eq(leaf_damaged(d_namelen_past, true,
				       CODES("ATTR_LEAF_PAST_END")),
			  NLEAF_GOOD - 1);
	leaf_damaged_x(d_overlap, true,
		       CODES("ATTR_LEAF_OVERLAP", "ATTR_LEAF_BAD_HASH"), false);
	leaf_damaged(d_pad, true, CODES("ATTR_LEAF_BAD_PAD"));
	leaf_damaged(d_flags, true, CODES("ATTR_BAD_FLAGS"));
	ck_assert_uint_eq(leaf_damaged(d_incomplete, true,
				       CODES("ATTR_INCOMPLETE")),
			  NLEAF_GOOD - 1);
	ck_assert_uint_eq(leaf_damaged(d_rmt_len, true,
				       CODES("ATTR_RMT_BAD_VALUELEN")),
			  NLEAF_GOOD - 1);
	ck_assert_uint_eq(leaf_damaged(d_rmt_blk0, true,
				       CODES("ATTR_RMT_BAD_VALUEBLK")),
			  NLEAF_GOOD - 1);
	leaf_damaged(d_freemap_align, true, CODES("ATTR_LEAF_BAD_FREEMAP"));
	leaf_damaged(d_freemap_past, true, CODES("ATTR_LEAF_BAD_FREEMAP"));
	leaf_damaged(d_freemap_used, true, CODES("ATTR_LEAF_FREEMAP_OVERLAP"));
	leaf_damaged(d_freemap_table, true, CODES("ATTR_LEAF_FREEMAP_OVERLAP"));
	leaf_damaged(d_hole, true, CODES("ATTR_LEAF_BAD_HOLES"));
	leaf_damaged(d_hole_flagged, true, no_codes);
}
END_TEST

/* ---- remote value blocks ---- */

static void build_rmt(const struct fs_geom *g, uint8_t *blk, uint32_t off,
		      uint32_t bytes)
{
	struct xfs_attr3_rmt_hdr *h = (void *)blk;

	memset(blk, 0, g->blocksize);
	put_be32(&h->rm_magic, XFS_ATTR3_RMT_MAGIC);
	put_be32(&h->rm_offset, off);
	put_be32(&h->rm_bytes, bytes);
	memcpy(&h->rm_uuid, &g->meta_uuid, 16);
	put_be64(&h->rm_owner, INO);
	put_be64(&h->rm_blkno, DADDR);
	for (uint32_t i = 0; i < bytes; i++)
		blk[sizeof(*h) + i] = (uint8_t)(off + i);
	xfs_cksum_update(blk, g->blocksize, XFS_ATTR3_RMT_CRC_OFF);
}

static void rmt_expect(unsigned fld_off, uint32_t xor, bool fix_crc,
		       const char *code)
{
	struct fs_geom g = geo(1024);
	uint8_t blk[1024];
	struct fs_findings fl;
	unsigned n;

	build_rmt(&g, blk, 968, 968);
	if (fld_off != ~0u)
		blk[fld_off] ^= (uint8_t)xor;
	if (fix_crc)
		xfs_cksum_update(blk, 1024, XFS_ATTR3_RMT_CRC_OFF);
	findings_init(&fl);
	n = attr_rmt_check(&g, INO, 3, DADDR, blk, 968, 968, &fl);
	if (code) {
		assert_codes(&fl, CODES(code));
		ck_assert_uint_eq(n, fl.n);
		ck_assert_uint_eq(fl.v[0].obj.index, 3);
	} else {
		assert_codes(&fl, no_codes);
		ck_assert_uint_eq(n, 0);
	}
	findings_free(&fl);
}

START_TEST(rmt_block)
{
	struct fs_geom g = geo(4096);

	ck_assert_uint_eq(attr_rmt_space(&g), 4040);
	ck_assert_uint_eq(attr_rmt_blocks(&g, 65536), 17);
	ck_assert_uint_eq(attr_rmt_blocks(&g, 4040), 1);
	ck_assert_uint_eq(attr_rmt_blocks(&g, 4041), 2);
	ck_assert_uint_eq(attr_rmt_blocks(&g, 0), 0);
	g = geo(1024);
	ck_assert_uint_eq(attr_rmt_blocks(&g, 65536), 68);

	rmt_expect(~0u, 0, false, NULL);
	rmt_expect(0, 0xff, true, "ATTR_RMT_BAD_MAGIC");
	rmt_expect(1000, 1, false, "ATTR_RMT_BAD_CRC");
	rmt_expect(20, 1, true, "ATTR_RMT_BAD_UUID");
	rmt_expect(39, 1, true, "ATTR_RMT_BAD_OWNER");
	rmt_expect(47, 8, true, "ATTR_RMT_BAD_BLKNO");
	rmt_expect(7, 4, true, "ATTR_RMT_BAD_OFFSET");
	rmt_expect(11, 4, true, "ATTR_RMT_BAD_BYTES");
}
END_TEST

/* ---- POSIX ACL values ---- */

/* What the kernel stored for u::rw-,u:1000:r--,g::r--,g:2000:r-x,m::rwx,o::r-- */
static const char acl_hex[] =
	"00000006"
	"00000001ffffffff00060000" "00000002000003e800040000"
	"00000004ffffffff00040000" "00000008000007d000050000"
	"00000010ffffffff00070000" "00000020ffffffff00040000";

static uint32_t acl_bytes(uint8_t *v)
{
	uint32_t n = (uint32_t)strlen(acl_hex) / 2;

	for (uint32_t i = 0; i < n; i++) {
		unsigned x;

		sscanf(acl_hex + 2 * i, "%2x", &x);
		v[i] = (uint8_t)x;
	}
	return n;
}

static void acl_expect(void (*damage)(uint8_t *v, uint32_t *len),
		       const char *name, unsigned ns, const char *field)
{
	uint8_t v[128];
	struct attr_rec r;
	struct fs_findings fl;
	struct fs_objref o = OBJREF_INIT(OBJ_ATTR);
	uint32_t len = acl_bytes(v);
	unsigned n;

	if (damage)
		damage(v, &len);
	memset(&r, 0, sizeof(r));
	r.flags = (uint8_t)ns;
	r.name = (const uint8_t *)name;
	r.namelen = (uint8_t)strlen(name);
	r.value = v;
	r.valuelen = len;
	findings_init(&fl);
	n = attr_acl_check(&r, &o, &fl);
	if (field) {
		assert_codes(&fl, CODES("ATTR_BAD_ACL"));
		ck_assert_uint_eq(n, 1);
		ck_assert_str_eq(fl.v[0].field, field);
	} else {
		assert_codes(&fl, no_codes);
		ck_assert_uint_eq(n, 0);
	}
	findings_free(&fl);
}

static void a_short(uint8_t *v, uint32_t *len) { (void)v; *len = 3; }
static void a_count(uint8_t *v, uint32_t *len) { (void)len; v[3] = 7; }
static void a_huge(uint8_t *v, uint32_t *len) { (void)len; v[0] = 0x7f; }
static void a_perm(uint8_t *v, uint32_t *len) { (void)len; v[4 + 9] = 8; }
static void a_tag(uint8_t *v, uint32_t *len) { (void)len; v[4 + 3] = 0x40; }
static void a_two_owners(uint8_t *v, uint32_t *len)
{
	(void)len;
	v[4 + 24 + 3] = XFS_ACL_USER_OBJ;	/* group_obj -> user_obj */
}
static void a_dup_user(uint8_t *v, uint32_t *len)
{
	(void)len;
	v[4 + 36 + 3] = XFS_ACL_USER;	/* g:2000 -> u:1000 */
	memcpy(v + 4 + 36 + 4, v + 4 + 12 + 4, 4);
}
static void a_no_mask(uint8_t *v, uint32_t *len)
{
	memmove(v + 4 + 48, v + 4 + 60, 12);	/* drop the mask */
	v[3] = 5;
	*len -= 12;
}
static void a_no_other(uint8_t *v, uint32_t *len)
{
	v[3] = 5;
	*len -= 12;
}
static void a_minimal(uint8_t *v, uint32_t *len)
{
	/* u::rw-,g::r--,o::r-- only: no mask needed */
	memmove(v + 4 + 12, v + 4 + 24, 12);
	memmove(v + 4 + 24, v + 4 + 60, 12);
	v[3] = 3;
	*len = 4 + 36;
}

START_TEST(acl_values)
{
	acl_expect(NULL, "SGI_ACL_FILE", XFS_ATTR_ROOT, NULL);
	acl_expect(NULL, "SGI_ACL_DEFAULT", XFS_ATTR_ROOT, NULL);
	acl_expect(a_minimal, "SGI_ACL_FILE", XFS_ATTR_ROOT, NULL);
	/* other names and namespaces are not ACLs, whatever they hold */
	acl_expect(a_tag, "SGI_ACL_FILE", 0, NULL);
	acl_expect(a_tag, "SGI_ACL_FIL", XFS_ATTR_ROOT, NULL);
	acl_expect(a_tag, "SGI_ACL_FILE", XFS_ATTR_SECURE, NULL);
	acl_expect(a_short, "SGI_ACL_FILE", XFS_ATTR_ROOT, "acl.size");
	acl_expect(a_count, "SGI_ACL_FILE", XFS_ATTR_ROOT, "acl.acl_cnt");
	acl_expect(a_huge, "SGI_ACL_DEFAULT", XFS_ATTR_ROOT, "acl.acl_cnt");
	acl_expect(a_perm, "SGI_ACL_FILE", XFS_ATTR_ROOT, "acl.ae_perm");
	acl_expect(a_tag, "SGI_ACL_FILE", XFS_ATTR_ROOT, "acl.ae_tag");
	acl_expect(a_two_owners, "SGI_ACL_FILE", XFS_ATTR_ROOT, "acl.ae_tag");
	acl_expect(a_dup_user, "SGI_ACL_FILE", XFS_ATTR_ROOT, "acl.ae_id");
	acl_expect(a_no_mask, "SGI_ACL_FILE", XFS_ATTR_ROOT, "acl.ae_tag");
	acl_expect(a_no_other, "SGI_ACL_FILE", XFS_ATTR_ROOT, "acl.ae_tag");
}
END_TEST

/* The block checkers run the ACL check on local values. */
START_TEST(acl_in_blocks)
{
	struct fs_geom g = geo(4096);
	uint8_t v[128], fork[300], blk[4096];
	struct fs_findings fl;
	struct tent t[2];
	uint32_t len = acl_bytes(v);

	t[0] = (struct tent){ 0, "a", 0, "1", 0, 0 };
	t[1] = (struct tent){ XFS_ATTR_ROOT, "SGI_ACL_FILE", 0,
			      (const char *)v, len, 0 };
	findings_init(&fl);
	memset(fork, 0, sizeof(fork));
	build_sf(fork, t, 2);
	attr_sf_check(&g, INO, fork, sizeof(fork), NULL, NULL, &fl, NULL);
	assert_codes(&fl, no_codes);
	build_leaf(&g, blk, t, 2);
	attr_leaf_check(&g, INO, 0, DADDR, blk, NULL, NULL, &fl, NULL);
	assert_codes(&fl, no_codes);

	v[3] = 9;			/* count */
	build_sf(fork, t, 2);
	attr_sf_check(&g, INO, fork, sizeof(fork), NULL, NULL, &fl, NULL);
	assert_codes(&fl, CODES("ATTR_BAD_ACL"));
	findings_clear(&fl);
	build_leaf(&g, blk, t, 2);
	attr_leaf_check(&g, INO, 0, DADDR, blk, NULL, NULL, &fl, NULL);
	assert_codes(&fl, CODES("ATTR_BAD_ACL"));
	findings_free(&fl);
}
END_TEST

/* ---- hostile input ---- */

static uint32_t rnd_state = 12345;
static uint32_t rnd(void)
{
	rnd_state = rnd_state * 1103515245u + 12345u;
	return rnd_state >> 8;
}

START_TEST(fuzz_blocks)
{
	static const uint32_t sizes[] = { 1024, 4096, 65536 };
	struct fs_findings fl;
	struct seen *s = malloc(sizeof(*s));

	memset(name255, 'n', 255);
	findings_init(&fl);
	fl.limit = 4096;
	for (unsigned k = 0; k < 3; k++) {
		struct fs_geom g = geo(sizes[k]);
		uint32_t bs = g.blocksize;
		/* exactly the block, so ASan sees any read past it */
		uint8_t *blk = malloc(bs), *sf = malloc(300);

		for (int iter = 0; iter < 3000; iter++) {
			unsigned flips = 1 + rnd() % 16;

			build_leaf(&g, blk, leaf_good, NLEAF_GOOD);
			for (unsigned f = 0; f < flips; f++) {
				/* mostly the header and table */
				uint32_t at = rnd() % 4 ? rnd() % 160 :
							  rnd() % bs;

				blk[at] = (uint8_t)rnd();
			}
			if (iter % 2)
				leaf_crc(blk, bs);
			leaf_run(&g, blk, s, &fl, NULL);
			ck_assert(!s->outside);
			findings_clear(&fl);

			if (iter % 3 == 0) {
				for (uint32_t i = 0; i < bs; i++)
					blk[i] = (uint8_t)rnd();
				blk[8] = 0x3b;
				blk[9] = 0xee;
				leaf_run(&g, blk, s, &fl, NULL);
				ck_assert(!s->outside);
				findings_clear(&fl);
			}

			memset(sf, 0, 300);
			build_sf(sf, sf_good, 5);
			for (unsigned f = 0; f < flips; f++)
				sf[rnd() % 60] = (uint8_t)rnd();
			{
				uint32_t fs_size = 4 + rnd() % 296;

				seen_init(s, sf, fs_size);
				attr_sf_check(&g, INO, sf, fs_size, collect, s,
					      &fl, NULL);
				ck_assert(!s->outside);
				findings_clear(&fl);
			}
		}
		free(blk);
		free(sf);
	}
	findings_free(&fl);
	free(s);
}
END_TEST

/* ---- blocks dumped from reference-made filesystems (tests/data/attr) ---- */

struct fixture {
	xfs_ino_t	ino;
	xfs_dablk_t	dablk;
	xfs_daddr_t	daddr;
	uint8_t		*data;
	size_t		len;
};

static uint8_t *slurp(const char *file, size_t *len)
{
	return unit_fixture("attr", file, len);
}

/* The geometry of a fixture image, from its superblock. */
static struct fs_geom fixture_geo(const char *img)
{
	struct fs_geom g;
	struct fs_sb sb;
	char file[64];
	size_t len;
	uint8_t *raw;

	snprintf(file, sizeof(file), "%s-sb.bin", img);
	raw = slurp(file, &len);
	sb_decode((const struct xfs_dsb *)raw, &sb);
	geom_init(&g, &sb);
	free(raw);
	return g;
}

static void fixture_load(const char *name, struct fixture *fx)
{
	FILE *f = fopen(unit_fixture_path("attr", "MANIFEST"), "r");
	char line[256], file[80], nm[64], img[64];
	unsigned long long ino, dablk, daddr;

	ck_assert(f != NULL);
	memset(fx, 0, sizeof(*fx));
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63s %63s %llu %llu %llu", nm, img, &ino,
			   &dablk, &daddr) != 5 || strcmp(nm, name))
			continue;
		fx->ino = ino;
		fx->dablk = (xfs_dablk_t)dablk;
		fx->daddr = daddr;
		snprintf(file, sizeof(file), "%s.bin", name);
		fx->data = slurp(file, &fx->len);
		break;
	}
	fclose(f);
	ck_assert_msg(fx->data != NULL, "fixture %s not in MANIFEST", name);
}

/* The value pattern of tests/lib/attr-populate.sh. */
static uint8_t pattern(uint32_t i, unsigned seed)
{
	return (uint8_t)((i * 7 + seed * 13 + (i >> 8)) & 0xff);
}

static const struct seen_rec *seen_find(const struct seen *s, uint8_t ns,
					const char *name)
{
	for (unsigned i = 0; i < s->n && i < 600; i++)
		if ((s->v[i].flags & XFS_ATTR_NSP_ONDISK_MASK) == ns &&
		    s->v[i].namelen == strlen(name) &&
		    !memcmp(s->v[i].name, name, s->v[i].namelen))
			return &s->v[i];
	ck_abort_msg("no attribute %s", name);
	return NULL;
}

START_TEST(ref_short_form)
{
	static const char *const img[] = { "a4k", "a1k" };

	for (unsigned k = 0; k < 2; k++) {
		struct fs_geom g = fixture_geo(img[k]);
		struct fixture fx;
		struct fs_findings fl;
		struct seen s;
		const struct seen_rec *r;
		char nm[64];
		uint32_t lit, off;

		snprintf(nm, sizeof(nm), "%s-sf-inode", img[k]);
		fixture_load(nm, &fx);
		ck_assert_uint_eq(fx.len, g.inodesize);
		ck_assert_uint_eq(fx.data[83], XFS_DINODE_FMT_LOCAL); /* aformat */
		lit = 176 + fx.data[82] * 8;			/* forkoff */
		ck_assert_uint_lt(lit, fx.len);
		off = (uint32_t)fx.len - lit;
		findings_init(&fl);
		seen_init(&s, fx.data + lit, off);
		ck_assert_int_eq(attr_sf_check(&g, fx.ino, fx.data + lit, off,
					       collect, &s, &fl, NULL), 0);
		assert_codes(&fl, no_codes);
		ck_assert_uint_eq(s.n, 4);
		r = seen_find(&s, 0, "a");
		ck_assert_uint_eq(r->valuelen, 3);
		ck_assert_mem_eq(r->value, "one", 3);
		ck_assert_uint_eq(seen_find(&s, 0, "empty")->valuelen, 0);
		r = seen_find(&s, XFS_ATTR_ROOT, "t");
		ck_assert_uint_eq(r->valuelen, 4);
		ck_assert_mem_eq(r->value, "\x00\x01\x02\xff", 4);
		r = seen_find(&s, XFS_ATTR_SECURE, "s");
		ck_assert_mem_eq(r->value, "sec", 3);
		findings_free(&fl);
		free(fx.data);
	}
}
END_TEST

/* A leaf fixture checks clean; returns what it held. */
static void ref_leaf(const struct fs_geom *g, const char *name, struct seen *s,
		     struct attr_leaf_info *li, struct fixture *fx)
{
	struct fs_findings fl;

	fixture_load(name, fx);
	ck_assert_uint_eq(fx->len, g->blocksize);
	findings_init(&fl);
	seen_init(s, fx->data, fx->len);
	ck_assert_int_eq(attr_leaf_check(g, fx->ino, fx->dablk, fx->daddr,
					 fx->data, collect, s, &fl, li), 0);
	assert_codes(&fl, no_codes);
	ck_assert(!s->outside);
	ck_assert_uint_eq(li->nerr, 0);
	ck_assert_uint_eq(li->count, s->n);
	findings_free(&fl);
}

START_TEST(ref_leaf_forms)
{
	struct fs_geom g = fixture_geo("a4k");
	struct attr_leaf_info li;
	struct fixture fx;
	struct seen *s = malloc(sizeof(*s));
	const struct seen_rec *r;
	char nm[32];

	/* 40 local values, an empty one, trusted and security */
	ref_leaf(&g, "a4k-leaf", s, &li, &fx);
	ck_assert_uint_eq(s->n, 43);
	r = seen_find(s, 0, "leaf.007");
	ck_assert_uint_eq(r->valuelen, 40);
	for (uint32_t i = 0; i < 40; i++)
		ck_assert_uint_eq(r->value[i], pattern(i, 7));
	ck_assert_uint_eq(seen_find(s, 0, "leaf.empty")->valuelen, 0);
	seen_find(s, XFS_ATTR_ROOT, "leaf.t");
	seen_find(s, XFS_ATTR_SECURE, "leaf.s");
	ck_assert_uint_eq(li.forw, 0);
	ck_assert_uint_eq(li.back, 0);
	free(fx.data);

	/* every other attribute removed: the survivors, holes left behind */
	ref_leaf(&g, "a4k-leafholes", s, &li, &fx);
	ck_assert_uint_eq(s->n, 30);
	for (unsigned i = 1; i < 60; i += 2) {
		snprintf(nm, sizeof(nm), "hole.%03u", i);
		ck_assert_uint_eq(seen_find(s, 0, nm)->valuelen, 20 + i % 7);
	}
	free(fx.data);

	/* remote values, 255-byte names */
	ref_leaf(&g, "a4k-leafrmt", s, &li, &fx);
	ck_assert_uint_eq(s->n, 7);
	r = seen_find(s, 0, "r64k");
	ck_assert(!r->has_value);
	ck_assert_uint_eq(r->valuelen, 65536);
	ck_assert_uint_eq(r->valueblk, 1);
	ck_assert(!seen_find(s, 0, "overblock")->has_value);
	ck_assert(seen_find(s, XFS_ATTR_ROOT, "r1k")->has_value);
	ck_assert_uint_eq(seen_find(s, 0, "e")->valuelen, 0);
	for (unsigned i = 0; i < s->n; i++)
		if (s->v[i].namelen == 250)
			ck_assert(!s->v[i].has_value);
		else if (s->v[i].namelen == 247)
			ck_assert_uint_eq(s->v[i].flags,
					  XFS_ATTR_ROOT | XFS_ATTR_LOCAL);
	free(fx.data);
	free(s);
}
END_TEST

START_TEST(ref_remote_blocks)
{
	struct fs_geom g = fixture_geo("a4k");
	struct fs_findings fl;
	struct fixture fx;
	uint32_t last_off = 16 * attr_rmt_space(&g);

	findings_init(&fl);
	fixture_load("a4k-rmt-first", &fx);
	ck_assert_uint_eq(attr_rmt_check(&g, fx.ino, fx.dablk, fx.daddr,
					 fx.data, 0, 4040, &fl), 0);
	assert_codes(&fl, no_codes);
	for (uint32_t i = 0; i < 4040; i++)
		ck_assert_uint_eq(fx.data[56 + i], pattern(i, 3));
	/* the same block where the value's second block should be */
	attr_rmt_check(&g, fx.ino, fx.dablk + 1, fx.daddr, fx.data, 4040,
		       4040, &fl);
	assert_codes(&fl, CODES("ATTR_RMT_BAD_OFFSET"));
	findings_clear(&fl);
	/* and as another inode's */
	attr_rmt_check(&g, fx.ino + 1, fx.dablk, fx.daddr, fx.data, 0, 4040,
		       &fl);
	assert_codes(&fl, CODES("ATTR_RMT_BAD_OWNER"));
	findings_clear(&fl);
	free(fx.data);

	/* the 17th block holds the last 896 bytes */
	fixture_load("a4k-rmt-last", &fx);
	ck_assert_uint_eq(fx.dablk, 17);
	ck_assert_uint_eq(attr_rmt_check(&g, fx.ino, fx.dablk, fx.daddr,
					 fx.data, last_off, 65536 - last_off,
					 &fl), 0);
	assert_codes(&fl, no_codes);
	for (uint32_t i = 0; i < 65536 - last_off; i++)
		ck_assert_uint_eq(fx.data[56 + i], pattern(last_off + i, 3));
	free(fx.data);
	findings_free(&fl);
}
END_TEST

START_TEST(ref_node_leaves)
{
	struct fs_geom g = fixture_geo("a4k");
	struct fs_findings fl;
	struct attr_leaf_info li;
	struct fixture root, fx;
	struct seen *s = malloc(sizeof(*s));
	const struct xfs_da_node_entry *ents;
	struct fs_objref o = OBJREF_INIT(OBJ_ATTR);

	/* the root node checks clean and points at the leaf we have */
	fixture_load("a4k-node-root", &root);
	findings_init(&fl);
	ck_assert_uint_eq(da3_node_check(&g, root.data, root.len, root.daddr,
					 root.ino, &o, &fl), 0);
	ents = da3_node_ents(root.data);
	ref_leaf(&g, "a4k-node-leaf", s, &li, &fx);
	ck_assert_uint_eq(get_be32(ents[0].before), fx.dablk);
	/* its node entry carries the leaf's last hash */
	ck_assert_uint_eq(get_be32(ents[0].hashval), li.last);
	ck_assert_uint_le(li.first, li.last);
	ck_assert_uint_eq(li.back, 0);		/* the leftmost leaf */
	ck_assert_uint_ne(li.forw, 0);
	ck_assert_uint_gt(s->n, 20);
	free(fx.data);
	free(root.data);

	/* a leaf two levels down on 1 KiB blocks */
	g = fixture_geo("a1k");
	ref_leaf(&g, "a1k-node-leaf", s, &li, &fx);
	ck_assert_uint_gt(s->n, 5);
	ck_assert_uint_eq(li.back, 0);
	free(fx.data);
	findings_free(&fl);
	free(s);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("attr");
	TCase *tc = tcase_create("blocks");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, sf_sound);
	tcase_add_test(tc, sf_damage);
	tcase_add_test(tc, sf_tiny_fork);
	tcase_add_test(tc, leaf_sound);
	tcase_add_test(tc, leaf_firstused_64k);
	tcase_add_test(tc, leaf_damage);
	tcase_add_test(tc, rmt_block);
	tcase_add_test(tc, acl_values);
	tcase_add_test(tc, acl_in_blocks);
	tcase_add_test(tc, fuzz_blocks);
	suite_add_tcase(s, tc);
	tc = tcase_create("reference");
	tcase_add_test(tc, ref_short_form);
	tcase_add_test(tc, ref_leaf_forms);
	tcase_add_test(tc, ref_remote_blocks);
	tcase_add_test(tc, ref_node_leaves);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
