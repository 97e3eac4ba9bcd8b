/* SPDX-License-Identifier: MIT */
/*
 * The tracing data blob (HEADER_TRACING_DATA's out-of-band payload, the
 * TRACING_DATA feature section): header_page, header_event, the ftrace
 * and event format files, kallsyms, printk formats and saved cmdlines.
 * Parsed into a table of events by id, each with its fields (name,
 * offset, size, signedness, kind), so that tools can decode tracepoint
 * RAW data (pddump) or byte-swap it field by field (pdswap).
 *
 * Usage: pd_tracefmt_new(), pd_tracefmt_add() every chunk of the blob as
 * pd_reader_payload() hands it out, pd_tracefmt_finish(), then look
 * events up with pd_tracefmt_event(). The blob is kept (bounded by
 * PD_TRACEFMT_MAX); every string below points into it and lives until
 * pd_tracefmt_free().
 */
#ifndef PD_TRACEFMT_H
#define PD_TRACEFMT_H

#include <stddef.h>
#include <stdint.h>

/*
 * simpleperf's private record for the blob (SIMPLE_PERF_RECORD_TRACING_DATA):
 * header, u32 size, then the blob inside the record, as its type-66
 * records are.
 */
#define PD_RECORD_SIMPLEPERF_TRACING_DATA	32777

/* The largest blob we collect; bigger ones are an error, not a crash. */
#define PD_TRACEFMT_MAX		(64U << 20)

enum pd_tf_kind {
	PD_TF_NUM,		/* a scalar of `size` bytes (1, 2, 4, 8) */
	PD_TF_ARRAY,		/* fixed array: nelem x elem_size bytes */
	PD_TF_STRING,		/* fixed char array, NUL-terminated text */
	PD_TF_DATA_LOC,		/* u32 loc: low 16 offset from RAW start,
				   high 16 length */
	PD_TF_REL_LOC		/* the same, offset from the field's end */
};

struct pd_tf_field {
	const char	*name;		/* a C identifier */
	size_t		 name_len;
	const char	*type;		/* the C type, e.g. "unsigned int" */
	uint32_t	 offset;	/* in the RAW data */
	uint32_t	 size;		/* bytes at offset (loc: 4) */
	uint32_t	 elem_size;	/* one element (scalars: size) */
	uint32_t	 nelem;		/* fixed arrays; 0 otherwise */
	enum pd_tf_kind	 kind;
	unsigned	 is_signed:1;
	unsigned	 is_common:1;	/* common_type, common_pid, ... */
	unsigned	 is_char:1;	/* element type is char / u8 text */
	unsigned	 is_pointer:1;	/* "void *", "unsigned long" etc.:
					   shown in hex */
};

struct pd_tf_event {
	uint32_t		 id;	/* attr.config, RAW common_type */
	const char		*system;	/* "sched" ("ftrace": ftrace) */
	const char		*name;	/* "sched_switch" */
	const char		*print_fmt;	/* as in the format file */
	const char		*format;	/* the whole format file, */
	size_t			 format_len;	/* in the kept blob */
	struct pd_tf_field	*fields;	/* common fields first */
	size_t			 nfields;
	/*
	 * For a byte-order conversion (swap.c), which must be its own
	 * inverse: the fixed bytes it swaps lie in [swap_lo, swap_hi);
	 * when two fields swap some of the same bytes, overlap is set
	 * and no byte of the RAW data may be swapped; ndyn counts the
	 * dynamic fields whose data swap (they may overlap in a record).
	 */
	uint32_t		 swap_lo, swap_hi;
	int			 overlap;
	size_t			 ndyn;
};

/*
 * The element size a byte-order conversion swaps a field's data by: 2,
 * 4 or 8; 0 when they stay bytes (text, u8, other sizes). For a dynamic
 * field, that of the data it points to; its u32 descriptor swaps too.
 */
unsigned	pd_tf_swap_size(const struct pd_tf_field *);

/* A piece of the blob (kallsyms, printk formats, cmdlines). */
struct pd_tf_span {
	const char	*p;
	size_t		 len;
};

struct pd_tracefmt;

/* An empty table; NULL when out of memory. */
struct pd_tracefmt	*pd_tracefmt_new(void);
void			 pd_tracefmt_free(struct pd_tracefmt *);

/*
 * Appends `len` bytes of the blob. 0, or -1 with *why set (past
 * PD_TRACEFMT_MAX, out of memory).
 */
int	pd_tracefmt_add(struct pd_tracefmt *, const void *p, size_t len,
	    const char **why);

/*
 * Parses the collected blob (trailing pad bytes are allowed). Returns 0,
 * or -1 with *why naming what is malformed; the events parsed before the
 * fault stay usable. A second blob (another HEADER_TRACING_DATA) may be
 * collected and parsed after this; its events are added.
 */
int	pd_tracefmt_finish(struct pd_tracefmt *, const char **why);

/* The event with this id, or NULL. */
const struct pd_tf_event	*pd_tracefmt_event(const struct pd_tracefmt *,
				    uint32_t id);

/* The field of the event named `name` (e.g. "prev_pid"), or NULL. */
const struct pd_tf_field	*pd_tf_event_field(const struct pd_tf_event *,
				    const char *name);

/*
 * 1 when two events (of two blobs, say) are the same tracepoint with the
 * same RAW layout: system, name, and every field's name, offset, size
 * and signedness. Tracepoint ids are given out per kernel build, so the
 * same id in two blobs may be two events.
 */
int	pd_tf_event_same(const struct pd_tf_event *,
	    const struct pd_tf_event *);

/* Number of events, and event i (< that number) in blob order. */
size_t				 pd_tracefmt_nevents(const struct pd_tracefmt *);
const struct pd_tf_event	*pd_tracefmt_event_at(
				    const struct pd_tracefmt *, size_t i);

/*
 * A blob with every event of `tf` (the first of each id, the rest of
 * their system's in first-seen order) and the other parts of `base`'s
 * last blob (version, byte order, header_page and header_event,
 * kallsyms, printk formats, saved cmdlines), zero-padded to 8 bytes as
 * a HEADER_TRACING_DATA payload is: a join's one tracing data, for
 * perf reads one. Written to p when it fits in cap; returns its length,
 * 0 when out of memory.
 */
size_t	pd_tracefmt_build(const struct pd_tracefmt *base,
	    const struct pd_tracefmt *tf, void *p, size_t cap);

/* Blob facts: 1 if the RAW data is big-endian; sizeof(long); version. */
int		 pd_tracefmt_big_endian(const struct pd_tracefmt *);
unsigned	 pd_tracefmt_long_size(const struct pd_tracefmt *);
uint32_t	 pd_tracefmt_page_size(const struct pd_tracefmt *);
const char	*pd_tracefmt_version(const struct pd_tracefmt *);

/* The raw text sections ("" when absent). */
struct pd_tf_span	pd_tracefmt_header_page(const struct pd_tracefmt *);
struct pd_tf_span	pd_tracefmt_header_event(const struct pd_tracefmt *);
struct pd_tf_span	pd_tracefmt_kallsyms(const struct pd_tracefmt *);
struct pd_tf_span	pd_tracefmt_printk(const struct pd_tracefmt *);
struct pd_tf_span	pd_tracefmt_cmdlines(const struct pd_tracefmt *);

/*
 * Where field f's bytes are in RAW data raw[0..len): fixed fields at
 * their offset, __data_loc/__rel_loc through their u32 descriptor (read
 * in the blob's byte order, `big_endian`). Sets *p and *n; 0, or -1 when
 * the bytes lie outside the RAW data.
 */
int	pd_tf_field_bytes(const struct pd_tf_field *f, int big_endian,
	    const unsigned char *raw, size_t len, const unsigned char **p,
	    size_t *n);

/* A scalar of `size` (1, 2, 4, 8) bytes in the given byte order. */
uint64_t	pd_tf_get(const unsigned char *p, unsigned size,
		    int big_endian, int is_signed);

#endif /* PD_TRACEFMT_H */
