#!/bin/sh
# xfs_db's options and command loop behave as the reference's: the same
# output, messages and exit status for good and bad invocations, commands
# from a pipe without a prompt, and on a terminal the "xfs_db> " prompt
# with each command echoed by line editing.
. "$top_srcdir/tests/lib/test-lib.sh"
need_ref
need_loop
need_tool "$XK_DB"

img=$(sh "$top_srcdir/tests/db/image.sh" full) || skip_all "cannot make image"
truncate -s 1M "$T/junk.img"
printf 'root:x:0:0::/root:/bin/sh\n' > "$T/short"

# both TOOL-ARGS...: run ours and the reference, same stdout+stderr+rc
# (both are run as plain "xfs_db" found in PATH: messages name argv[0])
both() {
	PATH=$T/ref:$PATH xfs_db "$@" > "$T/ref.out" 2>&1
	echo "rc=$?" >> "$T/ref.out"
	PATH=$T/ours:$PATH xfs_db "$@" > "$T/our.out" 2>&1
	echo "rc=$?" >> "$T/our.out"
	if cmp -s "$T/ref.out" "$T/our.out"; then
		ok "xfs_db $*"
	else
		not_ok "xfs_db $*"
		diff "$T/ref.out" "$T/our.out" | head -10 | sed 's/^/# /'
	fi
}
mkdir "$T/ours" "$T/ref"
ln -s "$XK_DB" "$T/ours/xfs_db"
ln -s "$REF_DB" "$T/ref/xfs_db"

both -V
both
both -Z "$img"
both -c
both -r -l
both -r "$T/short"
both -r "$T/junk.img"
both -r -F "$T/junk.img"
both -r "$T/nonexistent.img"
both -r -c version "$img" extra
both -r -c quit -c sb -c p "$img"
both -r -p foo -c sb -c "p blocksize" "$img"
both -r -f -i -c version -c "sb 1" -c "p uuid" "$img"
both -r -c "sb" -c "p blocksize" -c "agf 1" -c "p seqno" -c "echo done" "$img"

# an external log: -l names it (info shows the name), blockget/check
# refuse without it and with it on an internal-log filesystem; a missing
# log device is fatal
truncate -s 512m "$T/ext.img"
truncate -s 64m "$T/ext.log"
if "$REF_MKFS" -q -l logdev="$T/ext.log",size=64m "$T/ext.img" > /dev/null 2>&1; then
	both -r -l "$T/ext.log" -c info -c check -c "echo after" "$T/ext.img"
	both -r -c info -c check -c "echo after" "$T/ext.img"
	both -r -l "$T/ext.log" -c check -c "echo after" "$img"
	both -r -l "$T/nonexistent.log" -c info "$T/ext.img"
	# logformat writes the external log the reference writes
	for w in ref ours; do
		cp "$T/ext.img" "$T/ext.$w.img"
		cp "$T/ext.log" "$T/ext.$w.log"
		PATH=$T/$w:$PATH xfs_db -x -l "$T/ext.$w.log" -c "logformat -c 3" \
			"$T/ext.$w.img" > "$T/$w.out" 2>&1
	done
	check "logformat -l: the same output" cmp -s "$T/ref.out" "$T/ours.out"
	check "logformat -l: the same external log" cmp -s "$T/ext.ref.log" "$T/ext.ours.log"
	check "logformat -l: the data device untouched" cmp -s "$T/ext.img" "$T/ext.ours.img"
	rm -f "$T"/ext.*
else
	skip "external log" "the reference mkfs.xfs failed"
fi

# log start: a copy of the output in the file, appended
for w in ref ours; do
	echo "before" > "$T/log.$w"
	PATH=$T/$w:$PATH xfs_db -r -c "log start $T/log.$w" -c log -c sb \
		-c "p blocksize" -c "log stop" -c "p dblocks" "$img" > "$T/$w.out" 2>&1
done
check "log start and stop" cmp -s "$T/ref.out" "$T/ours.out"
check "the log file" cmp -s "$T/log.ref" "$T/log.ours"

# commands from a pipe: no prompt
printf 'sb\np blocksize\nagi 2\np seqno\nquit\np\n' > "$T/cmds"
"$REF_DB" -r "$img" < "$T/cmds" > "$T/ref.out" 2>&1
"$XK_DB" -r "$img" < "$T/cmds" > "$T/our.out" 2>&1
check "commands from a pipe" cmp -s "$T/ref.out" "$T/our.out"

# a terminal: the prompt, and what line editing echoes
if command -v script >/dev/null 2>&1; then
	for w in ref ours; do
		(sleep 1; printf 'sb\n'; sleep 0.3; printf 'p blocksize\n';
		 sleep 0.3; printf 'quit\n') |
			script -qfc "$T/$w/xfs_db -r $img" /dev/null > "$T/tty.$w" 2>&1
	done
	check "the terminal session" cmp -s "$T/tty.ref" "$T/tty.ours"
	check "the prompt is xfs_db> " grep -q "xfs_db> p blocksize" "$T/tty.ours"
else
	skip "the terminal session" "no script(1)"
fi
done_testing
