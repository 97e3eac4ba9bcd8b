/* SPDX-License-Identifier: MIT */
/*
 * pd_utf8_seq against RFC 3629's table of well-formed sequences: what
 * it accepts a JSON writer copies as it is, so it must accept nothing
 * a strict decoder (python's json.loads of the bytes) would refuse.
 */
#include <string.h>

#include "libcommon/stream/utf8.h"
#include "tests/unit/t.h"

static size_t
seq(const char *s)
{
	return pd_utf8_seq((const unsigned char *)s, strlen(s));
}

int
main(void)
{
	T(seq("a") == 1);
	T(seq("\x7f") == 1);
	T(seq("\xc3\xa9") == 2);		/* U+00E9 */
	T(seq("\xe2\x82\xac") == 3);		/* U+20AC */
	T(seq("\xf0\x9f\x98\x80") == 4);	/* U+1F600 */
	T(seq("\xf4\x8f\xbf\xbf") == 4);	/* U+10FFFF */
	T(seq("\xff") == 0);
	T(seq("\xfe") == 0);
	T(seq("\x80") == 0);			/* a lone continuation */
	T(seq("\xc0\xaf") == 0);		/* overlong '/' */
	T(seq("\xc1\xbf") == 0);
	T(seq("\xe0\x80\xaf") == 0);		/* overlong */
	T(seq("\xed\xa0\x80") == 0);		/* surrogate U+D800 */
	T(seq("\xf0\x80\x80\xaf") == 0);	/* overlong */
	T(seq("\xf4\x90\x80\x80") == 0);	/* past U+10FFFF */
	T(seq("\xf5\x80\x80\x80") == 0);
	T(seq("\xc3") == 0);			/* cut short */
	T(seq("\xe2\x82") == 0);
	T(seq("\xc3\x41") == 0);		/* not a continuation */
	T(seq("\xe2\x82\x41") == 0);
	return T_END();
}
