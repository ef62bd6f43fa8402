/* bench.c: what the benches share (bench.h). */
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
bench_fuzz_reps(const Strategy *s, const GenOpts *g, long count, int batch,
		BenchFuzz *f)
{
	ExternalOpts xo = external_opts_default;
	RunConfig cfg = run_config_default;

	xo.batch = batch;
	cfg.tool = &xo;
	memset(f, 0, sizeof *f);
	for (int r = 0; r < BENCH_REPS; r++) {
		FuzzOpts o = {0};
		FuzzStats st;
		ExternalStats x0 = *external_stats();
		double c0 = bench_cpu(RUSAGE_SELF) + bench_cpu(RUSAGE_CHILDREN);
		pid_t w0, w1;
		double k0 = inproc_worker_cpu(&w0), k1;

		external_forget(); /* every repetition asks the tool again */
		o.strategy = s;
		o.cfg = &cfg;
		o.seed = 1000000;
		o.count = count;
		o.nshards = 1;
		o.quiet = true;
		o.gen = *g;
		fuzz_run(&o, &st);
		f->wall[r] = st.seconds;
		k1 = inproc_worker_cpu(&w1);
		/* and the in-process route's live worker (one that died is
		 * reaped: all its CPU in RUSAGE_CHILDREN, its part before
		 * in k0) */
		f->cpu[r] = bench_cpu(RUSAGE_SELF) + bench_cpu(RUSAGE_CHILDREN) +
			    k1 - c0 - k0;
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
