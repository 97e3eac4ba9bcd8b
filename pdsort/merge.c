/* SPDX-License-Identifier: MIT */
/*
 * pdsort a b ...: a k-way merge by time. One ordered queue takes every
 * input's timed records (ordered.c's merge: a record comes out once
 * every open input has passed its own round limit); the input read
 * next is the one whose limit is lowest, since nothing can come out
 * before it moves, so live pipes are read as fast as the merge can
 * use them and memory stays bounded by rounds and -m. Ids and names go
 * through stream/join.c, as in pdcat. Times: inputs on other clocks or
 * hosts are moved onto the first input's clock through their
 * CLOCK_DATA (or --clock-offset), and the output says that clock once.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "libcommon/cli/msg.h"
#include "libcommon/stream/event.h"
#include "libcommon/stream/evlist.h"
#include "libcommon/stream/feature.h"
#include "libcommon/stream/join.h"
#include "libcommon/stream/keep.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/pids.h"
#include "libcommon/stream/reader.h"
#include "libcommon/stream/sample.h"
#include "libcommon/stream/writer.h"
#include "pdsort/extern.h"

struct src {
	struct pd_reader	*rd;
	struct pd_header_info	 hi;
	struct pd_feat_clock_data cd;
	int			 has_cd;
	int			 clock;		/* its events' clockid, -1: perf's */
	int			 pending;	/* rec is read, not yet handled */
	int			 done;
	unsigned		 host;		/* its host's number, 0 first */
	struct pd_keep		 keep;		/* its samples where read */
	struct pd_rec		 rec;
	char			 suffix[140];	/* "@host" */
};

struct merge {
	struct src		*src;
	unsigned		 n;
	struct pd_join		*join;
	struct pd_writer	*w;
	struct pd_ordered	*q;
	const char		*outname;
};

enum { M_OK, M_ROUND, M_BAD };

static int
put_rec(void *ctx, const struct pd_rec *rec)
{
	return pd_writer_rec(ctx, rec) < 0 ? -1 : 0;
}

static void
die_write(struct merge *m)
{
	pd_die_write(m->outname);
}

/* A queue that could not take a record: no memory, or the output. */
static int
queue_failed(struct merge *m)
{
	if (errno == ENOMEM) {
		pd_warnx("out of memory");
		return M_BAD;
	}
	die_write(m);
	return M_BAD;
}

/*
 * Record rec of input i: queued, written, or taken as a round. Out of
 * line: read_round's loop keeps the common case in registers.
 */
static __attribute__((noinline)) int
handle(struct merge *m, unsigned i, struct pd_rec *rec)
{
	struct src *s = &m->src[i];
	const unsigned char *blob;
	unsigned char *out = NULL;
	struct pd_err err;
	uint64_t ts;
	size_t len;
	int r;

	if (pd_rec_is_kernel(rec->type)) {
		/* The join builds it where the queue keeps it: no copy. */
		out = pd_ordered_room(m->q, rec->size + PD_JOIN_GROW_MAX);
	} else if (rec->type == PD_RECORD_FINISHED_ROUND) {
		if (pd_ordered_round_in(m->q, i) < 0)
			goto queue_failed;
		return M_ROUND;
	} else {
		long long f = pd_feat_id(rec);

		if (f >= 0)
			(void)pd_header_info_update(&s->hi, rec);
		if (f == PD_FEAT_CLOCK_DATA &&
		    pd_feat_clock_data_parse(rec, &s->cd) == 0)
			s->has_cd = 1;
		/* Not compressed; one clock, said once (merge_clocks). */
		if (f == PD_FEAT_COMPRESSED || f == PD_FEAT_CLOCK_DATA ||
		    f == PD_FEAT_CLOCKID)
			return M_OK;
	}
	r = pd_join_rec_to(m->join, i, s->rd, rec, out, &blob, &len, &err);
	if (r == 1)
		return M_OK;
	if (r == -3)
		die_write(m);
	if (r == -2) {
		pd_warnx("out of memory");
		return M_BAD;
	}
	if (r == -1) {
		if (pd_ordered_final(m->q) < 0 || pd_writer_flush(m->w) < 0)
			die_write(m);
		pd_print_err(&err);
		return M_BAD;
	}
	if (r == 2)
		pd_print_err(&err);	/* a warning: written all the same */
	/* On the merged axis (merge_clocks set the input's offset). */
	ts = pd_join_time(m->join);
	if (ts != 0 && ts != UINT64_MAX) {
		if ((r = pd_ordered_queue_in(m->q, i, rec->data, ts)) < 0)
			goto queue_failed;
		if (r == 0)
			return M_OK;
	}
	if (blob != NULL) {
		if (pd_writer_rec(m->w, rec) < 0 ||
		    pd_writer_put(m->w, blob, len) < 0)
			die_write(m);
		return M_OK;
	}
	if ((r = pd_writer_copy(m->w, s->rd, rec)) == -2)
		die_write(m);
	if (r < 0) {
		pd_print_err(pd_reader_err(s->rd));
		return M_BAD;
	}
	return M_OK;

queue_failed:
	return queue_failed(m);
}

/*
 * Input i's head (attrs, features, names, tracing data: pd_join_head),
 * handled, up to its first other record, which is kept (its reader not
 * moved on): then every input's host and clock are known before any
 * time is queued, and the one tracing data record goes after every
 * attr (merge_tracing).
 */
static int
prime(struct merge *m, unsigned i)
{
	struct src *s = &m->src[i];
	int r;

	while ((r = pd_reader_next(s->rd, &s->rec)) > 0) {
		if (!pd_join_head(s->rec.type)) {
			s->pending = 1;
			return M_OK;
		}
		if (handle(m, i, &s->rec) == M_BAD)
			return M_BAD;
	}
	if (r < 0) {
		pd_print_err(pd_reader_err(s->rd));
		return M_BAD;
	}
	s->done = 1;
	return M_OK;
}

static const char *
host_of(const struct src *s)
{
	return s->hi.hostname[0] != '\0' ? s->hi.hostname : "(unknown host)";
}

static const struct clock_offset *
offset_for(const char *host, const struct clock_offset *off, unsigned noff)
{
	unsigned k;

	for (k = 0; k < noff; k++)
		if (strcmp(off[k].host, host) == 0)
			return &off[k];
	return NULL;
}

/* CLOCK_DATA's wall clock at time 0 of the events' clock. */
static int64_t
wall_zero(const struct src *s)
{
	return (int64_t)(s->cd.tod_ns - s->cd.clockid_ns);
}

/* Each host's pids apart, as stream/pids.h says (PD_PIDS_HOST_STEP). */
#define PID_HOSTS_MAX	512

static int
hosts_apart(struct merge *m)
{
	unsigned i, k, hosts = 0;
	const char *h;

	for (i = 0; i < m->n; i++) {
		h = host_of(&m->src[i]);
		for (k = 0; k < i; k++)
			if (strcmp(host_of(&m->src[k]), h) == 0)
				break;
		if (k < i) {
			m->src[i].host = m->src[k].host;
		} else if ((m->src[i].host = hosts++) >= PID_HOSTS_MAX) {
			pd_warnx("%s: more than %d hosts: their pids cannot "
			    "be kept apart", pd_reader_name(m->src[i].rd),
			    PID_HOSTS_MAX);
			return M_BAD;
		}
		pd_join_set_pid_base(m->join, i,
		    m->src[i].host * PD_PIDS_HOST_STEP);
	}
	return M_OK;
}

/*
 * Every input onto the first input's clock (the merged axis): the same
 * clock on the same host needs nothing; another clock or host needs
 * both inputs' CLOCK_DATA, or an offset given by hand. Then the
 * output's one CLOCK_DATA, the first input's, and per-host names.
 */
static int
merge_clocks(struct merge *m, const struct clock_offset *off, unsigned noff)
{
	struct src *ref = &m->src[0], *s;
	const struct clock_offset *o;
	unsigned char b[64];
	unsigned i, hosts = 1;
	struct pd_rec rec;
	size_t len;

	for (i = 0; i < m->n; i++) {
		const struct pd_evlist *el = pd_reader_evlist(m->src[i].rd);
		const struct pd_evsel *ev;

		s = &m->src[i];
		s->clock = -1;
		if (pd_evlist_count(el) > 0) {
			ev = pd_evlist_at(el, 0);
			if (ev->attr.flags & PD_ATTR_USE_CLOCKID)
				s->clock = ev->attr.clockid;
		}
		if (s->has_cd)
			s->clock = (int)s->cd.clockid;
	}
	for (i = 1; i < m->n; i++) {
		s = &m->src[i];
		if (strcmp(host_of(s), host_of(ref)) != 0)
			hosts++;
		if ((o = offset_for(host_of(s), off, noff)) != NULL) {
			pd_join_set_clock(m->join, i, o->ns);
			continue;
		}
		if (strcmp(host_of(s), host_of(ref)) == 0 &&
		    s->clock == ref->clock)
			continue;
		if (!s->has_cd || !ref->has_cd) {
			const struct src *bare = s->has_cd ? ref : s;

			pd_warnx("%s: recorded on %s%s without CLOCK_DATA: its "
			    "times cannot be put beside %s's; record with "
			    "pdrecord, or perf record -k CLOCK, or give "
			    "--clock-offset %s=NS", pd_reader_name(bare->rd),
			    host_of(bare), s->clock != ref->clock &&
			    strcmp(host_of(s), host_of(ref)) == 0 ?
			    " (another clock)" : "",
			    pd_reader_name((bare == s ? ref : s)->rd),
			    host_of(bare));
			return M_BAD;
		}
		pd_join_set_clock(m->join, i, wall_zero(s) - wall_zero(ref));
	}
	if (ref->has_cd) {
		len = pd_feat_clock_data_build(b, sizeof(b), &ref->cd, 0);
		pd_rec_view(&rec, b);
		(void)len;
		if (pd_writer_rec(m->w, &rec) < 0)
			die_write(m);
	}
	if (hosts == 1)
		return M_OK;
	for (i = 0; i < m->n; i++) {
		s = &m->src[i];
		snprintf(s->suffix, sizeof(s->suffix), "%c%s",
		    PD_PIDS_HOST_SEP, host_of(s));
		pd_join_set_suffix(m->join, i, s->suffix);
		if (pd_join_names(m->join, i, s->rd) == -3)
			die_write(m);
	}
	return hosts_apart(m);
}

/*
 * The inputs' tracing data, held while they were primed, as the one
 * record perf 6.1 reads (pd_join_tracing).
 */
static int
merge_tracing(struct merge *m)
{
	const unsigned char *blob;
	struct pd_rec rec;
	size_t len;
	int r;

	if ((r = pd_join_tracing(m->join, &rec, &blob, &len)) < 0) {
		pd_warnx("out of memory");
		return M_BAD;
	}
	if (r > 0 && (pd_writer_rec(m->w, &rec) < 0 ||
	    pd_writer_put(m->w, blob, len) < 0))
		die_write(m);
	return M_OK;
}

/* The open input whose round limit is lowest, or -1 when all ended. */
static int
next_input(const struct merge *m)
{
	uint64_t best = UINT64_MAX, l;
	int pick = -1;
	unsigned i;

	for (i = 0; i < m->n; i++) {
		if (m->src[i].done)
			continue;
		l = pd_ordered_limit_in(m->q, i);
		if (pick < 0 || l < best) {
			best = l;
			pick = i;
		}
	}
	return pick;
}

/*
 * A SAMPLE the join knows, changed where it is to be queued and queued
 * there: where its reader read it (pd_keep_hold), else in the queue's
 * own room. Most records go so, with none of handle()'s tests. 1 done,
 * 0 not (handle() it), -1 bad.
 */
static inline int
fast_sample(struct merge *m, unsigned i, struct pd_rec *rec)
{
	struct src *s = &m->src[i];
	struct pd_keep_at at;
	unsigned char *out;
	uint64_t ts;
	int held;

	if (rec->type != PERF_RECORD_SAMPLE)
		return 0;
	if ((held = pd_keep_hold(&s->keep, m->q, s->rd, rec, &at)) != 0)
		out = at.p;
	else if ((out = pd_ordered_room_in(m->q, rec->size +
	    PD_JOIN_GROW_MAX)) == NULL)
		return 0;
	if (!pd_join_sample_fast(m->join, i, s->rd, rec, out))
		return 0;
	ts = pd_join_time(m->join);
	if (ts == 0 || ts == UINT64_MAX) {
		if (pd_writer_rec(m->w, rec) < 0)
			die_write(m);
	} else if (!held) {
		pd_ordered_put_room_in(m->q, i, out, ts);
	} else if (pd_keep_queue_in(&s->keep, m->q, i, &at, ts) < 0) {
		(void)queue_failed(m);
		return -1;
	}
	return 1;
}

/* One round of input i (or its end). */
static int
read_round(struct merge *m, unsigned i)
{
	struct src *s = &m->src[i];
	int r, h;

	for (;;) {
		if (s->pending) {
			s->pending = 0;
		} else if ((r = pd_reader_next(s->rd, &s->rec)) <= 0) {
			if (r < 0) {
				if (pd_ordered_final(m->q) < 0 ||
				    pd_writer_flush(m->w) < 0)
					die_write(m);
				pd_print_err(pd_reader_err(s->rd));
				return M_BAD;
			}
			s->done = 1;
			pd_join_end(m->join, i);
			if (pd_ordered_end_in(m->q, i) < 0)
				return M_BAD;
			return M_ROUND;
		}
		if ((h = fast_sample(m, i, &s->rec)) > 0)
			continue;
		if (h < 0)
			return M_BAD;
		if ((h = handle(m, i, &s->rec)) != M_OK)
			return h;
	}
}

int
merge(char **paths, unsigned n, struct pd_writer *w, struct pd_ordered *q,
    const struct clock_offset *off, unsigned noff, int strict,
    const char *outname)
{
	struct merge m = { .n = n, .w = w, .q = q, .outname = outname };
	struct pd_err err;
	const char *what;
	unsigned i, dropped;
	uint64_t late;
	int status = PD_EXIT_OK, r = M_OK, in;

	if ((m.src = calloc(n, sizeof(*m.src))) == NULL ||
	    (m.join = pd_join_new(n, put_rec, w)) == NULL ||
	    pd_ordered_inputs(q, n) < 0) {
		pd_warnx("out of memory");
		status = PD_EXIT_DATA;
		goto out;
	}
	for (i = 0; i < n; i++) {
		/* Records inside COMPRESSED ones are merged like any. */
		m.src[i].rd = pd_reader_open(paths[i], PD_RD_DECOMPRESS, &err);
		if (m.src[i].rd == NULL) {
			pd_print_err(&err);
			status = PD_EXIT_DATA;
			goto out;
		}
		pd_interrupt_watch(m.src[i].rd);
		pd_keep_init(&m.src[i].keep);
	}
	pd_join_hold_tracing(m.join);
	for (i = 0; i < n && r == M_OK; i++)
		r = prime(&m, i);
	if (r == M_OK)
		r = merge_clocks(&m, off, noff);
	if (r == M_OK)
		r = merge_tracing(&m);
	while (r != M_BAD && (in = next_input(&m)) >= 0 &&
	    !pd_interrupted()) {
		r = read_round(&m, in);
		for (i = 0; i < n; i++)
			pd_keep_give_back(&m.src[i].keep, q, m.src[i].rd);
	}
	if (pd_ordered_final(q) < 0) {
		if (errno == ENOMEM)
			pd_warnx("out of memory");
		else
			die_write(&m);
		r = M_BAD;
	}
	if (r == M_BAD)
		status = PD_EXIT_DATA;
	for (i = 0; i < n; i++) {
		if (m.src[i].rd == NULL)
			continue;
		if ((dropped = pd_reader_dropped(m.src[i].rd, &what)) > 0)
			pd_warnx("%s: left out %u section%s that a stream "
			    "cannot carry (last: %s)",
			    pd_reader_name(m.src[i].rd), dropped,
			    dropped > 1 ? "s" : "", what);
	}
	if ((late = pd_ordered_late(q)) > 0) {
		pd_warnx("%" PRIu64 " record%s arrived after later ones "
		    "were written, and were written out of order", late,
		    late > 1 ? "s" : "");
		if (strict && status == PD_EXIT_OK)
			status = PD_EXIT_DATA;
	}
out:
	if (m.src != NULL)
		for (i = 0; i < n; i++)
			pd_reader_close(m.src[i].rd);
	free(m.src);
	pd_join_free(m.join);
	return status;
}
