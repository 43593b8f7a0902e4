#!/bin/sh
# xfs_repair -n: ours against the reference, in one run, on a populated
# filesystem of over a million inodes (1000 directories of 1000 small
# files, many of them with data) and large fragmented files (8 files of
# 40,000 one-block extents each).  Prints wall time and peak RSS of each
# tool (best of $RUNS runs, default 3, page cache warm for both) and the
# ratios ours/reference.  Targets: time ratio <= 0.5, memory ratio <= 1.
#
# The image is made once, through a kernel loop mount, and cached in
# $BENCH_CACHE (default BUILDDIR/bench-cache); making it takes a few
# minutes.  Needs root.
#   usage: bench/repair.sh [BUILDDIR]
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
ours=$build/repair/xfs_repair
ref=/usr/sbin/xfs_repair
runs=${RUNS:-3}
cache=${BENCH_CACHE:-$build/bench-cache}
img=$cache/repair-1m.img
[ -x "$ours" ] || { echo "no $ours (build first)" >&2; exit 1; }
[ -x "$ref" ] || { echo "no reference $ref (apt-get install xfsprogs)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 1; }

populate() {
	python3 - "$1" <<'EOF'
import os, sys
from multiprocessing import Pool

root = sys.argv[1]

def tree(d):
    p = os.path.join(root, "d%04d" % d)
    os.mkdir(p)
    for f in range(1000):
        fd = os.open(os.path.join(p, "file%04d" % f),
                     os.O_CREAT | os.O_WRONLY, 0o644)
        if f % 4 == 0:
            os.write(fd, b"x" * (512 + 64 * (f % 32)))
        os.close(fd)
    return d

def fragmented(n):
    # every other block: one extent each
    fd = os.open(os.path.join(root, "frag%d" % n),
                 os.O_CREAT | os.O_WRONLY, 0o644)
    blk = b"y" * 4096
    for i in range(40000):
        os.pwrite(fd, blk, i * 2 * 4096)
    os.close(fd)
    return n

with Pool(8) as pool:
    pool.map(fragmented, range(8))
    pool.map(tree, range(1000), chunksize=10)
EOF
}

if [ ! -f "$img.done" ]; then
	[ "$(id -u)" -eq 0 ] || { echo "making the image needs root" >&2; exit 1; }
	mkdir -p "$cache" || exit 1
	rm -f "$img"
	truncate -s 16g "$img"
	/usr/sbin/mkfs.xfs -q -f -m rmapbt=1 -d agcount=8 "$img" || exit 1
	mnt=$cache/mnt
	mkdir -p "$mnt"
	mount -o loop "$img" "$mnt" || exit 1
	echo "populating $img (once; a few minutes)..." >&2
	if ! populate "$mnt"; then
		umount "$mnt"
		exit 1
	fi
	umount "$mnt" || exit 1
	rmdir "$mnt"
	touch "$img.done"
fi

# one BIN: best wall time (s) and smallest peak RSS (KiB) of $runs runs
one() {
	best_t="" best_m=""
	i=0
	while [ $i -lt "$runs" ]; do
		t0=$(date +%s%N)
		/usr/bin/time -f "%M" -o "$cache/t" "$1" -n "$img" > /dev/null 2>&1
		rc=$?
		t1=$(date +%s%N)
		[ $rc -eq 0 ] || { echo "$1 -n exit $rc on the bench image" >&2; exit 1; }
		t=$(echo "scale=3; ($t1 - $t0) / 1000000000" | bc)
		m=$(tail -n 1 "$cache/t")
		if [ -z "$best_t" ] || [ "$(echo "$t < $best_t" | bc)" = 1 ]; then
			best_t=$t
		fi
		if [ -z "$best_m" ] || [ "$m" -lt "$best_m" ]; then best_m=$m; fi
		i=$((i + 1))
	done
	echo "$best_t $best_m"
}

inodes=$(/usr/sbin/xfs_db -r -c "sb 0" -c "p icount" "$img" | awk '{ print $3 }')
cat "$img" > /dev/null	# both tools start with the image in the page cache
set -- $(one "$ref"); rt=$1 rm=$2
set -- $(one "$ours"); ot=$1 om=$2
printf 'xfs_repair -n, %s inodes, %s CPUs\n' "$inodes" "$(nproc)"
printf '%-10s %10s %14s\n' tool "time(s)" "peakRSS(KiB)"
printf '%-10s %10s %14s\n' reference "$rt" "$rm"
printf '%-10s %10s %14s\n' xfskit "$ot" "$om"
printf '%-10s %10s %14s\n' ratio "$(echo "scale=3; $ot / $rt" | bc)" \
	"$(echo "scale=3; $om / $rm" | bc)"
