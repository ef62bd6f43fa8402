/* bench.c: what the benches share (bench.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bench.h"

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
		snprintf(buf, sizeof buf, "%.*s/%s", (int)n, p, name);
		if (n && !access(buf, X_OK))
			return true;
		p += n + (p[n] == ':');
	}
	return false;
}
