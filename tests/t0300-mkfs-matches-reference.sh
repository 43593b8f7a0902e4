#!/bin/sh
# For every option set of the mkfs matrix (tests/lib/mkfs-matrix.sh), our
# mkfs.xfs and the reference make the same filesystem: the same exit code,
# the same summary printout line for line and warnings, and the same superblocks, AG
# headers, btree roots and first inodes as the reference xfs_db prints
# them (same UUID; checksums, LSNs and timestamps aside); and the
# reference xfs_repair -n finds ours clean.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
. "$top_srcdir/tests/lib/mkfs-matrix.sh"
. "$top_srcdir/tests/lib/mkfs-compare.sh"
need_ref
need_tool "$XK_MKFS"

UUID=6b1f0e2c-59d4-4c5e-9a53-2d1c3e4f5a6b
echo "$MKFS_MATRIX" | while IFS=';' read -r name size esc opts; do
	[ -n "$name" ] || continue
	ref_opts=$(mkfs_ref_opts "$opts")
	# shellcheck disable=SC2086
	mkfs_run ours "$T/o" "$size" "$esc" $opts -m uuid=$UUID; orc=$?
	# shellcheck disable=SC2086
	mkfs_run ref "$T/r" "$size" "$esc" $ref_opts -m uuid=$UUID; rrc=$?
	if [ $orc -eq $rrc ] && [ $orc -eq 0 ]; then
		ok "$name: both exit 0"
	else
		not_ok "$name: exit codes ours $orc, reference $rrc"
		diag "$(cat "$T/o/err")"
		continue
	fi
	if diff "$T/r/out" "$T/o/out" > "$T/d" 2>&1; then
		ok "$name: summary printout matches"
	else
		not_ok "$name: summary printout matches"; diag "$(head -20 "$T/d")"
	fi
	if diff "$T/r/err" "$T/o/err" > "$T/d" 2>&1; then
		ok "$name: the same warnings"
	else
		not_ok "$name: the same warnings"; diag "$(head -10 "$T/d")"
	fi
	dbo=$(mkfs_devopts "$opts" db)
	(cd "$T/r" && mkfs_dump img $dbo) > "$T/r/dump"
	(cd "$T/o" && mkfs_dump img $dbo) > "$T/o/dump"
	if grep -q '^magicnum = 0x58465342' "$T/o/dump" &&
	   diff "$T/r/dump" "$T/o/dump" > "$T/d" 2>&1; then
		ok "$name: xfs_db view matches the reference"
	else
		not_ok "$name: xfs_db view matches the reference"
		diag "$(head -30 "$T/d")"
	fi
	# a single AG has no secondary to check the geometry against
	ropt=; case "$opts" in *agcount=1*) ropt="-o force_geometry" ;; esac
	ropt="$ropt $(mkfs_devopts "$opts")"
	# shellcheck disable=SC2086
	if (cd "$T/o" && $REF_REPAIR -n $ropt img) > "$T/rep" 2>&1; then
		ok "$name: xfs_repair -n is clean"
	else
		not_ok "$name: xfs_repair -n is clean"; diag "$(tail -15 "$T/rep")"
	fi
	rm -f "$T/o/img" "$T/r/img"
done > "$T/tap"
cat "$T/tap"
n=$(grep -c '^\(not \)\?ok' "$T/tap")
echo "1..$n"
! grep -q '^not ok' "$T/tap"
