/* SPDX-License-Identifier: MIT */
#include "libcommon/stream/swap.h"

#include <byteswap.h>
#include <stdint.h>
#include <string.h>

#include "libcommon/stream/event.h"
#include "libcommon/stream/evlist.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/sample.h"
#include "libcommon/stream/tracefmt.h"

#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define HOST_BE	1
#else
#define HOST_BE	0
#endif

/*
 * One conversion in progress: a region of bytes (a record, an attr, a
 * feature body) and the direction. Every accessor swaps the field in
 * place and returns its native value, whichever way it goes, so that a
 * count read from the record means the same in both directions.
 */
struct sw {
	unsigned char	*p;
	size_t		 len;
	int		 in;		/* 1: foreign -> native */
	int		 left;		/* something was left as it was */
	const char	*why;
	const struct pd_tracefmt *tf;	/* RAW layouts (native blob) */
};

static int
fits(const struct sw *s, size_t off, size_t n)
{
	return off <= s->len && n <= s->len - off;
}

static uint16_t
x16(struct sw *s, size_t off)
{
	uint16_t v = pd_get_u16(s->p + off), w = bswap_16(v);

	pd_put_u16(s->p + off, w);
	return s->in ? w : v;
}

static uint32_t
x32(struct sw *s, size_t off)
{
	uint32_t v = pd_get_u32(s->p + off), w = bswap_32(v);

	pd_put_u32(s->p + off, w);
	return s->in ? w : v;
}

static uint64_t
x64(struct sw *s, size_t off)
{
	uint64_t v = pd_get_u64(s->p + off), w = bswap_64(v);

	pd_put_u64(s->p + off, w);
	return s->in ? w : v;
}

/* The native value of a u64 without converting it. */
static uint64_t
peek64(const struct sw *s, size_t off)
{
	uint64_t v = pd_get_u64(s->p + off);

	return s->in ? bswap_64(v) : v;
}

static void
x64n(struct sw *s, size_t off, size_t n)
{
	unsigned char *q = s->p + off, *end = q + 8 * n;

	for (; q < end; q += 8)
		pd_put_u64(q, bswap_64(pd_get_u64(q)));
}

static int
bad(struct sw *s, const char *why)
{
	s->why = why;
	return -1;
}

static void
leave(struct sw *s, const char *why)
{
	/*
	 * The first thing left names it: what follows is often its
	 * consequence (RAW data left for overlapping fields, then the
	 * bytes after them), and would name another reason.
	 */
	if (!s->left)
		s->why = why;
	s->left = 1;
}

/*
 * C bitfields: a little-endian ABI allocates them from bit 0 up, a
 * big-endian one from the top bit down, each field keeping its own
 * value bits in order. So the field at LE bit n of width w sits at BE
 * bits [bits-n-w, bits-1-n]. The tables cover every bit, so the mapping
 * is a permutation and converting back restores the word exactly.
 */
struct bf {
	unsigned char	n, w;
};

static const struct bf attr_flag_bits[] = {
	{ 0, 1 }, { 1, 1 }, { 2, 1 }, { 3, 1 }, { 4, 1 }, { 5, 1 },
	{ 6, 1 }, { 7, 1 }, { 8, 1 }, { 9, 1 }, { 10, 1 }, { 11, 1 },
	{ 12, 1 }, { 13, 1 }, { 14, 1 },
	{ 15, 2 },			/* precise_ip */
	{ 17, 1 }, { 18, 1 }, { 19, 1 }, { 20, 1 }, { 21, 1 }, { 22, 1 },
	{ 23, 1 }, { 24, 1 }, { 25, 1 }, { 26, 1 }, { 27, 1 }, { 28, 1 },
	{ 29, 1 }, { 30, 1 }, { 31, 1 }, { 32, 1 }, { 33, 1 }, { 34, 1 },
	{ 35, 1 }, { 36, 1 }, { 37, 1 }, { 38, 1 }, { 39, 1 },
	{ 40, 24 },			/* __reserved_1 */
	{ 0, 0 }
};

/* perf_branch_entry: mispred .. priv, then reserved */
static const struct bf branch_flag_bits[] = {
	{ 0, 1 }, { 1, 1 }, { 2, 1 }, { 3, 1 }, { 4, 16 }, { 20, 4 },
	{ 24, 2 }, { 26, 4 }, { 30, 3 }, { 33, 31 },
	{ 0, 0 }
};

/* attr.aux_action, a u32: aux_start_paused, aux_pause, aux_resume */
static const struct bf aux_action_bits[] = {
	{ 0, 1 }, { 1, 1 }, { 2, 1 }, { 3, 29 },
	{ 0, 0 }
};

static uint64_t
relay(uint64_t v, const struct bf *t, unsigned bits, int to_be)
{
	uint64_t out = 0, m;
	unsigned be;

	for (; t->w != 0; t++) {
		m = t->w == 64 ? ~0ULL : (1ULL << t->w) - 1;
		be = bits - t->n - t->w;
		if (to_be)
			out |= (v >> t->n & m) << be;
		else
			out |= (v >> be & m) << t->n;
	}
	return out;
}

unsigned long long
pd_swap_attr_flags(unsigned long long v, int to_be)
{
	return relay(v, attr_flag_bits, 64, to_be);
}

unsigned long long
pd_swap_branch_flags(unsigned long long v, int to_be)
{
	return relay(v, branch_flag_bits, 64, to_be);
}

/*
 * A bitfield word: swapped as a number, then re-laid for the other ABI.
 * Going in the foreign layout is big-endian exactly when the host is
 * little-endian, and the other way round going out.
 */
static uint64_t
xbf64(struct sw *s, size_t off, const struct bf *t)
{
	uint64_t v = pd_get_u64(s->p + off);

	if (s->in) {
		v = relay(bswap_64(v), t, 64, HOST_BE);
		pd_put_u64(s->p + off, v);
		return v;
	}
	pd_put_u64(s->p + off, bswap_64(relay(v, t, 64, !HOST_BE)));
	return v;
}

static void
xbf32(struct sw *s, size_t off, const struct bf *t)
{
	uint32_t v = pd_get_u32(s->p + off);

	if (s->in)
		pd_put_u32(s->p + off, relay(bswap_32(v), t, 32, HOST_BE));
	else
		pd_put_u32(s->p + off, bswap_32(relay(v, t, 32, !HOST_BE)));
}

int
pd_swap_supported(void)
{
	return 1;
}

void
pd_swap_header(unsigned char *p)
{
	pd_header_put(p, pd_header_type(p), pd_header_misc(p),
	    pd_header_size(p), 1);
}

/* ---- perf_event_attr ------------------------------------------------ */

/* Every field of struct perf_event_attr: offset and width. */
static const struct {
	unsigned short	off;
	unsigned char	w;	/* 2, 4, 8; 'f' flags, 'a' aux_action */
} attr_fields[] = {
	{ 0, 4 }, { 4, 4 }, { 8, 8 }, { 16, 8 }, { 24, 8 }, { 32, 8 },
	{ 40, 'f' }, { 48, 4 }, { 52, 4 }, { 56, 8 }, { 64, 8 }, { 72, 8 },
	{ 80, 8 }, { 88, 4 }, { 92, 4 }, { 96, 8 }, { 104, 4 }, { 108, 2 },
	{ 110, 2 }, { 112, 4 }, { 116, 'a' }, { 120, 8 }, { 128, 8 },
};
#define ATTR_KNOWN	136

/*
 * The attr in p[0, len): each field at its width, as far as len holds
 * it. Bytes past the fields we know are swapped as u64s (the proposed
 * config4 is one); a non-zero one is reported as a guess.
 */
static void
swap_attr(struct sw *s, size_t base, size_t len)
{
	size_t i, off;

	for (i = 0; i < sizeof(attr_fields) / sizeof(attr_fields[0]); i++) {
		off = attr_fields[i].off;
		switch (attr_fields[i].w) {
		case 2:
			if (off + 2 <= len)
				x16(s, base + off);
			break;
		case 4:
			if (off + 4 <= len)
				x32(s, base + off);
			break;
		case 8:
			if (off + 8 <= len)
				x64(s, base + off);
			break;
		case 'f':
			if (off + 8 <= len)
				xbf64(s, base + off, attr_flag_bits);
			break;
		case 'a':
			if (off + 4 <= len)
				xbf32(s, base + off, aux_action_bits);
			break;
		}
	}
	for (off = ATTR_KNOWN; off + 8 <= len; off += 8)
		if (x64(s, base + off) != 0)
			leave(s, "attr fields newer than this version");
	if (len > ATTR_KNOWN && (len - ATTR_KNOWN) % 8 != 0)
		leave(s, "attr size not a multiple of 8");
}

int
pd_swap_attr(unsigned char *p, size_t len)
{
	struct sw s = { p, len, 1, 0, NULL, NULL };

	if (len < PD_ATTR_SIZE_VER0)
		return -1;
	swap_attr(&s, 0, len);
	return 0;
}

/* ---- which event produced a record ------------------------------------ */

/*
 * perf's rule (evlist__event2id), reading the id in whichever order the
 * record is in: the first event's id_pos for a SAMPLE, its is_pos
 * counted back from the end otherwise; id 0 means the first event.
 */
static const struct pd_evsel *
rec_evsel(const struct sw *s, const struct pd_evlist *el, uint32_t type)
{
	const struct pd_evsel *first, *ev;
	size_t off;

	if (el == NULL || el->n == 0)
		return NULL;
	first = &el->evsels[0];
	if (el->n == 1)
		return first;
	if (type == PERF_RECORD_SAMPLE) {
		if (first->id_pos < 0)
			return first;
		off = PD_REC_HDR_SIZE + 8 * (size_t)first->id_pos;
		if (!fits(s, off, 8))
			return NULL;
		return pd_evlist_by_id(el, peek64(s, off));
	}
	if (first->is_pos < 0 || first->id_hdr_size == 0 ||
	    pd_sample_id_start(first, s->len) < 0)
		return first;
	ev = pd_evlist_by_id(el, peek64(s, s->len - 8 * first->is_pos));
	return ev != NULL ? ev : first;
}

/* The sample_id_all trailer at off, laid out by the event's sample_type. */
static void
swap_trailer(struct sw *s, const struct pd_evsel *ev, size_t off)
{
	const struct pd_sample_id_layout *l = &ev->trailer;

	if (l->tid != PD_HEAD_NONE) {
		x32(s, off + l->tid);
		x32(s, off + l->tid + 4);
	}
	if (l->time != PD_HEAD_NONE)
		x64(s, off + l->time);
	if (l->id != PD_HEAD_NONE)
		x64(s, off + l->id);
	if (l->stream_id != PD_HEAD_NONE)
		x64(s, off + l->stream_id);
	if (l->cpu != PD_HEAD_NONE) {
		x32(s, off + l->cpu);
		x32(s, off + l->cpu + 4);
	}
	if (l->identifier != PD_HEAD_NONE)
		x64(s, off + l->identifier);
}

/* ---- SAMPLE ------------------------------------------------------------ */

static int
swap_regs(struct sw *s, size_t *off, uint64_t mask, const char *what)
{
	uint64_t abi, n;

	if (!fits(s, *off, 8))
		return bad(s, what);
	abi = x64(s, *off);
	*off += 8;
	if (abi == 0)
		return 0;
	n = __builtin_popcountll(mask);
	if (n > (s->len - *off) / 8)
		return bad(s, what);
	x64n(s, *off, n);
	*off += 8 * n;
	return 0;
}

/* u64 fields in sample order, between the named bits (see A.5). */
#define S64(bit, name) do {						\
	if (st & (bit)) {						\
		if (!fits(s, off, 8))					\
			return bad(s, name " runs past the record");	\
		x64(s, off);						\
		off += 8;						\
	}								\
} while (0)
#define S32X2(bit, name) do {						\
	if (st & (bit)) {						\
		if (!fits(s, off, 8))					\
			return bad(s, name " runs past the record");	\
		x32(s, off);						\
		x32(s, off + 4);					\
		off += 8;						\
	}								\
} while (0)

/* n elements of `size` bytes at off; sizes 1 and others stay bytes. */
static void
xn(struct sw *s, size_t off, unsigned size, size_t n)
{
	for (; n > 0; n--, off += size)
		if (size == 2)
			x16(s, off);
		else if (size == 4)
			x32(s, off);
		else if (size == 8)
			x64(s, off);
}

/*
 * Whether the data of a record's dynamic fields share bytes with each
 * other or lie among the fixed fields that swap: swapping both would
 * not be its own inverse. Read before anything is swapped.
 */
static int
dyn_overlap(const struct sw *s, const struct pd_tf_event *e, size_t off,
    size_t n)
{
	struct { uint64_t lo, hi; } r[64];
	const struct pd_tf_field *f;
	uint64_t at, len;
	uint32_t d;
	size_t i, j, k = 0;
	unsigned es;

	for (i = 0; i < e->nfields; i++) {
		f = &e->fields[i];
		if ((f->kind != PD_TF_DATA_LOC && f->kind != PD_TF_REL_LOC) ||
		    f->size != 4 || (uint64_t)f->offset + 4 > n ||
		    (es = pd_tf_swap_size(f)) == 0)
			continue;
		d = pd_get_u32(s->p + off + f->offset);
		if (s->in)
			d = bswap_32(d);
		at = d & 0xffff;
		len = (d >> 16) / es * es;
		if (f->kind == PD_TF_REL_LOC)
			at += f->offset + 4;
		if (len == 0 || at + (d >> 16) > n)
			continue;	/* nothing, or left: see swap_raw */
		if (at < e->swap_hi && at + len > e->swap_lo)
			return 1;
		for (j = 0; j < k; j++)
			if (at < r[j].hi && at + len > r[j].lo)
				return 1;
		if (k == sizeof(r) / sizeof(r[0]))
			return 1;	/* too many to tell: keep it safe */
		r[k].lo = at;
		r[k++].hi = at + len;
	}
	return 0;
}

/*
 * Tracepoint RAW data at off, n bytes: each field of the event's format
 * at its element size; texts stay bytes. The format is found by
 * common_type (a u16 at the start, in the writer's order), else by
 * attr.config. Without one the data are left as the writer's; so are
 * they when fields that swap share bytes (the format says so), and so
 * is the data of a record's dynamic fields when they share bytes with
 * each other or the fixed fields: swapping those would not be its own
 * inverse, and a round trip through the other order would scramble
 * them.
 */
static void
swap_raw(struct sw *s, const struct pd_attr *a, size_t off, size_t n)
{
	const struct pd_tf_event *e = NULL, *o;
	const struct pd_tf_field *f;
	uint32_t d, at, sz;
	size_t i;
	unsigned es;
	int dyn_left;

	if (n == 0)
		return;
	if (s->tf == NULL || a->type != 2 /* tracepoint */) {
		leave(s, "RAW data of an unknown format");
		return;
	}
	if (n >= 2) {
		uint16_t id = pd_get_u16(s->p + off);

		e = pd_tracefmt_event(s->tf, s->in ? bswap_16(id) : id);
	}
	if (e == NULL)
		e = pd_tracefmt_event(s->tf, (uint32_t)a->config);
	if (e == NULL) {
		leave(s, "RAW data of an unknown format");
		return;
	}
	/*
	 * Data left as they were read as the other order on the way
	 * back: their common_type may then name another event, so the
	 * event's own config decides too.
	 */
	if (e->overlap || (e->id != a->config && (o = pd_tracefmt_event(
	    s->tf, (uint32_t)a->config)) != NULL && o->overlap)) {
		leave(s, "RAW fields that overlap in their format");
		return;
	}
	/*
	 * Their descriptors still swap: read native both ways, they lead
	 * the conversion back to the same choice.
	 */
	dyn_left = e->ndyn > 0 && dyn_overlap(s, e, off, n);
	if (dyn_left)
		leave(s, "RAW dynamic field data that overlap other fields");
	for (i = 0; i < e->nfields; i++) {
		f = &e->fields[i];
		if ((uint64_t)f->offset + f->size > n) {
			leave(s, "RAW data shorter than its format");
			continue;
		}
		es = pd_tf_swap_size(f);
		switch (f->kind) {
		case PD_TF_NUM:
		case PD_TF_ARRAY:
			if (es != 0)
				xn(s, off + f->offset, es, f->size / es);
			break;
		case PD_TF_STRING:
			break;
		case PD_TF_DATA_LOC:
		case PD_TF_REL_LOC:
			if (f->size != 4) {
				leave(s, "a RAW dynamic field descriptor that "
				    "is not a u32");
				break;
			}
			d = x32(s, off + f->offset);
			at = d & 0xffff;
			sz = d >> 16;
			if (f->kind == PD_TF_REL_LOC)
				at += f->offset + f->size;
			if ((uint64_t)at + sz > n) {
				leave(s, "a RAW dynamic field past the data");
				break;
			}
			if (es != 0 && !dyn_left)
				xn(s, off + at, es, sz / es);
			break;
		}
	}
}

static int
swap_sample(struct sw *s, const struct pd_evsel *ev)
{
	const struct pd_attr *a = &ev->attr;
	uint64_t st = a->sample_type, rf = a->read_format, n, v;
	size_t off = PD_REC_HDR_SIZE;

	S64(PERF_SAMPLE_IDENTIFIER, "identifier");
	S64(PERF_SAMPLE_IP, "ip");
	S32X2(PERF_SAMPLE_TID, "pid/tid");
	S64(PERF_SAMPLE_TIME, "time");
	S64(PERF_SAMPLE_ADDR, "addr");
	S64(PERF_SAMPLE_ID, "id");
	S64(PERF_SAMPLE_STREAM_ID, "stream_id");
	S32X2(PERF_SAMPLE_CPU, "cpu");
	S64(PERF_SAMPLE_PERIOD, "period");
	if (st & PERF_SAMPLE_READ) {
		uint64_t per = 1 + !!(rf & PERF_FORMAT_ID) +
		    !!(rf & PD_FORMAT_LOST);
		uint64_t times = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		    !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);

		/* all u64: nr or value, times, then entries */
		if (!fits(s, off, 8))
			return bad(s, "read values run past the record");
		if (rf & PERF_FORMAT_GROUP) {
			n = x64(s, off);
			off += 8;
			if (n > (s->len - off) / 8 / per ||
			    times + n * per > (s->len - off) / 8)
				return bad(s, "read group values run past "
				    "the record");
			n = times + n * per;
		} else
			n = times + per;
		if (n > (s->len - off) / 8)
			return bad(s, "read values run past the record");
		x64n(s, off, n);
		off += 8 * n;
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		if (!fits(s, off, 8))
			return bad(s, "callchain nr runs past the record");
		n = x64(s, off);
		off += 8;
		if (n > (s->len - off) / 8)
			return bad(s, "callchain runs past the record");
		x64n(s, off, n);
		off += 8 * n;
	}
	if (st & PERF_SAMPLE_RAW) {
		/* u32 size, then fields by the event's format */
		if (!fits(s, off, 4))
			return bad(s, "raw size runs past the record");
		v = x32(s, off);
		off += 4;
		if (!fits(s, off, v))
			return bad(s, "raw data runs past the record");
		swap_raw(s, a, off, v);
		off += v;
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		if (!fits(s, off, 8))
			return bad(s, "branch nr runs past the record");
		n = x64(s, off);
		off += 8;
		/* the kernel's bare nr = 0 carries no hw_idx */
		if ((a->branch_sample_type & PD_BRANCH_HW_INDEX) &&
		    !(n == 0 && off == s->len)) {
			if (!fits(s, off, 8))
				return bad(s, "branch hw_idx runs past the "
				    "record");
			x64(s, off);
			off += 8;
		}
		if (n > (s->len - off) / 24)
			return bad(s, "branch stack runs past the record");
		for (v = 0; v < n; v++, off += 24) {
			x64(s, off);
			x64(s, off + 8);
			xbf64(s, off + 16, branch_flag_bits);
		}
		if (a->branch_sample_type & PD_BRANCH_COUNTERS) {
			if (n > (s->len - off) / 8)
				return bad(s, "branch counters run past the "
				    "record");
			x64n(s, off, n);
			off += 8 * n;
		}
	}
	if ((st & PERF_SAMPLE_REGS_USER) &&
	    swap_regs(s, &off, a->sample_regs_user,
	    "user regs run past the record") < 0)
		return -1;
	if (st & PERF_SAMPLE_STACK_USER) {
		/* u64 size, the stack bytes as they are, u64 dyn_size */
		if (!fits(s, off, 8))
			return bad(s, "user stack size runs past the record");
		v = x64(s, off);
		off += 8;
		if (v != 0) {
			if (v > s->len - off || !fits(s, off + v, 8))
				return bad(s, "user stack runs past the "
				    "record");
			off += v;
			x64(s, off);
			off += 8;
		}
	}
	S64(PERF_SAMPLE_WEIGHT | PD_SAMPLE_WEIGHT_STRUCT, "weight");
	S64(PERF_SAMPLE_DATA_SRC, "data_src");
	S64(PERF_SAMPLE_TRANSACTION, "transaction");
	if ((st & PERF_SAMPLE_REGS_INTR) &&
	    swap_regs(s, &off, a->sample_regs_intr,
	    "intr regs run past the record") < 0)
		return -1;
	S64(PERF_SAMPLE_PHYS_ADDR, "phys_addr");
	S64(PERF_SAMPLE_CGROUP, "cgroup");
	S64(PERF_SAMPLE_DATA_PAGE_SIZE, "data_page_size");
	S64(PERF_SAMPLE_CODE_PAGE_SIZE, "code_page_size");
	if (st & PERF_SAMPLE_AUX) {
		if (!fits(s, off, 8))
			return bad(s, "aux size runs past the record");
		v = x64(s, off);
		off += 8;
		if (!fits(s, off, v))
			return bad(s, "aux data runs past the record");
		off += v;
	}
	if (off != s->len)
		leave(s, "bytes after the last sample field");
	return 0;
}
#undef S64
#undef S32X2

/*
 * A SAMPLE of a simple shape (sample.h: fixed fields and at most a
 * callchain) whose size is just that, converted as swap_sample would in
 * one pass: every u64 turned, then TID's and CPU's u32 pairs put back in
 * their order (turning a u64 turns each u32 and swaps the two). Most
 * samples of most streams; 1 done, 0 not (swap_sample's walk then,
 * with its checks and notes).
 */
static int
swap_sample_simple(struct sw *s, const struct pd_evsel *ev)
{
	const struct pd_sample_shape *sh = &ev->shape;
	size_t pre = PD_REC_HDR_SIZE + sh->pre, chain;
	const uint8_t pairs[2] = { ev->head.tid, ev->head.cpu };
	unsigned char *q;
	unsigned k;

	if (!sh->simple || s->len < pre + sh->post)
		return 0;
	chain = s->len - pre - sh->post;
	if (sh->chain ? chain < 8 || chain % 8 != 0 ||
	    peek64(s, pre) != chain / 8 - 1 : chain != 0)
		return 0;
	x64n(s, PD_REC_HDR_SIZE, (s->len - PD_REC_HDR_SIZE) / 8);
	for (k = 0; k < 2; k++) {
		if (pairs[k] == PD_HEAD_NONE)
			continue;
		q = s->p + PD_REC_HDR_SIZE + pairs[k];
		pd_put_u64(q, pd_get_u64(q) >> 32 | pd_get_u64(q) << 32);
	}
	return 1;
}

/* ---- records laid out by a field table (event.h) ----------------------- */

/*
 * Converts the payload from off to end by its field table: numbers at
 * their width, u64 lists to the end, bytes and strings left as they
 * are. After PD_F_OPT, a field that does not fit ends the record, as an
 * older writer's (perf's event_contains()); bytes before the end that
 * hold no whole field are left.
 */
static int
walk(struct sw *s, const struct pd_field *f, size_t off, size_t end,
    uint16_t misc)
{
	int opt = 0;
	unsigned w;

	/* off never passes end: only fields that fit move it */
	for (;; f++) {
		switch (f->kind) {
		case PD_F_END:
		case PD_F_MISC:		/* only misc bits follow */
			return 0;
		case PD_F_U64:
			if (end - off < 8)
				goto short_;
			x64(s, off);
			off += 8;
			break;
		case PD_F_U32:
			if (end - off < 4)
				goto short_;
			x32(s, off);
			off += 4;
			break;
		case PD_F_U16:
			if (end - off < 2)
				goto short_;
			x16(s, off);
			off += 2;
			break;
		case PD_F_U8:
			if (end - off < 1)
				goto short_;
			off += 1;
			break;
		case PD_F_PAD:
			w = f->size;
			if (w > end - off)
				goto short_;
			if (w == 4)
				x32(s, off);
			else if (w == 2)
				x16(s, off);
			else if (w == 8)
				x64(s, off);
			off += w;
			break;
		case PD_F_BYTES:
			if (f->size > end - off)
				goto short_;
			off += f->size;
			break;
		case PD_F_MMAP2_ID:
			if (24 > end - off)
				goto short_;
			if (!(misc & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
				x32(s, off);
				x32(s, off + 4);
				x64(s, off + 8);
				x64(s, off + 16);
			} else {
				/*
				 * {u8 size, u8 reserved, u16 reserved, the
				 * id's bytes}: only the u16 is a number.
				 */
				x16(s, off + 2);
			}
			off += 24;
			break;
		case PD_F_OPT:
			opt = 1;
			break;
		case PD_F_U64S:
		case PD_F_LIST:
		case PD_F_LIST_FIT:
		case PD_F_READ:
		case PD_F_NAMESPACES:
			x64n(s, off, (end - off) / 8);
			if ((end - off) % 8 != 0)
				leave(s, "bytes after the last u64 of an "
				    "array");
			off = end;
			break;
		case PD_F_STR:
		case PD_F_SKIP:
		case PD_F_RESTLEN:
		case PD_F_POKE:
			off = end;
			break;
		}
	}
short_:
	if (!opt)
		return bad(s, "record too small for its fields");
	if (off < end)
		leave(s, "bytes after the last field that fits");
	return 0;
}

static int	swap_feature(struct sw *, uint64_t);

/* ---- user records with counts ------------------------------------------ */

/* perf_record_cpu_map_data at off, up to end (CPU_MAP, EVENT_UPDATE). */
static int
swap_cpu_map(struct sw *s, size_t off, size_t end)
{
	uint16_t type, nr, lsz;

	if (off + 2 > end)
		return bad(s, "cpu map too small");
	type = x16(s, off);
	off += 2;
	switch (type) {
	case 0:		/* CPUS: u16 nr, u16 cpu[nr] */
		if (off + 2 > end)
			return bad(s, "cpu map too small");
		nr = x16(s, off);
		off += 2;
		if (nr > (end - off) / 2)
			return bad(s, "cpu list runs past the record");
		for (; nr > 0; nr--, off += 2)
			x16(s, off);
		return 0;
	case 1:		/* MASK: u16 nr, u16 long_size, masks */
		if (off + 4 > end)
			return bad(s, "cpu map too small");
		nr = x16(s, off);
		lsz = x16(s, off + 2);
		off += 4;
		if (lsz == 4) {
			if (nr > (end - off) / 4)
				return bad(s, "cpu mask runs past the record");
			for (; nr > 0; nr--, off += 4)
				x32(s, off);
		} else if (lsz == 8) {
			off += 4;	/* the u64s start 8-aligned in the map */
			if (off > end || nr > (end - off) / 8)
				return bad(s, "cpu mask runs past the record");
			x64n(s, off, nr);
		} else
			return bad(s, "cpu mask long_size is neither 4 nor 8");
		return 0;
	case 2:		/* RANGE_CPUS: u8 any_cpu, u8 pad, u16 start, end */
		if (off + 6 > end)
			return bad(s, "cpu range too small");
		x16(s, off + 2);
		x16(s, off + 4);
		return 0;
	}
	leave(s, "a cpu map of an unknown type");
	return 0;
}

static int
swap_user(struct sw *s, const struct pd_evlist *el, uint32_t type,
    uint16_t misc)
{
	size_t off = PD_REC_HDR_SIZE, len = s->len;
	uint64_t n, v;

	switch (type) {
	case PD_RECORD_HEADER_ATTR: {
		uint32_t asz;

		if (len < off + PD_ATTR_SIZE_VER0)
			return bad(s, "record too small for an attr");
		asz = pd_get_u32(s->p + off + PD_ATTR_OFF_SIZE);
		if (s->in)
			asz = bswap_32(asz);
		if (asz == 0)
			asz = PD_ATTR_SIZE_VER0;
		if (asz < PD_ATTR_SIZE_VER0 || asz > len - off)
			return bad(s, "attr.size does not fit the record");
		swap_attr(s, off, asz);
		off += asz;
		x64n(s, off, (len - off) / 8);
		if ((len - off) % 8 != 0)
			leave(s, "bytes after the last attr id");
		return 0;
	}
	case PD_RECORD_HEADER_BUILD_ID: {
		const struct pd_evsel *ev;
		size_t name;
		long at;

		/* s32 pid, 24 bytes of build id, filename, [trailer] */
		if (len < off + 28)
			return bad(s, "record too small for a build id");
		x32(s, off);
		name = off + 28;
		name += strnlen((const char *)s->p + name, len - name) + 1;
		/*
		 * Newer perf appends a sample_id trailer; old perf pads the
		 * name with zeros, which swap to themselves.
		 */
		ev = el != NULL && el->n > 0 ? rec_evsel(s, el, type) : NULL;
		if (ev != NULL && ev->id_hdr_size > 0 &&
		    (at = pd_sample_id_start(ev, len)) >= 0 &&
		    (size_t)at >= name)
			swap_trailer(s, ev, at);
		return 0;
	}
	case PD_RECORD_AUXTRACE_ERROR: {
		uint32_t fmt = 0;

		/* 6 u32 (type code cpu pid tid fmt), u64 ip, then by fmt */
		if (len < off + 32)
			return bad(s, "record too small for its fields");
		for (v = 0; v < 6; v++)
			fmt = x32(s, off + 4 * v);
		x64(s, off + 24);
		off += 32;
		if (fmt >= 1) {
			if (len < off + 8)
				return bad(s, "record too small for its "
				    "fields");
			x64(s, off);
			off += 8;
		}
		off += 64;	/* msg */
		if (fmt >= 2) {
			if (len < off + 8)
				return bad(s, "record too small for its "
				    "fields");
			x32(s, off);
			x32(s, off + 4);
		}
		return 0;
	}
	case PD_RECORD_THREAD_MAP:
		/* u64 nr, nr x {u64 pid, char comm[16]} */
		if (len < off + 8)
			return bad(s, "record too small for its fields");
		n = x64(s, off);
		off += 8;
		if (n > (len - off) / 24)
			return bad(s, "thread map runs past the record");
		for (v = 0; v < n; v++, off += 24)
			x64(s, off);
		return 0;
	case PD_RECORD_CPU_MAP:
		return swap_cpu_map(s, off, len);
	case PD_RECORD_EVENT_UPDATE:
		/* u64 type, u64 id, then by type */
		if (len < off + 16)
			return bad(s, "record too small for its fields");
		v = x64(s, off);
		x64(s, off + 8);
		off += 16;
		switch (v) {
		case 0:		/* UNIT */
		case 2:		/* NAME */
			return 0;
		case 1:		/* SCALE: a double, swapped as a unit */
			if (len < off + 8)
				return bad(s, "record too small for a scale");
			x64(s, off);
			return 0;
		case 3:		/* CPUS */
			return swap_cpu_map(s, off, len);
		}
		leave(s, "an EVENT_UPDATE of an unknown type");
		return 0;
	case PD_RECORD_HEADER_FEATURE: {
		struct sw f;
		int r;

		if (len < off + 8)
			return bad(s, "record too small for a feature id");
		v = x64(s, off);
		off += 8;
		f.p = s->p + off;
		f.len = len - off;
		f.in = s->in;
		f.left = 0;
		f.why = NULL;
		f.tf = NULL;
		r = swap_feature(&f, v);
		if (r < 0 || f.left) {
			s->why = f.why;
			s->left |= f.left;
		}
		return r;
	}
	case PD_RECORD_BPF_METADATA:
		/* char prog_name[512], u64 nr_entries, {key, value} bytes */
		if (len >= off + 512 + 8)
			x64(s, off + 512);
		else
			leave(s, "a BPF_METADATA of an unknown layout");
		return 0;
	case PD_RECORD_SCHEDSTAT_DOMAIN:
		/* u64 timestamp, u32 cpu, u16 version, u16 domain */
		if (len < off + 16)
			return bad(s, "record too small for its fields");
		x64(s, off);
		x32(s, off + 8);
		x16(s, off + 12);
		x16(s, off + 14);
		if (len > off + 16)
			leave(s, "SCHEDSTAT_DOMAIN counters");
		return 0;
	}
	leave(s, "a record of an unknown type");
	return 0;
}

/* ---- feature sections (header.c write_*) ------------------------------- */

/* A cursor for feature bodies: every step checks the body's length. */
static int
fw32(struct sw *s, size_t *off, uint32_t *v)
{
	if (!fits(s, *off, 4))
		return bad(s, "feature runs past its section");
	*v = x32(s, *off);
	*off += 4;
	return 0;
}

static int
fw64(struct sw *s, size_t *off, uint64_t *v)
{
	if (!fits(s, *off, 8))
		return bad(s, "feature runs past its section");
	*v = x64(s, *off);
	*off += 8;
	return 0;
}

/* A header string: u32 len, then len bytes (left as they are). */
static int
fstr(struct sw *s, size_t *off)
{
	uint32_t n;

	if (fw32(s, off, &n) < 0)
		return -1;
	if (!fits(s, *off, n))
		return bad(s, "feature string runs past its section");
	*off += n;
	return 0;
}

/* u32 nr, nr strings */
static int
fstrlist(struct sw *s, size_t *off)
{
	uint32_t n, i;

	if (fw32(s, off, &n) < 0)
		return -1;
	for (i = 0; i < n; i++)
		if (fstr(s, off) < 0)
			return -1;
	return 0;
}

static int
fu64rest(struct sw *s, size_t *off)
{
	x64n(s, *off, (s->len - *off) / 8);
	*off += (s->len - *off) / 8 * 8;
	return 0;
}

/*
 * CPU_TOPOLOGY: core and thread sibling lists, then (newer writers)
 * nr_cpus x {u32 core_id, u32 socket_id}, then die siblings and nr_cpus
 * u32 die ids. nr_cpus comes from another feature; it is the n for
 * which the rest parses, trying the layout without dies first.
 */
static int
fcpu_topology(struct sw *s, size_t *off)
{
	size_t rest, n, at;
	uint32_t nd, i, l;

	if (fstrlist(s, off) < 0 || fstrlist(s, off) < 0)
		return -1;
	rest = s->len - *off;
	if (rest == 0)
		return 0;
	for (n = 0; 12 * n + 4 <= rest; n++) {
		at = *off + 8 * n;
		nd = pd_get_u32(s->p + at);
		if (s->in)
			nd = bswap_32(nd);
		at += 4;
		for (i = 0; i < nd && at + 4 <= s->len; i++) {
			l = pd_get_u32(s->p + at);
			if (s->in)
				l = bswap_32(l);
			if (l > s->len - at - 4)
				break;
			at += 4 + l;
		}
		if (i == nd && at <= s->len && s->len - at == 4 * n) {
			for (at = *off; at < *off + 8 * n; at += 4)
				x32(s, at);
			*off += 8 * n;
			if (fstrlist(s, off) < 0)
				return -1;
			for (; *off < s->len; *off += 4)
				x32(s, *off);
			return 0;
		}
	}
	/* older writers: core and socket ids only */
	if (rest % 8 != 0)
		return bad(s, "cpu topology does not parse");
	for (; *off < s->len; *off += 4)
		x32(s, *off);
	return 0;
}

/*
 * The tracing-data blob (FORMAT.md B.7): magic, version, endian flag,
 * long size, u32 page size, header_page and header_event (u64 lengths),
 * u32 count of ftrace formats, u32 nr_systems each with a u32 count of
 * formats (u64 lengths), u32 kallsyms and printk lengths, u64 cmdlines
 * length (version 0.6 on). Texts stay bytes; what follows is pad. The
 * flag must say the order being converted from, else the blob is left
 * as it is (it says its own order) and 0 returned; 1 when converted.
 */
static int
swap_tracing(struct sw *s)
{
	const unsigned char *z;
	const char *ver;
	size_t off = PD_TRACING_MAGIC_LEN;
	uint64_t q;
	uint32_t n, m, i, j;
	int from_be = s->in ? !HOST_BE : HOST_BE;

	if (s->len < off || memcmp(s->p, PD_TRACING_MAGIC, off) != 0)
		return bad(s, "bad tracing data magic");
	ver = (const char *)s->p + off;
	if ((z = memchr(s->p + off, '\0', s->len - off)) == NULL ||
	    s->len - (size_t)(z + 1 - s->p) < 2)
		return bad(s, "truncated tracing data header");
	off = z + 1 - s->p;
	if ((s->p[off] != 0) != from_be)
		return 0;
	s->p[off] = !from_be;
	off += 2;
	if (fw32(s, &off, &n) < 0)
		return -1;
	for (i = 0; i < 2; i++) {
		if ((z = memchr(s->p + off, '\0', s->len - off)) == NULL)
			return bad(s, "truncated tracing data header");
		off = z + 1 - s->p;
		if (fw64(s, &off, &q) < 0 || q > s->len - off)
			return bad(s, "tracing data header runs past its end");
		off += q;
	}
	if (fw32(s, &off, &n) < 0)
		return -1;
	for (i = 0; i < n; i++) {
		if (fw64(s, &off, &q) < 0 || q > s->len - off)
			return bad(s, "ftrace format runs past the tracing "
			    "data");
		off += q;
	}
	if (fw32(s, &off, &n) < 0)
		return -1;
	for (i = 0; i < n; i++) {
		if ((z = memchr(s->p + off, '\0', s->len - off)) == NULL)
			return bad(s, "system name runs past the tracing "
			    "data");
		off = z + 1 - s->p;
		if (fw32(s, &off, &m) < 0)
			return -1;
		for (j = 0; j < m; j++) {
			if (fw64(s, &off, &q) < 0 || q > s->len - off)
				return bad(s, "event format runs past the "
				    "tracing data");
			off += q;
		}
	}
	for (i = 0; i < 2; i++) {
		if (fw32(s, &off, &n) < 0 || n > s->len - off)
			return bad(s, "kallsyms or printk runs past the "
			    "tracing data");
		off += n;
	}
	if (strcmp(ver, "0.6") >= 0 && off < s->len) {
		if (fw64(s, &off, &q) < 0 || q > s->len - off)
			return bad(s, "cmdlines run past the tracing data");
	}
	return 1;
}

int
pd_swap_tracing(unsigned char *p, size_t len, int in, const char **why)
{
	struct sw s = { p, len, in, 0, NULL, NULL };
	int r;

	r = swap_tracing(&s);
	*why = s.why;
	return r;
}

static int
swap_feature(struct sw *s, uint64_t feat)
{
	size_t off = 0;
	uint32_t n, i, m, j, a, b;
	uint64_t q;

	if (s->len == 0)
		return 0;		/* end marker, or an empty section */
	switch (feat) {
	case PD_FEAT_TRACING_DATA:
		if (swap_tracing(s) < 0)
			return -1;
		off = s->len;	/* the pad after it */
		break;
	case PD_FEAT_BUILD_ID:
		/* perf_record_header_build_id entries back to back */
		while (off + 12 <= s->len) {
			uint16_t sz;

			x32(s, off);
			x16(s, off + 4);
			sz = x16(s, off + 6);
			if (sz < 12 || sz > s->len - off)
				return bad(s, "build id entry runs past its "
				    "section");
			x32(s, off + 8);
			off += sz;
		}
		break;
	case PD_FEAT_HOSTNAME:
	case PD_FEAT_OSRELEASE:
	case PD_FEAT_VERSION:
	case PD_FEAT_ARCH:
	case PD_FEAT_CPUDESC:
	case PD_FEAT_CPUID:
		if (fstr(s, &off) < 0)
			return -1;
		break;
	case PD_FEAT_NRCPUS:
		if (fw32(s, &off, &n) < 0 || fw32(s, &off, &n) < 0)
			return -1;
		break;
	case PD_FEAT_TOTAL_MEM:
	case PD_FEAT_CLOCKID:
	case PD_FEAT_DIR_FORMAT:
	case PD_FEAT_SAMPLE_TIME:
	case PD_FEAT_AUXTRACE:
	case PD_FEAT_MEM_TOPOLOGY:
		/* u64s only (MEM_TOPOLOGY's bitmaps are u64 words too) */
		fu64rest(s, &off);
		break;
	case PD_FEAT_CMDLINE:
		if (fstrlist(s, &off) < 0)
			return -1;
		break;
	case PD_FEAT_EVENT_DESC:
		/* u32 nr, u32 attr_size, nr x {attr, u32 nids, name, ids} */
		if (fw32(s, &off, &n) < 0 || fw32(s, &off, &a) < 0)
			return -1;
		for (i = 0; i < n; i++) {
			if (a < PD_ATTR_SIZE_VER0 || !fits(s, off, a))
				return bad(s, "event_desc attr runs past its "
				    "section");
			swap_attr(s, off, a);
			off += a;
			if (fw32(s, &off, &m) < 0 || fstr(s, &off) < 0)
				return -1;
			if (m > (s->len - off) / 8)
				return bad(s, "event_desc ids run past its "
				    "section");
			x64n(s, off, m);
			off += 8 * (size_t)m;
		}
		break;
	case PD_FEAT_CPU_TOPOLOGY:
		if (fcpu_topology(s, &off) < 0)
			return -1;
		break;
	case PD_FEAT_NUMA_TOPOLOGY:
		/* u32 nr, {u32 node, u64 total, u64 free, string cpus} */
		if (fw32(s, &off, &n) < 0)
			return -1;
		for (i = 0; i < n; i++)
			if (fw32(s, &off, &m) < 0 || fw64(s, &off, &q) < 0 ||
			    fw64(s, &off, &q) < 0 || fstr(s, &off) < 0)
				return -1;
		break;
	case PD_FEAT_BRANCH_STACK:
	case PD_FEAT_STAT:
		break;
	case PD_FEAT_PMU_MAPPINGS:
		/* u32 nr, {u32 type, string name} */
		if (fw32(s, &off, &n) < 0)
			return -1;
		for (i = 0; i < n; i++)
			if (fw32(s, &off, &m) < 0 || fstr(s, &off) < 0)
				return -1;
		break;
	case PD_FEAT_GROUP_DESC:
		/* u32 nr, {string name, u32 leader, u32 nr_members} */
		if (fw32(s, &off, &n) < 0)
			return -1;
		for (i = 0; i < n; i++)
			if (fstr(s, &off) < 0 || fw32(s, &off, &m) < 0 ||
			    fw32(s, &off, &m) < 0)
				return -1;
		break;
	case PD_FEAT_CACHE:
		/* u32 version, u32 nr, {4 u32, 3 strings} */
		if (fw32(s, &off, &m) < 0 || fw32(s, &off, &n) < 0)
			return -1;
		for (i = 0; i < n; i++)
			for (j = 0; j < 7; j++)
				if ((j < 4 ? fw32(s, &off, &m) :
				    fstr(s, &off)) < 0)
					return -1;
		break;
	case PD_FEAT_BPF_PROG_INFO:
		/* u32 nr, {u32 info_len, u32 data_len, bpf_prog_info...} */
		if (fw32(s, &off, &n) < 0)
			return -1;
		if (n > 0) {
			/* a kernel struct of mixed widths: perf leaves it */
			leave(s, "bpf_prog_info entries");
			off = s->len;
		}
		break;
	case PD_FEAT_BPF_BTF:
		/* u32 nr, {u32 id, u32 size, BTF bytes (self-describing)} */
		if (fw32(s, &off, &n) < 0)
			return -1;
		for (i = 0; i < n; i++) {
			if (fw32(s, &off, &a) < 0 || fw32(s, &off, &b) < 0)
				return -1;
			if (!fits(s, off, b))
				return bad(s, "BTF data runs past its section");
			off += b;
		}
		break;
	case PD_FEAT_COMPRESSED:
		/* version, type, level, ratio, mmap_len */
		for (i = 0; i < 5; i++)
			if (fw32(s, &off, &m) < 0)
				return -1;
		break;
	case PD_FEAT_CPU_PMU_CAPS:
		/* u32 nr, nr x {string name, string value} */
		if (fw32(s, &off, &n) < 0)
			return -1;
		for (i = 0; i < n; i++)
			if (fstr(s, &off) < 0 || fstr(s, &off) < 0)
				return -1;
		break;
	case PD_FEAT_CLOCK_DATA:
		/* u32 version, u32 clockid, u64 wall, u64 clockid time */
		if (fw32(s, &off, &m) < 0 || fw32(s, &off, &m) < 0 ||
		    fw64(s, &off, &q) < 0 || fw64(s, &off, &q) < 0)
			return -1;
		break;
	case PD_FEAT_HYBRID_TOPOLOGY:
		/* u32 nr, {string pmu, string cpus} */
		if (fw32(s, &off, &n) < 0)
			return -1;
		for (i = 0; i < n; i++)
			if (fstr(s, &off) < 0 || fstr(s, &off) < 0)
				return -1;
		break;
	case PD_FEAT_PMU_CAPS:
		/* u32 nr_pmu, {u32 nr, nr x {name, value}, string pmu} */
		if (fw32(s, &off, &n) < 0)
			return -1;
		for (i = 0; i < n; i++) {
			if (fw32(s, &off, &m) < 0)
				return -1;
			for (j = 0; j < m; j++)
				if (fstr(s, &off) < 0 || fstr(s, &off) < 0)
					return -1;
			if (fstr(s, &off) < 0)
				return -1;
		}
		break;
	default:
		leave(s, "a feature section of an unknown layout");
		return 0;
	}
	/* newer writers pad feature records to 8 with zeros */
	for (; off < s->len && !s->left; off++)
		if (s->p[off] != 0)
			leave(s, "bytes after the end of a feature section");
	return 0;
}

int
pd_swap_feature(unsigned feat, unsigned char *p, size_t len)
{
	struct sw s = { p, len, 1, 0, NULL, NULL };

	if (swap_feature(&s, feat) < 0)
		return -1;
	return s.left;
}

/* ---- records ------------------------------------------------------------ */

static int
swap_body(struct sw *s, const struct pd_evlist *el, uint32_t type,
    uint16_t misc)
{
	const struct pd_evsel *ev;
	size_t end = s->len;
	long at;

	if (type >= PD_RECORD_USER_START) {
		if (type < PD_RECORD_USER_MAX &&
		    pd_record_layouts[type] != NULL)
			return walk(s, pd_record_layouts[type], PD_REC_HDR_SIZE,
			    end, misc);
		return swap_user(s, el, type, misc);
	}
	ev = rec_evsel(s, el, type);
	if (type == PERF_RECORD_SAMPLE) {
		if (ev == NULL || !ev->parsable) {
			/* perf's guess: the whole payload as u64s */
			x64n(s, PD_REC_HDR_SIZE, (end - PD_REC_HDR_SIZE) / 8);
			leave(s, ev == NULL ? "a SAMPLE of an unknown event "
			    "(swapped as u64s)" : "a SAMPLE with unknown "
			    "layout bits (swapped as u64s)");
			return 0;
		}
		if (swap_sample_simple(s, ev))
			return 0;
		return swap_sample(s, ev);
	}
	if (type >= PD_RECORD_KERNEL_MAX || pd_record_layouts[type] == NULL) {
		leave(s, "a record of an unknown type");
		return 0;
	}
	if (ev == NULL) {
		leave(s, "a trailer of an unknown event");
	} else if (ev->id_hdr_size > 0) {
		if ((at = pd_sample_id_start(ev, end)) < 0)
			return bad(s, "record too small for its sample_id "
			    "trailer");
		end = at;
		swap_trailer(s, ev, end);
	}
	return walk(s, pd_record_layouts[type], PD_REC_HDR_SIZE, end, misc);
}

int
pd_swap_rec(const struct pd_evlist *el, unsigned char *p, const char **why)
{
	struct sw s = { p, pd_header_size(p), 1, 0, NULL,
	    el != NULL && el->tf_raw_in ? el->tf : NULL };

	if (s.len < PD_REC_HDR_SIZE)
		return (*why = "record size < 8"), -1;
	if (swap_body(&s, el, pd_header_type(p), pd_header_misc(p)) < 0) {
		*why = s.why;
		return -1;
	}
	*why = s.why;
	return s.left;
}

int
pd_swap_rec_out(const struct pd_evlist *el, unsigned char *p,
    const char **why)
{
	struct sw s = { p, pd_header_size(p), 0, 0, NULL,
	    el != NULL && el->tf_raw_out ? el->tf : NULL };

	if (s.len < PD_REC_HDR_SIZE)
		return (*why = "record size < 8"), -1;
	if (swap_body(&s, el, pd_header_type(p), pd_header_misc(p)) < 0) {
		*why = s.why;
		return -1;
	}
	pd_swap_header(p);
	*why = s.why;
	return s.left;
}
