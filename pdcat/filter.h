/* SPDX-License-Identifier: MIT */
/*
 * pdcat's filters, perf script's --comm, --pid, --tid, --cpu and --time
 * as a stream stage: every record but a SAMPLE passes; a SAMPLE passes
 * when it is inside all of the filters given, else it is dropped and
 * counted. The decisions are perf script's, each made where perf makes
 * it: the comm is the thread's at the sample's place in perf's delivery
 * order (libcommon/stream/threads.c), pid and tid are the sample's, the
 * cpu its PERF_SAMPLE_CPU, the time its PERF_SAMPLE_TIME (a sample
 * without one passes every --time, as in perf).
 */
#ifndef PDCAT_FILTER_H
#define PDCAT_FILTER_H

#include <stddef.h>
#include <stdint.h>

struct pd_evlist;
struct pd_rec;
struct filter;

/* The options, for getopt_long: values above any character. */
enum {
	FILTER_COMM = 0x100,
	FILTER_CPU,
	FILTER_PID,
	FILTER_TID,
	FILTER_TIME
};

/* A filter with nothing to choose yet, or NULL when out of memory. */
struct filter	*filter_new(void);
void		 filter_free(struct filter *);

/*
 * One of the options above with its argument. 0, or -1 after saying
 * (one line) what is wrong with arg: a usage error.
 */
int	filter_option(struct filter *, int opt, const char *arg);

/* Whether any option was given: records then go through filter_rec(). */
int	filter_on(const struct filter *);

/*
 * Works out the --time ranges once the options are in: a percent needs
 * the span of the inputs' sample times, which pdcat reads from them
 * first (perf script reads it from the file header). Returns 0, or an
 * exit status after saying why: PD_EXIT_USAGE for a bad --time or a
 * percent over an input that cannot be read twice (a pipe),
 * PD_EXIT_DATA when an input could not be read.
 */
int	filter_span(struct filter *, char **inputs, int ninputs);

/* A new input: threads start over. 0, or -1 when out of memory. */
int	filter_start(struct filter *);

/*
 * One record of the input, in order, with the input's events. Returns
 * FILTER_PASS: write it now, after what filter_take() gives first;
 * FILTER_DROP: a SAMPLE outside, left out; FILTER_HELD: it waits (with
 * --comm, for its round, or behind a sample that does): filter_take()
 * gives it when its turn comes; -1 with *why set when the record cannot
 * be judged (too short, a filter on a field its event does not record,
 * out of memory).
 */
enum { FILTER_DROP, FILTER_PASS, FILTER_HELD };

int	filter_put(struct filter *, const struct pd_evlist *,
	    const struct pd_rec *, const char **why);

/*
 * The next record that waited and is to be written: 1 and *rec set
 * (valid until the next call), 0 when none is ready.
 */
int	filter_take(struct filter *, struct pd_rec *rec);

/* The end of an input: everything waiting is judged. */
void	filter_finish(struct filter *);

/* The samples seen and dropped since filter_start(). */
void	filter_counts(const struct filter *, uint64_t *seen,
	    uint64_t *dropped);

#endif /* PDCAT_FILTER_H */
