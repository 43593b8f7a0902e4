#!/bin/sh
# Our head, tail and clean/dirty state are the ones xfs_logprint (the
# reference's log recovery code) finds, on logs the kernel wrote: a fresh
# mkfs image is clean; mounted, written and cleanly unmounted it is clean;
# shut down before unmount it is dirty and walkfs says so (xfs_io -x -c
# "shutdown -f" flushes the log first; a plain "shutdown" after a sync
# leaves the synced records), and once the kernel has replayed it, clean
# again; a log that has gone round the ring into cycle 2 and an external
# log agree too.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
sanitized_skip "clean images, compared with the reference: the normal pass runs it"

need_ref
need_loop
LOGTOOL="$top_builddir/tests/tools/logtool"
REF_LOGPRINT=/usr/sbin/xfs_logprint
REF_IO=/usr/sbin/xfs_io
need_tool "$LOGTOOL"
[ -x "$REF_LOGPRINT" ] && [ -x "$REF_IO" ] ||
	skip_all "xfs_logprint or xfs_io not installed"

plan 14

# "state head-block replay-block" from us and from xfs_logprint
ours() {
	"$LOGTOOL" check "$@" | head -1 |
		awk '{ split($3, h, ":"); print $1, h[2], $9 }'
}
theirs() {
	"$REF_LOGPRINT" -t "$@" 2>&1 |
		sed -n 's/.*log tail: \([0-9]*\) head: \([0-9]*\) state: <\([A-Z]*\)>.*/\3 \2 \1/p' |
		tr 'A-Z' 'a-z'
}
# same NAME EXPECTED-STATE [-l LOGDEV] IMAGE
same() {
	_name=$1 _want=$2
	shift 2
	_o=$(ours "$@") _t=$(theirs "$@")
	if [ -n "$_o" ] && [ "$_o" = "$_t" ] && [ "${_o%% *}" = "$_want" ]; then
		ok "$_name: $_o, as xfs_logprint"
	else
		not_ok "$_name: ours '$_o', xfs_logprint '$_t', want $_want"
	fi
}

truncate -s 512M "$T/a.img"
"$REF_MKFS" -q -f "$T/a.img"
same "fresh mkfs" clean "$T/a.img"
out=$("$WALKFS" -v -q "$T/a.img" 2>&1)
echo "$out" | grep -q "^log: internal.*: clean, head 1:2, tail 1:2$" &&
	! echo "$out" | grep -q "LOG_" &&
	ok "walkfs -v: fresh log clean at 1:2, no log finding" ||
	{ not_ok "walkfs -v: fresh log clean at 1:2, no log finding"; diag "$out"; }

mount_img "$T/a.img" "$T/mnt"
for i in $(seq 1 100); do echo "$i" > "$T/mnt/f$i"; done
mkdir "$T/mnt/dir"
umount_img "$T/mnt"
same "written, unmounted" clean "$T/a.img"
"$LOGTOOL" check "$T/a.img" >/dev/null &&
	ok "written, unmounted: no finding" || not_ok "written, unmounted: no finding"

mount_img "$T/a.img" "$T/mnt"
for i in $(seq 1 100); do echo "$i" > "$T/mnt/g$i"; done
"$REF_IO" -x -c "shutdown -f" "$T/mnt"
umount_img "$T/mnt"
same "shut down" dirty "$T/a.img"
out=$("$WALKFS" -v -q "$T/a.img" 2>&1)
echo "$out" | grep -q "^log: internal.*: dirty, head" &&
	echo "$out" | grep -q "LOG_DIRTY" &&
	ok "walkfs -v: shut-down log reported dirty" ||
	{ not_ok "walkfs -v: shut-down log reported dirty"; diag "$out"; }
"$LOGTOOL" check "$T/a.img" > "$T/out"
[ "$(grep -c '\[LOG_' "$T/out")" = 1 ] &&
	ok "shut down: LOG_DIRTY is the only finding" ||
	{ not_ok "shut down: LOG_DIRTY is the only finding"; diag "$(cat "$T/out")"; }

mount_img "$T/a.img" "$T/mnt" && umount_img "$T/mnt"
same "replayed by the kernel" clean "$T/a.img"

# a plain shutdown after a sync: the synced records are on disk
mount_img "$T/a.img" "$T/mnt"
for i in $(seq 1 30); do echo "$i" > "$T/mnt/h$i"; done
sync -f "$T/mnt/h1"
echo more > "$T/mnt/h31"
"$REF_IO" -x -c "shutdown" "$T/mnt"
umount_img "$T/mnt"
same "sync, then shutdown" dirty "$T/a.img"

# into cycle 2: every fsync writes a record padded to the 256 KiB sunit
truncate -s 512M "$T/w.img"
"$REF_MKFS" -q -f -l su=256k "$T/w.img"
mount_img "$T/w.img" "$T/mnt"
args=""
for i in $(seq 0 300); do
	args="$args -c 'pwrite -q $((i * 4096)) 4096' -c fsync"
done
eval "\"$REF_IO\" -f $args \"$T/mnt/file\""
"$REF_IO" -x -c "shutdown -f" "$T/mnt"
umount_img "$T/mnt"
same "wrapped into cycle 2" dirty "$T/w.img"
"$LOGTOOL" check "$T/w.img" | head -1 | grep -q "^dirty head 2:" &&
	ok "wrapped: head in cycle 2" || not_ok "wrapped: head in cycle 2"
mount_img "$T/w.img" "$T/mnt" && umount_img "$T/mnt"
same "wrapped, replayed" clean "$T/w.img"

# an external log
truncate -s 512M "$T/e.img"
truncate -s 64M "$T/e.log"
"$REF_MKFS" -q -f -l logdev="$T/e.log",size=64m "$T/e.img"
same "external, fresh" clean -l "$T/e.log" "$T/e.img"
loopdev=$(losetup -f --show "$T/e.log")
if mount_img "$T/e.img" "$T/mnt" "logdev=$loopdev"; then
	for i in $(seq 1 50); do echo "$i" > "$T/mnt/f$i"; done
	"$REF_IO" -x -c "shutdown -f" "$T/mnt"
	umount_img "$T/mnt"
	losetup -d "$loopdev"
	same "external, shut down" dirty -l "$T/e.log" "$T/e.img"
else
	losetup -d "$loopdev"
	not_ok "external, shut down: mount with logdev"
fi
done_testing
