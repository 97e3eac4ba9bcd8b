/* SPDX-License-Identifier: MIT */
/*
 * The symbolizer's time-order queue: records come back in stream order,
 * each sample named with the state of its own time (a COMM written after
 * the samples it precedes in time still names them), callchains become
 * frames, and after the first rounds nothing is allocated per record;
 * with a sample fn the same in time order, and nothing handed back.
 */
#include "libcommon/sym/symq.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libcommon/stream/evlist.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/record.h"
#include "libcommon/stream/sample.h"
#include "libcommon/sym/symbols.h"
#include "tests/unit/rec.h"
#include "tests/unit/t.h"

/*
 * Counting allocations: this program's malloc family wraps glibc's. The
 * sanitizers bring their own allocator, so there the count is not kept.
 */
#if defined(__SANITIZE_ADDRESS__)
#define COUNTING	0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define COUNTING	0
#endif
#endif
#ifndef COUNTING
#define COUNTING	1
static unsigned long nalloc;
void	*__libc_malloc(size_t);
void	*__libc_calloc(size_t, size_t);
void	*__libc_realloc(void *, size_t);
void	*malloc(size_t n) { nalloc++; return __libc_malloc(n); }
void	*calloc(size_t n, size_t m) { nalloc++; return __libc_calloc(n, m); }
void	*realloc(void *p, size_t n) { nalloc++; return __libc_realloc(p, n); }
#endif

#define ROUNDS		100
#define PER_ROUND	64
#define PID		7

static const uint64_t sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
    PERF_SAMPLE_TIME | PERF_SAMPLE_CALLCHAIN;

/* A sample at time t whose chain is n entries t+1, t+2, ... */
static size_t
sample(uint64_t t, unsigned n)
{
	size_t at = b_rec(PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	unsigned i;

	b_u64(0x1000 + t);
	b_u32(PID);
	b_u32(PID);
	b_u64(t);
	b_u64(n);
	for (i = 0; i < n; i++)
		b_u64(t + 1 + i);
	b_end(at);
	return at;
}

/* A COMM with its sample_id_all trailer (tid, time). */
static size_t
comm(uint64_t t, const char *name)
{
	size_t at = b_rec(PERF_RECORD_COMM, 0);

	b_u32(PID);
	b_u32(PID);
	b_str(name, 8);
	b_u32(PID);
	b_u32(PID);
	b_u64(t);
	b_end(at);
	return at;
}

static size_t
round_end(void)
{
	size_t at = b_rec(PD_RECORD_FINISHED_ROUND, 0);

	b_end(at);
	return at;
}

struct check {
	size_t		 nrec;		/* records handed back */
	size_t		 nsample;
	uint64_t	 last_time;	/* stream order: the last sample's */
	int		 order_ok, frames_ok, comm_ok;
};

/* Takes what the queue hands back: stream order, frames, comm. */
static void
drain(struct pd_symq *q, struct check *c, const size_t *offs, size_t n)
{
	const struct pd_symq_res *res;
	struct pd_rec r;
	uint64_t t;
	unsigned nr, i;

	while (pd_symq_next(q, &r, &res) == 1) {
		if (c->nrec >= n || r.data == NULL ||
		    memcmp(r.data, b_buf + offs[c->nrec], r.size) != 0)
			c->order_ok = 0;
		c->nrec++;
		if (r.type != PERF_RECORD_SAMPLE)
			continue;
		c->nsample++;
		t = pd_get_u64(r.data + 24);
		nr = (unsigned)pd_get_u64(r.data + 32);

		/* The chain's entries, or the ip when it is empty. */
		if (res == NULL || res->bad || res->syms == NULL ||
		    res->nframes != (nr > 0 ? nr : 1))
			c->frames_ok = 0;
		else if (nr == 0)
			c->frames_ok &= res->frames[0].addr == 0x1000 + t;
		else
			for (i = 0; i < nr; i++)
				if (res->frames[i].addr != t + 1 + i)
					c->frames_ok = 0;
		/* Renamed at time 1000: samples before are "early". */
		if (res == NULL || res->comm == NULL ||
		    strcmp(res->comm, t < 1000 ? "early" : "late") != 0)
			c->comm_ok = 0;
	}
}

/*
 * The stream both tests read: a COMM, then ROUNDS rounds of samples
 * newest first, as when two CPUs' buffers are written one after the
 * other; round 1 also holds the rename at 1000, written after samples
 * later than it; with `bad`, round 2 a sample that does not parse
 * (*bad: its offset). The records' offsets into offs; returns how many.
 */
static size_t
stream(size_t *offs, size_t *bad)
{
	size_t n = 0;
	unsigned r, k;

	b_len = 0;
	offs[n++] = comm(0, "early");
	for (r = 0; r < ROUNDS; r++) {
		for (k = 0; k < PER_ROUND; k++)
			offs[n++] = sample(r * 1000 + 999 - k * 7, k % 9);
		if (r == 1)
			offs[n++] = comm(1000, "late");
		if (r == 2 && bad != NULL) {
			/* A chain of 99 entries that are not there. */
			size_t at = sample(r * 1000 + 5, 0);

			memcpy(b_buf + at + 32, &(uint64_t){ 99 }, 8);
			offs[n++] = *bad = at;
		}
		offs[n++] = round_end();
	}
	return n;
}

#if COUNTING
/* Nothing allocated since `warm`, counted after round `round`. */
static void
no_allocs_since(unsigned long warm, unsigned round)
{
	if (nalloc != warm)
		fprintf(stderr, "%lu allocations after round %u\n",
		    nalloc - warm, round);
	T(nalloc == warm);
}
#endif

/* One event, a symbolizer without files, and its queue: 0, or -1. */
static int
queue_open(struct pd_evlist *el, struct pd_syms **sy, struct pd_symq **q)
{
	static const struct pd_syms_opts opts = { .dso_only = 1 };
	struct t_attr a = { .type = 1, .sample_type = sample_type,
	    .flags = PD_ATTR_SAMPLE_ID_ALL };
	const char *why;

	pd_evlist_init(el);
	b_len = 0;
	b_attr(&a);
	T(pd_evlist_add(el, b_buf, b_len, NULL, 0, &why) == 0);
	T((*sy = pd_syms_new(&opts)) != NULL);
	T(*sy == NULL || (*q = pd_symq_new(*sy, el)) != NULL);
	return *sy != NULL && *q != NULL ? 0 : -1;
}

static void
test_queue(void)
{
	static size_t offs[ROUNDS * (PER_ROUND + 2) + 4];
	struct check c = { .order_ok = 1, .frames_ok = 1, .comm_ok = 1 };
	struct pd_evlist el;
	struct pd_syms *sy;
	struct pd_symq *q;
	size_t n, i;
#if COUNTING
	size_t nround = 0;
	unsigned long warm = 0;
#endif

	if (queue_open(&el, &sy, &q) < 0)
		return;
	n = stream(offs, NULL);
	for (i = 0; i < n; i++) {
		struct pd_rec rec = b_view(offs[i]);

		T(pd_symq_push(q, &rec) == 0);
		drain(q, &c, offs, n);
#if COUNTING
		if (rec.type == PD_RECORD_FINISHED_ROUND && ++nround == 10)
			warm = nalloc;
#endif
	}
	pd_symq_flush(q);
	drain(q, &c, offs, n);
	T(c.nrec == n);
	T(c.nsample == (size_t)ROUNDS * PER_ROUND);
	T(c.order_ok);
	T(c.frames_ok);
	T(c.comm_ok);
	T(pd_symq_bad(q) == 0);
#if COUNTING
	/* The same rounds again and again: nothing new to allocate. */
	no_allocs_since(warm, 10);
#endif
	pd_symq_free(q);
	pd_syms_free(sy);
	pd_evlist_free(&el);
}

/* What a sample fn saw. */
struct fncheck {
	struct pd_syms	*sy;
	size_t		 nsample, nbad;
	uint64_t	 last_time, bad_off;
	int		 order_ok, comm_ok;
};

static void
fn_sample(void *ctx, const struct pd_evsel *ev, const struct pd_rec *rec,
    const struct pd_sample *s)
{
	struct fncheck *c = ctx;
	const char *comm;

	if (s == NULL) {
		c->nbad++;
		c->bad_off = ev != NULL ? rec->offset : UINT64_MAX;
		return;
	}
	c->nsample++;
	if (s->time < c->last_time)
		c->order_ok = 0;
	c->last_time = s->time;
	comm = pd_syms_comm(c->sy, s->pid, s->tid);
	if (comm == NULL || strcmp(comm, s->time < 1000 ? "early" :
	    "late") != 0)
		c->comm_ok = 0;
}

/*
 * With a sample fn: samples in time order, each with the comm of its
 * time, one that does not parse handed over with its offset, nothing
 * handed back, and after the first rounds nothing allocated.
 */
static void
test_fn(void)
{
	static size_t offs[ROUNDS * (PER_ROUND + 2) + 4];
	struct fncheck c = { .order_ok = 1, .comm_ok = 1 };
	const struct pd_symq_res *res;
	struct pd_evlist el;
	struct pd_symq *q;
	struct pd_rec out;
	size_t n, i, bad = 0, back = 0;
#if COUNTING
	size_t nround = 0;
	unsigned long warm = 0;
#endif

	if (queue_open(&el, &c.sy, &q) < 0)
		return;
	T(pd_symq_set_sample_fn(q, fn_sample, &c) == 0);
	n = stream(offs, &bad);
	for (i = 0; i < n; i++) {
		struct pd_rec rec = b_view(offs[i]);

		rec.offset = offs[i];
		T(pd_symq_push(q, &rec) == 0);
		while (pd_symq_next(q, &out, &res) == 1)
			back++;
#if COUNTING
		/*
		 * A chunk holds some 40 of these rounds: by the 50th a
		 * second is in use, and from then on the two take turns.
		 */
		if (rec.type == PD_RECORD_FINISHED_ROUND && ++nround == 50)
			warm = nalloc;
#endif
	}
	pd_symq_flush(q);
	while (pd_symq_next(q, &out, &res) == 1)
		back++;
	T(back == 0);
	T(c.nsample == (size_t)ROUNDS * PER_ROUND);
	T(c.order_ok);
	T(c.comm_ok);
	T(c.nbad == 1);
	T(c.bad_off == bad);
	T(pd_symq_bad(q) == 0);
#if COUNTING
	no_allocs_since(warm, 50);
#endif
	pd_symq_free(q);
	pd_syms_free(c.sy);
	pd_evlist_free(&el);
}

/*
 * Past the queue's cap (64 MiB) with no round to let records out: what
 * waits is applied then, once, and counted as early; the queue then
 * goes on holding (not applying each record as it comes), and every
 * sample still comes out once, in time order.
 */
static void
test_fn_cap(void)
{
	struct fncheck c = { .order_ok = 1, .comm_ok = 1 };
	const char *note;
	struct pd_evlist el;
	struct pd_symq *q;
	struct pd_rec rec;
	unsigned long early = 0;
	size_t at, i, n = 1500000;

	if (queue_open(&el, &c.sy, &q) < 0)
		return;
	T(pd_symq_set_sample_fn(q, fn_sample, &c) == 0);
	b_len = 0;
	rec = b_view(comm(0, "late"));
	T(pd_symq_push(q, &rec) == 0);
	at = sample(1000, 0);
	for (i = 0; i < n; i++) {
		memcpy(b_buf + at + 24, &(uint64_t){ 1000 + i }, 8);
		rec = b_view(at);
		if (pd_symq_push(q, &rec) < 0) {
			T(0);
			break;
		}
	}
	pd_symq_flush(q);
	T(c.nsample == n);
	T(c.order_ok);
	T(c.comm_ok);
	while ((note = pd_syms_next_note(c.sy)) != NULL)
		if (strstr(note, "held over") != NULL)
			early = strtoul(strchr(note, ':') + 2, NULL, 10);
	/* 72 bytes a record held: some 930,000 fill the cap, once. */
	T(early > n / 2 && early < n * 3 / 4);
	pd_symq_free(q);
	pd_syms_free(c.sy);
	pd_evlist_free(&el);
}

int
main(void)
{
	test_queue();
	test_fn();
	test_fn_cap();
	return T_END();
}
