/* SPDX-License-Identifier: MIT */
#include "pddump/out.h"

#include <errno.h>
#include <unistd.h>

#include "libcommon/stream/esc.h"
#include "libcommon/cli/msg.h"

char	out_buf[OUT_SIZE];
size_t	out_len;

const uint64_t out_pow10[20] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
	10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL,
	100000000000ULL, 1000000000000ULL, 10000000000000ULL,
	100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
	100000000000000000ULL, 1000000000000000000ULL,
	10000000000000000000ULL,
};

void
out_flush(void)
{
	size_t off = 0;
	ssize_t n;

	while (off < out_len) {
		n = write(STDOUT_FILENO, out_buf + off, out_len - off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			pd_die_write("standard output");
		}
		off += n;
	}
	out_len = 0;
}

void
out_mem(const void *p, size_t n)
{
	const char *s = p;

	while (n > 0) {
		size_t k;

		if (out_len == OUT_SIZE)
			out_flush();
		k = OUT_SIZE - out_len;
		if (k > n)
			k = n;
		memcpy(out_buf + out_len, s, k);
		out_len += k;
		s += k;
		n -= k;
	}
}

void
out_str_tail(const char *s, size_t from)
{
	out_mem(s + from, strlen(s + from));
}

void
out_json_str(const char *s, size_t n)
{
	static const char hx[] = "0123456789abcdef";
	size_t i;

	out_ch('"');
	for (i = 0; i < n; i++) {
		unsigned char c = s[i];

		out_room(6);
		if (c == '"' || c == '\\') {
			out_buf[out_len++] = '\\';
			out_buf[out_len++] = c;
		} else if (c < 0x20 || c >= 0x7f) {
			/* Bytes, not UTF-8: each stays one code point. */
			out_buf[out_len++] = '\\';
			out_buf[out_len++] = 'u';
			out_buf[out_len++] = '0';
			out_buf[out_len++] = '0';
			out_buf[out_len++] = hx[c >> 4];
			out_buf[out_len++] = hx[c & 15];
		} else
			out_buf[out_len++] = c;
	}
	out_ch('"');
}

void
out_esc(const char *s, size_t n)
{
	size_t k;

	if (!pd_esc_needed(s, n)) {
		out_mem(s, n);
		return;
	}
	for (; n > 0; s += k, n -= k) {
		k = n < 64 ? n : 64;
		out_room(PD_ESC_ROOM(k));
		out_len += pd_esc(out_buf + out_len, s, k);
	}
}

void
out_text_str(const char *s, size_t n)
{
	if (pd_esc_bare(s, n)) {
		out_mem(s, n);
		return;
	}
	out_ch('"');
	out_esc(s, n);
	out_ch('"');
}

void
out_hexbytes(const unsigned char *p, size_t n)
{
	static const char hx[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		out_room(2);
		out_buf[out_len++] = hx[p[i] >> 4];
		out_buf[out_len++] = hx[p[i] & 15];
	}
}
