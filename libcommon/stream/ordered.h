/* SPDX-License-Identifier: MIT */
/*
 * perf's ordered-events queue (tools/perf/util/ordered-events.c, as
 * session.c drives it), the one every tool uses. Records with a time
 * wait here and are handed to a deliver callback oldest first, equal
 * times in the order they came, when a flush lets them out:
 *
 *  - FINISHED_ROUND (pd_ordered_round, OE_FLUSH__ROUND): every record
 *    not later than the round limit; the limit then becomes the newest
 *    time queued so far (max_timestamp). A round on an empty queue
 *    changes nothing.
 *  - max_timestamp starts afresh with the first record queued after the
 *    queue has emptied, so a late record then lowers it.
 *  - Over the memory cap (OE_FLUSH__HALF): the older half of the queued
 *    time span, from the oldest record to the last one queued; that
 *    half's end is the round limit until the next round. One departure
 *    from perf: the half also reaches the median record, so that times
 *    that decrease cannot make each half flush write one record.
 *  - End of input (pd_ordered_final, OE_FLUSH__FINAL): everything.
 *  - A record without a time (0 or all-ones) is not queued: the caller
 *    hands it on at once, where it stands, as perf does on -ETIME.
 *
 * Storage: with PD_ORDERED_COPY each record (header.size bytes) is
 * copied, as perf's copy_on_queue, into 64 KiB slabs that are reused
 * as soon as their records are out: nothing is allocated per record.
 * Without it the queue keeps the caller's pointer, which must stay
 * valid until delivered. The cap counts slabs and the index.
 */
#ifndef PD_ORDERED_H
#define PD_ORDERED_H

#include <stddef.h>
#include <stdint.h>

struct pd_ordered;

#define PD_ORDERED_COPY		0x1	/* copy records (else keep pointers) */

/* Which flush (perf's enum oe_flush). */
enum pd_ordered_how {
	PD_ORDERED_ROUND,
	PD_ORDERED_HALF,
	PD_ORDERED_FINAL
};

/*
 * Called with each record as it comes due: the queue's copy (valid for
 * the call) or the pointer queued. Returns 0 to go on, 1 to end the
 * flush after this record (the rest stay queued: a caller can take
 * them one at a time), -1 for an error, which ends the flush and is
 * returned by it. It must not call into the queue.
 */
typedef int	(*pd_ordered_deliver_fn)(void *ctx, void *rec, uint64_t ts);

/*
 * Called after a flush that delivered at least one record, before the
 * call that flushed returns (pdsort marks the round in its output).
 * 0 or -1, returned by that call.
 */
typedef int	(*pd_ordered_flushed_fn)(void *ctx, enum pd_ordered_how how);

/*
 * A queue of at most `cap` bytes (at least one record is always let
 * in), delivering to deliver(ctx, ...). flags: PD_ORDERED_COPY or 0.
 * NULL when out of memory.
 */
struct pd_ordered	*pd_ordered_new(uint64_t cap, unsigned flags,
			    pd_ordered_deliver_fn deliver, void *ctx);
void			 pd_ordered_free(struct pd_ordered *);

/* Sets the after-flush callback (NULL: none). */
void	pd_ordered_set_flushed(struct pd_ordered *, pd_ordered_flushed_fn);

/*
 * Queues record `rec` (native order) with time ts; when the cap is
 * reached it first delivers the older half. 0: queued; 1: ts is 0 or
 * all-ones, not queued (deliver it now); -1: a callback's error, or no
 * memory (errno ENOMEM).
 */
int	pd_ordered_queue(struct pd_ordered *, const void *rec, uint64_t ts);

/*
 * With PD_ORDERED_COPY: where the next record queued is copied to, when
 * a record of up to `max` bytes fits there now, else NULL. A caller that
 * builds its record there (pdsort's join) and queues that pointer saves
 * the copy; the bytes are the caller's until then (a record not queued
 * leaves them unused).
 */
void	*pd_ordered_room(struct pd_ordered *, size_t max);

/*
 * A merge's common case without a test repeated: pd_ordered_room when
 * the record's index slot is there too, so that nothing has to be made
 * room for; a record built there (of a time neither 0 nor UINT64_MAX)
 * is then queued for input `in` with pd_ordered_put_room_in (rec: the
 * room's pointer), which cannot fail. NULL: pd_ordered_queue_in, as usual.
 */
void	*pd_ordered_room_in(struct pd_ordered *, size_t max);
void	 pd_ordered_put_room_in(struct pd_ordered *, unsigned in,
	    const void *rec, uint64_t ts);

/*
 * Records queued where the caller's reader holds them (pd_reader_hold)
 * rather than copied. A buffer of `size` bytes is lent once:
 * pd_ordered_lend gives its number (-1: no memory, no copies, or the
 * buffers lent would take more than an eighth of the cap: copy the
 * records then), and counts it against the cap, whole, from then on.
 * A record in it is queued by its offset with pd_ordered_put_lent(_in),
 * when pd_ordered_lend_ok says that it can go in so now (an index slot
 * is there and the cap not passed) and its time is above
 * pd_ordered_out_upto (else: copy it). The caller knows that all of a
 * buffer's records are out, and that its reader may have it back, once
 * pd_ordered_out_upto has reached the highest time it queued there.
 */
int	pd_ordered_lend(struct pd_ordered *, const unsigned char *base,
	    size_t size);
int	pd_ordered_lend_ok(const struct pd_ordered *);
void	pd_ordered_put_lent(struct pd_ordered *, int lent, size_t off,
	    uint64_t ts);
void	pd_ordered_put_lent_in(struct pd_ordered *, unsigned in, int lent,
	    size_t off, uint64_t ts);

/*
 * The time up to which every record queued so far is out: the limit of
 * the highest flush that ran whole. A record queued later at or below
 * it is late (pd_ordered_late), and waits for the next flush.
 */
uint64_t	pd_ordered_out_upto(const struct pd_ordered *);

/* A FINISHED_ROUND. 0 or -1 (a callback's error). */
int	pd_ordered_round(struct pd_ordered *);

/*
 * Delivers everything (end of input). The queue may be used again: the
 * round limit is then the newest time delivered. 0 or -1.
 */
int	pd_ordered_final(struct pd_ordered *);

/*
 * Merging n inputs into the one queue (pdsort a b c): each input keeps
 * the round limit perf would keep for it alone (the newest time it had
 * queued at its previous round), and a record comes out once every
 * input still open has passed it, at the lowest of their limits. An
 * input that ends has passed every time. pd_ordered_inputs sets n up
 * (0 or -1: no memory); then records are queued with the input they
 * come from (same answers as pd_ordered_queue), its FINISHED_ROUNDs
 * given as pd_ordered_round_in, and its end as pd_ordered_end_in (the
 * queue empties when the last one ends). 0 or -1 (a callback's error,
 * no memory).
 */
int	pd_ordered_inputs(struct pd_ordered *, unsigned n);
int	pd_ordered_queue_in(struct pd_ordered *, unsigned in, const void *rec,
	    uint64_t ts);
int	pd_ordered_round_in(struct pd_ordered *, unsigned in);
int	pd_ordered_end_in(struct pd_ordered *, unsigned in);

/*
 * Input in's round limit (UINT64_MAX once it ended): a merge reads the
 * input whose limit is lowest, as nothing comes out before it moves.
 */
uint64_t	pd_ordered_limit_in(const struct pd_ordered *, unsigned in);

/* Records waiting. */
size_t		pd_ordered_count(const struct pd_ordered *);

/* Records queued below a time already delivered (perf's unordered). */
uint64_t	pd_ordered_late(const struct pd_ordered *);

/* How many times the cap forced a half flush. */
uint64_t	pd_ordered_half_flushes(const struct pd_ordered *);

#endif /* PD_ORDERED_H */
