#!/bin/sh
# Attributes in every v5 form read back through libfs exactly as the
# kernel shows them.  On reference-made filesystems (4 KiB and 1 KiB
# blocks, 512- and 2048-byte inodes) populated through a loop mount with
# setfattr -- short form, leaf, node (one and two levels), btree-format
# forks, remote values up to 64 KiB, empty values, 255-byte names, every
# namespace, leaves with holes left by removals, names whose hashes
# collide -- attr_iterate() finds no problem and returns exactly what
# `getfattr -d -m - -e hex` showed, and attr_get() returns single values
# (found by hash through the dabtree) equal to `getfattr -n`; walkfs
# finds nothing wrong in the whole filesystem and lists the same
# attributes.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
sanitized_skip "clean images, compared with the reference: the normal pass runs it"
. "$top_srcdir/tests/lib/attr-populate.sh"
need_loop
need_ref
ATTRDUMP="$top_builddir/tests/tools/attrdump"
need_tool "$ATTRDUMP"
need_tool "$WALKFS"
for c in setfattr getfattr python3; do
	command -v $c >/dev/null 2>&1 || skip_all "needs $c (package attr, python3)"
done

# db IMG CMD...: the reference xfs_db, read-only.
db() {
	_img=$1
	shift
	for _c in "$@"; do set -- "$@" -c "$_c"; shift; done
	"$REF_DB" -r "$@" "$_img" 2>&1
}

# form IMG INO: what the attribute fork is, as the reference sees it:
# local, leaf, node1, node2, ... (btree-format forks say btree+nodeN).
form() {
	_f=$(db "$1" "inode $2" "p core.aformat" | awk '{ print $3 }')
	case $_f in
	1) echo local; return ;;
	2) _p="" ;;
	3) _p="btree+" ;;
	*) echo "aformat$_f"; return ;;
	esac
	_out=$(db "$1" "inode $2" "ablock 0" "p")
	case $_out in
	*"magic = 0x3bee"*) echo "${_p}leaf" ;;
	*"magic = 0x3ebe"*)
		echo "${_p}node$(echo "$_out" | awk '$1 == "hdr.level" { print $3 }')" ;;
	*) echo "${_p}unknown" ;;
	esac
}

# run_geom BLOCKSIZE INODESIZE FILE:FORM...: one filesystem; the forms
# listed must be there, so the comparison is known to cover them.
run_geom() {
	bs=$1 is=$2
	shift 2
	want="$*"
	g="${bs}b/${is}i"
	img="$T/attr-$bs-$is.img"
	truncate -s 512M "$img"
	if ! "$REF_MKFS" -q -f -b size="$bs" -i size="$is" "$img" >/dev/null 2>&1 ||
	   ! mount_img "$img" "$T/mnt"; then
		not_ok "$g: make and mount the filesystem"
		return
	fi
	attr_populate "$T/mnt" > "$T/pop.log" 2>&1
	rc=$?
	attr_expect "$T/mnt" > "$T/expect"
	set -- $(attr_inos "$T/mnt")
	inos="$*"
	# single values to fetch with attr_get: FILE NAME
	cat > "$T/gets" <<-EOF
	sf user.a
	sf trusted.t
	sf user.empty
	sf255 user.$(printf 'n%.0s' $(seq 1 250))
	leaf security.leaf.s
	leafrmt user.r64k
	leafrmt user.$(printf 'L%.0s' $(seq 1 250))
	leafrmt trusted.$(printf 'T%.0s' $(seq 1 247))
	node user.node.00000
	node user.node.01500
	node user.node.02999
	node user.node.empty
	node user.hc.10000
	node user.hc.a0005
	node user.hc.10007
	node user.hc.a0002
	nodermt user.nr.00050
	btree-a user.bt.01234
	replaced user.grow
	lnk trusted.l
	EOF
	n=0
	while read -r f name; do
		n=$((n + 1))
		getfattr -h -n "$name" -e hex "$T/mnt/$f" 2>/dev/null |
			grep -v '^# file: ' | grep . > "$T/get.$n"
	done < "$T/gets"
	umount_img "$T/mnt"
	if [ $rc -ne 0 ]; then
		not_ok "$g: populate through the mount"
		diag "$(tail -5 "$T/pop.log")"
		return
	fi

	# the reference agrees that the filesystem is sound
	if "$REF_REPAIR" -n "$img" > "$T/repair.out" 2>&1; then
		ok "$g: reference xfs_repair -n finds it clean"
	else
		not_ok "$g: reference xfs_repair -n finds it clean"
		diag "$(head -10 "$T/repair.out")"
	fi

	# every form the test promises is there
	missing=""
	set -- $inos
	for f in $ATTR_FILES; do
		eval "ino_$(echo "$f" | tr -- - _)=$1"
		shift
	done
	for fw in $want; do
		f=${fw%%:*} w=${fw#*:}
		eval "i=\$ino_$(echo "$f" | tr -- - _)"
		got=$(form "$img" "$i")
		[ "$got" = "$w" ] || missing="$missing $f:$got(want $w)"
	done
	if [ -z "$missing" ]; then
		ok "$g: the forks are in the intended forms ($want)"
	else
		not_ok "$g: the forks are in the intended forms:$missing"
	fi

	"$ATTRDUMP" "$img" $inos > "$T/dump" 2> "$T/dump.err"
	rc=$?
	if [ $rc -eq 0 ] && [ ! -s "$T/dump.err" ]; then
		ok "$g: attr_iterate finds no problem"
	else
		not_ok "$g: attr_iterate finds no problem (rc $rc)"
		diag "$(head -10 "$T/dump.err")"
	fi
	attr_sorted < "$T/dump" > "$T/got"
	if cmp -s "$T/expect" "$T/got"; then
		ok "$g: attr_iterate returns what getfattr shows ($(wc -l < "$T/got") attributes)"
	else
		not_ok "$g: attr_iterate returns what getfattr shows"
		diag "$(diff "$T/expect" "$T/got" | cut -c1-120 | head -10)"
	fi

	# walkfs lists the same attributes (walk_attrs) and finds nothing
	"$WALKFS" -q "$img" > "$T/walk.out" 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then
		ok "$g: walkfs finds no problem"
	else
		not_ok "$g: walkfs finds no problem (rc $rc)"
		diag "$(head -10 "$T/walk.out")"
	fi
	"$WALKFS" -l "$img" 2>/dev/null | awk '
		{ ino = ""; x = "" }
		{ for (i = 2; i <= NF; i++) {
			if (index($i, "ino=") == 1) ino = substr($i, 5)
			if (index($i, "xattr=") == 1) x = substr($i, 7) } }
		x != "" { n = split(x, a, ",")
			for (j = 1; j <= n; j++) {
				k = index(a[j], "="); v = substr(a[j], k + 1)
				print ino " " substr(a[j], 1, k) "0x" (v == "-" ? "" : v)
			} }' | LC_ALL=C sort > "$T/walk.got"
	if cmp -s "$T/expect" "$T/walk.got"; then
		ok "$g: walkfs -l lists what getfattr shows"
	else
		not_ok "$g: walkfs -l lists what getfattr shows"
		diag "$(diff "$T/expect" "$T/walk.got" | cut -c1-120 | head -10)"
	fi

	bad=""
	n=0
	while read -r f name; do
		n=$((n + 1))
		eval "i=\$ino_$(echo "$f" | tr -- - _)"
		"$ATTRDUMP" -g "$name" "$img" "$i" > "$T/g.out" 2>&1 < /dev/null
		cmp -s "$T/g.out" "$T/get.$n" ||
			bad="$bad $f:$(echo "$name" | cut -c1-20)"
	done < "$T/gets"
	if [ -z "$bad" ]; then
		ok "$g: attr_get returns what getfattr -n shows ($(wc -l < "$T/gets") names)"
	else
		not_ok "$g: attr_get returns what getfattr -n shows:$bad"
	fi
	# no such attribute: in each form, a name that is not there, one in
	# the wrong namespace, and one whose hash collides with a real one
	bad=""
	for q in "sf user.t" "sf user.nope" "leaf trusted.leaf.s" \
		 "leafrmt user.r64" "node user.node.03000" "node user.hc.10008" \
		 "node trusted.hc.10000" "btree-a user.bt.99999"; do
		set -- $q
		eval "i=\$ino_$(echo "$1" | tr -- - _)"
		"$ATTRDUMP" -g "$2" "$img" "$i" > "$T/g.out" 2>&1
		rc=$?
		[ $rc -eq 1 ] && grep -q "No data available" "$T/g.out" ||
			bad="$bad $1:$2(rc $rc)"
	done
	if [ -z "$bad" ]; then
		ok "$g: attr_get says there is no such attribute"
	else
		not_ok "$g: attr_get says there is no such attribute:$bad"
	fi
	rm -f "$img"
}

run_geom 4096 512 sf:local sf255:local leaf:leaf leafholes:leaf leafrmt:leaf \
	node:node1 nodermt:btree+node1 btree-a:btree+node1 replaced:leaf
run_geom 1024 512 sf:local sf255:local leaf:node1 leafrmt:leaf \
	node:btree+node2 btree-a:btree+node2
run_geom 4096 2048 sf:local sf255:local leafholes:local leaf:leaf \
	leafrmt:leaf node:node1 btree-a:node1
done_testing
