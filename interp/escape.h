/*
 * escape.h (escape.c): everything bufdiff writes is escaped for where it goes
 * (docs/format.md §3, "Escaping").  One function per destination; every
 * writer of YAML, shell lines, terminal text, XML/HTML and file names
 * calls these and escapes nothing itself.
 *
 *   YAML      yaml_scalar: plain when the string is a safe plain scalar
 *             (`import/foo`), else double-quoted with \n \" \\ \0 \e \xNN
 *             \uNNNN escapes; libyaml reads back the same bytes
 *   shell     sh_word: plain when every byte is safe (`cases/a.yaml`),
 *             else single-quoted; control bytes as "$(printf '\ooo')"
 *   terminal  term_*: control bytes, DEL, C1 controls, bidi overrides and
 *             bytes that are not UTF-8 shown as \n \r \t \xNN \uNNNN
 *   XML/HTML  xml_escape: & < > " ' as entities, \n \r \t as character
 *             references, what XML 1.0 forbids as the text \xNN
 *   files     safe_file_name: a name that stays in its directory
 */
#ifndef BUFDIFF_ESCAPE_H
#define BUFDIFF_ESCAPE_H

#include <stdio.h>

#include "ir.h"

/* ---- YAML */

/* s[0..n) as a YAML double-quoted scalar ("..."), always. */
void yaml_quoted(Str *b, const char *s, size_t n);
/* s as a plain scalar when that reads back as the same string, else
 * yaml_quoted: the one rule for every string bufdiff writes into YAML. */
void yaml_scalar(Str *b, const char *s);
void yaml_scalar_n(Str *b, const char *s, size_t n);
/* true when s[0..n) may be written plain (letters, digits, `_ . / -`,
 * starting with a letter or `_`, not a YAML keyword such as `null`). */
bool yaml_plain_ok(const char *s, size_t n);

/* ---- shell */

/* s as one word of a POSIX shell command line (plain when safe). */
void sh_word(Str *b, const char *s);

/* ---- terminal */

/* s[0..n) with what a terminal would act on escaped; newlines kept when
 * `lines` (a multi-line excerpt: a tool's stderr), else shown as \n. */
void term_escape(Str *b, const char *s, size_t n, bool lines);
/* term_escape of s (one line) / of a multi-line text, to f. */
void term_fputs(FILE *f, const char *s);
void term_fputs_lines(FILE *f, const char *s);
/* fprintf / str_printf where every %s argument is written term_escape'd
 * (one line): the format is bufdiff's, the strings may come from outside. */
int term_fprintf(FILE *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void term_printf(Str *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The same, for a text that is only written later (a message buffer). */
int term_snprintf(char *buf, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ---- XML and HTML */

/* s[0..n) as XML 1.0 text or attribute value (also HTML's). */
void xml_escape(Str *b, const char *s, size_t n);
void xml_fputs(FILE *f, const char *s);

/* ---- file names */

/* s[0..n) as one file name that stays in its directory: bytes other than
 * letters, digits, `. _ + -` become `_`, a leading `.` or `-` too, ""
 * becomes "_"; at most cap - 1 bytes (and 200).  Returns buf. */
const char *safe_file_name(const char *s, size_t n, char *buf, size_t cap);

#endif
