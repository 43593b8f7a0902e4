# Helpers of the mkfs tests: run our mkfs and the reference on the same
# options, and print what the reference xfs_db sees of an image.

# mkfs_ref_opts OPTS: the reference's options for one of our sets.
mkfs_ref_opts() {
	case "$1" in
	# realtime turns the reverse map off (quietly, unless asked for)
	*rmapbt=*|*rtdev=*) echo "$1" ;;
	*) echo "$1 -m rmapbt=1" ;;
	esac
}

# mkfs_run WHICH DIR SIZE ESCAPE OPTS...: make DIR/img with our mkfs
# (WHICH=ours) or the reference (WHICH=ref); the summary goes to DIR/out.
# Runs inside DIR so the device name printed is "img" for both.
mkfs_run() {
	_w=$1 _d=$2 _s=$3 _e=$4
	shift 4
	mkdir -p "$_d"
	rm -f "$_d/img" "$_d/rt.img" "$_d/log.img"
	# sets with -r rtdev=rt.img or -l logdev=log.img find them here
	truncate -s 1g "$_d/rt.img"
	truncate -s 128m "$_d/log.img"
	if [ "$_w" = ours ]; then _bin=$XK_MKFS; else _bin=$REF_MKFS; fi
	(
		cd "$_d" || exit 1
		if [ "$_e" = 1 ]; then
			export TEST_DIR=/nonexistent TEST_DEV=/nonexistent QA_CHECK_FS=1
		fi
		# shellcheck disable=SC2068
		"$_bin" "$@" -d file,name=img,size="$_s" > out 2> err
	)
}

# mkfs_devopts OPTS [db]: the xfs_repair options (xfs_db's with "db":
# it takes no realtime device) naming the external log and realtime
# files of a set (relative to its directory).
mkfs_devopts() {
	_o=
	case "$1" in *logdev=*) _o="-l log.img" ;; esac
	[ "$2" = db ] || case "$1" in *rtdev=*) _o="$_o -r rt.img" ;; esac
	echo "$_o"
}

# mkfs_dump IMAGE [XFS_DB OPTIONS]: sb 0 and last, AGF/AGI/AGFL and btree roots of AG 0 and
# the last AG, and the first three inodes (root, rt bitmap, rt summary),
# without checksums, LSNs and timestamps.
mkfs_dump() {
	_img=$1
	shift
	_dbo="$*"
	# shellcheck disable=SC2086
	_agc=$($REF_DB -r $_dbo -c "sb 0" -c "p agcount" "$_img" | sed 's/.* = //')
	_last=$((_agc - 1))
	# shellcheck disable=SC2086
	_root=$($REF_DB -r $_dbo -c "sb 0" -c "p rootino" "$_img" | sed 's/.* = //')
	set -- -c "sb 0" -c p -c "sb $_last" -c p
	for _ag in 0 $_last; do
		set -- "$@" -c "agf $_ag" -c p -c "agi $_ag" -c p -c "agfl $_ag" -c p
		# only the trees this filesystem has (absent roots print empty)
		for _r in bnoroot cntroot rmaproot refcntroot; do
			_v=$($REF_DB -r $_dbo -c "agf $_ag" -c "p $_r" "$_img" 2>/dev/null |
				sed -n 's/.* = \([0-9][0-9]*\)$/\1/p')
			[ -n "$_v" ] && [ "$_v" != 0 ] &&
				set -- "$@" -c "agf $_ag" -c "addr $_r" -c p
		done
		for _r in root free_root; do
			_v=$($REF_DB -r $_dbo -c "agi $_ag" -c "p $_r" "$_img" 2>/dev/null |
				sed -n 's/.* = \([0-9][0-9]*\)$/\1/p')
			[ -n "$_v" ] && [ "$_v" != 0 ] &&
				set -- "$@" -c "agi $_ag" -c "addr $_r" -c p
		done
	done
	for _i in 0 1 2; do
		set -- "$@" -c "inode $((_root + _i))" -c p
	done
	# shellcheck disable=SC2086
	$REF_DB -r $_dbo "$@" "$_img" 2>&1 |
		grep -v -E '^(crc|lsn|v3\.crc|v3\.lsn) = |\.(sec|nsec) = '
}
