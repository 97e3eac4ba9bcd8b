/* SPDX-License-Identifier: MIT */
/*
 * The reader: any perf.data input (pipe stream or file-mode perf.data,
 * either byte order) as one sequence of native pipe-mode records.
 *
 * File mode comes out as the equivalent pipe stream: a HEADER_ATTR per
 * attr with its ids, a HEADER_FEATURE per feature section, the tracing
 * data as HEADER_TRACING_DATA, build ids as HEADER_BUILD_ID records, then
 * the data section. The events (pd_reader_evlist) follow the records that
 * have passed. No syscall or allocation per record: input is read in
 * large chunks and records are handed out in place.
 */
#ifndef PD_READER_H
#define PD_READER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "libcommon/stream/record.h"

struct pd_evlist;
struct pd_reader;

/* pd_reader_open flags */
#define PD_RD_DECOMPRESS	0x1	/* hand out COMPRESSED* contents */
/*
 * Foreign input always comes out decompressed (compressed bytes cannot
 * be converted), unless this asks for COMPRESSED* records as stored,
 * their contents still foreign (pd_reader_inflate() gives them to a tool
 * that converts them itself, as pdswap does).
 */
#define PD_RD_STORED		0x2
/*
 * With PD_RD_DECOMPRESS: hand out each COMPRESSED* record itself too,
 * before the records it holds (those carry PD_REC_DECOMPRESSED), so a
 * tool can both count the stream as stored and pass it on unchanged.
 */
#define PD_RD_KEEP_COMPRESSED	0x4
/*
 * Parse the event formats in the tracing data of a native input too
 * (pd_evlist_tracefmt), as the payload is read or skipped. A foreign
 * input always has them: its RAW data are converted through them.
 */
#define PD_RD_TRACEFMT		0x8

/*
 * Opens `path` ("-" or NULL: standard input, named "<stdin>") and reads
 * its header. Returns the reader, or NULL with *err filled (err->input
 * points at a static or the caller's string).
 */
struct pd_reader	*pd_reader_open(const char *path, int flags,
			    struct pd_err *err);

/* The same on an open descriptor, which the reader does not close. */
struct pd_reader	*pd_reader_fdopen(int fd, const char *name, int flags,
			    struct pd_err *err);

/*
 * The next record: 1 and *rec filled, 0 at the end of input, -1 on error
 * (see pd_reader_err). rec->data stays valid until the next call. Any
 * out-of-band payload of the previous record that was not read with
 * pd_reader_payload() is skipped.
 */
int	pd_reader_next(struct pd_reader *, struct pd_rec *rec);

/*
 * The next chunk of the current record's out-of-band payload (tracing
 * data, AUXTRACE data): returns its length (> 0) and sets *p, valid until
 * the next call; 0 once all of it was handed out; -1 on error.
 */
ssize_t	pd_reader_payload(struct pd_reader *, const unsigned char **p);

/*
 * With PD_RD_STORED: the contents of `rec`, the COMPRESSED* record just
 * handed out, decompressed into dst[*pos, cap) as they come (cap must
 * exceed *pos), advancing *pos: records in the input's byte order, cut
 * anywhere, since a record may straddle compressed records. The same
 * decoder and limits (a zstd bomb is an error) as the reader's own
 * decompression. 1 when more may follow (call again, with room), 0 once
 * all of it is out, -1 on error (pd_reader_err).
 */
int	pd_reader_inflate(struct pd_reader *, const struct pd_rec *rec,
	    unsigned char *dst, size_t cap, size_t *pos);

/*
 * Taps a pipe-mode input, for a tool that passes it on unchanged
 * (pdstat -p): from now on the reader gets more input by calling fn
 * (arg, fd, buf, len) instead of read(2). fn returns what read(2) would
 * (-1 with errno set on error); it may tee(2) the bytes elsewhere before
 * it reads them, or write them on after. Call it before the first
 * pd_reader_next: it returns the number of input bytes read so far (the
 * header and what came with it), and sets *p to them, valid until the
 * next call; or -1 when the input is file-mode perf.data, whose bytes
 * are not read in order.
 */
typedef ssize_t	pd_read_fn(void *arg, int fd, void *buf, size_t len);
ssize_t	pd_reader_tap(struct pd_reader *, pd_read_fn *fn, void *arg,
	    const unsigned char **p);

const struct pd_err	*pd_reader_err(const struct pd_reader *);

/*
 * What was wrong with the last tracing data blob whose formats were
 * parsed (too large, malformed, out of memory), or NULL. The formats
 * parsed before the fault stay in pd_evlist_tracefmt(); a blob's are
 * there once all of its payload was read or skipped.
 */
const char		*pd_reader_tracefmt_error(const struct pd_reader *);
struct pd_evlist	*pd_reader_evlist(struct pd_reader *);
const char		*pd_reader_name(const struct pd_reader *);

/* Whether the input was file-mode perf.data / in the other byte order. */
int	pd_reader_is_file(const struct pd_reader *);
int	pd_reader_swapped(const struct pd_reader *);
/* Whether the input is a regular file (not a pipe, socket or terminal). */
int	pd_reader_is_regular(const struct pd_reader *);

/*
 * Whether rec, the record just handed out, is its input file's own
 * bytes where they were read: not converted, decompressed, synthesized
 * or moved, nor in a buffer held to be changed in place (pd_reader_hold).
 * Then *at is their offset in the file, so that they can be
 * sent from there (pd_writer_source). pd_reader_file_fd is that file's
 * descriptor, -1 when the input is not a regular file whose offsets
 * are known.
 */
int	pd_reader_file_bytes(const struct pd_reader *, const struct pd_rec *rec,
	    uint64_t *at);
int	pd_reader_file_fd(const struct pd_reader *);

/*
 * Reading ends, as at the end of input, once *stop is non-zero: it is
 * looked at before each read(2) and when one is interrupted, never per
 * record. Records already read are still handed out; a record cut short
 * is dropped without an error. The reader only reads the flag: setting
 * it (from an interrupt handler, as a sig_atomic_t, which is an int on
 * every Linux ABI) is the tool's business.
 * pd_reader_stopped() says whether the input ended that way.
 */
void	pd_reader_stop_on(struct pd_reader *, const volatile int *stop);
int	pd_reader_stopped(const struct pd_reader *);
/*
 * Once *ending is non-zero, the input is about to end and may end
 * anywhere: a record cut short at its end is dropped without an error,
 * as at a stop (Ctrl-C also killed the ssh upstream, which cut the
 * stream wherever it was).
 */
void	pd_reader_ending_on(struct pd_reader *, const volatile int *ending);

/*
 * Things the reader could not carry over and left out (a feature section
 * too large for one record, a file-relative section): how many, and a
 * description of the last one. The tool reports them.
 */
unsigned	 pd_reader_dropped(const struct pd_reader *, const char **what);

/*
 * Foreign-order records that could be converted only in part (an
 * unknown record type or feature, a SAMPLE of an unknown event): how
 * many, and what the last one was. They are handed out as they were.
 */
unsigned	 pd_reader_inexact(const struct pd_reader *, const char **what);

/*
 * Holding records where they were read, for a caller that keeps them a
 * while (pdsort's queue) and would otherwise copy them: the buffer the
 * record just read lies in is not written again, and its bytes are the
 * caller's to change in place, until the caller releases the buffer;
 * reading goes on in another meanwhile (PD_READER_HOLD_BUFS buffers of
 * PD_READER_BUF_SIZE bytes at most). pd_reader_hold returns the
 * record's bytes, with the number of the buffer and their offset in
 * it, or NULL when it cannot be held (a record with a payload, or
 * made, swapped or decompressed here, or every other buffer held):
 * then copy it. pd_reader_release: the caller has done with every
 * record it held in buffer buf.
 */
#define PD_READER_HOLD_BUFS	4	/* buffer numbers are below it */
#define PD_READER_BUF_SIZE	(1024 * 1024)	/* bytes of each */

unsigned char	*pd_reader_hold(struct pd_reader *, const struct pd_rec *rec,
		    unsigned *buf, size_t *off);
void		 pd_reader_release(struct pd_reader *, unsigned buf);

void	pd_reader_close(struct pd_reader *);

#endif /* PD_READER_H */
