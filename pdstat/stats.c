/* SPDX-License-Identifier: MIT */
/*
 * pdstat's counts of one input. A SAMPLE is read from its head by the
 * event's layout (samplehead.h), so a stream of millions of samples is
 * summed without walking callchains and stacks, or even the fields it
 * does not need.
 */
#include "pdstat/stats.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libcommon/stream/event.h"
#include "libcommon/stream/evlist.h"
#include "libcommon/stream/feature.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/reader.h"
#include "libcommon/stream/record.h"
#include "libcommon/stream/sample.h"
#include "libcommon/stream/samplehead.h"
#include "libcommon/stream/threads.h"

/* A type past TYPES_MAX: in the short list. */
static void
type_add_high(struct typetab *t, uint32_t type, uint64_t bytes)
{
	unsigned i;

	for (i = 0; i < t->nhigh && t->htype[i] != type; i++)
		;
	if (i == t->nhigh) {
		if (t->nhigh < HIGH_MAX)
			t->nhigh++;
		i = t->nhigh - 1;	/* the last slot is shared when full */
		if (t->hcount[i] == 0)
			t->htype[i] = type;
	}
	t->hcount[i]++;
	t->hbytes[i] += bytes;
}

static inline void
type_add(struct typetab *t, uint32_t type, uint64_t bytes)
{
	if (type >= TYPES_MAX) {
		type_add_high(t, type, bytes);
		return;
	}
	t->count[type]++;
	t->bytes[type] += bytes;
}

uint64_t
typetab_total(const struct typetab *t, uint64_t *bytes)
{
	uint64_t n = 0, b = 0;
	unsigned i;

	for (i = 0; i < TYPES_MAX; i++) {
		n += t->count[i];
		b += t->bytes[i];
	}
	for (i = 0; i < t->nhigh; i++) {
		n += t->hcount[i];
		b += t->hbytes[i];
	}
	*bytes = b;
	return n;
}

int
stats_open(struct stats *st, struct pd_reader *rd)
{
	memset(st, 0, sizeof(*st));
	st->input = pd_reader_name(rd);
	st->file_mode = pd_reader_is_file(rd);
	st->swapped = pd_reader_swapped(rd);
	st->stream_bytes = PD_PIPE_HDR_SIZE;
	return (st->thr = pd_threads_new()) != NULL ? 0 : -1;
}

void
stats_close(struct stats *st)
{
	free(st->ev);
	free(st->cpu);
	pd_threads_free(st->thr);
}

static int
grow_events(struct stats *st, size_t n)
{
	struct evstat *e;

	if (n <= st->nev)
		return 0;
	if ((e = realloc(st->ev, n * sizeof(*e))) == NULL)
		return -1;
	memset(e + st->nev, 0, (n - st->nev) * sizeof(*e));
	st->ev = e;
	st->nev = n;
	return 0;
}

static void
note_time(struct stats *st, uint64_t t)
{
	/* perf-synthesized records carry 0 (or all ones): no time. */
	if (t - 1 >= UINT64_MAX - 1)
		return;
	/* Mostly later than all before; tmin is 0 only before the first. */
	if (t > st->tmax) {
		st->tmax = t;
		if (st->tmin == 0)
			st->tmin = t;
	} else if (t < st->tmin)
		st->tmin = t;
}

/* A sample's cpu. 0, or -1 when out of memory. */
static int
count_cpu(struct stats *st, uint32_t cpu)
{
	size_t n;
	uint64_t *c;

	st->have_cpu = 1;
	if (cpu >= CPUS_MAX) {
		st->cpu_other++;
		return 0;
	}
	if (cpu >= st->ncpu) {
		n = cpu + 1 > 64 ? cpu + 1 : 64;
		if ((c = realloc(st->cpu, n * sizeof(*c))) == NULL)
			return -1;
		memset(c + st->ncpu, 0, (n - st->ncpu) * sizeof(*c));
		st->cpu = c;
		st->ncpu = n;
	}
	st->cpu[cpu]++;
	return 0;
}

/*
 * A SAMPLE: its event, period, cpu, time and thread. A sample too
 * short for its head is bad data.
 */
static int
do_sample(struct stats *st, struct pd_evlist *el, const struct pd_rec *rec,
    struct pd_evsel **evp, uint64_t *timep, const char **why)
{
	struct pd_evsel *ev = *evp = pd_evlist_for_rec(el, rec);
	const struct pd_sample_layout *l;
	struct evstat *e;
	uint64_t time = 0;

	st->samples++;
	if (ev == NULL) {
		st->unknown_id++;
		return 0;
	}
	if ((size_t)ev->idx >= st->nev &&
	    grow_events(st, pd_evlist_count(el)) < 0)
		goto nomem;
	e = &st->ev[ev->idx];
	e->samples++;
	l = &ev->head;
	if (pd_sample_head_check(l, rec, why) < 0)
		return -1;
	e->period += l->period != PD_HEAD_NONE ?
	    pd_head_u64(rec, l->period) : ev->attr.sample_period;
	if (l->time != PD_HEAD_NONE)
		note_time(st, *timep = time = pd_head_u64(rec, l->time));
	if (l->cpu != PD_HEAD_NONE &&
	    count_cpu(st, pd_head_u32(rec, l->cpu, 0)) < 0)
		goto nomem;
	if (l->tid != PD_HEAD_NONE) {
		st->have_tid = 1;
		if (pd_threads_sample(st->thr, pd_head_u32(rec, l->tid, 0),
		    pd_head_u32(rec, l->tid, 4), time) < 0)
			goto nomem;
	}
	return 0;
nomem:
	*why = "out of memory";
	return -1;
}

/* Everything but the sample itself. 0, or -1 when out of memory. */
/*
 * A HOSTNAME: a merge of several hosts' streams (pdsort) carries each
 * input's, and the header lists them all; hi keeps the last, as perf.
 */
static void
host_seen(struct stats *st, const struct pd_rec *rec)
{
	const char *h = st->hi.hostname;
	unsigned i;

	if (pd_header_info_update(&st->hi, rec) < 0 || h[0] == '\0')
		return;
	for (i = 0; i < st->nhosts && i < STATS_HOSTS; i++)
		if (strncmp(st->hosts[i], h, sizeof(st->hosts[i]) - 1) == 0)
			return;
	if (st->nhosts < STATS_HOSTS)
		snprintf(st->hosts[st->nhosts], sizeof(st->hosts[0]), "%s", h);
	st->nhosts++;
}

static int
do_record(struct stats *st, struct pd_evlist *el, const struct pd_rec *rec,
    struct pd_evsel **evp, uint64_t *timep)
{
	struct pd_record_lost lost;
	struct pd_record_lost_samples lost_samples;
	struct pd_evsel *ev;
	uint64_t n, t = 0;

	switch (rec->type) {
	case PERF_RECORD_LOST:
		if (pd_record_lost_parse(rec, &lost) < 0)
			break;
		n = lost.lost;
		st->lost += n;
		ev = pd_evlist_by_id(el, lost.id);
		if (ev == NULL)
			ev = pd_evlist_for_rec(el, rec);
		if (ev != NULL && grow_events(st, pd_evlist_count(el)) == 0)
			st->ev[ev->idx].lost += n;
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (pd_record_lost_samples_parse(rec, &lost_samples) < 0)
			break;
		n = lost_samples.lost;
		st->lost_samples += n;
		ev = pd_evlist_for_rec(el, rec);
		if (ev != NULL && grow_events(st, pd_evlist_count(el)) == 0)
			st->ev[ev->idx].lost += n;
		break;
	case PD_RECORD_HEADER_FEATURE:
		/* A malformed fact is left out; it is not the data. */
		if (pd_feat_id(rec) == PD_FEAT_HOSTNAME)
			host_seen(st, rec);
		else
			(void)pd_header_info_update(&st->hi, rec);
		break;
	case PD_RECORD_FINISHED_ROUND:
		return pd_threads_record(st->thr, rec, 0);
	}
	if (!pd_rec_is_kernel(rec->type))
		return 0;
	if (pd_evlist_count(el) > 0 &&
	    (*evp = ev = pd_evlist_for_rec(el, rec)) != NULL)
		note_time(st, *timep = t = pd_sample_rec_time(ev, rec));
	return pd_threads_record(st->thr, rec, t);
}

/* Where a record that is not plainly of the stream is counted. */
static void
count_flagged(struct stats *st, const struct pd_rec *rec)
{
	if (rec->flags & PD_REC_SYNTHESIZED) {
		type_add(&st->synth, rec->type, rec->size);
	} else {
		type_add(&st->recs, rec->type, rec->size);
		if (rec->flags & PD_REC_DECOMPRESSED) {
			st->inner_count++;
			st->inner_bytes += rec->size;
		}
	}
	if (!(rec->flags & PD_REC_DECOMPRESSED)) {
		st->stream_bytes += rec->size + rec->payload;
		st->payload_bytes += rec->payload;
		if (rec_is_compressed(rec->type)) {
			st->zcount++;
			st->zbytes += rec->size;
		}
	}
}

/*
 * One record, in stream order, and the event and time it was counted
 * by (NULL, 0: none). 0, or -1 with *why set.
 */
static inline int
stats_record(struct stats *st, struct pd_evlist *el, const struct pd_rec *rec,
    struct pd_evsel **ev, uint64_t *time, const char **why)
{
	*ev = NULL;
	*time = 0;
	if (rec->flags == 0) {
		type_add(&st->recs, rec->type, rec->size);
		st->stream_bytes += rec->size + rec->payload;
		st->payload_bytes += rec->payload;
		if (rec_is_compressed(rec->type)) {
			st->zcount++;
			st->zbytes += rec->size;
		}
	} else
		count_flagged(st, rec);
	if (rec->type == PERF_RECORD_SAMPLE)
		return do_sample(st, el, rec, ev, time, why);
	if (do_record(st, el, rec, ev, time) < 0) {
		*why = "out of memory";
		return -1;
	}
	return 0;
}

int
stats_scan(struct stats *st, struct pd_reader *rd, stats_each_fn each,
    void *ctx)
{
	struct pd_evlist *el = pd_reader_evlist(rd);
	const struct pd_err *e;
	struct pd_evsel *ev;
	const char *why;
	struct pd_rec rec;
	uint64_t time;
	int r;

	while ((r = pd_reader_next(rd, &rec)) > 0) {
		if (stats_record(st, el, &rec, &ev, &time, &why) < 0)
			goto bad;
		if (each == NULL)
			continue;
		if ((r = each(ctx, rd, &rec, ev, time, &why)) == -1)
			goto bad;
		if (r < -2)
			break;
		if (r < 0)
			return r;
	}
	if (pd_threads_end(st->thr) < 0 && r == 0) {
		snprintf(st->error, sizeof(st->error), "out of memory");
		return -1;
	}
	if (r == 0) {
		st->complete = 1;
		return 0;
	}
	e = pd_reader_err(rd);
	if (e->has_offset)
		snprintf(st->error, sizeof(st->error), "offset 0x%" PRIx64
		    ": %s", e->offset, e->msg);
	else
		snprintf(st->error, sizeof(st->error), "%s", e->msg);
	return -1;
bad:
	(void)pd_threads_end(st->thr);
	snprintf(st->error, sizeof(st->error), "offset 0x%" PRIx64 ": %s%s",
	    rec.offset, rec.type == PERF_RECORD_SAMPLE ? "SAMPLE: " : "", why);
	return -1;
}
