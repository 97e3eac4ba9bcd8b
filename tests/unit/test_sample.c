/* SPDX-License-Identifier: MIT */
/*
 * Sample parsing: every sample_type field in its place, the read_format
 * variants, branch stacks with and without hw_idx (and the kernel's bare
 * nr = 0), regs with abi 0, stack size 0, bounds on every length, and the
 * sample_id_all trailer.
 */
#include "libcommon/stream/sample.h"

#include <stdio.h>

#include "libcommon/stream/evlist.h"
#include "libcommon/stream/perf.h"
#include "tests/unit/rec.h"
#include "tests/unit/t.h"

static struct pd_evlist el;

/* A fresh evlist holding one event built from a. */
static struct pd_evsel *
event(const struct t_attr *a)
{
	unsigned char raw[256];
	const char *why;
	size_t save = b_len;
	uint64_t id = 1;

	pd_evlist_free(&el);
	pd_evlist_init(&el);
	b_len = 0;
	b_attr(a);
	memcpy(raw, b_buf, b_len);
	if (pd_evlist_add(&el, raw, b_len, &id, 1, &why) < 0) {
		fprintf(stderr, "evlist_add: %s\n", why);
		abort();
	}
	b_len = save;
	return &el.evsels[0];
}

static int
parse(const struct pd_evsel *ev, size_t at, struct pd_sample *s,
    const char **why)
{
	struct pd_rec r = b_view(at);

	*why = "";
	return pd_sample_parse(ev, &r, s, why);
}

/* Every fixed field, in the kernel's order. */
static void
test_all_fixed(void)
{
	struct t_attr a = {
		.type = 1, .flags = PD_ATTR_SAMPLE_ID_ALL,
		.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
		    PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
		    PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
		    PERF_SAMPLE_PERIOD | PERF_SAMPLE_WEIGHT |
		    PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION |
		    PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_CGROUP |
		    PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE |
		    PERF_SAMPLE_AUX,
	};
	struct pd_evsel *ev = event(&a);
	struct pd_sample s;
	const char *why;
	size_t at;

	b_len = 0;
	at = b_rec(PERF_RECORD_SAMPLE, 0);
	b_u64(1);		/* identifier */
	b_u64(0x1000);		/* ip */
	b_u32(10);		/* pid */
	b_u32(11);		/* tid */
	b_u64(12345);		/* time */
	b_u64(0xadd);		/* addr */
	b_u64(1);		/* id */
	b_u64(77);		/* stream_id */
	b_u32(3);		/* cpu */
	b_u32(0);
	b_u64(99);		/* period */
	b_u64(5);		/* weight */
	b_u64(6);		/* data_src */
	b_u64(7);		/* transaction */
	b_u64(8);		/* phys_addr */
	b_u64(9);		/* cgroup */
	b_u64(4096);		/* data page size */
	b_u64(8192);		/* code page size */
	b_u64(8);		/* aux size */
	b_u64(0x1122334455667788ULL);
	b_end(at);
	T(parse(ev, at, &s, &why) == 0);
	T(s.id == 1 && s.identifier_off == 8 && s.id_off == 48);
	T(s.ip == 0x1000 && s.pid == 10 && s.tid == 11);
	T(s.time == 12345 && s.addr == 0xadd && s.stream_id == 77);
	T(s.cpu == 3 && s.period == 99);
	T(s.weight == 5 && s.data_src == 6 && s.transaction == 7);
	T(s.phys_addr == 8 && s.cgroup == 9);
	T(s.data_page_size == 4096 && s.code_page_size == 8192);
	T(s.aux_size == 8 && s.aux != NULL &&
	    pd_get_u64(s.aux) == 0x1122334455667788ULL);
	T(pd_sample_rec_time(ev, &(struct pd_rec){ .data = b_buf + at,
	    .type = PERF_RECORD_SAMPLE, .size = b_len - at }) == 12345);

	/* One byte short anywhere: the last field does not fit. */
	pd_put_u16(b_buf + at + 6, b_len - at - 8);
	T(parse(ev, at, &s, &why) < 0);
	T(strstr(why, "aux") != NULL);
	/* Cut in the middle of the fixed fields. */
	pd_put_u16(b_buf + at + 6, 8 + 8 * 3);
	T(parse(ev, at, &s, &why) < 0 && strstr(why, "time") != NULL);
}

/* WEIGHT_STRUCT shares the slot of WEIGHT. */
static void
test_weight_struct(void)
{
	struct t_attr a = { .type = 4, .sample_type = PERF_SAMPLE_IP |
	    PD_SAMPLE_WEIGHT_STRUCT | PERF_SAMPLE_DATA_SRC };
	struct pd_evsel *ev = event(&a);
	struct pd_sample s;
	const char *why;
	size_t at;

	b_len = 0;
	at = b_rec(PERF_RECORD_SAMPLE, 0);
	b_u64(0x10);
	b_u64(0x0003000200000001ULL);
	b_u64(0x42);
	b_end(at);
	T(parse(ev, at, &s, &why) == 0);
	T(s.weight == 0x0003000200000001ULL && s.data_src == 0x42);
	/* A bit beyond the known ones makes the layout unknowable. */
	a.sample_type |= 1ULL << 40;
	ev = event(&a);
	T(!ev->parsable);
	T(parse(ev, at, &s, &why) < 0);
}

static void
test_read_single(uint64_t rf)
{
	struct t_attr a = { .type = 1, .sample_type = PERF_SAMPLE_IP |
	    PERF_SAMPLE_READ | PERF_SAMPLE_PERIOD, .read_format = rf };
	struct pd_evsel *ev = event(&a);
	struct pd_sample s;
	uint64_t v, id, lost;
	const char *why;
	size_t at;

	b_len = 0;
	at = b_rec(PERF_RECORD_SAMPLE, 0);
	b_u64(0x10);
	b_u64(1234);				/* period comes first */
	b_u64(500);				/* value */
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		b_u64(600);
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		b_u64(700);
	if (rf & PERF_FORMAT_ID)
		b_u64(1);
	if (rf & PD_FORMAT_LOST)
		b_u64(3);
	b_end(at);
	T(parse(ev, at, &s, &why) == 0);
	T(s.read_nr == 1 && s.period == 1234);
	T(s.read_time_enabled ==
	    (rf & PERF_FORMAT_TOTAL_TIME_ENABLED ? 600 : 0));
	T(s.read_time_running ==
	    (rf & PERF_FORMAT_TOTAL_TIME_RUNNING ? 700 : 0));
	pd_sample_read_entry(&s, 0, &v, &id, &lost);
	T(v == 500);
	T(id == (rf & PERF_FORMAT_ID ? 1 : 0));
	T(lost == (rf & PD_FORMAT_LOST ? 3 : 0));
	/* One u64 short: the read values do not all fit. */
	pd_put_u16(b_buf + at + 6, b_len - at - 8);
	T(parse(ev, at, &s, &why) < 0);
}

static void
test_read_group(uint64_t rf)
{
	struct t_attr a = { .type = 1, .sample_type = PERF_SAMPLE_READ,
	    .read_format = rf | PERF_FORMAT_GROUP };
	struct pd_evsel *ev = event(&a);
	struct pd_sample s;
	uint64_t v, id, lost, i;
	const char *why;
	size_t at;

	b_len = 0;
	at = b_rec(PERF_RECORD_SAMPLE, 0);
	b_u64(3);				/* nr */
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		b_u64(600);
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		b_u64(700);
	for (i = 0; i < 3; i++) {
		b_u64(100 + i);
		if (rf & PERF_FORMAT_ID)
			b_u64(200 + i);
		if (rf & PD_FORMAT_LOST)
			b_u64(300 + i);
	}
	b_end(at);
	T(parse(ev, at, &s, &why) == 0);
	T(s.read_nr == 3);
	T(s.read_time_enabled ==
	    (rf & PERF_FORMAT_TOTAL_TIME_ENABLED ? 600 : 0));
	for (i = 0; i < 3; i++) {
		pd_sample_read_entry(&s, i, &v, &id, &lost);
		T(v == 100 + i);
		T(id == (rf & PERF_FORMAT_ID ? 200 + i : 0));
		T(lost == (rf & PD_FORMAT_LOST ? 300 + i : 0));
	}
	pd_put_u64(b_buf + at + 8, 4);		/* one member too many */
	T(parse(ev, at, &s, &why) < 0 && strstr(why, "read") != NULL);
	pd_put_u64(b_buf + at + 8, UINT64_MAX / 2);	/* overflowing nr */
	T(parse(ev, at, &s, &why) < 0);
}

static void
test_callchain_raw(void)
{
	struct t_attr a = { .type = 2, .sample_type = PERF_SAMPLE_CALLCHAIN |
	    PERF_SAMPLE_RAW | PERF_SAMPLE_PERIOD };
	struct pd_evsel *ev = event(&a);
	struct pd_sample s;
	const char *why;
	size_t at;

	b_len = 0;
	at = b_rec(PERF_RECORD_SAMPLE, 0);
	b_u64(1);			/* period */
	b_u64(3);
	b_u64(PERF_CONTEXT_USER);
	b_u64(0x400100);
	b_u64(0x400200);
	b_u32(12);			/* raw size: 4 + 12 = 16 */
	b_u32(0xaa);
	b_u64(0xbb);
	b_end(at);
	T(parse(ev, at, &s, &why) == 0);
	T(s.callchain_nr == 3 && pd_get_u64(s.callchain + 16) == 0x400200);
	T(s.raw_size == 12 && pd_get_u32(s.raw) == 0xaa);
	pd_put_u64(b_buf + at + 16, 7);	/* callchain nr past the end */
	T(parse(ev, at, &s, &why) < 0 && strstr(why, "callchain") != NULL);
	pd_put_u64(b_buf + at + 16, UINT64_MAX);
	T(parse(ev, at, &s, &why) < 0);
	pd_put_u64(b_buf + at + 16, 3);
	pd_put_u32(b_buf + at + 48, 13);	/* raw size past the end */
	T(parse(ev, at, &s, &why) < 0 && strstr(why, "raw") != NULL);

	/* callchain nr 0, raw size 4 with no payload beyond its pad */
	b_len = 0;
	at = b_rec(PERF_RECORD_SAMPLE, 0);
	b_u64(1);
	b_u64(0);
	b_u32(4);
	b_u32(0);
	b_end(at);
	T(parse(ev, at, &s, &why) == 0 && s.callchain_nr == 0 &&
	    s.raw_size == 4);
}

static void
test_branch(void)
{
	struct t_attr a = { .type = 0, .sample_type = PERF_SAMPLE_IP |
	    PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_PERIOD };
	struct pd_evsel *ev;
	struct pd_sample s;
	const char *why;
	size_t at;

	/* No hw_idx: nr, entries. */
	ev = event(&a);
	b_len = 0;
	at = b_rec(PERF_RECORD_SAMPLE, 0);
	b_u64(0x10);
	b_u64(77);		/* period */
	b_u64(2);
	b_u64(1); b_u64(2); b_u64(3);
	b_u64(4); b_u64(5); b_u64(6);
	b_end(at);
	T(parse(ev, at, &s, &why) == 0);
	T(s.branch_nr == 2 && !s.branch_has_hw_idx && s.period == 77);
	T(pd_get_u64(s.branch + 24) == 4);
	pd_put_u64(b_buf + at + 24, 3);
	T(parse(ev, at, &s, &why) < 0 && strstr(why, "branch") != NULL);

	/* hw_idx: nr, hw_idx, entries; counters after them. */
	a.branch_sample_type = PD_BRANCH_HW_INDEX | PD_BRANCH_COUNTERS;
	ev = event(&a);
	b_len = 0;
	at = b_rec(PERF_RECORD_SAMPLE, 0);
	b_u64(0x10);
	b_u64(77);
	b_u64(1);
	b_u64(5);		/* hw_idx */
	b_u64(1); b_u64(2); b_u64(3);
	b_u64(9);		/* counter */
	b_end(at);
	T(parse(ev, at, &s, &why) == 0);
	T(s.branch_has_hw_idx && s.branch_hw_idx == 5);
	T(s.branch_counters != NULL && pd_get_u64(s.branch_counters) == 9);
	T(s.period == 77);

	/* The kernel's bare nr = 0 (no hw_idx) as the last field. */
	a.branch_sample_type = PD_BRANCH_HW_INDEX;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
	ev = event(&a);
	b_len = 0;
	at = b_rec(PERF_RECORD_SAMPLE, 0);
	b_u64(0x10);
	b_u64(0);
	b_end(at);
	T(parse(ev, at, &s, &why) == 0);
	T(s.branch_nr == 0 && !s.branch_has_hw_idx);
	/* ... and nr = 0 with its hw_idx is fine too. */
	b_u64(0);
	b_end(at);
	T(parse(ev, at, &s, &why) == 0);
	T(s.branch_nr == 0 && s.branch_has_hw_idx);
}

static void
test_regs_stack(void)
{
	struct t_attr a = { .type = 0, .sample_type = PERF_SAMPLE_IP |
	    PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER |
	    PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_PERIOD,
	    .regs_user = 0xb, .stack_user = 16, .regs_intr = 0x3 };
	struct pd_evsel *ev = event(&a);
	struct pd_sample s;
	const char *why;
	size_t at;

	b_len = 0;
	at = b_rec(PERF_RECORD_SAMPLE, 0);
	b_u64(0x10);
	b_u64(1);		/* period */
	b_u64(2);		/* abi 64 */
	b_u64(10); b_u64(11); b_u64(12);	/* popcount(0xb) = 3 */
	b_u64(16);		/* stack size */
	b_u64(0x1111); b_u64(0x2222);
	b_u64(8);		/* dyn_size */
	b_u64(2);		/* intr abi */
	b_u64(20); b_u64(21);
	b_end(at);
	T(parse(ev, at, &s, &why) == 0);
	T(s.regs_user_abi == 2 && s.regs_user_nr == 3 &&
	    pd_get_u64(s.regs_user + 16) == 12);
	T(s.stack_size == 16 && s.stack_dyn_size == 8 &&
	    pd_get_u64(s.stack + 8) == 0x2222);
	T(s.regs_intr_nr == 2 && pd_get_u64(s.regs_intr + 8) == 21);
	pd_put_u64(b_buf + at + 56, 17);	/* dyn_size > size */
	T(parse(ev, at, &s, &why) < 0 && strstr(why, "dyn_size") != NULL);

	/* abi 0: no registers; stack size 0: no data, no dyn_size. */
	b_len = 0;
	at = b_rec(PERF_RECORD_SAMPLE, 0);
	b_u64(0x10);
	b_u64(1);
	b_u64(0);
	b_u64(0);
	b_u64(0);
	b_end(at);
	T(parse(ev, at, &s, &why) == 0);
	T(s.regs_user_abi == 0 && s.regs_user_nr == 0 && s.regs_user == NULL);
	T(s.stack_size == 0 && s.stack == NULL);
	T(s.regs_intr_abi == 0);
	/* A stack size past the end. */
	pd_put_u64(b_buf + at + 32, 64);
	T(parse(ev, at, &s, &why) < 0 && strstr(why, "stack") != NULL);
	/* Registers past the end. */
	pd_put_u64(b_buf + at + 24, 2);
	T(parse(ev, at, &s, &why) < 0 && strstr(why, "regs_user") != NULL);
}

/* The sample_id_all trailer: the last id_hdr_size bytes of a record. */
static void
test_trailer(void)
{
	struct t_attr a = { .type = 1, .flags = PD_ATTR_SAMPLE_ID_ALL,
	    .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
	    PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID |
	    PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER };
	struct pd_evsel *ev = event(&a);
	struct pd_sample s;
	struct pd_rec r;
	const char *why;
	size_t at;

	T(ev->id_hdr_size == 48);
	b_len = 0;
	at = b_rec(PERF_RECORD_COMM, 0);
	b_u32(5);
	b_u32(6);
	b_str("a-long-comm-name", 8);	/* 17 bytes + 7 pad */
	b_u32(5); b_u32(6);		/* tid */
	b_u64(4242);			/* time */
	b_u64(1);			/* id */
	b_u64(8);			/* stream id */
	b_u32(2); b_u32(0);		/* cpu */
	b_u64(1);			/* identifier */
	b_end(at);
	r = b_view(at);
	T(pd_sample_id_parse(ev, &r, &s, &why) == 1);
	T(s.pid == 5 && s.tid == 6 && s.time == 4242 && s.id == 1);
	T(s.stream_id == 8 && s.cpu == 2);
	T(s.identifier_off == r.size - 8 && s.id_off == r.size - 32);
	T(pd_sample_rec_time(ev, &r) == 4242);
	r.size = 40;			/* shorter than the trailer */
	T(pd_sample_id_parse(ev, &r, &s, &why) < 0);
	T(pd_sample_rec_time(ev, &r) == 0);

	/* No sample_id_all: no trailer, no time. */
	a.flags = 0;
	ev = event(&a);
	r = b_view(at);
	T(ev->id_hdr_size == 0);
	T(pd_sample_id_parse(ev, &r, &s, &why) == 0);
	T(pd_sample_rec_time(ev, &r) == 0);
}

/*
 * pd_sample_ids, which skips the walk for simple shapes, answers as
 * pd_sample_parse does for every layout and length: the same verdict,
 * the same reason, the same offsets. Bodies of every length up to 160
 * bytes, with callchain and group sizes that fit or not.
 */
static void
test_ids_agree(void)
{
	static const uint64_t extra[] = {
		0, PERF_SAMPLE_CALLCHAIN, PERF_SAMPLE_READ,
		PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN, PERF_SAMPLE_WEIGHT,
		PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_DATA_SRC |
		    PD_SAMPLE_WEIGHT_STRUCT | PERF_SAMPLE_CODE_PAGE_SIZE,
		PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW,
		PERF_SAMPLE_READ | PERF_SAMPLE_BRANCH_STACK,
		PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_PHYS_ADDR |
		    PERF_SAMPLE_CGROUP | PERF_SAMPLE_TRANSACTION |
		    PERF_SAMPLE_DATA_PAGE_SIZE,
		PERF_SAMPLE_CALLCHAIN | (1ULL << 40),	/* unknown bit */
	};
	static const uint64_t heads[] = {
		PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
		    PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD,
		PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		    PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID,
		PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_ID,
		0,
	};
	static const uint64_t rfs[] = {
		0, PERF_FORMAT_ID | PD_FORMAT_LOST,
		PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
		    PERF_FORMAT_ID, PERF_FORMAT_GROUP | PERF_FORMAT_ID,
	};
	size_t h, x, f, len, at, k, bad = 0, fast = 0;
	uint64_t nr;

	for (h = 0; h < sizeof(heads) / sizeof(heads[0]); h++)
	for (x = 0; x < sizeof(extra) / sizeof(extra[0]); x++)
	for (f = 0; f < sizeof(rfs) / sizeof(rfs[0]); f++) {
		struct t_attr a = { .type = 1, .sample_type = heads[h] |
		    extra[x], .read_format = rfs[f] };
		struct pd_evsel *ev = event(&a);

		fast += ev->shape.simple;
		for (len = 0; len <= 160; len += 8)
		for (nr = 0; nr < 6; nr++) {
			struct pd_sample s;
			struct pd_sample_ids ids;
			struct pd_rec r;
			const char *w1 = "", *w2 = "";
			int r1, r2;

			b_len = 0;
			at = b_rec(PERF_RECORD_SAMPLE, 0);
			/* Every u64 says nr: callchain and group sizes. */
			for (k = 0; k < len / 8; k++)
				b_u64(nr);
			b_end(at);
			r = b_view(at);
			r1 = pd_sample_parse(ev, &r, &s, &w1);
			r2 = pd_sample_ids(ev, &r, &ids, &w2);
			if (r1 != r2 || strcmp(w1, w2) != 0 || (r1 == 0 &&
			    (s.identifier_off != ids.identifier_off ||
			    s.id_off != ids.id_off ||
			    s.read_off != ids.read_off)))
				bad++;
		}
	}
	T(bad == 0);
	/* Both ways were taken. */
	T(fast > 0);
	T(fast < sizeof(heads) / sizeof(heads[0]) *
	    sizeof(extra) / sizeof(extra[0]) * sizeof(rfs) / sizeof(rfs[0]));
}

int
main(void)
{
	static const uint64_t rfs[] = {
		0, PERF_FORMAT_TOTAL_TIME_ENABLED,
		PERF_FORMAT_TOTAL_TIME_RUNNING, PERF_FORMAT_ID,
		PERF_FORMAT_TOTAL_TIME_ENABLED |
		    PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID,
		PERF_FORMAT_ID | PD_FORMAT_LOST, PD_FORMAT_LOST,
	};
	size_t i;

	test_all_fixed();
	test_weight_struct();
	for (i = 0; i < sizeof(rfs) / sizeof(rfs[0]); i++) {
		test_read_single(rfs[i]);
		test_read_group(rfs[i]);
	}
	test_callchain_raw();
	test_branch();
	test_regs_stack();
	test_trailer();
	test_ids_agree();
	pd_evlist_free(&el);
	return T_END();
}
