/*
 * fs_array_grow: the capacity doubles from the first size and covers what
 * is asked, the contents survive a move, and a request whose byte count
 * does not fit a size_t is refused with the array left as it was.
 */
#include "config.h"
#include "unit.h"
#include <stdint.h>
#include <string.h>
#include "array.h"

START_TEST(grows_by_doubling_and_keeps_contents)
{
	uint32_t *v = NULL, *nv;
	size_t cap = 0, n = 0;

	for (uint32_t i = 0; i < 1000; i++) {
		nv = fs_array_grow(v, &cap, n + 1, sizeof(*v), 16);
		ck_assert_ptr_nonnull(nv);
		v = nv;
		ck_assert_uint_ge(cap, n + 1);
		v[n++] = i * 7;
	}
	/* 16, 32, ..., 1024: never more than twice what is used */
	ck_assert_uint_eq(cap, 1024);
	for (uint32_t i = 0; i < 1000; i++)
		ck_assert_uint_eq(v[i], i * 7);
	free(v);
}
END_TEST

START_TEST(room_already_there_is_not_reallocated)
{
	size_t cap = 0;
	char *v = fs_array_grow(NULL, &cap, 10, 1, 64);
	char *again;

	ck_assert_ptr_nonnull(v);
	ck_assert_uint_eq(cap, 64);
	again = fs_array_grow(v, &cap, 64, 1, 64);
	ck_assert_ptr_eq(again, v);
	ck_assert_uint_eq(cap, 64);
	free(v);
}
END_TEST

START_TEST(a_large_step_is_covered_at_once)
{
	size_t cap = 0;
	uint64_t *v = fs_array_grow(NULL, &cap, 3000, sizeof(*v), 1024);

	ck_assert_ptr_nonnull(v);
	ck_assert_uint_eq(cap, 4096);
	v[2999] = 1;	/* in bounds: the sanitizer build would say otherwise */
	free(v);
}
END_TEST

START_TEST(overflowing_sizes_are_refused)
{
	size_t cap = 4;
	uint64_t *v = malloc(4 * sizeof(*v));

	ck_assert_ptr_nonnull(v);
	v[0] = 42;
	ck_assert_ptr_null(fs_array_grow(v, &cap, SIZE_MAX / 4, sizeof(*v),
					 16));
	ck_assert_uint_eq(cap, 4);
	ck_assert_ptr_null(fs_array_grow(v, &cap, 5, 0, 16));
	ck_assert_uint_eq(cap, 4);
	ck_assert_uint_eq(v[0], 42);	/* still the caller's, intact */
	free(v);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("array");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, grows_by_doubling_and_keeps_contents);
	tcase_add_test(tc, room_already_there_is_not_reallocated);
	tcase_add_test(tc, a_large_step_is_covered_at_once);
	tcase_add_test(tc, overflowing_sizes_are_refused);
	suite_add_tcase(s, tc);
	return unit_run(s);
}
