# Sequences of xfs_db commands that name inodes by path: @ino(/path) in a
# line becomes that inode's number in $img, as the reference resolves it.
# Sourced by the differential tests (t3000, t3001).

# ino_of IMAGE PATH: the inode number of PATH
ino_of() {
	"$REF_DB" -r -c "path $2" -c inode "$1" 2>/dev/null |
		sed -n 's/^current inode number is //p'
}

# expand LINE: LINE with every @ino(/path) replaced (NOINO if none)
expand() {
	line=$1
	while :; do
		case $line in
		*@ino\(*\)*) ;;
		*) break ;;
		esac
		p=${line#*@ino(}
		p=${p%%)*}
		n=$(ino_of "$img" "$p")
		[ -n "$n" ] || n=NOINO
		line=$(printf '%s\n' "$line" | sed "s|@ino($p)|$n|")
	done
	printf '%s\n' "$line"
}
