# tests/attr.mk: tests of this area (check_PROGRAMS, TESTS, SHELL_TESTS += ...).
