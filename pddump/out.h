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

#include "libcommon/cli/digits.h"

#define OUT_SIZE	(1U << 20)
#define OUT_SLACK	512	/* room any single put below may use */

extern char	 out_buf[OUT_SIZE];
extern size_t	 out_len;
extern const uint64_t	 out_pow10[20];

void	out_flush(void);		/* dies on a write error */
void	out_mem(const void *p, size_t n);
void	out_json_str(const char *s, size_t n);	/* "..." escaped */
void	out_text_str(const char *s, size_t n);	/* quoted when needed */
void	out_esc(const char *s, size_t n);	/* escaped, not quoted */
void	out_hexbytes(const unsigned char *p, size_t n);
void	out_str_tail(const char *s, size_t from);	/* s + from on */

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

/*
 * A NUL-terminated string. Most are names of a few bytes, copied in
 * place: strlen and a memcpy call cost more than the bytes.
 */
static inline void
out_str(const char *s)
{
	char *d;
	size_t i;

	out_room(32);
	d = out_buf + out_len;
	for (i = 0; i < 32 && s[i] != '\0'; i++)
		d[i] = s[i];
	out_len += i;
	if (i == 32)
		out_str_tail(s, 32);
}

/*
 * Numbers are most of the text: written in place, digits counted first
 * and set two at a time.
 */
static inline void
out_u64_nc(uint64_t v)
{
	/* bits * log10(2), then one more if v reaches that power of 10 */
	unsigned t = (64 - __builtin_clzll(v | 1)) * 1233 >> 12;
	unsigned n = t + (v >= out_pow10[t]);

	n += n == 0;
	/* Written back from where the n digits end. */
	(void)pd_rdec(out_buf + out_len + n, v);
	out_len += n;
}

static inline void
out_u64(uint64_t v)
{
	out_room(20);
	out_u64_nc(v);
}

static inline void
out_s64_nc(int64_t v)
{
	if (v < 0) {
		out_buf[out_len++] = '-';
		out_u64_nc(-(uint64_t)v);
	} else
		out_u64_nc(v);
}

static inline void
out_s64(int64_t v)
{
	out_room(21);
	out_s64_nc(v);
}

/*
 * The _nc forms make no room: for a caller that made room for a run of
 * them at once (20 bytes a decimal, 21 signed, 18 hex).
 */

/* "0x" and lowercase hex, no leading zeros (18 bytes of room). */
static inline void
out_x64_nc(uint64_t v)
{
	out_buf[out_len] = '0';
	out_buf[out_len + 1] = 'x';
	out_len += 2 + pd_hex(out_buf + out_len + 2, v);
}

static inline void
out_x64(uint64_t v)
{
	out_room(18);
	out_x64_nc(v);
}

#endif /* PDDUMP_OUT_H */
