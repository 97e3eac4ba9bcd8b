/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the file-mode reader. Every input is made a
 * file-mode perf.data (PERFILE2 magic in the byte order the input's
 * first byte picks, a header size of 104 or 72), so that mutations
 * land in the section table, the attrs and their ids, the feature
 * bitmap and sections, and the data section rather than in a magic
 * the reader rejects at once. Each input is then walked as
 * fuzz_reader does, with every reader mode a tool uses.
 */
#define FUZZ_WALK_ONLY
#include "fuzz_reader.c"

#include <byteswap.h>
#include <stdlib.h>

#include "libcommon/stream/perf.h"

static void
put64(unsigned char *p, uint64_t v, int be)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = v >> 8 * (be ? 7 - i : i);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *buf;
	uint64_t hsz;
	int fd, be;

	if (size < 16 || (buf = malloc(size)) == NULL)
		return 0;
	memcpy(buf, data, size);
	/*
	 * Keep a big-endian seed's byte order and a seed's header size;
	 * anything else becomes native order and the current header size.
	 */
	be = memcmp(buf, "2ELIFREP", 8) == 0;
	put64(buf, 0x32454c4946524550ULL, be);	/* "PERFILE2" */
	hsz = be ? bswap_64(pd_get_u64(buf + 8)) : pd_get_u64(buf + 8);
	if (hsz != PD_FILE_HDR_SIZE && hsz != PD_FILE_HDR_SIZE_OLD)
		put64(buf + 8, PD_FILE_HDR_SIZE, be);
	if ((fd = memfd_create("fuzz", 0)) >= 0) {
		if (write(fd, buf, size) == (ssize_t)size) {
			walk(fd, 0);
			walk(fd, PD_RD_DECOMPRESS | PD_RD_KEEP_COMPRESSED);
			walk(fd, PD_RD_STORED);
		}
		close(fd);
	}
	free(buf);
	return 0;
}
