/*
 * bench_names.c: lookups by name in what a file can make numerous (issue
 * 24): each reader on inputs of N names, N = 10^4, 10^5 (and 10^6 for
 * the keys and the merge: a case file of 10^6 functions is over
 * MAX_CASE_BYTES), built in memory:
 *   keys     a decisions document of N plan keys, then the first again:
 *            the duplicate-key error (YAML mapping keys, yaml.c)
 *   funcs    a case of N functions (the parser's redefinition check)
 *   calls    a case whose @main calls N functions (call resolution)
 *   plan     a case of N ops whose run's plan names each result (plan
 *            names against the program's values, runs.c)
 *   memref   the memref program of a chain of N ops (the translator's
 *            symbols and the TIR op at each location, memref.c)
 *   merge    a `fuzz --merge` summary of N buckets (fuzz_bucket.c)
 * User CPU seconds of this process around the reader alone (system time,
 * the kernel zeroing fresh pages, grows with the heap, not the lookups),
 * best of 3, and microseconds per name; the figure to read is the ratio of time per
 * name at each size to the smallest (1: linear; 10 per decade:
 * quadratic).  Never fails on a figure.  Usage: bench_names [MAXN]
 * (default 10^6; the sizes above it are skipped).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "bench.h"
#include "cases.h"
#include "fuzz.h"
#include "mlir.h"

enum { REPS = 3 };

static double
user_cpu(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec;
}

static const char chain_head[] =
	"case: big/chain\nprogram: |\n"
	"  func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n";

/* A chain of n adds (op i on line 4 + i, column 5), its return, inputs. */
static void
chain(Str *b, long n)
{
	str_puts(b, chain_head);
	str_puts(b, "    %v0 = add %x, %x : tensor<4xf32>\n");
	for (long i = 1; i < n; i++)
		str_printf(b, "    %%v%ld = add %%v%ld, %%x : tensor<4xf32>\n",
			   i, i - 1);
	str_printf(b, "    return %%v%ld\n  }\ninputs:\n  x: [1, 2, 3, 4]\n",
		   n - 1);
}

static char *
make_keys(long n)
{
	Str b = {0};

	str_puts(&b, "plan:\n");
	for (long i = 0; i < n; i++)
		str_printf(&b, "  k%ld: new\n", i);
	str_puts(&b, "  k0: new\n");
	return str_take(&b);
}

static char *
make_funcs(long n, bool calls)
{
	Str b = {0};

	str_puts(&b, "case: big/funcs\nprogram: |\n");
	for (long i = 0; i < n; i++)
		str_printf(&b, "  func @f%ld(%%x: tensor<4xf32>) -> tensor<4xf32> "
			   "{\n    return %%x\n  }\n", i);
	str_puts(&b, "  func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n");
	if (calls)
		str_puts(&b, "    %v0 = call @f0(%x)\n");
	for (long i = 1; calls && i < n; i++)
		str_printf(&b, "    %%v%ld = call @f%ld(%%v%ld)\n", i, i, i - 1);
	if (calls)
		str_printf(&b, "    return %%v%ld\n  }\n", n - 1);
	else
		str_puts(&b, "    return %x\n  }\n");
	str_puts(&b, "inputs:\n  x: [1, 2, 3, 4]\n");
	return str_take(&b);
}

static char *
make_plan(long n)
{
	Str b = {0};

	chain(&b, n);
	str_puts(&b, "runs:\n  - plan:\n");
	for (long i = 0; i < n; i++)
		str_printf(&b, "      v%ld: new\n", i);
	return str_take(&b);
}

/* mlir-pipeline's answer for chain(n): an alloc, a linalg.generic per
 * add into it (each body's block arguments new symbols). */
static char *
make_memref(long n)
{
	Str b = {0};
	const char *m = "memref<4xf32>";

	str_printf(&b, "\"builtin.module\"() ({\n  \"func.func\"() <{function_type "
		   "= (%s) -> %s, sym_name = \"main\"}> ({\n  ^bb0(%%arg0: %s "
		   "loc(\"big.yaml\":3:13)):\n    %%0 = \"memref.alloc\"() "
		   "<{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, "
		   "0>}> : () -> %s loc(\"big.yaml\":4:5)\n", m, m, m, m);
	for (long i = 0; i < n; i++) {
		char loc[64];
		snprintf(loc, sizeof loc, "loc(\"big.yaml\":%ld:5)", 4 + i);
		str_printf(&b, "    \"linalg.generic\"(%s, %%arg0, %%0) "
			   "<{indexing_maps = [affine_map<(d0) -> (d0)>, "
			   "affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], "
			   "iterator_types = [#linalg.iterator_type<parallel>], "
			   "operandSegmentSizes = array<i32: 2, 1>}> ({\n"
			   "    ^bb0(%%a%ld: f32, %%a%ld: f32, %%a%ld: f32):\n"
			   "      %%r%ld = \"arith.addf\"(%%a%ld, %%a%ld) <{fastmath "
			   "= #arith.fastmath<none>}> : (f32, f32) -> f32 %s\n"
			   "      \"linalg.yield\"(%%r%ld) : (f32) -> () %s\n"
			   "    }) : (%s, %s, %s) -> () %s\n", i ? "%0" : "%arg0",
			   3 * i, 3 * i + 1, 3 * i + 2, i, 3 * i, 3 * i + 1, loc,
			   i, loc, m, m, m, loc);
	}
	str_printf(&b, "    \"func.return\"(%%0) : (%s) -> () loc(\"big.yaml\":"
		   "%ld:5)\n  }) : () -> () loc(\"big.yaml\":3:3)\n}) : () -> () "
		   "loc(\"<stdin>\":0:0)\n", m, 4 + n);
	return str_take(&b);
}

static char *
make_merge(long n)
{
	Str b = {0};

	str_printf(&b, "{\"programs\": %ld, \"failures\": %ld, \"skipped\": 0, "
		   "\"tool_errors\": 0, \"tool_calls\": 0, \"buckets\": [", n, n);
	for (long i = 0; i < n; i++)
		str_printf(&b, "%s{\"signature\": \"s%ld\", \"count\": 1, "
			   "\"seeds\": [%ld]}", i ? ", " : "", i, i);
	str_puts(&b, "]}\n");
	return str_take(&b);
}

/* ---- the readers: 0 when they did what the input asks */

static Case *small_case;

static int
run_keys(const char *text)
{
	Arena *a = arena_new();
	Run r = {0};
	bool found;
	Diag d;
	int rc = plandoc_load("keys.yaml", text, strlen(text), small_case, a,
			      &r, &found, &d);

	arena_free(a);
	return rc == -1 && strstr(d.msg, "duplicate key 'k0' in plan") ? 0 : -1;
}

static int
run_case(const char *text)
{
	Case *c = NULL;
	Diag d;
	int rc = case_parse("big.yaml", text, strlen(text), 0, &c, &d);

	if (rc)
		fprintf(stderr, "bench_names: %d:%d: %s\n", d.loc.line,
			d.loc.col, d.msg);
	case_free(c);
	return rc;
}

static Case *chain_case;
static Arena *chain_arena;      /* its export map's */
static ExportMap chain_map;

static int
run_memref(const char *text)
{
	BProg *bp = NULL;
	const Func *entry;
	Diag d;
	int rc = memref_program(chain_case, text, &chain_map, &bp, &entry, &d);

	if (rc)
		fprintf(stderr, "bench_names: memref %d:%d: %s\n", d.loc.line,
			d.loc.col, d.msg);
	bprog_free(bp);
	return rc;
}

static int
run_merge(const char *text)
{
	FILE *null = fopen("/dev/null", "w");
	int rc = null ? fuzz_merge_text("merge.jsonl", text, false, null) : -1;

	if (null)
		fclose(null);
	return rc == 1 ? 0 : -1;
}

/* ---- timing */

typedef struct Item {
	const char *name;
	long maxn;
	char *(*make)(long n);
	int (*run)(const char *text);
} Item;

static char *funcs_of(long n) { return make_funcs(n, false); }
static char *calls_of(long n) { return make_funcs(n, true); }

static int
prepare(long n)
{
	Str b = {0};
	Diag d;
	char *t;
	int rc;

	case_free(chain_case);
	arena_free(chain_arena);
	chain_case = NULL;
	chain(&b, n);
	if (!(t = str_take(&b)) || !(chain_arena = arena_new()))
		return -1;
	rc = case_parse("big.yaml", t, strlen(t), 0, &chain_case, &d);
	mem_free(t);
	if (!rc) /* the map from MLIR ops back to the chain's (the text: unused) */
		rc = mlir_export(chain_case->prog, "big.yaml", mlir_version(22),
				 &b, chain_arena, &chain_map, &d);
	str_free(&b);
	return rc;
}

int
main(int argc, char **argv)
{
	static const Item items[] = {
		{"keys", 1000000, make_keys, run_keys},
		{"funcs", 100000, funcs_of, run_case},
		{"calls", 100000, calls_of, run_case},
		{"plan", 100000, make_plan, run_case},
		{"memref", 100000, make_memref, run_memref},
		{"merge", 1000000, make_merge, run_merge},
	};
	long maxn = argc > 1 ? atol(argv[1]) : 1000000;
	Str b = {0};
	Diag d;
	char *t;

	mem_limit((int64_t)16 << 30);
	chain(&b, 2);
	t = str_take(&b);
	if (!t || case_parse("small.yaml", t, strlen(t), 0, &small_case, &d)) {
		fprintf(stderr, "bench_names: %s\n", t ? d.msg : "out of memory");
		return 1;
	}
	mem_free(t);
	printf("lookups by name (user CPU s, best of %d; us/name; ratio of us/name "
	       "to the first size's)\n", REPS);
	for (size_t k = 0; k < sizeof items / sizeof *items; k++) {
		double base = 0;
		for (long n = 10000; n <= items[k].maxn && n <= maxn; n *= 10) {
			char *text = items[k].make(n);
			double best = 1e30;
			if (!text || (items[k].run == run_memref && prepare(n)))
				return 1;
			for (int r = 0; r < REPS; r++) {
				double t0 = user_cpu();
				if (items[k].run(text)) {
					fprintf(stderr, "bench_names: %s %ld: "
						"failed\n", items[k].name, n);
					return 1;
				}
				t0 = user_cpu() - t0;
				best = t0 < best ? t0 : best;
			}
			if (!base)
				base = best / (double)n;
			printf("  %-7s N=%-8ld %8.3f s  %7.2f us/name  x%.2f\n",
			       items[k].name, n, best, 1e6 * best / (double)n,
			       best / (double)n / base);
			fflush(stdout);
			mem_free(text);
		}
	}
	case_free(chain_case);
	arena_free(chain_arena);
	case_free(small_case);
	return 0;
}
