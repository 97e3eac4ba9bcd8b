/* SPDX-License-Identifier: MIT */
/*
 * The tables the exporters (pprof.c, gecko.c) build: interned strings,
 * and an open-addressing index of ids by hash that a table's own
 * comparison walks. Memory grows with the distinct entries only.
 */
#ifndef PDSTAT_TAB_H
#define PDSTAT_TAB_H

#include <stddef.h>
#include <stdint.h>

#include "libcommon/stream/idmap.h"

struct tab_slot {
	uint32_t	 id1;		/* id + 1; 0: empty */
	uint32_t	 h;
};

struct tab_index {
	struct tab_slot	*s;
	size_t		 cap, n;	/* cap: a power of two */
};

int	tab_index_grow(struct tab_index *);

/*
 * Room for one more entry (doubles at half full): 0, or -1 (memory).
 * Asked before every probe, so the test is inline.
 */
static inline int
tab_index_room(struct tab_index *x)
{
	return (x->n + 1) * 2 <= x->cap ? 0 : tab_index_grow(x);
}

/*
 * The first slot of hash h's probe sequence; the next one is
 * tab_next(). Walk until a slot's id1 is 0 (the place for a new one).
 */
static inline size_t
tab_first(const struct tab_index *x, uint32_t h)
{
	return h & (x->cap - 1);
}

static inline size_t
tab_next(const struct tab_index *x, size_t k)
{
	return (k + 1) & (x->cap - 1);
}

/* Makes slot k hold id (the index then has one more). */
static inline void
tab_set(struct tab_index *x, size_t k, uint32_t id, uint32_t h)
{
	x->s[k].id1 = id + 1;
	x->s[k].h = h;
	x->n++;
}

/*
 * Grows the array *p of n elements of sz bytes (capacity *cap) so that
 * one more fits. 0, or -1 when out of memory (*p unchanged).
 */
int	tab_grow(void *p, size_t *cap, size_t n, size_t sz);

/* A 64-bit finalizer (murmur3's): every input bit moves every output bit. */
static inline uint64_t
tab_mix(uint64_t h)
{
	return pd_idmap_mix(h, 0);
}

uint64_t	tab_hash(const void *p, size_t n, uint64_t seed);

/* Interned strings: ids from 0 in the order first seen. */
struct tab_strs {
	char		*pool;
	size_t		 plen, pcap;
	size_t		*off;
	uint32_t	*len;
	size_t		 n, cap;
	struct tab_index idx;
};

/* The id of the n bytes at s, added when new. 0, or -1 (memory). */
int	tab_str(struct tab_strs *, const char *s, size_t n, uint32_t *id);

/* String id's bytes, NUL-terminated; valid until the next tab_str. */
static inline const char *
tab_strget(const struct tab_strs *t, uint32_t id)
{
	return t->pool + t->off[id];
}

void	tab_strs_free(struct tab_strs *);

#endif /* PDSTAT_TAB_H */
