#!/bin/sh
# xfs_repair's command line behaves as the reference's: the same usage
# text and exit code for a missing device, -n -e and unknown or malformed
# options; -V names the version; on a fresh reference-made filesystem
# "-n" prints the same phase banners and per-AG lines on stderr and the
# same line on stdout, and exits 0.  The same output and exit code for
# the -c upgrades (already there, announced, impossible, bad values),
# numbers out of range, data, log and realtime devices that cannot be
# opened or are too short (also -l for an internal log, -r without a
# realtime section, an external log without -l), and the -v block cache
# line and -vv cache reports; and -n writes nothing throughout.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
. "$top_srcdir/tests/lib/repair-images.sh"

need_ref
need_tool "$XK_REPAIR"


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

# both_run NAME ARGS...: run ours and the reference with the same
# arguments; $T/NAME.{ours,ref}.{out,err} (host geometry lines filtered)
# and $T/NAME.{ours,ref}.rc.
both_run() {
	_n=$1
	shift
	"$XK_REPAIR" "$@" > "$T/$_n.ours.out" 2> "$T/$_n.ours.err"
	echo $? > "$T/$_n.ours.rc"
	"$REF_REPAIR" "$@" > "$T/$_n.ref.out" 2> "$T/$_n.ref.raw"
	echo $? > "$T/$_n.ref.rc"
	filter < "$T/$_n.ref.raw" > "$T/$_n.ref.err"
}

# same_as_ref NAME DESCRIPTION: same exit code, stdout and stderr (in
# any order when phase 4's AG lines interleave differently).
same_as_ref() {
	if [ "$(cat "$T/$1.ours.rc")" = "$(cat "$T/$1.ref.rc")" ] &&
	   cmp -s "$T/$1.ours.out" "$T/$1.ref.out" &&
	   { cmp -s "$T/$1.ours.err" "$T/$1.ref.err" ||
	     [ "$(sort "$T/$1.ours.err")" = "$(sort "$T/$1.ref.err")" ]; }; then
		ok "$2"
	else
		not_ok "$2"
		diag "exit $(cat "$T/$1.ours.rc"), reference $(cat "$T/$1.ref.rc")" \
		     "$(diff "$T/$1.ref.out" "$T/$1.ours.out")" \
		     "$(diff "$T/$1.ref.err" "$T/$1.ours.err")"
	fi
}

# -c: upgrades a filesystem already has end the run with exit 0, those it
# lacks are announced (on stdout) and the check goes on, the first of
# several that cannot be done decides; bad values are refused.  The
# images: fs.img has bigtime and inobtcount (6.1's defaults), old.img
# neither, nofino.img no free inode btree, smalllog.img a log too small
# for the taller bmap btrees of nrext64.
truncate -s 1G "$T/old.img" "$T/nofino.img"
"$REF_MKFS" -q -f -m bigtime=0,inobtcount=0 "$T/old.img" ||
	not_ok "reference mkfs old.img"
"$REF_MKFS" -q -f -m finobt=0,inobtcount=0 "$T/nofino.img" ||
	not_ok "reference mkfs nofino.img"
# (the reference mkfs makes a log under 64 MiB only for the test suites)
truncate -s 200m "$T/smalllog.img"
minlog=$(TEST_DIR=1 TEST_DEV=1 QA_CHECK_FS=1 "$REF_MKFS" -N -f -i nrext64=0 \
	-l size=512b "$T/smalllog.img" 2>&1 |
	sed -n 's/.*minimum size is \([0-9]*\) blocks.*/\1/p')
TEST_DIR=1 TEST_DEV=1 QA_CHECK_FS=1 "$REF_MKFS" -q -f -i nrext64=0 \
	-l size="${minlog}b" "$T/smalllog.img" || not_ok "reference mkfs smalllog.img"
sum_old=$(sum_img "$T/old.img")
while read -r img copts; do
	both_run c -n -c "$copts" "$T/$img"
	same_as_ref c "-c $copts on $img: as the reference (exit $(cat "$T/c.ref.rc"): $(head -n 1 "$T/c.ref.out"))"
done <<-EOF
	fs.img bigtime=1
	fs.img inobtcount=1
	fs.img nrext64=1
	fs.img nrext64=1,bigtime=1
	fs.img lazycount=1
	fs.img lazycount=0
	fs.img lazycount=-1
	old.img bigtime=1,inobtcount=1
	old.img nrext64=1,bigtime=1
	nofino.img inobtcount=1
	nofino.img bigtime=1,inobtcount=1
	smalllog.img nrext64=1
	smalllog.img bigtime=1
	fs.img inobtcount=2
	fs.img nrext64=0
	fs.img bigtime
	fs.img lazycount
	fs.img nosuch=1
	EOF
# numbers out of range are not refused: 6.1 takes what strtol makes of
# them (cut to an int where it keeps one)
for args in "-c lazycount=99999999999999999999" \
	    "-o ag_stride=99999999999999999999" "-t 99999999999999999999"; do
	# shellcheck disable=SC2086
	both_run big -n $args "$T/fs.img"
	same_as_ref big "$args: taken as the reference takes it (exit $(cat "$T/big.ref.rc"))"
done
[ "$(sum_img "$T/old.img")" = "$sum_old" ] &&
	ok "-n -c: announced upgrades wrote nothing" ||
	not_ok "-n -c: an announced upgrade changed the image"

# Devices that cannot be used: the reference's words and exit 1, for the
# data device and for -l and -r, whether or not the filesystem has a
# section there -- the devices are opened before phase 1, in the order
# data, log, realtime, and a path that does not exist is looked up first
# unless -f says it is a file.
# short [TEXT]: TEXT (or stdin) without the scratch and cache directories
short() {
	if [ $# -gt 0 ]; then echo "$1"; else cat; fi |
		sed -e "s#$T/##g" -e "s#$RP_CACHE/##g" -e 's/-[0-9a-f]*\.img/.img/g'
}
mkdir "$T/adir"
: > "$T/empty"
for args in "$T/nonexist" "-f $T/nonexist" "$T/adir" "-l $T/nonexist $T/fs.img" \
	    "-r $T/nonexist $T/fs.img" "-l $T/nonexist -r $T/nonexist2 $T/fs.img" \
	    "-f -l $T/nonexist $T/fs.img" "-f -r $T/nonexist $T/fs.img" \
	    "-l $T/adir $T/fs.img" "-r /dev/null $T/fs.img"; do
	# shellcheck disable=SC2086
	both_run dev -n $args
	same_as_ref dev "$(short "$args"): as the reference, exit $(cat "$T/dev.ref.rc"), $(head -n 1 "$T/dev.ref.err" | short)"
done
# a path that exists but cannot be opened (a socket)
if command -v python3 > /dev/null &&
   python3 -c "import socket; socket.socket(socket.AF_UNIX).bind('$T/sock')"; then
	both_run dev -n -l "$T/sock" "$T/fs.img"
	same_as_ref dev "-l socket: as the reference, exit $(cat "$T/dev.ref.rc"), $(head -n 1 "$T/dev.ref.err" | short)"
else
	skip "-l socket" "no python3 to make a socket"
fi

# The sizes: the last block of each section must be readable on its
# device.  A log device shorter than the log is refused even for a
# filesystem whose log is internal (the reference checks the device it
# is given); a realtime device for a filesystem without one is ignored;
# a data device shorter than the filesystem is refused.
logbytes() {
	"$REF_DB" -r $2 -c "sb 0" -c "print logblocks" -c "print blocksize" "$1" |
		awk '{ v[NR] = $3 } END { print v[1] * v[2] }'
}
head -c $(($(logbytes "$T/fs.img") - 100)) /dev/zero > "$T/short.log"
cp --sparse=always "$T/fs.img" "$T/trunc.img"
truncate -s -100 "$T/trunc.img"
for args in "-l $T/empty $T/fs.img" "-l $T/short.log $T/fs.img" \
	    "-r $T/empty $T/fs.img" "$T/trunc.img"; do
	# shellcheck disable=SC2086
	both_run dev -n $args
	same_as_ref dev "$(short "$args"): as the reference, exit $(cat "$T/dev.ref.rc")"
done
if ext=$(rp_image extlog) && rt=$(rp_image rt); then
	sum_ext=$(rp_sum_all "$ext")
	head -c $(($(logbytes "$ext" "-l $ext.log") - 100)) /dev/zero > "$T/short.log"
	rtbytes=$("$REF_DB" -r -c "sb 0" -c "print rblocks" -c "print blocksize" "$rt" |
		awk '{ v[NR] = $3 } END { print v[1] * v[2] }')
	head -c $((rtbytes - 100)) /dev/zero > "$T/short.rt"
	for args in "$ext" "-l $ext.log $ext" "-l $T/short.log $ext" "-l $T/empty $ext" \
		    "$rt" "-r $rt.rt $rt" "-r $T/short.rt $rt" "-r $T/empty $rt" \
		    "-r $rt.rt -l $T/empty $rt"; do
		# shellcheck disable=SC2086
		both_run dev -n $args
		same_as_ref dev "$(short "$args"): as the reference, exit $(cat "$T/dev.ref.rc")"
	done
	[ "$(rp_sum_all "$ext")" = "$sum_ext" ] &&
		ok "-n -l: the filesystem and its log device unchanged" ||
		not_ok "-n -l changed the extlog image or its log"
else
	skip "extlog and rt images" "could not build them"
fi

# -v: the block cache size follows the reference's formula from -m, the
# machine's memory and the filesystem's size; -o bhash skips it.
for args in "" "-m 100" "-m 1000" "-m 20000" "-o bhash=1000"; do
	# shellcheck disable=SC2086
	both_run v -n -v $args "$T/fs.img"
	grep 'block cache size set to' "$T/v.ours.err" > "$T/v.ours.line"
	grep 'block cache size set to' "$T/v.ref.err" > "$T/v.ref.line"
	if cmp -s "$T/v.ours.line" "$T/v.ref.line" &&
	   { [ -s "$T/v.ref.line" ] || [ "$args" = "-o bhash=1000" ]; }; then
		ok "-v${args:+ $args}: block cache line as the reference's ($(sed 's/.*set to //' "$T/v.ref.line"))"
	else
		not_ok "-v${args:+ $args}: block cache line"
		diag "ours: $(cat "$T/v.ours.line")" "ref:  $(cat "$T/v.ref.line")"
	fi
done

# an address space limit bounds the cache as the reference's does (when
# our build can run under one: a sanitizer build cannot; dash has -v, and
# a shell without it skips)
# shellcheck disable=SC3045
if (ulimit -v 4000000; "$XK_REPAIR" -V) > /dev/null 2>&1; then
	# shellcheck disable=SC3045
	(ulimit -v 4000000; "$XK_REPAIR" -n -v "$T/fs.img") 2>&1 |
		grep 'block cache size set to' > "$T/v.ours.line"
	# shellcheck disable=SC3045
	(ulimit -v 4000000; "$REF_REPAIR" -n -v "$T/fs.img") 2>&1 |
		grep 'block cache size set to' > "$T/v.ref.line"
	if [ -s "$T/v.ref.line" ] && cmp -s "$T/v.ours.line" "$T/v.ref.line"; then
		ok "-v under ulimit -v: block cache line as the reference's"
	else
		not_ok "-v under ulimit -v: block cache line"
		diag "ours: $(cat "$T/v.ours.line")" "ref:  $(cat "$T/v.ref.line")"
	fi
else
	skip "-v under ulimit -v" "this build cannot run in 4 GB of address space"
fi

# -m below what the filesystem needs: the reference's refusal, exit 1
both_run m40 -n -vv -m 40 "$T/fs.img"
same_as_ref m40 "-m 40: refused with the reference's message, exit 1"

# -vv: the cache report at the end of the same phases, in the reference's
# format, with the same limits; the counts are our cache's, and our
# lock-free table has no bucket lengths to list (repair/DIFFERENCES.md)
report_shape() {
	grep -v -e '^Hash buckets with' -e 'XFS_REPAIR Summary' \
		-e '^Phase [1-7]:' -e '^Total run time' -e '^Phase.*Start' "$1" |
	sed -e 's/^libxfs_bcache: .*/libxfs_bcache:/' \
	    -e '/^Max supported entries = /b' -e '/^Hash table size = /b' \
	    -e 's/ = .*/ =/'
}
for args in "" "-m 100" "-o bhash=1000"; do
	# shellcheck disable=SC2086
	both_run vv -n -vv $args "$T/fs.img"
	report_shape "$T/vv.ours.err" > "$T/vv.ours.shape"
	report_shape "$T/vv.ref.err" > "$T/vv.ref.shape"
	nrep=$(grep -c '^libxfs_bcache:' "$T/vv.ref.shape")
	if [ "$nrep" -gt 0 ] &&
	   { cmp -s "$T/vv.ours.shape" "$T/vv.ref.shape" ||
	     [ "$(sort "$T/vv.ours.shape")" = "$(sort "$T/vv.ref.shape")" ]; }; then
		ok "-vv${args:+ $args}: $nrep cache reports where and as the reference's"
	else
		not_ok "-vv${args:+ $args}: cache reports"
		diag "$(diff "$T/vv.ref.shape" "$T/vv.ours.shape")"
	fi
done
# and the counts describe our cache: utilized >= active, hits + misses > 0
awk -F' = ' '/^Max utilized/ { u = $2 } /^Active/ { if ($2 > u) bad = 1 }
	/^Hits/ { h = $2 } /^Misses/ { if (h + $2 == 0) bad = 1; n++ }
	END { exit bad || !n }' "$T/vv.ours.err" &&
	ok "-vv: the counts are consistent" || not_ok "-vv: the counts are consistent"
done_testing
