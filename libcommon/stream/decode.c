/* SPDX-License-Identifier: MIT */
#include "libcommon/stream/decode.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "libcommon/stream/evlist.h"
#include "libcommon/stream/feature.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/record.h"
#include "libcommon/stream/sample.h"
#include "libcommon/stream/tracefmt.h"

const char *const pd_sample_type_names[] = {
	"IP", "TID", "TIME", "ADDR", "READ", "CALLCHAIN", "ID", "CPU",
	"PERIOD", "STREAM_ID", "RAW", "BRANCH_STACK", "REGS_USER",
	"STACK_USER", "WEIGHT", "DATA_SRC", "IDENTIFIER", "TRANSACTION",
	"REGS_INTR", "PHYS_ADDR", "AUX", "CGROUP", "DATA_PAGE_SIZE",
	"CODE_PAGE_SIZE", "WEIGHT_STRUCT",
};
const size_t pd_sample_type_nnames = sizeof(pd_sample_type_names) /
    sizeof(pd_sample_type_names[0]);

const char *const pd_read_format_names[] = {
	"TOTAL_TIME_ENABLED", "TOTAL_TIME_RUNNING", "ID", "GROUP", "LOST",
};
const size_t pd_read_format_nnames = sizeof(pd_read_format_names) /
    sizeof(pd_read_format_names[0]);

/* precise_ip (bits 15-16) is shown as a number, not as bits. */
const char *const pd_attr_flag_names[] = {
	"disabled", "inherit", "pinned", "exclusive", "exclude_user",
	"exclude_kernel", "exclude_hv", "exclude_idle", "mmap", "comm",
	"freq", "inherit_stat", "enable_on_exec", "task", "watermark",
	NULL, NULL, "mmap_data", "sample_id_all", "exclude_host",
	"exclude_guest", "exclude_callchain_kernel",
	"exclude_callchain_user", "mmap2", "comm_exec", "use_clockid",
	"context_switch", "write_backward", "namespaces", "ksymbol",
	"bpf_event", "aux_output", "cgroup", "text_poke", "build_id",
	"inherit_thread", "remove_on_exec", "sigtrap", "defer_callchain",
	"defer_output",
};
const size_t pd_attr_flag_nnames = sizeof(pd_attr_flag_names) /
    sizeof(pd_attr_flag_names[0]);

const char *const pd_branch_type_names[] = {
	"USER", "KERNEL", "HV", "ANY", "ANY_CALL", "ANY_RETURN", "IND_CALL",
	"ABORT_TX", "IN_TX", "NO_TX", "COND", "CALL_STACK", "IND_JUMP",
	"CALL", "NO_FLAGS", "NO_CYCLES", "TYPE_SAVE", "HW_INDEX",
	"PRIV_SAVE", "COUNTERS",
};
const size_t pd_branch_type_nnames = sizeof(pd_branch_type_names) /
    sizeof(pd_branch_type_names[0]);

char *
pd_decode_bits(char *buf, size_t len, uint64_t mask,
    const char *const *table, size_t n)
{
	size_t used = 0;
	uint64_t unknown = 0;
	unsigned b;

	buf[0] = '\0';
	for (b = 0; b < 64; b++) {
		if (!(mask >> b & 1))
			continue;
		if (b >= n || table[b] == NULL) {
			unknown |= 1ULL << b;
			continue;
		}
		if (used < len)
			used += snprintf(buf + used, len - used, "%s%s",
			    used ? "|" : "", table[b]);
	}
	if (unknown && used < len)
		snprintf(buf + used, len - used, "%s0x%" PRIx64,
		    used ? "|" : "", unknown);
	return buf;
}

void
pd_dwalk_emit(struct pd_dwalk *w, const char *name, enum pd_dfmt fmt,
    uint64_t u, const void *p, size_t len)
{
	struct pd_dval d;

	d.name = name;
	d.namelen = name != NULL ? strlen(name) : 0;
	d.fmt = fmt;
	d.u = u;
	d.d = 0;
	d.p = p;
	d.len = len;
	w->v->val(w->v->ctx, &d);
}

int
pd_dwalk_room(struct pd_dwalk *w, size_t n)
{
	if (w->bad || pd_dwalk_left(w) < n) {
		w->bad = 1;
		return 0;
	}
	return 1;
}

uint64_t
pd_dwalk_num(struct pd_dwalk *w, const char *name, unsigned size,
    enum pd_dfmt fmt)
{
	uint64_t u = 0;

	if (!pd_dwalk_room(w, size))
		return 0;
	switch (size) {
	case 1:
		u = w->p[w->off];
		break;
	case 2:
		u = pd_get_u16(w->p + w->off);
		if (fmt == PD_D_S)
			u = (uint64_t)(int64_t)(int16_t)u;
		break;
	case 4:
		u = pd_get_u32(w->p + w->off);
		if (fmt == PD_D_S)
			u = (uint64_t)(int64_t)(int32_t)u;
		break;
	default:
		u = pd_get_u64(w->p + w->off);
	}
	w->off += size;
	if (name != NULL)
		pd_dwalk_emit(w, name, fmt, u, NULL, 0);
	return u;
}

void
pd_dwalk_open(struct pd_dwalk *w, const char *name, int list)
{
	w->v->open(w->v->ctx, name, list);
}

void
pd_dwalk_close(struct pd_dwalk *w, int list)
{
	w->v->close(w->v->ctx, list);
}

#define U16(w, n)	pd_dwalk_num(w, n, 2, PD_D_U)
#define U32(w, n)	pd_dwalk_num(w, n, 4, PD_D_U)
#define S32(w, n)	pd_dwalk_num(w, n, 4, PD_D_S)
#define U64(w, n)	pd_dwalk_num(w, n, 8, PD_D_U)
#define X64(w, n)	pd_dwalk_num(w, n, 8, PD_D_X)
#define A64(w, n)	pd_dwalk_num(w, n, 8, PD_D_ADDR)

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
		nr = U64(w, "nr");
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			U64(w, "time_enabled");
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			U64(w, "time_running");
		pd_dwalk_open(w, "values", 1);
		for (i = 0; i < nr && !w->bad; i++) {
			pd_dwalk_open(w, NULL, 0);
			U64(w, "value");
			if (rf & PERF_FORMAT_ID)
				U64(w, "id");
			if (rf & PD_FORMAT_LOST)
				U64(w, "lost");
			pd_dwalk_close(w, 0);
		}
		pd_dwalk_close(w, 1);
		return;
	}
	U64(w, "value");
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		U64(w, "time_enabled");
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		U64(w, "time_running");
	if (rf & PERF_FORMAT_ID)
		U64(w, "id");
	if (rf & PD_FORMAT_LOST)
		U64(w, "lost");
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

	type = U16(w, "map_type");
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
		U16(w, "start_cpu");
		U16(w, "end_cpu");
		return;
	}
	pd_dwalk_open(w, "cpus", 1);
	switch (type) {
	case 0:
		nr = U16(w, NULL);
		for (i = 0; i < nr && !w->bad; i++)
			pd_dwalk_emit(w, NULL, PD_D_U, U16(w, NULL), NULL, 0);
		break;
	case 1:
		nr = U16(w, NULL);
		lsz = U16(w, NULL);
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

static const char *const ns_names[] = {
	"net", "uts", "ipc", "pid", "user", "mnt", "cgroup",
};

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

int
pd_decode_attr(const void *attr, size_t len, const struct pd_dvisit *v,
    const char **why)
{
	struct pd_dwalk w;
	char buf[512];
	uint64_t flags, st, rf, bt;
	uint32_t asz;

	w.p = attr;
	w.off = 0;
	w.end = len;
	w.v = v;
	w.bad = 0;
	w.why = NULL;
	U32(&w, "attr_type");
	asz = U32(&w, "attr_size");
	if (asz == 0)
		asz = PD_ATTR_SIZE_VER0;
	if (asz < w.end)
		w.end = asz;
	X64(&w, "config");
	U64(&w, "sample_period");
	if (!pd_dwalk_room(&w, 24))
		goto out;
	st = pd_get_u64(w.p + 24);
	rf = pd_get_u64(w.p + 32);
	flags = pd_get_u64(w.p + 40);
	pd_dwalk_emit(&w, "sample_type", PD_D_NAMES, st, buf, strlen(pd_decode_bits(
	    buf, sizeof(buf), st, pd_sample_type_names,
	    pd_sample_type_nnames)));
	pd_dwalk_emit(&w, "read_format", PD_D_NAMES, rf, buf, strlen(pd_decode_bits(
	    buf, sizeof(buf), rf, pd_read_format_names,
	    pd_read_format_nnames)));
	pd_dwalk_emit(&w, "flags", PD_D_NAMES, flags, buf, strlen(pd_decode_bits(
	    buf, sizeof(buf), flags & ~(3ULL << 15), pd_attr_flag_names,
	    pd_attr_flag_nnames)));
	pd_dwalk_emit(&w, "precise_ip", PD_D_U, flags >> 15 & 3, NULL, 0);
	w.off += 24;
	U32(&w, "wakeup_events");
	U32(&w, "bp_type");
	X64(&w, "config1");
	if (pd_dwalk_left(&w) < 8)
		goto out;
	X64(&w, "config2");
	if (pd_dwalk_left(&w) < 8)
		goto out;
	bt = pd_get_u64(w.p + w.off);
	pd_dwalk_emit(&w, "branch_sample_type", PD_D_NAMES, bt, buf,
	    strlen(pd_decode_bits(buf, sizeof(buf), bt,
	    pd_branch_type_names, pd_branch_type_nnames)));
	w.off += 8;
	if (pd_dwalk_left(&w) < 16)
		goto out;
	X64(&w, "sample_regs_user");
	U32(&w, "sample_stack_user");
	S32(&w, "clockid");
	if (pd_dwalk_left(&w) < 8)
		goto out;
	X64(&w, "sample_regs_intr");
	if (pd_dwalk_left(&w) < 8)
		goto out;
	U32(&w, "aux_watermark");
	U16(&w, "sample_max_stack");
	w.off += 2;
	if (pd_dwalk_left(&w) < 8)
		goto out;
	U32(&w, "aux_sample_size");
	pd_dwalk_num(&w, "aux_action", 4, PD_D_X);
	if (pd_dwalk_left(&w) < 8)
		goto out;
	X64(&w, "sig_data");
	if (pd_dwalk_left(&w) < 8)
		goto out;
	X64(&w, "config3");
	if (w.off < w.end)
		bytes(&w, "attr_tail", pd_dwalk_left(&w));
out:
	if (w.bad) {
		*why = "attr does not fit its record";
		return -1;
	}
	return 0;
}

static void
feature(struct pd_dwalk *w, const struct pd_rec *rec)
{
	uint64_t f = U64(w, NULL);
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
	struct pd_dwalk w;
	uint64_t nr, i;
	size_t tl = 0;

	w.p = rec->data;
	w.off = PD_REC_HDR_SIZE;
	w.end = rec->size;
	w.v = v;
	w.bad = 0;
	w.why = NULL;
	if (ev != NULL && pd_rec_is_kernel(rec->type) &&
	    ev->id_hdr_size <= rec->size - PD_REC_HDR_SIZE)
		tl = ev->id_hdr_size;
	w.end -= tl;

	switch (rec->type) {
	case PERF_RECORD_MMAP:
		S32(&w, "pid");
		S32(&w, "tid");
		A64(&w, "addr");
		U64(&w, "len");
		X64(&w, "pgoff");
		str(&w, "filename", 0);
		break;
	case PERF_RECORD_LOST:
		U64(&w, "id");
		U64(&w, "lost");
		break;
	case PERF_RECORD_COMM:
		S32(&w, "pid");
		S32(&w, "tid");
		str(&w, "comm", 0);
		pd_dwalk_emit(&w, "exec", PD_D_U, rec->misc >> 13 & 1, NULL, 0);
		break;
	case PERF_RECORD_EXIT:
	case PERF_RECORD_FORK:
		S32(&w, "pid");
		S32(&w, "ppid");
		S32(&w, "tid");
		S32(&w, "ptid");
		U64(&w, "time");
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		U64(&w, "time");
		U64(&w, "id");
		U64(&w, "stream_id");
		break;
	case PERF_RECORD_READ:
		S32(&w, "pid");
		S32(&w, "tid");
		read_values(&w, ev != NULL ? ev->attr.read_format : 0);
		break;
	case PERF_RECORD_MMAP2:
		S32(&w, "pid");
		S32(&w, "tid");
		A64(&w, "addr");
		U64(&w, "len");
		X64(&w, "pgoff");
		if (rec->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			uint8_t n;

			if (!pd_dwalk_room(&w, 24))
				break;
			n = w.p[w.off];
			if (n > 20)
				n = 20;
			pd_dwalk_emit(&w, "build_id", PD_D_BYTES, 0, w.p + w.off + 4, n);
			w.off += 24;
		} else {
			U32(&w, "maj");
			U32(&w, "min");
			U64(&w, "ino");
			U64(&w, "ino_generation");
		}
		pd_dwalk_num(&w, "prot", 4, PD_D_X);
		pd_dwalk_num(&w, "flags", 4, PD_D_X);
		str(&w, "filename", 0);
		break;
	case PERF_RECORD_AUX:
		X64(&w, "aux_offset");
		X64(&w, "aux_size");
		X64(&w, "flags");
		break;
	case PERF_RECORD_ITRACE_START:
		S32(&w, "pid");
		S32(&w, "tid");
		break;
	case PERF_RECORD_LOST_SAMPLES:
		U64(&w, "lost");
		break;
	case PERF_RECORD_SWITCH_CPU_WIDE:
		S32(&w, "next_prev_pid");
		S32(&w, "next_prev_tid");
		/* FALLTHROUGH */
	case PERF_RECORD_SWITCH:
		pd_dwalk_emit(&w, "out", PD_D_U, rec->misc >> 13 & 1, NULL, 0);
		pd_dwalk_emit(&w, "preempt", PD_D_U, rec->misc >> 14 & 1, NULL, 0);
		break;
	case PERF_RECORD_NAMESPACES:
		S32(&w, "pid");
		S32(&w, "tid");
		nr = U64(&w, "nr_namespaces");
		pd_dwalk_open(&w, "namespaces", 1);
		for (i = 0; i < nr && !w.bad; i++) {
			pd_dwalk_open(&w, NULL, 0);
			if (i < sizeof(ns_names) / sizeof(ns_names[0]))
				pd_dwalk_emit(&w, "name", PD_D_STR, 0, ns_names[i],
				    strlen(ns_names[i]));
			X64(&w, "dev");
			U64(&w, "ino");
			pd_dwalk_close(&w, 0);
		}
		pd_dwalk_close(&w, 1);
		break;
	case PERF_RECORD_KSYMBOL:
		A64(&w, "addr");
		U32(&w, "len");
		U16(&w, "ksym_type");
		pd_dwalk_num(&w, "flags", 2, PD_D_X);
		str(&w, "name", 0);
		break;
	case PERF_RECORD_BPF_EVENT:
		U16(&w, "bpf_type");
		pd_dwalk_num(&w, "flags", 2, PD_D_X);
		U32(&w, "id");
		bytes(&w, "tag", 8);
		break;
	case PERF_RECORD_CGROUP:
		U64(&w, "cgroup_id");
		str(&w, "path", 0);
		break;
	case PD_RECORD_TEXT_POKE: {
		uint16_t o, n;

		A64(&w, "addr");
		o = U16(&w, "old_len");
		n = U16(&w, "new_len");
		bytes(&w, "old_bytes", o);
		bytes(&w, "new_bytes", n);
		w.off = w.end;
		break;
	}
	case PD_RECORD_AUX_OUTPUT_HW_ID:
		U64(&w, "hw_id");
		break;
	case PD_RECORD_CALLCHAIN_DEFERRED:
		X64(&w, "cookie");
		nr = U64(&w, "nr");
		pd_dwalk_open(&w, "ips", 1);
		for (i = 0; i < nr && !w.bad; i++)
			pd_dwalk_emit(&w, NULL, PD_D_ADDR, U64(&w, NULL), NULL, 0);
		pd_dwalk_close(&w, 1);
		break;

	case PD_RECORD_HEADER_ATTR: {
		uint32_t asz;

		if (!pd_dwalk_room(&w, 8))
			break;
		asz = pd_get_u32(w.p + w.off + 4);
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
			pd_dwalk_emit(&w, NULL, PD_D_U, U64(&w, NULL), NULL, 0);
		pd_dwalk_close(&w, 1);
		break;
	}
	case PD_RECORD_HEADER_EVENT_TYPE:
		U64(&w, "event_id");
		str(&w, "name", 0);
		break;
	case PD_RECORD_HEADER_TRACING_DATA:
		U32(&w, "data_size");
		break;
	case PD_RECORD_SIMPLEPERF_TRACING_DATA:
		/* u32 size, then the blob itself (the reader parses it) */
		pd_dwalk_emit(&w, "data_size", PD_D_U, pd_dwalk_left(&w) >= 4 ?
		    pd_get_u32(w.p + w.off) : 0, NULL, 0);
		w.off = w.end;
		break;
	case PD_RECORD_HEADER_BUILD_ID: {
		size_t n = 20;

		S32(&w, "pid");
		if (!pd_dwalk_room(&w, 24))
			break;
		if ((rec->misc & 0x8000) && w.p[w.off + 20] <= 20)
			n = w.p[w.off + 20];
		pd_dwalk_emit(&w, "build_id", PD_D_BYTES, 0, w.p + w.off, n);
		w.off += 24;
		str(&w, "filename", 0);
		break;
	}
	case PD_RECORD_ID_INDEX: {
		int guest;

		nr = U64(&w, "nr");
		guest = nr > 0 && pd_dwalk_left(&w) / nr >= 48;
		pd_dwalk_open(&w, "entries", 1);
		for (i = 0; i < nr && !w.bad; i++) {
			pd_dwalk_open(&w, NULL, 0);
			U64(&w, "id");
			U64(&w, "idx");
			S32(&w, "cpu");
			w.off += 4;
			S32(&w, "tid");
			w.off += 4;
			pd_dwalk_close(&w, 0);
		}
		pd_dwalk_close(&w, 1);
		if (guest) {
			pd_dwalk_open(&w, "guest", 1);
			for (i = 0; i < nr && !w.bad; i++) {
				pd_dwalk_open(&w, NULL, 0);
				U64(&w, "machine_pid");
				U64(&w, "vcpu");
				pd_dwalk_close(&w, 0);
			}
			pd_dwalk_close(&w, 1);
		}
		break;
	}
	case PD_RECORD_AUXTRACE_INFO:
		U32(&w, "auxtrace_type");
		w.off += 4;
		pd_dwalk_open(&w, "priv", 1);
		while (!w.bad && pd_dwalk_left(&w) >= 8)
			pd_dwalk_emit(&w, NULL, PD_D_X, U64(&w, NULL), NULL, 0);
		pd_dwalk_close(&w, 1);
		break;
	case PD_RECORD_AUXTRACE:
		U64(&w, "data_size");
		X64(&w, "data_offset");
		X64(&w, "reference");
		U32(&w, "idx");
		S32(&w, "tid");
		S32(&w, "cpu");
		break;
	case PD_RECORD_AUXTRACE_ERROR: {
		uint32_t fmt;

		U32(&w, "error_type");
		U32(&w, "code");
		S32(&w, "cpu");
		S32(&w, "pid");
		S32(&w, "tid");
		fmt = U32(&w, "fmt");
		A64(&w, "ip");
		if (fmt >= 1)
			U64(&w, "time");
		str(&w, "msg", 64 <= pd_dwalk_left(&w) ? 64 : 0);
		if (fmt >= 2 && pd_dwalk_left(&w) >= 8) {
			U32(&w, "machine_pid");
			U32(&w, "vcpu");
		}
		break;
	}
	case PD_RECORD_THREAD_MAP:
		nr = U64(&w, "nr");
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
	case PD_RECORD_STAT_CONFIG:
		nr = U64(&w, "nr");
		pd_dwalk_open(&w, "config", 1);
		for (i = 0; i < nr && !w.bad; i++) {
			pd_dwalk_open(&w, NULL, 0);
			U64(&w, "tag");
			U64(&w, "val");
			pd_dwalk_close(&w, 0);
		}
		pd_dwalk_close(&w, 1);
		break;
	case PD_RECORD_STAT:
		U64(&w, "id");
		S32(&w, "cpu");
		S32(&w, "thread");
		U64(&w, "val");
		U64(&w, "ena");
		U64(&w, "run");
		break;
	case PD_RECORD_STAT_ROUND:
		U64(&w, "round_type");
		U64(&w, "time");
		break;
	case PD_RECORD_EVENT_UPDATE: {
		uint64_t t = U64(&w, "update_type");

		U64(&w, "id");
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
	case PD_RECORD_TIME_CONV:
		U64(&w, "time_shift");
		U64(&w, "time_mult");
		U64(&w, "time_zero");
		if (pd_dwalk_left(&w) >= 24) {
			U64(&w, "time_cycles");
			X64(&w, "time_mask");
			pd_dwalk_num(&w, "cap_user_time_zero", 1, PD_D_U);
			pd_dwalk_num(&w, "cap_user_time_short", 1, PD_D_U);
			w.off = w.end;
		}
		break;
	case PD_RECORD_HEADER_FEATURE:
		feature(&w, rec);
		break;
	case PD_RECORD_COMPRESSED:
		pd_dwalk_emit(&w, "data_size", PD_D_U, pd_dwalk_left(&w), NULL, 0);
		w.off = w.end;
		break;
	case PD_RECORD_COMPRESSED2:
		U64(&w, "data_size");
		w.off = w.end;
		break;
	case PD_RECORD_BPF_METADATA:
		str(&w, "prog_name", 512);
		nr = U64(&w, "nr_entries");
		pd_dwalk_open(&w, "entries", 1);
		for (i = 0; i < nr && !w.bad; i++) {
			pd_dwalk_open(&w, NULL, 0);
			str(&w, "key", 64);
			str(&w, "value", 256);
			pd_dwalk_close(&w, 0);
		}
		pd_dwalk_close(&w, 1);
		break;
	case PD_RECORD_SCHEDSTAT_CPU:
	case PD_RECORD_SCHEDSTAT_DOMAIN:
		U64(&w, "timestamp");
		U32(&w, "cpu");
		U16(&w, "version");
		if (rec->type == PD_RECORD_SCHEDSTAT_DOMAIN)
			U16(&w, "domain");
		else
			w.off += 2;
		pd_dwalk_open(&w, "counters", 1);
		while (!w.bad && pd_dwalk_left(&w) >= 8)
			pd_dwalk_emit(&w, NULL, PD_D_U, U64(&w, NULL), NULL, 0);
		pd_dwalk_close(&w, 1);
		break;
	case PD_RECORD_FINISHED_ROUND:
	case PD_RECORD_FINISHED_INIT:
		break;
	default:
		bytes(&w, "data", pd_dwalk_left(&w));
		break;
	}
	if (w.bad) {
		*why = w.why != NULL ? w.why :
		    "payload does not fit its record";
		return -1;
	}
	if (tl != 0 && pd_decode_trailer(rec, ev, v, why) < 0)
		return -1;
	return 0;
}
