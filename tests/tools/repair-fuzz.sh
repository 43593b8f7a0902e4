#!/bin/bash
# repair-fuzz.sh: differential fuzzing of our xfs_repair -n against the
# reference (Debian's xfsprogs, /usr/sbin/xfs_repair), for issue #5 (same
# exit code, at least what the reference finds, no false alarms).
#
# For each image (tests/lib/repair-images.sh: std, plain, ...), each
# metadata object (superblocks, AG headers, btree roots, inodes of every
# kind, directory and attribute blocks: see objects() below), each field
# `xfs_db print` shows for it (array elements sampled: the first three,
# the last, and for the AGFL the flfirst..fllast slots), and each fuzz
# verb, it
#   - copies the cached image (cp --sparse=always) to a scratch dir,
#   - damages one field with the reference `xfs_db -x -c "fuzz -d FIELD
#     VERB"` (-d: the CRC is recomputed, so the damage is "good CRC"),
#   - runs the reference and our xfs_repair -n (each under timeout),
#   - prints one tab-separated line per run:
#       image object field verb before after ref_rc our_rc verdict our_codes
#     verdict: same | MISMATCH | CRASH (ours exit >= 128, not a timeout)
#     | HANG (timeout) | SAN (sanitizer report) | REFCRASH | REFHANG
#     | NOOP (the fuzz changed nothing; repair not run) | DBFAIL
#     | DBHANG (the reference xfs_db itself hung on the damaged object).
#   - keeps both outputs (and our findings file) of every run that was not
#     NOOP/DBFAIL in the keep directory, as IMAGE.OBJECT.FIELD.VERB.{ref,ours,found}.
#
# Run as root from the source tree, with a built tree (ideally one
# configured with --enable-sanitizers, so memory errors show as SAN):
#
#   export RP_CACHE=/work/main/build/tests/repair-cache  # cached images
#   nice -n 10 tests/tools/repair-fuzz.sh -k /tmp/fuzz-keep build-asan > results.tsv
#
# Options:
#   -i "std plain"   images to fuzz (default: std plain)
#   -O REGEX         keep only objects whose name matches (egrep)
#   -F REGEX         keep only fields whose name matches (egrep)
#   -V "VERBS"       fuzz verbs (default: zeroes ones firstbit middlebit
#                    lastbit add sub)
#   -s N             deterministic sample: run 1 in N (object, field, verb)
#                    triples (chosen by a hash; default 1 = all)
#   -k DIR           keep the outputs there (default: none kept)
#   -t SECONDS       timeout of each repair run (default 60)
#   -R FILE          resume: skip the runs FILE (an earlier output) holds
#   -l               only list "image object field navigation" lines
#                    (the xfs_db commands that reach each object), run nothing
# Environment: XK_REPAIR (default BUILDDIR/repair/xfs_repair), TMPDIR
# (scratch; default /dev/shm, where a copy costs no disk I/O).
#
# Replaying one line: `-l -O '^OBJECT$'` prints the object's navigation
# (e.g. "agf 0; addr bnoroot"); then
#   cp --sparse=always IMAGE x.img
#   xfs_db -x -c "agf 0" -c "addr bnoroot" -c "fuzz -d FIELD VERB" x.img
#   /usr/sbin/xfs_repair -n x.img; BUILDDIR/repair/xfs_repair -n x.img
# A whole run (std and plain, every field, 7 verbs: about 22,000 runs)
# takes 50 to 90 minutes on 2 cores.
set -u

images="std plain"
obj_re="" field_re=""
verbs="zeroes ones firstbit middlebit lastbit add sub"
sample=1 keep="" tmo=60 list_only="" resume=""
while getopts "i:O:F:V:s:k:t:R:l" o; do
	case $o in
	i) images=$OPTARG ;;
	O) obj_re=$OPTARG ;;
	F) field_re=$OPTARG ;;
	V) verbs=$OPTARG ;;
	s) sample=$OPTARG ;;
	k) keep=$OPTARG ;;
	t) tmo=$OPTARG ;;
	R) resume=$OPTARG ;;
	l) list_only=1 ;;
	*) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { echo "usage: $0 [options] BUILDDIR (-h for help)" >&2; exit 2; }

top_srcdir=$(cd "$(dirname "$0")/../.." && pwd)
top_builddir=$(cd "$1" && pwd) || exit 2
export top_srcdir top_builddir
: "${TMPDIR:=/dev/shm}"
export TMPDIR
# (test-lib.sh names our tools in the build tree: an XK_REPAIR given
# stands)
xk_repair_given=${XK_REPAIR:-}
# shellcheck source=/dev/null
. "$top_srcdir/tests/lib/test-lib.sh"
# shellcheck source=/dev/null
. "$top_srcdir/tests/lib/repair-images.sh"
XK_REPAIR=${xk_repair_given:-$top_builddir/repair/xfs_repair}
[ -x "$XK_REPAIR" ] || { echo "no $XK_REPAIR" >&2; exit 2; }
[ -z "$keep" ] || mkdir -p "$keep" || exit 2

# db IMG "cmd1; cmd2; ..." [xfs_db options]: the reference xfs_db.
db() {
	local img=$1 cmds=$2 c
	shift 2
	local -a args=()
	local IFS=';'
	set -f
	for c in $cmds; do args+=(-c "${c# }"); done
	set +f
	IFS=' '
	timeout 30 "$REF_DB" "$@" "${args[@]}" "$img" 2>&1
}

# objects IMAGE IMG: "name<TAB>navigation<TAB>extra array indices" lines.
objects() {
	local n=$1 img=$2 ino p dbs leafda freeda rec
	printf 'sb0\tsb 0\t\nsb1\tsb 1\t\n'
	for a in 0 1; do
		printf 'agf%s\tagf %s\t\nagi%s\tagi %s\t\n' $a $a $a $a
		# the AGFL: its live slots too
		rec=$(db "$img" "agf $a; print flfirst fllast" -r |
			awk '{ printf "%s%s", (NR > 1 ? "," : ""), $3 }')
		printf 'agfl%s\tagfl %s\t%s\n' $a $a "$rec"
	done
	local agf agi
	agf=$(db "$img" "agf 0; print" -r)
	agi=$(db "$img" "agi 0; print" -r)
	printf 'bnobt0\tagf 0; addr bnoroot\t\ncntbt0\tagf 0; addr cntroot\t\n'
	printf 'inobt0\tagi 0; addr root\t\n'
	echo "$agi" | grep -q '^free_root = [1-9]' &&
		printf 'finobt0\tagi 0; addr free_root\t\n'
	if echo "$agf" | grep -q '^rmaproot = [1-9]'; then
		printf 'rmapbt0\tagf 0; addr rmaproot\t\n'
		echo "$agf" | grep -q '^rmaplevel = 1$' ||
			printf 'rmapbt0_leaf\tagf 0; addr rmaproot; addr ptrs[1]\t\n'
	fi
	echo "$agf" | grep -q '^refcntroot = [1-9]' &&
		printf 'refcountbt0\tagf 0; addr refcntroot\t\n'
	for p in / /dir_sf /dir_block /dir_leaf /dir_node /file_small /file_btree \
		/file_sparse /file_unwritten /file_reflink /link_short /link_long \
		/chardev /fifo /attr_sf /attr_leaf /attr_remote; do
		ino=$(rp_ino "$n" "$p") || continue
		printf 'ino%s\tinode %s\t\n' "$(echo "$p" | sed 's#^/$#_root#; s#/#_#g')" "$ino"
	done
	# directory and attribute blocks; leaf and free blocks sit at 32 and
	# 64 GiB into the data fork
	dbs=$(db "$img" "sb 0; print blocksize dirblklog" -r |
		awk '{ v[$1] = $3 } END { print v["blocksize"] * 2 ^ v["dirblklog"] }')
	leafda=$((34359738368 / dbs))
	freeda=$((2 * leafda))
	ino=$(rp_ino "$n" /file_btree) &&
		printf 'bmbt_file_btree\tinode %s; addr u3.bmbt.ptrs[1]\t\n' "$ino"
	ino=$(rp_ino "$n" /dir_block) &&
		printf 'dblk_dir_block\tinode %s; dblock 0\t\n' "$ino"
	ino=$(rp_ino "$n" /dir_leaf) && {
		printf 'ddata_dir_leaf\tinode %s; dblock 0\t\n' "$ino"
		printf 'dleaf_dir_leaf\tinode %s; dblock %s\t\n' "$ino" $leafda
	}
	ino=$(rp_ino "$n" /dir_node) && {
		printf 'ddata_dir_node\tinode %s; dblock 0\t\n' "$ino"
		printf 'dnode_dir_node\tinode %s; dblock %s\t\n' "$ino" $leafda
		printf 'dleaf_dir_node\tinode %s; dblock %s\t\n' "$ino" $((leafda + 1))
		printf 'dfree_dir_node\tinode %s; dblock %s\t\n' "$ino" $freeda
	}
	ino=$(rp_ino "$n" /attr_leaf) &&
		printf 'aleaf_attr_leaf\tinode %s; ablock 0\t\n' "$ino"
	ino=$(rp_ino "$n" /attr_remote) &&
		printf 'aleaf_attr_remote\tinode %s; ablock 0\t\n' "$ino"
	return 0
}

# fields EXTRA: the fuzzable field names of a `print` on stdin, arrays
# sampled (first three elements, the last, and the indices in EXTRA).
fields() {
	awk -v extra="$1" '
	function keep_idx(lo, hi, i) {
		return i == lo || i == lo + 1 || i == lo + 2 || i == hi || (i in xtra)
	}
	BEGIN { n = split(extra, e, ","); for (k = 1; k <= n; k++) if (e[k] != "") xtra[e[k] + 0] = 1 }
	# ranges: NAME[a-b] = [sub,...]  or  NAME[a-b] = 0:x 1:y
	/^[^ ]+\[[0-9]+-[0-9]+\] = / {
		name = $1; sub(/\[.*/, "", name)
		r = $1; sub(/.*\[/, "", r); sub(/\].*/, "", r)
		split(r, ab, "-"); lo = ab[1] + 0; hi = ab[2] + 0
		subs = ""
		if ($3 ~ /^\[[a-z_,0-9]+\]$/) { subs = $3; gsub(/[\[\]]/, "", subs) }
		ns = split(subs, s, ",")
		for (i = lo; i <= hi; i++) {
			if (!keep_idx(lo, hi, i)) continue
			if (ns == 0) print name "[" i "]"
			else for (k = 1; k <= ns; k++) print name "[" i "]." s[k]
		}
		next
	}
	# a one-element array: NAME[a] = [sub,...]
	/^[^ ]+\[[0-9]+\] = \[[a-z_,0-9]+\] *$/ {
		name = $1; subs = $3; gsub(/[\[\]]/, "", subs)
		ns = split(subs, s, ",")
		for (k = 1; k <= ns; k++) print name "." s[k]
		next
	}
	/^[^ ]+ = / {
		if ($3 == "(empty)") next
		f = $1
		if (f ~ /(^|\.)crc$/) next
		# arrays printed one element a line: du[5].name, nvlist[2].value
		if (f ~ /\[[0-9]+\]/) {
			pre = f; sub(/\[.*/, "", pre)
			i = f; sub(/^[^\[]*\[/, "", i); sub(/\].*/, "", i); i += 0
			cnt[pre]++; lines[pre, cnt[pre]] = f; idx[pre, cnt[pre]] = i
			if (!(pre in lo_) || i < lo_[pre]) lo_[pre] = i
			if (!(pre in hi_) || i > hi_[pre]) hi_[pre] = i
			if (!(pre in order)) { order[pre] = ++npre; pres[npre] = pre }
			next
		}
		print f
	}
	END {
		for (p = 1; p <= npre; p++) {
			pre = pres[p]
			for (k = 1; k <= cnt[pre]; k++)
				if (keep_idx(lo_[pre], hi_[pre], idx[pre, k]))
					print lines[pre, k]
		}
	}'
}

# val FIELD: the values of the "FIELD = VALUE" lines on stdin, cut short
val() {
	awk -v f="$1 = " 'index($0, f) == 1 { print substr(substr($0, length(f) + 1), 1, 60) }' |
		tr '\t' ' '
}

# a hash of a string, for -s
pick() {
	[ "$sample" -le 1 ] && return 0
	local h
	h=$(printf '%s' "$1" | cksum | cut -d' ' -f1)
	[ $((h % sample)) -eq 0 ]
}

W=$T
for n in $images; do
	src=$(rp_image "$n") || { echo "no image $n" >&2; continue; }
	objects "$n" "$src" > "$W/objects.$n"
	while IFS=$'\t' read -r obj nav extra; do
		[ -z "$obj_re" ] || echo "$obj" | grep -qE "$obj_re" || continue
		db "$src" "$nav; print" -r | fields "$extra" > "$W/fields"
		while read -r field; do
			[ -z "$field_re" ] || echo "$field" | grep -qE "$field_re" || continue
			if [ -n "$list_only" ]; then
				printf '%s\t%s\t%s\t%s\n' "$n" "$obj" "$field" "$nav"
				continue
			fi
			for verb in $verbs; do
				pick "$n $obj $field $verb" || continue
				[ -z "$resume" ] || ! grep -qF "$(printf '%s\t' "$n" "$obj" "$field" "$verb")" "$resume" ||
					continue
				img="$W/x.img"
				rp_copy "$src" "$img" || exit 1
				# (fuzz prints the new value itself: a second print may loop
				# forever in the reference xfs_db, e.g. on a directory free
				# entry of length 0)
				db "$img" "$nav; print $field; fuzz -d $field $verb" -x \
					> "$W/db.out"
				dbrc=$?
				before=$(val "$field" < "$W/db.out" | head -n 1)
				after=$(val "$field" < "$W/db.out" | tail -n 1)
				refrc=- ourrc=- codes=""
				# (a field may print empty, e.g. an all-null AGI unlinked slot:
				# then the fuzz is assumed to have changed it)
				if [ "$dbrc" = 124 ]; then
					verdict=DBHANG
				elif ! awk -v f="$field = " 'index($0, f) == 1 { x = 1 } END { exit !x }' "$W/db.out" ||
					grep -qiE '^(usage|bad fuzz|unable to fuzz|parsing error|field .* not found)' "$W/db.out"; then
					verdict=DBFAIL
				elif [ -n "$before" ] && [ "$before" = "$after" ]; then
					verdict=NOOP
				else
					rp_devargs devs "$img"
					# shellcheck disable=SC2086
					timeout "$tmo" "$REF_REPAIR" -n $devs "$img" > "$W/ref" 2>&1
					refrc=$?
					: > "$W/found"
					# shellcheck disable=SC2086
					XFSKIT_REPAIR_FINDINGS="$W/found" timeout "$tmo" "$XK_REPAIR" -n $devs "$img" \
						> "$W/ours" 2>&1
					ourrc=$?
					codes=$(grep -o '\[[A-Z][A-Z0-9_]*\]' "$W/found" | tr -d '[]' | sort -u |
						tr '\n' ',' | sed 's/,$//')
					if [ "$ourrc" = 124 ]; then verdict=HANG
					elif sanitizer_report "$W/ours"; then verdict=SAN
					elif [ "$ourrc" -ge 128 ]; then verdict=CRASH
					elif [ "$refrc" = 124 ]; then verdict=REFHANG
					elif [ "$refrc" -ge 128 ]; then verdict=REFCRASH
					elif [ "$refrc" = "$ourrc" ]; then verdict=same
					else verdict=MISMATCH
					fi
					if [ -n "$keep" ]; then
						k="$keep/$n.$obj.$field.$verb"
						cp "$W/ref" "$k.ref"; cp "$W/ours" "$k.ours"
						cp "$W/found" "$k.found"
					fi
				fi
				printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$obj" "$field" \
					"$verb" "$before" "$after" "$refrc" "$ourrc" "$verdict" "$codes"
				rp_rm "$img"
			done
		done < "$W/fields"
	done < "$W/objects.$n"
done
