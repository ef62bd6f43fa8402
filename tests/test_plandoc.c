/* test_plandoc.c: decisions documents (oracle/cases/plandoc.c): JSON and YAML,
 * `cases:`, every error with its line:col, failed allocations. */
#include <stdio.h>

#include "cases.h"
#include "mlir.h"
#include "harness.h"
#include "testutil.h"

/* A program with every kind of decision a document can force. */
static const char *case_text =
	"case: p/one\n"
	"program: |\n"
	"  func @main(%d: tensor<4x4xf32>, %x: tensor<2x4xf32>, %n: index) -> tensor<4x4xf32> {\n"
	"    %e = empty : tensor<2x4xf32>\n"
	"    %e2 = empty : tensor<1x4xf32>\n"
	"    %f = fill 1.5 into %e : tensor<2x4xf32>\n"
	"    %g = add %f, %x into %f : tensor<2x4xf32>\n"
	"    %r = insert_slice %g into %d[1, 0] [2, 4] [1, 1] : tensor<4x4xf32>\n"
	"    %r2 = insert_slice %e2 into %r[%n, 0] [1, 4] [1, 1] : tensor<4x4xf32>\n"
	"    %e3 = empty : tensor<1x4xf32>\n"
	"    %o = sub %n, 1 : index\n"
	"    %r3 = insert_slice %e3 into %r2[%o, 0] [1, 4] [1, 1] : tensor<4x4xf32>\n"
	"    %l = for %k = 0 to 2 step 1 iter(%acc = %r3) -> (tensor<4x4xf32>) {\n"
	"      %t = mul %acc, 2 : tensor<4x4xf32>\n"
	"      yield %t\n"
	"    }\n"
	"    %c = call @id(%l, %x)\n"
	"    return %c\n"
	"  }\n"
	"  func @id(%p: tensor<4x4xf32>, %q: tensor<2x4xf32>) -> tensor<4x4xf32> {\n"
	"    return %p\n"
	"  }\n"
	"inputs:\n"
	"  d: {splat: 0}\n"
	"  x: {splat: 1}\n"
	"  n: 2\n";

static Case *
load_case(void)
{
	Case *c = NULL;
	Diag d;

	if (case_parse("p.yaml", case_text, strlen(case_text), 0, &c, &d))
		ck_abort_msg("case: %d:%d: %s", d.loc.line, d.loc.col, d.msg);
	return c;
}

/* Load doc into a fresh run of c; -1 with d. */
static int
load_doc(Case *c, const char *doc, Run *r, bool *found, Diag *d)
{
	memset(r, 0, sizeof *r);
	return plandoc_load("doc", doc, strlen(doc), c, c->arena, r, found, d);
}

#define DOC_ERR(doc, line, col, msg) doc_err(doc, line, col, msg, __LINE__)

static void
doc_err(const char *doc, int line, int col, const char *msg, int at)
{
	Case *c = load_case();
	Run r;
	bool found;
	Diag d;

	ck_assert_msg(load_doc(c, doc, &r, &found, &d) == -1, "line %d: loaded",
		      at);
	ck_assert_msg(d.loc.line == line && d.loc.col == col &&
		      !strcmp(d.msg, msg), "line %d: got %d:%d: %s", at,
		      d.loc.line, d.loc.col, d.msg);
	case_free(c);
}

static void
assert_full(const Case *c, const Run *r)
{
	ck_assert_int_eq(r->nplan, 3);
	ck_assert_str_eq(r->plan[0].result->name, "f");
	ck_assert_str_eq(r->plan[0].operand->name, "e");
	ck_assert_ptr_null(r->plan[2].operand); /* r: new */
	ck_assert_int_eq(r->nfrees, 1);
	ck_assert_str_eq(r->frees[0].value->name, "g");
	ck_assert_str_eq(r->frees[0].after->name, "r");
	ck_assert_int_eq(r->nanchors, 1);
	ck_assert_str_eq(r->anchors[0].e->name, "e");
	ck_assert_str_eq(r->anchors[0].r->name, "r");
	ck_assert_int_eq(r->nhoists, 1);
	ck_assert_str_eq(r->hoists[0].v->name, "t");
	ck_assert_int_eq(r->nargs, 1);
	ck_assert_str_eq(r->args[0].r->name, "c");
	ck_assert_int_eq(r->args[0].n, 2);
	ck_assert_uint_eq(r->args[0].copy, 2); /* [share, copy] */
	ck_assert(run_has_plan(r));
	(void)c;
}

START_TEST(json_document)
{
	static const char *doc =
		"{\"plan\": {\"f\": \"e\", \"g\": \"f\", \"r\": \"new\"},\n"
		" \"free\": {\"g\": \"after r\"},\n"
		" \"anchor\": {\"e\": \"r\"}, \"hoist\": [\"t\"],\n"
		" \"args\": {\"c\": [\"share\", \"copy\"]}}\n";
	Case *c = load_case();
	Run r;
	bool found = false;
	Diag d;

	ck_assert_int_eq(load_doc(c, doc, &r, &found, &d), 0);
	ck_assert(found);
	assert_full(c, &r);
	ck_assert_int_eq(r.plan[1].loc.line, 1);
	ck_assert_int_eq(r.plan[1].loc.col, 21);
	ck_assert_int_eq(r.anchors[0].loc.line, 3);
	case_free(c);
}
END_TEST

START_TEST(yaml_document)
{
	static const char *doc =
		"plan: {f: e, g: f, r: new}\n"
		"free: {g: after r}\n"
		"anchor:\n"
		"  e: r\n"
		"hoist: [t]\n"
		"args: {c: [share, copy]}\n";
	Case *c = load_case();
	Run r;
	bool found = false;
	Diag d;

	ck_assert_int_eq(load_doc(c, doc, &r, &found, &d), 0);
	ck_assert(found);
	assert_full(c, &r);
	ck_assert_int_eq(r.anchors[0].loc.line, 4);
	ck_assert_int_eq(r.anchors[0].loc.col, 3);
	case_free(c);
}
END_TEST

START_TEST(cases_document)
{
	static const char *doc =
		"cases:\n"
		"  other/case: {plan: {zz: new}}\n"
		"  p/one: {hoist: [t], args: {c: [copy, copy]}}\n";
	static const char *none = "{\"cases\": {\"other/case\": {}}}";
	Case *c = load_case();
	Run r;
	bool found = false;
	const char **names;
	Loc *locs;
	int n;
	Diag d;

	ck_assert_int_eq(load_doc(c, doc, &r, &found, &d), 0);
	ck_assert(found);
	ck_assert_int_eq(r.nhoists, 1);
	ck_assert_uint_eq(r.args[0].copy, 3);
	ck_assert_int_eq(r.loc.line, 3);
	ck_assert_int_eq(load_doc(c, none, &r, &found, &d), 0);
	ck_assert(!found);
	ck_assert(!run_has_plan(&r));
	ck_assert_int_eq(plandoc_cases(doc, strlen(doc), c->arena, &names, &locs,
				       &n, &d), 0);
	ck_assert_int_eq(n, 2);
	ck_assert_str_eq(names[0], "other/case");
	ck_assert_str_eq(names[1], "p/one");
	ck_assert_int_eq(locs[1].line, 3);
	ck_assert_int_eq(locs[1].col, 3);
	ck_assert_int_eq(plandoc_cases("plan: {}", 8, c->arena, &names, &locs,
				       &n, &d), 0);
	ck_assert_int_eq(n, -1);
	case_free(c);
}
END_TEST

START_TEST(document_errors)
{
	DOC_ERR("", 1, 1, "empty decisions document");
	DOC_ERR("plan: {\n", 2, 1, "did not find expected node content "
		"(while parsing a flow node)");
	DOC_ERR("a: 1\n---\nb: 2\n", 3, 1, "a decisions document holds one "
		"YAML document");
	DOC_ERR("[1]", 1, 1, "'decisions document' must be a mapping");
	DOC_ERR("bogus: 1", 1, 1, "unknown key 'bogus' in decisions document "
		"(expected one of: plan, free, anchor, hoist, args, blockargs, yields, "
		"cases)");
	DOC_ERR("cases: {}\nplan: {}\n", 2, 1, "'plan' beside 'cases': a "
		"decisions document holds either cases or plan keys");
	DOC_ERR("cases: [1]", 1, 8, "'cases' must be a mapping");
	DOC_ERR("cases: {p/one: 1, p/one: 2}", 1, 19, "duplicate key 'p/one' "
		"in cases");
	DOC_ERR("cases: {p/one: [1]}", 1, 16, "'cases entry' must be a mapping");
	DOC_ERR("cases: {p/one: {cases: 1}}", 1, 17, "unknown key 'cases' in "
		"cases entry (expected one of: plan, free, anchor, hoist, args, "
		"blockargs, yields)");
	DOC_ERR("plan: {zz: new}", 1, 8, "unknown value %zz");
	DOC_ERR("{\"plan\": {\"f\": \"x\"}}", 1, 16, "%x is not an operand of "
		"the op defining %f");
	DOC_ERR("free: {g: before r}", 1, 11, "free: expected 'after RESULT', "
		"got 'before r'");
}
END_TEST

START_TEST(anchor_errors)
{
	DOC_ERR("anchor: [e]", 1, 9, "'anchor' must be a mapping");
	DOC_ERR("anchor: {e: zz}", 1, 13, "unknown value %zz");
	DOC_ERR("anchor: {f: r}", 1, 10, "anchor: %f is not defined by empty");
	DOC_ERR("anchor: {e: g}", 1, 13, "anchor: %g is not defined by "
		"insert_slice");
	DOC_ERR("anchor: {e: r2}", 1, 13, "anchor: the slice inserted into %r2 "
		"is not %e nor computed into it");
	DOC_ERR("anchor: {e2: r2}", 1, 14, "anchor: %r, the destination of "
		"%r2, is not defined where %e2 is");
	DOC_ERR("anchor: {e3: r3}", 1, 14, "anchor: offset %o of %r3 is not "
		"defined where %e3 is");
}
END_TEST

START_TEST(hoist_args_errors)
{
	DOC_ERR("hoist: {t: 1}", 1, 8, "'hoist' must be a list");
	DOC_ERR("hoist: [g]", 1, 9, "hoist: %g is not defined inside a loop");
	DOC_ERR("hoist: [l]", 1, 9, "hoist: %l is not defined inside a loop");
	DOC_ERR("hoist: [c]", 1, 9, "hoist: %c has no buffer of its own");
	DOC_ERR("hoist: [k]", 1, 9, "%k is not an op result");
	DOC_ERR("hoist: [t, t]", 1, 12, "hoist: %t is listed twice");
	DOC_ERR("args: {r: [copy]}", 1, 8, "args: %r is not defined by a call");
	DOC_ERR("args: {c: copy}", 1, 11, "'args' must be a list");
	DOC_ERR("args: {c: [copy]}", 1, 11, "args: the call defining %c has 2 "
		"tensor operands, the list has 1");
	DOC_ERR("args: {c: [copy, lend]}", 1, 18, "args: unknown word 'lend' "
		"(expected copy or share)");
}
END_TEST

/* Errors only the decisions can show: applied through run_plan_apply. */
START_TEST(apply_errors)
{
	static const struct {
		const char *doc, *msg;
		int line, col;
	} t[] = {
		{"plan: {t: acc}\nhoist: [t]\n", "hoist: %t lives in the buffer "
		 "of %acc, not one of its own", 2, 9},
		{"plan: {f: new}\nfree: {e: after f}\nanchor: {e: r}\n",
		 "free: %e is a view, not an allocation", 2, 8},
	};

	for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
		Case *c = load_case();
		Decisions ds;
		Run r;
		bool found;
		Diag d;

		ck_assert_int_eq(load_doc(c, t[i].doc, &r, &found, &d), 0);
		ck_assert_int_eq(decisions_make(c->prog, strategy_find("copy-all"),
						&ds), 0);
		ck_assert_int_eq(run_plan_apply(&r, &ds, &d), -1);
		ck_assert_str_eq(d.msg, t[i].msg);
		ck_assert_int_eq(d.loc.line, t[i].line);
		ck_assert_int_eq(d.loc.col, t[i].col);
		decisions_free(&ds);
		case_free(c);
	}
}
END_TEST

/* Every allocation failing in turn: an error or success, never a leak. */
START_TEST(fails_cleanly)
{
	static const char *doc =
		"cases: {p/one: {plan: {f: e}, anchor: {e: r}, hoist: [t], "
		"args: {c: [copy, share]}}}\n";
	Case *c = load_case();
	long base = mem_live_blocks();
	int ok = 0;

	for (long n = 0; n < 400 && !ok; n++) {
		Run r;
		bool found;
		Diag d;
		Arena *a = arena_new();
		int rc;
		if (!a)
			continue;
		memset(&r, 0, sizeof r);
		mem_fail_after(n);
		rc = plandoc_load("doc", doc, strlen(doc), c, a, &r, &found, &d);
		mem_fail_after(-1);
		if (rc == 0) {
			ck_assert(found);
			ok = 1;
		} else {
			ck_assert_str_eq(d.msg, "out of memory");
		}
		arena_free(a);
		ck_assert_int_eq(mem_live_blocks(), base);
	}
	ck_assert(ok);
	case_free(c);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("plandoc");
	TCase *t = tcase_create("plandoc");
	Suite *all[] = {s, NULL};

	tcase_add_test(t, json_document);
	tcase_add_test(t, yaml_document);
	tcase_add_test(t, cases_document);
	tcase_add_test(t, document_errors);
	tcase_add_test(t, anchor_errors);
	tcase_add_test(t, hoist_args_errors);
	tcase_add_test(t, apply_errors);
	tcase_add_test(t, fails_cleanly);
	suite_add_tcase(s, t);
	return tu_run(all);
}
