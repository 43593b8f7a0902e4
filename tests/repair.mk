# tests/repair.mk: xfs_repair -n (the checking half).
# (t5002, t5010 and t5015 are in SLOW_TESTS: tests/local.mk)
SHELL_TESTS += \
	tests/t5000-repair-cli.sh \
	tests/t5001-repair-hostile-images.sh

check_PROGRAMS += tests/unit/test_spacemap
tests_unit_test_spacemap_SOURCES = tests/unit/test_spacemap.c repair/spacemap.c
tests_unit_test_spacemap_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/repair
tests_unit_test_spacemap_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_spacemap_LDADD = $(UNIT_LIBS)
TESTS += tests/unit/test_spacemap

SHELL_TESTS += tests/t5011-repair-beyond-reference.sh \
	tests/t5012-repair-after-reference-repair.sh \
	tests/t5014-repair-superblock-words.sh \
	tests/t5016-repair-phase3-at-once.sh \
	tests/t5017-repair-stripe-root.sh \
	tests/t5020-repair-clean-matrix.sh
EXTRA_DIST += tests/repair-cases.txt tests/lib/repair-images.sh tests/lib/repair-build.sh \
	tests/lib/repair-cases.sh
