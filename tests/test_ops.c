/* test_ops.c: the op table (interp/ops.h) holds together: every EW row has
 * the MLIR spellings its dtype rule needs, export writes them, the readers
 * (import, the memref translation) read them back as the same op, the
 * verifier applies the rule, and the generator's slots make lists. */
#include <stdio.h>
#include <stdlib.h>

#include "mlir.h"
#include "testutil.h"

static const DType dts[] = {DT_F32, DT_F64, DT_I1, DT_I32, DT_I64, DT_INDEX};
#define NDTS ((int)(sizeof dts / sizeof *dts))
static const int versions[] = {16, 19, 22};

static bool
is_ew_form(Form f)
{
	return f == F_BINARY || f == F_UNARY || f == F_CMP;
}

START_TEST(op_table_columns)
{
	int nrows = 0;

	for (int k = 0; k < OP_COUNT; k++) {
		const OpInfo *oi = &op_info[k];
		const EwInfo *w = &ew_info[k];
		int allowed = 0;

		ck_assert_msg(w->ew == is_ew_form(oi->form),
			      "%s: an EW row exactly when its form is "
			      "binary, unary or compare", oi->name);
		if (oi->form == F_REDUCE)
			ck_assert_msg(oi->ew >= 0 && oi->ew < OP_COUNT &&
				      op_info[oi->ew].form == F_BINARY,
				      "%s folds with a binary EW row", oi->name);
		else if (!w->ew)
			ck_assert_int_eq(oi->ew, OP_NONE);
		if (!w->ew)
			continue;
		nrows++;
		ck_assert_int_eq(oi->ew, k);
		ck_assert_int_eq(oi->write, oi->form == F_CMP ? W_NONE : W_ANY);
		ck_assert_msg((w->xf == X_CMP) == (oi->form == F_CMP),
			      "%s: X_CMP exactly for compares", oi->name);
		ck_assert_msg(w->xf != X_RELU || oi->form == F_UNARY, "%s",
			      oi->name);
		for (int t = 0; t < NDTS; t++) {
			DType dt = dts[t];
			bool fl = dtype_is_float(dt);

			if (!ew_allows((OpKind)k, dt))
				continue;
			allowed++;
			for (int v = 0; v < 3; v++)
				ck_assert_msg(ew_mlir_op((OpKind)k, dt, versions[v]),
					      "%s on %s has no MLIR %d spelling",
					      oi->name, dtype_names[dt],
					      versions[v]);
			if (oi->form == F_CMP)
				ck_assert_msg(fl ? w->cmpf : w->cmpi,
					      "%s on %s has no predicate",
					      oi->name, dtype_names[dt]);
		}
		ck_assert_msg(allowed > 0, "%s allows no dtype", oi->name);
	}
	ck_assert_int_gt(nrows, 0);
}
END_TEST

/* The spellings export writes are read back as the same op by the
 * lookups import.c and memref.c use. */
START_TEST(op_table_spellings_read_back)
{
	for (int k = 0; k < OP_COUNT; k++) {
		const EwInfo *w = &ew_info[k];
		const char *n = op_info[k].name;
		bool i1 = false;

		if (!w->ew)
			continue;
		for (int t = 0; t < NDTS; t++) {
			DType dt = dts[t];
			bool fl = dtype_is_float(dt);

			if (!ew_allows((OpKind)k, dt))
				continue;
			for (int v = 0; v < 3; v++) {
				const char *s = ew_mlir_op((OpKind)k, dt,
							   versions[v]);
				ck_assert_msg(s, "%s on %s has no MLIR %d spelling",
					      n, dtype_names[dt], versions[v]);
				if (w->xf == X_CMP) {
					const char *p = fl ? w->cmpf : w->cmpi;
					int code = -1;

					ck_assert_int_eq(ew_of_pred(p, strlen(p), fl), k);
					for (int c = 0; c < 16 && code < 0; c++)
						if (mlir_cmp_pred(fl, c) &&
						    !strcmp(mlir_cmp_pred(fl, c), p))
							code = c;
					ck_assert_msg(code >= 0, "%s: predicate %s is "
						      "not MLIR's", n, p);
				} else if (w->xf == X_PLAIN ||
					   (w->xf == X_NEG && fl)) {
					/* (on i1 max and min are the logic
					 * ops: TIR's i1 is unsigned) */
					bool logic = dt == DT_I1 && w->i1;
					ck_assert_msg(ew_of_mlir(s, logic ? EWM_I1 : 0,
								 NULL) == k,
						      "%s on %s: %s reads back "
						      "as another op", n,
						      dtype_names[dt], s);
					ck_assert_int_eq(ew_of_mlir(s, EWM_EXTRA |
								    EWM_I1, &i1), k);
					ck_assert(i1 == logic);
				}
			}
		}
		if (w->extra)
			ck_assert_int_eq(ew_of_mlir(w->extra, EWM_EXTRA, NULL), k);
		if (w->i1) {
			ck_assert_int_eq(ew_of_mlir(w->i1, EWM_I1, &i1), k);
			ck_assert(i1);
		}
		if (w->named)
			ck_assert_int_eq(ew_of_linalg(w->named, strlen(w->named),
						      false), k);
		if (w->fun)
			ck_assert_int_eq(ew_of_linalg(w->fun, strlen(w->fun), true),
					 k);
	}
}
END_TEST

/* `func @main(%a: T, %b: T) -> R { %r = OP %a[, %b] : T; return %r }` */
static void
scalar_prog(int k, DType dt, char *buf, size_t n)
{
	const char *t = dtype_names[dt];
	Form f = op_info[k].form;

	fmt_snprintf(buf, n,
		 "func @main(%%a: %s, %%b: %s) -> %s {\n"
		 "  %%r = %s %%a%s : %s\n"
		 "  return %%r\n"
		 "}\n",
		 t, t, f == F_CMP ? "i1" : t, op_info[k].name,
		 f == F_UNARY ? "" : ", %b", t);
}

/* The verifier accepts an EW op exactly on the dtypes its rule allows, and
 * export writes the row's spelling (and predicate) for each version. */
START_TEST(op_table_verify_and_export)
{
	char text[512];

	for (int k = 0; k < OP_COUNT; k++) {
		const EwInfo *w = &ew_info[k];

		if (!w->ew)
			continue;
		for (int t = 0; t < NDTS; t++) {
			DType dt = dts[t];
			bool ok = ew_allows((OpKind)k, dt);
			Diag d;
			Program *p;

			scalar_prog(k, dt, text, sizeof text);
			p = tu_parse(text, &d);
			ck_assert_msg(p, "%s: %s", text, d.msg);
			ck_assert_msg(!tir_verify(p, &default_limits, &d) == ok,
				      "%s on %s: the verifier %s it (%s)",
				      op_info[k].name, dtype_names[dt],
				      ok ? "rejects" : "accepts", d.msg);
			if (!ok) {
				prog_free(p);
				continue;
			}
			for (int v = 0; v < 3; v++) {
				Str b = {0};
				const char *s = ew_mlir_op((OpKind)k, dt,
							   versions[v]);
				const char *pred = ew_mlir_pred((OpKind)k, dt);
				char want[64];

				ck_assert_msg(s, "%s on %s has no MLIR %d spelling",
					      op_info[k].name, dtype_names[dt],
					      versions[v]);
				ck_assert_int_eq(mlir_export(p, "t.yaml",
					mlir_version(versions[v]), &b, NULL, NULL,
					&d), 0);
				fmt_snprintf(want, sizeof want, " = %s %s%s", s,
					 w->xf == X_CMP ? pred : "",
					 w->xf == X_CMP ? ", " : "");
				ck_assert_msg(b.s && strstr(b.s, want),
					      "%s on %s (MLIR %d): no '%s' in\n%s",
					      op_info[k].name, dtype_names[dt],
					      versions[v], want, b.s ? b.s : "");
				str_free(&b);
			}
			prog_free(p);
		}
	}
}
END_TEST

/* The generated-form spelling of each op imports as the op. */
START_TEST(op_table_import)
{
	char text[1024];

	for (int k = 0; k < OP_COUNT; k++) {
		const EwInfo *w = &ew_info[k];
		Form f = op_info[k].form;

		if (!w->ew || w->xf == X_RELU)
			continue;
		for (int t = 0; t < NDTS; t++) {
			DType dt = dts[t];
			bool fl = dtype_is_float(dt);
			const char *ty = dtype_names[dt], *s;
			char attr[64] = "", want[64];
			Str out = {0};
			Diag d;
			const char *dfile;

			if (!ew_allows((OpKind)k, dt) || (w->xf == X_NEG && !fl))
				continue;
			s = ew_mlir_op((OpKind)k, dt, 22);
			ck_assert_msg(s, "%s on %s has no MLIR spelling",
				      op_info[k].name, ty);
			if (f == F_CMP) {
				const char *p = ew_mlir_pred((OpKind)k, dt);
				for (int c = 0; c < 16; c++)
					if (mlir_cmp_pred(fl, c) &&
					    !strcmp(mlir_cmp_pred(fl, c), p))
						fmt_snprintf(attr, sizeof attr,
							 " <{predicate = %d : i64}>",
							 c);
			}
			fmt_snprintf(text, sizeof text,
				 "\"builtin.module\"() ({\n"
				 "  \"func.func\"() <{function_type = (%s, %s) -> %s"
				 ", sym_name = \"main\"}> ({\n"
				 "  ^bb0(%%a: %s, %%b: %s):\n"
				 "    %%0 = \"%s\"(%%a%s)%s : (%s%s%s) -> %s\n"
				 "    \"func.return\"(%%0) : (%s) -> ()\n"
				 "  }) : () -> ()\n"
				 "}) : () -> ()\n",
				 ty, ty, f == F_CMP ? "i1" : ty, ty, ty, s,
				 f == F_UNARY ? "" : ", %b", attr, ty,
				 f == F_UNARY ? "" : ", ", f == F_UNARY ? "" : ty,
				 f == F_CMP ? "i1" : ty, f == F_CMP ? "i1" : ty);
			ck_assert_msg(!mlir_import(text, strlen(text), "in.mlir",
						   NULL, &out, &d, &dfile),
				      "%s on %s: %s\n%s", op_info[k].name, ty,
				      d.msg, text);
			fmt_snprintf(want, sizeof want, " = %s ", op_info[k].name);
			ck_assert_msg(out.s && strstr(out.s, want),
				      "%s on %s: no '%s' in\n%s", op_info[k].name,
				      ty, want, out.s ? out.s : "");
			str_free(&out);
		}
	}
}
END_TEST

/* Each form's drawn rows have the slots 0..n-1, once each. */
START_TEST(op_table_generator_slots)
{
	static const Form forms[] = {F_BINARY, F_UNARY, F_CMP};

	for (int i = 0; i < 3; i++) {
		int n = 0, seen[OP_COUNT] = {0};

		for (int k = 0; k < OP_COUNT; k++)
			if (ew_info[k].ew && op_info[k].form == forms[i] &&
			    ew_info[k].gen)
				n++;
		for (int k = 0; k < OP_COUNT; k++) {
			int s = ew_info[k].slot;

			if (!ew_info[k].ew || op_info[k].form != forms[i] ||
			    !ew_info[k].gen)
				continue;
			ck_assert_msg(s >= 0 && s < n && !seen[s]++,
				      "%s: slot %d is not one of 0..%d, once",
				      op_info[k].name, s, n - 1);
		}
	}
}
END_TEST

static Suite *
ops_suite(void)
{
	Suite *s = suite_create("ops");
	TCase *tc = tcase_create("table");

	tcase_add_test(tc, op_table_columns);
	tcase_add_test(tc, op_table_spellings_read_back);
	tcase_add_test(tc, op_table_verify_and_export);
	tcase_add_test(tc, op_table_import);
	tcase_add_test(tc, op_table_generator_slots);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	Suite *suites[] = {ops_suite(), NULL};

	return tu_run(suites);
}
