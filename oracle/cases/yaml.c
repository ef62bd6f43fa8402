/* yaml.c: libyaml document helpers; a bad node is a Diag + longjmp. */
#include <stdarg.h>

#include "cases.h"
#include "stop.h"
#include "strmap.h"

Loc
yl_loc(const yaml_node_t *n)
{
	return (Loc){(int)n->start_mark.line + 1, (int)n->start_mark.column + 1};
}

_Noreturn void
yl_fail(Loader *L, Loc loc, const char *fmt, ...)
{
	va_list ap;

	L->d->loc = loc;
	va_start(ap, fmt);
	fmt_vsnprintf(L->d->msg, sizeof L->d->msg, fmt, ap);
	va_end(ap);
	longjmp(L->jb, YL_FAIL);
}

/* Every walk of a document goes through here: past the deadline of the
 * tool call whose answer it reads (stop.h), the walk gives up (the caller
 * says why: external.c's read_late). */
yaml_node_t *
yl_node(Loader *L, int id)
{
	if (stop_reading())
		yl_fail(L, (Loc){1, 1}, "past the time limit of the call");
	return yaml_document_get_node(&L->doc, id);
}

const char *
yl_kind(const yaml_node_t *n)
{
	switch (n->type) {
	case YAML_MAPPING_NODE:
		return "mapping";
	case YAML_SEQUENCE_NODE:
		return "list";
	default:
		return "scalar";
	}
}

void
yl_want(Loader *L, const yaml_node_t *n, yaml_node_type_t type,
	const char *what)
{
	static const char *const names[] = {
		[YAML_SCALAR_NODE] = "a string", [YAML_SEQUENCE_NODE] = "a list",
		[YAML_MAPPING_NODE] = "a mapping",
	};

	if (n->type != type)
		yl_fail(L, yl_loc(n), "'%s' must be %s", what, names[type]);
}

const char *
yl_text(const yaml_node_t *n)
{
	return (const char *)n->data.scalar.value;
}

const char *
yl_str(Loader *L, const yaml_node_t *n, const char *what)
{
	yl_want(L, n, YAML_SCALAR_NODE, what);
	return arena_strdup(L->arena, yl_text(n));
}

bool
yl_is_null(const yaml_node_t *n)
{
	const char *s;

	if (n->type != YAML_SCALAR_NODE ||
	    n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	s = yl_text(n);
	return !*s || !strcmp(s, "~") || !strcmp(s, "null") ||
	       !strcmp(s, "Null") || !strcmp(s, "NULL");
}

int
yl_npairs(const yaml_node_t *map)
{
	return (int)(map->data.mapping.pairs.top - map->data.mapping.pairs.start);
}

yaml_node_t *
yl_pair_key(Loader *L, const yaml_node_t *map, int i)
{
	return yl_node(L, map->data.mapping.pairs.start[i].key);
}

yaml_node_t *
yl_pair_val(Loader *L, const yaml_node_t *map, int i)
{
	return yl_node(L, map->data.mapping.pairs.start[i].value);
}

int
yl_nitems(const yaml_node_t *seq)
{
	return (int)(seq->data.sequence.items.top - seq->data.sequence.items.start);
}

yaml_node_t *
yl_item(Loader *L, const yaml_node_t *seq, int i)
{
	return yl_node(L, seq->data.sequence.items.start[i]);
}

/* ", in WHERE" or "" for the top level. */
static const char *
in_where(const char *where, char *buf, size_t n)
{
	if (!*where)
		return "";
	fmt_snprintf(buf, n, " in %s", where);
	return buf;
}

/* Key i of map seen before it: hashed when the map is big (a file may
 * hold 10^6 keys), compared when small (10^6 small mappings must not
 * cost a table each). */
static bool
key_seen(Loader *L, const yaml_node_t *map, int i, StrMap *seen)
{
	const char *k = yl_text(yl_pair_key(L, map, i));
	int at;

	if (yl_npairs(map) <= 8) {
		for (int j = 0; j < i; j++)
			if (!strcmp(yl_text(yl_pair_key(L, map, j)), k))
				return true;
		return false;
	}
	if ((at = strmap_add(seen, k, i)) == STRMAP_OOM)
		longjmp(L->jb, YL_OOM);
	return at != STRMAP_NONE;
}

/* Every key a string, each once. */
void
yl_free_keys(Loader *L, const yaml_node_t *map, const char *where)
{
	char wb[128];
	int n = yl_npairs(map);
	StrMap seen;

	strmap_init(&seen, L->arena);
	for (int i = 0; i < n; i++) {
		yaml_node_t *k = yl_pair_key(L, map, i);

		if (k->type != YAML_SCALAR_NODE)
			yl_fail(L, yl_loc(k), "keys%s must be strings",
				in_where(where, wb, sizeof wb));
		if (key_seen(L, map, i, &seen))
			yl_fail(L, yl_loc(k), "duplicate key '%s'%s",
				yl_text(k), in_where(where, wb, sizeof wb));
	}
}

/* "case, about, program" for an unknown-key message. */
static void
key_list(const char *const *keys, char *buf, size_t n)
{
	size_t len = 0;

	buf[0] = 0;
	for (int i = 0; keys[i] && len < n; i++)
		len += (size_t)fmt_snprintf(buf + len, n - len, "%s%s", i ? ", " : "",
					keys[i]);
}

void
yl_keys(Loader *L, const yaml_node_t *map, const char *const *keys,
	const char *where, yaml_node_t **vals, yaml_node_t **knodes)
{
	char wb[128], kl[256];
	int nkeys = 0, n = yl_npairs(map);

	while (keys[nkeys])
		nkeys++;
	for (int i = 0; i < nkeys; i++) {
		vals[i] = NULL;
		if (knodes)
			knodes[i] = NULL;
	}
	yl_free_keys(L, map, where);
	for (int i = 0; i < n; i++) {
		yaml_node_t *k = yl_pair_key(L, map, i);
		int j = 0;

		while (j < nkeys && strcmp(keys[j], yl_text(k)))
			j++;
		if (j == nkeys) {
			key_list(keys, kl, sizeof kl);
			yl_fail(L, yl_loc(k), "unknown key '%s'%s (expected one of: %s)",
				yl_text(k), in_where(where, wb, sizeof wb), kl);
		}
		vals[j] = yl_pair_val(L, map, i);
		if (knodes)
			knodes[j] = k;
	}
}

Loc
yl_offset_loc(const char *text, size_t off)
{
	Loc l = {1, 1};

	for (size_t i = 0; i < off && text[i]; i++) {
		if (text[i] == '\n')
			l.line++, l.col = 1;
		else if (((unsigned char)text[i] & 0xc0) != 0x80)
			l.col++;
	}
	return l;
}

static int
yaml_error(const yaml_parser_t *p, const char *text, Diag *d)
{
	Loc l = {(int)p->problem_mark.line + 1, (int)p->problem_mark.column + 1};
	const char *prob = p->problem ? p->problem : "malformed YAML";

	if (p->error == YAML_READER_ERROR)
		l = yl_offset_loc(text, p->problem_offset);
	if (p->error == YAML_MEMORY_ERROR)
		return diag_set(d, (Loc){0, 0}, "out of memory");
	if (p->context)
		return diag_set(d, l, "%s (%s)", prob, p->context);
	return diag_set(d, l, "%s", prob);
}

/* Deepest nesting of YAML collections a file may have: data is at most
 * MAXRANK deep, and libyaml's scanner slows down quadratically with the
 * depth of flow collections (10^5 took a minute), so the events are
 * checked before the document is built; so are the number of nodes
 * (MAX_YAML_NODES: a document costs about 100 bytes a node) and NUL
 * characters inside scalars ("\0" in a quoted string would cut a name). */
enum { MAX_YAML_DEPTH = 64 };

static int
event_check(const yaml_event_t *ev, int *depth, long *nodes, Diag *d)
{
	Loc at = {(int)ev->start_mark.line + 1, (int)ev->start_mark.column + 1};

	switch (ev->type) {
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT:
		if (++*depth > MAX_YAML_DEPTH)
			return diag_set(d, at, "YAML collections nested deeper "
					"than %d", MAX_YAML_DEPTH);
		break;
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		--*depth;
		return 0;
	case YAML_SCALAR_EVENT:
		if (strlen((const char *)ev->data.scalar.value) !=
		    ev->data.scalar.length)
			return diag_set(d, at, "NUL character in a YAML scalar");
		break;
	default:
		return 0;
	}
	if (++*nodes > MAX_YAML_NODES)
		return diag_set(d, at, "more than %d YAML nodes (give big data "
				"as {splat:} or {random:})", MAX_YAML_NODES);
	return 0;
}

/* libyaml reads the text through this, a buffer (16 KiB) at a time: past
 * the deadline of the tool call whose answer it reads (stop.h), it reads
 * no more (a reader error; the caller, external.c's read_late, says it
 * timed out). */
typedef struct Src {
	const char *p;
	size_t left;
} Src;

static int
src_read(void *data, unsigned char *buf, size_t size, size_t *n)
{
	Src *s = data;

	if (stop_late())
		return 0;
	*n = size < s->left ? size : s->left;
	memcpy(buf, s->p, *n);
	s->p += *n;
	s->left -= *n;
	return 1;
}

static int
limits_check(const char *text, size_t len, const char *what, Diag *d)
{
	yaml_parser_t p;
	yaml_event_t ev;
	int depth = 0, rc = 0;
	long nodes = 0;

	if (len > MAX_CASE_BYTES)
		return diag_set(d, (Loc){1, 1}, "the %s has %zu bytes, over the "
				"limit of %d", what, len, MAX_CASE_BYTES);
	if (!yaml_parser_initialize(&p))
		return diag_set(d, (Loc){0, 0}, "out of memory");
	yaml_parser_set_input(&p, src_read, &(Src){text, len});
	for (;;) {
		if (!yaml_parser_parse(&p, &ev))
			break; /* the load reports it */
		rc = event_check(&ev, &depth, &nodes, d);
		if (ev.type == YAML_STREAM_END_EVENT)
			rc = 1;
		yaml_event_delete(&ev);
		if (rc)
			break;
	}
	yaml_parser_delete(&p);
	return rc < 0 ? -1 : 0;
}

int
yl_load(Loader *L, const char *text, size_t len, const char *what,
	bool *hasdoc, Diag *d)
{
	yaml_parser_t p;
	yaml_document_t extra;
	yaml_node_t *root;
	Src src = {text, len};
	int rc = 0;

	if (limits_check(text, len, what, d))
		return -1;
	if (!yaml_parser_initialize(&p))
		return diag_set(d, (Loc){0, 0}, "out of memory");
	yaml_parser_set_input(&p, src_read, &src);
	if (!yaml_parser_load(&p, &L->doc)) {
		rc = yaml_error(&p, text, d);
		yaml_parser_delete(&p);
		return rc;
	}
	*hasdoc = true;
	if (!yaml_document_get_root_node(&L->doc)) {
		rc = diag_set(d, (Loc){1, 1}, "empty %s", what);
	} else if (!yaml_parser_load(&p, &extra)) {
		rc = yaml_error(&p, text, d);
	} else {
		root = yaml_document_get_root_node(&extra);
		if (root)
			rc = diag_set(d, yl_loc(root), "a %s holds one YAML "
				      "document", what);
		yaml_document_delete(&extra);
	}
	yaml_parser_delete(&p);
	return rc;
}

