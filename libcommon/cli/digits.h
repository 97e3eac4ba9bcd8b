/* SPDX-License-Identifier: MIT */
/*
 * Numbers as text, two decimal digits at a time: the views write one
 * or more for every sample, and a digit at a time (a division each)
 * was a fourteenth of the gecko export.
 */
#ifndef PD_DIGITS_H
#define PD_DIGITS_H

#include <stdint.h>
#include <string.h>

/* "00" to "99". */
extern const char	pd_dec2[200];

/*
 * v in decimal, ending at end (no NUL; up to 20 bytes before it):
 * returns where it starts. Eight digits at a time while v has more
 * (one 64-bit division), each eight in 32-bit steps of two: a time in
 * ns has 12 or more digits.
 */
static inline char *
pd_rdec(char *end, uint64_t v)
{
	uint32_t w, hi, lo;
	uint64_t q;

	while (v >= 100000000) {
		q = v / 100000000;
		w = (uint32_t)(v - q * 100000000);
		hi = w / 10000;
		lo = w - hi * 10000;
		end -= 8;
		memcpy(end, pd_dec2 + 2 * (hi / 100), 2);
		memcpy(end + 2, pd_dec2 + 2 * (hi % 100), 2);
		memcpy(end + 4, pd_dec2 + 2 * (lo / 100), 2);
		memcpy(end + 6, pd_dec2 + 2 * (lo % 100), 2);
		v = q;
	}
	for (w = (uint32_t)v; w >= 100; w = hi) {
		hi = w / 100;
		end -= 2;
		memcpy(end, pd_dec2 + 2 * (w - 100 * hi), 2);
	}
	if (w >= 10) {
		end -= 2;
		memcpy(end, pd_dec2 + 2 * w, 2);
	} else
		*--end = (char)('0' + w);
	return end;
}

#endif /* PD_DIGITS_H */
