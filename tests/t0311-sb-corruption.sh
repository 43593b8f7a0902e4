#!/bin/sh
# Damage one superblock field at a time with the reference xfs_db (-c
# leaves the CRC stale, -d recomputes it over the bad value) and walkfs
# names the problem: the expected problem code and exit code (2, cannot
# open, for a primary the kernel would refuse to mount; 1, a finding, for
# a secondary), never a crash (exit 99 or a sanitizer report fails).  Findings for a secondary
# superblock name its AG and the AG's first sector.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
need_ref
need_tool "$WALKFS"

img="$T/pristine.img"
truncate -s 512M "$img"
"$REF_MKFS" -q -f -m rmapbt=1 "$img" >/dev/null 2>&1 || skip_all "reference mkfs failed"
agblocks=$("$REF_DB" -r -c "sb 0" -c "p agblocks" "$img" | awk '{ print $3 }')
bsize=$("$REF_DB" -r -c "sb 0" -c "p blocksize" "$img" | awk '{ print $3 }')

"$WALKFS" -q "$img" > "$T/clean.out" 2>&1; rc=$?
if [ $rc -eq 0 ] && ! sanitizer_report "$T/clean.out"; then ok "undamaged image: no finding"; else not_ok "undamaged image: no finding (rc $rc)"; diag "$(head -20 "$T/clean.out")"; fi

# case_ RC CODE DESCRIPTION PATTERN xfs_db-commands...: walkfs exits RC
# and PATTERN is on the line with the finding too (e.g. "ag 1 daddr N:")
case_() {
	want=$1 code=$2 desc=$3 where=$4
	shift 4
	cp --sparse=always "$img" "$T/bad.img"
	set -- "$REF_DB" -x "$@" "$T/bad.img"
	"$@" >"$T/db.out" 2>&1
	"$WALKFS" -q "$T/bad.img" > "$T/out" 2>&1; rc=$?
	if [ $rc -eq "$want" ] && grep "\[$code\]" "$T/out" | grep -q "$where" &&
	   ! sanitizer_report "$T/out"; then
		ok "$desc: $code"
	else
		not_ok "$desc: $code (rc $rc)"
		diag "$(cat "$T/db.out")" "$(head -10 "$T/out")"
	fi
}

ag1="ag 1 daddr $((agblocks * (bsize / 512))):"
ag2="ag 2 daddr $((2 * agblocks * (bsize / 512))):"
case_ 2 FS_NOT_XFS         "primary magic"          "ag 0 daddr 0:" -c "sb 0" -c "write -d magicnum 0"
case_ 2 SB_BAD_CRC         "primary stale CRC"      "ag 0 daddr 0:" -c "sb 0" -c "write -c imax_pct 30"
case_ 2 SB_BAD_BLOCKSIZE   "block size"             "blocksize"     -c "sb 0" -c "write -d blocksize 1000"
case_ 2 SB_BAD_LOG2        "block size vs blocklog" "blocklog"      -c "sb 0" -c "write -d blocksize 8192"
case_ 2 SB_BAD_AGBLOCKS    "AG size"                "agblocks"      -c "sb 0" -c "write -d agblocks 10"
case_ 2 SB_BAD_ROOTINO     "root inode past the end" "rootino"      -c "sb 0" -c "write -d rootino 999999999"
case_ 2 SB_UNKNOWN_FEATURE "unknown incompat bit"   "features_incompat" -c "sb 0" -c "write -d features_incompat 0x1000000b"
case_ 2 SB_NEEDSREPAIR     "needsrepair set"        "features_incompat" -c "sb 0" -c "write -d features_incompat 0x1b"
case_ 2 SB_MISSING_FEATURE "features2 without projid32" "features2" -c "sb 0" -c "write -d features2 0x10a" -c "write -d bad_features2 0x10a"
case_ 2 SB_BAD_RTGEOM      "free rt extents, no rt section" "frextents" -c "sb 0" -c "write -d frextents 1"
case_ 1 SB_BAD_MAGIC       "secondary magic"        "$ag1"          -c "sb 1" -c "write -d magicnum 0"
case_ 1 SB_BAD_CRC         "secondary stale CRC"    "$ag1"          -c "sb 1" -c "write -c imax_pct 30"
case_ 1 SB_BAD_DBLOCKS     "secondary data blocks"  "$ag2"          -c "sb 2" -c "write -d dblocks 5"
case_ 1 SB_BAD_RTGEOM      "secondary free rt extents" "$ag1"       -c "sb 1" -c "write -d frextents 1"
done_testing
