/* SPDX-License-Identifier: MIT */
/*
 * The gecko profile: frames named "name (in dso)" as perf's gecko.py
 * names them (an address of no symbol "[unknown] (in dso)"), kernel
 * frames in the Kernel category and the rest in User, one thread per
 * tid named by its latest comm. A frame name is interned once for the
 * run; each thread numbers the frames and stacks it uses in its own
 * tables, as the format wants. A sample is a row (thread, stack, time)
 * of a temporary file; at the end the rows are sorted out by thread in
 * passes of at most ROWS_MAX, and each thread is written with its rows.
 * A thread of over ROWS_STREAM rows has a pass of its own, its rows
 * written as they are read: memory does not grow with its samples,
 * and such threads are few (a pass each over the file).
 */
#include "pdstat/gecko.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libcommon/cli/digits.h"
#include "libcommon/cli/json.h"
#include "libcommon/cli/msg.h"
#include "libcommon/cli/output.h"
#include "libcommon/stream/evlist.h"
#include "libcommon/stream/feature.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/record.h"
#include "libcommon/stream/sample.h"
#include "libcommon/sym/hosts.h"
#include "libcommon/sym/symbols.h"
#include "pdstat/tab.h"

#define MAX_FRAMES	1024
#define ROWS_MAX	(1U << 20)	/* rows sorted in memory at once */
#define ROWS_STREAM	(1U << 18)	/* a thread of more: not in memory */
#define ROWBUF		4096		/* rows written at once */

struct row {
	uint32_t	 thread, stack;
	uint64_t	 time;
};

struct thread {
	uint32_t	 tid, pid;
	uint32_t	 comm;		/* strs */
	const char	*commp;		/* the pd_syms string it is, or NULL */
	uint32_t	*stk;		/* pairs: prefix + 1 (0: root), frame */
	size_t		 nstk, stkcap;
	uint32_t	*fr;		/* local frame -> global frame */
	size_t		 nfr, frcap;
	uint64_t	 rows;
};

/* A global frame: its name (strs) and category. */
struct gframe {
	uint32_t	 str;
	uint8_t		 kernel;
};

/* An entry of the per-thread lookups: which thread, which local id. */
struct lent {
	uint32_t	 thread, local;
};

/* A name pair of an input's pd_syms (stable addresses) -> its frame. */
#define PCACHE		4096
struct fent {
	const char	*name, *dso;
	uint32_t	 frame1;	/* global frame + 1; 0: empty */
};

/*
 * (thread, global frame) -> the thread's local frame, recently used:
 * asked for every frame of every sample, mostly the same few frames of
 * the same thread, which the big index (lidx) answers with a cache
 * miss. Thread and frame ids hold for the whole run, so does this.
 */
#define LCACHE		4096
struct lcent {
	uint32_t	 thread1;	/* thread + 1; 0: empty */
	uint32_t	 gf, lf;
};

/*
 * Kernel frames while /proc/kallsyms is read ahead (pd_klater, 30 to
 * 50 ms of the kernel's time). A thread's tables number its frames and
 * stacks in the order its samples first use them, and a frame is a
 * name, so nothing of a sample can go into them before its kernel
 * frames are named. Meanwhile every sample waits: its thread and user
 * frames found in their turn, its kernel frames kept by address (KEPT |
 * index), its stack kept once per thread (struct wstack) and its row in
 * memory. When the names come (name_waiting), each kept address is
 * named, the kept stacks go into their threads' tables in the order
 * they first came, and the rows follow in theirs: the tables and rows
 * are what they would have been had the names been there all along.
 * A frame's category is its first user's: so each frame made while
 * samples wait has its place (row << 11 | frame), and a kernel frame
 * named later that was first takes it over.
 */
#define KEPT		0x80000000U
#define WAIT_ROWS	(1U << 18)	/* rows that wait at most (4 MiB) */
#define WAIT_IDS	(1U << 20)	/* their stacks' frames (4 MiB) */

struct kept {
	uint64_t	 addr;
	uint64_t	 at;		/* where first met: row << 11 | frame */
	uint32_t	 pid, gf;	/* gf: its frame, once named */
};

struct wstack {
	uint32_t	 thread, n;
	size_t		 at;		/* its frames in wids */
	uint32_t	 ls;		/* its stack, once named */
};

struct gecko {
	struct tab_strs	 strs;
	struct gframe	*frames;
	size_t		 nframes, framecap;
	struct tab_index gfidx;		/* by str */
	struct thread	*threads;
	size_t		 nthreads, threadcap;
	struct tab_index tidx;		/* by tid */
	struct lent	*lstk, *lfr;
	size_t		 nlstk, lstkcap, nlfr, lfrcap;
	struct tab_index sidx;		/* (thread, prefix, frame) */
	struct tab_index lidx;		/* (thread, global frame) */

	FILE		*rows;		/* the temporary file */
	struct row	 buf[ROWBUF];
	size_t		 nbuf;
	uint64_t	 nrows;
	uint64_t	 t0;		/* the first sample's time */
	uint64_t	 tlast;		/* the last sample's */
	int		 have_t0;
	uint64_t	 unknown;
	uint64_t	 interval_ns;	/* the first event's period, if ns */
	struct pd_header_info hi;
	int		 view;		/* our word of the pd_syms' address
					   cache: a frame + 1; -1: none asked
					   for yet, -2: none left */
	struct fent	 fcache[PCACHE];
	struct lcent	 lcache[LCACHE];
	uint32_t	 gids[MAX_FRAMES];

	struct pd_klater kl;
	struct kept	*kept;
	size_t		 nkept, keptcap;
	struct tab_index kidx;		/* kept, by address */
	struct wstack	*ws;
	size_t		 nws, wscap;
	struct tab_index widx;		/* ws, by thread and frames */
	uint32_t	*wids;
	size_t		 nwids, widcap;
	struct row	*wrows;		/* stack: a ws index */
	size_t		 nwrows, wrowcap;
	int		 waiting;	/* samples wait (since frame wframe0) */
	int		 naming;	/* name_waiting runs */
	uint32_t	 wframe0;
	uint64_t	*wat;		/* frame wframe0 + i first met at */
	size_t		 nwat, watcap;
	uint64_t	 at;		/* the frame being found: row << 11 | i */
};

static int	name_waiting(void *, struct pd_syms *);

struct gecko *
gecko_new(void)
{
	struct gecko *g = calloc(1, sizeof(*g));
	const char *dir = getenv("TMPDIR");
	char *path = NULL;
	int fd;

	if (g == NULL) {
		pd_warnx("out of memory");
		return NULL;
	}
	g->view = -1;
	g->kl.settle = name_waiting;
	g->kl.ctx = g;
	if (dir == NULL || *dir == '\0')
		dir = "/tmp";
	/* Unlinked at once: nothing is left behind, whatever happens. */
	if (asprintf(&path, "%s/pdstat-gecko.XXXXXX", dir) < 0 ||
	    (fd = mkostemp(path, O_CLOEXEC)) < 0 ||
	    (unlink(path), (g->rows = fdopen(fd, "w+")) == NULL)) {
		pd_warnx("%s: %s", path != NULL ? path : dir, strerror(errno));
		free(path);
		free(g);
		return NULL;
	}
	free(path);
	return g;
}

void
gecko_free(struct gecko *g)
{
	size_t i;

	if (g == NULL)
		return;
	pd_klater_drop(&g->kl);
	free(g->kept);
	free(g->kidx.s);
	free(g->ws);
	free(g->widx.s);
	free(g->wids);
	free(g->wrows);
	free(g->wat);
	for (i = 0; i < g->nthreads; i++) {
		free(g->threads[i].stk);
		free(g->threads[i].fr);
	}
	free(g->threads);
	free(g->tidx.s);
	tab_strs_free(&g->strs);
	free(g->frames);
	free(g->gfidx.s);
	free(g->lstk);
	free(g->lfr);
	free(g->sidx.s);
	free(g->lidx.s);
	if (g->rows != NULL)
		fclose(g->rows);
	free(g);
}

/* An input's pd_syms goes: its generations and strings mean nothing. */
static void
forget(struct gecko *g)
{
	size_t i;

	g->view = -1;
	memset(g->fcache, 0, sizeof(g->fcache));
	for (i = 0; i < g->nthreads; i++)
		g->threads[i].commp = NULL;
}

void
gecko_input(struct gecko *g)
{
	memset(&g->hi, 0, sizeof(g->hi));
	forget(g);
}

void
gecko_input_end(struct gecko *g)
{
	forget(g);
}

void
gecko_record(struct gecko *g, const struct pd_rec *rec)
{
	if (rec->type == PD_RECORD_HEADER_FEATURE)
		(void)pd_header_info_update(&g->hi, rec);
}

uint64_t
gecko_unknown(const struct gecko *g)
{
	return g->unknown;
}

/* The global frame of a name, added when new. 0 or -1. */
static int
gframe_of(struct gecko *g, const char *name, int kernel, uint32_t *id)
{
	struct tab_slot *sl;
	uint32_t str, h;
	size_t k;

	if (tab_str(&g->strs, name, strlen(name), &str) < 0 ||
	    tab_index_room(&g->gfidx) < 0)
		return -1;
	h = (uint32_t)tab_mix(str + 1);
	for (k = tab_first(&g->gfidx, h); (sl = &g->gfidx.s[k])->id1 != 0;
	    k = tab_next(&g->gfidx, k))
		if (g->frames[sl->id1 - 1].str == str) {
			*id = sl->id1 - 1;
			/* A kernel frame named late, but met first? */
			if (g->naming && *id >= g->wframe0 &&
			    g->wat[*id - g->wframe0] > g->at) {
				g->wat[*id - g->wframe0] = g->at;
				g->frames[*id].kernel = kernel != 0;
			}
			return 0;
		}
	if (tab_grow(&g->frames, &g->framecap, g->nframes,
	    sizeof(*g->frames)) < 0 || (g->waiting &&
	    tab_grow(&g->wat, &g->watcap, g->nwat, sizeof(*g->wat)) < 0))
		return -1;
	if (g->waiting)
		g->wat[g->nwat++] = g->at;
	g->frames[g->nframes].str = str;
	g->frames[g->nframes].kernel = kernel != 0;
	*id = (uint32_t)g->nframes++;
	tab_set(&g->gfidx, k, *id, h);
	return 0;
}

/* A frame named "name (in dso)", as gecko.py names it. 0 or -1. */
static int
frame_of(struct gecko *g, const struct pd_symres *r, uint32_t *id)
{
	struct fent *c;
	char buf[1024];

	c = &g->fcache[tab_mix((uintptr_t)r->name * 0x9e3779b97f4a7c15ULL ^
	    (uintptr_t)r->dso ^ (uint64_t)r->kernel) & (PCACHE - 1)];
	if (c->frame1 != 0 && c->name == r->name && c->dso == r->dso &&
	    g->frames[c->frame1 - 1].kernel == (r->kernel != 0) &&
	    !g->naming) {
		*id = c->frame1 - 1;
		return 0;
	}
	snprintf(buf, sizeof(buf), "%s (in %s)", r->name != NULL ? r->name :
	    "[unknown]", r->dso != NULL ? r->dso : "[unknown]");
	if (gframe_of(g, buf, r->kernel, id) < 0)
		return -1;
	c->name = r->name;
	c->dso = r->dso;
	c->frame1 = *id + 1;
	return 0;
}

/* The thread of tid, added when new (pid and comm set by the caller). */
static int
thread_of(struct gecko *g, uint32_t tid, uint32_t *id, int *isnew)
{
	struct tab_slot *sl;
	uint32_t h = (uint32_t)tab_mix((uint64_t)tid + 1);
	size_t k;

	*isnew = 0;
	if (tab_index_room(&g->tidx) < 0)
		return -1;
	for (k = tab_first(&g->tidx, h); (sl = &g->tidx.s[k])->id1 != 0;
	    k = tab_next(&g->tidx, k))
		if (g->threads[sl->id1 - 1].tid == tid) {
			*id = sl->id1 - 1;
			return 0;
		}
	if (tab_grow(&g->threads, &g->threadcap, g->nthreads,
	    sizeof(*g->threads)) < 0)
		return -1;
	memset(&g->threads[g->nthreads], 0, sizeof(*g->threads));
	g->threads[g->nthreads].tid = tid;
	*id = (uint32_t)g->nthreads++;
	tab_set(&g->tidx, k, *id, h);
	*isnew = 1;
	return 0;
}

/* The thread's local frame for global frame gf. 0 or -1. */
static int
local_frame(struct gecko *g, uint32_t t, uint32_t gf, uint32_t *lf)
{
	struct thread *th = &g->threads[t];
	const struct lent *e;
	struct tab_slot *sl;
	uint32_t h = (uint32_t)tab_mix((uint64_t)t << 32 | gf);
	struct lcent *c = &g->lcache[h & (LCACHE - 1)];
	size_t k;

	if (c->thread1 == t + 1 && c->gf == gf) {
		*lf = c->lf;
		return 0;
	}
	if (tab_index_room(&g->lidx) < 0)
		return -1;
	for (k = tab_first(&g->lidx, h); (sl = &g->lidx.s[k])->id1 != 0;
	    k = tab_next(&g->lidx, k)) {
		e = &g->lfr[sl->id1 - 1];
		if (sl->h == h && e->thread == t && th->fr[e->local] == gf) {
			*lf = e->local;
			goto out;
		}
	}
	if (tab_grow(&th->fr, &th->frcap, th->nfr, sizeof(*th->fr)) < 0 ||
	    tab_grow(&g->lfr, &g->lfrcap, g->nlfr, sizeof(*g->lfr)) < 0)
		return -1;
	th->fr[th->nfr] = gf;
	g->lfr[g->nlfr].thread = t;
	g->lfr[g->nlfr].local = (uint32_t)th->nfr;
	*lf = (uint32_t)th->nfr++;
	tab_set(&g->lidx, k, (uint32_t)g->nlfr++, h);
out:
	c->thread1 = t + 1;
	c->gf = gf;
	c->lf = *lf;
	return 0;
}

/* The thread's stack (prefix1: its caller's + 1, 0 none). 0 or -1. */
static int
local_stack(struct gecko *g, uint32_t t, uint32_t prefix1, uint32_t lf,
    uint32_t *ls)
{
	struct thread *th = &g->threads[t];
	const struct lent *e;
	struct tab_slot *sl;
	uint32_t h = (uint32_t)tab_mix((uint64_t)t << 40 ^
	    (uint64_t)prefix1 << 20 ^ lf ^ (uint64_t)prefix1 * 0x9e3779b1ULL);
	size_t k;

	if (tab_index_room(&g->sidx) < 0)
		return -1;
	for (k = tab_first(&g->sidx, h); (sl = &g->sidx.s[k])->id1 != 0;
	    k = tab_next(&g->sidx, k)) {
		e = &g->lstk[sl->id1 - 1];
		if (sl->h == h && e->thread == t &&
		    th->stk[2 * e->local] == prefix1 &&
		    th->stk[2 * e->local + 1] == lf) {
			*ls = e->local;
			return 0;
		}
	}
	if (th->nstk * 2 + 2 > th->stkcap) {
		size_t nc = th->stkcap ? th->stkcap * 2 : 16;
		uint32_t *np = realloc(th->stk, nc * sizeof(*np));

		if (np == NULL)
			return -1;
		th->stk = np;
		th->stkcap = nc;
	}
	if (tab_grow(&g->lstk, &g->lstkcap, g->nlstk, sizeof(*g->lstk)) < 0)
		return -1;
	th->stk[2 * th->nstk] = prefix1;
	th->stk[2 * th->nstk + 1] = lf;
	g->lstk[g->nlstk].thread = t;
	g->lstk[g->nlstk].local = (uint32_t)th->nstk;
	*ls = (uint32_t)th->nstk++;
	tab_set(&g->sidx, k, (uint32_t)g->nlstk++, h);
	return 0;
}

static int
put_row(struct gecko *g, uint32_t t, uint32_t stack, uint64_t time)
{
	if (g->nbuf == ROWBUF) {
		if (fwrite(g->buf, sizeof(*g->buf), g->nbuf, g->rows) !=
		    g->nbuf)
			return -1;
		g->nbuf = 0;
	}
	g->buf[g->nbuf].thread = t;
	g->buf[g->nbuf].stack = stack;
	g->buf[g->nbuf].time = time;
	g->nbuf++;
	g->nrows++;
	g->threads[t].rows++;
	return 0;
}

/* The thread's stack of frames gf (n, innermost first). 0 or -1. */
static int
thread_stack(struct gecko *g, uint32_t t, const uint32_t *gf, size_t n,
    uint32_t *ls)
{
	uint32_t lf, prefix1 = 0;

	/* From its root: frames are innermost first. */
	while (n-- > 0) {
		if (local_frame(g, t, gf[n], &lf) < 0 ||
		    local_stack(g, t, prefix1, lf, ls) < 0)
			return -1;
		prefix1 = *ls + 1;
	}
	return 0;
}

/* The kept kernel address addr: KEPT | its index. 0 or -1. */
static int
keep(struct gecko *g, uint64_t addr, uint32_t pid, uint32_t *id)
{
	uint32_t h = (uint32_t)tab_mix(addr);
	struct tab_slot *sl;
	size_t k;

	if (tab_index_room(&g->kidx) < 0)
		return -1;
	for (k = tab_first(&g->kidx, h); (sl = &g->kidx.s[k])->id1 != 0;
	    k = tab_next(&g->kidx, k))
		if (g->kept[sl->id1 - 1].addr == addr) {
			*id = KEPT | (sl->id1 - 1);
			return 0;
		}
	if (tab_grow(&g->kept, &g->keptcap, g->nkept, sizeof(*g->kept)) < 0)
		return -1;
	g->kept[g->nkept].addr = addr;
	g->kept[g->nkept].at = g->at;
	g->kept[g->nkept].pid = pid;
	*id = KEPT | (uint32_t)g->nkept;
	tab_set(&g->kidx, k, (uint32_t)g->nkept++, h);
	return 0;
}

/* A waiting sample of thread t, frames ids (n), at time. 0 or -1. */
static int
wait_row(struct gecko *g, uint32_t t, const uint32_t *ids, size_t n,
    uint64_t time)
{
	uint32_t h = (uint32_t)tab_hash(ids, n * sizeof(*ids), t);
	struct wstack *w;
	struct tab_slot *sl;
	size_t k;

	if (tab_index_room(&g->widx) < 0)
		return -1;
	for (k = tab_first(&g->widx, h); (sl = &g->widx.s[k])->id1 != 0;
	    k = tab_next(&g->widx, k)) {
		w = &g->ws[sl->id1 - 1];
		if (sl->h == h && w->thread == t && w->n == n &&
		    memcmp(g->wids + w->at, ids, n * sizeof(*ids)) == 0)
			goto row;
	}
	if (tab_grow(&g->ws, &g->wscap, g->nws, sizeof(*g->ws)) < 0)
		return -1;
	while (g->nwids + n > g->widcap)
		if (tab_grow(&g->wids, &g->widcap, g->widcap,
		    sizeof(*g->wids)) < 0)
			return -1;
	memcpy(g->wids + g->nwids, ids, n * sizeof(*ids));
	w = &g->ws[g->nws];
	w->thread = t;
	w->n = (uint32_t)n;
	w->at = g->nwids;
	g->nwids += n;
	tab_set(&g->widx, k, (uint32_t)g->nws++, h);
	sl = &g->widx.s[k];
row:
	if (tab_grow(&g->wrows, &g->wrowcap, g->nwrows, sizeof(*g->wrows)) < 0)
		return -1;
	g->wrows[g->nwrows].thread = t;
	g->wrows[g->nwrows].stack = sl->id1 - 1;
	g->wrows[g->nwrows++].time = time;
	/* Memory stays bounded: past so many, the names are waited for. */
	return g->nwrows < WAIT_ROWS && g->nwids < WAIT_IDS ? 0 :
	    pd_klater_settle(&g->kl);
}

/* The waiting samples named and put in their turn (pd_klater). 0 or -1. */
static int
name_waiting(void *ctx, struct pd_syms *sy)
{
	struct gecko *g = ctx;
	uint32_t gf[MAX_FRAMES];
	size_t i, j;
	int r = -1;

	g->naming = 1;
	for (i = 0; i < g->nkept; i++) {
		struct kept *kp = &g->kept[i];
		struct pd_symc *c = pd_syms_lookup(sy, kp->pid,
		    PERF_RECORD_MISC_KERNEL, kp->addr);

		g->at = kp->at;
		if (frame_of(g, &c->r, &kp->gf) < 0)
			goto out;
	}
	g->naming = g->waiting = 0;
	for (i = 0; i < g->nws; i++) {
		struct wstack *w = &g->ws[i];
		const uint32_t *id = g->wids + w->at;

		for (j = 0; j < w->n; j++)
			gf[j] = id[j] & KEPT ? g->kept[id[j] & ~KEPT].gf : id[j];
		if (thread_stack(g, w->thread, gf, w->n, &w->ls) < 0)
			goto out;
	}
	for (i = 0; i < g->nwrows; i++)
		if (put_row(g, g->wrows[i].thread, g->ws[g->wrows[i].stack].ls,
		    g->wrows[i].time) < 0)
			goto out;
	r = 0;
out:
	g->naming = g->waiting = 0;
	g->nkept = g->nws = g->nwids = g->nwrows = g->nwat = 0;
	if (g->kidx.s != NULL)
		memset(g->kidx.s, 0, g->kidx.cap * sizeof(*g->kidx.s));
	if (g->widx.s != NULL)
		memset(g->widx.s, 0, g->widx.cap * sizeof(*g->widx.s));
	g->kidx.n = g->widx.n = 0;
	return r;
}

int
gecko_settle(struct gecko *g)
{
	return pd_klater_settle(&g->kl);
}

int
gecko_sample(struct gecko *g, struct pd_syms *sy, const struct pd_evsel *ev,
    const struct pd_sample *s, const struct pd_frame *frames, size_t n)
{
	const char *comm, *hn;
	char cbuf[16], hbuf[160];
	uint32_t t, ls = 0, key;
	size_t i;
	uint64_t time;
	int isnew, wait = 0;

	/* One of no time stands where it came, as perf applies it. */
	time = s->type & PERF_SAMPLE_TIME ? s->time : g->tlast;
	g->tlast = time;
	if (!g->have_t0 || time < g->t0) {
		g->t0 = time;
		g->have_t0 = 1;
	}
	/* The interval of cpu-clock and task-clock samples (-c, -F). */
	if (g->interval_ns == 0 && ev->attr.type == PERF_TYPE_SOFTWARE &&
	    ev->attr.config <= 1 && ev->attr.sample_period > 0)
		g->interval_ns = ev->attr.flags & PD_ATTR_FREQ ? 1000000000ULL /
		    ev->attr.sample_period : ev->attr.sample_period;
	if ((comm = pd_syms_comm(sy, s->pid, s->tid)) == NULL) {
		snprintf(cbuf, sizeof(cbuf), s->tid == 0 ? "swapper" :
		    ":%" PRId32, (int32_t)s->tid);
		comm = cbuf;
	}
	/*
	 * A merged stream's hosts: each its own idle thread (tid 0 of
	 * host k as the merge would number it) and thread -1 (-1 - k,
	 * above any merged tid), and names "comm@host".
	 */
	key = s->tid;
	if (s->tid == 0)
		key = pd_syms_host(sy) * PD_PIDS_HOST_STEP;
	else if (s->tid == UINT32_MAX)
		key = UINT32_MAX - pd_syms_host(sy);
	if (thread_of(g, key, &t, &isnew) < 0)
		return -1;
	/* Threads name themselves after they start: the latest comm. */
	if (comm != g->threads[t].commp) {
		const char *name = comm;

		if ((hn = pd_syms_host_name(sy, pd_syms_host(sy))) != NULL) {
			snprintf(hbuf, sizeof(hbuf), "%s@%s", comm, hn);
			name = hbuf;
		}
		if (tab_str(&g->strs, name, strlen(name),
		    &g->threads[t].comm) < 0)
			return -1;
		g->threads[t].commp = comm == cbuf ? NULL : comm;
	}
	/* A tid -1 sample still names its process; idle's is per host. */
	if (isnew)
		g->threads[t].pid = s->tid == 0 ? key : s->pid;
	if (n > MAX_FRAMES)
		n = MAX_FRAMES;
	if (g->view == -1 && (g->view = pd_syms_view_new(sy)) < 0)
		g->view = -2;
	/* Kernel names to wait for, or samples waiting before this one? */
	for (i = 0; i < n; i++)
		if (frames[i].cpumode == PERF_RECORD_MISC_KERNEL) {
			if ((wait = pd_klater_ask(&g->kl, sy)) < 0)
				return -1;
			break;
		}
	if (i == n)
		wait = g->nwrows > 0;
	if (wait && !g->waiting) {
		g->waiting = 1;
		g->wframe0 = (uint32_t)g->nframes;
	}
	for (i = 0; i < n; i++) {
		struct pd_symc *c;

		g->at = (uint64_t)g->nwrows << 11 | i;
		if (wait && frames[i].cpumode == PERF_RECORD_MISC_KERNEL) {
			if (keep(g, frames[i].addr, s->pid, &g->gids[i]) < 0)
				return -1;
			continue;
		}
		c = pd_syms_lookup(sy, s->pid, frames[i].cpumode,
		    frames[i].addr);
		if (g->view >= 0 && c->view[g->view] != 0) {
			g->gids[i] = (uint32_t)c->view[g->view] - 1;
			continue;
		}
		if (frame_of(g, &c->r, &g->gids[i]) < 0)
			return -1;
		if (g->view >= 0)
			c->view[g->view] = (uint64_t)g->gids[i] + 1;
	}
	if (n == 0) {
		g->at = (uint64_t)g->nwrows << 11;
		if (gframe_of(g, "[unknown] (in [unknown])", 0, &g->gids[0]) < 0)
			return -1;
		if (frames != NULL)
			g->unknown++;
		n = 1;
	}
	if (wait)
		return wait_row(g, t, g->gids, n, time);
	if (thread_stack(g, t, g->gids, n, &ls) < 0)
		return -1;
	return put_row(g, t, ls, time);
}

/* ----- writing ----- */

static const char frame_schema[] =
    "{\"location\":0,\"relevantForJS\":1,\"innerWindowID\":2,"
    "\"implementation\":3,\"optimizations\":4,\"line\":5,\"column\":6,"
    "\"category\":7,\"subcategory\":8}";

/* v in decimal at the end of buf[24], NUL after: where it starts. */
static char *
dec(char *end, uint64_t v)
{
	*--end = '\0';
	return pd_rdec(end, v);
}

static void
put_u(FILE *f, uint64_t v)
{
	char b[24];

	fputs(dec(b + sizeof(b), v), f);
}

/* Milliseconds from the first sample, to the microsecond. */
static void
put_ms(FILE *f, uint64_t ns)
{
	char b[24], *p;
	uint64_t us = ns / 1000 % 1000;

	put_u(f, ns / 1000000);
	p = dec(b + sizeof(b), us + 1000);	/* "1ddd": three digits */
	*p = '.';
	fputs(p, f);
}

/*
 * The rows of the tables (millions of a few bytes each) are gathered
 * here and handed to stdio OB_SIZE bytes at a time: a stdio call a row
 * was 40% of writing the file. Flushed before anything else writes to f.
 */
#define OB_SIZE		(64 * 1024)

struct ob {
	FILE		*f;
	size_t		 n;
	char		 b[OB_SIZE];
};

static void
ob_flush(struct ob *o)
{
	if (o->n > 0)
		fwrite(o->b, 1, o->n, o->f);
	o->n = 0;
}

static inline void
ob_put(struct ob *o, const void *p, size_t n)
{
	if (o->n + n > sizeof(o->b)) {
		ob_flush(o);
		if (n > sizeof(o->b)) {
			fwrite(p, 1, n, o->f);
			return;
		}
	}
	memcpy(o->b + o->n, p, n);
	o->n += n;
}

/* A string as JSON: plain text at once, the rest by pd_json_str. */
static void
put_str(struct ob *o, const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p != '\0'; p++)
		if (*p < 0x20 || *p >= 0x7f || *p == '"' || *p == '\\') {
			ob_flush(o);
			pd_json_str(o->f, s);
			return;
		}
	ob_put(o, "\"", 1);
	ob_put(o, s, (size_t)((const char *)p - s));
	ob_put(o, "\"", 1);
}

/*
 * One row of the samples table, ",[stack,ms.uuu,0]" (no comma first):
 * made in place and written at once, rows being most of the file.
 */
static void
put_sample(struct ob *o, uint32_t stack, uint64_t ns, int comma)
{
	char b[64], *p = b + sizeof(b);
	uint64_t us = ns / 1000 % 1000;

	p -= 3;
	memcpy(p, ",0]", 3);
	p = pd_rdec(p, us + 1000);		/* "1ddd": three digits */
	*p = '.';
	p = pd_rdec(p, ns / 1000000);
	*--p = ',';
	p = pd_rdec(p, stack);
	*--p = '[';
	if (comma)
		*--p = ',';
	ob_put(o, p, (size_t)(b + sizeof(b) - p));
}

/* One row of the stack table: ",[prefix,frame]", prefix1 0: null. */
static void
put_stack(struct ob *o, uint32_t prefix1, uint32_t frame, int comma)
{
	char b[64], *p = b + sizeof(b);

	*--p = ']';
	p = pd_rdec(p, frame);
	*--p = ',';
	if (prefix1 == 0) {
		p -= 4;
		memcpy(p, "null", 4);
	} else
		p = pd_rdec(p, prefix1 - 1);
	*--p = '[';
	if (comma)
		*--p = ',';
	ob_put(o, p, (size_t)(b + sizeof(b) - p));
}

/* Thread t up to its samples' rows, which come next. */
static void
thread_head(struct gecko *g, FILE *f, uint32_t t, int first)
{
	const struct thread *th = &g->threads[t];

	fprintf(f, "%s\n{\"tid\":%" PRIu32 ",\"pid\":%" PRIu32 ",\"name\":",
	    first ? "" : ",", th->tid, th->pid);
	pd_json_str(f, tab_strget(&g->strs, th->comm));
	fputs(",\"processType\":\"default\",\"registerTime\":0,"
	    "\"unregisterTime\":null,\"markers\":{\"schema\":{\"name\":0,"
	    "\"startTime\":1,\"endTime\":2,\"phase\":3,\"category\":4,"
	    "\"data\":5},\"data\":[]},\n\"samples\":{\"schema\":{\"stack\":0,"
	    "\"time\":1,\"responsiveness\":2},\"data\":[", f);
}

/* Thread t after its samples' rows: its tables. */
static void
thread_tables(struct gecko *g, struct ob *o, uint32_t t)
{
	static const char kframe[] = ",false,0,null,null,null,null,1,0]";
	static const char uframe[] = ",false,0,null,null,null,null,0,0]";
	const struct thread *th = &g->threads[t];
	FILE *f = o->f;
	char b[24], *d;
	size_t i;

	ob_flush(o);
	fprintf(f, "]},\n\"frameTable\":{\"schema\":%s,\"data\":[",
	    frame_schema);
	/* A frame's location is its string: the same numbering. */
	for (i = 0; i < th->nfr; i++) {
		if (i > 0)
			ob_put(o, ",", 1);
		ob_put(o, "[", 1);
		d = dec(b + sizeof(b), i);
		ob_put(o, d, (size_t)(b + sizeof(b) - 1 - d));
		if (g->frames[th->fr[i]].kernel)
			ob_put(o, kframe, sizeof(kframe) - 1);
		else
			ob_put(o, uframe, sizeof(uframe) - 1);
	}
	ob_flush(o);
	fputs("]},\n\"stackTable\":{\"schema\":{\"prefix\":0,\"frame\":1},"
	    "\"data\":[", f);
	for (i = 0; i < th->nstk; i++)
		put_stack(o, th->stk[2 * i], th->stk[2 * i + 1], i > 0);
	ob_flush(o);
	fputs("]},\n\"stringTable\":[", f);
	for (i = 0; i < th->nfr; i++) {
		if (i > 0)
			ob_put(o, ",", 1);
		put_str(o, tab_strget(&g->strs, g->frames[th->fr[i]].str));
	}
	ob_flush(o);
	fputs("]}", f);
}

/* Thread t with its rows (n of them, in time order as they came). */
static void
write_thread(struct gecko *g, struct ob *o, uint32_t t,
    const struct row *rows, size_t n, int first)
{
	size_t i;

	thread_head(g, o->f, t, first);
	for (i = 0; i < n; i++)
		put_sample(o, rows[i].stack, rows[i].time - g->t0, i > 0);
	thread_tables(g, o, t);
}

/*
 * Thread t written as its rows are read from the temporary file (in
 * the order written, which is theirs): ROWBUF rows in memory at once.
 */
static int
stream_thread(struct gecko *g, struct ob *o, uint32_t t, struct row *in,
    int first)
{
	uint64_t done = 0, n = 0;
	size_t got, i;

	if (fseeko(g->rows, 0, SEEK_SET) < 0)
		return -1;
	thread_head(g, o->f, t, first);
	while (done < g->nrows) {
		got = fread(in, sizeof(*in), ROWBUF, g->rows);
		if (got == 0)
			return -1;
		for (i = 0; i < got; i++)
			if (in[i].thread == t) {
				put_sample(o, in[i].stack, in[i].time - g->t0,
				    n > 0);
				n++;
			}
		done += got;
	}
	thread_tables(g, o, t);
	return ferror(o->f) ? -1 : 0;
}

/*
 * Threads [lo, hi): their rows, read from the temporary file into
 * place (each thread's in the order written), then the threads.
 */
static int
write_group(struct gecko *g, struct ob *o, uint32_t lo, uint32_t hi,
    struct row *rows, uint64_t *at, struct row *in, int *first)
{
	uint64_t done = 0;
	size_t got, i;
	uint32_t t;

	if (fseeko(g->rows, 0, SEEK_SET) < 0)
		return -1;
	while (done < g->nrows) {
		got = fread(in, sizeof(*in), ROWBUF, g->rows);
		if (got == 0)
			return -1;
		for (i = 0; i < got; i++)
			if (in[i].thread >= lo && in[i].thread < hi)
				rows[at[in[i].thread]++] = in[i];
		done += got;
	}
	for (t = lo, i = 0; t < hi; t++) {
		write_thread(g, o, t, rows + i, g->threads[t].rows, *first);
		*first = 0;
		i += g->threads[t].rows;
	}
	return ferror(o->f) ? -1 : 0;
}

static void
write_meta(struct gecko *g, FILE *f)
{
	char product[300];

	snprintf(product, sizeof(product), "%s%s%s", g->hi.osrelease[0] ?
	    "Linux " : "", g->hi.osrelease, g->hi.arch[0] ? " " : "");
	strncat(product, g->hi.arch, sizeof(product) - strlen(product) - 1);
	fputs("{\"meta\":{\"interval\":", f);
	put_ms(f, g->interval_ns > 0 ? g->interval_ns : 1000000);
	fputs(",\"processType\":0,\"product\":", f);
	pd_json_str(f, product[0] ? product : "Linux");
	fputs(",\"stackwalk\":1,\"debug\":0,\"gcpoison\":0,\"asyncstack\":1,"
	    "\"startTime\":", f);
	put_ms(f, g->t0);
	fputs(",\"shutdownTime\":null,\"version\":24,\"presymbolicated\":true,"
	    "\"categories\":[{\"name\":\"User\",\"color\":\"yellow\","
	    "\"subcategories\":[\"Other\"]},{\"name\":\"Kernel\",\"color\":"
	    "\"orange\",\"subcategories\":[\"Other\"]}],\"markerSchema\":[]},"
	    "\n\"libs\":[],\n\"threads\":[", f);
}

static int
write_all(struct gecko *g, FILE *f)
{
	struct row *rows = NULL, *in = NULL;
	struct ob *o = NULL;
	uint64_t *at = NULL, sum;
	uint32_t lo, hi;
	size_t cap = 0;
	int first = 1, r = -1;

	if (g->nbuf > 0 && fwrite(g->buf, sizeof(*g->buf), g->nbuf,
	    g->rows) != g->nbuf)
		return -1;
	g->nbuf = 0;
	if (fflush(g->rows) == EOF)
		return -1;
	if ((at = calloc(g->nthreads + 1, sizeof(*at))) == NULL ||
	    (in = malloc(ROWBUF * sizeof(*in))) == NULL ||
	    (o = malloc(sizeof(*o))) == NULL)
		goto out;
	o->f = f;
	o->n = 0;
	write_meta(g, f);
	for (lo = 0; lo < g->nthreads; lo = hi) {
		if (g->threads[lo].rows > ROWS_STREAM) {
			if (stream_thread(g, o, lo, in, first) < 0)
				goto out;
			first = 0;
			hi = lo + 1;
			continue;
		}
		/* As many short threads as ROWS_MAX rows hold, one at least. */
		for (hi = lo, sum = 0; hi < g->nthreads &&
		    g->threads[hi].rows <= ROWS_STREAM && (hi == lo ||
		    sum + g->threads[hi].rows <= ROWS_MAX); hi++) {
			at[hi] = sum;
			sum += g->threads[hi].rows;
		}
		if (sum > cap) {
			free(rows);
			if ((rows = malloc(sum * sizeof(*rows))) == NULL)
				goto out;
			cap = sum;
		}
		if (write_group(g, o, lo, hi, rows, at, in, &first) < 0)
			goto out;
	}
	fputs("],\n\"processes\":[],\"pausedRanges\":[]}\n", f);
	r = ferror(f) ? -1 : 0;
out:
	if (r < 0 && errno == 0)
		errno = ENOMEM;
	free(rows);
	free(in);
	free(at);
	free(o);
	return r;
}

static int
put_gecko(FILE *f, void *g)
{
	return write_all(g, f);
}

int
gecko_write(struct gecko *g, const char *path)
{
	return pd_output_stdio(path, put_gecko, g);
}
