/* SPDX-License-Identifier: MIT */
/*
 * Off-CPU time: where threads wait instead of run. From sched_switch
 * tracepoint samples with callchains (perf record -e sched:sched_switch
 * -g), each thread's time from its switch-out to its next switch-in is
 * charged to the stack it switched out with; perf's own --off-cpu
 * samples (event "offcpu-time", period = nanoseconds) are charged as
 * they are. The stacks are folded by a pd_fold (fold.h), so they are
 * named as --folded names them: count is the number of waits, period
 * their nanoseconds.
 *
 * Samples must come in time order (pd_symq_set_sample_fn hands them out
 * so). Memory: one entry per thread that is off CPU, with its stack;
 * nothing per sample.
 */
#ifndef PD_OFFCPU_H
#define PD_OFFCPU_H

#include <stddef.h>
#include <stdint.h>

struct pd_evlist;
struct pd_evsel;
struct pd_fold;
struct pd_frame;
struct pd_sample;
struct pd_syms;

/* The event name off-CPU stacks are folded under. */
#define PD_OFFCPU_EVENT	"offcpu-time"

struct pd_offcpu;

/*
 * A tracker counting into `fold` (not owned); waits shorter than min_ns
 * are left out. NULL when out of memory.
 */
struct pd_offcpu	*pd_offcpu_new(struct pd_fold *fold, uint64_t min_ns);
void			 pd_offcpu_free(struct pd_offcpu *);

/*
 * A new input whose events are el (not owned; their tracing formats
 * name the sched_switch fields): the threads still off CPU in the last
 * one are forgotten, uncounted.
 */
int	pd_offcpu_input(struct pd_offcpu *, const struct pd_evlist *el);

/*
 * A sample of ev, in time order, with its frames (innermost first) and
 * sy as it stands at the sample's time. Returns 1 when the sample was a
 * switch or an offcpu-time sample, 0 when it is another event's (or
 * unusable: pd_offcpu_bad), -1 when out of memory.
 */
int	pd_offcpu_sample(struct pd_offcpu *, struct pd_syms *sy,
	    const struct pd_evsel *ev, const struct pd_sample *s,
	    const struct pd_frame *frames, size_t n);

/* Switches and offcpu-time samples seen, and waits counted. */
uint64_t	pd_offcpu_seen(const struct pd_offcpu *);
uint64_t	pd_offcpu_waits(const struct pd_offcpu *);

/*
 * The switches that could not be used (no time, no raw data, no format
 * for the fields), and why the last one could not; NULL when none.
 */
uint64_t	 pd_offcpu_bad(const struct pd_offcpu *, const char **why);

#endif /* PD_OFFCPU_H */
