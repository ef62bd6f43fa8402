/* test_memref.c: memref programs (oracle/mlir/memref*.c) as buffer programs:
 * the seed's runs and agrees, functions of several blocks run along their
 * branches, a memref program cut short anywhere, missing any line, or
 * read while allocations fail, is an error or a run, never a crash or a
 * leak; mlir-opt-16's spellings (foreach_thread, operand_segment_sizes)
 * run. */
#include <stdio.h>
#include <stdlib.h>

#include "cases.h"
#include "mlir.h"
#include "harness.h"
#include "testutil.h"

static const char *case_text =
	"case: seed\n"
	"program: |\n"
	"  func @main(%x: tensor<3xi32>) -> tensor<3xi32> {\n"
	"    %y = add %x, 10 : tensor<3xi32>\n"
	"    %z = add %x, %y : tensor<3xi32>\n"
	"    return %z\n"
	"  }\n"
	"inputs:\n"
	"  x: [1, 2, 3]\n";

/* y in a new buffer, z in place into x's, a clone returned, y freed (what
 * mlir-opt-22's pipeline emits), through a dealloc helper's loop, loads and
 * stores of ownership flags and fake addresses. */
static const char *memref_text =
	"\"builtin.module\"() ({\n"
	"  \"func.func\"() <{function_type = (memref<3xi32, strided<[?], offset: ?>>) -> memref<3xi32, strided<[?], offset: ?>>, sym_name = \"main\"}> ({\n"
	"  ^bb0(%arg0: memref<3xi32, strided<[?], offset: ?>>):\n"
	"    %0 = \"arith.constant\"() <{value = 10 : i32}> : () -> i32 loc(\"seed.yaml\":4:5)\n"
	"    %c0 = \"arith.constant\"() <{value = 0 : index}> : () -> index\n"
	"    %c1 = \"arith.constant\"() <{value = 1 : index}> : () -> index\n"
	"    %t = \"arith.constant\"() <{value = true}> : () -> i1\n"
	"    %1 = \"memref.alloc\"() <{alignment = 64 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<3xi32> loc(\"seed.yaml\":4:5)\n"
	"    \"linalg.generic\"(%arg0, %0, %1) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 2, 1>}> ({\n"
	"    ^bb0(%a: i32, %b: i32, %c: i32):\n"
	"      %2 = \"arith.addi\"(%a, %b) : (i32, i32) -> i32\n"
	"      \"linalg.yield\"(%2) : (i32) -> ()\n"
	"    }) : (memref<3xi32, strided<[?], offset: ?>>, i32, memref<3xi32>) -> () loc(\"seed.yaml\":4:5)\n"
	"    \"linalg.generic\"(%arg0, %1, %arg0) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 2, 1>}> ({\n"
	"    ^bb0(%d: i32, %e: i32, %f: i32):\n"
	"      %3 = \"arith.addi\"(%d, %e) : (i32, i32) -> i32\n"
	"      \"linalg.yield\"(%3) : (i32) -> ()\n"
	"    }) : (memref<3xi32, strided<[?], offset: ?>>, memref<3xi32>, memref<3xi32, strided<[?], offset: ?>>) -> () loc(\"seed.yaml\":5:5)\n"
	"    %4 = \"bufferization.clone\"(%arg0) : (memref<3xi32, strided<[?], offset: ?>>) -> memref<3xi32, strided<[?], offset: ?>>\n"
	"    %5 = \"memref.alloc\"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<2xindex>\n"
	"    %6 = \"memref.extract_aligned_pointer_as_index\"(%1) : (memref<3xi32>) -> index\n"
	"    \"scf.for\"(%c0, %c1, %c1) ({\n"
	"    ^bb0(%i: index):\n"
	"      \"memref.store\"(%6, %5, %i) : (index, memref<2xindex>, index) -> ()\n"
	"      \"scf.yield\"() : () -> ()\n"
	"    }) : (index, index, index) -> ()\n"
	"    %7 = \"memref.load\"(%5, %c0) : (memref<2xindex>, index) -> index\n"
	"    %8 = \"arith.cmpi\"(%7, %6) <{predicate = 0 : i64}> : (index, index) -> i1\n"
	"    \"scf.if\"(%8) ({\n"
	"      \"memref.dealloc\"(%1) : (memref<3xi32>) -> ()\n"
	"      \"scf.yield\"() : () -> ()\n"
	"    }, {\n"
	"    }) : (i1) -> ()\n"
	"    \"memref.dealloc\"(%5) : (memref<2xindex>) -> ()\n"
	"    \"func.return\"(%4) : (memref<3xi32, strided<[?], offset: ?>>) -> () loc(\"seed.yaml\":6:5)\n"
	"  }) : () -> () loc(\"seed.yaml\":3:3)\n"
	"}) : () -> ()\n";

/* cases/mlir/cf-insert-in-later-block.yaml's shape */
static const char *cfg_case =
	"case: cfg\n"
	"program: |\n"
	"  func @main(%t: tensor<2xi32>, %c: i1) -> i32 {\n"
	"    cond_br %c, ^write, ^join(%t)\n"
	"  ^write:\n"
	"    %r = insert 100 into %t[0] : tensor<2xi32>\n"
	"    br ^join(%r)\n"
	"  ^join(%a: tensor<2xi32>):\n"
	"    %x = extract %a[0] : i32\n"
	"    %e = extract %t[0] : i32\n"
	"    %s = add %x, %e : i32\n"
	"    return %s\n"
	"  }\n"
	"inputs:\n"
	"  t: [1, 2]\n"
	"  c: 1\n";

/* ... as mlir-opt-22's default pipeline prints it: the insert in place
 * into %arg0, ^bb2's arguments the memref and its ownership (false on
 * both edges), a dealloc under the ownership */
static const char *cfg_memref =
	"\"builtin.module\"() ({\n"
	"  \"func.func\"() <{function_type = (memref<2xi32, strided<[?], offset: ?>>, i1) -> i32, sym_name = \"main\"}> ({\n"
	"  ^bb0(%arg0: memref<2xi32, strided<[?], offset: ?>>, %arg1: i1):\n"
	"    %0 = \"arith.constant\"() <{value = 0 : index}> : () -> index\n"
	"    %1 = \"arith.constant\"() <{value = 100 : i32}> : () -> i32\n"
	"    %2 = \"arith.constant\"() <{value = false}> : () -> i1\n"
	"    \"cf.cond_br\"(%arg1, %arg0, %2)[^bb1, ^bb2] <{operandSegmentSizes = array<i32: 1, 0, 2>}> : (i1, memref<2xi32, strided<[?], offset: ?>>, i1) -> () loc(\"cfg.yaml\":4:5)\n"
	"  ^bb1:\n"
	"    \"memref.store\"(%1, %arg0, %0) <{nontemporal = false}> : (i32, memref<2xi32, strided<[?], offset: ?>>, index) -> () loc(\"cfg.yaml\":6:5)\n"
	"    \"cf.br\"(%arg0, %2)[^bb2] : (memref<2xi32, strided<[?], offset: ?>>, i1) -> () loc(\"cfg.yaml\":7:5)\n"
	"  ^bb2(%3: memref<2xi32, strided<[?], offset: ?>>, %4: i1):\n"
	"    %5 = \"memref.load\"(%3, %0) <{nontemporal = false}> : (memref<2xi32, strided<[?], offset: ?>>, index) -> i32 loc(\"cfg.yaml\":9:5)\n"
	"    %6 = \"memref.load\"(%arg0, %0) <{nontemporal = false}> : (memref<2xi32, strided<[?], offset: ?>>, index) -> i32 loc(\"cfg.yaml\":10:5)\n"
	"    %7 = \"arith.addi\"(%5, %6) <{overflowFlags = #arith.overflow<none>}> : (i32, i32) -> i32 loc(\"cfg.yaml\":11:5)\n"
	"    %8:4 = \"memref.extract_strided_metadata\"(%3) : (memref<2xi32, strided<[?], offset: ?>>) -> (memref<i32>, index, index, index) loc(\"cfg.yaml\":12:5)\n"
	"    \"scf.if\"(%4) ({\n"
	"      \"memref.dealloc\"(%8#0) : (memref<i32>) -> () loc(\"cfg.yaml\":12:5)\n"
	"      \"scf.yield\"() : () -> () loc(\"cfg.yaml\":12:5)\n"
	"    }, {\n"
	"    }) : (i1) -> () loc(\"cfg.yaml\":12:5)\n"
	"    \"func.return\"(%7) : (i32) -> () loc(\"cfg.yaml\":12:5)\n"
	"  }) : () -> () loc(\"cfg.yaml\":3:3)\n"
	"}) : () -> ()\n";

/* A loop of blocks whose back edge swaps two arguments: the edge assigns
 * them at once (three trips: 1, 2 -> 2, 1 -> 1, 2 -> 2, 1) */
static const char *swap_case =
	"case: swap\n"
	"program: |\n"
	"  func @main(%t: tensor<2xi32>, %n: index) -> i32 {\n"
	"    %a0 = extract %t[0] : i32\n"
	"    %b0 = extract %t[1] : i32\n"
	"    %i0 = const 0 : index\n"
	"    br ^head(%a0, %b0, %i0)\n"
	"  ^head(%a: i32, %b: i32, %i: index):\n"
	"    %more = lt %i, %n : index\n"
	"    %i2 = add %i, 1 : index\n"
	"    cond_br %more, ^head(%b, %a, %i2), ^exit(%a)\n"
	"  ^exit(%r: i32):\n"
	"    return %r\n"
	"  }\n"
	"inputs:\n"
	"  t: [1, 2]\n"
	"  n: 3\n";

/* ... as mlir-opt-22's one-shot-bufferize prints it (its
 * buffer-deallocation-pipeline refuses the loop) */
static const char *swap_memref =
	"\"builtin.module\"() ({\n"
	"  \"func.func\"() <{function_type = (memref<2xi32, strided<[?], offset: ?>>, index) -> i32, sym_name = \"main\"}> ({\n"
	"  ^bb0(%arg0: memref<2xi32, strided<[?], offset: ?>>, %arg1: index):\n"
	"    %0 = \"arith.constant\"() <{value = 1 : index}> : () -> index\n"
	"    %1 = \"arith.constant\"() <{value = 0 : index}> : () -> index\n"
	"    %2 = \"memref.load\"(%arg0, %1) <{nontemporal = false}> : (memref<2xi32, strided<[?], offset: ?>>, index) -> i32 loc(\"swap.yaml\":4:5)\n"
	"    %3 = \"memref.load\"(%arg0, %0) <{nontemporal = false}> : (memref<2xi32, strided<[?], offset: ?>>, index) -> i32 loc(\"swap.yaml\":5:5)\n"
	"    \"cf.br\"(%2, %3, %1)[^bb1] : (i32, i32, index) -> () loc(\"swap.yaml\":7:5)\n"
	"  ^bb1(%4: i32, %5: i32, %6: index):\n"
	"    %7 = \"arith.cmpi\"(%6, %arg1) <{predicate = 2 : i64}> : (index, index) -> i1 loc(\"swap.yaml\":9:5)\n"
	"    %8 = \"arith.addi\"(%6, %0) <{overflowFlags = #arith.overflow<none>}> : (index, index) -> index loc(\"swap.yaml\":10:5)\n"
	"    \"cf.cond_br\"(%7, %5, %4, %8, %4)[^bb1, ^bb2] <{operandSegmentSizes = array<i32: 1, 3, 1>}> : (i1, i32, i32, index, i32) -> () loc(\"swap.yaml\":11:5)\n"
	"  ^bb2(%9: i32):\n"
	"    \"func.return\"(%9) : (i32) -> () loc(\"swap.yaml\":13:5)\n"
	"  }) : () -> () loc(\"swap.yaml\":3:3)\n"
	"}) : () -> ()\n";

/* The fixtures: a case and a memref program made of its export. */
static const struct {
	const char *file, **text, **memref;
} fixes[] = {
	{"seed.yaml", &case_text, &memref_text},
	{"cfg.yaml", &cfg_case, &cfg_memref},
	{"swap.yaml", &swap_case, &swap_memref},
};
enum { NFIX = sizeof fixes / sizeof *fixes };

typedef struct Fix {
	Case *c;
	Arena *a;
	ExportMap map;
	const char *memref;
	BProg *bp;	/* the program a kept result points into */
} Fix;

static void
fix_load_k(Fix *f, int k)
{
	Str s = {0};
	Diag d;
	const char *text = *fixes[k].text;

	ck_assert_msg(!case_parse(fixes[k].file, text, strlen(text), 0,
				  &f->c, &d), "%s", d.msg);
	f->a = arena_new();
	ck_assert(!mlir_export(f->c->prog, fixes[k].file, mlir_version(22), &s,
			       f->a, &f->map, &d));
	f->memref = *fixes[k].memref;
	f->bp = NULL;
	str_free(&s);
}

static void
fix_load(Fix *f)
{
	fix_load_k(f, 0);
}

static void
fix_free(Fix *f)
{
	bprog_free(f->bp);
	arena_free(f->a);
	case_free(f->c);
}

/* Translate and run text; 0 ran (res filled, then freed), -1 refused,
 * -2 the run failed (out of memory).  A kept result's violations point
 * into the program, so the fixture keeps it until fix_free. */
static int
run_text(Fix *f, const char *text, ExecResult *keep)
{
	ExecOpts eo = {.lim = &f->c->lim, .sched = {SCHED_SYNC, 0}};
	ExecResult res;
	const Func *entry;
	BProg *bp;
	Diag d;

	if (memref_program(f->c, text, &f->map, &bp, &entry, &d))
		return -1;
	ck_assert(bp != NULL);
	if (exec_run(bp, entry, f->c->inputs, &eo, &res, &d)) {
		bprog_free(bp);
		return -2;
	}
	if (keep) {
		*keep = res;
		bprog_free(f->bp);
		f->bp = bp;
	} else {
		exec_result_free(&res);
		bprog_free(bp);
	}
	return 0;
}

START_TEST(seed_agrees)
{
	Fix f;
	ExecResult res;

	fix_load(&f);
	ck_assert_int_eq(run_text(&f, memref_text, &res), 0);
	ck_assert_int_eq(res.nviols, 0);
	ck_assert_int_eq(res.nouts, 1);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(tensor_geti(res.outs[0], i), 12 + 2 * i);
	/* y's buffer and the clone (12 bytes each), the pointer list (16) */
	ck_assert_int_eq(res.mem.allocations, 3);
	ck_assert_int_eq(res.mem.alloc_bytes, 40);
	exec_result_free(&res);
	fix_free(&f);
}
END_TEST

/* The insert in place in ^bb1 and the read of %t in ^bb2: 200 where 101
 * is right, the read blamed on the insert; the ownership (false on both
 * edges) frees nothing, and nothing leaks. */
START_TEST(cfg_diverges)
{
	Fix f;
	ExecResult res;

	fix_load_k(&f, 1);
	ck_assert_int_eq(run_text(&f, f.memref, &res), 0);
	ck_assert_int_eq(res.nouts, 1);
	ck_assert_int_eq(tensor_geti(res.outs[0], 0), 200);
	ck_assert_int_eq(res.nviols, 1);
	ck_assert_int_eq(res.viols[0].kind, VK_STALE_READ);
	ck_assert_str_eq(res.viols[0].victim->name, "t");
	ck_assert_int_eq(res.viols[0].writer->top->loc.line, 6);
	ck_assert_int_eq(res.viols[0].at->mloc.line, 13); /* %6's load */
	ck_assert_int_eq(res.mem.allocations, 0);
	exec_result_free(&res);
	fix_free(&f);
}
END_TEST

/* A back edge passing a block's arguments in another order: assigned at
 * once; each branch is a trip. */
START_TEST(cfg_swap)
{
	Fix f;
	ExecResult res;

	fix_load_k(&f, 2);
	ck_assert_int_eq(run_text(&f, f.memref, &res), 0);
	ck_assert_int_eq(res.nviols, 0);
	ck_assert_int_eq(tensor_geti(res.outs[0], 0), 2);
	exec_result_free(&res);
	f.c->lim.max_trips = 3; /* the entry's branch and two back edges */
	ck_assert_int_eq(run_text(&f, f.memref, &res), 0);
	ck_assert_str_eq(res.aborted, "loop trip limit of 3 reached "
			 "(branches count as trips)");
	ck_assert_int_eq(res.aborted_at.line, 11);
	exec_result_free(&res);
	fix_free(&f);
}
END_TEST

/* Cut short anywhere: an error (a syntax error of the reader, a value
 * used before it is defined) or a program that runs; never a crash. */
START_TEST(cut_anywhere)
{
	size_t n = strlen(*fixes[_i].memref);
	char *buf = malloc(n + 1);
	int ok = 0;
	Fix f;

	fix_load_k(&f, _i);
	for (size_t k = 0; k + 1 < n; k += 3) { /* not the last newline */
		memcpy(buf, f.memref, k);
		buf[k] = 0;
		ok += run_text(&f, buf, NULL) != -1;
	}
	ck_assert_int_eq(ok, 0); /* no prefix is a whole module */
	free(buf);
	fix_free(&f);
}
END_TEST

/* Without any one line: an error or a run with violations; never a
 * crash. */
START_TEST(drop_each_line)
{
	const char *text = *fixes[_i].memref;
	size_t n = strlen(text);
	char *buf = malloc(n + 1);
	int ran = 0;
	Fix f;

	fix_load_k(&f, _i);
	for (const char *p = text; *p;) {
		const char *e = strchr(p, '\n');
		size_t a = (size_t)(p - text), l = (size_t)(e - p) + 1;
		memcpy(buf, text, a);
		memcpy(buf + a, e + 1, n - a - l + 1);
		ran += run_text(&f, buf, NULL) != -1;
		p = e + 1;
	}
	if (!_i) /* e.g. without the dealloc: a leak */
		ck_assert_int_gt(ran, 0);
	free(buf);
	fix_free(&f);
}
END_TEST

START_TEST(out_of_memory)
{
	Fix f;
	long base;
	int rc = -1;

	fix_load_k(&f, _i);
	base = mem_live_blocks();
	for (long n = 0; rc && n < 100000; n++) {
		mem_fail_after(n);
		rc = run_text(&f, f.memref, NULL);
		mem_fail_after(-1);
		ck_assert_int_eq(mem_live_blocks(), base);
	}
	ck_assert_int_eq(rc, 0);
	fix_free(&f);
}
END_TEST

/* mlir-opt-16's spellings of a forall program under its old pipeline
 * (one-shot-bufferize, then func.func(buffer-deallocation)), as it prints
 * them: `operand_segment_sizes` on memref.subview, memref.alloc and
 * linalg.generic, and `scf.foreach_thread` (its trip count an operand)
 * ending in an empty `scf.foreach_thread.perform_concurrently`. */
static const char *case16_text =
	"case: f16\n"
	"program: |\n"
	"  func @main(%x: tensor<8xf32>, %out: tensor<8xf32>) -> tensor<8xf32> {\n"
	"    %r = forall %i = 0 to 4 shared(%o = %out) -> (tensor<8xf32>) {\n"
	"      %j = mul %i, 2 : index\n"
	"      %s = extract_slice %x[%j] [2] [1] : tensor<2xf32>\n"
	"      %t = add %s, 1.0 : tensor<2xf32>\n"
	"      parallel_insert_slice %t into %o[%j] [2] [1]\n"
	"    }\n"
	"    return %r\n"
	"  }\n"
	"inputs:\n"
	"  x: [1, 2, 3, 4, 5, 6, 7, 8]\n"
	"  out: {splat: 0}\n";

static const char *memref16_text =
	"\"builtin.module\"() ({\n"
	"  \"func.func\"() ({\n"
	"  ^bb0(%arg0: memref<8xf32, strided<[?], offset: ?>>, %arg1: memref<8xf32, strided<[?], offset: ?>>):\n"
	"    %0 = \"arith.constant\"() {value = 1.000000e+00 : f32} : () -> f32 loc(\"f16.yaml\":7:7)\n"
	"    %1 = \"arith.constant\"() {value = 2 : index} : () -> index loc(\"f16.yaml\":5:7)\n"
	"    %2 = \"arith.constant\"() {value = 4 : index} : () -> index loc(\"f16.yaml\":4:5)\n"
	"    \"scf.foreach_thread\"(%2) ({\n"
	"    ^bb0(%arg2: index loc(\"f16.yaml\":4:5)):\n"
	"      %3 = \"arith.muli\"(%arg2, %1) : (index, index) -> index loc(\"f16.yaml\":5:7)\n"
	"      %4 = \"memref.subview\"(%arg0, %3) {operand_segment_sizes = array<i32: 1, 1, 0, 0>, static_offsets = array<i64: -9223372036854775808>, static_sizes = array<i64: 2>, static_strides = array<i64: 1>} : (memref<8xf32, strided<[?], offset: ?>>, index) -> memref<2xf32, strided<[?], offset: ?>> loc(\"f16.yaml\":6:7)\n"
	"      %5 = \"memref.alloc\"() {alignment = 64 : i64, operand_segment_sizes = array<i32: 0, 0>} : () -> memref<2xf32> loc(\"f16.yaml\":7:7)\n"
	"      \"linalg.generic\"(%4, %0, %5) ({\n"
	"      ^bb0(%arg3: f32, %arg4: f32, %arg5: f32):\n"
	"        %7 = \"arith.addf\"(%arg3, %arg4) {fastmath = #arith.fastmath<none>} : (f32, f32) -> f32 loc(\"f16.yaml\":7:7)\n"
	"        \"linalg.yield\"(%7) : (f32) -> () loc(\"f16.yaml\":7:7)\n"
	"      }) {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], operand_segment_sizes = array<i32: 2, 1>} : (memref<2xf32, strided<[?], offset: ?>>, f32, memref<2xf32>) -> () loc(\"f16.yaml\":7:7)\n"
	"      %6 = \"memref.subview\"(%arg1, %3) {operand_segment_sizes = array<i32: 1, 1, 0, 0>, static_offsets = array<i64: -9223372036854775808>, static_sizes = array<i64: 2>, static_strides = array<i64: 1>} : (memref<8xf32, strided<[?], offset: ?>>, index) -> memref<2xf32, strided<[?], offset: ?>> loc(\"f16.yaml\":8:7)\n"
	"      \"memref.copy\"(%5, %6) : (memref<2xf32>, memref<2xf32, strided<[?], offset: ?>>) -> () loc(\"f16.yaml\":8:7)\n"
	"      \"memref.dealloc\"(%5) : (memref<2xf32>) -> () loc(\"f16.yaml\":7:7)\n"
	"      \"scf.foreach_thread.perform_concurrently\"() ({\n"
	"      ^bb0:\n"
	"      }) : () -> () loc(\"f16.yaml\":9:5)\n"
	"    }) {operand_segment_sizes = array<i32: 1, 0>} : (index) -> () loc(\"f16.yaml\":4:5)\n"
	"    \"func.return\"(%arg1) : (memref<8xf32, strided<[?], offset: ?>>) -> () loc(\"f16.yaml\":10:5)\n"
	"  }) {function_type = (memref<8xf32, strided<[?], offset: ?>>, memref<8xf32, strided<[?], offset: ?>>) -> memref<8xf32, strided<[?], offset: ?>>, sym_name = \"main\"} : () -> () loc(\"f16.yaml\":3:3)\n"
	"}) : () -> ()\n";

START_TEST(mlir16_spellings)
{
	ExecOpts eo = {.sched = {SCHED_LATE, 0}};
	ExecResult res;
	const Func *entry;
	ExportMap map = {0};
	Arena *a = arena_new();
	Str s = {0};
	Case *c = NULL;
	BProg *bp;
	char *bad;
	Diag d;

	ck_assert_msg(!case_parse("f16.yaml", case16_text, strlen(case16_text),
				  0, &c, &d), "%s", d.msg);
	ck_assert(!mlir_export(c->prog, "f16.yaml", mlir_version(16), &s, a,
			       &map, &d));
	str_free(&s);
	ck_assert_msg(!memref_program(c, memref16_text, &map, &bp, &entry, &d),
		      "%d:%d: %s", d.loc.line, d.loc.col, d.msg);
	eo.lim = &c->lim;
	ck_assert(!exec_run(bp, entry, c->inputs, &eo, &res, &d));
	ck_assert_int_eq(res.nviols, 0);
	for (int i = 0; i < 8; i++)
		ck_assert(tensor_getf(res.outs[0], i) == 2 + i);
	exec_result_free(&res);
	bprog_free(bp);
	/* shared outs left on a foreach_thread: named, not run */
	bad = mem_strdup(memref16_text);
	memcpy(strstr(bad, "array<i32: 1, 0>} : (index)"), "array<i32: 1, 1>", 16);
	ck_assert(memref_program(c, bad, &map, &bp, &entry, &d));
	ck_assert_int_eq(d.loc.line, 7);
	ck_assert_str_eq(d.msg, "scf.foreach_thread: only a 1-D "
			 "foreach_thread without shared outs or results is "
			 "executed");
	mem_free(bad);
	arena_free(a);
	case_free(c);
}
END_TEST

static Suite *
memref_suite(void)
{
	Suite *s = suite_create("memref");
	TCase *t = tcase_create("memref");

	tcase_add_test(t, seed_agrees);
	tcase_add_test(t, cfg_diverges);
	tcase_add_test(t, cfg_swap);
	tcase_add_loop_test(t, cut_anywhere, 0, NFIX);
	tcase_add_loop_test(t, drop_each_line, 0, NFIX);
	tcase_add_loop_test(t, out_of_memory, 0, NFIX);
	tcase_add_test(t, mlir16_spellings);
	suite_add_tcase(s, t);
	return s;
}

int
main(void)
{
	Suite *suites[] = {memref_suite(), NULL};

	return tu_run(suites);
}
