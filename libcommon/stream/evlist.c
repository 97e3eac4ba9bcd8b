/* SPDX-License-Identifier: MIT */
#include "libcommon/stream/evlist.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libcommon/stream/evname.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/pids.h"
#include "libcommon/stream/record.h"
#include "libcommon/stream/sample.h"
#include "libcommon/stream/tracefmt.h"

void
pd_evlist_init(struct pd_evlist *el)
{
	memset(el, 0, sizeof(*el));
}

void
pd_evlist_free(struct pd_evlist *el)
{
	size_t i;

	for (i = 0; i < el->n; i++) {
		free(el->evsels[i].raw);
		free(el->evsels[i].name);
		free(el->evsels[i].tp_name);
		free(el->evsels[i].ids);
	}
	free(el->evsels);
	pd_idmap_free(&el->idmap);
	memset(el, 0, sizeof(*el));
}

/* Reads a field only if the stored attr is long enough to hold it. */
static uint64_t
field(const unsigned char *p, size_t len, size_t off, size_t width)
{
	if (off + width > len)
		return 0;
	switch (width) {
	case 2:
		return pd_get_u16(p + off);
	case 4:
		return pd_get_u32(p + off);
	default:
		return pd_get_u64(p + off);
	}
}

int
pd_attr_parse(struct pd_attr *a, const void *vp, size_t len, const char **why)
{
	const unsigned char *p = vp;

	memset(a, 0, sizeof(*a));
	if (len < PD_ATTR_SIZE_VER0) {
		*why = "attr shorter than 64 bytes";
		return -1;
	}
	a->type = field(p, len, PD_ATTR_OFF_TYPE, 4);
	a->size = field(p, len, PD_ATTR_OFF_SIZE, 4);
	if (a->size == 0)
		a->size = PD_ATTR_SIZE_VER0;
	a->config = field(p, len, 8, 8);
	a->sample_period = field(p, len, 16, 8);
	a->sample_type = field(p, len, 24, 8);
	a->read_format = field(p, len, 32, 8);
	a->flags = field(p, len, 40, 8);
	a->wakeup_events = field(p, len, 48, 4);
	a->bp_type = field(p, len, 52, 4);
	a->config1 = field(p, len, 56, 8);
	a->config2 = field(p, len, 64, 8);
	a->branch_sample_type = field(p, len, 72, 8);
	a->sample_regs_user = field(p, len, 80, 8);
	a->sample_stack_user = field(p, len, 88, 4);
	a->clockid = (int32_t)field(p, len, 92, 4);
	a->sample_regs_intr = field(p, len, 96, 8);
	a->aux_watermark = field(p, len, 104, 4);
	a->sample_max_stack = field(p, len, 108, 2);
	a->aux_sample_size = field(p, len, 112, 4);
	a->aux_action = field(p, len, 116, 4);
	a->sig_data = field(p, len, 120, 8);
	a->config3 = field(p, len, 128, 8);
	return 0;
}

void
pd_attr_default_name(const struct pd_attr *a, char *buf, size_t len)
{
	const char *name = pd_event_name(a->type, a->config);

	if (name != NULL) {
		snprintf(buf, len, "%s", name);
		return;
	}
	switch (a->type) {
	case PERF_TYPE_TRACEPOINT:
		snprintf(buf, len, "tracepoint:%" PRIu64, a->config);
		return;
	case PERF_TYPE_RAW:
		snprintf(buf, len, "r%" PRIx64, a->config);
		return;
	case PERF_TYPE_BREAKPOINT:
		snprintf(buf, len, "mem:0x%" PRIx64, a->config1);
		return;
	}
	snprintf(buf, len, "type%" PRIu32 "/config=0x%" PRIx64 "/", a->type,
	    a->config);
}

/* perf's evsel__calc_id_pos. */
static void
calc_positions(struct pd_evsel *ev)
{
	uint64_t st = ev->attr.sample_type;
	int n;

	if (st & PERF_SAMPLE_IDENTIFIER) {
		ev->id_pos = 0;
		ev->is_pos = 1;
	} else if (st & PERF_SAMPLE_ID) {
		n = 0;
		n += !!(st & PERF_SAMPLE_IP);
		n += !!(st & PERF_SAMPLE_TID);
		n += !!(st & PERF_SAMPLE_TIME);
		n += !!(st & PERF_SAMPLE_ADDR);
		ev->id_pos = n;
		ev->is_pos = 1 + !!(st & PERF_SAMPLE_CPU) +
		    !!(st & PERF_SAMPLE_STREAM_ID);
	} else {
		ev->id_pos = -1;
		ev->is_pos = -1;
	}
	pd_sample_id_layout(st, &ev->trailer);
	ev->id_hdr_size = ev->attr.flags & PD_ATTR_SAMPLE_ID_ALL ?
	    ev->trailer.size : 0;
}

int
pd_evlist_add_ids(struct pd_evlist *el, int idx, const uint64_t *ids,
    size_t nids)
{
	struct pd_evsel *ev = &el->evsels[idx];
	uint64_t *n;
	size_t i;

	if (nids == 0)
		return 0;
	n = realloc(ev->ids, (ev->nids + nids) * sizeof(*n));
	if (n == NULL)
		return -1;
	ev->ids = n;
	for (i = 0; i < nids; i++) {
		ev->ids[ev->nids++] = ids[i];
		/* A later binding of the same id wins, as in perf. */
		if (pd_idmap_put(&el->idmap, ids[i], idx) < 0)
			return -1;
	}
	el->gen++;
	return 0;
}

int
pd_evlist_set_name(struct pd_evlist *el, int idx, const char *name,
    size_t len)
{
	char *s = strndup(name, len);

	if (s == NULL)
		return -1;
	free(el->evsels[idx].name);
	el->evsels[idx].name = s;
	el->evsels[idx].named = 1;
	el->gen++;
	return 0;
}

/* A tracepoint's "system:name", when the tracing data describe it. */
static int
tp_name(const struct pd_evlist *el, struct pd_evsel *ev)
{
	const struct pd_tf_event *te;
	char buf[256];

	free(ev->tp_name);
	ev->tp_name = NULL;
	if (ev->attr.type != PERF_TYPE_TRACEPOINT || el->tf == NULL ||
	    ev->attr.config > UINT32_MAX ||
	    (te = pd_tracefmt_event(el->tf, ev->attr.config)) == NULL)
		return 0;
	snprintf(buf, sizeof(buf), "%s:%s", te->system, te->name);
	return (ev->tp_name = strdup(buf)) != NULL ? 0 : -1;
}

const struct pd_tracefmt *
pd_evlist_tracefmt(const struct pd_evlist *el)
{
	return el->tf;
}

int
pd_evlist_set_tracefmt(struct pd_evlist *el, const struct pd_tracefmt *tf,
    int raw_in, int raw_out)
{
	size_t i;
	int r = 0;

	el->tf = tf;
	el->gen++;
	el->tf_raw_in |= raw_in != 0;
	el->tf_raw_out |= raw_out != 0;
	for (i = 0; i < el->n; i++)
		if (tp_name(el, &el->evsels[i]) < 0)
			r = -1;
	return r;
}

const char *
pd_evsel_name(const struct pd_evsel *ev)
{
	size_t n;

	if (ev->tp_name == NULL)
		return ev->name != NULL ? ev->name : "";
	/* A merge's "system:name@host" says whose it is (stream/pids.h). */
	n = strlen(ev->tp_name);
	if (ev->named && ev->name != NULL &&
	    strncmp(ev->name, ev->tp_name, n) == 0 &&
	    ev->name[n] == PD_PIDS_HOST_SEP && ev->name[n + 1] != '\0')
		return ev->name;
	return ev->tp_name;
}

int
pd_evlist_add(struct pd_evlist *el, const void *attr, size_t attr_len,
    const uint64_t *ids, size_t nids, const char **why)
{
	struct pd_evsel *ev;
	char name[64];

	if (el->n == el->cap) {
		size_t cap = el->cap ? el->cap * 2 : 8;
		struct pd_evsel *n = realloc(el->evsels, cap * sizeof(*n));

		if (n == NULL) {
			*why = "out of memory";
			return -1;
		}
		el->evsels = n;
		el->cap = cap;
	}
	ev = &el->evsels[el->n];
	memset(ev, 0, sizeof(*ev));
	if (pd_attr_parse(&ev->attr, attr, attr_len, why) < 0)
		return -1;
	ev->raw = malloc(attr_len);
	if (ev->raw == NULL) {
		*why = "out of memory";
		return -1;
	}
	memcpy(ev->raw, attr, attr_len);
	ev->raw_size = attr_len;
	ev->idx = el->n;
	ev->parsable = (ev->attr.sample_type & ~PD_SAMPLE_KNOWN) == 0 &&
	    (ev->attr.read_format & ~PD_FORMAT_KNOWN) == 0;
	calc_positions(ev);
	pd_sample_layout(ev->attr.sample_type, &ev->head);
	pd_sample_shape(ev, &ev->shape);
	pd_attr_default_name(&ev->attr, name, sizeof(name));
	ev->name = strdup(name);
	el->n++;
	el->gen++;
	if (ev->name == NULL || tp_name(el, ev) < 0 ||
	    pd_evlist_add_ids(el, ev->idx, ids, nids) < 0) {
		*why = "out of memory";
		return -1;
	}
	return ev->idx;
}

struct pd_evsel *
pd_evlist_for_rec_other(const struct pd_evlist *el, const struct pd_rec *rec)
{
	const struct pd_evsel *first;
	struct pd_evsel *ev;
	uint64_t id;
	unsigned n;

	if (el->n == 0)
		return NULL;
	if (el->n == 1)
		return &el->evsels[0];
	first = &el->evsels[0];
	if (rec->type == PERF_RECORD_SAMPLE) {
		if (first->id_pos < 0)
			return &el->evsels[0];
		if (PD_REC_HDR_SIZE + 8 * (unsigned)first->id_pos + 8 >
		    rec->size)
			return NULL;
		id = pd_get_u64(rec->data + PD_REC_HDR_SIZE +
		    8 * first->id_pos);
		return pd_evlist_by_sample_id(el, id);
	}
	if (first->is_pos < 0 || first->id_hdr_size == 0)
		return &el->evsels[0];
	n = (rec->size - PD_REC_HDR_SIZE) / 8;
	if ((unsigned)first->is_pos > n ||
	    pd_sample_id_start(first, rec->size) < 0)
		return &el->evsels[0];
	id = pd_get_u64(rec->data + rec->size - 8 * first->is_pos);
	ev = pd_evlist_by_id(el, id);
	return ev != NULL ? ev : &el->evsels[0];
}
