#!/bin/sh
# Hostile btree blocks never crash the walkers.  On the deep image (all
# six trees of one AG taller than one level), every block on the leftmost
# path of each tree gets random bytes after its header, with the CRC made
# good again so the walk reads the garbage rather than stopping at the
# checksum (fixed seeds, so a failure repeats); the root's pointers are
# set to random blocks of the busy low part of the AG, where other
# trees' blocks, inode chunks and file data live; then the reference
# xfs_db's fuzzer randomizes header fields of the root and of a leaf.
# walkfs and agtool must both exit 1 (a finding, not 0 or a crash) and no
# sanitizer may report, in the sanitizer build.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
. "$top_srcdir/tests/lib/ag-images.sh"

need_loop
need_ref
command -v python3 > /dev/null 2>&1 || skip_all "needs python3"
ag_need_tools

base=$(ag_deep_image) || skip_all "could not build the deep image"
d=$(ag_deep_ag "$base") || skip_all "no AG of the deep image has tall trees"
bs=$(ag_val "$base" "sb 0" blocksize)
hdrlen=56

# survive NAME: both tools exit 1 on $T/c.img, no sanitizer report
survive() {
	"$WALKFS" -q "$T/c.img" > "$T/walk.out" 2>&1
	_w=$?
	"$AGTOOL" check "$T/c.img" > "$T/ag.out" 2>&1
	_a=$?
	if [ $_w -eq 1 ] && [ $_a -eq 1 ] &&
	   ! grep -q -e Sanitizer -e 'runtime error' "$T/walk.out" "$T/ag.out"; then
		ok "$1: walkfs and agtool exit 1"
	else
		not_ok "$1: walkfs and agtool exit 1 (walkfs $_w, agtool $_a)"
		diag "$(grep -h -e Sanitizer -e 'runtime error' -e '^#' "$T/walk.out" "$T/ag.out" | head -5)"
		diag "$(grep -v '^walkfs: directory' "$T/walk.out" | tail -3)"
	fi
}

# random bytes: N of them from SEED
noise() {
	python3 -c 'import random, sys
random.seed(int(sys.argv[1]))
sys.stdout.buffer.write(bytes(random.getrandbits(8) for _ in range(int(sys.argv[2]))))' "$1" "$2"
}

# NAME HEADER ROOTFIELD KEYSLOT (bytes of keys per pointer in a node)
trees() {
	cat <<-EOF
	bnobt agf bnoroot 8
	cntbt agf cntroot 8
	inobt agi root 4
	finobt agi free_root 4
	rmapbt agf rmaproot 40
	refcountbt agf refcntroot 4
	EOF
}

# random be32 block numbers below LIMIT: N of them from SEED
randptrs() {
	python3 -c 'import random, sys
random.seed(int(sys.argv[1]))
lim = int(sys.argv[3])
sys.stdout.buffer.write(b"".join(random.randrange(lim).to_bytes(4, "big")
	for _ in range(int(sys.argv[2]))))' "$1" "$2" "$3"
}

trees > "$T/trees"
# each tree: (levels) blocks x 2 seeds, 2 seeds of random root pointers,
# then 4 fuzzed fields x 2 blocks
n=0
while read -r name hdr rootf slot; do
	l=$(ag_val "$base" "$hdr $d" "addr $rootf" level)
	n=$((n + (l + 1) * 2 + 2 + 8))
done < "$T/trees"
plan $n
len=$(ag_val "$base" "agf $d" length)
low=$((len < 25000 ? len : 25000))

while read -r name hdr rootf slot; do
	rdaddr=$(ag_val "$base" "$hdr $d" "addr $rootf" bno)
	rnrecs=$(ag_val "$base" "$hdr $d" "addr $rootf" numrecs)
	ptroff=$((hdrlen + (bs - hdrlen) / (slot + 4) * slot))
	for seed in 1 2; do
		ag_copy "$base" "$T/c.img"
		randptrs "$seed" "$rnrecs" "$low" |
			dd of="$T/c.img" bs=1 seek=$((rdaddr * 512 + ptroff)) \
			   conv=notrunc status=none
		ag_poke "$T/c.img" "$hdr $d" "addr $rootf" "write -d numrecs $rnrecs"
		survive "$name root, random pointers into the AG (seed $seed)"
	done
	level=$(ag_val "$base" "$hdr $d" "addr $rootf" level)
	path="addr $rootf"
	l=$level
	while [ "$l" -ge 0 ]; do
		# shellcheck disable=SC2086
		set -f; IFS=';'; set -- $path; unset IFS; set +f
		daddr=$(ag_val "$base" "$hdr $d" "$@" bno)
		nrecs=$(ag_val "$base" "$hdr $d" "$@" numrecs)
		for seed in 1 2; do
			ag_copy "$base" "$T/c.img"
			noise "$seed$l" $((bs - hdrlen)) |
				dd of="$T/c.img" bs=1 seek=$((daddr * 512 + hdrlen)) \
				   conv=notrunc status=none
			ag_poke "$T/c.img" "$hdr $d" "$@" "write -d numrecs $nrecs"
			survive "$name level $l block, random contents (seed $seed)"
		done
		path="$path;addr ptrs[1]"
		l=$((l - 1))
	done
	leafpath="$path"
	for where in root leaf; do
		if [ $where = root ]; then
			set -- "addr $rootf"
		else
			# shellcheck disable=SC2086
			set -f; IFS=';'; set -- ${leafpath%;addr ptrs\[1\]}; unset IFS; set +f
		fi
		for f in numrecs level leftsib rightsib; do
			ag_copy "$base" "$T/c.img"
			ag_poke "$T/c.img" "$hdr $d" "$@" "fuzz -d $f random"
			# a random value can land on the right one; make sure not
			if ag_val "$T/c.img" "$hdr $d" "$@" "$f" |
			   cmp -s - "$(printf '%s\n' "$(ag_val "$base" "$hdr $d" "$@" "$f")" > "$T/orig"; echo "$T/orig")"; then
				ag_poke "$T/c.img" "$hdr $d" "$@" "fuzz -d $f ones"
			fi
			survive "$name $where, $f fuzzed"
		done
	done
done < "$T/trees"
done_testing
