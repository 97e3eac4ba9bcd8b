/* SPDX-License-Identifier: MIT */
/*
 * perf's ordered_events for the symbolizer: kernel records with a time
 * wait in a heap; at each FINISHED_ROUND those not later than the
 * previous round's newest time are applied (or, for samples, resolved)
 * in time order; records without a time (perf's own, synthesized ones
 * with time 0) apply at once. Records go back to the tool in stream
 * order as soon as no unresolved sample is before them.
 */
#include "libcommon/sym/symq.h"

#include <stdlib.h>
#include <string.h>

#include "libcommon/stream/evlist.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/record.h"
#include "libcommon/stream/sample.h"
#include "libcommon/sym/symint.h"
#include "libcommon/sym/unwind.h"

/* Past this many waiting records the older half is applied (OE_FLUSH__HALF). */
#define HEAP_MAX	(1U << 20)

/*
 * The bytes the queue may hold (records and the frames of resolved
 * samples). A sample with a time far ahead holds every record after it
 * in stream order; past this the samples at the front are named at
 * once, before their time, and that is counted and said.
 */
#define SYMQ_BYTES_MAX	(64U << 20)

/*
 * Entries and frame arrays come from free lists by power-of-two size
 * class, as perf's ordered_events reuses its freed events: once the
 * queue has held its largest round, nothing more is allocated.
 */
#define CLASS_MIN	6		/* 64 bytes */
#define NCLASS		26		/* up to 2 GiB: more than any block */

struct block {
	struct block	*next;
};

struct ent {
	struct pd_rec		 rec;
	uint64_t		 time, seq;
	size_t			 hidx;		/* where in the heap */
	unsigned char		 sample, inheap, done, out;
	unsigned char		 cls, frcls;	/* size classes; frcls 0: none */
	struct pd_symq_res	 res;
	unsigned char		 data[];
};

struct pd_symq {
	struct pd_syms		*sy;
	const struct pd_evlist	*el;
	struct pd_unwind	*uw;		/* --unwind, or NULL */
	struct ent		**fifo;		/* ring, stream order */
	size_t			 head, n, cap;
	struct ent		**heap;		/* by (time, seq) */
	size_t			 hn, hcap;
	uint64_t		 seq, next_flush, max_ts;
	struct ent		*last;		/* handed out by pd_symq_next */
	unsigned long		 bad;
	struct block		*pool[NCLASS];	/* free blocks by class */
	struct pd_frame		*scratch;	/* frames before they are kept */
	size_t			 scap;
	pd_symq_fn		 fn;		/* or NULL: resolve here */
	void			*fn_ctx;
	size_t			 bytes;		/* held in blocks */
	unsigned long		 early;		/* samples named before their
						   time (SYMQ_BYTES_MAX) */
	int			 flushing;	/* pd_symq_flush: next() pops */
	unsigned long		 nomem;		/* samples left unnamed: out of
						   memory */
};

/* A block of at least `size` bytes; *cls gets its class. */
static void *
block_get(struct pd_symq *q, size_t size, unsigned char *cls)
{
	unsigned c = CLASS_MIN;
	struct block *b;

	while (c < NCLASS && ((size_t)1 << c) < size)
		c++;
	if (c == NCLASS)
		return NULL;
	if ((b = q->pool[c]) != NULL)
		q->pool[c] = b->next;
	else if ((b = malloc((size_t)1 << c)) == NULL)
		return NULL;	/* *cls untouched: ent_free frees nothing */
	*cls = (unsigned char)c;
	q->bytes += (size_t)1 << c;
	return b;
}

static void
block_put(struct pd_symq *q, void *p, unsigned char cls)
{
	struct block *b = p;

	q->bytes -= (size_t)1 << cls;
	b->next = q->pool[cls];
	q->pool[cls] = b;
}

struct pd_symq *
pd_symq_new(struct pd_syms *sy, const struct pd_evlist *el)
{
	struct pd_symq *q;

	if ((q = calloc(1, sizeof(*q))) == NULL)
		return NULL;
	q->sy = sy;
	q->el = el;
	return q;
}

static void
ent_free(struct pd_symq *q, struct ent *e)
{
	if (e->frcls != 0)
		block_put(q, (void *)e->res.frames, e->frcls);
	block_put(q, e, e->cls);
}

void
pd_symq_free(struct pd_symq *q)
{
	size_t i;

	if (q == NULL)
		return;
	/* Entries still in the heap are also in the ring unless handed out. */
	for (i = 0; i < q->hn; i++)
		if (q->heap[i]->out)
			ent_free(q, q->heap[i]);
	for (i = 0; i < q->n; i++)
		ent_free(q, q->fifo[(q->head + i) % q->cap]);
	if (q->last != NULL && !q->last->inheap)
		ent_free(q, q->last);
	for (i = 0; i < NCLASS; i++)
		while (q->pool[i] != NULL) {
			struct block *b = q->pool[i];

			q->pool[i] = b->next;
			free(b);
		}
	free(q->scratch);
	free(q->fifo);
	free(q->heap);
	free(q);
}

void
pd_symq_set_unwind(struct pd_symq *q, struct pd_unwind *uw)
{
	q->uw = uw;
}

void
pd_symq_set_sample_fn(struct pd_symq *q, pd_symq_fn fn, void *ctx)
{
	q->fn = fn;
	q->fn_ctx = ctx;
}

unsigned long
pd_symq_bad(const struct pd_symq *q)
{
	return q->bad;
}

static int
before(const struct ent *a, const struct ent *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static void
heap_set(struct pd_symq *q, size_t i, struct ent *e)
{
	q->heap[i] = e;
	e->hidx = i;
}

/* Puts e at hole i and restores the heap order around it. */
static void
heap_fix(struct pd_symq *q, size_t i, struct ent *e)
{
	size_t p, c;

	while (i > 0 && before(e, q->heap[p = (i - 1) / 2])) {
		heap_set(q, i, q->heap[p]);
		i = p;
	}
	while ((c = 2 * i + 1) < q->hn) {
		if (c + 1 < q->hn && before(q->heap[c + 1], q->heap[c]))
			c++;
		if (!before(q->heap[c], e))
			break;
		heap_set(q, i, q->heap[c]);
		i = c;
	}
	heap_set(q, i, e);
}

static int
heap_push(struct pd_symq *q, struct ent *e)
{
	if (q->hn == q->hcap) {
		size_t ncap = q->hcap ? q->hcap * 2 : 1024;
		struct ent **nh = realloc(q->heap, ncap * sizeof(*nh));

		if (nh == NULL)
			return -1;
		q->heap = nh;
		q->hcap = ncap;
	}
	q->hn++;
	heap_fix(q, q->hn - 1, e);
	e->inheap = 1;
	return 0;
}

/* Takes e out of the heap, wherever it is. */
static void
heap_remove(struct pd_symq *q, struct ent *e)
{
	struct ent *last = q->heap[--q->hn];

	if (last != e)
		heap_fix(q, e->hidx, last);
	e->inheap = 0;
}

static struct ent *
heap_pop(struct pd_symq *q)
{
	struct ent *top = q->heap[0];

	heap_remove(q, top);
	return top;
}

/* Applies a record to the symbolizer, or resolves a sample. */
static void
deliver(struct pd_symq *q, struct ent *e)
{
	const struct pd_evsel *ev;
	struct pd_sample s;
	struct pd_frame *fr;
	struct pd_symres *sr;
	const char *why;
	size_t i, n;

	e->done = 1;
	if (!e->sample) {
		if (pd_syms_record(q->sy, q->el, &e->rec) < 0)
			q->bad++;
		return;
	}
	if ((ev = pd_evlist_for_rec(q->el, &e->rec)) == NULL ||
	    pd_sample_parse(ev, &e->rec, &s, &why) < 0) {
		e->res.bad = 1;
		return;
	}
	if (q->fn != NULL) {
		q->fn(q->fn_ctx, ev, &e->rec, &s);
		return;
	}
	if (s.type & PERF_SAMPLE_TID)
		e->res.comm = pd_syms_comm(q->sy, s.pid, s.tid);
	if (s.type & PERF_SAMPLE_IP) {
		e->res.has_ip = 1;
		pd_syms_resolve(q->sy, s.pid, e->rec.misc &
		    PERF_RECORD_MISC_CPUMODE_MASK, s.ip, &e->res.ip);
	}
	/* An empty chain gives the ip (pd_sample_frames). */
	n = (s.type & PERF_SAMPLE_CALLCHAIN) && s.callchain_nr > 0 ?
	    s.callchain_nr : 1;
	if (q->uw != NULL)
		n += PD_UNWIND_MAX;
	if (n > q->scap) {
		struct pd_frame *ns = realloc(q->scratch, n * sizeof(*ns));

		if (ns == NULL) {
			e->res.bad = 1;
			q->nomem++;
			return;
		}
		q->scratch = ns;
		q->scap = n;
	}
	n = q->uw != NULL ? pd_unwind_frames(q->uw, &s, e->rec.misc,
	    q->scratch, n) : pd_sample_frames(&s, e->rec.misc, q->scratch, n);
	if (n == 0)
		return;
	/* Kept: the frames, then what each names, in one block. */
	if ((fr = block_get(q, n * (sizeof(*fr) + sizeof(*sr)),
	    &e->frcls)) == NULL) {
		e->res.bad = 1;
		q->nomem++;
		return;
	}
	memcpy(fr, q->scratch, n * sizeof(*fr));
	sr = (struct pd_symres *)(void *)(fr + n);
	for (i = 0; i < n; i++)
		pd_syms_resolve(q->sy, s.pid, fr[i].cpumode, fr[i].addr,
		    &sr[i]);
	e->res.nframes = n;
	e->res.frames = fr;
	e->res.syms = sr;
}

/*
 * The oldest waiting record: applied (or resolved), unless it was
 * named early (then it only leaves the heap), and freed when the tool
 * has had it.
 */
static void
pop_deliver(struct pd_symq *q)
{
	struct ent *e = heap_pop(q);

	if (!e->done)
		deliver(q, e);
	if (e->out && e != q->last)
		ent_free(q, e);
}

/* Delivers the waiting records not later than `limit`, in time order. */
static void
flush_to(struct pd_symq *q, uint64_t limit)
{
	while (q->hn > 0 && q->heap[0]->time <= limit)
		pop_deliver(q);
}

/*
 * Over SYMQ_BYTES_MAX: the samples at the front of the stream order,
 * up to half of what is held, are named now (they stay in the heap,
 * done, until their time), so the tool can take them and what follows.
 */
static void
make_room(struct pd_symq *q)
{
	size_t i, sum = 0;
	struct ent *e;

	if (q->bytes <= SYMQ_BYTES_MAX)
		return;
	/*
	 * Records the tool has had, kept only to be applied at their time
	 * (MMAPs dated ahead): applied now.
	 */
	for (i = 0; i < q->hn; ) {
		e = q->heap[i];
		if (!e->out || e == q->last) {
			i++;
			continue;
		}
		heap_remove(q, e);
		if (!e->done) {
			deliver(q, e);
			q->early++;
		}
		ent_free(q, e);
	}
	for (i = 0; i < q->n && sum < q->bytes / 2; i++) {
		e = q->fifo[(q->head + i) % q->cap];
		sum += (size_t)1 << e->cls;
		if (e->sample && !e->done) {
			deliver(q, e);
			q->early++;
		}
		if (e->frcls != 0)
			sum += (size_t)1 << e->frcls;
	}
}

int
pd_symq_push(struct pd_symq *q, const struct pd_rec *rec)
{
	const struct pd_evsel *ev;
	struct ent *e;
	uint64_t t = 0;
	unsigned char cls;

	if (q->n == q->cap) {
		size_t ncap = q->cap ? q->cap * 2 : 1024, i;
		struct ent **nf = malloc(ncap * sizeof(*nf));

		if (nf == NULL)
			return -1;
		for (i = 0; i < q->n; i++)
			nf[i] = q->fifo[(q->head + i) % q->cap];
		free(q->fifo);
		q->fifo = nf;
		q->head = 0;
		q->cap = ncap;
	}
	if ((e = block_get(q, sizeof(*e) + rec->size, &cls)) == NULL)
		return -1;
	memset(e, 0, sizeof(*e));
	e->cls = cls;
	memcpy(e->data, rec->data, rec->size);
	e->rec = *rec;
	e->rec.data = e->data;
	e->rec.payload = 0;
	e->seq = q->seq++;
	e->sample = rec->type == PERF_RECORD_SAMPLE;
	q->fifo[(q->head + q->n++) % q->cap] = e;

	if (rec->type == PD_RECORD_FINISHED_ROUND) {
		e->done = 1;
		flush_to(q, q->next_flush);
		q->next_flush = q->max_ts;
		return 0;
	}
	if (pd_rec_is_kernel(rec->type) && q->el->n > 0 &&
	    (ev = pd_evlist_for_rec(q->el, rec)) != NULL)
		t = pd_sample_rec_time(ev, rec);
	if (t == 0 || t == UINT64_MAX) {
		/* No time: perf applies it at once, where it stands. */
		deliver(q, e);
		return 0;
	}
	if (t > q->max_ts)
		q->max_ts = t;
	e->time = t;
	if (heap_push(q, e) < 0) {
		deliver(q, e);
		return -1;
	}
	if (q->hn >= HEAP_MAX) {
		/* Bounded memory: apply the older half, as perf does. */
		size_t k = q->hn / 2;

		while (k-- > 0 && q->hn > 0)
			pop_deliver(q);
	}
	make_room(q);
	return 0;
}

/*
 * Everything waiting is delivered as pd_symq_next() hands records out,
 * not all at once: the frames of every sample would be held together.
 */
void
pd_symq_flush(struct pd_symq *q)
{
	q->flushing = 1;
	q->next_flush = q->max_ts;
}

/* The note for samples named early, once per flush that had them. */
static void
say_early(struct pd_symq *q)
{
	if (q->early == 0)
		return;
	pd_syms_note(q->sy, "the symbol queue held over %u MiB: %lu record%s "
	    "applied or named before %s time; names may be off",
	    SYMQ_BYTES_MAX >> 20, q->early, q->early > 1 ? "s were" : " was",
	    q->early > 1 ? "their" : "its");
	q->early = 0;
}

/* Samples that could not be named for want of memory: never silent. */
static void
say_nomem(struct pd_symq *q)
{
	if (q->nomem == 0)
		return;
	pd_syms_note(q->sy, "out of memory: %lu sample%s shown without "
	    "names", q->nomem, q->nomem > 1 ? "s are" : " is");
	q->nomem = 0;
}

int
pd_symq_next(struct pd_symq *q, struct pd_rec *rec,
    const struct pd_symq_res **res)
{
	struct ent *e;

	if (q->last != NULL) {
		/* A sample named early has nothing left to do there. */
		if (q->last->inheap && q->last->sample && q->last->done)
			heap_remove(q, q->last);
		if (!q->last->inheap)
			ent_free(q, q->last);
		q->last = NULL;
	}
	for (;;) {
		if (q->n == 0) {
			if (q->flushing) {
				/* What is left was handed out already. */
				flush_to(q, UINT64_MAX);
				q->flushing = 0;
				say_early(q);
				say_nomem(q);
				q->sy->notes_more = 1;
			}
			return 0;
		}
		e = q->fifo[q->head];
		if (!e->sample || e->done)
			break;
		if (!q->flushing || q->hn == 0)
			return 0;
		if (q->bytes > SYMQ_BYTES_MAX)
			make_room(q);
		else
			pop_deliver(q);
	}
	q->head = (q->head + 1) % q->cap;
	q->n--;
	e->out = 1;
	q->last = e;
	*rec = e->rec;
	*res = e->sample ? &e->res : NULL;
	return 1;
}
