/* SPDX-License-Identifier: MIT */
/*
 * Byte order conversion of records, field by field at each field's own
 * width (see pdswap). The reader uses it to turn foreign input native.
 */
#ifndef PD_SWAP_H
#define PD_SWAP_H

#include <stddef.h>

struct pd_evlist;

/* Whether this build converts whole records (0: only headers). */
int	pd_swap_supported(void);

/* Swaps a record header (u32 type, u16 misc, u16 size) in place. */
void	pd_swap_header(unsigned char *p);

/*
 * Turns a foreign-order record, whose header was already swapped, into
 * native order in place; sample layouts come from `el`. 0, or -1 (*why).
 */
int	pd_swap_rec(const struct pd_evlist *el, unsigned char *p,
	    const char **why);

/* A foreign perf_event_attr of `len` bytes to native, in place; 0 or -1. */
int	pd_swap_attr(unsigned char *p, size_t len);

/* A foreign feature section body to native, in place; 0 or -1. */
int	pd_swap_feature(unsigned feat, unsigned char *p, size_t len);

#endif /* PD_SWAP_H */
