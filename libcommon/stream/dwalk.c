/* SPDX-License-Identifier: MIT */
/*
 * The bounded walker every decoder shares (records, SAMPLEs, feature
 * bodies), the bit-name tables, and perf_event_attr field by field,
 * which record and feature decoders both show.
 */
#include "libcommon/stream/dwalk.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "libcommon/stream/perf.h"

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


static void
bytes(struct pd_dwalk *w, const char *name, size_t n)
{
	if (!pd_dwalk_room(w, n))
		return;
	pd_dwalk_emit(w, name, PD_D_BYTES, 0, w->p + w->off, n);
	w->off += n;
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
	pd_dwalk_u32(&w, "attr_type");
	asz = pd_dwalk_u32(&w, "attr_size");
	if (asz == 0)
		asz = PD_ATTR_SIZE_VER0;
	if (asz < w.end)
		w.end = asz;
	pd_dwalk_x64(&w, "config");
	pd_dwalk_u64(&w, "sample_period");
	if (!pd_dwalk_room(&w, 24))
		goto out;
	st = pd_get_u64(w.p + PD_ATTR_OFF_SAMPLE_TYPE);
	rf = pd_get_u64(w.p + PD_ATTR_OFF_READ_FORMAT);
	flags = pd_get_u64(w.p + PD_ATTR_OFF_FLAGS);
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
	pd_dwalk_u32(&w, "wakeup_events");
	pd_dwalk_u32(&w, "bp_type");
	pd_dwalk_x64(&w, "config1");
	if (pd_dwalk_left(&w) < 8)
		goto out;
	pd_dwalk_x64(&w, "config2");
	if (pd_dwalk_left(&w) < 8)
		goto out;
	bt = pd_get_u64(w.p + w.off);
	pd_dwalk_emit(&w, "branch_sample_type", PD_D_NAMES, bt, buf,
	    strlen(pd_decode_bits(buf, sizeof(buf), bt,
	    pd_branch_type_names, pd_branch_type_nnames)));
	w.off += 8;
	if (pd_dwalk_left(&w) < 16)
		goto out;
	pd_dwalk_x64(&w, "sample_regs_user");
	pd_dwalk_u32(&w, "sample_stack_user");
	pd_dwalk_s32(&w, "clockid");
	if (pd_dwalk_left(&w) < 8)
		goto out;
	pd_dwalk_x64(&w, "sample_regs_intr");
	if (pd_dwalk_left(&w) < 8)
		goto out;
	pd_dwalk_u32(&w, "aux_watermark");
	pd_dwalk_u16(&w, "sample_max_stack");
	w.off += 2;
	if (pd_dwalk_left(&w) < 8)
		goto out;
	pd_dwalk_u32(&w, "aux_sample_size");
	pd_dwalk_num(&w, "aux_action", 4, PD_D_X);
	if (pd_dwalk_left(&w) < 8)
		goto out;
	pd_dwalk_x64(&w, "sig_data");
	if (pd_dwalk_left(&w) < 8)
		goto out;
	pd_dwalk_x64(&w, "config3");
	if (w.off < w.end)
		bytes(&w, "attr_tail", pd_dwalk_left(&w));
out:
	if (w.bad) {
		*why = "attr does not fit its record";
		return -1;
	}
	return 0;
}
