/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the reader (pipe and file mode, either byte order,
 * compressed or not) with everything a tool does to each record: sample
 * and trailer parsing, id rewriting, header facts, payloads, the
 * tracing formats, and the decoders behind pddump (samples, records,
 * attrs, feature bodies), whose two ways of reading a sample's head
 * must agree (dhead_agree).
 * fuzz_filemode.c includes this file with FUZZ_WALK_ONLY for walk().
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "libcommon/stream/decode.h"
#include "libcommon/stream/event.h"
#include "libcommon/stream/evlist.h"
#include "libcommon/stream/feature.h"
#include "libcommon/stream/ids.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/reader.h"
#include "libcommon/stream/sample.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t
bump(void *ctx, uint64_t id)
{
	return id + 1;
}

/* A visitor that touches every value, as a printer would. */
static void
val(void *ctx, const struct pd_dval *v)
{
	unsigned *sum = ctx;

	*sum += (unsigned)v->u + (unsigned)v->len;
	if (v->p != NULL && v->len > 0)
		*sum += ((const unsigned char *)v->p)[v->len - 1];
}

static void
open_close(void *ctx, const char *name, int list)
{
}

static void
close_(void *ctx, int list)
{
}

/*
 * pd_dhead_read's two ways agree: the record as read (by the layout
 * when it is exactly its event's shape) and with 8 bytes more (never
 * the shape: parsed). Every sampled head value and the callchain must
 * be the same; a difference aborts, which the fuzzer reports.
 */
static void
dhead_agree(const struct pd_evsel *ev, const struct pd_rec *rec,
    unsigned char *scratch)
{
	struct pd_dhead_vals a, b;
	struct pd_rec r2 = *rec;
	uint64_t st = ev->attr.sample_type;
	const char *why;
	unsigned i;

	if (!pd_dhead_only(ev) || rec->size + 8 > PD_REC_MAX)
		return;
	memcpy(scratch, rec->data, rec->size);
	memset(scratch + rec->size, 0x5a, 8);
	pd_header_put(scratch, rec->type, rec->misc, rec->size + 8, 0);
	r2.data = scratch;
	r2.size = rec->size + 8;
	/* Called for samples pd_sample_parse took: both ways must too. */
	if (pd_dhead_read(ev, rec, &a, &why) < 0 ||
	    pd_dhead_read(ev, &r2, &b, &why) < 0)
		abort();
	for (i = 0; i < PD_DHEAD_N; i++)
		if ((pd_dhead[i].how == PD_DH_ALWAYS ||
		    (st & pd_dhead[i].bits)) && a.v[i] != b.v[i])
			abort();
	if (a.callchain_nr != b.callchain_nr || (a.callchain_nr > 0 &&
	    a.callchain - rec->data != b.callchain - scratch))
		abort();
}

static void
walk(int fd, int flags)
{
	static unsigned char scratch[PD_REC_MAX + 1];
	struct pd_header_info hi;
	struct pd_reader *rd;
	struct pd_sample s;
	struct pd_err err;
	struct pd_rec rec;
	const unsigned char *p;
	const char *why;
	unsigned dsum = 0;
	struct pd_dvisit dv = { val, open_close, close_, &dsum, NULL };

	lseek(fd, 0, SEEK_SET);
	if ((rd = pd_reader_fdopen(fd, "fuzz", flags, &err)) == NULL)
		return;
	memset(&hi, 0, sizeof(hi));
	while (pd_reader_next(rd, &rec) > 0) {
		const struct pd_evlist *el = pd_reader_evlist(rd);
		const struct pd_evsel *ev = pd_evlist_for_rec(el, &rec);

		pd_header_info_update(&hi, &rec);
		if (ev != NULL && rec.type == PERF_RECORD_SAMPLE) {
			if (pd_sample_parse(ev, &rec, &s, &why) == 0) {
				uint64_t i, v, id, lost, sum = 0;

				dhead_agree(ev, &rec, scratch);

				for (i = 0; i < s.read_nr; i++) {
					pd_sample_read_entry(&s, i, &v, &id,
					    &lost);
					sum += v + id + lost;
				}
				for (i = 0; i < s.callchain_nr; i++)
					sum += pd_get_u64(s.callchain + 8 * i);
				if (s.raw_size)
					sum += s.raw[s.raw_size - 1];
				if (s.stack_size)
					sum += s.stack[s.stack_size - 1];
				(void)sum;
			}
		} else if (ev != NULL && pd_rec_is_kernel(rec.type))
			pd_sample_id_parse(ev, &rec, &s, &why);
		pd_sample_rec_time(ev, &rec);
		if (rec.type == PERF_RECORD_SAMPLE)
			pd_decode_sample(&rec, el, &dv, &why);
		else
			pd_decode_rec(&rec, ev, &dv, &why);
		if (rec.type == PD_RECORD_HEADER_ATTR && rec.size > 8)
			pd_decode_attr(rec.data + 8, rec.size - 8, &dv, &why);
		if (pd_feat_id(&rec) >= 0)
			pd_decode_feature(pd_feat_id(&rec), rec.data + 16,
			    rec.size - 16, &dv, &why);
		memcpy(scratch, rec.data, rec.size);
		pd_ids_map(el, &rec, scratch, bump, NULL, &why);
		if (rec.payload && (rec.type & 1))
			while (pd_reader_payload(rd, &p) > 0)
				;
	}
	pd_reader_close(rd);
}

#ifndef FUZZ_WALK_ONLY
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz", 0);

	if (fd < 0)
		return 0;
	if (write(fd, data, size) == (ssize_t)size) {
		walk(fd, 0);
		walk(fd, PD_RD_DECOMPRESS | PD_RD_KEEP_COMPRESSED |
		    PD_RD_TRACEFMT);
	}
	close(fd);
	return 0;
}
#endif /* !FUZZ_WALK_ONLY */
