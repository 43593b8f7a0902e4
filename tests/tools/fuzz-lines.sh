#!/bin/bash
# fuzz-lines.sh: what the reference says that we do not, over the outputs
# repair-fuzz.sh kept (-k DIR).  For each run kept there (RUN.ref and
# RUN.ours), the distinct lines of the reference's output, less progress,
# host and verifier-address noise, that ours does not print word for word.
# They are grouped by shape (every number made N) and counted by run.
#
#   tests/tools/fuzz-lines.sh [-n TOP] [-r] KEEPDIR
#     -n TOP  how many shapes to list (default 30)
#     -r      list the runs behind each shape (up to 5 each)
#
# Prints "runs with a missing line: R of T", "(run, shape) pairs: P",
# then "RUNS<TAB>SHAPE" lines, most runs first.
set -u
top=30 runs=""
while getopts "n:r" o; do
	case $o in
	n) top=$OPTARG ;;
	r) runs=1 ;;
	*) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] && [ -d "$1" ] || { echo "usage: $0 [-n TOP] [-r] KEEPDIR" >&2; exit 2; }
keep=$1

# the lines no run is judged by: progress and host notices, the
# verifier's addresses, the reference's own thread-spliced lines
noise='^(Phase [0-9]|        - |Cannot get host filesystem geometry|Repair may fail if there is a sector size mismatch|the image and the host filesystem|Metadata (corruption|CRC error) detected at|bp=\(|[0-9a-f]+: Badness in key lookup|No modify flag set|Maximum metadata LSN|$)'

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

total=0
for ref in "$keep"/*.ref; do
	[ -e "$ref" ] || continue
	run=${ref%.ref}
	[ -e "$run.ours" ] || continue
	total=$((total + 1))
	# a progress line can land inside another thread's message
	# (t5015's unsplice): put the message back together first
	awk 'held != "" { $0 = held $0; held = "" }
	     { i = index($0, "        - ") }
	     i > 1 { held = substr($0, 1, i - 1); print substr($0, i); next }
	     { print }
	     END { if (held != "") print held }' "$ref" |
		grep -aEv "$noise" | sort -u > "$tmp/r"
	sort -u "$run.ours" > "$tmp/o"
	comm -23 "$tmp/r" "$tmp/o" |
		sed -E 's/(0x)?[0-9a-f]*[0-9][0-9a-f]*/N/g' | sort -u |
		awk -v run="${run##*/}" '{ print run "\t" $0 }'
done > "$tmp/pairs"

echo "runs with a missing line: $(cut -f1 "$tmp/pairs" | sort -u | wc -l) of $total"
echo "(run, shape) pairs: $(wc -l < "$tmp/pairs")"
cut -f2- "$tmp/pairs" | sort | uniq -c | sort -rn | head -n "$top" |
while read -r n shape; do
	printf '%s\t%s\n' "$n" "$shape"
	[ -z "$runs" ] && continue
	awk -F'\t' -v s="$shape" '$2 == s { print "\t\t" $1 }' "$tmp/pairs" | head -5
done
