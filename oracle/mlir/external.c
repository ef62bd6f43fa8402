/*
 * external.c: outside bufferizers as strategies (FORMAT.md §5).
 *
 *   exec:CMD          the program in canonical TIR on CMD's stdin, a
 *                     decisions document back on its stdout
 *   exec-mlir:CMD     the same with the exported MLIR
 *   mlir[:TOOL]       One-Shot Bufferize's analysis in TOOL (mlir-opt-22);
 *                     its __inplace_operands_attr__ read back through the
 *                     locations of the export
 *   mlir-pipeline[:TOOL]  the memref program TOOL's pipeline emits, run
 *                     by the executor (oracle/memref.c)
 *
 * A strategy spec is parsed once into a process-lifetime slot (no heap, so
 * nothing to free); its answers are decisions like any strategy's, or a
 * tool-error with the command and the tool's stderr.  The tools' options
 * (ExternalOpts) come with each call, from the run configuration; what
 * stays here is state: the answer cache and the call counters.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "mlir.h"
#include "cases.h"
#include "stop.h"

const ExternalOpts external_opts_default = {.timeout = 60.0, .mlir_options = ""};

/* Tool calls so far: counters, not settings (external_stats). */
static ExternalStats stats;

const ExternalStats *
external_stats(void)
{
	return &stats;
}

/* The options o, NULL: the defaults. */
static const ExternalOpts *
opts(const ExternalOpts *o)
{
	return o ? o : &external_opts_default;
}

static char *pass_pipeline(const ExternalOpts *o, const Strategy *s,
			   bool batch);

/* A call's rc, counted for external_stats. */
static int
counted(int rc, const ToolResult *r)
{
	if (!rc) {
		stats.calls++;
		stats.seconds += r->seconds;
	}
	return rc;
}

/* tool_run, counted for external_stats; in-process (inproc.c) when the
 * tool is mlir-opt-22 and the route allows, the worker running the
 * pipeline cmd would (batch: batch_command's). */
static int
run_tool(const ExternalOpts *o, const Strategy *s, const char *cmd,
	 bool batch, const char *in, double timeout, ToolResult *r)
{
	bool mlir = s->kind == STRAT_MLIR || s->kind == STRAT_NATIVE ||
		    s->kind == STRAT_PIPELINE;
	/* (an mlir-opt as a process: its unwinder preloaded) */
	ToolCall c = {cmd, in, strlen(in), timeout, 0, mlir};
	char *pipe = NULL;
	int rc = 1;

	if (mlir && inproc_wanted(s->arg) &&
	    (pipe = pass_pipeline(o, s, batch)))
		rc = inproc_call(&c, pipe, opts(o)->workdir, r);
	mem_free(pipe);
	if (rc > 0)
		rc = tool_call(&c, r);
	return counted(rc, r);
}

/* A batch of an exec tool (exec_batch.c): always a process. */
int
external_run(const char *cmd, const char *in, int nprogs, double timeout,
	     ToolResult *r)
{
	ToolCall c = {cmd, in, strlen(in), timeout, 0, false};

	if (nprogs > 1)
		stats.batched += nprogs;
	return counted(tool_call(&c, r), r);
}

/* The MLIR version the export targets: --mlir-version, else the tool's
 * own name (mlir-opt-19), else 22. */
int
external_mlir_version(const ExternalOpts *o, const Strategy *s)
{
	if (opts(o)->mlir_version)
		return opts(o)->mlir_version;
	if (s->version)
		return s->version;
	return 22;
}

/* ---- the answer cache: (spec, version, input text) -> answer text.  The
 * reducer asks about the same candidates again, and fuzz batches fill it
 * for many programs with one tool call. */

/* State, not a setting: answers live as long as the process asks. */
static Cache answers;
/* The entry of the case an exec tool is asked about (BUFDIFF_ENTRY), part
 * of the key while it is; NULL for the other kinds. */
static const char *key_entry;

static char *
cache_key(const ExternalOpts *o, const Strategy *s, const char *in)
{
	Str b = {0};

	/* the command holds the pipeline and the analysis options: a run's
	 * `pipeline:` is another question to the same tool */
	str_printf(&b, "%s\n%d\n", s->name, external_mlir_version(o, s));
	external_command(o, s, &b);
	str_puts(&b, "\n");
	/* exec: an answer is for its entry (main: as remembered without) */
	if (key_entry && strcmp(key_entry, "main"))
		str_printf(&b, "entry %s\n", key_entry);
	str_puts(&b, in);
	return str_take(&b);
}

/* A tool's word about one input: its answer, or its failure. */
typedef struct ToolAnswer {
	char *text;             /* the answer (its stdout); NULL: it failed */
	char *status;           /* the failure: "exit 1", "answer: 3:1: NUL
				 * byte in the answer", ... */
	char *err;              /* ... and the lines of its stderr kept */
} ToolAnswer;

static void
answer_drop(void *val)
{
	ToolAnswer *a = val;

	mem_free(a->text);
	mem_free(a->status);
	mem_free(a->err);
	mem_free(a);
}

static const ToolAnswer *
answer_get(const ExternalOpts *o, const Strategy *s, const char *in)
{
	char *k = cache_key(o, s, in);
	const ToolAnswer *a = k ? cache_val(&answers, k) : NULL;

	mem_free(k);
	return a;
}

/* Cache answer text, or (text NULL) the failure status + err. */
static void
remember(const ExternalOpts *o, const Strategy *s, const char *in,
	 const char *text, const char *status, const char *err)
{
	char *k = cache_key(o, s, in);
	ToolAnswer *a = mem_calloc(1, sizeof *a);

	if (!k || !a || (text && !(a->text = mem_strdup(text))) ||
	    (!text && (!(a->status = mem_strdup(status)) ||
		       !(a->err = mem_strdup(err))))) {
		mem_free(k);
		if (a)
			answer_drop(a);
		return;
	}
	answers.drop = answer_drop;
	cache_put_val(&answers, k, true, a);
}

void
external_remember(const ExternalOpts *o, const Strategy *s, const char *in,
		  const char *answer)
{
	remember(o, s, in, answer, NULL, NULL);
}

/* The cache with key_entry set to entry (exec kinds: the key names it). */
void
external_remember_entry(const ExternalOpts *o, const Strategy *s,
			const char *entry, const char *in, const char *answer)
{
	key_entry = entry;
	remember(o, s, in, answer, NULL, NULL);
	key_entry = NULL;
}

bool
external_known(const ExternalOpts *o, const Strategy *s, const char *entry,
	       const char *in)
{
	bool known;

	key_entry = entry;
	known = answer_get(o, s, in) != NULL;
	key_entry = NULL;
	return known;
}

void
external_forget(void)
{
	cache_free(&answers);
}

/* ---- asking a tool */


/* The pipeline of mlir-pipeline, as given or the default. */
static const char *
pipeline(const ExternalOpts *o)
{
	const char *p = opts(o)->mlir_pipeline;

	return p && *p ? p : MLIR_PIPELINE;
}

/* The shell command the tool runs as: exec's as given, mlir's the tool with
 * One-Shot Bufferize's analysis and the generic form with locations. */
void
external_command(const ExternalOpts *o, const Strategy *s, Str *b)
{
	const MlirVersion *v = mlir_version(external_mlir_version(o, s));
	Str p = {0};
	char *pass;

	if (opts(o)->workdir) { /* the command, as the case names it */
		str_puts(b, "cd ");
		tool_sh_quote(b, opts(o)->workdir);
		str_puts(b, " && ");
	}
	if (s->kind == STRAT_PIPELINE) {
		str_printf(&p, "--pass-pipeline=builtin.module(%s)",
			   pipeline(o));
		pass = str_take(&p);
		str_printf(b, "%s ", s->arg);
		tool_sh_quote(b, pass ? pass : "");
		str_puts(b, " --mlir-print-op-generic --mlir-print-debuginfo "
			 "--mlir-print-local-scope");
		mem_free(pass);
		return;
	}
	if (s->kind != STRAT_MLIR && s->kind != STRAT_NATIVE) {
		str_puts(b, s->arg);
		return;
	}
	str_puts(&p, "--one-shot-bufferize=bufferize-function-boundaries "
		 "test-analysis-only");
	if (v->analysis_options && *v->analysis_options)
		str_printf(&p, " %s", v->analysis_options);
	if (opts(o)->mlir_options && *opts(o)->mlir_options)
		str_printf(&p, " %s", opts(o)->mlir_options);
	pass = str_take(&p);
	str_printf(b, "%s ", s->arg);
	tool_sh_quote(b, pass ? pass : "");
	str_puts(b, " --mlir-print-op-generic --mlir-print-debuginfo "
		 "--mlir-print-local-scope");
	mem_free(pass);
}

/* external_command as one stage of a pipeline (`... | STAGE`, `STAGE <
 * FILE`): a command with shell operators (`a; b`, `a && b`) is wrapped in
 * sh -c '...', so that all of it reads the program, as when it runs. */
void
external_stage(const ExternalOpts *o, const Strategy *s, Str *b)
{
	Str c = {0};
	char *cmd;

	external_command(o, s, &c);
	if (!(cmd = str_take(&c)))
		return;
	if (strpbrk(cmd, ";&|#\n")) {
		str_puts(b, "sh -c ");
		tool_sh_quote(b, cmd);
	} else {
		str_puts(b, cmd);
	}
	mem_free(cmd);
}

/* What the tool reads: canonical TIR for exec, the export for the rest
 * (map filled for mlir).  NULL with d (an inexpressible program) or, with
 * d->msg empty, out of memory. */
static char *
tool_input(const ExternalOpts *o, const Strategy *s, const Case *c, Arena *a,
	   ExportMap *map, Diag *d)
{
	Str b = {0};

	d->msg[0] = 0;
	if (s->kind == STRAT_EXEC)
		return tir_print(c->prog);
	if (mlir_export(c->prog, c->file,
			mlir_version(external_mlir_version(o, s)), &b, a, map, d)) {
		str_free(&b);
		return NULL;
	}
	return str_take(&b);
}

char *
external_input(const ExternalOpts *o, const Strategy *s, const Case *c)
{
	Arena *a = arena_new();
	ExportMap map = {0};
	Diag d;
	char *t = a ? tool_input(o, s, c, a, &map, &d) : NULL;

	arena_free(a);
	return t;
}

/* exec:CMD and exec-mlir:CMD: the tools of the exec protocol. */
static bool
exec_kind(const Strategy *s)
{
	return s->kind == STRAT_EXEC || s->kind == STRAT_EXEC_MLIR;
}

/* The command that reproduces the call from the case file. */
static void
repro_command(const ExternalOpts *o, const Strategy *s, const Case *c,
	      ToolReport *t)
{
	Str b = {0};
	char *cmd;

	str_puts(&b, s->kind == STRAT_EXEC ? "bufdiff print " : "bufdiff export ");
	sh_word(&b, c->file);
	if (s->kind != STRAT_EXEC)
		str_printf(&b, " --mlir-version %d", external_mlir_version(o, s));
	str_puts(&b, " | ");
	if (exec_kind(s) && c->entry && strcmp(c->entry->name, "main")) {
		str_puts(&b, "BUFDIFF_ENTRY=");
		sh_word(&b, c->entry->name);
		str_puts(&b, " ");
	}
	external_stage(o, s, &b);
	cmd = str_take(&b);
	fmt_snprintf(t->cmd, sizeof t->cmd, "%s", cmd ? cmd : "?");
	mem_free(cmd);
}

/* Reports are text and JSON: a tool's stderr may hold any bytes. */
static void
printable(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0x7f ||
		    ((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t'))
			*s = '?';
}

static int
tool_error(ToolReport *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int
tool_error(ToolReport *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fmt_vsnprintf(t->status, sizeof t->status, fmt, ap);
	va_end(ap);
	return 1;
}

/* Cache what the call r said about in: its answer, or its failure. */
static void
remember_result(const ExternalOpts *o, const Strategy *s, const char *in,
		const ToolResult *r)
{
	char st[256], err[1024];

	if (r->status == TOOL_OK && memchr(r->out, 0, r->nout)) {
		/* the answer is read as a C string: a NUL would cut it
		 * short, unseen */
		Loc at = yl_offset_loc(r->out, strlen(r->out));
		fmt_snprintf(st, sizeof st, "answer: %d:%d: NUL byte in the "
			     "answer", at.line, at.col);
		remember(o, s, in, NULL, st, "");
	} else if (r->status == TOOL_OK) {
		remember(o, s, in, r->out, NULL, NULL);
	} else {
		remember(o, s, in, NULL, tool_status_str(r, st, sizeof st),
			 tool_stderr_head(r, 8, err, sizeof err));
	}
}

/* The tool's answer to `in`: from the cache, or by running it (and then
 * cached, failures too, not an interrupted call).  0 with *answer (owned
 * by the cache) and *deadline, by when it must be read (the call's time
 * limit covers reading the answer: read_late); 1 a tool-error (t filled),
 * -1 out of memory. */
static int
ask(const ExternalOpts *o, const Strategy *s, const char *in,
    const char **answer, double *deadline, ToolReport *t)
{
	const ToolAnswer *a;
	ToolResult r;
	Str cmd = {0};
	char *c;

	*deadline = tool_now() + opts(o)->timeout;
	if (!(a = answer_get(o, s, in))) {
		external_command(o, s, &cmd);
		if (!(c = str_take(&cmd)))
			return -1;
		if (run_tool(o, s, c, false, in, opts(o)->timeout, &r)) {
			mem_free(c);
			return -1;
		}
		mem_free(c);
		if (r.status == TOOL_INTERRUPTED) { /* no answer: not one to keep */
			tool_status_str(&r, t->status, sizeof t->status);
			tool_result_free(&r);
			return 1;
		}
		remember_result(o, s, in, &r);
		tool_result_free(&r);
		if (!(a = answer_get(o, s, in)))
			return -1;
	}
	if ((*answer = a->text))
		return 0;
	fmt_snprintf(t->status, sizeof t->status, "%s", a->status);
	fmt_snprintf(t->err, sizeof t->err, "%s", a->err);
	printable(t->status);
	printable(t->err);
	return 1;
}

/* Reading the answer is part of the call: past the call's deadline
 * (stop.h; yaml.c's readers give up there) it is a tool-error like a slow
 * tool, and the cached answer becomes that failure (asked again, it would
 * be as slow to read); once a signal came, it is interrupted.  1 then (t
 * says why), else 0. */
static int
read_late(const ExternalOpts *o, const Strategy *s, const char *in,
	  ToolReport *t)
{
	char st[64];
	ToolAnswer *a;

	if (stop_signal())
		return tool_error(t, "interrupted by %s",
				  stop_signal_name(stop_signal()));
	if (!stop_late())
		return 0;
	fmt_snprintf(st, sizeof st, "timed out after %g s", opts(o)->timeout);
	if ((a = (ToolAnswer *)answer_get(o, s, in)) && a->text) {
		char *status = mem_strdup(st), *err = mem_strdup("");
		if (status && err) {
			mem_free(a->text);
			a->text = NULL;
			a->status = status;
			a->err = err;
		} else {
			mem_free(status);
			mem_free(err);
		}
	}
	mem_free(t->decisions);
	t->decisions = NULL;
	return tool_error(t, "%s", st);
}

/* ---- exec: a decisions document */

/* The answer as report lines: each indented, the last one ended. */
static char *
indented(const char *text)
{
	Str b = {0};

	while (*text) {
		size_t n = strcspn(text, "\n");
		str_puts(&b, "  ");
		str_put(&b, text, n);
		str_puts(&b, "\n");
		text += n + (text[n] == '\n');
	}
	return str_take(&b);
}

static int
apply_document(const Strategy *s, const Case *c, const char *ans,
	       Decisions *ds, ToolReport *t)
{
	Arena *a = arena_new();
	Run r;
	bool found = false;
	Diag d;
	int rc = 0;

	if (!a)
		return -1;
	memset(&r, 0, sizeof r);
	if (plandoc_load("answer", ans, strlen(ans), c, a, &r, &found, &d))
		rc = tool_error(t, "answer: %d:%d: %s", d.loc.line, d.loc.col,
				d.msg);
	else if (run_plan_apply(&r, ds, &d))
		rc = tool_error(t, "answer: %s", d.msg);
	else
		t->decisions = indented(ans);
	arena_free(a);
	return rc;
}

/* ---- mlir: __inplace_operands_attr__ through the export's locations */

typedef struct Reading {
	Arena *arena;           /* the answer's tree and strings */
	const Case *c;
	const ExportMap *map;
	Decisions *ds;
	ToolReport *t;
	PlanItem *items;
	const char **whys;      /* items[i]: the tool's word, in arena */
	int nitems, capitems;
	const char *exported;   /* the MLIR the tool read */
	Str note;
	int rc;                 /* 1 at the first impossible answer */
	const Op *castop;       /* the call whose tensor.casts are being read */
	int ncasts;             /* how many of them so far */
	struct BrWords {        /* branches the tool annotated (cf.br/cond_br) */
		const Op *op;
		const char **w; /* ... and their words, operand by operand */
	} *brs;
	int nbrs, capbrs;
} Reading;

/* The n-th tensor.cast exported for call op (the answer keeps them in
 * order; they share the call's location). */
static const ExportOp *
call_cast(const ExportMap *m, const Op *op, int n)
{
	for (int i = 0; m && i < m->nops; i++)
		if (m->ops[i].op == op && !strcmp(m->ops[i].mlir, "tensor.cast") &&
		    !n--)
			return &m->ops[i];
	return NULL;
}

/* The line of the exported MLIR where OPNAME defines %NAME: `%NAME =
 * OPNAME`, or one of its results (`%rf, %_7, %NAME = scf.for`), or 0. */
static int
export_line(const char *text, const char *name, const char *mlir)
{
	size_t nn = strlen(name), nm = strlen(mlir);
	int line = 1;

	for (const char *p = text; p && *p; line++) {
		const char *q = p + strspn(p, " "), *e = strchr(q, '\n'),
			   *eq = strstr(q, " = ");
		if (*q == '%' && eq && (!e || eq < e) &&
		    !strncmp(eq + 3, mlir, nm) && (eq[3 + nm] == ' ' ||
						   eq[3 + nm] == '('))
			/* each result in `%a, %b = `: `%` NAME then `,` or ` ` */
			for (const char *r = q; r && r < eq; r = strstr(r, ", %")) {
				r += *r == ',' ? 2 : 0;
				if (!strncmp(r + 1, name, nn) &&
				    (r[1 + nn] == ',' || r + 1 + nn == eq))
					return line;
			}
		if ((p = e))
			p++;
	}
	return 0;
}

static void
add_item(Reading *R, Value *res, Value *into, Loc loc, const char *why)
{
	if (R->nitems == R->capitems) {
		int nc = R->capitems ? 2 * R->capitems : 16;
		PlanItem *n = mem_realloc(R->items, (size_t)nc * sizeof *n);
		const char **w = n ? mem_realloc(R->whys, (size_t)nc * sizeof *w)
				   : NULL;
		if (n)
			R->items = n;
		if (!w) {
			R->rc = -1;
			return;
		}
		R->whys = w;
		R->capitems = nc;
	}
	R->whys[R->nitems] = why;
	R->items[R->nitems++] = (PlanItem){res, into, loc};
}

/* The tool's own word for result res of its op m (explain, docs/mlir.md):
 * the annotation it printed and the operand it decided on. */
static const char *
tool_word(Reading *R, const MOp *m, const MAttr *attr, const Value *res,
	  const Value *into, int k, const char *w)
{
	Str b = {0};
	const char *s;

	str_printf(&b, "MLIR: %s, operand %d (%%%s) \"%s\": %s (%s = %s on %s "
		   "at line %d of its answer)", strcmp(w, "true") ?
		   "out of place" : "in place", k, into ? into->name : "?", w,
		   strcmp(w, "true") ? "a new buffer" : "the operand's buffer",
		   attr->name, attr->text, m->name, m->at.line);
	(void)res;
	s = arena_strdup(R->arena, b.s && !b.oom ? b.s : "MLIR's decision");
	str_free(&b);
	return s;
}

/* One annotated op: its tied results become in-place or new decisions,
 * a call's "false" operands argument copies. */
/* A tensor arith.select: One-Shot answers per operand whether the result
 * shares its buffer ("true") or reads a copy ("false").  bufdiff's select
 * shares both or neither (`yields: {R: share|copy}`): both "true" is
 * share; anything else is copy, named in the note (a copy is never
 * wrong, so a bug only on the shared side of a mixed answer is missed). */
static void
select_words(Reading *R, const MOp *m, const MAttr *attr, const Op *op)
{
	const char *w[4];
	int n = mattr_strings(attr, R->arena, w, 4);
	bool share = n == 3 && !strcmp(w[1], "true") && !strcmp(w[2], "true");

	if (n != 3) {
		R->rc = tool_error(R->t, "answer: %s at line %d: %d in-place "
				   "words for 3 operands", m->name, m->at.line, n);
		return;
	}
	if (share && R->ds->eshare)
		R->ds->eshare[op->res[0]->id] = 1;
	str_printf(&R->note, "  %%%s:%s at %s:%d:%d <- arith.select (answer "
		   "line %d): operands \"%s\", \"%s\"%s\n", op->res[0]->name,
		   share ? "share" : "copy", R->c->file, op->loc.line,
		   op->loc.col, m->at.line, w[1], w[2],
		   share || (strcmp(w[1], "true") && strcmp(w[2], "true")) ? ""
		   : " (one shared, one copied: bufdiff copies both)");
}

static void
read_annotation(MOp *m, void *ctx)
{
	Reading *R = ctx;
	const MAttr *attr = mop_attr(m, "__inplace_operands_attr__");
	const char *w[64];
	char at[4200];
	const ExportOp *eo;
	const Op *op;
	int n;

	if (!attr || R->rc)
		return;
	if (!m->loc.file || strcmp(m->loc.file, R->c->file) ||
	    !(op = prog_op_at(R->c->prog, OP_COUNT,
			      (Loc){m->loc.line, m->loc.col}))) {
		R->rc = tool_error(R->t, "answer: %s at line %d has no location "
				   "of an op of the case", m->name, m->at.line);
		return;
	}
	if (op->kind == OP_SELECT && !strcmp(m->name, "arith.select")) {
		select_words(R, m, attr, op);
		return;
	}
	if (!strcmp(m->name, "tensor.cast") && op_info[op->kind].form == F_CALL) {
		if (R->castop != op)
			R->ncasts = 0;
		R->castop = op;
		eo = call_cast(R->map, op, R->ncasts++);
	} else {
		eo = export_find(R->map, op, m->name);
	}
	if (!eo) {
		/* mlir-opt-16 states some out-of-place uses by inserting a
		 * copy (alloc_tensor copy(%v)) that one use reads: no plan
		 * can say "this use reads a copy" */
		if (!strcmp(m->name, "bufferization.alloc_tensor"))
			R->rc = tool_error(R->t, "answer: bridge limit: the tool "
					   "inserted a copy for one use (%s at "
					   "line %d, for line %d), which no plan "
					   "can state", m->name, m->at.line,
					   op->loc.line);
		return; /* an op that decides nothing (return, extract, ...) */
	}
	n = mattr_strings(attr, R->arena, w, 64);
	if (n != eo->noperands) {
		R->rc = tool_error(R->t, "answer: %s at line %d: %d in-place "
				   "words for %d operands", m->name, m->at.line,
				   n, eo->noperands);
		return;
	}
	for (int k = 0; k < n; k++)
		if (strcmp(w[k], "true") && strcmp(w[k], "false") &&
		    strcmp(w[k], "none")) {
			R->rc = tool_error(R->t, "answer: %s at line %d: unknown "
					   "in-place word '%s'", m->name,
					   m->at.line, w[k]);
			return;
		}
	if (op->kind == OP_BR || op->kind == OP_COND_BR) {
		/* one word per TIR operand: a carried future's token and
		 * values (async types: "none") fold into its one operand */
		const char **keep = arena_alloc(R->arena, sizeof *keep *
						(size_t)(op->nargs + 1));
		for (int t = 0, k = 0; t < op->nargs && k < n; t++) {
			const Value *v = op->args[t].v;
			keep[t] = w[k];
			k += v && v->type->kind == TY_FUTURE ?
			     1 + v->type->nelems : 1;
		}
		struct BrWords bw = {op, keep};
		VEC_PUSH(R->arena, R->brs, R->nbrs, R->capbrs, bw);
		return;
	}
	if (op_info[op->kind].form == F_CALL) {
		/* a cast's operand is the call's operand eo->arg: MLIR puts
		 * the copy of an argument cast to a `?` param on the cast */
		bool is_cast = !strcmp(eo->mlir, "tensor.cast");
		for (int k = 0; k < n; k++)
			if (!strcmp(w[k], "false") && eo->operands[k] &&
			    eo->operands[k]->type->kind == TY_TENSOR) {
				int arg = is_cast ? eo->arg : k;
				if (decisions_argcopy(R->ds, op, arg, "MLIR copies "
						      "the argument"))
					R->rc = -1;
				str_printf(&R->note, "  call @%s at %s arg %d: "
					   "copy (%s at line %d: \"false\")\n",
					   op->callee, prog_loc(R->c->prog, op->loc,
					   at, sizeof at), arg, m->name, m->at.line);
			}
		return;
	}
	for (int j = 0; j < eo->nresults; j++) {
		int k = eo->tied[j];
		Value *res = eo->results[j], *into;
		DecKind base = res ? base_decision(res).kind : DEC_NONE;
		bool inplace = k >= 0 && !strcmp(w[k], "true");
		/* results that get their buffer from a region or a callee
		 * are nobody's decision; a view is MLIR's "true" on an
		 * extract_slice, and its "false" a copy of the slice */
		if (k < 0 || (base != DEC_NEW && base != DEC_VIEW) ||
		    (base == DEC_VIEW && inplace))
			continue;
		/* a reshape's "true" is a view where the strides allow it;
		 * MLIR copies a source it cannot collapse, and so do we */
		if (inplace && op->kind == OP_COLLAPSE_SHAPE &&
		    !buf_contiguous(R->c->prog, R->ds, eo->operands[k]))
			continue;
		into = eo->operands[k];
		add_item(R, res, inplace ? into : NULL, op->loc,
			 tool_word(R, m, attr, res, into, k, w[k]));
		str_printf(&R->note, "  %%%s:%s at %s <- %s (export line %d, "
			   "answer line %d): operand %d \"%s\"\n", res->name,
			   inplace && into ? into->name : "new",
			   prog_loc(R->c->prog, op->loc, at, sizeof at),
			   m->name, export_line(R->exported, res->name, m->name),
			   m->at.line, k, w[k]);
	}
}

/* ---- mlir: block arguments */

/* MLIR's word for the value branch `br` passes to argument i of its
 * successor s: "share" when the operand is "true" (the block argument is
 * the incoming buffer, no copy at the edge), "copy" when "false"; a branch
 * without words (mlir-opt-16 does not bufferize cf ops: the memref flows
 * through a to_tensor) shares. */
static const char *
edge_word(const Reading *R, const Op *br, int s, int i)
{
	for (int k = 0; k < R->nbrs; k++)
		if (R->brs[k].op == br)
			return strcmp(R->brs[k].w[br->sarg[s] + i], "false") ?
			       "share" : "copy";
	return "share";
}

/*
 * The answer's `blockargs` (docs/mlir.md): for each tensor argument of a
 * block after the entry of a function, one word per incoming edge in the
 * order of the branches in the text (Block.preds: a cond_br with both
 * arms there gives two edges, in its successors' order), the shape of the
 * `blockargs: {ARG: [share|copy, ...]}` plan key.  MLIR treats a block
 * argument as equivalent to the buffers coming in, so One-Shot's answer
 * is `share` on every edge.  Each word is set in ds->eshare (bit p: share
 * on edge p); the words go to doc as `blockargs: {a: [share, share]}`
 * (nothing when no function branches) and a line per argument to the
 * report's note.
 */
static void
blockargs_apply(Reading *R, Str *doc)
{
	const Program *p = R->c->prog;
	bool any = false;

	for (int fi = 0; fi < p->nfuncs; fi++) {
		const Func *f = p->funcs[fi];
		for (int bi = 1; bi < f->nblocks; bi++) {
			const Block *b = f->blocks[bi];
			for (int i = 0; i < b->nargs; i++) {
				const Value *a = b->args[i];
				if (a->type->kind != TY_TENSOR)
					continue;
				str_printf(doc, "%s%s: [", any ? ", " :
					   "blockargs: {", a->name);
				str_printf(&R->note, "  %%%s of ^%s:", a->name,
					   b->label);
				any = true;
				for (int e = 0; e < b->npreds; e++) {
					const Op *br = b->preds[e];
					int s = 0, seen = 0;
					/* the edge's successor: count this
					 * branch's earlier edges into b */
					for (int k = 0; k < e; k++)
						seen += b->preds[k] == br;
					for (; s < br->nsucc; s++)
						if (br->succ[s] == b && !seen--)
							break;
					const char *w = edge_word(R, br, s, i);
					/* eshare holds 64 edges; past them a
					 * block argument gets copies */
					if (!strcmp(w, "share") && e < 64 &&
					    R->ds->eshare)
						R->ds->eshare[a->id] |= 1ull << e;
					str_printf(doc, "%s%s", e ? ", " : "", w);
					str_printf(&R->note, "%s %s (^%s <- %s%s, line "
						   "%d)", e ? "," : "", w, b->label,
						   br->parent->label ? "^" : "",
						   br->parent->label ?
						   br->parent->label : "the entry",
						   br->loc.line);
				}
				str_puts(doc, "]");
				str_puts(&R->note, "\n");
			}
		}
	}
	if (any)
		str_puts(doc, "}");
}

/* Each new buffer the tool decided is explained in its words, not as
 * "forced by the plan" (kept in the decisions' arena). */
static void
tool_words(Reading *R)
{
	for (int i = 0; i < R->nitems; i++) {
		Decision *dec = &R->ds->d[R->items[i].res->id];
		if (dec->kind == DEC_NEW && R->whys[i])
			dec->reason = arena_strdup(R->ds->arena, R->whys[i]);
	}
}

static int
apply_mlir(const Case *c, const char *in, const char *ans,
	   const ExportMap *map, Decisions *ds, ToolReport *t)
{
	Arena *a = arena_new();
	Reading R = {.arena = a, .c = c, .map = map, .ds = ds, .t = t,
		     .exported = in};
	MOp *top;
	Diag d;

	if (!a)
		return -1;
	if (mlir_read(ans, strlen(ans), a, &top, &d)) {
		R.rc = tool_error(t, "answer: unreadable MLIR at %d:%d: %s",
				  d.loc.line, d.loc.col, d.msg);
	} else {
		Str doc = {0};
		mop_walk(top, read_annotation, &R);
		Plan pl = {.items = R.items, .nitems = R.nitems};
		if (!R.rc && plan_apply(ds, &pl, &d))
			R.rc = tool_error(t, "answer: impossible decision: %s",
					  d.msg);
		if (!R.rc)
			tool_words(&R);
		if (!R.rc && prog_has_cfg(c->prog))
			blockargs_apply(&R, &doc);
		/* doc is what a decisions document's `blockargs` key says
		 * (TODO(blockargs): once plandoc/runs.c read that key, an
		 * exec: strategy's answer can state it too; the mlir strategy
		 * sets Decisions.eshare itself) */
		if (doc.len)
			str_printf(&R.note, "  %s\n", doc.s);
		if (doc.oom)
			R.rc = -1;
		str_free(&doc);
	}
	t->decisions = str_take(&R.note);
	mem_free(R.items);
	mem_free(R.whys);
	arena_free(a);
	return R.rc;
}

/* ---- the strategy */

/* What the tool answers for case c: 0 with *in (what it read, mem_alloc'ed,
 * map filled in arena a) and *ans (the cache's); 1 a tool-error (t), also
 * when c cannot be exported; -1 out of memory. */
static int
ask_case(const ExternalOpts *o, const Strategy *s, const Case *c, Arena *a,
	 ExportMap *map, char **in, const char **ans, double *deadline,
	 ToolReport *t)
{
	Diag d;

	repro_command(o, s, c, t);
	tool_keep_label(c->name ? c->name : c->file);
	if (!(*in = tool_input(o, s, c, a, map, &d))) {
		if (!d.msg[0])
			return -1;
		return tool_error(t, "cannot export: %d:%d: %s", d.loc.line,
				  d.loc.col, d.msg);
	}
	if (!exec_kind(s))
		return ask(o, s, *in, ans, deadline, t);
	/* the exec protocol names the entry (docs/external.md): the tool
	 * inherits it, and an answer is kept per entry */
	key_entry = c->entry ? c->entry->name : "main";
	if (setenv("BUFDIFF_ENTRY", key_entry, 1)) {
		key_entry = NULL;
		return -1;
	}
	int rc = ask(o, s, *in, ans, deadline, t);
	key_entry = NULL;
	return rc;
}

int
external_decide(const ExternalOpts *o, const Strategy *s, const Case *c,
		Decisions *ds, ToolReport *t, Diag *err)
{
	Arena *a = arena_new();
	ExportMap map = {0};
	const char *ans;
	char *in = NULL;
	double deadline;
	int rc;

	memset(t, 0, sizeof *t);
	if (!a || decisions_make(c->prog, strategy_find("copy-all"), ds)) {
		arena_free(a);
		return diag_set(err, c->entry->loc, "out of memory");
	}
	rc = ask_case(o, s, c, a, &map, &in, &ans, &deadline, t);
	if (rc == 0) {
		double old = stop_deadline(deadline);
		rc = s->kind == STRAT_MLIR || s->kind == STRAT_NATIVE
			     ? apply_mlir(c, in, ans, &map, ds, t)
			     : apply_document(s, c, ans, ds, t);
		if (rc >= 0 && read_late(o, s, in, t))
			rc = 1;
		stop_deadline(old);
	}
	if (rc == 0 && (s->kind == STRAT_MLIR || s->kind == STRAT_NATIVE))
		ds->lower |= LOWER_SHARED_IS_RESULT; /* what MLIR's words mean */
	mem_free(in);
	arena_free(a);
	if (rc < 0)
		return diag_set(err, c->entry->loc, "out of memory");
	return rc;
}

/* ---- mlir-pipeline: the memref program */

int
external_memref(const ExternalOpts *o, const Strategy *s, const Case *c,
		BProg **bp, const Func **entry, ToolReport *t, Diag *err)
{
	Arena *a = arena_new();
	ExportMap map = {0};
	const char *ans;
	char *in = NULL;
	double deadline, old;
	Diag d;
	int rc, mrc = 0;

	memset(t, 0, sizeof *t);
	*bp = NULL;
	if (!a)
		return diag_set(err, c->entry->loc, "out of memory");
	rc = ask_case(o, s, c, a, &map, &in, &ans, &deadline, t);
	if (rc < 0)
		diag_set(err, c->entry->loc, "out of memory");
	if (rc == 0) {
		t->memref = mem_strdup(ans);
		old = stop_deadline(deadline);
		mrc = memref_program(c, ans, &map, bp, entry, &d);
		if (read_late(o, s, in, t)) {
			bprog_free(*bp);
			*bp = NULL;
			rc = 1;
		}
		stop_deadline(old);
	}
	if (rc == 0 && !mrc)
		/* a pipeline without deallocation frees nothing by design */
		(*bp)->frees_nothing = !strstr(pipeline(o), "dealloc");
	else if (rc == 0) {
		rc = -1;
		if (d.loc.line)
			diag_set(err, (Loc){0, 0}, "the memref program at %d:%d "
				 "(%s): %s", d.loc.line, d.loc.col,
				 strategy_label(s), d.msg);
		else
			*err = d;
	}
	mem_free(in);
	arena_free(a);
	return rc;
}

/* ---- fuzz batches: many programs, one tool call */

/* The pass pipeline of a call, as --pass-pipeline's text: the analysis
 * (mlir) or the whole pipeline (mlir-pipeline), on the module or (batch)
 * anchored on every nested module of a batch.  Both run nested in
 * mlir-opt-22: the nested modules are symbol tables, so each gets its own
 * dealloc_helper, and a failing module stops the call (its diagnostics
 * name it).  Unbatched, the analysis is what external_command's
 * --one-shot-bufferize=OPTIONS runs; NULL when --mlir-options holds what
 * may read otherwise in braces (the call stays a process). */
static char *
pass_pipeline(const ExternalOpts *o, const Strategy *s, bool batch)
{
	const MlirVersion *v = mlir_version(external_mlir_version(o, s));
	const char *mo = opts(o)->mlir_options;
	Str p = {0};

	str_puts(&p, batch ? "builtin.module(builtin.module(" :
			     "builtin.module(");
	if (s->kind == STRAT_PIPELINE) {
		str_puts(&p, pipeline(o));
	} else {
		if (!batch && mo && strpbrk(mo, "{}'\"\\"))
			return NULL;
		str_puts(&p, "one-shot-bufferize{bufferize-function-boundaries "
			 "test-analysis-only");
		if (v->analysis_options && *v->analysis_options)
			str_printf(&p, " %s", v->analysis_options);
		if (mo && *mo)
			str_printf(&p, " %s", mo);
		str_puts(&p, "}");
	}
	str_puts(&p, batch ? "))" : ")");
	return str_take(&p);
}

static char *
batch_command(const ExternalOpts *o, const Strategy *s)
{
	Str b = {0}, p = {0};
	char *pipe = pass_pipeline(o, s, true), *word;

	str_printf(&p, "--pass-pipeline=%s", pipe ? pipe : "");
	word = str_take(&p);
	str_printf(&b, "%s ", s->arg);
	tool_sh_quote(&b, word ? word : "");
	str_puts(&b, " --mlir-print-op-generic --mlir-print-debuginfo "
		 "--mlir-print-local-scope");
	mem_free(pipe);
	mem_free(word);
	return str_take(&b);
}

/* Start of line `line` (1-based) in text. */
static const char *
line_start(const char *text, int line)
{
	for (int l = 1; l < line && text; l++)
		if ((text = strchr(text, '\n')))
			text++;
	return text;
}

/* The text [from, to) with two spaces less at the start of each line: a
 * nested module's lines as the tool prints the module alone, so that the
 * memref lines of reports are those of the unbatched answer (only the
 * SSA numbers and `<stdin>` locations differ; they name nothing we read). */
static char *
outdented(const char *from, const char *to)
{
	char *one = mem_alloc((size_t)(to - from) + 1), *o = one;

	if (!one)
		return NULL;
	while (from < to) {
		for (int k = 0; k < 2 && from < to && *from == ' '; k++)
			from++;
		while (from < to && (*o++ = *from++) != '\n')
			;
	}
	*o = 0;
	return one;
}

/* Split the batch's answer into one answer per nested module, in order,
 * and remember each for its program's input.  -1 when the answer does not
 * have n nested modules. */
static int
split_answer(const ExternalOpts *o, const Strategy *s, const char *ans,
	     char **in, int n)
{
	Arena *a = arena_new();
	const char *end = NULL;
	MOp *top;
	MBlock *b;
	Diag d;
	int rc = -1;

	if (!a || mlir_read(ans, strlen(ans), a, &top, &d) ||
	    top->nregions != 1 || top->regions[0].nblocks != 1)
		goto out;
	b = top->regions[0].blocks[0];
	if (b->nops != n)
		goto out;
	for (const char *p = ans; (p = strstr(p, "\n})")); p++)
		end = p + 1; /* the outer module's last line */
	for (int i = 0; i < n && end; i++) {
		const char *from = line_start(ans, b->ops[i]->at.line);
		const char *to = i + 1 < n ? line_start(ans, b->ops[i + 1]->at.line)
					   : end;
		char *one;
		if (!from || !to || to < from || !(one = outdented(from, to)))
			goto out;
		external_remember(o, s, in[i], one);
		mem_free(one);
	}
	rc = 0;
out:
	arena_free(a);
	return rc;
}

/* In-process, a batch is the programs' own calls in one request
 * (inproc_batch): each answer (or failure) is cached as its own call's,
 * a program the server died on or that ran out of time too (its own
 * call would say the same: before, asking it again cost a second crash,
 * ~0.1 s of CPU in MLIR's runaway recursions); a program the request
 * ended before for another reason (the worker lost) is left to its own
 * call.  The rest go on in the next request.  0 done; 1 when the route
 * is not in-process (the batch of nested modules then). */
static int
ask_inproc(const ExternalOpts *o, const Strategy *s, char **in,
	   const char **labels, int n)
{
	char *pipe = NULL, *cmd = NULL;
	ToolCall *c = NULL;
	ToolResult *r = NULL;
	Str b = {0};
	int rc = 1;

	if ((s->kind != STRAT_MLIR && s->kind != STRAT_NATIVE &&
	     s->kind != STRAT_PIPELINE) || !inproc_wanted(s->arg) ||
	    !(pipe = pass_pipeline(o, s, false)))
		return 1;
	external_command(o, s, &b);
	cmd = str_take(&b);
	c = mem_calloc((size_t)n, sizeof *c);
	r = mem_calloc((size_t)n, sizeof *r);
	for (int i = 0; cmd && c && i < n; i++)
		c[i] = (ToolCall){cmd, in[i], strlen(in[i]), opts(o)->timeout,
				  0, false};
	for (int done = 0; cmd && c && r && done < n;) {
		int k;
		bool ended; /* on a failure of the last answered: no r[] after */
		rc = inproc_batch(c + done, labels + done, n - done, pipe,
				  opts(o)->workdir, r + done, &k);
		ended = k > 0 && r[done + k - 1].status != TOOL_OK &&
			r[done + k - 1].status != TOOL_EXIT;
		for (int i = done; i < done + k; i++) { /* also when rc < 0 */
			stats.seconds += r[i].seconds;
			remember_result(o, s, in[i], &r[i]);
			tool_result_free(&r[i]);
		}
		if (rc)
			break;
		stats.batched += n - done;
		stats.calls++; /* one request */
		done += k;
		if (done < n && !ended) {
			bool stop = r[done].status == TOOL_INTERRUPTED;
			stats.seconds += r[done].seconds;
			tool_result_free(&r[done]);
			done++;
			if (stop) /* each program's own call says so */
				break;
		}
	}
	mem_free(pipe);
	mem_free(cmd);
	mem_free(c);
	mem_free(r);
	return rc > 0 ? 1 : 0;
}

/* One batch call over in[0..n) (programs of files[0..n)).  When the tool
 * fails, the programs its stderr names (FILE:LINE:COL: error) are left to
 * their own call, whose stderr is the program's alone (a batch's notes
 * print the op with the batch's value numbers), and the rest are asked
 * again; when it names none (a crash), the batch is halved.  A batch of
 * one is left to the program's own call. */
static void
ask_batch(const ExternalOpts *o, const Strategy *s, const char *cmd, char **in,
	  const char **files, int n)
{
	Str b = {0};
	ToolResult r;
	char *text;
	double deadline;
	int keep = 0;

	if (n < 2)
		return;
	str_puts(&b, "module {\n");
	for (int i = 0; i < n; i++) {
		str_puts(&b, "module {\n");
		str_puts(&b, in[i]);
		str_puts(&b, "\n}\n");
	}
	str_puts(&b, "}\n");
	if (!(text = str_take(&b)))
		return;
	stats.batched += n;
	deadline = tool_now() + opts(o)->timeout;
	if (run_tool(o, s, cmd, true, text, opts(o)->timeout, &r)) {
		mem_free(text);
		return;
	}
	mem_free(text);
	if (r.status == TOOL_INTERRUPTED) { /* each program's own call says so */
		tool_result_free(&r);
		return;
	}
	if (r.status == TOOL_OK) {
		/* read within the call's time too; late, each program is
		 * asked alone */
		double old = stop_deadline(deadline);
		int sp = split_answer(o, s, r.out, in, n);
		bool late = stop_late() || stop_signal();
		stop_deadline(old);
		if (!sp || late) {
			tool_result_free(&r);
			return;
		}
	}
	for (int i = 0; i < n; i++) { /* move the programs not named first */
		char at[512];
		fmt_snprintf(at, sizeof at, "%s:", files[i]);
		if (r.err && strstr(r.err, at))
			continue;
		char *t = in[keep];
		const char *f = files[keep];
		in[keep] = in[i], files[keep] = files[i];
		in[i] = t, files[i] = f;
		keep++;
	}
	tool_result_free(&r);
	if (keep < n) {
		ask_batch(o, s, cmd, in, files, keep);
	} else {
		ask_batch(o, s, cmd, in, files, n / 2);
		ask_batch(o, s, cmd, in + n / 2, files + n / 2, n - n / 2);
	}
}

bool
external_batches(const Strategy *s)
{
	/* mlir's batches anchor the pass on each nested module, which a
	 * wrapper of the tool (a script setting its own pipeline) would not
	 * do: Debian's mlir-opt-N only (no strategy_command) */
	return s && (s->flags & STRAT_BATCH) &&
	       (exec_kind(s) || !strategy_command(s));
}

int
external_prefill(const ExternalOpts *o, const Strategy *s, Case *const *cases,
		 int n)
{
	char **in = mem_calloc((size_t)n + 1, sizeof *in);
	const char **files = mem_calloc((size_t)n + 1, sizeof *files);
	const char **labels = mem_calloc((size_t)n + 1, sizeof *labels);
	char *cmd;
	int m = 0;

	if (exec_kind(s)) { /* exec-batch:, exec-stream: (exec_batch.c) */
		mem_free(in);
		mem_free(files);
		mem_free(labels);
		return s->flags & STRAT_BATCH ? exec_prefill(o, s, cases, n) : 0;
	}
	cmd = s->flags & STRAT_BATCH ? batch_command(o, s) : NULL;

	if (in && files && labels && cmd)
		for (int i = 0; i < n; i++) {
			char *t = external_input(o, s, cases[i]);
			if (t && !answer_get(o, s, t)) {
				files[m] = cases[i]->file;
				labels[m] = cases[i]->name ? cases[i]->name
							   : cases[i]->file;
				in[m++] = t;
			} else {
				mem_free(t);
			}
		}
	if (cmd && m > 1 && ask_inproc(o, s, in, labels, m))
		ask_batch(o, s, cmd, in, files, m);
	for (int i = 0; i < m; i++)
		mem_free(in[i]);
	mem_free(in);
	mem_free(files);
	mem_free(labels);
	mem_free(cmd);
	return m;
}

/* ---- the entries (strategy_answer) */

static int
decide_entry(const Strategy *s, const StratCtx *ctx, Answer *out)
{
	return external_decide(ctx->tool, s, ctx->c, out->ds, &out->tool,
			       &out->err);
}

/* No decisions: the memref program says everything (copy-all's stand
 * for the reports). */
static int
memref_entry(const Strategy *s, const StratCtx *ctx, Answer *out)
{
	if (decisions_make(ctx->p, strategy_find("copy-all"), out->ds))
		return -1;
	return external_memref(ctx->tool, s, ctx->c, &out->bp, &out->entry,
			       &out->tool, &out->err);
}

void
external_register(void)
{
	strategy_register(STRAT_EXEC, decide_entry);
	strategy_register(STRAT_EXEC_MLIR, decide_entry);
	strategy_register(STRAT_MLIR, decide_entry);
	strategy_register(STRAT_NATIVE, decide_entry);
	strategy_register(STRAT_PIPELINE, memref_entry);
}
