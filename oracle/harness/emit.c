/*
 * emit.c: writing a case file back as YAML (docs/reduce.md): strings
 * from outside through interp/escape.c's yaml_scalar, tensor data that
 * reads back to the same bits, and a run's keys (strategy, plan, free, schedule) and results (verdict,
 * blame, culprits).  Used by the reducer; what it writes is an ordinary
 * case (docs/cases.md).
 */
#define _DEFAULT_SOURCE /* realpath */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "escape.h"
#include "harness.h"
#include "cases.h"


/* ---------------------------------------------------------------- data */

/* One element, read back to the same bits: YAML's .nan/.inf, and floats
 * always with a '.' or exponent so -0.0 stays negative. */
static void
emit_elem(Str *b, const Tensor *t, int64_t i)
{
	char buf[64];
	double f;

	if (!dtype_is_float(t->dt)) {
		tensor_elem_str(t, i, buf, sizeof buf);
		str_puts(b, buf);
		return;
	}
	f = tensor_getf(t, i);
	if (isnan(f)) {
		str_puts(b, ".nan");
		return;
	}
	if (isinf(f)) {
		str_puts(b, f > 0 ? ".inf" : "-.inf");
		return;
	}
	tensor_elem_str(t, i, buf, sizeof buf);
	str_puts(b, buf);
	if (!strpbrk(buf, ".e"))
		str_puts(b, ".0");
}

/* Input data for a param of type `ty`: a number for scalars and rank 0, a
 * flat row-major list, or {data, shape} when the type has `?` dims. */
void
emit_data(Str *b, const Tensor *t, const Type *ty)
{
	bool dyn = ty->kind == TY_TENSOR && !type_is_static(ty);

	if (ty->kind != TY_TENSOR || ty->rank == 0) {
		emit_elem(b, t, 0);
		return;
	}
	str_puts(b, dyn ? "{data: [" : "[");
	for (int64_t i = 0; i < t->n; i++) {
		if (i)
			str_puts(b, ", ");
		emit_elem(b, t, i);
	}
	str_puts(b, "]");
	if (!dyn)
		return;
	str_puts(b, ", shape: [");
	for (int k = 0; k < t->rank; k++)
		str_printf(b, k ? ", %lld" : "%lld", (long long)t->dims[k]);
	str_puts(b, "]}");
}

/* `  name: DATA` lines for the params of f. */
void
emit_inputs(Str *b, const Func *f, Tensor *const *inputs)
{
	for (int i = 0; i < f->nparams; i++) {
		str_printf(b, "  %s: ", f->params[i]->name);
		emit_data(b, inputs[i], f->params[i]->type);
		str_puts(b, "\n");
	}
}

/* ---------------------------------------------------------------- runs */

const char *
emit_ref(const Program *p, const Func *entry, const Func *in, const Value *v,
	 char *buf, size_t n)
{
	if (!v->func || runs_value(p, in, entry, v->name) == v)
		fmt_snprintf(buf, n, "%s", v->name);
	else
		fmt_snprintf(buf, n, "@%s/%s", v->func->name, v->name);
	return buf;
}

/* v's name as a YAML scalar (quoted when qualified: '@' starts no plain
 * scalar; a TIR name holds letters, digits, `_` and `.` only). */
static void
put_ref(Str *b, const Program *p, const Func *entry, const Func *in,
	const Value *v)
{
	char buf[200];

	emit_ref(p, entry, in, v, buf, sizeof buf);
	str_printf(b, buf[0] == '@' ? "'%s'" : "%s", buf);
}

/* v, a value of another program (the case being reduced), in p: the value
 * of the same name in the function of the same name, or NULL. */
static const Value *
counterpart(const Program *p, const Value *v)
{
	const Func *f = v && v->func ? prog_func(p, v->func->name) : NULL;

	return f ? prog_value(p, f, v->name) : NULL;
}

/* "KEY: VALUE" of a map entry (VALUE in KEY's function first). */
static void
put_pair(Str *b, const Program *p, const Func *entry, const Value *k,
	 const char *sep, const Value *v)
{
	put_ref(b, p, entry, NULL, k);
	str_puts(b, sep);
	put_ref(b, p, entry, k->func, v);
}

/* anchor, hoist and args entries whose values still exist in p (a reduced
 * program that breaks one is rejected by the loader, like any other). */
static void
emit_run_extras(Str *b, const Run *r, const Program *p, const Func *entry)
{
	int n = 0;

	for (int i = 0; i < r->nanchors; i++) {
		const Value *e = counterpart(p, r->anchors[i].e);
		const Value *rr = counterpart(p, r->anchors[i].r);
		if (!e || !rr)
			continue;
		str_puts(b, n++ ? ", " : "    anchor: {");
		put_pair(b, p, entry, e, ": ", rr);
	}
	if (n)
		str_puts(b, "}\n");
	n = 0;
	for (int i = 0; i < r->nhoists; i++) {
		const Value *v = counterpart(p, r->hoists[i].v);
		if (!v)
			continue;
		str_puts(b, n++ ? ", " : "    hoist: [");
		put_ref(b, p, entry, NULL, v);
	}
	if (n)
		str_puts(b, "]\n");
	n = 0;
	for (int i = 0; i < r->nargs; i++) {
		const PlanArgs *pa = &r->args[i];
		const Value *v = counterpart(p, pa->r);
		if (!v)
			continue;
		str_puts(b, n++ ? ", " : "    args: {");
		put_ref(b, p, entry, NULL, v);
		str_puts(b, ": [");
		for (int k = 0; k < pa->n; k++)
			str_printf(b, "%s%s", k ? ", " : "",
				   (pa->copy >> k) & 1 ? "copy" : "share");
		str_puts(b, "]");
	}
	if (n)
		str_puts(b, "}\n");
}

/* `workdir:` of a run whose strategy runs a command: where it ran (dir,
 * or the current directory), as an absolute path, so the case written
 * anywhere runs the command where the run did (docs/external.md). */
void
emit_workdir(Str *b, const Strategy *s, const char *dir)
{
	char *abs;

	if (!s || !strategy_command(s))
		return;
	abs = realpath(dir ? dir : ".", NULL);
	str_puts(b, "    workdir: ");
	yaml_scalar(b, abs ? abs : dir ? dir : ".");
	str_puts(b, "\n");
	free(abs); /* (realpath's malloc) */
}

/* The run's keys: strategy, plan, free, anchor, hoist and args entries
 * whose values still exist in p, schedule.  Starts a list item ("  - "). */
void
emit_run_head(Str *b, const Run *r, const Program *p, const Func *entry)
{
	int n = 0;

	str_puts(b, "  - strategy: "); /* (exec:CMD: any characters) */
	yaml_scalar(b, r->strategy ? r->strategy->name : "copy-all");
	str_puts(b, "\n");
	if (r->pipeline) {
		str_puts(b, "    pipeline: ");
		yaml_scalar(b, r->pipeline);
		str_puts(b, "\n");
	}
	emit_workdir(b, r->strategy, r->workdir);
	for (int i = 0; i < r->nplan; i++) {
		const Forced *f = &r->plan[i];
		const Value *res = counterpart(p, f->result);
		const Value *op = counterpart(p, f->operand);
		if (!res || (f->operand && !op))
			continue;
		str_puts(b, n++ ? ", " : "    plan: {");
		if (op) {
			put_pair(b, p, entry, res, ": ", op);
		} else {
			put_ref(b, p, entry, NULL, res);
			str_puts(b, ": new");
		}
	}
	if (n)
		str_puts(b, "}\n");
	n = 0;
	for (int i = 0; i < r->nfrees; i++) {
		const Value *v = counterpart(p, r->frees[i].value);
		const Value *after = counterpart(p, r->frees[i].after);
		if (!v || !after)
			continue;
		str_puts(b, n++ ? ", " : "    free: {");
		put_ref(b, p, entry, NULL, v);
		str_puts(b, ": after ");
		put_ref(b, p, entry, NULL, after);
	}
	if (n)
		str_puts(b, "}\n");
	emit_run_extras(b, r, p, entry);
	if (r->has_schedule) {
		char buf[48];
		str_printf(b, "    schedule: %s\n",
			   schedule_name(r->schedule, buf, sizeof buf));
	}
}

/* ", key: name" for v when it is a value of p (not one the lowering
 * made: `%x.out`). */
static void
blame_key(Str *b, const Program *p, const Func *entry, const char *key,
	  const Value *v)
{
	if (!v || !v->func || v->id < 0 || v->id >= p->nvalues ||
	    p->values[v->id] != v)
		return;
	str_printf(b, ", %s: ", key);
	put_ref(b, p, entry, NULL, v);
}

/* What run o showed on program p: verdict, up to `nblame` blame records
 * (the first distinct violations), and every culprit. */
void
emit_run_result(Str *b, const Program *p, const Func *entry,
		const RunOut *o, int nblame)
{
	char buf[200];
	int n = 0;

	str_printf(b, "    verdict: %s\n", verdict_names[o->verdict]);
	for (int i = 0; i < o->ex.nviols && n < nblame; i++) {
		const Violation *v = &o->ex.viols[i];
		if (i && v->kind == o->ex.viols[i - 1].kind &&
		    v->victim == o->ex.viols[i - 1].victim)
			continue;
		str_puts(b, n++ ? "" : "    blame:\n");
		str_printf(b, "      - {kind: %s", vkind_names[v->kind]);
		blame_key(b, p, entry, "writer", inst_value(v->writer));
		blame_key(b, p, entry, "victim", v->victim);
		blame_key(b, p, entry, "reader", inst_value(v->at));
		str_puts(b, "}\n");
	}
	str_puts(b, "    culprits: [");
	for (int i = 0; i < o->nlculprits; i++) /* the plan's frees, ... */
		str_printf(b, "%s'%s'", i ? ", " : "", plan_lifetime_str(&o->ds,
			   o->lculprits[i], false, buf, sizeof buf));
	for (int i = 0; i < o->nculprits; i++) {
		const Value *v = o->culprits[i];
		char dec[512];
		const char *colon = strchr(choice_str(&o->ds, v, dec,
						      sizeof dec), ':');
		str_printf(b, "%s'%s%s%s'", i ? ", " : "",
			   decision_is_call(v) ? "args " : "",
			   emit_ref(p, entry, NULL, v, buf, sizeof buf),
			   colon ? colon : "");
	}
	str_puts(b, "]\n");
	if (o->race)
		str_printf(b, "    race: %s\n", o->race > 0 ? "racy-read"
							  : "miscompile");
}
