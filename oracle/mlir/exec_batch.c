/*
 * exec_batch.c: the batch forms of the exec protocol (docs/external.md,
 * "Many programs per call").
 *
 *   exec-batch:CMD, exec-mlir-batch:CMD    one JSON document of programs
 *                  on stdin, one JSON document of answers back
 *   exec-stream:CMD, exec-mlir-stream:CMD  a JSON line per program until
 *                  EOF, an answer line per program back (flushed each)
 *
 * Each answer is remembered for its program in external.c's cache, as if
 * the tool had been asked about it alone (what it would print then), so
 * the program's own call (external_decide) finds it there.  A program the
 * batch did not answer (the tool crashed, timed out, answered the wrong
 * count, said `error`) is not remembered: its own call asks the tool
 * alone, by the one-program protocol, and that call decides its verdict.
 * So verdicts are the unbatched route's, whatever the batch did.
 */
#include <stdlib.h>

#include <jansson.h>

#include "mlir.h"
#include "cases.h"

enum { EXEC_BATCH = 64 };  /* programs per call unless o->batch says */

/* One program of a call. */
typedef struct Prog {
	char *in;               /* what the tool reads of it (TIR, MLIR) */
	const char *name;       /* the case's name, else its file */
	const char *entry;      /* the entry function, without @ */
} Prog;

/* The request of one program, as a JSON object; NULL when it cannot be
 * one (not UTF-8: that program is asked alone). */
static json_t *
request_one(const Prog *p, int id)
{
	return json_pack("{s:i, s:i, s:s, s:s, s:s}", "bufdiff-batch", 1,
			 "id", id, "name", p->name, "entry", p->entry,
			 "program", p->in);
}

/* What the tool reads: the programs as one document, or a line each,
 * id k for p[k].  Those that could be sent are moved first, in order
 * (*n of them on return). */
static char *
request(const Strategy *s, Prog *p, int *n)
{
	json_t *progs = json_array(), *doc;
	Str b = {0};
	char *one;
	int m = 0;

	if (!progs)
		return NULL;
	for (int i = 0; i < *n; i++) {
		json_t *r = request_one(&p[i], m);
		Prog t = p[i];
		if (!r)
			continue;
		p[i] = p[m], p[m++] = t;
		if (!(s->flags & STRAT_STREAM)) {
			json_array_append_new(progs, r);
			continue;
		}
		if ((one = json_dumps(r, JSON_COMPACT)))
			str_printf(&b, "%s\n", one);
		else
			b.oom = true;
		free(one);
		json_decref(r);
	}
	if (!(s->flags & STRAT_STREAM)) {
		doc = json_pack("{s:i, s:O}", "bufdiff-batch", 1, "programs",
				progs);
		if (doc && (one = json_dumps(doc, JSON_COMPACT))) {
			str_printf(&b, "%s\n", one);
			free(one);
		} else {
			b.oom = true;
		}
		json_decref(doc);
	}
	json_decref(progs);
	*n = m;
	return str_take(&b);
}

/* An answer's object: JSON holding "bufdiff-batch": 1, else NULL. */
static json_t *
batch_obj(const char *text, size_t len)
{
	json_t *j = json_loadb(text, len, JSON_REJECT_DUPLICATES, NULL);
	json_t *v = json_object_get(j, "bufdiff-batch");

	if (json_is_integer(v) && json_integer_value(v) == 1)
		return j;
	json_decref(j);
	return NULL;
}

/* The id of answer e, or -1. */
static int
answer_id(const json_t *e, int n)
{
	const json_t *id = json_object_get(e, "id");
	json_int_t k = json_is_integer(id) ? json_integer_value(id) : -1;

	return k >= 0 && k < n ? (int)k : -1;
}

/* Remember answer e for program p: its `answer`, a string as it is (what
 * the tool prints alone), a document as JSON.  No `answer` (an `error`,
 * null): nothing, the program is asked alone. */
static void
take(const ExternalOpts *o, const Strategy *s, const Prog *p, const json_t *e)
{
	const json_t *a = json_object_get(e, "answer");
	char *text;

	if (!a || json_is_null(a))
		return;
	if (json_is_string(a)) {
		external_remember_entry(o, s, p->entry, p->in,
					json_string_value(a));
		return;
	}
	if ((text = json_dumps(a, JSON_ENCODE_ANY)))
		external_remember_entry(o, s, p->entry, p->in, text);
	free(text);
}

/* The document's answers: one per program, each id once, else none is
 * taken (the tool did not understand the batch). */
static void
take_document(const ExternalOpts *o, const Strategy *s, const Prog *p, int n,
	      const ToolResult *r)
{
	json_t *doc = r->status == TOOL_OK ? batch_obj(r->out, r->nout) : NULL;
	json_t *ans = json_object_get(doc, "answers");
	bool *seen = mem_calloc((size_t)n + 1, sizeof *seen);
	size_t i;
	json_t *e;
	bool ok = seen && json_is_array(ans) && json_array_size(ans) == (size_t)n;

	json_array_foreach(ans, i, e) {
		int k = ok ? answer_id(e, n) : -1;
		if (k < 0 || seen[k])
			ok = false;
		else
			seen[k] = true;
	}
	json_array_foreach(ans, i, e)
		if (ok)
			take(o, s, &p[answer_id(e, n)], e);
	mem_free(seen);
	json_decref(doc);
}

/* The lines: answers in order, each the next program's, taken up to the
 * first that is not (a tool that died mid-stream answered those before);
 * a line cut short (no newline) is none.  More lines than programs: the
 * tool did not understand, none is taken. */
static void
take_lines(const ExternalOpts *o, const Strategy *s, const Prog *p, int n,
	   const ToolResult *r)
{
	int lines = 0, k = 0;

	for (size_t i = 0; i < r->nout; i++)
		lines += r->out[i] == '\n';
	if (lines > n || r->status == TOOL_INTERRUPTED)
		return;
	for (const char *l = r->out, *e; k < n && (e = memchr(l, '\n',
				r->nout - (size_t)(l - r->out))); l = e + 1, k++) {
		json_t *j = batch_obj(l, (size_t)(e - l));
		bool next = j && answer_id(j, n) == k;
		if (next)
			take(o, s, &p[k], j);
		json_decref(j);
		if (!next)
			break;
	}
}

/* One call about p[0..n). */
static void
ask_call(const ExternalOpts *o, const Strategy *s, const char *cmd, Prog *p,
	 int n)
{
	int sent = n;
	char *text = request(s, p, &sent);
	ToolResult r;

	if (!text || sent < 2) { /* a program alone: its own call */
		mem_free(text);
		return;
	}
	/* the tool's opt-in mode; the entries are in the request */
	if (setenv("BUFDIFF_BATCH", s->flags & STRAT_STREAM ? "stream" :
		   "document", 1) || unsetenv("BUFDIFF_ENTRY")) {
		mem_free(text);
		return;
	}
	tool_keep_label("batch");
	if (!external_run(cmd, text, sent, o->timeout, &r)) {
		if (s->flags & STRAT_STREAM)
			take_lines(o, s, p, sent, &r);
		else
			take_document(o, s, p, sent, &r);
		tool_result_free(&r);
	}
	unsetenv("BUFDIFF_BATCH");
	mem_free(text);
}

/* The programs of cases[0..n) without an answer yet, into p; their
 * number. */
static int
collect(const ExternalOpts *o, const Strategy *s, Case *const *cases, int n,
	Prog *p)
{
	int m = 0;

	for (int i = 0; i < n; i++) {
		const Case *c = cases[i];
		const char *entry = c->entry ? c->entry->name : "main";
		char *in = external_input(o, s, c);
		if (!in || external_known(o, s, entry, in)) {
			mem_free(in);
			continue;
		}
		p[m++] = (Prog){in, c->name ? c->name : c->file, entry};
	}
	return m;
}

int
exec_prefill(const ExternalOpts *o, const Strategy *s, Case *const *cases,
	     int n)
{
	const ExternalOpts *op = o ? o : &external_opts_default;
	int per = op->batch > 0 ? op->batch : EXEC_BATCH, m;
	Prog *p = mem_calloc((size_t)n + 1, sizeof *p);
	Str b = {0};
	char *cmd;

	external_command(op, s, &b);
	if (!p || !(cmd = str_take(&b))) {
		mem_free(p);
		str_free(&b);
		return 0;
	}
	m = collect(op, s, cases, n, p);
	for (int i = 0; per > 1 && i < m; i += per)
		ask_call(op, s, cmd, p + i, m - i < per ? m - i : per);
	for (int i = 0; i < m; i++)
		mem_free(p[i].in);
	mem_free(p);
	mem_free(cmd);
	return per > 1 ? m : 0;
}
