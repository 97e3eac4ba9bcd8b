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
struct pd_rec;
struct pd_sample_head;
struct pd_syms_opts;
struct symtop;

/* by_dso: rows are dsos, else symbols. NULL when out of memory. */
struct symtop	*symtop_new(const struct pd_syms_opts *, int by_dso);
void		 symtop_free(struct symtop *);

/*
 * Every record, samples included, in stream order; samples are counted
 * once the records up to their time are known (symq.h). 0, or -1 when
 * out of memory.
 */
int	symtop_record(struct symtop *, const struct pd_evlist *,
	    const struct pd_rec *);

/* The end of the input: counts what still waits. 0 or -1. */
int	symtop_finish(struct symtop *);

/* The n hottest rows of each event: a text table, or a JSON array. */
void	symtop_print(struct symtop *, FILE *, const struct pd_evlist *,
	    size_t n);
void	symtop_json(struct symtop *, FILE *, const struct pd_evlist *,
	    size_t n);

/* The symbolizer's notes, one at a time, then NULL. */
const char	*symtop_next_note(struct symtop *);

#endif /* PDSTAT_TOP_H */
