/* SPDX-License-Identifier: MIT */
/*
 * pd_ids_add_identifier: what pdcat does to every record it joins so
 * that all events carry PERF_SAMPLE_IDENTIFIER. Attrs get the bit (and an
 * id when they list none), samples the id in front, trailers the id at
 * the end; the id is the record's own (renumbered) one, else its event's.
 */
#include "libcommon/stream/ids.h"

#include <stdio.h>

#include "libcommon/stream/evlist.h"
#include "libcommon/stream/perf.h"
#include "tests/unit/rec.h"
#include "tests/unit/t.h"

static unsigned char out[PD_REC_MAX + 1];
static unsigned char mapped[PD_REC_MAX + 1];

struct ctx {
	const struct pd_evsel	*ev;	/* last event asked about */
	int			 calls;
};

static uint64_t
evid(void *vctx, const struct pd_evsel *ev)
{
	struct ctx *c = vctx;

	c->ev = ev;
	c->calls++;
	return 1000 + ev->idx;
}

static int
add(struct pd_evlist *el, const struct t_attr *a, const uint64_t *ids,
    size_t nids)
{
	size_t at = b_len;
	const char *why = NULL;
	int r;

	b_attr(a);
	r = pd_evlist_add(el, b_buf + at, b_len - at, ids, nids, &why);
	b_len = at;
	return r;
}

/* Runs the function on the record at b_buf + at, unrenumbered. */
static int
run(const struct pd_evlist *el, size_t at, struct ctx *c, const char **why)
{
	struct pd_rec r = b_view(at);

	memcpy(mapped, r.data, r.size);
	*why = NULL;
	return pd_ids_add_identifier(el, &r, mapped, out, evid, c, why);
}

/* One event recorded alone: no ids at all, sample_id_all with TID|TIME. */
static void
test_one_event_no_ids(void)
{
	struct t_attr a = { .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
	    PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD,
	    .flags = PD_ATTR_SAMPLE_ID_ALL };
	struct pd_evlist el;
	struct ctx c = { NULL, 0 };
	const char *why;
	size_t at;
	int n;

	pd_evlist_init(&el);
	b_len = 0;
	at = b_rec(PD_RECORD_HEADER_ATTR, 0);
	b_attr(&a);
	b_end(at);
	T(add(&el, &a, NULL, 0) == 0);
	/* The attr: IDENTIFIER set, the event's id appended. */
	n = run(&el, at, &c, &why);
	T(n == 8 + 128 + 8);
	T(pd_get_u16(out + 6) == n);
	T(pd_get_u64(out + 8 + PD_ATTR_OFF_SAMPLE_TYPE) ==
	    (a.sample_type | PERF_SAMPLE_IDENTIFIER));
	T(pd_get_u64(out + 8 + 128) == 1000);
	T(c.ev == &el.evsels[0] && c.calls == 1);
	T(memcmp(out + 8, b_buf + at + 8, PD_ATTR_OFF_SAMPLE_TYPE) == 0);
	T(memcmp(out + 8 + PD_ATTR_OFF_SAMPLE_TYPE + 8,
	    b_buf + at + 8 + PD_ATTR_OFF_SAMPLE_TYPE + 8,
	    128 - PD_ATTR_OFF_SAMPLE_TYPE - 8) == 0);

	/* A sample: the id first, then its fields unchanged. */
	b_len = 0;
	at = b_rec(PERF_RECORD_SAMPLE, 0x4002);
	b_u64(0xffffffff81000000ULL);
	b_u32(7);
	b_u32(8);
	b_u64(123456);
	b_u64(4000);
	b_end(at);
	n = run(&el, at, &c, &why);
	T(n == 48);
	T(pd_get_u32(out) == PERF_RECORD_SAMPLE && pd_get_u16(out + 4) ==
	    0x4002 && pd_get_u16(out + 6) == 48);
	T(pd_get_u64(out + 8) == 1000);
	T(memcmp(out + 16, b_buf + at + 8, 32) == 0);

	/* A COMM: the id after its TID|TIME trailer. */
	b_len = 0;
	at = b_rec(PERF_RECORD_COMM, 0);
	b_u32(7);
	b_u32(8);
	b_str("sh", 8);
	b_u32(7);
	b_u32(8);
	b_u64(123000);
	b_end(at);
	n = run(&el, at, &c, &why);
	T(n == 48);
	T(memcmp(out + 8, b_buf + at + 8, 32) == 0);
	T(pd_get_u64(out + 40) == 1000);
	T(pd_get_u16(out + 6) == 48);

	/* User records carry no ids. */
	b_len = 0;
	at = b_rec(PD_RECORD_FINISHED_ROUND, 0);
	b_end(at);
	T(run(&el, at, &c, &why) == 0);

	/* Records grow by 8, at most to 65535 bytes. */
	b_len = 0;
	at = b_rec(PERF_RECORD_SAMPLE, 0);
	b_zero(65512);
	b_end(at);
	T(run(&el, at, &c, &why) == 65528);
	b_zero(8);
	b_end(at);
	T(run(&el, at, &c, &why) == -1 && why != NULL);

	/* A trailer that does not fit. */
	b_len = 0;
	at = b_rec(PERF_RECORD_EXIT, 0);
	b_u64(1);
	b_end(at);
	T(run(&el, at, &c, &why) == -1 && why != NULL);
	pd_evlist_free(&el);
}

/*
 * Two inputs' worth of layouts in one evlist: an event with ID (ids 5 and
 * 6), and one that already has IDENTIFIER (id 7).
 */
static void
test_mixed(void)
{
	struct t_attr a = { .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
	    PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_CPU,
	    .flags = PD_ATTR_SAMPLE_ID_ALL };
	struct t_attr b = { .config = 9, .sample_type = PERF_SAMPLE_IDENTIFIER |
	    PERF_SAMPLE_IP | PERF_SAMPLE_TID, .flags = PD_ATTR_SAMPLE_ID_ALL };
	static const uint64_t ida[] = { 5, 6 }, idb[] = { 7 };
	struct pd_evlist el;
	struct pd_rec r;
	struct ctx c = { NULL, 0 };
	const char *why;
	size_t at;
	int n;

	pd_evlist_init(&el);
	b_len = 0;
	T(add(&el, &a, ida, 2) == 0);
	/* An attr with ids keeps them and its size. */
	at = b_len;
	b_attr_rec(&a, ida, 2);
	n = run(&el, at, &c, &why);
	T(n == 8 + 128 + 16 && c.calls == 0);
	T(pd_get_u64(out + 8 + PD_ATTR_OFF_SAMPLE_TYPE) ==
	    (a.sample_type | PERF_SAMPLE_IDENTIFIER));
	T(pd_get_u64(out + 8 + 128) == 5 && pd_get_u64(out + 8 + 136) == 6);
	b_len = 0;
	T(add(&el, &b, idb, 1) == 1);
	at = b_len;
	b_attr_rec(&b, idb, 1);
	T(run(&el, at, &c, &why) == 0);

	/* A sample of the first event: its renumbered id goes in front. */
	b_len = 0;
	at = b_rec(PERF_RECORD_SAMPLE, 0);
	b_u64(0x400000);
	b_u32(7);
	b_u32(8);
	b_u64(99);
	b_u64(6);		/* ID */
	b_u32(3);
	b_u32(0);
	b_end(at);
	r = b_view(at);
	memcpy(mapped, r.data, r.size);
	pd_put_u64(mapped + 32, 106);
	n = pd_ids_add_identifier(&el, &r, mapped, out, evid, &c, &why);
	T(n == 56 && c.calls == 0);
	T(pd_get_u64(out + 8) == 106 && pd_get_u64(out + 40) == 106);
	T(pd_get_u64(out + 16) == 0x400000);

	/*
	 * A synthesized record (trailer all zero, id 0) is its first
	 * event's, as perf reads it: it gets that event's id.
	 */
	b_len = 0;
	at = b_rec(PERF_RECORD_EXIT, 0);
	b_zero(24);		/* pid, ppid, tid, ptid, time */
	b_zero(32);		/* TID, TIME, ID, CPU */
	b_end(at);
	n = run(&el, at, &c, &why);
	T(n == 72 && c.calls == 1 && c.ev == &el.evsels[0]);
	T(pd_get_u64(out + 64) == 1000);
	/* A trailer's own id (renumbered) is kept. */
	b_len = 0;
	at = b_rec(PERF_RECORD_EXIT, 0);
	b_zero(24);
	b_u32(7);
	b_u32(8);
	b_u64(99);
	b_u64(5);
	b_u32(3);
	b_u32(0);
	b_end(at);
	r = b_view(at);
	memcpy(mapped, r.data, r.size);
	pd_put_u64(mapped + 48, 105);
	c.calls = 0;
	n = pd_ids_add_identifier(&el, &r, mapped, out, evid, &c, &why);
	T(n == 72 && c.calls == 0 && pd_get_u64(out + 64) == 105);
	T(memcmp(out + 8, mapped + 8, 56) == 0);

	/* Records of the event that has IDENTIFIER stay as they are. */
	b_len = 0;
	at = b_rec(PERF_RECORD_SAMPLE, 0);
	b_u64(7);
	b_u64(0x400000);
	b_u32(7);
	b_u32(8);
	b_end(at);
	T(run(&el, at, &c, &why) == 0);
	pd_evlist_free(&el);
}

/*
 * An input whose events all have IDENTIFIER (perf record -a: cpu-clock
 * and a dummy): records keep their layout and ids, but a trailer with id
 * 0 names its event (the first) explicitly.
 */
static void
test_has_identifier(void)
{
	struct t_attr a = { .sample_type = PERF_SAMPLE_IDENTIFIER |
	    PERF_SAMPLE_TID | PERF_SAMPLE_CPU, .flags = PD_ATTR_SAMPLE_ID_ALL };
	static const uint64_t ida[] = { 7 }, idb[] = { 8 };
	struct pd_evlist el;
	struct ctx c = { NULL, 0 };
	const char *why;
	size_t at;

	pd_evlist_init(&el);
	b_len = 0;
	T(add(&el, &a, ida, 1) == 0);
	a.config = 9;
	T(add(&el, &a, idb, 1) == 1);
	at = b_len;
	b_attr_rec(&a, idb, 1);
	T(run(&el, at, &c, &why) == 0);
	b_len = 0;
	at = b_rec(PERF_RECORD_SAMPLE, 0);
	b_u64(8);
	b_u32(7);
	b_u32(8);
	b_u32(1);
	b_u32(0);
	b_end(at);
	T(run(&el, at, &c, &why) == 0);
	b_len = 0;
	at = b_rec(PERF_RECORD_EXIT, 0);
	b_zero(24);
	b_u32(7);
	b_u32(8);
	b_u32(1);
	b_u32(0);
	b_u64(8);
	b_end(at);
	T(run(&el, at, &c, &why) == 0 && c.calls == 0);
	pd_put_u64(b_buf + at + 48, 0);
	T(run(&el, at, &c, &why) == 56 && c.calls == 1);
	T(c.ev == &el.evsels[0] && pd_get_u64(out + 48) == 1000);
	T(pd_get_u16(out + 6) == 56 && memcmp(out, b_buf + at, 48) == 0);
	pd_evlist_free(&el);
}

/*
 * Without sample_id_all a record gets a whole trailer: all ones (no
 * thread, no time) but the id, IDENTIFIER last.
 */
static void
test_no_sample_id_all(void)
{
	struct t_attr a = { .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID };
	struct pd_evlist el;
	struct ctx c = { NULL, 0 };
	const char *why;
	size_t at;

	pd_evlist_init(&el);
	b_len = 0;
	T(add(&el, &a, NULL, 0) == 0);
	at = b_rec(PERF_RECORD_COMM, 0);
	b_u32(7);
	b_u32(8);
	b_str("sh", 8);
	b_end(at);
	T(run(&el, at, &c, &why) == 40 && pd_get_u16(out + 6) == 40);
	T(memcmp(out + 8, b_buf + at + 8, 16) == 0);
	T(pd_get_u64(out + 24) == UINT64_MAX && pd_get_u64(out + 32) == 1000);
	b_len = 0;
	at = b_rec(PERF_RECORD_SAMPLE, 0);
	b_u64(0x400000);
	b_u32(7);
	b_u32(8);
	b_end(at);
	T(run(&el, at, &c, &why) == 32 && pd_get_u64(out + 8) == 1000);
	/* No events yet: nothing to go by. */
	pd_evlist_free(&el);
	pd_evlist_init(&el);
	T(run(&el, at, &c, &why) == 0);
	pd_evlist_free(&el);
}

int
main(void)
{
	test_one_event_no_ids();
	test_mixed();
	test_has_identifier();
	test_no_sample_id_all();
	return T_END();
}
