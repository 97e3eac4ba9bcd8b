/* SPDX-License-Identifier: MIT */
#include "libcommon/esc.h"

#include <string.h>

static int
special(unsigned char c)
{
	return c < 0x20 || c >= 0x7f || c == '"' || c == '\\';
}

int
pd_esc_needed(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (special(s[i]))
			return 1;
	return 0;
}

/* One byte's escape into d (room for 4); returns its length. */
static size_t
esc1(char *d, unsigned char c)
{
	static const char hx[] = "0123456789abcdef";

	if (!special(c)) {
		d[0] = c;
		return 1;
	}
	d[0] = '\\';
	if (c == '"' || c == '\\') {
		d[1] = c;
		return 2;
	}
	d[1] = 'x';
	d[2] = hx[c >> 4];
	d[3] = hx[c & 15];
	return 4;
}

size_t
pd_esc(char *dst, const char *s, size_t n)
{
	size_t i, o = 0;

	for (i = 0; i < n; i++)
		o += esc1(dst + o, s[i]);
	dst[o] = '\0';
	return o;
}

const char *
pd_esc_str(const char *s, char *buf, size_t len)
{
	char e[4];
	size_t n = strlen(s), i, o = 0, k;

	if (!pd_esc_needed(s, n))
		return s;
	if (len == 0)
		return "";
	for (i = 0; i < n; i++) {
		k = esc1(e, s[i]);
		if (o + k >= len)
			break;
		memcpy(buf + o, e, k);
		o += k;
	}
	buf[o] = '\0';
	return buf;
}
