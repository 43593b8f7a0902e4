# tests/repair.mk: xfs_repair -n (the checking half).
SHELL_TESTS += \
	tests/t5000-repair-cli.sh
