#!/bin/sh
# xfs_repair's command line behaves as the reference's: the same usage
# text and exit code for a missing device, -n -e and unknown or malformed
# options; -V names the version; on a fresh reference-made filesystem
# "-n" prints the same phase banners and per-AG lines on stderr and the
# same line on stdout, and exits 0.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"

need_ref
need_tool "$XK_REPAIR"

plan 15

# the reference prints host geometry warnings for image files; they are
# not about the filesystem
filter() {
	grep -v -e 'Cannot get host filesystem geometry' \
		-e 'Repair may fail if there is a sector size mismatch' \
		-e 'the image and the host filesystem'
}

"$XK_REPAIR" > "$T/ours.out" 2> "$T/ours.err"; rc_ours=$?
"$REF_REPAIR" > "$T/ref.out" 2> "$T/ref.err"; rc_ref=$?
[ $rc_ours -eq $rc_ref ] && ok "no device: exit $rc_ref like the reference" ||
	not_ok "no device: exit $rc_ours, reference $rc_ref"
check "no device: same usage text" cmp -s "$T/ours.err" "$T/ref.err"

"$XK_REPAIR" -V > "$T/v" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q '^xfs_repair version [0-9]' "$T/v" &&
	ok "-V prints the version, exit 0" || not_ok "-V (rc $rc): $(cat "$T/v")"

# getopt names the program by its path: compare from its base name on
first_line() {
	head -n 1 "$1" | sed 's#^[^ ]*/xfs_repair:#xfs_repair:#'
}

truncate -s 1G "$T/fs.img"
"$REF_MKFS" -q -f "$T/fs.img" || not_ok "reference mkfs"

# option errors: same first line, same exit code
for args in "-n -e" "-o nosuchopt" "-o ag_stride" "-o assume_xfs=1" \
	    "-o force_geometry,force_geometry" "-c bigtime=0" "-z"; do
	# shellcheck disable=SC2086
	"$XK_REPAIR" $args "$T/fs.img" > /dev/null 2> "$T/ours.err"; rc_ours=$?
	# shellcheck disable=SC2086
	"$REF_REPAIR" $args "$T/fs.img" > /dev/null 2> "$T/ref.err"; rc_ref=$?
	if [ $rc_ours -eq $rc_ref ] &&
	   [ "$(first_line "$T/ours.err")" = "$(first_line "$T/ref.err")" ]; then
		ok "$args: exit $rc_ref and message like the reference"
	else
		not_ok "$args: exit $rc_ours (reference $rc_ref)"
		diag "ours: $(head -n 1 "$T/ours.err")" "ref:  $(head -n 1 "$T/ref.err")"
	fi
done

sum0=$(sum_img "$T/fs.img")
"$XK_REPAIR" -n "$T/fs.img" > "$T/ours.out" 2> "$T/ours.err"; rc=$?
"$REF_REPAIR" -n "$T/fs.img" > "$T/ref.out" 2> "$T/ref.err.raw"
filter < "$T/ref.err.raw" > "$T/ref.err"
[ $rc -eq 0 ] && ok "-n on a clean filesystem exits 0" || not_ok "-n on a clean filesystem exits $rc"
check "-n: stdout as the reference's" cmp -s "$T/ours.out" "$T/ref.out"
# AGs may finish in any order in the reference's phase 4
if cmp -s "$T/ours.err" "$T/ref.err" ||
   [ "$(sort "$T/ours.err")" = "$(sort "$T/ref.err")" ]; then
	ok "-n: phase banners and per-AG lines as the reference's"
else
	not_ok "-n: phase banners and per-AG lines as the reference's"
	diag "$(diff "$T/ref.err" "$T/ours.err")"
fi
[ "$(sum_img "$T/fs.img")" = "$sum0" ] && ok "-n wrote nothing" || not_ok "-n changed the image"

"$XK_REPAIR" -n "$T/does-not-exist.img" > /dev/null 2>&1; rc=$?
[ $rc -eq 1 ] && ok "missing device: exit 1" || not_ok "missing device: exit $rc"
done_testing
