#!/bin/sh
# Random damage to the blocks of kernel-written directories of every form
# (a few bytes at a time; the checks go on past the stale CRC) never crashes or hangs
# dirtool or walkfs: every run ends with exit 0 or 1 (dirtool: 2 when the
# damaged short-form inode cannot be read at all).  Under the ASan
# build this is the proof that no length, count or pointer read from a
# directory block is trusted before it is bounded (a sanitizer error
# exits 99, see dir-check.sh).  FUZZ_ROUNDS (default
# 300) and FUZZ_SEED pick the damage; a failure prints the seed and round.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
. "$top_srcdir/tests/lib/dir-check.sh"

need_loop
need_ref
need_tool "$DIRTOOL"
need_tool "$WALKFS"
rounds=${FUZZ_ROUNDS:-300}
seed=${FUZZ_SEED:-$(date +%s)}
plan 3

img="$T/fuzz.img" mnt="$T/mnt"
truncate -s 512m "$img"
"$REF_MKFS" -q -f -n size=8192 "$img" || skip_all "reference mkfs failed"
mount_img "$img" "$mnt" || skip_all "cannot mount"
mkdir "$mnt/short" "$mnt/block" "$mnt/leaf" "$mnt/node"
touch "$mnt/short/a" "$mnt/short/bb"
(cd "$mnt/block" && seq 1 60 | sed 's/^/block-entry-/' | xargs touch)
(cd "$mnt/leaf" && seq 1 700 | sed 's/^/leaf-entry-/' | xargs touch)
(cd "$mnt/node" && seq 1 4000 | sed 's/^/node-entry-/' | xargs touch &&
	seq 1 3 4000 | sed 's/^/node-entry-/' | xargs rm)
inos=""
for d in short block leaf node; do inos="$inos $(stat -c %i "$mnt/$d")"; done
umount_img "$mnt"

# every fs block of the directories, as "INO BYTEOFFSET" (the short-form
# inode itself for the first)
bs=$("$REF_DB" -r -c "sb 0" -c "p blocksize" "$img" | awk '{ print $3 }')
agb=$("$REF_DB" -r -c "sb 0" -c "p agblocks" "$img" | awk '{ print $3 }')
: > "$T/blocks"
for i in $inos; do
	"$REF_DB" -r -c "inode $i" -c bmap "$img" | awk -v i="$i" -v bs="$bs" \
		-v agb="$agb" '/^data offset/ {
			split(substr($6, 2, length($6) - 2), a, "/")
			for (k = 0; k < $8; k++)
				print i, (a[1] * agb + a[2] + k) * bs, bs
		}' >> "$T/blocks"
done
isize=$("$REF_DB" -r -c "sb 0" -c "p inodesize" "$img" | awk '{ print $3 }')
sfi=$(echo $inos | cut -d' ' -f1)
"$REF_DB" -r -c "inode $sfi" -c stack "$img" | awk -v i="$sfi" -v n="$isize" \
	'/byte offset/ { sub(",", "", $3); print i, $3, n; exit }' >> "$T/blocks"
nblocks=$(wc -l < "$T/blocks")

ok=1
for i in $inos; do "$DIRTOOL" "$img" "$i" > /dev/null 2>&1 || ok=0; done
[ $ok = 1 ] && ok "the $nblocks directory blocks start clean" ||
	not_ok "the $nblocks directory blocks start clean"

# the damage of every round: a block (a line of $T/blocks), then 1-8
# (offset in it, byte) pairs; half the hits go to the first 128 bytes,
# where the headers and counts are
# (each line also says the block's inode and where the block starts: the
# loop below then starts no process to look them up)
awk -v n="$rounds" -v seed="$seed" 'NR == FNR { ino[NR] = $1; base[NR] = $2; size[NR] = $3; nb = NR; next }
END {
	srand(seed)
	for (r = 0; r < n; r++) {
		line = int(rand() * nb) + 1
		k = int(rand() * 8) + 1
		s = r " " ino[line] " " base[line]
		for (j = 0; j < k; j++) {
			off = rand() < 0.5 ? int(rand() * 128) : int(rand() * size[line])
			s = s " " off ":" int(rand() * 256)
		}
		print s
	}
}' "$T/blocks" /dev/null > "$T/rounds"

bad=""
while read -r r ino base hits; do
	# the fs block holding the damaged bytes (an inode lies inside one)
	dd if="$img" of="$T/save" bs="$bs" skip=$((base / bs)) count=1 2>/dev/null
	# every byte of the round in one process
	set --
	for h in $hits; do
		set -- "$@" -c "pwrite -q -S ${h#*:} $((base + ${h%:*})) 1"
	done
	"$REF_IO" "$@" "$img"
	timeout 60 "$DIRTOOL" "$img" "$ino" > /dev/null 2>&1
	rc=$?
	# 2: the damaged short-form inode could not be read at all
	[ $rc -le 2 ] || bad="$bad round$r:dirtool=$rc"
	if [ $((r % 10)) = 0 ]; then
		timeout 120 "$WALKFS" -q "$img" > /dev/null 2>&1
		rc=$?
		[ $rc -le 1 ] || bad="$bad round$r:walkfs=$rc"
	fi
	dd if="$T/save" of="$img" bs="$bs" seek=$((base / bs)) conv=notrunc 2>/dev/null
done < "$T/rounds"
if [ -z "$bad" ]; then
	ok "$rounds rounds of damage (seed $seed): no crash, no hang"
else
	not_ok "$rounds rounds of damage (seed $seed): no crash, no hang"
	diag "$bad"
fi
ok=1
for i in $inos; do "$DIRTOOL" "$img" "$i" > /dev/null 2>&1 || ok=0; done
[ $ok = 1 ] && ok "every damage was undone: the directories are clean again" ||
	not_ok "every damage was undone: the directories are clean again"
done_testing
