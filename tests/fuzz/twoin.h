/* SPDX-License-Identifier: MIT */
/*
 * What the targets of two inputs (fuzz_join.c, fuzz_merge.c) share:
 * the data cut in two, a file of bytes, an output kept in memory.
 */
#ifndef PD_FUZZ_TWOIN_H
#define PD_FUZZ_TWOIN_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* A, then JOIN_SEP, a byte that picks the run's options, then B. */
#define JOIN_SEP	"\0PDJOIN\0"
#define SEP_LEN		(sizeof(JOIN_SEP) - 1)
#define OUT_MAX		(64u << 20)

struct twoin {
	const uint8_t	*a, *b;
	size_t		 alen, blen;
	unsigned	 pick;
};

/* The data cut at JOIN_SEP; without one, both inputs are the data. */
static inline struct twoin
twoin_cut(const uint8_t *data, size_t size)
{
	const uint8_t *sep = size > SEP_LEN ? memmem(data, size - 1, JOIN_SEP,
	    SEP_LEN) : NULL;
	struct twoin t = { data, data, size, size, 0 };

	if (sep != NULL) {
		t.alen = sep - data;
		t.pick = sep[SEP_LEN];
		t.b = sep + SEP_LEN + 1;
		t.blen = size - t.alen - SEP_LEN - 1;
	}
	return t;
}

/* A file of n bytes at p, read from its start; -1 when that failed. */
static inline int
twoin_fd(const void *p, size_t n)
{
	int fd = memfd_create("fuzz", 0);

	if (fd >= 0 && (write(fd, p, n) != (ssize_t)n ||
	    lseek(fd, 0, SEEK_SET) < 0)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* An output in memory, for pd_writer_new_sink; past OUT_MAX, full. */
struct twoin_out {
	unsigned char	*p;
	size_t		 len, cap;
	int		 full;		/* dropped: the output is not checked */
};

static inline int
twoin_sink(void *ctx, const void *p, size_t n)
{
	struct twoin_out *o = ctx;
	size_t c;

	if (o->full || o->len + n > OUT_MAX) {
		o->full = 1;
		return 0;
	}
	if (o->len + n > o->cap) {
		for (c = o->cap ? o->cap : 65536; c < o->len + n; c *= 2)
			;
		if ((o->p = realloc(o->p, c)) == NULL)
			abort();
		o->cap = c;
	}
	memcpy(o->p + o->len, p, n);
	o->len += n;
	return 0;
}

#endif /* PD_FUZZ_TWOIN_H */
