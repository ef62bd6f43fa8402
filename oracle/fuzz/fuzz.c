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

#include "escape.h"
#include "fuzz.h"
#include "cases.h"
#include "mlir.h"
#include "harness.h"
#include "report.h"
#include "stop.h"

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void
fuzz_stats_free(FuzzStats *st)
{
	for (int i = 0; i < st->nrepros; i++)
		mem_free(st->repros[i]);
	mem_free(st->repros);
	buckets_free(&st->buckets);
	buckets_free(&st->refusals);
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

/* A failing program: counted in its signature's bucket; the first of a
 * bucket (and every tool error: FORMAT keeps each program a tool failed
 * on) is reduced (or kept whole) and written out. */
static void
keep_failure(const FuzzOpts *o, FuzzStats *st, const Case *c, uint64_t seed,
	     const char *yaml, const char *sig, const SigInfo *info,
	     bool tool_error)
{
	char path[4096], name[128], about[1536], flag[1200], label[64];
	Str strat = {0};
	char *reduced = NULL;
	RunConfig quiet;
	ReduceStats rs = {0};
	bool isnew;
	Bucket *k = buckets_add(&st->buckets, sig, 1, &isnew);
	Diag d;

	if (k) {
		bucket_seed(k, seed);
		bucket_note(k, info);
	}
	if (!isnew && !tool_error)
		return;
	fmt_snprintf(name, sizeof name, "fuzz/%s-%llu", strategy_label(o->strategy),
		 (unsigned long long)seed);
	pipeline_flag(o, c, flag, sizeof flag);
	sh_word(&strat, o->strategy->name); /* a command to paste */
	fmt_snprintf(about, sizeof about, "found by bufdiff fuzz --strategy %s%s "
		 "--seed %llu", strat.s && !strat.oom ? strat.s : "?", flag,
		 (unsigned long long)seed);
	str_free(&strat);
	int rrc = o->reduce ? reduce_case(reduce_cfg(o, &quiet), c, 0, name,
					  about, &reduced, &rs, &d) : -1;
	if (rrc == 0 && !o->quiet)
		fprintf(stderr, "\nseed %llu: reduced %d -> %d ops (%d candidates, "
			"%.2fs)\n", (unsigned long long)seed, rs.ops_before,
			rs.ops_after, rs.candidates, rs.seconds);
	else if (rrc == 2 && !o->quiet) /* a signal: the smallest so far */
		fprintf(stderr, "\nseed %llu: %s at %d -> %d ops\n",
			(unsigned long long)seed, d.msg, rs.ops_before,
			rs.ops_after);
	if (st->failures == 0)
		st->first_reduce = rs;
	if (o->out) {
		const char *l = strategy_label(o->strategy);
		fmt_snprintf(path, sizeof path, "%s/%s-%llu.yaml", o->out,
			 safe_file_name(l, strlen(l), label, sizeof label),
			 (unsigned long long)seed);
		if (o->lazy_out && mkdir(o->out, 0777) && errno != EEXIST)
			fprintf(stderr, "bufdiff: cannot create %s: %s\n", o->out,
				strerror(errno));
		else if (trust_write_repro(path, reduced ? reduced : yaml,
					   o->strategy))
			fprintf(stderr, "bufdiff: cannot write %s: %s\n", path,
				strerror(errno));
		else {
			add_repro(st, path);
			if (k && !k->repro)
				k->repro = mem_strdup(path);
			if (!o->quiet)
				fprintf(stderr, "seed %llu: new bucket, repro "
					"written to %s\n", (unsigned long long)seed,
					path);
		}
		if (o->strategy->flags & STRAT_READS_MLIR)
			keep_bridge(o, path, reduced ? reduced : yaml);
	}
	mem_free(reduced);
}

/* The case generated from seed, loaded under its seed's name: 0, -1 out
 * of memory, 1 the verifier rejected it (d).  *yaml and *c are set in
 * every case (NULL when not made). */
static int
load_seed(const FuzzOpts *o, uint64_t seed, char **yaml, Case **c, Diag *d)
{
	char file[64];
	GenStats made = {0};
	const char *p;

	*c = NULL;
	if (!(*yaml = gen_case_stats(seed, &o->gen, o->strategy->name, &made)))
		return -1;
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
	fuzz_file(seed, file, sizeof file);
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

/* A failure's class on stderr, one line, so a campaign's log can be
 * counted by class without running each repro again: an error (a memref
 * program the executor does not take) with its message, else the verdict
 * and the first violation's kind. */
static void
failure_line(uint64_t seed, const RunOut *r)
{
	fprintf(stderr, "\nseed %llu: ", (unsigned long long)seed);
	if (r->native.verdict == NATIVE_MISSED)
		fprintf(stderr, "native missed: MLIR's own output differs, "
			"the instrumented run agreed\n");
	else if (r->status == STATUS_BAD)
		term_fprintf(stderr, "error: %s\n", r->err.msg);
	else if (r->ex.nviols)
		term_fprintf(stderr, "%s: %s\n", verdict_names[r->verdict],
			vkind_names[r->ex.viols[0].kind]);
	else
		term_fprintf(stderr, "%s%s%s\n", verdict_names[r->verdict],
			r->why[0] ? ": " : "", r->why);
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
		term_fprintf(stderr, "\nseed %llu: refused (%s)%s\n",
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

/* One seed: 1 failed, 0 agreed, -1 skipped (the reference rejected it).
 * yaml and c: the seed's case when a batch made it already (taken over),
 * else NULL. */
static int
fuzz_one(const FuzzOpts *o, FuzzStats *st, uint64_t seed, char *yaml, Case *c)
{
	Tensor **ref = NULL;
	int nref = 0, rc = -1, lrc = 0, rr;
	char sig[512];
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
		fprintf(stderr, "\nbufdiff fuzz: seed %llu: generated program "
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
	st->native[r.native.verdict]++;
	st->racy += r.race > 0;
	st->miscompiles += r.race < 0;
	if (r.verdict == VERDICT_TOOL_ERROR && refused(o, st, seed, &r)) {
		rc = 0; /* by design: not a finding */
	} else if (r.verdict == VERDICT_TOOL_ERROR) {
		/* the tool failed on this program: kept, counted apart */
		st->tool_errors++;
		if (!o->quiet)
			term_fprintf(stderr, "\nseed %llu: tool-error: %s%s\n",
				(unsigned long long)seed, r.tool.status,
				first_error(r.tool.err));
	}
	else if (rc && !o->quiet)
		failure_line(seed, &r);
	if (rc)
		judged_signature(&r, c, sig, sizeof sig, &info);
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
	mem_free(loaded);
}

/* One line, redrawn (a terminal only: cmd_fuzz sets o->progress): the
 * next seed, the rate, failures and buckets, and the time left. */
static void
progress(const FuzzOpts *o, const FuzzStats *st, double t0, uint64_t seed,
	 long k, bool last)
{
	double dt = now() - t0, rate = dt > 0 ? (double)st->programs / dt : 0.0;
	double left = o->seconds > 0 ? o->seconds - dt :
		      o->count && rate > 0 ? (double)(o->count - k) / rate : 0;

	if (!o->progress)
		return;
	if (last) {
		fprintf(stderr, "\r\033[K");
		return;
	}
	fprintf(stderr, "\r\033[Kseed %llu, %.0f/s, %ld failures in %d buckets, "
		"%.0f s left", (unsigned long long)seed, rate, st->failures,
		st->buckets.n, left > 0 ? left : 0);
}

int
fuzz_run(const FuzzOpts *o, FuzzStats *st)
{
	double t0 = now(), shown = t0;
	int n = o->nshards > 0 ? o->nshards : 1, nb = fuzz_batch(o);
	/* a batch of 1 is no batch: each program asks on its own */
	bool batched = (o->strategy->flags & STRAT_TOOL) && nb > 1;
	Batch b = {0};
	struct stat sb;

	external_register(); /* outside strategies run here */
	memset(st, 0, sizeof *st);
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
		if (batched && i == 0)
			prefill(o, &b, seed, n, o->count ? o->count - k : nb);
		if (o->seconds > 0 && now() - t0 >= o->seconds)
			break;
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
		if (rc > 0 && !st->failures) {
			st->first_seconds = now() - t0;
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
		if (o->progress && now() - shown > 0.5) {
			progress(o, st, t0, seed + (uint64_t)n, k + 1, false);
			shown = now();
		}
	}
	batch_clear(&b);
	mem_free(b.yaml);
	mem_free(b.cases);
	st->seconds = now() - t0;
	progress(o, st, t0, 0, 0, true);
	return st->failures ? 1 : 0;
}

/* ---- `bufdiff fuzz` */


static void
fuzz_json(const FuzzOpts *o, const FuzzStats *st)
{
	const ExternalStats *x = external_stats();
	Str b = {0};
	char *s;

	str_printf(&b, "{\"programs\": %ld, \"failures\": %ld, \"skipped\": %ld, "
		   "\"tool_errors\": %ld, \"tool_calls\": %ld, "
		   "\"tool_seconds\": %.3f, "
		   "\"seconds\": %.3f, \"programs_per_s\": %.1f, \"repros\": [",
		   st->programs, st->failures, st->skipped, st->tool_errors,
		   x->calls, x->seconds, st->seconds,
		   st->seconds > 0 ? (double)st->programs / st->seconds : 0.0);
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
	str_puts(&b, "}\n");
	if ((s = str_take(&b)))
		fputs(s, stdout);
	mem_free(s);
}

int
fuzz_parse_mix(const char *s, unsigned *mix)
{
	static const char *const names[] = {"slices", "matmul", "loops",
					    "branches", "async", "calls",
					    "forall", "cfg", "generate"};
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
		for (int i = 0; i < (int)(sizeof names / sizeof *names); i++)
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
		printf("%ld programs, %ld failures (%ld tool errors), %.2f s "
		       "(%.0f programs/s)\n",
		       st.programs, st.failures, st.tool_errors, st.seconds,
		       st.seconds > 0 ? (double)st.programs / st.seconds : 0.0);
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
