#!/bin/sh
# Expert attr_set / attr_remove in every form (short form created,
# grown and shrunk; one leaf block; remote values; node form with leaf
# splits) change the filesystem as the reference's do.  For each case (an
# inode of a cached image and a sequence of commands) ours runs on one
# copy and the reference on another: the printed output, the reference's
# print of the inode (but for ctime, CRC and LSN, which differ by nature)
# and of every attribute block the fork maps (but for CRC and LSN) are
# identical, and so is the change count; the reference finds the CRCs of
# our inode and blocks correct, its xfs_repair -n finds nothing, and the
# kernel, mounting our copy, reads the same attribute names and values as
# from the reference's copy.
. "$top_srcdir/tests/lib/test-lib.sh"
need_ref
need_tool "$XK_DB"

. "$top_srcdir/tests/lib/db-paths.sh"

can_mount=yes
[ "$(id -u)" -eq 0 ] && losetup -f >/dev/null 2>&1 &&
	command -v getfattr >/dev/null || can_mount=

run() {	# run TOOL IMAGE "seq"
	tool=$1
	target=$2
	rest=$3
	set --
	while :; do
		cmd=${rest%% ;; *}
		set -- "$@" -c "$cmd"
		[ "$cmd" = "$rest" ] && break
		rest=${rest#* ;; }
	done
	"$tool" -x "$@" "$target" 2>&1 </dev/null
}

# every attribute block the fork maps, as the reference prints it (one
# xfs_db for them all: a node-form fork has dozens)
dump_raw() {	# dump_raw IMAGE INO
	set -- "$1" "$2" $("$REF_DB" -r -c "inode $2" -c "p a.bmx" "$1" 2>/dev/null |
		awk -F'[][,:]' '/^[0-9]+:\[[0-9]+,[0-9]+,[0-9]+,[01]\]/ {
			for (i = 0; i < $5; i++) print $3 + i }')
	_img=$1 _ino=$2
	shift 2
	[ $# -gt 0 ] || return 0
	for _b in "$@"; do
		set -- "$@" -c "inode $_ino" -c "ablock $_b" -c p
		shift
	done
	"$REF_DB" -r "$@" "$_img" 2>&1
}

# the inode and its attribute blocks, but for what differs by nature
dump() {	# dump IMAGE INO
	"$REF_DB" -r -c "inode $2" -c p "$1" 2>&1 |
		grep -v "core\.ctime\|v3\.crc\|v3\.lsn"
	dump_raw "$1" "$2" | grep -v "crc = \|lsn = "
}

# the attributes the kernel reads, names and values
kread() {	# kread IMAGE PATH
	mount_img "$1" "$T/mnt" ro,norecovery || { echo "mount failed"; return; }
	(cd "$T/mnt" && getfattr -h -d -m - -e hex ".$2" 2>&1)
	umount_img "$T/mnt"
}

while IFS='|' read -r name path seq; do
	case $name in
	'#'*|'') continue ;;
	esac
	img=$(sh "$top_srcdir/tests/db/image.sh" "$name") || {
		not_ok "[$name] image"; continue; }
	ino=$(ino_of "$img" "$path")
	what="[$name] $path: $seq"
	case $seq in
	@fill*)	# @fill N SIZE: attr_set -v SIZE a1 .. aN
		set -- $seq
		i=1
		seq="attr_set -v 300 big"
		while [ "$i" -le "$2" ]; do
			seq="$seq ;; attr_set -v $3 a$i"
			i=$((i + 1))
		done ;;
	@rmall*|@rmperm*)
		# @rmall N: remove attribute_number_1 .. N in order;
		# @rmperm N: all of 1 .. N, in the order i * 13 mod (N + 1)
		# (N + 1 prime)
		set -- $seq
		i=1
		seq=""
		while [ "$i" -le "$2" ]; do
			k=$i
			[ "$1" = @rmperm ] && k=$((i * 13 % ($2 + 1)))
			seq="$seq${seq:+ ;; }attr_remove attribute_number_$k"
			i=$((i + 1))
		done ;;
	esac
	cp --sparse=always "$img" "$T/ours.img"
	cp --sparse=always "$img" "$T/ref.img"
	run "$XK_DB" "$T/ours.img" "inode $ino ;; $seq" > "$T/ours.out"
	run "$REF_DB" "$T/ref.img" "inode $ino ;; $seq" > "$T/ref.out"
	dump "$T/ours.img" "$ino" > "$T/ours.dump"
	dump "$T/ref.img" "$ino" > "$T/ref.dump"
	# the change count apart: it follows the kernel's transactions
	for w in ours ref; do
		grep -v "change_count" "$T/$w.dump" > "$T/$w.nocc"
		grep -v "change_count" "$T/$w.out" > "$T/$w.outnocc"
	done
	if cmp -s "$T/ref.outnocc" "$T/ours.outnocc" &&
	   cmp -s "$T/ref.nocc" "$T/ours.nocc"; then
		ok "$what: as the reference"
	else
		not_ok "$what: as the reference"
		diff "$T/ref.out" "$T/ours.out" | head -10 | cut -c1-160 | diag
		diff "$T/ref.dump" "$T/ours.dump" | head -20 | cut -c1-160 | diag
	fi
	if cmp -s "$T/ref.dump" "$T/ours.dump"; then
		ok "$what: the same change count"
	else
		not_ok "$what: the same change count"
		diff "$T/ref.dump" "$T/ours.dump" | grep change_count | diag
	fi
	out=$("$REF_DB" -r -c "inode $ino" -c "p v3.crc" "$T/ours.img" 2>&1)
	bad=$(dump_raw "$T/ours.img" "$ino" | grep "crc = " | grep -v "(correct)")
	case $out in
	*"(correct)"*) [ -z "$bad" ] &&
		ok "$what: inode and attribute block CRCs correct" ;;
	esac ||	{ not_ok "$what: inode and attribute block CRCs correct"
		  diag "$out" "$bad"; }
	if "$REF_REPAIR" -n "$T/ours.img" > "$T/repair.out" 2>&1 </dev/null; then
		ok "$what: reference xfs_repair -n finds nothing"
	else
		not_ok "$what: reference xfs_repair -n finds nothing"
		grep -v "^        - \|^Phase" "$T/repair.out" | head -10 | diag
	fi
	if [ -n "$can_mount" ]; then
		kread "$T/ours.img" "$path" > "$T/ours.k" </dev/null
		kread "$T/ref.img" "$path" > "$T/ref.k" </dev/null
		# (user.* is refused on symlinks: their cases use trusted.*)
		if cmp -s "$T/ref.k" "$T/ours.k" &&
		   ! grep -q "No such attribute\|mount failed" "$T/ours.k"; then
			ok "$what: the kernel reads the same attributes"
		else
			not_ok "$what: the kernel reads the same attributes"
			diff "$T/ref.k" "$T/ours.k" | head -6 | cut -c1-160 | diag
		fi
	else
		skip "$what: kernel read" "needs root, a loop device and getfattr"
	fi
done <<'EOF'
# image|path|sequence (after "inode N")
# no attribute fork: the fork is made where the kernel puts it
full|/|attr_set -v 5 foo ;; attr_set -r -v 100 bar ;; p a
small|/shortlink|attr_set -r -v 5 foo ;; attr_set -s -v 40 sec ;; attr_remove -r foo
big|/|attr_set -v 5 foo ;; attr_set -r -v 100 bar ;; attr_remove foo
big|/remotelink|attr_set -r -v 200 foo
full|/remotelink|attr_set -R -v 3 nothere
# a long inline symlink target moves to a block to make room
full|/longlink|attr_set -r -v 3 a1
# a short-form fork grows into the room the data fork leaves
full|/sf/a|attr_set -v 100 a1 ;; attr_set -v 100 a2 ;; attr_set -v 60 a3 ;; attr_remove a2 ;; attr_remove a1 ;; p a
small|/sf|attr_set -v 120 a1 ;; attr_set -v 120 a2
full|/frag|attr_set -v 100 a1 ;; attr_set -v 20 a2 ;; attr_remove a1 ;; attr_remove a2
# short form that overflows: one leaf block; values too big for it: remote
full|/attrs/sf|attr_set -v 3000 big ;; p a
full|/sf/a|attr_set -v 9000 big
small|/attrs/sf|attr_set -v 600 big ;; attr_set -v 9000 rem ;; attr_set -v 30 x ;; attr_remove big
big|/|attr_set -v 600 big ;; attr_set -v 9000 rem
full|/frag|attr_set -v 300 big ;; attr_set -v 5000 rem ;; attr_set -v 20 x ;; attr_set -r -v 200 y
# replace and remove in leaf form, back to short form or no fork at all
full|/attrs/sf|attr_set -v 300 big ;; attr_set -v 400 big ;; attr_set -v 4 big
small|/attrs/sf|attr_set -v 9000 big ;; attr_set -v 300 big ;; attr_set -v 9000 big ;; attr_remove one ;; attr_remove -r two ;; attr_remove big
full|/attrs/leaf|attr_set -v 5000 r ;; attr_remove attr_1 ;; attr_set -C -v 3 attr_2 ;; attr_set -R -v 3 nothere
full|/attrs/remote|attr_remove big
full|/attrs/remote|attr_set -v 100 big
full|/attrs/remote|attr_set -v 20000 big
# a leaf that fills: node form, leaves split; adds and removes under a node
full|/attrs/sf|@fill 30 150
small|/attrs/sf|@fill 12 150
small|/attrs/sf|attr_set -v 200 s1 ;; attr_set -v 700 big
full|/attrs/node|attr_set -v 20 newone ;; attr_set -v 9000 rem ;; attr_remove attribute_number_5 ;; attr_remove attribute_number_17
full|/attrs/node|attr_set -v 20 attribute_number_5 ;; attr_set -v 9000 attribute_number_6 ;; attr_set -v 30 attribute_number_6 ;; attr_set -R -v 3 attribute_number_7 ;; attr_set -C -v 3 attribute_number_8
big|/attrs/node|attr_set -v 9000 attribute_number_7 ;; attr_set -v 8000 attribute_number_7 ;; attr_set -v 20 attribute_number_7
big|/attrs/node|@fill 40 100
# removes under a node: leaves joined, the last leaf back at block 0,
# then the short form and no fork at all
full|/attrs/node|@rmall 400
small|/attrs/node|@rmall 400
big|/attrs/node|@rmall 400
full|/attrs/node|@rmperm 400
big|/attrs/node|@rmperm 400
EOF

# Damaged attribute blocks and forks are refused before anything is
# written (the builders never run on them), and nothing crashes.
img=$(sh "$top_srcdir/tests/db/image.sh" full)
for d in "/attrs/leaf|ablock 0 ;; write -d hdr.count 4000|attr_set -v 5 x ;; attr_remove attr_1" \
	 "/attrs/leaf|ablock 0 ;; write -d entries[3].nameidx 4090|attr_set -v 5 x ;; attr_remove attr_2" \
	 "/attrs/node|ablock 0 ;; write -d hdr.count 900|attr_set -v 5 x ;; attr_remove attribute_number_3" \
	 "/attrs/sf|write -d a.sfattr.hdr.count 40|attr_set -v 5 x ;; attr_set -v 500 y ;; attr_remove one"; do
	path=${d%%|*}
	rest=${d#*|}
	damage=${rest%%|*}
	seq=${rest#*|}
	ino=$(ino_of "$img" "$path")
	cp --sparse=always "$img" "$T/bad.img"
	run "$XK_DB" "$T/bad.img" "inode $ino ;; $damage" > /dev/null
	before=$(sum_img "$T/bad.img")
	run "$XK_DB" "$T/bad.img" "inode $ino ;; $seq" > "$T/bad.out"
	rc=$?
	n=$(grep -c "^failed to" "$T/bad.out")
	if [ "$rc" -eq 0 ] && [ "$n" -ge 2 ] &&
	   [ "$(sum_img "$T/bad.img")" = "$before" ]; then
		ok "$path after $damage: $seq refused, nothing written"
	else
		not_ok "$path after $damage: $seq refused, nothing written"
		diag "rc $rc" "$(cat "$T/bad.out")"
	fi
done

# An LSN no log could have written (cycle 0) is a warning, not damage: the
# kernel and the reference's attr_set use such a leaf, and so do we.
ino=$(ino_of "$img" /attrs/leaf)
cp --sparse=always "$img" "$T/lsn.img"
run "$XK_DB" "$T/lsn.img" "inode $ino ;; ablock 0 ;; write -d hdr.info.lsn 5" > /dev/null
run "$XK_DB" "$T/lsn.img" "inode $ino ;; attr_set -v 5 x" > "$T/lsn.out"
if ! grep -q "^failed to" "$T/lsn.out" &&
   "$REF_DB" -r -c "inode $ino" -c "ablock 0" -c p "$T/lsn.img" |
	grep -q 'name = "x"'; then
	ok "/attrs/leaf with lsn 5: attr_set adds x to the leaf"
else
	not_ok "/attrs/leaf with lsn 5: attr_set adds x to the leaf"
	diag "$(cat "$T/lsn.out")"
fi

done_testing
