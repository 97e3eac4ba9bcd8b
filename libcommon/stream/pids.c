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
shift32(unsigned char *p, uint32_t base)
{
	uint32_t v = pd_get_u32(p);

	if (v != 0 && v != UINT32_MAX)
		pd_put_u32(p, v + base);
}

static void
shift_fixed(void *ctx, size_t off, unsigned width)
{
	struct shift *s = ctx;
	uint64_t v;

	if (width == 4) {
		shift32(s->p + off, s->base);
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

/* pd_pids_shift_ev but for SAMPLEs. */
static __attribute__((noinline)) int
shift_other(const struct pd_evsel *ev, const struct pd_rec *rec,
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
	shift32(p + at + ev->trailer.tid, base);
	shift32(p + at + ev->trailer.tid + 4, base);
	return 0;
}

int
pd_pids_shift_ev(const struct pd_evsel *ev, const struct pd_rec *rec,
    unsigned char *p, uint32_t base, const char **why)
{
	/* Most records: a SAMPLE, its pid and tid in its head. */
	if (rec->type != PERF_RECORD_SAMPLE)
		return shift_other(ev, rec, p, base, why);
	if (ev == NULL || ev->head.tid == PD_HEAD_NONE)
		return 0;
	if (pd_sample_head_check(&ev->head, rec, why) < 0)
		return -1;
	shift32(p + PD_REC_HDR_SIZE + ev->head.tid, base);
	shift32(p + PD_REC_HDR_SIZE + ev->head.tid + 4, base);
	return 0;
}
