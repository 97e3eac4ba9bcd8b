/* SPDX-License-Identifier: MIT */
#include "libcommon/zdec.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "libcommon/perf.h"
#include "libcommon/swap.h"

/* Room for the largest record plus a good run of decompressed output. */
#define OUT_SIZE	(512 * 1024)

struct pd_zdec {
	ZSTD_DStream		*ds;
	const struct pd_evlist	*el;
	int			 swapped;
	ZSTD_inBuffer		 in;
	uint64_t		 in_off;	/* offset of the fed record */
	unsigned char		*out;
	size_t			 pos, end;	/* undelivered out[pos, end) */
	int			 full;	/* the last call filled out: zstd may
					   hold more output of this input */
};

struct pd_zdec *
pd_zdec_new(const struct pd_evlist *el, int swapped)
{
	struct pd_zdec *z = calloc(1, sizeof(*z));

	if (z == NULL || (z->out = malloc(OUT_SIZE)) == NULL ||
	    (z->ds = ZSTD_createDStream()) == NULL) {
		pd_zdec_free(z);
		return NULL;
	}
	ZSTD_initDStream(z->ds);
	z->el = el;
	z->swapped = swapped;
	return z;
}

void
pd_zdec_free(struct pd_zdec *z)
{
	if (z == NULL)
		return;
	ZSTD_freeDStream(z->ds);
	free(z->out);
	free(z);
}

int
pd_zdec_feed(struct pd_zdec *z, const struct pd_rec *rec, struct pd_err *err)
{
	const unsigned char *p = rec->data + PD_REC_HDR_SIZE;
	size_t n = rec->size - PD_REC_HDR_SIZE;

	if (rec->type == PD_RECORD_COMPRESSED2) {
		uint64_t dsize;

		if (n < 8)
			return pd_err_set(err, rec->offset, "COMPRESSED2 "
			    "record size %u < 16", rec->size);
		dsize = pd_get_u64(p);
		if (dsize > n - 8)
			return pd_err_set(err, rec->offset, "COMPRESSED2 "
			    "data_size %" PRIu64 " runs past record size %u",
			    dsize, rec->size);
		p += 8;
		n = dsize;
	}
	z->in.src = p;
	z->in.size = n;
	z->in.pos = 0;
	z->in_off = rec->offset;
	return 0;
}

int
pd_zdec_next(struct pd_zdec *z, struct pd_rec *rec, struct pd_err *err)
{
	ZSTD_outBuffer out;
	unsigned char *p;
	uint16_t size;
	size_t r;

	for (;;) {
		if (z->end - z->pos >= PD_REC_HDR_SIZE) {
			p = z->out + z->pos;
			if (z->swapped)
				pd_swap_header(p);
			size = pd_get_u16(p + 6);
			if (size < PD_REC_HDR_SIZE)
				return pd_err_set(err, z->in_off, "record "
				    "size %u < 8 inside compressed data", size);
			if (z->end - z->pos >= size)
				break;
			if (z->swapped)		/* swapped again when whole */
				pd_swap_header(p);
		}
		if (z->in.pos == z->in.size && !z->full)
			return 0;
		if (z->pos > 0) {
			memmove(z->out, z->out + z->pos, z->end - z->pos);
			z->end -= z->pos;
			z->pos = 0;
		}
		out.dst = z->out;
		out.size = OUT_SIZE;
		out.pos = z->end;
		r = ZSTD_decompressStream(z->ds, &out, &z->in);
		if (ZSTD_isError(r))
			return pd_err_set(err, z->in_off, "corrupt zstd data: "
			    "%s", ZSTD_getErrorName(r));
		z->full = out.pos == out.size;
		z->end = out.pos;
	}
	if (z->swapped) {
		const char *why;

		if (pd_swap_rec(z->el, p, &why) < 0)
			return pd_err_set(err, z->in_off, "inside compressed "
			    "data: %s", why);
	}
	rec->offset = z->in_off;
	rec->data = p;
	rec->type = pd_get_u32(p);
	rec->misc = pd_get_u16(p + 4);
	rec->size = size;
	rec->payload = 0;
	rec->flags = PD_REC_DECOMPRESSED;
	z->pos += size;
	if (rec->type == PD_RECORD_HEADER_TRACING_DATA ||
	    rec->type == PD_RECORD_AUXTRACE)
		return pd_err_set(err, z->in_off, "a record with out-of-band "
		    "data inside compressed data");
	return 1;
}

int
pd_zdec_end(struct pd_zdec *z, struct pd_err *err)
{
	if (z->end > z->pos)
		return pd_err_set(err, z->in_off, "compressed data ends in "
		    "the middle of a record (%zu bytes left)", z->end - z->pos);
	return 0;
}
