/*
 * native_cli.c: `bufdiff native CASE [--mlir-version N] [--tool-timeout SEC]
 * [--out FILE]`: the case's program compiled by MLIR itself (One-Shot
 * Bufferize with the `mlir` strategy's options, lowered to LLVM) and run by
 * mlir-runner on the case's inputs; its outputs compared bit for bit with
 * the reference interpreter's (docs/native.md).  --out writes the
 * self-contained .mlir (program and driver) and the command names it.
 * Exit 0 the outputs agree, 1 they differ, 2 bad input or a failed tool.
 *
 * `bufdiff upstream CASE [--mlir-version N] [--out FILE]`: the same program
 * and driver as a lit test for llvm-project's bug tracker: a RUN line,
 * CHECK lines of the reference's outputs (so it fails until MLIR is
 * fixed), and what MLIR gives today in a comment.  Exit 0 written, 1
 * MLIR's output agrees (nothing to report), 2 bad input or a failed tool.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cases.h"
#include "harness.h"
#include "mlir.h"

static void
put_output(Str *b, const Func *entry, int k, const Tensor *t)
{
	str_printf(b, "  %d: ", k);
	emit_data(b, t, entry->rtypes[k]);
	str_puts(b, "\n");
}

/* The first defined element where a and b differ, bit for bit; -1 none. */
static int64_t
first_diff(const Tensor *ref, const Tensor *got)
{
	for (int64_t i = 0; i < ref->n; i++)
		if (tensor_defined(ref, i) && !native_elem_close(ref, got, i))
			return i;
	return -1;
}

/* The case at path, verified, and the reference's outputs; -1 after
 * printing the located error.  A reference that fails at an assert is an
 * error too, unless asserted is given: then 1 with the assert's place and
 * message there (no outputs). */
static int
load_reference(const char *path, Case **c, Tensor ***ref, int *nref,
	       Diag *asserted)
{
	Diag d;
	int rr = -1;

	if (!case_load(path, 0, c, &d) && !tir_verify((*c)->prog, &(*c)->lim, &d) &&
	    !(rr = ref_run((*c)->prog, (*c)->entry, (*c)->inputs, &(*c)->lim,
			   ref, nref, &d)))
		return 0;
	if (rr == 1 && asserted) {
		*asserted = d;
		return 1;
	}
	if (d.loc.line > 0)
		diag_print(stderr, path, *c ? (*c)->text : NULL, &d);
	else
		term_fprintf(stderr, "%s: error: %s\n", path, d.msg);
	return -1;
}

/* d at its place in the case (an export error: the TIR op that cannot
 * run natively), else the case's name. */
static void
report_error(const char *path, const Case *c, const Diag *d)
{
	if (d->loc.line > 0)
		diag_print(stderr, path, c ? c->text : NULL, d);
	else
		term_fprintf(stderr, "%s: error: %s\n", path, d->msg);
}

static int
write_source(const Case *c, const MlirVersion *v, NativeSched sched,
	     const char *path, Diag *d)
{
	Str src = {0};
	int rc = -1;

	if (native_source(c->prog, c->file, c->entry, c->inputs, v, sched, &src,
			  d))
		goto out;
	if ((rc = output_write(path, src.s, src.len)))
		diag_set(d, (Loc){0, 0}, "cannot write %s: %s", path,
			 strerror(errno));
out:
	str_free(&src);
	return rc;
}

/* "HEAD COMMAND TAIL\n": a shell line to paste (its outside words quoted
 * by sh_word; a newline in a quoted word kept, other controls escaped). */
static void
command_line(Str *b, const char *head, const char *cmd, const char *tail)
{
	cmd = cmd ? cmd : "";
	str_puts(b, head);
	term_escape(b, cmd, strlen(cmd), true);
	str_puts(b, tail);
	str_puts(b, "\n");
}

int
cmd_native(const Args *a)
{
	const char *path = a->paths[0];
	const MlirVersion *v = mlir_version(a->mlir_version ? a->mlir_version : 22);
	Case *c = NULL;
	Tensor **ref = NULL;
	int nref = 0, rc = 2, differ = 0;
	Native nr = {0};
	Str b = {0}, cmd = {0};
	NativeOpts no = {.v = v, .timeout = a->tool_timeout};
	Diag d, d2, asserted;
	int failed, lr;

	if ((lr = load_reference(path, &c, &ref, &nref, &asserted)) < 0)
		goto out;
	no.async = native_needs_async(c->prog);
	term_printf(&b, "case %s (%s)\n", c->name, path);
	if (lr) {
		term_printf(&b, "reference: fails at the assert at %s:%d:%d: %s\n",
			   path, asserted.loc.line, asserted.loc.col,
			   asserted.msg);
	} else {
		str_puts(&b, "reference outputs:\n");
		for (int k = 0; k < nref; k++)
			put_output(&b, c->entry, k, ref[k]);
	}
	failed = native_run(c->prog, path, c->entry, c->inputs, ref, nref, &no,
			    &nr, &d);
	/* (the file holds the schedule that ran last: the one that differs,
	 * or failed) */
	if (a->out && (write_source(c, v, nr.sched, a->out, &d2) ||
		       native_command(&no, a->out, &cmd, &d2))) {
		report_error(path, c, &d2);
		goto out;
	}
	if (lr && native_end(&nr) != NATIVE_END_NONE) {
		/* (the reference fails at an assert: natively it aborts) */
		differ = native_end(&nr) == NATIVE_END_RAN;
		str_printf(&b, "native (mlir-opt-%d, One-Shot Bufferize%s%s): %s\n",
			   v->version, nr.sched ? "; launches " : "",
			   native_sched_str(nr.sched), differ ? "runs past the "
			   "assert" : "aborts at an assert too");
		str_printf(&b, "native: %s\n", differ ? "differ" : "agree");
		command_line(&b, "command: ", cmd.s ? cmd.s : nr.command,
			     cmd.s ? "" : " < (the program and driver: --out FILE)");
		fputs(b.s ? b.s : "", stdout);
		rc = differ ? 1 : 0;
		goto out;
	}
	if (failed) {
		fputs(b.s, stdout);
		report_error(path, c, &d);
		{
			Str l = {0};
			command_line(&l, "  command: ", cmd.s ? cmd.s :
				     nr.command, "");
			fputs(l.s ? l.s : "", stderr);
			str_free(&l);
		}
		goto out;
	}
	str_printf(&b, "native outputs (mlir-opt-%d, One-Shot Bufferize%s%s):\n",
		   v->version, nr.sched ? "; launches " : "",
		   native_sched_str(nr.sched));
	for (int k = 0; k < nref; k++) {
		int64_t i = first_diff(ref[k], nr.outs[k]);
		put_output(&b, c->entry, k, nr.outs[k]);
		if (i < 0)
			continue;
		differ++;
		str_printf(&b, "    differs at element %lld: reference %.9g, native "
			   "%.9g\n", (long long)i, tensor_getf(ref[k], i),
			   tensor_getf(nr.outs[k], i));
	}
	str_printf(&b, "native: %s\n", differ ? "differ" : "agree");
	command_line(&b, "command: ", cmd.s ? cmd.s : nr.command,
		     cmd.s ? "" : " < (the program and driver: --out FILE)");
	fputs(b.s ? b.s : "", stdout);
	rc = differ ? 1 : 0;
out:
	for (int k = 0; k < nref; k++)
		tensor_free(ref[k]);
	mem_free(ref);
	native_free(&nr);
	str_free(&b);
	str_free(&cmd);
	case_free(c);
	return rc;
}

/* ---- bufdiff upstream: a lit test for the bug tracker */

/* s without its ` loc("FILE":L:C)` attributes (bufdiff's case file means
 * nothing in llvm-project). */
static void
put_without_locs(Str *b, const char *s)
{
	const char *p;

	while ((p = strstr(s, " loc(\""))) {
		const char *q = strchr(p + 6, '"');
		str_put(b, s, (size_t)(p - s));
		q = q ? strchr(q, ')') : NULL;
		if (!q) { /* not ours: keep it */
			str_puts(b, " loc(\"");
			s = p + 6;
			continue;
		}
		s = q + 1;
	}
	str_puts(b, s);
}

static bool
write_text_file(const char *path, const char *s, size_t n)
{
	return output_write(path, s, n) != 0;
}

/* "// CHECK-NEXT: BITS" lines of every output element, with the value. */
static void
put_checks(Str *b, Tensor *const *outs, int n, bool first)
{
	for (int k = 0; k < n; k++)
		for (int64_t i = 0; i < outs[k]->n; i++) {
			const Tensor *x = outs[k];
			long long bits;
			char v[64];
			if (x->dt == DT_F32) {
				float f = (float)tensor_getf(x, i);
				uint32_t u;
				memcpy(&u, &f, 4);
				bits = (long long)u;
			} else if (x->dt == DT_F64) {
				double f = tensor_getf(x, i);
				int64_t u;
				memcpy(&u, &f, 8);
				bits = (long long)u;
			} else {
				bits = (long long)tensor_geti(x, i);
			}
			tensor_elem_str(x, i, v, sizeof v);
			str_printf(b, "// CHECK%s: {{^}}%lld{{$}}", first ? "" : "-NEXT",
				   bits);
			if (x->dt == DT_F32 || x->dt == DT_F64)
				str_printf(b, "  (%s)", v);
			str_puts(b, "\n");
			first = false;
		}
}

int
cmd_upstream(const Args *a)
{
	const char *path = a->paths[0];
	const MlirVersion *v = mlir_version(a->mlir_version ? a->mlir_version : 22);
	Case *c = NULL;
	Tensor **ref = NULL;
	int nref = 0, rc = 2;
	Native nr = {0};
	Str b = {0}, src = {0}, cmd = {0};
	NativeOpts no = {.v = v, .timeout = a->tool_timeout, .lit = true};
	Diag d;
	bool differ = false;

	if (load_reference(path, &c, &ref, &nref, NULL))
		goto out;
	no.async = native_needs_async(c->prog);
	if (native_run(c->prog, path, c->entry, c->inputs, ref, nref, &no, &nr,
		       &d) || native_source(c->prog, path, c->entry, c->inputs,
					    v, nr.sched, &src, &d) ||
	    native_command(&no, "%s", &cmd, &d)) {
		report_error(path, c, &d);
		goto out;
	}
	for (int k = 0; k < nref; k++)
		differ |= first_diff(ref[k], nr.outs[k]) >= 0;
	if (!differ) {
		term_fprintf(stderr, "%s: MLIR's own output (mlir-opt-%d) agrees with the "
			"reference: nothing to report upstream\n", path,
			v->version);
		rc = 1;
		goto out;
	}
	/* one line each, whatever the name holds: a newline would start a
	 * line lit reads (a RUN: line runs) */
	term_printf(&b, "// %s: %s\n", c->name, "a miscompile of One-Shot "
		    "Bufferize, found by bufdiff");
	term_printf(&b, "// RUN: %s | FileCheck %%s\n", cmd.s);
	str_printf(&b, "// (the runtime libraries as Debian's llvm-%d installs "
		   "them; in llvm-project: %%mlir_c_runner_utils,"
		   "%%mlir_runner_utils%s)\n//\n", v->version,
		   no.async ? ",%mlir_async_runtime" : "");
	if (nr.sched == NATIVE_LATE)
		str_puts(&b, "// Each launch is held by a gate token "
			 "(async.runtime.create) until just before its\n"
			 "// await: a legal schedule (a launch may start at any "
			 "time before its await), made\n// deterministic.  The "
			 "gates touch no tensor.\n//\n");
	else if (nr.sched == NATIVE_SYNC)
		str_puts(&b, "// Each launch is awaited right where it is made: "
			 "a legal schedule, made\n// deterministic.  The awaits "
			 "touch no tensor.\n//\n");
	str_puts(&b, "// Every output element is printed as its bit pattern, one "
		 "a line.  Value semantics (the\n// tensor program as written) give "
		 "the CHECK lines; mlir-opt today gives:\n");
	for (int k = 0; k < nref; k++) {
		str_printf(&b, "//   output %d: ", k);
		emit_data(&b, nr.outs[k], c->entry->rtypes[k]);
		str_puts(&b, "  (expected ");
		emit_data(&b, ref[k], c->entry->rtypes[k]);
		str_puts(&b, ")\n");
	}
	str_puts(&b, "//\n");
	put_checks(&b, ref, nref, true);
	str_puts(&b, "\n");
	put_without_locs(&b, src.s);
	if (b.oom || (a->out ? write_text_file(a->out, b.s, b.len)
		      : fwrite(b.s, 1, b.len, stdout) != b.len)) {
		term_fprintf(stderr, "%s: error: cannot write %s\n", path,
			     a->out ? a->out : "stdout");
		goto out;
	}
	rc = 0;
out:
	for (int k = 0; k < nref; k++)
		tensor_free(ref[k]);
	mem_free(ref);
	native_free(&nr);
	str_free(&b);
	str_free(&src);
	str_free(&cmd);
	case_free(c);
	return rc;
}
