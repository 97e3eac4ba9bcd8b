/* SPDX-License-Identifier: MIT */
/*
 * Two open-addressed hash tables: names (bytes -> id) and stacks (id
 * sequence -> totals). Names live in 64 KiB chunks that never move, so
 * their pointers stay valid; the stacks' ids live in one array that
 * grows by doubling. Both tables keep each entry's hash, so growing them
 * never rehashes a string.
 */
#include "libcommon/sym/stacks.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK	(64 * 1024)

struct name {
	const char	*p;
	uint32_t	 len;
	uint32_t	 hash;
};

struct entry {
	size_t		 off;		/* first id in frames[] */
	uint32_t	 n;
	uint32_t	 hash;
	uint64_t	 count, period;
};

struct chunk {
	struct chunk	*next;
	size_t		 used, size;
	char		 buf[];
};

struct pd_stacks {
	struct name	*names;
	size_t		 nnames, names_cap;
	uint32_t	*nslot;		/* name index + 1; 0: empty */
	size_t		 nslot_cap;	/* a power of two */
	struct chunk	*chunks;

	struct entry	*ent;
	size_t		 nent, ent_cap;
	uint32_t	*eslot;		/* entry index + 1; 0: empty */
	size_t		 eslot_cap;
	uint32_t	*frames;
	size_t		 nframes, frames_cap;

	uint32_t	*order;		/* sorted entry indices, or NULL */
};

/* FNV-1a, 32 bits: short strings, good enough spread, no tables. */
static uint32_t
hash_bytes(const char *s, size_t n)
{
	uint32_t h = 2166136261U;

	while (n-- > 0) {
		h ^= (unsigned char)*s++;
		h *= 16777619U;
	}
	return h;
}

static uint32_t
hash_ids(const uint32_t *ids, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ n;

	while (n-- > 0) {
		h ^= *ids++;
		h *= 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	return (uint32_t)h;
}

struct pd_stacks *
pd_stacks_new(void)
{
	return calloc(1, sizeof(struct pd_stacks));
}

void
pd_stacks_free(struct pd_stacks *st)
{
	struct chunk *c, *next;

	if (st == NULL)
		return;
	for (c = st->chunks; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
	free(st->names);
	free(st->nslot);
	free(st->ent);
	free(st->eslot);
	free(st->frames);
	free(st->order);
	free(st);
}

/* Doubles an array of `size`-byte elements to hold at least `want`. */
static int
grow(void *pp, size_t *cap, size_t want, size_t size)
{
	void **p = pp;
	size_t n = *cap ? *cap : 64;
	void *q;

	if (want <= *cap)
		return 0;
	while (n < want)
		n *= 2;
	if (n > SIZE_MAX / size || (q = realloc(*p, n * size)) == NULL)
		return -1;
	*p = q;
	*cap = n;
	return 0;
}

/* Rebuilds a slot table twice as big from the hashes of its entries. */
static int
rehash(uint32_t **slot, size_t *cap, size_t n, const void *base,
    size_t size, size_t hash_off)
{
	size_t ncap = *cap ? *cap * 2 : 1024, i, h;
	uint32_t *ns;

	if ((ns = calloc(ncap, sizeof(*ns))) == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		uint32_t hv;

		memcpy(&hv, (const char *)base + i * size + hash_off,
		    sizeof(hv));
		for (h = hv & (ncap - 1); ns[h] != 0; h = (h + 1) & (ncap - 1))
			;
		ns[h] = i + 1;
	}
	free(*slot);
	*slot = ns;
	*cap = ncap;
	return 0;
}

static const char *
store(struct pd_stacks *st, const char *s, size_t len)
{
	struct chunk *c = st->chunks;
	char *p;

	if (c == NULL || c->size - c->used < len + 1) {
		size_t size = len + 1 > CHUNK ? len + 1 : CHUNK;

		if ((c = malloc(sizeof(*c) + size)) == NULL)
			return NULL;
		c->used = 0;
		c->size = size;
		/* A big name gets its own chunk behind the current one. */
		if (size > CHUNK && st->chunks != NULL) {
			c->next = st->chunks->next;
			st->chunks->next = c;
		} else {
			c->next = st->chunks;
			st->chunks = c;
		}
	}
	p = c->buf + c->used;
	memcpy(p, s, len);
	p[len] = '\0';
	c->used += len + 1;
	return p;
}

int
pd_stacks_intern(struct pd_stacks *st, const char *s, size_t len,
    uint32_t *id)
{
	uint32_t hv = hash_bytes(s, len);
	struct name *nm;
	size_t h;

	if (len > UINT32_MAX || st->nnames >= UINT32_MAX - 1)
		return -1;
	if (st->nslot_cap > 0) {
		for (h = hv & (st->nslot_cap - 1); st->nslot[h] != 0;
		    h = (h + 1) & (st->nslot_cap - 1)) {
			nm = &st->names[st->nslot[h] - 1];
			if (nm->hash == hv && nm->len == len &&
			    memcmp(nm->p, s, len) == 0) {
				*id = st->nslot[h] - 1;
				return 0;
			}
		}
	}
	if ((st->nnames + 1) * 2 > st->nslot_cap &&
	    rehash(&st->nslot, &st->nslot_cap, st->nnames, st->names,
	    sizeof(*st->names), offsetof(struct name, hash)) < 0)
		return -1;
	if (grow(&st->names, &st->names_cap, st->nnames + 1,
	    sizeof(*st->names)) < 0)
		return -1;
	nm = &st->names[st->nnames];
	if ((nm->p = store(st, s, len)) == NULL)
		return -1;
	nm->len = len;
	nm->hash = hv;
	for (h = hv & (st->nslot_cap - 1); st->nslot[h] != 0;
	    h = (h + 1) & (st->nslot_cap - 1))
		;
	st->nslot[h] = st->nnames + 1;
	*id = st->nnames++;
	return 0;
}

const char *
pd_stacks_name(const struct pd_stacks *st, uint32_t id, size_t *len)
{
	if (len != NULL)
		*len = st->names[id].len;
	return st->names[id].p;
}

int
pd_stacks_add(struct pd_stacks *st, const uint32_t *ids, size_t n,
    uint64_t count, uint64_t period)
{
	uint32_t hv = hash_ids(ids, n);
	struct entry *e;
	size_t h;

	if (n > UINT32_MAX || st->nent >= UINT32_MAX - 1)
		return -1;
	if (st->eslot_cap > 0) {
		for (h = hv & (st->eslot_cap - 1); st->eslot[h] != 0;
		    h = (h + 1) & (st->eslot_cap - 1)) {
			e = &st->ent[st->eslot[h] - 1];
			if (e->hash == hv && e->n == n && memcmp(st->frames +
			    e->off, ids, n * sizeof(*ids)) == 0) {
				e->count += count;
				e->period += period;
				return 0;
			}
		}
	}
	if ((st->nent + 1) * 2 > st->eslot_cap &&
	    rehash(&st->eslot, &st->eslot_cap, st->nent, st->ent,
	    sizeof(*st->ent), offsetof(struct entry, hash)) < 0)
		return -1;
	if (grow(&st->ent, &st->ent_cap, st->nent + 1, sizeof(*st->ent)) < 0 ||
	    grow(&st->frames, &st->frames_cap, st->nframes + n,
	    sizeof(*st->frames)) < 0)
		return -1;
	free(st->order);
	st->order = NULL;
	e = &st->ent[st->nent];
	e->off = st->nframes;
	e->n = n;
	e->hash = hv;
	e->count = count;
	e->period = period;
	if (n > 0)
		memcpy(st->frames + st->nframes, ids, n * sizeof(*ids));
	st->nframes += n;
	for (h = hv & (st->eslot_cap - 1); st->eslot[h] != 0;
	    h = (h + 1) & (st->eslot_cap - 1))
		;
	st->eslot[h] = st->nent + 1;
	st->nent++;
	return 0;
}

size_t
pd_stacks_count(const struct pd_stacks *st)
{
	return st->nent;
}

size_t
pd_stacks_names(const struct pd_stacks *st)
{
	return st->nnames;
}

/* A reader of a stack's text, one byte at a time. */
struct cursor {
	const struct pd_stacks	*st;
	const uint32_t		*ids;
	size_t			 n, i;	/* frame i */
	const unsigned char	*p, *end;
};

static void
cur_frame(struct cursor *c)
{
	const struct name *nm = &c->st->names[c->ids[c->i]];

	c->p = (const unsigned char *)nm->p;
	c->end = c->p + nm->len;
}

/* The next byte, or -1 at the end of the text. */
static int
cur_next(struct cursor *c)
{
	if (c->i >= c->n)
		return -1;
	if (c->p < c->end)
		return *c->p++;
	if (++c->i >= c->n)
		return -1;
	cur_frame(c);
	return ';';
}

int
pd_stacks_cmp(const struct pd_stacks *st, const struct pd_stack *a,
    const struct pd_stack *b)
{
	struct cursor x, y;
	size_t i = 0;
	int cx, cy;

	/* The frames both share have the same text: skip them whole. */
	while (i < a->n && i < b->n && a->ids[i] == b->ids[i])
		i++;
	if (i == a->n && i == b->n)
		return 0;
	if (i > 0 && (i == a->n || i == b->n))
		return i == a->n ? -1 : 1;	/* "a;b" < "a;b;c" */
	x.st = y.st = st;
	x.ids = a->ids;
	x.n = a->n;
	y.ids = b->ids;
	y.n = b->n;
	x.i = y.i = i;
	x.p = x.end = y.p = y.end = NULL;
	if (i < x.n)
		cur_frame(&x);
	if (i < y.n)
		cur_frame(&y);
	/* Past a shared frame both texts go on with ';': skip it too. */
	do {
		cx = cur_next(&x);
		cy = cur_next(&y);
	} while (cx == cy && cx != -1);
	return cx < cy ? -1 : cx > cy;
}

static void
entry_stack(const struct pd_stacks *st, uint32_t i, struct pd_stack *s)
{
	const struct entry *e = &st->ent[i];

	s->ids = st->frames + e->off;
	s->n = e->n;
}

static int
text_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct pd_stacks *st = ctx;
	struct pd_stack a, b;

	entry_stack(st, *(const uint32_t *)pa, &a);
	entry_stack(st, *(const uint32_t *)pb, &b);
	return pd_stacks_cmp(st, &a, &b);
}

static int
frame_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct pd_stacks *st = ctx;
	struct pd_stack a, b;
	size_t i;

	entry_stack(st, *(const uint32_t *)pa, &a);
	entry_stack(st, *(const uint32_t *)pb, &b);
	for (i = 0; i < a.n && i < b.n; i++) {
		const struct name *x = &st->names[a.ids[i]];
		const struct name *y = &st->names[b.ids[i]];
		int c;

		if (a.ids[i] == b.ids[i])
			continue;
		c = memcmp(x->p, y->p, x->len < y->len ? x->len : y->len);
		if (c != 0)
			return c;
		return x->len < y->len ? -1 : 1;
	}
	return a.n < b.n ? -1 : a.n > b.n;
}

int
pd_stacks_sort(struct pd_stacks *st, int how)
{
	size_t i;

	free(st->order);
	st->order = NULL;
	if (st->nent == 0)
		return 0;
	if ((st->order = malloc(st->nent * sizeof(*st->order))) == NULL)
		return -1;
	for (i = 0; i < st->nent; i++)
		st->order[i] = i;
	qsort_r(st->order, st->nent, sizeof(*st->order),
	    how == PD_STACKS_BY_FRAME ? frame_cmp : text_cmp, st);
	return 0;
}

void
pd_stacks_get(const struct pd_stacks *st, size_t i, struct pd_stack *s)
{
	const struct entry *e = &st->ent[st->order != NULL ? st->order[i] : i];

	s->ids = st->frames + e->off;
	s->n = e->n;
	s->count = e->count;
	s->period = e->period;
}
