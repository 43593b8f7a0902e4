# Images whose inode btrees hold sparse inode chunks that the Linux kernel
# itself allocated, made by the reference mkfs.xfs and populated through a
# kernel loop mount; cached beside the AG images ($AG_CACHE).  A test
# sources this after test-lib.sh:
#
#   sparse_names              the geometries, one a line
#   sparse_opts NAME          that geometry's mkfs.xfs options
#   sparse_image NAME         path of its image (shared: never write to it)
#   sparse_listing NAME       path of the kernel's listing of it (klist.py)
#   sparse_sb IMG FIELD       a field of IMG's primary superblock
#   sparse_recs IMG [free]    every inobt (finobt with "free") record of every
#                             AG, as the reference xfs_db prints them:
#                             "AG STARTINO HOLEMASK COUNT FREECOUNT FREE"
#   sparse_need               skip_all unless the images can be built here
#
# How the kernel is made to allocate sparse chunks.  With sparse inodes a
# full chunk (64 inodes) must start on an sb_inoalignmt boundary, while a
# sparse one needs only sb_spino_align blocks (one inode cluster, half a
# chunk) on that alignment.  The population
#   1. hands the reserve pool back (resblks 0) and fills the filesystem
#      with fallocated files until ENOSPC, so that nothing is left free but
#      what the per-AG reservations hold;
#   2. punches each file so that it keeps one block in each chunk-sized
#      group (inoalignmt blocks): the holes between are at most
#      inoalignmt - 1 blocks, so each holds an aligned half chunk and none
#      an aligned full one.  Groups keep their first block four at a time,
#      where the kernel can use only the upper half of a chunk (holemask
#      0xff), then their middle block four at a time, where it can use only
#      the lower half (0xff00), as long as the file's extents start on
#      chunk boundaries, which they do in practice (and t0206 checks both
#      halves appear); where the first turns into the second the
#      group keeps both blocks, so no hole grows to a full chunk.  Every
#      file keeps its first and last block, so holes of neighbouring files
#      never join;
#   3. creates empty files 500 at a time until the reverse mapping (fsmap)
#      shows 8 inode extents that are not whole aligned chunks, that is until
#      the allocator has used up the large extents the reservations kept
#      and falls back to sparse chunks, then one batch more;
#   4. removes every third of those files but the last batch, so that
#      sparse records have free inodes too (and are in the finobt), while
#      the last batch's stay full.
# Each image takes a second or two.  Its listing is taken as the corpus
# takes its own (tests/lib/corpus.sh): on a fresh noatime mount after
# syncfs.  The cache key hashes this file, klist.py, the geometry and the
# reference mkfs version.

: "${AG_CACHE:=$top_builddir/tests/ag-cache}"
SPARSE_LIB="$top_srcdir/tests/lib/sparse-images.sh"
SPARSE_KLIST="$top_srcdir/tests/tools/klist.py"

# NAME MKFS-OPTIONS...: 64 MiB each, four AGs, rmapbt for fsmap.  A chunk
# spans 8 blocks (a sparse half 4) with 4 KiB blocks and 512-byte inodes,
# 32 blocks (16) with 1 KiB blocks, and 32 blocks of two inodes each with
# 2 KiB inodes.
_sparse_table() {
	cat <<-'EOF'
	isize512  -m rmapbt=1 -i sparse=1
	bsize1k   -m rmapbt=1 -i sparse=1 -b size=1024
	isize2k   -m rmapbt=1 -i sparse=1,size=2048
	EOF
}

sparse_names() {
	_sparse_table | awk '{ print $1 }'
}

sparse_opts() {
	_sparse_table | awk -v n="$1" '$1 == n { found = 1
		for (i = 2; i <= NF; i++) printf "%s%s", $i, (i < NF ? " " : "\n") }
		END { exit !found }'
}

sparse_need() {
	need_loop
	need_ref
	for _c in python3 xfs_io flock; do
		command -v "$_c" > /dev/null 2>&1 ||
			skip_all "the sparse-chunk images need $_c"
	done
}

sparse_sb() {
	"$REF_DB" -r -c "sb 0" -c "print $2" "$1" 2>/dev/null |
		awk '$2 == "=" { print $3 }'
}

# _sparse_misaligned MNT C AGBLOCKS BS: the number of inode extents fsmap
# reports that do not start and end on a chunk boundary of their AG.
_sparse_misaligned() {
	xfs_io -c "fsmap -d -m" "$1" | awk -F, -v c="$2" -v agb="$3" \
		-v bb=$(($4 / 512)) '
		$6 == "special_88:5" {
			s = ($4 / bb) % agb
			n = ($5 + 1 - $4) / bb
			if (s % c || n % c)
				k++
		}
		END { print k + 0 }'
}

# _sparse_populate MNT BS C AGBLOCKS: steps 1 to 4 above.
_sparse_populate() {
	_m=$1 _bs=$2 _c=$3 _agb=$4
	_len=$((32 * _c))
	mkdir "$_m/fill" "$_m/ino" || return 1
	xfs_io -x -c "resblks 0" "$_m" > /dev/null || return 1
	_nf=0
	while xfs_io -f -c "falloc 0 $((_len * _bs))" "$_m/fill/f$_nf" \
		2>/dev/null; do
		_nf=$((_nf + 1))
	done
	[ $_nf -gt 2 ] || { echo "only $_nf files fit"; return 1; }
	# what is left: one block at a time, in one file
	awk -v bs="$_bs" -v n="$_len" 'BEGIN {
		for (b = 0; b < n; b++) printf "falloc %d %d\n", b * bs, bs }' |
		xfs_io -f "$_m/fill/rest" > /dev/null 2>&1
	_i=0
	while [ $_i -lt $_nf ]; do
		awk -v bs="$_bs" -v c="$_c" -v n="$_len" '
		function punch(from, to) {
			if (to > from)
				printf "fpunch %d %d\n", from * bs, (to - from) * bs
		}
		BEGIN {
			k = 0
			for (b = 0; b < n; b++) {
				g = int(b / c)
				o = b % c
				if (int(g / 4) % 2 == 0)
					keep = o == 0
				else
					keep = o == c / 2 || (o == 0 && g % 8 == 4)
				if (!keep && b != 0 && b != n - 1)
					continue
				punch(k, b)
				k = b + 1
			}
		}' | xfs_io "$_m/fill/f$_i" || return 1
		_i=$((_i + 1))
	done
	_n=0 _more=1
	while [ $_more -ge 0 ]; do
		[ $_n -lt 50000 ] || { echo "no sparse chunk after $_n inodes"; return 1; }
		awk -v d="$_m/ino" -v s=$_n 'BEGIN {
			for (i = s; i < s + 500; i++) {
				f = d "/i" i
				printf "" > f
				close(f)
			}
		}' || return 1
		_n=$((_n + 500))
		[ "$(_sparse_misaligned "$_m" "$_c" "$_agb" "$_bs")" -ge 8 ] &&
			_more=$((_more - 1))
	done
	_i=0
	while [ $_i -lt $((_n - 500)) ]; do
		echo "$_m/ino/i$_i"
		_i=$((_i + 3))
	done | xargs rm || return 1
	echo "$_nf files punched, $_n inodes made," \
		"$(_sparse_misaligned "$_m" "$_c" "$_agb" "$_bs") sparse inode extents"
}

# _sparse_build NAME BASE: BASE.img and BASE.list (written last).
_sparse_build() {
	_b=$2
	_mnt="$_b.mnt"
	_log="$_b.log"
	mountpoint -q "$_mnt" 2>/dev/null && umount "$_mnt"
	rm -f "$AG_CACHE/sparse-$1-"*.img "$AG_CACHE/sparse-$1-"*.list \
		"$AG_CACHE/sparse-$1-"*.log "$AG_CACHE/sparse-$1-"*.tmp
	mkdir -p "$_mnt"
	: > "$_log"
	truncate -s 64m "$_b.tmp" || return 1
	_h=$(printf '%s' "$1" | sha256sum | cut -c1-12)
	# the environment fstests uses lets the reference make 64 MiB
	# shellcheck disable=SC2046
	TEST_DIR="$AG_CACHE" TEST_DEV="$_b.tmp" QA_CHECK_FS=1 \
		"$REF_MKFS" -f -m uuid="5a45e000-c4ec-4a11-8e5e-$_h" \
		$(sparse_opts "$1") "$_b.tmp" >> "$_log" 2>&1 || return 1
	_bs=$(sparse_sb "$_b.tmp" blocksize)
	_c=$(sparse_sb "$_b.tmp" inoalignmt)
	_agb=$(sparse_sb "$_b.tmp" agblocks)
	mount -o loop,nouuid "$_b.tmp" "$_mnt" >> "$_log" 2>&1 || return 1
	if ! _sparse_populate "$_mnt" "$_bs" "$_c" "$_agb" >> "$_log" 2>&1; then
		umount "$_mnt"
		return 1
	fi
	umount "$_mnt" || return 1
	mount -o loop,nouuid,noatime "$_b.tmp" "$_mnt" >> "$_log" 2>&1 ||
		return 1
	sync -f "$_mnt"
	if ! python3 "$SPARSE_KLIST" -b "$_bs" "$_mnt" > "$_b.list.tmp" \
		2>> "$_log"; then
		umount "$_mnt"
		return 1
	fi
	umount "$_mnt" || return 1
	rmdir "$_mnt"
	cp --sparse=always "$_b.tmp" "$_b.sparse.tmp" &&
		mv "$_b.sparse.tmp" "$_b.tmp" && mv "$_b.tmp" "$_b.img" &&
		mv "$_b.list.tmp" "$_b.list"
}

# _sparse_ready NAME: build NAME if needed, under its lock; print its base.
_sparse_ready() {
	sparse_opts "$1" > /dev/null ||
		{ echo "sparse-images: no geometry '$1'" >&2; return 1; }
	_key=$({
		printf '%s\n' "$1" "$(sparse_opts "$1")"
		"$REF_MKFS" -V 2>/dev/null
		cat "$SPARSE_LIB" "$SPARSE_KLIST"
	} | sha256sum | cut -c1-16)
	_base="$AG_CACHE/sparse-$1-$_key"
	cache_once "$_base.list" "$AG_CACHE/sparse-$1.lock" "$_base.log" \
		_sparse_build "$1" "$_base" || return 1
	echo "$_base"
}

sparse_image() {
	_p=$(_sparse_ready "$1") || return 1
	echo "$_p.img"
}

sparse_listing() {
	_p=$(_sparse_ready "$1") || return 1
	echo "$_p.list"
}

# sparse_recs IMG [free]: btdump from each AG's root, leaves only.
sparse_recs() {
	_root=root
	[ "${2:-}" = free ] && _root=free_root
	_agc=$(sparse_sb "$1" agcount)
	_a=0
	while [ $_a -lt "$_agc" ]; do
		"$REF_DB" -r -c "agi $_a" -c "addr $_root" -c btdump "$1" \
			2>/dev/null | awk -v ag=$_a '
			/^[0-9]+:\[/ {
				sub(/^[0-9]+:\[/, "")
				sub(/\].*/, "")
				gsub(/,/, " ")
				print ag, $0
			}'
		_a=$((_a + 1))
	done
}
