/* SPDX-License-Identifier: MIT */
/*
 * pdcat: join perf.data inputs (pipe or file mode) into one pipe-mode
 * stream on standard output.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libcommon/stream/event.h"
#include "libcommon/stream/evlist.h"
#include "libcommon/stream/feature.h"
#include "libcommon/stream/join.h"
#include "libcommon/cli/msg.h"
#include "libcommon/cli/output.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/reader.h"
#include "libcommon/stream/writer.h"
#include "libcommon/stream/zenc.h"
#include "pdcat/filter.h"

static const char usage_line[] =
    "usage: pdcat [-dv] [-z[level] | --compress2[=level]] [-o file]\n"
    "             [--comm list] [--pid list] [--tid list] [--cpu list]\n"
    "             [--time ranges] [file ...]\n";

static void
usage(FILE *f, int status)
{
	fputs(usage_line, f);
	if (f == stdout)
		fputs("Join perf.data inputs (pipe or file mode) into one "
		    "pipe-mode stream.\n\n"
		    "  -d, --decompress  write the records inside COMPRESSED "
		    "records, plain\n"
		    "  -o, --output FILE write to FILE instead of standard "
		    "output\n"
		    "  -z, --compress[=LEVEL]\n"
		    "                    compress kernel records as perf "
		    "record -z does\n"
		    "                    (zstd LEVEL 1-22, default 1)\n"
		    "      --compress2[=LEVEL]\n"
		    "                    the same as COMPRESSED2 records "
		    "(perf 6.16+)\n"
		    "  -v, --verbose     say how many samples the filters "
		    "dropped\n"
		    "Filters, as perf script's: only SAMPLE records outside "
		    "them are dropped.\n"
		    "      --comm LIST   samples of threads named so "
		    "(comma-separated)\n"
		    "      --pid LIST    samples of these processes\n"
		    "      --tid LIST    samples of these threads\n"
		    "      --cpu LIST    samples taken on these cpus (0-3,6)\n"
		    "      --time RANGES samples in these times: start,end in "
		    "seconds\n"
		    "                    (several: 'a,b c,d'), or percents "
		    "of the span:\n"
		    "                    10%/2, 0%-10%,30%-40%, 25% (a file, "
		    "not a pipe)\n"
		    "  -h, --help        this help\n"
		    "      --version     print the version\n"
		    "With no file, or when file is -, read standard input.\n",
		    f);
	exit(status);
}

/* An input, opened (by prime_all when there are several). */
struct input {
	struct pd_reader *rd;
	struct pd_rec	 rec;		/* read by prime_all, not yet joined */
	int		 pending;
	int		 ended;		/* nothing after the attrs */
};

struct joiner {
	struct input	*in;
	struct pd_join	*join;		/* ids, names, tracing formats */
	struct pd_writer *w;		/* the output, through z with -z */
	struct pd_zenc	*z;
	int		 ninputs;
	int		 decompress;	/* inputs read decompressed */
	struct filter	*filter;	/* NULL: every sample passes */
	int		 verbose;
};

/* A record of the join's own (EVENT_UPDATE names). */
static int
put_rec(void *ctx, const struct pd_rec *rec)
{
	struct joiner *j = ctx;

	return (j->z != NULL ? pd_zenc_rec(j->z, rec) :
	    pd_writer_rec(j->w, rec)) < 0 ? -1 : 0;
}

/* A compression level: 1 to PD_ZENC_LEVEL_MAX. */
static int
parse_level(const char *s, int *level)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < 1 ||
	    v > PD_ZENC_LEVEL_MAX)
		return -1;
	*level = v;
	return 0;
}

/* Writes out everything before an error, the pending chunk included. */
static int
flush_out(struct pd_writer *w, struct pd_zenc *z)
{
	if (z != NULL && pd_zenc_flush(z) < 0)
		return -1;
	return pd_writer_flush(w);
}

/* How one record went (join_rec). */
enum {
	JOIN_OK,
	JOIN_BAD,		/* bad input, said */
	JOIN_READ,		/* the reader failed: pd_reader_err() */
	JOIN_WRITE		/* the output failed (errno) */
};

/* A record and the payload the join read for it: 0, -1 (errno). */
static int
put_blob(struct joiner *j, const struct pd_rec *rec,
    const unsigned char *blob, size_t len)
{
	if (put_rec(j, rec) < 0)
		return -1;
	return (j->z != NULL ? pd_zenc_plain(j->z, blob, len) :
	    pd_writer_put(j->w, blob, len)) < 0 ? -1 : 0;
}

/*
 * One record of input i, through the join when there are several.
 * Inlined in both callers: the loop of join_input() runs it per record.
 */
static inline __attribute__((always_inline)) int
join_rec(struct joiner *j, int i, struct pd_reader *rd, struct pd_rec *rec)
{
	const unsigned char *blob = NULL;
	struct pd_err err;
	size_t len = 0;
	int r = 0;

	if (j->decompress && pd_feat_id(rec) == PD_FEAT_COMPRESSED)
		return JOIN_OK;
	if (j->ninputs > 1) {
		r = pd_join_rec(j->join, i, rd, rec, &blob, &len, &err);
		if (r == 1)
			return JOIN_OK;
		if (r == -3)
			return JOIN_WRITE;
		if (r == -2) {
			pd_warnx("out of memory");
			return JOIN_BAD;
		}
		if (r == -1) {
			if (flush_out(j->w, j->z) < 0)
				return JOIN_WRITE;
			pd_print_err(&err);
			return JOIN_BAD;
		}
	}
	if (r == 2)
		pd_print_err(&err);	/* a warning: written all the same */
	if (blob != NULL)
		return put_blob(j, rec, blob, len) < 0 ? JOIN_WRITE : JOIN_OK;
	if (j->z != NULL && rec->payload == 0)
		return pd_zenc_rec(j->z, rec) < 0 ? JOIN_WRITE : JOIN_OK;
	/* Payloads go plain, after the pending chunk. */
	if (j->z != NULL && pd_zenc_flush(j->z) < 0)
		return JOIN_WRITE;
	if ((r = pd_writer_copy(j->w, rd, rec)) == -2)
		return JOIN_WRITE;
	return r < 0 ? JOIN_READ : JOIN_OK;
}

/*
 * A record through the filters (pdcat/filter.h), then joined: those that
 * waited for it first. At the end of the input (rec NULL) all that
 * waits.
 */
static __attribute__((noinline)) int
filter_join(struct joiner *j, int i, struct pd_reader *rd, struct pd_rec *rec)
{
	struct pd_rec w;
	struct pd_err e;
	const char *why;
	int r = FILTER_HELD, how = JOIN_OK;

	if (j->filter == NULL)
		return rec != NULL ? join_rec(j, i, rd, rec) : JOIN_OK;
	if (rec == NULL)
		filter_finish(j->filter);
	else if ((r = filter_put(j->filter, pd_reader_evlist(rd), rec,
	    &why)) < 0) {
		if (flush_out(j->w, j->z) < 0)
			return JOIN_WRITE;
		e = *pd_reader_err(rd);
		pd_err_set(&e, rec->offset, "%s", why);
		e.input = pd_reader_name(rd);
		pd_print_err(&e);
		return JOIN_BAD;
	}
	while (how == JOIN_OK && filter_take(j->filter, &w))
		how = join_rec(j, i, rd, &w);
	if (how == JOIN_OK && r == FILTER_PASS)
		how = join_rec(j, i, rd, rec);
	return how;
}

/* -v: what the filters did to one input. */
static void
say_filtered(const struct filter *f, const char *name)
{
	uint64_t seen, dropped;

	filter_counts(f, &seen, &dropped);
	pd_warnx("%s: filters dropped %" PRIu64 " of %" PRIu64 " samples, "
	    "kept %" PRIu64, name, dropped, seen, seen - dropped);
}

/* Input i's reader, opened; NULL when that failed (said). */
static struct pd_reader *
open_input(struct joiner *j, const char *path, int i)
{
	struct pd_err err;

	j->in[i].rd = pd_reader_open(path,
	    j->decompress || j->z != NULL ? PD_RD_DECOMPRESS : 0, &err);
	if (j->in[i].rd == NULL) {
		pd_print_err(&err);
		return NULL;
	}
	pd_interrupt_watch(j->in[i].rd);
	return j->in[i].rd;
}

/* What a record's JOIN_ says, as an exit status (-1: output failed). */
static int
join_status(struct joiner *j, struct pd_reader *rd, int how)
{
	if (how == JOIN_WRITE)
		return -1;
	if (how == JOIN_READ) {
		if (flush_out(j->w, j->z) < 0)
			return -1;
		pd_print_err(pd_reader_err(rd));
	}
	return how == JOIN_OK ? PD_EXIT_OK : PD_EXIT_DATA;
}

/*
 * Every input's head (attrs, features, names, tracing data), joined,
 * before any input's other records, each input's first other record
 * kept for join_input: perf 6.1 reads one tracing data record and
 * gives formats only to the tracepoint events it knows by then, so the
 * join's one record (pd_join_tracing) goes after every input's attrs.
 * Exit status, or -1 when the output failed.
 */
static int
prime_all(struct joiner *j, char **inputs)
{
	const unsigned char *blob;
	struct input *in;
	struct pd_rec rec;
	size_t len;
	int i, r, how = JOIN_OK;

	pd_join_hold_tracing(j->join);
	for (i = 0; i < j->ninputs && !pd_interrupted(); i++) {
		in = &j->in[i];
		if (open_input(j, inputs[i], i) == NULL)
			return PD_EXIT_DATA;
		while ((r = pd_reader_next(in->rd, &in->rec)) > 0) {
			if (!pd_join_head(in->rec.type)) {
				in->pending = 1;
				break;
			}
			if ((how = join_rec(j, i, in->rd, &in->rec)) !=
			    JOIN_OK)
				return join_status(j, in->rd, how);
		}
		if (r < 0)
			return join_status(j, in->rd, JOIN_READ);
		in->ended = r == 0;
	}
	if ((r = pd_join_tracing(j->join, &rec, &blob, &len)) < 0) {
		pd_warnx("out of memory");
		return PD_EXIT_DATA;
	}
	if (r > 0 && put_blob(j, &rec, blob, len) < 0)
		return -1;
	return PD_EXIT_OK;
}

/* Input i, whole. Its exit status, or -1 when the output failed. */
static int
join_input(struct joiner *j, const char *path, int i)
{
	struct input *in = &j->in[i];
	struct pd_reader *rd;
	struct pd_rec rec;
	const char *what;
	unsigned dropped;
	int r = 1, how = JOIN_OK;

	if ((rd = in->rd) == NULL && (rd = open_input(j, path, i)) == NULL)
		return PD_EXIT_DATA;
	if (j->filter != NULL && filter_start(j->filter) < 0) {
		pd_warnx("out of memory");
		return PD_EXIT_DATA;
	}
	/*
	 * One input, as it is, from a file into a pipe: its records go by
	 * splice(2), never copied (pd_writer_source).
	 */
	if (j->ninputs == 1 && j->z == NULL && j->filter == NULL)
		pd_writer_source(j->w, rd);
	if (in->pending)
		how = j->filter == NULL ? join_rec(j, i, rd, &in->rec) :
		    filter_join(j, i, rd, &in->rec);
	/* Without filters the loop stays as tight as it was. */
	while (how == JOIN_OK && !in->ended &&
	    (r = pd_reader_next(rd, &rec)) > 0 &&
	    (how = j->filter == NULL ? join_rec(j, i, rd, &rec) :
	    filter_join(j, i, rd, &rec)) == JOIN_OK)
		;
	/* What waited goes out, before an error too. */
	if (how == JOIN_OK)
		how = filter_join(j, i, rd, NULL);
	pd_join_end(j->join, i);
	if (pd_writer_source(j->w, NULL) < 0)
		how = JOIN_WRITE;
	if (how == JOIN_WRITE)
		return -1;
	if (r < 0 || how == JOIN_READ) {
		if (flush_out(j->w, j->z) < 0)
			return -1;
		pd_print_err(pd_reader_err(rd));
		how = JOIN_BAD;
	}
	if (j->filter != NULL && j->verbose)
		say_filtered(j->filter, pd_reader_name(rd));
	if ((dropped = pd_reader_dropped(rd, &what)) > 0)
		pd_warnx("%s: left out %u section%s that a stream cannot carry "
		    "(last: %s)", pd_reader_name(rd), dropped,
		    dropped > 1 ? "s" : "", what);
	pd_reader_close(rd);
	in->rd = NULL;
	return how == JOIN_BAD ? PD_EXIT_DATA : PD_EXIT_OK;
}

/* Options; returns the index of the first operand. */
static int
parse_args(int argc, char **argv, struct joiner *j, const char **outpath,
    int *level, int *ztype)
{
	static const struct option longopts[] = {
		{ "comm",	required_argument,	NULL, FILTER_COMM },
		{ "compress",	optional_argument,	NULL, 'z' },
		{ "compress2",	optional_argument,	NULL, 'Z' },
		{ "cpu",	required_argument,	NULL, FILTER_CPU },
		{ "decompress",	no_argument,		NULL, 'd' },
		{ "help",	no_argument,		NULL, 'h' },
		{ "output",	required_argument,	NULL, 'o' },
		{ "pid",	required_argument,	NULL, FILTER_PID },
		{ "tid",	required_argument,	NULL, FILTER_TID },
		{ "time",	required_argument,	NULL, FILTER_TIME },
		{ "verbose",	no_argument,		NULL, 'v' },
		{ "version",	no_argument,		NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	while ((c = getopt_long(argc, argv, "dho:vz::", longopts, NULL)) !=
	    -1) {
		switch (c) {
		case FILTER_COMM:
		case FILTER_CPU:
		case FILTER_PID:
		case FILTER_TID:
		case FILTER_TIME:
			if (j->filter == NULL &&
			    (j->filter = filter_new()) == NULL)
				pd_die_nomem();
			/* The one line says it all. */
			if (filter_option(j->filter, c, optarg) < 0)
				exit(PD_EXIT_USAGE);
			break;
		case 'd':
			j->decompress = 1;
			break;
		case 'h':
			usage(stdout, PD_EXIT_OK);
			break;
		case 'o':
			*outpath = optarg;
			break;
		case 'v':
			j->verbose = 1;
			break;
		case 'V':
			pd_print_version();
			exit(PD_EXIT_OK);
		case 'Z':
			*ztype = PD_RECORD_COMPRESSED2;
			/* FALLTHROUGH */
		case 'z':
			*level = PD_ZENC_LEVEL_DEFAULT;
			if (optarg != NULL && parse_level(optarg, level) < 0) {
				pd_warnx("compression level '%s' is not 1 to "
				    "%d", optarg, PD_ZENC_LEVEL_MAX);
				usage(stderr, PD_EXIT_USAGE);
			}
			break;
		default:
			usage(stderr, PD_EXIT_USAGE);
		}
	}
	if (j->decompress && *level > 0) {
		pd_warnx("-d and -z exclude each other");
		usage(stderr, PD_EXIT_USAGE);
	}
	return optind;
}

int
main(int argc, char **argv)
{
	static char *stdin_only[] = { "-", NULL };
	struct pd_output out;
	struct joiner j;
	const char *outpath = NULL;
	char **inputs;
	int i, status = PD_EXIT_OK;
	int level = 0, ztype = PD_RECORD_COMPRESSED;

	pd_setprogname(argv[0]);
	memset(&j, 0, sizeof(j));
	i = parse_args(argc, argv, &j, &outpath, &level, &ztype);
	inputs = i < argc ? argv + i : stdin_only;
	j.ninputs = i < argc ? argc - i : 1;
	/*
	 * Ids are rewritten inside records, so joined streams are read
	 * decompressed: compressed bytes cannot be renumbered, nor
	 * samples inside them filtered.
	 */
	if (j.ninputs > 1 || j.filter != NULL)
		j.decompress = 1;
	if (j.filter != NULL &&
	    (status = filter_span(j.filter, inputs, j.ninputs)) != 0) {
		filter_free(j.filter);
		return status;
	}

	pd_interrupt_init();
	if (pd_output_open(&out, outpath) < 0)
		return PD_EXIT_USAGE;
	if ((j.in = calloc(j.ninputs, sizeof(*j.in))) == NULL ||
	    (j.w = pd_writer_new(out.fd)) == NULL ||
	    (j.join = pd_join_new(j.ninputs, put_rec, &j)) == NULL ||
	    (level > 0 && (j.z = pd_zenc_new(j.w, level, ztype)) == NULL)) {
		pd_warnx("out of memory");
		return PD_EXIT_DATA;
	}
	if (pd_writer_header(j.w) < 0)
		goto write_failed;
	if (j.ninputs > 1 && (status = prime_all(&j, inputs)) < 0)
		goto write_failed;
	for (i = 0; i < j.ninputs && status == PD_EXIT_OK &&
	    !pd_interrupted(); i++)
		if ((status = join_input(&j, inputs[i], i)) < 0)
			goto write_failed;
	if (pd_zenc_free(j.z) < 0 || pd_writer_free(j.w) < 0)
		goto write_failed;
	for (i = 0; i < j.ninputs; i++)
		pd_reader_close(j.in[i].rd);
	free(j.in);
	pd_join_free(j.join);
	filter_free(j.filter);
	/* Stopped by the user: what was read is written, and kept. */
	if (status == PD_EXIT_OK && pd_interrupted())
		status = PD_EXIT_INTR;
	if (pd_output_close(&out, status == PD_EXIT_OK ||
	    status == PD_EXIT_INTR) < 0)
		return PD_EXIT_DATA;
	return status;

write_failed:
	pd_output_abort(&out);
	pd_die_write(out.name);
}
