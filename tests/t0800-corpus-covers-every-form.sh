#!/bin/sh
# The corpus holds what it promises: every option set builds, its
# superblock has the geometry and features the set asks for, the reference
# xfs_repair -n finds it clean, and the reference xfs_db sees each on-disk
# form the population script aims at (directories in short form, block,
# leaf and node, with holes; data forks in extents and btree form;
# attribute forks in short form, leaf, node, btree and with remote values;
# local and remote symlinks; device inodes; short-form directories with
# 8-byte inode numbers), while the kernel listing shows
# every file type, unwritten extents, reflinked extents, the extreme
# timestamps and the big directories.  Readers of the corpus can then trust
# that a diff against its listings exercises all of them.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
. "$top_srcdir/tests/lib/corpus.sh"
corpus_need
sanitized_skip "this test of the corpus runs only the reference, the kernel and python"

t0=$(date +%s)
if corpus_build_all; then
	ok "every option set builds ($(($(date +%s) - t0)) s)"
else
	not_ok "every option set builds"
fi

# db IMG CMD...: the reference xfs_db, read-only, one -c per argument.
db() {
	_img=$1
	shift
	for _c in "$@"; do set -- "$@" -c "$_c"; shift; done
	"$REF_DB" -r "$@" "$_img" 2>&1
}

# field IMG INO NAME: one inode field's value ("core.format" -> 3).
field() {
	db "$1" "inode $2" "p $3" | awk '$2 == "=" { print $3; exit }'
}

# dmagic IMG INO FILEBLOCK: the magic of a directory block, or "unmapped".
dmagic() {
	db "$1" "inode $2" "dblock $3" "p" |
		awk '/unmapped/ { print "unmapped"; exit }
		     /magic = / { print $3; exit }'
}

# amagic IMG INO: the magic of attribute block 0.
amagic() {
	db "$1" "inode $2" "ablock 0" "p" | awk '/magic = / { print $3; exit }'
}

# holes IMG INO LIMIT: how many gaps the data fork has below block LIMIT.
holes() {
	db "$1" "inode $2" "bmap" | awk -v lim="$3" '$1 == "data" && $3 < lim {
		if ($3 > end) h++; end = $3 + $8 } END { print h + 0 }'
}

# lfield LIST PATH KEY: a field of one listing line.
lfield() {
	P=$2 K="$3=" awk '$1 == ENVIRON["P"] { k = ENVIRON["K"]
		for (i = 2; i <= NF; i++)
			if (index($i, k) == 1) { print substr($i, length(k) + 1); exit }
	}' "$1"
}

# expect DESC WANT GOT
expect() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1"
		diag "expected '$2', got '$3'"
	fi
}

for n in $(corpus_names); do
	img=$(corpus_image "$n") || { not_ok "$n: image"; continue; }
	list=$(corpus_listing "$n")
	opts=$(corpus_opts "$n")
	bs=$(corpus_geom "$n" blocksize)
	is=$(corpus_geom "$n" inodesize)
	dbs=$(corpus_geom "$n" dirblksize)
	# the lookups below read a listing without the entries of the big
	# directories (an awk over all 120,000 lines each was most of the
	# time of this loop)
	grep -Ev '^/dirs/(block|leaf|leaf-holes|node|node-holes|huge)/' "$list" \
		> "$T/lookup"
	ino() { lfield "$T/lookup" "$1" ino; }

	# --- the image is what the set asks for
	sb=$(db "$img" "sb 0" "p blocksize inodesize dirblklog agcount" version)
	want_bs=4096 want_is=512 want_dbs=4096 want_ag=""
	case $opts in *"-b size=1024"*) want_bs=1024 ;; esac
	case $opts in *"-i size=1024"*) want_is=1024 ;; esac
	case $opts in *"-i size=2048"*) want_is=2048 ;; esac
	case $opts in *"-n size=16384"*) want_dbs=16384 ;; esac
	case $opts in *"-n size=65536"*) want_dbs=65536 ;; esac
	case $opts in *agcount=*) want_ag=${opts##*agcount=}; want_ag=${want_ag%% *} ;; esac
	got_ag=$(echo "$sb" | awk '$1 == "agcount" { print $3 }')
	expect "$n: geometry" "$want_bs $want_is $want_dbs ${want_ag:-$got_ag}" \
		"$bs $is $dbs $got_ag"
	feats=""
	for f in RMAPBT REFLINK FINOBT SPARSE_INODES BIGTIME NREXT64; do
		case $sb in *"$f"*) feats="$feats $f" ;; esac
	done
	want=" RMAPBT REFLINK FINOBT SPARSE_INODES BIGTIME"
	case $opts in *rmapbt=0*) want=$(echo "$want" | sed 's/ RMAPBT//') ;; esac
	case $opts in *reflink=0*) want=$(echo "$want" | sed 's/ REFLINK//') ;; esac
	case $opts in *finobt=0*) want=$(echo "$want" | sed 's/ FINOBT//') ;; esac
	case $opts in *sparse=0*) want=$(echo "$want" | sed 's/ SPARSE_INODES//') ;; esac
	case $opts in *bigtime=0*) want=$(echo "$want" | sed 's/ BIGTIME//') ;; esac
	case $opts in *nrext64=1*) want="$want NREXT64" ;; esac
	expect "$n: features" "$want" "$feats"

	size=$(stat -c %s "$img")
	used=$(($(stat -c %b "$img") * $(stat -c %B "$img")))
	[ "$used" -lt $((size / 4)) ] && ok "$n: image is sparse ($((used >> 20)) of $((size >> 20)) MiB)" ||
		not_ok "$n: image is sparse ($used of $size bytes used)"

	# with one AG there is no secondary superblock to check the geometry
	# against, and the reference wants to be told to go on
	force=""
	[ "$got_ag" = 1 ] && force="-o force_geometry"
	# shellcheck disable=SC2086
	if "$REF_REPAIR" -n $force "$img" > "$T/repair.out" 2>&1; then
		ok "$n: reference xfs_repair -n is clean"
	else
		not_ok "$n: reference xfs_repair -n is clean"
		diag "$(tail -n 20 "$T/repair.out")"
	fi

	# --- directories: the data fork holds data blocks from 0, the hash
	# index from 32 GiB and the free index from 64 GiB (XFS_DIR2_*_OFFSET)
	leafoff=$(((1 << 35) / bs))
	freeoff=$(((1 << 36) / bs))
	i=$(ino /dirs/short)
	expect "$n: /dirs/short is short form" 1 "$(field "$img" "$i" core.format)"
	i=$(ino /dirs/short-empty)
	expect "$n: /dirs/short-empty is short form" 1 "$(field "$img" "$i" core.format)"
	i=$(ino /dirs/block)
	expect "$n: /dirs/block is one block (XDB3, no hash index)" "0x58444233 unmapped" \
		"$(dmagic "$img" "$i" 0) $(dmagic "$img" "$i" "$leafoff")"
	for d in leaf leaf-holes; do
		i=$(ino /dirs/$d)
		expect "$n: /dirs/$d is leaf form (XDD3, leaf1 hash block, no free index)" \
			"0x58444433 0x3df1 unmapped" \
			"$(dmagic "$img" "$i" 0) $(dmagic "$img" "$i" "$leafoff") $(dmagic "$img" "$i" "$freeoff")"
	done
	for d in node node-holes; do
		i=$(ino /dirs/$d)
		expect "$n: /dirs/$d is node form (dabtree node, free index XDF3)" \
			"0x3ebe 0x58444633" \
			"$(dmagic "$img" "$i" "$leafoff") $(dmagic "$img" "$i" "$freeoff")"
	done
	for d in leaf-holes node-holes; do
		i=$(ino /dirs/$d)
		h=$(holes "$img" "$i" "$leafoff")
		[ "$h" -ge 1 ] && ok "$n: /dirs/$d has freed data blocks ($h holes)" ||
			not_ok "$n: /dirs/$d has freed data blocks"
	done
	# Whether a directory's extents outgrow the inode is up to the
	# allocator: with 4 KiB directory blocks /dirs/node's blocks come
	# apart from each other in well over 100 extents, six times what the
	# largest literal area holds; with bigger blocks (and on ino64, where
	# the file inodes go elsewhere) there are too few to count on.
	i=$(ino /dirs/node)
	if [ "$dbs" = 4096 ] && [ "$n" != ino64 ]; then
		expect "$n: /dirs/node's data fork is a btree" 3 "$(field "$img" "$i" core.format)"
	fi
	expect "$n: /dirs/node has 20000 entries" 20000 "$(grep -c '^/dirs/node/' "$list")"
	if [ "$(corpus_geom "$n" bigdir)" = 1 ]; then
		expect "$n: /dirs/huge has 100000 entries" 100000 \
			"$(grep -c '^/dirs/huge/' "$list")"
		i=$(ino /dirs/huge)
		expect "$n: /dirs/huge is node form" 0x3ebe "$(dmagic "$img" "$i" "$leafoff")"
	fi

	# --- inode numbers past 32 bits: short-form directories then store
	# 8-byte inode numbers (xfs_dir2_sf_hdr.i8count)
	big=$(awk '{ sub(/^ino=/, "", $2); if (length($2) > 10 || $2 + 0 > 4294967295) c++ }
		END { print c + 0 }' "$list")
	if [ "$n" = ino64 ]; then
		[ "$big" -gt 1000 ] && ok "$n: $big inode numbers past 32 bits" ||
			not_ok "$n: inode numbers past 32 bits ($big)"
		for d in / /dirs/short; do
			i8=$(field "$img" "$(ino $d)" u3.sfdir3.hdr.i8count)
			[ "${i8:-0}" -gt 0 ] && ok "$n: $d is short form with 8-byte inode numbers" ||
				not_ok "$n: $d is short form with 8-byte inode numbers (i8count '$i8')"
		done
	fi

	# --- data forks
	i=$(ino /files/fragmented)
	expect "$n: /files/fragmented's data fork is a btree" 3 "$(field "$img" "$i" core.format)"
	next=$(lfield "$T/lookup" /files/fragmented ext | tr ',' '\n' | grep -c .)
	expect "$n: /files/fragmented has one extent every other block" \
		$((4194304 / bs / 2)) "$next"
	i=$(ino /files/contiguous)
	expect "$n: /files/contiguous's data fork is extents" 2 "$(field "$img" "$i" core.format)"
	for f in prealloc prealloc-mixed prealloc-keep; do
		lfield "$T/lookup" /files/$f ext | grep -q '[0-9]u' &&
			ok "$n: /files/$f has unwritten extents" ||
			not_ok "$n: /files/$f has unwritten extents"
	done
	expect "$n: /files/empty has no extents" - "$(lfield "$T/lookup" /files/empty ext)"
	expect "$n: /files/holes-only has no extents" - "$(lfield "$T/lookup" /files/holes-only ext)"
	if [ "$(corpus_geom "$n" reflink)" = 1 ]; then
		src=$(lfield "$T/lookup" /files/reflink-src ext)
		expect "$n: the reflinked clone shares the source's blocks" "$src" \
			"$(lfield "$T/lookup" /files/reflink-clone ext)"
		cow=$(lfield "$T/lookup" /files/reflink-cow ext)
		[ -n "$cow" ] && [ "$cow" != "$src" ] &&
			ok "$n: the CoW'd clone has blocks of its own" ||
			not_ok "$n: the CoW'd clone has blocks of its own"
	else
		grep -q '^/files/reflink' "$list" &&
			not_ok "$n: no reflinked files without reflink" ||
			ok "$n: no reflinked files without reflink"
	fi

	# --- attribute forks
	i=$(ino /attrs/short)
	expect "$n: /attrs/short is a short-form attribute fork" 1 \
		"$(field "$img" "$i" core.aformat)"
	i=$(ino /attrs/leaf)
	expect "$n: /attrs/leaf is an attribute leaf (XFS_ATTR3_LEAF_MAGIC)" 0x3bee \
		"$(amagic "$img" "$i")"
	i=$(ino /attrs/node)
	expect "$n: /attrs/node is a dabtree node (XFS_DA3_NODE_MAGIC)" 0x3ebe \
		"$(amagic "$img" "$i")"
	i=$(ino /attrs/btree)
	expect "$n: /attrs/btree's attribute fork is a btree" 3 \
		"$(field "$img" "$i" core.aformat)"
	i=$(ino /attrs/remote)
	db "$img" "inode $i" "ablock 0" "p" | grep -q 'valueblk' &&
		ok "$n: /attrs/remote has remote values" ||
		not_ok "$n: /attrs/remote has remote values"
	v=$(lfield "$T/lookup" /attrs/remote xattr | tr ',' '\n' | sed -n 's/^user\.remote64k=//p')
	expect "$n: the listing has the 64 KiB value" 131072 "${#v}"
	lfield "$T/lookup" /attrs/short xattr | grep -q 'user\.empty=-' &&
		ok "$n: an empty attribute value" || not_ok "$n: an empty attribute value"
	for ns in trusted security; do
		lfield "$T/lookup" /attrs/short xattr | grep -q "$ns\." &&
			ok "$n: $ns.* attributes" || not_ok "$n: $ns.* attributes"
	done

	# --- symlinks and devices
	i=$(ino /links/short)
	expect "$n: a short symlink is local" 1 "$(field "$img" "$i" core.format)"
	i=$(ino /links/len-1023)
	if [ "$is" -ge 2048 ]; then
		# 1023 bytes fit in a 2 KiB inode's literal area
		expect "$n: the 1023-byte symlink is local in a $is-byte inode" 1 \
			"$(field "$img" "$i" core.format)"
	else
		expect "$n: the 1023-byte symlink is remote" 2 \
			"$(field "$img" "$i" core.format)"
	fi
	expect "$n: the 1023-byte symlink's target" 1023 \
		"$(lfield "$T/lookup" /links/len-1023 size)"
	i=$(ino /special/chr-max)
	expect "$n: a device inode has the dev format" 0 "$(field "$img" "$i" core.format)"
	expect "$n: hard links share one inode, nlink 3" "3 3 3" \
		"$(lfield "$T/lookup" /links/hard-a nlink) $(lfield "$T/lookup" /links/hard-b nlink) $(lfield "$T/lookup" /dirs/short/hard-c nlink)"
	expect "$n: the hard links' inode numbers" \
		"$(ino /links/hard-a) $(ino /links/hard-a)" \
		"$(ino /links/hard-b) $(ino /dirs/short/hard-c)"

	# --- the listing: every type, the long names, the extreme times
	types=$(awk '{ sub(/^type=/, "", $3); print $3 }' "$list" | sort -u | tr '\n' ' ')
	expect "$n: every file type" "blk chr dir fifo lnk reg sock " "$types"
	long=$(awk '$1 ~ /^\/names\// { n = $1; gsub(/\\x[0-9a-f][0-9a-f]/, "_", n);
		if (length(n) == 7 + 255) c++ } END { print c + 0 }' "$list")
	expect "$n: two 255-byte names" 2 "$long"
	expect "$n: the oldest timestamp" -2147483648.000000000 \
		"$(lfield "$T/lookup" /files/times/oldest mtime)"
	expect "$n: half a second before the epoch" -1.500000000 \
		"$(lfield "$T/lookup" /files/times/before-epoch mtime)"
	if [ "$(corpus_geom "$n" bigtime)" = 1 ]; then
		expect "$n: the newest bigtime timestamp" 16299217215.000000000 \
			"$(lfield "$T/lookup" /files/times/newest mtime)"
	else
		grep -q '^/files/times/after-2038 ' "$list" &&
			not_ok "$n: nothing after 2038 without bigtime" ||
			ok "$n: nothing after 2038 without bigtime"
	fi
	LC_ALL=C sort -c "$list" 2>/dev/null && ok "$n: the listing is sorted" ||
		not_ok "$n: the listing is sorted"
done
done_testing
