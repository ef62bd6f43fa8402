/*
 * checkbatch.c: `check` asks its outside tools in batches (issue 26).
 *
 * Before the cases are checked, the runs whose strategy takes many
 * programs per call (STRAT_BATCH: mlir, mlir-native, exec-batch:,
 * exec-stream:; not mlir-pipeline, below) are gathered, a window of cases at a time,
 * by strategy and tool options (a case's workdir:, its pipeline:), and
 * each group is asked in one call (external_prefill).  The answers land
 * in the tool cache, where each case's own call finds them (a worker of
 * `check -j` inherits the cache when it is forked); what a batch did not
 * answer is asked alone, so the verdicts are those of a call per case.
 */
#include <sys/stat.h>

#include "harness.h"
#include "stop.h"

enum { CHECK_WINDOW = 64 };  /* cases loaded at a time (--tool-batch N) */

/* One run to ask about. */
typedef struct Ask {
	Case *c;
	const Strategy *s;
	ExternalOpts o;
	bool asked;
} Ask;

static bool
same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* Is the question about x the same tool call as about y? */
static bool
same_call(const Ask *x, const Ask *y)
{
	return x->s == y->s && same_str(x->o.workdir, y->o.workdir) &&
	       same_str(x->o.mlir_pipeline, y->o.mlir_pipeline);
}

static void
add(const RunConfig *cfg, Case *c, const Run *r, const Strategy *s, Ask *a,
    int *n)
{
	ExternalOpts buf;
	const char *pl;
	const ExternalOpts *o;

	/* mlir-pipeline's memref program names its values as printed in the
	 * batch (%arg9, not %arg0) and reports quote them: each case alone */
	if (!external_batches(s) || s->kind == STRAT_PIPELINE)
		return;
	o = run_tool_opts(cfg, r, s, &buf, &pl);
	a[(*n)++] = (Ask){c, s, o ? *o : external_opts_default, false};
}

/* Ask about cases[0..nc): each group of the same call in one batch. */
static void
ask_window(const RunConfig *cfg, Case **cases, int nc, const Strategy *s)
{
	int cap = 0, n = 0;
	Ask *a;
	Case **group;

	for (int i = 0; i < nc; i++)
		cap += cases[i]->nruns + 1;
	a = mem_calloc((size_t)cap + 1, sizeof *a);
	group = mem_calloc((size_t)cap + 1, sizeof *group);
	if (!a || !group) {
		mem_free(a);
		mem_free(group);
		return;
	}
	for (int i = 0; i < nc; i++) {
		for (int k = 0; k < cases[i]->nruns; k++)
			add(cfg, cases[i], &cases[i]->runs[k],
			    cases[i]->runs[k].strategy, a, &n);
		add(cfg, cases[i], NULL, s, a, &n);
	}
	for (int i = 0; i < n && !stop_signal(); i++) {
		int m = 0;
		if (a[i].asked)
			continue;
		for (int j = i; j < n; j++)
			if (!a[j].asked && same_call(&a[i], &a[j])) {
				a[j].asked = true;
				group[m++] = a[j].c;
			}
		external_prefill(&a[i].o, a[i].s, group, m);
	}
	mem_free(a);
	mem_free(group);
}

void
check_prefill(const RunConfig *cfg, char *const *paths, int n,
	      const Strategy *s)
{
	const ExternalOpts *o = cfg && cfg->tool ? cfg->tool
						 : &external_opts_default;
	int per = o->batch > 0 ? o->batch : CHECK_WINDOW;
	Case **cases;

	if (!cfg)
		cfg = &run_config_default;

	if (per < 2 || !(cases = mem_calloc((size_t)per, sizeof *cases)))
		return;
	for (int w = 0; w < n && !stop_signal(); w += per) {
		int nc = 0;
		for (int i = w; i < n && i < w + per; i++) {
			Case *c = NULL;
			struct stat st;
			Diag d;
			/* `-` (stdin), a pipe: read once, by the check */
			if (!strcmp(paths[i], "-") || stat(paths[i], &st) ||
			    !S_ISREG(st.st_mode))
				continue;
			if (!case_load(paths[i], 0, &c, &d))
				cases[nc++] = c;
			else
				case_free(c);
		}
		ask_window(cfg, cases, nc, s);
		for (int i = 0; i < nc; i++)
			case_free(cases[i]);
	}
	mem_free(cases);
}
