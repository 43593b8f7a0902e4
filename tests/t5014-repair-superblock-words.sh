#!/bin/sh
# What xfs_repair -n says of a damaged superblock is what the reference
# says, word for word: the verdict on the primary ("bad primary
# superblock - bad or unsupported version !!!") or on a copy ("bad
# on-disk superblock 1 - ..."), the copy's other faults (unused bytes to
# zero, sector size fields), unknown features, a log whose last record
# names another UUID ("* ERROR: mismatched uuid in log", both UUIDs,
# in phase 2), and what follows (the
# search for a secondary, the reset and skipped AG).  For each damage
# (made by the reference xfs_db), the lines of both tools that speak of
# superblocks are compared in order; the reference's verifier notices
# and the findings of later phases are not (repair/DIFFERENCES.md, and
# t5010 checks the findings).
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
. "$top_srcdir/tests/lib/repair-images.sh"

rp_need "$XK_REPAIR"

words='^(bad primary superblock|couldn.t verify primary|attempting to find|found candidate|verified secondary|unable to verify|Sorry, could not find|would write modified primary|bad on-disk superblock|primary/secondary superblock|would zero unused portion|bad log/data device sector size|bad stripe unit/width|Superblock has unknown compat|Using a more recent xfs_repair|Found unsupported filesystem|would reset bad sb|bad uncorrected agheader|root inode chunk not found|\* ERROR: mismatched uuid in log|\* +(SB|log) *: )'

# The reference checks AG headers on several threads: a run of "bad
# uncorrected agheader N" lines comes in any AG order.  Put each run in
# AG order.  Under load one thread's line can also land in the middle of
# another's ("... xfs_agf block 0x1/0x200bad uncorrected agheader 3,
# skipping ag..."): unsplit puts such a line on its own.
unsplit() {
	sed -e 's/\(.\)\(bad uncorrected agheader\)/\1\n\2/g' \
	    -e 's/\(skipping ag\.\.\.\)\(.\)/\1\n\2/g'
}
ag_order() {
	awk 'function flush(  i, j, t) {
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && k[j - 1] > k[j]; j--) {
				t = k[j]; k[j] = k[j - 1]; k[j - 1] = t
				t = l[j]; l[j] = l[j - 1]; l[j - 1] = t
			}
		for (i = 1; i <= n; i++)
			print l[i]
		n = 0
	     }
	     /^bad uncorrected agheader [0-9]+,/ { n++; k[n] = $4 + 0; l[n] = $0; next }
	     { flush(); print }
	     END { flush() }'
}

# IMAGE | WHAT | XFS_DB COMMANDS (separated by ;)
cat > "$T/cases" <<'EOF'
std | primary: MOREBITS cleared | sb 0; fuzz -d versionnum firstbit
std | primary: ALIGN cleared | sb 0; fuzz -d versionnum middlebit
std | primary: version 4 beside a CRC bit | sb 0; fuzz -d versionnum lastbit
std | primary: features2 without PROJID32 | sb 0; write -d features2 0x10a; write -d bad_features2 0x10a
std | primary: free rt extents, no rt section | sb 0; fuzz -d frextents lastbit
std | primary: rt extent size that wraps in 32 bits | sb 0; fuzz -d rextsize firstbit
std | primary: log stripe unit too large | sb 0; fuzz -d logsunit ones
std | primary: stripe width without the stripe bit | sb 0; fuzz -d width lastbit
std | primary: log sector size without the sector bit | sb 0; fuzz -d logsectsize ones
std | primary: unknown compat feature | sb 0; write -d features_compat 1
std | primary: a new UUID, the log's record names the old one | sb 0; fuzz -d uuid lastbit
extlog | primary: a new UUID, the external log names the old one | sb 0; fuzz -d uuid firstbit
std | primary: unknown incompat features | sb 0; fuzz -d features_incompat ones
std | copy: ALIGN cleared | sb 1; fuzz -d versionnum middlebit
std | copy: version 4 | sb 1; fuzz -d versionnum lastbit
std | copy: unknown features2 bit | sb 1; fuzz -d features2 lastbit
std | copy: free rt extents, no rt section | sb 1; fuzz -d frextents lastbit
std | copy: rt extent size that wraps in 32 bits | sb 1; fuzz -d rextsize firstbit
std | copy: log stripe unit too large | sb 1; fuzz -d logsunit firstbit
std | copy: stripe width without the stripe bit | sb 1; fuzz -d width ones
std | copy: log sector log without the sector bit | sb 1; fuzz -d logsectlog lastbit
rt | primary: rt extents log | sb 0; write -d rextslog 3
rt | copy: rt extents log of no extents | sb 1; write -d rextslog 0
EOF
plan "$(wc -l < "$T/cases")"

while IFS='|' read -r image what cmds; do
	image=$(echo "$image" | tr -d ' ')
	what=$(echo "$what" | sed 's/^ *//; s/ *$//')
	src=$(rp_image "$image") || { not_ok "$what: image $image"; continue; }
	img="$T/x.img"
	rp_copy "$src" "$img" || { not_ok "$what: copying the image"; continue; }
	set --
	oldifs=$IFS
	IFS=';'
	for c in $cmds; do
		set -- "$@" -c "$(echo "$c" | sed 's/^ *//; s/ *$//')"
	done
	IFS=$oldifs
	"$REF_DB" -x "$@" "$img" > "$T/db.out" 2>&1
	rp_devargs devs "$img"
	# shellcheck disable=SC2086
	"$REF_REPAIR" -n $devs "$img" 2>&1 | unsplit | sed 's/^\.*//' |
		grep -E "$words" | ag_order > "$T/ref"
	# shellcheck disable=SC2086
	"$XK_REPAIR" -n $devs "$img" 2>&1 | unsplit | sed 's/^\.*//' |
		grep -E "$words" | ag_order > "$T/ours"
	if [ -s "$T/ref" ] && cmp -s "$T/ref" "$T/ours"; then
		ok "$what: $(head -1 "$T/ref")"
	else
		not_ok "$what"
		diag "$(diff "$T/ref" "$T/ours")"
	fi
	rp_rm "$img"
done < "$T/cases"
done_testing
