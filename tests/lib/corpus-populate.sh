#!/bin/sh
# corpus-populate.sh MNT BLOCKSIZE INODESIZE DIRBLKSIZE REFLINK BIGTIME BIGDIR
#
# Fills a freshly made, kernel-mounted XFS at MNT with every kind of object
# the on-disk format has, so that readers of the unmounted image meet each
# form at least once:
#   /files    empty, small, sparse, unwritten (fallocate), a data fork in
#             btree form (every other block punched), reflinked copies,
#             odd modes and owners, timestamps before 1970 and after 2038
#   /dirs     directories in short form, block, leaf and node form (also
#             leaf and node with holes), and with BIGDIR one of 100,000
#   /names    255-byte names, spaces, non-ASCII and invalid UTF-8 bytes,
#             the bytes the listing escapes
#   /links    short, long (1023-byte) and dangling symlinks, hard links
#   /special  character and block devices, a fifo, a unix socket
#   /attrs    attribute forks in short form, leaf, node and with remote
#             values (64 KiB), empty values, trusted.* and security.*
# The sizes scale with the geometry (BLOCKSIZE, INODESIZE, DIRBLKSIZE in
# bytes) so each form really is reached in every option set; REFLINK and
# BIGTIME are 0 or 1 for the features, BIGDIR 1 for the 100,000 entries.
# Everything is fixed (names, sizes, contents, set timestamps), so two runs
# on the same kernel make the same filesystem but for the times of creation.
# Run as root; corpus.sh hashes this file into its cache key, so any change
# here rebuilds the corpus.
set -eu

[ $# -eq 7 ] || { echo "usage: $0 MNT BS ISIZE DIRBS REFLINK BIGTIME BIGDIR" >&2; exit 2; }
mnt=$1 bs=$2 isize=$3 dirbs=$4 reflink=$5 bigtime=$6 bigdir=$7
cd "$mnt"
export LC_ALL=C TZ=UTC

# pattern N SEED: N deterministic bytes (a simple congruential sequence).
pattern() {
	awk -v n="$1" -v s="$2" 'BEGIN {
		x = s
		for (i = 0; i < n; i++) {
			x = (x * 1103 + 12345) % 65536
			printf "%c", 32 + (x % 95)
		}
	}'
}

# hexpattern N SEED: the same bytes, as hex for setfattr --restore.
hexpattern() {
	awk -v n="$1" -v s="$2" 'BEGIN {
		x = s
		for (i = 0; i < n; i++) {
			x = (x * 1103 + 12345) % 65536
			printf "%02x", 32 + (x % 95)
		}
	}'
}

# mkentries DIR PREFIX FIRST LAST [LEN]: empty files PREFIX-NNNNNN, the name
# padded with x to LEN bytes when given.
mkentries() {
	(
		cd "$1"
		awk -v p="$2" -v a="$3" -v b="$4" -v len="${5:-0}" 'BEGIN {
			for (i = a; i <= b; i++) {
				name = sprintf("%s-%06d", p, i)
				while (length(name) < len)
					name = name "x"
				print name
			}
		}' | xargs touch
	)
}

# ---------------------------------------------------------------- files
mkdir files
cd files
: > empty
printf 'hello, xfs\n' > small
pattern "$bs" 1 > one-block
pattern 65536 2 > contiguous
# holes between the data; the last block ends the file
xfs_io -f -c "pwrite -q -S 0x61 0 $bs" -c "pwrite -q -S 0x62 1m $bs" \
	-c "pwrite -q -S 0x63 100m $bs" -c "truncate 200m" sparse
xfs_io -f -c "pwrite -q -S 0x64 4t $bs" sparse-far
truncate -s 10m holes-only
# unwritten extents: all, mixed with written, and past EOF (KEEP_SIZE)
fallocate -l 1m prealloc
fallocate -l 1m prealloc-mixed
xfs_io -c "pwrite -q -S 0x65 256k 128k" prealloc-mixed
printf 'keep\n' > prealloc-keep
fallocate -n -o 1m -l 1m prealloc-keep
# a data fork in btree form: punch every other block of a 4 MiB file, far
# more extents than any inode size holds in its literal area
nblocks=$((4194304 / bs))
set -- -f -c "pwrite -q -S 0x66 0 4m" -c fsync
i=1
while [ $i -lt $nblocks ]; do
	set -- "$@" -c "fpunch $((i * bs)) $bs"
	i=$((i + 2))
done
xfs_io "$@" fragmented
if [ "$reflink" = 1 ]; then
	pattern 262144 3 > reflink-src
	cp --reflink=always reflink-src reflink-clone
	cp --reflink=always reflink-src reflink-cow
	# overwrite the middle of one clone: shared, CoW'd, shared again
	xfs_io -c "pwrite -q -S 0x67 64k 64k" -c fsync reflink-cow
fi
# modes and owners
for m in 0000 0644 4755 2755 6711 0777; do
	printf '%s\n' "$m" > "mode-$m"
	chmod "$m" "mode-$m"
done
mkdir sticky-dir setgid-dir
chmod 1777 sticky-dir
chmod 2775 setgid-dir
printf 'owned\n' > owner-1000
chown 1000:100 owner-1000
printf 'owned\n' > owner-max
chown 4294967294:4294967294 owner-max
# timestamps: before 1970 (and the oldest XFS can store), half a second
# before the epoch, the epoch; after 2038 only where bigtime allows
mkdir times
touch -d "1901-12-13 20:45:52 UTC" times/oldest
touch -d "1960-06-15 12:00:00.123456789 UTC" times/before-1970
touch -d "1969-12-31 23:59:59.5 UTC" times/before-epoch
touch -d "1970-01-01 00:00:00 UTC" times/epoch
touch -d "2038-01-19 03:14:07 UTC" times/last-32bit
ln -s small times/old-symlink
touch -h -d "1950-01-01 00:00:00.000000001 UTC" times/old-symlink
if [ "$bigtime" = 1 ]; then
	touch -d "2038-01-19 03:14:08 UTC" times/after-2038
	touch -d "2106-02-07 06:28:16.999999999 UTC" times/after-2106
	touch -d "2486-07-02 08:20:15 UTC" times/newest
fi
touch -d "1965-01-01 UTC" times
cd ..

# ---------------------------------------------------------------- dirs
mkdir dirs
cd dirs
# short form: a few entries of several types
mkdir short short-empty
: > short/file
mkdir short/subdir
ln -s file short/symlink
# block: 50 names of 40 bytes overflow even a 2 KiB inode's literal area
# and still fit one 4 KiB directory block
mkdir block
mkentries block block 1 50 40
# leaf: data in several directory blocks, the hash index in one leaf.
# The names take 24 bytes in a data block (xfs_dir2_data_entry: 8-byte
# inumber, namelen, 11 bytes of name, ftype, 2-byte tag) after a 64-byte
# header, and "." and ".." take 16 bytes each in block 0; so block 0 holds
# leafb0 names and each later block leafe: make one block and a half more.
leafb0=$(((dirbs - 64 - 32) / 24))
leafe=$(((dirbs - 64) / 24))
leafn=$((leafb0 + leafe + leafe / 2))
mkdir leaf leaf-holes
mkentries leaf leaf 1 "$leafn"
mkentries leaf-holes leaf 1 "$leafn"
# node: more hash entries than one leaf block holds
mkdir node node-holes
mkentries node node 1 20000
noden=$((dirbs / 3))
mkentries node-holes node 1 "$noden"
# holes: removing a run of names created one after the other empties whole
# data blocks, which the kernel frees, and leaves stale hash entries; the
# rest is still too big for the smaller form.  In leaf-holes the run is
# exactly data block 1.
rmrange() {
	(cd "$1" && awk -v p="$2" -v a="$3" -v b="$4" 'BEGIN {
		for (i = a; i <= b; i++) printf "%s-%06d\n", p, i }' | xargs rm)
}
rmrange leaf-holes leaf $((leafb0 + 1)) $((leafb0 + leafe))
rmrange node-holes node $((noden * 3 / 10)) $((noden * 6 / 10))
if [ "$bigdir" = 1 ]; then
	mkdir huge
	mkentries huge huge 1 100000
fi
cd ..

# ---------------------------------------------------------------- names
mkdir names
cd names
: > "$(pattern 255 4 | tr '/' '_')"
: > "$(printf 'n%.0s' $(seq 255))"
: > "with space"
: > " leading space"
: > "trailing space "
: > "$(printf 'caf\303\251')"
: > "$(printf '\346\227\245\346\234\254\350\252\236')"
: > "$(printf 'bad-utf8-\377\376')"
: > "$(printf 'ctl-\001\011\033')"
: > "$(printf 'esc-\\=,')"
: > "$(printf '%s' '-dash')"
cd ..

# ---------------------------------------------------------------- links
mkdir links
cd links
printf 'target\n' > target
ln -s t short
ln -s target to-file
ln -s ../dirs to-dir
ln -s does-not-exist dangling
ln -s -- "$(pattern 60 5 | tr '/' '_')" len-60
ln -s -- "$(pattern 400 6)" len-400
ln -s -- "$(pattern 1023 7)" len-1023
ln -s "$(printf 'caf\303\251 \\=,')" odd-target
# hard links: three names in two directories
printf 'linked\n' > hard-a
ln hard-a hard-b
ln hard-a ../dirs/short/hard-c
cd ..

# ---------------------------------------------------------------- special
mkdir special
cd special
mknod chr-null c 1 3
mknod chr-max c 511 262143
mknod blk-loop b 7 0
mknod blk-sdb1 b 8 17
mkfifo fifo
python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind("socket")'
cd ..

# ---------------------------------------------------------------- attrs
mkdir attrs
cd attrs
# restore FILE < dump: set many attributes in one process
restore() {
	setfattr -h --restore=/dev/stdin
}
# short form: small values, an empty one, every namespace
: > short
setfattr -n user.a -v one short
setfattr -n user.empty short
setfattr -n trusted.t -v 0x000102ff short
setfattr -n security.s -v sec short
setfattr -n "$(printf 'user.caf\303\251 =,')" -v odd-name short
# leaf: more than the literal area holds, less than one block
leafa=$(((isize - 176) / 51 + 4))
: > leaf
{
	echo "# file: leaf"
	i=1
	while [ $i -le $leafa ]; do
		printf 'user.leaf.%03d=0x%s\n' $i "$(hexpattern 40 $i)"
		i=$((i + 1))
	done
	echo "user.leaf.empty"
	echo "trusted.leaf.empty"
} | restore
# node: thousands of attributes, many leaf blocks under a dabtree node
: > node
{
	echo "# file: node"
	awk 'BEGIN { for (i = 1; i <= 2000; i++)
		printf "user.node.%04d=\"value-%08d-%08d\"\n", i, i, i * 7 }'
} | restore
# an attribute fork in btree form whatever the allocator does: 300 remote
# values of one block each (a remote block has a 56-byte header), then
# every other one removed; the holes this leaves in the fork's offsets
# keep the 150 left in as many extents, more than any literal area holds
: > btree
awk -v n=$((bs - 56)) 'BEGIN {
	print "# file: btree"
	for (i = 0; i < 300; i++) {
		# the bytes of hexpattern N (i + 100), in one process
		x = i + 100
		printf "user.rb.%03d=0x", i
		for (j = 0; j < n; j++) {
			x = (x * 1103 + 12345) % 65536
			printf "%02x", 32 + (x % 95)
		}
		print ""
	}
}' | restore
python3 -c 'import os
for i in range(0, 300, 2):
    os.removexattr("btree", "user.rb.%03d" % i)'
# remote values: the largest (64 KiB) and one just over a block
: > remote
{
	echo "# file: remote"
	printf 'user.remote64k=0x%s\n' "$(hexpattern 65536 8)"
	printf 'user.small=0x%s\n' "$(hexpattern 16 9)"
	printf 'security.remote=0x%s\n' "$(hexpattern $((bs + 100)) 10)"
	printf 'trusted.local=0x%s\n' "$(hexpattern 100 11)"
} | restore
# attributes on other kinds of inode, and with data in the data fork
mkdir dir-with-attrs
setfattr -n user.d -v dirvalue dir-with-attrs
ln -s target symlink-with-attrs
setfattr -h -n trusted.l -v linkvalue symlink-with-attrs
mknod dev-with-attrs c 1 5
setfattr -n trusted.dev -v devvalue dev-with-attrs
mkfifo fifo-with-attrs
setfattr -n security.f -v fifovalue fifo-with-attrs
pattern 20000 12 > data-and-attrs
setfattr -n user.x -v "$(pattern 200 13)" data-and-attrs
cd ..
setfattr -n user.root -v rootvalue .
