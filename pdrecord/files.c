/* SPDX-License-Identifier: MIT */
/*
 * pdrecord: the files the recorded processes map, noted as their MMAP records
 * pass, for the build ids written at the end.
 */
#include "pdrecord/extern.h"

#include <stdlib.h>

#include "libcommon/cli/msg.h"
#include "libcommon/stream/event.h"

struct strset files;

static size_t
str_hash(const char *s, size_t cap)
{
	size_t h = 5381;

	while (*s != '\0')
		h = h * 33 + (unsigned char)*s++;
	return h & (cap - 1);
}

static void
strset_add(struct strset *s, const char *name)
{
	size_t h, i;

	if (s->n >= 65536)
		return;		/* enough: the rest go without build ids */
	if ((s->n + 1) * 2 > s->cap) {
		struct strset o = *s;

		s->cap = o.cap ? o.cap * 2 : 1024;
		if ((s->v = calloc(s->cap, sizeof(*s->v))) == NULL)
			pd_die_nomem();
		for (i = 0; i < o.cap; i++) {
			if (o.v[i] == NULL)
				continue;
			for (h = str_hash(o.v[i], s->cap); s->v[h] != NULL;
			    h = (h + 1) & (s->cap - 1))
				;
			s->v[h] = o.v[i];
		}
		free(o.v);
	}
	for (h = str_hash(name, s->cap); s->v[h] != NULL;
	    h = (h + 1) & (s->cap - 1))
		if (strcmp(s->v[h], name) == 0)
			return;
	if ((s->v[h] = strdup(name)) == NULL)
		pd_die_nomem();
	s->n++;
}

/* What pdrecord notes about every record it passes on. */
void
note_record(const unsigned char *p)
{
	struct pd_rec rec;
	struct pd_record_lost l;
	struct pd_record_lost_samples ls;
	struct pd_record_mmap m;
	struct pd_record_mmap2 m2;

	pd_rec_view(&rec, p);
	switch (rec.type) {
	case PERF_RECORD_SAMPLE:
		nsamples++;
		break;
	case PERF_RECORD_LOST:
		if (pd_record_lost_parse(&rec, &l) == 0)
			nlost += l.lost;
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (pd_record_lost_samples_parse(&rec, &ls) == 0)
			nlost += ls.lost;
		break;
	case PERF_RECORD_MMAP:
		if (pd_record_mmap_parse(&rec, &m) == 0)
			strset_add(&files, m.filename);
		break;
	case PERF_RECORD_MMAP2:
		if (pd_record_mmap2_parse(&rec, &m2) == 0)
			strset_add(&files, m2.filename);
		break;
	}
}

/* Notes every record of a buffer of whole records. */
void
note_buf(const unsigned char *p, size_t len)
{
	size_t off = 0, sz;

	while (off + PD_REC_HDR_SIZE <= len) {
		sz = pd_header_size(p + off);
		if (sz < PD_REC_HDR_SIZE || off + sz > len)
			break;
		note_record(p + off);
		off += sz;
	}
}
