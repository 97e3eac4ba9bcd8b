/* SPDX-License-Identifier: MIT */
/*
 * The reader: pipe streams from a pipe and a file, unaligned records,
 * out-of-band payloads (read in chunks or skipped), errors with their
 * offsets, attr tracking, and file mode shown as the pipe stream
 * (attrs, features, event names, tracing data, build ids, then data),
 * including simpleperf's in-record tracing data.
 */
#include "libcommon/stream/reader.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>

#include "libcommon/stream/evlist.h"
#include "libcommon/stream/perf.h"
#include "tests/unit/rec.h"
#include "tests/unit/t.h"

/* The buffer's bytes as a readable, seekable descriptor. */
static int
as_file(void)
{
	int fd = memfd_create("pdtest", 0);

	if (fd < 0 || write(fd, b_buf, b_len) != (ssize_t)b_len ||
	    lseek(fd, 0, SEEK_SET) != 0)
		abort();
	return fd;
}

/* The buffer's bytes behind a pipe (at most a pipe buffer's worth). */
static int
as_pipe(void)
{
	int p[2];

	if (b_len > 60000 || pipe(p) < 0 ||
	    write(p[1], b_buf, b_len) != (ssize_t)b_len)
		abort();
	close(p[1]);
	return p[0];
}

static const struct t_attr std = { .type = 1, .flags = PD_ATTR_SAMPLE_ID_ALL,
    .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
    PERF_SAMPLE_ID };
static const uint64_t std_ids[] = { 7, 8 };

static size_t
sample(uint64_t id)
{
	size_t at = b_rec(PERF_RECORD_SAMPLE, 0);

	b_u64(0x10);
	b_u32(1); b_u32(1);
	b_u64(100);
	b_u64(id);
	b_end(at);
	return at;
}

/* HOSTNAME as a FEATURE record: 84 bytes, so what follows is unaligned. */
static size_t
feature(void)
{
	size_t at = b_rec(PD_RECORD_HEADER_FEATURE, 0);

	b_u64(PD_FEAT_HOSTNAME);
	b_u32(64);
	b_str("host", 64);
	b_end(at);
	return at;
}

static void
test_pipe(int use_pipe)
{
	size_t s1, f, aux, td, s2, unk, end;
	struct pd_reader *rd;
	struct pd_err err;
	struct pd_rec rec;
	const unsigned char *p;
	ssize_t n;
	uint64_t got;
	int fd;

	b_len = 0;
	b_pipe_header();
	b_attr_rec(&std, std_ids, 2);
	s1 = sample(7);
	f = feature();
	aux = b_rec(PD_RECORD_AUXTRACE, 0);
	b_u64(4000);			/* payload size */
	b_zero(32);
	b_end(aux);
	b_zero(4000);			/* zeros: a header of size 0 */
	td = b_rec(PD_RECORD_HEADER_TRACING_DATA, 0);
	b_u32(16);
	b_u32(0);
	b_end(td);
	b_put("\027\bDtracing0.6\0\0", 16);
	s2 = sample(8);
	unk = b_rec(1000, 0);
	b_u64(1);
	b_end(unk);
	end = b_len;

	fd = use_pipe ? as_pipe() : as_file();
	rd = pd_reader_fdopen(fd, "in", 0, &err);
	T(rd != NULL);
	if (rd == NULL)
		return;
	T(!pd_reader_is_file(rd) && !pd_reader_swapped(rd));
	T(pd_reader_next(rd, &rec) == 1 && rec.type == PD_RECORD_HEADER_ATTR &&
	    rec.offset == 16 && rec.size == 8 + 128 + 16);
	T(pd_reader_evlist(rd)->n == 1);
	T(pd_evlist_by_id(pd_reader_evlist(rd), 8) != NULL);
	T(pd_reader_next(rd, &rec) == 1 && rec.type == PERF_RECORD_SAMPLE &&
	    rec.offset == s1 && memcmp(rec.data, b_buf + s1, rec.size) == 0);
	T(pd_reader_next(rd, &rec) == 1 && rec.offset == f && rec.size == 84);
	T(pd_reader_next(rd, &rec) == 1 && rec.type == PD_RECORD_AUXTRACE &&
	    rec.offset == aux && rec.payload == 4000);
	/* Read part of the payload; the rest is skipped by the next call. */
	n = pd_reader_payload(rd, &p);
	T(n > 0 && n <= 4000 && p[0] == 0);
	T(pd_reader_next(rd, &rec) == 1 &&
	    rec.type == PD_RECORD_HEADER_TRACING_DATA && rec.offset == td &&
	    rec.payload == 16);
	for (got = 0; (n = pd_reader_payload(rd, &p)) > 0; got += n)
		if (got == 0)
			T(memcmp(p, "\027\bDtracing", 10) == 0);
	T(n == 0 && got == 16);
	T(pd_reader_next(rd, &rec) == 1 && rec.offset == s2 &&
	    pd_get_u64(rec.data + 32) == 8);
	T(pd_reader_next(rd, &rec) == 1 && rec.type == 1000 &&
	    rec.offset == unk && rec.offset + rec.size == end);
	T(pd_reader_next(rd, &rec) == 0);
	T(pd_reader_next(rd, &rec) == 0);
	pd_reader_close(rd);
	close(fd);
}

/* open -> next until the error; the error's offset and text. */
static int
fails_at(uint64_t off, const char *text)
{
	struct pd_reader *rd;
	struct pd_err err;
	struct pd_rec rec;
	const unsigned char *p;
	int fd = as_file(), r;

	rd = pd_reader_fdopen(fd, "in", 0, &err);
	if (rd != NULL) {
		while ((r = pd_reader_next(rd, &rec)) > 0)
			while (pd_reader_payload(rd, &p) > 0)
				;
		err = *pd_reader_err(rd);
		/* err.input points into the reader: check it while it lives */
		if (strcmp(err.input, "in") != 0)
			err.offset = UINT64_MAX;
		err.input = "in";
		pd_reader_close(rd);
		if (r == 0) {
			close(fd);
			fprintf(stderr, "no error, wanted '%s'\n", text);
			return 0;
		}
	}
	close(fd);
	if (err.offset != off || strstr(err.msg, text) == NULL ||
	    strcmp(err.input, "in") != 0) {
		fprintf(stderr, "%s: 0x%llx %s, wanted 0x%llx %s\n", err.input,
		    (unsigned long long)err.offset, err.msg,
		    (unsigned long long)off, text);
		return 0;
	}
	return 1;
}

static void
test_errors(void)
{
	size_t at;

	b_len = 0;
	T(fails_at(0, "empty input"));
	b_pipe_header();
	b_len = 9;
	T(fails_at(0, "too short"));
	b_len = 0;
	b_put("PERFILE3", 8);
	b_u64(16);
	T(fails_at(0, "bad magic"));
	b_len = 0;
	b_u64(PD_MAGIC2);
	b_u64(40);
	T(fails_at(8, "header size 40"));

	b_len = 0;
	b_pipe_header();
	b_attr_rec(&std, std_ids, 2);
	at = b_rec(9, 0);
	b_end(at);
	pd_put_u16(b_buf + at + 6, 7);
	T(fails_at(at, "record size 7 < 8"));

	b_len = at;
	sample(7);
	b_len -= 1;
	T(fails_at(at, "runs past the end"));
	b_len = at + 5;
	T(fails_at(at, "truncated record header"));

	b_len = 0;
	b_pipe_header();
	at = b_len;
	b_attr_rec(&std, std_ids, 2);
	pd_put_u32(b_buf + at + 12, 0);
	T(fails_at(at, "attr.size 0"));
	pd_put_u32(b_buf + at + 12, 132);
	T(fails_at(at, "not a multiple of 8"));
	pd_put_u32(b_buf + at + 12, 256);
	T(fails_at(at, "does not fit"));
	pd_put_u16(b_buf + at + 6, 40);
	pd_put_u32(b_buf + at + 12, 128);
	T(fails_at(at, "too small"));

	b_len = 0;
	b_pipe_header();
	at = b_rec(PD_RECORD_ID_INDEX, 0);
	b_u64(2);
	b_zero(32);
	b_end(at);
	T(fails_at(at, "2 entries do not fit"));

	b_len = 0;
	b_pipe_header();
	at = b_rec(PD_RECORD_AUXTRACE, 0);
	b_u64(100);
	b_zero(32);
	b_end(at);
	b_zero(99);
	T(fails_at(at, "AUXTRACE payload runs past the end of input (1 "));
}

/*
 * A file-mode perf.data: two attrs (128 and a short 112 bytes) with ids,
 * features HOSTNAME, CPUDESC (empty), EVENT_DESC naming both events,
 * TRACING_DATA, BUILD_ID, a simpleperf feature, and a data section with
 * an ID_INDEX and samples.
 */
static size_t data_at, data_end;

static void
file_image(void)
{
	static const struct t_attr b = { .type = 0, .size = 112,
	    .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
	    PERF_SAMPLE_TIME | PERF_SAMPLE_ID, .flags = PD_ATTR_SAMPLE_ID_ALL };
	size_t ids_at, attrs_at, tab, fs[6], fe[6], at;
	int i, k;

	b_len = 0;
	b_u64(PD_MAGIC2);
	b_u64(104);
	b_u64(128 + 16);
	b_zero(104 - b_len);
	ids_at = b_len;
	b_u64(7);
	b_u64(8);
	b_u64(9);
	attrs_at = b_len;
	b_attr(&std);
	b_u64(ids_at);
	b_u64(16);
	b_attr(&b);
	b_zero(16);		/* the file's attr_size is 144 for both */
	b_u64(ids_at + 16);
	b_u64(8);
	data_at = b_len;
	at = b_rec(PD_RECORD_ID_INDEX, 0);
	b_u64(1);
	b_u64(10);		/* an id no attr gave: it names no event */
	b_u64(1);
	b_u64(0);
	b_u64(0);
	b_end(at);
	sample(7);
	sample(10);
	data_end = b_len;
	tab = b_len;
	b_zero(6 * 16);
	k = 0;
	fs[k] = b_len;		/* 1: TRACING_DATA, 13 bytes */
	b_put("\027\bDtracing0.6", 13);
	fe[k++] = b_len;
	fs[k] = b_len;		/* 2: BUILD_ID, one entry */
	at = b_rec(PD_RECORD_HEADER_BUILD_ID, 0x8001);
	b_u32(-1);
	b_put("0123456789abcdefghij", 20);
	b_u32(20);
	b_str("/bin/x", 8);
	b_end(at);
	fe[k++] = b_len;
	fs[k] = b_len;		/* 3: HOSTNAME */
	b_u32(64);
	b_str("host", 64);
	fe[k++] = b_len;
	fs[k] = fe[k] = b_len;	/* 8: CPUDESC, empty */
	k++;
	fs[k] = b_len;		/* 12: EVENT_DESC */
	b_u32(2);
	b_u32(128);
	b_attr(&std);
	b_u32(0);
	b_u32(64);
	b_str("first-event", 64);
	b_attr(&std);
	b_u32(0);
	b_u32(64);
	b_str("second-event", 64);
	fe[k++] = b_len;
	fs[k] = b_len;		/* 128: simpleperf's */
	b_u64(1);
	fe[k++] = b_len;
	for (i = 0; i < k; i++) {
		pd_put_u64(b_buf + tab + 16 * i, fs[i]);
		pd_put_u64(b_buf + tab + 16 * i + 8, fe[i] - fs[i]);
	}
	pd_put_u64(b_buf + 24, attrs_at);
	pd_put_u64(b_buf + 32, 2 * 144);
	pd_put_u64(b_buf + 40, data_at);
	pd_put_u64(b_buf + 48, data_end - data_at);
	pd_put_u64(b_buf + 72, 1 << 1 | 1 << 2 | 1 << 3 | 1 << 8 | 1 << 12);
	pd_put_u64(b_buf + 72 + 16, 1);		/* bit 128 */
}

static void
test_file_mode(void)
{
	struct pd_reader *rd;
	struct pd_evlist *el;
	struct pd_err err;
	struct pd_rec rec;
	const unsigned char *p;
	const char *what;
	uint64_t got;
	ssize_t n;
	int fd;

	file_image();
	fd = as_file();
	rd = pd_reader_fdopen(fd, "in", 0, &err);
	T(rd != NULL);
	if (rd == NULL)
		return;
	el = pd_reader_evlist(rd);
	T(pd_reader_is_file(rd));
	/* attrs first, with their ids, 128 bytes even when stored shorter */
	T(pd_reader_next(rd, &rec) == 1 && rec.type == PD_RECORD_HEADER_ATTR);
	T(rec.size == 8 + 128 + 16 && pd_get_u32(rec.data + 12) == 128);
	T(pd_get_u64(rec.data + 8 + 128) == 7);
	T(pd_reader_next(rd, &rec) == 1 && rec.type == PD_RECORD_HEADER_ATTR);
	T(rec.size == 8 + 128 + 8 && pd_get_u32(rec.data + 12) == 128);
	T(pd_get_u64(rec.data + 8 + 128) == 9);
	T(el->n == 2 && pd_evlist_by_id(el, 9) == &el->evsels[1]);
	/* features: HOSTNAME and EVENT_DESC; no empty CPUDESC, no 128 */
	T(pd_reader_next(rd, &rec) == 1 &&
	    rec.type == PD_RECORD_HEADER_FEATURE &&
	    pd_get_u64(rec.data + 8) == PD_FEAT_HOSTNAME && rec.size == 84);
	T(pd_reader_next(rd, &rec) == 1 &&
	    rec.type == PD_RECORD_HEADER_FEATURE &&
	    pd_get_u64(rec.data + 8) == PD_FEAT_EVENT_DESC);
	T(strcmp(el->evsels[1].name, "second-event") == 0);
	/* one EVENT_UPDATE NAME per named event, by its first id */
	T(pd_reader_next(rd, &rec) == 1 &&
	    rec.type == PD_RECORD_EVENT_UPDATE && rec.size % 8 == 0 &&
	    pd_get_u64(rec.data + 8) == PD_EVENT_UPDATE_NAME &&
	    pd_get_u64(rec.data + 16) == 7 &&
	    strcmp((const char *)rec.data + 24, "first-event") == 0);
	T(pd_reader_next(rd, &rec) == 1 &&
	    rec.type == PD_RECORD_EVENT_UPDATE &&
	    pd_get_u64(rec.data + 16) == 9 &&
	    strcmp((const char *)rec.data + 24, "second-event") == 0);
	/* tracing data: a 16-byte record, the blob padded to 8 after it */
	T(pd_reader_next(rd, &rec) == 1 &&
	    rec.type == PD_RECORD_HEADER_TRACING_DATA && rec.size == 16 &&
	    rec.payload == 16 && pd_get_u32(rec.data + 8) == 16);
	for (got = 0; (n = pd_reader_payload(rd, &p)) > 0; got += n)
		;
	T(n == 0 && got == 16);
	T(pd_reader_next(rd, &rec) == 1 &&
	    rec.type == PD_RECORD_HEADER_BUILD_ID && rec.misc == 0x8001 &&
	    strcmp((const char *)rec.data + 36, "/bin/x") == 0);
	/* then the data section as it is */
	T(pd_reader_next(rd, &rec) == 1 && rec.type == PD_RECORD_ID_INDEX &&
	    rec.offset == data_at);
	/* Its idx is a place in a cpu map (perf's sid->idx), no event's. */
	T(pd_evlist_by_id(el, 10) == NULL);
	T(pd_reader_next(rd, &rec) == 1 && rec.type == PERF_RECORD_SAMPLE);
	T(pd_reader_next(rd, &rec) == 1 && rec.type == PERF_RECORD_SAMPLE &&
	    rec.offset + rec.size == data_end);
	T(pd_reader_next(rd, &rec) == 0);
	T(pd_reader_dropped(rd, &what) == 1 && strstr(what, "128") != NULL);
	pd_reader_close(rd);
	close(fd);

	/* A section past the end of the file. */
	file_image();
	pd_put_u64(b_buf + 48, 1 << 20);
	T(fails_at(40, "data section"));
	/* File mode on a pipe. */
	file_image();
	fd = as_pipe();
	T(pd_reader_fdopen(fd, "in", 0, &err) == NULL &&
	    strstr(err.msg, "regular file") != NULL);
	close(fd);
}

/* simpleperf: the tracing data blob inside a record padded to 64. */
static void
test_simpleperf_tracing(void)
{
	struct pd_reader *rd;
	struct pd_err err;
	struct pd_rec rec;
	const unsigned char *p;
	unsigned char blob[100];
	size_t at, s;
	uint64_t got;
	ssize_t n;
	int fd;

	memset(blob, 'x', sizeof(blob));
	memcpy(blob, "\027\bDtracing0.5", 13);
	b_len = 0;
	b_pipe_header();
	at = b_rec(PD_RECORD_HEADER_TRACING_DATA, 0);
	b_u32(sizeof(blob));
	b_put(blob, sizeof(blob));
	b_zero(128 - sizeof(blob));
	b_end(at);
	s = sample(7);
	fd = as_pipe();
	rd = pd_reader_fdopen(fd, "in", 0, &err);
	T(rd != NULL);
	if (rd == NULL)
		return;
	T(pd_reader_next(rd, &rec) == 1 &&
	    rec.type == PD_RECORD_HEADER_TRACING_DATA && rec.size == 16 &&
	    rec.offset == at && rec.payload == 104 &&
	    pd_get_u32(rec.data + 8) == 104);
	for (got = 0; (n = pd_reader_payload(rd, &p)) > 0; got += n)
		if (got == 0)
			T(memcmp(p, blob, n < 100 ? n : 100) == 0);
	T(n == 0 && got == 104);
	T(pd_reader_next(rd, &rec) == 1 && rec.type == PERF_RECORD_SAMPLE &&
	    rec.offset == s);
	T(pd_reader_next(rd, &rec) == 0);
	pd_reader_close(rd);
	close(fd);
}

/* Records straddling the 1 MiB buffer boundary stay whole. */
static void
test_many(void)
{
	struct pd_reader *rd;
	struct pd_err err;
	struct pd_rec rec;
	size_t i, n = 0, bad = 0;
	int fd;

	b_len = 0;
	b_pipe_header();
	b_attr_rec(&std, std_ids, 2);
	for (i = 0; b_len < sizeof(b_buf) - 64; i++) {
		size_t at = b_rec(PD_RECORD_HEADER_FEATURE, 0);

		b_u64(PD_FEAT_HOSTNAME);
		b_zero(i % 13);	/* odd sizes */
		b_end(at);
	}
	fd = as_file();
	rd = pd_reader_fdopen(fd, "in", 0, &err);
	T(rd != NULL);
	if (rd == NULL)
		return;
	T(pd_reader_next(rd, &rec) == 1);
	while (pd_reader_next(rd, &rec) == 1) {
		if (rec.size != 16 + n % 13 ||
		    memcmp(rec.data, b_buf + rec.offset, rec.size) != 0)
			bad++;
		n++;
	}
	T(n == i && bad == 0);
	pd_reader_close(rd);
	close(fd);
}

int
main(void)
{
	test_pipe(1);
	test_pipe(0);
	test_errors();
	test_file_mode();
	test_simpleperf_tracing();
	test_many();
	return T_END();
}
