#!/bin/sh
# xfs_repair -n finds what the reference finds in a corpus of damaged
# filesystems (tests/repair-cases.txt): for each case, a populated image
# (tests/lib/repair-images.sh) is damaged with the reference xfs_db -x,
# and then
#   - the reference's exit code is the one the case expects (the case
#     still damages what it says),
#   - our exit code equals the reference's,
#   - our findings include the problem codes the case names, on the
#     damaged object where the case says which, and none of those it
#     names with a "!" (what would be a false alarm: the reference finds
#     nothing of the kind),
#   - our run did not change a byte of the image.
# RP_CASES=regex runs only the matching cases; RP_SHOW=1 prints both
# tools' messages for each case.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
. "$top_srcdir/tests/lib/repair-images.sh"
. "$top_srcdir/tests/lib/repair-cases.sh"

rp_need "$XK_REPAIR"

has_code() {
	_code=${2%%@*}
	case $2 in
	*@*) _text=${2#*@} ;;
	*) _text= ;;
	esac
	grep -F "[$_code]" "$1" | grep -qF -- "$_text"
}

rc_cases | sample_cases > "$T/cases"
n=$(wc -l < "$T/cases")
[ "$n" -gt 0 ] || skip_all "no case matches '$RP_CASES'"
plan "$n"

while IFS='|' read -r name image refrc expect cmds; do
	img="$T/$name.img"
	rc_prepare "$name" "$image" "$cmds" "$img" || continue
	rc_expand expect "$image" "$expect" || { not_ok "$name: bad {ino:} in expect"; rp_rm "$img"; continue; }
	rp_devargs devs "$img"
	sum_before=$(rp_sum_all "$img")
	# shellcheck disable=SC2016
	rc_ref "$sum_before" "$T/ref.out" '"$REF_REPAIR" -n $devs "$img" 2>&1'
	rc_ref=$?
	# shellcheck disable=SC2086
	XFSKIT_REPAIR_FINDINGS="$T/found" "$XK_REPAIR" -n $devs "$img" > "$T/ours.out" 2>&1
	rc_ours=$?
	sum_after=$(rp_sum_all "$img")
	why=""
	[ "$rc_ref" = "$refrc" ] || why="$why reference exit $rc_ref, case says $refrc;"
	[ "$rc_ours" = "$rc_ref" ] || why="$why our exit $rc_ours, reference $rc_ref;"
	[ "$rc_ours" -lt 128 ] || why="$why we crashed (exit $rc_ours);"
	! grep -qE 'runtime error|Sanitizer' "$T/ours.out" ||
		why="$why the sanitizer complained;"
	[ "$sum_before" = "$sum_after" ] || why="$why our -n changed the image;"
	oldifs=$IFS
	IFS=','
	for e in $expect; do
		IFS=$oldifs
		rc_trim e "$e"
		case $e in
		-) ;;
		!*) ! has_code "$T/found" "${e#!}" || why="$why false alarm ${e#!};" ;;
		*) has_code "$T/found" "$e" || why="$why no finding $e;" ;;
		esac
		IFS=','
	done
	IFS=$oldifs
	if [ -z "$why" ]; then
		ok "$name: exit $rc_ours, found $expect"
	else
		not_ok "$name:$why"
		diag "ours:" "$(grep -v '^Phase\|^        - \|No modify' "$T/ours.out" | head -20)"
		diag "reference:" "$(grep -v '^Phase\|^        - \|No modify\|host filesystem\|Repair may\|the image and' "$T/ref.out" | head -20)"
	fi
	if [ -n "$RP_SHOW" ]; then
		diag "== $name: reference" "$(grep -v '^Phase\|^        - \|host filesystem\|Repair may\|the image and' "$T/ref.out")"
		diag "== $name: ours" "$(grep -v '^Phase\|^        - ' "$T/ours.out")" "$(cat "$T/found")"
	fi
	rp_rm "$img"
done < "$T/cases"
done_testing
