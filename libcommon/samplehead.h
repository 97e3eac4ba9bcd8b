/* SPDX-License-Identifier: MIT */
/*
 * The head of a PERF_RECORD_SAMPLE: the fields from IDENTIFIER to PERIOD
 * all have a fixed size, so they are read without walking (or checking)
 * the variable part behind them. For tools that look at every sample of
 * a big stream and need no more (pdstat); pd_sample_parse() reads all.
 */
#ifndef PD_SAMPLEHEAD_H
#define PD_SAMPLEHEAD_H

#include <stdint.h>

struct pd_evsel;
struct pd_rec;

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
 * Reads the head of a SAMPLE produced by `ev`. Returns 0, or -1 with
 * *why set when the record is too short to hold it.
 */
int	pd_sample_head(const struct pd_evsel *ev, const struct pd_rec *rec,
	    struct pd_sample_head *h, const char **why);

#endif /* PD_SAMPLEHEAD_H */
