/* test_io.c: the trust boundary (oracle/cases/trust.c, strategy_command),
 * the bounded reader (input.c) and the checked, atomic writer (output.c):
 * issue 24. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cases.h"
#include "testutil.h"

static char dir[64];

static void
mkdir_tmp(void)
{
	strcpy(dir, "/tmp/test_io.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void
put(const char *name, const char *text)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof p, "%s/%s", dir, name);
	ck_assert_ptr_nonnull(f = fopen(p, "w"));
	fputs(text, f);
	fclose(f);
}

static void
rm_tmp(void)
{
	char cmd[128];

	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static const char *exec_case =
	"case: c\n"
	"program: |\n"
	"  func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
	"    %b = add %a, %a : tensor<2xf32>\n"
	"    return %b\n"
	"  }\n"
	"inputs: {a: [1, 2]}\n"
	"runs:\n"
	"  - strategy: \"exec:touch X\"\n";

START_TEST(consent_needed_for_a_case_files_command)
{
	Case *c = NULL;
	Diag d;

	/* the test's own process never calls trust_all */
	ck_assert_int_eq(case_parse("c.yaml", exec_case, strlen(exec_case), 0,
				    &c, &d), -1);
	ck_assert_int_eq(d.loc.line, 9);
	ck_assert_int_eq(d.loc.col, 15);
	ck_assert_str_eq(d.msg, "this run would run the command 'touch X' that "
			 "the case file names; bufdiff runs a case file's "
			 "commands only with --allow-exec, or --trust DIR for a "
			 "directory that holds the file");
	case_free(c);
	/* bufdiff's own texts carry a consent given before */
	ck_assert_int_eq(case_parse("c.yaml", exec_case, strlen(exec_case),
				    CASE_TRUSTED, &c, &d), 0);
	case_free(c);
}
END_TEST

START_TEST(strategy_commands)
{
	static const struct {
		const char *spec, *cmd;
	} t[] = {
		{"one-shot", NULL}, {"copy-all", NULL}, {"mlir", NULL},
		{"mlir:mlir-opt-19", NULL}, {"mlir-pipeline:mlir-opt-16", NULL},
		{"mlir-native:mlir-opt-22", NULL}, {"exec:x y", "x y"},
		{"exec-mlir:z", "z"}, {"mlir:./mlir-opt-22", "./mlir-opt-22"},
		{"mlir:mlir-opt-22 --x", "mlir-opt-22 --x"},
		{"mlir-pipeline:/usr/bin/mlir-opt-22", "/usr/bin/mlir-opt-22"},
		{"mlir:mlir-opt-23", "mlir-opt-23"},
	};

	for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
		const Strategy *s = strategy_parse(t[i].spec);
		const char *cmd;

		ck_assert_ptr_nonnull(s);
		cmd = strategy_command(s);
		if (t[i].cmd)
			ck_assert_str_eq(cmd, t[i].cmd);
		else
			ck_assert_msg(!cmd, "%s needs no consent", t[i].spec);
	}
}
END_TEST

START_TEST(trusted_directories_by_real_path)
{
	char a[128], ab[128], why[256], p[256];

	mkdir_tmp();
	snprintf(a, sizeof a, "%s/a", dir);
	snprintf(ab, sizeof ab, "%s/ab", dir);
	ck_assert_int_eq(mkdir(a, 0777), 0);
	ck_assert_int_eq(mkdir(ab, 0777), 0);
	put("a/c.yaml", "x");
	put("ab/c.yaml", "x");
	snprintf(p, sizeof p, "%s/a/c.yaml", dir);
	ck_assert_int_eq(trust_dir(p, why, sizeof why), -1);
	ck_assert_msg(strstr(why, ": not a directory"), "%s", why);
	ck_assert(!trust_file(p));
	snprintf(p, sizeof p, "%s/a/../a/", dir);
	ck_assert_int_eq(trust_dir(p, why, sizeof why), 0);
	snprintf(p, sizeof p, "%s/a/c.yaml", dir);
	ck_assert(trust_file(p));
	snprintf(p, sizeof p, "%s/ab/c.yaml", dir);
	ck_assert_msg(!trust_file(p), "a/ is no prefix of ab/");
	/* a symlink in a/ that leads out leads out of the trust */
	snprintf(p, sizeof p, "%s/a/out.yaml", dir);
	ck_assert_int_eq(symlink("../ab/c.yaml", p), 0);
	ck_assert(!trust_file(p));
	ck_assert(!trust_file("<input>"));
	rm_tmp();
}
END_TEST

START_TEST(input_regular_and_bounded)
{
	char p[256];
	size_t len = 0;
	char *t;
	Diag d;

	mkdir_tmp();
	put("ten", "0123456789");
	snprintf(p, sizeof p, "%s/ten", dir);
	ck_assert_ptr_nonnull(t = input_read(p, 10, "a test", &len, &d));
	ck_assert_uint_eq(len, 10);
	ck_assert_str_eq(t, "0123456789");
	mem_free(t);
	ck_assert_ptr_null(input_read(p, 9, "a test", &len, &d));
	ck_assert_msg(strstr(d.msg, " is larger than 9 bytes, the limit for a "
			     "test"), "%s", d.msg);
	/* a FIFO with no writer: refused at once, not waited on */
	snprintf(p, sizeof p, "%s/fifo", dir);
	ck_assert_int_eq(mkfifo(p, 0666), 0);
	ck_assert_ptr_null(input_read(p, 10, "a test", &len, &d));
	ck_assert_msg(strstr(d.msg, " is a FIFO: bufdiff reads a test only from "
			     "a regular file"), "%s", d.msg);
	ck_assert_ptr_null(input_read("/dev/zero", 10, "a test", &len, &d));
	ck_assert_str_eq(d.msg, "/dev/zero is a character device: bufdiff reads "
			 "a test only from a regular file (or `-`, stdin)");
	ck_assert_ptr_null(input_read(dir, 10, "a test", &len, &d));
	ck_assert_msg(strstr(d.msg, " is a directory: "), "%s", d.msg);
	rm_tmp();
}
END_TEST

START_TEST(output_atomic_and_checked)
{
	char p[256], q[256];
	size_t len;
	char *t;
	Diag d;

	mkdir_tmp();
	snprintf(p, sizeof p, "%s/out", dir);
	ck_assert_int_eq(output_write(p, "new", 3), 0);
	ck_assert_ptr_nonnull(t = input_read(p, 10, "x", &len, &d));
	ck_assert_str_eq(t, "new");
	mem_free(t);
	/* a failed write leaves the old file and no temporary */
	ck_assert_int_eq(output_write("/dev/full", "x", 1), -1);
	ck_assert_int_eq(errno, ENOSPC);
	snprintf(q, sizeof q, "%s/no/such/dir", dir);
	ck_assert_int_eq(output_write(q, "x", 1), -1);
	ck_assert_int_eq(errno, ENOENT);
	snprintf(q, sizeof q, "ls %s | grep -q tmp-", dir);
	ck_assert_int_ne(system(q), 0);
	rm_tmp();
}
END_TEST

static Suite *
io_suite(void)
{
	Suite *s = suite_create("io");
	TCase *t = tcase_create("trust");

	tcase_add_test(t, consent_needed_for_a_case_files_command);
	tcase_add_test(t, strategy_commands);
	tcase_add_test(t, trusted_directories_by_real_path);
	suite_add_tcase(s, t);
	t = tcase_create("files");
	tcase_add_test(t, input_regular_and_bounded);
	tcase_add_test(t, output_atomic_and_checked);
	suite_add_tcase(s, t);
	return s;
}

int
main(void)
{
	return tu_run((Suite *[]){io_suite(), NULL});
}
