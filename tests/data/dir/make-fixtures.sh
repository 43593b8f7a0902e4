#!/bin/sh
# Regenerate the directory block fixtures used by tests/unit/test_dir.c:
# blocks of every directory form, dumped from filesystems made by the
# reference mkfs.xfs (xfsprogs 6.1) and populated through the kernel.
# Needs root, loop devices and the reference xfsprogs.  The output is
# committed; run this only to refresh it:
#   sudo sh tests/data/dir/make-fixtures.sh tests/data/dir
# Writes *.bin plus MANIFEST (file, image, inode, file block, daddr).
set -e
out=${1:?usage: make-fixtures.sh OUTDIR}
out=$(cd "$out" && pwd)
t=$(mktemp -d)
trap 'umount "$t/mnt" 2>/dev/null; rm -rf "$t"' EXIT
mkdir "$t/mnt"
: > "$out/MANIFEST"

# dump IMG NAME INO DABLK NFSB: copy NFSB fs blocks of INO's file block DABLK
dump() {
	img=$1 name=$2 ino=$3 dablk=$4 n=$5
	bs=$(/usr/sbin/xfs_db -r -c "sb 0" -c "p blocksize" "$img" | awk '{print $3}')
	agb=$(/usr/sbin/xfs_db -r -c "sb 0" -c "p agblocks" "$img" | awk '{print $3}')
	/usr/sbin/xfs_db -r -c "inode $ino" -c "bmap" "$img" | awk -v b="$dablk" -v n="$n" '
		/^data offset/ {
			off = $3; cnt = $8
			split(substr($6, 2, length($6) - 2), a, "/")
			if (b >= off && b + n <= off + cnt) {
				printf "%d\n", a[1] * agb + a[2] + (b - off)
				exit
			}
		}' agb="$agb" > "$t/lin"
	lin=$(cat "$t/lin")
	[ -n "$lin" ] || { echo "no contiguous mapping for $name" >&2; exit 1; }
	dd if="$img" of="$out/$name.bin" bs="$bs" skip="$lin" count="$n" 2>/dev/null
	echo "$name $(basename "$img") $ino $dablk $((lin * bs / 512))" >> "$out/MANIFEST"
}

# 4 KiB blocks and directory blocks: one directory of each form
img=$t/d4k.img
truncate -s 512M "$img"
/usr/sbin/mkfs.xfs -q -f "$img"
mount -o loop "$img" "$t/mnt"
mkdir "$t/mnt/sf" "$t/mnt/blk" "$t/mnt/leaf" "$t/mnt/node"
for i in 1 2 3; do touch "$t/mnt/sf/f$i"; done
for i in $(seq 1 40); do touch "$t/mnt/blk/file$i"; done
for i in $(seq 1 300); do touch "$t/mnt/leaf/file_$i"; done
for i in $(seq 1 3000); do touch "$t/mnt/node/nodefile_$i"; done
sf=$(stat -c %i "$t/mnt/sf") blk=$(stat -c %i "$t/mnt/blk")
leaf=$(stat -c %i "$t/mnt/leaf") node=$(stat -c %i "$t/mnt/node")
umount "$t/mnt"
dd if="$img" of="$out/d4k-sb.bin" bs=512 count=1 2>/dev/null
# the short-form inode, whole (the test finds the fork in it)
ioff=$(/usr/sbin/xfs_db -r -c "inode $sf" -c "stack" "$img" |
	awk '/byte offset/ { sub(",", "", $3); print $3; exit }')
dd if="$img" of="$out/d4k-sf-inode.bin" bs=512 skip=$((ioff / 512)) count=1 2>/dev/null
echo "d4k-sf-inode d4k.img $sf 0 $((ioff / 512))" >> "$out/MANIFEST"
dump "$img" d4k-block "$blk" 0 1
dump "$img" d4k-leaf-data0 "$leaf" 0 1
dump "$img" d4k-leaf-leaf1 "$leaf" 8388608 1
dump "$img" d4k-node-data0 "$node" 0 1
dump "$img" d4k-node-root "$node" 8388608 1
dump "$img" d4k-node-leafn "$node" 8388609 1
dump "$img" d4k-node-free "$node" 16777216 1

# 16 KiB directory blocks on 4 KiB fs blocks: a block-form directory
img=$t/d16k.img
truncate -s 512M "$img"
/usr/sbin/mkfs.xfs -q -f -n size=16k "$img"
mount -o loop "$img" "$t/mnt"
mkdir "$t/mnt/blk"
for i in $(seq 1 200); do touch "$t/mnt/blk/entry-$i"; done
blk=$(stat -c %i "$t/mnt/blk")
umount "$t/mnt"
dd if="$img" of="$out/d16k-sb.bin" bs=512 count=1 2>/dev/null
dump "$img" d16k-block "$blk" 0 4
