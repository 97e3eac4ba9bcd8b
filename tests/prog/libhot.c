/* SPDX-License-Identifier: MIT */
/* The shared-library part of hot.c: leaf() spins. */
unsigned long	leaf(unsigned long);

unsigned long
leaf(unsigned long n)
{
	volatile unsigned long x = 0;
	unsigned long i;

	for (i = 0; i < n; i++)
		x += i;
	return x;
}
