#!/bin/sh
# klist.py prints the canonical listing of tests/tools/LISTING.md and
# prints it the same every time: two runs on one read-only mount agree
# with each other and with the listing the corpus stored when it built the
# image (so the stored listing describes the image as cached), listing
# leaves the image unchanged, every line of every stored listing follows
# the grammar, the fields of known objects have the values the population
# script gave them (escapes, modes, owners, negative times, devices,
# attributes in order), and the extents agree with the reference xfs_db's
# bmap turned into linear block numbers, on AGs whose size is not a power
# of two, where a filesystem block number would differ.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
. "$top_srcdir/tests/lib/corpus.sh"
corpus_need
sanitized_skip "this test of the corpus runs only the reference, the kernel and python"

KLIST="python3 $top_srcdir/tests/tools/klist.py"

# expect DESC WANT GOT
expect() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1"
		diag "expected '$2'" "     got '$3'"
	fi
}

# lfield LIST PATH KEY: a field of one listing line.
lfield() {
	P=$2 K="$3=" awk '$1 == ENVIRON["P"] { k = ENVIRON["K"]
		for (i = 2; i <= NF; i++)
			if (index($i, k) == 1) { print substr($i, length(k) + 1); exit }
	}' "$1"
}

# --- repeatable, and equal to what the build stored
for n in default agcount16; do
	img=$(corpus_image "$n") || { not_ok "$n: corpus image"; continue; }
	list=$(corpus_listing "$n")
	sum0=$(sum_img "$img")
	if ! mount_img "$img" "$T/mnt" ro,nouuid,noatime; then
		not_ok "$n: mounts read-only"
		continue
	fi
	$KLIST "$T/mnt" > "$T/l1" 2> "$T/err1"; rc1=$?
	$KLIST "$T/mnt" > "$T/l2" 2> "$T/err2"; rc2=$?
	$KLIST -b 512 "$T/mnt" > "$T/l512" 2>&1
	umount_img "$T/mnt"
	expect "$n: klist.py exits 0, twice, and says nothing on stderr" "0 0" \
		"$rc1 $rc2$(cat "$T/err1" "$T/err2")"
	cmp -s "$T/l1" "$T/l2" && ok "$n: two runs on one mount print the same" ||
		not_ok "$n: two runs on one mount print the same"
	cmp -s "$T/l1" "$list" && ok "$n: a fresh mount lists what the build stored" || {
		not_ok "$n: a fresh mount lists what the build stored"
		diag "$(diff "$list" "$T/l1" | head -n 10)"
	}
	expect "$n: listing leaves the image unchanged" "$sum0" "$(sum_img "$img")"
	# -b changes the unit of logical and physical blocks and counts
	e4=$(lfield "$T/l1" /files/one-block ext)
	e512=$(lfield "$T/l512" /files/one-block ext)
	bs=$(corpus_geom "$n" blocksize)
	want=$(echo "$e4" | awk -F: -v m=$((bs / 512)) '{ print $1 * m ":" $2 * m ":" $3 * m }')
	expect "$n: -b 512 counts in 512-byte blocks" "$want" "$e512"
done

# --- every stored line follows the grammar
for n in $(corpus_names); do
	list=$(corpus_listing "$n") || { not_ok "$n: listing"; continue; }
	bad=$(awk '
	function num(s) { return s ~ /^[0-9]+$/ }
	function ts(s) { return s ~ /^-?[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]$/ }
	function esc(s) { return s ~ /^([!-~]|\\x[0-9a-f][0-9a-f])+$/ && s !~ /[=,]/ }
	{
		ok = NF >= 10 && ($1 == "/" || $1 ~ /^\//) && esc($1) &&
		    $2 ~ /^ino=/ && num(substr($2, 5)) &&
		    $3 ~ /^type=(reg|dir|lnk|chr|blk|fifo|sock)$/ &&
		    $4 ~ /^mode=[0-7][0-7][0-7][0-7]$/ &&
		    $5 ~ /^nlink=/ && num(substr($5, 7)) &&
		    $6 ~ /^uid=/ && num(substr($6, 5)) &&
		    $7 ~ /^gid=/ && num(substr($7, 5)) &&
		    $8 ~ /^size=/ && num(substr($8, 6)) &&
		    $9 ~ /^mtime=/ && ts(substr($9, 7)) &&
		    $10 ~ /^ctime=/ && ts(substr($10, 7))
		t = substr($3, 6)
		i = 11
		if (t == "reg") {
			e = substr($i, 5)
			ok = ok && $i ~ /^ext=/ &&
			    (e == "-" || e ~ /^[0-9]+:[0-9]+:[0-9]+u?(,[0-9]+:[0-9]+:[0-9]+u?)*$/)
			i++
		}
		if (t == "lnk") { ok = ok && $i ~ /^target=/ && esc(substr($i, 8)); i++ }
		if (t == "chr" || t == "blk") { ok = ok && $i ~ /^rdev=[0-9]+:[0-9]+$/; i++ }
		if (i <= NF) {
			ok = ok && $i ~ /^xattr=(user|trusted|security)\./
			n = split(substr($i, 7), a, ",")
			for (j = 1; j <= n; j++) {
				k = a[j]; sub(/=.*/, "", k); v = a[j]; sub(/^[^=]*=/, "", v)
				ok = ok && k ~ /^(user|trusted|security)\./ && esc(k) &&
				    (v == "-" || v ~ /^([0-9a-f][0-9a-f])+$/)
				if (j > 1) ok = ok && prev < k
				prev = k
			}
			i++
		}
		ok = ok && i == NF + 1
		if (!ok) { print NR ": " substr($0, 1, 200); exit }
	}' "$list")
	expect "$n: every line of the listing follows the grammar" "" "$bad"
done

# --- known objects, known fields
n=default
list=$(corpus_listing "$n")
line() { P=$1 awk '$1 == ENVIRON["P"]' "$list" | cut -d' ' -f3-9; }
expect "a small file" "type=reg mode=0644 nlink=1 uid=0 gid=0 size=11 mtime=$(lfield "$list" /files/small mtime)" \
	"$(line /files/small)"
expect "setuid and setgid bits" 6711 "$(lfield "$list" /files/mode-6711 mode)"
expect "mode 0000" 0000 "$(lfield "$list" /files/mode-0000 mode)"
expect "sticky directory" "1777 dir" \
	"$(lfield "$list" /files/sticky-dir mode) $(lfield "$list" /files/sticky-dir type)"
expect "the largest owner" "4294967294 4294967294" \
	"$(lfield "$list" /files/owner-max uid) $(lfield "$list" /files/owner-max gid)"
expect "nanoseconds before 1970" -301233600.123456789 \
	"$(lfield "$list" /files/times/before-1970 mtime)"
expect "a symlink's own time" -631152000.000000001 \
	"$(lfield "$list" /files/times/old-symlink mtime)"
expect "a timestamp past 2106" 4294967296.999999999 \
	"$(lfield "$list" /files/times/after-2106 mtime)"
expect "a character device" "chr 511:262143 0" \
	"$(lfield "$list" /special/chr-max type) $(lfield "$list" /special/chr-max rdev) $(lfield "$list" /special/chr-max size)"
expect "a block device" "blk 8:17" \
	"$(lfield "$list" /special/blk-sdb1 type) $(lfield "$list" /special/blk-sdb1 rdev)"
expect "fifo and socket, no rdev" "fifo sock " \
	"$(lfield "$list" /special/fifo type) $(lfield "$list" /special/socket type) $(lfield "$list" /special/fifo rdev)"
for p in '/names/esc-\x5c\x3d\x2c' '/names/with\x20space' '/names/bad-utf8-\xff\xfe' \
	'/names/caf\xc3\xa9' '/names/ctl-\x01\x09\x1b' '/names/trailing\x20space\x20'; do
	P=$p awk '$1 == ENVIRON["P"] { f = 1 } END { exit !f }' "$list" &&
		ok "escaped name $p" || not_ok "escaped name $p"
done
expect "an escaped symlink target" 'caf\xc3\xa9\x20\x5c\x3d\x2c' \
	"$(lfield "$list" /links/odd-target target)"
expect "attributes: namespaces, escapes, hex, empty, in order" \
	'security.s=736563,trusted.t=000102ff,user.a=6f6e65,user.caf\xc3\xa9\x20\x3d\x2c=6f64642d6e616d65,user.empty=-' \
	"$(lfield "$list" /attrs/short xattr)"
expect "an attribute on the root" user.root=726f6f7476616c7565 "$(lfield "$list" / xattr)"
expect "trusted.* on a symlink" trusted.l=6c696e6b76616c7565 \
	"$(lfield "$list" /attrs/symlink-with-attrs xattr)"
expect "a file with holes only" "10485760 -" \
	"$(lfield "$list" /files/holes-only size) $(lfield "$list" /files/holes-only ext)"
expect "unwritten after EOF (fallocate --keep-size)" 256u \
	"$(lfield "$list" /files/prealloc-keep ext | sed 's/.*://')"
awk '$3 == "type=dir" || $3 == "type=lnk" { if ($0 ~ / ext=/) bad = 1 }
	END { exit bad }' "$list" && ok "no ext= but on regular files" ||
	not_ok "no ext= but on regular files"

# --- extents agree with the reference's bmap, as linear block numbers
n=agcount16
img=$(corpus_image "$n")
list=$(corpus_listing "$n")
agblocks=$("$REF_DB" -r -c "sb 0" -c "p agblocks" "$img" | awk '{ print $3 }')
[ $((agblocks & (agblocks - 1))) -ne 0 ] &&
	ok "$n: AG size $agblocks is not a power of two" ||
	not_ok "$n: AG size $agblocks is not a power of two"
for f in fragmented sparse sparse-far prealloc-mixed prealloc-keep reflink-cow contiguous small; do
	ino=$(corpus_ino "$n" "/files/$f")
	want=$("$REF_DB" -r -c "inode $ino" -c bmap "$img" | awk -v agb="$agblocks" '
	$1 == "data" {
		split(substr($6, 2, length($6) - 2), ab, "/")
		p = ab[1] * agb + ab[2]; l = $3; c = $8; u = ($10 == 1)
		if (k > 0 && L[k] + C[k] == l && P[k] + C[k] == p && U[k] == u) {
			C[k] += c
		} else {
			k++; L[k] = l; P[k] = p; C[k] = c; U[k] = u
		}
	}
	END {
		if (k == 0) { print "-"; exit }
		for (j = 1; j <= k; j++)
			printf "%s%d:%d:%d%s", (j > 1 ? "," : ""), L[j], P[j], C[j], (U[j] ? "u" : "")
		print ""
	}')
	expect "$n: /files/$f extents match the reference bmap" "$want" \
		"$(lfield "$list" "/files/$f" ext)"
done

# --- usage
$KLIST > /dev/null 2>&1; rc=$?
expect "no mount point: exit 2" 2 "$rc"
: > "$T/file"
$KLIST "$T/file" > /dev/null 2>&1; rc=$?
expect "not a directory: exit 2" 2 "$rc"
done_testing
