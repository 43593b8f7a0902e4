# Small populated filesystems for the xfs_repair corruption cases: made
# by the reference mkfs.xfs, filled through a kernel loop mount with one
# object of every kind repair checks (directories in each form, files in
# extent and btree format, sparse, unwritten and reflinked files,
# symlinks, special files, hard links, attributes in each form), and kept
# with a map from path to inode number.  Source after test-lib.sh:
#
#   img=$(rp_image std) || ...       # cached image (never write to it)
#   ino=$(rp_ino std /dir_node)      # inode number of a path in it
#
# Images live in $RP_CACHE (default $top_builddir/tests/repair-cache) as
# NAME-KEY.img and NAME-KEY.ino; KEY hashes how they are made
# (repair-build.sh) and the reference mkfs version, so a change there
# rebuilds.  A lock per image lets tests share one build.

: "${RP_CACHE:=$top_builddir/tests/repair-cache}"
RP_IMAGES_LIB="$top_srcdir/tests/lib/repair-build.sh"
. "$RP_IMAGES_LIB"

# Each image's cache name ends in a key made of its row, the reference
# mkfs's version and repair-build.sh: worked out once, when a test
# sources this file, as "NAME:KEY ..." (tests ask for images per case).
_rp_common=$({ "$REF_MKFS" -V 2>/dev/null; cat "$RP_IMAGES_LIB"; } | sha256sum)
_rp_keys=$(_rp_table | while read -r _n _rest; do
	printf '%s:%s ' "$_n" \
		"$(printf '%s\n' "$_n $_rest" "$_rp_common" | sha256sum | cut -c1-12)"
done)

_rp_base() {
	for _k in $_rp_keys; do
		case $_k in
		"$1":*) echo "$RP_CACHE/$1-${_k#*:}"; return 0 ;;
		esac
	done
	echo "repair-images: no image '$1'" >&2
	return 1
}

# rp_need TOOL...: skip_all unless the images can be made here (root, a
# loop device, the reference, setfattr) and each TOOL is built.
rp_need() {
	need_root
	need_loop
	need_ref
	command -v setfattr > /dev/null ||
		skip_all "setfattr not installed (apt-get install attr)"
	for _t in "$top_builddir/tests/tools/imgsum" "$@"; do
		need_tool "$_t"
	done
}

rp_image() {
	_base=$(_rp_base "$1") || return 1
	cache_once "$_base.ino" "$RP_CACHE/$1.lock" "$_base.log" \
		_rp_build "$1" "$_base" || return 1
	echo "$_base.img"
}

# rp_devargs VAR IMG: VAR = the -l/-r options xfs_repair needs for IMG
# (a cached image or a copy made by rp_copy); rp_dbargs VAR IMG: the
# same for xfs_db.  (Variables, not output: the case loops call them for
# every case, and a $(...) costs a process.)
rp_devargs() {
	_da=
	[ -f "$2.log" ] && _da="-l $2.log "
	[ -f "$2.rt" ] && _da="$_da-r $2.rt "
	eval "$1=\$_da"
}

rp_dbargs() {
	# (the reference xfs_db opens no realtime device)
	_da=
	[ -f "$2.log" ] && _da="-l $2.log "
	eval "$1=\$_da"
}

# rp_sum_all IMG: rp_sum of an image and of its log and realtime devices.
rp_sum_all() {
	if [ -f "$1.log" ] && [ -f "$1.rt" ]; then
		set -- "$1" "$1.log" "$1.rt"
	elif [ -f "$1.log" ]; then
		set -- "$1" "$1.log"
	elif [ -f "$1.rt" ]; then
		set -- "$1" "$1.rt"
	fi
	"$top_builddir/tests/tools/imgsum" "$@"
}

# rp_copy SRC DEST: a private sparse copy of an image and its log and
# realtime devices.
rp_copy() {
	cp --sparse=always "$1" "$2" || return 1
	if [ -f "$1.log" ]; then cp --sparse=always "$1.log" "$2.log" || return 1; fi
	if [ -f "$1.rt" ]; then cp --sparse=always "$1.rt" "$2.rt" || return 1; fi
	return 0
}

# rp_rm IMG: remove a copy and its devices.
rp_rm() {
	rm -f "$1" "$1.log" "$1.rt"
}

rp_ino() {
	_base=$(_rp_base "$1") || return 1
	awk -v p="$2" '$1 == p { print $2; f = 1 } END { exit !f }' "$_base.ino"
}

# rp_sum FILE: a checksum of what a sparse image holds, without reading
# its holes (images of many TiB are mostly holes); it does not depend on
# how the host filesystem happens to allocate the file
# (tests/tools/imgsum.c says how).
rp_sum() {
	"$top_builddir/tests/tools/imgsum" "$1"
}
