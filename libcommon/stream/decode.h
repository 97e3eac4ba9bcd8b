/* SPDX-License-Identifier: MIT */
/*
 * Records field by field: every non-SAMPLE record (MMAP2, COMM,
 * ID_INDEX, CPU_MAP, EVENT_UPDATE, ...), perf_event_attr, feature bodies
 * (decode_feat.c) and SAMPLE with every field in it (decode_sample.c),
 * walked in order and handed to a visitor as named values. A printer
 * (pddump's text and JSON forms) is one visitor. Most records are walked
 * by their field tables (event.h), which swap.c walks too; the few with
 * counts and versions no table says are laid out here.
 */
#ifndef PD_DECODE_H
#define PD_DECODE_H

#include <stddef.h>
#include <stdint.h>

struct pd_evlist;
struct pd_evsel;
struct pd_rec;

/* How a value wants to be shown. */
enum pd_dfmt {
	PD_D_U,		/* unsigned number */
	PD_D_S,		/* signed number (u holds the two's complement) */
	PD_D_X,		/* a number best read in hex (flags, masks) */
	PD_D_ADDR,	/* an address: "0x..." */
	PD_D_STR,	/* text p[0..len) (not NUL-terminated) */
	PD_D_BYTES,	/* bytes p[0..len), shown in hex */
	PD_D_DOUBLE,	/* d */
	PD_D_NAMES,	/* flag names p[0..len) ("IP|TID"), number in u */
	PD_D_ADDRS,	/* len addresses: u64s at p, unaligned */
	PD_D_NONE,	/* not in this record (a field its event does not
			   sample); u: the format it has when present */
	PD_D_NULL	/* no value: its bytes are not in the record */
};

struct pd_dval {
	const char	*name;
	size_t		 namelen;	/* strlen(name), or 0: not counted */
	enum pd_dfmt	 fmt;
	uint64_t	 u;
	double		 d;
	const void	*p;
	size_t		 len;
};

/* What open() starts (its `list` argument). */
#define PD_DV_OBJECT	0	/* named values */
#define PD_DV_LIST	1	/* unnamed values, or objects */
#define PD_DV_ROWS	2	/* unnamed objects only: rows of a table */

/*
 * The visitor: val() for each value; open()/close() around a list or an
 * object (name NULL inside a list). ctx is passed back.
 */
struct pd_dvisit {
	void	(*val)(void *ctx, const struct pd_dval *v);
	void	(*open)(void *ctx, const char *name, int list);
	void	(*close)(void *ctx, int list);
	void	*ctx;
};

/*
 * The bounded walker behind every decoder here (records, attrs, feature
 * bodies): each read checks p[off, end) and sets `bad` instead of
 * running past it; values go to the visitor.
 */
struct pd_dwalk {
	const unsigned char	*p;
	size_t			 off, end;
	const struct pd_dvisit	*v;
	int			 bad;
	const char		*why;	/* when bad; NULL: ran past the end */
};

/*
 * The bytes left to walk: 0 once a skip (off +=) has passed the end, so
 * that no caller's end - off can wrap.
 */
static inline size_t
pd_dwalk_left(const struct pd_dwalk *w)
{
	return w->off < w->end ? w->end - w->off : 0;
}

void	pd_dwalk_emit(struct pd_dwalk *, const char *name, enum pd_dfmt,
	    uint64_t u, const void *p, size_t len);
/* 1 if n more bytes fit, else 0 (and the walk is bad). */
int	pd_dwalk_room(struct pd_dwalk *, size_t n);
/* A 1/2/4/8-byte number, visited when name is set; 0 past the end. */
uint64_t	pd_dwalk_num(struct pd_dwalk *, const char *name, unsigned size,
		    enum pd_dfmt);
void	pd_dwalk_open(struct pd_dwalk *, const char *name, int list);
void	pd_dwalk_close(struct pd_dwalk *, int list);

/*
 * Walks the payload of a record (not a SAMPLE) after its header: every
 * field in record order, then for a kernel record of an event with a
 * sample_id_all trailer, the trailer's fields (pid, tid, time, id,
 * stream_id, cpu; via pd_sample_id_parse). `ev` may be NULL.
 * Returns 0, or -1 with *why when the payload does not fit its layout
 * (the fields before the fault were visited).
 */
int	pd_decode_rec(const struct pd_rec *rec, const struct pd_evsel *ev,
	    const struct pd_dvisit *v, const char **why);

/* The trailer alone (as pd_decode_rec does it): 1 visited, 0 none, -1. */
int	pd_decode_trailer(const struct pd_rec *rec, const struct pd_evsel *ev,
	    const struct pd_dvisit *v, const char **why);

/*
 * Walks a SAMPLE, whose event `el` finds, field by field:
 *   "event" (pd_evsel_name), then time, cpu, pid, tid, ip, period, addr,
 *   id (PD_D_NONE when the event does not sample them; an unsampled
 *   period is the event's sample_period), then stream_id, weight,
 *   data_src, transaction, phys_addr, cgroup, data_page_size,
 *   code_page_size when sampled; "callchain" (PD_D_ADDRS, or PD_D_NONE);
 *   then an object for each part sampled:
 *   "read": time_enabled, time_running (as the read_format has them),
 *     rows "values" of value, id, event (the id's), lost;
 *   "branch_stack": nr, hw_idx, rows "entries" of from, to, mispred,
 *     predicted, in_tx, abort, cycles, br_type, spec, new_type, priv,
 *     counters;
 *   "regs_user", "regs_intr": abi, mask, object "regs" of r<bit> values;
 *   "stack_user": size, dyn_size;  "aux": size;
 *   "raw": a tracepoint's fields as the tracing formats lay them out
 *     (named by the format: text, numbers, arrays as lists, PD_D_NULL
 *     for bytes outside the data), else size and data.
 * 0, or -1 with *why: the event is unknown (nothing visited), or a field
 * runs past the record (only "event" visited).
 */
int	pd_decode_sample(const struct pd_rec *rec, const struct pd_evlist *el,
	    const struct pd_dvisit *v, const char **why);

/*
 * A perf_event_attr of `len` bytes (native order): every field up to its
 * size, sample_type / read_format / flags / branch_sample_type by name.
 */
int	pd_decode_attr(const void *attr, size_t len, const struct pd_dvisit *v,
	    const char **why);

/*
 * Walks a feature body (feature id f, `len` bytes, native order) field by
 * field: strings, counts, lists (cmdline, event descriptions with their
 * attrs, topologies, PMU mappings, caches, ...); bodies we do not know
 * come out as bytes. 0, or -1 (*why) when the body is malformed (the
 * fields before the fault were visited).
 */
int	pd_decode_feature(uint64_t f, const unsigned char *p, size_t len,
	    const struct pd_dvisit *v, const char **why);

/*
 * Names of the bits set in `mask` from table[0..n) ("IP|TID|TIME"),
 * unknown bits as "0x..." ; writes at most len-1 bytes. Returns buf.
 */
char	*pd_decode_bits(char *buf, size_t len, uint64_t mask,
	    const char *const *table, size_t n);

/* Bit-name tables, indexed by bit number. */
extern const char *const pd_sample_type_names[];
extern const size_t pd_sample_type_nnames;
extern const char *const pd_read_format_names[];
extern const size_t pd_read_format_nnames;
extern const char *const pd_attr_flag_names[];
extern const size_t pd_attr_flag_nnames;
extern const char *const pd_branch_type_names[];
extern const size_t pd_branch_type_nnames;

#endif /* PD_DECODE_H */
