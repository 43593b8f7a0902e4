# Helpers of the directory tests (tests/t04*-dir-*.sh), sourced after
# tests/lib/test-lib.sh.
#
#   DIRTOOL                      tests/tools/dirtool (libfs/dir.h, one dir)
#   dir_check_tree IMG MNT OUT   for every directory under the mount MNT of
#                                image IMG: dirtool must report no finding
#                                and print the same names, in the same
#                                order, as `ls -f` through the kernel.
#                                Writes one line per directory to OUT:
#                                "ok INO" or "BAD INO what"; returns 0 when
#                                every line is ok.
#   dir_findings IMG INO         run dirtool: its exit code in $dir_rc,
#                                its findings in $T/dir_findings.err and
#                                their problem codes (sorted, unique, one
#                                a line) in $T/dir_findings.codes
#   mount_ro IMG DIR             mount a shared image without writing to it

DIRTOOL="$top_builddir/tests/tools/dirtool"

# In the sanitizer build, an error must not look like "findings" (exit 1).
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=99"
UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}exitcode=99:print_stacktrace=1"
export ASAN_OPTIONS UBSAN_OPTIONS

dir_check_tree() {
	_img=$1 _mnt=$2 _out=$3
	: > "$_out"
	find "$_mnt" -xdev -type d -print0 |
	xargs -0 sh -c '
		tool=$1 img=$2 t=$3
		shift 3
		for d; do
			ino=$(stat -c %i "$d")
			"$tool" "$img" "$ino" > "$t.names" 2> "$t.err"
			rc=$?
			if [ $rc -ne 0 ]; then
				echo "BAD $ino dirtool exit $rc: $(head -3 "$t.err" | tr "\n" " ")"
			elif ! ls -f "$d" | cmp -s - "$t.names"; then
				echo "BAD $ino names differ from ls -f"
			else
				echo "ok $ino"
			fi
		done' sh "$DIRTOOL" "$_img" "$_out.tmp" >> "$_out"
	rm -f "$_out.tmp.names" "$_out.tmp.err"
	! grep -q '^BAD' "$_out"
}

dir_findings() {
	"$DIRTOOL" "$1" "$2" > /dev/null 2> "$T/dir_findings.err"
	dir_rc=$?
	sed -n 's/.*\[\([A-Z0-9_]*\)\]$/\1/p' "$T/dir_findings.err" |
		sort -u > "$T/dir_findings.codes"
}

mount_ro() {
	mount_img "$1" "$2" ro,norecovery,nouuid
}
