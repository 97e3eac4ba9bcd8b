/* SPDX-License-Identifier: MIT */
#include "libcommon/ids.h"

#include "libcommon/evlist.h"
#include "libcommon/perf.h"
#include "libcommon/record.h"
#include "libcommon/sample.h"

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
