/* SPDX-License-Identifier: MIT */
/*
 * The parser for perf record's event lists ("cycles:u",
 * "sched:sched_switch", "r1a8", "{cpu-clock,task-clock}:S"), and the
 * ids of tracepoints on this host.
 */
#ifndef PD_EVENTS_H
#define PD_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#define PD_PMU_DIR	"/sys/bus/event_source/devices"

/* One event of a parsed list. */
struct pd_event {
	char		 name[160];	/* as perf names it: "cycles:u" */
	uint32_t	 type;
	uint64_t	 config;
	char		 tp_sys[64];	/* tracepoints: system and name */
	char		 tp_name[96];
	unsigned	 exclude_user:1;
	unsigned	 exclude_kernel:1;
	unsigned	 leader_sample:1;	/* group :S: only the leader samples */
	int		 leader;	/* index of the group leader (self if none) */
	const char	*filter;	/* --filter's, for a tracepoint; or NULL */
	int		 nr_members;	/* group size, on the leader; 1 if none */
	/*
	 * "pmu/config=N,name=x/": what the terms set. pmu_syntax events
	 * are taken as perf takes them: a tracepoint so named has no
	 * raw fields and no tracefs name.
	 */
	unsigned	 pmu_syntax:1;
	unsigned	 has_period:1;	/* period=N */
	unsigned	 has_freq:1;	/* freq=N */
	unsigned	 has_inherit:1;	/* inherit=N or no-inherit */
	unsigned	 inherit:1;
	uint64_t	 config1, config2;
	uint64_t	 period, freq;
};

/*
 * Parses a comma-separated event list into *evs (appending; *n counts).
 * Tracepoint ids are not resolved here (see pd_tracepoint_id); a PMU's
 * type ("pmu/terms/") is: software and tracepoint are the kernel's
 * fixed ones, others come from PD_PMU_DIR/<pmu>/type. Returns 0,
 * or -1 with a reason in why[len] (bad syntax, unknown name, no memory).
 */
int	pd_events_parse(const char *list, struct pd_event **evs, size_t *n,
	    char *why, size_t len);

/*
 * The id of tracepoint sys:name under the tracefs mount `tracefs`, read
 * from events/<sys>/<name>/id. The id, or -1 with errno set.
 */
long long	pd_tracepoint_id(const char *tracefs, const char *sys,
		    const char *name);

/*
 * 1 when evs[i] is a tracepoint glob ("sched:*", "syscalls:sys_enter_*"):
 * '*', '?' or '[' in its system or name.
 */
int	pd_event_is_glob(const struct pd_event *);

/*
 * Expands the tracepoint glob evs[i], an event of no group, as perf
 * does: every tracepoint under tracefs whose system and name match, in
 * the order tracefs lists them (perf 6.1's: no sort), each with evs[i]'s
 * modifiers. They take its place. The
 * number of events it became (0: none matched, evs[i] stays), or -1
 * when out of memory.
 */
int	pd_event_glob(const char *tracefs, struct pd_event **evs, size_t *n,
	    size_t i);

#endif /* PD_EVENTS_H */
