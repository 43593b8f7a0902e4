#!/bin/sh
# The corpus cache does what tests rely on: requests made at the same time
# share one build, a second request reuses the image without touching it,
# a change to the population script builds a new image under a new key and
# removes the stale one, an unknown option set is refused, and
# corpus_copy gives a private sparse copy identical to the cached image.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
# A private cache and population script, so the real cache is left alone.
CORPUS_CACHE="$T/cache"
CORPUS_POPULATE="$T/populate.sh"
cp "$top_srcdir/tests/lib/corpus-populate.sh" "$CORPUS_POPULATE"
. "$top_srcdir/tests/lib/corpus.sh"
corpus_need
sanitized_skip "this test of the corpus runs only the reference, the kernel and python"

n=agcount1
corpus_image $n > "$T/a" 2> "$T/a.err" & pa=$!
corpus_image $n > "$T/b" 2> "$T/b.err" & pb=$!
wait $pa; ra=$?
wait $pb; rb=$?
img=$(cat "$T/a")
[ $ra -eq 0 ] && [ $rb -eq 0 ] && [ -f "$img" ] && cmp -s "$T/a" "$T/b" &&
	ok "two requests at once get the same image" ||
	{ not_ok "two requests at once get the same image"; diag "$(cat "$T/a.err" "$T/b.err")"; }
builds=$(grep -c '^built in' "${img%.img}.log")
[ "$builds" = 1 ] && ok "... from a single build" || not_ok "... from a single build ($builds)"

before=$(stat -c '%i %Y' "$img" "${img%.img}.list")
sleep 1
again=$(corpus_image $n)
[ "$again" = "$img" ] && [ "$(stat -c '%i %Y' "$img" "${img%.img}.list")" = "$before" ] &&
	ok "a second request reuses the image untouched" ||
	not_ok "a second request reuses the image untouched"

echo "# a change" >> "$CORPUS_POPULATE"
new=$(corpus_image $n)
[ -n "$new" ] && [ "$new" != "$img" ] && [ -f "$new" ] && [ -f "${new%.img}.list" ] &&
	ok "a changed population script builds a new image" ||
	not_ok "a changed population script builds a new image"
[ ! -e "$img" ] && [ ! -e "${img%.img}.list" ] &&
	ok "... and removes the stale one" || not_ok "... and removes the stale one"

out=$(corpus_image no-such-set 2>&1); rc=$?
[ $rc -ne 0 ] && echo "$out" | grep -q "no option set" &&
	ok "an unknown option set is refused" || not_ok "an unknown option set is refused"

corpus_copy $n "$T/copy.img" && cmp -s "$new" "$T/copy.img" &&
	[ "$(stat -c %b "$T/copy.img")" -le $(($(stat -c %b "$new") + 64)) ] &&
	ok "corpus_copy: identical and sparse" || not_ok "corpus_copy: identical and sparse"

[ "$(corpus_names | grep -c .)" -ge 13 ] && corpus_names | grep -qx default &&
	ok "corpus_names lists the option sets" || not_ok "corpus_names lists the option sets"
[ "$(corpus_opts nobigtime)" = "-m rmapbt=1,bigtime=0" ] &&
	ok "corpus_opts gives a set's mkfs options" || not_ok "corpus_opts gives a set's mkfs options"
[ "$(corpus_geom $n dirblksize)" = 4096 ] && [ "$(corpus_geom $n bigtime)" = 1 ] &&
	ok "corpus_geom reads the image's geometry" || not_ok "corpus_geom reads the image's geometry"
root=$("$REF_DB" -r -c "sb 0" -c "p rootino" "$new" | awk '{ print $3 }')
[ "$(corpus_ino $n /)" = "$root" ] && ! corpus_ino $n /no-such-path > /dev/null &&
	ok "corpus_ino finds paths and fails on missing ones" ||
	not_ok "corpus_ino finds paths and fails on missing ones"
done_testing
