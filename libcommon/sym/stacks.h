/* SPDX-License-Identifier: MIT */
/*
 * Distinct call stacks and how often each was seen: what a flame graph
 * or a folded-stacks file is made of. Frame names are interned once (an
 * id each); a stack is a sequence of ids, outermost first. Memory grows
 * with the distinct stacks and names, never with the samples: adding a
 * stack already seen allocates nothing.
 */
#ifndef PD_STACKS_H
#define PD_STACKS_H

#include <stddef.h>
#include <stdint.h>

struct pd_stacks;

struct pd_stacks	*pd_stacks_new(void);	/* NULL: out of memory */
void			 pd_stacks_free(struct pd_stacks *);

/*
 * The id of the len bytes at s (which need not be NUL-terminated); the
 * same bytes always get the same id. 0, or -1 when out of memory.
 */
int	pd_stacks_intern(struct pd_stacks *, const char *s, size_t len,
	    uint32_t *id);

/*
 * The bytes of an interned name, NUL-terminated, valid as long as the
 * pd_stacks; *len (if not NULL) gets their length.
 */
const char	*pd_stacks_name(const struct pd_stacks *, uint32_t id,
		    size_t *len);

/*
 * Counts one more sighting of the stack of n ids (outermost first):
 * count and period are added to its totals. 0, or -1 when out of memory
 * (the stack is then not counted).
 */
int	pd_stacks_add(struct pd_stacks *, const uint32_t *ids, size_t n,
	    uint64_t count, uint64_t period);

struct pd_stack {
	const uint32_t	*ids;
	size_t		 n;
	uint64_t	 count, period;
};

/* The number of distinct stacks, and of distinct names. */
size_t	pd_stacks_count(const struct pd_stacks *);
size_t	pd_stacks_names(const struct pd_stacks *);

/*
 * Orders the stacks. PD_STACKS_BY_TEXT: as their text "a;b;c" sorts
 * bytewise (LC_ALL=C sort(1), perl's cmp), the order of
 * stackcollapse-perf.pl's output. PD_STACKS_BY_FRAME: frame by frame,
 * each name bytewise, a stack before the ones it is a prefix of, so that
 * the stacks sharing a prefix are next to each other (what a flame
 * graph merges). 0, or -1 when out of memory. Adding a stack afterwards
 * undoes the order.
 */
#define PD_STACKS_BY_TEXT	0
#define PD_STACKS_BY_FRAME	1
int	pd_stacks_sort(struct pd_stacks *, int how);

/*
 * Stack i (< pd_stacks_count) in sorted order, or in the order first
 * seen when not sorted. The ids point into the pd_stacks and stay valid
 * until the next pd_stacks_add.
 */
void	pd_stacks_get(const struct pd_stacks *, size_t i, struct pd_stack *);

/*
 * Compares the texts of two stacks ("a;b" against "a;c") bytewise, as
 * pd_stacks_sort orders them: <0, 0 or >0. Distinct stacks compare
 * equal only when a name holds a ';'.
 */
int	pd_stacks_cmp(const struct pd_stacks *, const struct pd_stack *,
	    const struct pd_stack *);

#endif /* PD_STACKS_H */
