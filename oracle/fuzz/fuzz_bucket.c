/*
 * fuzz_bucket.c: a campaign's failures by signature, and the merge of
 * shard summaries.
 *
 * One bug makes hundreds of failing programs; they share a signature:
 * what went wrong (the class of the first violation: conflict, lifetime,
 * ...; or the verdict, or the tool's status) and the kind of decision
 * that breaks the rule (the culprits one-shot decides otherwise: in-place,
 * call, block-arg, yield; - when one-shot takes them all).  What varies
 * with the program, not the flaw (the constructs around the culprits, the
 * verdict, the exact violation kind), is counted inside the bucket.
 * fuzz.c keeps one repro per signature, a count and the seeds.  `bufdiff fuzz --merge` adds up the --json
 * summaries of several shards, buckets included.  See docs/fuzz.md.
 */
#include <ctype.h>
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>

#include "fuzz.h"
#include "cases.h"

/* ---------------------------------------------------------- signature */

enum {
	C_LOOP = 1, C_BRANCH = 2, C_ASYNC = 4, C_FORALL = 8, C_CALL = 16,
	/* blocks of a body (docs/fuzz.md): a block on a loop of blocks, one
	 * after the entry outside any (an arm, a join, a loop's exit), an
	 * edge's block arguments */
	C_CFG_LOOP = 32, C_CFG_DIAMOND = 64, C_CFG_EDGE = 128,
	C_GENERATE = 256, /* a generate's body (run once per element) */
	C_NAMES = SIG_CONSTRUCTS
};
const char *const sig_construct_names[C_NAMES] = {
	"loop", "branch", "async", "forall", "call", "cfg-loop",
	"cfg-diamond", "cfg-edge", "generate"};

/* Where block b sits among its body's blocks: the entry (0), on a loop
 * of blocks, or after the entry outside any. */
static unsigned
cfg_construct(const Block *b)
{
	bool reach[MAX_BLOCKS];

	if (!block_in_cfg(b) || b->bindex == 0)
		return 0;
	cfg_reach(b->func, b, reach);
	return reach[b->bindex] ? C_CFG_LOOP : C_CFG_DIAMOND;
}

/* The constructs op sits in, up to its function (and the function itself
 * when it is not the entry). */
static unsigned
constructs_of(const Op *op, const Func *entry)
{
	unsigned m = 0;

	if (op && (op->kind == OP_BR || op->kind == OP_COND_BR))
		m |= C_CFG_EDGE;
	for (const Block *b = op ? op->parent : NULL; b; b = b->parent ?
	     b->parent->parent : NULL) {
		const Op *p = b->parent;
		if (!p) {
			m |= cfg_construct(b);
			if (b->func && b->func != entry)
				m |= C_CALL;
			break;
		}
		if (p->kind == OP_FOR || p->kind == OP_WHILE)
			m |= C_LOOP;
		else if (p->kind == OP_IF)
			m |= C_BRANCH;
		else if (p->kind == OP_ASYNC)
			m |= C_ASYNC;
		else if (p->kind == OP_FORALL)
			m |= C_FORALL;
		else if (p->kind == OP_GENERATE)
			m |= C_GENERATE;
	}
	return m;
}

/* ---------------------------------------------------------- constructs */

const char *const fuzz_construct_names[FUZZ_CONSTRUCTS] = {
	"loop", "branch", "async", "forall", "call", "cfg-loop",
	"cfg-diamond", "block-arg", "select", "cfg-async", "generate",
	"carried-future"};

typedef struct Count {
	bool has[FUZZ_CONSTRUCTS];
} Count;

static WalkAct
count_op(Op *op, void *ctx)
{
	Count *k = ctx;
	unsigned m = constructs_of(op, NULL) & ~(unsigned)C_CALL;

	for (int i = 0; i < 7; i++) /* loop .. cfg-diamond, as in buckets */
		k->has[i] |= m >> i & 1;
	k->has[10] |= op->kind == OP_GENERATE;
	k->has[4] |= op->kind == OP_CALL;
	k->has[8] |= op->kind == OP_SELECT && op->res[0]->type->kind == TY_TENSOR;
	/* a launch in a body with branches (awaited in another block, or
	 * drained at its block's end) */
	k->has[9] |= op->kind == OP_ASYNC && block_in_cfg(top_block(op));
	/* a for whose iter args carry a future */
	for (int i = 0; op->kind == OP_FOR && i < op->nres; i++)
		k->has[11] |= op->res[i]->type->kind == TY_FUTURE;
	return WALK_GO;
}

void
fuzz_count_constructs(const Program *p, long *counts)
{
	Count k = {{false}};

	walk_prog(p, count_op, &k);
	for (int f = 0; f < p->nfuncs; f++)
		for (int b = 1; b < p->funcs[f]->nblocks; b++)
			for (int i = 0; i < p->funcs[f]->blocks[b]->nargs; i++) {
				TypeKind t = p->funcs[f]->blocks[b]->args[i]->type->kind;
				k.has[7] |= t == TY_TENSOR;
				k.has[11] |= t == TY_FUTURE; /* carried by a block arg */
			}
	for (int i = 0; i < FUZZ_CONSTRUCTS; i++)
		counts[i] += k.has[i];
}

void
constructs_json(Str *b, const long *counts)
{
	str_puts(b, "\"constructs\": {");
	for (int i = 0; i < FUZZ_CONSTRUCTS; i++)
		str_printf(b, "%s\"%s\": %ld", i ? ", " : "",
			   fuzz_construct_names[i], counts[i]);
	str_puts(b, "}");
}

void
constructs_print(FILE *f, const long *counts)
{
	fputs("programs with each construct:", f);
	for (int i = 0; i < FUZZ_CONSTRUCTS; i++)
		fprintf(f, "%s %s %ld", i ? "," : "", fuzz_construct_names[i],
			counts[i]);
	fputc('\n', f);
}

/* The class of a violation kind: one flaw shows as several kinds by
 * circumstance (a write into a buffer still needed, a read-after-write
 * conflict, is a stale read, a write to a readonly input, a race with a
 * launch or a read before the await, depending on whose buffer it was
 * and when it is read; a free at the wrong point is a use after free, a
 * double free or a leak). */
static const char *
violation_class(VKind k)
{
	switch (k) {
	case VK_STALE_READ: case VK_READONLY_WRITE: case VK_ASYNC_RACE:
	case VK_EARLY_AWAIT_READ:
		return "conflict";
	case VK_USE_AFTER_FREE: case VK_DOUBLE_FREE: case VK_LEAK:
	case VK_INVALID_FREE:
		return "lifetime";
	default:
		return vkind_names[k];
	}
}

/* The kinds of culprit, the most specific first (what a bucket counts,
 * bit k of SigInfo.culprits): a failure whose culprits one-shot decides
 * otherwise are of several kinds is named by the first (a call sharing
 * an argument, with an in-place write the callee makes of it, is the
 * call's flaw). */
const char *const sig_culprit_names[SIG_CULPRITS] = {
	"free", "hoist", "anchor", "call", "block-arg", "yield", "in-place",
	"param"};
enum { K_CALL = 3, K_BLOCK_ARG, K_YIELD, K_INPLACE, K_PARAM };

/* What kind of decision culprit v is (not the op that takes it: one rule
 * broken shows at elementwise ops, inserts, matmuls, loops alike). */
static int
decision_kind(const Value *v)
{
	if (is_block_arg(v))
		return K_BLOCK_ARG;
	if (is_share_result(v))
		return K_YIELD;
	if (decision_is_call(v))
		return K_CALL;
	return v->def ? K_INPLACE : K_PARAM;
}

/* The kind a signature names: a block argument or an if/select result
 * sharing what it receives is an in-place decision too (a rule one-shot
 * breaks there shows at either). */
static int
key_kind(int k)
{
	return k > K_CALL ? K_INPLACE : k;
}

/* Does one-shot take culprit v too (then it is the context of the flaw,
 * not the flaw)? */
static bool
oneshot_takes(const Decisions *ds, const Decisions *os, const Value *v)
{
	char a[512], b[512];

	return !strcmp(choice_str(ds, v, a, sizeof a), choice_str(os, v, b,
								   sizeof b));
}

/* The constructs around the culprits (or the violating access without
 * one): information of the bucket, not its key. */
static unsigned
culprit_constructs(const RunOut *r, const Case *c)
{
	unsigned m = 0;

	for (int i = 0; i < r->nculprits; i++) {
		const Value *v = r->culprits[i];
		m |= constructs_of(v->def, c->entry);
		if (!v->def && block_in_cfg(v->owner)) /* an edge's decision */
			m |= C_CFG_EDGE | cfg_construct(v->owner);
	}
	if (!r->nculprits && r->ex.nviols) {
		const Violation *v = &r->ex.viols[0];
		m |= constructs_of(v->at ? v->at->op : NULL, c->entry);
	}
	return m;
}

/* The kinds of the culprits one-shot decides otherwise, bit k for
 * sig_culprit_names[k] (every culprit when the strategy is one-shot; a
 * plan's free, hoist or anchor: one-shot places none). */
static unsigned
culprit_kinds(const RunOut *r, const Case *c)
{
	Decisions os = {0};
	bool filter = strcmp(r->strategy ? r->strategy : "", "one-shot") &&
		      r->ds.d && !decisions_make(c->prog, strategy_find("one-shot"),
						 &os);
	unsigned m = 0;

	for (int i = 0; i < r->nlculprits; i++) {
		const char *k = plan_lifetime_kind(&r->ds, r->lculprits[i]);
		m |= 1u << (*k == 'f' ? 0 : *k == 'h' ? 1 : 2);
	}
	for (int i = 0; i < r->nculprits; i++)
		if (!filter || !oneshot_takes(&r->ds, &os, r->culprits[i]))
			m |= 1u << decision_kind(r->culprits[i]);
	decisions_free(&os);
	return m;
}

static bool
name_char(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_' || ch == '.' ||
	       ch == '$' || ch == '-';
}

static bool
word_char(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_' || ch == '.';
}

/* A tool's status as its kind: what precedes the first ':' ("exit 1",
 * "answer", "killed by signal 11 (SIGSEGV)") as it is; in the message
 * after it each `%name` and `@name` becomes `%_` and `@_`, and each word
 * with a digit (a number, a line or column, a name like 'v12' or a type
 * like 4x8xf32) N: the values of one program, not the kind of error. */
static void
tool_kind(const char *status, char *buf, size_t n)
{
	size_t head = strcspn(status, ":");
	Str b = {0};

	str_put(&b, status, head);
	for (const char *s = status + head; *s;) {
		size_t w = 0;
		if ((*s == '%' || *s == '@') && name_char(s[1])) {
			str_printf(&b, "%c_", *s++);
			while (name_char(*s))
				s++;
			continue;
		}
		while (word_char(s[w]))
			w++;
		if (!w)
			w = 1;
		if (strpbrk(s, "0123456789") && strcspn(s, "0123456789") < w)
			str_puts(&b, "N");
		else
			str_put(&b, s, w);
		s += w;
	}
	fmt_snprintf(buf, n, "%s", b.s && !b.oom ? b.s : status);
	str_free(&b);
}

void
fuzz_signature(const RunOut *r, const Case *c, char *buf, size_t n,
	       SigInfo *info)
{
	unsigned kinds = 0;
	int k = 0;

	if (r->verdict != VERDICT_TOOL_ERROR && r->status != STATUS_BAD)
		kinds = culprit_kinds(r, c);
	if (info) {
		info->in = culprit_constructs(r, c);
		info->culprits = kinds;
		info->verdict = r->verdict;
		info->vkind = r->ex.nviols ? (int)r->ex.viols[0].kind : -1;
	}
	while (k < SIG_CULPRITS && !(kinds >> k & 1))
		k++; /* the most specific */
	if (r->verdict == VERDICT_TOOL_ERROR) {
		char kind[sizeof r->tool.status];
		tool_kind(r->tool.status, kind, sizeof kind);
		fmt_snprintf(buf, n, "tool-error: %s", kind);
	}
	else if (r->status == STATUS_BAD)
		fmt_snprintf(buf, n, "error");
	else
		fmt_snprintf(buf, n, "%s culprit=%s", r->ex.nviols ?
			     violation_class(r->ex.viols[0].kind) :
			     verdict_names[r->verdict], k < SIG_CULPRITS ?
			     sig_culprit_names[key_kind(k)] : "-");
}

/* ------------------------------------------------------------ buckets */

void
buckets_free(Buckets *bs)
{
	for (int i = 0; i < bs->n; i++) {
		mem_free(bs->b[i].sig);
		mem_free(bs->b[i].repro);
	}
	mem_free(bs->b);
	strmap_free(&bs->index);
	memset(bs, 0, sizeof *bs);
}

/* By the index: a merge may hold 10^6 signatures. */
Bucket *
buckets_find(const Buckets *bs, const char *sig)
{
	int i = strmap_get(&bs->index, sig);

	return i < 0 ? NULL : &bs->b[i];
}

/* Keep the BUCKET_SEEDS smallest seeds, sorted, each once. */
void
bucket_seed(Bucket *k, uint64_t seed)
{
	int i = 0, n;

	while (i < k->nseeds && k->seeds[i] < seed)
		i++;
	if ((i < k->nseeds && k->seeds[i] == seed) || i == BUCKET_SEEDS)
		return;
	n = k->nseeds < BUCKET_SEEDS ? k->nseeds : BUCKET_SEEDS - 1;
	memmove(&k->seeds[i + 1], &k->seeds[i], (size_t)(n - i) * sizeof *k->seeds);
	k->seeds[i] = seed;
	if (k->nseeds < BUCKET_SEEDS)
		k->nseeds++;
}

void
bucket_note(Bucket *k, const SigInfo *info)
{
	for (int i = 0; i < C_NAMES; i++)
		k->in[i] += info->in >> i & 1;
	k->verdicts[info->verdict]++;
	k->kinds[info->vkind >= 0 ? info->vkind : VK_COUNT]++;
	for (int i = 0; i < SIG_CULPRITS; i++)
		k->culprits[i] += info->culprits >> i & 1;
}

/* The bucket of sig (made when new, *isnew set), its count raised by
 * count; NULL when out of memory. */
Bucket *
buckets_add(Buckets *bs, const char *sig, long count, bool *isnew)
{
	Bucket *k = buckets_find(bs, sig);

	*isnew = !k;
	if (!k) {
		if (bs->n == bs->cap) {
			int cap = bs->cap ? 2 * bs->cap : 8;
			Bucket *nb = bs->n < INT_MAX / 2 ?
				mem_realloc(bs->b, (size_t)cap * sizeof *nb) : NULL;
			if (!nb)
				return NULL;
			bs->b = nb;
			bs->cap = cap;
		}
		k = &bs->b[bs->n];
		memset(k, 0, sizeof *k);
		if (!(k->sig = mem_strdup(sig)))
			return NULL;
		if (strmap_add(&bs->index, k->sig, bs->n) == STRMAP_OOM) {
			mem_free(k->sig);
			return NULL;
		}
		bs->n++;
	}
	k->count += count;
	return k;
}

void
fuzz_json_string(Str *b, const char *s)
{
	str_puts(b, "\"");
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			str_printf(b, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			str_printf(b, "\\u%04x", (unsigned char)*s);
		else
			str_put(b, s, 1);
	}
	str_puts(b, "\"");
}

/* The name of counter i of a bucket's table t (NULL: not counted). */
static const char *
tally_name(int t, int i)
{
	if (t == 0)
		return sig_construct_names[i];
	if (t == 1)
		return i == VERDICT_DIVERGE || i == VERDICT_FAULT ||
		       i == VERDICT_TOOL_ERROR ? verdict_names[i] : NULL;
	if (t == 3)
		return sig_culprit_names[i];
	return i < VK_COUNT ? vkind_names[i] : "none";
}

enum { NTALLIES = 4 };
static const char *const tally_keys[NTALLIES] = {"constructs", "verdicts",
						   "violations", "culprits"};
static const char *const tally_words[NTALLIES] = {"in", "verdicts",
						    "violations", "culprits"};

static long *
tally(Bucket *k, int t, int *n)
{
	static const int sizes[NTALLIES] = {C_NAMES, VERDICT_COUNT,
					    VK_COUNT + 1, SIG_CULPRITS};
	*n = sizes[t];
	return t == 0 ? k->in : t == 1 ? k->verdicts : t == 2 ? k->kinds
	       : k->culprits;
}

/* `, "constructs": {"loop": 3}, "verdicts": {...}, "violations": {...}`:
 * the counts of a bucket that are not 0. */
static void
tallies_json(Str *b, const Bucket *k)
{
	for (int t = 0; t < NTALLIES; t++) {
		int n, m = 0;
		const long *c = tally((Bucket *)k, t, &n);
		str_printf(b, ", \"%s\": {", tally_keys[t]);
		for (int i = 0; i < n; i++)
			if (c[i] && tally_name(t, i))
				str_printf(b, "%s\"%s\": %ld", m++ ? ", " : "",
					   tally_name(t, i), c[i]);
		str_puts(b, "}");
	}
}

/* `{"KEY": SIG, "count": N, "seeds": [...]` of k, the object left open
 * (a bucket's key is its signature, a refusal's its reason). */
static void
counted_json(Str *b, const Bucket *k, const char *key)
{
	str_printf(b, "{\"%s\": ", key);
	fuzz_json_string(b, k->sig);
	str_printf(b, ", \"count\": %ld, \"seeds\": [", k->count);
	for (int j = 0; j < k->nseeds; j++)
		str_printf(b, "%s%llu", j ? ", " : "",
			   (unsigned long long)k->seeds[j]);
	str_puts(b, "]");
}

void
buckets_json(Str *b, const Buckets *bs)
{
	str_puts(b, "[");
	for (int i = 0; i < bs->n; i++) {
		const Bucket *k = &bs->b[i];
		str_puts(b, i ? ", " : "");
		counted_json(b, k, "signature");
		str_puts(b, ", \"repro\": ");
		if (k->repro)
			fuzz_json_string(b, k->repro);
		else
			str_puts(b, "null");
		tallies_json(b, k);
		str_puts(b, "}");
	}
	str_puts(b, "]");
}

/* "          in: loop 3, call 1" and the verdicts and violations. */
static void
tallies_print(FILE *f, const Bucket *k)
{
	for (int t = 0; t < NTALLIES; t++) {
		int n, m = 0;
		const long *c = tally((Bucket *)k, t, &n);
		for (int i = 0; i < n; i++)
			if (c[i] && tally_name(t, i)) {
				if (m++)
					fputc(',', f);
				else
					fprintf(f, "          %s:", tally_words[t]);
				fprintf(f, " %s %ld", tally_name(t, i), c[i]);
			}
		if (m)
			fputc('\n', f);
	}
}

void
buckets_print(FILE *f, const Buckets *bs)
{
	for (int i = 0; i < bs->n; i++) {
		const Bucket *k = &bs->b[i];
		fprintf(f, "  %6ld  %s\n", k->count, k->sig);
		fprintf(f, "          repro: %s\n", k->repro ? k->repro : "(none)");
		fprintf(f, "          seeds:");
		for (int j = 0; j < k->nseeds; j++)
			fprintf(f, " %llu", (unsigned long long)k->seeds[j]);
		fprintf(f, "%s\n", k->count > k->nseeds ? " ..." : "");
		tallies_print(f, k);
	}
}

/* `"refused": N, "refusals": [{"reason", "count", "seeds"}]`: what the
 * tool refused by design, by reason. */
void
refusals_json(Str *b, long refused, const Buckets *rs)
{
	str_printf(b, "\"refused\": %ld, \"refusals\": [", refused);
	for (int i = 0; i < rs->n; i++) {
		str_puts(b, i ? ", " : "");
		counted_json(b, &rs->b[i], "reason");
		str_puts(b, "}");
	}
	str_puts(b, "]");
}

/* The human line of the same: "refused by the tool (by design, not
 * failures): 40 (4.0%): 25 tensor-launch, 15 cfg-loop". */
void
refusals_print(FILE *f, long refused, long programs, const Buckets *rs)
{
	if (!refused)
		return;
	fprintf(f, "refused by the tool (by design, not failures): %ld (%.1f%%):",
		refused, 100.0 * (double)refused / (double)(programs ? programs : 1));
	for (int i = 0; i < rs->n; i++)
		fprintf(f, "%s %ld %s", i ? "," : "", rs->b[i].count, rs->b[i].sig);
	fprintf(f, "\n");
}

void
fuzz_kept_whole_print(FILE *f, long n)
{
	if (n)
		fprintf(f, "%ld tool error%s kept whole: a bucket's 1st, 2nd, "
			"4th, 8th, ... are reduced\n", n, n == 1 ? "" : "s");
}

/* -------------------------------------------------------------- merge */

static const char *const merge_sums[] = {"programs", "failures", "skipped",
					 "tool_errors", "tool_calls"};
enum { NSUMS = 5 };

typedef struct Merged {
	long sums[NSUMS];
	long constructs[FUZZ_CONSTRUCTS];
	double tool_seconds, seconds, rate, reduce_seconds;
	bool interrupted;
	int shards;
	Str repros;     /* JSON strings, comma-separated */
	int nrepros;
	Buckets bs;
	long refused;   /* refusals by design (none in older summaries) */
	long unreduced; /* failures kept whole: the time was up (issue 25) */
	long kept_whole; /* tool errors kept whole by the bucket's rule */
	Buckets refusals; /* by reason */
} Merged;

static int
merge_fail(const char *path, const char *text, Loc at, const char *msg,
	   const char *arg)
{
	Diag d;

	diag_set(&d, at, "%s%s", msg, arg ? arg : "");
	diag_print(stderr, path, text, &d);
	return 2;
}

/* *acc += the count v (a JSON integer >= 0), unless the sum leaves long:
 * false then (a crafted summary must not overflow: "-2 programs"). */
static bool
add_count(long *acc, const json_t *v)
{
	json_int_t n = json_integer_value(v);

	if (!json_is_integer(v) || n < 0 || n > LONG_MAX - *acc)
		return false;
	*acc += (long)n;
	return true;
}

/* A bucket's counts by construct, verdict and violation kind (absent in
 * the summaries of before: nothing to add). */
static int
merge_tallies(Bucket *b, json_t *k)
{
	for (int t = 0; t < NTALLIES; t++) {
		json_t *o = json_object_get(k, tally_keys[t]), *v;
		int n;
		long *c = tally(b, t, &n);
		if (o && !json_is_object(o))
			return -1;
		for (int i = 0; o && i < n; i++) {
			if (!tally_name(t, i) ||
			    !(v = json_object_get(o, tally_name(t, i))))
				continue;
			if (!add_count(&c[i], v))
				return -1;
		}
	}
	return 0;
}

/* Object k's `key` (its name), count and seeds added to bs: the bucket,
 * or NULL when k is not one. */
static Bucket *
merge_counted(Buckets *bs, json_t *k, const char *key)
{
	json_t *sig = json_object_get(k, key),
	       *cnt = json_object_get(k, "count"),
	       *seeds = json_object_get(k, "seeds");
	Bucket *b;
	size_t i;
	json_t *s;
	bool isnew;

	if (!json_is_string(sig) || !json_is_integer(cnt) ||
	    !json_is_array(seeds) || json_integer_value(cnt) < 1 ||
	    !(b = buckets_add(bs, json_string_value(sig), 0, &isnew)) ||
	    !add_count(&b->count, cnt))
		return NULL;
	json_array_foreach(seeds, i, s) {
		if (!json_is_integer(s) || json_integer_value(s) < 0)
			return NULL;
		bucket_seed(b, (uint64_t)json_integer_value(s));
	}
	return b;
}

/* One bucket of a shard: signature, count, seeds, repro. */
static int
merge_bucket(Merged *m, json_t *k)
{
	json_t *seeds = json_object_get(k, "seeds"),
	       *repro = json_object_get(k, "repro");
	Bucket *b;

	if ((repro && !json_is_string(repro) && !json_is_null(repro)) ||
	    !(b = merge_counted(&m->bs, k, "signature")))
		return -1;
	if (merge_tallies(b, k))
		return -1;
	/* the repro of the smallest seed: shards are merged in any order */
	if (json_is_string(repro) && json_array_size(seeds) &&
	    (!b->repro || (uint64_t)json_integer_value(json_array_get(seeds, 0))
			  <= b->seeds[0])) {
		mem_free(b->repro);
		b->repro = mem_strdup(json_string_value(repro));
	}
	return 0;
}

/* One summary: the JSON object on line `line` of path. */
static int
merge_summary(Merged *m, const char *path, const char *text, int line,
	      const char *obj, size_t len)
{
	json_error_t je;
	json_t *j, *v;
	size_t i;
	int rc = 0;

	if (!(j = json_loadb(obj, len, JSON_REJECT_DUPLICATES, &je)))
		return merge_fail(path, text, (Loc){line, je.column > 0 ?
						    je.column : 1}, je.text, NULL);
	for (int k = 0; k < NSUMS && !rc; k++) {
		v = json_object_get(j, merge_sums[k]);
		if (!json_is_integer(v) || json_integer_value(v) < 0)
			rc = merge_fail(path, text, (Loc){line, 1},
					"not a `bufdiff fuzz --json` summary: "
					"no count ", merge_sums[k]);
		else if (!add_count(&m->sums[k], v))
			rc = merge_fail(path, text, (Loc){line, 1},
					"the summaries' counts add up beyond "
					"what bufdiff counts: ", merge_sums[k]);
	}
	if (!rc) {
		double s = json_number_value(json_object_get(j, "seconds"));
		m->tool_seconds += json_number_value(json_object_get(j, "tool_seconds"));
		m->reduce_seconds += json_number_value(json_object_get(j,
							"reduce_seconds"));
		m->seconds = s > m->seconds ? s : m->seconds;
		m->rate += json_number_value(json_object_get(j, "programs_per_s"));
		m->interrupted |= json_is_true(json_object_get(j, "interrupted"));
		for (int k = 0; k < FUZZ_CONSTRUCTS; k++) {
			v = json_object_get(json_object_get(j, "constructs"),
					    fuzz_construct_names[k]);
			if (v && !add_count(&m->constructs[k], v) && !rc)
				rc = merge_fail(path, text, (Loc){line, 1},
						"a bad count in a fuzz summary: ",
						fuzz_construct_names[k]);
		}
		m->shards++;
		json_array_foreach(json_object_get(j, "repros"), i, v)
			if (json_is_string(v)) {
				str_puts(&m->repros, m->nrepros++ ? ", " : "");
				fuzz_json_string(&m->repros, json_string_value(v));
			}
		json_array_foreach(json_object_get(j, "buckets"), i, v)
			if (!rc && merge_bucket(m, v))
				rc = merge_fail(path, text, (Loc){line, 1},
						"bad bucket in a fuzz summary", NULL);
		v = json_object_get(j, "refused");
		if (v && !rc && !add_count(&m->refused, v))
			rc = merge_fail(path, text, (Loc){line, 1},
					"a bad count in a fuzz summary: ",
					"refused");
		v = json_object_get(j, "unreduced");
		if (v && !rc && !add_count(&m->unreduced, v))
			rc = merge_fail(path, text, (Loc){line, 1},
					"a bad count in a fuzz summary: ",
					"unreduced");
		v = json_object_get(j, "kept_whole");
		if (v && !rc && !add_count(&m->kept_whole, v))
			rc = merge_fail(path, text, (Loc){line, 1},
					"a bad count in a fuzz summary: ",
					"kept_whole");
		json_array_foreach(json_object_get(j, "refusals"), i, v)
			if (!rc && !merge_counted(&m->refusals, v, "reason"))
				rc = merge_fail(path, text, (Loc){line, 1},
						"bad refusal in a fuzz summary", NULL);
	}
	json_decref(j);
	return rc;
}

/* A file of summaries, one a line (JSON Lines: what `parallel` gathers
 * from its jobs' stdout), blank lines skipped. */
static int
merge_text(Merged *m, const char *path, const char *text)
{
	int rc = 0, line = 1, seen = 0;

	for (const char *p = text; *p && !rc; line++) {
		size_t n = strcspn(p, "\n");
		if (strspn(p, " \t\r") < n) {
			rc = merge_summary(m, path, text, line, p, n);
			seen++;
		}
		p += n + (p[n] == '\n');
	}
	if (!rc && !seen)
		rc = merge_fail(path, text, (Loc){1, 1}, "no fuzz summary in the "
				"file", NULL);
	return rc;
}

static int
merge_one(Merged *m, const char *path)
{
	Diag d = {{0, 0}, ""};
	size_t len;
	char *text = input_read(path, MAX_PLAN_BYTES, "a fuzz summary", &len,
				&d);
	int rc;

	if (!text)
		return merge_fail(path, NULL, d.loc, d.msg, NULL);
	rc = merge_text(m, path, text);
	mem_free(text);
	return rc;
}

/* Buckets by their smallest seed: the order one unsharded run finds them. */
static int
cmp_first_seed(const void *a, const void *b)
{
	const Bucket *x = a, *y = b;
	uint64_t sx = x->nseeds ? x->seeds[0] : UINT64_MAX;
	uint64_t sy = y->nseeds ? y->seeds[0] : UINT64_MAX;

	return sx < sy ? -1 : sx > sy ? 1 : strcmp(x->sig, y->sig);
}

/* The merged summaries on out (rc: the reading's status so far); m
 * freed.  0, 1 or 2 as fuzz_merge. */
static int
merge_report(Merged *m, int rc, bool json, FILE *out);

/* `bufdiff fuzz --merge FILE... [--json]`: the shards' summaries added
 * up; exit 0 when no shard failed, 1 when one did, 2 on bad input. */
int
fuzz_merge(int nfiles, const char *const *files, bool json)
{
	Merged m;
	int rc = 0;

	memset(&m, 0, sizeof m);
	for (int i = 0; i < nfiles && !rc; i++)
		rc = merge_one(&m, files[i]);
	return merge_report(&m, rc, json, stdout);
}

int
fuzz_merge_text(const char *name, const char *text, bool json, FILE *out)
{
	Merged m;

	memset(&m, 0, sizeof m);
	return merge_report(&m, merge_text(&m, name, text), json, out);
}

static int
merge_report(Merged *m, int rc, bool json, FILE *out)
{
	if (m->bs.n)
		qsort(m->bs.b, (size_t)m->bs.n, sizeof *m->bs.b, cmp_first_seed);
	if (m->refusals.n) /* the order one unsharded run meets them in */
		qsort(m->refusals.b, (size_t)m->refusals.n, sizeof *m->refusals.b,
		      cmp_first_seed);
	strmap_clear(&m->bs.index); /* its indices are the order before */
	strmap_clear(&m->refusals.index);
	if (!rc && json) {
		Str b = {0};
		char *s, rate[48];
		str_printf(&b, "{\"programs\": %ld, \"failures\": %ld, "
			   "\"skipped\": %ld, \"tool_errors\": %ld, "
			   "\"tool_calls\": %ld, \"tool_seconds\": %.3f, "
			   "\"seconds\": %.3f, \"reduce_seconds\": %.3f, "
			   "\"programs_per_s\": %s, "
			   "\"unreduced\": %ld, \"kept_whole\": %ld, "
			   "\"repros\": [%s], \"interrupted\": %s, "
			   "\"shards\": %d, ",
			   m->sums[0], m->sums[1], m->sums[2], m->sums[3], m->sums[4],
			   m->tool_seconds, m->seconds, m->reduce_seconds,
			   fuzz_rate_of(m->rate, rate, sizeof rate), m->unreduced,
			   m->kept_whole,
			   m->repros.s ? m->repros.s : "",
			   m->interrupted ? "true" : "false", m->shards);
		refusals_json(&b, m->refused, &m->refusals);
		str_puts(&b, ", \"buckets\": ");
		buckets_json(&b, &m->bs);
		str_puts(&b, ", ");
		constructs_json(&b, m->constructs);
		str_puts(&b, "}\n");
		if ((s = str_take(&b)))
			fputs(s, out);
		mem_free(s);
	} else if (!rc) {
		fprintf(out, "%d shards: %ld programs, %ld failures (%ld tool errors) "
		       "in %d bucket%s%s\n", m->shards, m->sums[0], m->sums[1],
		       m->sums[3], m->bs.n, m->bs.n == 1 ? "" : "s",
		       m->interrupted ? " (interrupted)" : "");
		if (m->unreduced)
			fprintf(out, "%ld failure%s left unreduced: the time was "
				"up\n", m->unreduced, m->unreduced == 1 ? "" : "s");
		fuzz_kept_whole_print(out, m->kept_whole);
		refusals_print(out, m->refused, m->sums[0], &m->refusals);
		buckets_print(out, &m->bs);
		constructs_print(out, m->constructs);
	}
	if (!rc)
		rc = m->sums[1] ? 1 : 0;
	str_free(&m->repros);
	buckets_free(&m->bs);
	buckets_free(&m->refusals);
	return rc;
}
