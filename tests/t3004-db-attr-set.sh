#!/bin/sh
# Expert attr_set / attr_remove beyond an existing short-form fork change
# the filesystem as the reference's do: for each case (an inode of a
# cached image and a sequence of commands) ours runs on one copy and the
# reference on another; the printed output, the reference's print of the
# inode (but for ctime, CRC and LSN, which differ by nature) and of every
# attribute block the fork maps (but for CRC and LSN) are identical; the
# reference finds our inode's CRC correct and its xfs_repair -n finds
# nothing; and the kernel, mounting our copy, reads the same attribute
# names and values as from the reference's copy.
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

# the inode and its attribute blocks as the reference prints them
dump() {	# dump IMAGE INO
	"$REF_DB" -r -c "inode $2" -c p "$1" 2>&1 |
		grep -v "core\.ctime\|v3\.crc\|v3\.lsn"
	"$REF_DB" -r -c "inode $2" -c "p a.bmx" "$1" 2>/dev/null |
		sed -n 's/^[0-9]*:\[\([0-9]*\),[0-9]*,\([0-9]*\),[01]\].*/\1 \2/p' |
	while read -r off len; do
		i=0
		while [ "$i" -lt "$len" ]; do
			echo "== ablock $((off + i))"
			"$REF_DB" -r -c "inode $2" -c "ablock $((off + i))" -c p \
				"$1" 2>&1 | grep -v "crc = \|lsn = "
			i=$((i + 1))
		done
	done
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
	cp --sparse=always "$img" "$T/ours.img"
	cp --sparse=always "$img" "$T/ref.img"
	run "$XK_DB" "$T/ours.img" "inode $ino ;; $seq" > "$T/our.out"
	run "$REF_DB" "$T/ref.img" "inode $ino ;; $seq" > "$T/ref.out"
	dump "$T/ours.img" "$ino" > "$T/ours.dump"
	dump "$T/ref.img" "$ino" > "$T/ref.dump"
	if cmp -s "$T/ref.out" "$T/our.out" && cmp -s "$T/ref.dump" "$T/ours.dump"
	then
		ok "$what: as the reference"
	else
		not_ok "$what: as the reference"
		diff "$T/ref.out" "$T/our.out" | head -10 | cut -c1-160 | diag
		diff "$T/ref.dump" "$T/ours.dump" | head -20 | cut -c1-160 | diag
	fi
	out=$("$REF_DB" -r -c "inode $ino" -c "p v3.crc" "$T/ours.img" 2>&1)
	case $out in
	*"(correct)"*) ok "$what: inode CRC correct" ;;
	*) not_ok "$what: inode CRC correct"; diag "$out" ;;
	esac
	if "$REF_REPAIR" -n "$T/ours.img" > "$T/repair.out" 2>&1 </dev/null; then
		ok "$what: reference xfs_repair -n finds nothing"
	else
		not_ok "$what: reference xfs_repair -n finds nothing"
		grep -v "^        - \|^Phase" "$T/repair.out" | head -10 | diag
	fi
	if [ -n "$can_mount" ]; then
		kread "$T/ours.img" "$path" > "$T/ours.k" </dev/null
		kread "$T/ref.img" "$path" > "$T/ref.k" </dev/null
		if cmp -s "$T/ref.k" "$T/ours.k"; then
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
small|/shortlink|attr_set -v 5 foo ;; attr_set -s -v 40 sec ;; attr_remove foo
big|/|attr_set -v 5 foo ;; attr_set -r -v 100 bar ;; attr_remove foo
big|/remotelink|attr_set -v 200 foo
full|/remotelink|attr_set -R -v 3 nothere
# a short-form fork grows into the room the data fork leaves
full|/sf/a|attr_set -v 100 a1 ;; attr_set -v 100 a2 ;; attr_set -v 60 a3 ;; attr_remove a2 ;; attr_remove a1 ;; p a
small|/sf|attr_set -v 120 a1 ;; attr_set -v 120 a2
full|/frag|attr_set -v 100 a1 ;; attr_set -v 20 a2 ;; attr_remove a1 ;; attr_remove a2
EOF

done_testing
