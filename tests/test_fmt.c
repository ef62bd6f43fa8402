/*
 * test_fmt.c: fmt_snprintf (interp/fmt.c, what bufdiff calls instead of
 * snprintf) prints the same bytes and returns the same length as the C
 * library's snprintf, on the conversions it handles and on the ones it
 * hands over, at every buffer size.
 */
#include <limits.h>
#include <stdint.h>

#include "testutil.h"

/* Both, into buffers of every size 0..40 and one large: same length, same
 * bytes, nothing written past the size. */
#define SAME(...)                                                            \
	do {                                                                 \
		char a_[512], b_[512];                                       \
		int ra_ = snprintf(a_, sizeof a_, __VA_ARGS__);              \
		int rb_ = fmt_snprintf(b_, sizeof b_, __VA_ARGS__);          \
		ck_assert_int_eq(ra_, rb_);                                  \
		ck_assert_str_eq(a_, b_);                                    \
		for (size_t n_ = 0; n_ <= 40; n_++) {                        \
			memset(a_, 'x', 48);                                 \
			memset(b_, 'x', 48);                                 \
			ra_ = snprintf(n_ ? a_ : NULL, n_, __VA_ARGS__);     \
			rb_ = fmt_snprintf(n_ ? b_ : NULL, n_, __VA_ARGS__); \
			ck_assert_int_eq(ra_, rb_);                          \
			ck_assert(!memcmp(a_, b_, 48));                      \
		}                                                            \
	} while (0)

/* some formats below are odd on purpose (flags the C library ignores) */
#ifdef __clang__
#pragma clang diagnostic ignored "-Wunknown-warning-option"
#endif
#pragma GCC diagnostic ignored "-Wformat"
#pragma GCC diagnostic ignored "-Wformat-zero-length"
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Wformat-overflow"
#pragma GCC diagnostic ignored "-Wformat-truncation"

START_TEST(conversions)
{
	const char *null = NULL;

	SAME("plain text");
	SAME("");
	SAME("%%d %% 100%%");
	SAME("%d %i %u", 0, -7, 7u);
	SAME("%d %d", INT_MIN, INT_MAX);
	SAME("%ld %lu", LONG_MIN, ULONG_MAX);
	SAME("%lld %llu", LLONG_MIN, ULLONG_MAX);
	SAME("%zu %zd %td %jd %ju", (size_t)12345, (ssize_t)-5, (ptrdiff_t)-9,
	     (intmax_t)INTMAX_MIN, (uintmax_t)UINTMAX_MAX);
	SAME("%hd %hu %hhd %hhu", -32768, 65535, -128, 255);
	SAME("%hd %hhd", 70000, 300); /* narrowed like the C library */
	SAME("%x %X %lx %llX", 0xdeadbeefu, 0xabcu, 0xfUL, 0x123456789abcULL);
	SAME("[%5d] [%-5d] [%05d] [%+d] [% d] [%+05d] [%-+6d]", 42, 42, -42,
	     42, 42, 42, -3);
	SAME("[%08x] [%-8X] [%3u]", 255u, 255u, 123456u);
	SAME("[%*d] [%-*d] [%*d]", 6, 1, 6, 2, -6, 3);
	SAME("[%c] [%3c] [%-3c]", 'a', 'b', 'c');
	SAME("[%s] [%10s] [%-10s] [%.2s] [%.*s] [%*s]", "abc", "abc", "abc",
	     "abc", 1, "abc", 5, "ab");
	SAME("[%.*s] [%.0s] [%.10s]", -1, "neg", "gone", "short");
	SAME("%*s%s\n", 12, "", "indent");
	SAME("[%s] [%.3s] [%.6s]", null, null, null);
	/* handed over whole: floats, '#', integer precision, positional */
	SAME("%g %.17g %f %e %a", 0.1, 1.0 / 3, -2.5, 1e300, 0.75);
	SAME("%d and %.9g then %s", 3, 3.25f, "x");
	SAME("[%#x] [%#o] [%o]", 255u, 8u, 8u);
	SAME("[%.3d] [%5.2d] [%.0d]", 7, -7, 0);
	SAME("%2$s %1$s", "a", "b");
	SAME("[%+u] [% x] [%05s]", 5u, 6u, "z");
	SAME("%p", (void *)0x1234);
}
END_TEST

/* Random integers under random flags and widths. */
START_TEST(random_ints)
{
	static const char *const flags[] = {"", "-", "0", "+", " ", "-+", "0 ",
					    "+0", "- "};
	static const char *const convs[] = {"d", "lld", "u", "llu", "x", "llx",
					    "X", "i", "ld", "zu"};
	uint64_t s = 88172645463325252ULL;

	for (int k = 0; k < 3000; k++) {
		char fmt[32];
		int width;
		long long v;
		const char *cv;

		s ^= s << 13, s ^= s >> 7, s ^= s << 17;
		cv = convs[s % 10];
		width = (int)(s >> 8) % 24 - 2;
		v = (long long)(s >> ((s >> 40) % 64));
		if ((s >> 50) & 1)
			v = -v;
		snprintf(fmt, sizeof fmt, "<%%%s%s%s>",
			 flags[(s >> 4) % 9], width >= 0 ? "" : "*",
			 cv);
		if (width >= 0) {
			char w[8];
			snprintf(w, sizeof w, "%d", width);
			snprintf(fmt, sizeof fmt, "<%%%s%s%s>", flags[(s >> 4) % 9],
				 w, cv);
		}
		if (!strcmp(cv, "d") || !strcmp(cv, "i") || !strcmp(cv, "u") ||
		    !strcmp(cv, "x") || !strcmp(cv, "X")) {
			if (width < 0)
				SAME(fmt, (int)(s >> 3) % 30 - 15, (int)v);
			else
				SAME(fmt, (int)v);
		} else if (!strcmp(cv, "ld") || !strcmp(cv, "zu")) {
			if (width < 0)
				SAME(fmt, 7, (long)v);
			else
				SAME(fmt, (long)v);
		} else {
			if (width < 0)
				SAME(fmt, -9, v);
			else
				SAME(fmt, v);
		}
	}
}
END_TEST

/* The mapping is in force where ir.h is included, and str_printf uses it. */
START_TEST(str_printf_long)
{
	Str b = {0};
	char *t, want[2000];

	memset(want, 'y', 1500);
	want[1500] = 0;
	str_printf(&b, "%s|%d|%.3f", want, -12, 0.5);
	t = str_take(&b);
	ck_assert_int_eq((int)strlen(t), 1500 + 4 + 6);
	ck_assert_str_eq(t + 1500, "|-12|0.500");
	mem_free(t);
}
END_TEST

static Suite *
fmt_suite(void)
{
	Suite *s = suite_create("fmt");
	TCase *tc = tcase_create("fmt");

	tcase_add_test(tc, conversions);
	tcase_add_test(tc, random_ints);
	tcase_add_test(tc, str_printf_long);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	Suite *suites[] = {fmt_suite(), NULL};

	return tu_run(suites);
}
