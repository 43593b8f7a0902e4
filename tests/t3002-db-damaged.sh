#!/bin/sh
# Damaged structures print with "(bad)" checksum markers and never crash:
# metadata blocks of every type are overwritten with random bytes (whole
# blocks, and everything after the magic number), then every type prints
# them and the whole-filesystem commands walk the damaged image.  In the
# sanitizer build any out-of-bounds access fails the test.
. "$top_srcdir/tests/lib/test-lib.sh"
need_ref
need_loop
need_tool "$XK_DB"

img=$(sh "$top_srcdir/tests/db/image.sh" full) || skip_all "cannot make image"
ino_of() {
	"$REF_DB" -r -c "path $1" -c inode "$img" 2>/dev/null |
		sed -n 's/^current inode number is //p'
}

# Where the objects are: "type daddr bbs" lines, asked of the reference.
daddr_of() {	# commands...
	set -- "$@" -c stack
	"$REF_DB" -r "$@" "$img" 2>/dev/null |
		sed -n 's/.*buffer block \([0-9]*\) (fsbno [0-9]*), \([0-9]*\) bb.*/\1 \2/p' |
		head -1
}
targets="$T/targets"
: > "$targets"
add() {	# type commands...
	t=$1
	shift
	echo "$t $(daddr_of "$@")" >> "$targets"
}
add sb -c "sb 1"
add agf -c "agf 1"
add agi -c "agi 1"
add agfl -c "agfl 1"
add bnobt -c "agf 1" -c "addr bnoroot"
add cntbt -c "agf 1" -c "addr cntroot"
add inobt -c "agi 1" -c "addr root"
add finobt -c "agi 1" -c "addr free_root"
add rmapbt -c "agf 1" -c "addr rmaproot"
add refcntbt -c "agf 1" -c "addr refcntroot"
add bmapbtd -c "inode $(ino_of /frag)" -c "addr u3.bmbt.ptrs[1]"
add dir3 -c "inode $(ino_of /block)" -c "dblock 0"
add dir3 -c "inode $(ino_of /leaf)" -c "dblock 8388608"
add dir3 -c "inode $(ino_of /node)" -c "dblock 8388608"
add dir3 -c "inode $(ino_of /node)" -c "dblock 16777216"
add attr3 -c "inode $(ino_of /attrs/leaf)" -c "ablock 0"
add attr3 -c "inode $(ino_of /attrs/node)" -c "ablock 0"
add attr3 -c "inode $(ino_of /attrs/remote)" -c "ablock 1"
add symlink -c "inode $(ino_of /remotelink)" -c "dblock 0"

san_clean() {	# no sanitizer report, and an exit code xfs_db gives (0-3:
		# blockget finding the damage exits 3, or 2 when a tree is unwalkable)
	[ "$1" -le 3 ] && ! grep -q "AddressSanitizer\|runtime error\|LeakSanitizer" "$2"
}

seed=1
while read -r type daddr bbs; do
	for mode in all tail; do
		cp --sparse=always "$img" "$T/d.img"
		bytes=$((bbs * 512))
		skip=0
		[ $mode = tail ] && skip=8
		# deterministic garbage, from a seed per case
		awk -v n=$((bytes - skip)) -v s=$seed 'BEGIN { srand(s);
			for (i = 0; i < n; i++) printf "%c", int(rand() * 256) }' \
			> "$T/garbage"
		dd if="$T/garbage" of="$T/d.img" bs=1 seek=$((daddr * 512 + skip)) \
			conv=notrunc status=none
		seed=$((seed + 1))
		"$XK_DB" -r -c "daddr $daddr" -c "type $type" -c p -c "crc" \
			-c "type inode" -c p -c "type dir3" -c p -c "type attr3" -c p \
			-c "type symlink" -c p -c "type $type" -c "btdump -i" \
			"$T/d.img" > "$T/out" 2> "$T/err"
		rc=$?
		if san_clean $rc "$T/err"; then
			ok "$type at $daddr ($mode garbage) prints without a crash"
		else
			not_ok "$type at $daddr ($mode garbage) prints without a crash"
			head -20 "$T/err" | sed 's/^/# /'
		fi
		case $type in
		sb|agf|agi|agfl|*bt|bmapbtd|refcntbt)
			if grep -q "(bad)" "$T/out"; then
				ok "$type at $daddr ($mode garbage) shows (bad)"
			else
				not_ok "$type at $daddr ($mode garbage) shows (bad)"
			fi ;;
		esac
		"$XK_DB" -r -c "freesp -s" -c "fsmap" -c "frag" -c "blockget -n" \
			-c "ncheck" -c "ls /" -c "ls /node" -c "ls /leaf" \
			-c "fsb 0" -c "blockuse -c 100" -c "path /attrs/node" \
			-c "bmap" -c "ablock 0" -c p -c "path /node" -c "dblock 0" \
			-c p "$T/d.img" > "$T/out" 2> "$T/err"
		rc=$?
		if san_clean $rc "$T/err"; then
			ok "whole-filesystem commands survive $type at $daddr ($mode)"
		else
			not_ok "whole-filesystem commands survive $type at $daddr ($mode)"
			head -20 "$T/err" | sed 's/^/# /'
		fi
	done
done < "$targets"
done_testing
