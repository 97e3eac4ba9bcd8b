/* SPDX-License-Identifier: MIT */
#include "libcommon/stream/ids.h"

#include <string.h>

#include "libcommon/stream/event.h"
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

int
pd_ids_map_read(const struct pd_evsel *ev, unsigned char *p, unsigned off,
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

/* One id named by a record's fixed fields (pd_record_id_offsets). */
struct fixed_map {
	unsigned char	*p;
	pd_id_map_fn	 map;
	void		*ctx;
};

static void
map_fixed(void *vctx, size_t off)
{
	struct fixed_map *f = vctx;

	map_at(f->p, off, f->map, f->ctx);
}

int
pd_ids_map(const struct pd_evlist *el, const struct pd_rec *rec,
    unsigned char *p, pd_id_map_fn map, void *ctx, const char **why)
{
	return pd_ids_map_ev(el, pd_rec_is_kernel(rec->type) ?
	    pd_evlist_for_rec(el, rec) : NULL, rec, p, map, ctx, why);
}

int
pd_ids_map_rest(const struct pd_evsel *ev, const struct pd_rec *rec,
    unsigned char *p, pd_id_map_fn map, void *ctx, const char **why)
{
	struct pd_record_read rr;
	struct pd_rec r = *rec;
	struct fixed_map f = { p, map, ctx };
	long at;

	r.data = p;
	if (!pd_rec_is_kernel(rec->type)) {
		pd_record_id_offsets(&r, map_fixed, &f);
		return 0;
	}
	if (ev == NULL)
		return 0;
	/* LOST and THROTTLE name theirs; the event was found first */
	pd_record_id_offsets(&r, map_fixed, &f);
	/* READ values end at the trailer (one that does not fit is said
	 * below) */
	if (rec->type == PERF_RECORD_READ &&
	    pd_record_read_parse(&r, &rr) == 0 &&
	    (at = pd_sample_id_start(ev, rec->size)) >= 0 &&
	    pd_ids_map_read(ev, p, rr.values - p, at, map, ctx) < 0) {
		*why = "read values run past the record";
		return -1;
	}
	/* The trailer's ids, as pd_sample_id_parse finds them. */
	if (ev->id_hdr_size == 0)
		return 0;
	if ((at = pd_sample_id_start(ev, rec->size)) < 0) {
		*why = "sample_id trailer does not fit the record";
		return -1;
	}
	if (ev->trailer.identifier != PD_HEAD_NONE)
		map_at(p, at + ev->trailer.identifier, map, ctx);
	if (ev->trailer.id != PD_HEAD_NONE)
		map_at(p, at + ev->trailer.id, map, ctx);
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
	struct pd_sample_id_layout l;
	unsigned o = rec->size;

	pd_sample_id_layout(ev->attr.sample_type | PERF_SAMPLE_IDENTIFIER, &l);
	if (o + l.size > PD_REC_MAX) {
		*why = "no room for a sample_id_all trailer: record would "
		    "exceed 65535 bytes";
		return -1;
	}
	memcpy(out, p, o);
	memset(out + o, 0xff, l.size);
	if (l.id != PD_HEAD_NONE)
		pd_put_u64(out + o + l.id, id);
	pd_put_u64(out + o + l.identifier, id);
	pd_header_set_size(out, o + l.size);
	return o + l.size;
}

int
pd_ids_add_identifier(const struct pd_evlist *el, const struct pd_rec *rec,
    const unsigned char *p, unsigned char *out, pd_ev_id_fn evid, void *ctx,
    const char **why)
{
	return pd_ids_add_identifier_ev(el, pd_rec_is_kernel(rec->type) ?
	    pd_evlist_for_rec(el, rec) : NULL, rec, p, out, evid, ctx, why);
}

int
pd_ids_add_identifier_rest(const struct pd_evlist *el,
    const struct pd_evsel *ev, const struct pd_rec *rec,
    const unsigned char *p, unsigned char *out, pd_ev_id_fn evid, void *ctx,
    const char **why)
{
	struct pd_record_header_attr a;
	struct pd_rec r;
	unsigned size = rec->size, off;
	uint64_t st, fl, id;
	long at;

	if (rec->type == PD_RECORD_HEADER_ATTR) {
		r = *rec;
		r.data = p;
		if (el->n == 0 || pd_record_header_attr_parse(&r, &a) < 0) {
			*why = "ATTR record without its event";
			return -1;
		}
		ev = &el->evsels[el->n - 1];
		st = pd_get_u64(a.attr + PD_ATTR_OFF_SAMPLE_TYPE);
		fl = pd_get_u64(a.attr + PD_ATTR_OFF_FLAGS);
		if ((st & PERF_SAMPLE_IDENTIFIER) &&
		    (fl & PD_ATTR_SAMPLE_ID_ALL))
			return 0;
		if (a.ids == NULL) {
			*why = "attr does not fit the ATTR record";
			return -1;
		}
		memcpy(out, p, size);
		off = a.attr - p;
		pd_put_u64(out + off + PD_ATTR_OFF_SAMPLE_TYPE,
		    st | PERF_SAMPLE_IDENTIFIER);
		pd_put_u64(out + off + PD_ATTR_OFF_FLAGS,
		    fl | PD_ATTR_SAMPLE_ID_ALL);
		if ((st & PERF_SAMPLE_IDENTIFIER) || a.nids > 0)
			return size;
		/* No ids: samples would name none; give the event one. */
		if (size + 8 > PD_REC_MAX)
			goto too_big;
		pd_put_u64(out + size, evid(ctx, ev));
		pd_header_set_size(out, size + 8);
		return size + 8;
	}
	if (!pd_rec_is_kernel(rec->type) || ev == NULL)
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
		    (at = pd_sample_id_start(ev, size)) < 0 ||
		    own_id(el, ev, rec, p, at + ev->trailer.identifier, &id))
			return 0;
		memcpy(out, p, size);
		pd_put_u64(out + at + ev->trailer.identifier, evid(ctx, ev));
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
		if (pd_sample_id_start(ev, size) < 0) {
			*why = "sample_id trailer does not fit the record";
			return -1;
		}
		if (ev->is_pos < 0 ||
		    !own_id(el, ev, rec, p, size - 8 * ev->is_pos, &id))
			id = evid(ctx, ev);
		memcpy(out, p, size);
		pd_put_u64(out + size, id);
	}
	pd_header_set_size(out, size + 8);
	return size + 8;

too_big:
	*why = "no room for PERF_SAMPLE_IDENTIFIER: record would exceed "
	    "65535 bytes";
	return -1;
}
