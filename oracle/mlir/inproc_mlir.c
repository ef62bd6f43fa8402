/*
 * inproc_mlir.c: the MLIR side of the in-process route (inproc.c), what
 * mlir-opt-22 does for one call, through libMLIR's C API in one long-lived
 * context: parse the program (buffer "<stdin>", as mlir-opt names its
 * stdin), run the pass pipeline (the verifier after each pass), print the
 * module in the generic form with locations and local scope, then "\n".
 * Diagnostics go to err as mlir-opt's SourceMgrDiagnosticHandler prints
 * them: "FILE:L:C: error: MSG", the source line and a caret when the file
 * can be read (<stdin> is the program), notes after their error.
 *
 * Not part of bufdiff: CMake builds it, when it finds libmlir-22-dev, as
 * the module bufdiff_mlir.so that only the worker process dlopen()s (a
 * program linked to libMLIR spends ~0.15 s CPU starting, every bufdiff
 * command would pay it).  So it uses nothing of bufdiff's: its buffers
 * are its own, its two entries plain C (bufdiff_mlir_init and
 * bufdiff_mlir_run, which inproc.c looks up).
 */
#define _GNU_SOURCE /* memfd_create */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <malloc.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <mlir-c/Diagnostics.h>
#include <mlir-c/IR.h>
#include <mlir-c/Pass.h>
#include <mlir-c/RegisterEverything.h>

/* The entries inproc.c looks up (dlsym). */
int bufdiff_mlir_init(void);
void bufdiff_mlir_phases(uint64_t ns[3]);
int bufdiff_mlir_run(const char *pipeline, const char *in, size_t nin,
		     const char *dir, char **out, size_t *nout, char **err,
		     size_t *nerr);

/* A growing buffer (out of memory: the worker dies, a crash). */
typedef struct Buf {
	char *s;
	size_t len, cap;
} Buf;

static void
buf_put(Buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		while (cap < b->len + n + 1)
			cap *= 2;
		if (!(b->s = realloc(b->s, cap)))
			abort();
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = 0;
}

static void
buf_puts(Buf *b, const char *s)
{
	buf_put(b, s, strlen(s));
}

static void buf_printf(Buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
buf_printf(Buf *b, const char *fmt, ...)
{
	char small[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof small) {
		buf_put(b, small, (size_t)n);
		return;
	}
	char *big = malloc((size_t)n + 1);
	if (!big)
		abort();
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	buf_put(b, big, (size_t)n);
	free(big);
}

/* The buffer's text, the buffer emptied (free it). */
static char *
buf_take(Buf *b)
{
	char *s = b->s ? b->s : strdup("");

	*b = (Buf){0};
	if (!s)
		abort();
	return s;
}

/* Calls after which the context is made again: uniqued types, attributes
 * and locations live as long as it does. */
enum { INPROC_RENEW = 4096 };

static MlirContext ctx;
static int ctx_calls;

/* Where the diagnostics of the call being served go. */
typedef struct Call {
	Buf *err;
	const char *in;         /* the program: <stdin>'s lines */
	size_t nin;
	const char *dir;        /* relative file names from here (NULL: cwd) */
} Call;

static Call *current;

static void
put_str(MlirStringRef s, void *ud)
{
	buf_put(ud, s.data, s.length);
}

static void
context_make(void)
{
	MlirDialectRegistry reg = mlirDialectRegistryCreate();

	mlirRegisterAllDialects(reg);
	ctx = mlirContextCreateWithRegistry(reg, false);
	mlirDialectRegistryDestroy(reg);
	ctx_calls = 0;
}

/* Line `line` (1-based) of text[0..n): its start and length, NULL when
 * there is none. */
static const char *
text_line(const char *text, size_t n, unsigned line, size_t *len)
{
	const char *p = text, *end = text + n;

	for (unsigned l = 1; l < line; l++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			return NULL;
		p = nl + 1;
	}
	if (p > end)
		return NULL;
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	*len = nl ? (size_t)(nl - p) : (size_t)(end - p);
	if (*len && p[*len - 1] == '\r')
		(*len)--;
	return p;
}

/* The source line and its caret as llvm::SMDiagnostic prints them: tabs
 * to stops of 8, the caret line without trailing blanks; lines over 4096
 * bytes are not shown. */
static void
source_line(Buf *b, const char *line, size_t len, unsigned col)
{
	size_t c = col ? col - 1 : 0, w = 0;
	bool tabs = memchr(line, '\t', len) != NULL;

	if (len > 4096)
		return;
	if (c > len)
		c = len;
	for (size_t i = 0; i < len; i++) {
		if (line[i] == '\t' && tabs) {
			do
				buf_puts(b, " ");
			while (++w % 8);
		} else {
			buf_put(b, line + i, 1), w++;
		}
	}
	buf_puts(b, "\n");
	w = 0;
	for (size_t i = 0; i < c; i++) {
		size_t step = line[i] == '\t' ? 8 - w % 8 : 1;
		for (size_t k = 0; k < step; k++)
			buf_puts(b, " ");
		w += step;
	}
	buf_puts(b, "^\n");
}

/* The text of file `name` as mlir-opt would load it (relative to the
 * command's directory); NULL when it cannot. */
static char *
file_text(const char *name, const char *dir, size_t *n)
{
	Buf path = {0};
	char *p, *text = NULL;
	FILE *f;

	if (dir && name[0] != '/')
		buf_printf(&path, "%s/", dir);
	buf_puts(&path, name);
	if (!(p = buf_take(&path)))
		return NULL;
	if ((f = fopen(p, "rb"))) {
		Buf t = {0};
		char buf[65536];
		size_t k;
		while ((k = fread(buf, 1, sizeof buf, f)) > 0)
			buf_put(&t, buf, k);
		fclose(f);
		*n = t.len;
		text = buf_take(&t);
	}
	free(p);
	return text;
}

static const char *const kind_word[] = {"error", "warning", "note", "remark"};

/* The first FileLineCol location in loc (a call site's callee, a name's
 * child, a fused location's first that has one). */
static bool
file_loc(MlirLocation loc, MlirLocation *out)
{
	if (mlirLocationIsAFileLineColRange(loc)) {
		*out = loc;
		return true;
	}
	if (mlirLocationIsACallSite(loc))
		return file_loc(mlirLocationCallSiteGetCallee(loc), out);
	if (mlirLocationIsAName(loc))
		return file_loc(mlirLocationNameGetChildLoc(loc), out);
	if (mlirLocationIsAFused(loc)) {
		intptr_t n = mlirLocationFusedGetNumLocations(loc);
		MlirLocation *v = calloc((size_t)n + 1, sizeof *v);
		bool found = false;
		if (!v)
			return false;
		mlirLocationFusedGetLocations(loc, v);
		for (intptr_t i = 0; i < n && !found; i++)
			found = file_loc(v[i], out);
		free(v);
		return found;
	}
	return false;
}

/* One diagnostic (not its notes) into the call's stderr. */
static void
emit_one(MlirDiagnostic d, bool show_line)
{
	Buf *b = current->err;
	Buf msg = {0};
	MlirLocation loc = mlirDiagnosticGetLocation(d), fl;
	const char *kind = kind_word[mlirDiagnosticGetSeverity(d) & 3];
	char *m;

	mlirDiagnosticPrint(d, put_str, &msg);
	if (!(m = buf_take(&msg)))
		return;
	if (!file_loc(loc, &fl)) {
		Buf l = {0};
		char *ls;
		mlirLocationPrint(loc, put_str, &l);
		ls = buf_take(&l);
		/* SourceMgr's message without a location */
		buf_printf(b, "<unknown>:0: %s: ", kind);
		if (ls && strcmp(ls, "loc(unknown)"))
			buf_printf(b, "%s: ", ls);
		buf_printf(b, "%s\n", m);
		free(ls);
		free(m);
		return;
	}
	MlirStringRef f = mlirIdentifierStr(
		mlirLocationFileLineColRangeGetFilename(fl));
	unsigned line = (unsigned)mlirLocationFileLineColRangeGetStartLine(fl);
	unsigned col = (unsigned)mlirLocationFileLineColRangeGetStartColumn(fl);
	char *name = malloc(f.length + 1);
	const char *text = NULL, *src = NULL;
	char *loaded = NULL;
	size_t n = 0, len = 0;

	if (!name) {
		free(m);
		return;
	}
	memcpy(name, f.data, f.length);
	name[f.length] = 0;
	if (!strcmp(name, "<stdin>")) {
		text = current->in;
		n = current->nin;
	} else if (*name && (loaded = file_text(name, current->dir, &n))) {
		text = loaded;
	}
	if (text && line)
		src = text_line(text, n, line, &len);
	buf_printf(b, "%s:%u:%u: %s: %s\n", name, line, col, kind, m);
	if (src && show_line)
		source_line(b, src, len, col);
	free(loaded);
	free(name);
	free(m);
}

/* A diagnostic and its notes; a note shows its source line only when
 * its location is not the one before it (as SourceMgrDiagnosticHandler). */
static MlirLogicalResult
on_diag(MlirDiagnostic d, void *ud)
{
	MlirLocation prev = mlirDiagnosticGetLocation(d);

	if (!current)
		return mlirLogicalResultSuccess();
	emit_one(d, true);
	for (intptr_t i = 0; i < mlirDiagnosticGetNumNotes(d); i++) {
		MlirDiagnostic n = mlirDiagnosticGetNote(d, i);
		MlirLocation at = mlirDiagnosticGetLocation(n);
		emit_one(n, !mlirLocationEqual(at, prev));
		prev = at;
	}
	return mlirLogicalResultSuccess();
}

/* A pipeline's parse errors (mlir-opt: "<unknown>:0: error: MSG"). */
static void
pipeline_error(MlirStringRef s, void *ud)
{
	buf_put(ud, s.data, s.length);
}

/* The pass manager of the last pipeline, kept for the next call (most
 * calls of a run ask the same); NULL pipe: none. */
static MlirPassManager pm;
static char *pm_pipeline;

static void
pm_drop(void)
{
	if (pm_pipeline)
		mlirPassManagerDestroy(pm);
	free(pm_pipeline);
	pm_pipeline = NULL;
}

/* The pass manager for pipeline (anchored on builtin.module, as mlir-opt's
 * on the parsed module), made if needed; false with its errors in err. */
static bool
pm_get(const char *pipeline, Buf *err)
{
	Buf perr = {0};

	if (pm_pipeline && !strcmp(pm_pipeline, pipeline))
		return true;
	pm_drop();
	pm = mlirPassManagerCreateOnOperation(ctx,
		mlirStringRefCreateFromCString("builtin.module"));
	if (mlirLogicalResultIsFailure(mlirParsePassPipeline(
		    mlirPassManagerGetAsOpPassManager(pm),
		    mlirStringRefCreateFromCString(pipeline), pipeline_error,
		    &perr))) {
		char *m = buf_take(&perr);
		buf_printf(err, "<unknown>:0: error: %s\n", m);
		free(m);
		mlirPassManagerDestroy(pm);
		return false;
	}
	free(perr.s);
	if (!(pm_pipeline = strdup(pipeline)))
		abort();
	return true;
}

/* The program on fd 0, as mlir-opt reads it: the parser reads "-" as
 * the buffer "<stdin>" (its locations' file name), and wraps top-level
 * ops that are not one module in one, as mlir-opt does.  A memfd holds
 * it (any size, no reader needed). */
static bool
stdin_text(const char *in, size_t n)
{
	static int fd = -1; /* one for every call: its pages stay */

	if (fd < 0 && (fd = memfd_create("stdin", MFD_CLOEXEC)) < 0)
		return false;
	if (ftruncate(fd, 0))
		return false;
	for (size_t off = 0; off < n;) {
		ssize_t k = pwrite(fd, in + off, n - off, (off_t)off);
		if (k <= 0)
			return false;
		off += (size_t)k;
	}
	lseek(fd, 0, SEEK_SET);
	return dup2(fd, 0) == 0;
}

/* mlir::registerAsmPrinterCLOptions(): the printer's command-line
 * options, read by every OpPrintingFlags made, also those of the "see
 * current operation" notes.  No C API has it; its C++ name does. */
extern void register_asm_printer_cl_options(void)
	__asm__("_ZN4mlir27registerAsmPrinterCLOptionsEv");
/* llvm-c/Support.h's and llvm-c/Core.h's */
extern void LLVMParseCommandLineOptions(int argc, const char *const *argv,
					const char *overview);
extern void LLVMEnablePrettyStackTrace(void);
int
bufdiff_mlir_init(void)
{
	/* the printing options of mlir-opt-22's command line */
	static const char *const argv[] = {
		"mlir-opt-22", "--mlir-print-op-generic",
		"--mlir-print-debuginfo", "--mlir-print-local-scope",
	};

#ifdef M_MMAP_THRESHOLD
	/* this process only: MLIR's many blocks and the answers reuse the
	 * heap instead of a fresh mmap (and its page faults) per call */
	mallopt(M_MMAP_THRESHOLD, 64 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
	register_asm_printer_cl_options();
	LLVMParseCommandLineOptions(4, argv, "");
	/* a crash says so on stderr, as mlir-opt's does; not its
	 * backtrace: printing one (dladdr on every frame of libMLIR, a
	 * deep recursion's thousands) took half a fuzz campaign's CPU,
	 * and mlir-opt-22 prints it again from the report's command */
	LLVMEnablePrettyStackTrace();
	mlirRegisterAllPasses();
	context_make();
	return mlirContextIsNull(ctx) ? -1 : 0;
}

/* The last call's CPU time in the parse (with the verifier after it),
 * the pipeline and the print, this thread's clock: what MLIR itself
 * costs a program (bench_mlir_inproc); a phase not run is 0. */
static uint64_t phase_ns[3];

static uint64_t
thread_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

void
bufdiff_mlir_phases(uint64_t ns[3])
{
	memcpy(ns, phase_ns, sizeof phase_ns);
}

/* One call: the exit status mlir-opt would give (0, or 1 when the
 * pipeline, the parse or a pass failed); *out and *err are this module's
 * buffers, valid until the next call (kept: a big answer's pages are not
 * faulted in again for every call). */
int
bufdiff_mlir_run(const char *pipeline, const char *in, size_t nin,
		 const char *dir, char **out, size_t *nout, char **err,
		 size_t *nerr)
{
	static Buf o, e;
	Call call = {&e, in, nin, dir};
	MlirModule mod;
	MlirOperation op;
	MlirDiagnosticHandlerID h;
	int rc = 1;
	uint64_t t0, t1;

	o.len = e.len = 0;
	memset(phase_ns, 0, sizeof phase_ns);
	if (++ctx_calls > INPROC_RENEW) {
		pm_drop();
		mlirContextDestroy(ctx);
		context_make();
	}
	current = &call;
	h = mlirContextAttachDiagnosticHandler(ctx, on_diag, NULL, NULL);
	if (!pm_get(pipeline, &e))
		goto out;
	if (!stdin_text(in, nin))
		abort();
	t0 = thread_ns();
	mod = mlirModuleCreateParseFromFile(ctx,
		mlirStringRefCreateFromCString("-"));
	phase_ns[0] = (t1 = thread_ns()) - t0;
	if (mlirModuleIsNull(mod))
		goto out;
	op = mlirModuleGetOperation(mod);
	if (mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, op))) {
		MlirOpPrintingFlags fl;
		phase_ns[1] = (t0 = thread_ns()) - t1;
		fl = mlirOpPrintingFlagsCreate();
		mlirOpPrintingFlagsEnableDebugInfo(fl, true, false);
		mlirOpPrintingFlagsPrintGenericOpForm(fl);
		mlirOpPrintingFlagsUseLocalScope(fl);
		mlirOperationPrintWithFlags(op, fl, put_str, &o);
		mlirOpPrintingFlagsDestroy(fl);
		buf_puts(&o, "\n");
		phase_ns[2] = thread_ns() - t0;
		rc = 0;
	} else {
		phase_ns[1] = thread_ns() - t1;
	}
	mlirModuleDestroy(mod);
out:
	mlirContextDetachDiagnosticHandler(ctx, h);
	current = NULL;
	buf_put(&o, "", 0); /* both NUL-terminated, even empty */
	buf_put(&e, "", 0);
	*nout = o.len;
	*out = o.s;
	*nerr = e.len;
	*err = e.s;
	return rc;
}
