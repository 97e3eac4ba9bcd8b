/* SPDX-License-Identifier: MIT */
/*
 * pdstat --diff: two profiles' stacks side by side, as difffolded.pl
 * sets them (`stack base_count new_count`, the base scaled to the new
 * one's total unless told not to), drawn as flamegraph.pl draws such a
 * pair (flame.h's diff mode); and --folded, the stacks as text.
 */
#ifndef PDSTAT_DIFF_H
#define PDSTAT_DIFF_H

struct flame;
struct flame_opts;
struct pd_stacks;

/*
 * The stacks of base and cur in one new pd_stacks (the caller frees
 * it): each stack's count is its weight in cur, its period its weight in
 * base (samples; nanoseconds off CPU). o's diff, base_mul and base_div
 * are set, scaling base to cur's total when `normalize`. NULL when out
 * of memory.
 */
struct pd_stacks	*diff_join(struct flame *base, struct flame *cur,
			    int normalize, struct flame_opts *o);

/*
 * Writes the stacks to path ("-": standard output) in the folded text
 * form, sorted, a line each: "stack weight", or with o->diff
 * "stack base new", as difffolded.pl does. 0, or -1 after saying why.
 */
int	diff_folded(struct pd_stacks *, const char *path,
	    const struct flame_opts *o);

#endif /* PDSTAT_DIFF_H */
