/* SPDX-License-Identifier: MIT */
/*
 * Names for pdstat's samples: one symbolizer (libcommon/sym) and its
 * time-ordered queue per input, for --top, --flamegraph, --pprof and --gecko,
 * in
 * the one pass over the input: each sample comes due with the maps of
 * its time (symq.h) and goes to both.
 */
#ifndef PDSTAT_NAMES_H
#define PDSTAT_NAMES_H

#include <stdint.h>

struct flame;
struct gecko;
struct pd_evlist;
struct pd_evsel;
struct pd_rec;
struct pd_syms_opts;
struct pprof;
struct symtop;

struct names;

/*
 * Names for an input whose attrs are el, for top, fl, pp and gk (any
 * may be NULL; none is owned). With fl, pp or gk, files are read for
 * symbols even when `so` asks for dsos only, and with `unwind` the user
 * stacks of --call-graph dwarf samples are unwound for them (unwind.h).
 * NULL when out of memory.
 */
struct names	*names_open(const struct pd_syms_opts *so,
		    const struct pd_evlist *el, struct symtop *top,
		    struct flame *fl, struct pprof *pp, struct gecko *gk,
		    int unwind);

/*
 * Every record of the input, in stream order, with its event and time
 * (pd_symq_push_at's): samples come due, in time order, as the records
 * before them are known. 0, or -1 when out of memory.
 */
int	names_record(struct names *, const struct pd_rec *,
	    const struct pd_evsel *ev, uint64_t time);

/* The end of the input: every sample still waiting comes due. 0 or -1. */
int	names_end(struct names *);

/*
 * Then the notes for the user, one per call, NULL when no more: the
 * symbolizer's, and with a stack view what it left out and how many
 * stacks could not be unwound.
 */
const char	*names_note(struct names *);

/*
 * Frees the symbolizer: only after top and fl are done with the names
 * (top's table points into it).
 */
void	names_close(struct names *);

#endif /* PDSTAT_NAMES_H */
