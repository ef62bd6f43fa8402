/*
 * mlir.h: oracle/mlir/, MLIR and outside tools.  Table of contents in
 * data-flow order:
 *
 *   tool.c     an outside tool run safely: /bin/sh -c CMD, stdin fed,
 *              stdout/stderr captured, time and size limits, own session
 *   session.c  ... and every process of that session and its descendants
 *              (setsid ones too) killed when the call ends
 *   inproc.c   mlir-opt-22's calls in a worker process holding libMLIR
 *              (inproc_mlir.c, a module only the worker loads)
 *   export.c   a program as MLIR for mlir-opt 16/19/22, and the map from
 *              each emitted op back to TIR values (docs/mlir.md)
 *   export_ops.c  export.c's straight-line ops: arith, linalg, tensor
 *   export_regions.c  export.c's calls and ops with regions: scf, async
 *   mlir_read.c  MLIR's generic op form (what *-opt tools print with
 *              --mlir-print-op-generic --mlir-print-debuginfo) -> MOp tree,
 *              any dialect, locations resolved; the bridge back from *-opt
 *   memref.c   a tool's memref program (its pipeline's output on a case's
 *              export) -> a buffer program over the case's TIR program
 *   memref_ops.c  memref.c's straight-line ops: allocs, views, copies...
 *   memref_control.c  memref.c's control flow: scf, async, calls
 *   import.c   tensor-level MLIR (generic op form) -> TIR text, the
 *              inverse of export.c (`bufdiff import` is cli/import_cli.c)
 *   import_ops.c  import.c's scalar ops, constants and tensor ops
 *   import_linalg.c  import.c's linalg ops, linalg.generic/map bodies
 *   import_regions.c  import.c's ops with regions: scf, cf.assert, async
 *   cache.c    text -> verdict or answer (tool answers here; the
 *              reducer's candidates in fuzz/reduce.c)
 *   external.c outside bufferizers as strategies: exec:, exec-mlir:, mlir,
 *              mlir-pipeline (ask the tool, cache its answer, map it onto
 *              decisions or a buffer program) -> ToolReport
 *
 * export_impl.h, memref_impl.h, import_impl.h: what each one's files share.
 * Lines and columns in mlir_read.c's and memref.c's diagnostics are
 * positions in the MLIR text.  Uses cases.h (Case, decisions documents,
 * a run's plan); outside strategies are bufferize.h's Strategy values,
 * their entries registered by external_register.
 */
#ifndef BUFDIFF_MLIR_H
#define BUFDIFF_MLIR_H

#include <sys/types.h>

#include "cases.h"
#include "escape.h"

/* -------------------------------------------------------------- tool.c */

typedef enum ToolStatus {
	TOOL_OK,
	TOOL_EXIT,              /* nonzero exit */
	TOOL_SIGNAL,
	TOOL_TIMEOUT,
	TOOL_SPAWN,             /* could not start */
	TOOL_OOM,               /* output over the cap: killed */
	TOOL_INTERRUPTED        /* a signal asked us to stop (stop.h): code */
} ToolStatus;

typedef struct ToolResult {
	ToolStatus status;
	int code;               /* exit code, signal number, or errno (SPAWN) */
	char *out, *err;        /* captured stdout/stderr, NUL-terminated,
				 * mem_alloc'ed (tool_result_free) */
	size_t nout, nerr;
	double seconds;         /* wall time, monotonic */
	double timeout;         /* the limit it ran under */
	size_t out_cap;         /* ... and the output caps */
	size_t err_cap;
	bool over_err;          /* TOOL_OOM: stderr went over (else stdout) */
} ToolResult;

/* Bytes a tool may write: an answer is at most 64 MiB (a case file's
 * limit, MAX_CASE_BYTES), its stderr 16 MiB (reports keep 8 lines; a
 * batch's diagnostics name many programs). */
enum { TOOL_OUT_CAP = 64 << 20, TOOL_ERR_CAP = 16 << 20 };
/* After the tool's own process exited, how long its descendants may hold
 * its stdout open before the call ends with what it read (seconds). */
#define TOOL_GRACE 0.2

/* One call of an outside tool: the command, its stdin, its limits. */
typedef struct ToolCall {
	const char *cmd;        /* run as /bin/sh -c cmd */
	const char *in;         /* in[0..nin) on its stdin; NULL: nothing */
	size_t nin;
	double timeout;         /* seconds (> 0) */
	size_t out_cap;         /* stdout's bytes; 0: TOOL_OUT_CAP (stderr's:
				 * the smaller of it and TOOL_ERR_CAP) */
	bool llvm;              /* an mlir-opt / mlir-runner: LLVM's unwinder
				 * preloaded (tool_unwind_preload) */
} ToolCall;

/*
 * /bin/sh -c cmd, the leader of a new session, with in[0..nin) on its
 * stdin; stdout and stderr captured (each up to its cap: beyond it the
 * tool is killed, status TOOL_OOM).  The call ends
 *   - when the tool (the shell) exited and its stdout is at EOF, or
 *     TOOL_GRACE seconds after it exited, with what it wrote so far, when
 *     descendants hold the pipe open: status of its exit;
 *   - after `timeout` seconds (> 0) when it has not exited: TOOL_TIMEOUT;
 *   - at once when a signal asks us to stop (stop.h): TOOL_INTERRUPTED (a
 *     call made after that does not start the tool);
 * and then every process of its session and all its descendants, setsid
 * ones too, are killed (SIGKILL) and the adopted ones reaped (session.c).
 * Returns 0 when the tool ran (whatever its status; r->out/err set), -1
 * only when out of memory (r holds nothing).  Never leaves a zombie or an
 * fd; the caller's SIGPIPE disposition and signal mask are unchanged
 * afterwards.  The calling process becomes a child subreaper, and takes
 * its children that appear during a call for the tool's.
 */
int tool_call(const ToolCall *c, ToolResult *r);
/* The unwinder that ToolCall.llvm preloads (oracle/mlir/unwind_preload.c,
 * so that an LLVM tool's crash handler cannot deadlock in malloc):
 * BUFDIFF_UNWIND_PRELOAD in the environment ("": none), the build
 * tree's, or the installed one; NULL when none is there. */
const char *tool_unwind_preload(void);
/* Whether tool (a strategy's TOOL, NULL: the default mlir-opt-N) is an
 * mlir-opt: its command's first word named mlir-opt*. */
bool tool_is_mlir_opt(const char *tool);
/* A file of bufdiff's own: built when readable (mode: access's), else
 * installed (relative to the parent of bufdiff's directory: its copy in
 * path[0..n)); NULL when neither is, or built is "" (not built). */
const char *lib_path(const char *built, const char *installed, int mode,
		     char *path, size_t n);
/* tool_call with the default output cap. */
int tool_run(const char *cmd, const char *in, size_t nin, double timeout,
	     ToolResult *r);
void tool_result_free(ToolResult *r);   /* r's buffers; r reusable */
/* --keep-tool-io DIR (tool_keep.c): every later tool_call leaves
 * DIR/NNNN-LABEL.{in,sh,out,err}: its stdin, a script that replays it,
 * its stdout and stderr.  tool_keep_dir makes DIR if needed: 0, or -1
 * with why.  LABEL is the last tool_keep_label (a case's name; "call"). */
int tool_keep_dir(const char *dir, char *why, size_t n);
void tool_keep_label(const char *label);
void tool_keep(const ToolCall *c, const ToolResult *r);
/* s as one shell word, appended to b: sh_word (interp/escape.h). */
void tool_sh_quote(Str *b, const char *s);
/* Seconds on the monotonic clock (for durations). */
double tool_now(void);
/* One line for reports: "exit 1", "killed by signal 11 (SIGSEGV)",
 * "timed out after 2 s", "could not start: ...",
 * "killed: stdout over N bytes" (or stderr), "interrupted by SIGTERM". */
const char *tool_status_str(const ToolResult *r, char *buf, size_t n);
/* The first `lines` lines of the tool's stderr (without the newline that
 * ends the last one), cut at n - 1 bytes, into buf. */
const char *tool_stderr_head(const ToolResult *r, int lines, char *buf,
			     size_t n);

/* ------------------------------------------------------------ inproc.c */

/* Where mlir-opt-22's calls run: --mlir-route, else BUFDIFF_MLIR_ROUTE,
 * else auto (in-process when bufdiff_mlir.so is there). */
typedef enum MlirRoute {
	ROUTE_UNSET, ROUTE_AUTO, ROUTE_PROCESS, ROUTE_INPROC
} MlirRoute;

/* "auto", "process", "in-process": 0, else -1. */
int inproc_route_parse(const char *s, MlirRoute *r);
void inproc_set_route(MlirRoute r);     /* --mlir-route */
MlirRoute inproc_route(void);
/* Was the MLIR module (libmlir-22-dev's C API) built and is it there? */
bool inproc_available(void);
/* Do calls of TOOL run in-process: TOOL is mlir-opt-22 (or a path or
 * link to the same binary) and the route is in-process, or auto with the
 * module available. */
bool inproc_wanted(const char *tool);
/* The call c (its cmd the mlir-opt-22 command it stands for: kept by
 * --keep-tool-io) made in the worker: c->in parsed, `pipeline` (a
 * --pass-pipeline text) run, the result printed as that command prints
 * it; `dir` the command's directory (relative file names in diagnostics),
 * NULL the current.  r as tool_call fills it: TOOL_EXIT 1 when mlir-opt
 * would exit 1, TOOL_SIGNAL when the worker died of one (the next call
 * forks a new worker), TOOL_TIMEOUT (it was killed), TOOL_INTERRUPTED.
 * 0, 1 when the in-process route cannot run (the module did not load:
 * use the process; later calls return 1 too), -1 out of memory. */
int inproc_call(const ToolCall *c, const char *pipeline, const char *dir,
		ToolResult *r);
/* The calls c[0..n) (the same pipeline and dir, each its own timeout)
 * in one request: each answered as inproc_call would answer it alone,
 * into r[i], in order, and kept (--keep-tool-io) under labels[i] (NULL:
 * the last tool_keep_label).  *answered: how many in a row have their own
 * call's result: an answer (exit 0 or 1), or, ending the request, the
 * server dying on the program (TOOL_SIGNAL), its time running out
 * (TOOL_TIMEOUT) or its answer over the caps (TOOL_OOM).  When the
 * request ended before program *answered for another reason (the worker
 * lost before it: TOOL_SIGNAL; TOOL_INTERRUPTED), r[*answered] says
 * which.  The programs after the one it ended on were not asked.  0, 1
 * when the route cannot run (as inproc_call), -1 out of memory
 * (r[*answered] not filled). */
int inproc_batch(const ToolCall *c, const char *const *labels, int n,
		 const char *pipeline, const char *dir, ToolResult *r,
		 int *answered);
/* Kill this process's worker, if any (at exit; tests). */
void inproc_end(void);
/* The CPU seconds of this process's live worker so far (with its
 * servers', live and dead) and its pid (0, pid 0: none): a worker is
 * reaped only when it ends, so RUSAGE_CHILDREN does not count it until
 * then (benches). */
double inproc_worker_cpu(pid_t *pid);
/* What MLIR itself cost the answers this process got (the worker's
 * timing of each call, its thread's CPU clock): answers counted, and
 * seconds in the parse (with the verifier after it), the pass pipeline
 * and the print, s[0..2]; a call that crashed or timed out is not in
 * them (benches). */
typedef struct InprocPhases {
	long answers;
	double s[3];
} InprocPhases;
void inproc_phases(InprocPhases *p);

/* ----------------------------------------------------------- session.c */

enum { SESSION_BEFORE = 256 };
/* Seconds session_end keeps killing (a process stuck in the kernel may
 * not die at once: it dies when it leaves it, SIGKILL pending). */
#define SESSION_GIVE_UP 2.0

/* The processes of one tool call. */
typedef struct Session {
	pid_t leader;           /* the tool: its pid, session and group id */
	pid_t before[SESSION_BEFORE]; /* our children before it started */
	int nbefore;
	int killed;             /* processes session_end killed (tests) */
} Session;

/* Before the spawn: become a child subreaper (once per process) and note
 * our children.  Set s->leader once the tool runs. */
void session_begin(Session *s);
/* Kill every process of the tool's session, and every descendant, until
 * none is left; reap those we adopted (not the leader: the caller does,
 * after this). */
void session_end(Session *s);

/* ------------------------------------------------------------ export.c */

/*
 * One MLIR op the exporter emitted for a TIR op: the op that implements
 * it (linalg/tensor/scf/func/async/bufferization/arith/math, yields and
 * returns too) and the tensor.cast of a call argument; not the constants
 * made for literals nor the ops inside linalg bodies.  Operand order is
 * MLIR's (linalg: ins then outs), the order of One-Shot Bufferize's
 * `__inplace_operands_attr__`.
 */
typedef struct ExportOp {
	const Op *op;            /* the TIR op (its loc is the op's loc(...)) */
	const char *mlir;        /* MLIR op name, e.g. "linalg.generic" */
	Value **operands;        /* MLIR operand i -> TIR value (NULL: constant/aux) */
	int noperands;
	int *tied;               /* MLIR result j -> operand index it may reuse
				  * (extract_slice: the source it views), or -1 */
	Value **results;         /* MLIR result j -> TIR value (async.execute:
				  * the future for the token and each value) */
	int nresults;
	int arg;                 /* a call's tensor.cast: the call operand it
				  * feeds */
} ExportOp;

typedef struct ExportMap {
	ExportOp *ops;           /* in the arena given to mlir_export */
	int nops;
	StrMap index;            /* "OP-ADDRESS MLIR-NAME" -> the first in ops */
} ExportMap;

/* What differs between the mlir-opt versions bufdiff exports for. */
typedef struct MlirVersion {
	int version;             /* 16, 19, 22 */
	bool has_materialize;    /* bufferization.materialize_in_destination
				  * (not in 16: copy is an identity linalg.generic) */
	const char *analysis_options; /* extra one-shot-bufferize options:
				  * 16's allow-return-allocs so returning new
				  * tensors is legal; later allow-return-allocs-
				  * from-loops */
	bool expand_output_shape; /* tensor.expand_shape takes output_shape
				  * (19 on; not in 16) */
} MlirVersion;

const MlirVersion *mlir_version(int n);   /* 16, 19, 22; NULL otherwise */
/* p as MLIR for version v appended to out, every op with
 * loc("FILE":LINE:COL) of its TIR op.  0, or -1 with d (an inexpressible
 * construct: d's loc is that op's, the message names the construct; or
 * out of memory, loc 0).  map may be NULL; when not, its arrays are
 * allocated in arena a (left empty on error). */
int mlir_export(const Program *p, const char *file, const MlirVersion *v,
		Str *out, Arena *a, ExportMap *map, Diag *d);
/* The schedule a native run forces on launches (export_native.c). */
typedef enum NativeSched { NATIVE_PLAIN, NATIVE_LATE, NATIVE_SYNC } NativeSched;
/* mlir_export for a native run: launches' tensor values through memrefs,
 * the schedule sched forced (NATIVE_PLAIN: mlir_export's text). */
int mlir_export_native(const Program *p, const char *file,
		       const MlirVersion *v, NativeSched sched, Str *out,
		       Diag *d);
/* The ExportOp of TIR op `op` whose MLIR name is `mlir` (the first, for
 * an await of several values), or NULL. */
const ExportOp *export_find(const ExportMap *m, const Op *op,
			    const char *mlir);

/* ------------------------------------------------------------ native.c */

/* MLIR's own compiled output run natively: mlir-opt-N's One-Shot
 * Bufferize (the `mlir` strategy's options) lowered to LLVM, run by
 * mlir-runner with the MLIR runtime libraries. */
typedef struct Native {
	char *command;           /* the shell command (the source on stdin) */
	ToolResult tool;
	Tensor **outs;           /* shaped like the reference's outputs */
	int nouts;
	NativeSched sched;       /* the schedule its launches ran under */
	bool carried;            /* a future was carried by a loop or a block:
				  * awaited where carried, so a race across
				  * trips cannot show natively */
} Native;

/* The exported program and a driver `@bufdiff_native_driver` that makes
 * every input writable memory, calls entry and prints every output
 * element as an integer bit pattern, one a line. */
int native_source(const Program *p, const char *file, const Func *entry,
		  Tensor *const *inputs, const MlirVersion *v, NativeSched sched,
		  Str *out, Diag *d);
/* The command that compiles and runs a native source (input: its file,
 * or NULL: stdin); -1 with d when the runtime libraries are missing. */
typedef struct NativeOpts {
	const MlirVersion *v;
	const char *tool;        /* bufferizes (NULL: mlir-opt-N) */
	const char *pipeline;    /* its pass pipeline; NULL: One-Shot Bufferize
				  * with the `mlir` strategy's options */
	const char *options;     /* more One-Shot options (--mlir-options) */
	double timeout;          /* seconds; 0: 60 */
	bool async;              /* lower async too (set by native_run) */
	bool end_only;           /* only how it ends matters (the reference
				  * fails at an assert: native_end) */
	NativeSched only;        /* launches under this schedule alone (a run
				  * pinned to sync or late); NATIVE_PLAIN:
				  * late, then sync */
	bool lit;                /* mlir-runner's own code generation (a lit
				  * test's RUN line), not native.c's quick
				  * one */
} NativeOpts;
int native_command(const NativeOpts *o, const char *input, Str *cmd, Diag *d);
/* Run it: 0 with nr->outs, or -1 with d (nr->command and nr->tool hold
 * what ran, for the report).  native_free in both cases.  A program with
 * launches runs under NATIVE_LATE, then NATIVE_SYNC when the outputs
 * agree; nr->sched says which ran last. */
int native_run(const Program *p, const char *file, const Func *entry,
	       Tensor *const *inputs, Tensor *const *ref, int nref,
	       const NativeOpts *o, Native *nr, Diag *d);
void native_free(Native *nr);

/* ---------------------------------------------------------- native_batch.c */

/* Native runs in batches (--confirm in fuzz and check): one compile and
 * one mlir-runner per batch of programs that share a command, each
 * program's stdout remembered for native_run, which then starts no
 * process.  A program that fails to compile, crashes, or whose batch
 * failed is not remembered: native_run runs it alone. */
typedef struct NativeJob {
	NativeOpts o;            /* as native_run gets them */
	const Program *p;
	const char *file;
	const Func *entry;
	Tensor *const *inputs;
} NativeJob;
/* Run jobs[0..n) in batches (a program with launches under late and
 * sync, or o.only); the number of programs remembered. */
int native_prefill(const NativeJob *jobs, int n);
void native_forget(void);         /* every remembered run */
/* The remembered run of source src under command cmd into r (status
 * TOOL_OK, its stdout; or, when end_only, an abort: TOOL_SIGNAL SIGABRT
 * and its stderr), forgotten then; false when there is none. */
bool native_batch_take(const char *cmd, const char *src, bool end_only,
		       ToolResult *r);
/* The compile of a batch (--split-input-file) and the runner of its
 * function `entry`: native_command's pieces (the compile one mlir-opt-N
 * instead of two when the tool is mlir-opt-N itself: NativeBatchTune). */
int native_batch_commands(const NativeOpts *o, const char *entry, Str *compile,
			  Str *run, Diag *d);
typedef struct NativeBatchStats {
	long batches;            /* compile + runner calls */
	long batched;            /* programs sent in batches */
	long answered;           /* ... answered there (ran to their end, or
				  * aborted where only that matters) */
	long taken;              /* native_run answered from a batch */
	long alone;              /* ... and run alone (its own processes) */
	long halved;             /* compiles that crashed, tried in halves */
	long hung;               /* compiles past their limit */
} NativeBatchStats;
NativeBatchStats *native_batch_stats(void);
/* With BUFDIFF_NATIVE_STATS set: "native batches: B, programs in them P,
 * answered there A, compiles halved H, past their limit T" on stderr
 * (check and fuzz end). */
void native_batch_stats_report(void);
/* How native runs are made (bench_native sets them to compare; the
 * defaults otherwise): programs a batch at most; whether a batch whose
 * tool is mlir-opt-N itself bufferizes and lowers in one mlir-opt-N (one
 * process, no text between the two; the per-program command is the same
 * either way); whether mlir-runner generates code quickly (native.c,
 * quick_codegen: in every native run's command, batched or alone). */
typedef struct NativeBatchTune {
	int size;
	bool one_compile;
	bool quick_codegen;
} NativeBatchTune;
NativeBatchTune *native_batch_tune(void);
/* Element i of the reference ref and of MLIR's native output got: the
 * same as tensor_elem_same says, or floats within 1e-4 of each other
 * relative to the larger magnitude (absolute below 1): LLVM's code may
 * sum a matmul in another order than OpenBLAS, contract into FMAs, or
 * take another libm, which no bufferization explains. */
bool native_elem_close(const Tensor *ref, const Tensor *got, int64_t i);
bool native_needs_async(const Program *p);   /* a launch anywhere */
/* Some defined element of the reference differs (native_elem_close). */
bool native_differs(Tensor *const *ref, Tensor *const *outs, int nref);
const char *native_sched_str(NativeSched s);  /* "" for NATIVE_PLAIN */
/* How a native run whose reference fails at an assert ended: aborted
 * (cf.assert: SIGABRT, no LLVM error; the message is lost with the
 * buffered stdout), ran to its end (past the assert), or neither (it
 * never ran, crashed, timed out). */
typedef enum NativeEnd { NATIVE_END_NONE, NATIVE_END_ABORT, NATIVE_END_RAN } NativeEnd;
NativeEnd native_end(const Native *nr);

/* --------------------------------------------------------- mlir_read.c */

/* A file location (`loc("f":3:5)`, or the first one inside name, callsite,
 * fused and aliased locations); file NULL: none (`loc(unknown)`). */
typedef struct MLoc {
	const char *file;
	int line, col;
} MLoc;

/* `name = value`; text is the value's raw text, trimmed ("unit" for a
 * name alone).  Nothing in it is interpreted. */
typedef struct MAttr {
	const char *name;
	const char *text;
} MAttr;

typedef struct MOp MOp;

typedef struct MBlock {
	const char *label;          /* "^bb0", or NULL for an unlabeled entry */
	const char **args, **argtypes;
	MLoc *arglocs;
	int nargs;
	MOp **ops;
	int nops;
} MBlock;

typedef struct MRegion {
	MBlock **blocks;
	int nblocks;                /* 0: an empty region `{}` */
	StrMap labels;              /* label -> the first block with it */
} MRegion;

/* One op, as `results = "name"(operands) [succs] <{props}> (regions)
 * {attrs} : (optypes) -> restypes loc(...)`. */
struct MOp {
	const char *name;           /* "linalg.generic" */
	const char **results;       /* "%0"; a group `%1:2` as "%1#0", "%1#1" */
	int nresults;
	const char **operands;      /* as written: "%arg0", "%3#1" */
	int noperands;
	const char **optypes;       /* noperands of them */
	const char **restypes;      /* nresults of them */
	MAttr *props;               /* <{...}> */
	int nprops;
	MAttr *attrs;               /* {...} */
	int nattrs;
	const char **succs;         /* "^bb1" */
	int nsuccs;
	MRegion *regions;
	int nregions;
	MLoc loc;
	Loc at;                     /* where the op starts in the MLIR text */
	MOp *parent;                /* NULL for the top op */
};

/*
 * Parse text into its top op: the one "builtin.module", or a module made
 * around the top-level ops.  Everything lives in arena a.  Aliases
 * (`#x = ...`, `!x = ...`) and `{-# ... #-}` blocks are skipped, location
 * aliases kept for resolution.  Returns 0, or -1 with d (d->loc: line and
 * column in the MLIR text; "out of memory" with no location).
 */
int mlir_read(const char *text, size_t len, Arena *a, MOp **top, Diag *d);
/* A character of an MLIR identifier (`%name`, `@sym`): letters, digits,
 * `_ $ . -` (TIR's name characters too). */
bool mlir_id_char(int c);
/* The attribute `name`: properties first, then the dictionary; NULL. */
const MAttr *mop_attr(const MOp *op, const char *name);
/* Every op under top (top first), in pre-order. */
void mop_walk(MOp *top, void (*fn)(MOp *op, void *ctx), void *ctx);
/* The index of r's block `label` ("^bb1"), or -1. */
int mregion_block(const MRegion *r, const char *label);
/* r's blocks reachable from its entry, in reverse postorder (a block after
 * every block that dominates it: definitions before their uses) into
 * order[0..r->nblocks): their number.  -1 when a successor names no
 * block of r (*bad: the branch) or out of memory (*bad NULL); scratch in
 * arena a. */
int mregion_rpo(const MRegion *r, Arena *a, int *order, const MOp **bad);
/* `["true", "none"]`: the number of strings; the first n (unescaped, in
 * ar) in out.  -1 if a is NULL or not such an array, or out of memory. */
int mattr_strings(const MAttr *a, Arena *ar, const char **out, int n);
/* `3`, `-2 : i64`: 0 with *v, or -1. */
int mattr_int(const MAttr *a, int64_t *v);
/* `array<i32: 2, 1>`, `[0, 1]`, `[0 : i64, 1 : i64]`: the count; the first
 * n in out.  -1 if a is NULL or not such a list. */
int mattr_ints(const MAttr *a, int64_t *out, int n);
/* `"text"`: its contents unescaped in ar, or NULL. */
const char *mattr_str(const MAttr *a, Arena *ar);

/* ------------------------------------------------------------ memref.c */

/*
 * The memref program `text` (generic form with locations) that a tool's
 * pipeline made of case c's export (map), as a buffer program over c's
 * tensor program: *out and *entry (its function for c's entry).  0, or -1
 * with d (d->loc: line and column in text; the message names the op).
 */
int memref_program(const struct Case *c, const char *text,
		   const ExportMap *map, BProg **out, const Func **entry,
		   Diag *d);

/* ------------------------------------------------------------ import.c */

/*
 * MLIR in the generic op form (what mlir-opt prints with
 * --mlir-print-op-generic --mlir-print-debuginfo --mlir-print-local-scope)
 * -> TIR program text appended to out.  func NULL: every function; else
 * that one and the functions it calls.  0, or -1 with d and *dfile, the
 * file d->loc is in: the op's loc("FILE":L:C) when it has one, else
 * `file` (positions in text).  Anything outside the subset is an error
 * (`unsupported op 'tensor.pad'`, `unsupported type 'memref<4xf32>'`).
 */
int mlir_import(const char *text, size_t len, const char *file,
		const char *func, Str *out, Diag *d, const char **dfile);
/* The user's own text behind an import (import_src.c): the values get
 * the names written at each op's loc in `locfile` (the file name the
 * tool's locs give it, "<stdin>" for a text on stdin), the comment lines
 * above an op come along, and every op's line ends with `// loc(L:C)`. */
typedef struct ImportSrc {
	const char *text;
	size_t len;
	const char *locfile;
} ImportSrc;
/* mlir-opt's -split-input-file: the sections of text between lines
 * `// -----` (1 when there is none), and section n (1-based) after an
 * empty line for each line before it (the marker's too), so that its
 * lines and columns are the file's, and nothing after it (mem_alloc'ed;
 * NULL when out of memory). */
int mlir_sections(const char *text, size_t len);
char *mlir_section(const char *text, size_t len, int n, size_t *outlen);
/* mlir_import with the user's text (src NULL: none, as mlir_import). */
int mlir_import_src(const char *text, size_t len, const char *file,
		    const char *func, const ImportSrc *src, Str *out, Diag *d,
		    const char **dfile);

/* ------------------------------------------------------------- cache.c */

/* Candidate case text -> accepted?  Program text -> a tool's answer (a
 * struct, external.c's).  Open addressing, FNV-1a. */
typedef struct Cache {
	char **keys;
	uint64_t *hash;
	bool *acc;
	void **val;
	size_t cap, n;
	void (*drop)(void *val);    /* frees a value; NULL: mem_free */
} Cache;
int cache_get(const Cache *c, const char *key, bool *acc);
int cache_put(Cache *c, char *key, bool acc);
const void *cache_val(const Cache *c, const char *key);
int cache_put_val(Cache *c, char *key, bool acc, void *val);
void cache_free(Cache *c);

/* ---------------------------------------------------------- external.c */

/* ToolReport (what an outside bufferizer was asked and answered) is in
 * bufferize.h, beside the Strategy that answers with it. */

/* The outside tools' options, part of the run configuration (RunConfig.tool)
 * and handed to each entry in StratCtx.tool; every function below that
 * takes them reads NULL as external_opts_default. */
typedef struct ExternalOpts {
	double timeout;         /* --tool-timeout SEC (default 60) */
	const char *mlir_options; /* --mlir-options: more analysis options */
	int mlir_version;       /* --mlir-version N; 0: the tool's, or 22 */
	int batch;              /* fuzz: programs per tool call (0: 64; 1:
				 * unbatched, a call per program, for
				 * bench/bench_mlir.c's comparison) */
	const char *mlir_pipeline; /* --mlir-pipeline P (mlir-pipeline); NULL
				 * or "": the default, MLIR_PIPELINE */
	const char *workdir;    /* the directory the command runs in (a case
				 * file's run: Run.workdir); NULL: the current */
} ExternalOpts;

/* 60 s, no more options, the tool's version, batches of 64, MLIR_PIPELINE */
extern const ExternalOpts external_opts_default;

#define MLIR_PIPELINE "one-shot-bufferize{bufferize-function-boundaries}," \
		      "buffer-deallocation-pipeline"

/* Tool calls so far (for benches and fuzz summaries). */
typedef struct ExternalStats {
	long calls;             /* processes started */
	long batched;           /* programs sent in batches (fuzz) */
	double seconds;         /* wall time inside the tools */
} ExternalStats;

const ExternalStats *external_stats(void);
/* The outside strategies' entries (strategy_register), once at start-up
 * by main and by the tests and benches that run them. */
void external_register(void);
/* The shell command an outside strategy runs (the program on its stdin). */
void external_command(const ExternalOpts *o, const Strategy *s, Str *b);
/* The same as one stage of a pipeline: a command with shell operators
 * (; & | # newline) as sh -c '...'. */
void external_stage(const ExternalOpts *o, const Strategy *s, Str *b);
/* The MLIR version an outside strategy exports for. */
int external_mlir_version(const ExternalOpts *o, const Strategy *s);
/* Decisions of outside strategy s on case c, into ds (made here): 0, 1 a
 * tool-error (t says why), -1 out of memory (err). */
int external_decide(const ExternalOpts *o, const Strategy *s,
		    const struct Case *c, Decisions *ds, ToolReport *t,
		    Diag *err);
/* mlir-pipeline: the memref program TOOL prints for case c, as a buffer
 * program (memref_program), with its entry function: 0, 1 a tool-error
 * (t says why), -1 an unexecutable memref program (err, loc 0: the
 * message names the op and its line in the tool's output) or out of
 * memory.  *bp is bprog_free'd by the caller. */
int external_memref(const ExternalOpts *o, const Strategy *s,
		    const struct Case *c, BProg **bp, const Func **entry,
		    ToolReport *t, Diag *err);
/* Remember (or, in fuzz batches, pre-fill) the answer to input text `in`. */
void external_remember(const ExternalOpts *o, const Strategy *s,
		       const char *in, const char *answer);
void external_forget(void);     /* drop every cached answer */
/* Fuzz batches: ask the tool about many cases in one call (mlir and
 * mlir-pipeline: nested modules, the analysis or the pipeline anchored on
 * each) and remember each answer (the nested module's text); a
 * failing batch is halved until the failing program runs alone.  Returns
 * the number of programs asked. */
int external_prefill(const ExternalOpts *o, const Strategy *s,
		     struct Case *const *cases, int n);
/* Whether check and reduce ask s in batches: exec-batch:, exec-stream:,
 * and mlir, mlir-pipeline, mlir-native with Debian's mlir-opt-N (fuzz
 * batches any STRAT_BATCH strategy: its tool is the campaign's). */
bool external_batches(const Strategy *s);

/* What exec_batch.c uses of external.c: what the tool reads of case c
 * (mem_alloc'ed; NULL: it cannot be exported, or out of memory); a
 * program's answer remembered and looked up under its entry (the exec
 * kinds' answers are per entry); a counted tool call about nprogs
 * programs (tool_run). */
char *external_input(const ExternalOpts *o, const Strategy *s,
		     const struct Case *c);
void external_remember_entry(const ExternalOpts *o, const Strategy *s,
			     const char *entry, const char *in,
			     const char *answer);
bool external_known(const ExternalOpts *o, const Strategy *s,
		    const char *entry, const char *in);
int external_run(const char *cmd, const char *in, int nprogs, double timeout,
		 ToolResult *r);

/* ---------------------------------------------------------- exec_batch.c */

/* external_prefill for exec-batch:/exec-stream: strategies (the batch
 * forms of the exec protocol, docs/external.md): ask the tool about
 * cases[0..n) in calls of up to o->batch programs (0: 64; 1: none) and
 * remember each answer it gave; a program it did not answer is left to
 * its own call.  Returns the number of programs sent. */
int exec_prefill(const ExternalOpts *o, const Strategy *s,
		 struct Case *const *cases, int n);

#endif
