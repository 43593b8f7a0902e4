#!/bin/sh
# mkfs.xfs: ours against the reference, in one run, on a 15 TiB and a
# 2 GiB sparse image file (same options: the reference gets -m rmapbt=1,
# our default).  Prints wall time, peak RSS and the disk space the image
# takes afterwards for each, and the ratios ours/reference (target: time
# ratio <= 1).  Each figure is the best of $RUNS runs (default 5).
#   usage: bench/mkfs.sh [BUILDDIR]
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
ours=$build/mkfs/mkfs.xfs
ref=/usr/sbin/mkfs.xfs
runs=${RUNS:-5}
dir=$(mktemp -d "${TMPDIR:-/tmp}/mkfs-bench.XXXXXX")
trap 'rm -rf "$dir"' EXIT
[ -x "$ours" ] || { echo "no $ours (build first)" >&2; exit 1; }
[ -x "$ref" ] || { echo "no reference $ref (apt-get install xfsprogs)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 1; }

# one BIN SIZE EXTRA...: best wall time (ms, from the clock around the
# command: /usr/bin/time's 10 ms resolution is too coarse) and max RSS
# (KiB) of $runs runs
one() {
	bin=$1 size=$2; shift 2
	best_t="" best_m=""
	i=0
	while [ $i -lt "$runs" ]; do
		rm -f "$dir/img"
		sync
		t0=$(date +%s%N)
		/usr/bin/time -f "%M" -o "$dir/t" "$bin" -q -f "$@" \
			-d file,name="$dir/img",size="$size" > /dev/null 2>&1 || {
			echo "FAILED: $bin $size" >&2; exit 1; }
		t1=$(date +%s%N)
		t=$(echo "scale=2; ($t1 - $t0) / 1000000" | bc)
		read -r m < "$dir/t"
		if [ -z "$best_t" ] || [ "$(echo "$t < $best_t" | bc)" = 1 ]; then
			best_t=$t
		fi
		if [ -z "$best_m" ] || [ "$m" -lt "$best_m" ]; then best_m=$m; fi
		i=$((i + 1))
	done
	du_k=$(du -k "$dir/img" | cut -f1)
	echo "$best_t $best_m $du_k"
}

ratio() {
	if [ "$(echo "$2 == 0" | bc)" = 1 ]; then echo "n/a"; else
		echo "scale=3; $1 / $2" | bc; fi
}

printf '%-8s %-10s %10s %12s %12s\n' size tool "time(ms)" "peakRSS(KiB)" "disk(KiB)"
for size in 15t 2g; do
	set -- $(one "$ref" $size -m rmapbt=1); rt=$1 rm=$2 rd=$3
	set -- $(one "$ours" $size); ot=$1 om=$2 od=$3
	printf '%-8s %-10s %10s %12s %12s\n' $size reference "$rt" "$rm" "$rd"
	printf '%-8s %-10s %10s %12s %12s\n' $size xfskit "$ot" "$om" "$od"
	printf '%-8s %-10s %10s %12s %12s\n' $size ratio "$(ratio "$ot" "$rt")" \
		"$(ratio "$om" "$rm")" "$(ratio "$od" "$rd")"
done
