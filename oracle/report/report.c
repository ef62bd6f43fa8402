/*
 * report.c: what a case did, as text, JSON (FORMAT.md §3) and JUnit XML.
 *
 * JSON floats: Jansson prints reals with %.17g, so f32 0.1 would come out
 * as 0.10000000149011612.  Instead each float becomes a string holding a
 * NUL byte, '#' and the shortest round-trip text of the value in its
 * dtype; after json_dumps the token "\u0000#TEXT" is replaced by TEXT.
 * No other string can produce "\u0000": every string we emit comes from
 * a C string, which holds no NUL.
 */
#include <inttypes.h>
#include <jansson.h>
#include <math.h>

#include "escape.h"
#include "report.h"
#include "cases.h"

static const char *const status_names[] = {
	[STATUS_OK] = "ok", [STATUS_FAIL] = "failed", [STATUS_BAD] = "error",
};

/* ---------------------------------------------------------- text */

/* Text shows at most TEXT_ELEMS elements of a tensor (JSON shows all). */
#define TEXT_ELEMS 32

static void
text_nested(FILE *out, const Tensor *t, int depth, int64_t *pos)
{
	char buf[64];

	if (depth == t->rank) {
		if (*pos < TEXT_ELEMS) { /* an undefined element is poison */
			if (tensor_defined(t, *pos))
				tensor_elem_str(t, *pos, buf, sizeof buf);
			fputs(tensor_defined(t, *pos) ? buf : "poison", out);
		}
		++*pos;
		return;
	}
	fputc('[', out);
	for (int64_t i = 0; i < t->dims[depth] && *pos < TEXT_ELEMS; i++) {
		if (i)
			fputs(", ", out);
		text_nested(out, t, depth + 1, pos);
	}
	if (*pos >= TEXT_ELEMS && t->n > TEXT_ELEMS)
		fputs(", ...", out);
	fputc(']', out);
}

void
report_tensor(FILE *out, const Tensor *t)
{
	int64_t pos = 0;

	text_nested(out, t, 0, &pos);
	if (t->n > TEXT_ELEMS)
		term_fprintf(out, " (%lld elements)", (long long)t->n);
}

/* ---------------------------------------------- bufferized runs, text */

static const char *
vname(const Value *v)
{
	return v ? v->name : "?";
}

static int
vline(const BInst *in)
{
	return in && in->op ? in->op->loc.line : 0;
}

static const char *
decision_of(const BInst *in, char *buf, size_t n)
{
	const Value *v = inst_value(in);

	if (!in || !v || in->dec.kind == DEC_NONE)
		return "-";
	return dec_str(v, &in->dec, buf, n);
}

/* What the text report knows while it prints a run: the case file (for
 * FILE:LINE:COL) and the tensor program (values past its own are the
 * lowering's or the memref program's). */
typedef struct Rep {
	FILE *out;
	const char *file;
	const Program *p;
	const BProg *bp;
	const Case *c;          /* its `source:` places; NULL: none */
} Rep;

static const Op *
inst_op(const BInst *in)
{
	return !in ? NULL : in->op ? in->op : in->top;
}

/* " at FILE:LINE:COL" of op, or nothing when it has no location. */
static void
at_op(const Rep *R, const Op *op)
{
	const char *f = NULL;
	Loc src = op ? case_source_loc(R->c, op->loc.line, &f) : (Loc){0, 0};

	if (src.line && R->c->from_mlir) /* its .yaml is in no file */
		term_fprintf(R->out, " at %s:%d:%d", f, src.line, src.col);
	else if (src.line) /* an imported case: the user's .mlir first */
		term_fprintf(R->out, " at %s:%d:%d (%s:%d:%d)", f, src.line,
			src.col, R->file, op->loc.line, op->loc.col);
	else if (op && op->loc.line)
		term_fprintf(R->out, " at %s:%d:%d", R->file, op->loc.line,
			op->loc.col);
}

static bool
in_program(const Rep *R, const Value *v)
{
	return v && v->id < R->p->nvalues && R->p->values[v->id] == v;
}

/* v in words of the program (bir_value_text), op the instruction's. */
static void
value_text(const Rep *R, const Value *v, const Op *op)
{
	Str s = {0};

	if (!R->bp) {
		term_fprintf(R->out, "%%%s", v->name);
		return;
	}
	bir_value_text(&s, R->bp, v, op);
	term_fputs(R->out, s.oom || !s.s ? "?" : s.s);
	str_free(&s);
}

/* A value a violation names (its victim): "%x", or the lowering's
 * buffer in words. */
static void
victim_text(const Rep *R, const Value *v)
{
	if (v)
		value_text(R, v, NULL);
	else
		fputs("a buffer", R->out);
}

/* "`free %y`", or "the free of the copy of %y passed out". */
static void
free_name(const Rep *R, const Value *v)
{
	if (R->bp && v && !in_program(R, v)) {
		fputs("the free of ", R->out);
		value_text(R, v, NULL);
	} else {
		term_fprintf(R->out, "`free %%%s`", vname(v));
	}
}

/* An instruction in words of the program, with where it is:
 * "%z at F:6:5", "the return at F:7:3", "the copy of %x passed out by
 * the return at F:7:3". */
static void
who(const Rep *R, const BInst *in)
{
	const Value *v = inst_value(in);
	const Op *op = inst_op(in);

	if (!in) {
		fputs("an input", R->out);
		return;
	}
	if (v)
		value_text(R, v, op);
	else if (op)
		term_fprintf(R->out, "the %s", op_info[op->kind].name);
	else
		fputs("the bufferized program", R->out);
	at_op(R, op);
}

/* An input named as the case's program names it: a memref program's
 * `%arg0` is its function's TIR param at the same position. */
static const Value *
tir_param(const Rep *R, const Value *v)
{
	if (!v || !v->isparam || !v->func || !R->p)
		return v;
	for (int i = 0; i < R->p->nfuncs; i++) {
		const Func *f = R->p->funcs[i];
		if (f == v->func || strcmp(f->name, v->func->name))
			continue;
		for (int k = 0; k < v->func->nparams && k < f->nparams; k++)
			if (v->func->params[k] == v)
				return f->params[k];
	}
	return v;
}

/* Where the violation's buffer came from, ASan's "allocated by". */
static void
origin_text(const Rep *R, const Violation *v)
{
	switch (v->bufkind) {
	case 0:
		term_fprintf(R->out, "the buffer of input %%%s",
			vname(tir_param(R, v->owner)));
		break;
	case 1:
		term_fprintf(R->out, "the buffer of the constant %%%s", vname(v->owner));
		at_op(R, inst_op(v->made));
		break;
	case 2:
		fputs("the buffer allocated by ", R->out);
		who(R, v->made);
		break;
	default:
		fputs("a buffer", R->out);
	}
}

/* ", decision y:x" (fmt) when the instruction placed its value by one. */
static void
decision_text(const Rep *R, const BInst *in, const char *fmt)
{
	char dec[96];
	const char *d = decision_of(in, dec, sizeof dec);

	if (strcmp(d, "-"))
		term_fprintf(R->out, fmt, d);
}

/* "for element [1, 2] of the generate" (the row-major number k as an
 * index when the type is static, else "for element 7 (row-major)"). */
static void
elem_text(const Rep *R, const Op *op, int64_t k)
{
	const Type *t = op->type;
	int64_t idx[MAXRANK];

	if (!type_is_static(t)) {
		term_fprintf(R->out, "for element %lld (row-major) of the generate",
			(long long)k);
		return;
	}
	for (int d = t->rank - 1; d >= 0; d--) {
		idx[d] = t->dims[d] ? k % t->dims[d] : 0;
		k = t->dims[d] ? k / t->dims[d] : 0;
	}
	fputs("for element [", R->out);
	for (int d = 0; d < t->rank; d++)
		term_fprintf(R->out, d ? ", %lld" : "%lld", (long long)idx[d]);
	fputs("] of the generate", R->out);
}

/* "trip 0 of the for at F:8:5, the then-branch of the if at F:9:7". */
static void
ctx_text(const Rep *R, const DynCtx *c)
{
	if (c->deeper)
		term_fprintf(R->out, "%d loops or branches deeper than these, ",
			c->deeper);
	for (int i = 0; i < c->n; i++) {
		const Op *op = c->at[i].op;
		if (i)
			fputs(", ", R->out);
		if (op->kind == OP_IF)
			term_fprintf(R->out, "in the %s-branch of the if",
				c->at[i].k ? "else" : "then");
		else if (op->kind == OP_BR || op->kind == OP_COND_BR)
			term_fprintf(R->out, "in ^%s after the edge ^%s <- %s%s (branch "
				"%lld of the body)", op->succ[c->at[i].k & 1]->label,
				op->succ[c->at[i].k & 1]->label,
				op->parent->label ? "^" : "the entry",
				op->parent->label ? op->parent->label : "",
				(long long)(c->at[i].k >> 1));
		else if (op->kind == OP_GENERATE)
			elem_text(R, op, c->at[i].k);
		else
			term_fprintf(R->out, "on trip %lld of the %s", (long long)c->at[i].k,
				op_info[op->kind].name);
		at_op(R, op);
	}
}

/* The dynamic context: "written on trip 0 of the for at ..., read on
 * trip 2 of the for at ..." (nothing when both were straight-line). */
static void
context_text(const Rep *R, const Violation *v)
{
	bool w = v->has_wctx && v->wctx.n;

	if (!w && !v->rctx.n)
		return;
	fputs("    ", R->out);
	if (v->has_wctx) {
		fputs("written ", R->out);
		if (w)
			ctx_text(R, &v->wctx);
		else
			fputs("outside any loop or branch", R->out);
		fputs("; read ", R->out);
	}
	if (v->rctx.n)
		ctx_text(R, &v->rctx);
	else
		fputs("outside any loop or branch", R->out);
	fputc('\n', R->out);
}

static void
stale_text(const Rep *R, const Violation *v)
{
	const Value *held = inst_value(v->writer);

	who(R, v->at);
	fputs(" reads ", R->out);
	victim_text(R, v->victim);
	fputs(", but its buffer now holds ", R->out);
	if (!v->writer) {
		fputs("an input's data\n", R->out);
		return;
	}
	if (v->detail[0]) { /* a kernel reading the buffer it writes */
		term_fprintf(R->out, "what it writes: it %s\n", v->detail);
		return;
	}
	if (in_program(R, held) && held->def &&
	    op_info[held->def->kind].form == F_EMPTY)
		term_fprintf(R->out, "poison (the contents of the empty %%%s)\n",
			held->name);
	else if (in_program(R, held))
		term_fprintf(R->out, "%%%s", held->name);
	else
		fputs("another value", R->out);
	fputs("\n    overwritten by ", R->out);
	who(R, v->writer);
	decision_text(R, v->writer, ", decision %s");
	fputc('\n', R->out);
}

/* " after %y = add at F:5:5": the op a free was placed after (a memref
 * program's frees are its own, after no op of the case's). */
static void
after_text(const Rep *R, const Op *op)
{
	if (R->bp && R->bp->memref)
		return; /* a memref.dealloc: its memref line says where */
	fputs(" after ", R->out);
	if (!op) {
		fputs("the bufferized program's start", R->out);
		return;
	}
	if (op->nres && op->res[0])
		term_fprintf(R->out, "%%%s = ", op->res[0]->name);
	else
		fputs("the ", R->out);
	fputs(op_info[op->kind].name, R->out);
	at_op(R, op);
}

static void
free_text(const Rep *R, const Violation *v)
{
	const BInst *at = v->at, *w = v->writer;

	if (at->kind == BI_FREE) {
		free_name(R, at->v);
		after_text(R, inst_op(at));
	} else if (at->kind == BI_DEALLOC) {
		fputs("a bufferization.dealloc", R->out);
		after_text(R, inst_op(at));
	} else {
		who(R, at);
	}
	term_fprintf(R->out, " %s the buffer of ",
		v->kind == VK_DOUBLE_FREE ? "frees" : "uses");
	victim_text(R, v->victim);
	fputs(" after it was freed\n", R->out);
	if (!w)
		return;
	fputs("    freed by ", R->out);
	if (w->kind == BI_RETURN) {
		fputs("the return", R->out);
		at_op(R, inst_op(w));
		fputs(" (a memref.alloca ends with its function)", R->out);
	} else if (w->kind == BI_DEALLOC) {
		fputs("a bufferization.dealloc", R->out);
		after_text(R, inst_op(w));
	} else {
		free_name(R, w->v);
		after_text(R, inst_op(w));
		if (w->why)
			term_fprintf(R->out, " (%s)", w->why);
	}
	fputc('\n', R->out);
}

static void
async_text(const Rep *R, const Violation *v, const char *schedule)
{
	who(R, v->at);
	term_fprintf(R->out, " %s ", v->kind == VK_ASYNC_RACE ? "touches" : "reads");
	victim_text(R, v->victim);
	term_fprintf(R->out, " while the launch of %%%s on stream %d",
		vname(v->writer->v), v->writer->op->stream);
	at_op(R, inst_op(v->writer));
	term_fprintf(R->out, ", which %s it, has not completed\n",
		v->kind == VK_ASYNC_RACE ? "uses" : "writes");
	term_fprintf(R->out, "    under schedule %s, after %lld instructions",
		schedule, (long long)v->step);
	if (v->launches[0])
		term_fprintf(R->out, "; launches in order: %s", v->launches);
	fputc('\n', R->out);
}

/* "12 bytes in 1 object" (sep "in"), "36 bytes leaked in 3 allocations"
 * (sep "leaked in"; the unit follows sep). */
static void
leak_size_text(FILE *out, int64_t bytes, int64_t n, const char *sep)
{
	bool objects = !strcmp(sep, "in");

	term_fprintf(out, "%lld byte%s %s %lld %s%s", (long long)bytes,
		bytes == 1 ? "" : "s", sep, (long long)n,
		objects ? "object" : "allocation", n == 1 ? "" : "s");
}

/* Leaks of the run in all: bytes into *bytes, how many buffers returned. */
static int64_t
leaks_total(const ExecResult *ex, int64_t *bytes)
{
	int64_t n = 0;

	*bytes = 0;
	for (int i = 0; i < ex->nviols; i++)
		if (ex->viols[i].kind == VK_LEAK) {
			n += ex->viols[i].count;
			*bytes += ex->viols[i].bytes;
		}
	return n;
}

/* One violation the way ASan says it: what was accessed, by whom and
 * where; who overwrote or freed it, where, and by which decision; where
 * its buffer came from; the loop trips and branches of both accesses. */
static void
violation_text(const Rep *R, const Violation *v, const char *schedule)
{
	FILE *out = R->out;

	term_fprintf(out, "==bufdiff== %s: ", vkind_names[v->kind]);
	switch (v->kind) {
	case VK_STALE_READ:
		stale_text(R, v);
		break;
	case VK_USE_AFTER_FREE:
	case VK_DOUBLE_FREE:
		free_text(R, v);
		break;
	case VK_LEAK: /* LSan's words: "N byte(s) in M object(s)" */
		leak_size_text(out, v->bytes, v->count, "in");
		fputs(" allocated by ", out);
		who(R, v->at);
		decision_text(R, v->at, " (decision %s)");
		fputs(", never freed\n", out);
		break;
	case VK_READONLY_WRITE:
		who(R, v->at);
		decision_text(R, v->at, " (decision %s)");
		fputs(" writes the read-only buffer of ", out);
		victim_text(R, v->victim);
		fputc('\n', out);
		break;
	case VK_ASYNC_RACE:
	case VK_EARLY_AWAIT_READ:
		async_text(R, v, schedule);
		break;
	case VK_UNINIT_READ:
		who(R, v->at);
		fputs(" reads ", out);
		victim_text(R, v->victim);
		fputs(", but its buffer was never written (poison)\n", out);
		break;
	default:
		who(R, v->at);
		fputs(" on ", out);
		victim_text(R, v->victim);
		term_fprintf(out, ": %s\n", v->detail);
	}
	if (v->at && v->at->mloc.line) { /* mlir-pipeline: both programs */
		term_fprintf(out, "    in the memref program: line %d (%s)",
			v->at->mloc.line, v->at->mname);
		if (v->writer && v->writer->mloc.line)
			term_fprintf(out, ", %s at line %d (%s)",
				v->kind == VK_STALE_READ ? "written" :
				v->kind == VK_LEAK ? "allocated" :
				v->kind == VK_ASYNC_RACE ||
				v->kind == VK_EARLY_AWAIT_READ ? "launched" : "freed",
				v->writer->mloc.line, v->writer->mname);
		fputc('\n', out);
	}
	if (v->launch) {
		term_fprintf(out, "    in the launch of %%%s on stream %d",
			vname(v->launch->v), v->launch->op->stream);
		at_op(R, inst_op(v->launch));
		fputc('\n', out);
	}
	context_text(R, v);
	if (v->kind != VK_LEAK && (v->rank || v->kind == VK_STALE_READ)) {
		term_fprintf(out, "    first element [");
		for (int d = 0; d < v->rank; d++)
			term_fprintf(out, d ? ", %lld" : "%lld", (long long)v->elem[d]);
		if (v->part)
			term_fprintf(out, "] of the view read, element %lld of ",
				(long long)v->flat);
		else
			fputs("] of ", out);
		origin_text(R, v);
		if (v->count > 1)
			term_fprintf(out, "; %d times", v->count);
		fputc('\n', out);
	} else if (v->kind != VK_LEAK && v->bufkind >= 0) {
		fputs("    in ", out);
		origin_text(R, v);
		if (v->count > 1)
			term_fprintf(out, "; %d times", v->count);
		fputc('\n', out);
	}
}

static void
decisions_text(FILE *out, const Decisions *ds, Value *const *vs, int n)
{
	char buf[512];

	for (int i = 0; i < n; i++)
		term_fprintf(out, "%s%s", i ? ", " : "",
			choice_str(ds, vs[i], buf, sizeof buf));
	if (!n)
		term_fprintf(out, "none");
}

/* The run's culprits: its decisions, or the plan's frees, hoists and
 * anchors (lifetime choices). */
static void
culprits_text(FILE *out, const RunOut *r)
{
	char buf[512];

	if (r->nlculprits) {
		for (int i = 0; i < r->nlculprits; i++)
			term_fprintf(out, "%s%s", i ? ", " : "", plan_lifetime_str(
				&r->ds, r->lculprits[i], false, buf, sizeof buf));
		return;
	}
	decisions_text(out, &r->ds, r->culprits, r->nculprits);
}

/* "HEAD COMMAND\n": a shell line to paste, its outside words quoted by
 * sh_word (a newline in a quoted word is kept: sh needs it). */
static void
command_line(FILE *out, const char *head, const char *cmd)
{
	fputs(head, out);
	term_fputs_lines(out, cmd ? cmd : "");
	fputc('\n', out);
}

/* An outside strategy's call: the command that reproduces it, the tool's
 * word for each decision, and on a tool-error why and its stderr.  true
 * when there is nothing more to report (tool-error). */
static bool
tool_text(FILE *out, const RunOut *r)
{
	if (!r->tool.cmd[0])
		return false;
	if (r->verdict == VERDICT_TOOL_ERROR)
		term_fprintf(out, "  %s\n", r->tool.status);
	if (r->pipeline)
		term_fprintf(out, "  pipeline: %s\n", r->pipeline);
	command_line(out, "  command: ", r->tool.cmd);
	if (r->verdict == VERDICT_TOOL_ERROR && r->native.verdict == NATIVE_FAILED)
		command_line(out, "  native command: ", r->native.command);
	/* excerpts: their lines kept, what a terminal acts on escaped */
	if (r->tool.err[0]) {
		fputs("  stderr:\n", out);
		term_fputs_lines(out, r->tool.err);
		fputs(r->tool.err[strlen(r->tool.err) - 1] == '\n' ? "" : "\n",
		      out);
	}
	if (r->tool.decisions && r->tool.decisions[0]) {
		const char *d = r->tool.decisions;
		fputs("  the tool's decisions:\n", out);
		term_fputs_lines(out, d);
		fputs(d[strlen(d) - 1] == '\n' ? "" : "\n", out);
	}
	if (r->verdict != VERDICT_TOOL_ERROR)
		return false;
	term_fprintf(out, "SUMMARY: bufdiff: tool-error: %s\n", r->tool.status);
	if (r->status == STATUS_FAIL)
		term_fprintf(out, "  expectation failed: %s\n", r->why);
	return true;
}

/* The plan's anchors, hoists and args, which no decision line shows. */
static void
forced_text(FILE *out, const Decisions *ds)
{
	char buf[256];
	int i = 0;

	for (; plan_extra_str(ds, i, buf, sizeof buf); i++)
		term_fprintf(out, "%s%s", i ? ", " : "  forced: ", buf);
	if (i)
		fputc('\n', out);
}

/* Issue 23 item 4: outputs an MLIR strategy gives on a forall program,
 * a racy read or a miscompile (race_order's answer). */
static void
race_text(FILE *out, int race, const char *lead)
{
	char buf[64];

	if (race > 0)
		term_fprintf(out, "%sracy read: the forall's trips one after another "
			"(%s), each seeing what the earlier ones inserted, give "
			"these outputs; MLIR leaves a read beyond a trip's slice "
			"undefined (a race, not a miscompile)\n", lead,
			race_order_text(race, buf, sizeof buf));
	else if (race < 0)
		term_fprintf(out, "%smiscompile: no order of the forall's trips, each "
			"seeing what the earlier ones inserted, gives these "
			"outputs (not a race)\n", lead);
}

/* --confirm: what MLIR's own output gave, natively. */
static void
native_text(FILE *out, const RunOut *r)
{
	const NativeJudge *j = &r->native;
	static const char *const what[] = {
		[NATIVE_CONFIRMED] = "confirmed: MLIR's own output differs too",
		[NATIVE_LATENT] = "latent: MLIR's own output agrees with the "
				  "reference (no output shows the violation)",
		[NATIVE_MISSED] = "missed: MLIR's own output differs, but this "
				  "run agreed (a bufdiff bug to report)",
		[NATIVE_AGREE] = "agree: MLIR's own output agrees with the "
				 "reference",
		[NATIVE_FAILED] = "failed",
	};

	if (j->verdict == NATIVE_NONE)
		return;
	term_fprintf(out, "  native: %s", what[j->verdict]);
	if (j->msg[0])
		term_fprintf(out, ": %s", j->msg);
	if (j->output >= 0 && j->verdict != NATIVE_FAILED)
		term_fprintf(out, "; output %d element %lld: reference %.9g, native "
			"%.9g", j->output, (long long)j->elem, j->ref, j->got);
	if (j->sched && j->verdict != NATIVE_FAILED)
		term_fprintf(out, "; launches %s", native_sched_str(j->sched));
	if (j->carried && j->verdict != NATIVE_FAILED)
		term_fprintf(out, "; carried launches awaited where carried (a race "
			"across trips cannot show natively)");
	term_fprintf(out, "\n");
	race_text(out, j->race, "    native output: ");
	command_line(out, "    native command: ", j->command);
}

/* `all`: how many schedules ran and how many failed. */
static void
schedules_text(FILE *out, const RunOut *r)
{
	if (!r->all)
		return;
	term_fprintf(out, "  schedules: all %d tried (sync, late", r->ntried);
	if (r->ntried > 3)
		term_fprintf(out, ", random:1-%d", r->ntried - 2);
	else if (r->ntried == 3)
		fputs(", random:1", out);
	fputs("); ", out);
	if (!r->nfailing)
		term_fprintf(out, "every one agrees\n");
	else
		term_fprintf(out, "%d %s, the worst shown: %s\n", r->nfailing,
			r->nfailing == 1 ? "fails" : "fail", r->schedule);
}

/* The culprit sets after the first: each fails on its own. */
static void
more_sets_text(FILE *out, const RunOut *r)
{
	for (int k = 1; k < r->nsets; k++) {
		int a = r->setstart[k], b = k + 1 < r->nsets ? r->setstart[k + 1]
							     : r->ncsets;
		term_fprintf(out, "  independent culprits (%d): ", k + 1);
		decisions_text(out, &r->ds, r->culprit_sets + a, b - a);
		fputc('\n', out);
	}
}

/* What to change for culprit v: the decision to flip, what flipping
 * gives, and what one-shot takes there (os empty: not asked) and why. */
typedef struct Fix {
	char flip[512], to[512], os[512];
	bool also;              /* one-shot takes the culprit's decision too */
	const char *reason;
} Fix;

static void
culprit_fix(const RunOut *r, const Value *v, Fix *f)
{
	const Decisions *os = r->oneshot.d ? &r->oneshot : NULL;

	choice_str(&r->ds, v, f->flip, sizeof f->flip);
	choice_flip_str(&r->ds, v, f->to, sizeof f->to);
	f->os[0] = 0;
	f->also = false;
	f->reason = NULL;
	if (!os)
		return;
	if (decision_is_call(v)) {
		choice_str(os, v, f->os, sizeof f->os);
		f->also = !strcmp(f->os, f->flip);
		f->reason = f->also ? NULL : call_copy_reason(os, v->def);
	} else if (os->d[v->id].kind != DEC_NONE) {
		const Decision *d = &os->d[v->id];
		dec_str(v, d, f->os, sizeof f->os);
		f->also = d->kind == DEC_INPLACE && d->into == r->ds.d[v->id].into;
		f->reason = f->also ? NULL : decision_reason(d);
	}
}

/* What to change for lifetime culprit i (plan_lifetimes' numbering):
 * drop it, and what one-shot does instead. */
static void
lifetime_fix(const RunOut *r, int i, Fix *f)
{
	const char *k = plan_lifetime_kind(&r->ds, i);

	plan_lifetime_str(&r->ds, i, false, f->flip, sizeof f->flip);
	plan_lifetime_str(&r->ds, i, true, f->to, sizeof f->to);
	f->os[0] = 0;
	f->also = false;
	f->reason = !strcmp(k, "free") ? "one-shot frees each buffer once, "
		    "after the last use of any alias" : !strcmp(k, "hoist") ? "one-shot "
		    "allocates on every trip" : "one-shot gives the empty a "
		    "buffer of its own";
}

/* For each culprit: the decision to flip, and what one-shot decides
 * there and why (when it decides otherwise). */
static void
fix_text(FILE *out, const RunOut *r)
{
	Value *const *vs = r->nsets ? r->culprit_sets : r->culprits;
	int n = r->nsets ? r->ncsets : r->nculprits;
	Fix f;

	for (int i = 0; i < r->nlculprits; i++) {
		lifetime_fix(r, r->lculprits[i], &f);
		term_fprintf(out, "  fix: %s -> %s (%s)\n", f.flip, f.to, f.reason);
	}
	for (int i = 0; i < n; i++) {
		culprit_fix(r, vs[i], &f);
		term_fprintf(out, "  fix: %s -> %s", f.flip, f.to);
		if (f.also)
			term_fprintf(out, " (one-shot also takes %s)", f.os);
		else if (f.os[0])
			term_fprintf(out, " (one-shot takes %s%s%s)", f.os,
				f.reason ? ": " : "", f.reason ? f.reason : "");
		fputc('\n', out);
	}
}

void
report_run_text(FILE *out, const Case *c, const Outcome *o, int i)
{
	const RunOut *r = &o->runs[i];
	const MemStats *m = &r->ex.mem;
	Rep R = {out, c->file, c->prog, r->bp, c};

	term_fprintf(out, "run %d: %s, schedule %s: ", i + 1, r->strategy, r->schedule);
	if (r->skipped) {
		term_fprintf(out, "skipped (%s)\n", r->why);
		return;
	}
	if (r->status == STATUS_BAD) {
		if (r->err.loc.line)
			/* (the location may be in a --plan file: stderr
			 * has it with its file) */
			term_fprintf(out, "error: %d:%d: %s\n", r->err.loc.line,
				r->err.loc.col, r->err.msg);
		else
			term_fprintf(out, "error: %s\n", r->err.msg);
		return;
	}
	term_fprintf(out, "%s%s\n", verdict_names[r->verdict],
		r->status == STATUS_OK ? " (as expected)" : "");
	if (tool_text(out, r))
		return;
	native_text(out, r);
	race_text(out, r->race, "  ");
	schedules_text(out, r);
	forced_text(out, &r->ds);
	for (int k = 0; k < r->ex.nviols; k++)
		violation_text(&R, &r->ex.viols[k], r->schedule);
	if (r->ex.aborted[0] && r->ex.aborted_at.line)
		term_fprintf(out, "  the bufferized run stopped at %s:%d:%d: %s\n",
			c->file, r->ex.aborted_at.line, r->ex.aborted_at.col,
			r->ex.aborted);
	else if (r->ex.aborted[0])
		term_fprintf(out, "  the bufferized run stopped: %s\n", r->ex.aborted);
	if (r->ex.failed)
		term_fprintf(out, "  the bufferized run failed at the assert at %s:%d:%d: "
			"%s\n", c->file, r->ex.failed->loc.line,
			r->ex.failed->loc.col, r->ex.failed->msg);
	else if (o->failed)
		term_fprintf(out, "  the bufferized run did not fail at the assert at "
			"%s:%d:%d\n", c->file, o->err.loc.line, o->err.loc.col);
	for (int k = 0; k < o->nouts && k < r->ex.nouts; k++) {
		int64_t at = r->first_diff[k];
		char a[64], b[64];
		if (at < 0)
			continue;
		tensor_elem_str(o->outs[k], at, a, sizeof a);
		tensor_elem_str(r->ex.outs[k], at, b, sizeof b);
		term_fprintf(out, "  output %d = ", k);
		report_tensor(out, r->ex.outs[k]);
		term_fprintf(out, "\n    differs at element %lld: reference %s, "
			"bufferized %s\n", (long long)at, a, b);
	}
	if (r->verdict != VERDICT_AGREE) {
		term_fprintf(out, "  culprits: ");
		culprits_text(out, r);
		fputc('\n', out);
		more_sets_text(out, r);
		fix_text(out, r);
	}
	term_fprintf(out, "  memory: peak %lld bytes, %lld allocations (%lld bytes), "
		"%lld copies (%lld bytes), %lld views\n",
		(long long)m->peak_bytes, (long long)m->allocations,
		(long long)m->alloc_bytes, (long long)m->copies,
		(long long)m->copy_bytes, (long long)m->views);
	if (r->verdict != VERDICT_AGREE) {
		const Violation *v = r->ex.nviols ? &r->ex.viols[0] : NULL;
		int64_t nleaks, leaked;

		term_fprintf(out, "SUMMARY: bufdiff: %s", verdict_names[r->verdict]);
		if (v) {
			term_fprintf(out, ", %s in ", vkind_names[v->kind]);
			who(&R, v->at);
		}
		if ((nleaks = leaks_total(&r->ex, &leaked))) {
			fputs("; ", out);
			leak_size_text(out, leaked, nleaks, "leaked in");
		}
		term_fprintf(out, "; culprits ");
		culprits_text(out, r);
		fputc('\n', out);
	}
	if (r->status == STATUS_FAIL)
		term_fprintf(out, "  expectation failed: %s\n", r->why);
}

void
report_fail_reason(FILE *out, const Case *c, const Outcome *o)
{
	for (int i = 0; c && i < o->nruns; i++) {
		const RunOut *r = &o->runs[i];
		Rep R = {out, c->file, c->prog, r->bp, c};
		if (r->status != STATUS_FAIL || r->skipped ||
		    r->verdict == VERDICT_AGREE || r->verdict == VERDICT_TOOL_ERROR)
			continue;
		if (r->ex.nviols) {
			term_fprintf(out, "%s in ", vkind_names[r->ex.viols[0].kind]);
			who(&R, r->ex.viols[0].at);
			fputs("; ", out);
		} else if (r->ex.failed != c->ref_failed) {
			fputs("the failure path differs; ", out);
		}
		fputs("culprits ", out);
		culprits_text(out, r);
		if (r->nlculprits || r->nculprits) {
			Fix f;
			if (r->nlculprits)
				lifetime_fix(r, r->lculprits[0], &f);
			else
				culprit_fix(r, r->culprits[0], &f);
			term_fprintf(out, " (fix: %s -> %s)", f.flip, f.to);
		}
		return;
	}
}

/* ---- pieces of a run's text report, for the pages (html.c) */

void
report_violation_at(FILE *out, const char *file, const Program *p,
		    const RunOut *r, const Violation *v)
{
	Rep R = {out, file, p, r->bp, NULL};

	who(&R, v->at);
}

void
report_violation_context(FILE *out, const char *file, const Program *p,
			 const RunOut *r, const Violation *v)
{
	Rep R = {out, file, p, r->bp, NULL};

	context_text(&R, v);
}

void
report_culprits(FILE *out, const RunOut *r)
{
	culprits_text(out, r);
}

void
report_fixes(FILE *out, const RunOut *r)
{
	fix_text(out, r);
}

void
report_text(FILE *out, const Case *c, const Outcome *o)
{
	char tb[128];

	if (c && c->name)
		term_fprintf(out, "case %s (%s)\n", c->name, c->file);
	else
		term_fprintf(out, "case %s\n", c ? c->file : "?");
	if (o->errored) {
		if (o->status == STATUS_OK)
			term_fprintf(out, "error as expected: %s:%d:%d: %s\n", c->file,
				o->err.loc.line, o->err.loc.col, o->err.msg);
		else if (o->status == STATUS_FAIL)
			term_fprintf(out, "FAIL: %s\n", o->why);
		return;
	}
	if (o->failed)
		term_fprintf(out, "reference: failed at the assert at %s:%d:%d: %s\n",
			c->file, o->err.loc.line, o->err.loc.col, o->err.msg);
	else
		term_fprintf(out, "reference outputs:\n");
	for (int i = 0; i < o->nouts; i++) {
		const Type *t = c->entry && i < c->entry->nrtypes ?
					c->entry->rtypes[i] : NULL;

		term_fprintf(out, "  %d: %s = ", i, t ? type_str(t, tb, sizeof tb) : "?");
		report_tensor(out, o->outs[i]);
		fputc('\n', out);
	}
	if (c->has_outputs && !o->outputs_differ)
		term_fprintf(out, "ok: the outputs match expect.outputs\n");
	for (int i = 0; i < o->nruns; i++)
		report_run_text(out, c, o, i);
	if (o->status == STATUS_FAIL)
		term_fprintf(out, "FAIL: %s\n", o->why);
}

/* ---------------------------------------------------------- JSON */

static void *
json_mem_alloc(size_t n)
{
	return mem_alloc(n);
}

void
report_json_init(void)
{
	json_set_alloc_funcs(json_mem_alloc, mem_free);
}

static json_t *
elem_json(const Tensor *t, int64_t i)
{
	char buf[64];
	double f;
	int len;

	if (!tensor_defined(t, i))
		return json_null();
	if (!dtype_is_float(t->dt))
		return json_integer(tensor_geti(t, i));
	f = tensor_getf(t, i);
	if (isnan(f) || isinf(f))
		return json_string(isnan(f) ? "nan" : f < 0 ? "-inf" : "inf");
	buf[0] = 0;
	buf[1] = '#';
	len = tensor_elem_str(t, i, buf + 2, sizeof buf - 2);
	if (!strcmp(buf + 2, "-0")) /* -0 reads back as the integer 0 */
		len = fmt_snprintf(buf + 2, sizeof buf - 2, "-0.0");
	return json_stringn(buf, (size_t)len + 2);
}

/* Append to a container, dropping the reference; false on OOM. */
static bool
append(json_t *arr, json_t *v)
{
	return v && !json_array_append_new(arr, v);
}

static bool
set(json_t *obj, const char *key, json_t *v)
{
	return v && !json_object_set_new(obj, key, v);
}

static json_t *
nested_json(const Tensor *t, int depth, int64_t *pos)
{
	json_t *a;

	if (depth == t->rank)
		return elem_json(t, (*pos)++);
	if (!(a = json_array()))
		return NULL;
	for (int64_t i = 0; i < t->dims[depth]; i++)
		if (!append(a, nested_json(t, depth + 1, pos))) {
			json_decref(a);
			return NULL;
		}
	return a;
}

static json_t *
outputs_json(Tensor *const *outs, int n)
{
	json_t *a = json_array();

	for (int i = 0; a && i < n; i++) {
		int64_t pos = 0;

		if (!append(a, nested_json(outs[i], 0, &pos))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static json_t *
error_json(const Diag *d)
{
	json_t *e = json_object();

	if (e && set(e, "line", json_integer(d->loc.line)) &&
	    set(e, "col", json_integer(d->loc.col)) &&
	    set(e, "message", json_string(d->msg)))
		return e;
	json_decref(e);
	return NULL;
}

/* `"source": {"file", "line", "col"}` of an imported case's op (ours,
 * docs/format.md): its place in the .mlir. */
static bool
source_json(json_t *j, const Rep *R, const BInst *in)
{
	const char *f = NULL;
	Loc at = in && in->op && R ? case_source_loc(R->c, in->op->loc.line,
						     &f) : (Loc){0, 0};
	json_t *s;

	if (!at.line)
		return true;
	s = json_object();
	return s && set(s, "file", json_string(f)) &&
	       set(s, "line", json_integer(at.line)) &&
	       set(s, "col", json_integer(at.col)) && set(j, "source", s);
}

static json_t *
value_line_json(const BInst *in, const Rep *R)
{
	json_t *j = json_object();

	/* value: null when the instruction defines none (a return, a free);
	 * op says which it is (docs/format.md): "free" for a free, wherever
	 * it was placed (a memref program's has a made-up op) */
	if (j && set(j, "value", inst_value(in) ? json_string(inst_value(in)->name)
						: json_null()) &&
	    (!in || !in->op || set(j, "op", json_string(in->kind == BI_FREE ?
							"free" : op_info[in->op->kind].name))) &&
	    set(j, "line", json_integer(vline(in))) &&
	    (!in || !in->mloc.line ||
	     set(j, "memref_line", json_integer(in->mloc.line))) &&
	    source_json(j, R, in))
		return j;
	json_decref(j);
	return NULL;
}

static json_t *
index_json(const int64_t *idx, int rank)
{
	json_t *a = json_array();

	for (int d = 0; a && d < rank; d++)
		if (!append(a, json_integer(idx[d]))) {
			json_decref(a);
			return NULL;
		}
	return a;
}

/* The text a printer of Rep writes, as a JSON string (NULL: OOM). */
static json_t *
text_json(const Rep *R0, void (*fn)(const Rep *, const void *), const void *arg)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	Rep R = *R0;
	json_t *j;

	if (!f)
		return NULL;
	R.out = f;
	fn(&R, arg);
	fclose(f);
	j = json_string(buf);
	free(buf);
	return j;
}

static void
ctx_fn(const Rep *R, const void *c)
{
	ctx_text(R, c);
}

static void
origin_fn(const Rep *R, const void *v)
{
	origin_text(R, v);
}

/* Extensions (docs/cli.md): where the buffer came from, the dynamic
 * context of the access and of the write, the launches at a race. */
static bool
violation_more_json(json_t *j, const Rep *R, const Violation *v)
{
	static const char *const kinds[] = {"input", "constant", "allocation"};
	const Op *mop = inst_op(v->made);
	bool ok = true;

	if (!R)
		return true;
	if (v->bufkind >= 0) {
		json_t *b = json_object();
		ok = b && set(b, "kind", json_string(kinds[v->bufkind])) &&
		     set(b, "value", v->owner ?
				     json_string(tir_param(R, v->owner)->name) :
				     json_null()) &&
		     (!mop || !mop->loc.line || v->bufkind == 0 ||
		      (set(b, "line", json_integer(mop->loc.line)) &&
		       set(b, "col", json_integer(mop->loc.col)))) &&
		     set(b, "text", text_json(R, origin_fn, v));
		if (!ok)
			json_decref(b);
		ok = ok && set(j, "buffer_origin", b);
	}
	if (ok && v->rctx.n)
		ok = set(j, "read_in", text_json(R, ctx_fn, &v->rctx));
	if (ok && v->has_wctx && v->wctx.n)
		ok = set(j, "written_in", text_json(R, ctx_fn, &v->wctx));
	if (ok && v->launches[0])
		ok = set(j, "launches", json_string(v->launches)) &&
		     set(j, "step", json_integer(v->step));
	return ok;
}

static json_t *
violation_json(const Violation *v, const Rep *R)
{
	json_t *j = json_object();
	const char *dn;
	char dec[96];
	bool ok = j;

	ok = ok && set(j, "kind", json_string(vkind_names[v->kind]));
	ok = ok && set(j, "reader", value_line_json(v->at, R));
	ok = ok && set(j, "victim", v->victim ? json_string(v->victim->name)
					      : json_null());
	ok = ok && set(j, "writer", v->writer ? value_line_json(v->writer, R)
					      : json_null());
	/* null, not "-", when that instruction's buffer has no decision */
	dn = decision_of(v->writer ? v->writer : v->at, dec, sizeof dec);
	ok = ok && set(j, "decision", strcmp(dn, "-") ? json_string(dn)
						     : json_null());
	ok = ok && set(j, "buffer", json_integer(v->buffer));
	ok = ok && set(j, "first_element", v->has_elem ?
		       index_json(v->elem, v->rank) : json_null());
	ok = ok && set(j, "count", json_integer(v->count));
	if (v->kind == VK_LEAK)
		ok = ok && set(j, "bytes", json_integer(v->bytes));
	if (v->detail[0])
		ok = ok && set(j, "detail", json_string(v->detail));
	ok = ok && violation_more_json(j, R, v);
	if (ok)
		return j;
	json_decref(j);
	return NULL;
}

static json_t *
decisions_json(const Decisions *ds, Value *const *vs, int n)
{
	json_t *a = json_array();
	char buf[512];

	for (int i = 0; a && i < n; i++)
		if (!append(a, json_string(choice_str(ds, vs[i], buf,
						      sizeof buf)))) {
			json_decref(a);
			return NULL;
		}
	return a;
}

/* Every tensor result with a buffer decision, in program order. */
static json_t *
all_decisions_json(const Decisions *ds)
{
	json_t *a = json_array();
	char buf[96];

	for (int i = 0; a && ds->d && i < ds->p->nvalues; i++) {
		const Decision *d = &ds->d[i];
		if (d->kind != DEC_NEW && d->kind != DEC_INPLACE)
			continue;
		if (!append(a, json_string(dec_str(ds->p->values[i], d, buf,
						   sizeof buf)))) {
			json_decref(a);
			return NULL;
		}
	}
	/* then `anchor E:R`, `hoist V`, `args R:copy,share` (docs/cases.md) */
	for (int i = 0; a && plan_extra_str(ds, i, buf, sizeof buf); i++)
		if (!append(a, json_string(buf))) {
			json_decref(a);
			return NULL;
		}
	return a;
}

static json_t *
run_output_json(const Outcome *o, const RunOut *r, int k)
{
	json_t *j = json_object(), *fd;
	int64_t pos = 0, at = r->first_diff[k], idx[MAXRANK] = {0}, li = at;
	const Tensor *t = r->ex.outs[k];
	bool ok = j;

	ok = ok && set(j, "index", json_integer(k));
	ok = ok && set(j, "equal", json_boolean(at < 0));
	ok = ok && set(j, "value", nested_json(t, 0, &pos));
	if (ok && at >= 0 && at < t->n && at < o->outs[k]->n) {
		for (int d = t->rank - 1; d >= 0; d--) {
			idx[d] = t->dims[d] ? li % t->dims[d] : 0;
			li = t->dims[d] ? li / t->dims[d] : 0;
		}
		fd = json_object();
		ok = fd && set(fd, "at", index_json(idx, t->rank)) &&
		     set(fd, "reference", elem_json(o->outs[k], at)) &&
		     set(fd, "bufferized", elem_json(t, at)) &&
		     set(j, "first_diff", fd);
	}
	if (ok)
		return j;
	json_decref(j);
	return NULL;
}

static json_t *
memory_json(const MemStats *m)
{
	json_t *j = json_object();

	if (j && set(j, "peak_bytes", json_integer(m->peak_bytes)) &&
	    set(j, "allocations", json_integer(m->allocations)) &&
	    set(j, "alloc_bytes", json_integer(m->alloc_bytes)) &&
	    set(j, "copies", json_integer(m->copies)) &&
	    set(j, "copy_bytes", json_integer(m->copy_bytes)) &&
	    set(j, "views", json_integer(m->views)))
		return j;
	json_decref(j);
	return NULL;
}

/* "tool": {"command", "status", "stderr", "decisions"} (FORMAT §5's
 * tool-error report; decisions: the tool's word per decision). */
/* {"line": N, "message": "..."}: where a run failed (an assert). */
static json_t *
failure_json(Loc loc, const char *msg)
{
	json_t *j = json_object();

	if (j && set(j, "line", json_integer(loc.line)) &&
	    set(j, "message", json_string(msg ? msg : "")))
		return j;
	json_decref(j);
	return NULL;
}

static json_t *
tool_json(const RunOut *r)
{
	json_t *j = json_object();
	bool ok = j && set(j, "command", json_string(r->tool.cmd));

	if (ok && r->verdict == VERDICT_TOOL_ERROR)
		ok = set(j, "status", json_string(r->tool.status)) &&
		     set(j, "stderr", json_string(r->tool.err));
	if (ok && r->tool.decisions)
		ok = set(j, "decisions", json_string(r->tool.decisions));
	if (ok && r->tool.memref)
		ok = set(j, "memref", json_string(r->tool.memref));
	if (ok)
		return j;
	json_decref(j);
	return NULL;
}

/* ["free y:after z", "hoist t"]: the lifetime choices bisection blames
 * (`lifetime_culprits`, ours: FORMAT's `culprits` holds in-place
 * decisions only, [] when a forced free alone explains the failure). */
static json_t *
lifetime_culprits_json(const RunOut *r)
{
	json_t *a;
	char buf[512];

	a = json_array();
	for (int i = 0; a && i < r->nlculprits; i++)
		if (!append(a, json_string(plan_lifetime_str(&r->ds,
					   r->lculprits[i], false, buf,
					   sizeof buf)))) {
			json_decref(a);
			return NULL;
		}
	return a;
}

/* [["r:a"], ["u:b"], ...]: every independent culprit set. */
static json_t *
sets_json(const RunOut *r)
{
	json_t *a = json_array();

	for (int k = 0; a && k < r->nsets; k++) {
		int s = r->setstart[k], e = k + 1 < r->nsets ? r->setstart[k + 1]
							     : r->ncsets;
		if (!append(a, decisions_json(&r->ds, r->culprit_sets + s, e - s))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

/* [{"flip": "y:x", "to": "y:new", "one_shot": "y:new", "reason": ...}] */
static json_t *
fixes_json(const RunOut *r)
{
	Value *const *vs = r->nsets ? r->culprit_sets : r->culprits;
	int n = r->nsets ? r->ncsets : r->nculprits;
	json_t *a = json_array();
	Fix fx;

	for (int i = 0; a && i < r->nlculprits + n; i++) {
		json_t *f = json_object();
		bool ok;
		if (i < r->nlculprits)
			lifetime_fix(r, r->lculprits[i], &fx);
		else
			culprit_fix(r, vs[i - r->nlculprits], &fx);
		ok = f && set(f, "flip", json_string(fx.flip)) &&
		     set(f, "to", json_string(fx.to));
		if (ok && fx.os[0])
			ok = set(f, "one_shot", json_string(fx.os));
		if (ok && fx.reason) /* (a lifetime culprit: no one_shot) */
			ok = set(f, "reason", json_string(fx.reason));
		if (!ok || !append(a, f)) {
			json_decref(f);
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

/* "F:L:C: why", as the text report says it. */
static json_t *
aborted_json(const Case *c, const ExecResult *ex)
{
	char buf[4352];

	if (!ex->aborted_at.line)
		return json_string(ex->aborted);
	fmt_snprintf(buf, sizeof buf, "%s:%d:%d: %s", c ? c->file : "?",
		 ex->aborted_at.line, ex->aborted_at.col, ex->aborted);
	return json_string(buf);
}

/* "race": {"verdict": "racy-read" | "miscompile", "order"} */
static json_t *
race_json(int race)
{
	json_t *j = json_object();
	char buf[64];
	bool ok = j && set(j, "verdict", json_string(race > 0 ? "racy-read"
							      : "miscompile"));

	if (ok && race > 0)
		ok = set(j, "order", json_string(race_order_text(race, buf,
								  sizeof buf)));
	if (!ok) {
		json_decref(j);
		return NULL;
	}
	return j;
}

/* "native": {"verdict", "command", "message" | "output", "element",
 * "reference", "native", "race", "schedule"} */
static json_t *
native_json(const NativeJudge *n)
{
	json_t *j = json_object();
	bool ok = j && set(j, "verdict",
			   json_string(native_verdict_names[n->verdict]));

	ok = ok && set(j, "command", json_string(n->command ? n->command : ""));
	if (ok && n->msg[0])
		ok = set(j, "message", json_string(n->msg));
	if (ok && n->output >= 0 && n->verdict != NATIVE_FAILED) {
		ok = set(j, "output", json_integer(n->output));
		ok = ok && set(j, "element", json_integer(n->elem));
		ok = ok && set(j, "reference", json_real(n->ref));
		ok = ok && set(j, "native", json_real(n->got));
	}
	if (ok && n->race && n->verdict != NATIVE_FAILED)
		ok = set(j, "race", race_json(n->race));
	if (ok && n->sched && n->verdict != NATIVE_FAILED)
		ok = set(j, "schedule", json_string(n->sched == NATIVE_LATE ?
						    "late" : "sync"));
	if (ok && n->carried && n->verdict != NATIVE_FAILED)
		ok = set(j, "carried", json_true());
	if (!ok) {
		json_decref(j);
		return NULL;
	}
	return j;
}

static json_t *
run_json(const Case *c, const Outcome *o, const RunOut *r)
{
	Rep Rv = {NULL, c ? c->file : "?", c ? c->prog : NULL, r->bp, c};
	const Rep *R = c && c->prog ? &Rv : NULL;
	json_t *sch;
	json_t *j = json_object(), *outs = json_array(), *viols = json_array();
	bool ok = j && outs && viols;

	ok = ok && set(j, "strategy", json_string(r->strategy));
	if (ok && r->pipeline)
		ok = set(j, "pipeline", json_string(r->pipeline));
	ok = ok && set(j, "schedule", json_string(r->schedule));
	ok = ok && set(j, "status", json_string(r->skipped ? "skipped" :
						 status_names[r->status]));
	if (ok && (r->skipped || r->status == STATUS_BAD)) {
		ok = set(j, "message", json_string(r->skipped ? r->why : r->err.msg));
		goto done;
	}
	ok = ok && set(j, "verdict", json_string(verdict_names[r->verdict]));
	if (ok && r->tool.cmd[0])
		ok = set(j, "tool", tool_json(r));
	if (ok && r->native.verdict != NATIVE_NONE)
		ok = set(j, "native", native_json(&r->native));
	if (ok && r->race)
		ok = set(j, "race", race_json(r->race));
	if (ok && r->verdict == VERDICT_TOOL_ERROR) {
		if (r->status == STATUS_FAIL)
			ok = set(j, "message", json_string(r->why));
		goto done;
	}
	ok = ok && set(j, "decisions", all_decisions_json(&r->ds));
	for (int k = 0; ok && k < r->ex.nouts && k < o->nouts; k++)
		ok = append(outs, run_output_json(o, r, k));
	ok = ok && set(j, "outputs", json_incref(outs));
	for (int k = 0; ok && k < r->ex.nviols; k++)
		ok = append(viols, violation_json(&r->ex.viols[k], R));
	ok = ok && set(j, "violations", json_incref(viols));
	ok = ok && set(j, "culprits", decisions_json(&r->ds, r->culprits,
						      r->nculprits));
	if (ok && r->nlculprits)
		ok = set(j, "lifetime_culprits", lifetime_culprits_json(r));
	if (ok && r->nsets)
		ok = set(j, "culprit_sets", sets_json(r));
	if (ok && (r->nculprits || r->nlculprits) && r->oneshot.d)
		ok = set(j, "fixes", fixes_json(r));
	if (ok && r->all) {
		sch = json_object();
		ok = sch && set(sch, "tried", json_integer(r->ntried)) &&
		     set(sch, "failing", json_integer(r->nfailing));
		if (!ok)
			json_decref(sch);
		ok = ok && set(j, "schedules", sch);
	}
	ok = ok && set(j, "memory", memory_json(&r->ex.mem));
	if (ok && r->ex.aborted[0])
		ok = set(j, "aborted", aborted_json(c, &r->ex));
	if (ok && r->ex.failed)
		ok = set(j, "failure", failure_json(r->ex.failed->loc,
						    r->ex.failed->msg));
	if (ok && r->status == STATUS_FAIL)
		ok = set(j, "message", json_string(r->why));
done:
	json_decref(outs);
	json_decref(viols);
	if (ok)
		return j;
	json_decref(j);
	return NULL;
}

static json_t *
runs_json(const Case *c, const Outcome *o)
{
	json_t *a = json_array();

	for (int i = 0; a && i < o->nruns; i++)
		if (!append(a, run_json(c, o, &o->runs[i]))) {
			json_decref(a);
			return NULL;
		}
	return a;
}

static json_t *
case_json(const Case *c, const Outcome *o)
{
	json_t *j = json_object(), *ref = json_object();
	bool ok = j && ref;

	ok = ok && set(j, "case", c && c->name ? json_string(c->name) : json_null());
	ok = ok && set(j, "file", json_string(c ? c->file : "?"));
	ok = ok && set(j, "status", json_string(status_names[o->status]));
	if (!o->errored) {
		ok = ok && set(ref, "outputs", outputs_json(o->outs, o->nouts));
		if (o->failed)
			ok = ok && set(ref, "failure", failure_json(o->err.loc,
								    o->err.msg));
		ok = ok && set(j, "reference", json_incref(ref));
	} else {
		ok = ok && set(j, "reference", json_null());
	}
	ok = ok && set(j, "runs", runs_json(c, o));
	if (o->errored)
		ok = ok && set(j, "error", error_json(&o->err));
	if (o->status != STATUS_OK)
		ok = ok && set(j, "message", json_string(o->why));
	json_decref(ref);
	if (!ok) {
		json_decref(j);
		return NULL;
	}
	return j;
}

/* Write s with every "\u0000#TEXT" string token replaced by TEXT. */
static void
put_fixed(FILE *out, const char *s)
{
	static const char mark[] = "\"\\u0000#";
	const char *p;

	while ((p = strstr(s, mark))) {
		const char *num = p + sizeof mark - 1, *end = strchr(num, '"');

		fwrite(s, 1, (size_t)(p - s), out);
		fwrite(num, 1, (size_t)(end - num), out);
		s = end + 1;
	}
	fputs(s, out);
}

int
report_json(FILE *out, const Case *c, const Outcome *o)
{
	json_t *j = case_json(c, o);
	char *s;

	if (!j)
		return -1;
	s = json_dumps(j, 0);
	json_decref(j);
	if (!s)
		return -1;
	put_fixed(out, s);
	fputc('\n', out);
	mem_free(s);
	return 0;
}

/* --------------------------------------------------------- JUnit */

/* The case's folder as a JUnit classname: "bufdiff.seed" for the case
 * seed/old (its name's folder), else its file's folder. */
static void
classname(FILE *f, const JEntry *e)
{
	const char *s = e->name ? e->name : e->file, *slash = strrchr(s, '/');
	Str b = {0};

	str_puts(&b, "bufdiff");
	if (slash) {
		str_puts(&b, ".");
		for (; s < slash; s++)
			str_put(&b, *s == '/' ? "." : s, 1);
	}
	xml_fputs(f, b.oom ? "bufdiff" : b.s);
	str_free(&b);
}

int
report_junit(const char *path, const JEntry *e, int n)
{
	Output out;
	FILE *f = output_open(&out, path);
	int fails = 0, errors = 0;
	double total = 0;

	if (!f)
		return -1;
	for (int i = 0; i < n; i++) {
		fails += e[i].status == STATUS_FAIL;
		errors += e[i].status == STATUS_BAD;
		total += e[i].seconds;
	}
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<testsuites name=\"bufdiff\" tests=\"%d\" failures=\"%d\" "
		"errors=\"%d\" time=\"%.3f\">\n  <testsuite name=\"bufdiff check\" "
		"tests=\"%d\" failures=\"%d\" errors=\"%d\" time=\"%.3f\">\n",
		n, fails, errors, total, n, fails, errors, total);
	for (int i = 0; i < n; i++) {
		const char *tag = e[i].status == STATUS_BAD ? "error" : "failure";

		fputs("    <testcase classname=\"", f);
		classname(f, &e[i]);
		fputs("\" name=\"", f);
		xml_fputs(f, e[i].name ? e[i].name : e[i].file);
		fputs("\" file=\"", f);
		xml_fputs(f, e[i].file);
		fprintf(f, "\" time=\"%.3f\"", e[i].seconds);
		if (e[i].status == STATUS_OK && !e[i].report) {
			fputs("/>\n", f);
			continue;
		}
		fputs(">\n", f);
		if (e[i].status != STATUS_OK) {
			fprintf(f, "      <%s message=\"", tag);
			xml_fputs(f, e[i].msg);
			if (e[i].reason && e[i].reason[0]) {
				fputs(": ", f);
				xml_fputs(f, e[i].reason);
			}
			fprintf(f, "\" type=\"%s\">", status_names[e[i].status]);
			xml_fputs(f, e[i].msg);
			if (e[i].report || e[i].diag) {
				fputs("&#10;&#10;", f);
				xml_fputs(f, e[i].diag);
				xml_fputs(f, e[i].report);
			}
			fprintf(f, "</%s>\n", tag);
		}
		if (e[i].report) {
			fputs("      <system-out>", f);
			xml_fputs(f, e[i].report);
			fputs("</system-out>\n", f);
		}
		fputs("    </testcase>\n", f);
	}
	fputs("  </testsuite>\n</testsuites>\n", f);
	return output_close(&out);
}
