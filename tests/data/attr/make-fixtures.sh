#!/bin/sh
# Regenerate the attribute block fixtures used by tests/unit/test_attr.c:
# short-form forks, leaf, node-leaf and remote value blocks dumped from
# filesystems made by the reference mkfs.xfs (xfsprogs 6.1) and populated
# through the kernel with tests/lib/attr-populate.sh.  Needs root, loop
# devices, the reference xfsprogs, setfattr and python3.  The output is
# committed; run this only to refresh it:
#   sudo sh tests/data/attr/make-fixtures.sh tests/data/attr
# Writes *.bin plus MANIFEST (file, image, inode, fork block, daddr).
set -e
out=${1:?usage: make-fixtures.sh OUTDIR}
out=$(cd "$out" && pwd)
here=$(cd "$(dirname "$0")/../../.." && pwd)
. "$here/tests/lib/attr-populate.sh"
t=$(mktemp -d)
trap 'umount "$t/mnt" 2>/dev/null || :; rm -rf "$t"' EXIT
mkdir "$t/mnt"
: > "$out/MANIFEST"
DB=/usr/sbin/xfs_db

# dump IMG NAME INO DABLK: copy attribute fork block DABLK of INO
dump() {
	img=$1 name=$2 ino=$3 dablk=$4
	bs=$($DB -r -c "sb 0" -c "p blocksize" "$img" | awk '{print $3}')
	agb=$($DB -r -c "sb 0" -c "p agblocks" "$img" | awk '{print $3}')
	lin=$($DB -r -c "inode $ino" -c "bmap -a" "$img" | awk -v b="$dablk" '
		/^attr offset/ {
			off = $3; cnt = $8
			split(substr($6, 2, length($6) - 2), a, "/")
			if (b >= off && b < off + cnt) {
				printf "%d\n", a[1] * agb + a[2] + (b - off)
				exit
			}
		}' agb="$agb")
	[ -n "$lin" ] || { echo "block $dablk of $name is not mapped" >&2; exit 1; }
	dd if="$img" of="$out/$name.bin" bs="$bs" skip="$lin" count=1 2>/dev/null
	echo "$name $(basename "$img") $ino $dablk $((lin * bs / 512))" >> "$out/MANIFEST"
}

# dump_inode IMG NAME INO: the whole inode (the test finds the fork in it)
dump_inode() {
	isz=$($DB -r -c "sb 0" -c "p inodesize" "$1" | awk '{print $3}')
	ioff=$($DB -r -c "inode $3" -c "stack" "$1" |
		awk '/byte offset/ { sub(",", "", $3); print $3; exit }')
	dd if="$1" of="$out/$2.bin" bs=1 skip="$ioff" count="$isz" 2>/dev/null
	echo "$2 $(basename "$1") $3 0 $((ioff / 512))" >> "$out/MANIFEST"
}

# valueblk IMG INO NAME: the first value block of remote attribute NAME
valueblk() {
	$DB -r -c "inode $2" -c "ablock 0" -c "p nvlist" "$1" | awk -v n="\"$3\"" '
		/\.valueblk = / { v = $3 }
		/\.name = / && $3 == n { print v + 0; exit }'
}

for bs in 4096 1024; do
	k=a$((bs / 1024))k
	img=$t/$k.img
	truncate -s 512M "$img"
	/usr/sbin/mkfs.xfs -q -f -b size=$bs "$img"
	mount -o loop "$img" "$t/mnt"
	attr_populate "$t/mnt"
	set -- $(attr_inos "$t/mnt")
	for f in $ATTR_FILES; do
		eval "ino_$(echo "$f" | tr -- - _)=$1"
		shift
	done
	umount "$t/mnt"
	dd if="$img" of="$out/$k-sb.bin" bs=512 count=1 2>/dev/null
	dump_inode "$img" $k-sf-inode $ino_sf
	if [ $bs = 4096 ]; then
		dump "$img" $k-leaf "$ino_leaf" 0
		dump "$img" $k-leafholes "$ino_leafholes" 0
		dump "$img" $k-leafrmt "$ino_leafrmt" 0
		v=$(valueblk "$img" "$ino_leafrmt" r64k)
		dump "$img" $k-rmt-first "$ino_leafrmt" "$v"
		dump "$img" $k-rmt-last "$ino_leafrmt" $((v + 16))
		dump "$img" $k-node-root "$ino_node" 0
	fi
	# the leaf the root's first entry points at
	child=$($DB -r -c "inode $ino_node" -c "ablock 0" -c "p btree[0].before" "$img" |
		awk '{print $3}')
	if [ $bs = 1024 ]; then
		# two levels: descend once more
		child=$($DB -r -c "inode $ino_node" -c "ablock $child" \
			-c "p btree[0].before" "$img" | awk '{print $3}')
	fi
	dump "$img" $k-node-leaf "$ino_node" "$child"
	rm -f "$img"
done
