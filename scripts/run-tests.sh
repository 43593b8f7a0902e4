#!/bin/sh
# The whole test suite: a normal build and an ASan+UBSan build, each running
# "make check"; ends with the summary line "N passed, N failed, N skipped".
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/setup-deps.sh" --tests || exit 1
jobs=$(nproc)
status=0
# Both builds test against the same images, made by the reference mkfs
# and the kernel (and the same record of the reference's runs): build
# them once, in the first build's directory.
: "${CORPUS_CACHE:=$top/build/tests/corpus-cache}"
: "${RP_CACHE:=$top/build/tests/repair-cache}"
: "${DB_CACHE:=$top/build/tests/db-cache}"
: "${AG_CACHE:=$top/build/tests/ag-cache}"
: "${ALLOC_CACHE:=$top/build/tests/alloc-cache}"
export CORPUS_CACHE RP_CACHE DB_CACHE AG_CACHE ALLOC_CACHE
for variant in build build-asan; do
	args=""
	[ "$variant" = build-asan ] && args="--enable-sanitizers"
	# shellcheck disable=SC2086
	if ! "$top/scripts/build.sh" "$top/$variant" $args; then
		echo "$variant: build failed" >&2
		mkdir -p "$top/$variant"
		printf '# ERROR: 1\n' > "$top/$variant/test-suite.log"
		status=1
		continue
	fi
	echo "== $variant: make check"
	( cd "$top/$variant" && make -s -j"$jobs" check >/dev/null 2>&1 ) || status=1
	grep -h -E '^(FAIL|ERROR|XPASS):' "$top/$variant/test-suite.log" 2>/dev/null | sed "s/^/$variant: /"
done
"$top/scripts/summary.sh" "$top/build/test-suite.log" "$top/build-asan/test-suite.log"
exit $status
