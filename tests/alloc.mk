# Tests of the libfs allocator (alloc.h).
noinst_PROGRAMS += tests/tools/alloctool
tests_tools_alloctool_SOURCES = tests/tools/alloctool.c
tests_tools_alloctool_LDADD = $(LIBFS_LIBS)

# (its shell test, t0810, is in SLOW_TESTS: tests/local.mk)
