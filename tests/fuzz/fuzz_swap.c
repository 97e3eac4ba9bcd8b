/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the byte swapper. Every record of the input (read
 * as a stream, in either byte order) goes out to the other order and back
 * in; where both directions say the conversion was exact, the result
 * must be the record again, byte for byte.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "libcommon/stream/perf.h"
#include "libcommon/stream/reader.h"
#include "libcommon/stream/swap.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static unsigned char buf[PD_REC_MAX + 1];
	struct pd_reader *rd;
	struct pd_err err;
	struct pd_rec rec;
	const char *why;
	int fd = memfd_create("fuzz", 0), out, in;

	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size ||
	    lseek(fd, 0, SEEK_SET) < 0 ||
	    (rd = pd_reader_fdopen(fd, "fuzz", PD_RD_DECOMPRESS, &err)) ==
	    NULL) {
		close(fd);
		return 0;
	}
	while (pd_reader_next(rd, &rec) > 0) {
		memcpy(buf, rec.data, rec.size);
		out = pd_swap_rec_out(pd_reader_evlist(rd), buf, &why);
		if (out < 0)
			continue;
		pd_swap_header(buf);
		in = pd_swap_rec(pd_reader_evlist(rd), buf, &why);
		if (out == 0 && in == 0 && memcmp(buf, rec.data, rec.size))
			abort();	/* a conversion that is not exact */
	}
	pd_reader_close(rd);
	close(fd);
	return 0;
}
