# The corruption corpus (tests/repair-cases.txt): read its cases and
# apply one to a copy of its image.  Source after test-lib.sh and
# repair-images.sh.
#
#   rc_cases > FILE             # NAME|IMAGE|REF-RC|EXPECT|COMMANDS lines,
#                               # each field without blanks around it
#                               # ($RP_CASES: an egrep of names to keep)
#   rc_trim VAR " x "           # VAR=x
#   rc_expand VAR IMAGE TEXT    # VAR=TEXT with each {ino:/path} replaced
#   rc_damage IMAGE CMDS IMG OUT  # damage IMG with the reference xfs_db
#                               # (or CMDS' "!shell"); its output in OUT;
#                               # 1: a {ino:} path is not in IMAGE,
#                               # 2: the damage could not be done
#   rc_prepare NAME IMAGE CMDS IMG  # IMG: a copy of IMAGE damaged by
#                               # CMDS; else a not_ok for NAME and 1
#   rc_ref KEY OUT CMDLINE      # OUT: the stdout of the reference's
#                               # CMDLINE, kept under KEY; returns its code

RC_CASES_FILE="$top_srcdir/tests/repair-cases.txt"
RC_SHELL_HELPERS='logdaddr() {
	_ls=$($DB -r -c "sb 0" -c "p logstart" "$IMG" | awk "{ print \$3 }")
	$DB -r -c "convert fsb $_ls daddr" "$IMG" | sed "s/.*(\(.*\)).*/\1/"
};'

# The loops that read these run a few hundred cases, and on a virtual
# machine every process they start costs milliseconds that do not overlap
# with the other tests': the helpers below set variables rather than
# print into $(...), and start no process but the one doing the work.
rc_cases() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$RC_CASES_FILE" |
		if [ -n "$RP_CASES" ]; then grep -E "^[[:space:]]*($RP_CASES)[[:space:]]*\|"; else cat; fi |
		awk '{	# the commands (the rest of the line) may hold a "|"
			line = ""
			for (i = 1; i <= 4; i++) {
				f = substr($0, 1, index($0, "|") - 1)
				$0 = substr($0, index($0, "|") + 1)
				gsub(/^[ \t]+|[ \t]+$/, "", f)
				line = line f "|"
			}
			gsub(/^[ \t]+|[ \t]+$/, "")
			print line $0 }'
}

rc_trim() {
	_t=${2#"${2%%[![:space:]]*}"}
	eval "$1=\${_t%\"\${_t##*[![:space:]]}\"}"
}

rc_expand() {
	_ev=$1 _img=$2 _cmd=$3 _done=
	while :; do
		case $_cmd in
		*"{ino:"*"}"*) ;;
		*) break ;;
		esac
		_p=${_cmd#*"{ino:"}
		_p=${_p%%"}"*}
		_i=$(rp_ino "$_img" "$_p") || return 1
		_done=$_done${_cmd%%"{ino:$_p}"*}$_i
		_cmd=${_cmd#*"{ino:$_p}"}
	done
	eval "$_ev=\$_done\$_cmd"
}

rc_damage() {
	_image=$1 _dimg=$3 _out=$4
	rc_trim _cmds "$2"
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
		rc_trim _c "$_c"
		rc_expand _c "$_image" "$_c" || { IFS=$_oldifs; return 1; }
		set -- "$@" -c "$_c"
		IFS=';'
	done
	IFS=$_oldifs
	[ $# -gt 0 ] || return 0
	rp_dbargs _dbargs "$_dimg"
	# shellcheck disable=SC2086
	"$REF_DB" -x $_dbargs "$@" "$_dimg" > "$_out" 2>&1
	! grep -qiE 'write error|invalid|not found|no such|usage:|parsing error' "$_out" ||
		return 2
	return 0
}

# rc_prepare NAME IMAGE CMDS IMG: copy IMAGE to IMG and damage it with
# CMDS (rc_damage; xfs_db's output in IMG.db).  On failure, says not_ok
# for case NAME with the reason, removes IMG and returns 1.
rc_prepare() {
	_pn=$1 _pimage=$2 _pcmds=$3 _pimg=$4
	_psrc=$(rp_image "$_pimage") || { not_ok "$_pn: image $_pimage"; return 1; }
	rp_copy "$_psrc" "$_pimg" || { not_ok "$_pn: copying the image"; return 1; }
	rc_damage "$_pimage" "$_pcmds" "$_pimg" "$_pimg.db"
	case $? in
	0) rm -f "$_pimg.db"; return 0 ;;
	1) not_ok "$_pn: a {ino:} path is not in image $_pimage" ;;
	*) not_ok "$_pn: xfs_db could not damage the image"; diag "$(cat "$_pimg.db")" ;;
	esac
	rp_rm "$_pimg"
	rm -f "$_pimg.db"
	return 1
}

# rc_ref KEY OUT CMDLINE: run CMDLINE (a command line for eval that runs
# the reference, read-only, on a damaged image) with its standard output
# in OUT, and return its exit code.  KEY says what the input is (the
# damaged image's checksum: some damages are not the same twice); the
# run is kept in $RP_CACHE/ref-runs under KEY, CMDLINE as written and
# the reference's version (a file: the exit code, then the output), so
# that the sanitizer build's pass, which damages the same images the
# same way, reads it instead of starting the reference again.  The
# scratch directory's name, which changes from run to run, is kept as
# @T@.
RC_REF_VERSION=$("$REF_REPAIR" -V 2>/dev/null)
rc_ref() {
	_rk=$(sha256sum <<EOF
$1
$3
$RC_REF_VERSION
EOF
)
	_rf="$RP_CACHE/ref-runs/${_rk%% *}"
	if [ -f "$_rf" ]; then
		{ read -r _rr; sed "s|@T@|$T|g" > "$2"; } < "$_rf"
		return "$_rr"
	fi
	eval "$3" > "$2"
	_rr=$?
	[ -d "$RP_CACHE/ref-runs" ] || mkdir -p "$RP_CACHE/ref-runs"
	{ echo "$_rr"; sed "s|$T|@T@|g" "$2"; } > "$_rf.$$" && mv "$_rf.$$" "$_rf"
	return $_rr
}
