#!/bin/sh
# A filesystem the reference xfs_repair has just repaired is clean to us
# too.  The reference rewrites every AGFL it rebuilds with the LSN
# 0xffffffffffffffff (NULLCOMMITLSN: "never logged"); our checks once
# called that LSN impossible, so xfs_repair -n exited 1 (AGFL_BAD_LSN)
# where the reference's -n exits 0, and walkfs reported it too.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
sanitized_skip "clean images, compared with the reference: the normal pass runs it"
. "$top_srcdir/tests/lib/repair-images.sh"

rp_need "$XK_REPAIR" "$WALKFS"

src=$(rp_image std) || skip_all "cannot make the std image"
plan 5

img="$T/fixed.img"
rp_copy "$src" "$img"
# something for the reference to fix: a wrong free block count in AG 1
"$REF_DB" -x -c "agf 1" -c "write -d freeblks 7" "$img" > /dev/null 2>&1
"$REF_REPAIR" "$img" > "$T/fix.out" 2>&1 ||
	{ diag "$(tail -5 "$T/fix.out")"; skip_all "the reference repair failed"; }

lsns=$(for a in 0 1 2 3; do
	"$REF_DB" -r -c "agfl $a" -c "p lsn" "$img" 2>&1
done | sort -u | tr '\n' ' ')
if [ "$lsns" = "lsn = 0xffffffffffffffff " ]; then
	ok "the reference's repair leaves every AGFL with LSN all ones"
else
	not_ok "the reference's repair leaves every AGFL with LSN all ones ($lsns)"
fi

"$REF_REPAIR" -n "$img" > "$T/ref.out" 2>&1
check "the reference's -n exits 0 on what it repaired" test $? -eq 0

s0=$(rp_sum "$img")
XFSKIT_REPAIR_FINDINGS="$T/found" "$XK_REPAIR" -n "$img" > "$T/ours.out" 2>&1
rc=$?
s1=$(rp_sum "$img")
if [ $rc -eq 0 ] && [ "$s0" = "$s1" ] && ! sanitizer_report "$T/ours.out"; then
	ok "our -n exits 0 too, and writes nothing"
else
	not_ok "our -n exits 0 too, and writes nothing (exit $rc)"
	diag "$(grep -v '^Phase\|^        - ' "$T/ours.out" | head -10)"
fi
check_fail "no AGFL_BAD_LSN among our notes" grep -q AGFL_BAD_LSN "$T/found"

"$WALKFS" -q "$img" > "$T/walk.out" 2>&1
rc=$?
if [ $rc -eq 0 ]; then
	ok "walkfs finds nothing"
else
	not_ok "walkfs finds nothing (exit $rc)"
	diag "$(head -6 "$T/walk.out")"
fi
rp_rm "$img"
done_testing
