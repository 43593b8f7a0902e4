# tests/db.mk: xfs_db against the reference (differential, write/fuzz,
# read-only, damaged input).  t3001 is in SLOW_TESTS (tests/local.mk).
DB_TESTS = \
	tests/t3000-db-differential.sh \
	tests/t3002-db-damaged.sh \
	tests/t3003-db-options.sh \
	tests/t3004-db-attr-set.sh
TESTS += $(DB_TESTS)
EXTRA_DIST += $(DB_TESTS) tests/db/mkimage.sh tests/db/image.sh \
	tests/db/seq-core.txt tests/db/seq-files.txt tests/db/seq-dirs.txt \
	tests/db/seq-write.txt tests/lib/db-paths.sh

# The field tables on their own.
check_PROGRAMS += tests/unit/test_fields
tests_unit_test_fields_SOURCES = tests/unit/test_fields.c
tests_unit_test_fields_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_fields_LDADD = $(UNIT_LIBS)
TESTS += tests/unit/test_fields

# attr_write.c (what xfs_db's attr_set writes) on its own.
check_PROGRAMS += tests/unit/test_attr_write
tests_unit_test_attr_write_SOURCES = tests/unit/test_attr_write.c
tests_unit_test_attr_write_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_attr_write_LDADD = $(UNIT_LIBS)
TESTS += tests/unit/test_attr_write
