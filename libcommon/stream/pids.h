/* SPDX-License-Identifier: MIT */
/*
 * Every place a record names a process or thread, so that a tool can
 * move one stream's pids apart from another's (pdsort merging hosts,
 * whose pid spaces overlap).
 */
#ifndef PD_PIDS_H
#define PD_PIDS_H

#include <stdint.h>

#include "libcommon/stream/evlist.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/record.h"
#include "libcommon/stream/samplehead.h"

struct pd_evlist;
struct pd_evsel;
struct pd_rec;

/*
 * A merge of several hosts' streams (pdsort(1) MERGING) keeps their
 * processes apart: host k (in the order of the inputs, the first 0)
 * gets k * PD_PIDS_HOST_STEP added to its pids and tids, above any
 * pid_max (PID_MAX_LIMIT is 2^22) and still a positive int32 for 512
 * hosts, and its events are named "event" PD_PIDS_HOST_SEP "host".
 */
#define PD_PIDS_HOST_STEP	(UINT32_C(1) << 22)
#define PD_PIDS_HOST_SEP	'@'

/*
 * Adds `base` to every pid and tid record `p` names (native order, the
 * record described by `rec`, whose sample ids are still as read): the
 * fixed fields of pd_record_pid_offsets (event.h), a SAMPLE's
 * PERF_SAMPLE_TID and every sample_id_all trailer's, laid out by `el`.
 * 0 (the idle task, perf's "swapper") and -1 (no thread; the kernel's
 * maps) name the same thing on every host and stay as they are.
 * Tracepoint fields (RAW) are data and stay too. Returns 0, or -1
 * (*why) when the record cannot be parsed.
 */
int	pd_pids_shift(const struct pd_evlist *el, const struct pd_rec *rec,
	    unsigned char *p, uint32_t base, const char **why);

/*
 * The same with the record's event found already (pd_evlist_for_rec of
 * a kernel record, by its ids as read; NULL for other records).
 */
static inline int	pd_pids_shift_ev(const struct pd_evsel *ev,
			    const struct pd_rec *rec, unsigned char *p,
			    uint32_t base, const char **why);

/* pd_pids_shift_ev of the records that are not SAMPLEs. */
int	pd_pids_shift_rest(const struct pd_evsel *ev, const struct pd_rec *rec,
	    unsigned char *p, uint32_t base, const char **why);

/* A pid or tid at p moved by base: 0 and -1 stay. */
static inline void
pd_pids_shift32(unsigned char *p, uint32_t base)
{
	uint32_t v = pd_get_u32(p);

	if (v != 0 && v != UINT32_MAX)
		pd_put_u32(p, v + base);
}

/* Inline for a join's every SAMPLE: its pid and tid are in its head. */
static inline int
pd_pids_shift_ev(const struct pd_evsel *ev, const struct pd_rec *rec,
    unsigned char *p, uint32_t base, const char **why)
{
	if (rec->type != PERF_RECORD_SAMPLE)
		return pd_pids_shift_rest(ev, rec, p, base, why);
	if (ev == NULL || ev->head.tid == PD_HEAD_NONE)
		return 0;
	if (pd_sample_head_check(&ev->head, rec, why) < 0)
		return -1;
	pd_pids_shift32(p + PD_REC_HDR_SIZE + ev->head.tid, base);
	pd_pids_shift32(p + PD_REC_HDR_SIZE + ev->head.tid + 4, base);
	return 0;
}

#endif /* PD_PIDS_H */
