/* SPDX-License-Identifier: MIT */
/*
 * Folded stacks ("comm;outermost;...;innermost count"), the format
 * flamegraph.pl, inferno and speedscope read, made the way
 * `perf script | stackcollapse-perf.pl --all` makes them: the same frame
 * names, tidied by the same rules, kernel frames suffixed _[k].
 */
#ifndef PD_FOLD_H
#define PD_FOLD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct pd_frame;
struct pd_stacks;
struct pd_symres;
struct pd_syms;

/*
 * The process name as a stack's first frame: spaces become '_' (a space
 * ends the stack in the folded format). Writes at most len - 1 bytes and
 * a NUL to buf; returns the length written.
 */
size_t	pd_fold_comm(const char *comm, char *buf, size_t len);

/*
 * The folded names of one frame, as stackcollapse-perf.pl --all names
 * the perf script line "addr name+off (dso)": an unknown name (NULL) is
 * "[dso's file name]" or "[unknown]"; ';' becomes ':'; an argument list
 * "(...)" is cut (not a Go method's "pkg.(*T).f", not "(anonymous
 * namespace)"); quotes go; a Java frame (comm "java") loses the 'L' of
 * "Lpkg/Class;"; kernel dsos ("[...]", "...vmlinux") add "_[k]", JIT maps
 * "_[j]". A name holding "a->b" (perf's inline chains) is two frames,
 * the second suffixed "_[i]". A name starting with '(' is no frame.
 *
 * Writes the frames, outermost first, each NUL-terminated, one after the
 * other, into buf (at most len bytes; names are cut to fit) and returns
 * how many there are (0: the frame is left out), or -1 when buf cannot
 * hold even one byte per frame.
 */
ssize_t	pd_fold_frame(const char *name, const char *dso, int java,
	    char *buf, size_t len);

/*
 * The folding of samples into stacks: frames named by a pd_syms (at the
 * sample's time: symq.h), named by the rules above, counted in a
 * pd_stacks.
 */
struct pd_fold;

/* A new fold (NULL: out of memory). */
struct pd_fold	*pd_fold_new(void);
void		 pd_fold_free(struct pd_fold *);

/*
 * Counts one sample: its thread's comm (NULL: unknown, named as perf
 * names it, "swapper" for tid 0, else ":tid"), then its frames, given
 * innermost first as pd_sample_frames orders them and resolved
 * (syms[i] names frame i), outermost first; count 1 and `period` are
 * added to the stack's totals. As stackcollapse-perf.pl does, only the
 * samples of the first event seen are folded (events are compared by
 * name). Returns 1 when counted, 0 when left out (a later event's
 * sample), -1 when out of memory.
 *
 * The names' strings are remembered by address (they live as long as
 * their pd_syms): call pd_fold_forget before freeing the pd_syms.
 */
int	pd_fold_add(struct pd_fold *, const char *event, const char *comm,
	    uint32_t tid, const struct pd_symres *syms, size_t n,
	    uint64_t period);

/*
 * The same for a sample whose frames (innermost first) are resolved
 * here, through `sy` as it stands now: for a stream in time order, or
 * when the few samples that come before their process's COMM and MMAP
 * records in the stream may go unnamed. Much faster than resolving
 * each frame: an address seen before in the same maps of the same
 * process (pd_syms_maps' generation) is not resolved again.
 */
int	pd_fold_add_frames(struct pd_fold *, struct pd_syms *sy,
	    const char *event, uint32_t pid, uint32_t tid,
	    const struct pd_frame *frames, size_t n, uint64_t period);

/*
 * The stack pd_fold_add_frames would count, not counted: its ids
 * (interned in pd_fold_stacks) in *ids, valid until the next call, and
 * *nids. For a tool that counts it later with its own weight
 * (pd_stacks_add): off-CPU time, known only when the thread returns.
 * Returns 1, 0 (another event's sample: left out) or -1.
 */
int	pd_fold_stack_frames(struct pd_fold *, struct pd_syms *sy,
	    const char *event, uint32_t pid, uint32_t tid,
	    const struct pd_frame *frames, size_t n, const uint32_t **ids,
	    size_t *nids);

/*
 * With sy (not owned; NULL: off), each user frame is followed by the
 * functions inlined at its address (pd_syms_inline), outermost first,
 * as frames of their own named like the function's: the stack goes
 * work;churn;mix where mix was inlined into churn, churn into work.
 * pd_fold_forget turns it off again (its pd_syms is going).
 */
void	pd_fold_set_inline(struct pd_fold *, struct pd_syms *sy);

/*
 * pd_fold_add_frames keeps a sample's kernel frames by address while
 * their names wait for /proc/kallsyms, read ahead on a thread
 * (pd_klater), and names them once the names are there or are about to
 * change. Names them now: call it before pd_syms_end (so
 * that what naming them has to say comes with that input's notes).
 * 0, or -1 when out of memory (those samples are then not counted).
 * pd_fold_forget does it too.
 */
int	pd_fold_settle(struct pd_fold *);

/* Forgets the string addresses seen so far; the stacks stay. */
void	pd_fold_forget(struct pd_fold *);

/* The stacks counted so far (owned by the fold). */
struct pd_stacks	*pd_fold_stacks(struct pd_fold *);

/* The event folded (NULL before the first sample), and the samples of
 * other events left out. */
const char	*pd_fold_event(const struct pd_fold *);
uint64_t	 pd_fold_left_out(const struct pd_fold *);

#endif /* PD_FOLD_H */
