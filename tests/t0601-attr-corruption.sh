#!/bin/sh
# Damage one thing in an attribute fork with the reference xfs_db -x --
# short-form header and entries, leaf header, entries and names, node
# blocks, remote value blocks; past the write verifier with the checksum
# recomputed (write -d), or with the checksum left stale (write -c) --
# and attr_iterate() names that problem, through attrdump and through
# walkfs: exit 1, the expected problem code, never a crash (the ASan build
# runs this too).  The undamaged image has no finding (its remote value
# blocks carry the LSN the kernel gives them, all ones: "never logged").
# An LSN of 0x1fffffff0 (cycle 1, block 0xfffffff0) points past the end of
# the log: impossible.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
. "$top_srcdir/tests/lib/attr-populate.sh"
need_loop
need_ref
ATTRDUMP="$top_builddir/tests/tools/attrdump"
need_tool "$ATTRDUMP"
need_tool "$WALKFS"
for c in setfattr getfattr python3; do
	command -v $c >/dev/null 2>&1 || skip_all "needs $c (package attr, python3)"
done

img="$T/pristine.img"
truncate -s 512M "$img"
"$REF_MKFS" -q -f "$img" >/dev/null 2>&1 || skip_all "reference mkfs failed"
mount_img "$img" "$T/mnt" || skip_all "cannot loop-mount"
attr_populate "$T/mnt" > "$T/pop.log" 2>&1
rc=$?
set -- $(attr_inos "$T/mnt")
for f in $ATTR_FILES; do
	eval "ino_$(echo "$f" | tr -- - _)=$1"
	shift
done
umount_img "$T/mnt"
[ $rc -eq 0 ] || skip_all "population failed: $(tail -1 "$T/pop.log")"

# db CMD...: the reference xfs_db, read-only, on the pristine image.
db() {
	for _c in "$@"; do set -- "$@" -c "$_c"; shift; done
	"$REF_DB" -r "$@" "$img" 2>&1
}

# fieldval CMD... FIELD: one field's value after the commands.
fieldval() {
	_n=$#
	eval "_f=\${$_n}"
	_a=""
	_i=1
	for _c in "$@"; do
		[ $_i -lt $_n ] && _a="$_a -c \"$_c\""
		_i=$((_i + 1))
	done
	eval "\"$REF_DB\" -r $_a -c \"p $_f\" \"$img\"" 2>&1 |
		awk '$2 == "=" { print $3; exit }'
}

"$ATTRDUMP" "$img" $ino_sf $ino_leaf $ino_leafrmt $ino_node $ino_acl $ino_dir \
	> "$T/clean.out" 2>&1
rc=$?
"$WALKFS" -q "$img" >> "$T/clean.out" 2>&1
wrc=$?
if [ $rc -eq 0 ] && [ $wrc -eq 0 ] && ! grep -q '\[' "$T/clean.out"; then
	ok "undamaged image: no finding"
else
	not_ok "undamaged image: no finding (rc $rc)"
	diag "$(grep '\[' "$T/clean.out" | head -5)"
fi

# case_ CODE DESCRIPTION INO xfs_db-commands...
case_() {
	code=$1 desc=$2 ino=$3
	shift 3
	cp --sparse=always "$img" "$T/bad.img"
	set -- "$REF_DB" -x "$@" "$T/bad.img"
	"$@" > "$T/db.out" 2>&1
	"$ATTRDUMP" "$T/bad.img" "$ino" > "$T/out" 2>&1
	rc=$?
	"$WALKFS" -q "$T/bad.img" > "$T/walk.out" 2>&1
	wrc=$?
	if [ $rc -eq 1 ] && grep -q "\[$code\]" "$T/out" &&
	   ! grep -q "runtime error\|Sanitizer" "$T/out"; then
		ok "$desc: $code"
	else
		not_ok "$desc: $code (rc $rc)"
		diag "$(head -5 "$T/db.out")" "$(grep '\[' "$T/out" | head -8)"
	fi
	if [ $wrc -eq 1 ] && grep -q "\[$code\]" "$T/walk.out" &&
	   ! grep -q "runtime error\|Sanitizer" "$T/walk.out"; then
		ok "$desc: walkfs says $code"
	else
		not_ok "$desc: walkfs says $code (rc $wrc)"
		diag "$(head -8 "$T/walk.out")"
	fi
}

# ---- short form (the inode's CRC is recomputed by xfs_db)
I=$ino_sf
case_ ATTR_SF_BAD_TOTSIZE "sf totsize 5 bytes long" $I \
	-c "inode $I" -c "write -d a.sfattr.hdr.totsize $(($(fieldval "inode $I" a.sfattr.hdr.totsize) + 5))"
case_ ATTR_SF_TOTSIZE_PAST_FORK "sf totsize past the fork" $I \
	-c "inode $I" -c "write -d a.sfattr.hdr.totsize 2000"
case_ ATTR_SF_PAST_FORK "sf name length past the fork" $I \
	-c "inode $I" -c "write -d a.sfattr.list[3].namelen 255"
case_ ATTR_BAD_NAMELEN "sf name of length zero" $I \
	-c "inode $I" -c "write -d a.sfattr.list[0].namelen 0" \
	-c "write -d a.sfattr.list[0].valuelen 4"
case_ ATTR_BAD_NAMESPACE "sf entry in two namespaces" $I \
	-c "inode $I" -c "write -d a.sfattr.list[1].root 1" \
	-c "write -d a.sfattr.list[1].secure 1"
# trusted.t becomes a second user.a
case_ ATTR_DUP_NAME "sf name twice" $I \
	-c "inode $I" -c "write -d a.sfattr.list[2].name #61" \
	-c "write -d a.sfattr.list[2].root 0"

# ---- POSIX ACLs (short form in /acl): the on-disk value is a be32 count
# then (tag, id, perm, pad) entries
I=$ino_acl
acl_disk=00000006\
00000001ffffffff00060000000000020000$(printf %04x 1000)00040000\
00000004ffffffff00040000000000080000$(printf %04x 2000)00050000\
00000010ffffffff0007000000000020ffffffff00040000
case_ ATTR_BAD_ACL "ACL count disagrees with its size" $I \
	-c "inode $I" -c "write -d a.sfattr.list[0].value #00000007${acl_disk#00000006}"
case_ ATTR_BAD_ACL "ACL entry with an unknown tag" $I \
	-c "inode $I" -c "write -d a.sfattr.list[0].value #0000000600000040${acl_disk#0000000600000001}"
case_ ATTR_BAD_ACL "ACL without its mask" $I \
	-c "inode $I" -c "write -d a.sfattr.list[0].value #$(echo "$acl_disk" | sed 's/00000010ffffffff00070000/00000020ffffffff00070000/')"

# ---- leaf form
I=$ino_leaf
case_ DA_BAD_MAGIC "leaf magic, CRC stale" $I \
	-c "inode $I" -c "ablock 0" -c "write -c hdr.info.hdr.magic 0x1234"
case_ DA_BAD_MAGIC "leaf magic, CRC recomputed" $I \
	-c "inode $I" -c "ablock 0" -c "write -d hdr.info.hdr.magic 0x3ebf"
case_ ATTR_LEAF_BAD_CRC "leaf CRC" $I \
	-c "inode $I" -c "ablock 0" -c "write -c hdr.info.lsn 0x1234"
case_ ATTR_LEAF_BAD_OWNER "leaf owner" $I \
	-c "inode $I" -c "ablock 0" -c "write -d hdr.info.owner 12345"
case_ ATTR_LEAF_BAD_BLKNO "leaf blkno" $I \
	-c "inode $I" -c "ablock 0" -c "write -d hdr.info.bno 8"
case_ DA_BAD_SIBLING "lone leaf with a sibling" $I \
	-c "inode $I" -c "ablock 0" -c "write -d hdr.info.hdr.forw 7"
case_ ATTR_LEAF_BAD_COUNT "leaf count past the block" $I \
	-c "inode $I" -c "ablock 0" -c "write -d hdr.count 600"
case_ ATTR_LEAF_BAD_USEDBYTES "leaf usedbytes" $I \
	-c "inode $I" -c "ablock 0" \
	-c "write -d hdr.usedbytes $(($(fieldval "inode $I" "ablock 0" hdr.usedbytes) + 4))"
case_ ATTR_LEAF_BAD_FIRSTUSED "leaf firstused above a name" $I \
	-c "inode $I" -c "ablock 0" \
	-c "write -d hdr.firstused $(($(fieldval "inode $I" "ablock 0" hdr.firstused) + 4))"
case_ ATTR_LEAF_BAD_FREEMAP "leaf freemap misaligned" $I \
	-c "inode $I" -c "ablock 0" -c "write -d hdr.freemap[0].base 2"
case_ ATTR_LEAF_HASH_ORDER "leaf hashes out of order" $I \
	-c "inode $I" -c "ablock 0" -c "write -d entries[0].hashval 0xffffffff"
case_ ATTR_LEAF_BAD_HASH "leaf hash of another name" $I \
	-c "inode $I" -c "ablock 0" \
	-c "write -d entries[3].hashval $(fieldval "inode $I" "ablock 0" entries[4].hashval)"
case_ ATTR_LEAF_BAD_NAMEIDX "leaf name offset past the block" $I \
	-c "inode $I" -c "ablock 0" -c "write -d entries[2].nameidx 5000"
case_ ATTR_INCOMPLETE "leaf entry INCOMPLETE" $I \
	-c "inode $I" -c "ablock 0" -c "write -d entries[1].incomplete 1"
case_ ATTR_LEAF_BAD_LSN "leaf LSN past the log" $I \
	-c "inode $I" -c "ablock 0" -c "write -d hdr.info.lsn 0x1fffffff0"

# the name nearest the end of the block gets a length that runs past it
last=$(db "inode $I" "ablock 0" "p entries" |
	awk '/^[0-9]+:\[/ { gsub(/[]:,[]/, " ")
		if ($3 + 0 > max) { max = $3 + 0; k = $1 } } END { print k }')
case_ ATTR_LEAF_PAST_END "leaf name length past the block" $I \
	-c "inode $I" -c "ablock 0" -c "write -d nvlist[$last].namelen 255"
case_ ATTR_LEAF_PAST_END "leaf value length past the block" $I \
	-c "inode $I" -c "ablock 0" -c "write -d nvlist[$last].valuelen 60000"

# ---- remote values (leaf form with values in blocks of their own)
I=$ino_leafrmt
# rmt NAME: index of the remote entry NAME in ablock 0, and its valueblk
rmt_idx() {
	db "inode $I" "ablock 0" "p nvlist" | awk -v n="\"$1\"" '
		/^nvlist\[[0-9]+\]\.name = / && $3 == n {
			sub(/^nvlist\[/, ""); sub(/\].*/, ""); print; exit }'
}
k64=$(rmt_idx r64k)
kob=$(rmt_idx overblock)
v64=$(fieldval "inode $I" "ablock 0" "nvlist[$k64].valueblk")
vob=$(fieldval "inode $I" "ablock 0" "nvlist[$kob].valueblk")
case_ ATTR_RMT_BAD_MAGIC "remote block magic" $I \
	-c "inode $I" -c "ablock $((v64))" -c "write -d hdr.magic 0"
case_ ATTR_RMT_BAD_CRC "remote block CRC" $I \
	-c "inode $I" -c "ablock $((v64 + 3))" -c "write -c hdr.lsn 77"
case_ ATTR_RMT_BAD_OWNER "remote block owner" $I \
	-c "inode $I" -c "ablock $((v64 + 16))" -c "write -d hdr.owner 4242"
case_ ATTR_RMT_BAD_BLKNO "remote block blkno" $I \
	-c "inode $I" -c "ablock $((vob + 1))" -c "write -d hdr.bno 16"
case_ ATTR_RMT_BAD_OFFSET "remote block offset" $I \
	-c "inode $I" -c "ablock $((vob + 1))" -c "write -d hdr.offset 0"
case_ ATTR_RMT_BAD_BYTES "remote block byte count" $I \
	-c "inode $I" -c "ablock $((vob + 1))" -c "write -d hdr.bytes 4040"
case_ ATTR_RMT_BAD_LSN "remote block LSN past the log" $I \
	-c "inode $I" -c "ablock $((v64 + 2))" -c "write -d hdr.lsn 0x1fffffff0"
case_ ATTR_RMT_BAD_LSN "remote block LSN of cycle 0" $I \
	-c "inode $I" -c "ablock $((vob + 1))" -c "write -d hdr.lsn 0x10"
case_ ATTR_RMT_BAD_VALUEBLK "remote value not mapped" $I \
	-c "inode $I" -c "ablock 0" -c "write -d nvlist[$k64].valueblk 5000"
case_ ATTR_RMT_BAD_VALUELEN "remote value longer than 64 KiB" $I \
	-c "inode $I" -c "ablock 0" -c "write -d nvlist[$k64].valuelen 70000"
case_ ATTR_BLOCK_SHARED "two values in the same blocks" $I \
	-c "inode $I" -c "ablock 0" -c "write -d nvlist[$kob].valueblk $v64"

# ---- node form
I=$ino_node
child=$(fieldval "inode $I" "ablock 0" "btree[1].before")
case_ DA_BAD_MAGIC "node magic, CRC stale" $I \
	-c "inode $I" -c "ablock 0" -c "write -c hdr.info.hdr.magic 0"
case_ DA_BAD_CRC "node CRC" $I \
	-c "inode $I" -c "ablock 0" -c "write -c hdr.info.lsn 0x99"
case_ DA_BAD_HASHVAL "node hash disagrees with its leaf" $I \
	-c "inode $I" -c "ablock 0" -c "write -d btree[1].hashval 0x10"
case_ DA_BAD_LSN "node LSN past the log" $I \
	-c "inode $I" -c "ablock 0" -c "write -d hdr.info.lsn 0x1fffffff0"
case_ ATTR_LEAF_BAD_CRC "leaf of a node, CRC" $I \
	-c "inode $I" -c "ablock $child" -c "write -c hdr.info.lsn 0x1234"
case_ ATTR_LEAF_HASH_ORDER "leaf of a node, hashes out of order" $I \
	-c "inode $I" -c "ablock $child" -c "write -d entries[0].hashval 0xfffffff0"
case_ ATTR_LEAF_BAD_OWNER "leaf of a node, owner" $I \
	-c "inode $I" -c "ablock $child" -c "write -d hdr.info.owner 1"
case_ ATTR_LEAF_BAD_LSN "leaf of a node, LSN past the log" $I \
	-c "inode $I" -c "ablock $child" -c "write -d hdr.info.lsn 0x1fffffff0"
case_ DA_BAD_MAGIC "leaf of a node, magic" $I \
	-c "inode $I" -c "ablock $child" -c "write -d hdr.info.hdr.magic 0x3bef"
done_testing
