/* SPDX-License-Identifier: MIT */
/*
 * pddump's output buffer: one big buffer, numbers formatted by hand,
 * written with write(2) when full. printf per field is several times
 * slower on the sample path (measured), and the text is most of the work.
 */
#ifndef PDDUMP_OUT_H
#define PDDUMP_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define OUT_SIZE	(1U << 20)
#define OUT_SLACK	512	/* room any single put below may use */

extern char	 out_buf[OUT_SIZE];
extern size_t	 out_len;

void	out_flush(void);		/* dies on a write error */
void	out_mem(const void *p, size_t n);
void	out_json_str(const char *s, size_t n);	/* "..." escaped */
void	out_text_str(const char *s, size_t n);	/* quoted when needed */
void	out_esc(const char *s, size_t n);	/* escaped, not quoted */
void	out_hexbytes(const unsigned char *p, size_t n);

static inline void
out_room(size_t n)
{
	if (out_len + n > OUT_SIZE)
		out_flush();
}

static inline void
out_ch(char c)
{
	out_room(1);
	out_buf[out_len++] = c;
}

/* A short constant or literal (< OUT_SLACK bytes). */
static inline void
out_lit(const char *s, size_t n)
{
	out_room(n);
	memcpy(out_buf + out_len, s, n);
	out_len += n;
}

#define OUT_S(s)	out_lit((s), sizeof(s) - 1)

static inline void
out_str(const char *s)
{
	out_mem(s, strlen(s));
}

static inline void
out_u64(uint64_t v)
{
	char t[20];
	int i = 20;

	out_room(20);
	do {
		t[--i] = '0' + v % 10;
		v /= 10;
	} while (v != 0);
	memcpy(out_buf + out_len, t + i, 20 - i);
	out_len += 20 - i;
}

static inline void
out_s64(int64_t v)
{
	if (v < 0) {
		out_ch('-');
		out_u64(-(uint64_t)v);
	} else
		out_u64(v);
}

/* "0x" and lowercase hex, no leading zeros. */
static inline void
out_x64(uint64_t v)
{
	static const char hx[] = "0123456789abcdef";
	char t[16];
	int i = 16;

	out_room(18);
	do {
		t[--i] = hx[v & 15];
		v >>= 4;
	} while (v != 0);
	out_buf[out_len++] = '0';
	out_buf[out_len++] = 'x';
	memcpy(out_buf + out_len, t + i, 16 - i);
	out_len += 16 - i;
}

#endif /* PDDUMP_OUT_H */
