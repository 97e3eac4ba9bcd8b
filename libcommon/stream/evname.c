/* SPDX-License-Identifier: MIT */
#include "libcommon/stream/evname.h"

#include <string.h>

#include "libcommon/stream/perf.h"

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

/* Index = config (PERF_COUNT_HW_*, PERF_COUNT_SW_*). */
static const char *const hw_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses",
	"branches", "branch-misses", "bus-cycles", "stalled-cycles-frontend",
	"stalled-cycles-backend", "ref-cycles",
};

static const char *const sw_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches",
	"cpu-migrations", "minor-faults", "major-faults", "alignment-faults",
	"emulation-faults", "dummy", "bpf-output", "cgroup-switches",
};

/* perf's other spellings of the same events. */
static const struct {
	const char	*name;
	uint32_t	 type;
	uint64_t	 config;
} aliases[] = {
	{ "cpu-cycles",		PERF_TYPE_HARDWARE, 0 },
	{ "branch-instructions", PERF_TYPE_HARDWARE, 4 },
	{ "idle-cycles-frontend", PERF_TYPE_HARDWARE, 7 },
	{ "idle-cycles-backend", PERF_TYPE_HARDWARE, 8 },
	{ "faults",		PERF_TYPE_SOFTWARE, 2 },
	{ "cs",			PERF_TYPE_SOFTWARE, 3 },
	{ "migrations",		PERF_TYPE_SOFTWARE, 4 },
};

const char *
pd_event_name(uint32_t type, uint64_t config)
{
	if (type == PERF_TYPE_HARDWARE && config < NELEM(hw_names))
		return hw_names[config];
	if (type == PERF_TYPE_SOFTWARE && config < NELEM(sw_names))
		return sw_names[config];
	return NULL;
}

int
pd_event_lookup(const char *name, uint32_t *type, uint64_t *config)
{
	size_t i;

	for (i = 0; i < NELEM(hw_names); i++)
		if (strcmp(name, hw_names[i]) == 0) {
			*type = PERF_TYPE_HARDWARE;
			*config = i;
			return 0;
		}
	for (i = 0; i < NELEM(sw_names); i++)
		if (strcmp(name, sw_names[i]) == 0) {
			*type = PERF_TYPE_SOFTWARE;
			*config = i;
			return 0;
		}
	for (i = 0; i < NELEM(aliases); i++)
		if (strcmp(name, aliases[i].name) == 0) {
			*type = aliases[i].type;
			*config = aliases[i].config;
			return 0;
		}
	return -1;
}
