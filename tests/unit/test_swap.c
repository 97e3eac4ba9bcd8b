/* SPDX-License-Identifier: MIT */
/*
 * The swap module against layouts written out by hand: every value is
 * checked at its big-endian byte position, so a wrong width that both
 * directions share (and a round trip would hide) shows up.
 */
#include "libcommon/stream/swap.h"

#include <byteswap.h>
#include <stdint.h>
#include <string.h>

#include "libcommon/stream/evlist.h"
#include "libcommon/stream/perf.h"
#include "t.h"

static unsigned char rec[512];

/* Big-endian reads, independent of the host. */
static uint64_t
be(const unsigned char *p, int n)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

static void
put(size_t off, uint64_t v, int n)
{
	if (n == 2)
		pd_put_u16(rec + off, v);
	else if (n == 4)
		pd_put_u32(rec + off, v);
	else
		pd_put_u64(rec + off, v);
}

int
main(void)
{
	struct pd_evlist el;
	unsigned char attr[128], copy[512];
	uint64_t id = 42;
	const char *why;
	size_t o;

	/* attr flags: LE bit n, width w -> BE bits [64-n-w, 63-n] */
	T(pd_swap_attr_flags(1, 1) == 1ULL << 63);		/* disabled */
	T(pd_swap_attr_flags(1ULL << 18, 1) == 1ULL << 45);	/* id_all */
	T(pd_swap_attr_flags(2ULL << 15, 1) == 2ULL << 47);	/* precise 2 */
	T(pd_swap_attr_flags(1ULL << 15, 1) == 1ULL << 47);	/* precise 1 */
	T(pd_swap_attr_flags(pd_swap_attr_flags(0x61943703ULL, 1), 0) ==
	    0x61943703ULL);
	/* branch flags: cycles (LE 4-19) = 0x1234 -> BE bits 44-59 */
	T(pd_swap_branch_flags(0x1234ULL << 4 | 1, 1) ==
	    (0x1234ULL << 44 | 1ULL << 63));
	T(pd_swap_branch_flags(pd_swap_branch_flags(~0ULL ^ 0xf0f0, 1), 0) ==
	    (~0ULL ^ 0xf0f0));

	/* one event: IP|TID|TIME|ID|CPU|PERIOD|CALLCHAIN|RAW|BRANCH_STACK */
	memset(attr, 0, sizeof(attr));
	pd_put_u32(attr + 4, 128);
	pd_put_u64(attr + 24, PERF_SAMPLE_IP | PERF_SAMPLE_TID |
	    PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_CPU |
	    PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW |
	    PERF_SAMPLE_BRANCH_STACK);
	pd_put_u64(attr + 40, 1ULL << 18 | 2ULL << 15);
	pd_put_u64(attr + 72, PD_BRANCH_HW_INDEX);
	pd_evlist_init(&el);
	T(pd_evlist_add(&el, attr, sizeof(attr), &id, 1, &why) == 0);

	/* SAMPLE */
	memset(rec, 0, sizeof(rec));
	o = 8;
	put(o, 0x1122334455667788ULL, 8), o += 8;		/* ip */
	put(o, 100, 4), put(o + 4, 101, 4), o += 8;		/* pid tid */
	put(o, 5, 8), o += 8;					/* time */
	put(o, 42, 8), o += 8;					/* id */
	put(o, 3, 4), put(o + 4, 0, 4), o += 8;			/* cpu */
	put(o, 7, 8), o += 8;					/* period */
	put(o, 2, 8), put(o + 8, 9, 8), put(o + 16, 10, 8), o += 24;
	put(o, 12, 4), memcpy(rec + o + 4, "\x01\x02\x03\x04", 4), o += 16;
	put(o, 1, 8), put(o + 8, 77, 8), o += 16;		/* nr, hw_idx */
	put(o, 0xaa, 8), put(o + 8, 0xbb, 8);
	put(o + 16, 0x1234ULL << 4 | 1, 8), o += 24;
	put(0, PERF_RECORD_SAMPLE, 4), put(6, o, 2);
	memcpy(copy, rec, o);
	/* RAW of a non-tracepoint event: left as it is, and counted */
	T(pd_swap_rec_out(&el, rec, &why) == 1);
	T(why != NULL && strstr(why, "RAW") != NULL);
	T(be(rec, 4) == PERF_RECORD_SAMPLE && be(rec + 6, 2) == o);
	T(be(rec + 8, 8) == 0x1122334455667788ULL);
	T(be(rec + 16, 4) == 100 && be(rec + 20, 4) == 101);
	T(be(rec + 40, 4) == 3);
	T(be(rec + 56, 8) == 2 && be(rec + 72, 8) == 10);
	T(be(rec + 80, 4) == 12 && memcmp(rec + 84, "\x01\x02", 2) == 0);
	T(be(rec + 96, 8) == 1 && be(rec + 104, 8) == 77);
	T(be(rec + 128, 8) == (0x1234ULL << 44 | 1ULL << 63));
	/* and back */
	pd_swap_header(rec);
	T(pd_swap_rec(&el, rec, &why) == 1);
	T(memcmp(rec, copy, o) == 0);

	/* MMAP2 with its trailer (TID TIME ID CPU): prot and flags too */
	memset(rec, 0, sizeof(rec));
	put(0, PERF_RECORD_MMAP2, 4), put(6, 80 + 32, 2);
	put(8, 1, 4), put(12, 2, 4), put(16, 0x400000, 8);
	put(40, 8, 4), put(44, 1, 4), put(48, 99, 8);
	put(64, 5, 4), put(68, 2, 4), memcpy(rec + 72, "/bin/ls", 8);
	put(80, 1, 4), put(84, 2, 4), put(88, 3, 8), put(96, 42, 8);
	put(104, 4, 4);
	T(pd_swap_rec_out(&el, rec, &why) == 0);
	T(be(rec + 8, 4) == 1 && be(rec + 12, 4) == 2);
	T(be(rec + 40, 4) == 8 && be(rec + 48, 8) == 99);
	T(be(rec + 64, 4) == 5 && be(rec + 68, 4) == 2);
	T(memcmp(rec + 72, "/bin/ls", 8) == 0);
	T(be(rec + 80, 4) == 1 && be(rec + 88, 8) == 3);
	T(be(rec + 96, 8) == 42 && be(rec + 104, 4) == 4);

	/*
	 * MMAP2 with a build id (PERF_RECORD_MISC_MMAP_BUILD_ID): perf's
	 * {u8 size, u8 reserved, u16 reserved, u8 id[20]}: bytes stay,
	 * the u16 turns; the rest as above.
	 */
	memset(rec, 0, sizeof(rec));
	put(0, PERF_RECORD_MMAP2, 4), put(4, 0x4002, 2), put(6, 80 + 32, 2);
	put(8, 1, 4), put(12, 2, 4), put(16, 0x400000, 8);
	rec[40] = 20, rec[41] = 0x5a, put(42, 0x1234, 2);
	for (o = 0; o < 20; o++)
		rec[44 + o] = (unsigned char)(0xa0 + o);
	put(64, 5, 4), put(68, 2, 4), memcpy(rec + 72, "/bin/ls", 8);
	put(80, 1, 4), put(84, 2, 4), put(88, 3, 8), put(96, 42, 8);
	put(104, 4, 4);
	memcpy(copy, rec, 112);
	T(pd_swap_rec_out(&el, rec, &why) == 0);
	T(be(rec + 4, 2) == 0x4002 && be(rec + 8, 4) == 1);
	T(rec[40] == 20 && rec[41] == 0x5a && be(rec + 42, 2) == 0x1234);
	T(memcmp(rec + 44, copy + 44, 20) == 0);
	T(be(rec + 64, 4) == 5 && be(rec + 104, 4) == 4);
	pd_swap_header(rec);
	T(pd_swap_rec(&el, rec, &why) == 0);
	T(memcmp(rec, copy, 112) == 0);

	/* HEADER_ATTR: fields by width, flags re-laid, ids */
	memset(rec, 0, sizeof(rec));
	put(0, PD_RECORD_HEADER_ATTR, 4), put(6, 8 + 128 + 8, 2);
	memcpy(rec + 8, attr, 128);
	put(8 + 92, 1, 4);					/* clockid */
	put(8 + 108, 127, 2);					/* max_stack */
	put(136, 42, 8);
	T(pd_swap_rec_out(&el, rec, &why) == 0);
	T(be(rec + 12, 4) == 128 && be(rec + 8 + 92, 4) == 1);
	T(be(rec + 8 + 108, 2) == 127);
	T(be(rec + 48, 8) == (1ULL << 45 | 2ULL << 47));
	T(be(rec + 136, 8) == 42);

	/* AUXTRACE_ERROR fmt 1: u64 time at 40, msg, no machine_pid */
	memset(rec, 0, sizeof(rec));
	put(0, PD_RECORD_AUXTRACE_ERROR, 4), put(6, 112, 2);
	put(28, 1, 4), put(32, 0xabc, 8), put(40, 77, 8);
	memcpy(rec + 48, "msg", 4);
	T(pd_swap_rec_out(&el, rec, &why) == 0);
	T(be(rec + 28, 4) == 1 && be(rec + 32, 8) == 0xabc);
	T(be(rec + 40, 8) == 77 && memcmp(rec + 48, "msg", 4) == 0);
	pd_swap_header(rec);
	T(pd_swap_rec(&el, rec, &why) == 0);
	T(pd_get_u64(rec + 40) == 77 && pd_get_u32(rec + 28) == 1);

	/* a count that runs past the record is an error, not a read */
	memset(rec, 0, sizeof(rec));
	put(0, PERF_RECORD_SAMPLE, 4), put(6, 8 + 48 + 8, 2);
	put(8 + 48, 1000, 8);					/* callchain nr */
	T(pd_swap_rec_out(&el, rec, &why) == -1);
	T(why != NULL && strstr(why, "callchain") != NULL);

	/* an unknown type is left and reported */
	memset(rec, 0, sizeof(rec));
	put(0, 200, 4), put(6, 16, 2), put(8, 1, 8);
	T(pd_swap_rec_out(&el, rec, &why) == 1);
	T(pd_get_u64(rec + 8) == 1);

	pd_evlist_free(&el);
	return T_END();
}
