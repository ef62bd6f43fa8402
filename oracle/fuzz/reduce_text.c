/*
 * reduce_text.c: the current case as text: the whole case file a
 * candidate is written as, and the program's lines with where each op and
 * function sits (what the edits address).
 */
#include <stdio.h>

#include "escape.h"
#include "reduce_impl.h"

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
char *
red_case_text(const Red *r, const char *name, const char *about,
	      const char *prog, const char *inputs, const Program *p,
	      const RunOut *o, int nblame)
{
	const Func *entry = prog_func(p, r->orig->entry->name);
	Str b = {0};

	str_puts(&b, "case: ");
	yaml_scalar(&b, name);
	if (about) {
		str_puts(&b, "\nabout: ");
		yaml_scalar(&b, about);
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
		yaml_scalar(&b, r->orig->entry->name);
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

/* What run o showed, as comments under the run ("    # verdict: ...").
 * They state nothing `check` reads: the run must agree. */
static void
emit_seen(Str *b, const Program *p, const Func *entry, const RunOut *o,
	  int nblame)
{
	Str res = {0};

	emit_run_result(&res, p, entry, o, nblame);
	str_puts(b, "    # seen when found; `bufdiff check` fails on this "
		 "case until the strategy is fixed:\n");
	for (const char *s = res.s ? res.s : ""; *s;) {
		size_t n = strcspn(s, "\n");
		size_t pad = strspn(s, " ") < 4 ? strspn(s, " ") : 4;
		str_puts(b, "    # ");
		str_put(b, s + pad, n - pad);
		str_puts(b, "\n");
		s += n + (s[n] == '\n');
	}
	if (res.oom)
		b->oom = true;
	str_free(&res);
}

char *
red_case_seen(const Red *r, const char *name, const char *about,
	      const RunOut *o, int nblame)
{
	char *head = red_case_text(r, name, about, r->text, r->inputs,
				   r->c->prog, NULL, 0);
	Str b = {0};

	if (!head)
		return NULL;
	str_puts(&b, head);
	mem_free(head);
	emit_seen(&b, r->c->prog, prog_func(r->c->prog, r->orig->entry->name),
		  o, nblame);
	return str_take(&b);
}

/* ------------------------------------------------------ lines and ops */

void
red_index_free(Red *r)
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
	/* a block's label (`^bb1(%a: T):`) is not an op */
	return *s && *s != '}' && *s != '^' && strncmp(s, "func ", 5) &&
	       strncmp(s, "//", 2);
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
		return red_oom(r);
	for (const char *s = r->linebuf; *s; s++)
		n += *s == '\n';
	if (!(r->lines = mem_calloc((size_t)n + 1, sizeof *r->lines)))
		return red_oom(r);
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
int
red_index_lines(Red *r)
{
	const Program *p = r->c->prog;
	size_t nops = (size_t)p->nops + 1, nf = (size_t)p->nfuncs + 1;
	int k = 0, f = 0;

	red_index_free(r);
	if (split_lines(r))
		return -1;
	r->ops = mem_calloc(nops, sizeof *r->ops);
	r->opline = mem_calloc(nops, sizeof *r->opline);
	r->opend = mem_calloc(nops, sizeof *r->opend);
	r->fline = mem_calloc(nf, sizeof *r->fline);
	r->fend = mem_calloc(nf, sizeof *r->fend);
	if (!r->ops || !r->opline || !r->opend || !r->fline || !r->fend)
		return red_oom(r);
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
