/* SPDX-License-Identifier: MIT */
/*
 * Byte order conversion of records, field by field at each field's own
 * width (see pdswap). The reader uses it to turn foreign input native,
 * pdswap to turn native records foreign. One walker serves both
 * directions: going in, counts are read after swapping; going out,
 * before.
 *
 * What cannot be converted exactly (an unknown record type or feature,
 * a SAMPLE whose event is unknown, bytes of an unknown layout) is left
 * as it is (or, for a SAMPLE, swapped as u64s as perf does) and the call
 * returns 1 with *why naming it, so that the caller can count and say
 * so. Byte arrays (strings, user stack bytes, AUX data, build ids) are
 * never touched. Tracepoint RAW data are converted field by field when
 * the event list carries the event formats for that direction
 * (pd_evlist.tf with tf_raw_in or tf_raw_out, set by the reader), else
 * left and counted; the blob itself is converted by pd_swap_tracing().
 */
#ifndef PD_SWAP_H
#define PD_SWAP_H

#include <stddef.h>

struct pd_evlist;

/* Whether this build converts whole records (0: only headers). */
int	pd_swap_supported(void);

/* Swaps a record header (u32 type, u16 misc, u16 size) in place. */
void	pd_swap_header(unsigned char *p);

/*
 * Turns a foreign-order record, whose header was already swapped, into
 * native order in place; sample layouts come from `el` (native). Returns
 * 0, 1 when part of it was left as it was (*why says what), or -1 (*why)
 * when a count or the record size does not fit.
 */
int	pd_swap_rec(const struct pd_evlist *el, unsigned char *p,
	    const char **why);

/*
 * The other direction: a native record (header included, native) into
 * the other byte order in place, header last. Same results; after a
 * return of -1 the record is partly converted.
 */
int	pd_swap_rec_out(const struct pd_evlist *el, unsigned char *p,
	    const char **why);

/*
 * The tracing-data blob (len bytes, pad allowed) between byte orders in
 * place: in = 1 foreign to native, 0 native to foreign; its endian flag
 * and every number, texts left as bytes. Returns 1 when converted, 0
 * when its flag does not say the order converted from (it is left: the
 * blob says its own order), -1 (*why) when it is malformed; then it is
 * partly converted.
 */
int	pd_swap_tracing(unsigned char *p, size_t len, int in, const char **why);

/* A foreign perf_event_attr of `len` bytes to native, in place; 0 or -1. */
int	pd_swap_attr(unsigned char *p, size_t len);

/*
 * A foreign feature section body to native, in place: 0, 1 when part of
 * it was left as it was, -1 when its counts do not fit `len`.
 */
int	pd_swap_feature(unsigned feat, unsigned char *p, size_t len);

/*
 * A native attr flags word (little-endian bit numbering, as struct
 * pd_attr keeps it) as the given ABI lays it out, and back: big = 1
 * means the allocation of a big-endian compiler. Exposed for tests.
 */
unsigned long long	pd_swap_attr_flags(unsigned long long v, int to_be);
unsigned long long	pd_swap_branch_flags(unsigned long long v, int to_be);

#endif /* PD_SWAP_H */
