# tests/mkfs.mk: tests of this area (check_PROGRAMS, TESTS, SHELL_TESTS += ...).
SHELL_TESTS += \
	tests/t0300-mkfs-matches-reference.sh \
	tests/t0301-mkfs-kernel-mounts.sh \
	tests/t0302-mkfs-refuses-invalid-options.sh \
	tests/t0303-mkfs-signatures-and-modes.sh \
	tests/t0304-mkfs-block-device.sh \
	tests/t0305-mkfs-realtime-in-vm.sh
EXTRA_DIST += tests/lib/mkfs-matrix.sh tests/lib/mkfs-compare.sh

# The libfs builders mkfs writes with (libfs/build.c).
check_PROGRAMS += tests/unit/test_build
tests_unit_test_build_SOURCES = tests/unit/test_build.c
tests_unit_test_build_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_build_LDADD = $(UNIT_LIBS)
TESTS += tests/unit/test_build

# The log reservation model behind the minimum log size (libfs/resv.c).
check_PROGRAMS += tests/unit/test_resv
tests_unit_test_resv_SOURCES = tests/unit/test_resv.c
tests_unit_test_resv_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_resv_LDADD = $(UNIT_LIBS)
TESTS += tests/unit/test_resv
