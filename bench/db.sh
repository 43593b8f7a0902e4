#!/bin/sh
# xfs_db: ours against the reference, in one run, on a filesystem with a
# million inodes (made by the reference mkfs.xfs, populated through a
# kernel loop mount, cached under BUILDDIR/bench-cache).  For freesp,
# frag, check and ncheck it prints wall time and peak RSS of each tool
# and the ratios ours/reference.  Each figure is the best of $RUNS runs
# (default 3).  Needs root (loop mount), python3 and /usr/bin/time.
#   usage: bench/db.sh [BUILDDIR]
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
ours=$build/db/xfs_db
ref=/usr/sbin/xfs_db
runs=${RUNS:-3}
ninodes=${NINODES:-1000000}
[ -x "$ours" ] || { echo "no $ours (build first)" >&2; exit 1; }
[ -x "$ref" ] || { echo "no reference $ref (apt-get install xfsprogs)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 1; }

cache=$build/bench-cache
mkdir -p "$cache"
img=$cache/db-$ninodes.img
if [ ! -f "$img" ]; then
	mnt=$(mktemp -d /tmp/xfskit-dbbench.XXXXXX)
	truncate -s 8g "$img.tmp"
	/usr/sbin/mkfs.xfs -q -f -m rmapbt=1 "$img.tmp" || exit 1
	mount -o loop "$img.tmp" "$mnt" || exit 1
	# a million files in 1000 directories, some with data, some
	# with a few extents
	python3 - "$mnt" "$ninodes" <<'PY'
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
per = 1000
for d in range((n + per - 1) // per):
    dp = os.path.join(root, "d%04d" % d)
    os.mkdir(dp)
    for i in range(min(per, n - d * per)):
        p = os.path.join(dp, "file_with_a_name_%06d" % i)
        fd = os.open(p, os.O_CREAT | os.O_WRONLY, 0o644)
        if i % 100 == 0:
            for k in range(4):
                os.pwrite(fd, b"x" * 4096, k * 8192)
        os.close(fd)
PY
	umount "$mnt"
	rmdir "$mnt"
	mv "$img.tmp" "$img"
fi

# one TOOL LABEL CMD...: best wall time (ms) and peak RSS (KiB) of $runs
# runs; the output is left in $cache/out.LABEL
one() {
	bin=$1
	label=$2
	shift 2
	best_t="" best_m=""
	i=0
	while [ $i -lt "$runs" ]; do
		t0=$(date +%s%N)
		/usr/bin/time -f "%M" -o "$cache/t" "$bin" -r "$@" "$img" \
			> "$cache/out.$label" 2>/dev/null
		t1=$(date +%s%N)
		t=$(( (t1 - t0) / 1000000 ))
		read -r m < "$cache/t"
		if [ -z "$best_t" ] || [ "$t" -lt "$best_t" ]; then best_t=$t; fi
		if [ -z "$best_m" ] || [ "$m" -lt "$best_m" ]; then best_m=$m; fi
		i=$((i + 1))
	done
	echo "$best_t $best_m"
}

ratio() {
	if [ "$2" = 0 ]; then echo "n/a"; else
		echo "scale=3; $1 / $2" | bc; fi
}

printf '%-8s %-10s %10s %13s %s\n' cmd tool "time(ms)" "peakRSS(KiB)" "same output"
for cmd in freesp frag check ncheck; do
	case $cmd in
	freesp)	set -- -c "freesp -s" ;;
	frag)	set -- -c frag ;;
	check)	set -- -c check ;;
	ncheck)	set -- -c "blockget -n" -c ncheck ;;
	esac
	r=$(one "$ref" ref "$@")
	o=$(one "$ours" ours "$@")
	same=no
	cmp -s "$cache/out.ours" "$cache/out.ref" && same=yes
	rt=${r% *} rm=${r#* } ot=${o% *} om=${o#* }
	printf '%-8s %-10s %10s %13s\n' $cmd reference "$rt" "$rm"
	printf '%-8s %-10s %10s %13s %s\n' $cmd xfskit "$ot" "$om" "$same"
	printf '%-8s %-10s %10s %13s\n' $cmd ratio "$(ratio "$ot" "$rt")" \
		"$(ratio "$om" "$rm")"
done
