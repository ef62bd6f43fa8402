/*
 * main.c: the bufdiff command line (FORMAT.md §4, docs/cli.md).
 * Exit codes: 0 ok, 1 an expectation failed, 2 bad input or usage.
 */
#include <dirent.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "oracle.h"

static const char usage[] =
	"usage:\n"
	"  bufdiff run CASE [--strategy S] [--plan FILE] [--schedule X] [--json]\n"
	"              [--alloc-overhead BYTES] [--memory-trace FILE]\n"
	"  bufdiff check PATH... [--strategy S] [--plan FILE] [--schedule X]\n"
	"              [--json] [--junit FILE] [-j N] [--filter PATTERN]\n"
	"  bufdiff print CASE\n"
	"  bufdiff bufferize CASE [--strategy S] [--run I]\n"
	"  bufdiff explain CASE [--strategy S] [--run I]\n"
	"  bufdiff fuzz --strategy S [--seed N] [--count K | --time SEC]\n"
	"              [--out DIR] [--shard I/N] [--max-ops N] [--mix LIST]\n"
	"              [--no-reduce] [--tool-batch N] [--json]\n"
	"  bufdiff reduce CASE [--run I] [--plan FILE] [--out FILE]\n"
	"  bufdiff export CASE [--mlir-version 16|19|22] [--out FILE]\n"
	"  bufdiff strategies\n"
	"  bufdiff --help | --version\n"
	"\n"
	"  run         the reference and the bufferized runs of CASE (its runs,\n"
	"              or --strategy S alone), checked against its expectations\n"
	"  check       every *.yaml case under the PATHs: [ok] / [FAIL] per case\n"
	"  print       the case's program as canonical TIR\n"
	"  bufferize   the buffer program of CASE under S (default copy-all), or\n"
	"              under the case's run I (1-based) with its plan\n"
	"  explain     one line per allocation and copy: why it is there\n"
	"  fuzz        generate programs from seeds, run S under every schedule,\n"
	"              reduce each failure into a case file in DIR\n"
	"  reduce      the smallest case on which run I still fails the same way\n"
	"  export      the program as MLIR that mlir-opt-N parses (default 22),\n"
	"              every op with loc(\"CASE\":LINE:COL) of its TIR op\n"
	"  strategies  the bufferization strategies, one per line\n"
	"\n"
	"  --strategy S   copy-all, inplace-all, last-use, one-shot, plan, the\n"
	"                 mutants, exec:CMD, exec-mlir:CMD, mlir[:TOOL]\n"
	"  --plan FILE    one more run per case with the decisions of FILE (JSON\n"
	"                 or YAML; `run`: instead of the case's runs) over\n"
	"                 --strategy S or copy-all; it must agree\n"
	"  --schedule X   sync, late, all or random:SEED (overrides the runs')\n"
	"  --schedules N  random seeds that `all` tries (default 8)\n"
	"  --json         one JSON object per case on stdout\n"
	"  --junit FILE   also write a JUnit XML report to FILE\n"
	"  -j N, --jobs N check N cases at a time (worker processes; the\n"
	"                 output stays in path order)\n"
	"  --filter PAT   only the cases whose name or path matches PAT (a\n"
	"                 glob; without * ? [ a substring)\n"
	"  --alloc-overhead BYTES  count BYTES more for each allocation\n"
	"  --tool-timeout SEC      bound each call of an outside tool (60)\n"
	"  --mlir-options OPTS     more One-Shot Bufferize options (mlir)\n"
	"  --mlir-pipeline P       the pass pipeline (mlir-pipeline; default\n"
	"                          " MLIR_PIPELINE ")\n"
	"  --mlir-version N        the MLIR dialect version to export (16,\n"
	"                          19, 22; default: the tool's, else 22)\n"
	"  --memory-trace FILE     write M(t) per executed instruction as CSV\n"
	"\n"
	"exit: 0 ok, 1 an expectation failed, 2 bad input or usage\n";

typedef struct Opts {
	const char *cmd;
	const char **paths;
	int npaths;
	const Strategy *strategy; /* NULL: the case's runs */
	Schedule schedule;
	bool has_schedule;      /* --schedule given */
	int nrandom;            /* --schedules N */
	bool json;
	const char *junit;
	const char *trace;      /* --memory-trace FILE */
	long long overhead;     /* --alloc-overhead BYTES */
	int run;                /* --run I, 1-based; 0: none */
	const char *plan;       /* --plan FILE */
	bool planned;           /* the last case got the document's run */
	char *plantext;         /* its text (mem_alloc'ed) */
	size_t planlen;
	const char *out;        /* --out FILE */
	const char *filter;     /* check --filter PATTERN */
	int jobs;               /* check -j N: worker processes */
} Opts;

static int
usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "bufdiff: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n(see bufdiff --help)\n");
	return STATUS_BAD;
}

/* The value of option argv[*i]; NULL (after a message) if missing. */
static const char *
opt_value(int argc, char **argv, int *i)
{
	if (*i + 1 >= argc) {
		usage_error("option %s needs a value", argv[*i]);
		return NULL;
	}
	return argv[++*i];
}

static int
parse_opt(Opts *o, int argc, char **argv, int *i)
{
	const char *a = argv[*i], *v;
	char why[160];

	if (external_opt(a, NULL, why, sizeof why)) { /* they take a value */
		if (!(v = opt_value(argc, argv, i)))
			return STATUS_BAD;
		if (external_opt(a, v, why, sizeof why) < 0)
			return usage_error("%s", why);
	} else if (!strcmp(a, "--json")) {
		o->json = true;
	} else if (!strcmp(a, "--strategy")) {
		if (!(v = opt_value(argc, argv, i)))
			return STATUS_BAD;
		if (!(o->strategy = strategy_parse(v)))
			return usage_error("unknown strategy '%s' (see bufdiff "
					   "strategies)", v);
	} else if (!strcmp(a, "--schedule")) {
		if (!(v = opt_value(argc, argv, i)))
			return STATUS_BAD;
		o->has_schedule = true;
		if (schedule_parse(v, &o->schedule))
			return usage_error("unknown schedule '%s' (sync, late, "
					   "all or random:SEED)", v);
	} else if (!strcmp(a, "--filter")) {
		if (!(o->filter = opt_value(argc, argv, i)))
			return STATUS_BAD;
	} else if (!strcmp(a, "-j") || !strcmp(a, "--jobs")) {
		char *end;
		long n;
		if (!(v = opt_value(argc, argv, i)))
			return STATUS_BAD;
		n = strtol(v, &end, 10);
		if (*end || !*v || n < 1 || n > 256)
			return usage_error("bad number of jobs '%s' (1 to 256)", v);
		o->jobs = (int)n;
	} else if (!strcmp(a, "--junit")) {
		if (!(o->junit = opt_value(argc, argv, i)))
			return STATUS_BAD;
	} else if (!strcmp(a, "--plan")) {
		if (!(o->plan = opt_value(argc, argv, i)))
			return STATUS_BAD;
	} else if (!strcmp(a, "--out")) {
		if (!(o->out = opt_value(argc, argv, i)))
			return STATUS_BAD;
	} else if (!strcmp(a, "--memory-trace")) {
		if (!(o->trace = opt_value(argc, argv, i)))
			return STATUS_BAD;
	} else if (!strcmp(a, "--alloc-overhead") || !strcmp(a, "--run") ||
		   !strcmp(a, "--schedules")) {
		char *end;
		long long n;
		if (!(v = opt_value(argc, argv, i)))
			return STATUS_BAD;
		n = strtoll(v, &end, 10);
		if (*end || !*v || n < 0 || n > ((long long)1 << 40))
			return usage_error("bad number '%s'", v);
		if (!strcmp(a, "--run"))
			o->run = (int)n;
		else if (!strcmp(a, "--schedules"))
			o->nrandom = n > 64 ? 64 : (int)n;
		else
			o->overhead = n;
	} else {
		return usage_error("unknown option '%s'", a);
	}
	return 0;
}

/* Options valid per command. */
static bool
opt_allowed(const char *cmd, const char *opt)
{
	if (!strcmp(cmd, "run"))
		return strcmp(opt, "--junit") && strcmp(opt, "--run") &&
		       strcmp(opt, "--filter") && strcmp(opt, "-j") &&
		       strcmp(opt, "--jobs");
	if (!strcmp(cmd, "check"))
		return strcmp(opt, "--run") &&
		       strcmp(opt, "--memory-trace");
	if (!strcmp(cmd, "export"))
		return !strcmp(opt, "--mlir-version") || !strcmp(opt, "--out");
	if (!strcmp(cmd, "bufferize") || !strcmp(cmd, "explain"))
		return !strcmp(opt, "--strategy") || !strcmp(opt, "--run") ||
		       external_opt(opt, NULL, NULL, 0);
	return false;
}

static int
parse_args(Opts *o, int argc, char **argv)
{
	int rc;

	o->cmd = argv[1];
	o->strategy = NULL;
	o->nrandom = 8;
	o->paths = mem_alloc(sizeof *o->paths * (size_t)argc);
	if (!o->paths)
		return usage_error("%s", "out of memory");
	for (int i = 2; i < argc; i++) {
		if (argv[i][0] != '-' || !argv[i][1]) {
			o->paths[o->npaths++] = argv[i];
			continue;
		}
		if (!opt_allowed(o->cmd, argv[i]))
			return usage_error("option '%s' is not valid here", argv[i]);
		if ((rc = parse_opt(o, argc, argv, &i)))
			return rc;
	}
	return 0;
}

/* Where case diagnostics go: stderr, or (check -j) a worker's buffer. */
static FILE *diag_out;

static FILE *
errs(void)
{
	return diag_out ? diag_out : stderr;
}

/* An error in a case file, with its source line and caret when it has a
 * location (an unreadable file has none). */
static void
print_error(const char *path, const Case *c, const Diag *d)
{
	if (d->loc.line <= 0)
		fprintf(errs(), "%s: error: %s\n", path, d->msg);
	else
		diag_print(errs(), path, c ? c->text : NULL, d);
}

/* ----------------------------------------------------------- run */

/* Illegal plans found when a run applied them (an in-place decision of
 * the wrong type, a hoist of a value in place): FILE:LINE:COL under the
 * file that holds the plan. */
static void
print_run_errors(const Opts *o, const char *path, const Case *c,
		 const Outcome *out)
{
	for (int i = 0; c && i < out->nruns; i++) {
		const RunOut *r = &out->runs[i];
		bool doc = o->planned && i == c->nruns - 1;
		if (r->status != STATUS_BAD)
			continue;
		if (r->err.loc.line <= 0) { /* not in a file of the user's */
			fprintf(errs(), "%s: error: run %d (%s): %s\n", path,
				i + 1, r->strategy, r->err.msg);
			continue;
		}
		diag_print(errs(), doc ? o->plan : path,
			   doc ? o->plantext : c->text, &r->err);
	}
}

/* check_file with the --plan document's run added to the case (`only`:
 * instead of its runs).  An error in the document is printed under the
 * plan file's name; the outcome is then bad input. */
static void
check_planned(Opts *o, const char *path, bool only, Case **c, Outcome *out)
{
	bool found;
	Diag d;

	o->planned = false;
	if (case_load(path, 0, c, &d)) { /* reported (or expected) as usual */
		case_free(*c);
		check_file(path, o->strategy, true, c, out);
		return;
	}
	if (!plandoc_add_run(o->plan, o->plantext, o->planlen, *c, o->strategy,
			     only, &found, &d)) {
		if (found || !only) {
			o->planned = found;
			check_case(*c, NULL, true, out);
			return;
		}
		diag_set(&d, (Loc){0, 0}, "no entry for case '%s' under "
			 "'cases'", (*c)->name);
	}
	if (d.loc.line > 0)
		diag_print(errs(), o->plan, o->plantext, &d);
	else
		fprintf(errs(), "%s: error: %s\n", o->plan, d.msg);
	memset(out, 0, sizeof *out);
	out->status = STATUS_BAD;
	snprintf(out->why, sizeof out->why, "%s:%d:%d: error: %.400s", o->plan,
		 d.loc.line, d.loc.col, d.msg);
}

static int
cmd_run(Opts *o)
{
	Case *c = NULL;
	Outcome out;
	int rc;

	if (o->npaths != 1)
		return usage_error("%s", "run takes exactly one CASE");
	if (o->plan)
		check_planned(o, o->paths[0], true, &c, &out);
	else
		check_file(o->paths[0], o->strategy, !o->strategy, &c, &out);
	if (out.errored && out.status != STATUS_OK)
		print_error(o->paths[0], c, &out.err);
	else if (out.status == STATUS_BAD)
		print_run_errors(o, o->paths[0], c, &out);
	if (o->json) {
		if (report_json(stdout, c, &out))
			fprintf(stderr, "bufdiff: out of memory\n");
	} else if (!out.errored || out.status != STATUS_BAD) {
		/* a run that is bad input (an illegal plan) hides not the
		 * others' findings */
		report_text(stdout, c, &out);
	}
	rc = out.status;
	outcome_clear(&out);
	case_free(c);
	return rc;
}

/* --------------------------------------------------------- check */

typedef struct Files {
	char **v;
	int n, cap;
} Files;

static int
files_add(Files *f, const char *path)
{
	char *s;

	if (f->n == f->cap) {
		int nc = f->cap ? 2 * f->cap : 16;
		char **nv = mem_realloc(f->v, sizeof *nv * (size_t)nc);

		if (!nv)
			return -1;
		f->v = nv;
		f->cap = nc;
	}
	if (!(s = mem_strdup(path)))
		return -1;
	f->v[f->n++] = s;
	return 0;
}

static void
files_free(Files *f)
{
	for (int i = 0; i < f->n; i++)
		mem_free(f->v[i]);
	mem_free(f->v);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool
is_yaml(const char *name)
{
	size_t n = strlen(name);

	return n > 5 && !strcmp(name + n - 5, ".yaml");
}

/* Every *.yaml under dir, recursively, in sorted order. */
static int
walk(Files *out, const char *dir)
{
	Files names = {0};
	DIR *d = opendir(dir);
	struct dirent *e;
	struct stat st;
	char path[4096];
	int rc = 0;

	if (!d) {
		fprintf(stderr, "bufdiff: cannot open %s: %s\n", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && files_add(&names, e->d_name))
			rc = -1;
	closedir(d);
	if (names.n) /* qsort may not be given NULL, even for 0 items */
		qsort(names.v, (size_t)names.n, sizeof *names.v, cmp_str);
	for (int i = 0; !rc && i < names.n; i++) {
		size_t n = strlen(dir);
		/* `cases/` and `cases` name the same files */
		snprintf(path, sizeof path, "%.*s/%s",
			 (int)(n > 1 && dir[n - 1] == '/' ? n - 1 : n), dir,
			 names.v[i]);
		if (stat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode))
			rc = walk(out, path);
		else if (is_yaml(names.v[i]))
			rc = files_add(out, path);
	}
	files_free(&names);
	return rc;
}

/* --filter PATTERN: a glob (fnmatch) over the case name or its path; a
 * pattern without * ? [ is a substring. */
static bool
filter_match(const char *pat, const char *s)
{
	if (!s)
		return false;
	if (!strpbrk(pat, "*?["))
		return strstr(s, pat) != NULL;
	return !fnmatch(pat, s, 0);
}

static bool
selected(const Opts *o, const char *path)
{
	Case *c = NULL;
	Diag d;
	bool yes;

	if (!o->filter || filter_match(o->filter, path))
		return true;
	(void)case_load(path, CASE_PROGRAM_ONLY, &c, &d);
	yes = c && filter_match(o->filter, c->name);
	case_free(c);
	return yes;
}

/* The files under the paths.  A path that does not exist stays in the
 * list: checking it is an error entry (in JUnit too), not a silence. */
static int
collect(Opts *o, Files *f)
{
	Files all = {0};
	struct stat st;
	int rc = 0;

	for (int i = 0; i < o->npaths; i++) {
		if (stat(o->paths[i], &st)) {
			if (files_add(&all, o->paths[i]))
				rc = -1;
		} else if (S_ISDIR(st.st_mode)) {
			if (walk(&all, o->paths[i]))
				rc = -1;
		} else if (files_add(&all, o->paths[i])) {
			rc = -1;
		}
	}
	for (int i = 0; !rc && i < all.n; i++)
		if ((stat(all.v[i], &st) || selected(o, all.v[i])) &&
		    files_add(f, all.v[i]))
			rc = -1;
	files_free(&all);
	return rc;
}

/* The earlier file holding the same case name, or NULL. */
static const char *
duplicate(JEntry *e, int n)
{
	for (int i = 0; i < n; i++)
		if (e[i].name && e[n].name && !strcmp(e[i].name, e[n].name))
			return e[i].file;
	return NULL;
}

/* What a memstream holds (mem_alloc'ed), or NULL when empty. */
static char *
taken(FILE *f, char **buf, size_t *len)
{
	char *s = NULL;

	if (fclose(f) == 0 && *len)
		s = mem_strdup(*buf);
	free(*buf);
	return s;
}

/* Check one case into e: status, messages, and the diagnostics, JSON
 * and report as text (printed later, in path order, by check_done). */
static void
check_one_file(void *ctx, const char *path, JEntry *e)
{
	Opts *o = ctx;
	Case *c = NULL;
	Outcome out;
	char *db = NULL, *rb = NULL, *wb = NULL;
	size_t dn = 0, rn = 0, wn = 0;
	FILE *df = open_memstream(&db, &dn), *rf = open_memstream(&rb, &rn);

	diag_out = df;
	if (o->plan)
		check_planned(o, path, false, &c, &out);
	else
		check_file(path, o->strategy, true, &c, &out);
	e->file = mem_strdup(path);
	e->name = c && c->name ? mem_strdup(c->name) : NULL;
	e->status = out.status;
	e->msg = mem_strdup(out.why);
	if (out.errored && out.status == STATUS_BAD)
		print_error(path, c, &out.err);
	else if (out.status == STATUS_BAD)
		print_run_errors(o, path, c, &out);
	diag_out = NULL;
	if (rf && out.status == STATUS_FAIL)
		report_fail_reason(rf, c, &out);
	if (o->json) {
		FILE *wf = open_memstream(&wb, &wn);
		if (wf)
			report_json(wf, c, &out);
		if (wf)
			e->json = taken(wf, &wb, &wn);
	}
	if (o->junit && c && (out.status != STATUS_BAD || !out.errored)) {
		FILE *tf = open_memstream(&wb, &wn);
		if (tf) {
			report_text(tf, c, &out);
			e->report = taken(tf, &wb, &wn);
		}
	}
	if (df)
		e->diag = taken(df, &db, &dn);
	if (rf)
		e->reason = taken(rf, &rb, &rn);
	outcome_clear(&out);
	case_free(c);
}

/* Entry i is ready (all before it were printed): its diagnostics, its
 * line or JSON, in path order whatever -j did. */
static void
check_done(void *ctx, JEntry *je, int i)
{
	Opts *o = ctx;
	JEntry *e = &je[i];
	const char *dup;

	if (e->status == STATUS_OK && (dup = duplicate(je, i))) {
		char why[640];
		e->status = STATUS_BAD;
		snprintf(why, sizeof why, "duplicate case name '%s' (also in %s)",
			 e->name, dup);
		mem_free(e->msg);
		e->msg = mem_strdup(why);
	}
	fflush(stdout);
	if (e->diag)
		fputs(e->diag, stderr);
	if (o->json && e->json)
		fputs(e->json, stdout);
	else if (o->json)
		; /* out of memory: nothing to print */
	else if (e->status == STATUS_OK)
		printf("[ok] %s\n", e->file);
	else if (e->reason && e->reason[0])
		printf("[FAIL] %s: %s: %s\n", e->file, e->msg ? e->msg : "",
		       e->reason);
	else
		printf("[FAIL] %s: %s\n", e->file, e->msg ? e->msg : "");
	fflush(stdout);
}

/* Entries of a `cases:` plan document that name no checked case: errors. */
static bool
plan_unmatched(Opts *o, const JEntry *je, int n)
{
	Arena *a = arena_new();
	const char **names;
	Loc *locs;
	int nnames = -1;
	bool bad = false;
	Diag d;

	if (!a || plandoc_cases(o->plantext, o->planlen, a, &names, &locs,
				&nnames, &d)) {
		arena_free(a);
		return false; /* reported with each case */
	}
	for (int i = 0; i < nnames; i++) {
		bool seen = false;
		for (int k = 0; k < n && !seen; k++)
			seen = je[k].name && !strcmp(je[k].name, names[i]);
		if (seen)
			continue;
		diag_set(&d, locs[i], "no case named '%s' under the checked "
			 "paths", names[i]);
		diag_print(stderr, o->plan, o->plantext, &d);
		bad = true;
	}
	arena_free(a);
	return bad;
}

static int
cmd_check(Opts *o)
{
	Files f = {0};
	JEntry *je;
	int worst = 0, passed = 0;

	if (!o->npaths)
		return usage_error("%s", "check needs at least one PATH");
	if (collect(o, &f)) {
		files_free(&f);
		return usage_error("%s", "out of memory");
	}
	if (!f.n) {
		files_free(&f);
		fprintf(stderr, "bufdiff: no case under the paths%s%s%s\n",
			o->filter ? " matches '" : "", o->filter ? o->filter : "",
			o->filter ? "'" : "");
		return STATUS_BAD;
	}
	je = mem_calloc((size_t)f.n + 1, sizeof *je);
	if (!je) {
		files_free(&f);
		return usage_error("%s", "out of memory");
	}
	if (checkrun(f.v, f.n, o->jobs, check_one_file, check_done, o, je)) {
		fprintf(stderr, "bufdiff: cannot start a worker: %s\n",
			strerror(errno));
		worst = STATUS_BAD;
	}
	for (int i = 0; i < f.n; i++) {
		passed += je[i].file && je[i].status == STATUS_OK;
		if ((int)je[i].status > worst)
			worst = je[i].status;
	}
	if (o->plan && plan_unmatched(o, je, f.n))
		worst = STATUS_BAD;
	fprintf(o->json ? stderr : stdout, "%d passed, %d failed\n", passed,
		f.n - passed);
	if (o->junit && report_junit(o->junit, je, f.n)) {
		fprintf(stderr, "bufdiff: cannot write %s: %s\n", o->junit,
			strerror(errno));
		worst = STATUS_BAD;
	}
	for (int i = 0; i < f.n; i++)
		jentry_clear(&je[i]);
	mem_free(je);
	files_free(&f);
	return worst;
}

/* --------------------------------------------------------- print */

static int
cmd_print(Opts *o)
{
	Case *c = NULL;
	Diag d;
	char *s;
	int rc = STATUS_OK;

	if (o->npaths != 1)
		return usage_error("%s", "print takes exactly one CASE");
	if (case_load(o->paths[0], CASE_PROGRAM_ONLY, &c, &d)) {
		print_error(o->paths[0], c, &d);
		case_free(c);
		return STATUS_BAD;
	}
	if ((s = tir_print(c->prog))) {
		fputs(s, stdout);
		mem_free(s);
	} else {
		fprintf(stderr, "bufdiff: out of memory\n");
		rc = STATUS_BAD;
	}
	case_free(c);
	return rc;
}

/* ----------------------------------------------------- bufferize */

/* Decisions for `bufferize`: --run I (the case's run, with its plan) or
 * --strategy S (default copy-all); for mlir-pipeline, *bp: the buffer
 * program the memref program translates to. */
static int
bufferize_decisions(Opts *o, Case *c, Decisions *ds, BProg **bp, Diag *d)
{
	const Run *r = NULL;
	const Strategy *s = o->strategy;

	if (o->run) {
		if (o->run > c->nruns)
			return usage_error("%s has fewer runs", o->paths[0]);
		r = &c->runs[o->run - 1];
		s = r->strategy ? r->strategy : s;
	}
	if (!s)
		s = strategy_find("copy-all");
	if (s->ext) {
		ToolReport t;
		const Func *entry;
		int rc = s->ext->kind == EXT_PIPELINE ?
			 external_memref(s, c, bp, &entry, &t, d) :
			 external_decide(s, c, ds, &t, d);
		mem_free(t.decisions);
		mem_free(t.memref);
		if (rc < 0 && s->ext->kind == EXT_PIPELINE && d->msg[0] &&
		    strcmp(d->msg, "out of memory")) {
			fprintf(stderr, "%s: error: %s\n", o->paths[0], d->msg);
			return STATUS_BAD;
		}
		if (rc < 0)
			return usage_error("%s", "out of memory");
		if (rc > 0) {
			size_t n = strlen(t.err);
			fprintf(stderr, "bufdiff: tool-error: %s\n  command: %s\n%s%s",
				t.status, t.cmd, t.err,
				n && t.err[n - 1] != '\n' ? "\n" : "");
			return STATUS_FAIL;
		}
		if (*bp)
			return 0; /* the memref program: no decisions */
	} else if (decisions_make(c->prog, s, ds)) {
		return usage_error("%s", "out of memory");
	}
	if (r && diff_plan(r, ds, d)) {
		print_error(o->paths[0], c, d);
		return STATUS_BAD;
	}
	return 0;
}

static int
cmd_bufferize_or_explain(Opts *o, bool explain)
{
	Case *c = NULL;
	Decisions ds = {0};
	BProg *bp = NULL;
	Diag d;
	char *s = NULL;
	int rc;

	if (o->npaths != 1)
		return usage_error("%s", "bufferize takes exactly one CASE");
	if (case_load(o->paths[0], 0, &c, &d)) {
		print_error(o->paths[0], c, &d);
		case_free(c);
		return STATUS_BAD;
	}
	rc = bufferize_decisions(o, c, &ds, &bp, &d);
	if (!rc && ((!bp && !(bp = bufferize_lower(c->prog, &ds, &d))) ||
		    !(s = explain ? bir_explain(bp) : bir_print(bp))))
		rc = usage_error("%s", "out of memory");
	if (s)
		fputs(s, stdout);
	mem_free(s);
	bprog_free(bp);
	decisions_free(&ds);
	case_free(c);
	return rc;
}

static int
cmd_bufferize(Opts *o)
{
	return cmd_bufferize_or_explain(o, false);
}

static int
cmd_explain(Opts *o)
{
	return cmd_bufferize_or_explain(o, true);
}

/* -------------------------------------------------------- export */

static int
write_text(const char *path, const char *s)
{
	FILE *f = path ? fopen(path, "w") : stdout;
	int rc;

	if (!f)
		return -1;
	rc = fputs(s, f) < 0 ? -1 : 0;
	if (path && fclose(f))
		rc = -1;
	return rc;
}

static int
cmd_export(Opts *o)
{
	Case *c = NULL;
	Str b = {0};
	Diag d;
	char *s;
	int rc = STATUS_OK, v = external_opts()->mlir_version;

	if (o->npaths != 1)
		return usage_error("%s", "export takes exactly one CASE");
	/* the program only (no inputs needed), verified */
	if (case_load(o->paths[0], CASE_PROGRAM_ONLY, &c, &d) ||
	    tir_verify(c->prog, &c->lim, &d) ||
	    mlir_export(c->prog, o->paths[0], mlir_version(v ? v : 22), &b, NULL,
			NULL, &d)) {
		print_error(o->paths[0], c, &d);
		str_free(&b);
		case_free(c);
		return STATUS_BAD;
	}
	if (!(s = str_take(&b)))
		rc = usage_error("%s", "out of memory");
	else if (write_text(o->out, s))
		rc = usage_error("cannot write %s", o->out);
	mem_free(s);
	case_free(c);
	return rc;
}

static int
cmd_strategies(Opts *o)
{
	if (o->npaths)
		return usage_error("%s", "strategies takes no arguments");
	for (int i = 0; strategy_at(i); i++)
		printf("%-34s %s\n", strategy_at(i)->name, strategy_at(i)->about);
	printf("%-34s %s\n", "exec:CMD", "outside bufferizer: canonical TIR on "
	       "CMD's stdin, a decisions document back");
	printf("%-34s %s\n", "exec-mlir:CMD", "the same with the exported MLIR");
	printf("%-34s %s\n", "mlir[:TOOL]", "One-Shot Bufferize's analysis in "
	       "TOOL (default mlir-opt-22), decisions read back");
	printf("%-34s %s\n", "mlir-pipeline[:TOOL]", "the memref program TOOL "
	       "emits (not implemented yet)");
	return 0;
}

static const struct {
	const char *name;
	int (*fn)(Opts *);
} commands[] = {
	{"run", cmd_run},
	{"check", cmd_check},
	{"print", cmd_print},
	{"bufferize", cmd_bufferize},
	{"explain", cmd_explain},
	{"export", cmd_export},
	{"strategies", cmd_strategies},
};

int
main(int argc, char **argv)
{
	Opts o = {0};
	Diag d;
	int rc;

	if (argc < 2) {
		fputs(usage, stderr);
		return STATUS_BAD;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(usage, stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("bufdiff %s\n", bufdiff_version);
		return 0;
	}
#ifdef __GLIBC__
	/* fuzzing allocates and frees a whole program's state thousands of
	 * times a second: keep the heap instead of trimming it each time */
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
	mallopt(M_TOP_PAD, 16 << 20);
#endif
	report_json_init();
	/* commands with options of their own */
	if (!strcmp(argv[1], "fuzz"))
		return cmd_fuzz(argc, argv);
	if (!strcmp(argv[1], "reduce"))
		return cmd_reduce(argc - 1, argv + 1);
	if (!strcmp(argv[1], "import"))
		return cmd_import(argc - 1, argv + 1);
	for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		FILE *trace = NULL;
		rc = parse_args(&o, argc, argv);
		if (!rc && o.plan && !(o.plantext = plandoc_read(o.plan,
							&o.planlen, &d))) {
			fprintf(stderr, "bufdiff: %s\n", d.msg);
			rc = STATUS_BAD;
		}
		if (!rc && o.trace && !(trace = fopen(o.trace, "w")))
			rc = usage_error("cannot write %s", o.trace);
		if (!rc) {
			if (trace)
				fputs("step,bytes,line\n", trace);
			diff_options(o.overhead, trace,
				     o.has_schedule ? &o.schedule : NULL,
				     o.nrandom);
			diff_reporting(true); /* every culprit set, the fix */
			rc = commands[i].fn(&o);
		}
		if (trace)
			fclose(trace);
		mem_free(o.paths);
		mem_free(o.plantext);
		return rc;
	}
	return usage_error("unknown command '%s'", argv[1]);
}
