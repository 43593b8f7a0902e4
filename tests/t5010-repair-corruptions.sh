#!/bin/sh
# xfs_repair -n finds what the reference finds in a corpus of damaged
# filesystems (tests/repair-cases.txt): for each case, a populated image
# (tests/lib/repair-images.sh) is damaged with the reference xfs_db -x,
# and then
#   - the reference's exit code is the one the case expects (the case
#     still damages what it says),
#   - our exit code equals the reference's,
#   - our findings include the problem codes the case names, on the
#     damaged object where the case says which, and none of those it
#     names with a "!" (what would be a false alarm: the reference finds
#     nothing of the kind),
#   - our run did not change a byte of the image.
# RP_CASES=regex runs only the matching cases; RP_SHOW=1 prints both
# tools' messages for each case.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
. "$top_srcdir/tests/lib/repair-images.sh"

need_root
need_loop
need_ref
need_tool "$XK_REPAIR"
command -v setfattr > /dev/null || skip_all "setfattr not installed (apt-get install attr)"

CASES="$top_srcdir/tests/repair-cases.txt"
# functions for the shell commands of cases
SHELL_HELPERS='logdaddr() {
	_ls=$($DB -r -c "sb 0" -c "p logstart" "$IMG" | awk "{ print \$3 }")
	$DB -r -c "convert fsb $_ls daddr" "$IMG" | sed "s/.*(\(.*\)).*/\1/"
};'

# The case lines: NAME | IMAGE | REF-RC | EXPECT | XFS_DB COMMANDS
cases() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$CASES" |
		if [ -n "$RP_CASES" ]; then grep -E "^[[:space:]]*($RP_CASES)[[:space:]]*\|"; else cat; fi
}

trim() {
	echo "$1" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//'
}

# {ino:/path} in a command: the inode number of that path in the image
expand() {
	_img=$1 _cmd=$2
	while :; do
		_p=$(echo "$_cmd" | sed -n 's/.*{ino:\([^}]*\)}.*/\1/p')
		[ -n "$_p" ] || break
		_i=$(rp_ino "$_img" "$_p") || return 1
		_cmd=$(echo "$_cmd" | sed "s#{ino:$_p}#$_i#")
	done
	echo "$_cmd"
}

# has_code FILE CODE[@TEXT]: a finding with that code (and text) exists
has_code() {
	_code=${2%%@*}
	case $2 in
	*@*) _text=${2#*@} ;;
	*) _text= ;;
	esac
	grep -F "[$_code]" "$1" | grep -qF -- "$_text"
}

cases > "$T/cases"
n=$(wc -l < "$T/cases")
[ "$n" -gt 0 ] || skip_all "no case matches '$RP_CASES'"
plan "$n"

while IFS='|' read -r name image refrc expect cmds; do
	name=$(trim "$name")
	image=$(trim "$image")
	refrc=$(trim "$refrc")
	expect=$(trim "$expect")
	src=$(rp_image "$image") || { not_ok "$name: image $image"; continue; }
	expect=$(expand "$image" "$expect") || { not_ok "$name: bad {ino:} in expect"; continue; }
	img="$T/$name.img"
	rp_copy "$src" "$img" || { not_ok "$name: copying the image"; continue; }
	devs=$(rp_devargs "$img")
	dbdevs=$(rp_dbargs "$img")
	# "!command" runs a shell command on $IMG instead of xfs_db
	case $(trim "$cmds") in
	!*)
		IMG=$img DB=$REF_DB sh -c "$SHELL_HELPERS $(trim "$cmds" | sed 's/^!//')" > "$T/db.out" 2>&1 ||
			{ not_ok "$name: the shell command failed"; diag "$(cat "$T/db.out")"; continue; }
		cmds=""
		;;
	esac
	# run the xfs_db commands, one -c each
	set --
	oldifs=$IFS
	IFS=';'
	for c in $cmds; do
		IFS=$oldifs
		c=$(trim "$c")
		c=$(expand "$image" "$c") || { set -- BAD; break; }
		set -- "$@" -c "$c"
		IFS=';'
	done
	IFS=$oldifs
	if [ "$1" = BAD ]; then
		not_ok "$name: a {ino:} path is not in image $image"
		continue
	fi
	# shellcheck disable=SC2086
	[ $# -eq 0 ] || "$REF_DB" -x $dbdevs "$@" "$img" > "$T/db.out" 2>&1
	if [ $# -gt 0 ] && grep -qiE 'write error|invalid|not found|no such|usage:|parsing error' "$T/db.out"; then
		not_ok "$name: xfs_db could not damage the image"
		diag "$(cat "$T/db.out")"
		rp_rm "$img"
		continue
	fi
	# shellcheck disable=SC2086
	"$REF_REPAIR" -n $devs "$img" > "$T/ref.out" 2>&1
	rc_ref=$?
	sum_before=$(rp_sum_all "$img")
	# shellcheck disable=SC2086
	XFSKIT_REPAIR_FINDINGS="$T/found" "$XK_REPAIR" -n $devs "$img" > "$T/ours.out" 2>&1
	rc_ours=$?
	sum_after=$(rp_sum_all "$img")
	why=""
	[ "$rc_ref" = "$refrc" ] || why="$why reference exit $rc_ref, case says $refrc;"
	[ "$rc_ours" = "$rc_ref" ] || why="$why our exit $rc_ours, reference $rc_ref;"
	[ "$rc_ours" -lt 128 ] || why="$why we crashed (exit $rc_ours);"
	! grep -qE 'runtime error|Sanitizer' "$T/ours.out" ||
		why="$why the sanitizer complained;"
	[ "$sum_before" = "$sum_after" ] || why="$why our -n changed the image;"
	oldifs=$IFS
	IFS=','
	for e in $expect; do
		IFS=$oldifs
		e=$(trim "$e")
		case $e in
		-) ;;
		!*) ! has_code "$T/found" "${e#!}" || why="$why false alarm ${e#!};" ;;
		*) has_code "$T/found" "$e" || why="$why no finding $e;" ;;
		esac
		IFS=','
	done
	IFS=$oldifs
	if [ -z "$why" ]; then
		ok "$name: exit $rc_ours, found $expect"
	else
		not_ok "$name:$why"
		diag "ours:" "$(grep -v '^Phase\|^        - \|No modify' "$T/ours.out" | head -20)"
		diag "reference:" "$(grep -v '^Phase\|^        - \|No modify\|host filesystem\|Repair may\|the image and' "$T/ref.out" | head -20)"
	fi
	if [ -n "$RP_SHOW" ]; then
		diag "== $name: reference" "$(grep -v '^Phase\|^        - \|host filesystem\|Repair may\|the image and' "$T/ref.out")"
		diag "== $name: ours" "$(grep -v '^Phase\|^        - ' "$T/ours.out")" "$(cat "$T/found")"
	fi
	rp_rm "$img"
done < "$T/cases"
done_testing
