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

struct srcache {
	struct srcent		*ents;	/* PD_SRC_MAX * 2, open addressing */
	size_t			 nents;
	struct pd_srcframe	*frames;
	size_t			 nframes, cap;
	uint64_t		 seed;
};

void
pd_srcache_free(struct pd_syms *sy)
{
	if (sy->src == NULL)
		return;
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

/* Looks va up in mod: frames into f (at most max), their count. */
static size_t
lookup(struct pd_syms *sy, Dwfl_Module *mod, uint64_t va,
    struct pd_srcframe *f, size_t max)
{
	Dwarf_Die *cu, *scopes = NULL, in;
	Dwarf_Addr bias;
	Dwfl_Line *l;
	struct pd_srcframe at = { NULL, NULL, 0 };
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
