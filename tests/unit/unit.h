/*
 * What every libcheck suite here shares: running a suite to an exit code,
 * and reading the fixture files kept under tests/data/AREA/.
 */
#ifndef XK_UNIT_H
#define XK_UNIT_H

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Run every case of the suite; EXIT_SUCCESS when none failed. */
static inline int unit_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* tests/data/AREA/FILE under $top_srcdir (make check sets it). */
static inline const char *unit_fixture_path(const char *area, const char *file)
{
	static char path[4096];
	const char *src = getenv("top_srcdir");

	snprintf(path, sizeof(path), "%s/tests/data/%s/%s", src ? src : "..",
		 area, file);
	return path;
}

/* The whole of a fixture file, malloc'ed; the test fails if it is missing. */
static inline uint8_t *unit_fixture(const char *area, const char *file,
				    size_t *len)
{
	const char *path = unit_fixture_path(area, file);
	FILE *f = fopen(path, "rb");
	uint8_t *d;
	long n;

	ck_assert_msg(f != NULL, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	ck_assert_int_ge(n, 0);
	d = malloc(n ? (size_t)n : 1);
	ck_assert_ptr_nonnull(d);
	ck_assert_uint_eq(fread(d, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return d;
}

#endif
