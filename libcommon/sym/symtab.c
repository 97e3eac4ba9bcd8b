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
#include <sys/mman.h>

void
pd_symtab_free(struct symtab *st)
{
	size_t i;

	for (i = 0; i < st->ndm; i++)
		free(st->dm[i]);
	free(st->dm);
	free(st->named);
	free(st->syms);
	free(st->pool);
	if (st->map != NULL)
		munmap(st->map, st->maplen);
	memset(st, 0, sizeof(*st));
}

char *
pd_symtab_demangle(const char *name)
{
	/* Every scheme starts with '_'. */
	return name[0] == '_' ? cplus_demangle(name, DMGL_NO_OPTS) : NULL;
}

/*
 * Makes dm (malloc'd, or NULL: not mangled) the shown name of syms[i],
 * its name so far kept as the raw one. The demangled name is kept in a
 * block that starts with the raw name's pointer: a table of raw names
 * for all of a file's symbols, for the few demangled, was a tenth of
 * a table's memory. Out of memory: the mangled name, which is still
 * its name.
 */
static const char *
set_shown(struct symtab *st, size_t i, char *dm)
{
	const char *raw;
	size_t len;
	char **g, *blk;

	st->named[i] |= SYMTAB_NAMED;
	if (dm == NULL)
		return st->syms[i].name;
	len = strlen(dm) + 1;
	if (st->ndm == st->dmcap) {
		size_t ncap = st->dmcap ? st->dmcap * 2 : 64;

		if ((g = realloc(st->dm, ncap * sizeof(*g))) == NULL) {
			free(dm);
			return st->syms[i].name;
		}
		st->dm = g;
		st->dmcap = ncap;
	}
	if ((blk = malloc(sizeof(char *) + len)) == NULL) {
		free(dm);
		return st->syms[i].name;
	}
	raw = st->syms[i].name;
	memcpy(blk, &raw, sizeof(raw));
	memcpy(blk + sizeof(char *), dm, len);
	free(dm);
	st->dm[st->ndm++] = blk;
	st->named[i] |= SYMTAB_DM;
	return st->syms[i].name = blk + sizeof(char *);
}

const char *
pd_symtab_name(struct symtab *st, const struct sym *s)
{
	size_t i = s - st->syms;

	if (!st->mangled || (st->named[i] & SYMTAB_NAMED))
		return s->name;
	return set_shown(st, i, pd_symtab_demangle(s->name));
}

const char *
pd_symtab_raw(const struct symtab *st, const struct sym *s)
{
	size_t i = s - st->syms;
	const char *raw;

	if (st->named == NULL || !(st->named[i] & SYMTAB_DM))
		return s->name;
	memcpy(&raw, s->name - sizeof(char *), sizeof(raw));
	return raw;
}

int
pd_symtab_add(struct pd_symtab_builder *b, uint64_t start, uint64_t size,
    const char *name, size_t nlen, unsigned bind, int module)
{
	struct bsym *s;
	size_t off;

	/* Names are found by 31-bit offsets. */
	if (nlen >= BSYM_MAPPED - b->plen)
		return -1;
	if (b->n == b->cap) {
		size_t ncap = b->cap ? b->cap * 2 : 1024;

		if ((s = realloc(b->v, ncap * sizeof(*s))) == NULL)
			return -1;
		b->v = s;
		b->cap = ncap;
	}
	s = &b->v[b->n];
	s->start = start;
	s->end = start + size;
	s->bind = bind;
	s->module = module;
	s->tie = 0;
	/* In the file, NUL and all: read from the map when named. */
	off = (uintptr_t)name - (uintptr_t)b->raw;
	if (b->raw != NULL && off < b->maplen && nlen < b->maplen - off &&
	    off < BSYM_MAPPED && name[nlen] == '\0') {
		s->name = BSYM_MAPPED | (uint32_t)off;
		b->n++;
		return 0;
	}
	/*
	 * A name the last one ends with is that one's tail: kallsyms
	 * puts each function after its padding, "__pfx_" and its name
	 * (half of a 6.x kernel's 121,000 symbols), and sharing them was
	 * a fifth of a symbolizing view's table of kernel symbols.
	 * Strictly shorter: no two symbols share one name's address.
	 */
	if (nlen < b->lastlen && memcmp(b->pool + b->last + b->lastlen -
	    nlen, name, nlen) == 0) {
		s->name = (uint32_t)(b->last + b->lastlen - nlen);
		b->last = s->name;
		b->lastlen = nlen;
		b->n++;
		return 0;
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
	s->name = (uint32_t)b->plen;
	memcpy(b->pool + b->plen, name, nlen);
	b->pool[b->plen + nlen] = '\0';
	b->last = b->plen;
	b->lastlen = nlen;
	b->plen += nlen + 1;
	b->n++;
	return 0;
}

void
pd_symtab_builder_map(struct pd_symtab_builder *b, const char *raw,
    void *map, size_t len)
{
	b->raw = raw;
	b->map = map;
	b->maplen = len;
}

void
pd_symtab_builder_free(struct pd_symtab_builder *b)
{
	free(b->v);
	free(b->pool);
	if (b->map != NULL)
		munmap(b->map, b->maplen);
	memset(b, 0, sizeof(*b));
}

/* The name of builder symbol s. */
static const char *
bname(const struct pd_symtab_builder *b, const struct bsym *s)
{
	if (s->name & BSYM_MAPPED)
		return b->map + (s->name & ~BSYM_MAPPED);
	return b->pool + s->name;
}

/*
 * Merges v[0, h) and v[h, n), each sorted by start, keeping the order
 * of equal starts (the left run's first); tmp holds h symbols.
 */
static void
bsym_merge(struct bsym *v, size_t h, size_t n, struct bsym *tmp)
{
	size_t i = 0, j = h, k = 0;

	if (h == 0 || h == n || v[h - 1].start <= v[h].start)
		return;
	memcpy(tmp, v, h * sizeof(*v));
	while (i < h && j < n)
		v[k++] = tmp[i].start <= v[j].start ? tmp[i++] : v[j++];
	while (i < h)
		v[k++] = tmp[i++];
}

/*
 * The same, with the right run v[h, n) held in tmp: for a short right
 * run (the PLT entries).
 */
static void
bsym_merge_back(struct bsym *v, size_t h, size_t n, struct bsym *tmp)
{
	size_t i = h, j = n - h, k = n;

	if (h == 0 || h == n || v[h - 1].start <= v[h].start)
		return;
	memcpy(tmp, v + h, (n - h) * sizeof(*v));
	while (i > 0 && j > 0)
		v[--k] = v[i - 1].start > tmp[j - 1].start ? v[--i] :
		    tmp[--j];
	while (j > 0)
		v[--k] = tmp[--j];
}

/*
 * A stable sort by start: aliases stay in the file's order, which
 * perf's choice among equals keeps. (qsort with a comparison call per
 * step, on 40-byte elements it sorted through pointers, was a tenth of
 * loading a C++ program's symbols.) For short runs: bsym_radix for
 * long ones.
 */
static void
bsym_sort(struct bsym *v, size_t n, struct bsym *tmp)
{
	size_t i, j;
	struct bsym x;

	if (n <= 16) {
		for (i = 1; i < n; i++) {
			if (v[i - 1].start <= v[i].start)
				continue;
			x = v[i];
			for (j = i; j > 0 && v[j - 1].start > x.start; j--)
				v[j] = v[j - 1];
			v[j] = x;
		}
		return;
	}
	bsym_sort(v, n / 2, tmp);
	bsym_sort(v + n / 2, n - n / 2, tmp);
	bsym_merge(v, n / 2, n, tmp);
}

/*
 * A stable sort by start for many symbols: a pass of 8 bits for each
 * byte in which starts differ (3 or 4 for a program's symbols), where
 * the merge sort made 17 of its copies. tmp holds n symbols.
 */
static void
bsym_radix(struct bsym *v, size_t n, struct bsym *tmp)
{
	struct bsym *src = v, *dst = tmp, *t;
	size_t count[256], i, sum, c;
	uint64_t diff = 0;
	unsigned shift, k;

	for (i = 1; i < n; i++)
		diff |= v[i].start ^ v[0].start;
	for (shift = 0; shift < 64; shift += 8) {
		if ((diff >> shift & 0xff) == 0)
			continue;
		memset(count, 0, sizeof(count));
		for (i = 0; i < n; i++)
			count[src[i].start >> shift & 0xff]++;
		for (k = 0, sum = 0; k < 256; k++) {
			c = count[k];
			count[k] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			dst[count[src[i].start >> shift & 0xff]++] = src[i];
		t = src;
		src = dst;
		dst = t;
	}
	if (src != v)
		memcpy(v, src, n * sizeof(*v));
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
 * perf's choose_best_symbol before the names, as a rank: a sized
 * symbol over a size-0 one, then not weak over weak, then global over
 * local. Of aliases perf keeps the first of the highest rank and, among
 * those, the best name (better_name).
 */
static unsigned
rank(const struct bsym *s)
{
	return (s->end > s->start) << 2 | (s->bind != STB_WEAK) << 1 |
	    (s->bind == STB_GLOBAL);
}

/*
 * One symbol of each address: perf's symbols__fixup_duplicate. In a
 * mangled table perf compares the names it shows, demangled: aliases
 * that only those decide are all kept, marked (pd_symtab_find chooses).
 */
static size_t
dedup(struct pd_symtab_builder *b, size_t n)
{
	struct bsym *v = b->v;
	size_t i, e, k, best, g;
	unsigned r, top;

	for (i = 0, k = 0; i < n; i = e) {
		best = i;
		top = rank(&v[i]);
		for (e = i + 1; e < n && v[e].start == v[i].start; e++)
			if ((r = rank(&v[e])) > top) {
				top = r;
				best = e;
			} else if (r == top && !b->mangled &&
			    !better_name(bname(b, &v[best]), bname(b, &v[e])))
				best = e;
		if (!b->mangled || e - i == 1) {
			v[k++] = v[best];
			continue;
		}
		for (g = k; best < e; best++)
			if (rank(&v[best]) == top)
				v[k++] = v[best];
		if (k - g > 1)
			for (; g < k; g++)
				v[g].tie = SYMTAB_TIE;
	}
	return k;
}

/* Size-0 symbols reach the next one: perf's symbols__fixup_end. */
static void
fixup_end(struct pd_symtab_builder *b, size_t n, int kallsyms)
{
	struct bsym *p;
	uint64_t next = 0;
	int last = 1;
	size_t i;

	if (kallsyms) {
		for (i = 0; i + 1 < n; i++) {
			struct bsym *c = &b->v[i + 1];

			p = &b->v[i];
			if (p->end != p->start)
				continue;
			if (p->module != c->module)
				p->end = ((p->end + 4096) + 4095) / 4096 * 4096;
			else
				p->end = c->start;
		}
		p = &b->v[n - 1];
		if (p->end == p->start)
			p->end = (p->start + 4095) / 4096 * 4096 + 4096;
		return;
	}
	/* After dedup: an address's symbols are the aliases kept. */
	for (i = n; i-- > 0; ) {
		p = &b->v[i];
		if (p->end == p->start)
			p->end = !last ? next :
			    (p->start + 4095) / 4096 * 4096 + 4096;
		if (i == 0 || b->v[i - 1].start != p->start) {
			next = p->start;
			last = 0;
		}
	}
}

/*
 * Sorts, reduces aliases to the one perf keeps and gives size-0 symbols
 * the room up to the next one, in perf's order: an ELF file's aliases
 * go first (the shortest-prefixed global name wins), kallsyms' last (so
 * the last alias listed, the one that got the room, wins). Moves the
 * result into `st`, with a pool of the names kept only.
 */
int
pd_symtab_finish(struct pd_symtab_builder *b, struct symtab *st, int kallsyms)
{
	_Static_assert(sizeof(struct sym) <= sizeof(struct bsym),
	    "a table is made in the builder's array");
	struct bsym *tmp = NULL;
	struct sym *syms;
	size_t i, n, nreg, plen, len;
	int sorted;

	memset(st, 0, sizeof(*st));
	if (b->n == 0) {
		pd_symtab_builder_free(b);
		return 0;
	}
	nreg = b->n - b->nplt;
	/* kallsyms comes in address order: no sort to do then. */
	for (i = 1; i < nreg && b->v[i - 1].start <= b->v[i].start; i++)
		;
	sorted = i >= nreg;
	if ((!sorted || b->nplt > 0) &&
	    (tmp = malloc(b->n * sizeof(*tmp))) == NULL)
		goto fail;
	if (nreg > 0) {
		if (!sorted && nreg >= 256)
			bsym_radix(b->v, nreg, tmp);
		else if (!sorted)
			bsym_sort(b->v, nreg, tmp);
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
		bsym_sort(b->v + n, b->nplt, tmp);
		bsym_merge_back(b->v, n, n + b->nplt, tmp);
		n += b->nplt;
	}
	free(tmp);
	tmp = NULL;
	/*
	 * The pool keeps the names kept only: a C++ program's aliases
	 * and the builder's room to grow are a third of it.
	 */
	if (b->mangled && (st->named = calloc(n, 1)) == NULL)
		goto fail_st;
	/* Few dropped (kallsyms): not worth a copy of all the names. */
	if (b->plen == 0) {
		/* All in the map (realloc to 0 would free). */
	} else if (n >= b->n - b->n / 8) {
		if ((st->pool = realloc(b->pool, b->plen)) == NULL)
			goto fail_st;
		b->pool = NULL;
	} else {
		/* Each its own copy: names that shared a tail may add up. */
		for (i = 0, plen = 0; i < n; i++)
			if (!(b->v[i].name & BSYM_MAPPED))
				plen += strlen(b->pool + b->v[i].name) + 1;
		if ((st->pool = malloc(plen > 0 ? plen : 1)) == NULL)
			goto fail_st;
		for (i = 0, plen = 0; i < n; i++) {
			if (b->v[i].name & BSYM_MAPPED)
				continue;
			len = strlen(b->pool + b->v[i].name) + 1;
			memcpy(st->pool + plen, b->pool + b->v[i].name, len);
			b->v[i].name = (uint32_t)plen;
			plen += len;
		}
	}
	for (i = 0; i < n && b->map != NULL; i++)
		if (b->v[i].name & BSYM_MAPPED) {
			st->map = b->map;
			st->maplen = b->maplen;
			b->map = NULL;
		}
	st->mangled = b->mangled;
	/*
	 * The builder's array becomes the table, each entry read before
	 * its place is written: a second array beside it was the peak of
	 * a symbolizing view's memory (kallsyms: 3.6 MB).
	 */
	syms = (struct sym *)(void *)b->v;
	for (i = 0; i < n; i++) {
		struct bsym v = b->v[i];

		syms[i].start = v.start;
		syms[i].end = v.end;
		syms[i].name = v.name & BSYM_MAPPED ? (char *)st->map +
		    (v.name & ~BSYM_MAPPED) : st->pool + v.name;
		if (v.tie)
			st->named[i] = SYMTAB_TIE;
	}
	b->v = NULL;
	/* n > 0 here (b->n was): realloc never frees it as it would for 0. */
	if ((st->syms = realloc(syms, n * sizeof(*syms))) == NULL)
		st->syms = syms;
	st->n = n;
	pd_symtab_builder_free(b);
	return 0;
fail_st:
	pd_symtab_free(st);
fail:
	free(tmp);
	pd_symtab_builder_free(b);
	return -1;
}

/*
 * The aliases at syms[i]'s address left to their names (SYMTAB_TIE),
 * reduced to perf's choice: the first of the best demangled name
 * (better_name), which goes to syms[i], the one lookups find, with the
 * name it shows.
 */
static void
choose(struct symtab *st, size_t i)
{
	size_t g = i, k, best = i;
	char *dm, *bdm = NULL;
	const char *bn = NULL, *kn;

	while (g > 0 && (st->named[g - 1] & SYMTAB_TIE) &&
	    st->syms[g - 1].start == st->syms[i].start)
		g--;
	for (k = g; k <= i; k++) {
		st->named[k] &= ~SYMTAB_TIE;
		dm = pd_symtab_demangle(st->syms[k].name);
		kn = dm != NULL ? dm : st->syms[k].name;
		if (bn != NULL && better_name(bn, kn)) {
			free(dm);
			continue;
		}
		free(bdm);
		bdm = dm;
		bn = kn;
		best = k;
	}
	st->syms[i] = st->syms[best];
	(void)set_shown(st, i, bdm);
}

const struct sym *
pd_symtab_find(struct symtab *st, uint64_t addr)
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
	if (lo == 0)
		return NULL;
	if (st->named != NULL && (st->named[lo - 1] & SYMTAB_TIE))
		choose(st, lo - 1);
	if (addr >= st->syms[lo - 1].end)
		return NULL;
	return &st->syms[lo - 1];
}
