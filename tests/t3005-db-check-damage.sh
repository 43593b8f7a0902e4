#!/bin/sh
# xfs_db check (blockget) on damaged filesystems reports what the
# reference reports: for every case of the corruption corpus
# (tests/repair-cases.txt, also used by xfs_repair's t5010), a copy of
# the case's image is damaged with the reference xfs_db -x, and then
#   - "check" prints, on stdout, the same lines as the reference's, in the
#     same order, and exits with the same code (3: found something,
#     2: a tree could not be walked, 1: the log is dirty or unusable),
#   - "check -s" exits with that code too, and prints only what the
#     reference prints even when silent,
#   - "check -v" traces the walk line for line as the reference (every
#     block's use and owner, every inode and directory entry), and
#     "check -s -i INO -b FSB" shows what concerns that inode and block
#     (these traces on every third case, from a start that moves on
#     each day: the reference's -v trace is the larger part of the
#     test's time; XK_TRACE_ALL=1 traces every case),
#   - neither run changed a byte of the image (-r).
# For the cases listed in $EXIT_ONLY only the exit codes are compared
# (deliberate differences in what is printed, db/DIFFERENCES.md).
# DB_CASES=regex runs only the matching cases.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
. "$top_srcdir/tests/lib/repair-images.sh"
. "$top_srcdir/tests/lib/repair-cases.sh"

rp_need "$XK_DB"

# A primary superblock with an impossible block size (1000): the
# reference computes part of its geometry from it and walks different
# blocks; both find the trees unwalkable (exit 2).
# A data fork format out of range (ino_lost_root): the reference's -v
# and -i traces print the format's name from past the end of its table.
EXIT_ONLY="sb0_blocksize ino_lost_root"

RP_CASES=${DB_CASES:-$RP_CASES} rc_cases | sample_cases > "$T/cases"
n=$(wc -l < "$T/cases")
[ "$n" -gt 0 ] || skip_all "no case matches '$DB_CASES'"
plan "$n"

trace_at=$(($(date +%s) / 86400 % 3))
echo "# -v and -i traces on the cases $((trace_at + 1)), $((trace_at + 4)), ..." \
	"(XK_TRACE_ALL=1: all)"
i=0
while IFS='|' read -r name image refrc expect cmds; do
	i=$((i + 1))
	trace=""
	if [ -n "$XK_TRACE_ALL" ] || [ $(((i - 1) % 3)) = "$trace_at" ]; then
		trace=1
	fi
	img="$T/$name.img"
	rc_prepare "$name" "$image" "$cmds" "$img" || continue
	rp_dbargs dbdevs "$img"
	# the traced inode and block: the case's first {ino:} or the root's
	case $cmds in
	*"{ino:"*"}"*)
		trace_ino=${cmds#*"{ino:"}
		trace_ino=${trace_ino%%"}"*}
		;;
	*) trace_ino=/ ;;
	esac
	trace_ino=$(rp_ino "$image" "$trace_ino")
	trace_args="-s -i $trace_ino -b 20 -b $((trace_ino / 16))"
	sum_before=$(rp_sum_all "$img")
	# shellcheck disable=SC2016
	rc_ref "$sum_before" "$T/ref.out" '"$REF_DB" -r $dbdevs -c check "$img" 2> /dev/null'
	rc_ref=$?
	# shellcheck disable=SC2016
	rc_ref "$sum_before" "$T/ref.s" '"$REF_DB" -r $dbdevs -c "check -s" "$img" 2> /dev/null'
	rc_ref_s=$?
	if [ -n "$trace" ]; then
		# shellcheck disable=SC2016
		rc_ref "$sum_before" "$T/ref.v" '"$REF_DB" -r $dbdevs -c "check -v" "$img" 2> /dev/null | cksum'
		# shellcheck disable=SC2016
		rc_ref "$sum_before $trace_args" "$T/ref.i" '"$REF_DB" -r $dbdevs -c "check $trace_args" "$img" 2> /dev/null'
	fi
	# shellcheck disable=SC2086
	"$XK_DB" -r $dbdevs -c check "$img" > "$T/ours.out" 2> "$T/ours.err"
	rc_ours=$?
	# shellcheck disable=SC2086
	"$XK_DB" -r $dbdevs -c "check -s" "$img" > "$T/ours.s" 2>> "$T/ours.err"
	rc_ours_s=$?
	if [ -n "$trace" ]; then
		# shellcheck disable=SC2086
		"$XK_DB" -r $dbdevs -c "check -v" "$img" 2>> "$T/ours.err" | cksum > "$T/ours.v"
		# shellcheck disable=SC2086
		"$XK_DB" -r $dbdevs -c "check $trace_args" "$img" > "$T/ours.i" 2>> "$T/ours.err"
	fi
	sum_after=$(rp_sum_all "$img")
	why=""
	[ "$rc_ours" = "$rc_ref" ] || why="$why exit $rc_ours, reference $rc_ref;"
	[ "$rc_ours_s" = "$rc_ref_s" ] || why="$why -s exit $rc_ours_s, reference $rc_ref_s;"
	case " $EXIT_ONLY " in
	*" $name "*) ;;
	*)
		cmp -s "$T/ref.out" "$T/ours.out" || why="$why other messages;"
		cmp -s "$T/ref.s" "$T/ours.s" || why="$why other messages under -s;"
		if [ -n "$trace" ]; then
			cmp -s "$T/ref.v" "$T/ours.v" || why="$why another -v trace;"
			cmp -s "$T/ref.i" "$T/ours.i" || why="$why another trace of $trace_args;"
		fi
		;;
	esac
	! grep -qE 'runtime error|Sanitizer' "$T/ours.err" || why="$why the sanitizer complained;"
	[ "$sum_before" = "$sum_after" ] || why="$why -r changed the image;"
	if [ -z "$why" ]; then
		ok "$name: exit $rc_ours, $(wc -l < "$T/ours.out") lines as the reference${trace:+, the same traces}"
	else
		not_ok "$name:$why"
		diag "$(diff "$T/ref.out" "$T/ours.out" | head -10)"
		diag "$(diff "$T/ref.s" "$T/ours.s" | head -4)"
	fi
	rp_rm "$img"
done < "$T/cases"
done_testing
