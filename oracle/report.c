/*
 * report.c: what a case did, as text, JSON (FORMAT.md §3) and JUnit XML.
 *
 * JSON floats: Jansson prints reals with %.17g, so f32 0.1 would come out
 * as 0.10000000149011612.  Instead each float becomes a string holding a
 * NUL byte, '#' and the shortest round-trip text of the value in its
 * dtype; after json_dumps the token "\u0000#TEXT" is replaced by TEXT.
 * No other string can produce "\u0000": every string we emit comes from
 * a C string, which holds no NUL.
 */
#include <inttypes.h>
#include <jansson.h>
#include <math.h>

#include "oracle.h"

static const char *const status_names[] = {
	[STATUS_OK] = "ok", [STATUS_FAIL] = "failed", [STATUS_BAD] = "error",
};

/* ---------------------------------------------------------- text */

static void
text_nested(FILE *out, const Tensor *t, int depth, int64_t *pos)
{
	char buf[64];

	if (depth == t->rank) {
		tensor_elem_str(t, (*pos)++, buf, sizeof buf);
		fputs(buf, out);
		return;
	}
	fputc('[', out);
	for (int64_t i = 0; i < t->dims[depth]; i++) {
		if (i)
			fputs(", ", out);
		text_nested(out, t, depth + 1, pos);
	}
	fputc(']', out);
}

void
report_tensor(FILE *out, const Tensor *t)
{
	int64_t pos = 0;

	text_nested(out, t, 0, &pos);
}

void
report_text(FILE *out, const Case *c, const Outcome *o)
{
	char tb[128];

	if (c && c->name)
		fprintf(out, "case %s (%s)\n", c->name, c->file);
	else
		fprintf(out, "case %s\n", c ? c->file : "?");
	if (o->errored) {
		if (o->status == STATUS_OK)
			fprintf(out, "error as expected: %d:%d: %s\n",
				o->err.loc.line, o->err.loc.col, o->err.msg);
		else if (o->status == STATUS_FAIL)
			fprintf(out, "FAIL: %s\n", o->why);
		return;
	}
	fprintf(out, "reference outputs:\n");
	for (int i = 0; i < o->nouts; i++) {
		const Type *t = c->entry && i < c->entry->nrtypes ?
					c->entry->rtypes[i] : NULL;

		fprintf(out, "  %d: %s = ", i, t ? type_str(t, tb, sizeof tb) : "?");
		report_tensor(out, o->outs[i]);
		fputc('\n', out);
	}
	if (o->status == STATUS_FAIL)
		fprintf(out, "FAIL: %s\n", o->why);
	else if (c->has_outputs)
		fprintf(out, "ok: the outputs match expect.outputs\n");
}

/* ---------------------------------------------------------- JSON */

static void *
json_mem_alloc(size_t n)
{
	return mem_alloc(n);
}

void
report_json_init(void)
{
	json_set_alloc_funcs(json_mem_alloc, mem_free);
}

static json_t *
elem_json(const Tensor *t, int64_t i)
{
	char buf[64];
	double f;
	int len;

	if (!tensor_defined(t, i))
		return json_null();
	if (!dtype_is_float(t->dt))
		return json_integer(tensor_geti(t, i));
	f = tensor_getf(t, i);
	if (isnan(f) || isinf(f))
		return json_string(isnan(f) ? "nan" : f < 0 ? "-inf" : "inf");
	buf[0] = 0;
	buf[1] = '#';
	len = tensor_elem_str(t, i, buf + 2, sizeof buf - 2);
	return json_stringn(buf, (size_t)len + 2);
}

/* Append to a container, dropping the reference; false on OOM. */
static bool
append(json_t *arr, json_t *v)
{
	return v && !json_array_append_new(arr, v);
}

static bool
set(json_t *obj, const char *key, json_t *v)
{
	return v && !json_object_set_new(obj, key, v);
}

static json_t *
nested_json(const Tensor *t, int depth, int64_t *pos)
{
	json_t *a;

	if (depth == t->rank)
		return elem_json(t, (*pos)++);
	if (!(a = json_array()))
		return NULL;
	for (int64_t i = 0; i < t->dims[depth]; i++)
		if (!append(a, nested_json(t, depth + 1, pos))) {
			json_decref(a);
			return NULL;
		}
	return a;
}

static json_t *
outputs_json(Tensor *const *outs, int n)
{
	json_t *a = json_array();

	for (int i = 0; a && i < n; i++) {
		int64_t pos = 0;

		if (!append(a, nested_json(outs[i], 0, &pos))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static json_t *
error_json(const Diag *d)
{
	json_t *e = json_object();

	if (e && set(e, "line", json_integer(d->loc.line)) &&
	    set(e, "col", json_integer(d->loc.col)) &&
	    set(e, "message", json_string(d->msg)))
		return e;
	json_decref(e);
	return NULL;
}

static json_t *
case_json(const Case *c, const Outcome *o)
{
	json_t *j = json_object(), *ref = json_object();
	bool ok = j && ref;

	ok = ok && set(j, "case", c && c->name ? json_string(c->name) : json_null());
	ok = ok && set(j, "file", json_string(c ? c->file : "?"));
	ok = ok && set(j, "status", json_string(status_names[o->status]));
	if (!o->errored) {
		ok = ok && set(ref, "outputs", outputs_json(o->outs, o->nouts));
		ok = ok && set(j, "reference", json_incref(ref));
	} else {
		ok = ok && set(j, "reference", json_null());
	}
	ok = ok && set(j, "runs", json_array());
	if (o->errored)
		ok = ok && set(j, "error", error_json(&o->err));
	if (o->status != STATUS_OK)
		ok = ok && set(j, "message", json_string(o->why));
	json_decref(ref);
	if (!ok) {
		json_decref(j);
		return NULL;
	}
	return j;
}

/* Write s with every "\u0000#TEXT" string token replaced by TEXT. */
static void
put_fixed(FILE *out, const char *s)
{
	static const char mark[] = "\"\\u0000#";
	const char *p;

	while ((p = strstr(s, mark))) {
		const char *num = p + sizeof mark - 1, *end = strchr(num, '"');

		fwrite(s, 1, (size_t)(p - s), out);
		fwrite(num, 1, (size_t)(end - num), out);
		s = end + 1;
	}
	fputs(s, out);
}

int
report_json(FILE *out, const Case *c, const Outcome *o)
{
	json_t *j = case_json(c, o);
	char *s;

	if (!j)
		return -1;
	s = json_dumps(j, 0);
	json_decref(j);
	if (!s)
		return -1;
	put_fixed(out, s);
	fputc('\n', out);
	mem_free(s);
	return 0;
}

/* --------------------------------------------------------- JUnit */

static void
xml_escaped(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		unsigned char ch = (unsigned char)*s;

		switch (ch) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		case '\n': fputs("&#10;", f); break;
		case '\t': fputs("&#9;", f); break;
		default:
			/* control characters are not allowed in XML 1.0 */
			fputc(ch < 0x20 || ch == 0x7f ? '?' : ch, f);
		}
	}
}

int
report_junit(const char *path, const JEntry *e, int n)
{
	FILE *f = fopen(path, "w");
	int fails = 0, errors = 0;

	if (!f)
		return -1;
	for (int i = 0; i < n; i++) {
		fails += e[i].status == STATUS_FAIL;
		errors += e[i].status == STATUS_BAD;
	}
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<testsuites name=\"bufdiff\" tests=\"%d\" failures=\"%d\" "
		"errors=\"%d\">\n  <testsuite name=\"bufdiff check\" tests=\"%d\" "
		"failures=\"%d\" errors=\"%d\">\n", n, fails, errors, n, fails,
		errors);
	for (int i = 0; i < n; i++) {
		const char *tag = e[i].status == STATUS_BAD ? "error" : "failure";

		fputs("    <testcase classname=\"bufdiff\" name=\"", f);
		xml_escaped(f, e[i].name ? e[i].name : e[i].file);
		fputs("\" file=\"", f);
		xml_escaped(f, e[i].file);
		if (e[i].status == STATUS_OK) {
			fputs("\"/>\n", f);
			continue;
		}
		fprintf(f, "\">\n      <%s message=\"", tag);
		xml_escaped(f, e[i].msg);
		fprintf(f, "\" type=\"%s\">", status_names[e[i].status]);
		xml_escaped(f, e[i].msg);
		fprintf(f, "</%s>\n    </testcase>\n", tag);
	}
	fputs("  </testsuite>\n</testsuites>\n", f);
	return fclose(f) ? -1 : 0;
}
