#!/bin/sh
# Make a reference-made XFS image populated through a kernel mount with every
# kind of object xfs_db shows: short-form, block, leaf and node directories;
# short-form, leaf, node and remote attributes; a fragmented file with a bmap
# btree; inline and remote symlinks; device nodes; sparse inode chunks;
# reflinked files (rmapbt and reflink on).
#   mkimage.sh IMAGE [MKFS-OPTIONS...]
# Default options: rmapbt, reflink, finobt, sparse inodes, 4 AGs.
set -e
img=$1
shift
[ $# -gt 0 ] || set -- -m rmapbt=1,reflink=1,finobt=1 -i sparse=1
mnt=$(mktemp -d /tmp/xfskit-dbmnt.XXXXXX)
rm -f "$img"
truncate -s 600M "$img"
/usr/sbin/mkfs.xfs -q -f -d agcount=4 -L dbtest "$@" "$img"
mount -o loop "$img" "$mnt"
cleanup() { cd /; umount "$mnt" 2>/dev/null; rmdir "$mnt" 2>/dev/null; }
trap cleanup EXIT
cd "$mnt"
mkdir sf block leaf node attrs
touch sf/a sf/b
for i in $(seq 1 20); do touch block/file_$i; done
for i in $(seq 1 300); do touch leaf/entry_with_long_name_$i; done
for i in $(seq 1 3000); do touch node/entry_with_quite_a_long_name_$i; done
# attributes: short form, leaf, node, remote
touch attrs/sf attrs/leaf attrs/node attrs/remote
setfattr -n user.one -v 1 attrs/sf
setfattr -n trusted.two -v 22 attrs/sf
for i in $(seq 1 30); do setfattr -n user.attr_$i -v value_$i attrs/leaf; done
for i in $(seq 1 400); do setfattr -n user.attribute_number_$i -v v$i attrs/node; done
head -c 9000 /dev/zero | tr '\0' 'x' > /tmp/xfskit-bigval.$$
setfattr -n user.big -v "$(cat /tmp/xfskit-bigval.$$)" attrs/remote
rm -f /tmp/xfskit-bigval.$$
# symlinks
ln -s sf/a shortlink
ln -s "$(printf '%0300d' 0)/long/target" longlink
ln -s "$(printf '%01000d' 0)" remotelink
# devices, fifo
mknod chr c 1 3
mknod blk b 7 0
mkfifo fifo
# File data is fixed noise (gzip output of a counted sequence), not
# /dev/urandom: data blocks that a test reads as some other structure (an
# inode number past the inode chunks) must print the same on every build.
noise=/tmp/xfskit-noise.$$
seq 1 1000000 | gzip -n -1 > "$noise"
# a fragmented file: write every other block, then a bmap btree
dd if="$noise" of=frag bs=4k count=1 2>/dev/null
i=0
while [ $i -lt 400 ]; do
	dd if="$noise" of=frag bs=4k count=1 skip=$i seek=$((i * 2)) conv=notrunc 2>/dev/null
	i=$((i + 1))
done
# a plain file, and reflinked copies
dd if="$noise" of=data bs=64k count=4 skip=8 2>/dev/null
rm -f "$noise"
cp --reflink=auto data data.clone
# sparse inode chunks: fill, free, fragment
mkdir spino
for i in $(seq 1 200); do echo $i > spino/f$i; done
for i in $(seq 1 2 200); do rm spino/f$i; done
sync
cd /
