/* SPDX-License-Identifier: MIT */
/*
 * -s in text: a frame's "name+" and " (dso)", made once per symbol and
 * file. Every address of a symbol prints the same text around its
 * offset, and making it each time (two strlens, an escape scan, two
 * copies through out_mem) was a sixth of pddump -s's instructions.
 * The text is found by the pointers the symbolizer hands out: a name
 * and a file's name stay where they are until the symbolizer is freed
 * (pd_syms_free), which frees this first (symtext_free).
 *
 * The table holds at most SYMTEXT_MAX symbols; when it is full it is
 * emptied and filled again, so memory is bounded whatever the stream.
 */
#include <stdlib.h>
#include <string.h>

#include "libcommon/stream/esc.h"
#include "libcommon/sym/symbols.h"
#include "pddump/out.h"
#include "pddump/pddump.h"

#define SYMTEXT_MAX	(1U << 16)
#define SYMTEXT_NAME	200	/* longer ones are made each time */
#define SYMTEXT_ROOM	(8 * SYMTEXT_NAME + 2 * PD_ESC_ROOM(64))
#define RUN_COPY	32	/* a text this short is copied whole */

struct symtext {
	const char	*name;		/* NULL: "[unknown]", no offset */
	const char	*dso;		/* NULL: an empty slot */
	uint32_t	 at;		/* in the arena: name text, dso text */
	uint16_t	 name_len, dso_len;
};

struct symtexts {
	struct symtext	*v;		/* open addressing, n < cap / 2 */
	size_t		 n, cap;
	char		*arena;		/* texts, RUN_COPY bytes after each */
	size_t		 used, size;
};

void
symtext_free(struct dumper *d)
{
	if (d->symtexts == NULL)
		return;
	free(d->symtexts->v);
	free(d->symtexts->arena);
	free(d->symtexts);
	d->symtexts = NULL;
}

static size_t
slot(const struct symtexts *t, const char *name, const char *dso)
{
	uint64_t h = ((uintptr_t)name * 0x9e3779b97f4a7c15ULL) ^
	    ((uintptr_t)dso * 0xc2b2ae3d27d4eb4fULL);

	return (h ^ h >> 29) & (t->cap - 1);
}

/* Empty, with room for cap symbols' slots; -1 when out of memory. */
static int
reset(struct symtexts *t, size_t cap)
{
	struct symtext *v = calloc(cap, sizeof(*v));

	if (v == NULL)
		return -1;
	free(t->v);
	t->v = v;
	t->cap = cap;
	t->n = 0;
	t->used = 0;
	return 0;
}

/* Appends what the output calls in make() wrote since base. */
static int
keep(struct symtexts *t, size_t base)
{
	size_t n = out_len - base;

	if (t->used + n + RUN_COPY > t->size) {
		size_t size = t->size ? t->size * 2 : 64 * 1024;
		char *a;

		while (size < t->used + n + RUN_COPY)
			size *= 2;
		if ((a = realloc(t->arena, size)) == NULL)
			return -1;
		t->arena = a;
		t->size = size;
	}
	memcpy(t->arena + t->used, out_buf + base, n);
	t->used += n;
	memset(t->arena + t->used, 0, RUN_COPY);
	return 0;
}

/*
 * The text of r's symbol and file, made where the output buffer is
 * free and kept (the buffer is left as it was); NULL when it cannot be
 * kept (out of memory, a long name): then print it the long way.
 */
static const struct symtext *
find(struct dumper *d, const struct pd_symres *r)
{
	struct symtexts *t = d->symtexts;
	struct symtext *e;
	size_t i, nlen, dlen, base;

	if (t == NULL) {
		if ((t = calloc(1, sizeof(*t))) == NULL)
			return NULL;
		d->symtexts = t;
	}
	if (t->cap > 0) {
		for (i = slot(t, r->name, r->dso); t->v[i].dso != NULL;
		    i = (i + 1) & (t->cap - 1))
			if (t->v[i].name == r->name && t->v[i].dso == r->dso)
				return &t->v[i];
	}
	nlen = r->name != NULL ? strlen(r->name) : 0;
	dlen = strlen(r->dso);
	if (nlen > SYMTEXT_NAME || dlen > SYMTEXT_NAME)
		return NULL;
	if (2 * (t->n + 1) > t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 1024;

		if (t->n + 1 > SYMTEXT_MAX)
			cap = t->cap;		/* full: start again */
		if (reset(t, cap) < 0)
			return NULL;
	}
	/*
	 * Room for both texts escaped (at most 4 bytes a byte) and for
	 * the room out_esc asks for a chunk beyond them, so that nothing
	 * below flushes and base stays put.
	 */
	out_room(SYMTEXT_ROOM);
	base = out_len;
	if (r->name != NULL) {
		out_esc(r->name, nlen);
		OUT_S("+");
	} else
		OUT_S("[unknown]");
	nlen = out_len - base;
	OUT_S(" (");
	if (r->dso_plain)
		out_mem(r->dso, dlen);
	else
		out_esc(r->dso, dlen);
	out_ch(')');
	dlen = out_len - base - nlen;
	if (keep(t, base) < 0) {
		out_len = base;
		return NULL;
	}
	out_len = base;
	for (i = slot(t, r->name, r->dso); t->v[i].dso != NULL;
	    i = (i + 1) & (t->cap - 1))
		;
	e = &t->v[i];
	e->name = r->name;
	e->dso = r->dso;
	e->at = t->used - nlen - dlen;
	e->name_len = nlen;
	e->dso_len = dlen;
	t->n++;
	return e;
}

static inline void
put_text(const char *p, size_t n)
{
	if (n <= RUN_COPY) {
		out_room(RUN_COPY);
		memcpy(out_buf + out_len, p, RUN_COPY);
		out_len += n;
	} else
		out_mem(p, n);
}

int
symtext_put(struct dumper *d, const struct pd_symres *r)
{
	const struct symtext *e;
	const char *a;

	if ((e = find(d, r)) == NULL)
		return 0;
	a = d->symtexts->arena + e->at;
	put_text(a, e->name_len);
	if (e->name != NULL)
		out_x64(r->off);
	put_text(a + e->name_len, e->dso_len);
	return 1;
}
