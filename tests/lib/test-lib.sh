# Shared helpers for the shell tests.  Each test sources this, says what it
# proves in its first comment, and speaks TAP:
#   plan N | skip_all "reason"
#   ok "description" | not_ok "description" | check "description" cmd...
#   skip "description" "reason"
# Tests that need root, loop devices or the reference xfsprogs call
# need_root / need_loop / need_ref first; they SKIP with the reason when it
# is missing (CI runs as root with everything installed).
#
# Paths:
#   $WALKFS         our libfs walker (tests/tools/walkfs)
#   $REF_MKFS, $REF_DB, $REF_REPAIR   Debian's xfsprogs, the oracle
#   $T              a scratch directory, removed at exit

: "${top_builddir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_srcdir:=$top_builddir}"
export top_builddir top_srcdir

# Sanitizer reports exit 99, a code no tool returns itself, so a test that
# expects "exit 1, a finding" can tell a crash from a finding (tests that
# want their own codes, e.g. ag-images.sh's 86/87, append and override).
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=99"
UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}halt_on_error=1:exitcode=99:print_stacktrace=1"
export ASAN_OPTIONS UBSAN_OPTIONS

# cache_once DONE LOCK LOG CMD...: a cached test image, built once.  When
# the file DONE is missing, take LOCK (tests running side by side build
# each image once and wait for each other) and run CMD unless another
# test made DONE meanwhile.  A failed build returns 1 and says so, with
# the end of LOG, on stderr (LOG "": CMD says why itself).
cache_once() {
	_co_done=$1 _co_lock=$2 _co_log=$3
	shift 3
	[ -f "$_co_done" ] && return 0
	mkdir -p "$(dirname "$_co_lock")" || return 1
	(
		flock 9 || exit 1
		[ -f "$_co_done" ] && exit 0
		"$@" && exit 0
		[ -n "$_co_log" ] || exit 1
		echo "building $(basename "$_co_done") failed; the end of $_co_log:" >&2
		tail -n 20 "$_co_log" 2>/dev/null | sed 's/^/  /' >&2
		exit 1
	) 9> "$_co_lock"
}

# noise BYTES SEED: BYTES of fixed pseudo-random data, the same for a SEED
# on every run.  Test images take file data from here, not /dev/urandom:
# a case that reads a data block as metadata (a damaged pointer, a wrong
# AG size) then sees the same bytes, and prints the same, every time.
noise() {
	python3 -c 'import random, sys
r = random.Random(int(sys.argv[2]))
sys.stdout.buffer.write(r.randbytes(int(sys.argv[1])))' "$1" "$2"
}

# sanitizer_report FILE: true if FILE holds a sanitizer's report.
sanitizer_report() {
	grep -q -e 'Sanitizer' -e 'runtime error' "$1"
}

WALKFS="$top_builddir/tests/tools/walkfs"
REF_MKFS=/usr/sbin/mkfs.xfs
REF_DB=/usr/sbin/xfs_db
REF_REPAIR=/usr/sbin/xfs_repair
REF_IO=/usr/sbin/xfs_io
# Our tools, as each lands.
XK_MKFS="$top_builddir/mkfs/mkfs.xfs"
XK_DB="$top_builddir/db/xfs_db"
XK_REPAIR="$top_builddir/repair/xfs_repair"

# Scratch space: tmpfs-backed /tmp may be small; images are sparse.
T=$(mktemp -d "${TMPDIR:-/tmp}/xfskit-test.XXXXXX")
_mounts=""
# A python3 reached through a version manager's shim (pyenv's is a shell
# script) takes a third of a second to start, and the tests start python
# hundreds of times: put the system's own interpreter first on PATH when
# there is one.  The tests' python needs only the standard library.
if [ -x /usr/bin/python3 ] &&
   [ "$(command -v python3)" != /usr/bin/python3 ]; then
	mkdir -p "$T/bin" && ln -s /usr/bin/python3 "$T/bin/python3" &&
		PATH="$T/bin:$PATH" && export PATH
fi
_cleanup() {
	for m in $_mounts; do
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
	done
	rm -rf "$T"
}
trap _cleanup EXIT

_tap_n=0
_tap_fail=0
_tap_planned=""

plan() {
	_tap_planned=$1
	echo "1..$1"
}

skip_all() {
	echo "1..0 # SKIP $*"
	exit 0
}

ok() {
	_tap_n=$((_tap_n + 1))
	echo "ok $_tap_n - $*"
}

not_ok() {
	_tap_n=$((_tap_n + 1))
	_tap_fail=$((_tap_fail + 1))
	echo "not ok $_tap_n - $*"
}

skip() {
	_tap_n=$((_tap_n + 1))
	echo "ok $_tap_n - $1 # SKIP $2"
}

# check "description" command...: ok if the command succeeds.
check() {
	_d=$1
	shift
	if "$@"; then ok "$_d"; else not_ok "$_d"; fi
}

# check_fail "description" command...: ok if the command fails.
check_fail() {
	_d=$1
	shift
	if "$@"; then not_ok "$_d"; else ok "$_d"; fi
}

diag() {
	printf '%s\n' "$@" | sed 's/^/# /'
}

done_testing() {
	if [ -z "$_tap_planned" ]; then
		echo "1..$_tap_n"
	fi
	[ "$_tap_fail" -eq 0 ]
	exit $?
}

need_root() {
	[ "$(id -u)" -eq 0 ] || skip_all "needs root (loop mounts)"
}

need_loop() {
	need_root
	losetup -f >/dev/null 2>&1 || skip_all "no free loop device"
	[ -e /dev/loop-control ] || skip_all "no /dev/loop-control"
}

need_ref() {
	[ -x "$REF_MKFS" ] && [ -x "$REF_DB" ] && [ -x "$REF_REPAIR" ] &&
		[ -x "$REF_IO" ] ||
		skip_all "reference xfsprogs not installed (apt-get install xfsprogs)"
}

# need_vmrig: the qemu rig of ../shared/vmrig (a kernel with online scrub
# and realtime support) in $VMRIG, its kernel in $VMRIG_KERNEL.  Found
# beside the source tree, or where $VMRIG_DIR says.
need_vmrig() {
	for VMRIG in "${VMRIG_DIR:-}" "$top_srcdir/../shared/vmrig" /work/shared/vmrig; do
		[ -n "$VMRIG" ] && [ -x "$VMRIG/run-in-vm.sh" ] && break
		VMRIG=
	done
	[ -n "$VMRIG" ] || skip_all "no vmrig (../shared/vmrig; or set VMRIG_DIR)"
	VMRIG_KERNEL=${VMRIG_KERNEL:-$VMRIG/kernel/bzImage}
	[ -f "$VMRIG_KERNEL" ] || skip_all "no vmrig kernel at $VMRIG_KERNEL"
	command -v qemu-system-x86_64 >/dev/null ||
		skip_all "no qemu (apt-get install qemu-system-x86)"
	[ -x /bin/busybox ] || skip_all "no busybox (apt-get install busybox-static)"
	command -v cpio >/dev/null || skip_all "no cpio (apt-get install cpio)"
}

need_tool() {
	[ -x "$1" ] || skip_all "$(basename "$1") is not built"
}

# mount_img IMAGE DIR [options]: loop-mount and remember for cleanup.
mount_img() {
	_img=$1 _dir=$2
	shift 2
	mkdir -p "$_dir"
	mount -o loop,nouuid${1:+,$1} "$_img" "$_dir" || return 1
	_mounts="$_dir $_mounts"
}

umount_img() {
	umount "$1" || return 1
	_mounts=$(echo "$_mounts" | sed "s#$1 ##")
}

# sum_img IMAGE: a checksum of the whole image (read-only proofs).
sum_img() {
	sha256sum "$1" | cut -d' ' -f1
}

# The sanitizer build's pass.  CI runs the whole suite twice, once with
# ASan+UBSan (XK_SANITIZED=yes, from Makefile.am), and half an hour on
# two cores holds one full pass and a lighter second one:
#   sanitized_skip "why"   skips a test there that the normal build's
#                          pass covers: one that runs no xfskit binary,
#                          or one that reads clean reference-made images
#                          and compares with the reference (the pass
#                          keeps the tests that feed our tools damaged,
#                          fuzzed or hostile input, the unit tests, the
#                          mkfs option matrix, the allocator, db writes);
#   sample_cases < LIST    the cases of a corpus test (one a line) to
#                          run: all of them, or in the sanitizer pass
#                          every $XK_SAMPLE-th (default 8) from a start
#                          that moves on each day (XK_SAMPLE_AT=K pins
#                          it; XK_SAMPLE=1 takes all), said in a diag
#                          line so a failure can be run again.
sanitized_skip() {
	[ "$XK_SANITIZED" = yes ] || return 0
	skip_all "sanitizer build: $*"
}

sample_cases() {
	if [ "$XK_SANITIZED" != yes ]; then
		cat
		return
	fi
	_sn=${XK_SAMPLE:-8}
	_sa=${XK_SAMPLE_AT:-$(($(date +%s) / 86400 % _sn))}
	echo "# sanitizer build: every ${_sn}th case from $_sa" \
		"(XK_SAMPLE=$_sn XK_SAMPLE_AT=$_sa)" >&2
	awk -v n="$_sn" -v a="$_sa" '(NR - 1) % n == a % n'
}
