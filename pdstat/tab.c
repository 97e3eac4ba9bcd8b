/* SPDX-License-Identifier: MIT */
#include "pdstat/tab.h"

#include <stdlib.h>
#include <string.h>

int
tab_index_grow(struct tab_index *x)
{
	struct tab_slot *ns;
	size_t cap, i, k;

	cap = x->cap ? x->cap * 2 : 1024;
	if ((ns = calloc(cap, sizeof(*ns))) == NULL)
		return -1;
	for (i = 0; i < x->cap; i++) {
		if (x->s[i].id1 == 0)
			continue;
		for (k = x->s[i].h & (cap - 1); ns[k].id1 != 0;
		    k = (k + 1) & (cap - 1))
			;
		ns[k] = x->s[i];
	}
	free(x->s);
	x->s = ns;
	x->cap = cap;
	return 0;
}

int
tab_grow(void *pp, size_t *cap, size_t n, size_t sz)
{
	void **p = pp, *np;
	size_t nc;

	if (n < *cap)
		return 0;
	nc = *cap ? *cap * 2 : 16;
	if ((np = realloc(*p, nc * sz)) == NULL)
		return -1;
	*p = np;
	*cap = nc;
	return 0;
}

/*
 * Eight bytes a step (a byte a step was most of hashing a 25-byte
 * stack); the ids it gives are never written, so any order of bytes.
 */
uint64_t
tab_hash(const void *p, size_t n, uint64_t h)
{
	const unsigned char *s = p;
	uint64_t w;

	h ^= 14695981039346656037ULL ^ n;
	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
		h ^= h >> 29;
	}
	if (n > 0) {
		w = 0;
		memcpy(&w, s, n);
		h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
	}
	return tab_mix(h);
}

int
tab_str(struct tab_strs *t, const char *s, size_t n, uint32_t *id)
{
	uint32_t h = (uint32_t)tab_hash(s, n, 0);
	struct tab_slot *sl;
	size_t k;

	if (tab_index_room(&t->idx) < 0)
		return -1;
	for (k = tab_first(&t->idx, h); (sl = &t->idx.s[k])->id1 != 0;
	    k = tab_next(&t->idx, k))
		if (sl->h == h && t->len[sl->id1 - 1] == n &&
		    memcmp(t->pool + t->off[sl->id1 - 1], s, n) == 0) {
			*id = sl->id1 - 1;
			return 0;
		}
	if (t->n == t->cap) {
		size_t nc = t->cap ? t->cap * 2 : 1024;
		size_t *no = realloc(t->off, nc * sizeof(*no));
		uint32_t *nl;

		if (no == NULL)
			return -1;
		t->off = no;
		if ((nl = realloc(t->len, nc * sizeof(*nl))) == NULL)
			return -1;
		t->len = nl;
		t->cap = nc;
	}
	while (t->plen + n + 1 > t->pcap) {
		size_t nc = t->pcap ? t->pcap * 2 : 64 * 1024;
		char *np = realloc(t->pool, nc);

		if (np == NULL)
			return -1;
		t->pool = np;
		t->pcap = nc;
	}
	memcpy(t->pool + t->plen, s, n);
	t->pool[t->plen + n] = '\0';
	t->off[t->n] = t->plen;
	t->len[t->n] = (uint32_t)n;
	t->plen += n + 1;
	*id = (uint32_t)t->n++;
	tab_set(&t->idx, k, *id, h);
	return 0;
}

void
tab_strs_free(struct tab_strs *t)
{
	free(t->pool);
	free(t->off);
	free(t->len);
	free(t->idx.s);
	memset(t, 0, sizeof(*t));
}
