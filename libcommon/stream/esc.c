/* SPDX-License-Identifier: MIT */
#include "libcommon/stream/esc.h"

#include <stdint.h>
#include <string.h>

static int
special(unsigned char c)
{
	return c < 0x20 || c >= 0x7f || c == '"' || c == '\\';
}

/* Bytes of x that are zero have their top bit set in the result. */
#define ZERO_BYTES(x)	(((x) - ONES) & ~(x) & HIGHS)
#define ONES		0x0101010101010101ULL
#define HIGHS		0x8080808080808080ULL

/* The top bit of each byte of x that pd_esc would change: exact. */
static uint64_t
special8(uint64_t x)
{
	return ((x - 0x20 * ONES) & ~x & HIGHS) |	/* below 0x20 */
	    (x & HIGHS) |				/* 0x80 and up */
	    ZERO_BYTES(x ^ 0x7f * ONES) |
	    ZERO_BYTES(x ^ '"' * ONES) |
	    ZERO_BYTES(x ^ '\\' * ONES);
}

/*
 * Eight bytes at a time: every symbol name and path that the views
 * print goes through here, and a byte at a time was a sixth of
 * `pddump -s`. The tests are exact: a word passes only when none of its
 * bytes is special.
 */
int
pd_esc_needed(const char *s, size_t n)
{
	uint64_t x;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		memcpy(&x, s + i, 8);
		if (special8(x))
			return 1;
	}
	for (; i < n; i++)
		if (special(s[i]))
			return 1;
	return 0;
}

int
pd_esc_bare(const char *s, size_t n)
{
	uint64_t x;
	size_t i;

	if (n < 8) {
		for (i = 0; i < n; i++)
			if (special(s[i]) || s[i] == ' ' || s[i] == '=')
				return 0;
		return n > 0;
	}
	/* The last word overlaps the one before: no byte past n is read. */
	for (i = 0;; i += 8) {
		if (i > n - 8)
			i = n - 8;
		memcpy(&x, s + i, 8);
		if (special8(x) | ZERO_BYTES(x ^ ' ' * ONES) |
		    ZERO_BYTES(x ^ '=' * ONES))
			return 0;
		if (i == n - 8)
			return 1;
	}
}

/* One byte's escape into d (room for 4); returns its length. */
static size_t
esc1(char *d, unsigned char c)
{
	static const char hx[] = "0123456789abcdef";

	if (!special(c)) {
		d[0] = c;
		return 1;
	}
	d[0] = '\\';
	if (c == '"' || c == '\\') {
		d[1] = c;
		return 2;
	}
	d[1] = 'x';
	d[2] = hx[c >> 4];
	d[3] = hx[c & 15];
	return 4;
}

size_t
pd_esc(char *dst, const char *s, size_t n)
{
	size_t i, o = 0;

	for (i = 0; i < n; i++)
		o += esc1(dst + o, s[i]);
	dst[o] = '\0';
	return o;
}

const char *
pd_esc_str(const char *s, char *buf, size_t len)
{
	char e[4];
	size_t n = strlen(s), i, o = 0, k;

	if (!pd_esc_needed(s, n))
		return s;
	if (len == 0)
		return "";
	for (i = 0; i < n; i++) {
		k = esc1(e, s[i]);
		if (o + k >= len)
			break;
		memcpy(buf + o, e, k);
		o += k;
	}
	buf[o] = '\0';
	return buf;
}
