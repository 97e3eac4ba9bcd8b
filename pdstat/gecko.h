/* SPDX-License-Identifier: MIT */
/*
 * pdstat --gecko: the samples of a run as the Firefox Profiler's gecko
 * JSON, the format `perf script report gecko` writes: one thread per
 * tid, each with its stack, frame and string tables and its samples.
 * The tables grow with the distinct stacks of each thread; the samples
 * (a timeline: one row each) wait in an unlinked temporary file, not in
 * memory.
 */
#ifndef PDSTAT_GECKO_H
#define PDSTAT_GECKO_H

#include <stddef.h>
#include <stdint.h>

struct pd_evsel;
struct pd_frame;
struct pd_rec;
struct pd_sample;
struct pd_syms;
struct gecko;

/* NULL after saying why (out of memory, no temporary file). */
struct gecko	*gecko_new(void);
void		 gecko_free(struct gecko *);

/*
 * While /proc/kallsyms is read ahead (pd_klater), samples with kernel
 * frames wait for their names, and those after them too: this names
 * and puts them now, before pd_syms_end. The profile is the same
 * either way. 0, or -1 (out of memory, or the temporary file could not
 * be written: errno).
 */
int	gecko_settle(struct gecko *);

/* Starts an input; its end, before its sy goes. */
void	gecko_input(struct gecko *);
void	gecko_input_end(struct gecko *);

/* Every record of the input as it passes (its header facts). */
void	gecko_record(struct gecko *, const struct pd_rec *);

/*
 * A sample of ev and its n frames (innermost first), named through sy
 * as it stands (at the sample's time: names.h); fr NULL, as for
 * pprof_sample(): one that did not parse, not in gecko_unknown(). 0, or
 * -1 (out of memory, or the temporary file could not be written: errno).
 */
int	gecko_sample(struct gecko *, struct pd_syms *sy,
	    const struct pd_evsel *ev, const struct pd_sample *s,
	    const struct pd_frame *fr, size_t n);

/* Samples that had no frame to name (parsed): in an [unknown] frame. */
uint64_t	gecko_unknown(const struct gecko *);

/*
 * Writes the profile to path (a temporary file renamed over it; "-":
 * standard output). 0, or -1 after printing why.
 */
int	gecko_write(struct gecko *, const char *path);

#endif /* PDSTAT_GECKO_H */
