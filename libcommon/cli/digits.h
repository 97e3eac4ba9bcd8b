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
#ifdef __SSE2__
#include <emmintrin.h>
#endif

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

/*
 * v in lowercase hex without leading zeros ("0" for 0) at d: returns
 * the digits' count. It writes 16 bytes whatever that count: room for
 * them is the caller's. All 16 digits at once, each nibble a byte and
 * each byte a digit (SSE2, in every x86-64): a sample's callchain is a
 * dozen addresses or more, and a table's two digits a step were a
 * fifth of pddump --json.
 */
static inline unsigned
pd_hex(char *d, uint64_t v)
{
	unsigned n = (67 - __builtin_clzll(v | 1)) / 4;

	/* The n digits to the top, those after them zeros, not written. */
	v <<= 4 * (16 - n);
#ifdef __SSE2__
	{
		__m128i x, m = _mm_set1_epi8(0x0f), nib, gt9;

		x = _mm_cvtsi64_si128((long long)__builtin_bswap64(v));
		nib = _mm_unpacklo_epi8(_mm_and_si128(_mm_srli_epi16(x, 4), m),
		    _mm_and_si128(x, m));
		gt9 = _mm_cmpgt_epi8(nib, _mm_set1_epi8(9));
		nib = _mm_add_epi8(nib, _mm_add_epi8(_mm_set1_epi8('0'),
		    _mm_and_si128(gt9, _mm_set1_epi8('a' - '0' - 10))));
		_mm_storeu_si128((__m128i *)(void *)d, nib);
	}
#else
	{
		static const char hex[] = "0123456789abcdef";
		unsigned i;

		for (i = 0; i < 16; i++)
			d[i] = hex[v >> (60 - 4 * i) & 15];
	}
#endif
	return n;
}

#endif /* PD_DIGITS_H */
