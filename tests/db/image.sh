#!/bin/sh
# Print the path of a cached xfs_db test image, building it if needed.
#   image.sh NAME      NAME is one of the sets below
# Images are made by the reference mkfs.xfs and populated through a kernel
# loop mount (tests/db/mkimage.sh); they live in $DB_CACHE (by default
# $top_builddir/tests/db-cache) under a key that changes with mkimage.sh,
# the options and the reference version.  A lock per image lets parallel
# tests share one build.
set -e
: "${top_srcdir:?}" "${top_builddir:?}"
name=$1
case $name in
full)	opts="-m rmapbt=1,reflink=1,finobt=1 -i sparse=1" ;;
small)	opts="-b size=1024 -n size=8192 -m rmapbt=0,reflink=0 -i sparse=0,nrext64=1" ;;
big)	opts="-i size=2048 -n size=65536 -m finobt=0,rmapbt=1,reflink=1" ;;
*)	echo "image.sh: unknown image $name" >&2; exit 1 ;;
esac
cache=${DB_CACHE:-$top_builddir/tests/db-cache}
mkdir -p "$cache"
key=$( { cat "$top_srcdir/tests/db/mkimage.sh"; echo "$opts";
	 /usr/sbin/mkfs.xfs -V; } | cksum | cut -d' ' -f1)
img=$cache/$name-$key.img
exec 9>"$cache/$name.lock"
flock 9
if [ ! -f "$img" ]; then
	rm -f "$cache/$name"-*
	# shellcheck disable=SC2086
	sh "$top_srcdir/tests/db/mkimage.sh" "$img.tmp" $opts >&2
	# zeroed blocks (the log) made holes by a sparse copy: tests copy
	# the image, and cp reads all that is not a hole
	cp --sparse=always "$img.tmp" "$img.holes"
	rm -f "$img.tmp"
	mv "$img.holes" "$img"
fi
echo "$img"
