/* SPDX-License-Identifier: MIT */
#include "libcommon/stream/zenc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "libcommon/stream/event.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/record.h"
#include "libcommon/stream/writer.h"

/*
 * The largest payload of one compressed record: header.size is a u16.
 * COMPRESSED: 8-byte header + data (perf: 64 KiB - header - 1).
 * COMPRESSED2: 16 bytes (header, data_size) + data, padded to 8, so the
 * data may be at most 65528 - 16 bytes.
 */
#define MAX_DATA1	(PD_REC_MAX - PD_REC_HDR_SIZE)
#define MAX_DATA2	((PD_REC_MAX & ~7) - 16)

/*
 * The decompressed size of one compressed record is at most a chunk; the
 * feature says twice that, so that a reader that sizes its buffer from
 * it (perf) has room to spare.
 */
#define MMAP_LEN	(2 * PD_ZENC_CHUNK)

struct pd_zenc {
	struct pd_writer	*w;
	ZSTD_CStream		*cs;
	uint32_t		 type;
	int			 level;
	int			 feat_done;
	unsigned char		*chunk;
	size_t			 clen;
	unsigned char		*out;
	size_t			 out_cap;
	uint64_t		 in_bytes, out_bytes;
};

struct pd_zenc *
pd_zenc_new(struct pd_writer *w, int level, uint32_t type)
{
	struct pd_zenc *z;

	if (level < 1 || level > PD_ZENC_LEVEL_MAX ||
	    (type != PD_RECORD_COMPRESSED && type != PD_RECORD_COMPRESSED2)) {
		errno = EINVAL;
		return NULL;
	}
	if ((z = calloc(1, sizeof(*z))) == NULL)
		return NULL;
	z->w = w;
	z->type = type;
	z->level = level;
	z->out_cap = ZSTD_compressBound(PD_ZENC_CHUNK) + 64;
	if ((z->chunk = malloc(PD_ZENC_CHUNK)) == NULL ||
	    (z->out = malloc(z->out_cap)) == NULL ||
	    (z->cs = ZSTD_createCStream()) == NULL) {
		pd_zenc_free(z);
		errno = ENOMEM;
		return NULL;
	}
	/* As perf's ZSTD_initCStream(level): no checksum, size unknown. */
	if (ZSTD_isError(ZSTD_CCtx_setParameter(z->cs,
	    ZSTD_c_compressionLevel, level))) {
		pd_zenc_free(z);
		errno = EINVAL;
		return NULL;
	}
	return z;
}

int
pd_zenc_feature(struct pd_zenc *z)
{
	/* type 1: zstd; the ratio is unknown in a pipe */
	struct pd_feat_compressed c = { 0, 1, z->level, 0, MMAP_LEN };
	unsigned char f[64];

	if (z->feat_done)
		return 0;
	z->feat_done = 1;
	return pd_writer_put(z->w, f, pd_feat_compressed_build(f, sizeof(f),
	    &c, 0));
}

/* Writes compressed bytes as records of at most the largest payload. */
static int
emit(struct pd_zenc *z, const unsigned char *p, size_t n)
{
	static const unsigned char zeros[8];
	unsigned char h[16];
	size_t k, head, size;

	while (n > 0) {
		if (z->type == PD_RECORD_COMPRESSED)
			k = n < MAX_DATA1 ? n : MAX_DATA1;
		else
			k = n < MAX_DATA2 ? n : MAX_DATA2;
		head = pd_record_compressed_head(h, z->type, k, &size, 0);
		if (pd_writer_put(z->w, h, head) < 0 ||
		    pd_writer_put(z->w, p, k) < 0 ||
		    pd_writer_put(z->w, zeros, size - head - k) < 0)
			return -1;
		z->out_bytes += k;
		p += k;
		n -= k;
	}
	return 0;
}

/* Compresses n <= PD_ZENC_CHUNK bytes as one flushed chunk. */
static int
compress(struct pd_zenc *z, const void *p, size_t n)
{
	ZSTD_inBuffer in = { p, n, 0 };
	ZSTD_outBuffer out;
	size_t r;

	if (pd_zenc_feature(z) < 0)
		return -1;
	z->in_bytes += n;
	do {
		out.dst = z->out;
		out.size = z->out_cap;
		out.pos = 0;
		r = ZSTD_compressStream2(z->cs, &out, &in, ZSTD_e_flush);
		if (ZSTD_isError(r)) {
			errno = EIO;
			return -1;
		}
		if (emit(z, z->out, out.pos) < 0)
			return -1;
	} while (r != 0);
	return 0;
}

int
pd_zenc_flush(struct pd_zenc *z)
{
	size_t n = z->clen;

	if (n == 0)
		return 0;
	z->clen = 0;
	return compress(z, z->chunk, n);
}

int
pd_zenc_put(struct pd_zenc *z, const void *p, size_t n)
{
	const unsigned char *q = p;
	size_t k;

	while (n > 0) {
		/* Whole chunks straight from the caller's bytes. */
		if (z->clen == 0 && n >= PD_ZENC_CHUNK) {
			if (compress(z, q, PD_ZENC_CHUNK) < 0)
				return -1;
			q += PD_ZENC_CHUNK;
			n -= PD_ZENC_CHUNK;
			continue;
		}
		k = PD_ZENC_CHUNK - z->clen;
		if (k > n)
			k = n;
		memcpy(z->chunk + z->clen, q, k);
		z->clen += k;
		q += k;
		n -= k;
		if (z->clen == PD_ZENC_CHUNK && pd_zenc_flush(z) < 0)
			return -1;
	}
	return 0;
}

int
pd_zenc_plain(struct pd_zenc *z, const void *p, size_t n)
{
	if (pd_zenc_flush(z) < 0)
		return -1;
	return pd_writer_put(z->w, p, n);
}

int
pd_zenc_rec(struct pd_zenc *z, const struct pd_rec *rec)
{
	struct pd_record_header_feature f;

	if (rec->type == PD_RECORD_COMPRESSED ||
	    rec->type == PD_RECORD_COMPRESSED2) {
		errno = EINVAL;
		return -1;
	}
	if (pd_rec_is_kernel(rec->type)) {
		if (z->clen + rec->size > PD_ZENC_CHUNK &&
		    pd_zenc_flush(z) < 0)
			return -1;
		memcpy(z->chunk + z->clen, rec->data, rec->size);
		z->clen += rec->size;
		return 0;
	}
	if (pd_zenc_flush(z) < 0)
		return -1;
	if (pd_record_header_feature_parse(rec, &f) == 0) {
		if (f.feat_id == PD_FEAT_COMPRESSED)
			return pd_zenc_feature(z);
		if (f.feat_id > PD_FEAT_COMPRESSED && pd_zenc_feature(z) < 0)
			return -1;
	}
	return pd_writer_rec(z->w, rec);
}

void
pd_zenc_stats(const struct pd_zenc *z, uint64_t *in, uint64_t *out)
{
	*in = z->in_bytes;
	*out = z->out_bytes;
}

int
pd_zenc_free(struct pd_zenc *z)
{
	int r;

	if (z == NULL)
		return 0;
	r = z->chunk != NULL ? pd_zenc_flush(z) : 0;
	ZSTD_freeCStream(z->cs);
	free(z->chunk);
	free(z->out);
	free(z);
	return r;
}
