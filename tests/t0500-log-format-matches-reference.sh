#!/bin/sh
# log_format() writes byte for byte the log that the reference xfsprogs 6.1
# writes for the same geometry: mkfs.xfs with no log stripe unit, 64 KiB
# and 256 KiB ones, 1 KiB blocks, 4 KiB sectors (records padded to the
# sector) and an external log; xfs_db "logformat -c 5" (a later cycle);
# and xfs_repair's reformat to a later cycle with 256 KiB filler records
# on a log whose size is not a multiple of them.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
sanitized_skip "clean images, compared with the reference: the normal pass runs it"
. "$top_srcdir/tests/lib/log-lib.sh"

need_ref
need_tool "$LOGTOOL"

plan 9

# same_as_mkfs NAME MKFS-OPTIONS...: our rewrite of the log gives the
# reference's log (for "plain", the whole image is compared: nothing
# outside the log is touched)
same_as_mkfs() {
	_name=$1
	shift
	truncate -s 512M "$T/$_name.img"
	"$REF_MKFS" -q -f "$@" "$T/$_name.img" || { not_ok "$_name: mkfs"; return; }
	cp --sparse=always "$T/$_name.img" "$T/$_name.ours"
	# scribble over the log first so that nothing is left by chance
	set -- $(log_region "$T/$_name.img")
	dd if=/dev/urandom of="$T/$_name.ours" bs=512 seek=$(($1 / 512)) \
		count=64 conv=notrunc status=none
	if ! "$LOGTOOL" format "$T/$_name.ours"; then
		not_ok "$_name: logtool format"
	elif [ "$_name" = plain ]; then
		cmp -s "$T/$_name.img" "$T/$_name.ours" &&
			ok "$_name: image identical to mkfs.xfs's" ||
			not_ok "$_name: image identical to mkfs.xfs's"
	else
		extract_log "$T/$_name.img" "$T/$_name.reflog"
		extract_log "$T/$_name.ours" "$T/$_name.ourlog"
		cmp -s "$T/$_name.reflog" "$T/$_name.ourlog" &&
			ok "$_name: log identical to mkfs.xfs's" ||
			{ not_ok "$_name: log identical to mkfs.xfs's"
			  diag "$(cmp "$T/$_name.reflog" "$T/$_name.ourlog" 2>&1)"; }
		rm -f "$T/$_name.reflog" "$T/$_name.ourlog"
	fi
	rm -f "$T/$_name.ours"
}

same_as_mkfs plain
same_as_mkfs su64k -l su=64k
same_as_mkfs su256k -l su=256k
same_as_mkfs b1k -b size=1024
same_as_mkfs sect4k -s size=4096

# external log device
truncate -s 512M "$T/ext.img"
truncate -s 64M "$T/ext.log"
"$REF_MKFS" -q -f -l logdev="$T/ext.log",size=64m "$T/ext.img"
cp "$T/ext.log" "$T/ext.ours"
dd if=/dev/urandom of="$T/ext.ours" bs=512 count=64 conv=notrunc status=none
"$LOGTOOL" format -l "$T/ext.ours" "$T/ext.img" &&
	cmp -s "$T/ext.log" "$T/ext.ours" &&
	ok "external log identical to mkfs.xfs's" ||
	not_ok "external log identical to mkfs.xfs's"

# xfs_db logformat -c 5: block 0 in cycle 5, 2-block records of cycle 4
cp --sparse=always "$T/plain.img" "$T/db5.img"
"$REF_DB" -x -c "logformat -c 5" "$T/db5.img" >/dev/null
cp --sparse=always "$T/plain.img" "$T/ours5.img"
"$LOGTOOL" format -c 5 "$T/ours5.img" &&
	extract_log "$T/db5.img" "$T/db5.log" &&
	extract_log "$T/ours5.img" "$T/ours5.log" &&
	cmp -s "$T/db5.log" "$T/ours5.log" &&
	ok "cycle 5 identical to xfs_db logformat -c 5" ||
	not_ok "cycle 5 identical to xfs_db logformat -c 5"
rm -f "$T/db5.img" "$T/ours5.img" "$T/db5.log" "$T/ours5.log"

# the same with a 64 KiB log stripe unit (xfs_db takes it from the sb)
"$REF_DB" -x -c "logformat -c 9" "$T/su64k.img" >/dev/null
cp --sparse=always "$T/su64k.img" "$T/ours9.img"
"$LOGTOOL" format -c 9 "$T/ours9.img" &&
	extract_log "$T/su64k.img" "$T/db9.log" &&
	extract_log "$T/ours9.img" "$T/ours9.log" &&
	cmp -s "$T/db9.log" "$T/ours9.log" &&
	ok "cycle 9, 64 KiB stripe unit identical to xfs_db logformat" ||
	not_ok "cycle 9, 64 KiB stripe unit identical to xfs_db logformat"
rm -f "$T/ours9.img" "$T/db9.log" "$T/ours9.log"

# xfs_repair moves a log behind the metadata LSNs to a later cycle with
# 256 KiB records; 17000 blocks leave a short last record
truncate -s 1G "$T/rep.img"
"$REF_MKFS" -q -f -l size=17000b "$T/rep.img"
if mount_img "$T/rep.img" "$T/mnt"; then
	for i in 1 2 3 4 5 6 7 8; do echo "$i" > "$T/mnt/f$i"; done
	mkdir "$T/mnt/d"
	umount_img "$T/mnt"
	cp --sparse=always "$T/rep.img" "$T/rep.ours"
	cyc=$("$REF_REPAIR" -L "$T/rep.img" 2>&1 |
		sed -n 's/^Format log to cycle \([0-9]*\)\..*/\1/p')
	extract_log "$T/rep.img" "$T/rep.log"
	if [ -n "$cyc" ] && "$LOGTOOL" format -M -c "$cyc" "$T/rep.ours"; then
		extract_log "$T/rep.ours" "$T/rep.ourslog"
		cmp -s "$T/rep.log" "$T/rep.ourslog" &&
			ok "cycle $cyc with 256 KiB records identical to xfs_repair's" ||
			not_ok "cycle $cyc with 256 KiB records identical to xfs_repair's"
	else
		not_ok "xfs_repair reformatted to a later cycle (got '$cyc')"
	fi
else
	skip "xfs_repair's reformat to a later cycle" "cannot loop-mount"
fi
done_testing
