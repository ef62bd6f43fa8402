/*
 * fuzz_log.c: what a campaign says while it runs, for a log as much as
 * for a terminal: the start of each log line (no blank lines off a
 * terminal), rates in significant digits, the periodic stats line, the
 * stats file (`--out DIR`, DIR/.fuzz-stats.json, Jansson) that `--resume`
 * continues from, and each failure's messages for `--json`.
 */
#include <errno.h>
#include <stdio.h>
#include <time.h>
#include <jansson.h>

#include "escape.h"
#include "fuzz.h"
#include "cases.h"

double
fuzz_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A log line starts here: on a terminal the progress line is cleared
 * first (it is drawn again); in a log nothing, so no blank lines. */
void
fuzz_log_start(const FuzzOpts *o)
{
	if (o->progress)
		fputs("\r\033[K", stderr);
}

/* programs per second with three significant digits (0.0345, 2.50,
 * 12.3, 617): a slow campaign's rate never reads "0". */
const char *
fuzz_rate(long programs, double seconds, char *buf, size_t n)
{
	return fuzz_rate_of(seconds > 0 ? (double)programs / seconds : 0.0,
			    buf, n);
}

const char *
fuzz_rate_of(double r, char *buf, size_t n)
{
	double x = r;
	int dec = 0;

	if (r > 0 && r < 100) {
		dec = r >= 10 ? 1 : 2;
		for (; x < 1 && dec < 12; x *= 10)
			dec++;
	}
	fmt_snprintf(buf, n, "%.*f", dec, r);
	return buf;
}

void
fuzz_stats_line(const FuzzOpts *o, const FuzzStats *st)
{
	double dt = fuzz_now() - st->t0;
	char rate[48];

	fuzz_log_start(o);
	fprintf(stderr, "stats: %ld programs, %s programs/s, %ld failures in "
		"%d buckets, %ld unreduced, next seed %llu, %.0f s\n",
		st->programs, fuzz_rate(st->programs, fuzz_clock(st, dt), rate,
					sizeof rate),
		st->failures, st->buckets.n, st->unreduced,
		(unsigned long long)st->next_seed, dt);
}

/* ---- the stats file */

/* DIR/.fuzz-stats.json, or DIR/.fuzz-stats-I-of-N.json for shard I of
 * N (shards may share a directory).  Hidden: a glob of DIR's .json files (the
 * shards' summaries) and `ls DIR` (the repros) do not see it. */
static char *
stats_path(const FuzzOpts *o)
{
	Str b = {0};

	if (o->nshards > 1)
		str_printf(&b, "%s/.fuzz-stats-%d-of-%d.json", o->out, o->shard,
			   o->nshards);
	else
		str_printf(&b, "%s/%s", o->out, FUZZ_STATS_FILE);
	return str_take(&b);
}

/* What the generator and the run read: the stats file records them, and
 * --resume wants the same (else its seeds would be other programs). */
static json_t *
campaign_json(const FuzzOpts *o)
{
	char mix[160], shard[48];

	fuzz_mix_names(o->gen.mix, mix, sizeof mix);
	fmt_snprintf(shard, sizeof shard, "%d/%d", o->shard,
		     o->nshards > 0 ? o->nshards : 1);
	return json_pack("{s:s, s:s, s:s, s:i, s:b, s:b, s:s?}",
			 "strategy", o->strategy->name, "shard", shard,
			 "mix", mix, "max_ops", o->gen.max_ops,
			 "no_copies", o->gen.no_copies,
			 "no_races", o->gen.no_races, "target",
			 o->gen.target ? o->gen.target->name : NULL);
}

static json_t *
stats_json(const FuzzOpts *o, const FuzzStats *st, bool done)
{
	double dt = fuzz_now() - st->t0;
	char rate[48];
	json_t *j = campaign_json(o);

	if (j && json_object_update_new(j, json_pack(
		    "{s:I, s:I, s:I, s:I, s:i, s:I, s:f, s:f, s:I, s:b}",
		    "first_seed", (json_int_t)o->first_seed,
		    "programs", (json_int_t)st->programs,
		    "failures", (json_int_t)st->failures,
		    "tool_errors", (json_int_t)st->tool_errors,
		    "buckets", st->buckets.n,
		    "unreduced", (json_int_t)st->unreduced,
		    "seconds", dt,
		    "programs_per_s", atof(fuzz_rate(st->programs,
						     fuzz_clock(st, dt), rate,
						     sizeof rate)),
		    "next_seed", (json_int_t)st->next_seed, "done", done))) {
		json_decref(j);
		return NULL;
	}
	return j;
}

int
fuzz_stats_write(const FuzzOpts *o, const FuzzStats *st, bool done)
{
	char *path, *tmp;
	json_t *j;
	Str t = {0};
	int rc = -1;

	if (!o->stats_file)
		return 0;
	path = stats_path(o);
	str_printf(&t, "%s.tmp", path ? path : "");
	tmp = str_take(&t);
	j = stats_json(o, st, done);
	/* written aside, then renamed: a kill leaves the last whole file */
	if (path && tmp && j &&
	    !json_dump_file(j, tmp, JSON_INDENT(2) | JSON_SORT_KEYS |
			    JSON_REAL_PRECISION(10)) &&
	    !rename(tmp, path))
		rc = 0;
	if (rc)
		fprintf(stderr, "bufdiff: cannot write %s: %s\n",
			path ? path : FUZZ_STATS_FILE, strerror(errno));
	json_decref(j);
	mem_free(path);
	mem_free(tmp);
	return rc;
}

/* ---- --resume */

static int
resume_fail(const char *path, int line, int col, const char *msg,
	    const char *what)
{
	term_fprintf(stderr, "%s:%d:%d: error: %s%s\n", path, line, col, msg,
		     what ? what : "");
	return 2;
}

/* The recorded campaign is this one: the same strategy, shard and
 * generator options (the first key that differs into buf: true). */
static bool
campaign_differs(const FuzzOpts *o, json_t *saved, char *buf, size_t n)
{
	json_t *now = campaign_json(o);
	const char *key;
	json_t *v;

	*buf = 0;
	if (!now)
		fmt_snprintf(buf, n, "out of memory");
	json_object_foreach(now, key, v) {
		json_t *w = json_object_get(saved, key);
		if (!*buf && !(w ? json_equal(v, w) : json_is_null(v)))
			fmt_snprintf(buf, n, "%s", key);
	}
	json_decref(now);
	return *buf != 0;
}

int
fuzz_resume(FuzzOpts *o)
{
	char *path = stats_path(o);
	json_error_t e;
	json_t *j, *next, *first;
	char diff[64];
	int rc = 0;

	if (!path)
		return resume_fail(FUZZ_STATS_FILE, 0, 0, "out of memory", NULL);
	if (!(j = json_load_file(path, 0, &e))) {
		rc = errno == ENOENT && e.line < 1 ?
		     resume_fail(path, 0, 0, "--resume: no stats file to resume "
				 "from (a campaign with --out writes it)", NULL) :
		     resume_fail(path, e.line, e.column, e.text, NULL);
	} else if (!json_is_integer(next = json_object_get(j, "next_seed")) ||
		   !json_is_integer(first = json_object_get(j, "first_seed"))) {
		rc = resume_fail(path, 1, 1, "--resume: no integer next_seed "
				 "and first_seed", NULL);
	} else if (campaign_differs(o, j, diff, sizeof diff)) {
		rc = resume_fail(path, 1, 1, "--resume: the campaign recorded "
				 "here differs in ", diff);
	} else {
		/* seed k of this run is next_seed + k*n: the shard's next */
		o->first_seed = (uint64_t)json_integer_value(first);
		o->seed = (uint64_t)json_integer_value(next) - (uint64_t)o->shard;
	}
	json_decref(j);
	mem_free(path);
	return rc;
}

/* ---- --json: each failure's messages */

static json_t *
blame_json(const RunOut *r)
{
	json_t *a = json_array();

	for (int i = 0; a && i < r->ex.nviols && i < 3; i++) {
		const Violation *v = &r->ex.viols[i];
		const Value *w = v->writer ? inst_value(v->writer) : NULL;
		const Value *at = v->at ? inst_value(v->at) : NULL;
		json_array_append_new(a, json_pack(
			"{s:s, s:s?, s:s?, s:s?}", "kind", vkind_names[v->kind],
			"writer", w ? w->name : NULL,
			"victim", v->victim ? v->victim->name : NULL,
			"reader", at ? at->name : NULL));
	}
	return a;
}

static json_t *
culprits_json(const RunOut *r)
{
	json_t *a = json_array();
	char buf[512];

	for (int i = 0; a && i < r->nlculprits; i++)
		json_array_append_new(a, json_string(plan_lifetime_str(
			&r->ds, r->lculprits[i], false, buf, sizeof buf)));
	for (int i = 0; a && i < r->nculprits; i++)
		json_array_append_new(a, json_string(choice_str(
			&r->ds, r->culprits[i], buf, sizeof buf)));
	return a;
}

/* A tool's text as a JSON string: bytes that are not UTF-8 become '?'
 * (Jansson takes UTF-8 only). */
static json_t *
text_json(const char *s)
{
	json_t *j = json_string(s);
	char *t;

	if (j || !(t = mem_strdup(s)))
		return j;
	for (char *p = t; *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	j = json_string(t);
	mem_free(t);
	return j;
}

int
fuzz_note_failure(FuzzStats *st, uint64_t seed, const char *sig,
		  const char *message, const RunOut *r)
{
	json_t *j;

	if (!st->messages && !(st->messages = json_array()))
		return -1;
	j = json_pack("{s:I, s:o, s:o, s:o, s:o}", "seed", (json_int_t)seed,
		      "signature", text_json(sig), "message", text_json(message),
		      "blame", blame_json(r), "culprits", culprits_json(r));
	if (j && r->verdict == VERDICT_TOOL_ERROR)
		json_object_set_new(j, "tool", json_pack(
			"{s:o, s:o}", "status", text_json(r->tool.status),
			"stderr", text_json(r->tool.err)));
	return j ? json_array_append_new(st->messages, j) : -1;
}
