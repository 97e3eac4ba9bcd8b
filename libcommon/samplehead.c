/* SPDX-License-Identifier: MIT */
#include "libcommon/samplehead.h"

#include "libcommon/evlist.h"
#include "libcommon/perf.h"
#include "libcommon/record.h"

/* The fixed-size fields, in the order the kernel writes them. */
#define HEAD_BITS	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |	\
	PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |		\
	PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |	\
	PERF_SAMPLE_PERIOD)

/*
 * How many of HEAD_BITS are set: bits 0-3, 6-9 and 16. Counted by hand
 * because __builtin_popcountll is a libgcc call on a plain x86-64 build,
 * a cost on every sample.
 */
_Static_assert(HEAD_BITS == 0x103cf, "head_fields() counts bits 0-3, 6-9, 16");

static unsigned
head_fields(uint64_t st)
{
	static const unsigned char nib[16] = {
		0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4
	};

	return nib[st & 0xf] + nib[st >> 6 & 0xf] + (st >> 16 & 1);
}

int
pd_sample_head(const struct pd_evsel *ev, const struct pd_rec *rec,
    struct pd_sample_head *h, const char **why)
{
	uint64_t st = ev->attr.sample_type;
	const unsigned char *p = rec->data + PD_REC_HDR_SIZE;

	if (PD_REC_HDR_SIZE + 8 * head_fields(st) > rec->size) {
		*why = "record too short for the sample's fixed fields";
		return -1;
	}
	h->type = st;
	h->id = h->ip = h->time = h->addr = h->stream_id = h->period = 0;
	h->pid = h->tid = h->cpu = 0;
	if (st & PERF_SAMPLE_IDENTIFIER) {
		h->id = pd_get_u64(p);
		p += 8;
	}
	if (st & PERF_SAMPLE_IP) {
		h->ip = pd_get_u64(p);
		p += 8;
	}
	if (st & PERF_SAMPLE_TID) {
		h->pid = pd_get_u32(p);
		h->tid = pd_get_u32(p + 4);
		p += 8;
	}
	if (st & PERF_SAMPLE_TIME) {
		h->time = pd_get_u64(p);
		p += 8;
	}
	if (st & PERF_SAMPLE_ADDR) {
		h->addr = pd_get_u64(p);
		p += 8;
	}
	if (st & PERF_SAMPLE_ID) {
		h->id = pd_get_u64(p);
		p += 8;
	}
	if (st & PERF_SAMPLE_STREAM_ID) {
		h->stream_id = pd_get_u64(p);
		p += 8;
	}
	if (st & PERF_SAMPLE_CPU) {
		h->cpu = pd_get_u32(p);
		p += 8;
	}
	if (st & PERF_SAMPLE_PERIOD)
		h->period = pd_get_u64(p);
	return 0;
}
