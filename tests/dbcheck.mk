# xfs_db check on the corruption corpus (db/check.c).
# (t3005 is in SLOW_TESTS: tests/local.mk)
