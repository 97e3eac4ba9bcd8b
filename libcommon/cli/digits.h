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
 * returns where it starts.
 */
static inline char *
pd_rdec(char *end, uint64_t v)
{
	uint64_t q;

	while (v >= 100) {
		q = v / 100;
		end -= 2;
		memcpy(end, pd_dec2 + 2 * (v - 100 * q), 2);
		v = q;
	}
	if (v >= 10) {
		end -= 2;
		memcpy(end, pd_dec2 + 2 * v, 2);
	} else
		*--end = (char)('0' + v);
	return end;
}

#endif /* PD_DIGITS_H */
