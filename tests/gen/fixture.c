/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/gen/fixture.h"

#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define HOST_BE	1
#else
#define HOST_BE	0
#endif

void
fx_init(struct fx *f, int be)
{
	memset(f, 0, sizeof(*f));
	fx_set_be(f, be);
}

void
fx_set_be(struct fx *f, int be)
{
	f->be = be;
	f->swap = be != HOST_BE;
}

void
fx_free(struct fx *f)
{
	free(f->buf);
	f->buf = NULL;
	f->len = f->cap = 0;
}

unsigned char *
fx_room(struct fx *f, size_t n)
{
	unsigned char *p;

	if (f->len + n > f->cap) {
		size_t cap = f->cap ? f->cap : 4096;

		while (cap < f->len + n)
			cap *= 2;
		if ((p = realloc(f->buf, cap)) == NULL)
			abort();
		f->buf = p;
		f->cap = cap;
	}
	p = f->buf + f->len;
	f->len += n;
	return p;
}

void
fx_flush(struct fx *f, int fd)
{
	size_t at;
	ssize_t n;

	for (at = 0; at < f->len; at += n)
		if ((n = write(fd, f->buf + at, f->len - at)) <= 0) {
			perror("fixture: write");
			exit(1);
		}
	f->len = 0;
}

void
fx_put_at(unsigned char *p, uint64_t v, int n, int be)
{
	int i;

	for (i = 0; i < n; i++)
		p[i] = v >> 8 * (be ? n - 1 - i : i);
}

void
fx_put(struct fx *f, uint64_t v, int n)
{
	fx_put_at(fx_room(f, n), v, n, f->be);
}

void fx_u16(struct fx *f, uint64_t v) { fx_put(f, v, 2); }
void fx_u32(struct fx *f, uint64_t v) { fx_put(f, v, 4); }
void fx_u64(struct fx *f, uint64_t v) { fx_put(f, v, 8); }

void
fx_set(struct fx *f, size_t at, uint64_t v, int n)
{
	fx_put_at(f->buf + at, v, n, f->be);
}

void
fx_bytes(struct fx *f, const void *p, size_t n)
{
	if (n > 0)
		memcpy(fx_room(f, n), p, n);
}

void
fx_zero(struct fx *f, size_t n)
{
	if (n > 0)
		memset(fx_room(f, n), 0, n);
}

void
fx_str(struct fx *f, const char *s, size_t align)
{
	size_t n = strlen(s) + 1;

	fx_bytes(f, s, n);
	fx_zero(f, (align - n % align) % align);
}

size_t
fx_rec_begin(struct fx *f, uint32_t type, uint16_t misc)
{
	size_t at = f->len;

	pd_header_put(fx_room(f, 8), type, misc, 0, f->swap);
	return at;
}

void
fx_rec_end(struct fx *f, size_t at)
{
	unsigned char *p = f->buf + at;
	uint32_t type = pd_get_u32(p);
	uint16_t misc = pd_get_u16(p + 4);

	if (f->swap) {
		type = bswap_32(type);
		misc = bswap_16(misc);
	}
	pd_header_put(p, type, misc, f->len - at, f->swap);
}

void
fx_pipe_header(struct fx *f)
{
	pd_pipe_header_put(fx_room(f, PD_PIPE_HDR_SIZE), f->swap);
}

size_t
fx_comm(struct fx *f, uint16_t misc, uint32_t pid, uint32_t tid,
    const char *comm)
{
	struct pd_record_comm c = {
		.pid = pid, .tid = tid, .comm = comm, .comm_len = strlen(comm),
	};
	size_t at = f->len, n = pd_record_comm_build(NULL, 0, misc, &c, 0, 0);

	pd_record_comm_build(fx_room(f, n), n, misc, &c, 0, f->swap);
	return at;
}

size_t
fx_fork(struct fx *f, uint32_t type, const struct pd_record_fork *k)
{
	size_t at = f->len, n = pd_record_fork_build(NULL, 0, type, k, 0, 0);

	pd_record_fork_build(fx_room(f, n), n, type, k, 0, f->swap);
	return at;
}

size_t
fx_mmap(struct fx *f, uint16_t misc, uint32_t pid, uint32_t tid,
    uint64_t start, uint64_t len, uint64_t pgoff, const char *filename)
{
	struct pd_record_mmap m = {
		.pid = pid, .tid = tid, .start = start, .len = len,
		.pgoff = pgoff, .filename = filename,
		.filename_len = strlen(filename),
	};
	size_t at = f->len, n = pd_record_mmap_build(NULL, 0, misc, &m, 0, 0);

	pd_record_mmap_build(fx_room(f, n), n, misc, &m, 0, f->swap);
	return at;
}

size_t
fx_mmap2(struct fx *f, uint16_t misc, const struct pd_record_mmap2 *m)
{
	struct pd_record_mmap2 c = *m;
	size_t at = f->len, n;

	c.filename_len = strlen(c.filename);
	n = pd_record_mmap2_build(NULL, 0, misc, &c, 0, 0);
	pd_record_mmap2_build(fx_room(f, n), n, misc, &c, 0, f->swap);
	return at;
}

void
fx_finished_round(struct fx *f)
{
	pd_header_put(fx_room(f, 8), PD_RECORD_FINISHED_ROUND, 0, 8,
	    f->swap);
}

void
fx_feature_str(struct fx *f, uint64_t feat_id, const char *s, uint32_t len)
{
	size_t at = fx_rec_begin(f, PD_RECORD_HEADER_FEATURE, 0);

	fx_u64(f, feat_id);
	fx_u32(f, len);
	fx_str(f, s, len);
	fx_rec_end(f, at);
}

/*
 * The attr's bitfield word: a big-endian compiler allocates bitfields
 * from the most significant bit, a field's own bits in their order.
 */
static uint64_t
flags_word(const struct fx_attr *a, int be)
{
	uint64_t v = 0;
	int i;

	if (!be)
		return a->flags | (uint64_t)a->precise_ip << 15;
	for (i = 0; i < 64; i++)
		if (a->flags >> i & 1)
			v |= 1ULL << (63 - i);
	return v | (uint64_t)a->precise_ip << 47;
}

void
fx_attr(struct fx *f, const struct fx_attr *a)
{
	size_t at = f->len;

	fx_u32(f, a->type);
	fx_u32(f, a->size);
	fx_u64(f, a->config);
	fx_u64(f, a->period);
	fx_u64(f, a->sample_type);
	fx_u64(f, a->read_format);
	fx_u64(f, flags_word(a, f->be));
	fx_u32(f, 0);			/* wakeup_events */
	fx_u32(f, 0);			/* bp_type */
	fx_u64(f, 0);			/* config1 */
	fx_u64(f, 0);			/* config2 */
	fx_u64(f, a->branch_sample_type);
	fx_u64(f, a->regs_user);
	fx_u32(f, a->stack_user);
	fx_u32(f, a->clockid);
	fx_zero(f, at + (a->size ? a->size : 64) - f->len);
}

void
fx_header_attr(struct fx *f, const struct fx_attr *a, const uint64_t *ids,
    int nids)
{
	size_t at = fx_rec_begin(f, PD_RECORD_HEADER_ATTR, 0);
	int i;

	fx_attr(f, a);
	for (i = 0; i < nids; i++)
		fx_u64(f, ids[i]);
	fx_rec_end(f, at);
}

void
fx_trailer(struct fx *f, uint32_t pid, uint32_t tid, uint64_t time,
    uint64_t id, uint32_t cpu)
{
	fx_u32(f, pid);
	fx_u32(f, tid);
	fx_u64(f, time);
	fx_u64(f, id);
	fx_u32(f, cpu);
	fx_u32(f, 0);
}

size_t
fx_sample(struct fx *f, uint16_t misc, uint64_t ip, uint32_t pid,
    uint32_t tid, uint64_t time, uint64_t id, uint32_t cpu, uint64_t period)
{
	size_t at = fx_rec_begin(f, PERF_RECORD_SAMPLE, misc);

	fx_u64(f, ip);
	fx_u32(f, pid);
	fx_u32(f, tid);
	fx_u64(f, time);
	fx_u64(f, id);
	fx_u32(f, cpu);
	fx_u32(f, 0);
	fx_u64(f, period);
	return at;
}
