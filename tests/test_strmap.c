/*
 * test_strmap.c: the hash table of strings (interp/strmap.c) that every
 * lookup by name a file can make numerous goes through: first value kept
 * by add, replaced by set, keys that are slices of a text, growth past
 * many sizes in an arena and in mem_alloc'ed memory, and a failed
 * allocation reported (not a crash, nothing leaked).
 */
#include "testutil.h"
#include "strmap.h"

START_TEST(add_get_set)
{
	StrMap m;

	strmap_init(&m, NULL);
	ck_assert_int_eq(strmap_get(&m, "a"), STRMAP_NONE);
	ck_assert_int_eq(strmap_add(&m, "a", 1), STRMAP_NONE);
	ck_assert_int_eq(strmap_add(&m, "a", 2), 1);   /* the first stays */
	ck_assert_int_eq(strmap_get(&m, "a"), 1);
	ck_assert_int_eq(strmap_set(&m, "a", 3), 0);   /* replaced */
	ck_assert_int_eq(strmap_get(&m, "a"), 3);
	ck_assert_int_eq(strmap_add(&m, "", 4), STRMAP_NONE);
	ck_assert_int_eq(strmap_get(&m, ""), 4);
	ck_assert_int_eq((int)m.n, 2);
	/* slices: "ab" inside "xaby", not "a" nor "abc" */
	ck_assert_int_eq(strmap_addn(&m, &"xaby"[1], 2, 5), STRMAP_NONE);
	ck_assert_int_eq(strmap_get(&m, "ab"), 5);
	ck_assert_int_eq(strmap_getn(&m, "abc", 2), 5);
	ck_assert_int_eq(strmap_getn(&m, "abc", 3), STRMAP_NONE);
	ck_assert_int_eq(strmap_getn(&m, "abc", 1), 3);
	strmap_clear(&m);
	ck_assert_int_eq(strmap_get(&m, "a"), STRMAP_NONE);
	ck_assert_int_eq((int)m.n, 0);
	strmap_free(&m);
	strmap_free(&m); /* twice: nothing left */
}
END_TEST

/* 10^5 names in both kinds of memory: every one found, absent ones not. */
START_TEST(many)
{
	enum { N = 100000 };
	Arena *a = arena_new();
	char **keys = mem_calloc(N, sizeof *keys);
	StrMap in[2];

	ck_assert_ptr_nonnull(keys);
	strmap_init(&in[0], a);
	strmap_init(&in[1], NULL);
	for (int i = 0; i < N; i++) {
		char buf[32];
		snprintf(buf, sizeof buf, "%%v%d", i);
		keys[i] = arena_strdup(a, buf);
		for (int k = 0; k < 2; k++)
			ck_assert_int_eq(strmap_add(&in[k], keys[i], i), STRMAP_NONE);
	}
	for (int k = 0; k < 2; k++) {
		ck_assert_int_eq((int)in[k].n, N);
		for (int i = 0; i < N; i++)
			ck_assert_int_eq(strmap_get(&in[k], keys[i]), i);
		ck_assert_int_eq(strmap_get(&in[k], "%v100000"), STRMAP_NONE);
		ck_assert_int_eq(strmap_get(&in[k], "v1"), STRMAP_NONE);
	}
	strmap_free(&in[1]);
	strmap_free(&in[0]); /* the arena's: freed with it */
	mem_free(keys);
	arena_free(a);
}
END_TEST

/* A failed allocation: STRMAP_OOM, the map as it was, no leak. */
START_TEST(out_of_memory)
{
	long live = mem_live_blocks();
	StrMap m;

	strmap_init(&m, NULL);
	for (int i = 0; i < 8; i++)
		ck_assert_int_eq(strmap_add(&m, i % 2 ? "odd" : "even", i),
				 i < 2 ? STRMAP_NONE : i % 2);
	mem_fail_after(0); /* the next allocation fails: the growth at 8 */
	{
		static const char *const names[] = {"a", "b", "c", "d", "e",
			"f", "g", "h", "i", "j"};
		int rc = 0, i = 0;
		for (; i < 10 && rc != STRMAP_OOM; i++)
			rc = strmap_add(&m, names[i], i);
		ck_assert_int_eq(rc, STRMAP_OOM);
		ck_assert_int_eq(i, 7); /* 2 + 6 fit in 16 slots half full */
		ck_assert_int_eq((int)m.n, 8);
	}
	mem_fail_after(-1);
	ck_assert_int_eq(strmap_get(&m, "even"), 0);
	ck_assert_int_eq(strmap_get(&m, "odd"), 1);
	strmap_free(&m);
	ck_assert_int_eq(mem_live_blocks(), live);
}
END_TEST

static Suite *
strmap_suite(void)
{
	Suite *s = suite_create("strmap");
	TCase *tc = tcase_create("strmap");

	tcase_add_test(tc, add_get_set);
	tcase_add_test(tc, many);
	tcase_add_test(tc, out_of_memory);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	Suite *suites[] = {strmap_suite(), NULL};

	return tu_run(suites);
}
