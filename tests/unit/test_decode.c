/* SPDX-License-Identifier: MIT */
/*
 * The SAMPLE visitor (pd_decode_sample): a sample with every field kind
 * (read group values, callchain, branch entries with their flag bits and
 * counters, both register sets, user stack, RAW, AUX...) comes out field
 * by field in order; fields the event does not sample come out as
 * absent; every cut of the record is refused after "event"; a sample of
 * an unknown id visits nothing. Tracepoint RAW data come out by the
 * tracing formats, which the reader owns: given to the events by hand,
 * and read from a stream with PD_RD_TRACEFMT. Then simpleperf's record
 * 32777 and what the records' walker says of it.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "libcommon/stream/decode.h"
#include "libcommon/stream/evlist.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/reader.h"
#include "libcommon/stream/tracefmt.h"
#include "tests/unit/rec.h"
#include "tests/unit/t.h"
#include "tests/unit/tfblob.h"

#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define HOST_BE	1
#else
#define HOST_BE	0
#endif

/* What the visitor saw, as text: "name=F:value", "name{" ... "}". */
static char seen[4096];
static size_t nseen;

static void
say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	nseen += vsnprintf(seen + nseen, sizeof(seen) - nseen, fmt, ap);
	va_end(ap);
	if (nseen >= sizeof(seen))
		nseen = sizeof(seen) - 1;
}

static void
v_val(void *ctx, const struct pd_dval *v)
{
	const unsigned char *p = v->p;
	size_t i;

	(void)ctx;
	/* a known length must be the name's */
	if (v->name != NULL && v->namelen != 0 &&
	    v->namelen != strlen(v->name))
		say("BADLEN ");
	if (v->name != NULL)
		say("%s", v->name);
	switch (v->fmt) {
	case PD_D_U:
		say("=u:%" PRIu64 " ", v->u);
		break;
	case PD_D_S:
		say("=s:%" PRId64 " ", (int64_t)v->u);
		break;
	case PD_D_X:
		say("=x:%" PRIx64 " ", v->u);
		break;
	case PD_D_STR:
		say("=str:%.*s ", (int)v->len, (const char *)v->p);
		break;
	case PD_D_BYTES:
		say("=bytes:");
		for (i = 0; i < v->len; i++)
			say("%02x", p[i]);
		say(" ");
		break;
	case PD_D_ADDRS:
		say("=addrs:");
		for (i = 0; i < v->len; i++)
			say("%s%" PRIx64, i ? "," : "", pd_get_u64(p + 8 * i));
		say(" ");
		break;
	case PD_D_NONE:
		say("=none:%" PRIu64 " ", v->u);
		break;
	case PD_D_NULL:
		say("=null ");
		break;
	default:
		say("=other ");
	}
}

static void
v_open(void *ctx, const char *name, int kind)
{
	(void)ctx;
	say("%s%c ", name != NULL ? name : "", kind == PD_DV_OBJECT ? '{' :
	    kind == PD_DV_LIST ? '[' : '(');
}

static void
v_close(void *ctx, int kind)
{
	(void)ctx;
	say("%c ", kind == PD_DV_OBJECT ? '}' : kind == PD_DV_LIST ? ']' :
	    ')');
}

static const struct pd_dvisit vis = { v_val, v_open, v_close, NULL, NULL };

static int
decode(const struct pd_rec *rec, const struct pd_evlist *el,
    const char **why)
{
	nseen = 0;
	seen[0] = '\0';
	*why = NULL;
	return pd_decode_sample(rec, el, &vis, why);
}

/* An event from its attr, with these ids; its index. */
static int
add_event(struct pd_evlist *el, const struct t_attr *a, const uint64_t *ids,
    size_t nids)
{
	size_t at = b_len;
	const char *why;
	int idx;

	b_attr(a);
	idx = pd_evlist_add(el, b_buf + at, b_len - at, ids, nids, &why);
	b_len = at;
	return idx;
}

static const uint64_t all_types = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
    PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |
    PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
    PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW |
    PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER |
    PERF_SAMPLE_STACK_USER | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC |
    PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_REGS_INTR |
    PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_AUX | PERF_SAMPLE_CGROUP |
    PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE;

static const char all_seen[] =
    "event=str:cpu-clock time=u:1000 cpu=u:3 pid=s:-1 tid=s:42 "
    "ip=x:ffffffff81000000 period=u:250000 addr=x:7f0000001000 id=u:7 "
    "stream_id=u:8 weight=u:77 data_src=x:1234 transaction=x:5 "
    "phys_addr=x:abcd000 cgroup=u:99 data_page_size=u:4096 "
    "code_page_size=u:2097152 callchain=addrs:fffffffffffffe00,400123 "
    "read{ time_enabled=u:500 time_running=u:400 values( "
    "{ value=u:11 id=u:7 event=str:cpu-clock lost=u:0 } "
    "{ value=u:12 id=u:1234 lost=u:3 } ) } "
    "branch_stack{ nr=u:2 hw_idx=u:6 entries( "
    "{ from=x:1000 to=x:2000 mispred=u:1 predicted=u:0 in_tx=u:1 "
    "abort=u:0 cycles=u:65535 br_type=u:15 spec=u:2 new_type=u:9 "
    "priv=u:5 counters=x:21 } "
    "{ from=x:3000 to=x:4000 mispred=u:0 predicted=u:1 in_tx=u:0 "
    "abort=u:1 cycles=u:1 br_type=u:0 spec=u:0 new_type=u:0 priv=u:0 "
    "counters=x:22 } ) } "
    "regs_user{ abi=u:2 mask=x:105 regs{ r0=x:a0 r2=x:a2 r8=x:a8 } } "
    "stack_user{ size=u:16 dyn_size=u:12 } "
    "regs_intr{ abi=u:2 mask=x:8000000000000000 regs{ r63=x:b63 } } "
    "aux{ size=u:8 } "
    "raw{ size=u:4 data=bytes:01020304 } ";

/* The sample of every field, for an event of all_types. */
static size_t
sample_all(uint64_t id)
{
	size_t at = b_rec(PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL);
	uint64_t fl;

	b_u64(id);				/* IDENTIFIER */
	b_u64(0xffffffff81000000ULL);		/* IP */
	b_u32((uint32_t)-1); b_u32(42);		/* TID */
	b_u64(1000);				/* TIME */
	b_u64(0x7f0000001000ULL);		/* ADDR */
	b_u64(id);				/* ID */
	b_u64(8);				/* STREAM_ID */
	b_u32(3); b_u32(0);			/* CPU */
	b_u64(250000);				/* PERIOD */
	b_u64(2);				/* READ: group of 2 */
	b_u64(500); b_u64(400);
	b_u64(11); b_u64(id); b_u64(0);
	b_u64(12); b_u64(1234); b_u64(3);
	b_u64(2);				/* CALLCHAIN */
	b_u64((uint64_t)-512); b_u64(0x400123);
	b_u32(4);				/* RAW */
	b_put("\1\2\3\4", 4);
	b_u64(2);				/* BRANCH_STACK */
	b_u64(6);				/* hw_idx */
	fl = 1 | 0 << 1 | 1 << 2 | 0 << 3 | 0xffffULL << 4 | 15ULL << 20 |
	    2ULL << 24 | 9ULL << 26 | 5ULL << 30;
	b_u64(0x1000); b_u64(0x2000); b_u64(fl);
	fl = 1 << 1 | 1 << 3 | 1 << 4;
	b_u64(0x3000); b_u64(0x4000); b_u64(fl);
	b_u64(0x21); b_u64(0x22);		/* counters */
	b_u64(2);				/* REGS_USER: abi, 3 */
	b_u64(0xa0); b_u64(0xa2); b_u64(0xa8);
	b_u64(16);				/* STACK_USER */
	b_put("0123456789abcdef", 16);
	b_u64(12);
	b_u64(77);				/* WEIGHT */
	b_u64(0x1234);				/* DATA_SRC */
	b_u64(5);				/* TRANSACTION */
	b_u64(2);				/* REGS_INTR: abi, 1 */
	b_u64(0xb63);
	b_u64(0xabcd000);			/* PHYS_ADDR */
	b_u64(99);				/* CGROUP */
	b_u64(4096);				/* DATA_PAGE_SIZE */
	b_u64(2 << 20);				/* CODE_PAGE_SIZE */
	b_u64(8);				/* AUX */
	b_put("auxdata!", 8);
	b_end(at);
	return at;
}

static void
test_every_field(void)
{
	const struct t_attr a = { .type = PERF_TYPE_SOFTWARE,
	    .sample_type = all_types, .read_format = PERF_FORMAT_GROUP |
	    PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED |
	    PERF_FORMAT_TOTAL_TIME_RUNNING | PD_FORMAT_LOST,
	    .branch_sample_type = PD_BRANCH_HW_INDEX | PD_BRANCH_COUNTERS,
	    .regs_user = 0x105, .stack_user = 16,
	    .regs_intr = 1ULL << 63 };
	const uint64_t ids[] = { 7 };
	struct pd_evlist el;
	struct pd_rec rec;
	const char *why;
	size_t at, full;
	int r, refused = 0, cuts = 0;

	b_len = 0;
	pd_evlist_init(&el);
	T(add_event(&el, &a, ids, 1) == 0);
	at = sample_all(7);
	rec = b_view(at);
	T(decode(&rec, &el, &why) == 0);
	T(strcmp(seen, all_seen) == 0 ||
	    fprintf(stderr, "got  %s\nwant %s\n", seen, all_seen) < 0);

	/* Every cut of it is refused, with only the event said. */
	full = rec.size;
	for (rec.size = 8; rec.size < full; rec.size++) {
		r = decode(&rec, &el, &why);
		cuts++;
		refused += r == -1 && why != NULL &&
		    strcmp(seen, "event=str:cpu-clock ") == 0;
	}
	T(refused == cuts);
	pd_evlist_free(&el);
}

/* Fields not sampled: absent, the period the event's own. */
static void
test_not_sampled(void)
{
	const struct t_attr a = { .type = PERF_TYPE_HARDWARE,
	    .sample_type = PERF_SAMPLE_IP };
	struct pd_evlist el;
	struct pd_rec rec;
	const char *why;
	size_t at;

	b_len = 0;
	pd_evlist_init(&el);
	T(add_event(&el, &a, NULL, 0) == 0);
	at = b_rec(PERF_RECORD_SAMPLE, 0);
	b_u64(0x1234);
	b_end(at);
	rec = b_view(at);
	T(decode(&rec, &el, &why) == 0);
	T(strcmp(seen, "event=str:cycles time=none:0 cpu=none:0 "
	    "pid=none:1 tid=none:1 ip=x:1234 period=u:4000 addr=none:2 "
	    "id=none:0 callchain=none:8 ") == 0 ||
	    fprintf(stderr, "got %s\n", seen) < 0);
	pd_evlist_free(&el);
}

/* Two events, an id neither has: nothing visited. */
static void
test_unknown_event(void)
{
	const struct t_attr a = { .type = PERF_TYPE_SOFTWARE,
	    .sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP };
	const uint64_t id1 = 1, id2 = 2;
	struct pd_evlist el;
	struct pd_rec rec;
	const char *why;
	size_t at;

	b_len = 0;
	pd_evlist_init(&el);
	T(add_event(&el, &a, &id1, 1) == 0);
	T(add_event(&el, &a, &id2, 1) == 1);
	at = b_rec(PERF_RECORD_SAMPLE, 0);
	b_u64(3);
	b_u64(0x1234);
	b_end(at);
	rec = b_view(at);
	T(decode(&rec, &el, &why) == -1);
	T(why != NULL && strstr(why, "unknown event") != NULL);
	T(nseen == 0);
	pd_evlist_free(&el);
}

static const char tp_fmt[] =
    "name: ev\n"
    "ID: 5\n"
    "format:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
    "\n"
    "\tfield:char comm[8];\toffset:8;\tsize:8;\tsigned:0;\n"
    "\tfield:__data_loc char[] name;\toffset:16;\tsize:4;\tsigned:1;\n"
    "\tfield:unsigned long addr;\toffset:24;\tsize:8;\tsigned:0;\n"
    "\tfield:short arr[3];\toffset:32;\tsize:6;\tsigned:1;\n"
    "\tfield:__data_loc int[] far;\toffset:40;\tsize:4;\tsigned:1;\n"
    "\n"
    "print fmt: \"comm=%s\", REC->comm\n";

static const char tp_seen[] =
    "event=str:sys:ev time=none:0 cpu=none:0 pid=none:1 tid=none:1 "
    "ip=none:2 period=u:4000 addr=none:2 id=none:0 callchain=none:8 "
    "raw{ common_type=u:5 common_pid=s:-3 comm=str:sh "
    "name=str:xyz addr=x:ffff8000 arr[ =s:1 =s:-2 =s:3 ] "
    "far=null } ";

/* A tracepoint's RAW data: 48 bytes, "xyz" at 44, `far` out of bounds. */
static size_t
sample_tp(void)
{
	size_t at = b_rec(PERF_RECORD_SAMPLE, 0), r;

	b_u32(52);
	r = b_len;
	b_zero(52);
	pd_put_u16(b_buf + r, 5);
	pd_put_u32(b_buf + r + 4, (uint32_t)-3);
	memcpy(b_buf + r + 8, "sh", 3);
	pd_put_u32(b_buf + r + 16, 44 | 4 << 16);
	pd_put_u64(b_buf + r + 24, 0xffff8000);
	pd_put_u16(b_buf + r + 32, 1);
	pd_put_u16(b_buf + r + 34, (uint16_t)-2);
	pd_put_u16(b_buf + r + 36, 3);
	pd_put_u32(b_buf + r + 40, 60 | 8 << 16);
	memcpy(b_buf + r + 44, "xyz", 4);
	b_end(at);
	return at;
}

static const struct t_attr tp_attr = { .type = PERF_TYPE_TRACEPOINT,
    .config = 5, .sample_type = PERF_SAMPLE_RAW };

/* Formats given to the events by hand, as the reader gives them. */
static void
test_tracepoint(void)
{
	struct tf_blob tb;
	struct pd_tracefmt *tf = pd_tracefmt_new();
	struct pd_evlist el;
	struct pd_rec rec;
	const char *why;
	size_t at;

	tf_blob_build(&tb, tp_fmt, HOST_BE);
	T(pd_tracefmt_add(tf, tb.b, tb.len, &why) == 0);
	T(pd_tracefmt_finish(tf, &why) == 0);
	b_len = 0;
	pd_evlist_init(&el);
	T(add_event(&el, &tp_attr, NULL, 0) == 0);
	at = sample_tp();
	rec = b_view(at);
	/* without formats: bytes */
	T(decode(&rec, &el, &why) == 0);
	T(strstr(seen, "event=str:tracepoint:5 ") == seen);
	T(strstr(seen, " raw{ size=u:52 data=bytes:0500") != NULL);
	T(pd_evlist_set_tracefmt(&el, tf, 0, 0) == 0);
	T(decode(&rec, &el, &why) == 0);
	T(strcmp(seen, tp_seen) == 0 ||
	    fprintf(stderr, "got  %s\nwant %s\n", seen, tp_seen) < 0);
	pd_evlist_free(&el);
	pd_tracefmt_free(tf);
}

/*
 * The same through a reader: a stream with the blob after a
 * HEADER_TRACING_DATA record, then the sample. The formats are the
 * reader's with PD_RD_TRACEFMT, the payload skipped, not read; a blob
 * that is not one is said. Then in simpleperf's own record.
 */
static void
test_reader_formats(void)
{
	struct tf_blob tb;
	struct pd_reader *rd;
	struct pd_rec rec;
	struct pd_err err;
	const char *why;
	size_t at, pad;
	int fd, flags, bad, sp, n;

	tf_blob_build(&tb, tp_fmt, HOST_BE);
	for (n = 0; n < 6; n++) {
		flags = n % 2 ? PD_RD_TRACEFMT : 0;
		bad = n / 2 == 1;
		sp = n / 2 == 2;
		b_len = 0;
		b_pipe_header();
		b_attr_rec(&tp_attr, NULL, 0);
		pad = (8 - tb.len % 8) % 8;
		if (sp) {
			at = b_rec(PD_RECORD_SIMPLEPERF_TRACING_DATA, 0);
			b_u32(tb.len);
			b_put(tb.b, tb.len);
			b_zero((8 - (tb.len + 4) % 8) % 8);
			b_end(at);
		} else {
			at = b_rec(PD_RECORD_HEADER_TRACING_DATA, 0);
			b_u32(tb.len + pad);
			b_u32(0);
			b_end(at);
			b_put(bad ? (const void *)"not tracing data!" : tb.b,
			    bad ? 17 : tb.len);
			b_zero(bad ? tb.len + pad - 17 : pad);
		}
		sample_tp();
		fd = memfd_create("pdtest", 0);
		T(fd >= 0 && write(fd, b_buf, b_len) == (ssize_t)b_len &&
		    lseek(fd, 0, SEEK_SET) == 0);
		rd = pd_reader_fdopen(fd, "t", flags, &err);
		T(rd != NULL);
		if (rd == NULL)
			continue;
		while (pd_reader_next(rd, &rec) > 0 &&
		    rec.type != PERF_RECORD_SAMPLE)
			;
		T(rec.type == PERF_RECORD_SAMPLE);
		T(decode(&rec, pd_reader_evlist(rd), &why) == 0);
		if (!flags) {
			T(pd_evlist_tracefmt(pd_reader_evlist(rd)) == NULL);
			T(strstr(seen, "raw{ size=u:52 ") != NULL);
		} else if (bad) {
			T(pd_reader_tracefmt_error(rd) != NULL);
			T(strstr(seen, "raw{ size=u:52 ") != NULL);
		} else {
			T(pd_reader_tracefmt_error(rd) == NULL);
			T(strcmp(seen, tp_seen) == 0 ||
			    fprintf(stderr, "got %s\n", seen) < 0);
		}
		pd_reader_close(rd);
		close(fd);
	}
}

/* Record 32777 in the records' walker: its size, not its blob. */
static void
test_simpleperf_record(void)
{
	struct pd_rec rec;
	const char *why;
	size_t at;

	b_len = 0;
	at = b_rec(PD_RECORD_SIMPLEPERF_TRACING_DATA, 0);
	b_u32(5);
	b_put("blob\0\0\0", 8);
	b_end(at);
	rec = b_view(at);
	nseen = 0;
	T(pd_decode_rec(&rec, NULL, &vis, &why) == 0);
	T(strcmp(seen, "data_size=u:5 ") == 0 ||
	    fprintf(stderr, "got %s\n", seen) < 0);
	b_len = 0;
	at = b_rec(PD_RECORD_SIMPLEPERF_TRACING_DATA, 0);
	b_end(at);
	rec = b_view(at);
	nseen = 0;
	T(pd_decode_rec(&rec, NULL, &vis, &why) == 0);
	T(strcmp(seen, "data_size=u:0 ") == 0);
}

int
main(void)
{
	test_every_field();
	test_not_sampled();
	test_unknown_event();
	test_tracepoint();
	test_reader_formats();
	test_simpleperf_record();
	return T_END();
}
