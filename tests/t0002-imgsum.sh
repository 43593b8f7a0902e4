#!/bin/sh
# imgsum (rp_sum: "this run did not change a byte") sees every change of
# what an image holds and nothing else: a sparse copy and a copy with
# its holes written as zeroes sum the same; one byte changed in a data
# block, one byte written into a hole, or a different file size each
# change the sum; a file that cannot be read is an error.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
IMGSUM="$top_builddir/tests/tools/imgsum"
need_tool "$IMGSUM"
plan 6

f="$T/a.img"
truncate -s 64M "$f"
noise 200000 1 | dd of="$f" bs=4096 seek=100 conv=notrunc 2>/dev/null
noise 5000 2 | dd of="$f" bs=1 seek=40000000 conv=notrunc 2>/dev/null
s0=$("$IMGSUM" "$f")
cp --sparse=always "$f" "$T/sparse.img"
cp --sparse=never "$f" "$T/full.img"
if [ "$("$IMGSUM" "$T/sparse.img")" = "$s0" ] &&
   [ "$("$IMGSUM" "$T/full.img")" = "$s0" ]; then
	ok "a sparse copy and a copy without holes sum the same"
else
	not_ok "a sparse copy and a copy without holes sum the same"
fi

printf 'x' | dd of="$T/sparse.img" bs=1 seek=$((100 * 4096 + 12345)) conv=notrunc 2>/dev/null
check "one byte changed in data changes the sum" \
	test "$("$IMGSUM" "$T/sparse.img")" != "$s0"

cp --sparse=always "$f" "$T/hole.img"
printf 'x' | dd of="$T/hole.img" bs=1 seek=$((50 * 1024 * 1024)) conv=notrunc 2>/dev/null
check "one byte written into a hole changes the sum" \
	test "$("$IMGSUM" "$T/hole.img")" != "$s0"

cp --sparse=always "$f" "$T/long.img"
truncate -s 65M "$T/long.img"
check "another size changes the sum" \
	test "$("$IMGSUM" "$T/long.img")" != "$s0"

check "several files: one line each, in order" \
	test "$("$IMGSUM" "$f" "$T/long.img" | tr '\n' ' ')" = \
	     "$s0 $("$IMGSUM" "$T/long.img") "

"$IMGSUM" "$T/missing.img" > "$T/out" 2> "$T/err"
rc=$?
if [ "$rc" = 1 ] && [ ! -s "$T/out" ] && grep -q missing.img "$T/err"; then
	ok "a file that cannot be read: exit 1, a message"
else
	not_ok "a file that cannot be read: exit 1, a message (exit $rc)"
fi
done_testing
