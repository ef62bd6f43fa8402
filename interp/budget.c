/* budget.c: the work budget and the wall clock of one run (budget.h). */
#include <stdio.h>
#include <time.h>

#include "budget.h"
#include "stop.h"

void
budget_start(Budget *b, const Limits *lim)
{
	b->used = 0;
	b->max = lim->max_work > 0 ? lim->max_work : INT64_MAX;
	b->timeout = lim->timeout > 0 ? lim->timeout : 0;
	b->start = b->timeout ? stop_clock() : 0;
	b->clock_at = WORK_CLOCK;
	b->over = 0;
}

static int
refuse(Budget *b, char *msg, size_t len)
{
	if (b->over == 3)
		fmt_snprintf(msg, len, "interrupted by %s",
			     stop_signal_name(stop_signal()));
	else if (b->over == 1)
		fmt_snprintf(msg, len, "work limit of %lld reached (elements "
			 "processed, loop trips, calls and launches)",
			 (long long)b->max);
	else
		fmt_snprintf(msg, len, "time limit of %g s reached", b->timeout);
	return -1;
}

int64_t
work_mul(int64_t a, int64_t b)
{
	if (a <= 0 || b <= 0)
		return 0;
	return a > INT64_MAX / b ? INT64_MAX : a * b;
}

int
budget_charge_slow(Budget *b, int64_t n, char *msg, size_t len)
{
	if (b->over)
		return refuse(b, msg, len);
	if (n > b->max - b->used) {
		b->over = 1;
		return refuse(b, msg, len);
	}
	b->used += n;
	if (b->used < b->clock_at)
		return 0;
	b->clock_at = b->used + WORK_CLOCK;
	if (stop_signal()) { /* a signal asked the process to stop */
		b->over = 3;
		return refuse(b, msg, len);
	}
	if (!b->timeout || stop_clock() - b->start < b->timeout)
		return 0;
	b->over = 2;
	return refuse(b, msg, len);
}
