/* SPDX-License-Identifier: MIT */
/*
 * Record views: where each field of a record sits, written once.
 *
 * A parse function reads a record (native order, any alignment) into a
 * struct of native values and pointers into the record, named as in
 * perf's tools/lib/perf/include/perf/event.h (perf_record_comm is
 * struct pd_record_comm here). Every byte is untrusted: a parse returns
 * -1 when the record is too small for the fields it reads, or when a
 * string in it has no NUL within the record; pointers stay valid as long
 * as the record does. The sample_id_all trailer is not part of a view
 * (sample.h parses it).
 *
 * A build function writes a record in the output's byte order (swap: 1
 * for the other order than the host's) and returns its size, as
 * snprintf does: the record is written only when it fits `cap` bytes, so
 * a caller may ask for the size first with cap 0. Strings are written
 * with their NUL and zero padding to 8; a sample_id_all trailer of
 * id_hdr_size bytes, when asked for, is all zeros (what perf synthesizes).
 *
 * The field tables at the end drive the walkers that visit every field
 * of a record in order: swap.c (byte order) and decode.c (pddump).
 */
#ifndef PD_EVENT_H
#define PD_EVENT_H

#include <byteswap.h>
#include <stddef.h>
#include <stdint.h>

#include "libcommon/stream/perf.h"
#include "libcommon/stream/record.h"

/* ---- the record header (struct perf_event_header) -------------------- */

/* The header fields of the native record at rec, at any alignment. */
static inline uint32_t
pd_header_type(const void *rec)
{
	return pd_get_u32(rec);
}

static inline uint16_t
pd_header_misc(const void *rec)
{
	return pd_get_u16((const unsigned char *)rec + 4);
}

static inline uint16_t
pd_header_size(const void *rec)
{
	return pd_get_u16((const unsigned char *)rec + 6);
}

/* Changes a native header's size (a record that grew or shrank). */
static inline void
pd_header_set_size(void *rec, uint16_t size)
{
	pd_put_u16((unsigned char *)rec + 6, size);
}

/* Changes a native header's misc. */
static inline void
pd_header_set_misc(void *rec, uint16_t misc)
{
	pd_put_u16((unsigned char *)rec + 4, misc);
}

/*
 * Writes an 8-byte record header. A record of only a header
 * (FINISHED_ROUND, FINISHED_INIT) is this with size 8.
 */
static inline void
pd_header_put(void *rec, uint32_t type, uint16_t misc, uint16_t size,
    int swap)
{
	unsigned char *p = rec;

	pd_put_u32(p, swap ? bswap_32(type) : type);
	pd_put_u16(p + 4, swap ? bswap_16(misc) : misc);
	pd_put_u16(p + 6, swap ? bswap_16(size) : size);
}

/*
 * Fills `rec` from the native record at p (its header says type, misc
 * and size); offset, payload and flags are 0.
 */
void	pd_rec_view(struct pd_rec *rec, const void *p);

/* The 16-byte pipe-mode stream header (PD_PIPE_HDR_SIZE bytes). */
void	pd_pipe_header_put(void *p, int swap);

/* ---- kernel records ------------------------------------------------- */

/* PERF_RECORD_COMM; exec: PERF_RECORD_MISC_COMM_EXEC. */
struct pd_record_comm {
	uint32_t	 pid, tid;
	const char	*comm;
	size_t		 comm_len;	/* up to its NUL */
	int		 exec;
};

int	pd_record_comm_parse(const struct pd_rec *, struct pd_record_comm *);
size_t	pd_record_comm_build(void *p, size_t cap, uint16_t misc,
	    const struct pd_record_comm *, size_t id_hdr_size, int swap);

/* PERF_RECORD_FORK and PERF_RECORD_EXIT. */
struct pd_record_fork {
	uint32_t	 pid, ppid;
	uint32_t	 tid, ptid;
	uint64_t	 time;
};

int	pd_record_fork_parse(const struct pd_rec *, struct pd_record_fork *);
size_t	pd_record_fork_build(void *p, size_t cap, uint32_t type,
	    const struct pd_record_fork *, size_t id_hdr_size, int swap);

/* PERF_RECORD_MMAP. */
struct pd_record_mmap {
	uint32_t	 pid, tid;
	uint64_t	 start, len, pgoff;
	const char	*filename;
	size_t		 filename_len;
};

int	pd_record_mmap_parse(const struct pd_rec *, struct pd_record_mmap *);
size_t	pd_record_mmap_build(void *p, size_t cap, uint16_t misc,
	    const struct pd_record_mmap *, size_t id_hdr_size, int swap);

/*
 * PERF_RECORD_MMAP2. Its 24 bytes after pgoff are {maj, min, ino,
 * ino_generation}, or with PERF_RECORD_MISC_MMAP_BUILD_ID {u8 size, 3
 * reserved bytes, build_id[20]}: then build_id is set (NULL otherwise)
 * and the device fields are 0.
 */
struct pd_record_mmap2 {
	uint32_t		 pid, tid;
	uint64_t		 start, len, pgoff;
	uint32_t		 maj, min;
	uint64_t		 ino, ino_generation;
	const unsigned char	*build_id;
	uint8_t			 build_id_size;	/* at most 20 */
	uint32_t		 prot, flags;
	const char		*filename;
	size_t			 filename_len;
};

int	pd_record_mmap2_parse(const struct pd_rec *, struct pd_record_mmap2 *);
size_t	pd_record_mmap2_build(void *p, size_t cap, uint16_t misc,
	    const struct pd_record_mmap2 *, size_t id_hdr_size, int swap);

/* PERF_RECORD_LOST: `lost` records of the event with sample id `id`. */
struct pd_record_lost {
	uint64_t	 id, lost;
};

int	pd_record_lost_parse(const struct pd_rec *, struct pd_record_lost *);

/* PERF_RECORD_LOST_SAMPLES. */
struct pd_record_lost_samples {
	uint64_t	 lost;
};

int	pd_record_lost_samples_parse(const struct pd_rec *,
	    struct pd_record_lost_samples *);

/*
 * PERF_RECORD_SWITCH and SWITCH_CPU_WIDE: out and preempt from misc;
 * the next (switching in) or previous task only in SWITCH_CPU_WIDE.
 */
struct pd_record_switch {
	int		 out, preempt;
	uint32_t	 next_prev_pid, next_prev_tid;
};

int	pd_record_switch_parse(const struct pd_rec *,
	    struct pd_record_switch *);

/* PERF_RECORD_READ: the values as the event's read_format lays them. */
struct pd_record_read {
	uint32_t		 pid, tid;
	const unsigned char	*values;
	size_t			 values_len;	/* to the record's end */
};

int	pd_record_read_parse(const struct pd_rec *, struct pd_record_read *);

/* ---- perf's own records -------------------------------------------- */

/*
 * HEADER_ATTR: a perf_event_attr and the sample ids of its event.
 * attr_size is the attr's size field as stored (0 means VER0's 64);
 * ids and nids are set when that size fits the record, else NULL and 0.
 */
struct pd_record_header_attr {
	const unsigned char	*attr;
	uint32_t		 attr_size;
	const unsigned char	*ids;		/* nids u64s */
	size_t			 nids;
};

int	pd_record_header_attr_parse(const struct pd_rec *,
	    struct pd_record_header_attr *);

/*
 * How many ids one HEADER_ATTR holds after an attr of attr_size bytes:
 * about 8170 for perf 6.1's 128-byte attr, as header.size is a u16.
 * perf writes an event with more (CPUs x threads) as one record whose
 * size wraps, which no reader can follow. pdtools writes such an event
 * as several HEADER_ATTR records, each with the same attr and the next
 * ids, the first one full; every one after the first has
 * PD_RECORD_MISC_ATTR_MORE in misc. perf 6.1 ignores misc there and
 * reads each record as an event of its own, with the same attr, so it
 * finds every sample's event by its id; pdtools' readers add the ids to
 * the event before (evlist.h), so that the records make one event.
 */
size_t	pd_record_header_attr_ids_max(size_t attr_size);

/*
 * HEADER_BUILD_ID: pid (-1 for the kernel), the build id and the path.
 * With PD_RECORD_MISC_BUILD_ID_SIZE in misc the record says the id's
 * size; without, build_id_size is 20 (perf pads shorter ids with zeros).
 */
struct pd_record_header_build_id {
	int32_t			 pid;
	const unsigned char	*build_id;
	uint8_t			 build_id_size;	/* at most 20 */
	const char		*filename;
	size_t			 filename_len;
};

int	pd_record_header_build_id_parse(const struct pd_rec *,
	    struct pd_record_header_build_id *);
size_t	pd_record_header_build_id_build(void *p, size_t cap, uint16_t misc,
	    const struct pd_record_header_build_id *, int swap);

/*
 * HEADER_TRACING_DATA: `size` bytes of tracing data follow the record;
 * simpleperf writes them inside it instead, where `data` points then
 * (NULL for perf's layout).
 */
struct pd_record_header_tracing_data {
	uint32_t		 size;
	const unsigned char	*data;
};

int	pd_record_header_tracing_data_parse(const struct pd_rec *,
	    struct pd_record_header_tracing_data *);
size_t	pd_record_header_tracing_data_build(void *p, size_t cap,
	    uint16_t misc, uint32_t size, int swap);

/*
 * ID_INDEX: nr entries {id, idx, cpu, tid} (perf 6.x may append nr
 * {machine_pid, vcpu}). nr is as stored; fit says how many entries the
 * record holds.
 */
struct pd_record_id_index {
	uint64_t		 nr;
	uint64_t		 fit;
	const unsigned char	*entries;
};

struct pd_id_index_entry {
	uint64_t	 id, idx;
	uint32_t	 cpu, tid;
};

int	pd_record_id_index_parse(const struct pd_rec *,
	    struct pd_record_id_index *);
/* Entry i < fit. */
void	pd_record_id_index_entry(const struct pd_record_id_index *,
	    uint64_t i, struct pd_id_index_entry *);

/*
 * The bytes that follow a record outside header.size: HEADER_TRACING_DATA's
 * size (perf's layout; see above for simpleperf's) and AUXTRACE's; 0 for
 * other records, or when the record is too small to say.
 */
uint64_t	pd_record_payload(const struct pd_rec *);

/*
 * EVENT_UPDATE: type (PD_EVENT_UPDATE_*) and the sample id of the event
 * it updates, then data, len bytes to the record's end: a unit or name
 * (for those, str/str_len are the text up to its NUL, or to the end),
 * a double scale, or a cpu map.
 */
struct pd_record_event_update {
	uint64_t		 type, id;
	const unsigned char	*data;
	size_t			 len;
	const char		*str;
	size_t			 str_len;
};

int	pd_record_event_update_parse(const struct pd_rec *,
	    struct pd_record_event_update *);
/* An EVENT_UPDATE NAME record for the event of sample id `id`. */
size_t	pd_record_event_update_name_build(void *p, size_t cap, uint64_t id,
	    const char *name, size_t len, int swap);

/* HEADER_FEATURE: a feature section's body (feature.h reads them). */
struct pd_record_header_feature {
	uint64_t		 feat_id;
	const unsigned char	*data;
	size_t			 size;
};

#define PD_RECORD_FEATURE_HEAD	16	/* header and feat_id: the body after */

int	pd_record_header_feature_parse(const struct pd_rec *,
	    struct pd_record_header_feature *);
/*
 * A HEADER_FEATURE record of len body bytes, copied as they are (in the
 * output's order already); body NULL when they are in place at
 * p + PD_RECORD_FEATURE_HEAD.
 */
size_t	pd_record_header_feature_build(void *p, size_t cap, uint64_t feat_id,
	    const void *body, size_t len, int swap);

/*
 * The COMPRESSED feature (HEADER_FEATURE of PD_FEAT_COMPRESSED): u32
 * version, type (1: zstd), level, ratio, mmap_len. Parse fails for any
 * other record.
 */
struct pd_feat_compressed {
	uint32_t	 version, type, level, ratio, mmap_len;
};

int	pd_feat_compressed_parse(const struct pd_rec *,
	    struct pd_feat_compressed *);
size_t	pd_feat_compressed_build(void *p, size_t cap,
	    const struct pd_feat_compressed *, int swap);

/*
 * The CLOCK_DATA feature (perf's feature 29, written by perf record -k
 * and always by pdrecord): u32 version (1), u32 clockid, u64 tod_ns
 * (wall clock, ns since the epoch) and u64 clockid_ns (the events'
 * clock), read together at the start of the recording. An event time t
 * is wall-clock time tod_ns + (t - clockid_ns). 40 bytes, as perf's.
 * Parse fails for any other record.
 */
struct pd_feat_clock_data {
	uint32_t	 version, clockid;
	uint64_t	 tod_ns, clockid_ns;
};

int	pd_feat_clock_data_parse(const struct pd_rec *,
	    struct pd_feat_clock_data *);
size_t	pd_feat_clock_data_build(void *p, size_t cap,
	    const struct pd_feat_clock_data *, int swap);

/*
 * COMPRESSED (zstd data to the record's end) and COMPRESSED2 (u64
 * data_size, the data, zero padding to 8). The parse fails when
 * data_size runs past the record; data_size then says what the record
 * claims (0: the record is too small to hold it at all).
 */
struct pd_record_compressed {
	const unsigned char	*data;
	uint64_t		 data_size;
};

int	pd_record_compressed_parse(const struct pd_rec *,
	    struct pd_record_compressed *);
/*
 * The head of a COMPRESSED or COMPRESSED2 record of data_size bytes of
 * data: writes it at p (room for 16 bytes) and returns its length; the
 * data follow it, and *size - head - data_size zero bytes after them.
 */
size_t	pd_record_compressed_head(void *p, uint32_t type, size_t data_size,
	    size_t *size, int swap);

/*
 * The record offsets of the sample ids the fixed fields of a record
 * name, for tools that rewrite ids in place: LOST, THROTTLE, UNTHROTTLE,
 * EVENT_UPDATE and STAT name one; HEADER_ATTR one per id, ID_INDEX one
 * per entry (the entries the record holds). SAMPLEs, READ values and
 * sample_id_all trailers are sample.h's. Calls fn(ctx, offset) for each.
 */
void	pd_record_id_offsets(const struct pd_rec *,
	    void (*fn)(void *ctx, size_t off), void *ctx);

/*
 * The record offsets of the process and thread ids that the fixed fields
 * of a record name, for tools that rewrite them in place (pdsort keeping
 * hosts apart): pid and tid of MMAP, MMAP2, COMM, READ, ITRACE_START,
 * NAMESPACES and AUXTRACE_ERROR, pid, ppid, tid and ptid of FORK and
 * EXIT, next_prev_pid and _tid of SWITCH_CPU_WIDE, AUXTRACE's tid, the
 * tid of each ID_INDEX entry (u32 each), and each THREAD_MAP entry's pid
 * (a u64). SAMPLEs and sample_id_all trailers are sample.h's;
 * HEADER_BUILD_ID's pid names a machine, not a process. Calls
 * fn(ctx, offset, width) for each field the record holds.
 */
void	pd_record_pid_offsets(const struct pd_rec *,
	    void (*fn)(void *ctx, size_t off, unsigned width), void *ctx);

/* ---- field tables ----------------------------------------------------- */

/*
 * The payload of a record type after its header, field by field: what
 * swap.c converts and decode.c shows, so neither spells a layout. A
 * table ends with PD_F_END. Numbers swap at their width; bytes and
 * strings never do.
 */
enum pd_field_kind {
	PD_F_END,
	PD_F_U8,	/* a number of `size` bytes: one kind per width, */
	PD_F_U16,	/* so that the swap walker needs one test per field */
	PD_F_U32,
	PD_F_U64,
	PD_F_PAD,	/* `size` reserved bytes: swapped as a number of that
			   width (1: left); decode skips them unread */
	PD_F_BYTES,	/* `size` bytes as they are (a tag) */
	PD_F_STR,	/* a NUL-terminated string filling the rest */
	PD_F_SKIP,	/* the rest: bytes, not shown */
	PD_F_RESTLEN,	/* the rest: bytes, shown as their length */
	PD_F_MISC,	/* bit `size` of header.misc: shown, not stored;
			   only other MISC fields follow one */
	PD_F_OPT,	/* the fields after it are there only when they fit
			   (an older writer ends before them) */
	PD_F_U64S,	/* u64s to the end, shown as a list */
	PD_F_LIST,	/* a list of `sub` entries, as many as the last
			   number said; u64s (swapped to the end) */
	PD_F_LIST_FIT,	/* the same, present only when all entries fit */
	PD_F_READ,	/* READ values by the event's read_format (u64s) */
	PD_F_NAMESPACES, /* LIST of `sub`, each named by its index */
	PD_F_MMAP2_ID,	/* MMAP2's 24 bytes: {u32 maj, u32 min, u64 ino,
			   u64 ino_generation}, or a build id (misc) */
	PD_F_POKE	/* TEXT_POKE's old and new bytes, sized by the two
			   numbers before: the rest, as bytes */
};

struct pd_field {
	const char		*name;	/* as pddump shows it; NULL: none */
	uint8_t			 kind;	/* enum pd_field_kind */
	uint8_t			 size;	/* bytes (number, PAD, BYTES); bit */
	uint8_t			 fmt;	/* enum pd_dfmt (decode.h) */
	const struct pd_field	*sub;	/* one entry of a list */
};

/*
 * The table of each record type below PD_RECORD_USER_MAX, or NULL where
 * code lays it out (HEADER_ATTR, HEADER_BUILD_ID, AUXTRACE_ERROR,
 * THREAD_MAP, CPU_MAP, EVENT_UPDATE, HEADER_FEATURE, BPF_METADATA,
 * SCHEDSTAT_DOMAIN; SAMPLE) or the type is unknown.
 */
extern const struct pd_field *const pd_record_layouts[PD_RECORD_USER_MAX];

#endif /* PD_EVENT_H */
