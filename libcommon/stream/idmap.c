/* SPDX-License-Identifier: MIT */
#include "libcommon/stream/idmap.h"

#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/*
 * Linear probing at a load of at most 1/2. With a random seed a probe
 * sequence this long is all but impossible (a cluster of 64 at load 1/2
 * has odds far below 2^-40), so meeting one means the keys were chosen
 * against the seed: rebuild with another. After a few tries in a row
 * the table also grows, so even a broken seed source cannot loop.
 */
#define PROBE_MAX	64
#define RESEED_TRIES	4

uint64_t
pd_idmap_seed(void)
{
	static uint64_t count;
	struct timespec ts;
	uint64_t s;

	if (getrandom(&s, sizeof(s), GRND_NONBLOCK) == sizeof(s))
		return s;
	/* No entropy yet (early boot): still differs per run and call. */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return pd_idmap_mix((uint64_t)ts.tv_nsec ^ (uint64_t)ts.tv_sec << 30,
	    (uint64_t)getpid() << 32 ^ ++count);
}

/*
 * murmur3's 64-bit finalizer over the key mixed with the secret seed:
 * without the seed, which keys share a slot cannot be worked out.
 */
static size_t
hash(const struct pd_idmap *m, uint64_t k)
{
	return pd_idmap_mix(k, m->seed) & (m->cap - 1);
}

void
pd_idmap_free(struct pd_idmap *m)
{
	free(m->keys);
	free(m->vals);
	free(m->used);
	memset(m, 0, sizeof(*m));
}

/* Slot of key, or of the free slot it goes to; -1 when too far. */
static ssize_t
slot(const struct pd_idmap *m, uint64_t key)
{
	size_t h = hash(m, key), i;

	for (i = 0; m->used[h] && m->keys[h] != key; i++) {
		if (i == PROBE_MAX)
			return -1;
		h = (h + 1) & (m->cap - 1);
	}
	return h;
}

/*
 * Moves every entry into a table of `cap` slots under a fresh seed.
 * 1 when some entry still probes too far, 0 done, -1 no memory; the map
 * is left as it was unless 0 is returned.
 */
static int
rebuild(struct pd_idmap *m, size_t cap)
{
	struct pd_idmap n;
	ssize_t h;
	size_t i;

	memset(&n, 0, sizeof(n));
	n.cap = cap;
	n.seed = pd_idmap_seed();
	n.keys = malloc(cap * sizeof(*n.keys));
	n.vals = malloc(cap * sizeof(*n.vals));
	n.used = calloc(cap, 1);
	if (n.keys == NULL || n.vals == NULL || n.used == NULL) {
		pd_idmap_free(&n);
		return -1;
	}
	for (i = 0; i < m->cap; i++) {
		if (!m->used[i])
			continue;
		if ((h = slot(&n, m->keys[i])) < 0) {
			pd_idmap_free(&n);
			return 1;
		}
		n.used[h] = 1;
		n.keys[h] = m->keys[i];
		n.vals[h] = m->vals[i];
	}
	n.n = m->n;
	pd_idmap_free(m);
	*m = n;
	return 0;
}

int
pd_idmap_put(struct pd_idmap *m, uint64_t key, uint64_t val)
{
	size_t cap = m->cap;
	ssize_t h = -1;
	int tries = 0, r;

	m->hit = 0;		/* it may rebind the cached key */
	if ((m->n + 1) * 2 <= m->cap)
		h = slot(m, key);
	else
		cap = cap ? cap * 2 : 64;
	while (h < 0) {
		if (++tries > RESEED_TRIES) {
			cap *= 2;
			tries = 1;
		}
		if ((r = rebuild(m, cap)) < 0)
			return -1;
		if (r == 0)
			h = slot(m, key);
	}
	if (!m->used[h])
		m->n++;
	m->used[h] = 1;
	m->keys[h] = key;
	m->vals[h] = val;
	return 0;
}
