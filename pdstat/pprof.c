/* SPDX-License-Identifier: MIT */
/*
 * The profile.proto tables, built as the samples come due and written
 * once at the end. A frame's Location is its (mapping, address): the
 * leaf's address is the sampled ip, a caller's the return address minus
 * one, which is within the call instruction, as perf_to_profile makes
 * them (pprof then shows the caller's line, not the next one's). Its
 * Function is the symbolizer's name, the one pddump --folded and
 * perf script show, or "[file]" / "[unknown]" as the folded stacks name
 * what has none. Names are the symbolizer's strings, which last only as
 * long as an input's pd_syms: everything here is copied into one string
 * table, the profile's own.
 */
#include "pdstat/pprof.h"

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libcommon/cli/msg.h"
#include "libcommon/cli/output.h"
#include "libcommon/stream/event.h"
#include "libcommon/stream/evlist.h"
#include "libcommon/stream/feature.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/record.h"
#include "libcommon/stream/sample.h"
#include "libcommon/sym/symbols.h"
#include "pdstat/pb.h"
#include "pdstat/tab.h"

#define MAX_FRAMES	1024
#define NONE		UINT32_MAX	/* a label the sample has not */

struct event {
	uint64_t	 order;		/* input << 32 | evsel idx, first seen */
	uint32_t	 name;		/* strings */
	uint32_t	 unit;
	uint64_t	 period;	/* between samples, in unit; 0 unknown */
};

struct mapping {
	uint64_t	 start, limit, off;
	uint32_t	 file, bid;
	int		 symbols;
	int		 lines, inl;	/* has line numbers, inline frames */
};

struct function {
	uint32_t	 name, sysname;
	uint32_t	 file;		/* source file, strings; 0: unknown */
};

struct location {
	uint64_t	 addr;
	uint32_t	 map;		/* mapping id, 0: none */
	uint32_t	 func;		/* function index */
	uint32_t	 line;		/* its Line.line, 0: unknown */
};

/* A Line of a function inlined at a location (loc, an index). */
struct pline {
	uint32_t	 loc, func, line;
};

/*
 * A location's source lines are looked up on a second thread while the
 * stream is read (pd_srcq), and come back later; what they add to the
 * tables (source files, with --inline functions) is then put where a
 * run that looked them up as each location was made would have put
 * it: the profile is the same. So each string and function has a key,
 * its place in that order: made in its turn, (locations made) << 32 |
 * its id; made by location l's lines, l << 32 | LATE | LINES | the
 * how-manieth of l's (and by its kernel frame named late, below, l <<
 * 32 | LATE | the how-manieth). One both make has the smaller. Writing
 * renumbers them in the keys' order.
 */
#define LATE		(1ULL << 31)
#define LINES		(1ULL << 30)

/*
 * Kernel frames while /proc/kallsyms is read ahead (pd_klater, 30 to
 * 50 ms of the kernel's time): the kernel's maps come from the stream,
 * so a kernel frame's mapping and location are found or made in their
 * turn, and only a new location's function waits. When the names come
 * (name_waiting), each waiting location is named as it would have been
 * when made, in the order they were made, and what that adds is keyed
 * as the location's own (l << 32 | LATE | k, before its lines); its
 * mapping, asked again, now says the names were read. The profile is
 * the same as if the names had been there all along.
 */
struct kwait {
	uint64_t	 addr;		/* the frame's, as it was looked up */
	uint32_t	 loc, pid;
};

/*
 * What a sample is labelled with: few of them (threads times cpus), so
 * a sample names its set, and the set's labels are written once.
 */
struct lset {
	uint32_t	 ev, pid, tid, cpu, comm, host;
};

/*
 * A distinct sample: its set, its stack (the location ids as the
 * packed field holds them: varints, about 2.5 bytes an id, not 4) and
 * its sums.
 */
struct psample {
	uint32_t	 lset;
	uint32_t	 len;		/* bytes of stk[off ..] */
	uint64_t	 off;
	uint64_t	 count, period;
};

/*
 * What the symbolizer's strings led to: they stay where they are while
 * an input's pd_syms lives, so their addresses are keys (as fold.c's).
 */
#define PCACHE		4096
struct fent {
	const char	*name, *dso;
	uint32_t	 func1;		/* function index + 1; 0: empty */
};

/* A comm string of the pd_syms -> its string id. */
#define CCACHE		256
struct cent {
	const char	*comm;		/* NULL: empty */
	uint32_t	 id;
};

struct ment {
	const char	*dso;
	uint64_t	 start, end, pgoff;
	uint32_t	 map;		/* mapping id; 0: empty */
};

struct pprof {
	struct tab_strs	 strs;

	struct event	*ev;
	size_t		 nev;
	uint32_t	*pos;		/* writing: event i's place, by order */
	uint64_t	 input;		/* inputs started */
	int		 last_idx;	/* the input's evsel idx of last_ev */
	uint32_t	 last_ev;

	struct mapping	*maps;
	size_t		 nmaps, mapcap;
	struct tab_index	 midx;
	struct function	*funcs;
	size_t		 nfuncs, funccap;
	struct tab_index	 fidx;
	struct location	*locs;
	size_t		 nlocs, loccap;
	struct tab_index	 lidx;
	struct lset	*lsets;
	size_t		 nlsets, lsetcap;
	struct tab_index	 lsidx;
	struct psample	*samples;
	size_t		 nsamples, sampcap;
	struct tab_index	 sampidx;
	unsigned char	*stk;		/* the samples' stacks, packed */
	size_t		 nstk, stkcap;
	struct pline	*lines;		/* locations' inlined functions, in
					   the order of their locations */
	size_t		 nlines, linecap;
	int		 inl;		/* --inline */
	struct pd_srcq	*srcq;		/* the lines asked for, or NULL */
	uint64_t	*skey, *fkey;	/* strings', functions' keys */
	size_t		 skcap, fkcap;
	uint64_t	 late;		/* naming location l late: l << 32 |
					   LATE; else 0 */
	uint32_t	 latek;		/* what it has made so far */
	struct pd_klater kl;
	struct kwait	*kw;		/* the locations waiting, in order */
	size_t		 nkw, kwcap;

	int		 view[2];	/* words of the pd_syms' address cache:
					   a caller's location, a leaf's; -1:
					   none asked for yet, -2: none left */
	struct fent	 fcache[PCACHE];
	struct ment	 mcache[PCACHE];
	struct cent	 ccache[CCACHE];
	uint64_t	 tmin, tmax;
	struct pd_feat_clock_data cd;	/* the first input's CLOCK_DATA */
	int		 has_cd;
	uint64_t	 unknown;
	uint32_t	 host;		/* the input's, strings */
	uint32_t	 last_host;	/* last_idx's own in a merge, or 0 */
	struct pd_header_info hi;
	uint32_t	 k_pid, k_tid, k_cpu, k_comm, k_host;
	uint32_t	 ids[MAX_FRAMES];
	unsigned char	 packed[MAX_FRAMES * 5];	/* ids as varints */
};

/* The string's id, added when new; late: its key when made by lines. */
static int
str_keyed(struct pprof *pp, const char *s, size_t len, uint64_t late,
    uint32_t *id)
{
	size_t n = pp->strs.n;

	if (tab_str(&pp->strs, s, len, id) < 0)
		return -1;
	if (pp->strs.n > n) {
		if (tab_grow(&pp->skey, &pp->skcap, n, sizeof(*pp->skey)) < 0)
			return -1;
		pp->skey[*id] = late != 0 ? late :
		    (uint64_t)pp->nlocs << 32 | *id;
	} else if (late != 0 && late < pp->skey[*id])
		pp->skey[*id] = late;
	return 0;
}

/* While a waiting location is named: the key of the next thing it makes. */
static uint64_t
late_key(struct pprof *pp)
{
	return pp->late != 0 ? pp->late | pp->latek++ : 0;
}

static int
str(struct pprof *pp, const char *s, uint32_t *id)
{
	return str_keyed(pp, s, strlen(s), late_key(pp), id);
}

static int	name_waiting(void *, struct pd_syms *);

struct pprof *
pprof_new(void)
{
	struct pprof *pp = calloc(1, sizeof(*pp));
	uint32_t empty;

	if (pp == NULL)
		return NULL;
	pp->view[0] = pp->view[1] = -1;
	pp->kl.settle = name_waiting;
	pp->kl.ctx = pp;
	/* String 0 is "", as profile.proto asks. */
	if (str(pp, "", &empty) < 0 || str(pp, "pid", &pp->k_pid) < 0 ||
	    str(pp, "tid", &pp->k_tid) < 0 || str(pp, "cpu", &pp->k_cpu) < 0 ||
	    str(pp, "comm", &pp->k_comm) < 0 ||
	    str(pp, "host", &pp->k_host) < 0) {
		pprof_free(pp);
		return NULL;
	}
	return pp;
}

void
pprof_free(struct pprof *pp)
{
	if (pp == NULL)
		return;
	pd_klater_drop(&pp->kl);
	pd_srcq_free(pp->srcq);
	tab_strs_free(&pp->strs);
	free(pp->skey);
	free(pp->fkey);
	free(pp->kw);
	free(pp->ev);
	free(pp->pos);
	free(pp->maps);
	free(pp->midx.s);
	free(pp->funcs);
	free(pp->lines);
	free(pp->fidx.s);
	free(pp->locs);
	free(pp->lidx.s);
	free(pp->lsets);
	free(pp->lsidx.s);
	free(pp->samples);
	free(pp->sampidx.s);
	free(pp->stk);
	free(pp);
}

/* An input's pd_syms goes: its generations and strings mean nothing. */
static void
forget(struct pprof *pp)
{
	pp->view[0] = pp->view[1] = -1;
	memset(pp->fcache, 0, sizeof(pp->fcache));
	memset(pp->mcache, 0, sizeof(pp->mcache));
	memset(pp->ccache, 0, sizeof(pp->ccache));
}

int
pprof_input(struct pprof *pp, const struct pd_evlist *el)
{
	(void)el;
	pp->input++;
	pp->last_idx = -1;
	pp->host = 0;
	memset(&pp->hi, 0, sizeof(pp->hi));
	forget(pp);
	return 0;
}

void
pprof_record(struct pprof *pp, const struct pd_rec *rec)
{
	if (rec->type != PD_RECORD_HEADER_FEATURE)
		return;
	/* time_nanos on the wall clock, where the stream says how. */
	if (pd_feat_id(rec) == PD_FEAT_CLOCK_DATA && !pp->has_cd &&
	    pd_feat_clock_data_parse(rec, &pp->cd) == 0) {
		pp->has_cd = 1;
		return;
	}
	if (pd_feat_id(rec) != PD_FEAT_HOSTNAME)
		return;
	if (pd_header_info_update(&pp->hi, rec) == 0 &&
	    str(pp, pp->hi.hostname, &pp->host) < 0)
		pp->host = 0;
}

/* The event's index, its sample types added when new. 0 or -1. */
static int
event_of(struct pprof *pp, const struct pd_evsel *ev, uint32_t *idx)
{
	char name[256];
	const char *unit;
	uint32_t nid;
	size_t i;
	struct event *e;

	if (ev->name != NULL)
		snprintf(name, sizeof(name), "%s", ev->name);
	else
		pd_attr_default_name(&ev->attr, name, sizeof(name));
	if (str(pp, name, &nid) < 0)
		return -1;
	for (i = 0; i < pp->nev; i++)
		if (pp->ev[i].name == nid) {
			*idx = (uint32_t)i;
			return 0;
		}
	/* In the order of the attrs (of the first input that has it). */
	if ((pp->nev & 7) == 0) {
		e = realloc(pp->ev, (pp->nev + 8) * sizeof(*e));
		if (e == NULL)
			return -1;
		pp->ev = e;
	}
	e = &pp->ev[pp->nev];
	e->order = pp->input << 32 | (uint32_t)ev->idx;
	e->name = nid;
	/* perf's clock events count nanoseconds; the rest, events. */
	unit = strncmp(name, "cpu-clock", 9) == 0 ||
	    strncmp(name, "task-clock", 10) == 0 ? "nanoseconds" : "count";
	if (str(pp, unit, &e->unit) < 0)
		return -1;
	if (!(ev->attr.flags & PD_ATTR_FREQ))
		e->period = ev->attr.sample_period;
	else if (unit[0] == 'n' && ev->attr.sample_period > 0)
		e->period = 1000000000ULL / ev->attr.sample_period;
	else
		e->period = 0;
	*idx = (uint32_t)pp->nev++;
	return 0;
}

static int
map_eq(const struct mapping *a, const struct mapping *b)
{
	return a->start == b->start && a->limit == b->limit &&
	    a->off == b->off && a->file == b->file && a->bid == b->bid;
}

/* The mapping id (1-based) of *m, added when new; 0 on out of memory. */
static uint32_t
mapping_id(struct pprof *pp, const struct mapping *m)
{
	uint32_t h = (uint32_t)tab_hash(m, offsetof(struct mapping, symbols),
	    1);
	struct tab_slot *sl;
	size_t k;

	if (tab_index_room(&pp->midx) < 0)
		return 0;
	for (k = h & (pp->midx.cap - 1); (sl = &pp->midx.s[k])->id1 != 0;
	    k = (k + 1) & (pp->midx.cap - 1))
		if (sl->h == h && map_eq(&pp->maps[sl->id1 - 1], m)) {
			if (m->symbols)
				pp->maps[sl->id1 - 1].symbols = 1;
			return sl->id1;
		}
	if (tab_grow(&pp->maps, &pp->mapcap, pp->nmaps, sizeof(*m)) < 0)
		return 0;
	pp->maps[pp->nmaps] = *m;
	sl->id1 = (uint32_t)++pp->nmaps;
	sl->h = h;
	pp->midx.n++;
	return sl->id1;
}

/*
 * The function index of the name, added when new with system name
 * sysname (the first one seen: overloads share a name; late, its key
 * when a location's lines name it, tells which is first). 0 or -1.
 */
static int
function_of(struct pprof *pp, uint32_t name, uint32_t sysname,
    uint64_t late, uint32_t *idx)
{
	uint32_t h = (uint32_t)tab_mix(name + 1);
	struct tab_slot *sl;
	size_t k;

	if (tab_index_room(&pp->fidx) < 0)
		return -1;
	for (k = h & (pp->fidx.cap - 1); (sl = &pp->fidx.s[k])->id1 != 0;
	    k = (k + 1) & (pp->fidx.cap - 1))
		if (pp->funcs[sl->id1 - 1].name == name) {
			*idx = sl->id1 - 1;
			if (late != 0 && late < pp->fkey[*idx]) {
				pp->fkey[*idx] = late;
				pp->funcs[*idx].sysname = sysname;
			}
			return 0;
		}
	if (tab_grow(&pp->funcs, &pp->funccap, pp->nfuncs, sizeof(*pp->funcs)) < 0 ||
	    tab_grow(&pp->fkey, &pp->fkcap, pp->nfuncs, sizeof(*pp->fkey)) < 0)
		return -1;
	pp->fkey[pp->nfuncs] = late != 0 ? late :
	    (uint64_t)pp->nlocs << 32 | pp->nfuncs;
	pp->funcs[pp->nfuncs].name = name;
	pp->funcs[pp->nfuncs].sysname = sysname;
	pp->funcs[pp->nfuncs].file = 0;	/* function_file() fills it */
	sl->id1 = (uint32_t)++pp->nfuncs;
	sl->h = h;
	pp->fidx.n++;
	*idx = sl->id1 - 1;
	return 0;
}

/* What has no symbol is named as the folded stacks name it. */
static void
unknown_name(const char *dso, char *buf, size_t len)
{
	const char *base = "unknown";
	size_t blen;

	if (dso != NULL && strcmp(dso, "[unknown]") != 0) {
		base = strrchr(dso, '/');
		base = base != NULL ? base + 1 : dso;
	}
	blen = strlen(base);
	if (blen >= 10 && strcmp(base + blen - 10, " (deleted)") == 0)
		blen -= 10;
	snprintf(buf, len, "[%.*s]", (int)blen, base);
}

void
pprof_set_inline(struct pprof *pp, int on)
{
	pp->inl = on;
}

/* The function's source file, the first one the debug info gives. */
static int
function_file(struct pprof *pp, uint32_t fn, const char *path,
    uint64_t late)
{
	if (path == NULL || pp->funcs[fn].file != 0)
		return 0;
	return str_keyed(pp, path, strlen(path), late, &pp->funcs[fn].file);
}

/*
 * The source lines of location loc, from the debug info at the frame's
 * address (sf, n of them, as pd_syms_inline gives them; as pddump
 * --srcline shows them): its function's Line.line and file, and with
 * --inline the functions inlined there as Lines of their own before
 * it, innermost first, as profile.proto orders them. 0, or -1 when out
 * of memory.
 */
static int
location_lines(struct pprof *pp, uint32_t loc, const struct pd_srcframe *sf,
    size_t n)
{
	struct location *l = &pp->locs[loc];
	struct mapping *mp = l->map != 0 ? &pp->maps[l->map - 1] : NULL;
	uint64_t late = (uint64_t)loc << 32 | LATE | LINES;
	uint32_t name, fn, k = 0;
	const char *nm;
	size_t j;

	l->line = sf[n - 1].line;
	if (function_file(pp, l->func, sf[n - 1].file, late | k++) < 0)
		return -1;
	if (mp != NULL && l->line != 0)
		mp->lines = 1;
	if (!pp->inl || n == 1)
		return 0;
	for (j = 0; j + 1 < n; j++) {
		nm = sf[j].name != NULL ? sf[j].name : "[unknown]";
		if (tab_grow(&pp->lines, &pp->linecap, pp->nlines,
		    sizeof(*pp->lines)) < 0 ||
		    str_keyed(pp, nm, strlen(nm), late | k++, &name) < 0 ||
		    function_of(pp, name, name, late | k++, &fn) < 0 ||
		    function_file(pp, fn, sf[j].file, late | k++) < 0)
			return -1;
		pp->lines[pp->nlines].loc = loc;
		pp->lines[pp->nlines].func = fn;
		pp->lines[pp->nlines++].line = sf[j].line;
	}
	if (mp != NULL)
		mp->inl = 1;
	return 0;
}

/* The lines looked up so far (wait: all asked for) into the tables. */
static int
lines_take(struct pprof *pp, int wait)
{
	const struct pd_srcframe *sf;
	uint64_t tag;
	size_t n;

	if (pp->srcq == NULL)
		return 0;
	while (pd_srcq_pop(pp->srcq, wait, &tag, &sf, &n) == 1)
		if (n > 0 && location_lines(pp, (uint32_t)tag, sf, n) < 0)
			return -1;
	return 0;
}

/* Asks for the lines of location loc, the frame's address r. 0 or -1. */
static int
lines_ask(struct pprof *pp, struct pd_syms *sy, const struct pd_symres *r,
    uint32_t loc)
{
	const struct pd_srcframe *sf;
	uint64_t tag;
	size_t n;

	if (r->file == NULL)
		return 0;
	if (pp->srcq == NULL && (pp->srcq = pd_srcq_new(sy)) == NULL)
		return -1;
	/* What is ready is taken now: the queue stays short. */
	if (lines_take(pp, 0) < 0)
		return -1;
	while (!pd_srcq_room(pp->srcq))
		if (pd_srcq_pop(pp->srcq, 1, &tag, &sf, &n) == 1 && n > 0 &&
		    location_lines(pp, (uint32_t)tag, sf, n) < 0)
			return -1;
	pd_srcq_push(pp->srcq, sy, r, loc);
	return 0;
}

/*
 * The location of a frame (leaf: the sampled ip, else a return
 * address), resolved and added when new. 0 or -1.
 */
static size_t
ptr_slot(const void *a, const void *b, uint64_t x)
{
	return tab_mix((uintptr_t)a * 0x9e3779b97f4a7c15ULL ^ (uintptr_t)b ^
	    x) & (PCACHE - 1);
}

/* The mapping id of the map mr, added when new; 0 when out of memory. */
static uint32_t
mapping_of(struct pprof *pp, const struct pd_mapres *mr)
{
	static const char hexd[] = "0123456789abcdef";
	struct ment *c = &pp->mcache[ptr_slot(mr->dso, NULL, mr->start ^
	    mr->end * 31 ^ mr->pgoff)];
	struct mapping m;
	char hex[41];
	size_t i;

	/* Named late: mapping_id is to hear that the names were read. */
	if (c->map != 0 && c->dso == mr->dso && c->start == mr->start &&
	    c->end == mr->end && c->pgoff == mr->pgoff && pp->late == 0)
		return c->map;
	memset(&m, 0, sizeof(m));
	m.start = mr->start;
	m.limit = mr->end;
	m.off = mr->pgoff;
	m.symbols = mr->symbols;
	if (str(pp, mr->dso, &m.file) < 0)
		return 0;
	if (mr->bidlen > 0) {
		for (i = 0; i < mr->bidlen && i < 20; i++) {
			hex[2 * i] = hexd[mr->bid[i] >> 4];
			hex[2 * i + 1] = hexd[mr->bid[i] & 15];
		}
		if (str_keyed(pp, hex, 2 * i, late_key(pp), &m.bid) < 0)
			return 0;
	}
	if ((c->map = mapping_id(pp, &m)) != 0) {
		c->dso = mr->dso;
		c->start = mr->start;
		c->end = mr->end;
		c->pgoff = mr->pgoff;
	}
	return c->map;
}

/* The function of a resolved frame, added when new. 0 or -1. */
static int
function_named(struct pprof *pp, const struct pd_symres *r, uint32_t *fn)
{
	struct fent *c = &pp->fcache[ptr_slot(r->name, r->dso, 0)];
	uint32_t name, sysname;
	char ubuf[280];

	/* Named late, it may come before the one cached: its key says. */
	if (c->func1 != 0 && c->name == r->name && c->dso == r->dso &&
	    pp->late == 0) {
		*fn = c->func1 - 1;
		return 0;
	}
	if (r->name == NULL)
		unknown_name(r->dso, ubuf, sizeof(ubuf));
	if (str(pp, r->name != NULL ? r->name : ubuf, &name) < 0)
		return -1;
	/* The name as the file has it, where it was demangled. */
	sysname = name;
	if (r->raw != NULL && r->raw != r->name &&
	    str(pp, r->raw, &sysname) < 0)
		return -1;
	if (function_of(pp, name, sysname, late_key(pp), fn) < 0)
		return -1;
	c->name = r->name;
	c->dso = r->dso;
	c->func1 = *fn + 1;
	return 0;
}

/*
 * The location (addr, map)'s id + 1 in *id, or its slot in the index
 * for a new one in *sl and *h (0, *id 0). -1: out of memory.
 */
static int
location_find(struct pprof *pp, uint64_t addr, uint32_t map,
    struct tab_slot **sl, uint32_t *h, uint32_t *id)
{
	const struct location *l;
	size_t k;

	*h = (uint32_t)tab_mix(addr * 0x9e3779b97f4a7c15ULL ^ map);
	*id = 0;
	if (tab_index_room(&pp->lidx) < 0)
		return -1;
	for (k = tab_first(&pp->lidx, *h); (*sl = &pp->lidx.s[k])->id1 != 0;
	    k = tab_next(&pp->lidx, k)) {
		if ((*sl)->h != *h)
			continue;
		l = &pp->locs[(*sl)->id1 - 1];
		if (l->addr == addr && l->map == map) {
			*id = (*sl)->id1;
			return 0;
		}
	}
	return 0;
}

/* A new location at slot sl: its id. -1: out of memory. */
static int
location_add(struct pprof *pp, uint64_t addr, uint32_t map, uint32_t fn,
    struct tab_slot *sl, uint32_t h, uint32_t *id)
{
	struct location *l;

	if (tab_grow(&pp->locs, &pp->loccap, pp->nlocs, sizeof(*pp->locs)) < 0)
		return -1;
	l = &pp->locs[pp->nlocs];
	l->addr = addr;
	l->map = map;
	l->func = fn;
	l->line = 0;
	sl->id1 = *id = (uint32_t)++pp->nlocs;
	sl->h = h;
	pp->lidx.n++;
	return 0;
}

/*
 * The location of a frame (leaf: the sampled ip, else a return
 * address), resolved and added when new. r NULL: a kernel frame whose
 * name waits (a new location's function is name_waiting's). 0 or -1.
 */
static int
location_of(struct pprof *pp, struct pd_syms *sy, uint32_t pid,
    const struct pd_frame *fr, const struct pd_symres *r, int leaf,
    uint32_t *id)
{
	struct pd_mapres mr;
	struct tab_slot *sl;
	uint32_t map = 0, h, fn;
	uint64_t addr = leaf || fr->addr == 0 ? fr->addr : fr->addr - 1;

	if (pd_syms_map_at(sy, pid, fr->cpumode, fr->addr, &mr) == 0 &&
	    (map = mapping_of(pp, &mr)) == 0)
		return -1;
	if (location_find(pp, addr, map, &sl, &h, id) < 0)
		return -1;
	if (*id != 0)
		return 0;
	if (r == NULL) {
		if (tab_grow(&pp->kw, &pp->kwcap, pp->nkw,
		    sizeof(*pp->kw)) < 0 ||
		    location_add(pp, addr, map, 0, sl, h, id) < 0)
			return -1;
		pp->kw[pp->nkw].addr = fr->addr;
		pp->kw[pp->nkw].loc = *id - 1;
		pp->kw[pp->nkw++].pid = pid;
		return 0;
	}
	if (function_named(pp, r, &fn) < 0 ||
	    location_add(pp, addr, map, fn, sl, h, id) < 0 ||
	    lines_ask(pp, sy, r, *id - 1) < 0)
		return -1;
	return 0;
}

/*
 * The waiting locations named (pd_klater's settle), each as location_of
 * would have named it, in the order they were made. 0 or -1.
 */
static int
name_waiting(void *ctx, struct pd_syms *sy)
{
	struct pprof *pp = ctx;
	struct pd_mapres mr;
	uint32_t fn;
	size_t i;
	int r = -1;

	for (i = 0; i < pp->nkw; i++) {
		const struct kwait *w = &pp->kw[i];
		struct pd_symc *c;

		pp->late = (uint64_t)w->loc << 32 | LATE;
		pp->latek = 0;
		/*
		 * Named first, as in its turn: then its map says that the
		 * names were read (mapping_id adds that; not from a cache).
		 */
		c = pd_syms_lookup(sy, w->pid, PERF_RECORD_MISC_KERNEL,
		    w->addr);
		if ((pd_syms_map_at(sy, w->pid, PERF_RECORD_MISC_KERNEL,
		    w->addr, &mr) == 0 && mapping_of(pp, &mr) == 0) ||
		    function_named(pp, &c->r, &fn) < 0)
			goto out;
		pp->late = 0;
		pp->locs[w->loc].func = fn;
		if (lines_ask(pp, sy, &c->r, w->loc) < 0)
			goto out;
	}
	r = 0;
out:
	pp->late = 0;
	pp->nkw = 0;
	return r;
}

int
pprof_settle(struct pprof *pp)
{
	return pd_klater_settle(&pp->kl);
}

/* The location of a sample that has no frame to name: address 0. */
static int
unknown_location(struct pprof *pp, uint32_t *id)
{
	struct tab_slot *sl;
	uint32_t name, fn, h;

	if (location_find(pp, 0, 0, &sl, &h, id) < 0)
		return -1;
	if (*id != 0)
		return 0;
	if (str(pp, "[unknown]", &name) < 0 ||
	    function_of(pp, name, name, 0, &fn) < 0 ||
	    location_add(pp, 0, 0, fn, sl, h, id) < 0)
		return -1;
	return 0;
}

/* The id of a label set, added when new. 0 or -1. */
static int
lset_of(struct pprof *pp, const struct lset *key, uint32_t *id)
{
	uint32_t h = (uint32_t)(tab_mix((uint64_t)key->ev << 32 ^ key->pid) ^
	    tab_mix((uint64_t)key->tid << 32 ^ key->cpu) ^
	    tab_mix((uint64_t)key->comm << 32 ^ key->host));
	struct tab_slot *sl;
	size_t k;

	if (tab_index_room(&pp->lsidx) < 0)
		return -1;
	for (k = tab_first(&pp->lsidx, h); (sl = &pp->lsidx.s[k])->id1 != 0;
	    k = tab_next(&pp->lsidx, k))
		if (sl->h == h && memcmp(&pp->lsets[sl->id1 - 1], key,
		    sizeof(*key)) == 0) {
			*id = sl->id1 - 1;
			return 0;
		}
	if (tab_grow(&pp->lsets, &pp->lsetcap, pp->nlsets,
	    sizeof(*pp->lsets)) < 0)
		return -1;
	pp->lsets[pp->nlsets] = *key;
	*id = (uint32_t)pp->nlsets++;
	tab_set(&pp->lsidx, k, *id, h);
	return 0;
}

/* The n ids as the packed field's varints, into pp->packed: the length. */
static size_t
pack_ids(struct pprof *pp, const uint32_t *ids, size_t n)
{
	unsigned char *p = pp->packed;
	uint32_t v;
	size_t i;

	for (i = 0; i < n; i++) {
		for (v = ids[i]; v >= 0x80; v >>= 7)
			*p++ = (unsigned char)(v | 0x80);
		*p++ = (unsigned char)v;
	}
	return (size_t)(p - pp->packed);
}

/* Counts the sample of set ls and stack (packed, len bytes) once more. */
static int
sample_add(struct pprof *pp, uint32_t ls, const unsigned char *stk,
    size_t len, uint64_t period)
{
	uint32_t h = (uint32_t)tab_hash(stk, len, ls);
	struct psample *s;
	struct tab_slot *sl;
	size_t k;

	if (tab_index_room(&pp->sampidx) < 0)
		return -1;
	for (k = tab_first(&pp->sampidx, h);
	    (sl = &pp->sampidx.s[k])->id1 != 0; k = tab_next(&pp->sampidx, k)) {
		if (sl->h != h)
			continue;
		s = &pp->samples[sl->id1 - 1];
		if (s->lset == ls && s->len == len &&
		    memcmp(pp->stk + s->off, stk, len) == 0) {
			s->count++;
			s->period += period;
			return 0;
		}
	}
	if (tab_grow(&pp->samples, &pp->sampcap, pp->nsamples,
	    sizeof(*pp->samples)) < 0)
		return -1;
	while (pp->nstk + len > pp->stkcap) {
		size_t nc = pp->stkcap ? pp->stkcap * 2 : 64 * 1024;
		unsigned char *np = realloc(pp->stk, nc);

		if (np == NULL)
			return -1;
		pp->stk = np;
		pp->stkcap = nc;
	}
	memcpy(pp->stk + pp->nstk, stk, len);
	s = &pp->samples[pp->nsamples];
	s->lset = ls;
	s->len = (uint32_t)len;
	s->off = pp->nstk;
	s->count = 1;
	s->period = period;
	pp->nstk += len;
	tab_set(&pp->sampidx, k, (uint32_t)pp->nsamples++, h);
	return 0;
}

int
pprof_sample(struct pprof *pp, struct pd_syms *sy, const struct pd_evsel *ev,
    const struct pd_sample *s, const struct pd_frame *frames, size_t n)
{
	struct lset key;
	const char *comm, *hn;
	char cbuf[16];
	uint32_t ls;
	size_t i;
	int wait = 0;

	memset(&key, 0, sizeof(key));
	if (ev->idx != pp->last_idx) {
		if (event_of(pp, ev, &pp->last_ev) < 0)
			return -1;
		pp->last_idx = ev->idx;
		/* A merged stream's sample is of its event's host. */
		if ((hn = pd_syms_host_name(sy, pd_syms_host(sy))) == NULL)
			pp->last_host = 0;
		else if (str(pp, hn, &pp->last_host) < 0)
			return -1;
	}
	key.ev = pp->last_ev;
	if (s->type & PERF_SAMPLE_TIME) {
		if (pp->tmin == 0 || s->time < pp->tmin)
			pp->tmin = s->time;
		if (s->time > pp->tmax)
			pp->tmax = s->time;
	}
	key.pid = s->type & PERF_SAMPLE_TID ? s->pid : NONE;
	key.tid = s->type & PERF_SAMPLE_TID ? s->tid : NONE;
	key.cpu = s->type & PERF_SAMPLE_CPU ? s->cpu : NONE;
	key.host = pp->last_host != 0 ? pp->last_host : pp->host;
	/*
	 * The comm the folded stacks begin with, by their rules; the
	 * pd_syms' strings stay put, so their addresses find their ids.
	 */
	if (!(s->type & PERF_SAMPLE_TID)) {
		/* No thread: no comm to say either (key.comm 0). */
	} else if ((comm = pd_syms_comm(sy, s->pid, s->tid)) != NULL) {
		struct cent *c = &pp->ccache[ptr_slot(comm, NULL, 0) &
		    (CCACHE - 1)];

		if (c->comm != comm) {
			if (str(pp, comm, &c->id) < 0)
				return -1;
			c->comm = comm;
		}
		key.comm = c->id;
	} else {
		snprintf(cbuf, sizeof(cbuf), s->tid == 0 ? "swapper" :
		    ":%" PRId32, (int32_t)s->tid);
		if (str(pp, cbuf, &key.comm) < 0)
			return -1;
	}
	if (n > MAX_FRAMES)
		n = MAX_FRAMES;
	for (i = 0; i < 2; i++)
		if (pp->view[i] == -1 && (pp->view[i] = pd_syms_view_new(sy)) < 0)
			pp->view[i] = -2;
	/* May its kernel frames' names wait? */
	for (i = 0; i < n; i++)
		if (frames[i].cpumode == PERF_RECORD_MISC_KERNEL) {
			if ((wait = pd_klater_ask(&pp->kl, sy)) < 0)
				return -1;
			break;
		}
	for (i = 0; i < n; i++) {
		const struct pd_frame *fr = &frames[i];
		struct pd_symc *c;
		int v = pp->view[i == 0];

		if (wait && fr->cpumode == PERF_RECORD_MISC_KERNEL) {
			if (location_of(pp, sy, s->pid, fr, NULL, i == 0,
			    &pp->ids[i]) < 0)
				return -1;
			continue;
		}
		c = pd_syms_lookup(sy, s->pid, fr->cpumode, fr->addr);
		if (v >= 0 && c->view[v] != 0) {
			pp->ids[i] = (uint32_t)c->view[v];
			continue;
		}
		if (location_of(pp, sy, s->pid, fr, &c->r, i == 0,
		    &pp->ids[i]) < 0)
			return -1;
		if (v >= 0)
			c->view[v] = pp->ids[i];
	}
	if (n == 0) {
		if (unknown_location(pp, &pp->ids[0]) < 0)
			return -1;
		if (frames != NULL)
			pp->unknown++;
		n = 1;
	}
	if (lset_of(pp, &key, &ls) < 0)
		return -1;
	return sample_add(pp, ls, pp->packed, pack_ids(pp, pp->ids, n),
	    s->type & PERF_SAMPLE_PERIOD ? s->period : ev->attr.sample_period);
}

int
pprof_input_end(struct pprof *pp, const struct pd_evlist *el)
{
	uint32_t idx;
	size_t i;

	int r = 0;

	/* The lookups read the input's files: all done before it goes. */
	if (lines_take(pp, 1) < 0)
		r = -1;
	pd_srcq_free(pp->srcq);
	pp->srcq = NULL;
	for (i = 0; i < el->n && r == 0; i++)
		if (event_of(pp, &el->evsels[i], &idx) < 0)
			r = -1;
	pp->last_idx = -1;
	forget(pp);
	return r;
}

uint64_t
pprof_unknown(const struct pprof *pp)
{
	return pp->unknown;
}

/* ----- writing ----- */

/*
 * A label: a string (strv), or a number (num) in a unit named as its
 * key: pprof drops a number label of 0 without a unit (pid and cpu 0).
 */
static void
label(struct pb *m, struct pb *l, uint32_t key, uint32_t strv, uint64_t num)
{
	pb_reset(l);
	pb_uint(l, 1, key);
	if (strv != 0)
		pb_uint(l, 2, strv);
	else {
		pb_uint(l, 3, num);
		pb_uint(l, 4, key);
	}
	pb_bytes(m, 3, l->p, l->n);
}

/*
 * The label sets' labels, serialized once into lab: set i's are
 * lab->p[at[i] .. at[i + 1]). 0 or -1 (memory).
 */
static int
write_labels(struct pprof *pp, struct pb *lab, struct pb *l, size_t *at)
{
	size_t i;

	for (i = 0; i < pp->nlsets; i++) {
		const struct lset *s = &pp->lsets[i];

		at[i] = lab->n;
		if (s->pid != NONE)
			label(lab, l, pp->k_pid, 0, s->pid);
		if (s->tid != NONE)
			label(lab, l, pp->k_tid, 0, s->tid);
		if (s->comm != 0)
			label(lab, l, pp->k_comm, s->comm, 0);
		if (s->cpu != NONE)
			label(lab, l, pp->k_cpu, 0, s->cpu);
		if (s->host != 0)
			label(lab, l, pp->k_host, s->host, 0);
	}
	at[i] = lab->n;
	return lab->oom || l->oom ? -1 : 0;
}

static int
write_samples(struct pprof *pp, struct pb_gz *g, struct pb *m, struct pb *l,
    uint64_t *vals)
{
	struct pb lab;
	size_t i, *at;
	int r = -1;

	memset(&lab, 0, sizeof(lab));
	if ((at = calloc(pp->nlsets + 1, sizeof(*at))) == NULL ||
	    write_labels(pp, &lab, l, at) < 0) {
		errno = ENOMEM;
		goto out;
	}
	for (i = 0; i < pp->nsamples; i++) {
		const struct psample *s = &pp->samples[i];
		uint32_t ev = pp->lsets[s->lset].ev;

		pb_reset(m);
		/* A packed field is length-delimited: the varints as kept. */
		pb_bytes(m, 1, pp->stk + s->off, s->len);
		memset(vals, 0, 2 * pp->nev * sizeof(*vals));
		vals[2 * pp->pos[ev]] = s->count;
		vals[2 * pp->pos[ev] + 1] = s->period;
		pb_packed(m, 2, vals, 2 * pp->nev);
		pb_raw(m, lab.p + at[s->lset], at[s->lset + 1] - at[s->lset]);
		if (pb_gz_field(g, 2, m) < 0)
			goto out;
	}
	r = 0;
out:
	free(at);
	pb_free(&lab);
	return r;
}

static int
write_tables(struct pprof *pp, struct pb_gz *g, struct pb *m, struct pb *l)
{
	size_t i, j = 0;

	for (i = 0; i < pp->nmaps; i++) {
		const struct mapping *mp = &pp->maps[i];

		pb_reset(m);
		pb_uint(m, 1, i + 1);
		pb_uint(m, 2, mp->start);
		pb_uint(m, 3, mp->limit);
		pb_uint(m, 4, mp->off);
		pb_uint(m, 5, mp->file);
		pb_uint(m, 6, mp->bid);
		pb_uint(m, 7, mp->symbols);
		pb_uint(m, 8, mp->lines);
		pb_uint(m, 9, mp->lines);
		pb_uint(m, 10, mp->inl);
		if (pb_gz_field(g, 3, m) < 0)
			return -1;
	}
	for (i = 0; i < pp->nlocs; i++) {
		const struct location *lc = &pp->locs[i];

		pb_reset(m);
		pb_uint(m, 1, i + 1);
		pb_uint(m, 2, lc->map);
		pb_uint(m, 3, lc->addr);
		for (; j < pp->nlines && pp->lines[j].loc == i; j++) {
			pb_reset(l);
			pb_uint(l, 1, pp->lines[j].func + 1);
			pb_uint(l, 2, pp->lines[j].line);
			pb_bytes(m, 4, l->p, l->n);
		}
		pb_reset(l);
		pb_uint(l, 1, lc->func + 1);
		pb_uint(l, 2, lc->line);
		pb_bytes(m, 4, l->p, l->n);
		if (pb_gz_field(g, 4, m) < 0)
			return -1;
	}
	for (i = 0; i < pp->nfuncs; i++) {
		pb_reset(m);
		pb_uint(m, 1, i + 1);
		pb_uint(m, 2, pp->funcs[i].name);
		pb_uint(m, 3, pp->funcs[i].sysname);
		pb_uint(m, 4, pp->funcs[i].file);
		if (pb_gz_field(g, 5, m) < 0)
			return -1;
	}
	for (i = 0; i < pp->strs.n; i++) {
		pb_reset(m);
		pb_bytes(m, 6, tab_strget(&pp->strs, i), pp->strs.len[i]);
		if (pb_gz_raw(g, m) < 0)
			return -1;
	}
	return 0;
}

static const uint64_t *sort_key;

static int
by_key(const void *a, const void *b)
{
	uint64_t x = sort_key[*(const uint32_t *)a];
	uint64_t y = sort_key[*(const uint32_t *)b];

	return x < y ? -1 : x > y;
}

/*
 * The n ids by their keys (key): new id -> old, or NULL when they are in
 * order already (no lines came late) or out of memory (*oom). Those
 * made in their turn are in order already: the late ones are sorted
 * and merged in.
 */
static uint32_t *
key_order(const uint64_t *key, size_t n, int *oom)
{
	uint32_t *ord, *late;
	size_t i, a = 0, b = 0, nl = 0, k = 0;

	*oom = 0;
	for (i = 0; i < n && !(key[i] & LATE); i++)
		;
	if (i == n)
		return NULL;
	if ((ord = malloc(n * sizeof(*ord))) == NULL ||
	    (late = malloc(n * sizeof(*late))) == NULL) {
		free(ord);
		*oom = 1;
		return NULL;
	}
	/* ord's front holds the others meanwhile: a only trails i. */
	for (i = 0; i < n; i++)
		if (key[i] & LATE)
			late[nl++] = (uint32_t)i;
		else
			ord[a++] = (uint32_t)i;
	sort_key = key;
	qsort(late, nl, sizeof(*late), by_key);
	/* Merged from the back, into the room the late ones leave. */
	k = n;
	b = nl;
	while (b > 0) {
		if (a > 0 && key[ord[a - 1]] > key[late[b - 1]])
			ord[--k] = ord[--a];
		else
			ord[--k] = late[--b];
	}
	free(late);
	return ord;
}

/* The strings and functions renumbered in their keys' order. 0 or -1. */
static int
renumber(struct pprof *pp)
{
	struct tab_strs nt;
	uint32_t *ord, *to = NULL, id;
	struct function *nf;
	size_t i;
	int oom;

	if ((ord = key_order(pp->skey, pp->strs.n, &oom)) != NULL) {
		memset(&nt, 0, sizeof(nt));
		if ((to = malloc(pp->strs.n * sizeof(*to))) == NULL)
			goto fail;
		for (i = 0; i < pp->strs.n; i++) {
			if (tab_str(&nt, tab_strget(&pp->strs, ord[i]),
			    pp->strs.len[ord[i]], &id) < 0) {
				tab_strs_free(&nt);
				goto fail;
			}
			to[ord[i]] = id;
		}
		tab_strs_free(&pp->strs);
		pp->strs = nt;
		for (i = 0; i < pp->nev; i++) {
			pp->ev[i].name = to[pp->ev[i].name];
			pp->ev[i].unit = to[pp->ev[i].unit];
		}
		for (i = 0; i < pp->nmaps; i++) {
			pp->maps[i].file = to[pp->maps[i].file];
			pp->maps[i].bid = to[pp->maps[i].bid];
		}
		for (i = 0; i < pp->nfuncs; i++) {
			pp->funcs[i].name = to[pp->funcs[i].name];
			pp->funcs[i].sysname = to[pp->funcs[i].sysname];
			pp->funcs[i].file = to[pp->funcs[i].file];
		}
		for (i = 0; i < pp->nlsets; i++) {
			pp->lsets[i].comm = to[pp->lsets[i].comm];
			pp->lsets[i].host = to[pp->lsets[i].host];
		}
		pp->host = to[pp->host];
		pp->k_pid = to[pp->k_pid];
		pp->k_tid = to[pp->k_tid];
		pp->k_cpu = to[pp->k_cpu];
		pp->k_comm = to[pp->k_comm];
		pp->k_host = to[pp->k_host];
		/* Keys mean nothing now: what comes is made in its turn. */
		for (i = 0; i < pp->strs.n; i++)
			pp->skey[i] = i;
		free(to);
		free(ord);
		to = NULL;
	} else if (oom)
		return -1;
	if ((ord = key_order(pp->fkey, pp->nfuncs, &oom)) != NULL) {
		if ((to = malloc(pp->nfuncs * sizeof(*to))) == NULL ||
		    (nf = malloc(pp->nfuncs * sizeof(*nf))) == NULL)
			goto fail;
		for (i = 0; i < pp->nfuncs; i++) {
			nf[i] = pp->funcs[ord[i]];
			to[ord[i]] = (uint32_t)i;
			pp->fkey[i] = i;
		}
		free(pp->funcs);
		pp->funcs = nf;
		pp->funccap = pp->nfuncs;
		for (i = 0; i < pp->nlocs; i++)
			pp->locs[i].func = to[pp->locs[i].func];
		for (i = 0; i < pp->nlines; i++)
			pp->lines[i].func = to[pp->lines[i].func];
		/* The index knows the old numbers: no function comes now. */
		free(pp->fidx.s);
		memset(&pp->fidx, 0, sizeof(pp->fidx));
		free(to);
		free(ord);
	} else if (oom)
		return -1;
	return 0;
fail:
	free(to);
	free(ord);
	return -1;
}

static const struct event *sort_ev;

static int
by_order(const void *a, const void *b)
{
	uint64_t x = sort_ev[*(const uint32_t *)a].order;
	uint64_t y = sort_ev[*(const uint32_t *)b].order;

	return x < y ? -1 : x > y;
}

/*
 * The profile's own fields: the sample types in the attrs' order, time,
 * period (the first event's). 0, or -1 with errno set.
 */
static int
write_head(struct pprof *pp, struct pb_gz *g, struct pb *m, struct pb *l)
{
	const struct event *e;
	uint32_t sid, cnt, *ord;
	size_t i;
	char name[300];

	if ((ord = calloc(pp->nev + 1, sizeof(*ord))) == NULL ||
	    str(pp, "count", &cnt) < 0) {
		free(ord);
		errno = ENOMEM;
		return -1;
	}
	for (i = 0; i < pp->nev; i++)
		ord[i] = (uint32_t)i;
	sort_ev = pp->ev;
	qsort(ord, pp->nev, sizeof(*ord), by_order);
	for (i = 0; i < pp->nev; i++) {
		e = &pp->ev[ord[i]];
		pp->pos[ord[i]] = (uint32_t)i;
		snprintf(name, sizeof(name), "%s_samples",
		    tab_strget(&pp->strs, e->name));
		if (str(pp, name, &sid) < 0) {
			free(ord);
			errno = ENOMEM;
			return -1;
		}
		pb_reset(m);
		pb_uint(m, 1, sid);
		pb_uint(m, 2, cnt);
		if (pb_gz_field(g, 1, m) < 0)
			goto fail;
		pb_reset(m);
		pb_uint(m, 1, e->name);
		pb_uint(m, 2, e->unit);
		if (pb_gz_field(g, 1, m) < 0)
			goto fail;
	}
	pb_reset(m);
	pb_uint(m, 9, pp->has_cd ? pp->cd.tod_ns + (pp->tmin -
	    pp->cd.clockid_ns) : pp->tmin);
	pb_uint(m, 10, pp->tmax - pp->tmin);
	if (pp->nev > 0) {
		e = &pp->ev[ord[0]];
		pb_reset(l);
		pb_uint(l, 1, e->name);
		pb_uint(l, 2, e->unit);
		pb_bytes(m, 11, l->p, l->n);
		pb_uint(m, 12, e->period);
		pb_uint(m, 14, e->name);
	}
	free(ord);
	return pb_gz_raw(g, m);
fail:
	free(ord);
	return -1;
}

int
pprof_write(struct pprof *pp, const char *path)
{
	struct pd_output out;
	struct pb m, l;
	struct pb_gz *g;
	uint64_t *vals;
	int r = -1;

	memset(&m, 0, sizeof(m));
	memset(&l, 0, sizeof(l));
	if (pd_output_open(&out, path) < 0)
		return -1;
	vals = calloc(2 * pp->nev + 1, sizeof(*vals));
	free(pp->pos);
	pp->pos = calloc(pp->nev + 1, sizeof(*pp->pos));
	if (vals == NULL || pp->pos == NULL ||
	    (g = pb_gz_open(out.fd)) == NULL) {
		errno = ENOMEM;
		goto fail;
	}
	/* The head first: it interns the sample types' names. */
	if ((r = renumber(pp)) < 0)
		errno = ENOMEM;
	if (r == 0)
		r = write_head(pp, g, &m, &l);
	if (r == 0)
		r = write_samples(pp, g, &m, &l, vals);
	if (r == 0)
		r = write_tables(pp, g, &m, &l);
	if (pb_gz_close(g) < 0)
		r = -1;
	if (r < 0)
		goto fail;
	free(vals);
	pb_free(&m);
	pb_free(&l);
	return pd_output_close(&out, 1);
fail:
	pd_warnx("%s: %s", out.name, strerror(errno));
	free(vals);
	pb_free(&m);
	pb_free(&l);
	pd_output_close(&out, 0);
	return -1;
}
