/*
 * main.c: the bufdiff command line (FORMAT.md §4, docs/cli.md).
 * Exit codes: 0 ok, 1 an expectation failed, 2 bad input or usage.
 */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cases.h"
#include "mlir.h"
#include "harness.h"
#include "report.h"
#include "stop.h"

/* The command, and what main.c's commands keep beside its Args. */
typedef struct Opts {
	Args a;
	bool planned;           /* the last case got the --plan document's run */
	char *plantext;         /* its text (mem_alloc'ed) */
	size_t planlen;
	RunConfig cfg;          /* every run's, from a (run_command) */
	ExternalOpts tool;      /* cfg.tool: the outside tools' options */
} Opts;

/* Where case diagnostics go: stderr, or (check -j) a worker's buffer
 * while it checks one case (state of that check, not a setting). */
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
		term_fprintf(errs(), "%s: error: %s\n", path, d->msg);
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
			term_fprintf(errs(), "%s: error: run %d (%s): %s\n",
				     path, i + 1, r->strategy, r->err.msg);
			continue;
		}
		diag_print(errs(), doc ? o->a.plan : path,
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
		check_file(&o->cfg, path, o->a.strategy, true, c, out);
		return;
	}
	if (!plandoc_add_run(o->a.plan, o->plantext, o->planlen, *c, o->a.strategy,
			     only, &found, &d)) {
		if (found || !only) {
			o->planned = found;
			check_case(&o->cfg, *c, NULL, true, out);
			return;
		}
		diag_set(&d, (Loc){0, 0}, "no entry for case '%s' under "
			 "'cases'", (*c)->name);
	}
	if (d.loc.line > 0)
		diag_print(errs(), o->a.plan, o->plantext, &d);
	else
		fprintf(errs(), "%s: error: %s\n", o->a.plan, d.msg);
	memset(out, 0, sizeof *out);
	out->status = STATUS_BAD;
	fmt_snprintf(out->why, sizeof out->why, "%s:%d:%d: error: %.400s", o->a.plan,
		 d.loc.line, d.loc.col, d.msg);
}

/* "out of memory", or the memory limit's message when it refused. */
static const char *
oom_msg(Diag *d)
{
	diag_set(d, (Loc){0, 0}, "out of memory");
	return d->msg;
}

static int
cmd_run(Opts *o)
{
	Case *c = NULL;
	Outcome out;
	Diag jd;
	bool json_failed = false;
	int rc;

	o->cfg.record = o->a.html != NULL;
	if (o->a.plan)
		check_planned(o, o->a.paths[0], true, &c, &out);
	else
		check_file(&o->cfg, o->a.paths[0], o->a.strategy, !o->a.strategy,
			   &c, &out);
	if (out.errored && out.status != STATUS_OK)
		print_error(o->a.paths[0], c, &out.err);
	else if (out.status == STATUS_BAD)
		print_run_errors(o, o->a.paths[0], c, &out);
	if (o->a.json) {
		if (report_json(stdout, c, &out)) {
			term_fprintf(stderr, "bufdiff: %s: error: %s\n", o->a.paths[0],
				oom_msg(&jd));
			json_failed = true;
		}
	} else if (!out.errored || out.status != STATUS_BAD) {
		/* a run that is bad input (an illegal plan) hides not the
		 * others' findings */
		report_text(stdout, c, &out);
	}
	rc = json_failed ? STATUS_BAD : out.status;
	if (o->a.html && html_case_file(o->a.html, c, &out, o->a.paths[0])) {
		fprintf(stderr, "bufdiff: cannot write %s: %s\n", o->a.html,
			strerror(errno));
		rc = STATUS_BAD;
	}
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

/* The directories a walk has entered (device, inode): a symlink back up
 * the tree is walked once, not until the path is too long (two cycles
 * took 300 s and 2.8 GB). */
typedef struct Seen {
	struct { dev_t dev; ino_t ino; } *v;
	int n, cap;
} Seen;

/* 1: dir was entered already; 0: now it is; -1: out of memory. */
static int
seen_add(Seen *s, const struct stat *st)
{
	for (int i = 0; i < s->n; i++)
		if (s->v[i].dev == st->st_dev && s->v[i].ino == st->st_ino)
			return 1;
	if (s->n == s->cap) {
		int nc = s->cap ? 2 * s->cap : 16;
		void *nv = mem_realloc(s->v, sizeof *s->v * (size_t)nc);

		if (!nv)
			return -1;
		s->v = nv;
		s->cap = nc;
	}
	s->v[s->n].dev = st->st_dev;
	s->v[s->n++].ino = st->st_ino;
	return 0;
}

/* Every *.yaml under dir, recursively, in sorted order; a directory met
 * again (a symlink cycle, or two links to one directory) is skipped with
 * a note. */
static int
walk(Files *out, const char *dir, Seen *seen)
{
	Files names = {0};
	DIR *d;
	struct dirent *e;
	struct stat st;
	char path[4096];
	int rc = 0;

	if (stat(dir, &st) == 0 && (rc = seen_add(seen, &st)) != 0) {
		if (rc > 0)
			term_fprintf(stderr, "bufdiff: %s: skipped, a directory "
				"already walked (a symlink cycle?)\n", dir);
		return rc < 0 ? -1 : 0;
	}
	if (!(d = opendir(dir))) {
		term_fprintf(stderr, "bufdiff: cannot open %s: %s\n", dir, strerror(errno));
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
		if (fmt_snprintf(path, sizeof path, "%.*s/%s",
			     (int)(n > 1 && dir[n - 1] == '/' ? n - 1 : n), dir,
			     names.v[i]) >= (int)sizeof path) {
			term_fprintf(stderr, "bufdiff: %s/%s: path longer than %d "
				"bytes\n", dir, names.v[i], (int)sizeof path - 1);
			rc = -1;
			break;
		}
		if (stat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode))
			rc = walk(out, path, seen);
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

	if (!o->a.filter || filter_match(o->a.filter, path))
		return true;
	(void)case_load(path, CASE_PROGRAM_ONLY, &c, &d);
	yes = c && filter_match(o->a.filter, c->name);
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
	Seen seen = {0};
	int rc = 0;

	for (int i = 0; i < o->a.npaths; i++) {
		if (!strcmp(o->a.paths[i], "-")) { /* a case on stdin */
			if (files_add(&all, "-"))
				rc = -1;
		} else if (stat(o->a.paths[i], &st)) {
			if (files_add(&all, o->a.paths[i]))
				rc = -1;
		} else if (S_ISDIR(st.st_mode)) {
			if (walk(&all, o->a.paths[i], &seen))
				rc = -1;
		} else if (import_cli_sections(o->a.paths[i]) > 1) {
			/* FILE.mlir's sections, each a case (docs/import.md) */
			int n = import_cli_sections(o->a.paths[i]);
			for (int k = 1; !rc && k <= n; k++) {
				char p[4200];
				fmt_snprintf(p, sizeof p, "%s#%d", o->a.paths[i], k);
				rc = files_add(&all, p) ? -1 : 0;
			}
		} else if (files_add(&all, o->a.paths[i])) {
			rc = -1;
		}
	}
	mem_free(seen.v);
	for (int i = 0; !rc && i < all.n; i++)
		if ((!strcmp(all.v[i], "-") || stat(all.v[i], &st) ||
		     selected(o, all.v[i])) && files_add(f, all.v[i]))
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
check_one_file(void *ctx, const char *path, int idx, JEntry *e)
{
	Opts *o = ctx;
	Case *c = NULL;
	Outcome out;
	char *db = NULL, *rb = NULL, *wb = NULL;
	size_t dn = 0, rn = 0, wn = 0;
	FILE *df = open_memstream(&db, &dn), *rf = open_memstream(&rb, &rn);

	diag_out = df;
	if (o->a.plan)
		check_planned(o, path, false, &c, &out);
	else
		check_file(&o->cfg, path, o->a.strategy, true, &c, &out);
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
	if (o->a.json) {
		FILE *wf = open_memstream(&wb, &wn);
		if (wf && report_json(wf, c, &out)) {
			Diag jd;
			fclose(wf); /* a cut line is no JSON: the error instead */
			free(wb);
			wf = NULL;
			e->status = STATUS_BAD;
			mem_free(e->msg);
			e->msg = mem_strdup(oom_msg(&jd));
			if (df)
				fprintf(df, "bufdiff: %s: error: %s\n", path, e->msg);
		}
		if (wf)
			e->json = taken(wf, &wb, &wn);
	}
	if (o->a.junit && c && (out.status != STATUS_BAD || !out.errored)) {
		FILE *tf = open_memstream(&wb, &wn);
		if (tf) {
			report_text(tf, c, &out);
			e->report = taken(tf, &wb, &wn);
		}
	}
	if (o->a.html) {
		char page[64], file[4096];
		fmt_snprintf(file, sizeof file, "%s/%s", o->a.html,
			 html_page_name(idx, page, sizeof page));
		e->cause = html_cause(c, &out);
		if (html_case_file(file, c, &out, path)) {
			if (df)
				fprintf(df, "bufdiff: cannot write %s\n", file);
			e->status = STATUS_BAD;
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
		fmt_snprintf(why, sizeof why, "duplicate case name '%s' (also in %s)",
			 e->name, dup);
		mem_free(e->msg);
		e->msg = mem_strdup(why);
	}
	fflush(stdout);
	if (e->diag) /* its lines kept, what a terminal acts on escaped */
		term_fputs_lines(stderr, e->diag);
	if (o->a.json && e->json)
		fputs(e->json, stdout);
	else if (o->a.json)
		; /* out of memory: nothing to print */
	else if (e->status == STATUS_OK)
		term_fprintf(stdout, "[ok] %s\n", e->file);
	else if (e->reason && e->reason[0])
		term_fprintf(stdout, "[FAIL] %s: %s: %s\n", e->file,
			     e->msg ? e->msg : "", e->reason);
	else
		term_fprintf(stdout, "[FAIL] %s: %s\n", e->file,
			     e->msg ? e->msg : "");
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
		diag_print(stderr, o->a.plan, o->plantext, &d);
		bad = true;
	}
	arena_free(a);
	return bad;
}

/* After a signal (stop.h): the entries of the cases checked first, in
 * path order; their number. */
static int
checked_first(JEntry *je, int n)
{
	int k = 0;

	for (int i = 0; i < n; i++)
		if (je[i].file) {
			JEntry t = je[k];
			je[k++] = je[i];
			je[i] = t;
		}
	return k;
}

static int
cmd_check(Opts *o)
{
	Files f = {0};
	JEntry *je;
	int worst = 0, passed = 0, n;

	if (collect(o, &f)) {
		files_free(&f);
		return cli_usage(&o->a, "%s", "out of memory");
	}
	if (!f.n) {
		files_free(&f);
		fprintf(stderr, "bufdiff: no case under the paths%s%s%s\n",
			o->a.filter ? " matches '" : "",
			o->a.filter ? o->a.filter : "", o->a.filter ? "'" : "");
		return STATUS_BAD;
	}
	if (o->a.html && html_dir(o->a.html)) {
		files_free(&f);
		fprintf(stderr, "bufdiff: cannot make the directory %s\n",
			o->a.html);
		return STATUS_BAD;
	}
	o->cfg.record = o->a.html != NULL;
	je = mem_calloc((size_t)f.n + 1, sizeof *je);
	if (!je) {
		files_free(&f);
		return cli_usage(&o->a, "%s", "out of memory");
	}
	check_prefill(&o->cfg, f.v, f.n, o->a.strategy); /* tools, batched */
	if (!o->a.plan) /* --confirm: native runs in batches first */
		check_confirm_prefill(&o->cfg, f.v, f.n, o->a.strategy);
	if (checkrun(f.v, f.n, o->a.jobs, check_one_file, check_done, o, je)) {
		fprintf(stderr, "bufdiff: cannot start a worker: %s\n",
			strerror(errno));
		worst = STATUS_BAD;
	}
	n = stop_signal() ? checked_first(je, f.n) : f.n;
	for (int i = 0; i < n; i++) {
		passed += je[i].file && je[i].status == STATUS_OK;
		if ((int)je[i].status > worst)
			worst = je[i].status;
	}
	if (o->a.plan && !stop_signal() && plan_unmatched(o, je, n))
		worst = STATUS_BAD;
	if (o->a.html && html_index(o->a.html, "bufdiff check", je, n)) {
		fprintf(stderr, "bufdiff: cannot write %s/index.html: %s\n",
			o->a.html, strerror(errno));
		worst = STATUS_BAD;
	}
	if (stop_signal())
		fprintf(o->a.json ? stderr : stdout, "%d passed, %d failed "
			"(interrupted by %s: %d of %d cases not checked)\n",
			passed, n - passed, stop_signal_name(stop_signal()),
			f.n - n, f.n);
	else
		fprintf(o->a.json ? stderr : stdout, "%d passed, %d failed\n",
			passed, n - passed);
	if (o->a.junit && report_junit(o->a.junit, je, n)) {
		fprintf(stderr, "bufdiff: cannot write %s: %s\n", o->a.junit,
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

/* Each case's program in canonical TIR; with more than one case, each
 * after a line `// ----- CASE` (a case that does not load says so, the
 * others still print: exit 2 then). */
static int
cmd_print(Opts *o)
{
	int rc = STATUS_OK;

	for (int i = 0; i < o->a.npaths; i++) {
		const char *path = o->a.paths[i];
		Case *c = NULL;
		Diag d;
		char *s;
		if (o->a.npaths > 1) /* escaped: one line whatever the name */
			term_fprintf(stdout, "// ----- %s\n", path);
		if (case_load(path, CASE_PROGRAM_ONLY, &c, &d)) {
			fflush(stdout);
			print_error(path, c, &d);
			case_free(c);
			rc = STATUS_BAD;
			continue;
		}
		if ((s = tir_print(c->prog))) {
			fputs(s, stdout);
			mem_free(s);
		} else {
			fprintf(stderr, "bufdiff: out of memory\n");
			rc = STATUS_BAD;
		}
		case_free(c);
	}
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
	const Strategy *s = o->a.strategy;

	if (o->a.run) {
		if (o->a.run > c->nruns) {
			term_fprintf(stderr, "%s: error: the case has %d run%s, no run "
				"%d\n", o->a.paths[0], c->nruns,
				c->nruns == 1 ? "" : "s", o->a.run);
			return STATUS_BAD;
		}
		r = &c->runs[o->a.run - 1];
		s = r->strategy ? r->strategy : s;
	}
	if (!s)
		s = strategy_find("copy-all");
	{
		Answer ans = {.ds = ds};
		int rc = strategy_answer(s, &(StratCtx){c->prog, c, o->cfg.tool},
					 &ans);
		ToolReport *t = &ans.tool;
		*bp = ans.bp;
		*d = ans.err;
		mem_free(t->decisions);
		mem_free(t->memref);
		if (rc < 0 && d->msg[0] && strcmp(d->msg, "out of memory")) {
			term_fprintf(stderr, "%s: error: %s\n", o->a.paths[0], d->msg);
			return STATUS_BAD;
		}
		if (rc < 0)
			return cli_usage(&o->a, "%s", "out of memory");
		if (rc > 0) {
			size_t n = strlen(t->err);
			term_fprintf(stderr, "bufdiff: tool-error: %s\n  command: ",
				     t->status);
			term_fputs_lines(stderr, t->cmd);
			fputc('\n', stderr);
			term_fputs_lines(stderr, t->err);
			fputs(n && t->err[n - 1] != '\n' ? "\n" : "", stderr);
			return STATUS_FAIL;
		}
		if (*bp)
			return 0; /* the buffer program: no decisions */
	}
	if (r && run_plan_apply(r, ds, d)) {
		print_error(o->a.paths[0], c, d);
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

	if (case_load(o->a.paths[0], 0, &c, &d)) {
		print_error(o->a.paths[0], c, &d);
		case_free(c);
		return STATUS_BAD;
	}
	rc = bufferize_decisions(o, c, &ds, &bp, &d);
	if (!rc && ((!bp && !(bp = bufferize_lower(c->prog, &ds, &d))) ||
		    !(s = explain ? bir_explain(bp) : bir_print(bp))))
		rc = cli_usage(&o->a, "%s", "out of memory");
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
	return output_write(path, s, strlen(s));
}

/* One case's program, exported to b; 0, or -1 with its error printed. */
static int
export_one(Opts *o, const char *path, Str *b)
{
	Case *c = NULL;
	Diag d;
	int v = o->a.mlir_version;

	/* the program only (no inputs needed), verified */
	if (case_load(path, CASE_PROGRAM_ONLY, &c, &d) ||
	    tir_verify(c->prog, &c->lim, &d) ||
	    mlir_export(c->prog, path, mlir_version(v ? v : 22), b, NULL, NULL,
			&d)) {
		print_error(path, c, &d);
		case_free(c);
		return -1;
	}
	case_free(c);
	return 0;
}

/* Several cases: a section each, as mlir-opt's -split-input-file reads
 * them (`// -----` between), each led by `// bufdiff export: CASE`; a
 * case that fails has its error printed and no section. */
static int
cmd_export(Opts *o)
{
	Str b = {0};
	char *s;
	int rc = STATUS_OK, nsec = 0;

	for (int i = 0; i < o->a.npaths; i++) {
		const char *path = o->a.paths[i];
		Str one = {0};
		if (export_one(o, path, &one)) {
			rc = STATUS_BAD;
		} else if (o->a.npaths == 1) {
			b = one;
			continue;
		} else {
			/* the path escaped: a newline in a file name must
			 * not end the comment (and start MLIR) */
			str_puts(&b, nsec++ ? "// -----\n" : "");
			str_puts(&b, "// bufdiff export: ");
			term_escape(&b, path, strlen(path), false);
			str_puts(&b, "\n");
			str_put(&b, one.s ? one.s : "", one.len);
			b.oom |= one.oom;
		}
		str_free(&one);
	}
	if (!nsec && rc != STATUS_OK) {
		str_free(&b);
		return rc;
	}
	if (!(s = str_take(&b))) {
		rc = cli_usage(&o->a, "%s", "out of memory");
	} else if (write_text(o->a.out, s)) {
		fprintf(stderr, "bufdiff export: cannot write %s: %s\n",
			o->a.out ? o->a.out : "stdout", strerror(errno));
		rc = STATUS_BAD;
	}
	mem_free(s);
	return rc;
}

static int
cmd_strategies(Opts *o)
{
	(void)o;
	for (int i = 0; strategy_at(i); i++)
		printf("%-34s %s\n", strategy_at(i)->name, strategy_at(i)->about);
	printf("%-34s %s\n", "exec:CMD", "outside bufferizer: canonical TIR on "
	       "CMD's stdin, a decisions document back");
	printf("%-34s %s\n", "exec-mlir:CMD", "the same with the exported MLIR");
	printf("%-34s %s\n", "exec-batch:CMD, exec-stream:CMD", "the same, many "
	       "programs per call (also exec-mlir-batch:, exec-mlir-stream:)");
	printf("%-34s %s\n", "mlir[:TOOL]", "One-Shot Bufferize's analysis in "
	       "TOOL (default mlir-opt-22), decisions read back");
	printf("%-34s %s\n", "mlir-pipeline[:TOOL]", "the memref program TOOL's "
	       "pipeline emits, executed (--mlir-pipeline P)");
	printf("%-34s %s\n", "mlir-native[:TOOL]", "mlir's decisions, MLIR's own "
	       "code run natively as the verdict (docs/native.md)");
	return 0;
}

static int
cmd_fuzz_opts(Opts *o)
{
	return fuzz_main(&o->a, &o->cfg);
}

static int
cmd_reduce_opts(Opts *o)
{
	return cmd_reduce(&o->a, &o->cfg);
}

static int
cmd_import_opts(Opts *o)
{
	return cmd_import(&o->a);
}

static int
cmd_plot_opts(Opts *o)
{
	if (!o->a.html)
		return cli_usage(&o->a, "the page needs --html FILE");
	return plot_page(o->a.paths[0], o->a.html);
}

static int
cmd_lab_opts(Opts *o)
{
	return cmd_lab(&o->a);
}

static int
cmd_native_opts(Opts *o)
{
	return cmd_native(&o->a);
}

static int
cmd_upstream_opts(Opts *o)
{
	return cmd_upstream(&o->a);
}

/* cli.c's commands (help is done by cli_parse). */
static int (*const commands[CLI_NCMDS])(Opts *) = {
	[CLI_RUN] = cmd_run,
	[CLI_CHECK] = cmd_check,
	[CLI_PRINT] = cmd_print,
	[CLI_BUFFERIZE] = cmd_bufferize,
	[CLI_EXPLAIN] = cmd_explain,
	[CLI_FUZZ] = cmd_fuzz_opts,
	[CLI_REDUCE] = cmd_reduce_opts,
	[CLI_EXPORT] = cmd_export,
	[CLI_IMPORT] = cmd_import_opts,
	[CLI_NATIVE] = cmd_native_opts,
	[CLI_UPSTREAM] = cmd_upstream_opts,
	[CLI_PLOT] = cmd_plot_opts,
	[CLI_LAB] = cmd_lab_opts,
	[CLI_STRATEGIES] = cmd_strategies,
};

/* The commands that run cases get --plan's text, --memory-trace's file
 * and the diff options; then the command runs. */
static int
run_command(Opts *o)
{
	FILE *trace = NULL;
	Output tout;
	Diag d;
	int rc = 0;

	if (o->a.plan && o->a.cmd != CLI_REDUCE &&
	    !(o->plantext = plandoc_read(o->a.plan, &o->planlen, &d))) {
		fprintf(stderr, "bufdiff: %s\n", d.msg);
		rc = STATUS_BAD;
	}
	if (!rc && o->a.trace && !(trace = output_open(&tout, o->a.trace)))
		rc = cli_usage(&o->a, "cannot write %s: %s", o->a.trace,
			       strerror(errno));
	if (!rc) {
		if (trace)
			fputs(MEMORY_TRACE_HEADER, trace);
		mem_limit(o->a.max_memory);
		o->cfg = (RunConfig){
			.alloc_overhead = o->a.overhead, .trace = trace,
			.sched = o->a.has_schedule ? &o->a.schedule : NULL,
			.nrandom = o->a.nrandom,
			.report = true, /* every culprit set, the fix */
			.max_work = o->a.max_work, .timeout = o->a.timeout,
			.confirm = o->a.confirm, .tool = &o->tool};
		cli_tool_options(&o->a, &o->tool);
		if (!commands[o->a.cmd])
			abort(); /* a command of cli.c's table without a function */
		if (o->a.cmd == CLI_RUN || o->a.cmd == CLI_CHECK ||
		    o->a.cmd == CLI_FUZZ || o->a.cmd == CLI_REDUCE)
			stop_on_signals(); /* docs/cli.md, Signals */
		rc = commands[o->a.cmd](o);
		if (stop_signal()) {
			if (o->a.cmd == CLI_RUN)
				fprintf(stderr, "bufdiff: interrupted by %s\n",
					stop_signal_name(stop_signal()));
			rc = stop_status();
		}
	}
	/* a trace the disk did not take is an error, not a short file */
	if (trace && output_close(&tout)) {
		fprintf(stderr, "bufdiff: cannot write %s: %s\n", o->a.trace,
			strerror(errno));
		rc = STATUS_BAD;
	}
	mem_free(o->plantext);
	return rc;
}

/* Flush stdout; on a failed write say so (once) and return true. */
static bool
stdout_failed(void)
{
	/* a write that failed before (a flush of a full buffer) left only
	 * the error flag: its errno is gone */
	int err = fflush(stdout) ? errno : ferror(stdout) ? -1 : 0;

	if (!err)
		return false;
	fprintf(stderr, "bufdiff: error: cannot write stdout: %s\n",
		err > 0 ? strerror(err) : "a write to it failed");
	return true;
}

int
main(int argc, char **argv)
{
	Opts o = {0};
	int rc;

	/* keep the heap between fuzzed programs, tensors in it, huge pages
	 * (mem.c) */
	mem_heap_setup(MEM_MMAP_THRESHOLD, true);
	report_json_init();
	external_register();
	rc = cli_parse(argc, argv, &o.a);
	if (!rc && o.a.allow_exec)
		trust_all();
	if (!rc)
		rc = import_cli_config(&o.a);
	if (!rc)
		rc = run_command(&o);
	cli_args_free(&o.a);
	rc = rc < 0 ? 0 : rc;
	/* stdout may be a file on a full disk (`export > x.mlir`, `check
	 * --json > r.json`): what did not reach it is an error, not exit 0 */
	if (stdout_failed() && !stop_signal()) /* a signal's status stays */
		rc = STATUS_BAD;
	return rc;
}
