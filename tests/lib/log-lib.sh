# Helpers for the log tests (t05xx), sourced after test-lib.sh.
#   log_region IMAGE       "offset length" in bytes of the internal log
#   log_poke IMAGE BLOCK OFFSET HEXBYTES
#                          overwrite bytes at BLOCK (512-byte log block)
#                          + OFFSET of the internal log
#   log_peek IMAGE BLOCK OFFSET COUNT   hex of COUNT bytes there
#   log_flip IMAGE BLOCK OFFSET [COUNT] invert COUNT (1) bytes there
#   extract_log IMAGE OUT  copy the internal log out of an image
LOGTOOL="$top_builddir/tests/tools/logtool"
REF_LOGPRINT=/usr/sbin/xfs_logprint
REF_IO=/usr/sbin/xfs_io

log_region() {
	_ls=$("$REF_DB" -r -c "sb 0" -c "p logstart" "$1" | awk '{print $3}')
	_lb=$("$REF_DB" -r -c "sb 0" -c "p logblocks" "$1" | awk '{print $3}')
	_bs=$("$REF_DB" -r -c "sb 0" -c "p blocksize" "$1" | awk '{print $3}')
	_off=$("$REF_DB" -r -c "convert fsb $_ls byte" "$1" |
		sed 's/.*(\([0-9]*\)).*/\1/')
	echo "$_off $((_lb * _bs))"
}

log_poke() {
	set -- "$1" "$2" "$3" "$4" $(log_region "$1")
	perl -e 'print pack("H*", $ARGV[0])' "$4" |
		dd of="$1" bs=1 seek=$(($5 + $2 * 512 + $3)) conv=notrunc \
			status=none
}

log_peek() {
	set -- "$1" "$2" "$3" "$4" $(log_region "$1")
	dd if="$1" bs=1 skip=$(($5 + $2 * 512 + $3)) count="$4" status=none |
		od -An -tx1 | tr -d ' \n'
}

# log_flip IMAGE BLOCK OFFSET [COUNT]: invert COUNT (1) bytes there
log_flip() {
	_h=$(log_peek "$1" "$2" "$3" "${4:-1}")
	log_poke "$1" "$2" "$3" \
		"$(perl -e 'print unpack("H*", pack("H*", $ARGV[0]) ^ ("\xff" x length(pack("H*", $ARGV[0]))))' "$_h")"
}

extract_log() {
	set -- "$1" "$2" $(log_region "$1")
	dd if="$1" of="$2" bs=1M iflag=skip_bytes,count_bytes skip="$3" \
		count="$4" status=none
}
