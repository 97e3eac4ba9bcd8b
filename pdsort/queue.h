/* SPDX-License-Identifier: MIT */
/*
 * pdsort's ordered-events queue (perf's util/ordered-events.c rules):
 * timestamped records are copied in, and come out oldest first, stable
 * for equal timestamps, when a flush allows them.
 */
#ifndef PDSORT_QUEUE_H
#define PDSORT_QUEUE_H

#include <stddef.h>
#include <stdint.h>

struct pd_writer;
struct sq;

/*
 * A queue that writes flushed records to `w` and holds at most `cap`
 * bytes (record copies and index together; at least one slab is always
 * allowed). NULL: out of memory.
 */
struct sq	*sq_new(struct pd_writer *w, uint64_t cap);
void		 sq_free(struct sq *);

/*
 * Copies record `p` (header.size bytes, native order) with timestamp ts
 * (neither 0 nor all-ones) into the queue. When the cap would be
 * exceeded it first writes the older half of the queued time span
 * (perf's OE_FLUSH__HALF). 0, or -1 on a write error (errno set) or no
 * memory (errno ENOMEM).
 */
int	sq_queue(struct sq *, const unsigned char *p, uint64_t ts);

/*
 * A FINISHED_ROUND: writes every record with ts <= the largest timestamp
 * queued up to the previous round, then remembers the current largest.
 * 0 or -1 (write error).
 */
int	sq_round(struct sq *);

/* End of input: writes everything. 0 or -1 (write error). */
int	sq_final(struct sq *);

/* Records queued below a timestamp already written (perf's unordered). */
uint64_t	sq_late(const struct sq *);

/* How many times the cap forced an early (half) flush. */
uint64_t	sq_half_flushes(const struct sq *);

#endif /* PDSORT_QUEUE_H */
