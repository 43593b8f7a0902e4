#!/bin/sh
# Configure and build xfskit out of tree: scripts/build.sh BUILDDIR [configure args]
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
bdir=$1
shift
[ -x "$top/configure" ] || "$top/autogen.sh" >/dev/null 2>&1
mkdir -p "$bdir"
cd "$bdir"
if [ ! -f Makefile ] || [ "$top/configure" -nt Makefile ]; then
	"$top/configure" -q "$@"
fi
make -s -j"$(nproc)" >/dev/null
