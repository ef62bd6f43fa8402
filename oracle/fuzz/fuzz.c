/*
 * fuzz.c: generate, run, compare, reduce.  Seeds are split between shards
 * (seed + k*nshards + shard), so N machines never repeat each other and
 * the same seed gives the same program, schedule and verdict anywhere.
 * Failures are bucketed by signature (fuzz_bucket.c): the first of each
 * bucket is reduced and written, the others are counted with their seeds.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <jansson.h>

#include "blas.h"
#include "escape.h"
#include "fuzz.h"
#include "cases.h"
#include "mlir.h"
#include "harness.h"
#include "report.h"
#include "stop.h"

void
fuzz_stats_free(FuzzStats *st)
{
	for (int i = 0; i < st->nrepros; i++)
		mem_free(st->repros[i]);
	mem_free(st->repros);
	buckets_free(&st->buckets);
	buckets_free(&st->refusals);
	json_decref(st->messages);
	memset(st, 0, sizeof *st);
}

static int
write_file(const char *path, const char *text)
{
	/* a full disk leaves no 0-byte repro: nothing, and an error */
	return output_write(path, text, strlen(text));
}

static void
add_repro(FuzzStats *st, const char *path)
{
	char **n = mem_realloc(st->repros, (size_t)(st->nrepros + 1) * sizeof *n);

	if (!n)
		return;
	st->repros = n;
	if ((n[st->nrepros] = mem_strdup(path)))
		st->nrepros++;
}

double
fuzz_clock(const FuzzStats *st, double dt)
{
	return dt - st->reduce_seconds > 0 ? dt - st->reduce_seconds : 0;
}

/* The name a generated case is loaded under: locations name it, which is
 * how a batch tool's error names the program that failed. */
static void
fuzz_file(uint64_t seed, char *buf, size_t n)
{
	fmt_snprintf(buf, n, "seed-%llu.yaml", (unsigned long long)seed);
}

/* The outside tools' options of the campaign (NULL: the defaults). */
static const ExternalOpts *
tool_opts(const FuzzOpts *o)
{
	return o->cfg ? o->cfg->tool : NULL;
}

/* The pipeline of a program of an mlir-pipeline campaign that made
 * `made`: --mlir-pipeline P, else its target profile's, or NULL (the
 * default).  Its case pins it in its run (`pipeline: P`), so that a
 * repro runs what the campaign ran. */
static const char *
fuzz_pipeline(const FuzzOpts *o, const GenStats *made)
{
	const ExternalOpts *t = tool_opts(o);

	if (o->strategy->kind != STRAT_PIPELINE)
		return NULL;
	if (t && t->mlir_pipeline && *t->mlir_pipeline)
		return t->mlir_pipeline;
	return fuzz_target_pipeline(o->gen.target, made);
}

/* " --target NAME --mlir-pipeline 'P'" of a case's run (each when
 * there is one), to replay it. */
static void
pipeline_flag(const FuzzOpts *o, const Case *c, char *buf, size_t n)
{
	const char *p = c && c->nruns ? c->runs[0].pipeline : NULL;
	const GenTarget *t = o->gen.target;

	Str b = {0};

	if (t)
		str_printf(&b, " --target %s", t->name);
	if (p) {
		str_puts(&b, " --mlir-pipeline ");
		sh_word(&b, p);
	}
	fmt_snprintf(buf, n, "%s", b.s && !b.oom ? b.s : "");
	str_free(&b);
}

/* The tool options of case c's run: the campaign's, with the run's
 * pipeline (in *buf). */
static const ExternalOpts *
case_tool_opts(const FuzzOpts *o, const Case *c, ExternalOpts *buf)
{
	*buf = tool_opts(o) ? *tool_opts(o) : external_opts_default;
	if (c && c->nruns && c->runs[0].pipeline)
		buf->mlir_pipeline = c->runs[0].pipeline;
	return buf;
}

/* Beside an outside strategy's repro DIR/B.yaml: B.mlir, its export, and
 * B.sh, the tool's command on it, ready for an upstream bug report. */
static void
keep_bridge(const FuzzOpts *o, const char *path, const char *yaml)
{
	size_t n = strlen(path) - strlen(".yaml");
	char base[4096];
	Case *c = NULL;
	Str m = {0}, sh = {0}, about = {0};
	char *mt = NULL, *st = NULL, flag[1200], file[256];
	ExternalOpts topts;
	Diag d;

	fmt_snprintf(base, sizeof base, "%.*s", (int)n, path);
	if (case_parse(path, yaml, strlen(yaml), CASE_TRUSTED, &c, &d) ||
	    mlir_export(c->prog, path, mlir_version(external_mlir_version(
			tool_opts(o), o->strategy)), &m, NULL, NULL, &d)) {
		case_free(c);
		str_free(&m);
		return;
	}
	pipeline_flag(o, c, flag, sizeof flag);
	/* the comment is one line whatever the name and the strategy hold */
	str_printf(&about, "%s, found by bufdiff fuzz --strategy ", c->name);
	sh_word(&about, o->strategy->name);
	str_puts(&about, flag);
	str_puts(&sh, "#!/bin/sh\n# ");
	term_escape(&sh, about.s ? about.s : "", about.len, false);
	str_free(&about);
	str_puts(&sh, "\ncd \"$(dirname \"$0\")\" && ");
	external_stage(case_tool_opts(o, c, &topts), o->strategy, &sh);
	fmt_snprintf(file, sizeof file, "%s.mlir", strrchr(base, '/') ?
		     strrchr(base, '/') + 1 : base);
	str_puts(&sh, " < ");
	sh_word(&sh, file);
	str_puts(&sh, "\n");
	mt = str_take(&m);
	st = str_take(&sh);
	if (mt && st) {
		char p[4200];
		fmt_snprintf(p, sizeof p, "%s.mlir", base);
		if (write_file(p, mt))
			fprintf(stderr, "bufdiff: cannot write %s\n", p);
		fmt_snprintf(p, sizeof p, "%s.sh", base);
		if (write_file(p, st))
			fprintf(stderr, "bufdiff: cannot write %s\n", p);
	}
	mem_free(mt);
	mem_free(st);
	case_free(c);
}

/* The reducer's configuration: the campaign's without --confirm (a
 * native run per candidate would be the reduction's whole cost; the
 * reduced repro keeps the verdict, `run --confirm` judges it again). */
static const RunConfig *
reduce_cfg(const FuzzOpts *o, RunConfig *buf)
{
	if (!o->cfg || !o->cfg->confirm)
		return o->cfg;
	*buf = *o->cfg;
	buf->confirm = false;
	return buf;
}

/* The repro's `about:`: the command that makes its program again. */
static char *
repro_about(const FuzzOpts *o, const Case *c, uint64_t seed)
{
	Str b = {0};

	str_puts(&b, "found by ");
	fuzz_seed_command(o, c, seed, &b);
	str_puts(&b, ".");
	return str_take(&b);
}

/* The generated case's text with `about:` (its second line) replaced:
 * an unreduced repro says how to make it again, like a reduced one. */
static char *
with_about(const char *yaml, const char *about)
{
	const char *a = strstr(yaml, "\nabout: ");
	Str b = {0};

	if (!a || !about)
		return mem_strdup(yaml);
	str_put(&b, yaml, (size_t)(a - yaml));
	str_puts(&b, "\nabout: ");
	yaml_scalar(&b, about);
	str_puts(&b, strchr(a + 1, '\n') ? strchr(a + 1, '\n') : "\n");
	return str_take(&b);
}

/* Reduce case c into *out (NULL: keep it whole) in the "must agree" form,
 * within the campaign's time: a failure found when the time is up, or
 * whose reduction the deadline cuts short, is kept whole (unreduced). */
static void
reduce_repro(const FuzzOpts *o, FuzzStats *st, const Case *c, uint64_t seed,
	     const char *about, char **out)
{
	char name[128];
	RunConfig quiet;
	ReduceStats rs = {0};
	ReduceAs as = {name, about, true, st->deadline};
	Diag d;
	int rrc = 3;

	*out = NULL;
	fmt_snprintf(name, sizeof name, "fuzz/%s-%llu",
		     strategy_label(o->strategy), (unsigned long long)seed);
	if (!st->deadline || fuzz_now() < st->deadline) {
		double t = fuzz_now();
		rrc = reduce_case_as(reduce_cfg(o, &quiet), c, 0, &as, out,
				     &rs, &d);
		st->reduce_seconds += fuzz_now() - t;
	}
	if (rrc == 3)
		st->unreduced++;
	if (!o->quiet)
		fuzz_log_start(o);
	if (rrc == 0 && !o->quiet)
		fprintf(stderr, "seed %llu: reduced %d -> %d ops (%d candidates, "
			"%.2fs)\n", (unsigned long long)seed, rs.ops_before,
			rs.ops_after, rs.candidates, rs.seconds);
	else if (rrc == 2 && !o->quiet) /* a signal: the smallest so far */
		fprintf(stderr, "seed %llu: %s at %d -> %d ops\n",
			(unsigned long long)seed, d.msg, rs.ops_before,
			rs.ops_after);
	else if (rrc == 3 && !o->quiet)
		fprintf(stderr, "seed %llu: the time is up: kept unreduced\n",
			(unsigned long long)seed);
	if (st->failures == 0)
		st->first_reduce = rs;
}

/* A failing program: counted in its signature's bucket; the first of a
 * bucket (and every tool error: FORMAT keeps each program a tool failed
 * on) is written out, reduced unless --no-reduce.  Of a bucket's tool
 * errors only the 1st, 2nd, 4th, 8th, ... are reduced, the others written
 * whole: MLIR-22 crashed on one generated program in 500 or so, the same
 * way each time, and reducing each crash (1.5-2.5 s, a runaway recursion
 * per candidate that still crashes) took two thirds of a 60 s campaign. */
static bool
reduced_in_bucket(const Bucket *k)
{
	return !k || (k->count & (k->count - 1)) == 0;
}

static void
keep_failure(const FuzzOpts *o, FuzzStats *st, const Case *c, uint64_t seed,
	     const char *yaml, const char *sig, const SigInfo *info,
	     bool tool_error)
{
	char path[4096], label[64];
	char *reduced = NULL, *about, *whole = NULL;
	bool isnew;
	Bucket *k = buckets_add(&st->buckets, sig, 1, &isnew);

	if (k) {
		bucket_seed(k, seed);
		bucket_note(k, info);
	}
	if (!isnew && !tool_error)
		return;
	about = repro_about(o, c, seed);
	if (o->reduce && reduced_in_bucket(k))
		reduce_repro(o, st, c, seed, about, &reduced);
	else if (o->reduce) {
		st->kept_whole++;
		if (!o->quiet) {
			fuzz_log_start(o);
			fprintf(stderr, "seed %llu: kept whole (tool error %ld "
				"of its bucket)\n", (unsigned long long)seed,
				k->count);
		}
	}
	if (!reduced)
		yaml = whole = with_about(yaml, about);
	mem_free(about);
	if (o->out) {
		const char *l = strategy_label(o->strategy);
		fmt_snprintf(path, sizeof path, "%s/%s-%llu.yaml", o->out,
			 safe_file_name(l, strlen(l), label, sizeof label),
			 (unsigned long long)seed);
		if (o->lazy_out && mkdir(o->out, 0777) && errno != EEXIST)
			fprintf(stderr, "bufdiff: cannot create %s: %s\n", o->out,
				strerror(errno));
		else if (!yaml || trust_write_repro(path, reduced ? reduced : yaml,
						    o->strategy))
			fprintf(stderr, "bufdiff: cannot write %s: %s\n", path,
				strerror(errno));
		else {
			add_repro(st, path);
			if (k && !k->repro)
				k->repro = mem_strdup(path);
			if (!o->quiet)
				fuzz_log_start(o);
			if (!o->quiet)
				fprintf(stderr, "seed %llu: new bucket, repro "
					"written to %s\n", (unsigned long long)seed,
					path);
		}
		if ((o->strategy->flags & STRAT_READS_MLIR) && (reduced || yaml))
			keep_bridge(o, path, reduced ? reduced : yaml);
	}
	mem_free(reduced);
	mem_free(whole);
}

/* The case generated from seed, loaded under its seed's name: 0, -1 out
 * of memory, 1 the verifier rejected it (d).  *yaml and *c are set in
 * every case (NULL when not made). */
static int
load_seed(const FuzzOpts *o, uint64_t seed, char **yaml, Case **c, Diag *d)
{
	char file[64];
	GenStats made = {0};
	GenCase gc;
	const char *p;
	int rc;

	*c = NULL;
	if (gen_case_parts(seed, &o->gen, o->strategy->name, &made, &gc))
		return -1;
	*yaml = gc.yaml;
	fuzz_file(seed, file, sizeof file);
	/* a built-in's case in memory: its text is read by nobody unless
	 * it is written (a repro) */
	if (o->strategy->kind == STRAT_BUILTIN &&
	    (rc = gen_load(&gc, file, o->strategy->name, c, d)) != 2)
		return rc;
	case_free(*c);
	*c = NULL;
	if ((p = fuzz_pipeline(o, &made))) { /* the run: the yaml's last entry */
		Str b = {0};
		str_puts(&b, *yaml);
		str_puts(&b, "    pipeline: ");
		yaml_scalar(&b, p);
		str_puts(&b, "\n");
		mem_free(*yaml);
		if (!(*yaml = str_take(&b)))
			return -1;
	}
	/* its run is --strategy S: the user's own (trust.c) */
	return case_parse(file, *yaml, strlen(*yaml), CASE_TRUSTED, c, d) ? 1 : 0;
}

/* ": MESSAGE" of the first `error:` line of a tool's stderr (its class
 * in a campaign's log), or "". */
static const char *
first_error(const char *err)
{
	static char line[200];
	const char *p = err ? strstr(err, "error: ") : NULL;

	if (!p)
		return "";
	fmt_snprintf(line, sizeof line, ": %.*s", (int)strcspn(p + 7, "\n"), p + 7);
	return line;
}

/* A failure's class, one line, so a campaign's log can be counted by
 * class without running each repro again: a tool's error with its status
 * and first error line; an error (a memref program the executor does not
 * take) with its message; else the verdict and the first violation's
 * kind.  Into buf (the strings escaped for a terminal). */
static const char *
failure_text(const RunOut *r, char *buf, size_t n)
{
	if (r->verdict == VERDICT_TOOL_ERROR)
		term_snprintf(buf, n, "tool-error: %s%s", r->tool.status,
			      first_error(r->tool.err));
	else if (r->native.verdict == NATIVE_MISSED)
		fmt_snprintf(buf, n, "native missed: MLIR's own output differs, "
			     "the instrumented run agreed");
	else if (r->status == STATUS_BAD)
		term_snprintf(buf, n, "error: %s", r->err.msg);
	else if (r->ex.nviols)
		fmt_snprintf(buf, n, "%s: %s", verdict_names[r->verdict],
			     vkind_names[r->ex.viols[0].kind]);
	else
		term_snprintf(buf, n, "%s%s%s", verdict_names[r->verdict],
			      r->why[0] ? ": " : "", r->why);
	return buf;
}

/* A tool-error the tool gives by design (fuzz_refusal): counted by its
 * reason, with its seed, apart from the failures. */
static bool
refused(const FuzzOpts *o, FuzzStats *st, uint64_t seed, const RunOut *r)
{
	const char *why = fuzz_refusal(r->tool.status, r->tool.err);
	Bucket *k;
	bool isnew;

	if (!why)
		return false;
	st->refused++;
	if ((k = buckets_add(&st->refusals, why, 1, &isnew)))
		bucket_seed(k, seed);
	if (!o->quiet)
		fuzz_log_start(o);
	if (!o->quiet)
		term_fprintf(stderr, "seed %llu: refused (%s)%s\n",
			(unsigned long long)seed, why, first_error(r->tool.err));
	return true;
}

/* The bucket's signature, with what native execution (--confirm) and the
 * race question said of it: a confirmed finding and a latent one, a
 * racy read and a miscompile are different flaws. */
static void
judged_signature(const RunOut *r, const Case *c, char *buf, size_t n,
		 SigInfo *info)
{
	size_t len;

	fuzz_signature(r, c, buf, n, info);
	len = strlen(buf);
	if (r->native.verdict != NATIVE_NONE && r->native.verdict != NATIVE_AGREE)
		fmt_snprintf(buf + len, n - len, "; native %s",
			     native_verdict_names[r->native.verdict]);
	len = strlen(buf);
	if (r->race)
		fmt_snprintf(buf + len, n - len, "; %s", r->race > 0 ?
			     "racy-read" : "miscompile");
}

static int fuzz_one_text(const FuzzOpts *o, FuzzStats *st, uint64_t seed,
			 char *yaml, Case *c);

/* A built-in's program built in memory and run without its text (most
 * programs agree, and nobody reads the text of those): 0 when it agrees,
 * counted as fuzz_one_text counts it; 1 when anything else happened,
 * nothing counted (fuzz_one_text makes it again from its text, which its
 * report cites); -1 out of memory. */
static int
fuzz_in_memory(const FuzzOpts *o, FuzzStats *st, uint64_t seed)
{
	GenCase gc;
	Program *p;
	Case *c = NULL;
	Tensor **ref = NULL;
	int nref = 0, rc = 1, rr;
	char file[64];
	RunOut r;
	Diag d;

	if (gen_case_build(seed, &o->gen, o->strategy->name, NULL, &gc, &p,
			   false))
		return -1;
	if (!p)
		return 1; /* its text is rejected: that path reports it */
	fuzz_file(seed, file, sizeof file);
	if (gen_load_built(&gc, p, file, o->strategy->name, &c, &d))
		goto out;
	if ((rr = ref_run(c->prog, c->entry, c->inputs, &c->lim, &ref, &nref,
			  &d)) < 0)
		goto out;
	c->ref_failed = rr == 1 ? prog_op_at(c->prog, OP_ASSERT, d.loc) : NULL;
	diff_run(o->cfg, c, &c->runs[0], NULL, ref, nref, &r);
	if (r.verdict == VERDICT_AGREE && r.status != STATUS_BAD &&
	    r.native.verdict != NATIVE_MISSED && !r.limited) {
		fuzz_count_constructs(c->prog, st->constructs);
		st->native[r.native.verdict]++;
		st->racy += r.race > 0;
		st->miscompiles += r.race < 0;
		rc = 0;
	}
	runout_clear(&r);
out:
	for (int i = 0; i < nref; i++)
		tensor_free(ref[i]);
	mem_free(ref);
	case_free(c);
	return rc;
}

/* One seed: 1 failed, 0 agreed, -1 skipped (the reference rejected it).
 * yaml and c: the seed's case when a batch made it already (taken over),
 * else NULL. */
static int
fuzz_one(const FuzzOpts *o, FuzzStats *st, uint64_t seed, char *yaml, Case *c)
{
	int rc;

	if (!yaml && o->strategy->kind == STRAT_BUILTIN &&
	    (rc = fuzz_in_memory(o, st, seed)) <= 0)
		return rc;
	return fuzz_one_text(o, st, seed, yaml, c);
}

/* fuzz_one from the seed's text (made here when yaml is NULL). */
static int
fuzz_one_text(const FuzzOpts *o, FuzzStats *st, uint64_t seed, char *yaml,
	      Case *c)
{
	Tensor **ref = NULL;
	int nref = 0, rc = -1, lrc = 0, rr;
	char sig[512], line[1024];
	SigInfo info = {0, 0, VERDICT_NONE, -1};
	bool tool;
	RunOut r;
	Diag d;

	if (!yaml)
		lrc = load_seed(o, seed, &yaml, &c, &d);
	if (lrc < 0)
		goto out;
	if (lrc > 0) {
		/* the generator made something the verifier rejects: a bug
		 * of bufdiff's own, reported like a failure */
		bool isnew;
		Bucket *k = buckets_add(&st->buckets, "generator: program "
					"rejected", 1, &isnew);
		fuzz_log_start(o);
		fprintf(stderr, "bufdiff fuzz: seed %llu: generated program "
			"rejected: %d:%d: %s\n", (unsigned long long)seed,
			d.loc.line, d.loc.col, d.msg);
		if (k)
			bucket_seed(k, seed);
		rc = 1;
		goto out;
	}
	fuzz_count_constructs(c->prog, st->constructs);
	c->ref_failed = NULL;
	if ((rr = ref_run(c->prog, c->entry, c->inputs, &c->lim, &ref, &nref,
			  &d)) < 0)
		goto out; /* e.g. a limit: not a program we can judge */
	if (rr == 1)
		c->ref_failed = prog_op_at(c->prog, OP_ASSERT, d.loc);
	diff_run(o->cfg, c, &c->runs[0], NULL, ref, nref, &r);
	/* a real miscompile the instrumented run missed is bufdiff's own
	 * failure (issue 23 item 2) */
	rc = r.verdict != VERDICT_AGREE || r.status == STATUS_BAD ||
	     r.native.verdict == NATIVE_MISSED;
	if (r.limited) { /* stopped at a limit: no verdict, as the ref's */
		runout_clear(&r);
		rc = -1;
		goto out;
	}
	st->native[r.native.verdict]++;
	st->racy += r.race > 0;
	st->miscompiles += r.race < 0;
	if (r.verdict == VERDICT_TOOL_ERROR && refused(o, st, seed, &r))
		rc = 0; /* by design: not a finding */
	else if (r.verdict == VERDICT_TOOL_ERROR)
		st->tool_errors++; /* kept, counted apart */
	if (rc)
		judged_signature(&r, c, sig, sizeof sig, &info);
	if (rc && !o->quiet) {
		fuzz_log_start(o);
		fprintf(stderr, "seed %llu: %s\n", (unsigned long long)seed,
			failure_text(&r, line, sizeof line));
	}
	if (rc && o->json)
		fuzz_note_failure(st, seed, sig, failure_text(&r, line,
							      sizeof line), &r);
	tool = r.verdict == VERDICT_TOOL_ERROR;
	runout_clear(&r);
	if (rc)
		keep_failure(o, st, c, seed, yaml, sig, &info, tool);
out:
	for (int i = 0; i < nref; i++)
		tensor_free(ref[i]);
	mem_free(ref);
	case_free(c);
	mem_free(yaml);
	return rc;
}

/* Outside tools: ask about the next batch of programs in one call, so
 * that fuzz_one finds each answer cached (a process per program would
 * spend its time starting the tool).  ExternalOpts.batch overrides it.
 * The batch keeps the cases it generated for fuzz_one to take. */
enum { FUZZ_BATCH = 64, FUZZ_BATCH_MAX = 4096 };

typedef struct Batch {
	char **yaml;            /* by position in the batch; NULL once taken */
	Case **cases;
	int n;
} Batch;

static int
fuzz_batch(const FuzzOpts *o)
{
	int n = tool_opts(o) ? tool_opts(o)->batch : 0;

	return n <= 0 ? FUZZ_BATCH : n > FUZZ_BATCH_MAX ? FUZZ_BATCH_MAX : n;
}

static void
batch_clear(Batch *b)
{
	for (int i = 0; i < b->n; i++) {
		mem_free(b->yaml[i]);
		case_free(b->cases[i]);
		b->yaml[i] = NULL;
		b->cases[i] = NULL;
	}
	b->n = 0;
}

/* Ask the tool about cases[0..n) in one call per pipeline (a profile
 * gives programs that launch another one): each case's run names its
 * own, or none (the campaign's). */
static void
ask_by_pipeline(const FuzzOpts *o, Case **cases, int n)
{
	while (n > 0) {
		const char *p = cases[0]->runs[0].pipeline;
		ExternalOpts t;
		int m = 0;
		for (int i = 0; i < n; i++) { /* p's cases first */
			const char *q = cases[i]->runs[0].pipeline;
			if (p == q || (p && q && !strcmp(p, q))) {
				Case *x = cases[m];
				cases[m++] = cases[i];
				cases[i] = x;
			}
		}
		external_prefill(case_tool_opts(o, cases[0], &t), o->strategy,
				 cases, m);
		cases += m;
		n -= m;
	}
}

/* Generate the next batch (seeds seed + i*stride) into b and ask the tool
 * about every program that loaded. */
static void
prefill(const FuzzOpts *o, Batch *b, uint64_t seed, int stride, long left)
{
	int nb = fuzz_batch(o), m = 0;
	Case **loaded = mem_calloc((size_t)nb, sizeof *loaded);

	batch_clear(b);
	external_forget(); /* the last batch's answers: no longer asked for */
	if (!loaded)
		return;
	for (; b->n < nb && b->n < left; b->n++) {
		Diag d;
		int i = b->n;
		if (!load_seed(o, seed + (uint64_t)i * (uint64_t)stride,
			       &b->yaml[i], &b->cases[i], &d))
			loaded[m++] = b->cases[i];
		else { /* fuzz_one makes it again and reports it */
			mem_free(b->yaml[i]);
			case_free(b->cases[i]);
			b->yaml[i] = NULL;
			b->cases[i] = NULL;
		}
	}
	ask_by_pipeline(o, loaded, m);
	/* --confirm: their native runs too, a compile and a runner a batch */
	native_forget();
	diff_confirm_prefill(o->cfg, NULL, loaded, m, true);
	mem_free(loaded);
}

/* One line, redrawn (a terminal only: cmd_fuzz sets o->progress): the
 * next seed, the rate, failures and buckets, and the time left. */
static void
progress(const FuzzOpts *o, const FuzzStats *st, double t0, uint64_t seed,
	 long k, bool last)
{
	double dt = fuzz_now() - t0, gen = fuzz_clock(st, dt);
	double rate = gen > 0 ? (double)st->programs / gen : 0.0;
	char r[48];
	double left = o->seconds > 0 ? o->seconds - dt :
		      o->count && rate > 0 ? (double)(o->count - k) / rate : 0;

	if (!o->progress)
		return;
	if (last) {
		fprintf(stderr, "\r\033[K");
		return;
	}
	fprintf(stderr, "\r\033[Kseed %llu, %s/s, %ld failures in %d buckets, "
		"%.0f s left", (unsigned long long)seed,
		fuzz_rate(st->programs, gen, r, sizeof r), st->failures,
		st->buckets.n, left > 0 ? left : 0);
}

/* Every --stats-every seconds a stats line; the stats file as often
 * (every 10 s without stats lines). */
static void
stats_tick(const FuzzOpts *o, const FuzzStats *st, double *last)
{
	double every = o->stats_every > 0 ? o->stats_every : 10;

	if (fuzz_now() - *last < every)
		return;
	if (o->stats_every > 0)
		fuzz_stats_line(o, st);
	fuzz_stats_write(o, st, false);
	*last = fuzz_now();
}

/* OpenBLAS's threads for the campaign's matmuls: the generator's tensors
 * have at most 8 elements a dim, where a second thread only spins (16%
 * of a campaign's CPU was OpenBLAS's threads waiting): one thread, this
 * worker's, until the campaign ends (blas_lazy.c: not loaded for it, a
 * big matmul after it gets the cores again). */
static int fuzz_loop(const FuzzOpts *o, FuzzStats *st);

int
fuzz_run(const FuzzOpts *o, FuzzStats *st)
{
	int rc;

	blas_threads_cap(1);
	rc = fuzz_loop(o, st);
	blas_threads_cap(0);
	return rc;
}

static int
fuzz_loop(const FuzzOpts *o, FuzzStats *st)
{
	double t0 = fuzz_now(), shown = t0, ticked = t0;
	int n = o->nshards > 0 ? o->nshards : 1, nb = fuzz_batch(o);
	/* a batch of 1 is no batch: each program asks on its own */
	bool batched = (o->strategy->flags & STRAT_TOOL) && nb > 1;
	Batch b = {0};
	struct stat sb;

	external_register(); /* outside strategies run here */
	memset(st, 0, sizeof *st);
	st->t0 = t0;
	st->deadline = o->seconds > 0 ? t0 + o->seconds : 0;
	st->next_seed = o->seed + (uint64_t)o->shard;
	if (o->out && !o->lazy_out && mkdir(o->out, 0777) && errno != EEXIST) {
		fprintf(stderr, "bufdiff: cannot create %s: %s\n", o->out,
			strerror(errno));
		return 2;
	}
	/* (a file there would lose every repro, after the whole campaign) */
	if (o->out && !stat(o->out, &sb) && !S_ISDIR(sb.st_mode)) {
		fprintf(stderr, "bufdiff: cannot write repros into %s: it is not "
			"a directory\n", o->out);
		return 2;
	}
	if (batched) {
		b.yaml = mem_calloc((size_t)nb, sizeof *b.yaml);
		b.cases = mem_calloc((size_t)nb, sizeof *b.cases);
		batched = b.yaml && b.cases;
	}
	for (long k = 0;; k++) {
		uint64_t seed = o->seed + (uint64_t)k * (uint64_t)n + (uint64_t)o->shard;
		int rc, i = (int)(k % nb);
		char *yaml = NULL;
		Case *c = NULL;
		if (o->count && k >= o->count)
			break;
		if (stop_signal()) { /* docs/cli.md, Signals */
			st->interrupted = true;
			break;
		}
		if (o->seconds > 0 && fuzz_now() - t0 >= o->seconds)
			break;
		if (batched && i == 0)
			prefill(o, &b, seed, n, o->count ? o->count - k : nb);
		if (!o->count && o->seconds <= 0)
			break;
		if (batched && i < b.n) { /* taken over by fuzz_one */
			yaml = b.yaml[i], c = b.cases[i];
			b.yaml[i] = NULL, b.cases[i] = NULL;
		}
		rc = fuzz_one(o, st, seed, yaml, c);
		if (rc < 0)
			st->skipped++;
		st->programs++;
		st->next_seed = seed + (uint64_t)n;
		if (rc > 0 && !st->failures) {
			st->first_seconds = fuzz_now() - t0;
			st->first_seed = seed;
		}
		st->failures += rc > 0;
		if (stop_signal()) { /* during it: its tool or reduction was cut */
			st->interrupted = true;
			break;
		}
		if (rc > 0 && o->first)
			break;
		if (o->max_failures && st->failures >= o->max_failures)
			break;
		if (o->progress && fuzz_now() - shown > 0.5) {
			progress(o, st, t0, seed + (uint64_t)n, k + 1, false);
			shown = fuzz_now();
		}
		stats_tick(o, st, &ticked);
	}
	batch_clear(&b);
	mem_free(b.yaml);
	mem_free(b.cases);
	st->seconds = fuzz_now() - t0;
	progress(o, st, t0, 0, 0, true);
	if (o->stats_every > 0)
		fuzz_stats_line(o, st);
	fuzz_stats_write(o, st, true);
	return st->failures ? 1 : 0;
}

/* ---- `bufdiff fuzz` */


/* ", \"failure_messages\": [...]": each failure's (fuzz_note_failure). */
static void
failures_json(Str *b, const FuzzStats *st)
{
	json_t *none = st->messages ? NULL : json_array();
	char *s = json_dumps(st->messages ? st->messages : none,
			     JSON_ENSURE_ASCII);

	json_decref(none);
	if (!s) {
		b->oom = true;
		return;
	}
	str_puts(b, ", \"failure_messages\": ");
	str_puts(b, s);
	free(s);
}

static void
fuzz_json(const FuzzOpts *o, const FuzzStats *st)
{
	const ExternalStats *x = external_stats();
	Str b = {0};
	char *s, rate[48];

	str_printf(&b, "{\"programs\": %ld, \"failures\": %ld, \"skipped\": %ld, "
		   "\"tool_errors\": %ld, \"tool_calls\": %ld, "
		   "\"tool_seconds\": %.3f, "
		   "\"seconds\": %.3f, \"reduce_seconds\": %.3f, "
		   "\"programs_per_s\": %s, "
		   "\"unreduced\": %ld, \"kept_whole\": %ld, "
		   "\"next_seed\": %llu, \"repros\": [",
		   st->programs, st->failures, st->skipped, st->tool_errors,
		   x->calls, x->seconds, st->seconds, st->reduce_seconds,
		   fuzz_rate(st->programs, fuzz_clock(st, st->seconds), rate,
			     sizeof rate),
		   st->unreduced, st->kept_whole,
		   (unsigned long long)st->next_seed);
	for (int i = 0; i < st->nrepros; i++) {
		str_puts(&b, i ? ", " : "");
		fuzz_json_string(&b, st->repros[i]);
	}
	str_printf(&b, "], \"interrupted\": %s, \"seed\": %llu, "
		   "\"shard\": \"%d/%d\", ",
		   st->interrupted ? "true" : "false",
		   (unsigned long long)o->seed, o->shard,
		   o->nshards > 0 ? o->nshards : 1);
	str_puts(&b, "\"target\": ");
	if (o->gen.target)
		fuzz_json_string(&b, o->gen.target->name);
	else
		str_puts(&b, "null");
	str_puts(&b, ", ");
	refusals_json(&b, st->refused, &st->refusals);
	str_puts(&b, ", \"buckets\": ");
	buckets_json(&b, &st->buckets);
	str_puts(&b, ", ");
	constructs_json(&b, st->constructs);
	if (o->cfg && o->cfg->confirm) {
		str_puts(&b, ", \"native\": {");
		for (int v = NATIVE_CONFIRMED; v <= NATIVE_FAILED; v++)
			str_printf(&b, "%s\"%s\": %ld", v > NATIVE_CONFIRMED ?
				   ", " : "", native_verdict_names[v],
				   st->native[v]);
		str_puts(&b, "}");
	}
	if (st->racy || st->miscompiles)
		str_printf(&b, ", \"race\": {\"racy_read\": %ld, "
			   "\"miscompile\": %ld}", st->racy, st->miscompiles);
	failures_json(&b, st);
	str_puts(&b, "}\n");
	if ((s = str_take(&b)))
		fputs(s, stdout);
	mem_free(s);
}

/* --mix's names, bit k for names[k] (GEN_*) */
static const char *const mix_names[] = {"slices", "matmul", "loops",
					"branches", "async", "calls",
					"forall", "cfg", "generate"};
enum { NMIX = sizeof mix_names / sizeof *mix_names };

const char *
fuzz_mix_names(unsigned mix, char *buf, size_t n)
{
	Str b = {0};

	for (int k = 0; k < NMIX; k++)
		if (mix >> k & 1)
			str_printf(&b, "%s%s", b.len ? "," : "", mix_names[k]);
	fmt_snprintf(buf, n, "%s", b.len && !b.oom ? b.s : "0");
	str_free(&b);
	return buf;
}

bool
fuzz_races_judged(const Strategy *s)
{
	return s && (s->kind == STRAT_MLIR || s->kind == STRAT_NATIVE ||
		     s->kind == STRAT_PIPELINE || s->kind == STRAT_EXEC_MLIR);
}

void
fuzz_seed_command(const FuzzOpts *o, const Case *c, uint64_t seed, Str *b)
{
	char flag[1200], mix[160];
	const GenTarget *def = NULL;

	str_puts(b, "bufdiff fuzz --strategy ");
	sh_word(b, o->strategy->name); /* a command to paste */
	pipeline_flag(o, c, flag, sizeof flag);
	/* no profile where the strategy has one by default: say none */
	fuzz_target_find(NULL, o->strategy, tool_opts(o), &def);
	str_printf(b, "%s%s --seed %llu --count 1 --mix %s --max-ops %d",
		   def && !o->gen.target ? " --target none" : "", flag,
		   (unsigned long long)seed,
		   fuzz_mix_names(o->gen.mix, mix, sizeof mix), o->gen.max_ops);
	if (o->gen.no_copies)
		str_puts(b, " --no-copies");
	if (!o->gen.no_races && fuzz_races_judged(o->strategy))
		str_puts(b, " --allow-races");
	if (!o->reduce)
		str_puts(b, " --no-reduce");
}

int
fuzz_parse_mix(const char *s, unsigned *mix)
{
	static const char *const *names = mix_names;
	char *end;
	unsigned long n = strtoul(s, &end, 10);

	if (!*end && end != s) {
		*mix = (unsigned)n & GEN_ALL;
		return 0;
	}
	*mix = 0;
	while (*s) {
		size_t len = strcspn(s, ",");
		int k = -1;
		for (int i = 0; i < NMIX; i++)
			if (strlen(names[i]) == len && !strncmp(s, names[i], len))
				k = i;
		if (k < 0)
			return -1;
		*mix |= 1u << k;
		s += len + (s[len] == ',');
	}
	return 0;
}

/* --confirm's verdicts and the race labels, when there are any. */
static void
judged_print(const FuzzOpts *o, const FuzzStats *st)
{
	if (o->cfg && o->cfg->confirm) {
		printf("native (MLIR's own code run natively):");
		for (int v = NATIVE_CONFIRMED; v <= NATIVE_FAILED; v++)
			printf("%s %ld %s", v > NATIVE_CONFIRMED ? "," : "",
			       st->native[v], native_verdict_names[v]);
		printf("\n");
	}
	if (st->racy || st->miscompiles)
		printf("differing outputs on forall programs: %ld racy read%s, "
		       "%ld miscompile%s\n", st->racy, st->racy == 1 ? "" : "s",
		       st->miscompiles, st->miscompiles == 1 ? "" : "s");
}

int
fuzz_command(const FuzzOpts *o, const char *html)
{
	FuzzStats st;
	int rc;

	/* SIGINT / SIGTERM / SIGHUP (Ctrl-C, a Slurm time limit, parallel's
	 * --timeout; main installs stop.h's handlers): the campaign ends the
	 * tool's session, stops the reduction it is in (the smallest case so
	 * far is the repro) and prints its summary */
	rc = fuzz_run(o, &st);
	if (o->cfg && o->cfg->confirm)
		native_batch_stats_report();
	if (st.interrupted)
		fprintf(stderr, "bufdiff fuzz: interrupted (%s) after %ld "
			"programs\n", stop_signal_name(stop_signal()),
			st.programs);
	if (html && html_check_files(o->cfg, html, "bufdiff fuzz: failures", st.repros,
				     st.nrepros, NULL)) {
		fprintf(stderr, "bufdiff: cannot write the pages in %s\n", html);
		rc = 2;
	}
	if (o->json)
		fuzz_json(o, &st);
	else {
		char rate[48];
		printf("%ld programs, %ld failures (%ld tool errors), %.2f s "
		       "(%s programs/s)\n",
		       st.programs, st.failures, st.tool_errors, st.seconds,
		       fuzz_rate(st.programs, fuzz_clock(&st, st.seconds), rate,
				 sizeof rate));
		if (st.unreduced)
			printf("%ld failure%s left unreduced: the time was up\n",
			       st.unreduced, st.unreduced == 1 ? "" : "s");
		fuzz_kept_whole_print(stdout, st.kept_whole);
		refusals_print(stdout, st.refused, st.programs, &st.refusals);
		if (st.buckets.n) {
			printf("%d bucket%s (count, signature, repro, seeds):\n",
			       st.buckets.n, st.buckets.n > 1 ? "s" : "");
			buckets_print(stdout, &st.buckets);
		}
		if (!o->quiet)
			constructs_print(stdout, st.constructs);
		judged_print(o, &st);
	}
	fuzz_stats_free(&st);
	return rc;
}
