#!/bin/sh
# xfs_db prints byte for byte what the reference xfs_db 6.1 prints: every
# command sequence of tests/db/seq-*.txt runs in both, read-only, on the
# same reference-made, kernel-populated images (tests/db/image.sh), and
# their standard outputs must be identical.
. "$top_srcdir/tests/lib/test-lib.sh"
sanitized_skip "clean images, compared with the reference: the normal pass runs it"
need_ref
need_loop
need_tool "$XK_DB"

# Which sequence files our build can run: the directory walkers need
# libfs's directory reader (seq-dirs.txt).
full=$(sh "$top_srcdir/tests/db/image.sh" full) || skip_all "cannot make image"
files="$top_srcdir/tests/db/seq-core.txt $top_srcdir/tests/db/seq-files.txt"
if ! "$XK_DB" -r -c "help path" "$full" | grep -q "not found"; then
	files="$files $top_srcdir/tests/db/seq-dirs.txt"
fi

. "$top_srcdir/tests/lib/db-paths.sh"

run() {	# run TOOL "seq" : split on " ;; " into -c arguments
	tool=$1
	seq=$2
	set --
	rest=$seq
	while :; do
		cmd=${rest%% ;; *}
		set -- "$@" -c "$cmd"
		[ "$cmd" = "$rest" ] && break
		rest=${rest#* ;; }
	done
	"$tool" -r "$@" "$img" 2>/dev/null
}

for f in $files; do
	img=
	while IFS= read -r line; do
		case $line in
		'#'*|'') continue ;;
		'['*']')
			name=${line#[}
			name=${name%]}
			img=$(sh "$top_srcdir/tests/db/image.sh" "$name") ||
				{ not_ok "image $name"; img=; }
			continue ;;
		esac
		[ -n "$img" ] || continue
		seq=$(expand "$line")
		run "$REF_DB" "$seq" > "$T/ref.out"
		run "$XK_DB" "$seq" > "$T/our.out"
		if cmp -s "$T/ref.out" "$T/our.out"; then
			ok "[$name] $line"
		else
			not_ok "[$name] $line"
			diff "$T/ref.out" "$T/our.out" | head -20 | cut -c1-160 | sed "s/^/# /"
		fi
	done < "$f"
done
done_testing
