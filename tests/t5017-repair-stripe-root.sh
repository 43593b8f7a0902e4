#!/bin/sh
# Where mkfs puts the root directory on a filesystem with a stripe unit.
# Inode chunks follow the stripe unit only when the superblock's unit is
# a multiple of the inode alignment (the kernel's ialloc_align); any
# other unit leaves the root where the inode alignment puts it.  With
# the primary's unit changed to each of those below (each one the
# superblock checks accept: it divides the width), our xfs_repair -n
# prints what the reference prints -- nothing about the root for any of
# them -- and exits as it does.  (We once held the root to a unit of 1,
# 2 or 4: "sb root inode value 128 inconsistent with calculated value
# 80", a false alarm.)
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
need_ref
need_tool "$XK_REPAIR"

units="1 2 4 8 16"
plan $(($(echo $units | wc -w) + 1))

base="$T/su.img"
truncate -s 1G "$base" &&
	"$REF_MKFS" -q -f -d su=64k,sw=4 "$base" > "$T/mkfs.out" 2>&1 ||
	{ diag "$(cat "$T/mkfs.out")"; skip_all "the reference mkfs failed"; }
made=$("$REF_DB" -r -c "sb 0" -c "p unit" -c "p rootino" "$base" | tr '\n' ' ')
check "mkfs: stripe unit 16 blocks, root 128 ($made)" \
	test "$made" = "unit = 16 rootino = 128 "

# the lines of OUT worth comparing: no progress, host or verifier noise
lines() {
	grep -aEv '^(        - |Metadata (corruption|CRC error) detected|Cannot get host filesystem geometry|Repair may fail if there is a sector size mismatch|the image and the host filesystem|$)' "$1"
}

for u in $units; do
	img="$T/su$u.img"
	cp --sparse=always "$base" "$img"
	"$REF_DB" -x -c "sb 0" -c "write -d unit $u" "$img" > /dev/null 2>&1
	"$REF_REPAIR" -n "$img" > "$T/ref$u.out" 2>&1
	refrc=$?
	"$XK_REPAIR" -n "$img" > "$T/ours$u.out" 2>&1
	rc=$?
	lines "$T/ref$u.out" > "$T/ref$u.cmp"
	lines "$T/ours$u.out" > "$T/ours$u.cmp"
	if [ "$rc" = "$refrc" ] && cmp -s "$T/ref$u.cmp" "$T/ours$u.cmp"; then
		ok "primary stripe unit $u: exit $rc and the reference's lines"
	else
		not_ok "primary stripe unit $u: exit $rc (reference $refrc)"
		diag "$(diff "$T/ref$u.cmp" "$T/ours$u.cmp" | head -10)"
	fi
	rm -f "$img"
done
done_testing
