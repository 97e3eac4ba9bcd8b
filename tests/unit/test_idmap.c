/* SPDX-License-Identifier: MIT */
/*
 * The seeded id map: every key (0 and all ones too) found again after
 * growth and reseeding, later bindings win, absent keys are absent; and
 * keys that shared one slot under the old fixed hash, and keys that
 * differ only in their high bits, spread (a probe never runs long: the
 * insert would have reseeded), so both loads stay quick.
 */
#include "libcommon/stream/idmap.h"

#include <stdio.h>

#include "tests/unit/t.h"

#define N	100000

/* Longest probe run over the table: a cluster of used slots. */
static size_t
longest_run(const struct pd_idmap *m)
{
	size_t i, run = 0, best = 0;

	for (i = 0; i < 2 * m->cap; i++) {
		run = m->used[i & (m->cap - 1)] ? run + 1 : 0;
		if (run > best)
			best = run;
	}
	return best;
}

static uint64_t
inv64(uint64_t c)
{
	uint64_t x = c;
	int i;

	for (i = 0; i < 6; i++)
		x *= 2 - c * x;
	return x;
}

int
main(void)
{
	uint64_t cinv = inv64(0xff51afd7ed558ccdULL), v, x;
	struct pd_idmap m = { 0 };
	size_t i;
	int ok;

	T(pd_idmap_get(&m, 0, &v) == 0);
	T(pd_idmap_put(&m, 0, 7) == 0 && pd_idmap_get(&m, 0, &v) && v == 7);
	T(pd_idmap_put(&m, UINT64_MAX, 8) == 0 &&
	    pd_idmap_get(&m, UINT64_MAX, &v) && v == 8);
	T(pd_idmap_put(&m, 0, 9) == 0 && pd_idmap_get(&m, 0, &v) && v == 9);
	T(m.n == 2 && pd_idmap_get(&m, 1, NULL) == 0);
	pd_idmap_free(&m);
	T(m.cap == 0 && m.n == 0);

	/* The keys that all hashed to slot 0 before. */
	for (i = 0, ok = 1; i < N; i++) {
		x = (uint64_t)(i + 1) << 32;
		x ^= x >> 33;
		x *= cinv;
		x ^= x >> 33;
		ok &= pd_idmap_put(&m, x, i) == 0;
	}
	T(ok && m.n == N);
	for (i = 0, ok = 1; i < N; i++) {
		x = (uint64_t)(i + 1) << 32;
		x ^= x >> 33;
		x *= cinv;
		x ^= x >> 33;
		ok &= pd_idmap_get(&m, x, &v) && v == i;
	}
	T(ok);
	T(longest_run(&m) < 200);
	pd_idmap_free(&m);

	/* Keys that differ only above bit 40. */
	for (i = 0, ok = 1; i < N; i++)
		ok &= pd_idmap_put(&m, (uint64_t)i << 41, i) == 0;
	for (i = 0; i < N; i++)
		ok &= pd_idmap_get(&m, (uint64_t)i << 41, &v) && v == i;
	T(ok && m.n == N && pd_idmap_get(&m, 1, NULL) == 0);
	T(longest_run(&m) < 200);
	pd_idmap_free(&m);

	/* Two seeds differ (getrandom, or the clock and a counter). */
	T(pd_idmap_seed() != pd_idmap_seed());
	return T_END();
}
