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
#include "libcommon/stream/idmap.h"
#include "libcommon/stream/ids.h"
#include "libcommon/cli/msg.h"
#include "libcommon/cli/output.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/reader.h"
#include "libcommon/stream/tracefmt.h"
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

/*
 * Sample ids must stay unique across joined inputs. Every id an input
 * uses is claimed by that input the first time it shows up; an id that
 * an earlier input already claimed is given a fresh number for the rest
 * of this input. The maps are keyed by ids the inputs choose, hence
 * pd_idmap's seeded hash.
 */
/*
 * Owner of the ids pdcat makes up: an input that uses one of them itself
 * has it renumbered too.
 */
#define OWNER_PDCAT	UINT64_MAX

struct joiner {
	struct pd_idmap	 owners;	/* id -> input that claimed it */
	struct pd_idmap	 map;		/* this input's id -> new id */
	struct pd_idmap	 evids;		/* this input's event -> its id */
	uint64_t	 input;
	uint64_t	 next_id;
	int		 nomem;
	struct pd_tracefmt *tf;		/* the earlier inputs' formats */
	unsigned char	*blob;		/* this input's tracing data */
	size_t		 blob_cap;
	struct pd_writer *w;		/* the output, through z with -z */
	struct pd_zenc	*z;
	int		 ninputs;
	int		 decompress;	/* inputs read decompressed */
	struct filter	*filter;	/* NULL: every sample passes */
	int		 verbose;
};

static uint64_t
map_id(void *ctx, uint64_t id)
{
	struct joiner *j = ctx;
	uint64_t v;

	if (id == 0)
		return 0;		/* synthesized records: first event */
	if (pd_idmap_get(&j->map, id, &v))
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
	if (pd_idmap_put(&j->owners, v, v == id ? j->input : OWNER_PDCAT) < 0 ||
	    pd_idmap_put(&j->map, id, v) < 0)
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
	struct joiner *j = ctx;
	uint64_t v;

	if (pd_idmap_get(&j->evids, ev->idx, &v))
		return v;
	if (ev->nids > 0) {
		v = map_id(j, ev->ids[0]);
	} else {
		do
			v = j->next_id++;
		while (pd_idmap_get(&j->owners, v, NULL));
		if (pd_idmap_put(&j->owners, v, OWNER_PDCAT) < 0)
			j->nomem = 1;
	}
	if (pd_idmap_put(&j->evids, ev->idx, v) < 0)
		j->nomem = 1;
	return v;
}

/*
 * EVENT_DESC names events by index, which in a join is the index among
 * every input's events: a later input's would rename the first input's
 * (perf and pdtools name an unnamed event from it, pdtools formerly any).
 * A later input's EVENT_DESC is therefore said as EVENT_UPDATE NAME
 * records, which name by id, and left out.
 */
struct desc_ctx {
	struct joiner		*j;
	const struct pd_evlist	*el;
	struct pd_writer	*w;
	struct pd_zenc		*z;
	uint64_t		 offset;
};

static int
desc_update(void *ctx, uint32_t idx, const char *name, size_t len,
    const unsigned char *ids, uint32_t nids)
{
	static unsigned char b[PD_REC_MAX];
	struct desc_ctx *c = ctx;
	struct pd_rec rec;

	(void)ids;
	(void)nids;
	if (idx >= pd_evlist_count(c->el) || len == 0)
		return 0;
	if (pd_record_event_update_name_build(b, sizeof(b), event_id(c->j,
	    pd_evlist_at(c->el, idx)), name, len, 0) > sizeof(b))
		return 0;
	pd_rec_view(&rec, b);
	rec.offset = c->offset;
	return (c->z != NULL ? pd_zenc_rec(c->z, &rec) :
	    pd_writer_rec(c->w, &rec)) < 0 ? -1 : 0;
}

/*
 * Tracepoint ids are given out per kernel build: the same id may be
 * sched_switch in one input and sched_wakeup in another, and a reader of
 * the join would decode (and pdswap swap) the second input's RAW data by
 * the first one's format, whatever the name. Renumbering tracepoints
 * would mean rewriting the tracing data, every tracepoint attr and every
 * RAW common_type; such a join is refused instead. So a joined input's
 * tracing data is read whole (into j->blob, *len bytes) before it is
 * written, its formats checked against the earlier inputs', and added
 * to them. Returns 0, -1 on a read error (the reader's), or 1 with `msg`
 * saying why the join is refused.
 */
static int
same_name(const struct pd_tf_event *a, const struct pd_tf_event *b)
{
	return strcmp(a->name, b->name) == 0 &&
	    strcmp(a->system, b->system) == 0;
}

static int
join_tracing(struct joiner *j, struct pd_reader *rd, const struct pd_rec *rec,
    size_t *len, char *msg, size_t msglen)
{
	const struct pd_tf_event *e, *o;
	const unsigned char *p;
	struct pd_tracefmt *tf;
	const char *why;
	ssize_t n;
	size_t i;

	*len = 0;
	if (rec->payload > PD_TRACEFMT_MAX) {
		snprintf(msg, msglen, "tracing data of %" PRIu64 " bytes is "
		    "too large to check against the other inputs'",
		    rec->payload);
		return 1;
	}
	while ((n = pd_reader_payload(rd, &p)) > 0) {
		if (*len + n > j->blob_cap) {
			size_t cap = j->blob_cap ? j->blob_cap : 65536;
			unsigned char *b;

			while (cap < *len + n)
				cap *= 2;
			if ((b = realloc(j->blob, cap)) == NULL)
				goto nomem;
			j->blob = b;
			j->blob_cap = cap;
		}
		memcpy(j->blob + *len, p, n);
		*len += n;
	}
	if (n < 0)
		return -1;
	if (j->tf == NULL) {
		if ((j->tf = pd_tracefmt_new()) == NULL)
			goto nomem;
		if (pd_tracefmt_add(j->tf, j->blob, *len, &why) == 0)
			(void)pd_tracefmt_finish(j->tf, &why);
		return 0;
	}
	if ((tf = pd_tracefmt_new()) == NULL)
		goto nomem;
	if (pd_tracefmt_add(tf, j->blob, *len, &why) == 0)
		(void)pd_tracefmt_finish(tf, &why);
	for (i = 0; i < pd_tracefmt_nevents(tf); i++) {
		e = pd_tracefmt_event_at(tf, i);
		if ((o = pd_tracefmt_event(j->tf, e->id)) == NULL ||
		    pd_tf_event_same(e, o))
			continue;
		snprintf(msg, msglen, "tracepoint id %" PRIu32 " is %s:%s "
		    "here but %s:%s%s in an earlier input (another kernel): "
		    "cannot join them", e->id, e->system, e->name, o->system,
		    o->name, same_name(e, o) ?
		    " of another format" : "");
		pd_tracefmt_free(tf);
		return 1;
	}
	pd_tracefmt_free(tf);
	if (pd_tracefmt_add(j->tf, j->blob, *len, &why) < 0) {
		snprintf(msg, msglen, "tracing data: %s", why);
		return 1;
	}
	(void)pd_tracefmt_finish(j->tf, &why);
	return 0;

nomem:
	j->nomem = 1;
	return 0;
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

/* Bad input at `offset` of rd: what came before goes out, then why. */
static int
join_bad(const struct joiner *j, struct pd_reader *rd, uint64_t offset,
    const char *why)
{
	struct pd_err e = *pd_reader_err(rd);

	if (flush_out(j->w, j->z) < 0)
		return JOIN_WRITE;
	pd_err_set(&e, offset, "%s", why);
	e.input = pd_reader_name(rd);
	pd_print_err(&e);
	return JOIN_BAD;
}

static int
join_nomem(void)
{
	pd_warnx("out of memory");
	return JOIN_BAD;
}

/*
 * Renumbers colliding ids, then gives every event PERF_SAMPLE_IDENTIFIER:
 * perf finds every record's event by the first attr's layout, which only
 * IDENTIFIER makes the same for all. rec then points at the new bytes.
 */
static int
renumber(struct joiner *j, struct pd_reader *rd, struct pd_rec *rec)
{
	static unsigned char scratch[PD_REC_MAX + 1];
	static unsigned char grown[PD_REC_MAX + 1];
	const struct pd_evlist *el = pd_reader_evlist(rd);
	const char *why;
	int grew;

	memcpy(scratch, rec->data, rec->size);
	if (pd_ids_map(el, rec, scratch, map_id, j, &why) < 0 ||
	    (grew = pd_ids_add_identifier(el, rec, scratch, grown, event_id,
	    j, &why)) < 0)
		return join_bad(j, rd, rec->offset, why);
	if (j->nomem)
		return join_nomem();
	rec->data = scratch;
	if (grew > 0) {
		rec->data = grown;
		rec->size = grew;
	}
	return JOIN_OK;
}

/*
 * One record of input i, through the joins a record needs, written.
 * Inlined in both callers: the loop of join_input() runs it per record.
 */
static inline __attribute__((always_inline)) int
join_rec(struct joiner *j, struct pd_reader *rd, struct pd_rec *rec)
{
	char msg[512];
	size_t len;
	int r;

	if (j->decompress && pd_feat_id(rec) == PD_FEAT_COMPRESSED)
		return JOIN_OK;
	if (j->ninputs > 1 && j->input > 0 &&
	    pd_feat_id(rec) == PD_FEAT_EVENT_DESC) {
		struct desc_ctx dc = { j, pd_reader_evlist(rd), j->w, j->z,
		    rec->offset };

		if (pd_feat_event_desc(rec, desc_update, &dc) < 0)
			return JOIN_WRITE;
		return j->nomem ? join_nomem() : JOIN_OK;
	}
	if (j->ninputs > 1 && (r = renumber(j, rd, rec)) != JOIN_OK)
		return r;
	if (j->ninputs > 1 && rec->type == PD_RECORD_HEADER_TRACING_DATA) {
		if ((r = join_tracing(j, rd, rec, &len, msg, sizeof(msg))) < 0)
			return JOIN_READ;
		if (j->nomem)
			return join_nomem();
		if (r > 0)
			return join_bad(j, rd, rec->offset, msg);
		if ((j->z != NULL ? pd_zenc_rec(j->z, rec) :
		    pd_writer_rec(j->w, rec)) < 0 ||
		    (j->z != NULL ? pd_zenc_plain(j->z, j->blob, len) :
		    pd_writer_put(j->w, j->blob, len)) < 0)
			return JOIN_WRITE;
		return JOIN_OK;
	}
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
filter_join(struct joiner *j, struct pd_reader *rd, struct pd_rec *rec)
{
	struct pd_rec w;
	const char *why;
	int r = FILTER_HELD, how = JOIN_OK;

	if (j->filter == NULL)
		return rec != NULL ? join_rec(j, rd, rec) : JOIN_OK;
	if (rec == NULL)
		filter_finish(j->filter);
	else if ((r = filter_put(j->filter, pd_reader_evlist(rd), rec,
	    &why)) < 0)
		return join_bad(j, rd, rec->offset, why);
	while (how == JOIN_OK && filter_take(j->filter, &w))
		how = join_rec(j, rd, &w);
	if (how == JOIN_OK && r == FILTER_PASS)
		how = join_rec(j, rd, rec);
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

/* Input i, whole. Its exit status, or -1 when the output failed. */
static int
join_input(struct joiner *j, const char *path, int i)
{
	struct pd_err err;
	struct pd_reader *rd;
	struct pd_rec rec;
	const char *what;
	unsigned dropped;
	int r, how = JOIN_OK;

	rd = pd_reader_open(path,
	    j->decompress || j->z != NULL ? PD_RD_DECOMPRESS : 0, &err);
	if (rd == NULL) {
		pd_print_err(&err);
		return PD_EXIT_DATA;
	}
	pd_interrupt_watch(rd);
	if (j->filter != NULL && filter_start(j->filter) < 0) {
		pd_reader_close(rd);
		return join_nomem();
	}
	j->input = i;
	pd_idmap_free(&j->map);
	pd_idmap_free(&j->evids);
	/* Without filters the loop stays as tight as it was. */
	while ((r = pd_reader_next(rd, &rec)) > 0 &&
	    (how = j->filter == NULL ? join_rec(j, rd, &rec) :
	    filter_join(j, rd, &rec)) == JOIN_OK)
		;
	/* What waited goes out, before an error too. */
	if (how == JOIN_OK)
		how = filter_join(j, rd, NULL);
	if (how == JOIN_WRITE) {
		pd_reader_close(rd);
		return -1;
	}
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
	j.next_id = 1;
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
	if ((j.w = pd_writer_new(out.fd)) == NULL ||
	    (level > 0 && (j.z = pd_zenc_new(j.w, level, ztype)) == NULL)) {
		pd_warnx("out of memory");
		return PD_EXIT_DATA;
	}
	if (pd_writer_header(j.w) < 0)
		goto write_failed;
	for (i = 0; i < j.ninputs && status == PD_EXIT_OK &&
	    !pd_interrupted(); i++)
		if ((status = join_input(&j, inputs[i], i)) < 0)
			goto write_failed;
	if (pd_zenc_free(j.z) < 0 || pd_writer_free(j.w) < 0)
		goto write_failed;
	pd_idmap_free(&j.map);
	pd_idmap_free(&j.evids);
	pd_idmap_free(&j.owners);
	pd_tracefmt_free(j.tf);
	filter_free(j.filter);
	free(j.blob);
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
