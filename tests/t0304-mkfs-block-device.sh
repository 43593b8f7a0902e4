#!/bin/sh
# On a block device (a loop device, also one with 4 KiB sectors) our
# mkfs.xfs prints the reference's summary (the discard line included),
# sizes the filesystem from the device, takes the sector size from the
# device's topology, writes what the reference writes, and the kernel
# mounts it; a mounted device is refused with the reference's message.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
sanitized_skip "clean images, compared with the reference: the normal pass runs it"
. "$top_srcdir/tests/lib/mkfs-compare.sh"
need_loop
need_ref
need_tool "$XK_MKFS"
plan 10

UUID=0d7c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b
loops=""
trap 'for l in $loops; do losetup -d $l 2>/dev/null; done; _cleanup' EXIT

for ss in 512 4096; do
	truncate -s 2g "$T/back$ss"
	dev=$(losetup -f --show --sector-size $ss "$T/back$ss") || {
		skip "sector $ss" "losetup --sector-size failed"; continue; }
	loops="$loops $dev"
	"$REF_MKFS" -f -m rmapbt=1,uuid=$UUID "$dev" > "$T/r.out" 2>&1
	mkfs_dump "$dev" > "$T/r.dump"
	"$XK_MKFS" -f -m uuid=$UUID "$dev" > "$T/o.out" 2>&1; orc=$?
	mkfs_dump "$dev" > "$T/o.dump"
	[ $orc -eq 0 ] && ok "sector $ss: mkfs on $dev" || not_ok "sector $ss: mkfs on $dev"
	diff "$T/r.out" "$T/o.out" > "$T/d" && ok "sector $ss: the reference's summary" ||
		{ not_ok "sector $ss: the reference's summary"; diag "$(cat "$T/d")"; }
	diff "$T/r.dump" "$T/o.dump" > "$T/d" && ok "sector $ss: the reference's filesystem" ||
		{ not_ok "sector $ss: the reference's filesystem"; diag "$(head -20 "$T/d")"; }
	if mount "$dev" "$T/mnt" 2>/dev/null || { mkdir -p "$T/mnt" && mount "$dev" "$T/mnt"; }; then
		cp -a "$top_srcdir/tests/lib" "$T/mnt/" && sync
		"$XK_MKFS" -f "$dev" > "$T/o.out" 2>&1; orc=$?
		"$REF_MKFS" -f "$dev" > "$T/r.out" 2>&1; rrc=$?
		[ $orc -eq 1 ] && [ $rrc -eq 1 ] && diff "$T/r.out" "$T/o.out" > /dev/null &&
			ok "sector $ss: a mounted device is refused" ||
			not_ok "sector $ss: a mounted device is refused ($orc)"
		umount "$T/mnt"
		$REF_REPAIR -n "$dev" > /dev/null 2>&1 && ok "sector $ss: clean after use" ||
			not_ok "sector $ss: clean after use"
	else
		not_ok "sector $ss: the kernel mounts it"
		skip "sector $ss: mounted device" "not mounted"
	fi
done
done_testing
