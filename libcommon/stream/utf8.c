/* SPDX-License-Identifier: MIT */
#include "libcommon/stream/utf8.h"

size_t
pd_utf8_seq(const unsigned char *p, size_t n)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (p[0] < 0x80)
		return 1;
	if (p[0] < 0xc2)
		return 0;		/* continuation byte, or overlong */
	if (p[0] < 0xe0)
		len = 2;
	else if (p[0] < 0xf0) {
		len = 3;
		if (p[0] == 0xe0)
			lo = 0xa0;	/* overlong */
		else if (p[0] == 0xed)
			hi = 0x9f;	/* surrogates */
	} else if (p[0] < 0xf5) {
		len = 4;
		if (p[0] == 0xf0)
			lo = 0x90;	/* overlong */
		else if (p[0] == 0xf4)
			hi = 0x8f;	/* past U+10FFFF */
	} else
		return 0;
	if (n < len || p[1] < lo || p[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return len;
}
