/* SPDX-License-Identifier: MIT */
/*
 * Every place a record names a sample id, so that a tool can renumber
 * them (pdcat joining streams whose ids collide).
 */
#ifndef PD_IDS_H
#define PD_IDS_H

#include <stdint.h>

#include "libcommon/stream/evlist.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/record.h"
#include "libcommon/stream/sample.h"

struct pd_evlist;
struct pd_evsel;
struct pd_rec;

typedef uint64_t	(*pd_id_map_fn)(void *ctx, uint64_t id);

/*
 * Rewrites in place every sample id of record `p` (native order, the
 * record described by `rec`) through map: HEADER_ATTR ids, ID_INDEX,
 * EVENT_UPDATE, STAT, SAMPLE id/identifier and READ value ids, LOST and
 * THROTTLE ids, READ records, and every sample_id_all trailer. Layouts
 * come from `el`. Returns 0, or -1 (*why) when the record cannot be
 * parsed.
 */
int	pd_ids_map(const struct pd_evlist *el, const struct pd_rec *rec,
	    unsigned char *p, pd_id_map_fn map, void *ctx, const char **why);

/*
 * The same for a caller that has found the record's event already
 * (pd_evlist_for_rec of a kernel record, by its ids as read; NULL for
 * other records): a join finds it once for all its steps.
 */
static inline int	pd_ids_map_ev(const struct pd_evlist *el,
			    const struct pd_evsel *ev, const struct pd_rec *rec,
			    unsigned char *p, pd_id_map_fn map, void *ctx,
			    const char **why);

/* pd_ids_map_ev of the records that are not SAMPLEs. */
int	pd_ids_map_rest(const struct pd_evsel *ev, const struct pd_rec *rec,
	    unsigned char *p, pd_id_map_fn map, void *ctx, const char **why);

/*
 * The ids among ev's READ values that start at record offset `off` of p
 * and end by `end`: 0, or -1 when they run past it.
 */
int	pd_ids_map_read(const struct pd_evsel *ev, unsigned char *p,
	    unsigned off, unsigned end, pd_id_map_fn map, void *ctx);

/*
 * Inline for a join's every SAMPLE (the id map inlined too): checked
 * as read, as the ids' places do not depend on their values.
 */
static inline int
pd_ids_map_ev(const struct pd_evlist *el, const struct pd_evsel *ev,
    const struct pd_rec *rec, unsigned char *p, pd_id_map_fn map, void *ctx,
    const char **why)
{
	struct pd_sample_ids s;

	(void)el;
	if (rec->type != PERF_RECORD_SAMPLE)
		return pd_ids_map_rest(ev, rec, p, map, ctx, why);
	if (ev == NULL) {
		*why = "sample of an unknown event";
		return -1;
	}
	if (pd_sample_ids(ev, rec, &s, why) < 0)
		return -1;
	if (s.identifier_off != 0)
		pd_put_u64(p + s.identifier_off,
		    map(ctx, pd_get_u64(p + s.identifier_off)));
	if (s.id_off != 0)
		pd_put_u64(p + s.id_off, map(ctx, pd_get_u64(p + s.id_off)));
	if (s.read_off != 0 && pd_ids_map_read(ev, p, s.read_off, rec->size,
	    map, ctx) < 0) {
		*why = "read values run past the record";
		return -1;
	}
	return 0;
}

typedef uint64_t	(*pd_ev_id_fn)(void *ctx, const struct pd_evsel *ev);

/*
 * Writes to `out` (room for PD_REC_MAX bytes) record `rec` as it reads
 * once every event carries PERF_SAMPLE_IDENTIFIER, which puts the id at
 * the same place in every layout (first in a SAMPLE, last in a
 * sample_id_all trailer): how perf record makes mixed events decodable.
 * `p` holds the record's bytes with its ids already renumbered; `el`
 * describes it as read (the reader's evlist after `rec`: a HEADER_ATTR's
 * event is the last one). The id written is the record's own id when it
 * names one of its event's ids, else evid(ctx, ev): the event's id for
 * records that carry none (one event, no ids; synthesized records with
 * id 0), and the id added to a HEADER_ATTR that lists none.
 * A HEADER_ATTR gets the IDENTIFIER and sample_id_all bits; a SAMPLE
 * gets the id after its header; another kernel record of an event with
 * sample_id_all gets it after its trailer. Events that already have
 * IDENTIFIER keep their layout: only a trailer of theirs that names none
 * of the event's ids (id 0) gets the event's id in place. A kernel
 * record of an event without sample_id_all gets a whole trailer, all
 * ones (what perf reads for none: no thread, no time) but its ids, so
 * that such events can share a stream with events that have it. Records
 * of no event are left alone.
 * Returns the new size, 0 when the record stays as it is, or -1 (*why)
 * when it cannot be parsed or would outgrow PD_REC_MAX.
 */
int	pd_ids_add_identifier(const struct pd_evlist *el,
	    const struct pd_rec *rec, const unsigned char *p,
	    unsigned char *out, pd_ev_id_fn evid, void *ctx,
	    const char **why);

/* The same with the record's event found (as pd_ids_map_ev). */
static inline int	pd_ids_add_identifier_ev(const struct pd_evlist *el,
			    const struct pd_evsel *ev, const struct pd_rec *rec,
			    const unsigned char *p, unsigned char *out,
			    pd_ev_id_fn evid, void *ctx, const char **why);

/* pd_ids_add_identifier_ev but for the SAMPLEs of IDENTIFIER events. */
int	pd_ids_add_identifier_rest(const struct pd_evlist *el,
	    const struct pd_evsel *ev, const struct pd_rec *rec,
	    const unsigned char *p, unsigned char *out, pd_ev_id_fn evid,
	    void *ctx, const char **why);

static inline int
pd_ids_add_identifier_ev(const struct pd_evlist *el,
    const struct pd_evsel *ev, const struct pd_rec *rec,
    const unsigned char *p, unsigned char *out, pd_ev_id_fn evid, void *ctx,
    const char **why)
{
	/* Most records: a SAMPLE of an event that has IDENTIFIER. */
	if (rec->type == PERF_RECORD_SAMPLE && ev != NULL &&
	    (ev->attr.sample_type & PERF_SAMPLE_IDENTIFIER))
		return 0;
	return pd_ids_add_identifier_rest(el, ev, rec, p, out, evid, ctx,
	    why);
}

#endif /* PD_IDS_H */
