/* SPDX-License-Identifier: MIT */
/*
 * Building records in memory for the unit tests, in native byte order:
 * a byte buffer with typed appends, record begin/end, and a perf_event_attr
 * writer. One static buffer per test program. Headers, the pipe header
 * and views go through event.h, as tests/gen/fixture.c's do.
 */
#ifndef PD_TEST_REC_H
#define PD_TEST_REC_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libcommon/stream/event.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/record.h"

static unsigned char b_buf[1 << 20];
static size_t b_len;

static __attribute__((unused)) void
b_put(const void *p, size_t n)
{
	if (b_len + n > sizeof(b_buf))
		abort();
	memcpy(b_buf + b_len, p, n);
	b_len += n;
}

static __attribute__((unused)) void b_u16(uint16_t v) { b_put(&v, 2); }
static __attribute__((unused)) void b_u32(uint32_t v) { b_put(&v, 4); }
static __attribute__((unused)) void b_u64(uint64_t v) { b_put(&v, 8); }

static __attribute__((unused)) void
b_zero(size_t n)
{
	if (b_len + n > sizeof(b_buf))
		abort();
	memset(b_buf + b_len, 0, n);
	b_len += n;
}

static __attribute__((unused)) void
b_str(const char *s, size_t align)
{
	size_t n = strlen(s) + 1;

	b_put(s, n);
	b_zero((align - n % align) % align);
}

static __attribute__((unused)) size_t
b_rec(uint32_t type, uint16_t misc)
{
	size_t at = b_len;

	b_zero(8);
	pd_header_put(b_buf + at, type, misc, 0, 0);
	return at;
}

static __attribute__((unused)) void
b_end(size_t at)
{
	pd_header_set_size(b_buf + at, b_len - at);
}

static __attribute__((unused)) void
b_pipe_header(void)
{
	b_zero(PD_PIPE_HDR_SIZE);
	pd_pipe_header_put(b_buf + b_len - PD_PIPE_HDR_SIZE, 0);
}

struct t_attr {
	uint32_t	type;
	uint32_t	size;		/* bytes written; 0 means 128 */
	uint64_t	config;
	uint64_t	sample_type;
	uint64_t	read_format;
	uint64_t	flags;
	uint64_t	branch_sample_type;
	uint64_t	regs_user;
	uint32_t	stack_user;
	uint64_t	regs_intr;
};

/* A perf_event_attr of a->size bytes (default 128). */
static __attribute__((unused)) void
b_attr(const struct t_attr *a)
{
	size_t at = b_len, size = a->size ? a->size : 128;

	b_u32(a->type);
	b_u32(size);
	b_u64(a->config);
	b_u64(4000);
	b_u64(a->sample_type);
	b_u64(a->read_format);
	b_u64(a->flags);
	b_u32(0);
	b_u32(0);
	b_u64(0);
	b_u64(0);
	b_u64(a->branch_sample_type);
	b_u64(a->regs_user);
	b_u32(a->stack_user);
	b_u32(0);
	b_u64(a->regs_intr);
	if (b_len - at > size)
		b_len = at + size;
	else
		b_zero(at + size - b_len);
}

/* A HEADER_ATTR record. */
static __attribute__((unused)) void
b_attr_rec(const struct t_attr *a, const uint64_t *ids, size_t nids)
{
	size_t at = b_rec(PD_RECORD_HEADER_ATTR, 0), i;

	b_attr(a);
	for (i = 0; i < nids; i++)
		b_u64(ids[i]);
	b_end(at);
}

/* A view of the record that starts at b_buf + at. */
static __attribute__((unused)) struct pd_rec
b_view(size_t at)
{
	struct pd_rec r;

	pd_rec_view(&r, b_buf + at);
	return r;
}

#endif /* PD_TEST_REC_H */
