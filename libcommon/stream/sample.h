/* SPDX-License-Identifier: MIT */
/*
 * PERF_RECORD_SAMPLE and the sample_id_all trailer, parsed on demand.
 * Every length is checked against the record before it is used; the
 * pointers point into the record (unaligned: read them with pd_get_u64)
 * and live as long as it does.
 */
#ifndef PD_SAMPLE_H
#define PD_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include "libcommon/stream/evlist.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/record.h"

struct pd_rec;

struct pd_sample {
	uint64_t	 type;		/* the sample_type that laid it out */
	uint64_t	 id;		/* IDENTIFIER or ID */
	uint64_t	 ip;
	uint32_t	 pid, tid;
	uint64_t	 time;
	uint64_t	 addr;
	uint64_t	 stream_id;
	uint32_t	 cpu, cpu_res;
	uint64_t	 period;

	/* READ: read_nr entries, see pd_sample_read_entry() */
	uint64_t	 read_format;
	uint64_t	 read_nr;
	uint64_t	 read_time_enabled;
	uint64_t	 read_time_running;
	const unsigned char *read_values;
	unsigned	 read_stride;

	uint64_t	 callchain_nr;
	const unsigned char *callchain;

	uint32_t	 raw_size;
	const unsigned char *raw;

	uint64_t	 branch_nr;
	uint64_t	 branch_hw_idx;
	int		 branch_has_hw_idx;
	const unsigned char *branch;	/* nr x {from, to, flags} */
	const unsigned char *branch_counters;	/* nr u64s, or NULL */

	uint64_t	 regs_user_abi;
	uint64_t	 regs_user_mask;
	unsigned	 regs_user_nr;
	const unsigned char *regs_user;

	uint64_t	 stack_size;
	uint64_t	 stack_dyn_size;
	const unsigned char *stack;

	uint64_t	 weight;
	uint64_t	 data_src;
	uint64_t	 transaction;

	uint64_t	 regs_intr_abi;
	uint64_t	 regs_intr_mask;
	unsigned	 regs_intr_nr;
	const unsigned char *regs_intr;

	uint64_t	 phys_addr;
	uint64_t	 cgroup;
	uint64_t	 data_page_size;
	uint64_t	 code_page_size;

	uint64_t	 aux_size;
	const unsigned char *aux;

	/* Record offsets of the id fields (0: absent), for rewriting ids. */
	uint16_t	 identifier_off;
	uint16_t	 id_off;
	uint16_t	 read_off;
};

/*
 * Parses a SAMPLE produced by `ev`. Returns 0, or -1 with *why naming
 * the field that does not fit the record (or an unknown layout bit).
 */
int	pd_sample_parse(const struct pd_evsel *ev, const struct pd_rec *rec,
	    struct pd_sample *s, const char **why);

/*
 * ev's sample shape (samplehead.h), from its attr, parsable bit and
 * head: for the evlist, once per event.
 */
void	pd_sample_shape(const struct pd_evsel *ev, struct pd_sample_shape *);

/* Record offsets of a SAMPLE's id fields (0: absent), as in pd_sample. */
struct pd_sample_ids {
	uint16_t	 identifier_off;
	uint16_t	 id_off;
	uint16_t	 read_off;
};

/*
 * Where a SAMPLE of ev names sample ids, for a tool that rewrites them
 * in every sample (a join): the same answer as pd_sample_parse, which
 * checks the whole record, but without walking its fields when ev's
 * shape is simple. Returns 0, or -1 with pd_sample_parse's *why.
 */
static inline int	pd_sample_ids(const struct pd_evsel *ev,
			    const struct pd_rec *rec, struct pd_sample_ids *ids,
			    const char **why);

/* pd_sample_ids by pd_sample_parse: the shapes that are not simple. */
int	pd_sample_ids_walk(const struct pd_evsel *ev, const struct pd_rec *rec,
	    struct pd_sample_ids *ids, const char **why);

/*
 * Entry i (< read_nr) of a parsed sample's READ values: the counter value,
 * its id and lost count (0 when the read_format lacks them).
 */
void	pd_sample_read_entry(const struct pd_sample *s, uint64_t i,
	    uint64_t *value, uint64_t *id, uint64_t *lost);

/*
 * A sample's period as perf reports it: the sampled one, or the event's
 * fixed sample_period when the event does not sample it.
 */
uint64_t	pd_sample_period(const struct pd_evsel *ev,
		    const struct pd_sample *s);

/*
 * Branch entry i (< branch_nr) of a parsed sample: perf_branch_entry's
 * addresses and its flag bits (little-endian allocation, as the reader
 * hands every input out), and the entry's counters when sampled.
 */
struct pd_branch {
	uint64_t	 from, to;
	unsigned	 mispred, predicted, in_tx, abort;
	unsigned	 cycles;	/* 16 bits */
	unsigned	 type, spec, new_type, priv;
	int		 has_counters;
	uint64_t	 counters;
};

void	pd_sample_branch(const struct pd_sample *s, uint64_t i,
	    struct pd_branch *b);

/*
 * Parses the sample_id_all trailer of a non-SAMPLE kernel record into the
 * trailer's fields of `s` (pid, tid, time, id, stream_id, cpu); the rest
 * is zeroed. Returns 1 when a trailer was parsed, 0 when the event has
 * none, -1 (*why) when it does not fit the record.
 */
int	pd_sample_id_parse(const struct pd_evsel *ev, const struct pd_rec *rec,
	    struct pd_sample *s, const char **why);

/*
 * Where the sample_id_all trailer of a kernel record (not a SAMPLE) of
 * `size` bytes from event ev starts: the record offset, `size` when the
 * event has no trailer, -1 when the record is too small to hold it.
 */
static inline long
pd_sample_id_start(const struct pd_evsel *ev, size_t size)
{
	if (ev->id_hdr_size == 0)
		return size;
	if (size < PD_REC_HDR_SIZE + (size_t)ev->id_hdr_size)
		return -1;
	/* The trailer is always the record's last id_hdr_size bytes. */
	return size - ev->id_hdr_size;
}

/*
 * The record's timestamp as perf's ordering sees it (PERF_SAMPLE_TIME of a
 * SAMPLE, or the trailer's time), or 0 when it has none. Cheap: it does
 * not parse the whole sample.
 */
uint64_t	pd_sample_rec_time(const struct pd_evsel *ev, const struct pd_rec *rec);

/*
 * Where that time sits: its byte offset in the record, or -1 when it
 * has none (a merge moves times to another clock there).
 */
long	pd_sample_rec_time_at(const struct pd_evsel *ev,
	    const struct pd_rec *rec);

/*
 * Whether SAMPLE rec is exactly its event's simple shape (samplehead.h):
 * its head, then, when sampled, a callchain whose nr accounts for the
 * rest of the record but the shape's `post` bytes: every field of such
 * a record is where the layout puts it (pd_dhead_read reads them so;
 * pd_sample_parse walks any record). *nr: the chain's entries, 0
 * without one.
 */
static inline int
pd_sample_exact(const struct pd_evsel *ev, const struct pd_rec *rec,
    uint64_t *nr)
{
	const struct pd_sample_shape *sh = &ev->shape;
	size_t pre = PD_REC_HDR_SIZE + (size_t)sh->pre, chain;

	*nr = 0;
	if (!sh->simple || rec->size < pre + sh->post)
		return 0;
	chain = rec->size - pre - sh->post;
	if (!sh->chain)
		return chain == 0;
	if (chain < 8 || chain % 8 != 0 ||
	    pd_get_u64(rec->data + pre) != chain / 8 - 1)
		return 0;
	*nr = chain / 8 - 1;
	return 1;
}

static inline int
pd_sample_ids(const struct pd_evsel *ev, const struct pd_rec *rec,
    struct pd_sample_ids *ids, const char **why)
{
	const struct pd_sample_shape *sh = &ev->shape;
	uint64_t st = ev->attr.sample_type, body = rec->size - PD_REC_HDR_SIZE;
	uint64_t fixed = (uint64_t)sh->pre + sh->post;

	/* pd_sample_parse's checks, for a simple shape, in one sum. */
	if (!sh->simple || (!sh->chain ? body < fixed : body < fixed + 8 ||
	    pd_get_u64(rec->data + PD_REC_HDR_SIZE + sh->pre) >
	    (body - fixed - 8) / 8))
		return pd_sample_ids_walk(ev, rec, ids, why);
	ids->identifier_off = st & PERF_SAMPLE_IDENTIFIER ?
	    PD_REC_HDR_SIZE : 0;
	ids->id_off = st & PERF_SAMPLE_ID ? PD_REC_HDR_SIZE + ev->head.id : 0;
	ids->read_off = st & PERF_SAMPLE_READ ?
	    PD_REC_HDR_SIZE + ev->head.size : 0;
	return 0;
}

#endif /* PD_SAMPLE_H */
