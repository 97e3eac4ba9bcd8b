/* SPDX-License-Identifier: MIT */
/*
 * pd_esc_needed and pd_esc_bare read eight bytes at a time: against
 * the byte rules, for every byte value at every place of words and
 * tails, and every pair of byte values within one word; and pd_esc's
 * escapes.
 */
#include <string.h>

#include "libcommon/stream/esc.h"
#include "tests/unit/t.h"

static int
special(unsigned char c)
{
	return c < 0x20 || c >= 0x7f || c == '"' || c == '\\';
}

/* pddump's bare values: no escape, no space, no '='. */
static int
not_bare(unsigned char c)
{
	return special(c) || c == ' ' || c == '=';
}

int
main(void)
{
	char buf[40], out[PD_ESC_ROOM(8)];
	unsigned bad = 0;
	int c, d, pos, len;

	for (c = 0; c < 256; c++)
		for (pos = 0; pos < 20; pos++)
			for (len = pos + 1; len <= 20; len++) {
				memset(buf, 'a', sizeof(buf));
				buf[pos] = (char)c;
				bad += pd_esc_needed(buf, len) !=
				    special((unsigned char)c);
				/* Nothing past n counts. */
				bad += pd_esc_needed(buf, pos) != 0;
				bad += pd_esc_bare(buf, len) ==
				    not_bare((unsigned char)c);
				bad += pd_esc_bare(buf, pos) != (pos > 0);
			}
	T(bad == 0);
	bad = 0;
	for (c = 0; c < 256; c++)
		for (d = 0; d < 256; d++) {
			memset(buf, 'm', 16);
			buf[2] = (char)c;
			buf[5] = (char)d;
			bad += pd_esc_needed(buf, 16) !=
			    (special((unsigned char)c) ||
			    special((unsigned char)d));
			/* 13: the last word overlaps, the pair in both. */
			bad += pd_esc_bare(buf, 13) ==
			    (not_bare((unsigned char)c) ||
			    not_bare((unsigned char)d));
		}
	T(bad == 0);
	T(pd_esc(out, "a\"b\\c\x1b\xff", 7) == 15);
	T(strcmp(out, "a\\\"b\\\\c\\x1b\\xff") == 0);
	T(strcmp(pd_esc_str("plain", buf, sizeof(buf)), "plain") == 0);
	return T_END();
}
