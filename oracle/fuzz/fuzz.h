/*
 * fuzz.h: oracle/fuzz/, generated programs and their reduction.  Table of
 * contents in data-flow order:
 *
 *   gen.c      the program generator: seed -> case text (main's params,
 *              its ops, outputs, inputs); gen_impl.h between its files:
 *     gen_region.c  the op mix and the regions it nests (if, for, forall,
 *              while, launches, asserts, helpers and calls)
 *     gen_tensor.c  the straight-line ops (elementwise, matmul, slices,
 *              elements, copies, reshapes)
 *     gen_cfg.c     function bodies of several blocks (the cfg mix):
 *              diamonds, loops of blocks, exits from their bodies
 *     gen_carry.c   futures carried by a for's iter args (prefetch
 *              loops) and the launches carried (by blocks too)
 *     gen_scope.c   random draws, the values in scope, their text
 *   fuzz.c     fuzz_run: generate, run, compare, reduce, write repros;
 *              fuzz_command: the same stoppable, with its summary
 *   fuzz_bucket.c  failures by signature (one repro each); `fuzz --merge`
 *   reduce.c   a failing run -> the smallest case that still fails the same
 *              way (docs/reduce.md): the driver; reduce_impl.h between its
 *              files:
 *     reduce_pass.c   the passes, each a source of candidate edits
 *     reduce_cfg.c    the pass over blocks and edges
 *     reduce_edit.c   an edit of the current text, applied and tried
 *     reduce_judge.c  a candidate run and judged ("the same failure",
 *              "smaller"); accepted, it becomes the current case
 *     reduce_text.c   the case file written; the text's lines, where each
 *              op and function sits
 *   fuzz_target.c, fuzz_loader.c, fuzz_plandoc.c, fuzz_mlir.c,
 *   fuzz_memref.c, fuzz_merge.c  libFuzzer entry points (executables of
 *              their own, -DBUFDIFF_LIBFUZZER=ON): bytes -> generator,
 *              case loader, decisions document, MLIR reader, memref
 *              translator, `fuzz --merge`; fuzz_fixed.h: the case the
 *              plan and memref targets read against
 *
 * Uses harness.h (Case, RunOut).
 */
#ifndef BUFDIFF_FUZZ_H
#define BUFDIFF_FUZZ_H

#include "harness.h"
#include "strmap.h"

/* --------------------------------------------------------------- gen.c */

/* Op mix of the generator. */
enum {
	GEN_SLICES = 1, GEN_MATMUL = 2, GEN_LOOPS = 4, GEN_BRANCHES = 8,
	GEN_ASYNC = 16, GEN_CALLS = 32,
	GEN_FORALL = 64,        /* a share of the loops become foralls */
	GEN_CFG = 128,          /* function bodies of several blocks
				 * (gen_cfg.c): diamonds, loops of blocks;
				 * and selects */
	GEN_GENERATE = 256,     /* generates whose bodies read (and insert
				 * into) captured tensors */
	GEN_ALL = 511
};

/* A target profile (fuzz_profile.c; docs/fuzz.md, "Target profiles"):
 * what an outside tool refuses by design, which the generator leaves out
 * at its choice points, and the pipeline the driver gives each program. */
typedef struct GenTarget {
	const char *name;       /* "mlir-opt-22", "mlir-pipeline-19", ... */
	int version;            /* the mlir-opt it is for: 16, 19, 22 */
	bool pipeline;          /* mlir-pipeline's (else mlir's analysis) */
	bool no_copy_into;      /* One-Shot refuses a `copy ... into` it
				 * cannot do in place (RaW, read-only) */
	bool no_tensor_launch;  /* launches yield no tensor: One-Shot never
				 * bufferizes an async.execute on tensors */
} GenTarget;

typedef struct GenOpts {
	int max_ops;            /* ops in the program, all functions */
	unsigned mix;           /* GEN_* */
	bool no_copies;         /* no `copy ... into` (MLIR 19+ refuses a
				 * materialize_in_destination it cannot do
				 * in place: a tool-error, not a finding) */
	bool no_races;          /* no forall body reads an element of its
				 * shared output that another trip writes
				 * (MLIR strategies, unless --allow-races) */
	const GenTarget *target; /* NULL: none (the programs of before) */
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
	X(GC_STRIDED_INSERT, "strided insert_slice") \
	X(GC_CFG_DIAMOND, "diamond of blocks") \
	X(GC_CFG_LOOP, "loop of blocks") \
	X(GC_CFG_EXIT, "exit from a loop's body") \
	X(GC_CFG_ARG, "tensor block argument") \
	X(GC_CFG_OUTER, "write in a block, read after the join") \
	X(GC_CFG_NESTED, "blocks inside blocks") \
	X(GC_SELECT, "select") \
	X(GC_GENERATE, "generate") \
	X(GC_GENERATE_INSERT, "insert into a captured tensor in a generate") \
	X(GC_CARRY_FOR, "future carried by a for") \
	X(GC_CARRY_TWO, "for carrying two futures") \
	X(GC_CARRY_SAME, "carried future yielded unchanged") \
	X(GC_CARRY_TWICE, "carried future awaited twice in a trip") \
	X(GC_CARRY_DROP, "carried future replaced unawaited") \
	X(GC_CARRY_FUT0, "launch without results carried") \
	X(GC_CARRY_READS, "carried launch reads an iter arg or a body value") \
	X(GC_CARRY_INTO, "carried launch computes into a value") \
	X(GC_CARRY_NEVER, "carried future never awaited") \
	X(GC_CARRY_BLOCK, "future carried by a block argument") \
	X(GC_CARRY_BACK, "future on a back edge") \
	X(GC_WRITE_AFTER_BRANCH_AWAIT, "write after an await in one branch")

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

/* A generated case as the generator knows it, beside its text: what the
 * harness needs to load it without reading its YAML back (gen_load.c). */
typedef struct GenInput {
	uint64_t seed;          /* `{random: seed, min: lo, max: hi}` */
	int lo, hi;
	int rank;
	int dims[3];            /* the real dims (`shape:` of a dynamic one) */
} GenInput;

typedef struct GenCase {
	char *yaml;             /* the case file (gen_case's text) */
	size_t prog, nprog;     /* its program: bytes [prog, prog + nprog),
				 * each line indented by 2 */
	int prog_line;          /* the program's first line in the file */
	int run_line;           /* the line of its run (`  - strategy:`) */
	int ninputs;            /* params p0, p1, ...; then n */
	GenInput in[3];
	int n;
} GenCase;

/* gen_case_stats into *gc: its text and its parts; 0, -1 out of memory
 * (gc->yaml NULL). */
int gen_case_parts(uint64_t seed, const GenOpts *o, const char *strategy,
		   GenStats *st, GenCase *gc);
/* The same drawn program built in memory into *prog (the Program
 * tir_parse makes of its text, but for the places: gen_build.c; NULL
 * when the text would not parse to it, a slip of the generator's the
 * text's parse reports), its parts into *gc, its text too when `text`
 * (else gc->yaml is NULL).  0, -1 out of memory. */
int gen_case_build(uint64_t seed, const GenOpts *o, const char *strategy,
		   GenStats *st, GenCase *gc, Program **prog, bool text);
/* gc loaded as case_parse loads its text under the name `file`, without
 * YAML: the same Case, for a run of a built-in strategy (no pipeline, no
 * workdir).  0, -1 out of memory (d), 1 the program is rejected (d), 2
 * not a case it makes (an outside strategy: case_parse it); *c is set
 * (case_free it) in every case. */
int gen_load(const GenCase *gc, const char *file, const char *strategy,
	     Case **c, Diag *d);
/* The same of a program built in memory (gen_case_build without text;
 * the Case takes prog, also on failure), for a run nothing reports from:
 * no text, name or about, and the program's places are its own. */
int gen_load_built(const GenCase *gc, Program *prog, const char *file,
		   const char *strategy, Case **c, Diag *d);

/* ------------------------------------------------------ fuzz_profile.c */

/* --target NAME (NULL: the default, the profile of strategy s when it is
 * mlir or mlir-pipeline, for its tool's version; "none": no profile):
 * *out, NULL for none.  0, or -1 for a name that is no profile. */
int fuzz_target_find(const char *name, const Strategy *s,
		     const struct ExternalOpts *t, const GenTarget **out);
/* The pipeline the driver gives a program that made `made` under an
 * mlir-pipeline profile (NULL: not one). */
const char *fuzz_target_pipeline(const GenTarget *t, const GenStats *made);
/* The reason a tool refused a program by design ("raw-conflict",
 * "tensor-launch", ...: docs/fuzz.md), from its status and stderr; NULL
 * when the failure is no documented refusal (a crash never is). */
const char *fuzz_refusal(const char *status, const char *err);

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
	int stats_every;        /* a stats line on stderr every N s (0: none) */
	bool stats_file;        /* keep out/.fuzz-stats.json (fuzz_log.c) */
	uint64_t first_seed;    /* the campaign's first seed: seed, or the
				 * resumed campaign's (the stats file's) */
	GenOpts gen;
	const RunConfig *cfg;   /* every run's configuration (NULL: defaults) */
} FuzzOpts;

/* Failures with one signature (fuzz_bucket.c): how many, the smallest
 * seeds, and the repro written for the first of them. */
enum { BUCKET_SEEDS = 32 };
/* The constructs a failure's culprits sit in (loop, branch, async,
 * forall, call, cfg-loop, cfg-diamond, cfg-edge, generate). */
enum { SIG_CONSTRUCTS = 9 };
extern const char *const sig_construct_names[SIG_CONSTRUCTS];

/* The kinds of culprit decisions (free, hoist, anchor, call, block-arg,
 * yield, in-place, param). */
enum { SIG_CULPRITS = 8 };
extern const char *const sig_culprit_names[SIG_CULPRITS];

/* What a failure's bucket counts besides its key (fuzz_signature). */
typedef struct SigInfo {
	unsigned in;            /* bit k: sig_construct_names[k] */
	unsigned culprits;      /* bit k: sig_culprit_names[k], of the
				 * culprits one-shot decides otherwise */
	Verdict verdict;
	int vkind;              /* the first violation's VKind, -1 none */
} SigInfo;

typedef struct Bucket {
	char *sig;              /* "conflict culprit=call" */
	long count;
	uint64_t seeds[BUCKET_SEEDS]; /* the smallest, ascending */
	int nseeds;
	char *repro;            /* path, or NULL (nothing written) */
	/* of its failures: how many had their culprits in each construct,
	 * each verdict, each first violation kind ([VK_COUNT]: none) */
	long in[SIG_CONSTRUCTS];
	long verdicts[VERDICT_COUNT];
	long kinds[VK_COUNT + 1];
	long culprits[SIG_CULPRITS];
} Bucket;

typedef struct Buckets {
	Bucket *b;
	int n, cap;
	StrMap index;           /* sig -> index in b (zeroed: empty) */
} Buckets;

/* The constructs counted per generated program (docs/fuzz.md). */
enum { FUZZ_CONSTRUCTS = 12 };
extern const char *const fuzz_construct_names[FUZZ_CONSTRUCTS];

typedef struct FuzzStats {
	long programs, failures, skipped;
	long constructs[FUZZ_CONSTRUCTS]; /* programs holding each */
	long tool_errors;       /* failures that are an outside tool's error */
	long refused;           /* programs the tool refused by design
				 * (fuzz_refusal): not failures */
	Buckets refusals;       /* ... by reason (sig), with their seeds */
	long native[NATIVE_FAILED + 1]; /* --confirm: programs by verdict */
	long racy, miscompiles; /* MLIR strategies' differing outputs on
				 * forall programs (RunOut.race) */
	double seconds;
	double reduce_seconds;  /* of which reducing: not the campaign's
				 * clock, its rate is over the rest
				 * (fuzz_clock) */
	double first_seconds;   /* time to the first failure */
	uint64_t first_seed;    /* its seed */
	ReduceStats first_reduce; /* and its reduction */
	char **repros;          /* paths written (mem_alloc'ed) */
	int nrepros;
	Buckets buckets;        /* failures by signature, in order found */
	bool interrupted;       /* SIGINT or SIGTERM ended it */
	long unreduced;         /* failures written whole: the time was up */
	long kept_whole;        /* tool errors written whole: not a bucket's
				 * 1st, 2nd, 4th, 8th, ... (fuzz.c) */
	uint64_t next_seed;     /* the seed the campaign would run next */
	double t0, deadline;    /* its start and end (fuzz_now; 0: no --time) */
	struct json_t *messages; /* with --json: each failure's messages */
} FuzzStats;

/* Generate, run and compare; reduce and write failures.  0 none failed,
 * 1 some failed, 2 bad usage (an unwritable directory). */
int fuzz_run(const FuzzOpts *o, FuzzStats *st);
void fuzz_stats_free(FuzzStats *st);
/* fuzz_run as a command: SIGINT or SIGTERM stop it with a summary, the
 * repros' pages go to html (a directory; NULL: none), and the summary is
 * printed (JSON with o->json): the exit code (2: pages not written). */
int fuzz_command(const FuzzOpts *o, const char *html);
/* --mix: "loops,async" or a bitmask (as libFuzzer's messages print it). */
int fuzz_parse_mix(const char *s, unsigned *mix);
/* The names of mix's constructs, "loops,async" ("0" for none), in buf. */
const char *fuzz_mix_names(unsigned mix, char *buf, size_t n);
/* Whether the generator leaves out racy forall reads for strategy s
 * unless --allow-races (its outputs are MLIR's: docs/native.md). */
bool fuzz_races_judged(const Strategy *s);
/* The command that makes the campaign's program of `seed` again, byte
 * for byte ("bufdiff fuzz --strategy S --seed N --count 1 --mix ...":
 * every option the generator and the run read), appended to b. */
void fuzz_seed_command(const FuzzOpts *o, const Case *c, uint64_t seed,
		       Str *b);

/* ---------------------------------------------------------- fuzz_log.c */

#define FUZZ_STATS_FILE ".fuzz-stats.json" /* shard I of N: -I-of-N */

double fuzz_now(void);          /* CLOCK_MONOTONIC seconds */
/* Of dt seconds since the start, those st spent not reducing: what its
 * rate (programs/s) is over. */
double fuzz_clock(const FuzzStats *st, double dt);
/* Before a line on stderr: clears the progress line on a terminal. */
void fuzz_log_start(const FuzzOpts *o);
/* programs/seconds in three significant digits (never "0" for a rate
 * above 0), in buf. */
const char *fuzz_rate(long programs, double seconds, char *buf, size_t n);
const char *fuzz_rate_of(double rate, char *buf, size_t n);
/* "stats: N programs, R programs/s, F failures in B buckets, U
 * unreduced, next seed S, T s" on stderr. */
void fuzz_stats_line(const FuzzOpts *o, const FuzzStats *st);
/* o->out/.fuzz-stats.json (when o->stats_file): the campaign and its
 * figures so far (docs/fuzz.md lists the fields); 0, -1 not written. */
int fuzz_stats_write(const FuzzOpts *o, const FuzzStats *st, bool done);
/* --resume: o->seed and o->first_seed from o->out's stats file, which
 * must record the same campaign; 0, or 2 after one error line. */
int fuzz_resume(FuzzOpts *o);
/* A failure's messages (its line, blame, culprits, a tool's status and
 * stderr) appended to st->messages: 0, -1 out of memory. */
int fuzz_note_failure(FuzzStats *st, uint64_t seed, const char *sig,
		      const char *message, const RunOut *r);

/* ------------------------------------------------------- fuzz_bucket.c */

/* A failure's signature: the class of its first violation (or the
 * verdict, or the tool's status) and the kinds of the culprit decisions
 * one-shot does not take; info (may be NULL) gets the rest, which the
 * bucket counts: the constructs around the culprits, the verdict, the
 * violation kind. */
void fuzz_signature(const RunOut *r, const Case *c, char *buf, size_t n,
		    SigInfo *info);
/* Count info in bucket k. */
void bucket_note(Bucket *k, const SigInfo *info);
/* Add 1 to counts[k] for each construct k program p holds. */
void fuzz_count_constructs(const Program *p, long *counts);
/* `"constructs": {"loop": N, ...}` and the human line. */
void constructs_json(Str *b, const long *counts);
void constructs_print(FILE *f, const long *counts);
Bucket *buckets_find(const Buckets *bs, const char *sig);
Bucket *buckets_add(Buckets *bs, const char *sig, long count, bool *isnew);
void bucket_seed(Bucket *k, uint64_t seed);
void buckets_free(Buckets *bs);
void buckets_json(Str *b, const Buckets *bs);
void fuzz_json_string(Str *b, const char *s); /* a JSON string, quoted */
void buckets_print(FILE *f, const Buckets *bs);
/* `"refused": N, "refusals": [...]` and the human line (none when N is
 * 0) of the refusals by reason (docs/fuzz.md, Target profiles). */
void refusals_json(Str *b, long refused, const Buckets *rs);
void refusals_print(FILE *f, long refused, long programs, const Buckets *rs);
/* "N tool errors kept whole (...)" (none when n is 0; fuzz.c's rule). */
void fuzz_kept_whole_print(FILE *f, long n);
/* `bufdiff fuzz --merge FILE...`: the shards' --json summaries added up
 * (human, or JSON like one shard's); 0 / 1 some failed / 2 bad input. */
int fuzz_merge(int nfiles, const char *const *files, bool json);
/* The same on one text (its summaries, one a line) named `name` in
 * errors, printed on out (the libFuzzer target: fuzz_merge.c). */
int fuzz_merge_text(const char *name, const char *text, bool json, FILE *out);

/* ------------------------------------------------------------ reduce.c */

/*
 * Reduce run `run` (0-based index into c->runs) of case c, a run that fails
 * (diverge or fault): the smallest program on which the same run still
 * fails with the same culprit decision (or, when it has no culprit, the
 * same first violation kind and victim).  *yaml receives an ordinary case
 * file (mem_alloc'ed) named `name`, with `about`, the inputs, and the run
 * with its expected verdict, blame and culprits.  Returns 0, 1 when the run
 * does not fail (nothing to reduce), -1 with d on bad input or out of
 * memory.  When a signal asks the process to stop (stop.h), the reduction
 * ends at once: 2 with *yaml the smallest case that failed the same way so
 * far, without the run's results, and d "reduce: interrupted by SIGTERM"
 * (-1 with d when it stopped before it had one).
 */
int reduce_case(const RunConfig *cfg, const Case *c, int run,
		const char *name, const char *about, char **yaml,
		ReduceStats *st, Diag *d);

/* How reduce_case_as writes its case, and until when it may reduce. */
typedef struct ReduceAs {
	const char *name, *about;   /* as reduce_case's */
	bool must_agree;        /* a fuzz repro: the run states no verdict,
				 * blame or culprits (`check` fails on it
				 * until the strategy is fixed); what it showed
				 * is written under it as YAML comments */
	double deadline;        /* CLOCK_MONOTONIC seconds; 0: none */
} ReduceAs;

/* reduce_case, written as `as` says; 3 when the deadline passed before
 * the reduction ended (*yaml NULL: the caller keeps the case whole). */
int reduce_case_as(const RunConfig *cfg, const Case *c, int run,
		   const ReduceAs *as, char **yaml, ReduceStats *st, Diag *d);

#endif
