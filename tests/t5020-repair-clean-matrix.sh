#!/bin/sh
# On every clean filesystem of the test corpus (reference-made in each
# option set, populated through the kernel: tests/lib/corpus.sh) and on
# the populated images of the corruption cases (with an external log, and
# with a realtime section), xfs_repair -n finds nothing, exits 0 like the
# reference, and does not change a byte.  A
# one-AG filesystem is refused without -o force_geometry, as the
# reference refuses it, and is clean with it.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
sanitized_skip "clean images, compared with the reference: the normal pass runs it"
. "$top_srcdir/tests/lib/corpus.sh"
. "$top_srcdir/tests/lib/repair-images.sh"

corpus_need
need_tool "$XK_REPAIR"

names=$(corpus_names)
plan $(( $(echo "$names" | wc -l) + 5 ))

one() {
	_what=$1 _img=$2
	shift 2
	sum0=$(rp_sum_all "$_img")
	XFSKIT_REPAIR_FINDINGS="$T/found" "$XK_REPAIR" -n "$@" "$_img" \
		> "$T/out" 2>&1
	rc=$?
	"$REF_REPAIR" -n "$@" "$_img" > /dev/null 2>&1
	rc_ref=$?
	sum1=$(rp_sum_all "$_img")
	if [ $rc -eq 0 ] && [ $rc_ref -eq 0 ] && [ ! -s "$T/found" ] &&
	   [ "$sum0" = "$sum1" ]; then
		ok "$_what: clean, exit 0"
	else
		not_ok "$_what: exit $rc (reference $rc_ref)"
		diag "$(grep -v '^Phase\|^        - \|No modify' "$T/out" | head -20)"
		[ "$sum0" = "$sum1" ] || diag "the image changed"
	fi
}

for n in $names; do
	img=$(corpus_image "$n") || { not_ok "$n: corpus image"; continue; }
	if [ "$n" = agcount1 ]; then
		"$XK_REPAIR" -n "$img" > "$T/out" 2>&1
		rc=$?
		if [ $rc -eq 1 ] && grep -q "Only one AG detected" "$T/out"; then
			one "$n (force_geometry)" "$img" -o force_geometry
		else
			not_ok "$n: one AG not refused without force_geometry (exit $rc)"
		fi
		continue
	fi
	one "$n" "$img"
done

for n in std plain nosparse extlog rt; do
	img=$(rp_image "$n") || { not_ok "$n: image"; continue; }
	rp_devargs devs "$img"
	# shellcheck disable=SC2086
	one "repair image $n" "$img" $devs
done
done_testing
