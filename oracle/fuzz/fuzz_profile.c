/*
 * fuzz_profile.c: target profiles (docs/fuzz.md, "Target profiles").  A
 * profile says what an outside tool refuses by design: the generator
 * leaves it out (GenTarget's flags, read at its choice points), the
 * driver gives each program a pipeline the tool accepts it under, and
 * what the tool still refuses is counted by reason, apart from the
 * findings (a crash stays a finding).
 */
#include <string.h>

#include "fuzz.h"
#include "mlir.h"

static const GenTarget targets[] = {
	/* the analysis (mlir): a `copy ... into` it cannot do in place is
	 * its only refusal; it analyses launches on tensors */
	{"mlir-opt-16", 16, false, true, false},
	{"mlir-opt-19", 19, false, true, false},
	{"mlir-opt-22", 22, false, true, false},
	/* the pipeline: One-Shot bufferizes no async.execute on tensors */
	{"mlir-pipeline-16", 16, true, true, true},
	{"mlir-pipeline-19", 19, true, true, true},
	{"mlir-pipeline-22", 22, true, true, true},
};

enum { NTARGETS = sizeof targets / sizeof *targets };

static const GenTarget *
target_of(bool pipeline, int version)
{
	for (int i = 0; i < NTARGETS; i++)
		if (targets[i].pipeline == pipeline && targets[i].version == version)
			return &targets[i];
	return NULL;
}

int
fuzz_target_find(const char *name, const Strategy *s, const ExternalOpts *t,
		 const GenTarget **out)
{
	int v = s ? external_mlir_version(t, s) : 22;

	*out = NULL;
	if (!name) /* the default: the strategy's own profile, if any */
		name = !s ? "none" : s->kind == STRAT_MLIR ? "mlir" :
		       s->kind == STRAT_PIPELINE ? "mlir-pipeline" : "none";
	if (!strcmp(name, "none"))
		return 0;
	if (!strcmp(name, "mlir") || !strcmp(name, "mlir-pipeline")) {
		*out = target_of(name[4] == '-', v);
		return *out ? 0 : -1;
	}
	for (int i = 0; i < NTARGETS; i++)
		if (!strcmp(name, targets[i].name))
			*out = &targets[i];
	return *out ? 0 : -1;
}

/* ---- the pipeline of each program */

#define ONE_SHOT "one-shot-bufferize{bufferize-function-boundaries "
#define LOOPS ONE_SHOT "allow-return-allocs-from-loops}"
#define OLD16 "empty-tensor-to-alloc-tensor," ONE_SHOT "allow-return-allocs}"

/* Per version: the pipeline of most programs, of those that launch (the
 * deallocation pipeline refuses async.await: "unknown memory side
 * effects"), and of those with a loop of blocks (every deallocation
 * pass refuses them: "Only structured control-flow loops"). */
typedef struct Pipes {
	int version;
	const char *plain, *launches, *cfg_loops;
} Pipes;

static const Pipes pipes[] = {
	/* no buffer-deallocation-pipeline; the old pass takes launches */
	{16, OLD16 ",func.func(buffer-deallocation)",
	 OLD16 ",func.func(buffer-deallocation)", OLD16},
	/* only the ownership-based deallocation (19's old pass takes
	 * launches but crashes on them and frees returned buffers: bugs of
	 * a pass removed since, not asked for): launches go without */
	{19, LOOPS ",buffer-deallocation-pipeline", LOOPS, LOOPS},
	{22, LOOPS ",buffer-deallocation-pipeline", LOOPS, LOOPS},
};

const char *
fuzz_target_pipeline(const GenTarget *t, const GenStats *made)
{
	if (!t || !t->pipeline)
		return NULL;
	for (size_t i = 0; i < sizeof pipes / sizeof *pipes; i++) {
		const Pipes *p = &pipes[i];
		if (p->version != t->version)
			continue;
		if (made->n[GC_CFG_LOOP])
			return p->cfg_loops;
		return made->n[GC_ASYNC] ? p->launches : p->plain;
	}
	return NULL;
}

/* ---- what the tool refuses by design */

static const struct {
	const char *reason, *says;
} refusals[] = {
	{"raw-conflict", "cannot avoid RaW conflict"},
	{"read-only-write", "would write to read-only buffer"},
	{"tensor-launch", "op was not bufferized"},
	{"loop-yield-not-equivalent", "is not equivalent to the corresponding "
				      "iter bbArg"},
	{"unknown-side-effects", "ops with unknown memory side effects are not "
				 "supported"},
	{"cfg-loop", "Only structured control-flow loops are supported"},
};

/* A crash is a finding, whatever it printed before. */
static bool
crashed(const char *status, const char *err)
{
	return strstr(status, "signal") || strstr(status, "timed out") ||
	       (err && (strstr(err, "LLVM ERROR") || strstr(err, "Stack dump") ||
			strstr(err, "Assertion") || strstr(err, "PLEASE submit")));
}

const char *
fuzz_refusal(const char *status, const char *err)
{
	const char *e = err ? strstr(err, "error: ") : NULL;
	char first[512]; /* the first error's line: the cause */

	if (!e || crashed(status, err) || strncmp(status, "exit ", 5))
		return NULL;
	fmt_snprintf(first, sizeof first, "%.*s", (int)strcspn(e, "\n"), e);
	for (size_t i = 0; i < sizeof refusals / sizeof *refusals; i++)
		if (strstr(first, refusals[i].says))
			return refusals[i].reason;
	return NULL;
}
