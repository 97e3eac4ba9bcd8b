/* SPDX-License-Identifier: MIT */
/*
 * mkpipe: small synthetic perf.data streams for the tests, by case name,
 * on standard output, through the fixture builder (fixture.h) in the
 * chosen byte order, so a big-endian writer is one flag away. Run it
 * without arguments for the list of cases.
 *
 * The good stream ("ok") is one software event (cpu-clock) with
 * IP|TID|TIME|ID|CPU|PERIOD samples and sample_id_all, two sample ids, a
 * COMM, an MMAP, three SAMPLEs and a FINISHED_ROUND: enough for
 * perf script to print three lines. The bad cases are that stream (or a
 * prefix of it) with one fault; stderr says at which offset, so the tests
 * need not hard-code layouts: "mkpipe -o CASE" prints the fault offset.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "tests/gen/fixture.h"

static struct fx out;		/* the stream, written at the end */
static size_t fault = (size_t)-1;	/* offset of the bad record */

static const struct fx_attr std_attr = {
	.type = 1, .size = 128, .period = 1000, .config = 0,
	.sample_type = STD_TYPE,
	.flags = FL_DISABLED | FL_SAMPLE_ID_ALL,
};

/* The sample_id_all trailer of the standard event: tid, time, id, cpu. */
static void
trailer(uint64_t time, uint64_t id)
{
	fx_trailer(&out, 42, 42, time, id, 0);
}

static void
comm_rec(void)
{
	size_t at = fx_comm(&out, 0, 42, 42, "mkpipe");

	trailer(1000, 11);
	fx_rec_end(&out, at);
}

static void
mmap_rec(void)
{
	size_t at = fx_mmap(&out, 2, 42, 42, 0x400000, 0x1000, 0,
	    "/bin/mkpipe");		/* 2: PERF_RECORD_MISC_USER */

	trailer(1001, 11);
	fx_rec_end(&out, at);
}

static void
sample_rec(int i)
{
	fx_rec_end(&out, fx_sample(&out, 2, 0x400100 + 16 * i, 42, 42,
	    2000 + i, i % 2 ? 12 : 11, 0, 1));
}

static const uint64_t std_ids[] = { 11, 12 };

/* The good stream without its tail records. */
static void
ok_head(void)
{
	fx_pipe_header(&out);
	fx_header_attr(&out, &std_attr, std_ids, 2);
	comm_rec();
	mmap_rec();
}

static void
ok(void)
{
	int i;

	ok_head();
	for (i = 0; i < 3; i++)
		sample_rec(i);
	fx_finished_round(&out);
}

/* A HEADER_FEATURE record: HOSTNAME, 84 bytes (not a multiple of 8). */
static void
hostname_feature(void)
{
	fx_feature_str(&out, 3, "mkpipe-host", 64);	/* HOSTNAME */
}

/*
 * Samples with every variable-length field, for the sample parser: the
 * event has IDENTIFIER|IP|TID|TIME|READ|CALLCHAIN|RAW|BRANCH_STACK|
 * REGS_USER|STACK_USER, a group read with ids, branch hw_idx and three
 * user registers. `bad` names the field to make run past the record.
 */
static void
sample_full(const char *bad)
{
	static const struct fx_attr a = {
		.type = 1, .size = 128, .period = 1000, .config = 0,
		.sample_type = ST_IDENTIFIER | ST_IP | ST_TID | ST_TIME |
		    ST_READ | ST_CALLCHAIN | ST_RAW | ST_BRANCH |
		    ST_REGS_USER | ST_STACK_USER,
		.read_format = RF_GROUP | RF_ID,
		.flags = FL_DISABLED | FL_SAMPLE_ID_ALL,
		.branch_sample_type = BR_HW_INDEX, .regs_user = 0x7,
		.stack_user = 16,
	};
	static const uint64_t ids[] = { 21 };
	size_t at;
	int i;

	fx_pipe_header(&out);
	fx_header_attr(&out, &a, ids, 1);
	at = out.len;
	fault = at;
	at = fx_rec_begin(&out, 9, 2);
	fx_u64(&out, 21);		/* identifier */
	fx_u64(&out, 0x400100);		/* ip */
	fx_u32(&out, 42);
	fx_u32(&out, 42);
	fx_u64(&out, 3000);		/* time */
	/* read: nr, then {value, id} per member */
	fx_u64(&out, strcmp(bad, "read") == 0 ? 1000 : 1);
	fx_u64(&out, 7);
	fx_u64(&out, 21);
	/* callchain */
	fx_u64(&out, strcmp(bad, "callchain") == 0 ? 1000 : 2);
	fx_u64(&out, 0x400100);
	fx_u64(&out, 0x400200);
	/* raw: u32 size, data; 4 + size is a multiple of 8 */
	fx_u32(&out, strcmp(bad, "raw") == 0 ? 4000 : 4);
	fx_u32(&out, 0xabcdef);
	/* branch stack: nr, hw_idx, {from, to, flags} */
	fx_u64(&out, strcmp(bad, "branch") == 0 ? 1000 : 1);
	fx_u64(&out, 0);
	fx_u64(&out, 0x400100);
	fx_u64(&out, 0x400200);
	fx_u64(&out, 0);
	/* user regs: abi 2 (64-bit), popcount(0x7) = 3 registers */
	fx_u64(&out, 2);
	if (strcmp(bad, "regs") == 0) {
		fx_u64(&out, 1);
		fx_rec_end(&out, at);
		return;
	}
	for (i = 0; i < 3; i++)
		fx_u64(&out, 100 + i);
	/* user stack: size, data, dyn_size */
	if (strcmp(bad, "stack") == 0) {
		fx_u64(&out, 4096);
		fx_zero(&out, 16);
		fx_rec_end(&out, at);
		return;
	}
	fx_u64(&out, 16);
	fx_zero(&out, 16);
	if (strcmp(bad, "stack-dyn") == 0) {
		fx_rec_end(&out, at);	/* no dyn_size */
		return;
	}
	fx_u64(&out, strcmp(bad, "stack-dyn-big") == 0 ? 17 : 16);
	fx_rec_end(&out, at);
	if (*bad == '\0')
		fault = (size_t)-1;
}

/*
 * A small file-mode perf.data: the standard event (ids in the file's id
 * array), the good stream's records in the data section, and two
 * features, HOSTNAME and EVENT_DESC (naming the event "mkpipe-clock").
 * `past_end` makes a section run past the end of the file: 1 the data,
 * 2 the attrs, 3 the second feature, 4 the first attr's ids.
 */
static void
file_mode(int past_end)
{
	/*
	 * A raw event: perf's pipe reader names it "raw 0x1234" before it
	 * sees EVENT_DESC, so only an EVENT_UPDATE can carry the name.
	 */
	static const struct fx_attr raw_attr = {
		.type = 4, .size = 128, .period = 1000, .config = 0x1234,
		.sample_type = STD_TYPE,
		.flags = FL_DISABLED | FL_SAMPLE_ID_ALL,
	};
	size_t ids_at, attrs_at, data_at, data_end, tab_at, f1, f2, f2_end;
	int i;

	fx_bytes(&out, out.be ? "2ELIFREP" : "PERFILE2", 8);
	fx_u64(&out, 104);
	fx_u64(&out, 128 + 16);		/* attr_size */
	fx_zero(&out, 104 - out.len);	/* sections and bitmap, set below */
	ids_at = out.len;
	fx_u64(&out, 11);
	fx_u64(&out, 12);
	attrs_at = out.len;
	fx_attr(&out, &raw_attr);
	fx_u64(&out, ids_at);
	fx_u64(&out, 16);
	data_at = out.len;
	comm_rec();
	mmap_rec();
	for (i = 0; i < 3; i++)
		sample_rec(i);
	fx_finished_round(&out);
	data_end = out.len;
	tab_at = out.len;
	fx_zero(&out, 2 * 16);
	f1 = out.len;
	fx_u32(&out, 64);
	fx_str(&out, "mkpipe-host", 64);
	f2 = out.len;
	fx_u32(&out, 1);		/* nr events */
	fx_u32(&out, 128);		/* attr size */
	fx_attr(&out, &raw_attr);
	fx_u32(&out, 2);		/* nr ids */
	fx_u32(&out, 64);
	fx_str(&out, "mkpipe-clock", 64);
	fx_u64(&out, 11);
	fx_u64(&out, 12);
	f2_end = out.len;
	fx_set(&out, 24, attrs_at, 8);
	fx_set(&out, 32, 144 * (past_end == 2 ? 8 : 1), 8);
	fx_set(&out, 40, data_at, 8);
	fx_set(&out, 48, (data_end - data_at) + (past_end == 1 ? 4096 : 0), 8);
	/* feature bitmap: HOSTNAME (3), EVENT_DESC (12), in word 0 */
	fx_set(&out, 72, (1ULL << 3) | (1ULL << 12), 8);
	fx_set(&out, tab_at, f1, 8);
	fx_set(&out, tab_at + 8, f2 - f1, 8);
	fx_set(&out, tab_at + 16, f2, 8);
	fx_set(&out, tab_at + 24, f2_end - f2 + (past_end == 3 ? 1 : 0), 8);
	if (past_end == 4)
		fx_set(&out, attrs_at + 128 + 8, 4096 * 8, 8);
	/* where the reader finds the fault: the field that points past */
	if (past_end == 1)
		fault = 40;
	else if (past_end == 2)
		fault = 24;
	else if (past_end == 3)
		fault = tab_at + 16;
	else if (past_end == 4)
		fault = attrs_at + 128;
}

/*
 * A file-mode perf.data whose one event has n sample ids (one per CPU
 * and thread, as perf record -p of a process with many threads opens),
 * more than one pipe-mode HEADER_ATTR holds when n > 8173: a COMM, then
 * one sample per id, in time order, each from its own thread.
 */
static void
file_ids(unsigned long n)
{
	size_t attrs_at, ids_at, data_at, at;
	unsigned long i;

	fx_bytes(&out, out.be ? "2ELIFREP" : "PERFILE2", 8);
	fx_u64(&out, 104);
	fx_u64(&out, 128 + 16);		/* attr_size */
	fx_zero(&out, 104 - out.len);	/* sections and bitmap, set below */
	ids_at = out.len;
	for (i = 0; i < n; i++)
		fx_u64(&out, 1000 + i);
	attrs_at = out.len;
	fx_attr(&out, &std_attr);
	fx_u64(&out, ids_at);
	fx_u64(&out, 8 * n);
	data_at = out.len;
	at = fx_comm(&out, 0, 42, 42, "mkpipe");
	fx_trailer(&out, 42, 42, 1000, 1000, 0);
	fx_rec_end(&out, at);
	for (i = 0; i < n; i++)
		fx_rec_end(&out, fx_sample(&out, 2, 0x400100, 42, 42 + i % 1000,
		    2000 + i, 1000 + i, 0, 1));
	fx_finished_round(&out);
	fx_set(&out, 24, attrs_at, 8);
	fx_set(&out, 32, 144, 8);
	fx_set(&out, 40, data_at, 8);
	fx_set(&out, 48, out.len - data_at, 8);
}

/* Cases for issue 18 findings 1, 2, 10, 12, 13 (hostile streams). */

/*
 * A HEADER_TRACING_DATA record and its blob, in the stream's order: the
 * event format files `fmts` (all of system "sys"), and `nsyms` lines of
 * kallsyms text to make it as large as a test needs.
 */
static void
tracing_rec(const char *const *fmts, int nfmts, int nsyms)
{
	static const char hp[] = "\tfield: u64 timestamp;\toffset:0;\t"
	    "size:8;\tsigned:0;\n";
	static const char he[] = "# compressed entry header\n";
	char line[64];
	size_t at, blob, ks;
	int i;

	at = fx_rec_begin(&out, 66, 0);
	fx_u32(&out, 0);		/* blob + pad, set below */
	fx_u32(&out, 0);
	fx_rec_end(&out, at);
	blob = out.len;
	fx_bytes(&out, "\027\bDtracing0.6", 14);	/* with its NUL */
	fx_put(&out, out.be, 1);	/* the blob's own byte order */
	fx_put(&out, 8, 1);		/* long size */
	fx_u32(&out, 4096);		/* page size */
	fx_str(&out, "header_page", 1);
	fx_u64(&out, sizeof(hp) - 1);
	fx_bytes(&out, hp, sizeof(hp) - 1);
	fx_str(&out, "header_event", 1);
	fx_u64(&out, sizeof(he) - 1);
	fx_bytes(&out, he, sizeof(he) - 1);
	fx_u32(&out, 0);		/* ftrace formats */
	fx_u32(&out, nfmts > 0);	/* systems */
	if (nfmts > 0) {
		fx_str(&out, "sys", 1);
		fx_u32(&out, nfmts);
		for (i = 0; i < nfmts; i++) {
			fx_u64(&out, strlen(fmts[i]));
			fx_bytes(&out, fmts[i], strlen(fmts[i]));
		}
	}
	ks = out.len;
	fx_u32(&out, 0);		/* kallsyms size, set below */
	for (i = 0; i < nsyms; i++) {
		snprintf(line, sizeof(line), "ffffffff81%06x T sym_%d\n",
		    i * 16, i);
		fx_bytes(&out, line, strlen(line));
	}
	fx_set(&out, ks, out.len - ks - 4, 4);
	fx_u32(&out, 0);		/* printk */
	fx_u64(&out, 0);		/* cmdlines */
	fx_zero(&out, (8 - (out.len - blob) % 8) % 8);
	fx_set(&out, at + 8, out.len - blob, 4);
}

/*
 * A tracing blob of about 600 KiB (its kallsyms text makes it large),
 * more than half the reader's buffer, so that it is streamed and not
 * read with its record: the case of a real `-e 'syscalls:*'` blob.
 */
static void
tracing_big(void)
{
	int i;

	ok_head();
	tracing_rec(NULL, 0, 20000);
	for (i = 0; i < 3; i++)
		sample_rec(i);
	fx_finished_round(&out);
}

#define TP_COMMON \
	"format:\n" \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\t" \
	"signed:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\t" \
	"signed:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\t" \
	"size:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

/* A tracepoint SAMPLE of the standard layout plus RAW (n bytes). */
static void
tp_sample(uint64_t id, const unsigned char *raw, size_t n)
{
	size_t at = fx_sample(&out, 2, 0x400100, 42, 42, 3000, id, 0, 1), i;

	/* the pad counts, as perf has it */
	fx_u32(&out, n + (8 - (4 + n) % 8) % 8);
	for (i = 0; i < n; i++)		/* bytes: the fields are in order */
		fx_put(&out, raw[i], 1);
	fx_zero(&out, (8 - (4 + n) % 8) % 8);
	fx_rec_end(&out, at);
}

/* RAW data, field by field in the stream's order, into r. */
static size_t
raw_put(unsigned char *r, size_t at, uint64_t v, int n)
{
	fx_put_at(r + at, v, n, out.be);
	return at + n;
}

static size_t
raw_common(unsigned char *r, uint16_t type)
{
	size_t at = raw_put(r, 0, type, 2);

	at = raw_put(r, at, 0, 2);
	return raw_put(r, at, 42, 4);
}

/*
 * Tracepoint formats whose fields share bytes, which no conversion can
 * swap both ways (finding 13): sys:ov's u64 a and u32 b at offset 8;
 * sys:dyn's two dynamic arrays, whose data overlap in one record and
 * lie among the fixed fields in another (a third record is fine);
 * sys:fine, converted as usual; and sys:decoy, whose id is sys:ov's
 * byte-swapped, as its RAW data left as they were read on the way back.
 */
static void
tp_overlap(void)
{
	static const char *const fmts[] = {
		"name: ov\nID: 300\n" TP_COMMON
		"\tfield:u64 a;\toffset:8;\tsize:8;\tsigned:0;\n"
		"\tfield:u32 b;\toffset:8;\tsize:4;\tsigned:0;\n\n"
		"print fmt: \"a=%llu\", REC->a\n",
		"name: dyn\nID: 301\n" TP_COMMON
		"\tfield:__data_loc u32[] x;\toffset:8;\tsize:4;\t"
		"signed:0;\n"
		"\tfield:__data_loc u16[] y;\toffset:12;\tsize:4;\t"
		"signed:0;\n\n"
		"print fmt: \"x\"\n",
		"name: fine\nID: 302\n" TP_COMMON
		"\tfield:u32 v;\toffset:8;\tsize:4;\tsigned:0;\n"
		"\tfield:u16 w[2];\toffset:12;\tsize:4;\tsigned:0;\n\n"
		"print fmt: \"v=%u\", REC->v\n",
		/* 300 byte-swapped: sys:ov's common_type, left, read back */
		"name: decoy\nID: 11265\n" TP_COMMON
		"\tfield:u32 p;\toffset:8;\tsize:4;\tsigned:0;\n"
		"\tfield:u16 q;\toffset:12;\tsize:2;\tsigned:0;\n\n"
		"print fmt: \"p=%u\", REC->p\n",
	};
	static const uint64_t ids[] = { 31 }, dids[] = { 32 },
	    fids[] = { 33 };
	struct fx_attr tp = {
		.type = 2, .size = 128, .period = 1000, .config = 300,
		.sample_type = STD_TYPE | ST_RAW,
		.flags = FL_DISABLED | FL_SAMPLE_ID_ALL,
	};
	unsigned char r[64];
	size_t n;

	fx_pipe_header(&out);
	fx_header_attr(&out, &tp, ids, 1);
	tp.config = 301;
	fx_header_attr(&out, &tp, dids, 1);
	tp.config = 302;
	fx_header_attr(&out, &tp, fids, 1);
	tracing_rec(fmts, 4, 0);
	n = raw_common(r, 302);
	n = raw_put(r, n, 0x11223344, 4);
	n = raw_put(r, n, 0x5566, 2);
	n = raw_put(r, n, 0x7788, 2);
	tp_sample(33, r, n);
	n = raw_common(r, 300);
	n = raw_put(r, n, 0x0102030405060708ULL, 8);
	tp_sample(31, r, n);
	/* x: 8 bytes at 16; y: 8 bytes at 18 ("-o": where it starts) */
	fault = out.len;
	n = raw_common(r, 301);
	n = raw_put(r, n, 8 << 16 | 16, 4);
	n = raw_put(r, n, 8 << 16 | 18, 4);
	n = raw_put(r, n, 0xa1a2a3a4, 4);
	n = raw_put(r, n, 0xb1b2b3b4, 4);
	n = raw_put(r, n, 0xc1c2, 2);
	tp_sample(32, r, n);
	/* x: 8 bytes at 4, over common_pid and the descriptors */
	n = raw_common(r, 301);
	n = raw_put(r, n, 8 << 16 | 4, 4);
	n = raw_put(r, n, 0 << 16 | 16, 4);
	tp_sample(32, r, n);
	/* x: 8 bytes at 16; y: 4 bytes at 24: apart, converted */
	n = raw_common(r, 301);
	n = raw_put(r, n, 8 << 16 | 16, 4);
	n = raw_put(r, n, 4 << 16 | 24, 4);
	n = raw_put(r, n, 0xa1a2a3a4, 4);
	n = raw_put(r, n, 0xb1b2b3b4, 4);
	n = raw_put(r, n, 0xc1c2, 2);
	n = raw_put(r, n, 0xd1d2, 2);
	tp_sample(32, r, n);
	fx_finished_round(&out);
}

/*
 * Cpu maps that cost nothing to send and, decoded naively, a lot to
 * print: a CPU_MAP and an EVENT_UPDATE CPUS whose RANGE ends at 0xffff
 * (a u16 counter never passes it), then MASK maps whose long_size is
 * neither 4 nor 8 (0xffff: a shift by 64 and 2^19 bits per word).
 */
static void
cpumap_hostile(void)
{
	size_t at;
	int i;

	ok_head();
	at = fx_rec_begin(&out, 74, 0);	/* CPU_MAP */
	fx_u16(&out, 2);		/* RANGE_CPUS */
	fx_put(&out, 0, 1);		/* any_cpu */
	fx_put(&out, 0, 1);
	fx_u16(&out, 0);
	fx_u16(&out, 0xffff);
	fx_rec_end(&out, at);
	at = fx_rec_begin(&out, 78, 0);	/* EVENT_UPDATE */
	fx_u64(&out, 3);		/* CPUS */
	fx_u64(&out, 11);		/* id */
	fx_u16(&out, 2);
	fx_put(&out, 1, 1);
	fx_put(&out, 0, 1);
	fx_u16(&out, 0);
	fx_u16(&out, 0xffff);
	fx_rec_end(&out, at);
	fault = at = fx_rec_begin(&out, 74, 0);
	fx_u16(&out, 1);		/* MASK */
	fx_u16(&out, 2000);		/* nr */
	fx_u16(&out, 0xffff);		/* long_size */
	fx_zero(&out, 2);
	for (i = 0; i < 2000; i++)
		fx_u64(&out, ~0ULL);
	fx_rec_end(&out, at);
	at = fx_rec_begin(&out, 78, 0);
	fx_u64(&out, 3);
	fx_u64(&out, 11);
	fx_u16(&out, 1);
	fx_u16(&out, 1);
	fx_u16(&out, 1);		/* long_size 1 */
	fx_put(&out, 0xff, 1);
	fx_zero(&out, 1);
	fx_rec_end(&out, at);
	sample_rec(0);
	fx_finished_round(&out);
}

/*
 * Values JSON cannot hold as they are: EVENT_UPDATE scales of NaN, +inf
 * and -inf, an EVENT_DESC whose attr_size (8) ends its walk inside an
 * event, a HOSTNAME, a COMM and an MMAP file name with a byte that
 * starts no UTF-8 sequence, a quote, and a well-formed "\xc3\xa9" that
 * must stay.
 */
static void
json_hostile(void)
{
	static const uint64_t scales[] = {
		0x7ff8000000000000ULL, 0x7ff0000000000000ULL,
		0xfff0000000000000ULL,
	};
	size_t at;
	int i;

	fx_pipe_header(&out);
	fx_header_attr(&out, &std_attr, std_ids, 2);
	fx_feature_str(&out, 3, "h\xff\"\xc3\xa9", 16);	/* HOSTNAME */
	at = fx_rec_begin(&out, 80, 0);
	fx_u64(&out, 12);		/* EVENT_DESC */
	fx_u32(&out, 1);		/* nr */
	fx_u32(&out, 8);		/* attr_size, < the 64 of VER0 */
	fx_u64(&out, 1);
	fx_u32(&out, 0);
	fx_u32(&out, 0);
	fx_rec_end(&out, at);
	for (i = 0; i < 3; i++) {
		at = fx_rec_begin(&out, 78, 0);	/* EVENT_UPDATE */
		fx_u64(&out, 1);	/* SCALE */
		fx_u64(&out, 11);
		fx_u64(&out, scales[i]);
		fx_rec_end(&out, at);
	}
	at = fx_comm(&out, 0, 42, 42, "c\xff\"\xc3\xa9");
	trailer(1000, 11);
	fx_rec_end(&out, at);
	/* a file that is not there */
	at = fx_mmap(&out, 2, 42, 42, 0x400000, 0x1000, 0,
	    "/nonexistent/m\xff\"\xc3\xa9");
	trailer(1001, 11);
	fx_rec_end(&out, at);
	for (i = 0; i < 3; i++)
		sample_rec(i);
	fx_finished_round(&out);
}

/*
 * COMPRESSED records that each stay under the per-record limit but add
 * up (finding 10): one zstd frame, never ended, as perf writes it, of
 * RLE blocks that each give 128 KiB of one byte from 4 (a ratio of
 * 32768). 0x08 bytes read as records of an unknown type and size 2056,
 * in either byte order. 16 records of 64 blocks: 8 MiB each, 128 MiB in
 * all, from about 4 KiB. The zstd data is little-endian in both orders.
 */
static void
zstd_ratio_bomb(void)
{
	static const unsigned char frame[] = {
		0x28, 0xb5, 0x2f, 0xfd,	/* magic */
		0x00,			/* no size, checksum or dictionary */
		0x38,			/* window 128 KiB */
	};
	/* RLE, not last, 131072 bytes: (131072 << 3 | 1 << 1), LE */
	static const unsigned char rle[] = { 0x02, 0x00, 0x10, 0x08 };
	size_t at;
	int i, j;

	fx_pipe_header(&out);
	fx_header_attr(&out, &std_attr, std_ids, 2);
	for (i = 0; i < 16; i++) {
		at = fx_rec_begin(&out, 81, 0);	/* COMPRESSED */
		if (i == 0)
			fx_bytes(&out, frame, sizeof(frame));
		for (j = 0; j < 64; j++)
			fx_bytes(&out, rle, sizeof(rle));
		fx_rec_end(&out, at);	/* not padded, as perf has it */
	}
}

/*
 * Issue 18 findings 4, 7, 8, 11 (hostile streams): fixtures bigger than
 * the buffer are written out as they go (spill), between records.
 */
#define SPILL	(16 << 20)

static void
spill(void)
{
	fx_flush(&out, STDOUT_FILENO);
}

/* The inverse of an odd number modulo 2^64 (Newton's iteration). */
static uint64_t
inv64(uint64_t c)
{
	uint64_t x = c;
	int i;

	for (i = 0; i < 6; i++)
		x *= 2 - c * x;
	return x;
}

/*
 * Finding 4: n ids that the old evlist hash (xorshift 33, times
 * 0xff51afd7ed558ccd, xorshift 33) sent to one slot, then n that pdcat's
 * old table (times the golden ratio, >> 17) did; then samples naming the
 * first id, so that lookups walk the cluster too.
 */
static void
idflood(size_t n)
{
	uint64_t cinv = inv64(0xff51afd7ed558ccdULL);
	uint64_t ginv = inv64(0x9e3779b97f4a7c15ULL);
	uint64_t ids[4096], x, first = 0;
	size_t i, k = 0;
	int j;

	fx_pipe_header(&out);
	for (i = 0; i < 2 * n; i++) {
		if (i < n) {
			x = (uint64_t)(i + 1) << 32;
			x ^= x >> 33;
			x *= cinv;
			x ^= x >> 33;
		} else {
			x = ((uint64_t)(i - n + 1) << 40) * ginv;
		}
		if (i == 0)
			first = x;
		ids[k++] = x;
		if (k == 4096 || i + 1 == 2 * n) {
			fx_header_attr(&out, &std_attr, ids, k);
			k = 0;
			spill();
		}
	}
	for (j = 0; j < 1000; j++) {
		fx_rec_end(&out, fx_sample(&out, 2, 0x400100, 42, 42,
		    2000 + j, first, 0, 1));
	}
}

/*
 * Finding 11: terminal escapes (OSC title, clear screen, a C1 CSI byte)
 * in every string a reader prints: hostname, cmdline, event name, comm
 * and a mapped path, with one sample in that map.
 */
static void
esc_strings(void)
{
	static const char e[] = "\033]0;TITLE\007\033[2J\233m";
	char s[64];
	size_t at;

	fx_pipe_header(&out);
	fx_header_attr(&out, &std_attr, std_ids, 2);
	snprintf(s, sizeof(s), "host%s", e);
	fx_feature_str(&out, 3, s, 64);		/* HOSTNAME */
	snprintf(s, sizeof(s), "cmd%s", e);
	at = fx_rec_begin(&out, 80, 0);	/* HEADER_FEATURE: CMDLINE */
	fx_u64(&out, 11);
	fx_u32(&out, 1);
	fx_u32(&out, 64);
	fx_str(&out, s, 64);
	fx_rec_end(&out, at);
	snprintf(s, sizeof(s), "ev%s", e);
	at = fx_rec_begin(&out, 78, 0);	/* EVENT_UPDATE: NAME */
	fx_u64(&out, 2);
	fx_u64(&out, 11);
	fx_str(&out, s, 8);
	fx_rec_end(&out, at);
	snprintf(s, sizeof(s), "co%s", e);
	at = fx_comm(&out, 0, 42, 42, s);
	trailer(1000, 11);
	fx_rec_end(&out, at);
	snprintf(s, sizeof(s), "/nonexistent/lib%s.so", e);
	at = fx_mmap(&out, 2, 42, 42, 0x400000, 0x1000, 0, s);
	trailer(1001, 11);
	fx_rec_end(&out, at);
	sample_rec(0);
	fx_finished_round(&out);
}

/*
 * no-ip: three samples without an address (no IP, no callchain), of
 * pid 10 tid 11 ("noip"), 1000 each: what the profiles count as
 * [unknown].
 */
static void
no_ip(void)
{
	static const struct fx_attr a = {
		.type = 1, .size = 128, .period = 1000,
		.sample_type = ST_TID | ST_TIME | ST_CPU | ST_PERIOD,
		.flags = FL_DISABLED,
	};
	size_t at;
	int i;

	fx_pipe_header(&out);
	fx_header_attr(&out, &a, NULL, 0);
	fx_rec_end(&out, fx_comm(&out, 0, 10, 11, "noip"));
	for (i = 0; i < 3; i++) {
		at = fx_rec_begin(&out, 9, 2);	/* PERF_RECORD_MISC_USER */
		fx_u32(&out, 10);
		fx_u32(&out, 11);
		fx_u64(&out, 1000 + i);		/* time */
		fx_u32(&out, 0);		/* cpu, res */
		fx_u32(&out, 0);
		fx_u64(&out, 1000);		/* period */
		fx_rec_end(&out, at);
	}
	fx_finished_round(&out);
}

/*
 * Finding 7: n 16-byte records (SWITCH with a time-only sample_id_all
 * trailer) and no FINISHED_ROUND, their times decreasing ("dec") or
 * random ("rand", a fixed LCG): what makes pdsort's -m cap bite hardest.
 */
static void
tiny(size_t n, int random)
{
	static const struct fx_attr a = {
		.type = 1, .size = 128, .period = 1000, .sample_type = ST_TIME,
		.flags = FL_DISABLED | FL_SAMPLE_ID_ALL,
	};
	uint64_t x = 3;
	size_t i, at;

	fx_pipe_header(&out);
	fx_header_attr(&out, &a, NULL, 0);
	for (i = 0; i < n; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		at = fx_rec_begin(&out, 14, 0);
		fx_u64(&out, random ? (x >> 34) + 1 : n - i);
		fx_rec_end(&out, at);
		if (out.len > SPILL)
			spill();
	}
}

/*
 * Finding 8, names: the standard event with ids id and id + 1, named
 * `name` by an EVENT_DESC feature, and one sample.
 */
static void
named(const char *name, uint64_t id)
{
	uint64_t ids[2] = { id, id + 1 };
	size_t at;

	fx_pipe_header(&out);
	fx_header_attr(&out, &std_attr, ids, 2);
	at = fx_rec_begin(&out, 80, 0);	/* HEADER_FEATURE: EVENT_DESC */
	fx_u64(&out, 12);
	fx_u32(&out, 1);		/* nr */
	fx_u32(&out, 128);		/* attr size */
	fx_attr(&out, &std_attr);
	fx_u32(&out, 2);		/* nr ids */
	fx_u32(&out, 64);
	fx_str(&out, name, 64);
	fx_u64(&out, ids[0]);
	fx_u64(&out, ids[1]);
	fx_rec_end(&out, at);
	fx_rec_end(&out, fx_sample(&out, 2, 0x400100, 42, 42, 2000, id, 0, 1));
	fx_finished_round(&out);
}

/*
 * The samples of perf record --off-cpu, as a perf built with BPF writes
 * them: a BPF-output event named "offcpu-time" whose period is the
 * nanoseconds a thread was off CPU, with its stack; three waits of
 * thread 42 ("mkpipe") on one stack: 200 ms, 100 ms and 5 us.
 */
static void
offcpu_time(void)
{
	static const struct fx_attr a = {
		.type = 1, .size = 128, .period = 1,
		.config = 10,		/* PERF_COUNT_SW_BPF_OUTPUT */
		.sample_type = STD_TYPE | ST_CALLCHAIN,
		.flags = FL_DISABLED | FL_SAMPLE_ID_ALL,
	};
	static const uint64_t waits[3] = { 200000000, 100000000, 5000 };
	uint64_t id = 21;
	size_t at;
	int i;

	fx_pipe_header(&out);
	fx_header_attr(&out, &a, &id, 1);
	at = fx_rec_begin(&out, 80, 0);	/* HEADER_FEATURE: EVENT_DESC */
	fx_u64(&out, 12);
	fx_u32(&out, 1);		/* nr */
	fx_u32(&out, 128);		/* attr size */
	fx_attr(&out, &a);
	fx_u32(&out, 1);		/* nr ids */
	fx_u32(&out, 64);
	fx_str(&out, "offcpu-time", 64);
	fx_u64(&out, id);
	fx_rec_end(&out, at);
	at = fx_comm(&out, 0, 42, 42, "mkpipe");
	fx_trailer(&out, 42, 42, 1000, id, 0);
	fx_rec_end(&out, at);
	for (i = 0; i < 3; i++) {
		/* 2: PERF_RECORD_MISC_USER */
		at = fx_sample(&out, 2, 0x400100, 42, 42, 2000 + i, id, 0,
		    waits[i]);
		fx_u64(&out, 3);		/* callchain */
		fx_u64(&out, (uint64_t)-512);	/* PERF_CONTEXT_USER */
		fx_u64(&out, 0x400100);
		fx_u64(&out, 0x400200);
		fx_rec_end(&out, at);
	}
	fx_finished_round(&out);
}

/*
 * Finding 8, trailers: the good stream recorded without sample_id_all
 * (an old kernel): COMM and MMAP end at their strings.
 */
static void
no_sia(void)
{
	struct fx_attr a = std_attr;
	int i;

	a.flags = FL_DISABLED;
	fx_pipe_header(&out);
	fx_header_attr(&out, &a, std_ids, 2);
	fx_rec_end(&out, fx_comm(&out, 0, 43, 43, "mkpipe-b"));
	fx_rec_end(&out, fx_mmap(&out, 2, 43, 43, 0x500000, 0x1000, 0,
	    "/usr/lib/x86_64-linux-gnu/libmkpipe-b.so.6"));
	for (i = 0; i < 3; i++)
		sample_rec(i);
	fx_finished_round(&out);
}

/*
 * Finding 8, tracepoints: a sched_switch event and one sample of it, with
 * tracing data whose formats give sched_switch and sched_wakeup the ids
 * of kernel "a" (372, 374) or of kernel "b" (374, 372).
 */
static void
tp_fmt(const char *name, unsigned id)
{
	char f[512];
	int n;

	n = snprintf(f, sizeof(f), "name: %s\nID: %u\nformat:\n"
	    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;"
	    "\tsigned:0;\n"
	    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	    "\tfield:int val;\toffset:8;\tsize:4;\tsigned:1;\n\n"
	    "print fmt: \"val=%%d\", REC->val\n", name, id);
	fx_u64(&out, n);
	fx_bytes(&out, f, n);
}

static void
tp_kernel(int b)
{
	static const char pg[] = "field: u64 timestamp;";
	unsigned sw = b ? 374 : 372, wk = b ? 372 : 374;
	struct fx_attr a = std_attr;
	size_t at, blob;

	a.type = 2;			/* PERF_TYPE_TRACEPOINT */
	a.config = sw;
	a.sample_type = STD_TYPE | ST_RAW;
	fx_pipe_header(&out);
	fx_header_attr(&out, &a, std_ids, 2);
	at = fx_rec_begin(&out, 66, 0);	/* HEADER_TRACING_DATA */
	fx_u32(&out, 0);		/* size, set below */
	fx_u32(&out, 0);
	fx_rec_end(&out, at);
	blob = out.len;
	fx_bytes(&out, "\027\bDtracing0.6", 14);
	fx_put(&out, out.be, 1);
	fx_put(&out, 8, 1);		/* sizeof(long) */
	fx_u32(&out, 4096);
	fx_bytes(&out, "header_page", 12);
	fx_u64(&out, sizeof(pg) - 1);
	fx_bytes(&out, pg, sizeof(pg) - 1);
	fx_bytes(&out, "header_event", 13);
	fx_u64(&out, 0);
	fx_u32(&out, 0);		/* ftrace formats */
	fx_u32(&out, 1);		/* systems */
	fx_bytes(&out, "sched", 6);
	fx_u32(&out, 2);
	tp_fmt("sched_switch", sw);
	tp_fmt("sched_wakeup", wk);
	fx_u32(&out, 0);		/* kallsyms */
	fx_u32(&out, 0);		/* printk formats */
	fx_u64(&out, 0);		/* saved cmdlines */
	fx_zero(&out, (8 - (out.len - blob) % 8) % 8);
	fx_set(&out, at + 8, out.len - blob, 4);
	at = fx_sample(&out, 2, 0x400100, 42, 42, 2000, 11, 0, 1);
	fx_u32(&out, 12);		/* RAW size: 4 + 12 = 16 */
	fx_put(&out, sw, 2);		/* common_type */
	fx_put(&out, 0, 2);
	fx_u32(&out, 42);
	fx_u32(&out, 7);		/* val */
	fx_rec_end(&out, at);
	fx_finished_round(&out);
}

/*
 * Issue 18, findings 3, 5, 6, 9: streams that make the symbolizer open
 * files, keep many dsos, maps and queued samples, or sync the unwinder
 * often. All use the standard event (ids 11, 12) and pid 100 unless
 * said; sizes come from the arguments so the tests stay small.
 */
static void
sym_trailer(uint32_t pid, uint64_t time)
{
	fx_u32(&out, pid);
	fx_u32(&out, pid);
	fx_u64(&out, time);
	fx_u64(&out, 11);
	fx_u32(&out, 0);
	fx_u32(&out, 0);
}

/* HOSTNAME and OSRELEASE features of this machine: "from this host". */
static void
host_features(void)
{
	struct utsname u;

	if (uname(&u) < 0)
		abort();
	fx_feature_str(&out, 3, u.nodename, sizeof(u.nodename));
	fx_feature_str(&out, 4, u.release, sizeof(u.release));
}

static void
sym_comm(uint32_t pid)
{
	size_t at = fx_comm(&out, 0, pid, pid, "victim");

	sym_trailer(pid, 0);
	fx_rec_end(&out, at);
}

/* An executable MMAP2 with device and inode. */
static void
sym_mmap2(uint32_t pid, uint64_t start, uint64_t size, const char *path,
    uint64_t ino, uint64_t time)
{
	struct pd_record_mmap2 m = {
		.pid = pid, .tid = pid, .start = start, .len = size,
		.maj = ino != 0 ? 8 : 0, .min = ino != 0 ? 1 : 0, .ino = ino,
		.prot = 5, .flags = 2,	/* PROT_READ | PROT_EXEC, MAP_PRIVATE */
		.filename = path,
	};
	size_t at = fx_mmap2(&out, 2, &m);

	sym_trailer(pid, time);
	fx_rec_end(&out, at);
}

static void
sym_sample(uint32_t pid, uint64_t ip, uint64_t time)
{
	fx_rec_end(&out, fx_sample(&out, 2, ip, pid, pid, time, 11, 0, 1));
}

static void
sym_head(int host)
{
	fx_pipe_header(&out);
	fx_header_attr(&out, &std_attr, std_ids, 2);
	if (host)
		host_features();
	sym_comm(100);
}

/* sym-file PATH...: each file mapped, one sample in each. */
static void
sym_file(char **paths, int n)
{
	int i;

	sym_head(0);
	for (i = 0; i < n; i++) {
		sym_mmap2(100, 0x10000000ULL * (i + 1), 0x100000, paths[i], 0,
		    0);
		sym_sample(100, 0x10000000ULL * (i + 1) + 0x1000, 0);
	}
}

/* sym-perfmap PID: a JIT's anonymous map, from this host. */
static void
sym_perfmap(uint32_t pid)
{
	fx_pipe_header(&out);
	fx_header_attr(&out, &std_attr, std_ids, 2);
	host_features();
	sym_comm(pid);
	sym_mmap2(pid, 0x7f0000000000ULL, 0x100000, "//anon", 0, 0);
	sym_sample(pid, 0x7f0000001000ULL, 0);
}


/* sym-spellings N PATH: N spellings of one path ("/./" repeated). */
static void
sym_spellings(int n, const char *path)
{
	char sp[8192];
	int i, k;
	size_t at;

	sym_head(0);
	for (i = 0; i < n; i++) {
		at = 0;
		for (k = 0; k < i && at + 2 < sizeof(sp) / 2; k++) {
			sp[at++] = '/';
			sp[at++] = '.';
		}
		snprintf(sp + at, sizeof(sp) - at, "%s", path);
		sym_mmap2(100, 0x10000000ULL * (i + 1), 0x100000, sp, 0, 0);
		sym_sample(100, 0x10000000ULL * (i + 1) + 0x1000, 0);
	}
}

/* sym-fork N M: N maps in pid 100, then M children forked from it. */
static void
sym_fork(int n, int m)
{
	size_t at;
	int i;

	sym_head(0);
	for (i = 0; i < n; i++)
		sym_mmap2(100, 0x10000000ULL + 0x2000ULL * i, 0x1000, "/x", 0,
		    0);
	for (i = 0; i < m; i++) {
		at = fx_fork(&out, PERF_RECORD_FORK,
		    &(struct pd_record_fork){ .pid = 1000 + i, .ppid = 100,
		    .tid = 1000 + i, .ptid = 100 });
		sym_trailer(1000 + i, 0);
		fx_rec_end(&out, at);
	}
	sym_sample(1000 + m - 1, 0x10000000ULL, 0);
}

/*
 * sym-bids N: N maps, then N HEADER_BUILD_ID records of other paths
 * (or, with "first", the build ids before the maps).
 */
static void
sym_bids(int n, int first)
{
	char path[64];
	size_t at;
	int i, pass;

	sym_head(0);
	for (pass = 0; pass < 2; pass++) {
		if (pass == first) {
			for (i = 0; i < n; i++) {
				snprintf(path, sizeof(path),
				    "/nonexistent/lib%07d.so", i);
				sym_mmap2(100, 0x10000000ULL + 0x10000ULL * i,
				    0x1000, path, 0, 0);
			}
			continue;
		}
		for (i = 0; i < n; i++) {
			at = fx_rec_begin(&out, 67, 0x8000);
			fx_u32(&out, -1);	/* pid */
			fx_bytes(&out,
			    "\273\273\273\273\273\273\273\273\273\273"
			    "\273\273\273\273\273\273\273\273\273\273", 20);
			fx_put(&out, 20, 1);	/* size */
			fx_zero(&out, 3);
			snprintf(path, sizeof(path), "/other/lib%07d.so", i);
			fx_str(&out, path, 8);
			fx_rec_end(&out, at);
		}
	}
	sym_sample(100, 0x10000000ULL, 0);
}

/* sym-inodes N: N maps of one path, each of another inode. */
static void
sym_inodes(int n)
{
	int i;

	sym_head(0);
	for (i = 0; i < n; i++)
		sym_mmap2(100, 0x10000000ULL + 0x10000ULL * i, 0x1000,
		    "/nonexistent/lib.so", 1000 + i, 0);
	sym_sample(100, 0x10000000ULL, 0);
}

/*
 * sym-unwind N: N rounds of a new executable map (of a file that is
 * not there) and a sample with user registers and stack to unwind.
 */
static const struct fx_attr unwind_attr = {
	.type = 1, .size = 128, .period = 1000, .config = 0,
	.sample_type = STD_TYPE | ST_REGS_USER | ST_STACK_USER,
	.flags = FL_DISABLED | FL_SAMPLE_ID_ALL,
	.regs_user = 0xff0fff, .stack_user = 64,
};

/* A sample of unwind_attr: x86_64 user registers and 64 bytes of stack. */
static void
unwind_sample(uint32_t pid, uint64_t time)
{
	size_t at = fx_sample(&out, 2, 0x10000000, pid, pid, time, 11, 0, 1);
	int r;

	fx_u64(&out, 2);		/* abi: 64-bit */
	for (r = 0; r < 20; r++)
		fx_u64(&out, 0x10000000);
	fx_u64(&out, 64);
	fx_zero(&out, 64);
	fx_u64(&out, 64);
	fx_rec_end(&out, at);
}

static void
sym_unwind(int n)
{
	char path[64];
	int i;

	fx_pipe_header(&out);
	fx_header_attr(&out, &unwind_attr, std_ids, 2);
	sym_comm(100);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "/nonexistent/lib%06d.so", i);
		sym_mmap2(100, 0x10000000ULL + 0x10000ULL * i, 0x1000, path, 0,
		    2 * i + 2);
		unwind_sample(100, 2 * i + 3);
		fx_finished_round(&out);
	}
}

/*
 * sym-unwind-forks N M PATH: PATH mapped at N places in pid 100, M
 * children forked from it, then one sample to unwind in each child.
 */
static void
sym_unwind_forks(int n, int m, const char *path)
{
	size_t at;
	int i;

	fx_pipe_header(&out);
	fx_header_attr(&out, &unwind_attr, std_ids, 2);
	sym_comm(100);
	for (i = 0; i < n; i++)
		sym_mmap2(100, 0x10000000ULL + 0x1000000ULL * i, 0x1000, path,
		    0, 0);
	for (i = 0; i < m; i++) {
		at = fx_fork(&out, PERF_RECORD_FORK,
		    &(struct pd_record_fork){ .pid = 1000 + i, .ppid = 100,
		    .tid = 1000 + i, .ptid = 100 });
		sym_trailer(1000 + i, 0);
		fx_rec_end(&out, at);
	}
	for (i = 0; i < m; i++)
		unwind_sample(1000 + i, 0);
}

/*
 * symq-hold N: a sample with a time far ahead, then N samples with
 * long callchains: all of them wait behind the first in stream order.
 */
static void
symq_hold(int n)
{
	static const struct fx_attr a = {
		.type = 1, .size = 128, .period = 1000, .config = 0,
		.sample_type = STD_TYPE | ST_CALLCHAIN,
		.flags = FL_DISABLED | FL_SAMPLE_ID_ALL,
	};
	const int nr = 8100;
	size_t at;
	int i, k;

	fx_pipe_header(&out);
	fx_header_attr(&out, &a, std_ids, 2);
	sym_comm(100);
	sym_mmap2(100, 0x400000, 0x100000, "/nonexistent", 0, 0);
	for (i = 0; i <= n; i++) {
		at = fx_sample(&out, 2, 0x401000, 100, 100,
		    i == 0 ? 1ULL << 62 : 10 + (uint64_t)i, 11, 0, 1);
		fx_u64(&out, nr);
		fx_u64(&out, 0xfffffffffffffe00ULL);	/* PERF_CONTEXT_USER */
		for (k = 1; k < nr; k++)
			fx_u64(&out, 0x401000 + 16 * k);
		fx_rec_end(&out, at);
	}
}

/*
 * sym-late: maps that come late, after a round emptied the queue. perf
 * then starts its max_timestamp afresh, so the round limit drops to 60
 * and the sample at 70, written last, is named with /late-b (mapped at
 * 50), before /late-c (mapped at 80) is applied; a queue that kept the
 * limit at 100 applied /late-c a round early.
 */
static void
sym_late(void)
{
	sym_head(0);
	sym_mmap2(100, 0x400000, 0x100000, "/late-a", 0, 20);
	sym_sample(100, 0x401000, 100);
	fx_finished_round(&out);
	fx_finished_round(&out);
	sym_mmap2(100, 0x400000, 0x100000, "/late-b", 0, 50);
	sym_sample(100, 0x401000, 60);
	fx_finished_round(&out);
	sym_mmap2(100, 0x400000, 0x100000, "/late-c", 0, 80);
	sym_sample(100, 0x401000, 90);
	fx_finished_round(&out);
	sym_sample(100, 0x401000, 70);
	fx_finished_round(&out);
}

/* sym-desc N: N maps of one process, each below the one before. */
static void
sym_desc(int n)
{
	int i;

	sym_head(0);
	for (i = 0; i < n; i++)
		sym_mmap2(100, 0x100000000000ULL - 0x2000ULL * (i + 1), 0x1000,
		    "/x", 0, 0);
	sym_sample(100, 0x100000000000ULL - 0x2000ULL, 0);
	sym_sample(100, 0x100000000000ULL - 0x2000ULL * n, 0);
}

/*
 * pddump-basic: one record of every shape pddump lays out (golden files
 * in tests/cli/pddump): cpu-clock with callchains and ids 7 and 8, a
 * HOSTNAME feature, an exec COMM, a SAMPLE, a type nobody knows and a
 * FINISHED_ROUND.
 */
static void
pddump_basic(void)
{
	static const struct fx_attr a = {
		.type = 1, .size = 128, .period = 4000,
		.sample_type = STD_TYPE | ST_CALLCHAIN,
		.flags = FL_SAMPLE_ID_ALL,
	};
	static const uint64_t ids[] = { 7, 8 };
	size_t at;

	fx_pipe_header(&out);
	fx_header_attr(&out, &a, ids, 2);
	fx_feature_str(&out, 3, "box", 64);		/* HOSTNAME */
	at = fx_comm(&out, 0x2000, 42, 43, "my prog");	/* COMM_EXEC */
	fx_trailer(&out, 42, 43, 1000, 7, 1);
	fx_rec_end(&out, at);
	at = fx_sample(&out, 2, 0x401000, 42, 43, 2000, 8, 1, 4000);
	fx_u64(&out, 2);			/* callchain */
	fx_u64(&out, 0xfffffffffffffe00ULL);	/* PERF_CONTEXT_USER */
	fx_u64(&out, 0x401000);
	fx_rec_end(&out, at);
	at = fx_rec_begin(&out, 200, 0);
	fx_bytes(&out, "\1\2\3\4\5\6\7\10", 8);
	fx_rec_end(&out, at);
	fx_finished_round(&out);
}

/*
 * pdswap-le, pdswap-be [extra]: a tiny stream for the pdswap cases, in
 * either byte order (extra: with a record of an unknown type). pdswap
 * must not check itself: these records come from event.h's build
 * functions and fixture.c's writers, not from pdswap's conversion, so
 * the fixture stays independent of the code it tests.
 */
static void
pdswap_fixture(int extra)
{
	static const struct fx_attr a = {
		.type = 1, .size = 128, .period = 4000,
		.sample_type = STD_TYPE,
		.flags = FL_DISABLED | FL_SAMPLE_ID_ALL, .precise_ip = 2,
		.clockid = 1,
	};
	static const uint64_t ids[] = { 7 };
	struct pd_record_mmap2 m = {
		.pid = 10, .tid = 11, .start = 0x400000, .len = 4096,
		.maj = 8, .min = 1, .ino = 99,
		.prot = 5, .flags = 2,	/* PROT_READ | PROT_EXEC, MAP_PRIVATE */
		.filename = "/bin/ls",
	};
	size_t at;

	fx_pipe_header(&out);
	fx_header_attr(&out, &a, ids, 1);
	at = fx_comm(&out, 0, 10, 11, "ls");
	fx_trailer(&out, 10, 11, 12345, 7, 1);
	fx_rec_end(&out, at);
	at = fx_mmap2(&out, 0, &m);
	fx_trailer(&out, 10, 11, 12345, 7, 1);
	fx_rec_end(&out, at);
	/* 1: PERF_RECORD_MISC_KERNEL */
	fx_rec_end(&out, fx_sample(&out, 1, 0xffffffff81000000ULL, 10, 11,
	    12346, 7, 1, 4000));
	if (extra) {
		at = fx_rec_begin(&out, 100, 0);
		fx_u64(&out, 0x0102030405060708ULL);
		fx_rec_end(&out, at);
	}
	fx_finished_round(&out);
}

/*
 * pddump-lines: samples of every kind of event pddump prints by its
 * line (pddump/evline.c) and of some it does not, beside each other
 * (golden files in tests/cli/pddump, made by the field visitor alone):
 *  1  cpu-clock, IDENTIFIER IP TID TIME CPU PERIOD CALLCHAIN: chains of
 *     2 and 0, pid -1, one 8 bytes longer than its fields, one whose
 *     chain runs past the record; renamed by an EVENT_UPDATE midway;
 *  2  IDENTIFIER IP ADDR STREAM_ID CALLCHAIN, period unsampled, named
 *     "my event=1" (quoted in text);
 *  3  IDENTIFIER TIME ID WEIGHT (a field after the chain), named with
 *     200 bytes, most of them control bytes (the longest escape there
 *     is, laid out);
 *  4  IDENTIFIER IP READ: the visitor's;
 * then event 2 renamed with 230 bytes (longer than a line takes: the
 * visitor's) and a sample of it.
 */
static void
name_event(uint64_t id, const char *name)
{
	size_t at = fx_rec_begin(&out, 78, 0);	/* EVENT_UPDATE */

	fx_u64(&out, 2);			/* NAME */
	fx_u64(&out, id);
	fx_str(&out, name, 8);
	fx_rec_end(&out, at);
}

static void
pddump_lines(void)
{
	static const struct fx_attr a1 = {
		.type = 1, .size = 128, .period = 4000,
		.sample_type = ST_IDENTIFIER | ST_IP | ST_TID | ST_TIME |
		    ST_CPU | ST_PERIOD | ST_CALLCHAIN,
	}, a2 = {
		.type = 1, .size = 128, .period = 1000, .config = 1,
		.sample_type = ST_IDENTIFIER | ST_IP | ST_ADDR |
		    (1ULL << 9) | ST_CALLCHAIN,	/* STREAM_ID */
	}, a3 = {
		.type = 1, .size = 128, .period = 7, .config = 2,
		.sample_type = ST_IDENTIFIER | ST_TIME | ST_ID |
		    (1ULL << 14),			/* WEIGHT */
	}, a4 = {
		.type = 1, .size = 128, .period = 9, .config = 3,
		.sample_type = ST_IDENTIFIER | ST_IP | ST_READ,
		.read_format = RF_ID,
	};
	static const uint64_t i1[] = { 1 }, i2[] = { 2 }, i3[] = { 3 },
	    i4[] = { 4 };
	char long_name[240];
	size_t at;
	int i;

	fx_pipe_header(&out);
	fx_header_attr(&out, &a1, i1, 1);
	fx_header_attr(&out, &a2, i2, 1);
	fx_header_attr(&out, &a3, i3, 1);
	fx_header_attr(&out, &a4, i4, 1);
	name_event(2, "my event=1");
	memset(long_name, 1, sizeof(long_name));
	memcpy(long_name, "ctl", 3);
	long_name[200] = '\0';
	name_event(3, long_name);
	for (i = 0; i < 2; i++) {
		at = fx_rec_begin(&out, 9, 2);		/* SAMPLE, user */
		fx_u64(&out, 1);
		fx_u64(&out, 0x401000 + i);
		fx_u32(&out, i ? 0xffffffff : 42);	/* pid */
		fx_u32(&out, 43);
		fx_u64(&out, 1000 + i);
		fx_u32(&out, 1);
		fx_u32(&out, 0);
		fx_u64(&out, 4000);
		fx_u64(&out, i ? 0 : 2);		/* callchain */
		if (!i) {
			fx_u64(&out, 0xfffffffffffffe00ULL);
			fx_u64(&out, 0x401000);
		}
		fx_rec_end(&out, at);
	}
	at = fx_rec_begin(&out, 9, 2);
	fx_u64(&out, 2);
	fx_u64(&out, 0xffffffff81000000ULL);
	fx_u64(&out, 0xdead0000);		/* addr */
	fx_u64(&out, 77);			/* stream_id */
	fx_u64(&out, 1);
	fx_u64(&out, 0xffffffff81000000ULL);
	fx_rec_end(&out, at);
	at = fx_rec_begin(&out, 9, 0);
	fx_u64(&out, 3);
	fx_u64(&out, 2000);
	fx_u64(&out, 3);			/* ID */
	fx_u64(&out, 12);			/* weight */
	fx_rec_end(&out, at);
	at = fx_rec_begin(&out, 9, 0);
	fx_u64(&out, 4);
	fx_u64(&out, 0x402000);
	fx_u64(&out, 5);			/* read: value, id */
	fx_u64(&out, 4);
	fx_rec_end(&out, at);
	fx_finished_round(&out);
	name_event(1, "renamed");
	/* 8 bytes past its fields: parsed, not laid out */
	at = fx_rec_begin(&out, 9, 2);
	fx_u64(&out, 1);
	fx_u64(&out, 0x401100);
	fx_u32(&out, 42);
	fx_u32(&out, 43);
	fx_u64(&out, 3000);
	fx_u32(&out, 0);
	fx_u32(&out, 0);
	fx_u64(&out, 4000);
	fx_u64(&out, 1);
	fx_u64(&out, 0x401100);
	fx_u64(&out, 0x1234);
	fx_rec_end(&out, at);
	memset(long_name, 'x', sizeof(long_name));
	long_name[3] = '\t';
	long_name[230] = '\0';
	name_event(2, long_name);
	at = fx_rec_begin(&out, 9, 1);
	fx_u64(&out, 2);
	fx_u64(&out, 0xffffffff81000010ULL);
	fx_u64(&out, 0xdead0010);
	fx_u64(&out, 78);
	fx_u64(&out, 0);
	fx_rec_end(&out, at);
	/* a chain that runs past the record */
	at = fx_rec_begin(&out, 9, 2);
	fx_u64(&out, 1);
	fx_u64(&out, 0x401200);
	fx_u32(&out, 42);
	fx_u32(&out, 43);
	fx_u64(&out, 3001);
	fx_u32(&out, 0);
	fx_u32(&out, 0);
	fx_u64(&out, 4000);
	fx_u64(&out, 9);
	fx_u64(&out, 0x401200);
	fx_rec_end(&out, at);
	fx_finished_round(&out);
}

static const char *const cases[] = {
	"ok", "ok-be", "empty", "short N", "bad-magic", "hdr-size",
	"size-lt-8", "size-not-8-aligned", "truncated-last",
	"truncated-header", "trailing-garbage", "unknown-type", "auxtrace",
	"tracing-data", "attr-size-big", "attr-size-0", "attr-size-odd",
	"too-many-ids", "auxtrace-past-end", "tracing-data-past-end",
	"sample-full", "sample-callchain", "sample-branch", "sample-raw",
	"sample-regs", "sample-stack", "sample-stack-dyn",
	"sample-stack-dyn-big", "sample-read", "file-mode",
	"file-section-past-end", "file-attrs-past-end",
	"file-feature-past-end", "file-ids-past-end", "file-ids N",
	/* issue 18: findings 1, 2, 10, 12, 13 */
	"tracing-big", "tracing-big-be", "cpumap-hostile", "cpumap-hostile-be",
	"json-hostile", "tp-overlap", "tp-overlap-be", "zstd-ratio-bomb",
	"zstd-ratio-bomb-be",
	/* issue 18 findings 4, 7, 8, 11 */
	"idflood [N]", "esc-strings", "tiny-dec N", "tiny-rand N",
	"named NAME ID", "no-sia", "no-ip", "tp-kernel a|b", "offcpu-time",
	/* issue 18, findings 3, 5, 6, 9 (the symbolizer) */
	"sym-file PATH...", "sym-perfmap PID", "sym-spellings N PATH",
	"sym-fork N M", "sym-bids N [first]", "sym-inodes N", "sym-unwind N",
	"symq-hold N", "sym-desc N", "sym-unwind-forks N M PATH", "sym-late",
	/* the pddump and pdswap cases */
	"pddump-basic", "pddump-lines", "pddump-truncated", "pdswap-le [extra]",
	"pdswap-be [extra]",
	NULL
};

static void
usage(void)
{
	int i;

	fputs("usage: mkpipe [-o] case [arg]\n"
	    "  -o  print the offset of the faulty record (hex) instead\n"
	    "cases:", stderr);
	for (i = 0; cases[i] != NULL; i++)
		fprintf(stderr, " %s", cases[i]);
	fputc('\n', stderr);
	exit(2);
}

int
main(int argc, char **argv)
{
	const char *c;
	int show_off = 0, i;
	size_t at;

	if (argc > 1 && strcmp(argv[1], "-o") == 0) {
		show_off = 1;
		argc--;
		argv++;
	}
	if (argc < 2)
		usage();
	c = argv[1];
	if (strcmp(c, "ok") == 0) {
		ok();
	} else if (strcmp(c, "ok-be") == 0) {
		fx_set_be(&out, 1);
		ok();
	} else if (strcmp(c, "empty") == 0) {
		fault = 0;
	} else if (strcmp(c, "short") == 0) {
		size_t n = argc > 2 ? strtoul(argv[2], NULL, 10) : 8;

		fx_pipe_header(&out);
		if (n < 1 || n > 15)
			usage();
		out.len = n;
		fault = 0;
	} else if (strcmp(c, "bad-magic") == 0) {
		ok();
		memcpy(out.buf, "PERFILE3", 8);
		fault = 0;
	} else if (strcmp(c, "hdr-size") == 0) {
		ok();
		fx_set(&out, 8, 24, 8);
		fault = 8;
	} else if (strcmp(c, "size-lt-8") == 0) {
		ok_head();
		fault = at = fx_rec_begin(&out, 9, 0);
		fx_set(&out, at + 6, 4, 2);
		sample_rec(0);
	} else if (strcmp(c, "size-not-8-aligned") == 0) {
		/* FEATURE records are 84 bytes: everything after is unaligned */
		fx_pipe_header(&out);
		fx_header_attr(&out, &std_attr, std_ids, 2);
		hostname_feature();
		comm_rec();
		mmap_rec();
		for (i = 0; i < 3; i++)
			sample_rec(i);
		fx_finished_round(&out);
	} else if (strcmp(c, "truncated-last") == 0) {
		ok_head();
		sample_rec(0);
		fault = out.len;
		sample_rec(1);
		out.len -= 5;
	} else if (strcmp(c, "truncated-header") == 0) {
		ok();
		fault = out.len;
		fx_u16(&out, 9);
		fx_put(&out, 0, 1);
	} else if (strcmp(c, "trailing-garbage") == 0) {
		static const char text[] = "[ perf record: Woken up 1 times "
		    "to write data ]\n[ perf record: Captured and wrote 0.031 "
		    "MB (null) (7 samples) ]\n";

		ok();
		fault = out.len;
		fx_bytes(&out, text, sizeof(text) - 1);
	} else if (strcmp(c, "unknown-type") == 0) {
		ok_head();
		sample_rec(0);
		/* a type nobody knows, 24 bytes */
		at = fx_rec_begin(&out, 200, 0);
		fx_u64(&out, 0xdeadbeef);
		fx_u64(&out, 0);
		fx_rec_end(&out, at);
		/* simpleperf private, 12 bytes */
		at = fx_rec_begin(&out, 32769, 0);
		fx_u32(&out, 7);
		fx_rec_end(&out, at);
		sample_rec(1);
		fx_finished_round(&out);
	} else if (strcmp(c, "auxtrace") == 0 ||
	    strcmp(c, "auxtrace-past-end") == 0) {
		ok_head();
		sample_rec(0);
		fault = at = fx_rec_begin(&out, 71, 0);
		fx_u64(&out, 24);	/* size of the payload */
		fx_u64(&out, 0);	/* offset */
		fx_u64(&out, 0x1234);	/* reference */
		fx_u32(&out, 0);	/* idx */
		fx_u32(&out, 42);	/* tid */
		fx_u32(&out, 0);	/* cpu */
		fx_u32(&out, 0);
		fx_rec_end(&out, at);
		/* a payload that would read as a record of size 0 */
		fx_u32(&out, 9);
		fx_u16(&out, 0);
		fx_u16(&out, 0);
		fx_u64(&out, 0xaaaaaaaaaaaaaaaaULL);
		fx_u64(&out, 0x5555555555555555ULL);
		if (c[8] != '\0') {
			out.len -= 8;
		} else {
			sample_rec(1);
			fx_finished_round(&out);
		}
	} else if (strcmp(c, "tracing-data") == 0 ||
	    strcmp(c, "tracing-data-past-end") == 0) {
		static const char blob[] = "\027\bDtracing0.6";

		ok_head();
		fault = at = fx_rec_begin(&out, 66, 0);
		fx_u32(&out, 24);	/* blob + pad */
		fx_u32(&out, 0);
		fx_rec_end(&out, at);
		/* 14 bytes with the NUL */
		fx_bytes(&out, blob, sizeof(blob));
		fx_zero(&out, 24 - sizeof(blob));
		if (c[12] != '\0') {
			out.len -= 10;
		} else {
			sample_rec(0);
			fx_finished_round(&out);
		}
	} else if (strcmp(c, "attr-size-big") == 0 ||
	    strcmp(c, "attr-size-0") == 0 ||
	    strcmp(c, "attr-size-odd") == 0) {
		fx_pipe_header(&out);
		fault = out.len;
		fx_header_attr(&out, &std_attr, std_ids, 2);
		fx_set(&out, fault + 8 + 4,
		    c[10] == 'b' ? 200 : c[10] == '0' ? 0 : 124, 4);
		comm_rec();
	} else if (strcmp(c, "too-many-ids") == 0) {
		ok_head();
		fault = at = fx_rec_begin(&out, 69, 0);	/* ID_INDEX */
		fx_u64(&out, 3);	/* nr, but room for 2 */
		for (i = 0; i < 2; i++) {
			fx_u64(&out, 11 + i);	/* id */
			fx_u64(&out, 0);	/* idx */
			fx_u64(&out, i);	/* cpu */
			fx_u64(&out, 42);	/* tid */
		}
		fx_rec_end(&out, at);
		sample_rec(0);
	} else if (strncmp(c, "sample-", 7) == 0) {
		if (strcmp(c + 7, "full") == 0)
			sample_full("");
		else
			sample_full(c + 7);
	} else if (strcmp(c, "file-mode") == 0) {
		file_mode(0);
	} else if (strcmp(c, "file-section-past-end") == 0) {
		file_mode(1);
	} else if (strcmp(c, "file-attrs-past-end") == 0) {
		file_mode(2);
	} else if (strcmp(c, "file-feature-past-end") == 0) {
		file_mode(3);
	} else if (strcmp(c, "file-ids-past-end") == 0) {
		file_mode(4);
	} else if (strcmp(c, "file-ids") == 0 && argc > 2) {
		file_ids(strtoul(argv[2], NULL, 10));
	/* issue 18: findings 1, 2, 10, 12, 13 */
	} else if (strcmp(c, "tracing-big") == 0 ||
	    strcmp(c, "tracing-big-be") == 0) {
		fx_set_be(&out, c[11] != '\0');
		tracing_big();
	} else if (strcmp(c, "cpumap-hostile") == 0 ||
	    strcmp(c, "cpumap-hostile-be") == 0) {
		fx_set_be(&out, c[14] != '\0');
		cpumap_hostile();
	} else if (strcmp(c, "json-hostile") == 0) {
		json_hostile();
	} else if (strcmp(c, "tp-overlap") == 0 ||
	    strcmp(c, "tp-overlap-be") == 0) {
		fx_set_be(&out, c[10] != '\0');
		tp_overlap();
	} else if (strcmp(c, "zstd-ratio-bomb") == 0 ||
	    strcmp(c, "zstd-ratio-bomb-be") == 0) {
		fx_set_be(&out, c[15] != '\0');
		zstd_ratio_bomb();
	/* issue 18 findings 4, 7, 8, 11 */
	} else if (strcmp(c, "idflood") == 0) {
		idflood(argc > 2 ? strtoul(argv[2], NULL, 10) : 200000);
	} else if (strcmp(c, "esc-strings") == 0) {
		esc_strings();
	} else if (strcmp(c, "tiny-dec") == 0 && argc > 2) {
		tiny(strtoul(argv[2], NULL, 10), 0);
	} else if (strcmp(c, "tiny-rand") == 0 && argc > 2) {
		tiny(strtoul(argv[2], NULL, 10), 1);
	} else if (strcmp(c, "named") == 0 && argc > 3) {
		named(argv[2], strtoull(argv[3], NULL, 10));
	} else if (strcmp(c, "offcpu-time") == 0) {
		offcpu_time();
	} else if (strcmp(c, "no-sia") == 0) {
		no_sia();
	} else if (strcmp(c, "no-ip") == 0) {
		no_ip();
	} else if (strcmp(c, "tp-kernel") == 0 && argc > 2) {
		tp_kernel(strcmp(argv[2], "b") == 0);
	/* issue 18, findings 3, 5, 6, 9 (the symbolizer) */
	} else if (strcmp(c, "sym-file") == 0 && argc > 2) {
		sym_file(argv + 2, argc - 2);
	} else if (strcmp(c, "sym-perfmap") == 0 && argc > 2) {
		sym_perfmap(strtoul(argv[2], NULL, 10));
	} else if (strcmp(c, "sym-spellings") == 0 && argc > 3) {
		sym_spellings(atoi(argv[2]), argv[3]);
	} else if (strcmp(c, "sym-fork") == 0 && argc > 3) {
		sym_fork(atoi(argv[2]), atoi(argv[3]));
	} else if (strcmp(c, "sym-bids") == 0 && argc > 2) {
		sym_bids(atoi(argv[2]), argc > 3);
	} else if (strcmp(c, "sym-inodes") == 0 && argc > 2) {
		sym_inodes(atoi(argv[2]));
	} else if (strcmp(c, "sym-unwind") == 0 && argc > 2) {
		sym_unwind(atoi(argv[2]));
	} else if (strcmp(c, "symq-hold") == 0 && argc > 2) {
		symq_hold(atoi(argv[2]));
	} else if (strcmp(c, "sym-late") == 0) {
		sym_late();
	/* the pddump and pdswap cases' fixtures */
	} else if (strcmp(c, "pddump-basic") == 0) {
		pddump_basic();
	} else if (strcmp(c, "pddump-lines") == 0) {
		pddump_lines();
	} else if (strcmp(c, "pddump-truncated") == 0) {
		pddump_basic();
		out.len -= 20;		/* inside the unknown record's header */
	} else if (strcmp(c, "pdswap-le") == 0 ||
	    strcmp(c, "pdswap-be") == 0) {
		fx_set_be(&out, c[7] == 'b');
		pdswap_fixture(argc > 2 && strcmp(argv[2], "extra") == 0);
	} else if (strcmp(c, "sym-desc") == 0 && argc > 2) {
		sym_desc(atoi(argv[2]));
	} else if (strcmp(c, "sym-unwind-forks") == 0 && argc > 4) {
		sym_unwind_forks(atoi(argv[2]), atoi(argv[3]), argv[4]);
	} else {
		usage();
	}
	if (show_off) {
		if (fault == (size_t)-1)
			return 1;
		printf("0x%zx\n", fault);
		return 0;
	}
	fx_flush(&out, STDOUT_FILENO);
	return 0;
}
