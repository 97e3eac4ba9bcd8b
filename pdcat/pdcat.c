/* SPDX-License-Identifier: MIT */
/*
 * pdcat: join perf.data inputs (pipe or file mode) into one pipe-mode
 * stream on standard output.
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libcommon/evlist.h"
#include "libcommon/feature.h"
#include "libcommon/ids.h"
#include "libcommon/msg.h"
#include "libcommon/output.h"
#include "libcommon/perf.h"
#include "libcommon/reader.h"
#include "libcommon/writer.h"
#include "libcommon/zenc.h"

static const char usage_line[] =
    "usage: pdcat [-d | -z[level] | --compress2[=level]] [-o file] "
    "[file ...]\n";

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
 * of this input.
 */
struct idtab {
	uint64_t	*keys;
	uint64_t	*vals;		/* owner input (ids) / new id (map) */
	unsigned char	*used;
	size_t		 cap, n;
};

/*
 * Owner of the ids pdcat makes up: an input that uses one of them itself
 * has it renumbered too.
 */
#define OWNER_PDCAT	UINT64_MAX

struct joiner {
	struct idtab	 owners;	/* id -> input that claimed it */
	struct idtab	 map;		/* this input's id -> new id */
	struct idtab	 evids;		/* this input's event -> its id */
	uint64_t	 input;
	uint64_t	 next_id;
	int		 nomem;
};

static size_t
slot(const struct idtab *t, uint64_t k)
{
	size_t h = (k * 0x9e3779b97f4a7c15ULL) >> 17;

	for (h &= t->cap - 1; t->used[h] && t->keys[h] != k;
	    h = (h + 1) & (t->cap - 1))
		;
	return h;
}

static int
tab_get(const struct idtab *t, uint64_t k, uint64_t *v)
{
	size_t h;

	if (t->cap == 0)
		return 0;
	h = slot(t, k);
	if (!t->used[h])
		return 0;
	*v = t->vals[h];
	return 1;
}

static int
tab_put(struct idtab *t, uint64_t k, uint64_t v)
{
	size_t h, i;

	if ((t->n + 1) * 2 > t->cap) {
		struct idtab o = *t;

		t->cap = o.cap ? o.cap * 2 : 256;
		t->keys = malloc(t->cap * sizeof(*t->keys));
		t->vals = malloc(t->cap * sizeof(*t->vals));
		t->used = calloc(t->cap, 1);
		if (t->keys == NULL || t->vals == NULL || t->used == NULL)
			return -1;
		t->n = 0;
		for (i = 0; i < o.cap; i++)
			if (o.used[i])
				tab_put(t, o.keys[i], o.vals[i]);
		free(o.keys);
		free(o.vals);
		free(o.used);
	}
	h = slot(t, k);
	if (!t->used[h])
		t->n++;
	t->used[h] = 1;
	t->keys[h] = k;
	t->vals[h] = v;
	return 0;
}

static void
tab_free(struct idtab *t)
{
	free(t->keys);
	free(t->vals);
	free(t->used);
	memset(t, 0, sizeof(*t));
}

static uint64_t
map_id(void *ctx, uint64_t id)
{
	struct joiner *j = ctx;
	uint64_t v;

	if (id == 0)
		return 0;		/* synthesized records: first event */
	if (tab_get(&j->map, id, &v))
		return v;
	if (!tab_get(&j->owners, id, &v)) {
		v = id;
	} else if (v == j->input) {
		return id;
	} else {
		do
			v = j->next_id++;
		while (tab_get(&j->owners, v, &(uint64_t){0}));
	}
	if (id >= j->next_id)
		j->next_id = id + 1;
	if (v >= j->next_id)
		j->next_id = v + 1;
	if (tab_put(&j->owners, v, v == id ? j->input : OWNER_PDCAT) < 0 ||
	    tab_put(&j->map, id, v) < 0)
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

	if (tab_get(&j->evids, ev->idx, &v))
		return v;
	if (ev->nids > 0) {
		v = map_id(j, ev->ids[0]);
	} else {
		do
			v = j->next_id++;
		while (tab_get(&j->owners, v, &(uint64_t){0}));
		if (tab_put(&j->owners, v, OWNER_PDCAT) < 0)
			j->nomem = 1;
	}
	if (tab_put(&j->evids, ev->idx, v) < 0)
		j->nomem = 1;
	return v;
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

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "compress",	optional_argument,	NULL, 'z' },
		{ "compress2",	optional_argument,	NULL, 'Z' },
		{ "decompress",	no_argument,		NULL, 'd' },
		{ "help",	no_argument,		NULL, 'h' },
		{ "output",	required_argument,	NULL, 'o' },
		{ "version",	no_argument,		NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	static unsigned char scratch[PD_REC_MAX + 1];
	static unsigned char grown[PD_REC_MAX + 1];
	static char *stdin_only[] = { "-", NULL };
	struct pd_output out;
	struct pd_writer *w;
	struct pd_zenc *z = NULL;
	struct joiner j;
	const char *outpath = NULL;
	char **inputs;
	int c, decompress = 0, ninputs, i, status = PD_EXIT_OK;
	int level = 0, ztype = PD_RECORD_COMPRESSED;

	pd_setprogname(argv[0]);
	while ((c = getopt_long(argc, argv, "dho:z::", longopts, NULL)) !=
	    -1) {
		switch (c) {
		case 'd':
			decompress = 1;
			break;
		case 'h':
			usage(stdout, PD_EXIT_OK);
			break;
		case 'o':
			outpath = optarg;
			break;
		case 'V':
			pd_print_version();
			return PD_EXIT_OK;
		case 'Z':
			ztype = PD_RECORD_COMPRESSED2;
			/* FALLTHROUGH */
		case 'z':
			level = PD_ZENC_LEVEL_DEFAULT;
			if (optarg != NULL && parse_level(optarg, &level) < 0) {
				pd_warnx("compression level '%s' is not 1 to "
				    "%d", optarg, PD_ZENC_LEVEL_MAX);
				usage(stderr, PD_EXIT_USAGE);
			}
			break;
		default:
			usage(stderr, PD_EXIT_USAGE);
		}
	}
	argc -= optind;
	argv += optind;
	if (decompress && level > 0) {
		pd_warnx("-d and -z exclude each other");
		usage(stderr, PD_EXIT_USAGE);
	}
	inputs = argc > 0 ? argv : stdin_only;
	ninputs = argc > 0 ? argc : 1;
	/*
	 * Ids are rewritten inside records, so joined streams are read
	 * decompressed: compressed bytes cannot be renumbered.
	 */
	if (ninputs > 1)
		decompress = 1;

	pd_interrupt_init();
	if (pd_output_open(&out, outpath) < 0)
		return PD_EXIT_USAGE;
	if ((w = pd_writer_new(out.fd)) == NULL ||
	    (level > 0 && (z = pd_zenc_new(w, level, ztype)) == NULL)) {
		pd_warnx("out of memory");
		return PD_EXIT_DATA;
	}
	memset(&j, 0, sizeof(j));
	j.next_id = 1;
	if (pd_writer_header(w) < 0)
		goto write_failed;

	for (i = 0; i < ninputs && status == PD_EXIT_OK &&
	    !pd_interrupted(); i++) {
		struct pd_err err;
		struct pd_reader *rd;
		struct pd_rec rec;
		const char *what;
		unsigned dropped;
		int r;

		rd = pd_reader_open(inputs[i],
		    decompress || z != NULL ? PD_RD_DECOMPRESS : 0, &err);
		if (rd == NULL) {
			pd_print_err(&err);
			status = PD_EXIT_DATA;
			break;
		}
		pd_interrupt_watch(rd);
		j.input = i;
		tab_free(&j.map);
		tab_free(&j.evids);
		while ((r = pd_reader_next(rd, &rec)) > 0) {
			const unsigned char *p;
			ssize_t n;

			if (decompress &&
			    pd_feat_id(&rec) == PD_FEAT_COMPRESSED)
				continue;
			if (ninputs > 1) {
				const struct pd_evlist *el;
				const char *why;
				int grew;

				/*
				 * Renumber colliding ids, then give every
				 * event PERF_SAMPLE_IDENTIFIER: perf finds
				 * every record's event by the first attr's
				 * layout, which only IDENTIFIER makes the
				 * same for all.
				 */
				el = pd_reader_evlist(rd);
				memcpy(scratch, rec.data, rec.size);
				if (pd_ids_map(el, &rec, scratch, map_id, &j,
				    &why) < 0 ||
				    (grew = pd_ids_add_identifier(el, &rec,
				    scratch, grown, event_id, &j, &why)) < 0) {
					struct pd_err e = *pd_reader_err(rd);

					pd_err_set(&e, rec.offset, "%s", why);
					e.input = pd_reader_name(rd);
					if (flush_out(w, z) < 0)
						goto write_failed;
					pd_print_err(&e);
					status = PD_EXIT_DATA;
					break;
				}
				if (j.nomem) {
					pd_warnx("out of memory");
					status = PD_EXIT_DATA;
					break;
				}
				rec.data = scratch;
				if (grew > 0) {
					rec.data = grown;
					rec.size = grew;
				}
			}
			if ((z != NULL ? pd_zenc_rec(z, &rec) :
			    pd_writer_rec(w, &rec)) < 0)
				goto write_failed;
			while ((n = pd_reader_payload(rd, &p)) > 0)
				if ((z != NULL ? pd_zenc_plain(z, p, n) :
				    pd_writer_put(w, p, n)) < 0)
					goto write_failed;
			if (n < 0) {
				r = -1;
				break;
			}
		}
		if (r < 0) {
			if (flush_out(w, z) < 0)
				goto write_failed;
			pd_print_err(pd_reader_err(rd));
			status = PD_EXIT_DATA;
		}
		if ((dropped = pd_reader_dropped(rd, &what)) > 0)
			pd_warnx("%s: left out %u section%s that a stream "
			    "cannot carry (last: %s)", pd_reader_name(rd),
			    dropped, dropped > 1 ? "s" : "", what);
		pd_reader_close(rd);
	}
	if (pd_zenc_free(z) < 0 || pd_writer_free(w) < 0) {
		w = NULL;
		goto write_failed;
	}
	tab_free(&j.map);
	tab_free(&j.evids);
	tab_free(&j.owners);
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
