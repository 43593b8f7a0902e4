# tests/ag.mk: tests of this area (check_PROGRAMS, TESTS, SHELL_TESTS += ...).
