/*
 * runs.c: the `runs:` entries of a case, parsed and checked against the
 * program (every name must exist, every plan decision must be one the op
 * can make).  The bufferized executor runs them.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "oracle.h"

const char *const verdict_names[VERDICT_COUNT] = {
	[VERDICT_NONE] = "", [VERDICT_AGREE] = "agree",
	[VERDICT_DIVERGE] = "diverge", [VERDICT_FAULT] = "fault",
	[VERDICT_TOOL_ERROR] = "tool-error",
};

const char *const memstat_names[MS_COUNT + 1] = {
	"peak_bytes", "allocations", "alloc_bytes", "copies", "copy_bytes",
	"views", NULL,
};


int
schedule_parse(const char *s, Schedule *out)
{
	char *end;

	out->seed = 0;
	if (!strcmp(s, "all"))
		out->kind = SCHED_ALL;
	else if (!strcmp(s, "sync"))
		out->kind = SCHED_SYNC;
	else if (!strcmp(s, "late"))
		out->kind = SCHED_LATE;
	else if (!strncmp(s, "random:", 7) && s[7] >= '0' && s[7] <= '9') {
		out->kind = SCHED_RANDOM;
		out->seed = strtoull(s + 7, &end, 10);
		if (*end)
			return -1;
	} else
		return -1;
	return 0;
}

/* --------------------------------------------------------- names */

/* A value by name: the entry function first, then any function. */
static Value *
value_named(Loader *L, Case *c, const char *name, const yaml_node_t *at)
{
	Value *v = prog_value(c->prog, c->entry, name);

	if (!v)
		v = prog_value(c->prog, NULL, name);
	if (!v)
		yl_fail(L, yl_loc(at), "unknown value %%%s", name);
	return v;
}

static Value *
op_result(Loader *L, Case *c, const char *name, const yaml_node_t *at)
{
	Value *v = value_named(L, c, name, at);

	if (!v->def)
		yl_fail(L, yl_loc(at), "%%%s is not an op result", name);
	return v;
}

/* RESULT:OPERAND or RESULT:new; rat/oat locate the two names. */
static Forced
decision(Loader *L, Case *c, const char *r, const char *o,
	 const yaml_node_t *rat, const yaml_node_t *oat)
{
	Forced d = {op_result(L, c, r, rat), NULL, yl_loc(rat)};

	if (!strcmp(o, "new"))
		return d;
	d.operand = value_named(L, c, o, oat);
	if (!op_uses(d.result->def, d.operand))
		yl_fail(L, yl_loc(oat), "%%%s is not an operand of the op "
			"defining %%%s", o, r);
	return d;
}

/* --------------------------------------------------------- keys */

static const char *
scalar(Loader *L, const yaml_node_t *n, const char *what)
{
	yl_want(L, n, YAML_SCALAR_NODE, what);
	return yl_text(n);
}

static void
load_plan(Loader *L, Case *c, Run *r, const yaml_node_t *n)
{
	yl_want(L, n, YAML_MAPPING_NODE, "plan");
	yl_free_keys(L, n, "plan");
	r->nplan = yl_npairs(n);
	r->plan = arena_alloc(L->arena, sizeof *r->plan * (size_t)(r->nplan + 1));
	for (int i = 0; i < r->nplan; i++) {
		yaml_node_t *k = yl_pair_key(L, n, i), *v = yl_pair_val(L, n, i);

		r->plan[i] = decision(L, c, yl_text(k), scalar(L, v, "plan"), k, v);
	}
}

static void
load_free(Loader *L, Case *c, Run *r, const yaml_node_t *n)
{
	yl_want(L, n, YAML_MAPPING_NODE, "free");
	yl_free_keys(L, n, "free");
	r->nfrees = yl_npairs(n);
	r->frees = arena_alloc(L->arena, sizeof *r->frees * (size_t)(r->nfrees + 1));
	for (int i = 0; i < r->nfrees; i++) {
		yaml_node_t *k = yl_pair_key(L, n, i), *v = yl_pair_val(L, n, i);
		const char *s = scalar(L, v, "free");

		if (strncmp(s, "after ", 6) || !s[6])
			yl_fail(L, yl_loc(v), "free: expected 'after RESULT', "
				"got '%s'", s);
		s += 6;
		while (*s == ' ')
			s++;
		r->frees[i].value = value_named(L, c, yl_text(k), k);
		r->frees[i].after = op_result(L, c, s, v);
		r->frees[i].loc = yl_loc(k);
	}
}

/* A list of "R:OP" / "R:new" strings (culprits, decisions). */
static Forced *
load_decisions(Loader *L, Case *c, const yaml_node_t *n, const char *what,
	       int *count)
{
	Forced *d;

	yl_want(L, n, YAML_SEQUENCE_NODE, what);
	*count = yl_nitems(n);
	d = arena_alloc(L->arena, sizeof *d * (size_t)(*count + 1));
	for (int i = 0; i < *count; i++) {
		yaml_node_t *e = yl_item(L, n, i);
		const char *s = scalar(L, e, what), *colon = strchr(s, ':');
		char *r;

		if (!colon || colon == s || !colon[1])
			yl_fail(L, yl_loc(e), "%s: expected 'RESULT:OPERAND' or "
				"'RESULT:new', got '%s'", what, s);
		r = arena_strndup(L->arena, s, (size_t)(colon - s));
		d[i] = decision(L, c, r, colon + 1, e, e);
	}
	return d;
}

static int
table_lookup(const char *const *names, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (names[i] && !strcmp(names[i], s))
			return i;
	return -1;
}

static void
load_blame(Loader *L, Case *c, Run *r, const yaml_node_t *n)
{
	static const char *const keys[] = {"writer", "victim", "reader", "kind",
					   NULL};
	yaml_node_t *v[4];

	yl_want(L, n, YAML_SEQUENCE_NODE, "blame");
	r->has_blame = true;
	r->nblame = yl_nitems(n);
	r->blame = arena_alloc(L->arena, sizeof *r->blame * (size_t)(r->nblame + 1));
	for (int i = 0; i < r->nblame; i++) {
		yaml_node_t *e = yl_item(L, n, i);
		Blame *b = &r->blame[i];
		Value **slot[3] = {&b->writer, &b->victim, &b->reader};

		yl_want(L, e, YAML_MAPPING_NODE, "blame record");
		yl_keys(L, e, keys, "blame record", v, NULL);
		b->loc = yl_loc(e);
		for (int k = 0; k < 3; k++)
			if (v[k])
				*slot[k] = value_named(L, c, scalar(L, v[k], keys[k]),
						       v[k]);
		b->kind = -1;
		if (v[3] && (b->kind = table_lookup(vkind_names, VK_COUNT,
				scalar(L, v[3], "kind"))) < 0)
			yl_fail(L, yl_loc(v[3]), "unknown violation kind '%s' "
				"(expected one of: stale-read, use-after-free, "
				"double-free, leak, readonly-write, async-race, "
				"early-await-read, out-of-bounds, invalid-free)", yl_text(v[3]));
	}
}

static void
load_memory(Loader *L, Run *r, const yaml_node_t *n)
{
	yaml_node_t *v[MS_COUNT];
	char *end;

	yl_want(L, n, YAML_MAPPING_NODE, "memory");
	yl_keys(L, n, memstat_names, "memory", v, NULL);
	for (int k = 0; k < MS_COUNT; k++) {
		const char *s;

		if (!v[k])
			continue;
		s = scalar(L, v[k], memstat_names[k]);
		r->memory[k] = strtoll(s, &end, 10);
		if (*end || !*s || *s == '-' || *s == '+' || r->memory[k] < 0)
			yl_fail(L, yl_loc(v[k]), "memory: '%s' must be an "
				"integer >= 0", memstat_names[k]);
	}
}

static void
load_choice(Loader *L, Run *r, yaml_node_t *strat, yaml_node_t *sched,
	    yaml_node_t *verdict)
{
	const char *s;

	if (strat && !(r->strategy = strategy_parse(scalar(L, strat, "strategy"))))
		yl_fail(L, yl_loc(strat), "unknown strategy '%s' (see bufdiff "
			"strategies)", yl_text(strat));
	if (sched) {
		s = scalar(L, sched, "schedule");
		r->has_schedule = true;
		if (schedule_parse(s, &r->schedule))
			yl_fail(L, yl_loc(sched), "unknown schedule '%s' (expected "
				"sync, late, all or random:SEED)", s);
	}
	if (verdict) {
		s = scalar(L, verdict, "verdict");
		r->verdict = table_lookup(verdict_names, VERDICT_COUNT, s);
		if ((int)r->verdict <= 0)
			yl_fail(L, yl_loc(verdict), "unknown verdict '%s' "
				"(expected agree, diverge, fault or tool-error)", s);
	}
}

static void
load_run(Loader *L, Case *c, Run *r, const yaml_node_t *n, int no)
{
	static const char *const keys[] = {
		"strategy", "plan", "free", "schedule", "verdict", "outputs",
		"blame", "memory", "culprits", "decisions", NULL};
	enum { STRAT, PLAN, FREE, SCHED, VERDICT, OUTS, BLAME, MEM, CULP, DEC };
	yaml_node_t *v[10];
	char label[32];

	yl_want(L, n, YAML_MAPPING_NODE, "runs entry");
	yl_keys(L, n, keys, "run", v, NULL);
	r->loc = yl_loc(n);
	r->strategy = NULL;
	for (int k = 0; k < MS_COUNT; k++)
		r->memory[k] = -1;
	load_choice(L, r, v[STRAT], v[SCHED], v[VERDICT]);
	if (v[PLAN])
		load_plan(L, c, r, v[PLAN]);
	if (v[FREE])
		load_free(L, c, r, v[FREE]);
	if (v[OUTS]) {
		snprintf(label, sizeof label, "run %d ", no);
		r->outputs = data_outputs(L, v[OUTS], c->entry->rtypes,
					  c->entry->nrtypes, &c->lim, label);
		r->noutputs = c->entry->nrtypes;
	}
	if (v[BLAME])
		load_blame(L, c, r, v[BLAME]);
	if (v[MEM])
		load_memory(L, r, v[MEM]);
	if ((r->has_culprits = v[CULP] != NULL))
		r->culprits = load_decisions(L, c, v[CULP], "culprits",
					     &r->nculprits);
	if ((r->has_decisions = v[DEC] != NULL))
		r->decisions = load_decisions(L, c, v[DEC], "decisions",
					      &r->ndecisions);
}

void
runs_load(Loader *L, Case *c, const yaml_node_t *n)
{
	yl_want(L, n, YAML_SEQUENCE_NODE, "runs");
	c->nruns = yl_nitems(n);
	c->runs = arena_alloc(L->arena, sizeof *c->runs * (size_t)(c->nruns + 1));
	for (int i = 0; i < c->nruns; i++)
		load_run(L, c, &c->runs[i], yl_item(L, n, i), i + 1);
}
