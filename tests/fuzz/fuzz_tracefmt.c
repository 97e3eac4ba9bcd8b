/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the tracing-data parser. The input is a blob as it
 * follows HEADER_TRACING_DATA; every event it yields has its fields
 * looked up in a RAW buffer made of the input's own bytes, and its text
 * made from that buffer (pd_tptext: libtraceevent parses the formats
 * and applies them, so its faults are found here too).
 */
#include <stddef.h>
#include <stdint.h>

#include "libcommon/stream/tptext.h"
#include "libcommon/stream/tracefmt.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pd_tracefmt *tf = pd_tracefmt_new();
	struct pd_tptext *tt = pd_tptext_new();
	const unsigned char *p;
	const char *s;
	const char *why;
	size_t i, k, n;
	uint64_t sum = 0;
	int be;

	if (tf == NULL || tt == NULL)
		goto out;
	/* In two pieces, as the reader hands payloads out in chunks. */
	if (pd_tracefmt_add(tf, data, size / 2, &why) == 0 &&
	    pd_tracefmt_add(tf, data + size / 2, size - size / 2, &why) == 0)
		pd_tracefmt_finish(tf, &why);
	be = pd_tracefmt_big_endian(tf);
	for (i = 0; i < pd_tracefmt_nevents(tf); i++) {
		const struct pd_tf_event *ev = pd_tracefmt_event_at(tf, i);

		if (pd_tracefmt_event(tf, ev->id) == NULL)
			__builtin_trap();
		for (k = 0; k < ev->nfields; k++) {
			const struct pd_tf_field *f = &ev->fields[k];

			if (pd_tf_field_bytes(f, be, data, size, &p, &n) ==
			    0 && n > 0) {
				sum += p[n - 1];
				if (f->elem_size == 1 || f->elem_size == 2 ||
				    f->elem_size == 4 || f->elem_size == 8)
					if (n >= f->elem_size)
						sum += pd_tf_get(p,
						    f->elem_size, be,
						    f->is_signed);
			}
		}
		if ((s = pd_tptext_render(tt, tf, ev, data, size, &n)) !=
		    NULL && n > 0)
			sum += (unsigned char)s[n - 1];
	}
	(void)sum;
out:
	pd_tptext_free(tt);
	pd_tracefmt_free(tf);
	return 0;
}
