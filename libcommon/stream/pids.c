/* SPDX-License-Identifier: MIT */
#include "libcommon/stream/pids.h"

#include "libcommon/stream/event.h"
#include "libcommon/stream/evlist.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/record.h"
#include "libcommon/stream/sample.h"
#include "libcommon/stream/samplehead.h"

struct shift {
	unsigned char	*p;
	uint32_t	 base;
};

static void
shift_fixed(void *ctx, size_t off, unsigned width)
{
	struct shift *s = ctx;
	uint64_t v;

	if (width == 4) {
		pd_pids_shift32(s->p + off, s->base);
		return;
	}
	v = pd_get_u64(s->p + off);
	if (v != 0 && v != UINT64_MAX && v != UINT32_MAX)
		pd_put_u64(s->p + off, v + s->base);
}

int
pd_pids_shift(const struct pd_evlist *el, const struct pd_rec *rec,
    unsigned char *p, uint32_t base, const char **why)
{
	return pd_pids_shift_ev(pd_rec_is_kernel(rec->type) ?
	    pd_evlist_for_rec(el, rec) : NULL, rec, p, base, why);
}

int
pd_pids_shift_rest(const struct pd_evsel *ev, const struct pd_rec *rec,
    unsigned char *p, uint32_t base, const char **why)
{
	struct shift s = { p, base };
	struct pd_rec r = *rec;
	long at;

	r.data = p;
	pd_record_pid_offsets(&r, shift_fixed, &s);
	if (!pd_rec_is_kernel(rec->type) || ev == NULL ||
	    ev->id_hdr_size == 0 || ev->trailer.tid == PD_HEAD_NONE)
		return 0;
	if ((at = pd_sample_id_start(ev, rec->size)) < 0) {
		*why = "sample_id trailer does not fit the record";
		return -1;
	}
	pd_pids_shift32(p + at + ev->trailer.tid, base);
	pd_pids_shift32(p + at + ev->trailer.tid + 4, base);
	return 0;
}
