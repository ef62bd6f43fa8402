/*
 * import_cli.c: `bufdiff import FILE.mlir [--func NAME] [--seed N]
 * [--out CASE] [--tool TOOL | --no-tool] [--tool-timeout SEC]`
 * (FORMAT.md §5, docs/import.md).  mlir-opt normalises the custom syntax
 * into the generic form (one reader for every version); the TIR that
 * import.c makes becomes a case with seeded inputs and the reference's
 * outputs.  Exit 0, or 2 with one diagnostic.
 */
#include <errno.h>
#include <string.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "escape.h"
#include "cli.h"
#include "cases.h"
#include "mlir.h"
#include "harness.h"

typedef struct ImpOpts {
	const char *path, *func, *out, *tool;
	bool no_tool;
	int64_t seed;
	double timeout;
} ImpOpts;

/* The whole file, mem_alloc'ed (input.c: a regular file, bounded), or
 * NULL with d. */
static char *
slurp(const char *path, size_t *len, Diag *d)
{
	return input_read(path, MAX_CASE_BYTES, "an MLIR file", len, d);
}

static bool
on_path(const char *tool)
{
	const char *p = getenv("PATH");
	char buf[4096];

	while (p && *p) {
		size_t n = strcspn(p, ":");
		fmt_snprintf(buf, sizeof buf, "%.*s/%s", (int)n, p, tool);
		if (access(buf, X_OK) == 0)
			return true;
		p += n + (p[n] == ':');
	}
	return false;
}

/* --tool, else the newest mlir-opt-N installed, else NULL (generic form). */
static const char *
pick_tool(const ImpOpts *o)
{
	static const char *const tools[] = {"mlir-opt-22", "mlir-opt-19",
					    "mlir-opt-16"};

	if (o->no_tool)
		return NULL;
	if (o->tool)
		return o->tool;
	for (int i = 0; i < 3; i++)
		if (on_path(tools[i]))
			return tools[i];
	return NULL;
}

/* The one diagnostic: FILE:LINE:COL: error: MSG, source line, caret. */
static void
report(const char *file, const char *text, const char *dfile,
       const Diag *d)
{
	size_t n;
	char *t = NULL;
	Diag ignored;

	if (strcmp(dfile, file))
		text = t = slurp(dfile, &n, &ignored);
	diag_print(stderr, dfile, text, d);
	mem_free(t);
}

/* The tool refused the file: pass its first `FILE:L:C: error: msg` on
 * with the user's source line. */
static int
tool_failed(const char *file, const char *text, const char *tool,
	    const ToolResult *r)
{
	char head[600], st[120];
	const char *e = r->err ? strstr(r->err, ": error: ") : NULL;
	Diag d = {{0, 0}, ""};

	if (r->status == TOOL_EXIT && e) {
		const char *p = e, *line = e;
		while (line > r->err && line[-1] != '\n')
			line--;
		/* back over ":COL" and ":LINE" */
		while (p > line && p[-1] != ':')
			p--;
		d.loc.col = atoi(p);
		if (p > line)
			p--;
		while (p > line && p[-1] != ':')
			p--;
		d.loc.line = atoi(p);
		fmt_snprintf(d.msg, sizeof d.msg, "%.*s", (int)strcspn(e + 9, "\n"),
			 e + 9);
		if (d.loc.line > 0 && p > line && !strncmp(line, file, strlen(file))) {
			diag_print(stderr, file, text, &d);
			return STATUS_BAD;
		}
	}
	term_fprintf(stderr, "%s: error: %s %s: %s\n", file, tool,
		tool_status_str(r, st, sizeof st),
		tool_stderr_head(r, 1, head, sizeof head));
	return STATUS_BAD;
}

/* The generic form of FILE: the tool's output, or the text itself. */
static int
generic_text(const ImpOpts *o, const char *text, size_t len, char **gen,
	     size_t *glen)
{
	const char *tool = pick_tool(o);
	ToolResult r = {0};
	Str cmd = {0};
	char *c;
	int rc = 0;

	*gen = NULL;
	if (!tool) {
		*glen = len;
		return 0;
	}
	str_printf(&cmd, "%s --mlir-print-op-generic --mlir-print-debuginfo "
		   "--mlir-print-local-scope --allow-unregistered-dialect ", tool);
	sh_word(&cmd, o->path);
	if (!(c = str_take(&cmd)) || tool_run(c, "", 0, o->timeout, &r)) {
		mem_free(c);
		fprintf(stderr, "bufdiff import: out of memory\n");
		return STATUS_BAD;
	}
	mem_free(c);
	if (r.status != TOOL_OK)
		rc = tool_failed(o->path, text, tool, &r);
	else {
		*gen = r.out;
		*glen = r.nout;
		r.out = NULL;
	}
	tool_result_free(&r);
	return rc;
}

/* `{random: S, min: A, max: B[, shape: [4, ...]]}` for a param. */
static void
put_input(Str *b, const Value *v, int64_t seed)
{
	const Type *t = v->type;
	DType dt = t->dt;

	str_printf(b, "  %s: {random: %" PRId64 ", ", v->name, seed);
	if (dt == DT_I1)
		str_puts(b, "min: 0, max: 1");
	else if (dt == DT_INDEX)
		str_puts(b, "min: 0, max: 3");
	else if (dtype_is_float(dt))
		str_puts(b, "min: -1, max: 1");
	else
		str_puts(b, "min: -8, max: 8");
	if (t->kind == TY_TENSOR && !type_is_static(t)) {
		/* a `?` is 8 while the tensor stays within 4096 elements
		 * (tensor<?x?x?x?x?x?x?x?xi32> would be 2^24), then 1 */
		int64_t n = 1;

		for (int k = 0; k < t->rank; k++)
			if (t->dims[k] > 0 && n <= 4096)
				n *= t->dims[k] < 4096 ? t->dims[k] : 4097;
		str_puts(b, ", shape: [");
		for (int k = 0; k < t->rank; k++) {
			int64_t d = t->dims[k];
			if (d == DIM_DYN)
				n *= (d = n * 8 <= 4096 ? 8 : 1);
			str_printf(b, "%s%" PRId64, k ? ", " : "", d);
		}
		str_puts(b, "]");
	}
	str_puts(b, "}\n");
}

/* The case text around the program; NULL (with a message) when the
 * program TIR rejects. */
static char *
make_case(const ImpOpts *o, const char *tir, const Program *p)
{
	const char *slash = strrchr(o->path, '/'), *base = slash ? slash + 1 : o->path;
	const Func *f = o->func ? prog_func(p, o->func) : prog_func(p, "main");
	Str b = {0}, name = {0};

	if (!f)
		f = p->funcs[0];
	/* the file's name may hold anything: one YAML scalar */
	str_printf(&name, "import/%.*s%s%s", (int)strcspn(base, "."), base,
		   o->func ? "/" : "", o->func ? o->func : "");
	str_puts(&b, "case: ");
	yaml_scalar(&b, name.s ? name.s : "import/?");
	if (name.oom)
		b.oom = true;
	str_free(&name);
	str_puts(&b, "\nabout: ");
	yaml_scalar(&b, "imported from the MLIR file by bufdiff import");
	str_puts(&b, "\nprogram: |\n");
	for (const char *l = tir; *l; ) {
		size_t n = strcspn(l, "\n");
		str_printf(&b, "  %.*s\n", (int)n, l);
		l += n + (l[n] == '\n');
	}
	if (strcmp(f->name, "main")) {
		str_puts(&b, "entry: ");
		yaml_scalar(&b, f->name);
		str_puts(&b, "\n");
	}
	if (f->nparams)
		str_puts(&b, "inputs:\n");
	for (int i = 0; i < f->nparams; i++)
		put_input(&b, f->params[i], o->seed * 1000 + i);
	return str_take(&b);
}

/* `expect: outputs:` from the reference run of the case text. */
static int
add_outputs(const ImpOpts *o, Str *b, const char *ctext)
{
	Case *c = NULL;
	Diag d;
	Tensor **outs = NULL;
	int nouts = 0, rc = 0;

	if (case_parse(o->path, ctext, strlen(ctext), 0, &c, &d)) {
		term_fprintf(stderr, "%s: error: the imported program is rejected: "
			"%s (program line %d)\n", o->path, d.msg, d.loc.line - 3);
		case_free(c);
		return STATUS_BAD;
	}
	if (ref_run(c->prog, c->entry, c->inputs, &c->lim, &outs, &nouts, &d)) {
		/* the program imports; only these inputs make it fail */
		term_fprintf(stderr, "%s: warning: the reference fails on the imported "
			"program with these inputs (no expect.outputs): %s\n",
			o->path, d.msg);
	} else {
		/* a function without results: `outputs:` alone would be
		 * null, which the case reader refuses */
		str_puts(b, nouts ? "expect:\n  outputs:\n" :
			 "expect:\n  outputs: []\n");
		for (int i = 0; i < nouts; i++) {
			str_puts(b, "    - ");
			emit_data(b, outs[i], c->entry->rtypes[i]);
			str_puts(b, "\n");
		}
	}
	for (int i = 0; i < nouts; i++)
		tensor_free(outs[i]);
	mem_free(outs);
	case_free(c);
	return rc;
}

/* TIR text -> the case text (inputs and outputs), or NULL. */
static char *
tir_case(const ImpOpts *o, const char *tir)
{
	Diag d;
	Program *p = tir_parse(tir, strlen(tir), (SrcMap){0, 0}, &d);
	char *ctext;
	Str b = {0};

	if (!p) {
		term_fprintf(stderr, "%s: error: the imported program does not parse: "
			"%s (program line %d)\n", o->path, d.msg, d.loc.line);
		return NULL;
	}
	if (!p->nfuncs) {
		term_fprintf(stderr, "%s: error: no function to import\n", o->path);
		prog_free(p);
		return NULL;
	}
	ctext = make_case(o, tir, p);
	prog_free(p);
	if (!ctext)
		return NULL;
	str_puts(&b, ctext);
	if (add_outputs(o, &b, ctext)) {
		mem_free(ctext);
		str_free(&b);
		return NULL;
	}
	mem_free(ctext);
	return str_take(&b);
}

static int
write_out(const ImpOpts *o, const char *s)
{
	if (!output_write(o->out, s, strlen(s)))
		return 0;
	term_fprintf(stderr, "bufdiff import: cannot write %s: %s\n",
		     o->out ? o->out : "stdout", strerror(errno));
	return STATUS_BAD;
}

int
cmd_import(const Args *a)
{
	ImpOpts o = {a->paths[0], a->func, a->out, a->tool, a->no_tool,
		     a->import_seed, a->tool_timeout};
	size_t len, glen;
	char *text, *gen = NULL, *tir, *ctext = NULL;
	const char *dfile;
	Str out = {0};
	Diag d;
	int rc;

	if (!(text = slurp(o.path, &len, &d))) {
		term_fprintf(stderr, "bufdiff import: %s\n", d.msg);
		return STATUS_BAD;
	}
	if ((rc = generic_text(&o, text, len, &gen, &glen))) {
		mem_free(text);
		return rc;
	}
	if (mlir_import(gen ? gen : text, glen, o.path, o.func, &out, &d,
			&dfile)) {
		/* without a tool, mlir_read's positions are in FILE itself */
		report(o.path, text, d.loc.line && gen && dfile == o.path ?
		       "<generic form>" : dfile, &d);
		rc = STATUS_BAD;
	} else if (!(tir = str_take(&out))) {
		rc = STATUS_BAD;
	} else {
		ctext = tir_case(&o, tir);
		rc = ctext ? write_out(&o, ctext) : STATUS_BAD;
		mem_free(tir);
	}
	str_free(&out);
	mem_free(ctext);
	mem_free(gen);
	mem_free(text);
	return rc;
}
