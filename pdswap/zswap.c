/* SPDX-License-Identifier: MIT */
#include "zswap.h"

#include <byteswap.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "libcommon/stream/event.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/reader.h"
#include "libcommon/stream/swap.h"
#include "libcommon/stream/writer.h"
#include "libcommon/stream/zdec.h"

/* perf: PERF_SAMPLE_MAX_SIZE - sizeof(compressed record header) - 1 */
#define REC_LIMIT	65536

/* Held records beyond this are written at once, chunking lost. */
#define HELD_MAX	(1024 * 1024)

struct held {
	size_t		 off, n;	/* in z->held */
	unsigned long	 seq;		/* after this many pushes */
};

struct zswap {
	const struct pd_evlist	*el;
	int			 in_native;
	int			 level;
	struct pd_writer	*w;
	ZSTD_CStream		*cs;
	uint32_t		 type;		/* of the pushes seen */

	unsigned char		*buf;		/* decompressed contents */
	size_t			 len, cap;
	size_t			 start;		/* not yet compressed */
	size_t			 conv;		/* converted up to here */
	size_t			*ends;		/* closed pushes not yet written */
	size_t			 nends, capends;
	int			 open;		/* a push is being read */
	unsigned long		 nclosed, nwritten;

	unsigned char		*held;
	size_t			 nheld, capheld;
	struct held		*hl;
	size_t			 nhl, caphl;

	unsigned char		 out[REC_LIMIT + 16];
	unsigned		 ninexact;
	const char		*inexact;
};

struct zswap *
zswap_new(const struct pd_evlist *el, int in_native, int level,
    struct pd_writer *w)
{
	struct zswap *z = calloc(1, sizeof(*z));

	if (z == NULL)
		return NULL;
	z->el = el;
	z->in_native = in_native;
	z->level = level;
	z->w = w;
	if ((z->cs = ZSTD_createCStream()) == NULL) {
		zswap_free(z);
		return NULL;
	}
	/* as perf record's zstd_init() */
	ZSTD_initCStream(z->cs, level);
	return z;
}

void
zswap_free(struct zswap *z)
{
	if (z == NULL)
		return;
	ZSTD_freeCStream(z->cs);
	free(z->buf);
	free(z->ends);
	free(z->held);
	free(z->hl);
	free(z);
}

int
zswap_pending(const struct zswap *z)
{
	return z->open || z->nends > 0;
}

unsigned
zswap_inexact(const struct zswap *z, const char **why)
{
	*why = z->inexact;
	return z->ninexact;
}

static int
nomem(struct pd_err *err)
{
	return pd_err_io(err, ENOMEM, "malloc");
}

static int
grow(void *pp, size_t *cap, size_t need, size_t elem)
{
	void **p = pp, *n;
	size_t c = *cap ? *cap : 64;

	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	if ((n = realloc(*p, c * elem)) == NULL)
		return -1;
	*p = n;
	*cap = c;
	return 0;
}

/* Converts every complete record after z->conv to the output order. */
static int
convert(struct zswap *z, uint64_t off, struct pd_err *err)
{
	unsigned char *p;
	const char *why;
	uint16_t size;
	uint32_t type;
	int r;

	while (z->len - z->conv >= PD_REC_HDR_SIZE) {
		p = z->buf + z->conv;
		size = pd_header_size(p);
		type = pd_header_type(p);
		if (!z->in_native) {
			size = bswap_16(size);
			type = bswap_32(type);
		}
		if (pd_zdec_inner_ok(type, size, off, err) < 0)
			return -1;
		if (z->len - z->conv < size)
			break;
		if (z->in_native) {
			r = pd_swap_rec_out(z->el, p, &why);
		} else {
			pd_swap_header(p);
			r = pd_swap_rec(z->el, p, &why);
		}
		if (r < 0)
			return pd_err_set(err, off, "inside compressed data: "
			    "%s: %s", pd_rec_name(type) ? pd_rec_name(type) :
			    "record", why);
		if (r > 0) {
			z->ninexact++;
			z->inexact = why;
		}
		z->conv += size;
	}
	return 0;
}

/*
 * One push, as perf's zstd_compress_stream_to_records() writes it:
 * compress + flush into at most one record's room, until the input is
 * consumed.
 */
static int
compress(struct zswap *z, const unsigned char *src, size_t n,
    struct pd_err *err)
{
	ZSTD_inBuffer in = { src, n, 0 };
	ZSTD_outBuffer out;
	size_t hdr = z->type == PD_RECORD_COMPRESSED2 ? 16 : 8, r, size;

	while (in.pos < in.size) {
		out.dst = z->out + hdr;
		out.size = REC_LIMIT - hdr - 1;
		out.pos = 0;
		r = ZSTD_compressStream(z->cs, &out, &in);
		if (ZSTD_isError(r)) {
			pd_err_set(err, 0, "zstd: %s", ZSTD_getErrorName(r));
			err->has_offset = 0;
			return -1;
		}
		ZSTD_flushStream(z->cs, &out);
		/* the output is the other order from the input's */
		pd_record_compressed_head(z->out, z->type, out.pos, &size,
		    z->in_native);
		memset(z->out + hdr + out.pos, 0, size - hdr - out.pos);
		if (pd_writer_put(z->w, z->out, size) < 0) {
			err->msg[0] = '\0';
			return -1;
		}
	}
	return 0;
}

/* Writes the held records that came after `seq` pushes. */
static int
write_held(struct zswap *z, int all, struct pd_err *err)
{
	size_t i = 0;

	while (i < z->nhl && (all || z->hl[i].seq <= z->nwritten)) {
		if (pd_writer_put(z->w, z->held + z->hl[i].off,
		    z->hl[i].n) < 0) {
			err->msg[0] = '\0';
			return -1;
		}
		i++;
	}
	if (i > 0 && i < z->nhl)
		memmove(z->hl, z->hl + i, (z->nhl - i) * sizeof(*z->hl));
	z->nhl -= i;
	if (z->nhl == 0)
		z->nheld = 0;
	return 0;
}

/* Writes every closed push whose records are all converted. */
static int
drain(struct zswap *z, struct pd_err *err)
{
	while (z->nends > 0 && z->ends[0] <= z->conv) {
		if (compress(z, z->buf + z->start, z->ends[0] - z->start,
		    err) < 0)
			return -1;
		z->start = z->ends[0];
		memmove(z->ends, z->ends + 1, --z->nends * sizeof(*z->ends));
		z->nwritten++;
		if (write_held(z, 0, err) < 0)
			return -1;
	}
	/* keep the unwritten bytes at the front */
	if (z->start > 0 && z->start == z->len) {
		z->len = z->conv = z->start = 0;
	} else if (z->start > (1 << 20)) {
		size_t i, d = z->start;

		memmove(z->buf, z->buf + d, z->len - d);
		z->len -= d;
		z->conv -= d;
		z->start = 0;
		for (i = 0; i < z->nends; i++)
			z->ends[i] -= d;
	}
	return 0;
}

static int
close_push(struct zswap *z, struct pd_err *err)
{
	if (!z->open)
		return 0;
	z->open = 0;
	if (grow(&z->ends, &z->capends, z->nends + 1, sizeof(*z->ends)) < 0)
		return nomem(err);
	z->ends[z->nends++] = z->len;
	z->nclosed++;
	return drain(z, err);
}

int
zswap_feed(struct zswap *z, struct pd_reader *rd, const struct pd_rec *rec,
    struct pd_err *err)
{
	const unsigned char *p;
	size_t n, limit;
	int r;

	/* Only its length: a push ends with a record that is not full. */
	if (pd_zdec_frame(rec, &p, &n, err) < 0)
		return -1;
	limit = REC_LIMIT - (rec->type == PD_RECORD_COMPRESSED2 ? 16 : 8) - 1;
	if (z->open && rec->type != z->type && close_push(z, err) < 0)
		return -1;
	z->type = rec->type;
	z->open = 1;
	do {
		if (grow(&z->buf, &z->cap, z->len + ZSTD_DStreamOutSize(), 1) < 0)
			return nomem(err);
		r = pd_reader_inflate(rd, rec, z->buf, z->cap, &z->len);
	} while (r > 0);
	if (r < 0) {
		*err = *pd_reader_err(rd);
		return -1;
	}
	if (convert(z, rec->offset, err) < 0)
		return -1;
	/* perf ends a push with a record that is not full */
	if (n < limit)
		return close_push(z, err);
	return drain(z, err);
}

int
zswap_hold(struct zswap *z, const unsigned char *p, size_t n,
    struct pd_err *err)
{
	if (z->nheld + n > HELD_MAX && zswap_flush(z, 1, err) < 0)
		return -1;
	if (!zswap_pending(z)) {
		if (pd_writer_put(z->w, p, n) < 0) {
			err->msg[0] = '\0';
			return -1;
		}
		return 0;
	}
	if (grow(&z->held, &z->capheld, z->nheld + n, 1) < 0 ||
	    grow(&z->hl, &z->caphl, z->nhl + 1, sizeof(*z->hl)) < 0)
		return nomem(err);
	memcpy(z->held + z->nheld, p, n);
	z->hl[z->nhl].off = z->nheld;
	z->hl[z->nhl].n = n;
	z->hl[z->nhl].seq = z->nclosed;
	z->nhl++;
	z->nheld += n;
	return 0;
}

int
zswap_flush(struct zswap *z, int force, struct pd_err *err)
{
	if (close_push(z, err) < 0)
		return -1;
	if (!force || z->nends == 0)
		return 0;
	/* what can be converted goes now, as one push */
	if (z->conv > z->start &&
	    compress(z, z->buf + z->start, z->conv - z->start, err) < 0)
		return -1;
	z->start = z->conv;
	z->nends = 0;
	z->nwritten = z->nclosed;
	if (write_held(z, 1, err) < 0)
		return -1;
	if (z->conv < z->len) {
		/* an incomplete record: the caller reports it at the end */
		z->ends[0] = z->len;
		z->nends = 1;
	}
	return 0;
}
