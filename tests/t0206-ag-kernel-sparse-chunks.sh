#!/bin/sh
# Sparse inode chunks that the Linux kernel allocated, not synthetic ones,
# read as the kernel reads them.  In three geometries (4 KiB blocks with
# 512-byte inodes, 1 KiB blocks, 2 KiB inodes; tests/lib/sparse-images.sh)
# free space is cut into holes smaller than an aligned chunk and inodes
# are made until the kernel falls back to sparse chunks.  For each image:
#   - the reference xfs_db shows inobt records with a holemask, of both
#     halves, full and with free inodes, and the latter are in the finobt
#     (the test fails if the kernel made none);
#   - walkfs reports no finding, and its listing is the kernel's, byte for
#     byte;
#   - the inodes agtool finds allocated in the inobts are exactly the
#     listing's and the realtime metadata inodes: none missing from a
#     sparse chunk, none taken from its holes;
#   - our xfs_repair -n exits 0, as the reference does, and writes nothing;
#   - our xfs_db check prints what the reference's prints, exits as it
#     does, and traces every block and inode (check -v) as it does.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
sanitized_skip "clean images, compared with the reference: the normal pass runs it"
. "$top_srcdir/tests/lib/sparse-images.sh"

sparse_need
AGTOOL="$top_builddir/tests/tools/agtool"
need_tool "$AGTOOL"
need_tool "$WALKFS"
need_tool "$XK_REPAIR"
need_tool "$XK_DB"

sparse_names > "$T/names"
plan $(($(wc -l < "$T/names") * 9))

# sane FILE: nothing, or why not if FILE holds a sanitizer's report
sane() {
	! sanitizer_report "$1" || echo ", a sanitizer report"
}

while read -r n; do
	if ! img=$(sparse_image "$n") || ! list=$(sparse_listing "$n"); then
		not_ok "$n: building the image"
		for what in finobt walkfs listing inodes repair ref-repair \
			check check-v; do
			skip "$n: $what" "the image was not built"
		done
		continue
	fi

	# the records, as the reference xfs_db prints them
	sparse_recs "$img" > "$T/ino.recs"
	sparse_recs "$img" free > "$T/fino.recs"
	kinds=$(awk '$3 != "0" { print $3 ($5 > 0 ? "/free" : "/full") }' \
		"$T/ino.recs" | sort | uniq -c | awk '{ printf " %s x%s", $2, $1 }')
	nsp=$(awk '$3 != "0"' "$T/ino.recs" | wc -l)
	missing=""
	for k in 0xff/full 0xff/free 0xff00/full 0xff00/free; do
		case "$kinds " in *" $k x"*) ;; *) missing="$missing $k" ;; esac
	done
	if [ "$nsp" -gt 0 ] && [ -z "$missing" ]; then
		ok "$n: the kernel made $nsp sparse chunks:$kinds"
	else
		not_ok "$n: the kernel made sparse chunks of each half, full and not ($nsp:$kinds; none of$missing)"
	fi
	awk '$3 != "0" && $5 > 0 { print $1, $2, $3, $4, $5, $6 }' \
		"$T/ino.recs" > "$T/want.fino"
	awk '$3 != "0" { print $1, $2, $3, $4, $5, $6 }' \
		"$T/fino.recs" > "$T/got.fino"
	if [ -s "$T/want.fino" ] && cmp -s "$T/want.fino" "$T/got.fino"; then
		ok "$n: the finobt holds the $(wc -l < "$T/got.fino") sparse records with free inodes"
	else
		not_ok "$n: the finobt holds the sparse records with free inodes"
		diag "$(diff "$T/want.fino" "$T/got.fino" | head -5)"
	fi

	"$WALKFS" -q "$img" > "$T/walk.out" 2>&1
	rc=$?
	if [ $rc -eq 0 ] && [ ! -s "$T/walk.out" ]; then
		ok "$n: walkfs reports no finding"
	else
		not_ok "$n: walkfs reports no finding (exit $rc)"
		diag "$(head -5 "$T/walk.out")"
	fi
	"$WALKFS" -q -l "$img" > "$T/walk.list" 2> "$T/walk.err"
	rc=$?
	if [ $rc -eq 0 ] && cmp -s "$list" "$T/walk.list"; then
		ok "$n: walkfs -l prints the kernel's listing ($(wc -l < "$list") paths)"
	else
		not_ok "$n: walkfs -l prints the kernel's listing (exit $rc)"
		diag "$(diff "$list" "$T/walk.list" | cut -c1-160 | head -6)" \
			"$(head -3 "$T/walk.err")"
	fi

	# allocated inodes: the listing's, and those of the realtime
	# bitmap and summary, which no path reaches
	"$AGTOOL" inodes "$img" > "$T/ag.raw" 2> "$T/ag.err"
	rc=$?
	sort -n "$T/ag.raw" > "$T/ag.ino"
	{
		sed -n 's/^[^ ]* ino=\([0-9]*\) .*/\1/p' "$list"
		for f in rbmino rsumino uquotino gquotino pquotino; do
			v=$(sparse_sb "$img" $f)
			case $v in ''|null|0) ;; *) echo "$v" ;; esac
		done
	} | sort -n -u > "$T/k.ino"
	if [ $rc -eq 0 ] && cmp -s "$T/ag.ino" "$T/k.ino"; then
		ok "$n: the inobt's $(wc -l < "$T/ag.ino") allocated inodes are the kernel's"
	else
		not_ok "$n: the inobt's allocated inodes are the kernel's (exit $rc)"
		diag "$(diff "$T/ag.ino" "$T/k.ino" | head -5)" "$(head -3 "$T/ag.err")"
	fi

	cp --sparse=always "$img" "$T/r.img"
	before=$(sum_img "$T/r.img")
	"$XK_REPAIR" -n "$T/r.img" > "$T/repair.out" 2>&1
	rc=$?
	why=$(sane "$T/repair.out")
	if [ $rc -eq 0 ] && [ "$(sum_img "$T/r.img")" = "$before" ] &&
	   [ -z "$why" ]; then
		ok "$n: our xfs_repair -n exits 0 and writes nothing"
	else
		not_ok "$n: our xfs_repair -n exits 0 and writes nothing (exit $rc$why)"
		diag "$(grep -v '^  *- ' "$T/repair.out" | head -8)"
	fi
	"$REF_REPAIR" -n "$T/r.img" > "$T/ref-repair.out" 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then
		ok "$n: the reference xfs_repair -n exits 0 too"
	else
		not_ok "$n: the reference xfs_repair -n exits 0 too (exit $rc)"
		diag "$(tail -5 "$T/ref-repair.out")"
	fi
	rm -f "$T/r.img"

	"$REF_DB" -r -c check "$img" > "$T/ref.out" 2> /dev/null
	rc_ref=$?
	"$XK_DB" -r -c check "$img" > "$T/ours.out" 2> "$T/ours.err"
	rc_ours=$?
	why=$(sane "$T/ours.err")
	if [ $rc_ours -eq $rc_ref ] && cmp -s "$T/ref.out" "$T/ours.out" &&
	   [ -z "$why" ]; then
		ok "$n: xfs_db check prints what the reference prints (exit $rc_ours, $(wc -l < "$T/ours.out") lines)"
	else
		not_ok "$n: xfs_db check prints what the reference prints (exit $rc_ours, reference $rc_ref$why)"
		diag "$(diff "$T/ref.out" "$T/ours.out" | head -6)" "$(head -3 "$T/ours.err")"
	fi
	"$REF_DB" -r -c "check -v" "$img" > "$T/ref.v" 2> /dev/null
	"$XK_DB" -r -c "check -v" "$img" > "$T/ours.v" 2> "$T/ours.err"
	why=$(sane "$T/ours.err")
	if cmp -s "$T/ref.v" "$T/ours.v" && [ -z "$why" ]; then
		ok "$n: xfs_db check -v traces as the reference ($(wc -l < "$T/ours.v") lines)"
	else
		not_ok "$n: xfs_db check -v traces as the reference$why"
		diag "$(diff "$T/ref.v" "$T/ours.v" | head -6)"
	fi
	rm -f "$T/ref.v" "$T/ours.v"
done < "$T/names"
done_testing
