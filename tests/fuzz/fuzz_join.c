/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the join (stream/join.c) as pdcat runs it, over two
 * inputs: the data cut at JOIN_SEP, or, without one, the data joined
 * with itself (every id then clashes, as when a host's stream meets its
 * copy). The byte after JOIN_SEP picks the merge's per-host work for
 * the second input (a name suffix, a pid base, a clock offset).
 *
 * The output must be a stream our own reader takes whole: a join may
 * stop at bad input, but what it wrote before is good. Every sample it
 * was given reaches the output, in order, and each one that had an
 * event in its input has the same event in the output (its type,
 * config and fields, IDENTIFIER aside, which the join adds). Any of
 * that failing aborts.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "libcommon/stream/evlist.h"
#include "libcommon/stream/feature.h"
#include "libcommon/stream/join.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/reader.h"
#include "libcommon/stream/sample.h"
#include "libcommon/stream/writer.h"
#include "tests/fuzz/twoin.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
put_rec(void *ctx, const struct pd_rec *rec)
{
	return pd_writer_rec(ctx, rec) < 0 ? -1 : 0;
}

/* A reader of n bytes at p; *fd to close after it (or -1). */
static struct pd_reader *
open_mem(const void *p, size_t n, int *fd)
{
	struct pd_reader *rd;
	struct pd_err err;

	if ((*fd = twoin_fd(p, n)) < 0)
		return NULL;
	if ((rd = pd_reader_fdopen(*fd, "fuzz", PD_RD_DECOMPRESS, &err)) ==
	    NULL) {
		close(*fd);
		*fd = -1;
	}
	return rd;
}

/* A sample's event, as far as the join keeps it. */
struct evkey {
	uint64_t	config, sample_type;
	uint32_t	type, known;
};

/* The samples the join was given, in order. */
struct given {
	struct evkey	*k;
	size_t		 n, cap;
};

/*
 * Whether ev can be named in a join's output: by one of its ids, if a
 * later ATTR of a crafted stream did not take them all (the last claim
 * holds); else only as its input's first event, by id 0, and not when
 * another input's event is the output's first. Samples of an event no
 * id names are not checked.
 */
static int
nameable(const struct pd_evlist *el, const struct pd_evsel *ev)
{
	size_t i;

	for (i = 0; i < ev->nids; i++)
		if (pd_evlist_by_id(el, ev->ids[i]) == ev)
			return 1;
	return ev->nids == 0;
}

/* rec's event; of an input (in), only one a join's output can name. */
static struct evkey
evkey(const struct pd_evlist *el, const struct pd_rec *rec, int in)
{
	const struct pd_evsel *ev = pd_evlist_for_rec(el, rec);
	struct evkey k = { 0, 0, 0, 0 };

	if (ev != NULL && (!in || nameable(el, ev))) {
		k.config = ev->attr.config;
		k.sample_type = ev->attr.sample_type & ~PERF_SAMPLE_IDENTIFIER;
		k.type = ev->attr.type;
		k.known = 1;
	}
	return k;
}

static void
give(struct given *g, struct evkey k)
{
	if (g->n == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 256;
		if ((g->k = realloc(g->k, g->cap * sizeof(*g->k))) == NULL)
			abort();
	}
	g->k[g->n++] = k;
}

/*
 * One record through the join, written as pdcat writes it. 0 on, 1
 * stop (bad input, no memory: what came before stands).
 */
static int
join_one(struct pd_join *j, unsigned i, struct pd_reader *rd,
    struct pd_rec *rec, struct pd_writer *w, struct given *g)
{
	const unsigned char *blob;
	struct pd_err err;
	struct evkey k;
	size_t len;
	int r;

	if (pd_feat_id(rec) == PD_FEAT_COMPRESSED)
		return 0;		/* read decompressed, as pdcat -d */
	k = evkey(pd_reader_evlist(rd), rec, 1);
	r = pd_join_rec(j, i, rd, rec, &blob, &len, &err);
	if (r == 1)
		return 0;
	if (r < 0)
		return 1;
	if (rec->type == PERF_RECORD_SAMPLE)
		give(g, k);
	if (blob != NULL) {
		pd_writer_rec(w, rec);
		pd_writer_put(w, blob, len);
		return 0;
	}
	return pd_writer_copy(w, rd, rec) < 0;
}

/*
 * Reads the output back: whole, and every sample as given; and, for a
 * join that read its inputs to their ends, with as many events as they
 * have (nev), none of one input taken for another's.
 */
static void
check(const struct twoin_out *o, const struct given *g, size_t nev)
{
	struct pd_reader *rd;
	struct pd_rec rec;
	struct evkey k, *w;
	size_t n = 0;
	int r, fd;

	if (o->full || o->len == 0)
		return;
	if ((rd = open_mem(o->p, o->len, &fd)) == NULL)
		abort();
	while ((r = pd_reader_next(rd, &rec)) > 0) {
		if (rec.type != PERF_RECORD_SAMPLE)
			continue;
		if (n == g->n)
			abort();	/* a sample it was not given */
		k = evkey(pd_reader_evlist(rd), &rec, 0);
		w = &g->k[n++];
		if (w->known && (!k.known || k.type != w->type ||
		    k.config != w->config || k.sample_type != w->sample_type))
			abort();	/* another event, or none */
	}
	if (r < 0 || n != g->n ||
	    (nev > 0 && pd_evlist_count(pd_reader_evlist(rd)) != nev))
		abort();
	pd_reader_close(rd);
	close(fd);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct twoin t = twoin_cut(data, size);
	unsigned pick = t.pick, i;
	struct pd_reader *rd[2] = { NULL, NULL };
	struct pd_rec rec[2], td;
	int pending[2] = { 0, 0 }, fd[2], stop = 0, r = 0;
	struct twoin_out o = { NULL, 0, 0, 0 };
	struct given g = { NULL, 0, 0 };
	struct pd_writer *w;
	struct pd_join *j;
	const unsigned char *blob;
	size_t len, nev;

	if ((w = pd_writer_new_sink(twoin_sink, &o)) == NULL ||
	    (j = pd_join_new(2, put_rec, w)) == NULL)
		abort();
	if (pick & 1)
		pd_join_set_suffix(j, 1, "@b");
	if (pick & 2)
		pd_join_set_pid_base(j, 1, 1u << 22);
	if (pick & 4)
		pd_join_set_clock(j, 1, (pick & 8) ? -1000000 : 1000000);
	pd_writer_header(w);
	pd_join_hold_tracing(j);
	rd[0] = open_mem(t.a, t.alen, &fd[0]);
	rd[1] = open_mem(t.b, t.blen, &fd[1]);
	/* The heads first, as pdcat's prime_all. */
	for (i = 0; i < 2 && !stop; i++) {
		if (rd[i] == NULL)
			continue;
		while (!stop && (r = pd_reader_next(rd[i], &rec[i])) > 0) {
			if (!pd_join_head(rec[i].type)) {
				pending[i] = 1;
				break;
			}
			stop = join_one(j, i, rd[i], &rec[i], w, &g);
		}
		if (r < 0)
			stop = 1;
		if ((pick & 1) && i == 1 && !stop &&
		    pd_join_names(j, 1, rd[1]) < 0)
			stop = 1;
	}
	if (!stop && pd_join_tracing(j, &td, &blob, &len) > 0) {
		pd_writer_rec(w, &td);
		pd_writer_put(w, blob, len);
	}
	for (i = 0; i < 2 && !stop; i++) {
		if (rd[i] == NULL)
			continue;
		if (pending[i])
			stop = join_one(j, i, rd[i], &rec[i], w, &g);
		while (!stop && pd_reader_next(rd[i], &rec[i]) > 0)
			stop = join_one(j, i, rd[i], &rec[i], w, &g);
		pd_join_end(j, i);
	}
	pd_writer_free(w);
	nev = 0;
	for (i = 0; i < 2 && !stop; i++)
		if (rd[i] != NULL)
			nev += pd_evlist_count(pd_reader_evlist(rd[i]));
	check(&o, &g, nev);
	pd_join_free(j);
	for (i = 0; i < 2; i++)
		if (rd[i] != NULL) {
			pd_reader_close(rd[i]);
			close(fd[i]);
		}
	free(o.p);
	free(g.k);
	return 0;
}
