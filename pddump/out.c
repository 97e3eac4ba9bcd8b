/* SPDX-License-Identifier: MIT */
#include "pddump/out.h"

#include <errno.h>
#include <unistd.h>

#include "libcommon/stream/esc.h"
#include "libcommon/cli/msg.h"

char	out_buf[OUT_SIZE];
size_t	out_len;

/* Two hex digits at a time, "00" to "ff" (decimal: pd_dec2). */
const char out_hex2[512] =
	"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
	"202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
	"404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
	"606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
	"808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
	"a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
	"c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
	"e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";
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
