/*
 * native_batch.c: native runs in batches, so that --confirm costs a
 * compile and a runner per batch, not three processes per program
 * (issue 26 item 2; docs/native.md, "Batches").
 *
 * The programs that share a command (native_command: tool, pipeline,
 * options, launches or not) go as chunks of one input through the same
 * passes with --split-input-file (in one mlir-opt-N when the tool is
 * mlir-opt-N itself: native_batch_commands): each chunk is compiled
 * alone, as its own run compiles it, and a chunk that fails prints
 * nothing.  The
 * lowered chunks are then put into one module, each chunk's symbols
 * renamed (`@main` -> `@bufdiff_b3_main`; the declarations of outside
 * functions, malloc or printI64, kept once), with an entry that runs
 * each program's driver in a child process (fork, the driver, fflush,
 * _exit; the parent waits) and prints a line `, K, STATUS` after it.
 * So a program that crashes, aborts or loops is its child's end, never
 * another program's: what a program printed before its line is its
 * stdout, remembered when its child exited with 0 or aborted (then with
 * its part of stderr, which the parent ends with a separator line: used
 * only where the reference fails at an assert and only how the run ends
 * matters, NativeOpts.end_only); else (and when its chunk did not
 * compile, or the batch failed) native_run runs it alone with the
 * per-program command, which reports name as before.
 *
 * Batched only with mlir-opt as the tool and version >= 19 (16 prints no
 * split marker; the entry is LLVM dialect with opaque pointers).
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "mlir.h"

/* (128: a fuzz batch of 64 programs, those with launches twice, is two
 * batches, one without launches, one with: each batch's three process
 * start-ups are about 0.35 s of CPU; 32 before) */
static NativeBatchTune tune = {128, true, true};

static const char entry_name[] = "bufdiff_native_batch";
static const char marker[] = "// -----";
/* after each child on stderr (and before the first) */
static const char err_sep[] = "\n#bufdiff-native-end\n";

typedef struct Memo {
	uint64_t h;
	char *cmd, *src, *out;
	char *err;               /* an abort's stderr; NULL: it ran to its end */
} Memo;

static struct {
	Memo *v;
	int n, cap;
} memo;

static NativeBatchStats stats;

void
native_batch_stats_report(void)
{
	const NativeBatchStats *x = &stats;

	if (getenv("BUFDIFF_NATIVE_STATS")) /* (docs/native.md, Batches) */
		fprintf(stderr, "native batches: %ld, programs in them %ld, "
			"answered there %ld, compiles halved %ld, past their "
			"limit %ld\n", x->batches, x->batched, x->answered,
			x->halved, x->hung);
}

NativeBatchStats *
native_batch_stats(void)
{
	return &stats;
}

NativeBatchTune *
native_batch_tune(void)
{
	return &tune;
}

static uint64_t
hash2(const char *a, const char *b)
{
	uint64_t h = 1469598103934665603ULL;

	for (const char *s = a; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	h = (h ^ 0xff) * 1099511628211ULL;
	for (const char *s = b; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static int
memo_find(const char *cmd, const char *src)
{
	uint64_t h = hash2(cmd, src);

	for (int i = 0; i < memo.n; i++)
		if (memo.v[i].h == h && !strcmp(memo.v[i].cmd, cmd) &&
		    !strcmp(memo.v[i].src, src))
			return i;
	return -1;
}

static void
memo_drop(int i)
{
	mem_free(memo.v[i].cmd);
	mem_free(memo.v[i].src);
	mem_free(memo.v[i].out);
	mem_free(memo.v[i].err);
	memo.v[i] = memo.v[--memo.n];
}

/* Remember out (length n) as the stdout of src under cmd, and err (its
 * stderr, length nerr) when it aborted. */
static void
memo_put(const char *cmd, const char *src, const char *out, size_t n,
	 const char *err, size_t nerr)
{
	Memo m = {hash2(cmd, src), mem_strdup(cmd), mem_strdup(src),
		  mem_alloc(n + 1), err ? mem_alloc(nerr + 1) : NULL};

	if (memo.n == memo.cap) {
		int cap = memo.cap ? 2 * memo.cap : 64;
		Memo *v = mem_realloc(memo.v, (size_t)cap * sizeof *v);
		if (v)
			memo.v = v, memo.cap = cap;
	}
	if (!m.cmd || !m.src || !m.out || (err && !m.err) ||
	    memo.n == memo.cap) {
		mem_free(m.cmd);
		mem_free(m.src);
		mem_free(m.out);
		mem_free(m.err);
		return;
	}
	memcpy(m.out, out, n);
	m.out[n] = 0;
	if (err) {
		memcpy(m.err, err, nerr);
		m.err[nerr] = 0;
	}
	memo.v[memo.n++] = m;
	stats.answered++;
}

void
native_forget(void)
{
	while (memo.n)
		memo_drop(memo.n - 1);
	mem_free(memo.v);
	memset(&memo, 0, sizeof memo);
}

bool
native_batch_take(const char *cmd, const char *src, bool end_only,
		  ToolResult *r)
{
	int i = src ? memo_find(cmd, src) : -1;

	/* (an abort's report names its stderr: only its own run has it) */
	if (i < 0 || (memo.v[i].err && !end_only))
		return false;
	memset(r, 0, sizeof *r);
	r->status = memo.v[i].err ? TOOL_SIGNAL : TOOL_OK;
	r->code = memo.v[i].err ? SIGABRT : 0;
	r->out = memo.v[i].out;
	r->nout = strlen(r->out);
	r->err = memo.v[i].err ? memo.v[i].err : mem_strdup("");
	r->nerr = strlen(r->err ? r->err : "");
	memo.v[i].out = NULL;
	memo.v[i].err = NULL;
	memo_drop(i);
	stats.taken++;
	return true;
}

/* ---- one module of many */

/* An item: one program under one schedule. */
typedef struct Item {
	char *cmd, *src;
	const NativeOpts *o;
	int async;
	bool ok;                 /* its chunk compiled and was taken in */
} Item;

typedef struct Decl {
	char *name, *sig;        /* sig: the line up to " attributes" */
} Decl;

typedef struct Flat {
	Str body;                /* the programs' definitions, renamed */
	Decl *decls;
	int ndecls, cap;
} Flat;

static bool
ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '$' || c == '.' ||
	       c == '-';
}

/* The symbol after the first '@' of line [s, e) into buf; false when
 * there is none or it is quoted. */
static bool
first_symbol(const char *s, const char *e, char *buf, size_t n)
{
	const char *at = memchr(s, '@', (size_t)(e - s)), *p;

	if (!at || at + 1 >= e || at[1] == '"')
		return false;
	for (p = at + 1; p < e && ident_char(*p); p++)
		;
	if (p == at + 1 || (size_t)(p - at) > n)
		return false;
	memcpy(buf, at + 1, (size_t)(p - at - 1));
	buf[p - at - 1] = 0;
	return true;
}

/* Is the outside function `name` declared as sig (or now so)?  false
 * when it is declared otherwise already (the chunk cannot join). */
static bool
declare(Flat *f, const char *name, const char *sig, bool add)
{
	for (int i = 0; i < f->ndecls; i++)
		if (!strcmp(f->decls[i].name, name))
			return !strcmp(f->decls[i].sig, sig);
	if (!add)
		return true;
	if (f->ndecls == f->cap) {
		int cap = f->cap ? 2 * f->cap : 32;
		Decl *v = mem_realloc(f->decls, (size_t)cap * sizeof *v);
		if (!v)
			return false;
		f->decls = v, f->cap = cap;
	}
	f->decls[f->ndecls].name = mem_strdup(name);
	f->decls[f->ndecls].sig = mem_strdup(sig);
	if (!f->decls[f->ndecls].name || !f->decls[f->ndecls].sig) {
		mem_free(f->decls[f->ndecls].name);
		mem_free(f->decls[f->ndecls].sig);
		return false;
	}
	f->ndecls++;
	return true;
}

static bool
has_name(char **names, int n, const char *s, size_t len)
{
	for (int i = 0; i < n; i++)
		if (strlen(names[i]) == len && !memcmp(names[i], s, len))
			return true;
	return false;
}

/* A line of chunk k with its own symbols renamed. */
static void
put_renamed(Str *o, const char *s, const char *e, char **defs, int ndefs,
	    int k)
{
	while (s < e) {
		const char *at = memchr(s, '@', (size_t)(e - s)), *p;
		if (!at) {
			str_put(o, s, (size_t)(e - s));
			return;
		}
		for (p = at + 1; p < e && ident_char(*p); p++)
			;
		str_put(o, s, (size_t)(at + 1 - s));
		if (has_name(defs, ndefs, at + 1, (size_t)(p - at - 1)))
			str_printf(o, "bufdiff_b%d_", k);
		s = at + 1;
	}
}

typedef struct Line {
	const char *s, *e;       /* [s, e), without the newline */
} Line;

static Line
next_line(const char **p, const char *end)
{
	Line l = {*p, memchr(*p, '\n', (size_t)(end - *p))};

	if (!l.e)
		l.e = end;
	*p = l.e < end ? l.e + 1 : end;
	return l;
}

static bool
starts(Line l, const char *pre)
{
	size_t n = strlen(pre);

	return (size_t)(l.e - l.s) >= n && !memcmp(l.s, pre, n);
}

static bool
is_marker(Line l)
{
	return l.e - l.s == (long)strlen(marker) && starts(l, marker);
}

/* needle in line l, or NULL */
static const char *
line_find(Line l, const char *needle)
{
	size_t n = strlen(needle);

	for (const char *p = l.s; p + n <= l.e; p++)
		if (!memcmp(p, needle, n))
			return p;
	return NULL;
}

/* The declaration line l (from after its indent) up to its attributes
 * into sig; false when it is too long. */
static bool
decl_sig(Line l, char *sig, size_t len)
{
	const char *a = line_find(l, " attributes {");
	size_t n = (size_t)((a ? a : l.e) - l.s);

	if (n >= len)
		return false;
	memcpy(sig, l.s, n);
	sig[n] = 0;
	return true;
}

/* Chunk k ([s, e): `module {`, its ops, `}`) into f, its definitions
 * renamed; false (f unchanged but for declarations it agreed with) when
 * it is not one we can take in: no driver (it failed), module
 * attributes, an op other than functions and globals, a quoted symbol,
 * an outside function declared otherwise by another chunk. */
static bool
take_chunk(Flat *f, const char *s, const char *e, int k)
{
	char *defs[4096], name[512];
	int ndefs = 0;
	bool ok = false, driver = false, module = false;
	const char *p = s;
	size_t len0 = f->body.len;

	/* (first pass: the definitions, and is it whole?) */
	while (p < e) {
		Line l = next_line(&p, e);
		const char *q = l.s;
		if (l.s == l.e || starts(l, "//"))
			continue;
		if (!module) {
			if (!(l.e - l.s == 8 && starts(l, "module {")))
				goto out;
			module = true;
			continue;
		}
		if (line_find(l, "@\""))
			goto out;
		if (!starts(l, "  ") || l.s[2] == ' ' || l.s[2] == '^' ||
		    l.s[2] == '}')
			continue; /* (inside an op, a label, an end) */
		q = l.s + 2;
		if (!starts((Line){q, l.e}, "llvm.func ") &&
		    !starts((Line){q, l.e}, "llvm.mlir.global "))
			goto out;
		if (!first_symbol(q, l.e, name, sizeof name))
			goto out;
		if (l.e[-1] != '{' && starts((Line){q, l.e}, "llvm.func ")) {
			/* a declaration: one signature for all */
			char sig[1024];
			if (!decl_sig((Line){q, l.e}, sig, sizeof sig) ||
			    !strncmp(name, "bufdiff_", 8) ||
			    !declare(f, name, sig, false))
				goto out;
			continue;
		}
		if (ndefs == (int)(sizeof defs / sizeof *defs))
			goto out;
		driver |= !strcmp(name, "bufdiff_native_driver");
		if (!(defs[ndefs++] = mem_strdup(name)))
			goto out;
	}
	if (!driver)
		goto out;
	/* (second pass: the declarations kept, the rest renamed) */
	for (p = s, module = false; p < e;) {
		Line l = next_line(&p, e);
		if (l.s == l.e || starts(l, "//"))
			continue;
		if (!module) {
			module = true;
			continue;
		}
		if (l.e - l.s == 1 && *l.s == '}')
			break; /* (the module's end) */
		if (starts(l, "  llvm.func ") && l.e[-1] != '{') {
			char sig[1024];
			decl_sig((Line){l.s + 2, l.e}, sig, sizeof sig);
			first_symbol(l.s, l.e, name, sizeof name);
			if (!declare(f, name, sig, true))
				goto out;
			continue;
		}
		put_renamed(&f->body, l.s, l.e, defs, ndefs, k);
		str_puts(&f->body, "\n");
	}
	ok = !f->body.oom;
out:
	if (!ok && f->body.s && f->body.len > len0) { /* (a chunk half in) */
		f->body.len = len0;
		f->body.s[len0] = 0;
	}
	for (int i = 0; i < ndefs; i++)
		mem_free(defs[i]);
	return ok;
}

/* The entry: each program's driver in a child, then `, K, STATUS`. */
static void
put_entry(Str *o, const Item *it, int n)
{
	int b = 0;

	str_printf(o, "  llvm.func @%s() {\n", entry_name);
	str_puts(o, "    %one = llvm.mlir.constant(1 : i64) : i64\n"
		 "    %z = llvm.mlir.constant(0 : i32) : i32\n"
		 "    %m1 = llvm.mlir.constant(-1 : i32) : i32\n"
		 "    %null = llvm.mlir.zero : !llvm.ptr\n"
		 "    %st = llvm.alloca %one x i32 : (i64) -> !llvm.ptr\n"
		 "    %two = llvm.mlir.constant(2 : i32) : i32\n");
	str_printf(o, "    %%nsep = llvm.mlir.constant(%d : i64) : i64\n"
		   "    %%sep = llvm.mlir.addressof @bufdiff_native_sep : !llvm.ptr\n"
		   "    %%ws = llvm.call @write(%%two, %%sep, %%nsep) : "
		   "(i32, !llvm.ptr, i64) -> i64\n"
		   "    llvm.br ^p0\n", (int)strlen(err_sep));
	for (int k = 0; k < n; k++) {
		if (!it[k].ok)
			continue;
		str_printf(o, "  ^p%d:\n", b);
		str_printf(o, "    %%f%d = llvm.call @fflush(%%null) : (!llvm.ptr) -> i32\n"
			   "    %%pid%d = llvm.call @fork() : () -> i32\n"
			   "    %%ch%d = llvm.icmp \"eq\" %%pid%d, %%z : i32\n"
			   "    llvm.cond_br %%ch%d, ^c%d, ^w%d\n", b, b, b, b, b,
			   b, b);
		str_printf(o, "  ^c%d:\n"
			   "    llvm.call @bufdiff_b%d_bufdiff_native_driver() : () -> ()\n"
			   "    %%g%d = llvm.call @fflush(%%null) : (!llvm.ptr) -> i32\n"
			   "    llvm.call @_exit(%%z) : (i32) -> ()\n"
			   "    llvm.unreachable\n", b, k, b);
		str_printf(o, "  ^w%d:\n"
			   "    llvm.store %%m1, %%st : i32, !llvm.ptr\n"
			   "    %%wr%d = llvm.call @waitpid(%%pid%d, %%st, %%z) : "
			   "(i32, !llvm.ptr, i32) -> i32\n"
			   "    %%ws%d = llvm.call @write(%%two, %%sep, %%nsep) : "
			   "(i32, !llvm.ptr, i64) -> i64\n"
			   "    %%s%d = llvm.load %%st : !llvm.ptr -> i32\n"
			   "    %%sx%d = llvm.sext %%s%d : i32 to i64\n"
			   "    %%k%d = llvm.mlir.constant(%d : i64) : i64\n"
			   "    llvm.call @printComma() : () -> ()\n"
			   "    llvm.call @printI64(%%k%d) : (i64) -> ()\n"
			   "    llvm.call @printComma() : () -> ()\n"
			   "    llvm.call @printI64(%%sx%d) : (i64) -> ()\n"
			   "    llvm.call @printNewline() : () -> ()\n"
			   "    llvm.br ^p%d\n", b, b, b, b, b, b, b, b, k, b, b,
			   b + 1);
		b++;
	}
	str_printf(o, "  ^p%d:\n"
		   "    %%fe = llvm.call @fflush(%%null) : (!llvm.ptr) -> i32\n"
		   "    llvm.return\n  }\n", b);
}

static const char *const entry_decls[][2] = {
	{"fork", "llvm.func @fork() -> i32"},
	{"waitpid", "llvm.func @waitpid(i32, !llvm.ptr, i32) -> i32"},
	{"fflush", "llvm.func @fflush(!llvm.ptr) -> i32"},
	{"_exit", "llvm.func @_exit(i32)"},
	{"printI64", "llvm.func @printI64(i64)"},
	{"printComma", "llvm.func @printComma()"},
	{"printNewline", "llvm.func @printNewline()"},
	{"write", "llvm.func @write(i32, !llvm.ptr, i64) -> i64"},
};

/* The lowered chunks (text, the compile's stdout) as one module with the
 * entry into *out; it[k].ok says which were taken in.  -1 when the
 * chunks are not n (a crash cut the output short). */
static int
flatten(const char *text, Item *it, int n, Str *out)
{
	Flat f = {0};
	const char *p = text, *end = text + strlen(text), *from = text;

	int k = 0, rc = -1, taken = 0;

	for (size_t i = 0; i < sizeof entry_decls / sizeof *entry_decls; i++)
		if (!declare(&f, entry_decls[i][0], entry_decls[i][1], true))
			goto out;
	while (p < end) { /* chunks between marker lines */
		Line l = next_line(&p, end);
		if (!is_marker(l))
			continue;
		if (k < n && (it[k].ok = take_chunk(&f, from, l.s, k)))
			taken++;
		k++;
		from = p;
	}
	if (k < n && (it[k].ok = take_chunk(&f, from, end, k)))
		taken++;
	if (++k != n || !taken)
		goto out;
	str_puts(out, "module {\n");
	for (int i = 0; i < f.ndecls; i++)
		str_printf(out, "  %s\n", f.decls[i].sig);
	str_put(out, f.body.s ? f.body.s : "", f.body.len);
	/* (the separator on stderr: "\n#bufdiff-native-end\n") */
	str_printf(out, "  llvm.mlir.global internal constant "
		   "@bufdiff_native_sep(\"\\0A#bufdiff-native-end\\0A\") : "
		   "!llvm.array<%d x i8>\n", (int)strlen(err_sep));
	put_entry(out, it, n);
	str_puts(out, "}\n");
	rc = out->oom || f.body.oom ? -1 : 0;
out:
	for (int i = 0; i < f.ndecls; i++) {
		mem_free(f.decls[i].name);
		mem_free(f.decls[i].sig);
	}
	mem_free(f.decls);
	str_free(&f.body);
	return rc;
}

/* Does err (its first n bytes) say LLVM or MLIR failed, not the program's
 * assert?  (native_end) */
static bool
tool_failed(const char *err, size_t n)
{
	static const char *const says[] = {"LLVM ERROR", "error:"};

	for (size_t i = 0; i < sizeof says / sizeof *says; i++)
		for (size_t k = 0, m = strlen(says[i]); k + m <= n; k++)
			if (!memcmp(err + k, says[i], m))
				return true;
	return false;
}

/* The runner's stdout: each taken program's output, then `, K, S`;
 * those whose child exited with 0 remembered, and those it aborted (the
 * assert), with their part of stderr (each ends with err_sep). */
static void
split_runs(const char *out, const char *err, const Item *it, int n)
{
	const char *p = out, *q = err ? strstr(err, err_sep) : NULL;
	/* (the runner's own lines, before the first child: alone they
	 * would be every program's) */
	bool aborts = q && !tool_failed(err, (size_t)(q - err));

	for (int k = 0; k < n && p && *p; k++) {
		const char *sep;
		char *e;
		long long kk, st;
		if (!it[k].ok)
			continue;
		if (!(sep = strstr(p, ", ")))
			return;
		kk = strtoll(sep + 2, &e, 10);
		if (kk != k || strncmp(e, ", ", 2))
			return;
		st = strtoll(e + 2, &e, 10);
		if (*e != '\n')
			return;
		if (st == 0)
			memo_put(it[k].cmd, it[k].src, p, (size_t)(sep - p),
				 NULL, 0);
		if (q) { /* this child's stderr */
			const char *from = q + strlen(err_sep);
			q = strstr(from, err_sep);
			if (q && aborts && WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT &&
			    !tool_failed(from, (size_t)(q - from)))
				memo_put(it[k].cmd, it[k].src, p, (size_t)(sep - p),
					 from, (size_t)(q - from));
		}
		p = e + 1;
	}
}

/* One batch it[0..n) of one command: compile, flatten, run.  A compile
 * that dies of a signal (MLIR crashed on one chunk; its output is lost)
 * is tried again in halves, down to batches of two: a crash on one
 * program of 64 costs ~12 compiles, not 64 programs run alone with
 * three processes each (0.5-0.9 s apiece: 34 s of CPU for a fuzz batch
 * of 64).  A time-out is not halved (each half would wait again); the
 * compile's limit is the batch's size (5 s + 0.25 s a program, at most
 * the call's): a crashing mlir-opt could hang in its crash handler (a
 * backtrace taken in a signal handler deadlocked when the crash was in
 * malloc; bufdiff_unwind.so, preloaded into Debian's, prevents it: the
 * limit is for the others), and the programs then run alone under
 * their own limits.  (Halves count again in the stats: sent again.) */
static void
run_batch(Item *it, int n)
{
	const NativeOpts *o = it[0].o;
	double timeout = o->timeout > 0 ? o->timeout : 60;
	Str in = {0}, compile = {0}, run = {0}, flat = {0};
	ToolResult r = {0}, x = {0};
	Diag d;

	if (n < 2)
		return;
	for (int k = 0; k < n; k++) {
		if (k)
			str_printf(&in, "\n%s\n", marker);
		str_puts(&in, it[k].src);
	}
	/* (a child or the compile that crashes prints LLVM's stack dump:
	 * unsymbolized, it costs no llvm-symbolizer, which took the whole
	 * time limit on a deep recursion's frames; that program runs alone
	 * again anyway) */
	str_puts(&compile, "export LLVM_DISABLE_SYMBOLIZATION=1; "); /* a pipe */
	str_puts(&run, "LLVM_DISABLE_SYMBOLIZATION=1 ");
	if (in.oom || native_batch_commands(o, entry_name, &compile, &run, &d))
		goto out;
	stats.batches++;
	stats.batched += n;
	if (tool_call(&(ToolCall){compile.s, in.s, in.len,
				  5 + 0.25 * n < timeout ? 5 + 0.25 * n : timeout,
				  0, true}, &r))
		goto out;
	if (r.status == TOOL_TIMEOUT)
		stats.hung++;
	if (r.status == TOOL_SIGNAL && n > 2) {
		stats.halved++;
		run_batch(it, n / 2);
		run_batch(it + n / 2, n - n / 2);
		goto out;
	}
	if ((r.status != TOOL_OK && r.status != TOOL_EXIT) || !r.out)
		goto out;
	if (flatten(r.out, it, n, &flat))
		goto out;
	if (tool_call(&(ToolCall){run.s, flat.s, flat.len, timeout, 0, true},
		      &x) || !x.out)
		goto out;
	/* (a runner that failed at the end: the lines before it still
	 * say how each child ended) */
	split_runs(x.out, x.err, it, n);
out:
	tool_result_free(&r);
	tool_result_free(&x);
	str_free(&in);
	str_free(&compile);
	str_free(&run);
	str_free(&flat);
}

/* Can o's runs go in batches?  mlir-opt as the tool, 19 or later. */
static bool
batchable(const NativeOpts *o)
{
	return o->v && o->v->version >= 19 && tool_is_mlir_opt(o->tool);
}

int
native_prefill(const NativeJob *jobs, int n)
{
	Item *it = mem_calloc((size_t)(2 * n) + 1, sizeof *it);
	NativeOpts *on = mem_calloc((size_t)n + 1, sizeof *on);
	int size = tune.size > 1 ? tune.size : 1;
	Item *b = mem_calloc((size_t)size, sizeof *b);
	int m = 0, before = (int)stats.answered;

	if (!it || !on || !b)
		goto out;
	for (int i = 0; i < n; i++) {
		NativeSched sch[2] = {NATIVE_PLAIN, NATIVE_PLAIN};
		int ns = 1;
		on[i] = jobs[i].o;
		on[i].async = native_needs_async(jobs[i].p);
		if (!batchable(&on[i]))
			continue;
		if (on[i].async && on[i].only)
			sch[0] = on[i].only;
		else if (on[i].async)
			sch[0] = NATIVE_LATE, sch[1] = NATIVE_SYNC, ns = 2;
		for (int s = 0; s < ns; s++) {
			Str src = {0}, cmd = {0};
			Diag d;
			if (native_source(jobs[i].p, jobs[i].file, jobs[i].entry,
					  jobs[i].inputs, on[i].v, sch[s], &src,
					  &d) ||
			    native_command(&on[i], NULL, &cmd, &d) ||
			    memo_find(cmd.s, src.s) >= 0) {
				str_free(&src);
				str_free(&cmd);
				continue;
			}
			it[m++] = (Item){str_take(&cmd), str_take(&src), &on[i],
					 on[i].async, false};
		}
	}
	/* the items of one command together, tune.size at a time */
	for (int i = 0; i < m; i++) {
		int nb = 0;
		const char *key = it[i].cmd;
		if (!key)
			continue;
		for (int j = i; j < m && nb < size; j++)
			if (it[j].cmd && !strcmp(it[j].cmd, key)) {
				b[nb++] = it[j];
				it[j].cmd = NULL;
				if (j > i)
					it[j].src = NULL;
			}
		it[i].src = NULL;
		run_batch(b, nb);
		for (int k = 0; k < nb; k++) {
			mem_free(b[k].cmd);
			mem_free(b[k].src);
		}
	}
out:
	for (int i = 0; it && i < m; i++) {
		mem_free(it[i].cmd);
		mem_free(it[i].src);
	}
	mem_free(it);
	mem_free(on);
	mem_free(b);
	return (int)stats.answered - before;
}
