# tests/dir.mk: tests of this area (check_PROGRAMS, TESTS, SHELL_TESTS += ...).
