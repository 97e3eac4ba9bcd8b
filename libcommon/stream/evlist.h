/* SPDX-License-Identifier: MIT */
/*
 * The events of a stream (perf's evlist): the attrs from HEADER_ATTR or
 * the file header, their sample ids and names, and which event produced
 * a record. The reader keeps one up to date; tools only ask it.
 */
#ifndef PD_EVLIST_H
#define PD_EVLIST_H

#include <stddef.h>
#include <stdint.h>

#include "libcommon/stream/idmap.h"
#include "libcommon/stream/samplehead.h"

struct pd_rec;
struct pd_tracefmt;

/* perf_event_attr decoded from any attr.size, in native byte order. */
struct pd_attr {
	uint32_t	type;
	uint32_t	size;		/* as stored; 0 was turned into 64 */
	uint64_t	config;
	uint64_t	sample_period;	/* or sample_freq if PD_ATTR_FREQ */
	uint64_t	sample_type;
	uint64_t	read_format;
	uint64_t	flags;		/* little-endian bit numbering */
	uint32_t	wakeup_events;
	uint32_t	bp_type;
	uint64_t	config1;
	uint64_t	config2;
	uint64_t	branch_sample_type;
	uint64_t	sample_regs_user;
	uint32_t	sample_stack_user;
	int32_t		clockid;
	uint64_t	sample_regs_intr;
	uint32_t	aux_watermark;
	uint16_t	sample_max_stack;
	uint32_t	aux_sample_size;
	uint32_t	aux_action;
	uint64_t	sig_data;
	uint64_t	config3;
};

struct pd_evsel {
	struct pd_attr	 attr;
	unsigned char	*raw;		/* the attr bytes as stored */
	uint32_t	 raw_size;
	char		*name;
	char		*tp_name;	/* "system:name" from tracing data */
	uint64_t	*ids;
	size_t		 nids;
	int		 idx;
	int		 id_pos;	/* u64 index of the id in a SAMPLE; -1 */
	int		 is_pos;	/* u64s back from a trailer's end; -1 */
	uint16_t	 id_hdr_size;	/* sample_id_all trailer bytes, or 0 */
	struct pd_sample_layout head;	/* the SAMPLE's fixed fields */
	struct pd_sample_id_layout trailer;	/* with sample_id_all */
	struct pd_sample_shape shape;	/* how to check a SAMPLE fast */
	unsigned	 parsable:1;	/* only bits we know in the layout */
	unsigned	 named:1;	/* by a record, not by default */
};

struct pd_evlist {
	struct pd_evsel	*evsels;
	size_t		 n;
	size_t		 cap;
	struct pd_idmap	 idmap;		/* sample id -> evsel index */
	/*
	 * Changes whenever an event is added, named, given ids or its
	 * tracepoint name: what a printer made of an event (its sample
	 * line), or which event a record's id names, holds while gen
	 * stays.
	 */
	unsigned	 gen;
	/*
	 * The event formats of the tracing data so far: the reader's (not
	 * owned), set with pd_evlist_set_tracefmt, read with
	 * pd_evlist_tracefmt. Whether a byte-order conversion may convert
	 * RAW data field by field with them (swap.h): tf_raw_in, foreign
	 * to native, when a foreign blob said the foreign order (the RAW
	 * data are in it); tf_raw_out, native to foreign, when they came
	 * from a HEADER_TRACING_DATA blob, which is converted with them.
	 */
	const struct pd_tracefmt *tf;
	unsigned	 tf_raw_in:1;
	unsigned	 tf_raw_out:1;
};

void	pd_evlist_init(struct pd_evlist *);
void	pd_evlist_free(struct pd_evlist *);

/*
 * Decodes `len` bytes of a perf_event_attr (native order). Returns 0, or
 * -1 with *why set when the size field is unusable.
 */
int	pd_attr_parse(struct pd_attr *, const void *p, size_t len,
	    const char **why);

/*
 * Adds an event from its stored attr bytes and sample ids. Returns the
 * new event's index, or -1 (*why set) on a bad attr or no memory.
 */
int	pd_evlist_add(struct pd_evlist *, const void *attr, size_t attr_len,
	    const uint64_t *ids, size_t nids, const char **why);

/* Binds more sample ids to event `idx`; 0 or -1 (no memory). */
int	pd_evlist_add_ids(struct pd_evlist *, int idx, const uint64_t *ids,
	    size_t nids);

/* Replaces an event's name (copied) and marks it named; 0 or -1. */
int	pd_evlist_set_name(struct pd_evlist *, int idx, const char *name,
	    size_t len);

/* The event a sample id belongs to, or NULL. Inline: once a record. */
static inline struct pd_evsel *
pd_evlist_by_id(const struct pd_evlist *el, uint64_t id)
{
	uint64_t idx;

	if (!pd_idmap_get(&el->idmap, id, &idx))
		return NULL;
	return &el->evsels[idx];
}

/*
 * A SAMPLE's event by its id: 0, a synthesized record's, is the first
 * event's, as perf has it.
 */
static inline struct pd_evsel *
pd_evlist_by_sample_id(const struct pd_evlist *el, uint64_t id)
{
	return id != 0 ? pd_evlist_by_id(el, id) : &el->evsels[0];
}

/* How many events there are, and event i (i < that count). */
static inline size_t
pd_evlist_count(const struct pd_evlist *el)
{
	return el->n;
}

static inline const struct pd_evsel *
pd_evlist_at(const struct pd_evlist *el, size_t i)
{
	return &el->evsels[i];
}

/*
 * The event that produced a record, found as perf finds it: the only
 * event; else the id at the first event's id_pos (SAMPLE) or is_pos
 * (other kernel records; id 0 or no trailer -> the first event).
 * NULL when there are no events, or a SAMPLE's id is unknown.
 */
struct pd_evsel	*pd_evlist_for_rec_other(const struct pd_evlist *,
		    const struct pd_rec *);

/* Inline for the SAMPLEs of one event or of IDENTIFIER's id: most. */
static inline struct pd_evsel *
pd_evlist_for_rec(const struct pd_evlist *el, const struct pd_rec *rec)
{
	int pos;

	if (el->n == 1)
		return &el->evsels[0];
	if (el->n > 1 && rec->type == PERF_RECORD_SAMPLE &&
	    (pos = el->evsels[0].id_pos) >= 0 &&
	    PD_REC_HDR_SIZE + 8 * (unsigned)pos + 8 <= rec->size)
		return pd_evlist_by_sample_id(el, pd_get_u64(rec->data +
		    PD_REC_HDR_SIZE + 8 * pos));
	return pd_evlist_for_rec_other(el, rec);
}

/*
 * The event formats of the tracing data seen so far, or NULL: what
 * decodes a tracepoint's RAW fields (decode.h) and names it.
 */
const struct pd_tracefmt	*pd_evlist_tracefmt(const struct pd_evlist *);

/*
 * For the reader: the formats after a tracing data blob (`tf` grows with
 * each blob; it must live as long as the list), and whether RAW data may
 * be converted with them (raw_in, raw_out as above; once set, they
 * stay). Names the tracepoints anew. 0, or -1 when out of memory (the
 * names that could not be made stay the stream's).
 */
int	pd_evlist_set_tracefmt(struct pd_evlist *, const struct pd_tracefmt *tf,
	    int raw_in, int raw_out);

/*
 * An event's name as pddump shows it: a tracepoint's "system:name" from
 * the tracing data (with a merge's "@host" when the stream named it so),
 * else the name the stream gave it (EVENT_UPDATE, EVENT_DESC), else
 * perf's default.
 */
const char	*pd_evsel_name(const struct pd_evsel *);

/* perf's default name for an event with no name record, e.g. "cycles". */
void	pd_attr_default_name(const struct pd_attr *, char *buf, size_t len);

#endif /* PD_EVLIST_H */
