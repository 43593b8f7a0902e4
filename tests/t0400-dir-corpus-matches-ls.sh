#!/bin/sh
# Every directory of the reference-made corpus reads clean through
# libfs/dir.h and lists the same names in the same order as `ls -f`
# through the kernel: short form, block, leaf and node forms with and
# without holes, 255-byte names and odd bytes, 100,000 entries (default
# set), 1 KiB fs blocks, 16 KiB and 64 KiB directory blocks.  Lookups by
# name find what stat finds.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
sanitized_skip "clean images, compared with the reference: the normal pass runs it"
. "$top_srcdir/tests/lib/corpus.sh"
. "$top_srcdir/tests/lib/dir-check.sh"

corpus_need
need_tool "$DIRTOOL"
sets="default bsize1k dir16k dir64k isize2k"
plan $(( $(echo $sets | wc -w) * 2 ))

for n in $sets; do
	img=$(corpus_image "$n") || { not_ok "$n: corpus image"; not_ok "$n: lookups"; continue; }
	mnt="$T/$n.mnt"
	mount_ro "$img" "$mnt" || { not_ok "$n: mount"; not_ok "$n: lookups"; continue; }
	if dir_check_tree "$img" "$mnt" "$T/$n.res"; then
		ok "$n: $(wc -l < "$T/$n.res") directories clean and equal to ls -f"
	else
		not_ok "$n: directories clean and equal to ls -f"
		diag "$(grep '^BAD' "$T/$n.res" | head -5)"
	fi
	# lookups: the first, a middle and the last name of each form, a miss
	bad="" nlook=0
	for d in dirs/short dirs/block dirs/leaf dirs/leaf-holes dirs/node \
		 dirs/node-holes dirs/huge names; do
		[ -d "$mnt/$d" ] || continue
		dino=$(stat -c %i "$mnt/$d")
		ls -f "$mnt/$d" > "$T/names"
		cnt=$(wc -l < "$T/names")
		for k in 1 2 3 $((cnt / 2)) "$cnt"; do
			name=$(sed -n "${k}p" "$T/names")
			[ -n "$name" ] || continue
			want=$(stat -c %i "$mnt/$d/$name")
			got=$("$DIRTOOL" -l "$name" "$img" "$dino" 2>/dev/null)
			[ "$got" = "$want" ] || bad="$bad $d/$name:$got!=$want"
			nlook=$((nlook + 1))
		done
		got=$("$DIRTOOL" -l "no-such-name-here" "$img" "$dino" 2>/dev/null)
		[ "$got" = ENOENT ] || bad="$bad $d/no-such-name:$got"
	done
	if [ -z "$bad" ] && [ $nlook -gt 30 ]; then
		ok "$n: $nlook lookups find what stat finds"
	else
		not_ok "$n: lookups find what stat finds ($nlook)"
		diag "$bad"
	fi
	umount_img "$mnt"
done
done_testing
