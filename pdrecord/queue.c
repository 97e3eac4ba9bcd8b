/* SPDX-License-Identifier: MIT */
/*
 * pdrecord: the user-space queue between the rings and the output: chunks of
 * CHUNK_SIZE written out in order, never blocking while the rings need
 * draining; and put_out(), which writes straight through while nothing
 * waits.
 */
#include "pdrecord/extern.h"

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "libcommon/cli/msg.h"

#define HUGE_ALIGN	((size_t)2 << 20)	/* x86_64's, arm64's with 4 KiB */

struct queue q;
unsigned long long nbytes;
int reader_gone;
int out_fd = -1, direct_failed;
struct pd_writer *zw;	/* -z: the compressor's writer, into */
struct pd_zenc *zenc;	/* put_out(); NULL without -z */

/* The compressor failed (no memory, or zstd said no). */
void
zfail(void)
{
	pd_warnx("compressing: %s", strerror(errno));
	exit(PD_EXIT_DATA);
}

/*
 * A chunk with its pages in place: one call instead of a page fault per
 * page while the rings wait, which costs seconds on some virtual
 * machines. NULL: no memory.
 *
 * `huge`: in huge pages where the kernel gives them for the asking
 * (transparent_hugepage "madvise", Debian's default), for the chunks
 * touched before recording, which in 4 KiB pages were a fifth of
 * pdrecord's start-up. Not for those made while recording: there the
 * kernel may compact memory to find a huge page (defrag "madvise"),
 * and paired runs at -a -g -F 50000 read 1.04-1.12x the CPU time.
 */
struct chunk *
chunk_new(int huge)
{
	size_t len = sizeof(struct chunk) + CHUNK_SIZE, span = len + HUGE_ALIGN;
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), head, used;
	unsigned char *s, *m;

	if (!huge) {
		m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE |
		    MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
		return m == MAP_FAILED ? NULL : (struct chunk *)(void *)m;
	}
	/* At a huge page's start, the rest given back. */
	s = mmap(NULL, span, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (s == MAP_FAILED)
		return NULL;
	head = -(uintptr_t)s & (HUGE_ALIGN - 1);
	used = (len + pg - 1) & ~(pg - 1);
	if (head > 0)
		munmap(s, head);
	m = s + head;
	if (span - head > used)
		munmap(m + used, span - head - used);
	(void)madvise(m, len, MADV_HUGEPAGE);
	if (madvise(m, len, MADV_POPULATE_WRITE) < 0) {
		/* Before Linux 5.14: a byte a page. */
		size_t i;

		for (i = 0; i < len; i += pg)
			((volatile unsigned char *)m)[i] = 0;
	}
	return (struct chunk *)(void *)m;
}

int
queue_put(const void *p, size_t n)
{
	const unsigned char *s = p;
	struct chunk *c;
	size_t k;

	while (n > 0) {
		c = q.tail;
		if (c == NULL || c->len == CHUNK_SIZE) {
			if (q.free != NULL) {
				c = q.free;
				q.free = c->next;
				q.nfree--;
			} else if ((c = chunk_new(0)) == NULL)
				return -1;
			c->next = NULL;
			c->len = c->off = 0;
			if (q.tail != NULL)
				q.tail->next = c;
			else
				q.head = c;
			q.tail = c;
		}
		k = CHUNK_SIZE - c->len;
		if (k > n)
			k = n;
		memcpy(c->data + c->len, s, k);
		c->len += k;
		q.bytes += k;
		s += k;
		n -= k;
	}
	return 0;
}

/*
 * Writes queued bytes until the output would block (or everything is
 * out). 0, or -1 with errno set (EPIPE: the reader went away).
 */
int
queue_write(int fd)
{
	struct chunk *c;
	ssize_t r;

	while ((c = q.head) != NULL) {
		if (c->off < c->len) {
			r = write(fd, c->data + c->off, c->len - c->off);
			if (r < 0 && errno == EINTR)
				continue;
			if (r < 0 && errno == EAGAIN)
				return 0;
			if (r < 0)
				return -1;
			c->off += r;
			q.bytes -= r;
			nbytes += r;
			if (c->off < c->len)
				continue;
		}
		if (c == q.tail && c->len < CHUNK_SIZE)
			return 0;	/* keep filling the tail */
		q.head = c->next;
		if (q.head == NULL)
			q.tail = NULL;
		/* Fresh memory costs a page fault per page: keep some. */
		if (q.nfree < POOL_MAX) {
			c->next = q.free;
			q.free = c;
			q.nfree++;
		} else {
			munmap(c, sizeof(*c) + CHUNK_SIZE);
		}
	}
	return 0;
}

/* Blocking: writes everything. 0 or -1. */
int
queue_drain(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLOUT };

	for (;;) {
		if (queue_write(fd) < 0)
			return -1;
		if (q.bytes == 0)
			return 0;
		if (poll(&p, 1, -1) < 0 && errno != EINTR)
			return -1;
	}
}

/*
 * Hands bytes to the output: straight to the fd while nothing waits in
 * the queue (no copy, as perf writes from the ring), and into the queue
 * whatever the output does not take at once. 0, or -1 (no memory).
 * Write errors are left for queue_write() to meet again.
 */
int
put_out(const unsigned char *p, size_t n)
{
	ssize_t w;

	while (n > 0 && q.bytes == 0 && !direct_failed && out_fd >= 0) {
		w = write(out_fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			if (errno != EAGAIN)
				direct_failed = 1;	/* reported later */
			break;
		}
		nbytes += w;
		p += w;
		n -= w;
	}
	return n > 0 ? queue_put(p, n) : 0;
}

/* The compressor's writer hands its bytes on here. */
int
zsink(void *ctx, const void *p, size_t n)
{
	(void)ctx;
	if (put_out(p, n) < 0) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}
