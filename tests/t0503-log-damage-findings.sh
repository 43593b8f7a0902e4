#!/bin/sh
# A damaged log gives the finding that names the damage, a non-zero exit
# and no crash (in the sanitizer build too): a record header's magic
# (LOG_NO_RECORD on a fresh log; LOG_HEAD_GAP when a complete record
# precedes it), its CRC (LOG_BAD_CRC), its UUID (LOG_BAD_UUID), an absurd
# length (LOG_BAD_LEN), a record damaged far behind the head (LOG_BAD_CRC)
# and one at the head, which is a torn write (LOG_TORN_WRITE, a warning)
# where the kernel, mounting it, trims the head to the same block.
# Random bytes over the whole log must not crash either.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
. "$top_srcdir/tests/lib/log-lib.sh"

need_ref
need_tool "$LOGTOOL"

plan 18

# expect NAME IMAGE CODE: walkfs and logtool both exit 1 (not a crash)
# and report CODE
expect() {
	"$WALKFS" -q "$2" > "$T/walk.out" 2>&1
	_w=$?
	"$LOGTOOL" check "$2" > "$T/lt.out" 2>&1
	_l=$?
	if [ $_w -eq 1 ] && grep -q "\[$3\]" "$T/walk.out" && ! sanitizer_report "$T/walk.out"; then
		ok "$1: walkfs reports $3"
	else
		not_ok "$1: walkfs reports $3 (exit $_w)"
		diag "$(grep -v '^walkfs: directory' "$T/walk.out" | head -5)"
	fi
	if [ $_l -eq 1 ] && grep -q "\[$3\]" "$T/lt.out" && ! sanitizer_report "$T/lt.out"; then
		ok "$1: log_check reports $3"
	else
		not_ok "$1: log_check reports $3 (exit $_l)"
		diag "$(head -5 "$T/lt.out")"
	fi
}

truncate -s 512M "$T/fresh.img"
"$REF_MKFS" -q -f "$T/fresh.img"

cp --sparse=always "$T/fresh.img" "$T/x.img"
log_poke "$T/x.img" 0 0 feedbabf
expect "fresh, header magic" "$T/x.img" LOG_NO_RECORD

cp --sparse=always "$T/fresh.img" "$T/x.img"
log_poke "$T/x.img" 0 32 1badc0de
expect "fresh, header CRC" "$T/x.img" LOG_BAD_CRC

cp --sparse=always "$T/fresh.img" "$T/x.img"
log_flip "$T/x.img" 0 308
expect "fresh, header UUID" "$T/x.img" LOG_BAD_UUID

cp --sparse=always "$T/fresh.img" "$T/x.img"
log_poke "$T/x.img" 0 12 7fffff00
expect "fresh, header h_len" "$T/x.img" LOG_BAD_LEN

cp --sparse=always "$T/fresh.img" "$T/x.img"
set -- $(log_region "$T/x.img")
# fixed noise (compressed counting), the same on every run
k=0
while [ $k -le $(($2 / 200000)) ]; do
	seq $((k * 100000 + 1)) $((k * 100000 + 100000)) | gzip -n -1
	k=$((k + 1))
done > "$T/noise"
[ "$(wc -c < "$T/noise")" -ge "$2" ] || not_ok "fixed noise covers the log"
dd if="$T/noise" of="$T/x.img" bs=512 seek=$(($1 / 512)) count=$(($2 / 512)) \
	conv=notrunc status=none
"$WALKFS" -q "$T/x.img" >"$T/out" 2>&1; rc=$?
[ $rc -eq 1 ] && ! sanitizer_report "$T/out" && ok "random log: walkfs exits 1" ||
	not_ok "random log: walkfs exits 1 (got $rc)"
"$LOGTOOL" check "$T/x.img" >"$T/out" 2>&1; rc=$?
[ $rc -eq 1 ] && ! sanitizer_report "$T/out" && ok "random log: log_check exits 1" ||
	not_ok "random log: log_check exits 1 (got $rc)"
"$LOGTOOL" print "$T/x.img" >"$T/out" 2>&1; rc=$?
[ $rc -le 1 ] && ! sanitizer_report "$T/out" && ok "random log: printing records does not crash" ||
	not_ok "random log: printing records does not crash (got $rc)"

if [ "$(id -u)" -ne 0 ] || ! losetup -f >/dev/null 2>&1 || [ ! -x "$REF_IO" ]; then
	for t in 1 2 3 4 5 6 7; do skip "kernel-written log damage" "needs root, loop devices and xfs_io"; done
	done_testing
fi

# a clean log written by the kernel: lose the unmount record's header
cp --sparse=always "$T/fresh.img" "$T/k.img"
mount_img "$T/k.img" "$T/mnt"
for i in $(seq 1 50); do echo "$i" > "$T/mnt/f$i"; done
umount_img "$T/mnt"
last=$("$LOGTOOL" check "$T/k.img" | awk '{ split($7, l, ":"); print l[2] }')
log_poke "$T/k.img" "$last" 3 bf
expect "kernel log, unmount record magic" "$T/k.img" LOG_HEAD_GAP

# a dirty log of many records (one per fsync, 256 KiB each)
truncate -s 512M "$T/d.img"
"$REF_MKFS" -q -f -l su=256k "$T/d.img"
mount_img "$T/d.img" "$T/mnt"
args=""
for i in $(seq 0 40); do
	args="$args -c 'pwrite -q $((i * 4096)) 4096' -c fsync"
done
eval "\"$REF_IO\" -f $args \"$T/mnt/file\""
"$REF_IO" -x -c "shutdown -f" "$T/mnt"
umount_img "$T/mnt"
"$LOGTOOL" check "$T/d.img" > "$T/out"
set -- $(head -1 "$T/out" | awk '{ split($3, h, ":"); split($7, l, ":"); print h[2], l[2], $9 }')
head=$1 last=$2 tail=$3

# damage far behind the head: the first record replay would read
cp --sparse=always "$T/d.img" "$T/x.img"
log_flip "$T/x.img" $((tail + 9)) 100 4
expect "dirty log, record behind the head" "$T/x.img" LOG_BAD_CRC

# damage in the last record: a torn write; the head goes back to it
cp --sparse=always "$T/d.img" "$T/x.img"
log_flip "$T/x.img" $((last + 9)) 100 4
"$LOGTOOL" check "$T/x.img" > "$T/out" 2>"$T/err"; rc=$?
grep -q "\[LOG_TORN_WRITE\]" "$T/out" && ! grep -q "\[LOG_BAD_CRC\]" "$T/out" &&
	! sanitizer_report "$T/err" &&
	[ $rc -eq 1 ] &&
	ok "torn last record: LOG_TORN_WRITE, not LOG_BAD_CRC" ||
	{ not_ok "torn last record: LOG_TORN_WRITE, not LOG_BAD_CRC"; diag "$(cat "$T/out")"; }
ourhead=$(head -1 "$T/out" | awk '{ split($3, h, ":"); print h[2] }')
[ "$ourhead" = "$last" ] && head -1 "$T/out" | grep -q trimmed &&
	ok "torn last record: head trimmed to $last" ||
	not_ok "torn last record: head trimmed to $last (got $ourhead)"
# the kernel agrees: it says so when it mounts (and replays) the log
# (kernel messages after this moment only: the ring buffer may be full)
since=$(dmesg | tail -1 | sed 's/^\[ *\([0-9]*\.[0-9]*\)\].*/\1/')
if mount_img "$T/x.img" "$T/mnt"; then
	umount_img "$T/mnt"
	dmesg | awk -v t="${since:-0}" '{ s = $0; sub(/^\[ */, "", s);
		if (s + 0 > t + 0) print }' | grep -q "Torn write (CRC failure) detected at log block $(printf '0x%x' "$last")\. Truncating head block from $(printf '0x%x' "$head")" &&
		ok "kernel trims the torn write at the same block" ||
		{ not_ok "kernel trims the torn write at the same block"; diag "$(dmesg | tail -5)"; }
else
	not_ok "kernel mounts the log with a torn write"
fi
done_testing
