/*
 * html_index.c: many cases as a directory of pages and an index
 * (`check --html DIR`, `fuzz --html DIR`; docs/html.md).
 *
 * The index opens with the totals (cases passed, failed, in error; cases
 * by the verdict of the run that explains them) and has a row per case:
 * its status, verdict, first violation and where, culprits and the fix,
 * as the case's page (html_cause.c) and the text report say them.  A
 * failed case's row is red; the status says it in words too.  A few
 * lines of inline script sort the table by the column whose heading is
 * clicked; without script the table reads the same, in check order.
 */
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "report.h"

const char *
html_page_name(int i, char *buf, size_t n)
{
	fmt_snprintf(buf, n, "case-%04d.html", i + 1);
	return buf;
}

int
html_dir(const char *dir)
{
	struct stat st;

	if (!mkdir(dir, 0777) || errno == EEXIST)
		return stat(dir, &st) || !S_ISDIR(st.st_mode) ? -1 : 0;
	return -1;
}

static const char *const status_words[] = {
	[STATUS_OK] = "ok", [STATUS_FAIL] = "FAIL", [STATUS_BAD] = "error",
};

/* A field of a case's cause (html_cause's JSON), "" when it has none. */
static const char *
field(json_t *cause, const char *key)
{
	const char *s = json_string_value(json_object_get(cause, key));

	return s ? s : "";
}

/* "<span class="bad" data-n="2">2 failed</span>" (no class when none). */
static void
count(Str *b, const char *cls, int n, const char *what)
{
	str_printf(b, "<span%s%s%s data-n=\"%d\">%d %s</span>", n ? " class=\"" :
		   "", n ? cls : "", n ? "\"" : "", n, n, what);
}

/* The totals: cases by status, and by the verdict of the run that
 * explains each (a case without a bufferized run: "no run"). */
static void
totals(Str *b, const JEntry *e, json_t *const *cause, int n)
{
	int st[3] = {0}, by[VERDICT_COUNT] = {0};

	for (int i = 0; i < n; i++) {
		const char *v = field(cause[i], "verdict");
		int k = VERDICT_NONE;
		st[e[i].status]++;
		for (int j = VERDICT_AGREE; j < VERDICT_COUNT && k == VERDICT_NONE; j++)
			if (!strcmp(v, verdict_names[j]))
				k = j;
		by[k]++;
	}
	str_printf(b, "<p id=\"totals\"><b>%d case%s</b>: ", n, n == 1 ? "" : "s");
	count(b, "ok", st[STATUS_OK], "passed");
	str_puts(b, ", ");
	count(b, "bad", st[STATUS_FAIL], "failed");
	str_puts(b, ", ");
	count(b, "bad", st[STATUS_BAD], "in error");
	str_puts(b, "; by verdict:");
	for (int j = VERDICT_AGREE; j < VERDICT_COUNT; j++)
		str_printf(b, " <span data-verdict=\"%s\">%s %d</span>,",
			   verdict_names[j], verdict_names[j], by[j]);
	str_printf(b, " <span data-verdict=\"none\">no run %d</span></p>\n",
		   by[VERDICT_NONE]);
}

/* A cell of text from the case or its report, escaped. */
static void
cell(Str *b, const char *cls, const char *text)
{
	str_printf(b, "<td%s%s%s>", cls ? " class=\"" : "", cls ? cls : "",
		   cls ? "\"" : "");
	html_put(b, text);
	str_puts(b, "</td>");
}

/* The fixes' decisions to flip ("y:x -> y:new, z:w -> z:new"), every
 * line whole (what one-shot takes there, and why) on hover. */
static void
fix_cell(Str *b, const char *fix)
{
	str_puts(b, "<td class=\"fix\" title=\"");
	html_put(b, fix);
	str_puts(b, "\">");
	for (const char *s = fix; *s;) {
		const char *end = strchr(s, '\n'), *why = strstr(s, " (");
		size_t n = end ? (size_t)(end - s) : strlen(s);
		if (s != fix)
			str_puts(b, ", ");
		xml_escape(b, s, why && why < s + n ? (size_t)(why - s) : n);
		s += n + (end != NULL);
	}
	str_puts(b, "</td>");
}

static void
row(Str *b, const JEntry *e, json_t *cause, int i)
{
	char page[64];
	bool ok = e->status == STATUS_OK;

	str_printf(b, "<tr class=\"%s\"><td data-key=\"%d\">%d</td><td><a "
		   "href=\"%s\">", ok ? "passed" : "failed", i + 1, i + 1,
		   html_page_name(i, page, sizeof page));
	html_put(b, e->name ? e->name : "?");
	str_puts(b, "</a></td>");
	cell(b, NULL, e->file);
	str_printf(b, "<td class=\"status %s\" data-key=\"%d\">%s</td>",
		   ok ? "ok" : "bad", (int)e->status, status_words[e->status]);
	cell(b, NULL, field(cause, "verdict"));
	cell(b, NULL, field(cause, "violation"));
	cell(b, NULL, field(cause, "at"));
	cell(b, "culprits", field(cause, "culprits"));
	fix_cell(b, field(cause, "fix"));
	cell(b, NULL, e->msg);
	str_puts(b, "</tr>\n");
}

/* Clicking a heading sorts the rows by its column (again: the other
 * way); numbers as numbers, a cell's data-key before its text. */
static const char sort_script[] =
	"document.querySelectorAll('table.sortable').forEach(function(t){\n"
	"  var hs=t.tHead.rows[0].cells,body=t.tBodies[0];\n"
	"  function key(c){var k=c.dataset.key!==undefined?c.dataset.key:"
	"c.textContent;\n"
	"    return k!==''&&!isNaN(k)?Number(k):k;}\n"
	"  Array.prototype.forEach.call(hs,function(h,i){\n"
	"    h.title='sort by '+h.textContent;h.tabIndex=0;\n"
	"    h.onclick=h.onkeydown=function(ev){\n"
	"      if(ev.type==='keydown'&&ev.key!=='Enter')return;\n"
	"      var up=h.getAttribute('aria-sort')!=='ascending';\n"
	"      Array.prototype.forEach.call(hs,function(x){x.removeAttribute("
	"'aria-sort');});\n"
	"      h.setAttribute('aria-sort',up?'ascending':'descending');\n"
	"      var rs=Array.prototype.slice.call(body.rows);\n"
	"      rs.sort(function(a,b){var x=key(a.cells[i]),y=key(b.cells[i]);\n"
	"        var c=typeof x==='number'&&typeof y==='number'?x-y:\n"
	"          String(x).localeCompare(String(y));\n"
	"        return (up?c:-c)||key(a.cells[0])-key(b.cells[0]);});\n"
	"      rs.forEach(function(r){body.appendChild(r);});\n"
	"    };\n"
	"  });\n"
	"});";

int
html_index(const char *dir, const char *title, const JEntry *e, int n)
{
	json_t **cause = mem_calloc((size_t)n + 1, sizeof *cause);
	Str b = {0};
	char path[4096];

	if (!cause)
		return -1;
	for (int i = 0; i < n; i++)
		cause[i] = e[i].cause ? json_loads(e[i].cause, 0, NULL) : NULL;
	html_begin(&b, title);
	str_puts(&b, "<h1>");
	html_put(&b, title);
	str_puts(&b, "</h1>\n");
	totals(&b, e, cause, n);
	str_puts(&b, "<table id=\"index\" class=\"sortable\"><thead><tr><th>#</th>"
		 "<th>case</th><th>file</th><th>status</th><th>verdict</th>"
		 "<th>violation</th><th>location</th><th>culprits</th><th>fix</th>"
		 "<th>message</th></tr></thead>\n<tbody>\n");
	for (int i = 0; i < n; i++)
		row(&b, &e[i], cause[i], i);
	str_puts(&b, "</tbody></table>\n");
	html_end(&b, sort_script);
	for (int i = 0; i < n; i++)
		json_decref(cause[i]);
	mem_free(cause);
	fmt_snprintf(path, sizeof path, "%s/index.html", dir);
	return html_write(path, &b);
}

int
html_check_files(const RunConfig *cfg, const char *dir, const char *title,
		 char *const *paths, int n, const Strategy *s)
{
	RunConfig rec = cfg ? *cfg : run_config_default;
	JEntry *je = mem_calloc((size_t)n + 1, sizeof *je);
	char page[64], path[4096];
	int rc = 0;

	if (!je || html_dir(dir)) {
		mem_free(je);
		return -1;
	}
	rec.record = true;
	for (int i = 0; i < n; i++) {
		Case *c = NULL;
		Outcome o;
		check_file(&rec, paths[i], s, true, &c, &o);
		fmt_snprintf(path, sizeof path, "%s/%s", dir,
			 html_page_name(i, page, sizeof page));
		if (html_case_file(path, c, &o, paths[i]))
			rc = -1;
		je[i] = (JEntry){.name = c && c->name ? mem_strdup(c->name) :
				 NULL, .file = mem_strdup(paths[i]),
				 .msg = mem_strdup(o.why), .status = o.status,
				 .cause = html_cause(c, &o)};
		outcome_clear(&o);
		case_free(c);
	}
	if (html_index(dir, title, je, n))
		rc = -1;
	for (int i = 0; i < n; i++)
		jentry_clear(&je[i]);
	mem_free(je);
	return rc;
}
