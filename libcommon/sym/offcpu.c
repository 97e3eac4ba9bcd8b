/* SPDX-License-Identifier: MIT */
/*
 * The off-CPU tracker: a table of the threads that are off CPU, each
 * with its switch-out time and its stack's folded ids, keyed by tid
 * (open addressing, linear probing, deletion by backward shift). A
 * thread keeps its entry (and its ids buffer, reused by its next
 * switch-out) until it exits, so a switch allocates nothing once its
 * thread has been seen.
 */
#include "libcommon/sym/offcpu.h"

#include <stdlib.h>
#include <string.h>

#include "libcommon/stream/evlist.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/sample.h"
#include "libcommon/stream/tracefmt.h"
#include "libcommon/sym/fold.h"
#include "libcommon/sym/hosts.h"
#include "libcommon/sym/stacks.h"

/*
 * prev_state's bits for a task that is exiting: EXIT_DEAD and
 * EXIT_ZOMBIE, as the kernel reports them (1 << (index - 1) since 4.14,
 * the raw exit states before): it never switches in again.
 */
#define EXITING		0x30

enum kind { K_UNKNOWN, K_OTHER, K_SWITCH, K_OFFCPU };

struct evkind {
	enum kind			 kind;
	const struct pd_tf_field	*prev_pid, *prev_state, *next_pid;
};

struct thr {
	uint32_t	 tid;
	uint8_t		 used, pending;
	uint64_t	 out;		/* switch-out time */
	uint32_t	*ids;
	size_t		 n, cap;
};

struct pd_offcpu {
	struct pd_fold		*fold;
	uint64_t		 min_ns;
	const struct pd_evlist	*el;
	struct evkind		*ek;
	size_t			 nek;
	struct thr		*t;
	size_t			 tcap, tn;	/* tcap: a power of two */
	struct hostcpu {
		uint64_t	*last;		/* each CPU's last switch */
		size_t		 n;
	}			*hc;		/* by host (hosts.h) */
	size_t			 nhc;
	struct pd_hosts		 hosts;
	uint64_t		 seen, waits, bad;
	const char		*why;
};

struct pd_offcpu *
pd_offcpu_new(struct pd_fold *fold, uint64_t min_ns)
{
	struct pd_offcpu *oc = calloc(1, sizeof(*oc));

	if (oc == NULL)
		return NULL;
	oc->fold = fold;
	oc->min_ns = min_ns;
	return oc;
}

static void
forget(struct pd_offcpu *oc)
{
	size_t i;

	for (i = 0; i < oc->tcap; i++)
		free(oc->t[i].ids);
	free(oc->t);
	oc->t = NULL;
	oc->tcap = oc->tn = 0;
	free(oc->ek);
	oc->ek = NULL;
	oc->nek = 0;
	for (i = 0; i < oc->nhc; i++)
		free(oc->hc[i].last);
	free(oc->hc);
	oc->hc = NULL;
	oc->nhc = 0;
	pd_hosts_free(&oc->hosts);
}

void
pd_offcpu_free(struct pd_offcpu *oc)
{
	if (oc == NULL)
		return;
	forget(oc);
	free(oc);
}

int
pd_offcpu_input(struct pd_offcpu *oc, const struct pd_evlist *el)
{
	forget(oc);
	oc->el = el;
	return 0;
}

uint64_t
pd_offcpu_seen(const struct pd_offcpu *oc)
{
	return oc->seen;
}

uint64_t
pd_offcpu_waits(const struct pd_offcpu *oc)
{
	return oc->waits;
}

uint64_t
pd_offcpu_bad(const struct pd_offcpu *oc, const char **why)
{
	*why = oc->why;
	return oc->bad;
}

/* What ev is to the tracker, found once per event of an input. */
static const struct evkind *
evkind(struct pd_offcpu *oc, const struct pd_evsel *ev)
{
	const struct pd_tracefmt *tf;
	const struct pd_tf_event *te;
	struct evkind *k;

	if ((size_t)ev->idx >= oc->nek) {
		size_t n = ev->idx + 8;

		if ((k = realloc(oc->ek, n * sizeof(*k))) == NULL)
			return NULL;
		memset(k + oc->nek, 0, (n - oc->nek) * sizeof(*k));
		oc->ek = k;
		oc->nek = n;
	}
	k = &oc->ek[ev->idx];
	if (k->kind != K_UNKNOWN)
		return k;
	k->kind = K_OTHER;
	if (strcmp(pd_evsel_name(ev), PD_OFFCPU_EVENT) == 0) {
		k->kind = K_OFFCPU;
		return k;
	}
	if (ev->attr.type != PERF_TYPE_TRACEPOINT)
		return k;
	/* The formats come before the samples; without them, later. */
	if ((tf = pd_evlist_tracefmt(oc->el)) == NULL) {
		k->kind = K_UNKNOWN;
		return k;
	}
	if ((te = pd_tracefmt_event(tf, ev->attr.config)) == NULL)
		return k;
	if (strcmp(te->system, "sched") != 0 ||
	    strcmp(te->name, "sched_switch") != 0)
		return k;
	k->kind = K_SWITCH;
	k->prev_pid = pd_tf_event_field(te, "prev_pid");
	k->prev_state = pd_tf_event_field(te, "prev_state");
	k->next_pid = pd_tf_event_field(te, "next_pid");
	return k;
}

static size_t
slot(const struct pd_offcpu *oc, uint32_t tid)
{
	size_t i = (tid * 0x9e3779b1U) & (oc->tcap - 1);

	while (oc->t[i].used && oc->t[i].tid != tid)
		i = (i + 1) & (oc->tcap - 1);
	return i;
}

static int
grow(struct pd_offcpu *oc)
{
	struct thr *old = oc->t;
	size_t ocap = oc->tcap, i;

	oc->tcap = ocap ? ocap * 2 : 256;
	if ((oc->t = calloc(oc->tcap, sizeof(*oc->t))) == NULL) {
		oc->t = old;
		oc->tcap = ocap;
		return -1;
	}
	for (i = 0; i < ocap; i++)
		if (old[i].used)
			oc->t[slot(oc, old[i].tid)] = old[i];
	free(old);
	return 0;
}

/* The entry of tid, made when `make`; NULL when none (or no memory). */
static struct thr *
thread(struct pd_offcpu *oc, uint32_t tid, int make)
{
	struct thr *t;

	if (oc->tcap == 0 && (!make || grow(oc) < 0))
		return NULL;
	t = &oc->t[slot(oc, tid)];
	if (t->used || !make)
		return t->used ? t : NULL;
	if ((oc->tn + 1) * 2 > oc->tcap) {
		if (grow(oc) < 0)
			return NULL;
		t = &oc->t[slot(oc, tid)];
	}
	t->used = 1;
	t->tid = tid;
	oc->tn++;
	return t;
}

/* An exited thread's entry goes; the ones after it move back. */
static void
drop(struct pd_offcpu *oc, struct thr *t)
{
	size_t i = t - oc->t, j = i, h;

	free(t->ids);
	for (;;) {
		j = (j + 1) & (oc->tcap - 1);
		if (!oc->t[j].used)
			break;
		h = (oc->t[j].tid * 0x9e3779b1U) & (oc->tcap - 1);
		/* j's home is cyclically in (i, j]: it stays. */
		if (i <= j ? (i < h && h <= j) : (i < h || h <= j))
			continue;
		oc->t[i] = oc->t[j];
		i = j;
	}
	memset(&oc->t[i], 0, sizeof(oc->t[i]));
	oc->tn--;
}

static int
bad(struct pd_offcpu *oc, const char *why)
{
	oc->bad++;
	oc->why = why;
	return 0;
}

/* A field's value in the sample's RAW data; -1 when it is not there. */
static int
field(const struct pd_tf_field *f, const struct pd_sample *s, int be,
    uint64_t *v)
{
	const unsigned char *p;
	size_t n;

	if (f == NULL || f->kind != PD_TF_NUM ||
	    pd_tf_field_bytes(f, be, s->raw, s->raw_size, &p, &n) < 0)
		return -1;
	*v = pd_tf_get(p, f->size, be, f->is_signed);
	return 0;
}

static int
charge(struct pd_offcpu *oc, struct thr *t, uint64_t in)
{
	t->pending = 0;
	if (in < t->out || in - t->out < oc->min_ns)
		return 0;
	oc->waits++;
	return pd_stacks_add(pd_fold_stacks(oc->fold), t->ids, t->n, 1,
	    in - t->out);
}

/*
 * Where a CPU's switch was last seen, for a switch-in the stream lacks;
 * UINT64_MAX when none or no CPU. 0, or -1 when out of memory.
 */
/* The last switch on the sample's CPU of host k, and this one noted. */
static int
cpu_switch(struct pd_offcpu *oc, unsigned k, const struct pd_sample *s,
    uint64_t *last)
{
	struct hostcpu *h;

	*last = UINT64_MAX;
	if (!(s->type & PERF_SAMPLE_CPU) || s->cpu >= 65536)
		return 0;
	if (k >= oc->nhc) {
		h = realloc(oc->hc, (k + 1) * sizeof(*h));
		if (h == NULL)
			return -1;
		memset(h + oc->nhc, 0, (k + 1 - oc->nhc) * sizeof(*h));
		oc->hc = h;
		oc->nhc = k + 1;
	}
	h = &oc->hc[k];
	if (s->cpu >= h->n) {
		size_t n = s->cpu + 64, i;
		uint64_t *p = realloc(h->last, n * sizeof(*p));

		if (p == NULL)
			return -1;
		for (i = h->n; i < n; i++)
			p[i] = UINT64_MAX;
		h->last = p;
		h->n = n;
	}
	*last = h->last[s->cpu];
	h->last[s->cpu] = s->time;
	return 0;
}

/*
 * The switch-out: the thread's stack, kept until it switches in. A
 * thread switching out while it waits missed its switch-in (a sample
 * the stream lacks): it ran since the CPU's last switch at the latest,
 * and the wait is taken to end there, as perf sched timehist takes it.
 */
static int
switch_out(struct pd_offcpu *oc, struct pd_syms *sy, uint32_t tid,
    uint64_t state, uint64_t cpu_last, const struct pd_sample *s,
    const struct pd_frame *fr, size_t n)
{
	const uint32_t *ids;
	struct thr *t;
	size_t k;
	int r;

	if ((t = thread(oc, tid, 0)) != NULL && t->pending) {
		if (cpu_last != UINT64_MAX && charge(oc, t, cpu_last) < 0)
			return -1;
		t->pending = 0;
	}

	if (state & EXITING) {
		if ((t = thread(oc, tid, 0)) != NULL)
			drop(oc, t);
		return 0;
	}
	if ((r = pd_fold_stack_frames(oc->fold, sy, PD_OFFCPU_EVENT, s->pid,
	    tid, fr, n, &ids, &k)) <= 0)
		return r;
	if ((t = thread(oc, tid, 1)) == NULL)
		return -1;
	if (k > t->cap) {
		uint32_t *p = realloc(t->ids, k * sizeof(*p));

		if (p == NULL)
			return -1;
		t->ids = p;
		t->cap = k;
	}
	memcpy(t->ids, ids, k * sizeof(*ids));
	t->n = k;
	t->out = s->time;
	t->pending = 1;
	return 0;
}

int
pd_offcpu_sample(struct pd_offcpu *oc, struct pd_syms *sy,
    const struct pd_evsel *ev, const struct pd_sample *s,
    const struct pd_frame *fr, size_t n)
{
	const struct evkind *k;
	const struct pd_tracefmt *tf;
	const uint32_t *ids;
	struct thr *t;
	uint64_t prev, state = 0, next, cpu_last;
	uint32_t base;
	unsigned host;
	size_t nids;
	int be, r;

	if ((k = evkind(oc, ev)) == NULL)
		return -1;
	if (k->kind == K_OFFCPU) {
		oc->seen++;
		if (!(s->type & PERF_SAMPLE_PERIOD) || s->period < oc->min_ns)
			return 1;
		if ((r = pd_fold_stack_frames(oc->fold, sy, PD_OFFCPU_EVENT,
		    s->pid, s->tid, fr, n, &ids, &nids)) < 0 ||
		    (r > 0 && pd_stacks_add(pd_fold_stacks(oc->fold), ids,
		    nids, 1, s->period) < 0))
			return -1;
		oc->waits++;
		return 1;
	}
	if (k->kind != K_SWITCH)
		return 0;
	oc->seen++;
	tf = pd_evlist_tracefmt(oc->el);
	be = pd_tracefmt_big_endian(tf);
	if (!(s->type & PERF_SAMPLE_TIME))
		return bad(oc, "sched_switch samples without their time");
	if (!(s->type & PERF_SAMPLE_RAW) || field(k->prev_pid, s, be,
	    &prev) < 0 || field(k->next_pid, s, be, &next) < 0 ||
	    (k->prev_state != NULL && field(k->prev_state, s, be,
	    &state) < 0))
		return bad(oc, "sched_switch without prev_pid or next_pid");
	/*
	 * A merge of several hosts: each its own CPUs, and its own pids in
	 * the fields, which the merge moved in the samples only.
	 */
	host = pd_hosts_event(&oc->hosts, oc->el, ev);
	base = host * PD_PIDS_HOST_STEP;
	if (cpu_switch(oc, host, s, &cpu_last) < 0)
		return -1;
	/* The idle task (0) is never waiting. */
	if ((uint32_t)prev != 0 && switch_out(oc, sy, (uint32_t)prev + base,
	    state, cpu_last, s, fr, n) < 0)
		return -1;
	if ((uint32_t)next == 0 || (t = thread(oc, (uint32_t)next + base,
	    0)) == NULL || !t->pending)
		return 1;
	return charge(oc, t, s->time) < 0 ? -1 : 1;
}
