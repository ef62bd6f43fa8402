/*
 * case.c: a case file -> Case.
 *
 * case_parse is the loader's one protected entry: every check below fails
 * through yl_fail (a Diag + longjmp), and an arena allocation failure
 * longjmps here too.  The order matters: `expect.error` is read before the
 * program, so a case whose program must be rejected still knows what it
 * expects when the parser rejects it.
 */
#include <errno.h>
#include <sys/stat.h>
#include <stdlib.h>

#include "cases.h"

static const char *const top_keys[] = {
	"case", "about", "program", "entry", "inputs", "expect", "runs",
	"limits", "source", NULL};
enum { K_CASE, K_ABOUT, K_PROGRAM, K_ENTRY, K_INPUTS, K_EXPECT, K_RUNS,
       K_LIMITS, K_SOURCE, K_N };

/* ------------------------------------------------- # expect-error: */

static const char *
skip_sp(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static int
read_uint(const char **pp)
{
	const char *p = *pp;
	long v = 0;

	if (*p < '0' || *p > '9')
		return -1;
	while (*p >= '0' && *p <= '9' && v < 100000000)
		v = v * 10 + (*p++ - '0');
	*pp = p;
	return (int)v;
}

/* `# expect-error: LINE[:COL]: MESSAGE` on line `line` (p..e), or with
 * the line relative to the comment's, like MLIR's expected-error@+1:
 * `# expect-error@+1[:COL]: MESSAGE`, and inside the program the same as
 * a TIR comment, `// expect-error@+1: MESSAGE`. */
static int
comment_error(Case *c, const char *p, const char *e, int line, Diag *d)
{
	static const char tag[] = "expect-error";
	ExpectError x = {0, 0, NULL, true};
	const char *l0 = p;
	int sign = 0, col;

	p = skip_sp(p);
	col = (int)(p - l0) + 1;
	if (e - p >= 2 && p[0] == '/' && p[1] == '/')
		p++;
	else if (p >= e || *p != '#')
		return 0;
	p = skip_sp(p + 1);
	if ((size_t)(e - p) < sizeof tag - 1 || strncmp(p, tag, sizeof tag - 1))
		return 0;
	p += sizeof tag - 1;
	if (*p == '@' && (p[1] == '+' || p[1] == '-')) {
		sign = p[1] == '+' ? 1 : -1;
		p += 2;
		if ((x.line = read_uint(&p)) < 0 || (*p != ':' && *p != ' '))
			goto bad;
		x.line = line + sign * x.line;
		if (x.line <= 0 || *p++ != ':')
			goto bad;
		if (*p >= '0' && *p <= '9' &&
		    ((x.col = read_uint(&p)) <= 0 || *p++ != ':'))
			goto bad;
		goto message;
	}
	if (*p++ != ':')
		return 0; /* expect-errors, expect-error-foo: not ours */
	p = skip_sp(p);
	if ((x.line = read_uint(&p)) <= 0 || *p++ != ':')
		goto bad;
	if (*p >= '0' && *p <= '9') {
		if ((x.col = read_uint(&p)) <= 0 || *p++ != ':')
			goto bad;
	}
message:
	p = skip_sp(p);
	while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	if (e - p >= 2 && *p == '"' && e[-1] == '"')
		p++, e--;
	if (e <= p)
		goto bad;
	x.msg = arena_strndup(c->arena, p, (size_t)(e - p));
	c->has_error = true;
	c->error = x;
	return 0;
bad:
	if (sign)
		return diag_set(d, (Loc){line, col}, "malformed comment: "
				"expected 'expect-error@+N: MESSAGE' or "
				"'expect-error@+N:COL: MESSAGE' (N lines below, "
				"'@-N' above, inside the file)");
	return diag_set(d, (Loc){line, col}, "malformed comment: expected "
			"'# expect-error: LINE: MESSAGE' or '# expect-error: "
			"LINE:COL: MESSAGE'");
}

static int
scan_comments(Case *c, Diag *d)
{
	const char *p = c->text, *e;

	for (int line = 1; *p; line++) {
		e = strchr(p, '\n');
		if (!e)
			e = p + strlen(p);
		if (comment_error(c, p, e, line, d))
			return -1;
		p = *e ? e + 1 : e;
	}
	return 0;
}

/* ---------------------------------------------------------- YAML */

/* 1-based line and column of byte `off` (libyaml reader errors). */
/* Load the one YAML document of the file into L->doc. */
static int
load_yaml(Loader *L, Case *c, bool *hasdoc, Diag *d)
{
	return yl_load(L, c->text, c->len, "case file", hasdoc, d);
}

/* ------------------------------------------------------ program */

/* Start of 0-based line `line` in text (NULL past the end). */
static const char *
line_start(const char *text, size_t line)
{
	while (line--) {
		text = strchr(text, '\n');
		if (!text)
			return NULL;
		text++;
	}
	return text;
}

/* Indentation of the first non-blank line at or after 0-based `line`. */
static int
block_indent(const char *text, size_t line)
{
	const char *p = line_start(text, line);

	while (p && *p) {
		const char *q = p;

		while (*q == ' ')
			q++;
		if (*q && *q != '\n' && *q != '\r')
			return (int)(q - p);
		p = strchr(q, '\n');
		if (p)
			p++;
	}
	return 0;
}

/* The explicit indentation digit after a block scalar's `|` or `>`, or 0. */
static int
block_digit(const char *text, const yaml_mark_t *m)
{
	const char *p = line_start(text, m->line);

	for (size_t col = 0; p && *p && *p != '\n' && col < m->column; p++)
		if (((unsigned char)*p & 0xc0) != 0x80)
			col++;
	if (!p || (*p != '|' && *p != '>'))
		return 0;
	for (p++; *p == '+' || *p == '-' || (*p >= '0' && *p <= '9'); p++)
		if (*p >= '1' && *p <= '9')
			return *p - '0';
	return 0;
}

/* Where the program text sits in the file, for tir_parse's locations. */
static SrcMap
program_map(Loader *L, const yaml_node_t *key, const yaml_node_t *n)
{
	const yaml_mark_t *m = &n->start_mark;
	int digit;

	switch (n->data.scalar.style) {
	case YAML_LITERAL_SCALAR_STYLE:
	case YAML_FOLDED_SCALAR_STYLE:
		digit = block_digit(L->text, m);
		return (SrcMap){(int)m->line + 2,
				digit ? (int)key->start_mark.column + digit
				      : block_indent(L->text, m->line + 1)};
	case YAML_PLAIN_SCALAR_STYLE:
		return (SrcMap){(int)m->line + 1, (int)m->column};
	default: /* quoted: past the quote */
		return (SrcMap){(int)m->line + 1, (int)m->column + 1};
	}
}

static void
load_program(Loader *L, Case *c, yaml_node_t *key, yaml_node_t *n,
	     unsigned flags)
{
	yl_want(L, n, YAML_SCALAR_NODE, "program");
	c->prog = tir_parse(yl_text(n), n->data.scalar.length,
			    program_map(L, key, n), L->d);
	if (!c->prog)
		longjmp(L->jb, YL_FAIL);
	/* reasons and explanations say FILE:LINE:COL, as reports do */
	c->prog->file = arena_strdup(c->prog->arena, c->file);
	if (c->srclocs) { /* explanations cite the .mlir (prog_loc) */
		Loc *l = arena_alloc(c->prog->arena, sizeof *l *
				     (size_t)c->nsrclocs);
		const char **f = arena_alloc(c->prog->arena, sizeof *f *
					     (size_t)c->nsrclocs);
		if (l && f) {
			memcpy(l, c->srclocs, sizeof *l * (size_t)c->nsrclocs);
			for (int i = 0; i < c->nsrclocs; i++)
				f[i] = c->srcfiles[i] ? c->srcfiles[i] : c->source;
			c->prog->srclocs = l;
			c->prog->srcfiles = f;
			c->prog->nsrclocs = c->nsrclocs;
			c->prog->srconly = c->from_mlir;
		}
	}
	if (flags & CASE_PROGRAM_ONLY)
		return;
	if (tir_verify(c->prog, &c->lim, L->d))
		longjmp(L->jb, YL_FAIL);
}

/* A program line's place: ` // loc(L:C)` (in `source:`) or
 * ` // loc("FILE":L:C)` at its end, after some code.  0 with *l, *file
 * (NULL: the source), else -1. */
static int
line_tag(Loader *L, const char *l, const char *e, Loc *at, const char **file)
{
	const char *t = NULL, *f = NULL, *q;
	int ll = 0, cc = 0, n = 0;

	for (q = l; q + 7 <= e; q++) /* within the line: never quadratic */
		if (*q == '/' && !memcmp(q, "// loc(", 7))
			t = q;
	q = l + strspn(l, " ");
	/* after code: a comment line of the user's holds no place */
	if (!t || t == l || t[-1] != ' ' || q >= t || !strncmp(q, "//", 2))
		return -1;
	q = t + 7;
	if (*q == '"') { /* "FILE": no quote inside (import_src.c) */
		f = q + 1;
		if (!(q = memchr(f, '"', (size_t)(e - f))) || q[1] != ':')
			return -1;
		*file = arena_strndup(L->arena, f, (size_t)(q - f));
		q += 2;
	} else {
		*file = NULL;
	}
	if (sscanf(q, "%d:%d)%n", &ll, &cc, &n) != 2 || !n || ll < 1 ||
	    cc < 1 || strspn(q + n, " \r") != (size_t)(e - q - n))
		return -1;
	*at = (Loc){ll, cc};
	return 0;
}

/* `source: FILE.mlir` and the program's places (an imported case,
 * docs/format.md): a program line that ends with `// loc(L:C)` came from
 * FILE's line L, column C; with `// loc("OTHER":L:C)` from OTHER's. */
static void
load_source(Loader *L, Case *c, yaml_node_t *src, const yaml_node_t *prog)
{
	int first = (int)prog->start_mark.line + 1;
	int last = (int)prog->end_mark.line + 1;
	const char *l = line_start(L->text, (size_t)first - 1);

	if (src)
		c->source = yl_str(L, src, "source");
	c->nsrclocs = last + 1;
	c->srclocs = arena_alloc(L->arena, sizeof *c->srclocs *
				 (size_t)c->nsrclocs);
	c->srcfiles = arena_alloc(L->arena, sizeof *c->srcfiles *
				  (size_t)c->nsrclocs);
	memset(c->srclocs, 0, sizeof *c->srclocs * (size_t)c->nsrclocs);
	memset(c->srcfiles, 0, sizeof *c->srcfiles * (size_t)c->nsrclocs);
	for (int line = first; l && *l && line <= last; line++) {
		const char *e = l + strcspn(l, "\n"), *f;
		Loc at;

		if (!line_tag(L, l, e, &at, &f) && (f || c->source)) {
			c->srclocs[line] = at;
			c->srcfiles[line] = f;
		}
		l = *e ? e + 1 : e;
	}
}

Loc
case_source_loc(const Case *c, int line, const char **file)
{
	if (!c || !c->srclocs || line <= 0 || line >= c->nsrclocs ||
	    !c->srclocs[line].line)
		return (Loc){0, 0};
	*file = c->srcfiles[line] ? c->srcfiles[line] : c->source;
	return c->srclocs[line];
}

static void
load_entry(Loader *L, Case *c, yaml_node_t *entry, yaml_node_t *prog)
{
	const char *name = "main";

	if (entry) {
		name = yl_str(L, entry, "entry");
		if (*name == '@')
			name++;
	}
	c->entry = prog_func(c->prog, name);
	if (!c->entry && entry)
		yl_fail(L, yl_loc(entry), "no function @%s in the program", name);
	if (!c->entry)
		yl_fail(L, yl_loc(prog), "no function @main in the program "
			"(name the entry function with 'entry:')");
}

static int
param_index(const Func *f, const char *name)
{
	for (int i = 0; i < f->nparams; i++)
		if (!strcmp(f->params[i]->name, name))
			return i;
	return -1;
}

static void
load_inputs(Loader *L, Case *c, yaml_node_t *n, yaml_node_t *top)
{
	Func *f = c->entry;
	char label[160];

	c->ninputs = f->nparams;
	c->inputs = arena_alloc(L->arena, sizeof *c->inputs * (size_t)(f->nparams + 1));
	if (n) {
		yl_want(L, n, YAML_MAPPING_NODE, "inputs");
		yl_free_keys(L, n, "inputs");
		for (int i = 0; i < yl_npairs(n); i++) {
			yaml_node_t *k = yl_pair_key(L, n, i);
			const char *name = yl_text(k);
			int p = param_index(f, *name == '%' ? name + 1 : name);

			if (p < 0)
				yl_fail(L, yl_loc(k), "input '%s' names no param "
					"of @%s", name, f->name);
			fmt_snprintf(label, sizeof label, "input %s", f->params[p]->name);
			c->inputs[p] = data_tensor(L, yl_pair_val(L, n, i),
						   f->params[p]->type, &c->lim,
						   false, label);
		}
	}
	for (int i = 0; i < f->nparams; i++)
		if (!c->inputs[i])
			yl_fail(L, yl_loc(n ? n : top), "missing input for param "
				"%%%s of @%s", f->params[i]->name, f->name);
}

/* expect: {error: {line, col, message}} (outputs are read later). */
static void
load_expect_error(Loader *L, Case *c, yaml_node_t *n)
{
	static const char *const keys[] = {"line", "col", "message", NULL};
	yaml_node_t *v[3];
	long x[2] = {0, 0};
	char *end;

	yl_want(L, n, YAML_MAPPING_NODE, "error");
	yl_keys(L, n, keys, "expect.error", v, NULL);
	if (!v[0] || !v[2])
		yl_fail(L, yl_loc(n), "expect.error needs 'line' and 'message'");
	for (int i = 0; i < 2; i++) {
		if (!v[i])
			continue;
		yl_want(L, v[i], YAML_SCALAR_NODE, keys[i]);
		errno = 0;
		x[i] = strtol(yl_text(v[i]), &end, 10);
		if (*end || !*yl_text(v[i]) || x[i] < 1 || x[i] > 100000000)
			yl_fail(L, yl_loc(v[i]), "expect.error: '%s' must be an "
				"integer >= 1", keys[i]);
	}
	c->error = (ExpectError){(int)x[0], (int)x[1],
				 yl_str(L, v[2], "message"), false};
	c->has_error = true;
}

/* expect: {failure: {line, message}}: the run fails at that assert. */
static void
load_expect_failure(Loader *L, Case *c, yaml_node_t *n)
{
	static const char *const keys[] = {"line", "message", NULL};
	yaml_node_t *v[2];
	long x;
	char *end;

	yl_want(L, n, YAML_MAPPING_NODE, "failure");
	yl_keys(L, n, keys, "expect.failure", v, NULL);
	if (!v[0] || !v[1])
		yl_fail(L, yl_loc(n), "expect.failure needs 'line' and "
			"'message'");
	yl_want(L, v[0], YAML_SCALAR_NODE, "line");
	errno = 0;
	x = strtol(yl_text(v[0]), &end, 10);
	if (*end || !*yl_text(v[0]) || x < 1 || x > 100000000)
		yl_fail(L, yl_loc(v[0]), "expect.failure: 'line' must be an "
			"integer >= 1");
	c->failure = (ExpectError){(int)x, 0, yl_str(L, v[1], "message"),
				   false};
	c->has_failure = true;
}

/* `limits: {trips: N, elements: N, bytes: N, depth: N}`: a case may lower
 * the default limits (a test of a limit need not run 10^7 trips), never
 * raise them: a case file from elsewhere cannot buy itself more. */
static void
load_limits(Loader *L, Case *c, const yaml_node_t *n)
{
	static const char *const keys[] = {"trips", "elements", "bytes",
					   "depth", NULL};
	int64_t *slot[] = {&c->lim.max_trips, &c->lim.max_elems,
			   &c->lim.max_bytes, NULL};
	yaml_node_t *v[4];

	yl_want(L, n, YAML_MAPPING_NODE, "limits");
	yl_keys(L, n, keys, "limits", v, NULL);
	for (int k = 0; k < 4; k++) {
		int64_t cap = k < 3 ? *slot[k] : c->lim.max_depth, x;
		const char *s;
		char *end;

		if (!v[k])
			continue;
		s = yl_str(L, v[k], keys[k]);
		errno = 0;
		x = strtoll(s, &end, 10);
		if (*end || !*s || *s == '+' || errno || x < 1 || x > cap)
			yl_fail(L, yl_loc(v[k]), "limits: '%s' must be an "
				"integer from 1 to %lld (the default)", keys[k],
				(long long)cap);
		if (k < 3)
			*slot[k] = x;
		else
			c->lim.max_depth = (int)x;
	}
}

static void
load_top(Loader *L, Case *c, unsigned flags)
{
	static const char *const ekeys[] = {"outputs", "error", "failure",
					    NULL};
	yaml_node_t *root = yaml_document_get_root_node(&L->doc);
	yaml_node_t *v[K_N], *k[K_N], *ev[3] = {NULL, NULL, NULL};

	if (root->type != YAML_MAPPING_NODE)
		yl_fail(L, yl_loc(root), "a case file must be a mapping "
			"(case:, program:, ...)");
	yl_keys(L, root, top_keys, "", v, k);
	/* `inputs:`, `expect:` or `runs:` with nothing after: as if absent */
	for (int i = K_INPUTS; i <= K_RUNS; i++)
		if (v[i] && yl_is_null(v[i]))
			v[i] = NULL;
	if (v[K_EXPECT]) {
		yl_want(L, v[K_EXPECT], YAML_MAPPING_NODE, "expect");
		yl_keys(L, v[K_EXPECT], ekeys, "expect", ev, NULL);
		if (ev[0] && ev[1])
			yl_fail(L, yl_loc(v[K_EXPECT]), "expect: give 'outputs' "
				"or 'error', not both");
		if (ev[1])
			load_expect_error(L, c, ev[1]);
		if (ev[2] && (ev[0] || ev[1]))
			yl_fail(L, yl_loc(v[K_EXPECT]), "expect: 'failure' goes "
				"alone, without 'outputs' or 'error'");
		if (ev[2])
			load_expect_failure(L, c, ev[2]);
	}
	if (v[K_LIMITS])
		load_limits(L, c, v[K_LIMITS]);
	if (!v[K_CASE] || !v[K_PROGRAM])
		yl_fail(L, yl_loc(root), "missing required key '%s'",
			top_keys[v[K_CASE] ? K_PROGRAM : K_CASE]);
	c->name = yl_str(L, v[K_CASE], "case");
	if (!*c->name)
		yl_fail(L, yl_loc(v[K_CASE]), "'case' must not be empty");
	if (v[K_ABOUT])
		c->about = yl_str(L, v[K_ABOUT], "about");
	if (v[K_SOURCE] || (v[K_PROGRAM]->type == YAML_SCALAR_NODE &&
			    strstr(yl_text(v[K_PROGRAM]), "// loc(\"")))
		load_source(L, c, v[K_SOURCE], v[K_PROGRAM]);
	load_program(L, c, k[K_PROGRAM], v[K_PROGRAM], flags);
	if (flags & CASE_PROGRAM_ONLY)
		return;
	load_entry(L, c, v[K_ENTRY], v[K_PROGRAM]);
	load_inputs(L, c, v[K_INPUTS], root);
	if ((c->has_outputs = ev[0] != NULL)) {
		c->want = data_outputs(L, ev[0], c->entry->rtypes,
				       c->entry->nrtypes, &c->lim, "");
		c->nwant = c->entry->nrtypes;
	}
	if (v[K_RUNS])
		runs_load(L, c, v[K_RUNS]);
}

/* --------------------------------------------------------- entry */

static Case *
case_new(const char *file)
{
	Arena *a = arena_new();
	Case *c;

	if (!a)
		return NULL;
	c = arena_alloc(a, sizeof *c);
	if (!c || !(c->file = arena_strdup(a, file ? file : "<input>"))) {
		arena_free(a);
		return NULL;
	}
	c->arena = a;
	c->lim = default_limits;    /* check_case applies --max-work, --timeout */
	return c;
}

static int
out_of_memory(Diag *d)
{
	return diag_set(d, (Loc){0, 0}, "out of memory");
}

/* The body of the protected entry; c->text is set. */
static int
case_fill(Case *c, unsigned flags, Diag *d)
{
	Loader *L = arena_alloc(c->arena, sizeof *L);
	bool hasdoc = false;
	int rc;

	if (!L)
		return diag_set(d, (Loc){0, 0}, "out of memory");
	if (scan_comments(c, d))
		return -1;
	L->arena = c->arena;
	L->text = c->text;
	L->d = d;
	L->file = c->file;
	L->flags = flags;
	if (load_yaml(L, c, &hasdoc, d)) {
		if (hasdoc)
			yaml_document_delete(&L->doc);
		return -1;
	}
	c->arena->oom = &L->jb;
	switch (setjmp(L->jb)) {
	case 0:
		load_top(L, c, flags);
		rc = 0;
		break;
	case YL_OOM:
		rc = out_of_memory(d);
		break;
	default:
		rc = -1;
	}
	c->arena->oom = NULL;
	yaml_document_delete(&L->doc);
	return rc;
}

int
case_parse(const char *file, const char *text, size_t len, unsigned flags,
	   Case **out, Diag *d)
{
	Case *c = case_new(file);
	char *t;

	*out = c;
	if (!c)
		return diag_set(d, (Loc){0, 0}, "out of memory");
	t = arena_strndup(c->arena, text, len);
	if (!t)
		return diag_set(d, (Loc){0, 0}, "out of memory");
	c->text = t;
	c->len = len;
	return case_fill(c, flags, d);
}

/* The whole file into c's arena ("-": stdin), bounded (input.c). */
static int
read_file(Case *c, const char *path, Diag *d)
{
	struct stat st;
	size_t n;
	char *text;

	if (strcmp(path, "-") && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return diag_set(d, (Loc){0, 0}, "not a case file (a directory: "
				"use `bufdiff check DIR`)");
	if (!(text = input_read(path, MAX_CASE_BYTES, "a case file", &n, d)))
		return -1;
	if (memchr(text, 0, n)) {
		diag_set(d, yl_offset_loc(text, strlen(text)), "NUL byte in "
			 "the case file");
		mem_free(text);
		return -1;
	}
	c->text = arena_strndup(c->arena, text, n);
	c->len = n;
	mem_free(text);
	return c->text ? 0 : diag_set(d, (Loc){0, 0}, "out of memory");
}

/* ------------------------------------------- a .mlir file as a case */

static CaseImporter importer;

void
case_set_importer(CaseImporter fn)
{
	importer = fn;
}

bool
case_is_mlir(const char *path)
{
	const char *h = strrchr(path, '#'), *e = path + strlen(path);

	if (h && h[1] >= '1' && h[1] <= '9' &&
	    strspn(h + 1, "0123456789") == strlen(h + 1))
		e = h;
	return e - path > 5 && !memcmp(e - 5, ".mlir", 5);
}

/* The case the importer makes of FILE.mlir[#N].  An error in the .mlir is
 * located in its text (c->text becomes it); an error in the case made
 * from it moves to the op's `// loc(L:C)` when it has one. */
static int
load_mlir(Case *c, const char *path, unsigned flags, Diag *d)
{
	char *text = NULL, *src = NULL;
	const char *dfile = NULL;
	int rc = importer(path, &text, &src, d, &dfile);

	c->from_mlir = true;
	if (rc && d->loc.line > 0 && dfile) {
		/* a place in another file (an exported program's .yaml) */
		char msg[sizeof d->msg];
		fmt_snprintf(msg, sizeof msg, "%s:%d:%d: %s", dfile,
			     d->loc.line, d->loc.col, d->msg);
		diag_set(d, (Loc){0, 0}, "%s", msg);
	} else if (!rc) {
		c->text = arena_strdup(c->arena, text);
		c->len = strlen(text);
		rc = c->text ? case_fill(c, flags, d) : out_of_memory(d);
		if (rc && d->loc.line > 0) {
			const char *f = NULL;
			Loc at = case_source_loc(c, d->loc.line, &f);
			if (!at.line || (f && c->source && strcmp(f, c->source)))
				/* a place in the case made, or elsewhere */
				src = (mem_free(src), NULL);
			else
				d->loc = at;
		}
	}
	if (rc && src && d->loc.line > 0)
		c->text = arena_strdup(c->arena, src);
	mem_free(text);
	mem_free(src);
	return rc;
}

int
case_load(const char *path, unsigned flags, Case **out, Diag *d)
{
	Case *c = case_new(path);

	*out = c;
	if (!c)
		return diag_set(d, (Loc){0, 0}, "out of memory");
	if (importer && case_is_mlir(path))
		return load_mlir(c, path, flags, d);
	if (read_file(c, path, d))
		return -1;
	return case_fill(c, flags, d);
}

void
case_free(Case *c)
{
	if (!c)
		return;
	prog_free(c->prog);
	arena_free(c->arena);
}
