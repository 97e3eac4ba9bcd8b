/* SPDX-License-Identifier: MIT */
/*
 * The join of streams (join.h). Every id an input uses is claimed by
 * that input the first time it shows up; an id that an earlier input
 * already claimed is given a fresh number for the rest of this input.
 * The maps are keyed by ids the inputs choose, hence pd_idmap's seeded
 * hash.
 */
#include "libcommon/stream/join.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libcommon/stream/event.h"
#include "libcommon/stream/evlist.h"
#include "libcommon/stream/feature.h"
#include "libcommon/stream/idmap.h"
#include "libcommon/stream/ids.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/pids.h"
#include "libcommon/stream/reader.h"
#include "libcommon/stream/record.h"
#include "libcommon/stream/sample.h"
#include "libcommon/stream/tracefmt.h"

/*
 * Owner of the ids the join makes up: an input that uses one of them
 * itself has it renumbered too.
 */
#define OWNER_JOIN	UINT64_MAX

/*
 * What renumber() worked out for a SAMPLE of an event that has
 * PERF_SAMPLE_IDENTIFIER and a simple shape (sample.h), kept by the id
 * as read, so that the next SAMPLEs with that id take a copy and a few
 * stores: most records of a stream are such samples, of one event on a
 * few CPUs. The event is found by that id only when the first event's
 * id_pos is 0 (or there is one event), as pd_evlist_for_rec finds it.
 * The evlist changes only at records that are not kernel ones (attrs,
 * ids, names), and the slots are forgotten at each of them.
 */
#define FAST_SLOTS	8	/* a power of two: by the id's low bits */

struct fast {
	uint64_t	 key;		/* the id as read; 0: empty */
	uint64_t	 id;		/* what it becomes */
	uint32_t	 min_size;	/* the shape's fixed part, chain's nr */
	uint16_t	 chain_at;	/* of the callchain's nr, or 0 */
	/*
	 * Of PERF_SAMPLE_ID, or of IDENTIFIER itself when there is none:
	 * the same test and stores serve both.
	 */
	uint16_t	 id_at;
	uint16_t	 tid_at;	/* of TID when pids move, or 0 */
	uint16_t	 time_at;	/* of PERF_SAMPLE_TIME, or 0 */
};

/*
 * The same for the side-band records of an event that has IDENTIFIER
 * and sample_id_all (COMM, MMAP, FORK ... the rest of most streams),
 * kept by the trailer's IDENTIFIER, its last u64 (where perf finds
 * their event when the first event's is_pos is 1, or there is one).
 */
struct fast_side {
	uint64_t		 key;	/* the id as read; 0: empty */
	uint64_t		 id;	/* what it becomes */
	const struct pd_evsel	*ev;
	uint16_t		 min;	/* the least record size */
	uint16_t		 id_end;	/* PERF_SAMPLE_ID, from the end */
	uint16_t		 time_end;	/* PERF_SAMPLE_TIME, from the end */
};

struct join_in {
	struct fast	 fast[FAST_SLOTS];
	struct fast_side side[FAST_SLOTS];
	/* The events the slots were kept under (the reader's evlist). */
	const struct pd_evsel *fast_evsels;
	size_t		 fast_n;
	struct pd_idmap	 map;		/* this input's id -> new id */
	struct pd_idmap	 evids;		/* this input's event -> its id */
	const char	*suffix;	/* event names get it, or NULL */
	uint32_t	 pid_base;	/* added to its pids and tids */
	int64_t		 clock;		/* added to its times */
	size_t		 nev;		/* its events so far (attr_placed) */
	const struct pd_evlist *el;	/* its reader's events */
};

struct pd_join {
	struct pd_idmap	 owners;	/* id -> input that claimed it */
	struct join_in	*in;
	unsigned	 nin;
	uint64_t	 input;		/* the input being read */
	uint64_t	 next_id;
	uint64_t	 time;		/* the last record's, or 0 */
	/* The event the last ATTR written was of (input, idx), if any. */
	int		 attr_last;
	uint64_t	 attr_in, attr_ev;
	uint64_t	 first_in;	/* the input of the output's first event */
	/*
	 * While renumber() maps the ids of a kernel record (map_id_rec):
	 * its input's events, and the one event of an input of one, which
	 * the input's reader gives every record to, whatever id it names
	 * (as perf does).
	 */
	const struct pd_evlist *rec_el;
	const struct pd_evsel *one_ev;
	int		 nomem;
	struct pd_tracefmt *tf;		/* the earlier inputs' formats */
	const char	*tf_why;	/* one of them did not parse: why */
	unsigned char	*blob;		/* this input's tracing data */
	size_t		 blob_cap;
	/* The one tracing data perf reads (join_tracing). */
	int		 hold;		/* held until pd_join_tracing */
	int		 written;	/* a HEADER_TRACING_DATA went out */
	int		 combine;	/* held ones add to the first's formats */
	unsigned char	*held;		/* the first one held */
	size_t		 held_len, held_cap;
	unsigned char	 tdrec[16];	/* its record */
	pd_join_put_fn	 put;
	void		*ctx;
	unsigned char	 scratch[PD_REC_MAX + 1];
	unsigned char	 grown[PD_REC_MAX + 1];
	unsigned char	 upd[PD_REC_MAX];
};

struct pd_join *
pd_join_new(unsigned ninputs, pd_join_put_fn put, void *ctx)
{
	struct pd_join *j;

	if ((j = calloc(1, sizeof(*j))) == NULL)
		return NULL;
	if ((j->in = calloc(ninputs ? ninputs : 1, sizeof(*j->in))) == NULL) {
		free(j);
		return NULL;
	}
	j->nin = ninputs;
	j->next_id = 1;
	j->put = put;
	j->ctx = ctx;
	return j;
}

void
pd_join_end(struct pd_join *j, unsigned in)
{
	memset(j->in[in].fast, 0, sizeof(j->in[in].fast));
	memset(j->in[in].side, 0, sizeof(j->in[in].side));
	pd_idmap_free(&j->in[in].map);
	pd_idmap_free(&j->in[in].evids);
}

void
pd_join_free(struct pd_join *j)
{
	unsigned i;

	if (j == NULL)
		return;
	for (i = 0; i < j->nin; i++)
		pd_join_end(j, i);
	free(j->in);
	pd_idmap_free(&j->owners);
	pd_tracefmt_free(j->tf);
	free(j->blob);
	free(j->held);
	free(j);
}

void
pd_join_set_suffix(struct pd_join *j, unsigned in, const char *suffix)
{
	j->in[in].suffix = suffix;
}

void
pd_join_set_pid_base(struct pd_join *j, unsigned in, uint32_t base)
{
	j->in[in].pid_base = base;
	/* The slots know whether pids move (struct fast's tid_at). */
	memset(j->in[in].fast, 0, sizeof(j->in[in].fast));
}

void
pd_join_set_clock(struct pd_join *j, unsigned in, int64_t offset)
{
	j->in[in].clock = offset;
}

uint64_t
pd_join_time(const struct pd_join *j)
{
	return j->time;
}

static uint64_t
map_id(void *ctx, uint64_t id)
{
	struct pd_join *j = ctx;
	struct join_in *in = &j->in[j->input];
	uint64_t v;

	if (id == 0)
		return 0;		/* synthesized records: first event */
	if (pd_idmap_get(&in->map, id, &v))
		return v;
	if (!pd_idmap_get(&j->owners, id, &v)) {
		v = id;
	} else if (v == j->input) {
		return id;
	} else {
		do
			v = j->next_id++;
		while (pd_idmap_get(&j->owners, v, NULL));
	}
	if (id >= j->next_id)
		j->next_id = id + 1;
	if (v >= j->next_id)
		j->next_id = v + 1;
	if (pd_idmap_put(&j->owners, v, v == id ? j->input : OWNER_JOIN) < 0 ||
	    pd_idmap_put(&in->map, id, v) < 0)
		j->nomem = 1;
	return v;
}

/*
 * The id that stands for an event in records that carry none, once every
 * event has PERF_SAMPLE_IDENTIFIER: its first id, or a fresh one for an
 * event that has none (one event recorded without ids).
 */
static uint64_t
event_id(void *ctx, const struct pd_evsel *ev)
{
	struct pd_join *j = ctx;
	struct join_in *in = &j->in[j->input];
	uint64_t v;
	size_t k = 0;

	/*
	 * Its first id that still names it: in a crafted stream a later
	 * ATTR can take an event's ids (the last claim holds, in perf as
	 * in our reader), and that may come after this is first asked.
	 */
	if (ev->nids > 0) {
		while (in->el != NULL && k < ev->nids &&
		    pd_evlist_by_id(in->el, ev->ids[k]) != ev)
			k++;
		if (k < ev->nids)
			return map_id(j, ev->ids[k]);
		/*
		 * None does: only id 0 can name it, if it is its input's
		 * first event and that is the output's first too.
		 */
		if (ev == &in->el->evsels[0] && j->attr_last &&
		    j->first_in == j->input)
			return 0;
		return map_id(j, ev->ids[0]);
	}
	if (pd_idmap_get(&in->evids, ev->idx, &v))
		return v;
	do
		v = j->next_id++;
	while (pd_idmap_get(&j->owners, v, NULL));
	if (pd_idmap_put(&j->owners, v, OWNER_JOIN) < 0 ||
	    pd_idmap_put(&in->evids, ev->idx, v) < 0)
		j->nomem = 1;
	return v;
}

/*
 * map_id for the ids of a kernel record (renumber): each names in the
 * output the event it names in its input. Id 0 (synthesized records)
 * is the input's first event, and the output's first only when that is
 * the same event: else it becomes the event's id. In an input of one
 * event, any id names that event, and in the output, which has more,
 * one that is not the event's would name none: it becomes the event's.
 */
static uint64_t
map_id_rec(void *ctx, uint64_t id)
{
	struct pd_join *j = ctx;
	const struct pd_evlist *el = j->rec_el;

	if (el == NULL || el->n == 0)
		return map_id(j, id);
	if (id == 0)
		return j->attr_last && j->first_in == j->input ? 0 :
		    event_id(j, &el->evsels[0]);
	if (j->one_ev != NULL && pd_evlist_by_id(el, id) != j->one_ev)
		return event_id(j, j->one_ev);
	return map_id(j, id);
}

/*
 * An ATTR of the input as written (p), flagged as more ids of the event
 * before (PD_RECORD_MISC_ATTR_MORE) or not, as the output's reader must
 * take it: an ATTR that begins an event in the input begins one in the
 * output, whatever its flag said (the event before it in the output may
 * be another input's, with the same attr); one that adds ids to the
 * input's last event adds them to the output's last only if that is
 * the same event, else it begins one of its own, of the same attr.
 */
static void
attr_placed(struct pd_join *j, struct join_in *in,
    const struct pd_evlist *el, unsigned char *p)
{
	uint16_t misc = pd_header_misc(p);
	int more;

	if (el->n == 0)
		return;
	more = el->n == in->nev && j->attr_last &&
	    j->attr_in == j->input && j->attr_ev == el->n - 1;
	if (!more && (misc & PD_RECORD_MISC_ATTR_MORE))
		pd_header_set_misc(p, misc & ~PD_RECORD_MISC_ATTR_MORE);
	in->nev = el->n;
	if (!j->attr_last)
		j->first_in = j->input;
	j->attr_last = 1;
	j->attr_in = j->input;
	j->attr_ev = el->n - 1;
}

/*
 * An EVENT_UPDATE NAME for the event of (new) id `id`: name, len bytes,
 * and the input's suffix. 0, or -1 when put failed.
 */
static int
put_name(struct pd_join *j, uint64_t id, const char *name, size_t len,
    uint64_t offset)
{
	const char *suffix = j->in[j->input].suffix;
	char buf[1024];
	struct pd_rec rec;

	if (suffix != NULL) {
		len = (size_t)snprintf(buf, sizeof(buf), "%.*s%s", (int)len,
		    name, suffix);
		if (len >= sizeof(buf))
			len = sizeof(buf) - 1;
		name = buf;
	}
	if (pd_record_event_update_name_build(j->upd, sizeof(j->upd), id,
	    name, len, 0) > sizeof(j->upd))
		return 0;
	pd_rec_view(&rec, j->upd);
	rec.offset = offset;
	return j->put(j->ctx, &rec);
}

/*
 * EVENT_DESC names events by index, which in a join is the index among
 * every input's events: a later input's would rename the first input's
 * (perf and pdtools name an unnamed event from it, pdtools formerly any).
 * A later input's EVENT_DESC is therefore said as EVENT_UPDATE NAME
 * records, which name by id, and left out.
 */
struct desc_ctx {
	struct pd_join		*j;
	const struct pd_evlist	*el;
	uint64_t		 offset;
};

static int
desc_update(void *ctx, uint32_t idx, const char *name, size_t len,
    const unsigned char *ids, uint32_t nids)
{
	struct desc_ctx *c = ctx;

	(void)ids;
	(void)nids;
	if (idx >= pd_evlist_count(c->el) || len == 0)
		return 0;
	return put_name(c->j, event_id(c->j, pd_evlist_at(c->el, idx)), name,
	    len, c->offset);
}

/*
 * Tracepoint ids are given out per kernel build: the same id may be
 * sched_switch in one input and sched_wakeup in another, and a reader of
 * the join would decode (and pdswap swap) the second input's RAW data by
 * the first one's format, whatever the name. Renumbering tracepoints
 * would mean rewriting the tracing data, every tracepoint attr and every
 * RAW common_type; such a join is refused instead. So a joined input's
 * tracing data is read whole (into j->blob) before it is written, and
 * its formats checked against the earlier inputs'.
 *
 * perf 6.1 reads one HEADER_TRACING_DATA: at a second one it stops
 * ("tracing data size mismatch", its byte count is never reset), and
 * it gives a format only to the events it knows when it reads that one
 * (a tracepoint event of a later HEADER_ATTR has none, and perf script
 * crashes on its samples). Hence (join_tracing's TD_ outcomes):
 *  - while held (pd_join_hold_tracing: the tool reads every input's
 *    attrs and tracing data first), each one is only checked and
 *    kept; pd_join_tracing then gives the one record: the first as
 *    read when the others add no format, else one blob with all of
 *    them (pd_tracefmt_build);
 *  - after that, one that adds no format (the same kernel's) is left
 *    out; one that does is written, a second record that perf cannot
 *    read but pdtools can (TD_LATE: the tool says so).
 */
enum {
	TD_WRITE,	/* write it: the first */
	TD_NONE,	/* nothing to write: held, or adds nothing */
	TD_LATE,	/* write it, a second one */
	TD_REFUSE	/* msg says why */
};

static int
same_name(const struct pd_tf_event *a, const struct pd_tf_event *b)
{
	return strcmp(a->name, b->name) == 0 &&
	    strcmp(a->system, b->system) == 0;
}

/* The payload of rec into j->blob, *len bytes: 0, -1 read error. */
static int
read_blob(struct pd_join *j, struct pd_reader *rd, size_t *len)
{
	const unsigned char *p;
	ssize_t n;

	while ((n = pd_reader_payload(rd, &p)) > 0) {
		if (*len + n > j->blob_cap) {
			size_t cap = j->blob_cap ? j->blob_cap : 65536;
			unsigned char *b;

			while (cap < *len + n)
				cap *= 2;
			if ((b = realloc(j->blob, cap)) == NULL) {
				j->nomem = 1;
				return 0;
			}
			j->blob = b;
			j->blob_cap = cap;
		}
		memcpy(j->blob + *len, p, n);
		*len += n;
	}
	return n < 0 ? -1 : 0;
}

/*
 * TD_REFUSE when tf's formats cannot sit beside the earlier ones (msg
 * says why); else whether tf adds a format to them: 1 or 0. `parsed`:
 * tf's whole blob parsed, its byte order and long size with it.
 */
static int
check_tracing(const struct pd_join *j, const struct pd_tracefmt *tf,
    int parsed, char *msg, size_t msglen)
{
	const struct pd_tf_event *e, *o;
	size_t i;
	int adds = 0;

	if (parsed && j->tf_why == NULL && (pd_tracefmt_big_endian(tf) !=
	    pd_tracefmt_big_endian(j->tf) || pd_tracefmt_long_size(tf) !=
	    pd_tracefmt_long_size(j->tf))) {
		snprintf(msg, msglen, "tracing data of a %s-endian machine "
		    "with %u-byte longs here but %s-endian with %u-byte "
		    "longs in an earlier input: cannot join them",
		    pd_tracefmt_big_endian(tf) ? "big" : "little",
		    pd_tracefmt_long_size(tf), pd_tracefmt_big_endian(j->tf) ?
		    "big" : "little", pd_tracefmt_long_size(j->tf));
		return TD_REFUSE;
	}
	for (i = 0; i < pd_tracefmt_nevents(tf); i++) {
		e = pd_tracefmt_event_at(tf, i);
		if ((o = pd_tracefmt_event(j->tf, e->id)) == NULL) {
			adds = 1;
			continue;
		}
		if (pd_tf_event_same(e, o))
			continue;
		snprintf(msg, msglen, "tracepoint id %" PRIu32 " is %s:%s "
		    "here but %s:%s%s in an earlier input (another kernel): "
		    "cannot join them", e->id, e->system, e->name, o->system,
		    o->name, same_name(e, o) ?
		    " of another format" : "");
		return TD_REFUSE;
	}
	return adds;
}

/* A blob of len bytes in j->blob while held: kept, or its formats. */
static int
hold_tracing(struct pd_join *j, size_t len, int adds, char *msg,
    size_t msglen)
{
	unsigned char *b;
	size_t cap;

	if (j->held_len == 0) {
		/* The first: its bytes are kept by trading buffers. */
		b = j->held;
		cap = j->held_cap;
		j->held = j->blob;
		j->held_cap = j->blob_cap;
		j->held_len = len;
		j->blob = b;
		j->blob_cap = cap;
		return TD_NONE;
	}
	if (!adds)
		return TD_NONE;
	if (j->tf_why != NULL) {
		snprintf(msg, msglen, "tracing data: %s: its formats cannot "
		    "be combined with the other inputs'", j->tf_why);
		return TD_REFUSE;
	}
	j->combine = 1;
	return TD_NONE;
}

static int
join_tracing(struct pd_join *j, struct pd_reader *rd, const struct pd_rec *rec,
    size_t *len, char *msg, size_t msglen)
{
	struct pd_tracefmt *tf;
	const char *why = NULL;
	int adds;

	*len = 0;
	if (rec->payload > PD_TRACEFMT_MAX) {
		snprintf(msg, msglen, "tracing data of %" PRIu64 " bytes is "
		    "too large to check against the other inputs'",
		    rec->payload);
		return TD_REFUSE;
	}
	if (read_blob(j, rd, len) < 0)
		return -1;
	if (j->nomem || (tf = pd_tracefmt_new()) == NULL)
		goto nomem;
	/* why is set on failure only. */
	if (pd_tracefmt_add(tf, j->blob, *len, &why) < 0 ||
	    pd_tracefmt_finish(tf, &why) < 0) {
		if (why == NULL)
			why = "out of memory";
	} else
		why = NULL;
	if (j->tf == NULL) {
		j->tf = tf;
		j->tf_why = why;
		adds = 1;
	} else {
		/* One that does not parse may add what cannot be seen. */
		if ((adds = check_tracing(j, tf, why == NULL, msg,
		    msglen)) == TD_REFUSE) {
			pd_tracefmt_free(tf);
			return TD_REFUSE;
		}
		pd_tracefmt_free(tf);
		if (why != NULL || j->tf_why != NULL)
			adds = 1;
		if (why != NULL && j->tf_why == NULL)
			j->tf_why = why;
		if (adds && pd_tracefmt_add(j->tf, j->blob, *len, &why) < 0) {
			snprintf(msg, msglen, "tracing data: %s", why);
			return TD_REFUSE;
		}
		if (adds && pd_tracefmt_finish(j->tf, &why) < 0 &&
		    j->tf_why == NULL)
			j->tf_why = why != NULL ? why : "out of memory";
	}
	if (j->hold)
		return hold_tracing(j, *len, adds, msg, msglen);
	if (!j->written) {
		j->written = 1;
		return TD_WRITE;
	}
	return adds ? TD_LATE : TD_NONE;

nomem:
	j->nomem = 1;
	return TD_NONE;
}

void
pd_join_hold_tracing(struct pd_join *j)
{
	j->hold = 1;
}

int
pd_join_head(uint32_t type)
{
	return type == PD_RECORD_HEADER_ATTR ||
	    type == PD_RECORD_HEADER_FEATURE ||
	    type == PD_RECORD_EVENT_UPDATE ||
	    type == PD_RECORD_HEADER_TRACING_DATA;
}

int
pd_join_tracing(struct pd_join *j, struct pd_rec *rec,
    const unsigned char **blob, size_t *len)
{
	struct pd_tracefmt *base;
	const char *why;
	size_t n = 0;

	j->hold = 0;
	if (j->held_len == 0)
		return 0;
	*blob = j->held;
	*len = j->held_len;
	if (j->combine) {
		/* The first's parts (pd_tracefmt_build), everyone's events. */
		if ((base = pd_tracefmt_new()) != NULL &&
		    pd_tracefmt_add(base, j->held, j->held_len, &why) == 0 &&
		    pd_tracefmt_finish(base, &why) == 0)
			n = pd_tracefmt_build(base, j->tf, NULL, 0);
		if (n > j->blob_cap) {
			unsigned char *b = realloc(j->blob, n);

			if (b == NULL)
				n = 0;
			else {
				j->blob = b;
				j->blob_cap = n;
			}
		}
		if (n == 0 || n > UINT32_MAX) {
			pd_tracefmt_free(base);
			return -2;
		}
		pd_tracefmt_build(base, j->tf, j->blob, n);
		pd_tracefmt_free(base);
		*blob = j->blob;
		*len = n;
	}
	j->held_len = 0;
	j->combine = 0;
	j->written = 1;
	pd_record_header_tracing_data_build(j->tdrec, sizeof(j->tdrec), 0,
	    (uint32_t)*len, 0);
	pd_rec_view(rec, j->tdrec);
	return 1;
}

/* Bad input at `offset` of rd: err says why. */
static int
join_bad(struct pd_reader *rd, uint64_t offset, const char *why,
    struct pd_err *err)
{
	*err = *pd_reader_err(rd);
	pd_err_set(err, offset, "%s", why);
	err->input = pd_reader_name(rd);
	return -1;
}

/* A time moved by offset; never 0 or below (no time). */
static uint64_t
shift_time(uint64_t ts, int64_t offset)
{
	if (offset < 0 && ts <= (uint64_t)-offset)
		return 1;
	return ts + (uint64_t)offset;
}

/*
 * The record's time, as read, and where it sits in `out` (the record
 * after the join, `grew` its new size or 0): moved by the input's
 * clock offset there. 0 when it has none.
 */
static uint64_t
join_time(const struct pd_evsel *ev, const struct pd_rec *rec,
    unsigned char *out, int grew, int64_t offset)
{
	uint64_t ts;
	long at;

	if ((at = pd_sample_rec_time_at(ev, rec)) < 0)
		return 0;
	ts = pd_get_u64(rec->data + at);
	if (ts == 0 || ts == UINT64_MAX || offset == 0)
		return ts;
	/*
	 * IDENTIFIER goes first in a SAMPLE; a trailer only grows at its
	 * end, after the time, or whole where there was no time.
	 */
	if (grew > 0 && rec->type == PERF_RECORD_SAMPLE)
		at += 8;
	ts = shift_time(ts, offset);
	pd_put_u64(out + at, ts);
	return ts;
}

/*
 * Keeps what renumber() did to SAMPLE `rec` (as read) of event ev for
 * the next ones with its id, when they can be done so (struct fast).
 */
static void
fast_keep(struct join_in *in, const struct pd_evlist *el,
    const struct pd_evsel *ev, const struct pd_rec *rec)
{
	const struct pd_sample_shape *sh = &ev->shape;
	uint64_t st = ev->attr.sample_type, key, id;
	struct fast *f;

	if (!(st & PERF_SAMPLE_IDENTIFIER) || !sh->simple ||
	    (st & PERF_SAMPLE_READ) || sh->pre < ev->head.size ||
	    (el->n > 1 && el->evsels[0].id_pos != 0) ||
	    rec->size < PD_REC_HDR_SIZE + 8)
		return;
	key = pd_get_u64(rec->data + PD_REC_HDR_SIZE);
	/* Not an id its single event does not have (map_id_rec). */
	if (key == 0 || pd_evlist_by_id(el, key) != ev ||
	    !pd_idmap_get(&in->map, key, &id))
		return;
	f = &in->fast[key & (FAST_SLOTS - 1)];
	f->key = key;
	f->id = id;
	f->min_size = PD_REC_HDR_SIZE + sh->pre + sh->post +
	    (sh->chain ? 8 : 0);
	f->chain_at = sh->chain ? PD_REC_HDR_SIZE + sh->pre : 0;
	f->id_at = PD_REC_HDR_SIZE + (st & PERF_SAMPLE_ID ? ev->head.id : 0);
	f->tid_at = in->pid_base != 0 && ev->head.tid != PD_HEAD_NONE ?
	    PD_REC_HDR_SIZE + ev->head.tid : 0;
	f->time_at = st & PERF_SAMPLE_TIME ?
	    PD_REC_HDR_SIZE + ev->head.time : 0;
}

/*
 * renumber() of a SAMPLE whose id a slot knows, when it passes the
 * checks pd_sample_ids makes: 1 done, 0 not (renumber does it).
 */
static inline __attribute__((always_inline)) int
fast_renumber(struct pd_join *j, struct join_in *in, struct pd_rec *rec,
    unsigned char *out)
{
	const unsigned char *p = rec->data;
	uint64_t key, ts;
	const struct fast *f;

	if (rec->size < PD_REC_HDR_SIZE + 8)
		return 0;
	key = pd_get_u64(p + PD_REC_HDR_SIZE);
	f = &in->fast[key & (FAST_SLOTS - 1)];
	if (f->key != key || key == 0)
		return 0;
	/* The checks pd_sample_parse makes of this shape, said as sizes. */
	if (rec->size < f->min_size || (f->chain_at != 0 &&
	    pd_get_u64(p + f->chain_at) > (rec->size - f->min_size) / 8))
		return 0;
	/* An ID that says another id than IDENTIFIER: the long way. */
	if (pd_get_u64(p + f->id_at) != key)
		return 0;
	if (out == NULL)
		out = j->scratch;
	/* Where the reader holds it (pd_reader_hold), it is changed there. */
	if (out != p)
		memcpy(out, p, rec->size);
	pd_put_u64(out + PD_REC_HDR_SIZE, f->id);
	pd_put_u64(out + f->id_at, f->id);
	if (f->tid_at != 0) {
		pd_pids_shift32(out + f->tid_at, in->pid_base);
		pd_pids_shift32(out + f->tid_at + 4, in->pid_base);
	}
	ts = 0;
	if (f->time_at != 0) {
		ts = pd_get_u64(p + f->time_at);
		if (ts != 0 && ts != UINT64_MAX && in->clock != 0) {
			ts = shift_time(ts, in->clock);
			pd_put_u64(out + f->time_at, ts);
		}
	}
	j->time = ts;
	rec->data = out;
	return 1;
}

/* Empties the slots, kept anew under el's events. */
static __attribute__((noinline)) void
fast_forget(struct join_in *in, const struct pd_evlist *el)
{
	memset(in->fast, 0, sizeof(in->fast));
	memset(in->side, 0, sizeof(in->side));
	in->fast_evsels = el->evsels;
	in->fast_n = el->n;
}

/* The side-band records fast_side_keep takes: none names an id. */
static int
side_type(uint32_t type)
{
	return type == PERF_RECORD_MMAP || type == PERF_RECORD_MMAP2 ||
	    type == PERF_RECORD_COMM || type == PERF_RECORD_FORK ||
	    type == PERF_RECORD_EXIT;
}

/*
 * Keeps what renumber() did to side-band record `rec` (as read) of
 * event ev for the next ones with its trailer's id (struct fast_side):
 * its event found by that id, which is the event's own, so that the
 * join adds no id (pd_ids_add_identifier).
 */
static void
fast_side_keep(struct join_in *in, const struct pd_evlist *el,
    const struct pd_evsel *ev, const struct pd_rec *rec)
{
	const struct pd_evsel *first;
	struct fast_side *f;
	uint64_t key, id;
	unsigned min;

	/* An input with no events yet has no evsels to point at. */
	if (ev == NULL)
		return;
	first = &el->evsels[0];
	if (!(ev->attr.sample_type & PERF_SAMPLE_IDENTIFIER) ||
	    !(ev->attr.flags & PD_ATTR_SAMPLE_ID_ALL) ||
	    ev->id_hdr_size < 8 || ev->trailer.identifier !=
	    ev->id_hdr_size - 8 || (el->n > 1 && (first->is_pos != 1 ||
	    first->id_hdr_size == 0)))
		return;
	min = PD_REC_HDR_SIZE + (ev->id_hdr_size > first->id_hdr_size ?
	    ev->id_hdr_size : first->id_hdr_size);
	if (rec->size < min)
		return;
	key = pd_get_u64(rec->data + rec->size - 8);
	if (key == 0 || pd_evlist_by_id(el, key) != ev ||
	    !pd_idmap_get(&in->map, key, &id))
		return;
	f = &in->side[key & (FAST_SLOTS - 1)];
	f->key = key;
	f->id = id;
	f->ev = ev;
	f->min = min;
	f->id_end = ev->trailer.id != PD_HEAD_NONE ?
	    ev->id_hdr_size - ev->trailer.id : 0;
	f->time_end = ev->attr.sample_type & PERF_SAMPLE_TIME ?
	    ev->id_hdr_size - ev->trailer.time : 0;
}

/* renumber() of a side-band record a slot knows: 1 done, 0 not, -1. */
static int
fast_side(struct pd_join *j, struct join_in *in, struct pd_rec *rec,
    unsigned char *out, const char **why)
{
	const unsigned char *p = rec->data;
	const struct fast_side *f;
	unsigned size = rec->size;
	uint64_t key, ts;

	if (size < PD_REC_HDR_SIZE + 8)
		return 0;
	key = pd_get_u64(p + size - 8);
	f = &in->side[key & (FAST_SLOTS - 1)];
	if (f->key != key || key == 0 || size < f->min ||
	    (f->id_end != 0 && pd_get_u64(p + size - f->id_end) != key))
		return 0;
	if (out == NULL)
		out = j->scratch;
	memcpy(out, p, size);
	if (in->pid_base != 0 &&
	    pd_pids_shift_rest(f->ev, rec, out, in->pid_base, why) < 0)
		return -1;
	if (f->id != key) {
		pd_put_u64(out + size - 8, f->id);
		if (f->id_end != 0)
			pd_put_u64(out + size - f->id_end, f->id);
	}
	ts = 0;
	if (f->time_end != 0) {
		ts = pd_get_u64(p + size - f->time_end);
		if (ts != 0 && ts != UINT64_MAX && in->clock != 0) {
			ts = shift_time(ts, in->clock);
			pd_put_u64(out + size - f->time_end, ts);
		}
	}
	j->time = ts;
	rec->data = out;
	return 1;
}

/*
 * Moves the input's pids (by the ids as read), renumbers colliding ids,
 * then gives every event PERF_SAMPLE_IDENTIFIER, into `out` (NULL: the
 * join's buffer) for kernel records; rec then points at the new bytes,
 * and j->time says the record's time.
 */
static int
renumber(struct pd_join *j, struct pd_reader *rd, struct pd_rec *rec,
    unsigned char *out, struct pd_err *err)
{
	const struct pd_evlist *el = pd_reader_evlist(rd);
	const struct pd_evsel *ev = NULL;
	struct join_in *in = &j->in[j->input];
	const char *why;
	int grew;

	/* The event, by the ids as read: found once for every step. */
	j->time = 0;
	if (pd_rec_is_kernel(rec->type))
		ev = pd_evlist_for_rec(el, rec);
	else
		out = NULL;
	if (out == NULL)
		out = j->scratch;
	memcpy(out, rec->data, rec->size);
	j->rec_el = pd_rec_is_kernel(rec->type) ? el : NULL;
	j->one_ev = el->n == 1 ? ev : NULL;
	if ((in->pid_base != 0 && pd_pids_shift_ev(ev, rec, out,
	    in->pid_base, &why) < 0) ||
	    pd_ids_map_ev(el, ev, rec, out, map_id_rec, j, &why) < 0 ||
	    (grew = pd_ids_add_identifier_ev(el, ev, rec, out, j->grown,
	    event_id, j, &why)) < 0) {
		j->rec_el = NULL;
		return join_bad(rd, rec->offset, why, err);
	}
	j->rec_el = NULL;
	if (j->nomem)
		return -2;
	if (grew > 0) {
		/* Rare (events without IDENTIFIER): a second copy. */
		if (out != j->scratch)
			memcpy(out, j->grown, grew);
		else
			out = j->grown;
	}
	if (rec->type == PD_RECORD_HEADER_ATTR)
		attr_placed(j, in, el, out);
	if (ev != NULL)
		j->time = join_time(ev, rec, out, grew, in->clock);
	if (rec->type == PERF_RECORD_SAMPLE && grew == 0)
		fast_keep(in, el, ev, rec);
	else if (side_type(rec->type) && grew == 0)
		fast_side_keep(in, el, ev, rec);
	rec->data = out;
	if (grew > 0)
		rec->size = grew;
	return 0;
}

/* An input with a suffix: its names, each with the suffix, by id. */
static int
suffixed_name(struct pd_join *j, struct pd_reader *rd, struct pd_rec *rec)
{
	const struct pd_evlist *el = pd_reader_evlist(rd);
	struct pd_record_event_update eu;
	uint64_t v;

	if (pd_feat_id(rec) == PD_FEAT_EVENT_DESC) {
		struct desc_ctx dc = { j, el, rec->offset };

		if (pd_feat_event_desc(rec, desc_update, &dc) < 0)
			return -3;
		return j->nomem ? -2 : 1;
	}
	if (pd_record_event_update_parse(rec, &eu) < 0 ||
	    eu.type != PD_EVENT_UPDATE_NAME)
		return 0;
	if (!pd_idmap_get(&j->in[j->input].map, eu.id, &v))
		v = map_id(j, eu.id);
	if (put_name(j, v, eu.str, eu.str_len, rec->offset) < 0)
		return -3;
	return j->nomem ? -2 : 1;
}

int
pd_join_rec(struct pd_join *j, unsigned in, struct pd_reader *rd,
    struct pd_rec *rec, const unsigned char **blob, size_t *bloblen,
    struct pd_err *err)
{
	return pd_join_rec_to(j, in, rd, rec, NULL, blob, bloblen, err);
}

int
pd_join_sample_fast(struct pd_join *j, unsigned in,
    struct pd_reader *rd, struct pd_rec *rec, unsigned char *out)
{
	const struct pd_evlist *el = pd_reader_evlist(rd);
	struct join_in *ji = &j->in[in];

	if (rec->type != PERF_RECORD_SAMPLE || el->evsels != ji->fast_evsels ||
	    el->n != ji->fast_n)
		return 0;
	j->input = in;
	return fast_renumber(j, ji, rec, out);
}

int
pd_join_rec_to(struct pd_join *j, unsigned in, struct pd_reader *rd,
    struct pd_rec *rec, unsigned char *out, const unsigned char **blob,
    size_t *bloblen, struct pd_err *err)
{
	const struct pd_evlist *el = pd_reader_evlist(rd);
	const char *why;
	char msg[512];
	int r;

	*blob = NULL;
	*bloblen = 0;
	j->input = in;
	j->in[in].el = el;
	/*
	 * Events added (or moved by the evlist's realloc) since the slots
	 * were kept, whatever record said so: the slots go.
	 */
	if (__builtin_expect(el->evsels != j->in[in].fast_evsels ||
	    el->n != j->in[in].fast_n, 0))
		fast_forget(&j->in[in], el);
	if (rec->type == PERF_RECORD_SAMPLE &&
	    fast_renumber(j, &j->in[in], rec, out))
		return 0;
	if (side_type(rec->type) &&
	    (r = fast_side(j, &j->in[in], rec, out, &why)) != 0)
		return r > 0 ? 0 : join_bad(rd, rec->offset, why, err);
	j->time = 0;
	/* Attrs, ids and names may change the events: fast_keep anew. */
	if (!pd_rec_is_kernel(rec->type)) {
		memset(j->in[in].fast, 0, sizeof(j->in[in].fast));
		memset(j->in[in].side, 0, sizeof(j->in[in].side));
	}
	if (rec->type == PD_RECORD_EVENT_UPDATE && j->in[in].suffix != NULL &&
	    (r = suffixed_name(j, rd, rec)) != 0)
		return r;
	if (rec->type != PD_RECORD_HEADER_FEATURE)
		goto renumber;
	if (j->in[in].suffix != NULL &&
	    pd_feat_id(rec) == PD_FEAT_EVENT_DESC &&
	    (r = suffixed_name(j, rd, rec)) != 0)
		return r;
	if (in > 0 && pd_feat_id(rec) == PD_FEAT_EVENT_DESC) {
		struct desc_ctx dc = { j, el, rec->offset };

		if (pd_feat_event_desc(rec, desc_update, &dc) < 0)
			return -3;
		return j->nomem ? -2 : 1;
	}
renumber:
	if ((r = renumber(j, rd, rec, out, err)) < 0)
		return r;
	if (rec->type == PD_RECORD_HEADER_TRACING_DATA) {
		if ((r = join_tracing(j, rd, rec, bloblen, msg,
		    sizeof(msg))) < 0) {
			*err = *pd_reader_err(rd);
			return -1;
		}
		if (j->nomem)
			return -2;
		if (r == TD_REFUSE)
			return join_bad(rd, rec->offset, msg, err);
		if (r == TD_NONE)
			return 1;
		*blob = j->blob;
		if (r == TD_LATE) {
			(void)join_bad(rd, rec->offset, "tracing data with "
			    "formats that the one written before lacks: "
			    "written as a second one, where perf 6.1 stops "
			    "reading (pdtools read on)", err);
			return 2;
		}
	}
	return 0;
}

int
pd_join_names(struct pd_join *j, unsigned in, struct pd_reader *rd)
{
	const struct pd_evlist *el = pd_reader_evlist(rd);
	const struct pd_evsel *ev;
	const char *name;
	size_t i, k, max;

	j->input = in;
	j->in[in].el = el;
	for (i = 0; i < pd_evlist_count(el); i++) {
		ev = pd_evlist_at(el, i);
		name = pd_evsel_name(ev);
		if (put_name(j, event_id(j, ev), name, strlen(name), 0) < 0)
			return -3;
		/*
		 * An event of more ids than one HEADER_ATTR holds went out
		 * as several (event.h), which perf reads as an event each:
		 * each one's first id named too.
		 */
		max = pd_record_header_attr_ids_max(ev->attr.size);
		for (k = max; max > 0 && k < ev->nids; k += max)
			if (put_name(j, map_id(j, ev->ids[k]), name,
			    strlen(name), 0) < 0)
				return -3;
	}
	return j->nomem ? -2 : 0;
}
