/* SPDX-License-Identifier: MIT */
/*
 * pdstat -p's copy of its input. When both ends are pipes, tee(2) puts
 * the input pipe's pages into the output pipe without copying or
 * consuming them, and the reader then reads the same bytes for the
 * summary: the stream costs one copy (the read) instead of three (read,
 * into the writer's buffer, write). From a regular file into a pipe,
 * each chunk the reader reads goes on by splice(2) from the file's
 * pages, as pdcat's records do (pd_writer_source). Otherwise each chunk
 * is written on from the reader's own buffer before it is parsed.
 * Either way the output is the input, byte for byte.
 */
#include "pdstat/tap.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libcommon/stream/pipebuf.h"
#include "libcommon/stream/reader.h"
#include "libcommon/stream/record.h"

/* The drain's chunk; splice(2) and tee(2) take up to a pipe's size. */
#define CHUNK	(1024 * 1024)

static int
is_pipe(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode);
}

static int
write_all(struct tap *t, const void *p, size_t n)
{
	const char *c = p;
	ssize_t r;

	while (n > 0) {
		if ((r = write(t->out, c, n)) < 0) {
			if (errno == EINTR)
				continue;
			t->werr = errno;
			return -1;
		}
		c += r;
		n -= r;
	}
	return 0;
}

/* Reads exactly n bytes that tee(2) has just seen in the pipe. */
static ssize_t
read_teed(int fd, char *buf, size_t n)
{
	size_t got = 0;
	ssize_t r;

	while (got < n) {
		if ((r = read(fd, buf + got, n - got)) < 0) {
			/* Never hand EINTR back: the bytes are passed on. */
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (r == 0) {
			/* Someone else read our pipe: nothing to trust. */
			errno = EIO;
			return -1;
		}
		got += r;
	}
	return n;
}

/*
 * The n bytes just read into buf from the file at t->at, sent on from
 * the file's pages; written from buf where the file system has no
 * splice(2), and from then on.
 */
static int
splice_read(struct tap *t, int fd, const char *buf, size_t n)
{
	uint64_t from = t->at, at = from;
	int r;

	t->at += n;
	if ((r = pd_pipe_splice(fd, &at, t->out, n)) == -2) {
		t->splice = 0;
		return write_all(t, buf + (at - from), n - (at - from));
	}
	if (r < 0)
		t->werr = errno;
	return r;
}

/* The reader's read(2) (pd_read_fn). */
static ssize_t
tap_read(void *arg, int fd, void *buf, size_t len)
{
	struct tap *t = arg;
	ssize_t n;

	if (t->tee) {
		if ((n = tee(fd, t->out, len, 0)) >= 0)
			return n > 0 ? read_teed(fd, buf, n) : 0;
		if (errno == EPIPE) {
			t->werr = errno;
			return -1;
		}
		if (errno != EINVAL)
			return -1;
		t->tee = 0;	/* not two pipes after all: copy */
	}
	if ((n = read(fd, buf, len)) > 0 && (t->splice ?
	    splice_read(t, fd, buf, n) : write_all(t, buf, n)) < 0)
		return -1;
	return n;
}

struct pd_reader *
tap_open(struct tap *t, const char *path, int flags, struct pd_err *err)
{
	struct pd_reader *rd;

	t->in = -1;
	t->out = -1;
	t->tee = 0;
	t->splice = 0;
	t->werr = 0;
	if (strcmp(path, "-") == 0) {
		t->in = STDIN_FILENO;
		return pd_reader_fdopen(t->in, "<stdin>", flags, err);
	}
	if ((t->in = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		memset(err, 0, sizeof(*err));
		err->input = path;
		pd_err_io(err, errno, "open");
		return NULL;
	}
	if ((rd = pd_reader_fdopen(t->in, path, flags, err)) == NULL) {
		close(t->in);
		t->in = -1;
	}
	return rd;
}

int
tap_start(struct tap *t, struct pd_reader *rd, int out)
{
	const unsigned char *p;
	ssize_t n;
	off_t at;

	t->out = out;
	t->tee = is_pipe(t->in) && is_pipe(out);
	/* Where the reader will read on: its first bytes are written. */
	t->splice = !t->tee && is_pipe(out) && pd_reader_is_regular(rd) &&
	    (at = lseek(t->in, 0, SEEK_CUR)) >= 0;
	t->at = t->splice ? (uint64_t)at : 0;
	if ((n = pd_reader_tap(rd, tap_read, t, &p)) < 0)
		return 0;
	/* What the reader read to open the input goes first. */
	if (write_all(t, p, n) < 0) {
		errno = t->werr;
		return -1;
	}
	return 1;
}

int
tap_drain(struct tap *t)
{
	char *buf;
	ssize_t n;

	if (t->werr != 0) {
		errno = t->werr;
		return -1;
	}
	if (t->tee) {
		while ((n = splice(t->in, NULL, t->out, NULL, CHUNK,
		    SPLICE_F_MOVE)) != 0) {
			if (n > 0 || errno == EINTR)
				continue;
			if (errno == EPIPE)
				return -1;
			if (errno != EINVAL)
				return 0;	/* a read error: stop there */
			break;
		}
		if (n == 0)
			return 0;
	}
	if ((buf = malloc(CHUNK)) == NULL)
		return 0;
	while ((n = read(t->in, buf, CHUNK)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (write_all(t, buf, n) < 0) {
			free(buf);
			errno = t->werr;
			return -1;
		}
	}
	free(buf);
	return 0;
}

void
tap_close(struct tap *t, struct pd_reader *rd)
{
	pd_reader_close(rd);
	if (t->in > STDIN_FILENO)
		close(t->in);
	t->in = -1;
}
