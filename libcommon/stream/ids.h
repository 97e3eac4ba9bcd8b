/* SPDX-License-Identifier: MIT */
/*
 * Every place a record names a sample id, so that a tool can renumber
 * them (pdcat joining streams whose ids collide).
 */
#ifndef PD_IDS_H
#define PD_IDS_H

#include <stdint.h>

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
int	pd_ids_map_ev(const struct pd_evlist *el, const struct pd_evsel *ev,
	    const struct pd_rec *rec, unsigned char *p, pd_id_map_fn map,
	    void *ctx, const char **why);

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
int	pd_ids_add_identifier_ev(const struct pd_evlist *el,
	    const struct pd_evsel *ev, const struct pd_rec *rec,
	    const unsigned char *p, unsigned char *out, pd_ev_id_fn evid,
	    void *ctx, const char **why);

#endif /* PD_IDS_H */
