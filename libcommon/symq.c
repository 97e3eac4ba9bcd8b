/* SPDX-License-Identifier: MIT */
/*
 * perf's ordered_events for the symbolizer: kernel records with a time
 * wait in a heap; at each FINISHED_ROUND those not later than the
 * previous round's newest time are applied (or, for samples, resolved)
 * in time order; records without a time (perf's own, synthesized ones
 * with time 0) apply at once. Records go back to the tool in stream
 * order as soon as no unresolved sample is before them.
 */
#include "libcommon/symq.h"

#include <stdlib.h>
#include <string.h>

#include "libcommon/evlist.h"
#include "libcommon/perf.h"
#include "libcommon/record.h"
#include "libcommon/sample.h"
#include "libcommon/unwind.h"

/* Past this many waiting records the older half is applied (OE_FLUSH__HALF). */
#define HEAP_MAX	(1U << 20)

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
	*cls = (unsigned char)c;
	if ((b = q->pool[c]) != NULL) {
		q->pool[c] = b->next;
		return b;
	}
	return malloc((size_t)1 << c);
}

static void
block_put(struct pd_symq *q, void *p, unsigned char cls)
{
	struct block *b = p;

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

static int
heap_push(struct pd_symq *q, struct ent *e)
{
	size_t i, p;

	if (q->hn == q->hcap) {
		size_t ncap = q->hcap ? q->hcap * 2 : 1024;
		struct ent **nh = realloc(q->heap, ncap * sizeof(*nh));

		if (nh == NULL)
			return -1;
		q->heap = nh;
		q->hcap = ncap;
	}
	i = q->hn++;
	while (i > 0 && before(e, q->heap[p = (i - 1) / 2])) {
		q->heap[i] = q->heap[p];
		i = p;
	}
	q->heap[i] = e;
	e->inheap = 1;
	return 0;
}

static struct ent *
heap_pop(struct pd_symq *q)
{
	struct ent *top = q->heap[0], *e;
	size_t i = 0, c;

	e = q->heap[--q->hn];
	while ((c = 2 * i + 1) < q->hn) {
		if (c + 1 < q->hn && before(q->heap[c + 1], q->heap[c]))
			c++;
		if (!before(q->heap[c], e))
			break;
		q->heap[i] = q->heap[c];
		i = c;
	}
	if (q->hn > 0)
		q->heap[i] = e;
	top->inheap = 0;
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

/* Delivers the waiting records not later than `limit`, in time order. */
static void
flush_to(struct pd_symq *q, uint64_t limit)
{
	struct ent *e;

	while (q->hn > 0 && q->heap[0]->time <= limit) {
		e = heap_pop(q);
		deliver(q, e);
		if (e->out && e != q->last)
			ent_free(q, e);
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
		t = pd_rec_time(ev, rec);
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

		while (k-- > 0 && q->hn > 0) {
			struct ent *x = heap_pop(q);

			deliver(q, x);
			if (x->out && x != q->last)
				ent_free(q, x);
		}
	}
	return 0;
}

void
pd_symq_flush(struct pd_symq *q)
{
	flush_to(q, UINT64_MAX);
	q->next_flush = q->max_ts;
}

int
pd_symq_next(struct pd_symq *q, struct pd_rec *rec,
    const struct pd_symq_res **res)
{
	struct ent *e;

	if (q->last != NULL) {
		if (!q->last->inheap)
			ent_free(q, q->last);
		q->last = NULL;
	}
	if (q->n == 0)
		return 0;
	e = q->fifo[q->head];
	if (e->sample && !e->done)
		return 0;
	q->head = (q->head + 1) % q->cap;
	q->n--;
	e->out = 1;
	q->last = e;
	*rec = e->rec;
	*res = e->sample ? &e->res : NULL;
	return 1;
}
