# tests/attr.mk: extended attribute tests (libfs/attr*.c, walk_attr.c).
check_PROGRAMS += tests/unit/test_attr
tests_unit_test_attr_SOURCES = tests/unit/test_attr.c
tests_unit_test_attr_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_attr_LDADD = $(UNIT_LIBS)
TESTS += tests/unit/test_attr
EXTRA_DIST += tests/data/attr
