/* SPDX-License-Identifier: MIT */
/*
 * pd_rdec against printf's %llu, pd_hex against its %llx: every power
 * of ten (of sixteen) and its neighbours, UINT64_MAX, and a million
 * numbers of every length from a fixed generator.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "libcommon/cli/digits.h"
#include "tests/unit/t.h"

static int
same(uint64_t v)
{
	char want[32], buf[32], *p;
	int n = snprintf(want, sizeof(want), "%" PRIu64, v);

	memset(buf, '#', sizeof(buf));
	p = pd_rdec(buf + 24, v);
	/* Nothing written before where it says it starts. */
	return p >= buf + 4 && p[-1] == '#' && buf + 24 - p == n &&
	    memcmp(p, want, n) == 0 && buf[24] == '#';
}

static int
same_hex(uint64_t v)
{
	char want[32], buf[32];
	int n = snprintf(want, sizeof(want), "%" PRIx64, v);

	memset(buf, '#', sizeof(buf));
	/* Its 16 bytes written, and not one more. */
	return pd_hex(buf + 4, v) == (unsigned)n && memcmp(buf + 4, want,
	    n) == 0 && buf[3] == '#' && buf[20] == '#';
}

int
main(void)
{
	uint64_t p = 1, x = 0x9e3779b97f4a7c15ULL, v;
	int i, bad = 0;

	for (i = 0; i < 20; i++, p *= 10) {
		T(same(p));
		T(same(p - 1));
		T(same(p + 1));
		T(same(p * 2 - 1));
	}
	T(same(0));
	T(same(99999999));
	T(same(100000000));
	T(same(100000000ULL * 100000000ULL));
	T(same(100000000ULL * 100000000ULL - 1));
	T(same(UINT64_MAX));
	T(same(UINT64_MAX - 1));
	for (i = 0; i < 64; i++) {
		T(same_hex(1ULL << i));
		T(same_hex((1ULL << i) - 1));
		T(same_hex((1ULL << i) + 1));
	}
	T(same_hex(0));
	T(same_hex(UINT64_MAX));
	T(same_hex(0xabcdef0123456789ULL));
	T(same_hex(0x9a9a9a9aULL));
	for (i = 0; i < 1000000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v = x >> (x & 63);	/* every length */
		bad += !same(v) + !same_hex(v);
	}
	T(bad == 0);
	return T_END();
}
