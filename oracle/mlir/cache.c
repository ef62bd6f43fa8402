/* cache.c: the reducer's verdicts, by candidate case text, and outside
 * tools' answers, by program text (open addressing, FNV-1a), so a
 * candidate is judged once and a tool asked once. */
#include "mlir.h"


static uint64_t
fnv1a(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static size_t
cache_slot(const Cache *c, const char *key, uint64_t h)
{
	size_t i = h & (c->cap - 1);

	while (c->keys[i] && (c->hash[i] != h || strcmp(c->keys[i], key)))
		i = (i + 1) & (c->cap - 1);
	return i;
}

static int
cache_grow(Cache *c)
{
	Cache n = {0};

	n.cap = c->cap ? 2 * c->cap : 64;
	n.keys = mem_calloc(n.cap, sizeof *n.keys);
	n.hash = mem_calloc(n.cap, sizeof *n.hash);
	n.acc = mem_calloc(n.cap, sizeof *n.acc);
	n.val = mem_calloc(n.cap, sizeof *n.val);
	n.drop = c->drop;
	if (!n.keys || !n.hash || !n.acc || !n.val) {
		mem_free(n.keys);
		mem_free(n.hash);
		mem_free(n.acc);
		mem_free(n.val);
		return -1;
	}
	for (size_t i = 0; i < c->cap; i++) {
		if (!c->keys[i])
			continue;
		size_t j = cache_slot(&n, c->keys[i], c->hash[i]);
		n.keys[j] = c->keys[i];
		n.hash[j] = c->hash[i];
		n.acc[j] = c->acc[i];
		n.val[j] = c->val[i];
	}
	n.n = c->n;
	mem_free(c->keys);
	mem_free(c->hash);
	mem_free(c->acc);
	mem_free(c->val);
	*c = n;
	return 0;
}

/* 1 and *acc when key is cached, else 0. */
int
cache_get(const Cache *c, const char *key, bool *acc)
{
	size_t i;

	if (!c->cap)
		return 0;
	i = cache_slot(c, key, fnv1a(key));
	if (!c->keys[i])
		return 0;
	*acc = c->acc[i];
	return 1;
}

/* Takes key (freed here on failure); 0, or -1 out of memory. */
int
cache_put(Cache *c, char *key, bool acc)
{
	return cache_put_val(c, key, acc, NULL);
}

/* The value stored with key, or NULL. */
const void *
cache_val(const Cache *c, const char *key)
{
	size_t i;

	if (!c->cap)
		return NULL;
	i = cache_slot(c, key, fnv1a(key));
	return c->keys[i] ? c->val[i] : NULL;
}

/* A value is freed by c->drop (NULL: mem_free). */
static void
drop(const Cache *c, void *val)
{
	if (c->drop && val)
		c->drop(val);
	else
		mem_free(val);
}

/* Like cache_put, and takes val too (dropped here when not stored). */
int
cache_put_val(Cache *c, char *key, bool acc, void *val)
{
	uint64_t h = fnv1a(key);
	size_t i;

	if (2 * (c->n + 1) > c->cap && cache_grow(c)) {
		mem_free(key);
		drop(c, val);
		return -1;
	}
	i = cache_slot(c, key, h);
	if (c->keys[i]) {
		mem_free(key);
		drop(c, val);
		return 0;
	}
	c->keys[i] = key;
	c->hash[i] = h;
	c->acc[i] = acc;
	c->val[i] = val;
	c->n++;
	return 0;
}

void
cache_free(Cache *c)
{
	for (size_t i = 0; i < c->cap; i++) {
		mem_free(c->keys[i]);
		drop(c, c->val[i]);
	}
	mem_free(c->keys);
	mem_free(c->val);
	mem_free(c->hash);
	mem_free(c->acc);
	c->keys = NULL, c->val = NULL, c->hash = NULL, c->acc = NULL;
	c->cap = c->n = 0;          /* drop stays */
}

