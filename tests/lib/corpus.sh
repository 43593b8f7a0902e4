# The test corpus: XFS images made by the reference mkfs.xfs in many
# geometries, populated through a kernel loop mount with every kind of
# object (tests/lib/corpus-populate.sh), each kept with the canonical
# listing the kernel gave just before unmount (tests/tools/klist.py,
# tests/tools/LISTING.md).  A test sources this after tests/lib/test-lib.sh:
#
#   . "$top_srcdir/tests/lib/corpus.sh"
#   corpus_need                       # SKIP unless root, loop, xfsprogs...
#   for n in $(corpus_names); do
#       img=$(corpus_image "$n") || { not_ok "$n: corpus image"; continue; }
#       "$WALKFS" -l "$img" | diff -u "$(corpus_listing "$n")" -
#   done
#
# Functions (each prints its answer on stdout, builds on demand, returns
# non-zero on failure with the reason on stderr):
#   corpus_names               the option sets, one a line
#   corpus_opts NAME           that set's mkfs.xfs options
#   corpus_image NAME          path of the image (shared: never write to it)
#   corpus_listing NAME        path of the kernel listing of that image
#   corpus_geom NAME KEY       blocksize, inodesize, dirblksize, reflink,
#                              bigtime or bigdir of that image
#   corpus_ino NAME PATH       inode number of PATH (as the listing writes it)
#   corpus_copy NAME DEST      a sparse private copy, for tests that write
#   corpus_build_all           build every set, $CORPUS_JOBS at a time
#   corpus_need                skip_all unless the corpus can be built here
#
# Images live in $CORPUS_CACHE (by default $top_builddir/tests/corpus-cache)
# as NAME-KEY.img, NAME-KEY.list (the listing), NAME-KEY.geom, NAME-KEY.log.
# KEY hashes the set's options, this file, the population script, klist.py
# and the reference mkfs version, so a rerun reuses the images and a change
# to any of them rebuilds (the stale files of that set are removed).  Builds take
# a lock per set, so tests running in parallel share one build.

: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
: "${CORPUS_CACHE:=$top_builddir/tests/corpus-cache}"
: "${CORPUS_JOBS:=2}"
: "${CORPUS_MKFS:=${REF_MKFS:-/usr/sbin/mkfs.xfs}}"
: "${CORPUS_DB:=${REF_DB:-/usr/sbin/xfs_db}}"
: "${CORPUS_POPULATE:=$top_srcdir/tests/lib/corpus-populate.sh}"
: "${CORPUS_KLIST:=$top_srcdir/tests/tools/klist.py}"
CORPUS_LIB="$top_srcdir/tests/lib/corpus.sh"

# The option sets: NAME SIZE BIGDIR QA MKFS-OPTIONS...  rmapbt is on unless
# a set says otherwise; only "default" has the directory of 100,000
# entries.  QA=1 runs mkfs with the environment fstests uses (TEST_DIR,
# TEST_DEV and QA_CHECK_FS all set), which lets the reference make a
# filesystem with one AG, or AGs too small for its usual 64 MiB log.
_corpus_table() {
	cat <<-'EOF'
	default    1g   1 0 -m rmapbt=1
	bsize1k    600m 0 0 -m rmapbt=1 -b size=1024
	isize1k    512m 0 0 -m rmapbt=1 -i size=1024
	isize2k    512m 0 0 -m rmapbt=1 -i size=2048
	noreflink  512m 0 0 -m rmapbt=0,reflink=0
	nofinobt   512m 0 0 -m rmapbt=1,finobt=0
	nosparse   512m 0 0 -m rmapbt=1 -i sparse=0
	dir16k     512m 0 0 -m rmapbt=1 -n size=16384
	dir64k     512m 0 0 -m rmapbt=1 -n size=65536
	agcount1   512m 0 1 -m rmapbt=1 -d agcount=1
	agcount16  1000m 0 1 -m rmapbt=1 -d agcount=16
	nobigtime  512m 0 0 -m rmapbt=1,bigtime=0
	nrext64    777m 0 0 -m rmapbt=1 -i nrext64=1
	ino64      3t   0 0 -m rmapbt=1
	EOF
}

_corpus_row() {
	_corpus_table | awk -v n="$1" '$1 == n { print; found = 1 }
		END { exit !found }'
}

corpus_names() {
	_corpus_table | awk '{ print $1 }'
}

corpus_opts() {
	_corpus_row "$1" > /dev/null ||
		{ echo "corpus: no option set '$1'" >&2; return 1; }
	_corpus_mkfs_opts "$1"
}

# The fields of a row, whatever the alignment spaces.
_corpus_field() {
	_corpus_row "$1" | awk -v f="$2" '{ print $f }'
}

_corpus_mkfs_opts() {
	_corpus_row "$1" | awk '{ for (i = 5; i <= NF; i++)
		printf "%s%s", $i, (i < NF ? " " : "\n") }'
}

# _corpus_uuid NAME: each set has its own fixed UUID, so that images of
# different sets can be mounted side by side.
_corpus_uuid() {
	_h=$(printf '%s' "$1" | sha256sum | cut -c1-12)
	echo "c0a9c0a9-5eed-4c0a-9e5e-$_h"
}

# _corpus_base NAME: the cache path of the set, without suffix.
_corpus_base() {
	_row=$(_corpus_row "$1") || { echo "corpus: no option set '$1'" >&2; return 1; }
	_ver=$("$CORPUS_MKFS" -V 2>/dev/null)
	_key=$({
		printf '%s\n' "$_row" "$_ver"
		cat "$CORPUS_LIB" "$CORPUS_POPULATE" "$CORPUS_KLIST"
	} | sha256sum | cut -c1-16)
	echo "$CORPUS_CACHE/$1-$_key"
}

# _corpus_build NAME BASE: make BASE.img and its listing; BASE.list is
# written last, so its presence means the set is complete.
_corpus_build() {
	_n=$1 _b=$2
	_size=$(_corpus_field "$_n" 2)
	_bigdir=$(_corpus_field "$_n" 3)
	_mnt="$_b.mnt"
	_log="$_b.log"
	# a build that was killed may have left its mount behind
	for _m in "$CORPUS_CACHE/$_n-"*.mnt; do
		[ -d "$_m" ] || continue
		mountpoint -q "$_m" && { umount "$_m" || umount -l "$_m"; }
		rmdir "$_m" || return 1
	done
	rm -f "$CORPUS_CACHE/$_n-"*.img "$CORPUS_CACHE/$_n-"*.list \
		"$CORPUS_CACHE/$_n-"*.geom "$CORPUS_CACHE/$_n-"*.log \
		"$CORPUS_CACHE/$_n-"*.tmp
	mkdir -p "$_mnt"
	: > "$_log"
	_t0=$(date +%s)
	truncate -s "$_size" "$_b.img.tmp" || return 1
	_env=""
	[ "$(_corpus_field "$_n" 4)" = 1 ] &&
		_env="TEST_DIR=$CORPUS_CACHE TEST_DEV=$_b.img.tmp QA_CHECK_FS=1"
	# shellcheck disable=SC2046,SC2086
	if ! env $_env "$CORPUS_MKFS" -f -m uuid="$(_corpus_uuid "$_n")" \
		$(_corpus_mkfs_opts "$_n") "$_b.img.tmp" >> "$_log" 2>&1; then
		_corpus_failed "mkfs.xfs $(_corpus_mkfs_opts "$_n")"
		return 1
	fi
	_sb=$("$CORPUS_DB" -r -c "sb 0" -c "p blocksize inodesize dirblklog" \
		-c version "$_b.img.tmp" 2>>"$_log")
	_bs=$(echo "$_sb" | awk '$1 == "blocksize" { print $3 }')
	_is=$(echo "$_sb" | awk '$1 == "inodesize" { print $3 }')
	_dl=$(echo "$_sb" | awk '$1 == "dirblklog" { print $3 }')
	_dbs=$((_bs << _dl))
	_rl=0 _bt=0
	case $_sb in *REFLINK*) _rl=1 ;; esac
	case $_sb in *BIGTIME*) _bt=1 ;; esac
	printf 'blocksize=%s\ninodesize=%s\ndirblksize=%s\nreflink=%s\nbigtime=%s\nbigdir=%s\n' \
		"$_bs" "$_is" "$_dbs" "$_rl" "$_bt" "$_bigdir" > "$_b.geom.tmp"

	# nouuid: a test may have a copy of this set's image mounted
	if ! mount -o loop,nouuid "$_b.img.tmp" "$_mnt" >> "$_log" 2>&1; then
		_corpus_failed "mount"
		return 1
	fi
	if ! sh "$CORPUS_POPULATE" "$_mnt" "$_bs" "$_is" "$_dbs" "$_rl" "$_bt" \
		"$_bigdir" >> "$_log" 2>&1; then
		umount "$_mnt" 2>/dev/null
		_corpus_failed "population"
		return 1
	fi
	# Unmount and mount again before listing, so that what the kernel
	# shows is what is on disk: eviction drops post-EOF preallocation and
	# CoW reservations that a reader of the unmounted image never sees.
	# noatime keeps the listing pass from changing the image.
	umount "$_mnt" >> "$_log" 2>&1 || { _corpus_failed "umount"; return 1; }
	if ! mount -o loop,nouuid,noatime "$_b.img.tmp" "$_mnt" >> "$_log" 2>&1; then
		_corpus_failed "second mount"
		return 1
	fi
	sync -f "$_mnt"
	if ! python3 "$CORPUS_KLIST" -b "$_bs" "$_mnt" > "$_b.list.tmp" 2>> "$_log"; then
		umount "$_mnt" 2>/dev/null
		_corpus_failed "klist.py"
		return 1
	fi
	umount "$_mnt" >> "$_log" 2>&1 || { _corpus_failed "final umount"; return 1; }
	rmdir "$_mnt"
	# Copy the image sparsely: mkfs zeroes the whole log, and the host
	# filesystem keeps those zeroes allocated (fallocate -d misses them
	# until they are read, a copy skips them and any other run of zeroes).
	cp --sparse=always "$_b.img.tmp" "$_b.sparse.tmp" &&
		mv "$_b.sparse.tmp" "$_b.img.tmp" ||
		{ _corpus_failed "sparse copy"; return 1; }
	echo "built in $(($(date +%s) - _t0)) s" >> "$_log"
	mv "$_b.img.tmp" "$_b.img" && mv "$_b.geom.tmp" "$_b.geom" &&
		mv "$_b.list.tmp" "$_b.list"
}

_corpus_failed() {
	echo "corpus: $_n: $1 failed; the end of $_log:" >&2
	tail -n 20 "$_log" | sed 's/^/  /' >&2
}

# _corpus_ready NAME: build NAME if needed (under its lock); print BASE.
_corpus_ready() {
	_base=$(_corpus_base "$1") || return 1
	cache_once "$_base.list" "$CORPUS_CACHE/$1.lock" "" \
		_corpus_build "$1" "$_base" || return 1
	echo "$_base"
}

corpus_image() {
	_p=$(_corpus_ready "$1") || return 1
	echo "$_p.img"
}

corpus_listing() {
	_p=$(_corpus_ready "$1") || return 1
	echo "$_p.list"
}

corpus_geom() {
	_p=$(_corpus_ready "$1") || return 1
	sed -n "s/^$2=//p" "$_p.geom"
}

corpus_ino() {
	_p=$(_corpus_ready "$1") || return 1
	# ENVIRON, not -v: awk would undo the listing's \xHH escapes
	P=$2 awk '$1 == ENVIRON["P"] { sub(/^ino=/, "", $2); print $2; found = 1 }
		END { exit !found }' "$_p.list"
}

corpus_copy() {
	_p=$(_corpus_ready "$1") || return 1
	cp --sparse=always "$_p.img" "$2"
}

# corpus_build_all: every set, CORPUS_JOBS builds at a time; fails if any did.
corpus_build_all() {
	_rc=0
	_names=$(corpus_names)
	set -- $_names
	while [ $# -gt 0 ]; do
		_pids=""
		_j=0
		while [ $# -gt 0 ] && [ $_j -lt "$CORPUS_JOBS" ]; do
			_corpus_ready "$1" > /dev/null &
			_pids="$_pids $!"
			_j=$((_j + 1))
			shift
		done
		for _pid in $_pids; do
			wait "$_pid" || _rc=1
		done
	done
	return $_rc
}

corpus_need() {
	need_loop
	need_ref
	for _c in python3 xfs_io setfattr fallocate flock; do
		command -v "$_c" > /dev/null 2>&1 ||
			skip_all "the corpus needs $_c"
	done
}
