/* SPDX-License-Identifier: MIT */
/*
 * A record as every tool sees it, its type names, and the error report
 * that library calls fill in instead of printing.
 */
#ifndef PD_RECORD_H
#define PD_RECORD_H

#include <stddef.h>
#include <stdint.h>

/* pd_rec.flags */
#define PD_REC_DECOMPRESSED	0x1	/* came out of a COMPRESSED* record */
#define PD_REC_SYNTHESIZED	0x2	/* made by the reader from a file header */

/*
 * One record: a view, never owned. `data` points at the whole record,
 * header included, in native byte order; it may be unaligned (use
 * pd_get_u64() and friends). It stays valid until the next call on the
 * reader that produced it. `payload` is the number of bytes that follow
 * the record outside header.size (HEADER_TRACING_DATA, AUXTRACE).
 */
struct pd_rec {
	uint64_t		 offset;	/* input offset of the header */
	const unsigned char	*data;
	uint64_t		 payload;
	uint32_t		 type;
	uint16_t		 misc;
	uint16_t		 size;
	unsigned		 flags;
};

/*
 * What went wrong, where. `input` is the name given to the reader
 * ("<stdin>" for standard input); `offset` is valid when has_offset is
 * set; `errnum` is an errno value for I/O errors, 0 for format errors.
 */
struct pd_err {
	const char	*input;
	uint64_t	 offset;
	int		 has_offset;
	int		 errnum;
	char		 msg[192];
};

/* Fills err and returns -1, so callers can write return pd_err_set(...). */
int	pd_err_set(struct pd_err *, uint64_t offset, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
int	pd_err_io(struct pd_err *, int errnum, const char *what);

/*
 * The perf name of a record type without its PERF_RECORD_ prefix, as
 * `perf report -D` prints it ("SAMPLE", "ATTR", "FEATURE"), or NULL.
 */
const char	*pd_rec_name(uint32_t type);

/* The type for a name from pd_rec_name() (or "HEADER_ATTR" style); -1. */
long		 pd_rec_type(const char *name);

/* Whether records of this type come from the kernel (carry a trailer). */
static inline int
pd_rec_is_kernel(uint32_t type)
{
	return type < 64;
}

#endif /* PD_RECORD_H */
