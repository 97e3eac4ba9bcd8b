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
 * is bounded whatever the stream. Its table grows with the addresses it
 * holds: a profile names a few thousand, and a table of the most, whose
 * every page the hash touches, was 3 MB of a view's peak.
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
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "libcommon/sym/symint.h"
#include "libcommon/sym/symtab.h"

#define PD_SRC_MAX	(1U << 16)	/* addresses cached */
#define PD_SRC_SLOTS0	1024		/* the table's first size */
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
	struct pd_syms		*sy;	/* whose strings names are; NULL: the
					   cache's own (pool, a worker's) */
	struct srcent		*ents;	/* open addressing, nents < nslots/2 */
	size_t			 nents, nslots;	/* nslots: a power of two, up
						   to PD_SRC_MAX * 2 */
	struct pd_srcframe	*frames;
	size_t			 nframes, cap;
	uint64_t		 seed;
	struct cuidx		*cus;	/* open addressing, ncus < cucap/2 */
	size_t			 ncus, cucap;
	/* Own strings: a set (open addressing) of them in blocks. */
	const char		**set;
	size_t			 nset, setcap;
	char			**blks;
	size_t			 nblks, bused;	/* of the last block */
	Dwfl_Module		**mods;	/* whose DWARF is open (image_drop) */
	size_t			 nmods, modcap;
};

#define POOL_BLK	(64 * 1024)

static void
cache_free(struct srcache *c)
{
	size_t i;

	for (i = 0; i < c->cucap; i++)
		free(c->cus[i].v);
	for (i = 0; i < c->nblks; i++)
		free(c->blks[i]);
	free(c->blks);
	free(c->set);
	free(c->cus);
	free(c->ents);
	free(c->frames);
	free(c->mods);
	free(c);
}

static uint64_t
str_hash(const char *s, size_t len)
{
	uint64_t h = 14695981039346656037ULL;

	while (len-- > 0)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

/* s in the cache's own pool, once; NULL when out of memory. */
static const char *
pool_intern(struct srcache *c, const char *s, size_t len)
{
	size_t i, mask;
	char *p;

	if (2 * (c->nset + 1) > c->setcap) {
		size_t ncap = c->setcap ? c->setcap * 2 : 1024;
		const char **ns = calloc(ncap, sizeof(*ns));

		if (ns == NULL)
			return NULL;
		for (i = 0; i < c->setcap; i++) {
			size_t j;

			if (c->set[i] == NULL)
				continue;
			for (j = str_hash(c->set[i], strlen(c->set[i])) &
			    (ncap - 1); ns[j] != NULL; j = (j + 1) & (ncap - 1))
				;
			ns[j] = c->set[i];
		}
		free(c->set);
		c->set = ns;
		c->setcap = ncap;
	}
	mask = c->setcap - 1;
	for (i = str_hash(s, len) & mask; c->set[i] != NULL;
	    i = (i + 1) & mask)
		if (strncmp(c->set[i], s, len) == 0 && c->set[i][len] == '\0')
			return c->set[i];
	if (c->nblks == 0 || c->bused + len + 1 > POOL_BLK) {
		size_t sz = len + 1 > POOL_BLK ? len + 1 : POOL_BLK;
		char **nb = realloc(c->blks, (c->nblks + 1) * sizeof(*nb));

		if (nb == NULL)
			return NULL;
		c->blks = nb;
		if ((c->blks[c->nblks] = malloc(sz)) == NULL)
			return NULL;
		c->nblks++;
		c->bused = 0;
	}
	p = c->blks[c->nblks - 1] + c->bused;
	memcpy(p, s, len);
	p[len] = '\0';
	/* A string longer than a block fills its own. */
	c->bused += len + 1 > POOL_BLK ? POOL_BLK : len + 1;
	c->nset++;
	return c->set[i] = p;
}

static const char *
intern(struct srcache *c, const char *s, size_t len)
{
	return c->sy != NULL ? pd_syms_intern(c->sy, s, len) :
	    pool_intern(c, s, len);
}

void
pd_srcache_free(struct pd_syms *sy)
{
	if (sy->src == NULL)
		return;
	cache_free(sy->src);
	sy->src = NULL;
}

/* The name a scope's DIE (or its abstract origin) gives its function. */
static const char *
die_func(struct srcache *sc, Dwarf_Die *die)
{
	Dwarf_Attribute a;
	const char *s;
	char *dm;

	if ((dwarf_attr_integrate(die, DW_AT_linkage_name, &a) != NULL ||
	    dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a) != NULL) &&
	    (s = dwarf_formstring(&a)) != NULL) {
		if ((dm = pd_symtab_demangle(s)) != NULL) {
			s = intern(sc, dm, strlen(dm));
			free(dm);
			return s;
		}
		return intern(sc, s, strlen(s));
	}
	if (dwarf_attr_integrate(die, DW_AT_name, &a) != NULL &&
	    (s = dwarf_formstring(&a)) != NULL)
		return intern(sc, s, strlen(s));
	return NULL;
}

/* The file and line an inlined subroutine was called from. */
static void
call_site(struct srcache *sc, Dwarf_Die *cu, Dwarf_Die *die,
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
		f->file = intern(sc, s, strlen(s));
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
chain_frames(struct srcache *sc, Dwarf_Die *cu, Dwarf_Die *chain,
    size_t ns, struct pd_srcframe at, struct pd_srcframe *f, size_t max)
{
	size_t n = 0;

	while (ns > 0 && n < max) {
		Dwarf_Die *d = &chain[--ns];

		f[n] = at;
		f[n++].name = die_func(sc, d);
		if (ns == 0)
			break;
		call_site(sc, cu, d, &at);
	}
	return n;
}

/* 1 the first time mod is asked of sc (0 after, and out of memory). */
static int
mod_first(struct srcache *sc, Dwfl_Module *mod)
{
	Dwfl_Module **v;
	size_t i;

	for (i = sc->nmods; i-- > 0;)
		if (sc->mods[i] == mod)
			return 0;
	if (sc->nmods == sc->modcap) {
		size_t cap = sc->modcap ? sc->modcap * 2 : 8;

		if ((v = realloc(sc->mods, cap * sizeof(*v))) == NULL)
			return 0;
		sc->mods = v;
		sc->modcap = cap;
	}
	sc->mods[sc->nmods++] = mod;
	return 1;
}

/*
 * libdw opens DWARF by decompressing a file's compressed sections into
 * memory of its own, reading the file's mapping through to do so: 3.7
 * MB of libc6-dbg's 4.1 stayed resident beside the 10 MB they became,
 * though only the few uncompressed ones (.debug_str) are read again.
 * So once the DWARF is open, the pages of the image that are the
 * file's own are dropped, and what is read later faults back in from
 * the page cache. The kernel says which they are (pagemap: present,
 * file-backed); a page libelf wrote (it updates section headers in
 * place) is a private copy, and memory libelf read the file into is
 * anonymous: both stay. (libdwfl opens its files ELF_C_READ_MMAP_PRIVATE,
 * so elf_rawfile reads nothing: it gives the image libelf has.)
 */
#define PM_PRESENT	(1ULL << 63)
#define PM_FILE		(1ULL << 61)

static void
image_drop(Dwfl_Module *mod)
{
	uint64_t pm[512];
	uintptr_t lo, hi, a, run;
	size_t len, pg = (size_t)sysconf(_SC_PAGESIZE), i, n;
	Dwarf_Addr bias;
	Dwarf *dw;
	char *raw;
	Elf *elf;
	int fd;

	if ((dw = dwfl_module_getdwarf(mod, &bias)) == NULL ||
	    (elf = dwarf_getelf(dw)) == NULL ||
	    (raw = elf_rawfile(elf, &len)) == NULL ||
	    (fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC)) < 0)
		return;
	lo = ((uintptr_t)raw + pg - 1) / pg * pg;
	hi = ((uintptr_t)raw + len) / pg * pg;
	for (a = run = lo; a < hi;) {
		n = (hi - a) / pg < 512 ? (hi - a) / pg : 512;
		if (pread(fd, pm, n * sizeof(*pm), (off_t)(a / pg *
		    sizeof(*pm))) != (ssize_t)(n * sizeof(*pm)))
			break;
		for (i = 0; i < n; i++, a += pg)
			if ((pm[i] & (PM_PRESENT | PM_FILE)) != (PM_PRESENT |
			    PM_FILE)) {
				if (a > run)
					madvise((void *)run, a - run,
					    MADV_DONTNEED);
				run = a + pg;
			}
	}
	if (a > run)
		madvise((void *)run, a - run, MADV_DONTNEED);
	close(fd);
}

/* Looks va up in mod: frames into f (at most max), their count. */
static size_t
lookup(struct srcache *sc, Dwfl_Module *mod, uint64_t va,
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
	if (mod_first(sc, mod))
		image_drop(mod);
	if ((l = dwfl_module_getsrc(mod, va)) != NULL &&
	    (s = dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL)) != NULL &&
	    line > 0) {
		at.file = intern(sc, s, strlen(s));
		at.line = at.file != NULL ? (uint32_t)line : 0;
	}
	if ((x = cu_index(sc, cu)) != NULL) {
		if ((fn = cu_function(x, va - bias)) != NULL)
			return chain_frames(sc, cu, chain, scope_chain(fn,
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
		f[n++].name = die_func(sc, &scopes[i]);
		if (tag == DW_TAG_subprogram)
			break;
		call_site(sc, cu, &scopes[i], &at);
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

/* A new cache (sy: names are its strings; NULL: the cache's own). */
static struct srcache *
cache_new(struct pd_syms *sy, uint64_t seed)
{
	struct srcache *c;

	if ((c = calloc(1, sizeof(*c))) == NULL)
		return NULL;
	if ((c->ents = calloc(PD_SRC_SLOTS0, sizeof(*c->ents))) == NULL) {
		free(c);
		return NULL;
	}
	c->nslots = PD_SRC_SLOTS0;
	c->sy = sy;
	c->seed = seed;
	return c;
}

/* The slot of (file, va) in c's table: its entry, or the empty slot. */
static struct srcent *
ent_slot(const struct srcache *c, const void *file, uint64_t va)
{
	size_t i, mask = c->nslots - 1;

	for (i = ent_hash(c, file, va) & mask; c->ents[i].file != NULL;
	    i = (i + 1) & mask)
		if (c->ents[i].file == file && c->ents[i].va == va)
			break;
	return &c->ents[i];
}

/* Twice the slots, the entries rehashed. 0, or -1 out of memory. */
static int
ents_grow(struct srcache *c)
{
	struct srcent *old = c->ents, *e;
	size_t i, n = c->nslots;

	if ((c->ents = calloc(n * 2, sizeof(*c->ents))) == NULL) {
		c->ents = old;
		return -1;
	}
	c->nslots = n * 2;
	for (i = 0; i < n; i++)
		if (old[i].file != NULL) {
			e = ent_slot(c, old[i].file, old[i].va);
			*e = old[i];
		}
	free(old);
	return 0;
}

/*
 * The frames of (file, va), looked up in mod (NULL: none) when not
 * cached; *out valid until the next call. A full cache is emptied:
 * bounded, not evicting.
 */
static size_t
cached(struct srcache *c, const void *file, Dwfl_Module *mod, uint64_t va,
    const struct pd_srcframe **out)
{
	static struct pd_srcframe none;
	struct pd_srcframe f[PD_SRC_DEPTH];
	struct srcent *e;
	size_t n;

	*out = &none;
	if (c->nents >= PD_SRC_MAX) {
		memset(c->ents, 0, c->nslots * sizeof(*c->ents));
		c->nents = c->nframes = 0;
	}
	e = ent_slot(c, file, va);
	if (e->file != NULL) {
		if (e->n > 0)
			*out = c->frames + e->off;
		return e->n;
	}
	/* Half full: twice the slots, or, where that fails, fuller. */
	if ((c->nents + 1) * 2 > c->nslots && c->nslots < PD_SRC_MAX * 2) {
		if (ents_grow(c) == 0)
			e = ent_slot(c, file, va);
		else if (c->nents + 1 >= c->nslots)
			return 0;
	}
	n = mod != NULL ? lookup(c, mod, va, f, PD_SRC_DEPTH) : 0;
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
	e->file = file;
	e->va = va;
	e->off = (uint32_t)c->nframes;
	e->n = (uint32_t)n;
	c->nframes += n;
	c->nents++;
	if (n > 0)
		*out = c->frames + e->off;
	return n;
}

size_t
pd_syms_inline(struct pd_syms *sy, const struct pd_symres *r,
    const struct pd_srcframe **out)
{
	static struct pd_srcframe none;
	struct srcache *c = sy->src;
	const struct srcent *e;

	*out = &none;
	if (r->file == NULL)
		return 0;
	if (c == NULL && (c = sy->src = cache_new(sy, sy->seed)) == NULL)
		return 0;
	/* A cached address asks nothing of its file. */
	if ((e = ent_slot(c, r->file, r->va))->file != NULL) {
		if (e->n > 0)
			*out = c->frames + e->off;
		return e->n;
	}
	/* The dso is the symbolizer's: r->file is one of its own. */
	return cached(c, r->file, pd_dso_dwarf(sy,
	    (struct dso *)(uintptr_t)r->file), r->va, out);
}

/* ----- the queue: lookups on a thread of their own ----- */

/*
 * Jobs in a ring: [tail, done) looked up, [done, head) to do. The
 * caller writes jobs at head and hands them over SRCQ_BATCH at a time
 * (pub, under the lock: a wake-up for each job was more system time
 * than the lookups saved); the worker writes a job in [done, pub) and
 * then moves done, which the caller reads without the lock.
 */
#define SRCQ_JOBS	4096
#define SRCQ_BATCH	64
#define SRCQ_INLINE	6		/* frames kept in the job itself */

struct srcjob {
	Dwfl_Module		*mod;
	const void		*file;
	uint64_t		 va, tag;
	size_t			 n;
	struct pd_srcframe	 f[SRCQ_INLINE];
	struct pd_srcframe	*more;	/* n > SRCQ_INLINE: malloc'd */
};

struct pd_srcq {
	struct srcache		*c;	/* the worker's (or the caller's) */
	struct srcjob		*jobs;
	uint64_t		 head, tail;	/* the caller's */
	uint64_t		 pub;	/* handed over: the lock's */
	uint64_t		 done;	/* the worker's; atomic */
	pthread_mutex_t		 mu;
	pthread_cond_t		 cv;
	int			 threaded, stop, idle, waiting;
	pthread_t		 th;
	struct pd_srcframe	 out[PD_SRC_DEPTH];	/* the popped */
};

/* Looks job j up: out of memory for its frames, it has none. */
static void
srcq_run(struct pd_srcq *q, struct srcjob *j)
{
	const struct pd_srcframe *f;
	size_t n = cached(q->c, j->file, j->mod, j->va, &f);

	j->more = NULL;
	if (n > SRCQ_INLINE &&
	    (j->more = malloc(n * sizeof(*j->more))) == NULL)
		n = 0;
	if (n > 0)
		memcpy(j->more != NULL ? j->more : j->f, f, n * sizeof(*f));
	j->n = n;
}

static void *
srcq_worker(void *arg)
{
	struct pd_srcq *q = arg;
	uint64_t i, end;

	pthread_mutex_lock(&q->mu);
	for (;;) {
		i = q->done;
		while (q->pub == i && !q->stop) {
			q->idle = 1;
			pthread_cond_wait(&q->cv, &q->mu);
		}
		q->idle = 0;
		if ((end = q->pub) == i)
			break;
		pthread_mutex_unlock(&q->mu);
		for (; i < end; i++) {
			srcq_run(q, &q->jobs[i % SRCQ_JOBS]);
			__atomic_store_n(&q->done, i + 1, __ATOMIC_RELEASE);
		}
		pthread_mutex_lock(&q->mu);
		if (q->waiting)
			pthread_cond_broadcast(&q->cv);
	}
	pthread_mutex_unlock(&q->mu);
	return NULL;
}

/* Hands the jobs pushed over (the lock held). */
static void
srcq_publish(struct pd_srcq *q)
{
	if (q->pub != q->head) {
		q->pub = q->head;
		if (q->idle)
			pthread_cond_broadcast(&q->cv);
	}
}

struct pd_srcq *
pd_srcq_new(struct pd_syms *sy)
{
	struct pd_srcq *q = calloc(1, sizeof(*q));

	if (q == NULL)
		return NULL;
	if ((q->jobs = calloc(SRCQ_JOBS, sizeof(*q->jobs))) == NULL ||
	    (q->c = cache_new(NULL, sy->seed)) == NULL) {
		free(q->jobs);
		free(q);
		return NULL;
	}
	/*
	 * A thread only where looking up asks nothing of the pd_syms the
	 * caller goes on using, nor of the environment: with debuginfod
	 * servers named, finding debug info keeps its budget and notes
	 * there, and unsets DEBUGINFOD_URLS for a while once they are not
	 * asked any more.
	 */
	if (!pd_dso_dfd_urls() && pthread_mutex_init(&q->mu, NULL) == 0) {
		if (pthread_cond_init(&q->cv, NULL) != 0)
			pthread_mutex_destroy(&q->mu);
		else if (pthread_create(&q->th, NULL, srcq_worker, q) != 0) {
			pthread_cond_destroy(&q->cv);
			pthread_mutex_destroy(&q->mu);
		} else
			q->threaded = 1;
	}
	return q;
}

int
pd_srcq_room(const struct pd_srcq *q)
{
	return q->head - q->tail < SRCQ_JOBS;
}

int
pd_srcq_push(struct pd_srcq *q, struct pd_syms *sy,
    const struct pd_symres *r, uint64_t tag)
{
	struct srcjob *j;
	Dwfl_Module *mod;

	if (r->file == NULL || (mod = pd_dso_dwarf(sy,
	    (struct dso *)(uintptr_t)r->file)) == NULL)
		return 0;
	j = &q->jobs[q->head % SRCQ_JOBS];
	j->mod = mod;
	j->file = r->file;
	j->va = r->va;
	j->tag = tag;
	q->head++;
	if (!q->threaded) {
		srcq_run(q, j);
		q->pub = q->done = q->head;
	} else if (q->head - q->pub >= SRCQ_BATCH) {
		pthread_mutex_lock(&q->mu);
		srcq_publish(q);
		pthread_mutex_unlock(&q->mu);
	}
	return 1;
}

int
pd_srcq_pop(struct pd_srcq *q, int wait, uint64_t *tag,
    const struct pd_srcframe **out, size_t *n)
{
	struct srcjob *j;

	if (q->tail == q->head)
		return 0;
	if (q->threaded &&
	    __atomic_load_n(&q->done, __ATOMIC_ACQUIRE) == q->tail) {
		if (!wait)
			return 0;
		pthread_mutex_lock(&q->mu);
		srcq_publish(q);
		while (__atomic_load_n(&q->done, __ATOMIC_ACQUIRE) ==
		    q->tail) {
			q->waiting = 1;
			pthread_cond_wait(&q->cv, &q->mu);
		}
		q->waiting = 0;
		pthread_mutex_unlock(&q->mu);
	}
	j = &q->jobs[q->tail++ % SRCQ_JOBS];
	*tag = j->tag;
	*n = j->n;
	if (j->n > 0)
		memcpy(q->out, j->more != NULL ? j->more : j->f,
		    j->n * sizeof(*q->out));
	free(j->more);
	*out = q->out;
	return 1;
}

void
pd_srcq_free(struct pd_srcq *q)
{
	if (q == NULL)
		return;
	if (q->threaded) {
		pthread_mutex_lock(&q->mu);
		q->stop = 1;
		pthread_cond_broadcast(&q->cv);
		pthread_mutex_unlock(&q->mu);
		pthread_join(q->th, NULL);
		pthread_cond_destroy(&q->cv);
		pthread_mutex_destroy(&q->mu);
	}
	/* What was asked and not taken: looked up, or never handed over. */
	while (q->tail < q->head) {
		if (q->tail < q->done)
			free(q->jobs[q->tail % SRCQ_JOBS].more);
		q->tail++;
	}
	cache_free(q->c);
	free(q->jobs);
	free(q);
}

const char *
pd_srcframe_base(const struct pd_srcframe *f)
{
	const char *p;

	if (f->file == NULL)
		return "??";
	return (p = strrchr(f->file, '/')) != NULL ? p + 1 : f->file;
}
