/*
 * oracle.h: the oracle/ component, table of contents in data-flow order.
 *
 *   version.c  the version string
 *   yaml.c     libyaml document helpers for the case loader: node kinds,
 *              locations, key tables; a bad node longjmps to the loader's
 *              one protected entry (case_parse) with a Diag
 *   data.c     tensor data in case files (numbers, nested or flat lists,
 *              splat, seeded random, shapes) -> Tensor
 *   runs.c     the `runs:` entries (strategies, plans, frees, anchors,
 *              hoists, args, schedules, verdicts, blame, memory, culprits)
 *              -> Run
 *   case.c     a case file -> Case: program parsed and verified, inputs,
 *              expectations, runs; `# expect-error:` comments
 *   plandoc.c  decisions documents (`--plan FILE`, external answers) -> the
 *              plan keys of a Run
 *   check.c    a Case against the reference interpreter -> Outcome
 *   tool.c     an outside tool run safely: /bin/sh -c CMD, stdin fed,
 *              stdout/stderr captured, time limit, own process group
 *   export.c   a program as MLIR for mlir-opt 16/19/22, and the map from
 *              each emitted op back to TIR values (docs/mlir.md)
 *   mlir_read.c  MLIR's generic op form (what *-opt tools print with
 *              --mlir-print-op-generic --mlir-print-debuginfo) -> MOp tree,
 *              any dialect, locations resolved; the bridge back from *-opt
 *   import.c   tensor-level MLIR (generic op form) -> TIR text, the
 *              inverse of export.c; `bufdiff import` (docs/import.md)
 *   cache.c    text -> verdict or answer (reducer candidates, tool answers)
 *   external.c outside bufferizers as strategies: exec:, exec-mlir:, mlir
 *              (ask the tool, cache its answer, map it onto decisions)
 *   diff.c     one bufferized run against the reference: decisions,
 *              lowering, execution, comparison, verdict, culprit bisection,
 *              the run's expectations -> RunOut
 *   gen.c      the program generator: seed -> case text
 *   fuzz.c     `bufdiff fuzz`: generate, run, compare, reduce, write repros
 *   fuzz_bucket.c  failures by signature (one repro each); `fuzz --merge`
 *   emit.c     a case written back as YAML: data, a run's keys and results
 *   reduce.c   a failing run -> the smallest case that still fails the same
 *              way (docs/reduce.md)
 *   reduce_cli.c  `bufdiff reduce`
 *   report.c   text, JSON (--json) and JUnit (--junit) reports
 *   cli.c      the command line: one table of commands and one of flags,
 *              parsed with getopt_long into Args; help generated from the
 *              tables; "did you mean" (docs/cli.md)
 *   html.c     --html: one self-contained page per case (program, graph,
 *              timeline, M(t), decisions), an index for many (docs/html.md)
 *   graph.c    the def-use graph as DOT, laid out as SVG by `dot -Tsvg`
 *   plot.c     `bufdiff plot TRACE.csv --html FILE`: a --memory-trace file
 *              drawn as M(t), a curve per run and schedule
 *   lab.c      `bufdiff lab cache`: the seed's LRU cache toy (docs/lab.md)
 *   checkrun.c `check`'s cases in worker processes (-j N), in path order
 *   main.c     the commands run, check, print, bufferize, explain, export,
 *              strategies, and the dispatch over cli.c's commands
 *
 * Every line and column here is a 1-based position in the .yaml file,
 * except in mlir_read.c, where they are positions in the MLIR text.
 */
#ifndef BUFDIFF_ORACLE_H
#define BUFDIFF_ORACLE_H

#include <stdio.h>
#include <yaml.h>

#include "ir.h"
#include "bufferize.h"

/* ----------------------------------------------------------- version.c */

extern const char bufdiff_version[];

/* -------------------------------------------------------------- yaml.c */

/* The loader's state.  Errors and out-of-memory longjmp to `jb` (set by
 * case_parse, the only protected entry); everything allocated lives in
 * `arena`, and the libyaml document is deleted at the entry. */
typedef struct Loader {
	Arena *arena;
	const char *text;       /* the whole file, NUL-terminated */
	yaml_document_t doc;
	Diag *d;
	jmp_buf jb;
	int64_t data_bytes;     /* payload of the data tensors made so far */
} Loader;

enum { YL_OOM = 1, YL_FAIL = 2 }; /* longjmp values: arena OOM, yl_fail */

/* The one YAML document of text into L->doc (*hasdoc: delete it); 0, or
 * -1 with d.  `what` names the text in messages: "case file". */
int yl_load(Loader *L, const char *text, size_t len, const char *what,
	    bool *hasdoc, Diag *d);
/* The location of byte `off` of text. */
Loc yl_offset_loc(const char *text, size_t off);
Loc yl_loc(const yaml_node_t *n);
_Noreturn void yl_fail(Loader *L, Loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
yaml_node_t *yl_node(Loader *L, int id);
const char *yl_kind(const yaml_node_t *n);     /* "mapping", "list", "scalar" */
/* Fail with "'WHAT' must be a KIND" unless n has the node type. */
void yl_want(Loader *L, const yaml_node_t *n, yaml_node_type_t type,
	     const char *what);
const char *yl_str(Loader *L, const yaml_node_t *n, const char *what);
bool yl_is_null(const yaml_node_t *n);         /* ~, null, empty plain */
/* A scalar's text (borrowed from the document). */
const char *yl_text(const yaml_node_t *n);
/* Check a mapping against a NULL-terminated key table: keys are scalars,
 * known and unique.  vals[i] gets the value of keys[i] (NULL if absent),
 * knodes[i] (if not NULL) the key node.  `where` names the mapping in
 * messages ("" for the top level). */
void yl_keys(Loader *L, const yaml_node_t *map, const char *const *keys,
	     const char *where, yaml_node_t **vals, yaml_node_t **knodes);
/* A mapping with free keys (inputs, plan, free): scalars, unique. */
void yl_free_keys(Loader *L, const yaml_node_t *map, const char *where);
int yl_npairs(const yaml_node_t *map);
yaml_node_t *yl_pair_key(Loader *L, const yaml_node_t *map, int i);
yaml_node_t *yl_pair_val(Loader *L, const yaml_node_t *map, int i);
int yl_nitems(const yaml_node_t *seq);
yaml_node_t *yl_item(Loader *L, const yaml_node_t *seq, int i);

/* -------------------------------------------------------------- data.c */

/* The deterministic generator behind `{random: SEED}`: rng_next
 * (interp/rng.h). */

/*
 * A data node (list, nested list, scalar, {splat}, {random}, {data}) as a
 * tensor of type t (scalar types give rank 0; `?` dims are taken from the
 * data or a `shape:` key).  The tensor lives in L's arena (never
 * tensor_free it).  With allow_undef, `undef`/null elements are allowed and
 * recorded as def[i] = 0 ("must be undefined").  `label` names the data in
 * messages: "input x", "output 0".
 */
Tensor *data_tensor(Loader *L, const yaml_node_t *n, const Type *t,
		    const Limits *lim, bool allow_undef, const char *label);
/* A list of expected outputs, one per type in rtypes. */
Tensor **data_outputs(Loader *L, const yaml_node_t *n, Type *const *rtypes,
		      int nrtypes, const Limits *lim, const char *label);

/* -------------------------------------------------------------- runs.c */


/* "sync", "late", "all", "random:N" (N in 0..2^64-1) -> 0, else -1. */
int schedule_parse(const char *s, Schedule *out);
/* Decimal digits only (no sign, no blanks) that fit in 64 bits -> true. */
bool u64_parse(const char *s, uint64_t *out);

/* tool-error (FORMAT §5): an outside bufferizer was missing, failed, timed
 * out or answered something unreadable; nothing was executed. */
typedef enum Verdict {
	VERDICT_NONE, VERDICT_AGREE, VERDICT_DIVERGE, VERDICT_FAULT,
	VERDICT_TOOL_ERROR, VERDICT_COUNT
} Verdict;
extern const char *const verdict_names[VERDICT_COUNT];

typedef enum MemStat {
	MS_PEAK_BYTES, MS_ALLOCATIONS, MS_ALLOC_BYTES, MS_COPIES,
	MS_COPY_BYTES, MS_VIEWS, MS_COUNT
} MemStat;
extern const char *const memstat_names[MS_COUNT + 1]; /* NULL-terminated */

/* A decision as a case names it, `RESULT:OPERAND` (operand NULL:
 * `RESULT:new`): in a plan, in culprits, in decisions.  In culprits and
 * decisions also a call's argument passing, `args R:share,copy`: words
 * is then "share,copy" and result the call's first result. */
typedef struct Forced {
	Value *result;
	Value *operand;
	Loc loc;
	const char *words;
} Forced;

/* `free: {VALUE: after RESULT}` */
typedef struct FreeAt {
	Value *value;
	Value *after;
	Loc loc;
} FreeAt;

/* A blame record: NULL names / kind -1 are "any". */
typedef struct Blame {
	Value *writer, *victim, *reader;
	int kind;               /* VKind (ir.h) or -1 */
	Loc loc;
} Blame;

/* One `runs:` entry, validated against the program; executed by the
 * bufferized executor.  Absent keys: strategy NULL, has_schedule false
 * (schedule all), verdict VERDICT_NONE, outputs NULL, has_* false,
 * memory[k] -1. */
typedef struct Run {
	Loc loc;
	const Strategy *strategy; /* NULL: copy-all */
	Forced *plan;
	int nplan;
	FreeAt *frees;
	int nfrees;
	PlanAnchor *anchors;    /* `anchor`, `hoist`, `args` (bufferize.h) */
	int nanchors;
	PlanHoist *hoists;
	int nhoists;
	PlanArgs *args;
	int nargs;
	bool has_schedule;
	Schedule schedule;
	Verdict verdict;
	Tensor **outputs;       /* def[i] == 0: must be undefined */
	int noutputs;
	bool has_blame;
	Blame *blame;
	int nblame;
	int64_t memory[MS_COUNT];
	bool has_culprits, has_decisions;
	Forced *culprits, *decisions;
	int nculprits, ndecisions;
} Run;

struct Case;
/* Parse and validate the `runs:` list into c->runs. */
void runs_load(Loader *L, struct Case *c, const yaml_node_t *n);
/* The plan keys of a run or a decisions document, in this order. */
enum { PK_PLAN, PK_FREE, PK_ANCHOR, PK_HOIST, PK_ARGS, PK_COUNT };
extern const char *const plan_keys[PK_COUNT + 1];   /* NULL-terminated */
/* Parse vals[PK_*] (NULL: absent) into r's plan, frees, anchors, hoists
 * and args, every name checked against c's program. */
void runs_load_plan(Loader *L, struct Case *c, Run *r,
		    yaml_node_t *const *vals);
/* Does r force anything (plan, free, anchor, hoist, args)? */
bool run_has_plan(const Run *r);
/* A value by the name a run gives it, as the loader resolves it:
 * `@f/name` in function f; else in `in` (NULL: none; an operand looks in
 * its result's function), the entry, then any function. */
Value *runs_value(const Program *p, const Func *in, const Func *entry,
		  const char *name);

/* -------------------------------------------------------------- case.c */

/* `expect: {error: {line, col, message}}` or `# expect-error: ...`. */
typedef struct ExpectError {
	int line, col;          /* col 0: any column */
	const char *msg;        /* substring of the error message */
	bool from_comment;
} ExpectError;

typedef struct Case {
	Arena *arena;           /* owns all below except prog */
	const char *file;
	const char *text;       /* whole file, NULL when unreadable */
	size_t len;
	const char *name;       /* `case:`, NULL until read */
	const char *about;
	Program *prog;          /* owned (prog_free in case_free) */
	Func *entry;
	Tensor **inputs;        /* one per entry param, in the arena */
	int ninputs;
	bool has_outputs;       /* expect.outputs */
	Tensor **want;          /* def[i] == 0: must be undefined */
	int nwant;
	bool has_error;
	ExpectError error;
	Run *runs;
	int nruns;
	Limits lim;
	bool has_failure;       /* expect.failure (FORMAT §5) */
	ExpectError failure;    /* line and the exact message */
	const Op *ref_failed;   /* the assert the reference failed at, or NULL
				 * (set by whoever ran the reference) */
} Case;

enum {
	CASE_PROGRAM_ONLY = 1   /* stop after parsing the program */
};

/*
 * Load a case file.  Returns 0, or -1 with d set.  *out is set in both
 * cases (whatever was read before the error, e.g. the expected error) so
 * a checker can match expected failures; it is NULL only when out of
 * memory before anything was read.  case_free(*out) always.
 */
int case_load(const char *path, unsigned flags, Case **out, Diag *d);
/* What a case file may hold (issue 12 items 13, 14): bytes, YAML nodes
 * (checked before libyaml builds the document), runs. */
enum { MAX_CASE_BYTES = 64 << 20, MAX_YAML_NODES = 1 << 21, MAX_RUNS = 256 };
/* --max-work N and --timeout SEC (0: keep the default) for every case
 * loaded after the call: Limits.max_work, Limits.timeout (budget.h). */
void case_limits(int64_t max_work, double timeout);
int case_parse(const char *file, const char *text, size_t len,
	       unsigned flags, Case **out, Diag *d);
void case_free(Case *c);        /* NULL ok */

/* ----------------------------------------------------------- plandoc.c */

/* Read a decisions document into r's plan keys (plan/free/anchor/hoist/args),
 * names resolved in c's program.  With `cases:`, the entry named c->name
 * (none: *found = false).  0, or -1 with d (d->loc in the document's text).
 * `file` labels the text ("answer of exec:foo" when it is not a file);
 * only r's plan keys and loc are set; they live in arena a. */
int plandoc_load(const char *file, const char *text, size_t len, const Case *c,
		 Arena *a, Run *r, bool *found, Diag *d);
/* The entry names of a `cases:` document and where each is (in arena a);
 * *n = -1 for a document without `cases:`.  0, or -1 with d. */
int plandoc_cases(const char *text, size_t len, Arena *a, const char ***names,
		  Loc **locs, int *n, Diag *d);
/* `--plan FILE` on a case: one more run with the document's decisions over
 * strategy s (NULL: copy-all), expected to agree; with `only` it replaces
 * the case's runs.  0 (*found false: a `cases:` document without an entry
 * for c, nothing added), or -1 with d. */
int plandoc_add_run(const char *file, const char *text, size_t len, Case *c,
		    const Strategy *s, bool only, bool *found, Diag *d);
/* The text of FILE (mem_alloc'ed, NUL-terminated, *len bytes), or NULL
 * with d. */
char *plandoc_read(const char *path, size_t *len, Diag *d);

/* ------------------------------------------------------------- check.c */

typedef enum Status { STATUS_OK, STATUS_FAIL, STATUS_BAD } Status; /* = exit codes */

/* What an outside bufferizer was asked and answered (external.c). */
typedef struct ToolReport {
	char cmd[1536];         /* the command line that reproduces the answer */
	char status[256];       /* tool-error: "exit 1", "timed out after 60 s",
				 * "answer: unknown value %q", ... */
	char err[1024];         /* tool-error: the first lines of its stderr */
	char *decisions;        /* mem_alloc'ed: the tool's own word for each
				 * decision it took, one per line, or NULL */
	char *memref;           /* mlir-pipeline: the memref program the
				 * tool printed (reports' memref lines are
				 * in it), mem_alloc'ed, or NULL */
} ToolReport;

/* One executed instruction of a bufferized run: the live bytes after it
 * (M(t)), its .yaml line (0: none), the stream it ran on (-1: the
 * program's own order).  `in` is NULL in a trace read back from CSV. */
typedef struct MemPoint {
	int64_t step, live;
	const BInst *in;
	int line, stream;
} MemPoint;

/* The steps of one execution, recorded when diff_record is on (--html);
 * at most MEMSERIES_MAX points (then `truncated`). */
typedef struct MemSeries {
	MemPoint *p;            /* mem_alloc'ed */
	int n, cap;
	bool truncated;
} MemSeries;
enum { MEMSERIES_MAX = 200000 };

/* One bufferized run and what it showed (diff.c). */
typedef struct RunOut {
	const char *strategy;   /* as reported: "plan" when the run forces any */
	char schedule[32];      /* the schedule of the worst execution */
	Schedule sched;
	Status status;          /* its expectations: met, failed, bad input */
	bool skipped;           /* strategy not implemented yet */
	Diag err;               /* status BAD: an illegal plan */
	Verdict verdict;
	Decisions ds;
	BProg *bp;              /* what ran: the violations point into it */
	ExecResult ex;
	int64_t *first_diff;    /* per output: flat index, -1 when equal */
	Value **culprits;       /* in-place decisions (their results) */
	int nculprits;
	/* with diff_reporting: every independent culprit set, the first being
	 * `culprits` (sets[k] starts at culprit_sets[setstart[k]]), and what
	 * one-shot decides for each culprit (oneshot.p NULL: not asked) */
	Value **culprit_sets;
	int *setstart, nsets, ncsets;
	Decisions oneshot;
	/* schedules: how many the run tried (`all`: sync, late, random:1-N)
	 * and how many of them failed */
	int ntried, nfailing;
	bool all;
	char why[640];          /* the first unmet expectation */
	ToolReport tool;        /* outside strategies: the call and its answer */
	MemSeries series;       /* diff_record: the worst execution's steps */
} RunOut;

/* What happened to one case. */
typedef struct Outcome {
	Status status;
	bool errored;           /* loading, verifying or running failed: err */
	Diag err;
	char why[640];          /* the first difference / failure, "" if ok */
	bool outputs_differ;    /* the reference missed expect.outputs */
	Tensor **outs;          /* reference outputs (outcome_clear frees) */
	int nouts;
	RunOut *runs;           /* the bufferized runs, after the reference */
	int nruns;
	bool failed;            /* the reference failed at an assert: err holds
				 * its location and message */
} Outcome;

/* Run the reference on a loaded case and compare with its expectations,
 * then every run of the case (or only `strategy` when not NULL, which must
 * agree). */
void check_case(Case *c, const Strategy *strategy, bool case_runs,
		Outcome *o);
/* Load + check, matching an expected error against a failure.  *c is
 * set like case_load's (case_free it). */
void check_file(const char *path, const Strategy *strategy, bool case_runs,
		Case **c, Outcome *o);
/* Compare reference outputs with expected ones: 0, or -1 with why. */
int check_outputs(Tensor *const *want, int nwant, Tensor *const *got,
		  int ngot, const char *what, char *why, size_t n);
void outcome_clear(Outcome *o);

/* ---------------------------------------------------------- external.c */

typedef enum ExtKind { EXT_EXEC, EXT_EXEC_MLIR, EXT_MLIR, EXT_PIPELINE } ExtKind;

/* A parsed outside strategy (Strategy.ext), alive for the process. */
struct External {
	ExtKind kind;
	char spec[2048];        /* as given: "exec:python3 x.py", "mlir" */
	char arg[2048];         /* the command, or the tool (mlir-opt-22) */
	int version;            /* the tool is mlir-opt-N: N, else 0 */
};

typedef struct ExternalOpts {
	double timeout;         /* --tool-timeout SEC (default 60) */
	const char *mlir_options; /* --mlir-options: more analysis options */
	int mlir_version;       /* --mlir-version N; 0: the tool's, or 22 */
	int batch;              /* fuzz: programs per tool call (0: 64; 1:
				 * unbatched, a call per program, for
				 * bench/bench_mlir.c's comparison) */
	const char *mlir_pipeline; /* --mlir-pipeline P (mlir-pipeline); NULL
				 * or "": the default, MLIR_PIPELINE */
} ExternalOpts;

#define MLIR_PIPELINE "one-shot-bufferize{bufferize-function-boundaries}," \
		      "buffer-deallocation-pipeline"


/* Tool calls so far (for benches and fuzz summaries). */
typedef struct ExternalStats {
	long calls;             /* processes started */
	long batched;           /* programs sent in batches (fuzz) */
	double seconds;         /* wall time inside the tools */
} ExternalStats;

void external_options(const ExternalOpts *o);
const ExternalStats *external_stats(void);
const ExternalOpts *external_opts(void);
/* --tool-timeout, --mlir-options, --mlir-version, --mlir-pipeline for any
 * command: 1 taken,
 * 0 not one of these, -1 a bad value (why).  value NULL: only whether name
 * is one of them. */
int external_opt(const char *name, const char *value, char *why, size_t n);
/* A built-in strategy by name, or an outside one (`exec:CMD`,
 * `exec-mlir:CMD`, `mlir[:TOOL]`, `mlir-pipeline[:TOOL]`); NULL if
 * neither. */
const Strategy *strategy_parse(const char *spec);
/* A short name for files and tables: the built-in's name, or "exec",
 * "exec-mlir", "mlir", "mlir-pipeline". */
const char *strategy_label(const Strategy *s);
/* The shell command an outside strategy runs (the program on its stdin). */
void external_command(const Strategy *s, Str *b);
/* The same as one stage of a pipeline: a command with shell operators
 * (; & | # newline) as sh -c '...'. */
void external_stage(const Strategy *s, Str *b);
/* The MLIR version an outside strategy exports for. */
int external_mlir_version(const Strategy *s);
/* Decisions of outside strategy s on case c, into ds (made here): 0, 1 a
 * tool-error (t says why), -1 out of memory (err). */
int external_decide(const Strategy *s, const struct Case *c, Decisions *ds,
		    ToolReport *t, Diag *err);
/* mlir-pipeline: the memref program TOOL prints for case c, as a buffer
 * program (memref_program), with its entry function: 0, 1 a tool-error
 * (t says why), -1 an unexecutable memref program (err, loc 0: the
 * message names the op and its line in the tool's output) or out of
 * memory.  *bp is bprog_free'd by the caller. */
int external_memref(const Strategy *s, const struct Case *c, BProg **bp,
		    const Func **entry, ToolReport *t, Diag *err);
/* Remember (or, in fuzz batches, pre-fill) the answer to input text `in`. */
void external_remember(const Strategy *s, const char *in, const char *answer);
void external_forget(void);     /* drop every cached answer */
/* Fuzz batches: ask the tool about many cases in one call (mlir and
 * mlir-pipeline: nested modules, the analysis or the pipeline anchored on
 * each) and remember each answer (the nested module's text); a
 * failing batch is halved until the failing program runs alone.  Returns
 * the number of programs asked. */
int external_prefill(const Strategy *s, struct Case *const *cases, int n);

/* -------------------------------------------------------------- diff.c */

/* Run `r` (NULL: strategy s alone, expected to agree) of case c against
 * the reference outputs ref[0..nref).  An output equal to the reference's
 * bit for bit is that tensor (o->ex.shared): read o's outputs only while
 * ref lives. */
void diff_run(const Case *c, const Run *r, const Strategy *s,
	      Tensor *const *ref, int nref, RunOut *o);
void runout_clear(RunOut *o);
/* Apply run r's plan and frees to ds; -1 with err for an illegal plan. */
int diff_plan(const Run *r, Decisions *ds, Diag *err);
/* --alloc-overhead, --memory-trace, --schedule (NULL: each run's own) and
 * --schedules N (random seeds tried by `all`), for every later run. */
void diff_options(int64_t alloc_overhead, FILE *trace, const Schedule *sched,
		  int nrandom);
/* Keep each run's steps in RunOut.series (for --html pages). */
void diff_record(bool on);
/* The header of --memory-trace's CSV (docs/cli.md): the first three
 * columns as they always were, then run, strategy, schedule. */
#define MEMORY_TRACE_HEADER "step,bytes,line,run,strategy,schedule\n"
/* Reports for people (run, check): every independent culprit set and
 * what one-shot decides for each culprit; off for fuzz and reduce. */
void diff_reporting(bool on);
/* "sync", "late", "random:7". */
const char *schedule_name(Schedule s, char *buf, size_t n);
/* The value an instruction writes or reads for (for blame), or NULL. */
const Value *inst_value(const BInst *in);

/* -------------------------------------------------------------- tool.c */

typedef enum ToolStatus {
	TOOL_OK,
	TOOL_EXIT,              /* nonzero exit */
	TOOL_SIGNAL,
	TOOL_TIMEOUT,
	TOOL_SPAWN,             /* could not start */
	TOOL_OOM                /* output over the cap: killed */
} ToolStatus;

typedef struct ToolResult {
	ToolStatus status;
	int code;               /* exit code, signal number, or errno (SPAWN) */
	char *out, *err;        /* captured stdout/stderr, NUL-terminated,
				 * mem_alloc'ed (tool_result_free) */
	size_t nout, nerr;
	double seconds;         /* wall time, monotonic */
	double timeout;         /* the limit it ran under */
} ToolResult;

enum { TOOL_OUT_CAP = 256 << 20 };  /* bytes per stream */

/*
 * /bin/sh -c cmd with in[0..nin) on its stdin; stdout and stderr captured
 * (each up to the cap: beyond it the tool is killed, status TOOL_OOM);
 * after `timeout` seconds (> 0) the whole process group is killed
 * (SIGKILL), status TOOL_TIMEOUT.  When the tool ends, what is left of its
 * process group (background children) is killed too.  Returns 0 when the
 * tool ran (whatever its status; r->out/err set), -1 only when out of
 * memory (r holds nothing).  Never leaves a zombie or an fd; the caller's
 * SIGPIPE disposition and signal mask are unchanged afterwards.
 */
int tool_run(const char *cmd, const char *in, size_t nin, double timeout,
	     ToolResult *r);
void tool_result_free(ToolResult *r);   /* r's buffers; r reusable */
/* Seconds on the monotonic clock (for durations). */
double tool_now(void);
/* The per-stream cap (0: back to TOOL_OUT_CAP), for tests. */
void tool_output_cap(size_t n);
/* One line for reports: "exit 1", "killed by signal 11 (SIGSEGV)",
 * "timed out after 2 s", "could not start: ...",
 * "killed: output over N bytes". */
const char *tool_status_str(const ToolResult *r, char *buf, size_t n);
/* The first `lines` lines of the tool's stderr (without the newline that
 * ends the last one), cut at n - 1 bytes, into buf. */
const char *tool_stderr_head(const ToolResult *r, int lines, char *buf,
			     size_t n);

/* --------------------------------------------------------------- gen.c */

/* Op mix of the generator. */
enum {
	GEN_SLICES = 1, GEN_MATMUL = 2, GEN_LOOPS = 4, GEN_BRANCHES = 8,
	GEN_ASYNC = 16, GEN_CALLS = 32,
	GEN_FORALL = 64,        /* a share of the loops become foralls */
	GEN_ALL = 127
};

typedef struct GenOpts {
	int max_ops;            /* ops in the program, all functions */
	unsigned mix;           /* GEN_* */
	bool no_copies;         /* no `copy ... into` (MLIR 19+ refuses a
				 * materialize_in_destination it cannot do
				 * in place: a tool-error, not a finding) */
} GenOpts;

/* The case generated from `seed`: a program, seeded random inputs, and one
 * run of `strategy`, as YAML text (mem_alloc'ed; NULL out of memory).
 * The same seed gives the same text on any machine. */
char *gen_case(uint64_t seed, const GenOpts *o, const char *strategy);

/* The constructs the generator counts as it makes them (GC_*, name). */
#define GEN_CONSTRUCTS(X) \
	X(GC_RANK0, "rank-0 tensor") \
	X(GC_RANK3, "rank-3 tensor") \
	X(GC_DYNAMIC, "dynamic dim") \
	X(GC_I1_TENSOR, "i1 tensor") \
	X(GC_INDEX_TENSOR, "index tensor") \
	X(GC_SCALAR_ARITH, "scalar arithmetic") \
	X(GC_BROADCAST, "scalar broadcast") \
	X(GC_IF, "if with a result") \
	X(GC_IF_BARE, "if without results") \
	X(GC_FOR, "for") \
	X(GC_FOR_MULTI, "for with two iter args") \
	X(GC_FOR_START, "for from a nonzero start") \
	X(GC_FOR_STEP, "for with step > 1") \
	X(GC_WHILE, "while") \
	X(GC_FORALL, "forall") \
	X(GC_ASSERT, "assert") \
	X(GC_ASYNC, "launch") \
	X(GC_FUT0, "launch without results") \
	X(GC_FUT2, "launch with two results") \
	X(GC_AWAIT_AGAIN, "future awaited again") \
	X(GC_CALL, "call") \
	X(GC_CALL_AGAIN, "helper called again") \
	X(GC_HELPER_BRANCH, "branch in a helper") \
	X(GC_HELPER_ASYNC, "launch in a helper") \
	X(GC_HELPER_CALL, "call in a helper") \
	X(GC_DYN_INDEX, "dynamic extract/insert index") \
	X(GC_STRIDED_INSERT, "strided insert_slice")

typedef enum GenConstruct {
#define GC_ENUM(e, name) e,
	GEN_CONSTRUCTS(GC_ENUM)
#undef GC_ENUM
	GC_COUNT
} GenConstruct;

extern const char *const gen_construct_names[GC_COUNT];

/* How many times each construct was made (added to by each call). */
typedef struct GenStats {
	long n[GC_COUNT];
} GenStats;

/* gen_case, adding what it made to *st (NULL: nothing counted). */
char *gen_case_stats(uint64_t seed, const GenOpts *o, const char *strategy,
		     GenStats *st);

/* --------------------------------------------------------------- cli.c */

/* The commands, in the order `bufdiff --help` lists them. */
typedef enum CliCmd {
	CLI_RUN, CLI_CHECK, CLI_PRINT, CLI_BUFFERIZE, CLI_EXPLAIN, CLI_FUZZ,
	CLI_REDUCE, CLI_EXPORT, CLI_IMPORT, CLI_PLOT, CLI_LAB, CLI_STRATEGIES,
	CLI_HELP, CLI_NCMDS
} CliCmd;

/* Every flag's value (cli.c's table says which commands take it and what
 * it holds when not given), and the positional arguments. */
typedef struct Args {
	CliCmd cmd;
	const char *name;               /* the command's name */
	const char **paths;             /* positional arguments ("-": stdin) */
	int npaths;
	const Strategy *strategy;       /* --strategy; NULL: not given */
	Schedule schedule;              /* --schedule, when has_schedule */
	bool has_schedule;
	int nrandom;                    /* --schedules N (8) */
	bool json;
	const char *junit, *trace, *plan, *out;
	const char *html;               /* --html FILE (run, plot, lab) or DIR */
	long long max_work;             /* --max-work N; 0: the default */
	long long max_memory;           /* --max-memory BYTES; 0: the default */
	double timeout;                 /* --timeout SEC; 0: none */
	long long overhead;             /* --alloc-overhead BYTES */
	int run;                        /* --run I, 1-based; 0: not given */
	int jobs;                       /* check -j N (--jobs): workers */
	const char *filter;             /* check --filter PATTERN */
	/* fuzz */
	uint64_t seed;                  /* --seed N (0) */
	long long count;                /* --count K; 0: not given */
	double seconds;                 /* --time SEC; 0: not given */
	int shard, nshards;             /* --shard I/N (0/1) */
	int max_ops;                    /* --max-ops M (12) */
	unsigned mix;                   /* --mix LIST (GEN_ALL) */
	int tool_batch;                 /* --tool-batch N; 0: not given */
	bool no_reduce, no_copies, quiet;
	long long max_failures;         /* --max-failures N; 0: no limit */
	bool merge;                     /* --merge: paths are summaries */
	/* import */
	const char *func, *tool;
	bool no_tool;
	long long import_seed;          /* import --seed N (1) */
	double tool_timeout;            /* import --tool-timeout SEC (60) */
	/* lab cache */
	int lab_cap, lab_stride, lab_requests, lab_step; /* (4, 4, 16, 0) */
} Args;

/* argv (argv[1] the command) -> a: 0 to run the command, -1 when help was
 * printed (exit 0), STATUS_BAD after a usage error on stderr.  Free a
 * with cli_args_free in every case. */
int cli_parse(int argc, char **argv, Args *a);
void cli_args_free(Args *a);
/* "bufdiff CMD: MESSAGE" and "(see bufdiff help CMD)" on stderr:
 * STATUS_BAD. */
int cli_usage(const Args *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The closest of names[0..n) to word by edit distance, or NULL when none
 * is close enough to suggest. */
const char *cli_nearest(const char *word, const char *const *names, int n);

/* -------------------------------------------------------------- fuzz.c */

typedef struct ReduceStats {
	int ops_before, ops_after;  /* ops in the program (Program.nops) */
	int candidates;             /* candidate programs tried */
	int cache_hits;             /* candidates answered from the cache */
	double seconds;
} ReduceStats;

typedef struct FuzzOpts {
	const Strategy *strategy;
	uint64_t seed;          /* first seed */
	long count;             /* programs (0: until `seconds`) */
	double seconds;         /* time budget (0: until `count`) */
	const char *out;        /* directory for reduced repros, or NULL */
	int shard, nshards;     /* this shard of nshards: seeds i = shard mod n */
	bool json, quiet;
	bool reduce;            /* reduce failures before writing them */
	bool first;             /* stop at the first failure */
	long max_failures;      /* stop after this many failures (0: never) */
	bool progress;          /* a progress line on stderr (a terminal) */
	bool lazy_out;          /* out is the default: made at the first repro */
	GenOpts gen;
} FuzzOpts;

/* Failures with one signature (fuzz_bucket.c): how many, the smallest
 * seeds, and the repro written for the first of them. */
enum { BUCKET_SEEDS = 32 };

typedef struct Bucket {
	char *sig;              /* "fault/stale-read culprit=add in=loop" */
	long count;
	uint64_t seeds[BUCKET_SEEDS]; /* the smallest, ascending */
	int nseeds;
	char *repro;            /* path, or NULL (nothing written) */
} Bucket;

typedef struct Buckets {
	Bucket *b;
	int n;
} Buckets;

typedef struct FuzzStats {
	long programs, failures, skipped;
	long tool_errors;       /* failures that are an outside tool's error */
	double seconds;
	double first_seconds;   /* time to the first failure */
	uint64_t first_seed;    /* its seed */
	ReduceStats first_reduce; /* and its reduction */
	char **repros;          /* paths written (mem_alloc'ed) */
	int nrepros;
	Buckets buckets;        /* failures by signature, in order found */
	bool interrupted;       /* SIGINT or SIGTERM ended it */
} FuzzStats;

/* Generate, run and compare; reduce and write failures.  0 none failed,
 * 1 some failed, 2 bad usage (an unwritable directory). */
int fuzz_run(const FuzzOpts *o, FuzzStats *st);
void fuzz_stats_free(FuzzStats *st);
/* `bufdiff fuzz ...` (argv[1] is "fuzz"): exit code as fuzz_run;
 * fuzz_main the same from parsed arguments. */
int cmd_fuzz(int argc, char **argv);
int fuzz_main(const Args *a);
/* --mix: "loops,async" or a bitmask (as libFuzzer's messages print it). */
int fuzz_parse_mix(const char *s, unsigned *mix);

/* ------------------------------------------------------- fuzz_bucket.c */

/* A failure's signature: what went wrong (verdict/first violation kind,
 * or the tool's status), the ops of the culprit decisions and the
 * constructs around them (or around the access, with no culprit). */
void fuzz_signature(const RunOut *r, const Case *c, char *buf, size_t n);
Bucket *buckets_find(const Buckets *bs, const char *sig);
Bucket *buckets_add(Buckets *bs, const char *sig, long count, bool *isnew);
void bucket_seed(Bucket *k, uint64_t seed);
void buckets_free(Buckets *bs);
void buckets_json(Str *b, const Buckets *bs);
void fuzz_json_string(Str *b, const char *s); /* a JSON string, quoted */
void buckets_print(FILE *f, const Buckets *bs);
/* `bufdiff fuzz --merge FILE...`: the shards' --json summaries added up
 * (human, or JSON like one shard's); 0 / 1 some failed / 2 bad input. */
int fuzz_merge(int nfiles, const char *const *files, bool json);

/* -------------------------------------------------------------- emit.c */

/* A YAML double-quoted scalar. */
void emit_quoted(Str *b, const char *s);
/* Data for a param of type ty, reading back to the same bits: a number,
 * a flat list, or {data, shape} for `?` dims; .nan, .inf. */
void emit_data(Str *b, const Tensor *t, const Type *ty);
/* `  NAME: DATA` lines for f's params. */
void emit_inputs(Str *b, const Func *f, Tensor *const *inputs);
/* "  - strategy: S" and the run's plan/free entries whose values exist in
 * p (the same name in the function of the same name), and its schedule.
 * Names are written as the loader resolves them: `'@f/name'` when the
 * name alone would find another function's value. */
void emit_run_head(Str *b, const Run *r, const Program *p, const Func *entry);
/* "    verdict:", up to nblame blame records (first distinct violations)
 * and all culprits of o. */
void emit_run_result(Str *b, const Program *p, const Func *entry,
		     const RunOut *o, int nblame);
/* The name the case file gives v (of p): v->name, or `@f/name` when the
 * loader would find another value by v->name alone (`in`: as for
 * runs_value).  buf holds it. */
const char *emit_ref(const Program *p, const Func *entry, const Func *in,
		     const Value *v, char *buf, size_t n);

/* ------------------------------------------------------------- cache.c */

/* Candidate case text -> accepted?  Program text -> a tool's answer.
 * Open addressing, FNV-1a. */
typedef struct Cache {
	char **keys;
	uint64_t *hash;
	bool *acc;
	char **text;
	size_t cap, n;
} Cache;
int cache_get(const Cache *c, const char *key, bool *acc);
int cache_put(Cache *c, char *key, bool acc);
const char *cache_text(const Cache *c, const char *key);
int cache_put_text(Cache *c, char *key, bool acc, char *text);
void cache_free(Cache *c);

/* ------------------------------------------------------------ reduce.c */


/*
 * Reduce run `run` (0-based index into c->runs) of case c, a run that fails
 * (diverge or fault): the smallest program on which the same run still
 * fails with the same culprit decision (or, when it has no culprit, the
 * same first violation kind and victim).  *yaml receives an ordinary case
 * file (mem_alloc'ed) named `name`, with `about`, the inputs, and the run
 * with its expected verdict, blame and culprits.  Returns 0, 1 when the run
 * does not fail (nothing to reduce), -1 with d on bad input or out of
 * memory.
 */
int reduce_case(const Case *c, int run, const char *name, const char *about,
		char **yaml, ReduceStats *st, Diag *d);
/* Candidates tried before reduce_case stops (default 4000; n <= 0 resets). */
void reduce_budget(int n);

/* -------------------------------------------------------- reduce_cli.c */

/* `bufdiff reduce CASE [--run I] [--plan FILE] [--out FILE]`: 0 reduced,
 * 1 the run does not fail, 2 bad input or usage. */
int cmd_reduce(const Args *a);

/* ------------------------------------------------------------ report.c */

/* `run`'s text report: reference outputs nested like the data. */
void report_text(FILE *out, const Case *c, const Outcome *o);
/* Bufferized run i of o, ASan-style: violations with reader, victim,
 * writer and decision; differing outputs; culprits; memory; SUMMARY. */
void report_run_text(FILE *out, const Case *c, const Outcome *o, int i);
/* One tensor as nested text, e.g. [[1, 2], [3, undef]]. */
void report_tensor(FILE *out, const Tensor *t);
/* Route Jansson's allocations through mem_alloc (call once). */
void report_json_init(void);
/* The JSON object of FORMAT.md §3 for one case, printed on one line.
 * Floats print shortest round-trip for their dtype.  -1 out of memory. */
int report_json(FILE *out, const Case *c, const Outcome *o);

/* Why a failing case failed, for check's [FAIL] line: the first failing
 * run's first violation and culprits ("stale-read in %z at F:6:5;
 * culprits y:x"); nothing when no run failed with a violation or culprit. */
void report_fail_reason(FILE *out, const Case *c, const Outcome *o);

/* One case of `check` (every string mem_alloc'ed or NULL). */
typedef struct JEntry {
	char *name, *file, *msg;
	Status status;
	char *reason;           /* report_fail_reason's text */
	char *report;           /* the text report (--junit) */
	char *json;             /* the JSON line (--json) */
	char *diag;             /* diagnostics for stderr */
	double seconds;         /* wall time of the case */
} JEntry;

/* JUnit XML, one testcase per entry, classname the case's folder, the
 * report in <failure>/<error> and <system-out>.  0 or -1 (cannot write). */
int report_junit(const char *path, const JEntry *e, int n);

/* -------------------------------------------------------------- html.c */

/* s HTML-escaped (& < > " '), control characters shown as \xNN. */
void html_put(Str *b, const char *s);
/* A page's head (inline CSS, the window.onerror hook that fills #errors)
 * and its end (#errors, #ready, then `script`, which may be NULL). */
void html_begin(Str *b, const char *title);
void html_end(Str *b, const char *script);
/* Write b's text to path (b is emptied): 0 or -1. */
int html_write(const char *path, Str *b);
/* The page of one case checked with diff_record on (o->runs[].series);
 * c may be NULL (unreadable), path labels it. */
void html_case(Str *b, const Case *c, const Outcome *o, const char *path);
int html_case_file(const char *file, const Case *c, const Outcome *o,
		   const char *path);
/* M(t) of n series on one chart (svg#mt) and its legend; a point's `in`
 * may be NULL (then no free or view ticks). */
void html_chart(Str *b, const MemSeries *const *s, const char *const *labels,
		int n);
/* Many cases: page i of a directory is "case-%04d.html" (i + 1). */
const char *html_page_name(int i, char *buf, size_t n);
int html_dir(const char *dir);          /* make it if needed: 0 or -1 */
/* DIR/index.html linking the pages of e[0..n). */
int html_index(const char *dir, const char *title, const JEntry *e, int n);
/* Check each of paths (strategy s as check_file) and write its page and
 * the index into dir: 0 or -1 (cannot write). */
int html_check_files(const char *dir, const char *title, char *const *paths,
		     int n, const Strategy *s);

/* ------------------------------------------------------------- graph.c */

/* The def-use graph of p as DOT, o's violations as red edges (o may be
 * NULL). */
void graph_dot(Str *b, const Program *p, const Outcome *o);
/* The page's graph panel: the SVG of `dot -Tsvg`, or why not. */
void graph_panel(Str *b, const Case *c, const Outcome *o);

/* -------------------------------------------------------------- plot.c */

/* `bufdiff plot TRACE.csv --html FILE`: 0, or 2. */
int cmd_plot(const Args *a);

/* --------------------------------------------------------------- lab.c */

/* `bufdiff lab cache [--capacity C] [--stride S] [--requests N] [--step K]
 * [--html FILE]`: 0, or 2 on bad usage. */
int cmd_lab(const Args *a);
/* ---------------------------------------------------------- checkrun.c */

/* Check the case at path into e (in a worker process when jobs > 1). */
typedef void (*CheckFn)(void *ctx, const char *path, int idx, JEntry *e);
/* Entries 0..i are ready; entry i is new. */
typedef void (*CheckDone)(void *ctx, JEntry *e, int i);
/* fn on each of paths[0..n) into out[], with up to `jobs` worker processes
 * (1: in this process); done in path order as results come.  0, or -1
 * (a worker could not be started: the entries not done are empty). */
int checkrun(char *const *paths, int n, int jobs, CheckFn fn, CheckDone done,
	     void *ctx, JEntry *out);
void jentry_clear(JEntry *e);

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
} ExportMap;

/* What differs between the mlir-opt versions bufdiff exports for. */
typedef struct MlirVersion {
	int version;             /* 16, 19, 22 */
	const char *maxf, *minf; /* float max/min: arith.maxf (16), arith.maximumf */
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
/* The ExportOp of TIR op `op` whose MLIR name is `mlir` (the first, for
 * an await of several values), or NULL. */
const ExportOp *export_find(const ExportMap *m, const Op *op,
			    const char *mlir);
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
/* The attribute `name`: properties first, then the dictionary; NULL. */
const MAttr *mop_attr(const MOp *op, const char *name);
/* Every op under top (top first), in pre-order. */
void mop_walk(MOp *top, void (*fn)(MOp *op, void *ctx), void *ctx);
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
/* `bufdiff import FILE.mlir [--func NAME] [--seed N] [--out CASE]
 * [--tool TOOL | --no-tool] [--tool-timeout SEC]`: 0, or 2 with one
 * diagnostic on stderr. */
int cmd_import(const Args *a);

#endif
