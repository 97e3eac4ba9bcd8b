/* SPDX-License-Identifier: MIT */
/*
 * mkpipe: small synthetic perf.data streams for the tests, by case name,
 * on standard output. Everything is built field by field in the chosen
 * byte order, so a big-endian writer is one flag away. Run it without
 * arguments for the list of cases.
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

#define MAXBUF	(32 << 20)	/* room for the symbolizer's fixtures */

static unsigned char buf[MAXBUF];
static size_t len;
static int be;			/* write as a big-endian machine would */
static size_t fault = (size_t)-1;	/* offset of the bad record */

static void
put(uint64_t v, int n)
{
	int i;

	if (len + n > MAXBUF)
		abort();
	for (i = 0; i < n; i++)
		buf[len + i] = v >> 8 * (be ? n - 1 - i : i);
	len += n;
}

static void p16(uint64_t v) { put(v, 2); }
static void p32(uint64_t v) { put(v, 4); }
static void p64(uint64_t v) { put(v, 8); }

static void
pbytes(const void *p, size_t n)
{
	if (len + n > MAXBUF)
		abort();
	memcpy(buf + len, p, n);
	len += n;
}

static void
pzero(size_t n)
{
	if (len + n > MAXBUF)
		abort();
	memset(buf + len, 0, n);
	len += n;
}

/* A NUL-terminated string padded with zeros to a multiple of `align`. */
static void
pstr(const char *s, size_t align)
{
	size_t n = strlen(s) + 1;

	pbytes(s, n);
	pzero((align - n % align) % align);
}

static void
set(size_t at, uint64_t v, int n)
{
	size_t save = len;

	len = at;
	put(v, n);
	len = save;
}

static size_t
rec_begin(uint32_t type, uint16_t misc)
{
	size_t at = len;

	p32(type);
	p16(misc);
	p16(0);
	return at;
}

static void
rec_end(size_t at)
{
	set(at + 6, len - at, 2);
}

/* Sample layout of the standard event. */
#define ST_IP		(1ULL << 0)
#define ST_TID		(1ULL << 1)
#define ST_TIME		(1ULL << 2)
#define ST_ADDR		(1ULL << 3)
#define ST_READ		(1ULL << 4)
#define ST_CALLCHAIN	(1ULL << 5)
#define ST_ID		(1ULL << 6)
#define ST_CPU		(1ULL << 7)
#define ST_PERIOD	(1ULL << 8)
#define ST_RAW		(1ULL << 10)
#define ST_BRANCH	(1ULL << 11)
#define ST_REGS_USER	(1ULL << 12)
#define ST_STACK_USER	(1ULL << 13)
#define ST_IDENTIFIER	(1ULL << 16)

#define RF_ID		(1ULL << 2)
#define RF_GROUP	(1ULL << 3)

#define BR_HW_INDEX	(1ULL << 17)

/* attr.flags bits, little-endian numbering */
#define FL_DISABLED	(1ULL << 0)
#define FL_SAMPLE_ID_ALL (1ULL << 18)

#define STD_TYPE	(ST_IP | ST_TID | ST_TIME | ST_ID | ST_CPU | ST_PERIOD)

struct attr {
	uint32_t	type;
	uint32_t	size;
	uint64_t	config;
	uint64_t	sample_type;
	uint64_t	read_format;
	uint64_t	flags;
	uint64_t	branch_sample_type;
	uint64_t	regs_user;
	uint32_t	stack_user;
};

/* A big-endian compiler allocates bitfields from the most significant bit. */
static uint64_t
flags_word(uint64_t le)
{
	uint64_t v = 0;
	int i;

	if (!be)
		return le;
	for (i = 0; i < 64; i++)
		if (le >> i & 1)
			v |= 1ULL << (63 - i);
	return v;
}

/* The 128-byte perf_event_attr (VER7, as perf 6.1 writes it). */
static void
pattr(const struct attr *a)
{
	size_t at = len;

	p32(a->type);
	p32(a->size);
	p64(a->config);
	p64(1000);			/* sample_period */
	p64(a->sample_type);
	p64(a->read_format);
	p64(flags_word(a->flags));
	p32(0);				/* wakeup_events */
	p32(0);				/* bp_type */
	p64(0);				/* config1 */
	p64(0);				/* config2 */
	p64(a->branch_sample_type);
	p64(a->regs_user);
	p32(a->stack_user);
	p32(0);				/* clockid */
	pzero(at + (a->size ? a->size : 64) - len);
}

static const struct attr std_attr = {
	.type = 1, .size = 128, .config = 0, .sample_type = STD_TYPE,
	.flags = FL_DISABLED | FL_SAMPLE_ID_ALL,
};

static void
header(void)
{
	pbytes(be ? "2ELIFREP" : "PERFILE2", 8);
	p64(16);
}

static void
attr_rec(const struct attr *a, const uint64_t *ids, int nids)
{
	size_t at = rec_begin(64, 0);
	int i;

	pattr(a);
	for (i = 0; i < nids; i++)
		p64(ids[i]);
	rec_end(at);
}

/* The sample_id_all trailer of the standard event: tid, time, id, cpu. */
static void
trailer(uint64_t time, uint64_t id)
{
	p32(42);
	p32(42);
	p64(time);
	p64(id);
	p32(0);
	p32(0);
}

static void
comm_rec(void)
{
	size_t at = rec_begin(3, 0);

	p32(42);
	p32(42);
	pstr("mkpipe", 8);
	trailer(1000, 11);
	rec_end(at);
}

static void
mmap_rec(void)
{
	size_t at = rec_begin(1, 2);	/* PERF_RECORD_MISC_USER */

	p32(42);
	p32(42);
	p64(0x400000);
	p64(0x1000);
	p64(0);
	pstr("/bin/mkpipe", 8);
	trailer(1001, 11);
	rec_end(at);
}

static void
sample_rec(int i)
{
	size_t at = rec_begin(9, 2);

	p64(0x400100 + 16 * i);		/* ip */
	p32(42);
	p32(42);
	p64(2000 + i);			/* time */
	p64(i % 2 ? 12 : 11);		/* id */
	p32(0);				/* cpu */
	p32(0);
	p64(1);				/* period */
	rec_end(at);
}

static void
finished_round(void)
{
	rec_end(rec_begin(68, 0));
}

static const uint64_t std_ids[] = { 11, 12 };

/* The good stream without its tail records. */
static void
ok_head(void)
{
	header();
	attr_rec(&std_attr, std_ids, 2);
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
	finished_round();
}

/* A HEADER_FEATURE record: HOSTNAME, 84 bytes (not a multiple of 8). */
static void
hostname_feature(void)
{
	size_t at = rec_begin(80, 0);

	p64(3);
	p32(64);
	pstr("mkpipe-host", 64);
	rec_end(at);
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
	static const struct attr a = {
		.type = 1, .size = 128, .config = 0,
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

	header();
	attr_rec(&a, ids, 1);
	at = len;
	fault = at;
	at = rec_begin(9, 2);
	p64(21);			/* identifier */
	p64(0x400100);			/* ip */
	p32(42);
	p32(42);
	p64(3000);			/* time */
	/* read: nr, then {value, id} per member */
	p64(strcmp(bad, "read") == 0 ? 1000 : 1);
	p64(7);
	p64(21);
	/* callchain */
	p64(strcmp(bad, "callchain") == 0 ? 1000 : 2);
	p64(0x400100);
	p64(0x400200);
	/* raw: u32 size, data; 4 + size is a multiple of 8 */
	p32(strcmp(bad, "raw") == 0 ? 4000 : 4);
	p32(0xabcdef);
	/* branch stack: nr, hw_idx, {from, to, flags} */
	p64(strcmp(bad, "branch") == 0 ? 1000 : 1);
	p64(0);
	p64(0x400100);
	p64(0x400200);
	p64(0);
	/* user regs: abi 2 (64-bit), popcount(0x7) = 3 registers */
	p64(2);
	if (strcmp(bad, "regs") == 0) {
		p64(1);
		rec_end(at);
		return;
	}
	for (i = 0; i < 3; i++)
		p64(100 + i);
	/* user stack: size, data, dyn_size */
	if (strcmp(bad, "stack") == 0) {
		p64(4096);
		pzero(16);
		rec_end(at);
		return;
	}
	p64(16);
	pzero(16);
	if (strcmp(bad, "stack-dyn") == 0) {
		rec_end(at);		/* no dyn_size */
		return;
	}
	p64(strcmp(bad, "stack-dyn-big") == 0 ? 17 : 16);
	rec_end(at);
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
	static const struct attr raw_attr = {
		.type = 4, .size = 128, .config = 0x1234,
		.sample_type = STD_TYPE,
		.flags = FL_DISABLED | FL_SAMPLE_ID_ALL,
	};
	size_t ids_at, attrs_at, data_at, data_end, tab_at, f1, f2, f2_end;
	int i;

	pbytes(be ? "2ELIFREP" : "PERFILE2", 8);
	p64(104);
	p64(128 + 16);			/* attr_size */
	pzero(104 - len);		/* sections and bitmap, set below */
	ids_at = len;
	p64(11);
	p64(12);
	attrs_at = len;
	pattr(&raw_attr);
	p64(ids_at);
	p64(16);
	data_at = len;
	comm_rec();
	mmap_rec();
	for (i = 0; i < 3; i++)
		sample_rec(i);
	finished_round();
	data_end = len;
	tab_at = len;
	pzero(2 * 16);
	f1 = len;
	p32(64);
	pstr("mkpipe-host", 64);
	f2 = len;
	p32(1);				/* nr events */
	p32(128);			/* attr size */
	pattr(&raw_attr);
	p32(2);				/* nr ids */
	p32(64);
	pstr("mkpipe-clock", 64);
	p64(11);
	p64(12);
	f2_end = len;
	set(24, attrs_at, 8);
	set(32, 144 * (past_end == 2 ? 8 : 1), 8);
	set(40, data_at, 8);
	set(48, (data_end - data_at) + (past_end == 1 ? 4096 : 0), 8);
	/* feature bitmap: HOSTNAME (3), EVENT_DESC (12), in word 0 */
	set(72, (1ULL << 3) | (1ULL << 12), 8);
	set(tab_at, f1, 8);
	set(tab_at + 8, f2 - f1, 8);
	set(tab_at + 16, f2, 8);
	set(tab_at + 24, f2_end - f2 + (past_end == 3 ? 1 : 0), 8);
	if (past_end == 4)
		set(attrs_at + 128 + 8, 4096 * 8, 8);
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

	at = rec_begin(66, 0);
	p32(0);				/* blob + pad, set below */
	p32(0);
	rec_end(at);
	blob = len;
	pbytes("\027\bDtracing0.6", 14);	/* with its NUL */
	put(be, 1);			/* the blob's own byte order */
	put(8, 1);			/* long size */
	p32(4096);			/* page size */
	pstr("header_page", 1);
	p64(sizeof(hp) - 1);
	pbytes(hp, sizeof(hp) - 1);
	pstr("header_event", 1);
	p64(sizeof(he) - 1);
	pbytes(he, sizeof(he) - 1);
	p32(0);				/* ftrace formats */
	p32(nfmts > 0);			/* systems */
	if (nfmts > 0) {
		pstr("sys", 1);
		p32(nfmts);
		for (i = 0; i < nfmts; i++) {
			p64(strlen(fmts[i]));
			pbytes(fmts[i], strlen(fmts[i]));
		}
	}
	ks = len;
	p32(0);				/* kallsyms size, set below */
	for (i = 0; i < nsyms; i++) {
		snprintf(line, sizeof(line), "ffffffff81%06x T sym_%d\n",
		    i * 16, i);
		pbytes(line, strlen(line));
	}
	set(ks, len - ks - 4, 4);
	p32(0);				/* printk */
	p64(0);				/* cmdlines */
	pzero((8 - (len - blob) % 8) % 8);
	set(at + 8, len - blob, 4);
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
	finished_round();
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
	size_t at = rec_begin(9, 2), i;

	p64(0x400100);			/* ip */
	p32(42);
	p32(42);
	p64(3000);			/* time */
	p64(id);
	p32(0);				/* cpu */
	p32(0);
	p64(1);				/* period */
	p32(n + (8 - (4 + n) % 8) % 8);	/* the pad counts, as perf has it */
	for (i = 0; i < n; i++)		/* bytes: the fields are in order */
		put(raw[i], 1);
	pzero((8 - (4 + n) % 8) % 8);
	rec_end(at);
}

/* RAW data, field by field in the stream's order, into r. */
static size_t
raw_put(unsigned char *r, size_t at, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		r[at + i] = v >> 8 * (be ? n - 1 - i : i);
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
	struct attr tp = {
		.type = 2, .size = 128, .config = 300,
		.sample_type = STD_TYPE | ST_RAW,
		.flags = FL_DISABLED | FL_SAMPLE_ID_ALL,
	};
	unsigned char r[64];
	size_t n;

	header();
	attr_rec(&tp, ids, 1);
	tp.config = 301;
	attr_rec(&tp, dids, 1);
	tp.config = 302;
	attr_rec(&tp, fids, 1);
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
	fault = len;
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
	finished_round();
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
	at = rec_begin(74, 0);		/* CPU_MAP */
	p16(2);				/* RANGE_CPUS */
	put(0, 1);			/* any_cpu */
	put(0, 1);
	p16(0);
	p16(0xffff);
	rec_end(at);
	at = rec_begin(78, 0);		/* EVENT_UPDATE */
	p64(3);				/* CPUS */
	p64(11);			/* id */
	p16(2);
	put(1, 1);
	put(0, 1);
	p16(0);
	p16(0xffff);
	rec_end(at);
	fault = at = rec_begin(74, 0);
	p16(1);				/* MASK */
	p16(2000);			/* nr */
	p16(0xffff);			/* long_size */
	pzero(2);
	for (i = 0; i < 2000; i++)
		p64(~0ULL);
	rec_end(at);
	at = rec_begin(78, 0);
	p64(3);
	p64(11);
	p16(1);
	p16(1);
	p16(1);				/* long_size 1 */
	put(0xff, 1);
	pzero(1);
	rec_end(at);
	sample_rec(0);
	finished_round();
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

	header();
	attr_rec(&std_attr, std_ids, 2);
	at = rec_begin(80, 0);		/* HEADER_FEATURE */
	p64(3);				/* HOSTNAME */
	p32(16);
	pstr("h\xff\"\xc3\xa9", 16);
	rec_end(at);
	at = rec_begin(80, 0);
	p64(12);			/* EVENT_DESC */
	p32(1);				/* nr */
	p32(8);				/* attr_size, < the 64 of VER0 */
	p64(1);
	p32(0);
	p32(0);
	rec_end(at);
	for (i = 0; i < 3; i++) {
		at = rec_begin(78, 0);	/* EVENT_UPDATE */
		p64(1);			/* SCALE */
		p64(11);
		p64(scales[i]);
		rec_end(at);
	}
	at = rec_begin(3, 0);		/* COMM */
	p32(42);
	p32(42);
	pstr("c\xff\"\xc3\xa9", 8);
	trailer(1000, 11);
	rec_end(at);
	at = rec_begin(1, 2);		/* MMAP, a file that is not there */
	p32(42);
	p32(42);
	p64(0x400000);
	p64(0x1000);
	p64(0);
	pstr("/nonexistent/m\xff\"\xc3\xa9", 8);
	trailer(1001, 11);
	rec_end(at);
	for (i = 0; i < 3; i++)
		sample_rec(i);
	finished_round();
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

	header();
	attr_rec(&std_attr, std_ids, 2);
	for (i = 0; i < 16; i++) {
		at = rec_begin(81, 0);	/* COMPRESSED */
		if (i == 0)
			pbytes(frame, sizeof(frame));
		for (j = 0; j < 64; j++)
			pbytes(rle, sizeof(rle));
		rec_end(at);		/* not padded, as perf has it */
	}
}

/*
 * Issue 18 findings 4, 7, 8, 11 (hostile streams): fixtures bigger than
 * the buffer are written out as they go (spill), between records.
 */
static void
spill(void)
{
	size_t at;
	ssize_t n;

	for (at = 0; at < len; at += n)
		if ((n = write(STDOUT_FILENO, buf + at, len - at)) <= 0) {
			perror("mkpipe: write");
			exit(1);
		}
	len = 0;
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

	header();
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
			attr_rec(&std_attr, ids, k);
			k = 0;
			spill();
		}
	}
	for (j = 0; j < 1000; j++) {
		size_t at = rec_begin(9, 2);

		p64(0x400100);
		p32(42);
		p32(42);
		p64(2000 + j);
		p64(first);
		p32(0);
		p32(0);
		p64(1);
		rec_end(at);
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

	header();
	attr_rec(&std_attr, std_ids, 2);
	snprintf(s, sizeof(s), "host%s", e);
	at = rec_begin(80, 0);		/* HEADER_FEATURE: HOSTNAME */
	p64(3);
	p32(64);
	pstr(s, 64);
	rec_end(at);
	snprintf(s, sizeof(s), "cmd%s", e);
	at = rec_begin(80, 0);		/* HEADER_FEATURE: CMDLINE */
	p64(11);
	p32(1);
	p32(64);
	pstr(s, 64);
	rec_end(at);
	snprintf(s, sizeof(s), "ev%s", e);
	at = rec_begin(78, 0);		/* EVENT_UPDATE: NAME */
	p64(2);
	p64(11);
	pstr(s, 8);
	rec_end(at);
	snprintf(s, sizeof(s), "co%s", e);
	at = rec_begin(3, 0);		/* COMM */
	p32(42);
	p32(42);
	pstr(s, 8);
	trailer(1000, 11);
	rec_end(at);
	snprintf(s, sizeof(s), "/nonexistent/lib%s.so", e);
	at = rec_begin(1, 2);		/* MMAP */
	p32(42);
	p32(42);
	p64(0x400000);
	p64(0x1000);
	p64(0);
	pstr(s, 8);
	trailer(1001, 11);
	rec_end(at);
	sample_rec(0);
	finished_round();
}

/*
 * Finding 7: n 16-byte records (SWITCH with a time-only sample_id_all
 * trailer) and no FINISHED_ROUND, their times decreasing ("dec") or
 * random ("rand", a fixed LCG): what makes pdsort's -m cap bite hardest.
 */
static void
tiny(size_t n, int random)
{
	static const struct attr a = {
		.type = 1, .size = 128, .sample_type = ST_TIME,
		.flags = FL_DISABLED | FL_SAMPLE_ID_ALL,
	};
	uint64_t x = 3;
	size_t i, at;

	header();
	attr_rec(&a, NULL, 0);
	for (i = 0; i < n; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		at = rec_begin(14, 0);
		p64(random ? (x >> 34) + 1 : n - i);
		rec_end(at);
		if (len > MAXBUF / 2)
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

	header();
	attr_rec(&std_attr, ids, 2);
	at = rec_begin(80, 0);		/* HEADER_FEATURE: EVENT_DESC */
	p64(12);
	p32(1);				/* nr */
	p32(128);			/* attr size */
	pattr(&std_attr);
	p32(2);				/* nr ids */
	p32(64);
	pstr(name, 64);
	p64(ids[0]);
	p64(ids[1]);
	rec_end(at);
	at = rec_begin(9, 2);
	p64(0x400100);
	p32(42);
	p32(42);
	p64(2000);
	p64(id);
	p32(0);
	p32(0);
	p64(1);
	rec_end(at);
	finished_round();
}

/*
 * Finding 8, trailers: the good stream recorded without sample_id_all
 * (an old kernel): COMM and MMAP end at their strings.
 */
static void
no_sia(void)
{
	struct attr a = std_attr;
	size_t at;
	int i;

	a.flags = FL_DISABLED;
	header();
	attr_rec(&a, std_ids, 2);
	at = rec_begin(3, 0);
	p32(43);
	p32(43);
	pstr("mkpipe-b", 8);
	rec_end(at);
	at = rec_begin(1, 2);
	p32(43);
	p32(43);
	p64(0x500000);
	p64(0x1000);
	p64(0);
	pstr("/usr/lib/x86_64-linux-gnu/libmkpipe-b.so.6", 8);
	rec_end(at);
	for (i = 0; i < 3; i++)
		sample_rec(i);
	finished_round();
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
	p64(n);
	pbytes(f, n);
}

static void
tp_kernel(int b)
{
	static const char pg[] = "field: u64 timestamp;";
	unsigned sw = b ? 374 : 372, wk = b ? 372 : 374;
	struct attr a = std_attr;
	size_t at, blob;

	a.type = 2;			/* PERF_TYPE_TRACEPOINT */
	a.config = sw;
	a.sample_type = STD_TYPE | ST_RAW;
	header();
	attr_rec(&a, std_ids, 2);
	at = rec_begin(66, 0);		/* HEADER_TRACING_DATA */
	p32(0);				/* size, set below */
	p32(0);
	rec_end(at);
	blob = len;
	pbytes("\027\bDtracing0.6", 14);
	put(be, 1);
	put(8, 1);			/* sizeof(long) */
	p32(4096);
	pbytes("header_page", 12);
	p64(sizeof(pg) - 1);
	pbytes(pg, sizeof(pg) - 1);
	pbytes("header_event", 13);
	p64(0);
	p32(0);				/* ftrace formats */
	p32(1);				/* systems */
	pbytes("sched", 6);
	p32(2);
	tp_fmt("sched_switch", sw);
	tp_fmt("sched_wakeup", wk);
	p32(0);				/* kallsyms */
	p32(0);				/* printk formats */
	p64(0);				/* saved cmdlines */
	pzero((8 - (len - blob) % 8) % 8);
	set(at + 8, len - blob, 4);
	at = rec_begin(9, 2);
	p64(0x400100);
	p32(42);
	p32(42);
	p64(2000);
	p64(11);
	p32(0);
	p32(0);
	p64(1);
	p32(12);			/* RAW size: 4 + 12 = 16 */
	put(sw, 2);			/* common_type */
	put(0, 2);
	p32(42);
	p32(7);				/* val */
	rec_end(at);
	finished_round();
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
	p32(pid);
	p32(pid);
	p64(time);
	p64(11);
	p32(0);
	p32(0);
}

/* HOSTNAME and OSRELEASE features of this machine: "from this host". */
static void
host_features(void)
{
	struct utsname u;
	size_t at;

	if (uname(&u) < 0)
		abort();
	at = rec_begin(80, 0);
	p64(3);
	p32(sizeof(u.nodename));
	pstr(u.nodename, sizeof(u.nodename));
	rec_end(at);
	at = rec_begin(80, 0);
	p64(4);
	p32(sizeof(u.release));
	pstr(u.release, sizeof(u.release));
	rec_end(at);
}

static void
sym_comm(uint32_t pid)
{
	size_t at = rec_begin(3, 0);

	p32(pid);
	p32(pid);
	pstr("victim", 8);
	sym_trailer(pid, 0);
	rec_end(at);
}

/* An executable MMAP2 with device and inode. */
static void
sym_mmap2(uint32_t pid, uint64_t start, uint64_t size, const char *path,
    uint64_t ino, uint64_t time)
{
	size_t at = rec_begin(10, 2);

	p32(pid);
	p32(pid);
	p64(start);
	p64(size);
	p64(0);				/* pgoff */
	p32(ino != 0 ? 8 : 0);		/* maj */
	p32(ino != 0 ? 1 : 0);		/* min */
	p64(ino);
	p64(0);				/* ino_generation */
	p32(5);				/* PROT_READ | PROT_EXEC */
	p32(2);				/* MAP_PRIVATE */
	pstr(path, 8);
	sym_trailer(pid, time);
	rec_end(at);
}

static void
sym_sample(uint32_t pid, uint64_t ip, uint64_t time)
{
	size_t at = rec_begin(9, 2);

	p64(ip);
	p32(pid);
	p32(pid);
	p64(time);
	p64(11);
	p32(0);
	p32(0);
	p64(1);
	rec_end(at);
}

static void
sym_head(int host)
{
	header();
	attr_rec(&std_attr, std_ids, 2);
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
	header();
	attr_rec(&std_attr, std_ids, 2);
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
		at = rec_begin(7, 0);
		p32(1000 + i);		/* pid */
		p32(100);		/* ppid */
		p32(1000 + i);		/* tid */
		p32(100);		/* ptid */
		p64(0);			/* time */
		sym_trailer(1000 + i, 0);
		rec_end(at);
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
			at = rec_begin(67, 0x8000);
			p32(-1);		/* pid */
			pbytes("\273\273\273\273\273\273\273\273\273\273"
			    "\273\273\273\273\273\273\273\273\273\273", 20);
			put(20, 1);		/* size */
			pzero(3);
			snprintf(path, sizeof(path), "/other/lib%07d.so", i);
			pstr(path, 8);
			rec_end(at);
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
static const struct attr unwind_attr = {
	.type = 1, .size = 128, .config = 0,
	.sample_type = STD_TYPE | ST_REGS_USER | ST_STACK_USER,
	.flags = FL_DISABLED | FL_SAMPLE_ID_ALL,
	.regs_user = 0xff0fff, .stack_user = 64,
};

/* A sample of unwind_attr: x86_64 user registers and 64 bytes of stack. */
static void
unwind_sample(uint32_t pid, uint64_t time)
{
	size_t at = rec_begin(9, 2);
	int r;

	p64(0x10000000);
	p32(pid);
	p32(pid);
	p64(time);
	p64(11);
	p32(0);
	p32(0);
	p64(1);
	p64(2);			/* abi: 64-bit */
	for (r = 0; r < 20; r++)
		p64(0x10000000);
	p64(64);
	pzero(64);
	p64(64);
	rec_end(at);
}

static void
sym_unwind(int n)
{
	char path[64];
	int i;

	header();
	attr_rec(&unwind_attr, std_ids, 2);
	sym_comm(100);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "/nonexistent/lib%06d.so", i);
		sym_mmap2(100, 0x10000000ULL + 0x10000ULL * i, 0x1000, path, 0,
		    2 * i + 2);
		unwind_sample(100, 2 * i + 3);
		finished_round();
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

	header();
	attr_rec(&unwind_attr, std_ids, 2);
	sym_comm(100);
	for (i = 0; i < n; i++)
		sym_mmap2(100, 0x10000000ULL + 0x1000000ULL * i, 0x1000, path,
		    0, 0);
	for (i = 0; i < m; i++) {
		at = rec_begin(7, 0);
		p32(1000 + i);
		p32(100);
		p32(1000 + i);
		p32(100);
		p64(0);
		sym_trailer(1000 + i, 0);
		rec_end(at);
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
	static const struct attr a = {
		.type = 1, .size = 128, .config = 0,
		.sample_type = STD_TYPE | ST_CALLCHAIN,
		.flags = FL_DISABLED | FL_SAMPLE_ID_ALL,
	};
	const int nr = 8100;
	size_t at;
	int i, k;

	header();
	attr_rec(&a, std_ids, 2);
	sym_comm(100);
	sym_mmap2(100, 0x400000, 0x100000, "/nonexistent", 0, 0);
	for (i = 0; i <= n; i++) {
		at = rec_begin(9, 2);
		p64(0x401000);
		p32(100);
		p32(100);
		p64(i == 0 ? 1ULL << 62 : 10 + (uint64_t)i);
		p64(11);
		p32(0);
		p32(0);
		p64(1);
		p64(nr);
		p64(0xfffffffffffffe00ULL);	/* PERF_CONTEXT_USER */
		for (k = 1; k < nr; k++)
			p64(0x401000 + 16 * k);
		rec_end(at);
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
	finished_round();
	finished_round();
	sym_mmap2(100, 0x400000, 0x100000, "/late-b", 0, 50);
	sym_sample(100, 0x401000, 60);
	finished_round();
	sym_mmap2(100, 0x400000, 0x100000, "/late-c", 0, 80);
	sym_sample(100, 0x401000, 90);
	finished_round();
	sym_sample(100, 0x401000, 70);
	finished_round();
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
	"file-feature-past-end", "file-ids-past-end",
	/* issue 18: findings 1, 2, 10, 12, 13 */
	"tracing-big", "tracing-big-be", "cpumap-hostile", "cpumap-hostile-be",
	"json-hostile", "tp-overlap", "tp-overlap-be", "zstd-ratio-bomb",
	"zstd-ratio-bomb-be",
	/* issue 18 findings 4, 7, 8, 11 */
	"idflood [N]", "esc-strings", "tiny-dec N", "tiny-rand N",
	"named NAME ID", "no-sia", "tp-kernel a|b",
	/* issue 18, findings 3, 5, 6, 9 (the symbolizer) */
	"sym-file PATH...", "sym-perfmap PID", "sym-spellings N PATH",
	"sym-fork N M", "sym-bids N [first]", "sym-inodes N", "sym-unwind N",
	"symq-hold N", "sym-desc N", "sym-unwind-forks N M PATH", "sym-late",
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
		be = 1;
		ok();
	} else if (strcmp(c, "empty") == 0) {
		fault = 0;
	} else if (strcmp(c, "short") == 0) {
		size_t n = argc > 2 ? strtoul(argv[2], NULL, 10) : 8;

		header();
		if (n < 1 || n > 15)
			usage();
		len = n;
		fault = 0;
	} else if (strcmp(c, "bad-magic") == 0) {
		ok();
		memcpy(buf, "PERFILE3", 8);
		fault = 0;
	} else if (strcmp(c, "hdr-size") == 0) {
		ok();
		set(8, 24, 8);
		fault = 8;
	} else if (strcmp(c, "size-lt-8") == 0) {
		ok_head();
		fault = at = rec_begin(9, 0);
		set(at + 6, 4, 2);
		sample_rec(0);
	} else if (strcmp(c, "size-not-8-aligned") == 0) {
		/* FEATURE records are 84 bytes: everything after is unaligned */
		header();
		attr_rec(&std_attr, std_ids, 2);
		hostname_feature();
		comm_rec();
		mmap_rec();
		for (i = 0; i < 3; i++)
			sample_rec(i);
		finished_round();
	} else if (strcmp(c, "truncated-last") == 0) {
		ok_head();
		sample_rec(0);
		fault = len;
		sample_rec(1);
		len -= 5;
	} else if (strcmp(c, "truncated-header") == 0) {
		ok();
		fault = len;
		p16(9);
		put(0, 1);
	} else if (strcmp(c, "trailing-garbage") == 0) {
		static const char text[] = "[ perf record: Woken up 1 times "
		    "to write data ]\n[ perf record: Captured and wrote 0.031 "
		    "MB (null) (7 samples) ]\n";

		ok();
		fault = len;
		pbytes(text, sizeof(text) - 1);
	} else if (strcmp(c, "unknown-type") == 0) {
		ok_head();
		sample_rec(0);
		at = rec_begin(200, 0);	/* type nobody knows, 24 bytes */
		p64(0xdeadbeef);
		p64(0);
		rec_end(at);
		at = rec_begin(32769, 0); /* simpleperf private, 12 bytes */
		p32(7);
		rec_end(at);
		sample_rec(1);
		finished_round();
	} else if (strcmp(c, "auxtrace") == 0 ||
	    strcmp(c, "auxtrace-past-end") == 0) {
		ok_head();
		sample_rec(0);
		fault = at = rec_begin(71, 0);
		p64(24);			/* size of the payload */
		p64(0);				/* offset */
		p64(0x1234);			/* reference */
		p32(0);				/* idx */
		p32(42);			/* tid */
		p32(0);				/* cpu */
		p32(0);
		rec_end(at);
		/* a payload that would read as a record of size 0 */
		p32(9);
		p16(0);
		p16(0);
		p64(0xaaaaaaaaaaaaaaaaULL);
		p64(0x5555555555555555ULL);
		if (c[8] != '\0') {
			len -= 8;
		} else {
			sample_rec(1);
			finished_round();
		}
	} else if (strcmp(c, "tracing-data") == 0 ||
	    strcmp(c, "tracing-data-past-end") == 0) {
		static const char blob[] = "\027\bDtracing0.6";

		ok_head();
		fault = at = rec_begin(66, 0);
		p32(24);			/* blob + pad */
		p32(0);
		rec_end(at);
		pbytes(blob, sizeof(blob));	/* 14 bytes with the NUL */
		pzero(24 - sizeof(blob));
		if (c[12] != '\0') {
			len -= 10;
		} else {
			sample_rec(0);
			finished_round();
		}
	} else if (strcmp(c, "attr-size-big") == 0 ||
	    strcmp(c, "attr-size-0") == 0 ||
	    strcmp(c, "attr-size-odd") == 0) {
		header();
		fault = len;
		attr_rec(&std_attr, std_ids, 2);
		set(fault + 8 + 4, c[10] == 'b' ? 200 : c[10] == '0' ? 0 : 124,
		    4);
		comm_rec();
	} else if (strcmp(c, "too-many-ids") == 0) {
		ok_head();
		fault = at = rec_begin(69, 0);	/* ID_INDEX */
		p64(3);				/* nr, but room for 2 */
		for (i = 0; i < 2; i++) {
			p64(11 + i);		/* id */
			p64(0);			/* idx */
			p64(i);			/* cpu */
			p64(42);		/* tid */
		}
		rec_end(at);
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
	/* issue 18: findings 1, 2, 10, 12, 13 */
	} else if (strcmp(c, "tracing-big") == 0 ||
	    strcmp(c, "tracing-big-be") == 0) {
		be = c[11] != '\0';
		tracing_big();
	} else if (strcmp(c, "cpumap-hostile") == 0 ||
	    strcmp(c, "cpumap-hostile-be") == 0) {
		be = c[14] != '\0';
		cpumap_hostile();
	} else if (strcmp(c, "json-hostile") == 0) {
		json_hostile();
	} else if (strcmp(c, "tp-overlap") == 0 ||
	    strcmp(c, "tp-overlap-be") == 0) {
		be = c[10] != '\0';
		tp_overlap();
	} else if (strcmp(c, "zstd-ratio-bomb") == 0 ||
	    strcmp(c, "zstd-ratio-bomb-be") == 0) {
		be = c[15] != '\0';
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
	} else if (strcmp(c, "no-sia") == 0) {
		no_sia();
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
	for (at = 0; at < len; ) {
		ssize_t n = write(STDOUT_FILENO, buf + at, len - at);

		if (n <= 0) {
			perror("mkpipe: write");
			return 1;
		}
		at += n;
	}
	return 0;
}
