/* SPDX-License-Identifier: MIT */
/*
 * Symbol tables whose names stay in the file (pd_symtab_builder_map):
 * a name found in libelf's image is read from the table's mapping of the
 * file, one outside it (a PLT name, another file's) from the pool; the
 * aliases' choice reads both; a table with no name in the pool has none,
 * one with no name in the map does not keep it. A pool name that ends
 * the one before it is that one's tail (kallsyms' "__pfx_" padding), in
 * a table kept whole and in one copied after dropping aliases.
 */
#include <errno.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "libcommon/sym/symtab.h"
#include "tests/unit/t.h"

/* A string table as a file has one: names after a NUL, one at the end
 * without its NUL (a cut file: it must be copied, not found). */
static const char strtab[] = "\0main\0__foo\0foo\0helper\0_Z3barv\0cut";
#define STRTAB_LEN	(sizeof(strtab) - 1)	/* without the last NUL */

static int
mapped(void *p, size_t len)
{
	/* msync says ENOMEM of pages that are not mapped. */
	return msync(p, len, MS_ASYNC) == 0 || errno != ENOMEM;
}

/* The file, libelf's image of it (a copy), and a mapping of it. */
static void
file_images(char **raw, void **map)
{
	int fd = memfd_create("strtab", 0);

	T(fd >= 0);
	T(write(fd, strtab, STRTAB_LEN) == (ssize_t)STRTAB_LEN);
	*map = mmap(NULL, STRTAB_LEN, PROT_READ, MAP_PRIVATE, fd, 0);
	T(*map != MAP_FAILED);
	close(fd);
	*raw = malloc(STRTAB_LEN);
	T(*raw != NULL);
	memcpy(*raw, strtab, STRTAB_LEN);
}

static const char *
at(const char *raw, const char *name)
{
	const char *p;

	for (p = raw + 1; p < raw + STRTAB_LEN; p += strlen(p) + 1)
		if (strcmp(p, name) == 0)
			return p;
	return NULL;
}

static int
in(const void *p, const void *base, size_t len)
{
	return (const char *)p >= (const char *)base &&
	    (const char *)p < (const char *)base + len;
}

static void
mixed(void)
{
	struct pd_symtab_builder b;
	struct symtab st;
	const struct sym *s;
	char *raw, plt[] = "puts@plt";
	void *map;

	file_images(&raw, &map);
	memset(&b, 0, sizeof(b));
	pd_symtab_builder_map(&b, raw, map, STRTAB_LEN);
	T(pd_symtab_add(&b, 0x1000, 0x10, at(raw, "main"), 4, STB_GLOBAL,
	    0) == 0);
	/* Aliases: perf keeps the name with fewer leading underscores. */
	T(pd_symtab_add(&b, 0x2000, 0x10, at(raw, "__foo"), 5, STB_GLOBAL,
	    0) == 0);
	T(pd_symtab_add(&b, 0x2000, 0x10, at(raw, "foo"), 3, STB_GLOBAL,
	    0) == 0);
	T(pd_symtab_add(&b, 0x3000, 0x10, plt, strlen(plt), STB_GLOBAL,
	    0) == 0);
	/* "cut" has no NUL inside the file: copied. */
	T(pd_symtab_add(&b, 0x4000, 0x10, raw + STRTAB_LEN - 3, 3,
	    STB_GLOBAL, 0) == 0);
	T(pd_symtab_finish(&b, &st, 0) == 0);
	T(st.n == 4);
	T(st.map == map && st.maplen == STRTAB_LEN);
	T((s = pd_symtab_find(&st, 0x1008)) != NULL &&
	    strcmp(s->name, "main") == 0 && in(s->name, map, STRTAB_LEN));
	T((s = pd_symtab_find(&st, 0x2000)) != NULL &&
	    strcmp(s->name, "foo") == 0 && in(s->name, map, STRTAB_LEN));
	T((s = pd_symtab_find(&st, 0x3000)) != NULL &&
	    strcmp(s->name, "puts@plt") == 0 && !in(s->name, map, STRTAB_LEN));
	T((s = pd_symtab_find(&st, 0x4000)) != NULL &&
	    strcmp(s->name, "cut") == 0 && !in(s->name, map, STRTAB_LEN));
	pd_symtab_free(&st);
	T(!mapped(map, STRTAB_LEN));
	free(raw);
}

/* Every name in the map, demangled when named: no pool at all. */
static void
all_mapped(void)
{
	struct pd_symtab_builder b;
	struct symtab st;
	const struct sym *s;
	char *raw;
	void *map;

	file_images(&raw, &map);
	memset(&b, 0, sizeof(b));
	b.mangled = 1;
	pd_symtab_builder_map(&b, raw, map, STRTAB_LEN);
	T(pd_symtab_add(&b, 0x2000, 0x10, at(raw, "_Z3barv"), 7, STB_GLOBAL,
	    0) == 0);
	T(pd_symtab_add(&b, 0x1000, 0x10, at(raw, "helper"), 6, STB_GLOBAL,
	    0) == 0);
	T(pd_symtab_finish(&b, &st, 0) == 0);
	T(st.n == 2 && st.pool == NULL && st.map == map);
	T((s = pd_symtab_find(&st, 0x2004)) != NULL &&
	    strcmp(pd_symtab_name(&st, s), "bar") == 0 &&
	    strcmp(pd_symtab_raw(&st, s), "_Z3barv") == 0 &&
	    in(pd_symtab_raw(&st, s), map, STRTAB_LEN));
	T((s = pd_symtab_find(&st, 0x1000)) != NULL &&
	    strcmp(pd_symtab_name(&st, s), "helper") == 0);
	pd_symtab_free(&st);
	free(raw);
}

/* No name in the map: the table does not keep it. */
static void
none_mapped(void)
{
	struct pd_symtab_builder b;
	struct symtab st;
	char *raw;
	void *map;

	file_images(&raw, &map);
	memset(&b, 0, sizeof(b));
	pd_symtab_builder_map(&b, raw, map, STRTAB_LEN);
	T(pd_symtab_add(&b, 0x1000, 0x10, "main", 4, STB_GLOBAL, 0) == 0);
	T(pd_symtab_finish(&b, &st, 0) == 0);
	T(st.n == 1 && st.map == NULL && strcmp(st.syms[0].name, "main") == 0);
	T(!mapped(map, STRTAB_LEN));
	pd_symtab_free(&st);
	free(raw);
}

/* Adds each of names[] at its address, as kallsyms lists them. */
static void
add_all(struct pd_symtab_builder *b, const char *const *names,
    const uint64_t *addr, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		T(pd_symtab_add(b, addr[i], 0, names[i], strlen(names[i]),
		    STB_GLOBAL, 0) == 0);
}

/* st holds want[] in order, each name at an address of its own. */
static int
holds(const struct symtab *st, const char *const *want, size_t n)
{
	size_t i, j;

	if (st->n != n)
		return 0;
	for (i = 0; i < n; i++) {
		if (strcmp(st->syms[i].name, want[i]) != 0)
			return 0;
		for (j = 0; j < i; j++)
			if (st->syms[j].name == st->syms[i].name)
				return 0;
	}
	return 1;
}

static void
tails(void)
{
	static const char *const k[] = { "__pfx_foo", "foo", "__pfx_bar",
	    "bar", "baz", "baz", "x_ab", "ab", "b" };
	static const uint64_t ka[] = { 0x1000, 0x1010, 0x2000, 0x2010,
	    0x3000, 0x3010, 0x4000, 0x4010, 0x4020 };
	/*
	 * The first two are aliases that kallsyms' last one wins over:
	 * with them dropped the names are copied, and the eight kept,
	 * each the tail of the one before, are 44 bytes of a 15-byte pool.
	 */
	static const char *const c[] = { "q1", "q2", "abcdefgh", "bcdefgh",
	    "cdefgh", "defgh", "efgh", "fgh", "gh", "h" };
	static const uint64_t ca[] = { 0x1000, 0x1000, 0x1000, 0x2000,
	    0x3000, 0x4000, 0x5000, 0x6000, 0x7000, 0x8000 };
	struct pd_symtab_builder b;
	struct symtab st;

	memset(&b, 0, sizeof(b));
	add_all(&b, k, ka, 9);
	T(b.plen == sizeof("__pfx_foo") + sizeof("__pfx_bar") +
	    2 * sizeof("baz") + sizeof("x_ab"));
	T(pd_symtab_finish(&b, &st, 1) == 0);
	T(holds(&st, k, 9));
	pd_symtab_free(&st);

	memset(&b, 0, sizeof(b));
	add_all(&b, c, ca, 10);
	T(pd_symtab_finish(&b, &st, 1) == 0);
	T(holds(&st, c + 2, 8));
	pd_symtab_free(&st);
}

int
main(void)
{
	mixed();
	all_mapped();
	none_mapped();
	tails();
	return T_END();
}
