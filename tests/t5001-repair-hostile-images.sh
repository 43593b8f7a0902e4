#!/bin/sh
# xfs_repair -n on images that are not (whole) XFS filesystems -- zero
# filled, random garbage, truncated at several points, an empty file,
# ext4, a v4 XFS, and a filesystem whose every AG header and btree root
# is overwritten with garbage -- prints a clear message and exits
# non-zero (as the reference does), never crashes, hangs or trips the
# sanitizers, and never writes.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
. "$top_srcdir/tests/lib/repair-images.sh"

need_ref
need_tool "$XK_REPAIR"

plan 9

# run NAME IMAGE PATTERN: non-zero exit like the reference, the pattern
# in our output, no crash, no sanitizer report, image unchanged
run() {
	_name=$1 _img=$2 _pat=$3
	_sum0=$(rp_sum "$_img")
	timeout 300 "$XK_REPAIR" -n "$_img" > "$T/out" 2>&1
	_rc=$?
	"$REF_REPAIR" -n "$_img" > /dev/null 2>&1
	_rc_ref=$?
	_why=""
	[ $_rc -ne 0 ] || _why="$_why exit 0;"
	[ $_rc -lt 124 ] || _why="$_why crashed or hung (exit $_rc);"
	[ $_rc -eq $_rc_ref ] || _why="$_why exit $_rc, reference $_rc_ref;"
	! grep -qE 'runtime error|Sanitizer' "$T/out" || _why="$_why sanitizer report;"
	grep -qE "$_pat" "$T/out" || _why="$_why no message /$_pat/;"
	[ "$(rp_sum "$_img")" = "$_sum0" ] || _why="$_why image changed;"
	if [ -z "$_why" ]; then
		ok "$_name: exit $_rc"
	else
		not_ok "$_name:$_why"
		diag "$(tail -n 8 "$T/out")"
	fi
}

truncate -s 64M "$T/zero.img"
run "zero-filled image" "$T/zero.img" "could not find valid secondary superblock"

head -c 8388608 /dev/urandom > "$T/garbage.img"
run "random garbage" "$T/garbage.img" "bad primary superblock|could not find"

: > "$T/empty.img"
run "empty file" "$T/empty.img" "error reading primary superblock|superblock read failed"

truncate -s 320M "$T/fs.img"
"$REF_MKFS" -q -f -d agcount=4 "$T/fs.img" > /dev/null 2>&1
head -c 200000000 "$T/fs.img" > "$T/trunc1.img"
run "truncated inside the last AG" "$T/trunc1.img" "superblock read failed|fatal error"
head -c 4096 "$T/fs.img" > "$T/trunc2.img"
run "truncated after the first block" "$T/trunc2.img" "superblock read failed|fatal error"

if command -v mkfs.ext4 > /dev/null 2>&1; then
	truncate -s 64M "$T/ext4.img"
	mkfs.ext4 -q -F "$T/ext4.img" > /dev/null 2>&1
	run "ext4 image" "$T/ext4.img" "bad primary superblock - bad magic number"
else
	skip "ext4 image" "mkfs.ext4 not installed"
fi

truncate -s 320M "$T/v4.img"
"$REF_MKFS" -q -f -m crc=0 "$T/v4.img" > /dev/null 2>&1
"$XK_REPAIR" -n "$T/v4.img" > "$T/out" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q "version 4" "$T/out" &&
	ok "v4 XFS: refused, says version 4" || not_ok "v4 XFS: exit $rc: $(cat "$T/out")"

# every AG's headers and the sectors after them overwritten with garbage
# (the superblocks left alone, so that phase 1 passes)
cp --sparse=always "$T/fs.img" "$T/hdrs.img"
agblocks=$("$REF_DB" -r -c "sb 0" -c "p agblocks" "$T/hdrs.img" | awk '{ print $3 }')
for ag in 0 1 2 3; do
	dd if=/dev/urandom of="$T/hdrs.img" bs=512 count=7 conv=notrunc \
		seek=$((ag * agblocks * 8 + 1)) 2>/dev/null
done
run "garbage AG headers" "$T/hdrs.img" "bad magic # .* for agf"

# btree blocks of AG 1 overwritten with garbage
cp --sparse=always "$T/fs.img" "$T/trees.img"
dd if=/dev/urandom of="$T/trees.img" bs=4096 count=8 conv=notrunc \
	seek=$((agblocks + 1)) 2>/dev/null
run "garbage btree blocks" "$T/trees.img" "bad|would"
done_testing
