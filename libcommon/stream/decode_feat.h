/* SPDX-License-Identifier: MIT */
#ifndef PD_DECODE_FEAT_H
#define PD_DECODE_FEAT_H

#include <stddef.h>
#include <stdint.h>

struct pd_dvisit;

/*
 * Walks a feature body (feature id f, `len` bytes, native order) field by
 * field: strings, counts, lists (cmdline, event descriptions with their
 * attrs, topologies, PMU mappings, caches, ...); bodies we do not know
 * come out as bytes. 0, or -1 (*why) when the body is malformed (the
 * fields before the fault were visited).
 */
int	pd_decode_feature(uint64_t f, const unsigned char *p, size_t len,
	    const struct pd_dvisit *v, const char **why);

#endif /* PD_DECODE_FEAT_H */
