#!/bin/sh
# The repair test images are the same from one build to the next: cases
# name blocks and record indexes of std (tests/repair-cases.txt,
# t5015), so where the kernel puts each file's blocks must not depend on
# timing (tests/lib/repair-build.sh says how it is pinned down).  std
# is built a second time into a private cache, here while the machine
# is kept busy, and every block map, every AG's free space and btree
# roots must equal the cached image's.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
. "$top_srcdir/tests/lib/repair-images.sh"

rp_need
sanitized_skip "t5002 runs only the reference and the kernel"

plan 2

# layout IMG INOFILE: each path with blocks and its data and attribute
# maps, then each AG's free space and roots (timestamps, UUIDs and
# inode generations differ between builds; they are not printed)
layout() {
	awk '$1 !~ /\/entry_|\/a_longer_entry_name_/ { print $2, $1 }' "$2" |
	while read -r ino path; do
		printf '%s: ' "$path"
		"$REF_DB" -r -c "inode $ino" -c "bmap" -c "bmap -a" "$1" | tr '\n' ' '
		echo
	done
	for a in 0 1 2 3; do
		"$REF_DB" -r -c "agf $a" -c "p bnoroot cntroot rmaproot refcntroot freeblks longest" \
			-c "agi $a" -c "p root free_root count freecount" "$1" | tr '\n' ' '
		echo
	done
	"$REF_DB" -r -c "freesp -s" "$1"
}

img=$(rp_image std) || { not_ok "std: the cached image"; done_testing; exit; }
base=${img%.img}
layout "$img" "$base.ino" > "$T/first"

# keep a CPU and the disk busy while the second one is made (under
# "make -j check" the other tests keep the rest of the machine busy)
busy() {
	while [ ! -f "$T/stop" ]; do
		head -c 50000000 /dev/urandom | gzip > "$T/junk"
		sync
	done
}
busy & b1=$!
img2=$(RP_CACHE="$T/cache" rp_image std)
rc=$?
: > "$T/stop"
wait "$b1"
rm -f "$T/junk"
if [ $rc -ne 0 ]; then
	not_ok "std: a second build"
	not_ok "std: the same layout twice"
	done_testing
	exit
fi
ok "std: a second build"
layout "$img2" "${img2%.img}.ino" > "$T/second"
if cmp -s "$T/first" "$T/second"; then
	ok "std: the same layout twice ($(grep -c . "$T/first") lines: block maps, free space, roots)"
else
	not_ok "std: the same layout twice"
	diag "$(diff "$T/first" "$T/second" | head -20)"
fi
done_testing
