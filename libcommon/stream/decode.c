/* SPDX-License-Identifier: MIT */
#include "libcommon/stream/decode.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "libcommon/stream/event.h"
#include "libcommon/stream/evlist.h"
#include "libcommon/stream/feature.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/record.h"
#include "libcommon/stream/sample.h"
#include "libcommon/stream/tracefmt.h"


/* A NUL-terminated string in a field of at most `max` bytes (0: rest). */
static void
str(struct pd_dwalk *w, const char *name, size_t max)
{
	size_t n = pd_dwalk_left(w);

	if (w->bad)
		return;
	if (max != 0) {
		if (!pd_dwalk_room(w, max))
			return;
		n = max;
	}
	pd_dwalk_emit(w, name, PD_D_STR, 0, w->p + w->off,
	    strnlen((const char *)w->p + w->off, n));
	w->off += n;
}

static void
bytes(struct pd_dwalk *w, const char *name, size_t n)
{
	if (!pd_dwalk_room(w, n))
		return;
	pd_dwalk_emit(w, name, PD_D_BYTES, 0, w->p + w->off, n);
	w->off += n;
}

/* READ values as the read_format lays them out (RECORD_READ). */
static void
read_values(struct pd_dwalk *w, uint64_t rf)
{
	uint64_t nr, i;

	if (rf & PERF_FORMAT_GROUP) {
		nr = pd_dwalk_u64(w, "nr");
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			pd_dwalk_u64(w, "time_enabled");
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			pd_dwalk_u64(w, "time_running");
		pd_dwalk_open(w, "values", 1);
		for (i = 0; i < nr && !w->bad; i++) {
			pd_dwalk_open(w, NULL, 0);
			pd_dwalk_u64(w, "value");
			if (rf & PERF_FORMAT_ID)
				pd_dwalk_u64(w, "id");
			if (rf & PD_FORMAT_LOST)
				pd_dwalk_u64(w, "lost");
			pd_dwalk_close(w, 0);
		}
		pd_dwalk_close(w, 1);
		return;
	}
	pd_dwalk_u64(w, "value");
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		pd_dwalk_u64(w, "time_enabled");
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		pd_dwalk_u64(w, "time_running");
	if (rf & PERF_FORMAT_ID)
		pd_dwalk_u64(w, "id");
	if (rf & PD_FORMAT_LOST)
		pd_dwalk_u64(w, "lost");
}

/*
 * perf_record_cpu_map_data at w->off: the cpus as a list. Every loop
 * is bounded by what the record holds: a list by its u16 count, a mask
 * by its words (long_size 4 or 8, as perf writes it; anything else
 * would shift by 64 or more); a range is not spelled out at all.
 */
static void
cpu_map(struct pd_dwalk *w)
{
	uint16_t type, nr, lsz;
	uint32_t i;
	unsigned b;

	type = pd_dwalk_u16(w, "map_type");
	if (type == 2) {
		/*
		 * A range is shown as the record holds it (perf's
		 * perf_record_range_cpu_map), not spelled out: 16 bytes
		 * would otherwise print 65536 cpus, and a stream of them
		 * gigabytes.
		 */
		if (!pd_dwalk_room(w, 6))
			return;
		pd_dwalk_num(w, "any_cpu", 1, PD_D_U);
		w->off += 1;	/* pad */
		pd_dwalk_u16(w, "start_cpu");
		pd_dwalk_u16(w, "end_cpu");
		return;
	}
	pd_dwalk_open(w, "cpus", 1);
	switch (type) {
	case 0:
		nr = pd_dwalk_u16(w, NULL);
		for (i = 0; i < nr && !w->bad; i++)
			pd_dwalk_emit(w, NULL, PD_D_U, pd_dwalk_u16(w, NULL), NULL, 0);
		break;
	case 1:
		nr = pd_dwalk_u16(w, NULL);
		lsz = pd_dwalk_u16(w, NULL);
		if (lsz != 4 && lsz != 8) {
			w->bad = 1;
			w->why = "cpu mask long_size is neither 4 nor 8";
			break;
		}
		if (lsz == 8)
			w->off += 4 <= pd_dwalk_left(w) ? 4 : 0;
		for (i = 0; i < nr && !w->bad; i++) {
			uint64_t m = pd_dwalk_num(w, NULL, lsz, PD_D_X);

			for (b = 0; b < lsz * 8u && !w->bad; b++)
				if (m >> b & 1)
					pd_dwalk_emit(w, NULL, PD_D_U,
					    (uint64_t)i * lsz * 8 + b, NULL, 0);
		}
		break;
	default:
		w->bad = 1;
		w->why = "unknown cpu map type";
	}
	pd_dwalk_close(w, 1);
}

/* MMAP2's device and inode, or with PERF_RECORD_MISC_MMAP_BUILD_ID a
 * build id: u8 size, 3 reserved bytes, 20 bytes of id. */
static void
mmap2_id(struct pd_dwalk *w, uint16_t misc)
{
	uint8_t n;

	if (!(misc & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
		pd_dwalk_u32(w, "maj");
		pd_dwalk_u32(w, "min");
		pd_dwalk_u64(w, "ino");
		pd_dwalk_u64(w, "ino_generation");
		return;
	}
	if (!pd_dwalk_room(w, 24))
		return;
	n = w->p[w->off];
	if (n > 20)
		n = 20;
	pd_dwalk_emit(w, "build_id", PD_D_BYTES, 0, w->p + w->off + 4, n);
	w->off += 24;
}

/* The namespaces of a NAMESPACES record, in the kernel's order. */
static const char *const ns_names[] = {
	"net", "uts", "ipc", "pid", "user", "mnt", "cgroup",
};

/*
 * The entries of a list: an entry of one unnamed number is a bare value
 * (read, then shown even past the end, where the walk goes bad), others
 * are objects of their numbers and pads; NAMESPACES entries are named
 * by their index.
 */
static void
list(struct pd_dwalk *w, const struct pd_field *lf, uint64_t nr)
{
	const struct pd_field *f;
	uint64_t i;

	pd_dwalk_open(w, lf->name, 1);
	for (i = 0; i < nr && !w->bad; i++) {
		f = lf->sub;
		if (f[0].name == NULL && f[1].kind == PD_F_END) {
			pd_dwalk_emit(w, NULL, f->fmt,
			    pd_dwalk_num(w, NULL, f->size, f->fmt), NULL, 0);
			continue;
		}
		pd_dwalk_open(w, NULL, 0);
		if (lf->kind == PD_F_NAMESPACES &&
		    i < sizeof(ns_names) / sizeof(ns_names[0]))
			pd_dwalk_emit(w, "name", PD_D_STR, 0, ns_names[i],
			    strlen(ns_names[i]));
		for (; f->kind != PD_F_END; f++)
			if (f->kind == PD_F_PAD)
				w->off += f->size;
			else
				pd_dwalk_num(w, f->name, f->size, f->fmt);
		pd_dwalk_close(w, 0);
	}
	pd_dwalk_close(w, 1);
}

/*
 * A payload by its field table (event.h). `nr` is the last number read,
 * the count of a list after it. After PD_F_OPT, a field that does not
 * fit ends the walk, as swap.c's. A walk gone bad goes on: what shows
 * no value (misc bits, empty lists) is still shown.
 */
static void
fields(struct pd_dwalk *w, const struct pd_field *f, const struct pd_rec *rec,
    const struct pd_evsel *ev)
{
	uint64_t nr = 0, prev = 0;
	int opt = 0;

	for (;; f++) {
		/* numbers first: most fields are */
		if ((unsigned)f->kind - PD_F_U8 <= PD_F_U64 - PD_F_U8) {
			if (opt && f->size > pd_dwalk_left(w))
				return;
			prev = nr;
			nr = pd_dwalk_num(w, f->name, f->size, f->fmt);
			continue;
		}
		switch (f->kind) {
		case PD_F_END:
			return;
		case PD_F_PAD:
			if (opt && f->size > pd_dwalk_left(w))
				return;
			w->off += f->size;
			break;
		case PD_F_BYTES:
			if (opt && f->size > pd_dwalk_left(w))
				return;
			bytes(w, f->name, f->size);
			break;
		case PD_F_STR:
			str(w, f->name, 0);
			break;
		case PD_F_SKIP:
			w->off = w->end;
			break;
		case PD_F_RESTLEN:
			pd_dwalk_emit(w, f->name, PD_D_U, pd_dwalk_left(w),
			    NULL, 0);
			w->off = w->end;
			break;
		case PD_F_MISC:
			pd_dwalk_emit(w, f->name, PD_D_U,
			    rec->misc >> f->size & 1, NULL, 0);
			break;
		case PD_F_OPT:
			opt = 1;
			break;
		case PD_F_U64S:
			pd_dwalk_open(w, f->name, 1);
			while (!w->bad && pd_dwalk_left(w) >= 8)
				pd_dwalk_emit(w, NULL, f->fmt,
				    pd_dwalk_num(w, NULL, 8, PD_D_U), NULL, 0);
			pd_dwalk_close(w, 1);
			break;
		case PD_F_LIST_FIT:
			if (nr == 0 || pd_dwalk_left(w) / nr < 16)
				break;
			/* FALLTHROUGH */
		case PD_F_LIST:
		case PD_F_NAMESPACES:
			list(w, f, nr);
			break;
		case PD_F_READ:
			read_values(w, ev != NULL ? ev->attr.read_format : 0);
			break;
		case PD_F_MMAP2_ID:
			if (opt && 24 > pd_dwalk_left(w))
				return;
			mmap2_id(w, rec->misc);
			break;
		case PD_F_POKE:
			bytes(w, "old_bytes", prev);
			bytes(w, "new_bytes", nr);
			w->off = w->end;
			break;
		}
	}
}

int
pd_decode_trailer(const struct pd_rec *rec, const struct pd_evsel *ev,
    const struct pd_dvisit *v, const char **why)
{
	struct pd_sample s;
	struct pd_dval d;
	uint64_t st;
	int r;

	if (ev == NULL || !pd_rec_is_kernel(rec->type) ||
	    rec->type == PERF_RECORD_SAMPLE)
		return 0;
	if ((r = pd_sample_id_parse(ev, rec, &s, why)) <= 0)
		return r;
	st = ev->attr.sample_type;
	memset(&d, 0, sizeof(d));
	d.fmt = PD_D_U;
	v->open(v->ctx, "sample_id", 0);
	if (st & PERF_SAMPLE_TID) {
		d.name = "pid", d.u = s.pid, d.fmt = PD_D_S;
		d.u = (uint64_t)(int64_t)(int32_t)s.pid;
		v->val(v->ctx, &d);
		d.name = "tid", d.u = (uint64_t)(int64_t)(int32_t)s.tid;
		v->val(v->ctx, &d);
		d.fmt = PD_D_U;
	}
	if (st & PERF_SAMPLE_TIME) {
		d.name = "time", d.u = s.time;
		v->val(v->ctx, &d);
	}
	if (st & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER)) {
		d.name = "id", d.u = s.id;
		v->val(v->ctx, &d);
	}
	if (st & PERF_SAMPLE_STREAM_ID) {
		d.name = "stream_id", d.u = s.stream_id;
		v->val(v->ctx, &d);
	}
	if (st & PERF_SAMPLE_CPU) {
		d.name = "cpu", d.u = s.cpu;
		v->val(v->ctx, &d);
	}
	v->close(v->ctx, 0);
	return 1;
}

static void
feature(struct pd_dwalk *w, const struct pd_rec *rec)
{
	uint64_t f = pd_dwalk_u64(w, NULL);
	const char *name = f < UINT32_MAX ? pd_feat_name(f) : NULL;
	const char *why;

	pd_dwalk_emit(w, "feat_id", PD_D_U, f, NULL, 0);
	if (name != NULL)
		pd_dwalk_emit(w, "feature", PD_D_STR, 0, name, strlen(name));
	if (w->bad || w->off >= w->end)
		return;
	if (pd_decode_feature(f, w->p + w->off, pd_dwalk_left(w), w->v,
	    &why) < 0)
		pd_dwalk_emit(w, "error", PD_D_STR, 0, why, strlen(why));
	w->off = w->end;
}

int
pd_decode_rec(const struct pd_rec *rec, const struct pd_evsel *ev,
    const struct pd_dvisit *v, const char **why)
{
	const struct pd_field *f;
	struct pd_dwalk w;
	uint64_t nr, i;
	long at;

	w.p = rec->data;
	w.off = PD_REC_HDR_SIZE;
	w.end = rec->size;
	w.v = v;
	w.bad = 0;
	w.why = NULL;
	if (ev != NULL && pd_rec_is_kernel(rec->type) &&
	    (at = pd_sample_id_start(ev, rec->size)) >= 0)
		w.end = at;

	if (rec->type < PD_RECORD_USER_MAX &&
	    (f = pd_record_layouts[rec->type]) != NULL) {
		fields(&w, f, rec, ev);
		goto out;
	}
	/* The layouts with counts and versions that a table cannot say. */
	switch (rec->type) {
	case PD_RECORD_HEADER_ATTR: {
		uint32_t asz;

		if (!pd_dwalk_room(&w, 8))
			break;
		asz = pd_get_u32(w.p + w.off + PD_ATTR_OFF_SIZE);
		if (asz == 0)
			asz = PD_ATTR_SIZE_VER0;
		if (asz > pd_dwalk_left(&w)) {
			w.bad = 1;
			break;
		}
		if (pd_decode_attr(w.p + w.off, asz, v, why) < 0)
			return -1;
		w.off += asz;
		pd_dwalk_open(&w, "ids", 1);
		while (!w.bad && pd_dwalk_left(&w) >= 8)
			pd_dwalk_emit(&w, NULL, PD_D_U, pd_dwalk_u64(&w, NULL), NULL, 0);
		pd_dwalk_close(&w, 1);
		break;
	}
	case PD_RECORD_SIMPLEPERF_TRACING_DATA:
		/* u32 size, then the blob itself (the reader parses it) */
		pd_dwalk_emit(&w, "data_size", PD_D_U, pd_dwalk_left(&w) >= 4 ?
		    pd_get_u32(w.p + w.off) : 0, NULL, 0);
		w.off = w.end;
		break;
	case PD_RECORD_HEADER_BUILD_ID: {
		size_t n = 20;

		pd_dwalk_s32(&w, "pid");
		if (!pd_dwalk_room(&w, 24))
			break;
		if ((rec->misc & PD_RECORD_MISC_BUILD_ID_SIZE) && w.p[w.off + 20] <= 20)
			n = w.p[w.off + 20];
		pd_dwalk_emit(&w, "build_id", PD_D_BYTES, 0, w.p + w.off, n);
		w.off += 24;
		str(&w, "filename", 0);
		break;
	}
	case PD_RECORD_AUXTRACE_ERROR: {
		uint32_t fmt;

		pd_dwalk_u32(&w, "error_type");
		pd_dwalk_u32(&w, "code");
		pd_dwalk_s32(&w, "cpu");
		pd_dwalk_s32(&w, "pid");
		pd_dwalk_s32(&w, "tid");
		fmt = pd_dwalk_u32(&w, "fmt");
		pd_dwalk_a64(&w, "ip");
		if (fmt >= 1)
			pd_dwalk_u64(&w, "time");
		str(&w, "msg", 64 <= pd_dwalk_left(&w) ? 64 : 0);
		if (fmt >= 2 && pd_dwalk_left(&w) >= 8) {
			pd_dwalk_u32(&w, "machine_pid");
			pd_dwalk_u32(&w, "vcpu");
		}
		break;
	}
	case PD_RECORD_THREAD_MAP:
		nr = pd_dwalk_u64(&w, "nr");
		pd_dwalk_open(&w, "threads", 1);
		for (i = 0; i < nr && !w.bad; i++) {
			pd_dwalk_open(&w, NULL, 0);
			pd_dwalk_num(&w, "pid", 8, PD_D_S);
			str(&w, "comm", 16);
			pd_dwalk_close(&w, 0);
		}
		pd_dwalk_close(&w, 1);
		break;
	case PD_RECORD_CPU_MAP:
		cpu_map(&w);
		w.off = w.end;
		break;
	case PD_RECORD_EVENT_UPDATE: {
		uint64_t t = pd_dwalk_u64(&w, "update_type");

		pd_dwalk_u64(&w, "id");
		if (w.bad)
			break;
		switch (t) {
		case 0:
			str(&w, "unit", 0);
			break;
		case 1: {
			struct pd_dval d;

			if (!pd_dwalk_room(&w, 8))
				break;
			memset(&d, 0, sizeof(d));
			d.name = "scale";
			d.fmt = PD_D_DOUBLE;
			memcpy(&d.d, w.p + w.off, 8);
			v->val(v->ctx, &d);
			w.off += 8;
			break;
		}
		case 2:
			str(&w, "name", 0);
			break;
		case 3:
			cpu_map(&w);
			break;
		default:
			bytes(&w, "data", pd_dwalk_left(&w));
		}
		w.off = w.end;
		break;
	}
	case PD_RECORD_HEADER_FEATURE:
		feature(&w, rec);
		break;
	case PD_RECORD_BPF_METADATA:
		str(&w, "prog_name", 512);
		nr = pd_dwalk_u64(&w, "nr_entries");
		pd_dwalk_open(&w, "entries", 1);
		for (i = 0; i < nr && !w.bad; i++) {
			pd_dwalk_open(&w, NULL, 0);
			str(&w, "key", 64);
			str(&w, "value", 256);
			pd_dwalk_close(&w, 0);
		}
		pd_dwalk_close(&w, 1);
		break;
	case PD_RECORD_SCHEDSTAT_DOMAIN:
		pd_dwalk_u64(&w, "timestamp");
		pd_dwalk_u32(&w, "cpu");
		pd_dwalk_u16(&w, "version");
		pd_dwalk_u16(&w, "domain");
		pd_dwalk_open(&w, "counters", 1);
		while (!w.bad && pd_dwalk_left(&w) >= 8)
			pd_dwalk_emit(&w, NULL, PD_D_U, pd_dwalk_u64(&w, NULL), NULL, 0);
		pd_dwalk_close(&w, 1);
		break;
	default:
		bytes(&w, "data", pd_dwalk_left(&w));
		break;
	}
out:
	if (w.bad) {
		*why = w.why != NULL ? w.why :
		    "payload does not fit its record";
		return -1;
	}
	if (w.end < rec->size && pd_decode_trailer(rec, ev, v, why) < 0)
		return -1;
	return 0;
}
