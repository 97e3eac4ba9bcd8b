/* SPDX-License-Identifier: MIT */
#include "libcommon/stream/writer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libcommon/stream/event.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/pipebuf.h"
#include "libcommon/stream/reader.h"
#include "libcommon/stream/record.h"

#define WBUF_SIZE	(1024 * 1024)

struct pd_writer {
	int			 fd;
	int			(*sink)(void *, const void *, size_t);
	void			*ctx;
	int			 failed;	/* errno of a failed write */
	size_t			 len;
	unsigned long long	 offset;
	unsigned char		*buf;
};

struct pd_writer *
pd_writer_new(int fd)
{
	struct pd_writer *w = calloc(1, sizeof(*w));

	if (w == NULL || (w->buf = malloc(WBUF_SIZE)) == NULL) {
		free(w);
		return NULL;
	}
	w->fd = fd;
	pd_pipe_grow(fd);
	return w;
}

struct pd_writer *
pd_writer_new_sink(int (*sink)(void *, const void *, size_t), void *ctx)
{
	struct pd_writer *w = pd_writer_new(-1);

	if (w != NULL) {
		w->sink = sink;
		w->ctx = ctx;
	}
	return w;
}

static int
write_all(struct pd_writer *w, const unsigned char *p, size_t n)
{
	ssize_t r;

	if (w->sink != NULL) {
		if (w->sink(w->ctx, p, n) < 0) {
			w->failed = errno;
			return -1;
		}
		return 0;
	}
	while (n > 0) {
		r = write(w->fd, p, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			w->failed = errno;
			return -1;
		}
		p += r;
		n -= r;
	}
	return 0;
}

int
pd_writer_flush(struct pd_writer *w)
{
	if (w->failed) {
		errno = w->failed;
		return -1;
	}
	if (w->len > 0 && write_all(w, w->buf, w->len) < 0)
		return -1;
	w->len = 0;
	return 0;
}

/* pd_writer_put when the buffer is full: out of line, as it is rare. */
static __attribute__((noinline)) int
put_full(struct pd_writer *w, const void *p, size_t n)
{
	if (pd_writer_flush(w) < 0)
		return -1;
	/* Big pieces (AUXTRACE payloads) bypass the buffer. */
	if (n >= WBUF_SIZE / 2)
		return write_all(w, p, n);
	memcpy(w->buf, p, n);
	w->len = n;
	return 0;
}

int
pd_writer_put(struct pd_writer *w, const void *p, size_t n)
{
	w->offset += n;
	if (w->len + n > WBUF_SIZE)
		return put_full(w, p, n);
	memcpy(w->buf + w->len, p, n);
	w->len += n;
	return 0;
}

int
pd_writer_header(struct pd_writer *w)
{
	unsigned char h[PD_PIPE_HDR_SIZE];

	pd_pipe_header_put(h, 0);
	return pd_writer_put(w, h, sizeof(h));
}

int
pd_writer_rec(struct pd_writer *w, const struct pd_rec *rec)
{
	return pd_writer_put(w, rec->data, rec->size);
}

unsigned long long
pd_writer_offset(const struct pd_writer *w)
{
	return w->offset;
}

int
pd_writer_free(struct pd_writer *w)
{
	int r;

	if (w == NULL)
		return 0;
	r = pd_writer_flush(w);
	free(w->buf);
	free(w);
	return r;
}

int
pd_writer_payload(struct pd_writer *w, struct pd_reader *rd)
{
	const unsigned char *p;
	ssize_t n;

	while ((n = pd_reader_payload(rd, &p)) > 0)
		if (pd_writer_put(w, p, n) < 0)
			return -2;
	return n < 0 ? -1 : 0;
}

int
pd_writer_copy(struct pd_writer *w, struct pd_reader *rd,
    const struct pd_rec *rec)
{
	if (pd_writer_rec(w, rec) < 0)
		return -2;
	return rec->payload > 0 ? pd_writer_payload(w, rd) : 0;
}
