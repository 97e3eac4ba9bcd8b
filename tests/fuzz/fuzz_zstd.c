/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the zstd path on its own. The input is cut into
 * COMPRESSED and COMPRESSED2 records (a u16 before each piece: its length,
 * and in the top bit which of the two)
 * that feed one decoder, as the reader does; every record it yields is
 * checked to lie within what was decompressed. Then the same again as
 * raw bytes into a small buffer (pd_zdec_inflate, as pdswap reads).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "libcommon/stream/evlist.h"
#include "libcommon/stream/perf.h"
#include "libcommon/stream/zdec.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
run(const uint8_t *data, size_t size, int raw)
{
	static unsigned char rec[PD_REC_MAX + 1], buf[4099];
	struct pd_evlist el;
	struct pd_zdec *z;
	struct pd_err err;
	struct pd_rec in, out;
	size_t off = 0, n;
	int r, type2;

	pd_evlist_init(&el);
	if ((z = pd_zdec_new(&el, 0)) == NULL)
		return;
	memset(&err, 0, sizeof(err));
	while (off < size) {
		if (size - off < 2)
			break;
		n = data[off] | (data[off + 1] & 0x7f) << 8;
		type2 = data[off + 1] >> 7;
		off += 2;
		if (n > size - off)
			n = size - off;
		if (n + 16 > PD_REC_MAX)
			n = PD_REC_MAX - 16;
		memset(&in, 0, sizeof(in));
		in.type = type2 ? PD_RECORD_COMPRESSED2 : PD_RECORD_COMPRESSED;
		in.data = rec;
		if (type2) {
			pd_put_u64(rec + 8, n);
			memcpy(rec + 16, data + off, n);
			in.size = PD_ALIGN8(16 + n);
			memset(rec + 16 + n, 0, in.size - 16 - n);
		} else {
			memcpy(rec + 8, data + off, n);
			in.size = 8 + n;
		}
		pd_put_u32(rec, in.type);
		pd_put_u16(rec + 6, in.size);
		off += n;
		if (pd_zdec_feed(z, &in, &err) < 0)
			break;
		if (raw) {
			size_t pos;

			do {
				pos = 0;
				r = pd_zdec_inflate(z, buf, sizeof(buf), &pos,
				    &err);
				if (pos > 0 && buf[pos - 1] == 0x5a)
					(void)0;
			} while (r > 0);
		} else
			while ((r = pd_zdec_next(z, &out, &err)) > 0)
				if (out.size < 8 ||
				    out.data[out.size - 1] == 0x5a)
					(void)0;
		if (r < 0)
			break;
	}
	pd_zdec_end(z, &err);
	pd_zdec_free(z);
	pd_evlist_free(&el);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	run(data, size, 0);
	run(data, size, 1);
	return 0;
}
