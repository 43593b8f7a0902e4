# tests/dir.mk: tests of this area (check_PROGRAMS, TESTS, SHELL_TESTS += ...).
# Directories and the dabtree: block-layer unit tests.
check_PROGRAMS += tests/unit/test_dir
tests_unit_test_dir_SOURCES = tests/unit/test_dir.c
tests_unit_test_dir_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_dir_LDADD = $(UNIT_LIBS)
TESTS += tests/unit/test_dir
# Blocks of every form dumped from reference-made filesystems.
EXTRA_DIST += tests/data/dir

# dirtool: one directory through libfs/dir.h, for the shell tests.
noinst_PROGRAMS += tests/tools/dirtool
tests_tools_dirtool_SOURCES = tests/tools/dirtool.c
tests_tools_dirtool_LDADD = $(LIBFS_LIBS)

# Shell tests: reference-made images, through dirtool, walkfs and the kernel.
SHELL_TESTS += \
	tests/t0400-dir-corpus-matches-ls.sh \
	tests/t0401-dir-fragmented-and-ci.sh \
	tests/t0402-dir-corruption.sh \
	tests/t0403-dir-fuzz.sh
EXTRA_DIST += tests/lib/dir-check.sh
