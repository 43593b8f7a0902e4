#!/bin/sh
# One damaged field of an AGF, AGI or AGFL (written with the reference
# xfs_db: "write -d" keeps the CRC good, "write -c" leaves it stale) makes
# walkfs exit 1 naming the problem code, and agtool (the AG checks alone)
# too; neither crashes (in the sanitizer build, no sanitizer report).
# Fields a header can be judged on alone (magic, version, seqno, length,
# CRC, UUID, LSN, roots, levels, free list indexes, counters in range,
# unlinked buckets, AGFL entries) and fields that only the trees can
# contradict (free blocks, longest extent, btree block counts, inode
# counts, an AGFL entry that is free space or listed twice) are both
# covered, on the deep image (every tree of one AG taller than one level)
# and on its other AG.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
. "$top_srcdir/tests/lib/ag-images.sh"

need_loop
need_ref
ag_need_tools

base=$(ag_deep_image) || skip_all "could not build the deep image"
d=$(ag_deep_ag "$base") || skip_all "no AG of the deep image has tall trees"
o=$((1 - d))


val() {
	ag_val "$base" "$@"
}

plan 86

lo=$(val "agf $o" length)
ld=$(val "agf $d" length)

# ---- AGF, judged alone ----
ag_expect "agf $o magicnum" AGF_BAD_MAGIC "agf $o" "write -d magicnum 0"
ag_expect "agf $o crc" AGF_BAD_CRC "agf $o" "write -c crc 0xdeadbeef"
ag_expect "agf $o versionnum" AGF_BAD_VERSION "agf $o" "write -d versionnum 2"
ag_expect "agf $o seqno" AGF_BAD_SEQNO "agf $o" "write -d seqno $d"
ag_expect "agf $o length" AGF_BAD_LENGTH "agf $o" "write -d length $((lo - 8))"
ag_expect "agf $o uuid" AGF_BAD_UUID "agf $o" \
	"write -d uuid 01234567-89ab-cdef-0123-456789abcdef"
ag_expect "agf $o lsn" AGF_BAD_LSN "agf $o" "write -d lsn 0x1fffffff0"
ag_expect "agf $o bnoroot past the AG" AGF_BAD_ROOT "agf $o" \
	"write -d bnoroot $((lo + 100))"
ag_expect "agf $o cntroot in the headers" AGF_BAD_ROOT "agf $o" \
	"write -d cntroot 0"
ag_expect "agf $o rmaplevel 0" AGF_BAD_LEVEL "agf $o" "write -d rmaplevel 0"
ag_expect "agf $o refcntlevel too tall" AGF_BAD_LEVEL "agf $o" \
	"write -d refcntlevel 20"
ag_expect "agf $o flfirst past the AGFL" AGF_BAD_FREELIST "agf $o" \
	"write -d flfirst 4000"
ag_expect "agf $o flcount" AGF_BAD_FREELIST "agf $o" \
	"write -d flcount $(($(val "agf $o" flcount) + 1))"
ag_expect "agf $o freeblks past the AG" AGF_BAD_FREEBLKS "agf $o" \
	"write -d freeblks $((lo + 1))"
ag_expect "agf $o rmapblocks 0" AGF_BAD_COUNTERS "agf $o" \
	"write -d rmapblocks 0"

# ---- AGF against its trees ----
ag_expect "agf $d freeblks" AGF_FREEBLKS_MISMATCH "agf $d" \
	"write -d freeblks $(($(val "agf $d" freeblks) - 1))"
ag_expect "agf $d longest" AGF_LONGEST_MISMATCH "agf $d" \
	"write -d longest $(($(val "agf $d" longest) - 1))"
ag_expect "agf $d btreeblks" AGF_BTREEBLKS_MISMATCH "agf $d" \
	"write -d btreeblks $(($(val "agf $d" btreeblks) + 1))"
ag_expect "agf $d rmapblocks" AGF_RMAP_BLOCKS_MISMATCH "agf $d" \
	"write -d rmapblocks $(($(val "agf $d" rmapblocks) + 1))"
ag_expect "agf $d refcntblocks" AGF_REFC_BLOCKS_MISMATCH "agf $d" \
	"write -d refcntblocks $(($(val "agf $d" refcntblocks) - 1))"

# ---- AGI, judged alone ----
ag_expect "agi $o magicnum" AGI_BAD_MAGIC "agi $o" "write -d magicnum 0"
ag_expect "agi $o crc" AGI_BAD_CRC "agi $o" "write -c crc 0xdeadbeef"
ag_expect "agi $o versionnum" AGI_BAD_VERSION "agi $o" "write -d versionnum 9"
ag_expect "agi $o seqno" AGI_BAD_SEQNO "agi $o" "write -d seqno $d"
ag_expect "agi $o length" AGI_BAD_LENGTH "agi $o" "write -d length $((lo + 1))"
ag_expect "agi $o root past the AG" AGI_BAD_ROOT "agi $o" \
	"write -d root $((lo + 3))"
ag_expect "agi $o free_root in the headers" AGI_BAD_ROOT "agi $o" \
	"write -d free_root 1"
ag_expect "agi $o level 0" AGI_BAD_LEVEL "agi $o" "write -d level 0"
ag_expect "agi $o freecount above count" AGI_BAD_COUNT "agi $o" \
	"write -d freecount $(($(val "agi $o" count) + 1))"
ag_expect "agi $o newino" AGI_BAD_NEWINO "agi $o" "write -d newino 0xfffffff0"
ag_expect "agi $o unlinked bucket of another hash" AGI_BAD_UNLINKED "agi $o" \
	"write -d unlinked[3] 68"

# ---- AGI against its trees ----
ag_expect "agi $d count" AGI_COUNT_MISMATCH "agi $d" \
	"write -d count $(($(val "agi $d" count) + 64))"
ag_expect "agi $d freecount" AGI_FREECOUNT_MISMATCH "agi $d" \
	"write -d freecount $(($(val "agi $d" freecount) - 1))"
ag_expect "agi $d ino_blocks" AGI_IBLOCKS_MISMATCH "agi $d" \
	"write -d ino_blocks $(($(val "agi $d" ino_blocks) + 1))"
ag_expect "agi $d fino_blocks" AGI_FBLOCKS_MISMATCH "agi $d" \
	"write -d fino_blocks $(($(val "agi $d" fino_blocks) + 1))"

# ---- AGFL ----
first=$(val "agf $d" flfirst)
n=$(val "agf $d" flcount)
slots=$(( ($(ag_val "$base" "sb 0" sectsize) - 36) / 4 ))
second=$(( (first + 1) % slots ))
entry=$(ag_db "$base" "agfl $d" "print bno" | tr ' ' '\n' | awk -F: -v i="$first" '$1 == i { print $2 }')
freeb=$(ag_val "$base" "agf $d" "addr bnoroot" "addr ptrs[1]" "recs[1].startblock")
ag_expect "agfl $d magicnum" AGFL_BAD_MAGIC "agfl $d" "write -d magicnum 0"
ag_expect "agfl $d crc" AGFL_BAD_CRC "agfl $d" "write -c crc 0xdeadbeef"
ag_expect "agfl $d seqno" AGFL_BAD_SEQNO "agfl $d" "write -d seqno $o"
ag_expect "agfl $d uuid" AGFL_BAD_UUID "agfl $d" \
	"write -d uuid 01234567-89ab-cdef-0123-456789abcdef"
ag_expect "agfl $d entry past the AG" AGFL_BAD_ENTRY "agfl $d" \
	"write -d bno[$first] $((ld + 5))"
ag_expect "agfl $d active entry in the headers" AGFL_BAD_ENTRY "agfl $d" \
	"write -d bno[$first] 1"
ag_expect "agfl $d active entry that is free space" AGFL_ENTRY_FREE "agfl $d" \
	"write -d bno[$first] $freeb"
if [ "$n" -ge 2 ]; then
	ag_expect "agfl $d block listed twice" AGFL_DUP_ENTRY "agfl $d" \
		"write -d bno[$second] $entry"
else
	skip "agfl $d block listed twice: walkfs" "the free list has $n entries"
	skip "agfl $d block listed twice: agtool" "the free list has $n entries"
fi
done_testing
