#!/bin/sh
# The realtime option sets of the mkfs matrix work under a kernel that has
# realtime support (the host's may not: t0301 skips them there): in the
# VM rig (../shared/vmrig) the kernel mounts what our mkfs.xfs made with
# its realtime device, takes files with the realtime flag (inherited from
# the root directory) whose blocks land on the realtime device, reads them
# back after a read-only remount; and afterwards the reference
# xfs_repair -n -r and ours find the filesystem clean.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
sanitized_skip "clean images, compared with the reference: the normal pass runs it"
. "$top_srcdir/tests/lib/mkfs-matrix.sh"
. "$top_srcdir/tests/lib/mkfs-compare.sh"
need_root
need_ref
need_tool "$XK_MKFS"
need_tool "$XK_REPAIR"
need_vmrig

sets=$(echo "$MKFS_MATRIX" | grep 'rtdev=')
[ -n "$sets" ] || skip_all "the mkfs matrix has no realtime set"
plan $(( $(echo "$sets" | wc -l) * 4 ))

# What runs in the VM: mount with the realtime device, make the root
# inherit the realtime flag, write a large and a few small files, print
# their flags and where the large one's blocks are, remount read-only and
# print the checksums again.
vmjob='mount -o rtdev=/dev/vdb /dev/vda /mnt || exit 3
xfs_io -c "chattr +t" /mnt || exit 4
dd if=/dev/urandom of=/mnt/big bs=1M count=6 2>/dev/null || exit 5
for i in 1 2 3 4 5; do echo "small $i" > /mnt/s$i || exit 5; done
mkdir /mnt/d && echo inside > /mnt/d/f || exit 5
sync
echo "xflags: $(xfs_io -c stat /mnt/big | sed -n "s/^fsxattr.xflags = //p")"
xfs_io -c "bmap -v" /mnt/big | grep -c "RT-BLOCK-RANGE" | sed "s/^/rtmap: /"
echo "before: $(cat /mnt/big /mnt/s* /mnt/d/f | md5sum)"
umount /mnt || exit 6
mount -o ro,rtdev=/dev/vdb /dev/vda /mnt || exit 7
echo "after: $(cat /mnt/big /mnt/s* /mnt/d/f | md5sum)"
umount /mnt || exit 8'

echo "$sets" > "$T/sets"
while IFS=';' read -r name size esc opts; do
	# shellcheck disable=SC2086
	if ! mkfs_run ours "$T/o" "$size" "$esc" $opts; then
		not_ok "$name: mkfs"; diag "$(head -3 "$T/o/err")"
		skip "$name: files on the realtime device" "no filesystem"
		skip "$name: reads back" "no filesystem"
		skip "$name: xfs_repair -n clean after use" "no filesystem"
		continue
	fi
	"$VMRIG/run-in-vm.sh" --timeout 300 --disk "$T/o/rt.img" \
		"$VMRIG_KERNEL" "$T/o/img" -- sh -c "$vmjob" > "$T/vm" 2>&1 < /dev/null
	rc=$?
	if [ $rc -eq 0 ]; then
		ok "$name: the kernel mounts it with its realtime device"
	else
		not_ok "$name: the kernel mounts it with its realtime device"
		diag "exit $rc" "$(tail -5 "$T/vm")"
	fi
	# the large file carries the realtime flag (xflags' first letter)
	# and its block map is a realtime one
	if grep -q '^xflags: 0x[0-9a-f]* \[r' "$T/vm" && grep -q '^rtmap: 1' "$T/vm"; then
		ok "$name: files on the realtime device"
	else
		not_ok "$name: files on the realtime device"; diag "$(cat "$T/vm")"
	fi
	b=$(sed -n 's/^before: //p' "$T/vm") a=$(sed -n 's/^after: //p' "$T/vm")
	if [ -n "$b" ] && [ "$b" = "$a" ]; then
		ok "$name: reads back after a read-only remount"
	else
		not_ok "$name: reads back after a read-only remount"; diag "$(cat "$T/vm")"
	fi
	ropt="$(mkfs_devopts "$opts")"
	# shellcheck disable=SC2086
	if (cd "$T/o" && $REF_REPAIR -n $ropt img) > "$T/rep" 2>&1 &&
	   (cd "$T/o" && $XK_REPAIR -n $ropt img) > "$T/ours" 2>&1; then
		ok "$name: xfs_repair -n clean after use (reference and ours)"
	else
		not_ok "$name: xfs_repair -n clean after use (reference and ours)"
		diag "$(tail -8 "$T/rep")" "$(tail -8 "$T/ours")"
	fi
	rm -f "$T/o/img" "$T/o/rt.img"
done < "$T/sets"
done_testing
