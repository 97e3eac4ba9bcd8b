/* SPDX-License-Identifier: MIT */
/*
 * pdswap: convert a perf.data stream (pipe or file mode, either byte
 * order) into a pipe-mode stream of the chosen byte order, field by
 * field at each field's own width.
 */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libcommon/stream/event.h"
#include "libcommon/stream/evlist.h"
#include "libcommon/stream/feature.h"
#include "libcommon/cli/msg.h"
#include "libcommon/cli/output.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/reader.h"
#include "libcommon/stream/swap.h"
#include "libcommon/stream/tracefmt.h"
#include "libcommon/stream/writer.h"

#include "zswap.h"

#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define HOST_BE	1
#else
#define HOST_BE	0
#endif

static const char usage_line[] =
    "usage: pdswap [-t order] [-o file] [file]\n";

static void
usage(FILE *f, int status)
{
	fputs(usage_line, f);
	if (f == stdout)
		fputs("Convert a perf.data stream to a byte order, field by "
		    "field.\n\n"
		    "  -t, --to ORDER    native (default), big, little, or "
		    "swap (the\n"
		    "                    opposite of the input's)\n"
		    "  -o, --output FILE write to FILE instead of standard "
		    "output\n"
		    "  -h, --help        this help\n"
		    "      --version     print the version\n"
		    "With no file, or when file is -, read standard input.\n",
		    f);
	exit(status);
}

enum order { TO_NATIVE, TO_BIG, TO_LITTLE, TO_SWAP };

static int
parse_order(const char *s, enum order *o)
{
	static const char *const names[] = { "native", "big", "little",
	    "swap" };
	unsigned i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(s, names[i]) == 0) {
			*o = i;
			return 0;
		}
	return -1;
}

/* The zstd level perf record used, from the COMPRESSED feature. */
static int
comp_level(const struct pd_header_info *hi)
{
	return hi->seen >> PD_FEAT_COMPRESSED & 1 ? (int)hi->comp_level : 1;
}

/* A zswap failure: a write error (empty message) or bad input. */
static int
zfail(struct pd_reader *rd, struct pd_err *e)
{
	if (e->msg[0] == '\0')
		return -1;
	e->input = pd_reader_name(rd);
	pd_print_err(e);
	return 0;
}

/*
 * The tracing blob (native from the reader) in the output's order: its
 * numbers and flag. The reader parses its formats as it passes, for the
 * RAW data that follow. Returns 1, 0 on bad input (said), -1 on a write
 * error.
 */
static int
tracing_out(struct pd_reader *rd, const struct pd_rec *rec,
    struct pd_writer *w)
{
	const unsigned char *p;
	const char *why = NULL;
	unsigned char *b;
	size_t len = 0;
	ssize_t n;
	struct pd_err e;

	if (rec->payload > PD_TRACEFMT_MAX) {
		why = "tracing data larger than 64 MiB";
		goto bad;
	}
	if ((b = malloc(rec->payload)) == NULL) {
		why = "out of memory";
		goto bad;
	}
	while ((n = pd_reader_payload(rd, &p)) > 0 &&
	    (size_t)n <= rec->payload - len) {
		memcpy(b + len, p, n);
		len += n;
	}
	if (n != 0) {
		free(b);
		if (n < 0) {
			pd_print_err(pd_reader_err(rd));
			return 0;
		}
		why = "tracing data longer than its record says";
		goto bad;
	}
	if (pd_swap_tracing(b, len, 0, &why) < 0) {
		free(b);
		goto bad;
	}
	n = pd_writer_put(w, b, len);
	free(b);
	return n < 0 ? -1 : 1;
bad:
	if (pd_writer_flush(w) < 0)
		return -1;
	e = *pd_reader_err(rd);
	pd_err_set(&e, rec->offset, "tracing data: %s", why);
	e.input = pd_reader_name(rd);
	pd_print_err(&e);
	return 0;
}

/* One conversion: the input, the output and what is said at the end. */
struct conv {
	struct pd_reader	*rd;
	struct pd_writer	*w;
	struct zswap		*z;	/* re-compression, made on demand */
	struct pd_header_info	 hi;
	int			 convert;	/* the output is foreign */
	int			 rezip;		/* the order changes */
	unsigned long long	 nleft;	/* records converted in part */
	const char		*left_why;
};

/* Input at fault: write what came before, say why. PD_EXIT_DATA or -1. */
static int
bad_input(struct conv *c, struct pd_err *e)
{
	if (pd_writer_flush(c->w) < 0)
		return -1;
	e->input = pd_reader_name(c->rd);
	pd_print_err(e);
	return PD_EXIT_DATA;
}

/*
 * One record in the output's order. Compressed records keep their bytes
 * when the order does not change; otherwise their contents are converted
 * and compressed again the way perf did (zswap.c). 0 on, PD_EXIT_DATA
 * (said), or -1 for a write error.
 */
static int
swap_one(struct conv *c, struct pd_rec *rec)
{
	static unsigned char scratch[PD_REC_MAX + 1];
	struct pd_err err;
	const char *why;
	unsigned char *p;
	unsigned buf;
	size_t at;
	int r;

	if (rec->type == PD_RECORD_HEADER_FEATURE)
		(void)pd_header_info_update(&c->hi, rec);
	if (c->rezip && (rec->type == PD_RECORD_COMPRESSED ||
	    rec->type == PD_RECORD_COMPRESSED2)) {
		if (c->z == NULL && (c->z = zswap_new(pd_reader_evlist(c->rd),
		    !pd_reader_swapped(c->rd), comp_level(&c->hi), c->w)) ==
		    NULL) {
			pd_warnx("out of memory");
			return PD_EXIT_DATA;
		}
		if (zswap_feed(c->z, c->rd, rec, &err) < 0)
			return zfail(c->rd, &err) < 0 ? -1 : PD_EXIT_DATA;
		return 0;
	}
	if (c->convert) {
		/*
		 * Converted where the reader read it when it may be changed
		 * there (pd_reader_hold: read as it is, no payload); the
		 * reader reads nothing more before it is written (or copied
		 * by zswap). Else converted in a copy.
		 */
		if ((p = pd_reader_hold(c->rd, rec, &buf, &at)) == NULL) {
			memcpy(scratch, rec->data, rec->size);
			p = scratch;
		}
		r = pd_swap_rec_out(pd_reader_evlist(c->rd), p, &why);
		if (p != scratch)
			pd_reader_release(c->rd, buf);
		if (r < 0) {
			err = *pd_reader_err(c->rd);
			pd_err_set(&err, rec->offset, "%s: %s",
			    pd_rec_name(rec->type) ?
			    pd_rec_name(rec->type) : "record", why);
			return bad_input(c, &err);
		}
		if (r > 0) {
			c->nleft++;
			c->left_why = why;
		}
		rec->data = p;
	}
	/*
	 * A plain record ends a push of compressed ones; it waits while a
	 * record of that push is still incomplete.
	 */
	if (c->z != NULL && (zswap_flush(c->z, rec->payload > 0, &err) < 0 ||
	    (zswap_pending(c->z) &&
	    zswap_hold(c->z, rec->data, rec->size, &err) < 0)))
		return zfail(c->rd, &err) < 0 ? -1 : PD_EXIT_DATA;
	if (c->z != NULL && zswap_pending(c->z))
		return 0;
	if (c->convert && rec->type == PD_RECORD_HEADER_TRACING_DATA &&
	    rec->payload > 0) {
		if (pd_writer_rec(c->w, rec) < 0 ||
		    (r = tracing_out(c->rd, rec, c->w)) < 0)
			return -1;
		return r == 0 ? PD_EXIT_DATA : 0;
	}
	/* AUXTRACE data is the hardware's: it goes as it is */
	if ((r = pd_writer_copy(c->w, c->rd, rec)) == -2)
		return -1;
	if (r < 0) {
		err = *pd_reader_err(c->rd);
		return bad_input(c, &err);
	}
	return 0;
}

/* Every record, then what is left of a compressed push. Status or -1. */
static int
swap_all(struct conv *c)
{
	struct pd_rec rec;
	struct pd_err err;
	int r, status = PD_EXIT_OK;

	memset(&rec, 0, sizeof(rec));
	while ((r = pd_reader_next(c->rd, &rec)) > 0)
		if ((status = swap_one(c, &rec)) != 0)
			return status;
	if (r < 0) {
		err = *pd_reader_err(c->rd);
		return bad_input(c, &err);
	}
	if (c->z == NULL)
		return PD_EXIT_OK;
	if (zswap_flush(c->z, 1, &err) < 0)
		return zfail(c->rd, &err) < 0 ? -1 : PD_EXIT_DATA;
	if (zswap_pending(c->z)) {
		err = *pd_reader_err(c->rd);
		pd_err_set(&err, rec.offset, "compressed data ends in the "
		    "middle of a record");
		return zfail(c->rd, &err) < 0 ? -1 : PD_EXIT_DATA;
	}
	return PD_EXIT_OK;
}

/* What was converted only in part, or left out: one line each. */
static void
say_inexact(struct conv *c)
{
	const char *what;
	unsigned n;

	if (c->z != NULL && (n = zswap_inexact(c->z, &what)) > 0) {
		c->nleft += n;
		c->left_why = what;
	}
	if ((n = pd_reader_inexact(c->rd, &what)) > 0) {
		c->nleft += n;
		c->left_why = what;
	}
	if (c->nleft > 0)
		pd_warnx("%s: %llu record%s converted only in part, the "
		    "rest left as it was (last: %s)", pd_reader_name(c->rd),
		    c->nleft, c->nleft > 1 ? "s" : "", c->left_why);
	if ((n = pd_reader_dropped(c->rd, &what)) > 0)
		pd_warnx("%s: left out %u section%s that a stream cannot "
		    "carry (last: %s)", pd_reader_name(c->rd), n,
		    n > 1 ? "s" : "", what);
}

static enum order
parse_args(int argc, char **argv, const char **outpath, const char **inpath)
{
	static const struct option longopts[] = {
		{ "help",	no_argument,		NULL, 'h' },
		{ "output",	required_argument,	NULL, 'o' },
		{ "to",		required_argument,	NULL, 't' },
		{ "version",	no_argument,		NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	enum order order = TO_NATIVE;
	int c;

	while ((c = getopt_long(argc, argv, "ho:t:", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout, PD_EXIT_OK);
			break;
		case 'o':
			*outpath = optarg;
			break;
		case 't':
			if (parse_order(optarg, &order) < 0) {
				pd_warnx("-t %s: not one of native, big, "
				    "little, swap", optarg);
				usage(stderr, PD_EXIT_USAGE);
			}
			break;
		case 'V':
			pd_print_version();
			exit(PD_EXIT_OK);
		default:
			usage(stderr, PD_EXIT_USAGE);
		}
	}
	if (argc - optind > 1)
		usage(stderr, PD_EXIT_USAGE);
	*inpath = argc - optind == 1 ? argv[optind] : NULL;
	return order;
}

int
main(int argc, char **argv)
{
	unsigned char hdr[PD_PIPE_HDR_SIZE];
	const char *outpath = NULL, *inpath = NULL;
	struct pd_output out;
	struct pd_err err;
	struct conv c;
	enum order order;
	int in_be, out_be, status;

	pd_setprogname(argv[0]);
	order = parse_args(argc, argv, &outpath, &inpath);
	memset(&c, 0, sizeof(c));
	pd_interrupt_init();
	/* The tracing formats convert the RAW data (swap.h). */
	if ((c.rd = pd_reader_open(inpath, PD_RD_STORED | PD_RD_TRACEFMT,
	    &err)) == NULL) {
		pd_print_err(&err);
		return PD_EXIT_DATA;
	}
	pd_interrupt_watch(c.rd);
	in_be = HOST_BE ^ pd_reader_swapped(c.rd);
	out_be = order == TO_NATIVE ? HOST_BE : order == TO_BIG ? 1 :
	    order == TO_LITTLE ? 0 : !in_be;
	/* The reader hands out native records: foreign output turns them. */
	c.convert = out_be != HOST_BE;
	c.rezip = out_be != in_be;

	if (pd_output_open(&out, outpath) < 0) {
		pd_reader_close(c.rd);
		return PD_EXIT_USAGE;
	}
	if ((c.w = pd_writer_new(out.fd)) == NULL) {
		pd_warnx("out of memory");
		return PD_EXIT_DATA;
	}
	pd_pipe_header_put(hdr, c.convert);
	if (pd_writer_put(c.w, hdr, sizeof(hdr)) < 0 ||
	    (status = swap_all(&c)) < 0)
		goto write_failed;
	say_inexact(&c);
	zswap_free(c.z);
	pd_reader_close(c.rd);
	if (pd_writer_free(c.w) < 0)
		goto write_failed;
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
