/*
 * harness.h: oracle/harness/, a Case against the reference and each of its
 * runs.  Table of contents in data-flow order:
 *
 *   check.c    a Case against the reference interpreter, then each run
 *              -> Outcome
 *   diff.c     one bufferized run against the reference: decisions,
 *              lowering, execution, comparison, verdict, culprit bisection,
 *              the run's expectations -> RunOut
 *   emit.c     a case written back as YAML: data, a run's keys and results
 *   checkrun.c many cases checked in worker processes (-j N), results
 *              (JEntry) in path order
 *
 * Uses cases.h and mlir.h (outside strategies' runner).  A RunConfig,
 * built by the CLI from the parsed arguments, is passed down through
 * check, diff, fuzz and reduce (NULL: the defaults).
 */
#ifndef BUFDIFF_HARNESS_H
#define BUFDIFF_HARNESS_H

#include "cases.h"
#include "mlir.h"

/* One run configuration (diff.c), built by main from the parsed arguments
 * and passed down through check, fuzz and reduce; NULL: the defaults. */
typedef struct RunConfig RunConfig;

/* ------------------------------------------------------------- check.c */

typedef enum Status { STATUS_OK, STATUS_FAIL, STATUS_BAD } Status; /* = exit codes */

/* One executed instruction of a bufferized run: the live bytes after it
 * (M(t)), its .yaml line (0: none), the stream it ran on (-1: the
 * program's own order).  `in` is NULL in a trace read back from CSV. */
typedef struct MemPoint {
	int64_t step, live;
	const BInst *in;
	int line, stream;
} MemPoint;

/* The steps of one execution, recorded when RunConfig.record is on (--html);
 * at most MEMSERIES_MAX points (then `truncated`). */
typedef struct MemSeries {
	MemPoint *p;            /* mem_alloc'ed */
	int n, cap;
	bool truncated;
} MemSeries;
enum { MEMSERIES_MAX = 200000 };

/* --confirm: the run's MLIR strategy judged by MLIR's own output, run
 * natively (oracle/mlir/native.c, docs/native.md). */
typedef enum NativeVerdict {
	NATIVE_NONE,            /* not asked */
	NATIVE_CONFIRMED,       /* the run failed; native outputs differ too */
	NATIVE_LATENT,          /* the run failed; native outputs agree */
	NATIVE_MISSED,          /* the run agreed; native outputs differ (the
				 * instrumented run missed it: a bufdiff bug) */
	NATIVE_AGREE,           /* both agree */
	NATIVE_FAILED           /* it could not run natively: msg */
} NativeVerdict;
extern const char *const native_verdict_names[];

typedef struct NativeJudge {
	NativeVerdict verdict;
	int output;             /* the first output that differs, its first */
	int64_t elem;           /* differing element, the values */
	double ref, got;
	int race;               /* native outputs differ: race_order's */
	int sched;              /* NativeSched the launches ran under (0: the
				 * program has none) */
	bool carried;           /* Native.carried */
	char msg[512];          /* NATIVE_FAILED: why */
	char *command;          /* what ran (the source on stdin) */
} NativeJudge;

/* One bufferized run and what it showed (diff.c). */
typedef struct RunOut {
	const char *strategy;   /* as reported: "plan" when the run forces any */
	char schedule[32];      /* the schedule of the worst execution */
	Schedule sched;
	Status status;          /* its expectations: met, failed, bad input */
	bool skipped;           /* not judged: a limit its case expects */
	bool limited;           /* it stopped at a resource limit (err) */
	Diag err;               /* status BAD: an illegal plan */
	Verdict verdict;
	Decisions ds;
	BProg *bp;              /* what ran: the violations point into it */
	ExecResult ex;
	int64_t *first_diff;    /* per output: flat index, -1 when equal */
	Value **culprits;       /* in-place decisions (their results) */
	int nculprits;
	/* the plan's frees, hoists and anchors that are culprits instead
	 * (plan_lifetimes' numbering; the decisions are then none) */
	int *lculprits;
	int nlculprits;
	/* with RunConfig.report: every independent culprit set, the first being
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
	const char *pipeline;   /* mlir-pipeline: the pass pipeline the run's
				 * `pipeline:` or --mlir-pipeline gave (the
				 * case's or the options' text); NULL: the
				 * default */
	MemSeries series;       /* RunConfig.record: the worst execution's steps */
	NativeJudge native;     /* RunConfig.confirm */
	/* an MLIR strategy's outputs differ on a program with a forall:
	 * race_order's (0: not judged) */
	int race;
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
void check_case(const RunConfig *cfg, Case *c, const Strategy *strategy,
		bool case_runs, Outcome *o);
/* Load + check, matching an expected error against a failure.  *c is
 * set like case_load's (case_free it). */
void check_file(const RunConfig *cfg, const char *path,
		const Strategy *strategy, bool case_runs, Case **c, Outcome *o);
void outcome_clear(Outcome *o);
/* check --confirm: the native runs of the cases at paths[0..n) in
 * batches ahead of checking them (diff_confirm_prefill), 64 cases at a
 * time; the workers of check -j inherit the answers. */
void check_confirm_prefill(const RunConfig *cfg, char *const *paths, int n,
			   const Strategy *s);

/* --------------------------------------------------------- checkbatch.c */

/* Before `check` checks paths[0..n): ask the outside tools that take many
 * programs per call (mlir, mlir-pipeline, mlir-native, exec-batch:,
 * exec-stream:) about the cases' runs (and strategy s's extra run) in
 * batches, so that each case finds its answer cached (the workers of -j
 * inherit them).  Verdicts are those of one call per program. */
void check_prefill(const RunConfig *cfg, char *const *paths, int n,
		   const Strategy *s);

/* -------------------------------------------------------------- diff.c */

/* --confirm in batches (native_batch.c): the native runs of cases[0..n)
 * (their runs when case_runs, and one of s when s) run ahead, so that
 * diff_run's confirm starts no process for them; the number remembered. */
int diff_confirm_prefill(const RunConfig *cfg, const Strategy *s,
			 Case *const *cases, int n, bool case_runs);
/* Run `r` (NULL: strategy s alone, expected to agree) of case c against
 * the reference outputs ref[0..nref).  An output equal to the reference's
 * bit for bit is that tensor (o->ex.shared): read o's outputs only while
 * ref lives. */
void diff_run(const RunConfig *cfg, const Case *c, const Run *r,
	      const Strategy *s, Tensor *const *ref, int nref, RunOut *o);
void runout_clear(RunOut *o);
/* The tool options of run r (NULL: the extra run) of strategy s: the
 * configuration's (NULL), or the run's own in *buf (its workdir:, its
 * pipeline:); *pipeline the pipeline given, NULL for the default. */
const ExternalOpts *run_tool_opts(const RunConfig *cfg, const Run *r,
				  const Strategy *s, ExternalOpts *buf,
				  const char **pipeline);
/* The header of --memory-trace's CSV (docs/cli.md): the first three
 * columns as they always were, then run, strategy, schedule. */
#define MEMORY_TRACE_HEADER "step,bytes,line,run,strategy,schedule\n"

/* What the command line says about every run of the process. */
struct RunConfig {
	int64_t alloc_overhead;     /* --alloc-overhead BYTES */
	FILE *trace;                /* --memory-trace: M(t) rows, or NULL */
	const Schedule *sched;      /* --schedule; NULL: each run's own */
	int nrandom;                /* --schedules N: random seeds of `all` */
	bool record;                /* keep RunOut.series (--html pages) */
	bool report;                /* reports for people: every independent
				     * culprit set and one-shot's word */
	int reduce_budget;          /* candidates reduce_case tries (4000) */
	int64_t max_work;           /* --max-work N (0: the default) and */
	double timeout;             /* --timeout SEC (0: none), check_case's
				     * Limits.max_work, Limits.timeout */
	bool confirm;               /* --confirm: run MLIR's output natively */
	const ExternalOpts *tool;   /* outside tools: --tool-timeout,
				     * --mlir-*, --tool-batch (NULL:
				     * external_opts_default) */
};
/* The defaults: no trace, the runs' schedules, 8 seeds, no reporting,
 * the tools' default options. */
extern const RunConfig run_config_default;

/* -------------------------------------------------------------- emit.c */

/* Data for a param of type ty, reading back to the same bits: a number,
 * a flat list, or {data, shape} for `?` dims; .nan, .inf. */
void emit_data(Str *b, const Tensor *t, const Type *ty);
/* `  NAME: DATA` lines for f's params. */
void emit_inputs(Str *b, const Func *f, Tensor *const *inputs);
/* "  - strategy: S", its pipeline, and the run's plan/free entries whose
 * values exist in p (the same name in the function of the same name), and
 * its schedule.
 * Names are written as the loader resolves them: `'@f/name'` when the
 * name alone would find another function's value. */
void emit_run_head(Str *b, const Run *r, const Program *p, const Func *entry);
/* `    workdir: ABS` for a strategy that runs a command (dir NULL: the
 * current directory); nothing for one that does not. */
void emit_workdir(Str *b, const Strategy *s, const char *dir);
/* "    verdict:", up to nblame blame records (first distinct violations)
 * and all culprits of o. */
void emit_run_result(Str *b, const Program *p, const Func *entry,
		     const RunOut *o, int nblame);
/* The name the case file gives v (of p): v->name, or `@f/name` when the
 * loader would find another value by v->name alone (`in`: as for
 * runs_value).  buf holds it. */
const char *emit_ref(const Program *p, const Func *entry, const Func *in,
		     const Value *v, char *buf, size_t n);

/* ---------------------------------------------------------- checkrun.c */

/* One case of `check` (every string mem_alloc'ed or NULL). */
typedef struct JEntry {
	char *name, *file, *msg;
	Status status;
	char *reason;           /* report_fail_reason's text */
	char *report;           /* the text report (--junit) */
	char *json;             /* the JSON line (--json) */
	char *diag;             /* diagnostics for stderr */
	char *cause;            /* --html: the index's cells (html_cause) */
	double seconds;         /* wall time of the case */
} JEntry;

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

/* ------------------------------------------------------------- race.c */

/* outs against the outputs of every in-order visibility of the foralls'
 * trips: the order k > 0 (RefStats.order) that gives them (a racy read in
 * MLIR's meaning), -1 when none does (a miscompile), 0 when c has no
 * forall (or its reference failed).  native: outs are MLIR's native
 * outputs (compared as native_elem_close says). */
int race_order(const Case *c, Tensor *const *outs, int nouts, bool native);
/* "first to last", "last to first", "permutation N" */
const char *race_order_text(int order, char *buf, size_t n);

#endif
