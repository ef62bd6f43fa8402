/*
 * reduce_impl.h: what the reducer's files share (not the room's face): the
 * reducer's state Red, an edit of the current text, and the calls between
 * the files.  reduce.c -> reduce_pass.c, reduce_cfg.c -> reduce_edit.c ->
 * reduce_judge.c -> reduce_text.c, no call back.
 */
#ifndef BUFDIFF_REDUCE_IMPL_H
#define BUFDIFF_REDUCE_IMPL_H

#include "fuzz.h"
#include "cases.h"
#include "harness.h"

/* Smaller is better: ops first, then tensor elements, then text. */
typedef struct Metric {
	int nops;
	int64_t elems;
	size_t len;
} Metric;

typedef struct Red {
	const RunConfig *cfg;   /* every candidate's runs; its reduce_budget */
	int budget;             /* candidates at most */
	const Case *orig;
	const Run *run;
	Diag *d;
	ReduceStats *st;
	/* the failure's signature */
	Verdict verdict;
	char **culprits;        /* "@f/y:x" */
	int nculprits;
	int vkind;              /* the first violation's kind, or -1 */
	int reader;             /* ... the kind of the op that saw it, or -1 */
	char *victim;           /* ... its victim, "@f/x", or NULL */
	char *tool;             /* a tool-error: its status up to the first
				 * ':' ("exit 1", "answer"), else NULL */
	/* the current (smallest) case */
	Case *c;
	char *text;             /* canonical program text of c->prog */
	char *inputs;           /* "  x: [...]\n" lines */
	Metric m;
	/* text as lines, and where each op and function sits */
	char *linebuf;
	char **lines;
	int nlines;
	Op **ops;               /* by Op.seq */
	int *opline, *opend;    /* by Op.seq: first line, one past the last */
	int *fline, *fend;      /* by function index */
	Cache cache;
	int fresh;              /* counter for fresh names */
	int64_t trip_cap;       /* candidates' loop-trip limit, 0: the case's */
	double deadline;        /* CLOCK_MONOTONIC seconds; 0: none */
	bool late;              /* the deadline passed: no more candidates */
	/* red_collect: candidates gathered, not judged, to ask the tool
	 * about in one batch (spec non-NULL while gathering) */
	Case **spec;
	int nspec, capspec;
} Red;

/* `%from` -> `to` (a value "%a" or a literal), whole tokens only. */
typedef struct Sub {
	char *from, *to;
} Sub;

/* An edit of the current text: lines dropped or replaced, substitutions
 * everywhere.  `oom` sticks. */
typedef struct Edit {
	bool *drop;
	char **repl;
	Sub *subs;
	int nsubs, capsubs;
	bool oom;
} Edit;

static inline int
red_oom(Red *r)
{
	return diag_set(r->d, (Loc){0, 0}, "out of memory");
}

/* ------------------------------------------------------ reduce_pass.c */

/* Each pass: 1 when it accepted a candidate, 0 when not, -1 on error. */
int red_pass_expose(Red *r);
int red_pass_structural(Red *r);
int red_pass_ddmin(Red *r);
int red_pass_params(Red *r);
int red_pass_shapes(Red *r);

/* ------------------------------------------------------- reduce_cfg.c */

/* Blocks and edges of function bodies with several blocks: merges,
 * cond_br -> br, block arguments replaced, edges retargeted. */
int red_pass_cfg(Red *r);

/* ------------------------------------------------------ reduce_edit.c */

int edit_init(Red *r, Edit *e);
void edit_free(const Red *r, Edit *e);
void edit_sub(Edit *e, const char *from, const char *to);
void edit_drop(Edit *e, int from, int to);
void edit_repl(Edit *e, int l, char *text);
/* s with every `%name` that has a substitution replaced, into b. */
void edit_put_subst(Str *b, const char *s, const Sub *subs, int nsubs);
char *edit_apply(const Red *r, const Edit *e);
int edit_try(Red *r, Edit *e);          /* try the edit (and free it) */

/* ----------------------------------------------------- reduce_judge.c */

/* A rejected candidate (0), unless the reason was out of memory (-1). */
int red_reject(Red *r, const Diag *why);
Metric red_metric(const Program *p, size_t len);
int red_evaluate(Red *r, const Case *c, int run, RunOut *o, Diag *why);
bool red_failing(const RunOut *o);
int red_set_signature(Red *r, const RunOut *o);
int red_adopt(Red *r, Case *c, char *text, const char *inputs, Metric m);
int red_judge(Red *r, const char *yaml, Case **out);
/* 1 accepted (now current), 0 rejected, -1 out of memory. */
int red_try_candidate(Red *r, const char *prog, const char *inputs);
/* Whether the deadline has passed (then r->late sticks). */
bool red_late(Red *r);
/* Speculation for batching tools (external_batches): between
 * red_collect_begin and red_collect_end, red_try_candidate gathers each
 * candidate it would judge (within the budget) and rejects it; the end
 * asks the tool about them all in one batch (external_prefill), so that
 * judging them after finds their answers cached.  red_collect_begin is
 * false (nothing to gather) for other strategies. */
bool red_collect_begin(Red *r);
void red_collect_end(Red *r);

/* ------------------------------------------------------ reduce_text.c */

char *red_case_text(const Red *r, const char *name, const char *about,
		    const char *prog, const char *inputs, const Program *p,
		    const RunOut *o, int nblame);
/* The same case in the "must agree" form: the run without results, what
 * run o showed written under it as YAML comments (a fuzz repro). */
char *red_case_seen(const Red *r, const char *name, const char *about,
		    const RunOut *o, int nblame);
void red_index_free(Red *r);
int red_index_lines(Red *r);

#endif
