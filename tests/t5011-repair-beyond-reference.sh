#!/bin/sh
# Damage the reference's xfs_repair -n misses and ours reports, and a
# format it checks that ours refuses (listed in repair/DIFFERENCES.md):
# for each, the reference exits 0, ours exits 1 with the named finding
# and changes no byte; where the kernel can show the damage is real, it
# does (reading the directory or the inode fails with "Structure needs
# cleaning"; a write fails; GETFSMAP reports blocks in use as free space;
# the filesystem shuts down; a later change fails where the same change
# to an undamaged copy works).  If the reference ever starts to report
# one of these, the test says so, and the row leaves DIFFERENCES.md.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
. "$top_srcdir/tests/lib/repair-images.sh"

rp_need "$XK_REPAIR"

src=$(rp_image std) || skip_all "cannot make the std image"
plain=$(rp_image plain) || skip_all "cannot make the plain image"
plan 46

# damage NAME PATH XFS_DB-COMMAND: a damaged copy in $T/NAME.img
damage() {
	rp_copy "$src" "$T/$1.img"
	"$REF_DB" -x -c "inode $(rp_ino std "$2")" -c "$3" "$T/$1.img" \
		> /dev/null 2>&1
}

# compare NAME CODE: the reference clean, ours finds CODE and writes nothing
compare() {
	"$REF_REPAIR" -n "$T/$1.img" > "$T/ref.out" 2>&1
	_r=$?
	_s0=$(rp_sum "$T/$1.img")
	XFSKIT_REPAIR_FINDINGS="$T/found" "$XK_REPAIR" -n "$T/$1.img" > "$T/ours.out" 2>&1
	_o=$?
	_s1=$(rp_sum "$T/$1.img")
	if [ $_r -eq 0 ]; then
		ok "$1: the reference exits 0"
	else
		not_ok "$1: the reference exits 0 (now $_r: drop the DIFFERENCES.md row)"
	fi
	if [ $_o -eq 1 ] && grep -qF "[$2]" "$T/found" && [ "$_s0" = "$_s1" ]; then
		ok "$1: ours exits 1 with $2, nothing written"
	else
		not_ok "$1: ours exits 1 with $2, nothing written (exit $_o)"
		diag "$(cat "$T/found")"
	fi
}

# refused NAME WHAT COMMAND...: mounted read-only, the kernel refuses
# what COMMAND reads ($M is the mount point) with "Structure needs
# cleaning"
refused() {
	_n=$1 _what=$2
	shift 2
	mkdir -p "$T/mnt"
	if mount -o loop,ro,nouuid "$T/$_n.img" "$T/mnt"; then
		if M=$T/mnt eval "$*" > /dev/null 2> "$T/kernel.err"; then
			not_ok "$_n: the kernel refuses $_what"
		else
			check "$_n: the kernel refuses $_what" \
				grep -q "Structure needs cleaning" "$T/kernel.err"
		fi
		umount "$T/mnt"
	else
		not_ok "$_n: the kernel refuses $_what (mount failed)"
	fi
}

# a block-form directory whose size is not one directory block
damage dirsize /dir_block "write -d core.size 4097"
compare dirsize DIR_BAD_SIZE
refused dirsize "the directory" 'ls "$M/dir_block"'
rp_rm "$T/dirsize.img"

# an extent start block with a bit above the 32-bit AG number set
damage highbit /file_big "fuzz -d u3.bmx[0].startblock firstbit"
compare highbit BMAP_BAD_STARTBLOCK
rp_rm "$T/highbit.img"
# ... and a bmbt pointer in the inode's root
damage highptr /dir_node "fuzz -d u3.bmbt.ptrs[1] firstbit"
compare highptr BTREE_BAD_PTR
rp_rm "$T/highptr.img"

# an attribute fork offset that leaves the data fork too small for its
# extent record (a symlink of one extent: 8 bytes for a 16-byte record)
damage forkoff /link_long "fuzz -d core.forkoff lastbit"
compare forkoff INODE_BAD_NEXTENTS
refused forkoff "the symlink" 'stat "$M/link_long"'
rp_rm "$T/forkoff.img"

# ---- AG headers and btrees

# ag_damage NAME SRC XFS_DB-COMMAND...: a copy of SRC in $T/NAME.img,
# damaged by the commands in turn
ag_damage() {
	_n=$1 _src=$2
	shift 2
	rp_copy "$_src" "$T/$_n.img"
	for _c; do
		set -- "$@" -c "$_c"
		shift
	done
	"$REF_DB" -x "$@" "$T/$_n.img" > /dev/null 2>&1
}

# dbval IMG XFS_DB-COMMAND FIELD: a field's value (after the command)
dbval() {
	"$REF_DB" -r -c "$2" -c "print $3" "$1" | awk '{ print $3 }'
}

# write_fails NAME: writing a file of 4 MiB into the root directory (in
# AG 0) fails, the kernel refusing a block it needs to allocate
write_fails() {
	if ! mount -o loop,nouuid "$T/$1.img" "$T/mnt"; then
		not_ok "$1: the kernel refuses to allocate (mount failed)"
		return
	fi
	if dd if=/dev/zero of="$T/mnt/new" bs=1M count=4 conv=fsync \
	      2> "$T/dd.err"; then
		not_ok "$1: the kernel refuses to allocate (the write worked)"
	else
		check "$1: the kernel refuses to allocate" \
			grep -q "Structure needs cleaning" "$T/dd.err"
	fi
	umount "$T/mnt"
}

# fsmap_says IMG LOW HIGH OWNER: the kernel's GETFSMAP gives AG 0's
# 512-byte blocks LOW..HIGH to OWNER ("free space", "inode btree", ...)
fsmap_says() {
	mount -o loop,ro,nouuid "$1" "$T/mnt" || return 1
	/usr/sbin/xfs_io -c "fsmap -d $2 $3" "$T/mnt" > "$T/fsmap.out"
	umount "$T/mnt"
	grep -qF "[$2..$3]: $4" "$T/fsmap.out"
}

bb=$(($(dbval "$src" "sb 0" blocksize) / 512))

# An AGFL the kernel's verifier refuses: a bad magic number, or a block
# number past the AG in a slot outside the list (the verifier checks
# every slot).  The kernel refuses the AGFL when it next needs it.
ag_damage agfl_magic "$src" "agfl 0" "fuzz -d magicnum zeroes"
compare agfl_magic AGFL_BAD_MAGIC
write_fails agfl_magic
rp_rm "$T/agfl_magic.img"
slot=$(($(dbval "$src" "agf 0" fllast) + 1))
ag_damage agfl_slot "$src" "agfl 0" "write -d bno[$slot] 2147483647"
compare agfl_slot AGFL_BAD_ENTRY
write_fails agfl_slot
rp_rm "$T/agfl_slot.img"

# shut_down: has the filesystem on $T/mnt shut down?  Freed inodes are
# inactivated in the background, so a failure they meet may come a
# little after the command that freed them: ask for a while.
shut_down() {
	_k=0
	while [ $_k -lt 6 ]; do
		sync
		touch "$T/mnt/after$_k" 2> "$T/touch.err" || return 0
		sleep 1
		_k=$((_k + 1))
	done
	return 1
}

# One block twice in the AGFL (without an rmapbt the reference does not
# see that the block it replaced is lost).  When free space fragments
# enough for the bnobt to split, the kernel takes the block from the list
# twice, for two btree blocks, and shuts the filesystem down; a clean
# copy splits its bnobt without complaint.
# fragment NAME: fill AG 0 with 4 KiB files and free every other one;
# 0: done, 1: the filesystem shut down, 2: no mount
fragment() {
	mount -o loop,nouuid "$T/$1.img" "$T/mnt" || return 2
	mkdir "$T/mnt/frag"
	_i=1
	while [ $_i -le 1400 ]; do
		head -c 4096 /dev/zero > "$T/mnt/frag/f$_i" 2> /dev/null || break
		_i=$((_i + 1))
	done
	sync
	_i=1
	while [ $_i -le 1400 ]; do
		rm "$T/mnt/frag/f$_i" 2> /dev/null || break
		_i=$((_i + 2))
	done
	if shut_down; then
		umount "$T/mnt"
		return 1
	fi
	umount "$T/mnt"
	return 0
}
first=$(dbval "$plain" "agf 0" flfirst)
dup=$(dbval "$plain" "agfl 0" "bno[$first]")
ag_damage agfl_dup "$plain" "agfl 0" "write -d bno[$((first + 1))] $dup"
compare agfl_dup AGFL_DUP_ENTRY
rp_copy "$plain" "$T/agfl_clean.img"
fragment agfl_clean
if [ $? -eq 0 ] &&
   [ "$(dbval "$T/agfl_clean.img" "agf 0" bnolevel)" -gt 1 ]; then
	ok "agfl_dup: a clean copy's bnobt splits"
else
	not_ok "agfl_dup: a clean copy's bnobt splits"
fi
rp_rm "$T/agfl_clean.img"
fragment agfl_dup
check "agfl_dup: the kernel shuts down when the bnobt splits" [ $? -eq 1 ]
rp_rm "$T/agfl_dup.img"

# An rmapbt node key above its child's first key: the kernel's range
# queries skip what the child holds below it (GETFSMAP says the AG
# headers are free space).
ag_damage rmap_key "$src" "agf 0" "addr rmaproot" \
	"write -d keys[1].startblock 1"
compare rmap_key BTREE_BAD_KEY
rp_copy "$src" "$T/clean.img"
check "rmap_key: GETFSMAP of a clean copy says the headers are metadata" \
	fsmap_says "$T/clean.img" 0 $((bb - 1)) "static fs metadata"
rp_rm "$T/clean.img"
check "rmap_key: GETFSMAP says the headers are free space" \
	fsmap_says "$T/rmap_key.img" 0 $((bb - 1)) "free space"
rp_rm "$T/rmap_key.img"

# A sibling pointer inside the AG but wrong: the kernel follows it when
# it steps from one block to the next.  A cntbt root with a right sibling
# sends an allocation to a block of another kind; an rmapbt leaf whose
# right sibling is wrong takes the filesystem down when files are freed.
ag_damage sib_root "$src" "agf 0" "addr cntroot" "fuzz -d rightsib add"
compare sib_root BTREE_BAD_SIBLING
write_fails sib_root
rp_rm "$T/sib_root.img"
ag_damage sib_leaf "$src" "agf 0" "addr rmaproot" "addr ptrs[1]" \
	"fuzz -d rightsib lastbit"
compare sib_leaf BTREE_BAD_SIBLING
# churn NAME: write files of growing sizes and free them all; 0: done,
# 1: the filesystem shut down, 2: no mount
churn() {
	mount -o loop,nouuid "$T/$1.img" "$T/mnt" || return 2
	_i=1
	while [ $_i -le 40 ]; do
		head -c $((_i * 8192)) /dev/zero > "$T/mnt/w$_i" 2> /dev/null
		_i=$((_i + 1))
	done
	sync
	rm -f "$T/mnt"/w* 2> /dev/null
	if shut_down; then
		umount "$T/mnt"
		return 1
	fi
	umount "$T/mnt"
	return 0
}
churn sib_leaf
if [ $? -eq 1 ]; then
	check "sib_leaf: the kernel shuts down when files are freed" \
		grep -q "Input/output error" "$T/touch.err"
else
	not_ok "sib_leaf: the kernel shuts down when files are freed"
fi
rp_rm "$T/sib_leaf.img"

# The rmapbt's record of the inode btrees one block down: it maps the
# cntbt's block to them and leaves the finobt root unmapped, which the
# kernel's GETFSMAP then reports as free space.
ag_damage rmap_meta "$src" "agf 0" "addr rmaproot" "addr ptrs[1]" \
	"fuzz -d recs[3].startblock lastbit"
compare rmap_meta AG_RMAP_MISSING
fino=$(($(dbval "$src" "agi 0" free_root) * bb))
check "rmap_meta: GETFSMAP says the finobt root is free space" \
	fsmap_says "$T/rmap_meta.img" $fino $((fino + bb - 1)) "free space"
rp_rm "$T/rmap_meta.img"

# ---- directories and attributes

# mounted NAME CMD...: run CMD with NAME's image mounted on $m; its exit
# status, or 99 if the image does not mount
m=$T/mnt
mkdir -p "$m"
mounted() {
	_img=$T/$1.img
	shift
	: > "$T/cmd.out"
	mount -o loop,nouuid "$_img" "$m" 2> "$T/mount.err" || return 99
	"$@" > "$T/cmd.out" 2>&1
	_rc=$?
	umount "$m"
	return $_rc
}

# links DIR N: hard links $m/DIR/x1..xN to $m/file_empty, stopping at the
# first that fails (printed)
links() {
	perl -e 'my ($mnt, $dir, $n) = @ARGV;
		for my $i (1 .. $n) {
			link("$mnt/file_empty", "$mnt/$dir/x$i") or
				do { print "link $i: $!\n"; exit 1 };
		}' "$m" "$1" "$2"
}

# the root node of a node directory's dabtree with a back sibling: the
# reference checks a root's forward pointer only.  The kernel reads the
# directory, but once the root node fills up and splits, it finds the
# moved root's sibling wrong and shuts the filesystem down.
for n in nodeback nodeback_ok; do
	rp_copy "$src" "$T/$n.img"
done
"$REF_DB" -x -c "inode $(rp_ino std /dir_node)" -c "dblock 8388608" \
	-c "fuzz -d nhdr.info.hdr.back lastbit" "$T/nodeback.img" > /dev/null 2>&1
compare nodeback DA_BAD_SIBLING
mounted nodeback_ok links dir_node 200000
_rc=$?
_lvl=$("$REF_DB" -r -c "inode $(rp_ino std /dir_node)" -c "dblock 8388608" \
	-c "print nhdr.level" "$T/nodeback_ok.img")
check "nodeback: 200000 entries split the undamaged root node" \
	[ "$_rc" -eq 0 -a "$_lvl" = "nhdr.level = 2" ]
mounted nodeback links dir_node 200000
check "nodeback: the split of the damaged root fails" \
	grep -q "Structure needs cleaning" "$T/cmd.out"
rp_rm "$T/nodeback.img"
rp_rm "$T/nodeback_ok.img"

# an attribute leaf's freemap entry over bytes in use: the kernel's read
# verifier only bounds it, but the next attribute added is written where
# the entry says, over the header, the entry table or a name: the write
# verifier fails (the filesystem shuts down and will not mount again),
# or the attributes can no longer be listed
# freemap NAME FUZZ VALUE: damage, compare, add an attribute, list them
freemap() {
	rp_copy "$src" "$T/$1.img"
	"$REF_DB" -x -c "inode $(rp_ino std /attr_leaf)" -c "ablock 0" \
		-c "$2" "$T/$1.img" > /dev/null 2>&1
	compare "$1" ATTR_LEAF_FREEMAP_OVERLAP
	mounted "$1" setfattr -n user.added -v "$3" "$m/attr_leaf"
	if mounted "$1" getfattr -d "$m/attr_leaf"; then
		not_ok "$1: once an attribute is added, the leaf is corrupt"
	else
		check "$1: once an attribute is added, the leaf is corrupt" \
			grep -q "Structure needs cleaning" "$T/mount.err" \
			"$T/cmd.out"
	fi
	rp_rm "$T/$1.img"
}
big=$(printf "%2700s" "" | tr " " v)
freemap freemap_base "fuzz -d hdr.freemap[0].base zeroes" "$big"
freemap freemap_size "fuzz -d hdr.freemap[0].size middlebit" small_value
# the same attributes added to the undamaged leaf are read back
rp_copy "$src" "$T/freemap_ok.img"
mounted freemap_ok setfattr -n user.added -v "$big" "$m/attr_leaf"
mounted freemap_ok setfattr -n user.added2 -v small_value "$m/attr_leaf"
mounted freemap_ok getfattr -d "$m/attr_leaf"
check "freemap: the undamaged leaf takes both attributes" \
	grep -q "user.added2=" "$T/cmd.out"
rp_rm "$T/freemap_ok.img"

# a version 4 filesystem, made so by the reference's mkfs: it checks it,
# we refuse the format (only v5 is supported)
truncate -s 320M "$T/v4.img"
"$REF_MKFS" -q -f -m crc=0 "$T/v4.img" > /dev/null 2>&1
compare v4 FS_V4
rm -f "$T/v4.img"
done_testing
