/*
 * graph.c: the def-use graph of a case as DOT, which html.c's graph panel
 * lays out by Graphviz (`dot -Tsvg`, run through tool.c) (docs/html.md).
 *
 * One node per op (results, op, line) and per parameter and block
 * argument; an edge from each value's definition to each op that uses it;
 * regions are clusters.  Loops show their back edge (the body's yield to
 * the iter args, dashed blue), branches their yields into the `if`.  Every
 * violation's writer-to-reader edge is drawn in red across all of that
 * (constraint=false: it does not bend the layout), labelled with the
 * clobbered version, the runs, and the loop trips and branch arms of
 * the write and the read.  A culprit decision's op is a red node that
 * says so.
 */
#include "report.h"

/* A DOT string's contents: quotes and backslashes escaped, control
 * characters shown as \xNN (Graphviz escapes the rest in its SVG). */
static void
dot_put(Str *b, const char *s)
{
	for (; s && *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			str_printf(b, "\\%c", ch);
		else if (ch < 0x20 || ch == 0x7f)
			str_printf(b, "\\\\x%02x", ch);
		else
			str_put(b, (const char *)&ch, 1);
	}
}

/* A graph being written: the nodes go into their clusters, the edges after
 * all of them (in DOT an edge inside a cluster pulls its nodes in). */
typedef struct G {
	Str *n, *e;
	const Outcome *o;       /* its culprits are marked (may be NULL) */
} G;

static void
value_src(Str *b, const Value *v)
{
	if (v->def)
		str_printf(b, "o%d", v->def->seq);
	else
		str_printf(b, "v%d", v->id);
}

static void
use_edge(G *g, const Value *u, const Op *op)
{
	if (!u)
		return;
	str_puts(g->e, "  ");
	value_src(g->e, u);
	str_printf(g->e, " -> o%d;\n", op->seq);
}

static void
arg_nodes(Str *b, const Block *blk, const char *what)
{
	for (int i = 0; blk && i < blk->nargs; i++) {
		str_printf(b, "  v%d [shape=ellipse, label=\"%%", blk->args[i]->id);
		dot_put(b, blk->args[i]->name);
		str_printf(b, "\\n%s\"];\n", i || !what[0] ? "iter arg" : what);
	}
}

static void graph_block(G *g, const Block *blk);

/* The terminator of blk (its last op) yields into `to`: for the values
 * of a loop's next trip (back edges), or the results of an if/async. */
static void
yield_edges(Str *b, const Block *blk, const Op *region, bool back)
{
	const Op *y = blk && blk->nops ? blk->ops[blk->nops - 1] : NULL;
	int first = region->kind == OP_FOR || region->kind == OP_FORALL;

	if (!y || y->kind != OP_YIELD)
		return;
	for (int i = 0; i < y->nargs; i++) {
		if (back && first + i < blk->nargs)
			str_printf(b, "  o%d -> v%d [style=dashed, color=\"#1f77b4\", "
				   "constraint=false, label=\"next trip\"];\n",
				   y->seq, blk->args[first + i]->id);
	}
	str_printf(b, "  o%d -> o%d [style=dotted];\n", y->seq, region->seq);
}

static void
region(G *g, const Op *op, const Block *blk, const char *what)
{
	Str *b = g->n;

	if (!blk)
		return;
	str_printf(b, "  subgraph cluster_%d_%d {\n  label=\"%s%s (line %d)\"; "
		   "style=rounded; color=\"#999\";\n", op->seq, blk == op->orelse,
		   op_info[op->kind].name, what, op->loc.line);
	if (blk != op->orelse || op->kind != OP_WHILE) /* do: the same args */
		arg_nodes(b, blk, op->kind == OP_FOR || op->kind == OP_FORALL ?
			  "induction var" : "");
	graph_block(g, blk);
	str_puts(b, "  }\n");
	yield_edges(g->e, blk, op, op->kind == OP_FOR || op->kind == OP_WHILE ||
		    op->kind == OP_FORALL);
}

/* A culprit's node: red, filled, class culprit, and a line that names
 * the decision and the runs ("culprit y:x (run 2, 4)"). */
static void
culprit_lines(G *g, const Op *op, bool *any)
{
	char lab[512];

	for (int i = 0; i < op->nres; i++)
		if (html_culprit_label(lab, sizeof lab, g->o, op->res[i])) {
			str_puts(g->n, "\\n");
			dot_put(g->n, lab);
			*any = true;
		}
}

static void
op_node(G *g, const Op *op)
{
	Str *b = g->n;
	bool culprit = false;

	str_printf(b, "  o%d [label=\"", op->seq);
	for (int i = 0; i < op->nres; i++) {
		str_puts(b, i ? ", %" : "%");
		dot_put(b, op->res[i]->name);
	}
	str_printf(b, "%s%s\\nline %d", op->nres ? " = " : "",
		   op_info[op->kind].name, op->loc.line);
	culprit_lines(g, op, &culprit);
	str_puts(b, culprit ? "\", class=\"culprit\", color=\"#d62728\", "
		 "penwidth=2.5, style=filled, fillcolor=\"#fde0e0\"];\n" : "\"];\n");
	for (int i = 0; i < op->nargs; i++)
		use_edge(g, op->args[i].v, op);
	if (op->hasdest)
		use_edge(g, op->dest.v, op);
	for (int i = 0; i < op->noffs; i++)
		use_edge(g, op->offs[i].v, op);
	/* the inits enter the loop's iter args */
	if ((op->kind == OP_FOR || op->kind == OP_FORALL) && op->body) {
		int lead = op->kind == OP_FOR ? 3 : 2;
		for (int i = lead; i < op->nargs && i - lead + 1 < op->body->nargs;
		     i++)
			str_printf(g->e, "  o%d -> v%d [style=dotted, label=\"init\"];\n",
				   op->seq, op->body->args[i - lead + 1]->id);
	}
	if (op->kind == OP_WHILE && op->body)
		for (int i = 0; i < op->nargs && i < op->body->nargs; i++)
			str_printf(g->e, "  o%d -> v%d [style=dotted, label=\"init\"];\n",
				   op->seq, op->body->args[i]->id);
	if (op->kind == OP_IF) {
		region(g, op, op->body, "");
		region(g, op, op->orelse, " else");
	} else if (op->kind == OP_WHILE) {
		region(g, op, op->body, " condition");
		region(g, op, op->orelse, " do");
	} else {
		region(g, op, op->body, "");
	}
}

static void
graph_block(G *g, const Block *blk)
{
	for (int i = 0; i < blk->nops; i++)
		op_node(g, blk->ops[i]);
}

static int
inst_op(const BInst *in)
{
	const Op *op = in ? (in->op ? in->op : in->top) : NULL;

	return op ? op->seq : -1;
}

/* Does run r have a violation from writer op w to reader op a before
 * its violation `before` (-1: any)? */
static bool
has_edge(const RunOut *ro, int w, int a, int before)
{
	for (int j = 0; j < ro->ex.nviols && (before < 0 || j < before); j++)
		if (inst_op(ro->ex.viols[j].writer) == w &&
		    inst_op(ro->ex.viols[j].at) == a)
			return true;
	return false;
}

/* The trips and arms of the write and the read, as the text report
 * says them, a line of the label each ("written on trip 0 of the for at
 * F:8:5", "read on trip 1 ..."); F is the case file's base name. */
static void
trips_label(Str *b, const Case *c, const RunOut *r, const Violation *v)
{
	char t[1024], *s = t, *semi;

	html_violation_trips(t, sizeof t, html_base_name(c->file), c->prog, r,
			     v);
	while (*s) {
		if ((semi = strstr(s, "; ")))
			*semi = 0;
		str_puts(b, "\\n");
		dot_put(b, s);
		if (!semi)
			break;
		s = semi + 2;
	}
}

/* The writer-to-reader edge of each distinct violation, once, with the
 * runs that have it and the trips and arms of the first. */
static void
blame_edges(Str *b, const Case *c, const Outcome *o)
{
	for (int r = 0; o && r < o->nruns; r++) {
		const RunOut *ro = &o->runs[r];
		for (int k = 0; k < ro->ex.nviols; k++) {
			const Violation *v = &ro->ex.viols[k];
			int w = inst_op(v->writer), a = inst_op(v->at), n = 0;
			bool seen = has_edge(ro, w, a, k);
			if (w < 0 || a < 0)
				continue;
			for (int q = 0; q < r && !seen; q++)
				seen = has_edge(&o->runs[q], w, a, -1);
			if (seen)
				continue;
			str_printf(b, "  o%d -> o%d [color=\"#d62728\", penwidth=2.5, "
				   "constraint=false, fontcolor=\"#d62728\", "
				   "class=\"blame\", label=\"%s of %%", w, a,
				   vkind_names[v->kind]);
			dot_put(b, v->victim ? v->victim->name : "?");
			for (int q = r; q < o->nruns; q++)
				if (has_edge(&o->runs[q], w, a, -1))
					str_printf(b, "%s%d", n++ ? ", " : " (run ", q + 1);
			str_puts(b, ")");
			trips_label(b, c, ro, v);
			str_puts(b, "\"];\n");
		}
	}
}

void
graph_dot(Str *b, const Case *c, const Outcome *o)
{
	const Program *p = c->prog;
	Str e = {0};
	G g = {b, &e, o};

	/* monospace everywhere: Graphviz sizes the drawing by Courier's
	 * widths (0.6 em a character), which is what a browser's monospace
	 * draws; and a quarter inch of pad, for the edge label it places at
	 * the drawing's very edge: no label sticks out of the SVG */
	str_puts(b, "digraph defuse {\n  rankdir=TB; pad=0.25; "
		 "fontname=\"monospace\"; fontsize=10;\n  node [shape=box, "
		 "fontname=\"monospace\", "
		 "fontsize=10];\n  edge [fontname=\"monospace\", fontsize=9];\n");
	for (int f = 0; f < p->nfuncs; f++) {
		const Func *fn = p->funcs[f];
		str_printf(b, "  subgraph cluster_f%d {\n  label=\"@", f);
		dot_put(b, fn->name);
		str_puts(b, "\"; color=\"#ccc\";\n");
		for (int i = 0; i < fn->nparams; i++) {
			str_printf(b, "  v%d [shape=ellipse, label=\"%%",
				   fn->params[i]->id);
			dot_put(b, fn->params[i]->name);
			str_printf(b, "\\nparam%s\"];\n", fn->params[i]->readonly ?
				   " (readonly)" : "");
		}
		graph_block(&g, fn->body);
		str_puts(b, "  }\n");
	}
	if (e.len)
		str_put(b, e.s, e.len);
	b->oom |= e.oom;
	str_free(&e);
	blame_edges(b, c, o);
	str_puts(b, "}\n");
}
