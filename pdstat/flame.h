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

struct pd_evlist;
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
	/*
	 * A differential graph (diff.c), as difffolded.pl | flamegraph.pl
	 * draw it: widths from each stack's count (the new profile), its
	 * period the base profile's weight, scaled by base_mul / base_div
	 * (flame_base); each frame coloured by its own change, red grew,
	 * blue shrank, against the largest change of any stack.
	 */
	int		 diff;
	uint64_t	 base_mul, base_div;	/* base_div 0: as it is */
};

/* A stack's base weight as a differential graph compares it. */
static inline uint64_t
flame_base(const struct flame_opts *o, uint64_t base)
{
	/* Rounded down, as difffolded.pl's int(). */
	if (o->base_div == 0)
		return base;
	return (uint64_t)((unsigned __int128)base * o->base_mul / o->base_div);
}

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

/* --inline: the functions inlined at each frame, as frames (fold.h). */
void	flame_set_inline(struct flame *, int on);

/* Starts an input whose events are el. */
void	flame_input(struct flame *, const struct pd_evlist *el);

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

/*
 * The kernel frames kept by address named (pd_fold_settle), before
 * pd_syms_end. 0, or -1 when out of memory.
 */
int	flame_settle(struct flame *);

/* The samples folded, and the name of the event they are of. */
uint64_t	 flame_samples(const struct flame *);
uint64_t	 flame_left_out(const struct flame *);	/* other events */
const char	*flame_event(const struct flame *);

/*
 * Off-CPU instead (offcpu.h): the time each thread spends off CPU,
 * charged to its stack at sched_switch (or perf's offcpu-time samples),
 * intervals shorter than min_ns left out. 0, or -1 when out of memory.
 */
int	flame_offcpu(struct flame *, uint64_t min_ns);
int	flame_is_offcpu(const struct flame *);

/*
 * Off-CPU: the switches (and offcpu-time samples) seen, and in *bad
 * those unusable, the last one's reason in *why. (flame_samples counts
 * the waits.)
 */
uint64_t	flame_offcpu_seen(const struct flame *, uint64_t *bad,
		    const char **why);

/* The stacks folded so far (owned by the flame). */
struct pd_stacks	*flame_stacks(struct flame *);

/*
 * Writes the picture to path (atomically: a temporary file renamed over
 * it; "-": standard output). 0, or -1 after printing why.
 */
int	flame_write(struct flame *, const char *path, const char *title,
	    const char *subtitle);

/* The same for any stacks, drawn as o says. */
int	flame_write_stacks(struct pd_stacks *, const char *path,
	    const struct flame_opts *o);

/* Stacks written to path by put (flame_svg, folded lines) the same way. */
int	flame_output(const char *path, int (*put)(FILE *, struct pd_stacks *,
	    const struct flame_opts *), struct pd_stacks *st,
	    const struct flame_opts *o);

#endif /* PDSTAT_FLAME_H */
