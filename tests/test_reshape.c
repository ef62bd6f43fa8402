/* test_reshape.c: the data ops (from_elements, collapse_shape,
 * expand_shape): round trip, verifier locations, reshape views. */
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"

static const char *prog_text =
	"func @main(%x: tensor<2x3x4xf32>, %s: f32) -> (tensor<6x4xf32>, tensor<2x2xf32>, tensor<1x1xf32>) {\n"
	"  %c = collapse_shape %x [[0, 1], [2]] : tensor<6x4xf32>\n"
	"  %e = expand_shape %c [[0, 1], [2, 3]] : tensor<3x2x2x2xf32>\n"
	"  %f = from_elements %s, 1.5, %s, 2.0 : tensor<2x2xf32>\n"
	"  %z = from_elements %s : tensor<f32>\n"
	"  %o = expand_shape %z [] : tensor<1x1xf32>\n"
	"  return %c, %f, %o\n"
	"}\n";

START_TEST(print_round_trip)
{
	Diag d;
	Program *p = tu_parse(prog_text, &d), *q;
	char *a, *b;

	ck_assert_msg(p, "%d:%d: %s", d.loc.line, d.loc.col, d.msg);
	ck_assert_int_eq(tir_verify(p, NULL, &d), 0);
	a = tir_print(p);
	ck_assert_str_eq(a, prog_text);
	q = tu_parse(a, &d);
	ck_assert_ptr_nonnull(q);
	b = tir_print(q);
	ck_assert_str_eq(a, b);
	ck_assert_int_eq(prog_value(p, NULL, "e")->def->nreassoc, 2);
	ck_assert_int_eq(prog_value(p, NULL, "e")->def->reassoc[1], 2);
	mem_free(a);
	mem_free(b);
	prog_free(p);
	prog_free(q);
}
END_TEST

/* A verifier error at line:col with exactly msg. */
static void
verify_fails(const char *text, int line, int col, const char *msg)
{
	Diag d;
	Program *p = tu_parse(text, &d);

	if (p) {
		ck_assert_int_eq(tir_verify(p, NULL, &d), -1);
		prog_free(p);
	}
	ck_assert_str_eq(d.msg, msg);
	ck_assert_int_eq(d.loc.line, line);
	ck_assert_int_eq(d.loc.col, col);
}

START_TEST(errors_located)
{
	verify_fails("func @main(%x: tensor<6xf32>) -> tensor<6xf32> {\n"
		     "  %c = expand_shape %x [[0], [2]] : tensor<6xf32>\n"
		     "  return %c\n}\n", 2, 31,
		     "reassociation groups must list consecutive dims from 0: "
		     "expected 1, found 2");
	verify_fails("func @main(%x: tensor<6xf32>) -> tensor<4x2xf32> {\n"
		     "  %c = expand_shape %x [[0, 1]] : tensor<4x2xf32>\n"
		     "  return %c\n}\n", 2, 35,
		     "expand_shape tensor<6xf32> to tensor<4x2xf32>: group 0 "
		     "has 8 elements, dim 0 has 6");
	verify_fails("func @main(%a: f32) -> tensor<3xf32> {\n"
		     "  %t = from_elements %a, 1 : tensor<3xf32>\n"
		     "  return %t\n}\n", 2, 30,
		     "tensor<3xf32> has 3 elements, from_elements gives 2");
	verify_fails("func @main(%a: i32) -> tensor<2xi32> {\n"
		     "  %t = from_elements %a, 1.5 : tensor<2xi32>\n"
		     "  return %t\n}\n", 2, 26,
		     "float literal 1.5 for integer dtype i32");
}
END_TEST

static View
strided(int rank, const int64_t *sizes, const int64_t *strides)
{
	View v = {.rank = rank, .off = 5};

	for (int d = 0; d < rank; d++) {
		v.sizes[d] = sizes[d];
		v.strides[d] = strides[d];
	}
	return v;
}

START_TEST(views)
{
	int64_t s1[] = {2, 3, 4}, t1[] = {12, 4, 1}, d1[] = {6, 4};
	int64_t s2[] = {2, 2}, t2[] = {8, 2}, d2[] = {4}, d3[] = {2, 1, 2};
	int64_t s4[] = {4, 2}, t4[] = {4, 1}, d4[] = {8};
	View v = strided(3, s1, t1), r;

	ck_assert(view_reshape(&v, 2, d1, &r));
	ck_assert_int_eq(r.strides[0], 4);
	ck_assert_int_eq(r.strides[1], 1);
	ck_assert_int_eq(r.off, 5);
	/* every other row and column: no collapse, but an expand */
	v = strided(2, s2, t2);
	ck_assert(!view_reshape(&v, 1, d2, &r));
	ck_assert(view_reshape(&v, 3, d3, &r));
	ck_assert_int_eq(r.strides[0], 8);
	ck_assert_int_eq(r.strides[2], 2);
	/* rows of 2 out of rows of 4: not one run */
	v = strided(2, s4, t4);
	ck_assert(!view_reshape(&v, 1, d4, &r));
	ck_assert(slice_contiguous(2, (int64_t[]){4, 4}, (int64_t[]){2, 4},
				   (int64_t[]){1, 1}));
	ck_assert(!slice_contiguous(2, (int64_t[]){4, 4}, (int64_t[]){2, 2},
				    (int64_t[]){1, 1}));
	ck_assert(slice_contiguous(2, (int64_t[]){4, 4}, (int64_t[]){1, 3},
				   (int64_t[]){1, 1}));
	ck_assert(!slice_contiguous(1, (int64_t[]){8}, (int64_t[]){3},
				    (int64_t[]){2}));
}
END_TEST

static Suite *
reshape_suite(void)
{
	Suite *s = suite_create("reshape");
	TCase *tc = tcase_create("data");

	tcase_add_test(tc, print_round_trip);
	tcase_add_test(tc, errors_located);
	tcase_add_test(tc, views);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run((Suite *[]){reshape_suite(), NULL});
}
