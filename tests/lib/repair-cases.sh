# The corruption corpus (tests/repair-cases.txt): read its cases and
# apply one to a copy of its image.  Source after test-lib.sh and
# repair-images.sh.
#
#   rc_cases > FILE             # NAME|IMAGE|REF-RC|EXPECT|COMMANDS lines
#                               # ($RP_CASES: an egrep of names to keep)
#   rc_trim " x "               # x
#   rc_expand IMAGE TEXT        # TEXT with each {ino:/path} replaced
#   rc_damage IMAGE CMDS IMG OUT  # damage IMG with the reference xfs_db
#                               # (or CMDS' "!shell"); its output in OUT;
#                               # 1: a {ino:} path is not in IMAGE,
#                               # 2: the damage could not be done

RC_CASES_FILE="$top_srcdir/tests/repair-cases.txt"
RC_SHELL_HELPERS='logdaddr() {
	_ls=$($DB -r -c "sb 0" -c "p logstart" "$IMG" | awk "{ print \$3 }")
	$DB -r -c "convert fsb $_ls daddr" "$IMG" | sed "s/.*(\(.*\)).*/\1/"
};'

rc_cases() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$RC_CASES_FILE" |
		if [ -n "$RP_CASES" ]; then grep -E "^[[:space:]]*($RP_CASES)[[:space:]]*\|"; else cat; fi
}

rc_trim() {
	echo "$1" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//'
}

rc_expand() {
	_img=$1 _cmd=$2
	while :; do
		_p=$(echo "$_cmd" | sed -n 's/.*{ino:\([^}]*\)}.*/\1/p')
		[ -n "$_p" ] || break
		_i=$(rp_ino "$_img" "$_p") || return 1
		_cmd=$(echo "$_cmd" | sed "s#{ino:$_p}#$_i#")
	done
	echo "$_cmd"
}

rc_damage() {
	_image=$1 _cmds=$(rc_trim "$2") _dimg=$3 _out=$4
	: > "$_out"
	case $_cmds in
	!*)
		IMG=$_dimg DB=$REF_DB sh -c "$RC_SHELL_HELPERS ${_cmds#!}" > "$_out" 2>&1 ||
			return 2
		return 0
		;;
	esac
	# one -c per command, in order
	set --
	_oldifs=$IFS
	IFS=';'
	for _c in $_cmds; do
		IFS=$_oldifs
		_c=$(rc_expand "$_image" "$(rc_trim "$_c")") || { IFS=$_oldifs; return 1; }
		set -- "$@" -c "$_c"
		IFS=';'
	done
	IFS=$_oldifs
	[ $# -gt 0 ] || return 0
	# shellcheck disable=SC2046
	"$REF_DB" -x $(rp_dbargs "$_dimg") "$@" "$_dimg" > "$_out" 2>&1
	! grep -qiE 'write error|invalid|not found|no such|usage:|parsing error' "$_out" ||
		return 2
	return 0
}
