/*
 * strmap.c: the hash table of strings (strmap.h).  Open addressing with
 * linear probing at most half full, 24-byte slots (a table of 10^5 names
 * should stay near the cache); FNV-1a over the bytes, finished with a
 * 64-bit mixer so the low bits (the slot) depend on every byte.  The
 * basis holds an address, so under ASLR a file cannot choose names that
 * all land in one slot run (lookups only: no order depends on the hash).
 */
#include "strmap.h"

static uint32_t
strmap_hash(const char *s, size_t n)
{
	static const char here;
	uint64_t h = 14695981039346656037ull ^ (uint64_t)(uintptr_t)&here;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	return (uint32_t)(h ^ (h >> 33));
}

void
strmap_init(StrMap *m, Arena *a)
{
	memset(m, 0, sizeof *m);
	m->arena = a;
}

/* The slot of key (hash h), or the empty slot where it would go; the
 * slots keep 32 bits of hash, so cap stays <= 2^31. */
static StrMapSlot *
slot_of(const StrMap *m, const char *key, size_t len, uint32_t h)
{
	size_t i = (size_t)h & (m->cap - 1);

	while (m->slots[i].key && (m->slots[i].hash != h ||
				   m->slots[i].len != len ||
				   memcmp(m->slots[i].key, key, len)))
		i = (i + 1) & (m->cap - 1);
	return &m->slots[i];
}

int
strmap_getn(const StrMap *m, const char *key, size_t len)
{
	const StrMapSlot *s;

	if (!m->n || len > UINT32_MAX)
		return STRMAP_NONE;
	s = slot_of(m, key, len, strmap_hash(key, len));
	return s->key ? s->val : STRMAP_NONE;
}

int
strmap_get(const StrMap *m, const char *key)
{
	return strmap_getn(m, key, strlen(key));
}

static int
grow(StrMap *m)
{
	size_t cap = m->cap ? 2 * m->cap : 16;
	StrMapSlot *old = m->slots, *ns;
	size_t oldcap = m->cap;

	if (cap > ((size_t)1 << 31) || cap > SIZE_MAX / sizeof *ns)
		return STRMAP_OOM;
	ns = m->arena ? arena_alloc(m->arena, cap * sizeof *ns)
		      : mem_calloc(cap, sizeof *ns);
	if (!ns)
		return STRMAP_OOM;
	m->slots = ns;
	m->cap = cap;
	for (size_t i = 0; i < oldcap; i++)
		if (old[i].key)
			*slot_of(m, old[i].key, old[i].len, old[i].hash) = old[i];
	if (!m->arena)
		mem_free(old);
	return 0;
}

/* key's slot, made (empty) room for when absent; NULL when out of memory. */
static StrMapSlot *
slot_for(StrMap *m, const char *key, size_t len, uint32_t h)
{
	if (2 * (m->n + 1) > m->cap && grow(m))
		return NULL;
	return slot_of(m, key, len, h);
}

int
strmap_addn(StrMap *m, const char *key, size_t len, int val)
{
	uint32_t h = strmap_hash(key, len);
	StrMapSlot *s = len > UINT32_MAX ? NULL : slot_for(m, key, len, h);

	if (!s)
		return STRMAP_OOM;
	if (s->key)
		return s->val;
	*s = (StrMapSlot){key, (uint32_t)len, h, val};
	m->n++;
	return STRMAP_NONE;
}

int
strmap_add(StrMap *m, const char *key, int val)
{
	return strmap_addn(m, key, strlen(key), val);
}

int
strmap_set(StrMap *m, const char *key, int val)
{
	size_t len = strlen(key);
	uint32_t h = strmap_hash(key, len);
	StrMapSlot *s = len > UINT32_MAX ? NULL : slot_for(m, key, len, h);

	if (!s)
		return STRMAP_OOM;
	if (!s->key)
		m->n++;
	*s = (StrMapSlot){key, (uint32_t)len, h, val};
	return 0;
}

void
strmap_clear(StrMap *m)
{
	if (m->cap)
		memset(m->slots, 0, m->cap * sizeof *m->slots);
	m->n = 0;
}

void
strmap_free(StrMap *m)
{
	if (!m->arena)
		mem_free(m->slots);
	strmap_init(m, m->arena);
}
