# tests/sb.mk: superblock verification through libfs.
SHELL_TESTS += tests/t0311-sb-corruption.sh
