/* SPDX-License-Identifier: MIT */
/*
 * PD_RD_KEEP_COMPRESSED: a COMPRESSED record comes out as stored, then
 * the records it holds (flagged PD_REC_DECOMPRESSED), then what follows;
 * without the flag only one of the two views comes out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "libcommon/stream/perf.h"
#include "libcommon/stream/reader.h"
#include "t.h"

static size_t
put_rec(unsigned char *p, uint32_t type, uint16_t size)
{
	memset(p, 0, size);
	pd_put_u32(p, type);
	pd_put_u16(p + 6, size);
	return size;
}

/* Pipe header, COMPRESSED{LOST, LOST}, FINISHED_ROUND. */
static size_t
make_stream(unsigned char *s, size_t *zsize)
{
	unsigned char inner[48];
	size_t n = 0, z;

	put_rec(inner, PERF_RECORD_LOST, 24);
	pd_put_u64(inner + 16, 5);
	put_rec(inner + 24, PERF_RECORD_LOST, 24);
	pd_put_u64(inner + 40, 6);
	pd_put_u64(s, PD_MAGIC2);
	pd_put_u64(s + 8, 16);
	n = 16;
	z = ZSTD_compress(s + n + 8, 1024, inner, sizeof(inner), 1);
	if (ZSTD_isError(z))
		return 0;
	pd_put_u32(s + n, PD_RECORD_COMPRESSED);
	pd_put_u16(s + n + 4, 0);
	pd_put_u16(s + n + 6, 8 + z);
	n += 8 + z;
	n += put_rec(s + n, PD_RECORD_FINISHED_ROUND, 8);
	*zsize = 8 + z;
	return n;
}

/* Reads the stream with `flags`; types and flags into t[], f[]. */
static int
read_all(const unsigned char *s, size_t n, int flags, uint32_t *t,
    unsigned *f, uint64_t *lost, int *cmp_ok)
{
	struct pd_reader *rd;
	struct pd_err err;
	struct pd_rec rec;
	int fd[2], k = 0;

	if (pipe(fd) < 0 || write(fd[1], s, n) != (ssize_t)n)
		return -1;
	close(fd[1]);
	if ((rd = pd_reader_fdopen(fd[0], "test", flags, &err)) == NULL)
		return -1;
	*lost = 0;
	while (k < 8 && pd_reader_next(rd, &rec) > 0) {
		t[k] = rec.type;
		f[k] = rec.flags;
		if (rec.type == PERF_RECORD_LOST)
			*lost += pd_get_u64(rec.data + 16);
		/* The COMPRESSED record is handed out whole, as stored. */
		if (rec.type == PD_RECORD_COMPRESSED)
			*cmp_ok = rec.size > 8 &&
			    memcmp(rec.data, s + 16, rec.size) == 0 &&
			    rec.offset == 16;
		k++;
	}
	if (pd_reader_err(rd)->msg[0] != '\0')
		k = -1;
	pd_reader_close(rd);
	close(fd[0]);
	return k;
}

int
main(void)
{
	unsigned char s[2048];
	uint32_t t[8];
	unsigned f[8];
	uint64_t lost;
	size_t n, zsize;
	int k, cmp_ok;

	n = make_stream(s, &zsize);
	T(n > 0);

	cmp_ok = 0;
	k = read_all(s, n, PD_RD_DECOMPRESS | PD_RD_KEEP_COMPRESSED, t, f,
	    &lost, &cmp_ok);
	T(k == 4);
	T(t[0] == PD_RECORD_COMPRESSED && f[0] == 0);
	T(cmp_ok);
	T(t[1] == PERF_RECORD_LOST && f[1] == PD_REC_DECOMPRESSED);
	T(t[2] == PERF_RECORD_LOST && f[2] == PD_REC_DECOMPRESSED);
	T(t[3] == PD_RECORD_FINISHED_ROUND && f[3] == 0);
	T(lost == 11);

	k = read_all(s, n, PD_RD_DECOMPRESS, t, f, &lost, &cmp_ok);
	T(k == 3);
	T(t[0] == PERF_RECORD_LOST && t[1] == PERF_RECORD_LOST);
	T(t[2] == PD_RECORD_FINISHED_ROUND);
	T(lost == 11);

	cmp_ok = 0;
	k = read_all(s, n, 0, t, f, &lost, &cmp_ok);
	T(k == 2);
	T(t[0] == PD_RECORD_COMPRESSED && cmp_ok);
	T(t[1] == PD_RECORD_FINISHED_ROUND);
	T(lost == 0);
	return T_END();
}
