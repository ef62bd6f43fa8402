/*
 * reduce_cli.c: `bufdiff reduce CASE [--run I] [--plan FILE] [--strategy S]
 * [--out FILE] [--emit-mlir FILE]` (FORMAT.md §4, docs/reduce.md); with
 * --plan the run reduced is the document's, with --strategy a run of S
 * added to the case (unless --run names another).  --emit-mlir writes the
 * reduced program as MLIR too (export.c).  The reduced case goes to FILE or stdout, the
 * statistics to stderr.  Exit: 0 reduced, 1 the run does not fail, 2 bad
 * input or usage.
 */
#include <errno.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "cases.h"
#include "fuzz.h"
#include "mlir.h"
#include "stop.h"

typedef struct ReduceOpts {
	const char *path, *out, *plan, *emit_mlir;
	const Strategy *strategy;
	int run;                /* 1-based; 0: the first, or the plan's */
	int mlir_version;       /* --mlir-version N; 0: the strategy's or 22 */
} ReduceOpts;

/* --strategy S: a run of S on c (expected to agree), the one reduced
 * unless --run names another. */
static int
add_strategy_run(ReduceOpts *o, Case *c)
{
	Run *runs = arena_alloc(c->arena, sizeof *runs * (size_t)(c->nruns + 1));

	if (!runs) {
		fprintf(stderr, "bufdiff reduce: out of memory\n");
		return STATUS_BAD;
	}
	if (c->nruns)
		memcpy(runs, c->runs, sizeof *runs * (size_t)c->nruns);
	memset(&runs[c->nruns], 0, sizeof *runs);
	for (int k = 0; k < MS_COUNT; k++)
		runs[c->nruns].memory[k] = -1;
	runs[c->nruns].strategy = o->strategy;
	c->runs = runs;
	if (!o->run)
		o->run = ++c->nruns;
	else
		c->nruns++;
	return 0;
}

/* --emit-mlir FILE: the reduced case's program as MLIR that mlir-opt-N
 * parses (N: --mlir-version, else the strategy's tool, else 22), each op
 * at its place in the reduced case (--out FILE, or "reduced.yaml"). */
static int
emit_mlir(const ReduceOpts *o, const char *yaml, const Strategy *s)
{
	const char *label = o->out ? o->out : "reduced.yaml";
	int v = o->mlir_version ? o->mlir_version :
		s && s->version ? s->version : 22;
	Case *c = NULL;
	Str b = {0};
	Diag d;
	int rc = 0;

	if (case_parse(label, yaml, strlen(yaml), CASE_TRUSTED |
		       CASE_PROGRAM_ONLY, &c, &d) ||
	    mlir_export(c->prog, label, mlir_version(v) ? mlir_version(v) :
			mlir_version(22), &b, NULL, NULL, &d)) {
		term_fprintf(stderr, "bufdiff reduce: --emit-mlir: %s\n", d.msg);
		rc = STATUS_BAD;
	} else if (b.oom || output_write(o->emit_mlir, b.s ? b.s : "", b.len)) {
		term_fprintf(stderr, "bufdiff reduce: cannot write %s: %s\n",
			     o->emit_mlir, b.oom ? "out of memory" : strerror(errno));
		rc = STATUS_BAD;
	}
	str_free(&b);
	case_free(c);
	return rc;
}

/* The --plan document's run, appended to c; o->run defaults to it. */
static int
add_plan_run(ReduceOpts *o, Case *c)
{
	size_t len = 0;
	char *text;
	bool found = false;
	Diag d;
	int rc = 0;

	if (!(text = plandoc_read(o->plan, &len, &d))) {
		fprintf(stderr, "bufdiff reduce: %s\n", d.msg);
		return STATUS_BAD;
	}
	if (plandoc_add_run(o->plan, text, len, c, o->strategy, false, &found,
			    &d)) {
		if (d.loc.line > 0)
			diag_print(stderr, o->plan, text, &d);
		else
			term_fprintf(stderr, "%s: error: %s\n", o->plan, d.msg);
		rc = STATUS_BAD;
	} else if (!found) {
		term_fprintf(stderr, "%s: error: no entry for case '%s' under "
			"'cases'\n", o->plan, c->name);
		rc = STATUS_BAD;
	} else if (!o->run) {
		o->run = c->nruns;
	}
	mem_free(text);
	return rc;
}

static int
write_out(const char *path, const char *yaml, const Strategy *s)
{
	if (!trust_write_repro(path, yaml, s))
		return 0;
	fprintf(stderr, "bufdiff reduce: cannot write %s: %s\n",
		path ? path : "stdout", strerror(errno));
	return STATUS_BAD;
}

int
cmd_reduce(const Args *a, const RunConfig *cfg)
{
	ReduceOpts o = {a->paths[0], a->out, a->plan, a->emit_mlir, a->strategy,
			a->run, a->mlir_version};
	ReduceStats st;
	Case *c = NULL;
	char *yaml = NULL;
	Diag d;
	int rc;

	if (case_load(o.path, 0, &c, &d)) {
		if (d.loc.line > 0)
			diag_print(stderr, o.path, c ? c->text : NULL, &d);
		else
			term_fprintf(stderr, "%s: error: %s\n", o.path, d.msg);
		case_free(c);
		return STATUS_BAD;
	}
	if (o.strategy && !o.plan && (rc = add_strategy_run(&o, c))) {
		case_free(c);
		return rc;
	}
	if (o.plan && (rc = add_plan_run(&o, c))) {
		case_free(c);
		return rc;
	}
	if (!o.run)
		o.run = 1;
	if (o.run > c->nruns) {
		term_fprintf(stderr, "%s: error: the case has %d run%s, no run %d\n",
			o.path, c->nruns, c->nruns == 1 ? "" : "s", o.run);
		case_free(c);
		return STATUS_BAD;
	}
	rc = reduce_case(cfg, c, o.run - 1, NULL, NULL, &yaml, &st, &d);
	if (rc < 0) {
		if (d.loc.line > 0)
			diag_print(stderr, o.path, c->text, &d);
		else
			term_fprintf(stderr, "%s: error: %s\n", o.path, d.msg);
		rc = STATUS_BAD;
	} else if (rc == 2) { /* a signal: the smallest so far, written */
		rc = write_out(o.out, yaml, c->runs[o.run - 1].strategy);
		fprintf(stderr, "reduce: interrupted by %s: %d -> %d ops so far "
			"(the case has no results), %d candidates, %.2f s\n",
			stop_signal_name(stop_signal()), st.ops_before,
			st.ops_after, st.candidates, st.seconds);
	} else if (rc == 1) {
		fprintf(stderr, "%s: run %d does not fail (agrees with the "
			"reference): nothing to reduce\n", o.path, o.run);
		rc = STATUS_FAIL;
	} else {
		rc = write_out(o.out, yaml, c->runs[o.run - 1].strategy);
		if (!rc && o.emit_mlir)
			rc = emit_mlir(&o, yaml, c->runs[o.run - 1].strategy);
		fprintf(stderr, "reduce: %d -> %d ops, %d candidates, %d cache "
			"hits, %.2f s\n", st.ops_before, st.ops_after,
			st.candidates, st.cache_hits, st.seconds);
	}
	mem_free(yaml);
	case_free(c);
	return rc;
}
