/* SPDX-License-Identifier: MIT */
#include "pdstat/pb.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#define WT_VARINT	0
#define WT_LEN		2

static int
grow(struct pb *b, size_t more)
{
	unsigned char *p;
	size_t cap;

	if (b->oom)
		return -1;
	if (b->n + more <= b->cap)
		return 0;
	for (cap = b->cap ? b->cap : 256; cap < b->n + more; cap *= 2)
		;
	if ((p = realloc(b->p, cap)) == NULL) {
		b->oom = 1;
		return -1;
	}
	b->p = p;
	b->cap = cap;
	return 0;
}

/* v as a varint at p (room for 10 bytes): returns its length. */
static size_t
varint(unsigned char *p, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (unsigned char)v;
	return n;
}

static size_t
varint_len(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

static void
put_varint(struct pb *b, uint64_t v)
{
	if (grow(b, 10) == 0)
		b->n += varint(b->p + b->n, v);
}

void
pb_reset(struct pb *b)
{
	b->n = 0;
}

void
pb_free(struct pb *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

void
pb_uint(struct pb *b, unsigned f, uint64_t v)
{
	if (v == 0)
		return;
	put_varint(b, (uint64_t)f << 3 | WT_VARINT);
	put_varint(b, v);
}

void
pb_int(struct pb *b, unsigned f, uint64_t v)
{
	put_varint(b, (uint64_t)f << 3 | WT_VARINT);
	put_varint(b, v);
}

void
pb_bytes(struct pb *b, unsigned f, const void *p, size_t len)
{
	put_varint(b, (uint64_t)f << 3 | WT_LEN);
	put_varint(b, len);
	if (len > 0 && grow(b, len) == 0) {
		memcpy(b->p + b->n, p, len);
		b->n += len;
	}
}

void
pb_packed(struct pb *b, unsigned f, const uint64_t *v, size_t n)
{
	size_t i, len = 0;

	if (n == 0)
		return;
	for (i = 0; i < n; i++)
		len += varint_len(v[i]);
	put_varint(b, (uint64_t)f << 3 | WT_LEN);
	put_varint(b, len);
	if (grow(b, len) < 0)
		return;
	for (i = 0; i < n; i++)
		b->n += varint(b->p + b->n, v[i]);
}

void
pb_packed32(struct pb *b, unsigned f, const uint32_t *v, size_t n)
{
	size_t i, len = 0;

	if (n == 0)
		return;
	for (i = 0; i < n; i++)
		len += varint_len(v[i]);
	put_varint(b, (uint64_t)f << 3 | WT_LEN);
	put_varint(b, len);
	if (grow(b, len) < 0)
		return;
	for (i = 0; i < n; i++)
		b->n += varint(b->p + b->n, v[i]);
}

/* ----- gzip ----- */

#define GZ_OUT	(64 * 1024)

struct pb_gz {
	z_stream	 z;
	int		 fd;
	int		 err;		/* errno of the first failure */
	unsigned char	 out[GZ_OUT];
};

struct pb_gz *
pb_gz_open(int fd)
{
	struct pb_gz *g = calloc(1, sizeof(*g));

	if (g == NULL)
		return NULL;
	g->fd = fd;
	/*
	 * 15 + 16: a gzip header and trailer around the deflate data. Level
	 * 1: a profile's tables of small varints compress nearly as well,
	 * in a third of the time of the default.
	 */
	if (deflateInit2(&g->z, 1, Z_DEFLATED, 15 + 16, 8,
	    Z_DEFAULT_STRATEGY) != Z_OK) {
		free(g);
		return NULL;
	}
	return g;
}

static int
write_all(struct pb_gz *g, const unsigned char *p, size_t n)
{
	ssize_t w;

	while (n > 0) {
		if ((w = write(g->fd, p, n)) < 0) {
			if (errno == EINTR)
				continue;
			g->err = errno;
			return -1;
		}
		p += w;
		n -= w;
	}
	return 0;
}

/* Deflates n bytes at p (flush: Z_NO_FLUSH or Z_FINISH). */
static int
deflate_out(struct pb_gz *g, const void *p, size_t n, int flush)
{
	int r;

	if (g->err != 0)
		return -1;
	g->z.next_in = (unsigned char *)(uintptr_t)p;
	g->z.avail_in = (uInt)n;
	do {
		g->z.next_out = g->out;
		g->z.avail_out = sizeof(g->out);
		r = deflate(&g->z, flush);
		if (r == Z_STREAM_ERROR) {
			g->err = EIO;
			return -1;
		}
		if (write_all(g, g->out, sizeof(g->out) - g->z.avail_out) < 0)
			return -1;
	} while (g->z.avail_out == 0 || (flush == Z_FINISH &&
	    r != Z_STREAM_END));
	return 0;
}

/* Large messages go in pieces: avail_in is an unsigned int. */
static int
put(struct pb_gz *g, const unsigned char *p, size_t n)
{
	size_t k;

	for (; n > 0; p += k, n -= k) {
		k = n > (1U << 30) ? 1U << 30 : n;
		if (deflate_out(g, p, k, Z_NO_FLUSH) < 0)
			return -1;
	}
	return 0;
}

int
pb_gz_field(struct pb_gz *g, unsigned f, const struct pb *m)
{
	unsigned char h[20];
	size_t n;

	if (m->oom) {
		errno = ENOMEM;
		return -1;
	}
	n = varint(h, (uint64_t)f << 3 | WT_LEN);
	n += varint(h + n, m->n);
	if (put(g, h, n) < 0 || put(g, m->p, m->n) < 0) {
		errno = g->err;
		return -1;
	}
	return 0;
}

int
pb_gz_raw(struct pb_gz *g, const struct pb *m)
{
	if (m->oom) {
		errno = ENOMEM;
		return -1;
	}
	if (put(g, m->p, m->n) < 0) {
		errno = g->err;
		return -1;
	}
	return 0;
}

int
pb_gz_close(struct pb_gz *g)
{
	int r = deflate_out(g, NULL, 0, Z_FINISH), err = g->err;

	deflateEnd(&g->z);
	free(g);
	if (r < 0)
		errno = err;
	return r;
}
