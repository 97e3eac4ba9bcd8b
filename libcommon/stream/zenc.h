/* SPDX-License-Identifier: MIT */
/*
 * Compressed output the way `perf record -z` writes it: kernel records go
 * through one zstd stream per output (one frame, never ended), flushed
 * per chunk (ZSTD_e_flush) into PERF_RECORD_COMPRESSED records, or
 * COMPRESSED2 (u64 data_size, data, zero pad to 8). Everything else (perf's
 * own records: ATTR, FEATURE, FINISHED_ROUND, tracing data...) is written
 * plain, after the pending chunk, so the stream keeps its order. The
 * COMPRESSED feature record (version 0, type 1 = zstd, level, ratio 0,
 * mmap_len) is written ahead of the first compressed record.
 *
 * A chunk holds at most PD_ZENC_CHUNK bytes of records, so every
 * compressed record decompresses to at most that (the feature's mmap_len
 * says twice as much), and each compressed record yields output on its
 * own, which perf 6.1's reader requires ("Couldn't decompress data").
 *
 * Errors: -1 with errno set (the writer's errno, EPIPE included; EIO for a
 * zstd failure, EINVAL for a misuse). The writer is not owned.
 */
#ifndef PD_ZENC_H
#define PD_ZENC_H

#include <stddef.h>
#include <stdint.h>

struct pd_rec;
struct pd_writer;
struct pd_zenc;

#define PD_ZENC_CHUNK		65536	/* bytes of records per chunk */
#define PD_ZENC_LEVEL_DEFAULT	1	/* perf record -z */
#define PD_ZENC_LEVEL_MAX	22

/*
 * A compressor writing to `w`. `level` 1..22; `type` is
 * PD_RECORD_COMPRESSED (what perf 6.1 reads) or PD_RECORD_COMPRESSED2
 * (perf 6.16+). NULL with errno: ENOMEM, or EINVAL for a bad level/type.
 */
struct pd_zenc	*pd_zenc_new(struct pd_writer *w, int level, uint32_t type);

/*
 * Writes a record in stream order: kernel records (type < 64) join the
 * pending chunk (flushed first when the record would not fit, so no record
 * straddles); other records flush the chunk and are written plain. A
 * COMPRESSED feature record from the input is replaced by ours; ours also
 * goes before the first FEATURE record with a higher id (the end marker
 * included), so it sits where perf puts it. COMPRESSED/COMPRESSED2 records
 * are refused (EINVAL): read the input decompressed. The record's
 * out-of-band payload, if any, follows with pd_zenc_plain(). 0 or -1.
 */
int	pd_zenc_rec(struct pd_zenc *, const struct pd_rec *rec);

/*
 * Appends raw bytes of kernel records (a ring buffer's contents) to the
 * pending chunk; a record may be cut anywhere and continued by the next
 * call (readers reassemble it, as perf's does), but write user records
 * only at a record boundary. A full chunk is compressed and written on
 * the way. The caller ends a push with pd_zenc_flush(). 0 or -1.
 */
int	pd_zenc_put(struct pd_zenc *, const void *p, size_t n);

/* Flushes the pending chunk, then writes n plain bytes. 0 or -1. */
int	pd_zenc_plain(struct pd_zenc *, const void *p, size_t n);

/*
 * Compresses the pending chunk (if any) with ZSTD_e_flush and writes it as
 * compressed records, the COMPRESSED feature first if it was not written
 * yet. 0 or -1.
 */
int	pd_zenc_flush(struct pd_zenc *);

/*
 * Writes the COMPRESSED feature record now unless it was written already
 * (for a writer that emits its own feature records). 0 or -1.
 */
int	pd_zenc_feature(struct pd_zenc *);

/* Bytes of records compressed so far, and compressed bytes written. */
void	pd_zenc_stats(const struct pd_zenc *, uint64_t *in, uint64_t *out);

/* Flushes (pd_zenc_flush), then frees; returns the flush result. */
int	pd_zenc_free(struct pd_zenc *);

#endif /* PD_ZENC_H */
