/* SPDX-License-Identifier: MIT */
/*
 * A sorted symbol table and its builder. The symbolizer's files (dso.c
 * for ELF files and JIT maps, kallsyms.c for the kernel) build them;
 * lookups find the symbol holding an address.
 */
#ifndef PD_SYMTAB_H
#define PD_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

/* One symbol: [start, end) in the file's virtual addresses. */
struct sym {
	uint64_t	 start, end;
	const char	*name;
};

/*
 * A sorted symbol table and the pool its names live in. When mangled
 * is set its names are as the file has them, and each is demangled the
 * first time it is asked for (pd_symtab_name): most of a file's
 * symbols are never named, and demangling them all was most of loading
 * a C++ program's symbols. So is the choice among aliases that only
 * their demangled names decide (a C1 and a C2 constructor): they stay
 * in the table, marked, until an address among them is looked up.
 */
struct symtab {
	struct sym	*syms;
	size_t		 n;
	char		*pool;
	/*
	 * The file's own mapping, where the names the builder found in
	 * it stay (pd_symtab_builder.map); NULL: none. Its pages are read
	 * only when a name is, so the names never printed cost no memory.
	 */
	void		*map;
	size_t		 maplen;
	int		 mangled;
	unsigned char	*named;		/* mangled: SYMTAB_* of syms[i] */
	char		**dm;		/* the demangled names made, each
					   after its raw name's pointer */
	size_t		 ndm, dmcap;
};

#define SYMTAB_NAMED	1	/* asked for: name is as shown */
#define SYMTAB_TIE	2	/* one of aliases not chosen yet */
#define SYMTAB_DM	4	/* name is a demangled one (set_shown) */

/*
 * A symbol while the table is built: what perf's choices look at.
 * Kept small: a C++ program has 100,000 of them to sort.
 */
struct bsym {
	uint64_t	 start, end;
	uint32_t	 name;		/* offset in the pool, or BSYM_MAPPED
					   and the offset in the map */
	unsigned char	 bind;
	unsigned char	 module;	/* kallsyms: a module's symbol */
	unsigned char	 tie;		/* SYMTAB_TIE */
};

#define BSYM_MAPPED	0x80000000u

/*
 * A file's symbols are most of the memory of a symbolizing view while
 * they are read: its string table's pages, mapped by libelf, and a copy
 * of every name. With map set (pd_symtab_builder_map), a name that
 * pd_symtab_add finds in raw, the image libelf read, is not copied: it
 * is kept as its offset in that image, which is the file, and read from
 * map, a mapping of the same file that the table keeps.
 */
struct pd_symtab_builder {
	struct bsym	*v;
	size_t		 n, cap;
	size_t		 nplt;		/* PLT symbols after v[n] */
	char		*pool;
	size_t		 plen, pcap;
	size_t		 last, lastlen;	/* the pool's last name; 0: none */
	int		 mangled;	/* names as the file has them */
	const char	*raw;		/* libelf's image of the file */
	char		*map;		/* a mapping of it; owned */
	size_t		 maplen;	/* both images' length */
};

/*
 * A user symbol's name as perf shows it: C++ (and Rust, D) names
 * demangled by libiberty without their parameters, as perf calls it by
 * default; NULL when it is not mangled. malloc'd.
 */
char	*pd_symtab_demangle(const char *name);

/*
 * Adds a symbol (bind: STB_*; module: a kallsyms module's). 0, or -1
 * when out of memory.
 */
int	pd_symtab_add(struct pd_symtab_builder *, uint64_t start,
	    uint64_t size, const char *name, size_t nlen, unsigned bind,
	    int module);

/*
 * Names in raw (len bytes: the file as libelf read it) are read from
 * map (mmap'd, of the same file, len bytes), which the builder now
 * owns: unmapped by pd_symtab_finish when no name is kept there, else
 * kept by the table.
 */
void	pd_symtab_builder_map(struct pd_symtab_builder *, const char *raw,
	    void *map, size_t len);

/*
 * Sorts, reduces aliases and fixes ends into *st (kallsyms: its rules
 * for ends), freeing the builder's storage. 0 or -1.
 */
int	pd_symtab_finish(struct pd_symtab_builder *, struct symtab *st,
	    int kallsyms);
void	pd_symtab_builder_free(struct pd_symtab_builder *);

/*
 * The symbol holding addr, or NULL; the aliases at its address are
 * reduced to perf's choice now if that was left to their names.
 */
const struct sym	*pd_symtab_find(struct symtab *, uint64_t addr);
/*
 * The name of symbol s of st as perf shows it, demangled now if need
 * be; the same pointer every time after the first.
 */
const char		*pd_symtab_name(struct symtab *, const struct sym *s);
/* Its name as the file has it (mangled), after pd_symtab_name. */
const char		*pd_symtab_raw(const struct symtab *,
			    const struct sym *s);
void			 pd_symtab_free(struct symtab *);

#endif /* PD_SYMTAB_H */
