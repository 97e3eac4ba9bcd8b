/* SPDX-License-Identifier: MIT */
/*
 * Text from the stream (host names, command lines, event names, comms,
 * paths, symbol names) made safe to print: whoever wrote the stream must
 * not drive the reader's terminal. One escape for every tool, pddump's:
 * a backslash and a double quote get a backslash, and every byte below
 * 0x20 or from 0x7f up is written \xHH.
 */
#ifndef PD_ESC_H
#define PD_ESC_H

#include <stddef.h>

/* The room pd_esc needs for n bytes, its NUL included. */
#define PD_ESC_ROOM(n)	(4 * (n) + 1)

/* 1 when pd_esc would change the n bytes of s, else 0. */
int	pd_esc_needed(const char *s, size_t n);

/*
 * 1 when the n bytes of s may stand bare as a value of pddump's
 * key=value text: at least one, none that pd_esc would change, no space
 * and no '='. Else 0 (the value is written quoted).
 */
int	pd_esc_bare(const char *s, size_t n);

/*
 * Writes the n bytes of s, escaped, and a NUL to dst, which has room
 * for PD_ESC_ROOM(n) bytes. Returns the length written, NUL excluded.
 */
size_t	pd_esc(char *dst, const char *s, size_t n);

/*
 * String s as it may be printed: s itself when it needs no escape, else
 * its escaped form in buf (len bytes, cut at a whole escape when it does
 * not fit). Valid as long as both s and buf are.
 */
const char	*pd_esc_str(const char *s, char *buf, size_t len);

#endif /* PD_ESC_H */
