/* test_mlir_read.c: the generic-form MLIR reader (oracle/mlir/mlir_read.c), on
 * real outputs of mlir-opt-16, -19 and -22 (tests/mlir/, made by
 * tests/mlir/regen.sh), on bad input, and under allocation failure. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cases.h"
#include "mlir.h"
#include "harness.h"
#include "report.h"
#include "fuzz.h"
#include "testutil.h"

/* A fixture in a buffer of exactly its size (no NUL: ASan sees overreads). */
static char *
slurp(const char *name, size_t *len)
{
	char path[512];
	FILE *f;
	char *buf;
	long n;

	fmt_snprintf(path, sizeof path, "%s/tests/mlir/%s", SRCDIR, name);
	f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n);
	ck_assert(fread(buf, 1, (size_t)n, f) == (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

typedef struct Fix {
	char *text;
	size_t len;
	Arena *a;
	MOp *top;
} Fix;

static void
fix_read(Fix *f, const char *name)
{
	Diag d;
	int rc;

	f->text = slurp(name, &f->len);
	f->a = arena_new();
	rc = mlir_read(f->text, f->len, f->a, &f->top, &d);
	ck_assert_msg(rc == 0, "%s:%d:%d: %s", name, d.loc.line, d.loc.col, d.msg);
}

static void
fix_free(Fix *f)
{
	arena_free(f->a);
	free(f->text);
}

/* Walkers: count ops, find the nth op of a name, summarize. */
typedef struct Find {
	const char *name;
	int skip;
	MOp *op;
	int count;
	Str s;
	Arena *a;
} Find;

static void
count_op(MOp *op, void *ctx)
{
	((Find *)ctx)->count++;
}

static void
find_op(MOp *op, void *ctx)
{
	Find *f = ctx;

	if (!f->op && !strcmp(op->name, f->name) && f->skip-- == 0)
		f->op = op;
}

static MOp *
nth(MOp *top, const char *name, int n)
{
	Find f = {.name = name, .skip = n};

	mop_walk(top, find_op, &f);
	ck_assert_msg(f.op != NULL, "no %s #%d", name, n);
	return f.op;
}

static int
count_ops(MOp *top)
{
	Find f = {0};

	mop_walk(top, count_op, &f);
	return f.count;
}

/* "name line:col true,none" per op with __inplace_operands_attr__. */
static void
sum_inplace(MOp *op, void *ctx)
{
	Find *f = ctx;
	const char *v[8];
	int n = mattr_strings(mop_attr(op, "__inplace_operands_attr__"), f->a, v, 8);

	if (n < 0)
		return;
	ck_assert_int_le(n, 8);
	ck_assert_int_eq(n, op->noperands);
	str_printf(&f->s, "%s %d:%d", op->name, op->loc.line, op->loc.col);
	for (int i = 0; i < n; i++)
		str_printf(&f->s, "%c%s", i ? ',' : ' ', v[i]);
	str_puts(&f->s, "\n");
}

/* Op names in pre-order, with each op's resolved location. */
static void
sum_names(MOp *op, void *ctx)
{
	Find *f = ctx;

	str_printf(&f->s, "%s@%d:%d ", op->name, op->loc.line, op->loc.col);
}

static char *
summary(Fix *fx, void (*fn)(MOp *, void *))
{
	Find f = {.a = fx->a};

	mop_walk(fx->top, fn, &f);
	return str_take(&f.s);
}

static const char *loops_inplace =
	"linalg.fill 6:8 none,true\n"
	"scf.for 7:8 none,none,none,false\n"
	"tensor.extract 8:10 true,none\n"
	"tensor.insert 10:10 none,true,none\n"
	"scf.yield 11:5 true\n"
	"tensor.extract 13:8 true,none\n"
	"scf.yield 16:5 true\n"
	"scf.yield 18:5 true\n"
	"func.return 20:3 true,none\n";

/* The same analysis from each installed mlir-opt, run now: the fixtures
 * still say what the tools print.  A missing tool is a printed SKIP. */
START_TEST(test_live_tools)
{
	static const struct {
		int v;
		const char *opts;
	} tools[] = {
		{16, "bufferize-function-boundaries test-analysis-only allow-return-allocs"},
		{19, "bufferize-function-boundaries test-analysis-only"},
		{22, "bufferize-function-boundaries test-analysis-only"},
	};

	for (int i = 0; i < 3; i++) {
		char tool[64], cmd[512];
		Str out = {0};
		Fix fx = {0};
		Diag d;
		FILE *p;
		size_t n;
		char buf[4096], *s;

		fmt_snprintf(tool, sizeof tool, "/usr/bin/mlir-opt-%d", tools[i].v);
		if (access(tool, X_OK)) {
			printf("SKIP: test_live_tools: %s is not installed\n", tool);
			continue;
		}
		fmt_snprintf(cmd, sizeof cmd, "cd %s/tests/mlir && %s --one-shot-bufferize='%s' "
			 "--mlir-print-op-generic --mlir-print-debuginfo loops.mlir",
			 SRCDIR, tool, tools[i].opts);
		p = popen(cmd, "r");
		ck_assert_ptr_nonnull(p);
		while ((n = fread(buf, 1, sizeof buf, p)) > 0)
			str_put(&out, buf, n);
		ck_assert_int_eq(pclose(p), 0);
		fx.len = out.len;
		fx.text = str_take(&out);
		fx.a = arena_new();
		ck_assert_int_eq(mlir_read(fx.text, fx.len, fx.a, &fx.top, &d), 0);
		s = summary(&fx, sum_inplace);
		ck_assert_msg(!strcmp(s, loops_inplace), "%s:\n%s", tool, s);
		mem_free(s);
		mem_free(fx.text);
		arena_free(fx.a);
	}
}
END_TEST

static void
check_loops_structure(MOp *top)
{
	MOp *fn = nth(top, "func.func", 0), *loop = nth(top, "scf.for", 0);
	MOp *iff = nth(top, "scf.if", 0);
	MBlock *b;
	Arena *a = arena_new();

	ck_assert_str_eq(top->name, "builtin.module");
	ck_assert_ptr_null(top->parent);
	ck_assert_int_eq(count_ops(top), 19);
	ck_assert_str_eq(mattr_str(mop_attr(fn, "sym_name"), a), "main");
	ck_assert_str_eq(mop_attr(fn, "function_type")->text,
			 "(tensor<4xf32>, index) -> (tensor<4xf32>, f32)");
	ck_assert_int_eq(fn->nregions, 1);
	ck_assert_int_eq(fn->regions[0].nblocks, 1);
	b = fn->regions[0].blocks[0];
	ck_assert_str_eq(b->label, "^bb0");
	ck_assert_int_eq(b->nargs, 2);
	ck_assert_str_eq(b->args[1], "%arg1");
	ck_assert_str_eq(b->argtypes[0], "tensor<4xf32>");
	ck_assert_str_eq(b->arglocs[1].file, "loops.mlir");
	ck_assert_int_eq(b->arglocs[1].line, 1);
	ck_assert_int_eq(b->arglocs[1].col, 36);
	ck_assert_int_eq(b->nops, 10);
	ck_assert_ptr_eq(b->ops[5], loop);
	ck_assert_ptr_eq(loop->parent, fn);

	ck_assert_int_eq(loop->noperands, 4);
	ck_assert_str_eq(loop->operands[0], "%0");
	ck_assert_str_eq(loop->operands[1], "%arg1");
	ck_assert_str_eq(loop->operands[3], "%arg0");
	ck_assert_str_eq(loop->optypes[3], "tensor<4xf32>");
	ck_assert_int_eq(loop->nresults, 1);
	ck_assert_str_eq(loop->results[0], "%5");
	ck_assert_str_eq(loop->restypes[0], "tensor<4xf32>");
	ck_assert_int_eq(loop->nregions, 1);
	ck_assert_int_eq(loop->regions[0].nblocks, 1);
	b = loop->regions[0].blocks[0];
	ck_assert_int_eq(b->nargs, 2);
	ck_assert_str_eq(b->args[1], "%arg3");
	ck_assert_int_eq(b->arglocs[1].col, 50);
	ck_assert_int_eq(b->nops, 4);
	ck_assert_str_eq(b->ops[2]->name, "tensor.insert");
	ck_assert_str_eq(b->ops[2]->operands[1], "%arg3");
	ck_assert_ptr_eq(b->ops[2]->parent, loop);

	ck_assert_int_eq(iff->nregions, 2);
	for (int r = 0; r < 2; r++) {
		ck_assert_int_eq(iff->regions[r].nblocks, 1);
		b = iff->regions[r].blocks[0];
		ck_assert_ptr_null(b->label);
		ck_assert_int_eq(b->nargs, 0);
		ck_assert_int_eq(b->nops, 1);
		ck_assert_str_eq(b->ops[0]->operands[0], r ? "%4" : "%5");
	}
	arena_free(a);
}

START_TEST(test_analysis_outputs)
{
	static const char *const files[] = {
		"loops.v16.analysis.mlir", "loops.v19.analysis.mlir",
		"loops.v22.analysis.mlir", "loops.v22.analysis.local.mlir"};
	Fix fx;
	char *s;

	for (int i = 0; i < 4; i++) {
		fix_read(&fx, files[i]);
		s = summary(&fx, sum_inplace);
		ck_assert_msg(!strcmp(s, loops_inplace), "%s:\n%s", files[i], s);
		mem_free(s);
		check_loops_structure(fx.top);
		/* the op's own place in the MLIR text */
		ck_assert_int_eq(nth(fx.top, "scf.for", 0)->at.line, i == 3 ? 12 : 17);
		ck_assert_int_eq(nth(fx.top, "scf.for", 0)->at.col, 5);
		ck_assert_int_eq(nth(fx.top, "scf.yield", 0)->at.col, 7);
		fix_free(&fx);
	}
}
END_TEST

START_TEST(test_memref_outputs)
{
	static const char *v22 =
		"builtin.module@0:0 func.func@1:1 arith.constant@2:9 "
		"arith.constant@3:9 arith.constant@4:10 memref.alloc@5:8 "
		"linalg.fill@6:8 linalg.yield@0:0 memref.alloc@7:8 memref.copy@7:8 "
		"scf.for@7:8 memref.load@8:10 arith.addf@9:10 memref.store@10:10 "
		"scf.yield@11:5 memref.load@13:8 arith.cmpf@14:8 arith.select@15:8 "
		"memref.extract_aligned_pointer_as_index@20:3 "
		"memref.extract_aligned_pointer_as_index@20:3 arith.cmpi@20:3 "
		"scf.if@20:3 memref.dealloc@20:3 scf.yield@20:3 "
		"memref.extract_aligned_pointer_as_index@20:3 arith.cmpi@20:3 "
		"scf.if@20:3 memref.dealloc@20:3 scf.yield@20:3 func.return@20:3 ";
	Fix fx;
	MOp *op;
	char *s;

	fix_read(&fx, "loops.v22.memref.mlir");
	s = summary(&fx, sum_names);
	ck_assert_msg(!strcmp(s, v22), "%s", s);
	mem_free(s);
	op = nth(fx.top, "memref.copy", 0);
	ck_assert_int_eq(op->noperands, 2);
	ck_assert_str_eq(op->operands[0], "%arg0");
	ck_assert_str_eq(op->optypes[0], "memref<4xf32, strided<[?], offset: ?>>");
	ck_assert_int_eq(op->nresults, 0);
	op = nth(fx.top, "scf.if", 0);
	ck_assert_int_eq(op->nregions, 2);
	ck_assert_int_eq(op->regions[0].nblocks, 1);
	ck_assert_int_eq(op->regions[1].nblocks, 0); /* `{ }`: empty else */
	fix_free(&fx);

	fix_read(&fx, "loops.v19.memref.mlir");
	ck_assert_int_eq(count_ops(fx.top), 30);
	fix_free(&fx);
	fix_read(&fx, "loops.v16.memref.mlir");
	ck_assert_int_eq(count_ops(fx.top), 19);
	op = nth(fx.top, "memref.alloc", 1);
	ck_assert_str_eq(op->loc.file, "loops.mlir");
	ck_assert_int_eq(op->loc.line, 7);
	ck_assert_int_eq(mattr_ints(mop_attr(op, "operand_segment_sizes"), NULL, 0), 2);
	fix_free(&fx);
}
END_TEST

/* Aliases, successors, result groups, every kind of location, resources,
 * escapes, unregistered ops: the same answers from every version. */
START_TEST(test_misc_syntax)
{
	static const char *const files[] = {"misc.v16.mlir", "misc.v19.mlir",
					    "misc.v22.mlir", "misc.v22.local.mlir"};
	Fix fx;
	MOp *op;
	MBlock *b;
	int64_t seg[4];
	const char *s;

	for (int i = 0; i < 4; i++) {
		fix_read(&fx, files[i]);
		ck_assert_int_eq(count_ops(fx.top), 13);
		ck_assert_str_eq(mattr_str(mop_attr(fx.top, "test.note"), fx.a),
				 "a \"quoted\" note");
		ck_assert_int_eq(mattr_int(mop_attr(fx.top, "test.n"), &seg[0]), 0);
		ck_assert_int_eq(seg[0], 3);
		ck_assert_int_eq(fx.top->loc.line, 5);

		op = nth(fx.top, "tensor.empty", 0);   /* name loc */
		ck_assert_str_eq(op->loc.file, "misc.mlir");
		ck_assert_int_eq(op->loc.line, 8);
		ck_assert_int_eq(op->loc.col, 10);
		op = nth(fx.top, "linalg.generic", 0); /* fused: the first */
		ck_assert_int_eq(op->loc.line, 9);
		ck_assert_str_eq(op->optypes[0], "tensor<4xf32>");
		ck_assert_int_eq(op->regions[0].blocks[0]->nargs, 2);
		s = mop_attr(op, "indexing_maps")->text;
		ck_assert_str_eq(s, i == 3 ? "[affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>]"
				   : "[#map, #map]");

		op = nth(fx.top, "cf.cond_br", 0);     /* callsite: the callee */
		ck_assert_str_eq(op->loc.file, "inner.mlir");
		ck_assert_int_eq(op->loc.line, 2);
		ck_assert_int_eq(op->nsuccs, 2);
		ck_assert_str_eq(op->succs[1], "^bb1");
		ck_assert_int_eq(op->noperands, 3);
		ck_assert_int_eq(mattr_ints(mop_attr(op, "operandSegmentSizes") ?
					    mop_attr(op, "operandSegmentSizes") :
					    mop_attr(op, "operand_segment_sizes"),
					    seg, 4), 3);
		ck_assert(seg[0] == 1 && seg[1] == 1 && seg[2] == 1);
		b = op->parent->regions[0].blocks[1];
		ck_assert_str_eq(b->label, "^bb1");
		ck_assert_int_eq(b->nargs, 1);
		ck_assert_int_eq(b->arglocs[0].line, 18);
		ck_assert_int_eq(b->nops, 4);

		op = nth(fx.top, "arith.constant", 0); /* loc(unknown) */
		ck_assert_ptr_null(op->loc.file);
		ck_assert_int_eq(op->loc.line, 0);
		ck_assert_str_eq(mop_attr(op, "value")->text,
				 "dense_resource<blob1> : tensor<2xi32>");

		op = nth(fx.top, "test.two", 0);       /* %2:2, fused<meta> */
		ck_assert_int_eq(op->nresults, 2);
		ck_assert_str_eq(op->results[1], "%2#1");
		ck_assert_str_eq(op->restypes[1], "i32");
		ck_assert_int_eq(op->loc.line, 21);
		ck_assert_str_eq(mattr_str(mop_attr(op, "tag"), fx.a), "x\ny");
		ck_assert_str_eq(mop_attr(op, "empty")->text, "{}");
		ck_assert_int_eq(op->nprops, 0);
		ck_assert_str_eq(nth(fx.top, "test.sink", 0)->operands[0], op->results[1]);
		fix_free(&fx);
	}
}
END_TEST

static int
read_text(const char *text, Arena *a, MOp **top, Diag *d)
{
	return mlir_read(text, strlen(text), a, top, d);
}

START_TEST(test_top_level)
{
	Arena *a = arena_new();
	MOp *top, *op;
	Diag d;

	/* several top-level ops get a module around them, as in MLIR */
	ck_assert_int_eq(read_text("\"a.b\"() : () -> ()\n"
				   "%x, %y = \"c.d\"(%x)[^bb2] : (i32) -> (i32, !t.u<\"->\">) loc(#l)\n"
				   "#l = loc(\"f\":1:2 to 3:4)\n", a, &top, &d), 0);
	ck_assert_str_eq(top->name, "builtin.module");
	ck_assert_int_eq(top->regions[0].blocks[0]->nops, 2);
	op = top->regions[0].blocks[0]->ops[1];
	ck_assert_ptr_eq(op->parent, top);
	ck_assert_int_eq(op->nresults, 2);
	ck_assert_str_eq(op->results[1], "%y");
	ck_assert_str_eq(op->restypes[1], "!t.u<\"->\">");
	ck_assert_int_eq(op->loc.line, 1);
	ck_assert_int_eq(op->loc.col, 2);
	ck_assert_int_eq(op->at.line, 2);
	/* no ops at all: an empty module */
	ck_assert_int_eq(read_text("// nothing\n#a = 1\n", a, &top, &d), 0);
	ck_assert_int_eq(top->regions[0].blocks[0]->nops, 0);
	/* a function type in a type list; `>=` in a set; unit attributes */
	ck_assert_int_eq(read_text("%f = \"x.f\"() {u, s = affine_set<(d0) : (d0 >= 0)>} : "
				   "() -> ((i32) -> i32)\n\"x.g\"(%f) : ((i32) -> i32) -> ()", a, &top, &d), 0);
	op = top->regions[0].blocks[0]->ops[0];
	ck_assert_str_eq(op->restypes[0], "(i32) -> i32");
	ck_assert_str_eq(mop_attr(op, "u")->text, "unit");
	ck_assert_str_eq(mop_attr(op, "s")->text, "affine_set<(d0) : (d0 >= 0)>");
	ck_assert_ptr_null(mop_attr(op, "v"));
	ck_assert_str_eq(top->regions[0].blocks[0]->ops[1]->optypes[0], "(i32) -> i32");
	/* a name alone is no file; unknown parts of a fused loc are passed */
	ck_assert_int_eq(read_text("\"a\"() : () -> () loc(\"just a name\")\n"
				   "\"b\"() : () -> () loc(fused[unknown, \"n\", #x, \"g\":5:6])\n"
				   "#x = loc(\"y\"(unknown))", a, &top, &d), 0);
	ck_assert_ptr_null(top->regions[0].blocks[0]->ops[0]->loc.file);
	op = top->regions[0].blocks[0]->ops[1];
	ck_assert_str_eq(op->loc.file, "g");
	ck_assert_int_eq(op->loc.line, 5);
	ck_assert_int_eq(op->loc.col, 6);
	arena_free(a);
}
END_TEST

/* A region's blocks in reverse postorder: a block after those that
 * dominate it, unreachable ones left out, a successor that names no
 * block refused. */
START_TEST(test_region_rpo)
{
	Arena *a = arena_new();
	MOp *top, *f;
	const MOp *bad;
	Diag d;
	int order[8];

	ck_assert_int_eq(read_text(
		"\"f.f\"() ({\n"
		"^bb0:\n"
		"  \"cf.br\"()[^bb3] : () -> ()\n"
		"^bb1:\n"
		"  \"x.ret\"() : () -> ()\n"
		"^bb2:\n"             /* unreachable */
		"  \"cf.br\"()[^bb1] : () -> ()\n"
		"^bb3:\n"
		"  \"x.cond\"()[^bb3, ^bb1] : () -> ()\n"
		"}) : () -> ()\n", a, &top, &d), 0);
	f = top->regions[0].blocks[0]->ops[0];
	ck_assert_int_eq(mregion_block(&f->regions[0], "^bb3"), 3);
	ck_assert_int_eq(mregion_block(&f->regions[0], "^bb9"), -1);
	ck_assert_int_eq(mregion_rpo(&f->regions[0], a, order, &bad), 3);
	ck_assert_int_eq(order[0], 0);
	ck_assert_int_eq(order[1], 3);
	ck_assert_int_eq(order[2], 1);
	ck_assert_int_eq(read_text(
		"\"f.f\"() ({\n"
		"^bb0:\n"
		"  \"cf.br\"()[^nope] : () -> ()\n"
		"}) : () -> ()\n", a, &top, &d), 0);
	f = top->regions[0].blocks[0]->ops[0];
	ck_assert_int_eq(mregion_rpo(&f->regions[0], a, order, &bad), -1);
	ck_assert_ptr_eq(bad, f->regions[0].blocks[0]->ops[0]);
	arena_free(a);
}
END_TEST

START_TEST(test_attr_helpers)
{
	Arena *a = arena_new();
	MAttr at = {"x", "[\"true\", \"none\" , \"a\\22b\"]"};
	const char *v[2];
	int64_t n[3];

	ck_assert_int_eq(mattr_strings(&at, a, v, 2), 3);
	ck_assert_str_eq(v[1], "none");
	at.text = "[]";
	ck_assert_int_eq(mattr_strings(&at, a, v, 2), 0);
	at.text = "[\"a\", 1]";
	ck_assert_int_eq(mattr_strings(&at, a, v, 2), -1);
	ck_assert_int_eq(mattr_strings(NULL, a, v, 2), -1);
	at.text = "array<i64: 0, -2, 0x10>";
	ck_assert_int_eq(mattr_ints(&at, n, 3), 3);
	ck_assert(n[0] == 0 && n[1] == -2 && n[2] == 16);
	at.text = "[0 : i64, 010 : i32]";
	ck_assert_int_eq(mattr_ints(&at, n, 3), 2);
	ck_assert_int_eq(n[1], 10);
	at.text = "array<i32>";
	ck_assert_int_eq(mattr_ints(&at, n, 3), 0);
	at.text = "array<i32: 1, x>";
	ck_assert_int_eq(mattr_ints(&at, n, 3), -1);
	at.text = "-7 : index";
	ck_assert_int_eq(mattr_int(&at, n), 0);
	ck_assert_int_eq(n[0], -7);
	at.text = "7 : i32 x";
	ck_assert_int_eq(mattr_int(&at, n), -1);
	at.text = "1.5 : f32";
	ck_assert_int_eq(mattr_int(&at, n), -1);
	at.text = "\"s\" : i32";
	ck_assert_ptr_null(mattr_str(&at, a));
	arena_free(a);
}
END_TEST

START_TEST(test_errors)
{
	static const struct {
		const char *text;
		int line, col;
		const char *msg;
	} bad[] = {
		{"func.func @f() {}", 1, 1, "expected an operation or an alias definition, found 'f'"},
		{"%0 = arith.constant 1 : i32", 1, 6, "expected '\"' to start an op name (the generic form, --mlir-print-op-generic), found 'a'"},
		{"\"a\"(%0 : () -> ()", 1, 8, "expected ',', found ':'"},
		{"\"a\"() : () -> ()\n\"b\"() : (i32) -> ()", 2, 9, "1 operand types for 0 operands"},
		{"%0 = \"a\"() : () -> ()", 1, 20, "0 result types for 1 results"},
		{"\"a\"() {x = [1, 2} : () -> ()", 1, 17, "unbalanced '}'"},
		{"\"a\"() {x = \"abc} : () -> ()", 1, 12, "unterminated string"},
		{"\"a\"() ({\n  ^bb0(%x: i32):\n  \"b\"() : () -> ()\n ", 4, 2, "expected an operation, found end of input"},
		{"\"a\"() : () -> () loc(#loc9)", 1, 22, "undefined location alias '#loc9'"},
		{"\"a\"() : () -> () loc(#l1)\n#l1 = loc(#l2)\n#l2 = loc(fused[#l1])", 3, 17, "location alias '#l1' refers to itself"},
		{"#l = loc(unknown)\n#l = loc(unknown)", 2, 1, "redefinition of location alias '#l'"},
		{"\"a\"() : () -> () loc(\"f\":99999999999:1)", 1, 26, "number too large"},
		{"%0:0 = \"a\"() : () -> ()", 1, 4, "expected a result count, found '0'"},
		{"\"\"() : () -> ()", 1, 1, "empty op name"},
		{"%0:2147483647, %1 = \"a\"() : () -> i32", 1, 18, "too many results"},
		{"%0:99999999 = \"a\"() : () -> i32", 1, 29, "1 result types for 99999999 results"},
		{"\"a\"() : () -> i32 x", 1, 15, "1 result types for 0 results"},
		{"{-# x: \"0x\" ", 1, 1, "unterminated '{-#' block"},
		{"\"a\"() {x = 1\x01} : () -> ()", 1, 13, "unexpected byte 0x01"},
		{"\"a\"() : () -> () loc(\"f\":1:2", 1, 29, "expected ')' to end the location"},
		{"\"a\"() <{x = 1} : () -> ()", 1, 16, "expected '>', found ':'"},
		{"\"a\"() ({ ^bb0(%a: i32, %b): }) : () -> ()", 1, 26, "expected ':', found ')'"},
		{"\"a\"()[^] : () -> ()", 1, 8, "expected a successor, found ']'"},
		{"\"a\"(%x#) : () -> ()", 1, 8, "expected a result number after '#', found ')'"},
		{"\x7f\x45\x4c\x46", 1, 1, "expected an operation or an alias definition, found byte 0x7f"},
	};
	MOp *top;
	Diag d;

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		long live = mem_live_blocks();
		Arena *a = arena_new();

		ck_assert_int_eq(read_text(bad[i].text, a, &top, &d), -1);
		arena_free(a);
		ck_assert_ptr_null(top);
		ck_assert_msg(d.loc.line == bad[i].line && d.loc.col == bad[i].col &&
			      !strcmp(d.msg, bad[i].msg), "%zu: got %d:%d: %s", i,
			      d.loc.line, d.loc.col, d.msg);
		ck_assert_int_eq(mem_live_blocks(), live);
	}
}
END_TEST

/* 10^5 nested regions, 10^5 nested brackets, 10 MB on one line. */
START_TEST(test_limits)
{
	enum { DEEP = 100000 };
	size_t cap = 10 * 1024 * 1024 + 64;
	char *t = malloc(cap);
	Arena *a = arena_new();
	MOp *top;
	Diag d;
	size_t n = 0;

	for (int i = 0; i < DEEP; i++)
		n += (size_t)sprintf(t + n, "\"a\"() ({");
	ck_assert_int_eq(mlir_read(t, n, a, &top, &d), -1);
	ck_assert_str_eq(d.msg, "regions nested deeper than 256");
	ck_assert_int_eq(d.loc.col, 8 * 257); /* the 257th '{' */

	n = (size_t)sprintf(t, "\"a\"() {x = ");
	memset(t + n, '[', DEEP);
	n += DEEP;
	ck_assert_int_eq(mlir_read(t, n, a, &top, &d), -1);
	ck_assert_str_eq(d.msg, "nesting deeper than 256");

	/* one line of 10 MB: ops separated by spaces */
	n = 0;
	while (n + 40 < cap - 64)
		n += (size_t)sprintf(t + n, "\"x.y\"(%%a) : (i32) -> () ");
	ck_assert_int_eq(mlir_read(t, n, a, &top, &d), 0);
	ck_assert_int_eq(top->regions[0].blocks[0]->nops, (int)(n / 24));
	memset(t, 'z', n);
	ck_assert_int_eq(mlir_read(t, n, a, &top, &d), -1);
	ck_assert_int_eq(d.loc.col, 1);
	memset(t, '"', 1);
	ck_assert_int_eq(mlir_read(t, n, a, &top, &d), -1);
	ck_assert_str_eq(d.msg, "unterminated string");
	arena_free(a);
	free(t);
}
END_TEST

/* Every truncation and seeded byte flips of real outputs: an answer or an
 * error with a place, never a crash or a leak (ASan runs this). */
START_TEST(test_fuzz)
{
	static const char *const files[] = {"loops.v22.analysis.mlir",
					    "misc.v16.mlir", "loops.v22.memref.mlir"};
	static const char junk[] = "\"%^#<>()[]{},:=-! \n\\\x00\xff";
	uint64_t seed = 12345;
	int errors = 0, oks = 0;

	for (int f = 0; f < 3; f++) {
		size_t len;
		char *text = slurp(files[f], &len), *cut = malloc(len);
		long live = mem_live_blocks();

		for (size_t n = 0; n <= len; n++) {
			Arena *a = arena_new();
			MOp *top;
			Diag d = {{0, 0}, ""};
			char *buf = malloc(n ? n : 1);
			int rc;

			memcpy(buf, text, n);
			rc = mlir_read(buf, n, a, &top, &d);
			ck_assert(rc == 0 || (d.loc.line > 0 && d.msg[0]));
			rc ? errors++ : oks++;
			free(buf);
			arena_free(a);
		}
		for (int k = 0; k < 3000; k++) {
			Arena *a = arena_new();
			MOp *top;
			Diag d = {{0, 0}, ""};
			int rc;

			memcpy(cut, text, len);
			for (int j = 0; j < 1 + k % 4; j++) {
				uint64_t r = rng_next(&seed);

				cut[r % len] = (r >> 32) % 3 ? junk[(r >> 40) % (sizeof junk - 1)]
							     : (char)(r >> 48);
			}
			rc = mlir_read(cut, len, a, &top, &d);
			ck_assert(rc == 0 || (d.loc.line > 0 && d.msg[0]));
			rc ? errors++ : oks++;
			arena_free(a);
		}
		ck_assert_int_eq(mem_live_blocks(), live);
		free(cut);
		free(text);
	}
	ck_assert_int_gt(errors, 1000);
	ck_assert_int_gt(oks, 10);
}
END_TEST

START_TEST(test_alloc_failures)
{
	size_t len;
	char *text = slurp("misc.v22.mlir", &len);
	int failures = 0;

	for (long n = 0;; n++) {
		long live = mem_live_blocks();
		Arena *a = arena_new();
		MOp *top;
		Diag d;
		int rc;

		ck_assert_ptr_nonnull(a);
		mem_fail_after(n);
		rc = mlir_read(text, len, a, &top, &d);
		mem_fail_after(-1);
		arena_free(a);
		ck_assert_int_eq(mem_live_blocks(), live);
		if (!rc)
			break;
		ck_assert_str_eq(d.msg, "out of memory");
		failures++;
	}
	ck_assert_int_gt(failures, 2);
	free(text);
}
END_TEST

static Suite *
mlir_read_suite(void)
{
	Suite *s = suite_create("mlir_read");
	TCase *tc = tcase_create("outputs");

	tcase_add_test(tc, test_analysis_outputs);
	tcase_add_test(tc, test_memref_outputs);
	tcase_add_test(tc, test_misc_syntax);
	tcase_add_test(tc, test_top_level);
	tcase_add_test(tc, test_region_rpo);
	tcase_add_test(tc, test_attr_helpers);
	suite_add_tcase(s, tc);
	tc = tcase_create("live tools");
	tcase_add_test(tc, test_live_tools);
	suite_add_tcase(s, tc);
	tc = tcase_create("bad input");
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_limits);
	tcase_add_test(tc, test_fuzz);
	tcase_add_test(tc, test_alloc_failures);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	return tu_run((Suite *[]){mlir_read_suite(), NULL});
}
