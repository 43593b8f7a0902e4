#!/bin/sh
# A log written by log_format() is one the kernel and the reference
# xfs_repair accept: for a cycle-1 log on a fresh image, and on a used
# image (metadata LSNs in cycle 1) for a later cycle with real
# record CRCs, xfs_repair's 256 KiB layout and a 64 KiB log stripe unit,
# "xfs_repair -n" exits 0 on the reformatted image, the kernel mounts it,
# a file written then survives a remount, and repair still exits 0 after
# the kernel has used the log.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
sanitized_skip "clean images, compared with the reference: the normal pass runs it"

need_ref
need_loop
LOGTOOL="$top_builddir/tests/tools/logtool"
need_tool "$LOGTOOL"

plan 12

# try NAME USED MKFS-OPTS LOGTOOL-OPTS: USED=1 mounts and writes the
# filesystem before its log is rewritten
try() {
	_n=$1 _used=$2 _mk=$3 _lt=$4
	truncate -s 512M "$T/$_n.img"
	"$REF_MKFS" -q -f $_mk "$T/$_n.img"
	_want=after
	if [ "$_used" = 1 ]; then
		mount_img "$T/$_n.img" "$T/mnt" && echo before > "$T/mnt/before" &&
			umount_img "$T/mnt"
		_want="after
before"
	fi
	if ! "$LOGTOOL" format $_lt "$T/$_n.img"; then
		not_ok "$_n: logtool format $_lt"
		return
	fi
	"$REF_REPAIR" -n "$T/$_n.img" > "$T/$_n.rep" 2>&1 &&
		ok "$_n: xfs_repair -n accepts our log" ||
		{ not_ok "$_n: xfs_repair -n accepts our log"; diag "$(tail -5 "$T/$_n.rep")"; }
	if mount_img "$T/$_n.img" "$T/mnt" && echo after > "$T/mnt/after" &&
	   umount_img "$T/mnt" && mount_img "$T/$_n.img" "$T/mnt" &&
	   [ "$(cat "$T/mnt/after" "$T/mnt/before" 2>/dev/null)" = "$_want" ] &&
	   umount_img "$T/mnt"; then
		ok "$_n: kernel mounts, writes and remounts"
	else
		not_ok "$_n: kernel mounts, writes and remounts"
		diag "$(dmesg | tail -5)"
		umount "$T/mnt" 2>/dev/null
	fi
	"$REF_REPAIR" -n "$T/$_n.img" > "$T/$_n.rep" 2>&1 &&
		ok "$_n: xfs_repair -n after the kernel used the log" ||
		{ not_ok "$_n: xfs_repair -n after the kernel used the log"; diag "$(tail -5 "$T/$_n.rep")"; }
	rm -f "$T/$_n.img"
}

# Once mounted, metadata carries LSNs of cycle 1, so a used filesystem
# gets a later cycle that keeps them in the past, as xfs_repair does.
try fresh 0 "" ""
try cycle7crc 1 "" "-c 7 -C"
try maxrec 1 "" "-c 4 -M"
try su64k 1 "-l su=64k" "-c 3 -C"
done_testing
