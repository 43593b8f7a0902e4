#!/bin/sh
# The Linux kernel mounts what our mkfs.xfs makes, for every option set of
# the mkfs matrix: it takes a tree of files (directories, a large file,
# small files, a symlink, a hard link), unmounts, and the reference
# xfs_repair -n still finds the filesystem clean.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
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

echo "$MKFS_MATRIX" | while IFS=';' read -r name size esc opts; do
	[ -n "$name" ] || continue
	# shellcheck disable=SC2086
	if ! mkfs_run ours "$T/o" "$size" "$esc" $opts; then
		not_ok "$name: mkfs"; diag "$(head -3 "$T/o/err")"; continue
	fi
	if mount_img "$T/o/img" "$T/mnt"; then
		ok "$name: the kernel mounts it"
	else
		not_ok "$name: the kernel mounts it"; diag "$(dmesg | tail -5)"
		continue
	fi
	check "$name: a tree of files goes in" populate "$T/mnt"
	sum=$(cat "$T/mnt/a/big" | md5sum)
	umount_img "$T/mnt"
	ropt=; case "$opts" in *agcount=1*) ropt="-o force_geometry" ;; esac
	# shellcheck disable=SC2086
	if $REF_REPAIR -n $ropt "$T/o/img" > "$T/rep" 2>&1; then
		ok "$name: xfs_repair -n clean after use"
	else
		not_ok "$name: xfs_repair -n clean after use"
		diag "$(tail -15 "$T/rep")"
	fi
	mount_img "$T/o/img" "$T/mnt" ro
	[ "$(cat "$T/mnt/a/big" | md5sum)" = "$sum" ] &&
		ok "$name: data reads back after remount" ||
		not_ok "$name: data reads back after remount"
	umount_img "$T/mnt"
	rm -f "$T/o/img"
done > "$T/tap"
cat "$T/tap"
echo "1..$(grep -c '^\(not \)\?ok' "$T/tap")"
! grep -q '^not ok' "$T/tap"
