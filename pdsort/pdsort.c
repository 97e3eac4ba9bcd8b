/* SPDX-License-Identifier: MIT */
/*
 * pdsort: write a perf.data stream in time order, in the order perf's
 * ordered-events queue delivers it, so that later filters can read it
 * straight through.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libcommon/stream/event.h"
#include "libcommon/stream/evlist.h"
#include "libcommon/stream/feature.h"
#include "libcommon/stream/keep.h"
#include "libcommon/cli/msg.h"
#include "libcommon/cli/output.h"
#include "libcommon/stream/ordered.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/reader.h"
#include "libcommon/stream/sample.h"
#include "libcommon/stream/writer.h"
#include "pdsort/extern.h"

#define DEFAULT_CAP	(512ULL << 20)

static const char usage_line[] =
    "usage: pdsort [-m size] [--strict] [--clock-offset host=ns] [-o file] "
    "[file ...]\n";

static void
usage(FILE *f, int status)
{
	fputs(usage_line, f);
	if (f == stdout)
		fputs("Write a perf.data stream in time order, as perf's "
		    "ordered-events queue\ndelivers it; several streams "
		    "merged into one, in time order.\n\n"
		    "  -m, --memory SIZE  cap the queue at SIZE bytes (suffix "
		    "K, M or G;\n"
		    "                     default 512M); over it, write the "
		    "older half early\n"
		    "  -o, --output FILE  write to FILE instead of standard "
		    "output\n"
		    "      --strict       exit 1 if any record came too late "
		    "to be in order\n"
		    "      --clock-offset HOST=NS\n"
		    "                     merging: add NS to the times of "
		    "HOST's inputs\n"
		    "                     (for those recorded without "
		    "CLOCK_DATA)\n"
		    "  -h, --help         this help\n"
		    "      --version      print the version\n"
		    "With no file, or when file is -, read standard input.\n",
		    f);
	exit(status);
}

/* A record come due: written as it is. */
int
sort_put(void *w, void *rec, uint64_t ts)
{
	return pd_writer_put(w, rec, pd_header_size(rec));
}

/*
 * After each flush that wrote something, a FINISHED_ROUND, so that the
 * output is a round-ordered stream; the first early (half) flush is said.
 */
int
sort_flushed(void *w, enum pd_ordered_how how)
{
	static int warned;
	unsigned char h[PD_REC_HDR_SIZE];

	if (how == PD_ORDERED_HALF && !warned) {
		pd_warnx("the queue reached its -m limit: writing the older "
		    "half early, records may come out of order");
		warned = 1;
	}
	pd_header_put(h, PD_RECORD_FINISHED_ROUND, 0, sizeof(h), 0);
	return pd_writer_put(w, h, sizeof(h));
}

/* "512M" -> bytes; 0 on a bad or zero size. */
static uint64_t
parse_size(const char *s)
{
	unsigned long long v;
	char *end;
	int shift = 0;

	errno = 0;
	if (*s < '0' || *s > '9')
		return 0;
	v = strtoull(s, &end, 10);
	if (errno != 0)
		return 0;
	switch (*end) {
	case 'k': case 'K':
		shift = 10;
		end++;
		break;
	case 'm': case 'M':
		shift = 20;
		end++;
		break;
	case 'g': case 'G':
		shift = 30;
		end++;
		break;
	}
	if (*end != '\0' || v > (UINT64_MAX >> shift))
		return 0;
	return (uint64_t)v << shift;
}

/* "host=-123": a host's clock offset in ns. */
static int
parse_offset(const char *s, struct clock_offset *o)
{
	const char *eq = strrchr(s, '=');
	char *end;

	if (eq == NULL || eq == s)
		return -1;
	errno = 0;
	o->ns = strtoll(eq + 1, &end, 10);
	if (errno != 0 || end == eq + 1 || *end != '\0')
		return -1;
	if ((o->host = strndup(s, eq - s)) == NULL)
		pd_die_nomem();
	return 0;
}

/* pdsort a b ...: the merge (merge.c), its output opened and closed. */
static int
merge_main(char **inputs, int n, const char *outpath, uint64_t cap,
    struct clock_offset *off, unsigned noff, int strict)
{
	struct pd_output out;
	struct pd_writer *w;
	struct pd_ordered *q;
	int status;
	unsigned i;

	pd_interrupt_init();
	if (pd_output_open(&out, outpath) < 0)
		return PD_EXIT_USAGE;
	if ((w = pd_writer_new(out.fd)) == NULL ||
	    (q = pd_ordered_new(cap, PD_ORDERED_COPY, sort_put, w)) == NULL) {
		pd_warnx("out of memory");
		pd_output_abort(&out);
		return PD_EXIT_DATA;
	}
	pd_ordered_set_flushed(q, sort_flushed);
	if (pd_writer_header(w) < 0)
		pd_die_write(out.name);
	status = merge(inputs, n, w, q, off, noff, strict, out.name);
	pd_ordered_free(q);
	for (i = 0; i < noff; i++)
		free((char *)off[i].host);
	free(off);
	if (pd_writer_free(w) < 0) {
		pd_output_abort(&out);
		pd_die_write(out.name);
	}
	if (status == PD_EXIT_OK && pd_interrupted())
		status = PD_EXIT_INTR;
	if (pd_output_close(&out, status == PD_EXIT_OK ||
	    status == PD_EXIT_INTR) < 0)
		return PD_EXIT_DATA;
	return status;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "clock-offset", required_argument,	NULL, 'C' },
		{ "help",	no_argument,		NULL, 'h' },
		{ "memory",	required_argument,	NULL, 'm' },
		{ "output",	required_argument,	NULL, 'o' },
		{ "strict",	no_argument,		NULL, 'S' },
		{ "version",	no_argument,		NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct pd_output out;
	struct pd_writer *w;
	struct pd_reader *rd;
	struct pd_evlist *el;
	struct pd_err err;
	struct pd_rec rec;
	struct pd_ordered *q;
	struct pd_keep keep;
	const char *outpath = NULL, *input = "-", *what;
	uint64_t cap = DEFAULT_CAP, late;
	unsigned dropped;
	struct clock_offset *off = NULL;
	unsigned noff = 0;
	int c, r, strict = 0, status = PD_EXIT_OK;

	pd_setprogname(argv[0]);
	while ((c = getopt_long(argc, argv, "hm:o:", longopts, NULL)) != -1) {
		switch (c) {
		case 'C':
			if ((off = realloc(off, (noff + 1) * sizeof(*off))) ==
			    NULL)
				pd_die_nomem();
			if (parse_offset(optarg, &off[noff]) < 0) {
				pd_warnx("bad --clock-offset: %s (HOST=NS)",
				    optarg);
				usage(stderr, PD_EXIT_USAGE);
			}
			noff++;
			break;
		case 'h':
			usage(stdout, PD_EXIT_OK);
			break;
		case 'm':
			if ((cap = parse_size(optarg)) == 0) {
				pd_warnx("bad size for -m: %s", optarg);
				usage(stderr, PD_EXIT_USAGE);
			}
			break;
		case 'o':
			outpath = optarg;
			break;
		case 'S':
			strict = 1;
			break;
		case 'V':
			pd_print_version();
			return PD_EXIT_OK;
		default:
			usage(stderr, PD_EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (argc > 1)
		return merge_main(argv, argc, outpath, cap, off, noff, strict);
	if (argc == 1)
		input = argv[0];
	free(off);

	/*
	 * Compressed records are read decompressed: their contents must be
	 * sorted like any other record, and the output is plain.
	 */
	pd_interrupt_init();
	if ((rd = pd_reader_open(input, PD_RD_DECOMPRESS, &err)) == NULL) {
		pd_print_err(&err);
		return PD_EXIT_DATA;
	}
	pd_interrupt_watch(rd);
	if (pd_output_open(&out, outpath) < 0) {
		pd_reader_close(rd);
		return PD_EXIT_USAGE;
	}
	if ((w = pd_writer_new(out.fd)) == NULL ||
	    (q = pd_ordered_new(cap, PD_ORDERED_COPY, sort_put, w)) == NULL) {
		pd_warnx("out of memory");
		pd_output_abort(&out);
		return PD_EXIT_DATA;
	}
	pd_ordered_set_flushed(q, sort_flushed);
	el = pd_reader_evlist(rd);
	if (pd_writer_header(w) < 0)
		goto write_failed;

	pd_keep_init(&keep);
	while ((r = pd_reader_next(rd, &rec)) > 0) {
		struct pd_keep_at at;
		uint64_t ts;

		if (pd_rec_is_kernel(rec.type)) {
			ts = pd_sample_rec_time(pd_evlist_for_rec(el, &rec), &rec);
			/* Queued where it was read, when it can be. */
			if (ts != 0 && ts != UINT64_MAX &&
			    pd_keep_hold(&keep, q, rd, &rec, &at)) {
				if (pd_keep_queue(&keep, q, &at, ts) < 0)
					goto queue_failed;
				continue;
			}
			/* No time (1): perf delivers it at once, and so do we. */
			if ((r = pd_ordered_queue(q, rec.data, ts)) < 0)
				goto queue_failed;
			if (r == 0)
				continue;
		} else if (rec.type == PD_RECORD_FINISHED_ROUND) {
			if (pd_ordered_round(q) < 0)
				goto queue_failed;
			pd_keep_give_back(&keep, q, rd);
			continue;
		} else if (pd_feat_id(&rec) == PD_FEAT_COMPRESSED) {
			continue;	/* the output is not compressed */
		}
		if ((r = pd_writer_copy(w, rd, &rec)) == -2)
			goto write_failed;
		if (r < 0)
			break;
	}
	/* At the end, and before any error: every queued record goes out. */
	if (pd_ordered_final(q) < 0)
		goto queue_failed;
	if (pd_writer_flush(w) < 0)
		goto write_failed;
	if (r < 0) {
		pd_print_err(pd_reader_err(rd));
		status = PD_EXIT_DATA;
	}
	if ((dropped = pd_reader_dropped(rd, &what)) > 0)
		pd_warnx("%s: left out %u section%s that a stream cannot "
		    "carry (last: %s)", pd_reader_name(rd), dropped,
		    dropped > 1 ? "s" : "", what);
	if ((late = pd_ordered_late(q)) > 0) {
		pd_warnx("%s: %" PRIu64 " record%s arrived after later ones "
		    "were written, and were written out of order",
		    pd_reader_name(rd), late, late > 1 ? "s" : "");
		if (strict && status == PD_EXIT_OK)
			status = PD_EXIT_DATA;
	}
	pd_ordered_free(q);
	q = NULL;
	pd_reader_close(rd);
	rd = NULL;
	if (pd_writer_free(w) < 0)
		goto write_failed;
	/* Stopped by the user: what was read is written, and kept. */
	if (status == PD_EXIT_OK && pd_interrupted())
		status = PD_EXIT_INTR;
	if (pd_output_close(&out, status == PD_EXIT_OK ||
	    status == PD_EXIT_INTR) < 0)
		return PD_EXIT_DATA;
	return status;

queue_failed:
	if (errno == ENOMEM) {
		pd_warnx("out of memory");
		pd_output_abort(&out);
		return PD_EXIT_DATA;
	}
	/* FALLTHROUGH */
write_failed:
	/* What the sanitizers would call leaks once we exit from below. */
	pd_ordered_free(q);
	pd_reader_close(rd);
	pd_output_abort(&out);
	pd_die_write(out.name);
}
