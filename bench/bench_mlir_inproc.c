/*
 * bench_mlir_inproc.c: mlir-opt-22 in-process (a worker holding libMLIR,
 * oracle/mlir/inproc.c) against mlir-opt-22 as a process per call.
 *
 * Every figure is a ratio measured in this run, over REPS repetitions
 * (min and median; the machine is shared), in CPU time: this process's,
 * its reaped children's (RUSAGE_CHILDREN: mlir-opt processes, workers
 * that died), and the live worker's (its CPU clock).
 *
 * 1. `fuzz --strategy mlir` and `--strategy mlir-pipeline`: COUNT programs
 *    (default 1024) from seed 10^6, no async, no copies (as bench_mlir and
 *    bench_pipeline), batches of 64, through each route; programs per
 *    CPU-second and in-process / process.  The worker is warm (started by
 *    a warm-up call, not counted: a campaign pays it once); its start-up
 *    is figure 3.  Goal of issue 26: >= 2,000 programs/CPU-s and >= 5x.
 * 2. `run --strategy mlir` against `--strategy one-shot` on one case
 *    (CASE, default cases/alias/copy-into-itself.yaml): check_case of that
 *    strategy alone, the answer cache emptied each time, CPU per run over
 *    200 runs in a row (the heap set up as bufdiff's main does: without
 *    it, glibc trims and faults the heap again every run); and
 *    the whole command (BUFDIFF, when given: `BUFDIFF run CASE
 *    --strategy S` as a child, its worker and tools included), and with
 *    BUFDIFF_MLIR_DAEMON=1 (the worker across commands; the daemon's
 *    CPU counted: its own and its sessions').  Goal: mlir <= 2x one-shot.
 * 3. A call on an empty module: a fresh worker (fork, dlopen, context)
 *    against a warm one, and mlir-opt-22 as a process.
 * 4. One batch of 64 generated programs that no program fails (figure 1
 *    pays for failing batches halved, and for crashes: mlir-opt-22's
 *    crash handler runs llvm-symbolizer), the same call through each
 *    route.
 * Without mlir-opt-22 or the module it says so and exits 0.
 * Usage: bench_mlir_inproc [COUNT [CASE [BUFDIFF]]]; `batch`: figure 4
 * alone; `run CASE BUFDIFF`: figure 2 alone; `fuzz [COUNT]`: figure 1.
 */
#define _GNU_SOURCE /* memmem */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "cases.h"
#include "mlir.h"
#include "harness.h"
#include "fuzz.h"

#define REPS BENCH_REPS

/* Every CPU second spent for us so far: ours, our reaped children's,
 * the live worker's; *pid the worker's. */
static double
cpu_all(pid_t *pid)
{
	return bench_cpu(RUSAGE_SELF) + bench_cpu(RUSAGE_CHILDREN) +
	       inproc_worker_cpu(pid);
}

/* CPU since c0 = cpu_all(&w0): a worker that died since is reaped, all
 * its CPU in RUSAGE_CHILDREN, its part before c0 in c0. */
static double
cpu_since(double c0, pid_t w0)
{
	pid_t w1;

	(void)w0;
	return cpu_all(&w1) - c0;
}

/* A call of s's command on an empty module through the current route:
 * CPU seconds. */
static double
empty_call(const Strategy *s)
{
	Str b = {0};
	char *cmd;
	pid_t w0;
	double c0 = cpu_all(&w0);
	ToolResult t;

	external_command(NULL, s, &b);
	if (!(cmd = str_take(&b)))
		return 0;
	if (inproc_wanted(s->arg)) {
		if (inproc_call(&(ToolCall){cmd, "module {}\n", 10, 60, 0, false},
				"builtin.module(one-shot-bufferize{bufferize-"
				"function-boundaries test-analysis-only})",
				NULL, &t))
			t.out = t.err = NULL;
	} else if (tool_run(cmd, "module {}\n", 10, 60, &t)) {
		t.out = t.err = NULL;
	}
	tool_result_free(&t);
	mem_free(cmd);
	return cpu_since(c0, w0);
}

static void
startup(void)
{
	const Strategy *s = strategy_parse("mlir");
	double cold[REPS], warm[REPS], proc[REPS];

	for (int r = 0; r < REPS; r++) {
		inproc_set_route(ROUTE_INPROC);
		inproc_end();
		cold[r] = empty_call(s);
		warm[r] = empty_call(s);
		inproc_end();
		inproc_set_route(ROUTE_PROCESS);
		proc[r] = empty_call(s);
	}
	printf("\n3. a call on an empty module, ms CPU        min    median\n");
	printf("  in-process, fresh worker           %9.1f %9.1f\n",
	       1e3 * bench_min(cold, REPS), 1e3 * bench_median(cold, REPS));
	printf("  in-process, warm worker            %9.1f %9.1f\n",
	       1e3 * bench_min(warm, REPS), 1e3 * bench_median(warm, REPS));
	printf("  mlir-opt-22 process                %9.1f %9.1f\n",
	       1e3 * bench_min(proc, REPS), 1e3 * bench_median(proc, REPS));
}

/* ---- 1. fuzz */

static void
row(const char *name, const BenchFuzz *f, double *pcs)
{
	double v[REPS];

	for (int r = 0; r < REPS; r++)
		pcs[r] = v[r] = (double)f->programs / f->cpu[r];
	printf("  %-24s %9.0f %9.0f %6ld %6ld %5ld\n", name,
	       bench_median(v, REPS), v[REPS - 1], f->calls, f->failures,
	       f->tool_errors);
}

/* Where the worker's CPU goes, ms a program (medians over the
 * repetitions): MLIR's parse (with its verifier), pass and print, timed
 * by the worker around each call; the rest of the worker's (the crashes:
 * a runaway recursion each, the servers forked after them, serving);
 * bufdiff's own.  And the floor: with the parse, the print and bufdiff's
 * side all free (the IR built and read through the C API at no cost),
 * the pass and the crashes alone allow at most programs / (worker CPU -
 * parse - print) a CPU-second. */
static void
mlir_floor(const BenchFuzz *f)
{
	double ph[3][REPS], rest[REPS], own[REPS], floor[REPS];
	double n = (double)f->programs, med;

	for (int r = 0; r < REPS; r++) {
		double t = f->tool_cpu[r];
		for (int i = 0; i < 3; i++)
			t -= ph[i][r] = f->phase[i][r];
		rest[r] = t;
		own[r] = f->cpu[r] - f->tool_cpu[r];
		floor[r] = n / (f->tool_cpu[r] - ph[0][r] - ph[2][r]);
	}
	printf("  ms of CPU a program, median: MLIR's parse %.3f, pass %.3f, "
	       "print %.3f; the worker's rest (crashes, forks, serving) %.3f; "
	       "bufdiff's side %.3f\n", 1e3 * bench_median(ph[0], REPS) / n,
	       1e3 * bench_median(ph[1], REPS) / n,
	       1e3 * bench_median(ph[2], REPS) / n,
	       1e3 * bench_median(rest, REPS) / n,
	       1e3 * bench_median(own, REPS) / n);
	med = bench_median(floor, REPS); /* sorts: [REPS - 1] the best */
	printf("  with the parse, the print and bufdiff's side free: at most "
	       "%.0f programs per CPU-s median (best %.0f)\n", med,
	       floor[REPS - 1]);
}

/* The in-process campaign's CPU split: the worker's (MLIR's parse, pass
 * and print, its crashes and the servers forked after them) and
 * bufdiff's own.  The worker's alone bounds the campaign: with bufdiff
 * costing nothing it would run programs / worker CPU a CPU-second. */
static void
tool_side(const BenchFuzz *f)
{
	double share[REPS], bound[REPS];

	for (int r = 0; r < REPS; r++) {
		share[r] = f->tool_cpu[r] / f->cpu[r];
		bound[r] = (double)f->programs / f->tool_cpu[r];
	}
	/* (each sorted by its median: [0] the min, [REPS - 1] the max) */
	printf("  in-process, the worker's share of the CPU: %.0f%% median "
	       "(%.0f-%.0f%%)\n", 100 * bench_median(share, REPS),
	       100 * share[0], 100 * share[REPS - 1]);
	printf("  the worker alone: %.0f programs per its CPU-s median (best "
	       "%.0f): the most with bufdiff's side free\n",
	       bench_median(bound, REPS), bound[REPS - 1]);
	mlir_floor(f);
}

static void
fuzz_routes(const char *spec, long count)
{
	const Strategy *s = strategy_parse(spec);
	GenOpts g = {.max_ops = 12, .mix = GEN_ALL & ~GEN_ASYNC, .no_copies = true};
	BenchFuzz in, pr;
	double a[REPS], b[REPS], ratio[REPS];

	inproc_set_route(ROUTE_INPROC);
	empty_call(s); /* the worker started: a campaign pays it once */
	bench_fuzz_reps(s, &g, count, 0, &in);
	inproc_end();
	inproc_set_route(ROUTE_PROCESS);
	bench_fuzz_reps(s, &g, count, 0, &pr);
	printf("\n1. fuzz --strategy %s: %ld programs from seed 1000000, no "
	       "async, no copies, batches of 64, %d reps\n", spec, count, REPS);
	printf("  %-24s %9s %9s %6s %6s %5s\n", "programs per CPU-s",
	       "median", "best", "calls", "fail", "t-err");
	row("in-process (warm)", &in, a);
	row("mlir-opt-22 processes", &pr, b);
	/* per repetition: the r-th in-process against the r-th process */
	for (int r = 0; r < REPS; r++)
		ratio[r] = ((double)in.programs / in.cpu[r]) /
			   ((double)pr.programs / pr.cpu[r]);
	printf("  in-process / process: %.1fx median, %.1fx min "
	       "(goal >= 5x; >= 2,000/CPU-s: %s)\n", bench_median(ratio, REPS),
	       bench_min(ratio, REPS), bench_median(a, REPS) >= 2000 ? "yes" : "no");
	tool_side(&in);
	(void)b;
}

/* ---- 2. run on one case */

/* check_case of strategy spec alone on case c, the cache emptied each
 * time, n times in a row: CPU per run (one CPU window around the n: the
 * clocks read per run cost more than a small case's one-shot run). */
static double
runs(const char *spec, Case *c, int n)
{
	pid_t w0;
	double c0 = cpu_all(&w0);

	for (int k = 0; k < n; k++) {
		RunConfig cfg = run_config_default;
		ExternalOpts xo = external_opts_default;
		Outcome o;
		cfg.tool = &xo;
		external_forget();
		check_case(&cfg, c, strategy_parse(spec), false, &o);
		outcome_clear(&o);
	}
	return cpu_since(c0, w0) / n;
}

/* The command `bufdiff run CASE --strategy spec` as a child: CPU. */
static double
one_command(const char *bufdiff, const char *path, const char *spec)
{
	Str b = {0};
	char *cmd;
	double c0 = bench_cpu(RUSAGE_CHILDREN);

	str_puts(&b, "");
	sh_word(&b, bufdiff);
	str_printf(&b, " run ");
	sh_word(&b, path);
	str_printf(&b, " --strategy %s >/dev/null 2>&1", spec);
	if (!(cmd = str_take(&b)))
		return 0;
	if (system(cmd) < 0)
		c0 = bench_cpu(RUSAGE_CHILDREN);
	mem_free(cmd);
	return bench_cpu(RUSAGE_CHILDREN) - c0;
}

/* The CPU seconds of the daemon serving socket directory dir and of its
 * forks (the warm server, sessions): each live one's own, and what each
 * reaped (a dead fork's CPU is its reaper's cutime). */
static double
daemon_cpu(const char *dir)
{
	char want[512], buf[4096], path[300];
	double cpu = 0;
	DIR *proc = opendir("/proc");
	struct dirent *e;
	size_t nw = (size_t)snprintf(want, sizeof want, "--daemon%c%s/", 0,
				     dir);

	while (proc && (e = readdir(proc))) {
		FILE *f;
		size_t n;
		unsigned long long u, st, cu, cs;
		char *q;
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
		if (!(f = fopen(path, "re")))
			continue;
		n = fread(buf, 1, sizeof buf, f);
		fclose(f);
		if (n < nw || !memmem(buf, n, want, nw))
			continue;
		snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
		if (!(f = fopen(path, "re")))
			continue;
		n = fread(buf, 1, sizeof buf - 1, f);
		fclose(f);
		buf[n] = 0;
		if ((q = strrchr(buf, ')')) &&
		    sscanf(q + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u "
			   "%*u %llu %llu %llu %llu", &u, &st, &cu, &cs) == 4)
			cpu += (double)(u + st + cu + cs) /
			       (double)sysconf(_SC_CLK_TCK);
	}
	if (proc)
		closedir(proc);
	return cpu;
}

/* K commands `bufdiff run CASE --strategy mlir` with BUFDIFF_MLIR_DAEMON:
 * CPU a command, its own and the daemon's (the sessions reaped: the
 * daemon reaps once a second). */
static double
daemon_commands(const char *bufdiff, const char *path, const char *dir)
{
	enum { K = 10 };
	double d0 = daemon_cpu(dir), c = 0;

	for (int k = 0; k < K; k++)
		c += one_command(bufdiff, path, "mlir");
	usleep(1300000);
	return (c + daemon_cpu(dir) - d0) / K;
}

static void
run_case(const char *path, const char *bufdiff)
{
	enum { N = 200 }; /* runs per repetition */
	Case *c = NULL;
	Diag d;
	double os[REPS], in[REPS], pr[REPS], ri[REPS], rp[REPS];

	if (case_load(path, 0, &c, &d)) {
		printf("\n2. %s: %d:%d: %s\n", path, d.loc.line, d.loc.col, d.msg);
		return;
	}
	inproc_set_route(ROUTE_INPROC);
	runs("mlir", c, 1); /* the worker started */
	for (int r = 0; r < REPS; r++) {
		os[r] = runs("one-shot", c, N);
		inproc_set_route(ROUTE_INPROC);
		in[r] = runs("mlir", c, N);
		inproc_set_route(ROUTE_PROCESS);
		pr[r] = runs("mlir", c, N / 20); /* 0.15 s each */
		ri[r] = in[r] / os[r];
		rp[r] = pr[r] / os[r];
	}
	inproc_end();
	printf("\n2. run on %s, ms CPU per run (%d runs a rep, %d as "
	       "processes)   min    median\n", path, N, N / 20);
	printf("  one-shot                           %9.2f %9.2f\n",
	       1e3 * bench_min(os, REPS), 1e3 * bench_median(os, REPS));
	printf("  mlir in-process (warm worker)      %9.2f %9.2f\n",
	       1e3 * bench_min(in, REPS), 1e3 * bench_median(in, REPS));
	printf("  mlir, mlir-opt-22 process          %9.2f %9.2f\n",
	       1e3 * bench_min(pr, REPS), 1e3 * bench_median(pr, REPS));
	printf("  mlir / one-shot: in-process %.1fx median (%.1fx min), "
	       "process %.1fx median (%.1fx min); goal <= 2x\n",
	       bench_median(ri, REPS), bench_min(ri, REPS),
	       bench_median(rp, REPS), bench_min(rp, REPS));
	if (bufdiff) {
		double co[REPS], ci[REPS], cp[REPS], xi[REPS], xp[REPS];
		double cd[REPS], xd[REPS];
		char dir[] = "/tmp/bench-daemon-XXXXXX";
		bool daemon = mkdtemp(dir) != NULL;
		if (daemon) { /* the first command starts it: not counted */
			setenv("BUFDIFF_MLIR_DAEMON_DIR", dir, 1);
			setenv("BUFDIFF_MLIR_DAEMON", "1", 1);
			one_command(bufdiff, path, "mlir");
			unsetenv("BUFDIFF_MLIR_DAEMON");
		}
		for (int r = 0; r < REPS; r++) {
			co[r] = one_command(bufdiff, path, "one-shot");
			setenv("BUFDIFF_MLIR_ROUTE", "in-process", 1);
			ci[r] = one_command(bufdiff, path, "mlir");
			setenv("BUFDIFF_MLIR_ROUTE", "process", 1);
			cp[r] = one_command(bufdiff, path, "mlir");
			unsetenv("BUFDIFF_MLIR_ROUTE");
			xi[r] = ci[r] / co[r];
			xp[r] = cp[r] / co[r];
			if (daemon) {
				setenv("BUFDIFF_MLIR_DAEMON", "1", 1);
				cd[r] = daemon_commands(bufdiff, path, dir);
				unsetenv("BUFDIFF_MLIR_DAEMON");
				xd[r] = cd[r] / co[r];
			}
		}
		printf("  the whole command, ms CPU: one-shot %.1f, mlir "
		       "in-process %.1f (a fresh worker), process %.1f "
		       "(medians)\n", 1e3 * bench_median(co, REPS),
		       1e3 * bench_median(ci, REPS), 1e3 * bench_median(cp, REPS));
		printf("  ... / one-shot: in-process %.1fx median (%.1fx min), "
		       "process %.1fx median (%.1fx min)\n",
		       bench_median(xi, REPS), bench_min(xi, REPS),
		       bench_median(xp, REPS), bench_min(xp, REPS));
		if (daemon) {
			printf("  with BUFDIFF_MLIR_DAEMON=1 (the daemon's CPU "
			       "counted): %.1f ms, %.1fx one-shot median (%.1fx "
			       "min); goal <= 2x\n", 1e3 * bench_median(cd, REPS),
			       bench_median(xd, REPS), bench_min(xd, REPS));
			Str rm = {0};
			char *cmd;
			str_puts(&rm, "rm -rf ");
			sh_word(&rm, dir);
			if ((cmd = str_take(&rm)) && system(cmd) < 0)
				perror("rm");
			mem_free(cmd);
		}
	}
	case_free(c);
}

/* ---- 4. one batch of 64 generated programs, no crash */

#define BATCH_PIPE "builtin.module(builtin.module(one-shot-bufferize{" \
	"bufferize-function-boundaries test-analysis-only " \
	"allow-return-allocs-from-loops}))"

/* 64 programs from seed on as fuzz batches them (nested modules), or NULL
 * when one does not export. */
static char *
batch_text(uint64_t seed)
{
	GenOpts g = {.max_ops = 12, .mix = GEN_ALL & ~GEN_ASYNC, .no_copies = true};
	Str b = {0};

	str_puts(&b, "module {\n");
	for (int i = 0; i < 64; i++) {
		char *text = gen_case(seed + (uint64_t)i, &g, "mlir");
		Case *c = NULL;
		Arena *a = arena_new();
		ExportMap map = {0};
		Diag d;
		str_puts(&b, "module {\n");
		if (!text || case_parse("gen.yaml", text, strlen(text), 0, &c, &d) ||
		    !a || mlir_export(c->prog, c->file, mlir_version(22), &b, a,
				      &map, &d)) {
			str_free(&b);
			b.oom = true;
		}
		str_puts(&b, "\n}\n");
		case_free(c);
		arena_free(a);
		mem_free(text);
	}
	str_puts(&b, "}\n");
	return b.oom ? (str_free(&b), NULL) : str_take(&b);
}

static size_t batch_out; /* the last answer's bytes */

/* CPU of one call on text through the route set. */
static double
batch_call(const char *cmd, const char *text, ToolStatus *st)
{
	pid_t w0;
	double c0 = cpu_all(&w0);
	ToolCall c = {cmd, text, strlen(text), 60, 0, true}; /* (process: as bufdiff runs it) */
	ToolResult r;
	int rc = inproc_route() == ROUTE_INPROC ?
		 inproc_call(&c, BATCH_PIPE, NULL, &r) : tool_call(&c, &r);

	*st = rc ? TOOL_SPAWN : r.status;
	if (!rc) {
		batch_out = r.nout;
		tool_result_free(&r);
	}
	return cpu_since(c0, w0);
}

static void
one_batch(void)
{
	const char *cmd = "mlir-opt-22 '--pass-pipeline=" BATCH_PIPE "' "
			  "--mlir-print-op-generic --mlir-print-debuginfo "
			  "--mlir-print-local-scope";
	double in[REPS], pr[REPS], x[REPS];
	uint64_t seed = 1000000;
	char *text = NULL;
	ToolStatus st = TOOL_SPAWN;

	inproc_set_route(ROUTE_INPROC);
	for (int k = 0; k < 16 && st != TOOL_OK; k++, seed += 64) {
		mem_free(text);
		if ((text = batch_text(seed)))
			batch_call(cmd, text, &st);
	}
	if (st != TOOL_OK) {
		printf("\n4. no batch of 64 without a failure\n");
		mem_free(text);
		return;
	}
	for (int r = 0; r < REPS; r++) {
		inproc_set_route(ROUTE_INPROC);
		in[r] = batch_call(cmd, text, &st);
		inproc_set_route(ROUTE_PROCESS);
		pr[r] = batch_call(cmd, text, &st);
		x[r] = pr[r] / in[r];
	}
	inproc_end();
	printf("\n4. one batch of 64 generated programs (seeds %llu..; %zu "
	       "bytes in, %zu out), no failure, ms CPU per call   min    "
	       "median\n", (unsigned long long)seed - 64, strlen(text),
	       batch_out);
	printf("  in-process (warm worker)           %9.1f %9.1f  (%.0f "
	       "programs/CPU-s)\n", 1e3 * bench_min(in, REPS),
	       1e3 * bench_median(in, REPS), 64 / bench_median(in, REPS));
	printf("  mlir-opt-22 process                %9.1f %9.1f  (%.0f "
	       "programs/CPU-s)\n", 1e3 * bench_min(pr, REPS),
	       1e3 * bench_median(pr, REPS), 64 / bench_median(pr, REPS));
	printf("  process / in-process: %.1fx median, %.1fx min\n",
	       bench_median(x, REPS), bench_min(x, REPS));
	mem_free(text);
}

int
main(int argc, char **argv)
{
	long count = argc > 1 ? strtol(argv[1], NULL, 10) : 1024;
	const char *path = argc > 2 ? argv[2] : "cases/alias/copy-into-itself.yaml";
	const char *bufdiff = argc > 3 ? argv[3] : NULL;
	time_t t = time(NULL);
	char day[32];

	setvbuf(stdout, NULL, _IOLBF, 0);
	mem_heap_setup(MEM_MMAP_THRESHOLD, true); /* as bufdiff's main */
	trust_all();
	external_register();
	if (!bench_on_path("mlir-opt-22") || !inproc_available()) {
		printf("bench_mlir_inproc: no mlir-opt-22 or no bufdiff_mlir.so "
		       "(libmlir-22-dev): nothing measured\n");
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "batch")) { /* figure 4 alone */
		one_batch();
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "run")) { /* figure 2 alone */
		run_case(path, bufdiff);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "fuzz")) { /* figure 1 alone */
		count = argc > 2 ? strtol(argv[2], NULL, 10) : 1024;
		fuzz_routes("mlir", count < 64 ? 64 : count);
		fuzz_routes("mlir-pipeline", count < 64 ? 64 : count);
		return 0;
	}
	if (count < 64)
		count = 64;
	strftime(day, sizeof day, "%Y-%m-%d %H:%M UTC", gmtime(&t));
	printf("bench_mlir_inproc, %s: CPU time of bufdiff, its children and "
	       "the worker; %d reps\n", day, REPS);
	fuzz_routes("mlir", count);
	fuzz_routes("mlir-pipeline", count);
	run_case(path, bufdiff);
	startup();
	one_batch();
	return 0;
}
