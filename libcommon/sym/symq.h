/* SPDX-License-Identifier: MIT */
/*
 * Names for samples, each at its own time, with records handed back in
 * stream order. perf record writes each CPU's buffer in turn, so a
 * process's COMM and MMAPs may come after its first samples; perf
 * script sorts by time (one FINISHED_ROUND late: ordered_events) before
 * it applies them. This queue does the same for the symbolizer's
 * state, and holds the records back only until the samples among them
 * are resolved: memory follows perf's rounds, not the stream.
 */
#ifndef PD_SYMQ_H
#define PD_SYMQ_H

#include <stddef.h>
#include <stdint.h>

#include "libcommon/sym/symbols.h"

struct pd_evlist;
struct pd_evsel;
struct pd_rec;
struct pd_sample;
struct pd_symq;
struct pd_unwind;

/* What a sample names, found at the sample's time. */
struct pd_symq_res {
	const char		*comm;		/* NULL: unknown */
	int			 has_ip;
	struct pd_symres	 ip;
	size_t			 nframes;	/* pd_sample_frames() */
	const struct pd_frame	*frames;
	const struct pd_symres	*syms;		/* one per frame */
	int			 bad;		/* the sample did not parse */
	int			 unwound;	/* frames from the unwinder: it
						   has user regs and stack */
};

/* A queue feeding `sy` (not owned). NULL when out of memory. */
struct pd_symq	*pd_symq_new(struct pd_syms *sy, const struct pd_evlist *el);
void		 pd_symq_free(struct pd_symq *);

/*
 * With an unwinder (unwind.h, not owned), a sample's frames are
 * pd_unwind_frames()'s, unwound at the sample's time; NULL: the
 * recorded ones.
 */
void	pd_symq_set_unwind(struct pd_symq *, struct pd_unwind *);

/*
 * Instead of names: each sample handed to `fn` as it comes due, in time
 * order, with the symbolizer in the state of the sample's time, for a
 * tool that resolves in bulk (pd_fold_add_frames). Set before the first
 * push. The queue then resolves nothing and hands nothing back
 * (pd_symq_next has none): a record waits only for its time. A sample
 * that does not parse is handed to fn with a NULL sample, and a NULL
 * event when no event has its id; rec->offset is its input offset.
 * 0, or -1 when out of memory (the queue is as it was).
 */
typedef void	(*pd_symq_fn)(void *ctx, const struct pd_evsel *,
		    const struct pd_rec *, const struct pd_sample *);

int	pd_symq_set_sample_fn(struct pd_symq *, pd_symq_fn, void *ctx);

/*
 * Takes a record (copied where it waits; the caller's is not kept).
 * Returns 0, or -1 when out of memory. Records the symbolizer cannot
 * use are counted (pd_symq_bad).
 */
int	pd_symq_push(struct pd_symq *, const struct pd_rec *);

/*
 * pd_symq_push for a tool that found the record's event and time
 * already, as pd_symq_push would: ev, pd_evlist_for_rec's in the
 * queue's evlist for a kernel record (NULL otherwise, or when none),
 * time, pd_sample_rec_time's with it (0: none). Each record's event is
 * then looked up once.
 */
int	pd_symq_push_at(struct pd_symq *, const struct pd_rec *,
	    const struct pd_evsel *ev, uint64_t time);

/*
 * The next record in stream order once every sample up to it has its
 * names: 1 and *rec (a copy, valid until the next call) with *res for
 * a SAMPLE (else NULL); 0 when none is ready (push more, or flush).
 */
int	pd_symq_next(struct pd_symq *, struct pd_rec *rec,
	    const struct pd_symq_res **res);

/* End of input (or a record that cannot wait): resolves everything. */
void	pd_symq_flush(struct pd_symq *);

/* Records pd_syms_record() refused so far. */
unsigned long	pd_symq_bad(const struct pd_symq *);

#endif /* PD_SYMQ_H */
