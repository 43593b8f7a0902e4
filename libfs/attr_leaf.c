/*
 * Attribute leaf blocks (extended_attributes.asciidoc "Leaf Attributes"):
 * a struct xfs_attr3_leaf_hdr, then count struct xfs_attr_leaf_entry
 * (hash, name offset, flags) sorted by hash, and the names and values
 * they point at, packed downwards from the end of the block, each
 * 4-aligned: struct xfs_attr_leaf_name_local (value in the block) or
 * struct xfs_attr_leaf_name_remote (value in blocks of its own).
 *
 * In:  one block's bytes, where it was read from, whose it is.
 * Out: findings; the usable entries in block order; what a dabtree walk
 *      needs to know about the block (first and last hash, siblings).
 *
 * What stays true: every byte this code looks at lies inside the block.
 * An entry whose name offset or lengths point outside is reported and
 * skipped, and the header sums (usedbytes, firstused, holes) are only
 * compared when every entry could be measured, so one bad entry gives
 * one finding rather than four.
 */
#include "config.h"
#include <string.h>
#include "attr_int.h"
#include "dabtree.h"

#define LEAF_HDR_SIZE	sizeof(struct xfs_attr3_leaf_hdr)
#define LEAF_ENT_SIZE	sizeof(struct xfs_attr_leaf_entry)

static const struct attr_fields leaf_fields = {
	.namelen = "nvlist.namelen",
	.name = "nvlist.name",
	.flags = "entries.flags",
};

/*
 * Which 4-byte units of the block something uses: the header and entry
 * table, then each name/value.  Everything in a sound block is 4-aligned;
 * a misaligned name is reported on its own and claims the units it
 * touches.
 */
struct leaf_map {
	uint64_t	bits[(1u << XFS_MAX_BLOCKSIZE_LOG) / 4 / 64];
};

/* Claim [start, end); true if any of it was claimed before. */
static bool map_claim(struct leaf_map *m, uint32_t start, uint32_t end)
{
	bool clash = false;

	for (uint32_t u = start / 4; u < (end + 3) / 4; u++) {
		uint64_t bit = 1ull << (u % 64);

		if (m->bits[u / 64] & bit)
			clash = true;
		m->bits[u / 64] |= bit;
	}
	return clash;
}

static bool map_any(const struct leaf_map *m, uint32_t start, uint32_t end)
{
	for (uint32_t u = start / 4; u < (end + 3) / 4; u++)
		if (m->bits[u / 64] & (1ull << (u % 64)))
			return true;
	return false;
}

/* The leaf's blkinfo is checked by the dabtree code, with our codes. */
static const struct da_hdr_codes attr_leaf_codes = {
	.crc = PR_ATTR_LEAF_BAD_CRC,
	.blkno = PR_ATTR_LEAF_BAD_BLKNO,
	.uuid = PR_ATTR_LEAF_BAD_UUID,
	.owner = PR_ATTR_LEAF_BAD_OWNER,
	.lsn = PR_ATTR_LEAF_BAD_LSN,
};

int attr_leaf_check(const struct fs_geom *g, xfs_ino_t ino, xfs_dablk_t dablk,
		    xfs_daddr_t daddr, const uint8_t *blk, attr_fn fn,
		    void *priv, struct fs_findings *fl,
		    struct attr_leaf_info *info)
{
	const struct xfs_attr3_leaf_hdr *h = (const void *)blk;
	const struct xfs_attr_leaf_entry *ents =
		(const void *)(blk + LEAF_HDR_SIZE);
	struct fs_objref o = attr_obj(ino, daddr, (uint64_t)-1);
	struct attr_leaf_info local;
	struct leaf_map map;
	uint32_t bs = g->blocksize, maxcount, count, entries_end;
	uint32_t firstused, raw_firstused, usedbytes, sum = 0, lowest;
	xfs_dahash_t prev = 0;
	bool all_measured = true;
	unsigned n = 0;
	int ret = 0;

	if (!info)
		info = &local;
	memset(info, 0, sizeof(*info));
	if (get_be16(h->info.magic) != XFS_ATTR3_LEAF_MAGIC) {
		fs_report_val(fl, PR_ATTR_LEAF_BAD_MAGIC, &o, "hdr.info.magic",
			      XFS_ATTR3_LEAF_MAGIC, get_be16(h->info.magic));
		info->nerr = 1;
		return 0;
	}
	info->magic_ok = true;
	info->forw = get_be32(h->info.forw);
	info->back = get_be32(h->info.back);
	n += da3_blkinfo_check(g, blk, bs, daddr, ino, &attr_leaf_codes, &o,
			       fl);

	count = get_be16(h->count);
	info->count = (uint16_t)count;
	maxcount = (bs - LEAF_HDR_SIZE) / LEAF_ENT_SIZE;
	if (count == 0 || count > maxcount) {
		/* an empty leaf is never left behind by the kernel */
		fs_report_found(fl, PR_ATTR_LEAF_BAD_COUNT, &o, "hdr.count",
				count);
		n++;
		if (count > maxcount)
			count = maxcount;
	}
	entries_end = LEAF_HDR_SIZE + count * LEAF_ENT_SIZE;
	usedbytes = get_be16(h->usedbytes);
	raw_firstused = get_be16(h->firstused);
	/* An empty 64 KiB block's firstused (65536) is stored as 0. */
	firstused = raw_firstused;
	if (raw_firstused == XFS_ATTR3_LEAF_NULLOFF && bs > UINT16_MAX)
		firstused = bs;
	if (firstused < entries_end || firstused > bs) {
		/* expected: the bound it is past */
		fs_report_val(fl, PR_ATTR_LEAF_BAD_FIRSTUSED, &o,
			      "hdr.firstused",
			      firstused < entries_end ? entries_end : bs,
			      raw_firstused);
		n++;
	}

	memset(&map, 0, sizeof(map));
	map_claim(&map, 0, entries_end);
	lowest = bs;
	for (uint32_t i = 0; i < count; i++) {
		const struct xfs_attr_leaf_entry *e = &ents[i];
		uint32_t nameidx = get_be16(e->nameidx), size, end;
		struct attr_rec r;
		bool usable;

		o.index = i;
		memset(&r, 0, sizeof(r));
		r.hash = get_be32(e->hashval);
		r.flags = e->flags;
		r.index = i;
		r.dablk = dablk;
		if (e->pad2) {
			fs_report_found(fl, PR_ATTR_LEAF_BAD_PAD, &o,
					"entries.pad2", e->pad2);
			n++;
		}
		if (i == 0)
			info->first = r.hash;
		else if (r.hash < prev) {
			fs_report_val(fl, PR_ATTR_LEAF_HASH_ORDER, &o,
				      "entries.hashval", prev, r.hash);
			n++;
		}
		prev = info->last = r.hash;
		info->nhashes++;

		if (nameidx < entries_end || nameidx >= bs) {
			fs_report_found(fl, PR_ATTR_LEAF_BAD_NAMEIDX, &o,
					"entries.nameidx", nameidx);
			n++;
			all_measured = false;
			continue;
		}
		if (nameidx & 3) {
			fs_report_found(fl, PR_ATTR_LEAF_BAD_NAMEIDX, &o,
					"entries.nameidx", nameidx);
			n++;
		}
		if (r.flags & XFS_ATTR_LOCAL) {
			const struct xfs_attr_leaf_name_local *nl =
				(const void *)(blk + nameidx);

			if (nameidx + 3 > bs) {
				fs_report_found(fl, PR_ATTR_LEAF_PAST_END, &o,
						"entries.nameidx", nameidx);
				n++;
				all_measured = false;
				continue;
			}
			r.namelen = nl->namelen;
			r.valuelen = get_be16(nl->valuelen);
			end = nameidx + 3 + r.namelen + r.valuelen;
			size = XFS_ATTR_LEAF_NAME_LOCAL_SIZE(r.namelen,
							     r.valuelen);
			r.name = nl->nameval;
			r.value = nl->nameval + r.namelen;
		} else {
			const struct xfs_attr_leaf_name_remote *nr =
				(const void *)(blk + nameidx);

			if (nameidx + 9 > bs) {
				fs_report_found(fl, PR_ATTR_LEAF_PAST_END, &o,
						"entries.nameidx", nameidx);
				n++;
				all_measured = false;
				continue;
			}
			r.namelen = nr->namelen;
			r.valuelen = get_be32(nr->valuelen);
			r.valueblk = get_be32(nr->valueblk);
			end = nameidx + 9 + r.namelen;
			size = XFS_ATTR_LEAF_NAME_REMOTE_SIZE(r.namelen);
			r.name = nr->name;
		}
		if (end > bs) {
			/* expected: the room left; found: what it needs */
			fs_report_val(fl, PR_ATTR_LEAF_PAST_END, &o,
				      "nvlist.namelen", bs - nameidx,
				      end - nameidx);
			n++;
			all_measured = false;
			continue;
		}
		sum += size;
		if (nameidx < lowest)
			lowest = nameidx;
		if (map_claim(&map, nameidx, nameidx + size < bs ?
					    nameidx + size : bs)) {
			fs_report_found(fl, PR_ATTR_LEAF_OVERLAP, &o,
					"entries.nameidx", nameidx);
			n++;
		}

		n += attr_check_entry(&o, r.flags, r.name, r.namelen,
				      &leaf_fields, fl, &usable);
		if (r.namelen && da_hashname(r.name, r.namelen) != r.hash) {
			fs_report_val(fl, PR_ATTR_LEAF_BAD_HASH, &o,
				      "entries.hashval",
				      da_hashname(r.name, r.namelen), r.hash);
			n++;
		}
		if (!(r.flags & XFS_ATTR_LOCAL) &&
		    !(r.flags & XFS_ATTR_INCOMPLETE)) {
			if (r.valuelen > XFS_XATTR_SIZE_MAX) {
				fs_report_val(fl, PR_ATTR_RMT_BAD_VALUELEN, &o,
					      "nvlist.valuelen",
					      XFS_XATTR_SIZE_MAX, r.valuelen);
				n++;
				usable = false;
			}
			if (r.valueblk == 0) {
				/* block 0 is the leaf or root node itself */
				fs_report_found(fl, PR_ATTR_RMT_BAD_VALUEBLK,
						&o, "nvlist.valueblk", 0);
				n++;
				usable = false;
			}
		}
		if (usable && (r.flags & XFS_ATTR_LOCAL))
			n += attr_acl_check(&r, &o, fl);
		if (usable && fn && !ret)
			ret = fn(priv, &r);
	}
	o.index = (uint64_t)-1;

	if (all_measured) {
		uint32_t want_fu = lowest;

		if (sum != usedbytes) {
			fs_report_val(fl, PR_ATTR_LEAF_BAD_USEDBYTES, &o,
				      "hdr.usedbytes", sum, usedbytes);
			n++;
		}
		/*
		 * No name may start below firstused (the kernel's verifier
		 * refuses the block).  Above it there may be free space only
		 * if the block says it has holes: the kernel leaves firstused
		 * where it was when it moves names out of a leaf (splits,
		 * joins) and marks the block as holed.  Reported above if
		 * outside the name area.
		 */
		if (firstused >= entries_end && firstused <= bs) {
			if (want_fu < firstused) {
				fs_report_val(fl, PR_ATTR_LEAF_BAD_FIRSTUSED,
					      &o, "hdr.firstused",
					      want_fu & 0xffff, raw_firstused);
				n++;
			} else if (!h->holes && want_fu != firstused) {
				fs_report_val(fl, PR_ATTR_LEAF_FIRSTUSED_LOW,
					      &o, "hdr.firstused",
					      want_fu & 0xffff, raw_firstused);
				n++;
			}
		}
		/*
		 * Without holes the names fill [lowest, end of block) with
		 * no gap; the kernel sets holes when it leaves one.
		 */
		if (!h->holes && sum != bs - lowest) {
			fs_report_val(fl, PR_ATTR_LEAF_BAD_HOLES, &o,
				      "hdr.holes", bs - lowest, sum);
			n++;
		}
	}

	/*
	 * The freemap.  What the kernel's verifier holds each entry to:
	 * 4-aligned, inside the block.  Beyond that, the kernel writes the
	 * next name it adds at the top of the first entry big enough and
	 * takes the entry table's growth from an entry that starts where
	 * the table ends: an entry over bytes in use (the header, the entry
	 * table, a name) has it write over them, and its write verifier
	 * then fails and shuts the filesystem down.
	 */
	for (unsigned i = 0; i < XFS_ATTR_LEAF_MAPSIZE; i++) {
		uint32_t base = get_be16(h->freemap[i].base);
		uint32_t size = get_be16(h->freemap[i].size);
		uint32_t u;

		o.index = i;
		if (base & 3) {
			fs_report_val(fl, PR_ATTR_LEAF_BAD_FREEMAP, &o,
				      "hdr.freemap.base", base & ~3u, base);
			n++;
		} else if (base > bs) {
			fs_report_val(fl, PR_ATTR_LEAF_BAD_FREEMAP, &o,
				      "hdr.freemap.base", bs, base);
			n++;
		} else if (size & 3) {
			fs_report_val(fl, PR_ATTR_LEAF_BAD_FREEMAP, &o,
				      "hdr.freemap.size", size & ~3u, size);
			n++;
		} else if (base + size > bs) {
			fs_report_val(fl, PR_ATTR_LEAF_BAD_FREEMAP, &o,
				      "hdr.freemap.size", bs - base, size);
			n++;
		} else if (size && base < entries_end) {
			/* expected: the first byte past the entry table */
			fs_report_val(fl, PR_ATTR_LEAF_FREEMAP_OVERLAP, &o,
				      "hdr.freemap.base", entries_end, base);
			n++;
		} else if (size && map_any(&map, base, base + size)) {
			/* expected: the size that stops short of a name */
			for (u = base; !map_any(&map, u, u + 4); u += 4)
				;
			fs_report_val(fl, PR_ATTR_LEAF_FREEMAP_OVERLAP, &o,
				      "hdr.freemap.size", u - base, size);
			n++;
		}
	}
	info->nerr = n;
	return ret;
}
