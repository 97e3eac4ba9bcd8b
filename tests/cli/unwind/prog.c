/* SPDX-License-Identifier: MIT */
/*
 * The unwind tests' workload: main -> a -> b -> c, each noinline, built
 * without frame pointers so that only DWARF CFI can walk it; c spins,
 * partly in its own loop and partly in lib_spin() of libunwlib.so, so
 * samples land in the program and in a shared library of its own.
 * "prog SECS calls" spins by calling lib_step() instead, so that many
 * samples land in the PLT entry the calls go through. SECS is CPU time.
 */
#include <stdlib.h>
#include <time.h>

unsigned long	lib_spin(unsigned long);
unsigned long	lib_step(unsigned long);

static volatile unsigned long sink;
static int calls;

/*
 * The process's own CPU time: samples (cpu-clock counts it) then do not
 * depend on how busy the machine is. unwind/plt found 65 samples instead
 * of about 250 on a loaded machine, and too few in the PLT entry.
 */
static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((noinline)) unsigned long
c(double secs)
{
	double end = now() + secs;
	unsigned long x = 0;
	int i;

	while (now() < end) {
		if (calls) {
			for (i = 0; i < 20000; i++)
				x = lib_step(x);
			continue;
		}
		for (i = 0; i < 20000; i++)
			x = x * 31 + (unsigned long)i;
		x += lib_spin(x);
	}
	sink = x;
	return x + 1;
}

__attribute__((noinline)) unsigned long
b(double secs)
{
	unsigned long r = c(secs);

	sink = r;
	return r + 2;
}

__attribute__((noinline)) unsigned long
a(double secs)
{
	unsigned long r = b(secs);

	sink = r;
	return r + 3;
}

int
main(int argc, char **argv)
{
	unsigned long r;

	calls = argc > 2;
	r = a(argc > 1 ? atof(argv[1]) : 0.3);

	sink = r;
	return 0;
}
