/* mem.c: the one allocation hook, the heap's settings, and arenas on
 * top of it. */
#define _DEFAULT_SOURCE /* madvise's MADV_HUGEPAGE, sbrk */
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ir.h"

/* The hook's state, process-wide because every allocation shares it: the
 * test knob, the counts, and the budget (--max-memory, the one limit of
 * the process, set by main before anything runs). */
static long fail_after = -1; /* < 0: never fail */
static long live_blocks;
static int64_t held, peak, limit = MEM_LIMIT_DEFAULT;
static bool refused;

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

void
mem_limit(int64_t bytes)
{
	limit = bytes > 0 ? bytes : MEM_LIMIT_DEFAULT;
}

int64_t
mem_limit_bytes(void)
{
	return limit;
}

int64_t
mem_held(void)
{
	return held;
}

int64_t
mem_peak(void)
{
	return peak;
}

void
mem_peak_reset(void)
{
	peak = held;
}

bool
mem_refused(void)
{
	return refused;
}

/* ------------------------------------------------- the heap's settings
 *
 * Fuzzing allocates and frees a whole program's state thousands of times
 * a second, so the heap is kept instead of trimmed (M_TRIM_THRESHOLD,
 * M_TOP_PAD).  Setting those pins glibc's mmap threshold at 128 KiB (it
 * no longer grows when a mapped block is freed), which made every tensor
 * of 128 KiB or more a fresh mmap, its pages faulted in anew at each
 * run: `run` on 16 MiB tensors took 3.3x the CPU.  So the threshold is
 * set too, to glibc's own ceiling for the dynamic one (32 MiB): tensors
 * up to it reuse the heap.  With huge pages, the heap as it grows and
 * every block of HUGE_MIN or more (the ones mapped apart) are advised
 * MADV_HUGEPAGE, where the kernel allows it (transparent huge pages
 * `madvise` or `always`): 512 times fewer faults and TLB entries for
 * tensors, shadows and the analysis's arenas.  bench_exec malloc
 * measures each policy.
 */
enum { HUGE_MIN = 4 << 20 };

static bool huge;
static uintptr_t page = 4096;
static uintptr_t base, advised; /* the heap is advised from base to here */

void
mem_heap_setup(size_t mmap_threshold, bool huge_pages)
{
	long ps = sysconf(_SC_PAGESIZE);

#ifdef __GLIBC__
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
	mallopt(M_TOP_PAD, 16 << 20);
	if (mmap_threshold)
		mallopt(M_MMAP_THRESHOLD, (int)mmap_threshold);
#else
	(void)mmap_threshold;
#endif
	page = ps > 0 ? (uintptr_t)ps : 4096;
	huge = huge_pages;
	base = advised = (uintptr_t)sbrk(0);
}

/* Advise the whole pages inside [lo, hi) (the kernel gives a huge page
 * to each 2 MiB-aligned window inside them). */
static void
advise(uintptr_t lo, uintptr_t hi)
{
	lo = (lo + page - 1) & ~(page - 1);
	hi &= ~(page - 1);
	if (hi > lo)
		madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
}

/* After an allocation of n bytes at p: advise what is new. */
static void
advise_new(void *p, size_t n)
{
	uintptr_t top;

	/* a small block below the advised top (most blocks): nothing new.
	 * A heap trimmed below it and grown again is advised when it grows
	 * past it (the advice is a hint: only faults are at stake) */
	if (n < HUGE_MIN && (uintptr_t)p + n <= advised)
		return;
	top = (uintptr_t)sbrk(0);

	if (top < advised) /* trimmed: advise it again when it grows */
		advised = top;
	if (top > advised) {
		advise(advised & ~(page - 1), top);
		advised = top;
	}
	if (n >= HUGE_MIN && ((uintptr_t)p < base || (uintptr_t)p >= advised))
		advise((uintptr_t)p, (uintptr_t)p + n); /* mapped apart */
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

/* May the process hold n more bytes (freeing `old` of them)? */
static bool
within(size_t n, size_t old)
{
	if (should_fail()) {
		refused = false;
		return false;
	}
	if (n > (uint64_t)limit || held - (int64_t)old > limit - (int64_t)n) {
		refused = true;
		return false;
	}
	return true;
}

/* p (just allocated, or NULL: malloc failed) is held. */
static void *
count(void *p, size_t old)
{
	size_t n;

	if (!p) {
		refused = false;
		return NULL;
	}
	n = malloc_usable_size(p);
	held += (int64_t)n - (int64_t)old;
	if (held > peak)
		peak = held;
	if (huge)
		advise_new(p, n);
	return p;
}

void *
mem_alloc(size_t n)
{
	void *p;

	if (!within(n, 0))
		return NULL;
	p = count(malloc(n ? n : 1), 0);
	if (p)
		live_blocks++;
	return p;
}

enum { CALLOC_SMALL = 1024 }; /* glibc's tcache holds blocks up to 1032 */

void *
mem_calloc(size_t n, size_t size)
{
	void *p;

	n = n ? n : 1;
	size = size ? size : 1;
	if (n > SIZE_MAX / size || !within(n * size, 0))
		return NULL;
	/* a small block through malloc, zeroed here: glibc's calloc skips
	 * the per-thread cache (tcache) malloc takes small blocks from (a
	 * fuzz campaign callocs about a hundred a program) */
	if (n * size > CALLOC_SMALL) {
		p = count(calloc(n, size), 0);
	} else if ((p = count(malloc(n * size), 0))) {
		/* (after count: gcc turns a malloc then memset into calloc) */
		memset(p, 0, n * size);
	}
	if (p)
		live_blocks++;
	return p;
}

void *
mem_realloc(void *p, size_t n)
{
	size_t old;

	if (!p)
		return mem_alloc(n);
	old = malloc_usable_size(p);
	if (!within(n, old))
		return NULL;
	return count(realloc(p, n ? n : 1), old);
}

void
mem_free(void *p)
{
	if (!p)
		return;
	live_blocks--;
	held -= (int64_t)malloc_usable_size(p);
	free(p);
}

/*
 * A block kept for reuse (a cache of its owner's) counts as freed
 * (mem_held, mem_live_blocks) and counts again, through the same limit
 * and test knob as mem_alloc, when it is reused: the figures and the
 * failures are those of a fresh block.  Not under AddressSanitizer,
 * which should see such a block freed (mem_park says false: free it).
 */
#if defined(__SANITIZE_ADDRESS__)
#define PARK 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PARK 0
#endif
#endif
#ifndef PARK
#define PARK 1
#endif

bool
mem_park(void *p)
{
	if (!PARK || !p)
		return false;
	live_blocks--;
	held -= (int64_t)malloc_usable_size(p);
	return true;
}

void *
mem_unpark(void *p, size_t n)
{
	if (!within(n, 0))
		return NULL;
	live_blocks++;
	held += (int64_t)malloc_usable_size(p);
	if (held > peak)
		peak = held;
	return p;
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

Arena *
arena_new(void)
{
	return mem_calloc(1, sizeof(Arena));
}

/* Freed chunks of CHUNK_SIZE are kept for the next arena (at most
 * CHUNK_KEEP of them): a fuzz campaign makes and frees about ten arenas a
 * program, and freeing a 64 KiB block makes glibc consolidate its fast
 * bins (malloc_consolidate) each time. */
enum { CHUNK_KEEP = 32 };

static ArenaChunk *kept;
static int nkept;

static ArenaChunk *
chunk_reuse(void)
{
	ArenaChunk *c = kept;

	if (!mem_unpark(c, sizeof *c + CHUNK_SIZE))
		return NULL;
	kept = c->next;
	nkept--;
	return c;
}

static void
chunk_free(ArenaChunk *c)
{
	if (c->cap != CHUNK_SIZE || nkept >= CHUNK_KEEP || !mem_park(c)) {
		mem_free(c);
		return;
	}
	c->next = kept;
	kept = c;
	nkept++;
}

static ArenaChunk *
chunk_new(size_t cap)
{
	ArenaChunk *c = cap == CHUNK_SIZE && kept ? chunk_reuse()
						   : mem_alloc(sizeof *c + cap);

	if (!c)
		return NULL;
	c->next = NULL;
	c->used = 0;
	c->cap = cap;
	return c;
}

/* (arena_alloc, ir.h, when the current chunk has no room) */
void *
arena_alloc_slow(Arena *a, size_t n)
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

void *
arena_grow(Arena *a, void *p, size_t old, size_t n)
{
	size_t o16 = (old + 15) & ~(size_t)15, n16 = (n + 15) & ~(size_t)15;
	ArenaChunk **pc, *c;
	void *q;

	/* a big block is a chunk of its own, full: it is reallocated */
	if (p && o16 > CHUNK_SIZE / 4 && n16 > o16)
		for (pc = &a->head; (c = *pc); pc = &c->next) {
			if ((void *)c->data != p)
				continue;
			if (c->cap != o16 || c->used != o16)
				break;
			c = mem_realloc(c, sizeof *c + n16);
			if (!c) {
				if (a->oom)
					longjmp(*a->oom, 1);
				return NULL;
			}
			memset(c->data + o16, 0, n16 - o16);
			c->cap = c->used = n16;
			*pc = c;
			return c->data;
		}
	q = arena_alloc(a, n);
	if (q && old)
		memcpy(q, p, old);
	return q;
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
		chunk_free(c);
	}
	mem_free(a);
}
