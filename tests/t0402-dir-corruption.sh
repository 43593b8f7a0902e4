#!/bin/sh
# One damage at a time, made with the reference xfs_db -x on a filesystem
# the kernel populated, in every directory block type (short form, block,
# data, LEAF1, dabtree node, LEAFN, free index): each gives its own problem
# code from libfs/dir.h, a non-zero exit and never a crash, both through
# dirtool and through walkfs (the suite runs this under ASan too).  "write -d" skips xfs_db's verifier and sets a good
# CRC, so the field check itself must catch the damage; "write -c" leaves
# the CRC stale.  Damaged extent maps (pieces of directory blocks, blocks
# outside the spaces or where the form has none) are checked on 16 KiB
# directory blocks.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
. "$top_srcdir/tests/lib/dir-check.sh"

need_loop
need_ref
need_tool "$DIRTOOL"
need_tool "$WALKFS"

base="$T/base.img" mnt="$T/mnt"
truncate -s 512m "$base"
"$REF_MKFS" -q -f "$base" || skip_all "reference mkfs failed"
mount_img "$base" "$mnt" || skip_all "cannot mount"
mkdir "$mnt/short" "$mnt/block" "$mnt/leaf" "$mnt/node"
touch "$mnt/short/f1" "$mnt/short/f2" "$mnt/short/f3"
(cd "$mnt/block" && seq 1 40 | sed 's/^/file/' | xargs touch)
(cd "$mnt/leaf" && seq 1 300 | sed 's/^/file_/' | xargs touch)
(cd "$mnt/node" && seq 1 3000 | sed 's/^/nodefile_/' | xargs touch)
S=$(stat -c %i "$mnt/short") B=$(stat -c %i "$mnt/block")
L=$(stat -c %i "$mnt/leaf") N=$(stat -c %i "$mnt/node")
umount_img "$mnt"

# the bmap btree record of the node directory's free index block
FREC=$("$REF_DB" -r -c "inode $N" -c "addr u3.bmbt.ptrs[1]" -c "p recs" "$base" |
	sed -n 's/^\([0-9]*\):\[16777216,.*/\1/p')
[ -n "$FREC" ] || FREC=0	# (not in btree format: those cases will fail)

# 16 KiB directory blocks (four fs blocks each), for damaged mappings
b16="$T/b16.img"
truncate -s 512m "$b16"
"$REF_MKFS" -q -f -n size=16384 "$b16" || skip_all "reference mkfs failed"
mount_img "$b16" "$mnt" || skip_all "cannot mount"
mkdir "$mnt/block" "$mnt/leaf"
(cd "$mnt/block" && seq 1 50 | sed 's/^/f/' | xargs touch)
(cd "$mnt/leaf" && seq 1 1500 | sed 's/^/leafentry_/' | xargs touch)
B16=$(stat -c %i "$mnt/block") L16=$(stat -c %i "$mnt/leaf")
umount_img "$mnt"

# the last entry of the leaf directory's full first data block
LAST=$("$REF_DB" -r -c "inode $L" -c "dblock 0" -c p "$base" |
	sed -n 's/^du\[\([0-9]*\)\]\.namelen.*/\1/p' | tail -1)

# DESC | IMAGE | INODE | DBLOCK (- the inode, bmbt its first bmbt leaf) | WRITE
# ARGS | EXPECTED CODE
# (base: 4k directory blocks; b16: 16k, for the mapping cases)
cases() {
	cat <<-EOF
	sf: count too big|base|$S|-|-d u3.sfdir3.hdr.count 4|DIR_SF_BAD_COUNT
	sf: count too small|base|$S|-|-d u3.sfdir3.hdr.count 2|DIR_SF_BAD_COUNT
	sf: offsets going backwards|base|$S|-|-d u3.sfdir3.list[2].offset 0x20|DIR_SF_BAD_OFFSET
	sf: name length past the fork|base|$S|-|-d u3.sfdir3.list[2].namelen 200|DIR_ENTRY_OVERRUN
	sf: inode number past the end|base|$S|-|-d u3.sfdir3.list[1].inumber.i4 0xfffffff0|DIR_BAD_INO
	sf: parent past the end|base|$S|-|-d u3.sfdir3.hdr.parent.i4 0xfffffff0|DIR_BAD_INO
	block: magic|base|$B|0|-d bhdr.hdr.magic 0x58444433|DIR_BAD_MAGIC
	block: CRC|base|$B|0|-c bhdr.hdr.lsn 7|DIR_BAD_CRC
	block: owner|base|$B|0|-d bhdr.hdr.owner 128|DIR_BAD_OWNER
	block: inode number past the end|base|$B|0|-d bu[3].inumber 0x7fffffffffff|DIR_BAD_INO
	block: tag|base|$B|0|-d bu[3].tag 0x1230|DIR_BAD_TAG
	block: '.' names another inode|base|$B|0|-d bu[0].inumber 128|DIR_BAD_DOT
	block: hash out of order|base|$B|0|-d bleaf[1].hashval 0xfffffff0|DIR_LEAF_HASH_ORDER
	block: leaf address to nowhere|base|$B|0|-d bleaf[4].address 0x9|DIR_LEAF_BAD_ADDR
	block: bestfree|base|$B|0|-d bhdr.bestfree[0].length 0x10|DIR_BAD_BESTFREE
	block: stale count|base|$B|0|-d btail.stale 3|DIR_LEAF_BAD_STALE
	block: leaf count|base|$B|0|-d btail.count 4000|DIR_LEAF_BAD_COUNT
	block: size|base|$B|-|-d core.size 8192|DIR_BAD_SIZE
	block: LSN past the log|base|$B|0|-d bhdr.hdr.lsn 0x1fffffff0|DIR_BAD_LSN
	block: duplicate name|base|$B|0|-d bu[3].name "file1"|DIR_DUP_NAME
	block: name with a slash|base|$B|0|-d bu[3].name "fi/e2"|DIR_BAD_NAME
	leaf: duplicate name in another block|base|$L|1|-d du[0].name "file_100"|DIR_DUP_NAME
	data: magic|base|$L|0|-d dhdr.hdr.magic 0x58444233|DIR_BAD_MAGIC
	data: CRC|base|$L|1|-c dhdr.hdr.lsn 7|DIR_BAD_CRC
	data: name length past the block|base|$L|0|-d du[$LAST].namelen 255|DIR_ENTRY_OVERRUN
	data: inode number past the end|base|$L|1|-d du[2].inumber 0x7fffffffffff|DIR_BAD_INO
	data: bestfree|base|$L|1|-d dhdr.bestfree[0].length 0x8|DIR_BAD_BESTFREE
	data: LSN past the log|base|$L|1|-d dhdr.hdr.lsn 0x1fffffff0|DIR_BAD_LSN
	leaf1: magic|base|$L|8388608|-d lhdr.info.hdr.magic 0x3dff|DIR_BAD_MAGIC
	leaf1: CRC|base|$L|8388608|-c lhdr.info.lsn 7|DIR_BAD_CRC
	leaf1: hash out of order|base|$L|8388608|-d lents[3].hashval 0xfffffff0|DIR_LEAF_HASH_ORDER
	leaf1: bests|base|$L|8388608|-d lbests[1] 0x20|DIR_LEAF_BAD_BESTS
	leaf1: address to nowhere|base|$L|8388608|-d lents[5].address 0x3|DIR_LEAF_BAD_ADDR
	leaf1: stale count|base|$L|8388608|-d lhdr.stale 2|DIR_LEAF_BAD_STALE
	leaf1: LSN of cycle 0|base|$L|8388608|-d lhdr.info.lsn 0x10|DIR_BAD_LSN
	node: magic|base|$N|8388608|-d nhdr.info.hdr.magic 0x1234|DA_BAD_MAGIC
	node: CRC|base|$N|8388608|-c nhdr.info.lsn 7|DA_BAD_CRC
	node: hash out of order|base|$N|8388608|-d nbtree[0].hashval 0xfffffff0|DA_HASH_ORDER
	node: level|base|$N|8388608|-d nhdr.level 3|DA_BAD_LEVEL
	node: pointer outside the leaf space|base|$N|8388608|-d nbtree[1].before 5|DA_BAD_PTR
	node: pointer to a hole|base|$N|8388608|-d nbtree[1].before 8390000|DA_HOLE
	node: count|base|$N|8388608|-d nhdr.count 0|DA_BAD_COUNT
	node: LSN past the log|base|$N|8388608|-d nhdr.info.lsn 0x1fffffff0|DA_BAD_LSN
	leafn: CRC|base|$N|8388609|-c lhdr.info.lsn 7|DIR_BAD_CRC
	leafn: hash out of order|base|$N|8388609|-d lents[3].hashval 0xfffffff0|DIR_LEAF_HASH_ORDER
	leafn: sibling|base|$N|8388609|-d lhdr.info.hdr.forw 8388609|DA_BAD_SIBLING
	leafn: owner|base|$N|8388609|-d lhdr.info.owner 128|DIR_BAD_OWNER
	leafn: LSN past the log|base|$N|8388609|-d lhdr.info.lsn 0x1fffffff0|DIR_BAD_LSN
	free: magic|base|$N|16777216|-d fhdr.hdr.magic 0x58444433|DIR_BAD_MAGIC
	free: CRC|base|$N|16777216|-c fhdr.hdr.lsn 7|DIR_BAD_CRC
	free: nused|base|$N|16777216|-d fhdr.nused 99|DIR_FREE_BAD_NUSED
	free: best|base|$N|16777216|-d fbests[1] 0x20|DIR_FREE_BAD_BEST
	free: firstdb|base|$N|16777216|-d fhdr.firstdb 7|DIR_FREE_BAD_FIRSTDB
	free: LSN past the log|base|$N|16777216|-d fhdr.hdr.lsn 0x1fffffff0|DIR_BAD_LSN
	node data: bestfree|base|$N|2|-d dhdr.bestfree[0].length 0x8|DIR_BAD_BESTFREE
	node data: inode number past the end|base|$N|3|-d du[4].inumber 0x7fffffffffff|DIR_BAD_INO
	map: block-form block only partly mapped|b16|$B16|-|-d u3.bmx[0].blockcount 2|DIR_PARTIAL_BLOCK
	map: block-form block only partly mapped|b16|$B16|-|-d u3.bmx[0].blockcount 2|DIR_MISSING_BLOCK
	map: data block only partly mapped|b16|$L16|-|-d u3.bmx[1].blockcount 3|DIR_PARTIAL_BLOCK
	map: LEAF1 block only partly mapped|b16|$L16|-|-d u3.bmx[3].blockcount 2|DIR_PARTIAL_BLOCK
	map: block past the three spaces|b16|$L16|-|-d u3.bmx[2].startoff 30000000|DIR_BAD_OFFSET
	map: data block at the end of the data space|b16|$L16|-|-d u3.bmx[2].startoff 8388600|DIR_BAD_SIZE
	map: free block moved into the leaf space|base|$N|bmbt|-d recs[$FREC].startoff 8390000|DIR_EXTRA_BLOCK
	map: free block moved into the leaf space|base|$N|bmbt|-d recs[$FREC].startoff 8390000|DIR_FREE_MISSING
	EOF
}

plan $(( $(cases | wc -l) + 1 ))

# the undamaged image is clean
bad=""
for i in $S $B $L $N; do
	"$DIRTOOL" "$base" "$i" > /dev/null 2>&1 || bad="$bad $i"
done
for i in $B16 $L16; do
	"$DIRTOOL" "$b16" "$i" > /dev/null 2>&1 || bad="$bad $i"
done
"$WALKFS" -q "$base" > "$T/walk.out" 2>&1 || bad="$bad walkfs"
[ -z "$bad" ] && ok "undamaged directories are clean" ||
	not_ok "undamaged directories are clean ($bad)"

cases > "$T/cases"
while IFS='|' read -r desc from ino blk args code; do
	img="$T/case.img"
	[ "$from" = b16 ] && from=$b16 || from=$base
	cp --sparse=always "$from" "$img"
	if [ "$blk" = - ]; then
		"$REF_DB" -x -c "inode $ino" -c "write $args" "$img" > "$T/db.out" 2>&1
	elif [ "$blk" = bmbt ]; then	# the first bmap btree leaf
		"$REF_DB" -x -c "inode $ino" -c "addr u3.bmbt.ptrs[1]" \
			-c "write $args" "$img" > "$T/db.out" 2>&1
	else
		"$REF_DB" -x -c "inode $ino" -c "dblock $blk" -c "write $args" \
			"$img" > "$T/db.out" 2>&1
	fi
	dir_findings "$img" "$ino"
	got=$(cat "$T/dir_findings.codes")
	# walkfs meets the same damage walking the namespace
	"$WALKFS" -q "$img" > "$T/walk.out" 2>&1
	wrc=$?
	if [ "$dir_rc" -eq 1 ] && echo "$got" | grep -qx "$code" &&
	   [ "$wrc" -eq 1 ] && grep -q "\[$code\]" "$T/walk.out"; then
		ok "$desc: $code"
		# DIRVERBOSE=1: show everything each damage gives
		[ -z "$DIRVERBOSE" ] || diag "$(cat "$T/dir_findings.err")"
	else
		not_ok "$desc: $code (exit $dir_rc, walkfs $wrc)"
		diag "xfs_db: $(tr '\n' ' ' < "$T/db.out")" "found: $(echo $got)"
		diag "$(head -5 "$T/dir_findings.err")"
	fi
done < "$T/cases"
done_testing
