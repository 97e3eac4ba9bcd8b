/* SPDX-License-Identifier: MIT */
#include "libcommon/stream/samplehead.h"

#include "libcommon/stream/evlist.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/record.h"

/* The fixed-size fields, in the order the kernel writes them. */
void
pd_sample_layout(uint64_t st, struct pd_sample_layout *l)
{
	unsigned off = 0;

	/* IDENTIFIER and ID are the same number; a stream has one. */
	l->id = l->ip = l->tid = l->time = l->addr = l->stream_id = l->cpu =
	    l->period = PD_HEAD_NONE;
#define FIELD(bit, f) do {						\
		if (st & (bit)) {					\
			l->f = off;					\
			off += 8;					\
		}							\
	} while (0)
	FIELD(PERF_SAMPLE_IDENTIFIER, id);
	FIELD(PERF_SAMPLE_IP, ip);
	FIELD(PERF_SAMPLE_TID, tid);
	FIELD(PERF_SAMPLE_TIME, time);
	FIELD(PERF_SAMPLE_ADDR, addr);
	FIELD(PERF_SAMPLE_ID, id);
	FIELD(PERF_SAMPLE_STREAM_ID, stream_id);
	FIELD(PERF_SAMPLE_CPU, cpu);
	FIELD(PERF_SAMPLE_PERIOD, period);
#undef FIELD
	l->size = off;
}

/* The trailer's fields, in the order the kernel writes them. */
void
pd_sample_id_layout(uint64_t st, struct pd_sample_id_layout *l)
{
	unsigned off = 0;

	l->tid = l->time = l->id = l->stream_id = l->cpu = l->identifier =
	    PD_HEAD_NONE;
#define FIELD(bit, f) do {						\
		if (st & (bit)) {					\
			l->f = off;					\
			off += 8;					\
		}							\
	} while (0)
	FIELD(PERF_SAMPLE_TID, tid);
	FIELD(PERF_SAMPLE_TIME, time);
	FIELD(PERF_SAMPLE_ID, id);
	FIELD(PERF_SAMPLE_STREAM_ID, stream_id);
	FIELD(PERF_SAMPLE_CPU, cpu);
	FIELD(PERF_SAMPLE_IDENTIFIER, identifier);
#undef FIELD
	l->size = off;
}

int
pd_sample_head(const struct pd_evsel *ev, const struct pd_rec *rec,
    struct pd_sample_head *h, const char **why)
{
	const struct pd_sample_layout *l = &ev->head;

	if (pd_sample_head_check(l, rec, why) < 0)
		return -1;
	h->type = ev->attr.sample_type;
	h->id = pd_head_u64(rec, l->id);
	h->ip = pd_head_u64(rec, l->ip);
	h->time = pd_head_u64(rec, l->time);
	h->addr = pd_head_u64(rec, l->addr);
	h->stream_id = pd_head_u64(rec, l->stream_id);
	h->period = pd_head_u64(rec, l->period);
	h->pid = pd_head_u32(rec, l->tid, 0);
	h->tid = pd_head_u32(rec, l->tid, 4);
	h->cpu = pd_head_u32(rec, l->cpu, 0);
	return 0;
}
