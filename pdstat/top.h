/* SPDX-License-Identifier: MIT */
/*
 * pdstat --top: the hottest symbols (or dsos) by the samples' own ip,
 * per event, as perf report --sort sym (or dso) counts them.
 */
#ifndef PDSTAT_TOP_H
#define PDSTAT_TOP_H

#include <stdint.h>
#include <stdio.h>

struct pd_evlist;
struct pd_evsel;
struct pd_rec;
struct pd_sample;
struct pd_syms;
struct symtop;

/* by_dso: rows are dsos, else symbols. NULL when out of memory. */
struct symtop	*symtop_new(int by_dso);
void		 symtop_free(struct symtop *);

/*
 * A sample of ev, its ip named through sy as it stands (at the sample's
 * time: names.h). The rows point at sy's strings: print them before sy
 * goes. 0, or -1 when out of memory.
 */
int	symtop_sample(struct symtop *, struct pd_syms *sy,
	    const struct pd_evsel *ev, const struct pd_rec *rec,
	    const struct pd_sample *s);

/* The n hottest rows of each event: a text table, or a JSON array. */
void	symtop_print(struct symtop *, FILE *, const struct pd_evlist *,
	    size_t n);
void	symtop_json(struct symtop *, FILE *, const struct pd_evlist *,
	    size_t n);

#endif /* PDSTAT_TOP_H */
