/* bench.c: what the benches share (bench.h). */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bench.h"
#include "mlir.h"
#include "harness.h"
#include "fuzz.h"

double
bench_clock(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double
bench_cpu(int who)
{
	struct rusage ru;

	getrusage(who, &ru);
	return (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
	       (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
}

int
bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double
bench_min(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
	return v[0];
}

double
bench_median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
	return v[n / 2];
}

bool
bench_on_path(const char *name)
{
	const char *p = getenv("PATH");
	char buf[4096];

	for (p = p ? p : "/usr/bin:/bin"; *p;) {
		size_t n = strcspn(p, ":");
		fmt_snprintf(buf, sizeof buf, "%.*s/%s", (int)n, p, name);
		if (n && !access(buf, X_OK))
			return true;
		p += n + (p[n] == ':');
	}
	return false;
}

void
bench_fuzz_opts(FuzzOpts *o, const Strategy *s, const RunConfig *cfg,
		const GenOpts *g, long count)
{
	memset(o, 0, sizeof *o);
	o->strategy = s;
	o->cfg = cfg;
	o->seed = 1000000;
	o->count = count;
	o->nshards = 1;
	o->quiet = true;
	o->gen = *g;
}

void
bench_fuzz_reps(const Strategy *s, const GenOpts *g, long count, int batch,
		BenchFuzz *f)
{
	ExternalOpts xo = external_opts_default;
	RunConfig cfg = run_config_default;

	xo.batch = batch;
	cfg.tool = &xo;
	memset(f, 0, sizeof *f);
	for (int r = 0; r < BENCH_REPS; r++) {
		FuzzOpts o;
		FuzzStats st;
		ExternalStats x0 = *external_stats();
		double s0 = bench_cpu(RUSAGE_SELF), h0 = bench_cpu(RUSAGE_CHILDREN);
		pid_t w0, w1;
		double k0 = inproc_worker_cpu(&w0), k1;
		InprocPhases p0, p1;

		inproc_phases(&p0);

		external_forget(); /* every repetition asks the tool again */
		bench_fuzz_opts(&o, s, &cfg, g, count);
		fuzz_run(&o, &st);
		f->wall[r] = st.seconds;
		k1 = inproc_worker_cpu(&w1);
		/* and the in-process route's live worker (one that died is
		 * reaped: all its CPU in RUSAGE_CHILDREN, its part before
		 * in k0) */
		f->tool_cpu[r] = bench_cpu(RUSAGE_CHILDREN) - h0 + k1 - k0;
		inproc_phases(&p1);
		for (int i = 0; i < 3; i++)
			f->phase[i][r] = p1.s[i] - p0.s[i];
		f->cpu[r] = bench_cpu(RUSAGE_SELF) - s0 + f->tool_cpu[r];
		f->tool[r] = external_stats()->seconds - x0.seconds;
		f->share[r] = st.seconds > 0 ? f->tool[r] / st.seconds : 0;
		f->programs = st.programs;
		f->failures = st.failures;
		f->tool_errors = st.tool_errors;
		f->calls = external_stats()->calls - x0.calls;
		fuzz_stats_free(&st);
	}
	external_forget();
}

/* ---- the corpus's files (bench_cases): nftw has no context argument */

static char **found;
static int nfound, capfound;

static int
visit(const char *path, const struct stat *st, int type, struct FTW *f)
{
	size_t n = strlen(path);

	(void)st;
	(void)f;
	if (type != FTW_F || n < 6 || strcmp(path + n - 5, ".yaml") ||
	    strstr(path, "/errors/"))
		return 0;
	if (nfound == capfound) {
		char **p;
		capfound = capfound ? 2 * capfound : 256;
		if (!(p = mem_realloc(found, (size_t)capfound * sizeof *p)))
			return 1;
		found = p;
	}
	if ((found[nfound] = mem_strdup(path)))
		nfound++;
	return 0;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
bench_cases(const char *dir, char ***paths)
{
	int n;

	found = NULL;
	nfound = capfound = 0;
	nftw(dir, visit, 16, FTW_PHYS);
	if (found)
		qsort(found, (size_t)nfound, sizeof *found, cmp_str);
	*paths = found;
	n = nfound;
	found = NULL;
	return n;
}

void
bench_cases_free(char **paths, int n)
{
	for (int i = 0; i < n; i++)
		mem_free(paths[i]);
	mem_free(paths);
}
