/*
 * plandoc.c: decisions documents.  A JSON or YAML object with any of the
 * plan keys (plan, free, anchor, hoist, args), or `cases: {NAME: {...}}`
 * for a corpus.  libyaml reads JSON too; the keys go through runs.c's
 * parsers, so a document means exactly what a case's run means.
 */
#include <errno.h>

#include "cases.h"

enum { DK_CASES = PK_COUNT };

static const char *const doc_keys[] = {
	"plan", "free", "anchor", "hoist", "args", "blockargs", "yields",
	"cases", NULL, /* PK_* */
};

/* What a protected pass over the document does with it. */
typedef struct DocPass {
	const Case *c;          /* plandoc_load: the case to read */
	Run *r;
	bool *found;
	const char ***names;    /* plandoc_cases: the entries */
	Loc **locs;
	int *n;
} DocPass;

/* The top mapping: vals[PK_*] and vals[DK_CASES]; plan keys beside
 * `cases` are an error. */
static void
doc_top(Loader *L, yaml_node_t **vals)
{
	yaml_node_t *root = yaml_document_get_root_node(&L->doc), *k[PK_COUNT + 1];

	yl_want(L, root, YAML_MAPPING_NODE, "decisions document");
	yl_keys(L, root, doc_keys, "decisions document", vals, k);
	if (!vals[DK_CASES])
		return;
	for (int i = 0; i < PK_COUNT; i++)
		if (vals[i])
			yl_fail(L, yl_loc(k[i]), "'%s' beside 'cases': a "
				"decisions document holds either cases or plan "
				"keys", doc_keys[i]);
	yl_want(L, vals[DK_CASES], YAML_MAPPING_NODE, "cases");
	yl_free_keys(L, vals[DK_CASES], "cases");
}

static void
doc_load(Loader *L, DocPass *p)
{
	yaml_node_t *v[PK_COUNT + 1], *e = NULL, *cases;

	doc_top(L, v);
	p->r->loc = yl_loc(yaml_document_get_root_node(&L->doc));
	if (!(cases = v[DK_CASES])) {
		runs_load_plan(L, (Case *)p->c, p->r, v);
		*p->found = true;
		return;
	}
	for (int i = 0; i < yl_npairs(cases) && !e; i++)
		if (p->c->name && !strcmp(yl_text(yl_pair_key(L, cases, i)),
					  p->c->name))
			e = yl_pair_val(L, cases, i);
	if (!e)
		return;
	yl_want(L, e, YAML_MAPPING_NODE, "cases entry");
	yl_keys(L, e, plan_keys, "cases entry", v, NULL);
	p->r->loc = yl_loc(e);
	runs_load_plan(L, (Case *)p->c, p->r, v);
	*p->found = true;
}

static void
doc_names(Loader *L, DocPass *p)
{
	yaml_node_t *v[PK_COUNT + 1], *cases;
	int n;

	doc_top(L, v);
	*p->n = -1;
	if (!(cases = v[DK_CASES]))
		return;
	n = yl_npairs(cases);
	*p->names = arena_alloc(L->arena, (size_t)(n + 1) * sizeof **p->names);
	*p->locs = arena_alloc(L->arena, (size_t)(n + 1) * sizeof **p->locs);
	for (int i = 0; i < n; i++) {
		yaml_node_t *k = yl_pair_key(L, cases, i);
		(*p->names)[i] = arena_strdup(L->arena, yl_text(k));
		(*p->locs)[i] = yl_loc(k);
	}
	*p->n = n;
}

/* Parse text and run `fn` over it at the loader's protected entry. */
static int
doc_pass(const char *text, size_t len, Arena *a,
	 void (*fn)(Loader *, DocPass *), DocPass *p, Diag *d)
{
	Loader L;
	jmp_buf *old = a->oom;
	bool hasdoc = false;
	int rc;

	memset(&L, 0, sizeof L);
	if (memchr(text, 0, len))
		return diag_set(d, yl_offset_loc(text, strlen(text)), "NUL byte "
				"in the decisions document");
	L.arena = a;
	L.text = text;
	L.d = d;
	if (yl_load(&L, text, len, "decisions document", &hasdoc, d)) {
		if (hasdoc)
			yaml_document_delete(&L.doc);
		return -1;
	}
	a->oom = &L.jb;
	switch (setjmp(L.jb)) {
	case 0:
		fn(&L, p);
		rc = 0;
		break;
	case YL_OOM: {
		static const Loc nowhere; /* no compound literal across longjmp */
		rc = diag_set(d, nowhere, "out of memory");
		break;
	}
	default:
		rc = -1;
	}
	a->oom = old;
	yaml_document_delete(&L.doc);
	return rc;
}

int
plandoc_load(const char *file, const char *text, size_t len, const Case *c,
	     Arena *a, Run *r, bool *found, Diag *d)
{
	DocPass p = {.c = c, .r = r, .found = found};

	(void)file; /* the caller prints d under it */
	*found = false;
	return doc_pass(text, len, a, doc_load, &p, d);
}

int
plandoc_cases(const char *text, size_t len, Arena *a, const char ***names,
	      Loc **locs, int *n, Diag *d)
{
	DocPass p = {.names = names, .locs = locs, .n = n};

	*n = -1;
	return doc_pass(text, len, a, doc_names, &p, d);
}

int
plandoc_add_run(const char *file, const char *text, size_t len, Case *c,
		const Strategy *s, bool only, bool *found, Diag *d)
{
	Run *r = arena_alloc(c->arena, sizeof *r), *runs;

	if (!r)
		return diag_set(d, (Loc){0, 0}, "out of memory");
	for (int k = 0; k < MS_COUNT; k++)
		r->memory[k] = -1;
	r->strategy = s;
	if (plandoc_load(file, text, len, c, c->arena, r, found, d))
		return -1;
	if (!*found)
		return 0;
	if (only) {
		c->runs = r;
		c->nruns = 1;
		return 0;
	}
	runs = arena_alloc(c->arena, sizeof *runs * (size_t)(c->nruns + 2));
	if (!runs)
		return diag_set(d, (Loc){0, 0}, "out of memory");
	if (c->nruns)
		memcpy(runs, c->runs, sizeof *runs * (size_t)c->nruns);
	runs[c->nruns] = *r;
	c->runs = runs;
	c->nruns++;
	return 0;
}

char *
plandoc_read(const char *path, size_t *len, Diag *d)
{
	return input_read(path, MAX_PLAN_BYTES, "a decisions document", len,
			  d);
}
