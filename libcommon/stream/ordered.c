/* SPDX-License-Identifier: MIT */
/*
 * The ordered-events queue. Copies go into 64 KiB slabs that are never
 * freed one record at a time: a slab counts its live records and goes
 * back to a free list when the last one is out, so there is no
 * allocation per record and memory is reused as soon as a round is out.
 *
 * The index is two arrays of {timestamp, where}: `q`, sorted, the
 * records a flush left behind (from q[qh] on), and `batch`, the
 * arrivals since, in arrival order. perf keeps one sorted list and
 * inserts with a hint; here a flush sorts the batch (it is a few long
 * runs, one per CPU ring buffer pass, which put() notes as they come,
 * so a merge sort takes a pass or two) and merges it with `q`, taking
 * each source's stretches of records whole, delivering the head up to the
 * flush limit and keeping the rest as the new `q`. Both steps are
 * stable and `q` is older than the batch, so records with equal
 * timestamps keep their arrival order, as in perf. A flush with
 * nothing due (a merge's round of an input that does not hold the
 * others back: every other one) leaves its sorted batch waiting after
 * q, to be merged three ways at the next flush that delivers, rather
 * than merge all of q again for no record out.
 */
#include "libcommon/stream/ordered.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "libcommon/stream/event.h"
#include "libcommon/stream/perf.h"

#define SLAB		65536	/* holds the largest record, 65535 + pad */
#define IDX_MIN		1024	/* first index array size, in entries */
#define RUNS_MAX	64	/* batch runs told to sort_batch */

struct qent {
	uint64_t	ts;
	union {
		struct {
			uint32_t slab;
			uint32_t off;
		} at;			/* PD_ORDERED_COPY */
		void	*ref;		/* otherwise */
	} u;
};

struct slab {
	unsigned char	*mem;
	uint32_t	 live;		/* queued records in it */
	int32_t		 next;		/* free list link */
};

/*
 * A buffer lent by the caller (pd_ordered_lend): its records are queued
 * where they are, the qent's slab being LENT | its number, and the
 * caller knows when they are out by pd_ordered_out_upto.
 */
#define LENT		0x80000000u

/* An input of a merge: perf's round state, for it alone. */
struct input {
	uint64_t	 max_ts;	/* newest time queued */
	uint64_t	 next;		/* max_ts at the previous round */
	uint64_t	 limit;		/* what may come out of it */
};

struct pd_ordered {
	pd_ordered_deliver_fn	 deliver;
	pd_ordered_flushed_fn	 flushed;
	void			*ctx;
	int			 copy;		/* PD_ORDERED_COPY */
	uint64_t		 cap;
	uint64_t		 charged;	/* slabs and index arrays */

	struct slab		*slabs;
	uint32_t		 nslabs, slabs_cap;
	int32_t			 free;		/* free list head, -1: empty */
	int32_t			 cur;		/* slab being filled, -1: none */
	uint32_t		 fill;

	struct qent		*q, *q2, *batch, *tmp;
	size_t			 qh, nq;	/* q[qh] .. q[qh + nq - 1] */
	/*
	 * A sorted batch that came to a flush with nothing due, waiting
	 * right after q (q[qh + nq] ..) for the next flush that delivers,
	 * instead of being merged with q for no record out.
	 */
	size_t			 np;
	size_t			 nbatch;
	/*
	 * Where the batch's runs start (a time lower than the one before),
	 * seen as records come, so that sort_batch need not look for them
	 * (more than RUNS_MAX: it does).
	 */
	size_t			 runs[RUNS_MAX];
	size_t			 nruns;
	size_t			 cap_q, cap_q2, cap_batch; /* tmp: cap_batch */
	/*
	 * Records that can still be queued with no index array grown: the
	 * tests of the common cases in one (set_free; put_index takes one).
	 */
	size_t			 free_slots;

	uint64_t		 max_ts;	/* perf's max_timestamp */
	uint64_t		 next_flush;	/* the round limit */
	uint64_t		 last_flush;	/* last time delivered */
	uint64_t		 last_ts;	/* perf's last: see flush() */
	uint64_t		 late;
	uint64_t		 halves;

	struct input		*in;		/* a merge's inputs */
	unsigned		 nin;

	const unsigned char	**lent;		/* lent buffers' bases */
	uint32_t		 nlent, lent_cap;
	uint64_t		 lent_size;	/* their bytes, all */
	uint64_t		 out_upto;	/* pd_ordered_out_upto */

	/*
	 * A record built in pd_ordered_room's space, kept here while
	 * reserve_slow may flush and compact the slabs under it.
	 */
	unsigned char		*bounce;
};

struct pd_ordered *
pd_ordered_new(uint64_t cap, unsigned flags, pd_ordered_deliver_fn deliver,
    void *ctx)
{
	struct pd_ordered *o;

	if ((o = calloc(1, sizeof(*o))) == NULL)
		return NULL;
	o->deliver = deliver;
	o->ctx = ctx;
	o->copy = (flags & PD_ORDERED_COPY) != 0;
	o->cap = cap;
	o->free = o->cur = -1;
	return o;
}

void
pd_ordered_free(struct pd_ordered *o)
{
	uint32_t i;

	if (o == NULL)
		return;
	for (i = 0; i < o->nslabs; i++)
		free(o->slabs[i].mem);
	free(o->slabs);
	free(o->q);
	free(o->q2);
	free(o->batch);
	free(o->tmp);
	free(o->in);
	free(o->lent);
	free(o->bounce);
	free(o);
}

void
pd_ordered_set_flushed(struct pd_ordered *o, pd_ordered_flushed_fn fn)
{
	o->flushed = fn;
}

/* Records queued: in q, waiting after it, in the batch. */
static inline size_t
queued(const struct pd_ordered *o)
{
	return o->nq + o->np + o->nbatch;
}

size_t
pd_ordered_count(const struct pd_ordered *o)
{
	return queued(o);
}

/*
 * free_slots anew, after the index arrays or what they hold changed.
 * q2 may be short of what is queued after a flush swapped it with q.
 */
static void
set_free(struct pd_ordered *o)
{
	size_t b = o->cap_batch - o->nbatch, n = queued(o);
	size_t q = o->cap_q2 > n ? o->cap_q2 - n : 0;

	o->free_slots = b < q ? b : q;
}

uint64_t
pd_ordered_late(const struct pd_ordered *o)
{
	return o->late;
}

uint64_t
pd_ordered_half_flushes(const struct pd_ordered *o)
{
	return o->halves;
}

static size_t
grow_to(size_t cap, size_t need)
{
	size_t c = cap ? cap : IDX_MIN;

	while (c < need)
		c *= 2;
	return c;
}

static int
resize(struct qent **a, size_t *cap, size_t ncap, uint64_t *charged)
{
	struct qent *n;

	if (ncap <= *cap)
		return 0;
	if ((n = realloc(*a, ncap * sizeof(*n))) == NULL)
		return -1;
	*charged += (ncap - *cap) * sizeof(*n);
	*a = n;
	*cap = ncap;
	return 0;
}

static void
release(struct pd_ordered *o, uint32_t i)
{
	struct slab *sl = &o->slabs[i];

	if (--sl->live > 0)
		return;
	if ((int32_t)i == o->cur) {
		o->fill = 0;
	} else {
		sl->next = o->free;
		o->free = i;
	}
}

/* End of the non-decreasing run that starts at a[i]. */
static size_t
run_end(const struct qent *a, size_t i, size_t n)
{
	for (i++; i < n && a[i - 1].ts <= a[i].ts; i++)
		;
	return i;
}

/*
 * Sorts the batch by timestamp, stably, finding its runs: merges
 * neighbouring runs into tmp, then back, until one run is left.
 */
static void
scan_sort(struct pd_ordered *o)
{
	struct qent *a = o->batch, *b = o->tmp, *t;
	size_t n = o->nbatch, i, m, e, x, y, k, runs;

	if (n == 0 || run_end(a, 0, n) == n)
		return;
	do {
		runs = 0;
		for (i = 0; i < n; i = e) {
			runs++;
			m = run_end(a, i, n);
			if (m == n) {
				memcpy(b + i, a + i, (n - i) * sizeof(*a));
				break;
			}
			e = run_end(a, m, n);
			for (x = i, y = m, k = i; x < m && y < e; k++)
				b[k] = a[y].ts < a[x].ts ? a[y++] : a[x++];
			memcpy(b + k, a + x, (m - x) * sizeof(*a));
			k += m - x;
			memcpy(b + k, a + y, (e - y) * sizeof(*a));
		}
		t = a;
		a = b;
		b = t;
	} while (runs > 1);
	o->batch = a;
	o->tmp = b;
}

/*
 * Sorts the batch as scan_sort does, by the runs put() saw: no pass
 * looks for them. A pass merges the run ending at end[r] with the next
 * one (the last one ends at n); the merged runs' ends are every other.
 */
static void
sort_batch(struct pd_ordered *o)
{
	struct qent *a = o->batch, *b = o->tmp, *t;
	size_t n = o->nbatch, i, r, m, e, x, y, k, nend = o->nruns;
	size_t *end = o->runs;

	if (nend > RUNS_MAX) {
		o->nruns = 0;
		scan_sort(o);
		return;
	}
	while (nend > 0) {
		for (i = 0, r = 0; r < nend; r += 2, i = e) {
			m = end[r];
			e = r + 1 < nend ? end[r + 1] : n;
			for (x = i, y = m, k = i; x < m && y < e; k++)
				b[k] = a[y].ts < a[x].ts ? a[y++] : a[x++];
			memcpy(b + k, a + x, (m - x) * sizeof(*a));
			k += m - x;
			memcpy(b + k, a + y, (e - y) * sizeof(*a));
			end[r / 2] = e;
		}
		/* A last run left without a partner. */
		memcpy(b + i, a + i, (n - i) * sizeof(*a));
		nend /= 2;
		t = a;
		a = b;
		b = t;
	}
	o->nruns = 0;
	o->batch = a;
	o->tmp = b;
}

/* The bytes a queued record takes, padded. */
static inline uint32_t
padded(const void *rec)
{
	return (pd_header_size(rec) + 7u) & ~7u;
}

/* Hands one record to the callback and frees its place. */
static inline int
emit(struct pd_ordered *o, const struct qent *e)
{
	int r;

	if (!o->copy)
		return o->deliver(o->ctx, e->u.ref, e->ts);
	if (e->u.at.slab & LENT)
		return o->deliver(o->ctx, (void *)(o->lent[e->u.at.slab &
		    ~LENT] + e->u.at.off), e->ts);
	r = o->deliver(o->ctx, o->slabs[e->u.at.slab].mem + e->u.at.off,
	    e->ts);
	release(o, e->u.at.slab);
	return r;
}

/*
 * The three sorted sources of a flush, oldest arrivals first: q, the
 * waiting batch, the batch. Of equal times the earlier source's record
 * goes first (perf's order of arrival).
 */
enum { SRC_Q, SRC_WAIT, SRC_BATCH, NSRC };

struct run {
	const struct qent	*v;
	size_t			 i, n;
};

/*
 * The source whose head goes next, and the time up to which its
 * records go before any other source's (what a flush mostly meets is
 * long stretches from one source: each then costs one test a record);
 * -1 when all are empty.
 */
static inline int
next_run(const struct run *s, uint64_t *upto)
{
	uint64_t t[NSRC], u, m = UINT64_MAX;
	int k, w = 0;

	/* UINT64_MAX for an empty one: no queued record has that time. */
	for (k = 0; k < NSRC; k++)
		t[k] = s[k].i < s[k].n ? s[k].v[s[k].i].ts : UINT64_MAX;
	if (t[1] < t[w])
		w = 1;
	if (t[2] < t[w])
		w = 2;
	if (t[w] == UINT64_MAX)
		return -1;
	for (k = 0; k < NSRC; k++) {
		if (k == w)
			continue;
		/* An earlier source's record of the same time goes first. */
		u = k < w ? t[k] - 1 : t[k];
		if (u < m)
			m = u;
	}
	*upto = m;
	return w;
}

/* Merges sorted x and y (x first on equal times) to out[*k ..]. */
static void
merge2(struct qent *out, size_t *k, struct run *x, struct run *y)
{
	const struct qent *a = x->v, *b = y->v;
	size_t i = x->i, j = y->i, n = *k;

	while (i < x->n && j < y->n)
		out[n++] = b[j].ts < a[i].ts ? b[j++] : a[i++];
	/* Loops, not memcpy: the arrays are NULL before the first record. */
	for (; i < x->n; i++)
		out[n++] = a[i];
	for (; j < y->n; j++)
		out[n++] = b[j];
	x->i = i;
	y->i = j;
	*k = n;
}

/*
 * Delivers the records of q, the waiting batch and the (sorted) batch
 * with ts <= limit, oldest first, until the callback stops it, and
 * merges what is left into q. *n: how many went. Returns the callback's
 * last answer (0, 1: stopped, -1), or -1 with ENOMEM.
 */
static int
merge_all(struct pd_ordered *o, uint64_t limit, uint64_t *n)
{
	struct run s[NSRC];
	const struct qent *v;
	struct qent *out, *t;
	size_t na = o->nq, np = o->np, nb = o->nbatch;
	size_t i, k = 0, c;
	uint64_t last = o->last_flush, upto;
	int r = 0, w;

	/* No arithmetic on q while it may be NULL (before the first flush). */
	s[SRC_Q].v = na + np > 0 ? o->q + o->qh : o->q;
	s[SRC_WAIT].v = na + np > 0 ? s[SRC_Q].v + na : s[SRC_Q].v;
	s[SRC_BATCH].v = o->batch;
	s[SRC_Q].n = na;
	s[SRC_WAIT].n = np;
	s[SRC_BATCH].n = nb;
	s[SRC_Q].i = s[SRC_WAIT].i = s[SRC_BATCH].i = 0;
	/*
	 * Appends keep q2 large enough for everything queued, but a flush
	 * swaps q and q2, and a half flush may come before the next append.
	 */
	if (o->cap_q2 < na + np + nb && resize(&o->q2, &o->cap_q2,
	    grow_to(o->cap_q2, na + np + nb), &o->charged) < 0) {
		errno = ENOMEM;
		return -1;
	}
	out = o->q2;
	while (r == 0 && (w = next_run(s, &upto)) >= 0) {
		if (upto > limit)
			upto = limit;
		v = s[w].v;
		i = s[w].i;
		if (v[i].ts > upto)
			break;
		do {
			last = v[i].ts;
			r = emit(o, &v[i++]);
		} while (r == 0 && i < s[w].n && v[i].ts <= upto);
		s[w].i = i;
	}
	o->last_flush = last;
	*n = s[SRC_Q].i + s[SRC_WAIT].i + s[SRC_BATCH].i;
	/* The rest to q: three ways while all three last, then two. */
	while (s[SRC_Q].i < na && s[SRC_WAIT].i < np &&
	    s[SRC_BATCH].i < nb && (w = next_run(s, &upto)) >= 0) {
		v = s[w].v;
		i = s[w].i;
		do
			out[k++] = v[i++];
		while (i < s[w].n && v[i].ts <= upto);
		s[w].i = i;
	}
	if (s[SRC_Q].i == na)
		merge2(out, &k, &s[SRC_WAIT], &s[SRC_BATCH]);
	else if (s[SRC_WAIT].i == np)
		merge2(out, &k, &s[SRC_Q], &s[SRC_BATCH]);
	else
		merge2(out, &k, &s[SRC_Q], &s[SRC_WAIT]);

	t = o->q;
	o->q = o->q2;
	o->q2 = t;
	c = o->cap_q;
	o->cap_q = o->cap_q2;
	o->cap_q2 = c;
	o->qh = 0;
	o->nq = k;
	o->np = 0;
	o->nbatch = 0;
	o->nruns = 0;
	return r;
}

/*
 * Delivers the queued records with ts <= limit, oldest first, until
 * the callback stops it; the batch must be sorted. *n: how many went.
 * Returns the callback's last answer (0, 1: stopped, -1), or -1 with
 * ENOMEM.
 */
static int
drain(struct pd_ordered *o, uint64_t limit, uint64_t *n)
{
	const struct qent *a;
	size_t na = o->nq, np = o->np, nb = o->nbatch, i = 0;
	int r = 0, due;

	/* No arithmetic on q while it may be NULL (before the first flush). */
	a = na + np > 0 ? o->q + o->qh : o->q;
	*n = 0;
	if (np == 0 && nb == 0) {
		/* Nothing to merge: the head of q goes where it is. */
		while (r == 0 && i < na && a[i].ts <= limit)
			r = emit(o, &a[i++]);
		if (i > 0)
			o->last_flush = a[i - 1].ts;
		o->qh = i < na ? o->qh + i : 0;
		o->nq = na - i;
		*n = i;
		return r;
	}
	/*
	 * Nothing due (in a merge, the round of an input other than the
	 * one that holds the others back): the sorted batch waits after q,
	 * when it fits there, to be merged at the flush that delivers.
	 */
	due = (na > 0 && a[0].ts <= limit) || (np > 0 && a[na].ts <= limit) ||
	    (nb > 0 && o->batch[0].ts <= limit);
	if (!due && nb == 0)
		return 0;
	if (!due && np == 0 && o->qh + na + nb <= o->cap_q) {
		memcpy(o->q + o->qh + na, o->batch, nb * sizeof(*o->q));
		o->np = nb;
		o->nbatch = 0;
		o->nruns = 0;
		return 0;
	}
	return merge_all(o, limit, n);
}

static int
flush(struct pd_ordered *o, uint64_t limit, enum pd_ordered_how how)
{
	uint64_t n;
	int r;

	/* As perf: a limit of 0 (no round seen yet) delivers nothing. */
	if (limit == 0)
		return 0;
	sort_batch(o);
	r = drain(o, limit, &n);
	set_free(o);
	if (r < 0)
		return -1;
	/* Whole: nothing of a time up to the limit is left (out_upto). */
	if (r == 0 && limit > o->out_upto)
		o->out_upto = limit;
	/*
	 * perf's `last`, the end of a HALF flush's time span: the record
	 * queued last or, once that is out, the newest still queued.
	 */
	if (o->nq > 0 && o->np == 0 && (r == 0 ? o->last_ts <= limit :
	    o->last_ts < o->q[o->qh].ts))
		o->last_ts = o->q[o->qh + o->nq - 1].ts;
	if (n > 0 && o->flushed != NULL)
		return o->flushed(o->ctx, how);
	return 0;
}

/* The time of the k-th oldest queued record (0-based); sorted batch. */
static uint64_t
nth_ts(const struct pd_ordered *o, size_t k)
{
	const struct qent *q = o->nq > 0 ? o->q + o->qh : o->q;
	size_t i = 0, j = 0;
	uint64_t ts = 0;

	while (i + j <= k) {
		if (j == o->nbatch || (i < o->nq && q[i].ts <=
		    o->batch[j].ts))
			ts = q[i++].ts;
		else
			ts = o->batch[j++].ts;
	}
	return ts;
}

/*
 * Moves the queued copies (all in q after a drain) to the front of the
 * slab pool, in slab and offset order, so that the slabs the delivered
 * records leave half empty become whole free slabs again: without it,
 * records of random times pin every slab and each half flush frees
 * nothing. Every record moves to the same place or an earlier one, so
 * a memmove in place does. Costs O(queue + slab bytes), like the drain
 * before it. Needs q2 as scratch (4 bytes a record); does nothing when
 * it cannot have it.
 */
static void
compact(struct pd_ordered *o)
{
	static uint32_t pos[SLAB / 8];	/* offset / 8 -> q index + 1 */
	uint32_t *idx, *start, sl, d = 0, i, k, off;
	uint32_t doff = 0, len;
	unsigned char *src;

	if (o->nq == 0 || resize(&o->q2, &o->cap_q2, grow_to(o->cap_q2,
	    o->nq), &o->charged) < 0 ||
	    (start = calloc(o->nslabs + 1, sizeof(*start))) == NULL)
		return;
	if (o->qh > 0) {
		memmove(o->q, o->q + o->qh, o->nq * sizeof(*o->q));
		o->qh = 0;
	}
	/* Counting sort of q's indices by slab, into q2. */
	idx = (uint32_t *)o->q2;
	/* Records in lent buffers stay where they are. */
	for (i = 0; i < o->nq; i++)
		if (!(o->q[i].u.at.slab & LENT))
			start[o->q[i].u.at.slab + 1]++;
	for (sl = 0; sl < o->nslabs; sl++)
		start[sl + 1] += start[sl];
	for (i = 0; i < o->nq; i++)
		if (!(o->q[i].u.at.slab & LENT))
			idx[start[o->q[i].u.at.slab]++] = i;
	for (sl = o->nslabs; sl > 0; sl--)
		start[sl] = start[sl - 1];
	start[0] = 0;
	for (sl = 0; sl < o->nslabs; sl++) {
		o->slabs[sl].live = 0;
		for (k = start[sl]; k < start[sl + 1]; k++)
			pos[o->q[idx[k]].u.at.off / 8] = idx[k] + 1;
		for (off = 0; off < SLAB / 8; off++) {
			if (pos[off] == 0)
				continue;
			i = pos[off] - 1;
			pos[off] = 0;
			src = o->slabs[sl].mem + 8 * off;
			len = padded(src);
			if (doff + len > SLAB) {
				d++;
				doff = 0;
			}
			memmove(o->slabs[d].mem + doff, src, len);
			o->q[i].u.at.slab = d;
			o->q[i].u.at.off = doff;
			o->slabs[d].live++;
			doff += len;
		}
	}
	free(start);
	o->cur = d;
	o->fill = doff;
	o->free = -1;
	for (sl = o->nslabs; sl > d + 1; sl--) {
		o->slabs[sl - 1].next = o->free;
		o->free = sl - 1;
	}
}

/* The bytes the queued copies take, padded (all in q after a drain). */
static uint64_t
copy_bytes(const struct pd_ordered *o)
{
	const struct qent *e = o->q + o->qh, *end = e + o->nq;
	uint64_t n = 0;

	for (; e < end; e++)
		if (!(e->u.at.slab & LENT))
			n += padded(o->slabs[e->u.at.slab].mem + e->u.at.off);
	return n;
}

/*
 * perf's OE_FLUSH__HALF: the older half of the span from the oldest
 * record to the last one queued, and that half's end is the round
 * limit until the next round. But the older half may hold one record
 * (times that decrease, or one outlier): then each flush would cost a
 * pass over the queue and free nothing, O(n^2) in all. So the limit
 * also reaches the median record: every half flush delivers at least
 * half of the queue, and copies left behind are compacted when they
 * pin more slabs than they fill.
 */
static int
half_flush(struct pd_ordered *o)
{
	uint64_t first, limit, med, n;

	sort_batch(o);
	/* One sorted q and the batch, as nth_ts and compact() read them. */
	if (o->np > 0 && merge_all(o, 0, &n) < 0)
		return -1;
	if (o->nq > 0 && (o->nbatch == 0 || o->q[o->qh].ts <= o->batch[0].ts))
		first = o->q[o->qh].ts;
	else
		first = o->batch[0].ts;
	limit = first + (o->last_ts - first) / 2;
	med = nth_ts(o, (queued(o) - 1) / 2);
	if (med > limit)
		limit = med;
	o->halves++;
	o->next_flush = limit;
	if (flush(o, limit, PD_ORDERED_HALF) < 0)
		return -1;
	if (o->copy && o->free < 0 &&
	    copy_bytes(o) <= (uint64_t)o->nslabs * SLAB / 2)
		compact(o);
	return 0;
}

/*
 * Room for one more record of len bytes (0 without copies): index
 * slots and a slab with space. Under the cap it allocates; over it, it
 * delivers half the queue first (until the queue is empty, after which
 * one record is always let in, so that a tiny cap cannot stall).
 */
static int
reserve_slow(struct pd_ordered *o, uint32_t len)
{
	for (;;) {
		size_t nbc = o->cap_batch, nqc = o->cap_q2;
		uint64_t want = 0;
		int slab_ok, r;

		slab_ok = !o->copy || (o->cur >= 0 && o->fill + len <= SLAB);
		if (!slab_ok && o->free < 0)
			want += SLAB;
		if (o->cap_batch < o->nbatch + 1) {
			nbc = grow_to(o->cap_batch, o->nbatch + 1);
			want += 2 * (nbc - o->cap_batch) * sizeof(struct qent);
		}
		if (o->cap_q2 < queued(o) + 1) {
			nqc = grow_to(o->cap_q2, queued(o) + 1);
			want += (nqc - o->cap_q2) * sizeof(struct qent);
		}
		if (want > 0 && o->charged + want > o->cap &&
		    queued(o) > 0) {
			if (half_flush(o) < 0)
				return -1;
			continue;
		}
		r = resize(&o->tmp, &(size_t){ o->cap_batch }, nbc,
		    &o->charged) < 0 ||
		    resize(&o->batch, &o->cap_batch, nbc, &o->charged) < 0 ||
		    resize(&o->q2, &o->cap_q2, nqc, &o->charged) < 0;
		set_free(o);
		if (r)
			goto nomem;
		if (slab_ok)
			return 0;
		if (o->free >= 0) {
			o->cur = o->free;
			o->free = o->slabs[o->cur].next;
		} else {
			unsigned char *m;

			if (o->nslabs == o->slabs_cap) {
				uint32_t nc = o->slabs_cap ? 2 * o->slabs_cap :
				    64;
				struct slab *ns;

				ns = realloc(o->slabs, nc * sizeof(*ns));
				if (ns == NULL)
					goto nomem;
				o->slabs = ns;
				o->slabs_cap = nc;
			}
			if ((m = malloc(SLAB)) == NULL)
				goto nomem;
			o->charged += SLAB;
			o->slabs[o->nslabs].mem = m;
			o->slabs[o->nslabs].live = 0;
			o->cur = o->nslabs++;
		}
		o->fill = 0;
		return 0;
	}
nomem:
	errno = ENOMEM;
	return -1;
}

void *
pd_ordered_room(struct pd_ordered *o, size_t max)
{
	if (!o->copy || o->cur < 0 || o->fill + max > SLAB)
		return NULL;
	return o->slabs[o->cur].mem + o->fill;
}

void *
pd_ordered_room_in(struct pd_ordered *o, size_t max)
{
	if (o->free_slots == 0)
		return NULL;
	return pd_ordered_room(o, max);
}

/*
 * The index entry of a record of time ts, whose slot is there, with
 * perf's times kept; its place is the caller's to fill in.
 */
static inline struct qent *
put_index(struct pd_ordered *o, uint64_t ts)
{
	struct qent *e;

	/* Counted after any half flush, which may itself pass ts. */
	if (ts < o->last_flush)
		o->late++;
	/*
	 * perf's max_timestamp follows the queue's tail, and starts afresh
	 * when the queue was empty.
	 */
	if (queued(o) == 0 || ts > o->max_ts)
		o->max_ts = ts;
	o->last_ts = ts;
	/* A new run of the batch (sort_batch's). */
	if (o->nbatch > 0 && ts < o->batch[o->nbatch - 1].ts) {
		if (o->nruns < RUNS_MAX)
			o->runs[o->nruns] = o->nbatch;
		o->nruns++;
	}
	e = &o->batch[o->nbatch++];
	e->ts = ts;
	o->free_slots--;
	return e;
}

/*
 * Queues a record whose index slot and slab space are there (len: its
 * padded size; 0 without copies). in_room: it was built at the copy's
 * place (pd_ordered_room).
 */
static inline void
put(struct pd_ordered *o, const void *rec, uint64_t ts, uint32_t len,
    int in_room)
{
	struct qent *e = put_index(o, ts);

	if (!o->copy) {
		e->u.ref = (void *)rec;
		return;
	}
	if (!in_room)
		memcpy(o->slabs[o->cur].mem + o->fill, rec,
		    pd_header_size(rec));
	e->u.at.slab = o->cur;
	e->u.at.off = o->fill;
	o->fill += len;
	o->slabs[o->cur].live++;
}

/* pd_ordered_queue when room must be made first, or without copies. */
static int
queue_slow(struct pd_ordered *o, const void *rec, uint64_t ts)
{
	uint32_t len = 0;
	int in_room;

	if (o->copy)
		len = padded(rec);
	/* Built where it goes (pd_ordered_room): no copy, unless moved. */
	in_room = o->copy && o->cur >= 0 &&
	    rec == o->slabs[o->cur].mem + o->fill;
	if (o->nbatch >= o->cap_batch || queued(o) >= o->cap_q2 ||
	    (o->copy && (o->cur < 0 || o->fill + len > SLAB))) {
		if (in_room) {
			if (o->bounce == NULL &&
			    (o->bounce = malloc(SLAB)) == NULL) {
				errno = ENOMEM;
				return -1;
			}
			memcpy(o->bounce, rec, pd_header_size(rec));
			rec = o->bounce;
			in_room = 0;
		}
		if (reserve_slow(o, len) < 0)
			return -1;
	}
	put(o, rec, ts, len, in_room);
	return 0;
}

/* The common case inline: a copy, and the slot and space are there. */
static inline int
queue(struct pd_ordered *o, const void *rec, uint64_t ts)
{
	uint32_t len;

	if (ts == 0 || ts == UINT64_MAX)
		return 1;
	/* Without copies, what is queued need not even be a record. */
	if (!o->copy) {
		if (o->free_slots == 0)
			return queue_slow(o, rec, ts);
		put_index(o, ts)->u.ref = (void *)rec;
		return 0;
	}
	len = padded(rec);
	if (o->cur < 0 || o->fill + len > SLAB || o->free_slots == 0)
		return queue_slow(o, rec, ts);
	put(o, rec, ts, len, rec == o->slabs[o->cur].mem + o->fill);
	return 0;
}

int
pd_ordered_queue(struct pd_ordered *o, const void *rec, uint64_t ts)
{
	return queue(o, rec, ts);
}

int
pd_ordered_round(struct pd_ordered *o)
{
	/* perf: a round with nothing queued changes nothing. */
	if (queued(o) == 0)
		return 0;
	if (flush(o, o->next_flush, PD_ORDERED_ROUND) < 0)
		return -1;
	o->next_flush = o->max_ts;
	return 0;
}

int
pd_ordered_final(struct pd_ordered *o)
{
	if (queued(o) == 0)
		return 0;
	if (flush(o, UINT64_MAX, PD_ORDERED_FINAL) < 0)
		return -1;
	/*
	 * perf leaves the limit at the top, its input having ended; a
	 * queue used again goes on as after a round that emptied it.
	 */
	o->next_flush = o->max_ts;
	return 0;
}

int
pd_ordered_inputs(struct pd_ordered *o, unsigned n)
{
	free(o->in);
	if ((o->in = calloc(n ? n : 1, sizeof(*o->in))) == NULL) {
		errno = ENOMEM;
		return -1;
	}
	o->nin = n;
	return 0;
}

int
pd_ordered_queue_in(struct pd_ordered *o, unsigned in, const void *rec,
    uint64_t ts)
{
	struct input *p = &o->in[in];
	int r;

	if ((r = queue(o, rec, ts)) == 0 && ts > p->max_ts)
		p->max_ts = ts;
	return r;
}

void
pd_ordered_put_room_in(struct pd_ordered *o, unsigned in, const void *rec,
    uint64_t ts)
{
	struct input *p = &o->in[in];

	put(o, rec, ts, padded(rec), 1);
	if (ts > p->max_ts)
		p->max_ts = ts;
}

int
pd_ordered_lend(struct pd_ordered *o, const unsigned char *base, size_t size)
{
	const unsigned char **n;
	uint32_t c;

	/*
	 * Counted whole, as a few records may keep a whole buffer; and at
	 * most an eighth of the cap, so that a cap that fits the copies
	 * still fits them.
	 */
	if (!o->copy || o->nlent >= ~LENT ||
	    o->lent_size + size > o->cap / 8) {
		errno = EINVAL;
		return -1;
	}
	if (o->nlent == o->lent_cap) {
		c = o->lent_cap ? 2 * o->lent_cap : 8;
		if ((n = realloc(o->lent, c * sizeof(*n))) == NULL) {
			errno = ENOMEM;
			return -1;
		}
		o->lent = n;
		o->lent_cap = c;
	}
	o->lent[o->nlent] = base;
	o->lent_size += size;
	o->charged += size;
	return (int)o->nlent++;
}

int
pd_ordered_lend_ok(const struct pd_ordered *o)
{
	return o->free_slots > 0 && o->charged <= o->cap;
}

void
pd_ordered_put_lent(struct pd_ordered *o, int lent, size_t off, uint64_t ts)
{
	struct qent *e = put_index(o, ts);

	e->u.at.slab = LENT | (uint32_t)lent;
	e->u.at.off = (uint32_t)off;
}

void
pd_ordered_put_lent_in(struct pd_ordered *o, unsigned in, int lent,
    size_t off, uint64_t ts)
{
	pd_ordered_put_lent(o, lent, off, ts);
	if (ts > o->in[in].max_ts)
		o->in[in].max_ts = ts;
}

uint64_t
pd_ordered_out_upto(const struct pd_ordered *o)
{
	return o->out_upto;
}

uint64_t
pd_ordered_limit_in(const struct pd_ordered *o, unsigned in)
{
	return o->in[in].limit;
}

/* Everything every open input has passed. */
static int
merge_flush(struct pd_ordered *o)
{
	uint64_t limit = UINT64_MAX;
	unsigned i;

	for (i = 0; i < o->nin; i++)
		if (o->in[i].limit < limit)
			limit = o->in[i].limit;
	if (queued(o) == 0)
		return 0;
	return flush(o, limit, limit == UINT64_MAX ? PD_ORDERED_FINAL :
	    PD_ORDERED_ROUND);
}

int
pd_ordered_round_in(struct pd_ordered *o, unsigned in)
{
	struct input *p = &o->in[in];

	/* perf's round, for this input: the previous round's newest. */
	p->limit = p->next;
	p->next = p->max_ts;
	return merge_flush(o);
}

int
pd_ordered_end_in(struct pd_ordered *o, unsigned in)
{
	o->in[in].limit = UINT64_MAX;
	return merge_flush(o);
}
