# Attribute population for the attr tests: sourced by tests/t06*-attr-*.sh
# after test-lib.sh.  attr_populate DIR makes, in the mounted filesystem
# at DIR, one file per form the attribute fork can take (the file name
# says which), using setfattr (--restore for bulk, -x for removals):
#
#   sf          a few small attributes in every namespace, an empty value
#   sf255       one attribute with a 255-byte name (prefix included, as
#               the kernel counts; 250 bytes on disk)
#   leaf        more than the inode holds, less than one block
#   leafholes   a leaf from which every other attribute was removed
#   leafrmt     remote values in leaf form: 64 KiB, just over a block,
#               255-byte names with remote and local values, an empty one
#   node        thousands of attributes under a dabtree (two node levels
#               on 1 KiB blocks), with names whose hashes collide
#   nodermt     a node form with remote values, a third of it removed
#   btree-a/-b  attribute forks in btree form (interleaved allocation)
#   replaced    values rewritten from local to remote and back
#   dir, lnk    a directory and a symlink with attributes
#   acl         a POSIX access ACL (dir has a default one)
# The values come from a fixed pattern, so every run makes the same files.

# attr_dump FILE: the setfattr --restore input for FILE, on stdout.
attr_dump() {
	python3 - "$1" <<-'EOF'
	import sys
	f = sys.argv[1]

	def val(n, seed):
	    return "0x" + bytes((i * 7 + seed * 13 + (i >> 8)) & 0xff
	                        for i in range(n)).hex()

	out = ["# file: " + f]
	if f == "leaf":
	    for i in range(40):
	        out.append("user.leaf.%03d=%s" % (i, val(40, i)))
	    out.append("user.leaf.empty")
	    out.append("trusted.leaf.t=%s" % val(30, 1))
	    out.append("security.leaf.s=%s" % val(30, 2))
	elif f == "leafholes":
	    for i in range(60):
	        out.append("user.hole.%03d=%s" % (i, val(20 + i % 7, i)))
	elif f == "leafrmt":
	    out.append("user.r64k=%s" % val(65536, 3))
	    out.append("user.overblock=%s" % val(4100, 4))
	    out.append("trusted.r1k=%s" % val(1100, 5))
	    out.append("security.small=%s" % val(10, 6))
	    out.append("user.e")
	elif f == "node":
	    for i in range(3000):
	        out.append("user.node.%05d=\"value-%08d\"" % (i, i * 3))
	    # pairs of names with equal da_hashname()
	    for x in range(8):
	        out.append("user.hc.1000%x=\"p%d\"" % (x, x))
	        out.append("user.hc.a000%x=\"q%d\"" % (x ^ 5, x))
	    out.append("trusted.node.t=%s" % val(12, 8))
	    out.append("security.node.s=%s" % val(12, 9))
	    out.append("user.node.empty")
	elif f == "nodermt":
	    for i in range(1500):
	        n = 5000 if i % 50 == 0 else 24
	        out.append("user.nr.%05d=%s" % (i, val(n, i)))
	elif f == "replaced":
	    out.append("user.grow=%s" % val(8, 1))
	    out.append("user.shrink=%s" % val(9000, 2))
	print("\n".join(out) + "\n")
	EOF
}

# Fails (and stops) at the first command that fails; call it as a plain
# command, not in a condition, or set -e does not apply.
attr_populate() {
	(
	set -e
	cd "$1"
	: > sf
	setfattr -n user.a -v one sf
	setfattr -n user.empty sf
	setfattr -n trusted.t -v 0x000102ff sf
	setfattr -n security.s -v sec sf
	: > sf255
	setfattr -n "user.$(printf 'n%.0s' $(seq 1 250))" -v v255 sf255
	for f in leaf leafholes leafrmt node nodermt replaced; do
		: > "$f"
		attr_dump "$f" | setfattr --restore=/dev/stdin
	done
	# the longest names, 255 bytes with the namespace prefix (setfattr
	# --restore refuses them): a remote value and a local one
	setfattr -n "user.$(printf 'L%.0s' $(seq 1 250))" \
		-v "0x$(printf '5a%.0s' $(seq 1 5000))" leafrmt
	setfattr -n "trusted.$(printf 'T%.0s' $(seq 1 247))" -v v247 leafrmt
	i=0
	while [ $i -lt 60 ]; do
		setfattr -x "$(printf 'user.hole.%03d' $i)" leafholes
		i=$((i + 2))
	done
	i=0
	while [ $i -lt 1500 ]; do
		setfattr -x "$(printf 'user.nr.%05d' $i)" nodermt
		i=$((i + 3))
	done
	# local -> remote and remote -> local
	setfattr -n user.grow -v "0x$(printf 'ab%.0s' $(seq 1 6000))" replaced
	setfattr -n user.shrink -v small replaced
	# two forks growing in turn, so neither gets contiguous blocks
	: > btree-a
	: > btree-b
	python3 -c '
for c in range(30):
    for f in "ab":
        print("# file: btree-" + f)
        for i in range(c * 50, c * 50 + 50):
            print("user.bt.%05d=\"%0120d\"" % (i, i))
        print()' | setfattr --restore=/dev/stdin
	mkdir dir
	setfattr -n user.d -v dirvalue dir
	# POSIX ACLs, set in the VFS format (the kernel stores them as
	# trusted.SGI_ACL_FILE / SGI_ACL_DEFAULT): an access ACL with a named
	# user and group, a default ACL on the directory
	: > acl
	setfattr -n system.posix_acl_access -v "$ATTR_ACL_VFS" acl
	setfattr -n system.posix_acl_default -v "$ATTR_ACL_VFS" dir
	ln -s target lnk
	setfattr -h -n trusted.l -v linkvalue lnk
	)
}

# The files attr_populate makes.
ATTR_FILES="sf sf255 leaf leafholes leafrmt node nodermt btree-a btree-b replaced dir lnk acl"

# u::rw-,u:1000:r--,g::r--,g:2000:r-x,m::rwx,o::r-- as the VFS takes it
ATTR_ACL_VFS=0x02000000\
01000600ffffffff02000400e803000004000400ffffffff\
08000500d007000010000700ffffffff20000400ffffffff

# attr_expect DIR: "INO NAME=0xHEX" for every attribute of every file, as
# the kernel shows them through the mount, sorted.  system.* names are the
# VFS's view of the ACLs, which the kernel also lists as what is on disk
# (trusted.SGI_ACL_*); only the latter are compared.
attr_expect() {
	for f in $ATTR_FILES; do
		ino=$(stat -c %i "$1/$f")
		getfattr -h -d -m - -e hex "$1/$f" 2>/dev/null |
			grep -v '^# file: \|^system\.' | grep . |
			sed "s/^/$ino /"
	done | LC_ALL=C sort
}

# attr_inos DIR: the inode numbers of the files, in ATTR_FILES order.
attr_inos() {
	for f in $ATTR_FILES; do
		stat -c %i "$1/$f"
	done
}

# attr_sorted: attrdump's output ("# ino N" headers) as attr_expect's.
attr_sorted() {
	awk '/^# ino / { ino = $3; next } { print ino " " $0 }' |
		LC_ALL=C sort
}
