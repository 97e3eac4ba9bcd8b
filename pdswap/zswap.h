/* SPDX-License-Identifier: MIT */
/*
 * Converting the records inside COMPRESSED/COMPRESSED2 to the other byte
 * order and compressing them again the way perf record does (one zstd
 * stream, compress + flush per push, records of at most 64 KiB), so that
 * converting back gives perf's own bytes when the zstd library and level
 * are the same. A push is found as perf wrote it: a run of full records
 * ended by a short one.
 */
#ifndef PDSWAP_ZSWAP_H
#define PDSWAP_ZSWAP_H

#include <stdint.h>

#include "libcommon/stream/record.h"

struct pd_evlist;
struct pd_reader;
struct pd_writer;
struct zswap;

/* in_native: the records inside are native (else foreign) */
struct zswap	*zswap_new(const struct pd_evlist *el, int in_native,
		    int level, struct pd_writer *w);
void		 zswap_free(struct zswap *);

/* Whether records must wait (a push is still incomplete). */
int	zswap_pending(const struct zswap *);

/*
 * A COMPRESSED/COMPRESSED2 record (native header) that `rd` handed out
 * as stored: its contents, which the reader decompresses (with its
 * limits), are converted and written once whole. 0, or -1 (*err; errno
 * set and err->msg empty for a write failure).
 */
int	zswap_feed(struct zswap *, struct pd_reader *rd,
	    const struct pd_rec *rec, struct pd_err *err);

/*
 * Holds a converted record (and its payload, none allowed) that came
 * while a push was incomplete; it is written after that push. 0 or -1.
 */
int	zswap_hold(struct zswap *, const unsigned char *p, size_t n,
	    struct pd_err *err);

/*
 * Ends the current push (a plain record follows); 0 or -1. With force,
 * writes everything that can be converted now, even if perf's chunking
 * is lost (the round trip then is not byte-exact, only equivalent).
 */
int	zswap_flush(struct zswap *, int force, struct pd_err *err);

/* Records converted only in part, and the last reason. */
unsigned	zswap_inexact(const struct zswap *, const char **why);

#endif /* PDSWAP_ZSWAP_H */
