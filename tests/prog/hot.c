/* SPDX-License-Identifier: MIT */
/*
 * A program with known call paths for the symbol tests: main -> outer
 * -> middle -> leaf, leaf in libhot.so, each spinning a while, until
 * the given milliseconds (default 300) have passed. Built by the tests
 * with -O1 -g -fno-omit-frame-pointer, as a PIE.
 */
#include <stdlib.h>
#include <time.h>

unsigned long	leaf(unsigned long);

static volatile unsigned long sink;

static __attribute__((noinline)) unsigned long
middle(unsigned long n)
{
	unsigned long i, x = 0;

	for (i = 0; i < n; i++)
		x += i * i;
	return x + leaf(n * 4);
}

static __attribute__((noinline)) unsigned long
outer(unsigned long n)
{
	unsigned long i, x = 0;

	for (i = 0; i < n / 4; i++)
		x ^= i;
	return x + middle(n);
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
	double end = now() + (argc > 1 ? atoi(argv[1]) : 300) / 1000.0;

	while (now() < end)
		sink += outer(20000);
	return 0;
}
