/* SPDX-License-Identifier: MIT */
/*
 * The records inside PERF_RECORD_COMPRESSED and COMPRESSED2: one zstd
 * stream per input (perf never ends its frame), decompressed lazily into
 * a fixed buffer, so memory stays bounded whatever a chunk expands to. A
 * record may straddle two compressed records.
 */
#ifndef PD_ZDEC_H
#define PD_ZDEC_H

#include <stdint.h>

#include "libcommon/stream/record.h"

struct pd_evlist;
struct pd_zdec;

/* A decoder; `el` is used to convert foreign-order records. NULL: ENOMEM. */
struct pd_zdec	*pd_zdec_new(const struct pd_evlist *el, int swapped);

/*
 * How far one compressed record may expand: perf decompresses each into
 * a buffer of the COMPRESSED feature's mmap_len, so real data never
 * expands past it. The limit is mmap_len, but at least LIMIT_MIN (also
 * the limit before the feature is seen) and at most LIMIT_MAX; past it
 * pd_zdec_next() fails (a zstd bomb). Memory is bounded either way; this
 * bounds the work.
 */
#define PD_ZDEC_LIMIT_MIN	(16ULL << 20)
#define PD_ZDEC_LIMIT_MAX	(1ULL << 30)
void		 pd_zdec_set_limit(struct pd_zdec *, uint64_t mmap_len);

/*
 * And over a whole input, since records that each stay under that limit
 * still add up (20 records of 32 KiB made 21 GB): once the output of an
 * input passes PD_ZDEC_RATIO_FLOOR bytes, it may be at most
 * PD_ZDEC_RATIO_MAX times the compressed bytes taken so far. perf's own
 * data compress about 10 to 30 times; zstd's limit is 32768 (an RLE
 * block). pd_zdec_ratio_ok() is the rule, for every decompressor; past
 * it pd_zdec_next() fails.
 */
#define PD_ZDEC_RATIO_FLOOR	(64ULL << 20)
#define PD_ZDEC_RATIO_MAX	1000

static inline int
pd_zdec_ratio_ok(uint64_t in, uint64_t out)
{
	return out <= PD_ZDEC_RATIO_FLOOR || out / PD_ZDEC_RATIO_MAX <= in;
}
void		 pd_zdec_free(struct pd_zdec *);

/*
 * The compressed bytes of a COMPRESSED or COMPRESSED2 record: all of
 * COMPRESSED's payload; the data_size bytes after COMPRESSED2's u64
 * data_size (the rest is padding). 0 with *p and *n set, or -1 (*err)
 * when data_size runs past the record.
 */
int	pd_zdec_frame(const struct pd_rec *rec, const unsigned char **p,
	    size_t *n, struct pd_err *err);

/*
 * What a record found inside compressed data must be: at least a header
 * long, without out-of-band data (which cannot be compressed with it),
 * not compressed again. `type` and `size` are its header's, native; 0,
 * or -1 (*err at `off`, the compressed record's offset).
 */
int	pd_zdec_inner_ok(uint32_t type, uint16_t size, uint64_t off,
	    struct pd_err *err);

/*
 * Takes a COMPRESSED/COMPRESSED2 record as input. Its bytes must stay
 * valid until it is used up (pd_zdec_next() or pd_zdec_inflate()
 * returns 0). 0, or -1 with *err filled.
 */
int	pd_zdec_feed(struct pd_zdec *, const struct pd_rec *rec,
	    struct pd_err *err);

/*
 * The next complete record from the data fed so far: 1 (*rec filled, valid
 * until the next call), 0 when more input is needed, -1 on corrupt data.
 */
int	pd_zdec_next(struct pd_zdec *, struct pd_rec *rec, struct pd_err *err);

/*
 * The step under pd_zdec_next(), for a consumer that splits the records
 * itself (pdswap converts them in the input's byte order): decompresses
 * more of the fed record into dst[*pos, cap), which must have room (cap
 * > *pos), and advances *pos. The bytes come as they are, records cut
 * anywhere. 1 when more may follow (call again), 0 once the fed record
 * is used up, -1 on corrupt data or past a limit (*err). Not to be mixed
 * with pd_zdec_next() on one decoder.
 */
int	pd_zdec_inflate(struct pd_zdec *, unsigned char *dst, size_t cap,
	    size_t *pos, struct pd_err *err);

/* At end of input: -1 if a partial record is left over, else 0. */
int	pd_zdec_end(struct pd_zdec *, struct pd_err *err);

/* Records converted only in part (see swap.h), and the last reason. */
unsigned	pd_zdec_inexact(const struct pd_zdec *, const char **what);

#endif /* PD_ZDEC_H */
