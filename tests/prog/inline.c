/* SPDX-License-Identifier: MIT */
/*
 * Static functions the compiler certainly inlines at -O2 (always_inline),
 * two deep: mix into churn into work, for the inline frames and source
 * lines of pddump -s --inline --srcline and the views (tests/cli/pddump/
 * inline.sh). Argument: rounds of work (default 20000).
 */
#include <stdlib.h>

static volatile unsigned long sink;

static inline __attribute__((always_inline)) unsigned long
mix(unsigned long x)
{
	x ^= x >> 13;
	x *= 0x9e3779b97f4a7c15UL;
	return x ^ (x >> 29);
}

static inline __attribute__((always_inline)) unsigned long
churn(unsigned long x, int n)
{
	for (int i = 0; i < n; i++)
		x = mix(x + i);
	return x;
}

static __attribute__((noinline)) unsigned long
work(unsigned long seed)
{
	return churn(seed, 1000);
}

int
main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20000;

	for (long i = 0; i < n; i++)
		sink += work(i);
	return 0;
}
