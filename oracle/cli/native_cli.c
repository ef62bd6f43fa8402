/*
 * native_cli.c: `bufdiff native CASE [--mlir-version N] [--tool-timeout SEC]
 * [--out FILE]`: the case's program compiled by MLIR itself (One-Shot
 * Bufferize with the `mlir` strategy's options, lowered to LLVM) and run by
 * mlir-runner on the case's inputs; its outputs compared bit for bit with
 * the reference interpreter's (docs/native.md).  --out writes the
 * self-contained .mlir (program and driver) and the command names it.
 * Exit 0 the outputs agree, 1 they differ, 2 bad input or a failed tool.
 */
#include <stdio.h>

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
		if (tensor_defined(ref, i) && !tensor_elem_equal(ref, got, i))
			return i;
	return -1;
}

static int
write_source(const Case *c, const MlirVersion *v, const char *path, Diag *d)
{
	Str src = {0};
	FILE *f;
	int rc = -1;

	if (native_source(c->prog, c->file, c->entry, c->inputs, v, &src, d))
		goto out;
	if (!(f = fopen(path, "w"))) {
		diag_set(d, (Loc){0, 0}, "cannot write %s", path);
		goto out;
	}
	rc = fwrite(src.s, 1, src.len, f) == src.len ? 0 : -1;
	if (fclose(f) || rc)
		rc = diag_set(d, (Loc){0, 0}, "cannot write %s", path);
out:
	str_free(&src);
	return rc;
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
	NativeOpts no = {v, NULL, NULL, NULL, a->tool_timeout};
	Diag d;

	if (case_load(path, 0, &c, &d) || tir_verify(c->prog, &c->lim, &d) ||
	    ref_run(c->prog, c->entry, c->inputs, &c->lim, &ref, &nref, &d)) {
		if (d.loc.line > 0)
			diag_print(stderr, path, c ? c->text : NULL, &d);
		else
			fprintf(stderr, "%s: error: %s\n", path, d.msg);
		goto out;
	}
	if (a->out && (write_source(c, v, a->out, &d) ||
		       native_command(&no, a->out, &cmd, &d))) {
		fprintf(stderr, "%s: error: %s\n", path, d.msg);
		goto out;
	}
	str_printf(&b, "case %s (%s)\nreference outputs:\n", c->name, path);
	for (int k = 0; k < nref; k++)
		put_output(&b, c->entry, k, ref[k]);
	if (native_run(c->prog, path, c->entry, c->inputs, ref, nref, &no, &nr,
		       &d)) {
		fputs(b.s, stdout);
		fprintf(stderr, "%s: error: %s\n  command: %s\n", path, d.msg,
			cmd.s ? cmd.s : nr.command ? nr.command : "");
		goto out;
	}
	str_printf(&b, "native outputs (mlir-opt-%d, One-Shot Bufferize):\n",
		   v->version);
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
	str_printf(&b, "command: %s%s\n", cmd.s ? cmd.s : nr.command,
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
