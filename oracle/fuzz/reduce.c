/*
 * reduce.c: a failing run -> the smallest case that still fails the same
 * way (docs/reduce.md).
 *
 * Text-level, like C-Reduce: every candidate is an edit of the current
 * program's canonical text (one op a line, regions spanning lines), written
 * out as a whole case file and loaded back through case_parse, so the plan,
 * the inputs and the names are checked exactly as a user's case would be.
 * A candidate is accepted when it verifies, its reference run succeeds, it
 * is smaller (ops, then tensor elements, then text), and the same run still
 * fails the same way: the same verdict, the same first violation kind seen
 * by the same kind of op, every original culprit decision ("@f/y:x")
 * among its culprits, or, without culprits, the same victim.  Verdicts are
 * cached by candidate text.
 *
 * Passes, repeated to a fixpoint within a candidate budget: expose an
 * intermediate as the entry's only result (dropping dead ops); structural
 * inlining (for, if, async, call); ddmin over ops with use-repair; halving
 * a static dim size.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "fuzz.h"
#include "cases.h"
#include "mlir.h"
#include "harness.h"

/* ------------------------------------------------------------- state */

/* Smaller is better: ops first, then tensor elements, then text. */
typedef struct Metric {
	int nops;
	int64_t elems;
	size_t len;
} Metric;

typedef struct Red {
	const RunConfig *cfg;   /* every candidate's runs; its reduce_budget */
	int budget;             /* candidates at most */
	const Case *orig;
	const Run *run;
	Diag *d;
	ReduceStats *st;
	/* the failure's signature */
	Verdict verdict;
	char **culprits;        /* "@f/y:x" */
	int nculprits;
	int vkind;              /* the first violation's kind, or -1 */
	int reader;             /* ... the kind of the op that saw it, or -1 */
	char *victim;           /* ... its victim, "@f/x", or NULL */
	char *tool;             /* a tool-error: its status up to the first
				 * ':' ("exit 1", "answer"), else NULL */
	/* the current (smallest) case */
	Case *c;
	char *text;             /* canonical program text of c->prog */
	char *inputs;           /* "  x: [...]\n" lines */
	Metric m;
	/* text as lines, and where each op and function sits */
	char *linebuf;
	char **lines;
	int nlines;
	Op **ops;               /* by Op.seq */
	int *opline, *opend;    /* by Op.seq: first line, one past the last */
	int *fline, *fend;      /* by function index */
	Cache cache;
	int fresh;              /* counter for fresh names */
	int64_t trip_cap;       /* candidates' loop-trip limit, 0: the case's */
} Red;

/* A candidate whose while no longer ends would spin to the case's trip
 * limit (10^7, seconds a run): candidates get this one instead when the
 * original run stays within it. */
#define REDUCE_TRIP_CAP 100000

static int
oom(Red *r)
{
	return diag_set(r->d, (Loc){0, 0}, "out of memory");
}

/* Whether allocations fail now: a failure deep in the oracle (its culprit
 * bisection) may show only as a different verdict. */
static bool
allocs_fail(void)
{
	void *p = mem_alloc(1);

	mem_free(p);
	return !p;
}

/* A rejected candidate (0), unless the reason was out of memory (-1). */
static int
reject(Red *r, const Diag *why)
{
	return strstr(why->msg, "out of memory") ? oom(r) : 0;
}

static Metric
metric(const Program *p, size_t len)
{
	Metric m = {p->nops, 0, len};

	for (int i = 0; i < p->nvalues; i++) {
		const Type *t = p->values[i]->type;
		if (t->kind == TY_TENSOR && type_is_static(t))
			m.elems += type_numel(t);
	}
	return m;
}

static bool
smaller(Metric a, Metric b)
{
	if (a.nops != b.nops)
		return a.nops < b.nops;
	if (a.elems != b.elems)
		return a.elems < b.elems;
	return a.len < b.len;
}

/* ------------------------------------------------------ runs and judging */

/* Reference + run `run` of c: 0 with *o filled (runout_clear it), 1 when
 * the reference or the run cannot execute (why), -1 out of memory. */
static int
evaluate(Red *r, const Case *c, int run, RunOut *o, Diag *why)
{
	Tensor **ref = NULL;
	int nref = 0;

	memset(o, 0, sizeof *o);
	int rr = ref_run(c->prog, c->entry, c->inputs, &c->lim, &ref, &nref,
			 why);

	if (rr < 0)
		return reject(r, why) ? -1 : 1;
	((Case *)c)->ref_failed = rr == 1 ? prog_op_at(c->prog, OP_ASSERT, why->loc)
				: NULL;
	diff_run(r->cfg, c, &c->runs[run], NULL, ref, nref, o);
	for (int i = 0; i < nref; i++)
		tensor_free(ref[i]);
	mem_free(ref);
	if (o->status == STATUS_BAD || o->skipped) {
		*why = o->err;
		if (o->skipped)
			snprintf(why->msg, sizeof why->msg, "%.400s", o->why);
		runout_clear(o);
		return reject(r, why) ? -1 : 1;
	}
	return 0;
}

static bool
failing(const RunOut *o)
{
	return o->verdict == VERDICT_DIVERGE || o->verdict == VERDICT_FAULT ||
	       o->verdict == VERDICT_TOOL_ERROR;
}

/* A tool-error's kind: its status up to the first ':' (line numbers in an
 * answer's message change as the program shrinks). */
static size_t
tool_kind_len(const RunOut *o)
{
	return strcspn(o->tool.status, ":");
}

/* A name of v's function qualified by it ("@f/x"; a culprit: "@f/y:x",
 * "@f/args y:share"), so that two helpers' %q0 are told apart. */
static const char *
qualified(const Value *v, const char *name, char *buf, size_t n)
{
	snprintf(buf, n, "@%s/%s", v->func ? v->func->name : "", name);
	return buf;
}

static const char *
culprit_name(const RunOut *o, const Value *v, char *buf, size_t n)
{
	char dec[512];

	return qualified(v, choice_str(&o->ds, v, dec, sizeof dec), buf, n);
}

static const char *
victim_name(const RunOut *o, char *buf, size_t n)
{
	const Value *v = o->ex.nviols ? o->ex.viols[0].victim : NULL;

	return v ? qualified(v, v->name, buf, n) : NULL;
}

/* The kind of the op at which o's first violation was seen, or -1. */
static int
reader_kind(const RunOut *o)
{
	const BInst *at = o->ex.nviols ? o->ex.viols[0].at : NULL;

	return at && at->op ? (int)at->op->kind : -1;
}

/* The original failure's signature, from its run. */
static int
set_signature(Red *r, const RunOut *o)
{
	char buf[200];
	const char *vn = victim_name(o, buf, sizeof buf);

	r->verdict = o->verdict;
	r->vkind = o->ex.nviols ? (int)o->ex.viols[0].kind : -1;
	r->reader = reader_kind(o);
	if (vn && !(r->victim = mem_strdup(vn)))
		return oom(r);
	r->culprits = mem_calloc((size_t)o->nculprits + 1, sizeof *r->culprits);
	if (!r->culprits)
		return oom(r);
	for (int i = 0; i < o->nculprits; i++, r->nculprits++) {
		culprit_name(o, o->culprits[i], buf, sizeof buf);
		if (!(r->culprits[i] = mem_strdup(buf)))
			return oom(r);
	}
	if (o->verdict == VERDICT_TOOL_ERROR) {
		size_t n = tool_kind_len(o);
		if (!(r->tool = mem_alloc(n + 1)))
			return oom(r);
		memcpy(r->tool, o->tool.status, n);
		r->tool[n] = 0;
	}
	return 0;
}

static bool
has_culprit(const RunOut *o, const char *name)
{
	char buf[200];

	for (int j = 0; j < o->nculprits; j++)
		if (!strcmp(culprit_name(o, o->culprits[j], buf, sizeof buf), name))
			return true;
	return false;
}

/* The failure kept: the same verdict, the same first violation's kind
 * seen by the same kind of op, every original culprit decision among the
 * candidate's; without culprits, the same victim.  (Shrinking a
 * transpose's dims until it no longer diverges but still faults is not
 * the same failure.) */
static bool
same_failure(const Red *r, const RunOut *o)
{
	char buf[200];
	const char *vn;

	if (!failing(o) || o->verdict != r->verdict)
		return false;
	if (r->tool || o->verdict == VERDICT_TOOL_ERROR)
		return r->tool && o->verdict == VERDICT_TOOL_ERROR &&
		       strlen(r->tool) == tool_kind_len(o) &&
		       !strncmp(r->tool, o->tool.status, tool_kind_len(o));
	if ((o->ex.nviols ? (int)o->ex.viols[0].kind : -1) != r->vkind ||
	    reader_kind(o) != r->reader)
		return false;
	for (int i = 0; i < r->nculprits; i++)
		if (!has_culprit(o, r->culprits[i]))
			return false;
	if (r->nculprits || r->vkind < 0)
		return true;
	vn = victim_name(o, buf, sizeof buf);
	return vn && r->victim ? !strcmp(vn, r->victim) : vn == r->victim;
}

/* ------------------------------------------------------ case text */

/* The case's own `limits:` (those below the defaults), kept in the
 * reduced case so that it fails the same way. */
static void
emit_limits(Str *b, const Limits *l)
{
	const Limits *d = &default_limits;

	if (l->max_trips == d->max_trips && l->max_elems == d->max_elems &&
	    l->max_bytes == d->max_bytes && l->max_depth == d->max_depth)
		return;
	str_printf(b, "limits: {trips: %lld, elements: %lld, bytes: %lld, "
		   "depth: %d}\n", (long long)l->max_trips,
		   (long long)l->max_elems, (long long)l->max_bytes,
		   l->max_depth);
}

/* The whole case file: program p's text `prog`, inputs, the run (with
 * its results when o is not NULL). */
static char *
case_text(const Red *r, const char *name, const char *about,
	  const char *prog, const char *inputs, const Program *p,
	  const RunOut *o, int nblame)
{
	const Func *entry = prog_func(p, r->orig->entry->name);
	Str b = {0};

	str_puts(&b, "case: ");
	emit_quoted(&b, name);
	if (about) {
		str_puts(&b, "\nabout: ");
		emit_quoted(&b, about);
	}
	str_puts(&b, "\nprogram: |\n");
	for (const char *s = prog; *s;) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		if (n)
			str_puts(&b, "  ");
		str_put(&b, s, n);
		str_puts(&b, "\n");
		s += n + (nl != NULL);
	}
	if (strcmp(r->orig->entry->name, "main")) {
		str_puts(&b, "entry: ");
		emit_quoted(&b, r->orig->entry->name);
		str_puts(&b, "\n");
	}
	emit_limits(&b, &r->orig->lim);
	if (*inputs) {
		str_puts(&b, "inputs:\n");
		str_puts(&b, inputs);
	}
	str_puts(&b, "runs:\n");
	emit_run_head(&b, r->run, p, entry);
	if (o)
		emit_run_result(&b, p, entry, o, nblame);
	return str_take(&b);
}

/* ------------------------------------------------------ lines and ops */

static void
index_free(Red *r)
{
	mem_free(r->linebuf);
	mem_free(r->lines);
	mem_free(r->ops);
	mem_free(r->opline);
	mem_free(r->opend);
	mem_free(r->fline);
	mem_free(r->fend);
	r->linebuf = NULL;
	r->lines = NULL;
	r->ops = NULL;
	r->opline = r->opend = r->fline = r->fend = NULL;
	r->nlines = 0;
}

static WalkAct
collect_op(Op *op, void *ctx)
{
	((Op **)ctx)[op->seq] = op;
	return WALK_GO;
}

/* One past the line that closes the brace opened on line l. */
static int
block_end(const Red *r, int l)
{
	int depth = 0;

	for (int j = l; j < r->nlines; j++) {
		for (const char *s = r->lines[j]; *s; s++)
			depth += (*s == '{') - (*s == '}');
		if (depth <= 0)
			return j + 1;
	}
	return r->nlines;
}

static bool
ends_with_brace(const char *s)
{
	size_t n = strlen(s);

	while (n && s[n - 1] == ' ')
		n--;
	return n && s[n - 1] == '{';
}

static bool
is_op_line(const char *s)
{
	while (*s == ' ')
		s++;
	return *s && *s != '}' && strncmp(s, "func ", 5) && strncmp(s, "//", 2);
}

/* An empty yield the printer leaves implicit (a forall body's, or that of
 * an op without results: an `if`, a launch) has no line of its own (an
 * empty range at line l). */
static int
skip_unprinted(Red *r, int k, int l)
{
	while (k < r->c->prog->nops) {
		const Op *op = r->ops[k], *owner = op->parent->parent;
		if (op->kind != OP_YIELD || op->nargs ||
		    (owner->kind != OP_FORALL && owner->nrtypes != 0))
			break;
		r->opline[k] = r->opend[k] = l;
		k++;
	}
	return k;
}

static int
split_lines(Red *r)
{
	int n = 1;

	if (!(r->linebuf = mem_strdup(r->text)))
		return oom(r);
	for (const char *s = r->linebuf; *s; s++)
		n += *s == '\n';
	if (!(r->lines = mem_calloc((size_t)n + 1, sizeof *r->lines)))
		return oom(r);
	for (char *s = r->linebuf, *nl; *s; s = nl + 1) {
		r->lines[r->nlines++] = s;
		if (!(nl = strchr(s, '\n')))
			break;
		*nl = 0;
	}
	return 0;
}

/* Lines, ops by seq and where each op and function sits, from r->text
 * (canonical: ops in pre-order, one a line, functions in order). */
static int
index_lines(Red *r)
{
	const Program *p = r->c->prog;
	size_t nops = (size_t)p->nops + 1, nf = (size_t)p->nfuncs + 1;
	int k = 0, f = 0;

	index_free(r);
	if (split_lines(r))
		return -1;
	r->ops = mem_calloc(nops, sizeof *r->ops);
	r->opline = mem_calloc(nops, sizeof *r->opline);
	r->opend = mem_calloc(nops, sizeof *r->opend);
	r->fline = mem_calloc(nf, sizeof *r->fline);
	r->fend = mem_calloc(nf, sizeof *r->fend);
	if (!r->ops || !r->opline || !r->opend || !r->fline || !r->fend)
		return oom(r);
	walk_prog(p, collect_op, r->ops);
	for (int l = 0; l < r->nlines; l++) {
		const char *s = r->lines[l];
		if (!strncmp(s, "func ", 5) && f < p->nfuncs) {
			r->fline[f] = l;
			r->fend[f++] = block_end(r, l);
		} else if (is_op_line(s) && k < p->nops) {
			k = skip_unprinted(r, k, l);
			r->opline[k] = l;
			r->opend[k++] = ends_with_brace(s) ? block_end(r, l) : l + 1;
		}
	}
	k = skip_unprinted(r, k, r->nlines);
	if (k != p->nops || f != p->nfuncs)
		return diag_set(r->d, (Loc){0, 0}, "reduce: the printed program "
				"does not match its ops");
	return 0;
}

/* Make the candidate (text, inputs, its case, metric) the current one. */
static int
adopt(Red *r, Case *c, char *text, const char *inputs, Metric m)
{
	char *in = mem_strdup(inputs);

	if (!in) {
		case_free(c);
		mem_free(text);
		return oom(r);
	}
	case_free(r->c);
	mem_free(r->text);
	mem_free(r->inputs);
	r->c = c;
	r->text = text;
	r->inputs = in;
	r->m = m;
	return index_lines(r);
}

/* Load a candidate case: 1 when it fails the same way (then *out holds
 * it), 0 when not, -1 out of memory. */
static int
judge(Red *r, const char *yaml, Case **out)
{
	Case *c = NULL;
	RunOut o;
	Diag why;
	int rc;

	*out = NULL;
	if (case_parse("candidate.yaml", yaml, strlen(yaml), 0, &c, &why)) {
		case_free(c);
		return reject(r, &why);
	}
	if (r->trip_cap && r->trip_cap < c->lim.max_trips)
		c->lim.max_trips = r->trip_cap;
	rc = evaluate(r, c, 0, &o, &why);
	if (rc) {
		case_free(c);
		return rc < 0 ? -1 : 0;
	}
	rc = same_failure(r, &o);
	runout_clear(&o);
	if (rc)
		*out = c;
	else
		case_free(c);
	return rc;
}

/* A candidate program text with inputs: 1 accepted (now current), 0
 * rejected, -1 out of memory. */
static int
try_candidate(Red *r, const char *prog, const char *inputs)
{
	Program *p;
	char *canon = NULL, *yaml = NULL;
	Case *c;
	Metric m;
	Diag why;
	bool acc;
	int rc;

	if (r->st->candidates >= r->budget)
		return 0;
	r->st->candidates++;
	if (!(p = tir_parse(prog, strlen(prog), (SrcMap){1, 0}, &why)))
		return reject(r, &why);
	if (tir_verify(p, &r->orig->lim, &why)) {
		prog_free(p);
		return reject(r, &why);
	}
	if (!(canon = tir_print(p))) {
		prog_free(p);
		return oom(r);
	}
	m = metric(p, strlen(canon));
	if (!smaller(m, r->m)) {
		prog_free(p);
		mem_free(canon);
		return 0;
	}
	yaml = case_text(r, "reduce/candidate", NULL, canon, inputs, p, NULL, 0);
	prog_free(p);
	if (!yaml) {
		mem_free(canon);
		return oom(r);
	}
	if (cache_get(&r->cache, yaml, &acc)) {
		r->st->cache_hits++;
		mem_free(canon);
		mem_free(yaml);
		return 0; /* an accepted one is never smaller than the current */
	}
	if ((rc = judge(r, yaml, &c)) < 0)
		mem_free(yaml);
	if (rc < 0 || cache_put(&r->cache, yaml, rc == 1)) {
		case_free(c);
		mem_free(canon);
		return oom(r);
	}
	if (rc == 1)
		return adopt(r, c, canon, inputs, m) ? -1 : 1;
	mem_free(canon);
	return 0;
}

/* ------------------------------------------------------------- edits */

/* `%from` -> `to` (a value "%a" or a literal), whole tokens only. */
typedef struct Sub {
	char *from, *to;
} Sub;

/* An edit of the current text: lines dropped or replaced, substitutions
 * everywhere.  `oom` sticks. */
typedef struct Edit {
	bool *drop;
	char **repl;
	Sub *subs;
	int nsubs, capsubs;
	bool oom;
} Edit;

static int
edit_init(Red *r, Edit *e)
{
	memset(e, 0, sizeof *e);
	e->drop = mem_calloc((size_t)r->nlines + 1, sizeof *e->drop);
	e->repl = mem_calloc((size_t)r->nlines + 1, sizeof *e->repl);
	if (e->drop && e->repl)
		return 0;
	mem_free(e->drop);
	mem_free(e->repl);
	return oom(r);
}

static void
edit_free(const Red *r, Edit *e)
{
	for (int i = 0; i < r->nlines; i++)
		mem_free(e->repl[i]);
	for (int i = 0; i < e->nsubs; i++) {
		mem_free(e->subs[i].from);
		mem_free(e->subs[i].to);
	}
	mem_free(e->subs);
	mem_free(e->drop);
	mem_free(e->repl);
	memset(e, 0, sizeof *e);
}

static void
edit_sub(Edit *e, const char *from, const char *to)
{
	Sub s = {mem_strdup(from), mem_strdup(to)};

	if (e->nsubs == e->capsubs) {
		int cap = e->capsubs ? 2 * e->capsubs : 8;
		Sub *n = mem_realloc(e->subs, (size_t)cap * sizeof *n);
		if (!n) {
			e->oom = true;
			mem_free(s.from);
			mem_free(s.to);
			return;
		}
		e->subs = n;
		e->capsubs = cap;
	}
	if (!s.from || !s.to)
		e->oom = true;
	e->subs[e->nsubs++] = s;
}

static void
edit_drop(Edit *e, int from, int to)
{
	for (int l = from; l < to; l++)
		e->drop[l] = true;
}

/* Replace line l by text (taken; NULL: out of memory). */
static void
edit_repl(Edit *e, int l, char *text)
{
	if (!text)
		e->oom = true;
	mem_free(e->repl[l]);
	e->repl[l] = text;
}

static bool
is_name_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '$' ||
	       c == '-';
}

/* s with every `%name` that has a substitution replaced. */
static void
put_subst(Str *b, const char *s, const Sub *subs, int nsubs)
{
	while (*s) {
		const char *q = s + 1;
		int i;
		if (*s != '%') {
			str_put(b, s++, 1);
			continue;
		}
		while (is_name_char((unsigned char)*q))
			q++;
		for (i = 0; i < nsubs; i++)
			if (strlen(subs[i].from) == (size_t)(q - s - 1) &&
			    !strncmp(subs[i].from, s + 1, (size_t)(q - s - 1)))
				break;
		if (i < nsubs)
			str_puts(b, subs[i].to);
		else
			str_put(b, s, (size_t)(q - s));
		s = q;
	}
}

static char *
edit_apply(const Red *r, const Edit *e)
{
	Str b = {0};

	for (int l = 0; l < r->nlines; l++) {
		if (e->drop[l])
			continue;
		put_subst(&b, e->repl[l] ? e->repl[l] : r->lines[l], e->subs,
			  e->nsubs);
		str_puts(&b, "\n");
	}
	return str_take(&b);
}

/* Try the edit (and free it). */
static int
try_edit(Red *r, Edit *e)
{
	char *text = e->oom ? NULL : edit_apply(r, e);
	int rc;

	edit_free(r, e);
	if (!text)
		return oom(r);
	rc = try_candidate(r, text, r->inputs);
	mem_free(text);
	return rc;
}

/* An operand as program text: "%a", "3", "0.5". */
static const char *
operand_text(const Operand *o, char *buf, size_t n)
{
	if (o->v)
		snprintf(buf, n, "%%%s", o->v->name);
	else if (!o->isfloat)
		snprintf(buf, n, "%lld", (long long)o->i);
	else if (o->f != o->f)
		snprintf(buf, n, "nan");
	else {
		snprintf(buf, n, "%.17g", o->f);
		if (!strpbrk(buf, ".eni"))
			strncat(buf, ".0", n - strlen(buf) - 1);
	}
	return buf;
}

/* Substitute each result of op by the matching operand of ops[]. */
static void
sub_results(Edit *e, const Op *op, const Operand *to, int n)
{
	char buf[96];

	for (int i = 0; i < op->nres && i < n; i++)
		edit_sub(e, op->res[i]->name, operand_text(&to[i], buf, sizeof buf));
}

static const Op *
terminator(const Block *b)
{
	return b->ops[b->nops - 1];
}

/* ------------------------------------------------ structural candidates */

/* `for` -> its inits. */
static int
try_for_inits(Red *r, const Op *op)
{
	Edit e;

	if (edit_init(r, &e))
		return -1;
	edit_drop(&e, r->opline[op->seq], r->opend[op->seq]);
	sub_results(&e, op, op->args + 3, op->nargs - 3);
	return try_edit(r, &e);
}

/* Keep the ops of block b in place of the region op (its first line to
 * its last); results -> b's yielded values; iv/iter args -> `args`. */
static int
try_keep_block(Red *r, const Op *op, const Block *b, const Operand *args,
	       int nargs)
{
	const Op *y = terminator(b);
	int first = b->nops > 1 ? r->opline[b->ops[0]->seq] : r->opline[y->seq];
	char buf[96];
	Edit e;

	if (edit_init(r, &e))
		return -1;
	edit_drop(&e, r->opline[op->seq], first);
	edit_drop(&e, r->opline[y->seq], r->opend[op->seq]);
	sub_results(&e, op, y->args, y->nargs);
	for (int i = 0; i < b->nargs && i < nargs; i++)
		edit_sub(&e, b->args[i]->name,
			 operand_text(&args[i], buf, sizeof buf));
	return try_edit(r, &e);
}

/* `for` -> one trip of its body (iv = lb, iter args = inits). */
static int
try_for_once(Red *r, const Op *op)
{
	Operand a[1 + 64];
	int n = 0;

	a[n++] = op->args[0];
	for (int i = 3; i < op->nargs && n < 65; i++)
		a[n++] = op->args[i];
	return try_keep_block(r, op, op->body, a, n);
}

/* `async` -> its ops in place; its awaits' results -> the yielded values. */
static int
try_async(Red *r, const Op *op)
{
	const Op *y = terminator(op->body);
	int first = op->body->nops > 1 ? r->opline[op->body->ops[0]->seq]
				       : r->opline[y->seq];
	Edit e;

	if (edit_init(r, &e))
		return -1;
	edit_drop(&e, r->opline[op->seq], first);
	edit_drop(&e, r->opline[y->seq], r->opend[op->seq]);
	for (int k = 0; k < r->c->prog->nops; k++) {
		const Op *w = r->ops[k];
		if (w->kind != OP_AWAIT || w->args[0].v != op->res[0])
			continue;
		edit_drop(&e, r->opline[k], r->opend[k]);
		sub_results(&e, w, y->args, y->nargs);
	}
	return try_edit(r, &e);
}

static int
func_index(const Program *p, const Func *f)
{
	for (int i = 0; i < p->nfuncs; i++)
		if (p->funcs[i] == f)
			return i;
	return -1;
}

static int
ncalls(const Red *r, const Func *f)
{
	int n = 0;

	for (int k = 0; k < r->c->prog->nops; k++)
		n += r->ops[k]->kind == OP_CALL && r->ops[k]->fn == f;
	return n;
}

/* A name not used in the program: "q.3". */
static void
fresh_name(Red *r, const char *base, char *buf, size_t n)
{
	do
		snprintf(buf, n, "%s.%d", base, ++r->fresh);
	while (prog_value(r->c->prog, NULL, buf));
}

/* The callee's values renamed fresh and its params -> the call's args. */
static void
callee_subs(Red *r, Edit *ce, const Op *call, const Func *f)
{
	char buf[128], name[96];

	for (int i = 0; i < f->nparams && i < call->nargs; i++)
		edit_sub(ce, f->params[i]->name,
			 operand_text(&call->args[i], buf, sizeof buf));
	for (int i = 0; i < r->c->prog->nvalues; i++) {
		const Value *v = r->c->prog->values[i];
		if (v->func != f || v->isparam)
			continue;
		fresh_name(r, v->name, name, sizeof name);
		snprintf(buf, sizeof buf, "%%%s", name);
		edit_sub(ce, v->name, buf);
	}
}

/* `call` -> the callee's body; the callee goes when this was its only
 * call. */
static int
try_call(Red *r, const Op *op)
{
	const Func *f = op->fn;
	int fi = func_index(r->c->prog, f);
	const Op *ret;
	Edit e, ce;
	Str b = {0};

	if (!f || fi < 0 || f == r->c->entry)
		return 0;
	if (edit_init(r, &e))
		return -1;
	ret = terminator(f->body);
	memset(&ce, 0, sizeof ce);
	callee_subs(r, &ce, op, f);
	for (int l = r->fline[fi] + 1; l < r->opline[ret->seq]; l++) {
		put_subst(&b, r->lines[l], ce.subs, ce.nsubs);
		str_puts(&b, "\n");
	}
	for (int i = 0; i < op->nres && i < ret->nargs; i++) {
		Str t = {0};
		char buf[96], *to;
		put_subst(&t, operand_text(&ret->args[i], buf, sizeof buf),
			  ce.subs, ce.nsubs);
		if (!(to = str_take(&t)))
			e.oom = true;
		else
			edit_sub(&e, op->res[i]->name, to);
		mem_free(to);
	}
	e.oom |= ce.oom;
	for (int i = 0; i < ce.nsubs; i++) {
		mem_free(ce.subs[i].from);
		mem_free(ce.subs[i].to);
	}
	mem_free(ce.subs);
	if (b.len && b.s[b.len - 1] == '\n')
		b.s[--b.len] = 0; /* edit_apply ends the line */
	edit_repl(&e, r->opline[op->seq], str_take(&b));
	if (ncalls(r, f) == 1)
		edit_drop(&e, r->fline[fi] > 0 && !*r->lines[r->fline[fi] - 1]
				      ? r->fline[fi] - 1 : r->fline[fi],
			  r->fend[fi]);
	return try_edit(r, &e);
}

/* Drop every function (but the entry) that nothing calls. */
static int
try_uncalled(Red *r)
{
	const Program *p = r->c->prog;
	int n = 0;
	Edit e;

	for (int i = 0; i < p->nfuncs; i++)
		n += p->funcs[i] != r->c->entry && !ncalls(r, p->funcs[i]);
	if (!n)
		return 0;
	if (edit_init(r, &e))
		return -1;
	for (int i = 0; i < p->nfuncs; i++)
		if (p->funcs[i] != r->c->entry && !ncalls(r, p->funcs[i]))
			edit_drop(&e, r->fline[i] > 0 && !*r->lines[r->fline[i] - 1]
					      ? r->fline[i] - 1 : r->fline[i],
				  r->fend[i]);
	return try_edit(r, &e);
}

/* The structural candidates for op k, until one is accepted. */
static int
try_structural(Red *r, const Op *op)
{
	int rc = 0;

	switch (op->kind) {
	case OP_FOR:
		if (!(rc = try_for_inits(r, op)))
			rc = try_for_once(r, op);
		break;
	case OP_IF:
		if (!(rc = try_keep_block(r, op, op->body, NULL, 0)) && op->orelse)
			rc = try_keep_block(r, op, op->orelse, NULL, 0);
		break;
	case OP_ASYNC:
		rc = try_async(r, op);
		break;
	case OP_CALL:
		rc = try_call(r, op);
		break;
	default:
		break;
	}
	return rc;
}

static int
pass_structural(Red *r)
{
	int progress = 0, rc;

	for (int k = 0; k < r->c->prog->nops; k++) {
		if ((rc = try_structural(r, r->ops[k])) < 0)
			return -1;
		if (rc) {
			progress = 1;
			k--; /* op k is now another op: look again */
		}
	}
	if ((rc = try_uncalled(r)) < 0)
		return -1;
	return progress || rc;
}

/* ------------------------------------------- expose an intermediate */

static void mark_live(bool *live, Op *op);

static void
mark_value(bool *live, const Value *v)
{
	if (!v)
		return;
	if (v->def)
		mark_live(live, v->def);
	if (v->owner && v->owner->parent)
		mark_live(live, v->owner->parent);
}

/* op is needed: its operands' definitions, its enclosing op, and (the
 * walk goes on inside) its regions, all of them: ddmin thins them later.
 * An op already live is done, or its walk is under way. */
static WalkAct
mark_one(Op *op, void *ctx)
{
	bool *live = ctx;

	if (live[op->seq])
		return WALK_SKIP;
	live[op->seq] = true;
	for (int i = 0; i < op->nargs; i++)
		mark_value(live, op->args[i].v);
	for (int i = 0; i < op->noffs; i++)
		mark_value(live, op->offs[i].v);
	if (op->hasdest)
		mark_value(live, op->dest.v);
	if (op->parent)
		mark_live(live, op->parent->parent);
	return WALK_GO;
}

static void
mark_live(bool *live, Op *op)
{
	if (op)
		walk_op(op, mark_one, live);
}

/* f's signature line without the params in `drop` (NULL: none), and
 * returning only `ret` (NULL: f's own results). */
static char *
signature(const Func *f, const bool *drop, const Type *ret)
{
	char ty[160];
	Str b = {0};
	int n = 0;

	str_printf(&b, "func @%s(", f->name);
	for (int i = 0; i < f->nparams; i++) {
		const Value *v = f->params[i];
		if (drop && drop[i])
			continue;
		str_printf(&b, "%s%%%s: %s%s", n++ ? ", " : "", v->name,
			   type_str(v->type, ty, sizeof ty),
			   v->readonly ? " {readonly}" : "");
	}
	str_puts(&b, ")");
	for (int i = 0; i < (ret ? 1 : f->nrtypes); i++)
		str_printf(&b, "%s%s", i ? ", " : " -> (",
			   type_str(ret ? ret : f->rtypes[i], ty, sizeof ty));
	if (ret || f->nrtypes)
		str_puts(&b, ")");
	str_puts(&b, " {");
	return str_take(&b);
}

/* The entry returns only v; ops of the entry that v does not need go. */
static int
try_expose(Red *r, const Value *v)
{
	const Func *f = r->c->entry;
	const Op *ret = terminator(f->body);
	int fi = func_index(r->c->prog, f);
	bool *live = mem_calloc((size_t)r->c->prog->nops + 1, sizeof *live);
	char buf[128], *sig;
	Edit e;

	if (!live || edit_init(r, &e)) {
		mem_free(live);
		return oom(r);
	}
	live[ret->seq] = true;
	mark_value(live, v);
	for (int i = 0; i < f->body->nops; i++)
		if (!live[f->body->ops[i]->seq])
			edit_drop(&e, r->opline[f->body->ops[i]->seq],
				  r->opend[f->body->ops[i]->seq]);
	mem_free(live);
	snprintf(buf, sizeof buf, "  return %%%s", v->name);
	edit_repl(&e, r->opline[ret->seq], mem_strdup(buf));
	if (!(sig = signature(f, NULL, v->type))) {
		edit_free(r, &e);
		return oom(r);
	}
	edit_repl(&e, r->fline[fi], sig);
	return try_edit(r, &e);
}

static int
pass_expose(Red *r)
{
	int progress = 0, rc;

	for (int i = 0; i < r->c->entry->body->nops; i++) {
		const Op *op = r->c->entry->body->ops[i];
		for (int k = 0; k < op->nres; k++) {
			if (op->res[k]->type->kind != TY_TENSOR)
				continue;
			if ((rc = try_expose(r, op->res[k])) < 0)
				return -1;
			if (rc) {
				progress = 1;
				i = -1; /* the body changed: start over */
				break;
			}
		}
	}
	return progress;
}

/* ----------------------------------------- ddmin over ops, use-repair */

/* The op enclosing op, or NULL. */
static const Op *
enclosing(const Op *op)
{
	return op->parent ? op->parent->parent : NULL;
}

/* removed[k]: op k is selected or inside a selected op (seq is
 * pre-order, so enclosing ops come first). */
static void
removed_set(const Red *r, const bool *sel, bool *removed)
{
	for (int k = 0; k < r->c->prog->nops; k++) {
		const Op *up = enclosing(r->ops[k]);
		removed[k] = sel[k] || (up && removed[up->seq]);
	}
}

static bool
used_by_kept(const Red *r, const bool *removed, const Value *v)
{
	for (int k = 0; k < r->c->prog->nops; k++)
		if (!removed[k] && op_uses(r->ops[k], v))
			return true;
	return false;
}

/* A kept value of type t in scope at op: the nearest earlier result at
 * op's level or an enclosing one, a block argument, or a param. */
static const Value *
repair(const bool *removed, const Op *op, const Type *t)
{
	for (const Op *at = op; at; at = enclosing(at)) {
		const Block *b = at->parent;
		for (int i = at->index - 1; i >= 0; i--) {
			const Op *o = b->ops[i];
			for (int j = 0; !removed[o->seq] && j < o->nres; j++)
				if (type_equal(o->res[j]->type, t))
					return o->res[j];
		}
		for (int i = b->nargs - 1; i >= 0; i--)
			if (type_equal(b->args[i]->type, t))
				return b->args[i];
		if (!enclosing(at))
			for (int i = b->func->nparams - 1; i >= 0; i--)
				if (type_equal(b->func->params[i]->type, t))
					return b->func->params[i];
	}
	return NULL;
}

/* Substitutions for the used results of removed op k; false when one has
 * no repair (a scalar falls back to the literal 0). */
static bool
repair_op(const Red *r, const bool *removed, const Op *op, Edit *e)
{
	char buf[96];

	for (int i = 0; i < op->nres; i++) {
		const Value *v = op->res[i], *w;
		if (!used_by_kept(r, removed, v))
			continue;
		if ((w = repair(removed, op, v->type)))
			snprintf(buf, sizeof buf, "%%%s", w->name);
		else if (v->type->kind == TY_SCALAR)
			snprintf(buf, sizeof buf, dtype_is_float(v->type->dt)
					? "0.0" : "0");
		else
			return false;
		edit_sub(e, v->name, buf);
	}
	return true;
}

/* Remove the selected ops (with repairs); a selected op without repair is
 * kept.  sel is updated. */
static int
try_remove(Red *r, bool *sel, bool *removed)
{
	Edit e;
	bool again = true, any = false;

	while (again) {
		again = any = false;
		removed_set(r, sel, removed);
		if (edit_init(r, &e))
			return -1;
		for (int k = 0; k < r->c->prog->nops && !again; k++) {
			const Op *up = enclosing(r->ops[k]);
			if (!removed[k] || (up && removed[up->seq]))
				continue;
			if (!repair_op(r, removed, r->ops[k], &e)) {
				sel[k] = false;
				again = true;
				edit_free(r, &e);
				break;
			}
			edit_drop(&e, r->opline[k], r->opend[k]);
			any = true;
		}
	}
	if (!any) {
		edit_free(r, &e);
		return 0;
	}
	return try_edit(r, &e);
}

static bool
removable(const Op *op)
{
	return op->kind != OP_YIELD && op->kind != OP_RETURN;
}

/* The removable ops in seq order; their count. */
static int
units(const Red *r, int *u)
{
	int n = 0;

	for (int k = 0; k < r->c->prog->nops; k++)
		if (removable(r->ops[k]))
			u[n++] = k;
	return n;
}

/* Remove chunks of `size` consecutive ops, halving size down to 1. */
static int
pass_ddmin(Red *r)
{
	int progress = 0, n, rc = 0;
	size_t cap = (size_t)r->c->prog->nops + 1;
	int *u = mem_alloc(cap * sizeof *u);
	bool *sel = mem_alloc(cap * sizeof *sel);
	bool *removed = mem_alloc(cap * sizeof *removed);

	if (!u || !sel || !removed)
		rc = oom(r);
	n = rc ? 0 : units(r, u);
	for (int size = (n + 1) / 2; size >= 1 && rc >= 0; size /= 2) {
		for (int i = 0; i < n && rc >= 0;) {
			memset(sel, 0, cap * sizeof *sel);
			for (int j = i; j < i + size && j < n; j++)
				sel[u[j]] = true;
			if ((rc = try_remove(r, sel, removed)) > 0) {
				progress = 1;
				n = units(r, u); /* fewer ops now: same i */
			} else {
				i += size;
			}
		}
	}
	mem_free(u);
	mem_free(sel);
	mem_free(removed);
	return rc < 0 ? -1 : progress;
}

/* ---------------------------------------------------- shrinking shapes */

/* Every static dim size > 1 in the text's tensor types, largest first. */
static int
dim_sizes(const char *text, int64_t *out, int max)
{
	int n = 0;

	for (const char *s = strstr(text, "tensor<"); s; s = strstr(s, "tensor<")) {
		s += 7;
		for (;;) {
			char *end;
			int64_t d = -1;
			bool seen = false;
			if (*s >= '0' && *s <= '9')
				d = strtoll(s, &end, 10);
			else if (*s == '?')
				end = (char *)s + 1;
			else
				break;
			for (int i = 0; i < n; i++)
				seen |= out[i] == d;
			if (d > 1 && !seen && n < max)
				out[n++] = d;
			s = end;
			if (*s != 'x')
				break;
			s++;
		}
	}
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && out[j] > out[j - 1]; j--) {
			int64_t t = out[j];
			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	return n;
}

/* The text with every dim D in tensor types halved. */
static char *
halve_text(const char *text, int64_t D)
{
	Str b = {0};

	for (const char *s = text; *s;) {
		const char *t = strstr(s, "tensor<");
		if (!t) {
			str_puts(&b, s);
			break;
		}
		str_put(&b, s, (size_t)(t + 7 - s));
		s = t + 7;
		for (;;) {
			const char *q = s;
			while (*q >= '0' && *q <= '9')
				q++;
			if (q == s && *q == '?')
				q++;
			if (q == s || *q != 'x')
				break;
			if (*s != '?' && strtoll(s, NULL, 10) == D)
				str_printf(&b, "%lldx", (long long)(D / 2));
			else
				str_put(&b, s, (size_t)(q + 1 - s));
			s = q + 1;
		}
	}
	return str_take(&b);
}

/* The leading sub-block of t where its type ty has dim D: D/2 there. */
static Tensor *
sub_block(const Tensor *t, const Type *ty, int64_t D)
{
	int64_t nd[MAXRANK], idx[MAXRANK];
	size_t es = dtype_size(t->dt);
	Tensor *n;

	for (int k = 0; k < t->rank; k++)
		nd[k] = ty->dims[k] == D ? D / 2 : t->dims[k];
	if (!(n = tensor_new(t->dt, t->rank, nd)))
		return NULL;
	for (int64_t j = 0; j < n->n; j++) {
		int64_t rem = j, src = 0;
		for (int k = t->rank - 1; k >= 0; k--) {
			idx[k] = nd[k] ? rem % nd[k] : 0;
			rem = nd[k] ? rem / nd[k] : 0;
		}
		for (int k = 0; k < t->rank; k++)
			src = src * t->dims[k] + idx[k];
		memcpy((char *)n->data + j * es, (const char *)t->data + src * es, es);
	}
	return n;
}

/* The inputs with every param dim D halved (leading sub-blocks). */
static char *
halve_inputs(const Red *r, int64_t D)
{
	const Func *f = r->c->entry;
	Str b = {0};

	for (int i = 0; i < f->nparams; i++) {
		const Type *ty = f->params[i]->type;
		Tensor *t = ty->kind == TY_TENSOR
				? sub_block(r->c->inputs[i], ty, D) : NULL;
		if (ty->kind == TY_TENSOR && !t) {
			str_free(&b);
			return NULL;
		}
		str_printf(&b, "  %s: ", f->params[i]->name);
		emit_data(&b, t ? t : r->c->inputs[i], ty);
		str_puts(&b, "\n");
		tensor_free(t);
	}
	return str_take(&b);
}

static int
pass_shapes(Red *r)
{
	int64_t dims[64];
	int n = dim_sizes(r->text, dims, 64), progress = 0, rc = 0;

	for (int i = 0; i < n && rc >= 0; i++) {
		char *text = halve_text(r->text, dims[i]);
		char *in = halve_inputs(r, dims[i]);
		rc = text && in ? try_candidate(r, text, in) : oom(r);
		mem_free(text);
		mem_free(in);
		if (rc > 0) {
			progress = 1;
			n = dim_sizes(r->text, dims, 64);
			i = -1;
		}
	}
	return rc < 0 ? -1 : progress;
}

/* ----------------------------------------------------- unused params */

static bool
param_used(const Red *r, const Value *v)
{
	for (int k = 0; k < r->c->prog->nops; k++)
		if (op_uses(r->ops[k], v))
			return true;
	return false;
}

/* Drop the entry's unused params (and their inputs), all at once. */
static int
pass_params(Red *r)
{
	const Func *f = r->c->entry;
	bool *drop = mem_calloc((size_t)f->nparams + 1, sizeof *drop);
	int fi = func_index(r->c->prog, f), n = 0, rc;
	Str in = {0};
	char *inputs, *text;
	Edit e;

	if (!drop)
		return oom(r);
	for (int i = 0; i < f->nparams; i++) {
		n += drop[i] = !param_used(r, f->params[i]);
		if (drop[i])
			continue;
		str_printf(&in, "  %s: ", f->params[i]->name);
		emit_data(&in, r->c->inputs[i], f->params[i]->type);
		str_puts(&in, "\n");
	}
	inputs = str_take(&in);
	if (!n || !inputs || edit_init(r, &e)) {
		mem_free(drop);
		mem_free(inputs);
		return n && inputs ? -1 : n ? oom(r) : 0;
	}
	edit_repl(&e, r->fline[fi], signature(f, drop, NULL));
	mem_free(drop);
	text = e.oom ? NULL : edit_apply(r, &e);
	edit_free(r, &e);
	rc = text ? try_candidate(r, text, inputs) : oom(r);
	mem_free(text);
	mem_free(inputs);
	return rc;
}

/* ------------------------------------------------------------ driver */

static int
reduce_loop(Red *r)
{
	int (*const passes[])(Red *) = {pass_expose, pass_structural,
					pass_ddmin, pass_params, pass_shapes};
	int progress = 1, rc;

	while (progress && r->st->candidates < r->budget) {
		progress = 0;
		for (size_t i = 0; i < sizeof passes / sizeof *passes; i++) {
			if ((rc = passes[i](r)) < 0)
				return -1;
			progress |= rc;
		}
	}
	return 0;
}

/* Does c's reference run (to its end or its failure) within `cap` trips? */
static bool
trips_within(const Case *c, int64_t cap)
{
	Limits lim = c->lim;
	Tensor **ref = NULL;
	int nref = 0, rc;
	Diag d;

	if (lim.max_trips <= cap)
		return false;
	lim.max_trips = cap;
	rc = ref_run(c->prog, c->entry, c->inputs, &lim, &ref, &nref, &d);
	for (int i = 0; i < nref; i++)
		tensor_free(ref[i]);
	mem_free(ref);
	return rc >= 0;
}

/* The original run: 1 when it does not fail; else its signature and the
 * starting point (the case re-written, which must fail the same way). */
static int
reduce_start(Red *r, int run)
{
	const Case *c = r->orig;
	char *text = NULL, *yaml = NULL;
	Str in = {0};
	Case *cc = NULL;
	RunOut o;
	Diag why;
	int rc = evaluate(r, c, run, &o, &why);

	if (rc)
		return rc < 0 ? -1 : (*r->d = why, -1);
	if (!failing(&o)) {
		runout_clear(&o);
		return 1;
	}
	rc = set_signature(r, &o);
	runout_clear(&o);
	if (rc)
		return -1;
	r->trip_cap = trips_within(c, REDUCE_TRIP_CAP) ? REDUCE_TRIP_CAP : 0;
	emit_inputs(&in, c->entry, c->inputs);
	if (!(r->inputs = str_take(&in)) || !(text = tir_print(c->prog)) ||
	    !(yaml = case_text(r, "reduce/start", NULL, text, r->inputs, c->prog,
			       NULL, 0))) {
		mem_free(text);
		return oom(r);
	}
	rc = judge(r, yaml, &cc);
	mem_free(yaml);
	if (rc <= 0) {
		mem_free(text);
		return rc < 0 || allocs_fail() ? oom(r) : diag_set(r->d, r->run->loc, "reduce: the "
			"failure does not reproduce from the re-written case");
	}
	return adopt(r, cc, text, r->inputs, metric(cc->prog, strlen(text)));
}

/* Does the written case pass `bufdiff check`? */
static int
self_check(Red *r, const char *yaml, bool *ok)
{
	Case *c = NULL;
	Outcome o;
	Diag d;
	int rc = 0;

	memset(&o, 0, sizeof o);
	*ok = false;
	if (case_parse("reduced.yaml", yaml, strlen(yaml), 0, &c, &d)) {
		rc = reject(r, &d);
	} else {
		check_case(r->cfg, c, NULL, true, &o);
		*ok = o.status == STATUS_OK;
		if (o.errored && strstr(o.err.msg, "out of memory"))
			rc = oom(r);
		if (strstr(o.why, "out of memory"))
			rc = oom(r);
	}
	outcome_clear(&o);
	case_free(c);
	return rc;
}

/* The reduced case with the run's results; blame records only when the
 * case checks with them. */
static int
reduce_finish(Red *r, const char *name, const char *about, char **yaml)
{
	RunOut o;
	Diag why;
	Str ab = {0};
	char *abt;
	bool ok = false;
	int rc = evaluate(r, r->c, 0, &o, &why);

	if (rc)
		return rc < 0 ? -1 : (*r->d = why, -1);
	if (about)
		str_printf(&ab, "%s ", about);
	str_printf(&ab, "Reduced from %s (run %d) by bufdiff reduce: %d -> %d "
		   "ops, %d candidates, %d cached.", r->orig->name,
		   (int)(r->run - r->orig->runs) + 1, r->orig->prog->nops,
		   r->c->prog->nops, r->st->candidates, r->st->cache_hits);
	if (!(abt = str_take(&ab))) {
		runout_clear(&o);
		return oom(r);
	}
	for (int nblame = 3; nblame >= 0 && !ok; nblame -= 3) {
		mem_free(*yaml);
		*yaml = case_text(r, name, abt, r->text, r->inputs, r->c->prog,
				  &o, nblame);
		if (!*yaml || self_check(r, *yaml, &ok)) {
			rc = oom(r);
			break;
		}
	}
	mem_free(abt);
	runout_clear(&o);
	if (!rc && !ok && allocs_fail())
		rc = oom(r);
	if (!rc && !ok)
		rc = diag_set(r->d, r->run->loc, "reduce: the reduced case "
			      "does not pass check");
	if (rc) {
		mem_free(*yaml);
		*yaml = NULL;
	}
	return rc;
}

static void
red_free(Red *r)
{
	for (int i = 0; i < r->nculprits; i++)
		mem_free(r->culprits[i]);
	mem_free(r->culprits);
	mem_free(r->victim);
	mem_free(r->tool);
	index_free(r);
	case_free(r->c);
	mem_free(r->text);
	mem_free(r->inputs);
	cache_free(&r->cache);
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int
reduce_case(const RunConfig *cfg, const Case *c, int run, const char *name,
	    const char *about, char **yaml, ReduceStats *st, Diag *d)
{
	Red r = {.cfg = cfg, .orig = c, .d = d, .st = st, .vkind = -1,
		 .reader = -1, .budget = cfg && cfg->reduce_budget > 0 ?
					 cfg->reduce_budget : 4000};
	double t0 = now();
	char *defname = NULL;
	int rc;

	*yaml = NULL;
	memset(st, 0, sizeof *st);
	if (!c || !c->prog || !c->entry || run < 0 || run >= c->nruns)
		return diag_set(d, (Loc){0, 0}, "the case has no run %d", run + 1);
	r.run = &c->runs[run];
	st->ops_before = st->ops_after = c->prog->nops;
	if (!name) {
		Str b = {0};
		str_printf(&b, "reduced/%s", c->name ? c->name : "case");
		if (!(name = defname = str_take(&b)))
			return oom(&r);
	}
	rc = reduce_start(&r, run);
	if (!rc)
		rc = reduce_loop(&r);
	if (!rc)
		rc = reduce_finish(&r, name, about, yaml);
	if (r.c)
		st->ops_after = r.c->prog->nops;
	red_free(&r);
	mem_free(defname);
	st->seconds = now() - t0;
	return rc;
}
