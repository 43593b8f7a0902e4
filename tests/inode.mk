# tests/inode.mk: inode core, fork mappings, symlinks.
check_PROGRAMS += tests/unit/test_inode
tests_unit_test_inode_SOURCES = tests/unit/test_inode.c
tests_unit_test_inode_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_inode_LDADD = $(UNIT_LIBS)
TESTS += tests/unit/test_inode
SHELL_TESTS += tests/t0310-inode-corruption.sh
