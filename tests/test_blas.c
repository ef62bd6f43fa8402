/* test_blas.c: OpenBLAS's threads match the work (interp/blas_lazy.c):
 * loaded with one (no thread pool spinning for small gemms), widened to
 * the cores at the first gemm OpenBLAS would thread, bounded by
 * blas_threads_cap (a fuzz campaign: one), and as the environment says
 * when it says.  One process (CK_FORK=no): the environment's case runs
 * in a fork made before OpenBLAS is loaded. */
#define _GNU_SOURCE /* sched_getaffinity's CPU_COUNT */
#include <dirent.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "blas.h"
#include "testutil.h"

/* Threads of this process. */
static int
tasks(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

static int
cores(void)
{
	cpu_set_t set;

	ck_assert_int_eq(sched_getaffinity(0, sizeof set, &set), 0);
	return CPU_COUNT(&set);
}

/* An n x n x n sgemm of ones: every element of out is n. */
static void
gemm(int n)
{
	float *a = malloc(sizeof *a * (size_t)n * n);
	float *c = malloc(sizeof *c * (size_t)n * n);

	ck_assert(a && c);
	for (int i = 0; i < n * n; i++)
		a[i] = 1;
	cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1, a, n,
		    a, n, 0, c, n);
	for (int i = 0; i < n * n; i++)
		ck_assert_float_eq(c[i], (float)n);
	free(a);
	free(c);
}

START_TEST(threads_match_the_work)
{
	int st, base = tasks(), n = cores();
	pid_t pid;

	unsetenv("GOTO_NUM_THREADS");
	unsetenv("OMP_NUM_THREADS");
	/* the environment's count, in a fork loaded under it: one, never
	 * widened */
	setenv("OPENBLAS_NUM_THREADS", "1", 1);
	if (!(pid = fork())) {
		gemm(96);
		_exit(openblas_get_num_threads() == 1 && tasks() == base ? 0 : 1);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	unsetenv("OPENBLAS_NUM_THREADS");

	blas_threads_cap(1); /* before the load: nothing loaded */
	gemm(4);
	ck_assert_int_eq(openblas_get_num_threads(), 1);
	ck_assert_int_eq(tasks(), base); /* no pool */
	ck_assert_ptr_null(getenv("OPENBLAS_NUM_THREADS")); /* ours only */
	gemm(96); /* 884,736 flops: OpenBLAS would thread it; capped */
	ck_assert_int_eq(openblas_get_num_threads(), 1);
	blas_threads_cap(0); /* the cores (OpenBLAS may bound them) */
	ck_assert(n == 1 || openblas_get_num_threads() > 1);
	ck_assert_int_le(openblas_get_num_threads(), n);
	gemm(96);
	blas_threads_cap(1);
	ck_assert_int_eq(openblas_get_num_threads(), 1);
	blas_threads_cap(0);
	openblas_set_num_threads(1); /* the caller's word stands */
	gemm(96);
	ck_assert_int_eq(openblas_get_num_threads(), 1);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("blas");
	TCase *tc = tcase_create("threads");

	tcase_add_test(tc, threads_match_the_work);
	suite_add_tcase(s, tc);
	return tu_run((Suite *[]){s, NULL});
}
