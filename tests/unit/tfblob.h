/* SPDX-License-Identifier: MIT */
/*
 * A tracing data blob for the unit tests: the header pages, one system
 * "sys" with one event format `fmt`, a printk_formats section (pklen
 * bytes at pk; "abc" from tf_blob_build) and a cmdline, in the byte
 * order asked for (be = 1: big-endian), then 3 bytes of pad.
 */
#ifndef PD_TEST_TFBLOB_H
#define PD_TEST_TFBLOB_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct tf_blob {
	unsigned char	 b[4096];
	size_t		 len;
	int		 be;
};

static __attribute__((unused)) void
tf_put(struct tf_blob *t, const void *p, size_t n)
{
	memcpy(t->b + t->len, p, n);
	t->len += n;
}

/* v as `size` bytes in the blob's order at p */
static __attribute__((unused)) void
tf_put_at(unsigned char *p, uint64_t v, unsigned size, int be)
{
	unsigned i;

	for (i = 0; i < size; i++)
		p[i] = v >> (8 * (be ? size - 1 - i : i));
}

static __attribute__((unused)) void
tf_put_n(struct tf_blob *t, uint64_t v, unsigned size)
{
	tf_put_at(t->b + t->len, v, size, t->be);
	t->len += size;
}

static __attribute__((unused)) void
tf_blob_build_pk(struct tf_blob *t, const char *fmt, int be, const char *pk,
    size_t pklen)
{
	static const char pg[] = "field: u64 timestamp;";

	t->len = 0;
	t->be = be;
	tf_put(t, "\027\bDtracing", 10);
	tf_put(t, "0.6", 4);
	tf_put(t, &(unsigned char){ be }, 1);
	tf_put(t, &(unsigned char){ 8 }, 1);
	tf_put_n(t, 4096, 4);
	tf_put(t, "header_page", 12);
	tf_put_n(t, sizeof(pg) - 1, 8);
	tf_put(t, pg, sizeof(pg) - 1);
	tf_put(t, "header_event", 13);
	tf_put_n(t, 0, 8);
	tf_put_n(t, 0, 4);		/* ftrace formats */
	tf_put_n(t, 1, 4);		/* systems */
	tf_put(t, "sys", 4);
	tf_put_n(t, 1, 4);
	tf_put_n(t, strlen(fmt), 8);
	tf_put(t, fmt, strlen(fmt));
	tf_put_n(t, 0, 4);		/* kallsyms */
	tf_put_n(t, pklen, 4);		/* printk */
	tf_put(t, pk, pklen);
	tf_put_n(t, 6, 8);		/* cmdlines */
	tf_put(t, "1 init", 6);
	tf_put(t, "\0\0\0", 3);		/* pad */
}

static __attribute__((unused)) void
tf_blob_build(struct tf_blob *t, const char *fmt, int be)
{
	tf_blob_build_pk(t, fmt, be, "abc", 3);
}

#endif /* PD_TEST_TFBLOB_H */
