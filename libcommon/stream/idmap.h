/* SPDX-License-Identifier: MIT */
/*
 * A map from 64-bit keys (sample ids, mostly) to 64-bit values, for the
 * evlist's id -> event table and pdcat's renumbering. Keys come from the
 * stream, so whoever writes it chooses them: the hash is keyed with a
 * random seed per map, and an insert that probes too far picks a new seed
 * and rebuilds, so no choice of ids makes a lookup or insert cost more
 * than O(1) expected.
 */
#ifndef PD_IDMAP_H
#define PD_IDMAP_H

#include <stddef.h>
#include <stdint.h>

#define PD_IDMAP_CACHE	8	/* a power of two */

struct pd_idmap {
	uint64_t	*keys;
	uint64_t	*vals;
	unsigned char	*used;
	size_t		 cap;		/* a power of two, or 0 */
	size_t		 n;
	uint64_t	 seed;
	/*
	 * The last keys found and their values, direct-mapped by the key's
	 * low bits: records mostly name a few ids (an event's, one per CPU,
	 * and the ids of its side-band records), given out in a row, and
	 * the seeded hash costs more than the comparison. Keys that share
	 * a slot only miss it. A cache, written by lookups on a const map;
	 * bit i of hit: slot i holds a key.
	 */
	uint64_t	 hit_key[PD_IDMAP_CACHE], hit_val[PD_IDMAP_CACHE];
	unsigned	 hit;
};

/* An empty map needs no call: a zeroed struct is one. Frees and zeroes. */
void	pd_idmap_free(struct pd_idmap *);

/*
 * Looks key up: 1 with *val set (val may be NULL), or 0 when absent.
 * Inline, with pd_idmap_mix, for the evlist's lookup of every record.
 */
static inline int	pd_idmap_get(const struct pd_idmap *, uint64_t key,
			    uint64_t *val);

/* Binds key to val, replacing an older binding. 0, or -1 (no memory). */
int	pd_idmap_put(struct pd_idmap *, uint64_t key, uint64_t val);

/*
 * For other tables keyed by values from the stream (pids, tids): a new
 * random seed (getrandom, else the clock), and a key mixed with one
 * (murmur3's finalizer); mask the low bits for a slot.
 */
uint64_t	pd_idmap_seed(void);
static inline uint64_t	pd_idmap_mix(uint64_t key, uint64_t seed);

static inline uint64_t
pd_idmap_mix(uint64_t k, uint64_t seed)
{
	k ^= seed;
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53ULL;
	k ^= k >> 33;
	return k;
}

static inline int
pd_idmap_get(const struct pd_idmap *m, uint64_t key, uint64_t *val)
{
	struct pd_idmap *c = (struct pd_idmap *)m;	/* the cache only */
	unsigned k = key & (PD_IDMAP_CACHE - 1);
	size_t h;

	if ((m->hit >> k & 1) && m->hit_key[k] == key) {
		if (val != NULL)
			*val = m->hit_val[k];
		return 1;
	}
	if (m->cap == 0)
		return 0;
	for (h = pd_idmap_mix(key, m->seed) & (m->cap - 1); m->used[h];
	    h = (h + 1) & (m->cap - 1))
		if (m->keys[h] == key) {
			c->hit |= 1u << k;
			c->hit_key[k] = key;
			c->hit_val[k] = m->vals[h];
			if (val != NULL)
				*val = m->vals[h];
			return 1;
		}
	return 0;
}

#endif /* PD_IDMAP_H */
