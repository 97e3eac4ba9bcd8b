/* SPDX-License-Identifier: MIT */
/*
 * The queue behind pdsort. Records are copied (perf's copy_on_queue: the
 * reader reuses its buffer) into 64 KiB slabs that are never freed one
 * record at a time: a slab counts its live records and goes back to a
 * free list when the last one is written, so there is no allocation per
 * record and memory is reused as soon as a round is out.
 *
 * The index is two arrays of {timestamp, slab, offset}: `q`, sorted, the
 * records a flush left behind, and `batch`, the arrivals since, in input
 * order. perf keeps one sorted list and inserts with a hint; here a flush
 * sorts the batch (it is a few long runs, one per CPU ring buffer pass,
 * so a natural merge sort takes a pass or two) and merges it with `q`,
 * writing the head up to the flush limit and keeping the rest as the new
 * `q`. Both steps are stable and `q` is older than the batch, so records
 * with equal timestamps keep their input order, as in perf.
 */
#include "pdsort/queue.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "libcommon/cli/msg.h"
#include "libcommon/stream/event.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/writer.h"

#define SLAB		65536	/* holds the largest record, 65535 + pad */
#define IDX_MIN		1024	/* first index array size, in entries */

struct qent {
	uint64_t	ts;
	uint32_t	slab;
	uint32_t	off;
};

struct slab {
	unsigned char	*mem;
	uint32_t	 live;		/* queued records in it */
	int32_t		 next;		/* free list link */
};

struct sq {
	struct pd_writer *w;
	uint64_t	 cap;		/* -m */
	uint64_t	 charged;	/* slabs and index arrays allocated */

	struct slab	*slabs;
	uint32_t	 nslabs, slabs_cap;
	int32_t		 free;		/* free list head, -1: empty */
	int32_t		 cur;		/* slab being filled, -1: none */
	uint32_t	 fill;

	struct qent	*q, *q2, *batch, *tmp;
	size_t		 nq, nbatch;
	size_t		 cap_q, cap_q2, cap_batch;	/* tmp: cap_batch */

	uint64_t	 max_ts;	/* perf's max_timestamp */
	uint64_t	 next_flush;	/* the round limit */
	uint64_t	 last_flush;	/* last timestamp written */
	uint64_t	 last_ts;	/* most recently queued (perf's last) */
	uint64_t	 late;
	uint64_t	 halves;
	uint64_t	 live_bytes;	/* queued record copies, padded */
};

struct sq *
sq_new(struct pd_writer *w, uint64_t cap)
{
	struct sq *s;

	if ((s = calloc(1, sizeof(*s))) == NULL)
		return NULL;
	s->w = w;
	s->cap = cap;
	s->free = s->cur = -1;
	return s;
}

void
sq_free(struct sq *s)
{
	uint32_t i;

	if (s == NULL)
		return;
	for (i = 0; i < s->nslabs; i++)
		free(s->slabs[i].mem);
	free(s->slabs);
	free(s->q);
	free(s->q2);
	free(s->batch);
	free(s->tmp);
	free(s);
}

uint64_t
sq_late(const struct sq *s)
{
	return s->late;
}

uint64_t
sq_half_flushes(const struct sq *s)
{
	return s->halves;
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
release(struct sq *s, uint32_t i)
{
	struct slab *sl = &s->slabs[i];

	if (--sl->live > 0)
		return;
	if ((int32_t)i == s->cur) {
		s->fill = 0;
	} else {
		sl->next = s->free;
		s->free = i;
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
 * Sorts the batch by timestamp, stably: merges neighbouring runs into
 * tmp, then back, until one run is left.
 */
static void
sort_batch(struct sq *s)
{
	struct qent *a = s->batch, *b = s->tmp, *t;
	size_t n = s->nbatch, i, m, e, x, y, k, runs;

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
	s->batch = a;
	s->tmp = b;
}

static int
emit(struct sq *s, const struct qent *e)
{
	const unsigned char *p = s->slabs[e->slab].mem + e->off;
	uint16_t size = pd_header_size(p);

	if (pd_writer_put(s->w, p, size) < 0)
		return -1;
	s->live_bytes -= (size + 7u) & ~7u;
	s->last_flush = e->ts;
	release(s, e->slab);
	return 0;
}

/*
 * Writes every queued record with ts <= limit, oldest first, and after
 * them one FINISHED_ROUND if any was written. The batch must be sorted.
 */
static int
drain(struct sq *s, uint64_t limit)
{
	const struct qent *a = s->q, *b = s->batch, *e;
	struct qent *o = s->q2, *t;
	size_t na = s->nq, nb = s->nbatch, i = 0, j = 0, k = 0, c;
	uint64_t n = 0;

	/*
	 * Appends keep q2 large enough for q and the batch, but a flush
	 * swaps q and q2, and a half flush may come before the next append.
	 */
	if (s->cap_q2 < na + nb) {
		if (resize(&s->q2, &s->cap_q2, grow_to(s->cap_q2, na + nb),
		    &s->charged) < 0) {
			errno = ENOMEM;
			return -1;
		}
		o = s->q2;
	}
	while (i < na || j < nb) {
		int from_q = j == nb || (i < na && a[i].ts <= b[j].ts);

		e = from_q ? &a[i] : &b[j];
		if (e->ts > limit)
			break;
		if (emit(s, e) < 0)
			return -1;
		if (from_q)
			i++;
		else
			j++;
		n++;
	}
	while (i < na && j < nb)
		o[k++] = b[j].ts < a[i].ts ? b[j++] : a[i++];
	/* Loops, not memcpy: the arrays are NULL before the first record. */
	for (; i < na; i++)
		o[k++] = a[i];
	for (; j < nb; j++)
		o[k++] = b[j];

	t = s->q;
	s->q = s->q2;
	s->q2 = t;
	c = s->cap_q;
	s->cap_q = s->cap_q2;
	s->cap_q2 = c;
	s->nq = k;
	s->nbatch = 0;
	/* Marks the flush, so that the output is a round-ordered stream. */
	if (n > 0) {
		unsigned char h[PD_REC_HDR_SIZE];

		pd_header_put(h, PD_RECORD_FINISHED_ROUND, 0, sizeof(h), 0);
		if (pd_writer_put(s->w, h, sizeof(h)) < 0)
			return -1;
	}
	return 0;
}

static int
flush(struct sq *s, uint64_t limit)
{
	/* As perf: a limit of 0 (no round seen yet) writes nothing. */
	if (limit == 0)
		return 0;
	sort_batch(s);
	return drain(s, limit);
}

/* The timestamp of the k-th oldest queued record (0-based); sorted batch. */
static uint64_t
nth_ts(const struct sq *s, size_t k)
{
	size_t i = 0, j = 0;
	uint64_t ts = 0;

	while (i + j <= k) {
		if (j == s->nbatch || (i < s->nq && s->q[i].ts <=
		    s->batch[j].ts))
			ts = s->q[i++].ts;
		else
			ts = s->batch[j++].ts;
	}
	return ts;
}

/*
 * Moves the queued records (all in q after a drain) to the front of the
 * slab pool, in slab and offset order, so that the slabs the written
 * records leave half empty become whole free slabs again: without it,
 * records of random times pin every slab and each half flush frees
 * nothing. Every record moves to the same place or an earlier one, so
 * a memmove in place does. Costs O(queue + slab bytes), like the drain
 * before it. Needs q2 as scratch (4 bytes a record); does nothing when
 * it cannot have it.
 */
static void
compact(struct sq *s)
{
	static uint32_t pos[SLAB / 8];	/* offset / 8 -> q index + 1 */
	uint32_t *idx, *start, sl, d = 0, i, k, o;
	uint32_t doff = 0, len;
	unsigned char *src;

	if (s->nq == 0 || resize(&s->q2, &s->cap_q2, grow_to(s->cap_q2,
	    s->nq), &s->charged) < 0 ||
	    (start = calloc(s->nslabs + 1, sizeof(*start))) == NULL)
		return;
	/* Counting sort of q's indices by slab, into q2. */
	idx = (uint32_t *)s->q2;
	for (i = 0; i < s->nq; i++)
		start[s->q[i].slab + 1]++;
	for (sl = 0; sl < s->nslabs; sl++)
		start[sl + 1] += start[sl];
	for (i = 0; i < s->nq; i++)
		idx[start[s->q[i].slab]++] = i;
	for (sl = s->nslabs; sl > 0; sl--)
		start[sl] = start[sl - 1];
	start[0] = 0;
	for (sl = 0; sl < s->nslabs; sl++) {
		s->slabs[sl].live = 0;
		for (k = start[sl]; k < start[sl + 1]; k++)
			pos[s->q[idx[k]].off / 8] = idx[k] + 1;
		for (o = 0; o < SLAB / 8; o++) {
			if (pos[o] == 0)
				continue;
			i = pos[o] - 1;
			pos[o] = 0;
			src = s->slabs[sl].mem + 8 * o;
			len = (pd_header_size(src) + 7u) & ~7u;
			if (doff + len > SLAB) {
				d++;
				doff = 0;
			}
			memmove(s->slabs[d].mem + doff, src, len);
			s->q[i].slab = d;
			s->q[i].off = doff;
			s->slabs[d].live++;
			doff += len;
		}
	}
	free(start);
	s->cur = d;
	s->fill = doff;
	s->free = -1;
	for (sl = s->nslabs; sl > d + 1; sl--) {
		s->slabs[sl - 1].next = s->free;
		s->free = sl - 1;
	}
}

/*
 * perf's OE_FLUSH__HALF: the older half of the queued time span. But a
 * span's older half may hold one record (times that decrease, or one
 * outlier): then each flush would cost a pass over the queue and free
 * nothing, O(n^2) in all. So the limit also reaches the median record:
 * every half flush writes at least half of the queue, and what is left
 * is compacted when it pins more slabs than it fills.
 */
static int
half_flush(struct sq *s)
{
	uint64_t first, limit, med;

	sort_batch(s);
	if (s->nq > 0 && (s->nbatch == 0 || s->q[0].ts <= s->batch[0].ts))
		first = s->q[0].ts;
	else
		first = s->batch[0].ts;
	limit = s->last_ts > first ? first + (s->last_ts - first) / 2 : first;
	med = nth_ts(s, (s->nq + s->nbatch - 1) / 2);
	if (med > limit)
		limit = med;
	if (s->halves++ == 0)
		pd_warnx("the queue reached its -m limit: writing the older "
		    "half early, records may come out of order");
	if (drain(s, limit) < 0)
		return -1;
	if (s->free < 0 && s->live_bytes <= (uint64_t)s->nslabs * SLAB / 2)
		compact(s);
	return 0;
}

/*
 * Room for one more record of len bytes: a slab with space and index
 * slots. Under the cap it allocates; over it, it writes half the queue
 * first (until the queue is empty, after which one record is always let
 * in, so that a tiny cap cannot stall).
 */
static int
reserve(struct sq *s, uint32_t len)
{
	for (;;) {
		size_t nbc = s->cap_batch, nqc = s->cap_q2;
		uint64_t want = 0;
		int slab_ok;

		slab_ok = s->cur >= 0 && s->fill + len <= SLAB;
		if (!slab_ok && s->free < 0)
			want += SLAB;
		if (s->cap_batch < s->nbatch + 1) {
			nbc = grow_to(s->cap_batch, s->nbatch + 1);
			want += 2 * (nbc - s->cap_batch) * sizeof(struct qent);
		}
		if (s->cap_q2 < s->nq + s->nbatch + 1) {
			nqc = grow_to(s->cap_q2, s->nq + s->nbatch + 1);
			want += (nqc - s->cap_q2) * sizeof(struct qent);
		}
		if (want > 0 && s->charged + want > s->cap &&
		    s->nq + s->nbatch > 0) {
			if (half_flush(s) < 0)
				return -1;
			continue;
		}
		if (resize(&s->tmp, &(size_t){ s->cap_batch }, nbc,
		    &s->charged) < 0 ||
		    resize(&s->batch, &s->cap_batch, nbc, &s->charged) < 0 ||
		    resize(&s->q2, &s->cap_q2, nqc, &s->charged) < 0)
			goto nomem;
		if (slab_ok)
			return 0;
		if (s->free >= 0) {
			s->cur = s->free;
			s->free = s->slabs[s->cur].next;
		} else {
			unsigned char *m;

			if (s->nslabs == s->slabs_cap) {
				uint32_t nc = s->slabs_cap ? 2 * s->slabs_cap :
				    64;
				struct slab *ns;

				ns = realloc(s->slabs, nc * sizeof(*ns));
				if (ns == NULL)
					goto nomem;
				s->slabs = ns;
				s->slabs_cap = nc;
			}
			if ((m = malloc(SLAB)) == NULL)
				goto nomem;
			s->charged += SLAB;
			s->slabs[s->nslabs].mem = m;
			s->slabs[s->nslabs].live = 0;
			s->cur = s->nslabs++;
		}
		s->fill = 0;
		return 0;
	}
nomem:
	errno = ENOMEM;
	return -1;
}

int
sq_queue(struct sq *s, const unsigned char *p, uint64_t ts)
{
	uint16_t size = pd_header_size(p);
	uint32_t len = (size + 7u) & ~7u;
	struct qent *e;

	if (reserve(s, len) < 0)
		return -1;
	/* Counted after any half flush, which may itself pass ts. */
	if (ts < s->last_flush)
		s->late++;
	/*
	 * perf's max_timestamp follows the queue's tail, and starts afresh
	 * when the queue was empty.
	 */
	if (s->nq + s->nbatch == 0 || ts > s->max_ts)
		s->max_ts = ts;
	s->last_ts = ts;
	memcpy(s->slabs[s->cur].mem + s->fill, p, size);
	e = &s->batch[s->nbatch++];
	e->ts = ts;
	e->slab = s->cur;
	e->off = s->fill;
	s->fill += len;
	s->live_bytes += len;
	s->slabs[s->cur].live++;
	return 0;
}

int
sq_round(struct sq *s)
{
	if (flush(s, s->next_flush) < 0)
		return -1;
	s->next_flush = s->max_ts;
	return 0;
}

int
sq_final(struct sq *s)
{
	return flush(s, UINT64_MAX);
}
