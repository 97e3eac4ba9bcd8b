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

struct pd_idmap {
	uint64_t	*keys;
	uint64_t	*vals;
	unsigned char	*used;
	size_t		 cap;		/* a power of two, or 0 */
	size_t		 n;
	uint64_t	 seed;
};

/* An empty map needs no call: a zeroed struct is one. Frees and zeroes. */
void	pd_idmap_free(struct pd_idmap *);

/*
 * Looks key up: 1 with *val set (val may be NULL), or 0 when absent.
 */
int	pd_idmap_get(const struct pd_idmap *, uint64_t key, uint64_t *val);

/* Binds key to val, replacing an older binding. 0, or -1 (no memory). */
int	pd_idmap_put(struct pd_idmap *, uint64_t key, uint64_t val);

/*
 * For other tables keyed by values from the stream (pids, tids): a new
 * random seed (getrandom, else the clock), and a key mixed with one
 * (murmur3's finalizer); mask the low bits for a slot.
 */
uint64_t	pd_idmap_seed(void);
uint64_t	pd_idmap_mix(uint64_t key, uint64_t seed);

#endif /* PD_IDMAP_H */
