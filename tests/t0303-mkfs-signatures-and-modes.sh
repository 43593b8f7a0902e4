#!/bin/sh
# What mkfs.xfs does with what is already on the target, and its modes:
# an old XFS, ext4, swap or a partition table (found by libblkid) is
# refused without -f, with the reference's message, and nothing written;
# with -f it is replaced, and an old XFS's secondary superblocks are gone.
# -N prints the reference's summary and writes nothing; -q prints nothing;
# -V names the version; -c reads a config file as the reference does; an
# image's stale blocks are punched unless -K.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
sanitized_skip "clean images, compared with the reference: the normal pass runs it"
. "$top_srcdir/tests/lib/mkfs-compare.sh"
need_ref
need_tool "$XK_MKFS"

img=$T/img
# refuse_then_force DESC MAKER...: put a signature with MAKER, expect a refusal,
# then -f to succeed and leave an XFS.
refuse_then_force() {
	desc=$1; shift
	rm -f "$img"; truncate -s 1g "$img"
	"$@" > /dev/null 2>&1
	before=$(sum_img "$img")
	(cd "$T" && "$XK_MKFS" img) > /dev/null 2> "$T/o.err"; orc=$?
	(cd "$T" && "$REF_MKFS" -N img) > /dev/null 2> "$T/r.err"
	[ $orc -eq 1 ] && [ "$(sum_img "$img")" = "$before" ] &&
		ok "$desc: refused without -f, nothing written" ||
		not_ok "$desc: refused without -f, nothing written (rc $orc)"
	diff "$T/r.err" "$T/o.err" > "$T/d" && ok "$desc: the reference's message" ||
		{ not_ok "$desc: the reference's message"; diag "$(cat "$T/d")"; }
	"$XK_MKFS" -q -f "$img" && [ "$(blkid -p -o value -s TYPE "$img")" = xfs ] &&
		$REF_REPAIR -n "$img" > /dev/null 2>&1 &&
		ok "$desc: replaced with -f" || not_ok "$desc: replaced with -f"
}

refuse_then_force "old XFS" "$REF_MKFS" -q -f -d agcount=8 "$img"
# the old fs had 8 AGs of 32768 blocks; ours has 4 of 65536: the odd old
# secondaries must not survive
left=0
for ag in 1 3 5 7; do
	m=$(dd if="$img" bs=4096 skip=$((ag * 32768)) count=1 status=none | head -c 4)
	[ "$m" = XFSB ] && left=$((left + 1))
done
[ $left -eq 0 ] && ok "old XFS: stale secondary superblocks are gone" ||
	not_ok "old XFS: $left stale secondary superblocks left"
if command -v mkfs.ext4 > /dev/null; then
	refuse_then_force "ext4" mkfs.ext4 -q -F "$img"
else
	skip "ext4" "mkfs.ext4 not installed"; skip "ext4" "-"; skip "ext4" "-"
fi
if command -v mkswap > /dev/null; then
	refuse_then_force "swap" mkswap "$img"
else
	skip "swap" "mkswap not installed"; skip "swap" "-"; skip "swap" "-"
fi
mbr() {
	printf '\0\0\0\0\203\0\0\0\0\010\0\0\0\020\0\0' |
		dd of="$img" bs=1 seek=446 conv=notrunc status=none
	printf '\125\252' | dd of="$img" bs=1 seek=510 conv=notrunc status=none
}
refuse_then_force "partition table" mbr

# -N: the reference's summary, nothing written, no file created
rm -f "$img"; truncate -s 2g "$img"; before=$(sum_img "$img")
(cd "$T" && "$XK_MKFS" -N img) > "$T/o.out" 2>&1; orc=$?
(cd "$T" && "$REF_MKFS" -N -m rmapbt=1 img) > "$T/r.out" 2>&1
[ $orc -eq 0 ] && [ "$(sum_img "$img")" = "$before" ] &&
	ok "-N exits 0 and writes nothing" || not_ok "-N exits 0 and writes nothing"
diff "$T/r.out" "$T/o.out" > /dev/null && ok "-N prints the reference's summary" ||
	not_ok "-N prints the reference's summary"
"$XK_MKFS" -N -d file,name="$T/new.img",size=1g > /dev/null 2>&1
[ ! -e "$T/new.img" ] && ok "-N creates no image file" || not_ok "-N creates no image file"

# -q and -V
out=$("$XK_MKFS" -q -f "$img" 2>&1)
[ -z "$out" ] && ok "-q prints nothing" || not_ok "-q prints nothing"
[ "$("$XK_MKFS" -V)" = "mkfs.xfs version 6.1.0" ] && ok "-V names the version" ||
	not_ok "-V names the version"

# stale blocks of an image: punched by default, kept with -K
dd if=/dev/urandom of="$img" bs=1M seek=1000 count=1 conv=notrunc status=none
"$XK_MKFS" -q -f -K "$img"
[ "$(dd if="$img" bs=1M skip=1000 count=1 status=none | tr -d '\0' | wc -c)" -gt 0 ] &&
	ok "-K keeps stale blocks" || not_ok "-K keeps stale blocks"
"$XK_MKFS" -q -f "$img"
[ "$(dd if="$img" bs=1M skip=1000 count=1 status=none | tr -d '\0' | wc -c)" -eq 0 ] &&
	ok "stale blocks are punched without -K" || not_ok "stale blocks are punched without -K"
$REF_REPAIR -n "$img" > /dev/null 2>&1 && ok "the punched image is clean" ||
	not_ok "the punched image is clean"

# -c options=FILE
cat > "$T/mkfs.conf" <<'CONF'
[data]
agcount=8

[metadata]
reflink=0
rmapbt=1

[inode]
size=1024
CONF
(cd "$T" && "$XK_MKFS" -f -c options=mkfs.conf -m uuid=1b4e28ba-2fa1-11d2-883f-0016d3cca427 img) > "$T/o.out" 2>&1; orc=$?
mkfs_dump "$img" > "$T/o.dump"
(cd "$T" && "$REF_MKFS" -f -c options=mkfs.conf -m uuid=1b4e28ba-2fa1-11d2-883f-0016d3cca427 img) > "$T/r.out" 2>&1
mkfs_dump "$img" > "$T/r.dump"
[ $orc -eq 0 ] && diff "$T/r.out" "$T/o.out" > /dev/null &&
	ok "-c: the reference's printout" || not_ok "-c: the reference's printout"
diff "$T/r.dump" "$T/o.dump" > /dev/null && ok "-c: the reference's filesystem" ||
	not_ok "-c: the reference's filesystem"
printf '[data]\nagcount=8\nbogus=1\n' > "$T/bad.conf"
(cd "$T" && "$XK_MKFS" -f -c options=bad.conf img) > "$T/o.out" 2>&1; orc=$?
(cd "$T" && "$REF_MKFS" -f -N -c options=bad.conf img) > "$T/r.out" 2>&1; rrc=$?
[ $orc -eq $rrc ] && [ $orc -ne 0 ] && diff "$T/r.out" "$T/o.out" > /dev/null &&
	ok "-c: a bad option is refused as the reference does" ||
	not_ok "-c: a bad option is refused as the reference does"
printf 'garbage line\n' > "$T/bad2.conf"
(cd "$T" && "$XK_MKFS" -f -c options=bad2.conf img) > "$T/o.out" 2>&1; orc=$?
(cd "$T" && "$REF_MKFS" -f -N -c options=bad2.conf img) > "$T/r.out" 2>&1; rrc=$?
[ $orc -eq $rrc ] && [ $orc -ne 0 ] && diff "$T/r.out" "$T/o.out" > /dev/null &&
	ok "-c: a malformed file is refused as the reference does" ||
	not_ok "-c: a malformed file is refused as the reference does"
done_testing
