/* SPDX-License-Identifier: MIT */
/*
 * Joining streams into one, as pdcat (one input after another) and
 * pdsort (merged by time) do: sample ids stay unique across inputs (an
 * id an earlier input claimed is renumbered for the later one), every
 * event gets PERF_SAMPLE_IDENTIFIER (perf finds every record's event by
 * the first attr's layout, which only IDENTIFIER makes the same for
 * all), a later input's EVENT_DESC becomes EVENT_UPDATE NAME records
 * (EVENT_DESC names by index, which in a join is another input's),
 * tracing data whose tracepoint ids mean other tracepoints than an
 * earlier input's is refused, and the output has one tracing data
 * record where it can (perf 6.1 reads only one: pd_join_hold_tracing).
 * Each input keeps its own layouts: records are read by their reader's
 * evlist.
 */
#ifndef PD_JOIN_H
#define PD_JOIN_H

#include <stddef.h>
#include <stdint.h>

struct pd_err;
struct pd_reader;
struct pd_rec;

struct pd_join;

/*
 * How the join writes records of its own (the EVENT_UPDATE NAMEs):
 * 0, or -1 when the output failed.
 */
typedef int	(*pd_join_put_fn)(void *ctx, const struct pd_rec *rec);

/* A join of ninputs inputs (0 .. ninputs-1); NULL when out of memory. */
struct pd_join	*pd_join_new(unsigned ninputs, pd_join_put_fn put, void *ctx);
void		 pd_join_free(struct pd_join *);

/*
 * An event-name suffix for input `in` ("@hostA": its events are named
 * event@hostA): from now on its EVENT_DESC and its NAME updates are
 * written as EVENT_UPDATE NAME records with the suffix. The string must
 * outlive the join. NULL: names as read.
 */
void	pd_join_set_suffix(struct pd_join *, unsigned in, const char *suffix);

/*
 * Keeps input `in`'s processes apart from other inputs': `base` is added
 * to every pid and tid its records name (pids.h says where; 0 and -1
 * stay). 0, the default: pids as read.
 */
void	pd_join_set_pid_base(struct pd_join *, unsigned in, uint32_t base);

/*
 * Puts input `in`'s times on another clock: `offset` (ns) is added to
 * the time of every record of its that has one (never taken below 1,
 * as 0 means none). 0, the default: times as read.
 */
void	pd_join_set_clock(struct pd_join *, unsigned in, int64_t offset);

/*
 * Puts an EVENT_UPDATE NAME, with the suffix, for every event input
 * `in` has so far (the names its reader knows): once its attrs and
 * features are read, so that it overrides what they named. 0, -2 (no
 * memory) or -3 (put failed).
 */
int	pd_join_names(struct pd_join *, unsigned in, struct pd_reader *rd);

/*
 * Holds the inputs' tracing data until pd_join_tracing: a tool that
 * reads every input's head (pd_join_head) before their other records
 * calls it first, so that the output has one tracing data record,
 * written after every attr, as perf 6.1 needs.
 */
void	pd_join_hold_tracing(struct pd_join *);

/*
 * 1 when a record of this type belongs to an input's head: attrs,
 * features, event names (EVENT_UPDATE) and tracing data, which perf
 * and the reader of a file-mode input put before everything else.
 */
int	pd_join_head(uint32_t type);

/*
 * Ends the hold: the one HEADER_TRACING_DATA for the tracing data held,
 * in *rec with its *len bytes of payload at *blob (valid until the next
 * call): the first input's as read when the others add no format to
 * it, else one blob with every input's formats and the first one's
 * other parts. 1: write it; 0: none was held; -2: out of memory.
 */
int	pd_join_tracing(struct pd_join *, struct pd_rec *rec,
	    const unsigned char **blob, size_t *len);

/* Input `in` has ended: its id maps go (the claims stay). */
void	pd_join_end(struct pd_join *, unsigned in);

/*
 * Record `rec` of input `in`, read by rd, through the join; *rec then
 * describes the bytes to write (the join's own copy, valid until the
 * next call). Returns:
 *   0	write *rec: with its payload from rd when rec->payload, or, when
 *	*blob is set, the *bloblen bytes at *blob after it (tracing data
 *	the join had to read whole);
 *   1	nothing to write (said by put, left out, or tracing data held
 *	or adding nothing to the tracing data written);
 *   2	as 0, tracing data adding formats after the first was written:
 *	a second HEADER_TRACING_DATA, where perf 6.1 stops reading; err
 *	says so, as a warning;
 *  -1	bad or unreadable input: err says where and why;
 *  -2	out of memory;
 *  -3	put failed.
 */
int	pd_join_rec(struct pd_join *, unsigned in, struct pd_reader *rd,
	    struct pd_rec *rec, const unsigned char **blob, size_t *bloblen,
	    struct pd_err *err);

/*
 * The most a record grows in the join: a whole sample_id_all trailer
 * (six u64s) added to a record of an event without one.
 */
#define PD_JOIN_GROW_MAX	48

/*
 * pd_join_rec with the new bytes of a kernel record written to `out`
 * (room for rec->size + PD_JOIN_GROW_MAX bytes), so that a caller that
 * keeps the record (pdsort's queue) needs no copy of its own; NULL: the
 * join's own buffer. *rec then describes `out` for kernel records.
 */
int	pd_join_rec_to(struct pd_join *, unsigned in, struct pd_reader *rd,
	    struct pd_rec *rec, unsigned char *out,
	    const unsigned char **blob, size_t *bloblen, struct pd_err *err);

/*
 * The common case of pd_join_rec_to, for a tool's own loop: a SAMPLE
 * of an id the join has taken before, built at `out` (not NULL). 1:
 * done, as pd_join_rec_to's 0, with pd_join_time; 0: nothing done,
 * pd_join_rec_to it.
 */
int	pd_join_sample_fast(struct pd_join *, unsigned in,
	    struct pd_reader *rd, struct pd_rec *rec, unsigned char *out);

/*
 * The time of the record pd_join_rec returned last, as perf's ordering
 * sees it (PERF_SAMPLE_TIME or the trailer's, on the input's clock as
 * set), 0 when it has none.
 */
uint64_t	pd_join_time(const struct pd_join *);

#endif /* PD_JOIN_H */
