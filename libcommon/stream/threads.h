/* SPDX-License-Identifier: MIT */
/*
 * Samples counted by thread and by comm as `perf report --sort comm`
 * counts them: each sample is named by its thread's comm at the
 * sample's place in perf's delivery order, not by the thread's last
 * comm. perf applies COMM and FORK records and counts samples in
 * ordered-events order: at each FINISHED_ROUND it delivers, by time,
 * what is not later than the newest time of the round before (one
 * round late); records without a time go at once, where they stand.
 * The threads are perf's (machine.c): a FORK makes a new thread with
 * its parent's comm, a COMM renames a thread, and a thread's first
 * comm also names the samples it had before it (perf overrides the
 * ":tid" it started with); an EXIT keeps the thread.
 *
 * Only what the tables need waits: a sample's time, in a list of its
 * thread's, and the COMM and FORK records themselves; a thread whose
 * round holds no COMM or FORK of it is counted without looking at its
 * samples one by one. Nothing here prints.
 */
#ifndef PD_THREADS_H
#define PD_THREADS_H

#include <stddef.h>
#include <stdint.h>

struct pd_rec;
struct pd_threads;

/*
 * Threads tracked; the samples of later ones are counted apart
 * (pd_threads_untracked). Bounds the memory a stream can take.
 */
#define PD_THREADS_MAX	(1U << 15)

/* A new tracker, or NULL when out of memory. */
struct pd_threads	*pd_threads_new(void);
void			 pd_threads_free(struct pd_threads *);

/*
 * Every kernel record other than a SAMPLE, with its time (the
 * sample_id_all trailer's, pd_sample_rec_time(); 0 when it has none),
 * and every FINISHED_ROUND: COMM and FORK name threads, every timed
 * record moves perf's round limit. Returns 0, or -1 when out of memory
 * (the tables may then be short).
 */
int	pd_threads_record(struct pd_threads *, const struct pd_rec *,
	    uint64_t time);

/*
 * A sample of thread tid in process pid at `time` (0 or ~0: none, as
 * from an event without PERF_SAMPLE_TIME: counted at once). Returns 0,
 * or -1 when out of memory. Inline, below: it runs for every sample.
 */
static inline int	pd_threads_sample(struct pd_threads *, uint32_t pid,
			    uint32_t tid, uint64_t time);

/* The end of the input: counts everything still waiting. 0 or -1. */
int	pd_threads_end(struct pd_threads *);

/*
 * After pd_threads_end(): the n busiest processes (by pid, named as
 * their main thread is named at the end) or comms, most samples first,
 * then by name and pid. A thread never named is ":tid", as in perf;
 * the idle task (tid 0) is "swapper". Returns the number of rows
 * filled; the names live as long as the tracker.
 */
struct pd_threads_row {
	const char	*comm;
	uint32_t	 pid;		/* 0 in the comm table */
	uint64_t	 samples;
};

size_t	pd_threads_top_pids(struct pd_threads *, struct pd_threads_row *,
	    size_t n);
size_t	pd_threads_top_comms(struct pd_threads *, struct pd_threads_row *,
	    size_t n);

/*
 * For a tool that decides by a sample's comm (pdcat --comm), each
 * sample is judged when perf delivers it: at the FINISHED_ROUND its time
 * falls in, before that round is given to pd_threads_record(), or at
 * the end. pd_threads_due_next(), asked as the sample comes (after it is
 * given to pd_threads_record()), says whether that is the next round
 * (1) or the one after (0); pd_threads_seq() then is its place among
 * the COMM and FORK records. pd_threads_comm() is then the comm perf
 * gives the sample (thread__comm_str): the COMM and FORK records so far
 * applied in perf's delivery order up to (time, seq), a waiting one
 * when earlier by time, or by arrival at the same time. A sample
 * without a time (0 or ~0) goes out at once: only what went out
 * counts. ":tid" for a thread never named, "swapper" for tid 0. Writes
 * the name into buf, PD_THREADS_COMM_MAX bytes, and returns buf.
 */
#define PD_THREADS_COMM_MAX	24

int		 pd_threads_due_next(const struct pd_threads *, uint64_t time);
uint32_t	 pd_threads_seq(const struct pd_threads *);
const char	*pd_threads_comm(const struct pd_threads *, uint32_t tid,
		    uint64_t time, uint32_t seq, char *buf);

/* Samples of threads past PD_THREADS_MAX, in neither table. */
uint64_t	pd_threads_untracked(const struct pd_threads *);

/*
 * What pd_threads_sample() touches for a sample of a thread seen
 * lately, as pd_idmap_get() does for its map: the start of the tracker,
 * private otherwise. A lane per tid modulo PD_THREADS_LANES (the
 * threads that run on the CPUs at one time, which time-sorted streams
 * interleave) holds that thread's lists of waiting sample times: those
 * due at the next FINISHED_ROUND (time <= limit) and those due at the
 * one after. A full list (or an empty one of no room, in an unused
 * lane) takes the slow way.
 */
#define PD_THREADS_LANES	16

struct pd_threads_list {
	uint64_t	*time;
	uint32_t	 n, cap;
};

struct pd_threads_lane {
	uint32_t		 tid;
	struct pd_threads_list	*now, *later;
};

struct pd_threads_hot {
	uint64_t		 limit;		/* perf's next_flush */
	uint64_t		 max_ts;	/* newest time queued; 0: none */
	struct pd_threads_lane	 lane[PD_THREADS_LANES];
};

int	pd_threads_sample_slow(struct pd_threads *, uint32_t pid,
	    uint32_t tid, uint64_t time);

static inline int
pd_threads_sample(struct pd_threads *th, uint32_t pid, uint32_t tid,
    uint64_t time)
{
	struct pd_threads_hot *h = (struct pd_threads_hot *)(void *)th;
	struct pd_threads_lane *ln = &h->lane[tid % PD_THREADS_LANES];
	struct pd_threads_list *l;

	if (ln->tid != tid || time - 1 >= UINT64_MAX - 1)
		return pd_threads_sample_slow(th, pid, tid, time);
	if (time > h->max_ts)
		h->max_ts = time;
	l = time <= h->limit ? ln->now : ln->later;
	if (l->n == l->cap)
		return pd_threads_sample_slow(th, pid, tid, time);
	l->time[l->n++] = time;
	return 0;
}

#endif /* PD_THREADS_H */
