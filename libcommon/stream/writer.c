/* SPDX-License-Identifier: MIT */
#include "libcommon/stream/writer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
	/*
	 * pd_writer_source: the reader whose file's own bytes go by
	 * splice(2), and the span of that file due after the buffer's
	 * bytes (the one or the other is empty: each is written before
	 * the other is added to).
	 */
	const struct pd_reader	*src;
	int			 src_fd;
	uint64_t		 span_at, span_len;
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

/*
 * The span of the source file, where splice(2) is refused (a file
 * system without it): read and written, and no more splicing.
 */
static int
span_copy(struct pd_writer *w, uint64_t at, uint64_t n)
{
	ssize_t r;

	w->src = NULL;
	while (n > 0) {
		r = pread(w->src_fd, w->buf, n < WBUF_SIZE ? n : WBUF_SIZE, at);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			w->failed = r < 0 ? errno : EIO;
			return -1;
		}
		if (write_all(w, w->buf, r) < 0)
			return -1;
		at += r;
		n -= r;
	}
	return 0;
}

/* Sends the span of the source file: page references, no copy. */
static int
span_splice(struct pd_writer *w)
{
	uint64_t at = w->span_at, end = at + w->span_len;
	int r;

	w->span_len = 0;
	if ((r = pd_pipe_splice(w->src_fd, &at, w->fd, end - at)) == -2)
		return span_copy(w, at, end - at);
	if (r < 0)
		w->failed = errno;
	return r;
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
	if (w->span_len > 0 && span_splice(w) < 0)
		return -1;
	return 0;
}

int
pd_writer_source(struct pd_writer *w, const struct pd_reader *rd)
{
	struct stat st;

	/* The span of the old source goes while its file is open. */
	if (w->span_len > 0 && pd_writer_flush(w) < 0)
		return -1;
	w->src = NULL;
	if (rd != NULL && w->sink == NULL &&
	    (w->src_fd = pd_reader_file_fd(rd)) >= 0 &&
	    fstat(w->fd, &st) == 0 && S_ISFIFO(st.st_mode))
		w->src = rd;
	return 0;
}

/*
 * n bytes at offset `at` of the source file: added to the span when
 * they follow it, else the span (or the buffer) goes first. A span is
 * sent once it reaches the buffer's size, so that the output flows as
 * it did through the buffer. 1 taken, 0 not (splice was refused just
 * now: the caller puts them in the buffer), -1.
 */
static int
put_span(struct pd_writer *w, uint64_t at, uint64_t n)
{
	if (w->span_len > 0 && w->span_at + w->span_len == at &&
	    w->span_len < WBUF_SIZE) {
		w->offset += n;
		w->span_len += n;
		return 1;
	}
	if (pd_writer_flush(w) < 0)
		return -1;
	if (w->src == NULL)
		return 0;
	w->offset += n;
	w->span_at = at;
	w->span_len = n;
	return 1;
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
	/* The source file's span goes before these bytes. */
	if (__builtin_expect(w->span_len > 0, 0) && span_splice(w) < 0)
		return -1;
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
	uint64_t at;
	int r = 0;

	if (w->src == rd && pd_reader_file_bytes(rd, rec, &at) &&
	    (r = put_span(w, at, rec->size)) < 0)
		return -2;
	if (r == 0 && pd_writer_rec(w, rec) < 0)
		return -2;
	return rec->payload > 0 ? pd_writer_payload(w, rd) : 0;
}
