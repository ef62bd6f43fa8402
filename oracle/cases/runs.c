/*
 * runs.c: the `runs:` entries of a case, parsed and checked against the
 * program (every name must exist, every plan decision must be one the op
 * can make; anchors, hoists and args must fit the program's structure).
 * The bufferized executor runs them.  Decisions documents (plandoc.c) go
 * through the same key parsers.
 */
#define _DEFAULT_SOURCE /* realpath */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "cases.h"

const char *const verdict_names[VERDICT_COUNT] = {
	[VERDICT_NONE] = "", [VERDICT_AGREE] = "agree",
	[VERDICT_DIVERGE] = "diverge", [VERDICT_FAULT] = "fault",
	[VERDICT_TOOL_ERROR] = "tool-error",
};

const char *const memstat_names[MS_COUNT + 1] = {
	"peak_bytes", "allocations", "alloc_bytes", "copies", "copy_bytes",
	"views", NULL,
};

/* --------------------------------------------------------- names */

/* A value by name: `@f/name` in function f; otherwise in function `in`
 * (an operand: the function of its result), then the entry, then any
 * function.  NULL when there is none. */
Value *
runs_value(const Program *p, const Func *in, const Func *entry,
	   const char *name)
{
	const char *slash = name[0] == '@' ? strchr(name, '/') : NULL;
	Value *v = NULL;

	if (slash) {
		char fn[256];
		const Func *f;
		if ((size_t)(slash - name) > sizeof fn)
			return NULL;
		memcpy(fn, name + 1, (size_t)(slash - name - 1));
		fn[slash - name - 1] = 0;
		f = prog_func(p, fn);
		return f ? prog_value(p, f, slash + 1) : NULL;
	}
	if (in)
		v = prog_value(p, in, name);
	if (!v)
		v = prog_value(p, entry, name);
	return v ? v : prog_value(p, NULL, name);
}

/* The first value called `key` ("name" or "@func/name") in p, by
 * L's index of p (a plan may name 10^5 values; runs_value scans). */
static Value *
indexed(Loader *L, const Program *p, const char *key)
{
	int i;

	if (L->named != p) {
		strmap_init(&L->names, L->arena);
		for (int j = 0; j < p->nvalues; j++) {
			const Value *v = p->values[j];
			const char *fn = v->func ? v->func->name : "";
			char *q = arena_alloc(L->arena, strlen(fn) +
					      strlen(v->name) + 3);
			sprintf(q, "@%s/%s", fn, v->name);
			strmap_add(&L->names, q, j);
			strmap_add(&L->names, v->name, j);
		}
		L->named = p;
	}
	i = strmap_get(&L->names, key);
	return i < 0 ? NULL : p->values[i];
}

/* runs_value by L's index. */
static Value *
loader_value(Loader *L, const Case *c, const Func *in, const char *name)
{
	const Func *fs[2] = {in, c->entry};
	char key[512];
	Value *v;

	if (name[0] == '@' && strchr(name, '/'))
		return indexed(L, c->prog, name);
	for (int k = 0; k < 2; k++) {
		if (!fs[k])
			continue;
		if (fmt_snprintf(key, sizeof key, "@%s/%s", fs[k]->name,
				 name) >= (int)sizeof key)
			return runs_value(c->prog, in, c->entry, name);
		if ((v = indexed(L, c->prog, key)))
			return v;
	}
	return indexed(L, c->prog, name);
}

static Value *
value_in(Loader *L, Case *c, const Func *in, const char *name,
	 const yaml_node_t *at)
{
	Value *v = loader_value(L, c, in, name);

	if (!v)
		yl_fail(L, yl_loc(at), "unknown value %s%s",
			name[0] == '@' ? "" : "%", name);
	return v;
}

static Value *
value_named(Loader *L, Case *c, const char *name, const yaml_node_t *at)
{
	return value_in(L, c, NULL, name, at);
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
	Forced d = {op_result(L, c, r, rat), NULL, yl_loc(rat), NULL, false,
		    NULL};

	if (!strcmp(o, "new"))
		return d;
	d.operand = value_in(L, c, d.result->func, o, oat);
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

/* Is v defined before op runs (a param of its function, an earlier op of
 * a block holding op, or an argument of a block holding op)? */
static bool
defined_at(const Value *v, const Op *op)
{
	if (v->isparam)
		return v->func == op->parent->func;
	for (const Op *a = op; a; a = a->parent->parent) {
		if (v->def && a->parent == v->def->parent)
			return v->def->index < a->index;
		if (!v->def && a->parent == v->owner)
			return true;
	}
	return false;
}

/* Is s %e, or computed from it by ops that may write into it? */
static bool
computed_in(const Value *s, const Value *e, int depth)
{
	Value *cand[16];
	int n;

	if (s == e)
		return true;
	if (!s->def || depth > 64)
		return false;
	n = inplace_candidates(s->def, s->resno, cand, 16);
	for (int i = 0; i < n && i < 16; i++)
		if (computed_in(cand[i], e, depth + 1))
			return true;
	return false;
}

static void
check_anchor(Loader *L, const PlanAnchor *a, const yaml_node_t *k,
	     const yaml_node_t *v)
{
	const Op *eop = a->e->def, *ins = a->r->def;
	const Type *t = a->e->type;

	if (!eop || eop->kind != OP_EMPTY)
		yl_fail(L, yl_loc(k), "anchor: %%%s is not defined by empty",
			a->e->name);
	if (ins->kind != OP_INSERT_SLICE)
		yl_fail(L, yl_loc(v), "anchor: %%%s is not defined by insert_slice",
			a->r->name);
	if (!computed_in(ins->args[0].v, a->e, 0))
		yl_fail(L, yl_loc(v), "anchor: the slice inserted into %%%s is "
			"not %%%s nor computed into it", a->r->name, a->e->name);
	for (int d = 0; d < t->rank; d++)
		if (t->rank != ins->noffs || t->dims[d] != ins->sizes[d])
			yl_fail(L, yl_loc(k), "anchor: the shape of %%%s differs "
				"from the slice %%%s overwrites", a->e->name,
				a->r->name);
	if (!defined_at(ins->dest.v, eop))
		yl_fail(L, yl_loc(v), "anchor: %%%s, the destination of %%%s, "
			"is not defined where %%%s is", ins->dest.v->name,
			a->r->name, a->e->name);
	for (int d = 0; d < ins->noffs; d++)
		if (ins->offs[d].v && !defined_at(ins->offs[d].v, eop))
			yl_fail(L, yl_loc(v), "anchor: offset %%%s of %%%s is not "
				"defined where %%%s is", ins->offs[d].v->name,
				a->r->name, a->e->name);
}

static void
load_anchor(Loader *L, Case *c, Run *r, const yaml_node_t *n)
{
	yl_want(L, n, YAML_MAPPING_NODE, "anchor");
	yl_free_keys(L, n, "anchor");
	r->nanchors = yl_npairs(n);
	r->anchors = arena_alloc(L->arena, sizeof *r->anchors *
				 (size_t)(r->nanchors + 1));
	for (int i = 0; i < r->nanchors; i++) {
		yaml_node_t *k = yl_pair_key(L, n, i), *v = yl_pair_val(L, n, i);
		PlanAnchor *a = &r->anchors[i];

		a->e = value_named(L, c, yl_text(k), k);
		a->r = op_result(L, c, scalar(L, v, "anchor"), v);
		a->loc = yl_loc(k);
		check_anchor(L, a, k, v);
	}
}

static void
load_hoist(Loader *L, Case *c, Run *r, const yaml_node_t *n)
{
	bool *listed;

	yl_want(L, n, YAML_SEQUENCE_NODE, "hoist");
	r->nhoists = yl_nitems(n);
	r->hoists = arena_alloc(L->arena, sizeof *r->hoists *
				(size_t)(r->nhoists + 1));
	listed = arena_alloc(L->arena, (size_t)c->prog->nvalues + 1);
	for (int i = 0; i < r->nhoists; i++) {
		yaml_node_t *e = yl_item(L, n, i);
		const char *name = scalar(L, e, "hoist");
		Value *v = op_result(L, c, name, e);

		if (listed[v->id]) /* by value: `t` and `@main/t` are one */
			yl_fail(L, yl_loc(e), "hoist: %%%s is listed twice",
				name);
		listed[v->id] = true;
		if (v->type->kind != TY_TENSOR || base_decision(v).kind == DEC_NONE)
			yl_fail(L, yl_loc(e), "hoist: %%%s has no buffer of its "
				"own", name);
		if (!op_outer_loop(v->def))
			yl_fail(L, yl_loc(e), "hoist: %%%s is not defined inside "
				"a loop", name);
		if (!type_is_static(v->type))
			yl_fail(L, yl_loc(e), "hoist: %%%s has a dynamic shape",
				name);
		r->hoists[i] = (PlanHoist){v, yl_loc(e)};
	}
}

static int
tensor_operands(const Op *op)
{
	int n = 0;

	for (int i = 0; i < op->nargs; i++)
		n += op->args[i].v && op->args[i].v->type->kind == TY_TENSOR;
	return n;
}

static void
load_args(Loader *L, Case *c, Run *r, const yaml_node_t *n)
{
	yl_want(L, n, YAML_MAPPING_NODE, "args");
	yl_free_keys(L, n, "args");
	r->nargs = yl_npairs(n);
	r->args = arena_alloc(L->arena, sizeof *r->args * (size_t)(r->nargs + 1));
	for (int i = 0; i < r->nargs; i++) {
		yaml_node_t *k = yl_pair_key(L, n, i), *v = yl_pair_val(L, n, i);
		PlanArgs *pa = &r->args[i];
		int want;

		pa->r = op_result(L, c, yl_text(k), k);
		pa->loc = yl_loc(k);
		if (pa->r->def->kind != OP_CALL)
			yl_fail(L, yl_loc(k), "args: %%%s is not defined by a call",
				yl_text(k));
		yl_want(L, v, YAML_SEQUENCE_NODE, "args");
		want = tensor_operands(pa->r->def);
		if ((pa->n = yl_nitems(v)) != want)
			yl_fail(L, yl_loc(v), "args: the call defining %%%s has %d "
				"tensor operand%s, the list has %d", yl_text(k),
				want, want == 1 ? "" : "s", pa->n);
		for (int j = 0; j < pa->n && j < 64; j++) {
			yaml_node_t *w = yl_item(L, v, j);
			const char *s = scalar(L, w, "args");
			if (!strcmp(s, "copy"))
				pa->copy |= (uint64_t)1 << j;
			else if (strcmp(s, "share"))
				yl_fail(L, yl_loc(w), "args: unknown word '%s' "
					"(expected copy or share)", s);
		}
		if (pa->n > 64)
			yl_fail(L, yl_loc(v), "args: more than 64 tensor operands");
	}
}

/* A block argument of a body with branches, named by the key k. */
static Value *
block_arg(Loader *L, Case *c, const yaml_node_t *k, const char *what)
{
	Value *a = value_named(L, c, yl_text(k), k);

	if (!is_block_arg(a))
		yl_fail(L, yl_loc(k), "%s: %%%s is not a block argument", what,
			yl_text(k));
	return a;
}

/* One word per incoming branch of a's block (or one for all of them):
 * the share bits. */
static uint64_t
edge_words(Loader *L, const Value *a, const yaml_node_t *v, const char *what)
{
	int n = a->owner->npreds, nw;
	uint64_t bits = 0;

	if (n > 64)
		yl_fail(L, yl_loc(v), "%s: ^%s has more than 64 incoming "
			"branches", what, a->owner->label);
	nw = v->type == YAML_SCALAR_NODE ? 1 : yl_nitems(v);
	if (v->type != YAML_SCALAR_NODE) {
		yl_want(L, v, YAML_SEQUENCE_NODE, what);
		if (nw != n)
			yl_fail(L, yl_loc(v), "%s: ^%s has %d incoming branch%s, "
				"the list has %d", what, a->owner->label, n,
				n == 1 ? "" : "es", nw);
	}
	for (int p = 0; p < n; p++) {
		const yaml_node_t *w = v->type == YAML_SCALAR_NODE ? v
				       : yl_item(L, v, p);
		const char *s = scalar(L, w, what);
		if (!strcmp(s, "share"))
			bits |= (uint64_t)1 << p;
		else if (strcmp(s, "copy"))
			yl_fail(L, yl_loc(w), "%s: unknown word '%s' (expected "
				"share or copy)", what, s);
	}
	return bits;
}

/* `blockargs: {A: share, B: [share, copy]}` */
static void
load_blockargs(Loader *L, Case *c, Run *r, const yaml_node_t *n)
{
	yl_want(L, n, YAML_MAPPING_NODE, "blockargs");
	yl_free_keys(L, n, "blockargs");
	r->nedges = yl_npairs(n);
	r->edges = arena_alloc(L->arena, sizeof *r->edges * (size_t)(r->nedges + 1));
	for (int i = 0; i < r->nedges; i++) {
		yaml_node_t *k = yl_pair_key(L, n, i), *v = yl_pair_val(L, n, i);
		PlanEdges *pe = &r->edges[i];

		pe->a = block_arg(L, c, k, "blockargs");
		pe->loc = yl_loc(k);
		pe->n = pe->a->owner->npreds;
		pe->share = edge_words(L, pe->a, v, "blockargs");
	}
}

/* `yields: {R: share | copy}`: an if or a select result shares the buffer
 * of what it takes, or gets a copy (appended to r->edges, one edge). */
static void
load_yields(Loader *L, Case *c, Run *r, const yaml_node_t *n)
{
	int m;
	PlanEdges *e;

	yl_want(L, n, YAML_MAPPING_NODE, "yields");
	yl_free_keys(L, n, "yields");
	m = yl_npairs(n);
	e = arena_alloc(L->arena, sizeof *e * (size_t)(r->nedges + m + 1));
	if (r->nedges)
		memcpy(e, r->edges, sizeof *e * (size_t)r->nedges);
	for (int i = 0; i < m; i++) {
		yaml_node_t *k = yl_pair_key(L, n, i), *v = yl_pair_val(L, n, i);
		PlanEdges *pe = &e[r->nedges + i];
		const char *s;

		pe->a = value_named(L, c, yl_text(k), k);
		if (!is_share_result(pe->a))
			yl_fail(L, yl_loc(k), "yields: %%%s is not a tensor result "
				"of an if or a select", yl_text(k));
		pe->loc = yl_loc(k);
		pe->n = 1;
		s = scalar(L, v, "yields");
		if (!strcmp(s, "share"))
			pe->share = 1;
		else if (strcmp(s, "copy"))
			yl_fail(L, yl_loc(v), "yields: unknown word '%s' (expected "
				"share or copy)", s);
	}
	r->edges = e;
	r->nedges += m;
}

const char *const plan_keys[PK_COUNT + 1] = {
	"plan", "free", "anchor", "hoist", "args", "blockargs", "yields", NULL,
};

void
runs_load_plan(Loader *L, Case *c, Run *r, yaml_node_t *const *vals)
{
	if (vals[PK_PLAN])
		load_plan(L, c, r, vals[PK_PLAN]);
	if (vals[PK_FREE])
		load_free(L, c, r, vals[PK_FREE]);
	if (vals[PK_ANCHOR])
		load_anchor(L, c, r, vals[PK_ANCHOR]);
	if (vals[PK_HOIST])
		load_hoist(L, c, r, vals[PK_HOIST]);
	if (vals[PK_ARGS])
		load_args(L, c, r, vals[PK_ARGS]);
	if (vals[PK_BLOCKARGS])
		load_blockargs(L, c, r, vals[PK_BLOCKARGS]);
	if (vals[PK_YIELDS])
		load_yields(L, c, r, vals[PK_YIELDS]);
}

bool
run_has_plan(const Run *r)
{
	return r->nplan || r->nfrees || r->nanchors || r->nhoists || r->nargs ||
	       r->nedges;
}

/* "R:share,copy" (after `args `): how the call defining %R passes its
 * tensor operands, one word each. */
static Forced
args_decision(Loader *L, Case *c, const char *s, const yaml_node_t *e)
{
	const char *colon = strchr(s, ':'), *w;
	Forced d = {NULL, NULL, yl_loc(e), NULL, false, NULL};
	int n = 0, want;

	if (!colon || colon == s)
		yl_fail(L, yl_loc(e), "expected 'args RESULT:share,...', got "
			"'args %s'", s);
	d.result = op_result(L, c, arena_strndup(L->arena, s,
						 (size_t)(colon - s)), e);
	if (d.result->def->kind != OP_CALL)
		yl_fail(L, yl_loc(e), "args: %%%s is not defined by a call",
			d.result->name);
	d.result = d.result->def->res[0];
	for (w = colon + 1;; w++, n++) {
		size_t len = strcspn(w, ",");
		if (!((len == 4 && !strncmp(w, "copy", 4)) ||
		      (len == 5 && !strncmp(w, "share", 5))))
			yl_fail(L, yl_loc(e), "args: unknown word '%.*s' (expected "
				"copy or share)", (int)len, w);
		if (!w[len])
			break;
		w += len;
	}
	want = tensor_operands(d.result->def);
	if (n + 1 != want)
		yl_fail(L, yl_loc(e), "args: the call defining %%%s has %d tensor "
			"operand%s, the list has %d", d.result->name, want,
			want == 1 ? "" : "s", n + 1);
	d.words = arena_strdup(L->arena, colon + 1);
	return d;
}

/* A lifetime culprit, `free V:after R`, `hoist V` or `anchor E:R` (s),
 * its names checked. */
static Forced
lifetime_culprit(Loader *L, Case *c, const char *s, const yaml_node_t *e)
{
	Forced d = {NULL, NULL, yl_loc(e), NULL, false, arena_strdup(L->arena, s)};
	const char *a = strchr(s, ' ') + 1, *colon = strchr(a, ':');
	bool free = !strncmp(s, "free ", 5), hoist = !strncmp(s, "hoist ", 6);
	const char *second = !colon ? NULL : free ? (!strncmp(colon + 1, "after ",
						    6) ? colon + 7 : NULL)
			     : colon + 1;

	if (hoist && !colon && *a) {
		d.result = value_named(L, c, a, e);
		return d;
	}
	if (hoist || !colon || colon == a || !second || !*second)
		yl_fail(L, yl_loc(e), "culprits: expected '%s', got '%s'", hoist ?
			"hoist VALUE" : free ? "free VALUE:after RESULT" :
			"anchor EMPTY:RESULT", s);
	d.result = value_named(L, c, arena_strndup(L->arena, a,
						   (size_t)(colon - a)), e);
	value_named(L, c, second, e);
	return d;
}

static bool
is_lifetime_word(const char *s)
{
	return !strncmp(s, "free ", 5) || !strncmp(s, "hoist ", 6) ||
	       !strncmp(s, "anchor ", 7);
}

/* A list of "R:OP" / "R:new" / "args R:share" strings (culprits,
 * decisions); culprits may also name the plan's frees, hoists and
 * anchors. */
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
		Value *rv;

		if (!strncmp(s, "args ", 5)) {
			d[i] = args_decision(L, c, s + 5, e);
			continue;
		}
		if (!strcmp(what, "culprits") && is_lifetime_word(s)) {
			d[i] = lifetime_culprit(L, c, s, e);
			continue;
		}
		if (!colon || colon == s || !colon[1])
			yl_fail(L, yl_loc(e), "%s: expected 'RESULT:OPERAND', "
				"'RESULT:new' or 'args RESULT:share,...', got '%s'",
				what, s);
		r = arena_strndup(L->arena, s, (size_t)(colon - s));
		if ((rv = loader_value(L, c, NULL, r)) &&
		    (is_block_arg(rv) || is_share_result(rv)) &&
		    (!strncmp(colon + 1, "share", 5) || !strncmp(colon + 1, "copy", 4))) {
			d[i] = (Forced){rv, NULL, yl_loc(e),
					arena_strdup(L->arena, colon + 1), true, NULL};
			continue;
		}
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

/* A command or tool a case file names runs only with the user's consent
 * (trust.c, docs/trust.md): without it, the error shows what was refused
 * and how to allow it. */
static void
check_consent(Loader *L, const Strategy *s, const yaml_node_t *at)
{
	const char *cmd = strategy_command(s);

	if (!cmd || (L->flags & CASE_TRUSTED) || trust_file(L->file))
		return;
	yl_fail(L, yl_loc(at), "this run would run the %s '%s' that the case "
		"file names; bufdiff runs a case file's commands only with "
		"--allow-exec, or --trust DIR for a directory that holds the file",
		s->kind == STRAT_EXEC || s->kind == STRAT_EXEC_MLIR ? "command" :
		"tool", cmd);
}

static void
load_choice(Loader *L, Run *r, yaml_node_t *strat, yaml_node_t *sched,
	    yaml_node_t *verdict)
{
	const char *s;

	if (strat && !(r->strategy = strategy_parse(scalar(L, strat, "strategy"))))
		yl_fail(L, yl_loc(strat), "unknown strategy '%s' (see bufdiff "
			"strategies)", yl_text(strat));
	if (strat)
		check_consent(L, r->strategy, strat);
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

const char *
pipeline_bad_char(const char *p)
{
	for (; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || strchr(" _-.,=(){}:+/\"@*[]", *p)))
			return p;
	return NULL;
}

/* Where byte `off` of scalar n's value is in the file, when the file
 * spells the value unchanged on one line (plain, or quoted without
 * escapes); else where the value starts. */
static Loc
scalar_char_loc(Loader *L, const yaml_node_t *n, size_t off)
{
	Loc at = yl_loc(n);
	const char *raw = L->text + n->start_mark.index;
	int q = n->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
		n->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE;

	if (n->start_mark.line == n->end_mark.line &&
	    (q || n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE) &&
	    !memcmp(raw + q, yl_text(n), off + 1))
		at.col += (int)off + q;
	return at;
}

/* `pipeline: P`: a pass pipeline for an mlir-pipeline strategy's tool,
 * one argv element (`--pass-pipeline=builtin.module(P)`). */
static void
load_pipeline(Loader *L, Run *r, const yaml_node_t *k, const yaml_node_t *v)
{
	const char *p, *bad;

	yl_want(L, v, YAML_SCALAR_NODE, "pipeline");
	p = yl_text(v);
	if (!*p || yl_is_null(v))
		yl_fail(L, yl_loc(v), "pipeline: empty pass pipeline");
	if ((bad = pipeline_bad_char(p))) {
		unsigned char ch = (unsigned char)*bad;
		if (ch > ' ' && ch < 0x7f)
			yl_fail(L, scalar_char_loc(L, v, (size_t)(bad - p)),
				"pipeline: '%c' cannot be part of a pass pipeline",
				ch);
		yl_fail(L, scalar_char_loc(L, v, (size_t)(bad - p)),
			"pipeline: byte 0x%02x cannot be part of a pass pipeline",
			ch);
	}
	if (!r->strategy || r->strategy->kind != STRAT_PIPELINE)
		yl_fail(L, yl_loc(k), "pipeline: only an mlir-pipeline strategy "
			"runs a pass pipeline (this run's strategy is %s)",
			r->strategy ? r->strategy->name : "copy-all");
	r->pipeline = arena_strdup(L->arena, p);
}

/* `race: racy-read | miscompile`: what an MLIR strategy's differing
 * outputs are (issue 23 item 4). */
static void
load_race(Loader *L, Run *r, const yaml_node_t *v)
{
	const char *s = scalar(L, v, "race");

	if (!strcmp(s, "racy-read"))
		r->race = 1;
	else if (!strcmp(s, "miscompile"))
		r->race = -1;
	else
		yl_fail(L, yl_loc(v), "race: '%s' is not racy-read or "
			"miscompile", s);
}

/* dir (its first ndir bytes) joined with path (path alone when absolute
 * or when dir is "."), in the arena (which longjmps when out of
 * memory). */
static const char *
path_join(Loader *L, const char *dir, size_t ndir, const char *path)
{
	char *s;

	if (path[0] == '/' || (ndir == 1 && dir[0] == '.'))
		return arena_strdup(L->arena, path); /* (path: the YAML's) */
	if (!strcmp(path, "."))
		return arena_strndup(L->arena, dir, ndir);
	s = arena_alloc(L->arena, ndir + strlen(path) + 2);
	memcpy(s, dir, ndir);
	s[ndir] = '/';
	strcpy(s + ndir + 1, path);
	return s;
}

/* Is dir the current directory?  (Then a command runs as it is: the
 * reducer's candidates, which carry the original's workdir, ask the same
 * command, and its cached answer.) */
static bool
is_cwd(const char *dir)
{
	char *a, *b;
	bool same;

	if (!strcmp(dir, "."))
		return true;
	a = realpath(dir, NULL);
	b = a ? realpath(".", NULL) : NULL;
	same = a && b && !strcmp(a, b);
	free(a); /* (realpath's malloc) */
	free(b);
	return same;
}

/* A command the run's strategy names runs in the case file's directory,
 * or in `workdir:` taken from there (docs/external.md), so that `check`
 * finds a case's tools from anywhere.  Stdin and in-memory cases have
 * the current directory. */
static void
load_workdir(Loader *L, Run *r, const yaml_node_t *key, const yaml_node_t *v)
{
	const char *file = L->file ? L->file : "", *slash = strrchr(file, '/');
	const char *w = v ? scalar(L, v, "workdir") : ".";

	if (!r->strategy || !strategy_command(r->strategy)) {
		if (v)
			yl_fail(L, yl_loc(key), "workdir: only for a run whose "
				"strategy runs a command (exec:CMD, exec-mlir:CMD, "
				"mlir:TOOL, mlir-pipeline:TOOL)");
		return;
	}
	if (!*w || strlen(w) > 4096 || strchr(w, '\n'))
		yl_fail(L, yl_loc(v), "workdir: '%s' is not a directory path", w);
	if (!slash)
		r->workdir = path_join(L, ".", 1, w);
	else
		r->workdir = path_join(L, file, slash == file ? 1 : (size_t)(slash - file), w);
	if (is_cwd(r->workdir))
		r->workdir = NULL; /* one command text wherever the case came from */
}

static void
load_run(Loader *L, Case *c, Run *r, const yaml_node_t *n, int no)
{
	static const char *const keys[] = {
		"strategy", "plan", "free", "schedule", "verdict", "outputs",
		"blame", "memory", "culprits", "decisions", "anchor", "hoist",
		"args", "blockargs", "yields", "pipeline", "race", "workdir",
		"limit", NULL};
	enum { STRAT, PLAN, FREE, SCHED, VERDICT, OUTS, BLAME, MEM, CULP, DEC,
	       ANCHOR, HOIST, ARGS, BLOCKARGS, YIELDS, PIPE, RACE, WORKDIR,
	       LIMIT };
	yaml_node_t *v[LIMIT + 1], *kn[LIMIT + 1], *pk[PK_COUNT];
	char label[32];

	yl_want(L, n, YAML_MAPPING_NODE, "runs entry");
	yl_keys(L, n, keys, "run", v, kn);
	r->loc = yl_loc(n);
	r->strategy = NULL;
	for (int k = 0; k < MS_COUNT; k++)
		r->memory[k] = -1;
	load_choice(L, r, v[STRAT], v[SCHED], v[VERDICT]);
	if (v[PIPE])
		load_pipeline(L, r, kn[PIPE], v[PIPE]);
	load_workdir(L, r, kn[WORKDIR], v[WORKDIR]);
	pk[PK_PLAN] = v[PLAN];
	pk[PK_FREE] = v[FREE];
	pk[PK_ANCHOR] = v[ANCHOR];
	pk[PK_HOIST] = v[HOIST];
	pk[PK_ARGS] = v[ARGS];
	pk[PK_BLOCKARGS] = v[BLOCKARGS];
	pk[PK_YIELDS] = v[YIELDS];
	runs_load_plan(L, c, r, pk);
	if (v[OUTS]) {
		fmt_snprintf(label, sizeof label, "run %d ", no);
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
	if (v[RACE])
		load_race(L, r, v[RACE]);
	if (v[LIMIT]) { /* no verdict then: the run is not judged */
		r->limit = arena_strdup(L->arena, scalar(L, v[LIMIT], "limit"));
		if (v[VERDICT] || v[OUTS] || v[BLAME] || v[CULP])
			yl_fail(L, yl_loc(kn[LIMIT]), "limit: a run that stops "
				"at a limit has no verdict, outputs, blame or "
				"culprits");
	}
}

void
runs_load(Loader *L, Case *c, const yaml_node_t *n)
{
	yl_want(L, n, YAML_SEQUENCE_NODE, "runs");
	c->nruns = yl_nitems(n);
	/* each run keeps its buffer program and outputs until the report */
	if (c->nruns > MAX_RUNS)
		yl_fail(L, yl_loc(n), "a case holds at most %d runs, this one %d",
			MAX_RUNS, c->nruns);
	c->runs = arena_alloc(L->arena, sizeof *c->runs * (size_t)(c->nruns + 1));
	for (int i = 0; i < c->nruns; i++) {
		yaml_node_t *e = yl_item(L, n, i);
		int same = i - 1;

		/* an alias of an earlier run is that run, parsed once (a
		 * run's parts are never written after loading) */
		while (same >= 0 && yl_item(L, n, same) != e)
			same--;
		if (same >= 0)
			c->runs[i] = c->runs[same];
		else
			load_run(L, c, &c->runs[i], e, i + 1);
	}
}

/* Apply run r's forced decisions to ds (a bufferizer Plan). */
int
run_plan_apply(const Run *r, Decisions *ds, Diag *err)
{
	Plan pl = {.nitems = r->nplan, .nfrees = r->nfrees,
		   .anchors = r->anchors, .nanchors = r->nanchors,
		   .hoists = r->hoists, .nhoists = r->nhoists,
		   .args = r->args, .nargs = r->nargs,
		   .edges = r->edges, .nedges = r->nedges};
	int rc;

	pl.items = mem_alloc((size_t)(r->nplan + 1) * sizeof *pl.items);
	pl.frees = mem_alloc((size_t)(r->nfrees + 1) * sizeof *pl.frees);
	if (!pl.items || !pl.frees) {
		mem_free(pl.items);
		mem_free(pl.frees);
		return diag_set(err, r->loc, "out of memory");
	}
	for (int i = 0; i < r->nplan; i++)
		pl.items[i] = (PlanItem){r->plan[i].result, r->plan[i].operand,
					 r->plan[i].loc};
	for (int i = 0; i < r->nfrees; i++)
		pl.frees[i] = (PlanFree){r->frees[i].value,
					 r->frees[i].after->def, r->frees[i].loc};
	rc = plan_apply(ds, &pl, err);
	mem_free(pl.items);
	mem_free(pl.frees);
	return rc;
}
