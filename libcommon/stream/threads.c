/* SPDX-License-Identifier: MIT */
/*
 * The tracker keeps perf's ordered-events round (ordered-events.c) as
 * a split of what waits: a timed record that comes while the limit of
 * the next FINISHED_ROUND is L goes out at that round when its time is
 * not above L, else at the round after it (L then becomes the newest
 * time queued, which is at least its own). So each waiting sample sits
 * in one of two lists of its thread, "due at the next round" and "due
 * at the one after", and a round hands out the first list whole. Only
 * when a COMM or FORK of a thread goes out in the same round are its
 * samples compared with it, by time and then by arrival: a task keeps
 * the lengths its threads' lists had when it came.
 */
#include "libcommon/stream/threads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libcommon/stream/event.h"
#include "libcommon/stream/idmap.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/record.h"

#define NONE		UINT32_MAX
#define COMM_LEN	16		/* the kernel's TASK_COMM_LEN */

/*
 * The bytes of sample lists past which the older half of what waits is
 * counted at once (perf's OE_FLUSH__HALF, which perf report does only
 * under a queue size it is given).
 */
#define WAIT_BYTES_MAX	(64U << 20)

/* Bytes of lists kept from threads with nothing waiting, for reuse. */
#define IDLE_BYTES_MAX	(8U << 20)

/* The entries a thread's sample list starts with. */
#define LIST_MIN	256

/* Distinct comms kept; samples of further ones are counted apart. */
#define NAMES_MAX	(1U << 16)

/* A comm, with the samples it names so far; interned. */
struct name {
	uint64_t	 samples;
	char		 s[];
};

/*
 * A tid and perf's thread for it. A FORK of a known tid retires the
 * thread (its counts stay) and starts a new one in its place.
 */
struct slot {
	uint32_t	 tid;
	uint32_t	 pid;		/* the thread's, (uint32_t)-1 unknown */
	uint32_t	 spid;		/* of its first sample waiting */
	struct name	*comm;		/* NULL: not set, ":tid" */
	uint64_t	 seg;		/* samples named comm, or the first
					   comm set while comm is NULL */
	uint64_t	 samples;	/* of this thread */
	struct pd_threads_list w[2];	/* waiting, by batch (cur: now) */
	uint64_t	 counted;	/* in a flush with a task of the
					   thread: its samples up to it */
	unsigned char	 exists, active, caught;
};

/* A COMM or FORK waiting for its round. */
struct task {
	uint64_t	 time;
	uint32_t	 seq;		/* arrival order of tasks (wraps) */
	uint32_t	 type;
	uint32_t	 batch;
	uint32_t	 pid, ppid;	/* COMM: ppid unused */
	uint32_t	 slot, pslot;	/* of tid, ptid; NONE: untracked */
	uint32_t	 n[2], pn[2];	/* their list lengths at arrival */
	char		 comm[COMM_LEN];
};

/* Threads that retired with samples: for the process table. */
struct gone {
	uint32_t	 pid;
	uint64_t	 samples;
};

struct pd_threads {
	struct pd_threads_hot hot;	/* first: threads.h reads it */
	struct pd_threads_list none;	/* hot lists when there is none */
	unsigned	 cur;		/* the batch due at the next round */
	struct slot	*slots;		/* by index, never moved in order */
	uint32_t	 nslots;
	size_t		 capslots;
	uint32_t	*hash;		/* slot index + 1 by tid */
	size_t		 hcap;
	uint64_t	 seed;		/* tids come from the stream */
	uint32_t	 last;		/* the last sample's slot */

	uint64_t	 nother[2];	/* other timed records waiting */
	uint32_t	 seq;
	size_t		 list_bytes;	/* of every list, spares too */
	struct pd_threads_list *spare;	/* lists of idle slots, for reuse */
	size_t		 nspare, capspare;
	size_t		 spare_bytes;

	uint32_t	*active;	/* slots with samples waiting */
	uint32_t	 nactive;
	size_t		 capactive;
	struct task	*tasks;		/* waiting, in arrival order */
	size_t		 ntasks, captasks;
	struct task	*due;		/* a flush's tasks, by time */
	size_t		 ndue, capdue;

	struct name	**names;	/* open addressing */
	size_t		 namecap, nnames;
	struct gone	*gone;
	size_t		 ngone, capgone;
	uint64_t	 untracked;
};

/*
 * The array p of *cap elements of size sz, grown to hold n: p itself
 * when it has room, else moved (*cap updated), or NULL when out of
 * memory (p still valid).
 */
static void *
grown(void *p, size_t *cap, size_t n, size_t sz)
{
	size_t ncap = *cap ? *cap : 16;

	if (n <= *cap)
		return p;
	while (ncap < n)
		ncap *= 2;
	if ((p = realloc(p, ncap * sz)) != NULL)
		*cap = ncap;
	return p;
}

/* ----- names ----- */

static uint64_t
hash_str(const struct pd_threads *th, const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ULL;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return pd_idmap_mix(h, th->seed);
}

/* The interned name s[0..len), or NULL (out of memory, or too many). */
static struct name *
intern(struct pd_threads *th, const char *s, size_t len)
{
	struct name *nm;
	size_t i, mask;

	if (th->nnames * 2 >= th->namecap) {
		size_t ncap = th->namecap ? th->namecap * 2 : 256, j;
		struct name **nv;

		if ((nv = calloc(ncap, sizeof(*nv))) == NULL)
			return NULL;
		for (j = 0; j < th->namecap; j++) {
			if ((nm = th->names[j]) == NULL)
				continue;
			i = hash_str(th, nm->s, strlen(nm->s)) & (ncap - 1);
			while (nv[i] != NULL)
				i = (i + 1) & (ncap - 1);
			nv[i] = nm;
		}
		free(th->names);
		th->names = nv;
		th->namecap = ncap;
	}
	mask = th->namecap - 1;
	for (i = hash_str(th, s, len) & mask; (nm = th->names[i]) != NULL;
	    i = (i + 1) & mask)
		if (strncmp(nm->s, s, len) == 0 && nm->s[len] == '\0')
			return nm;
	if (th->nnames >= NAMES_MAX ||
	    (nm = malloc(sizeof(*nm) + len + 1)) == NULL)
		return NULL;
	nm->samples = 0;
	memcpy(nm->s, s, len);
	nm->s[len] = '\0';
	th->names[i] = nm;
	th->nnames++;
	return nm;
}

/* perf's name for a thread that never had a comm: ":tid". */
static struct name *
default_name(struct pd_threads *th, uint32_t tid)
{
	char buf[16];
	int n = snprintf(buf, sizeof(buf), ":%d", (int32_t)tid);

	return intern(th, buf, (size_t)n);
}

/* ----- threads ----- */

/* The inline path takes the slow way for the next samples. */
static void
unhot(struct pd_threads *th)
{
	unsigned i;

	for (i = 0; i < PD_THREADS_LANES; i++)
		th->hot.lane[i].now = th->hot.lane[i].later = &th->none;
}

static uint32_t
slot_find(const struct pd_threads *th, uint32_t tid)
{
	size_t i, mask = th->hcap - 1;

	if (th->hcap == 0)
		return NONE;
	for (i = pd_idmap_mix(tid, th->seed) & mask; th->hash[i] != 0;
	    i = (i + 1) & mask)
		if (th->slots[th->hash[i] - 1].tid == tid)
			return th->hash[i] - 1;
	return NONE;
}

static int
hash_grow(struct pd_threads *th)
{
	size_t ncap = th->hcap ? th->hcap * 2 : 1024, i, j;
	uint32_t *nh;

	if ((nh = calloc(ncap, sizeof(*nh))) == NULL)
		return -1;
	for (j = 0; j < th->nslots; j++) {
		i = pd_idmap_mix(th->slots[j].tid, th->seed) & (ncap - 1);
		while (nh[i] != 0)
			i = (i + 1) & (ncap - 1);
		nh[i] = (uint32_t)j + 1;
	}
	free(th->hash);
	th->hash = nh;
	th->hcap = ncap;
	return 0;
}

/* The slot of tid, made if need be; NONE when full or out of memory. */
static uint32_t
slot_get(struct pd_threads *th, uint32_t tid)
{
	void *g;
	uint32_t k = slot_find(th, tid);
	size_t i, mask;
	struct slot *s;

	if (k != NONE)
		return k;
	if (th->nslots >= PD_THREADS_MAX)
		return NONE;
	if ((th->nslots + 1) * 2 > th->hcap && hash_grow(th) < 0)
		return NONE;
	if (th->nslots == th->capslots) {
		if ((g = grown(th->slots, &th->capslots, th->nslots + 1,
		    sizeof(*s))) == NULL)
			return NONE;
		th->slots = g;
		unhot(th);	/* the slots moved */
	}
	k = th->nslots++;
	s = &th->slots[k];
	memset(s, 0, sizeof(*s));
	s->tid = tid;
	s->pid = UINT32_MAX;
	mask = th->hcap - 1;
	for (i = pd_idmap_mix(tid, th->seed) & mask; th->hash[i] != 0;
	    i = (i + 1) & mask)
		;
	th->hash[i] = k + 1;
	return k;
}

/* perf's machine__findnew_thread: the thread of the slot, made if need be. */
static void
thread_findnew(struct slot *s, uint32_t pid)
{
	if (!s->exists) {
		s->exists = 1;
		s->pid = pid;
		s->comm = NULL;
		s->seg = s->samples = 0;
	} else if (s->pid == UINT32_MAX)
		s->pid = pid;	/* machine__update_thread_pid */
}

/* The samples named so far go to the thread's name. */
static void
fold(struct pd_threads *th, struct slot *s)
{
	struct name *nm;

	if (s->seg == 0)
		return;
	if ((nm = s->comm) == NULL)
		nm = default_name(th, s->tid);
	if (nm != NULL)
		nm->samples += s->seg;
	else
		th->untracked += s->seg;
	s->seg = 0;
}

/* The thread leaves (a FORK of its tid): its counts stay. 0 or -1. */
static int
retire(struct pd_threads *th, struct slot *s)
{
	void *g;
	if (!s->exists)
		return 0;
	fold(th, s);
	if (s->samples > 0) {
		if ((g = grown(th->gone, &th->capgone, th->ngone + 1,
		    sizeof(*th->gone))) == NULL)
			return -1;
		th->gone = g;
		th->gone[th->ngone].pid = s->pid;
		th->gone[th->ngone++].samples = s->samples;
	}
	s->exists = 0;
	s->comm = NULL;
	s->samples = 0;
	s->pid = UINT32_MAX;
	return 0;
}

/* n samples of the slot's thread, made by the first if need be. */
static void
count(struct slot *s, uint32_t pid, uint64_t n)
{
	thread_findnew(s, pid);
	s->seg += n;
	s->samples += n;
}

/*
 * A COMM or FORK, applied now as perf's machine.c applies it. A comm
 * that cannot be kept (out of memory, or past NAMES_MAX distinct ones)
 * leaves the thread unnamed, and the samples it would have named so
 * far are counted apart. 0 or -1.
 */
static int
apply(struct pd_threads *th, const struct task *t)
{
	struct slot *s, *p;
	struct name *nm = NULL;

	if (t->slot == NONE)
		return 0;
	s = &th->slots[t->slot];
	if (t->type == PERF_RECORD_COMM) {
		thread_findnew(s, t->pid);
		/* The first comm also names the samples before it. */
		if (s->comm != NULL)
			fold(th, s);
		if ((s->comm = intern(th, t->comm,
		    strnlen(t->comm, COMM_LEN))) == NULL) {
			th->untracked += s->seg;
			s->seg = 0;
		}
		return 0;
	}
	if (t->pslot != NONE) {
		p = &th->slots[t->pslot];
		thread_findnew(p, t->ppid);
		/* Another process's thread under the parent's tid: lost FORK. */
		if (p->pid != t->ppid) {
			if (retire(th, p) < 0)
				return -1;
			thread_findnew(p, t->ppid);
		}
		nm = p->comm;
	}
	if (retire(th, s) < 0)
		return -1;
	thread_findnew(s, t->pid);
	s->comm = nm;		/* the parent's, if it has one */
	return 0;
}

/* ----- the round ----- */

struct pd_threads *
pd_threads_new(void)
{
	struct pd_threads *th;
	struct slot *s;
	uint32_t k;

	if ((th = calloc(1, sizeof(*th))) == NULL)
		return NULL;
	th->seed = pd_idmap_seed();
	th->last = NONE;
	unhot(th);
	/* perf's idle thread, named before any record. */
	if ((k = slot_get(th, 0)) == NONE) {
		pd_threads_free(th);
		return NULL;
	}
	s = &th->slots[k];
	thread_findnew(s, 0);
	if ((s->comm = intern(th, "swapper", 7)) == NULL) {
		pd_threads_free(th);
		return NULL;
	}
	return th;
}

void
pd_threads_free(struct pd_threads *th)
{
	size_t i;

	if (th == NULL)
		return;
	for (i = 0; i < th->nslots; i++) {
		free(th->slots[i].w[0].time);
		free(th->slots[i].w[1].time);
	}
	for (i = 0; i < th->nspare; i++)
		free(th->spare[i].time);
	free(th->spare);
	for (i = 0; i < th->namecap; i++)
		free(th->names[i]);
	free(th->names);
	free(th->slots);
	free(th->hash);
	free(th->active);
	free(th->tasks);
	free(th->due);
	free(th->gone);
	free(th);
}

/*
 * A timed record joins perf's queue: the batch it goes out with. The
 * newest time is 0 while the queue is empty, so the first record after
 * that sets it, as perf's queue_event does.
 */
static unsigned
queued(struct pd_threads *th, uint64_t t)
{
	if (t > th->hot.max_ts)
		th->hot.max_ts = t;
	return th->cur ^ (t > th->hot.limit);
}

enum flush { FLUSH_ROUND, FLUSH_HALF, FLUSH_FINAL };

/* Is a waiting record of batch b at time t due in this flush? */
static int
due(const struct pd_threads *th, enum flush how, uint64_t half, unsigned b,
    uint64_t t)
{
	switch (how) {
	case FLUSH_ROUND:
		return b == th->cur;
	case FLUSH_HALF:
		return t <= half;
	default:
		return 1;
	}
}

static int
task_cmp(const void *a, const void *b)
{
	const struct task *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return (int32_t)(x->seq - y->seq) < 0 ? -1 : x->seq != y->seq;
}

/* The due tasks, out of the waiting ones, into th->due by time. */
static int
take_tasks(struct pd_threads *th, enum flush how, uint64_t half)
{
	void *g;
	size_t i, k = 0;

	th->ndue = 0;
	for (i = 0; i < th->ntasks; i++) {
		struct task *t = &th->tasks[i];

		if (!due(th, how, half, t->batch, t->time)) {
			th->tasks[k++] = *t;
			continue;
		}
		if ((g = grown(th->due, &th->capdue, th->ndue + 1,
		    sizeof(*t))) == NULL)
			return -1;
		th->due = g;
		th->due[th->ndue++] = *t;
	}
	th->ntasks = k;
	if (th->ndue > 1)
		qsort(th->due, th->ndue, sizeof(*th->due), task_cmp);
	return 0;
}

/* Entries of v[0..n) before the key (kt, kn): earlier, or ahead in v. */
static uint64_t
list_before(const uint64_t *v, uint32_t n, uint64_t kt, uint32_t kn)
{
	uint64_t lt = 0, le = 0;
	uint32_t i;

	/* Without branches; entries at the very time are rare. */
	for (i = 0; i < n; i++) {
		lt += v[i] < kt;
		le += v[i] <= kt;
	}
	if (le > lt)
		for (i = 0; i < n && i < kn; i++)
			lt += v[i] == kt;
	return lt;
}

/*
 * The due samples of s that came before the key (kt, kn) of a task:
 * earlier, or at the same time and ahead of it in their list.
 */
static uint64_t
count_before(const struct pd_threads *th, const struct slot *s,
    enum flush how, uint64_t half, uint64_t kt, const uint32_t *kn)
{
	const uint64_t *v;
	uint64_t n = 0;
	uint32_t i;
	unsigned b;

	if (how == FLUSH_ROUND)
		return list_before(s->w[th->cur].time, s->w[th->cur].n, kt,
		    kn[th->cur]);
	for (b = 0; b < 2; b++) {
		v = s->w[b].time;
		for (i = 0; i < s->w[b].n; i++)
			n += (v[i] < kt || (v[i] == kt && i < kn[b])) &&
			    due(th, how, half, b, v[i]);
	}
	return n;
}

/* Before a task of its thread: the samples of s up to it are counted. */
static void
catch_up(struct pd_threads *th, struct slot *s, enum flush how,
    uint64_t half, uint64_t kt, const uint32_t *kn)
{
	uint64_t n = count_before(th, s, how, half, kt, kn);
	uint64_t done = s->caught ? s->counted : 0;

	if (n > done)
		count(s, s->spid, n - done);
	s->counted = n > done ? n : done;
	s->caught = 1;
}

/* The due samples of s leave its lists: how many. */
static uint64_t
drop_due(struct pd_threads *th, struct slot *s, enum flush how,
    uint64_t half)
{
	uint64_t gone = 0;
	unsigned b;
	uint32_t i, n;

	if (how == FLUSH_ROUND) {
		gone = s->w[th->cur].n;
		s->w[th->cur].n = 0;
		return gone;
	}
	for (b = 0; b < 2; b++) {
		struct pd_threads_list *l = &s->w[b];

		for (i = n = 0; i < l->n; i++)
			if (!due(th, how, half, b, l->time[i]))
				l->time[n++] = l->time[i];
		gone += l->n - n;
		l->n = n;
	}
	return gone;
}

/*
 * The due samples of a slot after the last task of this flush that
 * names its thread; all of them when none does (a round's first list,
 * whole: the common case).
 */
static void
take_rest(struct pd_threads *th, struct slot *s, enum flush how,
    uint64_t half)
{
	uint64_t n = drop_due(th, s, how, half);

	if (s->caught)
		n -= s->counted < n ? s->counted : n;
	if (n > 0)
		count(s, s->spid, n);
}

/* An emptied list goes to the spares, or is freed past IDLE_BYTES_MAX. */
static void
list_spare(struct pd_threads *th, struct pd_threads_list *l)
{
	size_t sz = (size_t)l->cap * sizeof(*l->time);
	void *g = NULL;

	if (l->cap == 0)
		return;
	if (th->spare_bytes + sz <= IDLE_BYTES_MAX && (g = grown(th->spare,
	    &th->capspare, th->nspare + 1, sizeof(*l))) != NULL) {
		th->spare = g;
		th->spare[th->nspare++] = *l;
		th->spare_bytes += sz;
	} else {
		free(l->time);
		th->list_bytes -= sz;
	}
	l->time = NULL;
	l->n = l->cap = 0;
}

/*
 * Keeps the slots with samples waiting; the others' lists go to the
 * spares, for the next threads. Returns the samples waiting.
 */
static uint64_t
prune_active(struct pd_threads *th)
{
	struct pd_threads_lane *ln;
	uint64_t waiting = 0;
	uint32_t i, n = 0;

	for (i = 0; i < th->nactive; i++) {
		struct slot *s = &th->slots[th->active[i]];

		if (s->w[0].n + s->w[1].n > 0) {
			waiting += s->w[0].n + s->w[1].n;
			th->active[n++] = th->active[i];
			continue;
		}
		s->active = 0;
		/* The inline path takes only the samples of active slots. */
		ln = &th->hot.lane[s->tid % PD_THREADS_LANES];
		if (ln->now == &s->w[0] || ln->now == &s->w[1])
			ln->now = ln->later = &th->none;
		list_spare(th, &s->w[0]);
		list_spare(th, &s->w[1]);
	}
	th->nactive = n;
	return waiting;
}

/*
 * Do the samples of t's thread before it need counting first? Not for
 * the FORK of a new thread: the kernel writes it before the child runs,
 * so none of the child's samples comes before it. Unless samples of
 * that tid wait already: an earlier thread, known only by its samples,
 * whose tid the FORK reuses.
 */
static int
counts_child(const struct pd_threads *th, const struct task *t)
{
	const struct slot *s = &th->slots[t->slot];

	return t->type != PERF_RECORD_FORK || s->exists ||
	    s->w[0].n + s->w[1].n > 0;
}

/* Does the FORK t find another process's thread under its parent's tid? */
static int
retires_parent(const struct pd_threads *th, const struct task *t)
{
	const struct slot *p = &th->slots[t->pslot];

	return t->type == PERF_RECORD_FORK && p->exists &&
	    p->pid != UINT32_MAX && p->pid != t->ppid;
}

/*
 * Delivers what is due, as perf's do_flush does. Samples change no
 * thread, so only those of the threads a task names need the order:
 * before each task (by time), the samples of its threads up to it are
 * counted, then the task is applied; then the rest. With nothing left
 * waiting, perf's queue is empty. 0 or -1.
 */
static int
flush(struct pd_threads *th, enum flush how, uint64_t half)
{
	const struct task *t;
	size_t i;
	int r = 0;

	if (take_tasks(th, how, half) < 0)
		return -1;
	for (i = 0; i < th->ndue && r == 0; i++) {
		t = &th->due[i];
		if (t->slot != NONE && counts_child(th, t))
			catch_up(th, &th->slots[t->slot], how, half, t->time,
			    t->n);
		/* A parent matters only when the FORK replaces it. */
		if (t->pslot != NONE && retires_parent(th, t))
			catch_up(th, &th->slots[t->pslot], how, half, t->time,
			    t->pn);
		r = apply(th, t);
	}
	for (i = 0; i < th->nactive; i++)
		take_rest(th, &th->slots[th->active[i]], how, half);
	for (i = 0; i < th->ndue; i++) {
		if (th->due[i].slot != NONE)
			th->slots[th->due[i].slot].caught = 0;
		if (th->due[i].pslot != NONE)
			th->slots[th->due[i].pslot].caught = 0;
	}
	return r;
}

/* With nothing waiting, perf's queue is empty: no newest time. */
static void
settle(struct pd_threads *th, uint64_t waiting)
{
	if (waiting == 0 && th->ntasks == 0 &&
	    th->nother[0] + th->nother[1] == 0)
		th->hot.max_ts = 0;
}

/*
 * FINISHED_ROUND: perf's OE_FLUSH__ROUND. The lists of the round are
 * empty now; tasks still waiting came before whatever fills them next.
 */
static int
round_end(struct pd_threads *th)
{
	unsigned c = th->cur;
	int r = th->hot.limit != 0 ? flush(th, FLUSH_ROUND, 0) : 0;
	size_t i;

	for (i = 0; i < th->ntasks; i++)
		th->tasks[i].n[c] = th->tasks[i].pn[c] = 0;
	th->nother[c] = 0;
	th->cur = c ^ 1;
	for (i = 0; i < PD_THREADS_LANES; i++) {
		struct pd_threads_lane *ln = &th->hot.lane[i];
		struct pd_threads_list *l = ln->now;

		ln->now = ln->later;
		ln->later = l;
	}
	th->hot.limit = th->hot.max_ts;
	settle(th, prune_active(th));
	return r;
}

/*
 * Too much waits: the older half by time goes out (OE_FLUSH__HALF,
 * with the newest time standing in for perf's last queued one), and
 * the limit of the next round becomes that time, so everything left
 * waits for the round after it. Past this point the order among equal
 * times is no longer kept.
 */
static int
flush_half(struct pd_threads *th)
{
	void *g;
	uint64_t first = UINT64_MAX, half;
	uint32_t i, j;
	unsigned b, c = th->cur, nb = c ^ 1;
	size_t cap;

	for (i = 0; i < th->ntasks; i++)
		if (th->tasks[i].time < first)
			first = th->tasks[i].time;
	for (i = 0; i < th->nactive; i++)
		for (b = 0; b < 2; b++) {
			const struct pd_threads_list *l =
			    &th->slots[th->active[i]].w[b];

			for (j = 0; j < l->n; j++)
				if (l->time[j] < first)
					first = l->time[j];
		}
	if (first == UINT64_MAX)
		return 0;
	half = first + (th->hot.max_ts - first) / 2;
	if (flush(th, FLUSH_HALF, half) < 0)
		return -1;
	for (i = 0; i < th->ntasks; i++) {
		th->tasks[i].batch = nb;
		memset(th->tasks[i].n, 0, sizeof(th->tasks[i].n));
		memset(th->tasks[i].pn, 0, sizeof(th->tasks[i].pn));
	}
	for (i = 0; i < th->nactive; i++) {
		struct slot *s = &th->slots[th->active[i]];
		struct pd_threads_list *from = &s->w[c], *to = &s->w[nb];

		if (from->n == 0)
			continue;
		cap = to->cap;
		if ((g = grown(to->time, &cap, (size_t)to->n + from->n,
		    sizeof(*to->time))) == NULL)
			return -1;
		to->time = g;
		th->list_bytes += (cap - to->cap) * sizeof(*to->time);
		to->cap = (uint32_t)cap;
		memcpy(to->time + to->n, from->time, from->n *
		    sizeof(*from->time));
		to->n += from->n;
		from->n = 0;
	}
	/* The other records up to half went out; how many is not known. */
	th->nother[nb] += th->nother[c];
	th->nother[c] = 0;
	th->hot.limit = half;
	settle(th, prune_active(th));
	return 0;
}

/* COMM: u32 pid, tid, char comm[]; FORK: u32 pid, ppid, tid, ptid. */
static int
parse_task(struct pd_threads *th, const struct pd_rec *rec, struct task *t)
{
	struct pd_record_comm c;
	struct pd_record_fork f;

	memset(t, 0, sizeof(*t));
	t->type = rec->type;
	t->pslot = NONE;
	if (rec->type == PERF_RECORD_COMM) {
		if (pd_record_comm_parse(rec, &c) < 0)
			return -1;
		t->pid = c.pid;
		memcpy(t->comm, c.comm, c.comm_len < COMM_LEN - 1 ?
		    c.comm_len : COMM_LEN - 1);
		t->slot = slot_get(th, c.tid);
		return 0;
	}
	if (pd_record_fork_parse(rec, &f) < 0)
		return -1;
	t->pid = f.pid;
	t->ppid = f.ppid;
	t->slot = slot_get(th, f.tid);
	t->pslot = slot_get(th, f.ptid);
	return 0;
}

int
pd_threads_record(struct pd_threads *th, const struct pd_rec *rec,
    uint64_t time)
{
	void *g;
	struct task t;
	const struct slot *s;
	int timed = time != 0 && time != UINT64_MAX;

	if (rec->type == PD_RECORD_FINISHED_ROUND)
		return round_end(th);
	if (rec->type != PERF_RECORD_COMM && rec->type != PERF_RECORD_FORK) {
		if (timed && pd_rec_is_kernel(rec->type))
			th->nother[queued(th, time)]++;
		return 0;
	}
	/* A record too short to name a thread names none. */
	if (parse_task(th, rec, &t) < 0)
		return 0;
	if (!timed)
		return apply(th, &t);
	t.time = time;
	t.seq = th->seq++;
	t.batch = queued(th, time);
	if (t.slot != NONE) {
		s = &th->slots[t.slot];
		t.n[0] = s->w[0].n;
		t.n[1] = s->w[1].n;
	}
	if (t.pslot != NONE) {
		s = &th->slots[t.pslot];
		t.pn[0] = s->w[0].n;
		t.pn[1] = s->w[1].n;
	}
	if ((g = grown(th->tasks, &th->captasks, th->ntasks + 1,
	    sizeof(t))) == NULL)
		return -1;
	th->tasks = g;
	th->tasks[th->ntasks++] = t;
	return 0;
}

/*
 * A sample the inline path cannot take: of another thread than the
 * last, without a time, or into a full list. Leaves the hot part set
 * for the next sample of the same thread.
 */
int
pd_threads_sample_slow(struct pd_threads *th, uint32_t pid, uint32_t tid,
    uint64_t time)
{
	void *g;
	struct pd_threads_lane *ln;
	struct pd_threads_list *l;
	struct slot *s;
	size_t cap;
	uint32_t k = th->last;

	if (k == NONE || th->slots[k].tid != tid) {
		if ((k = slot_get(th, tid)) == NONE) {
			/* Past PD_THREADS_MAX: still in perf's round. */
			if (time != 0 && time != UINT64_MAX)
				th->nother[queued(th, time)]++;
			th->untracked++;
			return 0;
		}
		th->last = k;
	}
	s = &th->slots[k];
	if (time == 0 || time == UINT64_MAX) {
		count(s, pid, 1);
		return 0;
	}
	if (!s->active) {
		if ((g = grown(th->active, &th->capactive, th->nactive + 1,
		    sizeof(*th->active))) == NULL)
			return -1;
		th->active = g;
		s->active = 1;
		th->active[th->nactive++] = k;
	}
	/* perf makes the thread with the pid of its first sample. */
	if (s->w[0].n + s->w[1].n == 0)
		s->spid = pid;
	l = &s->w[queued(th, time)];
	if (l->n == l->cap) {
		if (th->list_bytes > WAIT_BYTES_MAX) {
			if (flush_half(th) < 0)
				return -1;
			s = &th->slots[k];
			l = &s->w[queued(th, time)];
		}
		if (l->cap == 0 && th->nspare > 0) {
			*l = th->spare[--th->nspare];
			th->spare_bytes -= (size_t)l->cap * sizeof(*l->time);
			goto add;
		}
		/* A thread that samples at all mostly takes many. */
		cap = l->cap;
		if ((g = grown(l->time, &cap, (size_t)l->n + LIST_MIN,
		    sizeof(*l->time))) == NULL)
			return -1;
		l->time = g;
		th->list_bytes += (cap - l->cap) * sizeof(*l->time);
		l->cap = (uint32_t)cap;
	}
add:
	l->time[l->n++] = time;
	ln = &th->hot.lane[tid % PD_THREADS_LANES];
	ln->tid = tid;
	ln->now = &s->w[th->cur];
	ln->later = &s->w[th->cur ^ 1];
	return 0;
}

/* How far a FORK's parent is followed back through waiting FORKs. */
#define COMM_DEPTH	8

/* Does waiting task t go out before a record at (time, seq)? */
static int
task_before(const struct task *t, uint64_t time, uint32_t seq)
{
	return t->time < time ||
	    (t->time == time && (int32_t)(t->seq - seq) < 0);
}

/*
 * The name of slot k when a record at (time, seq) goes out, or NULL:
 * unnamed. The last waiting task of the thread before it decides; else
 * what the slot holds now.
 */
static const char *
comm_at(const struct pd_threads *th, uint32_t k, uint64_t time,
    uint32_t seq, int depth)
{
	const struct task *t, *best = NULL;
	const struct slot *s = &th->slots[k];
	size_t i;

	if (time != 0 && time != UINT64_MAX)
		for (i = 0; i < th->ntasks; i++) {
			t = &th->tasks[i];
			if (t->slot == k && task_before(t, time, seq) &&
			    (best == NULL || !task_before(t, best->time,
			    best->seq)))
				best = t;
		}
	if (best == NULL)
		return s->exists && s->comm != NULL ? s->comm->s : NULL;
	if (best->type == PERF_RECORD_COMM)
		return best->comm;
	/* A FORK: the parent's name when it goes out, if it has one. */
	if (best->pslot == NONE || depth >= COMM_DEPTH)
		return NULL;
	return comm_at(th, best->pslot, best->time, best->seq, depth + 1);
}

const char *
pd_threads_comm(const struct pd_threads *th, uint32_t tid, uint64_t time,
    uint32_t seq, char *buf)
{
	const char *s = NULL;
	uint32_t k = slot_find(th, tid);

	if (k != NONE)
		s = comm_at(th, k, time, seq, 0);
	if (s != NULL)
		snprintf(buf, PD_THREADS_COMM_MAX, "%.*s", COMM_LEN, s);
	else if (tid == 0)
		snprintf(buf, PD_THREADS_COMM_MAX, "swapper");
	else
		snprintf(buf, PD_THREADS_COMM_MAX, ":%d", (int32_t)tid);
	return buf;
}

uint32_t
pd_threads_seq(const struct pd_threads *th)
{
	return th->seq;
}

int
pd_threads_due_next(const struct pd_threads *th, uint64_t time)
{
	return time <= th->hot.limit;
}

int
pd_threads_end(struct pd_threads *th)
{
	int r = flush(th, FLUSH_FINAL, 0);
	uint32_t i;

	th->nother[0] = th->nother[1] = 0;
	(void)prune_active(th);
	for (i = 0; i < th->nslots; i++)
		if (th->slots[i].exists)
			fold(th, &th->slots[i]);
	return r;
}

uint64_t
pd_threads_untracked(const struct pd_threads *th)
{
	return th->untracked;
}

static int
row_cmp(const void *a, const void *b)
{
	const struct pd_threads_row *x = a, *y = b;
	int c;

	if (x->samples != y->samples)
		return x->samples < y->samples ? 1 : -1;
	if (x->comm != NULL && y->comm != NULL &&
	    (c = strcmp(x->comm, y->comm)) != 0)
		return c;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static int
pid_cmp(const void *a, const void *b)
{
	const struct pd_threads_row *x = a, *y = b;

	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* The n best rows of v[0..k) into out, sorted; frees v. */
static size_t
best(struct pd_threads_row *v, size_t k, struct pd_threads_row *out,
    size_t n)
{
	qsort(v, k, sizeof(*v), row_cmp);
	if (k > n)
		k = n;
	memcpy(out, v, k * sizeof(*v));
	free(v);
	return k;
}

size_t
pd_threads_top_comms(struct pd_threads *th, struct pd_threads_row *out,
    size_t n)
{
	struct pd_threads_row *v;
	size_t i, k = 0;

	if (th->nnames == 0 || (v = calloc(th->nnames, sizeof(*v))) == NULL)
		return 0;
	for (i = 0; i < th->namecap; i++)
		if (th->names[i] != NULL && th->names[i]->samples > 0) {
			v[k].comm = th->names[i]->s;
			v[k++].samples = th->names[i]->samples;
		}
	return best(v, k, out, n);
}

size_t
pd_threads_top_pids(struct pd_threads *th, struct pd_threads_row *out,
    size_t n)
{
	struct pd_threads_row *v;
	const struct slot *s;
	struct name *nm;
	size_t i, j, k = 0;
	uint32_t m;

	if ((v = calloc(th->nslots + th->ngone + 1, sizeof(*v))) == NULL)
		return 0;
	for (i = 0; i < th->nslots; i++)
		if (th->slots[i].exists && th->slots[i].samples > 0) {
			v[k].pid = th->slots[i].pid;
			v[k++].samples = th->slots[i].samples;
		}
	for (i = 0; i < th->ngone; i++) {
		v[k].pid = th->gone[i].pid;
		v[k++].samples = th->gone[i].samples;
	}
	/* A process: the threads of its pid, adjacent once sorted. */
	qsort(v, k, sizeof(*v), pid_cmp);
	for (i = 0, j = 0; i < k; i++) {
		if (j > 0 && v[j - 1].pid == v[i].pid)
			v[j - 1].samples += v[i].samples;
		else
			v[j++] = v[i];
	}
	k = best(v, j, out, n);
	/* Named as its main thread is now. */
	for (i = 0; i < k; i++) {
		m = slot_find(th, out[i].pid);
		s = m != NONE ? &th->slots[m] : NULL;
		nm = s != NULL && s->exists && s->comm != NULL ? s->comm :
		    default_name(th, out[i].pid);
		out[i].comm = nm != NULL ? nm->s : "?";
	}
	return k;
}
