/* SPDX-License-Identifier: MIT */
/*
 * Records field by field: every non-SAMPLE record (MMAP2, COMM,
 * ID_INDEX, CPU_MAP, EVENT_UPDATE, ...), perf_event_attr, feature bodies
 * (decode_feat.c) and SAMPLE with every field in it (decode_sample.c),
 * walked in order and handed to a visitor as named values. A printer
 * (pddump's text and JSON forms) is one visitor. Most records are walked
 * by their field tables (event.h), which swap.c walks too; the few with
 * counts and versions no table says are laid out here.
 */
#ifndef PD_DECODE_H
#define PD_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "libcommon/stream/decode_feat.h"
#include "libcommon/stream/dwalk.h"

struct pd_evlist;
struct pd_evsel;
struct pd_rec;

/*
 * Walks the payload of a record (not a SAMPLE) after its header: every
 * field in record order, then for a kernel record of an event with a
 * sample_id_all trailer, the trailer's fields (pid, tid, time, id,
 * stream_id, cpu; via pd_sample_id_parse). `ev` may be NULL.
 * Returns 0, or -1 with *why when the payload does not fit its layout
 * (the fields before the fault were visited).
 */
int	pd_decode_rec(const struct pd_rec *rec, const struct pd_evsel *ev,
	    const struct pd_dvisit *v, const char **why);

/* The trailer alone (as pd_decode_rec does it): 1 visited, 0 none, -1. */
int	pd_decode_trailer(const struct pd_rec *rec, const struct pd_evsel *ev,
	    const struct pd_dvisit *v, const char **why);

/*
 * Walks a SAMPLE, whose event `el` finds, field by field:
 *   "event" (pd_evsel_name), then time, cpu, pid, tid, ip, period, addr,
 *   id (PD_D_NONE when the event does not sample them; an unsampled
 *   period is the event's sample_period), then stream_id, weight,
 *   data_src, transaction, phys_addr, cgroup, data_page_size,
 *   code_page_size when sampled; "callchain" (PD_D_ADDRS, or PD_D_NONE);
 *   then an object for each part sampled:
 *   "read": time_enabled, time_running (as the read_format has them),
 *     rows "values" of value, id, event (the id's), lost;
 *   "branch_stack": nr, hw_idx, rows "entries" of from, to, mispred,
 *     predicted, in_tx, abort, cycles, br_type, spec, new_type, priv,
 *     counters;
 *   "regs_user", "regs_intr": abi, mask, object "regs" of r<bit> values;
 *   "stack_user": size, dyn_size;  "aux": size;
 *   "raw": a tracepoint's fields as the tracing formats lay them out
 *     (named by the format: text, numbers, arrays as lists, PD_D_NULL
 *     for bytes outside the data), else size and data.
 * 0, or -1 with *why: the event is unknown (nothing visited), or a field
 * runs past the record (only "event" visited).
 */
int	pd_decode_sample(const struct pd_rec *rec, const struct pd_evlist *el,
	    const struct pd_dvisit *v, const char **why);

#endif /* PD_DECODE_H */
