/* SPDX-License-Identifier: MIT */
/*
 * pdstat --flamegraph: one self-contained interactive SVG of the stacks
 * (inline CSS and JavaScript, nothing fetched from anywhere).
 */
#ifndef PDSTAT_FLAME_H
#define PDSTAT_FLAME_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct pd_evsel;
struct pd_frame;
struct pd_rec;
struct pd_sample;
struct pd_stacks;
struct pd_syms;

struct flame_opts {
	const char	*title;		/* the first line at the top */
	const char	*subtitle;	/* a second line, or NULL */
	const char	*countname;	/* "samples" */
	int		 by_period;	/* widths from periods, not counts */
};

/*
 * Writes the flame graph of the stacks (each starting with its comm) to
 * f; reorders them (pd_stacks_sort by frame). Returns 0, or -1 with
 * errno set (out of memory, or the write failed).
 */
int	flame_svg(FILE *f, struct pd_stacks *st, const struct flame_opts *o);

/*
 * The samples of a whole run of inputs, folded as pddump --folded folds
 * them (libcommon/sym/fold.h), for one picture at the end.
 */
struct flame;

/* A new one, or NULL when out of memory. */
struct flame	*flame_new(void);
void		 flame_free(struct flame *);

/* Starts an input. */
void	flame_input(struct flame *);

/*
 * A sample of ev and its n frames (innermost first: pd_sample_frames,
 * or unwound), named through sy as it stands (at the sample's time:
 * names.h). 0, or -1 when out of memory.
 */
int	flame_sample(struct flame *, struct pd_syms *sy,
	    const struct pd_evsel *ev, const struct pd_sample *s,
	    const struct pd_frame *fr, size_t n);

/* Before the input's sy goes: the fold forgets the names it kept. */
void	flame_forget(struct flame *);

/* The samples folded, and the name of the event they are of. */
uint64_t	 flame_samples(const struct flame *);
uint64_t	 flame_left_out(const struct flame *);	/* other events */
const char	*flame_event(const struct flame *);

/*
 * Writes the picture to path (atomically: a temporary file renamed over
 * it; "-": standard output). 0, or -1 after printing why.
 */
int	flame_write(struct flame *, const char *path, const char *title,
	    const char *subtitle);

#endif /* PDSTAT_FLAME_H */
