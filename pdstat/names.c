/* SPDX-License-Identifier: MIT */
#include "pdstat/names.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libcommon/stream/perf.h"
#include "libcommon/stream/record.h"
#include "libcommon/stream/sample.h"
#include "libcommon/stream/samplehead.h"
#include "libcommon/sym/symbols.h"
#include "libcommon/sym/symq.h"
#include "libcommon/sym/unwind.h"
#include "pdstat/flame.h"
#include "pdstat/gecko.h"
#include "pdstat/pprof.h"
#include "pdstat/top.h"

/* A sample's frames, as the stack views take them. */
#define MAX_FRAMES	1024

struct names {
	struct pd_syms	*sy;
	struct pd_unwind *uw;		/* dwarf stacks unwound, or NULL */
	struct pd_frame	 sfr[MAX_FRAMES];
	struct pd_symq	*sq;
	const struct pd_evlist *el;	/* the input's events */
	struct symtop	*top;
	struct flame	*fl;
	struct pprof	*pp;
	struct gecko	*gk;
	uint64_t	 bad;		/* samples that do not parse */
	uint64_t	 unparsed;	/* of them, counted as [unknown] */
	int		 oom;		/* a sample could not be counted */
	int		 notes;		/* names_note's progress */
	char		 note[160];
};

/*
 * A sample of ev whose body does not parse: the profiles count it in
 * an [unknown] frame with what its head says (pid and tid, time, cpu,
 * period: what pdstat's summary counts it by), nothing past the head.
 * A head cut short says nothing: no thread (-1), the event's period.
 */
static void
names_unparsed(struct names *nm, const struct pd_evsel *ev,
    const struct pd_rec *rec)
{
	struct pd_sample_head h;
	struct pd_sample s;
	const char *why;

	memset(&s, 0, sizeof(s));
	if (pd_sample_head(ev, rec, &h, &why) == 0) {
		s.type = h.type & (PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD);
		s.pid = h.pid;
		s.tid = h.tid;
		s.time = h.time;
		s.cpu = h.cpu;
		s.period = h.period;
	}
	if (!(s.type & PERF_SAMPLE_TID))
		s.pid = s.tid = UINT32_MAX;
	nm->unparsed++;
	if (nm->pp != NULL && pprof_sample(nm->pp, nm->sy, ev, &s, NULL,
	    0) < 0)
		nm->oom = 1;
	if (nm->gk != NULL && gecko_sample(nm->gk, nm->sy, ev, &s, NULL,
	    0) < 0)
		nm->oom = 1;
}

/* A sample come due, with the maps of its time (pd_symq_fn). */
static void
names_sample(void *ctx, const struct pd_evsel *ev, const struct pd_rec *rec,
    const struct pd_sample *s)
{
	struct names *nm = ctx;
	size_t n = 0;

	if (s == NULL) {
		nm->bad++;
		if (ev != NULL)
			names_unparsed(nm, ev, rec);
		return;
	}

	/*
	 * --top names what its keys need: the ip, and with --children
	 * every frame; no more (the files only callchains pass through
	 * are not read, nor said to be unreadable).
	 */
	if (nm->top != NULL && symtop_sample(nm->top, nm->sy, nm->uw, ev, rec,
	    s) < 0)
		nm->oom = 1;
	if (nm->fl == NULL && nm->pp == NULL && nm->gk == NULL)
		return;
	/* The stack views: a --call-graph dwarf sample's user stack unwound. */
	if (nm->uw != NULL)
		n = pd_unwind_frames(nm->uw, s, rec->misc, nm->sfr, MAX_FRAMES);
	else
		n = pd_sample_frames(s, rec->misc, nm->sfr, MAX_FRAMES);
	if (nm->fl != NULL && flame_sample(nm->fl, nm->sy, ev, s, nm->sfr,
	    n) < 0)
		nm->oom = 1;
	if (nm->pp != NULL && pprof_sample(nm->pp, nm->sy, ev, s, nm->sfr,
	    n) < 0)
		nm->oom = 1;
	if (nm->gk != NULL && gecko_sample(nm->gk, nm->sy, ev, s, nm->sfr,
	    n) < 0)
		nm->oom = 1;
}

struct names *
names_open(const struct pd_syms_opts *so, const struct pd_evlist *el,
    struct symtop *top, struct flame *fl, struct pprof *pp,
    struct gecko *gk, int unwind)
{
	struct pd_syms_opts o = *so;
	struct names *nm;

	if ((nm = calloc(1, sizeof(*nm))) == NULL)
		return NULL;
	/* The stack views name every frame: they need the files. */
	if (fl != NULL || pp != NULL || gk != NULL)
		o.dso_only = 0;
	if ((nm->sy = pd_syms_new(&o)) == NULL ||
	    (nm->sq = pd_symq_new(nm->sy, el)) == NULL) {
		names_close(nm);
		return NULL;
	}
	if (pd_symq_set_sample_fn(nm->sq, names_sample, nm) < 0) {
		names_close(nm);
		return NULL;
	}
	/* Every view that shows stacks unwinds them: --top's too. */
	if (unwind && (fl != NULL || pp != NULL || gk != NULL ||
	    (top != NULL && symtop_stacks(top))) &&
	    (nm->uw = pd_unwind_new(nm->sy)) == NULL) {
		names_close(nm);
		return NULL;
	}
	nm->el = el;
	nm->top = top;
	nm->fl = fl;
	nm->pp = pp;
	nm->gk = gk;
	if (fl != NULL)
		flame_input(fl, el);
	if (gk != NULL)
		gecko_input(gk);
	if (pp != NULL && pprof_input(pp, el) < 0) {
		names_close(nm);
		return NULL;
	}
	return nm;
}

int
names_record(struct names *nm, const struct pd_rec *rec,
    const struct pd_evsel *ev, uint64_t time)
{
	/* What COMPRESSED records hold comes next; they name nothing. */
	if (rec->type == PD_RECORD_COMPRESSED ||
	    rec->type == PD_RECORD_COMPRESSED2)
		return 0;
	/* The unwinder's header facts (arch, host), in stream order. */
	if (nm->uw != NULL)
		pd_unwind_record(nm->uw, rec);
	if (nm->pp != NULL)
		pprof_record(nm->pp, rec);
	if (nm->gk != NULL)
		gecko_record(nm->gk, rec);
	/* It hands nothing back: samples go to names_sample. */
	if (pd_symq_push_at(nm->sq, rec, ev, time) < 0)
		return -1;
	return nm->oom ? -1 : 0;
}

int
names_end(struct names *nm)
{
	int r;

	pd_symq_flush(nm->sq);
	r = nm->oom ? -1 : 0;
	if (nm->fl != NULL && flame_settle(nm->fl) < 0)
		r = -1;
	if (nm->top != NULL && symtop_settle(nm->top) < 0)
		r = -1;
	if (nm->pp != NULL && pprof_settle(nm->pp) < 0)
		r = -1;
	if (nm->gk != NULL && gecko_settle(nm->gk) < 0)
		r = -1;
	pd_syms_end(nm->sy, nm->el);
	return r;
}

const char *
names_note(struct names *nm)
{
	const char *note;
	unsigned long n;
	uint64_t counted;

	if (nm->notes == 0 && (note = pd_syms_next_note(nm->sy)) != NULL)
		return note;
	if (nm->fl == NULL && nm->pp == NULL && nm->gk == NULL) {
		/* --top alone: only what its unwinding has to say. */
		if (nm->uw == NULL)
			return NULL;
		if (nm->notes < 2)
			nm->notes = 2;
	}
	if (nm->notes == 0) {
		nm->notes = 1;
		if ((n = pd_symq_bad(nm->sq)) > 0) {
			snprintf(nm->note, sizeof(nm->note), "%lu process or "
			    "map record%s not usable for symbols", n,
			    n > 1 ? "s were" : " was");
			return nm->note;
		}
	}
	/* Those of a known event are in the profiles, as [unknown]. */
	counted = nm->pp != NULL || nm->gk != NULL ? nm->unparsed : 0;
	if (nm->notes == 1) {
		nm->notes = 2;
		if (counted > 0) {
			snprintf(nm->note, sizeof(nm->note), "%" PRIu64
			    " sample%s of no known layout counted as [unknown] "
			    "in the profile%s", counted, counted > 1 ? "s" : "",
			    nm->fl != NULL ? ", left out of the flame graph" :
			    "");
			return nm->note;
		}
	}
	if (nm->notes == 2) {
		nm->notes = 3;
		if (nm->bad > counted) {
			snprintf(nm->note, sizeof(nm->note), "%" PRIu64
			    " sample%s of no known layout left out of the "
			    "%s", nm->bad - counted, nm->bad - counted > 1 ?
			    "s" : "", nm->pp == NULL && nm->gk == NULL ?
			    "flame graph" : nm->fl != NULL ?
			    "profile and the flame graph" : "profile");
			return nm->note;
		}
	}
	if (nm->notes == 3) {
		uint64_t tried, failed;

		nm->notes = 4;
		if (nm->uw != NULL &&
		    (pd_unwind_counts(nm->uw, &tried, &failed), failed > 0)) {
			snprintf(nm->note, sizeof(nm->note), "%" PRIu64 " of %"
			    PRIu64 " user stacks (--call-graph dwarf) could not "
			    "be unwound past their first frame (no file or "
			    "CFI for it, or another architecture)", failed,
			    tried);
			return nm->note;
		}
	}
	return NULL;
}

void
names_close(struct names *nm)
{
	if (nm == NULL)
		return;
	pd_symq_free(nm->sq);
	pd_unwind_free(nm->uw);
	/* The fold remembers names by address: it forgets them first. */
	if (nm->fl != NULL)
		flame_forget(nm->fl);
	if (nm->gk != NULL)
		gecko_input_end(nm->gk);
	pd_syms_free(nm->sy);
	free(nm);
}
