/* SPDX-License-Identifier: MIT */
#include "libcommon/stream/zdec.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "libcommon/stream/event.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/swap.h"

/* Room for the largest record plus a good run of decompressed output. */
#define OUT_SIZE	(512 * 1024)

struct pd_zdec {
	ZSTD_DStream		*ds;
	const struct pd_evlist	*el;
	int			 swapped;
	ZSTD_inBuffer		 in;
	uint64_t		 in_off;	/* offset of the fed record */
	uint32_t		 in_type;
	int			 more;		/* zstd may hold more output */
	size_t			 hint;		/* zstd's last return value */
	uint64_t		 produced;	/* from the fed record */
	uint64_t		 limit;
	uint64_t		 total_in;	/* compressed bytes taken */
	uint64_t		 total_out;	/* and what they gave */
	unsigned char		*out;
	size_t			 pos, end;	/* undelivered out[pos, end) */
	unsigned		 ninexact;	/* swapped only in part */
	const char		*inexact;
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
	z->limit = PD_ZDEC_LIMIT_MIN;
	z->el = el;
	z->swapped = swapped;
	return z;
}

void
pd_zdec_set_limit(struct pd_zdec *z, uint64_t mmap_len)
{
	z->limit = mmap_len < PD_ZDEC_LIMIT_MIN ? PD_ZDEC_LIMIT_MIN :
	    mmap_len > PD_ZDEC_LIMIT_MAX ? PD_ZDEC_LIMIT_MAX : mmap_len;
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
pd_zdec_frame(const struct pd_rec *rec, const unsigned char **p, size_t *n,
    struct pd_err *err)
{
	struct pd_record_compressed c;

	*p = NULL;
	*n = 0;
	if (pd_record_compressed_parse(rec, &c) < 0) {
		if (rec->size < 16)
			return pd_err_set(err, rec->offset, "COMPRESSED2 "
			    "record size %u < 16", rec->size);
		return pd_err_set(err, rec->offset, "COMPRESSED2 data_size %"
		    PRIu64 " runs past record size %u", (uint64_t)c.data_size,
		    rec->size);
	}
	*p = c.data;
	*n = c.data_size;
	return 0;
}

int
pd_zdec_inner_ok(uint32_t type, uint16_t size, uint64_t off,
    struct pd_err *err)
{
	if (size < PD_REC_HDR_SIZE)
		return pd_err_set(err, off, "record size %u < 8 inside "
		    "compressed data", size);
	if (type == PD_RECORD_HEADER_TRACING_DATA ||
	    type == PD_RECORD_AUXTRACE)
		return pd_err_set(err, off, "a record with out-of-band data "
		    "inside compressed data");
	if (type == PD_RECORD_COMPRESSED || type == PD_RECORD_COMPRESSED2)
		return pd_err_set(err, off, "a compressed record inside "
		    "compressed data");
	return 0;
}

int
pd_zdec_feed(struct pd_zdec *z, const struct pd_rec *rec, struct pd_err *err)
{
	const unsigned char *p;
	size_t n;

	if (pd_zdec_frame(rec, &p, &n, err) < 0)
		return -1;
	z->in.src = p;
	z->in.size = n;
	z->in.pos = 0;
	z->in_off = rec->offset;
	z->in_type = rec->type;
	z->produced = 0;
	return 0;
}

int
pd_zdec_inflate(struct pd_zdec *z, unsigned char *dst, size_t cap,
    size_t *pos, struct pd_err *err)
{
	ZSTD_outBuffer out = { dst, cap, *pos };
	size_t r, in_pos = z->in.pos;

	/*
	 * All input taken is not enough: when the last call filled the
	 * buffer, zstd may still hold decoded bytes, which must come out
	 * before any record that follows in the input.
	 */
	if (z->in.pos == z->in.size && !z->more)
		return 0;
	r = ZSTD_decompressStream(z->ds, &out, &z->in);
	if (ZSTD_isError(r))
		return pd_err_set(err, z->in_off, "%s: corrupt zstd data: %s",
		    pd_rec_name(z->in_type), ZSTD_getErrorName(r));
	z->more = out.pos == out.size;
	/*
	 * A call that moved nothing (the one that finds a full buffer was
	 * all there was) would report the start of a next frame instead
	 * of where the data ended.
	 */
	if (z->in.pos != in_pos || out.pos != *pos)
		z->hint = r;
	z->produced += out.pos - *pos;
	z->total_in += z->in.pos - in_pos;
	z->total_out += out.pos - *pos;
	*pos = out.pos;
	if (z->produced > z->limit)
		return pd_err_set(err, z->in_off, "%s record expands past %"
		    PRIu64 " bytes (a zstd bomb?)", pd_rec_name(z->in_type),
		    z->limit);
	if (!pd_zdec_ratio_ok(z->total_in, z->total_out))
		return pd_err_set(err, z->in_off, "compressed data expand "
		    "more than %d times: %" PRIu64 " bytes from %" PRIu64
		    " (a zstd bomb?)", PD_ZDEC_RATIO_MAX, z->total_out,
		    z->total_in);
	return 1;
}

int
pd_zdec_next(struct pd_zdec *z, struct pd_rec *rec, struct pd_err *err)
{
	unsigned char *p;
	uint16_t size;
	int r;

	for (;;) {
		if (z->end - z->pos >= PD_REC_HDR_SIZE) {
			p = z->out + z->pos;
			if (z->swapped)
				pd_swap_header(p);
			size = pd_header_size(p);
			if (pd_zdec_inner_ok(pd_header_type(p), size,
			    z->in_off, err) < 0)
				return -1;
			if (z->end - z->pos >= size)
				break;
			if (z->swapped)		/* swapped again when whole */
				pd_swap_header(p);
		}
		if (z->pos > 0) {
			memmove(z->out, z->out + z->pos, z->end - z->pos);
			z->end -= z->pos;
			z->pos = 0;
		}
		if ((r = pd_zdec_inflate(z, z->out, OUT_SIZE, &z->end,
		    err)) <= 0)
			return r;
	}
	if (z->swapped) {
		const char *why;
		int sr;

		if ((sr = pd_swap_rec(z->el, p, &why)) < 0)
			return pd_err_set(err, z->in_off, "inside compressed "
			    "data: %s", why);
		if (sr > 0) {
			z->ninexact++;
			z->inexact = why;
		}
	}
	pd_rec_view(rec, p);
	rec->offset = z->in_off;
	rec->flags = PD_REC_DECOMPRESSED;
	z->pos += size;
	return 1;
}

int
pd_zdec_end(struct pd_zdec *z, struct pd_err *err)
{
	/*
	 * perf flushes after every push, so its data ends where zstd
	 * expects the next block header: a hint of 3 bytes (the header),
	 * or 0 when the frame was ended. Anything else is a block cut
	 * short, whose records are lost.
	 */
	if (z->hint != 0 && z->hint != 3)
		return pd_err_set(err, z->in_off, "compressed data ends "
		    "inside a zstd block (%zu bytes missing)",
		    z->hint > 3 ? z->hint - 3 : z->hint);
	if (z->end > z->pos)
		return pd_err_set(err, z->in_off, "compressed data ends in "
		    "the middle of a record (%zu bytes left)", z->end - z->pos);
	return 0;
}

unsigned
pd_zdec_inexact(const struct pd_zdec *z, const char **what)
{
	if (what != NULL && z->inexact != NULL)
		*what = z->inexact;
	return z->ninexact;
}
