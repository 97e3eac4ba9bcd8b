/* SPDX-License-Identifier: MIT */
/*
 * A duration on the command line, as the off-CPU views' minimum wait
 * takes it: digits and a unit, ns, us, ms or s (none: ns), e.g. "200us".
 */
#ifndef PD_DURATION_H
#define PD_DURATION_H

#include <stdint.h>

/* 0 and *ns, or -1 when s is not such a duration (or overflows). */
int	pd_duration_parse(const char *s, uint64_t *ns);

#endif /* PD_DURATION_H */
