/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: pdsort's merge (pdsort/merge.c, built in here) of
 * two inputs, the data cut at JOIN_SEP or the data with itself, through
 * a queue whose cap the byte after JOIN_SEP picks (pdsort's default, or
 * so small that it flushes halves all along). Its way differs from the join's
 * (fuzz_join.c): samples renumbered where the reader read them, held
 * there while queued, and delivered by time.
 *
 * The output must be a stream our own reader takes whole, and a merge
 * that ends well has every sample of its inputs in it, no more. Any of
 * that failing aborts. (A merge whose output cannot be written exits,
 * as pdsort does; this output never fails.)
 */
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pdsort/merge.c"
#include "tests/fuzz/twoin.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
sort_put(void *w, void *rec, uint64_t ts)
{
	return pd_writer_put(w, rec, pd_header_size(rec));
}

int
sort_flushed(void *w, enum pd_ordered_how how)
{
	unsigned char h[PD_REC_HDR_SIZE];

	pd_header_put(h, PD_RECORD_FINISHED_ROUND, 0, sizeof(h), 0);
	return pd_writer_put(w, h, sizeof(h));
}

/* The SAMPLEs of the stream in fd, up to its end or its first fault. */
static uint64_t
samples_in(int fd, int *bad)
{
	struct pd_reader *rd;
	struct pd_err err;
	struct pd_rec rec;
	uint64_t n = 0;
	int r;

	lseek(fd, 0, SEEK_SET);
	if ((rd = pd_reader_fdopen(fd, "fuzz", PD_RD_DECOMPRESS, &err)) ==
	    NULL) {
		*bad = 1;
		return 0;
	}
	while ((r = pd_reader_next(rd, &rec)) > 0)
		n += rec.type == PERF_RECORD_SAMPLE;
	*bad = r < 0;
	pd_reader_close(rd);
	return n;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct twoin t = twoin_cut(data, size);
	struct twoin_out o = { NULL, 0, 0, 0 };
	char pa[64], pb[64], *paths[2] = { pa, pb };
	uint64_t given, out;
	struct pd_writer *w;
	struct pd_ordered *q;
	int fa, fb, fo, bad_a, bad_b, bad_o, status;

	if ((fa = twoin_fd(t.a, t.alen)) < 0)
		return 0;
	if ((fb = twoin_fd(t.b, t.blen)) < 0) {
		close(fa);
		return 0;
	}
	snprintf(pa, sizeof(pa), "/proc/self/fd/%d", fa);
	snprintf(pb, sizeof(pb), "/proc/self/fd/%d", fb);
	if ((w = pd_writer_new_sink(twoin_sink, &o)) == NULL ||
	    (q = pd_ordered_new(t.pick & 1 ? 64 << 10 : 512ULL << 20,
	    PD_ORDERED_COPY, sort_put, w)) == NULL)
		abort();
	pd_ordered_set_flushed(q, sort_flushed);
	pd_writer_header(w);
	status = merge(paths, 2, w, q, NULL, 0, 0, "fuzz");
	pd_ordered_free(q);
	pd_writer_free(w);
	given = samples_in(fa, &bad_a) + samples_in(fb, &bad_b);
	if (!o.full && (fo = twoin_fd(o.p, o.len)) >= 0) {
		out = samples_in(fo, &bad_o);
		if (bad_o || out > given ||
		    (status == PD_EXIT_OK && !bad_a && !bad_b &&
		    out != given))
			abort();
		close(fo);
	}
	close(fa);
	close(fb);
	free(o.p);
	return 0;
}
