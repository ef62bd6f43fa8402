/* test_oneshot.c: one-shot's decisions and their reasons, last-use, the
 * mutants' switches, and the analysis on a long program. */
#include <stdio.h>
#include <stdlib.h>

#include "bufferize.h"
#include "testutil.h"

typedef struct Fixture {
	Program *p;
	Decisions ds;
} Fixture;

static void
decide(Fixture *f, const char *strategy, const char *text)
{
	Diag d;

	f->p = tu_parse(text, &d);
	ck_assert_msg(f->p, "%d:%d: %s", d.loc.line, d.loc.col, d.msg);
	f->p->file = "t.yaml"; /* reasons say t.yaml:LINE:COL */
	ck_assert_msg(!tir_verify(f->p, &default_limits, &d), "%s", d.msg);
	ck_assert_int_eq(decisions_make(f->p, strategy_find(strategy), &f->ds), 0);
}

static void
done(Fixture *f)
{
	decisions_free(&f->ds);
	prog_free(f->p);
}

static const Decision *
dec(Fixture *f, const char *name)
{
	Value *v = prog_value(f->p, NULL, name);

	ck_assert_msg(v, "no value %s", name);
	return &f->ds.d[v->id];
}

static void
expect_inplace(Fixture *f, const char *name, const char *into)
{
	const Decision *d = dec(f, name);

	ck_assert_msg(d->kind == DEC_INPLACE && !strcmp(d->into->name, into),
		      "%s: kind %d", name, d->kind);
}

static void
expect_new(Fixture *f, const char *name, const char *reason)
{
	const Decision *d = dec(f, name);

	ck_assert_msg(d->kind == DEC_NEW, "%s is not new", name);
	ck_assert_str_eq(decision_reason(d), reason);
}

START_TEST(seed_reuses_dead_buffer)
{
	Fixture f;

	decide(&f, "one-shot",
	       "func @main(%x: tensor<3xi32>) -> tensor<3xi32> {\n"
	       "  %y = add %x, 10 : tensor<3xi32>\n"
	       "  %z = add %x, %y : tensor<3xi32>\n"
	       "  return %z\n"
	       "}\n");
	expect_new(&f, "y", "conflict: read of %x by %z at t.yaml:3:3 after "
		   "the write of %y at t.yaml:2:3 into the buffer of %x; %x "
		   "defined at t.yaml:1:12");
	expect_inplace(&f, "z", "y");
	done(&f);
}
END_TEST

START_TEST(reasons_readonly_and_launch)
{
	Fixture f;

	decide(&f, "one-shot",
	       "func @main(%x: tensor<4xi32> {readonly}) -> (tensor<4xi32>, tensor<4xi32>) {\n"
	       "  %x1 = add %x, 0 : tensor<4xi32>\n"
	       "  %f = async stream 1 -> (tensor<4xi32>) {\n"
	       "    %a = mul %x1, 2 : tensor<4xi32>\n"
	       "    yield %a\n"
	       "  }\n"
	       "  %h = add %x1, 1 : tensor<4xi32>\n"
	       "  %h2 = mul %h, 2 : tensor<4xi32>\n"
	       "  %a2 = await %f\n"
	       "  return %a2, %h2\n"
	       "}\n");
	expect_new(&f, "x1", "read-only buffer: %x is a {readonly} param");
	expect_new(&f, "h", "read by a pending launch: %a at t.yaml:4:5 in "
		   "the launch of %f at t.yaml:3:3 reads %x1 until its await; "
		   "read of %x1 by %a at t.yaml:4:5 after the write of %h at "
		   "t.yaml:7:3 into the buffer of %x1; %x1 defined at "
		   "t.yaml:2:3");
	done(&f);
}
END_TEST

START_TEST(loops_cross_iteration_and_same_op)
{
	Fixture f;

	decide(&f, "one-shot",
	       "func @main(%x: tensor<3xi32>, %i0: tensor<3xi32>) -> tensor<3xi32> {\n"
	       "  %r = for %i = 0 to 2 step 1 iter(%acc = %i0) -> (tensor<3xi32>) {\n"
	       "    %w = mul %x, 2 : tensor<3xi32>\n"
	       "    %b = add %acc, %w : tensor<3xi32>\n"
	       "    yield %b\n"
	       "  }\n"
	       "  return %r\n"
	       "}\n");
	/* w reads x itself, but the loop reads x again next trip */
	expect_new(&f, "w", "conflict: read of %x by %w at t.yaml:3:5 (next "
		   "trip) after the write of %w at t.yaml:3:5 into the buffer "
		   "of %x; %x defined at t.yaml:1:12");
	expect_inplace(&f, "r", "i0");
	expect_inplace(&f, "b", "w"); /* a temp before the param's class */
	done(&f);
	/* the mutant forgets the loop */
	decide(&f, "mutant-elementwise-in-loops",
	       "func @main(%x: tensor<3xi32>, %i0: tensor<3xi32>) -> tensor<3xi32> {\n"
	       "  %r = for %i = 0 to 2 step 1 iter(%acc = %i0) -> (tensor<3xi32>) {\n"
	       "    %w = mul %x, 2 : tensor<3xi32>\n"
	       "    %b = add %acc, %w : tensor<3xi32>\n"
	       "    yield %b\n"
	       "  }\n"
	       "  return %r\n"
	       "}\n");
	expect_inplace(&f, "w", "x");
	done(&f);
}
END_TEST

START_TEST(call_copies_argument)
{
	Fixture f;

	decide(&f, "one-shot",
	       "func @main(%x: tensor<3xi32>) -> tensor<3xi32> {\n"
	       "  %y = call @inc(%x)\n"
	       "  %z = add %x, %y : tensor<3xi32>\n"
	       "  return %z\n"
	       "}\n"
	       "func @inc(%p: tensor<3xi32>) -> tensor<3xi32> {\n"
	       "  %q = add %p, 1 : tensor<3xi32>\n"
	       "  %q2 = mul %q, 2 : tensor<3xi32>\n"
	       "  return %q2\n"
	       "}\n");
	expect_inplace(&f, "q", "p");
	ck_assert_int_eq(f.ds.nargcopies, 1);
	ck_assert_int_eq(f.ds.argcopies[0].arg, 0);
	done(&f);
	decide(&f, "mutant-no-call-copy",
	       "func @main(%x: tensor<3xi32>) -> tensor<3xi32> {\n"
	       "  %y = call @inc(%x)\n"
	       "  %z = add %x, %y : tensor<3xi32>\n"
	       "  return %z\n"
	       "}\n"
	       "func @inc(%p: tensor<3xi32>) -> tensor<3xi32> {\n"
	       "  %q = add %p, 1 : tensor<3xi32>\n"
	       "  %q2 = mul %q, 2 : tensor<3xi32>\n"
	       "  return %q2\n"
	       "}\n");
	ck_assert_int_eq(f.ds.nargcopies, 0);
	done(&f);
}
END_TEST

START_TEST(last_use_is_textual)
{
	Fixture f;

	decide(&f, "last-use",
	       "func @main(%x: tensor<4xi32>) -> (tensor<2xi32>, tensor<4xi32>) {\n"
	       "  %s = extract_slice %x[0] [2] [1] : tensor<2xi32>\n"
	       "  %t = mul %s, 10 : tensor<2xi32>\n"
	       "  %u = add %x, 1 : tensor<4xi32>\n"
	       "  return %t, %u\n"
	       "}\n");
	expect_inplace(&f, "t", "s"); /* wrong: s is x's buffer */
	expect_inplace(&f, "u", "x");
	done(&f);
}
END_TEST

/* A write inside a generate body into a buffer from outside the body
 * is out of place (the body runs again); one made in the body may be. */
START_TEST(generate_body_runs_again)
{
	static const char *src =
		"func @main(%t: tensor<4xi32>) -> tensor<4xi32> {\n"
		"  %g = generate [%i] : tensor<4xi32> {\n"
		"    %u = insert 100 into %t[%i] : tensor<4xi32>\n"
		"    %v = add %u, 1 : tensor<4xi32>\n"
		"    %w = extract %v[0] : i32\n"
		"    yield %w\n"
		"  }\n"
		"  return %g\n"
		"}\n";
	Fixture f;

	decide(&f, "one-shot", src);
	expect_new(&f, "g", "no operand of its type to reuse");
	expect_new(&f, "u", "the buffer of %t comes from outside the generate "
		   "at t.yaml:2:3: the body runs again for the next element, "
		   "which must see it unchanged");
	expect_inplace(&f, "v", "u");
	done(&f);
	decide(&f, "mutant-generate-once", src);
	expect_inplace(&f, "u", "t");
	done(&f);
}
END_TEST

START_TEST(mutant_switches)
{
	static const struct {
		const char *name;
		unsigned lower;
	} m[] = {
		{"mutant-zero-trip", LOWER_NO_INIT_COPY},
		{"mutant-textual-frees", LOWER_TEXTUAL_FREES},
		{"one-shot", 0},
	};
	int mutants = 0;

	for (int i = 0; strategy_at(i); i++)
		mutants += !strncmp(strategy_at(i)->name, "mutant-", 7) &&
			   strategy_at(i)->breaks;
	ck_assert_int_ge(mutants, 8);
	for (size_t i = 0; i < sizeof m / sizeof *m; i++) {
		Fixture f;
		decide(&f, m[i].name, "func @main(%x: f32) -> f32 {\n  return %x\n}\n");
		ck_assert_uint_eq(f.ds.lower, m[i].lower);
		done(&f);
	}
}
END_TEST

/* A 20000-op chain: every op reuses the previous buffer (no conflict), and
 * the analysis stays linear enough to finish at once under the sanitizers. */
START_TEST(long_chain)
{
	enum { N = 20000 };
	size_t cap = (size_t)N * 48 + 256, n = 0;
	char *text = malloc(cap);
	Fixture f;
	int inplace = 0;

	n += (size_t)fmt_snprintf(text + n, cap - n, "func @main(%%v0: tensor<4xf32>) -> tensor<4xf32> {\n");
	for (int i = 1; i <= N; i++)
		n += (size_t)fmt_snprintf(text + n, cap - n,
				      "  %%v%d = add %%v%d, 1.0 : tensor<4xf32>\n", i, i - 1);
	fmt_snprintf(text + n, cap - n, "  return %%v%d\n}\n", N);
	decide(&f, "one-shot", text);
	for (int i = 0; i < f.p->nvalues; i++)
		inplace += f.ds.d[i].kind == DEC_INPLACE;
	/* all but the last (returned: its own buffer) */
	ck_assert_int_eq(inplace, N - 1);
	done(&f);
	free(text);
}
END_TEST

int
main(void)
{
	Suite *s = suite_create("oneshot");
	TCase *t = tcase_create("decisions");

	tcase_add_test(t, seed_reuses_dead_buffer);
	tcase_add_test(t, reasons_readonly_and_launch);
	tcase_add_test(t, loops_cross_iteration_and_same_op);
	tcase_add_test(t, call_copies_argument);
	tcase_add_test(t, last_use_is_textual);
	tcase_add_test(t, mutant_switches);
	tcase_add_test(t, generate_body_runs_again);
	tcase_add_test(t, long_chain);
	suite_add_tcase(s, t);
	return tu_run((Suite *[]){s, NULL});
}
