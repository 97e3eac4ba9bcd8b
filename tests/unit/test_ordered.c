/* SPDX-License-Identifier: MIT */
/*
 * The ordered-events queue against perf's rules: a round delivers up to
 * the newest time of the round before; max_timestamp starts afresh once
 * the queue has emptied; over the cap the older half of the time span
 * goes (reaching the median record), and its end is the next round's
 * limit; the final flush delivers the rest; equal times keep their
 * arrival order, however many runs a batch has; records without a time
 * are not queued.
 */
#include "libcommon/stream/ordered.h"

#include <stdint.h>
#include <string.h>

#include "libcommon/stream/perf.h"
#include "tests/unit/t.h"

#define NMAX	64

/* What the callbacks saw. */
struct seen {
	uint64_t	ts[NMAX];
	uint64_t	id[NMAX];	/* copies: the record's id; refs: ptr */
	size_t		n;
	unsigned	flushes[3];	/* by enum pd_ordered_how */
	int		stop;		/* return 1 from deliver */
	int		copy;
};

static int
got(void *ctx, void *rec, uint64_t ts)
{
	struct seen *s = ctx;

	if (s->n < NMAX) {
		s->ts[s->n] = ts;
		s->id[s->n] = s->copy ? pd_get_u64((unsigned char *)rec + 8) :
		    (uint64_t)(uintptr_t)rec;
		/* A copy is whole: its last byte is its id's low byte. */
		if (s->copy && ((unsigned char *)rec)[pd_get_u16(
		    (unsigned char *)rec + 6) - 1] != (unsigned char)s->id[s->n])
			s->id[s->n] = UINT64_MAX;
	}
	s->n++;
	return s->stop;
}

static int
flushed(void *ctx, enum pd_ordered_how how)
{
	struct seen *s = ctx;

	s->flushes[how]++;
	return 0;
}

/* A record of `size` bytes carrying id at +8 and in its last byte. */
static const unsigned char *
rec(uint16_t size, uint64_t id)
{
	static unsigned char buf[8192];

	memset(buf, 0, size);
	pd_put_u32(buf, PERF_RECORD_SAMPLE);
	pd_put_u16(buf + 6, size);
	pd_put_u64(buf + 8, id);
	buf[size - 1] = (unsigned char)id;
	return buf;
}

/* Queues a 24-byte record with id and time. */
static int
put(struct pd_ordered *o, uint64_t id, uint64_t ts)
{
	return pd_ordered_queue(o, rec(24, id), ts);
}

/* Whether the times delivered since `from` are exactly want[0..n). */
static int
times_are(const struct seen *s, size_t from, const uint64_t *want, size_t n)
{
	size_t i;

	if (s->n - from != n)
		return 0;
	for (i = 0; i < n; i++)
		if (s->ts[from + i] != want[i])
			return 0;
	return 1;
}

/*
 * Rounds: the first delivers nothing (no limit yet), the next up to the
 * first one's newest time; a round on an empty queue changes nothing.
 * Equal times come out in the order they were queued.
 */
static void
test_rounds(void)
{
	static const uint64_t w1[] = { 5, 10, 10, 10 };
	static const uint64_t w2[] = { 20, 30, 40 };
	struct seen s = { .copy = 1 };
	struct pd_ordered *o;

	T((o = pd_ordered_new(1 << 20, PD_ORDERED_COPY, got, &s)) != NULL);
	if (o == NULL)
		return;
	pd_ordered_set_flushed(o, flushed);
	T(put(o, 1, 10) == 0);
	T(put(o, 2, 10) == 0);
	T(put(o, 3, 5) == 0);
	T(put(o, 4, 10) == 0);
	T(pd_ordered_count(o) == 4);
	T(pd_ordered_round(o) == 0);
	T(s.n == 0 && s.flushes[PD_ORDERED_ROUND] == 0);
	T(put(o, 5, 30) == 0);
	T(put(o, 6, 20) == 0);
	T(pd_ordered_round(o) == 0);
	T(times_are(&s, 0, w1, 4));
	/* Stable: the three at 10 in the order they came. */
	T(s.id[1] == 1 && s.id[2] == 2 && s.id[3] == 4 && s.id[0] == 3);
	T(s.flushes[PD_ORDERED_ROUND] == 1);
	T(put(o, 7, 40) == 0);
	T(pd_ordered_round(o) == 0);	/* up to 30 */
	T(pd_ordered_round(o) == 0);	/* up to 40 */
	T(times_are(&s, 4, w2, 3));
	T(pd_ordered_count(o) == 0);
	/* Nothing queued: no flush, no new limit. */
	T(pd_ordered_round(o) == 0);
	T(s.flushes[PD_ORDERED_ROUND] == 3);
	T(pd_ordered_late(o) == 0);
	pd_ordered_free(o);
}

/*
 * max_timestamp starts afresh when the queue has emptied: late records
 * (50, 60) after a round that emptied it make the next limit 60, not
 * 100, so 80 and 90 wait a round and the late 70 comes before them.
 * (A queue that kept 100 would deliver 80, 90, then 70.)
 */
static void
test_reset(void)
{
	static const uint64_t w1[] = { 50, 60 };
	static const uint64_t w2[] = { 70, 80, 90 };
	struct seen s = { .copy = 1 };
	struct pd_ordered *o;

	T((o = pd_ordered_new(1 << 20, PD_ORDERED_COPY, got, &s)) != NULL);
	if (o == NULL)
		return;
	T(put(o, 1, 100) == 0);
	T(pd_ordered_round(o) == 0);
	T(pd_ordered_round(o) == 0);
	T(s.n == 1 && s.ts[0] == 100 && pd_ordered_count(o) == 0);
	T(put(o, 2, 50) == 0);
	T(put(o, 3, 60) == 0);
	T(pd_ordered_round(o) == 0);	/* up to 100 */
	T(times_are(&s, 1, w1, 2));
	T(put(o, 4, 80) == 0);
	T(put(o, 5, 90) == 0);
	T(pd_ordered_round(o) == 0);	/* up to 60: nothing */
	T(s.n == 3);
	T(put(o, 6, 70) == 0);
	T(pd_ordered_round(o) == 0);	/* up to 90 */
	T(times_are(&s, 3, w2, 3));
	/* 50 and 60 came after 100 was out; 70 was not late. */
	T(pd_ordered_late(o) == 2);
	pd_ordered_free(o);
}

/*
 * Over a cap of one slab, the 17th record of 4 KiB needs a second one:
 * first the older half of the time span goes. Times 1..15 and 1000:
 * the half ends at 500, so 15 records go (a half by count would send
 * 8), and 500 is the next round's limit: 400 goes at that round, 1000
 * and 2000 only at the end.
 */
static void
test_half(void)
{
	static const uint64_t w2[] = { 400 };
	static const uint64_t w3[] = { 1000, 2000 };
	struct seen s = { .copy = 1 };
	struct pd_ordered *o;
	uint64_t i;

	T((o = pd_ordered_new(1, PD_ORDERED_COPY, got, &s)) != NULL);
	if (o == NULL)
		return;
	pd_ordered_set_flushed(o, flushed);
	for (i = 1; i <= 15; i++)
		T(pd_ordered_queue(o, rec(4096, i), i) == 0);
	T(pd_ordered_queue(o, rec(4096, 16), 1000) == 0);
	T(s.n == 0 && pd_ordered_half_flushes(o) == 0);
	T(pd_ordered_queue(o, rec(4096, 17), 2000) == 0);
	T(pd_ordered_half_flushes(o) == 1);
	T(s.flushes[PD_ORDERED_HALF] == 1);
	T(s.n == 15);
	for (i = 0; i < 15 && i < s.n; i++)
		T(s.ts[i] == i + 1 && s.id[i] == i + 1);
	T(pd_ordered_count(o) == 2);
	T(pd_ordered_queue(o, rec(4096, 18), 400) == 0);
	T(pd_ordered_round(o) == 0);
	T(times_are(&s, 15, w2, 1));
	T(pd_ordered_final(o) == 0);
	T(times_are(&s, 16, w3, 2));
	T(s.id[16] == 16 && s.id[17] == 17);
	T(s.flushes[PD_ORDERED_FINAL] == 1);
	T(pd_ordered_late(o) == 0);
	pd_ordered_free(o);
}

/*
 * Times that only decrease: the span's older half is the last record
 * alone, but the half reaches the median, so half the queue goes.
 */
static void
test_half_median(void)
{
	struct seen s = { .copy = 1 };
	struct pd_ordered *o;
	uint64_t i;

	T((o = pd_ordered_new(1, PD_ORDERED_COPY, got, &s)) != NULL);
	if (o == NULL)
		return;
	for (i = 0; i < 16; i++)
		T(pd_ordered_queue(o, rec(4096, i), 100 - i) == 0);
	T(pd_ordered_queue(o, rec(4096, 16), 50) == 0);
	T(pd_ordered_half_flushes(o) == 1);
	T(s.n == 8);
	for (i = 0; i < 8 && i < s.n; i++)
		T(s.ts[i] == 85 + i);
	T(pd_ordered_final(o) == 0);
	T(s.n == 17);
	/* 50 came after 92 was out. */
	T(pd_ordered_late(o) == 1);
	pd_ordered_free(o);
}

/*
 * Without copies the pointers come back as queued; a callback that
 * answers 1 takes them one at a time; no time: not queued.
 */
static void
test_refs(void)
{
	static int objs[5];
	struct seen s = { .stop = 1 };
	struct pd_ordered *o;
	int i;

	T((o = pd_ordered_new(1 << 20, 0, got, &s)) != NULL);
	if (o == NULL)
		return;
	T(pd_ordered_queue(o, &objs[0], 0) == 1);
	T(pd_ordered_queue(o, &objs[0], UINT64_MAX) == 1);
	T(pd_ordered_count(o) == 0);
	for (i = 0; i < 5; i++)
		T(pd_ordered_queue(o, &objs[i], 50 - 10 * i) == 0);
	for (i = 0; i < 5; i++) {
		T(pd_ordered_final(o) == 0);
		T(s.n == (size_t)i + 1);
		T(s.id[i] == (uint64_t)(uintptr_t)&objs[4 - i]);
		T(pd_ordered_count(o) == (size_t)(4 - i));
	}
	T(pd_ordered_final(o) == 0);
	T(s.n == 5);
	pd_ordered_free(o);
}

/*
 * Records built in pd_ordered_room's space come out as those copied in
 * from elsewhere, also when making room for them flushes half the queue
 * and compacts the slabs under them (a cap of one slab, times that jump
 * back and forth): the same times, ids and whole bytes, in the same order.
 */
static void
test_room(void)
{
	struct seen a = { .copy = 1 }, b = { .copy = 1 };
	struct pd_ordered *qa, *qb;
	unsigned char *p;
	uint64_t i, ts;
	size_t used = 0;
	uint16_t size;

	T((qa = pd_ordered_new(1, PD_ORDERED_COPY, got, &a)) != NULL);
	T((qb = pd_ordered_new(1, PD_ORDERED_COPY, got, &b)) != NULL);
	if (qa == NULL || qb == NULL)
		return;
	for (i = 0; i < 60; i++) {
		ts = 1000 + (i * 37) % 101;
		size = 24 + 8 * (i * 13 % 500);
		if ((p = pd_ordered_room(qa, size + 48)) != NULL) {
			memcpy(p, rec(size, i), size);
			used++;
			T(pd_ordered_queue(qa, p, ts) == 0);
		} else {
			T(pd_ordered_queue(qa, rec(size, i), ts) == 0);
		}
		T(pd_ordered_queue(qb, rec(size, i), ts) == 0);
		if (i % 7 == 6) {
			T(pd_ordered_round(qa) == 0);
			T(pd_ordered_round(qb) == 0);
		}
	}
	T(pd_ordered_final(qa) == 0);
	T(pd_ordered_final(qb) == 0);
	T(used > 30);
	T(pd_ordered_half_flushes(qa) > 0);
	T(a.n == 60 && b.n == 60);
	T(memcmp(a.ts, b.ts, sizeof(a.ts)) == 0);
	T(memcmp(a.id, b.id, sizeof(a.id)) == 0);
	for (i = 0; i < 60; i++)
		T(a.id[i] != UINT64_MAX);
	pd_ordered_free(qa);
	pd_ordered_free(qb);
}

/* A lent record queued, when the queue says it may be. */
static int
lend(struct pd_ordered *o, unsigned in, int l, size_t off, uint64_t ts)
{
	if (!pd_ordered_lend_ok(o))
		return 0;
	pd_ordered_put_lent_in(o, in, l, off, ts);
	return 1;
}

/*
 * Lent records (pdsort's merge, from a reader's held buffer) come out
 * from where they lie, in time order among copies, for the input they
 * were queued for; pd_ordered_out_upto follows the flushes that ran
 * whole, and once it reaches a lent record's time that record is out.
 * A lent buffer counts against the cap, whole; buffers of more than an
 * eighth of the cap are not taken.
 */
static void
test_lent(void)
{
	static unsigned char lent[4096], big[32 << 10];
	struct seen s = { .copy = 1 };
	struct pd_ordered *o;
	uint64_t id;
	int l;

	T((o = pd_ordered_new(1 << 20, PD_ORDERED_COPY, got, &s)) != NULL);
	if (o == NULL)
		return;
	T(pd_ordered_inputs(o, 2) == 0);
	T((l = pd_ordered_lend(o, lent, sizeof(lent))) == 0);
	for (id = 0; id < 4; id++)
		memcpy(lent + 32 * id, rec(32, 100 + id), 32);
	/* No index slot before the first record queued: no lending. */
	T(!pd_ordered_lend_ok(o));
	T(pd_ordered_queue_in(o, 1, rec(24, 7), 20) == 0);
	T(pd_ordered_out_upto(o) == 0);
	T(lend(o, 0, l, 0, 10) && lend(o, 0, l, 32, 30));
	T(lend(o, 1, l, 64, 25));
	T(pd_ordered_round_in(o, 0) == 0 && pd_ordered_round_in(o, 1) == 0);
	T(s.n == 0);
	/* Input 0 says 30, input 1 says 25: out up to 25. */
	T(lend(o, 0, l, 96, 40));
	T(pd_ordered_round_in(o, 0) == 0);
	T(pd_ordered_round_in(o, 1) == 0);
	T(s.n == 3 && s.ts[0] == 10 && s.ts[1] == 20 && s.ts[2] == 25);
	T(s.id[0] == 100 && s.id[1] == 7 && s.id[2] == 102);
	T(pd_ordered_out_upto(o) == 25);
	T(pd_ordered_final(o) == 0);
	T(s.n == 5 && s.id[3] == 101 && s.id[4] == 103);
	T(pd_ordered_out_upto(o) == UINT64_MAX);
	pd_ordered_free(o);

	/* Buffers over an eighth of the cap are not taken. */
	T((o = pd_ordered_new(8 * sizeof(big), PD_ORDERED_COPY, got,
	    &s)) != NULL);
	T(pd_ordered_lend(o, big, sizeof(big)) == 0);
	T(pd_ordered_lend(o, lent, sizeof(lent)) == -1);
	pd_ordered_free(o);

	/* Without copies nothing is lent. */
	T((o = pd_ordered_new(1 << 20, 0, got, &s)) != NULL);
	if (o != NULL)
		T(pd_ordered_lend(o, lent, sizeof(lent)) == -1);
	pd_ordered_free(o);
}

/* What a batch test saw: times in order, equal times in arrival order. */
struct order {
	uint64_t	n, bad;
	uint64_t	last_ts, last_id;
};

static int
in_order(void *ctx, void *rec, uint64_t ts)
{
	struct order *s = ctx;
	uint64_t id = pd_get_u64((unsigned char *)rec + 8);

	if (s->n > 0 && (ts < s->last_ts ||
	    (ts == s->last_ts && id < s->last_id)))
		s->bad++;
	s->n++;
	s->last_ts = ts;
	s->last_id = id;
	return 0;
}

/*
 * A batch of `runs` rising runs (as per-CPU ring buffers give), their
 * times shared between runs: sorted stably whether the queue kept where
 * the runs start or had more than it keeps and looked for them, with an
 * odd or an even number of runs, and runs of one record.
 */
static void
test_runs(void)
{
	static const unsigned nruns[] = { 1, 2, 3, 5, 64, 65, 66, 67, 200 };
	struct pd_ordered *o;
	struct order s;
	uint64_t id, k, len;
	unsigned i, r;

	for (i = 0; i < sizeof(nruns) / sizeof(nruns[0]); i++) {
		memset(&s, 0, sizeof(s));
		T((o = pd_ordered_new(1 << 24, PD_ORDERED_COPY, in_order,
		    &s)) != NULL);
		if (o == NULL)
			return;
		id = 0;
		for (r = 0; r < nruns[i]; r++) {
			len = r % 4 == 3 ? 1 : 3 + r % 7;
			for (k = 0; k < len; k++)
				T(put(o, id++, 100 + (r % 3) + 2 * k) == 0);
		}
		T(pd_ordered_final(o) == 0);
		T(s.n == id && s.bad == 0);
		pd_ordered_free(o);
	}
}

int
main(void)
{
	test_rounds();
	test_reset();
	test_half();
	test_half_median();
	test_refs();
	test_room();
	test_lent();
	test_runs();
	return T_END();
}
