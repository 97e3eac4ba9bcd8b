/* SPDX-License-Identifier: MIT */
#ifndef PD_UTF8_H
#define PD_UTF8_H

#include <stddef.h>

/*
 * The length (1 to 4) of the well-formed UTF-8 sequence that starts at
 * p, of the n > 0 bytes there (RFC 3629: no overlong forms, surrogates
 * or code points past U+10FFFF); 0 when p[0] starts none. Strings from
 * a stream are bytes, so a JSON writer copies what this accepts and
 * escapes the rest.
 */
size_t	pd_utf8_seq(const unsigned char *p, size_t n);

#endif /* PD_UTF8_H */
