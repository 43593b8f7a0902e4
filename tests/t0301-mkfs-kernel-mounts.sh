#!/bin/sh
# The Linux kernel mounts what our mkfs.xfs makes, for every option set of
# the mkfs matrix: it takes a tree of files (directories, a large file,
# small files, a symlink, a hard link), unmounts, and the reference
# xfs_repair -n still finds the filesystem clean.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
sanitized_skip "clean images, compared with the reference: the normal pass runs it"
. "$top_srcdir/tests/lib/mkfs-matrix.sh"
. "$top_srcdir/tests/lib/mkfs-compare.sh"
need_loop
need_ref
need_tool "$XK_MKFS"

populate() {
	mkdir -p "$1/a/b/c" "$1/many" &&
	dd if=/dev/urandom of="$1/a/big" bs=1M count=8 status=none &&
	for i in $(seq 1 200); do echo "file $i" > "$1/many/f$i"; done &&
	ln -s ../a/big "$1/many/link" && ln "$1/a/big" "$1/a/b/hard" &&
	cp -a "$top_srcdir/tests/lib" "$1/a/b/c/" && sync
}

# loop devices of this test only, detached at the end
loops=""
trap 'for l in $loops; do losetup -d $l 2>/dev/null; done; _cleanup' EXIT

echo "$MKFS_MATRIX" | while IFS=';' read -r name size esc opts; do
	[ -n "$name" ] || continue
	# shellcheck disable=SC2086
	if ! mkfs_run ours "$T/o" "$size" "$esc" $opts; then
		not_ok "$name: mkfs"; diag "$(head -3 "$T/o/err")"; continue
	fi
	# external log and realtime files are mounted through loop devices
	case "$opts" in *rtdev=*)
		if ! grep -qw xfs_rtalloc_query_range /proc/kallsyms 2>/dev/null &&
		   ! grep -q '^CONFIG_XFS_RT=y' "/boot/config-$(uname -r)" 2>/dev/null; then
			skip "$name: the kernel mounts it" "host kernel built without CONFIG_XFS_RT (t0305 mounts it in the VM rig)"
			continue
		fi ;;
	esac
	mopt=
	case "$opts" in *logdev=*)
		l=$(losetup -f --show "$T/o/log.img") && loops="$loops $l" &&
		mopt="logdev=$l" ;;
	esac
	case "$opts" in *rtdev=*)
		r=$(losetup -f --show "$T/o/rt.img") && loops="$loops $r" &&
		mopt="${mopt:+$mopt,}rtdev=$r" ;;
	esac
	if mount_img "$T/o/img" "$T/mnt" $mopt; then
		ok "$name: the kernel mounts it"
	else
		not_ok "$name: the kernel mounts it"; diag "$(dmesg | tail -5)"
		for l in $loops; do losetup -d "$l"; done; loops=
		continue
	fi
	check "$name: a tree of files goes in" populate "$T/mnt"
	sum=$(cat "$T/mnt/a/big" | md5sum)
	umount_img "$T/mnt"
	ropt=; case "$opts" in *agcount=1*) ropt="-o force_geometry" ;; esac
	ropt="$ropt $(mkfs_devopts "$opts")"
	# shellcheck disable=SC2086
	if (cd "$T/o" && $REF_REPAIR -n $ropt img) > "$T/rep" 2>&1; then
		ok "$name: xfs_repair -n clean after use"
	else
		not_ok "$name: xfs_repair -n clean after use"
		diag "$(tail -15 "$T/rep")"
	fi
	mount_img "$T/o/img" "$T/mnt" "ro${mopt:+,$mopt}"
	[ "$(cat "$T/mnt/a/big" | md5sum)" = "$sum" ] &&
		ok "$name: data reads back after remount" ||
		not_ok "$name: data reads back after remount"
	umount_img "$T/mnt"
	for l in $loops; do losetup -d "$l"; done; loops=
	rm -f "$T/o/img"
done > "$T/tap"
cat "$T/tap"
echo "1..$(grep -c '^\(not \)\?ok' "$T/tap")"
! grep -q '^not ok' "$T/tap"
