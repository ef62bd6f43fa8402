/* mem.c: the one allocation hook, and arenas on top of it. */
#include <stdlib.h>

#include "ir.h"

static long fail_after = -1; /* < 0: never fail */
static long live_blocks;

void
mem_fail_after(long n)
{
	fail_after = n;
}

long
mem_live_blocks(void)
{
	return live_blocks;
}

static bool
should_fail(void)
{
	if (fail_after < 0)
		return false;
	if (fail_after == 0)
		return true;
	fail_after--;
	return false;
}

void *
mem_alloc(size_t n)
{
	void *p;

	if (should_fail())
		return NULL;
	p = malloc(n ? n : 1);
	if (p)
		live_blocks++;
	return p;
}

void *
mem_calloc(size_t n, size_t size)
{
	void *p;

	if (should_fail())
		return NULL;
	p = calloc(n ? n : 1, size ? size : 1);
	if (p)
		live_blocks++;
	return p;
}

void *
mem_realloc(void *p, size_t n)
{
	void *q;

	if (!p)
		return mem_alloc(n);
	if (should_fail())
		return NULL;
	q = realloc(p, n ? n : 1);
	return q;
}

void
mem_free(void *p)
{
	if (!p)
		return;
	live_blocks--;
	free(p);
}

char *
mem_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = mem_alloc(n);

	if (p)
		memcpy(p, s, n);
	return p;
}

/* Arenas: a list of chunks; big requests get a chunk of their own. */
#define CHUNK_SIZE (64 * 1024)

struct ArenaChunk {
	ArenaChunk *next;
	size_t used, cap;
	_Alignas(16) unsigned char data[];
};

Arena *
arena_new(void)
{
	return mem_calloc(1, sizeof(Arena));
}

static ArenaChunk *
chunk_new(size_t cap)
{
	ArenaChunk *c = mem_alloc(sizeof *c + cap);

	if (!c)
		return NULL;
	c->next = NULL;
	c->used = 0;
	c->cap = cap;
	return c;
}

void *
arena_alloc(Arena *a, size_t n)
{
	ArenaChunk *c = a->head;
	void *p;

	n = (n + 15) & ~(size_t)15;
	if (!c || c->cap - c->used < n) {
		c = chunk_new(n > CHUNK_SIZE / 4 ? n : CHUNK_SIZE);
		if (!c) {
			if (a->oom)
				longjmp(*a->oom, 1);
			return NULL;
		}
		if (n > CHUNK_SIZE / 4 && a->head) {
			/* keep the current chunk in front: it still has room */
			c->next = a->head->next;
			a->head->next = c;
		} else {
			c->next = a->head;
			a->head = c;
		}
	}
	p = c->data + c->used;
	c->used += n;
	memset(p, 0, n);
	return p;
}

char *
arena_strndup(Arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);

	if (p) {
		memcpy(p, s, n);
		p[n] = 0;
	}
	return p;
}

char *
arena_strdup(Arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

void
arena_free(Arena *a)
{
	ArenaChunk *c, *next;

	if (!a)
		return;
	for (c = a->head; c; c = next) {
		next = c->next;
		mem_free(c);
	}
	mem_free(a);
}
