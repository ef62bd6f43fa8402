/*
 * test_escape.c: interp/escape.c over hostile names.  YAML: every name,
 * written by yaml_scalar and read back by libyaml, gives the same bytes
 * and no other key.  Shell: every word, run by sh, prints the same bytes
 * and runs nothing.  Terminal, XML: no control byte gets through.  File
 * names: none leaves its directory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <yaml.h>

#include "testutil.h"
#include "escape.h"

typedef struct Name {
	const char *s;
	size_t n;
} Name;

#define N(lit) {lit, sizeof lit - 1}

/* Names a case file, a directory listing or a tool may hand bufdiff. */
static const Name hostile[] = {
	N("import/foo"), N(""), N("a\nb"), N("a\nkey: injected"),
	N("\"quoted\""), N("'single'"), N("a: b"), N("a #comment"), N("#x"),
	N("{a: 1}"), N("[1, 2]"), N("&anchor"), N("*alias"), N("- item"),
	N("-x"), N("? key"), N("?x"), N("!tag"), N("!!str x"), N("%YAML 1.2"),
	N("@at"), N("`tick`"), N("|"), N(">"), N("a\0b"), N("\0"), N("x\0"),
	N("back\\slash"), N("\\n"), N("tab\there"), N("cr\rlf\r\n"),
	N("\x1b[31mred\x1b[0m"), N("\b\a\v\f\x01\x1f\x7f"), N("null"),
	N("~"), N("true"), N("No"), N("0x10"), N("1e3"), N(".inf"), N(".nan"),
	N("12:30"), N("  lead"), N("trail  "), N(" "), N("\n\n"), N("end\n"),
	N("caf\xc3\xa9"), N("\xe2\x80\xa8line sep\xe2\x80\xa9"),
	N("nel\xc2\x85"), N("c1\xc2\x9b" "31m"), N("\xef\xbb\xbf" "bom"),
	N("rtl\xe2\x80\xae" "txt.exe"), N("\xf0\x9f\x98\x80 smile"),
	N("$(touch PWNED)"), N("`touch PWNED`"), N("a;b"), N("a|b&c"),
	N("--- \n..."), N("<script>alert(1)</script>"),
};
#define NHOSTILE (int)(sizeof hostile / sizeof *hostile)

/* The value of `k` in the one-key mapping text, by libyaml; false when the
 * text does not parse or holds anything else. */
static bool
yaml_value(const char *text, char **out, size_t *nout)
{
	yaml_parser_t p;
	yaml_event_t e;
	int want[] = {YAML_STREAM_START_EVENT, YAML_DOCUMENT_START_EVENT,
		      YAML_MAPPING_START_EVENT, YAML_SCALAR_EVENT,
		      YAML_SCALAR_EVENT, YAML_MAPPING_END_EVENT,
		      YAML_DOCUMENT_END_EVENT, YAML_STREAM_END_EVENT};
	bool ok = true;

	*out = NULL;
	yaml_parser_initialize(&p);
	yaml_parser_set_input_string(&p, (const unsigned char *)text,
				     strlen(text));
	for (size_t i = 0; ok && i < sizeof want / sizeof *want; i++) {
		if (!yaml_parser_parse(&p, &e)) {
			ok = false;
			break;
		}
		ok = (int)e.type == want[i];
		if (ok && i == 3)
			ok = !strcmp((char *)e.data.scalar.value, "k");
		if (ok && i == 4) {
			/* a plain scalar that YAML would read as another
			 * type (null, a number) is no string */
			*nout = e.data.scalar.length;
			*out = malloc(*nout + 1);
			memcpy(*out, e.data.scalar.value, *nout + 1);
			if (e.data.scalar.style == YAML_PLAIN_SCALAR_STYLE)
				ok = yaml_plain_ok(*out, *nout);
		}
		yaml_event_delete(&e);
	}
	yaml_parser_delete(&p);
	if (!ok) {
		free(*out);
		*out = NULL;
	}
	return ok;
}

START_TEST(yaml_round_trip)
{
	for (int i = 0; i < NHOSTILE; i++) {
		Str b = {0};
		char *t, *v;
		size_t n;

		str_puts(&b, "k: ");
		yaml_scalar_n(&b, hostile[i].s, hostile[i].n);
		str_puts(&b, "\n");
		t = str_take(&b);
		ck_assert_msg(yaml_value(t, &v, &n), "name %d: %s does not read "
			      "back as one key", i, t);
		ck_assert_msg(n == hostile[i].n && !memcmp(v, hostile[i].s, n),
			      "name %d: %s reads back as other bytes", i, t);
		/* nothing a terminal acts on is left raw in the file */
		for (const char *c = t; *c; c++)
			ck_assert_msg((unsigned char)*c >= 0x20 ?
				      (unsigned char)*c != 0x7f : *c == '\n' &&
				      c[1] == 0, "name %d: raw control byte", i);
		free(v);
		mem_free(t);
	}
}
END_TEST

START_TEST(yaml_plain_when_safe)
{
	static const struct { const char *in, *out; } t[] = {
		{"import/foo", "import/foo"}, {"fuzz/mlir-7", "fuzz/mlir-7"},
		{"copy-all", "copy-all"}, {"seed/old.input_2", "seed/old.input_2"},
		{"", "\"\""}, {"null", "\"null\""}, {"Yes", "\"Yes\""},
		{"7up", "\"7up\""}, {"a b", "\"a b\""}, {"a\nb", "\"a\\nb\""},
		{"q\"\\", "\"q\\\"\\\\\""}, {"\x1b", "\"\\e\""},
		{"\x7f", "\"\\x7f\""}, {"\xc2\x85", "\"\\N\""},
		{"\xe2\x80\xae", "\"\\u202e\""}, {"caf\xc3\xa9", "\"caf\xc3\xa9\""},
	};

	for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
		Str b = {0};
		char *s;

		yaml_scalar(&b, t[i].in);
		s = str_take(&b);
		ck_assert_str_eq(s, t[i].out);
		mem_free(s);
	}
}
END_TEST

/* A byte that is not UTF-8 has no YAML form: \xNN, which reads as U+00NN;
 * the file stays one that libyaml reads. */
START_TEST(yaml_not_utf8)
{
	Str b = {0};
	char *t, *v;
	size_t n;

	str_puts(&b, "k: ");
	yaml_scalar(&b, "a\xff\xc3(\xed\xa0\x80");
	t = str_take(&b);
	ck_assert_str_eq(t, "k: \"a\\xff\\xc3(\\xed\\xa0\\x80\"");
	ck_assert(yaml_value(t, &v, &n));
	ck_assert_str_eq(v, "a\xc3\xbf\xc3\x83(\xc3\xad\xc2\xa0\xc2\x80");
	free(v);
	mem_free(t);
}
END_TEST

/* sh runs `printf %s WORD`: the same bytes, and nothing else ran. */
START_TEST(sh_round_trip)
{
	char dir[] = "/tmp/bufdiff-escape-XXXXXX", pwned[64];

	ck_assert_ptr_nonnull(mkdtemp(dir));
	fmt_snprintf(pwned, sizeof pwned, "%s/PWNED", dir);
	for (int i = 0; i < NHOSTILE; i++) {
		Str b = {0};
		char *cmd, got[256];
		size_t n;
		FILE *p;

		if (memchr(hostile[i].s, 0, hostile[i].n))
			continue; /* no C string, no argument */
		str_printf(&b, "cd %s && printf %%s ", dir);
		sh_word(&b, hostile[i].s);
		cmd = str_take(&b);
		for (const char *c = cmd; *c; c++) /* printable, but newlines */
			ck_assert_msg((unsigned char)*c >= 0x20 ?
				      (unsigned char)*c != 0x7f : *c == '\n',
				      "word %d: raw control byte", i);
		ck_assert_ptr_nonnull(p = popen(cmd, "r"));
		n = fread(got, 1, sizeof got, p);
		ck_assert_int_eq(pclose(p), 0);
		ck_assert_msg(n == hostile[i].n && !memcmp(got, hostile[i].s, n),
			      "word %d: %s prints other bytes", i, cmd);
		mem_free(cmd);
	}
	ck_assert_int_ne(access(pwned, F_OK), 0);
	rmdir(dir);
}
END_TEST

START_TEST(sh_plain_when_safe)
{
	static const struct { const char *in, *out; } t[] = {
		{"cases/seed/a.yaml", "cases/seed/a.yaml"},
		{"--mlir-version=22", "--mlir-version=22"},
		{"", "''"}, {"a b", "'a b'"}, {"it's", "'it'\\''s'"},
		{"$(x)", "'$(x)'"}, {"~", "'~'"}, {"a\nb", "'a\nb'"},
		{"\x1b[0m", "''\"$(printf '\\033')\"'[0m'"},
	};

	for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
		Str b = {0};
		char *s;

		sh_word(&b, t[i].in);
		s = str_take(&b);
		ck_assert_str_eq(s, t[i].out);
		mem_free(s);
	}
}
END_TEST

static char *
term(const char *s, size_t n, bool lines)
{
	Str b = {0};

	term_escape(&b, s, n, lines);
	return str_take(&b);
}

START_TEST(terminal)
{
	static const struct { const char *in; bool lines; const char *out; } t[] = {
		{"plain name", false, "plain name"},
		{"\x1b[2J\x1b]0;title\a", false, "\\x1b[2J\\x1b]0;title\\x07"},
		{"over\rwrite\b\b", false, "over\\rwrite\\x08\\x08"},
		{"a\nb\tc", false, "a\\nb\\tc"},
		{"a\nb\tc\r\n", true, "a\nb\tc\\r\n"},
		{"del\x7f", false, "del\\x7f"},
		{"c1 \xc2\x9b" "2J", false, "c1 \\u009b2J"},
		{"bad \xff\xfe", false, "bad \\xff\\xfe"},
		{"cut \xe2\x82", false, "cut \\xe2\\x82"},
		{"caf\xc3\xa9 \xf0\x9f\x98\x80", false, "caf\xc3\xa9 \xf0\x9f\x98\x80"},
		{"rtl\xe2\x80\xae" "exe", false, "rtl\\u202eexe"},
		{"back\\slash \\x1b", false, "back\\slash \\x1b"},
	};

	for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
		char *s = term(t[i].in, strlen(t[i].in), t[i].lines);
		ck_assert_str_eq(s, t[i].out);
		mem_free(s);
	}
	{
		char *s = term("a\0b", 3, false);
		ck_assert_str_eq(s, "a\\x00b");
		mem_free(s);
	}
	/* every hostile name: one line, no control byte */
	for (int i = 0; i < NHOSTILE; i++) {
		char *s = term(hostile[i].s, hostile[i].n, false);
		for (const char *c = s; *c; c++)
			ck_assert_msg((unsigned char)*c >= 0x20 &&
				      (unsigned char)*c != 0x7f, "name %d", i);
		mem_free(s);
	}
}
END_TEST

/* Only %s arguments are escaped; every other conversion is printf's. */
START_TEST(terminal_printf)
{
	char buf[256];
	int n;

	n = term_snprintf(buf, sizeof buf, "%d [%s] %-6s|%6s|%.3s|%.*s %lld "
			  "%zu %.2f %5.1e %x %c %%", -3, "a\nb", "l\x1b",
			  "r", "abcdef", 2, "\x1b\x1b\x1b", 123456789012LL,
			  (size_t)7, 0.125, 1500.0, 255u, 'z');
	ck_assert_str_eq(buf, "-3 [a\\nb] l\\x1b |     r|abc|\\x1b\\x1b "
			 "123456789012 7 0.12 1.5e+03 ff z %");
	ck_assert_int_eq(n, (int)strlen(buf));
	n = term_snprintf(buf, 8, "%s", "0123456789");
	ck_assert_int_eq(n, 10);
	ck_assert_str_eq(buf, "0123456");
	n = term_snprintf(buf, sizeof buf, "%*d|%-*d|", 4, 7, 3, 1);
	ck_assert_str_eq(buf, "   7|1  |");
}
END_TEST

START_TEST(xml)
{
	static const struct { const char *in, *out; } t[] = {
		{"a<b>&\"c'", "a&lt;b&gt;&amp;&quot;c&#39;"},
		{"\"><img src=x onerror=alert(1)>",
		 "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"},
		{"l1\nl2\r\tt", "l1&#10;l2&#13;&#9;t"},
		{"\x1b\x01\x7f", "\\x1b\\x01\\x7f"},
		{"\xff ok \xc3\xa9", "\\xff ok \xc3\xa9"},
		{"\xef\xbf\xbe", "\\ufffe"},
	};

	for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
		Str b = {0};
		char *s;

		xml_escape(&b, t[i].in, strlen(t[i].in));
		s = str_take(&b);
		ck_assert_str_eq(s, t[i].out);
		mem_free(s);
	}
}
END_TEST

START_TEST(file_names)
{
	static const struct { const char *in; size_t n; const char *out; } t[] = {
		{"../../etc/passwd", 16, "_._.._etc_passwd"},
		{"/abs/path", 9, "_abs_path"}, {"a\0b", 3, "a_b"},
		{"a\nb", 3, "a_b"}, {"", 0, "_"}, {".", 1, "_"}, {"..", 2, "_."},
		{"-rf", 3, "_rf"}, {".hidden", 7, "_hidden"},
		{"mlir-pipeline", 13, "mlir-pipeline"}, {"a b$(x)", 7, "a_b__x_"},
		{"caf\xc3\xa9", 5, "caf__"},
	};
	char buf[256], big[1000];

	for (size_t i = 0; i < sizeof t / sizeof *t; i++)
		ck_assert_str_eq(safe_file_name(t[i].in, t[i].n, buf, sizeof buf),
				 t[i].out);
	memset(big, 'x', sizeof big);
	ck_assert_int_eq((int)strlen(safe_file_name(big, sizeof big, buf,
						    sizeof buf)), 200);
	ck_assert_str_eq(safe_file_name(big, sizeof big, buf, 4), "xxx");
	for (int i = 0; i < NHOSTILE; i++) {
		safe_file_name(hostile[i].s, hostile[i].n, buf, sizeof buf);
		ck_assert(!strchr(buf, '/') && strcmp(buf, ".") &&
			  strcmp(buf, "..") && buf[0] && buf[0] != '.');
	}
}
END_TEST

static Suite *
escape_suite(void)
{
	Suite *s = suite_create("escape");
	TCase *tc = tcase_create("escape");

	tcase_add_test(tc, yaml_round_trip);
	tcase_add_test(tc, yaml_plain_when_safe);
	tcase_add_test(tc, yaml_not_utf8);
	tcase_add_test(tc, sh_round_trip);
	tcase_add_test(tc, sh_plain_when_safe);
	tcase_add_test(tc, terminal);
	tcase_add_test(tc, terminal_printf);
	tcase_add_test(tc, xml);
	tcase_add_test(tc, file_names);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	Suite *suites[] = {escape_suite(), NULL};

	return tu_run(suites);
}
