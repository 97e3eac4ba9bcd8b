/* SPDX-License-Identifier: MIT */
/*
 * walk [file]: the fastest record walk of a pipe-mode stream, the floor
 * make bench measures every tool against (issue 23): the input read in
 * 1 MiB chunks, each record's header read for its size and the walk
 * moved on, nothing else. Prints the number of records.
 *
 * Not pd_reader: this is what the reader costs compared with, so it
 * does the least any reader must - a native-endian pipe stream's
 * headers, and the payload that follows a HEADER_TRACING_DATA or an
 * AUXTRACE record outside its size (the two that have one; see
 * FORMAT.md). Anything else (file mode, the other byte order) it says
 * it does not take: it is a yardstick, not a tool.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libcommon/stream/perf.h"

#define CHUNK	(1U << 20)

/* The pipe header's magic, "PERFILE2" as a little-endian u64. */
#define MAGIC2	0x32454c4946524550ULL

int
main(int argc, char **argv)
{
	static unsigned char buf[CHUNK + 64];
	uint64_t nrec = 0, skip = 0, pos = 0;
	size_t have = 0, at = 0;
	ssize_t got;
	int fd = 0, head = 1;

	if (argc > 1 && strcmp(argv[1], "-") != 0 &&
	    (fd = open(argv[1], O_RDONLY)) < 0) {
		fprintf(stderr, "walk: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	for (;;) {
		/* What is left of a header moves to the front. */
		memmove(buf, buf + at, have - at);
		have -= at;
		at = 0;
		if ((got = read(fd, buf + have, CHUNK)) < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "walk: read: %s\n", strerror(errno));
			return 1;
		}
		if (got == 0)
			break;
		have += (size_t)got;
		if (head) {
			uint64_t magic, size;

			if (have < 16)
				continue;
			memcpy(&magic, buf, 8);
			memcpy(&size, buf + 8, 8);
			if (magic != MAGIC2 || size < 16) {
				fprintf(stderr, "walk: not a native pipe "
				    "stream\n");
				return 1;
			}
			skip = size;
			head = 0;
		}
		for (;;) {
			uint32_t type;
			uint16_t size;

			/* Bytes to pass over: a record's rest, a payload. */
			if (skip > 0) {
				uint64_t k = have - at < skip ? have - at :
				    skip;

				at += k;
				skip -= k;
				pos += k;
				if (skip > 0)
					break;
			}
			if (have - at < 8)
				break;
			memcpy(&type, buf + at, 4);
			memcpy(&size, buf + at + 6, 2);
			/* Their payloads' sizes follow the header. */
			if ((type == PD_RECORD_HEADER_TRACING_DATA ||
			    type == PD_RECORD_AUXTRACE) && have - at < 16)
				break;
			if (size < 8) {
				fprintf(stderr, "walk: offset 0x%" PRIx64
				    ": record size %u\n", pos, size);
				return 1;
			}
			nrec++;
			skip = size;
			/* Their payloads follow the record. */
			if (type == PD_RECORD_HEADER_TRACING_DATA) {
				uint32_t n;

				memcpy(&n, buf + at + 8, 4);
				skip += n;
			} else if (type == PD_RECORD_AUXTRACE) {
				uint64_t n;

				memcpy(&n, buf + at + 8, 8);
				skip += n;
			}
		}
	}
	if (skip > 0 || have - at > 0) {
		fprintf(stderr, "walk: offset 0x%" PRIx64 ": stream ends in a "
		    "record\n", pos);
		return 1;
	}
	printf("%" PRIu64 " records\n", nrec);
	return 0;
}
