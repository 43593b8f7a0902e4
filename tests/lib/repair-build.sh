# How the repair test images are made (sourced by repair-images.sh, which
# keys each cached image on this file: a change here rebuilds them, a
# change of the helpers there does not).

# NAME SIZE MKFS-OPTIONS...  ("dirty" is std left with a dirty log: the
# kernel is shut down while files are being created; "extlog" keeps its
# log in NAME-KEY.img.log; "rt" has a realtime section in NAME-KEY.img.rt
# and, as kernels are often built without realtime support, is filled by
# a protofile with three empty files (rtfile1, rtfile2, plain) that cases
# turn into realtime files with xfs_db)
_rp_table() {
	cat <<-'EOF'
	std      320m -m rmapbt=1 -d agcount=4
	dirty    320m -m rmapbt=1 -d agcount=4
	plain    320m -m rmapbt=0,reflink=0,finobt=0 -d agcount=4
	nosparse 320m -m rmapbt=1 -i sparse=0 -d agcount=4
	extlog   320m -m rmapbt=1 -d agcount=4
	rt       320m -m rmapbt=0,reflink=0 -d agcount=4
	EOF
}

_rp_row() {
	_rp_table | awk -v n="$1" '$1 == n { print; f = 1 } END { exit !f }'
}

# _rp_populate DIR: one of each kind of object.
_rp_populate() {
	_d=$1
	set -e
	mkdir "$_d/dir_sf" "$_d/dir_block" "$_d/dir_leaf" "$_d/dir_node"
	touch "$_d/dir_sf/a" "$_d/dir_sf/b"
	for i in $(seq 1 40); do : > "$_d/dir_block/entry_$i"; done
	for i in $(seq 1 400); do : > "$_d/dir_leaf/entry_name_$i"; done
	for i in $(seq 1 3000); do : > "$_d/dir_node/a_longer_entry_name_$i"; done
	mkdir -p "$_d/deep/er/still"
	# The kernel places a file's blocks when it writes them back, and an
	# AG whose headers are busy (being written out for the log) is passed
	# over: left to writeback at unmount, the same files landed in other
	# AGs from one build to the next.  So the log is emptied here, after
	# the bulk of the metadata, and each file's data is written at once
	# (fsync), in this order, while nothing else allocates.
	xfs_freeze -f "$_d" && xfs_freeze -u "$_d"
	echo nested > "$_d/deep/er/still/file"
	sync "$_d/deep/er/still/file"
	: > "$_d/file_empty"
	noise 12288 1 > "$_d/file_small"
	sync "$_d/file_small"
	noise 4194304 2 > "$_d/file_big"
	sync "$_d/file_big"
	# every other block: one extent each, too many for the inode
	_args=""
	for i in $(seq 0 2 300); do _args="$_args -c \"pwrite -q $((i * 4096)) 4096\""; done
	eval xfs_io -f $_args -c fsync "$_d/file_btree"
	xfs_io -f -c "pwrite -q 0 4096" -c "pwrite -q 1048576 4096" -c fsync "$_d/file_sparse"
	xfs_io -f -c "falloc 0 65536" "$_d/file_unwritten"
	if cp --reflink=always "$_d/file_small" "$_d/file_reflink" 2>/dev/null; then :; fi
	ln -s target "$_d/link_short"
	ln -s "$(printf 'x%.0s' $(seq 1 1000))" "$_d/link_long"
	mkfifo "$_d/fifo"
	mknod "$_d/chardev" c 1 3
	ln "$_d/file_small" "$_d/hardlink"
	: > "$_d/attr_sf"
	setfattr -n user.small -v value "$_d/attr_sf"
	: > "$_d/attr_leaf"
	for i in $(seq 1 30); do
		setfattr -n "user.attribute_$i" -v "value_number_$i" "$_d/attr_leaf"
	done
	: > "$_d/attr_remote"
	setfattr -n user.big -v "$(head -c 3000 /dev/zero | tr '\0' v)" "$_d/attr_remote"
	set +e
}

_rp_build() {
	_n=$1 _b=$2 _ldev=""
	_row=$(_rp_row "$_n")
	_size=$(echo "$_row" | awk '{ print $2 }')
	_opts=$(echo "$_row" | awk '{ for (i = 3; i <= NF; i++)
		printf "%s%s", $i, (i < NF ? " " : "\n") }')
	# drop what an older version of this file built
	rm -f "$RP_CACHE/$_n-"*.img "$RP_CACHE/$_n-"*.ino "$RP_CACHE/$_n-"*.tmp \
		"$RP_CACHE/$_n-"*.img.log "$RP_CACHE/$_n-"*.img.rt
	truncate -s "$_size" "$_b.img.tmp" || return 1
	_mopt=loop
	case $_n in
	rt)
		truncate -s 64m "$_b.img.rt" || return 1
		printf '/dummy\n0 0\nd--755 0 0\nrtfile1 ---644 0 0 /dev/null\nrtfile2 ---644 0 0 /dev/null\nplain ---644 0 0 /dev/null\n$\n' > "$_b.proto"
		# shellcheck disable=SC2086
		"$REF_MKFS" -q -f $_opts -r rtdev="$_b.img.rt" -p "$_b.proto" \
			"$_b.img.tmp" > "$_b.log" 2>&1 || return 1
		"$REF_DB" -r -c "ls /" "$_b.img.tmp" |
			awk 'NR > 1 && $NF == "(good)" && $(NF-1) != "." && $(NF-1) != ".." {
				print "/" $(NF-1), $2 }
			     NR > 1 && $(NF-1) == "." { print "/", $2 }' |
			sort > "$_b.ino" || return 1
		_rp_holes "$_b.img.tmp" "$_b.img.rt" || return 1
		mv "$_b.img.tmp" "$_b.img"
		return 0
		;;
	extlog)
		truncate -s 64m "$_b.img.log" || return 1
		# shellcheck disable=SC2086
		"$REF_MKFS" -q -f $_opts -l logdev="$_b.img.log",size=64m \
			"$_b.img.tmp" > "$_b.log" 2>&1 || return 1
		_ldev=$(losetup -f --show "$_b.img.log") || return 1
		_mopt="loop,logdev=$_ldev"
		;;
	*)
		# shellcheck disable=SC2086
		"$REF_MKFS" -q -f $_opts "$_b.img.tmp" > "$_b.log" 2>&1 || return 1
		;;
	esac
	mkdir -p "$_b.mnt"
	if ! mount -o "$_mopt" "$_b.img.tmp" "$_b.mnt" >> "$_b.log" 2>&1; then
		[ -z "$_ldev" ] || losetup -d "$_ldev"
		return 1
	fi
	if ! (_rp_populate "$_b.mnt") >> "$_b.log" 2>&1; then
		umount "$_b.mnt"
		[ -z "$_ldev" ] || losetup -d "$_ldev"
		return 1
	fi
	# "/path inode" for every path, "/" the root (one find: a process
	# per path cost a minute an image)
	(cd "$_b.mnt" && find . -xdev -printf '/%P %i\n' | LC_ALL=C sort) \
		> "$_b.ino.tmp"
	if [ "$_n" = dirty ]; then
		sync -f "$_b.mnt"
		mkdir "$_b.mnt/unreplayed"
		for i in $(seq 1 20); do echo "$i" > "$_b.mnt/unreplayed/$i"; done
		xfs_io -x -c "shutdown -f" "$_b.mnt" >> "$_b.log" 2>&1 || return 1
	fi
	umount "$_b.mnt" || return 1
	[ -z "$_ldev" ] || losetup -d "$_ldev"
	rmdir "$_b.mnt"
	_rp_holes "$_b.img.tmp" "$_b.img.log" || return 1
	mv "$_b.img.tmp" "$_b.img" && mv "$_b.ino.tmp" "$_b.ino"
}

# _rp_holes FILE...: make the zeroed blocks of an image holes (mkfs writes
# the whole log): every case copies the image, and cp reads all that is
# not a hole (the std image: 71 MiB written, 9 MiB not zero).  A sparse
# copy does it (fallocate --dig-holes leaves blocks written a moment ago).
_rp_holes() {
	for _h in "$@"; do
		[ -f "$_h" ] || continue
		cp --sparse=always "$_h" "$_h.holes" && mv "$_h.holes" "$_h" || return 1
	done
}
