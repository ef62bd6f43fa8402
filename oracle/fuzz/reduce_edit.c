/*
 * reduce_edit.c: an edit of the current text (lines dropped or replaced,
 * names substituted) applied and tried as a candidate.
 */
#include <stdio.h>

#include "reduce_impl.h"

int
edit_init(Red *r, Edit *e)
{
	memset(e, 0, sizeof *e);
	e->drop = mem_calloc((size_t)r->nlines + 1, sizeof *e->drop);
	e->repl = mem_calloc((size_t)r->nlines + 1, sizeof *e->repl);
	if (e->drop && e->repl)
		return 0;
	mem_free(e->drop);
	mem_free(e->repl);
	return red_oom(r);
}

void
edit_free(const Red *r, Edit *e)
{
	for (int i = 0; i < r->nlines; i++)
		mem_free(e->repl[i]);
	for (int i = 0; i < e->nsubs; i++) {
		mem_free(e->subs[i].from);
		mem_free(e->subs[i].to);
	}
	mem_free(e->subs);
	mem_free(e->drop);
	mem_free(e->repl);
	memset(e, 0, sizeof *e);
}

void
edit_sub(Edit *e, const char *from, const char *to)
{
	Sub s = {mem_strdup(from), mem_strdup(to)};

	if (e->nsubs == e->capsubs) {
		int cap = e->capsubs ? 2 * e->capsubs : 8;
		Sub *n = mem_realloc(e->subs, (size_t)cap * sizeof *n);
		if (!n) {
			e->oom = true;
			mem_free(s.from);
			mem_free(s.to);
			return;
		}
		e->subs = n;
		e->capsubs = cap;
	}
	if (!s.from || !s.to)
		e->oom = true;
	e->subs[e->nsubs++] = s;
}

void
edit_drop(Edit *e, int from, int to)
{
	for (int l = from; l < to; l++)
		e->drop[l] = true;
}

/* Replace line l by text (taken; NULL: out of memory). */
void
edit_repl(Edit *e, int l, char *text)
{
	if (!text)
		e->oom = true;
	mem_free(e->repl[l]);
	e->repl[l] = text;
}

static bool
is_name_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '$' ||
	       c == '-';
}

/* s with every `%name` that has a substitution replaced. */
void
edit_put_subst(Str *b, const char *s, const Sub *subs, int nsubs)
{
	while (*s) {
		const char *q = s + 1;
		int i;
		if (*s != '%') {
			str_put(b, s++, 1);
			continue;
		}
		while (is_name_char((unsigned char)*q))
			q++;
		for (i = 0; i < nsubs; i++)
			if (strlen(subs[i].from) == (size_t)(q - s - 1) &&
			    !strncmp(subs[i].from, s + 1, (size_t)(q - s - 1)))
				break;
		if (i < nsubs)
			str_puts(b, subs[i].to);
		else
			str_put(b, s, (size_t)(q - s));
		s = q;
	}
}

char *
edit_apply(const Red *r, const Edit *e)
{
	Str b = {0};

	for (int l = 0; l < r->nlines; l++) {
		if (e->drop[l])
			continue;
		edit_put_subst(&b, e->repl[l] ? e->repl[l] : r->lines[l],
			       e->subs, e->nsubs);
		str_puts(&b, "\n");
	}
	return str_take(&b);
}

/* Try the edit (and free it). */
int
edit_try(Red *r, Edit *e)
{
	char *text = e->oom ? NULL : edit_apply(r, e);
	int rc;

	edit_free(r, e);
	if (!text)
		return red_oom(r);
	rc = red_try_candidate(r, text, r->inputs);
	mem_free(text);
	return rc;
}
