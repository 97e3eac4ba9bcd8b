/* SPDX-License-Identifier: MIT */
/*
 * pdstat --build-ids: "<build id> <path>" lines, as perf buildid-list
 * prints them, so that a pipeline can fetch exactly the files a stream
 * recorded elsewhere needs (pddump(1), EXAMPLES). Memory: one entry per
 * distinct pair, at most BIDS_MAX; past it, pairs are printed again.
 */
#include "pdstat/buildids.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "libcommon/cli/msg.h"
#include "libcommon/stream/esc.h"
#include "libcommon/stream/event.h"
#include "libcommon/stream/idmap.h"
#include "libcommon/stream/reader.h"

#define BIDS_MAX	(1U << 20)

struct seen {
	uint64_t	*v;		/* hashes of pairs printed; 0 free */
	size_t		 cap, n;
	uint64_t	 seed;
};

static uint64_t
pair_hash(const struct seen *s, const unsigned char *id, size_t idlen,
    const char *path, size_t len)
{
	uint64_t h = 1469598103934665603ULL ^ s->seed;
	size_t i;

	for (i = 0; i < idlen; i++)
		h = (h ^ id[i]) * 1099511628211ULL;
	h = (h ^ 0xff) * 1099511628211ULL;
	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)path[i]) * 1099511628211ULL;
	h = pd_idmap_mix(h, 0);
	return h != 0 ? h : 1;
}

/* 1 when the pair is new (now noted), 0 when printed before. */
static int
seen_add(struct seen *s, uint64_t h)
{
	size_t i, ncap;
	uint64_t *nv;

	if (s->n >= BIDS_MAX)
		return 1;
	if ((s->n + 1) * 2 > s->cap) {
		ncap = s->cap ? s->cap * 2 : 256;
		if ((nv = calloc(ncap, sizeof(*nv))) == NULL)
			return 1;
		for (i = 0; i < s->cap; i++) {
			size_t k;

			if (s->v[i] == 0)
				continue;
			for (k = s->v[i] & (ncap - 1); nv[k] != 0;
			    k = (k + 1) & (ncap - 1))
				;
			nv[k] = s->v[i];
		}
		free(s->v);
		s->v = nv;
		s->cap = ncap;
	}
	for (i = h & (s->cap - 1); s->v[i] != 0; i = (i + 1) & (s->cap - 1))
		if (s->v[i] == h)
			return 0;
	s->v[i] = h;
	s->n++;
	return 1;
}

static void
put(struct seen *s, FILE *out, const unsigned char *id, size_t idlen,
    const char *path, size_t len)
{
	char ebuf[4 * 4096 + 1];
	size_t i;

	if (idlen == 0 || len == 0 ||
	    !seen_add(s, pair_hash(s, id, idlen, path, len)))
		return;
	for (i = 0; i < idlen; i++)
		fprintf(out, "%02x", id[i]);
	fprintf(out, " %s\n", pd_esc_needed(path, len) ? (pd_esc(ebuf, path,
	    len < 4096 ? len : 4096), ebuf) : path);
}

int
buildids_run(const char *path, FILE *out)
{
	struct pd_record_header_build_id b;
	struct pd_record_mmap2 m;
	struct seen s = { NULL, 0, 0, pd_idmap_seed() };
	struct pd_reader *rd;
	struct pd_err err;
	struct pd_rec rec;
	int r;

	if ((rd = pd_reader_open(path, PD_RD_DECOMPRESS, &err)) == NULL) {
		pd_print_err(&err);
		return -1;
	}
	while ((r = pd_reader_next(rd, &rec)) > 0) {
		if (rec.type == PD_RECORD_HEADER_BUILD_ID &&
		    pd_record_header_build_id_parse(&rec, &b) == 0)
			put(&s, out, b.build_id, b.build_id_size, b.filename,
			    b.filename_len);
		else if (rec.type == PERF_RECORD_MMAP2 &&
		    pd_record_mmap2_parse(&rec, &m) == 0 && m.build_id != NULL)
			put(&s, out, m.build_id, m.build_id_size, m.filename,
			    m.filename_len);
	}
	if (r < 0)
		pd_print_err(pd_reader_err(rd));
	pd_reader_close(rd);
	free(s.v);
	return r < 0 ? -1 : 0;
}
