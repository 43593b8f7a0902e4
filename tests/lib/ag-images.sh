# Images for the AG tests, made by the reference mkfs.xfs and cached under
# $AG_CACHE (by default $top_builddir/tests/ag-cache).  A test sources
# this after test-lib.sh:
#
#   ag_deep_image             path of the deep image (shared: copy it to write)
#   ag_deep_ag                the AG of the deep image that holds its trees
#   ag_copy SRC DEST          a sparse private copy
#   ag_db IMG CMD...          run the reference xfs_db read-only on IMG
#   ag_val IMG CMD... FIELD   the value of FIELD after the xfs_db commands
#   ag_poke IMG CMD...        run the reference xfs_db -x (writes)
#   ag_codes FILE             the distinct [CODE]s of walkfs output, one a line
#   ag_area_codes FILE        the codes of this area only (AG headers, btrees)
#
# The deep image has 1 KiB blocks, rmapbt and reflink, so that a modest
# population makes every AG btree taller than one level in one AG: 5000
# small files (inobt), one file freed in each of their chunks (finobt), a
# 4 MiB file with every other block punched (bnobt, cntbt, rmapbt) and a
# reflinked copy of it (refcountbt).  Its cache key hashes this file and
# the reference mkfs version, so changing the population rebuilds it.

: "${AG_CACHE:=$top_builddir/tests/ag-cache}"
AG_LIB="$top_srcdir/tests/lib/ag-images.sh"

ag_copy() {
	cp --sparse=always "$1" "$2"
}

ag_db() {
	_img=$1
	shift
	_args=""
	for _c in "$@"; do
		_args="$_args -c \"$_c\""
	done
	eval "\"$REF_DB\" -r $_args \"$_img\"" 2>/dev/null
}

ag_val() {
	_img=$1
	shift
	_n=$#
	_field=$(eval "echo \${$_n}")
	_cmds=""
	_i=1
	for _c in "$@"; do
		[ $_i -lt $_n ] && _cmds="$_cmds -c \"$_c\""
		_i=$((_i + 1))
	done
	eval "\"$REF_DB\" -r $_cmds -c \"print $_field\" \"$_img\"" 2>/dev/null |
		awk -v f="$_field" '$1 == f && $2 == "=" { print $3; exit }'
}

ag_poke() {
	_img=$1
	shift
	_args=""
	for _c in "$@"; do
		_args="$_args -c \"$_c\""
	done
	eval "\"$REF_DB\" -x $_args \"$_img\"" > /dev/null 2>&1
}

ag_codes() {
	grep -o '\[[A-Z0-9_]*\]$' "$1" | tr -d '[]' | sort -u
}

ag_area_codes() {
	ag_codes "$1" | grep -E '^(AG|AGF|AGI|AGFL|BTREE|ALLOC|INOBT|FINOBT|RMAP|REFC|CNTBT)_'
}

# _ag_populate MNT: the population described above.
_ag_populate() {
	_m=$1
	mkdir "$_m/d" || return 1
	awk -v d="$_m/d" 'BEGIN {
		for (i = 0; i < 5000; i++) {
			f = d "/f" i
			print i > f
			close(f)
		}
	}' || return 1
	# inode numbers follow creation order in a fresh directory's AG:
	# removing every 64th file leaves a free inode in each chunk
	_i=10
	while [ $_i -lt 5000 ]; do
		rm "$_m/d/f$_i" || return 1
		_i=$((_i + 64))
	done
	xfs_io -f -c "pwrite -q -b 1m 0 4m" -c fsync "$_m/d/frag" || return 1
	awk 'BEGIN { for (b = 0; b < 4096; b += 2)
		printf "fpunch %d 1024\n", b * 1024 }' |
		xfs_io "$_m/d/frag" || return 1
	cp --reflink=always "$_m/d/frag" "$_m/d/frag2" || return 1
	sync
}

_ag_build_deep() {
	_b=$1
	_mnt="$_b.mnt"
	rm -f "$AG_CACHE"/deep-*.img "$AG_CACHE"/deep-*.tmp
	truncate -s 512M "$_b.tmp" || return 1
	"$REF_MKFS" -q -f -b size=1024 -m rmapbt=1,reflink=1 -d agcount=2 \
		"$_b.tmp" || return 1
	mkdir -p "$_mnt"
	mount -o loop,nouuid "$_b.tmp" "$_mnt" || return 1
	if ! _ag_populate "$_mnt"; then
		umount "$_mnt"
		return 1
	fi
	umount "$_mnt" || return 1
	rmdir "$_mnt"
	cp --sparse=always "$_b.tmp" "$_b.sparse" && mv "$_b.sparse" "$_b.tmp" &&
		mv "$_b.tmp" "$_b.img"
}

ag_deep_image() {
	_key=$({ cat "$AG_LIB"; "$REF_MKFS" -V 2>/dev/null; } |
		sha256sum | cut -c1-16)
	_base="$AG_CACHE/deep-$_key"
	cache_once "$_base.img" "$AG_CACHE/deep.lock" "" \
		_ag_build_deep "$_base" || return 1
	echo "$_base.img"
}

# ag_deep_ag IMG: the AG whose inobt is taller than one level.
ag_deep_ag() {
	for _ag in 0 1; do
		[ "$(ag_val "$1" "agi $_ag" level)" -ge 2 ] 2>/dev/null &&
			{ echo "$_ag"; return 0; }
	done
	return 1
}

# ag_need_tools: the tools the AG damage tests run (SKIP without them),
# with sanitizer reports turned into exit codes no tool returns itself.
ag_need_tools() {
	AGTOOL="$top_builddir/tests/tools/agtool"
	need_tool "$AGTOOL"
	need_tool "$WALKFS"
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86"
	UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}halt_on_error=1:exitcode=87"
	export ASAN_OPTIONS UBSAN_OPTIONS
}

# ag_expect NAME CODE XFS_DB-COMMAND...: damage a copy of $base; walkfs
# and agtool must each exit 1 with a finding CODE and no sanitizer report.
ag_expect() {
	_name=$1 _code=$2
	shift 2
	ag_copy "$base" "$T/c.img"
	ag_poke "$T/c.img" "$@"
	"$WALKFS" -q "$T/c.img" > "$T/walk.out" 2>&1
	_w=$?
	"$AGTOOL" check "$T/c.img" > "$T/ag.out" 2>&1
	_a=$?
	if [ $_w -eq 1 ] && grep -q "\[$_code\]" "$T/walk.out" &&
	   ! grep -q -e Sanitizer -e 'runtime error' "$T/walk.out"; then
		ok "$_name: walkfs exits 1 with $_code"
	else
		not_ok "$_name: walkfs exits 1 with $_code (exit $_w)"
		diag "$(grep -v '^walkfs: directory' "$T/walk.out" | head -6)"
	fi
	if [ $_a -eq 1 ] && grep -q "\[$_code\]" "$T/ag.out" &&
	   ! grep -q -e Sanitizer -e 'runtime error' "$T/ag.out"; then
		ok "$_name: agtool exits 1 with $_code"
	else
		not_ok "$_name: agtool exits 1 with $_code (exit $_a)"
		diag "$(head -6 "$T/ag.out")"
	fi
}
