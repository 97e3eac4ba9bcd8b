/* SPDX-License-Identifier: MIT */
/*
 * A sample's line without the decode visitor. Most events sample only
 * head fields and a callchain (pd_dhead_only), and then every sample of
 * an event has the same text between its numbers: the names, the "="
 * or JSON's quotes, the "-" or null of a field the event does not
 * sample, the event's name escaped. That text is laid out once per
 * event, as runs with a number's place after each; a sample is then
 * its numbers. A visitor's call per field, its tests and the event
 * name's escaping were most of pddump's time.
 *
 * The runs are made by print.c's own output calls in the buffer's free
 * end, in pd_dhead's order, so the line is byte for byte the visitor's
 * (tests/cli/pddump/evline.sh compares the two on every capture).
 */
#include <stdlib.h>
#include <string.h>

#include "libcommon/stream/decode.h"
#include "libcommon/stream/evlist.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/record.h"
#include "pddump/out.h"
#include "pddump/pddump.h"

/*
 * The most text a line's runs may hold: the name escaped (JSON's \u00XX
 * is 6 bytes a byte; text's chunks ask for PD_ESC_ROOM(64) beyond),
 * every head field's key and null, the callchain's key. A longer name
 * takes the visitor.
 */
#define EVLINE_NAME	200
#define EVLINE_TEXT	(6 * EVLINE_NAME + 1024)
#define RUN_COPY	32	/* a run this short is copied whole */

struct evline {
	int		 ok;		/* 0: the visitor prints them */
	unsigned	 nvals;
	struct {
		uint16_t	 end;	/* the run before it ends here */
		uint8_t		 field;	/* pd_dhead's index */
		uint8_t		 fmt;	/* PD_D_U, PD_D_S or PD_D_X */
	}		 val[PD_DHEAD_N];
	int		 callchain;	/* sampled: its addresses follow */
	int		 tid;		/* pid and tid sampled (-s: comm) */
	uint16_t	 head_end;	/* the head's text ends here, */
	uint16_t	 cc_end;	/* the run before the addresses here */
	uint16_t	 len;		/* all runs */
	char		 text[];
};

struct evlines {
	unsigned	 gen;		/* the evlist's, when made */
	struct evline	**v;		/* by event index; NULL: not yet */
	size_t		 n;
};

void
evline_free(struct dumper *d)
{
	size_t i;

	if (d->lines == NULL)
		return;
	for (i = 0; i < d->lines->n; i++)
		free(d->lines->v[i]);
	free(d->lines->v);
	free(d->lines);
	d->lines = NULL;
}

/* A field's name as the visitor begins it: " name=" or ,"name": */
static void
put_key(const struct dumper *d, const char *name, size_t len)
{
	if (d->json) {
		OUT_S(",\"");
		out_lit(name, len);
		OUT_S("\":");
	} else {
		out_ch(' ');
		out_lit(name, len);
		out_ch('=');
	}
}

/*
 * ev's line, made where the output buffer is free and copied out (the
 * buffer is left as it was). NULL only when out of memory.
 */
static struct evline *
make(const struct dumper *d, const struct pd_evsel *ev)
{
	const char *name = pd_evsel_name(ev);
	size_t namelen = strlen(name), base, i;
	uint64_t st = ev->attr.sample_type;
	struct evline *l, tmp;

	memset(&tmp, 0, sizeof(tmp));
	if (!pd_dhead_only(ev) || namelen > EVLINE_NAME) {
		if ((l = malloc(sizeof(*l))) != NULL)
			*l = tmp;
		return l;
	}
	tmp.ok = 1;
	/* Everything below fits without a flush: base stays put. */
	out_room(EVLINE_TEXT);
	base = out_len;
	put_key(d, "event", 5);
	if (d->json)
		out_json_str(name, namelen);
	else
		out_text_str(name, namelen);
	for (i = 0; i < PD_DHEAD_N; i++) {
		const struct pd_dhead *f = &pd_dhead[i];

		if (f->how != PD_DH_ALWAYS && !(st & f->bits)) {
			if (f->how == PD_DH_NONE) {
				put_key(d, f->name, f->namelen);
				if (d->json)
					OUT_S("null");
				else
					out_ch('-');
			}
			continue;
		}
		put_key(d, f->name, f->namelen);
		if (d->json && f->fmt == PD_D_X)
			out_ch('"');
		tmp.val[tmp.nvals].end = out_len - base;
		tmp.val[tmp.nvals].field = i;
		tmp.val[tmp.nvals++].fmt = f->fmt;
		if (d->json && f->fmt == PD_D_X)
			out_ch('"');
	}
	tmp.head_end = out_len - base;
	tmp.tid = (st & PERF_SAMPLE_TID) != 0;
	if (st & PERF_SAMPLE_CALLCHAIN) {
		if (d->json)
			OUT_S(",\"callchain\":[");
		else
			OUT_S("\n  callchain:");
		tmp.callchain = 1;
	} else if (d->json)
		OUT_S(",\"callchain\":null");	/* text: no line */
	tmp.cc_end = out_len - base;
	if (tmp.callchain && d->json)
		out_ch(']');
	tmp.len = out_len - base;
	/* Padded: put_run copies a short run as RUN_COPY bytes. */
	if ((l = calloc(1, sizeof(*l) + tmp.len + RUN_COPY)) != NULL) {
		*l = tmp;
		memcpy(l->text, out_buf + base, tmp.len);
	}
	out_len = base;
	return l;
}

/* ev's line, made on its first sample since the events last changed. */
static const struct evline *
line_of(struct dumper *d, const struct pd_evsel *ev)
{
	struct evlines *ls = d->lines;
	size_t idx = (size_t)ev->idx;

	if (ls != NULL && ls->gen != d->el->gen) {
		evline_free(d);
		ls = NULL;
	}
	if (ls == NULL) {
		if ((ls = calloc(1, sizeof(*ls))) == NULL)
			return NULL;
		ls->gen = d->el->gen;
		d->lines = ls;
	}
	if (idx >= ls->n) {
		size_t n = d->el->n > idx ? d->el->n : idx + 1;
		struct evline **v = realloc(ls->v, n * sizeof(*v));

		if (v == NULL)
			return NULL;
		memset(v + ls->n, 0, (n - ls->n) * sizeof(*v));
		ls->v = v;
		ls->n = n;
	}
	if (ls->v[idx] == NULL)
		ls->v[idx] = make(d, ev);
	return ls->v[idx];
}

/*
 * Run [from, to) of l's text, with room made. A short one is copied as
 * 32 bytes, from text padded for it, into room the caller made, and
 * only its length counted: a memcpy call of a few bytes cost more.
 */
static inline void
put_run(const struct evline *l, size_t from, size_t to)
{
	if (to - from <= RUN_COPY) {
		memcpy(out_buf + out_len, l->text + from, RUN_COPY);
		out_len += to - from;
	} else
		out_mem(l->text + from, to - from);
}

int
evline_sample(struct dumper *d, const struct pd_rec *rec)
{
	const struct pd_evsel *ev;
	const struct evline *l;
	struct pd_dhead_vals s;
	const char *why;
	size_t at = 0;
	uint64_t i, v;

	if ((ev = pd_evlist_for_rec(d->el, rec)) == NULL ||
	    (l = line_of(d, ev)) == NULL || !l->ok ||
	    pd_dhead_read(ev, rec, &s, &why) < 0)
		return 0;	/* the visitor says what is wrong */
	/* Each run's copy and number, and the last run, fit. */
	out_room(l->len + (RUN_COPY + 21) * (l->nvals + 2));
	for (i = 0; i < l->nvals; i++) {
		put_run(l, at, l->val[i].end);
		at = l->val[i].end;
		v = s.v[l->val[i].field];
		if (l->val[i].fmt == PD_D_U)
			out_u64_nc(v);
		else if (l->val[i].fmt == PD_D_X)
			out_x64_nc(v);
		else
			out_s64_nc((int64_t)v);
	}
	if (d->sy != NULL) {
		/* -s: comm, symbol and named frames where the chain was */
		put_run(l, at, l->head_end);
		print_sample_syms(d, l->tid, l->callchain);
		return 1;
	}
	put_run(l, at, l->cc_end);
	for (i = 0; l->callchain && i < s.callchain_nr; i++) {
		out_room(21);
		if (!d->json)
			out_buf[out_len++] = ' ';
		else if (i > 0)
			out_buf[out_len++] = ',';
		if (d->json)
			out_buf[out_len++] = '"';
		out_x64_nc(pd_get_u64(s.callchain + 8 * i));
		if (d->json)
			out_buf[out_len++] = '"';
	}
	out_room(RUN_COPY + l->len - l->cc_end);
	put_run(l, l->cc_end, l->len);
	return 1;
}
