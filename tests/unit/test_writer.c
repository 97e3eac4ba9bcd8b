/* SPDX-License-Identifier: MIT */
/*
 * libcommon/stream/writer: the pipe header, records and out-of-band
 * payloads byte for byte, buffering across the buffer's size, short
 * writes on a pipe, EPIPE reported (not raised), and the offset.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "libcommon/stream/perf.h"
#include "libcommon/stream/reader.h"
#include "libcommon/stream/record.h"
#include "libcommon/stream/writer.h"
#include "rec.h"
#include "t.h"

/* A sink that keeps what it is given, counting the calls. */
static unsigned char *got;
static size_t ngot, ncalls;
static int sink_fail;

static int
sink(void *ctx, const void *p, size_t n)
{
	unsigned char *g;

	(void)ctx;
	ncalls++;
	if (sink_fail) {
		errno = ENOSPC;
		return -1;
	}
	if ((g = realloc(got, ngot + n)) == NULL)
		abort();
	memcpy(g + ngot, p, n);
	got = g;
	ngot += n;
	return 0;
}

static void
sink_reset(void)
{
	free(got);
	got = NULL;
	ngot = ncalls = 0;
	sink_fail = 0;
}

static void
test_header_and_records(void)
{
	struct pd_writer *w;
	unsigned char rec[24];
	struct pd_rec r;
	size_t i;
	int ok = 1;

	sink_reset();
	T((w = pd_writer_new_sink(sink, NULL)) != NULL);
	T(pd_writer_header(w) == 0);
	T(pd_writer_offset(w) == PD_PIPE_HDR_SIZE);
	/* Nothing reaches the sink before a flush or a full buffer. */
	T(ncalls == 0);
	memset(rec, 0xab, sizeof(rec));
	pd_put_u32(rec, PERF_RECORD_COMM);
	pd_put_u16(rec + 4, 0);
	pd_put_u16(rec + 6, sizeof(rec));
	memset(&r, 0, sizeof(r));
	r.data = rec;
	r.size = sizeof(rec);
	r.type = PERF_RECORD_COMM;
	/* Far more than one buffer: every byte arrives, in order. */
	for (i = 0; i < 200000 && ok; i++)
		ok = pd_writer_rec(w, &r) == 0;
	T(ok);
	T(pd_writer_offset(w) == PD_PIPE_HDR_SIZE + 200000 * sizeof(rec));
	T(pd_writer_free(w) == 0);
	T(ngot == PD_PIPE_HDR_SIZE + 200000 * sizeof(rec));
	T(pd_get_u64(got) == PD_MAGIC2 && pd_get_u64(got + 8) == 16);
	T(memcmp(got + 16, rec, sizeof(rec)) == 0);
	T(memcmp(got + ngot - sizeof(rec), rec, sizeof(rec)) == 0);
	/* Large buffers: a few sink calls, not one per record. */
	T(ncalls > 1 && ncalls < 200);
}

static void
test_sink_error(void)
{
	struct pd_writer *w;
	static unsigned char big[1 << 20];
	int r = 0, i;

	sink_reset();
	sink_fail = 1;
	T((w = pd_writer_new_sink(sink, NULL)) != NULL);
	for (i = 0; i < 64 && r == 0; i++)
		r = pd_writer_put(w, big, sizeof(big));
	T(r == -1 && errno == ENOSPC);
	T(pd_writer_free(w) == -1);
	sink_reset();
}

/*
 * Short writes on a pipe read in small pieces by a child: every byte
 * arrives, in order (chunk i is all i & 0xff; the child checks).
 */
static void
test_pipe(void)
{
	int fd[2], st, ok = 1;
	struct pd_writer *w;
	unsigned char chunk[4096];
	pid_t pid;
	size_t i, n = 3000;

	T(pipe(fd) == 0);
	if ((pid = fork()) == 0) {
		unsigned long long total = 0;
		unsigned char b[1000];
		ssize_t k, j;
		int bad = 0;

		close(fd[1]);
		while ((k = read(fd[0], b, sizeof(b))) > 0) {
			for (j = 0; j < k; j++)
				bad |= b[j] != ((total + j) / sizeof(chunk) & 0xff);
			total += k;
		}
		_exit(bad ? 2 : total != n * sizeof(chunk) ? 3 : 0);
	}
	close(fd[0]);
	T((w = pd_writer_new(fd[1])) != NULL);
	for (i = 0; i < n && ok; i++) {
		memset(chunk, (int)(i & 0xff), sizeof(chunk));
		ok = pd_writer_put(w, chunk, sizeof(chunk)) == 0;
	}
	T(ok);
	T(pd_writer_free(w) == 0);
	close(fd[1]);
	T(waitpid(pid, &st, 0) == pid);
	T(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* The same, checking the bytes themselves: a temp file, read back. */
static void
test_file(void)
{
	char path[] = "/tmp/test_writer.XXXXXX";
	int fd = mkstemp(path), ok = 1;
	struct pd_writer *w;
	unsigned char b[7], rb[65536];
	size_t i, j, n = 1000000;
	ssize_t k;

	T(fd >= 0);
	unlink(path);
	T((w = pd_writer_new(fd)) != NULL);
	for (i = 0; i < n && ok; i += sizeof(b)) {
		for (j = 0; j < sizeof(b); j++)
			b[j] = (unsigned char)((i + j) * 131 >> 3);
		ok = pd_writer_put(w, b, sizeof(b)) == 0;
	}
	T(ok);
	T(pd_writer_free(w) == 0);
	T(lseek(fd, 0, SEEK_SET) == 0);
	i = 0;
	while ((k = read(fd, rb, sizeof(rb))) > 0)
		for (j = 0; j < (size_t)k; j++, i++)
			ok &= rb[j] == (unsigned char)(i * 131 >> 3);
	T(ok);
	T(i == (n + sizeof(b) - 1) / sizeof(b) * sizeof(b));
	close(fd);
}

/* A closed reader: -1 with EPIPE, for the tool to end quietly. */
static void
test_epipe(void)
{
	int fd[2], r = 0, i;
	struct pd_writer *w;
	static unsigned char big[1 << 20];

	signal(SIGPIPE, SIG_IGN);
	T(pipe(fd) == 0);
	close(fd[0]);
	T((w = pd_writer_new(fd[1])) != NULL);
	for (i = 0; i < 16 && r == 0; i++)
		r = pd_writer_put(w, big, sizeof(big));
	if (r == 0)
		r = pd_writer_flush(w);
	T(r == -1 && errno == EPIPE);
	pd_writer_free(w);
	close(fd[1]);
	signal(SIGPIPE, SIG_DFL);
}

/*
 * HEADER_TRACING_DATA carries its blob after header.size: read through
 * the reader and written with pd_writer_payload, the stream comes out
 * byte for byte, and a record after the blob is not mistaken for it.
 */
static void
test_payload(void)
{
	char path[] = "/tmp/test_writer.XXXXXX";
	int fd = mkstemp(path), r;
	struct pd_reader *rd;
	struct pd_writer *w;
	struct pd_rec rec;
	struct pd_err err;
	size_t at, n = 0, i;
	unsigned char blob[100];

	T(fd >= 0);
	unlink(path);
	b_len = 0;
	b_pipe_header();
	at = b_rec(PD_RECORD_HEADER_TRACING_DATA, 0);
	b_u32(sizeof(blob));
	b_u32(0);
	b_end(at);
	for (i = 0; i < sizeof(blob); i++)
		blob[i] = (unsigned char)(i * 7);
	memcpy(blob, PD_TRACING_MAGIC, PD_TRACING_MAGIC_LEN);
	b_put(blob, sizeof(blob));
	at = b_rec(PD_RECORD_FINISHED_ROUND, 0);
	b_end(at);
	T(write(fd, b_buf, b_len) == (ssize_t)b_len);
	T(lseek(fd, 0, SEEK_SET) == 0);

	sink_reset();
	T((rd = pd_reader_fdopen(fd, "t", 0, &err)) != NULL);
	T((w = pd_writer_new_sink(sink, NULL)) != NULL);
	T(pd_writer_header(w) == 0);
	while ((r = pd_reader_next(rd, &rec)) > 0) {
		n++;
		T(pd_writer_rec(w, &rec) == 0);
		if (rec.payload > 0)
			T(pd_writer_payload(w, rd) == 0);
	}
	T(r == 0);
	T(n == 2);
	T(pd_writer_free(w) == 0);
	T(ngot == b_len && memcmp(got, b_buf, b_len) == 0);
	pd_reader_close(rd);
	close(fd);
	sink_reset();
}

int
main(void)
{
	test_header_and_records();
	test_sink_error();
	test_pipe();
	test_file();
	test_epipe();
	test_payload();
	return T_END();
}
