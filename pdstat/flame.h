/* SPDX-License-Identifier: MIT */
/*
 * pdstat --flamegraph: one self-contained interactive SVG of the stacks
 * (inline CSS and JavaScript, nothing fetched from anywhere).
 */
#ifndef PDSTAT_FLAME_H
#define PDSTAT_FLAME_H

#include <stdio.h>

struct pd_stacks;

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

#endif /* PDSTAT_FLAME_H */
