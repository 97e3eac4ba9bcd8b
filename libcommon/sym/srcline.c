/* SPDX-License-Identifier: MIT */
/*
 * Source lines and inlined functions from DWARF, as perf's srcline and
 * inline frames give them (addr2line -f -i): the scopes holding an
 * address (dwarf_getscopes_die), innermost first, each inlined subroutine
 * a frame whose line is where the next inner one was inlined
 * (DW_AT_call_file, DW_AT_call_line), up to the function itself; the
 * address's own line from the line table (dwfl_module_getsrc).
 *
 * Only a view that shows them asks; each address is looked up once and
 * kept in a cache of PD_SRC_MAX addresses, emptied when full, so memory
 * is bounded whatever the stream.
 *
 * dwarf_getscopes walks its CU's whole DIE tree for every address, and
 * a big C++ CU made that 94% of pdstat --pprof. So each CU is walked
 * once, on its first address, into an index of its functions' code
 * ranges (cuidx); an address then costs a binary search and a walk down
 * its own function's scopes. Addresses the index misses (a function
 * nested in a way the walk does not follow) take the old way.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <stdlib.h>
#include <string.h>

#include "libcommon/sym/symint.h"
#include "libcommon/sym/symtab.h"

#define PD_SRC_MAX	(1U << 16)	/* addresses cached */
#define PD_SRC_DEPTH	64		/* frames of one address at most */

struct srcent {
	const void	*file;		/* NULL: an empty slot */
	uint64_t	 va;
	uint32_t	 off, n;	/* frames[off .. off + n) */
};

/* A code range of a function of a CU. */
struct subr {
	uint64_t	 lo, hi;
	Dwarf_Die	 die;
};

/* A CU's functions, sorted by lo; v NULL and n 0 when it has none. */
struct cuidx {
	const void	*key;		/* NULL: an empty slot */
	struct subr	*v;
	size_t		 n;
};

struct srcache {
	struct srcent		*ents;	/* PD_SRC_MAX * 2, open addressing */
	size_t			 nents;
	struct pd_srcframe	*frames;
	size_t			 nframes, cap;
	uint64_t		 seed;
	struct cuidx		*cus;	/* open addressing, ncus < cucap/2 */
	size_t			 ncus, cucap;
};

void
pd_srcache_free(struct pd_syms *sy)
{
	size_t i;

	if (sy->src == NULL)
		return;
	for (i = 0; i < sy->src->cucap; i++)
		free(sy->src->cus[i].v);
	free(sy->src->cus);
	free(sy->src->ents);
	free(sy->src->frames);
	free(sy->src);
	sy->src = NULL;
}

/* The name a scope's DIE (or its abstract origin) gives its function. */
static const char *
die_func(struct pd_syms *sy, Dwarf_Die *die)
{
	Dwarf_Attribute a;
	const char *s;
	char *dm;

	if ((dwarf_attr_integrate(die, DW_AT_linkage_name, &a) != NULL ||
	    dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a) != NULL) &&
	    (s = dwarf_formstring(&a)) != NULL) {
		if ((dm = pd_symtab_demangle(s)) != NULL) {
			s = pd_syms_intern(sy, dm, strlen(dm));
			free(dm);
			return s;
		}
		return pd_syms_intern(sy, s, strlen(s));
	}
	if (dwarf_attr_integrate(die, DW_AT_name, &a) != NULL &&
	    (s = dwarf_formstring(&a)) != NULL)
		return pd_syms_intern(sy, s, strlen(s));
	return NULL;
}

/* The file and line an inlined subroutine was called from. */
static void
call_site(struct pd_syms *sy, Dwarf_Die *cu, Dwarf_Die *die,
    struct pd_srcframe *f)
{
	Dwarf_Attribute a;
	Dwarf_Files *files;
	Dwarf_Word w;
	size_t nfiles;
	const char *s;

	f->file = NULL;
	f->line = 0;
	if (dwarf_attr(die, DW_AT_call_line, &a) != NULL &&
	    dwarf_formudata(&a, &w) == 0)
		f->line = (uint32_t)w;
	if (dwarf_attr(die, DW_AT_call_file, &a) != NULL &&
	    dwarf_formudata(&a, &w) == 0 &&
	    dwarf_getsrcfiles(cu, &files, &nfiles) == 0 && w < nfiles &&
	    (s = dwarf_filesrc(files, w, NULL, NULL)) != NULL)
		f->file = pd_syms_intern(sy, s, strlen(s));
	if (f->file == NULL)
		f->line = 0;
}

static int
subr_cmp(const void *a, const void *b)
{
	const struct subr *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/*
 * The functions with code among parent's children, and in the
 * namespaces and classes there (C++ puts definitions in them), into
 * *v. Not into functions: what is nested there is found from the
 * function (scope_chain). 0, or -1 when out of memory.
 */
static int
collect(Dwarf_Die *parent, struct subr **v, size_t *n, size_t *cap,
    int depth)
{
	Dwarf_Addr base, lo, hi;
	Dwarf_Die c;
	ptrdiff_t off;

	if (depth > 32 || dwarf_child(parent, &c) != 0)
		return 0;
	do {
		switch (dwarf_tag(&c)) {
		case DW_TAG_subprogram:
			for (off = 0; (off = dwarf_ranges(&c, off, &base, &lo,
			    &hi)) > 0;) {
				if (lo >= hi)
					continue;
				if (*n == *cap) {
					size_t ncap = *cap ? *cap * 2 : 64;
					struct subr *nv;

					if ((nv = realloc(*v,
					    ncap * sizeof(*nv))) == NULL)
						return -1;
					*v = nv;
					*cap = ncap;
				}
				(*v)[*n].lo = lo;
				(*v)[*n].hi = hi;
				(*v)[(*n)++].die = c;
			}
			break;
		case DW_TAG_namespace:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
		case DW_TAG_module:
			if (collect(&c, v, n, cap, depth + 1) < 0)
				return -1;
			break;
		}
	} while (dwarf_siblingof(&c, &c) == 0);
	return 0;
}

static uint64_t
cu_hash(const void *key)
{
	uint64_t h = (uintptr_t)key * 0x9e3779b97f4a7c15ULL;

	return h ^ (h >> 29);
}

/*
 * The index of cu's functions, made on its first use; NULL when out of
 * memory. A CU is known by where its DIE is in memory: unlike its
 * offset, that is unique across a module's split units.
 */
static struct cuidx *
cu_index(struct srcache *c, Dwarf_Die *cu)
{
	struct cuidx *x;
	size_t i, mask, cap = 0;

	if (2 * (c->ncus + 1) > c->cucap) {
		size_t ncap = c->cucap ? c->cucap * 2 : 64;
		struct cuidx *nc;

		if ((nc = calloc(ncap, sizeof(*nc))) == NULL)
			return NULL;
		for (i = 0; i < c->cucap; i++) {
			size_t j;

			if (c->cus[i].key == NULL)
				continue;
			for (j = cu_hash(c->cus[i].key) & (ncap - 1);
			    nc[j].key != NULL; j = (j + 1) & (ncap - 1))
				;
			nc[j] = c->cus[i];
		}
		free(c->cus);
		c->cus = nc;
		c->cucap = ncap;
	}
	mask = c->cucap - 1;
	for (i = cu_hash(cu->addr) & mask; c->cus[i].key != NULL;
	    i = (i + 1) & mask)
		if (c->cus[i].key == cu->addr)
			return &c->cus[i];
	x = &c->cus[i];
	if (collect(cu, &x->v, &x->n, &cap, 0) < 0) {
		free(x->v);
		x->v = NULL;
		return NULL;
	}
	if (x->n > 1)
		qsort(x->v, x->n, sizeof(*x->v), subr_cmp);
	x->key = cu->addr;
	c->ncus++;
	return x;
}

/* The function of x holding pc, or NULL. */
static Dwarf_Die *
cu_function(struct cuidx *x, uint64_t pc)
{
	size_t lo = 0, hi = x->n, k;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (x->v[mid].lo <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Ranges do not overlap but for a nested function's: look back. */
	for (k = lo; k > 0 && lo - k < 8; k--)
		if (pc < x->v[k - 1].hi)
			return &x->v[k - 1].die;
	return NULL;
}

static int
is_scope(int tag)
{
	return tag == DW_TAG_lexical_block ||
	    tag == DW_TAG_inlined_subroutine || tag == DW_TAG_subprogram ||
	    tag == DW_TAG_try_block || tag == DW_TAG_catch_block;
}

/*
 * The functions holding pc from fn down, outermost first, into out (at
 * most max): fn, then each inlined subroutine on the way down through
 * the scopes holding pc; a nested function found there starts again.
 */
static size_t
scope_chain(Dwarf_Die *fn, uint64_t pc, Dwarf_Die *out, size_t max)
{
	Dwarf_Die cur = *fn, c;
	size_t n = 0, depth;
	int tag;

	out[n++] = cur;
	for (depth = 0; depth < 256 && dwarf_child(&cur, &c) == 0; depth++) {
		for (;;) {
			if (is_scope(tag = dwarf_tag(&c)) &&
			    dwarf_haspc(&c, pc) == 1)
				break;
			if (dwarf_siblingof(&c, &c) != 0)
				return n;
		}
		cur = c;
		if (tag == DW_TAG_subprogram)
			n = 0;
		if (tag != DW_TAG_lexical_block && tag != DW_TAG_try_block &&
		    tag != DW_TAG_catch_block && n < max)
			out[n++] = cur;
	}
	return n;
}

/*
 * Frames from the chain of scopes (outermost first, ns of them) into f
 * (at most max), innermost first; at is the address's own line.
 */
static size_t
chain_frames(struct pd_syms *sy, Dwarf_Die *cu, Dwarf_Die *chain,
    size_t ns, struct pd_srcframe at, struct pd_srcframe *f, size_t max)
{
	size_t n = 0;

	while (ns > 0 && n < max) {
		Dwarf_Die *d = &chain[--ns];

		f[n] = at;
		f[n++].name = die_func(sy, d);
		if (ns == 0)
			break;
		call_site(sy, cu, d, &at);
	}
	return n;
}

/* Looks va up in mod: frames into f (at most max), their count. */
static size_t
lookup(struct pd_syms *sy, Dwfl_Module *mod, uint64_t va,
    struct pd_srcframe *f, size_t max)
{
	Dwarf_Die *cu, *scopes = NULL, in, *fn, chain[PD_SRC_DEPTH];
	Dwarf_Addr bias;
	Dwfl_Line *l;
	struct pd_srcframe at = { NULL, NULL, 0 };
	struct cuidx *x;
	const char *s;
	int i, ns, line;
	size_t n = 0;

	if ((cu = dwfl_module_addrdie(mod, va, &bias)) == NULL)
		return 0;
	if ((l = dwfl_module_getsrc(mod, va)) != NULL &&
	    (s = dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL)) != NULL &&
	    line > 0) {
		at.file = pd_syms_intern(sy, s, strlen(s));
		at.line = at.file != NULL ? (uint32_t)line : 0;
	}
	if ((x = cu_index(sy->src, cu)) != NULL) {
		if ((fn = cu_function(x, va - bias)) != NULL)
			return chain_frames(sy, cu, chain, scope_chain(fn,
			    va - bias, chain, PD_SRC_DEPTH), at, f, max);
		/*
		 * Outside the ranges a CU gives itself no scope of it holds
		 * va (node's aranges say otherwise of many addresses, and
		 * the walk below was 62% of pdstat --pprof on them).
		 */
		if ((dwarf_hasattr(cu, DW_AT_low_pc) ||
		    dwarf_hasattr(cu, DW_AT_ranges)) &&
		    dwarf_haspc(cu, va - bias) != 1)
			return 0;
	}
	/*
	 * From the innermost scope out through the DIE tree: the scopes
	 * dwarf_getscopes gives past an inlined subroutine are those of
	 * its abstract definition, not of the function it is in (as
	 * eu-addr2line -i does).
	 */
	if ((ns = dwarf_getscopes(cu, va - bias, &scopes)) <= 0 ||
	    dwarf_offdie(dwfl_module_getdwarf(mod, &bias),
	    dwarf_dieoffset(&scopes[0]), &in) == NULL) {
		free(scopes);
		return 0;
	}
	free(scopes);
	scopes = NULL;
	if ((ns = dwarf_getscopes_die(&in, &scopes)) <= 0) {
		free(scopes);
		return 0;
	}
	for (i = 0; i < ns && n < max; i++) {
		int tag = dwarf_tag(&scopes[i]);

		if (tag != DW_TAG_inlined_subroutine &&
		    tag != DW_TAG_subprogram)
			continue;
		f[n] = at;
		f[n++].name = die_func(sy, &scopes[i]);
		if (tag == DW_TAG_subprogram)
			break;
		call_site(sy, cu, &scopes[i], &at);
	}
	free(scopes);
	return n;
}

static uint64_t
ent_hash(const struct srcache *c, const void *file, uint64_t va)
{
	uint64_t h = (va ^ (uintptr_t)file ^ c->seed) * 0x9e3779b97f4a7c15ULL;

	return h ^ (h >> 29);
}

/* An empty cache, or the one there emptied: bounded, not evicting. */
static struct srcache *
cache_get(struct pd_syms *sy)
{
	struct srcache *c = sy->src;

	if (c == NULL) {
		if ((c = calloc(1, sizeof(*c))) == NULL)
			return NULL;
		if ((c->ents = calloc(PD_SRC_MAX * 2,
		    sizeof(*c->ents))) == NULL) {
			free(c);
			return NULL;
		}
		c->seed = sy->seed;
		sy->src = c;
	} else if (c->nents >= PD_SRC_MAX) {
		memset(c->ents, 0, PD_SRC_MAX * 2 * sizeof(*c->ents));
		c->nents = c->nframes = 0;
	}
	return c;
}

size_t
pd_syms_inline(struct pd_syms *sy, const struct pd_symres *r,
    const struct pd_srcframe **out)
{
	static struct pd_srcframe none;
	struct pd_srcframe f[PD_SRC_DEPTH];
	struct srcache *c;
	struct srcent *e;
	Dwfl_Module *mod;
	size_t i, n, mask = PD_SRC_MAX * 2 - 1;

	*out = &none;
	if (r->file == NULL || (c = cache_get(sy)) == NULL)
		return 0;
	for (i = ent_hash(c, r->file, r->va) & mask; c->ents[i].file != NULL;
	    i = (i + 1) & mask) {
		e = &c->ents[i];
		if (e->file == r->file && e->va == r->va) {
			if (e->n > 0)
				*out = c->frames + e->off;
			return e->n;
		}
	}
	/* The dso is the symbolizer's: r->file is one of its own. */
	mod = pd_dso_dwarf(sy, (struct dso *)(uintptr_t)r->file);
	n = mod != NULL ? lookup(sy, mod, r->va, f, PD_SRC_DEPTH) : 0;
	if (c->nframes + n > c->cap) {
		size_t ncap = c->cap ? c->cap * 2 : 1024;
		struct pd_srcframe *nf;

		while (ncap < c->nframes + n)
			ncap *= 2;
		if ((nf = realloc(c->frames, ncap * sizeof(*nf))) == NULL)
			return 0;
		c->frames = nf;
		c->cap = ncap;
	}
	if (n > 0)
		memcpy(c->frames + c->nframes, f, n * sizeof(*f));
	e = &c->ents[i];
	e->file = r->file;
	e->va = r->va;
	e->off = (uint32_t)c->nframes;
	e->n = (uint32_t)n;
	c->nframes += n;
	c->nents++;
	if (n > 0)
		*out = c->frames + e->off;
	return n;
}

const char *
pd_srcframe_base(const struct pd_srcframe *f)
{
	const char *p;

	if (f->file == NULL)
		return "??";
	return (p = strrchr(f->file, '/')) != NULL ? p + 1 : f->file;
}
