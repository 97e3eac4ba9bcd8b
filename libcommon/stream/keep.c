/* SPDX-License-Identifier: MIT */
#include "libcommon/stream/keep.h"

#include <string.h>

void
pd_keep_init(struct pd_keep *k)
{
	memset(k, 0, sizeof(*k));
	k->on = 1;
	memset(k->lent, -1, sizeof(k->lent));
}

void
pd_keep_off(struct pd_keep *k, struct pd_reader *rd, unsigned buf)
{
	pd_reader_release(rd, buf);
	k->on = 0;
}

void
pd_keep_give_back(struct pd_keep *k, struct pd_ordered *q,
    struct pd_reader *rd)
{
	uint64_t out = pd_ordered_out_upto(q);
	unsigned b;

	for (b = 0; b < PD_READER_HOLD_BUFS; b++)
		if (k->newest[b] <= out) {
			pd_reader_release(rd, b);
			k->newest[b] = 0;
		}
}
