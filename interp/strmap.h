/*
 * strmap.h: one hash table of strings for every lookup by name a file can
 * make numerous (YAML keys, functions, blocks, memref symbols, fuzz
 * buckets): string -> int, the int usually an index into the caller's
 * array.  Keys are not copied: they must outlive the map.  The slots live
 * in an arena (abandoned on growth, so at most twice the final size; an
 * arena with `oom` set longjmps) or, with a NULL arena, in mem_alloc'ed
 * memory that strmap_free releases.
 */
#ifndef BUFDIFF_STRMAP_H
#define BUFDIFF_STRMAP_H

#include "ir.h"

typedef struct StrMapSlot {
	const char *key;        /* NULL: empty */
	uint32_t len;           /* key's bytes (a key may be a slice of text) */
	uint32_t hash;          /* the low half of its hash */
	int val;
} StrMapSlot;

typedef struct StrMap {
	Arena *arena;           /* NULL: mem_alloc'ed slots */
	StrMapSlot *slots;
	size_t cap, n;          /* cap: 0 or a power of two */
} StrMap;

enum { STRMAP_NONE = -1, STRMAP_OOM = -2 };

void strmap_init(StrMap *m, Arena *a);   /* a may be NULL */
/* key's value, or STRMAP_NONE */
int strmap_get(const StrMap *m, const char *key);
/* Add key -> val unless key is there: STRMAP_NONE when added, else the
 * value it has (unchanged); STRMAP_OOM when out of memory. */
int strmap_add(StrMap *m, const char *key, int val);
/* key -> val, replacing its value if any: 0, or STRMAP_OOM. */
int strmap_set(StrMap *m, const char *key, int val);
/* The same with a key of len (< 2^32) bytes (a name inside a text, no
 * NUL). */
int strmap_getn(const StrMap *m, const char *key, size_t len);
int strmap_addn(StrMap *m, const char *key, size_t len, int val);
void strmap_clear(StrMap *m);            /* empty; keeps the memory */
void strmap_free(StrMap *m);             /* frees mem_alloc'ed slots */

#endif
