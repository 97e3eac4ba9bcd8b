/* SPDX-License-Identifier: MIT */
/*
 * perf's ordered events for the symbolizer, on stream/ordered.h: kernel
 * records with a time wait in that queue (which keeps pointers, not
 * copies) and are applied, or for samples resolved, as it delivers
 * them: in time order, by perf's rules. Records without a time apply
 * at once. Every record also waits in a ring, in stream order, and
 * goes back to the tool as soon as no unresolved sample is before it.
 *
 * With a sample fn nothing goes back, so a record is held only until
 * its time, with its input offset (struct held), one after another in
 * chunks that are reused once all of theirs are applied: a third of a
 * flame graph's time went to the ring, the hand-back and the entries'
 * room for names.
 */
#include "libcommon/sym/symq.h"

#include <stdlib.h>
#include <string.h>

#include "libcommon/stream/event.h"
#include "libcommon/stream/evlist.h"
#include "libcommon/stream/ordered.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/record.h"
#include "libcommon/stream/sample.h"
#include "libcommon/sym/symint.h"
#include "libcommon/sym/unwind.h"

/*
 * The bytes the queue may hold (records and the frames of resolved
 * samples). A sample with a time far ahead holds every record after it
 * in stream order; past this the samples at the front are named at
 * once, before their time, and that is counted and said.
 */
#define SYMQ_BYTES_MAX	(64U << 20)

/*
 * The ordered queue's own cap (its index, 16 to 64 bytes a waiting
 * record): past it the older half is applied early (OE_FLUSH__HALF).
 */
#define SYMQ_INDEX_MAX	(64U << 20)

/*
 * Entries and frame arrays come from free lists by power-of-two size
 * class, as perf's ordered_events reuses its freed events: once the
 * queue has held its largest round, nothing more is allocated.
 */
#define CLASS_MIN	6		/* 64 bytes */
#define NCLASS		26		/* up to 2 GiB: more than any block */
#define TAGS_CHUNK	1024

struct block {
	struct block	*next;
};

struct ent;

/*
 * What the ordered queue holds for a record waiting for its time. A
 * record can go before then (a sample named early, handed out); its
 * tag stays, empty, until the queue delivers it.
 */
struct tag {
	struct ent	*e;		/* NULL: gone */
	struct tag	*next;		/* free list */
};

struct tagchunk {
	struct tagchunk	*next;
	struct tag	 tags[TAGS_CHUNK];
};

struct ent {
	struct pd_rec		 rec;
	struct tag		*tag;		/* waiting for its time */
	struct ent		*wprev, *wnext;	/* on the waiting list */
	unsigned char		 sample, done, out;
	unsigned char		 cls, frcls;	/* size classes; frcls 0: none */
	struct pd_symq_res	 res;
	unsigned char		 data[];
};

/*
 * A queue with a sample fn holds its records in chunks, in the order
 * they come; a chunk goes back to the free list (one larger than
 * CHUNK, for a record that big, to the allocator) once the last of its
 * records is applied and another chunk is being filled. The chunks in
 * use count in `bytes`, against SYMQ_BYTES_MAX.
 */
#define CHUNK		(256U << 10)

struct chunk {
	struct chunk	*next;		/* free list */
	size_t		 size, fill;
	size_t		 live;		/* records not yet applied */
	unsigned char	 mem[];
};

struct held {
	struct chunk		*c;
	uint64_t		 offset;	/* in its input */
	uint32_t		 flags;		/* pd_rec's */
	uint32_t		 ev;		/* its event's index + 1, */
	unsigned		 gen;		/* as at this evlist gen */
	uint32_t		 pad;
	unsigned char		 data[];	/* the record, 8-aligned */
};

struct pd_symq {
	struct pd_syms		*sy;
	const struct pd_evlist	*el;
	struct pd_unwind	*uw;		/* --unwind, or NULL */
	struct pd_ordered	*oq;		/* by time */
	struct ent		**fifo;		/* ring, stream order */
	size_t			 head, n, cap;	/* cap: 0 or a power of two:
						   a place is a mask, not a
						   division a record */
	/*
	 * Records the tool has had that still wait for their time (MMAPs
	 * dated ahead), in the order it had them; `last` is not on it.
	 */
	struct ent		*waiting, *wtail;
	struct ent		*last;		/* handed out by pd_symq_next */
	struct tag		*tags;		/* free tags */
	struct tagchunk		*chunks;
	unsigned long		 bad;
	struct block		*pool[NCLASS];	/* free blocks by class */
	struct pd_frame		*scratch;	/* frames before they are kept */
	size_t			 scap;
	pd_symq_fn		 fn;		/* or NULL: resolve here */
	void			*fn_ctx;
	size_t			 bytes;		/* held in blocks */
	unsigned long		 early;		/* records applied or named
						   before their time
						   (SYMQ_BYTES_MAX) */
	int			 flushing;	/* pd_symq_flush: next() pops */
	int			 one;		/* deliver one, then stop */
	unsigned long		 nomem;		/* samples left unnamed: out of
						   memory */
	unsigned long		 lost;		/* records a sample fn's queue
						   could not sort: out of
						   memory */
	int			 dropping;	/* held records freed, not
						   applied */
	struct chunk		*cur;		/* being filled */
	struct chunk		*cfree;
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

static int	due(void *, void *, uint64_t);

struct pd_symq *
pd_symq_new(struct pd_syms *sy, const struct pd_evlist *el)
{
	struct pd_symq *q;

	if ((q = calloc(1, sizeof(*q))) == NULL)
		return NULL;
	if ((q->oq = pd_ordered_new(SYMQ_INDEX_MAX, 0, due, q)) == NULL) {
		free(q);
		return NULL;
	}
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
	struct tagchunk *c;
	struct ent *e;
	size_t i;

	if (q == NULL)
		return;
	/* What still waits for its time goes back to the pools unapplied. */
	if (q->fn != NULL) {
		q->dropping = 1;
		(void)pd_ordered_final(q->oq);
	}
	free(q->cur);
	while ((q->cur = q->cfree) != NULL) {
		q->cfree = q->cur->next;
		free(q->cur);
	}
	/* Each entry is in the ring, on the waiting list, or `last`. */
	for (i = 0; i < q->n; i++)
		ent_free(q, q->fifo[(q->head + i) & (q->cap - 1)]);
	while ((e = q->waiting) != NULL) {
		q->waiting = e->wnext;
		ent_free(q, e);
	}
	if (q->last != NULL)
		ent_free(q, q->last);
	for (i = 0; i < NCLASS; i++)
		while (q->pool[i] != NULL) {
			struct block *b = q->pool[i];

			q->pool[i] = b->next;
			free(b);
		}
	while ((c = q->chunks) != NULL) {
		q->chunks = c->next;
		free(c);
	}
	pd_ordered_free(q->oq);
	free(q->scratch);
	free(q->fifo);
	free(q);
}

void
pd_symq_set_unwind(struct pd_symq *q, struct pd_unwind *uw)
{
	q->uw = uw;
}

static int	held_due(void *, void *, uint64_t);

/* A chunk none of whose records waits, and not being filled: reused. */
static void
chunk_done(struct pd_symq *q, struct chunk *c)
{
	q->bytes -= c->size;
	if (c->size == CHUNK) {
		c->next = q->cfree;
		q->cfree = c;
	} else
		free(c);
}

/* Room for a held record of `size` bytes, in the chunk being filled. */
static struct held *
held_get(struct pd_symq *q, size_t size)
{
	struct chunk *c = q->cur;
	struct held *h;

	size = (size + 7) & ~(size_t)7;
	if (c == NULL || c->fill + size > c->size) {
		q->cur = NULL;
		if (c != NULL && c->live == 0)
			chunk_done(q, c);
		if (size <= CHUNK && q->cfree != NULL) {
			c = q->cfree;
			q->cfree = c->next;
		} else {
			size_t n = size > CHUNK ? size : CHUNK;

			if ((c = malloc(sizeof(*c) + n)) == NULL)
				return NULL;
			c->size = n;
		}
		q->bytes += c->size;
		c->fill = 0;
		c->live = 0;
		q->cur = c;
	}
	h = (struct held *)(void *)(c->mem + c->fill);
	c->fill += size;
	c->live++;
	h->c = c;
	return h;
}

/* A held record applied: its chunk reused once all of it is. */
static void
held_put(struct pd_symq *q, struct held *h)
{
	struct chunk *c = h->c;

	if (--c->live == 0 && c != q->cur)
		chunk_done(q, c);
}

int
pd_symq_set_sample_fn(struct pd_symq *q, pd_symq_fn fn, void *ctx)
{
	struct pd_ordered *oq;

	/* Its queue holds records in chunks (held_get), for held_due. */
	if ((oq = pd_ordered_new(SYMQ_INDEX_MAX, 0, held_due, q)) == NULL)
		return -1;
	pd_ordered_free(q->oq);
	q->oq = oq;
	q->fn = fn;
	q->fn_ctx = ctx;
	return 0;
}

unsigned long
pd_symq_bad(const struct pd_symq *q)
{
	return q->bad;
}

static struct tag *
tag_get(struct pd_symq *q)
{
	struct tagchunk *c;
	struct tag *t;
	size_t i;

	if (q->tags == NULL) {
		if ((c = malloc(sizeof(*c))) == NULL)
			return NULL;
		c->next = q->chunks;
		q->chunks = c;
		for (i = 0; i < TAGS_CHUNK; i++) {
			c->tags[i].next = q->tags;
			q->tags = &c->tags[i];
		}
	}
	t = q->tags;
	q->tags = t->next;
	return t;
}

static void
tag_put(struct pd_symq *q, struct tag *t)
{
	t->next = q->tags;
	q->tags = t;
}

/* A record handed out whose time has not come: onto the waiting list. */
static void
wait_add(struct pd_symq *q, struct ent *e)
{
	e->wnext = NULL;
	e->wprev = q->wtail;
	if (q->wtail != NULL)
		q->wtail->wnext = e;
	else
		q->waiting = e;
	q->wtail = e;
}

static void
wait_del(struct pd_symq *q, struct ent *e)
{
	if (e->wprev != NULL)
		e->wprev->wnext = e->wnext;
	else
		q->waiting = e->wnext;
	if (e->wnext != NULL)
		e->wnext->wprev = e->wprev;
	else
		q->wtail = e->wprev;
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
	/* Its kernel frames are its host's (a merge of several). */
	(void)pd_syms_set_event(q->sy, q->el, ev);
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
	e->res.unwound = q->uw != NULL && (s.type & PERF_SAMPLE_REGS_USER) &&
	    (s.type & PERF_SAMPLE_STACK_USER);
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
 * With a sample fn: a record applied, or a sample handed to fn; ev is
 * its event when known, else NULL.
 */
static void
apply(struct pd_symq *q, const struct pd_rec *rec, const struct pd_evsel *ev)
{
	struct pd_sample s;
	const char *why;

	if (rec->type != PERF_RECORD_SAMPLE) {
		if (pd_syms_record(q->sy, q->el, rec) < 0)
			q->bad++;
		return;
	}
	if ((ev == NULL && (ev = pd_evlist_for_rec(q->el, rec)) == NULL) ||
	    pd_sample_parse(ev, rec, &s, &why) < 0) {
		q->fn(q->fn_ctx, ev, rec, NULL);
		return;
	}
	(void)pd_syms_set_event(q->sy, q->el, ev);
	q->fn(q->fn_ctx, ev, rec, &s);
}

/* The ordered queue's deliver callback with a sample fn. */
static int
held_due(void *ctx, void *ref, uint64_t ts)
{
	struct pd_symq *q = ctx;
	struct held *h = ref;
	struct pd_rec rec;

	(void)ts;
	if (!q->dropping) {
		pd_rec_view(&rec, h->data);
		rec.offset = h->offset;
		rec.flags = h->flags;
		/* Its event as found when it came, unless events changed. */
		apply(q, &rec, h->ev != 0 && h->gen == q->el->gen ?
		    &q->el->evsels[h->ev - 1] : NULL);
	}
	held_put(q, h);
	return 0;
}

/* pd_symq_push_at with a sample fn. */
static int
push_held(struct pd_symq *q, const struct pd_rec *rec,
    const struct pd_evsel *ev, uint64_t time)
{
	struct held *h;

	if (rec->type == PD_RECORD_FINISHED_ROUND)
		return pd_ordered_round(q->oq);
	if (time == 0 || time == UINT64_MAX) {
		/* perf applies it at once, where it stands. */
		apply(q, rec, ev);
		return 0;
	}
	if ((h = held_get(q, sizeof(*h) + rec->size)) == NULL)
		return -1;
	h->offset = rec->offset;
	h->flags = rec->flags;
	h->ev = ev != NULL ? (uint32_t)(ev - q->el->evsels) + 1 : 0;
	h->gen = q->el->gen;
	memcpy(h->data, rec->data, rec->size);
	if (pd_ordered_queue(q->oq, h, time) < 0)
		return -1;
	/* Over the cap: everything waiting applied now, and said. */
	if (q->bytes > SYMQ_BYTES_MAX) {
		q->early += pd_ordered_count(q->oq);
		if (pd_ordered_final(q->oq) < 0)
			return -1;
	}
	return 0;
}

/*
 * The ordered queue's deliver callback: a record's time has come. It
 * is applied (or resolved) unless that was done early, and freed if
 * the tool has had it. Stops after one record when `one` is set.
 */
static int
due(void *ctx, void *ref, uint64_t ts)
{
	struct pd_symq *q = ctx;
	struct tag *t = ref;
	struct ent *e = t->e;

	tag_put(q, t);
	if (e != NULL) {
		e->tag = NULL;
		if (!e->done)
			deliver(q, e);
		/* `last` goes at the next pd_symq_next(). */
		if (e->out && e != q->last) {
			wait_del(q, e);
			ent_free(q, e);
		}
	}
	return q->one;
}

/*
 * Over SYMQ_BYTES_MAX: the samples at the front of the stream order,
 * up to half of what is held, are named now (they stay in the ordered
 * queue, done, until their time), so the tool can take them and what
 * follows.
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
	 * (MMAPs dated ahead): applied now, in the order it had them.
	 */
	while ((e = q->waiting) != NULL) {
		wait_del(q, e);
		e->tag->e = NULL;
		if (!e->done) {
			deliver(q, e);
			q->early++;
		}
		ent_free(q, e);
	}
	for (i = 0; i < q->n && sum < q->bytes / 2; i++) {
		e = q->fifo[(q->head + i) & (q->cap - 1)];
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
	const struct pd_evsel *ev = NULL;
	uint64_t time = 0;

	if (pd_rec_is_kernel(rec->type) && q->el->n > 0 &&
	    (ev = pd_evlist_for_rec(q->el, rec)) != NULL)
		time = pd_sample_rec_time(ev, rec);
	return pd_symq_push_at(q, rec, ev, time);
}

int
pd_symq_push_at(struct pd_symq *q, const struct pd_rec *rec,
    const struct pd_evsel *ev, uint64_t time)
{
	struct ent *e;
	struct tag *t;
	unsigned char cls;
	int r;

	if (q->fn != NULL)
		return push_held(q, rec, ev, time);
	if (q->n == q->cap) {
		size_t ncap = q->cap ? q->cap * 2 : 1024, i;
		struct ent **nf = malloc(ncap * sizeof(*nf));

		if (nf == NULL)
			return -1;
		for (i = 0; i < q->n; i++)
			nf[i] = q->fifo[(q->head + i) & (q->cap - 1)];
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
	e->sample = rec->type == PERF_RECORD_SAMPLE;
	q->fifo[(q->head + q->n++) & (q->cap - 1)] = e;

	if (rec->type == PD_RECORD_FINISHED_ROUND) {
		e->done = 1;
		return pd_ordered_round(q->oq);
	}
	if ((t = tag_get(q)) == NULL) {
		deliver(q, e);
		return -1;
	}
	t->e = e;
	e->tag = t;
	if ((r = pd_ordered_queue(q->oq, t, time)) != 0) {
		/* No time (1): perf applies it at once, where it stands. */
		e->tag = NULL;
		tag_put(q, t);
		deliver(q, e);
		if (r < 0)
			return -1;
	}
	make_room(q);
	return 0;
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
	if (q->lost > 0)
		pd_syms_note(q->sy, "out of memory: %lu record%s left out "
		    "(the symbol queue could not sort them)", q->lost,
		    q->lost > 1 ? "s were" : " was");
	q->lost = 0;
	if (q->nomem == 0)
		return;
	pd_syms_note(q->sy, "out of memory: %lu sample%s shown without "
	    "names", q->nomem, q->nomem > 1 ? "s are" : " is");
	q->nomem = 0;
}

/*
 * Everything waiting is delivered as pd_symq_next() hands records out,
 * not all at once: the frames of every sample would be held together.
 * With a sample fn, which holds no frames, at once.
 */
void
pd_symq_flush(struct pd_symq *q)
{
	if (q->fn == NULL) {
		q->flushing = 1;
		return;
	}
	/* No memory to merge the queue: what waits is lost, and said. */
	if (pd_ordered_final(q->oq) < 0) {
		q->lost += pd_ordered_count(q->oq);
		q->dropping = 1;
		(void)pd_ordered_final(q->oq);
		q->dropping = 0;
	}
	say_early(q);
	say_nomem(q);
	q->sy->notes_more = 1;
}

int
pd_symq_next(struct pd_symq *q, struct pd_rec *rec,
    const struct pd_symq_res **res)
{
	struct ent *e;

	if ((e = q->last) != NULL) {
		q->last = NULL;
		/* A sample named early has nothing left to do at its time. */
		if (e->tag != NULL && e->sample && e->done) {
			e->tag->e = NULL;
			e->tag = NULL;
		}
		if (e->tag == NULL)
			ent_free(q, e);
		else
			wait_add(q, e);
	}
	for (;;) {
		if (q->n == 0) {
			if (q->flushing) {
				/* What is left was handed out already. */
				pd_ordered_final(q->oq);
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
		if (!q->flushing || pd_ordered_count(q->oq) == 0)
			return 0;
		if (q->bytes > SYMQ_BYTES_MAX) {
			make_room(q);
			continue;
		}
		/* The oldest waiting record, alone. */
		q->one = 1;
		if (pd_ordered_final(q->oq) < 0) {
			/* No memory to merge the queue: named now. */
			deliver(q, e);
			q->early++;
		}
		q->one = 0;
	}
	q->head = (q->head + 1) & (q->cap - 1);
	q->n--;
	e->out = 1;
	q->last = e;
	*rec = e->rec;
	*res = e->sample ? &e->res : NULL;
	return 1;
}
