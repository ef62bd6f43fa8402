/* test_walk.c: the region walker and the use lists (interp/walk.c). */
#include <stdlib.h>

#include "testutil.h"
#include "bufferize.h"

/* One op a line, every form with regions, nested. */
static const char *prog_text =
	"func @main(%x: tensor<4xi32>, %n: index, %b: i1) -> (tensor<4xi32>) {\n" /*  1 */
	"  %y = add %x, %x : tensor<4xi32>\n"                                      /*  2 */
	"  %i1 = if %b -> (tensor<4xi32>) {\n"                                     /*  3 */
	"    %t = add %y, 1 : tensor<4xi32>\n"                                     /*  4 */
	"    yield %t\n"                                                           /*  5 */
	"  } else {\n"                                                             /*  6 */
	"    %e = sub %x, %y : tensor<4xi32>\n"                                    /*  7 */
	"    yield %e\n"                                                           /*  8 */
	"  }\n"                                                                    /*  9 */
	"  %lp = for %i = 0 to %n step 1 iter(%acc = %i1) -> (tensor<4xi32>) {\n" /* 10 */
	"    %a = add %acc, %x : tensor<4xi32>\n"                                  /* 11 */
	"    yield %a\n"                                                           /* 12 */
	"  }\n"                                                                    /* 13 */
	"  %w = while iter(%c = %lp) -> (tensor<4xi32>) {\n"                       /* 14 */
	"    %v = extract %c[0] : i32\n"                                           /* 15 */
	"    %k = lt %v, 20 : i32\n"                                               /* 16 */
	"    condition %k\n"                                                       /* 17 */
	"  } do {\n"                                                               /* 18 */
	"    %c2 = add %c, 2 : tensor<4xi32>\n"                                    /* 19 */
	"    yield %c2\n"                                                          /* 20 */
	"  }\n"                                                                    /* 21 */
	"  %f = async stream 1 -> (tensor<4xi32>) {\n"                             /* 22 */
	"    %g = mul %w, %x : tensor<4xi32>\n"                                    /* 23 */
	"    yield %g\n"                                                           /* 24 */
	"  }\n"                                                                    /* 25 */
	"  %r = forall %j = 0 to 4 shared(%o = %y) -> (tensor<4xi32>) {\n"         /* 26 */
	"    %s = extract_slice %x[%j] [1] [1] : tensor<1xi32>\n"                  /* 27 */
	"    parallel_insert_slice %s into %o[%j] [1] [1]\n"                       /* 28 */
	"  }\n"                                                                    /* 29 */
	"  %h = await %f\n"                                                        /* 30 */
	"  %z = add %h, %r : tensor<4xi32>\n"                                      /* 31 */
	"  return %z\n"                                                            /* 32 */
	"}\n";

/* The op lines in pre-order: each op, then its regions' ops in order. */
static const int preorder[] = {
	2, 3, 4, 5, 7, 8, 10, 11, 12, 14, 15, 16, 17, 19, 20,
	22, 23, 24, 26, 27, 28, 29 /* the forall's implicit yield */, 30,
	31, 32,
};
#define NPRE ((int)(sizeof preorder / sizeof preorder[0]))

typedef struct Seen {
	int line[64];
	int n;
	int skip_line, stop_line;  /* 0: none */
} Seen;

static WalkAct
see(Op *op, void *ctx)
{
	Seen *s = ctx;

	if (op->loc.line == s->stop_line)
		return WALK_STOP;
	s->line[s->n++] = op->loc.line;
	return op->loc.line == s->skip_line ? WALK_SKIP : WALK_GO;
}

static Program *
load(void)
{
	Diag d;
	Program *p = tu_parse(prog_text, &d);

	ck_assert_msg(p != NULL, "%d:%d: %s", d.loc.line, d.loc.col, d.msg);
	ck_assert_msg(tir_verify(p, &default_limits, &d) == 0, "%d:%d: %s",
		      d.loc.line, d.loc.col, d.msg);
	return p;
}

static Op *
op_on(const Program *p, int line)
{
	for (int i = 0; i < p->nvalues; i++) {
		Op *op = p->values[i]->def;
		if (op && op->loc.line == line)
			return op;
	}
	ck_abort_msg("no op defines a value on line %d", line);
	return NULL;
}

START_TEST(test_regions_of_every_form)
{
	Program *p = load();
	Block *r[MAXREGIONS];
	Op *op;

	op = op_on(p, 3); /* if: then, else */
	ck_assert_int_eq(op_regions(op, r), 2);
	ck_assert_ptr_eq(r[0], op->body);
	ck_assert_ptr_eq(r[1], op->orelse);
	op = op_on(p, 10); /* for: the body */
	ck_assert_int_eq(op_regions(op, r), 1);
	ck_assert_ptr_eq(r[0], op->body);
	op = op_on(p, 14); /* while: condition, then do */
	ck_assert_int_eq(op_regions(op, r), 2);
	ck_assert_ptr_eq(r[0], op->body);
	ck_assert_ptr_eq(r[1], op->orelse);
	ck_assert_int_eq(r[0]->ops[r[0]->nops - 1]->kind, OP_CONDITION);
	ck_assert_int_eq(op_regions(op_on(p, 22), r), 1); /* async */
	ck_assert_int_eq(op_regions(op_on(p, 26), r), 1); /* forall */
	ck_assert_int_eq(op_regions(op_on(p, 2), r), 0);
	ck_assert_int_eq(op_regions(op_on(p, 30), r), 0);
	prog_free(p);
}
END_TEST

START_TEST(test_preorder)
{
	Program *p = load();
	Seen s = {0};

	ck_assert(!walk_prog(p, see, &s));
	ck_assert_int_eq(s.n, NPRE);
	ck_assert_int_eq(s.n, p->nops);
	for (int i = 0; i < NPRE; i++)
		ck_assert_int_eq(s.line[i], preorder[i]);
	s.n = 0;
	ck_assert(!walk_regions(op_on(p, 14), see, &s)); /* inside the while */
	ck_assert_int_eq(s.n, 5);
	ck_assert_int_eq(s.line[0], 15);
	ck_assert_int_eq(s.line[4], 20);
	s.n = 0;
	ck_assert(!walk_op(op_on(p, 3), see, &s)); /* the if and inside */
	ck_assert_int_eq(s.n, 5);
	ck_assert_int_eq(s.line[0], 3);
	s.n = 0;
	ck_assert(!walk_block(NULL, see, &s));
	ck_assert_int_eq(s.n, 0);
	prog_free(p);
}
END_TEST

START_TEST(test_skip_and_stop)
{
	Program *p = load();
	Seen s = {0};

	s.skip_line = 14; /* the while is seen, its regions are not */
	ck_assert(!walk_prog(p, see, &s));
	ck_assert_int_eq(s.n, NPRE - 5);
	for (int i = 0; i < s.n; i++)
		ck_assert(s.line[i] < 15 || s.line[i] > 20);
	s = (Seen){.stop_line = 16}; /* stops inside the condition region */
	ck_assert(walk_prog(p, see, &s));
	ck_assert_int_eq(s.n, 11);
	ck_assert_int_eq(s.line[s.n - 1], 15);
	s = (Seen){.stop_line = 99};
	ck_assert(!walk_prog(p, see, &s));
	ck_assert_int_eq(s.n, NPRE);
	prog_free(p);
}
END_TEST

/* number_ops lists the ops (Program.ops) and the kinds held: walk_prog
 * over the list and prog_has_op from the kinds answer as the walk
 * through the regions does (Program.ops NULL: a program not numbered). */
START_TEST(test_flat_walk_is_tree_walk)
{
	Program *p = load();
	Op **ops = p->ops;
	static const int skips[] = {0, 3, 10, 14, 22, 26};

	ck_assert_ptr_nonnull(ops);
	for (int i = 0; i < (int)(sizeof skips / sizeof *skips); i++)
		for (int stop = 0; stop <= 33; stop += 3) {
			Seen a = {.skip_line = skips[i], .stop_line = stop};
			Seen b = a;
			bool sa, sb;
			p->ops = ops;
			sa = walk_prog(p, see, &a);
			p->ops = NULL;
			sb = walk_prog(p, see, &b);
			ck_assert(sa == sb && a.n == b.n);
			ck_assert(!memcmp(a.line, b.line, (size_t)a.n * sizeof *a.line));
		}
	for (int k = 0; k < OP_COUNT; k++) {
		bool flat, tree;
		p->ops = ops;
		flat = prog_has_op(p, (OpKind)k);
		p->ops = NULL;
		tree = prog_has_op(p, (OpKind)k);
		ck_assert_msg(flat == tree, "%s", op_info[k].name);
	}
	p->ops = ops;
	ck_assert(prog_has_op(p, OP_WHILE) && !prog_has_op(p, OP_CALL));
	prog_free(p);
}
END_TEST

static WalkAct
see_post(Op *op, void *ctx)
{
	Seen *s = ctx;

	s->line[s->n++] = -op->loc.line;
	return WALK_GO;
}

START_TEST(test_post)
{
	Program *p = load();
	Seen s = {0};

	ck_assert(!walk_block_post(op_on(p, 10)->parent, NULL, see_post, &s));
	/* post-order: the if's then and else ops, then the if */
	ck_assert_int_eq(s.line[0], -2);
	ck_assert_int_eq(s.line[1], -4);
	ck_assert_int_eq(s.line[2], -5);
	ck_assert_int_eq(s.line[3], -7);
	ck_assert_int_eq(s.line[4], -8);
	ck_assert_int_eq(s.line[5], -3);
	ck_assert_int_eq(s.n, NPRE);
	/* seq/last from the parser's numbering walk */
	for (int i = 0; i < p->nvalues; i++) {
		Op *op = p->values[i]->def;
		if (op)
			ck_assert(op->last >= op->seq);
	}
	ck_assert_int_eq(op_on(p, 14)->last, op_on(p, 14)->seq + 5);
	prog_free(p);
}
END_TEST

/* The lines of v's uses, in order. */
static void
check_uses(const Program *p, const char *name, const int *lines, int n)
{
	const Value *v = prog_value(p, NULL, name);

	ck_assert_ptr_nonnull(v);
	ck_assert_msg(v->nuses == n, "%%%s: %d uses, expected %d", name,
		      v->nuses, n);
	for (int i = 0; i < n; i++) {
		ck_assert_msg(v->uses[i]->loc.line == lines[i],
			      "%%%s: use %d on line %d, expected %d", name, i,
			      v->uses[i]->loc.line, lines[i]);
		ck_assert(op_uses(v->uses[i], v));
		if (i)
			ck_assert(v->uses[i]->seq > v->uses[i - 1]->seq);
	}
}

typedef struct Ops {
	Op *op[64];
	int n;
} Ops;

static WalkAct
collect(Op *op, void *ctx)
{
	Ops *o = ctx;

	o->op[o->n++] = op;
	return WALK_GO;
}

START_TEST(test_use_lists)
{
	Program *p = load();
	Ops all = {0};

	/* `add %x, %x` is one use; regions of every kind */
	check_uses(p, "x", (int[]){2, 7, 11, 23, 27}, 5);
	check_uses(p, "y", (int[]){4, 7, 26}, 3);
	check_uses(p, "n", (int[]){10}, 1);
	check_uses(p, "b", (int[]){3}, 1);
	check_uses(p, "acc", (int[]){11}, 1);
	check_uses(p, "c", (int[]){15, 19}, 2);     /* condition and do */
	check_uses(p, "lp", (int[]){14}, 1);        /* a while's init */
	check_uses(p, "f", (int[]){30}, 1);         /* the await */
	check_uses(p, "o", (int[]){28}, 1);         /* the dest of a pinsert */
	check_uses(p, "j", (int[]){27, 28}, 2);     /* slice offsets */
	check_uses(p, "z", (int[]){32}, 1);
	check_uses(p, "h", (int[]){31}, 1);
	check_uses(p, "k", (int[]){17}, 1);
	check_uses(p, "i", NULL, 0);
	/* every use of every value, and nothing else */
	walk_prog(p, collect, &all);
	ck_assert_int_eq(all.n, p->nops);
	for (int i = 0; i < p->nvalues; i++) {
		const Value *v = p->values[i];
		int listed = 0;
		for (int k = 0; k < all.n; k++) {
			bool in = false;
			for (int u = 0; u < v->nuses; u++)
				in |= v->uses[u] == all.op[k];
			ck_assert_msg(in == op_uses(all.op[k], v),
				      "%%%s and the op on line %d", v->name,
				      all.op[k]->loc.line);
			listed += in;
		}
		ck_assert_int_eq(listed, v->nuses);
	}
	ck_assert(used_inside(prog_value(p, NULL, "x"), op_on(p, 3)));
	ck_assert(used_inside(prog_value(p, NULL, "x"), op_on(p, 22)));
	ck_assert(!used_inside(prog_value(p, NULL, "x"), op_on(p, 14)));
	ck_assert(used_inside(prog_value(p, NULL, "c"), op_on(p, 14)));
	ck_assert(!used_inside(prog_value(p, NULL, "i"), op_on(p, 10)));
	ck_assert(!used_inside(prog_value(p, NULL, "b"), op_on(p, 3)));
	prog_free(p);
}
END_TEST

/* ---- buffer programs */

typedef struct BSeen {
	const BInst *in[256];
	int n;
	BKind skip, stop;  /* BI_COUNT-like sentinel: -1 none */
} BSeen;

static WalkAct
bsee(BInst *in, void *ctx)
{
	BSeen *s = ctx;

	if ((int)in->kind == (int)s->stop)
		return WALK_STOP;
	s->in[s->n++] = in;
	return (int)in->kind == (int)s->skip ? WALK_SKIP : WALK_GO;
}

/* The reference order, by hand. */
static void
bref(const BBlock *b, BSeen *s)
{
	for (int i = 0; b && i < b->n; i++) {
		s->in[s->n++] = b->insts[i];
		bref(b->insts[i]->body, s);
		bref(b->insts[i]->orelse, s);
	}
}

START_TEST(test_bir_walk)
{
	Program *p = load();
	Decisions ds;
	BProg *bp;
	Diag d;
	BSeen ref = {.skip = -1, .stop = -1}, s = {.skip = -1, .stop = -1};
	int nfor = 0, nwhile = 0;

	ck_assert_int_eq(decisions_make(p, strategy_find("one-shot"), &ds), 0);
	ck_assert_ptr_nonnull(bp = bufferize_lower(p, &ds, &d));
	bref(bp->funcs[0].body, &ref);
	ck_assert(!walk_bblock(bp->funcs[0].body, bsee, &s));
	ck_assert_int_eq(s.n, ref.n);
	for (int i = 0; i < s.n; i++)
		ck_assert_ptr_eq(s.in[i], ref.in[i]);
	for (int i = 0; i < s.n; i++) {
		BBlock *r[MAXREGIONS];
		int n = binst_regions(s.in[i], r);
		nfor += s.in[i]->kind == BI_FOR;
		if (s.in[i]->kind == BI_WHILE) {
			nwhile++;
			ck_assert_int_eq(n, 2);
			ck_assert_ptr_eq(r[0], s.in[i]->body);
			ck_assert_ptr_eq(r[1], s.in[i]->orelse);
		}
	}
	ck_assert_int_eq(nfor, 1);
	ck_assert_int_eq(nwhile, 1);
	/* SKIP: the while's instructions are left out */
	s = (BSeen){.skip = BI_WHILE, .stop = -1};
	ck_assert(!walk_bblock(bp->funcs[0].body, bsee, &s));
	ck_assert_int_lt(s.n, ref.n);
	for (int i = 0; i < s.n; i++)
		ck_assert(!s.in[i]->op || s.in[i]->op->loc.line < 15 ||
			  s.in[i]->op->loc.line > 20);
	/* STOP at the first launch */
	s = (BSeen){.skip = -1, .stop = BI_LAUNCH};
	ck_assert(walk_bblock(bp->funcs[0].body, bsee, &s));
	for (int i = 0; i < s.n; i++)
		ck_assert_ptr_eq(s.in[i], ref.in[i]);
	ck_assert_int_eq(ref.in[s.n]->kind, BI_LAUNCH);
	bprog_free(bp);
	decisions_free(&ds);
	prog_free(p);
}
END_TEST

/* ---- the builder */

START_TEST(test_builder)
{
	static const char *text =
		"func @main(%x: tensor<4xi32>, %n: index) -> (tensor<4xi32>) {\n"
		"  %r = for %i = 0 to %n step 1 iter(%acc = %x) -> (tensor<4xi32>) {\n"
		"    %a = add %acc, 1 : tensor<4xi32>\n"
		"    yield %a\n"
		"  }\n"
		"  return %r\n"
		"}\n";
	Builder B;
	Diag d;
	Program *want = tu_parse(text, &d), *p;
	Type *t, *ix;
	Value *x, *n, *acc;
	Op *loop, *add, *y, *ret;
	char *a, *b;

	ck_assert_ptr_nonnull(want);
	ck_assert_int_eq(build_init(&B), 0);
	t = build_type(&B, TY_TENSOR, DT_I32, 1, (int64_t[]){4});
	ix = build_type(&B, TY_SCALAR, DT_INDEX, 0, NULL);
	build_func(&B, "main", (Type *[]){t}, 1);
	x = build_param(&B, "x", t);
	n = build_param(&B, "n", ix);
	loop = build_op(&B, B.fn->body, OP_FOR, 4, (const char *[]){"r"},
			(Type *[]){t}, 1);
	loop->args[0].i = 0;
	loop->args[1].v = n;
	loop->args[2].i = 1;
	loop->args[3].v = x;
	loop->rtypes = (Type **)arena_alloc(B.p->arena, sizeof(Type *));
	loop->rtypes[0] = t;
	loop->nrtypes = 1;
	loop->body = build_block(&B, loop);
	build_arg(&B, loop->body, "i", ix);
	acc = build_arg(&B, loop->body, "acc", t);
	add = build_op(&B, loop->body, OP_ADD, 2, (const char *[]){"a"},
		       (Type *[]){t}, 1);
	add->args[0].v = acc;
	add->args[1].i = 1;
	add->type = t;
	y = build_op(&B, loop->body, OP_YIELD, 1, NULL, NULL, 0);
	y->args[0].v = add->res[0];
	ret = build_op(&B, B.fn->body, OP_RETURN, 1, NULL, NULL, 0);
	ret->args[0].v = loop->res[0];
	p = build_finish(&B);
	ck_assert_int_eq(tir_verify(p, &default_limits, &d), 0);
	a = tir_print(p);
	b = tir_print(want);
	ck_assert_str_eq(a, b);
	ck_assert_int_eq(p->nops, want->nops);
	ck_assert_int_eq(p->nvalues, want->nvalues);
	ck_assert_int_eq(acc->nuses, 1);
	ck_assert_ptr_eq(acc->uses[0], add);
	ck_assert_int_eq(x->nuses, 1);
	ck_assert_ptr_eq(x->uses[0], loop);
	ck_assert_int_eq(loop->last, loop->seq + 2);
	mem_free(a);
	mem_free(b);
	prog_free(p);
	prog_free(want);
}
END_TEST

static Suite *
walk_suite(void)
{
	Suite *s = suite_create("walk");
	TCase *tc = tcase_create("walk");

	tcase_add_test(tc, test_regions_of_every_form);
	tcase_add_test(tc, test_preorder);
	tcase_add_test(tc, test_skip_and_stop);
	tcase_add_test(tc, test_flat_walk_is_tree_walk);
	tcase_add_test(tc, test_post);
	tcase_add_test(tc, test_use_lists);
	tcase_add_test(tc, test_bir_walk);
	tcase_add_test(tc, test_builder);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run((Suite *[]){walk_suite(), NULL});
}
