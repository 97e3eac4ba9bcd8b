/* SPDX-License-Identifier: MIT */
/*
 * The record views (event.h): every parse refuses a record one byte too
 * small and a string without its NUL, reads records at odd addresses,
 * and gets back what a build wrote; a record built in the other byte
 * order, converted by swap.c (which walks the field tables), is the
 * native build byte for byte, so views, builders and tables agree.
 * A few offsets are checked by hand against perf's event.h.
 */
#include "libcommon/stream/event.h"

#include <byteswap.h>
#include <stdint.h>
#include <string.h>

#include "libcommon/stream/evlist.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/swap.h"
#include "t.h"

/* Records go at an odd address: no view may assume alignment. */
static unsigned char area[PD_REC_MAX + 16];
static unsigned char *const buf = area + 1;
static unsigned char other[PD_REC_MAX + 16];

static struct pd_evlist el;

/* An event with sample_id_all and a trailer of TID, TIME, ID (24 bytes). */
#define IDSZ	24

static void
setup(void)
{
	unsigned char attr[128];
	uint64_t id = 42;
	const char *why;

	memset(attr, 0, sizeof(attr));
	pd_put_u32(attr + PD_ATTR_OFF_SIZE, sizeof(attr));
	pd_put_u64(attr + PD_ATTR_OFF_SAMPLE_TYPE, PERF_SAMPLE_IP |
	    PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID);
	pd_put_u64(attr + PD_ATTR_OFF_FLAGS, PD_ATTR_SAMPLE_ID_ALL);
	pd_evlist_init(&el);
	T(pd_evlist_add(&el, attr, sizeof(attr), &id, 1, &why) == 0);
	T(el.evsels[0].id_hdr_size == IDSZ);
}

static struct pd_rec
view(const unsigned char *p)
{
	struct pd_rec r;

	pd_rec_view(&r, p);
	return r;
}

/* The record at buf as `size` bytes long (its header says so too). */
static struct pd_rec
cut(size_t size)
{
	struct pd_rec r = view(buf);

	pd_header_set_size(buf, size);
	r.size = size;
	return r;
}

/*
 * Builds the native record in buf (its size into n) with `call`, which
 * writes at p in the order swap says, then the same in the other order
 * in `other`; converted by swap.c, that is the native one.
 */
#define BOTH(n, call) do {						\
	const char *why_;						\
	unsigned char *p = buf;						\
	int swap = 0;							\
									\
	(n) = (call);							\
	p = other;							\
	swap = 1;							\
	T((call) == (n));						\
	pd_swap_header(other);						\
	T(pd_swap_rec(&el, other, &why_) == 0);				\
	T(memcmp(other, buf, (n)) == 0);				\
} while (0)

static void
test_header(void)
{
	unsigned char h[PD_PIPE_HDR_SIZE];
	struct pd_rec r;

	pd_header_put(buf, PERF_RECORD_SAMPLE, 0x4002, 0x1234, 0);
	T(pd_header_type(buf) == PERF_RECORD_SAMPLE);
	T(pd_header_misc(buf) == 0x4002 && pd_header_size(buf) == 0x1234);
	r = view(buf);
	T(r.type == PERF_RECORD_SAMPLE && r.misc == 0x4002 &&
	    r.size == 0x1234 && r.data == buf && r.payload == 0);
	pd_header_put(buf, PERF_RECORD_SAMPLE, 0x4002, 0x1234, 1);
	T(pd_header_type(buf) == bswap_32(PERF_RECORD_SAMPLE));
	T(pd_header_size(buf) == 0x3412);
	pd_swap_header(buf);
	T(pd_header_size(buf) == 0x1234 && pd_header_misc(buf) == 0x4002);

	pd_pipe_header_put(h, 0);
	T(pd_get_u64(h) == PD_MAGIC2 && pd_get_u64(h + 8) == 16);
	T(memcmp(h, "PERFILE2", 8) == 0 || memcmp(h, "2ELIFREP", 8) == 0);
	pd_pipe_header_put(h, 1);
	T(pd_get_u64(h) == PD_MAGIC2_SWAPPED &&
	    pd_get_u64(h + 8) == bswap_64(16));
}

static void
test_comm(void)
{
	struct pd_record_comm c = { 10, 11, "kworker/0:1", 11, 0 }, v;
	struct pd_rec r;
	size_t n, i;

	BOTH(n, pd_record_comm_build(p, PD_REC_MAX, PERF_RECORD_MISC_COMM_EXEC,
	    &c, IDSZ, swap));
	T(n == 16 + 16 + IDSZ);
	/* perf_record_comm: pid, tid, comm[] after the header */
	T(pd_get_u32(buf + 8) == 10 && pd_get_u32(buf + 12) == 11);
	T(strcmp((char *)buf + 16, "kworker/0:1") == 0);
	r = view(buf);
	T(pd_record_comm_parse(&r, &v) == 0);
	T(v.pid == 10 && v.tid == 11 && v.exec == 1 && v.comm_len == 11 &&
	    memcmp(v.comm, "kworker/0:1", 12) == 0);
	/* the size alone asked, nothing written */
	T(pd_record_comm_build(NULL, 0, 0, &c, 0, 0) == 32);
	/* no NUL within the record: refused, at every size */
	memset(buf + 16, 'x', 16 + IDSZ);
	for (i = 8; i <= n; i++) {
		r = cut(i);
		T(pd_record_comm_parse(&r, &v) < 0);
	}
	/* the NUL as the last byte is enough; one byte less is not */
	buf[n - 1] = '\0';
	r = cut(n);
	T(pd_record_comm_parse(&r, &v) == 0 && v.comm_len == n - 17);
	r = cut(16);
	T(pd_record_comm_parse(&r, &v) < 0);
	/* another type is not a COMM */
	pd_header_put(buf, PERF_RECORD_MMAP, 0, n, 0);
	r = view(buf);
	T(pd_record_comm_parse(&r, &v) < 0);
}

static void
test_fork(void)
{
	struct pd_record_fork f = { 1, 2, 3, 4, 0x1122334455667788ULL }, v;
	struct pd_rec r;
	size_t n, i;

	BOTH(n, pd_record_fork_build(p, PD_REC_MAX, PERF_RECORD_EXIT, &f,
	    IDSZ, swap));
	T(n == 32 + IDSZ && pd_header_type(buf) == PERF_RECORD_EXIT);
	T(pd_get_u32(buf + 20) == 4 && pd_get_u64(buf + 24) == f.time);
	r = view(buf);
	T(pd_record_fork_parse(&r, &v) == 0 && memcmp(&v, &f,
	    sizeof(v)) == 0);
	for (i = 8; i < 32; i++) {
		r = cut(i);
		T(pd_record_fork_parse(&r, &v) < 0);
	}
	r = cut(32);
	T(pd_record_fork_parse(&r, &v) == 0 && v.time == f.time);
}

static void
test_mmap(void)
{
	struct pd_record_mmap m = { -1u, 0, 0xffffffff81000000ULL, 0x1000000,
	    0xffffffff81000000ULL, "[kernel.kallsyms]_text", 22 }, v;
	unsigned char id[20] = { 0xde, 0xad, 0xbe, 0xef };
	struct pd_record_mmap2 m2, v2;
	struct pd_rec r;
	size_t n, i;

	BOTH(n, pd_record_mmap_build(p, PD_REC_MAX, PERF_RECORD_MISC_KERNEL,
	    &m, IDSZ, swap));
	T(n == 40 + 24 + IDSZ);
	T(strcmp((char *)buf + 40, m.filename) == 0);
	r = view(buf);
	T(pd_record_mmap_parse(&r, &v) == 0 && v.pid == m.pid &&
	    v.start == m.start && v.len == m.len && v.pgoff == m.pgoff &&
	    v.filename_len == 22 && strcmp(v.filename, m.filename) == 0);
	for (i = 8; i <= 40; i++) {
		r = cut(i);
		T(pd_record_mmap_parse(&r, &v) < 0);
	}

	memset(&m2, 0, sizeof(m2));
	m2.pid = 7;
	m2.tid = 8;
	m2.start = 0x400000;
	m2.len = 0x1000;
	m2.pgoff = 0x2000;
	m2.maj = 8;
	m2.min = 1;
	m2.ino = 99;
	m2.ino_generation = 3;
	m2.prot = 5;
	m2.flags = 2;
	m2.filename = "/usr/bin/true";
	m2.filename_len = 13;
	BOTH(n, pd_record_mmap2_build(p, PD_REC_MAX, 0, &m2, IDSZ, swap));
	/* perf_record_mmap2: maj at 40, ino at 48, prot at 64, name at 72 */
	T(n == 72 + 16 + IDSZ && pd_get_u32(buf + 40) == 8 &&
	    pd_get_u64(buf + 48) == 99 && pd_get_u32(buf + 64) == 5 &&
	    strcmp((char *)buf + 72, "/usr/bin/true") == 0);
	r = view(buf);
	T(pd_record_mmap2_parse(&r, &v2) == 0 && v2.build_id == NULL &&
	    v2.maj == 8 && v2.min == 1 && v2.ino == 99 &&
	    v2.ino_generation == 3 && v2.prot == 5 && v2.flags == 2 &&
	    v2.pid == 7 && v2.tid == 8 && v2.pgoff == 0x2000);
	for (i = 8; i <= 72; i++) {
		r = cut(i);
		T(pd_record_mmap2_parse(&r, &v2) < 0);
	}

	/* the build-id variant: u8 size, 3 reserved bytes, the id */
	m2.build_id = id;
	m2.build_id_size = 4;
	BOTH(n, pd_record_mmap2_build(p, PD_REC_MAX,
	    PERF_RECORD_MISC_MMAP_BUILD_ID, &m2, IDSZ, swap));
	T(buf[40] == 4 && buf[44] == 0xde && buf[47] == 0xef &&
	    buf[48] == 0);
	r = view(buf);
	T(pd_record_mmap2_parse(&r, &v2) == 0 && v2.build_id_size == 4 &&
	    memcmp(v2.build_id, id, 4) == 0 && v2.maj == 0 && v2.ino == 0);
	/* a size byte over 20 says no more than the 20 bytes there are */
	buf[40] = 200;
	T(pd_record_mmap2_parse(&r, &v2) == 0 && v2.build_id_size == 20);
}

static void
test_small(void)
{
	struct pd_record_lost l;
	struct pd_record_lost_samples ls;
	struct pd_record_switch sw;
	struct pd_record_read rd;
	struct pd_rec r;
	size_t i;

	memset(buf, 0, 64);
	pd_header_put(buf, PERF_RECORD_LOST, 0, 24, 0);
	pd_put_u64(buf + 8, 42);
	pd_put_u64(buf + 16, 1000);
	r = view(buf);
	T(pd_record_lost_parse(&r, &l) == 0 && l.id == 42 &&
	    l.lost == 1000);
	for (i = 8; i < 24; i++) {
		r = cut(i);
		T(pd_record_lost_parse(&r, &l) < 0);
	}

	pd_header_put(buf, PERF_RECORD_LOST_SAMPLES, 0, 16, 0);
	pd_put_u64(buf + 8, 7);
	r = view(buf);
	T(pd_record_lost_samples_parse(&r, &ls) == 0 && ls.lost == 7);
	r = cut(15);
	T(pd_record_lost_samples_parse(&r, &ls) < 0);

	pd_header_put(buf, PERF_RECORD_SWITCH, PERF_RECORD_MISC_SWITCH_OUT |
	    PERF_RECORD_MISC_SWITCH_OUT_PREEMPT, 8, 0);
	r = view(buf);
	T(pd_record_switch_parse(&r, &sw) == 0 && sw.out && sw.preempt &&
	    sw.next_prev_pid == 0);
	pd_header_put(buf, PERF_RECORD_SWITCH_CPU_WIDE, 0, 16, 0);
	pd_put_u32(buf + 8, 5);
	pd_put_u32(buf + 12, 6);
	r = view(buf);
	T(pd_record_switch_parse(&r, &sw) == 0 && !sw.out && !sw.preempt &&
	    sw.next_prev_pid == 5 && sw.next_prev_tid == 6);
	r = cut(15);
	T(pd_record_switch_parse(&r, &sw) < 0);

	pd_header_put(buf, PERF_RECORD_READ, 0, 24, 0);
	pd_put_u32(buf + 8, 3);
	pd_put_u64(buf + 16, 77);
	r = view(buf);
	T(pd_record_read_parse(&r, &rd) == 0 && rd.pid == 3 &&
	    rd.values_len == 8 && pd_get_u64(rd.values) == 77);
	r = cut(15);
	T(pd_record_read_parse(&r, &rd) < 0);
}

/* Each offset pd_record_id_offsets() says, as a list. */
struct offs {
	size_t	 off[8];
	size_t	 n;
};

static void
add_off(void *ctx, size_t off)
{
	struct offs *o = ctx;

	if (o->n < 8)
		o->off[o->n] = off;
	o->n++;
}

static void
test_perf_records(void)
{
	unsigned char id[20] = { 1, 2, 3 };
	struct pd_record_header_build_id b = { -1, id, 3, "/lib/x.so", 9 },
	    bv;
	struct pd_record_header_tracing_data td;
	struct pd_record_event_update u;
	struct pd_record_header_feature f;
	struct pd_feat_compressed c = { 0, 1, 3, 0, 131072 }, cv;
	struct pd_record_compressed z;
	struct pd_record_id_index x;
	struct pd_id_index_entry e;
	struct pd_record_header_attr a;
	struct offs o;
	struct pd_rec r;
	size_t n, i, head, size;

	/* HEADER_BUILD_ID: pid, 20 id bytes and the size byte, the name */
	BOTH(n, pd_record_header_build_id_build(p, PD_REC_MAX,
	    PD_RECORD_MISC_BUILD_ID_SIZE, &b, swap));
	T(n == 48 && buf[32] == 3 && buf[12] == 1 &&
	    strcmp((char *)buf + 36, "/lib/x.so") == 0);
	r = view(buf);
	T(pd_record_header_build_id_parse(&r, &bv) == 0 && bv.pid == -1 &&
	    bv.build_id_size == 3 && bv.filename_len == 9);
	/* without the misc bit the id is 20 bytes long */
	pd_header_put(buf, PD_RECORD_HEADER_BUILD_ID, 0, n, 0);
	r = view(buf);
	T(pd_record_header_build_id_parse(&r, &bv) == 0 &&
	    bv.build_id_size == 20);
	r = cut(36);
	T(pd_record_header_build_id_parse(&r, &bv) < 0);

	/* EVENT_UPDATE NAME */
	BOTH(n, pd_record_event_update_name_build(p, PD_REC_MAX, 42,
	    "cycles:u", 8, swap));
	T(n == 24 + 16 && pd_get_u64(buf + 16) == 42);
	r = view(buf);
	T(pd_record_event_update_parse(&r, &u) == 0 &&
	    u.type == PD_EVENT_UPDATE_NAME && u.id == 42 &&
	    u.str_len == 8 && memcmp(u.str, "cycles:u", 8) == 0);
	/* a name without NUL stops at the record's end */
	memset(buf + 24, 'n', 16);
	T(pd_record_event_update_parse(&r, &u) == 0 && u.str_len == 16);
	r = cut(23);
	T(pd_record_event_update_parse(&r, &u) < 0);

	/* HEADER_TRACING_DATA, perf's and simpleperf's */
	BOTH(n, pd_record_header_tracing_data_build(p, PD_REC_MAX, 0, 4096,
	    swap));
	r = view(buf);
	T(n == 16 && pd_record_header_tracing_data_parse(&r, &td) == 0 &&
	    td.size == 4096 && td.data == NULL);
	T(pd_record_payload(&r) == 4096);
	pd_header_put(buf, PD_RECORD_HEADER_TRACING_DATA, 0, 12 + 16, 0);
	pd_put_u32(buf + 8, 16);
	memcpy(buf + 12, PD_TRACING_MAGIC, PD_TRACING_MAGIC_LEN);
	r = view(buf);
	T(pd_record_header_tracing_data_parse(&r, &td) == 0 &&
	    td.data == buf + 12);
	r = cut(11);
	T(pd_record_header_tracing_data_parse(&r, &td) < 0 &&
	    pd_record_payload(&r) == 0);
	pd_header_put(buf, PD_RECORD_AUXTRACE, 0, 48, 0);
	pd_put_u64(buf + 8, 1 << 20);
	r = view(buf);
	T(pd_record_payload(&r) == 1 << 20);

	/* HEADER_FEATURE and the COMPRESSED feature */
	BOTH(n, pd_feat_compressed_build(p, PD_REC_MAX, &c, swap));
	T(n == 36 && pd_get_u64(buf + 8) == PD_FEAT_COMPRESSED &&
	    pd_get_u32(buf + 24) == 3 && pd_get_u32(buf + 32) == 131072);
	r = view(buf);
	T(pd_record_header_feature_parse(&r, &f) == 0 &&
	    f.feat_id == PD_FEAT_COMPRESSED && f.size == 20);
	T(pd_feat_compressed_parse(&r, &cv) == 0 &&
	    memcmp(&cv, &c, sizeof(c)) == 0);
	r = cut(35);
	T(pd_feat_compressed_parse(&r, &cv) < 0);
	memcpy(other, "\1\2\3", 3);
	n = pd_record_header_feature_build(buf, PD_REC_MAX, PD_FEAT_HOSTNAME,
	    other, 3, 0);
	r = view(buf);
	T(n == 19 && pd_record_header_feature_parse(&r, &f) == 0 &&
	    f.feat_id == PD_FEAT_HOSTNAME && f.size == 3 &&
	    memcmp(f.data, "\1\2\3", 3) == 0);
	T(pd_feat_compressed_parse(&r, &cv) < 0);
	r = cut(15);
	T(pd_record_header_feature_parse(&r, &f) < 0);

	/* COMPRESSED and COMPRESSED2 heads */
	head = pd_record_compressed_head(buf, PD_RECORD_COMPRESSED, 5, &size,
	    0);
	memcpy(buf + head, "zzzzz", 5);
	r = view(buf);
	T(head == 8 && size == 13 && r.size == 13 &&
	    pd_record_compressed_parse(&r, &z) == 0 && z.data_size == 5 &&
	    z.data == buf + 8);
	head = pd_record_compressed_head(buf, PD_RECORD_COMPRESSED2, 5,
	    &size, 0);
	r = view(buf);
	T(head == 16 && size == 24 && r.size == 24 &&
	    pd_record_compressed_parse(&r, &z) == 0 && z.data_size == 5 &&
	    z.data == buf + 16);
	head = pd_record_compressed_head(other, PD_RECORD_COMPRESSED2, 5,
	    &size, 1);
	T(head == 16 && pd_get_u64(other + 8) == bswap_64(5) &&
	    pd_header_size(other) == bswap_16(24));
	/* data_size past the end: refused, and said */
	pd_put_u64(buf + 8, 9);
	T(pd_record_compressed_parse(&r, &z) < 0 && z.data_size == 9);
	r = cut(15);
	T(pd_record_compressed_parse(&r, &z) < 0 && z.data_size == 0);

	/* ID_INDEX: entries the record holds, and their ids' offsets */
	memset(buf, 0, 256);
	pd_header_put(buf, PD_RECORD_ID_INDEX, 0, 16 + 2 * 32, 0);
	pd_put_u64(buf + 8, 3);			/* says 3, holds 2 */
	for (i = 0; i < 2; i++) {
		pd_put_u64(buf + 16 + 32 * i, 100 + i);
		pd_put_u64(buf + 24 + 32 * i, i);
		pd_put_u32(buf + 32 + 32 * i, 7);
		pd_put_u32(buf + 40 + 32 * i, 8 + i);
	}
	r = view(buf);
	T(pd_record_id_index_parse(&r, &x) == 0 && x.nr == 3 && x.fit == 2);
	pd_record_id_index_entry(&x, 1, &e);
	T(e.id == 101 && e.idx == 1 && e.cpu == 7 && e.tid == 9);
	memset(&o, 0, sizeof(o));
	pd_record_id_offsets(&r, add_off, &o);
	T(o.n == 2 && o.off[0] == 16 && o.off[1] == 48);
	r = cut(15);
	T(pd_record_id_index_parse(&r, &x) < 0);

	/* HEADER_ATTR: the attr, then its ids */
	memset(buf, 0, 256);
	pd_header_put(buf, PD_RECORD_HEADER_ATTR, 0, 8 + 128 + 16, 0);
	pd_put_u32(buf + 8 + PD_ATTR_OFF_SIZE, 128);
	pd_put_u64(buf + 136, 5);
	pd_put_u64(buf + 144, 6);
	r = view(buf);
	T(pd_record_header_attr_parse(&r, &a) == 0 && a.attr == buf + 8 &&
	    a.attr_size == 128 && a.nids == 2 &&
	    pd_get_u64(a.ids + 8) == 6);
	memset(&o, 0, sizeof(o));
	pd_record_id_offsets(&r, add_off, &o);
	T(o.n == 2 && o.off[0] == 136 && o.off[1] == 144);
	pd_put_u32(buf + 8 + PD_ATTR_OFF_SIZE, 200);	/* does not fit */
	T(pd_record_header_attr_parse(&r, &a) == 0 && a.ids == NULL &&
	    a.nids == 0);
	pd_put_u32(buf + 8 + PD_ATTR_OFF_SIZE, 0);	/* VER0: 64 bytes */
	T(pd_record_header_attr_parse(&r, &a) == 0 && a.attr_size == 0 &&
	    a.ids == buf + 72 && a.nids == 10);
	r = cut(8 + 63);
	T(pd_record_header_attr_parse(&r, &a) < 0);

	/* the other records that name an id: one each, where perf has it */
	pd_header_put(buf, PERF_RECORD_THROTTLE, 0, 32, 0);
	memset(&o, 0, sizeof(o));
	r = view(buf);
	pd_record_id_offsets(&r, add_off, &o);
	T(o.n == 1 && o.off[0] == 16);
	pd_header_put(buf, PD_RECORD_EVENT_UPDATE, 0, 24, 0);
	memset(&o, 0, sizeof(o));
	r = view(buf);
	pd_record_id_offsets(&r, add_off, &o);
	T(o.n == 1 && o.off[0] == 16);
	r = cut(23);
	memset(&o, 0, sizeof(o));
	pd_record_id_offsets(&r, add_off, &o);
	T(o.n == 0);
}

/* Each offset and width pd_record_pid_offsets() says, as a list. */
static void
add_pid(void *ctx, size_t off, unsigned width)
{
	struct offs *o = ctx;

	if (o->n < 8)
		o->off[o->n] = off * 16 + width;
	o->n++;
}

static int
is_pid_name(const char *name)
{
	static const char *const names[] = { "pid", "tid", "ppid", "ptid",
	    "next_prev_pid", "next_prev_tid" };
	size_t i;

	for (i = 0; name != NULL && i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(name, names[i]) == 0)
			return 1;
	return 0;
}

/*
 * The pids pd_record_pid_offsets() names are the fields the tables call
 * pid, tid, ppid, ptid or next_prev_*, at the same places; and those in
 * ID_INDEX entries and THREAD_MAP, which code lays out.
 */
static void
test_pid_offsets(void)
{
	unsigned char rb[256];
	const struct pd_field *f;
	struct offs want, o;
	struct pd_rec r;
	unsigned t, off;

	for (t = 0; t < PD_RECORD_USER_MAX; t++) {
		if (pd_record_layouts[t] == NULL)
			continue;
		memset(&want, 0, sizeof(want));
		off = 8;
		for (f = pd_record_layouts[t]; f->kind != PD_F_END; f++) {
			if (f->kind > PD_F_BYTES || (f->kind == PD_F_PAD &&
			    f->size == 0))
				break;
			if (f->kind <= PD_F_U64 && is_pid_name(f->name))
				add_pid(&want, off, f->size);
			off += f->size;
		}
		memset(rb, 0, sizeof(rb));
		pd_header_put(rb, t, 0, sizeof(rb) - 8 * 8, 0);
		r = view(rb);
		memset(&o, 0, sizeof(o));
		pd_record_pid_offsets(&r, add_pid, &o);
		if (t == PD_RECORD_ID_INDEX)
			continue;
		T(o.n == want.n && memcmp(o.off, want.off,
		    sizeof(o.off)) == 0);
		if (o.n != want.n)
			printf("# type %u: %zu pid fields, the table %zu\n", t,
			    o.n, want.n);
	}
	memset(rb, 0, sizeof(rb));
	pd_header_put(rb, PD_RECORD_ID_INDEX, 0, 16 + 2 * 32, 0);
	pd_put_u64(rb + 8, 2);
	r = view(rb);
	memset(&o, 0, sizeof(o));
	pd_record_pid_offsets(&r, add_pid, &o);
	T(o.n == 2 && o.off[0] == 40 * 16 + 4 && o.off[1] == 72 * 16 + 4);
	pd_header_put(rb, PD_RECORD_THREAD_MAP, 0, 16 + 2 * 24 + 8, 0);
	pd_put_u64(rb + 8, 3);			/* says 3, holds 2 */
	r = view(rb);
	memset(&o, 0, sizeof(o));
	pd_record_pid_offsets(&r, add_pid, &o);
	T(o.n == 2 && o.off[0] == 16 * 16 + 8 && o.off[1] == 40 * 16 + 8);
	pd_header_put(rb, PERF_RECORD_FORK, 0, 23, 0);	/* too short */
	r = view(rb);
	memset(&o, 0, sizeof(o));
	pd_record_pid_offsets(&r, add_pid, &o);
	T(o.n == 0);
}

/* What the walkers rely on in every table. */
static void
test_tables(void)
{
	const struct pd_field *f;
	unsigned t;
	int misc, ok;

	for (t = 0; t < PD_RECORD_USER_MAX; t++) {
		if ((f = pd_record_layouts[t]) == NULL)
			continue;
		ok = 1;
		misc = 0;
		for (; f->kind != PD_F_END; f++) {
			/* swap.c stops at the first misc bit */
			if (misc && f->kind != PD_F_MISC)
				ok = 0;
			misc |= f->kind == PD_F_MISC;
			if ((f->kind == PD_F_LIST ||
			    f->kind == PD_F_LIST_FIT ||
			    f->kind == PD_F_NAMESPACES) && f->sub == NULL)
				ok = 0;
			if (f->kind >= PD_F_U8 && f->kind <= PD_F_U64 &&
			    f->size != 1u << (f->kind - PD_F_U8))
				ok = 0;
		}
		if (!ok)
			fprintf(stderr, "table of type %u\n", t);
		T(ok);
	}
	T(pd_record_layouts[PERF_RECORD_SAMPLE] == NULL);
	T(pd_record_layouts[PD_RECORD_HEADER_ATTR] == NULL);
}

int
main(void)
{
	setup();
	test_header();
	test_comm();
	test_fork();
	test_mmap();
	test_small();
	test_perf_records();
	test_tables();
	test_pid_offsets();
	pd_evlist_free(&el);
	return T_END();
}
