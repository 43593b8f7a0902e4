#!/bin/sh
# Directory blocks bigger than a filesystem block and split over many
# extents (free space cut into pieces of four blocks before the directories
# grow) read clean and list what `ls -f` lists, at 1 KiB fs blocks with
# 8 KiB and 64 KiB directory blocks; a node-form directory whose dabtree
# is a single LEAFN root; and an ascii-ci filesystem (hashes of
# case-folded names) reads clean in every form, lists what the reference
# xfs_db lists, and lookups ignore ASCII case.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
sanitized_skip "clean images, compared with the reference: the normal pass runs it"
. "$top_srcdir/tests/lib/dir-check.sh"

need_loop
need_ref
need_tool "$DIRTOOL"
REF_IO=/usr/sbin/xfs_io
[ -x "$REF_IO" ] || skip_all "reference xfs_io not installed"
plan 9

# names NUM PREFIX: NUM names PREFIX-N, long enough to need many blocks
names() {
	seq 1 "$1" | sed "s/^/$2-with-a-long-name-/"
}

# fragmented IMG MNT BS DIRBS: a filesystem with its files made first, then
# all free space taken and given back in pieces of four blocks, then the
# directories filled with hard links (no inode allocations needed)
fragmented() {
	_img=$1 _mnt=$2 _bs=$3
	truncate -s 320m "$_img"
	"$REF_MKFS" -q -f -b size="$_bs" -n size="$4" -m reflink=0,finobt=0 \
		"$_img" || return 1
	mount_img "$_img" "$_mnt" || return 1
	"$REF_IO" -x -c "resblks 0" "$_mnt" > /dev/null
	mkdir "$_mnt/src" "$_mnt/short" "$_mnt/block" "$_mnt/leaf" "$_mnt/node"
	(cd "$_mnt/src" && names 6000 e | xargs touch) || return 1
	_free=$(stat -f -c %a "$_mnt")
	awk -v n=$((_free * _bs / 1048576 + 2)) 'BEGIN {
		for (i = 0; i < n; i++) printf "falloc %d 1m\n", i * 1048576 }' |
		"$REF_IO" -f "$_mnt/fill" > /dev/null 2>&1
	_sz=$(stat -c %s "$_mnt/fill")
	awk -v s="$_sz" -v b="$_bs" 'BEGIN {
		for (i = 0; i < 4096; i++) printf "falloc %d %d\n", s + i * b, b }' |
		"$REF_IO" "$_mnt/fill" > /dev/null 2>&1
	awk -v n=$((_free / 64)) -v b="$_bs" 'BEGIN {
		for (i = 0; i < n; i++) printf "fpunch %d %d\n", i * 64 * b, 4 * b }' |
		"$REF_IO" "$_mnt/fill" > /dev/null 2>&1
	(cd "$_mnt/src" && names 3 e | xargs ln -t ../short &&
		names 20 e | xargs ln -t ../block &&
		names 400 e | xargs ln -t ../leaf &&
		names 6000 e | xargs ln -t ../node) || return 1
}

# split IMG INO DIRBLKFSBS: does some directory block of INO span extents?
split_blocks() {
	"$REF_DB" -r -c "inode $2" -c bmap "$1" | awk -v f="$3" '
		/^data offset/ { if ($3 % f || $8 % f) n++ }
		END { exit !(n > 0) }'
}

for cfg in "1024 8192" "1024 65536"; do
	set -- $cfg
	bs=$1 dirbs=$2 tag="${1}b-${2}d"
	img="$T/$tag.img" mnt="$T/$tag.mnt"
	if ! fragmented "$img" "$mnt" "$bs" "$dirbs"; then
		not_ok "$tag: make the fragmented filesystem"
		skip "$tag: clean" "no image"
		skip "$tag: lookups" "no image"
		continue
	fi
	nino=$(stat -c %i "$mnt/node")
	lino=$(stat -c %i "$mnt/leaf")
	want=$(stat -c %i "$mnt/src/e-with-a-long-name-4321")
	umount_img "$mnt"
	if split_blocks "$img" "$nino" $((dirbs / bs)) &&
	   split_blocks "$img" "$lino" $((dirbs / bs)); then
		ok "$tag: directory blocks span several extents"
	else
		not_ok "$tag: directory blocks span several extents"
	fi
	mount_ro "$img" "$mnt"
	if dir_check_tree "$img" "$mnt" "$T/$tag.res"; then
		ok "$tag: $(wc -l < "$T/$tag.res") directories clean and equal to ls -f"
	else
		not_ok "$tag: directories clean and equal to ls -f"
		diag "$(grep '^BAD' "$T/$tag.res" | head -5)"
	fi
	umount_img "$mnt"
	got=$("$DIRTOOL" -l e-with-a-long-name-4321 "$img" "$nino")
	[ "$got" = "$want" ] && ok "$tag: lookup in the node directory" ||
		not_ok "$tag: lookup in the node directory ($got, want $want)"
done

# node form whose dabtree is one LEAFN block at the root: after removals
# the leaves join into one, which cannot turn back into a LEAF1 block
# because the bests of 1000 data blocks (most of them holes now) and the
# entries do not fit one block together
img="$T/lroot.img" mnt="$T/lroot.mnt"
truncate -s 512m "$img"
"$REF_MKFS" -q -f "$img"
mount_img "$img" "$mnt"
mkdir "$mnt/d"
long=$(printf 'x%.0s' $(seq 240))
(cd "$mnt/d" && seq -w 1 15000 | sed "s/^/$long-/" | xargs touch &&
	ls -f | tail -n +3 | awk 'NR % 50 != 1' | xargs rm)
ino=$(stat -c %i "$mnt/d")
want=$(stat -c %i "$mnt/d/$long-00051")
umount_img "$mnt"
magic=$("$REF_DB" -r -c "inode $ino" -c "dblock 8388608" -c "p lhdr.info.hdr.magic" \
	"$img" 2>/dev/null | awk '{ print $3 }')
mount_ro "$img" "$mnt"
if [ "$magic" = 0x3dff ] && dir_check_tree "$img" "$mnt" "$T/lroot.res" &&
   [ "$("$DIRTOOL" -l "$long-00051" "$img" "$ino")" = "$want" ]; then
	ok "node form with a LEAFN root: clean, equal to ls -f, lookup"
else
	not_ok "node form with a LEAFN root: clean, equal to ls -f, lookup"
	diag "root magic $magic" "$(grep '^BAD' "$T/lroot.res" | head -3)"
fi
umount_img "$mnt"

# ascii-ci: the kernel no longer mounts it, so the reference mkfs fills it
# from a protofile and the reference xfs_db lists it (in on-disk order)
img="$T/ci.img"
{
	echo /dev/null; echo "0 0"; echo "d--755 0 0"
	for d in short:3 block:40 leaf:300 node:3000; do
		echo "${d%:*} d--755 0 0"
		seq 1 "${d#*:}" | sed 's/^/MixedCase_File-/; s,$, ---644 0 0 /dev/null,'
		echo '$'
	done
	echo '$'
} > "$T/proto"
truncate -s 512m "$img"
"$REF_MKFS" -q -f -n version=ci -p "$T/proto" "$img"
inos="" bad=""
for d in short block leaf node; do
	dino=$("$REF_DB" -r -c "path /$d" -c inode "$img" | awk '{ print $NF }')
	"$REF_DB" -r -c "path /$d" -c ls "$img" > "$T/ci-$d.ls"
	awk '{ print $(NF - 1) }' "$T/ci-$d.ls" > "$T/ci-$d.ref"
	want=$(awk '$(NF - 1) == "MixedCase_File-3" { print $2 }' "$T/ci-$d.ls")
	inos="$inos $d:$dino:$want"
	"$DIRTOOL" "$img" "$dino" > "$T/ci-$d.us" 2> "$T/ci-$d.err" ||
		bad="$bad $d:findings($(head -1 "$T/ci-$d.err"))"
	cmp -s "$T/ci-$d.ref" "$T/ci-$d.us" || bad="$bad $d:names"
done
[ -z "$bad" ] && ok "ascii-ci: every form clean, names equal xfs_db ls" ||
	{ not_ok "ascii-ci: every form clean, names equal xfs_db ls"; diag "$bad"; }
bad=""
for e in $inos; do
	d=${e%%:*} rest=${e#*:} dino=${e#*:}
	dino=${dino%%:*} want=${rest#*:}
	for n in MixedCase_File-3 mixedcase_file-3 MIXEDCASE_FILE-3; do
		got=$("$DIRTOOL" -l "$n" "$img" "$dino" 2>/dev/null)
		[ "$got" = "$want" ] || bad="$bad $d/$n:$got!=$want"
	done
	got=$("$DIRTOOL" -l "MixedCase_File-99999" "$img" "$dino" 2>/dev/null)
	[ "$got" = ENOENT ] || bad="$bad $d/miss:$got"
done
[ -z "$bad" ] && ok "ascii-ci: lookups ignore ASCII case in every form" ||
	{ not_ok "ascii-ci: lookups ignore ASCII case in every form"; diag "$bad"; }
done_testing
