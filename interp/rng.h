/*
 * rng.h: the one random number generator of bufdiff, splitmix64 (Steele,
 * Lea and Flood; Vigna's reference constants).  Every seeded choice goes
 * through rng_next: `{random: SEED}` inputs (oracle/cases/data.c),
 * the generator (oracle/fuzz/gen*.c), the random:SEED schedule of
 * launches (interp/async.c) and of forall trips (interp/exec.c).  Same
 * seed, same sequence, on every machine.
 */
#ifndef BUFDIFF_RNG_H
#define BUFDIFF_RNG_H

#include <stdint.h>

/* The next number of the sequence in *state (any value is a seed). */
static inline uint64_t
rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Marsaglia's xorshift64 (13, 7, 17): the kernel tests' inputs, kept so
 * that they test the same numbers (state must not be 0). */
static inline uint64_t
rng_xorshift(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *state = x;
}

#endif
