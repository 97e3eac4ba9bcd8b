/* SPDX-License-Identifier: MIT */
/*
 * pd_reader_hold: a held record's bytes stay where they were read, as
 * read or as the caller changed them, however far reading goes on; the
 * reader holds in at most PD_READER_HOLD_BUFS - 1 buffers at once and
 * then says no (the caller copies), until buffers are released; every
 * record still comes out once, in order. A stream of 6 MiB of LOST
 * records numbered 0, 1, 2 ..., some of odd sizes so that records
 * straddle the reads.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "libcommon/stream/perf.h"
#include "libcommon/stream/reader.h"
#include "t.h"

#define NREC	200000
#define HELD_MAX	(3 * PD_READER_BUF_SIZE / 24)

static unsigned char *held[HELD_MAX];
static uint64_t held_n[HELD_MAX];

static int
make_input(void)
{
	unsigned char r[64];
	int fd = memfd_create("pdtest", 0);
	uint64_t i;
	uint16_t size;

	if (fd < 0)
		abort();
	pd_put_u64(r, PD_MAGIC2);
	pd_put_u64(r + 8, 16);
	if (write(fd, r, 16) != 16)
		abort();
	for (i = 0; i < NREC; i++) {
		size = i % 7 == 3 ? 40 : 32;
		memset(r, 0, sizeof(r));
		pd_put_u32(r, PERF_RECORD_LOST);
		pd_put_u16(r + 6, size);
		pd_put_u64(r + 8, i);		/* id: the record's number */
		pd_put_u64(r + 16, ~i);
		if (write(fd, r, size) != size)
			abort();
	}
	if (lseek(fd, 0, SEEK_SET) != 0)
		abort();
	return fd;
}

int
main(void)
{
	struct pd_reader *rd;
	struct pd_err err;
	struct pd_rec rec;
	unsigned char *p;
	unsigned buf, used = 0;
	size_t off, nheld = 0, k, refused = 0, bad = 0, order = 0;
	uint64_t n = 0;
	int fd = make_input(), phase = 0;

	rd = pd_reader_fdopen(fd, "in", 0, &err);
	T(rd != NULL);
	if (rd == NULL)
		return T_END();
	while (pd_reader_next(rd, &rec) == 1) {
		if (pd_get_u64(rec.data + 8) != n)
			order++;
		n++;
		p = pd_reader_hold(rd, &rec, &buf, &off);
		if (phase == 0 && p == NULL) {
			/*
			 * Every other buffer held: the held records are
			 * intact, and changed ones stay changed. Then all
			 * go back, and holding goes on.
			 */
			refused++;
			for (k = 0; k < nheld; k++)
				if (pd_get_u64(held[k] + 8) != held_n[k] ||
				    pd_get_u64(held[k] + 16) != held_n[k] + 1)
					bad++;
			for (k = 0; k < PD_READER_HOLD_BUFS; k++)
				pd_reader_release(rd, k);
			phase = 1;
			continue;
		}
		if (p == NULL) {
			refused++;
			continue;
		}
		T(p == rec.data && buf < PD_READER_HOLD_BUFS);
		used |= 1u << buf;
		if (phase == 0 && nheld < HELD_MAX) {
			/* Changed in place, as pdsort's join does. */
			pd_put_u64(p + 16, pd_get_u64(p + 8) + 1);
			held[nheld] = p;
			held_n[nheld++] = pd_get_u64(p + 8);
		} else if (phase == 1) {
			/* Let go at once: the reader keeps reusing. */
			pd_reader_release(rd, buf);
		}
	}
	T(pd_reader_err(rd)->msg[0] == '\0');
	T(n == NREC && order == 0);
	/* Held up to the last free buffer, then refused once. */
	T(nheld > 2 * PD_READER_BUF_SIZE / 40 && nheld < HELD_MAX);
	T(refused == 1 && bad == 0);
	T(used == (1u << PD_READER_HOLD_BUFS) - 1);
	pd_reader_close(rd);
	close(fd);
	return T_END();
}
