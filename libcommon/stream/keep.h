/* SPDX-License-Identifier: MIT */
/*
 * Queueing records where their reader read them, rather than copying
 * them into the queue (pdsort, alone or merging): the reader holds the
 * buffer a record lies in (pd_reader_hold), the queue keeps the record
 * there (pd_ordered_lend), and the buffer goes back to the reader once
 * every record queued in it is out. That is known without counting
 * them: the newest time queued in each buffer is kept, and the queue
 * says up to which time everything is out (pd_ordered_out_upto); a
 * record at or below that time (a late one) is copied instead, as it
 * could otherwise still be queued when its buffer goes back.
 */
#ifndef PD_KEEP_H
#define PD_KEEP_H

#include <stddef.h>
#include <stdint.h>

#include "libcommon/stream/ordered.h"
#include "libcommon/stream/reader.h"
#include "libcommon/stream/record.h"

/*
 * One input's buffers as kept in one queue. The reader and the queue
 * are the caller's arguments, not kept here: a caller's loop has them
 * at hand.
 */
struct pd_keep {
	int			 on;		/* 0: copy every record */
	int			 lent[PD_READER_HOLD_BUFS]; /* -1: not yet */
	uint64_t		 newest[PD_READER_HOLD_BUFS];
};

/* Where pd_keep_hold found a record. */
struct pd_keep_at {
	unsigned char	*p;		/* its bytes, the caller's to change */
	int		 lent;		/* the buffer's number in the queue */
	unsigned	 buf;		/* its number in the reader */
	size_t		 off;
};

void	pd_keep_init(struct pd_keep *);

/* Buffer buf was not lent (a small cap): copies from now on. */
void	pd_keep_off(struct pd_keep *, struct pd_reader *rd, unsigned buf);

/*
 * Whether record rec (just read) can be changed and queued where it
 * is: 1 (at says where), or 0: copy it. Inline, as pd_keep_queue: they
 * run for most records.
 */
static inline __attribute__((always_inline)) int
pd_keep_hold(struct pd_keep *k, struct pd_ordered *q, struct pd_reader *rd,
    const struct pd_rec *rec, struct pd_keep_at *at)
{
	if (!k->on || !pd_ordered_lend_ok(q) ||
	    (at->p = pd_reader_hold(rd, rec, &at->buf, &at->off)) == NULL)
		return 0;
	if (__builtin_expect(k->lent[at->buf] < 0, 0) &&
	    (k->lent[at->buf] = pd_ordered_lend(q, at->p - at->off,
	    PD_READER_BUF_SIZE)) < 0) {
		pd_keep_off(k, rd, at->buf);
		return 0;
	}
	at->lent = k->lent[at->buf];
	return 1;
}

/*
 * Queues the record held at `at` with time ts (neither 0 nor
 * all-ones), for a merge's input `in` with pd_keep_queue_in: 0, or -1
 * with errno (a copy, of a late record, could not be queued: ENOMEM or
 * a callback's error).
 */
static inline __attribute__((always_inline)) int
pd_keep_queue(struct pd_keep *k, struct pd_ordered *q,
    const struct pd_keep_at *at, uint64_t ts)
{
	if (__builtin_expect(ts <= pd_ordered_out_upto(q), 0))
		return pd_ordered_queue(q, at->p, ts) < 0 ? -1 : 0;
	pd_ordered_put_lent(q, at->lent, at->off, ts);
	if (ts > k->newest[at->buf])
		k->newest[at->buf] = ts;
	return 0;
}

static inline __attribute__((always_inline)) int
pd_keep_queue_in(struct pd_keep *k, struct pd_ordered *q, unsigned in,
    const struct pd_keep_at *at, uint64_t ts)
{
	if (__builtin_expect(ts <= pd_ordered_out_upto(q), 0))
		return pd_ordered_queue_in(q, in, at->p, ts) < 0 ? -1 : 0;
	pd_ordered_put_lent_in(q, in, at->lent, at->off, ts);
	if (ts > k->newest[at->buf])
		k->newest[at->buf] = ts;
	return 0;
}

/* Gives the reader back the buffers whose records are all out. */
void	pd_keep_give_back(struct pd_keep *, struct pd_ordered *q,
	    struct pd_reader *rd);

#endif /* PD_KEEP_H */
