/* SPDX-License-Identifier: MIT */
/*
 * restream: rewrites a native pipe-mode stream (stdin to stdout) through
 * libcommon's reader and writer, for the flame memory cases.
 *
 *   restream rounds K	a FINISHED_ROUND after every K records and at the
 *			end: on a stream already in time order (pdsort's
 *			output) every round is then small, whatever the
 *			machine's load did to perf's own, so memory that
 *			waits for rounds is the same for a short and a
 *			long recording.
 *   restream repeat N	every SAMPLE N times in place: the same stacks,
 *			N times the samples.
 *   restream hostname H	the HOSTNAME feature says H (one is added before
 *			the first event record if the stream has none):
 *			the same recording as if made on another host (a
 *			merge's bench).
 *   restream stray A	in every sample's callchain, the last kernel
 *			entry and the last user one become address A: one
 *			no map holds, met as a kernel frame and as a user
 *			one (the views' kernel frames named later).
 *
 * Records go out as they came, out-of-band payloads with them; a
 * file-mode or foreign-endian input is refused, as its records would go
 * out unconverted.
 */
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libcommon/stream/event.h"
#include "libcommon/stream/evlist.h"
#include "libcommon/stream/feature.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/reader.h"
#include "libcommon/stream/record.h"
#include "libcommon/stream/sample.h"
#include "libcommon/stream/writer.h"

static void
usage(void)
{
	fprintf(stderr, "usage: restream rounds K | repeat N | hostname H | "
	    "stray A\n");
	exit(2);
}

/*
 * rec's copy in buf (64 KiB) with the last entry of each context of its
 * callchain at addr; NULL when it has none.
 */
static const unsigned char *
stray(struct pd_reader *rd, const struct pd_rec *rec, uint64_t addr,
    unsigned char *buf)
{
	const struct pd_evsel *ev = pd_evlist_for_rec(pd_reader_evlist(rd), rec);
	struct pd_sample s;
	const char *why;
	size_t at, i, last = SIZE_MAX;	/* SIZE_MAX: no entry yet */
	uint64_t a = 0;

	if (ev == NULL || pd_sample_parse(ev, rec, &s, &why) < 0 ||
	    s.callchain_nr == 0)
		return NULL;
	memcpy(buf, rec->data, rec->size);
	at = (size_t)(s.callchain - rec->data);
	for (i = 0; i <= s.callchain_nr; i++) {
		if (i < s.callchain_nr)
			memcpy(&a, buf + at + 8 * i, 8);
		if (i == s.callchain_nr || a >= (uint64_t)PERF_CONTEXT_MAX) {
			if (last != SIZE_MAX)
				memcpy(buf + at + 8 * last, &addr, 8);
			last = SIZE_MAX;
		} else
			last = i;
	}
	return buf;
}

static void
fail_read(struct pd_reader *rd)
{
	const struct pd_err *e = pd_reader_err(rd);

	fprintf(stderr, "restream: %s: %s\n", e->input, e->msg);
	exit(1);
}

int
main(int argc, char **argv)
{
	struct pd_reader *rd;
	struct pd_writer *w;
	struct pd_err err;
	struct pd_rec rec;
	unsigned char round[8];
	unsigned long k, n = 0, i;
	unsigned char body[4 + 64], feat[PD_RECORD_FEATURE_HEAD + 4 + 64];
	static unsigned char sbuf[65536];
	const unsigned char *sp;
	const char *host = NULL;
	uint64_t addr = 0;
	int rounds, r, named = 0;

	if (argc != 3)
		usage();
	if (strcmp(argv[1], "hostname") == 0) {
		host = argv[2];
		rounds = 0;
		k = 1;
	} else if (strcmp(argv[1], "stray") == 0) {
		if ((addr = strtoull(argv[2], NULL, 0)) == 0)
			usage();
		rounds = 0;
		k = 1;
	} else if ((k = strtoul(argv[2], NULL, 10)) == 0) {
		usage();
	} else if (strcmp(argv[1], "rounds") == 0) {
		rounds = 1;
	} else if (strcmp(argv[1], "repeat") == 0) {
		rounds = 0;
	} else {
		usage();
	}
	if ((rd = pd_reader_fdopen(STDIN_FILENO, "<stdin>", 0, &err)) == NULL) {
		fprintf(stderr, "restream: %s: %s\n", err.input, err.msg);
		return 1;
	}
	if (pd_reader_is_file(rd) || pd_reader_swapped(rd)) {
		fprintf(stderr, "restream: not a native pipe-mode stream\n");
		return 1;
	}
	if ((w = pd_writer_new(STDOUT_FILENO)) == NULL ||
	    pd_writer_header(w) < 0)
		goto write_error;
	pd_header_put(round, PD_RECORD_FINISHED_ROUND, 0, sizeof(round), 0);
	if (host != NULL) {
		/* perf's string: u32 length, NUL, zeros to 64 */
		memset(body, 0, sizeof(body));
		pd_put_u32(body, 64);
		snprintf((char *)body + 4, 64, "%s", host);
		pd_record_header_feature_build(feat, sizeof(feat),
		    PD_FEAT_HOSTNAME, body, sizeof(body), 0);
	}
	while ((r = pd_reader_next(rd, &rec)) == 1) {
		if (host != NULL && pd_feat_id(&rec) == PD_FEAT_HOSTNAME) {
			pd_rec_view(&rec, feat);
			named = 1;
		} else if (host != NULL && !named && pd_rec_is_kernel(rec.type)) {
			struct pd_rec h;

			pd_rec_view(&h, feat);
			if (pd_writer_rec(w, &h) < 0)
				goto write_error;
			named = 1;
		}
		if (addr != 0 && rec.type == PERF_RECORD_SAMPLE &&
		    (sp = stray(rd, &rec, addr, sbuf)) != NULL) {
			struct pd_rec h;

			pd_rec_view(&h, sp);
			if (pd_writer_rec(w, &h) < 0)
				goto write_error;
			continue;
		}
		if ((r = pd_writer_copy(w, rd, &rec)) == -1)
			fail_read(rd);
		if (r < 0)
			goto write_error;
		if (rounds) {
			if (++n % k == 0 &&
			    pd_writer_put(w, round, sizeof(round)) < 0)
				goto write_error;
			continue;
		}
		for (i = 1; rec.type == PERF_RECORD_SAMPLE && i < k; i++)
			if (pd_writer_rec(w, &rec) < 0)
				goto write_error;
	}
	if (r < 0)
		fail_read(rd);
	if (rounds && pd_writer_put(w, round, sizeof(round)) < 0)
		goto write_error;
	if (pd_writer_free(w) < 0)
		goto write_error;
	pd_reader_close(rd);
	return 0;
write_error:
	perror("restream: write");
	return 1;
}
