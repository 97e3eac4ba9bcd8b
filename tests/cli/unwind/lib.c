/* SPDX-License-Identifier: MIT */
/* The shared-library part of the unwind tests' workload (prog.c). */
__attribute__((noinline)) unsigned long
lib_spin(unsigned long x)
{
	int i;

	for (i = 0; i < 20000; i++)
		x = x * 33 + (unsigned long)i;
	return x;
}

/* One step, called in a loop through the program's PLT. */
__attribute__((noinline)) unsigned long
lib_step(unsigned long x)
{
	return x * 33 + 1;
}
