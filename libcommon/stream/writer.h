/* SPDX-License-Identifier: MIT */
/*
 * The writer: a pipe-mode stream to a file descriptor through one large
 * buffer. Short writes and EINTR are handled here; every failure returns
 * -1 with errno set (EPIPE included: the tool decides, see pd_epipe()).
 */
#ifndef PD_WRITER_H
#define PD_WRITER_H

#include <stddef.h>

struct pd_reader;
struct pd_rec;
struct pd_writer;

/* A writer on fd (not closed by the writer). NULL: out of memory. */
struct pd_writer	*pd_writer_new(int fd);

/*
 * A writer that hands its buffered bytes to sink(ctx, p, n) instead of
 * an fd (pdrecord: into its queue). sink returns 0, or -1 with errno.
 * NULL: out of memory.
 */
struct pd_writer	*pd_writer_new_sink(int (*sink)(void *ctx, const void *p,
			    size_t n), void *ctx);

/* The 16-byte pipe header, in native byte order. 0 or -1. */
int	pd_writer_header(struct pd_writer *);

/* Appends n bytes. 0 or -1. */
int	pd_writer_put(struct pd_writer *, const void *p, size_t n);

/* Appends a record as it is (rec->size bytes). 0 or -1. */
int	pd_writer_rec(struct pd_writer *, const struct pd_rec *rec);

/* Writes out everything buffered. 0 or -1. */
int	pd_writer_flush(struct pd_writer *);

/*
 * Writes the out-of-band payload (TRACING_DATA, AUXTRACE) of the record
 * `rd` has just returned, after the record itself: 0, -1 when reading
 * it failed (pd_reader_err says why), -2 when writing failed (errno).
 */
int	pd_writer_payload(struct pd_writer *, struct pd_reader *);

/*
 * Copies the record `rd` has just returned: `rec` (its bytes may be a
 * converted copy of what rd handed out), then its out-of-band payload
 * from rd. The same results as pd_writer_payload().
 */
int	pd_writer_copy(struct pd_writer *, struct pd_reader *,
	    const struct pd_rec *rec);

/*
 * From now on, the records of rd that pd_writer_copy is given unchanged
 * (pd_reader_file_bytes) go from rd's file into the output with
 * splice(2): the page cache's pages into the pipe, copied at neither
 * end. Everything else still goes through the buffer, all in order.
 * Only when the output is a pipe and rd reads a regular file; NULL
 * stops it. The pipe holds the file's pages, not a copy: the file
 * must not be rewritten in place (appending is fine) until the reader
 * at the other end has read them. Call it with NULL before rd is
 * closed: what is due from its file is sent first. 0, or -1 when that
 * failed.
 */
int	pd_writer_source(struct pd_writer *, const struct pd_reader *rd);

/* Bytes handed to the writer so far (the output offset). */
unsigned long long	pd_writer_offset(const struct pd_writer *);

/* Flushes and frees; returns the flush result. */
int	pd_writer_free(struct pd_writer *);

#endif /* PD_WRITER_H */
