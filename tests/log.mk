# tests/log.mk: the journal (libfs/log.c, log_format.c).
check_PROGRAMS += tests/unit/test_log
tests_unit_test_log_SOURCES = tests/unit/test_log.c
tests_unit_test_log_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_log_LDADD = $(UNIT_LIBS)
TESTS += tests/unit/test_log

# logtool: format / check / print a filesystem's log through libfs.
noinst_PROGRAMS += tests/tools/logtool
tests_tools_logtool_SOURCES = tests/tools/logtool.c
tests_tools_logtool_LDADD = $(LIBFS_LIBS)

SHELL_TESTS += \
	tests/t0500-log-format-matches-reference.sh \
	tests/t0501-log-format-kernel-mounts.sh \
	tests/t0502-log-head-tail-match-reference.sh \
	tests/t0503-log-damage-findings.sh
EXTRA_DIST += tests/lib/log-lib.sh
