#!/bin/sh
# Every image of the test corpus (reference-made in 13 geometries and
# populated through the kernel with every kind of object) passes every AG
# header, AG btree and whole-AG check, and the trees the checks walked
# include some taller than one level (so the node checks ran).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
sanitized_skip "clean images, compared with the reference: the normal pass runs it"
. "$top_srcdir/tests/lib/corpus.sh"
. "$top_srcdir/tests/lib/ag-images.sh"

corpus_need
AGTOOL="$top_builddir/tests/tools/agtool"
need_tool "$AGTOOL"

corpus_names > "$T/names"
plan $(($(wc -l < "$T/names") + 1))

tall=0
while read -r n; do
	if ! img=$(corpus_image "$n"); then
		not_ok "$n: corpus image"
		continue
	fi
	"$AGTOOL" check "$img" > "$T/ag.out" 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then
		ok "$n: agtool check finds nothing"
	elif [ $rc -eq 2 ] && ag_codes "$T/ag.out" | grep -q '^SB_' &&
	     ! ag_codes "$T/ag.out" | grep -qv '^SB_'; then
		skip "$n: agtool check finds nothing" \
			"superblock refused: $(ag_codes "$T/ag.out" | tr '\n' ' ')"
		continue
	else
		not_ok "$n: agtool check finds nothing (exit $rc)"
		diag "$(head -5 "$T/ag.out")"
	fi
	"$AGTOOL" summary "$img" > "$T/sum.out" 2>/dev/null
	t=$(awk '{ for (i = 13; i <= NF; i += 2) if ($i > 1) n++ } END { print n + 0 }' \
		"$T/sum.out")
	tall=$((tall + t))
done < "$T/names"
[ $tall -gt 0 ] && ok "trees taller than one level were checked ($tall)" ||
	not_ok "trees taller than one level were checked"
done_testing
