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
struct pd_sample;

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

/*
 * A SAMPLE's head, the fields pd_decode_sample walks between "event"
 * and "callchain", in its order: said once here, for the walk and for a
 * printer that lays an event's sample line out once (pddump's evline.c).
 */
enum pd_dhead_how {
	PD_DH_NONE,		/* PD_D_NONE when the event does not sample it */
	PD_DH_SKIP,		/* left out when the event does not sample it */
	PD_DH_ALWAYS		/* always there */
};

struct pd_dhead {
	const char	*name;
	uint8_t		 namelen;
	uint8_t		 fmt;		/* enum pd_dfmt: U, S or X */
	uint8_t		 how;		/* enum pd_dhead_how */
	uint64_t	 bits;		/* the sample_type bits that sample it */
};

#define PD_DHEAD_N	16
extern const struct pd_dhead	pd_dhead[PD_DHEAD_N];

/* A sample's head values by pd_dhead's index, and its callchain. */
struct pd_dhead_vals {
	uint64_t		 v[PD_DHEAD_N];	/* those ev samples, and period */
	const unsigned char	*callchain;	/* callchain_nr u64s */
	uint64_t		 callchain_nr;
};

/*
 * The head values and callchain of SAMPLE rec of event ev, for a
 * printer of events pd_dhead_only: a sample of exactly its event's
 * shape is read by the layout, any other parsed. 0, or -1 with *why as
 * pd_sample_parse says it.
 */
int	pd_dhead_read(const struct pd_evsel *ev, const struct pd_rec *rec,
	    struct pd_dhead_vals *o, const char **why);

/*
 * 1 when pd_decode_sample walks nothing after "callchain" in ev's
 * samples (no read values, branch stack, registers, user stack, aux or
 * raw data) and can parse them: event, head and callchain are all.
 */
int	pd_dhead_only(const struct pd_evsel *ev);

#endif /* PD_DECODE_H */
