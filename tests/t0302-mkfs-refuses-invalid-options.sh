#!/bin/sh
# Every invalid-option case of the mkfs.xfs man page is refused before
# anything is written: our mkfs exits non-zero with the reference's exit
# code and the reference's messages (stderr, usage text included), and
# the target image's checksum is unchanged.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
need_ref
need_tool "$XK_MKFS"

# One case a line: a description, a tab, the options (the target image
# is appended).  Cases that need no target say NOTARGET.
CASES='
block size not a power of 2	-b size=3000
block size too small	-b size=256
block size too large	-b size=131072
block size below the CRC minimum	-b size=512
block size respecified	-b size=4k -b size=8k
agcount with agsize	-d agcount=4,agsize=1g
agcount zero	-d agcount=0
agsize too small	-d agsize=1000
agsize not a block multiple	-d agsize=16777728
data size too small	-d size=1000
data size larger than the file	-d size=2t
data size not a sector multiple	-d size=100000001
su without sw	-d su=64k
sunit without swidth	-d sunit=128
stripe unit not a block multiple	-d su=3k,sw=2
swidth not a multiple of sunit	-d sunit=8,swidth=12
su with noalign	-d su=64k,sw=4,noalign
sunit with su	-d sunit=8,swidth=16,su=4k
unknown data suboption	-d foo=1
data name respecified	-d name=other
file without name and size	-d file NOTARGET
inode size below the CRC minimum	-i size=256
inode size too large	-i size=4096
inode size not a power of 2	-i size=1000
inode perblock with size	-i perblock=8,size=512
inode maxpct too large	-i maxpct=101
attr version 1	-i attr=1
inodes unaligned	-i align=0
16-bit project ids	-i projid32bit=0
sparse out of range	-i sparse=2
inode too large for the block size	-b size=1024 -i size=1024
log size below the option minimum	-l size=1m
log size too large	-l size=3g
log size below the log minimum	-l size=10m
log version 1	-l version=1
log sunit not a block multiple	-l sunit=3
log su too large	-l su=300k
lazy-count off	-l lazy-count=0
log agnum out of range	-l agnum=10
internal log with logdev	-l internal=1,logdev=/dev/null
sector size on internal log	-l sectsize=4096
log value missing	-l size
directory block too small	-n size=2048
directory block not a power of 2	-n size=8000
naming version 3	-n version=3
ftype off	-n ftype=0
crc out of range	-m crc=2
inobtcount without finobt	-m finobt=0,inobtcount=1
bad uuid	-m uuid=notauuid
uuid without value	-m uuid
sector size not a power of 2	-s size=1000
sector size too large	-s size=65536
sector larger than block	-s size=8192 -b size=4096
label too long	-L thirteen_char
rt extent size too small	-r extsize=1000
rt size without rt device	-r size=1g
extent size hint over half an AG	-d extszinherit=100000
extent size hint past one extent	-d extszinherit=3000000
CoW extent size hint over half an AG	-d cowextsize=100000
rt extent size hint not a multiple	-m rmapbt=0,reflink=0 -r rtdev=rt.img,extsize=16k -d rtinherit=1,extszinherit=3
rt extent size hint too large	-m rmapbt=0,reflink=0 -r rtdev=rt.img,extsize=16k -d rtinherit=1,extszinherit=100001
unit suffix on a plain number	-i maxpct=5k
filesystem below 300MB	-d size=200m
a single AG	-d agcount=1
log below 64MB	-l size=32m
extra arguments	NOTARGET img1 img2
unknown option letter	-Z
missing config file	-c options=/nonexistent/mkfs.conf
no device	NOTARGET
'

# A checksum of the whole (sparse) target that reads only its data: the
# map of data extents and their bytes.  Equal to a full checksum for
# deciding "unchanged", and fast on a 2 GiB sparse file.
sum_sparse() {
	python3 - "$1" <<'PY'
import hashlib, os, sys
h = hashlib.sha256()
fd = os.open(sys.argv[1], os.O_RDONLY)
end = os.fstat(fd).st_size
h.update(str(end).encode())
off = 0
while off < end:
    try:
        d = os.lseek(fd, off, os.SEEK_DATA)
    except OSError:
        break
    e = os.lseek(fd, d, os.SEEK_HOLE)
    h.update(b"%d:%d;" % (d, e))
    os.lseek(fd, d, os.SEEK_SET)
    left = e - d
    while left > 0:
        b = os.read(fd, min(left, 1 << 20))
        if not b:
            break
        h.update(b)
        left -= len(b)
    off = e
print(h.hexdigest())
PY
}

truncate -s 2g "$T/target"
truncate -s 1g "$T/rt.img"	# the realtime device of the rt cases
head -c 65536 /dev/urandom | dd of="$T/target" conv=notrunc status=none
head -c 65536 /dev/urandom | dd of="$T/target" bs=1M seek=2047 conv=notrunc status=none
sum0=$(sum_sparse "$T/target")

norm() {
	sed -e 's|^[^ :]*/mkfs\.xfs:|mkfs.xfs:|' -e "s|$T/||g" "$1"
}

echo "$CASES" | while IFS='	' read -r desc opts; do
	[ -n "$desc" ] || continue
	case "$opts" in
	*NOTARGET*) args=$(echo "$opts" | sed 's/NOTARGET//'); tgt= ;;
	*) args=$opts; tgt=$T/target ;;
	esac
	# shellcheck disable=SC2086
	(cd "$T" && "$XK_MKFS" -f $args $tgt) > "$T/o.out" 2> "$T/o.err"; orc=$?
	# the reference with our default reverse map (it moves log minimums)
	case "$args" in *rmapbt=*|-m\ uuid*) rargs=$args ;; *) rargs="$args -m rmapbt=1" ;; esac
	# shellcheck disable=SC2086
	(cd "$T" && "$REF_MKFS" -f -N $rargs $tgt) > "$T/r.out" 2> "$T/r.err"; rrc=$?
	if [ $orc -ne 0 ] && [ $orc -eq $rrc ]; then
		ok "$desc: refused with exit $orc"
	else
		not_ok "$desc: refused (ours $orc, reference $rrc)"
	fi
	if diff "$(norm "$T/r.err" > "$T/r.n"; echo "$T/r.n")" \
		"$(norm "$T/o.err" > "$T/o.n"; echo "$T/o.n")" > "$T/d"; then
		ok "$desc: same messages"
	else
		not_ok "$desc: same messages"; diag "$(head -6 "$T/d")"
	fi
	[ "$(sum_sparse "$T/target")" = "$sum0" ] && ok "$desc: nothing written" ||
		{ not_ok "$desc: nothing written"; sum0=$(sum_sparse "$T/target"); }
done > "$T/tap"
cat "$T/tap"
echo "1..$(grep -c '^\(not \)\?ok' "$T/tap")"
! grep -q '^not ok' "$T/tap"
