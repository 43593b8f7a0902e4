#!/bin/sh
# A filesystem populated through the kernel until every AG btree of one AG
# is taller than one level (1 KiB blocks; thousands of small files, a free
# inode in each of their chunks, a file with every other block punched and
# a reflinked copy of it) passes every AG check: the heights agtool walks
# are the heights the headers record, the free block and inode totals are
# the reference xfs_db's, the allocated inodes agtool lists from the inobt
# are exactly those the kernel shows, and walkfs reports nothing of this
# area (nor of any other, unless another area's walker is at fault, which
# skips that check and names it).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
sanitized_skip "clean images, compared with the reference: the normal pass runs it"
. "$top_srcdir/tests/lib/ag-images.sh"

need_loop
need_ref
AGTOOL="$top_builddir/tests/tools/agtool"
need_tool "$AGTOOL"
need_tool "$WALKFS"

plan 12

img=$(ag_deep_image) || skip_all "could not build the deep image"
ag=$(ag_deep_ag "$img") || { not_ok "an AG of the deep image has a tall inobt"; done_testing; }
ok "AG $ag of the deep image has a tall inobt"

"$AGTOOL" summary "$img" > "$T/sum" 2>&1
line=$(awk -v a="$ag" '$1 == "ag" && $2 == a' "$T/sum")
lv() { echo "$line" | awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }'; }
hdr="$(ag_val "$img" "agf $ag" bnolevel) $(ag_val "$img" "agf $ag" cntlevel)"
hdr="$hdr $(ag_val "$img" "agi $ag" level) $(ag_val "$img" "agi $ag" free_level)"
hdr="$hdr $(ag_val "$img" "agf $ag" rmaplevel) $(ag_val "$img" "agf $ag" refcntlevel)"
walked="$(lv bno) $(lv cnt) $(lv ino) $(lv fino) $(lv rmap) $(lv refc)"
[ "$walked" = "$hdr" ] && ok "walked heights are the headers' ($walked)" ||
	{ not_ok "walked heights are the headers'"; diag "walked $walked, headers $hdr"; }
short=$(echo "$walked" | tr ' ' '\n' | awk '$1 < 2' | wc -l)
[ "$short" -eq 0 ] && ok "all six trees are taller than one level" ||
	not_ok "all six trees are taller than one level ($walked)"

want="$(ag_val "$img" "agf $ag" freeblks) $(ag_val "$img" "agi $ag" count) $(ag_val "$img" "agi $ag" freecount)"
got="$(lv freeblks) $(lv icount) $(lv ifree)"
[ "$want" = "$got" ] && ok "free blocks and inode counts match xfs_db ($got)" ||
	{ not_ok "free blocks and inode counts match xfs_db"; diag "xfs_db $want, agtool $got"; }

"$AGTOOL" check "$img" > "$T/ag.out" 2>&1
rc=$?
[ $rc -eq 0 ] && ok "agtool check finds nothing" ||
	{ not_ok "agtool check finds nothing (exit $rc)"; diag "$(head -5 "$T/ag.out")"; }

"$REF_REPAIR" -n "$img" > "$T/repair.out" 2>&1 &&
	ok "the reference xfs_repair -n agrees the image is clean" ||
	{ not_ok "the reference xfs_repair -n agrees the image is clean"; diag "$(tail -5 "$T/repair.out")"; }

# allocated inodes: the inobt's against the kernel's namespace, plus the
# metadata inodes the namespace does not show
"$AGTOOL" inodes "$img" > "$T/ino.raw"
ok_ino=$?
sort -n "$T/ino.raw" > "$T/ino.ag"
n=$(wc -l < "$T/ino.ag")
inuse=0
for a in 0 1; do
	inuse=$((inuse + $(ag_val "$img" "agi $a" count) - $(ag_val "$img" "agi $a" freecount)))
done
[ "$n" -eq "$inuse" ] && ok "agtool lists each inode in use once ($n)" ||
	not_ok "agtool lists each inode in use once ($n, the AGIs say $inuse)"
ag_copy "$img" "$T/m.img"
if mount_img "$T/m.img" "$T/mnt" ro,nouuid; then
	find "$T/mnt" -xdev -printf '%i\n' > "$T/ino.k"
	umount_img "$T/mnt"
	for f in rbmino rsumino uquotino gquotino pquotino; do
		v=$(ag_val "$img" "sb 0" $f)
		case $v in ''|null|0) ;; *) echo "$v" >> "$T/ino.k" ;; esac
	done
	sort -n -u "$T/ino.k" > "$T/ino.ks"
	if cmp -s "$T/ino.ag" "$T/ino.ks"; then
		ok "the inobt's inodes are the kernel's"
	else
		not_ok "the inobt's inodes are the kernel's"
		diag "$(diff "$T/ino.ag" "$T/ino.ks" | head -5)"
	fi
else
	not_ok "the inobt's inodes are the kernel's (mount failed)"
fi
[ $ok_ino -eq 0 ] && [ "$(sort -u "$T/ino.ag" | wc -l)" -eq "$n" ] &&
	ok "agtool inodes exits 0, no inode listed twice" ||
	not_ok "agtool inodes exits 0, no inode listed twice (exit $ok_ino)"

"$WALKFS" -q "$img" > "$T/walk.out" 2>&1
rc=$?
area=$(ag_area_codes "$T/walk.out" | tr '\n' ' ')
[ $rc -lt 2 ] && ok "walkfs exits 0 or 1 ($rc)" || not_ok "walkfs exits 0 or 1 ($rc)"
[ -z "$area" ] && ok "walkfs reports no AG or btree problem" ||
	{ not_ok "walkfs reports no AG or btree problem ($area)"; diag "$(grep -E '\[(AG|BTREE|ALLOC|INOBT|FINOBT|RMAP|REFC|CNTBT)' "$T/walk.out" | head -5)"; }
if [ $rc -eq 0 ]; then
	ok "walkfs reports no finding"
elif [ -z "$area" ]; then
	skip "walkfs reports no finding" \
		"other areas report: $(ag_codes "$T/walk.out" | head -5 | tr '\n' ' ')"
else
	not_ok "walkfs reports no finding"
fi
done_testing
