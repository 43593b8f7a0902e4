#!/bin/sh
# Install what building (and, with --tests, testing) xfskit needs on Debian,
# but only the packages that are missing.  Run as root.
set -e
build_pkgs="gcc make autoconf automake autopoint gettext pkg-config \
uuid-dev libblkid-dev libedit-dev liburcu-dev check libinih-dev"
# The test suite's oracle and tools: Debian's xfsprogs (never used by the
# product), e2fsprogs for a foreign filesystem, attr for getfattr,
# util-linux for losetup/mount; qemu, busybox and cpio for the VM rig
# (../shared/vmrig) that mounts what the host kernel cannot (realtime).
test_pkgs="xfsprogs e2fsprogs attr util-linux xz-utils python3 \
qemu-system-x86 busybox-static cpio"

pkgs=$build_pkgs
[ "$1" = "--tests" ] && pkgs="$pkgs $test_pkgs"
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "installing:$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq || true
	# shellcheck disable=SC2086
	apt-get install -y -qq $missing >/dev/null
fi
