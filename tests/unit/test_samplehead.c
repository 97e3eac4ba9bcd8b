/* SPDX-License-Identifier: MIT */
/*
 * pd_sample_head: the fixed fields of a SAMPLE, and its length check;
 * pd_sample_layout: where each field sits for every head bit.
 */
#include <string.h>

#include "libcommon/stream/evlist.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/record.h"
#include "libcommon/stream/samplehead.h"
#include "t.h"

static struct pd_evsel *
event(struct pd_evlist *el, uint64_t sample_type)
{
	unsigned char attr[128];
	uint64_t id = 7;
	const char *why;
	int i;

	memset(attr, 0, sizeof(attr));
	pd_put_u32(attr + PD_ATTR_OFF_SIZE, sizeof(attr));
	pd_put_u64(attr + PD_ATTR_OFF_PERIOD, 1000);
	pd_put_u64(attr + PD_ATTR_OFF_SAMPLE_TYPE, sample_type);
	i = pd_evlist_add(el, attr, sizeof(attr), &id, 1, &why);
	return i < 0 ? NULL : &el->evsels[i];
}

/* All head bits: eight u64s in the kernel's order, ID after ADDR. */
static void
test_layout(void)
{
	struct pd_sample_layout l;

	pd_sample_layout(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
	    PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID |
	    PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN |
	    PERF_SAMPLE_RAW, &l);
	T(l.ip == 0 && l.tid == 8 && l.time == 16 && l.addr == 24);
	T(l.id == 32 && l.stream_id == 40 && l.cpu == 48 && l.period == 56);
	T(l.size == 64);
	/* IDENTIFIER comes first; none of the rest is there. */
	pd_sample_layout(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_PERIOD, &l);
	T(l.id == 0 && l.period == 8 && l.size == 16);
	T(l.ip == PD_HEAD_NONE && l.tid == PD_HEAD_NONE &&
	    l.time == PD_HEAD_NONE && l.addr == PD_HEAD_NONE &&
	    l.stream_id == PD_HEAD_NONE && l.cpu == PD_HEAD_NONE);
	pd_sample_layout(0, &l);
	T(l.size == 0 && l.period == PD_HEAD_NONE);
}

int
main(void)
{
	/* IDENTIFIER|IP|TID|TIME|CPU|PERIOD|CALLCHAIN */
	uint64_t st = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
	    PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
	    PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN;
	unsigned char r[80];
	struct pd_evlist el;
	struct pd_evsel *ev;
	struct pd_sample_head h;
	struct pd_rec rec;
	const char *why = NULL;

	pd_evlist_init(&el);
	ev = event(&el, st);
	T(ev != NULL);
	if (ev == NULL)
		return T_END();
	memset(r, 0, sizeof(r));
	pd_put_u32(r, PERF_RECORD_SAMPLE);
	pd_put_u16(r + 6, 72);
	pd_put_u64(r + 8, 7);			/* identifier */
	pd_put_u64(r + 16, 0xffffffff81000000ULL);	/* ip */
	pd_put_u32(r + 24, 100);		/* pid */
	pd_put_u32(r + 28, 101);		/* tid */
	pd_put_u64(r + 32, 123456789);		/* time */
	pd_put_u32(r + 40, 3);			/* cpu */
	pd_put_u32(r + 44, 0xdead);		/* res: not the cpu */
	pd_put_u64(r + 48, 2500);		/* period */
	pd_put_u64(r + 56, 1);			/* callchain nr */
	pd_put_u64(r + 64, 0x1234);
	memset(&rec, 0, sizeof(rec));
	rec.data = r;
	rec.type = PERF_RECORD_SAMPLE;
	rec.size = 72;
	T(pd_sample_head(ev, &rec, &h, &why) == 0);
	T(h.type == st);
	T(h.id == 7 && h.ip == 0xffffffff81000000ULL);
	T(h.pid == 100 && h.tid == 101);
	T(h.time == 123456789 && h.cpu == 3 && h.period == 2500);
	T(h.addr == 0 && h.stream_id == 0);

	/* The head is 56 bytes: one short is an error, the tail is not read. */
	rec.size = 55;
	T(pd_sample_head(ev, &rec, &h, &why) == -1 && why != NULL);
	rec.size = 56;
	T(pd_sample_head(ev, &rec, &h, &why) == 0 && h.period == 2500);
	pd_evlist_free(&el);
	test_layout();
	return T_END();
}
