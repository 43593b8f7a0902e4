/*
 * Where an attribute fork goes in the inode (see attr_write.h).
 *
 * Facts (kernel's shortform "bytes fit" rule and attribute fork
 * creation):
 *   - a device inode's attribute fork starts 8 bytes in, always;
 *   - otherwise a fork offset must leave the data fork at least the
 *     room of a 3-record bmap btree root (and what the data fork uses
 *     now), and the attribute fork at least a 2-record root;
 *   - within those bounds the attribute fork is made as small as the
 *     bytes need, but never smaller than the 2-record root;
 *   - short form that already fits the current fork keeps its offset; a
 *     btree data fork never moves an existing offset;
 *   - with no size in mind the fork goes at a fixed offset: 196 bytes
 *     (a 12-record root) into the literal area, or for 256-byte inodes
 *     the literal area less a 2-record root.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "attr_write.h"
#include "format/crc32c.h"
#include "format/btree.h"
#include "format/endian.h"

#define DI_OFF(m)	offsetof(struct xfs_dinode, m)

/* a bmap btree root in the inode of n records: header, keys, pointers */
#define BMDR_SPACE(n)	(4u + (n) * 16u)
#define MIN_DATA_ROOT	3	/* records a data fork root must keep room for */
#define MIN_ATTR_ROOT	2
/* the long-format bmbt block header the kernel keeps an in-memory root in */
#define BMBT_CRC_BLOCK_LEN 72u

static uint64_t di_nextents(const struct fs_geom *g, const uint8_t *di)
{
	if (g->has_nrext64 &&
	    (load_be64(di + DI_OFF(di_flags2)) & XFS_DIFLAG2_NREXT64))
		return load_be64(di + DI_OFF(u24.di_big_nextents));
	return load_be32(di + DI_OFF(u76.small.di_nextents));
}

unsigned attr_default_forkoff(const struct fs_geom *g, const uint8_t *di)
{
	if (di[DI_OFF(di_format)] == XFS_DINODE_FMT_DEV)
		return 1;
	if (g->inodesize == 256)
		return (attr_litino(g) - BMDR_SPACE(MIN_ATTR_ROOT)) >> 3;
	return BMDR_SPACE(6 * MIN_ATTR_ROOT) >> 3;
}

uint32_t attr_dfork_bytes(const struct fs_geom *g, const uint8_t *di)
{
	const uint8_t *df = di + XFS_DINODE_CORE_SIZE;

	switch (di[DI_OFF(di_format)]) {
	case XFS_DINODE_FMT_LOCAL:
		return (uint32_t)load_be64(di + DI_OFF(di_size));
	case XFS_DINODE_FMT_EXTENTS:
		return (uint32_t)(di_nextents(g, di) * 16);
	case XFS_DINODE_FMT_BTREE:
		return BMDR_SPACE(load_be16(df + 2));
	default:
		return 0;
	}
}

unsigned attr_sf_bytesfit(const struct fs_geom *g, const uint8_t *di,
			  uint32_t bytes)
{
	unsigned forkoff = di[DI_OFF(di_forkoff)];
	uint32_t lit = attr_litino(g), dsize, minoff, maxoff;
	int64_t offset = ((int64_t)lit - bytes) >> 3;
	const uint8_t *df = di + XFS_DINODE_CORE_SIZE;

	if (bytes > lit)
		return 0;
	if (di[DI_OFF(di_format)] == XFS_DINODE_FMT_DEV)
		return offset >= 1 ? 1 : 0;
	if (forkoff && bytes <= lit - forkoff * 8)
		return forkoff;
	dsize = attr_dfork_bytes(g, di);
	switch (di[DI_OFF(di_format)]) {
	case XFS_DINODE_FMT_EXTENTS:
		/* a new default fork would push the extents into a btree */
		if (!forkoff && dsize > attr_default_forkoff(g, di) * 8)
			dsize = BMDR_SPACE(MIN_DATA_ROOT);
		break;
	case XFS_DINODE_FMT_BTREE:
		if (forkoff)
			return offset < forkoff ? 0 : forkoff;
		/* the kernel measures its in-memory root, long header and all */
		dsize = BMBT_CRC_BLOCK_LEN + load_be16(df + 2) * 16u;
		break;
	}
	minoff = dsize > BMDR_SPACE(MIN_DATA_ROOT) ? dsize :
		 BMDR_SPACE(MIN_DATA_ROOT);
	minoff = (minoff + 7) >> 3;
	maxoff = (lit - BMDR_SPACE(MIN_ATTR_ROOT)) >> 3;
	if (offset >= maxoff)
		return maxoff;
	if (offset >= minoff)
		return (unsigned)offset;
	return 0;
}

static uint32_t bmdr_maxrecs(uint32_t size)
{
	return (size - 4) / 16;
}

bool attr_dfork_fits(const struct fs_geom *g, const uint8_t *di,
		     unsigned forkoff, bool *relayout)
{
	uint32_t old = di[DI_OFF(di_forkoff)] ? di[DI_OFF(di_forkoff)] * 8u :
		       attr_litino(g);
	uint32_t size = forkoff * 8u;

	*relayout = false;
	switch (di[DI_OFF(di_format)]) {
	case XFS_DINODE_FMT_DEV:
		return size >= 4;
	case XFS_DINODE_FMT_BTREE:
		*relayout = bmdr_maxrecs(old) != bmdr_maxrecs(size);
		return attr_dfork_bytes(g, di) <= size;
	default:
		return attr_dfork_bytes(g, di) <= size;
	}
}

void attr_dfork_relayout(const struct fs_geom *g, uint8_t *di,
			 unsigned new_forkoff)
{
	uint8_t *df = di + XFS_DINODE_CORE_SIZE;
	uint32_t old = di[DI_OFF(di_forkoff)] ? di[DI_OFF(di_forkoff)] * 8u :
		       attr_litino(g);
	uint32_t omax = bmdr_maxrecs(old), nmax = bmdr_maxrecs(new_forkoff * 8u);
	uint32_t n = load_be16(df + 2);
	uint8_t ptrs[2048];

	if (n > nmax || n > omax || omax == nmax)
		return;
	memcpy(ptrs, df + 4 + omax * 8, n * 8);
	memset(df + 4 + n * 8, 0, old - 4 - n * 8);
	memcpy(df + 4 + nmax * 8, ptrs, n * 8);
}

/* ---- attr3 leaf blocks ----
 *
 * Facts (the kernel's leaf add, remove and compaction): an entry's name
 * and value take the end of the first free-map region, scanning the map
 * from its last slot down, that holds them (and, for a region at the
 * table's end, the new table slot); a region that starts where the
 * table ends moves up a slot as the table grows.  Without such a region
 * but enough free bytes in all, or with holes, the block is compacted:
 * every entry copied in order, names packed down from the end, one free
 * region left.  A removed entry's bytes join a free region next to them,
 * or replace the smallest region if that is smaller; removing the entry
 * at firstused moves firstused up to the next name, removing any other
 * leaves a hole.
 */
#define LEAF_HDR	((uint32_t)sizeof(struct xfs_attr3_leaf_hdr))
#define LEAF_ENT	((uint32_t)sizeof(struct xfs_attr_leaf_entry))
#define HOFF(m)		offsetof(struct xfs_attr3_leaf_hdr, m)

static uint8_t *leaf_ent(uint8_t *blk, unsigned i)
{
	return blk + LEAF_HDR + i * LEAF_ENT;
}

static const uint8_t *leaf_cent(const uint8_t *blk, unsigned i)
{
	return blk + LEAF_HDR + i * LEAF_ENT;
}

static uint32_t ent_hash(const uint8_t *e)
{
	return load_be32(e);
}

static uint32_t ent_nameidx(const uint8_t *e)
{
	return load_be16(e + 4);
}

static uint8_t ent_flags(const uint8_t *e)
{
	return e[6];
}

void attr_leaf_hdr_get(const struct fs_geom *g, const uint8_t *blk,
		       struct attr_leaf_hdr *h)
{
	unsigned i;

	h->count = load_be16(blk + HOFF(count));
	h->usedbytes = load_be16(blk + HOFF(usedbytes));
	h->firstused = load_be16(blk + HOFF(firstused));
	if (!h->firstused)
		h->firstused = g->blocksize;
	h->holes = blk[HOFF(holes)];
	for (i = 0; i < XFS_ATTR_LEAF_MAPSIZE; i++) {
		h->freemap[i].base = load_be16(blk + HOFF(freemap) + i * 4);
		h->freemap[i].size = load_be16(blk + HOFF(freemap) + i * 4 + 2);
	}
}

void attr_leaf_hdr_put(const struct fs_geom *g, uint8_t *blk,
		       const struct attr_leaf_hdr *h)
{
	unsigned i;

	(void)g;
	store_be16(blk + HOFF(count), h->count);
	store_be16(blk + HOFF(usedbytes), h->usedbytes);
	/* 65536 does not fit: an empty 64 KiB leaf says 0 */
	store_be16(blk + HOFF(firstused),
		   h->firstused > 0xffff ? 0 : (uint16_t)h->firstused);
	blk[HOFF(holes)] = h->holes;
	for (i = 0; i < XFS_ATTR_LEAF_MAPSIZE; i++) {
		store_be16(blk + HOFF(freemap) + i * 4, h->freemap[i].base);
		store_be16(blk + HOFF(freemap) + i * 4 + 2, h->freemap[i].size);
	}
}

void attr_leaf_init(const struct fs_geom *g, uint8_t *blk, xfs_ino_t owner,
		    xfs_daddr_t daddr)
{
	struct attr_leaf_hdr h;

	memset(blk, 0, g->blocksize);
	store_be16(blk + offsetof(struct xfs_da3_blkinfo, magic),
		   XFS_ATTR3_LEAF_MAGIC);
	store_be64(blk + offsetof(struct xfs_da3_blkinfo, blkno), (uint64_t)daddr);
	memcpy(blk + offsetof(struct xfs_da3_blkinfo, uuid), &g->meta_uuid,
	       sizeof(xfs_uuid_t));
	store_be64(blk + offsetof(struct xfs_da3_blkinfo, owner), owner);
	memset(&h, 0, sizeof(h));
	h.firstused = g->blocksize;
	h.freemap[0].base = (uint16_t)LEAF_HDR;
	h.freemap[0].size = (uint16_t)(h.firstused - LEAF_HDR);
	attr_leaf_hdr_put(g, blk, &h);
}

uint32_t attr_leaf_newentsize(const struct fs_geom *g, unsigned namelen,
			      uint32_t valuelen, bool *local)
{
	uint32_t size = XFS_ATTR_LEAF_NAME_LOCAL_SIZE(namelen, valuelen);

	/* a value stays in the leaf while it takes under 3/4 of the block */
	*local = size < (g->blocksize >> 1) + (g->blocksize >> 2);
	return *local ? size : XFS_ATTR_LEAF_NAME_REMOTE_SIZE(namelen);
}

uint32_t attr_leaf_entsize(const uint8_t *blk, unsigned index)
{
	const uint8_t *e = leaf_cent(blk, index);
	const uint8_t *n = blk + ent_nameidx(e);

	if (ent_flags(e) & XFS_ATTR_LOCAL)
		return XFS_ATTR_LEAF_NAME_LOCAL_SIZE(n[2], load_be16(n));
	return XFS_ATTR_LEAF_NAME_REMOTE_SIZE(n[8]);
}

/* name and length of entry i */
static const uint8_t *ent_name(const uint8_t *blk, unsigned i, unsigned *len)
{
	const uint8_t *e = leaf_cent(blk, i);
	const uint8_t *n = blk + ent_nameidx(e);

	if (ent_flags(e) & XFS_ATTR_LOCAL) {
		*len = n[2];
		return n + 3;
	}
	*len = n[8];
	return n + 9;
}

bool attr_leaf_lookup(const struct fs_geom *g, const uint8_t *blk,
		      unsigned ns, const uint8_t *name, unsigned namelen,
		      unsigned *index)
{
	struct attr_leaf_hdr h;
	uint32_t hash = da_hashname(name, namelen);
	unsigned i, first;

	attr_leaf_hdr_get(g, blk, &h);
	/* the first entry whose hash is not below ours */
	for (i = 0; i < h.count && ent_hash(leaf_cent(blk, i)) < hash; i++)
		;
	first = i;
	for (; i < h.count && ent_hash(leaf_cent(blk, i)) == hash; i++) {
		const uint8_t *e = leaf_cent(blk, i);
		const uint8_t *n;
		unsigned len;

		if (ent_flags(e) & XFS_ATTR_INCOMPLETE)
			continue;
		n = ent_name(blk, i, &len);
		if (len == namelen && !memcmp(n, name, len) &&
		    (ent_flags(e) & XFS_ATTR_NSP_ONDISK_MASK) == ns) {
			*index = i;
			return true;
		}
	}
	/* not there: the kernel inserts after the run of equal hashes */
	*index = i == first ? first : i;
	return false;
}

/* Copy every entry of src into an empty dst, names packed from the end. */
static void leaf_compact(const struct fs_geom *g, uint8_t *blk,
			 struct attr_leaf_hdr *h)
{
	uint8_t *src = malloc(g->blocksize);
	struct attr_leaf_hdr s = *h;
	unsigned i;

	if (!src)
		return;
	memcpy(src, blk, g->blocksize);
	memset(blk + LEAF_HDR, 0, g->blocksize - LEAF_HDR);
	h->firstused = g->blocksize;
	h->usedbytes = 0;
	h->count = 0;
	h->holes = 0;
	for (i = 0; i < s.count; i++) {
		const uint8_t *es = leaf_cent(src, i);
		uint8_t *ed = leaf_ent(blk, i);
		uint32_t sz = attr_leaf_entsize(src, i);

		h->firstused -= sz;
		memcpy(ed, es, 4);
		store_be16(ed + 4, (uint16_t)h->firstused);
		ed[6] = es[6];
		memcpy(blk + h->firstused, src + ent_nameidx(es), sz);
		h->usedbytes += sz;
		h->count++;
	}
	memset(h->freemap, 0, sizeof(h->freemap));
	h->freemap[0].base = (uint16_t)(LEAF_HDR + h->count * LEAF_ENT);
	h->freemap[0].size = (uint16_t)(h->firstused - h->freemap[0].base);
	free(src);
}

static void leaf_add_work(const struct fs_geom *g, uint8_t *blk,
			  struct attr_leaf_hdr *h, unsigned index, unsigned map,
			  unsigned flags, const uint8_t *name, unsigned namelen,
			  const uint8_t *value, uint32_t valuelen)
{
	uint8_t *e = leaf_ent(blk, index), *n;
	bool local;
	uint32_t sz = attr_leaf_newentsize(g, namelen, valuelen, &local);
	uint32_t tab;
	unsigned i;

	if (index < h->count)
		memmove(e + LEAF_ENT, e, (h->count - index) * LEAF_ENT);
	h->count++;
	h->freemap[map].size -= (uint16_t)sz;
	store_be32(e, da_hashname(name, namelen));
	store_be16(e + 4, h->freemap[map].base + h->freemap[map].size);
	e[6] = (uint8_t)(flags & (XFS_ATTR_NSP_ONDISK_MASK | XFS_ATTR_INCOMPLETE));
	e[7] = 0;
	n = blk + ent_nameidx(e);
	if (local) {
		e[6] |= XFS_ATTR_LOCAL;
		store_be16(n, (uint16_t)valuelen);
		n[2] = (uint8_t)namelen;
		memcpy(n + 3, name, namelen);
		if (value)
			memcpy(n + 3 + namelen, value, valuelen);
		else
			memset(n + 3 + namelen, 'v', valuelen);
	} else {
		e[6] |= XFS_ATTR_INCOMPLETE;
		store_be32(n, 0);
		store_be32(n + 4, 0);
		n[8] = (uint8_t)namelen;
		memcpy(n + 9, name, namelen);
	}
	if (ent_nameidx(e) < h->firstused)
		h->firstused = ent_nameidx(e);
	tab = LEAF_HDR + (h->count - 1) * LEAF_ENT;
	for (i = 0; i < XFS_ATTR_LEAF_MAPSIZE; i++) {
		if (h->freemap[i].base == tab) {
			h->freemap[i].base += (uint16_t)LEAF_ENT;
			h->freemap[i].size -= (uint16_t)LEAF_ENT;
		}
	}
	h->usedbytes += (uint16_t)attr_leaf_entsize(blk, index);
}

int attr_leaf_add(const struct fs_geom *g, uint8_t *blk, unsigned index,
		  unsigned flags, const uint8_t *name, unsigned namelen,
		  const uint8_t *value, uint32_t valuelen)
{
	struct attr_leaf_hdr h;
	bool local;
	uint32_t sz = attr_leaf_newentsize(g, namelen, valuelen, &local);
	uint32_t tab, sum = 0, need;
	int i;

	attr_leaf_hdr_get(g, blk, &h);
	tab = (h.count + 1) * LEAF_ENT + LEAF_HDR;
	for (i = XFS_ATTR_LEAF_MAPSIZE - 1; i >= 0; i--) {
		if (tab > h.firstused) {
			sum += h.freemap[i].size;
			continue;
		}
		if (!h.freemap[i].size)
			continue;
		need = sz;
		if (h.freemap[i].base < h.firstused)
			need += LEAF_ENT;
		if (h.freemap[i].size >= need) {
			leaf_add_work(g, blk, &h, index, (unsigned)i, flags,
				      name, namelen, value, valuelen);
			attr_leaf_hdr_put(g, blk, &h);
			return 0;
		}
		sum += h.freemap[i].size;
	}
	if (!h.holes && sum < sz)
		return -ENOSPC;
	leaf_compact(g, blk, &h);
	if (h.freemap[0].size < sz + LEAF_ENT) {
		attr_leaf_hdr_put(g, blk, &h);
		return -ENOSPC;
	}
	leaf_add_work(g, blk, &h, index, 0, flags, name, namelen, value,
		      valuelen);
	attr_leaf_hdr_put(g, blk, &h);
	return 0;
}

void attr_leaf_set_remote(uint8_t *blk, unsigned index, xfs_dablk_t valueblk,
			  uint32_t valuelen)
{
	uint8_t *e = leaf_ent(blk, index);
	uint8_t *n = blk + ent_nameidx(e);

	e[6] &= (uint8_t)~XFS_ATTR_INCOMPLETE;
	store_be32(n, valueblk);
	store_be32(n + 4, valuelen);
}

void attr_leaf_remove(const struct fs_geom *g, uint8_t *blk, unsigned index)
{
	struct attr_leaf_hdr h;
	uint8_t *e = leaf_ent(blk, index);
	uint32_t tab, nameidx = ent_nameidx(e);
	uint32_t sz = attr_leaf_entsize(blk, index), tmp;
	int before = -1, after = -1, smallest = XFS_ATTR_LEAF_MAPSIZE - 1;
	unsigned i;
	bool first;

	attr_leaf_hdr_get(g, blk, &h);
	tab = h.count * LEAF_ENT + LEAF_HDR;
	tmp = h.freemap[0].size;
	for (i = 0; i < XFS_ATTR_LEAF_MAPSIZE; i++) {
		if (h.freemap[i].base == tab) {
			h.freemap[i].base -= (uint16_t)LEAF_ENT;
			h.freemap[i].size += (uint16_t)LEAF_ENT;
		}
		if (h.freemap[i].base + h.freemap[i].size == nameidx)
			before = (int)i;
		else if (h.freemap[i].base == nameidx + sz)
			after = (int)i;
		else if (h.freemap[i].size < tmp) {
			tmp = h.freemap[i].size;
			smallest = (int)i;
		}
	}
	if (before >= 0 && after >= 0) {
		h.freemap[before].size += (uint16_t)(sz + h.freemap[after].size);
		h.freemap[after].base = 0;
		h.freemap[after].size = 0;
	} else if (before >= 0) {
		h.freemap[before].size += (uint16_t)sz;
	} else if (after >= 0) {
		h.freemap[after].base = (uint16_t)nameidx;
		h.freemap[after].size += (uint16_t)sz;
	} else if (h.freemap[smallest].size < sz) {
		h.freemap[smallest].base = (uint16_t)nameidx;
		h.freemap[smallest].size = (uint16_t)sz;
	}
	first = nameidx == h.firstused;
	memset(blk + nameidx, 0, sz);
	h.usedbytes -= (uint16_t)sz;
	memmove(e, e + LEAF_ENT, (h.count - index - 1) * LEAF_ENT);
	h.count--;
	memset(leaf_ent(blk, h.count), 0, LEAF_ENT);
	if (first) {
		uint32_t low = g->blocksize;

		for (i = 0; i < h.count; i++)
			if (ent_nameidx(leaf_ent(blk, i)) < low)
				low = ent_nameidx(leaf_ent(blk, i));
		h.firstused = low;
	} else {
		h.holes = 1;
	}
	attr_leaf_hdr_put(g, blk, &h);
}

uint32_t attr_leaf_sf_bytes(const struct fs_geom *g, const uint8_t *blk)
{
	struct attr_leaf_hdr h;
	uint32_t bytes = sizeof(struct xfs_attr_sf_hdr);
	unsigned i;

	attr_leaf_hdr_get(g, blk, &h);
	for (i = 0; i < h.count; i++) {
		const uint8_t *e = leaf_cent(blk, i);
		const uint8_t *n = blk + ent_nameidx(e);

		if (ent_flags(e) & XFS_ATTR_INCOMPLETE)
			continue;
		if (!(ent_flags(e) & XFS_ATTR_LOCAL))
			return 0;
		if (n[2] >= 255 || load_be16(n) >= 255)
			return 0;
		bytes += XFS_ATTR_SF_ENTSIZE(n[2], load_be16(n));
	}
	return bytes;
}

void attr_leaf_crc(const struct fs_geom *g, uint8_t *blk)
{
	xfs_cksum_update(blk, g->blocksize, XFS_DA3_BLKINFO_CRC_OFF);
}

/* ---- remote value blocks ---- */

void attr_rmt_build(const struct fs_geom *g, uint8_t *blk, xfs_ino_t owner,
		    xfs_daddr_t daddr, uint32_t b, uint32_t valuelen,
		    const uint8_t *value, uint8_t fill)
{
	uint32_t space = g->blocksize - (uint32_t)sizeof(struct xfs_attr3_rmt_hdr);
	uint32_t off = b * space;
	uint32_t bytes = valuelen - off < space ? valuelen - off : space;
	uint8_t *d = blk + sizeof(struct xfs_attr3_rmt_hdr);

	memset(blk, 0, g->blocksize);
	store_be32(blk + offsetof(struct xfs_attr3_rmt_hdr, rm_magic),
		   XFS_ATTR3_RMT_MAGIC);
	store_be32(blk + offsetof(struct xfs_attr3_rmt_hdr, rm_offset), off);
	store_be32(blk + offsetof(struct xfs_attr3_rmt_hdr, rm_bytes), bytes);
	memcpy(blk + offsetof(struct xfs_attr3_rmt_hdr, rm_uuid), &g->meta_uuid,
	       sizeof(xfs_uuid_t));
	store_be64(blk + offsetof(struct xfs_attr3_rmt_hdr, rm_owner), owner);
	store_be64(blk + offsetof(struct xfs_attr3_rmt_hdr, rm_blkno),
		   (uint64_t)daddr);
	if (value)
		memcpy(d, value + off, bytes);
	else
		memset(d, fill, bytes);
	xfs_cksum_update(blk, g->blocksize, XFS_ATTR3_RMT_CRC_OFF);
}

/* ---- leaf split ----
 *
 * Facts (the kernel's leaf split for a dabtree): entries are counted off
 * from the start of the old leaf, the new entry included where it goes,
 * for as long as that brings the bytes used (entries' table slots and
 * names) nearer half of everything; the rest move to the new leaf,
 * copied in order with names packed from its end; the old leaf keeps
 * its free map and is marked as having holes.
 */
static uint32_t absdiff(uint32_t a, uint32_t b)
{
	return a > b ? a - b : b - a;
}

static void leaf_moveents(const struct fs_geom *g, uint8_t *src,
			  struct attr_leaf_hdr *hs, unsigned start,
			  uint8_t *dst, struct attr_leaf_hdr *hd,
			  unsigned dstart, unsigned count)
{
	unsigned i, desti = dstart;

	if (!count)
		return;
	/* make room in the destination's table */
	if (dstart < hd->count)
		memmove(leaf_ent(dst, dstart + count), leaf_ent(dst, dstart),
			(hd->count - dstart) * LEAF_ENT);
	for (i = 0; i < count; i++, desti++) {
		uint8_t *es = leaf_ent(src, start + i), *ed = leaf_ent(dst, desti);
		uint32_t sz = attr_leaf_entsize(src, start + i);

		hd->firstused -= sz;
		memcpy(ed, es, 4);
		store_be16(ed + 4, (uint16_t)hd->firstused);
		ed[6] = es[6];
		ed[7] = 0;
		memmove(dst + hd->firstused, src + ent_nameidx(es), sz);
		memset(src + ent_nameidx(es), 0, sz);
		hs->usedbytes -= (uint16_t)sz;
		hd->usedbytes += (uint16_t)sz;
		hd->count++;
	}
	hs->count -= (uint16_t)count;
	if (start == hs->count) {
		memset(leaf_ent(src, start), 0, count * LEAF_ENT);
	} else {
		memmove(leaf_ent(src, start), leaf_ent(src, start + count),
			(hs->count - start) * LEAF_ENT);
		memset(leaf_ent(src, hs->count), 0, count * LEAF_ENT);
	}
	memset(hd->freemap, 0, sizeof(hd->freemap));
	hd->freemap[0].base = (uint16_t)(LEAF_HDR + hd->count * LEAF_ENT);
	hd->freemap[0].size = (uint16_t)(hd->firstused - hd->freemap[0].base);
	hs->holes = 1;
	(void)g;
}

void attr_leaf_split(const struct fs_geom *g, uint8_t *old, uint8_t *nw,
		     unsigned index, uint32_t newsize, bool *in_old,
		     unsigned *newidx)
{
	struct attr_leaf_hdr h1, h2;
	uint32_t half, lastdelta = g->blocksize, total = 0, tmp;
	unsigned count, max;
	bool found = false;

	attr_leaf_hdr_get(g, old, &h1);
	attr_leaf_hdr_get(g, nw, &h2);
	max = h1.count + h2.count;
	half = ((max + 1) * LEAF_ENT + h1.usedbytes + h2.usedbytes + newsize) / 2;
	for (count = 0; count < max; count++) {
		if (count == index) {
			tmp = total + LEAF_ENT + newsize;
			if (absdiff(half, tmp) > lastdelta)
				break;
			lastdelta = absdiff(half, tmp);
			total = tmp;
			found = true;
		}
		tmp = total + LEAF_ENT + attr_leaf_entsize(old, count);
		if (absdiff(half, tmp) > lastdelta)
			break;
		lastdelta = absdiff(half, tmp);
		total = tmp;
	}
	total -= count * LEAF_ENT;
	if (found)
		total -= LEAF_ENT + newsize;
	if (count < h1.count) {
		unsigned move = h1.count - count;
		uint32_t space = h1.usedbytes - total + move * LEAF_ENT;
		uint32_t room = h2.firstused - LEAF_HDR - h2.count * LEAF_ENT;

		if (space > room)
			leaf_compact(g, nw, &h2);
		leaf_moveents(g, old, &h1, h1.count - move, nw, &h2, 0, move);
	}
	attr_leaf_hdr_put(g, old, &h1);
	attr_leaf_hdr_put(g, nw, &h2);
	if (index > h1.count) {
		*in_old = false;
		*newidx = index - h1.count;
	} else if (index == h1.count) {
		*in_old = found;
		*newidx = found ? index : 0;
	} else {
		*in_old = true;
		*newidx = index;
	}
}

uint32_t attr_leaf_lasthash(const struct fs_geom *g, const uint8_t *blk)
{
	struct attr_leaf_hdr h;

	attr_leaf_hdr_get(g, blk, &h);
	return h.count ? ent_hash(leaf_cent(blk, h.count - 1u)) : 0;
}

/* ---- leaf join ----
 *
 * Facts (the kernel's leaf "unbalance"): every entry of the dropped leaf
 * moves into the kept one, before its entries if their hashes are lower,
 * after them otherwise; a kept leaf with holes is rebuilt from scratch
 * (both leaves' entries copied, names packed from the end), one without
 * gets the entries added to it.
 */
static bool leaf_order_before(const uint8_t *a, const struct attr_leaf_hdr *ha,
			      const uint8_t *b, const struct attr_leaf_hdr *hb)
{
	/* do b's entries go before a's? */
	return ha->count && hb->count &&
	       (ent_hash(leaf_cent(b, 0)) < ent_hash(leaf_cent(a, 0)) ||
		ent_hash(leaf_cent(b, hb->count - 1u)) <
		ent_hash(leaf_cent(a, ha->count - 1u)));
}

int attr_leaf_join(const struct fs_geom *g, uint8_t *save, uint8_t *drop)
{
	struct attr_leaf_hdr hs, hd, ht;
	bool before;

	attr_leaf_hdr_get(g, save, &hs);
	attr_leaf_hdr_get(g, drop, &hd);
	if (LEAF_HDR + (hs.count + hd.count) * LEAF_ENT + hs.usedbytes +
	    hd.usedbytes > g->blocksize)
		return -ENOSPC;
	before = leaf_order_before(save, &hs, drop, &hd);
	if (!hs.holes) {
		leaf_moveents(g, drop, &hd, 0, save, &hs, before ? 0 : hs.count,
			      hd.count);
	} else {
		uint8_t *t = calloc(1, g->blocksize);

		if (!t)
			return -ENOMEM;
		memcpy(t, save, LEAF_HDR);
		memset(&ht, 0, sizeof(ht));
		ht.firstused = g->blocksize;
		if (before) {
			leaf_moveents(g, drop, &hd, 0, t, &ht, 0, hd.count);
			leaf_moveents(g, save, &hs, 0, t, &ht, ht.count, hs.count);
		} else {
			leaf_moveents(g, save, &hs, 0, t, &ht, 0, hs.count);
			leaf_moveents(g, drop, &hd, 0, t, &ht, ht.count, hd.count);
		}
		memcpy(save, t, g->blocksize);
		hs = ht;
		free(t);
	}
	attr_leaf_hdr_put(g, save, &hs);
	attr_leaf_hdr_put(g, drop, &hd);
	return 0;
}
