# tests/ag.mk: the btree engine, AG headers, AG btrees and AG cross-checks.
check_PROGRAMS += tests/unit/test_btree
tests_unit_test_btree_SOURCES = tests/unit/test_btree.c
tests_unit_test_btree_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_btree_LDADD = $(UNIT_LIBS)
TESTS += tests/unit/test_btree

# agtool: the AG layer alone (check, inodes, summary), for the shell tests.
noinst_PROGRAMS += tests/tools/agtool
tests_tools_agtool_SOURCES = tests/tools/agtool.c
tests_tools_agtool_LDADD = $(LIBFS_LIBS)

SHELL_TESTS += \
	tests/t0200-ag-reference-clean.sh \
	tests/t0201-ag-corpus-clean.sh \
	tests/t0202-ag-deep-trees.sh \
	tests/t0203-ag-header-corruption.sh \
	tests/t0204-ag-btree-corruption.sh \
	tests/t0205-ag-btree-fuzz.sh \
	tests/t0206-ag-kernel-sparse-chunks.sh
EXTRA_DIST += tests/lib/ag-images.sh tests/lib/sparse-images.sh
