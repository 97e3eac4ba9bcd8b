/* SPDX-License-Identifier: MIT */
/*
 * SAMPLE records field by field (decode.h): every field the event
 * samples, parsed by sample.c and named here, down to the bits of a
 * branch entry, the read values' events, the registers by number and a
 * tracepoint's own fields, so that a printer needs no layout at all.
 * This is the hot path of pddump: one pd_dval is filled in place and
 * handed over per field.
 */
#include "libcommon/stream/decode.h"

#include <string.h>

#include "libcommon/stream/evlist.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/record.h"
#include "libcommon/stream/sample.h"
#include "libcommon/stream/samplehead.h"
#include "libcommon/stream/tptext.h"
#include "libcommon/stream/tracefmt.h"

struct sv {
	const struct pd_dvisit	*v;
	struct pd_dval		 d;
};

/* A name and its length, known when it is a literal. */
#define N(lit)	(lit), sizeof(lit) - 1

static inline void
put(struct sv *s, const char *name, size_t namelen, enum pd_dfmt fmt,
    uint64_t u)
{
	s->d.name = name;
	s->d.namelen = namelen;
	s->d.fmt = fmt;
	s->d.u = u;
	s->d.p = NULL;
	s->d.len = 0;
	s->v->val(s->v->ctx, &s->d);
}

static void
put_ref(struct sv *s, const char *name, size_t namelen, enum pd_dfmt fmt,
    const void *p, size_t len)
{
	s->d.name = name;
	s->d.namelen = namelen;
	s->d.fmt = fmt;
	s->d.u = 0;
	s->d.p = p;
	s->d.len = len;
	s->v->val(s->v->ctx, &s->d);
}

static void
open_(struct sv *s, const char *name, int kind)
{
	s->v->open(s->v->ctx, name, kind);
}

static void
close_(struct sv *s, int kind)
{
	s->v->close(s->v->ctx, kind);
}

static void
read_values(struct sv *s, const struct pd_evlist *el,
    const struct pd_sample *smp)
{
	const struct pd_evsel *m;
	const char *name;
	uint64_t rf = smp->read_format, i, v, id, lost;

	open_(s, "read", PD_DV_OBJECT);
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		put(s, N("time_enabled"), PD_D_U, smp->read_time_enabled);
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		put(s, N("time_running"), PD_D_U, smp->read_time_running);
	open_(s, "values", PD_DV_ROWS);
	for (i = 0; i < smp->read_nr; i++) {
		pd_sample_read_entry(smp, i, &v, &id, &lost);
		open_(s, NULL, PD_DV_OBJECT);
		put(s, N("value"), PD_D_U, v);
		if (rf & PERF_FORMAT_ID) {
			put(s, N("id"), PD_D_U, id);
			if ((m = pd_evlist_by_id(el, id)) != NULL) {
				name = pd_evsel_name(m);
				put_ref(s, N("event"), PD_D_STR, name,
				    strlen(name));
			}
		}
		if (rf & PD_FORMAT_LOST)
			put(s, N("lost"), PD_D_U, lost);
		close_(s, PD_DV_OBJECT);
	}
	close_(s, PD_DV_ROWS);
	close_(s, PD_DV_OBJECT);
}

static void
branch_stack(struct sv *s, const struct pd_sample *smp)
{
	struct pd_branch b;
	uint64_t i;

	open_(s, "branch_stack", PD_DV_OBJECT);
	put(s, N("nr"), PD_D_U, smp->branch_nr);
	if (smp->branch_has_hw_idx)
		put(s, N("hw_idx"), PD_D_U, smp->branch_hw_idx);
	open_(s, "entries", PD_DV_ROWS);
	for (i = 0; i < smp->branch_nr; i++) {
		pd_sample_branch(smp, i, &b);
		open_(s, NULL, PD_DV_OBJECT);
		put(s, N("from"), PD_D_X, b.from);
		put(s, N("to"), PD_D_X, b.to);
		put(s, N("mispred"), PD_D_U, b.mispred);
		put(s, N("predicted"), PD_D_U, b.predicted);
		put(s, N("in_tx"), PD_D_U, b.in_tx);
		put(s, N("abort"), PD_D_U, b.abort);
		put(s, N("cycles"), PD_D_U, b.cycles);
		put(s, N("br_type"), PD_D_U, b.type);
		put(s, N("spec"), PD_D_U, b.spec);
		put(s, N("new_type"), PD_D_U, b.new_type);
		put(s, N("priv"), PD_D_U, b.priv);
		if (b.has_counters)
			put(s, N("counters"), PD_D_X, b.counters);
		close_(s, PD_DV_OBJECT);
	}
	close_(s, PD_DV_ROWS);
	close_(s, PD_DV_OBJECT);
}

/* The registers by their bit in the mask (perf's numbering per arch). */
static const char *const reg_names[64] = {
	"r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9",
	"r10", "r11", "r12", "r13", "r14", "r15", "r16", "r17", "r18", "r19",
	"r20", "r21", "r22", "r23", "r24", "r25", "r26", "r27", "r28", "r29",
	"r30", "r31", "r32", "r33", "r34", "r35", "r36", "r37", "r38", "r39",
	"r40", "r41", "r42", "r43", "r44", "r45", "r46", "r47", "r48", "r49",
	"r50", "r51", "r52", "r53", "r54", "r55", "r56", "r57", "r58", "r59",
	"r60", "r61", "r62", "r63",
};

static void
regs(struct sv *s, const char *name, uint64_t abi, uint64_t mask,
    unsigned nr, const unsigned char *p)
{
	unsigned b, i = 0;

	open_(s, name, PD_DV_OBJECT);
	put(s, N("abi"), PD_D_U, abi);
	put(s, N("mask"), PD_D_X, mask);
	open_(s, "regs", PD_DV_OBJECT);
	for (b = 0; b < 64 && i < nr; b++)
		if (mask >> b & 1)
			put(s, reg_names[b], b < 10 ? 2 : 3, PD_D_X,
			    pd_get_u64(p + 8 * i++));
	close_(s, PD_DV_OBJECT);
	close_(s, PD_DV_OBJECT);
}

/* One tracepoint field's bytes p[0..n), as its format says. */
static void
tp_value(struct sv *s, const struct pd_tf_field *f, const unsigned char *p,
    size_t n, int be)
{
	size_t i, es;

	if (f->kind == PD_TF_STRING || ((f->kind == PD_TF_DATA_LOC ||
	    f->kind == PD_TF_REL_LOC) && f->is_char)) {
		put_ref(s, f->name, f->name_len, PD_D_STR, p,
		    strnlen((const char *)p, n));
		return;
	}
	if (f->kind == PD_TF_NUM) {
		put(s, f->name, f->name_len, f->is_pointer ? PD_D_X : f->is_signed ?
		    PD_D_S : PD_D_U, pd_tf_get(p, n, be, f->is_signed));
		return;
	}
	es = f->elem_size ? f->elem_size : 1;
	if (es > 8)
		es = 1;
	open_(s, f->name, PD_DV_LIST);
	for (i = 0; i + es <= n; i += es)
		put(s, NULL, 0, f->is_signed ? PD_D_S : PD_D_U,
		    pd_tf_get(p + i, es, be, f->is_signed));
	close_(s, PD_DV_LIST);
}

static void
raw(struct sv *s, const struct pd_evlist *el, const struct pd_evsel *ev,
    const struct pd_sample *smp)
{
	const struct pd_tracefmt *tf = pd_evlist_tracefmt(el);
	const struct pd_tf_event *te = NULL;
	const unsigned char *p;
	size_t i, n;
	int be = 0;

	open_(s, "raw", PD_DV_OBJECT);
	/* The format by common_type, the u16 the RAW data start with. */
	if (ev->attr.type == PERF_TYPE_TRACEPOINT && tf != NULL &&
	    smp->raw_size >= 2) {
		be = pd_tracefmt_big_endian(tf);
		te = pd_tracefmt_event(tf, pd_tf_get(smp->raw, 2, be, 0));
	}
	if (te == NULL) {
		put(s, N("size"), PD_D_U, smp->raw_size);
		put_ref(s, N("data"), PD_D_BYTES, smp->raw, smp->raw_size);
		close_(s, PD_DV_OBJECT);
		return;
	}
	for (i = 0; i < te->nfields; i++) {
		const struct pd_tf_field *f = &te->fields[i];

		if (pd_tf_field_bytes(f, be, smp->raw, smp->raw_size, &p,
		    &n) < 0)
			put(s, f->name, f->name_len, PD_D_NULL, 0);
		else
			tp_value(s, f, p, n, be);
	}
	close_(s, PD_DV_OBJECT);
	if (s->v->tptext != NULL && (p = (const unsigned char *)
	    pd_tptext_render(s->v->tptext, tf, te, smp->raw, smp->raw_size,
	    &n)) != NULL)
		put_ref(s, N("text"), PD_D_LINE, p, n);
}

/* Indexes of pd_dhead, for pd_dhead_value. */
enum {
	DH_TIME, DH_CPU, DH_PID, DH_TID, DH_IP, DH_PERIOD, DH_ADDR, DH_ID,
	DH_STREAM_ID, DH_WEIGHT, DH_DATA_SRC, DH_TRANSACTION, DH_PHYS_ADDR,
	DH_CGROUP, DH_DATA_PAGE_SIZE, DH_CODE_PAGE_SIZE
};

const struct pd_dhead pd_dhead[PD_DHEAD_N] = {
	[DH_TIME] = { N("time"), PD_D_U, PD_DH_NONE, PERF_SAMPLE_TIME },
	[DH_CPU] = { N("cpu"), PD_D_U, PD_DH_NONE, PERF_SAMPLE_CPU },
	[DH_PID] = { N("pid"), PD_D_S, PD_DH_NONE, PERF_SAMPLE_TID },
	[DH_TID] = { N("tid"), PD_D_S, PD_DH_NONE, PERF_SAMPLE_TID },
	[DH_IP] = { N("ip"), PD_D_X, PD_DH_NONE, PERF_SAMPLE_IP },
	/* An unsampled period is the event's sample_period. */
	[DH_PERIOD] = { N("period"), PD_D_U, PD_DH_ALWAYS, 0 },
	[DH_ADDR] = { N("addr"), PD_D_X, PD_DH_NONE, PERF_SAMPLE_ADDR },
	[DH_ID] = { N("id"), PD_D_U, PD_DH_NONE,
	    PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER },
	[DH_STREAM_ID] = { N("stream_id"), PD_D_U, PD_DH_SKIP,
	    PERF_SAMPLE_STREAM_ID },
	[DH_WEIGHT] = { N("weight"), PD_D_U, PD_DH_SKIP,
	    PERF_SAMPLE_WEIGHT | PD_SAMPLE_WEIGHT_STRUCT },
	[DH_DATA_SRC] = { N("data_src"), PD_D_X, PD_DH_SKIP,
	    PERF_SAMPLE_DATA_SRC },
	[DH_TRANSACTION] = { N("transaction"), PD_D_X, PD_DH_SKIP,
	    PERF_SAMPLE_TRANSACTION },
	[DH_PHYS_ADDR] = { N("phys_addr"), PD_D_X, PD_DH_SKIP,
	    PERF_SAMPLE_PHYS_ADDR },
	[DH_CGROUP] = { N("cgroup"), PD_D_U, PD_DH_SKIP, PERF_SAMPLE_CGROUP },
	[DH_DATA_PAGE_SIZE] = { N("data_page_size"), PD_D_U, PD_DH_SKIP,
	    PERF_SAMPLE_DATA_PAGE_SIZE },
	[DH_CODE_PAGE_SIZE] = { N("code_page_size"), PD_D_U, PD_DH_SKIP,
	    PERF_SAMPLE_CODE_PAGE_SIZE },
};

static uint64_t
pd_dhead_value(unsigned i, const struct pd_evsel *ev, const struct pd_sample *s)
{
	switch (i) {
	case DH_TIME:		return s->time;
	case DH_CPU:		return s->cpu;
	case DH_PID:		return (uint64_t)(int64_t)(int32_t)s->pid;
	case DH_TID:		return (uint64_t)(int64_t)(int32_t)s->tid;
	case DH_IP:		return s->ip;
	case DH_PERIOD:		return pd_sample_period(ev, s);
	case DH_ADDR:		return s->addr;
	case DH_ID:		return s->id;
	case DH_STREAM_ID:	return s->stream_id;
	case DH_WEIGHT:		return s->weight;
	case DH_DATA_SRC:	return s->data_src;
	case DH_TRANSACTION:	return s->transaction;
	case DH_PHYS_ADDR:	return s->phys_addr;
	case DH_CGROUP:		return s->cgroup;
	case DH_DATA_PAGE_SIZE:	return s->data_page_size;
	default:		return s->code_page_size;
	}
}

int
pd_dhead_read(const struct pd_evsel *ev, const struct pd_rec *rec,
    struct pd_dhead_vals *o, const char **why)
{
	const struct pd_sample_layout *l = &ev->head;
	struct pd_sample s;
	uint64_t nr;
	unsigned i;

	/* Every head field where the layout puts it; nothing after. */
	if (ev->shape.post == 0 && !(ev->attr.sample_type & PERF_SAMPLE_READ) &&
	    pd_sample_exact(ev, rec, &nr)) {
		o->v[DH_TIME] = pd_head_u64(rec, l->time);
		o->v[DH_CPU] = pd_head_u32(rec, l->cpu, 0);
		o->v[DH_PID] = (uint64_t)(int64_t)(int32_t)
		    pd_head_u32(rec, l->tid, 0);
		o->v[DH_TID] = (uint64_t)(int64_t)(int32_t)
		    pd_head_u32(rec, l->tid, 4);
		o->v[DH_IP] = pd_head_u64(rec, l->ip);
		o->v[DH_PERIOD] = l->period != PD_HEAD_NONE ?
		    pd_head_u64(rec, l->period) : ev->attr.sample_period;
		o->v[DH_ADDR] = pd_head_u64(rec, l->addr);
		o->v[DH_ID] = pd_head_u64(rec, l->id);
		o->v[DH_STREAM_ID] = pd_head_u64(rec, l->stream_id);
		o->callchain_nr = nr;
		o->callchain = rec->data + PD_REC_HDR_SIZE + ev->shape.pre +
		    8 * ev->shape.chain;
		return 0;
	}
	if (pd_sample_parse(ev, rec, &s, why) < 0)
		return -1;
	for (i = 0; i < PD_DHEAD_N; i++)
		o->v[i] = pd_dhead_value(i, ev, &s);
	o->callchain = s.callchain;
	o->callchain_nr = s.callchain_nr;
	return 0;
}

int
pd_dhead_only(const struct pd_evsel *ev)
{
	/* What pd_decode_sample walks after the callchain. */
	const uint64_t after = PERF_SAMPLE_READ | PERF_SAMPLE_BRANCH_STACK |
	    PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER |
	    PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_AUX | PERF_SAMPLE_RAW;

	return ev->parsable && (ev->attr.sample_type & after) == 0;
}

int
pd_decode_sample(const struct pd_rec *rec, const struct pd_evlist *el,
    const struct pd_dvisit *v, const char **why)
{
	const struct pd_evsel *ev;
	struct pd_sample smp;
	const char *name;
	struct sv s;
	uint64_t st;
	unsigned i;
	int r;

	if ((ev = pd_evlist_for_rec(el, rec)) == NULL) {
		*why = "sample of an unknown event id";
		return -1;
	}
	memset(&s.d, 0, sizeof(s.d));
	s.v = v;
	r = pd_sample_parse(ev, rec, &smp, why);
	name = pd_evsel_name(ev);
	put_ref(&s, N("event"), PD_D_STR, name, strlen(name));
	if (r < 0)
		return -1;
	st = smp.type;
	for (i = 0; i < PD_DHEAD_N; i++) {
		const struct pd_dhead *f = &pd_dhead[i];

		if (f->how == PD_DH_ALWAYS || (st & f->bits))
			put(&s, f->name, f->namelen, f->fmt,
			    pd_dhead_value(i, ev, &smp));
		else if (f->how == PD_DH_NONE)
			put(&s, f->name, f->namelen, PD_D_NONE, f->fmt);
	}
	if (st & PERF_SAMPLE_CALLCHAIN)
		put_ref(&s, N("callchain"), PD_D_ADDRS, smp.callchain,
		    smp.callchain_nr);
	else
		put(&s, N("callchain"), PD_D_NONE, PD_D_ADDRS);
	if (st & PERF_SAMPLE_READ)
		read_values(&s, el, &smp);
	if (st & PERF_SAMPLE_BRANCH_STACK)
		branch_stack(&s, &smp);
	if (st & PERF_SAMPLE_REGS_USER)
		regs(&s, "regs_user", smp.regs_user_abi, smp.regs_user_mask,
		    smp.regs_user_nr, smp.regs_user);
	if (st & PERF_SAMPLE_STACK_USER) {
		open_(&s, "stack_user", PD_DV_OBJECT);
		put(&s, N("size"), PD_D_U, smp.stack_size);
		put(&s, N("dyn_size"), PD_D_U, smp.stack_dyn_size);
		close_(&s, PD_DV_OBJECT);
	}
	if (st & PERF_SAMPLE_REGS_INTR)
		regs(&s, "regs_intr", smp.regs_intr_abi, smp.regs_intr_mask,
		    smp.regs_intr_nr, smp.regs_intr);
	if (st & PERF_SAMPLE_AUX) {
		open_(&s, "aux", PD_DV_OBJECT);
		put(&s, N("size"), PD_D_U, smp.aux_size);
		close_(&s, PD_DV_OBJECT);
	}
	if (st & PERF_SAMPLE_RAW)
		raw(&s, el, ev, &smp);
	return 0;
}
