/* test_reported.c: the replayed public reports (cases/reported/, see
 * docs/reported.md) keep their shape: each cites its report, replays a
 * wrong decision that bufdiff blames (diverge or fault with a blame
 * record), runs one-shot and copy-all expecting agree, and has our MLIR
 * of the same program beside it, citing the same report.  The one case
 * that must be rejected is rejected.  (`bufdiff check` runs them.) */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases.h"
#include "mlir.h"
#include "harness.h"
#include "report.h"
#include "fuzz.h"
#include "testutil.h"

#define DIR_REPORTED SRCDIR "/cases/reported"
#define MAX_CASES 64

static int
cmp_name(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

/* The *.yaml names in cases/reported, sorted. */
static int
list_cases(char names[][128])
{
	DIR *d = opendir(DIR_REPORTED);
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)) && n < MAX_CASES) {
		size_t len = strlen(e->d_name);
		if (len > 5 && len < 128 && !strcmp(e->d_name + len - 5, ".yaml"))
			fmt_snprintf(names[n++], 128, "%s", e->d_name);
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof names[0], cmp_name);
	return n;
}

/* The first "https://..." in s, up to a blank or a quote, into out. */
static bool
first_url(const char *s, char *out, size_t n)
{
	const char *p = s ? strstr(s, "https://") : NULL;
	size_t k = 0;

	if (!p)
		return false;
	while (p[k] && !strchr(" \t\n\"", p[k]) && k + 1 < n)
		k++;
	memcpy(out, p, k);
	out[k] = 0;
	return true;
}

static bool
has_agree_run(const Case *c, const char *strategy)
{
	for (int i = 0; i < c->nruns; i++) {
		const Run *r = &c->runs[i];
		if (r->strategy && !strcmp(r->strategy->name, strategy) &&
		    !run_has_plan(r) && r->verdict == VERDICT_AGREE)
			return true;
	}
	return false;
}

/* A run that fails (diverge or fault) and names what it blames. */
static bool
has_blamed_run(const Case *c)
{
	for (int i = 0; i < c->nruns; i++) {
		const Run *r = &c->runs[i];
		if ((r->verdict == VERDICT_DIVERGE || r->verdict == VERDICT_FAULT) &&
		    r->has_blame && r->nblame > 0 && r->has_culprits)
			return true;
	}
	return false;
}

/* NAME.mlir exists and its first line cites the case's report. */
static void
check_mlir(const char *yaml, const char *url)
{
	char path[512], line[512];
	size_t len = strlen(yaml);
	FILE *f;

	fmt_snprintf(path, sizeof path, "%s/%.*s.mlir", DIR_REPORTED,
		 (int)(len - 5), yaml);
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "%s: no MLIR beside the case", path);
	ck_assert(fgets(line, sizeof line, f) != NULL);
	fclose(f);
	ck_assert_msg(strstr(line, url) != NULL, "%s cites %s", path, line);
}

static void
check_one(const char *name)
{
	char path[512], url[256];
	Case *c = NULL;
	Diag d;
	int rc;

	fmt_snprintf(path, sizeof path, "%s/%.127s", DIR_REPORTED, name);
	rc = case_load(path, 0, &c, &d);
	ck_assert_ptr_nonnull(c);
	ck_assert_msg(first_url(c->about, url, sizeof url), "%s: no URL", path);
	ck_assert_msg(strstr(url, "https://github.com/") == url, "%s", url);
	if (c->has_error) {
		/* a decision bufdiff refuses: the load fails where it says */
		ck_assert_int_eq(rc, -1);
		ck_assert_int_eq(d.loc.line, c->error.line);
		ck_assert_ptr_nonnull(strstr(d.msg, c->error.msg));
	} else {
		ck_assert_msg(!rc, "%s:%d: %s", path, d.loc.line, d.msg);
		ck_assert_msg(has_blamed_run(c), "%s: no blamed run", path);
		ck_assert_msg(has_agree_run(c, "one-shot"), "%s: one-shot", path);
		ck_assert_msg(has_agree_run(c, "copy-all"), "%s: copy-all", path);
	}
	check_mlir(name, url);
	case_free(c);
}

START_TEST(every_report_keeps_its_shape)
{
	char names[MAX_CASES][128];
	int n = list_cases(names);

	ck_assert_int_ge(n, 20);
	for (int i = 0; i < n; i++)
		check_one(names[i]);
}
END_TEST

/* Two cases never cite the same report. */
START_TEST(one_case_per_report)
{
	char names[MAX_CASES][128], urls[MAX_CASES][256], path[512];
	int n = list_cases(names);

	for (int i = 0; i < n; i++) {
		Case *c = NULL;
		Diag d;

		fmt_snprintf(path, sizeof path, "%s/%.127s", DIR_REPORTED, names[i]);
		case_load(path, 0, &c, &d);
		ck_assert_ptr_nonnull(c);
		ck_assert(first_url(c->about, urls[i], sizeof urls[i]));
		case_free(c);
		for (int j = 0; j < i; j++)
			ck_assert_msg(strcmp(urls[i], urls[j]), "%s twice", urls[i]);
	}
}
END_TEST

static Suite *
reported_suite(void)
{
	Suite *s = suite_create("reported");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, every_report_keeps_its_shape);
	tcase_add_test(tc, one_case_per_report);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	Suite *suites[] = {reported_suite(), NULL};

	return tu_run(suites);
}
