/*
 * import_cli.c: `bufdiff import FILE.mlir [--func NAME] [--seed N]
 * [--out CASE] [--tool TOOL | --no-tool] [--tool-timeout SEC]`
 * (FORMAT.md §5, docs/import.md).  mlir-opt normalises the custom syntax
 * into the generic form (one reader for every version); the TIR that
 * import.c makes becomes a case with seeded inputs and the reference's
 * outputs.  Exit 0, or 2 with one diagnostic.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/stat.h>

#include "escape.h"
#include "cli.h"
#include "cases.h"
#include "mlir.h"
#include "harness.h"
#include "strmap.h"

typedef struct ImpOpts {
	const char *path;       /* as given: FILE.mlir or FILE.mlir#N */
	const char *func, *out, *tool;
	const Strategy *strategy; /* --strategy S: the case's run; NULL none */
	bool no_tool;
	int64_t seed;
	double timeout;
	int64_t max_work;       /* --max-work of the reference run; 0: the case's */
	char file[4096];        /* path without `#N` */
	int section;            /* N of `#N`; 0: the whole file */
	const char *name;       /* the case's name; NULL: import/BASE */
	bool tagged;            /* the ops carry `// loc(L:C)` (a tool ran) */
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

/* `FILE.mlir#N`: o->file is FILE.mlir, o->section N (0 without `#N`). */
static int
split_path(ImpOpts *o, Diag *d)
{
	const char *h = strrchr(o->path, '#');
	char *end;
	long n = 0;

	if (h && h > o->path && h[1] >= '1' && h[1] <= '9') {
		n = strtol(h + 1, &end, 10);
		if (*end || n > 1000000)
			h = NULL, n = 0;
	} else {
		h = NULL;
	}
	if (fmt_snprintf(o->file, sizeof o->file, "%.*s",
			 (int)(h ? h - o->path : (long)strlen(o->path)),
			 o->path) >= (int)sizeof o->file)
		return diag_set(d, (Loc){0, 0}, "path too long");
	o->section = (int)n;
	return 0;
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

/* The tool refused the text: its first `<stdin>:L:C: error: msg` is the
 * user's line and column (the text went on stdin, lines kept); another
 * failure is its status and the head of its stderr, unlocated. */
static int
tool_failed(const char *tool, const ToolResult *r, Diag *d)
{
	char head[600], st[120];
	const char *e = r->err ? strstr(r->err, ": error: ") : NULL;
	static const char in[] = "<stdin>:";

	if (r->status == TOOL_EXIT && e) {
		const char *line = e;
		while (line > r->err && line[-1] != '\n')
			line--;
		if (!strncmp(line, in, sizeof in - 1)) {
			char *q;
			long l = strtol(line + sizeof in - 1, &q, 10), c = 0;
			if (*q == ':')
				c = strtol(q + 1, NULL, 10);
			if (l > 0 && c > 0)
				return diag_set(d, (Loc){(int)l, (int)c}, "%.*s",
						(int)strcspn(e + 9, "\n"), e + 9);
		}
	}
	return diag_set(d, (Loc){0, 0}, "%s %s: %s", tool,
			tool_status_str(r, st, sizeof st),
			tool_stderr_head(r, 1, head, sizeof head));
}

/* The generic form of the section's text: the tool's output (the text on
 * its stdin, so each loc is "<stdin>":L:C of the user's file), or NULL
 * without a tool (*gen = NULL: the text is it). */
static int
generic_text(ImpOpts *o, const char *text, size_t len, char **gen,
	     size_t *glen, Diag *d)
{
	const char *tool = pick_tool(o);
	ToolResult r = {0};
	Str cmd = {0};
	char *c;
	int rc = 0;

	*gen = NULL;
	*glen = len;
	if (!tool)
		return 0;
	tool_keep_label(o->path);
	str_printf(&cmd, "%s --mlir-print-op-generic --mlir-print-debuginfo "
		   "--mlir-print-local-scope --allow-unregistered-dialect -",
		   tool);
	if (!(c = str_take(&cmd)) || tool_run(c, text, len, o->timeout, &r)) {
		mem_free(c);
		return diag_set(d, (Loc){0, 0}, "out of memory");
	}
	mem_free(c);
	if (r.status != TOOL_OK) {
		rc = tool_failed(tool, &r, d);
	} else {
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

/* The case's name: as given on the command line (a file run directly,
 * `FILE.mlir#2`), or import/BASE[#N][/FUNC] for `bufdiff import`. */
static void
put_name(const ImpOpts *o, Str *b)
{
	const char *slash = strrchr(o->file, '/');
	const char *base = slash ? slash + 1 : o->file;
	Str name = {0};

	if (o->name)
		str_puts(&name, o->name);
	else
		str_printf(&name, "import/%.*s", (int)strcspn(base, "."), base);
	if (!o->name && o->section)
		str_printf(&name, "#%d", o->section);
	if (!o->name && o->func)
		str_printf(&name, "/%s", o->func);
	str_puts(b, "case: ");
	yaml_scalar(b, name.s ? name.s : "import/?");
	if (name.oom)
		b->oom = true;
	str_free(&name);
}

/* The case text around the program. */
static char *
make_case(const ImpOpts *o, const char *tir, const Program *p)
{
	const Func *f = o->func ? prog_func(p, o->func) : prog_func(p, "main");
	Str b = {0};

	if (!f)
		f = p->funcs[0];
	put_name(o, &b);
	str_puts(&b, "\nabout: ");
	yaml_scalar(&b, "imported from the MLIR file by bufdiff import");
	if (o->tagged) { /* docs/format.md: `// loc(L:C)` are in this file */
		str_puts(&b, "\nsource: ");
		yaml_scalar(&b, o->file);
	}
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
	if (o->strategy) { /* import --strategy S: the run to check */
		str_puts(&b, "runs:\n  - strategy: ");
		yaml_scalar(&b, o->strategy->name);
		str_puts(&b, "\n");
	}
	return str_take(&b);
}

/* The program line of case line `line` (the program starts after the
 * `program: |` line), and the user's place in it when it carries
 * `// loc(L:C)`: d is then located there. */
static void
program_line(const ImpOpts *o, const char *ctext, Diag *d, const char *what)
{
	const char *p = strstr(ctext, "\nprogram: |\n"), *l = ctext, *e, *t;
	int first = 2, ll = 0, cc = 0;
	char msg[sizeof d->msg];

	for (const char *q = ctext; p && q <= p; q++)
		first += *q == '\n';
	for (int k = 1; l && k < d->loc.line; k++)
		if ((l = strchr(l, '\n')))
			l++;
	fmt_snprintf(msg, sizeof msg, "%s: %s", what, d->msg);
	e = l ? l + strcspn(l, "\n") : NULL;
	if (o->tagged && l && (t = strstr(l, "// loc(")) && t < e &&
	    sscanf(t, "// loc(%d:%d)", &ll, &cc) == 2 && ll > 0 && cc > 0) {
		diag_set(d, (Loc){ll, cc}, "%s", msg);
		return;
	}
	diag_set(d, (Loc){0, 0}, "%s (program line %d)", msg,
		 d->loc.line - first + 1);
}

/* `expect: outputs:` from the reference run of the case text. */
static int
add_outputs(const ImpOpts *o, Str *b, const char *ctext, Diag *d)
{
	Case *c = NULL;
	Tensor **outs = NULL;
	int nouts = 0, rc = 0;

	if (case_parse(o->path, ctext, strlen(ctext), 0, &c, d)) {
		program_line(o, ctext, d, "the imported program is rejected");
		case_free(c);
		return -1;
	}
	if (o->max_work > 0)
		c->lim.max_work = o->max_work;
	if (ref_run(c->prog, c->entry, c->inputs, &c->lim, &outs, &nouts, d)) {
		/* the program imports; only these inputs make it fail */
		term_fprintf(stderr, "%s: warning: the reference fails on the imported "
			"program with these inputs (no expect.outputs): %s\n",
			o->path, d->msg);
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

/* TIR text -> the case text (inputs and outputs), or NULL with d. */
static char *
tir_case(const ImpOpts *o, const char *tir, Diag *d)
{
	Program *p = tir_parse(tir, strlen(tir), (SrcMap){0, 0}, d);
	char *ctext;
	Str b = {0};

	if (!p) {
		diag_set(d, (Loc){0, 0}, "the imported program does not parse: "
			 "%.400s (program line %d)", d->msg, d->loc.line);
		return NULL;
	}
	if (!p->nfuncs) {
		diag_set(d, (Loc){0, 0}, "no function to import");
		prog_free(p);
		return NULL;
	}
	ctext = make_case(o, tir, p);
	prog_free(p);
	if (!ctext) {
		diag_set(d, (Loc){0, 0}, "out of memory");
		return NULL;
	}
	str_puts(&b, ctext);
	if (add_outputs(o, &b, ctext, d)) {
		mem_free(ctext);
		str_free(&b);
		return NULL;
	}
	mem_free(ctext);
	return str_take(&b);
}

/* The section the path names (the whole file when it has one), or NULL
 * with d. */
static char *
section_text(const ImpOpts *o, const char *text, size_t len, size_t *slen,
	     Diag *d)
{
	int n = mlir_sections(text, len);
	char *s;

	if (!o->section && n > 1) {
		diag_set(d, (Loc){0, 0}, "%d sections (`// -----`, mlir-opt's "
			 "-split-input-file): name one as %s#N, N = 1..%d", n,
			 o->file, n);
		return NULL;
	}
	if (o->section > n) {
		diag_set(d, (Loc){0, 0}, "no section %d: the file has %d "
			 "(`// -----`)", o->section, n);
		return NULL;
	}
	if (!(s = mlir_section(text, len, o->section ? o->section : 1, slen)))
		diag_set(d, (Loc){0, 0}, "out of memory");
	return s;
}

/* Does some op carry `// loc(L:C)`, a place in the file (the case then
 * says `source:`)? */
static bool
local_tag(const char *tir)
{
	for (const char *p = tir; (p = strstr(p, "  // loc(")); p++)
		if (p[9] >= '0' && p[9] <= '9')
			return true;
	return false;
}

/* FILE.mlir[#N] -> the case's text (*ctext), or -1 with d and *dfile (the
 * file d->loc is in; d->loc.line 0: no place).  *src: the file's text. */
static int
import_case(ImpOpts *o, char **src, char **ctext, Diag *d,
	    const char **dfile)
{
	size_t len, slen, glen;
	char *sec, *gen = NULL, *tir;
	Str out = {0};
	int rc = -1;

	*ctext = NULL;
	*dfile = o->file;
	if (!(*src = slurp(o->file, &len, d)))
		return -1;
	if (!(sec = section_text(o, *src, len, &slen, d)))
		return -1;
	if (!generic_text(o, sec, slen, &gen, &glen, d)) {
		ImportSrc us = {sec, slen, gen ? "<stdin>" : o->file};
		if (mlir_import_src(gen ? gen : sec, glen, o->file, o->func,
				    &us, &out, d, dfile)) {
			/* without a tool, mlir_read's positions are in FILE */
			if (d->loc.line && gen && *dfile == o->file)
				*dfile = "<generic form>";
		} else if (!(tir = str_take(&out))) {
			diag_set(d, (Loc){0, 0}, "out of memory");
		} else {
			o->tagged = local_tag(tir);
			*ctext = tir_case(o, tir, d);
			rc = *ctext ? 0 : -1;
			mem_free(tir);
		}
	}
	if (*dfile && !strcmp(*dfile, "<stdin>"))
		*dfile = o->file;
	str_free(&out);
	mem_free(gen);
	mem_free(sec);
	return rc;
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

/* One FILE.mlir[#N] -> its case, written to out (NULL: stdout); 0, or 2
 * with its one diagnostic printed. */
static int
import_one(const Args *a, const char *path, const char *out)
{
	ImpOpts o = {path, a->func, out, a->tool, a->strategy, a->no_tool,
		     a->import_seed, a->tool_timeout, a->max_work, "", 0, NULL,
		     false};
	char *src = NULL, *ctext = NULL;
	const char *dfile;
	Diag d;
	int rc;

	if (split_path(&o, &d)) {
		term_fprintf(stderr, "bufdiff import: %s\n", d.msg);
		return STATUS_BAD;
	}
	if (import_case(&o, &src, &ctext, &d, &dfile)) {
		if (!src)
			term_fprintf(stderr, "bufdiff import: %s\n", d.msg);
		else if (d.loc.line > 0)
			report(o.file, src, dfile, &d);
		else
			term_fprintf(stderr, "%s: error: %s\n", o.file, d.msg);
		rc = STATUS_BAD;
	} else {
		rc = write_out(&o, ctext);
	}
	mem_free(ctext);
	mem_free(src);
	return rc;
}

/* --out names a directory: an existing one, or a path ending in `/` (made
 * if missing). */
static bool
out_is_dir(const char *out)
{
	struct stat st;
	size_t n = out ? strlen(out) : 0;

	return n && (out[n - 1] == '/' || (!stat(out, &st) && S_ISDIR(st.st_mode)));
}

/* DIR/STEM.yaml, or DIR/STEM-N.yaml for section N (STEM made a safe file
 * name: safe_file_name); false: too long. */
static bool
dir_case_path(char *buf, size_t size, const char *dir, const char *file,
	      int section)
{
	const char *slash = strrchr(file, '/');
	const char *base = slash ? slash + 1 : file;
	const char *dot = strrchr(base, '.');
	size_t stem = dot && dot > base ? (size_t)(dot - base) : strlen(base);
	size_t n = strlen(dir);
	const char *sep = n && dir[n - 1] == '/' ? "" : "/";
	char name[256]; /* the stem as a name that stays in dir */
	int w;

	safe_file_name(base, stem, name, sizeof name);
	w = section ? fmt_snprintf(buf, size, "%s%s%s-%d.yaml", dir, sep, name,
				   section)
		    : fmt_snprintf(buf, size, "%s%s%s.yaml", dir, sep, name);
	return w >= 0 && (size_t)w < size;
}

/* One path of a directory import: FILE.mlir#N, or every section of FILE
 * (the whole file when it has one), each to DIR/STEM[-N].yaml; a name
 * an earlier path took is an error, not a second write. */
static int
import_to_dir(const Args *a, int i, StrMap *taken, Arena *keys)
{
	const char *path = a->paths[i];
	ImpOpts o = {.path = path};
	char out[PATH_MAX], one[PATH_MAX + 16];
	Diag d;
	int n = 1, rc = STATUS_OK;

	if (split_path(&o, &d)) {
		term_fprintf(stderr, "bufdiff import: %s\n", d.msg);
		return STATUS_BAD;
	}
	if (!o.section)
		n = import_cli_sections(path);
	for (int k = 1; k <= n; k++) {
		int sec = o.section ? o.section : n > 1 ? k : 0;
		const char *p = path;
		if (n > 1) {
			fmt_snprintf(one, sizeof one, "%s#%d", o.file, k);
			p = one;
		}
		if (!dir_case_path(out, sizeof out, a->out, o.file, sec)) {
			term_fprintf(stderr, "bufdiff import: %s: path too long\n", p);
			rc = STATUS_BAD;
		} else if (strmap_get(taken, out) >= 0) {
			term_fprintf(stderr, "%s: error: %s is written already "
				     "(by %s)\n", p, out,
				     a->paths[strmap_get(taken, out)]);
			rc = STATUS_BAD;
		} else {
			char *key = arena_strdup(keys, out);
			if (!key || strmap_add(taken, key, i) == STRMAP_OOM) {
				term_fprintf(stderr, "bufdiff: out of memory\n");
				return STATUS_BAD;
			}
			if (import_one(a, p, out))
				rc = STATUS_BAD;
		}
	}
	return rc;
}

int
cmd_import(const Args *a)
{
	StrMap taken;
	Arena *keys;
	int rc = STATUS_OK;

	if (a->npaths == 1 && !out_is_dir(a->out))
		return import_one(a, a->paths[0], a->out);
	if (!out_is_dir(a->out)) {
		term_fprintf(stderr, "bufdiff import: several FILEs want --out DIR "
			     "(a directory, or a path ending in / to make one)\n");
		return STATUS_BAD;
	}
	if (mkdir(a->out, 0777) && errno != EEXIST) { /* `DIR/`: made */
		term_fprintf(stderr, "bufdiff import: cannot make %s: %s\n",
			     a->out, strerror(errno));
		return STATUS_BAD;
	}
	if (!(keys = arena_new())) {
		term_fprintf(stderr, "bufdiff: out of memory\n");
		return STATUS_BAD;
	}
	strmap_init(&taken, NULL);
	for (int i = 0; i < a->npaths; i++)
		if (import_to_dir(a, i, &taken, keys))
			rc = STATUS_BAD;
	strmap_free(&taken);
	arena_free(keys);
	return rc;
}

/* ------------------------------------------- a .mlir file as a case */

/* The settings of on-the-fly imports (`run FILE.mlir`): the command's. */
static ImpOpts fly;

static int
import_fly(const char *path, char **text, char **src, Diag *d,
	   const char **dfile)
{
	ImpOpts o = fly;
	int rc;

	o.path = path;
	o.name = path;
	if (split_path(&o, d))
		return -1;
	rc = import_case(&o, src, text, d, dfile);
	if (*dfile == o.file) /* case.c's NULL: the .mlir itself */
		*dfile = NULL;
	return rc;
}

int
import_cli_config(const Args *a)
{
	char why[PATH_MAX + 100];

	fly = (ImpOpts){NULL, NULL, NULL, a->tool, NULL, a->no_tool, 1,
			a->tool_timeout, a->max_work, "", 0, NULL, false};
	case_set_importer(import_fly);
	if (a->keep_tool_io && tool_keep_dir(a->keep_tool_io, why, sizeof why))
		return cli_usage(a, "--keep-tool-io: %s", why);
	return 0;
}

int
import_cli_sections(const char *path)
{
	size_t len;
	Diag d;
	char *text = case_is_mlir(path) && !strchr(path, '#') ?
		     slurp(path, &len, &d) : NULL;
	int n = text ? mlir_sections(text, len) : 1;

	mem_free(text);
	return n;
}
