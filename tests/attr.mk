# tests/attr.mk: extended attribute tests (libfs/attr*.c, walk_attr.c).
check_PROGRAMS += tests/unit/test_attr
tests_unit_test_attr_SOURCES = tests/unit/test_attr.c
tests_unit_test_attr_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_attr_LDADD = $(UNIT_LIBS)
TESTS += tests/unit/test_attr
EXTRA_DIST += tests/data/attr

# attrdump: an inode's attributes through libfs, as getfattr prints them.
check_PROGRAMS += tests/tools/attrdump
tests_tools_attrdump_SOURCES = tests/tools/attrdump.c
tests_tools_attrdump_LDADD = $(LIBFS_LIBS)

SHELL_TESTS += \
	tests/t0600-attr-forms-match-getfattr.sh \
	tests/t0601-attr-corruption.sh
EXTRA_DIST += tests/lib/attr-populate.sh
