#!/bin/sh
# Generate configure and the Makefile templates.
set -e
cd "$(dirname "$0")"
autoreconf --force --install
# automake ships the TAP driver but only copies it when asked by name
cp -f "$(automake --print-libdir)/tap-driver.sh" build-aux/tap-driver.sh
