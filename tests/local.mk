# Tests: libcheck unit suites (tests/unit), shell tests (tests/*.sh, TAP),
# and the tools the shell tests use (tests/tools).

UNIT_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
UNIT_LIBS = $(LIBFS_LIBS) $(CHECK_LIBS)

check_PROGRAMS += tests/unit/test_crc32c tests/unit/test_geom tests/unit/test_bcache \
	tests/unit/test_array
tests_unit_test_crc32c_SOURCES = tests/unit/test_crc32c.c
tests_unit_test_crc32c_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_crc32c_LDADD = $(UNIT_LIBS)
tests_unit_test_geom_SOURCES = tests/unit/test_geom.c
tests_unit_test_geom_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_geom_LDADD = $(UNIT_LIBS)

tests_unit_test_bcache_SOURCES = tests/unit/test_bcache.c
tests_unit_test_bcache_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_bcache_LDADD = $(UNIT_LIBS)
tests_unit_test_array_SOURCES = tests/unit/test_array.c
tests_unit_test_array_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_array_LDADD = $(UNIT_LIBS)

TESTS += tests/unit/test_crc32c tests/unit/test_geom tests/unit/test_bcache \
	tests/unit/test_array

# walkfs: walk and verify a whole filesystem through libfs.
noinst_PROGRAMS += tests/tools/walkfs
tests_tools_walkfs_SOURCES = tests/tools/walkfs.c tests/tools/walkfs.h \
	tests/tools/walk_ag.c tests/tools/walk_log.c tests/tools/walk_inodes.c \
	tests/tools/walk_dir.c tests/tools/walk_attr.c
tests_tools_walkfs_LDADD = $(LIBFS_LIBS)

# imgsum: checksums of sparse images (rp_sum), cheaper than a script.
noinst_PROGRAMS += tests/tools/imgsum
tests_tools_imgsum_SOURCES = tests/tools/imgsum.c
tests_tools_imgsum_LDADD = $(LIBFS_LIBS)

SHELL_TESTS = \
	tests/t0001-walkfs-refuses-non-xfs.sh \
	tests/t0002-imgsum.sh \
	tests/t0900-walkfs-corpus.sh

# The longest tests, longest first, head TESTS (Makefile.am): "make -j
# check" starts tests in the order of TESTS, and a long one started late
# runs on alone at the end.  t0800 second: it builds the corpus while
# t3005 builds the repair images.
SLOW_TESTS = \
	tests/t3005-db-check-damage.sh \
	tests/t0800-corpus-covers-every-form.sh \
	tests/t5010-repair-corruptions.sh \
	tests/t5015-repair-reference-lines.sh \
	tests/t0810-alloc.sh \
	tests/t3001-db-write-fuzz.sh \
	tests/t5002-repair-images-stable.sh

TESTS += $(SHELL_TESTS)
EXTRA_DIST += $(SLOW_TESTS) $(SHELL_TESTS) tests/lib/test-lib.sh tests/unit/unit.h

# Each area adds its tests in its own fragment.
include tests/ag.mk
include tests/inode.mk
include tests/sb.mk
include tests/dir.mk
include tests/attr.mk
include tests/log.mk
include tests/corpus.mk
include tests/mkfs.mk
include tests/db.mk
include tests/repair.mk
include tests/alloc.mk
include tests/dbcheck.mk
