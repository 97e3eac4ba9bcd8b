/* SPDX-License-Identifier: MIT */
/*
 * The thread tracker against the ordered-events core. The tracker
 * keeps perf's round rule in a cheap form of its own (two lists per
 * thread, see threads.c) rather than queueing every sample; this test
 * is what lets that stand beside the one core. Random streams of
 * COMM, FORK, samples and FINISHED_ROUNDs, with times that run late
 * within and across rounds and some without a time, go both ways:
 *
 *  - into the tracker, as pdstat feeds it;
 *  - into pd_ordered, whose deliveries drive a plain model of perf's
 *    threads (thread__new's ":tid" comm, a first comm that overrides
 *    it, later comms that start a new one, a FORK that replaces the
 *    tid and takes the parent's comm).
 *
 * The samples counted per comm must be equal.
 */
#include "libcommon/stream/ordered.h"
#include "libcommon/stream/threads.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "libcommon/stream/perf.h"
#include "libcommon/stream/record.h"
#include "tests/unit/rec.h"
#include "tests/unit/t.h"

#define STREAMS		300
#define EVENTS		400
#define TIDS		6		/* tids 1..TIDS */
#define NAMES_MAX	(TIDS + EVENTS)

enum { EV_SAMPLE, EV_COMM, EV_FORK };

struct ev {
	int		 kind;
	uint32_t	 tid, ptid;	/* ptid: FORK's parent */
	char		 name[8];
};

/* The model: perf's threads, one comm object per name change. */
struct model {
	char		 name[NAMES_MAX][16];
	uint64_t	 count[NAMES_MAX];
	unsigned	 nname;
	int		 obj[TIDS + 1];	/* tid -> its comm object, -1: none */
	int		 set[TIDS + 1];	/* perf's comm_set */
};

static struct model m;
static struct ev evs[EVENTS];
static uint64_t rng = 88172645463325252ULL;

static uint32_t
rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % n);
}

static int
model_obj(const char *name)
{
	T(m.nname < NAMES_MAX);
	snprintf(m.name[m.nname], sizeof(m.name[0]), "%s", name);
	m.count[m.nname] = 0;
	return (int)m.nname++;
}

/* perf's machine__findnew_thread: a new thread is named ":tid". */
static int
model_thread(uint32_t tid)
{
	char s[16];

	if (m.obj[tid] < 0) {
		snprintf(s, sizeof(s), ":%u", tid);
		m.obj[tid] = model_obj(s);
		m.set[tid] = 0;
	}
	return m.obj[tid];
}

/* perf's thread__set_comm. */
static void
model_set_comm(uint32_t tid, const char *name)
{
	int o = model_thread(tid);

	if (!m.set[tid])
		snprintf(m.name[o], sizeof(m.name[0]), "%s", name);
	else
		m.obj[tid] = model_obj(name);
	m.set[tid] = 1;
}

static void
model_apply(const struct ev *e)
{
	char parent[16];

	switch (e->kind) {
	case EV_SAMPLE:
		m.count[model_thread(e->tid)]++;
		break;
	case EV_COMM:
		model_set_comm(e->tid, e->name);
		break;
	case EV_FORK:
		snprintf(parent, sizeof(parent), "%s",
		    m.name[model_thread(e->ptid)]);
		m.obj[e->tid] = -1;	/* the old thread is retired */
		model_thread(e->tid);
		/* thread__fork: the parent's comm only if it has one */
		if (m.set[e->ptid])
			model_set_comm(e->tid, parent);
		break;
	}
}

static int
deliver(void *ctx, void *rec, uint64_t ts)
{
	model_apply(rec);
	return 0;
}

static uint64_t
model_count(const char *name)
{
	uint64_t n = 0;
	unsigned i;

	for (i = 0; i < m.nname; i++)
		if (strcmp(m.name[i], name) == 0)
			n += m.count[i];
	return n;
}

/* The record of e, as a stream carries it, into the tracker. */
static void
tracker_apply(struct pd_threads *th, const struct ev *e, uint64_t t)
{
	struct pd_rec r;
	size_t at;

	if (e->kind == EV_SAMPLE) {
		T(pd_threads_sample(th, e->tid, e->tid, t) == 0);
		return;
	}
	b_len = 0;
	if (e->kind == EV_COMM) {
		at = b_rec(PERF_RECORD_COMM, 0);
		b_u32(e->tid);
		b_u32(e->tid);
		b_str(e->name, 8);
	} else {
		at = b_rec(PERF_RECORD_FORK, 0);
		b_u32(e->tid);
		b_u32(e->ptid);
		b_u32(e->tid);
		b_u32(e->ptid);
		b_u64(t);
	}
	b_end(at);
	memset(&r, 0, sizeof(r));
	r.data = b_buf + at;
	r.type = pd_get_u32(b_buf + at);
	r.size = pd_get_u16(b_buf + at + 6);
	T(pd_threads_record(th, &r, t) == 0);
}

static void
tracker_round(struct pd_threads *th)
{
	struct pd_rec r;
	size_t at;

	b_len = 0;
	at = b_rec(PD_RECORD_FINISHED_ROUND, 0);
	b_end(at);
	memset(&r, 0, sizeof(r));
	r.data = b_buf + at;
	r.type = PD_RECORD_FINISHED_ROUND;
	r.size = 8;
	T(pd_threads_record(th, &r, 0) == 0);
}

/* One random stream both ways; 0 when the counts agree. */
static int
one_stream(unsigned seq)
{
	struct pd_threads_row rows[NAMES_MAX];
	struct pd_threads *th;
	struct pd_ordered *o;
	uint64_t clock = 1000, t;
	size_t i, n;
	int bad = 0, q;

	memset(&m, 0, sizeof(m));
	memset(m.obj, -1, sizeof(m.obj));
	T((th = pd_threads_new()) != NULL);
	T((o = pd_ordered_new(UINT64_MAX, 0, deliver, NULL)) != NULL);
	if (th == NULL || o == NULL)
		return 1;
	for (i = 0; i < EVENTS; i++) {
		struct ev *e = &evs[i];
		uint32_t k = rnd(100);

		if (k < 5) {
			T(pd_ordered_round(o) == 0);
			tracker_round(th);
			clock += 50 + rnd(200);
			continue;
		}
		e->tid = 1 + rnd(TIDS);
		e->kind = k < 80 ? EV_SAMPLE : k < 93 ? EV_COMM : EV_FORK;
		e->ptid = 1 + rnd(TIDS);
		if (e->ptid == e->tid)
			e->ptid = e->tid % TIDS + 1;
		snprintf(e->name, sizeof(e->name), "c%u", rnd(5));
		/*
		 * Mostly near the clock, some far behind it (late across
		 * rounds), equal times now and then, a few without one.
		 */
		k = rnd(100);
		t = k < 3 ? 0 : k < 15 ? clock - rnd(400) : k < 25 ?
		    clock : clock + rnd(100);
		clock += rnd(4);
		q = t == 0 ? 1 : pd_ordered_queue(o, e, t);
		T(q >= 0);
		if (q == 1)
			model_apply(e);
		tracker_apply(th, e, t);
	}
	T(pd_ordered_final(o) == 0);
	T(pd_threads_end(th) == 0);
	n = pd_threads_top_comms(th, rows, NAMES_MAX);
	for (i = 0; i < n; i++)
		if (rows[i].samples != model_count(rows[i].comm)) {
			fprintf(stderr, "stream %u: comm %s: tracker %llu,"
			    " ordered-events %llu\n", seq, rows[i].comm,
			    (unsigned long long)rows[i].samples,
			    (unsigned long long)model_count(rows[i].comm));
			bad = 1;
		}
	/* And no comm of the model's left out of the tracker's table. */
	for (i = 0; i < m.nname; i++) {
		uint64_t have = 0;
		size_t j;

		for (j = 0; j < n; j++)
			if (strcmp(rows[j].comm, m.name[i]) == 0)
				have = rows[j].samples;
		if (have != model_count(m.name[i]))
			bad = 1;
	}
	pd_ordered_free(o);
	pd_threads_free(th);
	return bad;
}

int
main(void)
{
	unsigned s, bad = 0;

	for (s = 0; s < STREAMS; s++)
		bad += one_stream(s) != 0;
	T(bad == 0);
	return T_END();
}
