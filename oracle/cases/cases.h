/*
 * cases.h: oracle/cases/, a case file -> Case.  Table of contents in
 * data-flow order:
 *
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
 *
 * Every line and column here is a 1-based position in the .yaml file.
 * Uses interp/ and bufferizer/ only (strategy specs parse in
 * bufferizer/strategy.c).
 */
#ifndef BUFDIFF_CASES_H
#define BUFDIFF_CASES_H

#include <stdio.h>
#include <yaml.h>

#include "ir.h"
#include "strmap.h"
#include "bufferize.h"

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
	const char *file;       /* the case file's path (trust.c); NULL: none */
	unsigned flags;         /* case_parse's CASE_* flags */
	/* the values of `named`'s program by name (runs.c, made on the
	 * first lookup): "name" and "@func/name" -> index in its values */
	const Program *named;
	StrMap names;
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
	const char *words;      /* `args R:share,copy` / `A:share,copy`: the words */
	bool barg;              /* result is a block argument (A:share,...) */
	/* culprits only: a lifetime choice, `free V:after R`, `hoist V` or
	 * `anchor E:R` as written (result: its first value) */
	const char *life;
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
	PlanEdges *edges;       /* `blockargs`, then `yields` (n 1) */
	int nedges;
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
	const char *pipeline;   /* `pipeline: P` (mlir-pipeline strategies
				 * only): the pass pipeline, as
				 * --mlir-pipeline P; NULL: absent */
	const char *limit;      /* `limit: MESSAGE`: the run stops at a
				 * resource limit whose message holds it
				 * (no verdict); NULL: absent */
	int race;               /* `race:` 1 racy-read, -1 miscompile, 0
				 * absent (harness.h's race_order) */
	const char *workdir;    /* where the command the run's strategy names
				 * runs: the case file's directory joined with
				 * `workdir:`; NULL: no command, or the current
				 * directory */
} Run;

struct Case;
/* The first byte of pass pipeline p that cannot be part of one (bufdiff
 * passes it as one argv element, never through a shell), or NULL: p is
 * letters, digits, spaces and _ - . , = ( ) { } : + / " @ * [ ]. */
const char *pipeline_bad_char(const char *p);
/* Parse and validate the `runs:` list into c->runs. */
void runs_load(Loader *L, struct Case *c, const yaml_node_t *n);
/* The plan keys of a run or a decisions document, in this order. */
enum { PK_PLAN, PK_FREE, PK_ANCHOR, PK_HOIST, PK_ARGS, PK_BLOCKARGS, PK_YIELDS,
       PK_COUNT };
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
/* Apply run r's plan and frees to ds (a bufferizer Plan); -1 with err for
 * an illegal plan. */
int run_plan_apply(const Run *r, Decisions *ds, Diag *err);

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
	/* an imported case (docs/format.md `source:`): the .mlir file and,
	 * per .yaml line (index), the place `// loc(L:C)` names in it */
	const char *source;
	Loc *srclocs;
	const char **srcfiles;  /* per line: `loc("FILE":L:C)`'s FILE, or
				 * NULL (source's) */
	int nsrclocs;
	bool from_mlir;         /* made from a .mlir by the importer: its
				 * .yaml lines are in no file of the user's */
} Case;

enum {
	CASE_PROGRAM_ONLY = 1,  /* stop after parsing the program */
	/* the text is bufdiff's own (a reduction candidate, a generated
	 * program): the commands in its runs were allowed where they came
	 * from (trust.c) */
	CASE_TRUSTED = 2
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
int case_parse(const char *file, const char *text, size_t len,
	       unsigned flags, Case **out, Diag *d);
void case_free(Case *c);        /* NULL ok */
/* The user's place of .yaml line `line`, in *file (c->source, or the
 * file its `loc("FILE":L:C)` names); {0, 0}: none (*file untouched). */
Loc case_source_loc(const Case *c, int line, const char **file);
/* FILE.mlir or FILE.mlir#N (a -split-input-file section): case_load
 * imports it through the importer the CLI sets (import_cli.c): *text the
 * case's text, *src FILE's (mem_alloc'ed, *src NULL when unread); 0, or
 * -1 with d located in *dfile. */
typedef int (*CaseImporter)(const char *path, char **text, char **src,
			    Diag *d, const char **dfile);
void case_set_importer(CaseImporter fn);
bool case_is_mlir(const char *path);

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
 * with d: input_read with the plan documents' limit. */
char *plandoc_read(const char *path, size_t *len, Diag *d);
enum { MAX_PLAN_BYTES = 64 << 20 };

/* -------------------------------------------------------------- input.c */

/* The whole of a regular file (or `-`, stdin), mem_alloc'ed and
 * NUL-terminated, *len bytes, at most max; else NULL with d: a FIFO,
 * device, socket or directory is refused without blocking, a longer file
 * is "larger than MAX bytes, the limit for WHAT". */
char *input_read(const char *path, size_t max, const char *what,
		 size_t *len, Diag *d);

/* ------------------------------------------------------------- output.c */

/* An output file being written: a temporary beside it, renamed over it by
 * output_close (output.c says when it is written in place). */
typedef struct Output {
	FILE *f;
	const char *path;       /* NULL: stdout */
	char tmp[4096];         /* the temporary's name; "" when none */
} Output;

/* Open path for writing (NULL: stdout): the FILE, or NULL with errno. */
FILE *output_open(Output *o, const char *path);
/* Flush and check every write, close, rename into place: 0, or -1 with
 * errno (the temporary removed, path untouched).  stdout stays open. */
int output_close(Output *o);
/* The whole of text to path (NULL: stdout) the same way: 0 or -1, errno. */
int output_write(const char *path, const char *text, size_t len);

/* -------------------------------------------------------------- trust.c */

/* The trust boundary (docs/trust.md): the commands and tool names a case
 * file names run only under --allow-exec (trust_all) or --trust DIR
 * (trust_dir: DIR's real path; -1 with why when it is no directory). */
void trust_all(void);
int trust_dir(const char *dir, char *why, size_t n);
/* Whether a case file at `file` may run its commands. */
bool trust_file(const char *file);
/* A repro's yaml to path (NULL: stdout) by output_write, after comment
 * lines saying how to allow its command when s names one (fuzz, reduce):
 * 0 or -1 with errno. */
int trust_write_repro(const char *path, const char *yaml, const Strategy *s);

#endif
