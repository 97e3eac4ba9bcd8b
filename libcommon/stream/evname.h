/* SPDX-License-Identifier: MIT */
/*
 * Event names: perf's names for the generic hardware and software events,
 * one table, used both to name events in a stream and to parse -e.
 */
#ifndef PD_EVNAME_H
#define PD_EVNAME_H

#include <stddef.h>
#include <stdint.h>

/* perf's name for a hardware/software event, e.g. "cycles"; or NULL. */
const char	*pd_event_name(uint32_t type, uint64_t config);

/*
 * The type and config of a generic event name or alias ("cs",
 * "cpu-cycles"). 0, or -1 when the name is not one of them.
 */
int	pd_event_lookup(const char *name, uint32_t *type, uint64_t *config);

#endif /* PD_EVNAME_H */
