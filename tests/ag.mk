# tests/ag.mk: the btree engine, AG headers, AG btrees and AG cross-checks.
check_PROGRAMS += tests/unit/test_btree
tests_unit_test_btree_SOURCES = tests/unit/test_btree.c
tests_unit_test_btree_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_btree_LDADD = $(UNIT_LIBS)
TESTS += tests/unit/test_btree
