#!/bin/sh
# libfs reads every corpus image exactly as the kernel wrote it: walkfs
# finds nothing wrong on any of the 13 geometries, and its listing (paths,
# inodes, modes, sizes, link counts, times, extents, symlink targets,
# devices, attributes) equals the one klist.py took through the mount.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
sanitized_skip "clean images, compared with the reference: the normal pass runs it"
. "$top_srcdir/tests/lib/corpus.sh"
corpus_need
need_tool "$WALKFS"

for n in $(corpus_names); do
	img=$(corpus_image "$n") || { not_ok "$n: corpus image"; continue; }
	"$WALKFS" -q -l "$img" > "$T/$n.list" 2>"$T/$n.err"; rc=$?
	# findings come first, listing lines start with "/"
	grep -v '^/' "$T/$n.list" > "$T/$n.findings"
	if [ $rc -eq 0 ] && [ ! -s "$T/$n.findings" ]; then
		ok "$n: no finding"
	else
		not_ok "$n: no finding (rc $rc)"
		diag "$(head -20 "$T/$n.findings" "$T/$n.err" | cut -c1-300)"
	fi
	grep '^/' "$T/$n.list" > "$T/$n.paths"
	if cmp -s "$(corpus_listing "$n")" "$T/$n.paths"; then
		ok "$n: listing equals the kernel's"
	else
		not_ok "$n: listing equals the kernel's"
		diag "$(diff "$(corpus_listing "$n")" "$T/$n.paths" | head -20 | cut -c1-300)"
	fi
done
done_testing
