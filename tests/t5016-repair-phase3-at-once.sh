#!/bin/sh
# Phase 3 walks the AGs at once and stands by the result only where a
# walk in turn would give the same: while no block is looked at by the
# inodes of two AGs (repair/claims.c, p3_spec_begin).  Where two AGs do
# look at one block, the run is undone and phase 3 walked again in turn.
#
# For the populated images and a sample of the corruption corpus
# (tests/repair-cases.txt: every 12th case, and dup_cross_ag, whose AG 0
# file takes a block of an AG 1 directory), xfs_repair -n on one CPU
# (one worker: the AGs in turn) and on all of them gives the same
# messages, exit code and findings.  XFSKIT_REPAIR_STATS says how phase
# 3 ran: in turn on one CPU, at once on the clean images, and undone on
# dup_cross_ag.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib/test-lib.sh"
. "$top_srcdir/tests/lib/repair-images.sh"
. "$top_srcdir/tests/lib/repair-cases.sh"

rp_need "$XK_REPAIR"
command -v taskset > /dev/null 2>&1 || skip_all "needs taskset (util-linux)"
cpus=$(taskset -pc $$ | sed 's/.*: //')
cpu0=$(echo "$cpus" | sed 's/[,-].*//')
[ "$cpus" != "$cpu0" ] || skip_all "one CPU: phase 3 never walks the AGs at once here"

# (the sanitizer build, slower, takes every 48th)
step=12
[ "$XK_SANITIZED" = yes ] && step=48
rc_cases | awk -F'|' -v step=$step '
	{ name = $1; gsub(/[[:space:]]/, "", name) }
	name == "dup_cross_ag" || NR % step == 0' > "$T/cases"
n=$(wc -l < "$T/cases")
plan $((2 * 2 + n + 1))

# run IMG OUT DEVARGS...: ours on all CPUs (OUT.all) and on one (OUT.one)
run() {
	_img=$1 _out=$2
	shift 2
	XFSKIT_REPAIR_STATS=1 XFSKIT_REPAIR_FINDINGS="$_out.all.found" \
		"$XK_REPAIR" -n "$@" "$_img" > "$_out.all" 2>&1
	echo $? > "$_out.all.rc"
	XFSKIT_REPAIR_STATS=1 XFSKIT_REPAIR_FINDINGS="$_out.one.found" \
		taskset -c "$cpu0" "$XK_REPAIR" -n "$@" "$_img" > "$_out.one" 2>&1
	echo $? > "$_out.one.rc"
}

# how phase 3 ran in OUT
how() {
	sed -n 's/^        - phase 3: //p' "$1"
}

# same WHAT OUT: one CPU and all give the same, but for how phase 3 ran
same() {
	_what=$1 _out=$2
	grep -v '^        - phase 3: ' "$_out.all" > "$_out.all.cmp"
	grep -v '^        - phase 3: ' "$_out.one" > "$_out.one.cmp"
	if cmp -s "$_out.all.cmp" "$_out.one.cmp" &&
	   cmp -s "$_out.all.rc" "$_out.one.rc" &&
	   cmp -s "$_out.all.found" "$_out.one.found"; then
		ok "$_what: the same on one CPU and on all (exit $(cat "$_out.all.rc"), phase 3: $(how "$_out.all"))"
	else
		not_ok "$_what: one CPU and all differ"
		diag "exit $(cat "$_out.one.rc") on one CPU, $(cat "$_out.all.rc") on all"
		diag "$(diff "$_out.one.cmp" "$_out.all.cmp" | head -20)"
		diag "$(diff "$_out.one.found" "$_out.all.found" | head -10)"
	fi
}

for image in std plain; do
	src=$(rp_image "$image") || { not_ok "$image: image"; not_ok "$image: image"; continue; }
	rp_devargs devs "$src"
	# shellcheck disable=SC2086
	run "$src" "$T/$image" $devs
	same "clean $image" "$T/$image"
	if [ "$(how "$T/$image.all")" = "AGs walked at once" ] &&
	   [ "$(how "$T/$image.one")" = "AGs walked in turn" ]; then
		ok "clean $image: walked at once on all CPUs, in turn on one"
	else
		not_ok "clean $image: phase 3 ran '$(how "$T/$image.all")' on all CPUs, '$(how "$T/$image.one")' on one"
	fi
done

cross=
while IFS='|' read -r name image refrc expect cmds; do
	img="$T/$name.img"
	rc_prepare "$name" "$image" "$cmds" "$img" || continue
	rp_devargs devs "$img"
	# shellcheck disable=SC2086
	run "$img" "$T/$name.out" $devs
	same "$name" "$T/$name.out"
	[ "$name" = dup_cross_ag ] && cross=$(how "$T/$name.out.all")
	rp_rm "$img"
done < "$T/cases"

if [ "$cross" = "AGs walked at once, undone, walked in turn" ]; then
	ok "dup_cross_ag: two AGs look at one block, the run at once is undone"
else
	not_ok "dup_cross_ag: phase 3 ran '$cross' (expected undone)"
fi
done_testing
