# Tests of the libfs allocator (alloc.h).
noinst_PROGRAMS += tests/tools/alloctool
tests_tools_alloctool_SOURCES = tests/tools/alloctool.c
tests_tools_alloctool_LDADD = $(LIBFS_LIBS)

SHELL_TESTS += tests/t0810-alloc.sh
