/* SPDX-License-Identifier: MIT */
#include "libcommon/cli/duration.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int
pd_duration_parse(const char *s, uint64_t *ns)
{
	static const struct {
		const char	*name;
		uint64_t	 mul;
	} units[] = {
		{ "", 1 }, { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
		{ "s", 1000000000 }
	};
	unsigned long long v;
	char *end;
	size_t i;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0)
		return -1;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(end, units[i].name) == 0) {
			if (v > UINT64_MAX / units[i].mul)
				return -1;
			*ns = v * units[i].mul;
			return 0;
		}
	return -1;
}
