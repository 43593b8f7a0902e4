#!/bin/sh
# walkfs refuses images that are not XFS v5 with a clear message and exit
# code 2, never a crash: zero-filled, random garbage, truncated, ext4, and
# a v4 XFS made by the reference mkfs.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"

plan 10

truncate -s 64M "$T/zero.img"
out=$("$WALKFS" "$T/zero.img" 2>&1); rc=$?
[ $rc -eq 2 ] && ok "zero-filled image exits 2" || not_ok "zero-filled image exits 2 (got $rc)"
echo "$out" | grep -q "not an XFS filesystem" && ok "zero-filled image: says not XFS" || not_ok "zero-filled image: says not XFS"

head -c 1048576 /dev/urandom > "$T/garbage.img"
"$WALKFS" "$T/garbage.img" >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && ok "random garbage exits 2" || not_ok "random garbage exits 2 (got $rc)"

: > "$T/empty.img"
out=$("$WALKFS" "$T/empty.img" 2>&1); rc=$?
[ $rc -eq 2 ] && ok "empty file exits 2" || not_ok "empty file exits 2 (got $rc)"

"$WALKFS" "$T/does-not-exist.img" >/dev/null 2>&1; rc=$?
[ $rc -eq 2 ] && ok "missing file exits 2" || not_ok "missing file exits 2 (got $rc)"

if command -v mkfs.ext4 >/dev/null 2>&1; then
	truncate -s 64M "$T/ext4.img"
	mkfs.ext4 -q -F "$T/ext4.img" >/dev/null 2>&1
	out=$("$WALKFS" "$T/ext4.img" 2>&1); rc=$?
	[ $rc -eq 2 ] && echo "$out" | grep -q "not an XFS" &&
		ok "ext4 image refused as not XFS" || not_ok "ext4 image refused as not XFS (rc $rc)"
else
	skip "ext4 image refused as not XFS" "mkfs.ext4 not installed"
fi

if [ -x "$REF_MKFS" ]; then
	truncate -s 512M "$T/v4.img"
	"$REF_MKFS" -q -f -m crc=0 "$T/v4.img" >/dev/null 2>&1
	out=$("$WALKFS" "$T/v4.img" 2>&1); rc=$?
	[ $rc -eq 2 ] && ok "v4 XFS exits 2" || not_ok "v4 XFS exits 2 (got $rc)"
	echo "$out" | grep -q "version 4" && ok "v4 XFS: says version 4" || not_ok "v4 XFS: says version 4"

	# a v5 superblock cut off after its first sector
	"$REF_MKFS" -q -f "$T/v4.img" >/dev/null 2>&1
	head -c 4096 "$T/v4.img" > "$T/trunc.img"
	"$WALKFS" "$T/trunc.img" >/dev/null 2>&1; rc=$?
	[ $rc -ne 0 ] && [ $rc -lt 128 ] && ok "truncated image: non-zero exit, no crash" ||
		not_ok "truncated image: non-zero exit, no crash (got $rc)"
	# a clean reference filesystem has no finding
	"$WALKFS" -q "$T/v4.img" > "$T/out" 2>&1; rc=$?
	[ $rc -eq 0 ] && ok "clean reference image: no finding" || { not_ok "clean reference image: no finding"; diag "$(cat "$T/out")"; }
else
	skip "v4 XFS exits 2" "reference xfsprogs not installed"
	skip "v4 XFS: says version 4" "reference xfsprogs not installed"
	skip "truncated image" "reference xfsprogs not installed"
	skip "clean reference image" "reference xfsprogs not installed"
fi
done_testing
