#!/bin/sh
# One damaged field of a btree block, in each of the six AG trees of the
# deep image (every one taller than one level), makes walkfs exit 1 naming
# the problem code, and agtool (the AG checks alone) too, without a crash
# or a sanitizer report: the root's magic, CRC, level, record count, a
# child pointer past the end of the AG, a child reached twice and keys out
# of order; a leaf's records out of order, level and record count.  Then
# the block header fields (owner, disk address, sibling, UUID, LSN) on
# one tree, records that break their tree's own rules, and records that
# contradict another structure (cntbt vs bnobt, rmapbt vs AG metadata,
# free space over a btree block).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
. "$top_srcdir/tests/lib/ag-images.sh"

need_loop
need_ref
ag_need_tools

base=$(ag_deep_image) || skip_all "could not build the deep image"
d=$(ag_deep_ag "$base") || skip_all "no AG of the deep image has tall trees"
len=$(ag_val "$base" "agf $d" length)


# NAME HEADER ROOTFIELD KEYFIELD STEP: the trees, where their root is,
# and a key field that orders them (STEP keeps inode chunks aligned)
trees() {
	cat <<-EOF
	bnobt agf bnoroot startblock 1
	cntbt agf cntroot blockcount 1
	inobt agi root startino 64
	finobt agi free_root startino 64
	rmapbt agf rmaproot startblock 1
	refcountbt agf refcntroot startblock 1
	EOF
}

trees > "$T/trees"
plan $(($(wc -l < "$T/trees") * 20 + 2 * 16))

while read -r name hdr rootf keyf step; do
	r1="$hdr $d"
	r2="addr $rootf"
	level=$(ag_val "$base" "$r1" "$r2" level)
	# the leftmost leaf, reached through ptrs[1] at each level
	leaf="$r2"
	i=0
	while [ $i -lt "$level" ]; do
		leaf="$leaf;addr ptrs[1]"
		i=$((i + 1))
	done
	# shellcheck disable=SC2086
	set -f
	IFS=';'
	set -- $leaf
	unset IFS
	set +f
	k2=$(ag_val "$base" "$r1" "$r2" "keys[2].$keyf")
	p1=$(ag_val "$base" "$r1" "$r2" "ptrs[1]")
	rec2=$(ag_val "$base" "$r1" "$@" "recs[2].$keyf")

	ag_expect "$name root magic" BTREE_BAD_MAGIC "$r1" "$r2" "write -d magic 0"
	ag_expect "$name root crc" BTREE_BAD_CRC "$r1" "$r2" \
		"write -c crc 0xdeadbeef"
	ag_expect "$name root level" BTREE_BAD_LEVEL "$r1" "$r2" \
		"write -d level $((level + 1))"
	ag_expect "$name root numrecs" BTREE_BAD_NUMRECS "$r1" "$r2" \
		"write -d numrecs 1000"
	ag_expect "$name pointer past the AG" BTREE_BAD_PTR "$r1" "$r2" \
		"write -d ptrs[2] $((len + 100))"
	ag_expect "$name child reached twice" BTREE_BLOCK_REVISITED "$r1" "$r2" \
		"write -d ptrs[2] $p1"
	ag_expect "$name node keys out of order" BTREE_KEYS_OUT_OF_ORDER "$r1" \
		"$r2" "write -d keys[1].$keyf $((k2 + step))"
	ag_expect "$name leaf records out of order" BTREE_RECS_OUT_OF_ORDER "$r1" \
		"$@" "write -d recs[1].$keyf $((rec2 + step))"
	ag_expect "$name leaf level" BTREE_BAD_LEVEL "$r1" "$@" "write -d level 1"
	ag_expect "$name leaf numrecs" BTREE_BAD_NUMRECS "$r1" "$@" \
		"write -d numrecs 2000"
done < "$T/trees"

# block header fields, on the bnobt's first leaf
L1="agf $d"
L2="addr bnoroot"
L3="addr ptrs[1]"
ag_expect "bnobt leaf owner" BTREE_BAD_OWNER "$L1" "$L2" "$L3" \
	"write -d owner $((d + 1))"
ag_expect "bnobt leaf disk address" BTREE_BAD_BLKNO "$L1" "$L2" "$L3" \
	"write -d bno 8"
ag_expect "bnobt first leaf with a left sibling" BTREE_BAD_SIBLING "$L1" "$L2" \
	"$L3" "write -d leftsib 5000"
ag_expect "bnobt leaf uuid" BTREE_BAD_UUID "$L1" "$L2" "$L3" \
	"write -d uuid 01234567-89ab-cdef-0123-456789abcdef"
ag_expect "bnobt leaf lsn" BTREE_BAD_LSN "$L1" "$L2" "$L3" \
	"write -d lsn 0x1fffffff0"

# records that break their own tree's rules
ag_expect "bnobt extent of length 0" ALLOC_BAD_EXTENT "$L1" "$L2" "$L3" \
	"write -d recs[5].blockcount 0"
ag_expect "inobt free count" INOBT_BAD_FREECOUNT "agi $d" "addr root" \
	"addr ptrs[1]" "write -d recs[3].freecount 7"
ag_expect "inobt hole mask" INOBT_BAD_COUNT "agi $d" "addr root" \
	"addr ptrs[1]" "write -d recs[3].holemask 0xff"
ag_expect "finobt record with nothing free" FINOBT_NO_FREE "agi $d" \
	"addr free_root" "addr ptrs[1]" "write -d recs[2].free 0" \
	"write -d recs[2].freecount 0"
ag_expect "rmapbt headers mapped at an offset" RMAP_BAD_OFFSET "agf $d" \
	"addr rmaproot" "addr ptrs[1]" "addr ptrs[1]" \
	"write -d recs[1].offset 5"
ag_expect "rmapbt owner past the inodes" RMAP_BAD_OWNER "agf $d" \
	"addr rmaproot" "addr ptrs[1]" "addr ptrs[1]" \
	"write -d recs[3].owner 0x7fffffffffff"
ag_expect "refcountbt shared extent with one owner" REFC_BAD_REFCOUNT \
	"agf $d" "addr refcntroot" "addr ptrs[1]" \
	"write -d recs[4].refcount 1"

# records that contradict another structure
ag_expect "cntbt extent the bnobt lacks" CNTBT_EXTRA_EXTENT "agf $d" \
	"addr cntroot" "addr ptrs[1]" \
	"write -d recs[4].startblock $(($(ag_val "$base" "agf $d" "addr cntroot" "addr ptrs[1]" "recs[4].startblock") + 1))"
ag_expect "rmapbt headers given to the inodes" AG_RMAP_MISSING "agf $d" \
	"addr rmaproot" "addr ptrs[1]" "addr ptrs[1]" \
	"write -d recs[1].owner 0xfffffffffffffff9"
ibno=$(ag_val "$base" "agi $d" root)
ag_expect "free extent over the inobt root" AG_BLOCK_CONFLICT "agf $d" \
	"addr bnoroot" "addr ptrs[1]" "write -d recs[1].startblock $ibno"
ag_expect "free extent the rmapbt maps" AG_RMAP_FREE "agf $d" \
	"addr bnoroot" "addr ptrs[1]" "write -d recs[1].startblock $ibno"
done_testing
