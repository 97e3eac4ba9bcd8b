/* SPDX-License-Identifier: MIT */
#include "libcommon/stream/ids.h"

#include <string.h>

#include "libcommon/stream/evlist.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/record.h"
#include "libcommon/stream/sample.h"

static void
map_at(unsigned char *p, unsigned off, pd_id_map_fn map, void *ctx)
{
	if (off != 0)
		pd_put_u64(p + off, map(ctx, pd_get_u64(p + off)));
}

/* The ids among READ values that start at record offset `off`. */
static int
map_read(const struct pd_evsel *ev, unsigned char *p, unsigned off,
    unsigned size, pd_id_map_fn map, void *ctx)
{
	uint64_t rf = ev->attr.read_format, nr = 1, i;
	unsigned stride = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PD_FORMAT_LOST);
	unsigned times = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
	    !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);

	if (!(rf & PERF_FORMAT_ID))
		return 0;
	if (rf & PERF_FORMAT_GROUP) {
		if (off + 8 > size)
			return -1;
		nr = pd_get_u64(p + off);
		off += 8 + 8 * times;
		if (nr > (size - off) / (8 * stride))
			return -1;
		for (i = 0; i < nr; i++)
			map_at(p, off + 8 * (stride * i + 1), map, ctx);
	} else {
		if (off + 8 * (1 + times + 1) > size)
			return -1;
		map_at(p, off + 8 * (1 + times), map, ctx);
	}
	return 0;
}

int
pd_ids_map(const struct pd_evlist *el, const struct pd_rec *rec,
    unsigned char *p, pd_id_map_fn map, void *ctx, const char **why)
{
	const struct pd_evsel *ev;
	struct pd_sample s;
	struct pd_rec r = *rec;
	unsigned off, asz, n, i;

	r.data = p;
	switch (rec->type) {
	case PD_RECORD_HEADER_ATTR:
		asz = pd_get_u32(p + 8 + PD_ATTR_OFF_SIZE);
		if (asz == 0)
			asz = PD_ATTR_SIZE_VER0;
		for (off = 8 + asz; off + 8 <= rec->size; off += 8)
			map_at(p, off, map, ctx);
		return 0;
	case PD_RECORD_ID_INDEX:
		if (rec->size < 16)
			return 0;
		n = pd_get_u64(p + 8) > (uint64_t)(rec->size - 16) / 32 ?
		    (rec->size - 16) / 32u : pd_get_u64(p + 8);
		for (i = 0; i < n; i++)
			map_at(p, 16 + 32 * i, map, ctx);
		return 0;
	case PD_RECORD_EVENT_UPDATE:
		if (rec->size >= 24)
			map_at(p, 16, map, ctx);
		return 0;
	case PD_RECORD_STAT:
		if (rec->size >= 16)
			map_at(p, 8, map, ctx);
		return 0;
	}
	if (!pd_rec_is_kernel(rec->type))
		return 0;
	if ((ev = pd_evlist_for_rec(el, &r)) == NULL) {
		if (rec->type == PERF_RECORD_SAMPLE) {
			*why = "sample of an unknown event";
			return -1;
		}
		return 0;
	}
	if (rec->type == PERF_RECORD_SAMPLE) {
		if (pd_sample_parse(ev, &r, &s, why) < 0)
			return -1;
		map_at(p, s.identifier_off, map, ctx);
		map_at(p, s.id_off, map, ctx);
		if (s.read_off != 0 &&
		    map_read(ev, p, s.read_off, rec->size, map, ctx) < 0) {
			*why = "read values run past the record";
			return -1;
		}
		return 0;
	}
	switch (rec->type) {
	case PERF_RECORD_LOST:
		if (rec->size >= 16)
			map_at(p, 8, map, ctx);
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		if (rec->size >= 24)
			map_at(p, 16, map, ctx);
		break;
	case PERF_RECORD_READ:
		if (map_read(ev, p, 16, rec->size - ev->id_hdr_size, map,
		    ctx) < 0) {
			*why = "read values run past the record";
			return -1;
		}
		break;
	}
	if (pd_sample_id_parse(ev, &r, &s, why) < 0)
		return -1;
	map_at(p, s.identifier_off, map, ctx);
	map_at(p, s.id_off, map, ctx);
	return 0;
}

/*
 * The renumbered id at record offset `off` of `p`, if the id there as read
 * (rec->data) is one of ev's: an unknown id or 0 names no event.
 */
static int
own_id(const struct pd_evlist *el, const struct pd_evsel *ev,
    const struct pd_rec *rec, const unsigned char *p, unsigned off,
    uint64_t *id)
{
	if (pd_evlist_by_id(el, pd_get_u64(rec->data + off)) != ev)
		return 0;
	*id = pd_get_u64(p + off);
	return 1;
}

/*
 * The sample_id_all trailer of an event that has none, for its record
 * `p` (rec), into out: the event's fields with IDENTIFIER last, each
 * what perf reads for a record without a trailer (pid, tid, time, cpu,
 * stream id all ones: untimed, no thread) but the ids, which are `id`.
 * Returns the new size, or -1 (*why).
 */
static int
add_trailer(const struct pd_evsel *ev, const struct pd_rec *rec,
    const unsigned char *p, unsigned char *out, uint64_t id,
    const char **why)
{
	uint64_t st = ev->attr.sample_type | PERF_SAMPLE_IDENTIFIER;
	unsigned o = rec->size, n;

	n = 8 * (!!(st & PERF_SAMPLE_TID) + !!(st & PERF_SAMPLE_TIME) +
	    !!(st & PERF_SAMPLE_ID) + !!(st & PERF_SAMPLE_STREAM_ID) +
	    !!(st & PERF_SAMPLE_CPU) + 1);
	if (o + n > PD_REC_MAX) {
		*why = "no room for a sample_id_all trailer: record would "
		    "exceed 65535 bytes";
		return -1;
	}
	memcpy(out, p, o);
	memset(out + o, 0xff, n);
	if (st & PERF_SAMPLE_ID) {
		o += 8 * (!!(st & PERF_SAMPLE_TID) +
		    !!(st & PERF_SAMPLE_TIME));
		pd_put_u64(out + o, id);
	}
	pd_put_u64(out + rec->size + n - 8, id);
	pd_put_u16(out + 6, rec->size + n);
	return rec->size + n;
}

int
pd_ids_add_identifier(const struct pd_evlist *el, const struct pd_rec *rec,
    const unsigned char *p, unsigned char *out, pd_ev_id_fn evid, void *ctx,
    const char **why)
{
	const struct pd_evsel *ev;
	unsigned size = rec->size, asz, off;
	uint64_t st, fl, id;

	if (rec->type == PD_RECORD_HEADER_ATTR) {
		if (el->n == 0 || size < PD_REC_HDR_SIZE + PD_ATTR_SIZE_VER0) {
			*why = "ATTR record without its event";
			return -1;
		}
		ev = &el->evsels[el->n - 1];
		off = PD_REC_HDR_SIZE + PD_ATTR_OFF_SAMPLE_TYPE;
		st = pd_get_u64(p + off);
		fl = pd_get_u64(p + PD_REC_HDR_SIZE + PD_ATTR_OFF_FLAGS);
		if ((st & PERF_SAMPLE_IDENTIFIER) &&
		    (fl & PD_ATTR_SAMPLE_ID_ALL))
			return 0;
		asz = pd_get_u32(p + PD_REC_HDR_SIZE + PD_ATTR_OFF_SIZE);
		if (asz == 0)
			asz = PD_ATTR_SIZE_VER0;
		if (asz > size - PD_REC_HDR_SIZE) {
			*why = "attr does not fit the ATTR record";
			return -1;
		}
		memcpy(out, p, size);
		pd_put_u64(out + off, st | PERF_SAMPLE_IDENTIFIER);
		pd_put_u64(out + PD_REC_HDR_SIZE + PD_ATTR_OFF_FLAGS,
		    fl | PD_ATTR_SAMPLE_ID_ALL);
		if ((st & PERF_SAMPLE_IDENTIFIER) ||
		    size - PD_REC_HDR_SIZE - asz >= 8)
			return size;
		/* No ids: samples would name none; give the event one. */
		if (size + 8 > PD_REC_MAX)
			goto too_big;
		pd_put_u64(out + size, evid(ctx, ev));
		pd_put_u16(out + 6, size + 8);
		return size + 8;
	}
	if (!pd_rec_is_kernel(rec->type) ||
	    (ev = pd_evlist_for_rec(el, rec)) == NULL)
		return 0;
	st = ev->attr.sample_type;
	if (rec->type != PERF_RECORD_SAMPLE &&
	    !(ev->attr.flags & PD_ATTR_SAMPLE_ID_ALL))
		return add_trailer(ev, rec, p, out, evid(ctx, ev), why);
	if (st & PERF_SAMPLE_IDENTIFIER) {
		/*
		 * The layout stays. A trailer that names no id of its event
		 * (synthesized: id 0) gets the event's, or perf would read
		 * it with the joined stream's first event's layout.
		 */
		if (rec->type == PERF_RECORD_SAMPLE || ev->id_hdr_size == 0 ||
		    size < PD_REC_HDR_SIZE + (unsigned)ev->id_hdr_size ||
		    own_id(el, ev, rec, p, size - 8, &id))
			return 0;
		memcpy(out, p, size);
		pd_put_u64(out + size - 8, evid(ctx, ev));
		return size;
	}
	if (size + 8 > PD_REC_MAX)
		goto too_big;
	if (rec->type == PERF_RECORD_SAMPLE) {
		if (ev->id_pos < 0 ||
		    (off = PD_REC_HDR_SIZE + 8 * ev->id_pos) + 8 > size ||
		    !own_id(el, ev, rec, p, off, &id))
			id = evid(ctx, ev);
		memcpy(out, p, PD_REC_HDR_SIZE);
		pd_put_u64(out + PD_REC_HDR_SIZE, id);
		memcpy(out + PD_REC_HDR_SIZE + 8, p + PD_REC_HDR_SIZE,
		    size - PD_REC_HDR_SIZE);
	} else {
		if (size < PD_REC_HDR_SIZE + (unsigned)ev->id_hdr_size) {
			*why = "sample_id trailer does not fit the record";
			return -1;
		}
		if (ev->is_pos < 0 ||
		    !own_id(el, ev, rec, p, size - 8 * ev->is_pos, &id))
			id = evid(ctx, ev);
		memcpy(out, p, size);
		pd_put_u64(out + size, id);
	}
	pd_put_u16(out + 6, size + 8);
	return size + 8;

too_big:
	*why = "no room for PERF_SAMPLE_IDENTIFIER: record would exceed "
	    "65535 bytes";
	return -1;
}
