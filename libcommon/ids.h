/* SPDX-License-Identifier: MIT */
/*
 * Every place a record names a sample id, so that a tool can renumber
 * them (pdcat joining streams whose ids collide).
 */
#ifndef PD_IDS_H
#define PD_IDS_H

#include <stdint.h>

struct pd_evlist;
struct pd_rec;

typedef uint64_t	(*pd_id_map_fn)(void *ctx, uint64_t id);

/*
 * Rewrites in place every sample id of record `p` (native order, the
 * record described by `rec`) through map: HEADER_ATTR ids, ID_INDEX,
 * EVENT_UPDATE, STAT, SAMPLE id/identifier and READ value ids, LOST and
 * THROTTLE ids, READ records, and every sample_id_all trailer. Layouts
 * come from `el`. Returns 0, or -1 (*why) when the record cannot be
 * parsed.
 */
int	pd_ids_map(const struct pd_evlist *el, const struct pd_rec *rec,
	    unsigned char *p, pd_id_map_fn map, void *ctx, const char **why);

#endif /* PD_IDS_H */
