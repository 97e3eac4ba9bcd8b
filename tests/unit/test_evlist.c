/* SPDX-License-Identifier: MIT */
/*
 * The evlist: attrs of every size, id_pos / is_pos / id_hdr_size as perf
 * computes them, id lookup, and finding the event of a record with
 * several events (SAMPLE by id_pos, others by is_pos, id 0 and unknown
 * ids).
 */
#include "libcommon/stream/evlist.h"

#include <stdio.h>

#include "libcommon/stream/perf.h"
#include "tests/unit/rec.h"
#include "tests/unit/t.h"

static int
add(struct pd_evlist *el, const struct t_attr *a, const uint64_t *ids,
    size_t nids)
{
	unsigned char raw[256];
	const char *why = NULL;
	int r;

	b_len = 0;
	b_attr(a);
	memcpy(raw, b_buf, b_len);
	r = pd_evlist_add(el, raw, b_len, ids, nids, &why);
	if (r < 0)
		fprintf(stderr, "add: %s\n", why);
	return r;
}

static void
test_attr_sizes(void)
{
	static const uint32_t sizes[] = { 64, 72, 80, 96, 104, 112, 120, 128,
	    136, 144 };
	struct t_attr a = { .type = 0, .config = 1,
	    .sample_type = PERF_SAMPLE_IP, .flags = PD_ATTR_FREQ,
	    .branch_sample_type = 0x55, .regs_user = 0xff, .stack_user = 64,
	    .regs_intr = 0xf0 };
	struct pd_attr pa;
	const char *why;
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		a.size = sizes[i];
		b_len = 0;
		b_attr(&a);
		T(b_len == sizes[i]);
		T(pd_attr_parse(&pa, b_buf, b_len, &why) == 0);
		T(pa.size == sizes[i] && pa.config == 1);
		T(pa.sample_type == PERF_SAMPLE_IP && pa.flags == PD_ATTR_FREQ);
		/* Fields beyond the stored size read as zero. */
		T(pa.branch_sample_type == (sizes[i] >= 80 ? 0x55 : 0));
		T(pa.sample_regs_user == (sizes[i] >= 88 ? 0xff : 0));
		T(pa.sample_stack_user == (sizes[i] >= 96 ? 64 : 0));
		T(pa.sample_regs_intr == (sizes[i] >= 104 ? 0xf0 : 0));
	}
	T(pd_attr_parse(&pa, b_buf, 63, &why) < 0);
	/* attr.size 0 is VER0. */
	pd_put_u32(b_buf + 4, 0);
	T(pd_attr_parse(&pa, b_buf, 64, &why) == 0 && pa.size == 64);
}

static void
test_positions(void)
{
	static const struct {
		uint64_t	st;
		int		id_pos, is_pos;
		unsigned	hdr;
	} cases[] = {
		{ PERF_SAMPLE_IP | PERF_SAMPLE_TID, -1, -1, 8 },
		{ PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TIME,
		    0, 1, 16 },
		{ PERF_SAMPLE_ID, 0, 1, 8 },
		{ PERF_SAMPLE_IP | PERF_SAMPLE_ID, 1, 1, 8 },
		{ PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
		    PERF_SAMPLE_ADDR | PERF_SAMPLE_ID, 4, 1, 24 },
		{ PERF_SAMPLE_TID | PERF_SAMPLE_ID | PERF_SAMPLE_CPU, 1, 2, 24 },
		{ PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
		    PERF_SAMPLE_PERIOD, 0, 3, 24 },
		{ PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_ID | PERF_SAMPLE_CPU,
		    0, 1, 24 },
	};
	struct pd_evlist el;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct t_attr a = { .type = 1, .sample_type = cases[i].st,
		    .flags = PD_ATTR_SAMPLE_ID_ALL };

		pd_evlist_init(&el);
		T(add(&el, &a, NULL, 0) == 0);
		T(el.evsels[0].id_pos == cases[i].id_pos);
		T(el.evsels[0].is_pos == cases[i].is_pos);
		T(el.evsels[0].id_hdr_size == cases[i].hdr);
		pd_evlist_free(&el);
		a.flags = 0;
		pd_evlist_init(&el);
		T(add(&el, &a, NULL, 0) == 0);
		T(el.evsels[0].id_hdr_size == 0);
		pd_evlist_free(&el);
	}
}

static void
test_ids_names(void)
{
	struct t_attr a = { .type = 0, .config = 0 };
	struct t_attr b = { .type = 1, .config = 0 };
	uint64_t ids1[] = { 5, 6 }, ids2[] = { 7 }, more = 8;
	struct pd_evlist el;
	char name[64];

	pd_evlist_init(&el);
	T(add(&el, &a, ids1, 2) == 0);
	T(add(&el, &b, ids2, 1) == 1);
	T(el.n == 2);
	T(pd_evlist_by_id(&el, 5) == &el.evsels[0]);
	T(pd_evlist_by_id(&el, 6) == &el.evsels[0]);
	T(pd_evlist_by_id(&el, 7) == &el.evsels[1]);
	T(pd_evlist_by_id(&el, 8) == NULL);
	T(pd_evlist_add_ids(&el, 1, &more, 1) == 0);
	T(pd_evlist_by_id(&el, 8) == &el.evsels[1] && el.evsels[1].nids == 2);
	T(strcmp(el.evsels[0].name, "cycles") == 0);
	T(strcmp(el.evsels[1].name, "cpu-clock") == 0);
	T(pd_evlist_set_name(&el, 1, "my-event-and-more", 8) == 0);
	T(strcmp(el.evsels[1].name, "my-event") == 0);
	/* Many ids: the table grows. */
	{
		uint64_t id;

		for (id = 100; id < 1100; id++)
			T(pd_evlist_add_ids(&el, (int)(id % 2), &id, 1) == 0);
		T(pd_evlist_by_id(&el, 777) == &el.evsels[1]);
		T(pd_evlist_by_id(&el, 1000) == &el.evsels[0]);
		T(pd_evlist_by_id(&el, 5) == &el.evsels[0]);
	}
	pd_evlist_free(&el);

	a.type = 2;
	a.config = 316;
	pd_attr_default_name(&(struct pd_attr){ .type = 2, .config = 316 },
	    name, sizeof(name));
	T(strcmp(name, "tracepoint:316") == 0);
	pd_attr_default_name(&(struct pd_attr){ .type = 4, .config = 0x1c2 },
	    name, sizeof(name));
	T(strcmp(name, "r1c2") == 0);
}

/* A SAMPLE for the IP|TID|TIME|ID|CPU layout with the given id. */
static size_t
sample(uint64_t id)
{
	size_t at = b_rec(PERF_RECORD_SAMPLE, 0);

	b_u64(0x10);
	b_u32(1); b_u32(1);
	b_u64(100);
	b_u64(id);
	b_u32(0); b_u32(0);
	b_end(at);
	return at;
}

/* A COMM whose trailer (TID, TIME, ID, CPU) carries the given id. */
static size_t
comm(uint64_t id)
{
	size_t at = b_rec(PERF_RECORD_COMM, 0);

	b_u32(1); b_u32(1);
	b_str("x", 8);
	b_u32(1); b_u32(1);
	b_u64(100);
	b_u64(id);
	b_u32(0); b_u32(0);
	b_end(at);
	return at;
}

static void
test_for_rec(void)
{
	struct t_attr a = { .type = 0, .flags = PD_ATTR_SAMPLE_ID_ALL,
	    .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
	    PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_CPU };
	struct t_attr b = a, c = a;
	uint64_t ida[] = { 1, 2 }, idb[] = { 3 }, idc[] = { 4, 5 };
	struct pd_evlist el;
	struct pd_rec r;
	size_t at;

	b.type = 1;
	c.type = 1;
	c.config = 1;
	pd_evlist_init(&el);
	T(pd_evlist_for_rec(&el, &(struct pd_rec){ .type = 9 }) == NULL);
	T(add(&el, &a, ida, 2) == 0);
	/* One event: every record is its. */
	b_len = 0;
	at = sample(99);
	r = b_view(at);
	T(pd_evlist_for_rec(&el, &r) == &el.evsels[0]);
	T(add(&el, &b, idb, 1) == 1);
	T(add(&el, &c, idc, 2) == 2);

	b_len = 0;
	r = b_view(sample(3));
	T(pd_evlist_for_rec(&el, &r) == &el.evsels[1]);
	b_len = 0;
	r = b_view(sample(5));
	T(pd_evlist_for_rec(&el, &r) == &el.evsels[2]);
	b_len = 0;
	r = b_view(sample(1));
	T(pd_evlist_for_rec(&el, &r) == &el.evsels[0]);
	b_len = 0;
	r = b_view(sample(42));		/* unknown id: no event */
	T(pd_evlist_for_rec(&el, &r) == NULL);
	r.size = 24;			/* too short to hold the id */
	T(pd_evlist_for_rec(&el, &r) == NULL);

	b_len = 0;
	r = b_view(comm(4));
	T(pd_evlist_for_rec(&el, &r) == &el.evsels[2]);
	b_len = 0;
	r = b_view(comm(3));
	T(pd_evlist_for_rec(&el, &r) == &el.evsels[1]);
	b_len = 0;
	r = b_view(comm(0));		/* synthesized: the first event */
	T(pd_evlist_for_rec(&el, &r) == &el.evsels[0]);
	b_len = 0;
	r = b_view(comm(77));		/* unknown: the first event too */
	T(pd_evlist_for_rec(&el, &r) == &el.evsels[0]);
	r.size = 16;			/* no room for a trailer */
	T(pd_evlist_for_rec(&el, &r) == &el.evsels[0]);
	pd_evlist_free(&el);

	/* IDENTIFIER everywhere: position 0 and the last u64. */
	a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
	    PERF_SAMPLE_TIME;
	b.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_ADDR;
	pd_evlist_init(&el);
	T(add(&el, &a, ida, 2) == 0);
	T(add(&el, &b, idb, 1) == 1);
	b_len = 0;
	at = b_rec(PERF_RECORD_SAMPLE, 0);
	b_u64(3);
	b_u64(0xadd);
	b_end(at);
	r = b_view(at);
	T(pd_evlist_for_rec(&el, &r) == &el.evsels[1]);
	b_len = 0;
	at = b_rec(PERF_RECORD_EXIT, 0);
	b_u32(1); b_u32(1); b_u32(1); b_u32(1);
	b_u64(0);
	b_u64(100);		/* trailer: time, */
	b_u64(3);		/* then the identifier, last */
	b_end(at);
	r = b_view(at);
	T(pd_evlist_for_rec(&el, &r) == &el.evsels[1]);

	/* No id in the first event: everything is the first event's. */
	pd_evlist_free(&el);
	a.sample_type = PERF_SAMPLE_IP;
	pd_evlist_init(&el);
	T(add(&el, &a, ida, 2) == 0);
	T(add(&el, &b, idb, 1) == 1);
	b_len = 0;
	r = b_view(sample(3));
	T(pd_evlist_for_rec(&el, &r) == &el.evsels[0]);
	pd_evlist_free(&el);
}

int
main(void)
{
	test_attr_sizes();
	test_positions();
	test_ids_names();
	test_for_rec();
	return T_END();
}
