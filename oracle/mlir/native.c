/*
 * native.c: MLIR's own compiled output as the judge (issue 23).
 *
 * The case's program, exported, gets a driver function: every input a
 * writable tensor made from a constant (floats as hex, bit for bit), one
 * call of the entry, then every element of every output printed as an
 * integer bit pattern, one per line.  mlir-opt-N bufferizes it (One-Shot
 * with the options the `mlir` strategy analyses with) and lowers it to
 * LLVM; mlir-runner runs it; the lines read back are the native outputs,
 * compared bit for bit with the reference.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir.h"

static const char driver_name[] = "bufdiff_native_driver";

static void
put_dims(Str *o, int rank, const int64_t *dims, const Type *t)
{
	for (int d = 0; d < rank; d++) {
		if (t && t->dims[d] < 0)
			str_puts(o, "?x");
		else
			str_printf(o, "%lldx", (long long)dims[d]);
	}
}

/* The MLIR type of a TIR scalar or tensor type. */
static void
put_type(Str *o, const Type *t)
{
	if (t->kind == TY_SCALAR) {
		str_puts(o, dtype_names[t->dt]);
		return;
	}
	str_puts(o, "tensor<");
	put_dims(o, t->rank, t->dims, t);
	str_printf(o, "%s>", dtype_names[t->dt]);
}

/* tensor<DIMSxDT> of the input's actual shape. */
static void
put_static(Str *o, const Tensor *x)
{
	str_puts(o, "tensor<");
	put_dims(o, x->rank, x->dims, NULL);
	str_printf(o, "%s>", dtype_names[x->dt]);
}

static void
put_int_elem(Str *o, const Tensor *x, int64_t i)
{
	if (x->dt == DT_I1)
		str_puts(o, tensor_geti(x, i) ? "true" : "false");
	else
		str_printf(o, "%lld", (long long)tensor_geti(x, i));
}

/* Nested brackets of dims[d..] from element *i on. */
static void
put_nested(Str *o, const Tensor *x, int d, int64_t *i)
{
	if (d == x->rank) {
		put_int_elem(o, x, (*i)++);
		return;
	}
	str_puts(o, "[");
	for (int64_t k = 0; k < x->dims[d]; k++) {
		if (k)
			str_puts(o, ", ");
		put_nested(o, x, d + 1, i);
	}
	str_puts(o, "]");
}

/* dense<...> of x: floats as their bytes (little endian), bit for bit;
 * integers as nested decimal lists. */
static void
put_dense(Str *o, const Tensor *x)
{
	int64_t i = 0;

	str_puts(o, "dense<");
	if (x->dt == DT_F32 || x->dt == DT_F64) {
		str_puts(o, "\"0x");
		for (int64_t k = 0; k < x->n; k++) {
			unsigned char b[8];
			size_t nb = x->dt == DT_F32 ? 4 : 8;
			if (x->dt == DT_F32) {
				float f = (float)tensor_getf(x, k);
				memcpy(b, &f, 4);
			} else {
				double f = tensor_getf(x, k);
				memcpy(b, &f, 8);
			}
			for (size_t j = 0; j < nb; j++) /* x86-64, aarch64: LE */
				str_printf(o, "%02X", b[j]);
		}
		str_puts(o, "\"");
	} else if (x->rank == 0) {
		put_int_elem(o, x, 0);
	} else {
		put_nested(o, x, 0, &i);
	}
	str_puts(o, ">");
}

/* Input k as %inK, of the param's type. */
static void
put_input(Str *o, const Value *param, const Tensor *x, int k)
{
	const Type *t = param->type;

	if (t->kind == TY_SCALAR && (t->dt == DT_F32 || t->dt == DT_F64)) {
		/* the bits, through an integer of the same width */
		long long bits;
		if (t->dt == DT_F32) {
			float f = (float)tensor_getf(x, 0);
			uint32_t u;
			memcpy(&u, &f, 4);
			bits = (long long)u;
		} else {
			double f = tensor_getf(x, 0);
			int64_t u;
			memcpy(&u, &f, 8);
			bits = (long long)u;
		}
		str_printf(o, "  %%in%d.b = arith.constant %lld : %s\n", k, bits,
			   t->dt == DT_F32 ? "i32" : "i64");
		str_printf(o, "  %%in%d = arith.bitcast %%in%d.b : %s to %s\n", k,
			   k, t->dt == DT_F32 ? "i32" : "i64", dtype_names[t->dt]);
		return;
	}
	if (t->kind == TY_SCALAR) {
		str_printf(o, "  %%in%d = arith.constant ", k);
		put_int_elem(o, x, 0);
		if (t->dt != DT_I1) /* (true, false: typed already) */
			str_printf(o, " : %s", dtype_names[t->dt]);
		str_puts(o, "\n");
		return;
	}
	bool dynamic = false;

	for (int d = 0; d < t->rank; d++)
		dynamic |= t->dims[d] < 0;
	if (x->n == 0) {
		str_printf(o, "  %%in%d%s = tensor.empty() : ", k, dynamic ? ".w" : "");
	} else {
		str_printf(o, "  %%in%d.c = arith.constant ", k);
		put_dense(o, x);
		str_puts(o, " : ");
		put_static(o, x);
		str_printf(o, "\n  %%in%d%s = bufferization.alloc_tensor() "
			   "copy(%%in%d.c) : ", k, dynamic ? ".w" : "", k);
	}
	put_static(o, x);
	if (!dynamic) {
		str_puts(o, "\n");
		return;
	}
	str_printf(o, "\n  %%in%d = tensor.cast %%in%d.w : ", k, k);
	put_static(o, x);
	str_puts(o, " to ");
	put_type(o, t);
	str_puts(o, "\n");
}

/* Print element `src` of dtype dt as an i64 bit pattern, one a line
 * (the values made for it are named from `base`). */
static void
put_print(Str *o, const char *src, const char *base, DType dt,
	  const char *ind)
{
	static const char *const conv[DT_COUNT] = {
		[DT_F64] = "arith.bitcast %s : f64 to i64",
		[DT_I1] = "arith.extui %s : i1 to i64",
		[DT_I32] = "arith.extsi %s : i32 to i64",
		[DT_INDEX] = "arith.index_cast %s : index to i64",
	};

	if (dt == DT_F32) {
		str_printf(o, "%s%s.b = arith.bitcast %s : f32 to i32\n", ind,
			   base, src);
		str_printf(o, "%s%s.x = arith.extui %s.b : i32 to i64\n", ind,
			   base, base);
	} else if (dt != DT_I64) {
		str_printf(o, "%s%s.x = ", ind, base);
		str_printf(o, conv[dt], src);
		str_puts(o, "\n");
	}
	str_printf(o, "%sfunc.call @printI64(%s%s) : (i64) -> ()\n", ind,
		   dt == DT_I64 ? src : base, dt == DT_I64 ? "" : ".x");
	str_printf(o, "%sfunc.call @printNewline() : () -> ()\n", ind);
}

/* Every element of output k (%out) of type t, row-major. */
static void
put_output(Str *o, const char *out, const Type *t, int k)
{
	char ind[2 * MAXRANK + 8], name[32];
	int rank = t->rank;

	fmt_snprintf(name, sizeof name, "%%o%d.e", k);
	if (t->kind == TY_SCALAR) {
		put_print(o, out, name, t->dt, "  ");
		return;
	}
	for (int d = 0; d < rank; d++) {
		str_printf(o, "  %%o%d.n%d = tensor.dim %s, %%c%d : ", k, d, out,
			   d);
		put_type(o, t);
		str_puts(o, "\n");
	}
	for (int d = 0; d < rank; d++)
		str_printf(o, "%*sscf.for %%o%d.i%d = %%c0 to %%o%d.n%d step %%c1 {\n",
			   2 + 2 * d, "", k, d, k, d);
	fmt_snprintf(ind, sizeof ind, "%*s", 2 + 2 * rank, "");
	str_printf(o, "%s%s = tensor.extract %s[", ind, name, out);
	for (int d = 0; d < rank; d++)
		str_printf(o, "%s%%o%d.i%d", d ? ", " : "", k, d);
	str_puts(o, "] : ");
	put_type(o, t);
	str_puts(o, "\n");
	put_print(o, name, name, t->dt, ind);
	for (int d = rank - 1; d >= 0; d--)
		str_printf(o, "%*s}\n", 2 + 2 * d, "");
}

/* The driver: inputs, the call, the outputs printed. */
static void
put_driver(Str *o, const Func *entry, Tensor *const *inputs)
{
	char out[48];

	str_puts(o, "func.func private @printI64(i64)\n"
		 "func.func private @printNewline()\n");
	str_printf(o, "func.func @%s() {\n", driver_name);
	int nc = 2; /* %c0, %c1, and one per dim of the outputs */

	for (int k = 0; k < entry->nrtypes; k++)
		if (entry->rtypes[k]->kind == TY_TENSOR && entry->rtypes[k]->rank > nc)
			nc = entry->rtypes[k]->rank;
	for (int d = 0; d < nc; d++)
		str_printf(o, "  %%c%d = arith.constant %d : index\n", d, d);
	for (int k = 0; k < entry->nparams; k++)
		put_input(o, entry->params[k], inputs[k], k);
	str_puts(o, "  ");
	if (entry->nrtypes == 1)
		str_puts(o, "%r = ");
	else if (entry->nrtypes > 1)
		str_printf(o, "%%r:%d = ", entry->nrtypes);
	str_printf(o, "func.call @%s(", entry->name);
	for (int k = 0; k < entry->nparams; k++)
		str_printf(o, "%s%%in%d", k ? ", " : "", k);
	str_puts(o, ") : (");
	for (int k = 0; k < entry->nparams; k++) {
		if (k)
			str_puts(o, ", ");
		put_type(o, entry->params[k]->type);
	}
	str_puts(o, ") -> (");
	for (int k = 0; k < entry->nrtypes; k++) {
		if (k)
			str_puts(o, ", ");
		put_type(o, entry->rtypes[k]);
	}
	str_puts(o, ")\n");
	for (int k = 0; k < entry->nrtypes; k++) {
		if (entry->nrtypes == 1)
			fmt_snprintf(out, sizeof out, "%%r");
		else
			fmt_snprintf(out, sizeof out, "%%r#%d", k);
		put_output(o, out, entry->rtypes[k], k);
	}
	str_puts(o, "  return\n}\n");
}

int
native_source(const Program *p, const char *file, const Func *entry,
	      Tensor *const *inputs, const MlirVersion *v, NativeSched sched,
	      Str *out, Diag *d)
{
	if (mlir_export_native(p, file, v, sched, out, d))
		return -1;
	put_driver(out, entry, inputs);
	if (out->oom)
		return diag_set(d, (Loc){0, 0}, "out of memory");
	return 0;
}

/* ---- running it */

/* The file whose name starts with `stem` (the runtime libraries carry the
 * version: libmlir_c_runner_utils.so.22.1) under /usr/lib/llvm-N/lib
 * (Debian's libmlir-N), else /usr/local/lib/bufdiff/llvm-N/lib (where
 * `scripts/install-deps --all-mlir` unpacks 16's and 19's: libmlir-N
 * packages conflict with each other), into buf; false when none. */
static bool
find_lib(int version, const char *stem, char *buf, size_t n)
{
	static const char *const dirs[] = {"/usr/lib/llvm-%d/lib",
					   "/usr/local/lib/bufdiff/llvm-%d/lib"};
	bool found = false;

	for (size_t i = 0; i < sizeof dirs / sizeof *dirs && !found; i++) {
		char dir[64];
		DIR *dp;
		struct dirent *de;
		fmt_snprintf(dir, sizeof dir, dirs[i], version);
		if (!(dp = opendir(dir)))
			continue;
		/* (the longest name, the versioned file: the same whatever
		 * readdir's order, and with libmlir-N-dev's `.so` links) */
		size_t best = 0;
		while ((de = readdir(dp)))
			if (!strncmp(de->d_name, stem, strlen(stem)) &&
			    strlen(de->d_name) > best) {
				best = strlen(de->d_name);
				fmt_snprintf(buf, n, "%s/%s", dir, de->d_name);
				found = true;
			}
		closedir(dp);
	}
	return found;
}

/* The runtime libraries of version n into c, r and as (as: "" when
 * there is none); -1 with d when the first two are missing. */
static int
runtime_libs(int n, char *c, char *r, char *as, size_t len, Diag *d)
{
	if (!find_lib(n, "libmlir_c_runner_utils.so", c, len) ||
	    !find_lib(n, "libmlir_runner_utils.so", r, len))
		return diag_set(d, (Loc){0, 0}, "no MLIR runtime libraries "
				"(libmlir_c_runner_utils, libmlir_runner_utils) "
				"under /usr/lib/llvm-%d/lib or "
				"/usr/local/lib/bufdiff/llvm-%d/lib: scripts/install-deps "
				"--all-mlir", n, n);
	if (!find_lib(n, "libmlir_async_runtime.so", as, len))
		as[0] = 0;
	return 0;
}

/* The lowering by mlir-opt-N, pass by pass: as flags (` --NAME`) or as
 * the rest of a pipeline (`,NAME`). */
static void
put_lowering(Str *cmd, const NativeOpts *o, bool listed)
{
	static const char *const async[] = {
		"async-to-async-runtime", "async-runtime-ref-counting",
		"async-runtime-ref-counting-opt", "convert-async-to-llvm"};
	static const char *const tail[] = {
		"convert-math-to-llvm", "convert-arith-to-llvm",
		"convert-cf-to-llvm", "convert-func-to-llvm",
		"reconcile-unrealized-casts"};
	const char *pre = listed ? "," : " --";

	str_printf(cmd, "%sconvert-bufferization-to-memref%sconvert-linalg-to-loops",
		   pre, pre);
	for (size_t i = 0; o->async && i < sizeof async / sizeof *async; i++)
		str_printf(cmd, "%s%s", pre, async[i]);
	str_printf(cmd, "%sconvert-scf-to-cf%sexpand-strided-metadata%slower-affine",
		   pre, pre, pre);
	/* (16 names it convert-memref-to-llvm) */
	str_printf(cmd, "%s%s", pre, o->v->version >= 17 ?
		   "finalize-memref-to-llvm" : "convert-memref-to-llvm");
	for (size_t i = 0; i < sizeof tail / sizeof *tail; i++)
		str_printf(cmd, "%s%s", pre, tail[i]);
}

/* Does a batch bufferize and lower in one mlir-opt-N (native_batch_tune:
 * the tool is mlir-opt-N itself, so the passes are the same ones, in the
 * same order, without the text between them)? */
static bool
one_compile(const NativeOpts *o)
{
	char own[32];

	fmt_snprintf(own, sizeof own, "mlir-opt-%d", o->v->version);
	return native_batch_tune()->one_compile &&
	       (!o->tool || !strcmp(o->tool, own));
}

/* The bufferizing tool and its pass, then the lowering by mlir-opt-N
 * (split: each with --split-input-file, for a batch; one: both in one
 * mlir-opt-N, a pipeline's passes and the lowering's as one pipeline). */
static void
put_compile(Str *cmd, const NativeOpts *o, const char *input, bool split,
	    bool one)
{
	const MlirVersion *v = o->v;
	int n = v->version;

	/* bufferized by the tool (its pipeline, or One-Shot with the `mlir`
	 * strategy's options), lowered by mlir-opt-N */
	if (o->tool && !one)
		str_printf(cmd, "%s ", o->tool);
	else
		str_printf(cmd, "mlir-opt-%d ", n);
	if (split)
		str_puts(cmd, "--split-input-file ");
	if (input) { /* (lit's %s as it is) */
		if (strcmp(input, "%s"))
			tool_sh_quote(cmd, input);
		else
			str_puts(cmd, input);
		str_puts(cmd, " ");
	}
	{
		Str pass = {0};
		if (o->pipeline) {
			str_printf(&pass, "--pass-pipeline=builtin.module(%s",
				   o->pipeline);
			if (one)
				put_lowering(&pass, o, true);
			str_puts(&pass, ")");
		} else {
			str_puts(&pass, "--one-shot-bufferize=bufferize-function-"
				 "boundaries");
			if (v->analysis_options && *v->analysis_options)
				str_printf(&pass, " %s", v->analysis_options);
			if (o->options && *o->options)
				str_printf(&pass, " %s", o->options);
		}
		tool_sh_quote(cmd, pass.s ? pass.s : "");
		if (pass.oom)
			cmd->oom = true;
		str_free(&pass);
	}
	if (one && o->pipeline)
		return;
	if (!one) {
		str_printf(cmd, " | mlir-opt-%d", n);
		if (split)
			str_puts(cmd, " --split-input-file");
	}
	put_lowering(cmd, o, false);
}

/* LLVM's code generation without its costliest optimizations: the JIT
 * spends most of a native run's CPU there (mlir-runner's -O flags set
 * only the passes on LLVM IR; its code generation stays at the default
 * level).  The fast register allocator, no machine schedulers, no loop
 * strength reduction, FastISel where it can: 10-20% less CPU a batch,
 * then ~20% less again in the runner, the same outputs (the
 * program's memory is the same; a miscompile by bufferization is in the
 * IR before LLVM).  Not in a lit test's RUN line (NativeOpts.lit). */
static const char quick_codegen[] =
	"--regalloc=fast --optimize-regalloc=false --enable-misched=false "
	"--enable-post-misched=false --disable-lsr --fast-isel";

/* mlir-runner-N running function `entry` with the runtime libraries. */
static int
put_runner(Str *cmd, const NativeOpts *o, const char *entry, Diag *d)
{
	int n = o->v->version;
	char c[4096], r[4096], as[4096];
	bool quick = !o->lit && native_batch_tune()->quick_codegen;

	if (runtime_libs(n, c, r, as, sizeof c, d))
		return -1;
	/* (-O0 with launches: at the default level LLVM's instruction
	 * selection aborts on the coroutines, "Do not know how to promote
	 * this operator's operand"; quick_codegen after it) */
	str_printf(cmd, "%s-%d%s -e %s -entry-point-result=void %s%s"
		   "-shared-libs=%s,%s%s%s", n >= 20 ? "mlir-runner" : "mlir-cpu-runner",
		   n, o->async ? " -O0" : "", entry, quick ? quick_codegen : "",
		   quick ? " " : "", c, r,
		   as[0] && o->async ? "," : "",
		   o->async ? as : "");
	return cmd->oom ? diag_set(d, (Loc){0, 0}, "out of memory") : 0;
}

int
native_command(const NativeOpts *o, const char *input, Str *cmd, Diag *d)
{
	char c[4096], r[4096], as[4096];

	/* (the libraries first: no command without them) */
	if (runtime_libs(o->v->version, c, r, as, sizeof c, d))
		return -1;
	put_compile(cmd, o, input, false, false);
	str_puts(cmd, " | ");
	return put_runner(cmd, o, driver_name, d);
}

int
native_batch_commands(const NativeOpts *o, const char *entry, Str *compile,
		      Str *run, Diag *d)
{
	put_compile(compile, o, NULL, true, one_compile(o));
	if (compile->oom)
		return diag_set(d, (Loc){0, 0}, "out of memory");
	return put_runner(run, o, entry, d);
}

/* The runner's lines as outputs shaped like the reference's. */
static int
native_parse(const char *text, Tensor *const *ref, int nref, Tensor **outs,
	     Diag *d)
{
	const char *s = text;

	for (int k = 0; k < nref; k++) {
		const Tensor *x = ref[k];
		if (!(outs[k] = tensor_new(x->dt, x->rank, x->dims)))
			return diag_set(d, (Loc){0, 0}, "out of memory");
		for (int64_t i = 0; i < x->n; i++) {
			char *end;
			long long b;
			while (*s == ' ' || *s == '\n' || *s == '\r')
				s++;
			errno = 0;
			b = strtoll(s, &end, 10);
			if (end == s || errno)
				return diag_set(d, (Loc){0, 0}, "the native run "
						"printed %s where element %lld of "
						"output %d was due", *s ? "text" :
						"nothing", (long long)i, k);
			s = end;
			if (x->dt == DT_F32) {
				uint32_t u = (uint32_t)b;
				float f;
				memcpy(&f, &u, 4);
				tensor_setf(outs[k], i, f);
			} else if (x->dt == DT_F64) {
				double f;
				memcpy(&f, &b, 8);
				tensor_setf(outs[k], i, f);
			} else {
				tensor_seti(outs[k], i, b);
			}
		}
	}
	while (*s == ' ' || *s == '\n' || *s == '\r')
		s++;
	if (*s)
		return diag_set(d, (Loc){0, 0}, "the native run printed more "
				"than the outputs");
	return 0;
}

static WalkAct
find_async(Op *op, void *ctx)
{
	if (op->kind == OP_ASYNC) {
		*(bool *)ctx = true;
		return WALK_STOP;
	}
	return WALK_GO;
}

static WalkAct
find_carried(Op *op, void *ctx)
{
	const Block *b = op->body;

	for (int i = 0; op->kind == OP_FOR && b && i < b->nargs; i++)
		if (b->args[i]->type->kind == TY_FUTURE) {
			*(bool *)ctx = true;
			return WALK_STOP;
		}
	return WALK_GO;
}

/* Does p carry a future by a loop or a block argument? */
static bool
carries_future(const Program *p)
{
	bool found = false;

	walk_prog(p, find_carried, &found);
	for (int i = 0; i < p->nfuncs && !found; i++)
		for (int k = 1; k < p->funcs[i]->nblocks && !found; k++)
			for (int j = 0; j < p->funcs[i]->blocks[k]->nargs; j++)
				found |= p->funcs[i]->blocks[k]->args[j]->type->kind ==
					 TY_FUTURE;
	return found;
}

bool
native_needs_async(const Program *p)
{
	bool found = false;

	walk_prog(p, find_async, &found);
	return found;
}

const char *
native_sched_str(NativeSched s)
{
	return s == NATIVE_LATE ? "late (each launch held until its first await)"
	       : s == NATIVE_SYNC ? "sync (each launch awaited where it is made)"
	       : "";
}

bool
native_differs(Tensor *const *ref, Tensor *const *outs, int nref)
{
	for (int k = 0; k < nref; k++)
		for (int64_t i = 0; i < ref[k]->n; i++)
			if (tensor_defined(ref[k], i) &&
			    !native_elem_close(ref[k], outs[k], i))
				return true;
	return false;
}

/* One native run under schedule sched into nr (freed first). */
static int
run_once(const Program *p, const char *file, const Func *entry,
	 Tensor *const *inputs, Tensor *const *ref, int nref,
	 const NativeOpts *o, NativeSched sched, Native *nr, Diag *d)
{
	Str src = {0}, cmd = {0};
	char st[200];
	int rc = -1;

	native_free(nr);
	nr->sched = sched;
	nr->carried = sched && carries_future(p);
	if (native_source(p, file, entry, inputs, o->v, sched, &src, d) ||
	    native_command(o, NULL, &cmd, d))
		goto out;
	nr->command = str_take(&cmd);
	/* (a batch ran it already: native_batch.c) */
	if (!native_batch_take(nr->command, src.s, o->end_only, &nr->tool) &&
	    ++native_batch_stats()->alone &&
	    tool_call(&(ToolCall){nr->command, src.s, src.len,
				  o->timeout > 0 ? o->timeout : 60, 0, true},
			  &nr->tool)) {
		diag_set(d, (Loc){0, 0}, "out of memory");
		goto out;
	}
	if (nr->tool.status != TOOL_OK) {
		char head[600];
		diag_set(d, (Loc){0, 0}, "the native run failed (%s): %s",
			 tool_status_str(&nr->tool, st, sizeof st),
			 tool_stderr_head(&nr->tool, 2, head, sizeof head));
		goto out;
	}
	nr->outs = mem_calloc((size_t)nref + 1, sizeof *nr->outs);
	nr->nouts = nref;
	if (!nr->outs) {
		diag_set(d, (Loc){0, 0}, "out of memory");
		goto out;
	}
	rc = native_parse(nr->tool.out, ref, nref, nr->outs, d);
out:
	str_free(&src);
	str_free(&cmd);
	return rc;
}

/* A program with launches runs under the late schedule, then, when its
 * outputs agree, under sync: the first whose outputs differ is kept (or
 * under o->only alone). */
int
native_run(const Program *p, const char *file, const Func *entry,
	   Tensor *const *inputs, Tensor *const *ref, int nref,
	   const NativeOpts *opts, Native *nr, Diag *d)
{
	NativeOpts on = *opts;
	int rc;

	memset(nr, 0, sizeof *nr);
	on.async = native_needs_async(p);
	if (!on.async)
		return run_once(p, file, entry, inputs, ref, nref, &on,
				NATIVE_PLAIN, nr, d);
	if (on.only)
		return run_once(p, file, entry, inputs, ref, nref, &on, on.only,
				nr, d);
	rc = run_once(p, file, entry, inputs, ref, nref, &on, NATIVE_LATE, nr, d);
	if (rc || native_differs(ref, nr->outs, nref))
		return rc;
	return run_once(p, file, entry, inputs, ref, nref, &on, NATIVE_SYNC, nr, d);
}

void
native_free(Native *nr)
{
	for (int k = 0; nr->outs && k < nr->nouts; k++)
		tensor_free(nr->outs[k]);
	mem_free(nr->outs);
	mem_free(nr->command);
	tool_result_free(&nr->tool);
	memset(nr, 0, sizeof *nr);
}

NativeEnd
native_end(const Native *nr)
{
	const ToolResult *t = &nr->tool;

	if (!nr->command) /* (it never ran: the export failed) */
		return NATIVE_END_NONE;
	if (t->status == TOOL_SIGNAL && t->code == SIGABRT &&
	    !(t->err && (strstr(t->err, "LLVM ERROR") || strstr(t->err, "error:"))))
		return NATIVE_END_ABORT;
	return t->status == TOOL_OK ? NATIVE_END_RAN : NATIVE_END_NONE;
}

bool
native_elem_close(const Tensor *ref, const Tensor *got, int64_t i)
{
	double a, b, scale;

	if (tensor_elem_same(ref, got, i))
		return true;
	if (ref->dt != got->dt || (ref->dt != DT_F32 && ref->dt != DT_F64))
		return false;
	a = tensor_getf(ref, i);
	b = tensor_getf(got, i);
	if (!isfinite(a) || !isfinite(b))
		return false;
	scale = fmax(1.0, fmax(fabs(a), fabs(b)));
	return fabs(a - b) <= 1e-4 * scale;
}
