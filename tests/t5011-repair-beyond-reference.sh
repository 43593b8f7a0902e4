#!/bin/sh
# Damage the reference's xfs_repair -n misses and ours reports (listed in
# repair/DIFFERENCES.md): for each, the reference exits 0, ours exits 1
# with the named finding and changes no byte; where the kernel can show
# the damage is real, it does (reading the directory fails with
# "Structure needs cleaning").  If the reference ever starts to report
# one of these, the test says so, and the row leaves DIFFERENCES.md.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
. "$top_srcdir/tests/lib/repair-images.sh"

rp_need "$XK_REPAIR"

src=$(rp_image std) || skip_all "cannot make the std image"
plan 5

# damage NAME PATH XFS_DB-COMMAND: a damaged copy in $T/NAME.img
damage() {
	rp_copy "$src" "$T/$1.img"
	"$REF_DB" -x -c "inode $(rp_ino std "$2")" -c "$3" "$T/$1.img" \
		> /dev/null 2>&1
}

# compare NAME CODE: the reference clean, ours finds CODE and writes nothing
compare() {
	"$REF_REPAIR" -n "$T/$1.img" > "$T/ref.out" 2>&1
	_r=$?
	_s0=$(rp_sum "$T/$1.img")
	XFSKIT_REPAIR_FINDINGS="$T/found" "$XK_REPAIR" -n "$T/$1.img" > "$T/ours.out" 2>&1
	_o=$?
	_s1=$(rp_sum "$T/$1.img")
	if [ $_r -eq 0 ]; then
		ok "$1: the reference exits 0"
	else
		not_ok "$1: the reference exits 0 (now $_r: drop the DIFFERENCES.md row)"
	fi
	if [ $_o -eq 1 ] && grep -qF "[$2]" "$T/found" && [ "$_s0" = "$_s1" ]; then
		ok "$1: ours exits 1 with $2, nothing written"
	else
		not_ok "$1: ours exits 1 with $2, nothing written (exit $_o)"
		diag "$(cat "$T/found")"
	fi
}

# a block-form directory whose size is not one directory block
damage dirsize /dir_block "write -d core.size 4097"
compare dirsize DIR_BAD_SIZE
mkdir -p "$T/mnt"
if mount -o loop,ro "$T/dirsize.img" "$T/mnt"; then
	if ls "$T/mnt/dir_block" > /dev/null 2> "$T/ls.err"; then
		not_ok "dirsize: the kernel refuses the directory"
	else
		check "dirsize: the kernel refuses the directory" \
			grep -q "Structure needs cleaning" "$T/ls.err"
	fi
	umount "$T/mnt"
else
	not_ok "dirsize: the kernel refuses the directory (mount failed)"
fi
rp_rm "$T/dirsize.img"

# an extent start block with a bit above the 32-bit AG number set
damage highbit /file_big "fuzz -d u3.bmx[0].startblock firstbit"
compare highbit BMAP_BAD_STARTBLOCK
rp_rm "$T/highbit.img"
done_testing
