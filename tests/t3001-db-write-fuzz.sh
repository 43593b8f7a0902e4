#!/bin/sh
# Expert mode changes the disk exactly as the reference does: every
# sequence of tests/db/seq-write.txt runs with -x, ours on one copy of the
# image and the reference on another; the printed output and the images
# afterwards are identical, and the reference reads our result back with
# the same CRC verdict.  Without -x, write is refused and nothing changes.
. "$top_srcdir/tests/lib/test-lib.sh"
need_ref
need_loop
need_tool "$XK_DB"
IMGSUM="$top_builddir/tests/tools/imgsum"
need_tool "$IMGSUM"

. "$top_srcdir/tests/lib/db-paths.sh"

run() {	# run TOOL IMAGE "seq" [options]
	tool=$1
	target=$2
	seq=$3
	shift 3
	opts=$*
	set --
	rest=$seq
	while :; do
		cmd=${rest%% ;; *}
		set -- "$@" -c "$cmd"
		[ "$cmd" = "$rest" ] && break
		rest=${rest#* ;; }
	done
	# shellcheck disable=SC2086
	"$tool" $opts "$@" "$target" 2>/dev/null
}

while IFS= read -r line; do
	case $line in
	'#'*|'') continue ;;
	'['*']')
		name=${line#[}
		name=${name%]}
		img=$(sh "$top_srcdir/tests/db/image.sh" "$name") || img=
		continue ;;
	esac
	[ -n "$img" ] || continue
	seq=$(expand "$line")
	cp --sparse=always "$img" "$T/ours.img"
	cp --sparse=always "$img" "$T/ref.img"
	run "$XK_DB" "$T/ours.img" "$seq" -x > "$T/our.out"
	run "$REF_DB" "$T/ref.img" "$seq" -x > "$T/ref.out"
	# the images compared by what they hold (imgsum), not by cmp: cmp
	# reads the holes of both 600 MiB images, a second or two a case
	if cmp -s "$T/ref.out" "$T/our.out" &&
	   [ "$("$IMGSUM" "$T/ref.img")" = "$("$IMGSUM" "$T/ours.img")" ]; then
		ok "[$name] $line"
	else
		not_ok "[$name] $line"
		diff "$T/ref.out" "$T/our.out" | head -10 | cut -c1-160 | sed "s/^/# /"
		cmp "$T/ref.img" "$T/ours.img" | sed "s/^/# /"
	fi
done < "$top_srcdir/tests/db/seq-write.txt"

# attr_set / attr_remove: the same inode afterwards (but for the ctime,
# which is the time of the change, and so the CRC).
seq="attr_set -v 5 bar ;; attr_set -r -v 3 rootattr ;; attr_set -C -v 2 bar ;; attr_set -R -v 7 bar ;; attr_set -s -v 1 sec ;; attr_remove -r rootattr ;; attr_remove bar ;; p a"
img=$(sh "$top_srcdir/tests/db/image.sh" full)
for f in /sf/a /attrs/sf; do
	ino=$(ino_of "$img" $f)
	cp --sparse=always "$img" "$T/ours.img"
	cp --sparse=always "$img" "$T/ref.img"
	run "$XK_DB" "$T/ours.img" "inode $ino ;; $seq" -x > "$T/our.out"
	run "$REF_DB" "$T/ref.img" "inode $ino ;; $seq" -x > "$T/ref.out"
	for w in ours ref; do
		"$REF_DB" -r -c "inode $ino" -c p "$T/$w.img" 2>/dev/null |
			grep -v "core.ctime\|v3.crc" > "$T/$w.inode"
	done
	if cmp -s "$T/ref.out" "$T/our.out" && cmp -s "$T/ref.inode" "$T/ours.inode"; then
		ok "attr_set/attr_remove on $f as the reference"
	else
		not_ok "attr_set/attr_remove on $f as the reference"
		diff "$T/ref.out" "$T/our.out" | head -10 | sed "s/^/# /"
		diff "$T/ref.inode" "$T/ours.inode" | head -10 | sed "s/^/# /"
	fi
	out=$("$REF_DB" -r -c "inode $ino" -c "p v3.crc" "$T/ours.img" 2>/dev/null)
	case $out in
	*"(correct)"*) ok "attr_set/attr_remove on $f leave a good CRC" ;;
	*) not_ok "attr_set/attr_remove on $f leave a good CRC" ;;
	esac
done

# The reference reads back what we wrote, and its CRC verdict follows -c.
img=$(sh "$top_srcdir/tests/db/image.sh" full)
cp --sparse=always "$img" "$T/w.img"
ino=$(ino_of "$img" /sf/b)
"$XK_DB" -x -c "inode $ino" -c "write core.uid 4242" "$T/w.img" >/dev/null
out=$("$REF_DB" -r -c "inode $ino" -c "p core.uid v3.crc" "$T/w.img" 2>/dev/null)
case $out in
*"core.uid = 4242"*"(correct)"*) ok "reference reads back a write with a good CRC" ;;
*) not_ok "reference reads back a write with a good CRC"; diag "$out" ;;
esac
"$XK_DB" -x -c "inode $ino" -c "write -c core.gid 4343" "$T/w.img" >/dev/null
out=$("$REF_DB" -r -c "inode $ino" -c "p core.gid v3.crc" "$T/w.img" 2>/dev/null)
case $out in
*"core.gid = 4343"*"(bad)"*) ok "write -c leaves a CRC the reference finds bad" ;;
*) not_ok "write -c leaves a CRC the reference finds bad"; diag "$out" ;;
esac
"$XK_DB" -x -c "sb 1" -c "fuzz -d imax_pct ones" "$T/w.img" >/dev/null
out=$("$REF_DB" -r -c "sb 1" -c "p imax_pct crc" "$T/w.img" 2>/dev/null)
case $out in
*"imax_pct = 255"*"(correct)"*) ok "fuzz -d keeps the CRC good" ;;
*) not_ok "fuzz -d keeps the CRC good"; diag "$out" ;;
esac

# Without -x there is no write command, and -x -r writes nothing.
sum=$(cksum < "$T/w.img")
out=$("$XK_DB" -c "inode $ino" -c "write core.uid 1" "$T/w.img")
case $out in
*"command write not found"*) ok "write without -x is refused" ;;
*) not_ok "write without -x is refused"; diag "$out" ;;
esac
out=$("$XK_DB" -x -r -c "inode $ino" -c "write core.uid 1" -c "fuzz core.uid ones" \
	-c "label x" -c "crc -r" "$T/w.img")
case $out in
*"read only mode, writing disabled"*"read only mode, fuzzing disabled"*)
	ok "-x -r refuses write and fuzz" ;;
*) not_ok "-x -r refuses write and fuzz"; diag "$out" ;;
esac
check "the image is unchanged" test "$sum" = "$(cksum < "$T/w.img")"
done_testing
