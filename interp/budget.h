/*
 * budget.h: how much one run may do (issue 12 item 13).
 *
 * Limits bounds what a run holds (elements, bytes) and two counts (loop
 * trips, call depth); a Budget bounds what it does.  Both executors charge
 * it at the same points: WORK_STEP for each op (the reference) or buffer
 * instruction (the instrumented executor), each loop trip, call and
 * launch, and the elements a kernel or a copy processes (a matmul m*n*k,
 * a reduction its input).  A charge past Limits.max_work, or past
 * Limits.timeout seconds of wall-clock time since the run started, is
 * refused with a message naming the limit; the run then stops where it
 * stands (the reference with a located error, the instrumented executor
 * with `aborted`).  The clock is read every WORK_CLOCK units, so a
 * timeout costs nothing measurable and is seen within about a millisecond
 * (a single kernel is bounded by the work limit, not by the clock).
 * A signal that asked the process to stop (stop.h) is seen at the same
 * looks, with or without a timeout.
 */
#ifndef BUFDIFF_BUDGET_H
#define BUFDIFF_BUDGET_H

#include "ir.h"

enum {
	WORK_STEP = 128,          /* an op, an instruction, a trip */
	WORK_CALL = 512,          /* a call or a launch: frames, registers */
	WORK_CLOCK = 1 << 16,     /* units between two looks at the clock */
};

typedef struct Budget {
	int64_t used, max;
	int64_t clock_at;         /* `used` at which the clock is read next */
	double start, timeout;    /* monotonic seconds; timeout 0: none */
	int over;                 /* 1: work, 2: time limit reached, 3: a
				   * signal (stop.h) (sticky) */
} Budget;

void budget_start(Budget *b, const Limits *lim);
/* Charge n units (n >= 0; saturating).  0, or -1 with msg set to
 * "work limit of N reached ..." or "time limit of S s reached".  Inline
 * up to the next look at the clock (every op charges). */
int budget_charge_slow(Budget *b, int64_t n, char *msg, size_t len);
static inline int
budget_charge(Budget *b, int64_t n, char *msg, size_t len)
{
	if (!b->over && n <= b->max - b->used && b->used + n < b->clock_at) {
		b->used += n;
		return 0;
	}
	return budget_charge_slow(b, n, msg, len);
}
/* a*b, or INT64_MAX when it overflows (a, b >= 0): m*n*k of a matmul. */
int64_t work_mul(int64_t a, int64_t b);

#endif
