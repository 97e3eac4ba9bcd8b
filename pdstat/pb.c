/* SPDX-License-Identifier: MIT */
#include "pdstat/pb.h"

#include <errno.h>
#include <pthread.h>
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

/* A tag and a varint: room for both made once (a field costs one check). */
static void
put_field(struct pb *b, uint64_t tag, uint64_t v)
{
	if (b->n + 20 > b->cap && grow(b, 20) < 0)
		return;
	b->n += varint(b->p + b->n, tag);
	b->n += varint(b->p + b->n, v);
}

void
pb_uint(struct pb *b, unsigned f, uint64_t v)
{
	if (v != 0)
		put_field(b, (uint64_t)f << 3 | WT_VARINT, v);
}

void
pb_int(struct pb *b, unsigned f, uint64_t v)
{
	put_field(b, (uint64_t)f << 3 | WT_VARINT, v);
}

void
pb_bytes(struct pb *b, unsigned f, const void *p, size_t len)
{
	if (grow(b, 20 + len) < 0)
		return;
	put_field(b, (uint64_t)f << 3 | WT_LEN, len);
	memcpy(b->p + b->n, p, len);
	b->n += len;
}

void
pb_raw(struct pb *b, const void *p, size_t len)
{
	if (grow(b, len) < 0)
		return;
	memcpy(b->p + b->n, p, len);
	b->n += len;
}

void
pb_packed(struct pb *b, unsigned f, const uint64_t *v, size_t n)
{
	size_t i, len = 0;

	if (n == 0)
		return;
	for (i = 0; i < n; i++)
		len += varint_len(v[i]);
	if (grow(b, 20 + len) < 0)
		return;
	put_field(b, (uint64_t)f << 3 | WT_LEN, len);
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
	if (grow(b, 20 + len) < 0)
		return;
	put_field(b, (uint64_t)f << 3 | WT_LEN, len);
	for (i = 0; i < n; i++)
		b->n += varint(b->p + b->n, v[i]);
}

/* ----- gzip ----- */

/*
 * The messages are gathered into GZ_IN bytes before zlib sees them: a
 * profile is hundreds of thousands of small messages, and each call of
 * deflate() costs as much as deflating a hundred bytes. Deflating is
 * then most of writing a profile, so a thread of its own does it, one
 * batch behind the one being filled (two batches: bounded memory);
 * without a thread (it could not start) the same is done in line.
 */
#define GZ_OUT	(64 * 1024)
#define GZ_IN	(256 * 1024)

struct pb_gz {
	z_stream	 z;
	int		 fd;
	int		 err;		/* errno of the first failure */
	unsigned char	*in[2];		/* batches: one filled, one deflated */
	size_t		 nin;		/* bytes in in[cur] */
	int		 cur;

	int		 threaded;
	pthread_t	 th;
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv;
	size_t		 todo;		/* bytes of in[!cur] to deflate, or 0 */
	int		 quit;
	unsigned char	 out[GZ_OUT];
};

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

/*
 * Deflates n bytes at p (flush: Z_NO_FLUSH or Z_FINISH); n below 4 GiB
 * (avail_in is an unsigned int).
 */
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

/* The deflating thread: each batch handed over, until told to stop. */
static void *
deflater(void *arg)
{
	struct pb_gz *g = arg;
	const unsigned char *p;
	size_t n;

	pthread_mutex_lock(&g->mu);
	for (;;) {
		while (g->todo == 0 && !g->quit)
			pthread_cond_wait(&g->cv, &g->mu);
		if (g->todo == 0)
			break;
		/* in[!cur] is ours until todo is 0 again. */
		n = g->todo;
		p = g->in[!g->cur];
		pthread_mutex_unlock(&g->mu);
		(void)deflate_out(g, p, n, Z_NO_FLUSH);
		pthread_mutex_lock(&g->mu);
		g->todo = 0;
		pthread_cond_broadcast(&g->cv);
	}
	pthread_mutex_unlock(&g->mu);
	return NULL;
}

/* Waits until the thread has deflated what it was given. */
static void
gz_wait(struct pb_gz *g)
{
	if (!g->threaded)
		return;
	pthread_mutex_lock(&g->mu);
	while (g->todo != 0)
		pthread_cond_wait(&g->cv, &g->mu);
	pthread_mutex_unlock(&g->mu);
}

/* The batch being filled goes to be deflated; the other is filled. */
static int
gz_flush(struct pb_gz *g)
{
	size_t n;

	if (g->nin == 0)
		return g->err != 0 ? -1 : 0;
	if (!g->threaded) {
		n = g->nin;
		g->nin = 0;
		return deflate_out(g, g->in[g->cur], n, Z_NO_FLUSH);
	}
	gz_wait(g);
	if (g->err != 0)
		return -1;
	pthread_mutex_lock(&g->mu);
	g->cur = !g->cur;
	g->todo = g->nin;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
	g->nin = 0;
	return 0;
}

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
	if ((g->in[0] = malloc(GZ_IN)) == NULL ||
	    (g->in[1] = malloc(GZ_IN)) == NULL ||
	    deflateInit2(&g->z, 1, Z_DEFLATED, 15 + 16, 8,
	    Z_DEFAULT_STRATEGY) != Z_OK) {
		free(g->in[0]);
		free(g->in[1]);
		free(g);
		return NULL;
	}
	if (pthread_mutex_init(&g->mu, NULL) == 0) {
		if (pthread_cond_init(&g->cv, NULL) == 0) {
			if (pthread_create(&g->th, NULL, deflater, g) == 0)
				g->threaded = 1;
			else
				pthread_cond_destroy(&g->cv);
		}
		if (!g->threaded)
			pthread_mutex_destroy(&g->mu);
	}
	return g;
}

/* n bytes at p into the batch (deflated as it fills). */
static int
put(struct pb_gz *g, const unsigned char *p, size_t n)
{
	size_t k;

	while (n > 0) {
		if (g->nin == GZ_IN && gz_flush(g) < 0)
			return -1;
		k = GZ_IN - g->nin < n ? GZ_IN - g->nin : n;
		memcpy(g->in[g->cur] + g->nin, p, k);
		g->nin += k;
		p += k;
		n -= k;
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
	int r, err;

	if (g->threaded) {
		pthread_mutex_lock(&g->mu);
		while (g->todo != 0)
			pthread_cond_wait(&g->cv, &g->mu);
		g->quit = 1;
		pthread_cond_broadcast(&g->cv);
		pthread_mutex_unlock(&g->mu);
		pthread_join(g->th, NULL);
		pthread_cond_destroy(&g->cv);
		pthread_mutex_destroy(&g->mu);
	}
	r = deflate_out(g, g->in[g->cur], g->nin, Z_FINISH);
	err = g->err;
	deflateEnd(&g->z);
	free(g->in[0]);
	free(g->in[1]);
	free(g);
	if (r < 0)
		errno = err;
	return r;
}
