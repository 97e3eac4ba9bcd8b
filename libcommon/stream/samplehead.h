/* SPDX-License-Identifier: MIT */
/*
 * The head of a PERF_RECORD_SAMPLE: the fields from IDENTIFIER to PERIOD
 * all have a fixed size, so they are read without walking (or checking)
 * the variable part behind them. For tools that look at every sample of
 * a big stream and need no more (pdstat); pd_sample_parse() reads all.
 * The sample_id_all trailer of other records is laid out here too.
 */
#ifndef PD_SAMPLEHEAD_H
#define PD_SAMPLEHEAD_H

#include <stddef.h>
#include <stdint.h>

#include "libcommon/stream/perf.h"
#include "libcommon/stream/record.h"

struct pd_evsel;

/* A field the sample_type lacks is 0; `type` says which are there. */
struct pd_sample_head {
	uint64_t	type;		/* the sample_type of the event */
	uint64_t	id;		/* IDENTIFIER or ID */
	uint64_t	ip;
	uint32_t	pid, tid;
	uint64_t	time;
	uint64_t	addr;
	uint64_t	stream_id;
	uint32_t	cpu;
	uint64_t	period;
};

/*
 * Where each field of the head sits for one sample_type: a byte offset
 * after the record header, or PD_HEAD_NONE. The evlist works it out
 * once per event, so reading a head walks no sample_type bits.
 */
#define PD_HEAD_NONE	0xff

struct pd_sample_layout {
	uint8_t		size;		/* bytes of the head */
	uint8_t		id, ip, tid, time, addr, stream_id, cpu, period;
};

void	pd_sample_layout(uint64_t sample_type, struct pd_sample_layout *);

/*
 * A sample's shape, for checking it without walking its fields: when
 * `simple` (a parsable layout whose only variable part is the
 * callchain, READ not a group), a SAMPLE of the event is `pre` bytes
 * after the header, the callchain (`chain`: its nr and nr u64s), then
 * `post` bytes. pd_sample_shape (sample.c, beside the walk it mirrors)
 * works it out once per event.
 */
struct pd_sample_shape {
	uint16_t	pre, post;
	uint8_t		simple, chain;
};

/*
 * The sample_id_all trailer of a sample_type, laid out the same way:
 * each field's byte offset from the trailer's start, or PD_HEAD_NONE,
 * and its size. The evlist keeps one per event (pd_evsel.trailer); an
 * event with sample_id_all ends every kernel record but SAMPLE with it.
 */
struct pd_sample_id_layout {
	uint8_t		size;
	uint8_t		tid, time, id, stream_id, cpu, identifier;
};

void	pd_sample_id_layout(uint64_t sample_type, struct pd_sample_id_layout *);

/*
 * For loops that read two or three fields of millions of samples: a
 * field by its layout offset, without filling a pd_sample_head. Read
 * fields only of a record pd_sample_head_check() passed: 0, or -1 with
 * *why set when the record is too short to hold the head.
 */
static inline int
pd_sample_head_check(const struct pd_sample_layout *l,
    const struct pd_rec *rec, const char **why)
{
	if (PD_REC_HDR_SIZE + (size_t)l->size <= rec->size)
		return 0;
	*why = "record too short for the sample's fixed fields";
	return -1;
}

static inline uint64_t
pd_head_u64(const struct pd_rec *rec, uint8_t off)
{
	return off != PD_HEAD_NONE ?
	    pd_get_u64(rec->data + PD_REC_HDR_SIZE + off) : 0;
}

/* The first (k = 0) or second (k = 4) u32 of a field: pid, tid, cpu. */
static inline uint32_t
pd_head_u32(const struct pd_rec *rec, uint8_t off, unsigned k)
{
	return off != PD_HEAD_NONE ?
	    pd_get_u32(rec->data + PD_REC_HDR_SIZE + off + k) : 0;
}

/*
 * Reads the head of a SAMPLE produced by `ev`. Returns 0, or -1 with
 * *why set when the record is too short to hold it.
 */
int	pd_sample_head(const struct pd_evsel *ev, const struct pd_rec *rec,
	    struct pd_sample_head *h, const char **why);

#endif /* PD_SAMPLEHEAD_H */
