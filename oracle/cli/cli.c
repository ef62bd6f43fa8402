/*
 * cli.c: the command line (FORMAT.md §4, docs/cli.md).  Two tables drive
 * it: the commands (name, positional arguments, what it does) and the
 * flags (name, value, parser, field of Args, range, commands that take
 * it, help).  getopt_long parses every command from the flag table;
 * `bufdiff help CMD` and `CMD --help` print the same table, and a name
 * that is not in a table gets the closest one that is ("did you mean").
 * A new flag is one row of `flags` (and its field in Args).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>

#include "cli.h"
#include "mlir.h"
#include "fuzz.h"
#include "cases.h"

static const struct {
	const char *name;
	const char *pos;        /* the positional arguments, as help shows them */
	int min, max;           /* how many (max -1: any number) */
	const char *about;
} cmds[CLI_NCMDS] = {
	[CLI_RUN] = {"run", "CASE", 1, 1,
		"load CASE, run the reference interpreter, check `expect`, then "
		"every run of the case's `runs:` (or only --strategy S, or only "
		"the --plan run; either must agree) on the instrumented executor"},
	[CLI_CHECK] = {"check", "PATH...", 1, -1,
		"every case under the PATHs (directories searched recursively for "
		"*.yaml, in sorted order; a FILE.mlir named is imported, each "
		"`// -----` section a case FILE.mlir#N): its expectations and runs, "
		"[ok] or [FAIL] per case and `N passed, M failed`"},
	[CLI_PRINT] = {"print", "CASE...", 1, -1,
		"the case's program in canonical TIR (it parses back to the same "
		"program); several cases: each after a line `// ----- CASE`"},
	[CLI_BUFFERIZE] = {"bufferize", "CASE", 1, 1,
		"the buffer program of CASE under --strategy S (default copy-all), "
		"or under the case's run I with its plan: one instruction a line, "
		"with its decision, why it is there and its .yaml line"},
	[CLI_EXPLAIN] = {"explain", "CASE", 1, 1,
		"one line per allocation and copy of the buffer program: why it is "
		"there (conflict triple, read-only buffer, pending launch, ...)"},
	[CLI_FUZZ] = {"fuzz", NULL, 0, -1,
		"generate programs from seeds, run --strategy S under every "
		"schedule, reduce each failure into a case file in DIR"},
	[CLI_REDUCE] = {"reduce", "CASE", 1, 1,
		"the smallest case on which run I (or --strategy S's run, added "
		"to the case) still fails with the same culprit; --emit-mlir "
		"writes it as MLIR too; exit 0 reduced, 1 the run does not fail"},
	[CLI_EXPORT] = {"export", "CASE...", 1, -1,
		"the program as MLIR that mlir-opt-N parses, every op with "
		"loc(\"CASE\":LINE:COL) of its TIR op; several cases: a "
		"-split-input-file section each (`// -----` between)"},
	[CLI_IMPORT] = {"import", "FILE.mlir...", 1, -1,
		"a case from tensor-level MLIR (FILE.mlir#N: section N of a "
		"-split-input-file): the program in TIR with the user's names, "
		"comments and `// loc(L:C)` places, seeded inputs, the reference's "
		"outputs, --strategy S's run; --out DIR/: each FILE's sections "
		"as DIR/STEM[-N].yaml"},
	[CLI_NATIVE] = {"native", "CASE", 1, 1,
		"the case compiled by mlir-opt-N (One-Shot Bufferize, lowered to "
		"LLVM) and run by mlir-runner on its inputs, the outputs compared "
		"bit for bit with the reference; exit 0 agree, 1 differ"},
	[CLI_UPSTREAM] = {"upstream", "CASE", 1, 1,
		"a self-contained lit test for llvm-project: the program with its "
		"inputs as constants, a RUN line (mlir-opt-N | mlir-runner), CHECK "
		"lines of the reference's outputs, what MLIR gives today; exit 0, "
		"1 when MLIR's output agrees"},
	[CLI_PLOT] = {"plot", "TRACE.csv", 1, 1,
		"a --memory-trace file drawn as M(t), a curve per run and "
		"schedule, into the page --html FILE"},
	[CLI_LAB] = {"lab", "cache", 1, 1,
		"the seed's LRU cache toy: the trace of (i*s) mod 16, the cache "
		"order and the hit rate (docs/lab.md)"},
	[CLI_STRATEGIES] = {"strategies", NULL, 0, 0,
		"the bufferization strategies, one a line"},
	[CLI_HELP] = {"help", "[COMMAND]", 0, 1,
		"the commands, or COMMAND's options"},
};

typedef struct Flag Flag;
/* v -> the field at f->off of a: 0, or -1 with the reason in why. */
typedef int FlagParse(Args *a, const Flag *f, const char *v, void *field,
		      char *why, size_t n);

struct Flag {
	const char *name;       /* without the dashes */
	const char *meta;       /* its value in help; NULL: none (a bool) */
	FlagParse *parse;
	size_t off, size;       /* offsetof(Args, ...), its sizeof */
	long long lo, hi;       /* numbers: the range (seconds: (lo, hi]) */
	unsigned cmds;          /* bit per CliCmd */
	const char *help;
};

#define C(x) (1u << CLI_##x)
/* commands that run strategies, and take the outside strategies' flags */
#define STRAT (C(RUN) | C(CHECK) | C(BUFFERIZE) | C(EXPLAIN) | C(FUZZ) | C(REDUCE))
/* commands that run a case file's runs: the trust flags (docs/trust.md) */
#define TRUST (C(RUN) | C(CHECK) | C(REDUCE) | C(NATIVE) | C(UPSTREAM) | \
	       C(BUFFERIZE) | C(EXPLAIN))
#define F(field) offsetof(Args, field), sizeof ((Args *)0)->field

static FlagParse p_str, p_trust, p_num, p_u64, p_seconds, p_strategy,
	p_schedule, p_shard, p_mix, p_pipeline, p_mlir_version, p_target,
	p_route;

static const Flag flags[] = {
	{"strategy", "S", p_strategy, F(strategy), 0, 0,
	 C(RUN) | C(CHECK) | C(BUFFERIZE) | C(EXPLAIN) | C(FUZZ) | C(REDUCE) |
	 C(IMPORT),
	 "copy-all, inplace-all, last-use, one-shot, plan, the mutants, "
	 "exec:CMD, exec-mlir:CMD, mlir[:TOOL], mlir-pipeline[:TOOL], "
	 "mlir-native[:TOOL] (bufdiff "
	 "strategies); run: instead of the case's runs, check: in addition, "
	 "on every case (it must agree); reduce: a run of S added to the "
	 "case, the one reduced unless --run names another (with --plan: the "
	 "plan's strategy); import: the run the case gets"},
	{"plan", "FILE", p_str, F(plan), 0, 0, C(RUN) | C(CHECK) | C(REDUCE),
	 "a run with the decisions of FILE (JSON or YAML) over --strategy S or "
	 "copy-all; it must agree (run: instead of the case's runs; reduce: the "
	 "run reduced)"},
	{"allow-exec", NULL, NULL, F(allow_exec), 0, 0, TRUST,
	 "run the commands and tools that case files name (exec:CMD, "
	 "mlir:TOOL other than mlir-opt-16/19/22); without it or --trust, "
	 "such a run is an error (docs/trust.md)"},
	{"trust", "DIR", p_trust, F(ntrust), 0, 0, TRUST,
	 "--allow-exec for the case files under DIR only (repeatable)"},
	{"schedule", "X", p_schedule, F(schedule), 0, 0, C(RUN) | C(CHECK),
	 "sync, late, all or random:SEED: the schedule of every run"},
	{"schedules", "N", p_num, F(nrandom), 0, 64, C(RUN) | C(CHECK),
	 "random seeds that the schedule `all` tries (0..64; default 8)"},
	{"run", "I", p_num, F(run), 1, 1000000,
	 C(BUFFERIZE) | C(EXPLAIN) | C(REDUCE),
	 "the case's run I (1-based) with its plan (reduce: default the first, "
	 "or the --plan run)"},
	{"json", NULL, NULL, F(json), 0, 0, C(RUN) | C(CHECK) | C(FUZZ),
	 "one JSON object per case on stdout (fuzz: the summary); "
	 "docs/report.schema.json"},
	{"junit", "FILE", p_str, F(junit), 0, 0, C(CHECK),
	 "also write a JUnit XML report to FILE"},
	{"jobs", "N", p_num, F(jobs), 1, 256, C(CHECK),
	 "-j N: check N cases at a time in worker processes (1..256; the "
	 "output stays in path order, the same as with 1)"},
	{"filter", "PATTERN", p_str, F(filter), 0, 0, C(CHECK),
	 "only the cases whose name or path matches PATTERN (an fnmatch "
	 "glob; without * ? [ a substring)"},
	{"alloc-overhead", "BYTES", p_num, F(overhead), 0, 1LL << 40,
	 C(RUN) | C(CHECK),
	 "count BYTES more for each allocation in the memory figures (0..2^40)"},
	{"max-work", "N", p_num, F(max_work), 1, 1LL << 62,
	 C(RUN) | C(CHECK) | C(IMPORT),
	 "work units one run may use (elements processed, loop trips, calls "
	 "and launches; default 2^32; import: its reference run)"},
	{"max-memory", "BYTES", p_num, F(max_memory), 1 << 20, 1LL << 46,
	 C(RUN) | C(CHECK) | C(FUZZ) | C(REDUCE),
	 "bytes the process may hold (case data, tensors, shadows, reports; "
	 "2^20..2^46; default 3 GiB)"},
	{"timeout", "SEC", p_seconds, F(timeout), 0, 1000000, C(RUN) | C(CHECK),
	 "wall-clock limit of one run (0 < SEC <= 1000000; default none)"},
	{"memory-trace", "FILE", p_str, F(trace), 0, 0, C(RUN),
	 "write M(t) after each executed buffer instruction as CSV "
	 "(step,bytes,line,run,strategy,schedule)"},
	{"html", "FILE", p_str, F(html), 0, 0, C(RUN) | C(PLOT) | C(LAB),
	 "also write a self-contained HTML page to FILE (docs/html.md; lab: "
	 "the interactive version)"},
	{"html", "DIR", p_str, F(html), 0, 0, C(CHECK) | C(FUZZ),
	 "a self-contained HTML page per case (fuzz: per failure) and "
	 "DIR/index.html: totals, and each case's violation, culprits and "
	 "fix, sortable (docs/html.md)"},
	{"capacity", "C", p_num, F(lab_cap), 1, 4096, C(LAB),
	 "cache lines (1..4096; default 4)"},
	{"stride", "S", p_num, F(lab_stride), -1000000, 1000000, C(LAB),
	 "the stream's stride: addresses (i*S) mod 16 (default 4)"},
	{"requests", "N", p_num, F(lab_requests), 0, 4096, C(LAB),
	 "requests played (0..4096; default 16)"},
	{"step", "K", p_num, F(lab_step), 0, 4096, C(LAB),
	 "K more requests after N (playback capped at 4096)"},
	{"out", "FILE", p_str, F(out), 0, 0, C(REDUCE) | C(EXPORT) | C(IMPORT),
	 "write the result to FILE instead of stdout"},
	{"out", "FILE", p_str, F(out), 0, 0, C(NATIVE),
	 "write the program and its driver as MLIR to FILE; the command "
	 "printed reads it"},
	{"out", "FILE", p_str, F(out), 0, 0, C(UPSTREAM),
	 "write the test to FILE instead of stdout"},
	{"out", "DIR", p_str, F(out), 0, 0, C(FUZZ),
	 "write each failure (reduced) as a case file into DIR, and list them "
	 "in --json's `repros`"},
	{"seed", "N", p_u64, F(seed), 0, 0, C(FUZZ),
	 "the first seed (0..2^64-1; default 0)"},
	{"count", "K", p_num, F(count), 1, 1000000000, C(FUZZ),
	 "programs to generate (1..10^9; default 1000 when --time is not given)"},
	{"time", "SEC", p_seconds, F(seconds), 0, 31536000, C(FUZZ),
	 "generate programs for SEC seconds instead of --count (0 < SEC <= "
	 "31536000)"},
	{"shard", "I/N", p_shard, F(shard), 0, 0, C(FUZZ),
	 "this shard of N (0 <= I < N <= 2^31-1): seeds seed+I, seed+I+N, ..."},
	{"max-ops", "M", p_num, F(max_ops), 1, 100000, C(FUZZ),
	 "ops per generated program at most (1..100000; default 12)"},
	{"mix", "LIST", p_mix, F(mix), 0, 0, C(FUZZ),
	 "constructs to generate: a comma list of slices, matmul, loops, "
	 "branches, async, calls, forall, cfg, generate, or a bitmask (default all)"},
	{"allow-races", NULL, NULL, F(allow_races), 0, 0, C(FUZZ),
	 "mlir, mlir-pipeline, mlir-native, exec-mlir: also generate forall "
	 "bodies that "
	 "read an element another trip writes (a race in MLIR: judged racy "
	 "read or miscompile)"},
	{"no-copies", NULL, NULL, F(no_copies), 0, 0, C(FUZZ),
	 "no `copy ... into` in the programs"},
	{"target", "NAME", p_target, F(target), 0, 0, C(FUZZ),
	 "the tool's profile: generate nothing it refuses by design and give "
	 "each program a pipeline it takes: mlir-opt-N, mlir-pipeline-N (N = "
	 "16, 19, 22), mlir or mlir-pipeline (the strategy's tool), none "
	 "(default: the strategy's when it is mlir or mlir-pipeline)"},
	{"max-failures", "N", p_num, F(max_failures), 1, 1000000000, C(FUZZ),
	 "stop after N failures (1: at the first)"},
	{"merge", NULL, NULL, F(merge), 0, 0, C(FUZZ),
	 "add up the shards' --json summaries FILE... (- for stdin) and "
	 "their buckets, instead of fuzzing"},
	{"no-reduce", NULL, NULL, F(no_reduce), 0, 0, C(FUZZ),
	 "keep failures whole"},
	{"stats-every", "SEC", p_num, F(stats_every), 0, 86400, C(FUZZ),
	 "a stats line on stderr every SEC seconds (0: none; default 10 when "
	 "stderr is not a terminal)"},
	{"resume", NULL, NULL, F(resume), 0, 0, C(FUZZ),
	 "continue the campaign of --out DIR from its stats file's next seed"},
	{"confirm", NULL, NULL, F(confirm), 0, 0, C(RUN) | C(CHECK) | C(FUZZ),
	 "mlir and mlir-pipeline runs: compile MLIR's output and run it "
	 "natively (mlir-runner), and say whether it differs too "
	 "(docs/native.md)"},
	{"quiet", NULL, NULL, F(quiet), 0, 0, C(FUZZ),
	 "no progress line, no failure lines"},
	{"tool-batch", "N", p_num, F(tool_batch), 1, 4096,
	 C(CHECK) | C(FUZZ) | C(REDUCE),
	 "programs per call of an outside tool (mlir, mlir-pipeline, "
	 "exec-batch:, exec-stream:, --confirm's runs; 1..4096; default 64; "
	 "1: each alone)"},
	{"tool-timeout", "SEC", p_seconds, F(tool_timeout), 0, 86400, STRAT,
	 "bound each call of an outside tool (0 < SEC <= 86400; default 60)"},
	{"mlir-options", "OPTS", p_str, F(mlir_options), 0, 0, STRAT,
	 "more One-Shot Bufferize options (mlir), e.g. analysis-fuzzer-seed=7"},
	{"mlir-pipeline", "P", p_pipeline, F(mlir_pipeline), 0, 0, STRAT,
	 "the pass pipeline of mlir-pipeline (default " MLIR_PIPELINE ")"},
	{"mlir-version", "N", p_mlir_version, F(mlir_version), 0, 0,
	 STRAT | C(EXPORT) | C(NATIVE) | C(UPSTREAM),
	 "the MLIR dialect version to export (16, 19, 22; default: the tool's, "
	 "else 22); reduce: of --emit-mlir"},
	{"emit-mlir", "FILE", p_str, F(emit_mlir), 0, 0, C(REDUCE),
	 "also write the reduced program as MLIR (as bufdiff export; "
	 "--mlir-version N, else the strategy's tool's, else 22)"},
	{"mlir-route", "R", p_route, F(mlir_route), 0, 0, STRAT,
	 "where mlir-opt-22's calls run: in-process (libMLIR in a worker "
	 "process), process (an mlir-opt-22 per call) or auto (in-process "
	 "when built with libmlir-22-dev; the default, else "
	 "BUFDIFF_MLIR_ROUTE; docs/external.md)"},
	{"keep-tool-io", "DIR", p_str, F(keep_tool_io), 0, 0, STRAT | C(IMPORT),
	 "keep every outside tool call's input, command line (cmd.sh), "
	 "stdout and stderr as files NNNN-CASE.* in DIR (docs/external.md)"},
	{"func", "NAME", p_str, F(func), 0, 0, C(IMPORT),
	 "that function and what it calls (default every function, entry main "
	 "or the first)"},
	{"seed", "N", p_num, F(import_seed), 0, 1000000000, C(IMPORT),
	 "inputs {random: N*1000+i} (0..10^9; default 1)"},
	{"tool", "TOOL", p_str, F(tool), 0, 0, C(IMPORT),
	 "the tool that prints FILE in the generic op form (default the newest "
	 "mlir-opt-22/19/16 installed)"},
	{"no-tool", NULL, NULL, F(no_tool), 0, 0, C(IMPORT),
	 "FILE is in the generic op form already"},
	{"tool-timeout", "SEC", p_seconds, F(tool_timeout), 0, 86400, C(IMPORT) | C(NATIVE) | C(UPSTREAM),
	 "bound the tool's call (0 < SEC <= 86400; default 60)"},
};

enum { NFLAGS = sizeof flags / sizeof *flags, FLAG_VAL = 256 };

/* ---- edit distance, for "did you mean" */

/* Optimal string alignment distance (a transposition counts 1). */
static int
distance(const char *s, const char *t)
{
	enum { M = 64 };
	int n = (int)strnlen(s, M - 1), m = (int)strnlen(t, M - 1);
	int d[M][M];

	for (int i = 0; i <= n; i++)
		d[i][0] = i;
	for (int j = 0; j <= m; j++)
		d[0][j] = j;
	for (int i = 1; i <= n; i++)
		for (int j = 1; j <= m; j++) {
			int c = s[i - 1] != t[j - 1], v = d[i - 1][j - 1] + c;
			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && s[i - 1] == t[j - 2] &&
			    s[i - 2] == t[j - 1] && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[n][m];
}

const char *
cli_nearest(const char *word, const char *const *names, int n)
{
	size_t len = strlen(word);
	int best = (int)(len / 4) + 1, at = -1;

	if (best > 3)
		best = 3;
	for (int i = 0; i < n; i++) {
		int d = distance(word, names[i]);
		/* a prefix ("inplace" for inplace-all) is close too */
		if (len >= 3 && !strncmp(names[i], word, len))
			d = best > 1 ? best - 1 : 1;
		if (d <= best && (at < 0 || d < best))
			best = d, at = i;
	}
	return at < 0 ? NULL : names[at];
}

/* "did you mean 'x'?" followed by sep, or "". */
static const char *
suggest(char *buf, size_t n, const char *word, const char *const *names,
	int count, const char *dashes, const char *sep)
{
	const char *s = cli_nearest(word, names, count);

	if (!s)
		return "";
	fmt_snprintf(buf, n, "did you mean '%s%s'?%s", dashes, s, sep);
	return buf;
}

/* " (did you mean 'x'?)" or "". */
static const char *
suggest_paren(char *buf, size_t n, const char *word, const char *const *names,
	      int count, const char *dashes)
{
	char in[120];
	const char *s = suggest(in, sizeof in, word, names, count, dashes, "");

	if (!*s)
		return "";
	fmt_snprintf(buf, n, " (%s)", s);
	return buf;
}

/* ---- messages */

static int
vusage(const char *cmd, const char *fmt, va_list ap)
{
	fprintf(stderr, "bufdiff%s%s: ", cmd ? " " : "", cmd ? cmd : "");
	vfprintf(stderr, fmt, ap);
	if (cmd)
		fprintf(stderr, "\n(see bufdiff help %s)\n", cmd);
	else
		fprintf(stderr, "\n(see bufdiff --help)\n");
	return STATUS_BAD;
}

int
cli_usage(const Args *a, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vusage(a ? a->name : NULL, fmt, ap);
	va_end(ap);
	return rc;
}

/* ---- help, from the tables */

/* text wrapped to 79 columns, lines after the first indented by ind, the
 * first starting at column col. */
static void
wrap(FILE *f, const char *text, int col, int ind)
{
	const char *p = text;

	while (*p) {
		size_t w = strcspn(p, " ");
		if (col > ind && col + 1 + (int)w > 79) {
			fprintf(f, "\n%*s", ind, "");
			col = ind;
		} else if (col > ind) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", (int)w, p);
		col += (int)w;
		p += w;
		while (*p == ' ')
			p++;
	}
	fputc('\n', f);
}

static void
help_general(FILE *f)
{
	fputs("usage: bufdiff COMMAND [options] [ARGS]\n"
	      "       bufdiff help COMMAND | COMMAND --help   its options\n"
	      "       bufdiff --version\n\ncommands:\n", f);
	for (int i = 0; i < CLI_NCMDS; i++) {
		int n = fprintf(f, "  %s %s", cmds[i].name,
				cmds[i].pos ? cmds[i].pos : "");
		fprintf(f, "%*s", n < 24 ? 24 - n : 1, "");
		wrap(f, cmds[i].about, n < 24 ? 24 : n + 1, 24);
	}
	fputs("\nCASE `-` reads the case from stdin; `--` ends the options.\n"
	      "exit: 0 ok, 1 an expectation failed, 2 bad input or usage\n", f);
}

static void
help_cmd(FILE *f, CliCmd c)
{
	fprintf(f, "usage: bufdiff %s%s%s%s [options]\n\n", cmds[c].name,
		c == CLI_FUZZ ? " --strategy S" : "", cmds[c].pos ? " " : "",
		cmds[c].pos ? cmds[c].pos : "");
	wrap(f, cmds[c].about, 0, 0);
	fputs("\noptions:\n", f);
	for (int i = 0; i < NFLAGS; i++) {
		char head[64];
		int n;
		if (!(flags[i].cmds & (1u << c)))
			continue;
		n = fmt_snprintf(head, sizeof head, "  --%s%s%s", flags[i].name,
			     flags[i].meta ? " " : "",
			     flags[i].meta ? flags[i].meta : "");
		fprintf(f, "%s%*s", head, n < 24 ? 24 - n : 1, "");
		wrap(f, flags[i].help, n < 24 ? 24 : n + 1, 24);
	}
	fprintf(f, "  -h, --help%*sthis help\n", 12, "");
}

/* ---- values */

static int
p_str(Args *a, const Flag *f, const char *v, void *field, char *why, size_t n)
{
	(void)a, (void)f, (void)why, (void)n;
	*(const char **)field = v;
	return 0;
}

/* --trust DIR: added to trust.c's list at once (it may repeat). */
static int
p_trust(Args *a, const Flag *f, const char *v, void *field, char *why,
	size_t n)
{
	(void)a, (void)f;
	++*(int *)field;
	return trust_dir(v, why, n);
}

/* A whole number in [f->lo, f->hi] (no sign games, no overflow) into an
 * int or long long field. */
static int
p_num(Args *a, const Flag *f, const char *v, void *field, char *why, size_t n)
{
	long long x;
	char *end;

	(void)a;
	errno = 0;
	x = strtoll(v, &end, 10);
	if (end == v || *end || errno == ERANGE || x < f->lo || x > f->hi) {
		fmt_snprintf(why, n, "--%s wants a whole number in %lld..%lld, got "
			 "'%s'", f->name, f->lo, f->hi, v);
		return -1;
	}
	if (f->size == sizeof(int))
		*(int *)field = (int)x;
	else if (f->size == sizeof(long long))
		*(long long *)field = x;
	else
		abort(); /* a number flag's field of another width */
	return 0;
}

static int
p_u64(Args *a, const Flag *f, const char *v, void *field, char *why, size_t n)
{
	(void)a;
	if (!u64_parse(v, (uint64_t *)field)) {
		fmt_snprintf(why, n, "--%s wants a whole number in 0..%llu, got '%s'",
			 f->name, (unsigned long long)UINT64_MAX, v);
		return -1;
	}
	return 0;
}

static int
p_seconds(Args *a, const Flag *f, const char *v, void *field, char *why,
	  size_t n)
{
	char *end;
	double t;

	(void)a;
	errno = 0;
	t = strtod(v, &end);
	if (end == v || *end || errno == ERANGE || !isfinite(t) ||
	    !(t > (double)f->lo) || t > (double)f->hi) {
		fmt_snprintf(why, n, "--%s wants seconds in (%lld, %lld], got '%s'",
			 f->name, f->lo, f->hi, v);
		return -1;
	}
	*(double *)field = t;
	return 0;
}

/* The strategy names "did you mean" knows: ours and the outside kinds. */
static int
strategy_names(const char **names, int max)
{
	static const char *const outside[] = {"exec:", "exec-mlir:", "mlir",
					      "mlir-pipeline"};
	int n = 0;

	for (int i = 0; strategy_at(i) && n < max; i++)
		names[n++] = strategy_at(i)->name;
	for (int i = 0; i < 4 && n < max; i++)
		names[n++] = outside[i];
	return n;
}

static int
p_strategy(Args *a, const Flag *f, const char *v, void *field, char *why,
	   size_t n)
{
	const char *names[128];
	char buf[128];
	int k = strategy_names(names, 128);

	(void)a, (void)f;
	if ((*(const Strategy **)field = strategy_parse(v)))
		return 0;
	if (!strncmp(v, "exec:", 5) || !strncmp(v, "exec-mlir:", 10))
		fmt_snprintf(why, n, "unknown strategy '%s': exec:CMD needs a command",
			 v);
	else
		fmt_snprintf(why, n, "unknown strategy '%s' (%ssee bufdiff strategies)",
			 v, suggest(buf, sizeof buf, v, names, k, "", " "));
	return -1;
}

static int
p_schedule(Args *a, const Flag *f, const char *v, void *field, char *why,
	   size_t n)
{
	static const char *const names[] = {"sync", "late", "all", "random:"};
	char buf[128];

	(void)f;
	if (!schedule_parse(v, (Schedule *)field)) {
		a->has_schedule = true;
		return 0;
	}
	if (!strncmp(v, "random:", 7))
		fmt_snprintf(why, n, "unknown schedule '%s' (random:SEED wants a seed "
			 "in 0..%llu)", v, (unsigned long long)UINT64_MAX);
	else
		fmt_snprintf(why, n, "unknown schedule '%s' (%ssync, late, all or "
			 "random:SEED)", v, suggest(buf, sizeof buf, v, names, 4, "", " "));
	return -1;
}

static int
p_shard(Args *a, const Flag *f, const char *v, void *field, char *why,
	size_t n)
{
	const char *slash = strchr(v, '/');
	char i[32];
	uint64_t si, sn;

	(void)f, (void)field;
	if (slash && (size_t)(slash - v) < sizeof i) {
		fmt_snprintf(i, sizeof i, "%.*s", (int)(slash - v), v);
		if (u64_parse(i, &si) && u64_parse(slash + 1, &sn) && sn >= 1 &&
		    sn <= INT_MAX && si < sn) {
			a->shard = (int)si;
			a->nshards = (int)sn;
			return 0;
		}
	}
	fmt_snprintf(why, n, "--shard wants I/N with 0 <= I < N <= %d, got '%s'",
		 INT_MAX, v);
	return -1;
}

static int
p_mix(Args *a, const Flag *f, const char *v, void *field, char *why, size_t n)
{
	(void)a, (void)f;
	if (!fuzz_parse_mix(v, (unsigned *)field))
		return 0;
	fmt_snprintf(why, n, "--mix wants a list of slices, matmul, loops, branches, "
		 "async, calls, forall, cfg, generate (or a number), got '%s'", v);
	return -1;
}

static int
p_pipeline(Args *a, const Flag *f, const char *v, void *field, char *why,
	   size_t n)
{
	const char *bad;

	(void)a, (void)f;
	if (!*v || strchr(v, '\'')) {
		fmt_snprintf(why, n, "--mlir-pipeline wants a pass pipeline (no "
			 "quotes), got '%s'", v);
		return -1;
	}
	/* what a case's `pipeline:` may hold (docs/cases.md) */
	if ((bad = pipeline_bad_char(v))) {
		if ((unsigned char)*bad > ' ' && (unsigned char)*bad < 0x7f)
			fmt_snprintf(why, n, "--mlir-pipeline: '%c' cannot be part "
				     "of a pass pipeline, got '%s'", *bad, v);
		else
			fmt_snprintf(why, n, "--mlir-pipeline: byte 0x%02x cannot "
				     "be part of a pass pipeline",
				     (unsigned char)*bad);
		return -1;
	}
	*(const char **)field = v;
	return 0;
}

/* A setting of the process (inproc.c), like --keep-tool-io's. */
static int
p_route(Args *a, const Flag *f, const char *v, void *field, char *why,
	size_t n)
{
	MlirRoute r;

	(void)a, (void)f;
	if (inproc_route_parse(v, &r)) {
		fmt_snprintf(why, n, "unknown --mlir-route '%s' (auto, process "
			     "or in-process)", v);
		return -1;
	}
	*(int *)field = (int)r;
	inproc_set_route(r);
	return 0;
}

static int
p_mlir_version(Args *a, const Flag *f, const char *v, void *field, char *why,
	       size_t n)
{
	char *end;
	long x = strtol(v, &end, 10);

	(void)a, (void)f;
	if (*end || !*v || !mlir_version((int)x)) {
		fmt_snprintf(why, n, "unknown MLIR version '%s' (16, 19 or 22)", v);
		return -1;
	}
	*(int *)field = (int)x;
	return 0;
}

static int
p_target(Args *a, const Flag *f, const char *v, void *field, char *why,
	 size_t n)
{
	const GenTarget *t;

	(void)a, (void)f;
	if (!fuzz_target_find(v, NULL, NULL, &t)) {
		*(const char **)field = v;
		return 0;
	}
	fmt_snprintf(why, n, "--target wants mlir-opt-N or mlir-pipeline-N (N = "
		     "16, 19, 22), mlir, mlir-pipeline or none, got '%s'", v);
	return -1;
}

/* ---- the parser */

static const Flag *
flag_for(const char *name, CliCmd c)
{
	for (int i = 0; i < NFLAGS; i++)
		if (!strcmp(flags[i].name, name) && (flags[i].cmds & (1u << c)))
			return &flags[i];
	return NULL;
}

/* One getopt_long row per flag name (a name some commands share is one
 * row; flag_for picks the command's). */
static void
long_options(struct option *lo)
{
	int n = 0;

	for (int i = 0; i < NFLAGS; i++) {
		bool seen = false;
		for (int k = 0; k < i && !seen; k++)
			seen = !strcmp(flags[k].name, flags[i].name);
		if (!seen)
			lo[n++] = (struct option){flags[i].name,
						  flags[i].meta ? required_argument :
								  no_argument,
						  NULL, FLAG_VAL + i};
	}
	lo[n++] = (struct option){"help", no_argument, NULL, 'h'};
	lo[n] = (struct option){0};
}

static void
defaults(Args *a)
{
	memset(a, 0, sizeof *a);
	a->nrandom = 8;
	a->nshards = 1;
	a->max_ops = 12;
	a->mix = GEN_ALL;
	a->import_seed = 1;
	a->tool_timeout = 60;
	a->lab_cap = 4, a->lab_stride = 4, a->lab_requests = 16;
	a->stats_every = -1;
}

/* An option getopt_long does not know: text is how it was given. */
static int
unknown_option(const Args *a, const char *text)
{
	const char *names[NFLAGS + 1];
	char word[64], buf[128];
	int n = 0;

	fmt_snprintf(word, sizeof word, "%.*s", (int)strcspn(text, "="), text);
	for (int i = 0; i < NFLAGS; i++)
		if (flags[i].cmds & (1u << a->cmd))
			names[n++] = flags[i].name;
	names[n++] = "help";
	return cli_usage(a, "unknown option '%s'%s", word,
			 suggest_paren(buf, sizeof buf, word + strspn(word, "-"),
				       names, n, "--"));
}

/* The first row named name (short options map onto it). */
static int
flag_index(const char *name)
{
	for (int i = 0; i < NFLAGS; i++)
		if (!strcmp(flags[i].name, name))
			return i;
	abort(); /* a short option without its row */
}

/* One option getopt_long returned. */
static int
take_flag(Args *a, int idx, const char *v)
{
	const Flag *f = flag_for(flags[idx].name, a->cmd);
	char why[256];

	if (!f)
		return cli_usage(a, "option '--%s' is not valid here",
				 flags[idx].name);
	a->given[idx] = true;
	if (!f->meta) {
		*(bool *)((char *)a + f->off) = true;
		return 0;
	}
	if (f->parse(a, f, v, (char *)a + f->off, why, sizeof why))
		return cli_usage(a, "%s", why);
	return 0;
}

static int
find_cmd(const char *name)
{
	for (int i = 0; i < CLI_NCMDS; i++)
		if (!strcmp(cmds[i].name, name))
			return i;
	return -1;
}

static int
unknown_cmd(const char *name)
{
	const char *names[CLI_NCMDS];
	char buf[128];

	for (int i = 0; i < CLI_NCMDS; i++)
		names[i] = cmds[i].name;
	return cli_usage(NULL, "unknown command '%s'%s", name,
			 suggest_paren(buf, sizeof buf, name, names, CLI_NCMDS,
				       ""));
}

static int
positional(Args *a)
{
	const char *pos = cmds[a->cmd].pos;
	int min = cmds[a->cmd].min, max = cmds[a->cmd].max;

	if (max == 0 && a->npaths)
		return cli_usage(a, "%s takes no arguments, got '%s'", a->name,
				 a->paths[0]);
	if (min == 1 && max == 1 && a->npaths != 1)
		return cli_usage(a, "%s takes exactly one %s%s%s%s", a->name, pos,
				 a->npaths ? ", got '" : "",
				 a->npaths ? a->paths[1] : "",
				 a->npaths ? "' too" : "");
	if (a->npaths < min)
		return cli_usage(a, "%s needs at least one %.*s", a->name,
				 (int)strcspn(pos, "."), pos);
	if (max > 0 && a->npaths > max)
		return cli_usage(a, "%s takes at most %d argument, got '%s' too",
				 a->name, max, a->paths[max]);
	return 0;
}

/* What no single flag can check. */
static int
cross_checks(Args *a)
{
	if (a->cmd == CLI_FUZZ && !a->merge) {
		if (a->npaths)
			return cli_usage(a, "unexpected argument '%s' (FILE... "
					 "only with --merge)", a->paths[0]);
		if (!a->strategy)
			return cli_usage(a, "--strategy S is required");
		if (!strcmp(a->strategy->name, "plan"))
			return cli_usage(a, "--strategy plan forces a case's plan: "
					 "a generated program has none, so there is "
					 "nothing to fuzz");
		if (a->count && a->seconds > 0)
			return cli_usage(a, "--count and --time exclude each "
					 "other: give one");
		if (!a->count && a->seconds <= 0)
			a->count = 1000;
	}
	return 0;
}

/* `bufdiff help [COMMAND]`. */
static int
help(const Args *a)
{
	int c;

	if (!a->npaths) {
		help_general(stdout);
		return -1;
	}
	if ((c = find_cmd(a->paths[0])) < 0)
		return unknown_cmd(a->paths[0]);
	help_cmd(stdout, (CliCmd)c);
	return -1;
}

static int
parse_flags(Args *a, int argc, char **argv)
{
	struct option lo[NFLAGS + 2];
	int c, rc;

	long_options(lo);
	a->paths = mem_alloc(sizeof *a->paths * (size_t)(argc + 1));
	if (!a->paths)
		return cli_usage(a, "out of memory");
	/* "-": positionals in order, no permutation; ":": missing values
	 * come back as ':'; optind 0 starts afresh (tests parse often) */
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "-:hj:", lo, NULL)) != -1) {
		if (c == 1)
			a->paths[a->npaths++] = optarg;
		else if (c == 'j') {
			if ((rc = take_flag(a, flag_index("jobs"), optarg)))
				return rc;
		}
		else if (c == 'h') {
			help_cmd(stdout, a->cmd);
			return -1;
		} else if (c == ':')
			return cli_usage(a, "option --%s needs a value",
					 optopt >= FLAG_VAL ?
					 flags[optopt - FLAG_VAL].name :
					 optopt == 'j' ? "jobs (-j)" : "?");
		else if (c == '?' && optopt >= FLAG_VAL)
			return cli_usage(a, "option --%s takes no value",
					 flags[optopt - FLAG_VAL].name);
		else if (c == '?' && optopt)
			return cli_usage(a, "unknown option '-%c'", optopt);
		else if (c == '?')
			return unknown_option(a, argv[optind - 1]);
		else if ((rc = take_flag(a, c - FLAG_VAL, optarg)))
			return rc;
	}
	while (optind < argc) /* after `--` */
		a->paths[a->npaths++] = argv[optind++];
	return 0;
}

int
cli_parse(int argc, char **argv, Args *a)
{
	int c, rc;

	defaults(a);
	if (argc < 2) {
		help_general(stderr);
		return STATUS_BAD;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		help_general(stdout);
		return -1;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("bufdiff %s\n", bufdiff_version);
		return -1;
	}
	if ((c = find_cmd(argv[1])) < 0)
		return unknown_cmd(argv[1]);
	a->cmd = (CliCmd)c;
	a->name = cmds[c].name;
	/* argv[1] is getopt's argv[0] */
	if ((rc = parse_flags(a, argc - 1, argv + 1)) ||
	    (rc = positional(a)))
		return rc;
	if (a->cmd == CLI_HELP)
		return help(a);
	return cross_checks(a);
}

void
cli_args_free(Args *a)
{
	mem_free(a->paths);
	a->paths = NULL;
}

void
cli_tool_options(const Args *a, ExternalOpts *o)
{
	*o = (ExternalOpts){
		.timeout = a->tool_timeout,
		.mlir_options = a->mlir_options ? a->mlir_options : "",
		.mlir_version = a->mlir_version, .batch = a->tool_batch,
		.mlir_pipeline = a->mlir_pipeline};
}

const char *
cli_given_except(const Args *a, const char *const *keep)
{
	static char buf[64];

	_Static_assert(NFLAGS <= sizeof a->given, "Args.given: a row each");
	for (int i = 0; i < NFLAGS; i++) {
		bool kept = false;
		for (const char *const *k = keep; *k && !kept; k++)
			kept = !strcmp(*k, flags[i].name);
		if (a->given[i] && !kept) {
			fmt_snprintf(buf, sizeof buf, "--%s", flags[i].name);
			return buf;
		}
	}
	return NULL;
}
