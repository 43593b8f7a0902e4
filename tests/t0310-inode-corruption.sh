#!/bin/sh
# Damage one field of an inode, an extent map, a bmap btree (the root in
# the inode or a block of it) or a remote symlink block with the
# reference xfs_db (-c leaves the CRC stale, -d recomputes it over the
# bad value), and walkfs names the problem: exit 1, the expected problem
# code, never a crash (a sanitizer report exits 99).  The undamaged image
# has no finding at all.  An LSN of 0x1fffffff0 (cycle 1, block
# 0xfffffff0) points past the end of the log: impossible.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
need_loop
need_ref

img="$T/pristine.img"
truncate -s 512M "$img"
"$REF_MKFS" -q -f -m rmapbt=1 "$img" >/dev/null 2>&1 || skip_all "reference mkfs failed"
mount_img "$img" "$T/mnt" || skip_all "cannot loop-mount"
# /reg: two extents; /frag: enough extents for a bmap btree;
# /lnk: a local symlink; /longlnk: a remote one
xfs_io -f -c "pwrite -q 0 64k" -c "pwrite -q 1m 64k" "$T/mnt/reg" >/dev/null
xfs_io -f -c "pwrite -q 0 2m" "$T/mnt/frag" >/dev/null
i=0
while [ $i -lt 256 ]; do
	xfs_io -c "fpunch $((i * 8))k 4k" "$T/mnt/frag"
	i=$((i + 1))
done
ln -s target "$T/mnt/lnk"
ln -s "$(printf 'x%.0s' $(seq 1 700))" "$T/mnt/longlnk"
umount_img "$T/mnt"

"$WALKFS" -q "$img" > "$T/clean.out" 2>&1; rc=$?
if [ $rc -eq 0 ]; then ok "undamaged image: no finding"; else not_ok "undamaged image: no finding (rc $rc)"; diag "$(head -20 "$T/clean.out")"; fi

# case CODE DESCRIPTION xfs_db-commands...
case_() {
	code=$1 desc=$2
	shift 2
	cp --sparse=always "$img" "$T/bad.img"
	set -- "$REF_DB" -x "$@" "$T/bad.img"
	"$@" >"$T/db.out" 2>&1
	"$WALKFS" -q "$T/bad.img" > "$T/out" 2>&1; rc=$?
	if [ $rc -eq 1 ] && grep -q "\[$code\]" "$T/out" &&
	   ! sanitizer_report "$T/out"; then
		ok "$desc: $code"
	else
		not_ok "$desc: $code (rc $rc)"
		diag "$(cat "$T/db.out")" "$(head -10 "$T/out")"
	fi
}

case_ INODE_BAD_MAGIC    "inode magic"            -c "path /reg" -c "write -d core.magic 0"
case_ INODE_BAD_CRC      "inode CRC"              -c "path /reg" -c "write -c core.gen 77"
case_ INODE_BAD_MODE     "file type"              -c "path /reg" -c "write core.mode 0170644"
case_ INODE_BAD_FORMAT   "regular file local"     -c "path /reg" -c "write core.format 1"
case_ INODE_BAD_FORKOFF  "fork offset"            -c "path /reg" -c "write core.forkoff 200"
case_ INODE_BAD_NEXTENTS "extent count"           -c "path /reg" -c "write core.nextents 30"
case_ INODE_BAD_INO      "inode number"           -c "path /reg" -c "write v3.inumber 999"
case_ INODE_BAD_NBLOCKS  "block count"            -c "path /reg" -c "write core.nblocks 1"
case_ INODE_FLAG_NO_FEATURE "nrext64 flag"         -c "path /reg" -c "write v3.nrext64 1"
case_ INODE_BAD_EXTSIZE  "extent size hint"       -c "path /reg" -c "write core.extsize 16"
case_ INODE_BAD_LSN      "inode LSN past the log" -c "path /reg" -c "write v3.lsn 0x1fffffff0"
case_ INODE_BAD_SIZE     "symlink size"           -c "path /lnk" -c "write core.size 2000"
case_ BMAP_BAD_STARTBLOCK "extent past the end"   -c "path /reg" -c "write u3.bmx[0].startblock 999999999"
case_ BMAP_LEAF_OUT_OF_ORDER "extents out of order" -c "path /reg" -c "write u3.bmx[1].startoff 0"
case_ BMAP_BAD_LENGTH    "zero-length extent"     -c "path /reg" -c "write u3.bmx[0].blockcount 0"
case_ BMAP_COUNT_MISMATCH "btree extent count"    -c "path /frag" -c "write core.nextents 300"
# the bmap btree of /frag: a root in the inode over leaf blocks
case_ BTREE_BAD_PTR      "bmbt root pointer past the end" -c "path /frag" -c "write u3.bmbt.ptrs[1] 999999999"
case_ BTREE_BAD_MAGIC    "bmbt block magic"       -c "path /frag" -c "addr u3.bmbt.ptrs[1]" -c "write -d magic 0"
case_ BTREE_BAD_CRC      "bmbt block CRC"         -c "path /frag" -c "addr u3.bmbt.ptrs[1]" -c "write -c crc 0"
case_ BTREE_BAD_NUMRECS  "bmbt block record count" -c "path /frag" -c "addr u3.bmbt.ptrs[1]" -c "write -d numrecs 1000"
case_ BTREE_BAD_LSN      "bmbt block LSN past the log" -c "path /frag" -c "addr u3.bmbt.ptrs[1]" -c "write -d lsn 0x1fffffff0"
case_ BTREE_BAD_OWNER    "bmbt block owner"       -c "path /frag" -c "addr u3.bmbt.ptrs[1]" -c "write -d owner 128"
case_ SYMLINK_BAD_MAGIC  "remote symlink magic"   -c "path /longlnk" -c "dblock 0" -c "write -d magic 0"
case_ SYMLINK_BAD_CRC    "remote symlink CRC"     -c "path /longlnk" -c "dblock 0" -c "write -c bytes 5"
case_ SYMLINK_BAD_HEADER "remote symlink offset"  -c "path /longlnk" -c "dblock 0" -c "write offset 5"
case_ SYMLINK_BAD_LSN    "remote symlink LSN past the log" -c "path /longlnk" -c "dblock 0" -c "write -d lsn 0x1fffffff0"
done_testing
