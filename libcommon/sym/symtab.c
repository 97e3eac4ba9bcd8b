/* SPDX-License-Identifier: MIT */
/*
 * Sorted symbol tables, built with perf's rules from ELF symbols, a JIT's
 * map file or kallsyms: aliases reduced to one, a size-0 symbol reaching
 * the next one.
 */
#include "libcommon/sym/symtab.h"

#include <gelf.h>
#include <libiberty/demangle.h>
#include <stdlib.h>
#include <string.h>

void
pd_symtab_free(struct symtab *st)
{
	size_t i;

	for (i = 0; i < st->ndm; i++)
		free(st->dm[i]);
	free(st->dm);
	free(st->named);
	free(st->raw);
	free(st->syms);
	free(st->pool);
	memset(st, 0, sizeof(*st));
}

char *
pd_symtab_demangle(const char *name)
{
	/* Every scheme starts with '_'. */
	return name[0] == '_' ? cplus_demangle(name, DMGL_NO_OPTS) : NULL;
}

const char *
pd_symtab_name(struct symtab *st, const struct sym *s)
{
	size_t i = s - st->syms;
	char *dm, **g;

	if (!st->mangled || st->named[i])
		return s->name;
	st->named[i] = 1;
	if ((dm = pd_symtab_demangle(s->name)) == NULL)
		return s->name;
	/* Out of memory: the mangled name, which is still its name. */
	if (st->raw == NULL &&
	    (st->raw = calloc(st->n, sizeof(*st->raw))) == NULL) {
		free(dm);
		return s->name;
	}
	if (st->ndm == st->dmcap) {
		size_t ncap = st->dmcap ? st->dmcap * 2 : 64;

		if ((g = realloc(st->dm, ncap * sizeof(*g))) == NULL) {
			free(dm);
			return s->name;
		}
		st->dm = g;
		st->dmcap = ncap;
	}
	st->dm[st->ndm++] = dm;
	st->raw[i] = s->name;
	st->syms[i].name = dm;
	return dm;
}

const char *
pd_symtab_raw(const struct symtab *st, const struct sym *s)
{
	size_t i = s - st->syms;

	return st->raw != NULL && st->raw[i] != NULL ? st->raw[i] : s->name;
}

int
pd_symtab_add(struct pd_symtab_builder *b, uint64_t start, uint64_t size,
    const char *name, size_t nlen, unsigned bind, int module)
{
	struct bsym *s;

	if (b->n == b->cap) {
		size_t ncap = b->cap ? b->cap * 2 : 1024;

		if ((s = realloc(b->v, ncap * sizeof(*s))) == NULL)
			return -1;
		b->v = s;
		b->cap = ncap;
	}
	if (b->plen + nlen + 1 > b->pcap) {
		size_t ncap = b->pcap ? b->pcap * 2 : 16384;
		char *np;

		while (ncap < b->plen + nlen + 1)
			ncap *= 2;
		if ((np = realloc(b->pool, ncap)) == NULL)
			return -1;
		b->pool = np;
		b->pcap = ncap;
	}
	s = &b->v[b->n];
	s->start = start;
	s->end = start + size;
	s->name = b->plen;
	s->idx = b->n;
	s->bind = bind;
	s->module = module;
	memcpy(b->pool + b->plen, name, nlen);
	b->pool[b->plen + nlen] = '\0';
	b->plen += nlen + 1;
	b->n++;
	return 0;
}

void
pd_symtab_builder_free(struct pd_symtab_builder *b)
{
	free(b->v);
	free(b->pool);
	memset(b, 0, sizeof(*b));
}

static int
bsym_cmp(const void *a, const void *b)
{
	const struct bsym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static size_t
underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* perf's choose_best_symbol on the names: 1 when na wins over nb. */
static int
better_name(const char *na, const char *nb)
{
	size_t x = underscores(na), y = underscores(nb);

	if (x != y)
		return x < y;
	x = strlen(na);
	y = strlen(nb);
	if (x != y)
		return x > y;
	return 1;
}

/*
 * perf's choose_best_symbol: 1 when a wins over b. perf compares the
 * names it shows, demangled: so are mangled ones here, for this.
 */
static int
better(const struct pd_symtab_builder *bd, const struct bsym *a, const struct bsym *b)
{
	const char *na = bd->pool + a->name, *nb = bd->pool + b->name;
	char *da, *db;
	int r;

	if (a->end > a->start && b->end == b->start)
		return 1;
	if (a->end == a->start && b->end > b->start)
		return 0;
	if ((a->bind == STB_WEAK) != (b->bind == STB_WEAK))
		return b->bind == STB_WEAK;
	if ((a->bind == STB_GLOBAL) != (b->bind == STB_GLOBAL))
		return a->bind == STB_GLOBAL;
	if (!bd->mangled)
		return better_name(na, nb);
	da = pd_symtab_demangle(na);
	db = pd_symtab_demangle(nb);
	r = better_name(da != NULL ? da : na, db != NULL ? db : nb);
	free(da);
	free(db);
	return r;
}

/* One symbol of each address: perf's symbols__fixup_duplicate. */
static size_t
dedup(struct pd_symtab_builder *b, size_t n)
{
	size_t i, k;

	for (i = 1, k = 1; i < n; i++) {
		if (b->v[i].start == b->v[k - 1].start) {
			if (!better(b, &b->v[k - 1], &b->v[i]))
				b->v[k - 1] = b->v[i];
			continue;
		}
		b->v[k++] = b->v[i];
	}
	return k;
}

/* Size-0 symbols reach the next one: perf's symbols__fixup_end. */
static void
fixup_end(struct pd_symtab_builder *b, size_t n, int kallsyms)
{
	size_t i;

	for (i = 0; i + 1 < n; i++) {
		struct bsym *p = &b->v[i], *c = &b->v[i + 1];

		if (p->end != p->start)
			continue;
		if (kallsyms && p->module != c->module)
			p->end = ((p->end + 4096) + 4095) / 4096 * 4096;
		else
			p->end = c->start;
	}
	if (b->v[n - 1].end == b->v[n - 1].start)
		b->v[n - 1].end = (b->v[n - 1].start + 4095) / 4096 * 4096 +
		    4096;
}

/*
 * Sorts, reduces aliases to the one perf keeps and gives size-0 symbols
 * the room up to the next one, in perf's order: an ELF file's aliases
 * go first (the shortest-prefixed global name wins), kallsyms' last (so
 * the last alias listed, the one that got the room, wins). Moves the
 * result into `st`.
 */
int
pd_symtab_finish(struct pd_symtab_builder *b, struct symtab *st, int kallsyms)
{
	size_t i, n, nreg;

	memset(st, 0, sizeof(*st));
	if (b->n == 0) {
		pd_symtab_builder_free(b);
		return 0;
	}
	nreg = b->n - b->nplt;
	if (nreg > 0) {
		/* kallsyms comes in address order: no sort to do then. */
		for (i = 1; i < nreg && b->v[i - 1].start <= b->v[i].start;
		    i++)
			;
		if (i < nreg)
			qsort(b->v, nreg, sizeof(*b->v), bsym_cmp);
		if (kallsyms) {
			fixup_end(b, nreg, 1);
			n = dedup(b, nreg);
		} else {
			n = dedup(b, nreg);
			fixup_end(b, n, 0);
		}
	} else
		n = 0;
	/* PLT entries come after the fixups, with their own sizes. */
	if (b->nplt > 0) {
		memmove(b->v + n, b->v + nreg, b->nplt * sizeof(*b->v));
		n += b->nplt;
		qsort(b->v, n, sizeof(*b->v), bsym_cmp);
	}
	if ((st->syms = malloc(n * sizeof(*st->syms))) == NULL ||
	    (b->mangled && (st->named = calloc(n, 1)) == NULL)) {
		free(st->syms);
		st->syms = NULL;
		pd_symtab_builder_free(b);
		return -1;
	}
	st->mangled = b->mangled;
	st->pool = b->pool;
	b->pool = NULL;
	for (i = 0; i < n; i++) {
		st->syms[i].start = b->v[i].start;
		st->syms[i].end = b->v[i].end;
		st->syms[i].name = st->pool + b->v[i].name;
	}
	st->n = n;
	pd_symtab_builder_free(b);
	return 0;
}

const struct sym *
pd_symtab_find(const struct symtab *st, uint64_t addr)
{
	size_t lo = 0, hi = st->n;

	/* The last symbol starting at or below addr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (st->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || addr >= st->syms[lo - 1].end)
		return NULL;
	return &st->syms[lo - 1];
}
