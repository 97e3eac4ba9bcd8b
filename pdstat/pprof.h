/* SPDX-License-Identifier: MIT */
/*
 * pdstat --pprof: the samples of a run as a gzipped profile.proto
 * (google/pprof), for go tool pprof and the services that take it.
 * Tables grow with the distinct stacks, locations and labels, never with
 * the samples: identical stacks with identical labels are one Sample
 * whose values add up.
 */
#ifndef PDSTAT_PPROF_H
#define PDSTAT_PPROF_H

#include <stddef.h>
#include <stdint.h>

struct pd_evlist;
struct pd_evsel;
struct pd_frame;
struct pd_rec;
struct pd_sample;
struct pd_syms;
struct pprof;

struct pprof	*pprof_new(void);		/* NULL: out of memory */
void		 pprof_free(struct pprof *);

/*
 * --inline: the functions inlined at a location (from debug info) as
 * Lines of their own before its function's, innermost first.
 */
void		 pprof_set_inline(struct pprof *, int on);

/*
 * Starts an input, whose attrs are el (read again at its end: a pipe
 * stream's come as it goes). 0, or -1 when out of memory.
 */
int	pprof_input(struct pprof *, const struct pd_evlist *el);

/* Every record of the input as it passes (its HOSTNAME feature). */
void	pprof_record(struct pprof *, const struct pd_rec *);

/*
 * A sample of ev and its n frames (innermost first), named through sy
 * as it stands (at the sample's time: names.h). fr NULL: a sample whose
 * body did not parse (s has what its head says), counted in [unknown]
 * but not in pprof_unknown(): names.c says how many. 0, or -1 when out
 * of memory.
 */
int	pprof_sample(struct pprof *, struct pd_syms *sy,
	    const struct pd_evsel *ev, const struct pd_sample *s,
	    const struct pd_frame *fr, size_t n);

/*
 * While /proc/kallsyms is read ahead (pd_klater), new kernel frames get
 * their locations in their turn and their names later: this names them
 * now, before pd_syms_end. The profile is the same either way. 0, or
 * -1 when out of memory.
 */
int	pprof_settle(struct pprof *);

/*
 * The input's end, before its sy goes: every event of el gets its
 * sample types (those without samples too), and the names kept by
 * address are forgotten. 0, or -1 when out of memory.
 */
int	pprof_input_end(struct pprof *, const struct pd_evlist *el);

/*
 * Samples that had no frame to name (parsed, no address): counted in
 * an [unknown] frame.
 */
uint64_t	pprof_unknown(const struct pprof *);

/*
 * Writes the profile to path (a temporary file renamed over it; "-":
 * standard output). 0, or -1 after printing why.
 */
int	pprof_write(struct pprof *, const char *path);

#endif /* PDSTAT_PPROF_H */
