#!/bin/sh
# The libfs allocator (alloc.h, through tests/tools/alloctool) changes a
# filesystem exactly as the reference does for the same allocation or
# free: after one attr_set (a 1-block allocation near the inode, attr
# fork offset 0) or attr_remove (its free) by the reference xfs_db, the
# AGF, AGFL, superblock fdblocks and every bnobt, cntbt and rmapbt block
# (CRCs included) as the reference xfs_db prints them are the same as
# after alloctool's alloc/free.  This holds for one allocation on a 4 KiB
# rmapbt+reflink image and a 1 KiB image without rmapbt, and for 700
# allocations and frees in a row on a fragmented 1 KiB rmapbt image,
# where the free space trees lose a level and the rmapbt splits and
# joins.  Allocated extents leave the bnobt and cntbt and enter the
# rmapbt with their owner; 600 allocations at alternating targets grow
# the bnobt and cntbt by a level; after freeing everything the reference
# xfs_repair -n is clean and the kernel mounts the image.  A damaged AGF
# is refused without a byte written.
. "$top_srcdir/tests/lib/test-lib.sh"
need_ref
ALLOCTOOL="$top_builddir/tests/tools/alloctool"
need_tool "$ALLOCTOOL"

db() { "$REF_DB" -r "$@"; }

# dump_ag IMG AGNO: the AG's AGF, AGFL, fdblocks and every block of its
# bnobt, cntbt and rmapbt, as the reference prints them (LSNs left out:
# the reference's log sequence numbers are not the allocator's concern).
dump_tree() {	# IMG FSB_OF_AG_BLOCK_0 TYPE AGBNO: a level a time, one xfs_db each
	_img=$1 _base=$2 _type=$3 _level=$4
	while [ -n "$_level" ]; do
		echo "== $_type blocks $_level"
		set --
		for _b in $_level; do
			set -- "$@" -c "fsblock $((_base + _b))" -c "type $_type" -c p
		done
		_o=$(db "$@" "$_img")
		echo "$_o" | grep -v '^lsn = '
		_level=
		for _p in $(echo "$_o" | sed -n 's/^ptrs\[[0-9-]*\] = //p'); do
			_level="$_level ${_p#*:}"
		done
	done
}
dump_ag() {
	_o=$(db -c "sb 0" -c "p agblklog" -c "agf $2" -c p -c "agfl $2" -c p \
		-c "sb 0" -c "p fdblocks" "$1")
	echo "$_o" | grep -v '^lsn = '
	_agblklog= _bnoroot= _cntroot= _rmaproot=
	eval "$(echo "$_o" | sed -n 's/^\(agblklog\|bnoroot\|cntroot\|rmaproot\) = \([0-9][0-9]*\)$/_\1=\2/p')"
	for _t in "bnobt $_bnoroot" "cntbt $_cntroot" "rmapbt $_rmaproot"; do
		_r=${_t#* }
		[ -n "$_r" ] && [ "$_r" != 0 ] || continue
		dump_tree "$1" $(($2 << _agblklog)) "${_t% *}" "$_r"
	done
}
agcount() { db -c "sb 0" -c "p agcount" "$1" | sed 's/.* = //'; }
# same_ags IMG1 IMG2: every AG dumps the same
same_ags() {
	for _a in $(seq 0 $(($(agcount "$1") - 1))); do
		dump_ag "$1" "$_a" > "$T/a.dump"
		dump_ag "$2" "$_a" > "$T/b.dump"
		if ! cmp -s "$T/a.dump" "$T/b.dump"; then
			diag "AG $_a differs:"
			diff "$T/a.dump" "$T/b.dump" | head -20 | while read -r l; do diag "$l"; done
			return 1
		fi
	done
}
ino_fsb() { db -c "convert inode $2 fsblock" "$1" | sed 's/.*(\([0-9]*\)).*/\1/'; }
# repair_clean IMG: the reference xfs_repair -n finds nothing
repair_clean() { "$REF_REPAIR" -n "$1" > "$T/repair.out" 2>&1; }
# repair_only_orphans IMG: what repair -n reports is only blocks that
# nothing claims (allocated, but no inode maps them)
repair_only_orphans() {
	"$REF_REPAIR" -n "$1" > "$T/repair.out" 2>&1
	! grep -v -e '^Phase' -e '^ *- ' -e 'host filesystem geometry' \
		-e 'sector size mismatch' -e 'the image and the host' \
		-e '^unknown block state' -e '^No modify flag' \
		"$T/repair.out" | grep -q . &&
		grep -q '^unknown block state' "$T/repair.out"
}
sparse_copy() { cp --sparse=always "$1" "$2"; }

full=$(sh "$top_srcdir/tests/db/image.sh" full) || skip_all "cannot build the full db image"
small=$(sh "$top_srcdir/tests/db/image.sh" small) || skip_all "cannot build the small db image"

# ---- (2) one allocation, against the reference's attr_set ----
sparse_copy "$full" "$T/ref.img"
sparse_copy "$full" "$T/mine.img"
"$REF_DB" -x -c "inode 131" -c "attr_set -v 3000 big" "$T/ref.img" >/dev/null 2>&1
got=$("$ALLOCTOOL" "$T/mine.img" alloc "$(ino_fsb "$full" 131)" 1 131 0 attr)
check "4 KiB rmapbt image: the block near inode 131 is the reference's (815)" \
	test "$got" = 815
check "4 KiB rmapbt image: AGF, AGFL, fdblocks, bnobt, cntbt and rmapbt as the reference's attr_set" \
	same_ags "$T/ref.img" "$T/mine.img"

sparse_copy "$small" "$T/sref.img"
sparse_copy "$small" "$T/smine.img"
"$REF_DB" -x -c "inode 32" -c "attr_set -v 600 big" "$T/sref.img" >/dev/null 2>&1
"$ALLOCTOOL" "$T/smine.img" alloc "$(ino_fsb "$small" 32)" 1 32 0 attr >/dev/null
check "1 KiB image without rmapbt: the AG headers and trees as the reference's attr_set" \
	same_ags "$T/sref.img" "$T/smine.img"

# ---- (1) extents of several lengths near several targets ----
sparse_copy "$full" "$T/ext.img"
agblocks=$(db -c "sb 0" -c "p agblocks" "$full" | sed 's/.* = //')
agblklog=$(db -c "sb 0" -c "p agblklog" "$full" | sed 's/.* = //')
: > "$T/ext.list"
okall=true
for spec in 0:1 0:8 2000:1 2000:100 30000:37 38399:1 38399:16 \
	    $((1 << agblklog)):1 $((3 << agblklog)):64 $(((3 << agblklog) + 30000)):1000; do
	t=${spec%:*} len=${spec#*:}
	f=$("$ALLOCTOOL" "$T/ext.img" alloc "$t" "$len" 133 7 2>>"$T/err") || okall=false
	echo "$f $len" >> "$T/ext.list"
done
check "alloc of 1 to 1000 blocks near targets in AG 0, 1 and 3 succeeds" $okall
# in_free AG AGBNO LEN: does any bnobt/cntbt record overlap the extent?
overlaps_free() {
	dump_ag "$T/ext.img" "$1" | awk -v s="$2" -v n="$3" '
		/^== / { tree = $2 }
		(tree == "bnobt" || tree == "cntbt") && /^[0-9]+:\[/ {
			split($0, a, /[\[\],]/); b = a[2]; l = a[3]
			if (b < s + n && s < b + l) bad = 1 }
		END { exit !bad }'
}
# owned AG AGBNO LEN: an rmapbt record of owner 133 covers the extent
owned() {
	dump_ag "$T/ext.img" "$1" | awk -v s="$2" -v n="$3" '
		/^== / { tree = $2 }
		tree == "rmapbt" && /^[0-9]+:\[/ {
			split($0, a, /[\[\],]/)
			if (a[4] == 133 && a[2] <= s && s + n <= a[2] + a[3]) hit = 1 }
		END { exit !hit }'
}
outfree=true inrmap=true
while read -r f len; do
	a=$((f >> agblklog)) b=$((f & ((1 << agblklog) - 1)))
	overlaps_free "$a" "$b" "$len" && { diag "$f+$len still free"; outfree=false; }
	owned "$a" "$b" "$len" || { diag "$f+$len not mapped to 133"; inrmap=false; }
done < "$T/ext.list"
check "every allocated extent is out of the bnobt and cntbt" $outfree
check "every allocated extent is in the rmapbt with its owner" $inrmap
check "the target's block itself is taken when free (AG 0 block 2000)" \
	grep -q "^2000 1$" "$T/ext.list"
check "repair -n reports only the allocated blocks as unclaimed" \
	repair_only_orphans "$T/ext.img"
off=7 okall=true
while read -r f len; do
	"$ALLOCTOOL" "$T/ext.img" free "$f" "$len" 133 7 2>>"$T/err" || okall=false
done < "$T/ext.list"
check "freeing them all back succeeds" $okall
check "after the frees the reference xfs_repair -n is clean" repair_clean "$T/ext.img"

# ---- (3) 600 allocations at alternating targets, then frees ----
sparse_copy "$full" "$T/many.img"
i=0
while [ $i -lt 300 ]; do
	echo "alloc $((3000 + 2 * i)) 1 134 $i"
	echo "alloc $((20000 + 2 * i)) 1 135 $i"
	i=$((i + 1))
done > "$T/many.cmds"
"$ALLOCTOOL" "$T/many.img" - < "$T/many.cmds" > "$T/many.out"
check "600 allocations in a row succeed" test "$(wc -l < "$T/many.out")" = 600
check "alternating targets give alternating, separated blocks" \
	test "$(sed -n '1p;2p;599p;600p' "$T/many.out" | tr '\n' ' ')" = "3000 20000 3598 20598 "
lv=$(db -c "agf 0" -c "p bnolevel cntlevel" "$T/many.img" | sed 's/.* = //' | tr '\n' ' ')
check "the bnobt and cntbt grew to two levels ($lv)" test "$lv" = "2 2 "
check "repair -n reports only the 600 blocks as unclaimed" \
	repair_only_orphans "$T/many.img"
# free the second target's blocks (re-merging them into one extent)
paste "$T/many.cmds" "$T/many.out" | awk '$4 == 135 { print "free", $6, 1, $4, $5 }' > "$T/free1.cmds"
"$ALLOCTOOL" "$T/many.img" - < "$T/free1.cmds"
check "freeing 300 of them succeeds" test $? = 0
# the first target's last block is 3598; from 3599 to the AG's end (38400)
# the space is one free extent again
merged() {
	dump_ag "$T/many.img" 0 | awk '/^== / { t = $2 }
		t == "bnobt" && /^[0-9]+:\[3599,/ {
			split($0, a, /[\[\],]/); if (a[2] + a[3] == 38400) hit = 1 }
		END { exit !hit }'
}
check "the freed blocks merged back into one free extent [3599, 38400)" merged
paste "$T/many.cmds" "$T/many.out" | awk '$4 == 134 { print "free", $6, 1, $4, $5 }' > "$T/free2.cmds"
"$ALLOCTOOL" "$T/many.img" - < "$T/free2.cmds"
check "freeing the other 300 succeeds" test $? = 0
lv=$(db -c "agf 0" -c "p bnolevel cntlevel" "$T/many.img" | sed 's/.* = //' | tr '\n' ' ')
check "the bnobt and cntbt are one level again ($lv)" test "$lv" = "1 1 "
check "after 600 allocations and their frees, repair -n is clean" \
	repair_clean "$T/many.img"
if [ "$(id -u)" -eq 0 ] && losetup -f >/dev/null 2>&1; then
	if mount_img "$T/many.img" "$T/mnt"; then
		ok "the kernel mounts the image"
		check "and unmounts it" umount_img "$T/mnt"
		check "repair -n is clean after the kernel's mount" repair_clean "$T/many.img"
	else
		not_ok "the kernel mounts the image"
		skip "unmount" "not mounted"
		skip "repair after mount" "not mounted"
	fi
else
	skip "the kernel mounts the image" "needs root and a loop device"
	skip "unmount" "needs root and a loop device"
	skip "repair after mount" "needs root and a loop device"
fi

# ---- 700 allocations and frees in a row against the reference ----
# A 1 KiB rmapbt image whose free space the kernel fragmented (1400
# one-block files, every other one deleted), cached between runs in
# $ALLOC_CACHE (by default $top_builddir/tests/alloc-cache).
frag_image() {
	_c=${ALLOC_CACHE:-$top_builddir/tests/alloc-cache}
	mkdir -p "$_c"
	_key=$( { sed -n '/^frag_image()/,/^}/p' "$0"; "$REF_MKFS" -V; } | cksum | cut -d' ' -f1)
	_img="$_c/frag-$_key.img"
	exec 8>"$_c/frag.lock"
	flock 8
	if [ ! -f "$_img" ]; then
		rm -f "$_c"/frag-*
		truncate -s 320m "$_img.tmp" &&
		"$REF_MKFS" -q -f -b size=1024 -m rmapbt=1,reflink=0 "$_img.tmp" &&
		mkdir -p "$T/fmnt" && mount -o loop,nouuid "$_img.tmp" "$T/fmnt" &&
		mkdir "$T/fmnt/d" || return 1
		# (printf and one rm: no process per file)
		i=1
		while [ $i -le 1400 ]; do
			printf '%1024s' '' > "$T/fmnt/d/f$i"
			i=$((i + 1))
		done
		sync
		set --
		i=1
		while [ $i -le 1400 ]; do set -- "$@" "$T/fmnt/d/f$i"; i=$((i + 2)); done
		rm "$@"
		# the remaining files' inodes, as the kernel numbered them
		ls -i "$T/fmnt/d" | awk '{ print $1 }' > "$_img.inos"
		umount "$T/fmnt" && mv "$_img.tmp" "$_img" || return 1
	fi
	exec 8>&-
	echo "$_img"
}
if [ "$(id -u)" -eq 0 ] && losetup -f >/dev/null 2>&1 && frag=$(frag_image); then
	sparse_copy "$frag" "$T/fref.img"
	sparse_copy "$frag" "$T/fmine.img"
	cp "$frag.inos" "$T/inos"
	set --
	: > "$T/f.cmds"
	inopblog=$(db -c "sb 0" -c "p inopblog" "$frag" | sed 's/.* = //')
	fblog=$(db -c "sb 0" -c "p agblklog" "$frag" | sed 's/.* = //')
	while read -r ino; do
		set -- "$@" -c "inode $ino" -c "attr_set -v 600 big"
		ag=$((ino >> (inopblog + fblog)))
		b=$(( (ino & ((1 << (inopblog + fblog)) - 1)) >> inopblog ))
		echo "alloc $(( (ag << fblog) | b )) 1 $ino 0 attr" >> "$T/f.cmds"
	done < "$T/inos"
	check "the fragmented image has 700 files" test "$(wc -l < "$T/inos")" = 700
	"$REF_DB" -x "$@" "$T/fref.img" > /dev/null 2>&1
	"$ALLOCTOOL" "$T/fmine.img" - < "$T/f.cmds" > "$T/f.out"
	check "700 allocations in a row: every AG as the reference's 700 attr_sets" \
		same_ags "$T/fref.img" "$T/fmine.img"
	set --
	: > "$T/f2.cmds"
	paste "$T/inos" "$T/f.out" | awk 'NR % 3 == 1' > "$T/pairs"
	while read -r ino f; do
		set -- "$@" -c "inode $ino" -c "attr_remove big"
		echo "free $f 1 $ino 0 attr" >> "$T/f2.cmds"
	done < "$T/pairs"
	"$REF_DB" -x "$@" "$T/fref.img" > /dev/null 2>&1
	"$ALLOCTOOL" "$T/fmine.img" - < "$T/f2.cmds"
	check "then every third freed: every AG as the reference's attr_removes" \
		same_ags "$T/fref.img" "$T/fmine.img"
	set --
	: > "$T/f3.cmds"
	paste "$T/inos" "$T/f.out" | awk 'NR % 3 != 1' > "$T/pairs"
	while read -r ino f; do
		set -- "$@" -c "inode $ino" -c "attr_remove big"
		echo "free $f 1 $ino 0 attr" >> "$T/f3.cmds"
	done < "$T/pairs"
	"$REF_DB" -x "$@" "$T/fref.img" > /dev/null 2>&1
	"$ALLOCTOOL" "$T/fmine.img" - < "$T/f3.cmds"
	check "then the rest freed: every AG as the reference's" \
		same_ags "$T/fref.img" "$T/fmine.img"
	check "and the reference xfs_repair -n is clean" repair_clean "$T/fmine.img"
else
	for d in "700 files" "700 allocations" "every third freed" "the rest freed" "repair"; do
		skip "$d" "needs root and a loop device to build the fragmented image"
	done
fi

# ---- (4) a damaged AGF is refused, nothing written ----
for w in "freeblks 1234" "longest 1" "bnolevel 0"; do
	sparse_copy "$full" "$T/bad.img"
	"$REF_DB" -x -c "agf 0" -c "write -d $w" "$T/bad.img" > /dev/null 2>&1
	check "AGF $w: written by the reference (CRC kept good)" \
		test "$(db -c "agf 0" -c "p ${w% *}" "$T/bad.img")" = "${w% *} = ${w#* }"
	before=$(sum_img "$T/bad.img")
	"$ALLOCTOOL" "$T/bad.img" alloc 2000 1 131 > /dev/null 2>&1
	rc=$?
	check "AGF $w: the allocation fails ($rc)" test "$rc" = 1
	check "AGF $w: the image is unchanged" test "$(sum_img "$T/bad.img")" = "$before"
done
sparse_copy "$full" "$T/bad.img"
"$REF_DB" -x -c "agf 0" -c "write -d freeblks 1234" "$T/bad.img" > /dev/null 2>&1
before=$(sum_img "$T/bad.img")
"$ALLOCTOOL" "$T/bad.img" free 38000 1 -5 > /dev/null 2>&1
rc=$?
check "damaged AGF: a free fails too ($rc), image unchanged" \
	test "$rc" = 1 -a "$(sum_img "$T/bad.img")" = "$before"

done_testing
