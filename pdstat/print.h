/* SPDX-License-Identifier: MIT */
/*
 * pdstat's summary of one input: a table like `perf report --stats`
 * (and more), or JSON. Text from the stream goes out escaped (esc.h);
 * JSON strings are always valid, whatever the bytes.
 */
#ifndef PDSTAT_PRINT_H
#define PDSTAT_PRINT_H

#include <stddef.h>
#include <stdio.h>

struct pd_evlist;
struct stats;
struct symtop;

/* With top (NULL: none), its n hottest rows of each event follow. */
void	print_human(FILE *, const struct stats *, const struct pd_evlist *,
	    struct symtop *top, size_t n);
void	print_json(FILE *, const struct stats *, const struct pd_evlist *,
	    struct symtop *top, size_t n);

#endif /* PDSTAT_PRINT_H */
