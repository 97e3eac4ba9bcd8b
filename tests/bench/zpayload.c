/* SPDX-License-Identifier: MIT */
/*
 * zpayload < stream > payload.zst: the zstd bytes of every COMPRESSED and
 * COMPRESSED2 record, concatenated, with an empty last block appended so
 * that the never-ended frame perf writes becomes a complete one. The
 * `zstd -d` side of the zstd benchmark reads this, so it decompresses
 * exactly what `pdcat -d` decompresses.
 */
#include <stdio.h>
#include <unistd.h>

#include "libcommon/cli/msg.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/reader.h"
#include "libcommon/stream/writer.h"

int
main(int argc, char **argv)
{
	/* A raw block of size 0 with the last-block bit: ends the frame. */
	static const unsigned char end_block[3] = { 1, 0, 0 };
	struct pd_err err;
	struct pd_reader *rd;
	struct pd_writer *w;
	struct pd_rec rec;
	int r, n = 0;

	pd_setprogname(argv[0]);
	if ((rd = pd_reader_open(argc > 1 ? argv[1] : NULL, 0, &err)) ==
	    NULL) {
		pd_print_err(&err);
		return 1;
	}
	if ((w = pd_writer_new(STDOUT_FILENO)) == NULL)
		return 1;
	while ((r = pd_reader_next(rd, &rec)) > 0) {
		if (rec.type == PD_RECORD_COMPRESSED)
			r = pd_writer_put(w, rec.data + 8, rec.size - 8);
		else if (rec.type == PD_RECORD_COMPRESSED2)
			r = pd_writer_put(w, rec.data + 16,
			    pd_get_u64(rec.data + 8));
		else
			continue;
		if (r < 0)
			pd_die_write("<stdout>");
		n++;
	}
	if (r < 0) {
		pd_print_err(pd_reader_err(rd));
		return 1;
	}
	if (n > 0 && pd_writer_put(w, end_block, sizeof(end_block)) < 0)
		pd_die_write("<stdout>");
	if (pd_writer_free(w) < 0)
		pd_die_write("<stdout>");
	pd_reader_close(rd);
	return 0;
}
