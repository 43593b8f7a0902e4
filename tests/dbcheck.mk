# xfs_db check on the corruption corpus (db/check.c).
SHELL_TESTS += tests/t3005-db-check-damage.sh
