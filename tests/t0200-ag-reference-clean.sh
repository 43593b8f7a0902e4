#!/bin/sh
# Fresh filesystems made by the reference mkfs.xfs in several geometries
# (1 KiB blocks, rmapbt and reflink, no finobt, no sparse inodes, one AG,
# sixteen AGs, 4 KiB sectors and so a 1015-entry AGFL) pass every AG
# header, AG btree and whole-AG check: agtool check finds nothing, walkfs
# reports no finding of this area, and no finding at all unless another
# area's walker reports one (then that check is skipped, naming it).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
sanitized_skip "clean images, compared with the reference: the normal pass runs it"
. "$top_srcdir/tests/lib/ag-images.sh"

need_ref
AGTOOL="$top_builddir/tests/tools/agtool"
need_tool "$AGTOOL"
need_tool "$WALKFS"

# NAME SIZE QA OPTIONS...  QA=1 runs mkfs with fstests' environment,
# which lets it make one AG.
sets() {
	cat <<-'EOF'
	default   512m 0
	bsize1k   512m 0 -b size=1024
	rmap      512m 0 -m rmapbt=1,reflink=1
	nofinobt  512m 0 -m finobt=0
	nosparse  512m 0 -i sparse=0
	noreflink 512m 0 -m reflink=0,rmapbt=0
	agcount1  512m 1 -d agcount=1
	agcount16 2g   0 -d agcount=16
	sect4k    512m 0 -s size=4096 -m rmapbt=1
	EOF
}

sets > "$T/sets"
plan $(($(wc -l < "$T/sets") * 3))

while read -r name size qa opts; do
	img="$T/$name.img"
	rm -f "$img"
	truncate -s "$size" "$img"
	env=""
	[ "$qa" = 1 ] && env="TEST_DIR=$T TEST_DEV=$img QA_CHECK_FS=1"
	# shellcheck disable=SC2086
	if ! env $env "$REF_MKFS" -q -f $opts "$img" > "$T/mkfs.out" 2>&1; then
		not_ok "$name: reference mkfs $opts"
		diag "$(cat "$T/mkfs.out")"
		skip "$name: walkfs" "no image"
		skip "$name: walkfs, every area" "no image"
		continue
	fi
	"$AGTOOL" check "$img" > "$T/ag.out" 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then
		ok "$name: agtool check finds nothing"
	elif [ $rc -eq 2 ] && ag_codes "$T/ag.out" | grep -q '^SB_' &&
	     ! ag_codes "$T/ag.out" | grep -qv '^SB_'; then
		# the superblock layer refused the image before any AG check
		skip "$name: agtool check finds nothing" \
			"superblock refused: $(ag_codes "$T/ag.out" | tr '\n' ' ')"
	else
		not_ok "$name: agtool check finds nothing (exit $rc)"
		diag "$(head -5 "$T/ag.out")"
	fi
	"$WALKFS" -q "$img" > "$T/walk.out" 2>&1
	rc=$?
	area=$(ag_area_codes "$T/walk.out" | tr '\n' ' ')
	if [ $rc -lt 2 ] && [ -z "$area" ]; then
		ok "$name: walkfs reports no AG or btree problem"
	elif [ $rc -eq 2 ]; then
		skip "$name: walkfs reports no AG or btree problem" \
			"walkfs refused the image: $(ag_codes "$T/walk.out" | tr '\n' ' ')"
	else
		not_ok "$name: walkfs reports no AG or btree problem (exit $rc: $area)"
		diag "$(grep -E '\[(AG|BTREE|ALLOC|INOBT|FINOBT|RMAP|REFC|CNTBT)' "$T/walk.out" | head -5)"
	fi
	if [ $rc -eq 0 ]; then
		ok "$name: walkfs reports no finding"
	elif [ -z "$area" ]; then
		skip "$name: walkfs reports no finding" \
			"other areas report: $(ag_codes "$T/walk.out" | head -5 | tr '\n' ' ')"
	else
		not_ok "$name: walkfs reports no finding (exit $rc)"
	fi
done < "$T/sets"
done_testing
