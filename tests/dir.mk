# tests/dir.mk: tests of this area (check_PROGRAMS, TESTS, SHELL_TESTS += ...).
# Directories and the dabtree: block-layer unit tests.
check_PROGRAMS += tests/unit/test_dir
tests_unit_test_dir_SOURCES = tests/unit/test_dir.c
tests_unit_test_dir_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_dir_LDADD = $(UNIT_LIBS)
TESTS += tests/unit/test_dir
# Blocks of every form dumped from reference-made filesystems.
EXTRA_DIST += tests/data/dir
